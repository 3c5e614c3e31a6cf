"""File readers: `TFRecordDataset`, `TextLineDataset` and `FixedLengthRecordDataset`.

Each reads the files named by `filenames` (a string, a list of strings, a
string tensor of any rank, or a dataset of scalar strings) one after another,
or, with ``num_parallel_reads``, that many at a time interleaved record by
record (TF's deterministic order), each open file read ahead on a thread.
Elements are scalar strings; a file is opened when the iteration reaches it,
so a missing or damaged file fails then (`NotFoundError`, `DataLossError`).

>>> import os, tempfile
>>> path = os.path.join(tempfile.mkdtemp(), "lines.txt")
>>> with open(path, "w") as f:
...     _ = f.write("first\\nsecond\\n")
>>> list(tf.data.TextLineDataset(path).as_numpy_iterator())
[b'first', b'second']
"""
import io
import os

import numpy as np

from eagerflow._src.backend.api_export import export
from eagerflow._src.core import dtypes as _d
from eagerflow._src.core import errors
from eagerflow._src.core.convert import convert_to_tensor, get_static_value
from eagerflow._src.core.errors import op_error
from eagerflow._src.core.tensor import EagerTensor, Tensor
from eagerflow._src.core.tensor_spec import TensorSpec
from eagerflow._src.data.dataset_ops import AUTOTUNE, UNKNOWN, Dataset, _int, dataset_error
from eagerflow._src.data.transformations import _interleave_cycle
from eagerflow._src.io import tf_record
from eagerflow._src.ops import io_ops

_STRING = TensorSpec([], _d.string)
_DEFAULT_BUFFER = 256 * 1024


def _file_names(filenames):
    """`filenames` as a list of names (str), a dataset of scalar strings, or None when they
    are symbolic (a dataset built while a function traces)."""
    if isinstance(filenames, Dataset):
        spec = filenames.element_spec
        if not isinstance(spec, TensorSpec) or spec.dtype != _d.string:
            dtype = getattr(spec, "dtype", None)
            raise TypeError(f"The `filenames` argument must contain `tf.string` elements. "
                            f"Got a dataset of `{dtype!r}` elements.")
        if spec.shape.rank != 0:
            raise TypeError(f"The `filenames` argument must contain `tf.string` elements of "
                            f"shape [] (i.e. scalars). Got a dataset of element shape "
                            f"{spec.shape!r}.")
        return filenames
    if isinstance(filenames, os.PathLike):
        filenames = os.fspath(filenames)
    if isinstance(filenames, (list, tuple)):
        filenames = [os.fspath(f) if isinstance(f, os.PathLike) else f for f in filenames]
    if isinstance(filenames, (list, tuple)) and not filenames:
        return []
    tensor = filenames if isinstance(filenames, Tensor) else convert_to_tensor(filenames)
    if tensor.dtype != _d.string:
        raise TypeError(f"The `filenames` argument must contain `tf.string` elements. Got "
                        f"`{tensor.dtype!r}` elements.")
    if not isinstance(tensor, EagerTensor):
        # (a constant made while a function traces, as of a Python string, names its files)
        value = get_static_value(tensor)
        return None if value is None else [_text(f) for f in np.asarray(value, object).reshape(-1)]
    return [_text(f) for f in np.asarray(tensor._data, object).reshape(-1)]


def _text(name):
    return name.decode("utf-8", "surrogateescape") if isinstance(name, bytes) else str(name)


def _scalar(value, default=None):
    """A Python value of a scalar argument given as a number, string or eager tensor."""
    if value is None:
        return default
    if isinstance(value, Tensor):
        if not isinstance(value, EagerTensor):
            return default
        value = value.numpy()
    if isinstance(value, bytes):
        return value.decode()
    return value


