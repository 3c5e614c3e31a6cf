"""One thread budget for the native libraries: NumPy's OpenBLAS and oneDNN's OpenMP.

Both libraries keep a pool of worker threads. ``intra_op_parallelism_threads``
(`set_budget`; 0 means every core this process may run on) caps both.

OpenBLAS's workers busy-wait for each other inside a product: when another
process keeps the cores busy, a descheduled worker stalls the rest, and a
step takes ten times longer than on one thread. So the BLAS runs on the whole
budget only while the machine is otherwise idle: `adapt`, called before
matrix products, looks every `INTERVAL` seconds at how much CPU time the
cores spent outside this process and at the threads of others runnable at
that instant, and drops OpenBLAS to one thread while others keep more than
half a core busy and are running still (`set_fixed` holds the budget instead, for
reproducible results). oneDNN's kernels spin in barriers of
their own (batch normalization ran a hundred times slower on two threads
under load), so its OpenMP count follows the same choice, except for kernels
whose threads meet only at OpenMP's own (passive) barriers: convolutions and
their input gradients. Those keep the budget (twice the default one, see
`CONTENDED_SHARES`), as TensorFlow keeps its thread pools, for the cores' fair share. A
oneDNN primitive fixes its thread count when it is built (and sizes its scratch memory for
it), so the choice is part of the primitive cache's key: `for_primitive`,
called when a kernel looks its primitive up, sets the calling thread's
OpenMP count and returns it.

>>> budget() >= 1
True
"""
import ctypes
import os
import threading
import time

import numpy as np

INTERVAL = 0.2     # seconds between two looks at the machine's load
BUSY_OTHERS = 0.5  # cores' worth of other processes' work that counts as contention
STALE = 2          # a look this many INTERVALs after the last one goes by the instant
RECHECK = 0.02     # seconds to the next look where that instant found others running

_lock = threading.Lock()
_local = threading.local()  # this thread's OpenMP count, as last set
_budget = 0           # intra-op threads asked for; 0: the default
_blas = None          # (set, get) of the loaded OpenBLAS, False when there is none
_blas_default = None  # OpenBLAS's own thread count at first sight (its environment's)
_blas_now = None      # the count last given to OpenBLAS
_next = 0.0           # monotonic time of the next look at the load
_last = None          # (wall, this process's CPU seconds, busy CPU seconds of our cores)
contended = False     # whether the last look found other processes busy
_fixed = False        # the budget holds whatever the load (for reproducible results)
_openmp_in_use = False  # oneDNN is loaded: its OpenMP threads get the cores, BLAS runs serially


