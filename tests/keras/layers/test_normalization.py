"""Normalization layers against NumPy formulas: batch normalization in training and
inference, its moving statistics (Keras 2's fused and unfused variance), weights, configs,
gradients (finite differences), tf.function, masks and errors; layer, group and unit
normalization, as tf_keras 2.21 has them."""
import warnings

import numpy as np
import pytest

import eagerflow as tf
from eagerflow.keras import backend
from eagerflow.keras.layers import (BatchNormalization, GroupNormalization, LayerNormalization,
    UnitNormalization)
from tests.internals import fused_batch_norm, fused_batch_norm_v3, normalization as norm

RNG = np.random.default_rng(0)
X2 = (RNG.normal(size=(6, 3)) * 2 + 1).astype(np.float32)
X3 = (RNG.normal(size=(2, 4, 6)) * 2 + 1).astype(np.float32)
X4 = (RNG.normal(size=(3, 4, 5, 2)) * 2 + 1).astype(np.float32)


@pytest.fixture(autouse=True)
def fresh_names():
    backend.clear_session()  # layer names count from "batch_normalization" again


def close(x, expected, rtol=1e-5, atol=1e-5):
    np.testing.assert_allclose(np.asarray(x), expected, rtol=rtol, atol=atol)


def np_normalize(x, axes, epsilon=1e-3, gamma=1.0, beta=0.0):
    """(x - mean) / sqrt(var + epsilon) * gamma + beta, statistics over `axes`."""
    x = x.astype(np.float64)
    mean, var = x.mean(axes, keepdims=True), x.var(axes, keepdims=True)
    return (x - mean) / np.sqrt(var + epsilon) * gamma + beta


def np_moving(x, axes, steps, momentum, corrected):
    """The moving (mean, variance) after `steps` training calls on `x` from (0, 1)."""
    mean, var = x.mean(axes), x.var(axes)
    if corrected:
        n = x.size // mean.size
        var = var * n / (n - 1)
    moving_mean, moving_var = np.zeros_like(mean), np.ones_like(var)
    for _ in range(steps):
        moving_mean = momentum * moving_mean + (1 - momentum) * mean
        moving_var = momentum * moving_var + (1 - momentum) * var
    return moving_mean, moving_var


# -- batch normalization: values -----------------------------------------------------------

@pytest.mark.parametrize("x, axis, fused", [
    (X2, -1, False), (X3, -1, False), (X3, 1, False), (X4, -1, True), (X4, 1, True),
    (X4, 2, False), (X4, [1, 2], False)])
def test_batch_norm_training_values_and_moving_statistics(x, axis, fused):
    layer = BatchNormalization(axis=axis, momentum=0.8)
    for _ in range(3):
        y = layer(x, training=True)
    axes = tuple(i for i in range(x.ndim) if i not in np.atleast_1d(axis) % x.ndim)
    close(y, np_normalize(x, axes))
    assert layer.fused is fused
    mean, var = np_moving(x, axes, 3, 0.8, corrected=fused)  # Keras 2: fused -> Bessel
    close(layer.moving_mean, mean.reshape(layer.moving_mean.shape))
    close(layer.moving_variance, var.reshape(layer.moving_variance.shape))


def test_batch_norm_inference_uses_moving_statistics_and_weights():
    layer = BatchNormalization(epsilon=0.01)
    layer.build(X2.shape)
    gamma, beta = np.array([1.0, 2.0, 3.0]), np.array([0.5, 0.0, -1.0])
    mean, var = np.array([1.0, -1.0, 0.0]), np.array([4.0, 1.0, 9.0])
    layer.set_weights([gamma, beta, mean, var])
    expected = (X2 - mean) / np.sqrt(var + 0.01) * gamma + beta
    close(layer(X2), expected)  # inference is the default
    close(layer(X2, training=False), expected)
    close(layer(X2, training=True), np_normalize(X2, 0, 0.01, gamma, beta))
    assert not np.allclose(layer.moving_mean, mean)


def test_batch_norm_inference_leaves_moving_statistics():
    layer = BatchNormalization()
    layer(X4, training=False)
    close(layer.moving_mean, np.zeros(2))
    close(layer.moving_variance, np.ones(2))


