"""Keras layers called on SparseTensors (values from TF 2.21)."""
import eagerflow as tf


def test_dense_multiplies_a_sparse_tensor_by_its_kernel():
    layer = tf.keras.layers.Dense(3, kernel_initializer="ones", bias_initializer="ones")
    x = tf.sparse.SparseTensor([[0, 1], [2, 0]], [2.0, 3.0], [3, 4])
    with tf.GradientTape() as tape:
        y = layer(x)
        loss = tf.reduce_sum(y ** 2)
    assert y.numpy().tolist() == [[3] * 3, [1] * 3, [4] * 3]
    assert tf.convert_to_tensor(tape.gradient(loss, layer.kernel)).numpy().tolist() == \
        [[24] * 3, [12] * 3, [0] * 3, [0] * 3]


def test_dense_casts_integer_sparse_values_to_its_dtype():
    layer = tf.keras.layers.Dense(1, kernel_initializer="ones", use_bias=False)
    x = tf.sparse.SparseTensor([[0, 0], [0, 2]], [1, 2], [1, 3])
    assert layer(x).numpy().tolist() == [[3.0]]
