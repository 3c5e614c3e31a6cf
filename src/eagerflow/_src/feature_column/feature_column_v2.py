"""``tf.feature_column``: descriptions of how raw features (a dict of tensors) become the
dense input of a model, read by `tf.keras.layers.DenseFeatures`.

Categorical columns map a feature to a `SparseTensor` of int64 ids (empty strings and -1
are missing values); `indicator_column` and `embedding_column` turn those ids into dense
tensors.

>>> age = tf.feature_column.numeric_column("age")
>>> tf.feature_column.bucketized_column(age, [30.0]).name
'age_bucketized'
"""
import collections
import math

import numpy as np

from eagerflow._src.backend.api_export import export
from eagerflow._src.core import dtypes as _d
from eagerflow._src.core import context
from eagerflow._src.core.tensor_shape import TensorShape
from eagerflow._src.ops import array_ops, cast_ops, fingerprint_ops, lookup_ops, math_ops, \
    reduction_ops, sparse_ops, sparse_tensor, string_ops
from eagerflow._src.ops.parsing_ops import FixedLenFeature, VarLenFeature
from eagerflow._src.ops.sparse_tensor import SparseTensor
from eagerflow._src.ragged.ragged_tensor import RaggedTensor
# (Keras first: TF 1's initializers build on Keras's, whose backend needs TF 1's variable
# scopes, which need those initializers; entered from Keras, the chain closes)
from eagerflow._src.keras import initializers
from eagerflow._src.keras.utils import serialization
from eagerflow._src.compat import init_ops_v1, saver

class _Cache:
    """The features of one call and the transformed values of the columns read so far."""

    def __init__(self, features, layer=None):
        self.features = features
        self.layer = layer
        self.done = {}

    def raw(self, key):
        if key not in self.features:
            raise ValueError(f"Feature {key} is not in features dictionary.")
        if key not in self.done:
            value = self.features[key]
            if isinstance(value, RaggedTensor):  # (TF's columns take no ragged features)
                raise ValueError("TypeError: object of type 'RaggedTensor' has no len()")
            if isinstance(value, SparseTensor):
                if value.shape.rank == 1:
                    value = sparse_ops.expand_dims(value, -1)
            else:
                value = array_ops.convert_to_tensor(value)
                rank = value.shape.rank
                if rank == 0:
                    raise ValueError(f"Feature (key: {key}) cannot have rank 0. "
                                     f"Given: {value}")
                if rank == 1:
                    value = array_ops.expand_dims(value, -1)
            self.done[key] = value
        return self.done[key]

    def get(self, column):
        if isinstance(column, str):
            return self.raw(column)
        key = (type(column), column)  # (columns are tuples: equal fields are not enough)
        if key not in self.done:
            self.done[key] = column._transform(self)
        return self.done[key]


def _to_sparse_ids(value, ignore):
    """A dense feature as a SparseTensor without its missing values (`ignore`)."""
    if isinstance(value, SparseTensor):
        return value
    keep = math_ops.not_equal(value, ignore)
    indices = array_ops.where(keep)
    return SparseTensor(indices, array_ops.gather_nd(value, indices),
                        cast_ops.cast(array_ops.shape(value), _d.int64))


def _with_values(sparse, values):
    return SparseTensor(sparse.indices, values, sparse.dense_shape)


def _nested_tuple(array):
    return tuple(_nested_tuple(a) for a in array) if array.ndim > 1 else tuple(array.tolist())


def _check_key(key):
    if not isinstance(key, str):
        raise ValueError(f"key must be a string. Got: type {type(key)}. Given key: {key}.")


class FeatureColumn:
    """The base of every feature column."""
    # (TF 1's graph-only columns, read by `input_layer` but refused by the Keras layers)
    _v1_only = False

    @property
    def parents(self):
        return []

    def get_config(self):
        """The column's fields as Keras configs hold them: columns nested as
        ``{"class_name", "config"}``, dtypes by name, tuples kept as tuples."""
        return {field: _config_value(getattr(self, field)) for field in self._fields}

    @classmethod
    def from_config(cls, config, custom_objects=None, columns_by_name=None):
        """The column of `get_config`'s `config`."""
        values = {}
        for field, value in config.items():
            if field == "initializer" and value is not None:
                # (as TF: by name among TF 1's initializers, which draw other values
                # than Keras's of the same name and seed)
                value = serialization.deserialize_keras_object(
                    _json_values(value), module_objects=_V1_INITIALIZERS,
                    custom_objects=custom_objects, printable_module_name="initializer")
            elif field == "normalizer_fn" and value is not None:
                if value not in (custom_objects or {}):
                    raise ValueError(f"Unknown normalizer_fn: {value}. Please ensure it is "
                                     "passed in `custom_objects`.")
                value = custom_objects[value]
            elif field == "dtype":
                value = _d.as_dtype(value)
            else:
                value = _from_config_value(value, custom_objects)
            values[field] = value
        return cls(**values)


def _config_value(value):
    if isinstance(value, FeatureColumn):
        return serialize_feature_column(value)
    if isinstance(value, _d.DType):
        return value.name
    if isinstance(value, tuple):
        return tuple(_config_value(v) for v in value)
    if callable(value):
        if hasattr(value, "get_config"):
            return {"class_name": type(value).__name__, "config": value.get_config()}
        return getattr(value, "__name__", value)
    return value


