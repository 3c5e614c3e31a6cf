"""Checkpointing an eager iterator's position (``tf.train.Checkpoint(iterator=it)``).

An `OwnedIterator` counts the elements it has handed out; its saved state is
that count plus the seed state of every ``shuffle`` in the pipeline as the
iterator was made (the seeds and how many words of the dataset's seed stream
had been drawn).  Restoring puts the seeds back and makes a fresh iterator,
advanced past that many elements: every deterministic pipeline (sources over
tensors, ``map``/``filter`` with stateless functions, seeded or unseeded
``shuffle``, ``batch``, ``repeat``, ``take``, ``skip``, ``zip``, ``concatenate``,
``enumerate``, ...) continues where it was, and ``prefetch`` resumes at the
consumer's position, not its read-ahead.  Restoring costs the work of
producing the skipped elements (see below).

Restoring skips cheaply where a node can (`skipped`): sources over tensors
start at the position, ``map`` and ``prefetch`` skip their input without
calling the function, ``batch`` skips whole batches of its input, ``repeat``
over a dataset of known size skips whole epochs (drawing the shuffles' seeds
those epochs drew); other nodes produce and drop the skipped elements.

The state is stored as int64 tensors under ``ITERATOR_POSITION`` and
``ITERATOR_SHUFFLE_SEEDS``, not as TF's variant ``ITERATOR_STATE`` (the
serialized C++ state of TF's dataset kernels): iterator positions in
checkpoints do not carry over between TF and eagerflow, and both refuse the
other's rather than resume at a wrong position. Restoring TF's iterator state
here raises `InvalidArgumentError` naming it; TF restoring ours raises
`NotFoundError` (``Key it/.ATTRIBUTES/ITERATOR_STATE not found in
checkpoint``). A checkpoint of the other objects alone carries over.  A node that cannot be replayed (``from_generator``)
sets ``_unsaveable`` to TF's message, and saving raises
`FailedPreconditionError` with it, as for a ``map`` or ``filter`` function with
a stateful op (TF's ``RandomUniform is stateful.``).

>>> it = iter(tf.data.Dataset.range(20))
>>> ckpt = tf.train.Checkpoint(iterator=it)
>>> [int(next(it)) for _ in range(5)]
[0, 1, 2, 3, 4]
>>> import tempfile; path = ckpt.save(tempfile.mkdtemp() + "/ckpt")
>>> [int(next(it)) for _ in range(3)]
[5, 6, 7]
>>> _ = ckpt.restore(path)
>>> int(next(it))
5
"""
import numpy as np

from eagerflow._src.core import errors
from eagerflow._src.core.errors import op_error

POSITION = "ITERATOR_POSITION"
SHUFFLE_SEEDS = "ITERATOR_SHUFFLE_SEEDS"
_WORDS = 256


def _nodes(dataset):
    """The pipeline's datasets, depth first in input order."""
    out, stack, seen = [], [dataset], set()
    while stack:
        node = stack.pop()
        if id(node) in seen:
            continue
        seen.add(id(node))
        out.append(node)
        inner = list(node._inputs())
        repeated = getattr(node, "_repeated", None)  # shuffle_and_repeat's own pipeline
        if repeated is not None:
            inner.append(repeated)
        stack.extend(reversed(inner))
    return out


def _shuffles(dataset):
    from eagerflow._src.data.shuffle import _ShuffleDataset  # noqa: PLC0415
    return [n for n in _nodes(dataset) if isinstance(n, _ShuffleDataset)]


def _int64(v):
    return (int(v) + 2 ** 63) % 2 ** 64 - 2 ** 63


def seed_state(dataset):
    """``[(seed, seed2, words drawn or -1)]`` of each shuffle, as an iterator starts."""
    out = []
    for node in _shuffles(dataset):
        stream = node._seeds
        drawn = -1 if stream is None else (
            (stream._counter - ((node._seed2 & (2 ** 64 - 1)) << 64)) * 4
            - len(stream._words) + stream._next)
        out.append((_int64(node._seed), _int64(node._seed2), drawn))
    return out


def check_saveable(dataset):
    """TF's error for a pipeline whose elements can't be produced again the same way: a
    generator, or a traced function with a stateful op (random ops, variable reads,
    ``py_function``)."""
    for node in _nodes(dataset):
        message = getattr(node, "_unsaveable", None)
        concrete = getattr(getattr(node, "_fn", None), "_concrete", None)
        graph = getattr(concrete, "graph", None)
        if message is None and graph is not None:
            message = next((f"{op.type} is stateful." for op in graph.get_operations()
                            if op.stateful), None)
        if message is not None:
            raise op_error(errors.FailedPreconditionError, "SerializeIterator", message)


