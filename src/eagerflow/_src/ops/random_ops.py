"""Random numbers: seeded ops, stateless ops and `Generator`, with TensorFlow's seeding rules
and TensorFlow's values (see `philox`: the same Philox streams, drawn the same way).

Seeding (`set_seed` plus each op's `seed`), as TensorFlow documents it:

* neither seed set: every call draws from fresh entropy;
* global seed only: ops take op seeds from a sequence that `set_seed` restarts
  (eagerly: Python's ``random.Random(global_seed)``; in a graph: 0, 1, ... in the
  order the graph makes its random ops), so a re-run repeats its random values;
* op seed only: the global seed defaults to a fixed value;
* a (global, op) seed pair keys the Philox stream ``key = seed, counter = seed2 * 2**64``.
  The kernel of an op kind (and dtype) with that pair draws from it in turn: each call
  reserves its part of the stream (mostly 256 blocks per value), so a pair used again
  gives new values; `set_seed` restarts every stream.

A stateful op's state is in its attrs: ``seed``, ``seed2`` (the pair) and ``stream`` (the
counter offset of this call), so an eager draw depends only on its attrs. In a graph
(a traced `function`) each random op keeps its own state, as TensorFlow's kernels do:
every run draws the op's next values. A `Generator` holds a key and a counter itself.

>>> tf.random.set_seed(42)
>>> tf.random.uniform([3]).numpy()
array([0.6645621 , 0.44100678, 0.3528825 ], dtype=float32)
"""
import contextlib
import contextvars
import enum
import math
import os
import random as _py_random
import threading
import weakref

import numpy as np

from eagerflow._src.backend import special
from eagerflow._src.backend.api_export import export
from eagerflow._src.core import config
from eagerflow._src.core import context, distribution_context
from eagerflow._src.core import dtypes as _d
from eagerflow._src.core import errors
from eagerflow._src.core.errors import shape_text
from eagerflow._src.core.convert import (
    convert_to_tensor, get_static_value, is_tensor_like, to_array)
from eagerflow._src.core.dispatch import dispatch
from eagerflow._src.core.node_forms import AttrInput, NodeForm, tf_nodes
from eagerflow._src.core.node_forms import tf_args
from eagerflow._src.core.node_forms import tf_defaults
from eagerflow._src.core.registry import (
    FLOAT, REAL_NUMBER_TYPES, attr_dtype_error, fixed_input_error, kernel_type_name, register,
    register_gradient)
from eagerflow._src.core.tensor import Tensor
from eagerflow._src.core.tensor_shape import TensorShape, unknown_shape
from eagerflow._src.core.variables import Variable
from eagerflow._src.core.registry import PER_ELEMENT, batching_rules, no_gradient_entry, \
    runs_rules
from eagerflow._src.ops import array_ops, late, math_ops, philox, shape_rules
from eagerflow._src.ops.array_ops import check_index_dtype, run_time_tensor
from eagerflow._src.ops.reduction_ops import clip_by_value, reduce_prod, unbroadcast
from eagerflow._src.ops.wrappers import as_tensor, binary_operands

DEFAULT_GRAPH_SEED = 87654321  # the global seed of ops given only an op seed
_MAXINT32 = 2**31 - 1
_U64 = 2**64 - 1
_INTS = (_d.int32, _d.int64)
_FLOATS = (_d.float16, _d.bfloat16, _d.float32, _d.float64)  # as the dtype errors list them
_FULL_INTS = (_d.int32, _d.int64, _d.uint32, _d.uint64)
_HALF_FLOAT_DOUBLE = (_d.float16, _d.float32, _d.float64)
_INDEX_TYPES = (_d.int32, _d.uint32, _d.int64, _d.uint64)  # of index shuffles and their seeds
_NO_ATTRS = {}


# -- seeding --------------------------------------------------------------------------------

def _random_bits():
    """64 bits of the system's entropy: ``secrets.randbits(64)``, without importing secrets
    (and hashlib, hmac, base64 with it: ~6 ms of eagerflow's import)."""
    return int.from_bytes(os.urandom(8), "big")


class _SeedState:
    """The program's seeding state: global seed, op-seed sequence and the eager kernels'
    stream offsets."""

    def __init__(self):
        self.lock = threading.Lock()
        self.epoch = 0  # counts `set_seed` calls: graph ops restart their streams on a change
        self.graph_op_seeds = weakref.WeakKeyDictionary()  # graph -> next default op seed
        # graph -> the graph whose op-seed sequence its ops take (TF 1's control flow builds
        # branches and loop bodies into the graph itself); set by the v1 graph mode
        self.seed_graph = None
        self.reset(None)

    def reset(self, seed):
        self.global_seed = seed
        self.op_seeds = _py_random.Random(seed)
        self.offsets = {}  # eager kernel (op, seed pair, dtypes) -> its next counter offset
        self.epoch += 1

    def next_graph_op_seed(self, graph):
        with self.lock:
            n = self.graph_op_seeds.get(graph, 0)
            self.graph_op_seeds[graph] = n + 1
            return n

    def next_op_seed(self):
        with self.lock:
            return self.op_seeds.randint(0, _MAXINT32)

    def reserve(self, kernel, samples):
        """The offset of `kernel`'s next call, which takes `samples` blocks."""
        with self.lock:
            offset = self.offsets.get(kernel, 0)
            self.offsets[kernel] = offset + samples
            return offset


_STATE = _SeedState()


def global_seed():
    """The seed `set_seed` set (None if none)."""
    return _STATE.global_seed


@export("random.set_seed")
def set_seed(seed):
    """Sets the global random seed and restarts every op's random sequence.

    >>> tf.random.set_seed(3)
    >>> x = tf.random.normal([1])
    >>> tf.random.set_seed(3)
    >>> bool(tf.random.normal([1]).numpy()[0] == x.numpy()[0])
    True
    """
    # (a string is kept, as TF keeps it: its ops then fail taking it modulo 2**31 - 1)
    if seed is not None and not isinstance(seed, str):
        seed = int(seed)
    graph = context.get().graph
    if graph is not None:  # (building a graph: as TF's, the seed is that graph's alone)
        graph.seed = seed
    else:
        _STATE.reset(seed)


def get_seed(op_seed):
    """The (global, op) seed pair an op runs with; (None, None) when nondeterministic.

    Seeds are taken modulo 2**31 - 1, and the pair (0, 0), which kernels read as "no
    seed", becomes (0, 2**31 - 1).

    >>> tf.random.set_seed(None)
    >>> get_seed(5)
    (87654321, 5)
    """
    graph = context.get().graph
    if graph is not None and _STATE.seed_graph is not None:
        graph = _STATE.seed_graph(graph)
    return _seed_pair(op_seed, graph)


def _seed_pair(op_seed, graph):
    """`get_seed` in `graph` (anything with a ``seed``: the op seeds given none are its
    0, 1, ...), or eagerly when None."""
    global_seed = _STATE.global_seed if graph is None else graph.seed
    if global_seed is not None:
        if op_seed is None:
            if graph is not None:  # (a dataset function then warns that it took its seed)
                graph.seed_used = True
            op_seed = (_STATE.next_op_seed() if graph is None
                       else _STATE.next_graph_op_seed(graph))
        seeds = int(global_seed % _MAXINT32), int(op_seed % _MAXINT32)
    elif op_seed is not None:
        seeds = DEFAULT_GRAPH_SEED, int(op_seed % _MAXINT32)
    elif config._settings["op_determinism"]:  # (TF's: no unseeded draws then)
        raise RuntimeError("Random ops require a seed to be set when determinism is enabled. "
                           "Please set a seed before running the op, e.g. by calling "
                           "tf.random.set_seed(1).")
    else:
        return None, None
    return (0, _MAXINT32) if seeds == (0, 0) else seeds


class _OpState:
    """The state of one random op in a graph: each run takes the next part of its stream.

    `set_seed` restarts it, as it restarts TensorFlow's kernels; an unseeded
    op (seed pair 0, 0, as TF writes it) draws from fresh entropy at every run.
    """

    # Set on the ops of a dataset's functions (`StructuredFunction`): the op's identity,
    # the same in every trace of the function, under which a `draw_scope` keeps its state.
    _key = None

    def __init__(self):
        self._epoch, self._offset = _STATE.epoch, 0

    def take(self, seed, seed2, samples):
        """``(seed, seed2, offset)`` of this run, which takes `samples` blocks."""
        if not (seed or seed2):
            return _random_bits(), _random_bits(), 0
        if self._key is not None:
            scope = _scope.get()
            if scope is not None:  # (a dataset iterator's: its state for this op there)
                table, path = scope
                return _OpState._held(table, (path, self._key, seed, seed2))._next_part(
                    seed, seed2, samples)
        table = _session_states.get()
        if table is not None:  # (a v1 Session's run: the op's state in that session)
            return _OpState._held(table, self)._next_part(seed, seed2, samples)
        return self._next_part(seed, seed2, samples)

    @staticmethod
    def _held(table, key):
        """The state `table` keeps under `key`, made the first time (`setdefault`: a
        thread making it at once gets the same one)."""
        state = table.get(key)
        return state if state is not None else table.setdefault(key, _OpState())

    def _next_part(self, seed, seed2, samples):
        """This state's next `samples` blocks of the stream of `seed` and `seed2`."""
        with _STATE.lock:
            if self._epoch != _STATE.epoch:
                self._epoch, self._offset = _STATE.epoch, 0
            offset, self._offset = self._offset, self._offset + samples
        journal = getattr(_journal, "takes", None)
        if journal is not None:
            journal.append((self, self._epoch, offset, samples))
        return seed, seed2, offset

    def restart(self):
        """Starts the op's sequence again (a dataset's new iterator runs its functions anew,
        as TF instantiates them for each iterator)."""
        with _STATE.lock:
            self._epoch, self._offset = _STATE.epoch, 0

    def give_back(self, epoch, offset, samples):
        """Returns the blocks a run took from `offset` (see `Draws`), unless the stream
        moved on since (another run took its next part, or `set_seed` restarted it)."""
        with _STATE.lock:
            if self._epoch == epoch and self._offset == offset + samples:
                self._offset = offset


# The random-op states of a dataset iterator, in force while it makes an element: (a dict
# of states by (position in the pipeline, op key, seeds), the position), or None.  TF keeps
# a function's random state with the top-level iterator and the place of the function in
# its pipeline: two iterators, or the two inputs of a zip, draw apart; a repeat's epochs,
# or the datasets a flat_map makes, go on drawing from one sequence.
_scope = contextvars.ContextVar("draw_scope", default=None)


def draw_scope():
    """The dataset iterator's random-op scope in force (see `_scope`), or None."""
    return _scope.get()


def enter_draw_scope(scope):
    """Puts `scope` in force; returns the token `exit_draw_scope` takes."""
    return _scope.set(scope)


def exit_draw_scope(token):
    _scope.reset(token)


# The random-op states of the v1 Session running now ({op state: its state there}), or
# None. TF makes a session's kernels anew, so each session draws every op's sequence from
# its start; runs of one session go on along it.
_session_states = contextvars.ContextVar("session_states", default=None)


def enter_session_states(table):
    """Puts a session's table of op states in force; returns the token
    `exit_session_states` takes."""
    return _session_states.set(table)


def exit_session_states(token):
    _session_states.reset(token)


_journal = threading.local()  # .takes: the list `_OpState.take` notes its takes in, or None


class Draws:
    """Notes what graph ops' streams the runs on this thread take, so that runs whose
    values go unused can give their parts of the streams back (a map's function run on
    a chunk of elements that failed, to be run again element by element).

    >>> with Draws() as draws:
    ...     pass
    >>> draws.give_back()
    """

    def __enter__(self):
        self._saved = getattr(_journal, "takes", None)
        self.takes = _journal.takes = []
        return self

    def __exit__(self, *_):
        _journal.takes = self._saved
        if self._saved is not None:
            self._saved.extend(self.takes)

    def give_back(self):
        """Gives back, last first, each take no later take of the same stream followed."""
        for state, token, offset, samples in reversed(self.takes):
            state.give_back(token, offset, samples)
        self.takes = []


def _seed_attrs(op_seed, row_drawn=False):
    """Attrs seeding one call of a stateful op: the seed pair and its stream, which `_run`
    fixes for an eager call (None: the pair's kernel reserves it) and a graph's op state
    picks at each run.  `row_drawn`: the op draws for all rows at once inside a
    `vectorized_map` (see `RowDraws`), which then takes its seed."""
    if row_drawn:
        draws = _row_draws.get()
        if draws is not None and draws.mode is not None:
            return _RowSeed(draws, op_seed)
    seed, seed2 = get_seed(op_seed)
    if context.get().graph is not None:
        return {"seed": seed or 0, "seed2": seed2 or 0, "stream": _OpState()}
    if seed is None:
        return {"seed": _random_bits(), "seed2": _random_bits(), "stream": 0}
    return {"seed": seed, "seed2": seed2, "stream": None}


class _FunctionSeeds:
    """The seeding of a function traced now: the global seed, and op seeds 0, 1, ... of its
    own (as `Graph`'s)."""

    seed_used = False

    def __init__(self):
        self.seed = _STATE.global_seed


# The `RowDraws` of the `vectorized_map` whose function runs now (None: none, or a nested
# map's, which draws row by row)
_row_draws = contextvars.ContextVar("row_draws", default=None)


class _RowSeed:
    """The seed argument of a row-drawn op while a `RowDraws` records or replays."""

    def __init__(self, draws, op_seed):
        self.draws, self.op_seed = draws, op_seed


