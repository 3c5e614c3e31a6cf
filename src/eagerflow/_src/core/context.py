"""Per-thread execution context: mode, device, name scope and active recorders.

`dispatch` reads this on every op, so the context is one object with slots,
found through a `ContextVar` (per thread, and per asyncio task), and `fast`
summarises the common case (eager, on the host, no recorder) in a single
attribute.  Higher layers push onto it: the autodiff layer pushes recorders
(tapes), the graph layer sets `graph` while tracing.  Core never imports
those layers.
"""
import contextlib
import contextvars
import re

from eagerflow._src import backend
from eagerflow._src.backend.api_export import export
from eagerflow._src.core import config, errors


class Context:
    """The execution state of one thread."""

    __slots__ = ("graph", "recorders", "device_name", "device_spec", "xp", "scope", "fast",
                 "new_variables", "lifted_from", "logical_device")

    def __init__(self):
        self.graph = None        # the graph being built, or None when executing eagerly
        self.recorders = ()      # active recorders (tapes), innermost last
        self.device_name = backend.host_device()
        self.device_spec = ""    # the user's device string, as given to `device()`
        self.xp = backend.numpy_module
        self.scope = ""          # current name scope: "" or ending with "/"
        self.fast = True         # eager, NumPy, no recorders: dispatch's fast path
        self.new_variables = None  # while tracing: the list every variable created joins
        # under ``tf.init_scope`` out of a function's graph into eager execution: that graph,
        # still TF's default graph there (``tf.compat.v1.get_default_graph``)
        self.lifted_from = None
        # a logical CPU other than the first (see `tf.config.set_logical_device_configuration`)
        # that ops of the block run on, or None: tensors remember it (arrays cannot say it)
        self.logical_device = None

    def refresh(self):
        self.fast = (self.graph is None and not self.recorders
                     and self.xp is backend.numpy_module and self.logical_device is None)


_var = contextvars.ContextVar("eagerflow_context")
_lookup = _var.get


def get():
    """The calling thread's `Context`."""
    ctx = _lookup(None)
    if ctx is None:
        ctx = Context()
        _var.set(ctx)
    return ctx


def fork():
    """A copy of the calling thread's `Context`, for a thread that continues its work (a
    replica of a `tf.distribute` strategy): same graph, device and scope; its own object."""
    parent = get()
    child = Context()
    for field in Context.__slots__:
        setattr(child, field, getattr(parent, field))
    return child


def adopt(ctx):
    """Makes `ctx` (from `fork`) the calling thread's context."""
    _var.set(ctx)


@export("Operation")
class Operation:
    """A graph operation (``tf.Operation``): what an op without outputs (an assertion,
    ``tf.print``, ``tf.no_op``) gives while a `function` (or a branch or loop body) is
    built, which control dependencies may name but a function cannot return; the nodes of
    TF 1 graphs (``graph.Operation``) are of a subclass."""

    __slots__ = ()

    def __repr__(self):
        return "<tf.Operation>"


def no_outputs():
    """The result of an op without outputs: None eagerly, an `Operation` in a graph."""
    return None if get().graph is None else Operation()


@export("executing_eagerly")
def executing_eagerly():
    """True unless a graph is being built (inside a traced `function` or v1 graph).

    >>> tf.executing_eagerly()
    True
    """
    return get().graph is None


@export("inside_function")
def inside_function():
    """True while a `tf.function` traces (not in eager code or a TF 1 graph).

    >>> tf.inside_function()
    False
    """
    ctx = get()
    graph = ctx.graph if ctx.graph is not None else ctx.lifted_from
    return graph is not None and graph.building_function and not graph.lifts_eager_ops


@export("get_current_name_scope")
def get_current_name_scope():
    """The name scope now open, as `name_scope` blocks nest (``"a/b"``; ``""`` at the top).

    >>> with tf.name_scope("a"):
    ...     tf.get_current_name_scope()
    'a'
    """
    return get().scope.rstrip("/")