class _ReaderDataset(Dataset):
    """The records of files, read by ``_read(path)`` (bytes of each record, in order)."""

    def __init__(self, filenames, num_parallel_reads):
        self._files = _file_names(filenames)
        self._spec = _STRING
        self._parallel = None
        if num_parallel_reads is not None:
            n = _int(num_parallel_reads)
            if n is not None and n != AUTOTUNE and n <= 0:
                raise dataset_error("LegacyParallelInterleaveDatasetV2",  # (TF's reader)
                                    "`cycle_length` must be > 0", (("Targuments", 0),))
            if n == AUTOTUNE:  # (TF reads as an interleave with tuned threads and cycle)
                n = _interleave_cycle(AUTOTUNE, AUTOTUNE)[0]
            self._parallel = n

    def _inputs(self):
        return [self._files] if isinstance(self._files, Dataset) else []

    def _cardinality(self):
        return 0 if self._files == [] else UNKNOWN

    def _names(self):
        if self._files is None:
            raise TypeError("A dataset of files named by a symbolic tensor cannot be iterated "
                            "while a function traces.")
        if isinstance(self._files, Dataset):
            return (_text(flat[0].item() if hasattr(flat[0], "item") else flat[0])
                    for flat in self._files._iterator())
        return iter(self._files)

    def _iterator(self):
        if self._parallel is None or self._parallel == 1:
            return self._sequential()
        return self._interleaved(self._parallel)

    def _sequential(self):
        for name in self._names():
            for record in self._read(name):
                yield (np.array(record, object),)

    def _interleaved(self, cycle):
        """TF's order for ``num_parallel_reads``: `cycle` slots visited in turn, one record
        from each; a finished file empties its slot, which the next file fills when the
        turn comes back to it."""
        from eagerflow._src.data.parallel import prefetched  # noqa: PLC0415
        names = self._names()
        slots, opened = [None] * cycle, []
        open_count, index, end_of_names = 0, 0, False
        try:
            while not end_of_names or open_count:
                current = slots[index]
                if current is not None:
                    record = next(current, None)
                    if record is not None:
                        yield (np.array(record, object),)
                        index = (index + 1) % cycle
                        continue
                    opened.remove(current)
                    slots[index] = None
                    open_count -= 1
                    index = (index + 1) % cycle
                elif not end_of_names:
                    name = next(names, None)
                    if name is None:
                        end_of_names = True
                    else:  # read ahead on a thread while the other slots are read
                        slots[index] = prefetched(self._read(name), 64)
                        opened.append(slots[index])
                        open_count += 1
                else:
                    index = (index + 1) % cycle
        finally:
            for p in opened:
                close = getattr(p, "close", None)
                if close is not None:
                    close()


@export("data.TFRecordDataset")
class TFRecordDataset(_ReaderDataset):
    """The records of TFRecord files, as scalar strings (each checked against its CRCs).

    `compression_type`: "" (none), "ZLIB" or "GZIP"; `buffer_size`: bytes read at a
    time; `num_parallel_reads`: files read at once, their records interleaved.

    >>> import os, tempfile
    >>> path = os.path.join(tempfile.mkdtemp(), "data.tfrecord")
    >>> with tf.io.TFRecordWriter(path) as writer:
    ...     writer.write(b"one"); writer.write(b"two")
    >>> [r.numpy() for r in tf.data.TFRecordDataset(path)]
    [b'one', b'two']
    """

    _tf_name = "TFRecordDatasetV2"

    def __init__(self, filenames, compression_type=None, buffer_size=None,
                 num_parallel_reads=None, name=None):
        super().__init__(filenames, num_parallel_reads)
        self._compression = _known_compression(compression_type)
        self._buffer_size = _scalar(buffer_size)

    def _read(self, name):
        return tf_record.read_records(name, self._compression, self._buffer_size)


_COMPRESSIONS = ("", "ZLIB", "GZIP")


def _known_compression(compression_type):
    """`compression_type` (a string or scalar string tensor) when one of `_COMPRESSIONS`,
    else "": TF's TFRecord reader and writer take any other name ("gzip", "NONE") for no
    compression."""
    compression = _scalar(compression_type, "") or ""
    return compression if compression in _COMPRESSIONS else ""


def _unsupported_compression():
    """The error of TF's text and fixed-length readers for a `compression_type` not in
    `_COMPRESSIONS`, when the first file is opened."""
    return op_error(errors.InvalidArgumentError, "IteratorGetNext",
                    "Unsupported compression_type.")


