"""Reuters newswires labelled by one of 46 topics (``tf.keras.datasets.reuters``).

Newswires are lists of word indices; index ``i + index_from`` is the i-th most
frequent word, and `get_word_index` maps words to ``i``.

>>> (x_train, y_train), _ = tf.keras.datasets.reuters.load_data(num_words=10000)  # doctest: +SKIP
>>> x_train.shape  # doctest: +SKIP
(8982,)
"""
import json

import numpy as np

from eagerflow._src.backend import log as _log
from eagerflow._src.backend.api_export import export
from eagerflow._src.keras.datasets import imdb, remote

_logger = _log.logger

_LABELS = ("cocoa", "grain", "veg-oil", "earn", "acq", "wheat", "copper", "housing",
           "money-supply", "coffee", "sugar", "trade", "reserves", "ship", "cotton", "carcass",
           "crude", "nat-gas", "cpi", "money-fx", "interest", "gnp", "meal-feed", "alum",
           "oilseed", "gold", "tin", "strategic-metal", "livestock", "retail", "ipi",
           "iron-steel", "rubber", "heat", "jobs", "lei", "bop", "zinc", "orange", "pet-chem",
           "dlr", "gas", "silver", "wpi", "hog", "lead")


@export("keras.datasets.reuters.load_data")
def load_data(path="reuters.npz", num_words=None, skip_top=0, maxlen=None, test_split=0.2,
              seed=113, start_char=1, oov_char=2, index_from=3, cache_dir=None, **kwargs):
    """``(x_train, y_train), (x_test, y_test)``: object arrays of index lists and topic
    labels, shuffled with `seed` and split by `test_split`. Indices are shifted and limited
    as in `keras.datasets.imdb.load_data`."""
    if "nb_words" in kwargs:
        _logger.warning("The `nb_words` argument in `load_data` has been renamed `num_words`.")
        num_words = kwargs.pop("nb_words")
    if kwargs:
        raise TypeError(f"Unrecognized keyword arguments: {str(kwargs)}")
    path = remote.fetch("reuters.npz", path, cache_dir=cache_dir)
    with np.load(path, allow_pickle=True) as f:
        xs, labels = f["x"], f["y"]
    xs, labels = imdb._shuffled(np.random.RandomState(seed), xs, labels)
    xs = imdb._indexed(xs, start_char, index_from)
    if maxlen:
        xs, labels = imdb._shorter_than(maxlen, xs, labels)
    if not num_words:
        num_words = max(max(x) for x in xs)
    xs = imdb._limited(xs, num_words, skip_top, oov_char)
    split = int(len(xs) * (1 - test_split))
    return ((np.array(xs[:split], dtype="object"), np.array(labels[:split])),
            (np.array(xs[split:], dtype="object"), np.array(labels[split:])))


@export("keras.datasets.reuters.get_word_index")
def get_word_index(path="reuters_word_index.json"):
    """The dict mapping each word to its frequency rank (1 = most frequent)."""
    with open(remote.fetch("reuters_word_index.json", path)) as f:
        return json.load(f)


@export("keras.datasets.reuters.get_label_names")
def get_label_names():
    """The names of the 46 topics, by label."""
    return _LABELS
