"""Background threads of pipelines: `prefetched` and `parallel_map`.

A producer thread never holds a reference to the consumer's generator, so a
dropped iterator is collected; its generator's ``finally`` sets the stop event,
which the producer checks between elements and while it waits for room.  The
threads are daemons and `_stop_all` runs at interpreter exit, so that a
pipeline left running never holds the interpreter up.
"""
import atexit
import collections
import concurrent.futures
import queue
import threading
import time
import weakref

_END = object()
_POLL = 0.05  # seconds a blocked producer waits before looking at its stop event again
_running = weakref.WeakSet()  # stop events of live producers


class _Failure:
    __slots__ = ("error",)

    def __init__(self, error):
        self.error = error


_CHUNK_SECONDS = 0.001  # elements made faster than this go to the consumer together
_MAX_CHUNK = 64


def _room(slots, stop):
    """Waits for room for one more element ahead of the consumer; False once stopped."""
    while not stop.is_set():
        if slots.acquire(timeout=_POLL):
            return True
    return False


def _produce(source, buffer, stop, slots):
    """Puts lists of `source`'s elements into `buffer`, making an element only when `slots`
    has room for it (as TF's prefetch, at most its buffer size ahead of the consumer): an
    element that took a millisecond or more to make goes at once, quicker ones together
    (up to 64), since handing over one costs microseconds, and what was made goes before
    the producer waits for room.  The last list ends with `_END`, or `_Failure` if
    `source` raised."""
    chunk, started = [], time.perf_counter()
    try:
        while True:
            if not slots.acquire(blocking=False):
                if chunk:
                    buffer.put(chunk)
                    chunk = []
                if not _room(slots, stop):
                    return
                started = time.perf_counter()
            try:
                element = next(source)
            except StopIteration:
                break
            chunk.append(element)
            if len(chunk) >= _MAX_CHUNK or time.perf_counter() - started >= _CHUNK_SECONDS:
                buffer.put(chunk)
                chunk, started = [], time.perf_counter()
            elif stop.is_set():
                return
        chunk.append(_END)
    except BaseException as e:  # noqa: B036 (handed to the consumer, which raises it)
        chunk.append(_Failure(e))
    buffer.put(chunk)


class _Event(threading.Event):
    """A stop event that a weak set can hold."""


_AUTOTUNED_MAX = 256  # the most elements an autotuned prefetch makes ahead


def prefetched(source, buffer_size):
    """The elements of iterator `source`, produced ahead by a thread, at most `buffer_size`
    of them ahead of the consumer (None: autotuned, as TF's ``AUTOTUNE``: from one, doubled
    whenever the consumer finds none ready).  As TF's, the thread starts with the first
    element asked for: an iterator never read reads nothing."""
    from eagerflow._src.data.structured_function import in_draw_scope  # noqa: PLC0415
    # (the thread runs it where the consumer's scope is)
    return _Prefetched(in_draw_scope(source), buffer_size)