def test_batch_norm_center_and_scale_off():
    layer = BatchNormalization(center=False, scale=False, epsilon=0.0)
    y = layer(X4, training=True)
    close(y, np_normalize(X4, (0, 1, 2), 0.0), atol=1e-4)
    assert [w.name for w in layer.weights] == [
        "batch_normalization/moving_mean:0", "batch_normalization/moving_variance:0"]


def test_batch_norm_integer_training_and_learning_phase():
    layer = BatchNormalization()
    layer(X2, training=1)
    assert not np.allclose(layer.moving_mean, 0)
    layer = BatchNormalization()
    backend.set_learning_phase(1)
    try:
        close(layer(X2), np_normalize(X2, 0))
    finally:
        backend.clear_session()


def test_batch_norm_mixed_precision_float16_inputs():
    layer = BatchNormalization(dtype="mixed_float16")
    y = layer(X4.astype(np.float16), training=True)
    assert y.dtype == tf.float16
    assert layer.moving_mean.dtype == tf.float32 and layer.gamma.dtype == tf.float32
    close(y, np_normalize(X4, (0, 1, 2)), rtol=1e-2, atol=1e-2)
    halves = X4.astype(np.float16).astype(np.float64)  # statistics kept in float32
    mean, var = np_moving(halves, (0, 1, 2), 1, 0.99, corrected=True)
    close(layer.moving_mean, mean, rtol=1e-6, atol=1e-7)
    close(layer.moving_variance, var, rtol=1e-6, atol=1e-7)


def test_batch_norm_float64_layer():
    layer = BatchNormalization(dtype="float64")
    y = layer(X4.astype(np.float64), training=True)
    assert y.dtype == tf.float64 and layer.gamma.dtype == tf.float64
    assert layer.fused is False  # Keras 2 fuses only 16/32-bit floats: biased variance
    close(layer.moving_variance, np_moving(X4, (0, 1, 2), 1, 0.99, False)[1], rtol=1e-12)


# -- batch normalization: trainable=False, weights, config -----------------------------------

def test_batch_norm_weights_names_and_order():
    layer = BatchNormalization()
    layer(X4)
    assert [w.name for w in layer.weights] == [
        "batch_normalization/gamma:0", "batch_normalization/beta:0",
        "batch_normalization/moving_mean:0", "batch_normalization/moving_variance:0"]
    assert [w.name for w in layer.trainable_weights] == [
        "batch_normalization/gamma:0", "batch_normalization/beta:0"]
    assert [w.shape.as_list() for w in layer.weights] == [[2]] * 4


def test_batch_norm_multi_axis_weights_broadcast():
    layer = BatchNormalization(axis=[1, 2])
    layer(X4)
    assert [w.shape.as_list() for w in layer.weights] == [[1, 4, 5, 1]] * 4
    assert layer.axis == [1, 2]


def test_batch_norm_not_trainable_runs_inference():
    layer = BatchNormalization(trainable=False)
    y = layer(X2, training=True)
    close(y, X2 / np.sqrt(1.001))
    close(layer.moving_mean, np.zeros(3))
    assert layer.trainable_weights == [] and len(layer.non_trainable_weights) == 4
    layer.trainable = True
    layer(X2, training=True)
    assert not np.allclose(layer.moving_mean, 0)
    assert len(layer.trainable_weights) == 2


def test_batch_norm_config_round_trip():
    layer = BatchNormalization(axis=1, momentum=0.9, epsilon=1e-4, center=False,
                               gamma_initializer="zeros", gamma_regularizer="l2",
                               beta_constraint="non_neg", name="bn")
    config = layer.get_config()
    assert list(config)[:9] == ["name", "trainable", "dtype", "axis", "momentum", "epsilon",
                                "center", "scale", "beta_initializer"]
    assert config["gamma_initializer"]["class_name"] == "Zeros"
    assert config["beta_constraint"]["class_name"] == "NonNeg"
    clone = BatchNormalization.from_config(config)
    assert clone.get_config() == config
    layer(X4)
    assert layer.get_config()["axis"] == [1]


def test_batch_norm_regularizer_losses():
    layer = BatchNormalization(gamma_regularizer="l2")
    layer(X2)
    assert len(layer.losses) == 1
    close(layer.losses[0], 0.01 * 3)


# -- batch normalization: gradients and tracing ------------------------------------------------

