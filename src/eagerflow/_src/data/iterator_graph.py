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

The iterator ops are stateful: kept in program order, never folded or
merged.  ``for x in dataset`` in a traced function is a ``while_loop`` over
``IteratorGetNextAsOptional`` (AutoGraph's `for_stmt` asks the dataset for
`_as_graph_iterator`); `reduce_in_graph` is ``Dataset.reduce`` as such a
loop.
"""
import numpy as np

from eagerflow._src.backend.api_export import export
from eagerflow._src.core import context
from eagerflow._src.core import dtypes as _d
from eagerflow._src.core import errors
from eagerflow._src.core.dispatch import dispatch
from eagerflow._src.core.errors import op_error
from eagerflow._src.core.registry import PER_ELEMENT, batching_rules, register
from eagerflow._src.core.tensor import EagerTensor, Tensor
from eagerflow._src.core.tensor_shape import TensorShape
from eagerflow._src.core.tensor_spec import TensorSpec
from eagerflow._src.data import structure
from eagerflow._src.data.dataset_ops import Dataset
from eagerflow._src.data.iterator_ops import Iterator
from eagerflow._src.data.optional_ops import Optional

_new = object.__new__
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
    """The value of a dataset's variant tensor: the `Dataset` itself, and the function
    arguments (`DatasetArgument`) its pipeline is built on."""

    __slots__ = ("dataset", "arguments")

    def __init__(self, dataset, arguments=()):
        self.dataset = dataset
        self.arguments = arguments

    def __repr__(self):
        return f"<DatasetValue {self.dataset!r}>"


class IteratorValue(_Value):
    """The value of an iterator's tensor: the Python iterator of flat elements (None until
    ``MakeIterator`` starts it)."""

    __slots__ = ("source", "__weakref__")

    def __init__(self, source=None):
        self.source = source

    def __repr__(self):
        return "<IteratorValue>"


class OptionalValue(_Value):
    """The value of an optional's tensor: an element's flat arrays, or None."""

    __slots__ = ("flat",)

    def __init__(self, flat):
        self.flat = flat


def _wrap(value):
    t = _new(EagerTensor)
    t._data = value
    return t


# -- the ops -----------------------------------------------------------------------------------

def _specs(output_types, output_shapes):
    return [(TensorShape(s), d) for s, d in zip(output_shapes, output_types)]


def _anonymous_iterator(xp, *, output_types, output_shapes):
    return IteratorValue()


def _make_iterator(xp, dataset, iterator, *arguments):
    # a pipeline built on the traced function's dataset arguments reads this call's
    for stand_in, value in zip(dataset.arguments, arguments):
        stand_in._bound = value.dataset
    iterator.source = dataset.dataset._iterator()
    return ()


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
    return tuple(flat)


def _get_next_as_optional(xp, iterator, *, output_types, output_shapes):
    return OptionalValue(_next_flat(iterator))


def _has_value(xp, optional):
    return np.array(optional.flat is not None)


def _get_value(xp, optional, *, output_types, output_shapes):
    if optional.flat is None:
        raise op_error(errors.InvalidArgumentError, "OptionalGetValue",
                       "The given optional does not have a value.")
    return tuple(optional.flat)


def _no_outputs(*_, **__):
    return []


_ANONYMOUS_ITERATOR = register(
    "AnonymousIteratorV3", _anonymous_iterator, lambda **_: _SCALAR_VARIANT, tied=(),
    stateful=True, not_differentiable="an iterator")
_MAKE_ITERATOR = register("MakeIterator", _make_iterator, _no_outputs, multi=True, tied=(),
                          stateful=True, not_differentiable="an iterator")
_GET_NEXT = register(
    "IteratorGetNext", _get_next,
    lambda iterator, *, output_types, output_shapes: _specs(output_types, output_shapes),
    multi=True, tied=(), stateful=True, not_differentiable="the elements of a dataset")
_GET_NEXT_AS_OPTIONAL = register(
    "IteratorGetNextAsOptional", _get_next_as_optional, lambda iterator, **_: _SCALAR_VARIANT,
    tied=(), stateful=True, not_differentiable="the elements of a dataset")
_HAS_VALUE = register("OptionalHasValue", _has_value,
                      lambda optional: (TensorShape([]), _d.bool), tied=(),
                      not_differentiable="a boolean")
_GET_VALUE = register(
    "OptionalGetValue", _get_value,
    lambda optional, *, output_types, output_shapes: _specs(output_types, output_shapes),
    multi=True, tied=(), not_differentiable="the elements of a dataset")
batching_rules.assign(PER_ELEMENT, _HAS_VALUE, _GET_VALUE)


def _attrs(spec):
    leaves = structure.flatten(spec)
    for s in leaves:
        if not isinstance(s, TensorSpec):
            raise TypeError(f"Iterating a dataset of {type(s).__name__} components inside a "
                            f"traced function is not supported; iterate it eagerly.")
    return {"output_types": tuple(s.dtype for s in leaves),
            "output_shapes": tuple(s.shape for s in leaves)}


def dataset_tensor(dataset):
    """The variant tensor standing for `dataset` (an argument's placeholder, or an eager
    tensor that the graph captures)."""
    found = getattr(dataset, "_variant_tensor_value", None)
    if found is not None:
        return found
    return _wrap(DatasetValue(dataset, tuple(_arguments_of(dataset))))


def make_iterator(dataset, spec):
    """The resource tensor of a new iterator over `dataset`, started (``iter(dataset)``)."""
    attrs = _attrs(spec)
    resource = dispatch(_ANONYMOUS_ITERATOR, (), attrs)
    variant = dataset_tensor(dataset)
    arguments = () if isinstance(dataset, DatasetArgument) else tuple(
        a._variant_tensor_value for a in variant._data.arguments)
    dispatch(_MAKE_ITERATOR, (variant, resource, *arguments))
    return resource


def get_next(resource, spec):
    """The next element of the iterator `resource` (`OutOfRangeError` at the end)."""
    flat = dispatch(_GET_NEXT, (resource,), _attrs(spec))
    return structure.pack(spec, list(flat))


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
        return structure.pack(self._spec, list(flat))

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
        value = owned._resource_value = IteratorValue(owned._source)
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
        args = tuple(element) if type(spec) is tuple else (element,)
        new = structure.normalize(reduce_func(structure.pack(state, list(flat)), *args))
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
    from eagerflow._src.data.dataset_spec import DatasetSpec  # noqa: PLC0415
    return DatasetSpec(dataset.element_spec), dataset_tensor(dataset)


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
