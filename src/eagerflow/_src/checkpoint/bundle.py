"""TF's tensor bundle: the files of a checkpoint, read and written.

A checkpoint ``prefix`` is ``prefix.index``, a table of the tensors (the
LevelDB SSTable layout TF uses: prefix-compressed blocks of sorted keys with
restart points, a block trailer with a masked CRC-32C, an index block and a
48-byte footer ending in the table's magic number) whose values are
`BundleEntryProto`s (dtype, shape, shard, offset, size and CRC-32C of the
tensor's bytes, masked as TFRecord's are), with the `BundleHeaderProto` under the empty key; and
``prefix.data-00000-of-00001``, the tensors' bytes one after another. A
number's bytes are its little-endian elements in row-major order; a string
tensor is the varint lengths of its elements, a masked CRC-32C of those
lengths, then the elements' bytes. Files are written under temporary names
and renamed, the index last, so that a failed write leaves the previous
checkpoint of that prefix whole.

>>> import os, tempfile
>>> prefix = os.path.join(tempfile.mkdtemp(), "ckpt")
>>> write_bundle(prefix, {"w": np.array([1.0, 2.0], np.float32), "s": np.array(b"hi", object)})
>>> reader = BundleReader(prefix)
>>> reader.keys()
['s', 'w']
>>> reader.get_tensor("w")
array([1., 2.], dtype=float32)
"""
import contextlib
import functools
import os
import re
import struct
import sys
import tempfile
import threading
import uuid

import numpy as np

from eagerflow._src.backend.wire import read_varint as _read_varint, varint as _varint
from eagerflow._src.core import dtypes as _d
from eagerflow._src.core import errors
from eagerflow._src.core.protos import checkpoint as pb
from eagerflow._src.core.protos import framework as fpb
from eagerflow._src.io import crc32c as _crc32c
from eagerflow._src.io.crc32c import crc32c, mask
from eagerflow._src.ops import file_system

_MAGIC = 0xdb4775248b80fb57
_FOOTER = 48
_RESTART_INTERVAL = 16
_UNMASK_DELTA = 0xA282EAD8
# Checkpoints of at least this many bytes are written on a second thread, in batches of at
# least _CHUNK_BYTES, while this one computes the checksums: file writes and NumPy's
# lookups both leave the interpreter lock, so the two overlap.
_OVERLAP_BYTES = 4 << 20
_CHUNK_BYTES = 1 << 20
_SYNC_FILE_RANGE_WRITE = 2


def data_path(prefix, shard=0, num_shards=1):
    return f"{prefix}.data-{shard:05d}-of-{num_shards:05d}"


def index_path(prefix):
    return f"{prefix}.index"


def _unmask(masked):
    rot = (masked - _UNMASK_DELTA) & 0xFFFFFFFF
    return ((rot >> 17) | (rot << 15)) & 0xFFFFFFFF


# -- the table (.index) -------------------------------------------------------------

def _block(entries):
    """A table block of sorted ``(key, value)`` pairs: prefix-compressed, a restart point
    every 16 entries."""
    out, restarts, last = bytearray(), [], b""
    for i, (key, value) in enumerate(entries):
        shared = 0
        if i % _RESTART_INTERVAL == 0:
            restarts.append(len(out))
        else:
            limit = min(len(key), len(last))
            while shared < limit and key[shared] == last[shared]:
                shared += 1
        out += _varint(shared) + _varint(len(key) - shared) + _varint(len(value))
        out += key[shared:] + value
        last = key
    if not restarts:
        restarts.append(0)
    out += struct.pack(f"<{len(restarts)}I", *restarts) + struct.pack("<I", len(restarts))
    return bytes(out)


def _short_successor(key):
    """The shortest key after every key starting with `key` (LevelDB's FindShortSuccessor)."""
    for i, byte in enumerate(key):
        if byte != 0xFF:
            return key[:i] + bytes([byte + 1])
    return key


