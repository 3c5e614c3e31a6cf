"""`Variable`: a mutable tensor whose reads and writes are ops.

A variable owns a `ResourceHandle` holding its current array.  Reading is
the ``ReadVariableOp`` op and writing the ``Assign*VariableOp`` ops, so tapes
see reads (and watch trainable variables) and graphs capture variables by
reference.  Assignments replace the handle's array rather than writing into
it, so every value read earlier stays a consistent snapshot.

>>> v = tf.Variable(1.0)
>>> v.assign_add(2.0)
<tf.Variable 'UnreadVariable' shape=() dtype=float32, numpy=3.0>
"""
import contextlib
import enum
import itertools
import threading
import weakref

import numpy as np

from eagerflow._src import backend
from eagerflow._src.backend.api_export import SymbolicCall, export
from eagerflow._src.core import context
from eagerflow._src.core import dtypes as _d
from eagerflow._src.core import errors
from eagerflow._src.core.convert import convert_to_tensor, from_array, get_static_value
from eagerflow._src.core.dispatch import dispatch
from eagerflow._src.core.node_forms import NodeForm, tf_nodes
from eagerflow._src.core.node_forms import tf_args
from eagerflow._src.core.registry import RUNS_ONCE, register, register_gradient, runs_rules
from eagerflow._src.core.registry import kernel_type_name, no_kernel_error
from eagerflow._src.core.registry import takes_narrow
from eagerflow._src.core.tensor import EagerTensor, Reference, _numpy_text
from eagerflow._src.core.tensor_shape import TensorShape
from eagerflow._src.core.composite_tensor import CompositeTensor


@export("VariableSynchronization")
class VariableSynchronization(enum.Enum):
    AUTO = 0
    NONE = 1
    ON_WRITE = 2
    ON_READ = 3


@export("VariableAggregation")
class VariableAggregationV2(enum.Enum):
    """How a distributed variable's updates from the replicas combine (TF 2's, named
    ``VariableAggregationV2`` as TF's is); equal to TF 1's members of the same value."""
    NONE = 0
    SUM = 1
    MEAN = 2
    ONLY_FIRST_REPLICA = 3

    def __hash__(self):
        return hash(self.value)

    def __eq__(self, other):
        if self is other:
            return True
        if isinstance(other, VariableAggregationV1):
            return self.value == other.value
        return False


class VariableAggregationV1(enum.Enum):
    """TF 1's ``tf.compat.v1.VariableAggregation``, with the deprecated alias
    ``ONLY_FIRST_TOWER`` of ``ONLY_FIRST_REPLICA``.

    >>> tf.compat.v1.VariableAggregation.ONLY_FIRST_TOWER
    <VariableAggregation.ONLY_FIRST_REPLICA: 3>
    """
    NONE = 0
    SUM = 1
    MEAN = 2
    ONLY_FIRST_REPLICA = 3
    ONLY_FIRST_TOWER = 3

    def __hash__(self):
        return hash(self.value)


# TF's printed name; pickles still find the class by its qualified name
VariableAggregationV1.__name__ = "VariableAggregation"
export("compat.v1.VariableAggregation").export_constant(__name__, "VariableAggregationV1")
VariableAggregation = VariableAggregationV2  # (the one eagerflow's own code means)


def _sync_and_aggregation(synchronization, aggregation, name):
    """The members `synchronization` and `aggregation` name (None: AUTO and NONE; an enum's
    value: its member), as TF takes them; ValueError for anything else."""
    if not aggregation:
        aggregation = VariableAggregationV1.NONE
    elif not isinstance(aggregation, (VariableAggregationV1, VariableAggregationV2)):
        try:
            aggregation = VariableAggregationV2(aggregation)
        except ValueError:
            raise ValueError(f"Invalid variable aggregation mode: {aggregation} for variable: "
                             f"{name}") from None
    if synchronization is None:
        synchronization = VariableSynchronization.AUTO
    else:
        try:
            synchronization = VariableSynchronization(synchronization)
        except ValueError:
            raise ValueError(f"Invalid variable synchronization mode: {synchronization} for "
                             f"variable: {name}") from None
    return synchronization, aggregation