class _Prefetched:
    """The consuming end: an iterator whose thread stops when it is closed, exhausted, fails
    or is dropped (even before its first element: a generator's ``finally`` would not run).

    Autotuned, it gives the producer room back half its limit at a time, so that a
    producer which is ahead resumes for several elements, not for each one taken."""

    __slots__ = ("_source", "_limit", "_autotuned", "_buffer", "_slots", "_stop", "_items",
                 "_taken", "_thread", "__weakref__")

    def __init__(self, source, buffer_size):
        self._source = source
        self._autotuned = buffer_size is None
        self._limit = 1 if self._autotuned else buffer_size
        self._buffer = self._slots = None  # (until the thread starts)
        self._stop = _Event()
        self._items = collections.deque()
        self._taken = 0  # elements handed out whose room is not given back yet
        self._thread = None

    def __iter__(self):
        return self

    def _start(self):
        self._buffer, self._slots = queue.SimpleQueue(), threading.Semaphore(self._limit)
        _running.add(self._stop)
        source, self._source = self._source, None  # (the thread's own from now on)
        self._thread = threading.Thread(
            target=_produce, args=(source, self._buffer, self._stop, self._slots), daemon=True,
            name="eagerflow-prefetch")
        self._thread.start()

    def _next_chunk(self):
        if self._buffer is None:
            self._start()
            return self._buffer.get()
        try:
            return self._buffer.get_nowait()
        except queue.Empty:
            if self._autotuned and self._limit < _AUTOTUNED_MAX:  # starved: more room
                self._slots.release(self._limit)
                self._limit *= 2
            return self._buffer.get()

    def __next__(self):
        items = self._items
        if not items:
            if self._stop.is_set():
                raise StopIteration
            items.extend(self._next_chunk())
        item = items.popleft()
        if item is _END:
            self._stop.set()
            raise StopIteration
        if type(item) is _Failure:
            self._stop.set()
            raise item.error
        self._taken += 1
        if self._taken >= (max(1, self._limit // 2) if self._autotuned else 1):
            self._slots.release(self._taken)
            self._taken = 0
        return item

    def close(self, wait=False):
        """Stops the thread; with `wait`, once it has stopped (it ends the element it is
        making, and makes no more than its room allows)."""
        self._stop.set()
        thread = self._thread
        if wait and thread is not None and thread is not threading.current_thread():
            thread.join()

    def __del__(self):
        self._stop.set()


_pool = None
_pool_lock = threading.Lock()


def _executor(threads):
    global _pool
    with _pool_lock:
        if _pool is None or _pool._max_workers < threads:
            _pool = concurrent.futures.ThreadPoolExecutor(
                max_workers=threads, thread_name_prefix="eagerflow-data")
        return _pool


_TASK_SECONDS = 0.002  # the work one task aims at: enough to amortize handing it over
_MAX_CHUNK = 256
_PROBE = 2             # chunks timed on the consumer's thread before the pool is tried
_PARALLEL_GAIN = 1.2   # how much faster the pool must be to keep it


def _apply(fn, chunk):
    """`fn` on each element of `chunk`, failures kept in place; with the times it started
    and ended."""
    start = time.perf_counter()
    out = []
    for element in chunk:
        try:
            out.append(fn(element))
        except Exception as e:  # noqa: BLE001 (raised by the consumer, in order)
            out.append(_Failure(e))
    return out, start, time.perf_counter()


def _done(results):
    future = concurrent.futures.Future()
    future.set_result((results, None, None))
    return future


class parallel_map:  # noqa: N801 (an iterator used as a function)
    """``map(fn, source)`` with up to `threads` tasks running at once; results in order.

    A task maps a chunk of consecutive elements, sized from the time elements took so
    far (about 2 ms of work each): handing one element to a thread costs tens of
    microseconds, more than a small element's whole map.  Unless `ordered`, a chunk's
    results come out as soon as it is done (``deterministic=False``: a slow element does
    not hold up the chunks after it).  As the builtin ``map``, it goes on after an
    element's call raised (for ``ignore_errors``); tasks not yet started are cancelled
    when it is dropped.

    Threads only pay when the function leaves the interpreter lock (NumPy kernels, I/O):
    a map of mostly Python-level work runs slower on threads than on the consumer's
    own.  So, when `ordered`, the first chunks run on the consumer's thread, the next
    ones (one per thread, handed over together) on the pool, and, should the pool's
    elements per second not beat the consumer's by `_PARALLEL_GAIN`, the rest of the
    iteration runs on the consumer's thread.  The pool is timed by when its chunks end,
    so the consumer's own work between elements does not count against it.
    """

    def __init__(self, fn, source, threads, ordered=True):
        self._fn, self._source, self._threads = fn, source, threads
        self._ordered = ordered
        self._pool = _executor(threads)
        self._pending = collections.deque()  # futures of (results, seconds)
        self._ready = collections.deque()    # results of the chunk being handed out
        self._chunk = 1
        self._exhausted = False
        # until `_inline` decides: seconds per element of the chunks run on the consumer's
        # thread, and (size, end time) of the chunks the pool ran since `_pool_start`
        self._alone = []
        self._pooled = []
        self._pool_start = None
        # (unordered maps stay on the pool: a slow element there lets the others pass it)
        self._inline = None if ordered else False

    def __iter__(self):
        return self

    def _fill(self):
        while not self._exhausted and not self._inline and len(self._pending) < self._threads:
            chunk = []
            try:
                while len(chunk) < self._chunk:
                    element = next(self._source, None)
                    if element is None:
                        self._exhausted = True
                        break
                    chunk.append(element)
            except Exception as e:  # noqa: BLE001 (the input failed: raised in its place)
                if chunk:
                    self._submit(chunk)
                self._pending.append(_done([_Failure(e)]))
                return
            if chunk:
                self._submit(chunk)

    def _submit(self, chunk):
        """Hands `chunk` to the pool, or, for the first `_PROBE` chunks, maps it here into
        `_ready` (they come before any chunk of the pool), timed."""
        if self._inline is None:
            if len(self._alone) < _PROBE:
                out, start, end = _apply(self._fn, chunk)
                self._alone.append((end - start) / len(out))
                self._size_chunks((end - start) / len(out))
                self._ready.extend(out)
                return
            if self._pool_start is None:
                self._pool_start = time.perf_counter()
        self._pending.append(self._pool.submit(_apply, self._fn, chunk))

    def _size_chunks(self, each):
        self._chunk = max(1, min(_MAX_CHUNK, int(_TASK_SECONDS / max(each, 1e-7))))

    def _decide(self):
        """`_inline`, once the pool has run as many chunks as it has threads: the pool's
        wall time per element (waits for the interpreter lock included) against the
        consumer's thread's."""
        pooled = self._pooled
        if len(pooled) >= self._threads:
            each = (max(end for _, end in pooled) - self._pool_start) / sum(
                n for n, _ in pooled)
            self._inline = min(self._alone) / each < _PARALLEL_GAIN

    def __next__(self):
        ready = self._ready
        while not ready:
            if self._inline is None and self._pooled:
                self._decide()
            if self._inline and not self._pending:
                return self._fn(next(self._source))  # (StopIteration ends the map too)
            self._fill()
            if ready:  # (chunks mapped on this thread)
                break
            pending = self._pending
            if not pending:
                raise StopIteration
            if self._ordered:
                future = pending.popleft()
            else:
                done, _ = concurrent.futures.wait(
                    pending, return_when=concurrent.futures.FIRST_COMPLETED)
                future = next(f for f in pending if f in done)  # the earliest of those done
                pending.remove(future)
            results, start, end = future.result()
            if start is not None:
                if self._inline is None:
                    self._pooled.append((len(results), end))
                self._size_chunks((end - start) / len(results))
            ready.extend(results)
        item = ready.popleft()
        if type(item) is _Failure:
            raise item.error
        return item

    def __del__(self):
        for f in self._pending:
            f.cancel()


@atexit.register
def _stop_all():
    for stop in list(_running):
        stop.set()
    if _pool is not None:
        _pool.shutdown(wait=False, cancel_futures=True)
