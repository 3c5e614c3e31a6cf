"""Preprocessing layers: Normalization (adapted to data), Rescaling, Resizing and CenterCrop.

>>> layer = tf.keras.layers.Normalization()
>>> layer.adapt(np.array([[1.0], [3.0]]))
>>> layer(tf.constant([[5.0]])).numpy()
array([[3.]], dtype=float32)
"""
import functools
import itertools

import numpy as np

from eagerflow._src.backend.api_export import export
from eagerflow._src.core import context
from eagerflow._src.core import dtypes as _dtypes
from eagerflow._src.core.convert import convert_to_tensor
from eagerflow._src.core.tensor import Tensor
from eagerflow._src.core.tensor_shape import TensorShape
from eagerflow._src.core.variables import Variable
from eagerflow._src.core.tensor_spec import TensorSpec
from eagerflow._src.graph import control_flow, functional_ops
from eagerflow._src.ops import array_ops, cast_ops, image_ops, math_ops, nn_ops, reduction_ops, \
    sparse_ops
from eagerflow._src.ops.sparse_tensor import SparseTensor
from eagerflow._src.keras import backend
from eagerflow._src.keras.engine.base_layer import Layer
from eagerflow._src.keras.engine import data_adapter
from eagerflow._src.data.dataset_ops import Dataset
from eagerflow._src.keras.utils.dataset_utils import interpolation_method



