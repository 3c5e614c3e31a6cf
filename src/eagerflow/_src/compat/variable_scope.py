"""TF 1's variables in graphs (``tf.compat.v1.Variable``, `get_variable`,
`variable_scope`) and their collections and initializers.

A graph variable has no value of its own: each `Session` holds the values of the
variables it initialized, and the variable's handle reads and writes the values
of the session running the graph (so two sessions of one graph train apart, as
in TF).

>>> g = tf.compat.v1.Graph()
>>> with g.as_default():
...     with tf.compat.v1.variable_scope("layer"):
...         w = tf.compat.v1.get_variable("w", [2], initializer=tf.compat.v1.ones_initializer())
...     init = tf.compat.v1.global_variables_initializer()
>>> w
<tf.Variable 'layer/w:0' shape=(2,) dtype=float32>
>>> with tf.compat.v1.Session(graph=g) as sess:
...     _ = sess.run(init)
...     sess.run(w)
array([1., 1.], dtype=float32)
"""
import enum
import functools
import inspect
import threading
from collections.abc import Sequence as _Sequence

from eagerflow._src.backend.api_export import export
from eagerflow._src.backend.devices import DeviceSpec
from eagerflow._src.checkpoint import trackable as _trackable
from eagerflow._src.compat import graph_mode
from eagerflow._src.compat import v1_names as _v1_names
from eagerflow._src.compat import init_ops_v1 as _v1_init
from eagerflow._src.compat import partitioned_variables as _partitioned
from eagerflow._src.compat.graph_mode import GraphKeys, v1_graph
from eagerflow._src.core import context, errors
from eagerflow._src.core import dtypes as _d
from eagerflow._src.core import variables as _variables
from eagerflow._src.core.convert import constant, convert_to_tensor
from eagerflow._src.core.tensor import Tensor
from eagerflow._src.core.dispatch import dispatch
from eagerflow._src.core.tensor_shape import TensorShape
from eagerflow._src.core.variables import ResourceHandle, Variable
from eagerflow._src.ops import cast_ops as _cast_ops
from eagerflow._src.ops import lookup_ops as _lookup_ops

# The variable values of the session running a graph now, in this thread.
running = threading.local()


def uninitialized_message(variable):
    """TF's message for a read of `variable` in a session that has not initialized it."""
    name = variable.name[:-2]
    if getattr(variable, "_ref", False):  # (TF 1's ref variables: `disable_v2_behavior`)
        return f"Attempting to use uninitialized value {name}"
    return (f"Could not find variable {name}. This could mean that the variable has been "
            f"deleted. In TF1, it can also mean the variable is uninitialized. Debug info: "
            f"container=localhost, status error message=Container localhost does not exist. "
            f"(Could not find resource: localhost/{name})")


class _SessionHandle(ResourceHandle):
    """A graph variable's handle: its value is that of the running session."""

    __slots__ = ("variable",)

    def __init__(self, variable):  # noqa: PLW0231 (no value of its own)
        self.variable = variable

    @property
    def value(self):
        store = getattr(running, "store", None)
        found = None if store is None else store.get(self)
        if found is None:
            raise errors.FailedPreconditionError(None, None, uninitialized_message(
                self.variable))
        return found

    @value.setter
    def value(self, array):
        running.store[self] = array


_trackable.SESSION_HANDLES = (_SessionHandle,)  # (checkpoints read them in a session)


class SessionTable(_lookup_ops.TableValue):
    """A lookup table of a graph: its entries (and whether it is initialized) are those of
    the running session, empty and uninitialized until the session fills it."""

    __slots__ = ()

    def __init__(self, key_dtype, value_dtype):  # noqa: PLW0231 (no entries of its own)
        self.key_dtype, self.value_dtype = key_dtype, value_dtype
        self.static = False
        self.reserved = ()
        self.value_shape = ()
        self.number = self.next_number()

    def _state(self):
        store = getattr(running, "store", None)
        if store is None:  # (not run by a session: nothing in it)
            return _lookup_ops.TableValue(self.key_dtype, self.value_dtype)
        found = store.get(self)
        if found is None:
            found = store[self] = _lookup_ops.TableValue(self.key_dtype, self.value_dtype)
        return found

    def _forward(name):  # noqa: N805
        return property(lambda self: getattr(self._state(), name),
                        lambda self, value: setattr(self._state(), name, value))

    entries = _forward("entries")
    initialized = _forward("initialized")
    token_index = _forward("token_index")
    del _forward


