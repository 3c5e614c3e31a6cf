"""Keras's enqueuers: a `Sequence`'s batches (`OrderedEnqueuer`) or a generator's items
(`GeneratorEnqueuer`) made ahead of time on threads and handed out in order from a
bounded queue, for training loops that feed a model themselves.

>>> class Squares(tf.keras.utils.Sequence):
...     def __len__(self):
...         return 3
...     def __getitem__(self, i):
...         return i * i
>>> enqueuer = tf.keras.utils.OrderedEnqueuer(Squares())
>>> enqueuer.start(workers=2, max_queue_size=4)
>>> batches = enqueuer.get()
>>> [next(batches) for _ in range(4)]
[0, 1, 4, 0]
>>> enqueuer.stop()
"""
import concurrent.futures
import queue
import random
import threading

from eagerflow._src.backend.api_export import export

_DONE = object()  # a generator's end, as queued
_POLL = 0.1  # seconds between looks at the stop flag while the queue is full or empty


@export("keras.utils.SequenceEnqueuer")
class SequenceEnqueuer:
    """The base of the enqueuers: `start` fills a queue of at most `max_queue_size` items
    on a thread, `get` yields them, `stop` ends it. `use_multiprocessing` is accepted;
    the items are made on threads."""

    def __init__(self, sequence, use_multiprocessing=False):
        self.sequence, self.use_multiprocessing = sequence, use_multiprocessing
        self.workers, self.queue = 0, None
        self._stop_event, self._thread = None, None

    def is_running(self):
        return self._stop_event is not None and not self._stop_event.is_set()

    def start(self, workers=1, max_queue_size=10):
        """Starts making items ahead, with `workers` threads."""
        self.workers = max(int(workers), 1)
        self.queue = queue.Queue(max_queue_size)
        self._stop_event = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def stop(self, timeout=None):
        """Stops making items and drops those queued."""
        if self._stop_event is None:
            return
        self._stop_event.set()
        with self.queue.mutex:
            self.queue.queue.clear()
            self.queue.not_full.notify_all()
        if self._thread is not None:
            self._thread.join(timeout)
        self._thread = None

    def _put(self, item):
        """Queues `item` unless stopped meanwhile; whether it was queued."""
        while not self._stop_event.is_set():
            try:
                self.queue.put(item, timeout=_POLL)
                return True
            except queue.Full:
                continue
        return False

    def _run(self):
        raise NotImplementedError

    def get(self):
        """A generator of the items, in order."""
        raise NotImplementedError

    def _items(self):
        while self.is_running() or not self.queue.empty():
            try:
                item = self.queue.get(timeout=_POLL)
            except queue.Empty:
                continue
            if item is _DONE:
                return
            yield item


@export("keras.utils.OrderedEnqueuer")
class OrderedEnqueuer(SequenceEnqueuer):
    """A `Sequence`'s batches, epoch after epoch, in order (shuffled per epoch with
    `shuffle`); the sequence's ``on_epoch_end`` runs after each epoch is made."""

    def __init__(self, sequence, use_multiprocessing=False, shuffle=False):
        super().__init__(sequence, use_multiprocessing)
        self.shuffle = shuffle

    def _run(self):
        with concurrent.futures.ThreadPoolExecutor(self.workers) as pool:
            while not self._stop_event.is_set():
                order = list(range(len(self.sequence)))
                if self.shuffle:
                    random.shuffle(order)
                futures = []
                for i in order:
                    future = pool.submit(self.sequence.__getitem__, i)
                    futures.append(future)
                    if not self._put(future):
                        return
                concurrent.futures.wait(futures)
                self.sequence.on_epoch_end()

    def get(self):
        for future in self._items():
            yield future.result()  # (a batch's error is raised here)


@export("keras.utils.GeneratorEnqueuer")
class GeneratorEnqueuer(SequenceEnqueuer):
    """A generator's items, made ahead on a thread until it ends."""

    def __init__(self, generator, use_multiprocessing=False, random_seed=None):
        super().__init__(generator, use_multiprocessing)
        self.random_seed = random_seed

    def _run(self):
        try:
            for item in self.sequence:
                if not self._put(item):
                    return
        except Exception as error:  # noqa: BLE001 (raised where the items are read)
            self._put(_Failure(error))
            return
        self._put(_DONE)

    def get(self):
        for item in self._items():
            if isinstance(item, _Failure):
                raise item.error
            yield item


class _Failure:
    """A generator's exception, queued in place of an item."""

    def __init__(self, error):
        self.error = error