@contextlib.contextmanager
def _swap(**fields):
    ctx = get()
    saved = {k: getattr(ctx, k) for k in fields}
    for k, v in fields.items():
        setattr(ctx, k, v)
    ctx.refresh()
    try:
        yield
    finally:
        for k, v in saved.items():
            setattr(ctx, k, v)
        ctx.refresh()


@export("device")
def device(device_name):
    """Places ops created in the block on `device_name` (``'/cpu:0'``, ``'/gpu:0'``, ...).

    Placement is soft: a GPU that does not exist falls back to the CPU. On a host split
    into logical CPUs (`tf.config.set_logical_device_configuration`), ``'/cpu:1'`` is the
    second: tensors made in the block report it as their ``device``; ops outside any block
    run on the first, whatever their inputs' device.

    >>> with tf.device("/cpu:0"):
    ...     pass
    """
    if callable(device_name):  # (`compat.v1.device` takes device functions in graphs)
        raise RuntimeError("tf.device does not support functions.")
    if device_name is not None and not isinstance(device_name, str):
        device_name = device_name.to_string()  # a DeviceSpec
    if not device_name:  # None clears the requested device, as in TF
        return _swap(device_spec="", device_name=backend.host_device(),
                     xp=backend.numpy_module, logical_device=None)
    return _device_scope(device_name)


_DEVICE_TYPES = ("CPU", "GPU", "TPU", "CUSTOM", "EPU")


def _requested_device(spec):
    """``(device type, index)`` named by the device string `spec` (None where it names
    none); ValueError, as TF's parser raises, for a part that is not a device attribute."""
    kind = index = None
    for part in spec.split("/"):
        fields = part.split(":")
        if not part:
            continue
        if len(fields) == 2 and fields[0] in ("job", "replica", "task"):
            continue
        if len(fields) in (1, 2) and fields[0].upper() in _DEVICE_TYPES:
            kind, index = fields[0].upper(), fields[1] if len(fields) == 2 else None
        elif len(fields) == 3 and fields[0] == "device":
            kind, index = fields[1].upper(), fields[2]
        else:
            raise ValueError(f"Unknown attribute '{fields[0]}' is encountered while parsing "
                             f"the device spec: '{spec}'.")
    return kind, None if index in (None, "*") else int(index)


@contextlib.contextmanager
def _device_scope(device_name):
    kind, index = _requested_device(device_name)
    if kind is not None and not config.get_soft_device_placement():
        wanted = f"{kind}:{index or 0}"
        available = [backend.host_device().rsplit("/", 1)[0] + d.name
                     for d in backend.list_logical_devices()]
        if not any(d.endswith("device:" + wanted) for d in available):
            raise errors.InvalidArgumentError(
                None, None,
                f"Could not satisfy device specification '/job:localhost/replica:0/task:0/"
                f"device:{wanted}'. enable_soft_placement=0. Supported device types "
                f"[{', '.join(sorted({d.rsplit(':', 2)[-2] for d in available}))}]. All "
                f"available devices [{', '.join(available)}].")
    current = get().device_name
    if kind is None or index is None and f":{kind}:" in current:
        name = current  # ("/job:localhost", "CPU:*" keep the enclosing scope's device)
    else:
        name = backend.canonical_device(device_name)
    logical = None if name == backend.host_device() or ":CPU:" not in name else name
    token = object()
    if logical is not None:
        logical_scopes.append(token)
    try:
        with _swap(device_name=name, device_spec=device_name, xp=backend.xp_for_device(name),
                   logical_device=logical):
            yield
    finally:
        if logical is not None:
            logical_scopes.remove(token)


# the `device` blocks (of any thread) that place ops on a logical CPU other than the first:
# while there are none, making a tensor need not look at the context for its device
logical_scopes = []


def add_recorder(recorder):
    """Makes `recorder` see every op the calling thread runs; returns that thread's context.

    Tapes enter and leave often (every training step), so this is a plain
    update rather than a context manager; `remove_recorder` undoes it.
    """
    ctx = get()
    ctx.recorders += (recorder,)
    ctx.fast = False
    return ctx


