"""Random image augmentation layers. The transforms' values were recorded from tf_keras 2.21
(data/image_augmentation_tf.json): each factor range is one point, so nothing is random."""
import json
import pathlib

import numpy as np
import pytest

import eagerflow as tf
from eagerflow import keras

RECORDED = json.loads((pathlib.Path(__file__).parent / "data"
                       / "image_augmentation_tf.json").read_text())
IMAGE = np.arange(30, dtype="float32").reshape(1, 5, 6, 1)


def _layers(fill_mode, interpolation):
    kw = dict(fill_mode=fill_mode, interpolation=interpolation)
    return [keras.layers.RandomRotation((0.1, 0.1), fill_value=-1.0, **kw),
            keras.layers.RandomZoom((0.5, 0.5), **kw),
            keras.layers.RandomZoom((-0.4, -0.4), (0.3, 0.3), **kw),
            keras.layers.RandomTranslation((0.3, 0.3), (-0.45, -0.45), fill_value=7.0, **kw)]


@pytest.mark.parametrize("fill_mode", ["reflect", "wrap", "constant", "nearest"])
@pytest.mark.parametrize("interpolation", ["nearest", "bilinear"])
def test_transforms_match_tf(fill_mode, interpolation):
    expected = [r for r in RECORDED if r[1] == fill_mode and r[2] == interpolation]
    for layer, (name, _, _, values) in zip(_layers(fill_mode, interpolation), expected):
        assert type(layer).__name__ == name
        out = layer(IMAGE, training=True).numpy()[0, :, :, 0]
        np.testing.assert_allclose(out, values, atol=2e-3)


ALL = [keras.layers.RandomFlip("horizontal"), keras.layers.RandomFlip(),
       keras.layers.RandomRotation(0.1), keras.layers.RandomZoom(0.2),
       keras.layers.RandomTranslation(0.1, 0.2), keras.layers.RandomContrast(0.2),
       keras.layers.RandomBrightness(0.2), keras.layers.RandomHeight(0.2),
       keras.layers.RandomWidth((0.1, 0.3))]


@pytest.mark.parametrize("layer", ALL, ids=lambda layer: type(layer).__name__)
def test_identity_unless_training(layer):
    images = np.arange(2 * 5 * 6 * 3, dtype="float32").reshape(2, 5, 6, 3)
    np.testing.assert_array_equal(layer(images, training=False), images)
    assert layer(images).shape.rank == 4 and layer(images[0]).shape.rank == 3
    resizes = isinstance(layer, (keras.layers.RandomHeight, keras.layers.RandomWidth))
    assert layer(images.astype("uint8"), training=False).dtype == (  # (as Keras: these two
        tf.uint8 if resizes else tf.float32)                         # return the inputs)
    config = layer.get_config()
    assert config["seed"] is None and config["rng_type"] == "stateful"
    assert type(keras.layers.deserialize(keras.layers.serialize(layer))) is type(layer)


def test_brightness_flip_crop():
    np.testing.assert_allclose(keras.layers.RandomBrightness((0.1, 0.1))(np.zeros((2, 2, 1))),
                               np.full((2, 2, 1), 25.5))
    bright = keras.layers.RandomBrightness((0.1, 0.1), value_range=(0, 1))
    np.testing.assert_allclose(bright(np.full((1, 2, 2, 1), 0.95)), np.ones((1, 2, 2, 1)))
    assert keras.layers.RandomBrightness(0.2).get_config()["factor"] == [-0.2, 0.2]
    flipped = keras.layers.RandomFlip("vertical")(np.arange(6.0).reshape(1, 3, 2, 1))
    assert flipped.numpy().ravel().tolist() in ([0, 1, 2, 3, 4, 5], [4, 5, 2, 3, 0, 1])
    images = np.arange(2 * 5 * 6 * 3, dtype="float32").reshape(2, 5, 6, 3)
    crop = keras.layers.RandomCrop(2, 2)
    assert crop(images, training=False).numpy()[0, :, :, 0].tolist() == [[15.75, 23.25],
                                                                           [60.75, 68.25]]
    assert keras.layers.RandomCrop(10, 10)(images, training=True).shape == (2, 10, 10, 3)
    model = keras.Sequential([keras.Input((4, 5, 1)), keras.layers.RandomCrop(2, 3),
                              keras.layers.Flatten()])
    assert model.output_shape == (None, 6)


