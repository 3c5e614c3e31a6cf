"""A NaN or inf in an image (or in a resize's upstream gradient) reaches only the outputs
whose taps read it, as in TF's kernels (values recorded from TensorFlow 2.21)."""
import numpy as np
import pytest

import eagerflow as tf

nan, inf = float("nan"), float("inf")


def _image():
    x = np.arange(36, dtype=np.float32).reshape(1, 6, 6, 1) / 10
    x[0, 1, 1, 0] = np.nan
    x[0, 4, 5, 0] = np.inf
    return x


EXPECTED = {
    ("bicubic", False, (4, 4)): [
        [nan, nan, 0.4257299304008484, 0.583941638469696],
        [nan, nan, 1.3750001192092896, 1.5332117080688477],
        [1.9667882919311523, 2.125, -inf, nan], [2.916058301925659, 3.074270009994507, -inf, nan]],
    ("area", False, (4, 4)): [
        [nan, nan, 0.5333333611488342, 0.6666666865348816],
        [nan, nan, 1.3333333730697632, 1.4666666984558105],
        [2.0333333015441895, 2.1666667461395264, 2.3333332538604736, inf],
        [2.8333332538604736, 2.9666666984558105, 3.133333444595337, inf]],
    ("lanczos3", True, (3, 4)): [[nan] * 4] * 3,
    ("gaussian", False, (8, 9)): [[nan] * 9] * 4 + [
        [1.7416590452194214, 1.7851622104644775, 1.8497234582901, nan, nan, nan, inf, inf, inf],
        [2.1952219009399414, 2.238724946975708, 2.303286075592041, nan, nan, nan, inf, inf, inf],
        [2.617771863937378, 2.6612749099731445, 2.7258362770080566, nan, nan, nan, inf, inf,
         inf],
        [2.960981845855713, 3.0044851303100586, 3.0690462589263916, nan, nan, nan, inf, inf,
         inf]],
}


@pytest.mark.parametrize("key", list(EXPECTED), ids=lambda k: k[0])
def test_non_finite_pixels_stay_local(key):
    method, antialias, size = key
    out = tf.image.resize(_image(), size, method=method, antialias=antialias)[0, ..., 0]
    np.testing.assert_allclose(out.numpy(), np.array(EXPECTED[key], np.float32), rtol=1e-5)


def test_area_resize_keeps_inf_where_only_inf_is_read():
    x = np.array([[[[nan], [1.0]], [[inf], [2.0]]]], np.float32)
    out = tf.image.resize(x, (3, 3), method="area")[0, ..., 0].numpy()
    np.testing.assert_allclose(out, [[nan, nan, 1.0], [nan, nan, 1.5], [inf, inf, 2.0]],
                               rtol=1e-5)


GRADIENTS = {
    "bilinear": [
        [0.5625, 0.375, 0.5625, 0.5625, 0.375, 0.5625], [0.375, 0.25, 0.375, nan, nan, 0.375],
        [0.5625, 0.375, 0.5625, nan, nan, 0.5625], [0.5625, 0.375, 0.5625, 0.5625, 0.375, 0.5625],
        [0.375, 0.25, 0.375, 0.375, 0.25, 0.375], [0.5625, 0.375, 0.5625, 0.5625, 0.375, 0.5625]],
    "bicubic": [
        [0.6190251111984253, 0.3448001742362976, nan, nan, nan, nan],
        [0.3448001742362976, 0.19205546379089355, nan, nan, nan, nan],
        [0.609737753868103, 0.33962705731391907, nan, nan, nan, nan],
        [0.609737753868103, 0.3396270275115967, nan, nan, nan, nan],
        [0.3448001742362976, 0.19205546379089355, 0.33962705731391907, 0.33962705731391907,
         0.19205546379089355, 0.3448001742362976],
        [0.6190251111984253, 0.3448001742362976, 0.609737753868103, 0.6097376942634583,
         0.3448001742362976, 0.6190251111984253]],
}


@pytest.mark.parametrize("method", list(GRADIENTS))
def test_nan_upstream_gradient_stays_local(method):
    g = np.ones((1, 4, 4, 1), np.float32)
    g[0, 1, 2, 0] = np.nan
    x = tf.constant(np.nan_to_num(_image()))
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.image.resize(x, (4, 4), method=method)
    grad = tape.gradient(y, x, output_gradients=g)[0, ..., 0].numpy()
    np.testing.assert_allclose(grad, np.array(GRADIENTS[method], np.float32), rtol=1e-5)


def test_nan_upstream_gradient_of_a_kernel_resize_stays_local():
    # TF's gradient reads, for each input, the outputs of its own span: here a NaN at output
    # (2, 3) reaches inputs [0, 5) x [0, 5)
    g = np.ones((1, 20, 23, 1), np.float32)
    g[0, 2, 3, 0] = np.nan
    x = tf.constant(np.arange(168, dtype=np.float32).reshape(1, 12, 14, 1) / 100)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.image.resize(x, (20, 23), method="lanczos3", antialias=True)
    grad = tape.gradient(y, x, output_gradients=g)[0, ..., 0].numpy()
    expected = np.zeros((12, 14), bool)
    expected[:5, :5] = True
    np.testing.assert_array_equal(np.isnan(grad), expected)
    np.testing.assert_allclose(grad[~expected].sum(), 391.5453186035156, rtol=1e-5)
