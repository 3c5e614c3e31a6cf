"""TF 1's `Session`: runs parts of a v1 `Graph`, each distinct (fetches, feeds) pair pruned
and compiled once by the executor of `function`, then cached.

>>> g = tf.compat.v1.Graph()
>>> with g.as_default():
...     x = tf.compat.v1.placeholder(tf.float32, [None], name="x")
...     y = x * 2.0
>>> with tf.compat.v1.Session(graph=g) as sess:
...     sess.run({"y": y, "both": (x, y)}, feed_dict={"x:0": [1.0, 2.0]})
{'y': array([2., 4.], dtype=float32), 'both': (array([1., 2.], dtype=float32), array([2., 4.], dtype=float32))}
"""
import collections
import contextlib
import threading
import time

import numpy as np

from eagerflow._src import backend
from eagerflow._src.backend.api_export import export
from eagerflow._src.checkpoint import trackable as _trackable
from eagerflow._src.compat import graph_mode, ragged_v1, variable_scope
from eagerflow._src.compat.v1 import _prune
from eagerflow._src.compat.v1 import needed_ops as _needed_ops
from eagerflow._src.core import dtypes as _d
from eagerflow._src.core import errors, nest
from eagerflow._src.core.tensor import EagerTensor
from eagerflow._src.core.variables import Variable
from eagerflow._src.graph.graph import Operation, SymbolicTensor
from eagerflow._src.ops import accumulator_ops, data_flow_ops, random_ops
from eagerflow._src.ops.indexed_slices import IndexedSlices
from eagerflow._src.ops.sparse_tensor import SparseTensor
from eagerflow._src.ragged.ragged_tensor import RaggedTensor

_default = threading.local()
_PLAIN = (SymbolicTensor, Operation, Variable, str)  # fetches `run` may key by identity

SparseTensorValue = collections.namedtuple("SparseTensorValue",
                                           ["indices", "values", "dense_shape"])
SparseTensorValue.__doc__ = """A sparse tensor's value as `Session.run` fetches it and a feed of
a `SparseTensor` (a `sparse_placeholder`) takes it: `indices`, `values` and `dense_shape`
(``tf.compat.v1.SparseTensorValue``).

>>> tf.compat.v1.SparseTensorValue([[0, 1]], [1.0], [2, 3])
SparseTensorValue(indices=[[0, 1]], values=[1.0], dense_shape=[2, 3])
"""
export("compat.v1.SparseTensorValue")(SparseTensorValue)


class _DeviceAttributes:
    """A device as `Session.list_devices` gives it."""

    def __init__(self, name, device_type, memory_limit_bytes, incarnation):
        self.name, self.device_type = name, device_type
        self.memory_limit_bytes, self.incarnation = memory_limit_bytes, incarnation

    def __repr__(self):
        return (f"_DeviceAttributes({self.name}, {self.device_type}, {self.memory_limit_bytes}, "
                f"{self.incarnation})")


_INCARNATION = int(np.random.default_rng().integers(1 << 62))  # (TF's: random, per process)
_CPU_MEMORY_LIMIT = 268435456  # (the figure TF reports for its CPU device)

# (TF's value of a fetched IndexedSlices; not a public name)
IndexedSlicesValue = collections.namedtuple("IndexedSlicesValue",
                                            ["values", "indices", "dense_shape"])


# A fetched `RaggedTensor`'s parts, made a `RaggedTensorValue` once fetched
_RaggedParts = collections.namedtuple("_RaggedParts", ["flat_values", "nested_row_splits"])


def _composite_fetch(fetch):
    """A fetched `SparseTensor` (`IndexedSlices`) as its three tensors, fetched as a
    `SparseTensorValue` (an ``IndexedSlicesValue``); a `RaggedTensor` as its parts."""
    if isinstance(fetch, SparseTensor):
        return SparseTensorValue(fetch.indices, fetch.values, fetch.dense_shape)
    if isinstance(fetch, IndexedSlices):
        return IndexedSlicesValue(fetch.values, fetch.indices, fetch.dense_shape)
    if isinstance(fetch, RaggedTensor):
        return _RaggedParts(fetch.flat_values, tuple(fetch.nested_row_splits))
    return fetch


