"""Regularization layers: the identity at inference; while training, the noise statistics of
GaussianNoise, GaussianDropout and AlphaDropout, whole-channel masks of the spatial dropouts,
ActivityRegularization's loss; configs, seeds, tf.function and errors, as tf_keras 2.21."""
import math

import numpy as np
import pytest

import eagerflow as tf
from eagerflow.keras import backend
from eagerflow.keras.layers import (ActivityRegularization, AlphaDropout, GaussianDropout,
    GaussianNoise, SpatialDropout1D, SpatialDropout2D, SpatialDropout3D)

ONES = np.ones((200, 100), np.float32)
X = np.random.default_rng(0).normal(size=(4, 6, 5)).astype(np.float32)


@pytest.fixture(autouse=True)
def fresh_names():
    backend.clear_session()


def close(x, expected, rtol=1e-6, atol=1e-6):
    np.testing.assert_allclose(np.asarray(x), expected, rtol=rtol, atol=atol)


NOISE = [GaussianNoise(0.5), GaussianDropout(0.3), AlphaDropout(0.3), SpatialDropout1D(0.5),
         SpatialDropout2D(0.5), SpatialDropout3D(0.5)]


@pytest.mark.parametrize("layer", NOISE, ids=lambda layer: type(layer).__name__)
def test_identity_at_inference(layer):
    x = np.ones((2, 3, 4, 5, 6)[:layer.input_spec.ndim] if layer.input_spec else (2, 3),
                np.float32)
    close(layer(x), x)
    close(layer(x, training=False), x)
    assert layer.compute_output_shape(tf.TensorShape(x.shape)) == x.shape
    assert layer.supports_masking


def test_gaussian_noise_statistics():
    y = np.asarray(GaussianNoise(0.5)(ONES, training=True)) - 1
    assert abs(y.mean()) < 0.02 and abs(y.std() - 0.5) < 0.02


def test_gaussian_dropout_statistics():
    y = np.asarray(GaussianDropout(0.2)(ONES, training=True))
    assert abs(y.mean() - 1) < 0.02 and abs(y.std() - math.sqrt(0.2 / 0.8)) < 0.02
    close(GaussianDropout(0.0)(ONES, training=True), ONES)  # a rate outside (0, 1): identity
    close(GaussianDropout(1.0)(ONES, training=True), ONES)


