"""Gradients found wrong or failing by comparing programs with TF 2.21 (values checked
there, and against float64 finite differences)."""
import numpy as np
import pytest

import eagerflow as tf

X = np.array([[0.5, -1.2, 2.0], [1.5, 0.3, -0.7]], np.float32)


def _loop_plus_x(x):  # x reaches the result only through an add: no gradient list is set
    return tf.while_loop(lambda i, v: i < 3, lambda i, v: (i + 1, v * 0.9 + x), [0, x])[1]


def _loop_plus_square(x):
    return tf.while_loop(lambda i, v: i < 3, lambda i, v: (i + 1, v + x * x), [0, x])[1]


def _second_order(body, x):
    with tf.GradientTape() as t2:
        t2.watch(x)
        with tf.GradientTape() as t1:
            t1.watch(x)
            y = tf.reduce_sum(body(x) ** 2)
        g = t1.gradient(y, x)
        gs = tf.reduce_sum(g * g)
    return g, t2.gradient(gs, x)


@pytest.mark.parametrize("body", [_loop_plus_x, _loop_plus_square])
@pytest.mark.parametrize("shape", [[None, 3], [None, None], None])
def test_second_order_gradient_of_while_loop_with_unknown_dims(body, shape):
    fn = tf.function(lambda x: _second_order(body, x),
                     input_signature=[tf.TensorSpec(shape, tf.float32)])
    g, gg = fn(tf.constant(X))
    want_g, want_gg = _second_order(body, tf.constant(X.astype(np.float64)))
    np.testing.assert_allclose(g, want_g, rtol=1e-5)
    np.testing.assert_allclose(gg, want_gg, rtol=1e-5)


def test_sparse_gradients_with_int32_and_int64_indices_sum_with_int64_indices():
    x = tf.constant([[1.0, 2.0], [3.0, 4.0]])
    v = tf.Variable(x)
    with tf.GradientTape(persistent=True) as t:
        t.watch(x)
        y = tf.gather(x, tf.constant([1, 1], tf.int64)) + tf.gather(x, [0, 0])
        z = (tf.reduce_sum(tf.gather(v, tf.constant([1], tf.int64)))
             + tf.reduce_sum(tf.gather(v, [0, 0])))
    for g, indices in ((t.gradient(y, x), [1, 1, 0, 0]), (t.gradient(z, v), [1, 0, 0])):
        assert isinstance(g, tf.IndexedSlices)
        assert g.indices.dtype == tf.int64
        assert g.indices.numpy().tolist() == indices
    np.testing.assert_array_equal(tf.convert_to_tensor(t.gradient(y, x)), [[2, 2], [2, 2]])


def test_sparse_gradients_with_mixed_index_dtypes_in_a_function():
    @tf.function
    def f(x):
        with tf.GradientTape() as t:
            t.watch(x)
            y = tf.gather(x, tf.constant([1, 1], tf.int64)) + tf.gather(x, [0, 0])
        g = t.gradient(y, x)
        return g.indices, tf.convert_to_tensor(g)

    indices, dense = f(tf.constant([[1.0, 2.0], [3.0, 4.0]]))
    assert indices.dtype == tf.int64
    np.testing.assert_array_equal(dense, [[2, 2], [2, 2]])


def _derivatives(fn, x, n):
    """The first `n` derivatives of elementwise `fn` at `x`, each taken of the last."""
    tapes = [tf.GradientTape(persistent=True) for _ in range(n)]
    for t in tapes:
        t.__enter__()
        t.watch(x)
    results = [fn(x)]
    for t in reversed(tapes):
        t.__exit__(None, None, None)
        results.append(t.gradient(results[-1], x))
    return results[1:]


def test_third_derivative_of_relu6_is_zeros_not_unconnected():
    d1, d2, d3 = _derivatives(tf.nn.relu6, tf.constant([-2.0, 0.5, 3.0, 7.0]), 3)
    np.testing.assert_array_equal(d1, [0, 1, 1, 0])
    np.testing.assert_array_equal(d2, [0, 0, 0, 0])
    assert d3 is not None
    np.testing.assert_array_equal(d3, [0, 0, 0, 0])


def test_forward_accumulator_jvp_before_its_block():
    x = tf.constant([1.0, 2.0])
    acc = tf.autodiff.ForwardAccumulator(x, tf.constant([1.0, 1.0]))
    y = x * 2
    np.testing.assert_array_equal(acc.jvp(x), [1, 1])
    assert acc.jvp(y) is None
    np.testing.assert_array_equal(acc.jvp(y, unconnected_gradients="zero"), [0, 0])
    with acc:
        z = x * 3
    np.testing.assert_array_equal(acc.jvp(z), [3, 3])
    assert acc.jvp(y) is None


