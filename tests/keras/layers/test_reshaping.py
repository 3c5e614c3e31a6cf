"""Reshaping layers against NumPy: Reshape, Permute, RepeatVector, zero padding, cropping
and upsampling over layouts; shapes, configs, gradients, tracing and errors as tf_keras 2.21
has them."""
import numpy as np
import pytest

import eagerflow as tf
from eagerflow.keras import backend
from tests.internals import reshaping

RNG = np.random.default_rng(0)
FORMATS = ["channels_last", "channels_first"]


def _layout(x, data_format):
    return x if data_format == "channels_last" else np.moveaxis(x, -1, 1)


def _check(layer, x, expected):
    y = layer(x)
    assert y.shape == layer.compute_output_shape(x.shape)
    np.testing.assert_allclose(y.numpy(), expected, rtol=1e-6, atol=1e-6)


# -- Reshape, Permute, RepeatVector ----------------------------------------------------------

def test_reshape():
    x = RNG.standard_normal((3, 4, 6)).astype(np.float32)
    _check(tf.keras.layers.Reshape((-1, 3)), x, x.reshape(3, 8, 3))
    _check(tf.keras.layers.Reshape((2, 2, 6)), x, x.reshape(3, 2, 2, 6))
    _check(tf.keras.layers.Reshape([24]), x, x.reshape(3, 24))
    assert tf.keras.layers.Reshape((2, -1)).compute_output_shape((None, 3, 4)).as_list() == \
        [None, 2, 6]
    assert tf.keras.layers.Reshape((-1, 2)).compute_output_shape((None, None, 4)).as_list() == \
        [None, None, 2]


def test_reshape_errors():
    with pytest.raises(ValueError, match=r"^total size of new array must be unchanged, "
                                         r"input_shape = \[3, 4\], output_shape = \[5, 2\]$"):
        tf.keras.layers.Reshape((5, 2)).compute_output_shape((None, 3, 4))
    with pytest.raises(ValueError, match=r"^There must be at most one unknown dimension in "
                                         r"output_shape\. Received: output_shape=\[-1, -1\]\.$"):
        tf.keras.layers.Reshape((-1, -1)).compute_output_shape((None, 3, 4))
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match="Input to reshape is a tensor with 24 values, but the requested "
                             "shape has 20"):
        tf.keras.layers.Reshape((5, 2))(np.zeros((2, 3, 4), np.float32))


def test_reshape_in_function_keeps_static_shape():
    layer = tf.keras.layers.Reshape((-1, 2))
    shapes = []

    def fn(v):
        y = layer(v)
        shapes.append(y.shape.as_list())
        return y
    traced = tf.function(fn, input_signature=[tf.TensorSpec([None, 4, 3])])
    x = RNG.standard_normal((2, 4, 3)).astype(np.float32)
    np.testing.assert_array_equal(traced(x).numpy(), x.reshape(2, 6, 2))
    assert shapes == [[None, 6, 2]]


def test_permute():
    x = RNG.standard_normal((2, 3, 4, 5)).astype(np.float32)
    _check(tf.keras.layers.Permute((3, 1, 2)), x, x.transpose(0, 3, 1, 2))
    _check(tf.keras.layers.Permute((2, 1, 3)), x, x.transpose(0, 2, 1, 3))
    assert tf.keras.layers.Permute((2, 1)).compute_output_shape((None, 3, 7)).as_list() == \
        [None, 7, 3]
    with pytest.raises(ValueError, match=r"^Invalid permutation argument `dims` for Permute "
                                         r"Layer\. The set of indices in `dims` must be "
                                         r"consecutive and start from 1\. Received "
                                         r"dims=\(1, 3\)$"):
        tf.keras.layers.Permute((1, 3))
    with pytest.raises(ValueError, match='layer "permute_x".*expected ndim=3, found ndim=4'):
        tf.keras.layers.Permute((2, 1), name="permute_x")(x)