def _dense(value, dtype, name=None):
    """`value` as a tensor for a variable to hold; a ragged tensor is TF's ValueError (not
    the signal that dispatches public functions given one)."""
    try:
        return convert_to_tensor(value, dtype=dtype, name=name)
    except SymbolicCall:
        if isinstance(value, CompositeTensor):
            raise ValueError(f"TypeError: object of type '{type(value).__name__}' has no "
                             f"len()\n") from None
        raise


class ResourceHandle:
    """The storage of one variable: its current array (replaced on every write)."""

    __slots__ = ("value", "__weakref__")
    # (as TF's handle, a scalar resource tensor)
    dtype = _d.resource
    shape = TensorShape([])
    ndim = 0

    def __init__(self, value):
        self.value = value

    @property
    def device(self):
        """The device of the variable held (as TF's handle tensor's)."""
        var = _BY_HANDLE.get(id(self))
        return errors.EAGER_DEVICE if var is None else var.device


def handle_text(name, kind, container="localhost"):
    """How TF prints the handle of a resource of C++ type `kind` (a table's
    ``tensorflow::lookup::LookupInterface``)."""
    return (f'<ResourceHandle(name="{name}", device="{errors.EAGER_DEVICE}", '
            f'container="{container}", type="{kind}", dtype and shapes : "[  ]")>')


def _read(xp, handle, dtype=None):
    """The variable's array; `dtype`, where given (TF's raw op and graphs say it), must be
    the dtype it holds."""
    try:
        value = handle.value
    except errors.NotFoundError as e:  # (a `VarHandle` naming no variable)
        raise errors.FailedPreconditionError(
            None, None, f"Could not find variable {handle.name}. This could mean that the "
                        f"variable has been deleted. In TF1, it can also mean the variable is "
                        f"uninitialized. Debug info: container={handle.container}, status "
                        f"error message={e.message}") from None
    if value is None:
        raise errors.FailedPreconditionError(
            None, None, "Could not read from a variable that is not initialized yet: assign "
            "it a value first (a variable a function makes from the function's inputs is "
            "assigned its initial value when that function is first called; one a SavedModel "
            "loaded with experimental_skip_checkpoint, by its user).")
    if dtype is not None:
        held = _dtype_of(value)
        if held is not None and held != dtype:
            raise errors.InvalidArgumentError(
                None, None, f"Trying to read variable with wrong dtype. Expected "
                            f"{kernel_type_name(dtype)} got {kernel_type_name(held)}")
    return value


def _row_major(value):
    """`value` laid out row by row, as TensorFlow keeps every tensor: the optimizers update a
    variable in place, and NumPy's passes over a transposed (column-major) array, or over
    one and its row-major gradient together, run several times slower."""
    flags = getattr(value, "flags", None)
    return value if flags is None or flags.c_contiguous else value.copy(order="C")


def _assign(xp, handle, value):
    old = _held(handle)
    if old is not None and getattr(old, "dtype", None) != value.dtype:
        was, now = _dtype_of(old), _dtype_of(value)
        if was != now and None not in (was, now):
            raise errors.InvalidArgumentError(
                None, None, f"Trying to assign variable with wrong dtype. Expected "
                            f"{kernel_type_name(was)} got {kernel_type_name(now)}")
    handle.value = _row_major(value)
    return ()


def _dtype_of(array):
    """The DType of a variable's array, or None where it has none (a variant's value)."""
    try:
        return _d.from_numpy(array.dtype)
    except (AttributeError, TypeError):
        return None


def _check_update(value, delta, op_name):
    dtype = _dtype_of(delta)
    if dtype is not None and (dtype.is_bool or dtype == _d.string):  # (TF adds numbers only)
        # (TF finds no kernel before running any: its text has no function around it)
        error = no_kernel_error(op_name, {"dtype": dtype}, (), graph=True)
        raise errors.before_kernel(type(error)(
            None, op_name, f"{error.message}\n\t [[{op_name}]] [Op:{op_name}]"))
    if value.dtype != delta.dtype:
        raise errors.InvalidArgumentError(None, None,
                                          "DType of variable handle and value does not match.")
    if value.shape != delta.shape:  # (TF's kernels do not broadcast an update)
        raise errors.InvalidArgumentError(
            None, None, f"Cannot update variable with shape {errors.shape_text(value.shape)} "
                        f"using a Tensor with shape {errors.shape_text(delta.shape)}, shapes "
                        f"must be equal.")


# Updates that read a variable and write it back (``assign_add``, scatter updates) hold this
# lock from the read to the write, as TF's kernels lock the variable: from several threads,
# none is lost
UPDATE_LOCK = threading.RLock()


