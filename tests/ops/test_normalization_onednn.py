"""Batch normalization on oneDNN: outputs and gradients equal to the NumPy kernels'."""
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import eagerflow as tf
from tests.concurrency import in_threads
from tests.internals import (_FUSED_BATCH_NORM_EX, _FUSED_BATCH_NORM_GRAD_EX, dispatch,
                             fused_batch_norm_v3, needs_onednn, onednn, threads)


def _run(x, scale, offset, mean, variance, dy, **attrs):
    """The six outputs of FusedBatchNormV3 and the gradients of x, scale and offset."""
    x, scale, offset = tf.constant(x), tf.constant(scale), tf.constant(offset)
    with tf.GradientTape() as tape:
        tape.watch([x, scale, offset])
        outputs = fused_batch_norm_v3(x, scale, offset, mean, variance, **attrs)
    grads = tape.gradient(outputs[0], [x, scale, offset], output_gradients=tf.constant(dy))
    return [o.numpy() for o in outputs[:5]] + [g.numpy() for g in grads]


def _both_paths(*args, **attrs):
    results = []
    for flag in (True, False):
        onednn.set_enabled(flag)
        try:
            results.append(_run(*args, **attrs))
        finally:
            onednn.set_enabled(None)
    return results


def _inputs(shape, channels, seed=0, spread=1.0):
    rng = np.random.default_rng(seed)
    x = (rng.standard_normal(shape) * spread + rng.standard_normal()).astype(np.float32)
    scale, offset, mean = (rng.standard_normal(channels).astype(np.float32) for _ in range(3))
    variance = rng.random(channels).astype(np.float32) + 0.5
    dy = rng.standard_normal(shape).astype(np.float32)
    return x, scale, offset, mean, variance, dy


@needs_onednn
@settings(max_examples=50, deadline=None)
@given(rank=st.sampled_from([4, 5]), data=st.data(), training=st.booleans(),
       channels_first=st.booleans(), epsilon=st.sampled_from([1e-3, 1e-5, 0.1]),
       factor=st.sampled_from([1.0, 0.1, 0.99]))
def test_batch_norm_matches_numpy(rank, data, training, channels_first, epsilon, factor):
    dims = data.draw(st.lists(st.integers(1, 6), min_size=rank, max_size=rank))
    channels = dims[1] if channels_first else dims[-1]
    if rank == 4:
        data_format = "NCHW" if channels_first else "NHWC"
    else:
        data_format = "NCDHW" if channels_first else "NDHWC"
    args = _inputs(tuple(dims), channels, seed=data.draw(st.integers(0, 100)))
    a, b = _both_paths(*args, epsilon=epsilon, exponential_avg_factor=factor,
                       data_format=data_format, is_training=training)
    for got, want in zip(a, b):
        np.testing.assert_allclose(got, want, rtol=2e-4, atol=2e-4)


@needs_onednn
@pytest.mark.parametrize("training", [True, False])
def test_large_offsets_keep_their_accuracy(training):
    x, scale, offset, mean, variance, dy = _inputs((8, 16, 16, 3), 3, spread=3.0)
    x += 1000
    a, b = _both_paths(x, scale, offset, mean + 1000, variance, dy, is_training=training)
    for got, want in zip(a, b):
        np.testing.assert_allclose(got, want, rtol=1e-3, atol=1e-3)


@needs_onednn
@pytest.mark.parametrize("training", [True, False])
def test_non_finite_inputs_match_numpy(training):
    x, scale, offset, mean, variance, dy = _inputs((2, 3, 3, 3), 3)
    x[0, 0, 0, 0], x[1, 1, 1, 1] = np.nan, np.inf
    a, b = _both_paths(x, scale, offset, mean, variance, dy, is_training=training)
    for got, want in zip(a, b):
        np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-4)  # NaN where NaN


