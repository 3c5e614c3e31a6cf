"""Datasets and iterators inside traced functions: registered, stateful iterator ops.

While a `function` traces, a dataset is a ``variant`` scalar tensor whose
value (`DatasetValue`) holds the Python `Dataset`; an iterator is a
``variant`` scalar whose value (`IteratorValue`) holds the Python iterator of
its elements (flat tuples of arrays, see the package docstring).  A dataset
or iterator made outside the function is captured into its graph as a
constant holding that object, by reference, as variables are: every call of
the function sees the same object.  The ops, as TF names them:

* ``AnonymousIteratorV3`` makes an empty iterator and ``MakeIterator`` starts
  it on a dataset (``iter(dataset)``: a fresh iteration on every call);
* ``IteratorGetNext`` (`OutOfRangeError` at the end) and
  ``IteratorGetNextAsOptional`` advance an iterator;
* ``OptionalHasValue`` and ``OptionalGetValue`` read an optional.

A dataset built while the function traces is built again on every call, as
TF builds its dataset ops at run time: `Dataset.__new__` keeps each node's
constructor arguments, and ``MakeIterator`` (``DatasetToSingleElement``) is fed
the symbolic tensors they hold (variables read, and the tensors its map
functions closed over), from whose values `_bound` rebuilds the nodes built
from them and copies those above: once per call (`context.call_scope`), so
that iterating a dataset twice in one call goes on with its state, as TF's
dataset ops run once per call (a node built in a loop's body, once per run
of the body).

The iterator ops are stateful: kept in program order, never folded or
merged.  ``for x in dataset`` in a traced function is a ``while_loop`` over
``IteratorGetNextAsOptional`` (AutoGraph's `for_stmt` asks the dataset for
`_as_graph_iterator`); `reduce_in_graph` is ``Dataset.reduce`` as such a
loop.
"""
import copy
import weakref

import numpy as np

from eagerflow._src.backend.api_export import export
from eagerflow._src.core import context
from eagerflow._src.core.composite_tensor import CompositeTensor
from eagerflow._src.core import dtypes as _d
from eagerflow._src.core import errors
from eagerflow._src.core.dispatch import dispatch
from eagerflow._src.core.errors import op_error
from eagerflow._src.core.node_forms import ExtraInputs, NodeForm, tf_nodes
from eagerflow._src.core.registry import (PER_ELEMENT, batching_rules, register,
                                          register_gradient)
from eagerflow._src.core.tensor import EagerTensor, Tensor
from eagerflow._src.core.tensor_shape import TensorShape
from eagerflow._src.core.tensor_spec import TensorSpec
from eagerflow._src.core.variables import Variable
from eagerflow._src.core.node_forms import tf_args
from eagerflow._src.data import structure
from eagerflow._src.data.dataset_ops import Dataset
from eagerflow._src.data.dataset_spec import DatasetFunction
from eagerflow._src.data.iterator_ops import Iterator, scoped_source
from eagerflow._src.data.optional_ops import Optional, OptionalSpec  # noqa: F401
from eagerflow._src.data.structured_function import StructuredFunction, sparse_argument
from eagerflow._src.ops.array_ops import zeros_like
from eagerflow._src.ops.sparse_tensor import SparseTensorSpec

_FUNCTIONS = (StructuredFunction, DatasetFunction)  # (a node's functions, fed per call)
_SCALAR_VARIANT = (TensorShape([]), _d.variant)
_PYTHON_NEXT_LIMIT = 32  # TF's: more `next` calls on one iterator while tracing fail


class _Value:
    """A scalar ``variant`` value (as a `TensorList` is): it reports its shape and dtype."""

    __slots__ = ()
    shape = ()
    ndim = 0
    dtype = _d.variant

    def zeros_like(self):
        """What a gradient holds for it (its ops pass no gradient on): nothing."""
        return OptionalValue(None)


