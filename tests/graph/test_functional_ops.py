"""map_fn, scan, foldl, foldr and vectorized_map: eagerly, in graphs, and their gradients."""
import numpy as np
import pytest

import eagerflow as tf
from tests.graph.gradient_check import check_gradients

X = np.array([[1.0, 2.0], [3.0, -1.0], [0.5, 4.0]], np.float32)


def _eager_and_traced(fn, *args):
    """`fn(*args)` run eagerly and in a `tf.function`, as NumPy; both must agree."""
    eager = tf.nest.map_structure(np.asarray, fn(*args))
    traced = tf.nest.map_structure(np.asarray, tf.function(fn)(*args))
    tf.nest.assert_same_structure(eager, traced)
    for a, b in zip(tf.nest.flatten(eager), tf.nest.flatten(traced)):
        np.testing.assert_allclose(a, b, rtol=1e-6)
        assert a.dtype == b.dtype
    return eager


# -- map_fn ---------------------------------------------------------------------------------------

def test_map_fn_applies_fn_to_each_row():
    got = _eager_and_traced(lambda x: tf.map_fn(lambda row: tf.reduce_sum(row) * row, x),
                            tf.constant(X))
    np.testing.assert_allclose(got, X.sum(1, keepdims=True) * X)


def test_map_fn_nested_elems_and_output_signature():
    def f(x, n):
        return tf.map_fn(lambda e: {"sum": e[0][0] + e[1] * tf.cast(e[0][1], tf.float32),
                                    "cast": tf.cast(e[0][0], tf.int32)},
                         ((x, n), x[:, 1]),
                         fn_output_signature={"sum": tf.float32,
                                              "cast": tf.TensorSpec([2], tf.int32)})
    got = _eager_and_traced(f, tf.constant(X), tf.constant([1, 2, 3]))
    np.testing.assert_allclose(got["sum"], X + X[:, 1:] * [[1], [2], [3]])
    np.testing.assert_array_equal(got["cast"], X.astype(np.int32))


def test_map_fn_deprecated_dtype_and_empty_elems():
    got = _eager_and_traced(lambda x: tf.map_fn(lambda r: tf.cast(r, tf.int64), x,
                                                dtype=tf.int64), tf.constant(X))
    np.testing.assert_array_equal(got, X.astype(np.int64))
    empty = tf.map_fn(lambda r: r * 2.0, tf.zeros([0, 3]),
                      fn_output_signature=tf.TensorSpec([3], tf.float32))
    assert empty.shape == [0, 3]


def test_map_fn_static_shapes_in_graphs():
    @tf.function
    def f(x, y):
        a = tf.map_fn(lambda r: r * 2.0, x)
        b = tf.map_fn(lambda r: tf.reduce_sum(r), y)
        assert a.shape.as_list() == [None, 3] and b.shape.as_list() == [4]
        return a
    f.get_concrete_function(tf.TensorSpec([None, 3]), tf.TensorSpec([4, None]))


@pytest.mark.parametrize("call, error, message", [
    (lambda: tf.map_fn(1, tf.constant([1.0])), TypeError, "fn must be callable."),
    (lambda: tf.map_fn(lambda x: x, ()), ValueError,
     "elems must be a Tensor or (possibly nested) sequence of Tensors. Got (), which does not "
     "contain any Tensors."),
    (lambda: tf.map_fn(lambda x: x, tf.constant(1.0)), ValueError,
     "Elements in elems must be 1+ dimensional Tensors, not scalars"),
    (lambda: tf.map_fn(lambda x: x, (tf.constant([1.0, 2.0]), tf.constant([3.0]))), ValueError,
     "Dimensions 2 and 1 are not compatible"),
    (lambda: tf.map_fn(lambda x: tf.cast(x, tf.int32), tf.constant([1.0])),
     tf.errors.InvalidArgumentError,
     "TensorArray dtype is float32 but Op is trying to write dtype int32 "),
    (lambda: tf.map_fn(lambda x: tf.range(x), tf.constant([1, 2])), ValueError,
     "Incompatible shape for value ((2,)), expected ((1,))"),
])
def test_map_fn_errors_are_tensorflows(call, error, message):
    with pytest.raises(error) as info:
        call()
    assert str(info.value) == message
    with pytest.raises(ValueError, match="don't have the same nested structure"):
        tf.map_fn(lambda x: (x, x), tf.constant([1.0, 2.0]))


