"""Convolutional LSTMs (``ConvLSTM1D/2D/3D``): an LSTM whose gates are convolutions, over
sequences of 1-, 2- or 3-D feature maps ``(batch, time, *spatial, channels)`` (or
``(batch, time, channels, *spatial)`` with ``data_format="channels_first"``).

>>> layer = tf.keras.layers.ConvLSTM2D(2, 3)
>>> layer(tf.ones((1, 4, 5, 5, 1))).shape
TensorShape([1, 3, 3, 2])
"""
from eagerflow._src.backend.api_export import export
from eagerflow._src.core.tensor_shape import TensorShape
from eagerflow._src.ops import array_ops, conv_ops, math_ops, nn_ops, reduction_ops
from eagerflow._src.keras import activations, backend, regularizers
from eagerflow._src.keras.engine.base_layer import Layer
from eagerflow._src.keras.engine.input_spec import InputSpec
from eagerflow._src.keras.layers import weight_arguments
from eagerflow._src.keras.layers.convolutional import tf_data_format
from eagerflow._src.keras.layers.recurrent import (RNN, DropoutRNNCellMixin, _read,
                                                    _serialized)


def _tuple(value, rank, name):
    value = tuple(value) if isinstance(value, (list, tuple)) else (value,) * rank
    if len(value) != rank:
        raise ValueError(f"The `{name}` argument must be a tuple of {rank} integers. "
                         f"Received: {value}")
    return value


def _conv_length(length, kernel, padding, stride, dilation):
    if length is None:
        return None
    span = (kernel - 1) * dilation + 1
    length = length if padding == "same" else length - span + 1
    return (length + stride - 1) // stride


