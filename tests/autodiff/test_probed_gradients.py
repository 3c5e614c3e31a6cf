"""Gradients on paths found by comparing programs with TF 2.21 (values checked there)."""
import numpy as np
import pytest

import eagerflow as tf


@pytest.mark.parametrize("dtype", ["bfloat16", "float16", "float32"])
def test_sqrt_gradient_in_every_float_dtype(dtype):
    x = tf.constant([4.0, 0.25], dtype)
    with tf.GradientTape() as t:
        t.watch(x)
        y = tf.sqrt(x)
    g = t.gradient(y, x)
    assert g.dtype == x.dtype
    np.testing.assert_allclose(g.numpy().astype(np.float32), [0.25, 1.0])
