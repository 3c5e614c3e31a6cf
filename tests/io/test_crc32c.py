"""CRC-32C of long buffers (the vectorized path) against a bit-by-bit reference."""
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from tests.internals import crc32c, crc32c_many, masked_crc32c

ROW, BLOCK = 32, 32 * 16384  # the long path's row and block of rows, in bytes
SEGMENTS = 1 << 20  # its block of 16 segments, in bytes


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


@settings(max_examples=8, deadline=None)
@given(st.integers(0, 5 << 20), st.integers(0, 7), st.integers(0, 2**32 - 1),
       st.integers(0, 2**32 - 1))
def test_long_buffers_of_any_length_offset_and_start_value(n, offset, start, seed):
    # whole blocks (their segments' words looked up side by side), then the rows after them
    buf = np.random.default_rng(seed).bytes(n + offset)
    data = memoryview(buf)[offset:]
    assert crc32c(data, start) == chained(data, start, piece=2000)


@pytest.mark.parametrize("n", [SEGMENTS, SEGMENTS + ROW, 2 * SEGMENTS + 2 * ROW + 3,
                               3 * SEGMENTS + 7])  # (blocks are looked up in pairs)
def test_whole_blocks_of_segments_and_the_rows_after_them(n):
    data = np.random.default_rng(n).bytes(n)
    assert crc32c(data) == chained(data, piece=2000)
    assert crc32c(data, 0xDEADBEEF) == chained(data, 0xDEADBEEF, piece=2000)
    for where in {0, SEGMENTS // 16 - 1, SEGMENTS // 2 + 1, min(SEGMENTS + 5, n - 1), n - 1}:
        flipped = bytearray(data)
        flipped[where] ^= 0x80
        crc = crc32c(bytes(flipped))
        assert crc != crc32c(data)
        assert crc == crc32c(flipped[where:], crc32c(flipped[:where]))  # cut elsewhere


def test_whole_blocks_at_odd_addresses():
    buf = np.random.default_rng(3).bytes(2 * SEGMENTS + 100)
    for offset in (1, 3):
        data = memoryview(buf)[offset:]  # the two-byte words unaligned
        assert crc32c(data) == crc32c(np.frombuffer(buf, np.uint8)[offset:]) == \
            chained(data, piece=2000)


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


# -- the kernel's CRC-32C (Linux's AF_ALG 'crc32c' hash), where there is one ---------------

class _FakeKernel:
    """A stand-in for a socket bound to the kernel's hash: `digest` gives the checksum of
    what was sent, which comes in pieces (each send takes half of what it is offered)."""

    def __init__(self, digest):
        self.digest, self.calls, self.closed = digest, 0, False

    def accept(self):
        return _FakeOperation(self), None

    def close(self):
        self.closed = True


class _FakeOperation:
    def __init__(self, kernel):
        self.kernel, self.data = kernel, bytearray()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False

    def send(self, view, flags):
        import socket
        assert flags == socket.MSG_MORE  # (a send without it would end the hash)
        taken = view[:max(1, len(view) // 2)]
        self.data += taken
        return len(taken)

    def recv(self, n):
        self.kernel.calls += 1
        return self.kernel.digest(bytes(self.data)).to_bytes(4, "little")


def _numpy_crc(data):
    from tests.internals import crc32c_module
    return crc32c_module._register(memoryview(data), 0xFFFFFFFF) ^ 0xFFFFFFFF


@pytest.fixture
def kernel(monkeypatch):
    from tests.internals import crc32c_module

    def use(make):
        monkeypatch.setattr(crc32c_module, "_alg_socket", make)
        monkeypatch.setattr(crc32c_module, "_kernel_state", {"socket": None, "tried": False})
    return use


LONG = np.random.default_rng(5).bytes(100_000)  # past the length that goes to the kernel


def test_the_kernels_checksum_is_used_once_it_passed_its_self_check(kernel):
    fake = _FakeKernel(_numpy_crc)
    kernel(lambda: fake)
    assert crc32c(LONG) == chained(LONG)
    calls = fake.calls
    assert calls >= 3  # the two test buffers, then this one
    assert crc32c(LONG[:5000]) == reference(LONG[:5000])  # short: here
    assert crc32c(LONG, 7) == chained(LONG, 7)  # continued: here
    assert fake.calls == calls and not fake.closed


def test_a_kernel_failing_its_self_check_is_not_used(kernel):
    fake = _FakeKernel(lambda data: _numpy_crc(data) ^ 1)
    kernel(lambda: fake)
    assert crc32c(LONG) == chained(LONG)
    assert fake.closed
    calls = fake.calls
    assert crc32c(LONG) == chained(LONG) and fake.calls == calls  # not asked again


def test_without_the_kernels_hash_the_checksum_is_numpys(kernel):
    def missing():
        raise OSError(97, "Address family not supported by protocol")
    kernel(missing)
    assert crc32c(LONG) == chained(LONG)
    assert crc32c_many([LONG, LONG[1:]]) == [chained(LONG), chained(LONG[1:])]


def test_a_kernel_failing_after_its_self_check_falls_back_to_numpy(kernel):
    state = {"fail": False}

    def digest(data):
        if state["fail"]:
            raise OSError("the socket broke")
        return _numpy_crc(data)
    kernel(lambda: _FakeKernel(digest))
    assert crc32c(LONG) == chained(LONG)
    state["fail"] = True
    assert crc32c(LONG[3:]) == chained(LONG[3:])


@settings(max_examples=12, deadline=None)
@given(st.integers(0, 3 << 20), st.integers(0, 7), st.integers(0, 2**32 - 1),
       st.lists(st.floats(0, 1), max_size=6), st.integers(0, 2**32 - 1))
def test_pieces_checksummed_on_threads_join_to_the_byte_loops_checksum(n, offset, start, cuts,
                                                                       seed):
    # each piece's register from 0 (the first's from `start`) on the kernels' helper
    # threads, joined by shifts past the later pieces' lengths, at any split points
    from tests.internals import crc32c_module
    data = memoryview(np.random.default_rng(seed).bytes(n + offset))[offset:]
    points = sorted({int(c * n) for c in cuts} | {0, n})
    bounds = list(zip(points, points[1:])) or [(0, 0)]
    got = crc32c_module.crc32c_of_pieces(bounds, lambda i: data[slice(*bounds[i])], start)
    assert got == chained(data, start, piece=2000)


def test_long_buffers_are_cut_into_pieces_only_while_helper_threads_are_free(monkeypatch):
    from tests.internals import crc32c_module, threads
    monkeypatch.setattr(threads, "adapt", lambda: None)  # (the load, as set here)
    monkeypatch.setattr(threads, "budget", lambda: 2)
    monkeypatch.setattr(threads, "contended", False)
    n = 5 * SEGMENTS + 1001
    bounds = crc32c_module.split(n)
    assert len(bounds) > 1 and bounds[0][0] == 0 and bounds[-1][1] == n
    assert all(a[1] == b[0] for a, b in zip(bounds, bounds[1:]))
    data = np.random.default_rng(1).bytes(n)
    expected = chained(data, 0x12345678, piece=2000)
    assert crc32c(data, 0x12345678) == expected
    assert crc32c_module.split(SEGMENTS) == [(0, SEGMENTS)]  # short: one piece
    monkeypatch.setattr(threads, "contended", True)  # other processes keep the cores busy
    assert crc32c_module.split(n) == [(0, n)]
    assert crc32c(data, 0x12345678) == expected
    monkeypatch.setattr(threads, "contended", False)
    monkeypatch.setattr(threads, "budget", lambda: 1)
    assert crc32c_module.split(n) == [(0, n)]


@settings(max_examples=6, deadline=None)
@given(st.lists(st.sampled_from([0, 1, 5000, SEGMENTS - 3, 2 * SEGMENTS, 3 * SEGMENTS + 33]),
                max_size=3), st.integers(0, 2**32 - 1))
def test_each_buffers_checksum_from_pieces_of_all_of_them_on_threads(sizes, seed):
    # (a checkpoint's tensors: short ones in one pass, the pieces of the others share the
    # helper threads, then each buffer's pieces are joined)
    from unittest import mock

    from tests.internals import crc32c_module
    rng = np.random.default_rng(seed)
    buffers = [rng.bytes(n) for n in sizes] + [rng.bytes(2 * SEGMENTS + 5), rng.bytes(70_000)]
    buffers += [rng.bytes(int(n)) for n in rng.integers(3000, 6000, 5)]  # (side by side)
    expected = [chained(b, piece=2000) for b in buffers]
    for free in (True, False):
        with mock.patch.object(crc32c_module, "_threads_free", lambda free=free: free):
            assert crc32c_module.crc32c_each(buffers) == expected
