"""Reshaping layers: Reshape, Permute, RepeatVector, and per-axis zero padding, cropping
and upsampling of sequences, images and volumes.

>>> tf.keras.layers.Reshape((-1, 2))(np.zeros((3, 4, 3), np.float32)).shape
TensorShape([3, 6, 2])
>>> tf.keras.layers.UpSampling2D()(np.zeros((1, 2, 2, 3), np.float32)).shape
TensorShape([1, 4, 4, 3])
"""
import math

from eagerflow._src.backend.api_export import export
from eagerflow._src.core.tensor_shape import TensorShape
from eagerflow._src.keras import backend
from eagerflow._src.keras.engine.base_layer import Layer
from eagerflow._src.keras.engine.input_spec import InputSpec
from eagerflow._src.keras.layers.convolutional import normalize_tuple
from eagerflow._src.keras.utils.dataset_utils import interpolation_method
from eagerflow._src.ops import array_ops, cast_ops, math_ops

_ORDINALS = ("1st", "2nd", "3rd")


def _dims(x):
    """`x`'s dims: ints where static, scalar tensors where only known at run time."""
    static = x.shape.as_list()
    if None not in static:
        return static
    dynamic = array_ops.shape(x)
    return [d if d is not None else dynamic[i] for i, d in enumerate(static)]


@export("keras.layers.Reshape")
class Reshape(Layer):
    """Reshapes all but the batch axis to `target_shape`; one entry may be -1.

    >>> tf.keras.layers.Reshape((2, -1)).compute_output_shape((None, 3, 4))
    TensorShape([None, 2, 6])
    """

    def __init__(self, target_shape, **kwargs):
        super().__init__(**kwargs)
        self.target_shape = tuple(target_shape)

    @staticmethod
    def _fix_unknown_dimension(input_shape, output_shape):
        """`output_shape` with its -1 resolved so that it holds as many values as `input_shape`."""
        output_shape = list(output_shape)
        message = (f"total size of new array must be unchanged, input_shape = {input_shape}, "
                   f"output_shape = {output_shape}")
        unknown = [i for i, dim in enumerate(output_shape) if dim < 0]
        if len(unknown) > 1:
            raise ValueError(f"There must be at most one unknown dimension in output_shape. "
                             f"Received: output_shape={output_shape}.")
        known = math.prod(dim for dim in output_shape if dim >= 0)
        original = math.prod(input_shape)
        if unknown:
            if known == 0 or original % known != 0:
                raise ValueError(message)
            output_shape[unknown[0]] = original // known
        elif original != known:
            raise ValueError(message)
        return output_shape

    def compute_output_shape(self, input_shape):
        dims = TensorShape(input_shape).as_list()
        if None in dims[1:]:
            return TensorShape([dims[0]] + [None if d == -1 else d for d in self.target_shape])
        return TensorShape([dims[0]] + self._fix_unknown_dimension(dims[1:], self.target_shape))

    def call(self, inputs):
        batch = inputs.shape[0]  # (the batch dim alone: a ragged input's others are not uniform)
        batch = array_ops.shape(inputs)[0] if batch is None else batch
        outputs = array_ops.reshape(inputs, [batch, *self.target_shape])
        if not outputs.shape.is_fully_defined():  # the -1 of a traced reshape can stay unknown
            outputs.set_shape(self.compute_output_shape(inputs.shape))
        return outputs

    def get_config(self):
        config = super().get_config()
        config["target_shape"] = self.target_shape
        return config


