"""The module the SavedModel tests save, written once for both frameworks.

`affine_class(tf)` makes it with the given `tf` module: real TensorFlow in
data/make_tf_savedmodels.py, eagerflow in test_saved_model.py.
"""


def affine_class(tf):
    """A `tf.Module` computing relu(x @ w + b) with a traced, signed `__call__`."""

    class Affine(tf.Module):
        def __init__(self):
            super().__init__()
            self.w = tf.Variable([[1.0, -2.0], [0.5, 3.0]], name="w")
            self.b = tf.Variable([0.25, -1.0], name="b")

        @tf.function(input_signature=[tf.TensorSpec([None, 2], tf.float32, name="x")])
        def __call__(self, x):
            return tf.nn.relu(tf.matmul(x, self.w) + self.b)

    return Affine


DENSE_KEYS = ["a", "b", "c", "d", "zzz"]


def dense_table_module(tf):
    """A `tf.Module` with a DenseHashTable (string -> int64, 4 buckets at first: it grows)
    that its signed function `lookup` uses; "c" was inserted then removed."""
    m = tf.Module()
    m.table = tf.lookup.experimental.DenseHashTable(tf.string, tf.int64, -1, empty_key="",
                                                    deleted_key="$", initial_num_buckets=4)
    m.table.insert(tf.constant(["a", "b", "c", "d"]), tf.constant([1, 2, 3, 4], tf.int64))
    m.table.remove(tf.constant(["c"]))

    @tf.function(input_signature=[tf.TensorSpec([None], tf.string, name="keys")])
    def lookup(keys):
        return {"values": m.table.lookup(keys), "size": m.table.size()}

    m.lookup = lookup
    return m
