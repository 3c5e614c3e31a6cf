"""TensorArray: eagerly a Python list of tensors, in graphs a list tensor each write replaces."""
import numpy as np
import pytest

import eagerflow as tf
from tests.graph.gradient_check import check_gradients


def _eager_and_traced(fn, *args):
    """`fn(*args)` run eagerly and in a `tf.function`, as NumPy; both must agree."""
    eager = tf.nest.map_structure(np.asarray, fn(*args))
    traced = tf.nest.map_structure(np.asarray, tf.function(fn)(*args))
    for a, b in zip(tf.nest.flatten(eager), tf.nest.flatten(traced)):
        np.testing.assert_array_equal(a, b)
    return eager


# -- values ---------------------------------------------------------------------------------------

def test_write_read_stack_and_size():
    def f():
        ta = tf.TensorArray(tf.float32, size=3).write(0, [1.0, 2.0]).write(2, [5.0, 6.0])
        return ta.stack(), ta.read(2), ta.read(1), ta.size()
    stacked, second, unwritten, size = _eager_and_traced(f)
    np.testing.assert_array_equal(stacked, [[1, 2], [0, 0], [5, 6]])
    np.testing.assert_array_equal(second, [5, 6])
    np.testing.assert_array_equal(unwritten, [0, 0])  # zeros of the inferred element shape
    assert size == 3


def test_dynamic_size_grows_on_writes():
    def f():
        ta = tf.TensorArray(tf.int32, size=0, dynamic_size=True).write(3, 7)
        return ta.stack(), ta.size()
    stacked, size = _eager_and_traced(f)
    np.testing.assert_array_equal(stacked, [0, 0, 0, 7])
    assert size == 4


def test_unstack_gather_scatter_concat_split():
    def f(x):
        rows = tf.TensorArray(tf.float32, size=3).unstack(x)
        scattered = tf.TensorArray(tf.float32, size=4).scatter([3, 1], x[:2])
        pieces = tf.TensorArray(tf.float32, size=2).split(tf.reshape(x, [-1]), [2, 4])
        # (eagerly, a read clears its element: it comes last)
        return (rows.gather([2, 0]), scattered.stack(), rows.concat(), pieces.concat(),
                pieces.read(1))
    x = np.arange(6, dtype=np.float32).reshape(3, 2)
    gathered, scattered, concatenated, whole, piece = _eager_and_traced(f, tf.constant(x))
    np.testing.assert_array_equal(gathered, x[[2, 0]])
    np.testing.assert_array_equal(scattered, [[0, 0], [2, 3], [0, 0], [0, 1]])
    np.testing.assert_array_equal(concatenated, x.ravel())
    np.testing.assert_array_equal(piece, [2, 3, 4, 5])
    np.testing.assert_array_equal(whole, x.ravel())


def test_eager_writes_change_the_array_and_graph_writes_make_new_ones():
    ta = tf.TensorArray(tf.float32, size=2)
    assert ta.write(0, 1.0) is ta
    np.testing.assert_array_equal(ta.stack(), [1, 0])

    @tf.function
    def f():
        before = tf.TensorArray(tf.float32, size=2, element_shape=[])
        after = before.write(0, 1.0)
        return before.stack(), after.stack()
    before, after = f()
    np.testing.assert_array_equal(before, [0, 0])
    np.testing.assert_array_equal(after, [1, 0])


def test_clear_after_read_eagerly():
    ta = tf.TensorArray(tf.float32, size=2).write(0, 3.0).write(1, 4.0)
    assert float(ta.read(0)) == 3.0
    with pytest.raises(tf.errors.InvalidArgumentError, match="Could not read index 0 twice"):
        ta.read(0)
    np.testing.assert_array_equal(ta.stack(), [0, 4])  # a cleared element stacks as zeros
    kept = tf.TensorArray(tf.float32, size=1, clear_after_read=False).write(0, 3.0)
    assert float(kept.read(0)) == float(kept.read(0)) == 3.0


