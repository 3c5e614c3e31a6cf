"""Half-precision matrix products (what mixed precision trains with): float32 products
rounded to the half type, as TF's CPU kernels give them."""
import numpy as np
import pytest

import eagerflow as tf

_RNG = np.random.default_rng(0)


def _rounded(a, b, dtype):
    return (a.astype(np.float32) @ b.astype(np.float32)).astype(dtype)


@pytest.mark.parametrize("dtype", [tf.float16, tf.bfloat16])
def test_matmul_and_batch_matmul_round_the_float32_product(dtype):
    a = tf.cast(_RNG.standard_normal((3, 40, 300)) * 3, dtype)
    b = tf.cast(_RNG.standard_normal((300, 20)) * 3, dtype)
    want = _rounded(a.numpy(), b.numpy(), dtype.as_numpy_dtype)
    got = tf.matmul(a, b)
    assert got.dtype == dtype
    np.testing.assert_array_equal(got.numpy(), want)
    np.testing.assert_array_equal(tf.matmul(a[0], b).numpy(), want[0])
    np.testing.assert_array_equal(
        tf.matmul(tf.transpose(a[0]), tf.transpose(b), transpose_a=True, transpose_b=True).numpy(),
        want[0])
    np.testing.assert_array_equal(
        tf.matmul(tf.transpose(a, [0, 2, 1]), b, adjoint_a=True).numpy(), want)


def test_half_size_mismatch_is_tf_error():
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"Matrix size-incompatible: "
                       r"In\[0\]: \[2,3\], In\[1\]: \[4,5\]"):
        tf.matmul(tf.zeros((2, 3), tf.float16), tf.zeros((4, 5), tf.float16))


def test_mixed_float16_dense_and_its_gradients():
    tf.keras.mixed_precision.set_global_policy("mixed_float16")
    try:
        layer = tf.keras.layers.Dense(64, kernel_initializer="glorot_uniform")
        x = tf.constant(_RNG.random((32, 128), dtype=np.float32))
        with tf.GradientTape() as tape:
            y = layer(x)
            loss = tf.reduce_sum(tf.cast(y, tf.float32))
        kernel_grad = tape.gradient(loss, layer.kernel)
    finally:
        tf.keras.mixed_precision.set_global_policy("float32")
    x16, w16 = x.numpy().astype(np.float16), layer.kernel.numpy().astype(np.float16)
    assert y.dtype == tf.float16 and layer.kernel.dtype == tf.float32
    np.testing.assert_array_equal(y.numpy(), _rounded(x16, w16, np.float16))
    assert kernel_grad.dtype == tf.float32
    np.testing.assert_array_equal(
        kernel_grad.numpy(), _rounded(x16.T, np.ones((32, 64), np.float16), np.float16))
