"""tf.nn.dilation2d / erosion2d against TF 2.21's values (recorded from the same inputs):
outputs, gradient routing, the TF 1 signatures and errors."""
import numpy as np
import pytest

import eagerflow as tf

RNG = np.random.RandomState(0)
X = RNG.rand(2, 5, 6, 3).astype(np.float32)
F = RNG.rand(2, 3, 3).astype(np.float32) * 0.5


@pytest.mark.parametrize("make, shape, total", [  # TF's shapes and sums
    (lambda: tf.nn.dilation2d(X, F, [1, 1, 1, 1], "VALID", "NHWC", [1, 1, 1, 1]),
     (2, 4, 4, 3), 106.4749),
    (lambda: tf.nn.dilation2d(X, F, [1, 2, 2, 1], "SAME", "NHWC", [1, 1, 1, 1]),
     (2, 3, 3, 3), 56.8065),
    (lambda: tf.nn.dilation2d(X, F, [1, 1, 1, 1], "SAME", "NHWC", [1, 2, 2, 1]),
     (2, 5, 6, 3), 189.0052),
    (lambda: tf.nn.erosion2d(X, F, [1, 1, 1, 1], "SAME", "NHWC", [1, 1, 1, 1]),
     (2, 5, 6, 3), -15.0299),
    (lambda: tf.nn.erosion2d(X, F, [1, 2, 1, 1], "VALID", "NHWC", [1, 1, 2, 1]),
     (2, 2, 2, 3), -2.3769),
    (lambda: tf.compat.v1.nn.erosion2d(X, F, [1, 2, 1, 1], [1, 1, 2, 1], "VALID"),
     (2, 2, 2, 3), -2.3769),
])
def test_values(make, shape, total):
    out = make()
    assert out.shape == shape
    assert float(tf.reduce_sum(out)) == pytest.approx(total, abs=1e-3)


def test_integers_and_first_values():
    out = tf.nn.dilation2d(tf.constant(X * 10, tf.int32), tf.constant(F * 10, tf.int32),
                           [1, 1, 1, 1], "VALID", "NHWC", [1, 1, 1, 1])
    assert out.dtype == tf.int32 and int(tf.reduce_sum(out)) == 957
    out = tf.compat.v1.nn.dilation2d(X, F, [1, 1, 1, 1], [1, 1, 1, 1], "VALID")
    np.testing.assert_allclose(out.numpy().ravel()[:3], [0.9341, 1.1867, 1.3287], atol=1e-4)


def test_gradients_route_to_each_window_maximum():
    x, f = tf.constant(X), tf.constant(F)
    for fn, total in ((lambda a, b: tf.nn.dilation2d(a, b, [1, 2, 1, 1], "SAME", "NHWC",
                                                     [1, 1, 2, 1]), 318.0),
                      (lambda a, b: tf.nn.erosion2d(a, b, [1, 1, 1, 1], "SAME", "NHWC",
                                                    [1, 1, 1, 1]), 535.0)):
        with tf.GradientTape() as tape:
            tape.watch([x, f])
            y = fn(x, f)
            weights = tf.reshape(tf.cast(tf.range(tf.size(y)) % 7, tf.float32), tf.shape(y))
            loss = tf.reduce_sum(y * weights)
        gx, gf = tape.gradient(loss, [x, f])
        assert abs(float(tf.reduce_sum(gx))) == pytest.approx(total)  # TF's
        assert abs(float(tf.reduce_sum(gf))) == pytest.approx(total)


def test_errors():
    with pytest.raises(ValueError, match="other  than 'NHWC' are not supported"):
        tf.nn.dilation2d(X, F, [1, 1, 1, 1], "VALID", "NCHW", [1, 1, 1, 1])
    with pytest.raises(tf.errors.InvalidArgumentError, match="same depth: 3 vs 2"):
        tf.nn.dilation2d(X, F[..., :2], [1, 1, 1, 1], "VALID", "NHWC", [1, 1, 1, 1])
    with pytest.raises(tf.errors.InvalidArgumentError, match="output size would be negative"):
        tf.nn.dilation2d(X[:, :1, :1], F, [1, 1, 1, 1], "VALID", "NHWC", [1, 1, 1, 1])


def test_bfloat16_and_float16_dilate_and_erode_as_float32():
    # (bfloat16 has no NumPy finfo; TF 2.21 computes both; integer values sum exactly)
    x = np.round(X * 8) - 4
    f = np.round(F * 8)
    for dtype in (tf.bfloat16, tf.float16):
        for op, rates in ((tf.nn.dilation2d, [1, 1, 1, 1]), (tf.nn.erosion2d, [1, 2, 2, 1])):
            got = op(tf.constant(x, dtype), tf.constant(f, dtype), [1, 1, 1, 1], "SAME",
                     "NHWC", rates)
            want = op(tf.constant(x, tf.float32), tf.constant(f, tf.float32), [1, 1, 1, 1],
                      "SAME", "NHWC", rates)
            assert got.dtype == dtype
            np.testing.assert_array_equal(got.numpy().astype(np.float32), want.numpy())
