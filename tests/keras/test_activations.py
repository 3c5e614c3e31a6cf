"""tf.keras.activations: values against NumPy formulas, Keras 2's relu options and
hard_sigmoid, softmax's rank rule, the logits kept for losses, gradients, tf.function, and
get/serialize/deserialize, as tf_keras 2.21 has them."""
import math

import numpy as np
import pytest

import eagerflow as tf
from eagerflow.keras import activations

X = np.array([-3.0, -1.0, 0.0, 0.5, 2.0, 7.0], np.float32)
SELU_ALPHA, SELU_SCALE = 1.6732632423543772, 1.0507009873554805
ERF = np.vectorize(math.erf)


def close(x, expected, rtol=1e-6, atol=1e-7):
    np.testing.assert_allclose(np.asarray(x), expected, rtol=rtol, atol=atol)


def sigmoid(x):
    return 1 / (1 + np.exp(-x))


def softplus(x):
    return np.log1p(np.exp(x))


FORMULAS = {
    "elu": lambda x: np.where(x > 0, x, np.expm1(x)),
    "selu": lambda x: SELU_SCALE * np.where(x > 0, x, SELU_ALPHA * np.expm1(x)),
    "softplus": softplus,
    "softsign": lambda x: x / (1 + np.abs(x)),
    "tanh": np.tanh,
    "sigmoid": sigmoid,
    "exponential": np.exp,
    "hard_sigmoid": lambda x: np.clip(0.2 * x + 0.5, 0, 1),
    "linear": lambda x: x,
    "gelu": lambda x: 0.5 * x * (1 + ERF(x / np.sqrt(2))),
    "swish": lambda x: x * sigmoid(x),
    "silu": lambda x: x * sigmoid(x),
    "mish": lambda x: x * np.tanh(softplus(x)),
    "relu": lambda x: np.maximum(x, 0),
    "relu6": lambda x: np.clip(x, 0, 6),
    "leaky_relu": lambda x: np.where(x > 0, x, 0.2 * x),
}


@pytest.mark.parametrize("name", sorted(FORMULAS))
def test_activations_match_numpy_formulas(name):
    out = getattr(activations, name)(tf.constant(X))
    assert out.dtype == tf.float32 and out.shape == (6,)
    close(out, FORMULAS[name](X.astype(np.float64)), rtol=2e-6)


def test_activations_keep_float64():
    x = X.astype(np.float64)
    for name in ("sigmoid", "swish", "mish", "elu", "hard_sigmoid"):
        out = getattr(activations, name)(x)
        assert out.dtype == tf.float64
        close(out, FORMULAS[name](x), rtol=1e-12, atol=1e-15)


def test_gelu_approximation_and_elu_alpha():
    x = X.astype(np.float64)
    tanh_form = 0.5 * x * (1 + np.tanh(np.sqrt(2 / np.pi) * (x + 0.044715 * x ** 3)))
    close(activations.gelu(X, approximate=True), tanh_form, rtol=2e-5, atol=1e-6)
    close(activations.elu(X, alpha=0.5), np.where(x > 0, x, 0.5 * np.expm1(x)))


@pytest.mark.parametrize("kwargs,expected", [
    (dict(alpha=0.1), [-0.3, -0.1, 0.0, 0.5, 2.0, 7.0]),
    (dict(max_value=1.5), [0.0, 0.0, 0.0, 0.5, 1.5, 1.5]),
    (dict(max_value=6), [0.0, 0.0, 0.0, 0.5, 2.0, 6.0]),
    (dict(threshold=0.4), [0.0, 0.0, 0.0, 0.5, 2.0, 7.0]),
    (dict(alpha=0.1, threshold=0.4), [-0.34, -0.14, -0.04, 0.5, 2.0, 7.0]),
    (dict(alpha=0.1, max_value=1.5, threshold=0.4), [-0.34, -0.14, -0.04, 0.5, 1.5, 1.5]),
    (dict(alpha=0.2, max_value=6.0), [-0.6, -0.2, 0.0, 0.5, 2.0, 6.0]),
])
def test_relu_options(kwargs, expected):
    close(activations.relu(tf.constant(X), **kwargs), expected)


def test_relu_details_as_keras_2():
    # below a threshold, x is multiplied by 0: negative inputs give -0.0, as in Keras
    zeroed = activations.relu(tf.constant(X), threshold=0.4).numpy()
    assert np.signbit(zeroed[:2]).all() and not np.signbit(zeroed[2])
    ints = tf.constant([-1, 2, 9])
    assert activations.relu(ints).numpy().tolist() == [0, 2, 9]
    assert activations.relu(ints, max_value=5).numpy().tolist() == [0, 2, 5]
    assert activations.relu(ints, threshold=2).numpy().tolist() == [0, 0, 9]
    leaky = activations.relu(ints, alpha=0.5)  # leaky relu computes integers as float32
    assert leaky.dtype == tf.float32 and leaky.numpy().tolist() == [-0.5, 2.0, 9.0]
    close(activations.relu([-1.0, 2.0]), [0.0, 2.0])


