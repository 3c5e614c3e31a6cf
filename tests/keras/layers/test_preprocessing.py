"""Preprocessing layers: Normalization (given statistics, adapt on arrays and batches, invert,
axes, weights, errors), Rescaling, Resizing (bilinear and nearest against a NumPy reference
of tf.image's half-pixel sampling, crop to aspect ratio) and CenterCrop, as tf_keras 2.21."""
import numpy as np
import pytest

import eagerflow as tf
from eagerflow.keras import backend
from eagerflow.keras.layers import CenterCrop, Normalization, Rescaling, Resizing

RNG = np.random.default_rng(0)
X = (RNG.normal(size=(8, 4, 3)) * 3 + 2).astype(np.float32)
IMAGES = (RNG.random((2, 7, 5, 3)) * 255).astype(np.float32)


@pytest.fixture(autouse=True)
def fresh_names():
    backend.clear_session()


def close(x, expected, rtol=1e-5, atol=1e-5):
    np.testing.assert_allclose(np.asarray(x), expected, rtol=rtol, atol=atol)


# -- Normalization ---------------------------------------------------------------------------

def test_normalization_with_given_statistics():
    layer = Normalization(mean=[1.0, 2.0, 3.0], variance=[1.0, 4.0, 9.0])
    close(layer(X), (X - [1, 2, 3]) / np.array([1, 2, 3]))
    assert layer.weights == []
    scalar = Normalization(mean=2.0, variance=4.0, axis=None)
    close(scalar(X), (X - 2) / 2)
    inverted = Normalization(mean=2.0, variance=4.0, axis=None, invert=True)
    close(inverted(scalar(X)), X)
    close(Normalization(mean=0.0, variance=0.0, axis=None)(X), X / 1e-7, rtol=1e-5)


@pytest.mark.parametrize("axis, kept", [(-1, (2,)), (None, ()), ((1, 2), (1, 2)), (1, (1,))])
def test_normalization_adapt(axis, kept):
    layer = Normalization(axis=axis)
    layer.adapt(X)
    reduced = tuple(i for i in range(3) if i not in kept)
    mean, var = X.mean(reduced, keepdims=True), X.var(reduced, keepdims=True)
    close(layer(X), (X - mean) / np.sqrt(var), atol=1e-4)
    assert layer.is_adapted
    # built by adapt, outside the layer's name scope: Keras 2's names
    assert [w.name for w in layer.weights] == ["mean:0", "variance:0", "count:0"]
    assert layer.trainable_weights == []
    assert int(layer.count.numpy()) == X.size // mean.size


def test_normalization_adapt_sees_an_unknown_batch_dim():
    # adapt builds from its batches' traced shape: keeping axis 0 has no known size there
    with pytest.raises(ValueError, match=r"input shape: \[None, 2\], with unknown axis at "
                                         r"index: 0"):
        Normalization(axis=0).adapt(np.ones((3, 2), np.float32))
    # a dataset batched with drop_remainder has a known batch size
    layer = Normalization(axis=0)
    layer.adapt(tf.data.Dataset.from_tensor_slices(np.ones((4, 2), np.float32))
                .batch(2, drop_remainder=True))
    assert layer.adapt_mean.shape == (2,)


def test_normalization_adapt_in_batches_merges_moments():
    whole, batched = Normalization(), Normalization()
    whole.adapt(X)
    batched.adapt(X, batch_size=3)
    close(batched.adapt_mean, whole.adapt_mean)
    close(batched.adapt_variance, whole.adapt_variance)
    close(batched.count, whole.count)
    batches = Normalization()
    batches.adapt(iter([X[:2], X[2:]]))
    close(batches.adapt_variance, whole.adapt_variance)
    steps = Normalization()
    steps.adapt(X, batch_size=2, steps=1)
    close(steps.adapt_mean, X[:2].reshape(-1, 3).mean(0))


def test_normalization_adapt_takes_numpy_floats_in_floatx_as_tf():
    # TF's adapt takes NumPy (and list) data as fit does, its floats in floatx: a float64
    # layer's statistics of float64 arrays are those of the float32 values; a tensor keeps
    # its dtype
    data = 1e8 + np.arange(10.0)[:, None] * 0.3
    for given in (data, data.tolist()):
        layer = Normalization(dtype="float64")
        layer.adapt(given)
        np.testing.assert_array_equal(layer.mean.numpy(), [[1e8]])
        np.testing.assert_array_equal(layer.variance.numpy(), [[0.0]])
    layer = Normalization(dtype="float64")
    layer.adapt(tf.constant(data))
    close(layer.mean.numpy(), [[1e8 + 1.35]], rtol=0, atol=1e-6)
    close(layer.variance.numpy(), [[0.7425]], rtol=0, atol=1e-6)