class DatasetValue(_Value):
    """The value of a dataset's variant tensor: the `Dataset` itself, the function
    arguments (`DatasetArgument`) its pipeline is built on, and the symbolic tensors its
    nodes were built from (`MakeIterator` is fed their values)."""

    __slots__ = ("dataset", "arguments", "tensors", "keys", "per_call", "bound")

    def __init__(self, dataset, arguments=(), tensors=None, per_call=False, bound=False):
        self.dataset = dataset
        self.bound = bound  # (built for the call already: ``BindDataset``'s)
        self.arguments = arguments
        tensors = tensors or {}
        self.keys = tuple(tensors)  # the ids of what they stand for (a variable: its read)
        self.tensors = tuple(tensors.values())
        # Whether its nodes built in the function are built once per call of it (see
        # `_pipeline`), rather than once per iteration.
        self.per_call = per_call

    def __repr__(self):
        return f"<DatasetValue {self.dataset!r}>"


class IteratorValue(_Value):
    """The value of an iterator's tensor: the Python iterator of flat elements (None until
    ``MakeIterator`` starts it)."""

    __slots__ = ("source", "__weakref__")
    graph_def_dtype = _d.resource  # TF's iterators are resources

    def __init__(self, source=None):
        self.source = source

    def __repr__(self):
        return "<IteratorValue>"


class OptionalValue(_Value):
    """The value of an optional's tensor: an element's flat arrays, or None."""

    __slots__ = ("flat",)

    def __init__(self, flat):
        self.flat = flat

    def zeros_like(self):
        """An optional's zero gradient: zeros of its value (nothing if it holds none)."""
        return OptionalValue(None if self.flat is None else
                             tuple(np.zeros_like(np.asarray(v)) for v in self.flat))

    def added(self, other):
        """The sum of two gradients of one optional (one holding nothing is zero)."""
        if self.flat is None or other.flat is None:
            return self if other.flat is None else other
        return OptionalValue(tuple(a + b for a, b in zip(self.flat, other.flat)))


_wrap = EagerTensor._wrap


# -- the ops -----------------------------------------------------------------------------------

def _specs(output_types, output_shapes):
    return [(TensorShape(s), d) for s, d in zip(output_shapes, output_types)]


def _anonymous_iterator(xp, *, output_types, output_shapes):
    return IteratorValue()


def _make_iterator(xp, dataset, iterator, *arguments):
    pipeline = _pipeline(dataset, arguments)
    iterator.source = scoped_source(pipeline)  # (a new iteration on every call, as TF's)
    return ()


def _pipeline(dataset, arguments):
    """The dataset a `DatasetValue` stands for in this call, given the call's `arguments`."""
    if dataset.bound:
        return dataset.dataset
    # a pipeline built on the traced function's dataset arguments reads this call's
    n = len(dataset.arguments)
    for stand_in, value in zip(dataset.arguments, arguments[:n]):
        stand_in._bound = value.dataset
    # Nodes built while the function traced are built again for the call (from the call's
    # values of the tensors they were built from), as TF builds its dataset ops per call:
    # once per call, so that a dataset iterated twice in one call goes on with its state
    # (a shuffle reshuffles), as TF's does.
    values = {key: EagerTensor._wrap(v) for key, v in zip(dataset.keys, arguments[n:])}
    scope = context.call_scope() if dataset.per_call else None
    if scope is None:
        return _bound(dataset.dataset, values, {})
    key = tuple(map(id, arguments[n:]))  # (the same values: the same nodes)
    found = scope.get(key)
    if found is None:
        found = scope[key] = (arguments, {})  # (holding the arrays keeps their ids apart)
    return _bound(dataset.dataset, values, found[1])


def _single_element(xp, dataset, *arguments, output_types, output_shapes):
    it = _pipeline(dataset, arguments)._iterator()  # (state goes on from call to call, as TF's)
    first = next(it, None)
    if first is None:
        raise op_error(errors.InvalidArgumentError, "DatasetToSingleElement",
                       "Dataset was empty.")
    if next(it, None) is not None:
        raise op_error(errors.InvalidArgumentError, "DatasetToSingleElement",
                       "Dataset had more than one element.")
    return tuple(first)


def _next_flat(iterator):
    if iterator.source is None:
        raise op_error(errors.FailedPreconditionError, "IteratorGetNext",
                       "GetNext() failed because the iterator has not been initialized. "
                       "Ensure that you have run the initializer operation for this iterator "
                       "before getting the next element.")
    try:
        return next(iterator.source)
    except StopIteration:
        return None


