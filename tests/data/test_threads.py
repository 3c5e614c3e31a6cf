"""Background threads of pipelines (prefetch, parallel map and interleave) end with their
iterators: when dropped, on error, and at interpreter exit; a parallel map runs where its
work runs fastest."""
import gc
import subprocess
import sys
import textwrap
import threading
import time
import types

import numpy as np
import pytest

import eagerflow as tf
from tests.internals import data_parallel as parallel


def _prefetch_threads():
    return [t for t in threading.enumerate() if t.name == "eagerflow-prefetch"]


def _wait_for_no_prefetch_threads():
    deadline = time.monotonic() + 30  # a generous bound: the threads poll every 50 ms
    while _prefetch_threads() and time.monotonic() < deadline:
        gc.collect()
        time.sleep(0.01)
    return _prefetch_threads()


def test_dropped_iterator_stops_its_thread():
    ds = tf.data.Dataset.range(10**9).map(lambda x: x + 1).prefetch(4)
    it = iter(ds)
    assert int(next(it)) == 1
    assert _prefetch_threads()
    del it
    assert _wait_for_no_prefetch_threads() == []


def test_error_reaches_the_consumer_and_stops_the_thread():
    ds = tf.data.Dataset.from_tensor_slices([1.0, 0.0]).map(
        lambda x: tf.debugging.check_numerics(1.0 / x, "bad value")).prefetch(1)
    it = iter(ds)
    assert float(next(it)) == 1.0
    with pytest.raises(tf.errors.InvalidArgumentError, match="bad value"):
        next(it)
    del it
    assert _wait_for_no_prefetch_threads() == []


def _noting_dataset(count, signal_at):
    """A dataset of ``range(count)`` from a generator noting each value it makes, and an
    event set once it has made `signal_at` of them."""
    made, reached = [], threading.Event()

    def gen():
        for i in range(count):
            made.append(i)
            if len(made) == signal_at:
                reached.set()
            yield i
    return (tf.data.Dataset.from_generator(gen, output_signature=tf.TensorSpec([], tf.int32)),
            made, reached)


def test_prefetch_overlaps_the_producer():
    # the producer runs while the consumer waits: without another read, the buffer fills
    ds, _, filled = _noting_dataset(10, 4)  # (one taken, three buffered)
    it = iter(ds.prefetch(3))
    next(it)
    assert filled.wait(timeout=120)  # (a bound for a hang, not a timing)
    assert [int(x) for x in it] == list(range(1, 10))


def test_parallel_map_error_and_order():
    ds = tf.data.Dataset.range(20).map(
        lambda x: tf.debugging.check_numerics(1.0 / tf.cast(x - 7, tf.float32), "seven"),
        num_parallel_calls=4)
    it = iter(ds)
    got = [float(next(it)) for _ in range(7)]
    assert got == [float(np.float32(1.0) / np.float32(x - 7)) for x in range(7)]
    with pytest.raises(tf.errors.InvalidArgumentError, match="seven"):
        next(it)


def test_interpreter_exits_with_pipelines_running():
    program = textwrap.dedent("""
        import eagerflow as tf
        ds = tf.data.Dataset.range(10**9).map(lambda x: x * 2, num_parallel_calls=4)
        it = iter(ds.prefetch(8))
        it2 = iter(tf.data.Dataset.range(5).interleave(
            lambda x: tf.data.Dataset.range(10**9), cycle_length=2, num_parallel_calls=2))
        print(int(next(it)), int(next(it2)))
    """)
    proc = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True,
                          timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.split() == ["0", "0"]


def test_parallel_map_gives_the_sequential_values():
    x = np.random.default_rng(0).random((200, 16, 16), dtype=np.float32)

    def f(a):
        b = tf.nn.relu(tf.matmul(a, a) + 1.0 - 3.0) * 2.0
        return tf.reduce_sum(tf.tanh(b) + tf.exp(-b), axis=0)
    ds = tf.data.Dataset.from_tensor_slices(x)
    sequential = np.stack([e.numpy() for e in ds.map(f)])
    parallel = np.stack([e.numpy() for e in ds.map(f, num_parallel_calls=8)])
    np.testing.assert_array_equal(parallel, sequential)


def test_an_iterator_never_read_reads_nothing():
    # as TF's prefetch, whose thread starts with the first element asked for
    made = []
    ds = tf.data.Dataset.range(10**9).map(
        lambda x: tf.py_function(lambda v: made.append(int(v)) or v, [x], tf.int64))
    it = iter(ds.prefetch(2))
    time.sleep(0.2)  # (time a started thread would have had to read; not asserted on)
    assert made == [] and not _prefetch_threads()
    del it
    assert _wait_for_no_prefetch_threads() == []


def test_prefetch_reads_its_buffer_size_ahead():
    # TF's prefetch(n) makes at most n elements the consumer has not taken yet
    ds, made, ahead = _noting_dataset(100, 4)  # (two taken, two ahead)
    it = iter(ds.prefetch(2))
    assert [int(next(it)), int(next(it))] == [0, 1]
    assert ahead.wait(timeout=120)  # (a bound for a hang, not a timing)
    time.sleep(0.2)  # (time to read further, which it must not)
    assert len(made) == 4
    del it
    assert _wait_for_no_prefetch_threads() == []


