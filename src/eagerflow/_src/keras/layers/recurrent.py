"""Recurrent layers: the `RNN` loop over a cell, the SimpleRNN, LSTM and GRU cells and layers.

`rnn` (``keras.backend.rnn``) is the one loop every recurrent layer runs: it
steps a cell over the time axis, carrying the states, and applies the mask
(a masked step keeps the states and repeats the previous output).  Executing
eagerly it is a Python loop; while a graph is built it is unrolled into the
graph when the number of steps is known and small (the fastest program), else
a `while_loop`; a cell with dropout, training in a function, always runs in a
`while_loop` whose body draws its masks, as Keras's, anew at each step.

The built-in cells split a step in two: the input part (``x @ kernel + bias``)
and the recurrent part, one matmul of the previous output with the recurrent
kernel holding every gate (Keras's gate order: i, f, c, o for LSTM; z, r, h
for GRU), then the gates' activations.  Unrolled, the input part runs for
every step at once, as one matmul before the loop.

`LSTM`, `GRU` (with `reset_after`) and `SimpleRNN` with TensorFlow's conditions
for its fused kernels (the default activations, a bias, no recurrent dropout,
not unrolled, no mask) run the whole sequence as one op instead
(`rnn_ops.fused_rnn`: oneDNN's RNN primitives, or NumPy), with the same values.

>>> layer = tf.keras.layers.LSTM(4, return_sequences=True, return_state=True)
>>> outputs, h, c = layer(tf.ones((2, 3, 5)))
>>> outputs.shape, h.shape, c.shape
(TensorShape([2, 3, 4]), TensorShape([2, 4]), TensorShape([2, 4]))
>>> [w.name for w in layer.weights]
['lstm/lstm_cell/kernel:0', 'lstm/lstm_cell/recurrent_kernel:0', 'lstm/lstm_cell/bias:0']
"""
import collections
import inspect

import numpy as np

from eagerflow._src.autodiff.tape import GradientTape
from eagerflow._src.backend import devices
from eagerflow._src.backend import log as _log
from eagerflow._src.backend.api_export import export
from eagerflow._src.core import context, errors, nest
from eagerflow._src.core.convert import convert_to_tensor
from eagerflow._src.core.dtypes import as_dtype
from eagerflow._src.core.registry import kernel_type_name
from eagerflow._src.core.tensor import Tensor
from eagerflow._src.core.tensor_shape import TensorShape
from eagerflow._src.core.variables import Variable
from eagerflow._src.graph import control_flow
from eagerflow._src.graph.graph import SymbolicTensor
from eagerflow._src.graph.tensor_array import TensorArray
from eagerflow._src.ops import (
    array_ops, cast_ops, debugging_ops, linalg_ops, math_ops, nn_ops, reduction_ops, rnn_ops)
from eagerflow._src.keras import activations, backend, regularizers
from eagerflow._src.keras.layers import weight_arguments
from eagerflow._src.keras.engine import keras_tensor
from eagerflow._src.keras.engine.base_layer import Layer
from eagerflow._src.keras.engine.input_spec import InputSpec
from eagerflow._src.keras.utils import serialization
from eagerflow._src.ragged.ragged_tensor import RaggedTensor

# Longest sequence a graph holds unrolled.  Unrolled, the steps are straight-line code with
# no per-iteration bookkeeping: an LSTM(64) training step over 32 steps takes ~78% of the
# while_loop's time (whose gradient also replays every step's forward).  Tracing grows with
# the steps: 0.3 s at 128 steps, against 0.05 s for the while_loop.
_MAX_UNROLLED_STEPS = 128


# -- the loop -----------------------------------------------------------------------------------

def rnn(step_function, inputs, initial_states, go_backwards=False, mask=None, constants=None,
        unroll=False, input_length=None, time_major=False, zero_output_for_mask=False,
        return_all_outputs=True, *, replay_first_step=True, draws_in_loop=False):
    """Iterates ``step_function(inputs_t, states) -> (output_t, new_states)`` over time.

    `inputs` (a tensor or nested structure) is ``(batch, time, ...)``, or
    ``(time, batch, ...)`` with `time_major`; `mask` is ``(batch, time)``
    (booleans, in the same order), and where it is False the states carry
    over and the output repeats the previous one (zeros with
    `zero_output_for_mask`).  `constants` are appended to the states of every
    step.  Returns ``(last_output, outputs, new_states)``; `outputs` holds
    every step's output, or only the last one without `return_all_outputs`.

    As Keras's, a loop not unrolled runs eagerly its first step once more
    before the loop, and drops what it gives (Keras learns the outputs'
    structure so): a step drawing random numbers draws them once more.
    `replay_first_step=False` spares that step where it draws none.
    `draws_in_loop` (a step drawing random numbers anew each time it is built) keeps a
    loop built into a graph a `while_loop` whose body runs every step, as Keras's: each
    step then draws from the body's random ops, the first step too (see `_Loop.while_loop`).

    >>> step = lambda x, states: (states[0] + x, [states[0] + x])
    >>> last, outputs, states = rnn(step, tf.ones((1, 3, 2)), [tf.zeros((1, 2))])
    >>> last
    <tf.Tensor: shape=(1, 2), dtype=float32, numpy=array([[3., 3.]], dtype=float32)>
    """
    flat_inputs = [convert_to_tensor(x) for x in nest.flatten(inputs)]
    if not time_major:
        flat_inputs = [_swap_batch_time(x) for x in flat_inputs]
    steps = flat_inputs[0].shape[0]
    for x in flat_inputs:
        if x.shape.rank is not None and x.shape.rank < 3:
            raise ValueError(f"Shape must be at least rank 3 but is rank {x.shape.rank}")
    if mask is not None:
        mask = convert_to_tensor(mask)
        mask = cast_ops.cast(mask, "bool") if mask.dtype.name != "bool" else mask
        if mask.shape.rank == 2:
            mask = array_ops.expand_dims(mask, -1)
        if not time_major:
            mask = _swap_batch_time(mask)
    if unroll and not steps:
        raise ValueError("Unrolling requires a fixed number of timesteps.")
    if steps == 0:  # TF takes the first step's input first: a slice out of bounds
        for x in flat_inputs:
            x[0]  # noqa: B018 (raises)
    loop = _Loop(step_function, inputs, initial_states, tuple(constants or ()), mask,
                 zero_output_for_mask)
    if replay_first_step and not unroll and steps and context.executing_eagerly():
        first = nest.pack_sequence_as(inputs, [x[-1 if go_backwards else 0]
                                               for x in flat_inputs])
        step_function(first, tuple(initial_states) + loop.constants)
    in_body = draws_in_loop and not unroll and not context.executing_eagerly()
    if _unrolls(steps, unroll) and not in_body:
        last_output, outputs, states = loop.unrolled(flat_inputs, steps, go_backwards,
                                                     return_all_outputs)
    else:
        last_output, outputs, states = loop.while_loop(flat_inputs, go_backwards,
                                                       return_all_outputs, in_body)
    if not time_major:
        outputs = nest.map_structure(_swap_batch_time, outputs)
    return last_output, outputs, states


def _unrolls(steps, unroll):
    """Whether `rnn` runs `steps` steps as a Python loop (else a `while_loop`)."""
    return context.executing_eagerly() or steps is not None and (
        unroll or steps <= _MAX_UNROLLED_STEPS)


class _Loop:
    """One step of `rnn` with the mask applied, and the two ways of running the steps."""

    def __init__(self, step_function, inputs, initial_states, constants, mask, zero_output):
        self.step_function, self.inputs, self.constants = step_function, inputs, constants
        self.initial_states = initial_states
        self.mask, self.zero_output = mask, zero_output
        self._zeros = None  # the outputs of masked steps when there are no others

    def step(self, flat_x, mask_t, flat_states, flat_previous):
        """``(output, flat outputs, flat new states)`` of one step.

        Where `mask_t` is False the states carry over and the outputs are
        `flat_previous` (zeros when outputs are zeroed or there is none yet).
        """
        states = nest.pack_sequence_as(self.initial_states, flat_states)
        output, new_states = self.step_function(
            nest.pack_sequence_as(self.inputs, flat_x), tuple(states) + self.constants)
        flat_output, flat_new = nest.flatten(output), nest.flatten(new_states)
        if mask_t is None:
            return output, flat_output, flat_new
        if self.zero_output or flat_previous is None:
            if self._zeros is None:
                self._zeros = [array_ops.zeros_like(o) for o in flat_output]
            flat_previous = self._zeros
        flat_output = [array_ops.where(_expand_mask(mask_t, o), o, p)
                       for o, p in zip(flat_output, flat_previous)]
        flat_new = [array_ops.where(_expand_mask(mask_t, n), n, s)
                    for n, s in zip(flat_new, flat_states)]
        return output, flat_output, flat_new

    def unrolled(self, flat_inputs, steps, go_backwards, return_all_outputs):
        """Every step written out: a Python loop (eagerly, or unrolled into a graph)."""
        if steps == 0:
            raise ValueError("Cannot run a recurrent layer over 0 time steps.")
        columns = [array_ops.unstack(x, steps) for x in flat_inputs]
        masks = array_ops.unstack(self.mask, steps) if self.mask is not None else [None] * steps
        order = range(steps - 1, -1, -1) if go_backwards else range(steps)
        flat_states, flat_output, collected = nest.flatten(self.initial_states), None, []
        for t in order:
            output, flat_output, flat_states = self.step(
                [c[t] for c in columns], masks[t], flat_states, flat_output)
            if return_all_outputs:
                collected.append(flat_output)
        rows = zip(*collected) if return_all_outputs else ([o] for o in flat_output)
        outputs = [array_ops.stack(list(r)) for r in rows]
        return self._results(output, flat_output, outputs, flat_states)

    def while_loop(self, flat_inputs, go_backwards, return_all_outputs, first_in_body=False):
        """A `while_loop` over the steps after the first, which runs before it to give the
        outputs' structure, dtypes and shapes. With `first_in_body`, as Keras's loop, that
        step only gives them, and the body runs every step from the first."""
        if go_backwards:
            flat_inputs = [array_ops.reverse(x, [0]) for x in flat_inputs]
        mask = self.mask
        if mask is not None and go_backwards:
            mask = array_ops.reverse(mask, [0])
        steps = array_ops.shape(flat_inputs[0])[0]
        inputs_ta = [TensorArray(x.dtype, size=steps).unstack(x) for x in flat_inputs]
        mask_ta = TensorArray("bool", size=steps).unstack(mask) if mask is not None else None
        output, flat_output, flat_states = self.step(
            [x[0] for x in flat_inputs], mask[0] if mask is not None else None,
            nest.flatten(self.initial_states), None)
        outputs_ta = [TensorArray(o.dtype, size=steps, element_shape=o.shape)
                      for o in flat_output] if return_all_outputs else []
        start = 0 if first_in_body else 1
        if first_in_body:  # (no output before the first step: a masked one gives zeros)
            flat_output = [array_ops.zeros_like(o) for o in flat_output]
            flat_states = nest.flatten(self.initial_states)
        else:
            outputs_ta = [ta.write(0, o) for ta, o in zip(outputs_ta, flat_output)]

        def body(t, outputs_ta, flat_previous, flat_states):
            _, flat_output, flat_states = self.step(
                [ta.read(t) for ta in inputs_ta],
                mask_ta.read(t) if mask_ta is not None else None, flat_states, flat_previous)
            outputs_ta = [ta.write(t, o) for ta, o in zip(outputs_ta, flat_output)]
            return t + 1, outputs_ta, flat_output, flat_states

        _, outputs_ta, flat_output, flat_states = control_flow.while_loop(
            lambda t, *_: t < steps, body,
            (convert_to_tensor(start), outputs_ta, flat_output, flat_states))
        if return_all_outputs:
            outputs = [ta.stack() for ta in outputs_ta]
        else:
            outputs = [array_ops.expand_dims(o, 0) for o in flat_output]
        return self._results(output, flat_output, outputs, flat_states)

    def _results(self, output, flat_output, outputs, flat_states):
        return (nest.pack_sequence_as(output, flat_output), nest.pack_sequence_as(output, outputs),
                nest.pack_sequence_as(self.initial_states, flat_states))