def _assign_add(xp, handle, delta):
    with UPDATE_LOCK:
        _check_update(handle.value, delta, "AssignAddVariableOp")
        handle.value = handle.value + delta
    return ()


def _assign_sub(xp, handle, delta):
    with UPDATE_LOCK:
        _check_update(handle.value, delta, "AssignSubVariableOp")
        handle.value = handle.value - delta
    return ()


def _var_rule(var, dtype=None, **_):
    # (the dtype stored: a Keras AutoCastVariable tells the dtype its reads are cast to)
    if isinstance(var, Variable):
        return var.shape, getattr(var, "true_dtype", var.dtype)
    # a resource tensor (``VarHandleOp``'s): the dtype the read names, the shape if known
    found = resource_variable_info(var)
    if dtype is None:
        if found is None:
            raise TypeError("A read of a resource tensor must name the variable's dtype")
        dtype = found[0]
    return (TensorShape(None) if found is None else found[1]), dtype


def _no_outputs(*_, **__):
    return []


def _update_rule(var, delta, *_, **__):
    """An update's static check, as TF's shape function makes it while a graph is built:
    the update's shape must be the variable's (a ValueError naming the node)."""
    found = None if context.executing_eagerly() else resource_variable_info(var)
    if found is None or found[1].rank is None or delta.shape.rank is None:
        return []
    have, given = found[1], delta.shape
    if have.rank != given.rank:
        sentence = f"Shapes must be equal rank, but are {have.rank} and {given.rank}"
    else:
        bad = next((i for i, (a, b) in enumerate(zip(have.as_list(), given.as_list()))
                    if a is not None and b is not None and a != b), None)
        if bad is None:
            return []
        sentence = (f"Dimension {bad} in both shapes must be equal, but are {have[bad]} and "
                    f"{given[bad]}. Shapes are {errors.shape_text(have.as_list())} and "
                    f"{errors.shape_text(given.as_list())}.")
    error = ValueError(sentence)
    # (the graph names the node; TF's shapes: the resource's, a scalar, and the update's)
    error.shape_rule = sentence, f"[], {errors.shape_text(given.as_list())}"
    raise error


# Each variable by the id of its handle (``v.handle``), as ``tf.raw_ops`` takes variables
_BY_HANDLE = weakref.WeakValueDictionary()


def variable_of(handle):
    """The variable whose handle (``v.handle``) is `handle`, or None if it no longer exists."""
    variable = _BY_HANDLE.get(id(handle))
    return variable if variable is not None and variable._handle is handle else None


_creation_order = itertools.count()  # variables' `_unique_id`: tapes list them in this order
_READ = register("ReadVariableOp", _read, _var_rule, tied=(), stateful=True,
                 replayable=True)
runs_rules[_READ] = RUNS_ONCE  # (a graph that also assigns has no runs: see runs_rules)
_ASSIGN = register("AssignVariableOp", _assign, _no_outputs, multi=True, tied=(),
                   stateful=True, not_differentiable="variable update")
# (an update makes a new array: they keep no view of what they add)
_ASSIGN_ADD = register("AssignAddVariableOp", _assign_add, _update_rule, multi=True, tied=(),
                       stateful=True, not_differentiable="variable update", keeps_no_view=True)
tf_args[_ASSIGN_ADD] = ("resource", "value")
_ASSIGN_SUB = register("AssignSubVariableOp", _assign_sub, _update_rule, multi=True, tied=(),
                       stateful=True, not_differentiable="variable update", keeps_no_view=True)
tf_args[_ASSIGN_SUB] = ("resource", "value")
takes_narrow(_d.NARROW, _READ, _ASSIGN)  # (TF keeps float8 and int4 variables, no updates)


def _held(handle):
    """The variable's array, or None while it has none."""
    try:
        return handle.value
    except (errors.FailedPreconditionError,  # (a v1 session's variable not initialized)
            errors.NotFoundError):  # (a `VarHandle` naming no variable)
        return None


def _is_initialized(xp, handle):
    """Whether the variable has a value (a graph variable's, in the running session)."""
    return xp.asarray(_held(handle) is not None)


def _bool_scalar_rule(var, **_):
    return TensorShape([]), _d.bool


VAR_IS_INITIALIZED = register("VarIsInitializedOp", _is_initialized, _bool_scalar_rule,
                              tied=(), stateful=True, not_differentiable="boolean")
