"""Pooling layers against a NumPy reference: window and global max/average pooling over
paddings, strides and layouts, masks, shapes, configs, gradients, tracing and errors as
tf_keras 2.21 has them."""
import itertools

import numpy as np
import pytest

import eagerflow as tf
from eagerflow.keras import layers as core, layers as pooling

RNG = np.random.default_rng(0)
FORMATS = ["channels_last", "channels_first"]


def np_pool(x, reduce, pool_size, strides, padding):
    """x (N, *S, C): `reduce` over each window's real (unpadded) entries, as TF pools."""
    sizes = x.shape[1:-1]
    if padding == "same":
        outs = [-(-n // s) for n, s in zip(sizes, strides)]
        befores = [max((o - 1) * s + k - n, 0) // 2
                   for o, s, k, n in zip(outs, strides, pool_size, sizes)]
    else:
        outs = [(n - k) // s + 1 for n, k, s in zip(sizes, pool_size, strides)]
        befores = [0] * len(sizes)
    y = np.zeros((x.shape[0], *outs, x.shape[-1]), x.dtype)
    for index in np.ndindex(*outs):
        window = tuple(slice(max(i * s - b, 0), i * s - b + k)
                       for i, s, b, k in zip(index, strides, befores, pool_size))
        patch = x[(slice(None),) + window]
        y[(slice(None),) + index] = reduce(patch, axis=tuple(range(1, patch.ndim - 1)))
    return y


def _layout(x, data_format):
    return x if data_format == "channels_last" else np.moveaxis(x, -1, 1)


CLASSES = {("max", 1): pooling.MaxPooling1D, ("max", 2): pooling.MaxPooling2D,
           ("max", 3): pooling.MaxPooling3D, ("avg", 1): pooling.AveragePooling1D,
           ("avg", 2): pooling.AveragePooling2D, ("avg", 3): pooling.AveragePooling3D}


@pytest.mark.parametrize("kind", ["max", "avg"])
@pytest.mark.parametrize("rank", [1, 2, 3])
@pytest.mark.parametrize("data_format", FORMATS)
@pytest.mark.parametrize("padding", ["valid", "same"])
@pytest.mark.parametrize("pool_size,strides", [(2, None), (3, 2), (2, 1), (3, 3)])
def test_pooling_values(kind, rank, data_format, padding, pool_size, strides):
    sizes = {1: (8,), 2: (7, 6), 3: (5, 4, 6)}[rank]
    x = RNG.standard_normal((2, *sizes, 3)).astype(np.float32)
    layer = CLASSES[kind, rank](pool_size, strides, padding, data_format)
    ref = np_pool(x, np.max if kind == "max" else np.mean, (pool_size,) * rank,
                  (strides or pool_size,) * rank, padding)
    y = layer(_layout(x, data_format))
    assert y.shape == layer.compute_output_shape(_layout(x, data_format).shape)
    np.testing.assert_allclose(y.numpy(), _layout(ref, data_format), rtol=1e-5, atol=1e-6)


def test_pooling_values_literal():
    # tf_keras 2.21 outputs
    avg = pooling.AveragePooling2D(2, padding="same")(
        np.arange(9, dtype=np.float32).reshape(1, 3, 3, 1))
    np.testing.assert_array_equal(avg.numpy()[0, :, :, 0], [[2.0, 3.5], [6.5, 8.0]])
    top = pooling.MaxPooling1D(3, 2, padding="same")(
        np.array([3, 1, 4, 1, 5, 9, 2], np.float32).reshape(1, 7, 1))
    np.testing.assert_array_equal(top.numpy().ravel(), [3, 4, 9, 9])


def test_anisotropic_pool_size_and_strides():
    x = RNG.standard_normal((2, 7, 6, 3)).astype(np.float32)
    layer = pooling.MaxPooling2D((3, 2), (1, 2))
    ref = np_pool(x, np.max, (3, 2), (1, 2), "valid")
    np.testing.assert_allclose(layer(x).numpy(), ref)
    assert layer(x).shape == (2, 5, 3, 3)


def test_output_shapes():
    # tf_keras 2.21 output shapes
    x = np.zeros((2, 7, 6, 3), np.float32)
    assert pooling.MaxPooling2D()(x).shape == (2, 3, 3, 3)
    assert pooling.MaxPooling2D(padding="same")(x).shape == (2, 4, 3, 3)
    assert pooling.AveragePooling2D(3, 2, data_format="channels_first")(x).shape == (2, 7, 2, 1)
    assert pooling.MaxPooling1D()(x[:, 0]).shape == (2, 3, 3)
    assert pooling.AveragePooling3D(2, padding="same")(x[:, None]).shape == (2, 1, 4, 3, 3)
    assert pooling.MaxPooling2D().compute_output_shape((None, None, 6, 3)).as_list() == \
        [None, None, 3, 3]
    for layer, shape in itertools.product(
            [pooling.MaxPooling2D(3, 2, "same"), pooling.AveragePooling2D((2, 3))],
            [(None, 7, 6, 3), (4, 5, 5, 1)]):
        assert layer.compute_output_shape(shape)[1:] == layer(
            np.zeros((1,) + shape[1:], np.float32)).shape[1:]


GLOBAL = {("max", 1): pooling.GlobalMaxPooling1D, ("max", 2): pooling.GlobalMaxPooling2D,
          ("max", 3): pooling.GlobalMaxPooling3D, ("avg", 1): pooling.GlobalAveragePooling1D,
          ("avg", 2): pooling.GlobalAveragePooling2D,
          ("avg", 3): pooling.GlobalAveragePooling3D}


@pytest.mark.parametrize("kind", ["max", "avg"])
@pytest.mark.parametrize("rank", [1, 2, 3])
@pytest.mark.parametrize("data_format", FORMATS)
@pytest.mark.parametrize("keepdims", [False, True])
def test_global_pooling_values(kind, rank, data_format, keepdims):
    x = RNG.standard_normal((2, *(5, 4, 3)[:rank], 3)).astype(np.float32)
    layer = GLOBAL[kind, rank](data_format=data_format, keepdims=keepdims)
    ref = (np.max if kind == "max" else np.mean)(x, axis=tuple(range(1, rank + 1)),
                                                keepdims=keepdims)
    y = layer(_layout(x, data_format))
    assert y.shape == layer.compute_output_shape(_layout(x, data_format).shape)
    np.testing.assert_allclose(y.numpy(), _layout(ref, data_format) if keepdims else ref,
                               rtol=1e-5, atol=1e-6)


def test_global_output_shapes():
    assert pooling.GlobalAveragePooling2D()(np.zeros((2, 4, 5, 3), np.float32)).shape == (2, 3)
    assert pooling.GlobalMaxPooling2D(keepdims=True, data_format="channels_first")(
        np.zeros((2, 4, 5, 3), np.float32)).shape == (2, 4, 1, 1)
    assert pooling.GlobalMaxPooling1D(data_format="channels_first").compute_output_shape(
        (None, 3, None)).as_list() == [None, 3]
    assert pooling.GlobalAveragePooling3D(keepdims=True).compute_output_shape(
        (None, 2, 3, 4, 5)).as_list() == [None, 1, 1, 1, 5]


@pytest.mark.parametrize("data_format", FORMATS)
@pytest.mark.parametrize("keepdims", [False, True])
def test_global_average_1d_mask(data_format, keepdims):
    x = RNG.standard_normal((2, 4, 3)).astype(np.float32)
    mask = np.array([[True, True, False, False], [True, False, True, True]])
    expected = np.stack([x[i][mask[i]].mean(0) for i in range(2)])
    if keepdims:
        expected = expected[:, None]
    layer = pooling.GlobalAveragePooling1D(data_format=data_format, keepdims=keepdims)
    y = layer(_layout(x, data_format), mask=tf.constant(mask))
    np.testing.assert_allclose(y.numpy(), _layout(expected, data_format) if keepdims else
                               expected, rtol=1e-5)
    assert getattr(y, "_keras_mask", None) is None  # the steps axis, and its mask, are gone


def test_global_average_1d_takes_mask_from_embedding():
    embedding = core.Embedding(10, 2, mask_zero=True, embeddings_initializer="ones")
    hidden = embedding(np.array([[1, 2, 0], [3, 0, 0]]))
    assert pooling.GlobalAveragePooling1D().supports_masking
    np.testing.assert_array_equal(pooling.GlobalAveragePooling1D()(hidden).numpy(),
                                  np.ones((2, 2)))
    np.testing.assert_array_equal(pooling.GlobalMaxPooling1D()(hidden).numpy(), np.ones((2, 2)))


def test_configs():
    # tf_keras 2.21 configs, key order included
    assert list(pooling.MaxPooling1D(name="p").get_config().items()) == [
        ("name", "p"), ("trainable", True), ("dtype", "float32"), ("strides", (2,)),
        ("pool_size", (2,)), ("padding", "valid"), ("data_format", "channels_last")]
    assert list(pooling.AveragePooling2D(3, 1, "SAME", name="p").get_config().items()) == [
        ("name", "p"), ("trainable", True), ("dtype", "float32"), ("pool_size", (3, 3)),
        ("padding", "same"), ("strides", (1, 1)), ("data_format", "channels_last")]
    assert pooling.GlobalAveragePooling1D(name="g").get_config() == {
        "name": "g", "trainable": True, "dtype": "float32", "data_format": "channels_last",
        "keepdims": False}


@pytest.mark.parametrize("layer", [
    pooling.MaxPooling1D(3, 1, "same", "channels_first"), pooling.MaxPooling2D((2, 3)),
    pooling.MaxPooling3D(padding="same"), pooling.AveragePooling1D(strides=1),
    pooling.AveragePooling2D(data_format="channels_first"), pooling.AveragePooling3D(1),
    pooling.GlobalAveragePooling1D(keepdims=True), pooling.GlobalAveragePooling2D(),
    pooling.GlobalAveragePooling3D(data_format="channels_first"),
    pooling.GlobalMaxPooling1D(), pooling.GlobalMaxPooling2D(keepdims=True),
    pooling.GlobalMaxPooling3D()])
def test_config_round_trip(layer):
    config = layer.get_config()
    clone = type(layer).from_config(config)
    assert clone.get_config() == config
    x = RNG.standard_normal((2, 6, 6, 6, 6)[:layer.rank + 2]).astype(np.float32)
    np.testing.assert_array_equal(clone(x).numpy(), layer(x).numpy())


def test_aliases():
    assert pooling.MaxPool1D is pooling.MaxPooling1D and pooling.MaxPool2D is pooling.MaxPooling2D
    assert pooling.MaxPool3D is pooling.MaxPooling3D
    assert pooling.AvgPool1D is pooling.AveragePooling1D
    assert pooling.AvgPool2D is pooling.AveragePooling2D
    assert pooling.AvgPool3D is pooling.AveragePooling3D
    assert pooling.GlobalAvgPool1D is pooling.GlobalAveragePooling1D
    assert pooling.GlobalAvgPool2D is pooling.GlobalAveragePooling2D
    assert pooling.GlobalAvgPool3D is pooling.GlobalAveragePooling3D
    assert pooling.GlobalMaxPool1D is pooling.GlobalMaxPooling1D
    assert pooling.GlobalMaxPool2D is pooling.GlobalMaxPooling2D
    assert pooling.GlobalMaxPool3D is pooling.GlobalMaxPooling3D


@pytest.mark.parametrize("layer", [pooling.MaxPooling2D(), pooling.AveragePooling1D(3, 2),
                                   pooling.MaxPooling3D(padding="same"),
                                   pooling.GlobalAveragePooling2D(),
                                   pooling.GlobalMaxPooling1D()])
def test_gradients_and_function(layer):
    x = tf.constant(RNG.standard_normal((2, *(4,) * layer.rank, 3)).astype(np.float32))
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = layer(x)
        loss = tf.reduce_sum(y)
    grad = tape.gradient(loss, x)
    assert grad is not None and grad.shape == x.shape
    np.testing.assert_allclose(float(tf.reduce_sum(grad)), y.shape.num_elements(), rtol=1e-5)
    spec = tf.TensorSpec([None] * (layer.rank + 1) + [3])
    traced = tf.function(lambda v: layer(v), input_signature=[spec])
    np.testing.assert_allclose(traced(x).numpy(), y.numpy(), rtol=1e-6)


def test_errors():
    with pytest.raises(ValueError) as info:
        pooling.MaxPooling2D(name="max_pooling2d")(np.zeros((1, 5, 3), np.float32))
    assert str(info.value) == ('Input 0 of layer "max_pooling2d" is incompatible with the '
                               'layer: expected ndim=4, found ndim=3. Full shape received: '
                               '(1, 5, 3)')
    with pytest.raises(ValueError, match=r"^Incorrect input shape \[1, 0, 3, 2\] with dimension "
                                         r"0 at reduction axis 1\.$"):
        pooling.GlobalAveragePooling2D()(np.zeros((1, 0, 3, 2), np.float32))
    with pytest.raises(ValueError, match=r"The `pool_size` argument must be a tuple of 2 "
                                         r"integers\. Received: \(2, 0\) including \{0\}"):
        pooling.MaxPooling2D(pool_size=(2, 0))
    with pytest.raises(ValueError, match='The `data_format` argument must be one of'):
        pooling.AveragePooling1D(data_format="NWC")
    with pytest.raises(tf.errors.InvalidArgumentError, match="attr 'padding'"):
        pooling.MaxPooling2D(padding="causal")(np.zeros((1, 4, 4, 2), np.float32))