def test_repeat_vector():
    x = RNG.standard_normal((2, 5)).astype(np.float32)
    _check(tf.keras.layers.RepeatVector(3), x, np.repeat(x[:, None], 3, axis=1))
    with pytest.raises(TypeError, match=r"^Expected an integer value for `n`, got "
                                        r"<class 'float'>\.$"):
        tf.keras.layers.RepeatVector(2.0)
    with pytest.raises(ValueError, match="expected ndim=2, found ndim=3"):
        tf.keras.layers.RepeatVector(2)(np.zeros((2, 3, 4), np.float32))


# -- padding and cropping ----------------------------------------------------------------

def _with_formats(cases):
    """Each case with both layouts, but 1-D ones (always channels last) once."""
    return [(data_format, *case) for case in cases for data_format in FORMATS
            if case[0] > 1 or data_format == "channels_last"]


def _format_kwargs(rank, data_format):
    return {} if rank == 1 else {"data_format": data_format}


PAD_CASES = [(1, "ZeroPadding1D", 2, [(2, 2)]),
             (1, "ZeroPadding1D", (0, 3), [(0, 3)]),
             (2, "ZeroPadding2D", 1, [(1, 1), (1, 1)]),
             (2, "ZeroPadding2D", (1, 2), [(1, 1), (2, 2)]),
             (2, "ZeroPadding2D", ((1, 0), (2, 3)), [(1, 0), (2, 3)]),
             (3, "ZeroPadding3D", ((1, 0), 2, (0, 3)), [(1, 0), (2, 2), (0, 3)])]


@pytest.mark.parametrize("data_format,rank,name,padding,pairs", _with_formats(PAD_CASES))
def test_zero_padding(data_format, rank, name, padding, pairs):
    kwargs = _format_kwargs(rank, data_format)
    layer = getattr(reshaping, name)(padding, **kwargs)
    x = RNG.standard_normal((2, *(5, 4, 3)[:rank], 3)).astype(np.float32)
    expected = np.pad(x, [(0, 0)] + pairs + [(0, 0)])
    _check(layer, _layout(x, data_format), _layout(expected, data_format))


CROP_CASES = [(1, "Cropping1D", (2, 1), [(2, 1)]),
              (1, "Cropping1D", (2, 0), [(2, 0)]),
              (2, "Cropping2D", 1, [(1, 1), (1, 1)]),
              (2, "Cropping2D", ((1, 0), (0, 2)), [(1, 0), (0, 2)]),
              (2, "Cropping2D", ((0, 2), (1, 0)), [(0, 2), (1, 0)]),
              (3, "Cropping3D", ((1, 0), 1, (0, 2)), [(1, 0), (1, 1), (0, 2)])]


@pytest.mark.parametrize("data_format,rank,name,cropping,pairs", _with_formats(CROP_CASES))
def test_cropping(data_format, rank, name, cropping, pairs):
    kwargs = _format_kwargs(rank, data_format)
    layer = getattr(reshaping, name)(cropping, **kwargs)
    x = RNG.standard_normal((2, *(6, 5, 4)[:rank], 3)).astype(np.float32)
    expected = x[(slice(None),) + tuple(slice(a, n - b) for (a, b), n in zip(pairs, x.shape[1:]))]
    _check(layer, _layout(x, data_format), _layout(expected, data_format))


def test_padding_and_cropping_shapes():
    # tf_keras 2.21 output shapes
    assert tf.keras.layers.ZeroPadding2D(((1, 0), (2, 2))).compute_output_shape(
        (None, None, 3, 1)).as_list() == [None, None, 7, 1]
    assert tf.keras.layers.ZeroPadding3D(1, data_format="channels_first").compute_output_shape(
        (None, 2, 3, 4, 5)).as_list() == [None, 2, 5, 6, 7]
    assert tf.keras.layers.Cropping2D(((1, 1), (0, 2))).compute_output_shape(
        (None, 5, None, 1)).as_list() == [None, 3, None, 1]
    assert tf.keras.layers.Cropping1D((1, 2)).compute_output_shape((4, 6, 2)).as_list() == [4, 3, 2]


