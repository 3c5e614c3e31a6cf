"""TFRecord files: a sequence of byte strings, each framed with its length and checksums.

A record is ``uint64 length`` (little endian), ``uint32`` masked CRC-32C of those 8
bytes, the data, and ``uint32`` masked CRC-32C of the data. With GZIP or ZLIB options
the whole stream is compressed. Files are TensorFlow's: either side reads the other's.

>>> import os, tempfile
>>> path = os.path.join(tempfile.mkdtemp(), "demo.tfrecord")
>>> with tf.io.TFRecordWriter(path, "GZIP") as writer:
...     writer.write(b"first")
...     writer.write(b"second")
>>> list(tf.compat.v1.io.tf_record_iterator(path, "GZIP"))
[b'first', b'second']
"""
import collections
import functools
import io
import os
import struct
import zlib

import numpy as np

from eagerflow._src.backend.api_export import export
from eagerflow._src.core import errors
from eagerflow._src.io.crc32c import crc32c_many, mask, masked_crc32c
from eagerflow._src.ops.io_ops import inflate_error
from eagerflow._src.ops import file_system

_HEADER = 12  # length (8) and its checksum (4)
_FOOTER = 4
_BATCH = 1 << 20  # bytes of records read and checked at a time
_LENGTH = struct.Struct("<Q")
_CRC = struct.Struct("<I")


@export("compat.v1.io.TFRecordCompressionType", "compat.v1.python_io.TFRecordCompressionType")
class TFRecordCompressionType:
    """The compression of a TFRecord file (``tf.compat.v1.io.TFRecordCompressionType``)."""

    NONE = 0
    ZLIB = 1
    GZIP = 2


@export("io.TFRecordOptions", "compat.v1.io.TFRecordOptions",
        "compat.v1.python_io.TFRecordOptions")
class TFRecordOptions:
    """How a TFRecord file is compressed: ``compression_type`` "GZIP", "ZLIB" or "" (none).

    `compression_level` is zlib's (0-9; None: its default); `window_bits`, `mem_level`,
    `compression_method` and `compression_strategy` are zlib's too, used by the writer.
    `flush_mode` and the buffer sizes are accepted and kept (Python's zlib picks its
    buffers).

    >>> tf.io.TFRecordOptions("ZLIB", compression_level=9).compression_type
    'ZLIB'
    """

    compression_type_map = {TFRecordCompressionType.ZLIB: "ZLIB",
                            TFRecordCompressionType.GZIP: "GZIP",
                            TFRecordCompressionType.NONE: ""}

    def __init__(self, compression_type=None, flush_mode=None, input_buffer_size=None,
                 output_buffer_size=None, window_bits=None, compression_level=None,
                 compression_method=None, mem_level=None, compression_strategy=None):
        if compression_type not in (None, "", "ZLIB", "GZIP") and \
                compression_type not in self.compression_type_map:
            raise ValueError(f'Not a valid compression_type: "{compression_type}"')
        self.compression_type = compression_type
        self.flush_mode = flush_mode
        self.input_buffer_size = input_buffer_size
        self.output_buffer_size = output_buffer_size
        self.window_bits = window_bits
        self.compression_level = compression_level
        self.compression_method = compression_method
        self.mem_level = mem_level
        self.compression_strategy = compression_strategy

    @classmethod
    def get_compression_type_string(cls, options):
        """The compression of `options` (TFRecordOptions, a string, an enum or None) as
        a string: "GZIP", "ZLIB" or ""."""
        if not options:
            return ""
        if isinstance(options, TFRecordOptions):
            return cls.get_compression_type_string(options.compression_type)
        if options in cls.compression_type_map:
            return cls.compression_type_map[options]
        return cls(compression_type=options).compression_type or ""


def _default(value, default):
    return default if value is None else value


def _options(options):
    if isinstance(options, TFRecordOptions):
        return options
    return TFRecordOptions(options)