def remove_recorder(ctx, recorder):
    """Stops `recorder` seeing the ops of `ctx` (other recorders stay, whatever their order)."""
    ctx.recorders = tuple(r for r in ctx.recorders if r is not recorder)
    ctx.refresh()


@contextlib.contextmanager
def recording(recorder):
    """Makes `recorder` see every op run in the block."""
    ctx = add_recorder(recorder)
    try:
        yield
    finally:
        remove_recorder(ctx, recorder)


def only_recorder(recorder):
    """Makes `recorder` the only one seeing ops in the block (the others are paused)."""
    return _swap(recorders=(recorder,))


def recorded_by(recorders):
    """Makes exactly `recorders` see the ops of the block (the others are paused)."""
    return _swap(recorders=tuple(recorders))


def unrecorded():
    """Pauses every recorder in the block (for ops that only inspect what was recorded)."""
    return _swap(recorders=())


def building(graph):
    """Routes ops to `graph` instead of running them (used while tracing).

    Outer recorders do not see the symbolic ops of the graph, but for those that say they
    instrument graphs (``instruments_graphs``: a numerics check adds its ops to them).
    """
    kept = tuple(r for r in get().recorders if getattr(r, "instruments_graphs", False))
    return _swap(graph=graph, recorders=kept, scope="")


def init_scope():
    """Leaves graph building for the block: ops run eagerly and no tape records them.

    This is where the library creates the variables of a traced function (also in a TF 1
    graph, which takes them on its own: see `lifting_scope` for ``tf.init_scope``).
    """
    return _swap(graph=None, recorders=())


# () -> the TF 1 graph `lifting_scope` lifts into, or None for eager execution (set by the
# TF 1 graph mode when it loads: the innermost TF 1 graph entered, if any)
outer_graph = None


@export("init_scope", "compat.v1.init_scope")
@contextlib.contextmanager
def lifting_scope():
    """Leaves the graphs of the functions being traced for the block, as ``tf.init_scope``:
    ops run where the outermost function is called (eagerly, or into a TF 1 graph), in the
    same name scope, with no tape recording them and no control dependencies.

    >>> @tf.function
    ... def f():
    ...     with tf.init_scope():
    ...         print(tf.executing_eagerly())
    >>> f()
    True
    """
    graph = outer_graph() if outer_graph is not None else None
    ctx = get()
    lifted = ctx.lifted_from
    if graph is None and ctx.graph is not None and ctx.graph.building_function:
        lifted = ctx.graph  # (TF's default graph there is still the function's)
    with _swap(graph=graph, recorders=(), lifted_from=lifted):
        if graph is None:
            yield
        else:
            with graph.control_dependencies(None):
                yield


def collecting_variables(into):
    """Appends every variable created in the block to the list `into` (used while tracing)."""
    return _swap(new_variables=into)


def scoped_name(name):
    """`name` prefixed with the current name scope."""
    return get().scope + name


# TF's rule for the names of graph nodes and name scopes: a scope opened inside another may
# also start with '_', '-', '\\' or '/'.
_VALID_NODE_NAME = re.compile(r"^[A-Za-z0-9.][A-Za-z0-9_.\\/>-]*$")
_VALID_SCOPE_NAME = re.compile(r"^[A-Za-z0-9_.\\/>-]*$")


def check_scope_name(name):
    """TF's ValueError for `name`, given as a name scope (or an op's name, which TF's op
    wrappers open a scope of) while a graph is built, when a graph node could not be named
    so; eagerly any name goes, as names are not used."""
    if not name or get().graph is None:
        return
    if get().scope:
        if not _VALID_SCOPE_NAME.match(name):
            raise ValueError(f"'{name}' is not a valid scope name. A scope name has to match "
                             f"the following pattern: {_VALID_SCOPE_NAME.pattern}")
    elif not _VALID_NODE_NAME.match(name):
        raise ValueError(f"'{name}' is not a valid root scope name. A root scope name has to "
                         f"match the following pattern: {_VALID_NODE_NAME.pattern}")