def _fetched_value(value):
    """A fetch's value, a ragged tensor's parts made its `RaggedTensorValue`."""
    return ragged_v1.from_parts(*value) if isinstance(value, _RaggedParts) else value


def _parts_fed(key, value):
    """The (tensor, value) feeds of a composite `key` (a sparse or ragged placeholder) given
    `value`, or [(key, value)]."""
    if isinstance(key, SparseTensor):
        return list(zip((key.indices, key.values, key.dense_shape), value))
    if isinstance(key, RaggedTensor):
        if not isinstance(value, (ragged_v1.RaggedTensorValue, RaggedTensor)):
            raise TypeError(f"Cannot feed a {type(value).__name__} to a RaggedTensor: a "
                            f"RaggedTensorValue is expected")
        if value.ragged_rank != key.ragged_rank:
            raise ValueError(f"Cannot feed a value of ragged rank {value.ragged_rank} to a "
                             f"RaggedTensor of ragged rank {key.ragged_rank}")
        return list(zip((key.flat_values, *key.nested_row_splits),
                        (value.flat_values, *value.nested_row_splits)))
    return [(key, value)]


class _Options:
    """A TF 1 options message, accepted for its fields (which eagerflow does not need)."""

    def __init__(self, **fields):
        self.__dict__.update(fields)

    def __getattr__(self, name):
        if name.startswith("__"):
            raise AttributeError(name)
        found = _Options()
        self.__dict__[name] = found
        return found

    def __repr__(self):
        return f"{type(self).__name__}({self.__dict__})"


@export("compat.v1.ConfigProto")
class ConfigProto(_Options):
    """Session options (``tf.compat.v1.ConfigProto``): accepted, not needed here."""


@export("compat.v1.GPUOptions")
class GPUOptions(_Options):
    """GPU options of a `ConfigProto`: accepted."""


@export("compat.v1.RunOptions")
class RunOptions(_Options):
    """Options of one `Session.run`: accepted."""

    NO_TRACE, SOFTWARE_TRACE, HARDWARE_TRACE, FULL_TRACE = 0, 1, 2, 3


@export("compat.v1.GraphOptions")
class GraphOptions(_Options):
    """Graph options of a `ConfigProto`: accepted."""


@export("compat.v1.OptimizerOptions")
class OptimizerOptions(_Options):
    """Optimizer options of a `GraphOptions`: accepted."""


@export("compat.v1.get_default_session")
def get_default_session():
    """The session of the innermost ``with Session()`` block (or `InteractiveSession`)."""
    stack = getattr(_default, "stack", None)
    return stack[-1] if stack else None


def resolve(session):
    session = session or get_default_session()
    if session is None:
        raise ValueError("Cannot evaluate tensor using `eval()`: No default session is "
                         "registered. Use `with sess.as_default()` or pass an explicit session "
                         "to `eval(session=sess)`")
    return session


class _DefaultBlock:
    def __init__(self, session):
        self._session = session

    def __enter__(self):
        _default.__dict__.setdefault("stack", []).append(self._session)
        return self._session

    def __exit__(self, *exc):
        _default.stack.remove(self._session)


def _dtype_name(dtype):
    return {"float32": "float", "float64": "double", "string": "string"}.get(dtype.name,
                                                                            dtype.name)


def run_error(cls, op, node, message, location=None):
    """TF 1's error of class `cls` for node `node` (of `op`, the session graph's operation,
    or None) failing in a run with `message`: where the node was made (`location`, else
    the op's) and its name, as a Session words it."""
    location = location or getattr(op, "location", None)
    text = "Graph execution error:\n\n"
    if location is not None and node is not None:
        frames = "".join(f'    File "{file}", line {line}, in {function}\n'
                         for file, line, function in location[2])
        text += (f"Detected at node '{node}' defined at (most recent call last):\n{frames}"
                 f"Node: '{node}'\n")
    text += message
    if node is not None:
        text += f"\n\t [[{{{{node {node}}}}}]]"
    try:
        node_def = None if op is None else op.node_def
    except Exception:  # noqa: BLE001 (an op TF's NodeDef cannot hold)
        node_def = None
    return cls(node_def, op, text)


