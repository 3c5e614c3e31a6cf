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
