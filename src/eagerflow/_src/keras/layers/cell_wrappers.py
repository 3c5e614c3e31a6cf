"""Wrappers of a Keras RNN cell, TF's ``tf.nn.RNNCellDropoutWrapper``,
``tf.nn.RNNCellResidualWrapper`` and ``tf.nn.RNNCellDeviceWrapper``.

A wrapper is a cell: it has the wrapped cell's `state_size` and `output_size`,
its build builds the cell (whose weights are then named under the wrapper's
scope: ``rnn/dropout_wrapper/kernel:0``), and its step runs the cell's `call`
with something around it: dropout of the inputs, states and outputs; the
inputs added to the outputs; a device.  They are Keras classes that TF offers
in ``tf.nn``: ``tf.nn`` loads them on first use, keeping ``import eagerflow``
free of Keras.

As TF's, a `DropoutWrapper` drops whether or not the call is training: its
keep probabilities are its whole switch.

>>> cell = tf.nn.RNNCellResidualWrapper(tf.keras.layers.SimpleRNNCell(
...     2, kernel_initializer="zeros", recurrent_initializer="zeros"))
>>> tf.keras.layers.RNN(cell)(tf.ones((1, 3, 2)))
<tf.Tensor: shape=(1, 2), dtype=float32, numpy=array([[1., 1.]], dtype=float32)>
"""
import hashlib
import inspect
import itertools

from eagerflow._src.backend.api_export import export
from eagerflow._src.core import context, nest
from eagerflow._src.core.convert import convert_to_tensor, get_static_value
from eagerflow._src.core.tensor_shape import TensorShape
from eagerflow._src.graph.tensor_array import TensorArray
from eagerflow._src.ops import math_ops, nn_ops, random_ops
from eagerflow._src.keras.engine.base_layer import Layer
from eagerflow._src.keras.layers.recurrent import AbstractRNNCell, _deserialize
from eagerflow._src.keras.utils import serialization

# The module TF 2.21's ``tf.nn`` classes come from: their configs name it.
_TF_MODULE = "tensorflow.python.keras.layers.rnn_cell_wrapper_v2"


