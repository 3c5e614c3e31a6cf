"""TF 1's recurrent cells (``tf.compat.v1.nn.rnn_cell``) and the functions running them over
a sequence (``tf.compat.v1.nn.dynamic_rnn``, ``static_rnn``).

A cell is a TF 1 layer (see `layers`): called as ``cell(inputs, state)`` it returns
``(output, new_state)``; in a v1 graph its variables come from `get_variable` in its
variable scope (``rnn/basic_lstm_cell/kernel:0``), made at the first step and shared by
the others. The sequence functions unroll the steps when their number is known as the
graph is built (`dynamic_rnn` loops over them otherwise); with `sequence_length`, a
sequence's outputs past its end are zeros and its state stays the one it ended with.

>>> cell = tf.compat.v1.nn.rnn_cell.BasicRNNCell(2)
>>> outputs, state = tf.compat.v1.nn.dynamic_rnn(cell, tf.ones([1, 3, 4]), dtype=tf.float32)
>>> outputs.shape, state.shape
(TensorShape([1, 3, 2]), TensorShape([1, 2]))
"""
import collections

from eagerflow._src.backend.api_export import export
from eagerflow._src.compat import layers
from eagerflow._src.compat import variable_scope as vs
from eagerflow._src.core import context, nest
from eagerflow._src.core import dtypes as _d
from eagerflow._src.core.convert import convert_to_tensor
from eagerflow._src.core.tensor_shape import TensorShape
from eagerflow._src.keras import initializers as _initializers
from eagerflow._src.keras.engine import base_layer
from eagerflow._src.keras.layers import cell_wrappers as _cell_wrappers
from eagerflow._src.ops import array_ops, cast_ops, composite_ops, linalg_ops, math_ops, nn_ops, \
    reduction_ops


@export("compat.v1.nn.rnn_cell.LSTMStateTuple")
class LSTMStateTuple(collections.namedtuple("LSTMStateTuple", ("c", "h"))):
    """An LSTM's state: the cell state `c` and the output `h`."""

    __slots__ = ()

    @property
    def dtype(self):
        if self.c.dtype != self.h.dtype:
            raise TypeError(f"Inconsistent internal state: {self.c.dtype} vs {self.h.dtype}")
        return self.c.dtype


@export("compat.v1.nn.rnn_cell.RNNCell")
class RNNCell(layers._Scoped, base_layer.Layer):
    """The base of TF 1's cells: ``cell(inputs, state) -> (output, new_state)``, with
    `state_size`, `output_size` and `zero_state`."""

    # (a Keras RNN gives such a cell its one state alone, not in a list)
    _is_tf_rnn_cell = True

    def __init__(self, trainable=True, name=None, dtype=None, **kwargs):
        reuse = kwargs.pop("_reuse", None)
        super().__init__(trainable=trainable, name=name, dtype=dtype, _reuse=reuse, **kwargs)

    def __call__(self, inputs, state, scope=None):
        return super().__call__(inputs, state, scope=scope)

    @property
    def state_size(self):
        raise NotImplementedError("Abstract method")

    @property
    def output_size(self):
        raise NotImplementedError("Abstract method")

    def zero_state(self, batch_size, dtype):
        """Zeros of `state_size` (per example) for `batch_size` examples."""
        def zeros(size):
            return array_ops.zeros(array_ops.stack([batch_size, size]) if not isinstance(
                batch_size, int) else [batch_size, size], dtype)
        return nest.map_structure(zeros, self.state_size)

    def get_initial_state(self, inputs=None, batch_size=None, dtype=None):
        if inputs is not None:
            batch_size = array_ops.shape(inputs)[0]
            dtype = dtype or inputs.dtype
        return self.zero_state(batch_size, dtype)


def _act(activation):
    return activation if activation is not None else math_ops.tanh


def _matmul_concat(parts, kernel):
    return linalg_ops.matmul(array_ops.concat(parts, 1), kernel)


def _depth(inputs_shape, name):
    depth = inputs_shape[-1]
    if depth is None:
        raise ValueError(f"Expected inputs.shape[-1] to be known, saw shape: {inputs_shape}")
    return int(depth)


