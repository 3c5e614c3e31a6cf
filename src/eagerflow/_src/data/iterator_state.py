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
producing the skipped elements.

The state is stored as int64 tensors under ``ITERATOR_POSITION`` and
``ITERATOR_SHUFFLE_SEEDS``, not as TF's variant ``ITERATOR_STATE``: iterator
positions in checkpoints do not carry over between TF and eagerflow (the rest
of the checkpoint does).  A node that cannot be replayed (``from_generator``)
sets ``_unsaveable`` to TF's message, and saving raises
`FailedPreconditionError` with it.

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
    for node in _nodes(dataset):
        message = getattr(node, "_unsaveable", None)
        if message is not None:
            raise op_error(errors.FailedPreconditionError, "SerializeIterator", message)


def serialize(iterator):
    check_saveable(iterator._dataset)
    seeds = np.array(iterator._seed_state, np.int64).reshape(-1, 3)
    return {POSITION: np.array(iterator._n, np.int64), SHUFFLE_SEEDS: seeds}


def restore(iterator, tensors):
    """Puts the shuffles' seeds back and a fresh source advanced to the saved position."""
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
    for node, (seed, seed2, drawn) in zip(shuffles, saved.tolist()):
        with node._lock:
            node._seed, node._seed2 = seed, seed2
            if drawn >= 0:
                stream = _Stream(seed, seed2)
                stream._counter += (drawn // _WORDS) * (_WORDS // 4)
                for _ in range(drawn % _WORDS):
                    stream()
                node._seeds = stream
    state = seed_state(iterator._dataset)
    source = iterator._dataset._iterator()
    for n in range(position):
        if next(source, None) is None:
            raise op_error(errors.InvalidArgumentError, "DeserializeIterator",
                           f"The checkpoint's iterator was at element {position} but this "
                           f"iterator's dataset ends after {n}.")
    iterator._close()
    iterator._source, iterator._n, iterator._seed_state = source, position, state
