"""``Dataset.save`` and ``Dataset.load``: a dataset's elements in a directory, with its spec.

The directory holds ``dataset_spec.json`` (the element structure: tuples,
named tuples by name and fields, dicts with string keys, and each tensor's
shape and dtype), ``shards/<index>.shard`` (the elements of each shard, in
the format of the file cache, gzip- or zlib-compressed on request) and
``metadata.json`` (element and shard counts), written last: a directory
without it is not a finished save.
"""
import collections
import gzip
import json
import os
import zlib

import numpy as np

from eagerflow._src.core import dtypes as _d
from eagerflow._src.core import errors
from eagerflow._src.core.errors import op_error
from eagerflow._src.core.tensor import Tensor
from eagerflow._src.core.tensor_shape import TensorShape
from eagerflow._src.core.tensor_spec import TensorSpec
from eagerflow._src.data import structure
from eagerflow._src.data.dataset_ops import Dataset
from eagerflow._src.data.dataset_spec import DatasetSpec
from eagerflow._src.data.file_cache import _read_array, _write_array
from eagerflow._src.data.structured_function import StructuredFunction
from eagerflow._src.ops.sparse_tensor import SparseTensorSpec
from eagerflow._src.ragged.ragged_tensor import RaggedTensorSpec

_SPEC, _METADATA, _SHARDS = "dataset_spec.json", "metadata.json", "shards"


def _encode(spec):
    if isinstance(spec, (TensorSpec, SparseTensorSpec)):
        shape = None if spec.shape.rank is None else spec.shape.as_list()
        return {"tensor" if isinstance(spec, TensorSpec) else "sparse": [shape, spec.dtype.name]}
    if isinstance(spec, RaggedTensorSpec):
        shape = None if spec.shape.rank is None else spec.shape.as_list()
        return {"ragged": [shape, spec.dtype.name, spec.ragged_rank, spec.row_splits_dtype.name]}
    if isinstance(spec, structure.NoneTensorSpec):
        return {"none": []}
    if isinstance(spec, dict):
        if not all(isinstance(k, str) for k in spec):
            raise TypeError("Dataset.save() supports dict elements with string keys only.")
        return {"dict": [[k, _encode(v)] for k, v in spec.items()]}
    if isinstance(spec, tuple) and hasattr(type(spec), "_fields"):
        return {"namedtuple": type(spec).__name__, "fields": list(spec._fields),
                "values": [_encode(v) for v in spec]}
    if isinstance(spec, tuple):
        return {"tuple": [_encode(v) for v in spec]}
    raise TypeError(f"Dataset.save() does not support elements of type {spec!r}.")


def _decode(data):
    if "tensor" in data:
        shape, dtype = data["tensor"]
        return TensorSpec(TensorShape(shape), _d.as_dtype(dtype))
    if "sparse" in data:  # (stored as its three components)
        shape, dtype = data["sparse"]
        return SparseTensorSpec(TensorShape(shape), _d.as_dtype(dtype))
    if "ragged" in data:  # (stored as its flat values and row splits)
        shape, dtype, ragged_rank, splits_dtype = data["ragged"]
        return RaggedTensorSpec(TensorShape(shape), _d.as_dtype(dtype), ragged_rank,
                                _d.as_dtype(splits_dtype))
    if "none" in data:  # (stored as no arrays)
        return structure.NoneTensorSpec()
    if "dict" in data:  # TF stores a dict's structure by sorted key, and loads it back so
        return {k: _decode(v) for k, v in sorted(data["dict"])}
    if "namedtuple" in data:
        cls = collections.namedtuple(data["namedtuple"], data["fields"])
        return cls(*[_decode(v) for v in data["values"]])
    return tuple(_decode(v) for v in data["tuple"])


def _opener(compression):
    if compression in (None, ""):
        return open
    if compression == "GZIP":
        return gzip.open
    if compression == "ZLIB":
        return _ZlibFile
    raise ValueError(f"Invalid `compression`: {compression!r}. Supported values are None, "
                     f"'GZIP' and 'ZLIB'.")


class _ZlibFile:
    """A whole zlib stream as a file (written on close, read at open)."""

    def __init__(self, path, mode):
        import io  # noqa: PLC0415
        self._path, self._mode = path, mode
        if "r" in mode:
            with open(path, "rb") as f:
                self._buffer = io.BytesIO(zlib.decompress(f.read()))
        else:
            self._buffer = io.BytesIO()

    def write(self, data):
        return self._buffer.write(data)

    def read(self, n=-1):
        return self._buffer.read(n)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        if "w" in self._mode and exc[0] is None:
            with open(self._path, "wb") as f:
                f.write(zlib.compress(self._buffer.getvalue()))
        return False


def _path(path):
    if isinstance(path, Tensor):
        path = path.numpy()
    if isinstance(path, bytes):
        path = path.decode()
    return os.fspath(path)


def save(dataset, path, compression=None, shard_func=None, checkpoint_args=None):
    for _ in _writing(dataset, _path(path), compression, shard_func, "Dataset.save()"):
        pass


def _writing(dataset, path, compression, shard_func, what):
    """The elements of `dataset`, written to `path` as they pass; the save is finished (its
    metadata written) once the last has passed."""
    opener = _opener(compression)
    for s in structure.flatten(dataset.element_spec):
        if isinstance(s, DatasetSpec):
            raise TypeError(f"{what} does not support datasets of datasets.")
    spec_text = json.dumps(_encode(dataset.element_spec))
    shard_of = None
    if shard_func is not None:
        fn = StructuredFunction(shard_func, what, dataset.element_spec).trace()
        out = fn.output_spec
        # (TF asks for one int64 value: a tensor of shape [1] does, as one of unknown shape may)
        if not (isinstance(out, TensorSpec) and out.dtype == _d.int64
                and out.shape.is_compatible_with([1] * (out.shape.rank or 0))):
            raise _shard_func_error(what)
        shard_of = fn
    return _written(dataset, path, compression, opener, shard_of, spec_text, what)


