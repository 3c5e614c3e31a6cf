"""The gradient ops of nn ops called as raw ops: TF's values, shape rules and errors."""
import numpy as np
import pytest

import eagerflow as tf
from eagerflow import errors

F32 = np.float32

_ACTIVATION_GRADS = [("ReluGrad", "features"), ("Relu6Grad", "features"),
                     ("LeakyReluGrad", "features"), ("EluGrad", "outputs"),
                     ("SeluGrad", "outputs"), ("SoftsignGrad", "features"),
                     ("SoftplusGrad", "features")]


@pytest.mark.parametrize("op, second", _ACTIVATION_GRADS)
def test_activation_gradients_take_one_shape_and_never_broadcast(op, second):
    fn = getattr(tf.raw_ops, op)
    a, b = np.ones((4, 2), F32), np.ones((1, 2), F32)
    with pytest.raises(errors.InvalidArgumentError,
                       match=rf"Inputs to operation {op} of type {op} must have the same size "
                             r"and shape.  Input 0: \[4,2\] != input 1: \[1,2\]"):
        fn(gradients=a, **{second: b})
    # a traced call with known shapes fails while the graph is built, as TF's shape function
    traced = tf.function(lambda x, y: fn(gradients=x, **{second: y}))
    with pytest.raises(ValueError, match="Dimension 0 in both shapes must be equal, but are 4 "
                                         r"and 1. Shapes are \[4,2\] and \[1,2\]."):
        traced(a, b)
    # each input's shape tells what the other's lacks
    g = tf.function(lambda x, y: fn(gradients=x, **{second: y}),
                    input_signature=[tf.TensorSpec([None, 2]), tf.TensorSpec([4, None])])
    out = g.get_concrete_function().structured_outputs
    assert out.shape.as_list() == [4, 2]
    with pytest.raises(errors.InvalidArgumentError, match="must have the same size and shape"):
        g(np.ones((3, 2), F32), np.ones((4, 3), F32))


_POOL = dict(ksize=[1, 2, 2, 1], strides=[1, 2, 2, 1], padding="VALID")


def test_max_pool_gradients_check_the_shapes_of_what_they_route():
    x = np.arange(32, dtype=F32).reshape(1, 4, 4, 2)
    y, g = tf.nn.max_pool2d(x, 2, 2, "VALID"), np.ones((1, 2, 2, 2), F32)
    cases = [  # TF's messages; a gradient of the wrong shape was routed silently
        (tf.raw_ops.MaxPoolGrad, dict(orig_output=y, grad=g[:, :1]),
         r"Expected grad shape to be \[1,2,2,2\], but got \[1,1,2,2\]"),
        (tf.raw_ops.MaxPoolGrad, dict(orig_output=y[:, :1], grad=g),
         r"Expected orig_output shape to be \[1,2,2,2\], but got \[1,1,2,2\]"),
        (tf.raw_ops.MaxPoolGradGrad, dict(orig_output=y, grad=g),
         r"Expected grad shape to be \[1,4,4,2\], but got \[1,2,2,2\]"),
        (tf.raw_ops.MaxPoolGradGrad, dict(orig_output=y[:, :1], grad=x),
         r"Expected orig_output shape to be \[1,2,2,2\], but got \[1,1,2,2\]")]
    for fn, kwargs, message in cases:
        with pytest.raises(errors.InvalidArgumentError, match=message):
            fn(orig_input=x, **kwargs, **_POOL)
    x3 = np.ones((1, 4, 4, 4, 2), F32)
    with pytest.raises(errors.InvalidArgumentError,
                       match=r"Expected grad shape to be \[1,2,2,2,2\], but got \[1,1,2,2,2\]"):
        tf.raw_ops.MaxPool3DGrad(orig_input=x3, orig_output=tf.nn.max_pool3d(x3, 2, 2, "VALID"),
                                 grad=np.ones((1, 1, 2, 2, 2), F32), ksize=[1, 2, 2, 2, 1],
                                 strides=[1, 2, 2, 2, 1], padding="VALID")
    # traced, MaxPoolGradGrad's grad is merged with its orig_input, as TF's shape function
    traced = tf.function(lambda a, b, c: tf.raw_ops.MaxPoolGradGrad(
        orig_input=a, orig_output=b, grad=c, **_POOL))
    with pytest.raises(ValueError, match=r"Dimension 1 in both shapes must be equal, but are 4 "
                                         r"and 2. Shapes are \[1,4,4,2\] and \[1,2,2,2\]."):
        traced(x, y, g)
    np.testing.assert_array_equal(traced(x, y, x).numpy(), y.numpy())