@export("compat.v1.Variable")
class GraphVariable(Variable):
    """A variable of a TF 1 graph (``tf.compat.v1.Variable``); eagerly, a TF 2 `Variable`.

    Its `initializer` assigns `initial_value` in the session that runs it; it joins
    `collections` (the global variables, and the trainable ones when `trainable`).
    Made through the creators of `variable_creator_scope`s, as TF's is.
    """

    _creators_make = True

    def __init__(self, initial_value=None, trainable=None, collections=None,
                 validate_shape=True, caching_device=None, name=None, variable_def=None,
                 dtype=None, expected_shape=None, import_scope=None, constraint=None,
                 use_resource=None, synchronization=_variables.VariableSynchronization.AUTO,
                 aggregation=_variables.VariableAggregation.NONE, shape=None):
        graph = v1_graph()
        if graph is None:
            super().__init__(initial_value, trainable, validate_shape, caching_device, name,
                             variable_def, dtype, import_scope, constraint, synchronization,
                             aggregation, shape)
            return
        if initial_value is None:
            raise ValueError("The `initial_value` arg to `Variable` must be specified.")
        context.check_scope_name(name)  # (a scope of its name holds its ops)
        full = graph.unique_name(name or "Variable")
        with context.name_scope_push(full + "/"):
            with context.name_scope_push("Initializer"), \
                    graph.control_dependencies(None):
                if callable(initial_value):
                    initial_value = initial_value()
                want = None if dtype is None else _d.as_dtype(dtype)
                if isinstance(initial_value, (Tensor, Variable)) or hasattr(
                        type(initial_value), "__tf_tensor__"):
                    value = convert_to_tensor(initial_value, dtype=want)
                else:  # (a Python or NumPy value: a constant named as TF names it)
                    value = constant(initial_value, dtype=want, name="initial_value")
            self._trainable = True if trainable is None else bool(trainable)
            self._dtype = value.dtype
            self._shape = (TensorShape(None) if not validate_shape else
                           value.shape if shape is None else TensorShape(shape))
            if not self._shape.is_compatible_with(value.shape):
                raise ValueError(f"The initial value's shape ({value.shape}) is not compatible "
                                 f"with the explicitly supplied `shape` argument "
                                 f"({self._shape}).")
            self._handle = _SessionHandle(self)
            self._unique_id = next(_variables._creation_order)
            self._initial_value = value
            self._name = full + ":0"
            self._constraint = constraint
            self._synchronization = synchronization
            self._aggregation = aggregation
            self._graph = graph
            # (as a graph's ops: the device asked for, "" for none; a device function places
            # the variable by its handle op)
            spec = context.get().device_spec
            self._device = graph.place(self.op) or (
                DeviceSpec.from_string(spec).to_string() if spec else "")
            self.op.device = self._device
            # TF 1's ref variables: asked for, or the default once resource variables are
            # disabled (`disable_v2_behavior`)
            self._ref = use_resource is False or (
                use_resource is None and not _v1_names._switches["resource_variables"])
            with graph.control_dependencies(None):
                if not self._ref:  # (TF's resource variable asks whether it has a value)
                    with context.name_scope_push("IsInitialized"):
                        dispatch(_variables.VAR_IS_INITIALIZED, (self,))
                dispatch(_variables._ASSIGN, (self, value), name="Assign")
                self._initializer_op = graph.get_operations()[-1]
                with context.name_scope_push("Read"):
                    self._snapshot = dispatch(_variables._READ, (self,))
        if collections is None:
            collections = [GraphKeys.GLOBAL_VARIABLES]
        if self._trainable and GraphKeys.TRAINABLE_VARIABLES not in collections:
            collections = [*collections, GraphKeys.TRAINABLE_VARIABLES]
        graph.add_to_collections(collections, self)

    @classmethod
    def _of_imported_graph(cls, graph, name, dtype, shape, trainable):
        """A variable of `graph` whose ops come from an imported GraphDef (which names its
        initializer and snapshot, to be set once imported): no ops of its own."""
        self = object.__new__(cls)
        self._trainable, self._dtype, self._shape = bool(trainable), dtype, TensorShape(shape)
        self._handle = _SessionHandle(self)
        self._unique_id = next(_variables._creation_order)
        self._initial_value = None
        self._name = name
        self._constraint = None
        self._synchronization = _variables.VariableSynchronization.AUTO
        self._aggregation = _variables.VariableAggregation.NONE
        self._device = context.get().device_name
        self._graph = graph
        return self

    initializer = property(lambda self: getattr(self, "_initializer_op", None))

    @property
    def op(self):
        """The variable's ``VarHandleOp`` (of its own name, outputting its resource handle),
        as in TF; it is not one of the graph's operations: the variable itself stands in
        for the handle where its ops take it."""
        graph = getattr(self, "_graph", None)
        if graph is None:
            return None
        found = getattr(self, "_handle_op", None)
        if found is None:
            from eagerflow._src.graph.graph import Operation  # noqa: PLC0415
            found = Operation(graph, None, "VarHandleOp", self._name[:-2], (),
                              {"dtype": self._dtype, "shape": self._shape,
                               "shared_name": self._name[:-2].encode(), "container": b""},
                              None)
            found.outputs = (graph.tensor_type(found, 0, TensorShape([]), _d.resource),)
            self._handle_op = found
        return found
    graph = property(lambda self: getattr(self, "_graph", None))

    @property
    def initial_value(self):
        return self._initial_value

    def initialized_value(self):
        """This variable's value, or its initial value in a run where it is not initialized
        yet (TF 1's way to initialize one variable from another)."""
        if getattr(self, "_graph", None) is None or v1_graph() is None:
            return self.read_value()
        from eagerflow._src.graph import control_flow  # noqa: PLC0415
        return control_flow.cond(is_variable_initialized(self), self.read_value,
                                 lambda: self._initial_value)

    def _write(self, op, value, read_value, name):
        if getattr(self, "_graph", None) is None or v1_graph() is None:
            return super()._write(op, value, read_value, name)
        graph = v1_graph()
        value = convert_to_tensor(value, dtype=self._dtype)
        if op is _variables._ASSIGN and not self._shape.is_compatible_with(value.shape):
            raise ValueError(f"Shapes {self._shape} and {value.shape} are incompatible")
        dispatch(op, (self, value), name=name)
        update = graph.get_operations()[-1]
        if not read_value:
            return update
        with graph.control_dependencies([update]):
            return dispatch(_variables._READ, (self,))

    def read_value(self):
        """A fresh read of the value; in a graph, an ``Identity`` as TF makes: of a
        ``Read/ReadVariableOp`` (resource variables), or named ``read`` (ref variables)."""
        graph = v1_graph()
        if getattr(self, "_graph", None) is None or graph is None:
            return super().read_value()
        if getattr(self, "_ref", False):
            name = graph.unique_name("read")
            with context.name_scope_push(name + "/"):
                value = dispatch(_variables._READ, (self,))
            return _cast_ops.identity(value, name=name + "/")
        with context.name_scope_push(graph.unique_name("Read") + "/"):
            value = dispatch(_variables._READ, (self,))
        return _cast_ops.identity(value)

    def eval(self, session=None):
        """The value in `session` (the default session when None)."""
        from eagerflow._src.compat import session as _session  # noqa: PLC0415
        return _session.resolve(session).run(self)

    def load(self, value, session=None):
        from eagerflow._src.compat import session as _session  # noqa: PLC0415
        _session.resolve(session).run(self._initializer_op, {self._initial_value: value})

    def is_initialized(self, name=None):
        """Whether the variable holds a value: while its graph is built, a bool scalar tensor
        (``VarIsInitializedOp``) to run; else whether the running session holds one."""
        if getattr(self, "_graph", None) is not None and v1_graph() is self._graph:
            return super().is_initialized(name)
        return getattr(running, "store", {}).get(self._handle) is not None

    def __repr__(self):
        if getattr(self, "_graph", None) is not None:
            ref = "_ref" if getattr(self, "_ref", False) else ""
            return (f"<tf.Variable '{self._name}' shape={self._shape} "
                    f"dtype={self._dtype.name}{ref}>")
        return super().__repr__()

    __str__ = __repr__