_V1_INITIALIZERS = {name: value for name, value in vars(init_ops_v1).items()
                     if isinstance(value, type) and issubclass(value, init_ops_v1._V1)}


def _json_values(value):
    """`value` with the arrays a Keras config writes as ``__numpy__``/``__tensor__`` dicts
    as the nested lists TF's JSON config gives back."""
    if isinstance(value, dict):
        if value.get("class_name") in ("__numpy__", "__tensor__"):
            return value["config"]["value"]
        return {k: _json_values(v) for k, v in value.items()}
    return value


def _from_config_value(value, custom_objects):
    if isinstance(value, dict) and "class_name" in value:
        return deserialize_feature_column(value, custom_objects)
    if isinstance(value, (list, tuple)):
        return tuple(_from_config_value(v, custom_objects) for v in value)
    return value


def serialize_feature_column(column):
    """A column as ``{"class_name": ..., "config": ...}`` (a string key stays a string)."""
    if isinstance(column, str):
        return column
    return {"class_name": type(column).__name__, "config": column.get_config()}


def deserialize_feature_column(config, custom_objects=None):
    """The column of `serialize_feature_column`'s `config`."""
    if isinstance(config, str):
        return config
    classes = _column_classes()
    name = config["class_name"]
    if name not in classes:
        raise ValueError(f"Unknown feature column class: {name}")
    return classes[name].from_config(config["config"], custom_objects=custom_objects)


def _column_classes():
    """Every public column class by name (those of `sequence_feature_column` too)."""
    found, todo = {}, [FeatureColumn]
    while todo:
        for cls in todo.pop().__subclasses__():
            todo.append(cls)
            named = [c for c in cls.__subclasses__() if c.__name__ == cls.__name__]
            if not cls.__name__.startswith("_") and not named:  # (not `_dense_tuple`'s base)
                found[cls.__name__] = cls
    return found


class DenseColumn(FeatureColumn):
    """A column with a dense representation (`get_dense_tensor`)."""


class SequenceDenseColumn(FeatureColumn):
    """A column with a dense representation of each step of a sequence, read by
    `tf.keras.experimental.SequenceFeatures` (`_sequence`: the dense tensor and the
    sequence lengths)."""


class CategoricalColumn(FeatureColumn):
    """A column of int64 ids in ``[0, num_buckets)`` (`get_sparse_tensors`)."""
    _is_sequence = False  # (ids of the steps of a sequence: `SequenceCategoricalColumn`)

    def _weights(self, cache):
        """The ids' weights (a SparseTensor like the ids), or None."""
        return None


def _dense_tuple(name, fields, *bases):
    return type(name, (collections.namedtuple(name, fields), *bases), {"__slots__": ()})


def sequence_length(sparse, num_elements=1):
    """The number of steps of each example (row) of `sparse`: one past its last column
    holding a value, in groups of `num_elements` values (rounded up); 0 for an empty row."""
    rows = sparse.indices[:, 0]
    steps = reduction_ops.segment_max(sparse.indices[:, 1] + 1, rows)
    if num_elements != 1:
        steps = cast_ops.cast(math_ops.ceil(cast_ops.cast(steps, _d.float64) / num_elements),
                              _d.int64)
    missing = sparse.dense_shape[:1] - array_ops.shape(steps, out_type=_d.int64)
    return array_ops.concat([steps, array_ops.zeros(missing, _d.int64)], 0)


def _refuse_sequence(column, kind, layer):
    """DenseFeatures' error for an indicator or embedding column of a sequence column (TF 1's
    `input_layer` names the type as TF 1 did)."""
    cat = column.categorical_column
    if cat._is_sequence:
        raise ValueError(
            f"In {kind}: {column.name}. categorical_column must not be of type "
            f"{getattr(layer, '_sequence_type', 'SequenceCategoricalColumn')}. Suggested fix "
            "A: If you wish to use DenseFeatures, use a non-sequence categorical_column_with_*. "
            "Suggested fix B: If you wish to create sequence input, use SequenceFeatures "
            f"instead of DenseFeatures. Given (type {type(cat)}): {cat}")


def _sequence_ids(column, kind, cache):
    """The ids of `column`'s sequence column (SequenceFeatures' error for another)."""
    cat = column.categorical_column
    if not cat._is_sequence:
        raise ValueError(
            f"In {kind}: {column.name}. categorical_column must be of type "
            "SequenceCategoricalColumn to use SequenceFeatures. Suggested fix: Use one of "
            f"sequence_categorical_column_with_*. Given (type {type(cat)}): {cat}")
    return cat._ids(cache)


class Numeric:
    """The name and shape of a column of real values of `shape` from the feature `key`."""
    __slots__ = ()

    @property
    def name(self):
        return self.key

    @property
    def variable_shape(self):
        return TensorShape(self.shape)


class OfCategorical:
    """The parents and parse spec of a column built on its `categorical_column`."""
    __slots__ = ()

    @property
    def parents(self):
        return [self.categorical_column]

    @property
    def parse_example_spec(self):
        return self.categorical_column.parse_example_spec