def _finite_differences(fn, x, eps=1e-6):
    grad = np.zeros_like(x)
    for index in np.ndindex(x.shape):
        plus, minus = x.copy(), x.copy()
        plus[index] += eps
        minus[index] -= eps
        grad[index] = (fn(plus) - fn(minus)) / (2 * eps)
    return grad


@pytest.mark.parametrize("shape, axis", [((4, 3), -1), ((2, 2, 2, 3), -1), ((2, 3, 2, 2), 1),
                                         ((2, 3, 2), [1, 2])])
def test_batch_norm_training_gradient_matches_finite_differences(shape, axis):
    x = RNG.normal(size=shape)
    weights = RNG.uniform(0.5, 1.5, size=shape)
    layer = BatchNormalization(axis=axis, dtype="float64")
    layer.build(shape)
    layer.set_weights([RNG.uniform(0.5, 2, size=w.shape) for w in layer.weights])

    def loss(value):
        return float(tf.reduce_sum(layer(value, training=True) ** 2 * weights))
    xt = tf.constant(x)
    with tf.GradientTape() as tape:
        tape.watch(xt)
        total = tf.reduce_sum(layer(xt, training=True) ** 2 * weights)
    dx, dgamma, dbeta = tape.gradient(total, [xt, layer.gamma, layer.beta])
    close(dx, _finite_differences(loss, x), rtol=1e-6, atol=1e-7)
    gamma = layer.gamma.numpy()

    def loss_of_gamma(value):
        layer.gamma.assign(value)
        return loss(x)
    close(dgamma, _finite_differences(loss_of_gamma, gamma), rtol=1e-6, atol=1e-7)
    layer.gamma.assign(gamma)
    assert dbeta.shape == layer.beta.shape


def np_batch_norm_grad(x, dy, gamma, axes, epsilon=1e-3):
    """d(sum(dy * batch_norm(x)))/dx in training, in closed form."""
    x_hat = np_normalize(x, axes, epsilon)
    r = 1 / np.sqrt(x.var(axes, keepdims=True) + epsilon)
    return gamma * r * (dy - dy.mean(axes, keepdims=True) -
                        x_hat * (dy * x_hat).mean(axes, keepdims=True))


def test_batch_norm_repeated_training_steps_and_traced_gradients():
    layer = BatchNormalization()
    layer.build(X4.shape)
    gamma = np.array([0.5, 2.0], np.float32)
    layer.gamma.assign(gamma)

    def gradient(x, dy):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = layer(x, training=True)
        return tape.gradient(y, [x, layer.gamma, layer.beta], output_gradients=dy)
    traced = tf.function(gradient)
    for step in range(4):  # later eager steps replay a compiled backward pass
        x = (RNG.normal(size=X4.shape) * (step + 1)).astype(np.float32)
        dy = RNG.normal(size=X4.shape).astype(np.float32)
        for dx, dgamma, dbeta in (gradient(tf.constant(x), tf.constant(dy)),
                                  traced(tf.constant(x), tf.constant(dy))):
            close(dx, np_batch_norm_grad(x, dy, gamma, (0, 1, 2)), atol=1e-4)
            close(dgamma, (dy * np_normalize(x, (0, 1, 2))).sum((0, 1, 2)), atol=1e-4)
            close(dbeta, dy.sum((0, 1, 2)), atol=1e-4)


def test_batch_norm_inference_gradient():
    layer = BatchNormalization()
    layer.build(X2.shape)
    layer.set_weights([np.full(3, 2.0), np.zeros(3), np.zeros(3), np.full(3, 3.999)])
    x = tf.constant(X2)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = layer(x, training=False)
    close(tape.gradient(y, x), np.ones_like(X2))


@pytest.mark.parametrize("x, axis", [(X2, -1), (X4, -1), (X4, [1, 2])])
def test_batch_norm_in_function_equals_eager_and_updates_statistics(x, axis):
    eager, traced = (BatchNormalization(axis=axis, momentum=0.5) for _ in range(2))
    step = tf.function(lambda x: traced(x, training=True))
    for _ in range(2):
        close(step(x), eager(x, training=True))
    close(traced.moving_mean, eager.moving_mean)
    close(traced.moving_variance, eager.moving_variance)
    infer = tf.function(lambda x: traced(x, training=False))
    close(infer(x), eager(x, training=False))


