"""TF 1's graph mode (``tf.compat.v1``): a default `Graph` that ops build nodes into,
placeholders, control dependencies and collections.

Graph mode runs on the graph IR and executor of `function`: while a v1 graph is the
default, `dispatch` adds each op to it (the tracing path), and a `Session` prunes and
compiles the part of it a run needs.

>>> g = tf.compat.v1.Graph()
>>> with g.as_default():
...     x = tf.compat.v1.placeholder(tf.float32, [None, 3], name="x")
...     y = tf.matmul(x, tf.constant([[1.0], [1.0], [1.0]]))
>>> y
<tf.Tensor 'MatMul:0' shape=(None, 1) dtype=float32>
>>> g.get_operation_by_name("x")
<tf.Operation 'x' type=Placeholder>
"""
import contextlib
import threading

from eagerflow._src.backend.api_export import export
from eagerflow._src.backend.devices import DeviceSpec
from eagerflow._src.autodiff import gradient_names
from eagerflow._src.core import context
from eagerflow._src.core import dtypes as _d
from eagerflow._src.core import variables as _variables
from eagerflow._src.core.convert import convert_to_tensor
from eagerflow._src.core.tensor import Tensor
from eagerflow._src.core import tensor_shape
from eagerflow._src.core.tensor_shape import TensorShape
from eagerflow._src.graph import control_flow
from eagerflow._src.graph import graph as _graph
from eagerflow._src.ops import random_ops
from eagerflow._src.ragged.ragged_tensor import RaggedTensor


@export("compat.v1.GraphKeys")
class GraphKeys:
    """The names of the standard collections (``tf.compat.v1.GraphKeys``)."""

    GLOBAL_VARIABLES = "variables"
    LOCAL_VARIABLES = "local_variables"
    MODEL_VARIABLES = "model_variables"
    METRIC_VARIABLES = "metric_variables"
    TRAINABLE_VARIABLES = "trainable_variables"
    GLOBAL_STEP = "global_step"
    REGULARIZATION_LOSSES = "regularization_losses"
    LOSSES = "losses"
    UPDATE_OPS = "update_ops"
    MOVING_AVERAGE_VARIABLES = "moving_average_variables"
    SUMMARIES = "summaries"
    SUMMARY_OP = "summary_op"
    TRAIN_OP = "train_op"
    INIT_OP = "init_op"
    LOCAL_INIT_OP = "local_init_op"
    QUEUE_RUNNERS = "queue_runners"
    ASSET_FILEPATHS = "asset_filepaths"
    SAVERS = "savers"
    TABLE_INITIALIZERS = "table_initializer"
    VARIABLES = GLOBAL_VARIABLES


class _GraphType(type):
    """The type of `Graph`: the graph of a function, branch or loop body being built is a
    ``tf.Graph`` too, as TF's ``FuncGraph`` subclasses it (within eagerflow a TF 1 graph is
    told apart by `is_v1`)."""

    def __instancecheck__(cls, instance):
        if cls is Graph:
            return isinstance(instance, _graph.Graph)
        return type.__instancecheck__(cls, instance)

    def __subclasscheck__(cls, subclass):
        if cls is Graph:
            return issubclass(subclass, _graph.Graph)
        return type.__subclasscheck__(cls, subclass)


def is_v1(graph):
    """Whether `graph` is a TF 1 graph (a `Graph`, not a function's)."""
    return graph is not None and graph.building_function is False


