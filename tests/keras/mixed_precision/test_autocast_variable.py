"""The weights of layers under a mixed policy (AutoCastVariable), as Keras shows them."""
import eagerflow as tf


def test_autocast_variable_repr_names_the_dtype_reads_are_cast_to():
    tf.keras.mixed_precision.set_global_policy("mixed_float16")
    try:
        layer = tf.keras.layers.Dense(2, kernel_initializer="ones", name="k")
        layer(tf.ones((1, 1)))
    finally:
        tf.keras.mixed_precision.set_global_policy("float32")
    kernel = layer.kernel
    assert type(kernel).__name__ == "AutoCastVariable" and kernel.true_dtype == tf.float32
    assert repr(kernel) == ("<AutoCastVariable 'k/kernel:0' shape=(1, 2) dtype=float32 "
                            "dtype_to_cast_to=float32, numpy=array([[1., 1.]], "
                            "dtype=float32)>")
    assert str(kernel) == repr(kernel)


def test_inside_the_call_a_weight_tells_the_compute_dtype_and_gradients_stay_float32():
    seen = []

    class Scale(tf.keras.layers.Layer):
        def build(self, shape):
            self.w = self.add_weight("w", shape=(shape[-1],), initializer="ones")

        def call(self, x):
            seen.append(self.w.dtype)  # as Keras: the dtype reads are cast to
            return x * tf.cast(2.0, self.w.dtype) * self.w

    tf.keras.mixed_precision.set_global_policy("mixed_float16")
    try:
        layer = Scale()
        layer(tf.ones((1, 2)))
    finally:
        tf.keras.mixed_precision.set_global_policy("float32")
    assert seen == [tf.float16] and layer.w.dtype == tf.float32

    @tf.function
    def grads(x):
        with tf.GradientTape() as tape:
            loss = tf.reduce_sum(tf.cast(layer(x), tf.float32))
        return tape.gradient(loss, layer.w)
    grad = grads(tf.ones((1, 2)))
    assert grad.dtype == tf.float32 and grad.numpy().tolist() == [2.0, 2.0]


def test_embedding_weights_are_plain_variables_and_its_rows_come_in_the_compute_dtype():
    # tf_keras's Embedding keeps a plain float32 variable under a mixed policy and casts the
    # rows it gathers (dense, sparse and sparse=True outputs alike).
    tf.keras.mixed_precision.set_global_policy("mixed_float16")
    try:
        init = tf.keras.initializers.Constant([[0.0, 1.0], [2.5, 3.0]])
        layer = tf.keras.layers.Embedding(2, 2, embeddings_initializer=init)
        rows = layer(tf.constant([[1, 0]]))
        sparse_layer = tf.keras.layers.Embedding(2, 2, embeddings_initializer=init,
                                                 sparse=True)
        ids = tf.SparseTensor([[0, 0]], [1], [1, 2])
        sparse_rows = sparse_layer(ids)
        default_rows = layer(ids)
    finally:
        tf.keras.mixed_precision.set_global_policy("float32")
    assert type(layer.embeddings).__name__ == "ResourceVariable"
    assert layer.embeddings.dtype == tf.float32
    assert rows.dtype == tf.float16
    assert rows.numpy().tolist() == [[[2.5, 3.0], [0.0, 1.0]]]
    assert sparse_rows.dtype == tf.float16 and default_rows.dtype == tf.float16
    assert sparse_rows.values.numpy().tolist() == [2.5, 3.0]
