"""Batch normalization + ReLU fusion: FusedBatchNormV3 -> Relu (and their gradients) become
_FusedBatchNormEx and _FusedBatchNormGradEx, with the results of the ops they replace."""
import numpy as np
import pytest

import eagerflow as tf
from tests.graph.passes.helpers import assert_same_results, evaluate, traced, types
from tests.internals import (_FUSED_BATCH_NORM_EX, _FUSED_BATCH_NORM_GRAD_EX, dispatch,
                             fuse_batch_norm_relu, fused_batch_norm, onednn)

_X = tf.TensorSpec([None, 4, 4, 3], tf.float32)
_C = tf.TensorSpec([3], tf.float32)
_FUSED = {"_FusedBatchNormEx", "_FusedBatchNormGradEx"}


def _bn(x, scale, offset, training=True):
    return fused_batch_norm(x, scale, offset, mean=None if training else offset,
                            variance=None if training else scale, is_training=training)


def _inputs(batch=5, seed=0):
    rng = np.random.default_rng(seed)
    return [rng.normal(size=(batch, 4, 4, 3)).astype(np.float32) * 2 + 0.5,
            rng.uniform(0.5, 1.5, 3).astype(np.float32), rng.normal(size=3).astype(np.float32)]


def _step(x, scale, offset):
    with tf.GradientTape() as tape:
        tape.watch([x, scale, offset])
        y, mean, variance = _bn(x, scale, offset)
        r = tf.nn.relu(y)
        loss = tf.reduce_sum(r * r * tf.range(3.0))
    return [r, mean, variance, *tape.gradient(loss, [x, scale, offset])]


def _fused(fn, *specs):
    before = traced(fn, *specs)
    return before, fuse_batch_norm_relu(before)


def test_training_step_fuses_with_its_gradient(path):
    before, after = _fused(_step, _X, _C, _C)
    kinds = set(types(after))
    assert _FUSED <= kinds and not kinds & {"Relu", "ReluGrad", "FusedBatchNormV3",
                                            "FusedBatchNormGradV3"}
    fused = [op for op in after.operations if op.type == "_FusedBatchNormEx"][0]
    assert fused.attrs["activation_mode"] == "Relu" and fused.outputs[0].shape[0] is None
    for batch in (5, 1):
        assert_same_results(before, after, *_inputs(batch))


def test_forward_alone_fuses(path):
    def forward(x, scale, offset):
        return tf.nn.relu(_bn(x, scale, offset)[0])
    before, after = _fused(forward, _X, _C, _C)
    assert [t for t in types(after) if t != "Const"] == ["_FusedBatchNormEx"]
    assert_same_results(before, after, *_inputs())


@pytest.mark.parametrize("case", ["returned", "read twice", "mask of the input", "inference"])
def test_intermediates_used_elsewhere_are_not_fused(case):
    def fn(x, scale, offset):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = _bn(x, scale, offset, training=case != "inference")[0]
            r = tf.nn.relu(y)
            if case == "mask of the input":  # the gradient masks with y, not with r
                r = tf.raw_ops.ReluGrad(gradients=tf.ones_like(y), features=y) * r
        g = tape.gradient(r, x)
        if case == "returned":
            return g, y
        if case == "read twice":
            return g, y * 2.0
        return g
    before, after = _fused(fn, _X, _C, _C)
    assert not _FUSED & set(types(after))
    assert_same_results(before, after, *_inputs())


def test_relu_gradient_read_elsewhere_is_not_fused():
    def fn(x, scale, offset):
        with tf.GradientTape() as tape:
            tape.watch(x)
            with tf.GradientTape() as inner:
                inner.watch(x)
                r = tf.nn.relu(_bn(x, scale, offset)[0])
                loss = tf.reduce_sum(r * r)
            g = inner.gradient(loss, x)
            total = tf.reduce_sum(g * g)
        return g, tape.gradient(total, x)  # second derivatives read the first's ops
    before, after = _fused(fn, _X, _C, _C)
    assert not _FUSED & set(types(after))
    assert_same_results(before, after, *_inputs())


def test_nested_tapes_in_a_function_fall_back(path, optimizer_options):
    @tf.function
    def second(x, scale, offset):
        with tf.GradientTape() as outer:
            outer.watch(scale)
            with tf.GradientTape() as inner:
                inner.watch(x)
                loss = tf.reduce_sum(tf.nn.relu(_bn(x, scale, offset)[0]) ** 3)
            g = inner.gradient(loss, x)
            total = tf.reduce_sum(g * g)
        return outer.gradient(total, scale)
    args = [tf.constant(a) for a in _inputs()]
    got = second(*args).numpy()
    optimizer_options.set_experimental_options({"remapping": False})
    want = tf.function(second.python_function)(*args).numpy()
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5)


def _keras_step(model, optimizer):
    @tf.function
    def step(x, y):
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean(tf.square(model(x, training=True) - y))
        grads = tape.gradient(loss, model.trainable_variables)
        optimizer.apply_gradients(zip(grads, model.trainable_variables))
        return loss
    return step