@export("Graph", "compat.v1.Graph")
class Graph(_graph.Graph, metaclass=_GraphType):
    """A TF 1 graph (``tf.compat.v1.Graph``): ops called while it is the default
    (`as_default`) add nodes to it, which a `Session` runs.

    Besides the nodes it holds collections (`add_to_collection`), the control
    dependencies of its nodes, and can be finalized against further changes.
    """

    # A Keras layer's call opens a name scope made unique in the graph (``dense_1/``), as
    # TF 1's `name_scope` does, so a layer of a name already used gets a scope of its own.
    unique_layer_scopes = True
    # Variables hash by identity while one is the default (TF hashes them outside eager
    # execution: a feed_dict or a set may hold them)
    hashes_variables = True

    def __init__(self):
        super().__init__("graph")
        self.variable_arguments = {}  # (not those of a function traced while it is default)
        self._collections = {}
        self._finalized = False
        self._scopes = {}             # variable_scope name -> times entered (uniquified)
        self.variable_store = {}      # get_variable: full name -> variable
        self.partitioned_store = {}   # get_variable: full name -> PartitionedVariable
        self._device_functions = []   # (function, the device string around its block)
        # its own random seed, as TF 1's graphs: None until `set_random_seed` sets it while
        # it is the default graph (the eager global seed is not its)
        self._seed = None

    building_function = False
    finalized = property(lambda self: self._finalized)

    @property
    def outer_graph(self):
        # (TF 1's graphs have none: a function's graph has one)
        raise AttributeError(f"{type(self).__name__!r} object has no attribute 'outer_graph'")

    @contextlib.contextmanager
    def as_default(self):
        """Makes this the default graph in the block: ops add nodes to it (and the
        variables made there, even under `init_scope`, are its own)."""
        stack = _building.__dict__.setdefault("graphs", [])
        own = self.__dict__.get("_name_stack")  # (a `name_scope` of it entered before)
        with context.building(self), (context.name_scope_push(own) if own else
                                      contextlib.nullcontext()):
            stack.append(self)
            try:
                yield self
            finally:
                stack.pop()

    def session_table(self, key_dtype, value_dtype):
        """The value of a lookup table made in this graph: its entries are those of the
        session running the graph, as a variable's value is."""
        from eagerflow._src.compat import variable_scope  # noqa: PLC0415 (it imports this)
        return variable_scope.SessionTable(key_dtype, value_dtype)

    @staticmethod
    def session_runs():
        """The running session's state in this thread (``store``: the values it holds per
        variable, table or queue; ``deadline``: when its waits give up), as `Session` sets
        it; its attributes are missing outside runs."""
        from eagerflow._src.compat import variable_scope  # noqa: PLC0415 (it imports this)
        return variable_scope.running

    def finalize(self):
        """Makes this graph read-only: adding an op raises RuntimeError."""
        self._finalized = True

    def _unsafe_unfinalize(self):
        self._finalized = False

    def _add(self, op_def, type_name, name, inputs, attrs, specs, value=None):
        if self._finalized:
            raise RuntimeError("Graph is finalized and cannot be modified.")
        op = super()._add(op_def, type_name, name, inputs, attrs, specs, value)
        self.place(op)
        return op

    def create_op(self, op_def, inputs, attrs, name=None):
        """As `_graph.Graph.create_op`, in the graph of the inputs, as TF 1 builds an op:
        inputs of two TF 1 graphs raise TF's ValueError."""
        first = None
        for t in inputs:
            if isinstance(t, _graph.SymbolicTensor) and is_v1(t.graph):
                if first is None:
                    first = t
                elif t.graph is not first.graph:
                    raise ValueError(f"{t} must be from the same graph as {first} (graphs are "
                                     f"{t.graph} and {first.graph}).")
        if first is not None and first.graph is not self:
            with first.graph.as_default():
                return first.graph.create_op(op_def, inputs, attrs, name)
        return super().create_op(op_def, inputs, attrs, name)

    def as_graph_def(self, from_version=None, add_shapes=False):
        """This graph as TF 1 writes one (``VarHandleOp`` variables with their initializers,
        only the graph's own control inputs), which TF imports and runs."""
        del from_version
        from eagerflow._src.compat import meta_graph  # noqa: PLC0415 (protobuf when asked)
        return meta_graph.graph_def_of(self, add_shapes)

    def _variable_named(self, name):
        """A variable of this graph's collections named `name` (``scope/w:0``): its op is the
        ``VarHandleOp`` of that name, and it runs and computes as the tensor of its value
        that TF 1's graph holds under that name."""
        for key in (GraphKeys.GLOBAL_VARIABLES, GraphKeys.LOCAL_VARIABLES):
            for variable in self.get_collection(key):
                if variable.name == name:
                    return variable
        return None

    def _building_name_scope(self, name):
        return name_scope(name)  # (TF 1's: None for the top)

    def device(self, device_name_or_function):
        """Places the ops built in the block on a device (see ``tf.device``), or on the
        device a function of each new operation returns (as `train.replica_device_setter`'s
        does): the function sees the operation with the device of the blocks inside its
        own, and what it returns takes the fields it leaves unset from the blocks around."""
        if callable(device_name_or_function):
            return self._device_function(device_name_or_function)
        return context.device(device_name_or_function)

    @contextlib.contextmanager
    def _device_function(self, function):
        self._device_functions.append((function, context.get().device_spec))
        try:
            yield
        finally:
            self._device_functions.pop()

    def place(self, op):
        """Sets `op.device` as the device functions in force choose (the innermost first);
        returns it, or None without device functions."""
        if not self._device_functions:
            return None
        inner = context.get().device_spec
        innermost, outermost = self._device_functions[-1][1], self._device_functions[0][1]
        op.device = _device_string(inner if inner != innermost else "")
        for function, _ in reversed(self._device_functions):
            op.device = _device_string(function(op))
        if outermost:
            outer, chosen = DeviceSpec.from_string(outermost), DeviceSpec.from_string(op.device)
            op.device = DeviceSpec(*[getattr(chosen, f) if getattr(chosen, f) is not None
                                     else getattr(outer, f) for f in DeviceSpec.__slots__]
                                   ).to_string()
        return op.device


