"""Embedding columns sharing one table: TF 1's `shared_embedding_columns` (read by
``tf.compat.v1.feature_column.input_layer``) and TF 2's `shared_embeddings` (read by
`tf.keras.layers.DenseFeatures`). Both work in TF 1 graphs only, as TF's.

>>> tf.feature_column.shared_embeddings([], 2)
Traceback (most recent call last):
...
RuntimeError: shared_embedding_columns are not supported when eager execution is enabled.
"""
import collections

from eagerflow._src.backend.api_export import export
from eagerflow._src.compat import graph_mode
from eagerflow._src.compat import variable_scope as vs
from eagerflow._src.compat.graph_mode import GraphKeys
from eagerflow._src.core import context
from eagerflow._src.core import dtypes as _d
from eagerflow._src.core.tensor_shape import TensorShape
from eagerflow._src.feature_column import feature_column_v2 as fc


def get_variable(name, shape, initializer, trainable, collections=None):
    """A float32 `get_variable` of the current variable scope; a TF 1 function's (whose
    `collections` are a list, maybe empty) is a global and model variable too."""
    if collections is not None:
        collections = list(collections) + [GraphKeys.GLOBAL_VARIABLES,
                                           GraphKeys.MODEL_VARIABLES]
    return vs.get_variable(name, shape=shape, dtype=_d.float32, initializer=initializer,
                           trainable=trainable, collections=collections)


def _refuse_eager():
    if context.executing_eagerly():
        raise RuntimeError("shared_embedding_columns are not supported when eager execution "
                           "is enabled.")


def _checked(categorical_columns, dimension, initializer, ckpt_to_load_from,
             tensor_name_in_ckpt, collection, given, attribute):
    """The columns (a list), their number of buckets, the initializer and the collection
    name of a call sharing an embedding, or TF's errors (`given`, `attribute`: the words of
    TF 1's or TF 2's)."""
    _refuse_eager()
    initializer = fc.check_embedding(dimension, initializer, ckpt_to_load_from,
                                     tensor_name_in_ckpt, "initializer must be callable if "
                                     "specified.")
    columns = list(categorical_columns)
    ordered = sorted(columns, key=lambda c: c.name)
    first = ordered[0]  # (TF's IndexError for no columns)
    for column in ordered:
        if not isinstance(column, fc.CategoricalColumn):
            raise AttributeError(f"'{type(column).__name__}' object has no attribute "
                                 f"'{attribute}'")
        if column.num_buckets != first.num_buckets:
            raise ValueError(
                "To use shared_embedding_column, all categorical_columns must have the same "
                f"number of buckets. {given} column: {first} with buckets: {first.num_buckets} "
                f"does  not match column: {column} with buckets: {column.num_buckets}")
    name = collection or "_".join(c.name for c in ordered) + "_shared_embedding"
    return columns, first.num_buckets, initializer, name


class _SharedEmbeddingColumn(fc._dense_tuple("_SharedEmbeddingColumn", [
        "categorical_column", "dimension", "combiner", "initializer",
        "shared_embedding_collection_name", "ckpt_to_load_from", "tensor_name_in_ckpt",
        "max_norm", "trainable", "use_safe_embedding_lookup"],
        fc.Embedding, fc.DenseColumn, fc.SequenceDenseColumn)):
    """An embedding column whose table it shares with the other columns of its
    `shared_embedding_collection_name` (the graph collection holding the table)."""
    _suffix = "_shared_embedding"
    _v1_only = True

    def _table(self, trainable, collections):
        """The shared table: the one of the collection, else made (under the current
        variable scope) and added to it."""
        graph = graph_mode.default_v1_graph()
        shape = (self.categorical_column.num_buckets, self.dimension)
        tables = graph.get_collection(self.shared_embedding_collection_name)
        if len(tables) > 1:
            raise ValueError(f"Collection {self.shared_embedding_collection_name} can only "
                             f"contain one variable. Suggested fix A: Choose a unique name for "
                             f"this collection. Suggested fix B: Do not add any variables to "
                             f"this collection. The feature_column library already adds a "
                             f"variable under the hood.")
        if tables:
            if tuple(tables[0].shape.as_list()) != shape:
                raise ValueError(f"Shared embedding collection "
                                 f"{self.shared_embedding_collection_name} contains variable "
                                 f"{tables[0]} of unexpected shape {tables[0].shape}. Expected "
                                 f"shape is {TensorShape(shape)}. Suggested fix A: Choose a "
                                 f"unique name for this collection. Suggested fix B: Do not add "
                                 f"any variables to this collection. The feature_column library "
                                 f"already adds a variable under the hood.")
            return tables[0]
        table = get_variable("embedding_weights", shape, self.initializer, trainable,
                             collections)
        graph.add_to_collection(self.shared_embedding_collection_name, table)
        return table


