"""Random image augmentation layers: flips, rotations, zooms, translations, contrast,
brightness, crops and resizes, applied when training and passing images through otherwise.

Images are ``(height, width, channels)`` or batches of them, channels last; outputs are in
the layer's compute dtype.

>>> layer = tf.keras.layers.RandomFlip("horizontal", seed=1)
>>> layer(np.array([[[1.0], [2.0]]]), training=False).numpy().ravel()
array([1., 2.], dtype=float32)
"""
import math

from eagerflow._src.backend.api_export import export
from eagerflow._src.core import dtypes as _dtypes
from eagerflow._src.core.tensor_shape import TensorShape
from eagerflow._src.ops import array_ops, cast_ops, image_ops, math_ops
from eagerflow._src.keras import backend
from eagerflow._src.keras.engine.base_layer import Layer
from eagerflow._src.keras.utils.dataset_utils import interpolation_method

_FILL_MODES = ("reflect", "wrap", "constant", "nearest")
_INTERPOLATIONS = ("nearest", "bilinear")


def _check_fill_and_interpolation(fill_mode, interpolation):
    if fill_mode not in _FILL_MODES:
        raise NotImplementedError(f"Unknown `fill_mode` {fill_mode}. Only `reflect`, `wrap`, "
                                  f"`constant` and `nearest` are supported.")
    if interpolation not in _INTERPOLATIONS:
        raise NotImplementedError(f"Unknown `interpolation` {interpolation}. Only `nearest` "
                                  f"and `bilinear` are supported.")


def _range(factor):
    """(lower, upper) of a factor given as one number (symmetric) or a pair."""
    if isinstance(factor, (tuple, list)):
        return factor[0], factor[1]
    return -factor, factor


def _check_within_one(name, factor, bounds):
    if abs(bounds[0]) > 1.0 or abs(bounds[1]) > 1.0:
        raise ValueError(f"`{name}` argument must have values between [-1, 1]. Received: "
                         f"{name}={factor}")


class _RandomLayer(Layer):
    """A layer drawing random numbers from its seed, acting only when training."""

    def __init__(self, seed=None, **kwargs):
        self._rng_type = kwargs.pop("rng_type", None)
        super().__init__(**kwargs)
        self.seed = seed
        self._random_generator = backend.RandomGenerator(seed, rng_type="stateful")
        self.supports_masking = False

    def call(self, inputs, training=True):
        images = cast_ops.cast(inputs, self.compute_dtype)
        unbatched = images.shape.rank == 3
        if unbatched:
            images = array_ops.expand_dims(images, 0)
        out = backend.in_train_phase(lambda: self._augment(images),
                                     lambda: self._inference(images), training)
        out.set_shape(self.compute_output_shape(images.shape))  # static dims a cond loses
        return array_ops.squeeze(out, 0) if unbatched else out

    def _inference(self, images):
        return images

    def _uniform(self, shape, low, high):
        return self._random_generator.random_uniform(shape, low, high)

    def compute_output_shape(self, input_shape):
        return input_shape

    def get_config(self):
        # Keras 2's order: the base entries, the layer's own arguments, then the seed
        return {**super().get_config(), "rng_type": self._rng_type or "stateful",
                **self._own_config(), "seed": self.seed}

    def _own_config(self):
        return {}


class _TransformLayer(_RandomLayer):
    def __init__(self, fill_mode="reflect", interpolation="bilinear", seed=None,
                 fill_value=0.0, **kwargs):
        super().__init__(seed=seed, **kwargs)
        _check_fill_and_interpolation(fill_mode, interpolation)
        self.fill_mode, self.fill_value = fill_mode, fill_value
        self.interpolation = interpolation

    def _augment(self, images):
        dims = array_ops.shape(images)
        height = cast_ops.cast(dims[1], _dtypes.float32)
        width = cast_ops.cast(dims[2], _dtypes.float32)
        transforms = self._transforms(dims[0], height, width)
        out = image_ops.projective_transform(images, transforms, self.fill_mode,
                                             self.fill_value, self.interpolation)
        return cast_ops.cast(out, self.compute_dtype)

    def _own_config(self):
        return {"fill_mode": self.fill_mode, "fill_value": self.fill_value,
                "interpolation": self.interpolation}


