"""A few Philox blocks are computed on Python integers: the same bits as the NumPy path."""
import random

import numpy as np

from tests.internals import philox


def _vector_blocks(key, counter, n):
    counter &= 2 ** 128 - 1
    start = counter & (2 ** 64 - 1)
    lo = np.arange(n, dtype=np.uint64) + np.uint64(start)
    hi = np.where(lo < np.uint64(start), np.uint64(((counter >> 64) + 1) & (2 ** 64 - 1)),
                  np.uint64(counter >> 64))
    return philox.blocks_at(np, key, lo, hi)


def test_few_blocks_equal_the_vectorized_rounds():
    rng = random.Random(0)
    counters = [0, 2 ** 64 - 3, 2 ** 128 - 2, (2 ** 64 - 1) << 64 | (2 ** 64 - 2)]
    for _ in range(500):
        key = rng.getrandbits(64)
        counter = rng.choice(counters + [rng.getrandbits(128)])  # with carries past 2**64
        n = rng.randint(0, 8)
        got = philox.blocks(np, key, counter, n)
        assert got.dtype == np.uint32 and got.shape == (n, 4)
        np.testing.assert_array_equal(got, _vector_blocks(key, counter, n))


def test_a_known_answer():
    assert [hex(w) for w in philox.blocks(np, 0, 0, 1)[0].tolist()] == [
        "0x6627e8d5", "0xe169c58d", "0xbc57ac4c", "0x9b00dbd8"]
