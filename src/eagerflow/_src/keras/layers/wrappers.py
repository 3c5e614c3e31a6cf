"""Layers wrapping a layer: `TimeDistributed` applies it to every time step, `Bidirectional`
runs a recurrent layer forwards and backwards and merges the two, `SpectralNormalization`
normalizes its kernel.

>>> tf.keras.backend.clear_session()  # layer names count from zero again
>>> layer = tf.keras.layers.Bidirectional(tf.keras.layers.LSTM(4, return_sequences=True))
>>> layer(tf.ones((2, 3, 5))).shape
TensorShape([2, 3, 8])
>>> [w.name for w in layer.weights][0]
'bidirectional/forward_lstm/lstm_cell/kernel:0'
"""
import copy
import inspect

from eagerflow._src.backend.api_export import export
from eagerflow._src.core import context, nest
from eagerflow._src.core.convert import convert_to_tensor
from eagerflow._src.core.tensor_shape import TensorShape
from eagerflow._src.ops import array_ops, cast_ops, linalg_ops, math_ops, reduction_ops
from eagerflow._src.keras import initializers
from eagerflow._src.keras.engine import keras_tensor
from eagerflow._src.keras.engine.base_layer import Layer
from eagerflow._src.keras.engine.input_spec import InputSpec
from eagerflow._src.keras.layers.recurrent import (
    _accepts, _deserialize, _spec_of, _standardize_args, _symbolic_extras, rnn)
from eagerflow._src.keras.utils import serialization
from eagerflow._src.ragged.ragged_tensor import RaggedTensor


@export("keras.layers.Wrapper")
class Wrapper(Layer):
    """The base of layers that wrap another: holds `layer` and builds it with itself."""

    def __init__(self, layer, **kwargs):
        if not isinstance(layer, Layer):
            raise ValueError(f"Layer {layer} supplied to wrapper is not a supported layer type. "
                             f"Please ensure wrapped layer is a valid TF-Keras layer.")
        super().__init__(**kwargs)
        self.layer = layer

    def build(self, input_shape=None):
        if not self.layer.built:
            self.layer.build(input_shape)
            self.layer.built = True
        self.built = True

    @property
    def activity_regularizer(self):
        return getattr(self.layer, "activity_regularizer", None)

    def get_config(self):
        config = super().get_config()
        config["layer"] = serialization.serialize_keras_object(self.layer)
        return config

    @classmethod
    def from_config(cls, config, custom_objects=None):
        config = copy.deepcopy(config)
        layer = _deserialize(config.pop("layer"), custom_objects)
        return cls(layer, **config)


def _shape_with(init, tensor, start):
    """``init`` followed by `tensor`'s dims from `start`: static where known, else read
    when it runs."""
    dims = tensor.shape.as_list()[start:]
    if None not in dims:
        return [*init, *dims]
    shape = array_ops.shape(tensor)
    return [*init, *(shape[start + i] if d is None else d for i, d in enumerate(dims))]


def _merge_time(x):
    """``(batch, time, ...)`` as ``(batch * time, ...)``."""
    return array_ops.reshape(x, _shape_with([-1], x, 2))


def _split_time(y, inputs):
    """``(batch * time, ...)`` back to ``(batch, time, ...)``, as the first of `inputs`."""
    first = nest.flatten(inputs)[0]
    steps = first.shape[1] or array_ops.shape(first)[1]
    return array_ops.reshape(y, _shape_with([first.shape[0] or -1, steps], y, 1))