def cores():
    """The cores this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):  # pragma: no cover - not Linux
        return os.cpu_count() or 1


def _find_blas():
    """(set, get) of the OpenBLAS that NumPy loaded (its exported names tell), with the
    setters of any other loaded copy (SciPy's) in the set; False when there is none."""
    global _blas, _blas_default
    if _blas is None:
        found = []
        try:
            with open("/proc/self/maps") as maps:
                paths = {line.split(None, 5)[-1].strip() for line in maps if "openblas" in line}
        except OSError:  # pragma: no cover - no procfs
            paths = ()
        for path in sorted(p for p in paths if p.startswith("/")):
            try:
                lib = ctypes.CDLL(path, mode=getattr(os, "RTLD_NOLOAD", 0))
            except OSError:  # pragma: no cover
                continue
            # NumPy's wheels prefix and suffix the names; plain builds have neither
            for prefix, suffix in (("scipy_openblas", "64_"), ("scipy_openblas", ""),
                                   ("openblas", "64_"), ("openblas", "")):
                setter = getattr(lib, f"{prefix}_set_num_threads{suffix}", None)
                getter = getattr(lib, f"{prefix}_get_num_threads{suffix}", None)
                if setter is not None and getter is not None:
                    setter.argtypes, setter.restype = (ctypes.c_int,), None
                    getter.argtypes, getter.restype = (), ctypes.c_int
                    found.append((setter, getter))
                    break
        if found:
            # NumPy's copy (numpy.libs sorts before scipy.libs) reads first
            _blas_default = max(found[0][1](), 1)
            setters = [setter for setter, _ in found]
            _blas = (lambda n: [setter(n) for setter in setters], found[0][1])
        else:
            _blas = False
    return _blas


def _openmp():
    """GNU OpenMP's library once something (oneDNN) has loaded it, else None."""
    global _gomp
    if _gomp is not None:  # (a loaded library stays: opening it again costs 20-80 us)
        return _gomp
    try:
        lib = ctypes.CDLL("libgomp.so.1", mode=os.RTLD_NOLOAD)
    except (OSError, AttributeError):
        return None
    lib.omp_set_num_threads.argtypes, lib.omp_set_num_threads.restype = (ctypes.c_int,), None
    lib.omp_get_max_threads.argtypes, lib.omp_get_max_threads.restype = (), ctypes.c_int
    _gomp = lib
    return lib


_gomp = None  # the library `_openmp` found


def budget():
    """The threads each native library may use: the budget set, else ``OMP_NUM_THREADS``
    as this process started with, else every core."""
    return _budget or _default


def _environment_default():
    try:
        return max(min(int(os.environ.get("OMP_NUM_THREADS", "")), cores()), 1)
    except ValueError:
        return cores()


_default = _environment_default()


def _blas_ceiling():
    if _openmp_in_use:
        return 1
    if _budget:
        return _budget
    blas = _find_blas()
    # OPENBLAS_NUM_THREADS / OMP_NUM_THREADS as OpenBLAS read them at load, capped by cores
    return min(_blas_default or cores(), cores()) if blas else cores()


def _set_blas(n):
    global _blas_now
    blas = _find_blas()
    if blas and n != _blas_now:
        blas[0](n)
        _blas_now = n


def set_budget(threads):
    """Caps OpenBLAS and OpenMP at `threads` (0: the default, every core)."""
    global _budget, _next
    with _lock:
        _budget = max(int(threads), 0)
        _next = 0.0  # look at the load again on the next product
        _set_blas(1 if contended else _blas_ceiling())
        _set_openmp(budget())  # other threads set theirs before their next primitive


def set_fixed(flag):
    """Holds the budget whatever the machine's load (True), or adapts to it again (False).

    oneDNN's reductions (batch normalization's statistics, filter gradients)
    sum in an order that depends on the thread count, so results differ in
    the last bits between one thread and two: reproducible results need a
    count that does not follow other processes.
    """
    global _fixed, _next
    with _lock:
        _fixed, _next = bool(flag), 0.0


def blas_threads():
    """OpenBLAS's current thread count (None without OpenBLAS)."""
    blas = _find_blas()
    return blas[1]() if blas else None


def openmp_threads():
    """The calling thread's OpenMP thread count (None before OpenMP is loaded)."""
    omp = _openmp()
    return omp.omp_get_max_threads() if omp is not None else None


def _busy_seconds(cpus):
    """CPU seconds the cores in `cpus` spent running anything, from /proc/stat."""
    total = 0
    with open("/proc/stat") as stat:
        for line in stat:
            if not line.startswith("cpu"):
                break
            name, *fields = line.split()
            if name[3:].isdigit() and int(name[3:]) in cpus:
                ticks = [int(f) for f in fields[:8]]
                total += sum(ticks) - ticks[3] - ticks[4]  # all but idle and iowait
    return total / _TICKS


_TICKS = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


def _others_running():
    """Threads of other processes runnable at this instant: all of the machine's less this
    process's own (OpenBLAS's threads still spin for a while after a product)."""
    try:
        with open("/proc/loadavg") as loadavg:
            running = int(loadavg.read().split()[3].split("/")[0])
    except (OSError, ValueError, IndexError):
        return 0
    return max(running - _own_running(), 0)


def _own_running():
    """This process's threads runnable at this instant (at least the calling one)."""
    own = 0
    try:
        tasks = os.listdir("/proc/self/task")
    except OSError:
        return 1
    for task in tasks:
        try:
            with open(f"/proc/self/task/{task}/stat") as stat:
                # the state follows the command's closing parenthesis
                own += stat.read().rpartition(")")[2].split()[0] == "R"
        except (OSError, IndexError):
            continue
    return max(own, 1)


def adapt():
    """Before a matrix product: every `INTERVAL` seconds, gives OpenBLAS the whole budget
    when the cores are otherwise idle and one thread when other processes keep them busy."""
    if time.monotonic() < _next:
        return
    _look()


def _look():
    global _next, _last, contended
    with _lock:
        wall = time.monotonic()
        if wall < _next:
            return
        _next = wall + INTERVAL
        ceiling = _blas_ceiling()
        if _fixed:
            contended = False
            _set_blas(ceiling)
            return
        if ceiling <= 1 and budget() <= 1:  # nothing to step down
            _set_blas(1)
            return
        try:
            cpus = os.sched_getaffinity(0)
            now = (wall, time.process_time(), _busy_seconds(cpus))
        except (OSError, AttributeError, ValueError):  # no procfs: keep the budget
            _set_blas(ceiling)
            return
        last, _last = _last, now
        # Other processes compete while they run when this one does: some are runnable at
        # this instant (this process is, it is looking), and over the interval they kept
        # more than `BUSY_OTHERS` cores busy. Either alone misleads: the instant catches
        # another process's threads in their last moments (spinning before they sleep),
        # the interval counts work done while this process slept (waiting for its input,
        # or for another that takes turns with it), which competed with nothing.
        was, running = contended, _others_running() >= 1
        if last is None or not INTERVAL / 2 <= wall - last[0] <= STALE * INTERVAL:
            # no interval yet, one spanning a pause, or one too short for the cores' clock
            # ticks (a look again soon): the instant alone
            contended = running
        else:
            others = (now[2] - last[2]) - (now[1] - last[1])
            contended = running and others > BUSY_OTHERS * (now[0] - last[0])
        if contended and not was:  # soon again: it may have been others' last moments
            _next = wall + RECHECK
        _set_blas(1 if contended else ceiling)


def _set_openmp(n):
    if getattr(_local, "openmp", None) != n:
        omp = _openmp()
        if omp is not None:
            omp.omp_set_num_threads(n)
            _local.openmp = n


def openmp_loaded():
    """oneDNN has loaded: from now on OpenBLAS runs on one thread.

    OpenBLAS's idle workers spin for a while after each product, and OpenMP's
    wait in barriers: on shared cores each stalls the other, and a small CNN's
    training step ran at half its speed. Programs with native kernels spend
    their time in them, so those get the cores.
    """
    global _openmp_in_use, _next
    with _lock:
        _openmp_in_use, _next = True, 0.0
        _set_blas(1)


# While other processes keep the cores busy, a primitive that shares them well runs on this
# many times the default budget's threads: the scheduler gives each runnable thread its
# share of busy cores, so more threads get this process more of them, as TensorFlow's
# inter- and intra-op pools together hold more threads than cores. On two cores under load
# a ResNet-style train step ran 1.3-2x as fast with four OpenMP threads as with two.
CONTENDED_SHARES = 2
_capped = bool(os.environ.get("OMP_NUM_THREADS", "").strip())  # the environment's own cap


def for_primitive(serial=False, shares=False):
    """The OpenMP threads for the oneDNN primitive about to be looked up and run, made the
    calling thread's count: one for a `serial` primitive (work too fine-grained to share),
    else the budget (looking at the load every `INTERVAL` seconds; one in a part of
    `in_chunks`, whose threads share the cores already), except while other
    processes keep the cores busy: one then, unless the primitive `shares` the cores well
    (its threads meet only at OpenMP's passive barriers, never spinning on each other), as
    TensorFlow's thread pool keeps its threads under load; those run on
    `CONTENDED_SHARES` times the budget then, unless the budget was set (`set_budget`,
    ``OMP_NUM_THREADS``)."""
    if time.monotonic() >= _next:
        _look()
    if serial or (contended and not shares) or _in_part():
        n = 1
    elif contended and not (_budget or _capped):
        n = budget() * CONTENDED_SHARES
    else:
        n = budget()
    _set_openmp(n)
    return n


def primitive_threads():
    """The OpenMP threads the calling thread's primitives run on, as `for_primitive` last
    set them (what a primitive being built will run on)."""
    return getattr(_local, "openmp", None) or budget()


# ----------------------------------------------------------------------------- shared work

_helpers = []               # the helper threads started so far
_jobs = None                # queue.SimpleQueue of the helpers' jobs, made with the first
_helper = threading.local()  # `slot` of a helper thread


def slot():
    """0 on any thread but `in_chunks`'s helpers, which have 1, 2, ...: what tells apart the
    native objects (not shareable between threads at once) each one uses."""
    return getattr(_helper, "slot", 0)


def _in_part():
    """Whether the calling thread runs a part of `in_chunks` (a helper or the caller)."""
    return _helper.__dict__.get("parts", False)


def _serve(index):
    _helper.slot = index
    while True:
        _jobs.get()()


def _forget_helpers():  # a forked child has none of its parent's threads
    global _jobs
    _helpers.clear()
    _jobs = None


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_forget_helpers)


