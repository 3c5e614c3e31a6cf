"""TF's training ops as `tf.raw_ops` runs them, against values recorded from TF."""
import numpy as np
import pytest

import eagerflow as tf


def test_sparse_apply_updates_a_repeated_row_once_per_occurrence():
    v, a = tf.Variable([[1.0], [2.0]]), tf.Variable([[0.0], [0.0]])
    tf.raw_ops.ResourceSparseApplyMomentum(
        var=v.handle, accum=a.handle, lr=0.1, grad=tf.constant([[1.0], [1.0], [3.0]]),
        indices=tf.constant([0, 0, 1]), momentum=0.9)
    np.testing.assert_allclose(v.numpy(), [[0.71], [1.7]], rtol=1e-6)
    np.testing.assert_allclose(a.numpy(), [[1.9], [3.0]], rtol=1e-6)
    v, a = tf.Variable([1.0, 2.0]), tf.Variable([1.0, 1.0])
    tf.raw_ops.ResourceSparseApplyAdagradV2(
        var=v.handle, accum=a.handle, lr=1.0, epsilon=0.0, grad=tf.constant([1.0, 1.0]),
        indices=tf.constant([1, 1], tf.int64))
    np.testing.assert_allclose(v.numpy(), [1.0, 0.7155429], rtol=1e-6)
    np.testing.assert_allclose(a.numpy(), [1.0, 3.0])


def test_legacy_keras_sums_a_repeated_row_first():
    emb = tf.Variable([[1.0, 2.0], [3.0, 4.0]])
    opt = tf.keras.optimizers.legacy.SGD(0.1, momentum=0.9)
    for _ in range(2):
        with tf.GradientTape() as tape:
            loss = tf.reduce_sum(tf.gather(emb, [1, 1, 0]) ** 2)
        opt.apply_gradients(zip(tape.gradient(loss, [emb]), [emb]))
    np.testing.assert_allclose(emb.numpy(), [[0.46, 0.92], [0.0, 0.0]], atol=1e-6)


def test_sparse_apply_index_out_of_range():
    v, a = tf.Variable(np.ones((4, 2), np.float32)), tf.Variable(np.ones((4, 2), np.float32))
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match="Index 5 at offset 1 in indices is out of range"):
        tf.raw_ops.ResourceSparseApplyMomentum(
            var=v.handle, accum=a.handle, lr=0.1, grad=tf.ones((2, 2)),
            indices=tf.constant([0, 5]), momentum=0.9)
    with pytest.raises(tf.errors.InvalidArgumentError, match="indices must be one-dimensional"):
        tf.raw_ops.ResourceSparseApplyMomentum(
            var=v.handle, accum=a.handle, lr=0.1, grad=tf.ones((1, 2)),
            indices=tf.constant([[0]]), momentum=0.9)