@export("keras.layers.RandomRotation", "keras.layers.experimental.preprocessing.RandomRotation")
class RandomRotation(_TransformLayer):
    """Rotates each image by a random angle in [lower, upper] * 2 pi (`factor` a pair, or
    one number f for [-f, f]), filling the uncovered area by `fill_mode`."""

    def __init__(self, factor, fill_mode="reflect", interpolation="bilinear", seed=None,
                 fill_value=0.0, **kwargs):
        super().__init__(fill_mode, interpolation, seed, fill_value, **kwargs)
        self.factor = factor
        self.lower, self.upper = _range(factor)
        if self.upper < self.lower:
            raise ValueError(f"`factor` argument cannot have a negative value. Received: "
                             f"factor={factor}")

    def _transforms(self, batch, height, width):
        angles = self._uniform(array_ops.stack([batch]), self.lower * 2 * math.pi,
                               self.upper * 2 * math.pi)
        cos, sin = math_ops.cos(angles), math_ops.sin(angles)
        x_offset = ((width - 1) - (cos * (width - 1) - sin * (height - 1))) / 2.0
        y_offset = ((height - 1) - (sin * (width - 1) + cos * (height - 1))) / 2.0
        zeros = array_ops.zeros_like(angles)
        return array_ops.stack([cos, -sin, x_offset, sin, cos, y_offset, zeros, zeros], 1)

    def _own_config(self):
        return {"factor": self.factor, **super()._own_config()}


@export("keras.layers.RandomZoom", "keras.layers.experimental.preprocessing.RandomZoom")
class RandomZoom(_TransformLayer):
    """Zooms each image by a random factor: a positive `height_factor` zooms out, a negative
    one in (by up to that fraction); `width_factor` None keeps the aspect ratio."""

    def __init__(self, height_factor, width_factor=None, fill_mode="reflect",
                 interpolation="bilinear", seed=None, fill_value=0.0, **kwargs):
        super().__init__(fill_mode, interpolation, seed, fill_value, **kwargs)
        self.height_factor, self.width_factor = height_factor, width_factor
        # (as Keras 2: the bounds may come in either order, and the width's only have a
        # lower limit)
        self.height_lower, self.height_upper = _range(height_factor)
        _check_within_one("height_factor", height_factor,
                          (self.height_lower, self.height_upper))
        if width_factor is not None:
            self.width_lower, self.width_upper = _range(width_factor)
            if self.width_lower < -1.0 or self.width_upper < -1.0:
                raise ValueError(f"`width_factor` argument must have values larger than -1. "
                                 f"Received: width_factor={width_factor}")

    def _transforms(self, batch, height, width):
        shape = array_ops.stack([batch, 1])
        zoom_y = self._uniform(shape, 1.0 + self.height_lower, 1.0 + self.height_upper)
        zoom_x = zoom_y if self.width_factor is None else \
            self._uniform(shape, 1.0 + self.width_lower, 1.0 + self.width_upper)
        x_offset = (width - 1.0) / 2.0 * (1.0 - zoom_x)
        y_offset = (height - 1.0) / 2.0 * (1.0 - zoom_y)
        zeros = array_ops.zeros_like(zoom_x)
        return array_ops.concat([zoom_x, zeros, x_offset, zeros, zoom_y, y_offset, zeros, zeros],
                                1)

    def _own_config(self):
        return {"height_factor": self.height_factor, "width_factor": self.width_factor,
                **super()._own_config()}


@export("keras.layers.RandomTranslation",
        "keras.layers.experimental.preprocessing.RandomTranslation")