def test_properties():
    ta = tf.TensorArray(tf.float32, size=2, element_shape=[3])
    assert ta.dtype == tf.float32 and ta.element_shape == [3] and ta.handle is None
    assert ta.dynamic_size is False and ta.flow.dtype == tf.int32
    assert ta.identity() is ta and ta.close() is None

    @tf.function
    def f():
        ta = tf.TensorArray(tf.float32, size=2, dynamic_size=True)
        assert ta.flow.dtype == tf.variant and ta.dynamic_size and ta.handle is None
        assert ta.element_shape.rank is None
        ta = ta.write(0, [1.0, 2.0])
        assert ta.element_shape == [2]  # inferred from the write
        return ta.identity().stack()
    np.testing.assert_array_equal(f(), [[1, 2], [0, 0]])


def test_static_shapes_in_graphs():
    @tf.function
    def f(n):
        fixed = tf.TensorArray(tf.float32, size=3).write(0, [1.0, 2.0])
        sized = tf.TensorArray(tf.float32, size=n).write(0, [1.0, 2.0])
        given = tf.TensorArray(tf.float32, size=2, element_shape=[None, 4])
        shapes = [fixed.stack().shape, sized.stack().shape, fixed.read(1).shape,
                  fixed.concat().shape, given.gather([0, 1, 1]).shape]
        assert [s.as_list() for s in shapes] == [[3, 2], [None, 2], [2], [None], [3, None, 4]]
        return sized.stack()
    assert f(tf.constant(2)).shape == [2, 2]


# -- errors ---------------------------------------------------------------------------------------

EAGER_ERRORS = [
    (lambda: tf.TensorArray(tf.float32), ValueError,
     "Size must be declared for TensorArrays when eager execution is enabled."),
    (lambda: tf.TensorArray(tf.float32, size=2).write(3, 1.0), tf.errors.OutOfRangeError,
     "Tried to write to index 3 but array is not resizeable and size is: 2 "),
    (lambda: tf.TensorArray(tf.float32, size=2).write(-1, 1.0), tf.errors.OutOfRangeError,
     "Writing to negative indices (index -1) is not allowed."),
    (lambda: tf.TensorArray(tf.float32, size=2).read(5), tf.errors.OutOfRangeError,
     "Tried to read from index 5 but array size is: 2 "),
    (lambda: tf.TensorArray(tf.float32, size=2).read(0), ValueError,
     "Cannot convert a partially known TensorShape <unknown> to a Tensor."),
    (lambda: tf.TensorArray(tf.float32, size=2).write(0, tf.constant(1)),
     tf.errors.InvalidArgumentError,
     "TensorArray dtype is float32 but Op is trying to write dtype int32 "),
    (lambda: tf.TensorArray(tf.float32, size=2).write(0, [1.0, 2.0]).write(1, [3.0]),
     ValueError, "Incompatible shape for value ((1,)), expected ((2,))"),
    (lambda: tf.TensorArray(tf.float32, size=2).unstack([1.0, 2.0, 3.0]), ValueError,
     "Cannot unstack 3 tensors into a TensorArray of static size 2 "),
    (lambda: tf.TensorArray(tf.float32, size=2).split([1.0, 2.0, 3.0], [1, 1]),
     tf.errors.InvalidArgumentError, "Expected sum of lengths to be equal to values.shape[0], "
     "but sum of lengths is 2 and value's shape is: [3] "),
    (lambda: tf.TensorArray(tf.float32, size=3).split([1.0, 2.0, 3.0], [1, 2]),
     tf.errors.InvalidArgumentError, "TensorArray's size is not equal to the size of lengths "
     "(3 vs. 2), and the TensorArray is not marked as dynamically resizeable."),
    (lambda: tf.TensorArray(tf.float32, size=1).write(0, 1.0).concat(),
     tf.errors.InvalidArgumentError,
     "Concat saw a scalar shape at index 0 but requires at least vectors."),
    # indices and sizes are integers: eagerly, Python's errors for list indices and lengths
    (lambda: tf.TensorArray(tf.float32, size=2).write(1.0, 1.0), TypeError,
     "list indices must be integers or slices, not float"),
    (lambda: tf.TensorArray(tf.float32, size=2).write(1, 1.0).read(tf.constant(1.0)),
     TypeError, "list indices must be integers or slices, not numpy.float32"),
    (lambda: tf.TensorArray(tf.float32, size=2).write(1, 1.0).gather(tf.constant([1.0])),
     TypeError,
     "list indices must be integers or slices, not numpy.float32"),
    (lambda: tf.TensorArray(tf.float32, size=2.0), TypeError,
     "'float' object cannot be interpreted as an integer"),
]