def _swap_batch_time(x):
    return array_ops.transpose(x, [1, 0, *range(2, x.shape.rank)])


def _expand_mask(mask_t, value):
    """The ``(batch, 1)`` mask of a step, with as many axes as `value` (to broadcast)."""
    for _ in range(value.shape.rank - mask_t.shape.rank):
        mask_t = array_ops.expand_dims(mask_t, -1)
    return mask_t


# -- dropout of cells -----------------------------------------------------------------------------

def _is_training(training):
    """Whether dropout may apply: a true Python flag, or a flag only known when a graph runs."""
    return isinstance(training, SymbolicTensor) or bool(training)


class DropoutRNNCellMixin:
    """Dropout masks of a cell, drawn once per sequence so every step drops the same units.

    A recurrent layer resets them before it runs; a cell called by itself
    keeps its masks until reset.  Outside training the masks are ones.

    >>> cell = tf.keras.layers.SimpleRNNCell(2, dropout=0.5)
    >>> mask = cell.get_dropout_mask_for_cell(tf.ones((1, 4)), training=True)
    >>> mask is cell.get_dropout_mask_for_cell(tf.ones((1, 4)), training=True)
    True
    """

    def reset_dropout_mask(self):
        """Forgets the inputs' mask: the next call draws a new one."""
        self._masks.pop("dropout", None)

    def reset_recurrent_dropout_mask(self):
        """Forgets the recurrent states' mask: the next call draws a new one."""
        self._masks.pop("recurrent_dropout", None)

    def get_dropout_mask_for_cell(self, inputs, training, count=1):
        """The mask of `inputs` (a list of `count` masks when `count` > 1), or None without
        dropout."""
        return self._mask("dropout", inputs, training, count)

    def get_recurrent_dropout_mask_for_cell(self, inputs, training, count=1):
        """The mask of the recurrent state `inputs`, as `get_dropout_mask_for_cell`."""
        return self._mask("recurrent_dropout", inputs, training, count)

    @property
    def _masks(self):
        masks = self.__dict__.get("_dropout_masks")
        if masks is None:
            masks = self._dropout_masks = {}
        return masks

    def _mask(self, kind, inputs, training, count):
        rate = getattr(self, kind)
        if rate == 0:
            return None
        # a mask belongs to the graph it was made in (or to eager execution), and to the
        # branches and loop bodies inside it: every step of a `while_loop` uses the mask of
        # the step before the loop (TF's Keras draws a new one at each step of a loop body)
        graph = context.get().graph
        cached = self._masks.get(kind)
        outer = graph
        while outer is not None and cached is not None and outer is not cached[0]:
            outer = getattr(outer, "outer_graph", None)
        if cached is None or outer is not cached[0] or (outer is None and graph is not None):
            ones = array_ops.ones_like(inputs)
            made = [_dropout_mask(ones, rate, training) for _ in range(count)]
            cached = self._masks[kind] = (graph, made[0] if count == 1 else made)
        return cached[1]


def _dropout_mask(ones, rate, training):
    if not _is_training(training) or rate >= 1:
        return ones
    if isinstance(training, SymbolicTensor):
        return control_flow.cond(training, lambda: nn_ops.dropout(ones, rate), lambda: ones)
    return nn_ops.dropout(ones, rate)


def _step_masks(cell, input_dim, state, training):
    """The input and recurrent dropout masks of a cell's steps (None where there is none).

    They are drawn before the loop from the shapes of one step, so that
    every step uses the same ones.
    """
    if not _is_training(training):
        return None, None
    batch = array_ops.shape(state)[0]
    input_mask = recurrent_mask = None
    # Keras draws one mask per gate: its first serves all of them, but under
    # `implementation=1` (set by recurrent dropout) each gate has its own
    count = getattr(cell, "_gates", 1)
    per_gate = count > 1 and getattr(cell, "implementation", 2) == 1
    if 0 < cell.dropout < 1:
        input_mask = cell.get_dropout_mask_for_cell(
            array_ops.ones([batch, input_dim], state.dtype), training, count)
    if 0 < cell.recurrent_dropout < 1:
        recurrent_mask = cell.get_recurrent_dropout_mask_for_cell(state, training, count)
    first = lambda m: m[0] if isinstance(m, list) and not per_gate else m
    return first(input_mask), first(recurrent_mask)


def _masked_matmul(x, mask, kernel):
    """``(x * mask) @ kernel``; a list of masks drops `x` for each gate's block of
    `kernel`'s columns with its own mask."""
    if isinstance(mask, list):
        kernels = array_ops.split(kernel, len(mask), axis=-1)
        return array_ops.concat([linalg_ops.matmul(math_ops.multiply(x, m), k)
                                 for m, k in zip(mask, kernels)], -1)
    if mask is not None:
        x = math_ops.multiply(x, mask)
    return linalg_ops.matmul(x, kernel)


# -- cells ----------------------------------------------------------------------------------------

def _serialized(key, value):
    """A constructor argument of a cell as its config holds it."""
    if key.endswith("activation"):
        return activations.serialize(value)
    return weight_arguments.serialize(key, value) if weight_arguments.is_argument(key) \
        else value


def _zero_state(state_size, batch_size, dtype):
    """Zeros of ``(batch_size, *size)`` for each size of `state_size` (one, or a structure)."""
    if batch_size is None or dtype is None:
        raise ValueError(f"batch_size and dtype cannot be None while constructing initial "
                         f"state. Received: batch_size={batch_size}, dtype={dtype}")

    def zeros(size):
        return array_ops.zeros([batch_size, *TensorShape(size).as_list()], dtype)
    return nest.map_structure(zeros, state_size) if nest.is_nested(state_size) \
        else zeros(state_size)


def _is_multiple_state(state_size):
    return hasattr(state_size, "__len__") and not isinstance(state_size, TensorShape)


@export("keras.layers.AbstractRNNCell")
class AbstractRNNCell(Layer):
    """The base of custom cells: `call(inputs, states)`, `state_size` and `output_size`.

    >>> class Accumulate(tf.keras.layers.AbstractRNNCell):
    ...     state_size = output_size = 2
    ...     def call(self, inputs, states):
    ...         return states[0] + inputs, [states[0] + inputs]
    >>> tf.keras.layers.RNN(Accumulate())(tf.ones((1, 3, 2))).numpy()
    array([[3., 3.]], dtype=float32)
    """

    def call(self, inputs, states):
        raise NotImplementedError

    @property
    def state_size(self):
        raise NotImplementedError

    @property
    def output_size(self):
        raise NotImplementedError

    def get_initial_state(self, inputs=None, batch_size=None, dtype=None):
        return _initial_zeros(self, inputs, batch_size, dtype)


def _initial_zeros(cell, inputs, batch_size, dtype):
    """A cell's zero states, for a batch like `inputs` or of `batch_size` and `dtype`."""
    if inputs is not None:
        batch_size, dtype = array_ops.shape(inputs)[0], inputs.dtype
    state = _zero_state(cell.state_size, batch_size, dtype)
    return list(state) if isinstance(state, tuple) else state


