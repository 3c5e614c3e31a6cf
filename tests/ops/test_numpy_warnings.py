"""Kernels on extreme inputs print no NumPy RuntimeWarning: TF's overflow to inf and NaN silently."""
import warnings

import numpy as np
import pytest

import eagerflow as tf

_HUGE = [[3e38, -3e38], [float("inf"), 1.0]]
_CASES = {
    "linalg.inv": lambda: tf.linalg.inv(tf.constant([[1e-45, 0.0], [0.0, 1.0]])),
    "linalg.qr": lambda: tf.linalg.qr(tf.constant([[3e38, 3e38], [3e38, 1.0]])),
    "linalg.svd": lambda: tf.linalg.svd(tf.constant([[3e38, 3e38], [3e38, 1.0]])),
    "linalg.cross": lambda: tf.linalg.cross(tf.constant([3e38, 3e38, float("inf")]),
                                            tf.constant([3e38, -3e38, 0.0])),
    "einsum": lambda: tf.einsum("ij,jk->ik", tf.constant(_HUGE), tf.constant(_HUGE)),
    "image.rgb_to_grayscale": lambda: tf.image.rgb_to_grayscale(
        tf.constant([[[3e38, 3e38, float("nan")]]])),
    "signal.rfft": lambda: tf.signal.rfft(tf.constant([3e38, 3e38, 3e38, 3e38])),
    "math.cumsum": lambda: tf.math.cumsum([3e38, 3e38]),
    "experimental.numpy.linspace": lambda: tf.experimental.numpy.linspace(
        0.0, float("inf"), 3),
    "experimental.numpy.logspace": lambda: tf.experimental.numpy.logspace(0.0, 400.0, 3),
}


@pytest.mark.parametrize("name", sorted(_CASES))
def test_extreme_inputs_warn_nothing(name):
    with warnings.catch_warnings(record=True) as caught:
        result = _CASES[name]()
    values = [np.asarray(t) for t in tf.nest.flatten(result)]
    assert values and not all(np.isfinite(v).all() for v in values)  # the extremes came out
    assert [str(w.message) for w in caught if issubclass(w.category, RuntimeWarning)] == []
