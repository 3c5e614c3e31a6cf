"""Pooling layers: max and average pooling over windows, and global pooling over all steps.

>>> tf.keras.layers.MaxPooling2D()(
...     np.arange(16.0, dtype=np.float32).reshape(1, 4, 4, 1)).numpy().ravel()
array([ 5.,  7., 13., 15.], dtype=float32)
>>> tf.keras.layers.GlobalAveragePooling1D()(np.ones((2, 5, 3), np.float32)).shape
TensorShape([2, 3])
"""
from eagerflow._src.backend.api_export import export
from eagerflow._src.core.tensor_shape import TensorShape
from eagerflow._src.keras import backend
from eagerflow._src.keras.engine.base_layer import Layer
from eagerflow._src.keras.engine.input_spec import InputSpec
from eagerflow._src.keras.layers.convolutional import (conv_output_length, normalize_padding,
                                                        normalize_tuple, tf_data_format)
from eagerflow._src.ops import array_ops, cast_ops, conv_ops, reduction_ops


class _Pooling(Layer):
    """Applies `pool_function` (max or average) over windows of `rank` spatial axes."""

    def __init__(self, rank, pool_function, pool_size, strides, padding="valid",
                 data_format=None, **kwargs):
        super().__init__(**kwargs)
        self.rank = rank
        self.pool_function = pool_function
        self.pool_size = normalize_tuple(pool_size, rank, "pool_size")
        self.strides = normalize_tuple(pool_size if strides is None else strides, rank,
                                       "strides", allow_zero=True)
        self.padding = normalize_padding(padding)
        self.data_format = backend.normalize_data_format(data_format)
        self.input_spec = InputSpec(ndim=rank + 2)

    def call(self, inputs):
        average = self.pool_function is conv_ops.avg_pool
        args = (inputs, self.pool_size, self.strides, self.padding.upper(),
                tf_data_format(self.data_format, self.rank))
        rank = getattr(getattr(inputs, "shape", None), "rank", self.rank + 2)
        if rank is None and average and self.rank == 2:
            # AveragePooling2D's tf.nn.avg_pool takes its rank from the input: TF's ValueError
            return self.pool_function(*args)
        # (traced with a rank unknown: the pooling of the layer's rank, as tf_keras's layers
        # call ops of a rank)
        return conv_ops.layer_pool(average, *args, rank or self.rank + 2)

    def compute_output_shape(self, input_shape):
        dims = TensorShape(input_shape).as_list()
        first = 2 if self.data_format == "channels_first" else 1
        for axis in range(self.rank):
            dims[first + axis] = conv_output_length(dims[first + axis], self.pool_size[axis],
                                                    self.padding, self.strides[axis])
        return TensorShape(dims)

    def get_config(self):
        config = super().get_config()
        values = {"pool_size": self.pool_size, "padding": self.padding,
                  "strides": self.strides, "data_format": self.data_format}
        # tf_keras lists a 1-D pooling's strides first
        order = ("strides", "pool_size", "padding", "data_format") if self.rank == 1 else values
        config.update((key, values[key]) for key in order)
        return config


@export("keras.layers.MaxPooling1D", "keras.layers.MaxPool1D")
class MaxPooling1D(_Pooling):
    """Max over windows of steps: (batch, steps, features) -> (batch, pooled_steps, features).

    >>> tf.keras.layers.MaxPooling1D(2)(np.ones((1, 5, 3), np.float32)).shape
    TensorShape([1, 2, 3])
    """

    def __init__(self, pool_size=2, strides=None, padding="valid", data_format="channels_last",
                 **kwargs):
        super().__init__(1, conv_ops.max_pool, pool_size, strides, padding, data_format,
                         **kwargs)


@export("keras.layers.MaxPooling2D", "keras.layers.MaxPool2D")
class MaxPooling2D(_Pooling):
    """Max over windows of rows and columns.

    >>> tf.keras.layers.MaxPooling2D((2, 2), padding="same")(
    ...     np.ones((1, 5, 5, 3), np.float32)).shape
    TensorShape([1, 3, 3, 3])
    """

    def __init__(self, pool_size=(2, 2), strides=None, padding="valid", data_format=None,
                 **kwargs):
        super().__init__(2, conv_ops.max_pool, pool_size, strides, padding, data_format,
                         **kwargs)