def test_normalization_adapt_again_resets_and_invert():
    layer = Normalization(invert=True)
    layer.adapt(X)
    layer.adapt(X * 2)
    close(layer.adapt_mean, (X * 2).reshape(-1, 3).mean(0))
    close(layer(np.zeros((1, 1, 3), np.float32)), [[(X * 2).reshape(-1, 3).mean(0)]])
    layer.reset_state()
    assert not layer.is_adapted
    close(layer.adapt_variance, np.ones(3))


def test_normalization_update_state_and_function():
    layer = Normalization()
    layer.build((None, 3))
    layer.update_state(X[0])
    layer.finalize_state()
    close(layer.adapt_mean, X[0].mean(0))
    close(tf.function(lambda x: layer(x))(X[0]), layer(X[0]))


def test_normalization_config():
    config = Normalization(mean=np.array([1.0, 2.0]), variance=[3.0, 4.0]).get_config()
    assert {k: config[k] for k in ("axis", "invert", "mean", "variance")} == \
        {"axis": (-1,), "invert": False, "mean": [1.0, 2.0], "variance": [3.0, 4.0]}
    assert Normalization.from_config(config).get_config() == config
    assert Normalization(axis=None).get_config()["axis"] == ()


@pytest.mark.parametrize("make, error, message", [
    (lambda: Normalization(mean=1.0), ValueError,
     "When setting values directly, both `mean` and `variance` must be set. Got mean: 1.0 and "
     "variance: None"),
    (lambda: Normalization(mean=tf.Variable(1.0), variance=1.0), ValueError,
     "Normalization does not support passing a Variable for the `mean` init arg."),
    (lambda: Normalization(axis=3).build((2, 3)), ValueError,
     "All `axis` values must be in the range [-ndim, ndim). Found ndim: `2`, axis: (3,)"),
    (lambda: Normalization().build((2, None)), ValueError,
     "All `axis` values to be kept must have known shape. Got axis: (-1,), input shape: "
     "[2, None], with unknown axis at index: 1"),
    (lambda: Normalization(mean=1.0, variance=1.0).update_state(X), ValueError,
     "Cannot `adapt` a Normalization layer that is initialized with static `mean` and "
     "`variance`, you passed mean 1.0 and variance 1.0."),
    (lambda: Normalization().update_state(X), RuntimeError,
     "`build` must be called before `update_state`."),
])
def test_normalization_errors(make, error, message):
    with pytest.raises(error) as info:
        make()
    assert str(info.value) == message


def test_adapt_inside_a_function_is_an_error():
    layer = Normalization()
    with pytest.raises(RuntimeError, match="Detected a call to `PreprocessingLayer.adapt`"):
        tf.function(lambda x: layer.adapt(x))(X)



def test_adapt_on_a_reshuffling_dataset_draws_its_orders_as_fit():
    # As Keras's data handler: one iterator made before the epoch, one for it (none more
    # when `steps` is not the cardinality), so later passes see TF's orders.
    def orders(ds, n):
        return [[b.numpy().tolist() for b in ds] for _ in range(n)]

    def make():
        return tf.data.Dataset.range(10).map(lambda v: tf.cast(v, tf.float32)) \
            .shuffle(10, seed=3).batch(5)
    twin = orders(make(), 4)
    assert twin[0] != twin[1] != twin[2]
    ds = make()
    Normalization(axis=None).adapt(ds)
    assert orders(ds, 1) == twin[2:3]
    ds = make()
    Normalization(axis=None).adapt(ds, steps=1)
    assert orders(ds, 1) == twin[1:2]
    with pytest.raises(ValueError, match="When providing an infinite dataset"):
        Normalization(axis=None).adapt(make().repeat())


class _Mean(tf.keras.layers.experimental.preprocessing.PreprocessingLayer):
    """A user's preprocessing layer: the mean of what it was adapted to, subtracted."""

    def build(self, input_shape):
        self.total = self.add_weight("total", shape=(), initializer="zeros", trainable=False)
        self.count = self.add_weight("count", shape=(), initializer="zeros", trainable=False)
        super().build(input_shape)

    def update_state(self, data):
        self.total.assign_add(tf.reduce_sum(tf.cast(data, tf.float32)))
        self.count.assign_add(tf.cast(tf.size(data), tf.float32))

    def reset_state(self):
        self.total.assign(0.0)
        self.count.assign(0.0)

    def finalize_state(self):
        self.mean = self.total / self.count

    def call(self, x):
        return x - self.mean