def _get_next(xp, iterator, *, output_types, output_shapes):
    flat = _next_flat(iterator)
    if flat is None:
        raise op_error(errors.OutOfRangeError, "IteratorGetNext", "End of sequence")
    return tuple(structure.component_arrays(flat))  # (a sparse tensor as its three)


def _get_next_as_optional(xp, iterator, *, output_types, output_shapes):
    return OptionalValue(_next_flat(iterator))


def _has_value(xp, optional):
    return np.array(optional.flat is not None)


def _from_value(xp, *components):
    return OptionalValue(tuple(components))


def _optional_none(xp):
    return OptionalValue(None)


def _get_value(xp, optional, *, output_types, output_shapes):
    if optional.flat is None:
        raise op_error(errors.InvalidArgumentError, "OptionalGetValue",
                       "The given optional does not have a value.")
    return tuple(structure.component_arrays(optional.flat))


# The iterators whose string handles were asked for, by handle (TF 1's feedable iterators)
_HANDLES = weakref.WeakValueDictionary()


def _to_string_handle(xp, iterator):
    handle = f"eagerflow-iterator-{id(iterator):x}".encode()
    _HANDLES[handle] = iterator
    return np.array(handle, object)


def _from_string_handle(xp, handle, *, output_types, output_shapes):
    key = handle.item() if isinstance(handle, np.ndarray) else handle
    found = _HANDLES.get(key.encode() if isinstance(key, str) else key)
    if found is None:
        raise op_error(errors.InvalidArgumentError, "IteratorFromStringHandleV2",
                       "Could not parse string_handle as a valid ResourceHandle")
    return found


def _no_outputs(*_, **__):
    return []


_ANONYMOUS_ITERATOR = register(
    "AnonymousIteratorV3", _anonymous_iterator, lambda **_: _SCALAR_VARIANT, tied=(),
    stateful=True, not_differentiable="an iterator")
tf_args[_ANONYMOUS_ITERATOR] = None  # (datasets are eagerflow's objects, not variants: no raw op)
_MAKE_ITERATOR = register("MakeIterator", _make_iterator, _no_outputs, multi=True, tied=(),
                          stateful=True, not_differentiable="an iterator")
tf_args[_MAKE_ITERATOR] = None
_GET_NEXT = register(
    "IteratorGetNext", _get_next,
    lambda iterator, *, output_types, output_shapes: _specs(output_types, output_shapes),
    multi=True, tied=(), stateful=True, not_differentiable="the elements of a dataset")
tf_args[_GET_NEXT] = None
_GET_NEXT_AS_OPTIONAL = register(
    "IteratorGetNextAsOptional", _get_next_as_optional, lambda iterator, **_: _SCALAR_VARIANT,
    tied=(), stateful=True, not_differentiable="the elements of a dataset")
tf_args[_GET_NEXT_AS_OPTIONAL] = None
_TO_STRING_HANDLE = register(
    "IteratorToStringHandle", _to_string_handle,
    lambda iterator: (TensorShape([]), _d.string), tied=(), stateful=True,
    not_differentiable="a string")
tf_args[_TO_STRING_HANDLE] = None
_FROM_STRING_HANDLE = register(
    "IteratorFromStringHandleV2", _from_string_handle,
    lambda handle, **_: _SCALAR_VARIANT, tied=(), stateful=True,
    not_differentiable="an iterator")
tf_args[_FROM_STRING_HANDLE] = None
_HAS_VALUE = register("OptionalHasValue", _has_value,
                      lambda optional: (TensorShape([]), _d.bool), tied=(),
                      not_differentiable="a boolean")
tf_args[_HAS_VALUE] = None
# (an optional's value made in a function: its variant, which functions return and
# branches join)
_FROM_VALUE = register("OptionalFromValue", _from_value, lambda *components: _SCALAR_VARIANT,
                       tied=())
tf_args[_FROM_VALUE] = None
_NONE = register("OptionalNone", _optional_none, lambda: _SCALAR_VARIANT, tied=(),
                 not_differentiable="an optional")
tf_args[_NONE] = None
_GET_VALUE = register(
    "OptionalGetValue", _get_value,
    lambda optional, *, output_types, output_shapes: _specs(output_types, output_shapes),
    multi=True, tied=())