@pytest.mark.parametrize("fn, error, message", EAGER_ERRORS)
def test_eager_errors_are_tensorflows(fn, error, message):
    with pytest.raises(error) as info:
        fn()
    assert str(info.value) == message


GRAPH_ERRORS = [
    (lambda: tf.TensorArray(tf.float32, size=2).write(3, 1.0).stack(),
     "Trying to modify element 3 in a list with 2 elements."),
    (lambda: tf.TensorArray(tf.float32, size=2).write(0, 1.0).read(2),
     "Trying to access element 2 in a list with 2 elements."),
    (lambda: tf.TensorArray(tf.float32, size=2).stack(),
     "Tried to stack list which only contains uninitialized tensors and has a "
     "non-fully-defined element_shape: <unknown>"),
    (lambda: tf.TensorArray(tf.float32, size=2).read(0),
     "Trying to read an uninitialized tensor but element_shape is not fully defined: <unknown> "
     "and no list element is set."),
    (lambda: tf.TensorArray(tf.float32, size=2).unstack([1.0, 2.0, 3.0]).stack(),
     "Operation expected a list with 2 elements but got a list with 3 elements."),
    (lambda: tf.TensorArray(tf.float32, size=2).write(0, 1.0).gather([0, 5]),
     "Trying to gather element 5 in a list with 2 elements."),
]


@pytest.mark.parametrize("fn, message", GRAPH_ERRORS)
def test_graph_errors_come_from_the_list_ops(fn, message):
    with pytest.raises(tf.errors.InvalidArgumentError, match="Graph execution error") as info:
        tf.function(fn)()
    assert message in str(info.value)


def test_graph_construction_errors():
    with pytest.raises(ValueError, match="Argument `size` must be provided"):
        tf.function(lambda: tf.TensorArray(tf.float32).size())()
    with pytest.raises(ValueError, match=r"Inconsistent shapes: saw \(1,\) but expected \(2,\)"):
        tf.function(lambda: tf.TensorArray(tf.float32, size=2).write(0, [1.0, 2.0])
                    .write(1, [1.0]).stack())()
    with pytest.raises(tf.errors.InvalidArgumentError, match="TensorArray dtype is int32"):
        tf.function(lambda: tf.TensorArray(tf.int32, size=2).write(0, 1.5).stack())()



def test_grad_is_not_implemented_as_in_tf2():
    # TF 1's gradient arrays do not exist in TF 2: eagerly TF says why, in a graph it doesn't
    with pytest.raises(NotImplementedError, match="TensorArray.grad is not supported when "
                       "executing eagerly"):
        tf.TensorArray(tf.float32, size=2).grad("gradients")
    with pytest.raises(NotImplementedError):
        tf.function(lambda: tf.TensorArray(tf.float32, size=2).grad("gradients").stack())()

# -- control flow ----------------------------------------------------------------------------------

def _squares_and_sums(x):
    """Nested TensorArrays as while_loop variables; `x`'s rows read from a captured one."""
    n = tf.shape(x)[0]
    rows = tf.TensorArray(x.dtype, size=n).unstack(x)

    def body(i, total, out):
        total = total + rows.read(i)
        return i + 1, total, {"squares": out["squares"].write(i, total * total),
                              "sums": out["sums"].write(i, total)}
    out = {"squares": tf.TensorArray(x.dtype, size=n), "sums": tf.TensorArray(x.dtype, size=n)}
    _, _, out = tf.while_loop(lambda i, *_: i < n, body, (0, tf.zeros_like(x[0]), out))
    return out["squares"].stack() + tf.sin(out["sums"].stack())


def test_tensor_arrays_as_loop_variables():
    x = np.array([[1.0, 2.0], [0.5, -1.0], [2.0, 0.0]], np.float32)
    sums = np.cumsum(x, 0)
    got = _eager_and_traced(_squares_and_sums, tf.constant(x))
    np.testing.assert_allclose(got, sums ** 2 + np.sin(sums), rtol=1e-6)


def test_a_dynamic_array_grows_in_a_graph_loop():
    @tf.function
    def f(n):
        ta = tf.TensorArray(tf.float32, size=0, dynamic_size=True)
        _, ta = tf.while_loop(lambda i, ta: i < n,
                              lambda i, ta: (i + 1, ta.write(i, tf.cast(i, tf.float32))), (0, ta))
        assert ta.stack().shape.as_list() == [None]
        return ta.stack()
    np.testing.assert_array_equal(f(tf.constant(4)), [0, 1, 2, 3])