def _shard_func_error(what):
    # (TF's save op checks it as it starts; snapshot's, as its iterator reads)
    op = "SaveDataset" if what == "Dataset.save()" else "IteratorGetNext"
    return op_error(errors.InvalidArgumentError, op, "`shard_func` must return a scalar int64.")


def _written(dataset, path, compression, opener, shard_of, spec_text, what):
    os.makedirs(os.path.join(path, _SHARDS), exist_ok=True)
    if os.path.exists(os.path.join(path, _METADATA)):
        os.remove(os.path.join(path, _METADATA))
    files, count = {}, 0
    try:
        for element in dataset._iterator():
            index = 0
            if shard_of is not None:
                index = np.asarray(shard_of(element)[0]).reshape(-1)
                if index.size != 1:
                    raise _shard_func_error(what)
                index = int(index[0])
            if index < 0:
                raise errors.InvalidArgumentError(
                    None, None, f"The shard function returned a negative index: {index}.")
            f = files.get(index)
            if f is None:
                f = files[index] = opener(os.path.join(path, _SHARDS, f"{index:08d}.shard"),
                                          "wb").__enter__()
            for a in structure.component_arrays(element):
                _write_array(f, a)
            count += 1
            yield element
    finally:
        for f in files.values():
            f.__exit__(None, None, None)
    with open(os.path.join(path, _SPEC), "w", encoding="utf-8") as f:
        f.write(spec_text)
    with open(os.path.join(path, _METADATA), "w", encoding="utf-8") as f:
        json.dump({"elements": count, "shards": sorted(files),
                   "compression": compression or None}, f)


class _SnapshotDataset(Dataset):
    """The input's elements, saved to `path` by the first complete iteration and loaded from
    there by the later ones (and by later programs)."""

    _tf_name = "_MapDataset"  # TF's snapshot hands its elements on through a map

    def __init__(self, input_dataset, path, compression, reader_func, shard_func):
        self._input, self._path = input_dataset, _path(path)
        self._compression = None if compression == "AUTO" else compression
        self._reader_func, self._shard_func = reader_func, shard_func
        self._spec = input_dataset.element_spec

    def _inputs(self):
        return [self._input]

    def _cardinality(self):
        return self._input._cardinality()

    def _iterator(self):
        if os.path.exists(os.path.join(self._path, _METADATA)):
            return load(self._path, self._spec, self._compression,
                        self._reader_func)._iterator()
        return _writing(self._input, self._path, self._compression, self._shard_func,
                        "Dataset.snapshot()")


class _ShardDataset(Dataset):
    """The elements of one saved shard."""

    def __init__(self, file, spec, opener):
        self._file, self._spec, self._opener = file, spec, opener

    def _iterator(self):
        specs = structure.flatten(self._spec)
        sparse = any(isinstance(s, structure.COMPOSITE_SPECS) for s in specs)
        width = sum(3 if isinstance(s, SparseTensorSpec) else len(s._component_specs)
                    if isinstance(s, structure.COMPOSITE_SPECS) else 1 for s in specs)
        with self._opener(self._file, "rb") as f:
            while True:
                first = _read_array(f, self._file)
                if first is None:
                    return
                arrays = (first, *(_read_array(f, self._file) for _ in range(width - 1)))
                yield structure.from_component_arrays(self._spec, arrays) if sparse else arrays


class _ShardsDataset(Dataset):
    """The shards of a save, as datasets (what a `reader_func` receives)."""

    def __init__(self, shards):
        self._shards = shards
        self._spec = DatasetSpec(shards[0].element_spec) if shards else DatasetSpec(None)

    def _cardinality(self):
        return len(self._shards)

    def _iterator(self):
        return ((s,) for s in self._shards)


class _LoadDataset(Dataset):
    def __init__(self, inner, count):
        self._inner, self._count = inner, count
        self._spec = inner.element_spec

    def _inputs(self):
        return [self._inner]

    def _cardinality(self):
        return self._count

    def _iterator(self):
        return self._inner._iterator()


def load(path, element_spec=None, compression=None, reader_func=None):
    path = _path(path)
    spec_file = os.path.join(path, _SPEC)
    if not os.path.exists(spec_file) and element_spec is None:
        raise errors.NotFoundError(None, None, f"tf.data snapshot element_spec file not "
                                               f"found: {spec_file}.")
    metadata_file = os.path.join(path, _METADATA)
    if not os.path.exists(metadata_file):
        raise errors.NotFoundError(None, None, f"No saved dataset at {path}: its metadata "
                                               f"({metadata_file}) is missing.")
    with open(metadata_file, encoding="utf-8") as f:
        metadata = json.load(f)
    if element_spec is None:
        with open(spec_file, encoding="utf-8") as f:
            element_spec = _decode(json.load(f))
    opener = _opener(compression if compression is not None else metadata["compression"])
    shards = [_ShardDataset(os.path.join(path, _SHARDS, f"{i:08d}.shard"), element_spec, opener)
              for i in metadata["shards"]]
    if not shards:
        from eagerflow._src.data.transformations import _VariantDataset  # noqa: PLC0415
        return _LoadDataset(_VariantDataset([], element_spec), 0)
    datasets = _ShardsDataset(shards)
    if reader_func is None:
        inner = datasets.interleave(lambda x: x, cycle_length=os.cpu_count() or 1)
    else:
        inner = reader_func(datasets)
        if not isinstance(inner, Dataset):
            raise TypeError("`reader_func` must return a `tf.data.Dataset`.")
    return _LoadDataset(inner, metadata["elements"])