# -- scan, foldl, foldr ---------------------------------------------------------------------------

def test_scan():
    def f(x):
        return (tf.scan(lambda a, r: a + r, x),
                tf.scan(lambda a, r: a * r, x, reverse=True),
                tf.scan(lambda a, r: (a[0] + r[0], a[1] * r[1]), (x[:, 0], x[:, 1]),
                        initializer=(10.0, 1.0)))
    summed, product, (firsts, seconds) = _eager_and_traced(f, tf.constant(X))
    np.testing.assert_allclose(summed, np.cumsum(X, 0))
    np.testing.assert_allclose(product, np.cumprod(X[::-1], 0)[::-1])
    np.testing.assert_allclose(firsts, 10 + np.cumsum(X[:, 0]))
    np.testing.assert_allclose(seconds, np.cumprod(X[:, 1]))


def test_scan_of_no_rows():
    assert tf.scan(lambda a, r: a + r, tf.zeros([0]), initializer=1.0).shape == [0]
    with pytest.raises(tf.errors.OutOfRangeError,
                       match="Tried to read from index 0 but array size is: 0"):
        tf.scan(lambda a, r: a + r, tf.zeros([0]))


def test_folds():
    def f(x):
        return (tf.foldl(lambda a, r: a - r, x), tf.foldl(lambda a, r: a - r, x, 10.0),
                tf.foldr(lambda a, r: a - r, x), tf.foldr(lambda a, r: a - r, x, 10.0),
                tf.foldl(lambda a, r: (a[0] + r, a[1] + 1), x, initializer=(0.0, 0)))
    left, left10, right, right10, (total, count) = _eager_and_traced(f, tf.constant([1.0, 2.0,
                                                                                      3.0]))
    assert (left, left10, right, right10) == (-4.0, 4.0, 0.0, 4.0)
    assert (total, count) == (6.0, 3)
    assert float(tf.foldl(lambda a, r: a + r, tf.zeros([0]), initializer=1.0)) == 1.0


# -- vectorized_map --------------------------------------------------------------------------------

def test_vectorized_map_broadcasts_single_rows():
    def f(x):
        return tf.vectorized_map(lambda e: e[0] * e[1] + e[2],
                                 (x, tf.constant([3.0]), tf.constant([[1.0, 2.0]])))
    np.testing.assert_allclose(_eager_and_traced(f, tf.constant(X)), X * 3 + [1, 2])
    assert tf.vectorized_map(lambda r: r, tf.zeros([0, 2])).shape == [0, 2]


def test_vectorized_map_rows_of_different_shapes_fail_to_stack():
    # TF stacks the rows' results as one tensor: InvalidArgumentError (map_fn: ValueError)
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"^PartialTensorShape: Incompatible shapes during merge: "
                             r"\[1\] vs\. \[2\]$"):
        tf.vectorized_map(lambda x: tf.unique(x)[0], tf.constant([[1, 1], [2, 3]]))
    same = tf.vectorized_map(lambda x: tf.unique(x)[0], tf.constant([[1, 2], [2, 3]]))
    assert same.numpy().tolist() == [[1, 2], [2, 3]]


def test_vectorized_map_calls_its_function_once():
    # TF traces `fn` once and vectorizes the graph: Python code in it runs once, and what
    # it made (an initializer's seed) serves every row
    calls = []

    def fn(row):
        calls.append(1)
        return row * 2 + tf.keras.initializers.GlorotUniform()([2])

    for run in (lambda f, x: f(x), lambda f, x: tf.function(f)(x)):
        calls.clear()
        out = run(lambda x: tf.vectorized_map(fn, x), tf.zeros([3, 2])).numpy()
        assert len(calls) == 1
        assert (out == out[0]).all()
    v = tf.Variable([[1.0, 2.0], [3.0, 4.0]])
    with tf.GradientTape() as tape:
        y = tf.vectorized_map(lambda r: (calls.append(1), r * r)[1], v)
    assert tape.gradient(y, v).numpy().tolist() == [[2.0, 4.0], [6.0, 8.0]]


