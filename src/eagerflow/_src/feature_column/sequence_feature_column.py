"""Sequence feature columns (``tf.feature_column.sequence_*``): features holding a sequence
of values per example, read by `tf.keras.experimental.SequenceFeatures` as a dense tensor
``[batch, steps, width]`` and the number of steps of each example.

A sequence categorical column gives ids of shape ``[batch, steps, ids per step]``, so that
indicator and embedding columns combine the ids of each step, not of the whole example.

>>> col = tf.feature_column.sequence_categorical_column_with_identity("ids", 4)
>>> tf.feature_column.indicator_column(col).name
'ids_indicator'
"""
import collections
import math

from eagerflow._src.backend.api_export import export
from eagerflow._src.core import dtypes as _d
from eagerflow._src.feature_column import feature_column_v2 as fc
from eagerflow._src.ops import array_ops, debugging_ops, reduction_ops, sparse_ops, sparse_tensor
from eagerflow._src.ops.parsing_ops import VarLenFeature
from eagerflow._src.ops.sparse_tensor import SparseTensor


def _as_steps(sparse):
    """`sparse` ``[batch, steps, ...]`` as ``[batch, steps, the rest flattened]``."""
    shape = sparse.dense_shape
    return sparse_ops.reshape(sparse, array_ops.stack(
        [shape[0], shape[1], reduction_ops.reduce_prod(shape[2:])]))


class SequenceCategoricalColumn(fc.OfCategorical, fc.CategoricalColumn, collections.namedtuple(
        "SequenceCategoricalColumn", ["categorical_column"])):
    """A categorical column read as a sequence: its ids of each step, to be combined by step."""
    __slots__ = ()
    _is_sequence = True

    @property
    def name(self):
        return self.categorical_column.name

    @property
    def num_buckets(self):
        return self.categorical_column.num_buckets

    def _transform(self, cache):
        return _as_steps(self.categorical_column._ids(cache))

    def _ids(self, cache):
        return cache.get(self)

    def _weights(self, cache):
        weights = self.categorical_column._weights(cache)
        return None if weights is None else _as_steps(weights)


class SequenceNumericColumn(fc._dense_tuple("SequenceNumericColumn", [
        "key", "shape", "default_value", "dtype", "normalizer_fn"], fc.Numeric,
        fc.SequenceDenseColumn)):
    """A sequence of real values of `shape` per step, from a SparseTensor feature."""

    @property
    def parse_example_spec(self):
        return {self.key: VarLenFeature(self.dtype)}

    def _transform(self, cache):
        value = cache.raw(self.key)
        return value if self.normalizer_fn is None else self.normalizer_fn(value)

    def _sequence(self, cache, layer):
        values = cache.get(self)
        if not isinstance(values, SparseTensor):
            raise TypeError("Input must be a SparseTensor.")
        dense = sparse_tensor.to_dense(values, default_value=self.default_value)
        dense = array_ops.reshape(dense, array_ops.concat(
            [array_ops.shape(dense)[:1], [-1], list(self.shape)], 0))
        # the values of a step lie along the steps of a 2-D feature, on their own axis else
        per_step = math.prod(self.shape) if values.shape.rank == 2 else 1
        return dense, fc.sequence_length(values, per_step)


@export("feature_column.sequence_numeric_column",
        "compat.v1.feature_column.sequence_numeric_column")
def sequence_numeric_column(key, shape=(1,), default_value=0.0, dtype=_d.float32,
                            normalizer_fn=None):
    """A sequence of real values of `shape` per step; a step's values are read in order from
    a SparseTensor, missing ones given `default_value`.

    >>> col = tf.feature_column.sequence_numeric_column("x")
    >>> x = tf.sparse.SparseTensor([[0, 0], [0, 1], [1, 0]], [1.0, 2.0, 3.0], [2, 2])
    >>> values, length = tf.keras.experimental.SequenceFeatures([col])({"x": x})
    >>> length
    <tf.Tensor: shape=(2,), dtype=int64, numpy=array([2, 1])>
    """
    shape, dtype = fc.check_numeric(key, shape, dtype, normalizer_fn)
    return SequenceNumericColumn(key, shape, default_value, dtype, normalizer_fn)


@export("feature_column.sequence_categorical_column_with_identity",
        "compat.v1.feature_column.sequence_categorical_column_with_identity")
def sequence_categorical_column_with_identity(key, num_buckets, default_value=None):
    """`categorical_column_with_identity` read as a sequence of ids.

    >>> tf.feature_column.sequence_categorical_column_with_identity("ids", 4).num_buckets
    4
    """
    return SequenceCategoricalColumn(
        fc.categorical_column_with_identity(key, num_buckets, default_value))


@export("feature_column.sequence_categorical_column_with_hash_bucket",
        "compat.v1.feature_column.sequence_categorical_column_with_hash_bucket")
def sequence_categorical_column_with_hash_bucket(key, hash_bucket_size, dtype=_d.string):
    """`categorical_column_with_hash_bucket` read as a sequence of ids.

    >>> tf.feature_column.sequence_categorical_column_with_hash_bucket("w", 10).name
    'w'
    """
    return SequenceCategoricalColumn(
        fc.categorical_column_with_hash_bucket(key, hash_bucket_size, dtype))


@export("feature_column.sequence_categorical_column_with_vocabulary_file",
        "compat.v1.feature_column.sequence_categorical_column_with_vocabulary_file")
def sequence_categorical_column_with_vocabulary_file(key, vocabulary_file, vocabulary_size=None,
                                                     num_oov_buckets=0, default_value=None,
                                                     dtype=_d.string):
    """`categorical_column_with_vocabulary_file` read as a sequence of ids.

    >>> tf.feature_column.sequence_categorical_column_with_vocabulary_file(
    ...     "w", "vocab.txt", 3).num_buckets
    3
    """
    return SequenceCategoricalColumn(fc.categorical_column_with_vocabulary_file(
        key, vocabulary_file, vocabulary_size, dtype=dtype, default_value=default_value,
        num_oov_buckets=num_oov_buckets))


@export("feature_column.sequence_categorical_column_with_vocabulary_list",
        "compat.v1.feature_column.sequence_categorical_column_with_vocabulary_list")
def sequence_categorical_column_with_vocabulary_list(key, vocabulary_list, dtype=None,
                                                     default_value=-1, num_oov_buckets=0):
    """`categorical_column_with_vocabulary_list` read as a sequence of ids.

    >>> tf.feature_column.sequence_categorical_column_with_vocabulary_list(
    ...     "w", ["a", "b"], num_oov_buckets=1).num_buckets
    3
    """
    return SequenceCategoricalColumn(fc.categorical_column_with_vocabulary_list(
        key, vocabulary_list, dtype, default_value, num_oov_buckets))


def sequence_features(columns, features, layer):
    """The columns' dense tensors ``[batch, steps, width]`` of `features`, sorted by column
    name and concatenated along the last axis, and the sequence lengths (which the columns
    must agree on: InvalidArgumentError if not)."""
    cache = fc._Cache(features, layer)
    columns = sorted(columns, key=lambda c: c.name)
    outputs, lengths = [], []
    for column in columns:
        dense, length = column._sequence(cache, layer)
        shape = array_ops.shape(dense)
        outputs.append(array_ops.reshape(
            dense, [shape[0], shape[1], column.variable_shape.num_elements()]))
        lengths.append(length)
    fc.check_batch_sizes(lengths, columns)
    for other in lengths[1:]:
        debugging_ops.assert_equal(lengths[0], other)
    fc.check_batch_sizes(outputs, columns)
    return array_ops.concat(outputs, -1), lengths[0]
