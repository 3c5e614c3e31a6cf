"""One thread budget: tf.config.threading caps OpenBLAS and OpenMP; BLAS steps down under load."""
import subprocess
import sys

import numpy as np
import pytest

import eagerflow as tf
from tests.internals import onednn, threads

needs_blas = pytest.mark.skipif(threads.blas_threads() is None,
                                reason="NumPy does not use OpenBLAS here")


@pytest.fixture
def restore_budget(monkeypatch):
    # BLAS runs serially once oneDNN has loaded (see below): these tests are about the budget
    monkeypatch.setattr(threads, "_openmp_in_use", False)
    yield
    monkeypatch.undo()
    tf.config.threading.set_intra_op_parallelism_threads(0)


@needs_blas
def test_intra_op_threads_cap_blas_and_openmp(restore_budget):
    tf.config.threading.set_intra_op_parallelism_threads(1)
    assert tf.config.threading.get_intra_op_parallelism_threads() == 1
    assert threads.blas_threads() == 1
    tf.matmul(tf.ones((64, 64)), tf.ones((64, 64)))  # a product looks at the load
    assert threads.blas_threads() == 1
    if onednn.enabled():
        assert threads.openmp_threads() == 1
    tf.config.threading.set_intra_op_parallelism_threads(0)
    assert tf.config.threading.get_intra_op_parallelism_threads() == 0
    if not threads.contended:
        assert threads.blas_threads() == min(threads.cores(), threads.budget())
    if onednn.enabled():
        assert threads.openmp_threads() == threads.cores()


def test_a_budget_set_before_onednn_loads_applies_to_its_kernels():
    code = ("import eagerflow as tf\n"
            "tf.config.threading.set_intra_op_parallelism_threads(1)\n"
            "tf.nn.max_pool2d(tf.ones((1, 4, 4, 1)), 2, 2, 'VALID')\n"
            "from eagerflow._src.backend import onednn, threads\n"
            "print(onednn.enabled() and threads.openmp_threads())")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout.strip()
    assert out in ("1", "False")


def _fake_load(monkeypatch, others):
    """Makes the cores look busy with `others` cores' worth of other processes' work."""
    clock = {"wall": 0.0}
    monkeypatch.setattr(threads.time, "monotonic", lambda: clock["wall"])
    monkeypatch.setattr(threads.time, "process_time", lambda: 0.0)
    monkeypatch.setattr(threads, "_busy_seconds", lambda cpus: others * clock["wall"])
    monkeypatch.setattr(threads, "_others_running", lambda: round(others))
    monkeypatch.setattr(threads, "_last", None)
    monkeypatch.setattr(threads, "_next", 0.0)
    monkeypatch.setattr(threads, "contended", False)
    monkeypatch.setattr(threads, "cores", lambda: 2)

    def tick():
        clock["wall"] += threads.INTERVAL
        tf.matmul(tf.ones((8, 8)), tf.ones((8, 8)))
    tick.clock = clock
    return tick


@needs_blas
@pytest.mark.parametrize("others, expected", [(1.5, 1), (0.0, 2)])
def test_blas_steps_down_while_other_processes_are_busy(restore_budget, monkeypatch, others,
                                                        expected):
    tick = _fake_load(monkeypatch, others)
    monkeypatch.setattr(threads, "_blas_default", 2)
    tick()
    assert threads.blas_threads() == expected  # from the threads running at first sight
    tick()
    assert threads.blas_threads() == expected  # from the CPU time others took since
    assert np.allclose(tf.matmul(tf.ones((3, 4)), tf.ones((4, 2))).numpy(), 4.0)


@needs_blas
def test_a_budget_of_one_stays_one_when_idle(restore_budget, monkeypatch):
    tf.config.threading.set_intra_op_parallelism_threads(1)
    tick = _fake_load(monkeypatch, 0.0)
    tick()
    tick()
    assert threads.blas_threads() == 1


@pytest.mark.skipif(not onednn.enabled(), reason="oneDNN is not available here")
@pytest.mark.parametrize("others, expected", [(1.5, 1), (0.0, 2)])
def test_onednn_kernels_step_down_while_other_processes_are_busy(monkeypatch, others,
                                                                 expected):
    tick = _fake_load(monkeypatch, others)
    monkeypatch.setattr(threads, "budget", lambda: 2)
    x = np.arange(32, dtype=np.float32).reshape(1, 4, 4, 2)
    for _ in range(2):
        tick()
        y = tf.nn.max_pool2d(x, 2, 2, "VALID")
    assert threads.openmp_threads() == expected
    assert y.numpy().ravel().tolist() == [10, 11, 14, 15, 26, 27, 30, 31]