def test_batch_norm_training_as_a_tensor_in_a_function():
    layer = BatchNormalization(momentum=0.5)
    step = tf.function(lambda x, training: layer(x, training=training))
    close(step(X2, tf.constant(False)), X2 / np.sqrt(1.001))
    close(layer.moving_mean, np.zeros(3))
    close(step(X2, tf.constant(True)), np_normalize(X2, 0))
    close(layer.moving_mean, 0.5 * X2.mean(0))


def test_batch_norm_unknown_batch_size_in_a_function():
    layer = BatchNormalization()
    step = tf.function(lambda x: layer(x, training=True),
                       input_signature=[tf.TensorSpec([None, 3], tf.float32)])
    close(step(X2), np_normalize(X2, 0))


# -- batch normalization: masks and errors ------------------------------------------------------

def test_batch_norm_mask_weights_the_statistics():
    mask = np.array([[True, True, False, True], [False, True, True, True]])
    layer = BatchNormalization(momentum=0.0)
    y = layer(X3, training=True, mask=mask)
    kept = X3[mask]  # (positions kept, features)
    close(layer.moving_mean, kept.mean(0))
    close(layer.moving_variance, kept.var(0))
    close(y, (X3 - kept.mean(0)) / np.sqrt(kept.var(0) + 1e-3))


def test_batch_norm_fused_ignores_a_mask_with_a_warning():
    layer = BatchNormalization()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        y = layer(X4, training=True, mask=np.ones(X4.shape[:3], bool))
    assert "Masking is not supported with `fused=True`" in str(caught[0].message)
    close(y, np_normalize(X4, (0, 1, 2)))


@pytest.mark.parametrize("kwargs, shape, message", [
    ({"axis": 4}, (2, 3), "Invalid value for `axis` argument. Expected 0 <= axis < inputs.rank "
                          "(with inputs.rank=2). Received: axis=(4,)"),
    ({"axis": [1, -1]}, (2, 3), "Duplicate axis: (1, 1)"),
    ({"fused": True}, (2, 3), "Batch normalization layers with `fused=True` only support 4D or "
                              "5D input tensors. Received tensor with shape: (2, 3)"),
    ({"axis": -4}, (2, 3, 4, 5), "Unsupported axis. The use of `fused=True` is only possible "
                                 "with `axis=1` or `axis=3` for 4D input tensors. Received: "
                                 "axis=(0,)"),
])
def test_batch_norm_build_errors(kwargs, shape, message):
    with pytest.raises(ValueError) as info:
        BatchNormalization(**kwargs).build(shape)
    assert str(info.value) == message


def test_batch_norm_constructor_errors():
    with pytest.raises(TypeError, match="Expected an int or a list/tuple of ints"):
        BatchNormalization(axis="x")
    with pytest.raises(ValueError, match="only supported when axis is 1 or 3"):
        BatchNormalization(axis=2, fused=True)
    with pytest.raises(ValueError, match="not supported when `synchronized=True`"):
        BatchNormalization(fused=True, synchronized=True)
    with pytest.raises(ValueError, match="undefined `axis` dimension"):
        BatchNormalization().build((2, None))


def test_batch_norm_input_spec_checks_channels():
    layer = BatchNormalization()
    layer(X2)
    with pytest.raises(ValueError, match="expected axis 1 of input shape to have value 3"):
        layer(np.ones((2, 4), np.float32))


def test_batch_norm_synchronized_uses_the_biased_variance():
    layer = BatchNormalization(synchronized=True, momentum=0.0)
    layer(X4, training=True)
    assert layer.fused is False
    close(layer.moving_variance, X4.reshape(-1, 2).var(0))


# -- layer normalization -------------------------------------------------------------------------

@pytest.mark.parametrize("axis, axes", [(-1, (2,)), ([1, 2], (1, 2)), (1, (1,)), ([-2], (1,))])
def test_layer_norm_values(axis, axes):
    layer = LayerNormalization(axis=axis, epsilon=1e-2)
    layer.build(X3.shape)
    gamma = RNG.uniform(0.5, 2, size=layer.gamma.shape)
    beta = RNG.normal(size=layer.beta.shape)
    layer.set_weights([gamma, beta])
    shape = [X3.shape[a] if a in axes else 1 for a in range(3)]
    expected = np_normalize(X3, axes, 1e-2, gamma.reshape(shape), beta.reshape(shape))
    close(layer(X3), expected)
    assert layer.gamma.shape.as_list() == [X3.shape[a] for a in axes]