def _table(entries):
    """The bytes of a table holding sorted `entries` (one data block, as TF writes it)."""
    out = bytearray()

    def put(block):
        handle = _varint(len(out)) + _varint(len(block))
        trailer = block + b"\x00"  # no compression
        out.extend(trailer + struct.pack("<I", mask(crc32c(trailer))))
        return handle

    index_entries = []
    if entries:
        handle = put(_block(entries))
        index_entries.append((_short_successor(entries[-1][0]), handle))
    meta = put(_block([]))
    index = put(_block(index_entries))
    footer = meta + index
    footer += b"\x00" * (_FOOTER - 8 - len(footer)) + struct.pack("<Q", _MAGIC)
    return bytes(out + footer)


def _parse_block(block, what):
    """``[(key, value)]`` of a table block's bytes (trailer removed)."""
    if len(block) < 4:
        raise errors.DataLossError(None, None, f"bad block contents in {what}")
    count = struct.unpack_from("<I", block, len(block) - 4)[0]
    end = len(block) - 4 - 4 * count
    if end < 0:
        raise errors.DataLossError(None, None, f"bad block contents in {what}")
    entries, pos, last = [], 0, b""
    try:
        while pos < end:
            shared, pos = _read_varint(block, pos)
            unshared, pos = _read_varint(block, pos)
            size, pos = _read_varint(block, pos)
            if shared > len(last) or pos + unshared + size > end:
                raise IndexError
            key = last[:shared] + bytes(block[pos:pos + unshared])
            pos += unshared
            entries.append((key, bytes(block[pos:pos + size])))
            pos += size
            last = key
    except IndexError:
        raise errors.DataLossError(None, None, f"bad entry in block of {what}") from None
    return entries


def _read_table(data, path):
    """``{key: value}`` of the table bytes `data` read from `path`."""
    corrupt = (f"Unable to read file ({path}). Perhaps the file is corrupt or was produced "
               f"by a newer version of TensorFlow with format changes")
    if len(data) < _FOOTER or struct.unpack_from("<Q", data, len(data) - 8)[0] != _MAGIC:
        raise errors.DataLossError(None, None, f"{corrupt} (failed to read the table footer "
                                               f"of {path}): not an sstable (bad magic number)")

    def block_at(handle):
        try:
            offset, pos = _read_varint(handle, 0)
            size, _ = _read_varint(handle, pos)
        except IndexError:
            raise errors.DataLossError(None, None, f"{corrupt}: bad block handle") from None
        if offset + size + 5 > len(data):
            raise errors.DataLossError(None, None, f"{corrupt}: truncated block read")
        block = data[offset:offset + size + 1]
        stored = struct.unpack_from("<I", data, offset + size + 1)[0]
        if _unmask(stored) != crc32c(block):
            raise errors.DataLossError(None, None, f"{corrupt}: block checksum mismatch")
        if block[-1] != 0:
            raise errors.UnimplementedError(
                None, None, f"{corrupt}: block compression {block[-1]} is not supported")
        return memoryview(block)[:-1]

    footer = data[len(data) - _FOOTER:]
    try:
        _, pos = _read_varint(footer, 0)  # the meta index block: unused by bundles
        _, pos = _read_varint(footer, pos)
    except IndexError:
        raise errors.DataLossError(None, None, f"{corrupt}: bad footer") from None
    table = {}
    for _, handle in _parse_block(block_at(footer[pos:]), path):
        table.update(_parse_block(block_at(handle), path))
    return table


# -- slices ---------------------------------------------------------------------------
# A variable saved in slices (a partitioned variable's shards) has one entry under its name
# holding its dtype, full shape and the list of its slices, and each slice an entry of its
# own under a key made from the name and the slice's extents in TF's order-preserving
# encoding ("ordered code"), which starts with a zero byte so that it is no variable's name.