def test_softmax_axes_and_rank():
    x = X.reshape(2, 3)
    e = np.exp(x - x.max(-1, keepdims=True))
    close(activations.softmax(x), e / e.sum(-1, keepdims=True))
    e0 = np.exp(x - x.max(0, keepdims=True))
    close(activations.softmax(x, axis=0), e0 / e0.sum(0, keepdims=True))
    cube = X.reshape(1, 2, 3)
    whole = np.exp(cube - cube.max()) / np.exp(cube - cube.max()).sum()
    close(activations.softmax(cube, axis=(1, 2)), whole)
    with pytest.raises(ValueError) as info:
        activations.softmax(tf.constant([1.0, 2.0]))
    assert str(info.value) == "Cannot apply softmax to a tensor that is 1D. Received input: [1. 2.]"
    with pytest.raises(ValueError, match="Cannot apply softmax to a tensor that is 1D"):
        activations.softmax(tf.constant(1.0))
    close(activations.log_softmax(x), np.log(e / e.sum(-1, keepdims=True)))


def test_softmax_and_sigmoid_keep_their_logits():
    logits = tf.constant(X.reshape(2, 3))
    assert activations.softmax(logits)._keras_logits is logits
    assert activations.sigmoid(logits)._keras_logits is logits
    assert not hasattr(activations.tanh(logits), "_keras_logits")


def test_hard_sigmoid_rejects_integers_as_keras():
    with pytest.raises(TypeError):
        activations.hard_sigmoid(tf.constant([1, 2]))


def test_activations_trace_into_functions():
    x = tf.constant(X.reshape(2, 3))
    for name in ("relu", "softmax", "sigmoid", "elu", "swish", "mish", "hard_sigmoid"):
        fn = getattr(activations, name)
        close(tf.function(fn)(x), fn(x))
    traced = tf.function(lambda t: activations.relu(t, alpha=0.1, max_value=1.5,
                                                    threshold=0.4))
    close(traced(x), activations.relu(x, alpha=0.1, max_value=1.5, threshold=0.4))


@pytest.mark.parametrize("name", ["sigmoid", "swish", "mish", "gelu", "elu", "softplus",
                                  "softsign", "selu"])
def test_gradients_match_finite_differences(name):
    fn = getattr(activations, name)
    x = np.array([-2.5, -0.7, 0.3, 1.9], np.float64)
    v = tf.Variable(x)
    with tf.GradientTape() as tape:
        y = tf.reduce_sum(fn(v))
    h = 1e-6
    numeric = (FORMULAS[name](x + h) - FORMULAS[name](x - h)) / (2 * h)
    np.testing.assert_allclose(tape.gradient(y, v).numpy(), numeric, rtol=1e-6)


def test_softmax_gradient_is_analytic():
    x = tf.Variable([[0.5, -1.0, 2.0]])
    weights = np.array([[1.0, 2.0, 3.0]], np.float32)
    with tf.GradientTape() as tape:
        y = tf.reduce_sum(activations.softmax(x) * weights)
    s = activations.softmax(x).numpy()
    close(tape.gradient(y, x), s * (weights - (s * weights).sum(-1, keepdims=True)))


# -- identifiers -------------------------------------------------------------------------------

NAMES = ["elu", "exponential", "gelu", "hard_sigmoid", "leaky_relu", "linear", "log_softmax",
         "mish", "relu", "relu6", "selu", "sigmoid", "silu", "softmax", "softplus", "softsign",
         "swish", "tanh"]


def test_get_names_none_and_callables():
    for name in NAMES:
        assert activations.get(name) is getattr(activations, name)
        assert activations.deserialize(name) is getattr(activations, name)
    assert activations.get(None) is activations.linear
    assert activations.get(tf.nn.relu) is tf.nn.relu
    assert activations.silu is activations.swish


def test_get_errors():
    with pytest.raises(TypeError, match="Could not interpret activation function identifier: 3"):
        activations.get(3)
    with pytest.raises(ValueError) as info:
        activations.get("foo")
    assert str(info.value) == "Unknown activation function 'foo' cannot be deserialized."
    with pytest.raises(ValueError, match="^Unknown activation function 'bar' cannot be"):
        tf.keras.layers.Dense(2, activation="bar")


def test_serialize_returns_names():
    assert [activations.serialize(getattr(activations, name)) for name in NAMES] == [
        "swish" if name == "silu" else name for name in NAMES]
    assert activations.serialize(tf.nn.relu) == "relu"
    assert activations.serialize(tf.nn.softmax) == "softmax"


def test_custom_activations_resolve():
    @tf.keras.saving.register_keras_serializable(package="test_activations")
    def doubled(x):
        return 2 * x

    # (a function of the user's serializes to a config naming it; the module's by name)
    config = activations.serialize(doubled)
    assert config == {"module": "builtins", "class_name": "function",
                      "config": "test_activations>doubled", "registered_name": "function"}
    assert activations.get(config) is doubled
    assert activations.serialize(doubled, use_legacy_format=True) == "test_activations>doubled"
    assert activations.serialize(activations.gelu) == "gelu"
    name = "test_activations>doubled"
    assert activations.get(name) is doubled
    assert activations.deserialize("twice", custom_objects={"twice": doubled}) is doubled
    with tf.keras.saving.custom_object_scope({"scoped": doubled}):
        assert activations.get("scoped") is doubled


def test_public_names():
    public = sorted(n for n in dir(activations) if not n.startswith("_"))
    assert public == sorted(NAMES + ["deserialize", "get", "serialize"])


def test_unknown_function_config_names_the_config():
    config = {"module": "builtins", "class_name": "function", "config": "nope",
              "registered_name": "function"}
    with pytest.raises(ValueError, match=r"^Unknown activation function '\{'module': 'builtins', "
                                         r"'class_name': 'function', 'config': 'nope', "
                                         r"'registered_name': 'function'\}' cannot be "
                                         r"deserialized\.$"):
        activations.deserialize(config)
