"""A known resize size below -1 is a ValueError before any op runs, as in TF (which reads
it as a static shape, where -1 means unknown); -1 and 0 reach the kernel's error."""
import numpy as np
import pytest

import eagerflow as tf

IMAGE = np.zeros((1, 4, 4, 1), np.float32)


@pytest.mark.parametrize("resize", [
    lambda size: tf.image.resize(IMAGE, size),
    lambda size: tf.image.resize(IMAGE, size, method="nearest", antialias=True),
    lambda size: tf.image.resize(IMAGE[0], size, method="lanczos3"),
    lambda size: tf.image.resize(IMAGE, size, preserve_aspect_ratio=True),
    lambda size: tf.compat.v1.image.resize_images(IMAGE, size, method=1),
    lambda size: tf.image.resize(IMAGE, tf.constant(size)),
])
def test_size_below_minus_one(resize):
    with pytest.raises(ValueError, match="Dimension -3 must be >= 0"):
        resize([2, -3])
    with pytest.raises(ValueError, match="Dimension -5 must be >= 0"):
        resize([-5, 0])
    with pytest.raises(tf.errors.InvalidArgumentError, match="output dimensions must be"):
        resize([-1, 2])