@export("compat.v1.feature_column.shared_embedding_columns")
def shared_embedding_columns(categorical_columns, dimension, combiner="mean", initializer=None,
                             shared_embedding_collection_name=None, ckpt_to_load_from=None,
                             tensor_name_in_ckpt=None, max_norm=None, trainable=True,
                             use_safe_embedding_lookup=True):
    """Embedding columns of `categorical_columns` (of one number of buckets) sharing one
    table, for `input_layer` in TF 1 graphs (eagerly: RuntimeError, as TF).

    >>> tf.compat.v1.feature_column.shared_embedding_columns([], 2)
    Traceback (most recent call last):
    ...
    RuntimeError: shared_embedding_columns are not supported when eager execution is enabled.
    """
    columns, _, initializer, name = _checked(
        categorical_columns, dimension, initializer, ckpt_to_load_from, tensor_name_in_ckpt,
        shared_embedding_collection_name, "ven", "_num_buckets")
    return [_SharedEmbeddingColumn(c, dimension, combiner, initializer, name, ckpt_to_load_from,
                                   tensor_name_in_ckpt, max_norm, trainable,
                                   use_safe_embedding_lookup) for c in columns]


class SharedEmbeddingColumnCreator:
    """The table shared by the columns of one `shared_embeddings` call: a variable named
    `name` in each graph that reads them, made on its first read there."""

    def __init__(self, dimension, initializer, ckpt_to_load_from, tensor_name_in_ckpt,
                 num_buckets, trainable, name, use_safe_embedding_lookup):
        self.dimension, self.initializer = dimension, initializer
        self.ckpt_to_load_from, self.tensor_name_in_ckpt = ckpt_to_load_from, tensor_name_in_ckpt
        self.num_buckets, self.trainable, self.name = num_buckets, trainable, name
        self.use_safe_embedding_lookup = use_safe_embedding_lookup
        self._tables = {}

    @property
    def embedding_weights(self):
        graph = graph_mode.default_v1_graph()
        if id(graph) not in self._tables:
            self._tables[id(graph)] = (graph, fc.start_from_checkpoint(self, get_variable(
                self.name, (self.num_buckets, self.dimension), self.initializer,
                self.trainable)))
        return self._tables[id(graph)][1]


class SharedEmbeddingColumn(fc.Embedding, fc.DenseColumn, fc.SequenceDenseColumn,
                            collections.namedtuple("SharedEmbeddingColumn", [
                                "categorical_column", "shared_embedding_column_creator",
                                "combiner", "max_norm", "use_safe_embedding_lookup"])):
    """An embedding column of `shared_embeddings`: its table is its creator's."""
    __slots__ = ()
    _suffix = "_shared_embedding"

    @property
    def dimension(self):
        return self.shared_embedding_column_creator.dimension

    def _table_of(self, layer):
        return self.shared_embedding_column_creator.embedding_weights


@export("feature_column.shared_embeddings")
def shared_embeddings(categorical_columns, dimension, combiner="mean", initializer=None,
                      shared_embedding_collection_name=None, ckpt_to_load_from=None,
                      tensor_name_in_ckpt=None, max_norm=None, trainable=True,
                      use_safe_embedding_lookup=True):
    """Embedding columns of `categorical_columns` (of one number of buckets) sharing one
    table, for `tf.keras.layers.DenseFeatures` in TF 1 graphs (eagerly: RuntimeError, as TF).
    The table is the variable `shared_embedding_collection_name` (by default the columns'
    names joined by ``_``, then ``_shared_embedding``).

    >>> tf.feature_column.shared_embeddings([], 2)
    Traceback (most recent call last):
    ...
    RuntimeError: shared_embedding_columns are not supported when eager execution is enabled.
    """
    columns, buckets, initializer, name = _checked(
        categorical_columns, dimension, initializer, ckpt_to_load_from, tensor_name_in_ckpt,
        shared_embedding_collection_name, "Given", "num_buckets")
    creator = SharedEmbeddingColumnCreator(dimension, initializer, ckpt_to_load_from,
                                           tensor_name_in_ckpt, buckets, trainable, name,
                                           use_safe_embedding_lookup)
    return [SharedEmbeddingColumn(c, creator, combiner, max_norm, use_safe_embedding_lookup)
            for c in columns]