class ConvLSTMCell(DropoutRNNCellMixin, Layer):
    """One step of a convolutional LSTM: gates i, f, c, o from a convolution of the inputs
    (`kernel`) and a "same" convolution of the state h (`recurrent_kernel`)."""

    _config_keys = ("filters", "kernel_size", "strides", "padding", "data_format",
                    "dilation_rate", "activation", "recurrent_activation", "use_bias",
                    "kernel_initializer", "recurrent_initializer", "bias_initializer",
                    "unit_forget_bias", "kernel_regularizer", "recurrent_regularizer",
                    "bias_regularizer", "kernel_constraint", "recurrent_constraint",
                    "bias_constraint", "dropout", "recurrent_dropout")

    def __init__(self, rank, filters, kernel_size, strides=1, padding="valid", data_format=None,
                 dilation_rate=1, activation="tanh", recurrent_activation="hard_sigmoid",
                 use_bias=True, kernel_initializer="glorot_uniform",
                 recurrent_initializer="orthogonal", bias_initializer="zeros",
                 unit_forget_bias=True, kernel_regularizer=None, recurrent_regularizer=None,
                 bias_regularizer=None, kernel_constraint=None, recurrent_constraint=None,
                 bias_constraint=None, dropout=0.0, recurrent_dropout=0.0, **kwargs):
        super().__init__(**kwargs)
        self.rank, self.filters = rank, filters
        self.kernel_size = _tuple(kernel_size, rank, "kernel_size")
        self.strides = _tuple(strides, rank, "strides")
        self.padding = padding.lower()
        if self.padding not in ("valid", "same"):
            raise ValueError(f"The `padding` argument must be a string in {{'valid', 'same'}}. "
                             f"Received: {padding}")
        self.data_format = backend.normalize_data_format(data_format)
        self._channels_first = self.data_format == "channels_first"
        self._op_format = tf_data_format(self.data_format, rank)
        self.dilation_rate = _tuple(dilation_rate, rank, "dilation_rate")
        self.activation = activations.get(activation)
        self.recurrent_activation = activations.get(recurrent_activation)
        self.use_bias, self.unit_forget_bias = use_bias, unit_forget_bias
        weight_arguments.resolve(
            self, kernel_initializer=kernel_initializer,
            recurrent_initializer=recurrent_initializer, bias_initializer=bias_initializer,
            kernel_regularizer=kernel_regularizer, recurrent_regularizer=recurrent_regularizer,
            bias_regularizer=bias_regularizer, kernel_constraint=kernel_constraint,
            recurrent_constraint=recurrent_constraint, bias_constraint=bias_constraint)
        self.dropout, self.recurrent_dropout = min(1.0, max(0.0, dropout)), \
            min(1.0, max(0.0, recurrent_dropout))
        self.state_size = [self.filters, self.filters]

    def _state_shape(self, dims):
        """The state's (and a step's output's) dims for a step's input dims `dims` (batch
        first): the convolution's feature maps."""
        spatial = dims[2:] if self._channels_first else dims[1:-1]
        spatial = [_conv_length(d, k, self.padding, s, r) for d, k, s, r in zip(
            spatial, self.kernel_size, self.strides, self.dilation_rate)]
        return [self.filters, *spatial] if self._channels_first else [*spatial, self.filters]

    def build(self, input_shape):
        input_shape = self._build_input_shape = TensorShape(input_shape)
        dims = input_shape.as_list()
        channels = dims[1] if self._channels_first else dims[-1]
        if channels is None:
            raise ValueError(f"The channel dimension of the inputs (last axis) should be "
                             f"defined. Found None. Full input shape received: "
                             f"input_shape={input_shape}")
        state = TensorShape(self._state_shape(dims))
        self.state_size = [state, state]
        self.output_size = state
        width = 4 * self.filters
        self.kernel = self.add_weight(
            "kernel", shape=(*self.kernel_size, channels, width),
            initializer=self.kernel_initializer, regularizer=self.kernel_regularizer,
            constraint=self.kernel_constraint)
        self.recurrent_kernel = self.add_weight(
            "recurrent_kernel", shape=(*self.kernel_size, self.filters, width),
            initializer=self.recurrent_initializer, regularizer=self.recurrent_regularizer,
            constraint=self.recurrent_constraint)
        if self.use_bias:
            init, filters = self.bias_initializer, self.filters
            if self.unit_forget_bias:
                def init(_, dtype=None, base=self.bias_initializer, **kwargs):
                    return array_ops.concat([base((filters,), dtype=dtype, **kwargs),
                                             array_ops.ones((filters,), dtype=dtype),
                                             base((2 * filters,), dtype=dtype, **kwargs)], 0)
            self.bias = self.add_weight("bias", shape=(width,), initializer=init,
                                        regularizer=self.bias_regularizer,
                                        constraint=self.bias_constraint)
        else:
            self.bias = None
        self.built = True

    def input_conv(self, x, kernel, bias=None, padding="valid"):
        out = conv_ops.convolution(x, kernel, strides=self.strides, padding=padding.upper(),
                                   data_format=self._op_format, dilations=self.dilation_rate)
        return out if bias is None else nn_ops.bias_add(out, bias, data_format=self._op_format)

    def recurrent_conv(self, x, kernel):
        return conv_ops.convolution(x, kernel, strides=(1,) * self.rank, padding="SAME",
                                    data_format=self._op_format)

    def call(self, inputs, states, training=None):
        h, c = states[0], states[1]
        dtype = inputs.dtype
        # each gate drops its inputs and states with a mask of its own, as Keras does
        drop = self.get_dropout_mask_for_cell(inputs, training, count=4)
        recurrent_drop = self.get_recurrent_dropout_mask_for_cell(h, training, count=4)
        xs = [inputs] * 4 if not 0 < self.dropout < 1 else \
            [math_ops.multiply(inputs, m) for m in drop]
        hs = [h] * 4 if not 0 < self.recurrent_dropout < 1 else \
            [math_ops.multiply(h, m) for m in recurrent_drop]
        kernels = array_ops.split(_read(self.kernel, dtype), 4, axis=self.rank + 1)
        recurrent = array_ops.split(_read(self.recurrent_kernel, dtype), 4, axis=self.rank + 1)
        biases = array_ops.split(_read(self.bias, dtype), 4) if self.use_bias else [None] * 4
        z = [math_ops.add(self.input_conv(x, k, b, self.padding), self.recurrent_conv(h_, r))
             for x, h_, k, r, b in zip(xs, hs, kernels, recurrent, biases)]
        gate = self.recurrent_activation
        c = math_ops.add(math_ops.multiply(gate(z[1]), c),
                         math_ops.multiply(gate(z[0]), self.activation(z[2])))
        h = math_ops.multiply(gate(z[3]), self.activation(c))
        return h, [h, c]

    def get_config(self):
        config = super().get_config()
        config.update((key, _serialized(key, getattr(self, key))) for key in self._config_keys)
        return config


