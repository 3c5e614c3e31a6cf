"""TF 1's datasets (``tf.compat.v1.data.Dataset``): TF 2's datasets with the graph-session
methods TF 1 had, ``make_one_shot_iterator``, ``make_initializable_iterator`` and the
``output_shapes``/``output_types``/``output_classes`` properties.

A `DatasetV1Adapter` wraps a TF 2 dataset; the constructors and the transformations TF 1
had return one again (the others, ``enumerate``, ``scan`` & co., TF 2's dataset, as in TF).
TF 2's `Dataset` itself keeps no v1 method.

>>> ds = tf.compat.v1.data.Dataset.range(3).batch(2)
>>> ds.output_shapes, ds.output_types
(TensorShape([None]), tf.int64)
>>> hasattr(tf.data.Dataset.range(3), "make_one_shot_iterator")
False
"""
from eagerflow._src.backend.api_export import export
from eagerflow._src.compat import iterators
from eagerflow._src.core import nest
from eagerflow._src.core.tensor import Tensor
from eagerflow._src.core.tensor_spec import TensorSpec
from eagerflow._src.data import readers
from eagerflow._src.data.dataset_ops import Dataset
from eagerflow._src.ops.sparse_tensor import SparseTensor, SparseTensorSpec

# TF 1's transformations that give a TF 1 dataset (methods) and its constructors (static).
_METHODS = ("batch", "cache", "concatenate", "filter", "flat_map", "interleave", "map",
            "padded_batch", "prefetch", "repeat", "shard", "shuffle", "skip", "take",
            "unbatch", "window", "with_options")
_CONSTRUCTORS = ("from_generator", "from_tensor_slices", "from_tensors", "list_files",
                 "range")


def _unwrapped(value):
    """`value` with TF 1 datasets (also in tuples, lists, dicts) replaced by the TF 2
    datasets they wrap: the pipeline holds no adapter between its nodes."""
    if isinstance(value, DatasetV1):
        return value._dataset
    if isinstance(value, (tuple, list)) and not hasattr(type(value), "_fields"):
        return type(value)(_unwrapped(v) for v in value)
    if isinstance(value, dict):
        return type(value)((k, _unwrapped(v)) for k, v in value.items())
    return value


def _wrapped(dataset):
    return dataset if isinstance(dataset, DatasetV1) else DatasetV1Adapter(dataset)


def _legacy(spec, kind):
    """What TF 1 said of one component of `spec`: its shape, dtype or class."""
    if isinstance(spec, (TensorSpec, SparseTensorSpec)):
        if kind == "classes":
            return Tensor if isinstance(spec, TensorSpec) else SparseTensor
        return spec.shape if kind == "shapes" else spec.dtype
    if kind != "classes" and hasattr(spec, "shape") and hasattr(spec, "dtype"):
        return spec.shape if kind == "shapes" else spec.dtype  # (a ragged tensor's)
    return spec


def _legacy_structure(dataset_or_iterator, kind):
    return nest.map_structure(lambda s: _legacy(s, kind), dataset_or_iterator.element_spec)


@export("compat.v1.data.get_output_shapes")
def get_output_shapes(dataset_or_iterator):
    """The `TensorShape` nest of the elements of a dataset or iterator."""
    return _legacy_structure(dataset_or_iterator, "shapes")


@export("compat.v1.data.get_output_types")
def get_output_types(dataset_or_iterator):
    """The `DType` nest of the elements of a dataset or iterator."""
    return _legacy_structure(dataset_or_iterator, "types")


@export("compat.v1.data.get_output_classes")
def get_output_classes(dataset_or_iterator):
    """The class nest (`tf.Tensor`, `tf.SparseTensor`, or a spec) of the elements of a
    dataset or iterator."""
    return _legacy_structure(dataset_or_iterator, "classes")