def _text(value):
    """A path or compression type given as str, bytes, a path object or a string tensor."""
    if hasattr(value, "numpy"):
        value = value.numpy()
    if isinstance(value, bytes):
        return value.decode("utf-8", "surrogateescape")
    if value is None or isinstance(value, str) or not hasattr(value, "__fspath__"):
        return value  # (a number, an enum, TFRecordOptions)
    return os.fspath(value)


def _open(path, mode):
    try:
        return file_system.open_file(path, mode)
    except FileNotFoundError:
        raise errors.NotFoundError(None, None, f"{path}; No such file or directory") from None
    except IsADirectoryError:
        raise errors.FailedPreconditionError(None, None, f"{path}; Is a directory") from None
    except PermissionError:
        raise errors.PermissionDeniedError(None, None, f"{path}; Permission denied") from None


@functools.lru_cache(maxsize=4096)
def _length_crc(length_bytes):
    """The masked CRC of a record's 8 length bytes (files repeat a few lengths)."""
    return masked_crc32c(length_bytes)


def frame(records):
    """`records` (bytes) framed as TFRecords, each with its header and footer."""
    parts = []
    for record, crc in zip(records, crc32c_many(records)):
        length = _LENGTH.pack(len(record))
        parts += (length, _CRC.pack(_length_crc(length)), record, _CRC.pack(mask(crc)))
    return b"".join(parts)


@export("io.TFRecordWriter", "compat.v1.io.TFRecordWriter",
        "compat.v1.python_io.TFRecordWriter")
class TFRecordWriter:
    """Writes records to a TFRecord file at `path` (``tf.io.TFRecordWriter``).

    `options`: a `TFRecordOptions` or a compression type string ("GZIP", "ZLIB", "").
    A context manager; records are bytes (strings are written as UTF-8).
    """

    _file = None  # (until the file opens)

    def __init__(self, path, options=None):
        options = _options(options)
        kind = TFRecordOptions.get_compression_type_string(options)
        level = options.compression_level
        level = -1 if level is None else level
        if kind:
            if not -1 <= level <= 9:
                raise ValueError(f"compression_level must be between -1 and 9, not {level}")
            # TF's zlib settings (memory level 9, not zlib's 8), so the files are TF's
            # bytes; a window_bits given replaces the gzip one too, as in TF
            wbits = options.window_bits
            if wbits is None:
                wbits = 16 + zlib.MAX_WBITS if kind == "GZIP" else zlib.MAX_WBITS
            self._compress = zlib.compressobj(
                level, _default(options.compression_method, zlib.DEFLATED), wbits,
                _default(options.mem_level, 9),
                _default(options.compression_strategy, zlib.Z_DEFAULT_STRATEGY))
        else:
            self._compress = None
        self._pending, self._pending_size = [], 0  # records not yet framed (in batches)
        self._file = _open(_text(path), "wb")

    def _check_open(self):
        if self._file is None:
            raise errors.FailedPreconditionError(None, None, "Writer is closed.")

    def write(self, record):
        """Appends `record` (bytes, or a string written as UTF-8)."""
        self._check_open()
        if isinstance(record, str):
            record = record.encode("utf-8")
        elif not isinstance(record, (bytes, bytearray, memoryview)):
            raise TypeError(f"write(): incompatible function arguments: record must be bytes "
                            f"or str, not {type(record).__name__}")
        record = bytes(record)
        self._pending.append(record)
        self._pending_size += len(record) + _HEADER + _FOOTER
        if self._pending_size >= _BATCH:
            self._drain()

    def _drain(self):
        """Frames the pending records (their checksums computed together) and writes them."""
        if not self._pending:
            return
        data = frame(self._pending)
        self._pending, self._pending_size = [], 0
        if self._compress is not None:
            data = self._compress.compress(data)
        self._file.write(data)

    def flush(self):
        """Pushes what was written to the file (a compressed stream up to a full byte)."""
        self._check_open()
        self._drain()
        if self._compress is not None:  # (TF's flush: a partial one)
            self._file.write(self._compress.flush(zlib.Z_PARTIAL_FLUSH))
        self._file.flush()

    def close(self):
        """Ends the stream and closes the file; closing again does nothing."""
        if self._file is None:
            return
        self._drain()
        if self._compress is not None:
            self._file.write(self._compress.flush(zlib.Z_FINISH))
        self._file.close()
        self._file = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def __del__(self):
        if self._file is not None:
            self.close()