class _CellWrapper(AbstractRNNCell):
    """What the wrappers share: the wrapped cell, built and called within the wrapper's own
    build and call, and its config under ``cell``.  Subclasses define `_call_wrapped_cell`:
    ``(inputs, state, cell_call_fn, **kwargs) -> (output, new_state)``."""

    def __init__(self, cell, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.cell = cell
        params = inspect.signature(cell.call).parameters
        self._cell_takes_any = any(p.kind is p.VAR_KEYWORD for p in params.values())
        self._cell_params = set(params)

    def call(self, inputs, state, **kwargs):
        # (the call arguments Keras gives every call that the cell's `call` does not take)
        kwargs = {k: v for k, v in kwargs.items() if self._cell_takes_any or
                  k in self._cell_params or k not in ("training", "mask")}
        return self._call_wrapped_cell(inputs, state, cell_call_fn=self.cell.call, **kwargs)

    def _call_wrapped_cell(self, inputs, state, cell_call_fn, **kwargs):
        raise NotImplementedError

    def _call_reporting_arguments(self, inputs, args, kwargs):
        # TF's wrappers are layers of TF's own Keras, whose errors name no layer (inside an
        # RNN, the RNN names itself)
        return self.call(inputs, *args, **kwargs)

    def build(self, input_shape):
        if not getattr(self.cell, "built", False):
            self.cell.build(input_shape)
            if isinstance(self.cell, Layer):
                self.cell.built = True
        self.built = True

    @property
    def wrapped_cell(self):
        return self.cell

    @property
    def state_size(self):
        return self.cell.state_size

    @property
    def output_size(self):
        return self.cell.output_size

    def zero_state(self, batch_size, dtype):
        with context.name_scope(type(self).__name__ + "ZeroState"):
            return self.cell.zero_state(batch_size, dtype)

    # The functions a wrapper holds, {config key: (attribute, constructor argument)}: in its
    # config as TF writes them, under the key (bytecode or a name) and its `_type` and
    # `_module` (where one is given).
    _functions = {}

    def _wrapper_config(self):
        """The config entries of the wrapper's own arguments but its functions."""
        return {}

    def get_config(self):
        config = super().get_config()
        config["cell"] = {"class_name": type(self.cell).__name__,
                          "config": self.cell.get_config()}
        config.update(self._wrapper_config())
        for key, (attribute, _) in self._functions.items():
            function = getattr(self, attribute)
            if function is not None and function is not _default_state_filter:
                value, kind, module = serialization.function_config(function)
                config.update({key: value, f"{key}_type": kind, f"{key}_module": module})
        return config

    @classmethod
    def from_config(cls, config, custom_objects=None):
        config = dict(config)
        for key, (_, argument) in cls._functions.items():
            if key in config:
                config[argument] = _function_from_config(config, key, custom_objects)
        return cls(_deserialize(config.pop("cell"), custom_objects), **config)


def _function_from_config(config, key, custom_objects):
    """The function `get_config` wrote under `key`, its entries taken off `config`."""
    module = config.pop(f"{key}_module", None)
    kind = config.pop(f"{key}_type")
    value = config.pop(key)
    if kind == "raw":  # (a clone's config holds the function itself)
        return value
    if kind == "function":
        return serialization.legacy_deserialize_keras_object(
            value, custom_objects=custom_objects, printable_module_name="function in wrapper")
    if kind != "lambda":
        raise TypeError(f"Unknown function type received: {kind}. Expected types are "
                        f"['function', 'lambda']")
    return serialization.function_from_bytecode(value, module, custom_objects, "a layer",
                                                "`lambda`")


def _default_state_filter(substate):
    """Every state is dropped but an LSTM state tuple's memory ``c``, and no TensorArray."""
    if isinstance(substate, tuple) and type(substate).__name__ == "LSTMStateTuple":
        return type(substate)(c=False, h=True)
    return not isinstance(substate, TensorArray)


def _drops(keep_prob):
    """Whether a keep probability drops anything: not a constant 1 (a tensor may)."""
    return not isinstance(keep_prob, float) or keep_prob < 1


def _enumerated(func):
    """`func` given, before its arguments, how many times it was called before."""
    count = itertools.count()
    return lambda *args: func(next(count), *args)


class DropoutWrapperBase:
    """The dropout of `DropoutWrapper`, for a wrapper class of a cell class (this one's, or
    TF 1's ``tf.compat.v1.nn.rnn_cell.DropoutWrapper``) that calls `_call_wrapped_cell`."""

    def __init__(self, cell, input_keep_prob=1.0, output_keep_prob=1.0, state_keep_prob=1.0,
                 variational_recurrent=False, input_size=None, dtype=None, seed=None,
                 dropout_state_filter_visitor=None, **kwargs):
        super().__init__(cell, dtype=dtype, **kwargs)
        if dropout_state_filter_visitor is not None and not callable(
                dropout_state_filter_visitor):
            raise TypeError(self._filter_error(dropout_state_filter_visitor))
        self._dropout_state_filter = dropout_state_filter_visitor or _default_state_filter
        with context.name_scope("DropoutWrapperInit"):
            for name, prob in (("input_keep_prob", input_keep_prob),
                               ("state_keep_prob", state_keep_prob),
                               ("output_keep_prob", output_keep_prob)):
                tensor = convert_to_tensor(prob)
                value = get_static_value(tensor)
                if value is not None and not 0 <= value <= 1:
                    raise ValueError(self._keep_prob_error(name, value))
                setattr(self, "_" + name, tensor if value is None else float(value))
        self._variational_recurrent = variational_recurrent
        self._input_size = input_size
        self._seed = seed
        self._recurrent_input_noise = None
        self._recurrent_state_noise = None
        self._recurrent_output_noise = None
        if not variational_recurrent:
            return
        if dtype is None:
            raise ValueError("When variational_recurrent=True, dtype must be provided")
        if _drops(self._input_keep_prob):
            if input_size is None:
                raise ValueError("When variational_recurrent=True and input_keep_prob < 1.0 or "
                                 "is unknown, input_size must be provided")
            self._recurrent_input_noise = self._noise("input", input_size, dtype)
        self._recurrent_state_noise = self._noise("state", cell.state_size, dtype)
        self._recurrent_output_noise = self._noise("output", cell.output_size, dtype)

    @staticmethod
    def _filter_error(visitor):
        return "dropout_state_filter_visitor must be callable"

    @staticmethod
    def _keep_prob_error(name, value):
        return "Parameter %s must be between 0 and 1: %d" % (name, value)

    def _gen_seed(self, salt, index):
        """The seed of mask `index` of `salt` ("input", "state", "output"), from `seed`."""
        if self._seed is None:
            return None
        digest = hashlib.md5(f"{self._seed}{salt}_{index}".encode("utf-8")).hexdigest()
        return int(digest[:8], 16) & 0x7FFFFFFF

    def _noise(self, salt, sizes, dtype):
        """Uniform noise of one batch row for each size of `sizes`."""
        def draw(index, size):
            return random_ops.uniform([1, *TensorShape(size).as_list()], dtype=dtype,
                                      seed=self._gen_seed(salt, index))
        return nest.map_structure_up_to(sizes, _enumerated(draw), sizes)

    def _dropout(self, values, salt, noise, keep_prob, shallow=None):
        """`values` with dropout where `shallow` (by default, `values`) has no False."""
        shallow = values if shallow is None else shallow

        def drop(index, do, value, *noise_of_value):
            if isinstance(do, bool) and not do:
                return value
            if not noise_of_value:
                return nn_ops.dropout(value, rate=1.0 - keep_prob,
                                      seed=self._gen_seed(salt, index))
            # keep + [0, 1) noise is at least 1 (kept) with probability keep
            kept = math_ops.floor(math_ops.add(keep_prob, noise_of_value[0]))
            return math_ops.multiply(math_ops.divide(value, keep_prob), kept)
        structures = (shallow, values) + ((noise,) if self._variational_recurrent else ())
        return nest.map_structure_up_to(shallow, _enumerated(drop), *structures)

    def _call_wrapped_cell(self, inputs, state, cell_call_fn, **kwargs):
        if _drops(self._input_keep_prob):
            inputs = self._dropout(inputs, "input", self._recurrent_input_noise,
                                   self._input_keep_prob)
        output, new_state = cell_call_fn(inputs, state, **kwargs)
        if _drops(self._state_keep_prob):
            kept = nest.get_traverse_shallow_structure(self._dropout_state_filter, new_state)
            new_state = self._dropout(new_state, "state", self._recurrent_state_noise,
                                      self._state_keep_prob, kept)
        if _drops(self._output_keep_prob):
            output = self._dropout(output, "output", self._recurrent_output_noise,
                                   self._output_keep_prob)
        return output, new_state


@export("nn.RNNCellDropoutWrapper")
class DropoutWrapper(DropoutWrapperBase, _CellWrapper):
    """Dropout of a cell's inputs, states and outputs, each with its keep probability.

    Each step draws new masks, unless `variational_recurrent`: then masks of
    one row each, drawn as the wrapper is made (it needs the `dtype`, and the
    `input_size` to drop inputs), drop the same units of every step and
    every batch row.  ``dropout_state_filter_visitor(substate)`` says which
    states drop: a bool, or a structure of bools, one per part of `substate`
    (by default every state but an LSTM state tuple's ``c``).  With `seed`,
    each mask's seed is derived from it, as TF's.

    >>> cell = tf.nn.RNNCellDropoutWrapper(tf.keras.layers.GRUCell(4), output_keep_prob=0.5)
    >>> outputs = tf.keras.layers.RNN(cell, return_sequences=True)(tf.ones((2, 3, 5)))
    >>> sorted(set((outputs.numpy() == 0).ravel().tolist()))  # dropped even in inference
    [False, True]
    """

    _serialized_module = _TF_MODULE
    _serialized_registered_name = "DropoutWrapper"
    _functions = {"dropout_fn": ("_dropout_state_filter", "dropout_state_filter_visitor")}

    def _wrapper_config(self):
        return {"input_keep_prob": self._input_keep_prob,
                "output_keep_prob": self._output_keep_prob,
                "state_keep_prob": self._state_keep_prob,
                "variational_recurrent": self._variational_recurrent,
                "input_size": self._input_size, "seed": self._seed}


class ResidualWrapperBase:
    """The residual sum of `ResidualWrapper`, for a wrapper class of a cell class (see
    `DropoutWrapperBase`)."""

    def __init__(self, cell, residual_fn=None, **kwargs):
        super().__init__(cell, **kwargs)
        self._residual_fn = residual_fn

    def _call_wrapped_cell(self, inputs, state, cell_call_fn, **kwargs):
        outputs, new_state = cell_call_fn(inputs, state, **kwargs)
        return (self._residual_fn or _sum)(inputs, outputs), new_state


@export("nn.RNNCellResidualWrapper")
class ResidualWrapper(ResidualWrapperBase, _CellWrapper):
    """A cell whose outputs are ``residual_fn(inputs, outputs)``: by default their sum
    (inputs and outputs then have the same structure and shapes).

    >>> cell = tf.nn.RNNCellResidualWrapper(tf.keras.layers.SimpleRNNCell(2),
    ...                                     residual_fn=lambda inputs, outputs: inputs)
    >>> output, state = cell(tf.ones((1, 2)), [tf.zeros((1, 2))])
    >>> output
    <tf.Tensor: shape=(1, 2), dtype=float32, numpy=array([[1., 1.]], dtype=float32)>
    """

    _serialized_module = _TF_MODULE
    _serialized_registered_name = "ResidualWrapper"
    _functions = {"residual_fn": ("_residual_fn", "residual_fn")}


def _sum(inputs, outputs):
    """`inputs` + `outputs`, leaf by leaf, once their structures and shapes match."""
    nest.assert_same_structure(inputs, outputs)
    nest.map_structure(lambda x, y: x.shape.assert_is_compatible_with(y.shape), inputs, outputs)
    return nest.map_structure(math_ops.add, inputs, outputs)


class DeviceWrapperBase:
    """The device of `DeviceWrapper`, for a wrapper class of a cell class (see
    `DropoutWrapperBase`)."""

    def __init__(self, cell, device, **kwargs):
        super().__init__(cell, **kwargs)
        self._device = device

    def zero_state(self, batch_size, dtype):
        with context.name_scope(type(self).__name__ + "ZeroState"), \
                context.device(self._device):
            return self.cell.zero_state(batch_size, dtype)

    def _call_wrapped_cell(self, inputs, state, cell_call_fn, **kwargs):
        with context.device(self._device):
            return cell_call_fn(inputs, state, **kwargs)


@export("nn.RNNCellDeviceWrapper")
class DeviceWrapper(DeviceWrapperBase, _CellWrapper):
    """A cell whose steps (and zero states) run on `device` (``'/cpu:0'``).

    >>> cell = tf.nn.RNNCellDeviceWrapper(tf.keras.layers.GRUCell(2), "/cpu:0")
    >>> tf.keras.layers.RNN(cell)(tf.ones((1, 3, 2))).device
    '/job:localhost/replica:0/task:0/device:CPU:0'
    """

    _serialized_module = _TF_MODULE
    _serialized_registered_name = "DeviceWrapper"

    def _wrapper_config(self):
        return {"device": self._device}