@export("compat.v1.nn.rnn_cell.BasicRNNCell")
class BasicRNNCell(RNNCell):
    """``output = new_state = activation(W [inputs, state] + b)``."""

    def __init__(self, num_units, activation=None, reuse=None, name=None, dtype=None,
                 **kwargs):
        super().__init__(name=name, dtype=dtype, _reuse=reuse, **kwargs)
        self._num_units, self._activation = num_units, _act(activation)

    state_size = property(lambda self: self._num_units)
    output_size = property(lambda self: self._num_units)

    def build(self, inputs_shape):
        depth = _depth(inputs_shape, "BasicRNNCell")
        self._kernel = self.add_weight("kernel", shape=[depth + self._num_units,
                                                        self._num_units])
        self._bias = self.add_weight("bias", shape=[self._num_units],
                                     initializer=vs.zeros_initializer())
        self.built = True

    def call(self, inputs, state):
        output = self._activation(nn_ops.bias_add(_matmul_concat([inputs, state],
                                                                 self._kernel), self._bias))
        return output, output


@export("compat.v1.nn.rnn_cell.BasicLSTMCell")
class BasicLSTMCell(RNNCell):
    """The LSTM of TF 1's ``BasicLSTMCell``: gates ``i, j, f, o`` from one product,
    ``c = c * sigmoid(f + forget_bias) + sigmoid(i) * activation(j)``,
    ``h = activation(c) * sigmoid(o)``."""

    def __init__(self, num_units, forget_bias=1.0, state_is_tuple=True, activation=None,
                 reuse=None, name=None, dtype=None, **kwargs):
        super().__init__(name=name, dtype=dtype, _reuse=reuse, **kwargs)
        self._num_units, self._forget_bias = num_units, forget_bias
        self._state_is_tuple, self._activation = state_is_tuple, _act(activation)

    @property
    def state_size(self):
        n = self._num_units
        return LSTMStateTuple(n, n) if self._state_is_tuple else 2 * n

    output_size = property(lambda self: self._num_units)

    def build(self, inputs_shape):
        depth = _depth(inputs_shape, "BasicLSTMCell")
        self._kernel = self.add_weight("kernel", shape=[depth + self._num_units,
                                                        4 * self._num_units])
        self._bias = self.add_weight("bias", shape=[4 * self._num_units],
                                     initializer=vs.zeros_initializer())
        self.built = True

    def call(self, inputs, state):
        c, h = state if self._state_is_tuple else array_ops.split(state, 2, axis=1)
        gates = nn_ops.bias_add(_matmul_concat([inputs, h], self._kernel), self._bias)
        i, j, f, o = array_ops.split(gates, 4, axis=1)
        forget = convert_to_tensor(self._forget_bias, dtype=f.dtype)
        new_c = c * math_ops.sigmoid(f + forget) + math_ops.sigmoid(i) * self._activation(j)
        new_h = self._activation(new_c) * math_ops.sigmoid(o)
        state = (LSTMStateTuple(new_c, new_h) if self._state_is_tuple
                 else array_ops.concat([new_c, new_h], 1))
        return new_h, state