def test_padding_and_cropping_errors():
    with pytest.raises(ValueError, match=r"^`padding` should have two elements\. "
                                         r"Received: \(1, 2, 3\)\.$"):
        tf.keras.layers.ZeroPadding2D((1, 2, 3))
    with pytest.raises(ValueError, match=r"^`padding` should have two elements\. "
                                         r"Received: a\.$"):
        tf.keras.layers.ZeroPadding2D("a")
    with pytest.raises(ValueError, match=r"^The `2nd entry of padding` argument must be a tuple "
                                         r"of 2 integers\. Received: \(3,\)$"):
        tf.keras.layers.ZeroPadding2D(((1, 2), (3,)))
    with pytest.raises(ValueError, match=r"^`padding` should have 3 elements\. "
                                         r"Received: \(1, 2\)\.$"):
        tf.keras.layers.ZeroPadding3D((1, 2))
    with pytest.raises(ValueError, match=r"^`cropping` should be either an int"):
        tf.keras.layers.Cropping2D(1.5)
    # errors raised in `call` come wrapped in the layer's "Exception encountered" text
    with pytest.raises(ValueError, match=r"\n\ncropping parameter of Cropping layer must be "
                                         r"greater than the input shape\. Received: inputs\."
                                         r"shape=\(1, 5, 2\), and cropping=\(3, 3\)\n\n"):
        tf.keras.layers.Cropping1D((3, 3))(np.zeros((1, 5, 2), np.float32))
    with pytest.raises(ValueError, match=r"\n\nArgument `cropping` must be greater than the "
                                         r"input shape\. Received: inputs\.shape=\(1, 5, 4, 1\)"):
        tf.keras.layers.Cropping2D((3, 0))(np.zeros((1, 5, 4, 1), np.float32))
    assert tf.keras.layers.Cropping3D((3, 0, 0))(np.zeros((1, 5, 4, 4, 1), np.float32)).shape == (
        1, 0, 4, 4, 1)
    with pytest.raises(ValueError, match="expected ndim=4, found ndim=3"):
        tf.keras.layers.ZeroPadding2D()(np.zeros((1, 5, 2), np.float32))


# -- upsampling ----------------------------------------------------------------------------

@pytest.mark.parametrize("data_format,rank,name,size", _with_formats(
    [(1, "UpSampling1D", 3), (2, "UpSampling2D", (2, 3)), (3, "UpSampling3D", (2, 1, 3))]))
def test_nearest_upsampling(data_format, rank, name, size):
    kwargs = _format_kwargs(rank, data_format)
    layer = getattr(reshaping, name)(size, **kwargs)
    x = RNG.standard_normal((2, *(4, 3, 2)[:rank], 3)).astype(np.float32)
    expected = x
    for axis, n in enumerate(np.broadcast_to(size, (rank,))):
        expected = np.repeat(expected, n, axis=axis + 1)
    _check(layer, _layout(x, data_format), _layout(expected, data_format))


def np_bilinear(x, sizes):
    """TensorFlow's half-pixel-center bilinear resize of x (N, H, W, C) by integer `sizes`."""
    for axis, n in ((2, sizes[1]), (1, sizes[0])):
        length = x.shape[axis]
        source = (np.arange(length * n) + 0.5) / n - 0.5
        lower = np.clip(np.floor(source), 0, length - 1).astype(int)
        upper = np.clip(np.ceil(source), 0, length - 1).astype(int)
        weight = (source - np.floor(source)).reshape((-1,) + (1,) * (3 - axis))
        before, after = np.take(x, lower, axis=axis), np.take(x, upper, axis=axis)
        x = before + (after - before) * weight
    return x


@pytest.mark.parametrize("data_format", FORMATS)
@pytest.mark.parametrize("size", [2, (3, 2), (1, 4)])
def test_bilinear_upsampling(data_format, size):
    layer = tf.keras.layers.UpSampling2D(size, data_format=data_format, interpolation="bilinear")
    x = RNG.standard_normal((2, 3, 4, 2)).astype(np.float32)
    expected = np_bilinear(x.astype(np.float64), np.broadcast_to(size, (2,)))
    y = layer(_layout(x, data_format))
    assert y.shape == layer.compute_output_shape(_layout(x, data_format).shape)
    np.testing.assert_allclose(y.numpy(), _layout(expected, data_format), rtol=1e-5, atol=1e-6)