def test_depthwise_gradients_are_tfs_ops():
    rng = np.random.default_rng(0)
    w = tf.constant(rng.standard_normal((3, 3, 2, 2)).astype(F32))
    dy = tf.constant(rng.standard_normal((1, 2, 2, 4)).astype(F32))
    x = tf.constant(rng.standard_normal((1, 4, 4, 2)).astype(F32))
    window = dict(strides=[1, 1, 1, 1], padding="VALID")
    dx = tf.raw_ops.DepthwiseConv2dNativeBackpropInput(input_sizes=[1, 4, 4, 2], filter=w,
                                                       out_backprop=dy, **window)
    dw = tf.raw_ops.DepthwiseConv2dNativeBackpropFilter(input=x, filter_sizes=[3, 3, 2, 2],
                                                        out_backprop=dy, **window)
    with tf.GradientTape() as tape:
        tape.watch([x, w])
        y = tf.nn.depthwise_conv2d(x, w, [1, 1, 1, 1], "VALID")
    want_dx, want_dw = tape.gradient(y, [x, w], output_gradients=dy)
    np.testing.assert_allclose(dx.numpy(), want_dx.numpy(), rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(dw.numpy(), want_dw.numpy(), rtol=1e-5, atol=1e-5)
    # TF 2.21's values
    np.testing.assert_allclose(dx.numpy().ravel()[:4], [-0.065, 0.659, -0.055, 3.381], atol=2e-3)
    np.testing.assert_allclose(dw.numpy().ravel()[:4], [4.643, 0.475, -0.836, -0.405], atol=2e-3)

    @tf.function
    def grads(x):
        with tf.GradientTape() as tape:
            tape.watch(x)
            loss = tf.reduce_sum(tf.nn.depthwise_conv2d(x, w, [1, 1, 1, 1], "SAME"))
        return tape.gradient(loss, x)
    types = {op.type for op in grads.get_concrete_function(
        tf.TensorSpec([None, 4, 4, 2])).graph.get_operations()}
    assert {"DepthwiseConv2dNativeBackpropInput", "DepthwiseConv2dNativeBackpropFilter"} <= types
    assert not {"Conv2DBackpropInput", "Conv2DBackpropFilter"} & types

    # their own gradients (second derivatives), as TF's
    with tf.GradientTape(persistent=True) as tape:
        tape.watch([w, dy, x])
        a = tf.reduce_sum(x * tf.raw_ops.DepthwiseConv2dNativeBackpropInput(
            input_sizes=[1, 4, 4, 2], filter=w, out_backprop=dy, **window))
        b = tf.reduce_sum(w * tf.raw_ops.DepthwiseConv2dNativeBackpropFilter(
            input=x, filter_sizes=[3, 3, 2, 2], out_backprop=dy, **window))
    da_dw, da_dy = tape.gradient(a, [w, dy])
    db_dx, db_dy = tape.gradient(b, [x, dy])
    np.testing.assert_allclose(da_dw.numpy(), dw.numpy(), rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(db_dx.numpy(), dx.numpy(), rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(da_dy.numpy(), tf.nn.depthwise_conv2d(
        x, w, [1, 1, 1, 1], "VALID").numpy(), rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(db_dy.numpy(), da_dy.numpy(), rtol=1e-5, atol=1e-5)


def test_depthwise_gradient_errors():
    w, dy = np.ones((3, 3, 2, 2), F32), np.ones((1, 2, 2, 4), F32)
    window = dict(strides=[1, 1, 1, 1], padding="VALID")
    for sizes, out, message in (
            ([1, 4, 4, 3], dy, "input and filter must have the same in_depth"),
            ([1, 4, 4, 2], dy[..., :3], "depth_multiplier \\* in_depth not equal to out_depth"),
            ([1, 5, 5, 2], dy, "Size of out_backprop doesn't match computed")):
        with pytest.raises(errors.InvalidArgumentError,
                           match=f"DepthwiseConv2DBackpropInput: {message}"):
            tf.raw_ops.DepthwiseConv2dNativeBackpropInput(input_sizes=sizes, filter=w,
                                                          out_backprop=out, **window)
    with pytest.raises(errors.InvalidArgumentError,
                       match=r"filter must be 4-dimensional: \[3,3,4\]"):
        tf.raw_ops.DepthwiseConv2dNativeBackpropFilter(input=np.ones((1, 4, 4, 2), F32),
                                                       filter_sizes=[3, 3, 4], out_backprop=dy,
                                                       **window)
    traced = tf.function(lambda: tf.raw_ops.DepthwiseConv2dNativeBackpropInput(
        input_sizes=[1, 4, 4], filter=w, out_backprop=dy, **window))
    with pytest.raises(ValueError, match="Shape must be rank 4 but is rank 3"):
        traced()
    # sizes known at run time only: a shape of unknown dims, as TF's
    run_time = tf.function(lambda s: tf.raw_ops.DepthwiseConv2dNativeBackpropInput(
        input_sizes=s, filter=w, out_backprop=dy, **window),
        input_signature=[tf.TensorSpec([4], tf.int32)])
    assert run_time.get_concrete_function().structured_outputs.shape.as_list() == [None] * 4
    assert run_time(tf.constant([1, 4, 4, 2])).shape == (1, 4, 4, 2)


@pytest.mark.parametrize("version", ["", "V2"])
def test_older_fused_batch_norms_and_their_gradients(version):
    forward = getattr(tf.raw_ops, f"FusedBatchNorm{version}")
    rng = np.random.default_rng(0)
    x = tf.constant(rng.standard_normal((2, 3, 3, 4)).astype(F32))
    scale, offset = (tf.constant(rng.standard_normal(4).astype(F32)) for _ in range(2))
    outputs = forward(x=x, scale=scale, offset=offset, mean=[], variance=[], epsilon=0.001)
    want = tf.raw_ops.FusedBatchNormV3(x=x, scale=scale, offset=offset, mean=[], variance=[],
                                       epsilon=0.001)
    assert len(outputs) == 5
    for got, expected in zip(outputs, want):
        np.testing.assert_allclose(got.numpy(), expected.numpy(), rtol=1e-6, atol=1e-6)
    # TF 2.21's values
    np.testing.assert_allclose(outputs[0].numpy().ravel()[:3], [-0.3392, 1.0512, 0.8756],
                               atol=1e-4)

    def loss(x, scale):
        y = forward(x=x, scale=scale, offset=offset, mean=[], variance=[], epsilon=0.001)[0]
        return tf.reduce_sum(y ** 3)

    @tf.function
    def grads(x):
        return tf.gradients(loss(x, scale), x)
    types = {op.type for op in grads.get_concrete_function(x).graph.get_operations()}
    assert {f"FusedBatchNorm{version}", f"FusedBatchNormGrad{version}"} <= types

    def hessian_products(fn, x, scale):
        with tf.GradientTape() as outer:
            outer.watch([x, scale])
            with tf.GradientTape() as inner:
                inner.watch([x, scale])
                value = fn(x, scale)
            dx, dscale = inner.gradient(value, [x, scale])
            total = tf.reduce_sum(dx * tf.cos(x)) + tf.reduce_sum(dscale)
        return outer.gradient(total, [x, scale])

    def loss_v3(x, scale):
        y = tf.raw_ops.FusedBatchNormV3(x=x, scale=scale, offset=offset, mean=[], variance=[],
                                        epsilon=0.001)[0]
        return tf.reduce_sum(y ** 3)
    for got, expected in zip(hessian_products(loss, x, scale),
                             hessian_products(loss_v3, x, scale)):
        np.testing.assert_allclose(got.numpy(), expected.numpy(), rtol=1e-5, atol=1e-5)


def test_softplus_grad_is_tfs_op():
    # TF 2.21's values: gradients * sigmoid(features), saturating at +-inf
    got = tf.raw_ops.SoftplusGrad(gradients=[1.0, 2.0, 3.0, 4.0],
                                  features=[np.inf, -np.inf, 0.0, np.nan])
    assert got.dtype == tf.float32 and got.numpy()[:3].tolist() == [1.0, 0.0, 1.5]
    assert np.isnan(got.numpy()[3])
    g, x = tf.constant([0.5, -1.0, 2.0], tf.float64), tf.constant([-1.0, 0.3, 2.5], tf.float64)
    with tf.GradientTape(persistent=True) as tape:
        tape.watch([g, x])
        z = tf.reduce_sum(tf.raw_ops.SoftplusGrad(gradients=g, features=x) ** 2)
    dg, dx = tape.gradient(z, [g, x])
    s = 1 / (1 + np.exp(-x.numpy()))
    np.testing.assert_allclose(dg.numpy(), 2 * g.numpy() * s * s)
    np.testing.assert_allclose(dx.numpy(), 2 * g.numpy() ** 2 * s * s * (1 - s))


def test_lrn_grad_is_tfs_op_without_a_gradient():
    x = np.arange(2 * 2 * 2 * 7, dtype=F32).reshape(2, 2, 2, 7) / 10
    dy = np.cos(np.arange(x.size)).reshape(x.shape).astype(F32)
    window = dict(depth_radius=2, bias=1.0, alpha=0.3, beta=0.6)
    y = tf.raw_ops.LRN(input=x, **window)
    got = tf.raw_ops.LRNGrad(input_grads=dy, input_image=x, output_image=y, **window)
    np.testing.assert_allclose(got.numpy()[0, 0, 1],  # TF 2.21's values
                               [0.5760072, -0.0408502, -0.4951010, -0.3954332, -0.0435913,
                                0.3281620, 0.3017807], rtol=1e-5, atol=1e-6)
    v = tf.constant(x)
    with tf.GradientTape() as tape:  # the gradient of LRN gives the same
        tape.watch(v)
        out = tf.raw_ops.LRN(input=v, **window)
    np.testing.assert_allclose(tape.gradient(out, v, output_gradients=dy).numpy(), got.numpy(),
                               rtol=1e-5, atol=1e-6)
    with pytest.raises(errors.InvalidArgumentError,
                       match="input_grads, input_image, and out_image should have the same "
                             "shape"):
        tf.raw_ops.LRNGrad(input_grads=dy[:1], input_image=x, output_image=y, **window)
    with pytest.raises(ValueError, match="Shape must be rank 4 but is rank 3"):
        tf.function(lambda: tf.raw_ops.LRNGrad(input_grads=dy[0], input_image=x[0],
                                               output_image=y[0]))()
    with tf.GradientTape() as tape:
        tape.watch(v)
        z = tf.raw_ops.LRNGrad(input_grads=dy, input_image=v, output_image=y, **window)
    with pytest.raises(LookupError, match="gradient registry has no entry for: LRNGrad"):
        tape.gradient(z, v)


def test_max_pool_with_argmax_gradient_is_tfs_op():
    rng = np.random.default_rng(0)
    x = tf.constant(rng.standard_normal((2, 4, 4, 3)).astype(F32))
    window = dict(ksize=[1, 2, 2, 1], strides=[1, 2, 2, 1], padding="VALID")
    y, argmax = tf.nn.max_pool_with_argmax(x, 2, 2, "VALID")
    g = np.ones(y.shape, F32)
    got = tf.raw_ops.MaxPoolGradWithArgmax(input=x, grad=g, argmax=argmax, **window)
    with tf.GradientTape() as tape:
        tape.watch(x)
        out = tf.nn.max_pool2d(x, 2, 2, "VALID")
    np.testing.assert_array_equal(got.numpy(), tape.gradient(out, x).numpy())
    for name, kwargs in (("grad", dict(grad=g[:, :1], argmax=argmax)),
                         ("argmax", dict(grad=g, argmax=argmax[:, :1]))):
        with pytest.raises(errors.InvalidArgumentError,
                           match=rf"Expected {name} shape to be \[2,2,2,3\], but got "
                                 r"\[2,1,2,3\]"):
            tf.raw_ops.MaxPoolGradWithArgmax(input=x, **kwargs, **window)
    with pytest.raises(errors.InvalidArgumentError, match="Invalid output gradient index"):
        tf.raw_ops.MaxPoolGradWithArgmax(input=x, grad=g, argmax=argmax + 1000, **window)

    @tf.function
    def grads(x):
        return tf.gradients(tf.nn.max_pool_with_argmax(x, 2, 2, "SAME")[0], x)
    types = {op.type for op in grads.get_concrete_function(
        tf.TensorSpec([None, 4, 4, 3])).graph.get_operations()}
    assert "MaxPoolGradWithArgmax" in types


def test_max_pool_v2_takes_its_window_as_inputs():
    rng = np.random.default_rng(0)
    x = rng.standard_normal((1, 4, 5, 2)).astype(F32)
    window = dict(ksize=[1, 2, 2, 1], strides=[1, 2, 2, 1], padding="SAME")
    y = tf.raw_ops.MaxPoolV2(input=x, **window)
    np.testing.assert_array_equal(y.numpy(), tf.raw_ops.MaxPool(input=x, **window).numpy())
    np.testing.assert_allclose(y.numpy().ravel()[:4], [0.6404, 0.1049, 1.3040, 0.9471],
                               atol=1e-4)  # TF 2.21's values
    g = rng.standard_normal(y.shape).astype(F32)
    np.testing.assert_array_equal(
        tf.raw_ops.MaxPoolGradV2(orig_input=x, orig_output=y, grad=g, **window).numpy(),
        tf.raw_ops.MaxPoolGrad(orig_input=x, orig_output=y, grad=g, **window).numpy())
    with pytest.raises(errors.InvalidArgumentError,
                       match=r"Expected grad shape to be \[1,2,3,2\], but got \[1,1,3,2\]"):
        tf.raw_ops.MaxPoolGradV2(orig_input=x, orig_output=y, grad=g[:, :1], **window)

    @tf.function
    def grads(x):
        return tf.gradients(tf.raw_ops.MaxPoolV2(input=x, **window), x)
    concrete = grads.get_concrete_function(tf.TensorSpec([None, 4, 5, 2]))
    assert {"MaxPoolV2", "MaxPoolGradV2"} <= {op.type for op in concrete.graph.get_operations()}


def test_bias_add_v1_and_bias_add_rank_errors():
    x, b = np.arange(24, dtype=F32).reshape(2, 3, 4), np.array([1, 2, 3, 4], F32)
    assert tf.raw_ops.BiasAddV1(value=x, bias=b).numpy().ravel()[:4].tolist() == [1, 3, 5, 7]
    xv, bv = tf.constant(x), tf.constant(b)
    with tf.GradientTape() as tape:
        tape.watch([xv, bv])
        y = tf.reduce_sum(tf.raw_ops.BiasAddV1(value=xv, bias=bv) ** 2)
    assert tape.gradient(y, bv).numpy().tolist() == [132, 156, 180, 204]  # TF 2.21's
    # the input's rank is checked before the bias's, as TF's kernel and shape function do
    one_d, two_d_bias = np.ones(4, F32), np.ones((1, 1), F32)
    for fn in (tf.nn.bias_add, lambda v, b: tf.raw_ops.BiasAddV1(value=v, bias=b)):
        with pytest.raises(errors.InvalidArgumentError,
                           match=r"Input tensor must be at least 2D: \[4\]"):
            fn(one_d, two_d_bias)
    with pytest.raises(ValueError, match="Shape must be at least rank 2 but is rank 1"):
        tf.function(lambda: tf.nn.bias_add(one_d, two_d_bias))()
    with pytest.raises(ValueError, match="Shape must be rank 1 but is rank 2"):
        tf.function(lambda: tf.nn.bias_add(np.ones((2, 4), F32), np.ones((1, 4), F32)))()