_global = {"graph": None, "eager": True, "tf2": True}
_building = threading.local()  # .graphs: the graphs of the `as_default` blocks entered


def _device_string(device):
    """A device string or DeviceSpec (or None) as TF writes it in an operation."""
    if not device:
        return ""
    return (device if isinstance(device, DeviceSpec)
            else DeviceSpec.from_string(device)).to_string()


@export("compat.v1.device")
def device(device_name_or_function):
    """Places the ops built in the block on a device: a device string (as ``tf.device``),
    or in a graph a function choosing each new operation's device (see
    `Graph.device`)."""
    if callable(device_name_or_function):
        graph = v1_graph()
        if graph is None:
            raise RuntimeError("tf.device does not support functions when eager execution "
                               "is enabled.")
        return graph.device(device_name_or_function)
    return context.device(device_name_or_function)


def outer_v1_graph():
    """The v1 graph being built in this thread, also under `init_scope` (where TF makes the
    variables of a layer being built), or None."""
    graph = v1_graph()
    if graph is not None:
        return graph
    stack = getattr(_building, "graphs", None)
    if stack:
        return stack[-1]
    return default_v1_graph() if not _global["eager"] else None


context.outer_graph = outer_v1_graph


def _graph_variable_class():
    """`Variable`'s class while a v1 graph is built (not inside a `function`'s trace): the
    graph's own variables, also when nothing has touched ``tf.compat.v1`` yet (a plain
    ``with tf.Graph().as_default():``)."""
    if context.get().new_variables is None and outer_v1_graph() is not None:
        from eagerflow._src.compat import variable_scope  # noqa: PLC0415 (on first use)
        return variable_scope._GraphVariableV2
    return None


_variables.graph_variable_class = _graph_variable_class


def v1_graph():
    """The v1 graph ops build into now, or None (eager, or inside a `function`)."""
    g = context.get().graph
    return g if is_v1(g) else None


def _seed_graph(graph):
    """The v1 graph a branch or loop body built in it (at any depth) takes its op seeds
    from while TF 1's control flow is on, as TF 1 builds them into that graph; else
    `graph` itself."""
    from eagerflow._src.compat import v1_names  # noqa: PLC0415
    if v1_names._switches["control_flow_v2"]:
        return graph
    outer = _outside_control_flow(graph)
    return outer if is_v1(outer) else graph


def _outside_control_flow(graph):
    """The graph that holds `graph`, a branch or loop body (at any depth), else `graph`."""
    while graph.control_flow_body:
        graph = graph.outer_graph
    return graph


random_ops._STATE.seed_graph = _seed_graph


def v1_control_flow():
    """Whether control flow built now is TF 1's: its switch is off (`disable_v2_behavior`)
    and ops build into a v1 graph, or a branch or loop body of one (a `function` always
    builds TF 2's)."""
    from eagerflow._src.compat import v1_names  # noqa: PLC0415
    graph = context.get().graph
    return (not v1_names._switches["control_flow_v2"] and graph is not None
            and is_v1(_outside_control_flow(graph)))