class _GraphVariableV2(GraphVariable):
    """What ``tf.Variable(...)`` makes while a v1 graph is built: a variable of that graph
    (initialized by its `initializer`), also when made under `init_scope` (a Keras layer's
    weights, built there)."""

    def __init__(self, initial_value=None, trainable=None, validate_shape=True,
                 caching_device=None, name=None, variable_def=None, dtype=None,
                 import_scope=None, constraint=None,
                 synchronization=_variables.VariableSynchronization.AUTO,
                 aggregation=_variables.VariableAggregation.NONE, shape=None,
                 experimental_enable_variable_lifting=True):
        if synchronization == _variables.VariableSynchronization.ON_READ and trainable is None:
            trainable = False
        graph = graph_mode.outer_v1_graph()
        lifted = v1_graph() is None  # (under `init_scope`: built into the graph, in scope)
        scope = context.get().scope
        with context.building(graph) if lifted else _unchanged():
            with context.name_scope_push(scope) if lifted else _unchanged():
                super().__init__(initial_value, trainable=trainable,
                                 validate_shape=validate_shape, name=name, dtype=dtype,
                                 constraint=constraint, synchronization=synchronization,
                                 aggregation=aggregation, shape=shape,
                                 use_resource=True)  # (TF 2's variables are resource ones)


class _unchanged:  # noqa: N801 (a null context)
    def __enter__(self):
        return None

    def __exit__(self, *exc):
        return None


# -- variable_scope ---------------------------------------------------------------
class _ReuseMode(enum.Enum):
    AUTO_REUSE = 1


AUTO_REUSE = _ReuseMode.AUTO_REUSE
export("compat.v1.AUTO_REUSE").export_constant(__name__, "AUTO_REUSE")

_scope = threading.local()


@export("compat.v1.VariableScope")
class VariableScope:
    """The variable scope in force (``tf.compat.v1.VariableScope``): its name, reuse and
    default initializer, regularizer and dtype."""

    def __init__(self, reuse, name="", initializer=None, regularizer=None, dtype=_d.float32,
                 partitioner=None):
        self.reuse, self.name, self.initializer = reuse, name, initializer
        self.regularizer, self.dtype = regularizer, dtype
        self.partitioner = partitioner
        self.use_resource = None
        self.custom_getter = None
        self.original_name_scope = name + "/" if name else ""

    @property
    def reuse(self):
        """Whether `get_variable` reuses variables here: True, False, None or
        `AUTO_REUSE`; always `AUTO_REUSE` executing eagerly, as in TF 2."""
        if context.executing_eagerly():
            return AUTO_REUSE
        return self._reuse

    @reuse.setter
    def reuse(self, value):
        self._reuse = value

    def set_custom_getter(self, custom_getter):
        self.custom_getter = custom_getter

    def reuse_variables(self):
        self.reuse = True

    def set_initializer(self, initializer):
        self.initializer = initializer

    def set_partitioner(self, partitioner):
        self.partitioner = partitioner

    def get_variable(self, name, *args, **kwargs):
        return get_variable(name, *args, **kwargs)