@export("compat.v1.nn.rnn_cell.LSTMCell")
class LSTMCell(RNNCell):
    """TF 1's ``LSTMCell``: `BasicLSTMCell`'s gates with optional peepholes
    (`use_peepholes`), clipping of the cell state (`cell_clip`) and a projection of the
    output to `num_proj` units (clipped to `proj_clip`)."""

    def __init__(self, num_units, use_peepholes=False, cell_clip=None, initializer=None,
                 num_proj=None, proj_clip=None, num_unit_shards=None, num_proj_shards=None,
                 forget_bias=1.0, state_is_tuple=True, activation=None, reuse=None, name=None,
                 dtype=None, **kwargs):
        del num_unit_shards, num_proj_shards
        super().__init__(name=name, dtype=dtype, _reuse=reuse, **kwargs)
        self._num_units, self._use_peepholes = num_units, use_peepholes
        self._cell_clip, self._initializer = cell_clip, initializer
        self._num_proj, self._proj_clip = num_proj, proj_clip
        self._forget_bias, self._state_is_tuple = forget_bias, state_is_tuple
        self._activation = _act(activation)

    @property
    def state_size(self):
        n, out = self._num_units, self._num_proj or self._num_units
        return LSTMStateTuple(n, out) if self._state_is_tuple else n + out

    output_size = property(lambda self: self._num_proj or self._num_units)

    def build(self, inputs_shape):
        depth = _depth(inputs_shape, "LSTMCell")
        n, h_depth = self._num_units, self._num_proj or self._num_units
        self._kernel = self.add_weight("kernel", shape=[depth + h_depth, 4 * n],
                                       initializer=self._initializer)
        self._bias = self.add_weight("bias", shape=[4 * n], initializer=vs.zeros_initializer())
        if self._use_peepholes:
            self._w_f_diag, self._w_i_diag, self._w_o_diag = (
                self.add_weight(name, shape=[n], initializer=self._initializer)
                for name in ("w_f_diag", "w_i_diag", "w_o_diag"))
        if self._num_proj is not None:
            self._proj_kernel = self.add_weight("projection/kernel",
                                                shape=[n, self._num_proj],
                                                initializer=self._initializer)
        self.built = True

    def call(self, inputs, state):
        n = self._num_units
        if self._state_is_tuple:
            c_prev, m_prev = state
        else:
            c_prev = array_ops.slice(state, [0, 0], [-1, n])
            m_prev = array_ops.slice(state, [0, n], [-1, self._num_proj or n])
        gates = nn_ops.bias_add(_matmul_concat([inputs, m_prev], self._kernel), self._bias)
        i, j, f, o = array_ops.split(gates, 4, axis=1)
        forget = convert_to_tensor(self._forget_bias, dtype=f.dtype)
        sigmoid, act = math_ops.sigmoid, self._activation
        if self._use_peepholes:
            c = (sigmoid(f + forget + self._w_f_diag * c_prev) * c_prev
                 + sigmoid(i + self._w_i_diag * c_prev) * act(j))
        else:
            c = sigmoid(f + forget) * c_prev + sigmoid(i) * act(j)
        if self._cell_clip is not None:
            c = reduction_ops.clip_by_value(c, -self._cell_clip, self._cell_clip)
        m = sigmoid(o + self._w_o_diag * c) * act(c) if self._use_peepholes else \
            sigmoid(o) * act(c)
        if self._num_proj is not None:
            m = linalg_ops.matmul(m, self._proj_kernel)
            if self._proj_clip is not None:
                m = reduction_ops.clip_by_value(m, -self._proj_clip, self._proj_clip)
        state = LSTMStateTuple(c, m) if self._state_is_tuple else array_ops.concat([c, m], 1)
        return m, state


@export("compat.v1.nn.rnn_cell.GRUCell")
class GRUCell(RNNCell):
    """TF 1's GRU: ``r, u = sigmoid(W_g [inputs, state] + b_g)`` (``b_g`` starts at 1),
    ``c = activation(W_c [inputs, r * state] + b_c)``, ``h = u * state + (1 - u) * c``."""

    def __init__(self, num_units, activation=None, reuse=None, kernel_initializer=None,
                 bias_initializer=None, name=None, dtype=None, **kwargs):
        super().__init__(name=name, dtype=dtype, _reuse=reuse, **kwargs)
        self._num_units, self._activation = num_units, _act(activation)
        self._kernel_initializer = kernel_initializer
        self._bias_initializer = bias_initializer

    state_size = property(lambda self: self._num_units)
    output_size = property(lambda self: self._num_units)

    def build(self, inputs_shape):
        depth, n = _depth(inputs_shape, "GRUCell"), self._num_units
        bias = self._bias_initializer
        self._gate_kernel = self.add_weight("gates/kernel", shape=[depth + n, 2 * n],
                                            initializer=self._kernel_initializer)
        self._gate_bias = self.add_weight(
            "gates/bias", shape=[2 * n],
            initializer=bias if bias is not None else _initializers.Constant(1.0))
        self._candidate_kernel = self.add_weight("candidate/kernel", shape=[depth + n, n],
                                                 initializer=self._kernel_initializer)
        self._candidate_bias = self.add_weight(
            "candidate/bias", shape=[n],
            initializer=bias if bias is not None else vs.zeros_initializer())
        self.built = True

    def call(self, inputs, state):
        value = math_ops.sigmoid(nn_ops.bias_add(
            _matmul_concat([inputs, state], self._gate_kernel), self._gate_bias))
        r, u = array_ops.split(value, 2, axis=1)
        candidate = self._activation(nn_ops.bias_add(
            _matmul_concat([inputs, r * state], self._candidate_kernel), self._candidate_bias))
        new_h = u * state + (1 - u) * candidate
        return new_h, new_h