tf_args[VAR_IS_INITIALIZED] = ("resource",)
tf_nodes[VAR_IS_INITIALIZED] = NodeForm(outputs=("is_initialized",))
# (a read of a resource tensor, as TF's raw op and graphs make it, names the dtype read)
tf_nodes[_READ] = NodeForm(types={"dtype": "out0"}, outputs=("value",), keep=("dtype",))
tf_args[_READ] = ("resource",)
for _op in (_ASSIGN_ADD, _ASSIGN_SUB):
    tf_nodes[_op] = NodeForm(types={"dtype": 1})
# (TF's AssignVariableOp may say whether to check the value's shape: eagerflow always checks)
tf_nodes[_ASSIGN] = NodeForm(types={"dtype": 1}, ignored=("validate_shape",))
tf_args[_ASSIGN] = ("resource", "value")


# -- variables by name: ``tf.raw_ops.VarHandleOp`` -------------------------------------------

_NAMED = {}  # (container, shared_name) -> the array of the variable of that name


class VarHandle:
    """What ``VarHandleOp`` makes: the name of a variable, which its first assignment makes
    (TF's resource manager holds it by name, each handle of that name reaching it) and
    ``DestroyResourceOp`` deletes.  It passes for a scalar ``resource`` array (`shape`,
    `ndim`, `dtype`) and, as a `ResourceHandle`, holds the variable's `value` (NotFoundError
    while there is none)."""

    __slots__ = ("container", "name", "var_dtype", "var_shape", "_table", "__weakref__")
    shape = ()
    ndim = 0
    dtype = _d.resource
    captured_as_argument = True  # (as tables: a SavedModel's function takes it as argument)

    def __init__(self, container, name, var_dtype, var_shape, table):
        self.container, self.name = container, name
        self.var_dtype, self.var_shape = var_dtype, TensorShape(var_shape)
        self._table = table

    def _missing(self):
        return errors.NotFoundError(None, None, f"Resource {self.container}/{self.name}/"
                                                f"N10tensorflow3VarE does not exist.")

    @property
    def value(self):
        found = self._table.get((self.container, self.name))
        if found is None:
            raise self._missing()
        return found

    @value.setter
    def value(self, array):
        self._table[(self.container, self.name)] = array

    def destroy(self, ignore_lookup_error):
        if self._table.pop((self.container, self.name), None) is None and \
                not ignore_lookup_error:
            raise errors.NotFoundError(None, None, f"Resource {self.container}/{self.name}/"
                                                   f"<unknown> does not exist.")

    def __repr__(self):
        dims = self.var_shape.as_list() if self.var_shape.rank is not None else None
        shape = "<unknown>" if dims is None else \
            "[" + ",".join("?" if d is None else str(d) for d in dims) + "]"
        return (f'<ResourceHandle(name="{self.name}", device="{errors.EAGER_DEVICE}", '
                f'container="{self.container}", type="tensorflow::Var", dtype and shapes : '
                f'"[ DType enum: {self.var_dtype.as_datatype_enum}, Shape: {shape} ]")>')


class _VariablesOfNode:
    """The variables of one ``VarHandleOp`` node given no `shared_name`: TF names them after
    the node, so every run of the node (eagerly: every call of the same attrs) reaches one."""

    __slots__ = ("table",)

    def __init__(self):
        self.table = {}


def _text(value):
    return value.decode() if isinstance(value, bytes) else str(value or "")


def _var_handle(xp, dtype, shape, container="", shared_name="", node=None, **_):
    if _text(shared_name):
        return VarHandle(_text(container) or "localhost", _text(shared_name), dtype, shape,
                         _NAMED)
    return VarHandle(_text(container) or "localhost", "VarHandleOp", dtype, shape,
                     (node or _VariablesOfNode()).table)


def _var_handle_rule(**_):
    return TensorShape([]), _d.resource


VAR_HANDLE = register("VarHandleOp", _var_handle, _var_handle_rule, tied=(), stateful=True,
                      not_differentiable="resource")
tf_nodes[VAR_HANDLE] = NodeForm(types={}, outputs=("resource",),
                                local={"node": _VariablesOfNode},
                                ignored=("allowed_devices", "debug_name"),
                                defaults={"container": "", "shared_name": ""})
tf_args[VAR_HANDLE] = ()


