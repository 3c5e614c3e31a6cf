"""Datasets as values: `DatasetSpec`, and user functions that take or return datasets.

Functions given to ``flat_map``, ``interleave`` and ``group_by_window`` return
datasets (a ``map`` function may return datasets among its tensors:
`ElementFunction`).  `DatasetFunction` traces such a function once, as TF does: a graph
function (AutoGraph applied) on symbolic inputs (placeholders for tensors,
`_SymbolicDataset` for datasets), which gives the element spec of its
datasets (with TF's unknown dimensions) and computes the tensors the dataset
is built from (`_DatasetProgram`).  Each element runs that graph, never the
Python function: the traced dataset is built again from the graph's values
(`iterator_graph._bound`), as datasets built in a `function` are on each of
its calls.  Dataset sources therefore accept symbolic tensors (they give the
spec; iterating such a dataset is an error).

A function whose trace fails (an ``if`` on a tensor choosing between
datasets, which the graph's cond cannot return), or whose graph reads a
dataset argument (``reduce`` or ``cardinality`` of a window: the argument is
no input of the graph), is called eagerly per element instead: its spec then
comes from the traced result or from the dataset made of the input's first
element, with unknown dimensions.

A function made while a `function` traces may close over that function's
tensors (``lambda x: tf.data.Dataset.range(n)`` with ``n`` an argument):
those are its `foreign_tensors`, which each call of the enclosing function
feeds (`fed`), as it feeds a map function's (see `iterator_graph`).  Its
per-element calls then run on their values (its graph fed them; an eager call
under `dispatch.feeding`), and the datasets they return are rebuilt from them.
"""
import copy

from eagerflow._src.backend.api_export import export
from eagerflow._src.core import context
from eagerflow._src.core.dispatch import feeding
from eagerflow._src.core.tensor import EagerTensor, Tensor
from eagerflow._src.core.tensor_shape import TensorShape
from eagerflow._src.core.tensor_spec import TensorSpec, value_specs
from eagerflow._src.data import structure
from eagerflow._src.data.dataset_ops import Dataset, _merged_spec
from eagerflow._src.data.structured_function import (StructuredFunction, reusing_traces,
                                                      sparse_argument)
from eagerflow._src.function import autograph_slot
from eagerflow._src.graph.graph import Graph
from eagerflow._src.ops.sparse_tensor import SparseTensor, SparseTensorSpec
from eagerflow._src.ragged.ragged_tensor import RaggedTensor, RaggedTensorSpec


@export("data.DatasetSpec", "data.experimental.DatasetStructure")
class DatasetSpec:
    """The type of a dataset-valued element: its `element_spec` and `dataset_shape`.

    >>> tf.data.DatasetSpec(tf.TensorSpec([], tf.int64))
    DatasetSpec(TensorSpec(shape=(), dtype=tf.int64, name=None), TensorShape([]))
    """

    def __init__(self, element_spec, dataset_shape=()):
        self._element_spec = element_spec
        self._dataset_shape = TensorShape(dataset_shape)

    element_spec = property(lambda self: self._element_spec)
    shape = property(lambda self: self._dataset_shape)
    value_type = property(lambda self: Dataset)

    @staticmethod
    def from_value(value):
        return DatasetSpec(value.element_spec)

    def is_compatible_with(self, other):
        other_spec = other.element_spec if isinstance(other, (Dataset, DatasetSpec)) else None
        return other_spec is not None and structure.same_structure(
            self._element_spec, other_spec) and all(
            a.is_compatible_with(b) for a, b in zip(structure.flatten(self._element_spec),
                                                    structure.flatten(other_spec)))

    def most_specific_common_supertype(self, others):
        """The spec of datasets whose elements fit both this spec's and each of `others'`
        (None when their element structures or types differ)."""
        element, shape = self._element_spec, self._dataset_shape
        for o in others:
            if not isinstance(o, DatasetSpec):
                return None
            try:
                element = _merged_spec(element, o._element_spec)
            except TypeError:
                return None
            shape = shape.most_specific_compatible_shape(o._dataset_shape)
        return DatasetSpec(element, shape)

    def __eq__(self, other):
        return (isinstance(other, DatasetSpec) and self._element_spec == other._element_spec
                and self._dataset_shape == other._dataset_shape)

    def __hash__(self):
        return hash((repr(self._element_spec), self._dataset_shape))

    def __repr__(self):
        return f"DatasetSpec({self._element_spec!r}, {self._dataset_shape!r})"

    # -- as the type of a `function` argument (see `iterator_graph`) -------------------------
    def _as_function_argument(self):
        """A spec given to ``get_concrete_function`` stands for a dataset of its type."""
        return self, self

    def _stand_in(self, placeholder):
        """The dataset a function traces with for an argument of this spec."""
        from eagerflow._src.data.iterator_graph import DatasetArgument  # noqa: PLC0415
        return DatasetArgument(self._element_spec, placeholder)

    def _argument_tensor(self, value):
        """The variant tensor feeding a call's dataset `value`; None when it does not fit."""
        if not isinstance(value, Dataset) or DatasetSpec.from_value(value) != self:
            return None
        from eagerflow._src.data.iterator_graph import dataset_tensor  # noqa: PLC0415
        return dataset_tensor(value)