@export("compat.v1.nn.rnn_cell.MultiRNNCell")
class MultiRNNCell(RNNCell):
    """`cells` stacked: each one's output is the next one's input (variables under
    ``cell_0``, ``cell_1``, ...); the state is the tuple of theirs."""

    def __init__(self, cells, state_is_tuple=True):
        super().__init__()
        if not cells:
            raise ValueError("Must specify at least one cell for MultiRNNCell.")
        if not nest.is_nested(cells):
            raise TypeError(f"cells must be a list or tuple, but saw: {cells}.")
        self._cells, self._state_is_tuple = list(cells), state_is_tuple

    @property
    def state_size(self):
        sizes = tuple(cell.state_size for cell in self._cells)
        return sizes if self._state_is_tuple else sum(sizes)

    output_size = property(lambda self: self._cells[-1].output_size)

    def zero_state(self, batch_size, dtype):
        states = tuple(cell.zero_state(batch_size, dtype) for cell in self._cells)
        return states if self._state_is_tuple else array_ops.concat(list(states), 1)

    def build(self, inputs_shape):
        self.built = True

    def call(self, inputs, state):
        out, new_states, start = inputs, [], 0
        for i, cell in enumerate(self._cells):
            with vs.variable_scope(f"cell_{i}"):
                if self._state_is_tuple:
                    cur = state[i]
                else:
                    size = cell.state_size
                    cur = array_ops.slice(state, [0, start], [-1, size])
                    start += size
                out, new = cell(out, cur)
                new_states.append(new)
        return out, (tuple(new_states) if self._state_is_tuple
                     else array_ops.concat(new_states, 1))


def _assert_like_rnncell(cell_name, cell):
    """TypeError naming what `cell` lacks of a cell's interface."""
    missing = [error for error, ok in (
        ("'output_size' property is missing", hasattr(cell, "output_size")),
        ("'state_size' property is missing", hasattr(cell, "state_size")),
        ("either 'zero_state' or 'get_initial_state' method is required",
         hasattr(cell, "get_initial_state") or hasattr(cell, "zero_state")),
        ("is not callable", callable(cell))) if not ok]
    if missing:
        raise TypeError(f"The argument {cell_name!r} ({cell}) is not an RNNCell: "
                        f"{', '.join(missing)}.")


class _Wrapper(RNNCell):
    """A cell around `cell`: called, it runs `_call_wrapped_cell` with the wrapped cell's
    own call (the cell keeps its own variable scope; the wrapper has none)."""

    def __init__(self, cell, **kwargs):
        super().__init__(**kwargs)
        _assert_like_rnncell("cell", cell)
        self.cell = cell

    state_size = property(lambda self: self.cell.state_size)
    output_size = property(lambda self: self.cell.output_size)

    def zero_state(self, batch_size, dtype):
        with context.name_scope(type(self).__name__ + "ZeroState"):
            return self.cell.zero_state(batch_size, dtype)

    def build(self, inputs_shape):
        self.built = True

    def __call__(self, inputs, state, scope=None):
        return self._call_wrapped_cell(inputs, state, self.cell.__call__, scope=scope)


@export("compat.v1.nn.rnn_cell.DropoutWrapper")
class DropoutWrapper(_cell_wrappers.DropoutWrapperBase, _Wrapper):
    """`cell` with dropout on its inputs, its new state and its outputs (in that order), each
    kept with its probability (a constant 1.0 adds none). With a `seed`, each dropped part
    draws with its own seed derived from it (its kind and its place in the structure), as
    TF's; an LSTM's memory ``c`` is not dropped unless `dropout_state_filter_visitor` says
    so. With `variational_recurrent`, one mask per part is drawn when the wrapper is made
    and used at every step (for every example).

    >>> cell = tf.compat.v1.nn.rnn_cell.DropoutWrapper(
    ...     tf.compat.v1.nn.rnn_cell.BasicRNNCell(2), output_keep_prob=0.5, seed=1)
    >>> out, _ = cell(tf.ones([1, 3]), tf.zeros([1, 2]))
    >>> out.shape
    TensorShape([1, 2])
    """

    @staticmethod
    def _filter_error(visitor):
        return f"dropout_state_filter_visitor must be callable. Received: {visitor}"

    @staticmethod
    def _keep_prob_error(name, value):
        return f"Parameter {name} must be between 0 and 1. Received {value}"

    @property
    def wrapped_cell(self):
        return self.cell


@export("compat.v1.nn.rnn_cell.ResidualWrapper")
class ResidualWrapper(_cell_wrappers.ResidualWrapperBase, _Wrapper):
    """`cell` whose output is its input added to its own output (or `residual_fn(inputs,
    outputs)`).

    >>> cell = tf.compat.v1.nn.rnn_cell.ResidualWrapper(
    ...     tf.compat.v1.nn.rnn_cell.BasicRNNCell(2))
    >>> out, _ = cell(tf.ones([1, 2]), tf.zeros([1, 2]))
    >>> out.shape
    TensorShape([1, 2])
    """


