"""TF 1's spellings of the reductions, argmax/argmin and expand_dims under tf.compat.v1
(values and messages as TF 2.21's)."""
import numpy as np
import pytest

import eagerflow as tf
import eagerflow.compat.v1 as tf1


def test_reductions_take_reduction_indices_and_keep_dims():
    x = tf.constant([[1, 2], [3, 4]])
    out = tf1.reduce_sum(x, reduction_indices=[1], keep_dims=True)
    assert out.shape == (2, 1) and out.numpy().tolist() == [[3], [7]]
    mean = tf1.math.reduce_mean(tf.constant([[1.0, 2.0]]), reduction_indices=[1], keep_dims=True)
    assert mean.numpy().tolist() == [[1.5]]
    assert int(tf1.reduce_max(x, keepdims=None)) == 4
    assert tf1.count_nonzero(x, reduction_indices=1).numpy().tolist() == [2, 2]
    with pytest.raises(ValueError, match="Cannot specify both 'reduction_indices' and 'axis'."):
        tf1.reduce_sum(x, axis=0, reduction_indices=0)
    with pytest.raises(ValueError, match="Cannot specify both 'keep_dims' and 'keepdims'."):
        tf1.reduce_prod(x, keepdims=True, keep_dims=True)


def test_argmax_takes_dimension_and_name_third():
    x = tf.constant([[1, 5], [7, 2]])
    assert tf1.argmax(x, dimension=1).numpy().tolist() == [1, 0]
    assert tf1.argmin(x, 1, "am").numpy().tolist() == [0, 1]
    with pytest.raises(ValueError, match="Cannot specify both 'dimension' and 'axis'."):
        tf1.argmax(x, axis=0, dimension=0)


def test_expand_dims_takes_dim():
    assert tf1.expand_dims(np.zeros([2, 2]), dim=-1).shape == (2, 2, 1)
    with pytest.raises(ValueError, match="Must specify an axis argument to tf.expand_dims()"):
        tf1.expand_dims(tf.zeros([2]))


def test_squeeze_takes_squeeze_dims():
    assert tf1.squeeze(tf.zeros([1, 2, 1]), squeeze_dims=[0]).shape == (2, 1)
    assert tf1.squeeze(tf.zeros([1, 2, 1])).shape == (2,)
    with pytest.raises(ValueError, match="Cannot specify both 'squeeze_dims' and 'axis'."):
        tf1.squeeze(tf.zeros([1, 2, 1]), axis=[0], squeeze_dims=[0])


def test_in_a_graph():
    g = tf.Graph()
    with g.as_default():
        x = tf1.placeholder(tf.float32, [None, 3])
        loss = tf1.reduce_mean(tf1.reduce_sum(x * x, reduction_indices=[1]))
        pred = tf1.argmax(x, dimension=1)
    with tf1.Session(graph=g) as sess:
        out = sess.run([loss, pred], {x: [[1.0, 2.0, 0.0], [0.0, 0.0, 3.0]]})
    assert float(out[0]) == 7.0 and out[1].tolist() == [1, 2]