class _ConvLSTM(RNN):
    _rank = 2

    def __init__(self, filters, kernel_size, strides=1, padding="valid", data_format=None,
                 dilation_rate=1, activation="tanh", recurrent_activation="hard_sigmoid",
                 use_bias=True, kernel_initializer="glorot_uniform",
                 recurrent_initializer="orthogonal", bias_initializer="zeros",
                 unit_forget_bias=True, kernel_regularizer=None, recurrent_regularizer=None,
                 bias_regularizer=None, activity_regularizer=None, kernel_constraint=None,
                 recurrent_constraint=None, bias_constraint=None, return_sequences=False,
                 return_state=False, go_backwards=False, stateful=False, dropout=0.0,
                 recurrent_dropout=0.0, **kwargs):
        cell = ConvLSTMCell(
            self._rank, filters, kernel_size, strides=strides, padding=padding,
            data_format=data_format, dilation_rate=dilation_rate, activation=activation,
            recurrent_activation=recurrent_activation, use_bias=use_bias,
            kernel_initializer=kernel_initializer, recurrent_initializer=recurrent_initializer,
            bias_initializer=bias_initializer, unit_forget_bias=unit_forget_bias,
            kernel_regularizer=kernel_regularizer, recurrent_regularizer=recurrent_regularizer,
            bias_regularizer=bias_regularizer, kernel_constraint=kernel_constraint,
            recurrent_constraint=recurrent_constraint, bias_constraint=bias_constraint,
            dropout=dropout, recurrent_dropout=recurrent_dropout,
            name="conv_lstm_cell", dtype=kwargs.get("dtype"))
        super().__init__(cell, return_sequences=return_sequences, return_state=return_state,
                         go_backwards=go_backwards, stateful=stateful,
                         activity_regularizer=activity_regularizer, **kwargs)
        self.input_spec = [InputSpec(ndim=self._rank + 3)]

    def build(self, input_shape):
        if isinstance(input_shape, list):
            input_shape = input_shape[0]
        if not self.cell.built:  # the cell's weights are named in the layer's scope
            dims = TensorShape(input_shape).as_list()
            self.cell.build(TensorShape([dims[0], *dims[2:]]))
        super().build(input_shape)

    def compute_output_shape(self, input_shape):
        # (the states are feature maps, which the cell's `state_size` of filters alone omits)
        if isinstance(input_shape, list):
            input_shape = input_shape[0]
        dims = TensorShape(input_shape).as_list()
        state = self.cell._state_shape([dims[0], *dims[2:]])
        output = TensorShape([dims[0], dims[1], *state] if self.return_sequences
                             else [dims[0], *state])
        if not self.return_state:
            return output
        return [output] + [TensorShape([dims[0], *state])] * 2

    def get_initial_state(self, inputs):
        """Zero states of the size of the cell's convolution of one step of `inputs`."""
        step = reduction_ops.reduce_sum(array_ops.zeros_like(inputs), axis=1)
        channels = self.cell.kernel.shape[-2]  # (the built channels: a call may not know them)
        kernel = array_ops.zeros((*self.cell.kernel_size, channels, self.cell.filters),
                                 dtype=inputs.dtype)
        state = self.cell.input_conv(step, kernel, padding=self.cell.padding)
        return [state, state]

    def get_config(self):
        config = {}
        for key, value in self.cell.get_config().items():
            if key not in ("name", "trainable", "dtype"):
                config[key] = value
            if key == "bias_regularizer":  # (where Keras lists it)
                config["activity_regularizer"] = regularizers.serialize(
                    self.activity_regularizer)
        base = super().get_config()
        base.pop("cell", None)
        base.pop("activity_regularizer", None)
        return {**base, **config}

    @classmethod
    def from_config(cls, config):
        return cls(**config)


# (the cell's arguments, read through the layer, as Keras's ConvLSTM layers expose them)
for _key in ("filters", "kernel_size", "strides", "padding", "data_format", "dilation_rate",
             "activation", "recurrent_activation", "use_bias", "kernel_initializer",
             "recurrent_initializer", "bias_initializer", "unit_forget_bias",
             "kernel_regularizer", "recurrent_regularizer", "bias_regularizer",
             "kernel_constraint", "recurrent_constraint", "bias_constraint", "dropout",
             "recurrent_dropout"):
    setattr(_ConvLSTM, _key, property(lambda self, key=_key: getattr(self.cell, key)))
del _key


@export("keras.layers.ConvLSTM1D")
class ConvLSTM1D(_ConvLSTM):
    """A convolutional LSTM over sequences of 1-D feature maps ``(batch, time, rows, ch)``."""
    _rank = 1
    _DEFAULT_NAME = "conv_lstm1d"


@export("keras.layers.ConvLSTM2D")
class ConvLSTM2D(_ConvLSTM):
    """A convolutional LSTM over sequences of images ``(batch, time, rows, cols, ch)``."""
    _rank = 2
    _DEFAULT_NAME = "conv_lstm2d"


@export("keras.layers.ConvLSTM3D")
class ConvLSTM3D(_ConvLSTM):
    """A convolutional LSTM over sequences of volumes ``(batch, time, d1, d2, d3, ch)``."""
    _rank = 3
    _DEFAULT_NAME = "conv_lstm3d"