@export("keras.layers.Permute")
class Permute(Layer):
    """Permutes the non-batch axes; `dims` numbers them from 1.

    >>> tf.keras.layers.Permute((2, 1))(np.zeros((4, 10, 64), np.float32)).shape
    TensorShape([4, 64, 10])
    """

    def __init__(self, dims, **kwargs):
        super().__init__(**kwargs)
        self.dims = tuple(dims)
        if sorted(dims) != list(range(1, len(dims) + 1)):
            raise ValueError(f"Invalid permutation argument `dims` for Permute Layer. The set "
                             f"of indices in `dims` must be consecutive and start from 1. "
                             f"Received dims={dims}")
        self.input_spec = InputSpec(ndim=len(self.dims) + 1)

    def call(self, inputs):
        return array_ops.transpose(inputs, (0,) + self.dims)

    def compute_output_shape(self, input_shape):
        dims = TensorShape(input_shape).as_list()
        return TensorShape([dims[0]] + [dims[d] for d in self.dims])

    def get_config(self):
        config = super().get_config()
        config["dims"] = self.dims
        return config


@export("keras.layers.RepeatVector")
class RepeatVector(Layer):
    """Repeats a (batch, features) input `n` times: (batch, n, features).

    >>> tf.keras.layers.RepeatVector(3)(np.zeros((2, 5), np.float32)).shape
    TensorShape([2, 3, 5])
    """

    def __init__(self, n, **kwargs):
        super().__init__(**kwargs)
        self.n = n
        if not isinstance(n, int):
            raise TypeError(f"Expected an integer value for `n`, got {type(n)}.")
        self.input_spec = InputSpec(ndim=2)

    def call(self, inputs):
        return array_ops.tile(array_ops.expand_dims(inputs, 1), [1, self.n, 1])

    def compute_output_shape(self, input_shape):
        dims = TensorShape(input_shape).as_list()
        return TensorShape([dims[0], self.n, dims[1]])

    def get_config(self):
        config = super().get_config()
        config["n"] = self.n
        return config


def _normalize_pairs(value, rank, name):
    """`value` (an int, `rank` ints or `rank` pairs) as `rank` (before, after) pairs."""
    if rank == 1:
        return (normalize_tuple(value, 2, name, allow_zero=True),)
    if isinstance(value, int):
        return ((value, value),) * rank
    if not hasattr(value, "__len__"):
        raise ValueError(f"`{name}` should be either an int, a tuple of {rank} ints, or a tuple "
                         f"of {rank} tuples of 2 ints (one (before, after) pair per spatial "
                         f"axis). Received: {value}.")
    if len(value) != rank:
        count = "two" if rank == 2 else rank
        raise ValueError(f"`{name}` should have {count} elements. Received: {value}.")
    return tuple(normalize_tuple(v, 2, f"{_ORDINALS[i]} entry of {name}", allow_zero=True)
                 for i, v in enumerate(value))


class _SpatialLayer(Layer):
    """A layer acting on each of the `rank` spatial axes of (batch, *spatial, channels)
    inputs (or channels first); 1-D layers are always channels last."""

    def __init__(self, rank, data_format, **kwargs):
        super().__init__(**kwargs)
        self.rank = rank
        self.data_format = "channels_last" if rank == 1 else \
            backend.normalize_data_format(data_format)
        self.input_spec = InputSpec(ndim=rank + 2)

    @property
    def _first_spatial_axis(self):
        return 2 if self.data_format == "channels_first" else 1

    def compute_output_shape(self, input_shape):
        dims = TensorShape(input_shape).as_list()
        first = self._first_spatial_axis
        for axis in range(self.rank):
            if dims[first + axis] is not None:
                dims[first + axis] = self._output_length(axis, dims[first + axis])
        return TensorShape(dims)

    def _config(self, **values):
        config = super().get_config()
        config.update(values)
        if self.rank > 1:
            config["data_format"] = self.data_format
        return config


class _ZeroPadding(_SpatialLayer):
    """Adds zeros before and after each spatial axis."""

    def __init__(self, rank, padding, data_format=None, **kwargs):
        super().__init__(rank, data_format, **kwargs)
        self._pairs = _normalize_pairs(padding, rank, "padding")
        self.padding = self._pairs[0] if rank == 1 else self._pairs

    def _output_length(self, axis, length):
        return length + sum(self._pairs[axis])

    def call(self, inputs):
        paddings = [[0, 0]] * (self.rank + 2)
        first = self._first_spatial_axis
        paddings[first:first + self.rank] = [list(pair) for pair in self._pairs]
        return array_ops.pad(inputs, paddings)

    def get_config(self):
        return self._config(padding=self.padding)