tf_args[_GET_VALUE] = None


# An optional's gradient is an optional of its value's gradients (TF's gradients of branches
# pass values through optionals: a second derivative flows back through them)
@register_gradient("OptionalFromValue")
def _from_value_grad(op, grad):
    return tuple(dispatch(_GET_VALUE, (grad,), {
        "output_types": tuple(t.dtype for t in op.inputs),
        "output_shapes": tuple(t.shape for t in op.inputs)}))


@register_gradient("OptionalGetValue")
def _get_value_grad(op, *grads):
    grads = [g if g is not None else zeros_like(t) for g, t in zip(grads, op.outputs)]
    return dispatch(_FROM_VALUE, tuple(grads))
def _cardinality(xp, dataset, *arguments):
    return np.array(_pipeline(dataset, arguments)._cardinality(), np.int64)


_CARDINALITY = register("DatasetCardinality", _cardinality,
                        lambda dataset, *arguments: (TensorShape([]), _d.int64), tied=(),
                        stateful=True, not_differentiable="an integer")
tf_args[_CARDINALITY] = None
_SINGLE_ELEMENT = register(
    "DatasetToSingleElement", _single_element,
    lambda dataset, *arguments, output_types, output_shapes: _specs(output_types,
                                                                    output_shapes),
    multi=True, tied=(), stateful=True, not_differentiable="the elements of a dataset")
tf_args[_SINGLE_ELEMENT] = None
batching_rules.assign(PER_ELEMENT, _HAS_VALUE, _GET_VALUE, _FROM_VALUE, _NONE)


def _dataset_of_tensors(own):
    """A GraphDef `rewrite` refusing the node when it is fed tensors beyond its `own`
    inputs: its dataset is built from the function's tensors, which the GraphDef holds as a
    placeholder TF would have to feed with that dataset (TF's graph would hold the
    dataset's own ops instead), so TF could not import the node. (A TF 1 graph's GraphDef
    writes the node with its own inputs: see `ExtraInputs`.)"""
    def rewrite(attrs, inputs):
        if len(inputs) > own:
            names = ", ".join(getattr(t, "name", "?") for t in inputs[own:])
            raise ExtraInputs(
                own, f"its dataset is built inside the function from the function's tensors "
                     f"({names}), which a GraphDef can only hold as TF's dataset ops, and "
                     f"eagerflow writes datasets as placeholders; build the dataset outside "
                     f"the function (its GraphDef then takes it as an input), or export the "
                     f"function with the values as constants")
        return attrs
    return rewrite


# TF's forms of the optional ops, which TF's gradients of branches write (each branch's
# values the gradient needs, as optionals: empty from the branch not taken)
tf_nodes[_FROM_VALUE] = NodeForm(types={"Toutput_types": "*0"}, outputs=("optional",))
tf_nodes[_NONE] = NodeForm(types={}, outputs=("optional",))
tf_nodes[_HAS_VALUE] = NodeForm(types={}, outputs=("has_value",))
tf_nodes[_GET_VALUE] = NodeForm(types={}, outputs=("components",))
tf_nodes[_MAKE_ITERATOR] = NodeForm(rewrite=_dataset_of_tensors(2))
tf_nodes[_CARDINALITY] = NodeForm(rewrite=_dataset_of_tensors(1))
tf_nodes[_SINGLE_ELEMENT] = NodeForm(rewrite=_dataset_of_tensors(1))


def _attrs(spec):
    leaves = structure.flatten(spec)
    for s in leaves:
        if not isinstance(s, (TensorSpec,) + structure.COMPOSITE_SPECS):
            raise TypeError(f"Iterating a dataset of {type(s).__name__} components inside a "
                            f"traced function is not supported; iterate it eagerly.")
    # a sparse component is three outputs: its indices, values and dense shape (a ragged
    # one its flat values and row splits)
    leaves = [c for s in leaves for c in (
        s._component_specs if isinstance(s, structure.COMPOSITE_SPECS) else (s,))]
    return {"output_types": tuple(s.dtype for s in leaves),
            "output_shapes": tuple(s.shape for s in leaves)}


