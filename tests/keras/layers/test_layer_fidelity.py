"""Layers against tf_keras 2.21 where a sweep of tf.keras.layers found them apart: output
shapes as Keras gives them back, mask support, and arguments Keras takes."""
import numpy as np
import pytest

import eagerflow as tf

L = tf.keras.layers


@pytest.mark.parametrize("make", [
    lambda: L.Activation("relu"), lambda: L.Masking(), lambda: L.BatchNormalization(),
    lambda: L.LayerNormalization(), lambda: L.GroupNormalization(1),
    lambda: L.UnitNormalization(), lambda: L.Dropout(0.5), lambda: L.SpatialDropout1D(0.5),
    lambda: L.ActivityRegularization(), lambda: L.Rescaling(2.0),
    lambda: L.Normalization(mean=0.0, variance=1.0), lambda: L.RandomFlip(),
    lambda: L.StringLookup(vocabulary=["a"]), lambda: L.IntegerLookup(vocabulary=[1])])
def test_shape_preserving_layers_give_the_shape_back_as_given(make):
    # tf_keras returns `input_shape` itself: a tuple stays a tuple
    shape = make().compute_output_shape((2, 3, 4))
    assert type(shape) is tuple and shape == (2, 3, 4)


@pytest.mark.parametrize("make", [lambda: L.ReLU(), lambda: L.Softmax(),
                                  lambda: L.GaussianNoise(0.1), lambda: L.AlphaDropout(0.1),
                                  lambda: L.RandomBrightness(0.1)])
def test_activation_and_noise_layers_give_a_tensor_shape(make):
    # (these convert their result to a TensorShape in tf_keras)
    assert make().compute_output_shape((2, 3)) == tf.TensorShape([2, 3])
    assert isinstance(make().compute_output_shape((2, 3)), tf.TensorShape)


def test_identity_stops_a_mask_and_lambda_supports_masking():
    inputs = tf.keras.Input((3,), dtype="int32")
    embedded = L.Embedding(4, 2, mask_zero=True)(inputs)
    assert not L.Identity().supports_masking
    assert getattr(L.Identity()(embedded), "_keras_mask", None) is None
    eager = L.Embedding(4, 2, mask_zero=True)(tf.constant([[1, 0, 2]]))
    assert getattr(L.Identity()(eager), "_keras_mask", None) is None
    # a Lambda supports masking (it overrides compute_mask) but without `mask` gives None
    assert L.Lambda(lambda t: t).supports_masking
    assert getattr(L.Lambda(lambda t: t * 2)(embedded), "_keras_mask", None) is None
    keep = L.Lambda(lambda t: t, mask=lambda t, m: m)(eager)
    assert keep._keras_mask.numpy().tolist() == [[True, False, True]]


@pytest.mark.parametrize("function", [3, "abc", None, [1]])
def test_lambda_refuses_what_is_not_callable(function):
    with pytest.raises(TypeError, match="^unsupported callable$"):
        L.Lambda(function)


def test_attention_compute_mask_gives_a_tensor():
    mask = L.Attention().compute_mask([tf.ones((1, 2, 2)), tf.ones((1, 3, 2))],
                                      [np.array([[True, False]]), None])
    assert isinstance(mask, tf.Tensor) and mask.numpy().tolist() == [[True, False]]
    assert L.Attention().compute_mask([tf.ones((1, 2, 2))] * 2, [None, None]) is None


@pytest.mark.parametrize("axes", [5, 4, -5, (1, 4)])
def test_multi_head_attention_refuses_axes_out_of_range(axes):
    layer = L.MultiHeadAttention(2, 3, attention_axes=axes)
    with pytest.raises(IndexError, match="is out of bounds for axis 0 with size 4"):
        layer(tf.ones((2, 3, 4)), tf.ones((2, 3, 4)))


def test_multi_head_attention_takes_negative_axes_in_range():
    out = L.MultiHeadAttention(2, 3, attention_axes=-3)(tf.ones((2, 3, 4)), tf.ones((2, 3, 4)))
    assert out.shape == (2, 3, 4)


def _with_linspace_weights(layer, shape):
    x = np.linspace(-1, 1, int(np.prod(shape)), dtype=np.float32).reshape(shape)
    layer(x)
    for i, w in enumerate(layer.weights):
        w.assign(np.linspace(-0.5, 0.5 + i, w.shape.num_elements(),
                             dtype=np.float32).reshape(w.shape))
    return [t.numpy() for t in tf.nest.flatten(layer(x))]


def test_conv_lstm_channels_first_matches_tf():
    (seq,) = _with_linspace_weights(
        L.ConvLSTM2D(1, 2, data_format="channels_first", return_sequences=True),
        (1, 2, 2, 3, 3))
    np.testing.assert_allclose(seq, [[[[[0.45158, 0.4486], [0.44256, 0.43951]]],
                                      [[[0.73166, 0.63905], [0.58423, 0.57036]]]]], atol=1e-5)
    out, h, c = _with_linspace_weights(
        L.ConvLSTM1D(2, 2, data_format="channels_first", padding="same", strides=2,
                     return_state=True), (1, 2, 1, 4))
    np.testing.assert_allclose(out, [[[0.64596, 0.44024], [0.76665, 0.62045]]], atol=1e-5)
    np.testing.assert_allclose(h, out)
    np.testing.assert_allclose(c, [[[0.76834, 0.47253], [1.01216, 0.72574]]], atol=1e-5)