class RandomTranslation(_TransformLayer):
    """Shifts each image by random fractions of its height and width."""

    def __init__(self, height_factor, width_factor, fill_mode="reflect",
                 interpolation="bilinear", seed=None, fill_value=0.0, **kwargs):
        super().__init__(fill_mode, interpolation, seed, fill_value, **kwargs)
        self.height_factor, self.width_factor = height_factor, width_factor
        self.height_lower, self.height_upper = _range(height_factor)
        self.width_lower, self.width_upper = _range(width_factor)
        for name, factor, bounds in (
                ("height_factor", height_factor, (self.height_lower, self.height_upper)),
                ("width_factor", width_factor, (self.width_lower, self.width_upper))):
            if bounds[1] < bounds[0]:
                raise ValueError(f"`{name}` cannot have upper bound less than lower bound, "
                                 f"got {factor}")
            if name == "height_factor":
                _check_within_one(name, factor, bounds)
            elif abs(bounds[0]) > 1.0 or abs(bounds[1]) > 1.0:  # (Keras 2 words it so)
                raise ValueError(f"`width_factor` must have values between [-1, 1], got "
                                 f"{factor}")

    def _transforms(self, batch, height, width):
        shape = array_ops.stack([batch, 1])
        dy = self._uniform(shape, self.height_lower, self.height_upper) * height
        dx = self._uniform(shape, self.width_lower, self.width_upper) * width
        ones, zeros = array_ops.ones_like(dx), array_ops.zeros_like(dx)
        return array_ops.concat([ones, zeros, -dx, zeros, ones, -dy, zeros, zeros], 1)

    def _own_config(self):
        return {"height_factor": self.height_factor, "width_factor": self.width_factor,
                **super()._own_config()}


class _RandomResize(_RandomLayer):
    def __init__(self, factor, interpolation="bilinear", seed=None, **kwargs):
        super().__init__(seed=seed, **kwargs)
        self.factor, self.interpolation = factor, interpolation
        self.lower, self.upper = _range(factor)
        if self.upper < self.lower:
            raise ValueError(f"`factor` argument cannot have an upper bound {self._less} than "
                             f"the lower bound. Received: factor={factor}")
        if self.lower < -1.0 or self.upper < -1.0:
            raise ValueError(f"`factor` argument must have values larger than -1. Received: "
                             f"factor={factor}")
        self._method = interpolation_method(interpolation)  # (any case; checked now)

    def call(self, inputs, training=True):
        if training is not None and not hasattr(training, "dtype") and not training:
            return cast_ops.identity(inputs)  # (Keras returns them as given: uint8 stays)
        return super().call(inputs, training)

    def _augment(self, images):
        dims = array_ops.shape(images)
        axis = self._axis
        scale = self._uniform([], 1.0 + self.lower, 1.0 + self.upper)
        new = cast_ops.cast(scale * cast_ops.cast(dims[axis], _dtypes.float32), "int32")
        size = array_ops.stack([new, dims[2]] if axis == 1 else [dims[1], new])
        out = image_ops.resize(images, size, method=self._method)
        return cast_ops.cast(out, self.compute_dtype)

    def compute_output_shape(self, input_shape):
        shape = TensorShape(input_shape).as_list()
        shape[self._axis - 4] = None
        return TensorShape(shape)

    def _own_config(self):
        return {"factor": self.factor, "interpolation": self.interpolation}


@export("keras.layers.RandomHeight", "keras.layers.experimental.preprocessing.RandomHeight")
class RandomHeight(_RandomResize):
    """Resizes the images' height by a random factor in [1 + lower, 1 + upper]."""
    _axis = 1
    _less = "lesser"  # (Keras 2's words)


@export("keras.layers.RandomWidth", "keras.layers.experimental.preprocessing.RandomWidth")
class RandomWidth(_RandomResize):
    """Resizes the images' width by a random factor in [1 + lower, 1 + upper]."""
    _axis = 2
    _less = "less"