def _destroy_resource(xp, handle, ignore_lookup_error=True):
    destroy = getattr(handle, "destroy", None)
    if destroy is not None:  # (a `tf.Variable`'s own handle, as TF's, outlives the op)
        destroy(ignore_lookup_error)
    return ()


DESTROY_RESOURCE = register("DestroyResourceOp", _destroy_resource, _no_outputs, multi=True,
                            tied=(), stateful=True, not_differentiable="resource")
tf_args[DESTROY_RESOURCE] = ("resource",)
tf_nodes[DESTROY_RESOURCE] = NodeForm(types={}, defaults={"ignore_lookup_error": True})


def resource_variable_info(handle):
    """``(dtype, shape)`` of the variable a resource input stands for: a `Variable`, or a
    tensor of a ``VarHandleOp`` (eager, captured, or built into the graph); None if
    unknown."""
    if isinstance(handle, Variable) or handle.dtype != _d.resource:  # (or its static stand-in)
        return getattr(handle, "true_dtype", handle.dtype), handle.shape
    data = getattr(handle, "_data", None)
    if isinstance(data, VarHandle):
        return data.var_dtype, data.var_shape
    op = getattr(handle, "op", None)
    if getattr(op, "type", None) == "VarHandleOp":
        return op.attrs["dtype"], TensorShape(op.attrs["shape"])
    value = getattr(op, "value", None)
    if isinstance(value, VarHandle):
        return value.var_dtype, value.var_shape
    return None


# Set by the TF 1 layer: ``() -> class or None``, the class of the variables that
# ``Variable(...)`` makes while a TF 1 graph is being built (None: a plain `Variable`).
graph_variable_class = None


class _VariableMeta(type):
    """``Variable(...)`` goes through the creators of the `variable_creator_scope`s
    entered (none: straight to the class)."""

    def __call__(cls, *args, **kwargs):
        if not _creators.stack or not (cls is Variable or cls.__dict__.get("_creators_make")):
            return super().__call__(*args, **kwargs)
        return _created(args, kwargs, cls)