class NumericColumn(_dense_tuple("NumericColumn", ["key", "shape", "default_value", "dtype",
                                                   "normalizer_fn"], Numeric, DenseColumn)):
    """A real-valued feature, cast to float32 after `normalizer_fn`."""

    @property
    def parse_example_spec(self):
        return {self.key: FixedLenFeature(self.shape, self.dtype, self.default_value)}

    def _transform(self, cache):
        value = cache.raw(self.key)
        if isinstance(value, SparseTensor):
            raise ValueError("The corresponding Tensor of numerical column must be a Tensor. "
                             f"SparseTensor is not supported. key: {self.key}")
        if self.normalizer_fn is not None:
            value = self.normalizer_fn(value)
        return cast_ops.cast(value, _d.float32)

    def _dense(self, cache, layer):
        return cache.get(self)


class BucketizedColumn(_dense_tuple("BucketizedColumn", ["source_column", "boundaries"],
                                    DenseColumn), CategoricalColumn):
    """A numeric column's values as bucket ids (dense: their one-hot vectors)."""

    @property
    def name(self):
        return f"{self.source_column.name}_bucketized"

    @property
    def parents(self):
        return [self.source_column]

    @property
    def variable_shape(self):
        return TensorShape(tuple(self.source_column.shape) + (len(self.boundaries) + 1,))

    @property
    def num_buckets(self):
        return math.prod(self.source_column.shape) * (len(self.boundaries) + 1)

    @property
    def parse_example_spec(self):
        return self.source_column.parse_example_spec

    def _transform(self, cache):
        buckets = math_ops.bucketize(cache.get(self.source_column), self.boundaries)
        return cast_ops.cast(buckets, _d.int64)

    def _dense(self, cache, layer):
        return array_ops.one_hot(cache.get(self), len(self.boundaries) + 1, dtype=_d.float32)

    def _ids(self, cache):
        buckets = cache.get(self)
        batch = array_ops.shape(buckets, out_type=_d.int64)[0]
        size = math.prod(self.source_column.shape)
        flat = array_ops.reshape(buckets, [-1, size])
        offsets = np.arange(size, dtype=np.int64) * (len(self.boundaries) + 1)
        values = array_ops.reshape(flat + offsets, [-1])
        rows = array_ops.reshape(array_ops.tile(array_ops.expand_dims(
            array_ops.range(batch), 1), [1, size]), [-1])
        cols = array_ops.tile(array_ops.range(size, dtype=_d.int64), [batch])
        return SparseTensor(array_ops.stack([rows, cols], 1), values,
                            array_ops.stack([batch, np.int64(size)]))


class _Categorical(CategoricalColumn):
    """Shared steps of the columns read from one raw feature."""

    @property
    def name(self):
        return self.key

    @property
    def parse_example_spec(self):
        return {self.key: VarLenFeature(self.dtype)}

    _kind_first = False  # (whether TF checks for strings or integers before the dtypes agree)

    def _raw_ids(self, cache):
        value = cache.raw(self.key)
        if self._kind_first:
            self._check_kind(value)
        if value.dtype.is_integer != self.dtype.is_integer:
            raise ValueError(f"Column dtype and SparseTensors dtype must be compatible. "
                             f"key: {self.key}, column dtype: {self.dtype}, "
                             f"tensor dtype: {value.dtype}")
        self._check_kind(value)
        ignore = "" if value.dtype == _d.string else -1
        return _to_sparse_ids(value, ignore)

    def _ids(self, cache):
        return cache.get(self)

    def _check_kind(self, value):
        if not (value.dtype.is_integer or value.dtype == _d.string):
            raise ValueError(f"column_name: {self.key} input_tensor dtype must be string or "
                             f"integer. dtype: {value.dtype}.")


def _hash_strings(values, buckets):
    if values.dtype != _d.string:
        values = string_ops.as_string(values)
    return fingerprint_ops.to_hash_bucket_fast(values, buckets)


class _Vocabulary(_Categorical):
    """Lookup of a feature's values in a vocabulary (`_vocabulary`), out-of-vocabulary
    values hashed into `num_oov_buckets` after it or given `default_value`."""
    __slots__ = ()
    _tables = {}

    def _table(self):
        table = self._tables.get((type(self), self))
        if table is None:
            with context.init_scope():
                table = lookup_ops.StaticHashTable(self._initializer(), -1)
            self._tables[(type(self), self)] = table
        return table

    def _transform(self, cache):
        ids = self._raw_ids(cache)
        values = ids.values
        if values.dtype != _d.string:
            values = cast_ops.cast(values, _d.int64)
        table = self._table()
        if cache.layer is not None:  # (tracked by the layer, so that SavedModels hold it)
            cache.layer._track_lookup_table(self.name, table)
        found = table.lookup(values)
        if self.num_oov_buckets:
            other = _hash_strings(values, self.num_oov_buckets) + \
                (self.num_buckets - self.num_oov_buckets)
        else:
            default = -1 if self.default_value is None else self.default_value
            other = array_ops.fill(array_ops.shape(found), np.int64(default))
        return _with_values(ids, array_ops.where(math_ops.equal(found, -1), other, found))


class VocabularyListCategoricalColumn(_Vocabulary, collections.namedtuple(
        "VocabularyListCategoricalColumn", ["key", "vocabulary_list", "dtype", "default_value",
                                            "num_oov_buckets"])):
    """Ids of the places of a feature's values in a vocabulary."""
    __slots__ = ()

    @property
    def num_buckets(self):
        return len(self.vocabulary_list) + self.num_oov_buckets

    def _initializer(self):
        keys = np.array(self.vocabulary_list, object if self.dtype == _d.string else np.int64)
        return lookup_ops.KeyValueTensorInitializer(keys, np.arange(len(keys), dtype=np.int64))