class _Inflating(io.RawIOBase):
    """A zlib or gzip stream read back decompressed (gzip members one after another)."""

    def __init__(self, raw, gzip_format, buffer_size):
        self._raw, self._gzip = raw, gzip_format
        self._chunk = buffer_size
        self._inflate = self._new()
        self._pending = b""

    def _new(self):
        return zlib.decompressobj(16 + zlib.MAX_WBITS if self._gzip else zlib.MAX_WBITS)

    def readable(self):
        return True

    def readinto(self, buffer):
        while not self._pending:
            if self._inflate.eof:  # a gzip file may hold several members, one after another
                data = self._inflate.unused_data or self._raw.read(self._chunk)
                if not data or not self._gzip:
                    return 0
                self._inflate = self._new()
            else:
                data = self._inflate.unconsumed_tail or self._raw.read(self._chunk)
                if not data:
                    return 0  # a stream cut short: what it held was read
            try:
                self._pending = self._inflate.decompress(data, max(len(buffer), 1 << 16))
            except zlib.error as e:
                raise inflate_error(e) from None
        n = min(len(buffer), len(self._pending))
        buffer[:n] = self._pending[:n]
        self._pending = self._pending[n:]
        return n

    _failure = None  # (an error met after bytes a read returned: the next read raises it)

    def read(self, size=-1):
        """Up to `size` bytes (all that is left for -1), fewer only where the stream ends.
        A damaged part raises `errors.DataLossError` once the bytes before it are read."""
        if self._failure is not None:
            failure, self._failure = self._failure, None
            raise failure
        chunks, got = [], 0
        while size < 0 or got < size:
            buffer = bytearray(1 << 16 if size < 0 else size - got)
            try:
                n = self.readinto(buffer)
            except errors.DataLossError as e:
                if not chunks:
                    raise
                self._failure = e
                break
            if not n:
                break
            chunks.append(bytes(buffer[:n]))
            got += n
        return b"".join(chunks)

    def close(self):
        self._raw.close()
        super().close()