@export("Variable")
class Variable(metaclass=_VariableMeta):
    """A tensor-like value that persists and changes across calls (model weights).

    >>> v = tf.Variable([1.0, 2.0], name="w")
    >>> v.name
    'w:0'
    >>> v * 2
    <tf.Tensor: shape=(2,), dtype=float32, numpy=array([2., 4.], dtype=float32)>
    """

    __array_priority__ = 100

    def __new__(cls, *args, **kwargs):
        if cls is Variable:  # (a TF 1 graph's variable, else TF 2's ResourceVariable)
            cls = (graph_variable_class is not None and graph_variable_class()) or \
                ResourceVariable
        return super().__new__(cls)

    def __init__(self, initial_value=None, trainable=None, validate_shape=True,
                 caching_device=None, name=None, variable_def=None, dtype=None,
                 import_scope=None, constraint=None,
                 synchronization=VariableSynchronization.AUTO,
                 aggregation=VariableAggregationV1.NONE, shape=None,
                 experimental_enable_variable_lifting=True):
        if name is not None and not isinstance(name, str):  # (TF names a scope after it)
            raise ValueError("name for name_scope must be a string.")
        context.check_scope_name(name)  # (made in a graph: a scope of its name)
        if initial_value is None:
            raise ValueError("The `initial_value` arg to `tf.Variable` must be specified except "
                             "when you are not providing a `variable_def`. You provided "
                             "neither.")
        if constraint is not None and not callable(constraint):
            raise ValueError(f"Argument `constraint` must be None or a callable. a callable. "
                             f"Got a {type(constraint)}:  {constraint}")
        synchronization, aggregation = _sync_and_aggregation(synchronization, aggregation,
                                                             name)
        ctx = context.get()
        # Without lifting (TF's option), a variable made while a function is traced is the
        # function's own: each run of it assigns the initial value anew.
        local = not experimental_enable_variable_lifting and \
            getattr(ctx.graph, "building_function", False)
        # (else created eagerly, even while a function is traced)
        with contextlib.nullcontext() if local else context.init_scope():
            if callable(initial_value):
                initial_value = initial_value()
            value = _dense(initial_value, None if dtype is None else _d.as_dtype(dtype),
                           name="initial_value")
            if type(value) is not EagerTensor and not local:
                # A traced initial value fixed by constants alone (``tf.zeros([2])``
                # written inside a function) is as good as an eager one.
                known = get_static_value(value)
                value = value if known is None else from_array(known)
        from_inputs = type(value) is not EagerTensor
        if from_inputs and not local and (ctx.graph is None or ctx.new_variables is None):
            raise ValueError(f"A variable's initial value must not depend on the inputs of "
                             f"the traced function (got {value!r}); pass the value from "
                             f"outside, or create the variable outside the function.")
        self._trainable = (synchronization != VariableSynchronization.ON_READ
                           if trainable is None else bool(trainable))
        self._dtype = value.dtype
        # (as TF's ResourceVariable: `validate_shape=False` leaves the initial value's shape
        # in place; a variable of changing shape is made with ``shape=TensorShape(None)``)
        self._shape = value.shape if shape is None else TensorShape(shape)
        if not self._shape.is_compatible_with(value.shape):
            raise ValueError(f"In this `tf.Variable` creation, the initial value's shape "
                             f"({value.shape}) is not compatible with the explicitly supplied "
                             f"`shape` argument ({shape}).")
        self._handle = ResourceHandle(None if from_inputs else _row_major(value._data))
        _BY_HANDLE[id(self._handle)] = self
        self._unique_id = next(_creation_order)
        self._initial_value = value
        self._name = context.scoped_name(name or "Variable") + ":0"
        self._constraint = constraint
        self._synchronization = synchronization
        self._aggregation = aggregation
        self._device = ctx.device_name
        if ctx.logical_device is not None:
            self._logical_device = ctx.logical_device
        if ctx.new_variables is not None and not local:
            ctx.new_variables.append(self)
        if from_inputs:
            # As in TF, an initial value computed from a function's inputs is assigned by
            # the trace that creates the variable, which runs for the first call only.
            dispatch(_ASSIGN, (self, value))

    # The handle is what ops see when a variable is passed to `dispatch`.
    _data = property(lambda self: self._handle)

    # -- metadata -------------------------------------------------------------
    name = property(lambda self: self._name)
    dtype = property(lambda self: self._dtype)
    shape = property(lambda self: self._shape)
    trainable = property(lambda self: self._trainable)
    constraint = property(lambda self: self._constraint)
    synchronization = property(lambda self: self._synchronization)
    aggregation = property(lambda self: self._aggregation)

    @property
    def initial_value(self):
        if context.executing_eagerly():
            raise RuntimeError("This property is not supported when eager execution is enabled.")
        return self._initial_value

    handle = property(lambda self: self._handle)
    device = property(lambda self: self._device)
    initializer = None
    op = None

    @property
    def ndim(self):
        return self._shape.rank

    def get_shape(self):
        return self._shape

    def set_shape(self, shape):
        """Narrows the static shape to `shape` (merged with it; ValueError if they differ)."""
        self._shape = self._shape.merge_with(shape)

    def is_initialized(self, name=None):
        """Whether the variable holds a value: a bool scalar tensor (``VarIsInitializedOp``)."""
        return dispatch(VAR_IS_INITIALIZED, (self,), name=name)

    # -- reads ------------------------------------------------------------------
    _logical_device = None  # the logical CPU it lives on, where not the first

    def _placed(self, tensor):
        """`tensor` (read from the variable) on the variable's device, where TF runs its
        reads: a logical CPU other than the first, which its array cannot tell."""
        if self._logical_device is not None and type(tensor) is EagerTensor:
            tensor._device = self._logical_device
        return tensor

    def value(self):
        """The current value as a tensor (a recorded read)."""
        result = dispatch(_READ, (self,))
        return result if self._logical_device is None else self._placed(result)

    def read_value(self):
        # (TF's is an identity of the read: on the default device, not the variable's)
        return dispatch(_READ, (self,)) if type(self).value is Variable.value else self.value()

    def numpy(self):
        if not context.executing_eagerly():  # (a function being traced, or a TF 1 graph)
            raise NotImplementedError("numpy() is only available when eager execution is "
                                      "enabled.")
        return self.value().numpy()

    def __tf_tensor__(self, dtype=None, name=None):
        if dtype is not None and dtype != self._dtype:
            raise ValueError(f"Incompatible type conversion requested to type {dtype.name} for "
                             f"`tf.Variable of type {self._dtype.name}. (Variable: {self!r})")
        result = dispatch(_READ, (self,))
        return result if self._logical_device is None else self._placed(result)

    def __array__(self, dtype=None, copy=None):
        return self.value().__array__(dtype, copy)

    def __bool__(self):
        return bool(self.value())

    def __int__(self):
        return int(self.value())

    def __float__(self):
        return float(self.value())

    def __len__(self):
        # TF's variables have no len(), unlike its eager tensors.
        raise TypeError(f"object of type '{type(self).__name__}' has no len()")

    def __iter__(self):
        return iter(self.value())

    def __format__(self, format_spec):
        # As TF's variables (unlike its tensors): f"{v}" is str(v), and no format spec
        if format_spec:
            name = "ResourceVariable" if type(self) is Variable else type(self).__name__
            raise TypeError(f"unsupported format string passed to {name}.__format__")
        return str(self)

    # -- writes -----------------------------------------------------------------
    def _write(self, op, value, read_value, name):
        if type(value) is not EagerTensor or value.dtype is not self._dtype:
            value = _dense(value, self._dtype)
        if op is _ASSIGN and not self._shape.is_compatible_with(value.shape):
            raise ValueError(
                f"Cannot assign value to variable ' {self._name}': Shape mismatch.The variable "
                f"shape {self._shape}, and the assigned value shape {value.shape} are "
                f"incompatible.")
        dispatch(op, (self, value), name=name)
        if read_value:
            return _UnreadVariable(self)
        # While tracing, TF hands back the write's Operation (for control dependencies).
        graph = context.get().graph
        return None if graph is None else graph._operations[-1]

    def assign(self, value, use_locking=None, name=None, read_value=True):
        """Sets the value; returns the variable (for chaining) unless `read_value=False`."""
        return self._write(_ASSIGN, value, read_value, name)

    def load(self, value, session=None):
        """Sets the value, as `assign` (TF 1's method; deprecated in TF 2)."""
        del session
        self.assign(value, read_value=False)

    def assign_add(self, delta, use_locking=None, name=None, read_value=True):
        """Adds `delta` to the value; returns the variable unless `read_value=False`."""
        return self._write(_ASSIGN_ADD, delta, read_value, name)

    def assign_sub(self, delta, use_locking=None, name=None, read_value=True):
        """Subtracts `delta` from the value; returns the variable unless `read_value=False`."""
        return self._write(_ASSIGN_SUB, delta, read_value, name)

    # -- identity -----------------------------------------------------------------
    def ref(self):
        return Reference(self)

    experimental_ref = ref

    def __hash__(self):
        if getattr(context.get().graph, "hashes_variables", False):  # (a TF 1 graph's)
            return id(self)
        raise TypeError(f"Variable is unhashable. Instead, use variable.ref() as the key. "
                        f"(Variable: {self!r})")

    def __copy__(self):
        # As TF's: a shallow copy is the variable itself (a new object would share its
        # state anyway, and be compared and tracked as another variable)
        return self

    def __deepcopy__(self, memo):
        new = twin(self)
        new._handle = ResourceHandle(self._handle.value.copy())
        _BY_HANDLE[id(new._handle)] = new
        new._unique_id = next(_creation_order)
        memo[id(self)] = new
        return new

    def __repr__(self):
        if not context.executing_eagerly():
            return (f"<tf.Variable '{self._name}' shape={self._shape} "
                    f"dtype={self._dtype.name}>")
        value = self._handle.value
        text = ("<unavailable>" if value is None  # (not initialized: TF's text)
                else _numpy_text(np.asarray(backend.to_host(value)), True))
        return (f"<tf.Variable '{self._name}' shape={self._shape} dtype={self._dtype.name}, "
                f"numpy={text}>")

    __str__ = __repr__