def test_training_statistics(path):
    x = tf.constant([[[[1.0], [3.0]]], [[[5.0], [7.0]]]])
    y, running_mean, running_var, batch_mean, batch_var, _ = fused_batch_norm_v3(
        x, [2.0], [1.0], [10.0], [10.0], epsilon=0.0, exponential_avg_factor=0.5)
    assert batch_mean.numpy().tolist() == [4.0]
    assert batch_var.numpy().tolist() == [5.0]  # biased
    assert running_mean.numpy().tolist() == [7.0]
    np.testing.assert_allclose(running_var.numpy(), [(10.0 + 20.0 / 3) / 2], rtol=1e-6)
    np.testing.assert_allclose(y.numpy().ravel(), 2 * (np.array([1, 3, 5, 7]) - 4) /
                               np.sqrt(5.0) + 1, rtol=1e-6)


def test_keras_layer_in_a_function(path):
    layer = tf.keras.layers.BatchNormalization()
    x = tf.constant(np.random.default_rng(5).standard_normal((4, 3, 3, 2)), tf.float32)

    @tf.function(input_signature=[tf.TensorSpec([None, 3, 3, 2])])
    def step(x):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = tf.reduce_sum(layer(x, training=True) ** 2)
        return tape.gradient(y, [x] + layer.trainable_variables)
    grads = step(x)
    onednn.set_enabled(False)
    reference = step(x)
    for got, want in zip(grads, reference):
        np.testing.assert_allclose(got.numpy(), want.numpy(), rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(layer(x, training=False).numpy().std(), 1.0, rtol=0.9)


@pytest.mark.parametrize("shape", [(0, 2, 2, 3), (2, 0, 2, 3)])
def test_empty_inputs(path, shape):
    x = tf.zeros(shape)
    y, mean, variance = fused_batch_norm_v3(x, tf.ones(3), tf.zeros(3), [], [])[:3]
    assert y.shape == shape and mean.shape == variance.shape == (3,)


def test_several_threads(path):
    inputs = [_inputs((4, 5, 5, 3), 3, seed=i) for i in range(4)]
    expected = [_run(*args) for args in inputs]
    results = in_threads(_run, inputs, repeat=10)
    for i in range(4):
        for got, want in zip(results[i], expected[i]):
            np.testing.assert_array_equal(got, want)


@needs_onednn
@pytest.mark.parametrize("shape", [(1, 7, 33, 1), (1, 4, 5, 6), (1, 3, 2, 2, 5)])
def test_single_example_channels_first_matches_numpy(shape):
    """Layer normalization's form: each channel's row normalized (oneDNN's layer norm)."""
    x, scale, offset, mean, variance, dy = _inputs(shape, shape[1], seed=7)
    data_format = "NCHW" if len(shape) == 4 else "NCDHW"
    a, b = _both_paths(x, scale, offset, mean, variance, dy, data_format=data_format,
                       epsilon=1e-3, exponential_avg_factor=0.3)
    for got, want in zip(a, b):
        np.testing.assert_allclose(got, want, rtol=2e-4, atol=2e-4)


@pytest.mark.parametrize("axis", [-1, [1, 2]])
def test_keras_layer_normalization(path, axis):
    x = tf.constant(np.random.default_rng(8).standard_normal((3, 4, 5)) * 3 + 2, tf.float32)
    layer = tf.keras.layers.LayerNormalization(axis=axis)
    layer.build(x.shape)
    layer.gamma.assign(tf.random.stateless_normal(layer.gamma.shape, (1, 2)))
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = layer(x)
        loss = tf.reduce_sum(y ** 3)
    grads = tape.gradient(loss, [x] + layer.trainable_variables)
    axes = (-1,) if axis == -1 else (1, 2)
    xn = x.numpy().astype(np.float64)
    mean, var = xn.mean(axes, keepdims=True), xn.var(axes, keepdims=True)
    expected = (xn - mean) / np.sqrt(var + 1e-3) * layer.gamma.numpy() + layer.beta.numpy()
    np.testing.assert_allclose(y.numpy(), expected, rtol=1e-4, atol=1e-5)
    onednn.set_enabled(False)
    with tf.GradientTape() as tape:
        tape.watch(x)
        loss = tf.reduce_sum(layer(x) ** 3)
    for got, want in zip(grads, tape.gradient(loss, [x] + layer.trainable_variables)):
        np.testing.assert_allclose(got.numpy(), want.numpy(), rtol=1e-4, atol=1e-4)


@needs_onednn
@pytest.mark.parametrize("budget", [1, 2])
def test_each_thread_count_matches_numpy(budget):
    """On several threads oneDNN's batch normalization runs a kernel whose threads never spin
    waiting for each other (the first one does: twenty times slower under load)."""
    tf.config.threading.set_intra_op_parallelism_threads(budget)
    threads.set_fixed(True)  # whatever other processes do meanwhile
    try:
        onednn.clear_cache()
        args = _inputs((8, 6, 6, 16), 16, seed=3)
        a, b = _both_paths(*args, epsilon=1e-3, data_format="NHWC", is_training=True)
        kernels = {p.implementation() for k, p in list(onednn._cache.items())
                   if k[0] == "batch_norm" and p is not None}
    finally:
        threads.set_fixed(False)
        tf.config.threading.set_intra_op_parallelism_threads(0)
    for got, want in zip(a, b):
        np.testing.assert_allclose(got, want, rtol=2e-4, atol=2e-4)
    assert kernels
    if budget > 1:
        assert not any(k.startswith("bnorm_jit:") for k in kernels), kernels


@needs_onednn
@pytest.mark.parametrize("training", [True, False])
@pytest.mark.parametrize("shape", [(4, 5, 5, 3), (2, 3, 4, 5, 8)])
def test_bfloat16_data_runs_natively_within_its_precision(training, shape):
    import ml_dtypes
    x, scale, offset, mean, variance, dy = _inputs(shape, shape[-1], seed=5)
    x, dy = x.astype(ml_dtypes.bfloat16), dy.astype(ml_dtypes.bfloat16)
    data_format = "NHWC" if len(shape) == 4 else "NDHWC"
    onednn.clear_cache()
    a, b = _both_paths(x, scale, offset, mean, variance, dy, epsilon=1e-3,
                       data_format=data_format, is_training=training)
    assert any(k[0] == "batch_norm" and k[-2] == x.dtype and p is not None
               for k, p in list(onednn._cache.items()))
    for got, want in zip(a, b):
        assert got.dtype == want.dtype and got.shape == want.shape
        np.testing.assert_allclose(got.astype(np.float32), want.astype(np.float32),
                                   rtol=2e-2, atol=3e-2)


def _run_relu(x, scale, offset, mean, variance, dy, **attrs):
    """The outputs of _FusedBatchNormEx with a ReLU (reserve_space_3 aside) and those of its
    gradient op for `dy`."""
    x, scale, offset, dy = map(tf.constant, (x, scale, offset, dy))
    outputs = dispatch(_FUSED_BATCH_NORM_EX, (x, scale, offset, tf.constant(mean),
                                              tf.constant(variance)),
                       {"activation_mode": "Relu", **attrs})
    grads = dispatch(_FUSED_BATCH_NORM_GRAD_EX,
                     (dy, x, scale, *outputs[3:], offset, outputs[0]),
                     {"activation_mode": "Relu", "epsilon": attrs["epsilon"],
                      "data_format": attrs["data_format"]})
    return [o.numpy() for o in outputs[:5]] + [g.numpy() for g in grads[:3]]


@needs_onednn
@settings(max_examples=40, deadline=None)
@given(rank=st.sampled_from([4, 5]), data=st.data(), epsilon=st.sampled_from([1e-3, 0.1]),
       factor=st.sampled_from([1.0, 0.1]))
def test_batch_norm_relu_matches_numpy(rank, data, epsilon, factor):
    """Batch normalization with the ReLU inside oneDNN's kernel (its mask kept for the
    gradient) gives the NumPy kernels' results."""
    dims = tuple(data.draw(st.lists(st.integers(1, 6), min_size=rank, max_size=rank)))
    args = _inputs(dims, dims[-1], seed=data.draw(st.integers(0, 100)))
    attrs = dict(epsilon=epsilon, exponential_avg_factor=factor,
                 data_format="NHWC" if rank == 4 else "NDHWC")
    results = []
    for flag in (True, False):
        onednn.set_enabled(flag)
        try:
            results.append(_run_relu(*args, **attrs))
        finally:
            onednn.set_enabled(None)
    for got, want in zip(*results):
        np.testing.assert_allclose(got, want, rtol=2e-4, atol=2e-4)