@export("compat.v1.nn.rnn_cell.DeviceWrapper")
class DeviceWrapper(_cell_wrappers.DeviceWrapperBase, _Wrapper):
    """`cell` run (and its zero state made) on `device`."""


# -- running a cell over a sequence ---------------------------------------------------

def _initial(cell, batch, initial_state, dtype):
    if initial_state is not None:
        return initial_state
    if dtype is None:
        raise ValueError("If there is no initial_state, you must give a dtype.")
    return cell.zero_state(batch, dtype)


def _masked(step, lengths, output, new_state, state):
    """Past a sequence's length: a zero output and the state it ended with."""
    if lengths is None:
        return output, new_state
    alive = array_ops.expand_dims(math_ops.less(step, lengths), 1)
    output = nest.map_structure(lambda out: array_ops.where(alive, out,
                                                            array_ops.zeros_like(out)), output)
    new_state = nest.map_structure(lambda new, old: array_ops.where(alive, new, old),
                                   new_state, state)
    return output, new_state


def _unrolled(cell, steps, state, lengths):
    outputs = []
    for t, x in enumerate(steps):
        output, new_state = cell(x, state)
        output, state = _masked(t, lengths, output, new_state, state)
        outputs.append(output)
    return outputs, state


@export("compat.v1.nn.static_rnn")
def static_rnn(cell, inputs, initial_state=None, dtype=None, sequence_length=None,
               scope=None):
    """`cell` over the list `inputs` (one ``[batch, depth]`` tensor per step), in variable
    scope `scope` (``rnn``): the list of outputs and the final state."""
    if not nest.is_nested(inputs):
        raise TypeError("inputs must be a sequence")
    if not inputs:
        raise ValueError("inputs must not be empty")
    with vs.variable_scope(scope or "rnn"):
        first = convert_to_tensor(inputs[0])
        batch = first.shape[0] if first.shape[0] is not None else array_ops.shape(first)[0]
        state = _initial(cell, batch, initial_state, dtype)
        lengths = None if sequence_length is None else cast_ops.cast(
            convert_to_tensor(sequence_length), _d.int32)
        return _unrolled(cell, list(inputs), state, lengths)


@export("compat.v1.nn.dynamic_rnn")
def dynamic_rnn(cell, inputs, sequence_length=None, initial_state=None, dtype=None,
                parallel_iterations=None, swap_memory=False, time_major=False, scope=None):
    """`cell` over the time axis of `inputs` (``[batch, time, depth]``, or
    ``[time, batch, depth]`` with `time_major`), in variable scope `scope` (``rnn``):
    the outputs (in the same layout) and the final state.

    In a graph the steps run in a while loop, as TF's do even when their number is known,
    so that a random op of the cell (a seeded `DropoutWrapper`'s) draws anew at each step;
    with `sequence_length` the loop stops after the longest sequence."""
    del parallel_iterations, swap_memory
    inputs = convert_to_tensor(inputs)
    axis = 0 if time_major else 1
    if inputs.shape.rank is None:
        raise ValueError(f"dynamic_rnn needs inputs of known rank, got shape {inputs.shape}")
    steps = inputs.shape[axis]
    with vs.variable_scope(scope or "rnn"):
        batch_axis = 1 - axis
        batch = inputs.shape[batch_axis]
        if batch is None:
            batch = array_ops.shape(inputs)[batch_axis]
        state = _initial(cell, batch, initial_state, dtype)
        lengths = None if sequence_length is None else cast_ops.cast(
            convert_to_tensor(sequence_length), _d.int32)
        if steps is not None and context.executing_eagerly():
            outputs, state = _unrolled(cell, array_ops.unstack(inputs, axis=axis), state,
                                       lengths)
            # (a cell's output may be a structure of tensors: each stacked over the steps)
            return nest.map_structure(lambda *o: array_ops.stack(o, axis=axis),
                                      *outputs), state
        if axis:
            inputs = array_ops.transpose(inputs, [1, 0] + list(range(2, inputs.shape.rank)))
        outputs, state = _looped(cell, inputs, state, lengths)

        def laid_out(out):
            out.set_shape(TensorShape([steps]).concatenate(out.shape[1:]))
            return array_ops.transpose(out, [1, 0] + list(range(2, out.shape.rank))) \
                if axis else out
        return nest.map_structure(laid_out, outputs), state