def test_argument_errors():
    with pytest.raises(ValueError, match="unknown mode argument diag"):
        keras.layers.RandomFlip("diag")
    with pytest.raises(ValueError, match=r"`height_factor` argument must have values between"):
        keras.layers.RandomZoom(2.0)
    with pytest.raises(ValueError, match=r"`width_factor` must have values between \[-1, 1\]"):
        keras.layers.RandomTranslation(0.1, 1.5)
    with pytest.raises(NotImplementedError, match="Unknown `fill_mode` x"):
        keras.layers.RandomRotation(0.1, fill_mode="x")
    with pytest.raises(ValueError, match="cannot have negative values"):
        keras.layers.RandomContrast(-0.1)
    with pytest.raises(ValueError, match=r"in the range \[-1.0, 1.0\]. Got 2.0"):
        keras.layers.RandomBrightness(2.0)


def test_factor_checks_are_keras_2s():
    # RandomZoom takes its bounds in either order and a width factor above 1 (zooming in
    # further), as Keras 2 does; these raised ValueError
    keras.layers.RandomZoom((0.4, 0.1))
    zoomed = keras.layers.RandomZoom((0.2, 0.2), (1.5, 1.5), fill_mode="constant",
                                     interpolation="nearest")(IMAGE, training=True)
    assert zoomed.numpy()[0, :, :, 0].astype(int).tolist() == [  # (TF's values)
        [0, 0, 1, 4, 0, 0], [0, 0, 7, 10, 0, 0], [0, 0, 13, 16, 0, 0], [0, 0, 19, 22, 0, 0],
        [0, 0, 25, 28, 0, 0]]
    with pytest.raises(ValueError, match=r"^`width_factor` argument must have values larger "
                                         r"than -1. Received: width_factor=-1.5$"):
        keras.layers.RandomZoom(0.1, -1.5)
    with pytest.raises(ValueError, match=r"^`factor` argument cannot have a negative value. "
                                         r"Received: factor=\(0.3, 0.1\)$"):
        keras.layers.RandomRotation((0.3, 0.1))
    with pytest.raises(ValueError, match=r"^`height_factor` argument must have values between "
                                         r"\[-1, 1\]. Received: height_factor=1.5$"):
        keras.layers.RandomTranslation(1.5, 0.1)
    with pytest.raises(ValueError, match="^`width_factor` cannot have upper bound less than"):
        keras.layers.RandomTranslation(0.1, (0.5, 0.1))
    with pytest.raises(ValueError, match="an upper bound less than the lower bound"):
        keras.layers.RandomWidth((0.5, 0.1))
    with pytest.raises(ValueError, match="an upper bound lesser than the lower bound"):
        keras.layers.RandomHeight((0.5, 0.1))


def test_random_resize_interpolation_is_checked_when_made_in_any_case():
    taller = keras.layers.RandomHeight((0.4, 0.4), interpolation="NEAREST")
    assert taller(IMAGE, training=True).numpy()[0, :, 0, 0].astype(int).tolist() == \
        [0, 6, 6, 12, 18, 18, 24]  # (TF's values)
    assert taller.get_config()["interpolation"] == "NEAREST"
    with pytest.raises(NotImplementedError, match="Value not recognized for `interpolation`: "
                                                  "foo"):
        keras.layers.RandomWidth(0.1, interpolation="foo")


def test_augmentation_model_trains_and_predicts():
    images = np.arange(2 * 5 * 6 * 3, dtype="float32").reshape(2, 5, 6, 3)
    augment = keras.Sequential([keras.layers.RandomFlip("horizontal", input_shape=(5, 6, 3)),
                                keras.layers.RandomRotation(0.1), keras.layers.RandomZoom(0.1)])
    model = keras.Sequential([augment, keras.layers.Rescaling(1 / 255),
                              keras.layers.Conv2D(2, 3), keras.layers.GlobalAveragePooling2D(),
                              keras.layers.Dense(2)])
    model.compile("adam", keras.losses.SparseCategoricalCrossentropy(from_logits=True))
    model.fit(images, np.array([0, 1]), epochs=1, verbose=0)
    assert model.predict(images, verbose=0).shape == (2, 2)
    ds = tf.data.Dataset.from_tensor_slices(images).batch(2).map(
        lambda x: augment(x, training=True))
    assert [tuple(x.shape) for x in ds] == [(2, 5, 6, 3)]


def test_identity_layer():
    x = tf.constant([1.0, 2.0])
    assert keras.layers.Identity()(x).numpy().tolist() == [1.0, 2.0]
    assert keras.layers.Identity()({"a": x})["a"].shape == (2,)