value_specs[Dataset] = DatasetSpec.from_value  # (``tf.type_spec_from_value`` of a dataset)


class _SymbolicDataset(Dataset):
    """A dataset argument while a function traces: it has a spec and no elements."""

    def __init__(self, spec):
        self._spec = spec
        self._in_graph = False

    # Asked for when an op takes it (``reduce``), or when its count is (its own is not
    # known while tracing): the graph of the trace does not then give what the element's
    # dataset would, see `_DatasetProgram`.
    @property
    def _variant_tensor_value(self):
        self._in_graph = True
        return None

    def _cardinality(self):
        self._in_graph = True
        return super()._cardinality()

    def _iterator(self):
        raise TypeError("A dataset passed to a traced function cannot be iterated while the "
                        "function traces.")


def _as_dataset_leaf(value):
    return value


class DatasetFunction:
    """A user function from an element (of `input_spec`) to a dataset (see the module)."""

    # Whether the function may return any element (a nest of tensors and datasets: map over
    # datasets), or a dataset only.
    _any_result = False

    def __init__(self, func, transformation_name, input_spec, input_dataset=None,
                 traced=True):
        # (`traced` False: `func` is always called eagerly, per element; for functions of
        # this package that read their arguments' values)
        self._func = func
        self._name = transformation_name
        self._spec = input_spec
        self._unpack = type(input_spec) is tuple
        self._traces = {}  # the functions of the datasets it builds, traced once
        self._foreign = {}  # the enclosing function's tensors it closes over, by id
        self._values = None  # their values in this call of the enclosing function (`fed`)
        self._program = _program(func, transformation_name, input_spec, self._any_result) \
            if traced else None
        if self._program is not None:
            result = self._program.result
            self._foreign = _outer_tensors(self._program.graph, result)
            self.output_spec = self._spec_of(result)
            return
        try:
            result = self._traced()
        except Exception:
            # A function choosing among datasets with a tensor condition (an ``if`` that
            # AutoGraph makes a cond, which here takes tensors only) cannot be traced: its
            # spec comes from the dataset it makes of the input's first element, with every
            # dimension unknown.
            first = None if input_dataset is None else next(input_dataset._iterator(), None)
            if first is None:
                raise
            try:
                result = self._result(self._called(first))
            except Exception:  # noqa: BLE001 (the trace's error, framed in user code, tells)
                result = None
            if result is None:
                raise
            self.output_spec = structure.map_structure(_unknown_dims, self._spec_of(result))
            return
        self.output_spec = self._spec_of(self._result(result))

    def _result(self, result):
        """The function's result checked (and, for any element, normalized)."""
        if self._any_result:
            return _normalized(result)
        if not isinstance(result, Dataset):
            raise TypeError(f"The `map_func` argument must return a `Dataset` object. Got "
                            f"{_type_name(result)!r}.")
        return result

    def _spec_of(self, result):
        if self._any_result:
            return structure.map_structure(
                lambda v: DatasetSpec(v.element_spec) if isinstance(v, Dataset)
                else structure.leaf_spec(v), result)
        return result.element_spec

    def _traced(self):
        """What the function returns for symbolic arguments."""
        graph = Graph(getattr(self._func, "__name__", "fn"))
        with context.building(graph):
            args = structure.map_structure(lambda s: self._placeholder(graph, s), self._spec)
            args = tuple(args) if self._unpack else (args,)
            if autograph_slot.call is not None:
                result = autograph_slot.call(self._func, args, {})
            else:
                result = self._func(*args)
        self._foreign = _outer_tensors(graph, result)
        return result

    @staticmethod
    def _placeholder(graph, spec):
        if isinstance(spec, structure.NoneTensorSpec):
            return None
        if isinstance(spec, DatasetSpec):
            return _SymbolicDataset(spec.element_spec)
        if isinstance(spec, SparseTensorSpec):
            return sparse_argument(spec, [graph.placeholder(c.dtype, c.shape, "args_0")
                                           for c in spec._component_specs])
        if isinstance(spec, RaggedTensorSpec):  # (of ragged rank 0: a tensor)
            return spec._from_components([graph.placeholder(c.dtype, c.shape, "args_0")
                                          for c in spec._component_specs])
        return graph.placeholder(spec.dtype, spec.shape, "args_0")

    def _called(self, flat):
        """The function's result for one element (a flat tuple of arrays and datasets; a
        sparse or ragged component, or a ragged tensor's row, comes as its eager value)."""
        if self._program is not None:
            return self._program(flat, self._values)
        element = structure.pack(self._spec, [
            v if v is None or isinstance(v, (Dataset, SparseTensor, RaggedTensor, EagerTensor))
            else structure.wrap(v)
            for v in flat])
        args = tuple(element) if self._unpack else (element,)
        values = self._values
        if values is None:
            with reusing_traces(self._traces):
                return self._func(*args)
        from eagerflow._src.data.iterator_graph import _bound  # noqa: PLC0415 (it imports us)
        with reusing_traces(self._traces), feeding(values):
            result = self._func(*args)
        memo = {}
        if isinstance(result, Dataset):
            return _bound(result, values, memo)
        if not self._any_result:
            return result
        return structure.map_structure(
            lambda v: _bound(v, values, memo) if isinstance(v, Dataset) else v, result)

    def foreign_tensors(self):
        """The tensors of the enclosing function's graph the function closes over (those
        it reads, and those the datasets it builds are built from), by id."""
        return self._foreign

    def fed(self, values):
        """A copy of this function for one call of the enclosing function, whose tensors
        take `values` (eager tensors by the symbolic ones' ids)."""
        bound = copy.copy(self)
        bound._values = values
        return bound

    def __call__(self, flat):
        """The dataset for one element; for any element, its flat tuple of arrays and
        datasets."""
        result = self._result(self._called(flat))
        if self._any_result:
            return tuple(v if v is None or isinstance(v, (Dataset, SparseTensor)) else v._data
                         for v in structure.flatten(result))
        return result

    def restart_draws(self):
        """Restarts the draws of the traced function's seeded random ops (see
        `StructuredFunction.restart_draws`).  True: the datasets it makes may draw too."""
        if self._program is not None:
            self._program.function.restart_draws()
        return True