class VocabularyFileCategoricalColumn(_Vocabulary, collections.namedtuple(
        "VocabularyFileCategoricalColumn", ["key", "vocabulary_file", "vocabulary_size",
                                            "num_oov_buckets", "dtype", "default_value",
                                            "file_format"])):
    """Ids of the lines of a vocabulary file holding a feature's values."""
    __slots__ = ()

    @property
    def num_buckets(self):
        return self.vocabulary_size + self.num_oov_buckets

    def _initializer(self):
        # (the table's own reading of the file: a file shorter than `vocabulary_size`, an
        # empty line or a key that is not an integer fail as TF's lookups do)
        whole_line, line_number = lookup_ops.TextFileIndex.WHOLE_LINE, \
            lookup_ops.TextFileIndex.LINE_NUMBER
        return lookup_ops.TextFileInitializer(
            self.vocabulary_file, _d.string if self.dtype == _d.string else _d.int64,
            whole_line, _d.int64, line_number, vocab_size=self.vocabulary_size)


class IdentityCategoricalColumn(_Categorical, collections.namedtuple(
        "IdentityCategoricalColumn", ["key", "number_buckets", "default_value"])):
    """A feature of integer ids used as they are."""
    __slots__ = ()

    @property
    def num_buckets(self):
        return self.number_buckets

    @property
    def dtype(self):
        return _d.int64

    def _transform(self, cache):
        if not cache.raw(self.key).dtype.is_integer:
            raise ValueError(f"Invalid input, not integer. key: {self.key} "
                             f"dtype: {cache.raw(self.key).dtype}")
        ids = self._raw_ids(cache)
        values = cast_ops.cast(ids.values, _d.int64)
        if self.default_value is not None:
            inside = math_ops.logical_and(math_ops.greater_equal(values, 0),
                                          math_ops.less(values, self.number_buckets))
            values = array_ops.where(inside, values, np.int64(self.default_value))
        return _with_values(ids, values)


class HashedCategoricalColumn(_Categorical, collections.namedtuple(
        "HashedCategoricalColumn", ["key", "hash_bucket_size", "dtype"])):
    """A feature's values hashed into buckets (integers hashed as their strings)."""
    __slots__ = ()
    _kind_first = True

    @property
    def num_buckets(self):
        return self.hash_bucket_size

    def _transform(self, cache):
        ids = self._raw_ids(cache)
        return _with_values(ids, _hash_strings(ids.values, self.hash_bucket_size))


class CrossedColumn(CategoricalColumn, collections.namedtuple(
        "CrossedColumn", ["keys", "hash_bucket_size", "hash_key"])):
    """The hashed combinations of the values of several features."""
    __slots__ = ()

    @property
    def name(self):
        return "_X_".join(sorted(k if isinstance(k, str) else k.name for k in self.keys))

    @property
    def num_buckets(self):
        return self.hash_bucket_size

    @property
    def parents(self):
        return list(self.keys)

    @property
    def parse_example_spec(self):
        spec = {}
        for key in self.keys:
            if isinstance(key, str):
                spec[key] = VarLenFeature(_d.string)
            else:
                spec.update(key.parse_example_spec)
        return spec

    def _leaf_keys(self):
        """The keys, those of crossed columns among them in their place (TF crosses the
        features of a nested cross, not its hashed ids)."""
        return [leaf for key in self.keys for leaf in
                (key._leaf_keys() if isinstance(key, CrossedColumn) else [key])]

    def _transform(self, cache):
        inputs = []
        for key in self._leaf_keys():
            if isinstance(key, str):
                inputs.append(cache.raw(key))
                continue
            inputs.append(key._ids(cache))
            if key._weights(cache) is not None:
                raise ValueError("crossed_column does not support weight_tensor, but the given "
                                 f"column populates weight_tensor. Given column: {key.name}")
        return sparse_ops.cross_hashed(inputs, num_buckets=self.hash_bucket_size,
                                       hash_key=self.hash_key)

    def _ids(self, cache):
        return cache.get(self)


class WeightedCategoricalColumn(CategoricalColumn, collections.namedtuple(
        "WeightedCategoricalColumn", ["categorical_column", "weight_feature_key", "dtype"])):
    """A categorical column whose ids are weighted by the values of another feature."""
    __slots__ = ()

    @property
    def name(self):
        return f"{self.categorical_column.name}_weighted_by_{self.weight_feature_key}"

    @property
    def num_buckets(self):
        return self.categorical_column.num_buckets

    @property
    def parents(self):
        return [self.categorical_column, self.weight_feature_key]

    @property
    def parse_example_spec(self):
        spec = dict(self.categorical_column.parse_example_spec)
        if self.weight_feature_key in spec:
            raise ValueError(f"Parse config {spec[self.weight_feature_key]} already exists "
                             f"for {self.weight_feature_key}.")
        spec[self.weight_feature_key] = VarLenFeature(self.dtype)
        return spec

    def _ids(self, cache):
        return self.categorical_column._ids(cache)

    def _weights(self, cache):
        weights = cache.raw(self.weight_feature_key)
        if weights.dtype != self.dtype:
            raise ValueError(f"Bad dtype, expected {self.dtype}, but got {weights.dtype}.")
        return _to_sparse_ids(weights, np.zeros((), self.dtype.as_numpy_dtype))