class _Cell(DropoutRNNCellMixin, Layer):
    """What the built-in cells share: the kernels, dropout, and a step in two parts.

    ``kernel`` is ``(input_dim, gates * units)``, ``recurrent_kernel``
    ``(units, gates * units)``.  Subclasses define `_gates`, `_config_keys`
    (their constructor arguments, in Keras's order) and `_recurrence`, and
    where they differ `_bias_shape`, `_bias_initializer`, `_biases` and
    `_recurrent_kernels`.
    """

    _gates = 1
    _config_keys = ("units", "activation", "use_bias", "kernel_initializer",
                    "recurrent_initializer", "bias_initializer", "kernel_regularizer",
                    "recurrent_regularizer", "bias_regularizer", "kernel_constraint",
                    "recurrent_constraint", "bias_constraint", "dropout", "recurrent_dropout")

    def __init__(self, units, activation="tanh", use_bias=True,
                 kernel_initializer="glorot_uniform", recurrent_initializer="orthogonal",
                 bias_initializer="zeros", kernel_regularizer=None, recurrent_regularizer=None,
                 bias_regularizer=None, kernel_constraint=None, recurrent_constraint=None,
                 bias_constraint=None, dropout=0.0, recurrent_dropout=0.0, **kwargs):
        if units <= 0:
            raise ValueError(f"Received an invalid value for argument `units`, expected a "
                             f"positive integer, got {units}.")
        # only a device-placement hint in Keras; kept for the config
        self._enable_caching_device = kwargs.pop("enable_caching_device", True)
        super().__init__(**kwargs)
        self.units = units
        self.activation = activations.get(activation)
        self.use_bias = use_bias
        weight_arguments.resolve(
            self, kernel_initializer=kernel_initializer,
            recurrent_initializer=recurrent_initializer, bias_initializer=bias_initializer,
            kernel_regularizer=kernel_regularizer, recurrent_regularizer=recurrent_regularizer,
            bias_regularizer=bias_regularizer, kernel_constraint=kernel_constraint,
            recurrent_constraint=recurrent_constraint, bias_constraint=bias_constraint)
        self.dropout = min(1.0, max(0.0, dropout))
        self.recurrent_dropout = min(1.0, max(0.0, recurrent_dropout))
        self.state_size = self.units
        self.output_size = self.units

    def build(self, input_shape):
        self._build_input_shape = TensorShape(input_shape)  # (built by its layer's build)
        input_dim = TensorShape(input_shape)[-1]
        width = self._gates * self.units
        self.kernel = self.add_weight(
            "kernel", shape=(input_dim, width), initializer=self.kernel_initializer,
            regularizer=self.kernel_regularizer, constraint=self.kernel_constraint)
        self.recurrent_kernel = self.add_weight(
            "recurrent_kernel", shape=(self.units, width),
            initializer=self.recurrent_initializer, regularizer=self.recurrent_regularizer,
            constraint=self.recurrent_constraint)
        self.bias = self.add_weight(
            "bias", shape=self._bias_shape(), initializer=self._bias_initializer(),
            regularizer=self.bias_regularizer,
            constraint=self.bias_constraint) if self.use_bias else None
        self.built = True

    def _bias_shape(self):
        return (self._gates * self.units,)

    def _bias_initializer(self):
        return self.bias_initializer

    def _biases(self, bias):
        """The bias added to the input part, and the one added in the recurrent part."""
        return bias, None

    def _recurrent_kernels(self, recurrent_kernel):
        """The recurrent kernel as `_recurrence` takes it."""
        return recurrent_kernel

    def _steps(self, states, training):
        """``(project, step)``: the two parts of a step, with the weights read once.

        ``project(x)`` is the input part for inputs of any leading shape (the
        whole sequence at once, or one step); ``step(projected, states)`` is
        ``(output, new_states)``.  Both use the same dropout masks.
        """
        state = nest.flatten(states)[0]
        # the weights in the cell's compute dtype (cast under mixed precision), as Keras
        # reads them: steps of inputs of another dtype raise TF's error
        dtype = as_dtype(self.compute_dtype)
        kernel = _read(self.kernel, dtype)
        recurrent_kernel = self._recurrent_kernels(_read(self.recurrent_kernel, dtype))
        input_bias, recurrent_bias = self._biases(
            _read(self.bias, dtype) if self.use_bias else None)
        input_mask, recurrent_mask = _step_masks(self, kernel.shape[0], state, training)

        def project(x):
            if isinstance(input_mask, list):  # each gate's inputs with its own mask
                kernels = array_ops.split(kernel, len(input_mask), axis=-1)
                biases = [None] * len(kernels) if input_bias is None else \
                    array_ops.split(input_bias, len(kernels), axis=-1)
                return array_ops.concat([_dense(math_ops.multiply(x, m), k, b) for m, k, b
                                         in zip(input_mask, kernels, biases)], -1)
            if input_mask is not None:
                x = math_ops.multiply(x, input_mask)
            return _dense(x, kernel, input_bias)

        def step(projected, states):
            return self._recurrence(projected, states, recurrent_kernel, recurrent_bias,
                                    recurrent_mask)
        return project, step

    def call(self, inputs, states, training=None):
        nested = nest.is_nested(states)
        states = list(states) if nested else [states]
        project, step = self._steps(states, training)
        output, new_states = step(project(inputs), states)
        return output, new_states if nested or len(new_states) > 1 else new_states[0]

    def get_initial_state(self, inputs=None, batch_size=None, dtype=None):
        state = _initial_zeros(self, inputs, batch_size, dtype)
        return list(state) if nest.is_nested(state) else state  # (a list, not the tracked
        # ListWrapper of the state sizes)

    def get_config(self):
        config = super().get_config()
        config.update((key, _serialized(key, getattr(self, key))) for key in self._config_keys)
        if not self._enable_caching_device:
            config["enable_caching_device"] = False
        return config


def _read(variable, dtype):
    """A variable's value in `dtype` (the compute dtype under mixed precision)."""
    value = convert_to_tensor(variable)
    return value if value.dtype == dtype else cast_ops.cast(value, dtype)


def _dense(x, kernel, bias):
    """``x @ kernel + bias`` over the last axis of `x`, as one matmul whatever its rank."""
    rank = x.shape.rank
    y = linalg_ops.matmul(x if rank == 2 else array_ops.reshape(x, [-1, x.shape[-1]]), kernel)
    if bias is not None:
        y = nn_ops.bias_add(y, bias)
    if rank == 2:
        return y
    lead = x.shape.as_list()[:-1]
    if None in lead:
        return array_ops.reshape(y, array_ops.concat([array_ops.shape(x)[:-1],
                                                      [kernel.shape[-1]]], 0))
    return array_ops.reshape(y, [*lead, kernel.shape[-1]])


@export("keras.layers.SimpleRNNCell")
class SimpleRNNCell(_Cell):
    """``output = activation(x @ kernel + h @ recurrent_kernel + bias)``, the new state too.

    >>> cell = tf.keras.layers.SimpleRNNCell(2, kernel_initializer="ones",
    ...                                      recurrent_initializer="zeros")
    >>> output, state = cell(tf.ones((1, 3)), [tf.zeros((1, 2))])
    >>> output.numpy().round(4)
    array([[0.9951, 0.9951]], dtype=float32)
    """

    def _recurrence(self, projected, states, recurrent_kernel, recurrent_bias, recurrent_mask):
        h = states[0]
        if recurrent_mask is not None:
            h = math_ops.multiply(h, recurrent_mask)
        output = self.activation(math_ops.add(projected, linalg_ops.matmul(h, recurrent_kernel)))
        return output, [output]


class _GatedCell(_Cell):
    """A cell whose gates use `recurrent_activation` (LSTM and GRU)."""

    def __init__(self, units, activation="tanh", recurrent_activation="sigmoid", use_bias=True,
                 kernel_initializer="glorot_uniform", recurrent_initializer="orthogonal",
                 bias_initializer="zeros", **kwargs):
        implementation = kwargs.pop("implementation", 2)
        super().__init__(units, activation=activation, use_bias=use_bias,
                         kernel_initializer=kernel_initializer,
                         recurrent_initializer=recurrent_initializer,
                         bias_initializer=bias_initializer, **kwargs)
        self.recurrent_activation = activations.get(recurrent_activation)
        # Keras computes the gates one by one under recurrent dropout (the same values)
        self.implementation = 1 if self.recurrent_dropout != 0 else implementation


@export("keras.layers.LSTMCell")
class LSTMCell(_GatedCell):
    """The LSTM step: gates i, f, c, o from one matmul; states ``[h, c]``.

    With `unit_forget_bias` the forget gate's bias starts at one.

    >>> cell = tf.keras.layers.LSTMCell(3)
    >>> h, (h, c) = cell(tf.ones((2, 4)), [tf.zeros((2, 3)), tf.zeros((2, 3))])
    >>> cell.kernel.shape, cell.recurrent_kernel.shape, cell.bias.numpy()[3:6]
    (TensorShape([4, 12]), TensorShape([3, 12]), array([1., 1., 1.], dtype=float32))
    """

    _gates = 4
    _config_keys = ("units", "activation", "recurrent_activation", "use_bias",
                    "kernel_initializer", "recurrent_initializer", "bias_initializer",
                    "unit_forget_bias", *_Cell._config_keys[6:], "implementation")

    def __init__(self, units, activation="tanh", recurrent_activation="sigmoid", use_bias=True,
                 kernel_initializer="glorot_uniform", recurrent_initializer="orthogonal",
                 bias_initializer="zeros", unit_forget_bias=True, **kwargs):
        super().__init__(units, activation=activation, recurrent_activation=recurrent_activation,
                         use_bias=use_bias, kernel_initializer=kernel_initializer,
                         recurrent_initializer=recurrent_initializer,
                         bias_initializer=bias_initializer, **kwargs)
        self.unit_forget_bias = unit_forget_bias
        self.state_size = [self.units, self.units]

    def _bias_initializer(self):
        if not self.unit_forget_bias:
            return self.bias_initializer
        units, init = self.units, self.bias_initializer

        def forget_ones(_, dtype=None, **kwargs):
            return array_ops.concat([init((units,), dtype=dtype, **kwargs),
                                     array_ops.ones((units,), dtype=dtype),
                                     init((2 * units,), dtype=dtype, **kwargs)], 0)
        return forget_ones

    def _biases(self, bias):
        # Keras adds the bias after both matmuls ((x @ kernel + h @ recurrent) + bias), but
        # to the input part when it computes the gates one by one (implementation 1): in
        # float16 the order shows
        if bias is None or self.implementation == 1 and not getattr(self, "_fused_step", False):
            return bias, None
        return None, bias

    def _recurrence(self, projected, states, recurrent_kernel, recurrent_bias, recurrent_mask):
        h, c = states[0], states[1]
        z = math_ops.add(projected, _masked_matmul(h, recurrent_mask, recurrent_kernel))
        if recurrent_bias is not None:
            z = nn_ops.bias_add(z, recurrent_bias)
        z_i, z_f, z_c, z_o = array_ops.split(z, 4, axis=-1)
        gate = self.recurrent_activation
        c = math_ops.add(math_ops.multiply(gate(z_f), c),
                         math_ops.multiply(gate(z_i), self.activation(z_c)))
        h = math_ops.multiply(gate(z_o), self.activation(c))
        return h, [h, c]