class RowDraws:
    """The random draws of a `vectorized_map`'s function, made once for all its rows.

    TensorFlow vectorizes the function: a uniform, normal, truncated normal,
    gamma or Poisson op in it runs once, with the number of rows put before its
    shape (a categorical op: that many times the samples), and each row takes its
    slice, so rows differ and the op's stream is read as by one op.
    Its seed is taken when the function is traced: in a graph, as any op built
    there; eagerly, as in a function traced anew (op seeds 0, 1, ... under the
    global seed, which leaves the global sequence where it was and draws alike
    at every call).  Other random ops run row by row.

    `recording()` while the function is traced once (on symbolic rows); then
    `draw(count)` in the caller's context; then, as each row runs the trace's
    ops, `drawn(op, row)` gives a traced op's values for row `row` (or, where
    the function is called for each row, `replaying(row)` around the call has its
    ops give them).  `vectorized`
    is False when an op's shape or parameters depend on the row (or only run time
    knows them), or when it (or a `Generator`'s draw) is in a loop or branch of the
    function: eagerly, the rows of such a function run in lock step, each op drawing
    once for the rows that reach it together (`lock_step`, `drawn_together`); in a
    graph, one op does so when it runs (its kernels lasting from run to run; a map's
    in the function of another runs in that one's lock step, for all the pairs of
    rows; a variable the function only reads is given to it as its value read, and a
    `Generator`'s draws run as eagerly), else (a `Generator` in a nested map's function,
    or a variable the function writes) they draw row by row.
    """

    def __init__(self):
        self.mode = None
        # (ops, inputs (value and dtype), attrs, op seed, name) in the order made
        self.records = []
        self.vectorized = True
        self._draws = []
        self._skips = []  # (Generator, shape) of each draw of a Generator, in order
        self._traced = {}  # id of the op each record made in the trace -> its position
        self._pairs = []  # the seed pair each record's op took in the trace (in its graph)
        # the map whose function this one's runs in: it draws this one's ops for its rows
        # (a nested map's ops are vectorized along both)
        self._outer = _row_draws.get()
        self._inner = []  # the nested maps that run in lock step with this one's rows

    @property
    def nested(self):
        """Whether this map is inside the function of another."""
        return self._outer is not None

    @property
    def skips(self):
        """Whether the function draws from a `Generator` (see `skip`)."""
        return bool(self._skips)

    @property
    def in_nest(self):
        """Whether this map is inside the function of another, or one is inside its own."""
        return self._outer is not None or bool(self._inner)

    @property
    def generator_states(self):
        """The ids of the state variables of the `Generator`s the function draws from."""
        return {id(generator._state_var) for generator, _ in self._skips}

    def row_by_row(self):
        """Whether this map is inside the function of one whose random ops draw row by row
        (then so do its own)."""
        return self._outer is not None and self._outer.mode is None

    def _entered(self, mode):
        self.mode, self._position = mode, 0
        return _row_draws.set(self)

    def recording(self):
        return _Scope(self, "record")

    def off(self):
        """A scope where the random ops (of a nested map) draw row by row."""
        return _Scope(self, None)

    def replaying(self, row):
        self.row = row
        return _Scope(self, "replay")

    def call(self, ops, inputs, attrs, op_seed, name):
        """The values of a row-drawn op (its `_run`)."""
        k, self._position = self._position, self._position + 1
        if self.mode == "record":
            values = [get_static_value(t) for t in inputs]
            # (an op in a loop or branch of the function runs a number of times that the
            # rows decide)
            if any(isinstance(v, Tensor) for v in attrs.values()) \
                    or any(v is None for v in values) \
                    or getattr(context.get().graph, "control_flow_body", False):
                self.vectorized = False
            self.records.append((ops, [(v, t.dtype) for v, t in zip(values, inputs)], attrs,
                                 op_seed, name))
            seed = _seed_attrs(op_seed)
            traced = _run(ops, inputs, attrs, seed, name)
            self._traced[id(traced.op)] = k
            self._pairs.append((seed["seed"], seed["seed2"]))
            return traced
        if k < len(self._draws):
            return array_ops.gather(self._draws[k], self.row)
        return _run(ops, inputs, attrs, _seed_attrs(op_seed), name)

    def drawn(self, op, row):
        """The values of row `row` of the op that `recording` traced as `op` (None: `op`
        is none of them)."""
        k = self._traced.get(id(op))
        return None if k is None or k >= len(self._draws) else \
            array_ops.gather(self._draws[k], row)

    def skip(self, generator, shape):
        """Notes a draw of `generator` in the function's trace.  TF's trace runs it (a
        stateful op of a function runs, used or not) besides the rows' draws, which a
        `Generator` makes row by row: the state moves past it before the rows draw."""
        shape = get_static_value(shape) if isinstance(shape, Tensor) else shape
        if getattr(context.get().graph, "control_flow_body", False):
            self.vectorized = False  # (TF's trace draws for the first row's path only)
        if shape is not None:
            self._skips.append((generator, tuple(int(d) for d in np.reshape(shape, [-1]))))

    def draw(self, count):
        """Draws every recorded op for `count` rows (an int, or a scalar tensor), after
        moving the `Generator`s on past their draws in the trace."""
        graph = context.get().graph
        for generator, shape in self._skips:
            if graph is None:
                generator.skip(math.prod(shape))
            else:
                generator._next(shape)
        seeds = _FunctionSeeds() if graph is None and self._outer is None else None
        for ops, inputs, attrs, op_seed, name in self.records:
            if self._outer is not None:
                seed = None  # (the outer map's, when it draws)
            elif seeds is None:
                seed = _seed_attrs(op_seed)
            else:  # (a new kernel: its stream from the start)
                seed = self._new_kernel(op_seed, seeds, 0)
            inputs = [as_tensor(value, dtype) for value, dtype in inputs]
            self._draws.append(self._all_rows(ops, inputs, attrs, op_seed, name, seed, count))

    @staticmethod
    def _new_kernel(op_seed, seeds, stream):
        """The seed attrs of a kernel made now in a function traced with `seeds`."""
        pair = _seed_pair(op_seed, seeds)
        if pair[0] is None:
            return {"seed": _random_bits(), "seed2": _random_bits(), "stream": stream}
        return {"seed": pair[0], "seed2": pair[1], "stream": stream}

    def _all_rows(self, ops, inputs, attrs, op_seed, name, seed, count):
        """One call of a recorded op drawing for `count` rows (an int, or a scalar tensor):
        the rows' values first (a categorical op: its samples), each row's after the last's."""
        rows = array_ops.reshape(count, [1]) if isinstance(count, Tensor) else [count]
        if ops is _MULTINOMIAL:  # (each row's samples follow the last row's)
            samples = attrs["num_samples"]
            all_rows = {**attrs, "num_samples": count * samples}
        else:  # (the rows' values before the values of each parameter)
            all_rows = {**attrs, "shape": (
                array_ops.concat([rows, as_tensor(list(attrs["shape"]), _d.int32)], 0)
                if isinstance(count, Tensor) else (count, *attrs["shape"]))}
        if seed is None:  # (a nested map's, in the outer map's trace)
            values = self._outer.call(ops, inputs, all_rows, op_seed, name)
        else:
            values = _run(ops, inputs, all_rows, seed, name)
        if ops is _MULTINOMIAL:
            values = array_ops.transpose(array_ops.reshape(values, array_ops.concat(
                [[inputs[0].shape[0]], rows, [samples]], 0)), [1, 0, 2])
        return values

    def lock_step(self, lasting=False):
        """Makes the kernels `drawn_together` draws from, one per recorded op, seeded as
        its op in the trace (each branch or loop body taking op seeds of its own, as in
        a function), each going on along its stream from one call to the next (a loop's
        steps).  `lasting`: kernels of an op of a graph, which go on along their streams
        from one run of the graph to the next (restarted by `set_seed`, as a graph's
        random ops).  A nested map's lock step runs for all the outer map's rows at
        once, in the outer's (which makes its kernels anew with its own)."""
        if self._outer is not None and self not in self._outer._inner:
            self._outer._inner.append(self)
            self._outer.vectorized = False
        for inner in self._inner:
            inner.lock_step(lasting)
        self._kernels = []
        for pair in self._pairs:  # (0, 0): unseeded
            seed, seed2 = pair if any(pair) else (_random_bits(), _random_bits())
            stream = _Kernel(seed, seed2, _OpState() if lasting and any(pair) else None)
            self._kernels.append({"seed": seed, "seed2": seed2, "stream": stream})

    def drawn_together(self, op, args, count):
        """The values, one per row, of the op that `recording` traced as `op` for `count`
        rows reaching it at once (all of them, those a branch takes, those a loop step
        runs), as TF's vectorized function draws them; None if `op` is none of the
        recorded ones.  `args` are its inputs, each shared by the rows or a list with one
        per row (`lock_step` made the kernels).

        A call for all rows as `draw` makes it, when the inputs are shared; with a
        row's own logits, one categorical op on them all; with any other input of a
        row's own, the op row by row (TF's loop for an op it does not vectorize)."""
        k = self._traced.get(id(op))
        if k is None:
            return None
        ops, inputs, attrs, op_seed, name = self.records[k]
        seed = self._kernels[k]
        run_time = [key for key, v in attrs.items() if isinstance(v, Tensor)]
        if run_time:  # (the op took that attr as its last input: its value now)
            *args, value = args
            if isinstance(value, list):
                return [_run(ops, self._row(args, i), {**attrs, run_time[0]: v}, seed, name)
                        for i, v in enumerate(value)]
            attrs = {**attrs, run_time[0]: tuple(int(d) for d in np.reshape(value, [-1]))
                     if run_time[0] == "shape" else int(value)}
        if not any(isinstance(a, list) for a in args):
            return array_ops.unstack(
                self._all_rows(ops, list(args), attrs, op_seed, name, seed, count), count)
        if ops is _MULTINOMIAL and len(args) == 1:
            logits = args[0]
            values = _run(ops, (array_ops.concat(logits, 0),), attrs, seed, name)
            return array_ops.split(values, [int(t.shape[0]) for t in logits], 0)
        return [_run(ops, self._row(args, i), attrs, seed, name) for i in range(count)]

    @staticmethod
    def _row(args, i):
        return [a[i] if isinstance(a, list) else a for a in args]


class _Kernel:
    """The stream of one kernel made for a `RowDraws` lock step: each call takes the next
    part (as a `Generator` gives its stream to `_eager_stream`)."""

    def __init__(self, seed, seed2, state=None):
        # `state`: an `_OpState` keeping the offset instead (a graph op's kernel)
        self.seed, self.seed2, self.offset, self.state = seed, seed2, 0, state

    def take(self, _seed, _seed2, samples):
        if self.state is not None:
            return self.state.take(self.seed, self.seed2, samples)
        offset, self.offset = self.offset, self.offset + samples
        return self.seed, self.seed2, offset


class _Scope:
    def __init__(self, draws, mode):
        self.draws, self.mode = draws, mode

    def __enter__(self):
        self.token = self.draws._entered(self.mode)

    def __exit__(self, *_):
        self.draws.mode = None
        _row_draws.reset(self.token)


def _seed_attrs_unseeded():
    """`_seed_attrs` of an op TF leaves unseeded whatever the global seed (pair 0, 0)."""
    if context.get().graph is not None:
        return {"seed": 0, "seed2": 0, "stream": _OpState()}
    return {"seed": _random_bits(), "seed2": _random_bits(), "stream": 0}


def _threads():
    """The size of the thread pool TensorFlow would split multinomial sampling over."""
    return config.intra_op_pool_size()


# -- draws: the values of each op from a Philox stream --------------------------------------

def _np_dtype(dtype):
    return np.dtype(dtype.as_numpy_dtype)


def _draw_uniform(xp, key, counter, shape, dtype):
    """Uniform values in [0, 1); half types use exactly representable values (never 1.0)."""
    return philox.uniform(xp, key, counter, shape, _np_dtype(dtype))


def _draw_normal(xp, key, counter, shape, dtype):
    return philox.normal(xp, key, counter, shape, _np_dtype(dtype))


def _draw_truncated_normal(xp, key, counter, shape, dtype):
    """Standard normal values within 2 standard deviations."""
    return philox.truncated_normal(xp, key, counter, shape, _np_dtype(dtype))


def _draw_uniform_int(xp, key, counter, minval, maxval, shape):
    for name, v in (("minval", minval), ("maxval", maxval)):
        if v.ndim:
            raise errors.InvalidArgumentError(
                None, None, f"{name} must be 0-D, got shape {shape_text(v.shape)}")
    lo, hi = int(minval), int(maxval)
    if lo >= hi:
        raise errors.InvalidArgumentError(None, None,
                                          f"Need minval < maxval, got {lo} >= {hi}")
    return philox.uniform_int(xp, key, counter, shape, lo, hi, minval.dtype)


def _draw_full_int(xp, key, counter, shape, dtype):
    return philox.full_int(xp, key, counter, shape, _np_dtype(dtype))


def _draw_multinomial(xp, key, counter, logits, num_samples, output_dtype):
    """Samples of the categorical distributions with log-probabilities `logits` (one per row)."""
    if logits.ndim != 2:
        raise errors.InvalidArgumentError(None, None, f"logits should be a matrix, got shape "
                                          f"{shape_text(logits.shape)}")
    classes = logits.shape[1]
    if classes <= 0:
        raise errors.InvalidArgumentError(
            None, None, f"num_classes should be positive, got {classes}")
    if num_samples < 0:
        raise errors.InvalidArgumentError(
            None, None, f"num_samples should be non-negative, got {num_samples}")
    samples = philox.multinomial(xp, key, counter, logits, num_samples, _threads())
    return samples.astype(output_dtype.as_numpy_dtype)


def _draw_shuffle(xp, key, counter, value):
    if value.ndim == 0 or value.shape[0] <= 1:
        return value
    return value[philox.permutation(xp, key, counter, value.shape[0])]


def _draw_poisson(xp, key, counter, rate, shape, dtype):
    return philox.poisson(xp, key, counter, shape, rate, _np_dtype(dtype))


def _draw_gamma(xp, key, counter, alpha, shape):
    return philox.gamma(xp, key, counter, shape, alpha)


def _samples_per_value(shape, param_shape, op_name=None):
    """The samples a stateless op of output `shape` draws per parameter value: the
    parameters' (broadcast) shape must end `shape`."""
    rank = len(param_shape)
    if rank > len(shape) or tuple(shape[len(shape) - rank:]) != tuple(param_shape):
        raise errors.InvalidArgumentError(None, op_name,
                                          "Shape passed in must end with broadcasted shape."
                                          + (f" [Op:{op_name}]" if op_name else ""))
    return math.prod(shape[:len(shape) - rank])


def _batch_shape(names, shapes, op_name=None):
    """The broadcast shape of parameters of `shapes` (TF's error names them if none)."""
    try:
        return np.broadcast_shapes(*shapes)
    except ValueError:
        raise errors.InvalidArgumentError(
            None, op_name, f"{names} must have compatible batch dimensions: "
            + " vs. ".join(map(shape_text, shapes))
            + (f" [Op:{op_name}]" if op_name else "")) from None


def _broadcast(xp, names, *params):
    """`params` broadcast together."""
    shape = _batch_shape(names, [p.shape for p in params])
    return [xp.broadcast_to(p, shape) for p in params]


def _draw_stateless_gamma(xp, key, counter, alpha, shape):
    """Gamma samples of `shape`, which ends with alpha's shape (an empty one: no checks)."""
    if not math.prod(shape):
        return xp.zeros(shape, alpha.dtype)
    samples = _samples_per_value(shape, alpha.shape, "StatelessRandomGammaV3")
    return philox.gamma(xp, key, counter, (samples,), alpha).reshape(shape)