class eager_variable_store:  # noqa: N801 (a context manager, named as one)
    """Executing eagerly, `get_variable` keeps the variables it makes in `store` (a dict
    from full name to variable) and reuses them from there, as it does in a graph."""

    def __init__(self, store):
        self._store = store

    def __enter__(self):
        self._outer = getattr(_scope, "eager_store", None)
        _scope.eager_store = self._store

    def __exit__(self, *exc):
        _scope.eager_store = self._outer


class shim_variable_store:  # noqa: N801 (a context manager, named as one)
    """Executing eagerly, `get_variable` keeps the variables it makes in `store` (a
    ``track_tf1_style_variables`` method's store: ``store._vars`` by full name, and
    ``store.add_regularizer(variable, regularizer)``) and always reuses them, as TF's
    shim store does; templates called inside keep theirs there too."""

    def __init__(self, store):
        self._store = store

    def __enter__(self):
        self._outer = getattr(_scope, "shim", None), getattr(_scope, "eager_store", None)
        _scope.shim, _scope.eager_store = self._store, None

    def __exit__(self, *exc):
        _scope.shim, _scope.eager_store = self._outer


def shim_store():
    """The store of the ``track_tf1_style_variables`` method running, or None."""
    return getattr(_scope, "shim", None)


def _current():
    found = getattr(_scope, "stack", None)
    if not found:
        _scope.stack = found = [VariableScope(False)]
    return found[-1]


@export("compat.v1.get_variable_scope")
def get_variable_scope():
    return _current()


@export("compat.v1.variable_scope")
class variable_scope:  # noqa: N801 (TF's public name)
    """Names variables of `get_variable` ``"scope/name"`` and says whether they may be
    reused (``reuse=True`` or `AUTO_REUSE`); also a name scope for the ops built inside."""

    def __init__(self, name_or_scope, default_name=None, values=None, initializer=None,
                 regularizer=None, caching_device=None, partitioner=None, custom_getter=None,
                 reuse=None, dtype=None, use_resource=None, constraint=None,
                 auxiliary_name_scope=True):
        if name_or_scope is None and default_name is None:
            raise TypeError("If default_name is None then name_or_scope is required")
        self._name, self._default = name_or_scope, default_name
        self._initializer, self._regularizer = initializer, regularizer
        self._reuse, self._dtype, self._use_resource = reuse, dtype, use_resource
        self._partitioner = partitioner
        self._custom_getter = custom_getter
        self._aux = auxiliary_name_scope

    def __enter__(self):
        outer = _current()
        # (TF's counts of the scopes entered, by full name: a default name takes the first
        # suffix not entered; leaving a scope entered by name forgets the counts below it,
        # so a block entering ``model`` again makes ``model/dense`` again)
        counts = self._counts = graph_mode.default_v1_graph()._scopes
        if isinstance(self._name, VariableScope):
            name = self._name.name
            base = self._name
        else:
            base = outer
            if self._name is not None:
                name = (outer.name + "/" if outer.name else "") + self._name
            else:
                name = _unused_scope((outer.name + "/" if outer.name else "") + self._default)
        counts[name] = counts.get(name, 0) + 1
        self._entered = name
        self._saved = dict(counts) if isinstance(self._name, VariableScope) else None
        reuse = self._reuse
        if reuse is None or reuse is False:
            reuse = outer.reuse or (base.reuse if base is not outer else False)
        scope = VariableScope(reuse, name,
                              self._initializer or base.initializer,
                              self._regularizer or base.regularizer,
                              self._dtype or base.dtype,
                              self._partitioner or base.partitioner)
        scope.use_resource = (self._use_resource if self._use_resource is not None
                              else base.use_resource)
        scope.custom_getter = _wrapped_getter(self._custom_getter, base.custom_getter)
        _scope.stack.append(scope)
        self._names = None
        if self._aux and name:  # (the root scope, reentered, opens no name scope)
            graph = context.get().graph
            graph = graph if getattr(graph, "unique_scopes", False) else None
            # (a default name is made unique as a name scope on its own: the variable scope
            # ``a_1`` may open the name scope ``a_2``)
            last = self._default if self._name is None else _last(name)
            if graph is not None:
                self._names = context.name_scope_push(graph.unique_name(last) + "/")
            else:
                self._names = context.name_scope_push(_last(name))
            self._names.__enter__()
        scope.original_name_scope = (base.original_name_scope if base is self._name
                                     else context.get().scope)
        return scope

    def __exit__(self, *exc):
        if self._names is not None:
            self._names.__exit__(*exc)
        _scope.stack.pop()
        counts = self._counts
        if self._saved is not None:  # (a scope object reentered: the counts as they were)
            counts.clear()
            counts.update(self._saved)
        else:
            below = self._entered + "/"
            for key in counts:
                if key.startswith(below):
                    counts[key] = 0