def serialize(iterator):
    check_saveable(iterator._dataset)
    seeds = np.array(iterator._seed_state, np.int64).reshape(-1, 3)
    return {POSITION: np.array(iterator._n, np.int64), SHUFFLE_SEEDS: seeds}


def restore(iterator, tensors):
    """Puts the shuffles' seeds back and a fresh source advanced to the saved position."""
    values = [v for value in tensors.values()
              for v in (value.values() if isinstance(value, dict) else [value])]
    variants = [v.key for v in values if hasattr(v, "key")]  # (TF's, given unread)
    if POSITION not in tensors and variants:
        raise op_error(errors.InvalidArgumentError, "DeserializeIterator",
                       f"The checkpoint holds TensorFlow's iterator state ({variants[0]}, a "
                       f"variant tensor of TF's C++ dataset kernels), which eagerflow cannot "
                       f"restore: only iterator positions saved by eagerflow restore here. "
                       f"Restore the checkpoint without the iterator (a tf.train.Checkpoint "
                       f"of the other objects) and start the iterator afresh.")
    if POSITION not in tensors:
        raise op_error(errors.InvalidArgumentError, "DeserializeIterator",
                       "The checkpoint holds no eagerflow iterator state for this iterator "
                       f"(found {sorted(tensors)}; TF's variant iterator state cannot be "
                       "restored here).")
    from eagerflow._src.data.shuffle import _Stream  # noqa: PLC0415
    position = int(np.asarray(tensors[POSITION]))
    saved = np.asarray(tensors.get(SHUFFLE_SEEDS, np.zeros((0, 3), np.int64))).reshape(-1, 3)
    shuffles = _shuffles(iterator._dataset)
    if len(saved) != len(shuffles):
        raise op_error(errors.InvalidArgumentError, "DeserializeIterator",
                       f"The checkpoint's iterator has {len(saved)} shuffle(s) but this "
                       f"iterator's dataset has {len(shuffles)}.")
    dataset = iterator._dataset
    card = dataset._cardinality()
    if 0 <= card < position:
        raise _short(position, card)
    # the old source is stopped first: its prefetch thread may be drawing the seeds put back
    iterator._close(wait=True)
    for node, (seed, seed2, drawn) in zip(shuffles, saved.tolist()):
        with node._lock:
            node._seed, node._seed2 = seed, seed2
            if drawn >= 0:
                stream = _Stream(seed, seed2)
                stream._counter += (drawn // _WORDS) * (_WORDS // 4)
                for _ in range(drawn % _WORDS):
                    stream()
                node._seeds = stream
    state = seed_state(dataset)
    from eagerflow._src.data.iterator_ops import scoped_source  # noqa: PLC0415
    source = scoped_source(dataset, lambda: skipped(dataset, position))
    iterator._source, iterator._n, iterator._seed_state = source, position, state


def _short(position, n):
    return op_error(errors.InvalidArgumentError, "DeserializeIterator",
                    f"The checkpoint's iterator was at element {position} but this "
                    f"iterator's dataset ends after {n}.")


def _replayed(dataset, n):
    source = dataset._iterator()
    for i in range(n):
        if next(source, None) is None:
            raise _short(n, i)
    return source


class _Resumed:
    """An input standing for an iterator already advanced (a node copied onto it)."""

    def __init__(self, dataset, source):
        self._spec, self._source, self._dataset = dataset._spec, source, dataset

    def options(self):
        return self._dataset.options()

    def _iterator(self):
        return self._source

    def _batches(self, batch_size, drop_remainder):
        return None

    def _cardinality(self):
        return -2

    def _inputs(self):
        return []


def _on(node, source):
    """`node`'s iterator over `source` in place of its input's."""
    import copy  # noqa: PLC0415
    twin = copy.copy(node)
    twin._input = _Resumed(node._input, source)
    return twin._iterator()


def skipped(dataset, n):
    """A fresh iterator of `dataset` past its first `n` elements."""
    if n == 0:
        return dataset._iterator()
    for cls in type(dataset).__mro__:
        rule = _SKIPS.get(cls.__name__)
        if rule is not None:
            found = rule(dataset, n)
            if found is not None:
                return found
            break
    return _replayed(dataset, n)


def _skip_range(ds, n):
    if ds._symbolic:
        return None
    import builtins  # noqa: PLC0415
    dtype, array = ds._dtype.as_numpy_dtype, np.array
    start = ds._start + n * ds._step
    if ds._stop is None:
        from eagerflow._src.data.dataset_ops import _count  # noqa: PLC0415
        return ((array(i, dtype),) for i in _count(start, ds._step))
    return ((array(i, dtype),) for i in builtins.range(start, ds._stop, ds._step))


def _skip_slices(ds, n):
    if ds._n < 0:
        return None
    from eagerflow._src.data import dataset_ops  # noqa: PLC0415
    from eagerflow._src.data import structure  # noqa: PLC0415
    from eagerflow._src.ops.sparse_tensor import SparseTensor  # noqa: PLC0415
    getters = [structure.sparse_rows(a)[0] if isinstance(a, SparseTensor)
               else dataset_ops._item_getter(a) for a in dataset_ops._values(ds._arrays)]
    return (tuple(g(i) for g in getters) for i in range(min(n, ds._n), ds._n))


def _skip_one_to_one(ds, n):
    if getattr(ds, "_buffer_size", 1) == 0:  # prefetch(0): its input's iterator itself
        return skipped(ds._input, n)
    return _on(ds, skipped(ds._input, n))


def _skip_batch(ds, n):
    node = ds._input
    while type(node).__name__ == "_OptionsDataset":
        node = node._input
    # (a source's batches slice: replaying them is cheap and keeps them fast; a map's would
    # run its function, which skipping its input spares)
    fast = None if hasattr(node, "_fn") else ds._input._batches(ds._batch_size, ds._drop)
    if fast is not None:
        for i in range(n):
            if next(fast, None) is None:
                raise _short(n, i)
        return fast
    return _on(ds, skipped(ds._input, n * ds._batch_size))


def _skip_take(ds, n):
    if ds._count < 0:
        return skipped(ds._input, n)
    from eagerflow._src.data.dataset_ops import _islice  # noqa: PLC0415
    return _islice(skipped(ds._input, min(n, ds._count)), max(ds._count - n, 0))


def _skip_skip(ds, n):
    if ds._count < 0:
        return None
    return skipped(ds._input, ds._count + n)


def _skip_zip(ds, n):
    its = [skipped(d, n) for d in ds._datasets]
    if len(its) == 1:
        return its[0]
    return (sum(parts, ()) for parts in zip(*its))


def _skip_concatenate(ds, n):
    first = ds._input._cardinality()
    if first < 0:
        return None
    if n >= first:
        return skipped(ds._other, n - first)

    def chained():
        yield from skipped(ds._input, n)
        yield from ds._other._iterator()
    return chained()


def _skip_repeat(ds, n):
    size = ds._input._cardinality()
    if size <= 0:
        return None
    epochs, within = divmod(n, size)
    done = 0 <= ds._count <= epochs
    if done:
        epochs, within = ds._count, 0
    below = _nodes(ds._input)
    if any(type(d).__name__ in ("_RepeatDataset", "_ShuffleAndRepeatDataset") for d in below):
        for _ in range(epochs):  # (seed draws of nested repeats: each epoch replayed)
            skipped(ds._input, size)
    else:  # each shuffle below drew its two seed words once per epoch
        for node in _shuffles(ds._input):
            if node._seeds is not None:
                with node._lock:
                    for _ in range(2 * epochs):
                        node._seeds()
    if done:
        return iter(())

    def rest():
        epoch = epochs
        yield from skipped(ds._input, within)
        epoch += 1
        while ds._count < 0 or epoch < ds._count:
            yield from ds._input._iterator()
            epoch += 1
    return rest()


_SKIPS = {
    "_RangeDataset": _skip_range,
    "_TensorSliceDataset": _skip_slices,
    "_MapDataset": _skip_one_to_one,
    "_ParallelMapDataset": _skip_one_to_one,
    "_PrefetchDataset": _skip_one_to_one,
    "_OptionsDataset": _skip_one_to_one,
    "_BatchDataset": _skip_batch,
    "_TakeDataset": _skip_take,
    "_SkipDataset": _skip_skip,
    "_ZipDataset": _skip_zip,
    "_ConcatenateDataset": _skip_concatenate,
    "_RepeatDataset": _skip_repeat,
}