@needs_blas
@pytest.mark.parametrize("running, expected", [(0, 2), (2, 1)])
def test_a_pause_goes_by_the_processes_running_when_it_ends(restore_budget, monkeypatch,
                                                           running, expected):
    tick = _fake_load(monkeypatch, 0.0)
    monkeypatch.setattr(threads, "_blas_default", 2)
    tick()
    tick()
    assert threads.blas_threads() == 2
    # this process waits ten seconds (for its input, say) while others keep both cores busy
    busy = {"seconds": 0.0}
    monkeypatch.setattr(threads, "_busy_seconds", lambda cpus: busy["seconds"])
    monkeypatch.setattr(threads, "_others_running", lambda: running)
    tick.clock["wall"] += 10.0
    busy["seconds"] += 20.0
    tick()
    assert threads.blas_threads() == expected
    assert threads.contended == (expected == 1)


@needs_blas
def test_work_others_did_while_this_process_waited_is_no_contention(restore_budget,
                                                                    monkeypatch):
    # another process keeps both cores busy while this one waits (for it, say, taking
    # turns), and is asleep whenever this one looks: both cores stay this one's
    tick = _fake_load(monkeypatch, 1.5)
    monkeypatch.setattr(threads, "_others_running", lambda: 0)
    monkeypatch.setattr(threads, "_blas_default", 2)
    for _ in range(3):
        tick()
        assert threads.blas_threads() == 2 and not threads.contended


@needs_blas
def test_others_seen_running_once_are_looked_at_again_soon(restore_budget, monkeypatch):
    tick = _fake_load(monkeypatch, 0.0)
    monkeypatch.setattr(threads, "_blas_default", 2)
    running = {"now": 0}
    monkeypatch.setattr(threads, "_others_running", lambda: running["now"])

    def look_after(seconds):
        tick.clock["wall"] += seconds
        tf.matmul(tf.ones((8, 8)), tf.ones((8, 8)))
        return threads.contended, threads.blas_threads()
    tick()
    # after a pause, another process's threads in their last moments
    running["now"] = 1
    assert look_after(10.0) == (True, 1)
    running["now"] = 0
    assert look_after(threads.RECHECK) == (False, 2)  # long before the next INTERVAL
    # others that keep running stay contention
    running["now"] = 2
    monkeypatch.setattr(threads, "_busy_seconds", lambda cpus: 1.5 * tick.clock["wall"])
    assert look_after(threads.INTERVAL) == (True, 1)
    assert look_after(threads.RECHECK) == (True, 1)
    assert look_after(threads.INTERVAL) == (True, 1)


@needs_blas
def test_a_fixed_budget_holds_under_load(restore_budget, monkeypatch):
    tick = _fake_load(monkeypatch, 1.5)
    monkeypatch.setattr(threads, "_blas_default", 2)
    threads.set_fixed(True)
    try:
        tick()
        tick()
        assert threads.blas_threads() == 2 and not threads.contended
    finally:
        threads.set_fixed(False)
    tick()
    tick()
    assert threads.blas_threads() == 1