def test_bilinear_literal_and_unknown_dimensions():
    # tf_keras 2.21 output
    expected = [[1.0, 1.25, 1.75, 2.0], [1.5, 1.8125, 2.4375, 2.75],
                [2.5, 2.9375, 3.8125, 4.25], [3.0, 3.5, 4.5, 5.0]]
    layer = tf.keras.layers.UpSampling2D(2, interpolation="bilinear")
    x = np.array([[1, 2], [3, 5]], np.float32).reshape(1, 2, 2, 1)
    np.testing.assert_array_equal(layer(x).numpy()[0, :, :, 0], expected)
    traced = tf.function(lambda v: layer(v), input_signature=[tf.TensorSpec([None] * 4)])
    np.testing.assert_array_equal(traced(x).numpy()[0, :, :, 0], expected)


# tf_keras 2.21: both sizes come from one product of tf.shape, so once either input size
# is unknown, neither output size is known statically (nearest included).
@pytest.mark.parametrize("interpolation", ["nearest", "bilinear"])
@pytest.mark.parametrize("data_format, shape, expected", [
    ("channels_last", (None, 6, 3), (None, None, None, 3)),
    ("channels_last", (4, None, 3), (None, None, None, 3)),
    ("channels_last", (4, 6, 3), (None, 8, 12, 3)),
    ("channels_first", (4, None, 3), (None, 4, None, None)),
    ("channels_first", (4, 6, None), (None, 4, None, None)),
])
def test_upsampling2d_unknown_size_forgets_both(interpolation, data_format, shape, expected):
    layer = tf.keras.layers.UpSampling2D(2, data_format, interpolation=interpolation)
    assert tuple(layer(tf.keras.Input(shape)).shape) == expected
    x = np.arange(24, dtype=np.int32).reshape(1, 2, 3, 4)
    traced = tf.function(lambda v: layer(v), input_signature=[tf.TensorSpec([1, None, 3, 4], tf.int32)])
    out = traced(x)
    np.testing.assert_array_equal(out.numpy(), layer(x).numpy())
    if interpolation == "nearest":
        assert out.dtype == tf.int32


@pytest.mark.parametrize("dtype", ["int32", "uint8", "float16", "float64"])
def test_bilinear_upsampling_returns_float32_like_image_resize(dtype):
    # tf_keras resizes with tf.image.resize, whose interpolating methods return float32:
    # integer images are not truncated, float16 and float64 ones not kept in their dtype
    expected = [[1.0, 1.25, 1.75, 2.0], [1.5, 1.8125, 2.4375, 2.75],
                [2.5, 2.9375, 3.8125, 4.25], [3.0, 3.5, 4.5, 5.0]]
    x = np.array([[1, 2], [3, 5]], dtype).reshape(1, 2, 2, 1)
    y = tf.keras.layers.UpSampling2D(2, interpolation="bilinear")(x)
    assert y.dtype == tf.float32
    np.testing.assert_array_equal(y.numpy()[0, :, :, 0], expected)
    if dtype.startswith("int") or dtype.startswith("uint"):  # (floats are autocast)
        assert tf.keras.layers.UpSampling2D(2)(x).dtype == tf.as_dtype(dtype)  # nearest keeps it