@export("keras.layers.GRUCell")
class GRUCell(_GatedCell):
    """The GRU step: gates z, r, h; ``h = z * h_prev + (1 - z) * candidate``.

    With `reset_after` (the default, as cuDNN) the reset gate multiplies the
    recurrent part after its matmul, and the bias is ``(2, 3 * units)``: the
    input bias and the recurrent bias.

    >>> cell = tf.keras.layers.GRUCell(2)
    >>> output, state = cell(tf.ones((1, 3)), tf.zeros((1, 2)))
    >>> cell.bias.shape, state.shape
    (TensorShape([2, 6]), TensorShape([1, 2]))
    """

    _gates = 3
    _config_keys = (*LSTMCell._config_keys[:7], *_Cell._config_keys[6:], "implementation",
                    "reset_after")

    def __init__(self, units, activation="tanh", recurrent_activation="sigmoid", use_bias=True,
                 kernel_initializer="glorot_uniform", recurrent_initializer="orthogonal",
                 bias_initializer="zeros", *, reset_after=True, **kwargs):
        super().__init__(units, activation=activation, recurrent_activation=recurrent_activation,
                         use_bias=use_bias, kernel_initializer=kernel_initializer,
                         recurrent_initializer=recurrent_initializer,
                         bias_initializer=bias_initializer, **kwargs)
        self.reset_after = reset_after

    def _bias_shape(self):
        return (2, 3 * self.units) if self.reset_after else (3 * self.units,)

    def _biases(self, bias):
        if bias is None or not self.reset_after:
            return bias, None
        return tuple(array_ops.unstack(bias, 2))

    def _recurrent_kernels(self, recurrent_kernel):
        if self.reset_after:
            return recurrent_kernel
        # the candidate's part multiplies the reset state: a matmul of its own
        return recurrent_kernel[:, :2 * self.units], recurrent_kernel[:, 2 * self.units:]

    def _recurrence(self, projected, states, recurrent_kernel, recurrent_bias, recurrent_mask):
        h = states[0]
        masks = recurrent_mask if isinstance(recurrent_mask, list) else [recurrent_mask] * 3
        x_z, x_r, x_h = array_ops.split(projected, 3, axis=-1)
        gate = self.recurrent_activation
        if self.reset_after:
            inner = _masked_matmul(h, recurrent_mask, recurrent_kernel)
            if recurrent_bias is not None:
                inner = nn_ops.bias_add(inner, recurrent_bias)
            r_z, r_r, r_h = array_ops.split(inner, 3, axis=-1)
            z = gate(math_ops.add(x_z, r_z))
            r_h = math_ops.multiply(gate(math_ops.add(x_r, r_r)), r_h)
        else:
            gates_kernel, candidate_kernel = recurrent_kernel
            r_z, r_r = array_ops.split(_masked_matmul(
                h, masks[:2] if isinstance(recurrent_mask, list) else recurrent_mask,
                gates_kernel), 2, axis=-1)
            z = gate(math_ops.add(x_z, r_z))
            r = gate(math_ops.add(x_r, r_r))
            masked = h if masks[2] is None else math_ops.multiply(h, masks[2])
            r_h = linalg_ops.matmul(math_ops.multiply(r, masked), candidate_kernel)
        candidate = self.activation(math_ops.add(x_h, r_h))
        h = math_ops.add(math_ops.multiply(z, h),
                         math_ops.multiply(math_ops.subtract(1.0, z), candidate))
        return h, [h]


@export("keras.layers.StackedRNNCells")
class StackedRNNCells(Layer):
    """Cells run one after the other within each step: one cell to an `RNN`.

    Its state is the tuple of the cells' states; its output the last cell's.

    >>> cells = tf.keras.layers.StackedRNNCells([tf.keras.layers.LSTMCell(4),
    ...                                          tf.keras.layers.GRUCell(3)])
    >>> tf.keras.layers.RNN(cells)(tf.ones((2, 5, 6))).shape
    TensorShape([2, 3])
    """

    def __init__(self, cells, **kwargs):
        for cell in cells:
            if "call" not in dir(cell):
                raise ValueError(f"All cells must have a `call` method. Received cell without a "
                                 f"`call` method: {cell}")
            if "state_size" not in dir(cell):
                raise ValueError(f"All cells must have a `state_size` attribute. Received cell "
                                 f"without a `state_size`: {cell}")
        self.cells = list(cells)
        self.reverse_state_order = kwargs.pop("reverse_state_order", False)
        super().__init__(**kwargs)

    def _ordered(self, items):
        return items[::-1] if self.reverse_state_order else items

    @property
    def state_size(self):
        return tuple(c.state_size for c in self._ordered(self.cells))

    @property
    def output_size(self):
        return _output_size(self.cells[-1])

    def get_initial_state(self, inputs=None, batch_size=None, dtype=None):
        states = []
        for cell in self._ordered(self.cells):
            make = getattr(cell, "get_initial_state", None)
            states.append(make(inputs=inputs, batch_size=batch_size, dtype=dtype) if make
                          else _initial_zeros(cell, inputs, batch_size, dtype))
        return tuple(states)

    def build(self, input_shape):
        if isinstance(input_shape, list):
            input_shape = input_shape[0]
        shape = self._build_input_shape = TensorShape(input_shape)
        for cell in self.cells:
            if isinstance(cell, Layer) and not cell.built:
                with context.name_scope_push(cell.name):
                    cell.build(shape)
                cell.built = True
            shape = TensorShape([shape[0], *TensorShape(_output_size(cell)).as_list()])
        self.built = True

    def _per_cell(self, states):
        """The flat `states` as one entry per cell, in the cells' order."""
        size = self._ordered(list(self.state_size))
        return nest.pack_sequence_as(size, nest.flatten(states))

    def _steps(self, states, training, constants=None):
        """``(project, step)`` as a built-in cell's: the first cell's input part (over the
        whole sequence in an `RNN`), then every other part within the step."""
        steps = [_cell_steps(cell, _as_list(s), training,
                             constants if _accepts(cell, "constants") else None)
                 for cell, s in zip(self.cells, self._per_cell(states))]

        def step(x, states):
            new_states = []
            for k, ((project, cell_step), s) in enumerate(zip(steps, self._per_cell(states))):
                x, new = cell_step(project(x) if k else x, _as_list(s))
                new_states.append(new)
            size = self._ordered(list(self.state_size))
            return x, nest.pack_sequence_as(tuple(size), nest.flatten(new_states))
        return steps[0][0], step

    def call(self, inputs, states, constants=None, training=None, **kwargs):
        project, step = self._steps(states, training, constants)
        return step(project(inputs), states)

    def get_config(self):
        config = super().get_config()
        config["cells"] = [serialization.serialize_keras_object(c) for c in self.cells]
        return config

    @classmethod
    def from_config(cls, config, custom_objects=None):
        config = dict(config)
        return cls([_deserialize(c, custom_objects) for c in config.pop("cells")], **config)


def _deserialize(config, custom_objects):
    """The layer a config describes (a cell, or a wrapped layer)."""
    from eagerflow._src.keras.layers import deserialize  # noqa: PLC0415 (it imports this module)
    return deserialize(config, custom_objects=custom_objects)


def _output_size(cell):
    size = getattr(cell, "output_size", None)
    if size is not None:
        return size
    return cell.state_size[0] if _is_multiple_state(cell.state_size) else cell.state_size


def _replays(cell):
    """Whether `rnn` replays the first step of `cell` as Keras does: not for eagerflow's own
    cells (and stacks of them), whose steps draw no random numbers but their dropout masks,
    drawn once whichever step comes first."""
    if isinstance(cell, StackedRNNCells):
        return any(_replays(c) for c in cell.cells)
    return not (isinstance(cell, DropoutRNNCellMixin) and
                type(cell).__module__.startswith("eagerflow._src.keras."))


def _reset_masks(cell):
    """Makes `cell` (and the cells of a stack) draw new dropout masks at their next call."""
    for one in [cell, *getattr(cell, "cells", ())]:
        if isinstance(one, DropoutRNNCellMixin):
            one.reset_dropout_mask()
            one.reset_recurrent_dropout_mask()


def _draws_in_loop(cell, training):
    """Whether the steps of `cell` draw dropout masks in a loop built into a function's
    graph (not TF 1's, whose loop body is part of the graph it is in, and keeps the masks
    of the step before it)."""
    if context.executing_eagerly() or not _is_training(training) or \
            backend.building_v1_graph():
        return False
    return any(isinstance(one, DropoutRNNCellMixin) and
               (0 < one.dropout < 1 or 0 < one.recurrent_dropout < 1)
               for one in [cell, *getattr(cell, "cells", ())])


def _accepts(cell, name):
    params = inspect.signature(cell.call).parameters
    return name in params or any(p.kind is p.VAR_KEYWORD for p in params.values())


def _as_list(states):
    return states if nest.is_nested(states) else [states]


def _cell_steps(cell, states, training, constants=None):
    """``(project, step)`` of any cell: a built-in one's split step, else the identity and a
    call of the cell (given `constants`, if any)."""
    split = getattr(cell, "_steps", None)
    if split is not None and constants is None:
        return split(states, training)
    kwargs = {"training": training} if _accepts(cell, "training") else {}
    if constants is not None:
        if not _accepts(cell, "constants"):
            raise ValueError(f"RNN cell {cell} does not support constants. Received: "
                             f"constants={constants}")
        kwargs["constants"] = constants
    call = cell.__call__ if callable(cell) else cell.call
    alone = getattr(cell, "_is_tf_rnn_cell", False)  # (TF 1's cells take one state bare)

    def step(x, states):
        if alone and len(states) == 1:
            states = states[0]
        output, new = call(x, states, **kwargs)
        return output, _as_list(new)
    return (lambda x: x), step


# -- layers -------------------------------------------------------------------------------------

def _spec_of(tensor):
    shape = tensor.shape if hasattr(tensor, "shape") else np.shape(tensor)
    return InputSpec(shape=tuple(TensorShape(shape).as_list()))


def _symbolic_extras(extra, mixed_message):
    """Whether an RNN's states and constants `extra` are all Keras tensors (none are: False;
    some are: ValueError `mixed_message`)."""
    flat = nest.flatten(extra)
    symbolic = [keras_tensor.is_keras_tensor(t) for t in flat]
    if any(symbolic) and not all(symbolic):
        raise ValueError(mixed_message)
    return bool(flat) and all(symbolic)


def _standardize_args(inputs, initial_state, constants, num_constants):
    """`inputs`, `initial_state` and `constants` apart, when passed as one list ``[x, *states]``."""
    if isinstance(inputs, list):
        if num_constants:
            constants = inputs[-num_constants:]
            inputs = inputs[:-num_constants]
        if len(inputs) > 1:
            initial_state = inputs[1:]
            inputs = inputs[:1]
        inputs = tuple(inputs) if len(inputs) > 1 else inputs[0]

    def to_list_or_none(x):
        if x is None or isinstance(x, list):
            return x
        return list(x) if isinstance(x, tuple) else [x]
    return inputs, to_list_or_none(initial_state), to_list_or_none(constants)