@export("keras.layers.MaxPooling3D", "keras.layers.MaxPool3D")
class MaxPooling3D(_Pooling):
    """Max over windows of three spatial axes.

    >>> tf.keras.layers.MaxPooling3D()(np.ones((1, 4, 4, 4, 2), np.float32)).shape
    TensorShape([1, 2, 2, 2, 2])
    """

    def __init__(self, pool_size=(2, 2, 2), strides=None, padding="valid", data_format=None,
                 **kwargs):
        super().__init__(3, conv_ops.max_pool, pool_size, strides, padding, data_format,
                         **kwargs)


@export("keras.layers.AveragePooling1D", "keras.layers.AvgPool1D")
class AveragePooling1D(_Pooling):
    """Mean over windows of steps; ``'same'`` windows average their real elements only.

    >>> tf.keras.layers.AveragePooling1D(2)(np.ones((1, 5, 3), np.float32)).shape
    TensorShape([1, 2, 3])
    """

    def __init__(self, pool_size=2, strides=None, padding="valid", data_format="channels_last",
                 **kwargs):
        super().__init__(1, conv_ops.avg_pool, pool_size, strides, padding, data_format,
                         **kwargs)


@export("keras.layers.AveragePooling2D", "keras.layers.AvgPool2D")
class AveragePooling2D(_Pooling):
    """Mean over windows of rows and columns.

    >>> tf.keras.layers.AveragePooling2D()(np.ones((1, 4, 4, 3), np.float32)).shape
    TensorShape([1, 2, 2, 3])
    """

    def __init__(self, pool_size=(2, 2), strides=None, padding="valid", data_format=None,
                 **kwargs):
        super().__init__(2, conv_ops.avg_pool, pool_size, strides, padding, data_format,
                         **kwargs)


@export("keras.layers.AveragePooling3D", "keras.layers.AvgPool3D")
class AveragePooling3D(_Pooling):
    """Mean over windows of three spatial axes.

    >>> tf.keras.layers.AveragePooling3D()(np.ones((1, 4, 4, 4, 2), np.float32)).shape
    TensorShape([1, 2, 2, 2, 2])
    """

    def __init__(self, pool_size=(2, 2, 2), strides=None, padding="valid", data_format=None,
                 **kwargs):
        super().__init__(3, conv_ops.avg_pool, pool_size, strides, padding, data_format,
                         **kwargs)


class _GlobalPooling(Layer):
    """Reduces all `rank` spatial axes with `reduce` (keeping them as ones with `keepdims`)."""

    def __init__(self, rank, reduce, data_format=None, keepdims=False, **kwargs):
        super().__init__(**kwargs)
        self.rank = rank
        self.reduce = reduce
        self.data_format = backend.normalize_data_format(data_format)
        self.keepdims = keepdims
        self.input_spec = InputSpec(ndim=rank + 2)

    @property
    def _axes(self):
        first = 2 if self.data_format == "channels_first" else 1
        return list(range(first, first + self.rank))

    def build(self, input_shape):
        dims = TensorShape(input_shape).as_list()
        for axis in self._axes:
            if dims[axis] == 0:
                raise ValueError(f"Incorrect input shape {dims} with dimension 0 at reduction "
                                 f"axis {axis}.")
        self.built = True

    def call(self, inputs):
        return self.reduce(inputs, axis=self._axes, keepdims=self.keepdims)

    def compute_output_shape(self, input_shape):
        dims = TensorShape(input_shape).as_list()
        axes = self._axes
        if self.keepdims:
            return TensorShape([1 if i in axes else d for i, d in enumerate(dims)])
        return TensorShape([d for i, d in enumerate(dims) if i not in axes])

    def get_config(self):
        config = super().get_config()
        config.update({"data_format": self.data_format, "keepdims": self.keepdims})
        return config