@export("keras.layers.ZeroPadding1D")
class ZeroPadding1D(_ZeroPadding):
    """Pads the steps axis of (batch, steps, features) with zeros.

    >>> tf.keras.layers.ZeroPadding1D((1, 2))(np.ones((1, 3, 2), np.float32)).shape
    TensorShape([1, 6, 2])
    """

    def __init__(self, padding=1, **kwargs):
        super().__init__(1, padding, **kwargs)


@export("keras.layers.ZeroPadding2D")
class ZeroPadding2D(_ZeroPadding):
    """Pads rows and columns with zeros: ``padding=((top, bottom), (left, right))``.

    >>> tf.keras.layers.ZeroPadding2D(((1, 0), (2, 2)))(np.ones((1, 3, 3, 1), np.float32)).shape
    TensorShape([1, 4, 7, 1])
    """

    def __init__(self, padding=(1, 1), data_format=None, **kwargs):
        super().__init__(2, padding, data_format, **kwargs)


@export("keras.layers.ZeroPadding3D")
class ZeroPadding3D(_ZeroPadding):
    """Pads the three spatial axes of volumes with zeros.

    >>> tf.keras.layers.ZeroPadding3D(1)(np.ones((1, 2, 2, 2, 1), np.float32)).shape
    TensorShape([1, 4, 4, 4, 1])
    """

    def __init__(self, padding=(1, 1, 1), data_format=None, **kwargs):
        super().__init__(3, padding, data_format, **kwargs)


class _Cropping(_SpatialLayer):
    """Removes entries from the start and end of each spatial axis."""

    def __init__(self, rank, cropping, data_format=None, **kwargs):
        super().__init__(rank, data_format, **kwargs)
        self._pairs = _normalize_pairs(cropping, rank, "cropping")
        self.cropping = self._pairs[0] if rank == 1 else self._pairs

    def _output_length(self, axis, length):
        return length - sum(self._pairs[axis])

    def call(self, inputs):
        first = self._first_spatial_axis
        slices = [slice(None)] * (self.rank + 2)
        # as in Keras 2, Cropping3D crops to empty without complaint, and Cropping1D words
        # its complaint differently from Cropping2D's
        subject = "cropping parameter of Cropping layer" if self.rank == 1 else \
            "Argument `cropping`"
        for axis, (start, end) in enumerate(self._pairs):
            length = inputs.shape[first + axis]
            if self.rank < 3 and length is not None and start + end >= length:
                raise ValueError(f"{subject} must be greater than the input shape. "
                                 f"Received: inputs.shape={inputs.shape}, and "
                                 f"cropping={self.cropping}")
            slices[first + axis] = slice(start, -end if end else None)
        return inputs[tuple(slices)]

    def get_config(self):
        return self._config(cropping=self.cropping)


@export("keras.layers.Cropping1D")
class Cropping1D(_Cropping):
    """Crops the steps axis of (batch, steps, features).

    >>> tf.keras.layers.Cropping1D((1, 2))(np.ones((1, 6, 2), np.float32)).shape
    TensorShape([1, 3, 2])
    """

    def __init__(self, cropping=(1, 1), **kwargs):
        super().__init__(1, cropping, **kwargs)


@export("keras.layers.Cropping2D")
class Cropping2D(_Cropping):
    """Crops rows and columns: ``cropping=((top, bottom), (left, right))``.

    >>> tf.keras.layers.Cropping2D(((1, 1), (0, 2)))(np.ones((1, 5, 5, 1), np.float32)).shape
    TensorShape([1, 3, 3, 1])
    """

    def __init__(self, cropping=((0, 0), (0, 0)), data_format=None, **kwargs):
        super().__init__(2, cropping, data_format, **kwargs)


