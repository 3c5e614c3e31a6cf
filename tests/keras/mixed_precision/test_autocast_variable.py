"""The weights of layers under a mixed policy (AutoCastVariable), as Keras shows them."""
import numpy as np

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


def test_inside_a_call_the_repr_shows_the_value_as_read():
    seen = []

    class Third(tf.keras.layers.Layer):
        def build(self, shape):
            self.w = self.add_weight("w", shape=(2,), initializer=tf.constant_initializer(1 / 3))

        def call(self, x):
            seen.append(repr(self.w))
            return x * self.w

    Third(dtype="mixed_float16", name="t")(tf.ones((2,)))
    assert seen == ["<AutoCastVariable 't/w:0' shape=(2,) dtype=float32 dtype_to_cast_to=float16, "
                    "numpy=array([0.3333, 0.3333], dtype=float16)>"]


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


class _Probe(tf.keras.layers.Layer):
    """Records, inside its call, what its float32 weight gives under the layer's policy."""

    def build(self, shape):
        self.w = self.add_weight("w", shape=(2,), initializer="ones")
        self.seen = {}

    def call(self, x):
        w = self.w
        self.seen["numpy"] = w.numpy().dtype
        written = w.assign_add(tf.constant([0.5, 0.5], tf.float16))
        self.seen["written"] = (written is w, written.dtype)
        self.seen["scatter"] = w.scatter_nd_add([[0]], [1e-4]) is w
        try:
            tf.convert_to_tensor(w, dtype=tf.float32)
        except ValueError as e:
            self.seen["convert"] = str(e)
        return x * w


def test_autocast_variable_inside_a_call_holds_and_writes_its_own_dtype():
    layer = _Probe(dtype="mixed_float16")
    layer(tf.ones((2,)))
    seen = layer.seen
    assert str(seen["numpy"]) == "float32"  # numpy() is the value held
    assert seen["written"] == (True, tf.float16)  # the write gives back the variable
    assert seen["scatter"] is True
    assert seen["convert"] == ("Incompatible type conversion requested to type 'float32' for "
                               "AutoCastVariable which is casted to type 'float16'")
    # the scatter updated the float32 value (1e-4 is lost to a float16 round trip)
    assert layer.w.numpy().tolist() == [float(np.float32(1.5) + np.float32(1e-4)), 1.5]
    written = layer.w.assign([2.0, 3.0])
    assert written is layer.w and repr(written).startswith("<AutoCastVariable '")


def test_only_a_mixed_policy_makes_autocast_weights():
    class Weights(tf.keras.layers.Layer):
        def build(self, shape):
            self.half = self.add_weight("half", shape=(1,), dtype="float16")
            self.double = self.add_weight("double", shape=(1,), dtype="float64")

        def call(self, x):
            return x

    plain = Weights()  # float32 policy: weights of another float dtype stay plain
    plain(tf.ones((1,)))
    assert type(plain.half).__name__ == type(plain.double).__name__ == "ResourceVariable"
    mixed = Weights(dtype="mixed_bfloat16")
    mixed(tf.ones((1,)))
    assert type(mixed.double).__name__ == "AutoCastVariable"