@export("keras.layers.RNN")
class RNN(Layer):
    """Runs a cell over the time axis of ``(batch, time, features)`` inputs.

    `cell` has ``call(inputs, states) -> (output, new_states)`` and a
    `state_size` (a list of cells makes a `StackedRNNCells`).  The layer
    returns the last output, every output with `return_sequences`, and the
    final states after it with `return_state`; `go_backwards` reads the
    sequence from its end, `stateful` starts each batch from the states the
    previous one ended with (until `reset_states`), and a mask (from
    `Masking` or ``Embedding(mask_zero=True)``) skips steps.

    >>> layer = tf.keras.layers.RNN(tf.keras.layers.SimpleRNNCell(3), return_state=True)
    >>> output, state = layer(tf.ones((2, 4, 5)))
    >>> output.shape, state.shape
    (TensorShape([2, 3]), TensorShape([2, 3]))
    """

    _own_call = False  # (whether Keras runs the layer's own call, not RNN's)

    def __init__(self, cell, return_sequences=False, return_state=False, go_backwards=False,
                 stateful=False, unroll=False, time_major=False, **kwargs):
        if isinstance(cell, (list, tuple)):
            cell = StackedRNNCells(cell)
        if "call" not in dir(cell):
            raise ValueError(f"Argument `cell` should have a `call` method. The RNN was "
                             f"passed: cell={cell}")
        if "state_size" not in dir(cell):
            raise ValueError(f"The RNN cell should have a `state_size` attribute (tuple of "
                             f"integers, one integer per RNN state). Received: cell={cell}")
        self.zero_output_for_mask = kwargs.pop("zero_output_for_mask", False)
        num_constants = kwargs.pop("num_constants", 0)
        if "input_shape" not in kwargs and ("input_dim" in kwargs or "input_length" in kwargs):
            kwargs["input_shape"] = (kwargs.pop("input_length", None),
                                     kwargs.pop("input_dim", None))
        super().__init__(**kwargs)
        self.cell = cell
        self.return_sequences = return_sequences
        self.return_state = return_state
        self.go_backwards = go_backwards
        self.stateful = stateful
        self.unroll = unroll
        self.time_major = time_major
        self.supports_masking = True
        self.input_spec = None
        self.state_spec = None
        self.constants_spec = None
        self._num_constants = num_constants
        self.states = None

    @property
    def states(self):
        """The variables holding a stateful layer's states (Nones until it is built)."""
        if self._states is None:
            state = nest.map_structure(lambda _: None, self.cell.state_size)
            return state if nest.is_nested(self.cell.state_size) else [state]
        return self._states

    # a stateful layer's states are variables, but not weights: they stay untracked
    _UNTRACKED_ATTRIBUTES = Layer._UNTRACKED_ATTRIBUTES | {"_states"}

    def __setattr__(self, name, value):
        if name == "states":
            object.__setattr__(self, "_states", value)
        else:
            super().__setattr__(name, value)

    def _state_sizes(self):
        size = self.cell.state_size
        return list(size) if _is_multiple_state(size) else [size]

    def compute_output_shape(self, input_shape):
        while not keras_tensor.is_shape(input_shape):  # the first input's, of several or of a structure
            input_shape = input_shape[0] if isinstance(input_shape, (list, tuple)) else \
                nest.flatten(input_shape)[0]
        input_shape = TensorShape(input_shape)
        batch, steps = input_shape[0], input_shape[1]
        if self.time_major:
            batch, steps = steps, batch

        def output_shape(size):
            dims = TensorShape(size).as_list()
            if not self.return_sequences:
                return TensorShape([batch, *dims])
            return TensorShape([steps, batch, *dims] if self.time_major
                               else [batch, steps, *dims])
        shapes = nest.flatten(nest.map_structure(output_shape, _output_size(self.cell)))
        shape = shapes[0] if len(shapes) == 1 else shapes
        if not self.return_state:
            return shape
        states = nest.map_structure(lambda s: TensorShape([batch, *TensorShape(s).as_list()]),
                                    self._state_sizes())
        return (shape if isinstance(shape, list) else [shape]) + nest.flatten(states)

    def compute_mask(self, inputs, mask):
        mask = nest.flatten(mask)[0] if mask is not None else None
        output_mask = mask if self.return_sequences else None
        if self.return_state:
            return [output_mask] + [None for _ in nest.flatten(self.states)]
        return output_mask

    def build(self, input_shape):
        if isinstance(input_shape, list):
            input_shape = input_shape[0]
        batch_axis, time_axis = (1, 0) if self.time_major else (0, 1)

        def spec(shape):
            dims = TensorShape(shape).as_list()
            if not self.stateful:
                dims[batch_axis] = None
            dims[time_axis] = None
            return InputSpec(shape=tuple(dims))

        def step_shape(shape):
            dims = TensorShape(shape).as_list()
            return TensorShape(dims[1:] if self.time_major else [dims[0], *dims[2:]])
        self.input_spec = [nest.map_structure(spec, input_shape)] if not keras_tensor.is_shape(
            input_shape) else [spec(input_shape)]
        step_input_shape = step_shape(input_shape) if keras_tensor.is_shape(input_shape) else \
            nest.map_structure(step_shape, input_shape)
        if isinstance(self.cell, Layer) and not self.cell.built:
            with context.name_scope_push(self.cell.name):
                self.cell.build(step_input_shape)
            self.cell.built = True
        unchecked = self.__dict__.pop("_unchecked_initial_state", None)
        if unchecked is not None:
            self._check_initial_state(unchecked)
        if self.state_spec is None:  # (a call's given states keep theirs)
            self.state_spec = [InputSpec(shape=(None, *TensorShape(s).as_list()))
                               for s in nest.flatten(self._state_sizes())]
        if self.stateful:
            self.reset_states()
        self.built = True

    def __call__(self, inputs, initial_state=None, constants=None, **kwargs):
        inputs, initial_state, constants = _standardize_args(
            inputs, initial_state, constants, self._num_constants)
        extra_specs = []
        if initial_state is not None:
            if not self.built:  # as Keras: checked as the layer builds, after its cell
                self.__dict__["_unchecked_initial_state"] = initial_state
            self.state_spec = nest.map_structure(_spec_of, initial_state)
            extra_specs += self.state_spec
        if constants is not None:
            self.constants_spec = [_spec_of(c) for c in constants]
            extra_specs += self.constants_spec
            self._num_constants = len(constants)
        extra = (initial_state or []) + (constants or [])
        if not _symbolic_extras(extra, "The initial state or constants of an RNN layer "
                                "cannot be specified via a mix of TF-Keras tensors and "
                                "non-Keras tensors (a \"Keras tensor\" is a tensor that was "
                                "returned by a TF-Keras layer  or by `Input` during Functional "
                                f"model construction). Received: initial_state="
                                f"{initial_state}, constants={constants}"):
            if initial_state is not None:
                kwargs["initial_state"] = initial_state
            if constants is not None:
                kwargs["constants"] = constants
            return super().__call__(inputs, **kwargs)
        # Keras tensors for states or constants are inputs of the layer's node, as Keras
        # records them (the model's config, `layer.input`, its summary's connections); the
        # input spec takes theirs for this call.
        own = self.input_spec if self.built else \
            [None for _ in nest.flatten(inputs)]
        original = self.input_spec
        self.input_spec = list(own) + extra_specs
        try:
            output = super().__call__([inputs] + extra, **kwargs)
        except Exception:
            self.input_spec = original
            raise
        self.input_spec = self.input_spec[:len(own)]  # (what `build` set for the sequence)
        return output

    def get_initial_state(self, inputs):
        """Zero states for a batch of `inputs` (or the cell's own `get_initial_state`)."""
        inputs = nest.flatten(inputs)[0]
        batch = array_ops.shape(inputs)[1 if self.time_major else 0]
        make = getattr(self.cell, "get_initial_state", None)
        state = make(inputs=None, batch_size=batch, dtype=inputs.dtype) if make else \
            _initial_zeros(self.cell, None, batch, inputs.dtype)
        return list(state) if nest.is_nested(state) else [state]

    def _initial_state(self, inputs, initial_state):
        """The states the loop starts from: given ones, a stateful layer's, or zeros."""
        if self.stateful:
            states = self.states
            if initial_state is not None:  # as Keras: the given states until the layer has some
                held = reduction_ops.reduce_any(array_ops.stack(
                    [reduction_ops.reduce_any(math_ops.not_equal(s, 0))
                     for s in nest.flatten(states)]))
                states = control_flow.cond(held, lambda: nest.map_structure(
                    convert_to_tensor, self.states), lambda: initial_state)
            dtype = self.compute_dtype or nest.flatten(inputs)[0].dtype
            initial_state = nest.map_structure(lambda v: cast_ops.cast(v, dtype), states)
        elif initial_state is None:
            initial_state = self.get_initial_state(inputs)
        if len(initial_state) != len(self.states):
            raise ValueError(f"Layer has {len(self.states)} states but was passed "
                             f"{len(initial_state)} initial states. Received: "
                             f"initial_state={initial_state}")
        # (a built layer's states meet its weights only when it runs, where Keras's shape
        # mismatch is an op's InvalidArgumentError)
        self._check_initial_state(initial_state, errors.InvalidArgumentError)
        return list(initial_state)

    def _check_initial_state(self, initial_state, error=ValueError):
        flat_sizes = nest.flatten(self._state_sizes())
        flat_states = [convert_to_tensor(s) if not hasattr(s, "shape") else s
                       for s in nest.flatten(initial_state)]
        if len(flat_states) != len(flat_sizes) or any(
                not TensorShape(s.shape[1:]).is_compatible_with(TensorShape(size))
                for s, size in zip(flat_states, flat_sizes)):
            specs = ", ".join(repr(InputSpec(shape=tuple(TensorShape(s.shape).as_list())))
                              for s in flat_states)
            message = (f"An `initial_state` was passed that is not compatible with "
                       f"`cell.state_size`. Received `state_spec`=ListWrapper([{specs}]); "
                       f"however `cell.state_size` is {list(nest.flatten(self.cell.state_size))}")
            raise ValueError(message) if error is ValueError else error(None, None, message)

    def call(self, inputs, mask=None, training=None, initial_state=None, constants=None):
        if isinstance(inputs, list):  # [inputs, *initial_states, *constants] from a saved model
            inputs, initial_state, constants = _standardize_args(
                inputs, initial_state, constants, self._num_constants)
        row_lengths = None
        if isinstance(inputs, RaggedTensor):  # as Keras: padded, with its rows' lengths as mask
            row_lengths = inputs.row_lengths()
            inputs = inputs.to_tensor()
            mask = array_ops.sequence_mask(row_lengths, array_ops.shape(inputs)[1])
        if initial_state is not None:
            initial_state = nest.map_structure(convert_to_tensor, initial_state)
        initial_state = self._initial_state(inputs, initial_state)
        _reset_masks(self.cell)
        if mask is not None:
            mask = convert_to_tensor(nest.flatten(mask)[0])
        steps = nest.flatten(inputs)[0].shape[0 if self.time_major else 1]
        if self.unroll and steps is None:
            if self._own_call:  # (LSTM and GRU run their own call, to Keras's backend.rnn)
                raise ValueError("Unrolling requires a fixed number of timesteps.")
            raise ValueError(
                "Cannot unroll a RNN if the time dimension is undefined. \n- If using a "
                "Sequential model, specify the time dimension by passing an `input_shape` or "
                "`batch_input_shape` argument to your first layer. If your first layer is an "
                "Embedding, you can also use the `input_length` argument.\n- If using the "
                "functional API, specify the time dimension by passing a `shape` or "
                "`batch_shape` argument to your Input layer.")
        mode = _fused_mode(self, inputs, mask, constants, steps)
        if mode is not None:
            last_output, outputs, states = _fused_call(self, mode, inputs, initial_state,
                                                       training)
        else:
            last_output, outputs, states = self._loop(inputs, mask, training, initial_state,
                                                      constants, steps)
        if self.stateful:
            for variable, state in zip(nest.flatten(self.states), nest.flatten(states)):
                variable.assign(cast_ops.cast(state, variable.dtype))
        output = outputs if self.return_sequences else last_output
        if row_lengths is not None and self.return_sequences:
            output = _ragged_outputs(output, row_lengths, self.go_backwards)
        if self.return_state:
            states = list(states) if isinstance(states, (list, tuple)) else [states]
            return (list(output) if isinstance(output, (list, tuple)) else [output]) + states
        return output

    def _loop(self, inputs, mask, training, initial_state, constants, steps):
        """`rnn` over the cell: ``(last output, outputs in the layer's layout, states)``."""
        # the loop runs time-major: each step's input is then one contiguous slice
        if not self.time_major:
            inputs = nest.map_structure(_swap_batch_time, inputs)
            if mask is not None:
                mask = _swap_batch_time(mask)
        draws = not self.unroll and _draws_in_loop(self.cell, training)
        if draws:
            # As Keras's loop in a graph: the body of its `while_loop` draws the cell's
            # dropout masks anew, so that each step has its own (the step before the loop
            # draws them in the outer graph, and only gives the outputs' structure).
            def step(x, states):
                _reset_masks(self.cell)
                project, cell_step = _cell_steps(self.cell, states, training, constants)
                return cell_step(project(x), states)
            sequence = inputs
        else:
            project, cell_step = _cell_steps(self.cell, initial_state, training, constants)
            if _unrolls(steps, self.unroll):
                sequence, step = project(inputs), cell_step
            else:  # the while_loop's gradient would carry the projected sequence every step
                sequence, step = inputs, lambda x, states: cell_step(project(x), states)
        last_output, outputs, states = rnn(
            step, sequence, initial_state, go_backwards=self.go_backwards, mask=mask,
            unroll=self.unroll, time_major=True,
            zero_output_for_mask=self.zero_output_for_mask,
            return_all_outputs=self.return_sequences, replay_first_step=_replays(self.cell),
            draws_in_loop=draws)
        if self.return_sequences and not self.time_major:
            outputs = nest.map_structure(_swap_batch_time, outputs)
        return last_output, outputs, states

    def reset_states(self, states=None):
        """Sets a stateful layer's states to zeros, or to `states` (NumPy arrays)."""
        if not self.stateful:
            raise AttributeError("Layer must be stateful.")
        spec_shape = None
        if self.input_spec is not None:
            spec_shape = nest.flatten(self.input_spec[0])[0].shape
        batch_size = None if spec_shape is None else spec_shape[1 if self.time_major else 0]
        if not batch_size:
            raise ValueError(
                "If a RNN is stateful, it needs to know its batch size. Specify the batch size "
                "of your input tensors: \n- If using a Sequential model, specify the batch size "
                "by passing a `batch_input_shape` argument to your first layer.\n- If using the "
                "functional API, specify the batch size by passing a `batch_shape` argument to "
                "your Input layer.")
        sizes = self.cell.state_size
        if nest.flatten(self.states)[0] is None:
            dtype = self.variable_dtype or backend.floatx()
            make = getattr(self.cell, "get_initial_state", None)
            with context.init_scope():
                values = make(inputs=None, batch_size=batch_size, dtype=dtype) if make else \
                    _initial_zeros(self.cell, None, batch_size, dtype)
                variables = [Variable(v, trainable=False) for v in nest.flatten(values)]
            packed = nest.pack_sequence_as(sizes, variables)
            self.states = packed if nest.is_nested(packed) else [packed]
        elif states is None:
            # (in TF 1's graph mode, set in the Keras session, which holds the states)
            backend.batch_set_value([
                (variable, np.zeros([batch_size, *TensorShape(size).as_list()],
                                    variable.dtype.as_numpy_dtype))
                for variable, size in zip(nest.flatten(self.states), nest.flatten(sizes))])
        else:
            flat_states, flat_values = nest.flatten(self.states), nest.flatten(states)
            if len(flat_values) != len(flat_states):
                raise ValueError(f"Layer {self.name} expects {len(flat_states)} states, but it "
                                 f"received {len(flat_values)} state values. States received: "
                                 f"{states}")
            for i, (value, variable) in enumerate(zip(flat_values, flat_states)):
                value = np.asarray(value)
                if value.shape != tuple(variable.shape.as_list()):
                    raise ValueError(f"State {i} is incompatible with layer {self.name}: "
                                     f"expected shape={(batch_size, variable)} but found "
                                     f"shape={value.shape}")
            backend.batch_set_value([(variable, np.asarray(value, variable.dtype.as_numpy_dtype))
                                     for value, variable in zip(flat_values, flat_states)])

    def get_config(self):
        config = super().get_config()
        config.update({"return_sequences": self.return_sequences,
                       "return_state": self.return_state, "go_backwards": self.go_backwards,
                       "stateful": self.stateful, "unroll": self.unroll,
                       "time_major": self.time_major})
        if self._num_constants:
            config["num_constants"] = self._num_constants
        if self.zero_output_for_mask:
            config["zero_output_for_mask"] = self.zero_output_for_mask
        config["cell"] = serialization.serialize_keras_object(self.cell)
        return config

    @classmethod
    def from_config(cls, config, custom_objects=None):
        config = dict(config)
        return cls(_deserialize(config.pop("cell"), custom_objects), **config)


