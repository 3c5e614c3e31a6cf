"""Activation functions (``tf.keras.activations``)."""
from eagerflow._src.keras.activations import (  # noqa: F401
    deserialize, elu, exponential, gelu, get, hard_sigmoid, leaky_relu, linear, log_softmax,
    mish, relu, relu6, selu, serialize, sigmoid, silu, softmax, softplus, softsign, swish, tanh)
