"""Image augmentation layers drawing from a seeded random generator (``RandomFlip``,
``RandomContrast``, ``RandomBrightness``, ``RandomCrop``).

Like Keras 2's, each layer keeps a ``tf.random.Generator`` made from its `seed` (drawn
once when None) and takes a fresh stateless seed from it for every random op, so a
seeded layer gives TF's values call after call.

>>> flip = tf.keras.layers.RandomFlip("horizontal", seed=3)
>>> flip(tf.reshape(tf.range(6.0), [1, 2, 3, 1]), training=True).numpy().ravel()
array([2., 1., 0., 5., 4., 3.], dtype=float32)
"""

from eagerflow._src.backend.api_export import export
from eagerflow._src.ops import (
    array_ops, cast_ops, image_color_ops, image_ops, math_ops, reduction_ops)
from eagerflow._src.core import dtypes as _dtypes
from eagerflow._src.core.tensor_shape import TensorShape
from eagerflow._src.graph import control_flow
from eagerflow._src.keras import backend
from eagerflow._src.keras.layers.preprocessing import _crop, _smart_resize, _spatial_output_shape
from eagerflow._src.keras.engine.base_layer import Layer

_MODES = ("horizontal", "vertical", "horizontal_and_vertical")


class _RandomImageLayer(Layer):
    """A layer with a seeded generator (Keras 2's "stateful" rng type), made at first use."""

    def __init__(self, seed=None, **kwargs):
        kwargs.pop("rng_type", None)  # (in configs: always "stateful" here)
        super().__init__(**kwargs, autocast=False)
        self.seed = seed
        self._random_generator = backend.RandomGenerator(seed, rng_type="stateful")

    def _stateless_seed(self):
        return self._random_generator.make_seed_for_stateless_op()

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


@export("keras.layers.RandomContrast", "keras.layers.experimental.preprocessing.RandomContrast")
class RandomContrast(_RandomImageLayer):
    """Scales each image's deviation from its per-channel mean by a factor drawn from
    ``[1 - lower, 1 + upper]`` when training, then clips to ``[0, 255]``."""

    def __init__(self, factor, seed=None, **kwargs):
        super().__init__(seed=seed, **kwargs)
        self.factor = factor
        if isinstance(factor, (tuple, list)):
            self.lower, self.upper = factor[0], factor[1]
        else:
            self.lower = self.upper = factor
        if self.lower < 0.0 or self.upper < 0.0 or self.lower > 1.0:
            raise ValueError(f"`factor` argument cannot have negative values or values greater "
                             f"than 1.Received: factor={factor}")

    def call(self, inputs, training=True):
        inputs = cast_ops.cast(inputs, self.compute_dtype)
        if not training:
            return inputs
        output = image_color_ops.stateless_random_contrast(
            inputs, 1.0 - self.lower, 1.0 + self.upper, seed=self._stateless_seed())
        return reduction_ops.clip_by_value(output, 0, 255)

    def get_config(self):
        return {**super().get_config(), "factor": self.factor, "seed": self.seed}


_FACTOR_ERROR = ("The `factor` argument should be a number (or a list of two numbers) in the "
                 "range [-1.0, 1.0]. ")
_RANGE_ERROR = "The `value_range` argument should be a list of two numbers. "


@export("keras.layers.RandomBrightness")
class RandomBrightness(_RandomImageLayer):
    """Adds to each image a delta drawn from ``factor * (high - low)`` of `value_range`
    when training, then clips to `value_range`."""

    def __init__(self, factor, value_range=(0, 255), seed=None, **kwargs):
        super().__init__(seed=seed, **kwargs)
        if isinstance(factor, (tuple, list)):
            if len(factor) != 2:
                raise ValueError(_FACTOR_ERROR + f"Got {factor}")
            for f in factor:
                self._check_factor(f)
            self._factor = sorted(factor)
        elif isinstance(factor, (int, float)):
            self._check_factor(factor)
            self._factor = [-abs(factor), abs(factor)]
        else:
            raise ValueError(_FACTOR_ERROR + f"Got {factor}")
        if not isinstance(value_range, (tuple, list)) or len(value_range) != 2:
            raise ValueError(_RANGE_ERROR + f"Got {value_range}")
        self._value_range = sorted(value_range)

    @staticmethod
    def _check_factor(number):
        if number > 1.0 or number < -1.0:
            raise ValueError(_FACTOR_ERROR + f"Got {number}")

    def compute_output_shape(self, input_shape):
        # (Keras's is the base layer's, inferred from `call`: a TensorShape)
        return TensorShape(input_shape)

    def call(self, inputs, training=True):
        images = cast_ops.cast(inputs, self.compute_dtype)
        if not training:
            return images
        rank = images.shape.rank
        if rank == 3:
            shape = (1, 1, 1)
        elif rank == 4:
            shape = [array_ops.shape(images)[0], 1, 1, 1]
        else:
            raise ValueError(f"Expected the input image to be rank 3 or 4. Got inputs.shape = "
                             f"{images.shape}")
        low, high = self._value_range
        delta = self._random_generator.random_uniform(shape, self._factor[0], self._factor[1])
        delta = cast_ops.cast(math_ops.multiply(delta, float(high - low)), images.dtype)
        return reduction_ops.clip_by_value(math_ops.add(images, delta), low, high)

    def get_config(self):
        return {**super().get_config(), "factor": self._factor,
                "value_range": self._value_range, "seed": self.seed}


@export("keras.layers.RandomCrop", "keras.layers.experimental.preprocessing.RandomCrop")
class RandomCrop(_RandomImageLayer):
    """A random (`height`, `width`) window of images when training and they are large
    enough; otherwise (as `CenterCrop`) the centered crop of that aspect ratio, resized."""

    def __init__(self, height, width, seed=None, **kwargs):
        super().__init__(seed=seed, **kwargs)
        self.height, self.width = height, width

    def call(self, inputs, training=True):
        inputs = cast_ops.cast(inputs, self.compute_dtype)
        dims = array_ops.shape(inputs)
        h_diff = math_ops.subtract(dims[-3], self.height)
        w_diff = math_ops.subtract(dims[-2], self.width)

        def random_crop():
            # Keras 2 draws two int32 in [0, int32 max) and takes them modulo the slack
            rands = self._random_generator.random_uniform([2], 0, _dtypes.int32.max, _dtypes.int32)
            top = math_ops.floormod(rands[0], math_ops.add(h_diff, 1))
            left = math_ops.floormod(rands[1], math_ops.add(w_diff, 1))
            return _crop(inputs, top, left, self.height, self.width)

        def resize():
            return cast_ops.cast(_smart_resize(inputs, self.height, self.width),
                                 self.compute_dtype)
        fits = math_ops.logical_and(math_ops.greater_equal(h_diff, 0),
                                    math_ops.greater_equal(w_diff, 0))
        if isinstance(training, bool) or training is None:
            if not training:
                return resize()
        else:
            fits = math_ops.logical_and(fits, cast_ops.cast(training, _dtypes.bool))
        return control_flow.cond(fits, random_crop, resize)

    def compute_output_shape(self, input_shape):
        return _spatial_output_shape(input_shape, self.height, self.width)

    def get_config(self):
        return {**super().get_config(), "height": self.height, "width": self.width,
                "seed": self.seed}