def _num_increasing(n):
    """A non-negative integer: its length in bytes, then its big-endian bytes."""
    body = n.to_bytes((n.bit_length() + 7) // 8, "big") if n else b""
    return bytes([len(body)]) + body


def _signed_num_increasing(n):
    """A signed integer in 1 to 10 big-endian bytes whose leading bits (as many ones as
    there are bytes, then a zero, inverted for negative numbers) give the length, so that
    the bytes sort as the numbers do."""
    x = ~n if n < 0 else n
    length = x.bit_length() // 7 + 1
    body = bytearray((n % (1 << (8 * length))).to_bytes(length, "big"))
    if length <= 8:
        body[0] ^= (0xFF << (8 - length)) & 0xFF
    else:
        body[0] ^= 0xFF
        body[1] ^= 0x80 if length == 9 else 0xC0
    return bytes(body)


def _ordered_string(s):
    """`s` with its zero and 0xff bytes escaped, then a terminator."""
    return re.sub(rb"[\x00\xff]", lambda m: m.group() + (b"\xff" if m.group() == b"\x00"
                                                         else b"\x00"), s) + b"\x00\x01"


def slice_key(name, extents):
    """The key of the slice `extents` (``[(start, length)]``, length -1: the whole axis)
    of the tensor `name`."""
    out = [_num_increasing(0), _ordered_string(name.encode("utf-8")),
           _num_increasing(len(extents))]
    for start, length in extents:
        out += [_signed_num_increasing(start), _signed_num_increasing(length)]
    return b"".join(out)


def _extents(proto, shape):
    """``[(start, length)]`` of a ``TensorSliceProto`` (length -1 where it takes the whole
    axis) and the same with those lengths filled in from `shape`."""
    stored = [(e.start, e.length if e.HasField("length") else -1) for e in proto.extent]
    stored += [(0, -1)] * (len(shape) - len(stored))
    return stored, [(s, n if n >= 0 else d - s) for (s, n), d in zip(stored, shape)]


class Sliced:
    """A tensor of `full_shape` saved as slices: `parts` ``[(offset, array)]``."""

    def __init__(self, full_shape, parts):
        self.full_shape, self.parts = [int(d) for d in full_shape], list(parts)


# -- tensors --------------------------------------------------------------------------

def _string_payload(values):
    """``(bytes, crc32c)`` of a string tensor's elements (bytes), as a bundle stores them."""
    lengths = b"".join(_varint(len(v)) for v in values)
    crc = 0
    for v in values:  # the checksum covers each length as 4 (or 8) little-endian bytes
        crc = crc32c(struct.pack("<I" if len(v) <= 0xFFFFFFFF else "<Q", len(v)), crc)
    length_crc = struct.pack("<I", mask(crc))
    crc = crc32c(length_crc, crc)
    body = b"".join(values)
    crc = crc32c(body, crc)
    return lengths + length_crc + body, crc


def _as_bytes(value):
    if isinstance(value, bytes):
        return value
    if isinstance(value, str):
        return value.encode("utf-8")
    return bytes(value)


def _tensor_parts(value, dtype=None):
    """``(DType, shape, buffer)`` of a NumPy array (objects or ``S``/``U`` for strings)."""
    array = np.asarray(value)
    if dtype is None:
        dtype = _d.from_numpy(array.dtype)
    if dtype == _d.string:
        flat = [_as_bytes(v) for v in array.reshape(-1).tolist()]
        return dtype, array.shape, flat
    if not array.flags.c_contiguous:
        array = array.copy()  # (np.ascontiguousarray would make a scalar 1-D)
    if array.dtype.byteorder == ">":
        array = array.astype(array.dtype.newbyteorder("<"))
    return dtype, array.shape, array.reshape(-1).view(np.uint8)


def _pool():
    """A pool of one thread, or None where no thread can start (at interpreter exit)."""
    try:
        from concurrent.futures import ThreadPoolExecutor  # noqa: PLC0415 (fails at exit)
    except RuntimeError:
        return None
    return ThreadPoolExecutor(1)


@functools.lru_cache(maxsize=1)
def _sync_file_range():
    """Linux's ``sync_file_range`` (through the C library), or None where there is none."""
    if not sys.platform.startswith("linux"):
        return None
    try:
        import ctypes  # noqa: PLC0415 (only where a large checkpoint is overwritten)
        function = ctypes.CDLL(None, use_errno=True).sync_file_range
    except (OSError, AttributeError):  # (no such function in this C library)
        return None
    function.argtypes = (ctypes.c_int, ctypes.c_int64, ctypes.c_int64, ctypes.c_uint)
    function.restype = ctypes.c_int
    return function


def _start_writeback(f, start):
    """Starts writing `f`'s bytes from offset `start` to the disk, without waiting for them;
    returns the offset reached."""
    f.flush()
    end = f.tell()
    sync = _sync_file_range()
    if sync is not None and end > start:
        sync(f.fileno(), start, end - start, _SYNC_FILE_RANGE_WRITE)  # (a failure is harmless)
    return end


class _Writer:
    """Writes buffers to `f` in order: inline, or batched on a thread of `pool`. With
    `writeback`, each batch's pages are sent on to the disk as soon as they are written."""

    def __init__(self, f, pool, writeback=False):
        self._f, self._pool = f, pool
        self._batch, self._batched, self._pending = [], 0, []
        self._writeback, self._written = writeback, 0

    def write(self, buf):
        if self._pool is None:
            self._f.write(buf)
            return
        self._batch.append(buf)
        self._batched += len(buf)
        if self._batched >= _CHUNK_BYTES:
            self._submit()

    def _submit(self):
        if self._batch:
            try:
                self._pending.append(self._pool.submit(self._write, self._batch))
            except RuntimeError:  # no new threads (at interpreter exit): write here, in order
                for future in self._pending:
                    future.result()
                self._pending, self._pool = [], None
                self._f.writelines(self._batch)
            self._batch, self._batched = [], 0

    def _write(self, batch):
        self._f.writelines(batch)
        if self._writeback:
            self._written = _start_writeback(self._f, self._written)

    def finish(self):
        """Waits for the writes, raising the first one's error."""
        self._submit()
        for future in self._pending:
            future.result()


def _replace(src, dst):
    """`os.replace`, the replaced file's blocks freed on a thread: the last close of a large
    unlinked file frees its pages (tens of milliseconds per 100 MB), which need not delay the
    caller. (On POSIX only: elsewhere an open file cannot be replaced.)"""
    old = None
    if os.name == "posix":
        try:
            old = os.open(dst, os.O_RDONLY)
        except OSError:  # (no previous file)
            pass
    try:
        os.replace(src, dst)
    finally:
        if old is not None:
            try:
                threading.Thread(target=os.close, args=(old,), daemon=True).start()
            except RuntimeError:  # no new threads (at interpreter exit)
                os.close(old)


def write_bundle(prefix, tensors, dtypes=None):
    """Writes `tensors` (``{key: NumPy array}``; strings as object or bytes arrays) as the
    checkpoint `prefix`. `dtypes` (``{key: DType}``) names the dtypes NumPy cannot tell.

    A `Sliced` value is saved as TF saves a partitioned variable: an entry under `key`
    listing the slices, each slice a tensor of its own under its `slice_key`.

    The files are written under temporary names, then renamed (the index last). A
    checkpoint on another file system than the local one (``ram://``) is written to a local
    folder first, then copied there (the index last).
    """
    fs, local = file_system.resolve(prefix)
    if fs is not file_system.LOCAL:
        with tempfile.TemporaryDirectory() as folder:
            written = os.path.join(folder, "checkpoint")
            write_bundle(written, tensors, dtypes)
            for path in (data_path, index_path):
                with open(path(written), "rb") as f:
                    file_system.write_atomically(path(prefix), f.read())
        return
    prefix = local
    dtypes = dtypes or {}
    tensors, sliced = _expand_slices(tensors, dtypes)
    directory = os.path.dirname(prefix)
    if directory:
        os.makedirs(directory, exist_ok=True)
    tmp = f"_temp_{uuid.uuid4().hex}"
    data_file = data_path(prefix)
    index_file = index_path(prefix)
    tmp_data, tmp_index = f"{data_file}{tmp}", f"{index_file}{tmp}"
    parts = [(key, *_tensor_parts(value, dtypes.get(key))) for key, value in tensors.items()]
    total = sum(len(payload) for _, dtype, _, payload in parts if dtype != _d.string)
    entries = []
    try:
        pool = _pool() if total >= _OVERLAP_BYTES else None
        # Renaming over an existing file makes some file systems (ext4's auto_da_alloc, XFS,
        # btrfs) allocate and start writing the new file's blocks in the rename, tens of
        # milliseconds per 100 MB on the caller; where the checkpoint replaces one, the writer
        # thread starts that writeback batch by batch instead, while the checksums run. (Not
        # for new files: there the page cache holds them until the system writes them back.)
        writeback = pool is not None and os.path.exists(data_file)
        with open(tmp_data, "wb") as f, (pool or contextlib.nullcontext()):
            # (leaving `pool` waits for its writes, also on errors)
            writer = _Writer(f, pool, writeback)
            payloads, crcs = [], {}
            for i, (_, dtype, _, payload) in enumerate(parts):
                if dtype == _d.string:
                    payload, crcs[i] = _string_payload(payload)
                writer.write(payload)  # (written while the checksums are computed)
                payloads.append(payload)
            numbers = [i for i in range(len(parts)) if i not in crcs]
            crcs.update(zip(numbers, _crc32c.crc32c_each([payloads[i] for i in numbers])))
            offset = 0
            for i, (key, dtype, shape, _) in enumerate(parts):
                size = len(payloads[i])
                entry = pb.BundleEntryProto(dtype=dtype.as_datatype_enum, offset=offset,
                                            size=size, crc32c=mask(crcs[i]))
                entry.shape.dim.extend(fpb.TensorShapeProto.Dim(size=d) for d in shape)
                entries.append((_as_bytes(key), entry.SerializeToString()))
                offset += size
            writer.finish()
        entries.extend(sliced)
        header = pb.BundleHeaderProto(num_shards=1)
        header.version.producer = 1
        entries.append((b"", header.SerializeToString()))
        entries.sort()
        with open(tmp_index, "wb") as f:
            f.write(_table(entries))
        if total >= _OVERLAP_BYTES:
            _replace(tmp_data, data_file)
        else:
            os.replace(tmp_data, data_file)
        os.replace(tmp_index, index_file)
    finally:
        for path in (tmp_data, tmp_index):
            if os.path.exists(path):
                os.remove(path)


def _expand_slices(tensors, dtypes):
    """`tensors` with each `Sliced` value replaced by its slices (under their keys; their
    dtypes added to `dtypes`), and the index entries of the sliced tensors themselves."""
    out, entries = {}, []
    for key, value in tensors.items():
        if not isinstance(value, Sliced):
            out[key] = value
            continue
        first = np.asarray(value.parts[0][1])
        dtype = dtypes.get(key) or _d.from_numpy(first.dtype)
        entry = pb.BundleEntryProto(dtype=dtype.as_datatype_enum)
        entry.shape.dim.extend(fpb.TensorShapeProto.Dim(size=d) for d in value.full_shape)
        for offset, part in value.parts:
            extents = list(zip(offset, np.shape(part)))
            entry.slices.add().extent.extend(
                pb.TensorSliceProto.Extent(start=o, length=n) for o, n in extents)
            part_key = slice_key(key, extents)
            out[part_key], dtypes[part_key] = part, dtype
        entries.append((key.encode("utf-8"), entry.SerializeToString()))
    return out, entries


def exists(prefix):
    return file_system.exists(index_path(os.fspath(prefix)))


class BundleReader:
    """The tensors of the checkpoint `prefix`: the index is read at once, tensors on demand.

    A missing checkpoint raises `NotFoundError`, a damaged one `DataLossError`.
    """

    def __init__(self, prefix):
        prefix = os.fspath(prefix)
        self._prefix = prefix
        path = index_path(prefix)
        self._on_disk = file_system.resolve(prefix)[0] is file_system.LOCAL
        if not file_system.isfile(path):
            raise errors.NotFoundError(None, None, f"Unsuccessful TensorSliceReader constructor: "
                                                   f"Failed to find any matching files for "
                                                   f"{prefix}")
        with file_system.open_file(path, "rb") as f:
            table = _read_table(f.read(), path)
        header = pb.BundleHeaderProto()
        try:
            header.ParseFromString(table.pop(b"", b""))
            self._entries, self._slice_entries = {}, {}
            for key, value in table.items():
                entry = pb.BundleEntryProto()
                entry.ParseFromString(value)
                if key.startswith(b"\x00"):  # (a slice of a tensor saved in slices)
                    self._slice_entries[key] = entry
                else:
                    self._entries[key.decode("utf-8")] = entry
        except Exception as e:  # noqa: BLE001 (protobuf's DecodeError and Unicode errors)
            raise errors.DataLossError(None, None, f"Unable to read file ({path}): a corrupt "
                                                   f"entry ({e})") from None
        if header.endianness != 0:
            raise errors.UnimplementedError(None, None, f"Reading a big-endian checkpoint "
                                                        f"({prefix}) is not supported")
        self._num_shards = max(header.num_shards, 1)
        for shard in range(self._num_shards):
            if not file_system.isfile(data_path(prefix, shard, self._num_shards)):
                raise errors.DataLossError(
                    None, None, f"Unable to open table file {data_path(prefix, shard, self._num_shards)}: "
                    f"NOT_FOUND: the data file of checkpoint {prefix} is missing")
        self._files = {}

    prefix = property(lambda self: self._prefix)

    def keys(self):
        return sorted(self._entries)

    def has_tensor(self, key):
        return key in self._entries

    def entry(self, key):
        entry = self._entries.get(key)
        if entry is None:
            raise errors.NotFoundError(None, None, f"Key {key} not found in checkpoint")
        return entry

    def dtype(self, key):
        return _d.as_dtype(self.entry(key).dtype)

    def shape(self, key):
        return [d.size for d in self.entry(key).shape.dim]

    def _file(self, entry):
        path = data_path(self._prefix, entry.shard_id, self._num_shards)
        f = self._files.get(path)
        if f is None:
            # (kept for later reads)
            f = self._files[path] = file_system.open_file(path, "rb")  # noqa: SIM115
        f.seek(entry.offset)
        return path, f

    def _truncated(self, key, path, entry, got):
        return errors.DataLossError(
            None, None, f"Reading tensor {key} from {path} failed: the file is truncated "
                        f"(wanted {entry.size} bytes at offset {entry.offset}, got {got})")

    def _read(self, key, entry):
        path, f = self._file(entry)
        buf = bytearray(entry.size)
        got = f.readinto(buf)
        if got != entry.size:
            raise self._truncated(key, path, entry, got)
        return buf

    def _read_checked(self, key, entry):
        """``(bytes as a uint8 array, their CRC-32C)`` of a number tensor, read straight into
        the array that becomes the tensor. While helper threads are free, a large tensor is
        read and checksummed in pieces on them at once (reads and NumPy's lookups leave the
        interpreter lock); otherwise it is read whole, then checksummed."""
        path, f = self._file(entry)
        buf = np.empty(entry.size, np.uint8)
        bounds = _crc32c.split(entry.size)
        if len(bounds) == 1 or not hasattr(os, "preadv") or not self._on_disk:
            got = f.readinto(memoryview(buf))
            if got != entry.size:
                raise self._truncated(key, path, entry, got)
            return buf, crc32c(buf)
        fd, view = f.fileno(), memoryview(buf)
        available = os.fstat(fd).st_size - entry.offset
        if available < entry.size:
            raise self._truncated(key, path, entry, max(available, 0))

        def piece(i):
            start, stop = bounds[i]
            while start < stop:
                got = os.preadv(fd, [view[start:stop]], entry.offset + start)
                if not got:  # (truncated since it was measured)
                    raise self._truncated(key, path, entry, start)
                start += got
            return view[bounds[i][0]:stop]

        return buf, _crc32c.crc32c_of_pieces(bounds, piece)

    def get_tensor(self, key):
        """The tensor `key` as a NumPy array (strings: an object array of bytes); its
        CRC-32C is checked."""
        entry = self.entry(key)
        if entry.slices:
            return self._assemble(key, entry)
        return self._tensor(key, entry)

    def _assemble(self, key, entry):
        """The whole of a tensor saved in slices."""
        shape = [d.size for d in entry.shape.dim]
        dtype = _d.as_dtype(entry.dtype)
        out = np.empty(shape, object if dtype == _d.string else dtype.as_numpy_dtype)
        for proto in entry.slices:
            stored, extents = _extents(proto, shape)
            part_key = slice_key(key, stored)
            part = self._slice_entries.get(part_key)
            if part is None:
                raise errors.NotFoundError(None, None, f"Key {key} (slice {stored}) not found "
                                                       f"in checkpoint")
            out[tuple(slice(s, s + n) for s, n in extents)] = self._tensor(key, part)
        return out

    def raw_keys(self):
        """Every key of the index in its order, slices' keys (bytes) included, those of the
        tensors saved in slices left out (as TF's debug string lists them)."""
        keys = [k.encode("utf-8") for k, e in self._entries.items() if not e.slices]
        return sorted(keys + list(self._slice_entries))

    def raw_entry(self, key):
        return self._slice_entries[key] if key.startswith(b"\x00") else self.entry(
            key.decode("utf-8"))

    def _tensor(self, key, entry):
        dtype = _d.as_dtype(entry.dtype)
        shape = tuple(d.size for d in entry.shape.dim)
        if dtype == _d.string:
            array, crc = self._strings(key, entry, self._read(key, entry), shape)
        else:
            np_dtype = np.dtype(dtype.as_numpy_dtype)
            if entry.size != np_dtype.itemsize * int(np.prod(shape)):
                raise errors.DataLossError(None, None, self._where(key, entry) +
                                           f"{entry.size} bytes do not hold a tensor of shape "
                                           f"{list(shape)} and dtype {dtype.name}")
            buf, crc = self._read_checked(key, entry)
            array = buf.view(np_dtype).reshape(shape)
        crc = mask(crc)
        if crc != entry.crc32c:
            raise errors.DataLossError(
                None, None, self._where(key, entry) + f"Checksum does not match: stored "
                f"{entry.crc32c} vs. calculated on the restored bytes {crc}")
        return array

    def _where(self, key, entry):
        path = data_path(self._prefix, entry.shard_id, self._num_shards)
        return (f"TensorBundle at {self._prefix} shard {entry.shard_id} ({entry.size} bytes), "
                f"tensor {key} in {path}: ")

    def _strings(self, key, entry, buf, shape):
        count = int(np.prod(shape))
        lengths, pos = [], 0
        try:
            for _ in range(count):
                n, pos = _read_varint(buf, pos)
                lengths.append(n)
            stored = struct.unpack_from("<I", buf, pos)[0]
        except (IndexError, struct.error):
            raise errors.DataLossError(None, None, self._where(key, entry) +
                                       "the string lengths are truncated") from None
        crc = 0
        for n in lengths:
            crc = crc32c(struct.pack("<I" if n <= 0xFFFFFFFF else "<Q", n), crc)
        if mask(crc) != stored:
            raise errors.DataLossError(None, None, self._where(key, entry) +
                                       "Checksum does not match for the string lengths")
        crc = crc32c(buf[pos:pos + 4], crc)
        pos += 4
        if pos + sum(lengths) != len(buf):
            raise errors.DataLossError(None, None, self._where(key, entry) +
                                       "the string bytes do not match their lengths")
        crc = crc32c(buf[pos:], crc)
        out = np.empty(count, object)
        for i, n in enumerate(lengths):
            out[i] = bytes(buf[pos:pos + n])
            pos += n
        return out.reshape(shape), crc

    def close(self):
        for f in self._files.values():
            f.close()
        self._files.clear()

    def __del__(self):
        try:
            self.close()
        except Exception:  # noqa: BLE001, S110 (interpreter shutdown)
            pass
