"""`tf.keras.layers.DenseFeatures` and `tf.keras.experimental.SequenceFeatures`: a dict of
raw features as one dense tensor, through feature columns (``tf.feature_column``)."""
from eagerflow._src.backend.api_export import export
from eagerflow._src.core.tensor_shape import TensorShape
from eagerflow._src.feature_column import feature_column_v2 as fc
from eagerflow._src.feature_column import sequence_feature_column as sfc
from eagerflow._src.keras.engine.base_layer import Layer


class _FeaturesLayer(Layer):
    """A layer reading a dict of features through columns of type `_expected`."""
    _expected = fc.DenseColumn

    def __init__(self, feature_columns, trainable=True, name=None, partitioner=None,
                 **kwargs):
        super().__init__(name=name, trainable=trainable, **kwargs)
        if isinstance(feature_columns, dict):
            raise ValueError("Expected feature_columns to be iterable, found dict.")
        feature_columns = [feature_columns] if isinstance(feature_columns, fc.FeatureColumn) \
            else list(feature_columns)
        for column in feature_columns:
            if not isinstance(column, fc.FeatureColumn) or column._v1_only:
                raise ValueError(f"Items of feature_columns must be a FeatureColumn. Given (type "
                                 f"{type(column)}): {column}.")
        if not feature_columns:
            raise ValueError("feature_columns must not be empty.")
        seen = {}
        for column in feature_columns:
            if column.name in seen:
                raise ValueError(f"Duplicate feature column name found for columns: {column} "
                                 f"and {seen[column.name]}. This usually means that these "
                                 "columns refer to same base feature. Either one must be "
                                 "discarded or a duplicated but renamed item must be inserted "
                                 "in features dict.")
            seen[column.name] = column
        self._feature_columns = fc.check_columns(feature_columns, self._expected, self._expected)
        self._column_state = {}

    def build(self, input_shape=None):
        for column in sorted(self._feature_columns, key=lambda c: c.name):
            if hasattr(column, "create_state"):
                self._column_state[column.name] = column.create_state(self)
        self.built = True

    def _trackable_children(self):
        """As the base's, with a column's table named by its column, as TF's checkpoints
        name it (``thal_embedding/embedding_weights``)."""
        tables = {id(v): f"{name}/{v.name.rpartition(':')[0].rpartition('/')[2]}"
                  for name, v in self._column_state.items()}
        return [(tables.get(id(child), key), child) for key, child in super()._trackable_children()
                if key != "_column_state"]

    def _maybe_build(self, inputs):
        if not self.built:
            self.build(None)

    def _track_lookup_table(self, column_name, table):
        """Holds a vocabulary column's table, so that a SavedModel of the layer has it."""
        name, number = f"_{column_name}_lookup_table", 0
        while vars(self).get(name, table) is not table:  # (another column's, of the same key)
            number += 1
            name = f"_{column_name}_lookup_table_{number}"
        if name not in vars(self):
            setattr(self, name, table)

    def get_config(self):
        config = super().get_config()
        columns = sorted(self._feature_columns, key=lambda c: c.name)
        config.update(feature_columns=[fc.serialize_feature_column(c) for c in columns],
                      partitioner=None)
        return config

    @classmethod
    def from_config(cls, config, custom_objects=None):
        config = dict(config)
        config["feature_columns"] = [fc.deserialize_feature_column(c, custom_objects)
                                     for c in config["feature_columns"]]
        return cls(**config)


def _width(column):
    return column.variable_shape.num_elements()


def _check_dict(features):
    if not isinstance(features, dict):
        raise ValueError("We expected a dictionary here. Instead we got: ", features)


@export("keras.layers.DenseFeatures")
class DenseFeatures(_FeaturesLayer):
    """The dense tensors of `feature_columns` (dense columns), sorted by column name and
    concatenated: ``[batch, total width]``. Embedding columns' tables are its weights.

    >>> layer = tf.keras.layers.DenseFeatures([tf.feature_column.numeric_column("b"),
    ...                                        tf.feature_column.numeric_column("a")])
    >>> layer({"a": tf.constant([1.0]), "b": tf.constant([2.0])})
    <tf.Tensor: shape=(1, 2), dtype=float32, numpy=array([[1., 2.]], dtype=float32)>
    """

    def call(self, features, cols_to_output_tensors=None, training=None):
        _check_dict(features)
        return fc.dense_features(self._feature_columns, features, self, cols_to_output_tensors)

    def compute_output_shape(self, input_shape):
        total = sum(_width(c) for c in self._feature_columns)
        batch = next(iter(input_shape.values()))[0] if isinstance(input_shape, dict) else None
        return TensorShape([batch, total])


@export("keras.experimental.SequenceFeatures")
class SequenceFeatures(_FeaturesLayer):
    """The dense tensors ``[batch, steps, width]`` of sequence columns (sequence numeric
    columns, indicator and embedding columns of sequence categorical columns), sorted by
    column name and concatenated along the last axis, and the number of steps of each example
    (the same for every column: InvalidArgumentError if not).

    >>> col = tf.feature_column.sequence_categorical_column_with_identity("ids", 3)
    >>> layer = tf.keras.experimental.SequenceFeatures([tf.feature_column.indicator_column(col)])
    >>> ids = tf.sparse.SparseTensor([[0, 0], [0, 1]], tf.constant([2, 0], tf.int64), [2, 2])
    >>> values, length = layer({"ids": ids})
    >>> values.shape, length.numpy()
    (TensorShape([2, 2, 3]), array([2, 0]))
    """
    _expected = fc.SequenceDenseColumn

    def call(self, features, training=None):
        _check_dict(features)
        return sfc.sequence_features(self._feature_columns, features, self)

    def compute_output_shape(self, input_shape):
        return (input_shape[0], input_shape[1], sum(_width(c) for c in self._feature_columns))