class RecordReader:
    """An iterator over the records of a TFRecord file, each checked against its checksums.

    `offset` is where reading starts and, as records are read, the offset of the next
    one (in the uncompressed stream): a reader made again with it resumes there.
    """

    _file = None  # (until the file opens)

    def __init__(self, filename, compression_type="", buffer_size=None, offset=0):
        self.path = _text(filename)
        kind = TFRecordOptions.get_compression_type_string(_text(compression_type))
        buffer_size = int(_text(buffer_size) or 256 * 1024)
        raw = _open(self.path, "rb")
        self._size = None
        # TF's words for a record the data ends inside: a stream's or a file's
        self._short_read = "EOF reached" if kind else "Read less bytes than requested"
        if kind:
            # (read whole: the records before a damaged part are read, as in TF)
            self._file = _Inflating(raw, kind == "GZIP", buffer_size)
            _skip(self._file, offset)
        else:
            self._file = raw
            self._size = raw.seek(0, io.SEEK_END)  # (files of any file system)
            raw.seek(offset)
        self.offset = self._pos = offset
        self._ready = collections.deque()

    def __iter__(self):
        return self

    def _error(self, message):
        return errors.DataLossError(None, None, message)  # (TF names no file)

    def __next__(self):
        if not self._ready and self._file is not None:
            self._fill()
        if not self._ready:
            self.close()
            raise StopIteration
        item = self._ready.popleft()
        if isinstance(item, Exception):
            self._ready.clear()
            self.close()
            raise item
        record, self.offset = item
        return record

    _rest = (b"", 0)  # bytes read past the records handed out, and where they start

    def _fill(self):
        """Reads records up to about `_BATCH` bytes and checks them together (one vectorized
        CRC-32C for all); an error is queued after the good records before it. The file is
        read a block at a time and the records cut out of it."""
        pending, failure, budget = [], None, _BATCH
        buf, pos = self._rest
        damaged = None  # (a compressed stream's damage, met after the bytes before it)

        def read(n):
            nonlocal damaged
            try:
                return self._file.read(n)
            except errors.DataLossError as e:
                damaged = e
                return b""

        while budget > 0:
            if len(buf) - pos < _HEADER:
                more = read(_BATCH)
                buf, pos = buf[pos:] + more, 0
                if len(buf) < _HEADER:  # (TF, too, ends quietly on a partial header)
                    failure = damaged
                    if damaged is None:
                        self.close()
                    break
            start = self._pos
            (length,) = _LENGTH.unpack_from(buf, pos)
            if _CRC.unpack_from(buf, pos + 8)[0] != _length_crc(buf[pos:pos + 8]):
                hint = " (Is this even a TFRecord file?)" if start == 0 else ""
                failure = self._error(f"corrupted record at {start}{hint}")
                break
            end = pos + _HEADER + length + _FOOTER
            if end > len(buf):
                if self._size is not None and start + end - pos > self._size:
                    more = b""  # don't read (or allocate) past the end of the file
                else:
                    more = read(end - len(buf))
                buf, pos, end = buf[pos:] + more, 0, end - pos
                if end > len(buf):
                    failure = damaged or self._error(f"truncated record at {start}' failed "
                                                     f"with {self._short_read}")
                    break
            self._pos = start + end - pos
            pending.append((buf, pos + _HEADER, length, self._pos))
            budget -= end - pos
            pos = end
        self._rest = (buf, pos) if failure is None else (b"", 0)
        crcs = np.array(crc32c_many([memoryview(b)[at:at + n] for b, at, n, _ in pending]),
                        np.uint32)
        masked = (((crcs >> np.uint32(15)) | (crcs << np.uint32(17)))
                  + np.uint32(0xA282EAD8)).tolist()  # (`mask`, wrapping in 32 bits)
        for (b, at, n, next_pos), crc in zip(pending, masked):
            if _CRC.unpack_from(b, at + n)[0] != crc:
                failure = self._error(f"corrupted record at {next_pos - n - _FOOTER}")
                break
            self._ready.append((b[at:at + n], next_pos))
        if failure is not None:
            self._ready.append(failure)
            self.close()

    def close(self):
        if self._file is not None:
            self._file.close()
            self._file = None

    def __del__(self):
        self.close()


def _skip(stream, n):
    while n > 0:
        got = len(stream.read(min(n, 1 << 20)))
        if not got:
            return
        n -= got


def read_records(filename, compression_type="", buffer_size=None, offset=0):
    """Yields the records of TFRecord file `filename` as `bytes`, in order.

    The reader of ``TFRecordDataset``. `compression_type`: "", "ZLIB" or "GZIP" (or
    a `TFRecordOptions`); `buffer_size`: bytes read from the file at a time (None: 256
    KiB); `offset`: where to start, in the uncompressed stream (the `RecordReader.offset`
    of an earlier reader). A record whose length or data fails its checksum, or that
    the file ends inside, raises `errors.DataLossError` naming the file and the offset
    (`errors.NotFoundError` for a missing file). The file is closed at the end, on an
    error, and when the generator is closed or dropped.
    """
    reader = RecordReader(filename, compression_type, buffer_size, offset)
    try:
        yield from reader
    finally:
        reader.close()


@export("compat.v1.io.tf_record_iterator", "compat.v1.python_io.tf_record_iterator")
def tf_record_iterator(path, options=None):
    """An iterator over the records of the TFRecord file at `path` (TF 1's reader)."""
    return read_records(path, TFRecordOptions.get_compression_type_string(options))