def _draw_stateless_poisson(xp, key, counter, lam, shape, dtype):
    if not math.prod(shape):
        return xp.zeros(shape, _np_dtype(dtype))
    samples = _samples_per_value(shape, lam.shape)
    return philox.poisson(xp, key, counter, (samples,), lam, _np_dtype(dtype)).reshape(shape)


def _draw_binomial(xp, key, counter, counts, probs, shape, dtype):
    counts, probs = _broadcast(xp, "counts and probs", counts, probs)
    samples = _samples_per_value(shape, counts.shape)
    if not math.prod(shape):
        return xp.zeros(shape, _np_dtype(dtype))
    return philox.binomial(xp, key, counter, (samples,), counts, probs,
                           _np_dtype(dtype)).reshape(shape)


def _draw_truncated_with(xp, key, counter, means, stddevs, minvals, maxvals, shape):
    """Truncated normal samples of `shape`, which ends with the parameters' broadcast shape."""
    params = _broadcast(xp, "means, stddevs, minvals, maxvals", means, stddevs, minvals,
                        maxvals)
    samples = _samples_per_value(shape, params[0].shape)
    if samples:
        _, stddev, low, high = params
        if not ((stddev > 0) & (low < high) & (xp.isfinite(low) | xp.isfinite(high))).all():
            raise errors.InvalidArgumentError(None, None, "Invalid parameters")
    try:
        return philox.truncated_normal_with(xp, key, counter, (samples,), *params,
                                            _threads()).reshape(shape)
    except philox.SamplerError as e:
        raise errors.InternalError(None, None, str(e)) from None


# -- the blocks each call reserves of its kernel's stream ------------------------------------

def _per_value(shapes, attrs):
    return math.prod(attrs["shape"]) * philox.RESERVED_PER_VALUE


def _per_param_value(shapes, attrs):
    return math.prod(attrs["shape"]) * math.prod(shapes[0]) * philox.RESERVED_PER_VALUE


