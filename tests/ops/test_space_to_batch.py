"""`tf.space_to_batch_nd`, `tf.batch_to_space` and `tf.required_space_to_batch_paddings`
against TF 2.21 (values and messages recorded from it)."""
import numpy as np
import pytest

import eagerflow as tf

X = np.arange(2 * 4 * 6 * 3).reshape(2, 4, 6, 3).astype(np.float32)


def test_round_trip_and_values():
    y = tf.space_to_batch_nd(X, [2, 3], [[0, 0], [1, 2]])
    assert y.shape == (12, 2, 3, 3)
    np.testing.assert_array_equal(y.numpy().ravel()[:10], [0, 0, 0, 6, 7, 8, 15, 16, 17, 0])
    np.testing.assert_array_equal(y.numpy().sum(axis=(1, 2, 3))[:6],
                                  [354, 1218, 282, 1146, 318, 1182])
    np.testing.assert_array_equal(tf.space_to_batch(X, [2, 3], [[0, 0], [1, 2]]), y)
    np.testing.assert_array_equal(tf.batch_to_space(y, [2, 3], [[0, 0], [1, 2]]), X)
    assert tf.space_to_batch_nd(X[..., 0], [2], [[0, 0]]).shape == (4, 2, 6)
    np.testing.assert_array_equal(
        tf.batch_to_space(tf.reshape(tf.range(8.0), [4, 2, 1]), [2], [[1, 0]]).numpy().ravel(),
        [4, 1, 5, 6, 3, 7])
    traced = tf.function(lambda a: tf.batch_to_space(
        tf.space_to_batch_nd(a, [2, 2], [[0, 0], [0, 0]]), [2, 2], [[0, 0], [0, 0]]))
    np.testing.assert_array_equal(traced(X), X)


def test_gradient():
    v = tf.Variable(X)
    with tf.GradientTape() as tape:
        y = tf.space_to_batch_nd(v, [2, 3], [[0, 0], [1, 2]]) ** 2
    np.testing.assert_array_equal(tape.gradient(y, v), 2 * X)


@pytest.mark.parametrize("call, message", [
    (lambda: tf.space_to_batch_nd(X, [2, 4], [[0, 0], [0, 0]]),
     r"padded_shape\[1\]=6 is not divisible by block_shape\[1\]=4 \[Op:SpaceToBatchND\]"),
    (lambda: tf.space_to_batch_nd(X, [2], [[0, 1], [0, 0]]),
     r"paddings should have shape \[1, 2\] instead of \[2,2\] \[Op:SpaceToBatchND\]"),
    (lambda: tf.space_to_batch_nd(X, [0, 1], [[0, 0], [0, 0]]),
     r"All values in block_shape must be positive, got value, 0 at index 0."),
    (lambda: tf.space_to_batch_nd(X, [2, 3], [[-1, 0], [0, 0]]),
     r"Paddings must be non-negative \[Op:SpaceToBatchND\]"),
    (lambda: tf.batch_to_space(tf.ones([3, 2, 2, 1]), [2, 2], [[0, 0], [0, 0]]),
     r"Input batch dimension \(3\) is not divisible by product of block sizes \(4\)"),
    (lambda: tf.batch_to_space(tf.ones([4, 2, 2, 1]), [2, 2], [[3, 3], [0, 0]]),
     r"cropped_shape\[0\]=-2 must be non-negative \[Op:BatchToSpaceND\]"),
])
def test_errors(call, message):
    with pytest.raises(tf.errors.InvalidArgumentError, match=message):
        call()


def test_required_paddings():
    paddings, crops = tf.required_space_to_batch_paddings([5, 7], [2, 3])
    assert paddings.dtype == tf.int32
    assert paddings.numpy().tolist() == [[0, 1], [0, 2]] == crops.numpy().tolist()
    paddings, crops = tf.required_space_to_batch_paddings([5, 7], [2, 3], [[1, 0], [0, 1]])
    assert paddings.numpy().tolist() == [[1, 0], [0, 2]]
    assert crops.numpy().tolist() == [[0, 0], [0, 1]]


