"""Element-wise kernels in parts on the intra-op threads: the whole call's results bit for bit."""
import threading

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import eagerflow as tf
from tests.internals import registry, threads


@pytest.fixture
def idle(monkeypatch):
    """Three intra-op threads on cores no other process loads."""
    monkeypatch.setattr(threads, "budget", lambda: 3)
    monkeypatch.setattr(threads, "contended", False)
    monkeypatch.setattr(threads, "_next", float("inf"))  # (no look at the real load)


def _spy(monkeypatch):
    """Counts the parts `in_chunks` is asked to run."""
    parts = []
    in_chunks = threads.in_chunks

    def spy(count, run):
        parts.append(count)
        return in_chunks(count, run)
    monkeypatch.setattr(threads, "in_chunks", spy)
    return parts


_KERNELS = [np.add, np.multiply, np.maximum, np.less, np.subtract,
            registry.get("Relu").host_kernel, registry.get("ReluGrad").host_kernel]


@st.composite
def _operands(draw):
    """Two operands broadcasting together (perhaps empty, strided or reversed) and the
    kernel to run on them."""
    kernel = draw(st.sampled_from(_KERNELS))
    shape = draw(hnp.array_shapes(min_dims=1, max_dims=4, min_side=0, max_side=9))
    if kernel is _KERNELS[-1]:  # ReluGrad: two operands of one shape
        shapes = [shape, shape]
    elif kernel is _KERNELS[-2]:  # Relu: one
        shapes = [shape]
    else:
        other = list(shape[draw(st.integers(0, len(shape))):])
        other = [1 if draw(st.booleans()) else d for d in other]
        shapes = [shape, tuple(other)] if draw(st.booleans()) else [tuple(other), shape]
    dtype = draw(st.sampled_from([np.float32, np.float64, np.int32]))
    arrays = []
    for s in shapes:
        a = draw(hnp.arrays(dtype, s, elements=st.integers(-50, 50)))
        if a.ndim and draw(st.booleans()):  # not contiguous
            a = np.repeat(a, 2, axis=0)[::2] if draw(st.booleans()) else a[::-1]
        arrays.append(a)
    return kernel, arrays


@settings(max_examples=150, deadline=None)
@given(_operands(), st.booleans())
def test_parts_give_the_whole_calls_results(case, into):
    kernel, arrays = case
    mp = pytest.MonkeyPatch()
    try:
        mp.setattr(threads, "budget", lambda: 3)
        mp.setattr(threads, "contended", False)
        mp.setattr(threads, "_next", float("inf"))
        expected = kernel(*arrays)
        split = threads.split_elementwise(kernel, min_size=2)
        if into:  # into an array of the result's shape: a new one, or an operand (in place)
            k = next((i for i, a in enumerate(arrays)
                      if a.shape == expected.shape and a.dtype == expected.dtype), None)
            out = np.empty_like(expected) if k is None else arrays[k].copy()
            args = arrays if k is None else arrays[:k] + [out] + arrays[k + 1:]
            result = split(*args, out=out)
            assert result is out
        else:
            result = split(*arrays)
        assert result.dtype == expected.dtype and result.shape == expected.shape
        np.testing.assert_array_equal(result, expected)
    finally:
        mp.undo()


def test_large_results_run_in_parts_writing_into_one_array(idle, monkeypatch):
    parts = _spy(monkeypatch)
    x = np.arange(3 * threads.SPLIT_SIZE * 2, dtype=np.float32).reshape(6, -1)
    y = np.linspace(-1, 1, x.shape[1], dtype=np.float32)
    split = threads.split_elementwise(np.multiply)
    np.testing.assert_array_equal(split(x, y), x * y)
    assert parts == [3]
    assert split(x, y, out=x) is x  # in place
    np.testing.assert_array_equal(x, np.arange(x.size, dtype=np.float32).reshape(6, -1) * y)
    split(x[:1, :10], y[:10])  # too small for two parts
    assert parts == [3, 3]
    ones = np.ones((1, 2, 2 * threads.SPLIT_SIZE))  # parts along the first axis long enough
    np.testing.assert_array_equal(threads.split_elementwise(np.add)(ones, 1.0), ones + 1)
    assert parts == [3, 3, 3]


def test_an_output_overlapping_an_operand_otherwise_runs_whole(idle, monkeypatch):
    parts = _spy(monkeypatch)
    base = np.arange(4 * threads.SPLIT_SIZE, dtype=np.float64).reshape(4, -1)
    x, y = base.copy(), base.copy()
    np.add(x[::-1], 1.0, out=x)
    threads.split_elementwise(np.add)(y[::-1], 1.0, out=y)
    np.testing.assert_array_equal(y, x)
    assert parts == []


@pytest.mark.parametrize("setting", ["budget of one", "loaded", "nested"])
def test_runs_whole_on_one_thread_under_load_or_nested(idle, monkeypatch, setting):
    x = np.ones((8, threads.SPLIT_SIZE), np.float32)
    calls = []

    def add(*args, out=None):
        calls.append(args[0].shape)
        return np.add(*args, out=out)
    split = threads.split_elementwise(add)
    if setting == "budget of one":
        monkeypatch.setattr(threads, "budget", lambda: 1)
        split(x, x)
    elif setting == "loaded":
        monkeypatch.setattr(threads, "contended", True)
        split(x, x)
    else:
        threads.in_chunks(2, lambda i: split(x, x))
        calls = calls[:1]
    assert calls == [x.shape]


def test_several_threads_at_once(idle):
    split = threads.split_elementwise(np.subtract)
    rng = np.random.default_rng(0)
    inputs = [rng.standard_normal((16, threads.SPLIT_SIZE // 4)).astype(np.float32)
              for _ in range(6)]
    results, failures = {}, []

    def work(i):
        try:
            for _ in range(5):
                results[i] = split(inputs[i], inputs[i - 1])
                np.testing.assert_array_equal(results[i], inputs[i] - inputs[i - 1])
        except BaseException as e:  # noqa: BLE001 (reported below)
            failures.append(e)
    workers = [threading.Thread(target=work, args=(i,)) for i in range(6)]
    for w in workers:
        w.start()
    for w in workers:
        w.join()
    assert not failures and len(results) == 6


def test_compiled_functions_split_large_elementwise_ops(idle, monkeypatch):
    parts = _spy(monkeypatch)
    rng = np.random.default_rng(1)
    a = rng.standard_normal((32, 32, 32, 32)).astype(np.float32)
    b = rng.standard_normal((32, 32, 32, 32)).astype(np.float32)

    @tf.function
    def step(a, b):
        with tf.GradientTape() as tape:
            tape.watch(a)
            y = tf.nn.relu(a + b) * 0.5
        return y, tape.gradient(y, a)

    y, da = step(tf.constant(a), tf.constant(b))
    np.testing.assert_array_equal(y.numpy(), np.maximum(a + b, 0) * np.float32(0.5))
    np.testing.assert_array_equal(da.numpy(), np.where(a + b > 0, np.float32(0.5), 0))
    assert parts and all(p == 3 for p in parts)
    parts.clear()
    step(tf.constant(a[:1, :2]), tf.constant(b[:1, :2]))  # small: whole
    assert parts == []