class _DatasetProgram:
    """A function returning a dataset (or, `any_result`, a nest of datasets and tensors),
    traced once as a graph function (AutoGraph applied, on symbolic arguments) that
    computes the tensors its datasets are built from (and its tensors).

    Each element runs that graph, not the Python function, as TF does: the datasets of the
    trace are then built again from the element's values (`iterator_graph._bound`), the
    dataset arguments of the trace standing for the element's datasets."""

    def __init__(self, func, transformation_name, input_spec, any_result=False):
        from eagerflow._src.data.iterator_graph import _symbolic_tensors  # noqa: PLC0415
        self._unpack = type(input_spec) is tuple
        leaves = structure.flatten(input_spec)
        self._is_dataset = [isinstance(s, DatasetSpec) for s in leaves]
        self._datasets = [_SymbolicDataset(s.element_spec) if d else None
                          for s, d in zip(leaves, self._is_dataset)]
        tensor_specs = tuple(s for s, d in zip(leaves, self._is_dataset) if not d)
        program = self

        def build(*tensors):
            it = iter(tensors)
            element = structure.pack(input_spec, [
                ds if d else next(it) for ds, d in zip(program._datasets, program._is_dataset)])
            args = tuple(element) if program._unpack else (element,)
            if autograph_slot.call is not None:
                result = autograph_slot.call(func, args, {})
            else:
                result = func(*args)
            if any_result:
                result = _normalized(result)
            leaves = structure.flatten(result) if structure.is_nested(result) else [result]
            if not any_result and not isinstance(result, Dataset) or not all(
                    isinstance(v, Dataset) or type(v) is not EagerTensor
                    and isinstance(v, Tensor) for v in leaves):
                raise TypeError  # (the eager path says it, as TF does)
            if any(d._in_graph for d in program._datasets if d is not None):
                raise TypeError  # (an op takes a dataset argument: it runs eagerly)
            program.result = result
            found, seen = {}, set()
            for v in leaves:
                if isinstance(v, Dataset):
                    _symbolic_tensors(v, found, seen)
            program._keys = tuple(found)
            program.graph = context.get().graph
            return (*found.values(), *(v for v in leaves if not isinstance(v, Dataset)))

        build.__name__ = getattr(func, "__name__", "fn")
        self.function = StructuredFunction(build, transformation_name, tensor_specs,
                                           use_autograph=False)
        # (its random ops keep their states under the user function's code)
        self.function._func = func
        self.function.trace()

    def __call__(self, flat, values=None):
        """The dataset for one element (its flat tuple of arrays and datasets), the
        enclosing function's tensors taking `values` (by id) where it closes over them."""
        from eagerflow._src.data.iterator_graph import _bound  # noqa: PLC0415 (it imports us)
        function = self.function if values is None else self.function.fed(values)
        arrays = tuple(v for v, d in zip(flat, self._is_dataset) if not d)
        bound = dict(values or {})
        out = iter(map(structure.wrap, function(arrays)))
        bound.update(zip(self._keys, out))
        memo = {id(ds): v for ds, v, d in zip(self._datasets, flat, self._is_dataset) if d}
        result = self.result
        if isinstance(result, Dataset):
            return _bound(result, bound, memo)
        return structure.map_structure(
            lambda v: _bound(v, bound, memo) if isinstance(v, Dataset) else next(out), result)