def _element(spec, flat):
    """The element nest of `spec` from the ops' outputs (sparse leaves from three)."""
    it = iter(flat)
    return structure.pack(spec, [
        sparse_argument(s, (next(it), next(it), next(it))) if isinstance(s, SparseTensorSpec)
        else s._from_components([next(it) for _ in s._component_specs])
        if isinstance(s, structure.COMPOSITE_SPECS) else next(it)
        for s in structure.flatten(spec)])


def dataset_tensor(dataset):
    """The variant tensor standing for `dataset` (an argument's placeholder, or an eager
    tensor that the graph captures)."""
    found = getattr(dataset, "_variant_tensor_value", None)
    if found is not None:
        return found
    arguments = tuple(_arguments_of(dataset))
    per_call = False
    graph = context.get().graph
    if graph is not None and not arguments:
        built = _built_nodes(dataset, [], set())
        per_call = bool(built) and not any(d._in_body for d in built)
        while per_call and graph is not None:  # (their calls open a `call_scope`)
            graph.call_scoped = True
            graph = graph._outer() if graph._outer is not None else None
    return _wrap(DatasetValue(dataset, arguments, _symbolic_tensors(dataset, {}, set()),
                              per_call))


def _built_nodes(dataset, found, seen):
    """The nodes of `dataset`'s pipeline built while a function traced."""
    if id(dataset) in seen:
        return found
    seen.add(id(dataset))
    if hasattr(dataset, "_recipe"):
        found.append(dataset)
    datasets, _ = _recipe_leaves(dataset)
    for d in (*datasets, *dataset._inputs()):
        _built_nodes(d, found, seen)
    return found


def make_iterator(dataset, spec):
    """The resource tensor of a new iterator over `dataset`, started (``iter(dataset)``)."""
    attrs = _attrs(spec)
    resource = dispatch(_ANONYMOUS_ITERATOR, (), attrs)
    variant = dataset_tensor(dataset)
    arguments = () if isinstance(dataset, DatasetArgument) else tuple(
        a._variant_tensor_value for a in variant._data.arguments) + variant._data.tensors
    dispatch(_MAKE_ITERATOR, (variant, resource, *arguments))
    return resource


def cardinality(dataset):
    """``dataset.cardinality()`` while a function traces: None (a constant) for a dataset
    whose count tracing knows, else `counted` (built from the function's tensors)."""
    if not isinstance(dataset, DatasetArgument) and not _symbolic_tensors(dataset, {}, set()) \
            and not _arguments_of(dataset):
        return None
    return counted(dataset)


def counted(dataset):
    """The ``DatasetCardinality`` op counting `dataset` as each call builds it."""
    variant = dataset_tensor(dataset)
    if isinstance(dataset, DatasetArgument):  # (its placeholder feeds the call's dataset)
        return dispatch(_CARDINALITY, (variant,))
    arguments = tuple(a._variant_tensor_value for a in variant._data.arguments) + \
        variant._data.tensors
    return dispatch(_CARDINALITY, (variant, *arguments))


def single_element(dataset):
    """``dataset.get_single_element()`` while a function traces: one op run on every call."""
    spec = dataset.element_spec
    variant = dataset_tensor(dataset)
    arguments = () if isinstance(dataset, DatasetArgument) else tuple(
        a._variant_tensor_value for a in variant._data.arguments) + variant._data.tensors
    flat = dispatch(_SINGLE_ELEMENT, (variant, *arguments), _attrs(spec))
    return structure.pack(spec, list(flat))


def get_next(resource, spec):
    """The next element of the iterator `resource` (`OutOfRangeError` at the end)."""
    flat = dispatch(_GET_NEXT, (resource,), _attrs(spec))
    return _element(spec, flat)


def string_handle(resource, name=None):
    """A string scalar naming the iterator `resource`, for `from_string_handle`."""
    return dispatch(_TO_STRING_HANDLE, (resource,), name=name)


def from_string_handle(handle, spec):
    """The resource tensor of the iterator whose `string_handle` `handle` (a string
    scalar tensor) holds when it runs; its elements are of `spec`."""
    return dispatch(_FROM_STRING_HANDLE, (handle,), _attrs(spec))


