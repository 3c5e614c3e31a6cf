"""Convolution layers against a NumPy reference: values for fixed weights over paddings,
strides, dilations, groups and layouts; shapes, configs, weights, gradients, tracing and
errors as tf_keras 2.21 has them."""
import itertools
import re

import numpy as np
import pytest

import eagerflow as tf
from eagerflow.keras import layers as conv

RNG = np.random.default_rng(0)


# -- NumPy references (channels last) --------------------------------------------------------

def _same_pads(sizes, kernel, strides):
    """TF's SAME padding: output ceil(n / s), the odd pad after."""
    pads = []
    for n, k, s in zip(sizes, kernel, strides):
        total = max((-(-n // s) - 1) * s + k - n, 0)
        pads.append((total // 2, total - total // 2))
    return pads


def np_conv(x, w, strides, padding, dilation, groups=1):
    """x (N, *S, C), w (*K, C // groups, F) -> (N, *S', F)."""
    rank = w.ndim - 2
    kernel = [(k - 1) * d + 1 for k, d in zip(w.shape[:rank], dilation)]
    if padding == "same":
        x = np.pad(x, [(0, 0)] + _same_pads(x.shape[1:-1], kernel, strides) + [(0, 0)])
    outs = [(n - k) // s + 1 for n, k, s in zip(x.shape[1:-1], kernel, strides)]
    cin, filters = w.shape[-2], w.shape[-1]
    fout = filters // groups
    y = np.zeros((x.shape[0], *outs, filters))
    for index in np.ndindex(*w.shape[:rank]):
        window = tuple(slice(i * d, i * d + (o - 1) * s + 1, s)
                       for i, d, o, s in zip(index, dilation, outs, strides))
        patch = x[(slice(None),) + window]
        for g in range(groups):
            y[..., g * fout:(g + 1) * fout] += (patch[..., g * cin:(g + 1) * cin]
                                                @ w[index][:, g * fout:(g + 1) * fout])
    return y


def np_conv_transpose(x, w, strides, padding, dilation, out_sizes):
    """x (N, *S, C), w (*K, F, C) -> (N, *out_sizes, F): scatter, then crop as TF does."""
    rank = w.ndim - 2
    kernel = [(k - 1) * d + 1 for k, d in zip(w.shape[:rank], dilation)]
    full = [(n - 1) * s + k for n, s, k in zip(x.shape[1:-1], strides, kernel)]
    y = np.zeros((x.shape[0], *[f + o for f, o in zip(full, out_sizes)], w.shape[-2]))
    for index in np.ndindex(*w.shape[:rank]):
        window = tuple(slice(i * d, i * d + (n - 1) * s + 1, s)
                       for i, d, n, s in zip(index, dilation, x.shape[1:-1], strides))
        y[(slice(None),) + window] += x @ w[index].T
    starts = [0] * rank if padding == "valid" else \
        [p[0] for p in _same_pads(out_sizes, kernel, strides)]
    return y[(slice(None),) + tuple(slice(b, b + o) for b, o in zip(starts, out_sizes))]


def np_depthwise(x, w, strides, padding, dilation):
    """w (*K, C, multiplier): a grouped convolution with one input channel per group."""
    grouped = w.reshape(*w.shape[:-2], 1, -1)
    return np_conv(x, grouped, strides, padding, dilation, groups=x.shape[-1])


def to_last(x):
    return np.moveaxis(x, 1, -1)


def to_first(x):
    return np.moveaxis(x, -1, 1)


def _set_random_weights(layer, input_shape):
    layer.build(input_shape)
    weights = [RNG.standard_normal(w.shape).astype(np.float32) for w in layer.get_weights()]
    layer.set_weights(weights)
    return weights


def _check(layer, x, reference, atol=1e-4):
    """Runs `layer` on `x`: value against `reference` and shape against compute_output_shape."""
    y = layer(x)
    assert y.shape == layer.compute_output_shape(x.shape)
    np.testing.assert_allclose(y.numpy(), reference, rtol=1e-4, atol=atol)


# -- forward values ------------------------------------------------------------------------

FORMATS = ["channels_last", "channels_first"]
GEOMETRIES = [(1, 1), (2, 1), (1, 2), (3, 1)]  # (strides, dilation_rate)


def _input(shape, data_format):
    x = RNG.standard_normal(shape).astype(np.float32)
    return x if data_format == "channels_last" else to_first(x)


def _reference(fn, x, data_format, *args, **kwargs):
    if data_format == "channels_first":
        return to_first(fn(to_last(x), *args, **kwargs))
    return fn(x, *args, **kwargs)


@pytest.mark.parametrize("rank", [1, 2, 3])
@pytest.mark.parametrize("data_format", FORMATS)
@pytest.mark.parametrize("padding", ["valid", "same"])
@pytest.mark.parametrize("strides,dilation", GEOMETRIES)
def test_conv_values(rank, data_format, padding, strides, dilation):
    cls = {1: conv.Conv1D, 2: conv.Conv2D, 3: conv.Conv3D}[rank]
    sizes = {1: (11,), 2: (9, 8), 3: (6, 5, 7)}[rank]
    kernel = {1: (3,), 2: (3, 2), 3: (2, 3, 2)}[rank]
    x = _input((2, *sizes, 3), data_format)
    layer = cls(4, kernel, strides=strides, padding=padding, data_format=data_format,
                dilation_rate=dilation)
    w, b = _set_random_weights(layer, x.shape)
    ref = _reference(np_conv, x, data_format, w, (strides,) * rank, padding,
                     (dilation,) * rank)
    _check(layer, x, ref + (b if data_format == "channels_last" else
                            b.reshape((-1,) + (1,) * rank)))


@pytest.mark.parametrize("data_format", FORMATS)
@pytest.mark.parametrize("rank", [2, 3])
def test_grouped_conv_values(data_format, rank):
    cls = conv.Conv2D if rank == 2 else conv.Conv3D
    x = _input((2, *(5,) * rank, 6), data_format)
    layer = cls(4, 2, groups=2, data_format=data_format, use_bias=False)
    (w,) = _set_random_weights(layer, x.shape)
    assert w.shape == (2,) * rank + (3, 4)
    _check(layer, x, _reference(np_conv, x, data_format, w, (1,) * rank, "valid", (1,) * rank,
                                groups=2))


@pytest.mark.parametrize("data_format", FORMATS)
@pytest.mark.parametrize("cls", [conv.Conv1D, conv.SeparableConv1D])
def test_causal_padding_values(data_format, cls):
    x = _input((2, 9, 3), data_format)
    layer = cls(4, 3, padding="causal", dilation_rate=2, data_format=data_format)
    _set_random_weights(layer, x.shape)
    reference = cls(4, 3, padding="valid", dilation_rate=2, data_format=data_format)
    reference.build(x.shape)
    reference.set_weights(layer.get_weights())
    pad = [(0, 0), (4, 0), (0, 0)] if data_format == "channels_last" else \
        [(0, 0), (0, 0), (4, 0)]
    _check(layer, x, reference(np.pad(x, pad)).numpy())


def test_causal_values_literal():
    # tf_keras 2.21: Conv1D(1, 2, padding="causal", dilation_rate=2), kernel [1, 10]
    layer = conv.Conv1D(1, 2, padding="causal", dilation_rate=2)
    layer.build((1, 5, 1))
    layer.set_weights([np.array([1, 10], np.float32).reshape(2, 1, 1), np.zeros(1, np.float32)])
    y = layer(np.arange(1, 6, dtype=np.float32).reshape(1, 5, 1))
    np.testing.assert_array_equal(y.numpy().ravel(), [10, 20, 31, 42, 53])


def test_conv2d_values_literal():
    # tf_keras 2.21 output for these weights
    layer = conv.Conv2D(2, 3, strides=2, padding="same")
    layer.build((1, 4, 4, 1))
    layer.set_weights([np.arange(18, dtype=np.float32).reshape(3, 3, 1, 2) - 8,
                       np.array([1, -1], np.float32)])
    y = layer(np.arange(16, dtype=np.float32).reshape(1, 4, 4, 1))
    np.testing.assert_array_equal(y.numpy(), [[[[157, 200], [61, 98]],
                                               [[-153, -89], [-173, -125]]]])


@pytest.mark.parametrize("rank", [1, 2, 3])
@pytest.mark.parametrize("data_format", FORMATS)
@pytest.mark.parametrize("padding", ["valid", "same"])
@pytest.mark.parametrize("strides,dilation,output_padding",
                         [(1, 1, None), (2, 1, None), (2, 1, 1), (3, 1, 2), (1, 2, None),
                          (2, 1, 0)])
def test_conv_transpose_values(rank, data_format, padding, strides, dilation, output_padding):
    cls = {1: conv.Conv1DTranspose, 2: conv.Conv2DTranspose, 3: conv.Conv3DTranspose}[rank]
    kernel = (3,) * rank
    x = _input((2, *(5, 4, 3)[:rank], 3), data_format)
    layer = cls(4, kernel, strides=strides, padding=padding, output_padding=output_padding,
                data_format=data_format, dilation_rate=dilation)
    w, b = _set_random_weights(layer, x.shape)
    assert w.shape == kernel + (4, 3)
    out_shape = layer.compute_output_shape(x.shape).as_list()
    out_sizes = out_shape[1:-1] if data_format == "channels_last" else out_shape[2:]
    if rank == 3:  # tf_keras's Conv3DTranspose does not apply its dilation rate
        dilation = 1
    ref = _reference(np_conv_transpose, x, data_format, w, (strides,) * rank, padding,
                     (dilation,) * rank, out_sizes)
    _check(layer, x, ref + (b if data_format == "channels_last" else
                            b.reshape((-1,) + (1,) * rank)))


def test_conv_transpose_output_shapes():
    # tf_keras 2.21 output shapes
    x = np.zeros((2, 5, 4, 3), np.float32)
    cases = [({}, (2, 7, 6, 2)), ({"strides": 2}, (2, 11, 9, 2)),
             ({"strides": 2, "padding": "same"}, (2, 10, 8, 2)),
             ({"strides": 2, "output_padding": 1}, (2, 12, 10, 2)),
             ({"strides": 3, "padding": "same", "output_padding": 2}, (2, 15, 12, 2)),
             ({"dilation_rate": 2}, (2, 9, 8, 2))]
    for kwargs, expected in cases:
        assert conv.Conv2DTranspose(2, 3, **kwargs)(x).shape == expected, kwargs


def test_conv2d_transpose_refuses_unequal_dilation_rates():
    # tf_keras dilates a 2-D transposed convolution with one rate: (2, 1) raises when called
    message = ("Expected the 2 dimensions of the `dilation_rate` argument to be equal to each "
               "other. Received: dilation_rate={}")
    layer = conv.Conv2DTranspose(2, 3, dilation_rate=(2, 1))
    with pytest.raises(ValueError, match=re.escape(message.format((2, 1)))):
        layer(np.zeros((1, 5, 4, 3), np.float32))
    with pytest.raises(ValueError, match=re.escape(message.format((1, 2)))):
        conv.Conv2DTranspose(2, 3, dilation_rate=(1, 2))(tf.keras.Input((None, None, 3)))
    with pytest.raises(ValueError, match=re.escape(message.format([2, 1]))):
        tf.keras.backend.conv2d_transpose(np.ones((1, 3, 3, 1), np.float32),
                                          np.ones((3, 3, 1, 1), np.float32), (1, 5, 5, 1),
                                          dilation_rate=[2, 1])


def test_conv3d_transpose_output_shapes():
    # tf_keras 2.21 output shapes; the dilation rate changes nothing
    x = np.zeros((1, 3, 4, 2, 3), np.float32)
    cases = [({}, (1, 5, 6, 4, 2)), ({"strides": 2}, (1, 7, 9, 5, 2)),
             ({"strides": 2, "padding": "same"}, (1, 6, 8, 4, 2)),
             ({"strides": (2, 1, 3), "output_padding": (1, 0, 2)}, (1, 8, 6, 8, 2)),
             ({"dilation_rate": 2}, (1, 5, 6, 4, 2)),
             ({"dilation_rate": (2, 1, 1), "padding": "same"}, (1, 3, 4, 2, 2))]
    for kwargs, expected in cases:
        assert conv.Conv3DTranspose(2, 3, **kwargs)(x).shape == expected, kwargs
    assert conv.Conv3DTranspose(2, 3, data_format="channels_first").compute_output_shape(
        x.shape) == (1, 2, 6, 4, 5)


def test_conv3d_transpose_ignores_dilation_rate():
    # tf_keras 2.21: checked and kept as an attribute, not applied, not in the config
    x = _input((1, 3, 4, 2, 3), "channels_last")
    dilated = conv.Conv3DTranspose(2, 3, dilation_rate=2)
    plain = conv.Conv3DTranspose(2, 3)
    _set_random_weights(dilated, x.shape)
    plain.build(x.shape)
    plain.set_weights(dilated.get_weights())
    np.testing.assert_array_equal(dilated(x).numpy(), plain(x).numpy())
    assert dilated.dilation_rate == (2, 2, 2) and "dilation_rate" not in dilated.get_config()


def test_conv3d_transpose_values_literal():
    # tf_keras 2.21 output for these weights
    layer = conv.Conv3DTranspose(1, 3, strides=(1, 2, 2), padding="same",
                                 output_padding=(0, 1, 0))
    layer.build((1, 2, 2, 2, 1))
    layer.set_weights([np.arange(27, dtype=np.float32).reshape(3, 3, 3, 1, 1) % 7 - 3,
                       np.array([0.5], np.float32)])
    y = layer(np.array([1, 2, 3, 4, -1, 0, 2, 1], np.float32).reshape(1, 2, 2, 2, 1))
    np.testing.assert_array_equal(y.numpy()[0, ..., 0], [
        [[2.5, 0.5, 0.5], [2.5, -0.5, 6.5], [-1.5, -7.5, -3.5], [11.5, 3.5, 13.5]],
        [[2.5, 4.5, 4.5], [-4.5, -3.5, -3.5], [8.5, 16.5, 10.5], [0.5, -18.5, -4.5]]])


def test_conv_transpose_values_literal():
    # tf_keras 2.21 output for these weights
    layer = conv.Conv2DTranspose(1, 3, strides=2, padding="same", output_padding=1)
    layer.build((1, 2, 2, 1))
    layer.set_weights([np.arange(9, dtype=np.float32).reshape(3, 3, 1, 1),
                       np.array([0.5], np.float32)])
    y = layer(np.array([1, 2, 3, 4], np.float32).reshape(1, 2, 2, 1))
    np.testing.assert_array_equal(y.numpy()[0, :, :, 0], [[0.5, 1.5, 2.5, 2.5],
                                                          [3.5, 4.5, 11.5, 8.5],
                                                          [6.5, 10.5, 26.5, 18.5],
                                                          [9.5, 12.5, 27.5, 16.5]])


@pytest.mark.parametrize("rank", [1, 2])
@pytest.mark.parametrize("data_format", FORMATS)
@pytest.mark.parametrize("padding", ["valid", "same"])
@pytest.mark.parametrize("strides,dilation", GEOMETRIES[:3])
def test_depthwise_values(rank, data_format, padding, strides, dilation):
    cls = conv.DepthwiseConv1D if rank == 1 else conv.DepthwiseConv2D
    kernel = (3, 2)[:rank]
    x = _input((2, *(9, 8)[:rank], 3), data_format)
    layer = cls(kernel, strides=strides, padding=padding, depth_multiplier=2,
                data_format=data_format, dilation_rate=dilation)
    w, b = _set_random_weights(layer, x.shape)
    assert w.shape == kernel + (3, 2) and b.shape == (6,)
    ref = _reference(np_depthwise, x, data_format, w, (strides,) * rank, padding,
                     (dilation,) * rank)
    _check(layer, x, ref + (b if data_format == "channels_last" else
                            b.reshape((-1,) + (1,) * rank)))


def test_depthwise_values_literal():
    # tf_keras 2.21: output channel c * depth_multiplier + m
    layer = conv.DepthwiseConv2D(2, depth_multiplier=2)
    layer.build((1, 3, 3, 2))
    layer.set_weights([np.arange(16, dtype=np.float32).reshape(2, 2, 2, 2),
                       np.zeros(4, np.float32)])
    y = layer(np.arange(18, dtype=np.float32).reshape(1, 3, 3, 2))
    np.testing.assert_array_equal(y.numpy(), [[[[152, 168, 216, 236], [200, 224, 280, 308]],
                                               [[296, 336, 408, 452], [344, 392, 472, 524]]]])


@pytest.mark.parametrize("rank", [1, 2])
@pytest.mark.parametrize("data_format", FORMATS)
@pytest.mark.parametrize("padding", ["valid", "same"])
@pytest.mark.parametrize("strides,dilation", GEOMETRIES[:3])
def test_separable_values(rank, data_format, padding, strides, dilation):
    cls = conv.SeparableConv1D if rank == 1 else conv.SeparableConv2D
    x = _input((2, *(9, 8)[:rank], 3), data_format)
    layer = cls(4, 3, strides=strides, padding=padding, depth_multiplier=2,
                data_format=data_format, dilation_rate=dilation)
    depthwise, pointwise, b = _set_random_weights(layer, x.shape)
    assert pointwise.shape == (1,) * rank + (6, 4)

    def separable(v):
        mid = np_depthwise(v, depthwise, (strides,) * rank, padding, (dilation,) * rank)
        return np_conv(mid, pointwise, (1,) * rank, "valid", (1,) * rank)
    ref = _reference(separable, x, data_format)
    _check(layer, x, ref + (b if data_format == "channels_last" else
                            b.reshape((-1,) + (1,) * rank)))


def test_activation_and_no_bias():
    layer = conv.Conv2D(3, 2, activation="relu", use_bias=False)
    x = _input((2, 4, 4, 2), "channels_last")
    (w,) = _set_random_weights(layer, x.shape)
    assert layer.bias is None and len(layer.weights) == 1
    _check(layer, x, np.maximum(np_conv(x, w, (1, 1), "valid", (1, 1)), 0))


def test_extra_batch_dimensions():
    x = _input((2, 3, 6, 6, 2), "channels_last")
    layer = conv.Conv2D(4, 3)
    w, b = _set_random_weights(layer, (None, 6, 6, 2))
    ref = np_conv(x.reshape(6, 6, 6, 2), w, (1, 1), "valid", (1, 1)).reshape(2, 3, 4, 4, 4)
    _check(layer, x, ref + b)
    x = RNG.standard_normal((2, 3, 2, 7)).astype(np.float32)
    layer = conv.Conv1D(4, 3, data_format="channels_first")
    w, b = _set_random_weights(layer, (None, 2, 7))
    ref = to_first(np_conv(to_last(x.reshape(6, 2, 7)), w, (1,), "valid", (1,)))
    _check(layer, x, ref.reshape(2, 3, 4, 5) + b.reshape(-1, 1))


# -- shapes ---------------------------------------------------------------------------------

@pytest.mark.parametrize("cls,args,rank", [
    (conv.Conv1D, (2, 3), 1), (conv.Conv2D, (2, 3), 2), (conv.Conv3D, (2, 3), 3),
    (conv.DepthwiseConv1D, (3,), 1), (conv.DepthwiseConv2D, (3,), 2),
    (conv.SeparableConv1D, (2, 3), 1), (conv.SeparableConv2D, (2, 3), 2),
    (conv.Conv1DTranspose, (2, 3), 1), (conv.Conv2DTranspose, (2, 3), 2),
    (conv.Conv3DTranspose, (2, 3), 3)])
def test_output_shape_matches_compute_output_shape(cls, args, rank):
    for data_format, padding, strides in itertools.product(FORMATS, ["valid", "same"], [1, 2]):
        layer = cls(*args, padding=padding, strides=strides, data_format=data_format)
        spatial = (7, 6, 5)[:rank]
        shape = (2, *spatial, 3) if data_format == "channels_last" else (2, 3, *spatial)
        assert layer(np.ones(shape, np.float32)).shape == layer.compute_output_shape(shape)
        unknown = layer.compute_output_shape((None,) + shape[1:])
        assert unknown.as_list()[0] is None and unknown[1:] == layer.compute_output_shape(
            shape)[1:]


def test_output_shapes_literal():
    # tf_keras 2.21 output shapes
    x = np.zeros((2, 7, 6, 3), np.float32)
    assert conv.Conv2D(4, 3)(x).shape == (2, 5, 4, 4)
    assert conv.Conv2D(4, 3, strides=2, padding="same")(x).shape == (2, 4, 3, 4)
    assert conv.Conv2D(4, 3, dilation_rate=2)(x).shape == (2, 3, 2, 4)
    assert conv.Conv2D(4, (3, 1), data_format="channels_first")(x).shape == (2, 4, 4, 3)
    assert conv.DepthwiseConv2D(3, depth_multiplier=3)(x).shape == (2, 5, 4, 9)
    assert conv.SeparableConv2D(5, 2, strides=2)(x).shape == (2, 3, 3, 5)
    assert conv.Conv1D(4, 3, padding="causal", dilation_rate=3)(x[:, 0]).shape == (2, 6, 4)
    assert conv.Conv3D(2, 2, strides=2)(np.zeros((1, 5, 4, 3, 1), np.float32)).shape == \
        (1, 2, 2, 1, 2)
    assert conv.Conv2D(4, 3).compute_output_shape((None, None, 6, 3)).as_list() == \
        [None, None, 4, 4]


# -- weights and configs ----------------------------------------------------------------------

def test_weight_names_and_shapes():
    cases = [(conv.Conv1D(2, 3), (1, 5, 3), [("kernel", (3, 3, 2)), ("bias", (2,))]),
             (conv.Conv2D(6, 3, groups=3), (1, 5, 5, 3),
              [("kernel", (3, 3, 1, 6)), ("bias", (6,))]),
             (conv.Conv3D(2, 3), (1, 5, 5, 5, 3), [("kernel", (3, 3, 3, 3, 2)), ("bias", (2,))]),
             (conv.Conv1DTranspose(2, 3), (1, 5, 3), [("kernel", (3, 2, 3)), ("bias", (2,))]),
             (conv.Conv2DTranspose(2, 3), (1, 5, 5, 3),
              [("kernel", (3, 3, 2, 3)), ("bias", (2,))]),
             (conv.Conv3DTranspose(2, 3), (1, 3, 4, 2, 3),
              [("kernel", (3, 3, 3, 2, 3)), ("bias", (2,))]),
             (conv.DepthwiseConv1D(3), (1, 5, 3),
              [("depthwise_kernel", (3, 3, 1)), ("bias", (3,))]),
             (conv.DepthwiseConv2D(3, depth_multiplier=2), (1, 5, 5, 3),
              [("depthwise_kernel", (3, 3, 3, 2)), ("bias", (6,))]),
             (conv.SeparableConv1D(2, 3), (1, 5, 3), [
                 ("depthwise_kernel", (3, 3, 1)), ("pointwise_kernel", (1, 3, 2)),
                 ("bias", (2,))]),
             (conv.SeparableConv2D(2, 3, name="sep"), (1, 5, 5, 3), [
                 ("depthwise_kernel", (3, 3, 3, 1)), ("pointwise_kernel", (1, 1, 3, 2)),
                 ("bias", (2,))])]
    for layer, shape, expected in cases:
        layer(np.zeros(shape, np.float32))
        assert [(w.name, tuple(w.shape.as_list())) for w in layer.weights] == \
            [(f"{layer.name}/{name}:0", s) for name, s in expected]
    assert cases[-1][0].weights[0].name == "sep/depthwise_kernel:0"


def test_input_spec_after_build():
    layer = conv.Conv2D(2, 3)
    assert repr(layer.input_spec) == "InputSpec(min_ndim=4)"
    layer(np.zeros((1, 5, 5, 3), np.float32))
    assert repr(layer.input_spec) == "InputSpec(min_ndim=4, axes={-1: 3})"
    layer = conv.Conv2DTranspose(2, 3, data_format="channels_first")
    layer(np.zeros((1, 3, 5, 5), np.float32))
    assert repr(layer.input_spec) == "InputSpec(ndim=4, axes={-3: 3})"
    with pytest.raises(ValueError, match="expected axis -3 of input shape to have value 3"):
        layer(np.zeros((1, 4, 5, 5), np.float32))


GLOROT = {"module": "keras.initializers", "class_name": "GlorotUniform",
          "config": {"seed": None}, "registered_name": None}
ZEROS = {"module": "keras.initializers", "class_name": "Zeros", "config": {},
         "registered_name": None}


def test_conv2d_config_literal():
    # tf_keras 2.21 Conv2D(2, 3).get_config(), key order included
    config = conv.Conv2D(2, 3, name="conv2d").get_config()
    assert list(config.items()) == [
        ("name", "conv2d"), ("trainable", True), ("dtype", "float32"), ("filters", 2),
        ("kernel_size", (3, 3)), ("strides", (1, 1)), ("padding", "valid"),
        ("data_format", "channels_last"), ("dilation_rate", (1, 1)), ("groups", 1),
        ("activation", "linear"), ("use_bias", True), ("kernel_initializer", GLOROT),
        ("bias_initializer", ZEROS), ("kernel_regularizer", None), ("bias_regularizer", None),
        ("activity_regularizer", None), ("kernel_constraint", None),
        ("bias_constraint", None)]


def test_config_keys_literal():
    # tf_keras 2.21 key orders
    base = ["name", "trainable", "dtype"]
    geometry = ["kernel_size", "strides", "padding", "data_format", "dilation_rate", "groups",
                "activation", "use_bias"]
    kernel = ["kernel_initializer", "bias_initializer", "kernel_regularizer",
              "bias_regularizer", "activity_regularizer", "kernel_constraint", "bias_constraint"]
    assert list(conv.Conv2DTranspose(2, 3).get_config()) == \
        base + ["filters"] + geometry + kernel + ["output_padding"]
    assert list(conv.Conv3DTranspose(2, 3).get_config()) == \
        base + ["filters"] + [k for k in geometry if k != "dilation_rate"] + kernel + \
        ["output_padding"]
    assert list(conv.DepthwiseConv2D(3).get_config()) == base + geometry + [
        "bias_initializer", "bias_regularizer", "activity_regularizer", "bias_constraint",
        "depth_multiplier", "depthwise_initializer", "depthwise_regularizer",
        "depthwise_constraint"]
    assert list(conv.SeparableConv1D(2, 3).get_config()) == base + ["filters"] + geometry + \
        kernel + ["depth_multiplier", "depthwise_initializer", "pointwise_initializer",
                  "depthwise_regularizer", "pointwise_regularizer", "depthwise_constraint",
                  "pointwise_constraint"]


@pytest.mark.parametrize("layer", [
    conv.Conv1D(3, 2, strides=2, padding="causal", data_format="channels_first",
                activation="relu", kernel_regularizer="l2", bias_constraint="non_neg"),
    conv.Conv2D(4, (3, 2), padding="same", dilation_rate=2, groups=2, use_bias=False,
                kernel_initializer="ones", activity_regularizer="l1"),
    conv.Conv3D(2, 2, strides=(1, 2, 1), data_format="channels_first"),
    conv.Conv1DTranspose(2, 3, strides=2, output_padding=1),
    conv.Conv2DTranspose(2, 3, strides=(2, 3), padding="same", output_padding=(1, 2)),
    conv.Conv3DTranspose(2, (2, 3, 2), strides=(1, 2, 3), output_padding=(0, 1, 2),
                         data_format="channels_first", activation="tanh"),
    conv.DepthwiseConv1D(3, depth_multiplier=2, depthwise_initializer="ones"),
    conv.DepthwiseConv2D(3, depthwise_regularizer="l2", depthwise_constraint="max_norm"),
    conv.SeparableConv1D(2, 3, padding="causal", pointwise_initializer="zeros"),
    conv.SeparableConv2D(2, 3, depth_multiplier=3, depthwise_regularizer="l1")])
def test_config_round_trip(layer):
    config = layer.get_config()
    clone = type(layer).from_config(config)
    assert clone.get_config() == config
    shape = {1: (2, 8, 4), 2: (2, 8, 7, 4), 3: (2, 4, 6, 5, 7)}[layer.rank]
    x = np.random.default_rng(1).standard_normal(shape).astype(np.float32)
    layer(x)
    clone(x)
    clone.set_weights(layer.get_weights())
    np.testing.assert_allclose(clone(x).numpy(), layer(x).numpy(), rtol=1e-6)


def test_aliases():
    assert conv.Convolution1D is conv.Conv1D and conv.Convolution2D is conv.Conv2D
    assert conv.Convolution3D is conv.Conv3D
    assert conv.Convolution2DTranspose is conv.Conv2DTranspose
    assert conv.Convolution1DTranspose is conv.Conv1DTranspose
    assert conv.Convolution3DTranspose is conv.Conv3DTranspose
    assert tf.keras.layers.Convolution3DTranspose is conv.Conv3DTranspose
    assert isinstance(conv.Conv3DTranspose(1, 1), conv.Conv3D)
    assert conv.SeparableConvolution1D is conv.SeparableConv1D
    assert conv.SeparableConvolution2D is conv.SeparableConv2D
    assert isinstance(conv.Conv2DTranspose(1, 1), conv.Conv2D)
    assert isinstance(conv.Conv1DTranspose(1, 1), conv.Conv1D)


def test_regularizers_add_losses():
    layer = conv.Conv2D(2, 3, kernel_regularizer="l2", bias_regularizer="l1",
                        bias_initializer="ones")
    layer(np.ones((1, 4, 4, 1), np.float32))
    kernel = layer.kernel.numpy()
    np.testing.assert_allclose([float(v) for v in layer.losses],
                               [0.01 * np.square(kernel).sum(), 0.01 * 2], rtol=1e-6)


# -- gradients and tracing -------------------------------------------------------------------

TRAINABLE = [(conv.Conv1D(2, 3, padding="causal"), (2, 6, 3)),
             (conv.Conv2D(2, 3, groups=1, data_format="channels_first"), (2, 3, 5, 5)),
             (conv.Conv3D(2, 2), (1, 3, 3, 3, 2)),
             (conv.Conv1DTranspose(2, 3, strides=2), (2, 4, 3)),
             (conv.Conv2DTranspose(2, 3, strides=2, padding="same"), (2, 4, 4, 3)),
             (conv.Conv3DTranspose(2, 2, strides=(1, 2, 1)), (1, 2, 3, 2, 2)),
             (conv.DepthwiseConv1D(3), (2, 5, 3)),
             (conv.DepthwiseConv2D(3, depth_multiplier=2), (2, 5, 5, 3)),
             (conv.SeparableConv1D(2, 3), (2, 5, 3)),
             (conv.SeparableConv2D(2, 3, data_format="channels_first"), (2, 3, 5, 5))]


@pytest.mark.parametrize("layer,shape", TRAINABLE)
def test_gradients_reach_every_weight(layer, shape):
    x = tf.constant(RNG.standard_normal(shape).astype(np.float32))
    with tf.GradientTape() as tape:
        tape.watch(x)
        loss = tf.reduce_sum(tf.square(layer(x)))
    grads = tape.gradient(loss, layer.trainable_weights + [x])
    assert len(grads) == len(layer.trainable_weights) + 1
    for grad, value in zip(grads, layer.trainable_weights + [x]):
        assert grad is not None and grad.shape == value.shape
        assert np.abs(grad.numpy()).sum() > 0


def test_kernel_gradient_matches_finite_differences():
    layer = conv.Conv2D(2, 2, strides=2, padding="same", dtype="float64")
    x = RNG.standard_normal((1, 5, 5, 2))
    layer(x)
    with tf.GradientTape() as tape:
        loss = tf.reduce_sum(tf.sin(layer(x)))
    grad = tape.gradient(loss, layer.kernel).numpy()
    kernel = layer.kernel.numpy()
    eps, numeric = 1e-6, np.zeros_like(kernel)
    for index in np.ndindex(*kernel.shape):
        for sign in (1, -1):
            shifted = kernel.copy()
            shifted[index] += sign * eps
            layer.kernel.assign(shifted)
            numeric[index] += sign * np.sin(layer(x).numpy()).sum() / (2 * eps)
    np.testing.assert_allclose(grad, numeric, rtol=1e-5, atol=1e-7)


@pytest.mark.parametrize("layer,shape", TRAINABLE)
def test_inside_function(layer, shape):
    x = RNG.standard_normal(shape).astype(np.float32)
    eager = layer(x).numpy()
    traced = tf.function(lambda v: layer(v))
    np.testing.assert_allclose(traced(tf.constant(x)).numpy(), eager, rtol=1e-5, atol=1e-5)


def test_function_with_unknown_dimensions():
    layer = conv.Conv2D(3, 3, strides=2, padding="same")
    fn = tf.function(lambda v: layer(v), input_signature=[tf.TensorSpec([None, None, None, 2])])
    x = RNG.standard_normal((2, 7, 5, 2)).astype(np.float32)
    np.testing.assert_allclose(fn(x).numpy(), layer(x).numpy(), rtol=1e-5, atol=1e-6)
    causal = conv.Conv1D(2, 3, padding="causal")
    fn = tf.function(lambda v: causal(v), input_signature=[tf.TensorSpec([None, None, 2])])
    x = RNG.standard_normal((2, 6, 2)).astype(np.float32)
    np.testing.assert_allclose(fn(x).numpy(), causal(x).numpy(), rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("make,spec,static", [
    # tf_keras 2.21 static output shapes
    (lambda: conv.Conv2DTranspose(2, 3, strides=2, padding="same"), (None, None, 3),
     [None, None, None, 2]),
    (lambda: conv.Conv2DTranspose(2, (3, 2), strides=(2, 3), output_padding=(1, 2),
                                  data_format="channels_first"), (3, None, 5),
     [None, 2, None, 16]),
    (lambda: conv.Conv1DTranspose(2, 3, strides=2, padding="same", output_padding=1),
     (None, 3), [None, None, 2]),
    (lambda: conv.Conv3DTranspose(2, (2, 3, 2), strides=(1, 2, 3)), (None, 4, None, 3),
     [None, None, 9, None, 2])])
def test_transpose_with_sizes_known_at_run_time(make, spec, static):
    """Spatial sizes unknown when traced: the output shape comes from the input's."""
    layer = make()
    inputs = tf.keras.Input(spec)
    outputs = layer(inputs)
    assert outputs.shape.as_list() == static
    model = tf.keras.Model(inputs, outputs)
    fn = tf.function(lambda v: model(v), input_signature=[tf.TensorSpec((None,) + spec)])
    assert fn.get_concrete_function().structured_outputs.shape.as_list() == static
    for sizes in [(2, 4, 3, 5, 6, 1), (3, 1, 7, 2, 2, 4)]:
        shape = [sizes[0]] + [d if d is not None else sizes[1 + i] for i, d in enumerate(spec)]
        x = RNG.standard_normal(shape).astype(np.float32)
        eager = layer(x).numpy()
        assert eager.shape == layer.compute_output_shape(x.shape)
        for got in (model(x), fn(x), model.predict(x, verbose=0)):
            np.testing.assert_allclose(np.asarray(got), eager, rtol=1e-5, atol=1e-5)


def test_transpose_trains_with_sizes_known_at_run_time():
    inputs = tf.keras.Input((None, None, 3))
    model = tf.keras.Model(inputs, conv.Conv2DTranspose(2, 3, strides=2, padding="same")(inputs))
    model.compile("sgd", "mse")
    kernel = model.layers[1].kernel.numpy()
    model.fit(RNG.standard_normal((4, 3, 5, 3)).astype(np.float32),
              np.zeros((4, 6, 10, 2), np.float32), epochs=1, verbose=0)
    assert not np.allclose(model.layers[1].kernel.numpy(), kernel)


def test_conv3d_transpose_deserializes():
    layer = conv.Conv3DTranspose(2, 3, strides=(1, 2, 1), output_padding=(0, 1, 0), name="c3t")
    clone = tf.keras.layers.deserialize(tf.keras.layers.serialize(layer))
    assert type(clone) is conv.Conv3DTranspose and clone.get_config() == layer.get_config()


# -- errors --------------------------------------------------------------------------------

def test_bad_input_rank_names_the_layer():
    with pytest.raises(ValueError) as info:
        conv.Conv2D(2, 3, name="conv2d")(np.zeros((1, 5, 3), np.float32))
    assert str(info.value) == ('Input 0 of layer "conv2d" is incompatible with the layer: '
                               'expected min_ndim=4, found ndim=3. Full shape received: '
                               '(1, 5, 3)')
    with pytest.raises(ValueError, match='layer "sep1".*expected min_ndim=3, found ndim=2'):
        conv.SeparableConv1D(2, 3, name="sep1")(np.zeros((5, 3), np.float32))
    with pytest.raises(ValueError, match=r"^Inputs should have rank 4\. Received "
                                         r"input_shape=\(1, 2, 2, 2, 3\)\.$"):
        conv.Conv2DTranspose(4, 3)(np.zeros((1, 2, 2, 2, 3), np.float32))
    with pytest.raises(ValueError, match=r"^Inputs should have rank 5\. Received "
                                         r"input_shape=\(1, 2, 2, 2, 2, 3\)\.$"):
        conv.Conv3DTranspose(4, 3)(np.zeros((1, 2, 2, 2, 2, 3), np.float32))
    with pytest.raises(ValueError, match="expected min_ndim=5, found ndim=4"):
        conv.Conv3DTranspose(4, 3)(np.zeros((1, 2, 2, 2), np.float32))


@pytest.mark.parametrize("make,message", [
    (lambda: conv.Conv2D(0, 3), "Invalid value for argument `filters`. Expected a strictly "
                                "positive value. Received filters=0."),
    (lambda: conv.Conv2D(2, (0, 3)), "The `kernel_size` argument must be a tuple of 2 "
                                     "integers. Received: (0, 3) including {0} that does not "
                                     "satisfy the requirement `> 0`."),
    (lambda: conv.Conv2D(2, (3, 3, 3)), "The `kernel_size` argument must be a tuple of 2 "
                                        "integers. Received: (3, 3, 3)"),
    (lambda: conv.Conv2D(2, 3, strides=0), "The argument `strides` cannot contains 0(s). "
                                           "Received: (0, 0)"),
    (lambda: conv.Conv2D(2, 3, padding="full"),
     'The `padding` argument must be a list/tuple or one of "valid", "same" (or "causal", '
     "only for `Conv1D). Received: full"),
    (lambda: conv.Conv2D(2, 3, padding="causal"),
     "Causal padding is only supported for `Conv1D`and `SeparableConv1D`."),
    (lambda: conv.Conv1DTranspose(2, 3, padding="causal"),
     "Causal padding is only supported for `Conv1D`and `SeparableConv1D`."),
    (lambda: conv.Conv2D(2, 3, strides=2, dilation_rate=2),
     "`strides > 1` not supported in conjunction with `dilation_rate > 1`. Received: "
     "strides=(2, 2) and dilation_rate=(2, 2)"),
    (lambda: conv.Conv2D(3, 3, groups=2), "The number of filters must be evenly divisible by "
                                          "the number of groups. Received: groups=2, filters=3"),
    (lambda: conv.Conv2D(4, 3, groups=2)(np.zeros((1, 5, 5, 3), np.float32)),
     "The number of input channels must be evenly divisible by the number of groups. "
     "Received groups=2, but the input has 3 channels (full input shape is (1, 5, 5, 3))."),
    (lambda: conv.Conv2D(4, 3).build((None, 5, 5, None)),
     "The channel dimension of the inputs should be defined. The input_shape received is "
     "(None, 5, 5, None), where axis -1 (0-based) is the channel dimension, which found to "
     "be `None`."),
    (lambda: conv.Conv2D(4, 3, name="c").compute_output_shape((1, 1, 5, 3)),
     "One of the dimensions in the output is <= 0 due to downsampling in c. Consider "
     "increasing the input size. Received input shape [1, 1, 5, 3] which would produce "
     "output shape with a zero or negative value in a dimension."),
    (lambda: conv.Conv2DTranspose(4, 3, strides=2, output_padding=2),
     "Strides must be greater than output padding. Received strides=(2, 2), "
     "output_padding=(2, 2)."),
    (lambda: conv.DepthwiseConv2D(3)(np.zeros((1, 2, 5, 5, 3), np.float32)),
     "Inputs should have rank 4. Received input_shape=(1, 2, 5, 5, 3)."),
    (lambda: conv.Conv3DTranspose(2, 3).build((None, 2, 2, 2, None)),
     "The channel dimension of the inputs to `Conv3DTranspose` should be defined. The "
     "input_shape received is (None, 2, 2, 2, None), where axis -1 (0-based) is the channel "
     "dimension, which found to be `None`."),
    (lambda: conv.Conv2DTranspose(2, 3, data_format="channels_first").build((None, None, 2, 2)),
     "The channel dimension of the inputs to `Conv2DTranspose` should be defined. The "
     "input_shape received is (None, None, 2, 2), where axis -3 (0-based) is the channel "
     "dimension, which found to be `None`."),
    (lambda: conv.DepthwiseConv2D(3, data_format="channels_first").build((None, None, 2, 2)),
     "The channel dimension of the inputs to `DepthwiseConv` should be defined. The "
     "input_shape received is (None, None, 2, 2), where axis -3 (0-based) is the channel "
     "dimension, which found to be `None`."),
    (lambda: conv.DepthwiseConv1D(3).build((None, 4, None)),
     "The channel dimension of the inputs to `DepthwiseConv` should be defined. The "
     "input_shape received is (None, 4, None), where axis -1 (0-based) is the channel "
     "dimension, which found to be `None`."),
    (lambda: conv.Conv3DTranspose(2, (3, 3)),
     "The `kernel_size` argument must be a tuple of 3 integers. Received: (3, 3)"),
    (lambda: conv.Conv3DTranspose(2, 3, output_padding=1),
     "Strides must be greater than output padding. Received strides=(1, 1, 1), "
     "output_padding=(1, 1, 1)."),
    (lambda: conv.Conv3DTranspose(2, 3, strides=2, dilation_rate=2),
     "`strides > 1` not supported in conjunction with `dilation_rate > 1`. Received: "
     "strides=(2, 2, 2) and dilation_rate=(2, 2, 2)"),
    (lambda: conv.Conv3DTranspose(2, 3, padding="causal"),
     "Causal padding is only supported for `Conv1D`and `SeparableConv1D`."),
])
def test_argument_errors(make, message):
    with pytest.raises(ValueError) as info:
        make()
    assert str(info.value) == message


def test_float_filters_and_unknown_keyword():
    assert conv.Conv2D(2.0, 3).filters == 2
    with pytest.raises(TypeError):
        conv.Conv2D(2, 3, bogus=1)


@pytest.mark.parametrize("layer, shape, k, size", [
    (lambda: tf.keras.layers.Conv2D(2, 3), (2, 2, 1), 3, 2),
    (lambda: tf.keras.layers.Conv1D(2, 3), (2, 1), 3, 2),
    (lambda: tf.keras.layers.Conv3D(2, 3), (2, 4, 4, 1), 3, 2),
    (lambda: tf.keras.layers.DepthwiseConv2D(3), (2, 5, 1), 3, 2),
    (lambda: tf.keras.layers.SeparableConv2D(2, 3), (5, 2, 1), 3, 2),
    (lambda: tf.keras.layers.Conv2D(2, 3, dilation_rate=2), (4, 4, 1), 3, 2),
])
def test_a_filter_larger_than_its_symbolic_input_fails_as_tf_shape_inference(layer, shape, k,
                                                                             size):
    # As TF: building the model fails (a CNN with too many poolings for its input size)
    # instead of giving empty outputs
    with pytest.raises(ValueError, match=f"Negative dimension size caused by subtracting {k} "
                                         f"from {size} for "):
        layer()(tf.keras.Input(shape))


def test_a_filter_larger_than_the_input_fails_in_a_traced_function():
    @tf.function
    def f(x):
        return tf.nn.conv2d(x, tf.ones((3, 3, 1, 2)), 1, "VALID")

    with pytest.raises(ValueError, match="Negative dimension size caused by subtracting 3 "
                                         "from 2"):
        f(tf.ones((1, 2, 2, 1)))
    assert f.get_concrete_function(tf.TensorSpec([1, 3, 3, 1])).structured_outputs.shape == \
        (1, 1, 1, 2)


@pytest.mark.parametrize("layer, shape, expected", [
    (lambda: tf.keras.layers.Conv2D(2, 3), [1, 4, 4, 3], [None, None, None, 2]),
    (lambda: tf.keras.layers.Conv1D(2, 3), [1, 4, 3], [None, None, 2]),
    (lambda: tf.keras.layers.DepthwiseConv2D(3), [1, 4, 4, 3], [None, None, None, 3]),
    (lambda: tf.keras.layers.Conv2DTranspose(2, 3, strides=2, padding="same"), [1, 4, 4, 3],
     [None, None, None, 2]),
    (lambda: tf.keras.layers.Conv1DTranspose(2, 3), [1, 4, 3], [None, None, 2]),
    (lambda: tf.keras.layers.Conv3DTranspose(2, 3), [1, 4, 4, 4, 3], [None] * 4 + [2]),
    (lambda: tf.keras.layers.MaxPooling2D(2), [1, 4, 4, 3], [None] * 4),
    (lambda: tf.keras.layers.MaxPooling1D(2), [1, 4, 3], [None] * 3),
    (lambda: tf.keras.layers.AveragePooling3D(2), [1, 4, 4, 4, 3], [None] * 5),
    (lambda: tf.keras.layers.BatchNormalization(), [1, 4, 4, 3], [None, None, None, 3]),
    (lambda: tf.keras.layers.Dense(2), [1, 3], None)])
def test_layers_traced_for_inputs_of_unknown_rank_give_tfs_shapes(layer, shape, expected):
    # (they raised, or lost the rank the ops know)
    layer = layer()
    layer(tf.zeros(shape))
    fn = tf.function(lambda z: layer(z, training=True), input_signature=[tf.TensorSpec(None)])
    static = fn.get_concrete_function().structured_outputs.shape
    assert static.rank is None if expected is None else static.as_list() == expected
    np.testing.assert_allclose(fn(tf.ones(shape)).numpy(), layer(tf.ones(shape),
                                                                 training=True).numpy(),
                               rtol=1e-6, atol=1e-6)


def test_average_pooling2d_traced_for_an_input_of_unknown_rank_raises_as_tf_keras():
    # tf_keras pools with tf.nn.avg_pool there, which takes the input's rank
    layer = tf.keras.layers.AveragePooling2D()
    with pytest.raises(ValueError, match="Cannot take the length of shape with unknown rank."):
        tf.function(layer, input_signature=[tf.TensorSpec(None)]).get_concrete_function()
    with pytest.raises(ValueError, match="Cannot take the length of shape with unknown rank."):
        tf.function(lambda z: tf.nn.max_pool(z, 2, 2, "SAME"),
                    input_signature=[tf.TensorSpec(None)]).get_concrete_function()


def test_a_built_depthwise_conv_checks_at_least_its_rank_then_its_channels():
    # as tf_keras's: built on rank 4 inputs, its spec then asks at least rank 4
    layer = conv.DepthwiseConv2D(3)
    layer(tf.ones([2, 8, 8, 4]))
    with pytest.raises(ValueError, match=r"expected min_ndim=4, found ndim=3\. Full shape "
                                         r"received: \(2, 8, 8\)$"):
        layer(tf.ones([2, 8, 8]))
    with pytest.raises(ValueError, match=r"expected axis -1 of input shape to have value 4, "
                                         r"but received input with shape \(2, 8, 8, 4, 2\)$"):
        layer(tf.ones([2, 8, 8, 4, 2]))