class IndicatorColumn(_dense_tuple("IndicatorColumn", ["categorical_column"], OfCategorical,
                                   DenseColumn, SequenceDenseColumn)):
    """A categorical column's ids as multi-hot vectors (counts of each id)."""

    @property
    def name(self):
        return f"{self.categorical_column.name}_indicator"

    @property
    def variable_shape(self):
        return TensorShape([1, self.categorical_column.num_buckets])

    def _transform(self, cache):
        column = self.categorical_column
        ids = column._ids(cache)
        dense = sparse_tensor.to_dense(ids, default_value=-1)
        hot = array_ops.one_hot(dense, column.num_buckets, dtype=_d.float32)
        weights = column._weights(cache)
        if weights is not None:
            weights = sparse_tensor.to_dense(weights)
            hot = hot * array_ops.expand_dims(cast_ops.cast(weights, _d.float32), -1)
        return reduction_ops.reduce_sum(hot, -2)

    def _dense(self, cache, layer):
        _refuse_sequence(self, "indicator_column", layer)
        return cache.get(self)

    def _sequence(self, cache, layer):
        ids = _sequence_ids(self, "indicator_column", cache)
        return cache.get(self), sequence_length(ids)


class Embedding(OfCategorical):
    """The lookups of the embedding columns, plain and shared: the combined embeddings of the
    ids, in the table `_table_of` gives; named by the categorical column and `_suffix`."""
    __slots__ = ()
    _suffix = "_embedding"

    @property
    def name(self):
        return f"{self.categorical_column.name}{self._suffix}"

    @property
    def variable_shape(self):
        return TensorShape([self.dimension])

    def _table_of(self, layer):
        return layer._column_state[self.name]

    def _dense(self, cache, layer):
        _refuse_sequence(self, "embedding_column", layer)
        return self._lookup(self.categorical_column._ids(cache), cache, layer)

    def _sequence(self, cache, layer):
        ids = _sequence_ids(self, "embedding_column", cache)
        return self._lookup(ids, cache, layer), sequence_length(ids)

    def _lookup(self, ids, cache, layer):
        """The combined embeddings of `ids` (of rank 2 or more: the safe lookup, TF's only
        one above rank 2)."""
        table = self._table_of(layer)
        rank = ids.shape.rank
        lookup = sparse_ops.embedding_lookup_sparse if not self.use_safe_embedding_lookup \
            and rank is not None and rank <= 2 else sparse_ops.safe_embedding_lookup_sparse
        return lookup(table, ids, self.categorical_column._weights(cache),
                      combiner=self.combiner, max_norm=self.max_norm)


class EmbeddingColumn(_dense_tuple("EmbeddingColumn", [
        "categorical_column", "dimension", "combiner", "initializer", "ckpt_to_load_from",
        "tensor_name_in_ckpt", "max_norm", "trainable", "use_safe_embedding_lookup"],
        Embedding, DenseColumn, SequenceDenseColumn)):
    """A categorical column's ids as their combined learned embeddings."""

    def create_state(self, layer):
        """The column's embedding table, a weight of `layer` named as TF names it, starting
        from `tensor_name_in_ckpt` of `ckpt_to_load_from` where given."""
        with context.name_scope_push(self.name):
            table = layer.add_weight(
                name="embedding_weights",
                shape=(self.categorical_column.num_buckets, self.dimension),
                dtype=_d.float32, initializer=self.initializer, trainable=self.trainable)
        return start_from_checkpoint(self, table)


def start_from_checkpoint(embedding, table):
    """`table`, set to `embedding`'s `tensor_name_in_ckpt` of its `ckpt_to_load_from` (its
    initializer's value instead, in a TF 1 graph) where that is given."""
    if embedding.ckpt_to_load_from is not None:
        saver.init_from_checkpoint(embedding.ckpt_to_load_from,
                                   {embedding.tensor_name_in_ckpt: table})
    return table


# -- constructors ------------------------------------------------------------------------------

def check_numeric(key, shape, dtype, normalizer_fn):
    """A numeric column's `shape` (a tuple) and `dtype` (a DType), or TF's errors."""
    shape = (shape,) if isinstance(shape, int) else tuple(int(d) for d in shape)
    if any(d < 1 for d in shape):
        raise ValueError(f"shape dimensions must be greater than 0. shape: {shape}, key: {key}")
    dtype = _d.as_dtype(dtype)
    if not (dtype.is_integer or dtype.is_floating):
        raise ValueError(f"dtype must be convertible to float. dtype: {dtype}, key: {key}")
    if normalizer_fn is not None and not callable(normalizer_fn):
        raise TypeError(f"normalizer_fn must be a callable. Given: {normalizer_fn}")
    return shape, dtype