@pytest.mark.parametrize("fn, values", [
    (tf.sparse.segment_sum, [[1, 2], [3, 4], [4, 6]]),
    (tf.sparse.segment_mean, [[0.5, 1], [1.5, 2], [2, 3]]),
])
def test_sparse_segment_sparse_gradient_lists_each_index_once_in_order(fn, values):
    x = tf.constant([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
    with tf.GradientTape() as t:
        t.watch(x)
        y = fn(x, [2, 0, 2, 1], [0, 0, 1, 1], sparse_gradient=True) * [[1.0, 2.0], [3.0, 4.0]]
    g = t.gradient(y, x)
    assert isinstance(g, tf.IndexedSlices)
    assert g.indices.numpy().tolist() == [0, 1, 2]
    np.testing.assert_allclose(g.values, values)
    # a clipped norm sees each row once, as the dense gradient's
    np.testing.assert_allclose(tf.convert_to_tensor(tf.clip_by_norm(g, 1.0)),
                               tf.clip_by_norm(tf.convert_to_tensor(g), 1.0), rtol=1e-6)


def test_sparse_segment_mean_and_sqrt_n_round_as_tf():
    x = tf.constant([[1.0], [2.0], [4.0], [0.1], [0.7], [3.3], [1.1]])
    with tf.GradientTape() as t:
        t.watch(x)
        y = tf.sparse.segment_mean(x, [0, 1, 2], [0, 0, 0]) * 3.0
    assert y.numpy()[0, 0] == np.float32(7.0000005)  # 7 * float32(1/3) * 3
    np.testing.assert_array_equal(tf.sparse.segment_mean(x, list(range(7)), [0] * 7) * 3.0,
                                  [[np.float32(5.228572)]])
    np.testing.assert_array_equal(tf.sparse.segment_sqrt_n(x, [0, 1], [0, 0]) * 3.0,
                                  [[np.float32(6.3639607)]])
    np.testing.assert_array_equal(t.gradient(y, x)[:3, 0], [1, 1, 1])


def _embedding_gradient(params, weights=None, **kwargs):
    ids = tf.sparse.SparseTensor([[0, 0], [0, 1], [2, 0], [2, 1]],
                                 tf.constant([2, 0, 2, 3], tf.int64), [4, 2])
    if weights is not None:
        weights = tf.sparse.SparseTensor(ids.indices, weights, ids.dense_shape)
    with tf.GradientTape() as t:
        t.watch(params)
        y = tf.nn.embedding_lookup_sparse(params, ids, weights, **kwargs)
        s = tf.reduce_sum(y * [[1.0, 2.0]] * tf.range(1.0, 4.0)[:, None])
    return t.gradient(s, params)


P = np.array([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0], [7.0, 8.0]], np.float32)
DENSE_SUM_GRAD = [[1, 2], [0, 0], [4, 8], [3, 6]]


def test_embedding_lookup_sparse_gradient_of_a_tensor_table_lists_ids_in_order():
    g = _embedding_gradient(tf.constant(P), combiner="sum")
    assert isinstance(g, tf.IndexedSlices)
    assert g.indices.numpy().tolist() == [0, 2, 3]
    np.testing.assert_array_equal(g.values, [[1, 2], [4, 8], [3, 6]])
    # a fast lookup's is dense; a variable's lists the distinct ids as met
    fast = _embedding_gradient(tf.constant(P), combiner="sum", allow_fast_lookup=True)
    assert not isinstance(fast, tf.IndexedSlices)
    np.testing.assert_array_equal(fast, DENSE_SUM_GRAD)
    v = _embedding_gradient(tf.Variable(P), combiner="sum")
    assert v.indices.numpy().tolist() == [2, 0, 3]
    np.testing.assert_array_equal(tf.convert_to_tensor(v), DENSE_SUM_GRAD)


def test_weighted_fast_embedding_lookup_sparse_gathers_each_id():
    g = _embedding_gradient(tf.constant(P), [1.0, 2.0, 0.5, 1.0], combiner="sum",
                            allow_fast_lookup=True)
    assert g.indices.numpy().tolist() == [2, 0, 2, 3]
    np.testing.assert_array_equal(g.values, [[1, 2], [2, 4], [1.5, 3], [3, 6]])


def _third_order(body, x):
    with tf.GradientTape() as t3:
        t3.watch(x)
        g, gg = _second_order(body, x)
        s = tf.reduce_sum(gg * gg)
    return t3.gradient(s, x)


@pytest.mark.parametrize("body", [
    lambda x: tf.scan(lambda a, r: a * 0.5 + r, x),
    lambda x: tf.map_fn(lambda r: r * tf.reduce_sum(r), x),
    lambda x: tf.foldl(lambda a, r: a + r * r, x),
], ids=["scan", "map_fn", "foldl"])
@pytest.mark.parametrize("shape", [[2, 3], [None, 3]])
def test_third_order_gradient_of_tensor_array_loops_in_a_function(body, shape):
    fn = tf.function(lambda x: _third_order(body, x),
                     input_signature=[tf.TensorSpec(shape, tf.float32)])
    want = _third_order(body, tf.constant(X.astype(np.float64)))
    np.testing.assert_allclose(fn(tf.constant(X)), want, rtol=1e-5)


_M = np.array([[2.0, 1.0], [1.0, 3.0]], np.float32)


@pytest.mark.parametrize("fn, matrix, rhs", [
    (tf.linalg.solve, _M, [[1.0], [2.0]]),
    (tf.linalg.triangular_solve, _M, [[1.0], [2.0]]),
    (tf.linalg.cholesky_solve, _M, [[1.0], [2.0]]),
    (tf.linalg.set_diag, _M, [1.0, 2.0]),
    (tf.linalg.cross, np.ones(3, np.float32), [1.0, 2.0, 3.0]),
], ids=["solve", "triangular_solve", "cholesky_solve", "set_diag", "cross"])
def test_numpy_matrix_takes_the_dtype_of_a_tensor_operand(fn, matrix, rhs):
    b = tf.constant(rhs, tf.float64)
    with tf.GradientTape() as t:
        t.watch(b)
        y = fn(matrix, b)
    assert y.dtype == tf.float64
    assert t.gradient(y, b).dtype == tf.float64