def test_layer_norm_weights_config_and_no_scale():
    layer = LayerNormalization(center=False, name="ln")
    layer(X3)
    assert [w.name for w in layer.weights] == ["ln/gamma:0"]
    config = layer.get_config()
    assert config["axis"] == [2] and list(config)[3:7] == ["axis", "epsilon", "center", "scale"]
    assert LayerNormalization.from_config(config).get_config() == config
    with pytest.raises(TypeError, match="Expected an int or a list/tuple of ints"):
        LayerNormalization(axis=None)


def test_layer_norm_gradient_matches_finite_differences():
    x = RNG.normal(size=(2, 3, 4))
    layer = LayerNormalization(axis=[1, 2], dtype="float64")
    layer.build(x.shape)
    layer.set_weights([RNG.uniform(0.5, 2, size=(3, 4)), RNG.normal(size=(3, 4))])
    weights = RNG.uniform(0.5, 1.5, size=x.shape)
    xt = tf.constant(x)
    with tf.GradientTape() as tape:
        tape.watch(xt)
        loss = tf.reduce_sum(layer(xt) ** 2 * weights)
    close(tape.gradient(loss, xt),
          _finite_differences(lambda v: float(tf.reduce_sum(layer(v) ** 2 * weights)), x),
          rtol=1e-6, atol=1e-7)


def test_layer_norm_in_function_with_unknown_dims():
    layer = LayerNormalization()
    step = tf.function(lambda x: layer(x),
                       input_signature=[tf.TensorSpec([None, None, 6], tf.float32)])
    close(step(X3), layer(X3))
    close(step(X3[:1, :2]), np_normalize(X3[:1, :2], (2,)))


def test_layer_norm_float16():
    y = LayerNormalization(dtype="mixed_float16")(X3.astype(np.float16))
    assert y.dtype == tf.float16
    close(y, np_normalize(X3, (2,)), rtol=1e-2, atol=1e-2)


# -- group and unit normalization ------------------------------------------------------------

@pytest.mark.parametrize("groups, axis", [(3, -1), (1, -1), (-1, -1), (2, 1)])
def test_group_norm_values(groups, axis):
    layer = GroupNormalization(groups=groups, axis=axis, epsilon=1e-2)
    y = layer(X3)
    x = np.moveaxis(X3, axis, -1)
    groups = x.shape[-1] if groups == -1 else groups
    grouped = x.reshape(x.shape[:-1] + (groups, -1))
    expected = np_normalize(grouped, (1, 3), 1e-2).reshape(x.shape)
    close(y, np.moveaxis(expected, -1, axis))
    assert [w.shape.as_list() for w in layer.weights] == [[X3.shape[axis]]] * 2


def test_group_norm_mask_and_config():
    mask = np.ones(X3.shape, bool)
    mask[:, 0] = False
    y = GroupNormalization(groups=1, epsilon=0.0)(X3, mask=mask)
    expected = (X3 - X3[:, 1:].mean((1, 2), keepdims=True)) / \
        X3[:, 1:].std((1, 2), keepdims=True)
    close(np.asarray(y)[:, 1:], expected[:, 1:], atol=1e-4)
    config = GroupNormalization(groups=2).get_config()
    assert list(config)[3:6] == ["groups", "axis", "epsilon"]
    assert GroupNormalization.from_config(config).get_config() == config


@pytest.mark.parametrize("groups, message", [
    (4, "Number of groups (4) must be a multiple of the number of channels (6)."),
    (8, "Number of groups (8) cannot be more than the number of channels (6).")])
def test_group_norm_errors(groups, message):
    with pytest.raises(ValueError) as info:
        GroupNormalization(groups=groups)(X3)
    assert str(info.value) == message


def test_unit_norm():
    close(UnitNormalization()(X3), X3 / np.linalg.norm(X3, axis=-1, keepdims=True))
    close(UnitNormalization(axis=[1, 2])(X3),
          X3 / np.sqrt((X3 ** 2).sum((1, 2), keepdims=True)))
    assert UnitNormalization(axis=(1, 2)).get_config()["axis"] == [1, 2]
    with pytest.raises(TypeError, match="Invalid value for `axis` argument"):
        UnitNormalization(axis="x")
    with pytest.raises(ValueError, match="Invalid value for `axis`"):
        UnitNormalization(axis=3)(X3)