# TF 2.21 / tf_keras: the first 8 output values of two calls of each seeded layer on
# np.arange(32).reshape(2, 4, 4, 1) with training=True (a stateful generator from the seed)
SEEDED_TF = [
    (lambda: keras.layers.RandomRotation(0.2, seed=3),
     [7.173, 3.983, 1.393, 1.207, 9.781, 7.191, 4.601, 2.011],
     [3.88, 2.155, 1.169, 2.03, 7.326, 6.109, 4.938, 3.767]),
    (lambda: keras.layers.RandomZoom(0.3, seed=4),
     [0.079, 1.068, 2.058, 3.047, 4.037, 5.026, 6.016, 7.005],
     [0.863, 1.748, 2.633, 3.518, 4.403, 5.288, 6.173, 7.058]),
    (lambda: keras.layers.RandomTranslation(0.2, 0.3, seed=5),
     [0.0, 0.207, 1.207, 2.207, 3.571, 3.778, 4.778, 5.778],
     [2.779, 3.142, 4.142, 5.142, 6.779, 7.142, 8.142, 9.142]),
    (lambda: keras.layers.RandomHeight(0.3, seed=6),
     [0.667, 1.667, 2.667, 3.667, 6.0, 7.0, 8.0, 9.0],
     [0.0, 1.0, 2.0, 3.0, 2.8, 3.8, 4.8, 5.8]),
]


@pytest.mark.parametrize("make, first, second", SEEDED_TF)
def test_seeded_layers_draw_tfs_values_call_after_call(make, first, second):
    layer = make()
    x = np.arange(32, dtype=np.float32).reshape(2, 4, 4, 1)
    for expected in (first, second):
        got = layer(x, training=True).numpy().ravel()[:8]
        np.testing.assert_allclose(got, expected, atol=1e-3)


def test_config_keys_in_keras_order():
    base = ["name", "trainable", "dtype", "rng_type"]
    transform = ["fill_mode", "fill_value", "interpolation", "seed"]
    assert list(keras.layers.RandomRotation(0.2, seed=1).get_config()) == \
        base + ["factor"] + transform
    assert list(keras.layers.RandomZoom(0.2).get_config()) == \
        base + ["height_factor", "width_factor"] + transform
    assert list(keras.layers.RandomTranslation(0.1, 0.2).get_config()) == \
        base + ["height_factor", "width_factor"] + transform
    assert list(keras.layers.RandomHeight(0.3).get_config()) == \
        base + ["factor", "interpolation", "seed"]


@pytest.mark.parametrize("layer", [tf.keras.layers.RandomHeight, tf.keras.layers.RandomWidth])
def test_random_resize_in_inference_returns_the_inputs_as_given(layer):
    images = np.arange(2 * 4 * 5 * 3, dtype=np.uint8).reshape(2, 4, 5, 3)
    out = layer(0.3, seed=1)(images, training=False)
    assert out.dtype == tf.uint8  # (Keras casts only what it resizes)
    np.testing.assert_array_equal(out.numpy(), images)
    assert layer(0.3, seed=1)(images, training=True).dtype == tf.float32


def test_antialiased_resize_of_an_empty_image_is_the_kernels_error():
    with pytest.raises(tf.errors.InvalidArgumentError, match="input image must be of non-zero"):
        tf.image.resize(np.zeros((2, 0, 8, 3), np.float32), (3, 4), antialias=True)


def test_transform_layers_take_tfs_gradient():
    # TF's gradient of ImageProjectiveTransformV3 resamples the output gradient through the
    # inverse transforms (not the exact adjoint of the bilinear reads): TF's values
    x = tf.Variable(np.random.RandomState(0).rand(1, 6, 7, 3).astype(np.float32))
    want = {"RandomRotation": 763.546, "RandomZoom": 744.668}
    for name, layer in (("RandomRotation", keras.layers.RandomRotation(0.2, seed=1)),
                        ("RandomZoom", keras.layers.RandomZoom(0.2, seed=1))):
        with tf.GradientTape() as tape:
            y = layer(x, training=True)
            weights = tf.cast(tf.reshape(tf.range(tf.size(y)) % 7, tf.shape(y)), y.dtype)
            loss = tf.reduce_sum(y * weights)
        g = tape.gradient(loss, x)
        weights = tf.cast(tf.reshape(tf.range(tf.size(g)) % 5, tf.shape(g)), g.dtype)
        np.testing.assert_allclose(float(tf.reduce_sum(g * weights)), want[name], rtol=1e-5)
