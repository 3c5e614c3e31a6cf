"""TF 1's feature-column functions kept in ``tf.compat.v1.feature_column``: `input_layer`
and `linear_model` (the dense input and the linear predictions of a dict of features, their
variables made with `get_variable` under ``input_layer/`` and ``linear_model/``),
`shared_embedding_columns`, and TF 1's spellings of `make_parse_example_spec` and
`categorical_column_with_vocabulary_file`.

>>> tf.compat.v1.feature_column.input_layer(
...     {"a": tf.constant([[1.0], [2.0]])}, [tf.feature_column.numeric_column("a")])
<tf.Tensor: shape=(2, 1), dtype=float32, numpy=
array([[1.],
       [2.]], dtype=float32)>
"""

import numpy as np

from eagerflow._src.backend.api_export import export
from eagerflow._src.compat import variable_scope as vs
from eagerflow._src.core import dtypes as _d
from eagerflow._src.feature_column import feature_column_v2 as fc
from eagerflow._src.feature_column import shared_embeddings as shared
from eagerflow._src.ops import array_ops, linalg_ops, nn_ops, reduction_ops, sparse_ops


class _State:
    """What a column's `_dense` asks of a layer: its variables (by column name)."""

    _sequence_type = "_SequenceCategoricalColumn"

    def __init__(self):
        self._column_state = {}

    def _track_lookup_table(self, column_name, table):
        pass


def _check_columns(feature_columns, allowed, kind):
    feature_columns = list(feature_columns) if not isinstance(
        feature_columns, fc.FeatureColumn) else [feature_columns]
    if any(isinstance(c, shared.SharedEmbeddingColumn) for c in feature_columns):
        raise ValueError("SharedEmbeddingColumns are not supported in `linear_model` or "
                         "`input_layer`. Please use `DenseFeatures` or `LinearModel` instead.")
    columns = fc.check_columns(feature_columns, allowed, kind, wrap=kind == "_DenseColumn")
    return sorted(columns, key=lambda c: c.name)


@export("compat.v1.feature_column.input_layer")
def input_layer(features, feature_columns, weight_collections=None, trainable=True,
                cols_to_vars=None, cols_to_output_tensors=None):
    """The dense tensors of `feature_columns` of `features`, sorted by column name and
    concatenated: ``[batch, total width]``, as `tf.keras.layers.DenseFeatures` gives them.

    Embedding tables are made with `get_variable` as
    ``input_layer/<column name>/embedding_weights`` (in `weight_collections` too);
    `cols_to_vars` and `cols_to_output_tensors`, if dicts, receive each column's variables
    and output.

    >>> col = tf.feature_column.indicator_column(
    ...     tf.feature_column.categorical_column_with_identity("i", 3))
    >>> tf.compat.v1.feature_column.input_layer({"i": tf.constant([[2]])}, [col])
    <tf.Tensor: shape=(1, 3), dtype=float32, numpy=array([[0., 0., 1.]], dtype=float32)>
    """
    features.values()  # (TF's AttributeError for features that are not a dict)
    columns = _check_columns(feature_columns, fc.DenseColumn, "_DenseColumn")
    weight_collections = list(weight_collections or ())
    state = _State()
    cache = fc._Cache(features)
    outputs = []
    with vs.variable_scope(None, default_name="input_layer"):
        for column in columns:
            with vs.variable_scope(None, default_name=_scope_name(column)):
                made = _embedding_table(column, state, trainable, weight_collections)
                outputs.append(fc.per_example(column._dense(cache, state), column))
                if cols_to_vars is not None:
                    cols_to_vars[column] = made
                if cols_to_output_tensors is not None:
                    cols_to_output_tensors[column] = outputs[-1]
        fc.check_batch_sizes(outputs, columns)
        return array_ops.concat(outputs, 1)


def _embedding_table(column, state, trainable, collections):
    """The table of an embedding column (made, or its collection's if shared), held in
    `state`: ``[table]``, or ``[]`` for another column."""
    if isinstance(column, fc.EmbeddingColumn):
        table = shared.get_variable(
            "embedding_weights", (column.categorical_column.num_buckets, column.dimension),
            column.initializer, trainable and column.trainable, collections)
    elif isinstance(column, shared._SharedEmbeddingColumn):
        table = column._table(trainable and column.trainable, collections)
    else:
        return []
    state._column_state[column.name] = fc.start_from_checkpoint(column, table)
    return [table]


_COMBINERS = ("mean", "sqrtn", "sum")


