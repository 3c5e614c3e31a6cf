"""Batch normalization + residual sum + ReLU fusion: FusedBatchNormV3 -> AddV2 -> Relu become
one _FusedBatchNormEx with a side input, with the results and gradients of the ops it replaces."""
import numpy as np
import pytest

import eagerflow as tf
from tests.graph.passes.helpers import assert_same_results, evaluate, traced, types
from tests.internals import (_FUSED_BATCH_NORM_EX, dispatch, fuse_batch_norm_add_relu,
                             fused_batch_norm, optimize)

_X = tf.TensorSpec([4, 5, 5, 8], tf.float32)
_C = tf.TensorSpec([8], tf.float32)


def _inputs(seed=0, shape=(4, 5, 5, 8)):
    rng = np.random.default_rng(seed)
    return [rng.normal(size=shape).astype(np.float32) * 2 + 0.5,
            rng.normal(size=shape).astype(np.float32),
            rng.uniform(0.5, 1.5, shape[-1]).astype(np.float32),
            rng.normal(size=shape[-1]).astype(np.float32)]


def _block(x, skip, scale, offset):
    with tf.GradientTape() as tape:
        tape.watch([x, skip, scale, offset])
        y, mean, variance = fused_batch_norm(x, scale, offset)
        out = tf.nn.relu(y + skip)
        loss = tf.reduce_sum(out * tf.cos(out))
    return [out, mean, variance, *tape.gradient(loss, [x, skip, scale, offset])]


def _fused(fn, *specs):
    before = traced(fn, *specs)
    return before, fuse_batch_norm_add_relu(before)


def test_residual_block_fuses_and_keeps_values_and_gradients(path):
    before, after = _fused(_block, _X, _X, _C, _C)
    kinds = types(after)
    assert "_FusedBatchNormEx" in kinds and not {"Relu", "FusedBatchNormV3"} & set(kinds)
    assert kinds.count("AddV2") == types(before).count("AddV2") - 1
    fused = [op for op in after.operations if op.type == "_FusedBatchNormEx"][0]
    assert fused.attrs["num_side_inputs"] == 1 and fused.attrs["activation_mode"] == "Relu"
    assert_same_results(before, after, *_inputs())


def test_side_input_first_and_compiled_functions(path):
    def block(x, skip, scale, offset):
        return tf.nn.relu(skip + fused_batch_norm(x, scale, offset)[0])
    assert "_FusedBatchNormEx" in types(_fused(block, _X, _X, _C, _C)[1])
    args = _inputs(1)
    compiled = tf.function(_block)(*map(tf.constant, args))
    for got, want in zip(compiled, evaluate(traced(_block, _X, _X, _C, _C), *args)):
        np.testing.assert_allclose(got.numpy(), want, rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("skip", ["identity", "convolution"])
def test_keras_residual_step_matches_unfused(path, optimizer_options, skip):
    """A ResNet-style block trained a few steps: losses, weights and moving statistics of
    the unfused ops. A convolution on the skip runs after the normalization, whose moving
    statistics' updates then run after the fused op."""
    rng = np.random.default_rng(4)
    x = tf.constant(rng.normal(size=(6, 6, 6, 4)).astype(np.float32))
    y = tf.constant(rng.normal(size=(6, 2)).astype(np.float32))

    def train(remapping):
        optimizer_options.set_experimental_options({"remapping": remapping})
        tf.keras.utils.set_random_seed(3)
        inputs = tf.keras.Input((6, 6, 4))
        h = tf.keras.layers.Conv2D(4, 3, padding="same", use_bias=False)(inputs)
        h = tf.keras.layers.BatchNormalization()(h)
        shortcut = inputs if skip == "identity" else tf.keras.layers.Conv2D(4, 1)(inputs)
        h = tf.keras.layers.ReLU()(tf.keras.layers.Add()([h, shortcut]))
        model = tf.keras.Model(inputs, tf.keras.layers.Dense(2)(
            tf.keras.layers.GlobalAveragePooling2D()(h)))
        optimizer = tf.keras.optimizers.SGD(0.1)

        def step(a, b):
            with tf.GradientTape() as tape:
                loss = tf.reduce_mean(tf.square(model(a, training=True) - b))
            grads = tape.gradient(loss, model.trainable_variables)
            optimizer.apply_gradients(zip(grads, model.trainable_variables))
            return loss
        if remapping:
            program = optimize(*_traced_graph(step, x, y))
            assert "_FusedBatchNormEx" in types(program) and "Relu" not in types(program)
        step = tf.function(step)
        return [float(step(x, y)) for _ in range(3)], [v.numpy() for v in model.weights]

    fused_losses, fused = train(True)
    losses, weights = train(False)
    np.testing.assert_allclose(fused_losses, losses, rtol=1e-5)
    for got, want in zip(fused, weights):
        np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6)