def get_next_as_optional(resource, spec):
    """The next element of the iterator `resource` as an `Optional` (empty at the end)."""
    return GraphOptional(dispatch(_GET_NEXT_AS_OPTIONAL, (resource,), _attrs(spec)), spec)


class GraphOptional(Optional):
    """An `Optional` held by a variant tensor (``IteratorGetNextAsOptional``'s result)."""

    def __init__(self, variant, spec):
        super().__init__(None, spec, None)
        self._variant_tensor = variant

    def has_value(self, name=None):
        return dispatch(_HAS_VALUE, (self._variant_tensor,))

    def get_value(self, name=None):
        flat = dispatch(_GET_VALUE, (self._variant_tensor,), _attrs(self._spec))
        return _element(self._spec, flat)

    def __repr__(self):
        return f"<tf.experimental.Optional element_spec={self._spec!r}>"


class GraphIterator(Iterator):
    """``iter(dataset)`` while a function traces: an iterator made on every call."""

    def __init__(self, resource, spec):
        self._resource = resource
        self._spec = spec
        self._python_nexts = 0

    @property
    def element_spec(self):
        return self._spec

    def __iter__(self):
        return self

    def __next__(self):
        # Python's own iteration (a `for` AutoGraph did not convert, `list(dataset)`) never
        # ends while tracing: stop it, as TF does, rather than add nodes forever.
        self._python_nexts += 1
        if self._python_nexts > _PYTHON_NEXT_LIMIT:
            raise ValueError(
                "An unusually high number of `tf.data.Iterator.get_next()` calls was "
                "detected. This suggests that the `for elem in dataset: ...` idiom is used "
                "within tf.function with AutoGraph disabled. This idiom is only supported "
                "when AutoGraph is enabled.")
        return get_next(self._resource, self._spec)

    next = __next__

    def get_next(self, name=None):
        return get_next(self._resource, self._spec)

    def get_next_as_optional(self):
        return get_next_as_optional(self._resource, self._spec)

    def _as_graph_iterator(self):
        return self

    def _as_function_argument(self):
        return IteratorSpec(self._spec), self._resource

    def __repr__(self):
        return f"<tf.data.Iterator element_spec={self._spec!r}>"


@export("data.IteratorSpec")
class IteratorSpec:
    """The type of an iterator over elements of `element_spec`: a `function` traced for an
    iterator argument serves every iterator of this spec.

    >>> tf.data.IteratorSpec(tf.TensorSpec([], tf.int64))
    IteratorSpec(TensorSpec(shape=(), dtype=tf.int64, name=None),)
    """

    def __init__(self, element_spec):
        self._element_spec = element_spec

    element_spec = property(lambda self: self._element_spec)

    @staticmethod
    def from_value(value):
        return IteratorSpec(value.element_spec)

    def __eq__(self, other):
        return isinstance(other, IteratorSpec) and self._element_spec == other._element_spec

    def __hash__(self):
        return hash(repr(self._element_spec))

    def __repr__(self):
        return f"IteratorSpec({self._element_spec!r},)"

    # -- as the type of a `function` argument ------------------------------------------------
    def _as_function_argument(self):
        """A spec given to ``get_concrete_function`` stands for an iterator of its type."""
        return self, self

    def _stand_in(self, placeholder):
        return GraphIterator(placeholder, self._element_spec)

    def _argument_tensor(self, value):
        """The resource tensor feeding a call's iterator `value`; None when it does not fit."""
        as_argument = getattr(value, "_as_function_argument", None)
        if not isinstance(value, Iterator) or as_argument is None:
            return None
        spec, tensor = as_argument()
        return tensor if spec == self else None


def building_graph():
    """Whether ops now become graph nodes (a function traces)."""
    return not context.executing_eagerly()


def iterator_tensor(owned):
    """The resource tensor of an `OwnedIterator` made eagerly: captured by reference, so
    each call of a function using it advances it."""
    value = getattr(owned, "_resource_value", None)
    if value is None:
        value = owned._resource_value = IteratorValue(owned._counting_source())
    return _wrap(value)


def owned_as_graph_iterator(owned):
    return GraphIterator(iterator_tensor(owned), owned.element_spec)


def dataset_as_graph_iterator(dataset):
    spec = dataset.element_spec
    return GraphIterator(make_iterator(dataset, spec), spec)


