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
from eagerflow._src.core.convert import convert_to_tensor
from eagerflow._src.core.errors import op_error
from eagerflow._src.core.tensor import EagerTensor, Tensor
from eagerflow._src.core.tensor_spec import TensorSpec
from eagerflow._src.data.dataset_ops import AUTOTUNE, UNKNOWN, Dataset, _int
from eagerflow._src.io import tf_record

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
        return None
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
                raise op_error(errors.InvalidArgumentError, "ParallelInterleaveDatasetV4",
                               "num_parallel_calls must be greater than zero.")
            if n == AUTOTUNE:
                n = os.cpu_count() or 1
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
        """TF's order for ``num_parallel_reads``: `cycle` files open at a time, one record
        from each in turn, a finished file replaced by the next name."""
        from eagerflow._src.data.parallel import prefetched  # noqa: PLC0415
        names = self._names()
        slots, opened = [], []
        try:
            for name in names:
                slots.append(prefetched(self._read(name), 64))
                opened.append(slots[-1])
                if len(slots) == cycle:
                    break
            index = 0
            while slots:
                current = slots[index]
                record = next(current, None)
                if record is not None:
                    yield (np.array(record, object),)
                    index = (index + 1) % len(slots) if slots else 0
                    continue
                name = next(names, None)
                if name is None:
                    del slots[index]
                    index = index % len(slots) if slots else 0
                else:
                    slots[index] = prefetched(self._read(name), 64)
                    opened.append(slots[index])
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
        self._compression = _scalar(compression_type, "") or ""
        self._buffer_size = _scalar(buffer_size)

    def _read(self, name):
        return tf_record.read_records(name, self._compression, self._buffer_size)


def _open_stream(name, compression_type, buffer_size):
    """File `name` opened for reading bytes, decompressed for "ZLIB" or "GZIP"."""
    kind = tf_record.TFRecordOptions.get_compression_type_string(compression_type or "")
    raw = tf_record._open(name, "rb")
    if not kind:
        return raw
    return io.BufferedReader(tf_record._Inflating(raw, kind == "GZIP", name, buffer_size),
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
        compressed = not isinstance(stream, io.FileIO) and not hasattr(stream, "fileno") \
            or bool(tf_record.TFRecordOptions.get_compression_type_string(
                self._compression or ""))
        try:
            if not compressed:
                body = os.fstat(stream.fileno()).st_size - header - footer
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