def in_chunks(count, run):
    """``[run(i) for i in range(count)]``, run by the calling thread and up to ``budget() - 1``
    helper threads together, each taking the next chunk once done with its last.

    Work split this way, each part on one native thread, needs no thread to wait for
    another: when other processes keep a core busy, the threads still running take the
    chunks that one would have had (OpenMP's threads each get a fixed share, and a kernel
    ends when the slowest has done its own). The calling thread never waits for a helper
    that has not started.
    """
    helpers = min(budget(), count) - 1
    if helpers <= 0 or _in_part():  # (a part runs nested work itself)
        return [run(i) for i in range(count)]
    _start_helpers(helpers)
    results, failures = [None] * count, []
    pending = iter(range(count))
    state = threading.Condition()
    left = [count]

    def take():
        while True:
            with state:
                i = next(pending, None)
            if i is None:
                return
            nested, _helper.parts = _helper.__dict__.get("parts"), True  # (see for_primitive)
            try:
                results[i] = run(i)
            except BaseException as error:  # noqa: B036 (raised on the calling thread)
                failures.append(error)
            finally:
                _helper.parts = nested
            with state:
                left[0] -= 1
                if not left[0]:
                    state.notify_all()

    for _ in range(helpers):
        _jobs.put(take)
    take()
    with state:
        while left[0]:
            state.wait()
    if failures:
        raise failures[0]
    return results


