"""tf.experimental.dlpack: buffers shared with NumPy (and any DLPack consumer) both ways."""
import numpy as np
import pytest

import eagerflow as tf


def test_round_trip_and_consumption():
    t = tf.constant([[1.0, 2.0], [3.0, 4.0]])
    capsule = tf.experimental.dlpack.to_dlpack(t)
    back = tf.experimental.dlpack.from_dlpack(capsule)
    assert back.dtype == tf.float32 and back.numpy().tolist() == [[1, 2], [3, 4]]
    with pytest.raises(tf.errors.InvalidArgumentError, match="consumed at most once"):
        tf.experimental.dlpack.from_dlpack(capsule)
    for value in (tf.constant(True), tf.constant([1, 2], tf.int64), tf.Variable([1.5]),
                  tf.constant([1 + 2j], tf.complex64), tf.zeros([0, 3])):
        out = tf.experimental.dlpack.from_dlpack(tf.experimental.dlpack.to_dlpack(value))
        assert out.dtype == value.dtype and out.shape == value.shape
        np.testing.assert_array_equal(out, tf.convert_to_tensor(value))
    with pytest.raises(tf.errors.InvalidArgumentError):
        tf.experimental.dlpack.to_dlpack(tf.constant(["a"]))


def test_other_libraries_buffers():
    a = np.arange(6, dtype=np.int64).reshape(2, 3)
    from_capsule = tf.experimental.dlpack.from_dlpack(a.__dlpack__())
    assert from_capsule.numpy().tolist() == [[0, 1, 2], [3, 4, 5]]
    assert tf.experimental.dlpack.from_dlpack(a).dtype == tf.int64  # an object with __dlpack__
    t = tf.constant([1.0, 2.0])
    assert np.from_dlpack(t).tolist() == [1.0, 2.0]  # tensors are DLPack producers
    assert t.__dlpack_device__() == (1, 0)