def _no_in_place(statement, fix, out):
    def method(self, other):
        raise RuntimeError(f"`{statement}` with `tf.Variable`s is not supported. Use `{fix}` to "
                           f"modify the variable, or `{out}` if you need to get a new output "
                           f"Tensor.")
    return method


class _ResourceOperators:
    """TF's resource variables refuse augmented assignments (``v += 1``), which would
    rebind the name to a tensor and leave the variable as it was."""
    __iadd__ = _no_in_place("variable += value", "variable.assign_add(value)",
                            "out = variable + value")
    # (TF's text for -= names `*`)
    __isub__ = _no_in_place("variable -= value", "variable.assign_sub(value)",
                            "out = variable * value")
    __imul__ = _no_in_place("var *= value", "var.assign(var * value)", "out = var * value")
    __itruediv__ = _no_in_place("var /= value", "var.assign(var / value)", "out = var / value")
    __ipow__ = _no_in_place("var **= value", "var.assign(var ** value)", "out = var ** value")


def _eager_handle_has_no(name):
    """A property TF's variable takes from its handle, an eager tensor, which has none."""
    def missing(self):
        raise AttributeError(f"Tensor.{name} is undefined when eager execution is enabled.")
    return property(missing)


def _not_eagerly(self, *_, **__):
    raise RuntimeError("This operation is not supported when eager execution is enabled.")