@export("keras.layers.TimeDistributed")
class TimeDistributed(Wrapper):
    """Applies `layer` to every time step of ``(batch, time, ...)`` inputs.

    Built-in layers see all steps at once as one batch of ``batch * time``;
    other layers (which may depend on the batch) are called step by step.

    >>> layer = tf.keras.layers.TimeDistributed(tf.keras.layers.Dense(2, kernel_initializer="ones"))
    >>> layer(tf.ones((1, 3, 4))).numpy()[0]
    array([[4., 4.],
           [4., 4.],
           [4., 4.]], dtype=float32)
    """

    def __init__(self, layer, **kwargs):
        if not isinstance(layer, Layer):
            raise ValueError(f"Please initialize `TimeDistributed` layer with a "
                             f"`tf.keras.layers.Layer` instance. Received: {layer}")
        super().__init__(layer, **kwargs)
        self.supports_masking = True
        builtin = type(layer).__module__.startswith("eagerflow._src.keras.")
        self._always_use_reshape = builtin and not getattr(layer, "stateful", False)

    @staticmethod
    def _map_shapes(fn, input_shape):
        return fn(TensorShape(input_shape)) if keras_tensor.is_shape(input_shape) else \
            nest.map_structure(lambda s: fn(TensorShape(s)), input_shape)

    def build(self, input_shape):
        ranks = nest.flatten(self._map_shapes(lambda s: s.rank, input_shape))
        if any(r is None or r < 3 for r in ranks):
            raise ValueError(f"`TimeDistributed` Layer should be passed an `input_shape ` with "
                             f"at least 3 dimensions, received: {input_shape}")
        self.input_spec = self._map_shapes(
            lambda s: InputSpec(shape=[None, None, *s.as_list()[2:]]), input_shape)
        super().build(self._map_shapes(_without_time, input_shape))

    def compute_output_shape(self, input_shape):
        inner = self.layer.compute_output_shape(self._map_shapes(_without_time, input_shape))
        steps = nest.flatten(self._map_shapes(lambda s: s[1], input_shape))[0]
        return self._map_shapes(lambda s: TensorShape([s[0], steps, *s.as_list()[1:]]), inner)

    def _reshapes(self, inputs):
        """Whether all steps go through the layer as one batch (else step by step)."""
        batch = nest.flatten(inputs)[0].shape[0]
        return not batch or self._always_use_reshape

    def call(self, inputs, training=None, mask=None):
        kwargs = {"training": training} if _accepts(self.layer, "training") else {}
        if not self._reshapes(inputs):
            _, outputs, _ = rnn(lambda x, _: (self.layer(x, **kwargs), []), inputs, [],
                                mask=mask)
            return outputs
        ragged = [isinstance(x, RaggedTensor) for x in nest.flatten(inputs)]
        if all(ragged):  # the layer sees every row's steps as one batch: the values
            outputs = self.layer(nest.map_structure(lambda x: x.values, inputs), **kwargs)
            lengths = nest.flatten(inputs)[0].row_lengths()
            return nest.map_structure(
                lambda y: RaggedTensor.from_row_lengths(y, lengths), outputs)
        if any(ragged):
            raise ValueError(f"All inputs has to be either ragged or not, but not mixed. "
                             f"Received: {inputs}")
        if mask is not None and _accepts(self.layer, "mask"):
            kwargs["mask"] = _merge_time(mask)
        outputs = self.layer(nest.map_structure(_merge_time, inputs), **kwargs)
        return nest.map_structure(lambda y: _split_time(y, inputs), outputs)

    def compute_mask(self, inputs, mask=None):
        # (arrays too, as Keras takes them here)
        inputs = nest.map_structure(
            lambda x: x if isinstance(x, RaggedTensor) else convert_to_tensor(x), inputs)
        if mask is not None and not isinstance(mask, (list, tuple)):
            mask = convert_to_tensor(mask)
        if not self._reshapes(inputs) or any(isinstance(x, RaggedTensor)
                                             for x in nest.flatten(inputs)):
            return mask
        output_mask = self.layer.compute_mask(nest.map_structure(_merge_time, inputs),
                                              None if mask is None else _merge_time(mask))
        if output_mask is not None:
            return _split_time(output_mask, inputs)
        if mask is None:
            return None
        # a mask over more than (batch, time): a step counts if any of it does
        for _ in range(2, mask.shape.rank):
            mask = reduction_ops.reduce_any(mask, axis=-1)
        return mask


def _without_time(shape):
    dims = shape.as_list()
    return TensorShape([dims[0], *dims[2:]])


