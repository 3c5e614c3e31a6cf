"""Datasets as values: `DatasetSpec`, and user functions that take or return datasets.

Functions given to ``flat_map``, ``interleave`` and ``group_by_window`` return
datasets.  `DatasetFunction` traces such a function once on symbolic inputs
(placeholders for tensors, `_SymbolicDataset` for datasets), as TF traces it,
which gives the element spec of its datasets (with TF's unknown dimensions)
without running anything.  Each element then calls the Python function
eagerly to build the dataset to iterate: its ``tf.print`` runs per element as
in TF, its Python side effects once more per element than in TF.  Dataset
sources therefore accept symbolic tensors (they give the spec; iterating
such a dataset is an error).
"""
from eagerflow._src.backend.api_export import export
from eagerflow._src.core import context
from eagerflow._src.core.tensor_shape import TensorShape
from eagerflow._src.data import structure
from eagerflow._src.data.dataset_ops import Dataset
from eagerflow._src.data.structured_function import reusing_traces
from eagerflow._src.function import autograph_slot
from eagerflow._src.graph.graph import Graph


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

    def __eq__(self, other):
        return (isinstance(other, DatasetSpec) and self._element_spec == other._element_spec
                and self._dataset_shape == other._dataset_shape)

    def __hash__(self):
        return hash((repr(self._element_spec), self._dataset_shape))

    def __repr__(self):
        return f"DatasetSpec({self._element_spec!r}, {self._dataset_shape!r})"

    # -- as the type of a `function` argument (see `iterator_graph`) -------------------------
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


class _SymbolicDataset(Dataset):
    """A dataset argument while a function traces: it has a spec and no elements."""

    def __init__(self, spec):
        self._spec = spec

    def _iterator(self):
        raise TypeError("A dataset passed to a traced function cannot be iterated while the "
                        "function traces.")


def _as_dataset_leaf(value):
    return value


class DatasetFunction:
    """A user function from an element (of `input_spec`) to a dataset (see the module)."""

    def __init__(self, func, transformation_name, input_spec):
        self._func = func
        self._name = transformation_name
        self._spec = input_spec
        self._unpack = type(input_spec) is tuple
        self._traces = {}  # the functions of the datasets it builds, traced once
        graph = Graph(getattr(func, "__name__", "fn"))
        with context.building(graph):
            args = structure.map_structure(lambda s: self._placeholder(graph, s), input_spec)
            args = tuple(args) if self._unpack else (args,)
            if autograph_slot.call is not None:
                result = autograph_slot.call(func, args, {})
            else:
                result = func(*args)
        if not isinstance(result, Dataset):
            raise TypeError(f"The `map_func` argument must return a `Dataset` object. Got "
                            f"{_type_name(result)!r}.")
        self.output_spec = result.element_spec

    @staticmethod
    def _placeholder(graph, spec):
        if isinstance(spec, DatasetSpec):
            return _SymbolicDataset(spec.element_spec)
        return graph.placeholder(spec.dtype, spec.shape, "args_0")

    def __call__(self, flat):
        """The dataset for one element (a flat tuple of arrays and datasets)."""
        element = structure.pack(self._spec, [
            v if isinstance(v, Dataset) else structure.wrap(v) for v in flat])
        args = tuple(element) if self._unpack else (element,)
        with reusing_traces(self._traces):
            result = self._func(*args)
        if not isinstance(result, Dataset):
            raise TypeError(f"The `map_func` argument must return a `Dataset` object. Got "
                            f"{_type_name(result)!r}.")
        return result


def _type_name(value):
    from eagerflow._src.core.tensor import Tensor  # noqa: PLC0415
    if isinstance(value, Tensor):
        return "Tensor"
    return type(value).__name__