def _unused_scope(raw):
    """`raw`, or with the first suffix ``_1``, ``_2``... that makes it the full name of a
    variable scope not entered yet (of the current graph: eagerly, of the program)."""
    counts = graph_mode.default_v1_graph()._scopes
    name, index = raw, 1
    while counts.get(name, 0):
        name, index = f"{raw}_{index}", index + 1
    return name


def enter_unused_scope(raw):
    """The name `_unused_scope` gives, counted as entered (the name of a slot variable,
    which TF makes in a variable scope of that default name)."""
    name = _unused_scope(raw)
    counts = graph_mode.default_v1_graph()._scopes
    counts[name] = counts.get(name, 0) + 1
    return name


def _last(name):
    return name.rpartition("/")[2]


@export("compat.v1.get_variable")
def get_variable(name, shape=None, dtype=None, initializer=None, regularizer=None,
                 trainable=None, collections=None, caching_device=None, partitioner=None,
                 validate_shape=True, use_resource=None, custom_getter=None, constraint=None,
                 synchronization=_variables.VariableSynchronization.AUTO,
                 aggregation=_variables.VariableAggregation.NONE):
    """The variable ``"<scope>/name"``: made (with `initializer`, else the scope's, else
    Glorot uniform for floats and zeros otherwise) unless the scope reuses it.

    A new name in a reusing scope, or an existing one in a scope that does not reuse,
    raises TF's ValueError. With a `partitioner` (or the scope's), a `PartitionedVariable`
    of shards ``name/part_<i>``.
    """
    scope = _current()
    getter = _wrapped_getter(custom_getter, scope.custom_getter)
    if getter is not None:
        # (a variable's name is its variable scope's alone: the getter runs outside the name
        # scopes entered, as in TF, so that the ops it adds are named from the root)
        with context.name_scope_push(""):
            return _through_getter(getter, scope, name, shape, dtype, initializer, regularizer,
                                   trainable, collections, caching_device, partitioner,
                                   validate_shape, use_resource, constraint, synchronization,
                                   aggregation)
    graph = graph_mode.default_v1_graph()
    if dtype is not None and initializer is not None and _is_value(initializer):
        given = convert_to_tensor(initializer).dtype.base_dtype
        if given != _d.as_dtype(dtype).base_dtype:
            raise ValueError(f"Initializer type '{given}' and explicit dtype "
                             f"'{_d.as_dtype(dtype)}' don't match.")
    partitioner = partitioner if partitioner is not None else scope.partitioner
    scalar = isinstance(shape, _Sequence) and not shape
    partitioned = getattr(graph, "partitioned_store", {})
    if (partitioner is not None and not scalar or scope.reuse is True
            and partitioned.get(_full_name(scope, name)) is not None):
        full = _full_name(scope, name)
        if full in getattr(graph, "variable_store", ()):
            raise ValueError(f"A partitioner was provided, but an unpartitioned version of the "
                             f"variable was found: {full}.  Perhaps a variable of the same "
                             f"name was already created without partitioning?")

        def shard(part, part_shape, part_dtype, part_initializer):
            return _single_variable(scope, graph, part, part_shape, part_dtype,
                                    part_initializer, regularizer, trainable, collections,
                                    validate_shape, use_resource, constraint)
        initializer = initializer if initializer is not None else scope.initializer
        if dtype is None and initializer is not None and _is_value(initializer):
            initializer = convert_to_tensor(initializer)  # (whose dtype the variable takes)
        dtype = _d.as_dtype(dtype) if dtype is not None else (
            initializer.dtype.base_dtype if isinstance(initializer, Tensor) else scope.dtype)
        return _partitioned.get_partitioned_variable(
            shard, full, name, shape, dtype,
            _default_initializer(dtype, full) if initializer is None else initializer,
            partitioner,
            scope.reuse, partitioned)
    full = _full_name(scope, name)
    if f"{full}/part_0" in getattr(graph, "variable_store", ()):
        raise ValueError(f"No partitioner was provided, but a partitioned version of the "
                         f"variable was found: {full}/part_0. Perhaps a variable of the same "
                         f"name was already created with partitioning?")
    return _single_variable(scope, graph, name, shape, dtype, initializer, regularizer,
                            trainable, collections, validate_shape, use_resource, constraint)


def _wrapped_getter(custom_getter, outer):
    """`custom_getter` called with `outer` (the enclosing scope's getter) as its getter, as
    TF nests them; either alone when the other is None."""
    if custom_getter is None or outer is None:
        return custom_getter if outer is None else outer

    def wrapped(getter, *args, **kwargs):
        return custom_getter(functools.partial(outer, getter), *args, **kwargs)
    return wrapped