@export("keras.layers.Bidirectional")
class Bidirectional(Wrapper):
    """Runs a recurrent `layer` over the sequence and a copy of it over the reversed
    sequence, and merges their outputs (`merge_mode`: ``'concat'``, ``'sum'``, ``'mul'``,
    ``'ave'``, or None for a list of both).

    The backward outputs are put back in time order before merging; with
    `return_state` the forward states come first.  `backward_layer` replaces
    the copy (it must read the sequence backwards).

    >>> layer = tf.keras.layers.Bidirectional(tf.keras.layers.GRU(2, return_state=True),
    ...                                       merge_mode="sum")
    >>> [t.shape for t in layer(tf.ones((1, 3, 4)))]
    [TensorShape([1, 2]), TensorShape([1, 2]), TensorShape([1, 2])]
    """

    # `layer` is only the template of the two halves: as in Keras, neither its weights,
    # its checkpoint entries nor its trainable flag are the wrapper's
    _UNTRACKED_ATTRIBUTES = Wrapper._UNTRACKED_ATTRIBUTES | {"layer"}

    def __init__(self, layer, merge_mode="concat", weights=None, backward_layer=None, **kwargs):
        if not isinstance(layer, Layer):
            raise ValueError(f"Please initialize `Bidirectional` layer with a "
                             f"`tf.keras.layers.Layer` instance. Received: {layer}")
        if backward_layer is not None and not isinstance(backward_layer, Layer):
            raise ValueError(f"`backward_layer` need to be a `tf.keras.layers.Layer` instance. "
                             f"Received: {backward_layer}")
        if merge_mode not in ["sum", "mul", "ave", "concat", None]:
            raise ValueError(f"Invalid merge mode. Received: {merge_mode}. Merge mode should be "
                             f'one of {{"sum", "mul", "ave", "concat", None}}')
        super().__init__(layer, **kwargs)
        self.forward_layer = self._recreate_layer_from_config(layer)
        if backward_layer is None:
            self.backward_layer = self._recreate_layer_from_config(layer, go_backwards=True)
        else:
            self.backward_layer = backward_layer
            self._backward_layer_config = serialization.serialize_keras_object(backward_layer)
        self.forward_layer._name = "forward_" + self.forward_layer.name
        self.backward_layer._name = "backward_" + self.backward_layer.name
        self._verify_layer_config()
        # a masked step of a merged sequence is zeros in both directions
        for half in (self.forward_layer, self.backward_layer):
            if getattr(half, "zero_output_for_mask", None) is not None:
                half.zero_output_for_mask = half.return_sequences
        self.merge_mode = merge_mode
        if weights:
            half = len(weights) // 2
            self.forward_layer._initial_weights = weights[:half]
            self.backward_layer._initial_weights = weights[half:]
        self.stateful = layer.stateful
        self.return_sequences = layer.return_sequences
        self.return_state = layer.return_state
        self.supports_masking = True
        self._trainable = kwargs.get("trainable", layer.trainable)
        self._num_constants = 0
        self.input_spec = layer.input_spec

    def _module_children(self):
        # TF's module walk still meets the template, after the tracked halves
        return [*super()._module_children(), self.layer]

    def _verify_layer_config(self):
        forward, backward = self.forward_layer, self.backward_layer
        if forward.go_backwards == backward.go_backwards:
            raise ValueError(f"Forward layer and backward layer should have different "
                             f"`go_backwards` value.forward_layer.go_backwards = "
                             f"{forward.go_backwards},backward_layer.go_backwards = "
                             f"{backward.go_backwards}")
        for attr in ("stateful", "return_sequences", "return_state"):
            forward_value, backward_value = getattr(forward, attr), getattr(backward, attr)
            if forward_value != backward_value:
                raise ValueError(f"Forward layer and backward layer are expected to have the "
                                 f'same value for attribute "{attr}", got "{forward_value}" '
                                 f'for forward layer and "{backward_value}" for backward layer')

    @staticmethod
    def _recreate_layer_from_config(layer, go_backwards=False):
        config = layer.get_config()
        if go_backwards:
            config["go_backwards"] = not config["go_backwards"]
        if "custom_objects" not in inspect.signature(type(layer).from_config).parameters:
            return type(layer).from_config(config)
        cell = getattr(layer, "cell", None)
        custom_objects = {type(c).__name__: type(c)
                          for c in ([cell, *getattr(cell, "cells", ())] if cell else [])}
        return type(layer).from_config(config, custom_objects=custom_objects)

    def compute_output_shape(self, input_shape):
        output_shape = self.forward_layer.compute_output_shape(input_shape)
        if self.return_state:
            output_shape, state_shape = output_shape[0], list(output_shape[1:])
        output_shape = TensorShape(output_shape)
        if self.merge_mode == "concat":
            dims = output_shape.as_list()
            dims[-1] = None if dims[-1] is None else dims[-1] * 2
            output_shape = TensorShape(dims)
        elif self.merge_mode is None:
            output_shape = [output_shape, copy.copy(output_shape)]
        if not self.return_state:
            return output_shape
        if self.merge_mode is None:
            return output_shape + state_shape + copy.copy(state_shape)
        return [output_shape] + state_shape + copy.copy(state_shape)

    def __call__(self, inputs, initial_state=None, constants=None, **kwargs):
        inputs, initial_state, constants = _standardize_args(
            inputs, initial_state, constants, self._num_constants)
        if initial_state is not None:
            if len(initial_state) % 2:
                raise ValueError(f"When passing `initial_state` to a Bidirectional RNN, the "
                                 f"state should be a list containing the states of the "
                                 f"underlying RNNs. Received: {initial_state}")
            kwargs["initial_state"] = initial_state
            specs = nest.map_structure(_spec_of, initial_state)
            half = len(initial_state) // 2
            self.forward_layer.state_spec = specs[:half]
            self.backward_layer.state_spec = specs[half:]
        if constants is not None:
            kwargs["constants"] = constants
            self._num_constants = len(constants)
            self.forward_layer._num_constants = self._num_constants
            self.backward_layer._num_constants = self._num_constants
        extra = (initial_state or []) + (constants or [])
        if not _symbolic_extras(extra, "The initial state of a Bidirectional layer cannot be "
                                "specified with a mix of TF-Keras tensors and non-Keras tensors "
                                "(a \"Keras tensor\" is a tensor that was returned by a "
                                "TF-Keras layer, or by `Input`)"):
            return super().__call__(inputs, **kwargs)
        # As `RNN`: Keras tensors for states or constants are inputs of the node (which
        # Keras records with the call's `initial_state` and `constants` as None).
        kwargs["initial_state"] = kwargs["constants"] = None
        original = self.input_spec
        self.input_spec = [None for _ in nest.flatten(inputs)] + \
            nest.map_structure(_spec_of, extra)
        try:
            return super().__call__([inputs] + extra, **kwargs)
        finally:
            self.input_spec = original

    def call(self, inputs, training=None, mask=None, initial_state=None, constants=None):
        if isinstance(inputs, list):  # [inputs, *initial_states, *constants] from `__call__`
            inputs, initial_state, constants = _standardize_args(
                inputs, initial_state, constants, self._num_constants)
        kwargs = {}
        for name, value in (("training", training), ("mask", mask), ("constants", constants)):
            if _accepts(self.layer, name):
                kwargs[name] = value
        if _accepts(self.layer, "initial_state"):
            forward_state = backward_state = None
            if initial_state is not None:
                half = len(initial_state) // 2
                forward_state, backward_state = initial_state[:half], initial_state[half:]
            y = self.forward_layer(inputs, initial_state=forward_state, **kwargs)
            y_rev = self.backward_layer(inputs, initial_state=backward_state, **kwargs)
        else:
            y, y_rev = self.forward_layer(inputs, **kwargs), self.backward_layer(inputs, **kwargs)
        if self.return_state:
            states = list(y[1:]) + list(y_rev[1:])
            y, y_rev = y[0], y_rev[0]
        if self.return_sequences:
            time_axis = 0 if getattr(self.forward_layer, "time_major", False) else 1
            y_rev = array_ops.reverse(y_rev, [time_axis])
        if self.merge_mode == "concat":
            output = array_ops.concat([y, y_rev], -1)
        elif self.merge_mode == "sum":
            output = math_ops.add(y, y_rev)
        elif self.merge_mode == "ave":
            output = math_ops.truediv(math_ops.add(y, y_rev), 2)
        elif self.merge_mode == "mul":
            output = math_ops.multiply(y, y_rev)
        else:
            output = [y, y_rev]
        if self.return_state:
            return (output if self.merge_mode is None else [output]) + states
        return output

    def reset_states(self, states=None):
        if not self.stateful:
            raise AttributeError("Layer must be stateful.")
        if states is None:
            self.forward_layer.reset_states()
            self.backward_layer.reset_states()
            return
        if not isinstance(states, (list, tuple)):
            raise ValueError(f"Unrecognized value for `states`. Expected `states` to be list "
                             f"or tuple. Received: {states}")
        half = len(states) // 2
        self.forward_layer.reset_states(states[:half])
        self.backward_layer.reset_states(states[half:])

    def build(self, input_shape):
        for half in (self.forward_layer, self.backward_layer):
            with context.name_scope_push(half.name):
                half.build(input_shape)
            half.built = True
            if half._initial_weights is not None:
                half.set_weights(half._initial_weights)
                half._initial_weights = None
        self.built = True

    def compute_mask(self, inputs, mask):
        if isinstance(mask, list):
            mask = mask[0]
        if self.return_sequences:
            output_mask = [mask, mask] if not self.merge_mode else mask
        else:
            output_mask = [None, None] if not self.merge_mode else None
        if not self.return_state:
            return output_mask
        state_mask = [None for _ in self.forward_layer.states]
        if isinstance(output_mask, list):
            return output_mask + state_mask * 2
        return [output_mask] + state_mask * 2

    def get_config(self):
        config = super().get_config()
        config["merge_mode"] = self.merge_mode
        if self._num_constants:
            config["num_constants"] = self._num_constants
        if hasattr(self, "_backward_layer_config"):
            config["backward_layer"] = self._backward_layer_config
        return config

    @classmethod
    def from_config(cls, config, custom_objects=None):
        config = copy.deepcopy(config)
        num_constants = config.pop("num_constants", 0)
        config["layer"] = _deserialize(config["layer"], custom_objects)
        backward = config.pop("backward_layer", None)
        if backward is not None:
            config["backward_layer"] = _deserialize(backward, custom_objects)
        layer = cls(**config)
        layer._num_constants = num_constants
        return layer