@export("compat.v1.Session")
class Session:
    """Runs a v1 graph (``tf.compat.v1.Session``), holding its own variable values.

    `run` computes `fetches` (tensors, operations, their names, in any nested
    structure) from `feed_dict`; each distinct set of fetches and feeds is pruned
    and compiled once, so repeated steps cost one call of compiled code.
    """

    def __init__(self, target="", graph=None, config=None):
        del target, config
        self._graph = graph if graph is not None else graph_mode.default_v1_graph()
        self._store = {}     # variable handle -> its array in this session
        self._cache = {}     # (fetch ids, feed ids) -> (compiled run, feeds, plan)
        self._fast = {}      # ids of plain fetches and feed keys -> what `run` needs of them
        self._closed = False
        self._default_block = None
        self._partial = {}   # partial_run handle -> (fetches, feeds, values so far)
        self._random = {}    # random op's state -> its state in this session

    graph = property(lambda self: self._graph)
    graph_def = property(lambda self: self._graph.as_graph_def())
    sess_str = b""  # (the target: in-process)

    def as_default(self):
        """Makes this the default session (`Tensor.eval`, `Operation.run`) in the block."""
        return _DefaultBlock(self)

    def __enter__(self):
        self._default_block = _DefaultBlock(self)
        self._default_block.__enter__()
        self._graph_block = self._graph.as_default() if graph_mode.v1_graph() is not \
            self._graph else None
        if self._graph_block is not None:
            self._graph_block.__enter__()
        return self

    def __exit__(self, *exc):
        if self._graph_block is not None:
            self._graph_block.__exit__(*exc)
        self._default_block.__exit__(*exc)
        self.close()

    def close(self):
        """Releases the variable values; later runs raise RuntimeError, and ops of this
        session's runs waiting on a queue raise CancelledError."""
        for value in list(self._store.values()):
            if isinstance(value, (data_flow_ops.QueueState, accumulator_ops.State)):
                value.cancel()
        self._closed = True
        self._store = {}
        self._cache = {}
        self._fast = {}

    def list_devices(self):
        """The devices the session runs on: the CPU."""
        return [_DeviceAttributes(errors.EAGER_DEVICE, "CPU", _CPU_MEMORY_LIMIT, _INCARNATION)]

    # -- running ------------------------------------------------------------------
    def _element(self, fetch):
        graph = self._graph
        if isinstance(fetch, Variable):
            fetch = getattr(fetch, "_snapshot", fetch)
        if isinstance(fetch, str):
            try:
                found = graph.as_graph_element(fetch)
            except (KeyError, ValueError) as e:
                raise ValueError(f"Argument `fetch` = {fetch} cannot be interpreted as a "
                                 f"Tensor. ({e})") from None
            return getattr(found, "_snapshot", found) if isinstance(found, Variable) else found
        if isinstance(fetch, (SymbolicTensor, Operation)):
            if fetch.graph is not graph:
                raise ValueError(f"Argument `fetch` = {fetch} cannot be interpreted as a "
                                 f"Tensor. (Tensor {fetch} is not an element of this graph.)")
            return fetch
        if fetch is None:
            raise TypeError('Argument `fetch` = None has invalid type "NoneType". Cannot be '
                            'None')
        kind = type(fetch).__name__
        raise TypeError(f"Argument `fetch` = {fetch} has invalid type \"{kind}\" must be a "
                        f"string or Tensor. (Can not convert a {kind} into a Tensor or "
                        f"Operation.)")

    def _plan(self, flat_fetches, feeds):
        """The compiled run computing the fetched tensors from `feeds`."""
        tensors = []
        for f in flat_fetches:
            if isinstance(f, SymbolicTensor) and all(f is not t for t in tensors):
                tensors.append(f)
        slots = [None if isinstance(f, Operation) else
                 next(i for i, t in enumerate(tensors) if t is f) for f in flat_fetches]
        ops = [f for f in flat_fetches if isinstance(f, Operation)]
        try:
            function = _prune(self._graph, feeds, tensors, tensors + ops, "session_run")
        except errors.InvalidArgumentError as e:
            # (a placeholder nothing feeds: TF's run error, naming the node)
            error = self._uninitialized_first(feeds, tensors + ops) or e
            op = self._graph.get_operation_by_name(error.op) if isinstance(error.op, str) \
                else error.op
            raise run_error(type(error), op, op.name if op else None, error.message) from None
        return function._run, slots

    def _uninitialized_first(self, feeds, fetches):
        """The error of a read of an uninitialized variable, when TF reports it before the
        missing feeds of the same run, else None.

        TF's executor runs the placeholders and the variable reads of a step side by side
        and reports whichever fails first: in its runs, the reads fail first when they
        outnumber the placeholders left unfed (a training step's reads and updates), the
        missing feed otherwise. A read made to wait for another operation is not counted.
        """
        unfed, reads = 0, []
        control = getattr(self._graph, "control_inputs", {})  # (reads that wait come later)
        for op in _needed_ops(self._graph, feeds, fetches):
            if op.type == "Placeholder" and all(t is not f for t in op.outputs for f in feeds):
                unfed += 1
            elif op.type != "AssignVariableOp" and not control.get(op.name):
                reads += [(op, v) for v in op.inputs if isinstance(v, variable_scope.GraphVariable)
                          and self._store.get(v._handle) is None]
        if len(reads) <= unfed:
            return None
        op, variable = reads[0]
        return errors.FailedPreconditionError(None, op.name, variable_scope.uninitialized_message(
            variable))

    def run(self, fetches, feed_dict=None, options=None, run_metadata=None):
        """The values of `fetches` (NumPy arrays, None for operations) in their structure,
        with `feed_dict` ({tensor or name: value}) replacing the tensors it names; a key
        may be a nested tuple of tensors (an RNN's state), its value of the same structure.

        With `options` giving ``timeout_in_ms``, an op still waiting (on a queue) then
        raises DeadlineExceededError."""
        del run_metadata
        feed_dict = _flat_feeds(feed_dict)
        timeout = getattr(options, "timeout_in_ms", None) if options is not None else None
        if not isinstance(timeout, int) or timeout <= 0:
            return self._run_once(fetches, feed_dict)
        running = variable_scope.running
        outer, running.deadline = getattr(running, "deadline", None), \
            time.monotonic() + timeout / 1000
        try:
            return self._run_once(fetches, feed_dict)
        finally:
            running.deadline = outer

    def _run_once(self, fetches, feed_dict):
        if self._closed:
            raise RuntimeError("Attempted to use a closed Session.")
        # A training loop runs the same fetches with the same feeds each step: a list,
        # tuple or single element of them, and feeds of the placeholders' dtype and shape
        # go straight to the compiled run.
        kind = type(fetches)
        if kind is list or kind is tuple:
            fetch_key = (kind, *map(id, fetches))
        else:
            fetch_key = id(fetches)
        key = (fetch_key, *map(id, feed_dict)) if feed_dict else fetch_key
        fast = self._fast.get(key)
        if fast is not None:
            compiled, slots, checks = fast[:3]
            values = []
            for (t, dtype, dims), value in zip(checks, feed_dict.values() if feed_dict else ()):
                if type(value) is np.ndarray and value.dtype == dtype and _fits(value.shape, dims):
                    values.append(value)
                elif isinstance(value, SymbolicTensor):
                    return self._run(fetches, feed_dict, key, kind)  # (its error)
                else:
                    values.append(self._feed_value(t, value))
            results = self._call(compiled, values, slots)
            return kind(results) if kind is list or kind is tuple else results[0]
        return self._run(fetches, feed_dict, key, kind)

    def _call(self, compiled, values, slots):
        running = variable_scope.running
        outer, running.store = getattr(running, "store", None), self._store
        token = random_ops.enter_session_states(self._random)
        try:
            outputs = compiled(*values)
        except errors.OpError as e:
            located = getattr(e, "located", None)
            if located is None:
                raise
            op, node, message = located
            if node == op.name:  # (an op of the run's graph: the session graph's of its name)
                op = self._graph._find(op.name) or op
            else:  # (inside a branch or loop body)
                op = None
            raise run_error(type(e), op, node, message, located[0].location) from None
        finally:
            random_ops.exit_session_states(token)
            running.store = outer  # (a run inside another's op gives the outer one back)
        return [None if s is None else _to_numpy(outputs[s]) for s in slots]

    def _run(self, fetches, feed_dict, fast_key, kind):
        if fetches is None:
            self._element(None)
        feed_keys, values = [], []
        feeds = list((feed_dict or {}).items())
        if any(isinstance(k, (SparseTensor, RaggedTensor)) for k, _ in feeds):
            fast_key = None  # (their parts, each fed)
            feeds = [f for k, v in feeds for f in _parts_fed(k, v)]
        given = fetches  # (whose leaves a ragged tensor's fetched parts are made one again)
        flat_given = nest.flatten(fetches)
        ragged = any(isinstance(f, RaggedTensor) for f in flat_given)
        if ragged or any(isinstance(f, (SparseTensor, IndexedSlices)) for f in flat_given):
            fetches = nest.map_structure(_composite_fetch, fetches)
            kind = type(fetches)
        for key, value in feeds:
            try:
                t = self._graph.as_graph_element(key, allow_operation=False) if isinstance(
                    key, str) else key
            except (KeyError, ValueError) as e:
                raise TypeError(f"Cannot interpret feed_dict key as Tensor: {e.args[0]}") \
                    from None
            if isinstance(t, Variable):
                t = getattr(t, "_snapshot", t)
            if not isinstance(t, SymbolicTensor):
                raise TypeError(f"The value of a feed cannot be a tf.Tensor object. "
                                f"Acceptable feed values include Python scalars, strings, "
                                f"lists, numpy ndarrays, or TensorHandles." if isinstance(
                                    value, SymbolicTensor) else
                                f"Cannot interpret feed_dict key as Tensor: Can not convert "
                                f"a {type(key).__name__} into a Tensor.")
            if t.graph is not self._graph:
                raise TypeError(f"Cannot interpret feed_dict key as Tensor: Tensor {t} is not "
                                f"an element of this graph.")
            if isinstance(value, SymbolicTensor):
                raise TypeError("The value of a feed cannot be a tf.Tensor object. Acceptable "
                                "feed values include Python scalars, strings, lists, numpy "
                                "ndarrays, or TensorHandles. For reference, the tensor object "
                                f"was {value} which was passed to the argument `feed_dict` "
                                f"with key {t}.")
            feed_keys.append(t)
            values.append(self._feed_value(t, value))
        # (after the feeds, whose errors TF reports first)
        flat = [self._element(f) for f in nest.flatten(fetches)]
        key = (tuple(map(id, flat)), tuple(map(id, feed_keys)))
        plan = self._cache.get(key)
        if plan is None:
            plan = self._cache[key] = self._plan(flat, feed_keys)
        compiled, slots = plan
        results = self._call(compiled, values, slots)
        plain = fetches if kind is list or kind is tuple else (fetches,)
        if fast_key is not None and all(isinstance(f, _PLAIN) for f in plain):
            # (the entry holds the fetches and feed keys, so their ids stay theirs)
            self._fast[fast_key] = (compiled, slots, [
                # (strings always go through `_feed_value`, which encodes text)
                (t, None if t.dtype == _d.string else t.dtype.as_numpy_dtype, _dims(t))
                for t in feed_keys],
                tuple(plain), tuple(feed_dict or ()))
        if not nest.is_nested(fetches):
            return results[0]
        packed = nest.pack_sequence_as(fetches, results)
        return nest.map_structure_up_to(given, _fetched_value, packed) if ragged else packed

    def _feed_value(self, t, value):
        if type(value) is EagerTensor:
            value = value.numpy()
        dtype = t.dtype.as_numpy_dtype
        try:
            array = np.asarray(value, dtype=dtype)
        except (TypeError, ValueError) as e:
            raise type(e)(f"{e}") from None  # (NumPy's error, as TF's feed conversion gives it)
        if t.dtype == _d.string and array.size:  # (text fed as the bytes ops take)
            array = np.array([v.encode() if isinstance(v, str) else v for v in array.flat],
                             object).reshape(array.shape)
        if not t.shape.is_compatible_with(array.shape):
            raise ValueError(f"Cannot feed value of shape {array.shape} for Tensor {t.name}, "
                             f"which has shape {t.shape}")
        return array

    def make_callable(self, fetches, feed_list=None, accept_options=False):
        """A function of the values of `feed_list`, in order, running `fetches`."""
        feed_list = list(feed_list or [])

        def call(*values, **_):
            return self.run(fetches, dict(zip(feed_list, values)))
        return call

    def partial_run_setup(self, fetches, feeds=None):
        """A handle for `partial_run` calls fetching parts of `fetches` from `feeds` step
        by step, each reusing the values earlier steps computed or were fed."""
        handle = f"partial_run_{len(self._partial)}"
        self._partial[handle] = ([self._element(f) for f in nest.flatten(fetches)],
                                 [self._feed_key(f) for f in nest.flatten(feeds or [])], {})
        return handle

    def partial_run(self, handle, fetches, feed_dict=None):
        """One step of the partial run `handle`: `fetches` from `feed_dict` and the values
        earlier steps gave (operations already run are not run again)."""
        if handle not in self._partial:  # (never set up, or every fetch already done)
            raise _partial_error("Must run 'setup' before performing partial runs!")
        allowed, feedable, known = self._partial[handle]
        feeds = dict(known)
        feed_dict = _flat_feeds(feed_dict)
        for key, value in (feed_dict or {}).items():
            t = self._feed_key(key)
            if all(t is not f for f in feedable):
                raise _partial_error(f"Must run 'setup' before performing partial runs! Feed "
                                     f"{t.name} was not specified in partial_run_setup.")
            if any(t is k for k in known):
                raise _partial_error(f"The feed {t.name} has already been fed.")
            feeds[t] = value
        flat = [self._element(f) for f in nest.flatten(fetches)]
        for f in flat:
            if all(f is not a for a in allowed):
                raise _partial_error(f"Must run 'setup' before performing partial runs! Fetch "
                                     f"{f.name} was not specified in partial_run_setup.")
        for op in _needed_ops(self._graph, list(feeds), flat):
            if op.type == "Placeholder" and any(op.outputs[0] is f for f in feedable):
                raise _partial_error(f"Fetch {op.outputs[0].name} can't be computed from the "
                                     f"feeds that have been fed so far.")
        result = self.run(fetches, feeds)
        known.update((t, v) for t, v in zip(flat, nest.flatten(result))
                     if isinstance(t, SymbolicTensor))
        known.update((self._feed_key(k), v) for k, v in (feed_dict or {}).items())
        if all(any(a is k for k in known) for a in allowed if isinstance(a, SymbolicTensor)):
            del self._partial[handle]
        return result

    def _feed_key(self, key):
        t = self._graph.as_graph_element(key) if isinstance(key, str) else key
        return getattr(t, "_snapshot", t) if isinstance(t, Variable) else t


