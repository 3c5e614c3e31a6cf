"""Activation layers against NumPy formulas: ReLU's options, LeakyReLU (alpha 0.3 in Keras 2),
PReLU's weights and shared axes, ELU, ThresholdedReLU, Softmax with axes and masks; configs,
masks passing through, gradients, tf.function and errors, as tf_keras 2.21 has them."""
import numpy as np
import pytest

import eagerflow as tf
from eagerflow.keras import backend
from eagerflow.keras.layers import ELU, LeakyReLU, PReLU, ReLU, Softmax, ThresholdedReLU

RNG = np.random.default_rng(0)
X = (RNG.normal(size=(2, 3, 4)) * 3).astype(np.float32)


@pytest.fixture(autouse=True)
def fresh_names():
    backend.clear_session()


def close(x, expected, rtol=1e-6, atol=1e-6):
    np.testing.assert_allclose(np.asarray(x), expected, rtol=rtol, atol=atol)


def np_softmax(x, axis):
    e = np.exp(x - x.max(axis, keepdims=True))
    return e / e.sum(axis, keepdims=True)


@pytest.mark.parametrize("layer, formula", [
    (ReLU(), lambda x: np.maximum(x, 0)),
    (ReLU(max_value=6.0), lambda x: np.clip(x, 0, 6)),
    (ReLU(max_value=2.0, negative_slope=0.1, threshold=0.5),
     lambda x: np.where(x >= 2.0, 2.0, np.where(x > 0.5, x, 0.1 * (x - 0.5)))),
    (ReLU(threshold=1.0), lambda x: np.where(x > 1.0, x, 0)),
    (LeakyReLU(), lambda x: np.where(x > 0, x, 0.3 * x)),
    (LeakyReLU(alpha=0.01), lambda x: np.where(x > 0, x, 0.01 * x)),
    (ELU(), lambda x: np.where(x > 0, x, np.expm1(x))),
    (ELU(alpha=0.5), lambda x: np.where(x > 0, x, 0.5 * np.expm1(x))),
    (ThresholdedReLU(), lambda x: np.where(x > 1.0, x, 0)),
    (ThresholdedReLU(theta=2.5), lambda x: np.where(x > 2.5, x, 0)),
    (Softmax(), lambda x: np_softmax(x, -1)),
    (Softmax(axis=1), lambda x: np_softmax(x, 1)),
    (Softmax(axis=[1]), lambda x: np_softmax(x, 1)),
    (Softmax(axis=(1, 2)), lambda x: np_softmax(x, (1, 2))),
])
def test_values_and_shapes(layer, formula):
    close(layer(X), formula(X.astype(np.float64)))
    assert layer.compute_output_shape(tf.TensorShape([None, 3, 4])) == [None, 3, 4]
    assert layer.supports_masking


def test_configs_as_keras_2():
    assert LeakyReLU().get_config()["alpha"] == float(np.float32(0.3))
    relu = ReLU(max_value=6).get_config()
    assert {k: relu[k] for k in ("max_value", "negative_slope", "threshold")} == \
        {"max_value": 6.0, "negative_slope": 0.0, "threshold": 0.0}
    assert isinstance(relu["max_value"], np.ndarray)  # Keras 2 keeps floatx NumPy values
    assert ReLU().get_config()["max_value"] is None
    assert ELU(0.5).get_config()["alpha"] == 0.5
    assert ThresholdedReLU(2).get_config()["theta"] == 2.0
    assert Softmax(axis=(1, 2)).get_config()["axis"] == (1, 2)
    assert "robust_masking" not in Softmax().get_config()
    assert Softmax(robust_masking=True).get_config()["robust_masking"] is True
    for layer in (ReLU(max_value=3.0, negative_slope=0.2), LeakyReLU(0.2), ELU(2.0),
                  ThresholdedReLU(0.5), Softmax(axis=1), PReLU(shared_axes=[1, 2])):
        config = layer.get_config()
        clone = type(layer).from_config(config)
        assert str(clone.get_config()) == str(config)
        close(clone(X), layer(X))


@pytest.mark.parametrize("make, message", [
    (lambda: ReLU(max_value=-1.0),
     "max_value of a ReLU layer cannot be a negative value. Received: -1.0"),
    (lambda: ReLU(negative_slope=-0.1),
     "negative_slope of a ReLU layer cannot be a negative value. Received: -0.1"),
    (lambda: ReLU(threshold=None),
     "threshold of a ReLU layer cannot be a negative value. Received: None"),
    (lambda: LeakyReLU(None), "The alpha value of a Leaky ReLU layer cannot be None, Expecting "
                              "a float. Received: None"),
    (lambda: ELU(None), "Alpha of an ELU layer cannot be None, expecting a float. Received: "
                        "None"),
    (lambda: ThresholdedReLU(None), "Theta of a Thresholded ReLU layer cannot be None, "
                                    "expecting a float. Received: None"),
    (lambda: ThresholdedReLU(-1.0), "The theta value of a Thresholded ReLU layer should be >=0. "
                                    "Received: -1.0"),
])
def test_argument_errors(make, message):
    with pytest.raises(ValueError) as info:
        make()
    assert str(info.value) == message


# -- PReLU ---------------------------------------------------------------------------------