def check_node_name(name):
    """TF's ValueError for a graph node named `name` (in the current scope) that a graph
    cannot hold (``tf.constant(1, name="a b")``, which opens no scope)."""
    name = scoped_name(name)
    if not _VALID_NODE_NAME.match(name):
        raise ValueError(f"`{name}` is not a valid node name. Accepted names conform to "
                         f"Regex /{_VALID_NODE_NAME}/")


@export("name_scope")
class name_scope:  # noqa: N801 (TF's public name)
    """A context manager prefixing the names of variables created inside it.

    >>> with tf.name_scope("outer"):
    ...     with tf.name_scope("inner") as scope:
    ...         print(scope)
    outer/inner/
    """

    def __init__(self, name):
        if not isinstance(name, str):
            raise ValueError("name for name_scope must be a string.")
        self._name = name
        self._swap = None

    name = property(lambda self: self._name)

    def __enter__(self):
        name, graph = self._name, get().graph
        check_scope_name(name)
        if name and not name.endswith("/") and getattr(graph, "unique_scopes", False):
            name = graph.unique_name(name) + "/"  # (a TF 1 graph: ``b``, then ``b_1``)
        self._swap = name_scope_push(name)
        self._swap.__enter__()
        return get().scope

    def __exit__(self, *exc):
        return self._swap.__exit__(*exc)


_NO_OP_SCOPE = contextlib.nullcontext()


def op_scope(name):
    """The name scope TF's Python wrapper of a composite op opens: in a graph, `name` made
    unique, whose scope string (``random_normal/``) the wrapper passes as the name of its
    last op, so that the op is named as the scope (``random_normal``); eagerly nothing
    (the block gets None).

    >>> # with context.op_scope(name or "random_normal") as scope: ... add(a, b, name=scope)
    """
    if get().graph is None:
        return _NO_OP_SCOPE
    return name_scope(name)


def name_scope_push(name):
    """Enters name scope `name` (relative, or absolute when it ends with '/')."""
    if not name:
        return _swap(scope="")
    return _swap(scope=name if name.endswith("/") else get().scope + name + "/")


@export("experimental.async_scope")
@contextlib.contextmanager
def async_scope():
    """A scope in which TF runs eager ops asynchronously. Here ops always run as they are
    called, so errors surface at the op that raised them, and the scope changes nothing.

    >>> with tf.experimental.async_scope():
    ...     print(int(tf.constant(1) + 1))
    2
    """
    yield


@export("experimental.async_clear_error")
def async_clear_error():
    """Clears the error an asynchronous op left pending in TF; ops here run synchronously
    and leave none, so there is nothing to clear."""


@export("experimental.function_executor_type")
@contextlib.contextmanager
def function_executor_type(executor_type):
    """Names the executor TF runs functions with inside the scope (such as
    ``"SINGLE_THREADED_EXECUTOR"``); eagerflow has one executor, which runs every function.

    >>> with tf.experimental.function_executor_type("SINGLE_THREADED_EXECUTOR"):
    ...     print(int(tf.function(lambda: tf.constant(2))()))
    2
    """
    yield



# -- one call of a function ----------------------------------------------------------------------

_call = contextvars.ContextVar("eagerflow_call_scope", default=None)


def call_scope():
    """The dict that kernels of the function being called share for this call (None outside
    `calling`): the datasets a function builds are built once per call, as TF runs its
    dataset ops once per call, so that iterating one twice goes on with its state."""
    return _call.get()


@contextlib.contextmanager
def calling():
    """A new `call_scope` for the block, unless one is already open (a function called
    inside another's call shares its caller's)."""
    if _call.get() is not None:
        yield
        return
    token = _call.set({})
    try:
        yield
    finally:
        _call.reset(token)