def _reverse(value, lengths, seq_axis, batch_axis):
    """`value` reversed along its time axis: each sequence's first `lengths` steps only,
    with lengths."""
    if lengths is None:
        return array_ops.reverse(value, axis=[seq_axis])
    return composite_ops.reverse_sequence(value, lengths, seq_axis=seq_axis,
                                          batch_axis=batch_axis)


@export("compat.v1.nn.bidirectional_dynamic_rnn")
def bidirectional_dynamic_rnn(cell_fw, cell_bw, inputs, sequence_length=None,
                              initial_state_fw=None, initial_state_bw=None, dtype=None,
                              parallel_iterations=None, swap_memory=False, time_major=False,
                              scope=None):
    """`dynamic_rnn` of `cell_fw` over `inputs` and of `cell_bw` over them reversed (each
    sequence within its `sequence_length`), in variable scopes ``bidirectional_rnn/fw`` and
    ``.../bw``: ``((output_fw, output_bw), (state_fw, state_bw))``, the backward outputs
    reversed back to the inputs' order.

    >>> rnn = tf.compat.v1.nn.rnn_cell
    >>> (fw, bw), _ = tf.compat.v1.nn.bidirectional_dynamic_rnn(
    ...     rnn.GRUCell(2), rnn.GRUCell(3), tf.ones([1, 4, 5]), dtype=tf.float32)
    >>> fw.shape, bw.shape
    (TensorShape([1, 4, 2]), TensorShape([1, 4, 3]))
    """
    _assert_like_rnncell("cell_fw", cell_fw)
    _assert_like_rnncell("cell_bw", cell_bw)
    time_axis, batch_axis = (0, 1) if time_major else (1, 0)
    with vs.variable_scope(scope or "bidirectional_rnn"):
        with vs.variable_scope("fw") as fw_scope:
            output_fw, state_fw = dynamic_rnn(
                cell_fw, inputs, sequence_length=sequence_length,
                initial_state=initial_state_fw, dtype=dtype,
                parallel_iterations=parallel_iterations, swap_memory=swap_memory,
                time_major=time_major, scope=fw_scope)
        with vs.variable_scope("bw") as bw_scope:
            reversed_inputs = nest.map_structure(
                lambda x: _reverse(x, sequence_length, time_axis, batch_axis), inputs)
            reversed_outputs, state_bw = dynamic_rnn(
                cell_bw, reversed_inputs, sequence_length=sequence_length,
                initial_state=initial_state_bw, dtype=dtype,
                parallel_iterations=parallel_iterations, swap_memory=swap_memory,
                time_major=time_major, scope=bw_scope)
    output_bw = _reverse(reversed_outputs, sequence_length, time_axis, batch_axis)
    return (output_fw, output_bw), (state_fw, state_bw)


def _reverse_steps(steps, lengths):
    """The list of per-step (batch-major) values reversed in time: each sequence's first
    `lengths` steps only, with lengths (the rest stay where they are)."""
    if lengths is None:
        return list(reversed(steps))
    flat = [nest.flatten(step) for step in steps]
    lengths = cast_ops.cast(convert_to_tensor(lengths), _d.int64)
    parts = []
    for component in zip(*flat):
        stacked = array_ops.stack(list(component))
        reversed_ = composite_ops.reverse_sequence(stacked, lengths, seq_axis=0, batch_axis=1)
        parts.append(array_ops.unstack(reversed_))
    return [nest.pack_sequence_as(step, list(values))
            for step, values in zip(steps, zip(*parts))]


@export("compat.v1.nn.static_bidirectional_rnn")
def static_bidirectional_rnn(cell_fw, cell_bw, inputs, initial_state_fw=None,
                             initial_state_bw=None, dtype=None, sequence_length=None,
                             scope=None):
    """`static_rnn` of `cell_fw` over the list `inputs` and of `cell_bw` over it reversed
    (within `sequence_length`), in variable scopes ``bidirectional_rnn/fw`` and ``.../bw``:
    ``(outputs, state_fw, state_bw)``, each output the forward and backward ones of its
    step concatenated.

    >>> rnn = tf.compat.v1.nn.rnn_cell
    >>> outputs, _, _ = tf.compat.v1.nn.static_bidirectional_rnn(
    ...     rnn.BasicRNNCell(2), rnn.BasicRNNCell(3), [tf.ones([1, 4])] * 2,
    ...     dtype=tf.float32)
    >>> len(outputs), outputs[0].shape
    (2, TensorShape([1, 5]))
    """
    _assert_like_rnncell("cell_fw", cell_fw)
    _assert_like_rnncell("cell_bw", cell_bw)
    if not nest.is_nested(inputs):
        raise TypeError("inputs must be a sequence")
    if not inputs:
        raise ValueError("inputs must not be empty")
    with vs.variable_scope(scope or "bidirectional_rnn"):
        with vs.variable_scope("fw") as fw_scope:
            output_fw, state_fw = static_rnn(cell_fw, inputs, initial_state_fw, dtype,
                                             sequence_length, scope=fw_scope)
        with vs.variable_scope("bw") as bw_scope:
            reversed_outputs, state_bw = static_rnn(
                cell_bw, _reverse_steps(list(inputs), sequence_length), initial_state_bw,
                dtype, sequence_length, scope=bw_scope)
    output_bw = _reverse_steps(reversed_outputs, sequence_length)
    flat = tuple(array_ops.concat([fw, bw], 1) for fw, bw in
                 zip(nest.flatten(output_fw), nest.flatten(output_bw)))
    return nest.pack_sequence_as(output_fw, flat), state_fw, state_bw