def _open_stream(name, compression_type, buffer_size):
    """File `name` opened for reading bytes, decompressed for "ZLIB" or "GZIP"."""
    if (compression_type or "") not in _COMPRESSIONS:
        raise _unsupported_compression()
    kind = compression_type or ""
    raw = tf_record._open(name, "rb")
    if not kind:
        return raw
    return io.BufferedReader(tf_record._Inflating(raw, kind == "GZIP", buffer_size),
                             buffer_size)


@export("data.TextLineDataset")
class TextLineDataset(_ReaderDataset):
    """The lines of text files, as scalar strings without their line ends.

    As TF reads lines, a ``\\r`` is dropped wherever it is (so ``\\r\\n`` ends a line
    like ``\\n``), and a last line without a newline is still a line.
    """

    _tf_name = "TextLineDatasetV2"

    def __init__(self, filenames, compression_type=None, buffer_size=None,
                 num_parallel_reads=None, name=None):
        super().__init__(filenames, num_parallel_reads)
        self._compression = _scalar(compression_type, "") or ""
        self._buffer_size = int(_scalar(buffer_size) or _DEFAULT_BUFFER)

    def _read(self, name):
        stream = _open_stream(name, self._compression, self._buffer_size)
        try:
            pending = b""
            while True:
                chunk = stream.read(self._buffer_size)
                if not chunk:
                    break
                lines = (pending + chunk).split(b"\n")
                pending = lines.pop()
                for line in lines:
                    yield line.replace(b"\r", b"")
            if pending:
                yield pending.replace(b"\r", b"")
        finally:
            stream.close()