def reduce_in_graph(dataset, initial_state, reduce_func):
    """``dataset.reduce`` while a function traces: one ``while_loop`` over a new iterator,
    `reduce_func` traced as its body.  A state whose shape changes from one element to
    the next gets the shape common to all (unknown dims), as in TF."""
    from eagerflow._src.graph import control_flow  # noqa: PLC0415
    spec = dataset.element_spec
    iterator = dataset_as_graph_iterator(dataset)
    state = structure.normalize(initial_state)
    flat_state = structure.flatten(state)
    first = iterator.get_next_as_optional()

    def cond(optional, *flat):
        return GraphOptional(optional, spec).has_value()

    def body(optional, *flat):
        element = GraphOptional(optional, spec).get_value()
        new = structure.normalize(reduce_func(structure.pack(state, list(flat)), element))
        if not structure.same_structure(new, state) or any(
                n.dtype != o.dtype for n, o in zip(structure.flatten(new), flat)):
            raise TypeError(f"The element types for the new state must match the initial "
                            f"state. Expected {structure.spec_of(state)}; got "
                            f"{structure.spec_of(new)}.")
        return (iterator.get_next_as_optional()._variant_tensor, *structure.flatten(new))

    def run(invariants):
        return control_flow.while_loop(cond, body, (first._variant_tensor, *flat_state),
                                       shape_invariants=tuple(invariants))

    try:
        results = run([t.shape for t in (first._variant_tensor, *flat_state)])
    except ValueError as e:
        if "shape" not in str(e):
            raise
        results = run([TensorShape([])] + [TensorShape(None) if t.shape.rank is None else
                                           TensorShape([None] * t.shape.rank)
                                           for t in flat_state])
    return structure.pack(state, list(results[1:]))


# -- datasets passed to functions ----------------------------------------------------------------

def as_function_argument(dataset):
    """(spec, variant tensor) of `dataset` passed to a function.  One built from the
    enclosing function's tensors goes built for the call (``BindDataset``): the function
    it is passed to has not got their values."""
    from eagerflow._src.data.dataset_spec import DatasetSpec  # noqa: PLC0415
    variant = dataset_tensor(dataset)
    value = getattr(variant, "_data", None)
    if isinstance(value, DatasetValue) and value.keys and building_graph():
        variant = dispatch(_BIND, (variant, *value.tensors))
    return DatasetSpec(dataset.element_spec), variant


def _bind(xp, dataset, *arguments):
    return DatasetValue(_pipeline(dataset, arguments), bound=True)


_BIND = register("BindDataset", _bind, lambda dataset, *arguments: _SCALAR_VARIANT, tied=(),
                 stateful=True, not_differentiable="a dataset")
tf_args[_BIND] = None
tf_nodes[_BIND] = NodeForm(rewrite=_dataset_of_tensors(1))


class DatasetArgument(Dataset):
    """A dataset argument while its function traces: its placeholder stands for the dataset
    each call passes.  A pipeline built on it in the function reads the call's dataset: the
    ``MakeIterator`` that starts it is fed the argument and binds it here."""

    def __init__(self, spec, placeholder):
        self._spec = spec
        self._variant_tensor_value = placeholder
        self._bound = None

    def _iterator(self):
        if self._bound is None:
            raise TypeError("A dataset passed to a traced function cannot be iterated while "
                            "the function traces.")
        return self._bound._iterator()

    def _as_function_argument(self):
        from eagerflow._src.data.dataset_spec import DatasetSpec  # noqa: PLC0415
        return DatasetSpec(self._spec), self._variant_tensor_value

    def __repr__(self):
        return f"<DatasetArgument element_spec={self._spec!r}>"


def _arguments_of(dataset, found=None, seen=None):
    """The `DatasetArgument`s `dataset`'s pipeline is built on."""
    found = [] if found is None else found
    seen = set() if seen is None else seen
    if id(dataset) in seen:
        return found
    seen.add(id(dataset))
    if isinstance(dataset, DatasetArgument):
        found.append(dataset)
    for d in dataset._inputs():
        _arguments_of(d, found, seen)
    return found


# -- datasets built from a function's tensors -------------------------------------------------