def test_op_determinism_holds_the_thread_count():
    code = ("import eagerflow as tf\n"
            "from eagerflow._src.backend import threads\n"
            "before = threads._fixed\n"
            "tf.config.experimental.enable_op_determinism()\n"
            "print(before, threads._fixed)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout.strip()
    assert out == "False True"


@needs_blas
@pytest.mark.skipif(not onednn.enabled(), reason="oneDNN is not available here")
def test_blas_runs_serially_once_native_kernels_load():
    code = ("import eagerflow as tf\n"
            "from eagerflow._src.backend import threads\n"
            "tf.matmul(tf.ones((64, 64)), tf.ones((64, 64)))\n"
            "before = threads.blas_threads()\n"
            "tf.nn.conv2d(tf.ones((1, 8, 8, 1)), tf.ones((3, 3, 1, 2)), 1, 'SAME')\n"
            "tf.matmul(tf.ones((64, 64)), tf.ones((64, 64)))\n"
            "print(before, threads.blas_threads(), threads.contended)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         env=dict(__import__("os").environ, OPENBLAS_NUM_THREADS="2"),
                         check=True).stdout.split()
    assert int(out[1]) == 1  # (before the convolution: 2, unless the machine was busy)


@pytest.mark.skipif(not onednn.enabled(), reason="oneDNN is not available here")
def test_kernels_that_share_the_cores_keep_the_budget_under_load(monkeypatch):
    tick = _fake_load(monkeypatch, 1.5)
    monkeypatch.setattr(threads, "budget", lambda: 2)
    x = tf.constant(np.arange(2 * 6 * 6 * 3, dtype=np.float32).reshape(2, 6, 6, 3) / 100)
    w = tf.Variable(np.ones((3, 3, 3, 4), np.float32))
    tick()
    tick()
    with tf.GradientTape() as tape:
        y = tf.nn.conv2d(x, w, 1, "SAME")
    # the convolution waits at OpenMP's passive barriers: twice as many threads as the
    # budget, each getting its share of the busy cores, as TF keeps its pools
    assert threads.contended and threads.openmp_threads() == 2 * threads.CONTENDED_SHARES
    dw = tape.gradient(y, w)
    # the filter gradient's kernel spins while its threads meet: one thread under load
    assert threads.openmp_threads() == 1
    # the centre tap sees every position of its input channel
    sums = x.numpy().sum(axis=(0, 1, 2))
    np.testing.assert_allclose(dw.numpy()[1, 1], np.repeat(sums[:, None], 4, 1), rtol=1e-5)


@pytest.mark.skipif(not onednn.enabled(), reason="oneDNN is not available here")
def test_short_element_wise_kernels_run_on_one_thread_under_load(monkeypatch):
    tick = _fake_load(monkeypatch, 1.5)
    monkeypatch.setattr(threads, "budget", lambda: 2)
    tick()
    tick()
    n = 1 << 18  # (as large as oneDNN takes them)
    features = np.where(np.arange(n) % 3, 1.0, -1.0).astype(np.float32)
    grads = tf.raw_ops.ReluGrad(gradients=np.full(n, 2.0, np.float32), features=features)
    assert threads.contended and threads.openmp_threads() == 1
    np.testing.assert_array_equal(grads.numpy(), np.where(features > 0, 2.0, 0.0))


@pytest.mark.skipif(not onednn.enabled(), reason="oneDNN is not available here")
def test_a_budget_set_caps_the_kernels_that_share_the_cores_under_load(restore_budget,
                                                                       monkeypatch):
    """More threads than the budget only where no budget was set."""
    tick = _fake_load(monkeypatch, 1.5)
    tf.config.threading.set_intra_op_parallelism_threads(2)
    x = tf.constant(np.arange(2 * 6 * 6 * 3, dtype=np.float32).reshape(2, 6, 6, 3) / 100)
    tick()
    tick()
    y = tf.nn.conv2d(x, np.ones((3, 3, 3, 4), np.float32), 1, "SAME")
    assert threads.contended and threads.openmp_threads() == 2
    np.testing.assert_allclose(y.numpy()[0, 1, 1], [x.numpy()[0, :3, :3].sum()] * 4,
                               rtol=1e-5)


def test_work_in_chunks_returns_results_in_order_and_raises_failures(monkeypatch):
    monkeypatch.setattr(threads, "budget", lambda: 3)
    seen = set()

    def square(i):
        seen.add(threads.slot())
        return i * i
    assert threads.in_chunks(7, square) == [i * i for i in range(7)]
    assert threads.in_chunks(1, square) == [0]

    def fail(i):
        if i == 4:
            raise ValueError("chunk 4")
        return i
    with pytest.raises(ValueError, match="chunk 4"):
        threads.in_chunks(6, fail)
    assert threads.in_chunks(5, lambda i: threads.in_chunks(2, lambda j: (i, j))) == [
        [(i, 0), (i, 1)] for i in range(5)]
    assert seen <= {0, 1, 2}


def test_openmp_is_opened_once():
    """Primitives switch the OpenMP count many times a step: the library is looked up once."""
    if not onednn.enabled():
        pytest.skip("oneDNN (and its OpenMP) is not available here")
    first = threads._openmp()
    assert first is not None and threads._openmp() is first
    for n in (1, 2, 1):
        threads._set_openmp(n)
        assert threads.openmp_threads() == n
    tf.config.threading.set_intra_op_parallelism_threads(0)


def test_the_instant_count_of_other_processes_leaves_out_this_ones_threads():
    # (OpenBLAS's threads spin on after a product: counted as other processes, they made an
    # idle machine look busy at the first look after a pause)
    import threading
    stop = threading.Event()
    big = np.ones((256, 256), np.float32)

    def work():  # products release the interpreter lock: this thread stays runnable
        while not stop.is_set():
            big @ big

    worker = threading.Thread(target=work)
    worker.start()
    try:
        own = max(threads._own_running() for _ in range(20))
    finally:
        stop.set()
        worker.join()
    assert own >= 2
    assert threads._others_running() >= 0
