"""``tf.data.experimental.to_variant`` / ``from_variant``: a dataset as a scalar ``variant``
tensor and back, eagerly and while a function traces (see `iterator_graph`: the tensor's
value holds the `Dataset` itself).

>>> ds = tf.data.Dataset.range(3)
>>> v = tf.data.experimental.to_variant(ds)
>>> v.dtype, v.shape
(tf.variant, TensorShape([]))
>>> [int(x) for x in tf.data.experimental.from_variant(v, ds.element_spec)]
[0, 1, 2]
"""
from eagerflow._src.backend.api_export import export
from eagerflow._src.core import dtypes as _d
from eagerflow._src.core import errors
from eagerflow._src.core.tensor import EagerTensor
from eagerflow._src.data import structure
from eagerflow._src.data.dataset_ops import Dataset
from eagerflow._src.data.iterator_graph import DatasetArgument, DatasetValue, dataset_tensor


@export("data.experimental.to_variant")
def to_variant(dataset):
    """The scalar ``variant`` tensor standing for `dataset` (`from_variant` makes it a
    dataset again)."""
    if not isinstance(dataset, Dataset):
        raise AttributeError(f"'{type(dataset).__name__}' object has no attribute "
                             f"'_variant_tensor'")
    return dataset_tensor(dataset)


class _VariantDataset(Dataset):
    """The dataset a ``variant`` tensor holds, with the element structure given for it."""

    def __init__(self, dataset, spec):
        self._input = dataset
        self._spec = spec

    def _inputs(self):
        return [self._input]

    def _cardinality(self):
        return self._input._cardinality()

    def _iterator(self):
        want = [getattr(s, "dtype", None) for s in structure.flatten(self._spec)]
        have = [getattr(s, "dtype", None) for s in structure.flatten(self._input.element_spec)]
        if len(want) != len(have):
            raise errors.eager_error(errors.InvalidArgumentError, "MakeIterator",
                                     f"Number of components does not match: expected "
                                     f"{len(want)} types but got {len(have)}.")
        for i, (w, h) in enumerate(zip(want, have)):
            if w != h:
                raise errors.eager_error(errors.InvalidArgumentError, "MakeIterator",
                                         f"Data type mismatch at component {i}: expected "
                                         f"{w.name} but got {h.name}.")
        return self._input._iterator()


@export("data.experimental.from_variant")
def from_variant(variant, structure):
    """The dataset the scalar ``variant`` tensor `variant` holds (`to_variant`'s), whose
    elements have the (`TypeSpec` nest) `structure`."""
    if isinstance(variant, EagerTensor) and isinstance(variant._data, DatasetValue):
        return _VariantDataset(variant._data.dataset, structure)
    if getattr(variant, "dtype", None) == _d.variant and not isinstance(variant, EagerTensor):
        return DatasetArgument(structure, variant)  # (fed the dataset of each call)
    return _NotADataset(variant, structure)


class _NotADataset(Dataset):
    """`from_variant` of a tensor holding no dataset: iterating it fails, as in TF."""

    def __init__(self, value, spec):
        self._value = value
        self._spec = spec

    def _iterator(self):
        dtype = getattr(self._value, "dtype", None)
        if dtype is not None and dtype != _d.variant:
            raise errors.InvalidArgumentError(
                None, None, f"cannot compute MakeIterator as input #0(zero-based) was expected "
                            f"to be a variant tensor but is a {dtype.name} tensor "
                            f"[Op:MakeIterator] name: ")
        raise errors.eager_error(errors.InvalidArgumentError, "MakeIterator",
                                 "Tensor must be a Dataset object.")