def test_output_shapes():
    for layer in (BatchNormalization(), LayerNormalization(), GroupNormalization(2),
                  UnitNormalization()):
        assert layer.compute_output_shape(tf.TensorShape([None, 4, 6])) == [None, 4, 6]
    assert norm.validate_axis(-1, (2, 3)) == [1]


# -- the fused kernel's own contract -------------------------------------------------------------

def test_fused_kernel_outputs_and_errors():
    outputs = fused_batch_norm_v3(X4.astype(np.float16), np.ones(2), np.zeros(2), [], [])
    assert [o.dtype.name for o in outputs] == ["float16"] + ["float32"] * 5
    assert [o.shape.as_list() for o in outputs[1:]] == [[2]] * 4 + [[0]]
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"input must be 4-dimensional\[6,3\] \[Op:FusedBatchNormV3\]"):
        fused_batch_norm_v3(X2, np.ones(3), np.zeros(3), [], [])
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match="scale must have the same number of elements as the channels of "
                             "x, got 3 and 2"):
        fused_batch_norm_v3(X4, np.ones(3), np.zeros(2), [], [])
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match="Value for attr 'U' of double is not in the list of allowed "
                             "values: bfloat16, float\n"):
        fused_batch_norm_v3(X4, tf.constant(np.ones(2)), np.zeros(2), [], [])
    with pytest.raises(ValueError, match="Both `mean` and `variance` must be a 1D tensor"):
        fused_batch_norm(X4, np.ones(2), np.zeros(2), is_training=False)


def test_fused_kernel_statistics_carry_no_gradient():
    # As TensorFlow: no gradient flows back through the batch statistics (zeros, not None)
    x = tf.constant(X4)
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        y, mean, variance = fused_batch_norm(x, np.ones(2, np.float32), np.zeros(2, np.float32))
        stats = tf.reduce_sum(mean) + tf.reduce_sum(variance)
        energy = tf.reduce_sum(y * y)
        both = energy + stats
    np.testing.assert_array_equal(tape.gradient(stats, x).numpy(), np.zeros_like(X4))
    np.testing.assert_allclose(tape.gradient(both, x).numpy(), tape.gradient(energy, x).numpy())


def test_fused_kernel_statistics_are_accurate_on_large_offset_data():
    x = (RNG.normal(size=(64, 64, 64, 4)) + 1000).astype(np.float32)
    _, mean, variance = fused_batch_norm(x, np.ones(4), np.zeros(4), epsilon=0.0)
    wide = x.reshape(-1, 4).astype(np.float64)
    close(mean, wide.mean(0), rtol=1e-7, atol=0)
    close(variance, wide.var(0, ddof=1), rtol=1e-4, atol=0)


# -- renormalization, virtual batches, adjustment (tf_keras 2.21 values) ----------------------

XR = np.array([[1., -2., 0.5], [3., 0., -1.], [-1., 4., 2.], [0.5, 1., 1.5]], np.float32)


def statistics(layer):
    return {w.name.split("/")[-1][:-2]: w.numpy() for w in layer.non_trainable_weights}


def test_batch_renormalization():
    layer = BatchNormalization(renorm=True, renorm_momentum=0.5, momentum=0.8)
    close(layer(XR, training=True), XR)  # r = batch stddev, d = batch mean at first
    close(layer(XR * 2, training=True), [
        [1.285458, -2.764356, 0.582457], [4.576231, -0.236945, -2.213338],
        [-2.005315, 4.817877, 3.378252], [0.462765, 1.026761, 2.44632]])
    expected = {"moving_mean": [0.49, 0.42, 0.42],
                "moving_variance": [2.076281, 3.43074, 1.641688],
                "moving_stddev": [1.441278, 1.852496, 1.281674],
                "renorm_mean": [1.09375, 0.9375, 0.9375],
                "renorm_stddev": [2.038538, 2.956445, 1.682273]}
    got = statistics(layer)
    assert list(got) == list(expected)
    for name, values in expected.items():
        close(got[name], values)
    close(layer(XR, training=False), [
        [0.353853, -1.306346, 0.062418], [1.74151, -0.226721, -1.107926],
        [-1.033805, 1.932528, 1.232763], [0.006938, 0.313091, 0.842648]])