def test_conv_lstm_channels_first_with_unknown_batch_and_time():
    inputs = tf.keras.Input((None, 1, 5, 4))
    layer = L.ConvLSTM2D(2, 2, data_format="channels_first", strides=2, return_sequences=True)
    model = tf.keras.Model(inputs, layer(inputs))
    assert model.output_shape == (None, None, 2, 2, 2)
    assert model(tf.ones((3, 2, 1, 5, 4))).shape == (3, 2, 2, 2, 2)
    with pytest.raises(ValueError, match=r"The channel dimension of the inputs \(last axis\) "
                                         "should be defined. Found None."):
        L.ConvLSTM2D(2, 2, data_format="channels_first")(tf.keras.Input((3, None, 4, 4)))


def test_built_convolutions_input_specs():
    # depthwise convolutions ask for a least rank, transposed and separable ones an exact one
    layer = L.DepthwiseConv2D(2)
    layer(tf.ones((1, 4, 4, 3)))
    assert repr(layer.input_spec) == "InputSpec(min_ndim=4, axes={-1: 3})"
    layer = L.SeparableConv1D(2, 2)
    layer(tf.ones((1, 4, 3)))
    assert repr(layer.input_spec) == "InputSpec(ndim=3, axes={-1: 3})"


def test_conv_lstm_checks_its_inputs_rank():
    with pytest.raises(ValueError, match='Input 0 of layer "conv_lstm2d" is incompatible with '
                                         "the layer: expected ndim=5, found ndim=4"):
        L.ConvLSTM2D(2, 2, name="conv_lstm2d")(tf.ones((2, 3, 4, 4)))


def _in_function_with_unknown_dims(layer, x, spec):
    """`layer` built on `x`, then called on it in a function of `spec` (unknown dims)."""
    eager = layer(x)
    traced = tf.function(lambda v: layer(v), input_signature=[tf.TensorSpec(spec)])(x)
    np.testing.assert_allclose(traced.numpy(), eager.numpy(), rtol=1e-5, atol=1e-6)
    return traced


def test_built_layers_run_where_a_call_does_not_know_the_built_dims():
    # TF's layers use the dims they were built for (channels, steps)
    x = np.random.RandomState(0).rand(2, 4, 3).astype(np.float32)
    out = _in_function_with_unknown_dims(L.GroupNormalization(groups=2, axis=1), x,
                                         [None, None, 3])
    assert out.shape == (2, 4, 3)
    out = _in_function_with_unknown_dims(L.LocallyConnected1D(2, 2), x, [None, None, 3])
    assert out.shape == (2, 3, 2)
    x = np.random.RandomState(1).rand(2, 3, 2, 4, 4).astype(np.float32)
    out = _in_function_with_unknown_dims(
        L.ConvLSTM2D(2, 2, data_format="channels_first"), x, [None, None, None, None, 4])
    assert out.shape == (2, 2, 3, 3)


def test_outputs_that_carry_masks_keep_them():
    # a layer giving back its (masked) input does not overwrite the input's mask, and a
    # layer whose inner layers masked its outputs keeps their masks, as in Keras
    ids = tf.constant([[1, 0, 2]])
    invert = lambda: L.Lambda(lambda t: t, mask=lambda i, m: tf.logical_not(m))  # noqa: E731
    embedded = L.Embedding(4, 2, mask_zero=True)(ids)
    same = invert()(embedded)
    assert embedded._keras_mask.numpy().tolist() == [[True, False, True]]
    assert same._keras_mask.numpy().tolist() == [[True, False, True]]
    inputs = tf.keras.Input((3,), dtype="int32")
    masked = L.Embedding(4, 2, mask_zero=True)(inputs)
    model = tf.keras.Model(inputs, [invert()(masked), L.LSTM(2, return_sequences=True)(masked)])
    assert [o._keras_mask.numpy().tolist() for o in model(ids)] == [[[True, False, True]]] * 2

    class Inner(L.Layer):
        def __init__(self):
            super().__init__()
            self.embedding = L.Embedding(4, 2, mask_zero=True)

        def call(self, x):
            return self.embedding(x)

        def compute_mask(self, inputs, mask=None):
            return tf.ones_like(inputs, tf.bool)

    assert Inner()(ids)._keras_mask.numpy().tolist() == [[True, False, True]]


def test_dense_of_an_integer_dtype_refuses_to_build():
    # as tf_keras: TypeError at build (it was the initializer's ValueError)
    with pytest.raises(TypeError, match=r"A Dense layer can only be built with a "
                                        r"floating-point dtype. Received: dtype=<dtype: 'int32'>"):
        tf.keras.layers.Dense(2, dtype="int32")(tf.ones((1, 2)))


def test_dense_output_shape_needs_a_batch_of_features():
    # tf_keras 2.21: a rank-1 shape is refused (it was read as features alone)
    with pytest.raises(ValueError, match=r"Shape \(5,\) must have rank at least 2"):
        tf.keras.layers.Dense(3).compute_output_shape((5,))
    assert tf.keras.layers.Dense(3).compute_output_shape((None, 2, 5)) == \
        tf.TensorShape([None, 2, 3])
