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
from eagerflow._src.core import dtypes as _d
from eagerflow._src.core import nest
from eagerflow._src.core.convert import convert_to_tensor
from eagerflow._src.keras import initializers as _initializers
from eagerflow._src.keras.engine import base_layer
from eagerflow._src.ops import array_ops, cast_ops, linalg_ops, math_ops, nn_ops, reduction_ops


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


@export("compat.v1.nn.rnn_cell.DropoutWrapper")
class DropoutWrapper(RNNCell):
    """`cell` with dropout on its inputs, outputs and state (each kept with its
    probability; 1 keeps all)."""

    def __init__(self, cell, input_keep_prob=1.0, output_keep_prob=1.0, state_keep_prob=1.0,
                 variational_recurrent=False, input_size=None, dtype=None, seed=None,
                 dropout_state_filter_visitor=None, **kwargs):
        super().__init__(dtype=dtype, **kwargs)
        self._cell, self._seed = cell, seed
        self._keep = (input_keep_prob, output_keep_prob, state_keep_prob)

    state_size = property(lambda self: self._cell.state_size)
    output_size = property(lambda self: self._cell.output_size)

    def zero_state(self, batch_size, dtype):
        return self._cell.zero_state(batch_size, dtype)

    def build(self, inputs_shape):
        self.built = True

    def _drop(self, value, keep):
        if isinstance(keep, (int, float)) and keep == 1:
            return value
        return nn_ops.dropout(value, 1 - keep, seed=self._seed)

    def __call__(self, inputs, state, scope=None):
        # (the wrapped cell keeps its own scope, as in TF: no scope of the wrapper's)
        output, new_state = self._cell(self._drop(inputs, self._keep[0]), state, scope=scope)
        output = self._drop(output, self._keep[1])
        new_state = nest.map_structure(lambda s: self._drop(s, self._keep[2]), new_state)
        return output, new_state


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
    output = array_ops.where(alive, output, array_ops.zeros_like(output))
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
    the outputs (in the same layout) and the final state."""
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
        if steps is not None:
            outputs, state = _unrolled(cell, array_ops.unstack(inputs, axis=axis), state,
                                       lengths)
            return array_ops.stack(outputs, axis=axis), state
        if axis:
            inputs = array_ops.transpose(inputs, [1, 0] + list(range(2, inputs.shape.rank)))
        outputs, state = _looped(cell, inputs, state, lengths)
        if axis:
            outputs = array_ops.transpose(outputs, [1, 0] + list(range(2, outputs.shape.rank)))
        return outputs, state


def _looped(cell, inputs, state, lengths):
    """`cell` over the steps of the time-major `inputs` (their number known when the graph
    runs) in a while loop."""
    from eagerflow._src.graph import control_flow, tensor_array  # noqa: PLC0415
    count = array_ops.shape(inputs)[0]
    # (the first step's call outside the loop makes the cell's variables; its ops stay unrun)
    output, _ = cell(inputs[0], state)
    steps = tensor_array.TensorArray(inputs.dtype, size=count).unstack(inputs)
    outputs = tensor_array.TensorArray(output.dtype, size=count)

    def body(t, state, outputs):
        output, new_state = cell(steps.read(t), state)
        output, new_state = _masked(t, lengths, output, new_state, state)
        return t + 1, new_state, outputs.write(t, output)
    _, state, outputs = control_flow.while_loop(lambda t, *_: t < count, body,
                                                (0, state, outputs))
    return outputs.stack(), state
