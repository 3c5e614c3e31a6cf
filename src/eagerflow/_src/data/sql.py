"""``tf.data.experimental.SqlDataset``: the rows of an SQL query as dataset elements.

SQLite is the one database, as in TF. Each column is read into its element's dtype the way
SQLite's C API converts values (TF's kernel reads them so): text to a number through its
leading numeric prefix, NULL to 0 or the empty string, a number to text as SQLite prints
it, and integers wrapped into narrower types.

>>> import os, sqlite3, tempfile
>>> path = os.path.join(tempfile.mkdtemp(), "people.db")
>>> with sqlite3.connect(path) as db:
...     _ = db.execute("create table people (name text, age integer)")
...     _ = db.executemany("insert into people values (?, ?)", [("ann", 31), ("bob", 42)])
>>> ds = tf.data.experimental.SqlDataset("sqlite", path, "select name, age from people",
...                                      (tf.string, tf.int32))
>>> [(name.numpy(), int(age)) for name, age in ds]
[(b'ann', 31), (b'bob', 42)]
"""
import re

import numpy as np

from eagerflow._src.backend.api_export import export
from eagerflow._src.core import dtypes as _d
from eagerflow._src.core import errors
from eagerflow._src.core.errors import op_error
from eagerflow._src.core.tensor_spec import TensorSpec
from eagerflow._src.data.dataset_ops import UNKNOWN, Dataset, dataset_error
from eagerflow._src.data.readers import _scalar

_TYPES = (_d.string, _d.int8, _d.int16, _d.int32, _d.int64, _d.uint8, _d.uint16, _d.bool,
          _d.float64)
_NUMBER = re.compile(rb"\s*[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?")
_INTEGER = re.compile(rb"\s*[+-]?\d+")


def _text(value):
    """SQLite's text of a column value."""
    if value is None:
        return b""
    if isinstance(value, (bytes, memoryview)):
        return bytes(value)
    if isinstance(value, float):
        return repr(value).encode() if value != int(value) or abs(value) >= 1e15 \
            else f"{value:.1f}".encode()
    return str(value).encode()


def _number(value, integer):
    """SQLite's integer (`integer`) or real value of a column value."""
    if value is None:
        return 0
    if isinstance(value, (int, float)):
        return int(value) if integer else float(value)
    match = (_INTEGER if integer else _NUMBER).match(_text(value))
    if match is None:
        return 0
    return int(match.group()) if integer else float(match.group())


def _column(value, dtype):
    if dtype == _d.string:
        return np.array(_text(value), object)
    if dtype == _d.float64:
        return np.float64(_number(value, False))
    if dtype == _d.bool:
        return np.bool_(_number(value, True) != 0)
    bits = np.iinfo(dtype.as_numpy_dtype).bits
    wrapped = _number(value, True) & ((1 << bits) - 1)  # (C's conversion to the narrow type)
    return np.array(wrapped, np.uint64).astype(dtype.as_numpy_dtype)


@export("data.experimental.SqlDataset")
class SqlDataset(Dataset):
    """The rows `query` returns from the database `data_source_name` (``driver_name``
    ``"sqlite"``), each a tuple of scalars of `output_types` (one dtype: the scalar)."""

    def __init__(self, driver_name, data_source_name, query, output_types):
        driver = _scalar(driver_name)
        if driver != "sqlite":
            raise dataset_error("SqlDataset", f"The database type, {driver}, is not supported "
                                              f"by SqlDataset. The set of supported databases "
                                              f"is: {{'sqlite'}}.")
        self._single = not isinstance(output_types, (tuple, list))
        self._types = [_d.as_dtype(t) for t in ([output_types] if self._single
                                                  else output_types)]
        if any(t not in _TYPES for t in self._types):
            raise dataset_error("SqlDataset", "Each element of `output_types_` must be one "
                                              "of: DT_STRING, DT_INT8, DT_INT16, DT_INT32, "
                                              "DT_INT64, DT_UINT8, DT_UINT16, DT_BOOL, "
                                              "DT_DOUBLE ")
        self._source, self._query = _scalar(data_source_name), _scalar(query)
        specs = tuple(TensorSpec([], t) for t in self._types)
        self._spec = specs[0] if self._single else specs

    def _inputs(self):
        return []

    def _cardinality(self):
        return UNKNOWN

    def _iterator(self):
        import sqlite3  # noqa: PLC0415 (loaded for the datasets that read a database)
        try:
            db = sqlite3.connect(f"file:{self._source}?mode=rw", uri=True)
        except sqlite3.Error as e:
            raise op_error(errors.InvalidArgumentError, "IteratorGetNext",
                           f"Sqlite::Open({self._source}) failed: {e}") from None
        try:
            try:
                rows = db.execute(self._query)
            except sqlite3.Error as e:
                raise op_error(errors.UnknownError, "IteratorGetNext",
                               f"Prepare() failed: [1] {e}: {self._query}") from None
            columns = len(rows.description or ())
            if columns != len(self._types):
                raise op_error(errors.InvalidArgumentError, "IteratorGetNext",
                               f"The number of columns in query ({columns}) must match the "
                               f"number of elements in output_types ({len(self._types)}).")
            for row in rows:
                yield tuple(_column(v, t) for v, t in zip(row, self._types))
        finally:
            db.close()