def test_prelu_weights_values_and_gradient():
    layer = PReLU()
    layer(X)
    assert [w.name for w in layer.weights] == ["p_re_lu/alpha:0"]
    assert layer.alpha.shape == (3, 4)
    alpha = RNG.uniform(0.1, 0.5, size=(3, 4)).astype(np.float32)
    layer.set_weights([alpha])
    close(layer(X), np.where(X > 0, X, alpha * X))
    x = tf.constant(X)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.reduce_sum(layer(x))
    dx, dalpha = tape.gradient(y, [x, layer.alpha])
    close(dx, np.where(X > 0, 1.0, alpha * np.ones_like(X)))
    close(dalpha, np.minimum(X, 0).sum(0), rtol=1e-5)


def test_prelu_shared_axes_and_input_spec():
    layer = PReLU(shared_axes=[1], alpha_initializer="ones", alpha_regularizer="l2")
    y = layer(X)
    assert layer.alpha.shape == (1, 4)
    close(y, X)
    assert len(layer.losses) == 1
    assert PReLU(shared_axes=2).get_config()["shared_axes"] == [2]
    with pytest.raises(ValueError, match="expected axis 2 of input shape to have value 4"):
        layer(np.ones((2, 5, 5), np.float32))
    image = PReLU(shared_axes=[1, 2])
    image(np.ones((1, 5, 6, 3), np.float32))
    assert image.alpha.shape == (1, 1, 3)
    image(np.ones((2, 7, 2, 3), np.float32))  # shared axes take any size


# -- Softmax masks -----------------------------------------------------------------------------

def test_softmax_mask_drops_entries():
    mask = np.array([[[1, 1, 0, 1]]] * 3 * 2).reshape(2, 3, 4).astype(bool)
    y = Softmax()(X, mask=mask)
    masked = np.where(mask, X, -np.inf)
    close(y, np_softmax(masked, -1))
    close(Softmax()(X, mask=mask[:1, :1]), np_softmax(masked, -1))  # broadcast
    robust = Softmax(robust_masking=True)(X, mask=mask.astype(np.float32))
    close(robust, np_softmax(masked, -1))


def test_softmax_float16_mask_uses_a_finite_negative():
    mask = np.array([[True, False]])
    y = Softmax(dtype="float16")(np.array([[1.0, 2.0]], np.float16), mask=mask)
    assert y.dtype == tf.float16
    np.testing.assert_allclose(np.asarray(y, np.float32), [[1.0, 0.0]])


def test_masks_pass_through():
    x = tf.constant(X)
    x._keras_mask = tf.constant(np.array([[True, False, True]] * 2))
    for layer in (ReLU(), LeakyReLU(), ELU(), ThresholdedReLU(), PReLU()):
        y = layer(x)
        np.testing.assert_array_equal(y._keras_mask, x._keras_mask)


def test_in_function_equals_eager():
    for layer in (ReLU(max_value=1.0, negative_slope=0.2), LeakyReLU(), ELU(0.7),
                  ThresholdedReLU(0.5), Softmax(axis=(1, 2)), PReLU()):
        close(tf.function(lambda x: layer(x))(X), layer(X))


def test_gradients():
    x = tf.constant(X)
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        outputs = [ReLU(max_value=2.0)(x), LeakyReLU()(x), ELU()(x), ThresholdedReLU()(x)]
    expected = [((X > 0) & (X < 2)).astype(np.float32), np.where(X > 0, 1, 0.3),
                np.where(X > 0, 1, np.exp(X)), (X > 1).astype(np.float32)]
    for y, want in zip(outputs, expected):
        close(tape.gradient(y, x), want, rtol=1e-5)


def test_relu_parameters_convert_to_an_integer_input_as_in_tf_keras():
    # tf_keras 2.21 keeps the parameters as NumPy floatx scalars, which TF converts to an
    # integer input's dtype (Python floats it would refuse)
    x = np.array([[-3, -1, 0, 2, 5]], np.int32)
    capped = tf.keras.layers.ReLU(max_value=3)(x)
    assert capped.dtype == tf.int32 and capped.numpy().tolist() == [[0, 0, 0, 2, 3]]
    above = tf.keras.layers.ReLU(threshold=1)(x)
    assert above.dtype == tf.int32 and above.numpy().tolist() == [[0, 0, 0, 2, 5]]
    leaky = tf.keras.layers.ReLU(negative_slope=0.5)(x)
    assert leaky.dtype == tf.float32 and leaky.numpy().tolist() == [[-1.5, -0.5, 0.0, 2.0, 5.0]]
    with pytest.raises(tf.errors.InvalidArgumentError):  # int32 times the float32 mask
        tf.keras.layers.ThresholdedReLU(1.0)(x)


@pytest.mark.parametrize("axis", [-1, 0, [0]])
def test_softmax_layer_refuses_a_vector_as_tf_keras(axis):
    # tf_keras's layer goes through backend.softmax, which refuses rank 0 and 1
    with pytest.raises(ValueError, match=r"Cannot apply softmax to a tensor that is 1D. "
                                         r"Received input: \[1. 1. 1.\]"):
        Softmax(axis=axis)(np.ones(3, np.float32))
    with pytest.raises(ValueError, match="Received input: 3.0"):
        Softmax()(tf.constant(3.0))


@pytest.mark.parametrize("axis", [-1, [-1]])
def test_softmax_layer_output_keeps_its_logits_for_crossentropy(axis):
    # tf_keras 2.21: the loss reads the logits behind the layer's output, so a saturated
    # softmax gives the exact cross-entropy (200), not the clipped one (about 16.1)
    logits = tf.constant([[100.0, -100.0, 0.0]])
    probabilities = Softmax(axis=axis)(logits)
    loss = tf.keras.losses.CategoricalCrossentropy()([[0.0, 1.0, 0.0]], probabilities)
    np.testing.assert_allclose(float(loss), 200.0, rtol=1e-6)
