"""Convolution layers piece by piece, beside TF: where a CNN's training step spends its time.

    python bench/conv_activation.py [--reps 20] [--rounds 3] [--load]

The shapes are the second layer of the small CNN of ``keras_train.py``
(32x26x26x16 in, 3x3, 32 filters, VALID) and its ResNet-style stack's 16-filter
layer (32x32x32x16, 3x3, SAME), float32, channels last:

* ``conv_forward``: Conv2D alone;
* ``conv_gradients``: Conv2D and both its gradients (input and filter), under a tape;
* ``conv_bias_relu_function``: Conv2D + BiasAdd + Relu and their gradients in a
  ``function`` (fused into one convolution with its bias and ReLU, as TF fuses);
* ``relu_gradient``: ReLU's gradient (ReluGrad) of a 32x24x24x32 activation;
* ``resnet_conv_gradients``: the ResNet layer, forward and both gradients.
"""
import sys

import numpy as np

import harness

_RNG = np.random.default_rng(0)
X = _RNG.standard_normal((32, 26, 26, 16)).astype(np.float32)
W = (_RNG.standard_normal((3, 3, 16, 32)) * 0.1).astype(np.float32)
B = _RNG.standard_normal(32).astype(np.float32)
RES_X = _RNG.standard_normal((32, 32, 32, 16)).astype(np.float32)
RES_W = (_RNG.standard_normal((3, 3, 16, 16)) * 0.1).astype(np.float32)
ACT = _RNG.standard_normal((32, 24, 24, 32)).astype(np.float32)


def _tf_like(lib):
    return hasattr(lib, "nn") and hasattr(lib, "GradientTape")


def _gradients(lib, x, w, padding):
    def run():
        with lib.GradientTape() as tape:
            tape.watch([x, w])
            y = lib.nn.conv2d(x, w, 1, padding)
        return tape.gradient(y, [x, w])
    return run


def conv_forward(lib, make):
    if not _tf_like(lib):
        return None
    x, w = make(X), make(W)
    return (lambda: lib.nn.conv2d(x, w, 1, "VALID")), 1


def conv_gradients(lib, make):
    if not _tf_like(lib):
        return None
    return _gradients(lib, make(X), make(W), "VALID"), 1


def conv_bias_relu_function(lib, make):
    if not _tf_like(lib):
        return None
    x, w, b = make(X), make(W), make(B)

    @lib.function
    def step(x, w, b):
        with lib.GradientTape() as tape:
            tape.watch([x, w, b])
            y = lib.nn.relu(lib.nn.bias_add(lib.nn.conv2d(x, w, 1, "VALID"), b))
        return tape.gradient(y, [x, w, b])
    return (lambda: step(x, w, b)), 1


def relu_gradient(lib, make):
    if not _tf_like(lib):
        return None
    x = make(ACT)

    def run():
        with lib.GradientTape() as tape:
            tape.watch(x)
            y = lib.nn.relu(x)
        return tape.gradient(y, x)
    return run, 1


def resnet_conv_gradients(lib, make):
    if not _tf_like(lib):
        return None
    return _gradients(lib, make(RES_X), make(RES_W), "SAME"), 1


CASES = {
    "conv_forward": conv_forward,
    "conv_gradients": conv_gradients,
    "conv_bias_relu_function": conv_bias_relu_function,
    "relu_gradient": relu_gradient,
    "resnet_conv_gradients": resnet_conv_gradients,
}

if __name__ == "__main__":
    sys.exit(harness.main(CASES, __file__, reps=20))