def test_preprocessing_layer_compile_and_steps_per_execution():
    # TF's adapt runs the function `make_adapt_function` makes, `steps_per_execution`
    # batches a call, once per batch group of a known number of batches
    layer = _Mean()
    layer.compile(run_eagerly=True)
    layer.adapt(np.arange(4.0))
    close(layer(np.array([1.0, 2.0])), [-0.5, 0.5])
    layer.compile(steps_per_execution=3)
    layer.adapt(np.arange(100.0), batch_size=10, steps=5)
    close(layer(np.array([0.0])), [-24.5])
    calls = []

    class Counted(_Mean):
        def make_adapt_function(self):
            step = super().make_adapt_function()

            def counted(iterator):
                calls.append(1)
                step(iterator)
            return counted
    Counted().adapt(np.arange(10.0), batch_size=4)
    assert len(calls) == 3  # (not a fourth to find the end)
    calls.clear()
    counted = Counted()
    counted.compile(steps_per_execution=2)
    counted.adapt(tf.data.Dataset.range(10).batch(4))
    assert len(calls) == 2
    close(counted(np.array([0.0])), [-4.5])


def test_reset_state_makes_a_layer_unadapted():
    layer = _Mean()
    layer.adapt(np.arange(4.0))
    assert layer.is_adapted
    layer.reset_state()
    assert not layer.is_adapted
    lookup = tf.keras.layers.StringLookup()
    lookup.adapt(["a", "b", "b"])
    lookup.reset_state()
    assert not lookup.is_adapted and lookup.get_vocabulary() == ["[UNK]", "b", "a"]

# -- Rescaling ---------------------------------------------------------------------------------

def test_rescaling():
    pixels = (IMAGES).astype(np.uint8)
    y = Rescaling(1 / 255.0, offset=-0.5)(pixels)
    assert y.dtype == tf.float32
    close(y, pixels / 255.0 - 0.5)
    close(Rescaling([1.0, 2.0, 3.0])(X), X * [1, 2, 3])
    config = Rescaling(0.5, 1.0).get_config()
    assert (config["scale"], config["offset"]) == (0.5, 1.0)
    assert Rescaling.from_config(config).get_config() == config
    assert Rescaling(2.0).compute_output_shape(tf.TensorShape([None, 3])) == [None, 3]


# -- Resizing and CenterCrop ------------------------------------------------------------------

def np_resize(images, height, width, method="bilinear"):
    """tf.image.resize with half-pixel centers: sample positions (i + 0.5) * in / out."""
    def axis(x, out, ax):
        size = x.shape[ax]
        centers = (np.arange(out, dtype=np.float32) + 0.5) * np.float32(size / out)
        if method == "nearest":
            return np.take(x, np.minimum(np.floor(centers).astype(int), size - 1), axis=ax)
        source = centers - 0.5
        low = np.maximum(np.floor(source), 0).astype(int)
        high = np.minimum(np.ceil(source), size - 1).astype(int)
        weight = (source - np.floor(source)).reshape([-1] + [1] * (-ax - 1))
        lo, hi = np.take(x, low, axis=ax), np.take(x, high, axis=ax)
        return lo + (hi - lo) * weight
    return axis(axis(images, width, -2), height, -3)


@pytest.mark.parametrize("height, width, method", [
    (4, 9, "bilinear"), (3, 2, "bilinear"), (7, 5, "bilinear"), (4, 9, "nearest"),
    (2, 3, "nearest")])
def test_resizing(height, width, method):
    layer = Resizing(height, width, interpolation=method)
    y = layer(IMAGES)
    assert y.shape == (2, height, width, 3)
    close(y, np_resize(IMAGES, height, width, method), rtol=1e-4, atol=1e-3)
    close(layer(IMAGES[0]), np_resize(IMAGES[0], height, width, method), rtol=1e-4, atol=1e-3)
    assert layer.compute_output_shape(tf.TensorShape([None, 7, 5, 3])) == \
        [None, height, width, 3]


@pytest.mark.parametrize("method", ["bilinear", "nearest"])
def test_resizing_traced_for_any_size_is_tf_image_resize(method):
    # (resampling composed of ops rounded otherwise once traced: the graph divides the input
    # size by the output size as a multiplication by its reciprocal, as TF's does)
    images = np.random.RandomState(0).randn(2, 5, 6, 3).astype(np.float32)
    layer = Resizing(5, 7, interpolation=method)
    traced = tf.function(layer, input_signature=[tf.TensorSpec([None, None, None, 3])])
    expected = tf.image.resize(images, [5, 7], method=method).numpy()
    np.testing.assert_array_equal(traced(images).numpy(), expected)
    np.testing.assert_array_equal(layer(images).numpy(), expected)


def test_resizing_crop_to_aspect_ratio():
    y = Resizing(4, 4, crop_to_aspect_ratio=True)(IMAGES)
    close(y, np_resize(IMAGES[:, 1:6], 4, 4), rtol=1e-4, atol=1e-3)  # the central 5x5