def _looped(cell, inputs, state, lengths):
    """`cell` over the steps of the time-major `inputs` in a while loop, which stops after
    the longest of `lengths` (one step at least); the outputs of the steps not run are
    zeros."""
    from eagerflow._src.graph import control_flow, tensor_array  # noqa: PLC0415
    count = array_ops.shape(inputs)[0]
    bound = count if lengths is None else math_ops.minimum(
        count, math_ops.maximum(1, reduction_ops.reduce_max(lengths)))
    # (the first step's call outside the loop makes the cell's variables; its ops stay unrun)
    output, _ = cell(inputs[0], state)
    steps = tensor_array.TensorArray(inputs.dtype, size=count).unstack(inputs)
    outputs = [tensor_array.TensorArray(out.dtype, size=count) for out in nest.flatten(output)]

    def body(t, state, outputs):
        new_output, new_state = cell(steps.read(t), state)
        new_output, new_state = _masked(t, lengths, new_output, new_state, state)
        return t + 1, new_state, [ta.write(t, out) for ta, out in
                                  zip(outputs, nest.flatten(new_output))]
    _, state, outputs = control_flow.while_loop(lambda t, *_: t < bound, body,
                                                (0, state, outputs))
    return nest.pack_sequence_as(output, [ta.stack() for ta in outputs]), state


@export("compat.v1.nn.raw_rnn")
def raw_rnn(cell, loop_fn, parallel_iterations=None, swap_memory=False, scope=None):
    """`cell` run step by step as `loop_fn` directs, in variable scope `scope` (``rnn``).

    ``loop_fn(time, cell_output, cell_state, loop_state)`` returns ``(finished, next_input,
    next_cell_state, emit_output, next_loop_state)``: called first at time 0 with None for
    the rest (its state the initial state, its `emit_output` the structure of what is
    emitted, or None for the cell's output), then after each step. The steps go on until
    every batch entry is finished; a finished entry emits zeros and keeps its state.

    Returns ``(emit_ta, final_state, final_loop_state)``, `emit_ta` a TensorArray (or a
    structure of them) of the emitted values of each step.

    >>> cell = tf.compat.v1.nn.rnn_cell.BasicRNNCell(2)
    >>> steps = tf.ones([3, 1, 4])
    >>> def loop_fn(time, output, state, loop_state):
    ...     state = cell.zero_state(1, tf.float32) if output is None else state
    ...     return time >= [3], steps[tf.minimum(time, 2)], state, output, None
    >>> emit_ta, state, _ = tf.compat.v1.nn.raw_rnn(cell, loop_fn)
    >>> emit_ta.stack().shape
    TensorShape([3, 1, 2])
    """
    from eagerflow._src.graph import control_flow, tensor_array  # noqa: PLC0415
    del parallel_iterations, swap_memory
    _assert_like_rnncell("cell", cell)
    if not callable(loop_fn):
        raise TypeError("loop_fn must be a callable")
    with vs.variable_scope(scope or "rnn"):
        time = convert_to_tensor(0, _d.int32)
        finished, next_input, state, emit_structure, loop_state = loop_fn(time, None, None,
                                                                          None)
        finished = convert_to_tensor(finished)
        # (a first call outside the loop makes the cell's variables and gives its output's
        # structure; in a graph its ops stay unrun)
        first_output, _ = cell(next_input, state)
        if emit_structure is None:  # (what a finished entry emits: zeros)
            zero_emit = nest.map_structure(array_ops.zeros_like, first_output)
        else:  # (the emitted values of one entry: zeros of the batch's)
            first_state = nest.flatten(state)[0]
            batch = first_state.shape[0]
            batch = array_ops.shape(first_state)[:1] if batch is None else [batch]

            def zeros(e):
                e = convert_to_tensor(e)
                size = e.shape.as_list() if e.shape.is_fully_defined() \
                    else array_ops.shape(e)
                return array_ops.zeros(array_ops.concat([batch, size], 0)
                                       if not isinstance(batch, list) or
                                       not isinstance(size, list) else batch + size, e.dtype)
            zero_emit = nest.map_structure(zeros, emit_structure)
        emit_ta = nest.map_structure(
            lambda z: tensor_array.TensorArray(z.dtype, size=0, dynamic_size=True,
                                               element_shape=z.shape), zero_emit)
        has_loop_state = loop_state is not None

        def copy_some_through(done, current, candidate):
            # (a finished entry keeps the current value; scalars take the new one)
            return nest.map_structure(
                lambda cur, cand: cand if cur.shape.rank == 0 else array_ops.where(
                    array_ops.reshape(done, [-1] + [1] * (cur.shape.rank - 1)), cur, cand),
                current, candidate)

        def body(time, done, current_input, emit_ta, state, loop_state):
            output, cell_state = cell(current_input, state)
            next_time = time + 1
            next_done, next_input, next_state, emit, next_loop_state = loop_fn(
                next_time, output, cell_state, loop_state if has_loop_state else None)
            if has_loop_state and next_loop_state is not None:
                loop_state = next_loop_state
            emit = copy_some_through(done, zero_emit, output if emit is None else emit)
            next_state = copy_some_through(done, state, next_state)
            emit_ta = nest.map_structure(lambda ta, e: ta.write(time, e), emit_ta, emit)
            return (next_time, math_ops.logical_or(done, next_done), next_input, emit_ta,
                    next_state, loop_state)

        _, _, _, emit_ta, state, loop_state = control_flow.while_loop(
            lambda time, done, *_: math_ops.logical_not(reduction_ops.reduce_all(done)), body,
            (time, finished, next_input, emit_ta, state,
             loop_state if has_loop_state else convert_to_tensor(0, _d.int32)))
        return emit_ta, state, loop_state if has_loop_state else None


