"""Keras's legacy sequence preprocessing (``tf.keras.preprocessing.sequence``): batches of
windows of a time series, and skip-gram pairs for word2vec.

>>> tf.keras.preprocessing.sequence.make_sampling_table(3).round(4)
array([0.0032, 0.0032, 0.0055])
"""
import json
import random

import numpy as np

from eagerflow._src.backend.api_export import export
from eagerflow._src.keras.utils.data_utils import Sequence


@export("keras.preprocessing.sequence.TimeseriesGenerator")
class TimeseriesGenerator(Sequence):
    """Batches of `length`-step windows of `data` (every `sampling_rate`-th step) ending
    before each `stride`-th step from ``start_index + length``, with that step's target."""

    def __init__(self, data, targets, length, sampling_rate=1, stride=1, start_index=0,
                 end_index=None, shuffle=False, reverse=False, batch_size=128):
        if len(data) != len(targets):
            raise ValueError(f"Data and targets have to be of same length. Data length is "
                             f"{len(data)} while target length is {len(targets)}")
        self.data, self.targets, self.length = data, targets, length
        self.sampling_rate, self.stride = sampling_rate, stride
        self.start_index = start_index + length
        self.end_index = len(data) - 1 if end_index is None else end_index
        self.shuffle, self.reverse, self.batch_size = shuffle, reverse, batch_size
        if self.start_index > self.end_index:
            raise ValueError(f"`start_index+length={self.start_index} > "
                             f"end_index={self.end_index}` is disallowed, as no part of the "
                             f"sequence would be left to be used as current step.")

    def __len__(self):
        span = self.batch_size * self.stride
        return (self.end_index - self.start_index + span) // span

    def __getitem__(self, index):
        if self.shuffle:
            rows = np.random.randint(self.start_index, self.end_index + 1, size=self.batch_size)
        else:
            first = self.start_index + self.batch_size * self.stride * index
            rows = np.arange(first, min(first + self.batch_size * self.stride,
                                        self.end_index + 1), self.stride)
        samples = np.array([self.data[row - self.length:row:self.sampling_rate]
                            for row in rows])
        targets = np.array([self.targets[row] for row in rows])
        return (samples[:, ::-1, ...], targets) if self.reverse else (samples, targets)

    def get_config(self):
        def as_json(value, what):
            if type(value).__module__ == np.__name__:
                value = value.tolist()
            try:
                return json.dumps(value)
            except TypeError as e:
                raise TypeError(f"{what} not JSON Serializable:", value) from e
        return {"data": as_json(self.data, "Data"), "targets": as_json(self.targets, "Targets"),
                "length": self.length, "sampling_rate": self.sampling_rate,
                "stride": self.stride, "start_index": self.start_index,
                "end_index": self.end_index, "shuffle": self.shuffle, "reverse": self.reverse,
                "batch_size": self.batch_size}

    def to_json(self, **kwargs):
        return json.dumps({"class_name": type(self).__name__, "config": self.get_config()},
                          **kwargs)


@export("keras.preprocessing.sequence.make_sampling_table")
def make_sampling_table(size, sampling_factor=1e-5):
    """The probability of keeping each word rank in `skipgrams` (Zipf's law estimate of
    word frequency, as word2vec subsamples frequent words)."""
    rank = np.arange(size)
    rank[0] = 1
    inverse_frequency = rank * (np.log(rank) + 0.577) + 0.5 - 1.0 / (12.0 * rank)
    f = sampling_factor * inverse_frequency
    return np.minimum(1.0, f / np.sqrt(f))


@export("keras.preprocessing.sequence.skipgrams")
def skipgrams(sequence, vocabulary_size, window_size=4, negative_samples=1.0, shuffle=True,
              categorical=False, sampling_table=None, seed=None):
    """``(couples, labels)``: each word with the words within `window_size` of it (label
    1), then `negative_samples` times as many random pairs (label 0), drawn with Python's
    `random` in Keras's order."""
    couples, labels = [], []
    positive, negative = ([0, 1], [1, 0]) if categorical else (1, 0)
    for i, word in enumerate(sequence):
        if not word:
            continue
        if sampling_table is not None and sampling_table[word] < random.random():
            continue
        for j in range(max(0, i - window_size), min(len(sequence), i + window_size + 1)):
            if j != i and sequence[j]:
                couples.append([word, sequence[j]])
                labels.append(positive)
    if negative_samples > 0:
        count = int(len(labels) * negative_samples)
        words = [couple[0] for couple in couples]
        random.shuffle(words)
        couples += [[words[i % len(words)], random.randint(1, int(vocabulary_size - 1))]
                    for i in range(count)]
        labels += [negative] * count
    if shuffle:
        if seed is None:
            seed = random.randint(0, int(10e6))
        random.seed(seed)
        random.shuffle(couples)
        random.seed(seed)
        random.shuffle(labels)
    return couples, labels