def test_batch_renormalization_clipping_and_gradients():
    layer = BatchNormalization(renorm=True, renorm_momentum=0.5,
                               renorm_clipping={"rmax": 1.2, "rmin": 0.9, "dmax": 0.1})
    close(layer(XR, training=True), [
        [0.204819, -1.424042, -0.15], [1.881921, -0.315648, -1.65],
        [-1.472283, 1.901141, 1.35], [-0.214457, 0.238549, 0.85]])
    layer = BatchNormalization(renorm=True)
    x = tf.Variable(XR)
    with tf.GradientTape() as tape:
        y = layer(x, training=True)
        loss = tf.reduce_sum(y * np.arange(12, dtype=np.float32).reshape(4, 3))
    grads = tape.gradient(loss, [x, layer.gamma, layer.beta])
    close(grads[0], [[-4.37411, -1.64061, -4.07176], [0.64018, -0.72017, 1.49772],
                     [-0.38839, -1.87928, -0.64123], [4.12232, 4.24006, 3.21526]], atol=1e-4)
    close(grads[1], [7.5, 36.0, 28.5], atol=1e-4)
    close(grads[2], [18.0, 22.0, 26.0])


def test_virtual_batches():
    # statistics per virtual batch of 2 (rows 0 and 2, rows 1 and 3), moving ones averaged
    layer = BatchNormalization(virtual_batch_size=2, momentum=0.5)
    close(layer(XR, training=True), [
        [0.9995, -0.999944, -0.999112], [0.99968, -0.998006, -0.99968],
        [-0.9995, 0.999944, 0.999112], [-0.99968, 0.998006, 0.99968]])
    assert [w.shape for w in layer.weights] == [(1, 1, 3)] * 4
    close(statistics(layer)["moving_mean"], [[[0.4375, 0.375, 0.375]]])
    close(statistics(layer)["moving_variance"], [[[1.140625, 2.8125, 1.03125]]])
    assert layer(XR, training=False).shape == (4, 3)
    # a `training` tensor in a traced function: Keras 2 normalizes over the whole batch
    layer = BatchNormalization(virtual_batch_size=2, momentum=0.5)
    traced = tf.function(lambda x, training: layer(x, training=training))
    close(traced(XR, tf.constant(True)), [
        [0.087349, -1.270035, -0.218135], [1.484934, -0.346373, -1.526944],
        [-1.310236, 1.500951, 1.090674], [-0.262047, 0.115458, 0.654404]])
    close(statistics(layer)["moving_variance"], [[[1.523438, 2.84375, 1.15625]]])


def test_adjustment_scales_and_shifts_while_training():
    layer = BatchNormalization(momentum=0.5, adjustment=lambda shape: (
        tf.fill([shape[-1]], 2.0), tf.fill([shape[-1]], 0.5)))
    close(layer(XR, training=True), [
        [0.674698, -2.04007, 0.06373], [3.469869, -0.192746, -2.553887],
        [-2.120472, 3.501902, 2.681348], [-0.024094, 0.730916, 1.808809]])
    close(layer(XR, training=False), [
        [0.455583, -1.408126, 0.116197], [2.075435, -0.222336, -1.278171],
        [-1.164268, 2.149245, 1.510566], [0.05062, 0.37056, 1.045777]])


