"""Locally connected layers: convolutions whose weights are not shared across positions.

`implementation` chooses how the weights are held, as in Keras: 1, one kernel per output
position (``[positions, kernel_size * channels, filters]``, 'valid' padding only); 2, one
dense kernel from every input to every output, masked to the receptive fields; 3, the
unmasked entries of that kernel alone.

>>> layer = tf.keras.layers.LocallyConnected1D(2, 3, kernel_initializer="ones")
>>> layer(np.ones((1, 5, 1), np.float32)).shape
TensorShape([1, 3, 2])
>>> [w.shape for w in layer.weights]
[TensorShape([3, 3, 2]), TensorShape([3, 2])]
"""
import itertools

import numpy as np

from eagerflow._src.backend.api_export import export
from eagerflow._src.core.tensor_shape import TensorShape
from eagerflow._src.keras import activations, backend
from eagerflow._src.keras.engine.base_layer import Layer
from eagerflow._src.keras.engine.input_spec import InputSpec
from eagerflow._src.keras.layers import weight_arguments
from eagerflow._src.keras.layers.convolutional import conv_output_length, normalize_padding, \
    normalize_tuple
from eagerflow._src.ops import array_ops, linalg_ops


class _LocallyConnected(Layer):
    """The shared machinery of LocallyConnected1D (`rank` 1) and LocallyConnected2D."""

    rank = None

    def __init__(self, filters, kernel_size, strides=1, padding="valid", data_format=None,
                 activation=None, use_bias=True, kernel_initializer="glorot_uniform",
                 bias_initializer="zeros", kernel_regularizer=None, bias_regularizer=None,
                 activity_regularizer=None, kernel_constraint=None, bias_constraint=None,
                 implementation=1, **kwargs):
        super().__init__(activity_regularizer=activity_regularizer, **kwargs)
        self.filters = filters
        self.kernel_size = normalize_tuple(kernel_size, self.rank, "kernel_size")
        self.strides = normalize_tuple(strides, self.rank, "strides", allow_zero=True)
        self.padding = normalize_padding(padding)
        if self.padding != "valid" and implementation == 1:
            raise ValueError(f'Invalid border mode for {type(self).__name__} (only "valid" is '
                             f"supported if implementation is 1): {padding}")
        self.data_format = backend.normalize_data_format(data_format)
        self.activation = activations.get(activation)
        self.use_bias = use_bias
        self.implementation = implementation
        weight_arguments.resolve(
            self, kernel_initializer=kernel_initializer, bias_initializer=bias_initializer,
            kernel_regularizer=kernel_regularizer, bias_regularizer=bias_regularizer,
            kernel_constraint=kernel_constraint, bias_constraint=bias_constraint)
        self.input_spec = InputSpec(ndim=self.rank + 2)

    # -- geometry ---------------------------------------------------------------------------
    def _split(self, dims):
        """(spatial dims, channels) of an input shape's dims (batch first)."""
        if self.data_format == "channels_first":
            return list(dims[2:]), dims[1]
        return list(dims[1:-1]), dims[-1]

    def _output_dims(self, spatial):
        return [conv_output_length(n, k, self.padding, s)
                for n, k, s in zip(spatial, self.kernel_size, self.strides)]

    def compute_output_shape(self, input_shape):
        dims = TensorShape(input_shape).as_list()
        out = self._output_dims(self._split(dims)[0])
        if self.data_format == "channels_first":
            return TensorShape([dims[0], self.filters] + out)
        return TensorShape([dims[0]] + out + [self.filters])

    def _windows(self):
        """Per output position (row-major): the input index ranges of its receptive field."""
        starts = []
        for n, out, k, s in zip(self._in, self._out, self.kernel_size, self.strides):
            pad = k // 2 if self.padding == "same" else 0  # Keras centres 'same' windows
            starts.append([(i * s - pad, i * s - pad + k) for i in range(out)])
        return list(itertools.product(*starts))

    def _mask(self):
        """The implementation-2 kernel's mask: 1 where an input feeds an output, in the
        kernel's layout (channels_last: inputs..., channels, outputs..., filters)."""
        mask = np.zeros(tuple(self._in) + (self._channels,) + tuple(self._out) + (self.filters,),
                        np.float32)
        for position, window in zip(itertools.product(*[range(o) for o in self._out]),
                                    self._windows()):
            index = tuple(slice(max(a, 0), min(b, n)) for (a, b), n in zip(window, self._in))
            mask[index + (slice(None),) + position + (slice(None),)] = 1
        if self.data_format == "channels_first":
            r = self.rank
            order = [r] + list(range(r)) + [2 * r + 1] + list(range(r + 1, 2 * r + 1))
            mask = np.transpose(mask, order)
        return mask

    # -- weights ----------------------------------------------------------------------------
    def build(self, input_shape):
        input_shape = TensorShape(input_shape)
        spatial, channels = self._split(input_shape.as_list())
        if channels is None or any(n is None for n in spatial):
            raise ValueError(f"{type(self).__name__} Layer requires the input shape to be "
                             f"fully defined (except for the batch dimension). Received: "
                             f"input_shape={input_shape}")
        self._in, self._channels = spatial, channels
        self._out = self._output_dims(spatial)
        if any(o is not None and o <= 0 for o in self._out):
            raise ValueError(f"One of the dimensions in the output is <= 0 due to downsampling "
                             f"in {self.name}. Consider increasing the input size. Received "
                             f"input shape {input_shape} which would produce output shape "
                             f"with a zero or negative value in a dimension.")
        positions = int(np.prod(self._out))
        if self.implementation == 1:
            shape = (positions, int(np.prod(self.kernel_size)) * channels, self.filters)
        elif self.implementation in (2, 3):
            self._kernel_mask = self._mask()
            shape = (self._kernel_mask.shape if self.implementation == 2
                     else (int(self._kernel_mask.sum()),))
        else:
            raise ValueError(f"Unrecognized implementation mode: {self.implementation}.")
        self.kernel = self.add_weight("kernel", shape=shape, initializer=self.kernel_initializer,
                                      regularizer=self.kernel_regularizer,
                                      constraint=self.kernel_constraint, dtype=self.dtype)
        if self.use_bias:
            bias_shape = self._bias_shape()
            self.bias = self.add_weight("bias", shape=bias_shape,
                                        initializer=self.bias_initializer,
                                        regularizer=self.bias_regularizer,
                                        constraint=self.bias_constraint, dtype=self.dtype)
        else:
            self.bias = None
        axis = 1 if self.data_format == "channels_first" else -1
        self.input_spec = InputSpec(ndim=self.rank + 2, axes={axis: channels})
        self.built = True

    def _bias_shape(self):
        return (*self._out, self.filters)

    # -- computation ------------------------------------------------------------------------
    def call(self, inputs):
        if self.implementation == 1:
            outputs = self._per_position(inputs)
        else:
            if self.implementation == 3:
                # the kernel holds the connected (output, input) pairs' weights, the pairs
                # sorted by flat output index, then flat input index
                n_in = int(np.prod(self._kernel_mask.shape[:self.rank + 1]))
                pairs = np.argwhere(self._kernel_mask.reshape(n_in, -1).T).astype(np.int64)
                kernel = array_ops.scatter_nd(pairs, self.kernel, [pairs[:, 0].max() + 1, n_in])
                flat = array_ops.reshape(inputs, [-1, n_in])
                outputs = array_ops.reshape(linalg_ops.matmul(flat, kernel, transpose_b=True),
                                            [-1] + self.compute_output_shape(
                                                inputs.shape).as_list()[1:])
            else:
                outputs = array_ops.tensordot(inputs, self.kernel * self._kernel_mask,
                                              self.rank + 1)
        if self.use_bias:
            bias = self.bias
            if self.data_format == "channels_first":
                # Keras's bias_add reshapes (it does not transpose) the bias to channels first
                bias = array_ops.reshape(bias, [self.filters] + self._out)
            outputs = outputs + bias
        return self.activation(outputs) if self.activation is not None else outputs

    def _per_position(self, inputs):
        """Implementation 1: each output position's patch, flattened, times its kernel."""
        first = self.data_format == "channels_first"
        patches = []
        for window in self._windows():
            index = [slice(None)] + [slice(a, b) for a, b in window]
            index = index[:1] + [slice(None)] + index[1:] if first else index + [slice(None)]
            patch = inputs[tuple(index)]
            # (the kernel's features: the patch's static shape is unknown when the input's is)
            patches.append(array_ops.reshape(patch, [1, -1, self.kernel.shape[1]]))
        stacked = array_ops.concat(patches, 0)  # [positions, batch, features]
        outputs = linalg_ops.matmul(stacked, self.kernel)  # [positions, batch, filters]
        outputs = array_ops.reshape(outputs, self._out + [-1, self.filters])
        r = self.rank
        order = [r] + ([r + 1] + list(range(r)) if first else list(range(r)) + [r + 1])
        return array_ops.transpose(outputs, order)

    def get_config(self):
        config = super().get_config()
        config.update({
            "filters": self.filters, "kernel_size": self.kernel_size, "strides": self.strides,
            "padding": self.padding, "data_format": self.data_format,
            "activation": activations.serialize(self.activation), "use_bias": self.use_bias,
            **weight_arguments.config(self, ("kernel", "bias")),
            "implementation": self.implementation})
        return config


@export("keras.layers.LocallyConnected1D")
class LocallyConnected1D(_LocallyConnected):
    """A 1-D convolution over (batch, steps, channels) inputs whose weights are not shared:
    each output step has its own kernel."""

    rank = 1


@export("keras.layers.LocallyConnected2D")
class LocallyConnected2D(_LocallyConnected):
    """A 2-D convolution whose weights are not shared: each output pixel has its own
    kernel."""

    rank = 2