@export("feature_column.numeric_column", "compat.v1.feature_column.numeric_column")
def numeric_column(key, shape=(1,), default_value=None, dtype=_d.float32, normalizer_fn=None):
    """A column of real values of `shape` per example.

    >>> tf.feature_column.numeric_column("age", shape=(2,))
    NumericColumn(key='age', shape=(2,), default_value=None, dtype=tf.float32, normalizer_fn=None)
    """
    _check_key(key)
    shape, dtype = check_numeric(key, shape, dtype, normalizer_fn)
    if default_value is not None:
        values = np.asarray(default_value)
        if values.dtype.kind not in "iufb":
            raise TypeError(f"default_value must be compatible with dtype. default_value: "
                            f"{default_value}, dtype: {dtype}, key: {key}")
        if values.ndim and values.shape != shape:
            raise ValueError(f"The shape of default_value must be equal to given shape. "
                             f"default_value: {default_value}, shape: {shape}, key: {key}")
        default_value = _nested_tuple(np.broadcast_to(np.asarray(default_value, object), shape))
    return NumericColumn(key, shape, default_value, dtype, normalizer_fn)


@export("feature_column.bucketized_column", "compat.v1.feature_column.bucketized_column")
def bucketized_column(source_column, boundaries):
    """A numeric column split into buckets at `boundaries` (sorted): value ``v`` goes to the
    number of boundaries ``<= v``.

    >>> col = tf.feature_column.bucketized_column(
    ...     tf.feature_column.numeric_column("x"), [0.0, 10.0])
    >>> tf.keras.layers.DenseFeatures([col])({"x": tf.constant([[5.0]])})
    <tf.Tensor: shape=(1, 3), dtype=float32, numpy=array([[0., 1., 0.]], dtype=float32)>
    """
    if not isinstance(source_column, NumericColumn):
        raise ValueError("source_column must be a column generated with numeric_column(). "
                         f"Given: {source_column}")
    if len(source_column.shape) > 1:
        raise ValueError("source_column must be one-dimensional column. "
                         f"Given: {source_column}")
    if not boundaries or not isinstance(boundaries, (list, tuple)):
        raise ValueError("boundaries must not be empty." if isinstance(boundaries, (list, tuple))
                         else "boundaries must be a sorted list.")
    if any(a >= b for a, b in zip(boundaries, boundaries[1:])):
        raise ValueError("boundaries must be a sorted list.")
    return BucketizedColumn(source_column, tuple(boundaries))


@export("feature_column.categorical_column_with_vocabulary_list",
        "compat.v1.feature_column.categorical_column_with_vocabulary_list")
def categorical_column_with_vocabulary_list(key, vocabulary_list, dtype=None, default_value=-1,
                                            num_oov_buckets=0):
    """Ids of a feature's values by their place in `vocabulary_list`; others get
    `default_value` or, with `num_oov_buckets`, a hashed bucket after the vocabulary.

    >>> col = tf.feature_column.categorical_column_with_vocabulary_list("c", ["a", "b"])
    >>> col.num_buckets
    2
    """
    vocabulary_list = list(vocabulary_list) if vocabulary_list is not None else []
    if not vocabulary_list:
        raise ValueError(f"vocabulary_list {vocabulary_list} must be non-empty, "
                         f"column_name: {key}")
    if len(set(vocabulary_list)) != len(vocabulary_list):
        raise ValueError(f"Duplicate keys in vocabulary_list {vocabulary_list}, "
                         f"column_name: {key}")
    strings = isinstance(vocabulary_list[0], (str, bytes))
    vocab_dtype = _d.string if strings else _d.as_dtype(np.asarray(vocabulary_list).dtype)
    if not (strings or vocab_dtype.is_integer):
        raise ValueError(f"column_name: {key} vocabulary dtype must be string or integer. "
                         f"dtype: {vocab_dtype}.")
    vocab_dtype = _d.string if strings else _d.int64
    if dtype is not None:
        dtype = _d.as_dtype(dtype)
        if not (dtype == _d.string or dtype.is_integer):
            raise ValueError(f"column_name: {key} dtype must be string or integer. "
                             f"dtype: {dtype}.")
    dtype = vocab_dtype if dtype is None else dtype
    if strings != (dtype == _d.string):
        raise ValueError(f"dtype {dtype} and vocabulary dtype {vocab_dtype} do not match, "
                         f"column_name: {key}")
    if num_oov_buckets:
        if default_value != -1:
            raise ValueError(f"Can't specify both num_oov_buckets and default_value in {key}.")
    if num_oov_buckets < 0:
        raise ValueError(f"Invalid num_oov_buckets {num_oov_buckets} in {key}.")
    _check_key(key)
    vocab = tuple(v.decode() if isinstance(v, bytes) else v for v in vocabulary_list)
    return VocabularyListCategoricalColumn(key, vocab, dtype, default_value, num_oov_buckets)