@export("keras.layers.SpectralNormalization")
class SpectralNormalization(Wrapper):
    """Divides the `kernel` (or `embeddings`) of the wrapped layer by its largest singular
    value, estimated by `power_iterations` steps of the power method per training call
    (Miyato et al., 2018), which bounds the layer's Lipschitz constant (GAN discriminators).
    The estimate's vector (``vector_u``) is kept between calls; outside training the layer
    runs on its weights as they were last normalized.

    >>> layer = tf.keras.layers.SpectralNormalization(tf.keras.layers.Dense(2))
    >>> layer(np.ones((1, 3)), training=True).shape
    TensorShape([1, 2])
    """

    def __init__(self, layer, power_iterations=1, **kwargs):
        super().__init__(layer, **kwargs)
        if power_iterations <= 0:
            raise ValueError("`power_iterations` should be greater than zero. Received: "
                             f"`power_iterations={power_iterations}`")
        self.power_iterations = power_iterations

    def build(self, input_shape):
        super().build(input_shape)
        self.input_spec = InputSpec(shape=[None] + list(TensorShape(input_shape))[1:])
        if hasattr(self.layer, "kernel"):
            self.kernel = self.layer.kernel
        elif hasattr(self.layer, "embeddings"):
            self.kernel = self.layer.embeddings
        else:
            raise ValueError(f"{type(self.layer).__name__} object has no attribute 'kernel' "
                             "nor 'embeddings'")
        self.kernel_shape = self.kernel.shape.as_list()
        self.vector_u = self.add_weight(
            shape=(1, self.kernel_shape[-1]), initializer=initializers.TruncatedNormal(
                stddev=0.02), trainable=False, name="vector_u", dtype=self.kernel.dtype)

    def call(self, inputs, training=False):
        if training:
            self.normalize_weights()
        return self.layer(inputs)

    def compute_output_shape(self, input_shape):
        return self.layer.compute_output_shape(input_shape)

    def normalize_weights(self):
        """One normalization: power iterations from ``vector_u``, then the kernel divided by
        the estimated spectral norm (an all-zero kernel and its vector stay as they are)."""
        weights = array_ops.reshape(self.kernel, [-1, self.kernel_shape[-1]])
        zero = reduction_ops.reduce_all(math_ops.equal(weights, 0.0))
        vector_u = self.vector_u
        for _ in range(self.power_iterations):
            vector_v = reduction_ops.l2_normalize(
                linalg_ops.matmul(vector_u, weights, transpose_b=True))
            vector_u = reduction_ops.l2_normalize(linalg_ops.matmul(vector_v, weights))
        vector_u = cast_ops.stop_gradient(vector_u)
        vector_v = cast_ops.stop_gradient(vector_v)
        sigma = linalg_ops.matmul(linalg_ops.matmul(vector_v, weights), vector_u,
                                  transpose_b=True)
        # without a branch, so that a traced step needs no condition
        vector_u = array_ops.where(zero, self.vector_u, vector_u)
        sigma = array_ops.where(zero, array_ops.ones_like(sigma), sigma)
        self.vector_u.assign(cast_ops.cast(vector_u, self.vector_u.dtype))
        self.kernel.assign(cast_ops.cast(array_ops.reshape(weights / sigma, self.kernel_shape),
                                         self.kernel.dtype))

    def get_config(self):
        return {**super().get_config(), "power_iterations": self.power_iterations}
