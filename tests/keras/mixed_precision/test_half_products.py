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


def test_bfloat16_bias_gradient_adds_the_rows_in_bfloat16():
    # TF's CPU BiasAddGrad adds channels-last bfloat16 rows one after another, rounding each
    # partial sum: -0.3046875 - 0.216796875 - 0.130859375 - 0.043701171875 gives -0.69921875
    # there (the float32 sum rounds to -0.6953125). Values recorded from TF 2.21.
    grad = tf.cast(tf.constant([[-0.2890625, -0.3046875, -0.318359375],
                                [-0.203125, -0.216796875, -0.232421875],
                                [-0.1162109375, -0.130859375, -0.14453125],
                                [-0.0291748046875, -0.043701171875, -0.058349609375]]),
                   tf.bfloat16)
    want = [-0.63671875, -0.69921875, -0.75390625]
    np.testing.assert_array_equal(
        tf.raw_ops.BiasAddGrad(out_backprop=grad).numpy().astype(np.float32), want)
    bias = tf.Variable(tf.zeros(3, tf.bfloat16))
    with tf.GradientTape() as tape:
        out = tf.nn.bias_add(tf.ones((4, 3), tf.bfloat16), bias)
    got = tape.gradient(out, bias, output_gradients=grad)
    np.testing.assert_array_equal(got.numpy().astype(np.float32), want)
    # channels first, and float16, still add in float32
    np.testing.assert_array_equal(
        tf.raw_ops.BiasAddGrad(out_backprop=tf.transpose(grad),
                               data_format="NCHW").numpy().astype(np.float32),
        [-0.9140625, -0.65234375, -0.390625, -0.130859375])
    np.testing.assert_array_equal(
        tf.raw_ops.BiasAddGrad(out_backprop=tf.cast(grad, tf.float16)).numpy(),
        np.sum(grad.numpy().astype(np.float32), axis=0).astype(np.float16))


def test_bfloat16_bias_gradient_of_larger_batches_rounds_each_row():
    rows = tf.cast(_RNG.standard_normal((50, 3, 7)), tf.bfloat16)
    want = rows.numpy().reshape(-1, 7)
    total = want[0]
    for row in want[1:]:
        total = (total.astype(np.float32) + row.astype(np.float32)).astype(total.dtype)
    np.testing.assert_array_equal(tf.raw_ops.BiasAddGrad(out_backprop=rows).numpy(), total)


@pytest.mark.parametrize("activation", [None, tf.nn.relu, tf.nn.tanh])
def test_bfloat16_product_and_bias_in_a_function_round_once(activation):
    # In a function, TF fuses MatMul + BiasAdd (+ activation) into one oneDNN kernel that
    # adds the bias to the float32 product and rounds once; eagerly the product is rounded
    # before the bias is added.
    x = tf.cast(_RNG.standard_normal((32, 64)), tf.bfloat16)
    k = tf.cast(_RNG.standard_normal((64, 16)), tf.bfloat16)
    b = tf.cast(_RNG.standard_normal(16), tf.bfloat16)
    act = activation or (lambda t: t)
    got = tf.function(lambda x, k, b: act(tf.nn.bias_add(tf.matmul(x, k), b)))(x, k, b)
    wide = x.numpy().astype(np.float32) @ k.numpy().astype(np.float32) + \
        b.numpy().astype(np.float32)
    want = act(tf.constant(wide)).numpy().astype(tf.bfloat16.as_numpy_dtype)
    assert got.dtype == tf.bfloat16
    np.testing.assert_array_equal(got.numpy(), want)


def test_mixed_bfloat16_dense_trains_and_evaluates_as_tf():
    # Values recorded from TF 2.21 with tf_keras.
    x = np.linspace(-1, 1, 24).reshape(8, 3).astype("float32")
    tf.keras.mixed_precision.set_global_policy("mixed_bfloat16")
    try:
        model = tf.keras.Sequential([tf.keras.layers.Dense(3, input_shape=(3,),
                                                           kernel_initializer="ones")])
        model.compile("sgd", "mse")
        model.train_on_batch(x[:4], x[:4])
        np.testing.assert_array_equal(model.layers[0].bias.numpy(),
                                      np.float32([0.0063671875, 0.00699218735, 0.0075390623]))
        assert model.test_on_batch(x[4:], x[4:]) == 1.4296875
    finally:
        tf.keras.mixed_precision.set_global_policy("float32")