@CompositeTensor.register
class ResourceVariable(_ResourceOperators, Variable):
    """The class of the variables ``tf.Variable(...)`` makes, as in TF
    (``type(v).__name__ == "ResourceVariable"``; ``isinstance(v, tf.Variable)``)."""

    # (a TF 1 graph's variables are of another class, which has them)
    op = _eager_handle_has_no("op")
    graph = _eager_handle_has_no("graph")
    create = property(_not_eagerly)
    eval = to_proto = _not_eagerly

    def read_value_no_copy(self):
        """The value, as `read_value` (TF's copies none where it may)."""
        return self.value()


class _UnreadVariable(_ResourceOperators, Variable):
    """What an assignment returns: the same variable, printed as TF prints it.

    Its reads are reads of the variable itself, so that tapes see them as
    reads of the variable they watch (in TF, both share one handle).
    """

    def __init__(self, var):
        self.__dict__.update(var.__dict__)
        self._name = "UnreadVariable"
        self._variable = getattr(var, "_variable", var)

    def value(self):
        return self._variable.value()

    def __tf_tensor__(self, dtype=None, name=None):
        return self._variable.__tf_tensor__(dtype, name)


def twin(variable):
    """A new object of `variable`'s class with its attributes (its handle too: the same
    state), which ``copy.copy`` does not give (it returns the variable itself, as TF's)."""
    new = object.__new__(type(variable))
    new.__dict__.update(variable.__dict__)
    return new


def is_variable(value):
    return isinstance(value, Variable)


# A read passes its gradient to the variable it read.
register_gradient("ReadVariableOp", passes_sparse=True)(lambda op, dy: dy)


# -- variable_creator_scope ----------------------------------------------------------------
class _Creators(threading.local):
    def __init__(self):
        self.stack = []


_creators = _Creators()


def _created(args, kwargs, cls=Variable):
    """``cls(*args, **kwargs)`` made by the innermost creator, which may call the next
    one out (the last: the class itself) with every argument by name. A class other than
    `Variable` (one setting ``_creators_make``: TF 1's) is given the arguments its
    `__init__` takes; creators also see TF's `experimental_enable_variable_lifting`."""
    import inspect  # noqa: PLC0415 (only with creators)
    parameters = list(inspect.signature(cls.__init__).parameters.values())[1:]
    full = {p.name: p.default for p in parameters}
    full.update(zip(full, args))
    full.update(kwargs)
    taken = set(full)
    if cls is not Variable:
        full.setdefault("experimental_enable_variable_lifting", True)
    stack = list(_creators.stack)

    def creator(i):
        if i < 0:
            if cls is Variable:
                return lambda **kw: type.__call__(Variable, **kw)
            return lambda **kw: type.__call__(cls, **{k: v for k, v in kw.items()
                                                      if k in taken})
        return lambda **kw: stack[i](creator(i - 1), **kw)
    return creator(len(stack) - 1)(**full)


@export("variable_creator_scope", "compat.v1.variable_creator_scope")
@contextlib.contextmanager
def variable_creator_scope(variable_creator):
    """In the block, ``tf.Variable(...)`` calls ``variable_creator(next_creator, **kwargs)``
    (the innermost scope's first), which returns the variable, typically
    ``next_creator(**kwargs)`` with arguments changed.

    >>> def halved(next_creator, **kwargs):
    ...     kwargs["initial_value"] = kwargs["initial_value"] / 2
    ...     return next_creator(**kwargs)
    >>> with tf.variable_creator_scope(halved):
    ...     v = tf.Variable(3.0)
    >>> float(v)
    1.5
    """
    _creators.stack.append(variable_creator)
    try:
        yield
    finally:
        _creators.stack.pop()
