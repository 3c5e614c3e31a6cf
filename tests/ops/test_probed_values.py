"""Op values on paths found by comparing programs with TF 2.21 (values checked there)."""
import numpy as np

import eagerflow as tf


def test_scale_regularization_loss_sums_a_tensor_of_losses():
    assert float(tf.nn.scale_regularization_loss(tf.ones([3, 4]))) == 12.0
    assert float(tf.nn.scale_regularization_loss([tf.ones([2]), tf.ones([2])])) == 4.0
    x = tf.constant([1.0, 2.0])
    with tf.GradientTape() as t:
        t.watch(x)
        loss = tf.nn.scale_regularization_loss(x * x)
    assert loss.shape == ()
    np.testing.assert_allclose(t.gradient(loss, x), [2.0, 4.0])


def test_sparse_reductions_take_unordered_and_repeated_indices():
    sp = tf.sparse.SparseTensor([[1, 2], [0, 0], [1, 2], [1, 0]], [1.0, 2.0, 3.0, -4.0], [2, 3])
    assert float(tf.sparse.reduce_sum(sp)) == 2.0
    np.testing.assert_array_equal(tf.sparse.reduce_sum(sp, 1), [2.0, 0.0])
    np.testing.assert_array_equal(tf.sparse.reduce_sum(sp, 0), [-2.0, 0.0, 4.0])
    np.testing.assert_array_equal(tf.sparse.reduce_sum(sp, 0, output_is_sparse=True).values,
                                  [-2.0, 4.0])
    assert float(tf.sparse.reduce_max(sp)) == 3.0
    np.testing.assert_array_equal(tf.sparse.reduce_max(sp, 0), [2.0, 0.0, 3.0])
    np.testing.assert_array_equal(tf.sparse.reduce_max(sp, 1, output_is_sparse=True).values,
                                  [2.0, 3.0])
    v = tf.constant([1.0, 2.0, 3.0, -4.0])
    with tf.GradientTape() as t:
        t.watch(v)
        y = tf.sparse.reduce_sum(tf.sparse.SparseTensor(sp.indices, v, sp.dense_shape), 1)
        y = y * tf.constant([1.0, 2.0])
    np.testing.assert_array_equal(tf.convert_to_tensor(t.gradient(y, v)), [2.0, 1.0, 2.0, 2.0])


def test_sparse_reduce_over_every_axis_to_a_sparse_result():
    sp = tf.sparse.SparseTensor([[0, 0], [1, 2]], [1.0, 2.0], [2, 3])
    out = tf.sparse.reduce_sum(sp, output_is_sparse=True)
    assert out.indices.shape == (1, 0)
    np.testing.assert_array_equal(out.values, [3.0])
    np.testing.assert_array_equal(out.dense_shape, [])


def test_clip_by_value_of_indexed_slices_clips_each_slice():
    v = tf.Variable(tf.zeros([4, 2]))
    with tf.GradientTape() as t:
        y = tf.reduce_sum(tf.gather(v, [1, 1, 2]) * 5.0)
    c = tf.clip_by_value(t.gradient(y, v), -1.0, 1.0)
    assert isinstance(c, tf.IndexedSlices)
    np.testing.assert_array_equal(c.indices, [1, 1, 2])
    # row 1 appears twice: each slice is clipped, then they add up
    np.testing.assert_array_equal(tf.convert_to_tensor(c)[:, 0], [0.0, 2.0, 1.0, 0.0])