def _per_sample(shapes, attrs):
    """Two words per sample, rounded up to whole blocks per row."""
    rows = shapes[0][0] if shapes[0] else 0
    return rows * -(-attrs["num_samples"] // 4) * 4 * 2 * philox.RESERVED_PER_VALUE


def _per_binomial(shapes, attrs):
    """About 50 values per output of each parameter pair (TF's reservation), after the
    checks of the shapes (which TF makes before it reserves)."""
    op_name = "StatefulRandomBinomial"
    batch = _batch_shape("counts and probs", shapes[:2], op_name)
    samples = _samples_per_value(attrs["shape"], batch, op_name)
    return math.prod(batch) * 50 * (samples + 3) * philox.RESERVED_PER_VALUE


def _per_swap(shapes, attrs):
    """One word per swap: n - 1 of them for n elements, none for 0 or 1 element."""
    n = shapes[0][0] if shapes[0] else 0
    return -(-(n - 1) // 4) if n > 1 else 0


# -- registration: a stateful op (seed attrs) and its stateless twin (seed input) -----------

def _with_attr(arrays, attrs, name):
    """Arrays and attrs with attr `name` (a shape, or a number of samples) given as the last
    array moved into the attrs, as a tuple of ints or an int."""
    if name is None or name in attrs:
        return arrays, attrs
    *arrays, value = arrays
    value = value.tolist()
    value = tuple(int(d) for d in value) if isinstance(value, list) else int(value)
    return arrays, {**attrs, name: value}


def _stateful(draw, samples, run_time_attr):
    def kernel(xp, *arrays, seed, seed2, stream, **attrs):
        arrays, attrs = _with_attr(arrays, attrs, run_time_attr)
        if type(stream) is not int:  # an op of a graph: its state picks this run's stream
            seed, seed2, stream = stream.take(
                seed, seed2, samples([a.shape for a in arrays], attrs))
        counter = ((seed2 & _U64) << 64) + stream
        return draw(xp, seed & _U64, counter, *arrays, **attrs)
    kernel.__name__ = draw.__name__
    return kernel


def _stateful_runs(draw, samples, run_time_attr, at_once):
    """The `runs_rules` rule of a stateful op: its next `n` runs' values, drawn at once
    from their parts of the stream when `at_once` (the draw takes `philox.Runs`), else
    run by run."""
    kernel = _stateful(draw, samples, run_time_attr)

    def rule(op, arrays, n):
        attrs = dict(op.attrs)
        stream = attrs.pop("stream")
        if not at_once or type(stream) is int:
            return [np.stack([kernel(np, *arrays, stream=stream, **attrs) for _ in range(n)])]
        seed, seed2 = attrs.pop("seed"), attrs.pop("seed2")
        arrays, attrs = _with_attr(arrays, attrs, run_time_attr)
        each = samples([a.shape for a in arrays], attrs)
        seed, seed2, offset = stream.take(seed, seed2, each * n)
        runs = philox.Runs.stepped(seed, ((seed2 & _U64) << 64) + offset, each, n)
        return [draw(np, None, runs, *arrays, **attrs)]
    return rule


def _stateless_batched(draw, run_time_attr):
    """The batching rule of a stateless op whose seed alone has the batch axis: every
    element's values drawn at once from its seed's stream."""
    def rule(op, args):
        *params, (seed, seed_batched) = args
        if any(b for _, b in params) or not seed_batched or seed.ndim != 2 \
                or seed.shape[1] != 2:
            return None
        arrays, attrs = _with_attr([a for a, _ in params], dict(op.attrs), run_time_attr)
        return [draw(np, None, philox.Runs.of_seeds(seed), *arrays, **attrs)]
    return rule


def _seed_words(seed):
    """The two integers of a stateless seed array: its kernel's check of a seed whose shape
    only run time knew (in a graph)."""
    if np.shape(seed) != (2,):
        raise errors.InvalidArgumentError(
            None, None, f"seed must have shape [2], not {shape_text(np.shape(seed))}")
    return int(seed[0]), int(seed[1])


def _stateless(draw, run_time_attr):
    def kernel(xp, *arrays, **attrs):
        *arrays, seed = arrays  # the seed tensor is the last input
        arrays, attrs = _with_attr(arrays, attrs, run_time_attr)
        key, counter = philox.stateless_key_counter(*_seed_words(seed))
        return draw(xp, key, counter, *arrays, **attrs)
    kernel.__name__ = draw.__name__
    return kernel


def _attr_input(rule, name, at):
    """`rule` for an op that takes its attr `name` as input `at` (counted from the end: the
    stateless seed comes after it) when only run time knows it."""
    def attr_rule(*inputs, **attrs):
        if name not in attrs:
            inputs = list(inputs)
            known = shape_rules.known_elements(inputs.pop(at))
            if name == "shape":
                attrs[name] = known
            else:  # a scalar
                attrs[name] = known[0] if known else None
        return rule(*inputs, **attrs)
    return attr_rule


_SAMPLES = {}  # stateful op name -> blocks(input shapes, attrs) a call reserves


def _register(draw, rule, samples, stateful_name, stateless_name=None, run_time_attr="shape",
              not_differentiable="random", at_once=False, **kw):
    """Registers `draw` as a stateful op and, given a name, as its stateless twin (either
    name may be None: no such op).

    `samples`: the blocks a stateful call reserves of its stream; `run_time_attr`: an attr
    (``shape`` unless None) which may come as its last input instead (before the seed of
    the stateless op), so that the type constraint keeps its indices.  `at_once`: the
    draw takes `philox.Runs` for its counter (a chunk's runs drawn at once).
    """
    stateful_rule = stateless_rule = rule
    if run_time_attr:
        stateful_rule = _attr_input(rule, run_time_attr, -1)
        stateless_rule = _attr_input(rule, run_time_attr, -2)
    ops = [None, None]
    if stateful_name:
        _SAMPLES[stateful_name] = samples
        ops[0] = register(stateful_name, _stateful(draw, samples, run_time_attr), stateful_rule,
                          stateful=True, not_differentiable=not_differentiable, **kw)
        runs_rules[ops[0]] = _stateful_runs(draw, samples, run_time_attr, at_once)
    if stateless_name:
        ops[1] = register(stateless_name, _stateless(draw, run_time_attr), stateless_rule,
                          not_differentiable=not_differentiable, **kw)
        # (the stateful op runs per element by its state)
        batching_rules[ops[1]] = (_stateless_batched(draw, run_time_attr) if at_once
                                  else PER_ELEMENT)
    return tuple(ops)


def _shaped(*_, shape, dtype, **__):
    return TensorShape(shape), dtype


def _shaped_like_min(minval, *_, shape, **__):
    return TensorShape(shape), minval.dtype


def _multinomial_rule(logits, *_, num_samples, output_dtype, **__):
    if not context.executing_eagerly():  # (eagerly the kernel's error comes first)
        shape_rules.check_rank("Multinomial", [logits], 0, rank=2)
    rows = logits.shape[0] if logits.shape.rank else None
    return TensorShape([rows, num_samples]), output_dtype


def _extended(param, *_, shape, dtype=None, **__):
    """Shape `shape` + the parameter's shape (poisson rates, gamma alphas)."""
    out = unknown_shape() if param.shape.rank is None else \
        TensorShape(shape).concatenate(param.shape)
    return out, dtype or param.dtype


def _shaped_like_param(param, *_, shape, dtype=None, **__):
    """Shape `shape` (stateless gamma, Poisson, binomial, truncated normal samples)."""
    return TensorShape(shape), dtype or param.dtype


def _index_shuffle_rule(index, seed, max_index, **_):
    """A scalar for a scalar index and bound and one seed, else a vector (one per output)."""
    ranks = (index.shape.rank, seed.shape.rank, max_index.shape.rank)
    width = seed.shape[-1] if seed.shape.rank in (1, 2) else None
    if width is not None and width != 3:  # (TF's shape function checks a known seed)
        raise shape_rules.shape_error(
            "RandomIndexShuffle", f"Seed must have shape [3] or [n, 3] but got "
                                  f"{shape_text(seed.shape.as_list())}.",
            [index.shape, seed.shape, max_index.shape])
    if ranks == (0, 1, 0):
        return TensorShape([]), index.dtype
    if None in ranks:
        return unknown_shape(), index.dtype
    sizes = [t.shape[0] for t in (index, max_index) if t.shape.rank == 1]
    sizes += [seed.shape[0]] if seed.shape.rank == 2 else []
    return TensorShape([next((n for n in sizes if n is not None), None)]), index.dtype


_UNIFORM = _register(_draw_uniform, _shaped, _per_value, "RandomUniform",
                     "StatelessRandomUniform", tied=(), at_once=True)
tf_args[_UNIFORM[1]] = ("shape", "seed")
tf_defaults[_UNIFORM[1]] = {"dtype": _d.float32}
_NORMAL = _register(_draw_normal, _shaped, _per_value, "RandomStandardNormal",
                    "StatelessRandomNormal", tied=(), at_once=True)
tf_args[_NORMAL[1]] = ("shape", "seed")
tf_defaults[_NORMAL[1]] = {"dtype": _d.float32}
_TRUNCATED = _register(_draw_truncated_normal, _shaped, _per_value, "TruncatedNormal",
                       "StatelessTruncatedNormal", tied=())
tf_args[_TRUNCATED[1]] = ("shape", "seed")
tf_defaults[_TRUNCATED[1]] = {"dtype": _d.float32}
_UNIFORM_INT = _register(_draw_uniform_int, _shaped_like_min, _per_value, "RandomUniformInt",
                         "StatelessRandomUniformInt", tied=(0, 1), dtypes=_FULL_INTS,
                         at_once=True)
_FULL_INT = _register(_draw_full_int, _shaped, _per_value, "StatefulUniformFullInt",
                      "StatelessRandomUniformFullInt", tied=(), at_once=True)
tf_args[_FULL_INT[0]] = None  # (a Generator's stream, not a resource: no raw op)
tf_args[_FULL_INT[1]] = ("shape", "seed")
tf_defaults.assign({"dtype": _d.uint64}, *_FULL_INT)
# (TF's op allows every real type; only floating logits have a kernel: integer ones fail as
# they run, NotFoundError eagerly)
_MULTINOMIAL = _register(_draw_multinomial, _multinomial_rule, _per_sample, "Multinomial",
                         "StatelessMultinomial", run_time_attr="num_samples",
                         dtypes=REAL_NUMBER_TYPES,
                         kernels=(_d.float64, _d.float32, _d.bfloat16, _d.float16))
_SHUFFLE = (_register(_draw_shuffle, lambda value, *_, **__: (value.shape, value.dtype),
                      _per_swap, "RandomShuffle", run_time_attr=None)[0],
            # TF registers no gradient for StatelessShuffle (see its LookupError below)
            _register(_draw_shuffle, lambda value, *_, **__: (value.shape, value.dtype),
                      None, None, "StatelessShuffle", run_time_attr=None,
                      not_differentiable=None)[1])
tf_args[_SHUFFLE[1]] = None  # (takes a seed where TF's takes key, counter, alg: no raw op)
_POISSON = _register(_draw_poisson, _extended, _per_param_value, "RandomPoissonV2",
                     dtypes=_HALF_FLOAT_DOUBLE + _INTS, not_differentiable=None)
tf_args[_POISSON[0]] = ("shape", "rate")
tf_defaults[_POISSON[0]] = {"dtype": _d.int64}
no_gradient_entry("RandomPoissonV2")  # (its rate's)
_GAMMA = _register(_draw_gamma, _extended, _per_param_value, "RandomGamma",
                   dtypes=_HALF_FLOAT_DOUBLE, not_differentiable=None)
tf_args[_GAMMA[0]] = ("shape", "alpha")
_STATELESS_GAMMA = _register(_draw_stateless_gamma, _shaped_like_param, None, None,
                             "StatelessRandomGammaV2", dtypes=_HALF_FLOAT_DOUBLE,
                             not_differentiable=None)
_STATELESS_POISSON = _register(_draw_stateless_poisson, _shaped_like_param, None, None,
                               "StatelessRandomPoisson", dtypes=_HALF_FLOAT_DOUBLE + _INTS)
_BINOMIAL = _register(_draw_binomial, _shaped_like_param, _per_binomial,
                      "StatefulRandomBinomial", "StatelessRandomBinomial", tied=(0, 1),
                      dtypes=_HALF_FLOAT_DOUBLE)
tf_args[_BINOMIAL[0]] = None  # (a Generator's stream, not a resource: no raw op)
tf_defaults.assign({"dtype": _d.int64}, *_BINOMIAL)
_TRUNCATED_WITH = _register(_draw_truncated_with, _shaped_like_param, None, None,
                            "StatelessParameterizedTruncatedNormal", tied=(0, 1, 2, 3),
                            dtypes=_HALF_FLOAT_DOUBLE, not_differentiable=None)
tf_args[_TRUNCATED_WITH[1]] = ("shape", "seed", "means", "stddevs", "minvals", "maxvals")
tf_nodes[_TRUNCATED_WITH[1]] = NodeForm(inputs=(AttrInput("shape", type_attr="S"), 4, 0, 1, 2, 3),
                                        types={"Tseed": 4, "dtype": 0})
# TF's stateful random ops take the shape as an input; a graph's op keeps its stream (the
# part of its seed's sequence each run takes) as eagerflow's own attr, new when read back.
_SHAPE_INPUT = AttrInput("shape", type_attr="T", runtime=True)
# (TF's seeds default to 0, which SavedModels leave out of their nodes)
_SEEDS = {"seed": 0, "seed2": 0}
for _op in (_UNIFORM[0], _NORMAL[0], _TRUNCATED[0]):
    tf_nodes[_op] = NodeForm(inputs=(_SHAPE_INPUT,), types={}, local={"stream": _OpState},
                             defaults=_SEEDS)
tf_nodes[_UNIFORM_INT[0]] = NodeForm(inputs=(_SHAPE_INPUT, 0, 1), types={"Tout": 0},
                                     local={"stream": _OpState}, defaults=_SEEDS)
tf_args[_UNIFORM_INT[0]] = ("shape", "minval", "maxval")
tf_nodes.get(_UNIFORM_INT[0]).outputs = ("output",)
tf_nodes[_MULTINOMIAL[0]] = NodeForm(
    inputs=(0, AttrInput("num_samples", type_attr=None, kind=int, runtime=True)),
    local={"stream": _OpState}, defaults=_SEEDS)
tf_args[_MULTINOMIAL[0]] = ("logits", "num_samples")
tf_nodes[_SHUFFLE[0]] = NodeForm(local={"stream": _OpState}, defaults=_SEEDS)
tf_args[_SHUFFLE[0]] = ("value",)
for _op, _type in ((_POISSON[0], "R"), (_GAMMA[0], "T")):  # (TF's shape is of type S)
    tf_nodes[_op] = NodeForm(inputs=(AttrInput("shape", type_attr="S", runtime=True), 0),
                             types={_type: 0}, local={"stream": _OpState}, defaults=_SEEDS)
# The stateless ops take the seed last, after a shape only run time knows (TF's first)
_KNOWN_SHAPE = AttrInput("shape", type_attr="T", runtime=True, at=-2)
for _op in (_UNIFORM[1], _NORMAL[1], _TRUNCATED[1], _FULL_INT[1]):
    tf_nodes[_op] = NodeForm(inputs=(_KNOWN_SHAPE, 0), types={"Tseed": 0})
tf_nodes[_UNIFORM_INT[1]] = NodeForm(inputs=(_KNOWN_SHAPE, 2, 0, 1),
                                     types={"Tseed": 2, "dtype": 0})
tf_args[_UNIFORM_INT[1]] = ("shape", "seed", "minval", "maxval")
tf_nodes.get(_UNIFORM_INT[1]).outputs = ("output",)
tf_nodes[_MULTINOMIAL[1]] = NodeForm(
    inputs=(0, AttrInput("num_samples", type_attr=None, kind=int), 1), types={"T": 0, "Tseed": 1})
tf_args[_MULTINOMIAL[1]] = ("logits", "num_samples", "seed")
tf_defaults.assign({"output_dtype": _d.int64}, *_MULTINOMIAL)
tf_nodes[_BINOMIAL[1]] = NodeForm(inputs=(AttrInput("shape", type_attr="S"), 2, 0, 1),
                                  types={"Tseed": 2, "T": 0})
tf_args[_BINOMIAL[1]] = ("shape", "seed", "counts", "probs")
tf_nodes.get(_BINOMIAL[1]).outputs = ("output",)
tf_nodes[_STATELESS_POISSON[1]] = NodeForm(inputs=(_KNOWN_SHAPE, 1, 0),
                                           types={"Tseed": 1, "Rtype": 0})
tf_args[_STATELESS_POISSON[1]] = ("shape", "seed", "lam")
tf_nodes[_STATELESS_GAMMA[1]] = NodeForm(inputs=(_KNOWN_SHAPE, 1, 0),
                                         types={"Tseed": 1, "dtype": 0})
tf_args[_STATELESS_GAMMA[1]] = ("shape", "seed", "alpha")


def _index_shuffle(xp, index, seed, max_index, rounds):
    """Where `index` goes in a permutation of ``[0, max_index]`` picked by `seed` (one row
    of 3 per output, or one for all); scalars and vectors of one length broadcast."""
    outputs = max(index.size, max_index.size, seed.size // 3)
    if index.ndim and (index.ndim != 1 or index.shape[0] != outputs):
        raise errors.InvalidArgumentError(None, None, "Index bust be a scalar or vector.")
    if seed.shape != (3,) and seed.shape != (outputs, 3):
        raise errors.InvalidArgumentError(
            None, None, f"Seed must be a vector of size [3] or a matrix of size "
            f"[{outputs}, 3] but got {shape_text(seed.shape)}.")
    if max_index.ndim and (max_index.ndim != 1 or max_index.shape[0] != outputs):
        raise errors.InvalidArgumentError(
            None, None, f"Maxval must be a scalar or a vector of the same size as index but "
            f"got {shape_text(max_index.shape)}")
    index_, top = xp.broadcast_to(index, (outputs,)), xp.broadcast_to(max_index, (outputs,))
    bad = xp.flatnonzero((index_ < 0) | (top < 0) | (top < index_))
    if bad.size:  # the first output's first failing check
        i, m = index_[bad[0]].item(), top[bad[0]].item()
        raise errors.InvalidArgumentError(
            None, None, f"index must be >= 0 but was {i}" if i < 0 else
            f"max_index must be >= 0 but was {m}" if m < 0 else
            f"max_index must be >= index, but {m} < {i}")
    key = xp.broadcast_to(seed.astype(np.uint64) & np.uint64(0xFFFFFFFF), (outputs, 3))
    out = philox.index_shuffle(xp, index_.astype(np.uint64), key, top.astype(np.uint64),
                               rounds).astype(index.dtype)
    return out.reshape(()) if index.ndim == 0 and seed.ndim == 1 and max_index.ndim == 0 \
        else out


_INDEX_SHUFFLE = register("RandomIndexShuffle", _index_shuffle, _index_shuffle_rule,
                          tied=(0, 2), dtypes=_INDEX_TYPES,
                          not_differentiable="integer positions of a permutation")
tf_args[_INDEX_SHUFFLE] = ("index", "seed", "max_index")
tf_defaults[_INDEX_SHUFFLE] = {"rounds": 4}


def _gamma_sample_grad(xp, alpha, sample):
    """d sample / d alpha of samples of Gamma(alpha, 1), by implicit differentiation (Figurnov
    et al., 2018): ``-(dP/dalpha) / (dP/dx)`` at ``x = sample``, P the regularized lower
    incomplete gamma function, whose derivative in alpha is carried along (forward mode)
    its power series up to ``x = max(1, alpha)`` and its continued fraction beyond.
    Computed in float64 (TF: in the input's dtype)."""
    shape = np.broadcast_shapes(alpha.shape, sample.shape)
    a, x = (xp.broadcast_to(v, shape).reshape(-1).astype(np.float64) for v in (alpha, sample))
    out = xp.full(a.shape, np.nan)  # for x < 0, alpha <= 0 and NaN
    out[x == 0] = 0.0
    inside = (x > 0) & (a > 0)
    fraction = inside & (x > 1) & (x > a)  # where the fraction converges (TF: P = 1 - Q)
    with np.errstate(all="ignore"):
        log_x = xp.log(x)
        log_term = a * log_x - x - special(xp, "gammaln")(a)  # of x**a e**-x / Gamma(a)
    flat = inside & ~(log_term >= -np.log(np.finfo(np.float64).max))  # P flat, or x infinite
    out[flat] = xp.where(fraction[flat], -0.0, 0.0)
    for branch, grad in ((inside & ~flat & ~fraction, _series_grad),
                         (fraction & ~flat, _fraction_grad)):
        at = xp.flatnonzero(branch)
        with np.errstate(all="ignore"):
            out[at] = grad(xp, a[at], x[at], log_x[at])
    return out.astype(np.result_type(alpha, sample)).reshape(shape)


_EPS = np.finfo(np.float64).eps
_ITERATIONS = 500  # the series and the fraction converge far sooner but for extreme inputs


def _series_grad(xp, a, x, log_x):
    """The sample derivative from P's power series ``sum_k x**k / ((a+1) ... (a+k))``."""
    term, total = xp.ones(a.shape), xp.ones(a.shape)
    dterm, dtotal = xp.zeros(a.shape), xp.zeros(a.shape)
    denominator = a.copy()
    live = xp.arange(a.size)
    for _ in range(_ITERATIONS):
        if not live.size:
            break
        denominator[live] += 1
        ratio = x[live] / denominator[live]
        dterm[live] = ratio * dterm[live] - x[live] / denominator[live] ** 2 * term[live]
        dtotal[live] += dterm[live]
        term[live] *= ratio
        total[live] += term[live]
        live = live[xp.abs(dterm[live]) > _EPS / 2 * xp.abs(dtotal[live])]
    dlog = log_x - special(xp, "psi")(a + 1)
    return -(dtotal + total * dlog) * x / a


def _fraction_grad(xp, a, x, log_x):
    """The sample derivative from the continued fraction of 1 - P (x > max(1, a))."""
    y, z, c = 1 - a, x + 2 - a, xp.zeros(a.shape)
    p2, q2, p1, q1 = xp.ones(a.shape), x.copy(), x + 1, z * x
    dp2, dq2, dp1, dq1 = xp.zeros(a.shape), xp.zeros(a.shape), xp.zeros(a.shape), -x
    ratio = p1 / q1
    dratio = (dp1 - ratio * dq1) / q1
    live = xp.arange(a.size)
    for _ in range(_ITERATIONS):
        if not live.size:
            break
        c[live] += 1
        y[live] += 1
        z[live] += 2
        yc, zl, cl = y[live] * c[live], z[live], c[live]
        p = p1[live] * zl - p2[live] * yc
        q = q1[live] * zl - q2[live] * yc
        dp = dp1[live] * zl - p1[live] - dp2[live] * yc + p2[live] * cl
        dq = dq1[live] * zl - q1[live] - dq2[live] * yc + q2[live] * cl
        moved = q != 0
        new_ratio = xp.where(moved, p / xp.where(moved, q, 1), ratio[live])
        new_dratio = xp.where(moved, (dp - new_ratio * dq) / xp.where(moved, q, 1),
                              dratio[live])
        done = moved & (xp.abs(new_dratio - dratio[live]) <= _EPS / 2)
        ratio[live], dratio[live] = new_ratio, new_dratio
        scale = xp.where(xp.abs(p) > 1 / _EPS, _EPS, 1.0)  # keep the terms in range
        p2[live], p1[live], q2[live], q1[live] = p1[live] * scale, p * scale, \
            q1[live] * scale, q * scale
        dp2[live], dp1[live], dq2[live], dq1[live] = dp1[live] * scale, dp * scale, \
            dq1[live] * scale, dq * scale
        live = live[~done]
    dlog = log_x - special(xp, "psi")(a)
    return (dratio + ratio * dlog) * x


_GAMMA_GRAD = register("RandomGammaGrad", _gamma_sample_grad, shape_rules.binary,
                       tied=(0, 1), dtypes=(_d.float32, _d.float64),
                       not_differentiable="TensorFlow defines no gradient for it", elementwise=True)
tf_args[_GAMMA_GRAD] = ("alpha", "sample")
tf_nodes[_GAMMA_GRAD] = NodeForm(outputs=("output",))


def random_gamma_grad(alpha, sample, name=None):
    """The derivative of Gamma(`alpha`) samples `sample` in alpha (TF's ``RandomGammaGrad``;
    broadcasting), as the gradients of gamma samples use it.

    >>> random_gamma_grad([1.0], [2.0]).numpy()
    array([1.6316915], dtype=float32)
    """
    return dispatch(_GAMMA_GRAD, binary_operands(alpha, sample), _NO_ATTRS, name)


# The `stream` of an eager op's seed attrs whose shape is an int64 tensor (see `_SeedOnce`)
_INT64_SHAPE = type("Int64Shape", (), {"__repr__": lambda self: "int64 shape"})()


def _eager_stream(op, inputs, attrs, seed):
    """The seed attrs of an eager call: its counter offset fixed now, from the pair's kernel
    (or the `Generator`) in `seed`."""
    stream = seed["stream"]
    if type(stream) is int:
        return seed
    samples = _SAMPLES[op.name]([tuple(t.shape) for t in inputs], attrs)
    if stream is None or stream is _INT64_SHAPE:
        # (TF's eager kernel cache: one kernel per op and attrs, and TF's attrs are all of
        # ours but the shape and number of samples, its inputs, and the shape's type)
        kernel = (op.name, seed["seed"], seed["seed2"], tuple(sorted(
            (k, v) for k, v in attrs.items() if k not in ("shape", "num_samples"))),
            tuple(t.dtype for t in inputs), stream is _INT64_SHAPE)
        return {**seed, "stream": _STATE.reserve(kernel, samples)}
    key, high, low = stream.take(0, 0, samples)
    return {"seed": key, "seed2": high, "stream": low}


def _run(ops, inputs, attrs, seed, name):
    """Runs the stateful op of `ops` with `seed` attrs (a dict), or the stateless twin with
    `seed` (a tensor) as its last input. An attr known only at run time (a tensor: a
    shape, a number of samples) becomes an input, after the others."""
    if isinstance(seed, _RowSeed):
        return seed.draws.call(ops, inputs, attrs, seed.op_seed, name)
    if isinstance(seed, _KeyCounter):  # TF's draw at a Generator's key and counter
        v2 = _KEY_COUNTER_OPS[ops[0].name]
        shape = attrs["shape"]
        shape = shape if isinstance(shape, Tensor) else as_tensor(list(shape), _d.int32)
        v2_attrs = {} if v2 is _UNIFORM_INT_V2 else {"dtype": attrs["dtype"]}
        return dispatch(v2, (shape, seed.key, seed.counter, seed.alg, *inputs), v2_attrs, name)
    run_time = [k for k, v in attrs.items() if isinstance(v, Tensor)]
    if run_time:
        inputs = (*inputs, attrs[run_time[0]])
        attrs = {k: v for k, v in attrs.items() if k != run_time[0]}
    if isinstance(seed, dict):
        if context.get().graph is None:
            seed = _eager_stream(ops[0], inputs, attrs, seed)
        return dispatch(ops[0], inputs, {**attrs, **seed}, name)
    return dispatch(ops[1], (*inputs, seed), attrs, name)


# -- argument checks --------------------------------------------------------------------------

def _shape_attr(shape, op_name, seed=None):
    """`shape` (list, TensorShape or 1-D tensor) as a tuple of ints, checked as TF does;
    a tensor when only run time knows it. `seed` (a `_SeedOnce`): the op's errors come
    after its op seed is taken, as TF's kernel raises them (a shape that does not convert
    raises before)."""
    if isinstance(shape, Variable):  # (its value, read as TF's conversion reads it)
        shape = as_tensor(shape)
    run_time = run_time_tensor(shape)
    if isinstance(shape, TensorShape) and shape.is_fully_defined():  # (else TF's error)
        shape = shape.as_list()
    dims = None if run_time is not None else np.asarray(
        get_static_value(shape) if is_tensor_like(shape) else to_array(shape))
    if seed is not None and dims is not None:
        seed.int64_shape = _index_type(shape, dims) == _d.int64
    try:
        return _checked_shape(run_time, dims, op_name)
    except errors.InvalidArgumentError:
        if seed is not None:
            seed()
        raise


def _int32_shape(shape):
    """`shape` as TF's `poisson` and `gamma` take it: converted to int32 (an int64 tensor is
    refused, an array cast), so that their op's kernel is the one of an int32 shape."""
    if is_tensor_like(shape) and _d.as_dtype(shape.dtype) != _d.int32:
        convert_to_tensor(shape, _d.int32, name="shape")  # (TF's ValueError)
    if isinstance(shape, np.ndarray) and shape.dtype.kind in "iu":
        return shape.astype(np.int32)
    return shape


def _index_type(shape, dims):
    """The type of TF's shape tensor for `shape` (int32 unless a tensor or array of int64,
    or a list with a value past int32)."""
    if is_tensor_like(shape) or isinstance(shape, np.ndarray):
        return _d.as_dtype(shape.dtype)
    big = dims.size and dims.dtype.kind in "iu" and np.abs(dims).max() > _MAXINT32
    return _d.int64 if big else _d.int32


def _checked_shape(run_time, dims, op_name):
    if run_time is not None:
        check_index_dtype(op_name, "T", run_time, _INTS)
        return run_time
    if dims.ndim != 1:
        raise errors.op_error(errors.InvalidArgumentError, op_name,
                              f"shape must be a vector of {{int32,int64}}, got shape "
                              f"{shape_text(dims.shape)}")
    if dims.size and dims.dtype.kind not in "iu":
        raise attr_dtype_error(op_name, "T", _d.from_numpy(dims.dtype), (_d.int32, _d.int64))
    for d in dims.tolist():
        if d < 0:
            raise errors.eager_error(errors.InvalidArgumentError, op_name,
                                     f"Dimension {d} must be >= 0")
    return tuple(dims.tolist())


def _accepted(dtype, allowed):
    dtype = _d.as_dtype(dtype)
    if dtype not in allowed:
        raise ValueError(f"Argument `dtype` got invalid value {dtype}. Accepted dtypes are "
                         f"{tuple(allowed)}.")
    return dtype


def _op_dtype(dtype, allowed, op_name, attr="dtype"):
    """`dtype` checked against an op's type attr list (InvalidArgumentError, as TF)."""
    dtype = _d.as_dtype(dtype)
    if dtype not in allowed:
        raise attr_dtype_error(op_name, attr, dtype, allowed)
    return dtype


def _same_dtype(op_name, tensors, first):
    """Checks that `tensors` (TF's inputs `first`, `first` + 1, ...) share one dtype."""
    want = tensors[0].dtype
    for i, t in enumerate(tensors[1:], first + 1):
        if t.dtype != want:
            raise errors.op_error(
                errors.InvalidArgumentError, op_name,
                f"cannot compute {op_name} as input #{i}(zero-based) was expected to be a "
                f"{kernel_type_name(want)} tensor but is a {kernel_type_name(t.dtype)} tensor")


def _is(value, number):
    """True when `value` is the plain Python number `number` (so an op can be skipped)."""
    return type(value) in (int, float) and value == number


def _int_arg(value):
    """A Python int from `value`, or a scalar tensor when only run time knows it."""
    if not isinstance(value, Tensor):
        return int(value)
    known = get_static_value(value)
    return value if known is None else int(known)


# -- shared bodies of the global-seed, Generator and stateless functions ----------------------

def _uniform(shape, minval, maxval, dtype, seed, name, full_int_ok, scope=None):
    """Uniform values in [minval, maxval); integers need both bounds (or, where
    `full_int_ok`, neither: the whole range of the type). In a graph, with a `scope` (TF's
    default name), the ops are named in it as TF's (``random_uniform/RandomUniform``, or
    ``random_uniform`` for the shifted values)."""
    if scope is not None:
        with context.op_scope(name or scope) as opened:
            if opened is not None:
                return _uniform(shape, minval, maxval, dtype, seed, opened, full_int_ok)
    if dtype.is_integer:
        if minval is None and maxval is None and full_int_ok:
            return _run(_FULL_INT, (), {"shape": shape, "dtype": dtype}, _resolved(seed), name)
        lo, hi = _bounds(minval, maxval, dtype)
        return _run(_UNIFORM_INT, (lo, hi), {"shape": shape}, _resolved(seed), name)
    minval = 0 if minval is None else minval
    maxval = 1 if maxval is None else maxval
    if _is(minval, 0):
        hi = None if _is(maxval, 1) else _bounds(minval, maxval, dtype)[1]
        rnd = _run(_UNIFORM, (), {"shape": shape, "dtype": dtype}, _resolved(seed),
                   _in_scope(name))
        return rnd if hi is None else math_ops.multiply(rnd, hi)
    lo, hi = _bounds(minval, maxval, dtype)
    rnd = _run(_UNIFORM, (), {"shape": shape, "dtype": dtype}, _resolved(seed), _in_scope(name))
    return math_ops.add(math_ops.multiply(rnd, math_ops.subtract(hi, lo, name=_in_scope(name,
                        "sub")), name=_in_scope(name, "mul")), lo, name=name)


class _SeedOnce:
    """The seed attrs of a global-seed function's op (see `_seed_attrs`), taken at the
    first call."""

    def __init__(self, op_seed):
        self.op_seed, self.attrs = op_seed, None
        self.int64_shape = False  # (TF's op then has type attr T int64: a kernel of its own)

    def __call__(self):
        if self.attrs is None:
            attrs = _seed_attrs(self.op_seed, True)
            if self.int64_shape and type(attrs) is dict and attrs["stream"] is None:
                attrs = {**attrs, "stream": _INT64_SHAPE}
            self.attrs = attrs
        return self.attrs


def _resolved(seed):
    """`seed`, or its value when given as a function: a global-seed function's op seed is
    taken only once its arguments have converted (as TF's, whose conversion errors leave
    the op-seed sequence where it was)."""
    return seed() if callable(seed) else seed


def _bounds(minval, maxval, dtype):
    """`minval` and `maxval` as tensors of `dtype` (errors name them as TF's)."""
    return (convert_to_tensor(minval, dtype, name="min"),
            convert_to_tensor(maxval, dtype, name="max"))


def _in_scope(name, op=None):
    """The name of an op inside the scope `name` (``random_normal/``) that TF's wrapper
    opened: by its type, or `op`; else `name` as given."""
    if name is not None and name.endswith("/"):
        return op
    return name


def _normal(ops, shape, mean, stddev, dtype, seed, name, scope=None):
    """`ops` (standard normal or truncated) scaled by `stddev` and shifted by `mean`. In a
    graph, with a `scope` (TF's default name), named as TF's: ``random_normal/mul`` and
    ``random_normal`` (always built there; eagerly a scale of 1 and a shift of 0 are
    skipped)."""
    mean_t, stddev_t = as_tensor(mean, dtype), as_tensor(stddev, dtype)  # TypeError for ints
    seed = _resolved(seed)
    _op_dtype(dtype, FLOAT, ops[0].name)
    if scope is not None:
        with context.op_scope(name or scope) as opened:
            if opened is not None:
                rnd = _run(ops, (), {"shape": shape, "dtype": dtype}, seed, None)
                return math_ops.add(math_ops.multiply(rnd, stddev_t, name="mul"), mean_t,
                                    name=opened)
    rnd = _run(ops, (), {"shape": shape, "dtype": dtype}, seed, name)
    if not _is(stddev, 1):
        rnd = math_ops.multiply(rnd, stddev_t)
    return rnd if _is(mean, 0) else math_ops.add(rnd, mean_t)


def _categorical(logits, num_samples, dtype, seed, name):
    dtype = _accepted(_d.int64 if dtype is None else dtype, _INTS)
    if isinstance(num_samples, Tensor) and num_samples.dtype != _d.int32:
        # (an int32 input of TF's op, which names no op eagerly: `` name: `` ends the text)
        eager = context.executing_eagerly()
        error = fixed_input_error(_MULTINOMIAL[0], 1, "num_samples", _d.int32,
                                  num_samples.dtype, building=not eager)
        raise type(error)(None, None, f"{error.message} name: ") if eager else error
    shape = num_samples.shape if isinstance(num_samples, Tensor) else np.shape(num_samples)
    if TensorShape(shape).rank:  # (one count for every row)
        raise errors.InvalidArgumentError(
            None, None, f"num_samples should be a scalar, got shape {shape_text(shape)}")
    attrs = {"num_samples": _int_arg(num_samples), "output_dtype": dtype}
    return _run(_MULTINOMIAL, (as_tensor(logits),), attrs, seed, name)


# -- global-seed functions --------------------------------------------------------------------

@export("random.uniform")
def uniform(shape, minval=0, maxval=None, dtype=_d.float32, seed=None, name=None):
    """Uniform values in [minval, maxval) (maxval defaults to 1; integers need it).

    >>> x = tf.random.uniform([2, 3], minval=-1.0, maxval=1.0, seed=4)
    >>> x.shape, bool((x.numpy() >= -1).all() and (x.numpy() < 1).all())
    (TensorShape([2, 3]), True)
    """
    dtype = _accepted(dtype, _FLOATS + _INTS)
    if dtype.is_integer and maxval is None:
        raise ValueError(f"Must specify maxval for integer dtype {dtype!r}")
    seed = _SeedOnce(seed)
    shape = _shape_attr(shape, "RandomUniformInt" if dtype.is_integer else "RandomUniform", seed)
    return _uniform(shape, minval, maxval, dtype, seed, name, False, "random_uniform")


@export("random.normal")
def normal(shape, mean=0.0, stddev=1.0, dtype=_d.float32, seed=None, name=None):
    """Normally distributed values.

    >>> tf.random.normal([2], mean=3.0, stddev=0.0)
    <tf.Tensor: shape=(2,), dtype=float32, numpy=array([3., 3.], dtype=float32)>
    """
    dtype, seed = _d.as_dtype(dtype), _SeedOnce(seed)
    shape = _shape_attr(shape, "RandomStandardNormal", seed)
    return _normal(_NORMAL, shape, mean, stddev, dtype, seed, name, "random_normal")


@export("random.truncated_normal")
def truncated_normal(shape, mean=0.0, stddev=1.0, dtype=_d.float32, seed=None, name=None):
    """Normal values with those beyond 2 standard deviations from the mean re-drawn.

    >>> bool((abs(tf.random.truncated_normal([1000]).numpy()) <= 2).all())
    True
    """
    dtype, seed = _d.as_dtype(dtype), _SeedOnce(seed)
    shape = _shape_attr(shape, "TruncatedNormal", seed)
    return _normal(_TRUNCATED, shape, mean, stddev, dtype, seed, name, "truncated_normal")


@export("random.categorical")
def categorical(logits, num_samples, dtype=None, seed=None, name=None):
    """Class indices drawn from the categorical distributions with log-probabilities `logits`.

    `logits`: [batch, num_classes]; the result is [batch, num_samples] (int64 by default).

    >>> tf.random.categorical(tf.constant([[-1e9, 0.0]]), 3)
    <tf.Tensor: shape=(1, 3), dtype=int64, numpy=array([[1, 1, 1]])>
    """
    return _categorical(logits, num_samples, dtype, _seed_attrs(seed, True), name)


@export("random.shuffle")
def shuffle(value, seed=None, name=None):
    """`value` with its first dimension randomly permuted.

    >>> sorted(tf.random.shuffle(tf.constant([1, 2, 3])).numpy().tolist())
    [1, 2, 3]
    """
    return _run(_SHUFFLE, (as_tensor(value),), _NO_ATTRS, _seed_attrs(seed), name)


@export("random.poisson")
def poisson(shape, lam, dtype=_d.float32, seed=None, name=None):
    """Poisson samples of rates `lam`: shape ``shape + lam.shape``.

    >>> tf.random.poisson([4], [1.0, 5.0]).shape
    TensorShape([4, 2])
    """
    seed = _SeedOnce(seed)
    try:
        dtype = _op_dtype(dtype, _HALF_FLOAT_DOUBLE + _INTS, "RandomPoissonV2")
    except errors.InvalidArgumentError:
        seed()  # (TF's kernel refuses the type: the op seed is taken)
        raise
    attrs = {"shape": _shape_attr(_int32_shape(shape), "RandomPoissonV2", seed), "dtype": dtype}
    return _run(_POISSON, (as_tensor(lam),), attrs, seed(), name)


@export("random.gamma")
def gamma(shape, alpha, beta=None, dtype=_d.float32, seed=None, name=None):
    """Gamma samples of shapes `alpha` and rates `beta` (default 1): shape ``shape +
    broadcast(alpha, beta).shape``, never below the smallest positive normal number.

    >>> tf.random.gamma([3], [0.5, 1.5], beta=[1.0, 2.0]).shape
    TensorShape([3, 2])
    """
    dtype = _d.as_dtype(dtype)
    alpha = as_tensor(alpha, dtype)
    beta = None if beta is None else as_tensor(beta, dtype)
    if beta is not None and beta.shape != alpha.shape:  # alpha takes beta's extra dims
        alpha = math_ops.add(alpha, array_ops.zeros_like(beta))
    seed = _SeedOnce(seed)
    attrs = {"shape": _shape_attr(_int32_shape(shape), "RandomGamma", seed)}
    draws = _run(_GAMMA, (alpha,), attrs, seed(), name)
    if beta is not None:
        draws = math_ops.divide(draws, beta)
    return math_ops.maximum(draws, as_tensor(np.finfo(dtype.as_numpy_dtype).tiny, dtype))


class ShuffleStream:
    """The permutations of ``range(size)`` that a `shuffle` op of a function traced now draws,
    one per run: its seed pair is that of a graph's first unseeded random op. Keras's `fit`
    orders its epochs so (the op is in its dataset's map function).

    >>> tf.random.set_seed(0)
    >>> ShuffleStream(10).next().tolist()
    [2, 0, 5, 8, 7, 1, 9, 6, 3, 4]
    """

    def __init__(self, size):
        self.size = size
        self._state = _OpState()
        global_seed = _STATE.global_seed
        if global_seed is None:
            self._seeds = 0, 0
        else:
            self._seeds = (global_seed % _MAXINT32, 0) if global_seed % _MAXINT32 else \
                (0, _MAXINT32)

    def next(self):
        """The next permutation (an int64 array)."""
        seed, seed2, offset = self._state.take(*self._seeds, _per_swap([(self.size,)], {}))
        return philox.permutation(np, seed & _U64, ((seed2 & _U64) << 64) + offset, self.size)


# -- stateless functions: the same seed gives the same values ---------------------------------

@export("random.Algorithm", "random.experimental.Algorithm")
class Algorithm(enum.Enum):
    """Random number algorithms: Philox runs everywhere, ThreeFry only under XLA."""
    PHILOX = 1
    THREEFRY = 2
    AUTO_SELECT = 3


_ALG_NAMES = {"philox": Algorithm.PHILOX, "threefry": Algorithm.THREEFRY,
              "auto_select": Algorithm.AUTO_SELECT}


def _algorithm(alg):
    """`alg` (a name, `Algorithm` or its value) as an `Algorithm`."""
    if isinstance(alg, Algorithm):
        return alg
    if isinstance(alg, str):
        if alg.lower() not in _ALG_NAMES:
            raise ValueError(f"Argument `alg` got unsupported value {alg}. Supported values are "
                             f"philox for the Philox algorithm, threefry for the ThreeFry "
                             f"algorithm, and auto_select for auto-selection.")
        return _ALG_NAMES[alg.lower()]
    try:
        return Algorithm(int(alg))
    except ValueError:
        raise ValueError(f"Argument `alg` got unsupported value {alg}. Supported values are "
                         f"{[a.value for a in Algorithm]}.") from None


def _stateless_alg(alg, op_name):
    """Checks a stateless op's `alg`: Philox (or auto-selected, which is Philox here)."""
    if _algorithm(alg) is Algorithm.THREEFRY:
        raise _kernel_error(errors.InvalidArgumentError, op_name,
                            "counter must be a vector with length at least 2; got shape: [1]. "
                            "(Note that batched counters are not supported yet.)")


def _kernel_error(cls, op_name, message):
    """The error op `op_name`'s kernel raises: in TF's eager form when executing eagerly."""
    if context.executing_eagerly():
        return errors.eager_error(cls, op_name, message)
    return errors.op_error(cls, op_name, message)


_KEY_COUNTER = "StatelessRandomGetKeyCounter"


def _seed_input(seed, op_name, alg="auto_select", seed_op=None):
    """The stateless seed: an int32/int64 tensor of shape [2]. A bad seed names `seed_op`
    (the V2 ops' seeds go through StatelessRandomGetKeyCounter first in TF), else
    `op_name`."""
    _stateless_alg(alg, op_name)
    op_name = seed_op or op_name
    given, seed = seed, as_tensor(seed)
    if seed.dtype not in _INTS:  # (in a graph, TF's TypeError naming the input)
        raise attr_dtype_error(op_name, "Tseed", seed.dtype, (_d.int32, _d.int64), "seed")
    if context.executing_eagerly():
        if seed.shape != TensorShape([2]):  # (the kernel's check: TF's eager form names it)
            raise errors.listed(_kernel_error(errors.InvalidArgumentError, op_name,
                                              f"seed must have shape [2], not "
                                              f"{shape_text(seed.shape.as_list())}"), given)
    else:  # TF's shape function rejects what is known; the kernel checks the rest
        shape_rules.check_rank(op_name, [seed], 0, rank=1)
        if seed.shape.rank == 1 and seed.shape[0] not in (None, 2):
            raise shape_rules.shape_error(op_name, f"Dimension must be 2 but is "
                                                   f"{seed.shape[0]}", [seed.shape])
    return seed


def _check_int_bounds(dtype, minval, maxval, template):
    if dtype.is_integer and (minval is None) != (maxval is None):
        raise ValueError(template.format(dtype=dtype, minval=minval, maxval=maxval))


@export("random.stateless_uniform")
def stateless_uniform(shape, seed, minval=0, maxval=None, dtype=_d.float32, name=None,
                      alg="auto_select"):
    """Uniform values determined by `seed` (shape [2]); integers take both bounds, or neither
    for the type's whole range.

    >>> tf.random.stateless_uniform([2], seed=[1, 2]).numpy()
    array([0.8440604 , 0.19204533], dtype=float32)
    """
    dtype = _accepted(dtype, _FLOATS + _FULL_INTS)
    _check_int_bounds(dtype, minval, maxval, (
        "For integer `dtype` argument {dtype}, argument `minval` and `maxval` must be both None "
        "or not None. Got `minval`={minval} and `maxval`={maxval}."))
    if minval is not None and dtype in (_d.uint32, _d.uint64):  # (no bounded unsigned op)
        raise ValueError(f"Argument `dtype` got invalid value {dtype} when argument `minval` "
                         f"is not None. Please don't use unsigned integers in this case.")
    shape = _shape_attr(shape, "StatelessRandomUniform")
    op_name = ("StatelessRandomUniformV2" if not dtype.is_integer
               else "StatelessRandomUniformFullIntV2" if minval is None
               else "StatelessRandomUniformIntV2")  # (TF's op, which checks `alg`)
    seed = _seed_input(seed, op_name, alg, _KEY_COUNTER)
    return _uniform(shape, minval, maxval, dtype, seed, name, True)


@export("random.stateless_normal")
def stateless_normal(shape, seed, mean=0.0, stddev=1.0, dtype=_d.float32, name=None,
                     alg="auto_select"):
    """Normal values determined by `seed` (shape [2]).

    >>> tf.random.stateless_normal([3], seed=[4, 2]).shape
    TensorShape([3])
    """
    return _normal(_NORMAL, _shape_attr(shape, "StatelessRandomNormal"), mean, stddev,
                   _d.as_dtype(dtype),
                   _seed_input(seed, "StatelessRandomNormalV2", alg, _KEY_COUNTER), name)


@export("random.stateless_truncated_normal")
def stateless_truncated_normal(shape, seed, mean=0.0, stddev=1.0, dtype=_d.float32, name=None,
                               alg="auto_select"):
    """Truncated normal values (within 2 standard deviations) determined by `seed`.

    >>> bool((abs(tf.random.stateless_truncated_normal([100], seed=[1, 1]).numpy()) <= 2).all())
    True
    """
    return _normal(_TRUNCATED, _shape_attr(shape, "StatelessTruncatedNormal"), mean, stddev,
                   _d.as_dtype(dtype),
                   _seed_input(seed, "StatelessTruncatedNormalV2", alg, _KEY_COUNTER), name)


@export("random.stateless_categorical")
def stateless_categorical(logits, num_samples, seed, dtype=_d.int64, name=None):
    """Categorical samples determined by `seed`; see `categorical`.

    >>> tf.random.stateless_categorical(tf.constant([[0.0, -1e9]]), 2, seed=[7, 7])
    <tf.Tensor: shape=(1, 2), dtype=int64, numpy=array([[0, 0]])>
    """
    return _categorical(logits, num_samples, dtype, _seed_input(seed, "StatelessMultinomial"),
                        name)


@export("random.split", "random.experimental.stateless_split")
def split(seed, num=2, alg="auto_select"):
    """`num` new stateless seeds derived from `seed`: shape [num, 2], `seed`'s dtype.

    >>> tf.random.split([1, 2], num=3)[0].numpy()
    array([1105988140, 1738052849], dtype=int32)
    """
    seed = _seed_input(seed, "StatelessRandomUniformFullIntV2", alg, _KEY_COUNTER)
    return stateless_uniform([int(num), 2], seed, None, None, seed.dtype, alg=alg)


@export("random.fold_in", "random.experimental.stateless_fold_in")
def fold_in(seed, data, alg="auto_select"):
    """A new stateless seed combining `seed` with the integer `data` (of `data`'s dtype).

    >>> tf.random.fold_in([1, 2], 7).numpy()
    array([1105988140,          7], dtype=int32)
    """
    data = as_tensor(data)
    mixed = stateless_uniform([], seed, None, None, data.dtype, alg=alg)
    return array_ops.stack([mixed, data])


@export("random.stateless_gamma")
def stateless_gamma(shape, seed, alpha, beta=None, dtype=_d.float32, name=None):
    """Gamma samples of shapes `alpha` and rates `beta` (default 1) determined by `seed`:
    `shape` ends with the broadcast shape of `alpha` and `beta`. Values never go below the
    smallest positive normal number; gradients reach `alpha` (implicit reparameterization)
    and `beta`.

    >>> tf.random.stateless_gamma([3], seed=[1, 2], alpha=2.0).numpy()
    array([2.8172736, 1.9241365, 3.3360066], dtype=float32)
    """
    dtype = _d.as_dtype(dtype)
    shape = _shape_attr(shape, "StatelessRandomGammaV3")
    alpha = as_tensor(alpha, dtype)
    beta = None if beta is None else as_tensor(beta, dtype)
    if beta is not None and beta.shape != alpha.shape:
        alpha = array_ops.broadcast_to(alpha, array_ops.broadcast_dynamic_shape(
            array_ops.shape(alpha), array_ops.shape(beta)))
    seed = _seed_input(seed, "StatelessRandomGetKeyCounter")
    _op_dtype(dtype, _HALF_FLOAT_DOUBLE, "StatelessRandomGammaV3")
    draws = _run(_STATELESS_GAMMA, (alpha,), {"shape": shape}, seed, name)
    if beta is not None:
        draws = math_ops.divide(draws, beta)
    return math_ops.maximum(draws, as_tensor(np.finfo(dtype.as_numpy_dtype).tiny, dtype))


@export("random.stateless_poisson")
def stateless_poisson(shape, seed, lam, dtype=_d.int32, name=None):
    """Poisson samples of rates `lam` determined by `seed`: `shape` ends with lam's shape.

    >>> tf.random.stateless_poisson([2, 2], seed=[1, 2], lam=[1.0, 30.0]).numpy()
    array([[ 3, 38],
           [ 3, 45]], dtype=int32)
    """
    op_name = "StatelessRandomPoisson"
    given = (shape, seed, lam)
    shape = _shape_attr(shape, op_name)
    lam = as_tensor(lam)
    dtype = _op_dtype(dtype, _HALF_FLOAT_DOUBLE + _INTS, op_name)
    _op_dtype(lam.dtype, _HALF_FLOAT_DOUBLE + _INTS, op_name, "Rtype")
    try:
        return _run(_STATELESS_POISSON, (lam,), {"shape": shape, "dtype": dtype},
                    _seed_input(seed, op_name), name)
    except errors.OpError as e:  # (Python lists reach TF's op: its slower path)
        raise errors.listed(e, *given) from None


def _binomial(shape, counts, probs, dtype, seed, name):
    """Binomial samples from the stateful op (`seed`: attrs) or the stateless one; a
    Generator's `Algorithm` other than Philox as `seed` raises TF's error after the
    checks of the arguments, which the kernel makes first."""
    stateful = isinstance(seed, (dict, Algorithm))
    op_name = _BINOMIAL[0 if stateful else 1].name
    dtype = _op_dtype(dtype, _HALF_FLOAT_DOUBLE + _INTS, op_name)
    _op_dtype(counts.dtype, _HALF_FLOAT_DOUBLE + _INTS, op_name, "T")
    if counts.dtype in _INTS:  # allowed by the op, but TF has no kernel for it
        attrs = f"[dtype=DT_{dtype.name.upper()}, T=DT_{counts.dtype.name.upper()}]"
        if stateful:
            raise errors.op_error(errors.InvalidArgumentError, op_name,
                                  f"No OpKernel was registered to support Op '{op_name}' used "
                                  f"by {{{{node {op_name}}}}} with these attrs: {attrs}")
        raise errors.op_error(errors.NotFoundError, op_name, f"Could not find device for "
                              f"node: {{{{node {op_name}}}}} = {op_name}{attrs}")
    _same_dtype(op_name, (counts, probs), 3 if stateful else 2)
    if isinstance(seed, Algorithm):
        if not isinstance(shape, Tensor) and counts.shape.is_fully_defined() and \
                probs.shape.is_fully_defined():
            _per_binomial([counts.shape.as_list(), probs.shape.as_list()], {"shape": shape})
        raise _kernel_error(errors.InvalidArgumentError, op_name,
                            f"Unsupported algorithm id: {seed.value}")
    return _run(_BINOMIAL, (counts, probs), {"shape": shape, "dtype": dtype}, seed, name)


@export("random.stateless_binomial")
def stateless_binomial(shape, seed, counts, probs, output_dtype=_d.int32, name=None):
    """Binomial samples of `counts` trials of success probabilities `probs` determined by
    `seed`: `shape` ends with the broadcast shape of `counts` and `probs`.

    >>> tf.random.stateless_binomial([4], seed=[1, 2], counts=10.0, probs=0.5).numpy()
    array([6, 6, 7, 7], dtype=int32)
    """
    given = seed  # (TF's wrapper converts the others before its op)
    shape = _shape_attr(shape, "StatelessRandomBinomial")
    probs = convert_to_tensor(probs, dtype_hint=_d.float32)
    counts = convert_to_tensor(counts, dtype_hint=probs.dtype)
    try:
        return _binomial(shape, counts, probs, output_dtype,
                         _seed_input(seed, "StatelessRandomBinomial"), name)
    except errors.OpError as e:  # (Python lists reach TF's op: its slower path)
        raise errors.listed(e, given) from None


@export("random.stateless_parameterized_truncated_normal")
def stateless_parameterized_truncated_normal(shape, seed, means=0.0, stddevs=1.0,
                                             minvals=-2.0, maxvals=2.0, name=None):
    """Normal samples of `means` and `stddevs` truncated to [`minvals`, `maxvals`],
    determined by `seed`: `shape` ends with the parameters' broadcast shape. Gradients
    reach all four parameters.

    >>> tf.random.stateless_parameterized_truncated_normal([3], seed=[7, 11], minvals=0.5,
    ...                                          maxvals=0.7).numpy()
    array([0.64502746, 0.51543015, 0.6083882 ], dtype=float32)
    """
    op_name = "StatelessParameterizedTruncatedNormal"
    shape = _shape_attr(shape, op_name)
    params = tuple(as_tensor(v) for v in (means, stddevs, minvals, maxvals))
    _op_dtype(params[0].dtype, _HALF_FLOAT_DOUBLE, op_name)
    _same_dtype(op_name, params, 2)
    try:
        return _run(_TRUNCATED_WITH, params, {"shape": shape}, _seed_input(seed, op_name),
                    name)
    except errors.OpError as e:  # (a Python list seed reaches TF's op: its slower path)
        raise errors.listed(e, seed) from None


@export("random.experimental.stateless_shuffle")
def stateless_shuffle(value, seed, alg="auto_select", name=None):
    """`value` with its first dimension permuted, as determined by `seed`.

    >>> tf.random.experimental.stateless_shuffle([[1, 2], [3, 4], [5, 6]], seed=[8, 9]).numpy()
    array([[5, 6],
           [1, 2],
           [3, 4]], dtype=int32)
    """
    _stateless_alg(alg, "StatelessShuffle")
    return _run(_SHUFFLE, (as_tensor(value),), _NO_ATTRS,
                _seed_input(seed, "StatelessRandomGetKeyCounter"), name)


_INDEX_SHUFFLE_PAD = 498247692  # the seed's added first value


@export("random.experimental.index_shuffle")
def index_shuffle(index, seed, max_index):
    """The position of `index` in the permutation of ``[0, ..., max_index]`` that `seed`
    (shape [2]) picks, computed without the permutation; vectors of indices (and bounds)
    give one position each.

    >>> tf.random.experimental.index_shuffle(range(4), seed=[5, 9], max_index=65535).numpy()
    array([51675, 37155, 22284, 16268], dtype=int32)
    """
    seed = as_tensor(seed)
    # As TF: the seed's first dimension (not its last) takes one more value, so that the
    # usual [2] seed becomes the [3] of the op (an [n, 2] one an invalid [n + 1, 2]).
    paddings = [[1, 0]] + [[0, 0]] * ((seed.shape.rank or 1) - 1)
    seed = array_ops.pad(seed, paddings, constant_values=_INDEX_SHUFFLE_PAD)
    index, max_index = binary_operands(index, max_index)
    _op_dtype(index.dtype, _INDEX_TYPES, "RandomIndexShuffle")
    _op_dtype(seed.dtype, _INDEX_TYPES, "RandomIndexShuffle", "Tseed")
    return dispatch(_INDEX_SHUFFLE, (index, seed, max_index), {"rounds": 4})


@export("random_index_shuffle")
def random_index_shuffle(index, seed, max_index, rounds=4, name=None):
    """The ``RandomIndexShuffle`` op: `index_shuffle` with the op's own [3] seed (or
    [n, 3] seeds).

    >>> int(tf.random_index_shuffle(tf.constant(3, tf.int64), tf.constant([1, 2, 3], tf.int64),
    ...                             tf.constant(9, tf.int64)))
    4
    """
    index, max_index = binary_operands(index, max_index)
    seed = as_tensor(seed)
    _op_dtype(index.dtype, _INDEX_TYPES, "RandomIndexShuffle")
    _op_dtype(seed.dtype, _INDEX_TYPES, "RandomIndexShuffle", "Tseed")
    return dispatch(_INDEX_SHUFFLE, (index, seed, max_index), {"rounds": int(rounds)}, name)


@export("random.create_rng_state", "random.experimental.create_rng_state")
def create_rng_state(seed, alg):
    """The state of a generator of algorithm `alg` seeded with `seed` (an integer or a
    sequence of them): int64 of shape [3] for Philox, [2] for ThreeFry.

    >>> tf.random.create_rng_state(1234, "philox").numpy()
    array([1234,    0,    0])
    """
    return convert_to_tensor(np.array(_state_from_seed(seed, _state_size(alg)), np.uint64).view(np.int64))


# -- Generator --------------------------------------------------------------------------------

def _state_size(alg):
    """The 64-bit words of a state of algorithm `alg` (None: Philox)."""
    return 2 if alg is not None and _algorithm(alg) is Algorithm.THREEFRY else 3


def _state_from_seed(seed, size=3):
    """A state of `size` 64-bit words (Philox: ``[counter low, counter high, key]``) from a
    Python integer (its 64-bit chunks, two's complement, low first) or anything else made
    int64 and flat, cut to `size` words and zero-padded on the left: a short seed keys the
    stream rather than moving its counter."""
    if isinstance(seed, int):
        return [(seed >> (64 * i)) & _U64 for i in range(size)]
    values = _words(seed)[:size]
    return [0] * (size - len(values)) + values


def _words(value):
    """The 64-bit words (two's complement, as Python ints) of `value` flattened: exact for
    Python integers past int64's range, which NumPy would make floats."""
    if isinstance(value, (list, tuple)):
        return [w for v in value for w in _words(v)]
    if isinstance(value, (int, np.integer)):
        return [int(value) & _U64]
    values = np.asarray(value.numpy() if isinstance(value, (Tensor, Variable)) else value)
    if values.dtype.kind not in "iu":
        values = values.astype(np.int64)
    return [int(v) & _U64 for v in values.reshape(-1).tolist()]


def _state_array(state, size):
    """`state` (of `size` 64-bit words) as the int64 array a Generator's variable holds."""
    shape = tuple(state.shape) if isinstance(state, (Tensor, Variable)) else np.shape(state)
    if shape != (size,):
        raise ValueError(f"Shapes {shape} and [{size}] are incompatible")
    return np.array(_words(state), np.uint64).view(np.int64)


@export("random.Generator", "random.experimental.Generator")
class Generator:
    """A random number generator whose state (a Philox key and counter) advances with each
    call by 256 blocks per value drawn.

    >>> tf.random.Generator.from_seed(1).normal([3]).numpy()
    array([ 0.43842274, -0.53439844, -0.07710262], dtype=float32)
    """

    def __init__(self, copy_from=None, state=None, alg=None):
        if copy_from is not None:
            if state is not None or alg is not None:
                raise ValueError("When `copy_from` is not None, neither `state` nor `alg` "
                                 "should be given.")
            state, alg = copy_from.state.numpy(), copy_from._alg  # (a new variable)
        if state is None:
            raise ValueError("Generator needs `copy_from` or `state` (or use `from_seed`).")
        self._alg = Algorithm.PHILOX if alg is None else _algorithm(alg)
        # (made under a strategy's scope, its replicas draw apart: see `_replica_key`)
        self._distribution_strategy = distribution_context.current_strategy()
        self._lock = threading.Lock()
        self._takes = 0  # (calls that took values: see `_skipped_first`)
        size = _state_size(self._alg)
        # TF's state variable: ops read and assign it; each call's draw advances it in place
        # (made with its first value: a TF 1 graph's session sets it by its initializer)
        self._state_var = Variable(_state_array(state, size), trainable=False,
                                   name="StateVar")

    @classmethod
    def from_seed(cls, seed, alg=None):
        """A generator whose state is `seed` cut into 64-bit chunks.

        >>> tf.random.Generator.from_seed(1).state.numpy()
        array([1, 0, 0])
        """
        return cls(state=_state_from_seed(seed, _state_size(alg)), alg=alg)

    @classmethod
    def from_non_deterministic_state(cls, alg=None):
        if config._settings["op_determinism"]:
            raise RuntimeError('"from_non_deterministic_state" cannot be called when '
                               'determinism is enabled.')
        return cls(state=[_random_bits() for _ in range(_state_size(alg))], alg=alg)

    @classmethod
    def from_state(cls, state, alg):
        return cls(state=state, alg=alg)

    @classmethod
    def from_key_counter(cls, key, counter, alg):
        counter = np.asarray(counter)
        if np.shape(key) != () or counter.shape != (_state_size(alg) - 1,):
            bad, size = (np.shape(key), []) if np.shape(key) != () else (
                counter.shape, [_state_size(alg) - 1])
            raise ValueError(f"Shapes {bad} and {size} are incompatible")
        return cls(state=[*counter.tolist(), int(key)], alg=alg)

    def reset(self, state):
        """Replaces the state: Philox's ``[counter low, counter high, key]``, ThreeFry's
        ``[counter, key]`` (64 bits each)."""
        array = _state_array(state, self._state_var.shape[0])
        with self._lock:
            self._state_var.handle.value = array

    def reset_from_seed(self, seed):
        self.reset(_state_from_seed(seed, self._state_var.shape[0]))

    def reset_from_key_counter(self, key, counter):
        self.reset([*np.asarray(counter).reshape(-1).tolist(), int(key)])

    def _read(self):
        """``(counter, key)`` from the state variable (its current value, however set)."""
        words = [int(v) & _U64 for v in np.asarray(self._state_var.handle.value).tolist()]
        if len(words) == 2:
            return words[0], words[1]
        return words[0] | words[1] << 64, words[2]

    def _write(self, counter, key):
        words = ([counter & _U64, counter >> 64, key] if self._state_var.shape[0] == 3
                 else [counter & _U64, key])
        self._state_var.handle.value = np.array(words, np.uint64).view(np.int64)

    @property
    def state(self):
        """The state variable: int64 ``[counter low, counter high, key]`` for Philox.

        >>> g = tf.random.Generator.from_seed(1); _ = g.normal([3]); g.state.numpy()
        array([769,   0,   0])
        """
        return self._state_var

    @property
    def key(self):
        return convert_to_tensor(np.array(self._read()[1], np.uint64).view(np.int64))

    # -- checkpoints: TF saves the state as the generator's variable "_state_var" ---------
    def _trackable_children(self):
        return {"_state_var": self._state_var}

    @property
    def algorithm(self):
        return self._alg.value

    def skip(self, delta):
        """Advances the state as if `delta` values had been drawn."""
        if context.get().graph is not None:  # (TF's op: `delta` may be known only at run time)
            delta = late.cast_ops.cast(delta, _d.uint64)
            alg = as_tensor(self._alg.value, _d.int32)
            return dispatch(_RNG_READ_AND_SKIP, (self._state_var, alg, delta))
        self._check_philox()
        with self._lock:
            before = self._state_var.handle.value
            counter, key = self._read()
            self._write(philox.skip_values(counter, delta), key)
        return convert_to_tensor(before)  # (TF's: the state before the skip)

    def take(self, seed, seed2, samples):
        """``(key, counter high, counter low)`` of the next call, which takes `samples` blocks
        (the state a graph's op reads at each run; `seed` and `seed2` are unused)."""
        with self._lock:
            counter, key = self._read()
            self._write((counter + samples) % 2**128, key)
            self._takes += 1
        journal = getattr(_journal, "takes", None)
        if journal is not None:
            journal.append((self, key, counter, samples))
        replica = self._replica_id()
        if replica is not None:
            key = int(philox.full_int(np, key, replica, (1,), np.uint64)[0])
        return key, counter >> 64, counter & _U64

    def _replica_id(self):
        """The replica this draw runs as, when the generator was made under the scope of
        the strategy whose `run` this is; else None. As TF's, each replica then draws at
        its own key: the generator's key hashed with the replica id (one 64-bit word of
        Philox at that key, counter ``[replica_id, 0]``)."""
        if self._distribution_strategy is None:
            return None
        return distribution_context.replica_id_in(self._distribution_strategy)

    def give_back(self, key, counter, samples):
        """Returns the blocks a call took from `counter` (see `Draws`), unless the state
        moved on since."""
        with self._lock:
            if self._read() == ((counter + samples) % 2**128, key):
                self._write(counter, key)

    def _check_philox(self):
        """TF's CPU kernels advance only a Philox state."""
        if self._alg is Algorithm.THREEFRY:
            raise _kernel_error(errors.UnimplementedError, "RngReadAndSkip",
                                "Non-XLA devices don't support the ThreeFry algorithm.")

    def _next(self, shape=None):
        """The seed attrs of one call: the stream is taken when it runs. In a graph, a draw
        of `shape` is TF's: its state variable read and skipped past the draw's values
        (``RngReadAndSkip``), so a SavedModel's function holds the variable and goes on
        from its saved state, as TF's does."""
        self._check_philox()
        if shape is None or context.get().graph is None:
            return {"seed": 0, "seed2": 0, "stream": self}
        draws = _row_draws.get()
        if draws is not None and draws.mode == "record":
            draws.skip(self, shape)
        cast_ops = late.cast_ops
        if isinstance(shape, Tensor):
            delta = cast_ops.cast(reduce_prod(shape), _d.uint64)
        else:
            delta = as_tensor(int(np.prod(shape, dtype=np.int64)), _d.uint64)
        alg = as_tensor(self._alg.value, _d.int32)
        state = dispatch(_RNG_READ_AND_SKIP, (self._state_var, alg, delta))
        key = cast_ops.bitcast(state[2:3], _d.uint64)
        replica = self._replica_id()
        if replica is not None:  # (see `_replica_id`)
            key = dispatch(_FULL_INT_V2, (as_tensor([1], _d.int32), key,
                                          as_tensor([replica, 0], _d.uint64), alg),
                           {"dtype": _d.uint64})
        return _KeyCounter(key, cast_ops.bitcast(state[:2], _d.uint64), alg)

    @contextlib.contextmanager
    def _skipped_first(self, shape):
        """Eagerly, the state moved past a draw of `shape` even where its op fails (its
        dtype, its shape), as TF's methods skip the state before running the op; only the
        conversions before (a bound not of the dtype: TypeError) leave it as it was."""
        if context.get().graph is not None:
            yield
            return
        before = self._takes
        try:
            yield
        except errors.OpError:
            if self._takes == before:  # (the op failed before taking its values)
                if isinstance(shape, TensorShape):
                    shape = shape.as_list()
                self.skip(int(np.prod(np.asarray(shape), dtype=np.int64)))
            raise

    def normal(self, shape, mean=0.0, stddev=1.0, dtype=_d.float32, name=None):
        """Normal values; see `normal`."""
        dtype = _d.as_dtype(dtype)
        as_tensor(mean, dtype), as_tensor(stddev, dtype)  # (TypeError for ints: no skip)
        with self._skipped_first(shape):
            shape = _shape_attr(shape, "RandomStandardNormal")
            return _normal(_NORMAL, shape, mean, stddev, dtype, self._next(shape), name)

    def truncated_normal(self, shape, mean=0.0, stddev=1.0, dtype=_d.float32, name=None):
        """Truncated normal values; see `truncated_normal`."""
        dtype = _d.as_dtype(dtype)
        as_tensor(mean, dtype), as_tensor(stddev, dtype)  # (TypeError for ints: no skip)
        with self._skipped_first(shape):
            shape = _shape_attr(shape, "TruncatedNormal")
            return _normal(_TRUNCATED, shape, mean, stddev, dtype, self._next(shape), name)

    def uniform(self, shape, minval=0, maxval=None, dtype=_d.float32, name=None):
        """Uniform values; integers take both bounds, or neither for the type's whole range."""
        dtype = _d.as_dtype(dtype)
        _check_int_bounds(dtype, minval, maxval, (
            "For integer dtype {dtype}, minval and maxval must be both `None` or both "
            "non-`None`; got minval={minval} and maxval={maxval}"))
        if not (dtype.is_integer and minval is None):
            # (as TF's, the bounds convert to `dtype` first: a string or bool dtype's
            # TypeError, the state as it was)
            as_tensor(minval, dtype), as_tensor(1 if maxval is None else maxval, dtype)
        with self._skipped_first(shape):
            shape = _shape_attr(shape, "RandomUniform")
            if dtype.is_integer:
                _op_dtype(dtype, _FULL_INTS, "RandomUniformInt")
            else:
                _op_dtype(dtype, FLOAT, "RandomUniform")
            return _uniform(shape, minval, maxval, dtype, self._next(shape), name, True)

    def uniform_full_int(self, shape, dtype=_d.uint64, name=None):
        """Integers spanning the whole range of `dtype`."""
        with self._skipped_first(shape):
            shape = _shape_attr(shape, "StatefulUniformFullInt")
            dtype = _op_dtype(dtype, _FULL_INTS, "StatefulUniformFullInt")
            attrs = {"shape": shape, "dtype": dtype}
            return _run(_FULL_INT, (), attrs, self._next(attrs["shape"]), name)

    def binomial(self, shape, counts, probs, dtype=_d.int32, name=None):
        """Binomial samples of `counts` trials of success probabilities `probs`: `shape`
        ends with their broadcast shape (see `stateless_binomial`)."""
        counts, probs = as_tensor(counts), as_tensor(probs)
        shape = _shape_attr(shape, "StatefulRandomBinomial")
        if self._alg is not Algorithm.PHILOX:  # (TF's kernel draws with Philox only)
            return _binomial(shape, counts, probs, dtype, self._alg, name)
        return _binomial(shape, counts, probs, dtype, self._next(), name)

    def make_seeds(self, count=1):
        """`count` new seeds for stateless ops: int64 of shape [2, count], keys over zeros.

        >>> tf.random.Generator.from_seed(0).make_seeds(2).numpy()[1]
        array([0, 0])
        """
        keys = self.uniform_full_int([count], dtype=_d.int64)  # (ops: it works in a graph)
        return array_ops.stack([keys, array_ops.zeros_like(keys)])

    def split(self, count=1):
        """`count` new generators, of state ``[0, 0, key]`` with keys drawn from this one."""
        keys = self.uniform_full_int([count], dtype=_d.int64).numpy()
        return [Generator(state=[0, 0, int(k)], alg=self._alg) for k in keys]


class _KeyCounter:
    """The key, counter and algorithm (tensors) of a Generator's draw in a graph."""

    def __init__(self, key, counter, alg):
        self.key, self.counter, self.alg = key, counter, alg


_GLOBAL_GENERATOR = []  # holds the global generator once made


@export("random.get_global_generator", "random.experimental.get_global_generator")
def get_global_generator():
    """The generator that `Generator`-style code uses by default (nondeterministic).

    >>> tf.random.get_global_generator() is tf.random.get_global_generator()
    True
    """
    with _STATE.lock:
        if not _GLOBAL_GENERATOR:
            if config._settings["op_determinism"]:
                raise RuntimeError('"get_global_generator" cannot be called if determinism is '
                                   'enabled, unless "set_global_generator" has already been '
                                   'called. Please call "set_global_generator" first.')
            _GLOBAL_GENERATOR.append(Generator.from_non_deterministic_state())
        return _GLOBAL_GENERATOR[0]


@export("random.set_global_generator", "random.experimental.set_global_generator")
def set_global_generator(generator):
    """Replaces the global generator with `generator`."""
    with _STATE.lock:
        _GLOBAL_GENERATOR[:] = [generator]


# A Generator's binomial draws in a graph (its other draws are TF's key/counter ops, see
# `Generator._next`), and these ops read from GraphDefs: TF's ops read the state variable,
# which these graphs do not hold; as in the seeded ops above, a graph written out draws a new
# stream, here through a stateful op's seed for TF's stateless form.
def _lower_full_int(inputs, attrs):
    shape = inputs[-1] if attrs.get("shape") is None else attrs["shape"]  # (run time's)
    seed = uniform([2], minval=_d.int64.min, maxval=_d.int64.max, dtype=_d.int64)
    return [stateless_uniform(shape, seed, None, None, attrs["dtype"])]


def _lower_binomial(inputs, attrs):
    shape = inputs[-1] if attrs.get("shape") is None else attrs["shape"]
    seed = uniform([2], minval=_d.int64.min, maxval=_d.int64.max, dtype=_d.int64)
    return [stateless_binomial(shape, seed, inputs[0], inputs[1], attrs["dtype"])]


tf_nodes[_FULL_INT[0]] = NodeForm(lower=_lower_full_int)
tf_nodes[_BINOMIAL[0]] = NodeForm(lower=_lower_binomial)


# -- gradients (TF's) ------------------------------------------------------------------------

@register_gradient("StatelessShuffle")
def _stateless_shuffle_grad(op, grad):
    # TF has neither a gradient nor a not-differentiable mark for it: differentiating
    # through it is its LookupError
    raise LookupError(f"gradient registry has no entry for: {op.type}")


@register_gradient("RandomGamma")
@register_gradient("StatelessRandomGammaV2")
def _gamma_grad(op, dy):
    """Through alpha only, by implicit differentiation of the samples."""
    alpha = op.inputs[0]
    partial = random_gamma_grad(alpha, op.outputs)  # (the op's one output)
    return (unbroadcast(math_ops.multiply(dy, partial), alpha), *[None] * (len(op.inputs) - 1))


def _ndtr(x):
    """The standard normal CDF (from erf near 0, erfc in the tails)."""
    w = x * (0.5 * math.sqrt(2))
    z = math_ops.abs(w)
    y = array_ops.where(z < 0.5 * math.sqrt(2), 1 + math_ops.erf(w),
                        array_ops.where(w > 0, 2 - math_ops.erfc(z), math_ops.erfc(z)))
    return 0.5 * y


@register_gradient("StatelessParameterizedTruncatedNormal")
def _truncated_with_grad(op, dy):
    """TF's: implicit differentiation in the bounds, 1 and the standardized sample for the
    mean and deviation (the central reduction sums over the sample dimensions)."""
    mean, stddev, low, high = op.inputs[:4]
    low, high, sample = ((v - mean) / stddev for v in (low, high, op.outputs))
    cdf = (_ndtr(sample) - _ndtr(low)) / (_ndtr(high) - _ndtr(low))
    info = np.finfo(mean.dtype.as_numpy_dtype)
    cdf = clip_by_value(cdf, info.tiny, 1 - info.eps)  # keeps the logs finite
    square = math_ops.square(sample)
    d_high = math_ops.exp(0.5 * (square - math_ops.square(high)) + math_ops.log(cdf))
    d_low = math_ops.exp(0.5 * (square - math_ops.square(low)) + math_ops.log1p(-cdf))
    return (dy, dy * sample, dy * d_low, dy * d_high, *[None] * (len(op.inputs) - 4))


# No batching rule: a vectorized graph runs these once per batch element.
batching_rules.assign(PER_ELEMENT, _INDEX_SHUFFLE)


# -- TF's key/counter ops: a stateless seed or a Generator's state as a Philox key and counter,
# and the draws from them (TF's graphs of `Generator` draws and of the stateless functions) --

def _philox_alg(alg, op_name):
    """Checks an `alg` input: Philox, or auto-selected (Philox on CPU)."""
    alg = int(alg)
    if alg == Algorithm.THREEFRY.value and op_name == "RngReadAndSkip":
        raise errors.UnimplementedError(None, None, "Non-XLA devices don't support the "
                                        "ThreeFry algorithm.")
    if alg not in (Algorithm.PHILOX.value, Algorithm.AUTO_SELECT.value):
        raise errors.InvalidArgumentError(None, None, f"Unsupported algorithm id: {alg}")


def _key_counter(xp, seed):
    key, counter = philox.stateless_key_counter(*_seed_words(seed))
    return (np.array([key], np.uint64), np.array([counter & _U64, counter >> 64], np.uint64))


def _key_counter_alg(xp, seed):
    return (*_key_counter(xp, seed), np.array(Algorithm.PHILOX.value, np.int32))


def _key_counter_rule(seed, **_):
    return [(TensorShape([1]), _d.uint64), (TensorShape([2]), _d.uint64)]


_GET_KEY_COUNTER = register("StatelessRandomGetKeyCounter", _key_counter, _key_counter_rule,
                            multi=True, dtypes=_INTS, type_attr="Tseed",
                            not_differentiable="random")
_GET_KEY_COUNTER_ALG = register(
    "StatelessRandomGetKeyCounterAlg", _key_counter_alg,
    lambda seed, **_: [*_key_counter_rule(seed), (TensorShape([]), _d.int32)],
    multi=True, dtypes=_INTS, type_attr="Tseed", not_differentiable="random")
_GET_ALG = register("StatelessRandomGetAlg",
                    lambda xp: np.array(Algorithm.PHILOX.value, np.int32),
                    lambda **_: (TensorShape([]), _d.int32), tied=(),
                    not_differentiable="random")
for _op, _outputs in ((_GET_KEY_COUNTER, ("key", "counter")),
                      (_GET_KEY_COUNTER_ALG, ("key", "counter", "alg"))):
    tf_args[_op] = ("seed",)
    tf_nodes[_op] = NodeForm(types={"Tseed": 0}, outputs=_outputs)
tf_args[_GET_ALG] = ()
tf_nodes[_GET_ALG] = NodeForm(types={}, outputs=("alg",))


def _rng_read_and_skip(xp, handle, alg, delta):
    """The state before, its Philox counter advanced by `delta` values' blocks."""
    _philox_alg(alg, "RngReadAndSkip")
    before = np.asarray(handle.value)
    if before.shape != (3,):
        raise errors.InvalidArgumentError(
            None, None, f"The size of the state must be at least 3; got {before.size}")
    words = [int(w) & _U64 for w in before.tolist()]
    counter = philox.skip_values(words[0] | words[1] << 64, int(delta))
    handle.value = np.array([counter & _U64, counter >> 64, words[2]], np.uint64).view(np.int64)
    return before.copy()


_RNG_READ_AND_SKIP = register("RngReadAndSkip", _rng_read_and_skip,
                              lambda *_, **__: (TensorShape([3]), _d.int64), tied=(),
                              stateful=True, not_differentiable="random")
tf_args[_RNG_READ_AND_SKIP] = ("resource", "alg", "delta")
tf_nodes[_RNG_READ_AND_SKIP] = NodeForm(types={}, outputs=("value",))


def _key_counter_draw(draw, op_name):
    """The kernel of a V2 op drawing `draw` at a key and counter: inputs shape, key,
    counter, alg and the draw's parameters."""
    def kernel(xp, shape, key, counter, alg, *params, **attrs):
        _philox_alg(alg, op_name)
        if key.shape != (1,):
            raise errors.InvalidArgumentError(
                None, None, f"key must have shape [1], not {shape_text(key.shape)}. (Note "
                            f"that batched keys are not supported yet.)")
        if counter.ndim != 1 or counter.shape[0] < 2:
            raise errors.InvalidArgumentError(
                None, None, f"counter must be a vector with length at least 2; got shape: "
                            f"{shape_text(counter.shape)}. (Note that batched counters are "
                            f"not supported yet.)")
        words = [int(w) & _U64 for w in counter[:2].tolist()]
        shape = tuple(int(d) for d in np.asarray(shape).reshape(-1).tolist())
        return draw(xp, int(key[0]) & _U64, words[0] | words[1] << 64, *params, shape=shape,
                    **attrs)
    kernel.__name__ = draw.__name__
    return kernel


def _v2_rule(shape, *_, dtype, **__):
    known = shape_rules.known_elements(shape)
    return (unknown_shape() if known is None else TensorShape(known)), dtype


def _v2_int_rule(shape, key, counter, alg, minval, *_, **__):
    known = shape_rules.known_elements(shape)
    return (unknown_shape() if known is None else TensorShape(known)), minval.dtype


def _register_v2(name, draw, rule=_v2_rule, **kw):
    op = register(name, _key_counter_draw(draw, name), rule, type_attr="Tshape",
                  not_differentiable="random", **kw)
    tf_args[op] = ("shape", "key", "counter", "alg")
    tf_nodes[op] = NodeForm(types={"Tshape": 0})  # (dtype: the kernel's attr)
    return op


_UNIFORM_V2 = _register_v2("StatelessRandomUniformV2", _draw_uniform, dtypes=_INTS)
_NORMAL_V2 = _register_v2("StatelessRandomNormalV2", _draw_normal, dtypes=_INTS)
_TRUNCATED_V2 = _register_v2("StatelessTruncatedNormalV2", _draw_truncated_normal,
                             dtypes=_INTS)
_FULL_INT_V2 = _register_v2("StatelessRandomUniformFullIntV2", _draw_full_int, dtypes=_INTS)
tf_defaults.assign({"dtype": _d.float32}, _UNIFORM_V2, _NORMAL_V2, _TRUNCATED_V2)
tf_defaults[_FULL_INT_V2] = {"dtype": _d.uint64}
_UNIFORM_INT_V2 = register(
    "StatelessRandomUniformIntV2", _key_counter_draw(_draw_uniform_int,
                                                     "StatelessRandomUniformIntV2"),
    _v2_int_rule, tied=(4, 5), dtypes=_FULL_INTS, type_attr="dtype",
    not_differentiable="random")
tf_args[_UNIFORM_INT_V2] = ("shape", "key", "counter", "alg", "minval", "maxval")
tf_nodes[_UNIFORM_INT_V2] = NodeForm(types={"Tshape": 0, "dtype": 4})
# the V2 op drawing as each stateful op does, at a Generator's key and counter (in a graph)
_KEY_COUNTER_OPS = {_NORMAL[0].name: _NORMAL_V2, _TRUNCATED[0].name: _TRUNCATED_V2,
                    _UNIFORM[0].name: _UNIFORM_V2, _FULL_INT[0].name: _FULL_INT_V2,
                    _UNIFORM_INT[0].name: _UNIFORM_INT_V2}
# No batching rule: a vectorized graph runs these once per batch element.
batching_rules.assign(PER_ELEMENT, _GET_KEY_COUNTER, _GET_KEY_COUNTER_ALG, _GET_ALG,
                      _RNG_READ_AND_SKIP, _UNIFORM_V2, _NORMAL_V2, _TRUNCATED_V2,
                      _FULL_INT_V2, _UNIFORM_INT_V2)