def _through_getter(getter, scope, name, shape, dtype, initializer, regularizer, trainable,
                    collections, caching_device, partitioner, validate_shape, use_resource,
                    constraint, synchronization, aggregation):
    """`get_variable` through a custom getter: called with the full name and the arguments
    by keyword, and `getter` (the plain `get_variable` of a full name) to make the variable."""
    def true_getter(name, shape=None, dtype=None, initializer=None, regularizer=None,
                    reuse=None, trainable=None, collections=None, caching_device=None,
                    partitioner=None, validate_shape=True, use_resource=None, constraint=None,
                    synchronization=_variables.VariableSynchronization.AUTO,
                    aggregation=_variables.VariableAggregation.NONE, **_):
        inner = VariableScope(reuse, "", scope.initializer, scope.regularizer, scope.dtype,
                              scope.partitioner)
        inner.use_resource = scope.use_resource
        _scope.stack.append(inner)
        try:
            return get_variable(name, shape, dtype, initializer, regularizer, trainable,
                                collections, caching_device, partitioner, validate_shape,
                                use_resource, None, constraint, synchronization, aggregation)
        finally:
            _scope.stack.pop()
    kwargs = dict(getter=true_getter, name=_full_name(scope, name), shape=shape, dtype=dtype,
                  initializer=initializer, regularizer=regularizer, reuse=scope.reuse,
                  trainable=trainable, collections=collections, caching_device=caching_device,
                  partitioner=partitioner, validate_shape=validate_shape,
                  use_resource=use_resource, synchronization=synchronization,
                  aggregation=aggregation)
    parameters = inspect.signature(getter).parameters
    if "constraint" in parameters or any(p.kind is p.VAR_KEYWORD
                                         for p in parameters.values()):
        kwargs["constraint"] = constraint
    return getter(**kwargs)


def _is_value(initializer):
    """Whether `initializer` is the initial value itself (a tensor, array or list), not a
    function making it."""
    return not callable(initializer) or hasattr(initializer, "shape")


def _default_initializer(dtype, name):
    """TF 1's initializer of a variable given none: Glorot's uniform for floats, zeros
    (false, empty strings) for integers, booleans and strings; others need one."""
    if dtype.is_floating:
        return _v1_init.GlorotUniform()
    if dtype.is_integer or dtype.is_unsigned or dtype.is_bool or dtype == _d.string:
        return _v1_init.Zeros()
    raise ValueError(f"An initializer for variable {name} of {dtype.base_dtype} is required")


def _full_name(scope, name):
    return "/".join(part for part in (scope.name, name) if part)


def _single_variable(scope, graph, name, shape, dtype, initializer, regularizer, trainable,
                     collections, validate_shape, use_resource, constraint):
    full = _full_name(scope, name)
    eager_store = getattr(_scope, "eager_store", None)  # (an eager template's variables)
    shim = getattr(_scope, "shim", None)  # (a `track_tf1_style_variables` method's)
    store = graph.variable_store if eager_store is None else eager_store
    if shim is not None and eager_store is None:
        store = shim._vars
    found = store.get(full)
    reuses = store is shim_vars(shim)  # (a shim's store always reuses, and makes)
    if found is not None:
        if not reuses and (scope.reuse is False or scope.reuse is None):
            raise ValueError(f"Variable {full} already exists, disallowed. Did you mean to set "
                             f"reuse=True or reuse=tf.AUTO_REUSE in VarScope?")
        if shape is not None and not TensorShape(shape).is_compatible_with(found.shape):
            raise ValueError(f"Trying to share variable {full}, but specified shape "
                             f"{TensorShape(shape)} and found shape {found.shape}.")
        if dtype is not None and _d.as_dtype(dtype) != found.dtype:
            raise ValueError(f"Trying to share variable {full}, but specified dtype "
                             f"{_d.as_dtype(dtype).name} and found dtype {found.dtype.name}"
                             f"{'_ref' if getattr(found, '_ref', False) else ''}.")
        return found
    if scope.reuse is True and not reuses:
        raise ValueError(f"Variable {full} does not exist, or was not created with "
                         f"tf.get_variable(). Did you mean to set reuse=tf.AUTO_REUSE in "
                         f"VarScope?")
    initializer = initializer if initializer is not None else scope.initializer
    if initializer is not None and not callable(initializer) and shape is not None:
        raise ValueError("If initializer is a constant, do not specify shape.")
    if dtype is not None:
        dtype = _d.as_dtype(dtype)
    elif initializer is None or not _is_value(initializer):
        dtype = scope.dtype  # (a value as the initializer gives the variable its dtype)
    if initializer is None:
        if shape is None:
            raise ValueError(f"Variable {full} did not get an initializer, so its `shape` "
                             f"argument must be specified.")
        initializer = _default_initializer(dtype, full)
    if isinstance(initializer, type):  # (an initializer's class: an instance of it, as TF)
        initializer = initializer()
    if not _is_value(initializer):
        if shape is None or not TensorShape(shape).is_fully_defined():
            raise ValueError("The initializer passed is not valid. It should be a callable "
                             "with no arguments and the shape should not be provided or an "
                             "instance of `tf.keras.initializers.*' and `shape` should be "
                             "fully defined.")
        shape_list = TensorShape(shape).as_list()

        def initial():
            try:
                return initializer(shape_list, dtype=dtype)
            except TypeError:
                return initializer(shape_list)
        value, shape_arg = initial, shape
    else:
        value, shape_arg = initializer, None
    # (a shim's variables are made outside any function or Keras graph being built)
    with context.init_scope() if shim is not None else _unchanged():
        with context.name_scope_push(""):
            with context.name_scope_push(scope.name + "/" if scope.name else ""):
                var = GraphVariable(value, trainable=True if trainable is None else trainable,
                                    collections=collections, validate_shape=validate_shape,
                                    name=name, dtype=dtype, constraint=constraint,
                                    shape=None if shape_arg is None else TensorShape(shape_arg),
                                    use_resource=_use_resource(use_resource, scope))
    if v1_graph() is not None or eager_store is not None or shim is not None:
        store[full] = var
    regularizer = regularizer or scope.regularizer
    if shim is not None:
        shim._vars[full] = var  # (a template's too)
        if regularizer is not None:
            shim.add_regularizer(var, regularizer)
    if regularizer is not None and v1_graph() is not None:
        with context.name_scope_push(full + "/Regularizer/"):
            loss = regularizer(var)
        if loss is not None:
            graph.add_to_collection(GraphKeys.REGULARIZATION_LOSSES, loss)
    return var