def _start_helpers(n):
    global _jobs
    with _lock:
        if _jobs is None:
            import queue
            _jobs = queue.SimpleQueue()
        while len(_helpers) < n:
            helper = threading.Thread(target=_serve, args=(len(_helpers) + 1,), daemon=True,
                                      name=f"eagerflow-kernels-{len(_helpers) + 1}")
            helper.start()
            _helpers.append(helper)


# ------------------------------------------------------------------------ elementwise in parts

# Element-wise kernels are split into parts of at least this many elements. They are
# bound by memory bandwidth, which two cores hardly share better than one, and a part
# handed to another thread costs tens of microseconds: a compiled chain of four float32
# ops on two cores ran 0.87x as fast split in two at 256k elements, 1.26x at 512k, 1.4x
# at 1M and 1.7x at 4M.
SPLIT_SIZE = 1 << 18


def _parts(size, min_size):
    """How many parts of at least `min_size` elements work on `size` elements takes on the
    intra-op threads now: 0 (whole) under load, on a budget of one, or inside a part."""
    if size < 2 * min_size or budget() < 2 or _in_part():
        return 0
    if time.monotonic() >= _next:
        _look()
    return 0 if contended else min(budget(), size // min_size)


def split_elementwise(kernel, min_size=SPLIT_SIZE):
    """`kernel(*arrays, out=None)`, computed in parts on the intra-op threads (`in_chunks`)
    while the cores are otherwise idle and the result has at least two parts of
    `min_size` elements; whole on the calling thread otherwise (under load, on a budget of
    one, or nested in other parts).

    `kernel` is element-wise (NumPy's broadcasting, each result element computed from the
    matching input elements alone) and writes its one result into `out` when given (an
    array of the result's shape, which may be one of the inputs), as a ufunc does. Each
    part is the same kernel on slices along one axis, so results are the whole call's bit
    for bit.
    """
    def split(*arrays, out=None):
        size = out.size if out is not None else max([getattr(a, "size", 1) for a in arrays])
        parts = _parts(size, min_size)
        if not parts:
            return kernel(*arrays, out=out)
        try:
            shape = out.shape if out is not None else np.broadcast_shapes(
                *[np.shape(a) for a in arrays])
        except ValueError:  # (the kernel raises its own error)
            return kernel(*arrays, out=out)
        axis = next((i for i, d in enumerate(shape) if d >= parts), None)
        if axis is None:
            return kernel(*arrays, out=out)
        rank, extent = len(shape), shape[axis]
        # each array's axis matching the result's `axis`, None where it broadcasts along it
        axes = []
        for a in arrays:
            if out is not None and a is not out and np.may_share_memory(a, out):
                return kernel(*arrays, out=out)  # (a part would read what another wrote)
            at = axis - rank + np.ndim(a)
            axes.append(None if at < 0 or np.shape(a)[at] != extent else at)

        def cut(i, lo, hi):
            a, at = arrays[i], axes[i]
            return a if at is None else a[(slice(None),) * at + (slice(lo, hi),)]

        if out is None:  # the result's dtype, from the kernel on no elements
            out = np.empty(shape, kernel(*[cut(i, 0, 0) for i in range(len(arrays))]).dtype)
        bounds = [extent * k // parts for k in range(parts + 1)]
        index = (slice(None),) * axis

        def run(k):
            lo, hi = bounds[k], bounds[k + 1]
            kernel(*[cut(i, lo, hi) for i in range(len(arrays))],
                   out=out[index + (slice(lo, hi),)])
        in_chunks(parts, run)
        return out
    split.__name__ = getattr(kernel, "__name__", "split")
    split.__wrapped__ = kernel
    return split