def test_nondeterministic_parallel_map_lets_fast_elements_pass_a_slow_one():
    # element 0 ends only once another element has reached the consumer: an unordered map
    # hands the others out meanwhile (an ordered one would wait for element 0 first)
    passed = threading.Event()

    def slow_first(x):
        if int(x) == 0:
            assert passed.wait(timeout=120), "no element passed element 0"
        return x

    ds = tf.data.Dataset.range(6).map(lambda x: tf.py_function(slow_first, [x], tf.int64),
                                      num_parallel_calls=3, deterministic=False)
    got = []
    for x in ds:
        got.append(int(x))
        passed.set()
    assert sorted(got) == list(range(6)) and got[0] != 0
    ordered = tf.data.Dataset.range(6).map(lambda x: x * 2, num_parallel_calls=3)
    assert [int(x) for x in ordered] == list(range(0, 12, 2))


class _Clock:
    """A clock for `parallel_map` on which work takes what the test says, whatever else the
    machine runs: the consumer's thread (the test's) counts its own work and its time
    between elements; the pool's threads count from the consumer's last reading (when it
    handed the pool its first chunks) plus the pool's work since, which overlaps across the
    pool's `threads` when it leaves the interpreter lock and runs one element at a time
    when it holds it."""

    def __init__(self, threads):
        self.consumer, self.threads = threading.get_ident(), threads
        self.own = self.read = self.pool = 0.0
        self.lock = threading.Lock()

    def perf_counter(self):
        if threading.get_ident() == self.consumer:
            self.read = self.own
            return self.own
        with self.lock:
            return self.read + self.pool

    def work(self, seconds, leaves_the_lock):
        if threading.get_ident() == self.consumer:
            self.own += seconds
        else:
            with self.lock:
                self.pool += seconds / self.threads if leaves_the_lock else seconds

    def consume(self, seconds):
        self.own += seconds


def _threads_used(monkeypatch, seconds, leaves_the_lock, n=120, consume=0.0, threads=4):
    """The threads a parallel map over `n` elements ran its work on, element by element
    (each element's work taking `seconds`, the consumer's own time after each `consume`),
    timed by a `_Clock`."""
    clock = _Clock(threads)
    monkeypatch.setattr(parallel, "time", types.SimpleNamespace(perf_counter=clock.perf_counter))
    seen = []

    def record(x):
        seen.append(threading.get_ident())
        clock.work(seconds, leaves_the_lock)
        return x

    ds = tf.data.Dataset.range(n).map(
        lambda x: tf.py_function(record, [x], tf.int64), num_parallel_calls=threads)
    got = []
    for x in ds:
        got.append(int(x))
        clock.consume(consume)
    assert got == list(range(n))
    return seen


def test_parallel_map_of_python_work_moves_to_the_consumers_thread(monkeypatch):
    # threads cannot run Python-level work at once: after timing both, the map runs
    # where it is consumed instead of paying for the hand-overs
    seen = _threads_used(monkeypatch, 0.001, leaves_the_lock=False)
    assert seen.count(threading.get_ident()) > len(seen) // 2


def test_parallel_map_of_work_that_leaves_the_lock_stays_on_the_pool(monkeypatch):
    seen = _threads_used(monkeypatch, 0.01, leaves_the_lock=True)
    assert seen.count(threading.get_ident()) < len(seen) // 2


def test_a_slow_consumer_does_not_count_against_the_pool(monkeypatch):
    # the pool is timed by when its chunks end, not by when they are consumed
    seen = _threads_used(monkeypatch, 0.01, leaves_the_lock=True, n=40, consume=0.02)
    assert seen.count(threading.get_ident()) < len(seen) // 2


def _consume_from_threads(iterator, threads=4, take=next):
    """Every element `take` gets from `iterator` in `threads` threads at once, till its end
    (or a thread still blocked after a minute: a hang)."""
    got, failures = [], []

    def consume():
        try:
            while True:
                got.append(take(iterator))
        except (StopIteration, tf.errors.OutOfRangeError):
            pass
        except BaseException as e:  # raised in the test below
            failures.append(e)
    workers = [threading.Thread(target=consume, daemon=True) for _ in range(threads)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join(timeout=60)
    assert not any(worker.is_alive() for worker in workers), "a consumer hung"
    if failures:
        raise failures[0]
    return sorted(int(v) for v in got)


def test_an_iterator_shared_by_threads_hands_out_each_element_once():
    def numbers():
        yield from range(200)
    ds = tf.data.Dataset.from_generator(numbers, output_signature=tf.TensorSpec([], tf.int32))
    ds = ds.map(lambda x: x * 2, num_parallel_calls=3).prefetch(4)
    assert _consume_from_threads(iter(ds)) == [2 * i for i in range(200)]


def test_get_next_from_threads_ends_with_out_of_range_in_each():
    ds = tf.data.Dataset.from_generator(lambda: iter(range(100)),
                                        output_signature=tf.TensorSpec([], tf.int64))
    iterator = iter(ds.prefetch(2))
    assert _consume_from_threads(iterator, take=lambda it: it.get_next()) == list(range(100))
    assert not iterator.get_next_as_optional().has_value()