@export("feature_column.categorical_column_with_vocabulary_file")
def categorical_column_with_vocabulary_file(key, vocabulary_file, vocabulary_size=None,
                                            dtype=_d.string, default_value=None,
                                            num_oov_buckets=0, file_format=None):
    """Ids of a feature's values by their line in `vocabulary_file` (its first
    `vocabulary_size` lines); others get `default_value` (-1 by default) or, with
    `num_oov_buckets`, a hashed bucket after the vocabulary.

    >>> tf.feature_column.categorical_column_with_vocabulary_file("w", "vocab.txt", 3).name
    'w'
    """
    if not vocabulary_file:
        raise ValueError(f"Missing vocabulary_file in {key}.")
    if vocabulary_size is None:
        try:
            with open(vocabulary_file, "rb") as f:
                vocabulary_size = sum(1 for _ in f)
        except OSError:
            raise ValueError(f"vocabulary_file in {key} does not exist.") from None
    if vocabulary_size < 1:
        raise ValueError(f"Invalid vocabulary_size in {key}.")
    if num_oov_buckets:
        if default_value is not None:
            raise ValueError(f"Can't specify both num_oov_buckets and default_value in {key}.")
        if num_oov_buckets < 0:
            raise ValueError(f"Invalid num_oov_buckets {num_oov_buckets} in {key}.")
    dtype = _d.as_dtype(dtype)
    if not (dtype == _d.string or dtype.is_integer):
        raise ValueError(f"column_name: {key} dtype must be string or integer. "
                         f"dtype: {dtype}.")
    _check_key(key)
    return VocabularyFileCategoricalColumn(key, vocabulary_file, vocabulary_size,
                                           0 if num_oov_buckets is None else num_oov_buckets,
                                           dtype, -1 if default_value is None else default_value,
                                           file_format)


@export("feature_column.weighted_categorical_column",
        "compat.v1.feature_column.weighted_categorical_column")
def weighted_categorical_column(categorical_column, weight_feature_key, dtype=_d.float32):
    """`categorical_column` with each id weighted by the feature `weight_feature_key` (of the
    same shape): indicator columns sum the weights, embedding columns weight the lookups.

    >>> ids = tf.feature_column.categorical_column_with_identity("id", 3)
    >>> tf.feature_column.weighted_categorical_column(ids, "w").name
    'id_weighted_by_w'
    """
    dtype = _d.as_dtype(dtype)
    if dtype is None or not (dtype.is_integer or dtype.is_floating):
        raise ValueError(f"dtype {dtype} is not convertible to float.")
    return WeightedCategoricalColumn(categorical_column, weight_feature_key, dtype)


@export("feature_column.categorical_column_with_identity",
        "compat.v1.feature_column.categorical_column_with_identity")
def categorical_column_with_identity(key, num_buckets, default_value=None):
    """Integer features used as ids in ``[0, num_buckets)``; others become `default_value`.

    >>> tf.feature_column.categorical_column_with_identity("id", 4).num_buckets
    4
    """
    if num_buckets < 1:
        raise ValueError(f"num_buckets {num_buckets} < 1, column_name {key}")
    if default_value is not None and not 0 <= default_value < num_buckets:
        raise ValueError(f"default_value {default_value} not in range [0, {num_buckets}), "
                         f"column_name {key}")
    _check_key(key)
    return IdentityCategoricalColumn(key, num_buckets, default_value)


@export("feature_column.categorical_column_with_hash_bucket",
        "compat.v1.feature_column.categorical_column_with_hash_bucket")
def categorical_column_with_hash_bucket(key, hash_bucket_size, dtype=_d.string):
    """A feature's values hashed (FarmHash Fingerprint64, integers as their decimal strings)
    into `hash_bucket_size` buckets.

    >>> tf.feature_column.categorical_column_with_hash_bucket("w", 10).name
    'w'
    """
    if hash_bucket_size is None:
        raise ValueError(f"hash_bucket_size must be set. key: {key}")
    if hash_bucket_size < 1:
        raise ValueError(f"hash_bucket_size must be at least 1. hash_bucket_size: "
                         f"{hash_bucket_size}, key: {key}")
    _check_key(key)
    dtype = _d.as_dtype(dtype)
    if not (dtype == _d.string or dtype.is_integer):
        raise ValueError(f"column_name: {key} dtype must be string or integer. "
                         f"dtype: {dtype}.")
    return HashedCategoricalColumn(key, hash_bucket_size, dtype)


@export("feature_column.crossed_column", "compat.v1.feature_column.crossed_column")
def crossed_column(keys, hash_bucket_size, hash_key=None):
    """The crosses of the values of `keys` (feature names or categorical columns), hashed
    into `hash_bucket_size` buckets as `tf.sparse.cross_hashed` does.

    >>> tf.feature_column.crossed_column(["a", "b"], 10).name
    'a_X_b'
    """
    if not hash_bucket_size or hash_bucket_size < 1:
        raise ValueError(f"hash_bucket_size must be > 1. hash_bucket_size: {hash_bucket_size}")
    if not keys or len(keys) < 2:
        raise ValueError(f"keys must be a list with length > 1. Given: {keys}")
    for key in keys:
        if isinstance(key, HashedCategoricalColumn):
            raise ValueError("categorical_column_with_hash_bucket is not supported for "
                             "crossing. Hashing before crossing will increase probability of "
                             "collision. Instead, use the feature name as a string. "
                             f"Given: {key}")
        if not isinstance(key, (str, CategoricalColumn)):
            raise ValueError("Unsupported key type. All keys must be either string, or "
                             f"categorical column except HashedCategoricalColumn. Given: {key}")
    return CrossedColumn(tuple(keys), hash_bucket_size, hash_key)


@export("feature_column.indicator_column", "compat.v1.feature_column.indicator_column")
def indicator_column(categorical_column):
    """A categorical column as multi-hot vectors of length ``num_buckets``.

    >>> col = tf.feature_column.indicator_column(
    ...     tf.feature_column.categorical_column_with_identity("id", 3))
    >>> tf.keras.layers.DenseFeatures([col])({"id": tf.constant([[2]])})
    <tf.Tensor: shape=(1, 3), dtype=float32, numpy=array([[0., 0., 1.]], dtype=float32)>
    """
    if not isinstance(categorical_column, CategoricalColumn):
        raise ValueError("Unsupported input type. Input must be a CategoricalColumn. "
                         f"Given: {categorical_column}")
    return IndicatorColumn(categorical_column)