control_flow.tf1_control_flow = v1_control_flow


@export("compat.v1.get_default_graph")
def get_default_graph():
    """The graph ops build into: the innermost `Graph.as_default`, the graph of the
    `function` being traced, else (eagerly) the global one.

    >>> @tf.function
    ... def f(x):
    ...     return tf.compat.v1.get_default_graph() is x.graph
    >>> bool(f(tf.constant(1.0)))
    True
    >>> tf.compat.v1.get_default_graph().building_function
    False
    """
    ctx = context.get()
    if ctx.graph is not None:
        return ctx.graph
    # (under `tf.init_scope` in a function traced eagerly: the function's, as in TF)
    return ctx.lifted_from if ctx.lifted_from is not None else default_v1_graph()


def default_v1_graph():
    """The TF 1 graph ops build into: the innermost `Graph.as_default`, else the global one
    (also while a `function` traces, whose graph `get_default_graph` gives)."""
    g = v1_graph()
    if g is not None:
        return g
    return _global_graph()


def _global_graph():
    if _global["graph"] is None:
        _global["graph"] = Graph()
    return _global["graph"]


_graph.global_graph = _global_graph


def _global_collections():
    graph = _global["graph"]
    return None if graph is None else graph._collections


_graph.global_collections = _global_collections


@export("compat.v1.reset_default_graph")
def reset_default_graph():
    """Replaces the global default graph by a new, empty one."""
    ctx = context.get()
    if ctx.graph is not None and ctx.graph is not _global["graph"]:
        raise AssertionError("Do not use tf.reset_default_graph() to clear nested graphs. If "
                             "you need a cleared graph, exit the nesting and create a new "
                             "graph.")
    _global["graph"] = Graph()
    if not _global["eager"]:
        _enter(_global["graph"])


def _enter(graph):
    ctx = context.get()
    ctx.graph, ctx.recorders, ctx.scope = graph, (), ""
    ctx.refresh()


@export("compat.v1.disable_eager_execution")
def disable_eager_execution():
    """Turns on TF 1's graph mode: ops add nodes to the default graph, run by a `Session`."""
    _global["eager"] = False
    _enter(default_v1_graph())


@export("compat.v1.enable_eager_execution")
def enable_eager_execution(config=None, device_policy=None, execution_mode=None):
    """Turns graph mode off: ops run as they are called (TF 2's default)."""
    del config, device_policy, execution_mode
    _global["eager"] = True
    ctx = context.get()
    if is_v1(ctx.graph):
        ctx.graph, ctx.scope = None, ""
        ctx.refresh()


@export("compat.v1.enable_v2_behavior", "compat.v2.enable_v2_behavior")
def enable_v2_behavior():
    """TF 2's behaviour: eager execution."""
    from eagerflow._src.compat import v1_names  # noqa: PLC0415
    v1_names._switches.update(resource_variables=True, control_flow_v2=True,
                              tensor_equality=True)
    _global["tf2"] = True
    tensor_shape.enable_v2_tensorshape()
    _keras_dtype_behavior(True)
    enable_eager_execution()


@export("compat.v1.disable_v2_behavior")
def disable_v2_behavior():
    """TF 1's behaviour: graph mode (and, for the queries, TF 1's variables and control
    flow), and Keras layers taking their inputs' dtype."""
    from eagerflow._src.compat import v1_names  # noqa: PLC0415
    v1_names._switches.update(resource_variables=False, control_flow_v2=False,
                              tensor_equality=False)
    _global["tf2"] = False
    tensor_shape.disable_v2_tensorshape()
    _keras_dtype_behavior(False)
    disable_eager_execution()


def _keras_dtype_behavior(v2):
    """Keras layers' dtype behaviour follows TF 1's or TF 2's, as with TF's switches: in TF
    1's, a layer without a dtype computes in its first input's (a float64 input stays
    float64)."""
    from eagerflow._src.keras.mixed_precision import policy  # noqa: PLC0415
    (policy.enable_v2_dtype_behavior if v2 else policy.disable_v2_dtype_behavior)()


def tf2_enabled():
    """False after `disable_v2_behavior` (until `enable_v2_behavior`)."""
    return _global["tf2"]