@export("keras.layers.GlobalAveragePooling1D", "keras.layers.GlobalAvgPool1D")
class GlobalAveragePooling1D(_GlobalPooling):
    """Mean over steps; masked steps (``mask`` False) are left out of the mean.

    >>> tf.keras.layers.GlobalAveragePooling1D()(np.ones((2, 4, 3), np.float32), mask=np.array(
    ...     [[True, True, False, False]] * 2)).numpy()[0]
    array([1., 1., 1.], dtype=float32)
    """

    def __init__(self, data_format="channels_last", **kwargs):
        super().__init__(1, reduction_ops.reduce_mean, data_format, **kwargs)
        self.supports_masking = True

    def call(self, inputs, mask=None):
        if mask is None:
            return super().call(inputs)
        axis = self._axes[0]
        mask = array_ops.expand_dims(cast_ops.cast(mask, inputs.dtype),
                                     2 if self.data_format == "channels_last" else 1)
        total = reduction_ops.reduce_sum(inputs * mask, axis=axis, keepdims=self.keepdims)
        return total / reduction_ops.reduce_sum(mask, axis=axis, keepdims=self.keepdims)

    def compute_mask(self, inputs, mask=None):
        return None  # the steps axis is gone


@export("keras.layers.GlobalAveragePooling2D", "keras.layers.GlobalAvgPool2D")
class GlobalAveragePooling2D(_GlobalPooling):
    """Mean over rows and columns: (batch, rows, cols, channels) -> (batch, channels).

    >>> tf.keras.layers.GlobalAveragePooling2D(keepdims=True)(
    ...     np.ones((2, 4, 4, 3), np.float32)).shape
    TensorShape([2, 1, 1, 3])
    """

    def __init__(self, data_format=None, keepdims=False, **kwargs):
        super().__init__(2, reduction_ops.reduce_mean, data_format, keepdims, **kwargs)


@export("keras.layers.GlobalAveragePooling3D", "keras.layers.GlobalAvgPool3D")
class GlobalAveragePooling3D(_GlobalPooling):
    """Mean over three spatial axes.

    >>> tf.keras.layers.GlobalAveragePooling3D()(np.ones((2, 3, 3, 3, 4), np.float32)).shape
    TensorShape([2, 4])
    """

    def __init__(self, data_format=None, keepdims=False, **kwargs):
        super().__init__(3, reduction_ops.reduce_mean, data_format, keepdims, **kwargs)


@export("keras.layers.GlobalMaxPooling1D", "keras.layers.GlobalMaxPool1D")
class GlobalMaxPooling1D(_GlobalPooling):
    """Max over steps: (batch, steps, features) -> (batch, features).

    >>> tf.keras.layers.GlobalMaxPooling1D()(np.ones((2, 5, 3), np.float32)).shape
    TensorShape([2, 3])
    """

    def __init__(self, data_format="channels_last", keepdims=False, **kwargs):
        super().__init__(1, reduction_ops.reduce_max, data_format, keepdims, **kwargs)


@export("keras.layers.GlobalMaxPooling2D", "keras.layers.GlobalMaxPool2D")
class GlobalMaxPooling2D(_GlobalPooling):
    """Max over rows and columns.

    >>> tf.keras.layers.GlobalMaxPooling2D()(np.ones((2, 4, 4, 3), np.float32)).shape
    TensorShape([2, 3])
    """

    def __init__(self, data_format=None, keepdims=False, **kwargs):
        super().__init__(2, reduction_ops.reduce_max, data_format, keepdims, **kwargs)


@export("keras.layers.GlobalMaxPooling3D", "keras.layers.GlobalMaxPool3D")
class GlobalMaxPooling3D(_GlobalPooling):
    """Max over three spatial axes.

    >>> tf.keras.layers.GlobalMaxPooling3D()(np.ones((2, 3, 3, 3, 4), np.float32)).shape
    TensorShape([2, 4])
    """

    def __init__(self, data_format=None, keepdims=False, **kwargs):
        super().__init__(3, reduction_ops.reduce_max, data_format, keepdims, **kwargs)


MaxPool1D = MaxPooling1D
MaxPool2D = MaxPooling2D
MaxPool3D = MaxPooling3D
AvgPool1D = AveragePooling1D
AvgPool2D = AveragePooling2D
AvgPool3D = AveragePooling3D
GlobalAvgPool1D = GlobalAveragePooling1D
GlobalAvgPool2D = GlobalAveragePooling2D
GlobalAvgPool3D = GlobalAveragePooling3D
GlobalMaxPool1D = GlobalMaxPooling1D
GlobalMaxPool2D = GlobalMaxPooling2D
GlobalMaxPool3D = GlobalMaxPooling3D
