"""Pooling and normalization, forward and backward, beside TF (oneDNN kernels vs TF's own).

    python bench/pooling_normalization.py [--reps 5] [--load]

Each case times one forward pass and the gradient of its output with respect to
its input (and parameters) on a CNN-sized or transformer-sized float32 tensor,
eagerly under a tape:

* ``max_pool_2x2``: 2x2/2 max pooling of 32x28x28x16 (NHWC);
* ``avg_pool_3x3_same``: 3x3/1 SAME average pooling of 32x28x28x16;
* ``batch_norm_train``: FusedBatchNormV3 in training on 32x16x16x32 (NHWC);
* ``layer_norm``: Keras LayerNormalization over 256 features of 32x128x256.
"""
import sys

import numpy as np

import harness

_RNG = np.random.default_rng(0)
IMAGES = _RNG.standard_normal((32, 28, 28, 16)).astype(np.float32)
FEATURES = _RNG.standard_normal((32, 16, 16, 32)).astype(np.float32)
TOKENS = _RNG.standard_normal((32, 128, 256)).astype(np.float32)


def _keras_lib(lib):
    return hasattr(lib, "keras") and hasattr(lib, "GradientTape")


def _step(lib, x, forward, variables=()):
    def run():
        with lib.GradientTape() as tape:
            tape.watch(x)
            y = forward(x)
        return tape.gradient(y, [x, *variables])
    return run


def max_pool_2x2(lib, make):
    if not _keras_lib(lib):
        return None
    return _step(lib, make(IMAGES), lambda x: lib.nn.max_pool2d(x, 2, 2, "VALID")), 1


def avg_pool_3x3_same(lib, make):
    if not _keras_lib(lib):
        return None
    return _step(lib, make(IMAGES), lambda x: lib.nn.avg_pool2d(x, 3, 1, "SAME")), 1


def batch_norm_train(lib, make):
    if not _keras_lib(lib):
        return None
    layer = lib.keras.layers.BatchNormalization()
    layer.build(FEATURES.shape)
    return _step(lib, make(FEATURES), lambda x: layer(x, training=True),
                 layer.trainable_variables), 1


def layer_norm(lib, make):
    if not _keras_lib(lib):
        return None
    layer = lib.keras.layers.LayerNormalization()
    layer.build(TOKENS.shape)
    return _step(lib, make(TOKENS), layer, layer.trainable_variables), 1


CASES = {
    "max_pool_2x2": max_pool_2x2,
    "avg_pool_3x3_same": avg_pool_3x3_same,
    "batch_norm_train": batch_norm_train,
    "layer_norm": layer_norm,
}

if __name__ == "__main__":
    sys.exit(harness.main(CASES, __file__, reps=5))
