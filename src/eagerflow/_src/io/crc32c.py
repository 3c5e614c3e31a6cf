"""CRC-32C (Castagnoli), the checksum of TFRecord files and checkpoints, on NumPy alone.

Short inputs run a byte table in Python. Long ones are cut into many chunks whose
checksums NumPy computes side by side, 16 bytes a step: only the first four bytes
of a step meet the register, so the other twelve bytes' share of every step is
looked up for the whole input at once, and each step of the loop (over all chunks)
is two lookups in 16-bit tables. The chunks' checksums are then joined in order,
which is linear algebra over GF(2): shifting a register past `n` zero bytes is a
32x32 bit matrix, applied with four 256-entry tables. `crc32c_many` runs many
buffers (a file's records) as lanes of one such loop.

>>> hex(crc32c(b"123456789"))
'0xe3069283'
>>> hex(masked_crc32c(b"hello"))
'0x191c1fbb'
"""
import functools

import numpy as np

_POLY = 0x82F63B78  # CRC-32C, bit-reflected


def _byte_table():
    table = np.arange(256, dtype=np.uint32)
    for _ in range(8):
        table = np.where(table & 1, (table >> 1) ^ np.uint32(_POLY), table >> 1).astype(np.uint32)
    return table


_TABLE = _byte_table()
_TABLE_LIST = _TABLE.tolist()
_SHORT = 2048  # below this many bytes the Python loop is the faster of the two
_STEP = 16  # bytes a lane takes per step


@functools.lru_cache(maxsize=1)
def _step_tables():
    """The 16-bit tables of a step's pairs of bytes, from the byte tables ``T[k]`` (a byte
    followed by `k` zero bytes); the register meets the first two pairs."""
    tables = [_TABLE]
    for _ in range(1, _STEP):
        prev = tables[-1]
        tables.append((prev >> np.uint32(8)) ^ _TABLE[prev & np.uint32(0xFF)])
    pair = np.arange(1 << 16, dtype=np.uint32)
    low, high = pair & np.uint32(0xFF), pair >> np.uint32(8)
    # pairs[j]: the 16-bit table of bytes 2j and 2j + 1 of a step
    return [tables[_STEP - 1 - 2 * j][low] ^ tables[_STEP - 2 - 2 * j][high]
            for j in range(_STEP // 2)]


def _lane_registers(chunks):
    """The register after each row of `chunks` (uint8, rows a multiple of 16 bytes long),
    every row starting from register 0."""
    pairs = _step_tables()
    first, second = pairs[:2]
    lanes, length = chunks.shape
    steps = length // _STEP
    blocks = chunks.reshape(lanes, steps, _STEP)
    halves = blocks.view("<u2")  # (lanes, steps, 8): the step's bytes two by two
    rest = pairs[2][halves[:, :, 2]]  # bytes 4..15 of each step, looked up at once
    for j in range(3, _STEP // 2):
        rest ^= pairs[j][halves[:, :, j]]
    words = np.ascontiguousarray(blocks[:, :, :4]).view("<u4").reshape(lanes, steps)
    words, rest = words.T.astype(np.uint32), rest.T.copy()
    regs = np.zeros(lanes, np.uint32)
    low, sixteen = np.uint32(0xFFFF), np.uint32(16)
    for word, share in zip(words, rest):
        x = regs ^ word
        regs = first[x & low] ^ second[x >> sixteen] ^ share
    return regs


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


def _python_crc(data, crc):
    table = _TABLE_LIST
    for b in data:
        crc = table[(crc ^ b) & 0xFF] ^ (crc >> 8)
    return crc


def _register(data, crc):
    """The register after `data`, from register `crc` (no final inversion)."""
    n = len(data)
    if n < _SHORT:
        return _python_crc(data, crc)
    # the chunks: about sqrt(n) of them, each as long; zeros in front of the first change
    # nothing when its register starts at 0, so the start value is folded into the data
    length = 1 << max(5, (n.bit_length() + 1) // 2 - 1)  # a power of two: few shift tables
    lanes = -(-n // length)
    buf = np.zeros(lanes * length, np.uint8)
    pad = lanes * length - n
    buf[pad:] = np.frombuffer(data, np.uint8)
    head = np.frombuffer(crc.to_bytes(4, "little"), np.uint8)
    buf[pad:pad + 4] ^= head
    regs = _lane_registers(buf.reshape(lanes, length))
    # join in order: register = shift(register past one chunk) ^ next chunk's register
    t0, t1, t2, t3 = _zeros_tables(length)
    out = 0
    for r in regs.tolist():
        out = (t0[out & 0xFF] ^ t1[(out >> 8) & 0xFF] ^ t2[(out >> 16) & 0xFF]
               ^ t3[out >> 24] ^ r)
    return out


def crc32c(data, crc=0):
    """The CRC-32C of `data` (bytes-like), continuing from checksum `crc`."""
    data = memoryview(data).cast("B")
    return _register(data, crc ^ 0xFFFFFFFF) ^ 0xFFFFFFFF


def mask(crc):
    """TFRecord's masked form of a checksum: rotated right 15 bits plus a constant."""
    return (((crc >> 15) | (crc << 17)) + 0xA282EAD8) & 0xFFFFFFFF


def masked_crc32c(data):
    return mask(crc32c(data))


def crc32c_many(buffers):
    """The CRC-32C of each of `buffers` (bytes-like), computed side by side.

    Buffers of about one size (within a factor of two) are cut into chunks of one
    length and run as lanes of one NumPy loop, then each buffer's chunks are joined,
    all buffers at once: many small records cost about what one large one does.
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
        # a step of the join costs about as much as a step of 16 bytes: balance the loops
        length = 1 << max(4, (16 * int(sizes.max())).bit_length() // 2)
        chunks = -(-int(sizes.max()) // length)
        total = chunks * length
        # each buffer at the end of its row: zeros in front change nothing from register
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
        regs = _lane_registers(buf.reshape(len(members) * chunks, length))
        regs = regs.reshape(len(members), chunks)
        mask, eight = np.uint32(0xFF), np.uint32(8)
        t0, t1, t2, t3 = (np.array(t, np.uint32) for t in _zeros_tables(length))
        acc = np.zeros(len(members), np.uint32)
        for j in range(chunks):
            acc = (t0[acc & mask] ^ t1[(acc >> eight) & mask] ^ t2[(acc >> np.uint32(16)) & mask]
                   ^ t3[acc >> np.uint32(24)] ^ regs[:, j])
        for i, crc in zip(members, (acc ^ np.uint32(0xFFFFFFFF)).tolist()):
            out[i] = crc
    return out
