"""The Philox helpers of the random ops: known answers, counters, the C library's float
functions, truncated-normal groups, multinomial row blocks and vectorized shuffles."""
import numpy as np
import pytest

from tests.internals import philox as P

H = float.fromhex


@pytest.mark.parametrize("counter,key,want", [  # Random123's known answers
    ([0, 0, 0, 0], [0, 0], [0x6627E8D5, 0xE169C58D, 0xBC57AC4C, 0x9B00DBD8]),
    ([0xFFFFFFFF] * 4, [0xFFFFFFFF] * 2, [0x408F276D, 0x41C83B0E, 0xA20BC7C6, 0x6D5451FD]),
    ([0x243F6A88, 0x85A308D3, 0x13198A2E, 0x03707344], [0xA4093822, 0x299F31D0],
     [0xD16CFE09, 0x94FDCCEB, 0x5001E420, 0x24126EA1]),
])
def test_philox4x32_10_known_answers(counter, key, want):
    c = sum(w << (32 * i) for i, w in enumerate(counter))
    k = key[0] | key[1] << 32
    assert P.blocks(np, k, c, 1)[0].tolist() == want


def test_counters_carry_across_64_bits_and_wrap_at_128():
    key = 12345
    assert P.blocks(np, key, 2**64 - 1, 2)[1].tolist() == P.blocks(np, key, 2**64, 1)[0].tolist()
    assert P.blocks(np, key, 2**128 - 1, 2)[1].tolist() == P.blocks(np, key, 0, 1)[0].tolist()


@pytest.mark.parametrize("x,want", [  # where the C library's float log is not correctly rounded
    ("0x1.172p-11", "-0x1.e270d6p+2"), ("0x1.540c2p-3", "-0x1.cba81ep+0"),
    ("0x1.a720bp-1", "-0x1.8673d8p-3"),
])
def test_logf_is_the_c_librarys(x, want):
    got = P._logf(np, np.array([H(x)], np.float32))[0]
    assert float(got) == H(want)
    assert float(got) != float(np.float32(np.log(H(x))))  # not the correctly rounded value


@pytest.mark.parametrize("x,sin,cos", [
    ("0x1.4e9462p-7", "0x1.4e92e6p-7", None), ("0x1.278046p-1", "0x1.175de4p-1", None),
    ("0x1.9eabfcp-5", None, "0x1.ff581ep-1"), ("0x1.5241a2p+0", None, "0x1.f9a7f4p-3"),
])
def test_sincosf_is_the_c_librarys(x, sin, cos):
    got_sin, got_cos = P._sincosf(np, np.array([H(x)], np.float32))
    for got, want in ((got_sin, sin), (got_cos, cos)):
        if want is not None:
            assert float(got[0]) == H(want)


@pytest.mark.parametrize("x,want", [  # where the C library's log is not correctly rounded
    ("0x1.a3ff621ade4f4p-1", "-0x1.95a8afbd23e12p-3"),
    ("0x1.c5a1e8ac0ff6fp-1", "-0x1.efc4d4b66170ap-4"),
    ("0x1.424bf9500e3a9p-1", "-0x1.d9f5d5c60084ap-2"),
    ("0x1.e197d145b8d03p-1", "-0x1.f58e872cad342p-5"),  # near 1: its own polynomial
    ("0x1.f1f38dd28287cp-1", "-0x1.c7d6abd6b4ca9p-6"),
])
def test_log_is_the_c_librarys(x, want):
    assert float(P._log(np, np.array([H(x)]))[0]) == H(want)


def test_log_functions_take_any_shape():
    xf = np.float32([H("0x1.172p-11"), H("0x1.540c2p-3"), H("0x1.a720bp-1"), 0.5]).reshape(2, 2)
    np.testing.assert_array_equal(P._logf(np, xf), P._logf(np, xf.ravel()).reshape(2, 2))
    np.testing.assert_array_equal(P._logf(np, xf.T), P._logf(np, xf.T.copy()))
    sin, cos = P._sincosf(np, xf.T * 9)
    np.testing.assert_array_equal(sin, P._sincosf(np, (xf.T * 9).ravel())[0].reshape(2, 2))
    xd = np.array([H("0x1.a3ff621ade4f4p-1"), H("0x1.e197d145b8d03p-1"), 0.5, 1e-7])
    np.testing.assert_array_equal(P._log(np, xd.reshape(2, 2).T), P._log(np, xd).reshape(2, 2).T)


def test_sincosf_agrees_with_numpy_to_one_ulp_over_the_box_muller_angles():
    v = (2 * np.pi * np.linspace(0, 1, 100001, endpoint=False)).astype(np.float32)
    sin, cos = P._sincosf(np, v)
    for got, want in ((sin, np.sin(v.astype(np.float64))), (cos, np.cos(v.astype(np.float64)))):
        assert np.abs(got - want).max() <= np.spacing(np.float32(1))


def test_truncated_normal_groups_read_their_own_part_of_the_stream():
    key, counter = P.stateless_key_counter(3, 4)
    whole = P.truncated_normal(np, key, counter, (4000,), np.float32)
    assert np.abs(whole).max() < 2
    for group in (0, 1, 517, 999):  # group g starts 256 blocks per group further
        alone = P.truncated_normal(np, key, counter + group * 256, (4,), np.float32)
        np.testing.assert_array_equal(whole[4 * group:4 * group + 4], alone)
    doubles = P.truncated_normal(np, key, counter, (10,), np.float64)
    np.testing.assert_array_equal(
        doubles[6:8], P.truncated_normal(np, key, counter + 3 * 128, (2,), np.float64))


def test_parallel_blocks():
    assert P._parallel_blocks(300, 8804, 2) == list(range(0, 300, 38))
    assert P._parallel_blocks(300, 8804, 1) == [0]
    assert P._parallel_blocks(2, 100, 8) == [0]  # too cheap to split


def _fisher_yates(key, counter, n):
    a = np.arange(n)
    w = P.words(np, key, counter, max(n - 1, 0))
    for i in range(n - 1):
        j = i + int(w[i]) % (n - i)
        a[i], a[j] = a[j], a[i]
    return a


@pytest.mark.parametrize("n", [0, 1, 2, 3, 5, 8, 17, 64, 1000])
def test_permutation_is_the_sequential_shuffle(n):
    for key in range(25):
        np.testing.assert_array_equal(P.permutation(np, key, 99, n), _fisher_yates(key, 99, n))


def test_multinomial_rows_without_finite_logits_give_the_class_count():
    key, counter = P.stateless_key_counter(1, 1)
    logits = np.array([[-np.inf, -np.inf], [np.nan, 0.0], [np.inf, 0.0]], np.float32)
    out = P.multinomial(np, key, counter, logits, 5, 1)
    np.testing.assert_array_equal(out, [[2] * 5, [1] * 5, [1] * 5])