@export("compat.v1.executing_eagerly")
def executing_eagerly():
    """False while a graph is being built (v1 graph mode or a `function`'s trace)."""
    return context.get().graph is None


@export("compat.v1.executing_eagerly_outside_functions")
def executing_eagerly_outside_functions():
    """Whether ops outside any `function` run eagerly (False in v1 graph mode)."""
    return _global["eager"] and v1_graph() is None


@export("compat.v1.placeholder")
def placeholder(dtype, shape=None, name=None):
    """A tensor whose value each `Session.run` feeds (``feed_dict``).

    >>> g = tf.compat.v1.Graph()
    >>> with g.as_default():
    ...     tf.compat.v1.placeholder(tf.float32, [None, 3], name="x")
    <tf.Tensor 'x:0' shape=(None, 3) dtype=float32>
    """
    graph = context.get().graph  # (also a function's: one `wrap_function` traces)
    if graph is None:
        raise RuntimeError("tf.placeholder() is not compatible with eager execution.")
    context.check_scope_name(name)  # (TF's op wrapper opens a scope of the name)
    t = graph.placeholder(_d.as_dtype(dtype), TensorShape(shape), name or "Placeholder")
    graph.inputs.pop()  # (fed by name, not an argument)
    return t


@export("compat.v1.sparse_placeholder", "compat.v1.sparse.placeholder")
def sparse_placeholder(dtype, shape=None, name=None):
    """A `SparseTensor` whose value each `Session.run` feeds (a `SparseTensorValue`, or
    its three parts, fed alone: `dense_shape` then defaults to `shape`).

    >>> g = tf.compat.v1.Graph()
    >>> with g.as_default():
    ...     tf.compat.v1.sparse_placeholder(tf.float32, [None, 3], name="sp").shape
    TensorShape([None, 3])
    """
    from eagerflow._src.ops.sparse_tensor import SparseTensor  # noqa: PLC0415
    if v1_graph() is None:
        raise RuntimeError("`sparse_placeholder` is not compatible with eager execution.")
    named = (lambda part: f"{name}/{part}") if name is not None else (lambda part: None)
    if shape is None:
        rank = None
        dense_shape = placeholder(_d.int64, [None], named("shape"))
    else:
        shape = TensorShape(shape)
        rank = shape.rank
        default = convert_to_tensor([-1 if d is None else d for d in shape.as_list()],
                                    _d.int64, name=named("shape_default"))
        dense_shape = placeholder_with_default(default, [rank], named("shape"))
        dense_shape._fed_default = True  # (no static value: its -1 stand for unknown dims)
    values = placeholder(dtype, [None], named("values"))
    indices = placeholder(_d.int64, [None, rank], named("indices"))
    result = SparseTensor(indices, values, dense_shape)
    result._shape_hint = TensorShape(shape) if shape is not None else TensorShape(None)
    return result


@export("compat.v1.placeholder_with_default")
def placeholder_with_default(input, shape, name=None):  # noqa: A002 (TF's name)
    """`input`, unless a run feeds another value (of `shape`, which may be less specific)."""
    if context.executing_eagerly():
        return convert_to_tensor(input)
    from eagerflow._src.core.dispatch import dispatch  # noqa: PLC0415
    from eagerflow._src.core import registry  # noqa: PLC0415
    value = convert_to_tensor(input)
    shape = TensorShape(shape)
    if not shape.is_compatible_with(value.shape):
        raise ValueError(f"Shapes must be equal rank, but are {len(value.shape)} and "
                         f"{len(shape)}" if value.shape.rank != shape.rank else
                         f"Dimensions must be compatible: {value.shape} vs {shape}")
    out = dispatch(registry.get("Identity"), (value,), name=name or "PlaceholderWithDefault")
    out._shape = shape
    out._fed_default = True  # (no static value: a run may feed another one)
    return out


@export("compat.v1.name_scope")
class name_scope:  # noqa: N801 (TF's public name)
    """TF 1's ``name_scope(name, default_name=None, values=None)``: in a graph, the scope
    is made unique (``outer/inner_1/``) as TF 1 does; it yields the scope's name."""

    def __init__(self, name, default_name=None, values=None):
        del values
        self._name = default_name if name is None else name
        self._swap = None

    def __enter__(self):
        graph = context.get().graph
        name = self._name
        context.check_scope_name(name)
        if name and not name.endswith("/") and getattr(graph, "unique_scopes", False):
            name = graph.unique_name(name) + "/"
            self._swap = context.name_scope_push(name)
        else:
            self._swap = context.name_scope_push(name or "")
        self._swap.__enter__()
        return context.get().scope

    def __exit__(self, *exc):
        return self._swap.__exit__(*exc)