def _traced_graph(fn, *args):
    cf = tf.function(fn).get_concrete_function(*args)
    return cf.graph, cf.inputs, cf.outputs


def test_statistics_updates_wait_only_for_other_variables():
    """A moving statistic's update moves after the fused op; not past a read of its
    variable, and then nothing fuses."""
    moving = tf.Variable(np.zeros(8, np.float32))

    def fn(x, skip, scale, offset, read_between):
        y, mean, _ = fused_batch_norm(x, scale, offset)
        moving.assign(mean)
        side = tf.exp(skip) * (moving.read_value()[0] if read_between else 1.0)
        return tf.nn.relu(y + side)

    for read_between in (False, True):
        before, after = _fused(lambda *a: fn(*a, read_between), _X, _X, _C, _C)
        assert ("_FusedBatchNormEx" in types(after)) is not read_between
        assert_same_results(before, after, *_inputs())


@pytest.mark.parametrize("case", ["returned", "sum read twice", "unknown shape", "inference",
                                  "statistics read before the side input"])
def test_what_does_not_fuse(case):
    def fn(x, skip, scale, offset):
        if case == "inference":
            y = fused_batch_norm(x, scale, offset, mean=offset, variance=scale,
                                 is_training=False)[0]
            return tf.nn.relu(y + skip)
        y, mean, _ = fused_batch_norm(x, scale, offset)
        if case == "statistics read before the side input":
            total = tf.reduce_sum(mean)
            return tf.nn.relu(y + tf.exp(skip)), total
        total = y + skip
        result = tf.nn.relu(total)
        return {"returned": (result, y), "sum read twice": (result, total * 2.0),
                "unknown shape": result}[case]

    x = _X if case != "unknown shape" else tf.TensorSpec([None, 5, 5, 8], tf.float32)
    before, after = _fused(fn, x, x, _C, _C)
    assert "_FusedBatchNormEx" not in types(after)
    assert_same_results(before, after, *_inputs())


def _assert_kernel_gives_the_unfused_values(x, skip, scale, offset):
    """The fused kernel's result (bit for bit) and statistics are the unfused ops'."""
    empty = tf.zeros([0])
    x, skip, scale, offset = map(tf.constant, (x, skip, scale, offset))
    got = dispatch(_FUSED_BATCH_NORM_EX, (x, scale, offset, empty, empty, skip),
                   {"epsilon": 1e-3, "activation_mode": "Relu", "num_side_inputs": 1})
    y, mean, variance = fused_batch_norm(x, scale, offset)
    want = tf.nn.relu(y + skip)
    for g, w in zip(got, (want, mean, variance)):
        np.testing.assert_array_equal(g.numpy().view(np.int32), w.numpy().view(np.int32))


@pytest.mark.parametrize("shape", [(32, 16, 16, 8), (2, 3, 3, 5)])
def test_kernel_gives_the_unfused_values_bit_for_bit(path, shape):
    """NaN, infinities and signed zeros of the side input come out as the ops it replaces
    give them (oneDNN's ReLU would turn NaN into 0)."""
    x, skip, scale, offset = _inputs(2, shape)
    skip.flat[::7] = np.nan
    skip.flat[1::11] = -0.0
    skip.flat[2::13] = np.inf
    skip.flat[3::17] = -np.inf
    _assert_kernel_gives_the_unfused_values(x, skip, scale, offset)


@pytest.mark.parametrize("poison", ["x nan", "x inf", "scale nan", "offset inf", "huge"])
def test_kernel_with_non_finite_statistics_gives_the_unfused_values(path, poison):
    """A NaN or infinity in the input (so in its statistics), the scale or the offset gives
    what the ops it replaces give, as does a sum of finite statistics that overflows."""
    x, skip, scale, offset = _inputs(3, (32, 16, 16, 8))
    if poison == "x nan":
        x[0, 0, 0, 2] = np.nan
    elif poison == "x inf":
        x[1, 2, 3, 4] = np.inf
    elif poison == "scale nan":
        scale[1] = np.nan
    elif poison == "offset inf":
        offset[5] = -np.inf
    else:
        offset[:] = 3e38
        scale[:] = 3e38
    _assert_kernel_gives_the_unfused_values(x, skip, scale, offset)


def test_side_inputs_are_checked_as_tensorflow_checks_them():
    x, skip, scale, offset = map(tf.constant, _inputs())
    empty = tf.zeros([0])
    with pytest.raises(tf.errors.InvalidArgumentError, match="Identity activation"):
        dispatch(_FUSED_BATCH_NORM_EX, (x, scale, offset, empty, empty, skip),
                 {"activation_mode": "Identity", "num_side_inputs": 1})
    with pytest.raises(tf.errors.InvalidArgumentError, match="shape and dtype of x"):
        dispatch(_FUSED_BATCH_NORM_EX, (x, scale, offset, empty, empty, skip[:2]),
                 {"activation_mode": "Relu", "num_side_inputs": 1})
