"""tf.extract_volume_patches against TF 2.21's values (recorded from the same inputs)."""
import numpy as np
import pytest

import eagerflow as tf

X = tf.reshape(tf.range(2 * 4 * 4 * 5 * 2, dtype=tf.float32), [2, 4, 4, 5, 2])


@pytest.mark.parametrize("ksizes, strides, padding, shape, head, total", [
    ([1, 2, 2, 2, 1], [1, 1, 1, 1, 1], "VALID", (2, 3, 3, 4, 16),
     [0, 1, 2, 3, 10, 11, 12, 13, 40, 41], 183744.0),
    ([1, 2, 3, 2, 1], [1, 2, 2, 2, 1], "SAME", (2, 2, 2, 3, 24),
     [0, 1, 2, 3, 10, 11, 12, 13, 20, 21], 64200.0),
])
def test_values_and_gradient(ksizes, strides, padding, shape, head, total):
    with tf.GradientTape() as tape:
        tape.watch(X)
        patches = tf.extract_volume_patches(X, ksizes, strides, padding)
        weights = tf.reshape(tf.cast(tf.range(tf.size(patches)) % 5, tf.float32),
                             tf.shape(patches))
        loss = tf.reduce_sum(patches * weights)
    assert patches.shape == shape
    assert patches.numpy().ravel()[:10].tolist() == head
    assert float(tf.reduce_sum(patches)) == total
    grad = tape.gradient(loss, X)
    if padding == "SAME":  # TF's
        assert grad.numpy().ravel()[:10].tolist() == [0, 1, 2, 3, 4, 0, 1, 2, 3, 4]
        assert float(tf.reduce_sum(grad)) == 800.0


def test_integers_and_errors():
    out = tf.extract_volume_patches(tf.cast(X, tf.int32), [1, 1, 2, 2, 1], [1, 1, 2, 1, 1],
                                    "VALID")
    assert out.dtype == tf.int32 and out.shape == (2, 4, 2, 4, 8)
    assert int(tf.reduce_sum(out)) == 81664
    with pytest.raises(tf.errors.UnimplementedError, match="Only support ksizes across space"):
        tf.extract_volume_patches(X, [2, 2, 2, 2, 1], [1, 1, 1, 1, 1], "VALID")
    with pytest.raises(tf.errors.InvalidArgumentError, match="input must be 5-dimensional"):
        tf.extract_volume_patches(X[0], [1, 2, 2, 2, 1], [1, 1, 1, 1, 1], "VALID")
    with pytest.raises(tf.errors.InvalidArgumentError, match="not in the list of allowed"):
        tf.extract_volume_patches(X, [1, 2, 2, 2, 1], [1, 1, 1, 1, 1], "FULL")
    np.testing.assert_array_equal(  # the known shape in a function
        tf.function(lambda x: tf.extract_volume_patches(x, [1, 2, 2, 2, 1], [1, 1, 1, 1, 1],
                                                        "VALID"))(X).shape, (2, 3, 3, 4, 16))