@export("compat.v1.data.Dataset")
class DatasetV1(Dataset):
    """A TF 1 dataset: TF 2's `tf.data.Dataset` plus TF 1's graph-session methods.

    >>> it = tf.compat.v1.data.Dataset.from_tensor_slices([1, 2]).make_one_shot_iterator()
    >>> int(it.get_next())
    1
    """

    # `_dataset`: the TF 2 dataset it stands for (set by `DatasetV1Adapter`).
    def _iterator(self):
        return self._dataset._iterator()

    def _cardinality(self):
        return self._dataset._cardinality()

    def _inputs(self):
        return [self._dataset]

    def _batches(self, batch_size, drop_remainder):
        return self._dataset._batches(batch_size, drop_remainder)

    @property
    def element_spec(self):
        return self._dataset.element_spec

    def __repr__(self):
        return repr(self._dataset)

    output_shapes = property(get_output_shapes, doc="The `TensorShape` nest of an element.")
    output_types = property(get_output_types, doc="The `DType` nest of an element.")
    output_classes = property(get_output_classes, doc="The class nest of an element.")

    def make_one_shot_iterator(self):
        """An iterator over this dataset that needs no initialization: in a v1 graph a
        `tf.compat.v1.data.Iterator` (each session runs it once), else ``iter(self)``."""
        return iterators.make_one_shot_iterator(self)

    def make_initializable_iterator(self, shared_name=None):
        """An iterator over this dataset that a session starts by running its
        `initializer` (v1 graphs only)."""
        return iterators.make_initializable_iterator(self, shared_name)

    def apply(self, transformation_func):
        """``transformation_func(self)``, as a TF 1 dataset."""
        return _wrapped(Dataset.apply(self, transformation_func))

    @staticmethod
    def zip(*args, datasets=None, name=None):
        """As `tf.data.Dataset.zip`, returning a TF 1 dataset."""
        return DatasetV1Adapter(Dataset.zip(*_unwrapped(args), datasets=_unwrapped(datasets),
                                            name=name))

    @staticmethod
    def from_sparse_tensor_slices(sparse_tensor):
        """The rows of `sparse_tensor`, each as TF 1 gave them: a tuple (indices, values,
        dense shape) of the row."""
        rows = Dataset.from_tensor_slices(sparse_tensor)
        return DatasetV1Adapter(rows.map(lambda s: (s.indices, s.values, s.dense_shape)))

    def map_with_legacy_function(self, map_func, num_parallel_calls=None,
                                 deterministic=None):
        """`map` (TF 1 traced `map_func` in the legacy way; the result is the same)."""
        return self.map(map_func, num_parallel_calls, deterministic)

    def filter_with_legacy_function(self, predicate):
        """`filter` (TF 1 traced `predicate` in the legacy way; the result is the same)."""
        return self.filter(predicate)


def _method(name):
    def method(self, *args, **kwargs):
        return DatasetV1Adapter(getattr(Dataset, name)(self._dataset, *_unwrapped(args),
                                                       **_unwrapped(kwargs)))
    method.__name__ = method.__qualname__ = name
    method.__doc__ = f"As `tf.data.Dataset.{name}`, returning a TF 1 dataset."
    return method


def _constructor(name):
    def constructor(*args, **kwargs):
        return DatasetV1Adapter(getattr(Dataset, name)(*args, **kwargs))
    constructor.__name__ = constructor.__qualname__ = name
    constructor.__doc__ = f"As `tf.data.Dataset.{name}`, returning a TF 1 dataset."
    return staticmethod(constructor)


for _name in _METHODS:
    setattr(DatasetV1, _name, _method(_name))
for _name in _CONSTRUCTORS:
    setattr(DatasetV1, _name, _constructor(_name))


class DatasetV1Adapter(DatasetV1):
    """A TF 2 dataset seen as a TF 1 one (what TF 1's constructors and transformations
    return)."""

    def __init__(self, dataset):
        self._dataset = dataset


def _reader(cls, name):
    class Reader(DatasetV1Adapter):
        def __init__(self, *args, **kwargs):
            super().__init__(cls(*args, **kwargs))

    Reader.__name__ = Reader.__qualname__ = name
    Reader.__doc__ = f"`tf.data.{cls.__name__}` as a TF 1 dataset."
    return Reader


TFRecordDatasetV1 = export("compat.v1.data.TFRecordDataset")(
    _reader(readers.TFRecordDataset, "TFRecordDatasetV1"))
TextLineDatasetV1 = export("compat.v1.data.TextLineDataset")(
    _reader(readers.TextLineDataset, "TextLineDatasetV1"))
FixedLengthRecordDatasetV1 = export("compat.v1.data.FixedLengthRecordDataset")(
    _reader(readers.FixedLengthRecordDataset, "FixedLengthRecordDatasetV1"))
