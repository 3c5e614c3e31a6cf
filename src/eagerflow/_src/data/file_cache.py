"""``Dataset.cache(filename)``: elements written to files on the first complete iteration and
read back from them afterwards, in this process or another.

The files are ``<filename>.data-00000-of-00001`` (the elements) and
``<filename>.index`` (written last, once every element is in: a cache without
it is incomplete and is written again).  Each element is its components in
order, each a header (dtype name, shape) and the raw little-endian values;
strings are a length per item followed by the bytes.  Nothing is pickled.
"""
import os
import struct
import sys
import time

import numpy as np

from eagerflow._src.backend.log import logger
from eagerflow._src.core import errors
from eagerflow._src.core.errors import op_error
from eagerflow._src.data import structure
from eagerflow._src.data.dataset_ops import _UnaryDataset
from eagerflow._src.ops.sparse_tensor import SparseTensorSpec

_MAGIC = b"EFCACHE1"


def _write_array(f, a):
    a = np.asarray(a)
    kind = "string" if a.dtype == object else a.dtype.str
    header = kind.encode()
    f.write(struct.pack("<BB", len(header), a.ndim) + header)
    f.write(struct.pack(f"<{a.ndim}q", *a.shape))
    if a.dtype == object:
        items = [bytes(x) if not isinstance(x, str) else x.encode() for x in a.reshape(-1)]
        f.write(np.array([len(x) for x in items], "<u8").tobytes())
        f.write(b"".join(items))
    else:
        f.write(np.ascontiguousarray(a).tobytes())


def _read_exact(f, n, path):
    data = f.read(n)
    if len(data) != n:
        raise errors.DataLossError(None, None, f"The cache file {path} is truncated.")
    return data


def _read_array(f, path):
    head = f.read(2)
    if not head:
        return None
    if len(head) != 2:
        raise errors.DataLossError(None, None, f"The cache file {path} is truncated.")
    size, ndim = struct.unpack("<BB", head)
    kind = _read_exact(f, size, path).decode()
    shape = struct.unpack(f"<{ndim}q", _read_exact(f, 8 * ndim, path))
    count = int(np.prod(shape, dtype=np.int64))
    if kind == "string":
        lengths = np.frombuffer(_read_exact(f, 8 * count, path), "<u8")
        blob = _read_exact(f, int(lengths.sum()), path)
        out = np.empty(count, object)
        pos = 0
        for i, n in enumerate(lengths.tolist()):
            out[i] = blob[pos:pos + n]
            pos += n
        return out.reshape(shape)
    dtype = np.dtype(kind)
    return np.frombuffer(_read_exact(f, dtype.itemsize * count, path), dtype).reshape(
        shape).copy()


class FileCacheDataset(_UnaryDataset):
    _tf_name = "CacheDataset"

    def __init__(self, input_dataset, filename):
        super().__init__(input_dataset)
        self._filename = os.fspath(filename)
        self._components = None

    @property
    def _data_path(self):
        return self._filename + ".data-00000-of-00001"

    @property
    def _index_path(self):
        return self._filename + ".index"

    def _iterator(self):
        if os.path.exists(self._index_path):
            return self._reading()
        return self._writing()

    def _reading(self):
        with open(self._index_path, "rb") as f:
            head = f.read(len(_MAGIC) + 16)
        if len(head) != len(_MAGIC) + 16 or not head.startswith(_MAGIC):
            raise errors.DataLossError(None, None,
                                       f"{self._index_path} is not a dataset cache index.")
        count, width = struct.unpack("<qq", head[len(_MAGIC):])
        path = self._data_path
        sparse = any(isinstance(s, (SparseTensorSpec, structure.NoneTensorSpec))
                     for s in structure.flatten(self._spec))  # (None components: no arrays)
        with open(path, "rb") as f:
            for _ in range(count):
                arrays = tuple(_read_array(f, path) for _ in range(width))
                yield structure.from_component_arrays(self._spec, arrays) if sparse else arrays

    def _lock(self):
        """Claims the cache for one writing iterator, as TF's lockfile does: a second one
        writing at the same time (a zip of the dataset with itself) would mix the two."""
        lock = f"{self._filename}_0.lockfile"
        try:
            fd = os.open(lock, os.O_CREAT | os.O_EXCL | os.O_WRONLY)
        except FileExistsError:
            try:
                with open(lock, encoding="utf-8") as f:
                    contents = f.read()
            except OSError:
                contents = ""
            raise op_error(
                errors.AlreadyExistsError, "IteratorGetNext",
                f"There appears to be a concurrent caching iterator running - cache lockfile "
                f"already exists ('{lock}'). If you are sure no other running TF computations "
                f"are using this cache prefix, delete the lockfile and re-initialize the "
                f"iterator. Lockfile contents: {contents}") from None
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(f"Created at: {int(time.time())}")
        return lock

    def _writing(self):
        folder = os.path.dirname(self._filename)
        if folder and not os.path.isdir(folder):
            raise errors.NotFoundError(None, None, f"Failed to create a directory: {folder}; "
                                                   f"No such file or directory")
        lock = self._lock()
        temp = f"{self._data_path}.tmp{os.getpid()}"
        count, width, complete = 0, 0, False
        try:
            with open(temp, "wb") as f:
                for element in self._input._iterator():
                    arrays = structure.component_arrays(element)  # (sparse ones as three)
                    for a in arrays:
                        _write_array(f, a)
                    count, width = count + 1, len(arrays)
                    yield element
            os.replace(temp, self._data_path)
            index_temp = f"{self._index_path}.tmp{os.getpid()}"
            with open(index_temp, "wb") as f:
                f.write(_MAGIC + struct.pack("<qq", count, width))
            os.replace(index_temp, self._index_path)
            complete = True
        finally:
            os.remove(lock)
            if not complete:
                if os.path.exists(temp):
                    os.remove(temp)
                if sys.meta_path is None:  # (the interpreter is shutting down: no logging)
                    return
                logger.warning(
                    "The calling iterator did not fully read the dataset being cached. In "
                    "order to avoid unexpected truncation of the dataset, the partially cached "
                    "contents of the dataset will be discarded. This can happen if you have "
                    "an input pipeline similar to `dataset.cache().take(k).repeat()`. You "
                    "should use `dataset.take(k).cache().repeat()` instead.")