@export("compat.v1.feature_column.linear_model")
def linear_model(features, feature_columns, units=1, sparse_combiner="sum",
                 weight_collections=None, trainable=True, cols_to_vars=None):
    """Linear predictions ``[batch, units]`` of `features`: each dense column's values times
    its weights, each categorical column's ids' weights combined by `sparse_combiner`, summed,
    plus a bias. The weights (``linear_model/<column name>/weights``) and the bias
    (``linear_model/bias_weights``) start at zero.

    >>> tf.compat.v1.feature_column.linear_model(
    ...     {"a": tf.constant([[1.0]])}, [tf.feature_column.numeric_column("a")])
    <tf.Tensor: shape=(1, 1), dtype=float32, numpy=array([[0.]], dtype=float32)>
    """
    if sparse_combiner not in _COMBINERS:
        raise ValueError("combiner must be one of 'mean', 'sqrtn' or 'sum', "
                         f"got {sparse_combiner}")
    features.values()
    columns = _check_columns(feature_columns, (fc.DenseColumn, fc.CategoricalColumn),
                             "_FeatureColumn")
    weight_collections = list(weight_collections or ())
    state = _State()
    cache = fc._Cache(features)
    sums, made = [], {}
    zeros = vs.zeros_initializer()
    with vs.variable_scope(None, default_name="linear_model"):
        for column in columns:
            with vs.variable_scope(None, default_name=column.name):
                if isinstance(column, fc.CategoricalColumn):
                    weights = shared.get_variable("weights", (column.num_buckets, units), zeros,
                                                  trainable, weight_collections)
                    sums.append(_sparse_sum(column, cache, weights, sparse_combiner))
                else:
                    _embedding_table(column, state, trainable, weight_collections)
                    dense = fc.per_example(column._dense(cache, state), column)
                    weights = shared.get_variable(
                        "weights", (column.variable_shape.num_elements(), units), zeros,
                        trainable, weight_collections)
                    sums.append(linalg_ops.matmul(dense, weights, name="weighted_sum"))
                made[column] = [weights]
        fc.check_batch_sizes(sums, columns)
        bias = shared.get_variable("bias_weights", (units,), zeros, trainable, weight_collections)
        predictions = reduction_ops.add_n(sums) if len(sums) > 1 else sums[0]
        out = nn_ops.bias_add(predictions, bias, name="weighted_sum")
    if cols_to_vars is not None:
        cols_to_vars.update(made)
        cols_to_vars["bias"] = [bias]
    return out


def _sparse_sum(column, cache, weights, combiner):
    """The weights of a categorical column's ids of each example, combined."""
    ids, id_weights = column._ids(cache), column._weights(cache)
    flat = array_ops.stack([ids.dense_shape[0], np.int64(-1)])
    ids = sparse_ops.reshape(ids, flat)
    if id_weights is not None:
        id_weights = sparse_ops.reshape(id_weights, flat)
    return sparse_ops.safe_embedding_lookup_sparse(weights, ids, id_weights, combiner=combiner,
                                                   name="weighted_sum")


@export("compat.v1.feature_column.make_parse_example_spec")
def make_parse_example_spec(feature_columns):
    """The `tf.io.parse_example` features spec that the columns read (TF 1's spelling of
    `tf.feature_column.make_parse_example_spec`).

    >>> tf.compat.v1.feature_column.make_parse_example_spec(
    ...     [tf.feature_column.numeric_column("a")])
    {'a': FixedLenFeature(shape=(1,), dtype=tf.float32, default_value=None)}
    """
    return fc.make_parse_example_spec(feature_columns)


@export("compat.v1.feature_column.categorical_column_with_vocabulary_file")
def categorical_column_with_vocabulary_file(key, vocabulary_file, vocabulary_size=None,
                                            num_oov_buckets=0, default_value=None,
                                            dtype=_d.string):
    """TF 1's `tf.feature_column.categorical_column_with_vocabulary_file` (its arguments in
    TF 1's order, no `file_format`).

    >>> tf.compat.v1.feature_column.categorical_column_with_vocabulary_file(
    ...     "w", "vocab.txt", 3, 2).num_buckets
    5
    """
    return fc.categorical_column_with_vocabulary_file(
        key, vocabulary_file, vocabulary_size, dtype=dtype, default_value=default_value,
        num_oov_buckets=num_oov_buckets)


def _scope_name(column):
    """The variable scope of a column's variables and outputs in `input_layer`."""
    if isinstance(column, shared._SharedEmbeddingColumn):
        return column.shared_embedding_collection_name
    return column.name
