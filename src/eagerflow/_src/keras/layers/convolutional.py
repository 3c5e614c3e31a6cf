"""Convolution layers: Conv1D/2D/3D, their transposes, depthwise and separable convolutions.

All of them share `Conv`: argument checks, weight creation, the output-shape rule,
bias, activation and config. A 1-D convolution runs as a 2-D one over a unit
height inserted before its one spatial axis, as TensorFlow does, so every
variant needs only the 2-D (and 3-D) ops.

>>> layer = tf.keras.layers.Conv2D(2, 3, padding="same", kernel_initializer="ones")
>>> layer(np.ones((1, 4, 4, 1), np.float32)).shape
TensorShape([1, 4, 4, 2])
>>> [w.name for w in layer.weights]
['conv2d/kernel:0', 'conv2d/bias:0']
"""
from eagerflow._src.backend.api_export import export
from eagerflow._src.core.tensor_shape import TensorShape
from eagerflow._src.keras import activations, backend
from eagerflow._src.keras.layers import weight_arguments
from eagerflow._src.keras.engine.base_layer import Layer
from eagerflow._src.keras.engine.input_spec import InputSpec
from eagerflow._src.ops import array_ops, conv_ops, nn_ops

_SPATIAL_FORMATS = {1: "W", 2: "HW", 3: "DHW"}


# -- argument normalization (shared with the pooling and reshaping layers) ---------------

def normalize_tuple(value, n, name, allow_zero=False):
    """`value` (an int or `n` ints) as a tuple of `n` ints, each > 0 (>= 0 with `allow_zero`).

    >>> normalize_tuple(3, 2, "kernel_size")
    (3, 3)
    """
    message = f"The `{name}` argument must be a tuple of {n} integers. Received: {value}"
    if isinstance(value, int):
        values = (value,) * n
    else:
        try:
            values = tuple(value)
        except TypeError:
            raise ValueError(message) from None
        if len(values) != n:
            raise ValueError(message)
        for item in values:
            try:
                int(item)
            except (ValueError, TypeError):
                raise ValueError(f"{message}including element {item} of type "
                                 f"{type(item)}") from None
    bad = {v for v in values if v < 0} if allow_zero else {v for v in values if v <= 0}
    if bad:
        raise ValueError(f"{message} including {bad} that does not satisfy the requirement "
                         f"`{'>= 0' if allow_zero else '> 0'}`.")
    return values


def normalize_padding(value):
    """``'valid'``, ``'same'`` or ``'causal'`` from any capitalization."""
    padding = value.lower() if isinstance(value, str) else value
    if padding not in ("valid", "same", "causal"):
        raise ValueError('The `padding` argument must be a list/tuple or one of "valid", '
                         '"same" (or "causal", only for `Conv1D). '
                         f"Received: {padding}")
    return padding


def conv_output_length(length, kernel_size, padding, stride, dilation=1):
    """The length of a convolution's (or pooling's) output along one axis; None stays None.

    >>> conv_output_length(5, 3, "valid", 2)
    2
    """
    if length is None:
        return None
    if padding == "valid":
        length -= (kernel_size - 1) * dilation
    return (length + stride - 1) // stride


def deconv_output_length(length, kernel_size, padding, output_padding, stride, dilation=1):
    """The length of a transposed convolution's output along one axis; None stays None.

    >>> deconv_output_length(4, 3, "same", None, 2)
    8
    """
    if length is None:
        return None
    kernel_size += (kernel_size - 1) * (dilation - 1)
    if output_padding is None:
        if padding == "same":
            return length * stride
        return length * stride + max(kernel_size - stride, 0)
    pad = kernel_size // 2 if padding == "same" else 0
    return (length - 1) * stride + kernel_size - 2 * pad + output_padding


def tf_data_format(data_format, rank):
    """The op-level layout string: ``('channels_first', 2)`` -> ``'NCHW'``."""
    spatial = _SPATIAL_FORMATS[rank]
    return f"NC{spatial}" if data_format == "channels_first" else f"N{spatial}C"


# -- layers -------------------------------------------------------------------------------