def _leaves(value, datasets, tensors):
    """The datasets and symbolic tensors in a node's constructor arguments."""
    if isinstance(value, Dataset):
        datasets.append(value)
    elif isinstance(value, Tensor):
        if not isinstance(value, EagerTensor):
            tensors.append(value)
    elif isinstance(value, Variable):
        tensors.append(value)
    elif isinstance(value, CompositeTensor):  # (a ragged or sparse tensor: its components)
        _leaves(value._type_spec._to_components(value), datasets, tensors)
    elif isinstance(value, (tuple, list)):
        for v in value:
            _leaves(v, datasets, tensors)
    elif isinstance(value, dict):
        for v in value.values():
            _leaves(v, datasets, tensors)


def _recipe_leaves(node):
    datasets, tensors = [], []
    recipe = getattr(node, "_recipe", None)
    if recipe is not None and not isinstance(node, DatasetArgument):
        _leaves(recipe, datasets, tensors)
    return datasets, tensors


def _symbolic_tensors(dataset, found, seen):
    """The symbolic tensors (by id) that `dataset`'s nodes were built from."""
    if id(dataset) in seen:
        return found
    seen.add(id(dataset))
    datasets, tensors = _recipe_leaves(dataset)
    for t in tensors:
        if id(t) not in found:  # a variable is read when the iteration starts, as in TF
            found[id(t)] = t.value() if isinstance(t, Variable) else t
    for fn in _functions(dataset):
        for key, t in fn.foreign_tensors().items():
            found.setdefault(key, t)
    for d in (*datasets, *dataset._inputs()):
        _symbolic_tensors(d, found, seen)
    return found


def _functions(dataset):
    """The traced functions a node holds (a map's, a filter's, a flat_map's)."""
    return [v for v in vars(dataset).values() if isinstance(v, _FUNCTIONS)]


def _substitute(value, values, memo):
    if isinstance(value, Dataset):
        return _bound(value, values, memo)
    if isinstance(value, (Tensor, Variable)):
        return values.get(id(value), value)
    if isinstance(value, CompositeTensor):
        spec = value._type_spec
        return spec._from_components(_substitute(spec._to_components(value), values, memo))
    if isinstance(value, tuple) and hasattr(type(value), "_fields"):
        return type(value)(*(_substitute(v, values, memo) for v in value))
    if isinstance(value, (tuple, list)):
        return type(value)(_substitute(v, values, memo) for v in value)
    if isinstance(value, dict):
        return type(value)((k, _substitute(v, values, memo)) for k, v in value.items())
    return value


def _bound(dataset, values, memo):
    """`dataset` with the symbolic tensors it was built from replaced by `values` (eager
    tensors by the symbolic ones' ids): a node built from them is built again from its
    constructor's arguments; one above such nodes is copied onto the new inputs (keeping
    its traced functions); the rest is shared."""
    found = memo.get(id(dataset))
    if found is not None:
        return found
    _, tensors = _recipe_leaves(dataset)
    if tensors:
        args, kwargs = _substitute(dataset._recipe, values, memo)
        result = type(dataset)(*args, **kwargs)
    else:
        inputs = dataset._inputs()
        new = [_bound(d, values, memo) for d in inputs]
        functions = [fn for fn in _functions(dataset) if fn.foreign_tensors()]
        if (all(a is b for a, b in zip(inputs, new)) and not functions
                and not hasattr(dataset, "_recipe")):
            result = dataset  # (made outside the function: its state goes on across calls)
        else:
            replaced = {id(a): b for a, b in zip(inputs, new)}
            replaced.update((id(fn), fn.fed(values)) for fn in functions)
            result = copy.copy(dataset)
            for key, value in vars(result).items():
                if isinstance(value, (Dataset, *_FUNCTIONS)) and id(value) in replaced:
                    setattr(result, key, replaced[id(value)])
                elif isinstance(value, (tuple, list)) and any(
                        isinstance(v, Dataset) for v in value):
                    setattr(result, key, type(value)(replaced.get(id(v), v) for v in value))
            fresh = getattr(result, "_fresh_state", None)
            if fresh is not None:
                fresh()
    memo[id(dataset)] = result
    return result
