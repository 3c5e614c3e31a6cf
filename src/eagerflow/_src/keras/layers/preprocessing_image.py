"""Image augmentation layers drawing from a seeded random generator (``RandomFlip``).

Like Keras 2's, each layer keeps a ``tf.random.Generator`` made from its `seed` (drawn
once when None) and takes a fresh stateless seed from it for every random op, so a
seeded layer gives TF's values call after call.

>>> flip = tf.keras.layers.RandomFlip("horizontal", seed=3)
>>> flip(tf.reshape(tf.range(6.0), [1, 2, 3, 1]), training=True).numpy().ravel()
array([2., 1., 0., 5., 4., 3.], dtype=float32)
"""
import random

from eagerflow._src.backend.api_export import export
from eagerflow._src.ops import cast_ops, image_ops, random_ops
from eagerflow._src.keras import backend
from eagerflow._src.keras.engine.base_layer import Layer

_MODES = ("horizontal", "vertical", "horizontal_and_vertical")


class _RandomImageLayer(Layer):
    """A layer with a seeded generator (Keras 2's "stateful" rng type), made at first use."""

    def __init__(self, seed=None, **kwargs):
        super().__init__(**kwargs, autocast=False)
        self.seed = seed
        self._generator = None

    def _stateless_seed(self):
        if self._generator is None:
            seed = self.seed
            if seed is None:
                source = getattr(backend._SEED_GENERATOR, "generator", None) or random
                seed = source.randint(1, int(1e9))
            self._generator = random_ops.Generator.from_seed(
                seed, alg=random_ops.Algorithm.AUTO_SELECT)
        return self._generator.make_seeds()[:, 0]

    def compute_output_shape(self, input_shape):
        return input_shape

    def get_config(self):
        return {**super().get_config(), "rng_type": "stateful"}


@export("keras.layers.RandomFlip", "keras.layers.experimental.preprocessing.RandomFlip")
class RandomFlip(_RandomImageLayer):
    """Flips images left-right and/or up-down, each image with probability 1/2, when
    training (the default of its own `call`); the identity otherwise."""

    def __init__(self, mode="horizontal_and_vertical", seed=None, **kwargs):
        super().__init__(seed=seed, **kwargs)
        if mode not in _MODES:
            raise ValueError(f"RandomFlip layer {self.name} received an unknown mode "
                             f"argument {mode}")
        self.mode = mode
        self.horizontal = mode != "vertical"
        self.vertical = mode != "horizontal"

    def call(self, inputs, training=True):
        inputs = cast_ops.cast(inputs, self.compute_dtype)
        if not training:
            return inputs
        outputs = inputs
        if self.horizontal:
            outputs = image_ops.stateless_random_flip_left_right(outputs, self._stateless_seed())
        if self.vertical:
            outputs = image_ops.stateless_random_flip_up_down(outputs, self._stateless_seed())
        return outputs

    def get_config(self):
        return {**super().get_config(), "mode": self.mode, "seed": self.seed}