def _branches(x):
    ta = tf.TensorArray(x.dtype, size=2)
    ta = tf.cond(tf.reduce_sum(x) > 0, lambda: ta.write(0, x * 2.0).write(1, x),
                 lambda: ta.write(1, x * x).write(0, x))
    return ta.stack()


def test_cond_branches_return_tensor_arrays():
    for x in ([1.0, 2.0], [-1.0, -2.0]):
        x = np.array(x, np.float32)
        want = [x * 2, x] if x.sum() > 0 else [x, x * x]
        np.testing.assert_array_equal(_eager_and_traced(_branches, tf.constant(x)), want)


# -- gradients -------------------------------------------------------------------------------------

def _every_method(x):
    ta = tf.TensorArray(x.dtype, size=4, element_shape=[2])
    ta = ta.scatter([3, 1], x[:2] * 2.0).write(0, tf.sin(x[2]))
    pieces = tf.TensorArray(x.dtype, size=2).split(tf.reshape(x, [-1]), [2, 4])
    rows = tf.TensorArray(x.dtype, size=3).unstack(x * x)
    return (tf.reduce_sum(ta.gather([3, 0, 2]) ** 2) + tf.reduce_sum(tf.exp(ta.concat()))
            + tf.reduce_sum(pieces.concat() * tf.range(6, dtype=x.dtype)) + ta.read(1)[0]
            + pieces.read(1)[3] + tf.reduce_sum(rows.stack()[1:]) * rows.read(0)[1])


def test_gradients_through_every_method():
    check_gradients(_every_method, np.arange(6.0).reshape(3, 2) / 5)


def test_gradients_through_arrays_in_a_loop():
    check_gradients(_squares_and_sums, [[1.0, 2.0], [0.5, -1.0], [2.0, 0.0]])


def _recurrence(x):
    """A loop reading what earlier iterations wrote, and rewriting one element each time."""
    n = x.shape[0]
    rows = tf.TensorArray(x.dtype, size=n).unstack(x)
    ta = tf.TensorArray(x.dtype, size=n + 1, clear_after_read=False)
    ta = ta.write(0, rows.read(0)).write(n, tf.zeros_like(x[0]))

    def body(i, ta):
        value = tf.sin(ta.read(i - 1)) * rows.read(i)
        return i + 1, ta.write(i, value).write(n, ta.read(n) * 0.5 + value)
    return tf.while_loop(lambda i, ta: i < n, body, (1, ta))[1].stack()


def test_gradients_through_a_loop_reading_its_own_array():
    check_gradients(_recurrence, [[0.5, 1.0], [1.5, -0.5], [0.8, 2.0], [-1.0, 0.3]])


@pytest.mark.parametrize("x", [[1.1, 2.0], [-1.1, 0.5]])
def test_gradients_through_arrays_returned_by_cond(x):
    check_gradients(_branches, x)


def test_gradients_of_lists_are_lists():
    """Zeros, sums and broadcast reduction of list gradients, as the tape applies them."""
    from tests.internals import list_ops
    from tests.internals import add_sparse_or_dense
    from tests.internals import unbroadcast
    rows = list_ops.from_tensor(tf.constant([[1.0], [2.0]]))
    zero = tf.zeros_like(rows)  # every element None: zero
    assert zero.dtype == tf.variant and list_ops.length(zero) == 2
    one_row = list_ops.set_item(list_ops.reserve([1], 3, tf.float32), 2, tf.constant([5.0]))
    total = add_sparse_or_dense(add_sparse_or_dense(rows, zero), one_row)
    assert unbroadcast(total, rows) is total
    np.testing.assert_array_equal(list_ops.stack(total, [1], tf.float32), [[1], [2], [5]])


def test_unstacked_strings_read_as_string_tensors_in_a_function():
    @tf.function
    def lengths(s):
        ta = tf.TensorArray(tf.string, size=2).unstack(s)
        return tf.strings.length(ta.read(1)), ta.read(0)

    n, first = lengths(tf.constant(["ab", "cde"]))
    assert int(n) == 3 and first.numpy() == b"ab"