def test_paddings_crops_and_block_shape_known_at_run_time():
    x = tf.reshape(tf.range(16.0), [1, 4, 4, 1])

    @tf.function(input_signature=[tf.TensorSpec([2, 2], tf.int32)])
    def there_and_back(pads):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = tf.space_to_batch_nd(x, [2, 2], pads)
            assert y.shape.as_list() == [4, None, None, 1]  # as TF's shape function
            back = tf.batch_to_space(y, [2, 2], pads)
            assert back.shape.as_list() == [1, None, None, 1]
            loss = tf.reduce_sum(y * y)
        return y, back, tape.gradient(loss, x)
    y, back, dx = there_and_back(tf.constant([[0, 0], [2, 0]]))
    assert y.shape == (4, 2, 3, 1)
    assert y[0, :, :, 0].numpy().tolist() == [[0, 0, 2], [0, 8, 10]]
    np.testing.assert_array_equal(back, x)
    np.testing.assert_array_equal(dx, 2 * x.numpy())
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"padded_shape\[1\]=5 is not divisible by block_shape\[1\]=2"):
        there_and_back(tf.constant([[0, 0], [1, 0]]))
    nodes = [n for n in there_and_back.get_concrete_function().graph.as_graph_def().node
             if n.op == "SpaceToBatchND"]
    assert [list(n.input)[1:] for n in nodes] == [["SpaceToBatchND/block_shape", "pads"]]

    blocks = tf.function(lambda b: tf.batch_to_space(tf.ones([8, 2, 2, 1]), b, [[0, 1], [0, 0]]),
                         input_signature=[tf.TensorSpec([2], tf.int64)])
    assert blocks.get_concrete_function().structured_outputs.shape.as_list() == \
        [None, None, None, 1]
    assert blocks(tf.constant([2, 4], tf.int64)).shape == (1, 3, 8, 1)
    floats = tf.function(lambda p: tf.space_to_batch_nd(x, [2, 2], p),
                         input_signature=[tf.TensorSpec([2, 2], tf.float32)])
    with pytest.raises(TypeError, match="Value passed to parameter 'paddings' has DataType "
                                        "float32 not in list of allowed values: int32, int64"):
        floats.get_concrete_function()


def test_graph_time_errors_and_tf1_signatures():
    traced = tf.function(lambda x: tf.space_to_batch_nd(x, [2, 2], [[0, 0], [1, 0]]),
                         input_signature=[tf.TensorSpec([None, 4, 2, 3])])
    with pytest.raises(ValueError, match="Dimension size must be evenly divisible by 2 but is "
                                         "3"):
        traced.get_concrete_function()
    # TF 1's functions take the paddings (crops) first, then one size of square blocks
    y = tf.compat.v1.space_to_batch(tf.reshape(tf.range(16.0), [1, 4, 4, 1]),
                                    [[0, 0], [0, 0]], 2)
    assert y.shape == (4, 2, 2, 1)
    assert y[1, :, :, 0].numpy().tolist() == [[1, 3], [9, 11]]
    assert tf.compat.v1.nn.space_to_batch(tf.ones([1, 2, 2, 1]), [[0, 0], [0, 0]],
                                          block_shape=2).shape == (4, 1, 1, 1)
    assert tf.compat.v1.batch_to_space(y, [[0, 0], [0, 1]], 2).shape == (1, 4, 3, 1)
    assert tf.batch_to_space(y, 2, [[0, 0], [0, 0]]).shape == (1, 4, 4, 1)
    assert tf.raw_ops.SpaceToBatchND(input=tf.ones([1, 2, 2, 1]), block_shape=[2, 2],
                                     paddings=[[0, 0], [0, 0]]).shape == (4, 1, 1, 1)