def _ragged_outputs(outputs, row_lengths, go_backwards):
    """The padded outputs of a ragged input's steps as a ragged tensor of its rows
    (Keras's order: reversed in time, rows cut from the end, when `go_backwards`)."""
    if not go_backwards:
        return RaggedTensor.from_tensor(outputs, lengths=row_lengths)
    rows = RaggedTensor.from_tensor(array_ops.reverse(outputs, [1]), lengths=row_lengths)
    return array_ops.reverse(rows, [1])


# The built-in cells the fused op computes, by the exact class (a subclass may change the step).
_FUSED_MODES = {"LSTMCell": "lstm", "GRUCell": "gru", "SimpleRNNCell": "rnn"}


def _fused_mode(layer, inputs, mask, constants, steps):
    """The `rnn_ops.fused_rnn` mode that computes `layer` on `inputs`, or None.

    As TensorFlow's conditions for its fused kernels: a built-in cell with the
    default activations, a bias, no recurrent dropout (input dropout is applied
    before), not unrolled, and GRU's `reset_after`. Masked steps run the loop.
    """
    cell = layer.cell
    mode = _FUSED_MODES.get(type(cell).__name__)
    if (mode is None or type(cell).__module__ != __name__ or mask is not None
            or constants is not None or layer.unroll or steps == 0 or not cell.use_bias
            or cell.recurrent_dropout != 0 or cell.activation is not activations.tanh
            or not isinstance(inputs, Tensor)):
        return None
    if mode != "rnn" and cell.recurrent_activation is not activations.sigmoid:
        return None
    if mode == "gru" and not cell.reset_after:
        return None
    if mode != "rnn" and cell.implementation == 1 and 0 < cell.dropout < 1:
        return None  # each gate's inputs have their own dropout mask
    if inputs.shape.rank != 3 or inputs.dtype.name not in ("float32", "float64"):
        return None
    if cell.kernel.dtype != inputs.dtype:  # (the steps raise TF's error: not cast here)
        return None
    return mode


def _fused_call(layer, mode, inputs, initial_state, training):
    """The layer over the whole sequence as one fused op: ``(last output, outputs, states)``,
    the outputs in the layer's layout; the same values, dropout draws included, as the loop."""
    cell = layer.cell
    dtype = inputs.dtype
    kernel = _read(cell.kernel, dtype)
    states = [convert_to_tensor(s) for s in nest.flatten(initial_state)]
    states = [s if s.dtype == dtype else cast_ops.cast(s, dtype) for s in states]
    input_mask, _ = _step_masks(cell, kernel.shape[0], states[0], training)
    time_axis = 0 if layer.time_major else 1
    if input_mask is not None:  # one mask for every step, as the loop's
        inputs = math_ops.multiply(inputs, array_ops.expand_dims(input_mask, time_axis))
    if layer.go_backwards:  # the loop's outputs then come in the order it read the steps
        inputs = array_ops.reverse(inputs, [time_axis])
    if layer.stateful:
        # A stateful layer's last, smaller batch of one sample meets states of the fixed
        # batch: the steps' products broadcast it over them, as Keras's cells do (predict
        # then gives a row per state). Adding zeros of the states' batch does the same.
        batch = array_ops.shape(states[0])[:1]
        ones = array_ops.ones([1], "int32")
        shape = (array_ops.concat([ones, batch, ones], 0) if layer.time_major
                 else array_ops.concat([batch, ones, ones], 0))
        inputs = math_ops.add(inputs, array_ops.zeros(shape, dtype))
    results = rnn_ops.fused_rnn(
        inputs, kernel, _read(cell.recurrent_kernel, dtype), _read(cell.bias, dtype), *states,
        mode=mode, time_major=layer.time_major)
    new_states = list(results[1:-1])
    return new_states[0], results[0], new_states


def _sequence_dropout(layer, inputs, training):
    """Whether an LSTM or GRU layer drops its inputs sequence-wide, as Keras does where
    its fused kernels apply (their activations, a bias, no recurrent dropout, not unrolled,
    GRU's `reset_after`), whether or not a mask then makes the steps run one by one."""
    cell = layer.cell
    if (type(cell) not in (LSTMCell, GRUCell) or not 0 < cell.dropout < 1
            or not _is_training(training) or not isinstance(inputs, Tensor)):
        return False
    return (cell.recurrent_dropout == 0 and not layer.unroll and cell.use_bias
            and cell.activation is activations.tanh
            and cell.recurrent_activation is activations.sigmoid
            and getattr(cell, "reset_after", True))


def _vjp(fn, args, output_grads):
    """Reverse mode through `fn` at `args`, weighted by `output_grads` (for `rnn_ops.vjp`)."""
    with GradientTape() as tape:
        tape.watch(args)
        outputs = fn(*args)
    return tape.gradient(outputs, args, output_gradients=output_grads)


rnn_ops.vjp = _vjp
rnn_ops.loops = (control_flow.while_loop, TensorArray)