def _partial_error(message):
    """A partial run's InvalidArgumentError, worded as TF's run errors."""
    return errors.InvalidArgumentError(None, None, f"Graph execution error:\n\n{message}")


def _dims(t):
    """The placeholder's dims (None where unknown), or None for an unknown rank."""
    return None if t.shape.rank is None else tuple(t.shape.as_list())


def _fits(shape, dims):
    if dims is None:
        return True
    if len(shape) != len(dims):
        return False
    for n, d in zip(shape, dims):
        if d is not None and d != n:
            return False
    return True


def _to_numpy(array):
    array = np.asarray(backend.to_host(array))
    return array[()] if array.ndim == 0 else array  # (TF fetches scalars as NumPy scalars)


@export("compat.v1.InteractiveSession")
class InteractiveSession(Session):
    """A `Session` that makes itself the default session (for `Tensor.eval`) until closed."""

    def __init__(self, target="", graph=None, config=None):
        super().__init__(target, graph, config)
        self._interactive = _DefaultBlock(self)
        self._interactive.__enter__()

    def close(self):
        if getattr(self, "_interactive", None) is not None:
            self._interactive.__exit__(None, None, None)
            self._interactive = None
        super().close()


# Graph tensors and operations run in the default session (TF 1's ``t.eval()``).
def _flat_feeds(feed_dict):
    """`feed_dict` with each key that is a nested tuple of tensors replaced by its tensors,
    each fed its part of the value (of the same structure), as TF reads a feed dict."""
    if not feed_dict or not any(isinstance(k, tuple) for k in feed_dict):
        return feed_dict
    flat = {}
    for key, value in feed_dict.items():
        if isinstance(key, tuple):
            keys, values = nest.flatten(key), nest.flatten(value)
            if len(keys) != len(values):
                raise ValueError(f"Could not flatten dictionary. Key had {len(keys)} elements, "
                                 f"but value had {len(values)} elements. Key: {keys}, value: "
                                 f"{values}.")
        else:
            keys, values = [key], [value]
        for k, v in zip(keys, values):
            if k in flat:
                raise ValueError(f"Cannot flatten dict because this key is not unique: {k}")
            flat[k] = v
    return flat