@export("keras.layers.Cropping3D")
class Cropping3D(_Cropping):
    """Crops the three spatial axes of volumes.

    >>> tf.keras.layers.Cropping3D(1)(np.ones((1, 4, 4, 4, 1), np.float32)).shape
    TensorShape([1, 2, 2, 2, 1])
    """

    def __init__(self, cropping=((1, 1), (1, 1), (1, 1)), data_format=None, **kwargs):
        super().__init__(3, cropping, data_format, **kwargs)


class _UpSampling(_SpatialLayer):
    """Repeats each spatial entry `size` times."""

    def __init__(self, rank, size, data_format=None, **kwargs):
        super().__init__(rank, data_format, **kwargs)
        self._sizes = normalize_tuple(size, rank, "size")
        self.size = self._sizes[0] if rank == 1 else self._sizes

    def _output_length(self, axis, length):
        return length * self._sizes[axis]

    def call(self, inputs):
        first = self._first_spatial_axis
        outputs = inputs
        for axis in reversed(range(self.rank)):
            outputs = _repeat(outputs, first + axis, self._sizes[axis])
        return outputs

    def get_config(self):
        return self._config(size=self.size)


def _repeat(x, axis, n):
    """Each entry of `x` along `axis` repeated `n` times in place."""
    dims = _dims(x)
    multiples = [1] * (len(dims) + 1)
    multiples[axis + 1] = n
    tiled = array_ops.tile(array_ops.expand_dims(x, axis + 1), multiples)
    return array_ops.reshape(tiled, dims[:axis] + [dims[axis] * n] + dims[axis + 1:])


@export("keras.layers.UpSampling1D")
class UpSampling1D(_UpSampling):
    """Repeats each step `size` times: (batch, steps, features) -> (batch, steps * size, ...).

    >>> tf.keras.layers.UpSampling1D(3)(np.ones((1, 2, 4), np.float32)).shape
    TensorShape([1, 6, 4])
    """

    def __init__(self, size=2, **kwargs):
        super().__init__(1, int(size), **kwargs)


@export("keras.layers.UpSampling2D")
class UpSampling2D(_UpSampling):
    """Enlarges images by `size`, resized with tf.image.resize's `interpolation` method.

    Pixels are repeated (``'nearest'``, the input's dtype kept); every other method
    interpolates and returns float32, as tf.image.resize does.

    >>> tf.keras.layers.UpSampling2D((2, 3), interpolation="bilinear")(
    ...     np.ones((1, 2, 2, 1), np.float32)).shape
    TensorShape([1, 4, 6, 1])
    """

    def __init__(self, size=(2, 2), data_format=None, interpolation="nearest", **kwargs):
        super().__init__(2, size, data_format, **kwargs)
        self.interpolation = interpolation_method(interpolation)

    def call(self, inputs):
        first = self._first_spatial_axis
        spatial = inputs.shape[first:first + 2] if inputs.shape.rank is not None else [None]
        if self.interpolation == "nearest" and None not in spatial:
            return super().call(inputs)
        # Through tf.image.resize, which knows neither output size when one is unknown.
        return backend.resize_images(inputs, self._sizes[0], self._sizes[1], self.data_format,
                                     interpolation=self.interpolation)

    def get_config(self):
        config = super().get_config()
        config["interpolation"] = self.interpolation
        return config


@export("keras.layers.UpSampling3D")
class UpSampling3D(_UpSampling):
    """Enlarges volumes by repeating each entry `size` times along each spatial axis.

    >>> tf.keras.layers.UpSampling3D(2)(np.ones((1, 2, 2, 2, 1), np.float32)).shape
    TensorShape([1, 4, 4, 4, 1])
    """

    def __init__(self, size=(2, 2, 2), data_format=None, **kwargs):
        super().__init__(3, size, data_format, **kwargs)
        # No rank check, as in tf_keras (whose spec is reset as its Layer initializes): the
        # three axes after the batch (or the channels) are repeated whatever the rank.
        self.input_spec = None