class Conv(Layer):
    """The base of convolution layers of `rank` spatial dimensions (1, 2 or 3).

    Inputs may have several leading batch dimensions. Subclasses choose the
    weights (`_create_weights`, `_kernels`), the operation (`_convolve`, which
    receives 2-D-lifted operands when ``rank == 1``) and the output length rule
    (`_output_length`, `_output_channels`).

    >>> Conv(2, 4, 3).compute_output_shape((None, 8, 8, 1))
    TensorShape([None, 6, 6, 4])
    """

    _allows_causal = False  # Conv1D and SeparableConv1D only
    _exact_rank = False  # transposed, depthwise and separable ones take rank + 2 inputs only
    _exact_rank_spec = None  # the built spec's rank exact (None: as `_exact_rank`)

    def __init__(self, rank, filters, kernel_size, strides=1, padding="valid", data_format=None,
                 dilation_rate=1, groups=1, activation=None, use_bias=True,
                 kernel_initializer="glorot_uniform", bias_initializer="zeros",
                 kernel_regularizer=None, bias_regularizer=None, activity_regularizer=None,
                 kernel_constraint=None, bias_constraint=None, **kwargs):
        super().__init__(activity_regularizer=activity_regularizer, **kwargs)
        self.rank = rank
        if isinstance(filters, float):
            filters = int(filters)
        if filters is not None and filters <= 0:
            raise ValueError(f"Invalid value for argument `filters`. Expected a strictly "
                             f"positive value. Received filters={filters}.")
        self.filters = filters
        self.groups = groups or 1
        self.kernel_size = normalize_tuple(kernel_size, rank, "kernel_size")
        self.strides = normalize_tuple(strides, rank, "strides", allow_zero=True)
        self.padding = normalize_padding(padding)
        self.data_format = backend.normalize_data_format(data_format)
        self.dilation_rate = normalize_tuple(dilation_rate, rank, "dilation_rate")
        self.activation = activations.get(activation)
        self.use_bias = use_bias
        weight_arguments.resolve(
            self, kernel_initializer=kernel_initializer, bias_initializer=bias_initializer,
            kernel_regularizer=kernel_regularizer, bias_regularizer=bias_regularizer,
            kernel_constraint=kernel_constraint, bias_constraint=bias_constraint)
        self.input_spec = InputSpec(min_ndim=rank + 2)
        self._validate_init()

    def _validate_init(self):
        if self.filters is not None and self.filters % self.groups != 0:
            raise ValueError(f"The number of filters must be evenly divisible by the number of "
                             f"groups. Received: groups={self.groups}, filters={self.filters}")
        if not all(self.strides):
            raise ValueError(f"The argument `strides` cannot contains 0(s). "
                             f"Received: {self.strides}")
        if self.padding == "causal" and not self._allows_causal:
            raise ValueError("Causal padding is only supported for `Conv1D`and "
                             "`SeparableConv1D`.")
        if max(self.strides) > 1 and max(self.dilation_rate) > 1:
            raise ValueError(f"`strides > 1` not supported in conjunction with "
                             f"`dilation_rate > 1`. Received: strides={self.strides} and "
                             f"dilation_rate={self.dilation_rate}")

    # -- geometry -------------------------------------------------------------------------
    @property
    def _channel_axis(self):
        return -1 - self.rank if self.data_format == "channels_first" else -1

    def _spatial_dims(self, dims):
        """The last `rank` spatial entries of a shape's dims (also of a 2-D-lifted one)."""
        return dims[-self.rank:] if self.data_format == "channels_first" else \
            dims[-self.rank - 1:-1]

    def _lift(self, values):
        """Per-axis op arguments with the unit axis of a 1-D convolution prepended."""
        return (1,) * (self.rank == 1) + tuple(values)

    @property
    def _unit_axis(self):
        """Where a 1-D convolution inserts its unit height: before its one spatial axis."""
        return -2 if self.data_format == "channels_first" else -3

    @property
    def _op_padding(self):
        return "VALID" if self.padding == "causal" else self.padding.upper()

    @property
    def _op_format(self):
        return tf_data_format(self.data_format, max(self.rank, 2))

    _inputs_text = "inputs"

    def _output_length(self, axis, length):
        return conv_output_length(length, self.kernel_size[axis], self.padding,
                                  self.strides[axis], self.dilation_rate[axis])

    def _output_channels(self, input_channels):
        return self.filters

    def compute_output_shape(self, input_shape):
        dims = TensorShape(input_shape).as_list()
        spatial = [self._output_length(i, n) for i, n in enumerate(self._spatial_dims(dims))]
        channels = [self._output_channels(dims[self._channel_axis])]
        outer = dims[:-self.rank - 1]
        try:
            if self.data_format == "channels_first":
                return TensorShape(outer + channels + spatial)
            return TensorShape(outer + spatial + channels)
        except ValueError:
            raise ValueError(f"One of the dimensions in the output is <= 0 due to downsampling "
                             f"in {self.name}. Consider increasing the input size. Received "
                             f"input shape {dims} which would produce output shape with a "
                             f"zero or negative value in a dimension.") from None

    # -- weights --------------------------------------------------------------------------
    def build(self, input_shape):
        input_shape = TensorShape(input_shape)
        if self._exact_rank and input_shape.rank != self.rank + 2:
            raise ValueError(f"Inputs should have rank {self.rank + 2}. "
                             f"Received input_shape={input_shape}.")
        channels = input_shape[self._channel_axis]
        if channels is None:
            raise ValueError(f"The channel dimension of the {self._inputs_text} should be "
                             f"defined. The input_shape received is {input_shape}, where axis "
                             f"{self._channel_axis} (0-based) is the channel dimension, which "
                             f"found to be `None`.")
        self.compute_output_shape(input_shape)
        self._create_weights(channels, input_shape)
        exact = self._exact_rank if self._exact_rank_spec is None else self._exact_rank_spec
        rank_spec = {"ndim" if exact else "min_ndim": self.rank + 2}
        self.input_spec = InputSpec(**rank_spec, axes={self._channel_axis: channels})
        self.built = True

    def _create_weights(self, channels, input_shape):
        if channels % self.groups != 0:
            raise ValueError(f"The number of input channels must be evenly divisible by the "
                             f"number of groups. Received groups={self.groups}, but the input "
                             f"has {channels} channels (full input shape is {input_shape}).")
        self.kernel = self._add_kernel("kernel", (channels // self.groups, self.filters),
                                       self.kernel_initializer, self.kernel_regularizer,
                                       self.kernel_constraint)
        self._add_bias(self.filters)

    def _add_kernel(self, name, channel_dims, initializer, regularizer, constraint,
                    spatial=None):
        shape = (self.kernel_size if spatial is None else spatial) + channel_dims
        return self.add_weight(name, shape=shape, initializer=initializer,
                               regularizer=regularizer, constraint=constraint,
                               trainable=True, dtype=self.dtype)

    def _add_bias(self, size):
        self.bias = self.add_weight(
            "bias", shape=(size,), initializer=self.bias_initializer,
            regularizer=self.bias_regularizer, constraint=self.bias_constraint,
            trainable=True, dtype=self.dtype) if self.use_bias else None

    def _kernels(self):
        return (self.kernel,)

    # -- computation ----------------------------------------------------------------------
    def call(self, inputs):
        if self.padding == "causal":
            inputs = array_ops.pad(inputs, self._causal_padding(inputs.shape.rank))
        if type(self)._convolve is Conv._convolve:  # a plain convolution: an override of
            outputs = self.convolution_op(inputs, self.kernel)  # convolution_op runs it
        else:
            outputs = self._convolve_rank(inputs, self._kernels())
        if self.use_bias:
            outputs = self._add_bias_to(outputs)
        if self.activation is not None:
            outputs = self.activation(outputs)
        return outputs

    def convolution_op(self, inputs, kernel):
        """`inputs` convolved with `kernel` as this layer convolves (its strides, padding,
        dilations and data format), without bias or activation; a subclass may override it
        to transform the kernel first.

        >>> conv = tf.keras.layers.Conv1D(1, 2, kernel_initializer="ones")
        >>> conv.convolution_op(tf.ones([1, 3, 1]), tf.ones([2, 1, 1])).numpy().ravel()
        array([2., 2.], dtype=float32)
        """
        return self._convolve_rank(inputs, (kernel,))

    def _convolve_rank(self, inputs, kernels):
        if self.rank == 1:  # (a 2-D convolution over a unit axis)
            inputs = array_ops.expand_dims(inputs, self._unit_axis)
            kernels = [array_ops.expand_dims(k, 0) for k in kernels]
        outputs = self._convolve(inputs, *kernels)
        if self.rank == 1:
            outputs = array_ops.squeeze(outputs, [self._unit_axis])
        return outputs

    def _causal_padding(self, input_rank):
        """Pads the start of the time axis so no output sees a later step."""
        paddings = [[0, 0] for _ in range(input_rank)]
        paddings[-2 if self.data_format == "channels_last" else -1] = \
            [self.dilation_rate[0] * (self.kernel_size[0] - 1), 0]
        return paddings

    def _convolve(self, inputs, kernel):
        op = conv_ops.conv3d if self.rank == 3 else conv_ops.conv2d
        if self.rank == 3 and self.groups > 1:
            # TF's CPU kernel of Conv3D takes no groups (Keras compiles the grouped one with
            # XLA): each group is convolved alone, its outputs concatenated
            axis = 1 if self._op_format.startswith("NC") else -1
            return array_ops.concat([
                self._convolve_group(op, x, k) for x, k in zip(
                    array_ops.split(inputs, self.groups, axis),
                    array_ops.split(kernel, self.groups, -1))], axis)
        return self._convolve_group(op, inputs, kernel)

    def _convolve_group(self, op, inputs, kernel):
        return op(inputs, kernel, self._lift(self.strides), self._op_padding, self._op_format,
                  self._lift(self.dilation_rate))

    def _add_bias_to(self, outputs):
        if self.data_format == "channels_last":
            return nn_ops.bias_add(outputs, self.bias)
        # channels sit at a fixed distance from the end, whatever the number of batch axes
        return outputs + array_ops.reshape(self.bias, (-1,) + (1,) * self.rank)

    def get_config(self):
        config = super().get_config()
        config.update({
            "filters": self.filters, "kernel_size": self.kernel_size, "strides": self.strides,
            "padding": self.padding, "data_format": self.data_format,
            "dilation_rate": self.dilation_rate, "groups": self.groups,
            "activation": activations.serialize(self.activation), "use_bias": self.use_bias,
            **weight_arguments.config(self, ("kernel", "bias"))})
        return config


@export("keras.layers.Conv1D", "keras.layers.Convolution1D")
class Conv1D(Conv):
    """1-D convolution over (batch, steps, channels) inputs; ``padding='causal'`` allowed.

    >>> tf.keras.layers.Conv1D(4, 3, padding="causal")(np.ones((2, 10, 3), np.float32)).shape
    TensorShape([2, 10, 4])
    """

    _allows_causal = True

    def __init__(self, filters, kernel_size, strides=1, padding="valid",
                 data_format="channels_last", dilation_rate=1, groups=1, activation=None,
                 use_bias=True, kernel_initializer="glorot_uniform", bias_initializer="zeros",
                 kernel_regularizer=None, bias_regularizer=None, activity_regularizer=None,
                 kernel_constraint=None, bias_constraint=None, **kwargs):
        super().__init__(1, filters, kernel_size, strides, padding, data_format, dilation_rate,
                         groups, activation, use_bias, kernel_initializer, bias_initializer,
                         kernel_regularizer, bias_regularizer, activity_regularizer,
                         kernel_constraint, bias_constraint, **kwargs)


@export("keras.layers.Conv2D", "keras.layers.Convolution2D")
class Conv2D(Conv):
    """2-D convolution over (batch, rows, cols, channels) inputs (or channels first).

    >>> tf.keras.layers.Conv2D(8, 3, strides=2)(np.ones((1, 9, 9, 3), np.float32)).shape
    TensorShape([1, 4, 4, 8])
    """

    def __init__(self, filters, kernel_size, strides=(1, 1), padding="valid", data_format=None,
                 dilation_rate=(1, 1), groups=1, activation=None, use_bias=True,
                 kernel_initializer="glorot_uniform", bias_initializer="zeros",
                 kernel_regularizer=None, bias_regularizer=None, activity_regularizer=None,
                 kernel_constraint=None, bias_constraint=None, **kwargs):
        super().__init__(2, filters, kernel_size, strides, padding, data_format, dilation_rate,
                         groups, activation, use_bias, kernel_initializer, bias_initializer,
                         kernel_regularizer, bias_regularizer, activity_regularizer,
                         kernel_constraint, bias_constraint, **kwargs)


@export("keras.layers.Conv3D", "keras.layers.Convolution3D")
class Conv3D(Conv):
    """3-D convolution over (batch, depth, rows, cols, channels) inputs (or channels first).

    >>> tf.keras.layers.Conv3D(2, 2)(np.ones((1, 3, 3, 3, 1), np.float32)).shape
    TensorShape([1, 2, 2, 2, 2])
    """

    def __init__(self, filters, kernel_size, strides=(1, 1, 1), padding="valid",
                 data_format=None, dilation_rate=(1, 1, 1), groups=1, activation=None,
                 use_bias=True, kernel_initializer="glorot_uniform", bias_initializer="zeros",
                 kernel_regularizer=None, bias_regularizer=None, activity_regularizer=None,
                 kernel_constraint=None, bias_constraint=None, **kwargs):
        super().__init__(3, filters, kernel_size, strides, padding, data_format, dilation_rate,
                         groups, activation, use_bias, kernel_initializer, bias_initializer,
                         kernel_regularizer, bias_regularizer, activity_regularizer,
                         kernel_constraint, bias_constraint, **kwargs)


class _ConvTranspose:
    """What a transposed convolution changes in its `Conv`: kernel layout
    ``(*kernel_size, filters, input_channels)``, the output length rule and
    `output_padding` (the extra length on one side, below the stride). Spatial input
    sizes unknown before run time are read from the input's dynamic shape."""

    _allows_causal = False
    _exact_rank = True

    def __init__(self, filters, kernel_size, strides=1, padding="valid", output_padding=None,
                 data_format=None, dilation_rate=1, activation=None, use_bias=True,
                 kernel_initializer="glorot_uniform", bias_initializer="zeros",
                 kernel_regularizer=None, bias_regularizer=None, activity_regularizer=None,
                 kernel_constraint=None, bias_constraint=None, **kwargs):
        # configs carry the base's `groups` entry
        super().__init__(filters, kernel_size, strides, padding, data_format, dilation_rate,
                         kwargs.pop("groups", 1), activation, use_bias, kernel_initializer,
                         bias_initializer, kernel_regularizer, bias_regularizer,
                         activity_regularizer, kernel_constraint, bias_constraint, **kwargs)
        self.output_padding = output_padding
        if output_padding is not None:
            self.output_padding = normalize_tuple(output_padding, self.rank, "output_padding",
                                                  allow_zero=True)
            if any(pad >= stride for pad, stride in zip(self.output_padding, self.strides)):
                raise ValueError(f"Strides must be greater than output padding. Received "
                                 f"strides={self.strides}, "
                                 f"output_padding={self.output_padding}.")

    @property
    def _inputs_text(self):
        return f"inputs to `{type(self).__name__}`"

    @property
    def _op_dilations(self):
        return self.dilation_rate

    def _create_weights(self, channels, input_shape):
        self.kernel = self._add_kernel("kernel", (self.filters, channels),
                                       self.kernel_initializer, self.kernel_regularizer,
                                       self.kernel_constraint)
        self._add_bias(self.filters)

    def _output_length(self, axis, length):
        return deconv_output_length(
            length, self.kernel_size[axis], self.padding,
            None if self.output_padding is None else self.output_padding[axis],
            self.strides[axis], self._op_dilations[axis])

    def _convolve(self, inputs, kernel):
        # (traced with a rank unknown: the op's rank, every size known at run time only)
        dims = [None] * (5 if self.rank == 3 else 4) if inputs.shape.rank is None else \
            inputs.shape.as_list()
        if None in dims:  # sizes known at run time only: the output's come from them then
            shape = array_ops.shape(inputs)
            dims = [shape[i] if d is None else d for i, d in enumerate(dims)]
        sizes = self._lift(self._output_length(i, n)
                           for i, n in enumerate(self._spatial_dims(dims)))
        output_shape = [dims[0], self.filters, *sizes] if self.data_format == "channels_first" \
            else [dims[0], *sizes, self.filters]
        op = conv_ops.conv3d_transpose if self.rank == 3 else conv_ops.conv2d_transpose
        return op(inputs, kernel, output_shape, self._lift(self.strides), self._op_padding,
                  self._op_format, self._lift(self._op_dilations))

    def get_config(self):
        config = super().get_config()
        config["output_padding"] = self.output_padding
        return config


@export("keras.layers.Conv1DTranspose", "keras.layers.Convolution1DTranspose")
class Conv1DTranspose(_ConvTranspose, Conv1D):
    """Transposed 1-D convolution: upsamples (batch, steps, channels) inputs.

    >>> tf.keras.layers.Conv1DTranspose(2, 3, strides=2, padding="same")(
    ...     np.ones((1, 4, 1), np.float32)).shape
    TensorShape([1, 8, 2])
    """


@export("keras.layers.Conv2DTranspose", "keras.layers.Convolution2DTranspose")
class Conv2DTranspose(_ConvTranspose, Conv2D):
    """Transposed 2-D convolution ("deconvolution"): upsamples images.

    >>> tf.keras.layers.Conv2DTranspose(2, 3, strides=2)(np.ones((1, 4, 4, 1), np.float32)).shape
    TensorShape([1, 9, 9, 2])
    """

    def _convolve(self, inputs, kernel):
        backend.check_square_dilation(self.dilation_rate)
        return super()._convolve(inputs, kernel)


@export("keras.layers.Conv3DTranspose", "keras.layers.Convolution3DTranspose")
class Conv3DTranspose(_ConvTranspose, Conv3D):
    """Transposed 3-D convolution: upsamples volumes.

    As in tf_keras, `dilation_rate` is checked but not applied (the output is that of
    a dilation rate of 1) and is left out of the config.

    >>> layer = tf.keras.layers.Conv3DTranspose(2, 3, strides=2, padding="same")
    >>> layer(np.ones((1, 2, 3, 4, 1), np.float32)).shape
    TensorShape([1, 4, 6, 8, 2])
    """

    @property
    def _op_dilations(self):
        return (1,) * self.rank

    def get_config(self):
        config = super().get_config()
        del config["dilation_rate"]
        return config


class DepthwiseConv(Conv):
    """The base of depthwise convolutions: each input channel convolved with its own
    `depth_multiplier` filters (``depthwise_kernel``: ``(*kernel_size, channels,
    depth_multiplier)``), giving ``channels * depth_multiplier`` outputs."""

    _exact_rank = True
    _exact_rank_spec = False  # (as tf_keras's, built on rank + 2 but then checking at least)
    _inputs_text = "inputs to `DepthwiseConv`"

    def __init__(self, rank, kernel_size, strides=1, padding="valid", depth_multiplier=1,
                 data_format=None, dilation_rate=1, activation=None, use_bias=True,
                 depthwise_initializer="glorot_uniform", bias_initializer="zeros",
                 depthwise_regularizer=None, bias_regularizer=None, activity_regularizer=None,
                 depthwise_constraint=None, bias_constraint=None, **kwargs):
        super().__init__(rank, None, kernel_size, strides=strides, padding=padding,
                         data_format=data_format, dilation_rate=dilation_rate,
                         activation=activation, use_bias=use_bias,
                         bias_initializer=bias_initializer, bias_regularizer=bias_regularizer,
                         activity_regularizer=activity_regularizer,
                         bias_constraint=bias_constraint, **kwargs)
        self.depth_multiplier = depth_multiplier
        weight_arguments.resolve(self, depthwise_initializer=depthwise_initializer,
                                 depthwise_regularizer=depthwise_regularizer,
                                 depthwise_constraint=depthwise_constraint)

    def _output_channels(self, input_channels):
        return None if input_channels is None else input_channels * self.depth_multiplier

    def _create_weights(self, channels, input_shape):
        self.depthwise_kernel = self._add_kernel(
            "depthwise_kernel", (channels, self.depth_multiplier), self.depthwise_initializer,
            self.depthwise_regularizer, self.depthwise_constraint)
        self._add_bias(channels * self.depth_multiplier)

    def _kernels(self):
        return (self.depthwise_kernel,)

    def _convolve(self, inputs, kernel):
        return conv_ops.depthwise_conv2d(inputs, kernel, self._lift(self.strides),
                                         self._op_padding, self._op_format,
                                         self._lift(self.dilation_rate))

    def get_config(self):
        config = super().get_config()
        for key in ("filters", "kernel_initializer", "kernel_regularizer", "kernel_constraint"):
            config.pop(key)
        config.update({
            "depth_multiplier": self.depth_multiplier,
            **weight_arguments.config(self, ("depthwise",), activity=False)})
        return config


@export("keras.layers.DepthwiseConv1D")
class DepthwiseConv1D(DepthwiseConv):
    """Depthwise 1-D convolution over (batch, steps, channels) inputs.

    >>> tf.keras.layers.DepthwiseConv1D(3, depth_multiplier=2)(np.ones((1, 5, 3), np.float32)).shape
    TensorShape([1, 3, 6])
    """

    def __init__(self, kernel_size, strides=1, padding="valid", depth_multiplier=1,
                 data_format=None, dilation_rate=1, activation=None, use_bias=True,
                 depthwise_initializer="glorot_uniform", bias_initializer="zeros",
                 depthwise_regularizer=None, bias_regularizer=None, activity_regularizer=None,
                 depthwise_constraint=None, bias_constraint=None, **kwargs):
        super().__init__(1, kernel_size, strides, padding, depth_multiplier, data_format,
                         dilation_rate, activation, use_bias, depthwise_initializer,
                         bias_initializer, depthwise_regularizer, bias_regularizer,
                         activity_regularizer, depthwise_constraint, bias_constraint, **kwargs)


@export("keras.layers.DepthwiseConv2D")
class DepthwiseConv2D(DepthwiseConv):
    """Depthwise 2-D convolution: one set of filters per input channel.

    >>> tf.keras.layers.DepthwiseConv2D(3, depth_multiplier=2)(
    ...     np.ones((1, 5, 5, 3), np.float32)).shape
    TensorShape([1, 3, 3, 6])
    """

    def __init__(self, kernel_size, strides=(1, 1), padding="valid", depth_multiplier=1,
                 data_format=None, dilation_rate=(1, 1), activation=None, use_bias=True,
                 depthwise_initializer="glorot_uniform", bias_initializer="zeros",
                 depthwise_regularizer=None, bias_regularizer=None, activity_regularizer=None,
                 depthwise_constraint=None, bias_constraint=None, **kwargs):
        super().__init__(2, kernel_size, strides, padding, depth_multiplier, data_format,
                         dilation_rate, activation, use_bias, depthwise_initializer,
                         bias_initializer, depthwise_regularizer, bias_regularizer,
                         activity_regularizer, depthwise_constraint, bias_constraint, **kwargs)


class SeparableConv(Conv):
    """The base of separable convolutions: a depthwise convolution, then a 1x1 convolution
    (``pointwise_kernel``: ``(1, ..., channels * depth_multiplier, filters)``) mixing channels."""

    _exact_rank = True

    def __init__(self, rank, filters, kernel_size, strides=1, padding="valid", data_format=None,
                 dilation_rate=1, depth_multiplier=1, activation=None, use_bias=True,
                 depthwise_initializer="glorot_uniform", pointwise_initializer="glorot_uniform",
                 bias_initializer="zeros", depthwise_regularizer=None,
                 pointwise_regularizer=None, bias_regularizer=None, activity_regularizer=None,
                 depthwise_constraint=None, pointwise_constraint=None, bias_constraint=None,
                 **kwargs):
        super().__init__(rank, filters, kernel_size, strides=strides, padding=padding,
                         data_format=data_format, dilation_rate=dilation_rate,
                         activation=activation, use_bias=use_bias,
                         bias_initializer=bias_initializer, bias_regularizer=bias_regularizer,
                         activity_regularizer=activity_regularizer,
                         bias_constraint=bias_constraint, **kwargs)
        self.depth_multiplier = depth_multiplier
        weight_arguments.resolve(
            self, depthwise_initializer=depthwise_initializer,
            pointwise_initializer=pointwise_initializer,
            depthwise_regularizer=depthwise_regularizer,
            pointwise_regularizer=pointwise_regularizer,
            depthwise_constraint=depthwise_constraint, pointwise_constraint=pointwise_constraint)

    def _create_weights(self, channels, input_shape):
        self.depthwise_kernel = self._add_kernel(
            "depthwise_kernel", (channels, self.depth_multiplier), self.depthwise_initializer,
            self.depthwise_regularizer, self.depthwise_constraint)
        self.pointwise_kernel = self._add_kernel(
            "pointwise_kernel", (channels * self.depth_multiplier, self.filters),
            self.pointwise_initializer, self.pointwise_regularizer, self.pointwise_constraint,
            spatial=(1,) * self.rank)
        self._add_bias(self.filters)

    def _kernels(self):
        return self.depthwise_kernel, self.pointwise_kernel

    def _convolve(self, inputs, depthwise_kernel, pointwise_kernel):
        outputs = conv_ops.depthwise_conv2d(inputs, depthwise_kernel, self._lift(self.strides),
                                            self._op_padding, self._op_format,
                                            self._lift(self.dilation_rate))
        return conv_ops.conv2d(outputs, pointwise_kernel, 1, "VALID", self._op_format)

    def get_config(self):
        config = super().get_config()
        config.update({
            "depth_multiplier": self.depth_multiplier,
            **weight_arguments.config(self, ("depthwise", "pointwise"), activity=False)})
        return config


@export("keras.layers.SeparableConv1D", "keras.layers.SeparableConvolution1D")
class SeparableConv1D(SeparableConv):
    """Separable 1-D convolution over (batch, steps, channels); ``padding='causal'`` allowed.

    >>> tf.keras.layers.SeparableConv1D(4, 3)(np.ones((1, 5, 2), np.float32)).shape
    TensorShape([1, 3, 4])
    """

    _allows_causal = True

    def __init__(self, filters, kernel_size, strides=1, padding="valid", data_format=None,
                 dilation_rate=1, depth_multiplier=1, activation=None, use_bias=True,
                 depthwise_initializer="glorot_uniform", pointwise_initializer="glorot_uniform",
                 bias_initializer="zeros", depthwise_regularizer=None,
                 pointwise_regularizer=None, bias_regularizer=None, activity_regularizer=None,
                 depthwise_constraint=None, pointwise_constraint=None, bias_constraint=None,
                 **kwargs):
        super().__init__(1, filters, kernel_size, strides, padding, data_format, dilation_rate,
                         depth_multiplier, activation, use_bias, depthwise_initializer,
                         pointwise_initializer, bias_initializer, depthwise_regularizer,
                         pointwise_regularizer, bias_regularizer, activity_regularizer,
                         depthwise_constraint, pointwise_constraint, bias_constraint, **kwargs)


@export("keras.layers.SeparableConv2D", "keras.layers.SeparableConvolution2D")
class SeparableConv2D(SeparableConv):
    """Separable 2-D convolution: per-channel spatial filters, then a 1x1 channel mix.

    >>> tf.keras.layers.SeparableConv2D(4, 3)(np.ones((1, 5, 5, 2), np.float32)).shape
    TensorShape([1, 3, 3, 4])
    """

    def __init__(self, filters, kernel_size, strides=(1, 1), padding="valid", data_format=None,
                 dilation_rate=(1, 1), depth_multiplier=1, activation=None, use_bias=True,
                 depthwise_initializer="glorot_uniform", pointwise_initializer="glorot_uniform",
                 bias_initializer="zeros", depthwise_regularizer=None,
                 pointwise_regularizer=None, bias_regularizer=None, activity_regularizer=None,
                 depthwise_constraint=None, pointwise_constraint=None, bias_constraint=None,
                 **kwargs):
        super().__init__(2, filters, kernel_size, strides, padding, data_format, dilation_rate,
                         depth_multiplier, activation, use_bias, depthwise_initializer,
                         pointwise_initializer, bias_initializer, depthwise_regularizer,
                         pointwise_regularizer, bias_regularizer, activity_regularizer,
                         depthwise_constraint, pointwise_constraint, bias_constraint, **kwargs)


Convolution1D = Conv1D
Convolution2D = Conv2D
Convolution3D = Conv3D
Convolution1DTranspose = Conv1DTranspose
Convolution2DTranspose = Conv2DTranspose
Convolution3DTranspose = Conv3DTranspose
SeparableConvolution1D = SeparableConv1D
SeparableConvolution2D = SeparableConv2D