def _eval(self, feed_dict=None, session=None):
    """The value of this tensor in `session` (the default session when None)."""
    return resolve(session).run(self, feed_dict)


def _run(self, feed_dict=None, session=None):
    """Runs this operation in `session` (the default session when None)."""
    resolve(session).run(self, feed_dict)


SymbolicTensor.eval = _eval
Operation.run = _run




_keras_session = []  # the session `set_session` gave Keras, if any


@export("compat.v1.keras.backend.set_session")
def set_session(session):
    """Makes `session` the one TF 1 Keras code runs in (``get_session`` returns it)."""
    _keras_session[:] = [session]


@export("compat.v1.keras.backend.get_session")
def get_session(op_input_list=()):
    """The default session, else the one `set_session` gave, else a new one kept for later
    (made again when the graph of `op_input_list`, or the default graph, is another than the
    kept one's, as Keras's); the variables of its graph it has no value for yet are
    initialized in it first (as Keras's session does)."""
    session = get_default_session()
    if session is None:
        graphs = [t.graph for t in op_input_list if isinstance(t, (SymbolicTensor, Operation))]
        graph = graphs[0] if graphs else graph_mode.get_default_graph()
        if not _keras_session or _keras_session[0] is None or _keras_session[0].graph is not graph:
            _keras_session[:] = [Session(graph=graph)]
        session = _keras_session[0]
    initialize_variables(session)
    return session