class _CellLayer(RNN):
    """SimpleRNN, LSTM and GRU: an `RNN` over the cell their arguments make, whose
    arguments they expose as attributes of their own (``layer.units``)."""

    _cell_class = None
    _cell_name = None

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        for key in cls._cell_class._config_keys:
            setattr(cls, key, property(lambda self, key=key: getattr(self.cell, key)))

    def __init__(self, units, cell_args, activity_regularizer=None, **kwargs):
        kwargs.pop("return_runtime", None)
        cell_kwargs = {key: kwargs.pop(key) for key in ("enable_caching_device",
                                                         "implementation") if key in kwargs}
        if self._cell_class is SimpleRNNCell and "implementation" in cell_kwargs:
            del cell_kwargs["implementation"]  # deprecated in Keras, ignored
            _log.logger.warning("The `implementation` argument in `SimpleRNN` has been "
                                "deprecated. Please remove it from your layer call.")
        cell = self._cell_class(units, **cell_args, **cell_kwargs, dtype=kwargs.get("dtype"),
                                trainable=kwargs.get("trainable", True), name=self._cell_name)
        super().__init__(cell, **kwargs)
        self.activity_regularizer = regularizers.get(activity_regularizer)
        self.input_spec = [InputSpec(ndim=3)]

    def call(self, inputs, mask=None, training=None, initial_state=None):
        # no `constants`: Keras' built-in layers take none (error messages list call arguments)
        if _sequence_dropout(self, inputs, training):
            # Keras' LSTM and GRU, where their fused kernels apply, drop each step's inputs
            # with a mask of the whole sequence (the first of one drawn per gate)
            self.cell.reset_dropout_mask()
            drop = self.cell.get_dropout_mask_for_cell(inputs, training, count=self.cell._gates)
            inputs = math_ops.multiply(inputs, drop[0])
            training = False  # no recurrent dropout here: nothing else draws
        return super().call(inputs, mask=mask, training=training, initial_state=initial_state)

    def get_config(self):
        config = super().get_config()
        del config["cell"]
        cell_config = self.cell.get_config()
        for key in self._cell_class._config_keys:
            config[key] = cell_config[key]
            if key == "bias_regularizer":
                config["activity_regularizer"] = _serialized("activity_regularizer",
                                                             self.activity_regularizer)
        if "enable_caching_device" in cell_config:
            config["enable_caching_device"] = cell_config["enable_caching_device"]
        return config

    @classmethod
    def from_config(cls, config):
        if config.get("implementation") == 0:
            config = {**config, "implementation": 1}
        return cls(**config)


@export("keras.layers.SimpleRNN")
class SimpleRNN(_CellLayer):
    """A fully connected recurrent layer: `RNN` over a `SimpleRNNCell`.

    >>> tf.keras.layers.SimpleRNN(4)(tf.ones((2, 3, 5))).shape
    TensorShape([2, 4])
    """

    _cell_class = SimpleRNNCell
    _cell_name = "simple_rnn_cell"

    def __init__(self, units, activation="tanh", use_bias=True,
                 kernel_initializer="glorot_uniform", recurrent_initializer="orthogonal",
                 bias_initializer="zeros", kernel_regularizer=None, recurrent_regularizer=None,
                 bias_regularizer=None, activity_regularizer=None, kernel_constraint=None,
                 recurrent_constraint=None, bias_constraint=None, dropout=0.0,
                 recurrent_dropout=0.0, return_sequences=False, return_state=False,
                 go_backwards=False, stateful=False, unroll=False, **kwargs):
        cell_args = dict(
            activation=activation, use_bias=use_bias, kernel_initializer=kernel_initializer,
            recurrent_initializer=recurrent_initializer, bias_initializer=bias_initializer,
            kernel_regularizer=kernel_regularizer, recurrent_regularizer=recurrent_regularizer,
            bias_regularizer=bias_regularizer, kernel_constraint=kernel_constraint,
            recurrent_constraint=recurrent_constraint, bias_constraint=bias_constraint,
            dropout=dropout, recurrent_dropout=recurrent_dropout)
        super().__init__(units, cell_args, activity_regularizer=activity_regularizer,
                         return_sequences=return_sequences, return_state=return_state,
                         go_backwards=go_backwards, stateful=stateful, unroll=unroll, **kwargs)


@export("keras.layers.LSTM")
class LSTM(_CellLayer):
    """Long short-term memory (Hochreiter 1997): `RNN` over an `LSTMCell`.

    >>> lstm = tf.keras.layers.LSTM(4, return_sequences=True)
    >>> lstm(tf.ones((2, 3, 5))).shape
    TensorShape([2, 3, 4])
    """

    _cell_class = LSTMCell
    _cell_name = "lstm_cell"
    _own_call = True

    def __init__(self, units, activation="tanh", recurrent_activation="sigmoid", use_bias=True,
                 kernel_initializer="glorot_uniform", recurrent_initializer="orthogonal",
                 bias_initializer="zeros", unit_forget_bias=True, kernel_regularizer=None,
                 recurrent_regularizer=None, bias_regularizer=None, activity_regularizer=None,
                 kernel_constraint=None, recurrent_constraint=None, bias_constraint=None,
                 dropout=0.0, recurrent_dropout=0.0, return_sequences=False, return_state=False,
                 go_backwards=False, stateful=False, time_major=False, unroll=False, **kwargs):
        cell_args = dict(
            activation=activation, recurrent_activation=recurrent_activation, use_bias=use_bias,
            kernel_initializer=kernel_initializer, recurrent_initializer=recurrent_initializer,
            unit_forget_bias=unit_forget_bias, bias_initializer=bias_initializer,
            kernel_regularizer=kernel_regularizer, recurrent_regularizer=recurrent_regularizer,
            bias_regularizer=bias_regularizer, kernel_constraint=kernel_constraint,
            recurrent_constraint=recurrent_constraint, bias_constraint=bias_constraint,
            dropout=dropout, recurrent_dropout=recurrent_dropout)
        super().__init__(units, cell_args, activity_regularizer=activity_regularizer,
                         return_sequences=return_sequences, return_state=return_state,
                         go_backwards=go_backwards, stateful=stateful, time_major=time_major,
                         unroll=unroll, **kwargs)
        # Keras runs its fused step, the bias added after both matmuls whatever the cell's
        # `implementation`, unless the cell must run itself
        cell = self.cell
        cell._fused_step = (
            cell.activation in (activations.tanh, math_ops.tanh) and
            cell.recurrent_activation in (activations.sigmoid, math_ops.sigmoid) and
            cell.recurrent_dropout == 0 and not unroll and cell.use_bias)


@export("keras.layers.GRU")
class GRU(_CellLayer):
    """Gated recurrent unit (Cho 2014): `RNN` over a `GRUCell` (`reset_after` by default).

    >>> tf.keras.layers.GRU(4, return_state=True)(tf.ones((2, 3, 5)))[1].shape
    TensorShape([2, 4])
    """

    _cell_class = GRUCell
    _own_call = True
    _cell_name = "gru_cell"

    def __init__(self, units, activation="tanh", recurrent_activation="sigmoid", use_bias=True,
                 kernel_initializer="glorot_uniform", recurrent_initializer="orthogonal",
                 bias_initializer="zeros", kernel_regularizer=None, recurrent_regularizer=None,
                 bias_regularizer=None, activity_regularizer=None, kernel_constraint=None,
                 recurrent_constraint=None, bias_constraint=None, dropout=0.0,
                 recurrent_dropout=0.0, return_sequences=False, return_state=False,
                 go_backwards=False, stateful=False, unroll=False, time_major=False,
                 reset_after=True, **kwargs):
        cell_args = dict(
            activation=activation, recurrent_activation=recurrent_activation, use_bias=use_bias,
            kernel_initializer=kernel_initializer, recurrent_initializer=recurrent_initializer,
            bias_initializer=bias_initializer, kernel_regularizer=kernel_regularizer,
            recurrent_regularizer=recurrent_regularizer, bias_regularizer=bias_regularizer,
            kernel_constraint=kernel_constraint, recurrent_constraint=recurrent_constraint,
            bias_constraint=bias_constraint, dropout=dropout,
            recurrent_dropout=recurrent_dropout, reset_after=reset_after)
        super().__init__(units, cell_args, activity_regularizer=activity_regularizer,
                         return_sequences=return_sequences, return_state=return_state,
                         go_backwards=go_backwards, stateful=stateful, unroll=unroll,
                         time_major=time_major, **kwargs)


def _tf1_defaults(cls, export_name, **defaults):
    """`cls` with TF 1's Keras defaults (``tf.compat.v1.keras.layers``): `defaults` for the
    arguments not given, by name or position. The class keeps its name, as TF 1's does."""
    signature = inspect.signature(cls.__init__)

    def __init__(self, *args, **kwargs):
        given = signature.bind_partial(self, *args, **kwargs).arguments
        for key, value in defaults.items():
            if key not in given and key not in given.get("kwargs", {}):
                kwargs[key] = value
        cls.__init__(self, *args, **kwargs)

    v1 = type(cls.__name__, (cls,), {
        "__init__": __init__, "__module__": cls.__module__, "__qualname__": cls.__qualname__,
        "__doc__": f"{cls.__doc__.splitlines()[0]} With TF 1's defaults: "
                   + ", ".join(f"``{k}={v!r}``" for k, v in defaults.items()) + "."})
    return export(export_name)(v1)


# TF 1's recurrent layers: the hard sigmoid gates, a GRU resetting before its matmul, the
# gates computed one by one
LSTMCellV1 = _tf1_defaults(LSTMCell, "compat.v1.keras.layers.LSTMCell",
                           recurrent_activation="hard_sigmoid", implementation=1)
GRUCellV1 = _tf1_defaults(GRUCell, "compat.v1.keras.layers.GRUCell",
                          recurrent_activation="hard_sigmoid", reset_after=False,
                          implementation=1)
LSTMV1 = _tf1_defaults(LSTM, "compat.v1.keras.layers.LSTM",
                       recurrent_activation="hard_sigmoid", implementation=1)
GRUV1 = _tf1_defaults(GRU, "compat.v1.keras.layers.GRU", recurrent_activation="hard_sigmoid",
                      reset_after=False, implementation=1)


# -- TF 1's cuDNN layers ------------------------------------------------------------------------

# What a cuDNN layer has of a cell: its state sizes (the layer holds the weights).
_CuDNNCell = collections.namedtuple("cell", "state_size")