def test_vectorized_map_prints_for_the_first_row_only(capfd):
    # (TF runs the ops its vectorized results do not need once, for the first row)
    out = tf.vectorized_map(lambda x: (tf.print("row", x), x * 2)[1], tf.constant([5.0, 7.0]))
    assert out.numpy().tolist() == [10.0, 14.0]
    captured = capfd.readouterr()
    assert (captured.out + captured.err).split("\n").count("row 5") == 1
    assert "row 7" not in captured.out + captured.err


def test_vectorized_map_of_no_tensors_raises_value_error():
    for elems in ([], (), {}):
        with pytest.raises(ValueError, match=r"^max\(\) arg is an empty sequence$"):
            tf.vectorized_map(lambda x: x, elems)


def test_vectorized_map_of_a_sparse_tensor_raises_type_error():
    with pytest.raises(TypeError, match=r"^Failed to convert elements of SparseTensor\("):
        tf.vectorized_map(tf.sparse.reduce_sum, tf.sparse.from_dense([[1, 0], [0, 2]]))


@pytest.mark.parametrize("elems", [lambda: tf.constant(3.0), lambda: (tf.constant([1.0]), 3.0),
                                   lambda: [tf.Variable(2.0), tf.constant([1.0, 2.0])]])
def test_vectorized_map_rejects_scalars_as_tensorflow_does(elems):
    # TF indexes the scalar's empty shape and raises IndexError; traced, AutoGraph re-raises
    # it as a StagingError.
    with pytest.raises(IndexError, match="scalar"):
        tf.vectorized_map(lambda e: e, elems())
    with pytest.raises(Exception, match="IndexError: vectorized_map .* scalar") as raised:
        tf.function(lambda: tf.vectorized_map(lambda e: e, elems()))()
    assert type(raised.value).__name__ == "StagingError"


@pytest.mark.parametrize("call", [
    lambda elems: tf.scan(lambda a, e: a + e, elems),
    lambda elems: tf.foldl(lambda a, e: a + e, elems),
    lambda elems: tf.foldr(lambda a, e: a + e, elems, initializer=0.0),
])
@pytest.mark.parametrize("elems", [lambda: tf.constant(3.0), lambda: [1.0, 2.0]])
def test_scan_and_folds_reject_scalars_with_index_error_as_tensorflow_does(call, elems):
    # (map_fn's own check raises ValueError; TF's scan and folds index the empty shape)
    with pytest.raises(IndexError, match="scalar"):
        call(elems())


# -- gradients -------------------------------------------------------------------------------------

GRADIENT_CASES = {
    "map_fn": lambda x: tf.map_fn(lambda r: tf.sin(r) * tf.reduce_sum(r * r), x),
    "map_fn-nested": lambda x: tf.map_fn(lambda e: e[0] * e[1], (x, tf.exp(x)),
                                         fn_output_signature=tf.float64),
    "scan": lambda x: tf.scan(lambda a, r: tf.tanh(a * r + 0.5), x),
    "scan-reverse-initializer": lambda x: tf.stack(tf.scan(
        lambda a, r: (a[0] * r, a[1] + a[0]), x, reverse=True,
        initializer=(tf.ones([2], x.dtype), tf.zeros([2], x.dtype)))),
    "foldl": lambda x: tf.foldl(lambda a, r: a * r + tf.sin(a), x),
    "map_fn-of-foldl": lambda x: tf.map_fn(lambda r: tf.foldl(lambda a, v: a * v + 1.0, r), x),
    "foldr": lambda x: tf.foldr(lambda a, r: a * r - r, x, initializer=tf.ones([2], x.dtype)),
    "vectorized_map": lambda x: tf.vectorized_map(lambda e: e[0] @ e[1] * e[2],
                                                  (x[:, None, :], x[:, :, None], x[:1])),
}


@pytest.mark.parametrize("name", GRADIENT_CASES)
def test_gradients(name):
    check_gradients(GRADIENT_CASES[name], X.astype(np.float64) / 2)


def test_back_prop_false_stops_gradients_in_graphs():
    @tf.function
    def f(x):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = tf.map_fn(lambda r: r * r, x, back_prop=False)
        return tape.gradient(y, x)
    assert f(tf.constant(X)) is None