def test_alpha_dropout_keeps_mean_and_variance():
    x = np.random.default_rng(1).normal(size=(400, 100)).astype(np.float32)
    y = np.asarray(AlphaDropout(0.2)(x, training=True))
    assert abs(y.mean() - x.mean()) < 0.03 and abs(y.std() - x.std()) < 0.03
    alpha_p = -1.6732632423543772 * 1.0507009873554805
    a = ((1 - 0.2) * (1 + 0.2 * alpha_p ** 2)) ** -0.5
    dropped = np.isclose(y, a * alpha_p - a * alpha_p * 0.2, atol=1e-5)
    assert abs(dropped.mean() - 0.2) < 0.02
    close(y[~dropped], a * x[~dropped] - a * alpha_p * 0.2, rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("layer, shape, kept_axes", [
    (SpatialDropout1D(0.5), (8, 20, 6), (0, 2)),
    (SpatialDropout2D(0.5), (8, 5, 4, 6), (0, 3)),
    (SpatialDropout2D(0.5, data_format="channels_first"), (8, 6, 5, 4), (0, 1)),
    (SpatialDropout3D(0.5), (8, 3, 2, 4, 6), (0, 4)),
    (SpatialDropout3D(0.5, data_format="channels_first"), (8, 6, 3, 2, 2), (0, 1)),
], ids=["1D", "2D", "2D-first", "3D", "3D-first"])
def test_spatial_dropout_drops_whole_channels(layer, shape, kept_axes):
    y = np.asarray(layer(np.ones(shape, np.float32), training=True))
    assert set(np.unique(y)) <= {0.0, 2.0}
    reduced = tuple(i for i in range(len(shape)) if i not in kept_axes)
    per_channel = y.min(reduced) == y.max(reduced)  # one draw per example and channel
    assert per_channel.all()
    assert 0.2 < (y == 0).mean() < 0.8


def test_spatial_dropout_config_and_errors():
    config = SpatialDropout2D(0.3, seed=4).get_config()
    assert {k: config[k] for k in ("rate", "noise_shape", "seed")} == \
        {"rate": 0.3, "noise_shape": None, "seed": 4}
    assert "data_format" not in config  # as in Keras 2
    with pytest.raises(ValueError, match='`data_format` must be "channels_last" or '
                                         '"channels_first". Received: data_format=NHWC.'):
        SpatialDropout2D(0.5, data_format="NHWC")
    with pytest.raises(ValueError, match="expected ndim=3, found ndim=2"):
        SpatialDropout1D(0.5)(np.ones((2, 3), np.float32))


def test_configs_round_trip():
    for layer, expected in ((GaussianNoise(0.1, seed=1), {"stddev": 0.1, "seed": 1}),
                            (GaussianDropout(0.2), {"rate": 0.2, "seed": None}),
                            (AlphaDropout(0.3, noise_shape=[1, 2]), {"rate": 0.3, "seed": None}),
                            (SpatialDropout1D(0.4), {"rate": 0.4, "noise_shape": None,
                                                     "seed": None}),
                            (ActivityRegularization(l1=0.1), {"l1": 0.1, "l2": 0.0})):
        config = layer.get_config()
        assert list(config)[:3] == ["name", "trainable", "dtype"]
        assert {k: config[k] for k in list(config)[3:]} == expected
        assert type(layer).from_config(config).get_config() == config


def test_seeded_noise_is_reproducible():
    tf.random.set_seed(7)
    first = GaussianNoise(1.0, seed=3)(ONES, training=True)
    tf.random.set_seed(7)
    second = GaussianNoise(1.0, seed=3)(ONES, training=True)
    close(first, second)


def test_activity_regularization_loss():
    layer = ActivityRegularization(l1=0.1, l2=0.01)
    y = layer(X)
    close(y, X)
    assert len(layer.losses) == 1
    expected = (0.1 * np.abs(X).sum() + 0.01 * (X ** 2).sum()) / X.shape[0]
    close(layer.losses[0], expected, rtol=1e-5)
    layer(X)
    assert len(layer.losses) == 1  # each call replaces the previous call's loss


def test_training_as_a_tensor_in_a_function():
    layer = GaussianNoise(1.0)
    step = tf.function(lambda x, training: layer(x, training=training))
    close(step(ONES, tf.constant(False)), ONES)
    assert not np.allclose(step(ONES, tf.constant(True)), ONES)


@pytest.mark.parametrize("layer", NOISE, ids=lambda layer: type(layer).__name__)
def test_training_in_a_function(layer):
    x = np.ones((2, 3, 4, 5, 6)[:layer.input_spec.ndim] if layer.input_spec else (50, 40),
                np.float32)
    y = tf.function(lambda x: layer(x, training=True))(x)
    assert y.shape == x.shape and not np.allclose(y, x)
    close(tf.function(lambda x: layer(x))(x), x)


def test_noise_gradient_passes_through():
    x = tf.constant(ONES[:2])
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        noisy = GaussianNoise(1.0)(x, training=True)
        scaled = GaussianDropout(0.5)(x, training=True)
    close(tape.gradient(noisy, x), np.ones((2, 100)))
    close(tape.gradient(scaled, x), scaled)


def test_noise_values_are_tf_keras_and_seeds_count_up_per_call():
    tf.random.set_seed(0)
    layer = GaussianNoise(1.0, seed=2)
    zeros = tf.zeros([3])
    try:
        np.testing.assert_array_equal(layer(zeros, training=True).numpy(), np.float32(
            [0.08629926294088364, 0.7280054092407227, 0.29053789377212524]))
        np.testing.assert_array_equal(layer(zeros, training=True).numpy(), np.float32(  # seed 3
            [-1.4095544815063477, -0.5366827845573425, -0.5652378797531128]))
    finally:
        tf.random.set_seed(None)


@pytest.fixture
def tf_random_generator():
    backend.experimental.enable_tf_random_generator()
    yield
    backend.experimental.disable_tf_random_generator()


def test_random_layers_draw_from_generators_when_enabled(tf_random_generator):
    # tf_keras 2.21's values: Dropout(seed=3) masks from Generator.from_seed(3).uniform
    tf.keras.utils.set_random_seed(2)
    drop = tf.keras.layers.Dropout(0.5, seed=3)
    close(drop(tf.ones([6]), training=True), [0.0, 2.0, 2.0, 2.0, 0.0, 0.0])
    close(drop(tf.ones([6]), training=True), [0.0, 0.0, 2.0, 0.0, 0.0, 2.0])
    close(tf.keras.layers.Dropout(0.5)(tf.ones([6]), training=True),
          [2.0, 2.0, 2.0, 2.0, 0.0, 2.0])


def test_random_layers_take_their_seeds_when_built(tf_random_generator):
    # (an unseeded layer's generator is made at build, between its neighbours' initializers)
    tf.keras.utils.set_random_seed(1)
    noise = GaussianNoise(0.3)
    m = tf.keras.Sequential([tf.keras.layers.Dense(8, input_shape=(4,)), noise,
                             tf.keras.layers.Dense(1)])
    close(noise._random_generator._generator.state, [611178003, 0, 0], rtol=0, atol=0)
    close(m.layers[2].kernel.numpy()[:3, 0], [0.00399029, -0.17065042, -0.81005234])