# tf_keras 2.21 outputs of UpSampling2D((1, 2), interpolation=method) on [[1, 2], [3, 5]]
RESIZED = {
    "bicubic": [[0.9117648, 1.2071428, 1.7928572, 2.0882354],
                [2.8235297, 3.4142857, 4.5857143, 5.1764708]],
    "area": [[1.0, 1.0, 2.0, 2.0], [3.0, 3.0, 5.0, 5.0]],
    "gaussian": [[1.2914848, 1.5394056, 2.0566084, 2.3045295],
                 [2.8507926, 3.2674179, 4.1365662, 4.5531921]],
    "lanczos3": [[0.8245221, 1.2328706, 1.7671292, 2.1754775],
                 [2.6490445, 3.4657412, 4.5342588, 5.3509555]],
    "lanczos5": [[0.7792881, 1.2438316, 1.7561681, 2.2207117],
                 [2.5585761, 3.4876633, 4.5123367, 5.4414239]],
    "mitchellcubic": [[1.0849377, 1.3788121, 1.9153064, 2.2091808],
                      [2.8223848, 3.3611543, 4.344727, 4.8834963]],
}


@pytest.mark.parametrize("method", sorted(RESIZED))
def test_upsampling2d_takes_every_image_resize_method(method):
    layer = tf.keras.layers.UpSampling2D((1, 2), interpolation=method.upper())
    assert layer.interpolation == method and layer.get_config()["interpolation"] == method
    x = np.array([[1, 2], [3, 5]], np.int32).reshape(1, 2, 2, 1)
    y = layer(x)
    assert y.dtype == tf.float32
    np.testing.assert_allclose(y.numpy()[0, :, :, 0], RESIZED[method], rtol=1e-5)
    traced = tf.function(lambda v: layer(v), input_signature=[tf.TensorSpec([None] * 4)])
    np.testing.assert_allclose(traced(x.astype(np.float32)).numpy()[0, :, :, 0],
                               RESIZED[method], rtol=1e-5)
    first = tf.keras.layers.UpSampling2D((1, 2), "channels_first", interpolation=method)
    np.testing.assert_allclose(first(x.reshape(1, 1, 2, 2)).numpy()[0, 0], RESIZED[method],
                               rtol=1e-5)


def test_upsampling_errors():
    message = ("Value not recognized for `interpolation`: foo. Supported values are: "
               "dict_keys(['bilinear', 'nearest', 'bicubic', 'area', 'lanczos3', 'lanczos5', "
               "'gaussian', 'mitchellcubic'])")
    with pytest.raises(NotImplementedError) as info:
        tf.keras.layers.UpSampling2D(interpolation="Foo")
    assert str(info.value) == message
    with pytest.raises(NotImplementedError) as info:
        tf.keras.layers.Resizing(2, 2, interpolation="FOO")
    assert str(info.value) == message
    with pytest.raises(ValueError) as info:
        backend.resize_images(np.ones((1, 2, 2, 1), np.float32), 2, 2, "channels_last", "BICUBIC")
    assert str(info.value) == (
        '`interpolation` argument should be one of: "area", "bicubic", "bilinear", "gaussian", '
        '"lanczos3", "lanczos5", "mitchellcubic", "nearest". Received: "BICUBIC".')
    with pytest.raises(ValueError, match=r"The `size` argument must be a tuple of 2 integers\. "
                                         r"Received: \(2, 2, 2\)"):
        tf.keras.layers.UpSampling2D((2, 2, 2))


# -- configs, gradients, tracing --------------------------------------------------------------

def test_configs_literal():
    # tf_keras 2.21 configs, key order included
    base = [("name", "l"), ("trainable", True), ("dtype", "float32")]
    assert list(tf.keras.layers.ZeroPadding1D(name="l").get_config().items()) == \
        base + [("padding", (1, 1))]
    assert list(tf.keras.layers.ZeroPadding2D((1, 2), name="l").get_config().items()) == \
        base + [("padding", ((1, 1), (2, 2))), ("data_format", "channels_last")]
    assert list(tf.keras.layers.Cropping2D(1, name="l").get_config().items()) == \
        base + [("cropping", ((1, 1), (1, 1))), ("data_format", "channels_last")]
    assert list(tf.keras.layers.UpSampling1D(2.5, name="l").get_config().items()) == \
        base + [("size", 2)]
    assert list(tf.keras.layers.UpSampling2D(name="l", interpolation="Bilinear")
                .get_config().items()) == base + [("size", (2, 2)),
                                                  ("data_format", "channels_last"),
                                                  ("interpolation", "bilinear")]
    assert list(tf.keras.layers.UpSampling3D(name="l").get_config().items()) == \
        base + [("size", (2, 2, 2)), ("data_format", "channels_last")]
    assert tf.keras.layers.Reshape((-1, 2), name="l").get_config() == dict(base,
                                                                     target_shape=(-1, 2))
    assert tf.keras.layers.Permute([2, 1], name="l").get_config() == dict(base, dims=(2, 1))
    assert tf.keras.layers.RepeatVector(3, name="l").get_config() == dict(base, n=3)


