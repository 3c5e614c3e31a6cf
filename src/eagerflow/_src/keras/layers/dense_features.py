"""`tf.keras.layers.DenseFeatures`: a dict of raw features as one dense tensor, through
feature columns (``tf.feature_column``)."""
from eagerflow._src.backend.api_export import export
from eagerflow._src.core.tensor_shape import TensorShape
from eagerflow._src.feature_column import feature_column_v2 as fc
from eagerflow._src.keras.engine.base_layer import Layer


@export("keras.layers.DenseFeatures")
class DenseFeatures(Layer):
    """The dense tensors of `feature_columns` (dense columns), sorted by column name and
    concatenated: ``[batch, total width]``. Embedding columns' tables are its weights.

    >>> layer = tf.keras.layers.DenseFeatures([tf.feature_column.numeric_column("b"),
    ...                                        tf.feature_column.numeric_column("a")])
    >>> layer({"a": tf.constant([1.0]), "b": tf.constant([2.0])})
    <tf.Tensor: shape=(1, 2), dtype=float32, numpy=array([[1., 2.]], dtype=float32)>
    """

    def __init__(self, feature_columns, trainable=True, name=None, partitioner=None,
                 **kwargs):
        super().__init__(name=name, trainable=trainable, **kwargs)
        if isinstance(feature_columns, fc.FeatureColumn):
            feature_columns = [feature_columns]
        feature_columns = list(feature_columns)
        if not feature_columns:
            raise ValueError("feature_columns must not be empty.")
        for column in feature_columns:
            if not isinstance(column, fc.DenseColumn):
                raise ValueError(
                    f"Items of feature_columns must be a {fc.DenseColumn}. You can wrap a "
                    "categorical column with an embedding_column or indicator_column. "
                    f"Given: {column}")
        seen = {}
        for column in sorted(feature_columns, key=lambda c: c.name):
            if column.name in seen:
                raise ValueError(f"Duplicate feature column name found for columns: {column} "
                                 f"and {seen[column.name]}. This usually means that these "
                                 "columns refer to same base feature. Either one must be "
                                 "discarded or a duplicated but renamed item must be inserted "
                                 "in features dict.")
            seen[column.name] = column
        self._feature_columns = feature_columns
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

    def call(self, features, cols_to_output_tensors=None, training=None):
        if not isinstance(features, dict):
            raise ValueError(f"We expected a dictionary here. Instead we got: {features}")
        return fc.dense_features(self._feature_columns, features, self, cols_to_output_tensors)

    def compute_output_shape(self, input_shape):
        total = sum(_width(c) for c in self._feature_columns)
        batch = next(iter(input_shape.values()))[0] if isinstance(input_shape, dict) else None
        return TensorShape([batch, total])

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