@export("data.FixedLengthRecordDataset")
class FixedLengthRecordDataset(_ReaderDataset):
    """Records of `record_bytes` bytes each from binary files, after `header_bytes` and
    before `footer_bytes` of each file.

    A file whose body is not a whole number of records fails with
    `InvalidArgumentError` when reached (`DataLossError` for a compressed file,
    known only at its end).
    """

    _tf_name = "FixedLengthRecordDatasetV2"

    def __init__(self, filenames, record_bytes, header_bytes=None, footer_bytes=None,
                 buffer_size=None, compression_type=None, num_parallel_reads=None, name=None):
        super().__init__(filenames, num_parallel_reads)
        self._record = _scalar(record_bytes)
        self._header = int(_scalar(header_bytes, 0) or 0)
        self._footer = int(_scalar(footer_bytes, 0) or 0)
        if self._record is not None:
            self._record = int(self._record)
            if self._record <= 0:
                raise op_error(errors.InvalidArgumentError, "FixedLengthRecordDatasetV2",
                               f"record_bytes must be greater than zero, got "
                               f"{self._record}")
        if self._header < 0 or self._footer < 0:
            which = "header_bytes" if self._header < 0 else "footer_bytes"
            value = self._header if self._header < 0 else self._footer
            raise op_error(errors.InvalidArgumentError, "FixedLengthRecordDatasetV2",
                           f"{which} must be >= 0 not {value}")
        self._compression = _scalar(compression_type, "") or ""
        self._buffer_size = int(_scalar(buffer_size) or _DEFAULT_BUFFER)

    def _length_error(self, cls, name, body):
        return cls(None, None, f"Excluding the header ({self._header} bytes) and footer "
                               f"({self._footer} bytes), input file \"{name}\" has body "
                               f"length {body % 2 ** 64} bytes, which is not an exact "
                               f"multiple of the record length ({self._record} bytes).")

    def _read(self, name):
        record, header, footer = self._record, self._header, self._footer
        stream = _open_stream(name, self._compression, self._buffer_size)
        compressed = bool(
            tf_record.TFRecordOptions.get_compression_type_string(self._compression or ""))
        try:
            if not compressed:  # (a file of any file system: its size from a seek to its end)
                body = stream.seek(0, io.SEEK_END) - header - footer
                if body < 0 or body % record:
                    raise self._length_error(errors.InvalidArgumentError, name, body)
                stream.seek(header)
                for _ in range(body // record):
                    yield stream.read(record)
                return
            skipped = stream.read(header)
            pending, count = b"", 0
            per_chunk = max(1, self._buffer_size // record) * record
            while True:
                chunk = stream.read(per_chunk)
                if not chunk:
                    break
                pending += chunk
                whole = max(0, len(pending) - footer) // record
                for i in range(whole):
                    yield pending[i * record:(i + 1) * record]
                count += whole
                pending = pending[whole * record:]
            rest = len(pending) - footer
            if len(skipped) < header or rest != 0:
                body = len(skipped) - header + count * record + rest
                raise self._length_error(errors.DataLossError, name, body)
        finally:
            stream.close()


# -- CSV -----------------------------------------------------------------------------------------

_CSV_TYPES = (_d.int32, _d.int64, _d.float32, _d.float64, _d.string)
_INT_RANGES = {_d.int32: (-2 ** 31, 2 ** 31 - 1), _d.int64: (-2 ** 63, 2 ** 63 - 1)}


def _csv_error(message):
    return op_error(errors.InvalidArgumentError, "IteratorGetNext", message)


def _csv_records(data, delim, quoted):
    """The records of CSV text `data` (bytes), each a list of its fields (bytes): fields
    split at `delim`, records at newlines (``\\r\\n`` too); with `quoted`, a field in
    double quotes may hold delimiters, newlines and doubled quotes."""
    pos, n = 0, len(data)
    while pos < n:
        end = data.find(b"\n", pos)
        end = n if end < 0 else end
        if not quoted or b'"' not in data[pos:end]:
            line = data[pos:end]
            pos = end + 1
            yield (line[:-1] if line.endswith(b"\r") else line).split(delim)
            continue
        fields, i = [], pos
        while True:
            if data[i:i + 1] == b'"':
                value, i = bytearray(), i + 1
                while True:
                    j = data.find(b'"', i)
                    if j < 0:
                        raise _csv_error("Reached end of file without closing quoted field in "
                                         "record")
                    value += data[i:j]
                    if data[j + 1:j + 2] == b'"':
                        value += b'"'
                        i = j + 2
                        continue
                    i = j + 1
                    break
                fields.append(bytes(value))
                after = data[i:i + 1]
                if after == delim:
                    i += 1
                    continue
                if after in (b"", b"\n") or data[i:i + 2] == b"\r\n":
                    i += 0 if not after else 1 if after == b"\n" else 2
                    break
                raise _csv_error("Quote inside a string has to be escaped by another quote")
            stop = data.find(b"\n", i)
            stop = n if stop < 0 else stop
            cut = data.find(delim, i, stop)
            if cut >= 0:
                fields.append(data[i:cut])
                i = cut + 1
                continue
            field = data[i:stop]
            fields.append(field[:-1] if field.endswith(b"\r") else field)
            i = stop + 1
            break
        pos = i
        yield fields


def _named_type(value):
    """The CSV type a plain record default stands for, or None.

    TF tests each default for membership in its CSV types, and a DType equals
    whatever `as_dtype` maps to it: a dtype's name ("float32") or its enum number
    (1 for float32, 7 for string, and so 1.0 or True as well) make a required
    field of that type instead of a default value.
    """
    if isinstance(value, (Tensor, np.ndarray)):
        return None
    try:
        if isinstance(value, (bool, int, float, np.number)) and value == int(value):
            value = int(value)  # (TF's dtype table is keyed by ints, which 1.0 and True equal)
        return next((t for t in _CSV_TYPES if t == value), None)
    except (TypeError, ValueError, OverflowError):
        return None


def _csv_default(value):
    """(dtype, default array or None when the field is required) of a record default."""
    named = _named_type(value)
    if named is not None:
        dtype, array = named, None
    else:
        tensor = value if isinstance(value, Tensor) else convert_to_tensor(value)
        dtype = tensor.dtype
        array = np.asarray(tensor._data) if isinstance(tensor, EagerTensor) else None
        if array is not None:
            if array.size == 0:
                array = None  # an empty default: the field is required
            elif array.size != 1:
                raise ValueError(f"A record default must be a scalar or empty, got shape "
                                 f"{array.shape}.")
            else:
                array = array.reshape(())
    if dtype not in _CSV_TYPES:
        raise TypeError(f"Unsupported type for a CSV record default: {dtype!r}; expected one "
                        f"of int32, int64, float32, float64, string.")
    return dtype, array


def _csv_value(field, index, dtype, default, na_value):
    if field == b"" or (na_value and field == na_value):
        if default is None:
            raise _csv_error(f"Field {index} is required but missing in record!")
        return default
    if dtype == _d.string:
        return np.array(field, object)
    number = io_ops.parse_number(field, dtype)  # (as decode_csv reads it)
    if number is None:
        kind = {"float32": "float", "float64": "double"}.get(dtype.name, dtype.name)  # (C's)
        raise _csv_error(f"Field {index} in record is not a valid {kind}: "
                         f"{field.decode('latin-1')}")
    return np.array(number, dtype.as_numpy_dtype)


@export("data.experimental.CsvDataset")
class CsvDataset(_ReaderDataset):
    """The records of CSV files as tuples of scalars, one per column.

    `record_defaults` gives each column's type: a value (its default for an
    empty or `na_value` field) or a dtype (the field is then required).
    `select_cols` or `exclude_cols` pick the columns read; `header` skips each
    file's first record.

    >>> import os, tempfile
    >>> path = os.path.join(tempfile.mkdtemp(), "data.csv")
    >>> with open(path, "w") as f:
    ...     _ = f.write("x,name\\n1,a\\n,b\\n")
    >>> ds = tf.data.experimental.CsvDataset(path, [0, tf.string], header=True)
    >>> [(int(x), s.numpy()) for x, s in ds]
    [(1, b'a'), (0, b'b')]
    """

    _tf_name = "CsvDatasetV2"

    def __init__(self, filenames, record_defaults, compression_type=None, buffer_size=None,
                 header=False, field_delim=",", use_quote_delim=True, na_value="",
                 select_cols=None, exclude_cols=None):
        super().__init__(filenames, None)
        self._defaults = [_csv_default(v) for v in record_defaults]
        self._spec = tuple(TensorSpec([], dtype) for dtype, _ in self._defaults)
        if select_cols is not None and exclude_cols is not None:
            raise op_error(errors.InvalidArgumentError, "CSVDatasetV2",
                           "Either select_cols or exclude_cols should be empty")
        if exclude_cols is not None:
            excluded = {int(c) for c in exclude_cols}
            total = len(self._defaults) + len(excluded)
            select_cols = [c for c in range(total) if c not in excluded]
        if select_cols is not None:
            select_cols = [int(c) for c in np.asarray(select_cols).reshape(-1)]
            if any(b <= a for a, b in zip(select_cols, select_cols[1:])) or (
                    select_cols and select_cols[0] < 0):
                raise op_error(errors.InvalidArgumentError, "CSVDatasetV2",
                               "select_cols should be strictly increasing indices")
            if len(select_cols) != len(self._defaults):
                raise op_error(errors.InvalidArgumentError, "CSVDatasetV2",
                               "select_cols should match output size")
        self._select = select_cols
        self._header = bool(_scalar(header, False))
        delim = _scalar(field_delim, ",")
        self._delim = delim.encode() if isinstance(delim, str) else bytes(delim)
        if len(self._delim) != 1:
            raise op_error(errors.InvalidArgumentError, "CSVDatasetV2",
                           "field_delim should be only 1 char")
        self._quoted = bool(_scalar(use_quote_delim, True))
        na = _scalar(na_value, "")
        self._na = na.encode() if isinstance(na, str) else bytes(na or b"")
        self._compression = _scalar(compression_type, "") or ""
        if self._compression not in _COMPRESSIONS:
            raise op_error(errors.InvalidArgumentError, "CSVDatasetV2",
                           f"Unsupported compression_type: {self._compression}.")
        self._buffer_size = int(_scalar(buffer_size) or _DEFAULT_BUFFER)

    def _iterator(self):
        for name in self._names():
            for record in self._read(name):
                yield record

    def _read(self, name):
        stream = _open_stream(name, self._compression, self._buffer_size)
        try:
            data = stream.read()
        finally:
            stream.close()
        records = _csv_records(data, self._delim, self._quoted)
        if self._header:
            next(records, None)
        expected, select = len(self._defaults), self._select
        for fields in records:
            chosen = fields if select is None else [fields[c] for c in select
                                                    if c < len(fields)]
            # (as TF, the fields are converted in order before their count is checked)
            values = tuple(_csv_value(f, i, dtype, default, self._na)
                           for i, (f, (dtype, default)) in enumerate(zip(chosen,
                                                                         self._defaults)))
            if len(chosen) != expected:
                have = "more" if len(chosen) > expected else len(chosen)
                raise _csv_error(f"Expect {expected} fields but have {have} in record")
            yield values


def _csv_type(field, na_value, previous):
    """The narrowest of int32, int64, float32, float64 and string that holds `field` and
    every value seen before (whose type was `previous`)."""
    if field == "" or field == na_value:
        return previous
    start = _CSV_TYPES.index(previous) if previous is not None else 0
    for dtype in _CSV_TYPES[start:]:
        if dtype == _d.string:
            return dtype
        try:
            if dtype in _INT_RANGES:
                low, high = _INT_RANGES[dtype]
                if low <= int(field) <= high:
                    return dtype
            elif np.isfinite(dtype.as_numpy_dtype(field)):
                return dtype
        except (ValueError, OverflowError):
            continue
    return _d.string


def _csv_rows(names, compression_type, delim, quoted, header, limit, expect=None):
    """The first `limit` records (after each file's header) of files `names`, as str.

    With `expect`, a record of another number of fields is a ValueError, as TF's type
    inference finds it: in the records read, the one after the last taken included.
    """
    count = 0
    for name in names:
        stream = _open_stream(name, compression_type, _DEFAULT_BUFFER)
        try:
            data = stream.read()
        finally:
            stream.close()
        records = _csv_records(data, delim, quoted)
        if header:
            next(records, None)
        for row, fields in enumerate(records, 2 if header else 1):
            if expect is not None:
                width = 0 if fields == [b""] else len(fields)  # (a blank line has none)
                if width != expect:
                    raise ValueError(f"Problem inferring types: CSV row {row} has {width} "
                                     f"number of fields. Expected: {expect}.")
            if limit is not None and count >= limit:
                return
            count += 1
            yield [f.decode("utf-8", "replace") for f in fields]


@export("data.experimental.make_csv_dataset")
def make_csv_dataset(file_pattern, batch_size, column_names=None, column_defaults=None,
                     label_name=None, select_columns=None, field_delim=",",
                     use_quote_delim=True, na_value="", header=True, num_epochs=None,
                     shuffle=True, shuffle_buffer_size=10000, shuffle_seed=None,
                     prefetch_buffer_size=None, num_parallel_reads=None, sloppy=False,
                     num_rows_for_inference=100, compression_type=None, ignore_errors=False,
                     encoding="utf-8"):
    """Batches of CSV rows as ``(features, label)``: an ordered dict of the columns by name
    (and the `label_name` column), column names from the header and types inferred from
    the first `num_rows_for_inference` rows unless given; shuffled and repeated
    `num_epochs` times (None: forever, then batches are whole).

    >>> import os, tempfile
    >>> path = os.path.join(tempfile.mkdtemp(), "data.csv")
    >>> with open(path, "w") as f:
    ...     _ = f.write("x,y,label\\n1,2.5,0\\n3,4.5,1\\n")
    >>> ds = tf.data.experimental.make_csv_dataset(path, 2, label_name="label",
    ...                                            shuffle=False, num_epochs=1)
    >>> features, label = next(iter(ds))
    >>> {k: v.numpy().tolist() for k, v in features.items()}, label.numpy().tolist()
    ({'x': [1, 3], 'y': [2.5, 4.5]}, [0, 1])
    """
    import collections  # noqa: PLC0415
    from eagerflow._src.io import gfile  # noqa: PLC0415
    patterns = [file_pattern] if isinstance(file_pattern, (str, bytes, os.PathLike)) else \
        list(file_pattern)
    names = []
    for pattern in patterns:
        pattern = _text(os.fspath(pattern) if isinstance(pattern, os.PathLike) else pattern)
        found = sorted(gfile.glob(pattern))
        if not found:
            raise ValueError(f"No files match `file_pattern` {pattern}.")
        names.extend(found)
    delim = field_delim.encode() if isinstance(field_delim, str) else bytes(field_delim)
    compression = _scalar(compression_type, "") or ""
    if compression not in _COMPRESSIONS:
        raise ValueError(f"Received unknown `compression_type` {compression}. Expected: "
                         f"GZIP, ZLIB or  (empty string).")
    if column_names is None:
        if not header:
            raise ValueError("Expected `column_names` or `header` arguments. Neither is "
                             "provided.")
        column_names = next(_csv_rows(names[:1], compression, delim, use_quote_delim, False,
                                      1), None)
        if column_names is None:
            raise ValueError(f"Failed when reading the header line of {names[0]}. Is it an "
                             f"empty file?")
    column_names = list(column_names)
    if len(set(column_names)) != len(column_names):
        duplicates = {c for c in column_names if column_names.count(c) > 1}
        raise ValueError(f"Either `column_names` argument or CSV header row contains "
                         f"duplicate column names: {duplicates}.")
    if select_columns is not None:
        indices = []
        for c in select_columns:
            if isinstance(c, str):
                if c not in column_names:
                    raise ValueError(f"Column {c} specified in `select_columns` must be of "
                                     f"one of the columns: dict_keys({column_names}).")
                indices.append(column_names.index(c))
            else:
                if not 0 <= int(c) < len(column_names):
                    raise ValueError(f"Column index {c} specified in `select_columns` should "
                                     f"be > 0  and <= {len(column_names)}, which is the "
                                     f"number of columns.")
                indices.append(int(c))
        if len(set(indices)) != len(indices):
            raise ValueError(f"`select_columns` contains duplicate columns: {select_columns}.")
        selected = sorted(indices)
    else:
        selected = list(range(len(column_names)))
    names_out = [column_names[i] for i in selected]
    if label_name is not None and label_name not in names_out:
        raise ValueError(f"`label_name` provided must be one of the columns: {names_out}. "
                         f"Received: {label_name}.")
    if column_defaults is None:
        types = [None] * len(selected)
        for row in _csv_rows(names, compression, delim, use_quote_delim, header,
                             num_rows_for_inference, expect=len(column_names)):
            for j, c in enumerate(selected):
                types[j] = _csv_type(row[c], na_value, types[j])
        column_defaults = [convert_to_tensor("" if t in (None, _d.string) else 0,
                                             dtype=t or _d.string) for t in types]
    else:
        column_defaults = list(column_defaults)
        if len(column_defaults) == len(column_names) and len(selected) != len(column_names):
            column_defaults = [column_defaults[c] for c in selected]
        if len(column_defaults) != len(selected):
            raise ValueError(f"The lengths of `column_defaults` and `select_columns` should "
                             f"match: {len(column_defaults)} and {len(selected)}.")

    def read(filename):
        return CsvDataset(filename, column_defaults, compression_type=compression,
                          header=header, field_delim=field_delim,
                          use_quote_delim=use_quote_delim, na_value=na_value,
                          select_cols=selected if len(selected) != len(column_names) else None)

    files = Dataset.from_tensor_slices(names)
    if shuffle:
        files = files.shuffle(len(names), shuffle_seed)
    ds = files.interleave(read, cycle_length=num_parallel_reads or 1)
    if ignore_errors:
        ds = ds.ignore_errors()
    if shuffle:
        ds = ds.shuffle(shuffle_buffer_size, shuffle_seed)
    if num_epochs != 1:
        ds = ds.repeat(num_epochs)
    ds = ds.batch(batch_size, drop_remainder=num_epochs is None)

    def to_features(*columns):
        features = collections.OrderedDict(zip(names_out, columns))
        if label_name is None:
            return features
        label = features.pop(label_name)
        return features, label

    return ds.map(to_features).prefetch(
        AUTOTUNE if prefetch_buffer_size is None else prefetch_buffer_size)


@export("data.experimental.make_batched_features_dataset")
def make_batched_features_dataset(file_pattern, batch_size, features, reader=None,
                                  label_key=None, reader_args=None, num_epochs=None,
                                  shuffle=True, shuffle_buffer_size=10000, shuffle_seed=None,
                                  prefetch_buffer_size=None, reader_num_threads=None,
                                  parser_num_threads=None, sloppy_ordering=False,
                                  drop_final_batch=False):
    """Batches of `Example` records (TFRecord files by default) parsed with `features`, as a
    dict of feature tensors (and the `label_key` feature apart); the records are shuffled
    and repeated `num_epochs` times (None: forever, then batches are whole).

    >>> import os, tempfile
    >>> path = os.path.join(tempfile.mkdtemp(), "data.tfrecord")
    >>> with tf.io.TFRecordWriter(path) as writer:
    ...     for i in range(3):
    ...         writer.write(tf.train.Example(features=tf.train.Features(feature={"x": (
    ...             tf.train.Feature(int64_list=tf.train.Int64List(value=[i])))})
    ...         ).SerializeToString())
    >>> ds = tf.data.experimental.make_batched_features_dataset(
    ...     path, 2, {"x": tf.io.FixedLenFeature([], tf.int64)}, shuffle=False, num_epochs=1)
    >>> [batch["x"].numpy().tolist() for batch in ds]
    [[0, 1], [2]]
    """
    from eagerflow._src.data.experimental import parse_example_dataset  # noqa: PLC0415
    if reader is None:
        reader = TFRecordDataset
    reader_args = list(reader_args or [])
    files = Dataset.list_files(file_pattern, shuffle=shuffle, seed=shuffle_seed)
    ds = files.interleave(lambda filename: reader(filename, *reader_args),
                          cycle_length=reader_num_threads or 1)
    if ds.element_spec == (TensorSpec([], _d.string), TensorSpec([], _d.string)):
        ds = ds.map(lambda _, value: value)  # (key, value) records: the values
    if shuffle:
        ds = ds.shuffle(shuffle_buffer_size, shuffle_seed)
    if num_epochs != 1:
        ds = ds.repeat(num_epochs)
    # repeated forever, every batch is whole: the static batch size helps shape inference
    ds = ds.batch(batch_size, drop_remainder=drop_final_batch or num_epochs is None)
    ds = ds.apply(parse_example_dataset(features, num_parallel_calls=parser_num_threads or 2))
    if label_key:
        if label_key not in features:
            raise ValueError(f"The `label_key` provided ({label_key}) must be one of the "
                             f"`features` keys: {features.keys()}.")

        def split_label(parsed):
            parsed = dict(parsed)
            label = parsed.pop(label_key)
            return parsed, label
        ds = ds.map(split_label)
    return ds.prefetch(AUTOTUNE if prefetch_buffer_size is None else prefetch_buffer_size)


@export("data.experimental.TFRecordWriter")
class TFRecordWriter:
    """Writes the scalar strings of a dataset as the records of one TFRecord file.

    >>> import os, tempfile
    >>> path = os.path.join(tempfile.mkdtemp(), "out.tfrecord")
    >>> tf.data.experimental.TFRecordWriter(path).write(
    ...     tf.data.Dataset.from_tensor_slices(["a", "b"]))
    >>> [r.numpy() for r in tf.data.TFRecordDataset(path)]
    [b'a', b'b']
    """

    def __init__(self, filename, compression_type=None):
        self._filename = filename
        self._compression_type = _known_compression(compression_type)

    def write(self, dataset):
        """Writes every element of `dataset` (scalar strings) to the file."""
        spec = dataset.element_spec
        if not (isinstance(spec, TensorSpec) and spec.dtype == _d.string
                and spec.shape.rank == 0):
            shapes = getattr(spec, "shape", spec)
            dtypes = (f"<dtype: '{spec.dtype.name}'>" if isinstance(spec, TensorSpec)
                      else repr(spec))
            raise TypeError(f"Invalid `dataset`. Expected a`dataset` that produces scalar "
                            f"`tf.string` elements, but got a dataset which produces elements "
                            f"with shapes {shapes} and types {dtypes}.")
        with tf_record.TFRecordWriter(self._filename, self._compression_type) as writer:
            for record in dataset:
                writer.write(record.numpy())
