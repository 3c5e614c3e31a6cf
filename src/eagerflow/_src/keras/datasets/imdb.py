"""IMDB movie reviews labelled by sentiment (``tf.keras.datasets.imdb``).

Reviews are lists of word indices; index ``i + index_from`` is the i-th most
frequent word, and `get_word_index` maps words to ``i``.

>>> (x_train, y_train), _ = tf.keras.datasets.imdb.load_data(num_words=10000)  # doctest: +SKIP
>>> x_train.shape, x_train[0][:3]  # doctest: +SKIP
((25000,), [1, 14, 22])
"""
import json

import numpy as np

from eagerflow._src.backend import log as _log
from eagerflow._src.backend.api_export import export
from eagerflow._src.keras.datasets import remote

_logger = _log.logger


def _shuffled(rng, x, labels):
    order = np.arange(len(x))
    rng.shuffle(order)
    return x[order], labels[order]


def _shorter_than(maxlen, x, labels):
    kept = [(seq, label) for seq, label in zip(x, labels) if len(seq) < maxlen]
    return [seq for seq, _ in kept], [label for _, label in kept]


def _indexed(x, start_char, index_from):
    """Each sequence's word indices shifted by `index_from`, after `start_char` if given."""
    if start_char is not None:
        return [[start_char] + [w + index_from for w in seq] for seq in x]
    return [[w + index_from for w in seq] for seq in x]


def _limited(x, num_words, skip_top, oov_char):
    """Indices outside ``[skip_top, num_words)`` replaced by `oov_char` (dropped if None)."""
    if oov_char is not None:
        return [[w if skip_top <= w < num_words else oov_char for w in seq] for seq in x]
    return [[w for w in seq if skip_top <= w < num_words] for seq in x]


def _object_array(sequences):
    # One list per review, even when all reviews have the same length.
    out = np.empty(len(sequences), dtype=object)
    out[:] = sequences
    return out


@export("keras.datasets.imdb.load_data")
def load_data(path="imdb.npz", num_words=None, skip_top=0, maxlen=None, seed=113,
              start_char=1, oov_char=2, index_from=3, cache_dir=None, **kwargs):
    """``(x_train, y_train), (x_test, y_test)``: object arrays of index lists and 0/1 labels.

    Each split is shuffled with `seed`. Every review starts with `start_char`
    and word indices are shifted by `index_from`. Words with index ``>=
    num_words`` or ``< skip_top`` become `oov_char` (dropped if it is None).
    With `maxlen`, reviews of `maxlen` or more indices are left out.

    >>> (x_train, y_train), _ = tf.keras.datasets.imdb.load_data(num_words=5000,
    ...                                                          maxlen=100)  # doctest: +SKIP
    >>> max(max(review) for review in x_train)  # doctest: +SKIP
    4999
    """
    if "nb_words" in kwargs:
        _logger.warning("The `nb_words` argument in `load_data` has been renamed `num_words`.")
        num_words = kwargs.pop("nb_words")
    if kwargs:
        raise TypeError(f"Unrecognized keyword arguments: {str(kwargs)}.")
    path = remote.fetch("imdb.npz", path, cache_dir=cache_dir)
    # The reviews are object arrays of Python lists, which only load unpickled.
    with np.load(path, allow_pickle=True) as f:
        train = f["x_train"], f["y_train"]
        test = f["x_test"], f["y_test"]
    rng = np.random.RandomState(seed)
    splits = [_shuffled(rng, *train), _shuffled(rng, *test)]

    for i, (x, labels) in enumerate(splits):
        x = _indexed(x, start_char, index_from)
        if maxlen:
            x, labels = _shorter_than(maxlen, x, labels)
        splits[i] = x, labels
    if maxlen and not (splits[0][0] and splits[1][0]):
        raise ValueError(f"After filtering for sequences shorter than maxlen={str(maxlen)}, "
                         "no sequence was kept. Increase maxlen.")

    if not num_words:
        num_words = max(max(seq) for x, _ in splits for seq in x)
    result = []
    for x, labels in splits:
        result.append((_object_array(_limited(x, num_words, skip_top, oov_char)),
                       np.asarray(labels)))
    return tuple(result)


@export("keras.datasets.imdb.get_word_index")
def get_word_index(path="imdb_word_index.json"):
    """The dict mapping each word to its frequency rank (1 = most frequent).

    >>> tf.keras.datasets.imdb.get_word_index()["the"]  # doctest: +SKIP
    1
    """
    with open(remote.fetch("imdb_word_index.json", path)) as f:
        return json.load(f)