def shim_vars(shim):
    return None if shim is None else shim._vars


def _use_resource(use_resource, scope):
    """Whether `get_variable` makes a resource variable: as asked, else as the scope says,
    else unless `disable_resource_variables` (or `disable_v2_behavior`) was called."""
    if use_resource is None:
        use_resource = scope.use_resource
    if use_resource is None:
        use_resource = _v1_names._switches["resource_variables"]
    return use_resource


# -- collections of variables and their initializers -------------------------------
@export("compat.v1.global_variables", "compat.v1.all_variables")
def global_variables(scope=None):
    """The variables of the default graph's global collection."""
    return graph_mode.get_collection(GraphKeys.GLOBAL_VARIABLES, scope)


@export("compat.v1.trainable_variables")
def trainable_variables(scope=None):
    return graph_mode.get_collection(GraphKeys.TRAINABLE_VARIABLES, scope)


@export("compat.v1.local_variables")
def local_variables(scope=None):
    return graph_mode.get_collection(GraphKeys.LOCAL_VARIABLES, scope)


@export("compat.v1.model_variables")
def model_variables(scope=None):
    return graph_mode.get_collection(GraphKeys.MODEL_VARIABLES, scope)


@export("compat.v1.variables_initializer", "compat.v1.initialize_variables",
        "compat.v1.initializers.variables")
def variables_initializer(var_list, name="init"):
    """One operation running the initializers of `var_list`."""
    if v1_graph() is None:
        return None
    return graph_mode.group(*[v.initializer for v in var_list], name=name)


@export("compat.v1.global_variables_initializer", "compat.v1.initialize_all_variables",
        "compat.v1.initializers.global_variables")
def global_variables_initializer():
    """The operation initializing every global variable of the default graph."""
    return variables_initializer(global_variables(), name="init")


@export("compat.v1.local_variables_initializer", "compat.v1.initialize_local_variables",
        "compat.v1.initializers.local_variables")
def local_variables_initializer():
    return variables_initializer(local_variables(), name="init")


@export("compat.v1.tables_initializer", "compat.v1.initialize_all_tables",
        "compat.v1.initializers.tables_initializer")
def tables_initializer(name="init_all_tables"):
    """One operation running the initializers of the graph's lookup tables (those of the
    ``table_initializer`` collection): a no-op when it has none; None eagerly."""
    if v1_graph() is None:
        return None
    return graph_mode.group(*graph_mode.get_collection("table_initializer"), name=name)


@export("compat.v1.is_variable_initialized")
def is_variable_initialized(variable):
    """A boolean scalar: whether `variable` is initialized (in the session running it)."""
    return dispatch(_variables.VAR_IS_INITIALIZED, (variable,))


@export("compat.v1.report_uninitialized_variables")
def report_uninitialized_variables(var_list=None, name="report_uninitialized_variables"):
    """A 1-D string tensor: the names (without ``:0``) of the variables of `var_list` (the
    global and local variables by default) not initialized in the session running it."""
    from eagerflow._src.ops import array_ops, math_ops  # noqa: PLC0415
    if var_list is None:
        var_list = global_variables() + local_variables()
    with context.name_scope_push(v1_graph().unique_name(name) + "/" if v1_graph() else name):
        if not var_list:
            return constant([], dtype=_d.string)
        names = constant([v.name[:-2] if v.name.endswith(":0") else v.name
                          for v in var_list])
        initialized = array_ops.stack([is_variable_initialized(v) for v in var_list])
        return array_ops.boolean_mask(names, math_ops.logical_not(initialized))


@export("compat.v1.assert_variables_initialized")
def assert_variables_initialized(var_list=None):
    """The ranks of the variables of `var_list` (the global and local variables by default;
    stacked when more than one), None without variables. As in TF, resource variables of
    known rank pass whether initialized or not: only TF's old reference variables failed."""
    from eagerflow._src.ops import array_ops  # noqa: PLC0415
    if var_list is None:
        var_list = global_variables() + local_variables()
    if not var_list:
        return None
    ranks = [array_ops.rank(v) if v.shape.rank is None else constant(v.shape.rank, _d.int32)
             for v in var_list]
    return ranks[0] if len(ranks) == 1 else array_ops.stack(ranks)