@export("compat.v1.control_dependencies")
def control_dependencies(control_inputs):
    """Ops built in the block run after `control_inputs` (see `Graph.control_dependencies`).

    Eagerly the block adds nothing, as TF's; in the graph of a `function`, `cond` or
    `while_loop` (whose stateful ops run in program order anyway) the ops record it."""
    graph = context.get().graph
    if graph is None:
        return contextlib.nullcontext()
    return graph.control_dependencies(control_inputs)


@export("no_op", "compat.v1.no_op")
def no_op(name=None):
    """An operation that does nothing but run after its control dependencies."""
    graph = v1_graph()
    if graph is None:
        return context.no_outputs()
    return graph._add(None, "NoOp", graph.unique_name(name or "NoOp"), (), {}, [])


@export("group", "compat.v1.group")
def group(*inputs, name=None):
    """One operation that runs after all of `inputs` (operations or tensors, nested)."""
    from eagerflow._src.core import nest  # noqa: PLC0415
    graph = v1_graph()
    if graph is None:
        return context.no_outputs()
    deps = [i for i in nest.flatten(list(inputs)) if i is not None]
    for i in deps:
        if isinstance(i, (str, bytes)):
            raise TypeError(f"'inputs' should be zero or more (nested) Tensors. Received "
                            f"'{i}' with type '{type(i)}'.")
    with graph.control_dependencies(deps):
        return no_op(name or "group_deps")


@export("tuple")
def tuple_(tensors, control_inputs=None, name=None):
    """`tensors` (None kept) through identities that wait for all of them (and for
    `control_inputs`) in a TF 1 graph."""
    from eagerflow._src.ops.cast_ops import identity  # noqa: PLC0415
    if context.executing_eagerly():  # nothing to wait for: TF gives them back as they are
        return tensors
    for c in control_inputs or ():
        if not isinstance(c, (Tensor, context.Operation)):
            raise TypeError(f"'control_inputs' must only contain Operation or Tensor. "
                            f"Received: {type(c)}")
    if not control_inputs and all(t is None for t in tensors):
        raise ValueError(f"'tensors' must have at least one Tensor. Received: {tensors}.")
    graph = v1_graph()
    if graph is None:
        return [None if t is None else identity(t) for t in tensors]
    return gradient_names.gated_tuple(tensors, control_inputs, name)


@export("compat.v1.tuple")
def tuple_v1(tensors, name=None, control_inputs=None):
    """`tf.tuple` with `name` before `control_inputs`."""
    return tuple_(tensors, control_inputs, name)


@export("compat.v1.add_to_collection")
def add_to_collection(name, value):
    get_default_graph().add_to_collection(name, value)


@export("compat.v1.add_to_collections")
def add_to_collections(names, value):
    get_default_graph().add_to_collections(names, value)


@export("compat.v1.get_collection")
def get_collection(key, scope=None):
    """The items of collection `key` of the default graph (see `Graph.get_collection`)."""
    return get_default_graph().get_collection(key, scope)


@export("compat.v1.get_collection_ref")
def get_collection_ref(key):
    return get_default_graph().get_collection_ref(key)



_tensor_hash = _graph.SymbolicTensor.__hash__


def _hash(self):
    # As in TF, a tensor of a v1 graph is hashable (feed_dict keys), by identity.
    if self._op.graph.building_function is False:
        return id(self)
    return _tensor_hash(self)


_graph.SymbolicTensor.__hash__ = _hash
_ragged_hash = RaggedTensor.__hash__


def _ragged_tensor_hash(self):
    # (a ragged tensor of a v1 graph too: a ragged placeholder is a feed_dict key)
    values = self.flat_values
    if isinstance(values, _graph.SymbolicTensor) and values._op.graph.building_function is False:
        return id(self)
    return _ragged_hash(self)


RaggedTensor.__hash__ = _ragged_tensor_hash