def check_embedding(dimension, initializer, ckpt_to_load_from, tensor_name_in_ckpt,
                    not_callable):
    """An embedding's `initializer` (TF's truncated normal by default), or TF's errors."""
    if dimension is None or dimension < 1:
        raise ValueError(f"Invalid dimension {dimension}.")
    if (ckpt_to_load_from is None) != (tensor_name_in_ckpt is None):
        raise ValueError("Must specify both `ckpt_to_load_from` and `tensor_name_in_ckpt` or "
                         "none of them.")
    if initializer is not None and not callable(initializer):
        raise ValueError(not_callable)
    if initializer is None:
        initializer = init_ops_v1.TruncatedNormal(mean=0.0, stddev=1 / math.sqrt(dimension))
    return initializer


@export("feature_column.embedding_column", "compat.v1.feature_column.embedding_column")
def embedding_column(categorical_column, dimension, combiner="mean", initializer=None,
                     ckpt_to_load_from=None, tensor_name_in_ckpt=None, max_norm=None,
                     trainable=True, use_safe_embedding_lookup=True):
    """A categorical column's ids as embeddings of size `dimension`, combined per example
    by `combiner` ("mean", "sqrtn" or "sum"); the table, ``<column name>/embedding_weights``,
    starts from `initializer` (a truncated normal of stddev ``1/sqrt(dimension)`` by default).

    >>> tf.feature_column.embedding_column(
    ...     tf.feature_column.categorical_column_with_identity("id", 3), 2).name
    'id_embedding'
    """
    initializer = check_embedding(
        dimension, initializer, ckpt_to_load_from, tensor_name_in_ckpt,
        "initializer must be callable if specified. Embedding of column_name: "
        f"{categorical_column.name}")
    return EmbeddingColumn(categorical_column, dimension, combiner, initializer,
                           ckpt_to_load_from, tensor_name_in_ckpt, max_norm, trainable,
                           use_safe_embedding_lookup)


@export("feature_column.make_parse_example_spec")
def make_parse_example_spec(feature_columns):
    """The `tf.io.parse_example` features spec that the columns read.

    >>> tf.feature_column.make_parse_example_spec([tf.feature_column.numeric_column("a")])
    {'a': FixedLenFeature(shape=(1,), dtype=tf.float32, default_value=None)}
    """
    spec = {}
    for column in feature_columns:
        if not isinstance(column, FeatureColumn):
            raise ValueError(f"All feature_columns must be FeatureColumn instances. "
                             f"Given: {column}")
        for key, value in column.parse_example_spec.items():
            if key in spec and spec[key] != value:
                raise ValueError(f"feature_columns contain different parse_spec for key "
                                 f"{key}. Given {value} and {spec[key]}")
            spec[key] = value
    return spec


def check_columns(feature_columns, expected, kind, wrap=True):
    """`feature_columns` (one column or several) as a list, or TF's ValueError when there
    are none or one is not an `expected` (named `kind`; `wrap`: the advice to wrap a
    categorical column, else the column's type)."""
    if isinstance(feature_columns, FeatureColumn):
        feature_columns = [feature_columns]
    feature_columns = list(feature_columns)
    if not feature_columns:
        raise ValueError("feature_columns must not be empty.")
    for column in feature_columns:
        if not isinstance(column, expected):
            given = f"You can wrap a categorical column with an embedding_column or " \
                f"indicator_column. Given: {column}" if wrap else \
                f"Given (type {type(column)}): {column}."
            raise ValueError(f"Items of feature_columns must be a {kind}. {given}")
    return feature_columns


def per_example(dense, column):
    """A column's `dense` tensor as ``[batch, its width]`` (the shape a list of a tensor and
    an int, as TF gives it: an error names no op)."""
    return array_ops.reshape(dense, [array_ops.shape(dense)[0],
                                     column.variable_shape.num_elements()])


def check_batch_sizes(tensors, columns):
    """TF's ValueError when the static batch sizes of the columns' `tensors` differ."""
    first = None
    for tensor, column in zip(tensors, columns):
        size = tensor.shape[0] if tensor.shape.rank else None
        if size is None:
            continue
        if first is None:
            first = (column, size)
        elif size != first[1]:
            raise ValueError("Batch size (first dimension) of each feature must be same. Batch "
                             f"size of columns ({first[0].name}, {column.name}): "
                             f"({first[1]}, {size})")


def dense_features(columns, features, layer, cols_to_output_tensors=None):
    """The columns' dense tensors of `features`, sorted by column name and concatenated (and
    each column's in `cols_to_output_tensors`, if a dict)."""
    cache = _Cache(features, layer)
    columns = sorted(columns, key=lambda c: c.name)
    outputs = []
    for column in columns:
        outputs.append(per_example(column._dense(cache, layer), column))
        if cols_to_output_tensors is not None:
            cols_to_output_tensors[column] = outputs[-1]
    check_batch_sizes(outputs, columns)
    return array_ops.concat(outputs, 1)