@export("compat.v1.assign")
def assign(ref, value, validate_shape=None, use_locking=None, name=None):
    return ref.assign(value, name=name)


@export("compat.v1.assign_add")
def assign_add(ref, value, use_locking=None, name=None):
    return ref.assign_add(value, name=name)


@export("compat.v1.assign_sub")
def assign_sub(ref, value, use_locking=None, name=None):
    return ref.assign_sub(value, name=name)


def _scatter(method):
    def scatter(ref, indices, updates, use_locking=None, name=None):
        from eagerflow._src.ops.indexed_slices import IndexedSlices  # noqa: PLC0415
        return getattr(ref, method)(IndexedSlices(convert_to_tensor(updates, ref.dtype),
                                                  convert_to_tensor(indices)), name=name)
    scatter.__name__ = method
    scatter.__doc__ = f"``ref.{method}`` of `updates` at rows `indices`; the new value."
    return scatter


def _scatter_nd(method):
    def scatter_nd(ref, indices, updates, use_locking=None, name=None):
        return getattr(ref, method)(indices, convert_to_tensor(updates, ref.dtype), name=name)
    scatter_nd.__name__ = method
    scatter_nd.__doc__ = f"``ref.{method}`` of `updates` at `indices`; the new value."
    return scatter_nd


for _name in ("update", "add", "sub", "mul", "div", "max", "min"):
    globals()[f"scatter_{_name}"] = _scatter(f"scatter_{_name}")
    export(f"compat.v1.scatter_{_name}").export_constant(__name__, f"scatter_{_name}")
for _name in ("update", "add", "sub"):
    globals()[f"scatter_nd_{_name}"] = _scatter_nd(f"scatter_nd_{_name}")
    export(f"compat.v1.scatter_nd_{_name}").export_constant(__name__, f"scatter_nd_{_name}")


@export("compat.v1.batch_scatter_update")
def batch_scatter_update(ref, indices, updates, use_locking=True, name=None):
    """For each batch position ``b`` of the leading dimensions of `indices`, sets
    ``ref[b, indices[b, k]] = updates[b, k]`` (TF 1's ``scatter_nd_update`` with the batch
    positions prepended to the indices); the updated variable.

    >>> v = tf.Variable([[1, 2, 3], [4, 5, 6]])
    >>> tf.compat.v1.batch_scatter_update(v, [[2], [0]], [[30], [40]]).numpy().tolist()
    [[1, 2, 30], [40, 5, 6]]
    """
    from eagerflow._src.ops.indexed_slices import IndexedSlices  # noqa: PLC0415
    return ref.batch_scatter_update(IndexedSlices(updates, indices), name=name)


@export("compat.v1.get_local_variable")
def get_local_variable(name, shape=None, dtype=None, initializer=None, regularizer=None,
                       trainable=False, collections=None, caching_device=None,
                       partitioner=None, validate_shape=True, use_resource=None,
                       custom_getter=None, constraint=None, synchronization=None,
                       aggregation=None):
    """`get_variable` of a local variable (in ``local_variables``, not trained)."""
    collections = [GraphKeys.LOCAL_VARIABLES, *(collections or ())]
    return get_variable(name, shape, dtype, initializer, regularizer, False, collections,
                        caching_device, partitioner, validate_shape, use_resource,
                        custom_getter, constraint)


@export("compat.v1.moving_average_variables")
def moving_average_variables(scope=None):
    """The variables of the ``moving_average_variables`` collection."""
    return graph_mode.get_collection(GraphKeys.MOVING_AVERAGE_VARIABLES, scope)


# TF 1's spellings of the initializers.
zeros_initializer, ones_initializer = _v1_init.Zeros, _v1_init.Ones
constant_initializer = _v1_init.Constant
random_normal_initializer, random_uniform_initializer = _v1_init.RandomNormal, _v1_init.RandomUniform
truncated_normal_initializer = _v1_init.TruncatedNormal
glorot_uniform_initializer = _v1_init.GlorotUniform
glorot_normal_initializer = _v1_init.GlorotNormal
variance_scaling_initializer, orthogonal_initializer = _v1_init.VarianceScaling, _v1_init.Orthogonal
for _name in ("zeros", "ones", "constant", "random_normal", "random_uniform",
              "truncated_normal", "glorot_uniform", "glorot_normal", "variance_scaling",
              "orthogonal"):
    export(f"compat.v1.{_name}_initializer", f"compat.v1.initializers.{_name}").export_constant(
        __name__, f"{_name}_initializer")
for _name, _value in (("he_normal", _v1_init.he_normal), ("he_uniform", _v1_init.he_uniform),
                      ("lecun_normal", _v1_init.lecun_normal),
                      ("lecun_uniform", _v1_init.lecun_uniform),
                      ("identity", _v1_init.Identity)):
    globals()[f"_{_name}"] = _value
    export(f"compat.v1.initializers.{_name}").export_constant(__name__, f"_{_name}")
del _name, _value
