"""``Dataset.shuffle``: TF's shuffle buffer, drawing the same indices for the same seeds.

TF samples the buffer with a Philox stream keyed by the iterator's seeds
``(seed, seed2)`` (key ``seed``, counter ``seed2 << 64``), one 32-bit word per
element: the element at ``(start + word % n) % buffer_size`` of the current
epoch's slice of the ring buffer is produced and the slice's first element
moves into its place.  Each iterator of a reshuffling dataset (each epoch of
``shuffle(...).repeat()``) takes its seeds as the next two words of the
dataset's own stream; without reshuffling every iterator uses the dataset's
seeds.
"""
import itertools
import random as _py_random
import threading

import numpy as np

from eagerflow._src.data.dataset_ops import (
    _int, _TensorSliceDataset, _UnaryDataset, dataset_error)
from eagerflow._src.ops import philox, random_ops

_WORDS = 256  # words of the stream made at once
_U64 = 2 ** 64 - 1


class _Stream:
    """TF's ``SingleSampleAdapter<PhiloxRandom>(seed, seed2)``: 32-bit words in order."""

    def __init__(self, seed, seed2):
        self._key = seed & (2 ** 64 - 1)
        self._counter = (seed2 & (2 ** 64 - 1)) << 64
        self._words = []
        self._next = 0

    def __call__(self):
        if self._next == len(self._words):
            self._words = philox.words(np, self._key, self._counter, _WORDS).tolist()
            self._counter += _WORDS // 4
            self._next = 0
        w = self._words[self._next]
        self._next += 1
        return w


def dataset_seeds(seed):
    """The (seed, seed2) pair of a dataset op, as TF's ``data.util.random_seed.get_seed``."""
    if seed is not None:
        seed = _int(seed)
    s1, s2 = random_ops.get_seed(seed)
    s1 = 0 if s1 is None else s1
    s2 = 0 if s2 is None else s2
    if s1 == 0 and s2 == 0:  # nondeterministic: the kernel draws seeds
        s1, s2 = _py_random.getrandbits(63), _py_random.getrandbits(63)
    return s1, s2


class _ShuffleDataset(_UnaryDataset):
    def __init__(self, input_dataset, buffer_size, seed=None, reshuffle_each_iteration=None):
        super().__init__(input_dataset)
        self._buffer_size = _int(buffer_size, "buffer_size")
        if self._buffer_size == -2:  # UNKNOWN_CARDINALITY: the whole dataset
            n = input_dataset._cardinality()
            self._buffer_size = n if n > 0 else 2 ** 31
        elif self._buffer_size is not None and self._buffer_size <= 0:  # (None: symbolic)
            raise dataset_error("ShuffleDatasetV3",
                                "buffer_size must be greater than zero or UNKNOWN_CARDINALITY")
        self._seed, self._seed2 = dataset_seeds(seed)
        self._reshuffle = True if reshuffle_each_iteration is None else bool(
            reshuffle_each_iteration)
        self._seeds = _Stream(self._seed, self._seed2) if self._reshuffle else None
        self._lock = threading.Lock()

    def _fresh_state(self):
        """A copy's own seed stream, from the start (a dataset built in a function is built
        anew, with its seeds, on every call)."""
        self._seeds = _Stream(self._seed, self._seed2) if self._reshuffle else None
        self._lock = threading.Lock()

    def _iterator_seeds(self):
        if not self._reshuffle:
            return self._seed, self._seed2
        with self._lock:
            return self._seeds(), self._seeds()

    def _seed_mark(self):
        """Where the seed stream is: `_undo_draw` takes an iterator's draw back to it."""
        with self._lock:
            stream = self._seeds
            return None if stream is None else (stream._counter, stream._words, stream._next)

    def _undo_draw(self, mark):
        """Takes back the one iterator's draw made since `mark`, unless more were made (the
        stream is then where those iterators left it)."""
        with self._lock:
            stream = self._seeds
            if stream is None or mark is None:
                return
            counter, words, at = mark
            drawn = (stream._counter - counter) * 4 - len(stream._words) + stream._next \
                + len(words) - at
            if drawn == 2:
                stream._counter, stream._words, stream._next = mark

    def _iterator(self):
        seed, seed2 = self._iterator_seeds()
        # the seeds are the iterator's from its start; its input's iterator is made only when
        # the first element is asked for, as in TF (an iterator dropped unused leaves the
        # input's own reshuffling seeds where they were)
        return _shuffle(_on_first_element(self._input), self._buffer_size, _Stream(seed, seed2))

    def _batches(self, batch_size, drop_remainder):
        # Over arrays, the buffer shuffles indices (the same draws, so the same order) and
        # each batch gathers its rows at once.
        if (type(self._input) is not _TensorSliceDataset or self._input._arrays is None
                or self._input._sparse):  # (sparse rows are batched as elements are)
            return None
        order = iter(self._index_order())
        return _gathered(order, self._input._arrays, batch_size, drop_remainder)

    def _index_order(self):
        """The order TF's buffer gives the input's n elements: the same draws as `_shuffle`
        (one word of the stream per element, all made at once), on indices."""
        seed, seed2 = self._iterator_seeds()
        n, size = self._input._n, self._buffer_size
        words = philox.words(np, seed & _U64, (seed2 & _U64) << 64, n).tolist()
        ring = [0] * min(size, n)  # (positions stay below n when the buffer is larger)
        out = []
        start = end = 0
        for index in range(n):
            ring[end % size] = index
            end += 1
            if end - start == size:
                at = (start + words[start] % (end - start)) % size
                out.append(ring[at])
                ring[at] = ring[start % size]
                start += 1
        while start < end:
            at = (start + words[start] % (end - start)) % size
            out.append(ring[at])
            ring[at] = ring[start % size]
            start += 1
        return out


def _on_first_element(dataset):
    yield from dataset._iterator()


def _shuffle(source, buffer_size, random):
    buffer = {}  # ring buffer position -> element
    start = end = 0  # the buffered elements are at positions [start, end) modulo buffer_size
    for element in source:
        buffer[end % buffer_size] = element
        end += 1
        if end - start == buffer_size:
            yield _draw(buffer, start, end, buffer_size, random)
            start += 1
    while start < end:
        yield _draw(buffer, start, end, buffer_size, random)
        start += 1


def _gathered(order, arrays, batch_size, drop_remainder):
    while True:
        index = np.fromiter(itertools.islice(order, batch_size), np.int64)
        if not len(index) or (drop_remainder and len(index) < batch_size):
            return
        yield tuple(a[index] for a in arrays)
        if len(index) < batch_size:
            return


def _draw(buffer, start, end, buffer_size, random):
    """TF's draw: a uniform position of the buffer, refilled with the oldest element."""
    index = (start + random() % (end - start)) % buffer_size
    head = start % buffer_size
    out = buffer[index]
    buffer[index] = buffer[head]
    del buffer[head]
    return out


class _ShuffleAndRepeatDataset(_UnaryDataset):
    """``shuffle(buffer_size, seed).repeat(count)`` (``experimental.shuffle_and_repeat``):
    each epoch reshuffled, with TF's seeds."""

    def __init__(self, input_dataset, buffer_size, count=None, seed=None):
        super().__init__(input_dataset)
        self._repeated = _ShuffleDataset(input_dataset, buffer_size, seed).repeat(count)

    def _cardinality(self):
        return self._repeated._cardinality()

    def _iterator(self):
        return self._repeated._iterator()