def test_resizing_config_and_errors():
    config = Resizing(2, 3).get_config()
    assert {k: config[k] for k in ("height", "width", "interpolation",
                                   "crop_to_aspect_ratio")} == \
        {"height": 2, "width": 3, "interpolation": "bilinear", "crop_to_aspect_ratio": False}
    assert Resizing.from_config(config).get_config() == config
    with pytest.raises(NotImplementedError, match="Value not recognized for `interpolation`"):
        Resizing(2, 2, interpolation="cubic")


def test_resizing_other_interpolations_match_tf():
    # values recorded from TensorFlow 2.21 / tf_keras
    x = np.arange(40, dtype=np.float32).reshape(2, 5, 4, 1) ** 1.5
    expected = {
        "bicubic": [[98.991, 114.455], [151.451, 169.182], [211.168, 230.897]],
        "area": [[104.218, 118.622], [152.616, 168.894], [206.437, 224.404]],
        "lanczos3": [[97.763, 113.754], [151.13, 169.514], [211.907, 232.401]],
        "mitchellcubic": [[100.703, 115.692], [151.883, 168.992], [209.784, 228.773]]}
    for method, want in expected.items():
        close(Resizing(3, 2, interpolation=method)(x)[1, :, :, 0], want, atol=2e-3)
    cropped = Resizing(2, 2, interpolation="bicubic", crop_to_aspect_ratio=True)(x)
    close(cropped[0, :, :, 0], [[3.674, 9.152], [35.535, 46.757]], atol=2e-3)
    assert Resizing(2, 2, interpolation="area")(x.astype(np.uint8)).dtype == tf.float32


def test_resizing_gradient_and_unknown_sizes_in_a_function():
    layer = Resizing(4, 3)
    x = tf.constant(IMAGES)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.reduce_sum(layer(x))
    assert np.isclose(float(tf.reduce_sum(tape.gradient(y, x))), 2 * 4 * 3 * 3, rtol=1e-5)
    resize = tf.function(lambda x: layer(x),
                         input_signature=[tf.TensorSpec([None, None, None, 3], tf.float32)])
    close(resize(IMAGES), layer(IMAGES))
    close(resize(IMAGES[:, :3, :2]), np_resize(IMAGES[:, :3, :2], 4, 3), rtol=1e-4, atol=1e-3)


def test_center_crop():
    layer = CenterCrop(4, 3)
    close(layer(IMAGES), IMAGES[:, 1:5, 1:4])
    close(CenterCrop(7, 5)(IMAGES), IMAGES)
    assert layer.compute_output_shape(tf.TensorShape([None, 7, 5, 3])) == [None, 4, 3, 3]
    assert CenterCrop(2, 3).get_config()["height"] == 2


def test_center_crop_static_shape_of_symbolic_images():
    # a Flatten and a Dense after the crop need the cropped size before any image comes
    images = tf.keras.Input(shape=(None, None, 3))
    assert CenterCrop(2, 4)(images).shape.as_list() == [None, 2, 4, 3]


@pytest.mark.parametrize("make, message", [
    (lambda: CenterCrop(0, 2), "target_height must be > 0."),
    (lambda: CenterCrop(2, -1), "target_width must be > 0."),
    (lambda: tf.keras.layers.RandomCrop(0, 2, seed=1), "target_height must be > 0."),
])
def test_a_crop_to_no_pixels_is_tfs_value_error(make, message):
    # (as tf.image.crop_to_bounding_box refuses it; the crop gave an empty image)
    with pytest.raises(ValueError, match=f"Exception encountered when calling layer .*"
                                         f"\n\n{message}\n"):
        make()(IMAGES, training=True)


def test_center_crop_upsizes_small_images():
    y = CenterCrop(9, 4)(IMAGES)  # taller than the input: the central 7x3 (9:4), resized up
    close(y, np_resize(IMAGES[:, :, 1:4], 9, 4), rtol=1e-4, atol=1e-3)
    crop = tf.function(lambda x: CenterCrop(3, 3)(x),
                       input_signature=[tf.TensorSpec([None, None, None, 3], tf.float32)])
    close(crop(IMAGES), IMAGES[:, 2:5, 1:4])
    close(crop(IMAGES[:, :2, :2]), np_resize(IMAGES[:, :2, :2], 3, 3), rtol=1e-4, atol=1e-3)


def test_normalization_statistics_of_the_wrong_size_fail_in_tf_reshape():
    # tf_keras reshapes the given statistics with tf.reshape: its InvalidArgumentError
    layer = Normalization(axis=(1,), mean=np.ones((3, 1)), variance=np.ones((3, 1)))
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match="Input to reshape is a tensor with 9 values, but the requested "
                             "shape has 3"):
        layer(np.ones((6, 3, 4), np.float32))