ALL = [(tf.keras.layers.Reshape((-1,)), (2, 3, 4)), (tf.keras.layers.Permute((2, 1)), (2, 3, 4)),
       (tf.keras.layers.RepeatVector(2), (2, 3)),
       (tf.keras.layers.ZeroPadding1D((1, 2)), (2, 3, 4)),
       (tf.keras.layers.ZeroPadding2D(((1, 0), 2), "channels_first"), (2, 3, 4, 5)),
       (tf.keras.layers.ZeroPadding3D(1), (1, 2, 3, 2, 2)),
       (tf.keras.layers.Cropping1D(1), (2, 4, 3)),
       (tf.keras.layers.Cropping2D(((1, 0), (0, 1))), (2, 3, 4, 5)),
       (tf.keras.layers.Cropping3D(((1, 0), 0, (0, 1)), "channels_first"), (1, 2, 3, 3, 3)),
       (tf.keras.layers.UpSampling1D(), (2, 3, 4)),
       (tf.keras.layers.UpSampling2D((2, 1), interpolation="bilinear"), (2, 3, 4, 2)),
       (tf.keras.layers.UpSampling3D((1, 2, 1), "channels_first"), (1, 2, 2, 3, 2))]


@pytest.mark.parametrize("layer,shape", ALL)
def test_config_round_trip(layer, shape):
    config = layer.get_config()
    clone = type(layer).from_config(config)
    assert clone.get_config() == config
    x = RNG.standard_normal(shape).astype(np.float32)
    np.testing.assert_array_equal(clone(x).numpy(), layer(x).numpy())


@pytest.mark.parametrize("layer,shape", ALL)
def test_gradients_and_function(layer, shape):
    x = tf.constant(RNG.standard_normal(shape).astype(np.float32))
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = layer(x)
        loss = tf.reduce_sum(y * y)
    grad = tape.gradient(loss, x)
    assert grad is not None and grad.shape == x.shape
    spec = tf.TensorSpec([None] * len(shape))
    traced = tf.function(lambda v: layer(v), input_signature=[spec])
    np.testing.assert_allclose(traced(x).numpy(), y.numpy(), rtol=1e-6)


def test_one_dimensional_layers_ignore_image_data_format():
    backend.set_image_data_format("channels_first")
    try:
        x = RNG.standard_normal((2, 4, 3)).astype(np.float32)
        np.testing.assert_array_equal(tf.keras.layers.UpSampling1D()(x).numpy(),
                                      np.repeat(x, 2, axis=1))
        assert "data_format" not in tf.keras.layers.ZeroPadding1D().get_config()
        assert tf.keras.layers.ZeroPadding2D().data_format == "channels_first"
    finally:
        backend.set_image_data_format("channels_last")


def test_upsampling3d_checks_no_rank_as_in_tf_keras():
    # tf_keras's UpSampling3D has no input spec: a 4-D input has its three axes after the
    # batch repeated, symbolically too
    layer = tf.keras.layers.UpSampling3D((1, 2, 3))
    assert layer.input_spec is None
    x = np.arange(8, dtype=np.float32).reshape(1, 2, 2, 2)
    expected = x.repeat(2, axis=2).repeat(3, axis=3)
    np.testing.assert_array_equal(layer(x).numpy(), expected)
    assert tuple(tf.keras.layers.UpSampling3D(2)(tf.keras.Input((2, 2, 2))).shape) == \
        (None, 4, 4, 4)