def _program(func, transformation_name, input_spec, any_result=False):
    """`func` traced as a `_DatasetProgram`; None where it cannot be (a dataset chosen by a
    tensor condition: the function is then called per element, eagerly)."""
    from eagerflow._src.data import structured_function  # noqa: PLC0415
    if structured_function.debug_mode:  # (functions then run as Python, eagerly)
        return None
    try:
        return _DatasetProgram(func, transformation_name, input_spec, any_result)
    except Exception:  # noqa: BLE001 (the eager path reports the function's errors)
        return None


class ElementFunction(DatasetFunction):
    """A `map` function taking or returning datasets: its traced graph run per element."""

    _any_result = True


def _outer_tensors(graph, result):
    """The symbolic tensors of graphs enclosing `graph` (the function's trace) that the
    trace captured or that the datasets of its `result` are built from, by id."""
    from eagerflow._src.data.iterator_graph import _symbolic_tensors  # noqa: PLC0415
    found = {id(t): t for t, _ in graph.captures
             if isinstance(t, Tensor) and not isinstance(t, EagerTensor)}
    datasets = [v for v in structure.flatten(result) if isinstance(v, Dataset)] \
        if structure.is_nested(result) else [result] if isinstance(result, Dataset) else []
    for d in datasets:
        for key, t in _symbolic_tensors(d, {}, set()).items():
            if isinstance(t, Tensor) and not _built_in(t, graph):
                found.setdefault(key, t)
    return found


def _built_in(tensor, graph):
    """Whether `tensor` belongs to `graph` or to a graph built inside it."""
    inner = getattr(tensor, "graph", None)
    return inner is not None and inner._built_in(graph)


def _normalized(value):
    """A result as an element: a list returned is a tuple, each leaf a dataset or a tensor."""
    if isinstance(value, list):
        value = tuple(value)
    return structure.map_structure(
        lambda v: v if isinstance(v, Dataset) else structure.to_tensor(v), value)


def _unknown_dims(spec):
    if isinstance(spec, (DatasetSpec, structure.NoneTensorSpec)):
        return spec
    return type(spec)(TensorShape(None if spec.shape.rank is None else [None] * spec.shape.rank),
                      spec.dtype)


def _type_name(value):
    from eagerflow._src.core.tensor import Tensor  # noqa: PLC0415
    if isinstance(value, Tensor):
        return "Tensor"
    return type(value).__name__