@export("compat.v1.nn.static_state_saving_rnn")
def static_state_saving_rnn(cell, inputs, state_saver, state_name, sequence_length=None,
                            scope=None):
    """`static_rnn` of `cell` over the list `inputs`, starting from the state that
    ``state_saver.state(name)`` gives and handing its final state to
    ``state_saver.save_state(name, value)``; `state_name` a name, or a structure of names
    like ``cell.state_size``. The last output and the final state are taken once the state
    is saved.

    >>> class Saver:
    ...     def state(self, name):
    ...         return tf.zeros([1, 2])
    ...     def save_state(self, name, value):
    ...         return tf.no_op()
    >>> outputs, state = tf.compat.v1.nn.static_state_saving_rnn(
    ...     tf.compat.v1.nn.rnn_cell.GRUCell(2), [tf.ones([1, 3])] * 2, Saver(), "s")
    >>> len(outputs), state.shape
    (2, TensorShape([1, 2]))
    """
    from eagerflow._src.compat.graph_mode import control_dependencies  # noqa: PLC0415
    state_size = cell.state_size
    if nest.is_nested(state_size) != nest.is_nested(state_name):
        raise ValueError(f"Argument `state_name` should be the same type as "
                         f"`cell.state_size`. Received: state_name={state_name}, "
                         f"cell.state_size={state_size}.")
    names = nest.flatten(state_name)
    if nest.is_nested(state_size):
        sizes = nest.flatten(state_size)
        if len(names) != len(sizes):
            raise ValueError(f"Number of elements in argument `state_name` and "
                             f"`cell.state_size` are mismatched. Received "
                             f"state_name={state_name} with {len(names)} elements and "
                             f"cell.state_size={state_size} with {len(sizes)} elements.")
    initial_state = nest.pack_sequence_as(state_size, [state_saver.state(n) for n in names])
    outputs, state = static_rnn(cell, inputs, initial_state=initial_state,
                                sequence_length=sequence_length, scope=scope)
    saved = [state_saver.save_state(n, s) for n, s in zip(names, nest.flatten(state))]
    with control_dependencies(saved):  # (what is returned comes after the saving)
        outputs[-1] = nest.map_structure(cast_ops.identity, outputs[-1])
        state = nest.map_structure(cast_ops.identity, state)
    return outputs, state