class _CuDNNRNN(RNN):
    """CuDNNLSTM and CuDNNGRU: one fused cuDNN op over the sequence, with weights in
    cuDNN's layout (an input and a recurrent bias).

    As in TF, they run on a GPU only: without one a call fails as TF's op does (once the
    layer has built its weights), while a functional model is still built of them.
    """

    _gates = None  # of the kernel: 4 (LSTM) or 3 (GRU)
    _mode = None   # cuDNN's rnn_mode

    def __init__(self, units, kernel_initializer="glorot_uniform",
                 recurrent_initializer="orthogonal", bias_initializer="zeros",
                 kernel_regularizer=None, recurrent_regularizer=None, bias_regularizer=None,
                 activity_regularizer=None, kernel_constraint=None, recurrent_constraint=None,
                 bias_constraint=None, return_sequences=False, return_state=False,
                 go_backwards=False, stateful=False, **kwargs):
        time_major = kwargs.pop("time_major", False)  # (not an argument Keras names)
        self.units = units
        sizes = (units, units) if self._gates == 4 else units
        self._cell = _CuDNNCell(state_size=sizes)
        Layer.__init__(self, **kwargs)  # (no cell layer to make, as RNN's would)
        self.return_sequences = return_sequences
        self.return_state = return_state
        self.go_backwards = go_backwards
        self.stateful = stateful
        self.time_major = time_major
        self.unroll = False
        self.zero_output_for_mask = False
        self.supports_masking = False
        self.input_spec = [InputSpec(ndim=3)]
        self.state_spec = [InputSpec(shape=(None, units)) for _ in range(len(self._state_sizes()))]
        self.constants_spec = None
        self._num_constants = 0
        self.states = None
        weight_arguments.resolve(
            self, kernel_initializer=kernel_initializer,
            recurrent_initializer=recurrent_initializer, bias_initializer=bias_initializer,
            kernel_regularizer=kernel_regularizer, recurrent_regularizer=recurrent_regularizer,
            bias_regularizer=bias_regularizer, kernel_constraint=kernel_constraint,
            recurrent_constraint=recurrent_constraint, bias_constraint=bias_constraint)
        self.activity_regularizer = regularizers.get(activity_regularizer)

    @property
    def cell(self):
        return self._cell

    def build(self, input_shape):
        super().build(input_shape)
        if isinstance(input_shape, list):
            input_shape = input_shape[0]
        input_dim = int(TensorShape(input_shape)[-1])
        width = self.units * self._gates
        self.kernel = self.add_weight(
            "kernel", (input_dim, width), initializer=self.kernel_initializer,
            regularizer=self.kernel_regularizer, constraint=self.kernel_constraint)
        self.recurrent_kernel = self.add_weight(
            "recurrent_kernel", (self.units, width), initializer=self.recurrent_initializer,
            regularizer=self.recurrent_regularizer, constraint=self.recurrent_constraint)
        self.bias = self.add_weight(
            "bias", (2 * width,), initializer=self._bias_initializer(),
            regularizer=self.bias_regularizer, constraint=self.bias_constraint)
        self.built = True

    def _bias_initializer(self):
        return self.bias_initializer

    def call(self, inputs, mask=None, training=None, initial_state=None):
        if isinstance(mask, list):
            mask = mask[0]
        if mask is not None:
            raise ValueError("Masking is not supported for CuDNN RNNs.")
        if isinstance(inputs, list):
            inputs, initial_state = inputs[0], inputs[1:]
        inputs = convert_to_tensor(inputs)
        if initial_state is None:
            initial_state = [convert_to_tensor(s) for s in self.states] if self.stateful \
                else self.get_initial_state(inputs)
        if len(initial_state) != len(self.states):
            raise ValueError(f"Layer has {len(self.states)} states but was passed "
                             f"{len(initial_state)} initial states.")
        if self.go_backwards:  # (as Keras: axis 1, whatever `time_major` says)
            inputs = array_ops.reverse(inputs, [1])
        if not _gpus():
            if context.executing_eagerly():
                raise errors.op_error(errors.NotFoundError, "CudnnRNNV3",
                                      _no_cudnn_kernel(self._mode, inputs.dtype))
            # (a graph is built, as TF's is, and fails when it runs)
            debugging_ops.Assert(False, [_no_cudnn_kernel(self._mode, inputs.dtype, True)])
        initial_state = [cast_ops.cast(convert_to_tensor(s), inputs.dtype)
                         for s in initial_state]
        last, outputs, states = rnn(self._step(), inputs, initial_state,
                                    time_major=self.time_major)
        if self.stateful:
            for variable, state in zip(self.states, states):
                variable.assign(cast_ops.cast(state, variable.dtype))
        output = outputs if self.return_sequences else last
        return [output] + list(states) if self.return_state else output

    def get_config(self):
        config = {**Layer.get_config(self), "return_sequences": self.return_sequences,
                  "return_state": self.return_state, "go_backwards": self.go_backwards,
                  "stateful": self.stateful, "time_major": self.time_major,
                  "units": self.units}
        for key in ("kernel_initializer", "recurrent_initializer", "bias_initializer"):
            config[key] = weight_arguments.serialize(key, getattr(self, key))
            if key == "bias_initializer" and self._gates == 4:
                config["unit_forget_bias"] = self.unit_forget_bias
        for key in ("kernel_regularizer", "recurrent_regularizer", "bias_regularizer"):
            config[key] = weight_arguments.serialize(key, getattr(self, key))
        config["activity_regularizer"] = regularizers.serialize(self.activity_regularizer)
        for key in ("kernel_constraint", "recurrent_constraint", "bias_constraint"):
            config[key] = weight_arguments.serialize(key, getattr(self, key))
        return config

    @classmethod
    def from_config(cls, config):
        return cls(**config)


def _gpus():
    return devices.list_devices("GPU")


def _no_cudnn_kernel(mode, dtype, graph=False):
    """TF's message for its cuDNN op on a machine without a GPU (eagerly, or as a `graph`
    runs)."""
    listed = "".join(f"  device='GPU'; T in [DT_{name}]\n"
                     for name in ("DOUBLE", "FLOAT", "BFLOAT16", "HALF"))
    attrs = (f"T=DT_{kernel_type_name(dtype).upper()}, direction=\"unidirectional\", "
             f"dropout=0, input_mode=\"linear_input\", is_training=true, num_proj=0, "
             f"rnn_mode=\"{mode}\", seed=0, seed2=0, time_major=true")
    if graph:
        return (f"No OpKernel was registered to support Op 'CudnnRNNV3' used by {{{{node "
                f"CudnnRNNV3}}}} with these attrs: [{attrs}]\nRegistered devices: [CPU]\n"
                f"Registered kernels:\n{listed}")
    return (f"Could not find device for node: {{{{node CudnnRNNV3}}}} = CudnnRNNV3[{attrs}]\n"
            f"All kernels registered for op CudnnRNNV3:\n{listed}")


@export("compat.v1.keras.layers.CuDNNLSTM")
class CuDNNLSTM(_CuDNNRNN):
    """An LSTM layer run by cuDNN (on a GPU only), TF 1's fast LSTM.

    Its gates are those of `LSTM` with sigmoid and tanh, and its bias is cuDNN's: an
    input and a recurrent bias of ``4 * units`` each, added.

    >>> layer = tf.compat.v1.keras.layers.CuDNNLSTM(3)
    >>> layer(tf.keras.Input((5, 2))).shape
    TensorShape([None, 3])
    """

    _gates, _mode = 4, "lstm"

    def __init__(self, units, kernel_initializer="glorot_uniform",
                 recurrent_initializer="orthogonal", bias_initializer="zeros",
                 unit_forget_bias=True, kernel_regularizer=None, recurrent_regularizer=None,
                 bias_regularizer=None, activity_regularizer=None, kernel_constraint=None,
                 recurrent_constraint=None, bias_constraint=None, return_sequences=False,
                 return_state=False, go_backwards=False, stateful=False, **kwargs):
        self.unit_forget_bias = unit_forget_bias
        super().__init__(
            units, kernel_initializer=kernel_initializer,
            recurrent_initializer=recurrent_initializer, bias_initializer=bias_initializer,
            kernel_regularizer=kernel_regularizer, recurrent_regularizer=recurrent_regularizer,
            bias_regularizer=bias_regularizer, activity_regularizer=activity_regularizer,
            kernel_constraint=kernel_constraint, recurrent_constraint=recurrent_constraint,
            bias_constraint=bias_constraint, return_sequences=return_sequences,
            return_state=return_state, go_backwards=go_backwards, stateful=stateful, **kwargs)

    def _bias_initializer(self):
        if not self.unit_forget_bias:
            return self.bias_initializer
        units, initializer = self.units, self.bias_initializer

        def forget_bias_ones(_, *args, **kwargs):
            # the recurrent bias's forget gate (the sixth quarter of the 8 * units) is ones
            return array_ops.concat([initializer((units * 5,), *args, **kwargs),
                                     array_ops.ones((units,), *args, **kwargs),
                                     initializer((units * 2,), *args, **kwargs)], 0)
        return forget_bias_ones

    def _step(self):
        kernel, recurrent_kernel = self.kernel, self.recurrent_kernel
        bias = math_ops.add(self.bias[:4 * self.units], self.bias[4 * self.units:])

        def step(x, states):
            h, c = states
            z = math_ops.add(math_ops.add(linalg_ops.matmul(x, kernel),
                                          linalg_ops.matmul(h, recurrent_kernel)), bias)
            i, f, g, o = array_ops.split(z, 4, axis=-1)
            c = math_ops.add(math_ops.multiply(math_ops.sigmoid(f), c),
                             math_ops.multiply(math_ops.sigmoid(i), math_ops.tanh(g)))
            h = math_ops.multiply(math_ops.sigmoid(o), math_ops.tanh(c))
            return h, [h, c]
        return step


@export("compat.v1.keras.layers.CuDNNGRU")
class CuDNNGRU(_CuDNNRNN):
    """A GRU layer run by cuDNN (on a GPU only), TF 1's fast GRU.

    Its gates are those of `GRU` with ``reset_after=True``, sigmoid and tanh, and its bias
    is cuDNN's: an input and a recurrent bias of ``3 * units`` each.

    >>> layer = tf.compat.v1.keras.layers.CuDNNGRU(3, return_sequences=True)
    >>> layer(tf.keras.Input((5, 2))).shape
    TensorShape([None, 5, 3])
    """

    _gates, _mode = 3, "gru"

    def _step(self):
        kernel, recurrent_kernel = self.kernel, self.recurrent_kernel
        input_bias, recurrent_bias = self.bias[:3 * self.units], self.bias[3 * self.units:]

        def step(x, states):
            h = states[0]
            xz, xr, xh = array_ops.split(
                math_ops.add(linalg_ops.matmul(x, kernel), input_bias), 3, axis=-1)
            hz, hr, hh = array_ops.split(
                math_ops.add(linalg_ops.matmul(h, recurrent_kernel), recurrent_bias), 3, axis=-1)
            z = math_ops.sigmoid(math_ops.add(xz, hz))
            r = math_ops.sigmoid(math_ops.add(xr, hr))
            candidate = math_ops.tanh(math_ops.add(xh, math_ops.multiply(r, hh)))
            h = math_ops.add(math_ops.multiply(z, h),
                             math_ops.multiply(math_ops.subtract(1.0, z), candidate))
            return h, [h]
        return step