def test_renorm_virtual_batch_and_adjustment_configs_and_errors():
    config = BatchNormalization(renorm=True, renorm_clipping={"rmax": 3}).get_config()
    assert [(k, config[k]) for k in list(config)[-3:]] == [
        ("renorm", True), ("renorm_clipping", {"rmax": 3}), ("renorm_momentum", 0.99)]
    assert BatchNormalization(virtual_batch_size=2).get_config()["virtual_batch_size"] == 2
    assert "renorm" not in BatchNormalization().get_config()
    layer = BatchNormalization(renorm=True)
    assert layer.fused is False
    assert BatchNormalization.from_config(layer.get_config()).renorm is True
    errors = [
        (dict(renorm=True, fused=True),
         "Passing both `fused=True` and `renorm=True` is not supported"),
        (dict(virtual_batch_size=2, fused=True),
         "Passing `fused=True` is not supported when `virtual_batch_size` is specified."),
        (dict(adjustment=lambda s: (1.0, 0.0), fused=True),
         "Passing `fused=True` is not supported when `adjustment` is specified."),
        (dict(renorm=True, renorm_clipping={"rmax": 1.0, "foo": 2}),
         "Received invalid keys for `renorm_clipping` argument: {'rmax': 1.0, 'foo': 2}. "
         "Supported values: ['rmax', 'rmin', 'dmax']."),
    ]
    for kwargs, message in errors:
        with pytest.raises(ValueError) as info:
            BatchNormalization(**kwargs)
        assert str(info.value) == message
    build_errors = [
        (dict(virtual_batch_size=0), "`virtual_batch_size` must be a positive integer that "
         "divides the true batch size of the input tensor. Received: virtual_batch_size=0"),
        (dict(virtual_batch_size=2, adjustment=lambda s: (1.0, 0.0)),
         "When using `virtual_batch_size`, adjustment cannot be specified"),
    ]
    for kwargs, message in build_errors:
        with pytest.raises(ValueError) as info:
            BatchNormalization(**kwargs).build((4, 3))
        assert str(info.value) == message
    with pytest.raises(ValueError, match="axis cannot include 0"):
        BatchNormalization(virtual_batch_size=2, axis=0).build((4, 3))
    with pytest.raises(tf.errors.InvalidArgumentError):
        BatchNormalization(virtual_batch_size=3)(XR, training=True)


def test_layer_normalization_traced_for_an_input_of_unknown_rank_raises_tfs_value_error():
    # (it failed with a TypeError of its own)
    layer = tf.keras.layers.LayerNormalization()
    layer(tf.zeros([1, 4, 3]))
    with pytest.raises(ValueError, match="Cannot take the length of shape with unknown rank."):
        tf.function(layer, input_signature=[tf.TensorSpec(None)]).get_concrete_function()


def test_layer_normalization_on_inputs_without_its_axis_fails_as_tf_keras():
    layer = LayerNormalization()
    layer(tf.ones([2, 4]))
    with pytest.raises(IndexError, match="^list index out of range$"):
        layer.call(tf.ones([2]))


@pytest.mark.parametrize("compiled", [False, True])
def test_second_derivative_of_an_unfused_batch_normalization_is_tfs(compiled):
    # Keras 2 normalizes a rank-2 batch from tf.nn.moments (its variance taking the mean as a
    # constant): a gradient of a gradient through the layer, as in a gradient penalty, is
    # TF's (recorded), not the fused kernel's exact second derivative
    x = tf.constant(np.arange(12, dtype=np.float32).reshape(4, 3) ** 1.5 / 10.0)
    w = tf.constant(np.cos(np.arange(12, dtype=np.float32)).reshape(4, 3))
    layer = tf.keras.layers.BatchNormalization()

    def second():
        with tf.GradientTape() as outer:
            outer.watch(x)
            with tf.GradientTape() as inner:
                inner.watch(x)
                y = tf.reduce_sum(layer(x, training=True) ** 2 * w)
            g = inner.gradient(y, x)
            s = tf.reduce_sum(tf.sin(g * 1.7 + 0.3))
        return outer.gradient(s, x)

    got = tf.function(second)() if compiled else second()
    np.testing.assert_allclose(got.numpy(), [[0.51831, 0.04009, 0.09041],
                                             [-1.87809, -0.49537, 0.29165],
                                             [-2.22697, -1.17712, 0.24118],
                                             [1.13048, 1.20674, 0.29072]], atol=2e-5)


def test_second_derivative_of_group_normalization_is_tfs():
    # Keras 2 takes the groups' moments weighted (by ones without a mask), the variance's
    # gradient following the mean: a gradient of a gradient through the layer is TF's
    x = tf.constant(np.arange(24, dtype=np.float32).reshape(4, 6) ** 1.5 / 10.0)
    w = tf.constant(np.cos(np.arange(24, dtype=np.float32)).reshape(4, 6))
    layer = GroupNormalization(2)
    with tf.GradientTape() as outer:
        outer.watch(x)
        with tf.GradientTape() as inner:
            inner.watch(x)
            y = tf.reduce_sum(layer(x) ** 2 * w)
        g = inner.gradient(y, x)
        s = tf.reduce_sum(tf.sin(g * 1.7 + 0.3))
    np.testing.assert_allclose(outer.gradient(s, x).numpy()[0],
                               [-6.069, 78.5773, -72.5084, -7.1776, -21.9176, 29.0951],
                               rtol=1e-4, atol=1e-3)