def _train(options, remapping, x, y):
    options.set_experimental_options({"remapping": remapping})
    tf.keras.utils.set_random_seed(3)
    model = tf.keras.Sequential([
        tf.keras.layers.Conv2D(4, 3, padding="same", use_bias=False),
        tf.keras.layers.BatchNormalization(momentum=0.9, epsilon=1e-3),
        tf.keras.layers.ReLU(), tf.keras.layers.GlobalAveragePooling2D(),
        tf.keras.layers.Dense(2)])
    step = _keras_step(model, tf.keras.optimizers.SGD(0.1))
    losses = [float(step(x, y)) for _ in range(3)]
    return losses, [v.numpy() for v in model.weights]


def test_keras_training_step_matches_unfused(path, optimizer_options):
    """Weights, moving statistics and losses after a few steps are those of the unfused ops."""
    rng = np.random.default_rng(4)
    x = tf.constant(rng.normal(size=(6, 5, 5, 3)).astype(np.float32))
    y = tf.constant(rng.normal(size=(6, 2)).astype(np.float32))
    fused_losses, fused = _train(optimizer_options, True, x, y)
    losses, weights = _train(optimizer_options, False, x, y)
    np.testing.assert_allclose(fused_losses, losses, rtol=1e-5)
    for got, want in zip(fused, weights):
        np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6)


def _ex(x, scale, offset, **attrs):
    empty = tf.zeros([0])
    return dispatch(_FUSED_BATCH_NORM_EX, (x, scale, offset, empty, empty),
                    {"epsilon": 1e-3, "activation_mode": "Relu", **attrs})


def _grad_ex(dy, x, scale, outputs, offset):
    return dispatch(_FUSED_BATCH_NORM_GRAD_EX, (dy, x, scale, *outputs[3:], offset, outputs[0]),
                    {"epsilon": 1e-3, "activation_mode": "Relu"})


def _unfused(x, scale, offset, dy):
    with tf.GradientTape() as tape:
        tape.watch([x, scale, offset])
        y = tf.nn.relu(_bn(x, scale, offset)[0])
    return [y, *tape.gradient(y, [x, scale, offset], output_gradients=dy)]


@pytest.mark.parametrize("poison", [None, "nan", "inf", "scale"])
def test_kernels_match_the_ops_they_replace(path, poison):
    """Non-finite data give what Relu gives after the normalization (NaN stays NaN)."""
    x, scale, offset = _inputs(8)
    if poison == "scale":
        scale[1] = np.nan
    elif poison:
        x[0, 0, 0, 2] = float(poison)
    dy = np.random.default_rng(9).normal(size=x.shape).astype(np.float32)
    x, scale, offset, dy = map(tf.constant, (x, scale, offset, dy))
    outputs = _ex(x, scale, offset)
    got = [outputs[0], *_grad_ex(dy, x, scale, outputs, offset)[:3]]
    for g, w in zip(got, _unfused(x, scale, offset, dy)):
        np.testing.assert_allclose(g.numpy(), w.numpy(), rtol=1e-5, atol=1e-5)


def test_gradient_of_a_forward_run_by_numpy_masks_itself():
    """A workspace-less forward (NumPy's) and a oneDNN gradient, or the other way round."""
    x, scale, offset = map(tf.constant, _inputs(8))
    dy = tf.constant(np.random.default_rng(2).normal(size=x.shape).astype(np.float32))
    results = []
    for forward, backward in ((False, None), (None, False), (False, False)):
        onednn.set_enabled(forward)
        try:
            outputs = _ex(x, scale, offset)
            onednn.set_enabled(backward)
            results.append([outputs[0], *_grad_ex(dy, x, scale, outputs, offset)[:3]])
        finally:
            onednn.set_enabled(None)
    for got in results[:2]:
        for g, w in zip(got, results[2]):
            np.testing.assert_allclose(g.numpy(), w.numpy(), rtol=1e-5, atol=1e-5)


def test_unknown_activation_mode_is_tensorflows_error():
    x, scale, offset = map(tf.constant, _inputs(2))
    with pytest.raises(tf.errors.InvalidArgumentError, match="activation mode: Elu"):
        _ex(x, scale, offset, activation_mode="Elu")


def test_fused_function_runs_on_batches_of_any_size(path):
    step = tf.function(_step, input_signature=[_X, _C, _C])
    program = fuse_batch_norm_relu(traced(_step, _X, _C, _C))
    assert _FUSED <= set(types(program))
    for batch in (3, 7):
        args = _inputs(batch, seed=batch)
        got = step(*map(tf.constant, args))
        want = evaluate(traced(_step, _X, _C, _C), *args)
        for g, w in zip(got, want):
            np.testing.assert_allclose(g.numpy(), w, rtol=1e-4, atol=1e-4)
