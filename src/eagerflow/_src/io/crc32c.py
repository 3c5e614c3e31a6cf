"""CRC-32C (Castagnoli), the checksum of TFRecord files and checkpoints, on NumPy alone.

Short inputs run a byte table in Python. Long ones are cut into rows of 32 bytes whose
checksums (from register 0) need no loop over the data: a row's checksum is the xor of
one 16-bit table lookup per two bytes, column by column over a block of rows that stays
in the cache. The rows are then joined pairwise, level by level, which is linear algebra
over GF(2): shifting a register past `n` zero bytes is a 32x32 bit matrix, applied with
lookup tables. Whole blocks of 1 MiB go faster the same way with their rows laid across
the block: 16 segments, a row being the two-byte words at one place in every segment,
so that each segment's lookups read contiguous words.
`crc32c_many` runs many buffers (a file's records) as the rows of one such pass.
Buffers of several MiB are cut into pieces checksummed on the kernels' helper threads at
once while the machine has idle cores (NumPy's lookups leave the interpreter lock), the
pieces' registers joined the same way; `crc32c_of_pieces` lets the caller read or write
each piece on its thread first.
Where Linux's crypto API offers its CRC-32C (an ``AF_ALG`` socket; the CPU's CRC
instruction where there is one), long buffers go there instead, once it has given the
known checksums of a short and a long test buffer.

>>> hex(crc32c(b"123456789"))
'0xe3069283'
>>> hex(masked_crc32c(b"hello"))
'0x191c1fbb'
"""
import functools
import threading

import numpy as np

from eagerflow._src.backend import threads

_POLY = 0x82F63B78  # CRC-32C, bit-reflected


def _byte_table():
    table = np.arange(256, dtype=np.uint32)
    for _ in range(8):
        table = np.where(table & 1, (table >> 1) ^ np.uint32(_POLY), table >> 1).astype(np.uint32)
    return table


_TABLE = _byte_table()
_TABLE_LIST = _TABLE.tolist()
_SHORT = 2048  # below this many bytes the Python loop is the faster of the two


def _apply(columns, values):
    """The bit matrix `columns` (its 32 columns' images, uint32) applied to `values`."""
    values = np.asarray(values, np.uint32)
    out = np.zeros(values.shape, np.uint32)
    for j in range(32):
        out ^= columns[j] * ((values >> np.uint32(j)) & np.uint32(1))
    return out


@functools.lru_cache(maxsize=64)
def _zeros_tables(nbytes):
    """Four tables: the register after `nbytes` zero bytes, by each byte of the register."""
    # one zero bit: shift right, folding the polynomial in when the low bit falls out
    step = np.array([_POLY] + [1 << (j - 1) for j in range(1, 32)], np.uint32)
    power = np.array([1 << j for j in range(32)], np.uint32)  # the identity
    bits = 8 * nbytes
    while bits:
        if bits & 1:
            power = _apply(step, power)
        step = _apply(step, step)
        bits >>= 1
    byte = np.arange(256, dtype=np.uint32)
    return [_apply(power, byte << np.uint32(8 * k)).tolist() for k in range(4)]


_ROW = 32  # (a power of two) bytes of a row of the long path: its 16 tables (4 MiB) about fit a cache
_BLOCK_ROWS = 16384  # rows looked up per pass (512 KiB of data)