def initialize_variables(session, variables=()):
    """Runs in `session` the initializers of `variables` and of its graph's global and local
    variables (and Keras's own, kept out of the collections) that it has no value for."""
    graph = session.graph
    candidates = list(graph.get_collection(graph_mode.GraphKeys.GLOBAL_VARIABLES)) + \
        list(graph.get_collection(graph_mode.GraphKeys.LOCAL_VARIABLES)) + \
        list(graph.__dict__.get("_keras_variables", ())) + list(variables)
    fresh, seen = [], set()
    for v in candidates:
        handle = getattr(v, "_handle", None)
        if handle is None or id(v) in seen or getattr(v, "initializer", None) is None \
                or getattr(v, "graph", graph) is not graph:
            continue
        seen.add(id(v))
        if session._store.get(handle) is None:
            fresh.append(v.initializer)
    if fresh and not session._closed:
        session.run(fresh)


@contextlib.contextmanager
def _values_of(session=None):
    """The values of graph variables are those of `session` (by default the default session)
    in the block, which is given it: how checkpoints read and assign them."""
    if session is None:
        session = get_default_session()
        if session is None:  # (none: the variables' values are missing, as TF finds them)
            yield None
            return
    running = variable_scope.running
    outer, running.store = getattr(running, "store", None), session._store
    try:
        yield session
    finally:
        running.store = outer


_trackable.session_values = _values_of