@export("keras.layers.experimental.preprocessing.PreprocessingLayer")
class PreprocessingLayer(Layer):
    """A layer whose state is computed from data by `adapt` (``update_state`` per batch).

    Subclasses define `update_state(batch)`, `reset_state()` and `finalize_state()`.

    >>> layer = tf.keras.layers.Normalization()
    >>> layer.is_adapted, (layer.adapt(np.ones((4, 2))), layer.is_adapted)[1]
    (False, True)
    """

    # Arrays (and tensors) are adapted in batches of this many rows when `adapt` is given no
    # `batch_size`, as TF's are: a layer whose state depends on the batches (running moments,
    # merged quantile summaries) sets TF's 32; None keeps an array whole (same state).
    _adapt_batch_size = None

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self._is_adapted = False
        self._is_compiled = False
        self._adapt_function = None
        self._adapt_spec_shape = None

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        if "reset_state" in cls.__dict__:  # a reset state is no longer adapted to data
            cls.reset_state = _marking_unadapted(cls.__dict__["reset_state"])

    @property
    def is_adapted(self):
        return self._is_adapted

    def update_state(self, data):
        raise NotImplementedError

    def reset_state(self):
        raise NotImplementedError

    def finalize_state(self):
        """Derives what `call` uses from the accumulated state (after `adapt`)."""

    def compile(self, run_eagerly=None, steps_per_execution=None):
        """Configures `adapt`: `steps_per_execution` batches per call of the adapt function
        (default 1). Batches are always adapted eagerly, whatever `run_eagerly` says."""
        self._run_eagerly = self.dynamic if run_eagerly is None else run_eagerly
        self._steps_per_execution = 1 if steps_per_execution is None else steps_per_execution
        self._adapt_function = None
        self._is_compiled = True

    def make_adapt_function(self):
        """The function `adapt` calls on an iterator of batches: it builds the layer if need
        be and updates its state with the next `steps_per_execution` batches. Subclasses may
        override it for adapt logic of their own; it is made again after `compile`."""
        if self._adapt_function is not None:
            return self._adapt_function

        def adapt_step(iterator):
            data = next(iterator)
            self._adapt_maybe_build(data)
            self.update_state(data)

        def adapt_fn(iterator):
            for _ in range(int(self._steps_per_execution)):
                adapt_step(iterator)

        self._adapt_function = adapt_step if int(self._steps_per_execution) == 1 else adapt_fn
        return self._adapt_function

    def adapt(self, data, batch_size=None, steps=None):
        """Computes the layer's state from `data`: an array or tensor, or an iterable of
        batches (a dataset). Arrays are split into batches of `batch_size` (default: one
        batch); at most `steps` batches are used."""
        if not context.executing_eagerly():
            raise RuntimeError(
                "Detected a call to `PreprocessingLayer.adapt` inside a `tf.function`. "
                "`PreprocessingLayer.adapt is a high-level endpoint that manages its own "
                "`tf.function`. Please move the call to `PreprocessingLayer.adapt` outside of "
                "all enclosing `tf.function`s. Note that you can call a `PreprocessingLayer` "
                "directly on `Tensor`s inside a `tf.function` like: `layer(x)`, or update its "
                "state like: `layer.update_state(x)`.")
        if not self._is_compiled:
            self.compile()
        if self.built:
            self.reset_state()
        if batch_size is None and (isinstance(data, (np.ndarray, list, tuple)) or
                                   hasattr(data, "dtype") and hasattr(data, "shape")):
            batch_size = self._adapt_batch_size
        self._adapt_spec_shape = getattr(getattr(data, "element_spec", None), "shape", None)
        batches = _batches(data, batch_size, steps)
        count = _batch_count(batches, data, steps)
        batches = iter(batches)
        if steps is not None:
            batches = itertools.islice(batches, steps)
        self._adapt_function = self.make_adapt_function()
        # As TF's, the function is called once per `steps_per_execution` batches when their
        # number is known, else until the batches run out.
        calls = itertools.count() if count is None else \
            range(-(-count // int(self._steps_per_execution)))
        try:
            for _ in calls:
                self._adapt_function(batches)
        except StopIteration:
            pass
        finally:
            self._adapt_spec_shape = None
        self.finalize_state()
        self._is_adapted = True

    def _adapt_maybe_build(self, batch):
        if self.built:
            return
        # TF builds from the traced shape of a batch: its first dim unknown unless a dataset's
        # spec says it
        shape = batch.shape if isinstance(getattr(batch, "shape", None), TensorShape) \
            else TensorShape(np.shape(batch))  # (a ragged batch's rank too)
        spec_shape = self._adapt_spec_shape
        if isinstance(spec_shape, TensorShape) and spec_shape.rank == shape.rank:
            shape = spec_shape
        elif shape.rank:
            shape = TensorShape([None] + shape.as_list()[1:])
        if self._batch_input_shape is None:
            self._batch_input_shape = (None,) * shape.rank
        self.build(shape)
        self.built = True
        if self._build_input_shape is None:  # (its build config: a saved copy builds)
            self._build_input_shape = shape


def _marking_unadapted(reset_state):
    @functools.wraps(reset_state)
    def wrapper(self, *args, **kwargs):
        result = reset_state(self, *args, **kwargs)
        self._is_adapted = False
        return result
    return wrapper


def _batch_count(batches, data, steps):
    """How many of `batches` (what `_batches` made of `data`) `adapt` uses, if known."""
    count = None
    if isinstance(batches, list):
        count = len(batches)
    elif isinstance(data, Dataset) and data._cardinality() >= 0:
        count = data._cardinality()
    if steps is not None:
        count = steps if count is None else min(count, steps)
    return count


def _batches(data, batch_size, steps=None):
    """`data` as a sequence of batches: arrays sliced by `batch_size`, datasets as Keras's
    fit takes them (so a reshuffling dataset's later orders are TF's), iterables as they are."""
    if isinstance(data, Dataset):
        adapter = data_adapter._DatasetAdapter(data, steps, 1)
        adapter.start()
        return adapter.epoch()
    if isinstance(data, SparseTensor):  # (rows of `batch_size`: slices of the sparse matrix)
        rows = int(data.dense_shape[0]) if data.dense_shape.shape[0] else 1
        if batch_size is None or not data.dense_shape.shape[0]:
            return [data]
        return [sparse_ops.slice(data, [i] + [0] * (data.dense_shape.shape[0] - 1),
                                        [batch_size] + data.dense_shape.numpy().tolist()[1:])
                for i in range(0, max(rows, 1), batch_size)]
    if hasattr(data, "flat_values") and hasattr(data, "row_splits"):  # a RaggedTensor: by rows
        if batch_size is None:
            return [data]
        rows = int(data.nrows())
        return [data[i:i + batch_size] for i in range(0, max(rows, 1), batch_size)]
    if isinstance(data, (np.ndarray, Tensor, Variable, list, tuple)):
        array = data_adapter._as_array(data)  # (NumPy floats in floatx, as fit takes them)
        if array.ndim and not len(array):
            raise ValueError("Expected input data to be non-empty.")
        if batch_size is None:
            return [array]
        return [array[i:i + batch_size] for i in range(0, max(len(array), 1), batch_size)]
    return data


@export("keras.layers.Normalization", "keras.layers.experimental.preprocessing.Normalization")
class Normalization(PreprocessingLayer):
    """Standardizes features: ``(x - mean) / sqrt(variance)`` per index of `axis`.

    The statistics are given (`mean`, `variance`) or computed from data by `adapt`;
    ``invert=True`` maps standardized values back.

    >>> tf.keras.layers.Normalization(mean=2.0, variance=4.0)(tf.constant([[4.0]])).numpy()
    array([[1.]], dtype=float32)
    """

    _adapt_batch_size = 32  # (the moments are merged batch by batch)

    def __init__(self, axis=-1, mean=None, variance=None, invert=False, **kwargs):
        super().__init__(**kwargs)
        if axis is None:
            axis = ()
        elif isinstance(axis, int):
            axis = (axis,)
        else:
            axis = tuple(axis)
        self.axis = axis
        for role, value in (("mean", mean), ("variance", variance)):
            if isinstance(value, Variable):
                raise ValueError(f"Normalization does not support passing a Variable for the "
                                 f"`{role}` init arg.")
        if (mean is not None) != (variance is not None):
            raise ValueError(f"When setting values directly, both `mean` and `variance` must "
                             f"be set. Got mean: {mean} and variance: {variance}")
        self.input_mean, self.input_variance = mean, variance
        self.invert = invert

    def build(self, input_shape):
        if isinstance(input_shape, (list, tuple)) and \
                all(isinstance(shape, TensorShape) for shape in input_shape):
            raise ValueError("Normalization only accepts a single input. If you are passing a "
                             "python list or tuple as a single input, please convert to a numpy "
                             "array or `tf.Tensor`.")
        dims = TensorShape(input_shape).as_list()
        ndim = len(dims)
        if any(a < -ndim or a >= ndim for a in self.axis):
            raise ValueError(f"All `axis` values must be in the range [-ndim, ndim). Found "
                             f"ndim: `{ndim}`, axis: {self.axis}")
        self._keep_axis = sorted(a + ndim if a < 0 else a for a in self.axis)
        for a in self._keep_axis:
            if dims[a] is None:
                raise ValueError(f"All `axis` values to be kept must have known shape. Got "
                                 f"axis: {self.axis}, input shape: {dims}, with unknown axis "
                                 f"at index: {a}")
        self._reduce_axis = [a for a in range(ndim) if a not in self._keep_axis]
        self._broadcast_shape = [dims[a] if a in self._keep_axis else 1 for a in range(ndim)]
        statistics_shape = tuple(dims[a] for a in self._keep_axis)
        if self.input_mean is None:
            self.adapt_mean = self.add_weight("mean", shape=statistics_shape,
                                              dtype=self.compute_dtype, initializer="zeros",
                                              trainable=False)
            self.adapt_variance = self.add_weight("variance", shape=statistics_shape,
                                                  dtype=self.compute_dtype, initializer="ones",
                                                  trainable=False)
            self.count = self.add_weight("count", shape=(), dtype=_dtypes.int64,
                                         initializer="zeros", trainable=False)
            self.built = True
            self.finalize_state()
        else:
            ones = np.ones(statistics_shape)
            self.mean, self.variance = (
                cast_ops.cast(array_ops.reshape(np.asarray(v) * ones, self._broadcast_shape),
                              self.compute_dtype)
                for v in (self.input_mean, self.input_variance))
        self.built = True

    def update_state(self, data):
        """Merges the moments of batch `data` into the running mean, variance and count."""
        if self.input_mean is not None:
            raise ValueError(f"Cannot `adapt` a Normalization layer that is initialized with "
                             f"static `mean` and `variance`, you passed mean "
                             f"{self.input_mean} and variance {self.input_variance}.")
        if not self.built:
            raise RuntimeError("`build` must be called before `update_state`.")
        data = cast_ops.cast(convert_to_tensor(data), self.adapt_mean.dtype)
        batch_mean, batch_variance = nn_ops.moments(data, self._reduce_axis)
        dims = array_ops.shape(data, out_type=_dtypes.int64)
        batch_count = reduction_ops.reduce_prod(array_ops.gather(dims, self._reduce_axis)) \
            if self._reduce_axis else 1
        total_count = math_ops.add(self.count, batch_count)
        batch_weight = math_ops.realdiv(cast_ops.cast(batch_count, self.compute_dtype),
                                        cast_ops.cast(total_count, self.compute_dtype))
        existing_weight = 1.0 - batch_weight
        total_mean = self.adapt_mean * existing_weight + batch_mean * batch_weight
        # each part's variance about the merged mean, weighted by its share of the count
        total_variance = (
            (self.adapt_variance + (self.adapt_mean - total_mean) ** 2) * existing_weight +
            (batch_variance + (batch_mean - total_mean) ** 2) * batch_weight)
        self.adapt_mean.assign(total_mean)
        self.adapt_variance.assign(total_variance)
        self.count.assign(total_count)

    def reset_state(self):
        if self.input_mean is not None or not self.built:
            return
        self.adapt_mean.assign(array_ops.zeros_like(self.adapt_mean))
        self.adapt_variance.assign(array_ops.ones_like(self.adapt_variance))
        self.count.assign(array_ops.zeros_like(self.count))

    def finalize_state(self):
        if self.input_mean is not None or not self.built:
            return
        self.mean, self.variance = (
            cast_ops.cast(array_ops.reshape(v, self._broadcast_shape), self.compute_dtype)
            for v in (self.adapt_mean, self.adapt_variance))

    def call(self, inputs):
        inputs = cast_ops.cast(convert_to_tensor(inputs), self.compute_dtype)
        std = math_ops.maximum(math_ops.sqrt(self.variance), backend.epsilon())
        if self.invert:
            return math_ops.add(self.mean, math_ops.multiply(inputs, std))
        return math_ops.realdiv(math_ops.subtract(inputs, self.mean), std)

    def compute_output_shape(self, input_shape):
        return input_shape


    def compute_output_signature(self, input_spec):
        return input_spec  # (as Keras: the input's, whatever dtype the layer computes in)

    def get_config(self):
        return {**super().get_config(), "axis": self.axis, "invert": self.invert,
                "mean": _listified(self.input_mean), "variance": _listified(self.input_variance)}


def _listified(value):
    """Tensors and arrays in a config as (nested) lists."""
    if isinstance(value, (Tensor, np.ndarray)):
        return np.asarray(value).tolist()
    return value


@export("keras.layers.Rescaling", "keras.layers.experimental.preprocessing.Rescaling")
class Rescaling(Layer):
    """``inputs * scale + offset``, in the layer's dtype (``Rescaling(1 / 255)`` for images).

    >>> tf.keras.layers.Rescaling(0.5, offset=-1.0)(tf.constant([4.0])).numpy()
    array([1.], dtype=float32)
    """

    def __init__(self, scale, offset=0.0, **kwargs):
        self.scale, self.offset = scale, offset
        super().__init__(**kwargs)

    def call(self, inputs):
        dtype = self.compute_dtype
        return math_ops.add(math_ops.multiply(cast_ops.cast(inputs, dtype),
                                              cast_ops.cast(self.scale, dtype)),
                            cast_ops.cast(self.offset, dtype))

    def compute_output_shape(self, input_shape):
        return input_shape

    def get_config(self):
        return {**super().get_config(), "scale": self.scale, "offset": self.offset}


def _resize(images, height, width, interpolation):
    # tf.image.resize's kernels, as Keras calls them (ops composed here rounded otherwise
    # once traced: a graph divides by a constant as a multiplication by its reciprocal)
    return image_ops.resize(images, [height, width], method=interpolation)


def _crop(images, top, left, height, width):
    # (a window of no pixels is tf.image.crop_to_bounding_box's ValueError, as Keras 2 crops)
    for name, size in (("target_width", width), ("target_height", height)):
        if isinstance(size, int) and size <= 0:
            raise ValueError(f"{name} must be > 0.")
    for axis, start, size in ((-3, top, height), (-2, left, width)):
        # NumPy indices for a Python size: their length is then known statically when tracing
        indices = np.arange(size, dtype=np.int32) if isinstance(size, int) else \
            array_ops.range(size)
        images = array_ops.gather(images, math_ops.add(indices, start), axis=axis)
    return images


def _smart_resize(images, height, width, interpolation="bilinear"):
    """The largest centered crop of the target's aspect ratio, resized to (height, width)."""
    dims = array_ops.shape(images)
    in_height, in_width = (cast_ops.cast(dims[a], _dtypes.float32) for a in (-3, -2))
    crop_height = math_ops.minimum(
        dims[-3], cast_ops.cast(math_ops.realdiv(in_width * height, float(width)),
                                _dtypes.int32))
    crop_width = math_ops.minimum(
        dims[-2], cast_ops.cast(math_ops.realdiv(in_height * width, float(height)),
                                _dtypes.int32))
    top, left = (cast_ops.cast(math_ops.realdiv(
        cast_ops.cast(math_ops.subtract(dims[a], crop), _dtypes.float32), 2.0), _dtypes.int32)
        for a, crop in ((-3, crop_height), (-2, crop_width)))
    cropped = _crop(images, top, left, crop_height, crop_width)
    return _resize(cropped, height, width, interpolation)


def _spatial_output_shape(input_shape, height, width):
    dims = TensorShape(input_shape).as_list()
    dims[-3], dims[-2] = height, width
    return TensorShape(dims)


@export("keras.layers.Resizing", "keras.layers.experimental.preprocessing.Resizing")
class Resizing(Layer):
    """Resizes images (..., height, width, channels) to (`height`, `width`).

    ``interpolation`` is one of tf.image.resize's methods; ``crop_to_aspect_ratio`` first crops
    the largest centered window of the target's aspect ratio.

    >>> tf.keras.layers.Resizing(1, 2)(
    ...     tf.constant([[[1.0], [3.0]], [[5.0], [7.0]]])).numpy().ravel()
    array([3., 5.], dtype=float32)
    """

    def __init__(self, height, width, interpolation="bilinear", crop_to_aspect_ratio=False,
                 **kwargs):
        self.height, self.width = height, width
        self.interpolation = interpolation
        self.crop_to_aspect_ratio = crop_to_aspect_ratio
        self._method = interpolation_method(interpolation)
        super().__init__(**kwargs)

    def call(self, inputs):
        dtype = self.compute_dtype if self._method == "nearest" else _dtypes.float32
        images = cast_ops.cast(inputs, dtype)
        if self.crop_to_aspect_ratio and hasattr(images, "flat_values"):
            # a ragged batch of images: each cropped and resized alone
            signature = TensorSpec([self.height, self.width] + images.shape[-1:].as_list(),
                                   dtype)
            outputs = functional_ops.map_fn(
                lambda image: _smart_resize(getattr(image, "to_tensor", lambda: image)(),
                                            self.height, self.width, self._method),
                images, fn_output_signature=signature)
        elif self.crop_to_aspect_ratio:
            outputs = _smart_resize(images, self.height, self.width, self._method)
        else:
            outputs = _resize(images, self.height, self.width, self._method)
        return cast_ops.cast(outputs, self.compute_dtype)

    def compute_output_shape(self, input_shape):
        return _spatial_output_shape(input_shape, self.height, self.width)

    def get_config(self):
        return {**super().get_config(), "height": self.height, "width": self.width,
                "interpolation": self.interpolation,
                "crop_to_aspect_ratio": self.crop_to_aspect_ratio}


@export("keras.layers.CenterCrop", "keras.layers.experimental.preprocessing.CenterCrop")
class CenterCrop(Layer):
    """The central (`height`, `width`) window of images; smaller images are resized up
    (after a centered crop to the target's aspect ratio).

    >>> tf.keras.layers.CenterCrop(1, 1)(tf.constant([[[1.0], [2.0], [3.0]]])).numpy().ravel()
    array([2.], dtype=float32)
    """

    def __init__(self, height, width, **kwargs):
        self.height, self.width = height, width
        super().__init__(**kwargs, autocast=False)

    def call(self, inputs):
        images = cast_ops.cast(inputs, self.compute_dtype)
        dims = array_ops.shape(images)
        height_diff = math_ops.subtract(dims[-3], self.height)
        width_diff = math_ops.subtract(dims[-2], self.width)

        def crop():
            return _crop(images, math_ops.floordiv(height_diff, 2),
                         math_ops.floordiv(width_diff, 2), self.height, self.width)

        def upsize():
            return cast_ops.cast(_smart_resize(images, self.height, self.width),
                                 self.compute_dtype)
        fits = math_ops.logical_and(math_ops.greater_equal(height_diff, 0),
                                    math_ops.greater_equal(width_diff, 0))
        return control_flow.cond(fits, crop, upsize)

    def compute_output_shape(self, input_shape):
        return _spatial_output_shape(input_shape, self.height, self.width)

    def get_config(self):
        return {**super().get_config(), "height": self.height, "width": self.width}