@functools.lru_cache(maxsize=1)
def _row_tables():
    """The 16-bit tables of a row's columns, one after another: column j (bytes 2j and
    2j + 1 of a row) followed by the rest of the row, as zeros, at ``j << 16``."""
    tables = [_TABLE]  # tables[k]: a byte followed by k zero bytes
    for _ in range(1, _ROW):
        prev = tables[-1]
        tables.append((prev >> np.uint32(8)) ^ _TABLE[prev & np.uint32(0xFF)])
    pair = np.arange(1 << 16, dtype=np.uint32)
    low, high = pair & np.uint32(0xFF), pair >> np.uint32(8)
    return np.concatenate([tables[_ROW - 1 - 2 * j][low] ^ tables[_ROW - 2 - 2 * j][high]
                           for j in range(_ROW // 2)])


_ROW_LOG = _ROW.bit_length() - 1


@functools.lru_cache(maxsize=64)
def _shift_matrix(level):
    """The bit matrix of shifting a register past ``2 ** level`` zero bytes: the previous
    level's, squared."""
    if level:
        half = _shift_matrix(level - 1)
        return _apply(half, half)
    step = np.array([_POLY] + [1 << (j - 1) for j in range(1, 32)], np.uint32)  # a zero bit
    for _ in range(3):
        step = _apply(step, step)
    return step


@functools.lru_cache(maxsize=64)
def _shift_tables(level):
    """Two 16-bit tables (by the register's low and high halves): the register after
    ``2 ** level`` zero bytes."""
    matrix, byte = _shift_matrix(level), np.arange(256, dtype=np.uint32)
    t0, t1, t2, t3 = (_apply(matrix, byte << np.uint32(8 * k)) for k in range(4))
    half = np.arange(1 << 16, dtype=np.uint32)
    low, high = half & np.uint32(0xFF), half >> np.uint32(8)
    return t0[low] ^ t1[high], t2[low] ^ t3[high]


_LOW_HALF = 0 if np.little_endian else 1  # where a uint32's low 16 bits lie


def _join(regs, level):
    """The registers of the rows of `regs` (2-D; a 1-D array is one row), each the
    registers (from 0) of consecutive runs of ``2 ** level`` bytes: joined pairwise,
    level by level."""
    regs = np.ascontiguousarray(regs)
    while regs.shape[-1] > 1:
        if regs.shape[-1] % 2:  # a run of zeros in front: from register 0 it stays 0
            regs = np.concatenate([np.zeros(regs.shape[:-1] + (1,), np.uint32), regs], -1)
        # the left registers' halves, looked up as they lie in memory (no masks or shifts)
        halves = regs.view(np.uint16)
        low, high = _shift_tables(level)
        out = np.take(low, halves[..., _LOW_HALF::4], mode="wrap")
        out ^= np.take(high, halves[..., 1 - _LOW_HALF::4], mode="wrap")
        out ^= regs[..., 1::2]
        regs = out
        level += 1
    return regs[..., 0]


def _row_registers(data):
    """The register (from 0) of each `_ROW`-byte row of `data` (uint8, a multiple of
    `_ROW` bytes long): a lookup per two bytes, no loop over the data, a block of rows
    in the cache at a time."""
    rows = data.size // _ROW
    columns = data.view("<u2").reshape(rows, _ROW // 2)
    tables = _row_tables()
    regs = np.empty(rows, np.uint32)
    size = min(rows, _BLOCK_ROWS)
    # The indices into the tables, a column per row, as take wants them (intp): each
    # column's table number stays in the high bits, each block's two bytes are copied into
    # the low ones (transposed, so that each column is contiguous); then one lookup and one
    # xor over the columns per block, few calls, each leaving the interpreter lock for long;
    # mode="wrap" (the indices are in range) skips the bounds check's slower loop
    index = np.empty((_ROW // 2, size), np.intp)
    index[...] = (np.arange(_ROW // 2, dtype=np.intp) << 16)[:, None]
    index_low = index.view(np.uint16).reshape(_ROW // 2, size, np.intp(0).itemsize // 2)[
        :, :, 0 if np.little_endian else -1]
    looked_up = np.empty((_ROW // 2, size), np.uint32)
    for start in range(0, rows, _BLOCK_ROWS):
        block = columns[start:start + _BLOCK_ROWS]
        n = block.shape[0]
        np.copyto(index_low[:, :n], block.T)
        np.take(tables, index[:, :n], out=looked_up[:, :n], mode="wrap")
        np.bitwise_xor.reduce(looked_up[:, :n], axis=0, out=regs[start:start + n])
    return regs


_SEGMENTS = 16  # segments of a block of the long path
_SEGMENT_WORDS = 32768  # two-byte words of a segment
_SEGMENT = 2 * _SEGMENT_WORDS  # bytes of a segment (a power of two)
_BLOCK = _SEGMENTS * _SEGMENT  # bytes of a block (1 MiB)
_PAIR = 2  # blocks looked up per call: fewer calls, their arrays still in the cache


@functools.lru_cache(maxsize=1)
def _segment_tables():
    """The 16-bit tables of a block's segments: segment c's two bytes followed by the
    ``_SEGMENTS - 1 - c`` segments after it, as zeros."""
    pair = np.arange(1 << 16, dtype=np.uint32)
    table = _TABLE[pair & np.uint32(0xFF)]  # the register after the low byte, then the high
    table = (table >> np.uint32(8)) ^ _TABLE[(table ^ (pair >> np.uint32(8))) & np.uint32(0xFF)]
    low, high = _shift_tables(_SEGMENT.bit_length() - 1)
    out = [table]
    for _ in range(1, _SEGMENTS):  # each one segment further from the end
        out.append(low[out[-1] & np.uint32(0xFFFF)] ^ high[out[-1] >> np.uint32(16)])
    return out[::-1]


def _block_registers(data):
    """The register (from 0) of each `_BLOCK`-byte block of `data` (uint8, whole blocks).

    A block is cut into `_SEGMENTS` segments, one after another; the two-byte words at one
    place in every segment make a row, whose register is the xor of one 16-bit lookup per
    segment; the rows (two bytes apart) are then joined. Unlike `_row_registers`, each
    lookup reads its indices from contiguous words, which NumPy casts fastest.
    """
    blocks = data.size // _BLOCK
    words = data.view("<u2").reshape(blocks, _SEGMENTS, _SEGMENT_WORDS)
    tables = _segment_tables()
    looked_up = np.empty((_PAIR, _SEGMENT_WORDS), np.uint32)
    rows = np.empty((blocks, _SEGMENT_WORDS), np.uint32)
    for b in range(0, blocks, _PAIR):
        # (mode="wrap": the indices are in range, and its check is the fastest; each lookup
        # xored into the row registers at once keeps both arrays in the cache)
        acc = rows[b:b + _PAIR]
        out = looked_up[:acc.shape[0]]
        np.take(tables[0], words[b:b + _PAIR, 0], out=acc, mode="wrap")
        for c in range(1, _SEGMENTS):
            np.take(tables[c], words[b:b + _PAIR, c], out=out, mode="wrap")
            np.bitwise_xor(acc, out, out=acc)
    return _join(rows, 1)


def _rows_register(data, crc):
    """The register after `data` (a uint8 array, a multiple of `_ROW` bytes long), from
    register `crc`: its whole blocks' registers from 0, then every remaining row's, each
    run joined."""
    if data.size >= _BLOCK:
        regs = _block_registers(data[:data.size // _BLOCK * _BLOCK])
        # the start register: shifted past the first block, as if xored into its first bytes
        low, high = _shift_tables(_BLOCK.bit_length() - 1)
        regs[0] ^= low[crc & 0xFFFF] ^ high[crc >> 16]
        crc = int(_join(regs, _BLOCK.bit_length() - 1))
        data = data[regs.size * _BLOCK:]
    if data.size < _ROW:
        return crc
    regs = _row_registers(data)
    # the start register: shifted past the first row, as if xored into its first bytes
    low, high = _shift_tables(_ROW_LOG)
    regs[0] ^= low[crc & 0xFFFF] ^ high[crc >> 16]
    return int(_join(regs, _ROW_LOG))


def _python_crc(data, crc):
    table = _TABLE_LIST
    for b in data:
        crc = table[(crc ^ b) & 0xFF] ^ (crc >> 8)
    return crc


_SPLIT = 3 << 20  # bytes from which a buffer is cut into pieces checksummed on threads
_PIECE = 2 * _BLOCK  # bytes of a piece (whole blocks; a few per thread, to balance their work)
_EACH_SHORT = 1 << 16  # buffers shorter than this are checksummed side by side by `crc32c_each`


def _shift(reg, nbytes):
    """The register `reg` after `nbytes` zero bytes: one shift per bit of `nbytes`."""
    level = 0
    while nbytes:
        if nbytes & 1:
            low, high = _shift_tables(level)
            reg = int(low[reg & 0xFFFF] ^ high[reg >> 16])
        nbytes >>= 1
        level += 1
    return reg


def _threads_free():
    """Whether a long checksum may use helper threads: the thread budget is more than one
    and no other process keeps the cores busy (there the threads would only wait for each
    other and for the interpreter lock)."""
    if threads.budget() <= 1 or threads.slot():
        return False
    threads.adapt()  # (looks at the machine's load again, at most every INTERVAL seconds)
    return not threads.contended


def _cut(n):
    """``[(start, stop)]`` of `n` bytes in pieces of `_PIECE` bytes, the rest in front."""
    count = max(-(-n // _PIECE), 1)
    first = n - (count - 1) * _PIECE
    return [(0, first)] + [(first + i * _PIECE, first + (i + 1) * _PIECE)
                           for i in range(count - 1)]


def split(n):
    """Where `crc32c_of_pieces` cuts `n` bytes: ``[(start, stop)]``, pieces of 2 MiB while
    helper threads are free (and the kernel does not checksum them), else one piece."""
    if n < _SPLIT or _kernel() is not None or not _threads_free():
        return [(0, n)]
    return _cut(n)


def _in_chunks(count, run):
    """`threads.in_chunks`, or the same on this thread where no thread can start."""
    try:
        return threads.in_chunks(count, run)
    except RuntimeError:  # no new threads (at interpreter exit): all on this one
        return [run(i) for i in range(count)]


def crc32c_of_pieces(bounds, piece, crc=0):
    """The CRC-32C of consecutive pieces, continuing from checksum `crc`: `bounds` are the
    pieces' ``(start, stop)`` (`split`'s, or any), `piece(i)` gives piece i's bytes (and may
    read or write them first). The pieces are checksummed on `threads.in_chunks`'s helpers
    at once (NumPy's lookups leave the interpreter lock), their registers joined by shifts
    over GF(2)."""
    def run(i):
        return _register(memoryview(piece(i)).cast("B"), crc ^ 0xFFFFFFFF if i == 0 else 0)

    regs = _in_chunks(len(bounds), run)
    reg = regs[0]
    for (start, stop), piece_reg in zip(bounds[1:], regs[1:]):
        reg = _shift(reg, stop - start) ^ piece_reg
    return reg ^ 0xFFFFFFFF


def _register(data, crc):
    """The register after `data`, from register `crc` (no final inversion), on this thread."""
    n = len(data)
    if n < _SHORT:
        return _python_crc(data, crc)
    head = n % _ROW  # (the rows start after it, from the register it leaves)
    return _rows_register(np.frombuffer(data, np.uint8, offset=head),
                          _python_crc(data[:head], crc))


_KERNEL_MIN = 1 << 16  # bytes from which the kernel's CRC-32C is worth its system calls
_KERNEL_CHUNK = 1 << 20  # bytes per send to it
_kernel_state = {"socket": None, "tried": False}
_kernel_lock = threading.Lock()


def _alg_socket():
    """A socket bound to the kernel's ``crc32c`` hash; OSError (or AttributeError off Linux)
    where there is none."""
    import socket  # noqa: PLC0415 (only where a long buffer asks for it)
    alg = socket.socket(socket.AF_ALG, socket.SOCK_SEQPACKET, 0)
    try:
        alg.bind(("hash", "crc32c"))
    except OSError:
        alg.close()
        raise
    return alg


def _kernel_crc(alg, data):
    """The CRC-32C of `data` (from 0) by the kernel: sent in chunks marked as continued
    (a send without the mark ends the hash), read back as four little-endian bytes."""
    import socket  # noqa: PLC0415
    op, _ = alg.accept()
    with op:
        view = memoryview(data).cast("B")
        while len(view):
            sent = op.send(view[:_KERNEL_CHUNK], socket.MSG_MORE)
            view = view[sent:]
        digest = op.recv(4)
    if len(digest) != 4:
        raise OSError("short digest")
    return int.from_bytes(digest, "little")


def _kernel():
    """The kernel's hash socket, or None where there is none or it fails its self-check
    (tried once)."""
    if not _kernel_state["tried"]:
        with _kernel_lock:
            if not _kernel_state["tried"]:
                alg = None
                try:
                    alg = _alg_socket()
                    test = np.arange((_KERNEL_CHUNK + 4096) // 4, dtype=np.uint32).view(np.uint8)
                    expected = _register(memoryview(test), 0xFFFFFFFF) ^ 0xFFFFFFFF
                    if _kernel_crc(alg, b"123456789") != 0xE3069283 or \
                            _kernel_crc(alg, test) != expected:
                        alg.close()
                        alg = None
                except (AttributeError, OSError):
                    if alg is not None:
                        alg.close()
                    alg = None
                _kernel_state["socket"] = alg
                _kernel_state["tried"] = True
    return _kernel_state["socket"]


def crc32c(data, crc=0):
    """The CRC-32C of `data` (bytes-like), continuing from checksum `crc`."""
    data = memoryview(data).cast("B")
    if crc == 0 and len(data) >= _KERNEL_MIN:
        alg = _kernel()
        if alg is not None:
            try:
                return _kernel_crc(alg, data)
            except OSError:  # (it worked before: checksum here)
                pass
    bounds = split(len(data))
    if len(bounds) > 1:
        return crc32c_of_pieces(bounds, lambda i: data[bounds[i][0]:bounds[i][1]], crc)
    return _register(data, crc ^ 0xFFFFFFFF) ^ 0xFFFFFFFF


def crc32c_each(buffers):
    """``[crc32c(b) for b in buffers]`` (a checkpoint's tensors): buffers under 64 KiB in
    one `crc32c_many` pass, and while helper threads are free, the pieces of all the longer
    ones on them at once."""
    views = [memoryview(b).cast("B") for b in buffers]
    out = [0] * len(views)
    small = [j for j, v in enumerate(views) if len(v) < _EACH_SHORT]
    for j, crc in zip(small, crc32c_many([views[j] for j in small])):
        out[j] = crc
    long = [j for j, v in enumerate(views) if len(v) >= _EACH_SHORT]
    if sum(len(views[j]) for j in long) < _SPLIT or _kernel() is not None or \
            not _threads_free():
        for j in long:
            out[j] = crc32c(views[j])
        return out
    pieces = [(j, start, stop) for j in long for start, stop in _cut(len(views[j]))]
    groups, size = [[]], 0  # consecutive pieces, at least `_PIECE` bytes a group where
    for piece in pieces:    # the buffers are short: a thread's share of the work
        if size >= _PIECE:
            groups.append([])
            size = 0
        groups[-1].append(piece)
        size += piece[2] - piece[1]

    def run(i):
        return [_register(views[j][start:stop], 0 if start else 0xFFFFFFFF)
                for j, start, stop in groups[i]]

    regs = [reg for group in _in_chunks(len(groups), run) for reg in group]
    for (j, start, stop), reg in zip(pieces, regs):
        out[j] = _shift(out[j], stop - start) ^ reg if start else reg
    for j in long:
        out[j] ^= 0xFFFFFFFF
    return out


def mask(crc):
    """TFRecord's masked form of a checksum: rotated right 15 bits plus a constant."""
    return (((crc >> 15) | (crc << 17)) + 0xA282EAD8) & 0xFFFFFFFF


def masked_crc32c(data):
    return mask(crc32c(data))


def crc32c_many(buffers):
    """The CRC-32C of each of `buffers` (bytes-like), computed side by side.

    Buffers of about one size (within a factor of two) are each padded in front to
    whole rows and looked up in one pass, then each buffer's rows are joined, all
    buffers at once: many small records cost about what one large one does.
    """
    out = [0] * len(buffers)
    all_sizes = np.fromiter(map(len, buffers), np.int64, len(buffers))
    classes = np.frexp(all_sizes)[1]  # each size's bit length
    classes[all_sizes < 16] = 0
    for bits in np.unique(classes).tolist():
        members = np.flatnonzero(classes == bits).tolist()
        if bits == 0 or len(members) < 4 or bits > 16:  # too short or too few to share a
            for i in members:                           # loop, or long enough alone
                out[i] = crc32c(buffers[i])
            continue
        sizes = all_sizes[members]
        total = -(-int(sizes.max()) // _ROW) * _ROW  # every buffer in a run of whole rows
        # each buffer at the end of its run: zeros in front change nothing from register
        # 0, once the start value (all ones) is folded into the first four bytes
        starts = np.arange(len(members), dtype=np.int64) * total + total - sizes
        data = np.frombuffer(b"".join(map(buffers.__getitem__, members)), np.uint8)
        buf = np.zeros(len(members) * total, np.uint8)
        size = int(sizes[0])
        if (sizes == size).all():  # (records of one size, the usual case: rows as they are)
            buf.reshape(len(members), total)[:, total - size:] = data.reshape(-1, size)
        else:
            ends = np.cumsum(sizes)
            buf[np.repeat(starts - (ends - sizes), sizes) + np.arange(data.size)] = data
        head = (starts[:, None] + np.arange(4)).reshape(-1)
        buf[head] ^= np.uint8(0xFF)
        acc = _join(_row_registers(buf).reshape(len(members), total // _ROW), _ROW_LOG)
        for i, crc in zip(members, (acc ^ np.uint32(0xFFFFFFFF)).tolist()):
            out[i] = crc
    return out