def test_traced_scan_whose_fn_changes_the_accumulator_dtype_raises_the_loop_type_error():
    elems = tf.constant([[1.0, 2.0], [3.0, 4.0]])
    scan = tf.function(lambda: tf.scan(lambda a, e: tf.cast(e, tf.int32), elems,
                                       initializer=tf.zeros(2)))
    with pytest.raises(TypeError, match="enters the loop with type <dtype: 'float32'> but has "
                                        "type <dtype: 'int32'> after 1 iteration"):
        scan()
    with pytest.raises(tf.errors.InvalidArgumentError, match="TensorArray dtype is float32"):
        tf.scan(lambda a, e: tf.cast(e, tf.int32), elems, initializer=tf.zeros(2))


# -- sparse rows and results (expected values from TF 2.21) -----------------------------------

def _sparse_parts(sp):
    return sp.indices.numpy().tolist(), sp.values.numpy().tolist(), sp.dense_shape.numpy().tolist()


def test_map_fn_over_the_rows_of_a_sparse_tensor():
    sp = tf.sparse.SparseTensor([[0, 1], [2, 0], [2, 2]], [1.0, 2.0, 3.0], [3, 4])

    def run(sp):
        sums = tf.map_fn(lambda r: tf.sparse.reduce_sum(r), sp, fn_output_signature=tf.float32)
        dense = tf.map_fn(lambda r: tf.sparse.to_dense(r), sp, fn_output_signature=tf.float32)
        doubled = tf.map_fn(lambda r: r * 2.0, sp)
        mixed = tf.map_fn(lambda a: (tf.sparse.reduce_sum(a[0]) + a[1], a[0] * a[1]),
                          (sp, tf.constant([1.0, 2.0, 3.0])),
                          fn_output_signature=(tf.float32, tf.SparseTensorSpec([4], tf.float32)))
        return sums, dense, doubled, mixed

    for f in (run, tf.function(run),
              tf.function(run, input_signature=[tf.SparseTensorSpec([None, None], tf.float32)])):
        sums, dense, doubled, mixed = f(sp)
        assert sums.numpy().tolist() == [1.0, 0.0, 5.0]
        assert dense.numpy().tolist() == [[0, 1, 0, 0], [0, 0, 0, 0], [2, 0, 3, 0]]
        assert _sparse_parts(doubled) == ([[0, 1], [2, 0], [2, 2]], [2.0, 4.0, 6.0], [3, 4])
        assert mixed[0].numpy().tolist() == [2.0, 2.0, 8.0]
        assert _sparse_parts(mixed[1]) == ([[0, 1], [2, 0], [2, 2]], [1.0, 6.0, 9.0], [3, 4])
    sp3 = tf.sparse.SparseTensor([[0, 1, 1], [1, 0, 0]], [5, 6], [2, 2, 2])
    assert tf.map_fn(tf.sparse.to_dense, sp3, fn_output_signature=tf.int32).numpy().tolist() \
        == [[[0, 0], [0, 5]], [[6, 0], [0, 0]]]


def test_map_fn_stacks_sparse_results_in_the_largest_row_shape():
    sig = tf.SparseTensorSpec([None], tf.int32)

    def run(n):
        return tf.map_fn(lambda k: tf.sparse.from_dense(tf.range(k)), n, fn_output_signature=sig)

    for f in (run, tf.function(run, input_signature=[tf.TensorSpec([None], tf.int32)])):
        assert _sparse_parts(f(tf.constant([2, 4, 1]))) == (
            [[0, 1], [1, 1], [1, 2], [1, 3]], [1, 1, 2, 3], [3, 4])


def test_vectorized_map_of_a_function_returning_none_returns_none():
    # TF 2.21 traces `fn` once and returns None (no rows are stacked)
    assert tf.vectorized_map(lambda r: None, tf.constant([[1.0, 2.0], [3.0, 4.0]])) is None
    assert tf.function(lambda x: tf.vectorized_map(lambda r: None, x))(tf.ones([2, 2])) is None


def test_vectorized_map_of_elems_with_different_numbers_of_rows_is_invalid_argument():
    # TF 2.21 raises InvalidArgumentError (eagerly and traced), as for any bad index
    elems = (tf.ones([2, 3]), tf.constant([1.0, 2.0, 3.0]))
    with pytest.raises(tf.errors.InvalidArgumentError, match="2 and 3"):
        tf.vectorized_map(lambda a: a[0] + a[1], elems)
    with pytest.raises(tf.errors.InvalidArgumentError):
        tf.function(lambda: tf.vectorized_map(lambda a: a[0] + a[1], elems))()
