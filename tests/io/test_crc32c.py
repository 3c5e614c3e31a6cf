"""CRC-32C of long buffers (the vectorized path) against a bit-by-bit reference."""
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from tests.internals import crc32c, crc32c_many, masked_crc32c

ROW, BLOCK = 32, 32 * 16384  # the long path's row and block of rows, in bytes


def reference(data, crc=0):
    """CRC-32C one bit at a time, from the polynomial alone."""
    crc ^= 0xFFFFFFFF
    for byte in bytes(data):
        crc ^= byte
        for _ in range(8):
            crc = (crc >> 1) ^ (0x82F63B78 if crc & 1 else 0)
    return crc ^ 0xFFFFFFFF


def chained(data, crc=0, piece=1000):
    """The checksum continued over pieces short enough for the byte loop."""
    for i in range(0, len(data), piece):
        crc = crc32c(data[i:i + piece], crc)
    return crc


def test_known_vectors_of_long_inputs():
    # RFC 3720's 32-byte vectors, repeated past the vectorized path's threshold
    assert crc32c(bytes(4096)) == reference(bytes(4096))
    assert crc32c(b"\xff" * 5000) == reference(b"\xff" * 5000)
    assert masked_crc32c(b"hello") == 0x191C1FBB


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 7000), st.integers(0, 7), st.integers(0, 2**32 - 1), st.randoms())
def test_every_length_alignment_and_start_value(n, offset, start, rnd):
    buf = bytearray(rnd.getrandbits(8) for _ in range(n + offset))
    data = memoryview(buf)[offset:]  # the bytes at every alignment
    assert crc32c(data, start) == reference(data, start)


@pytest.mark.parametrize("n", [2047, 2048, 2049, 2048 + ROW - 1, 64 * ROW, 64 * ROW + 1,
                               BLOCK - 1, BLOCK, BLOCK + ROW, BLOCK + 1, 3 * BLOCK - 5])
def test_row_and_block_boundaries(n):
    data = np.random.default_rng(n).bytes(n)
    assert crc32c(data) == chained(data)
    assert crc32c(data[7:], 0x12345678) == chained(data[7:], 0x12345678)


def test_many_blocks():
    data = np.random.default_rng(0).bytes(9 * BLOCK + 123)
    assert crc32c(data) == chained(data, piece=2000)
    # one flipped bit changes the checksum
    flipped = bytearray(data)
    flipped[5 * BLOCK + 17] ^= 4
    assert crc32c(bytes(flipped)) != crc32c(data)


def test_numpy_arrays_and_memoryviews():
    array = np.random.default_rng(1).standard_normal((300, 7)).astype(np.float32)
    assert crc32c(array) == crc32c(array.tobytes()) == crc32c(memoryview(array))


def test_many_buffers_of_every_length_at_once():
    rng = np.random.default_rng(2)
    buffers = [rng.bytes(n) for n in range(300)] + [rng.bytes(100) for _ in range(9)]
    assert crc32c_many(buffers) == [reference(b) for b in buffers]
    assert crc32c_many(buffers[::-1][:40]) == [reference(b) for b in buffers[::-1][:40]]
