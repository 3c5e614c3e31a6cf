"""``tf.compat.v1.keras.layers``' recurrent layers: TF 1's defaults (hard sigmoid gates, a GRU
that resets before its matmul), with tf_keras 2.21's numbers."""
import numpy as np

import eagerflow as tf

_X = np.linspace(-2, 2, 24, dtype=np.float32).reshape(2, 4, 3)


def _constants():
    return dict(kernel_initializer=tf.keras.initializers.Constant(0.3),
                recurrent_initializer=tf.keras.initializers.Constant(-0.2),
                bias_initializer=tf.keras.initializers.Constant(0.1))


def test_v1_gru_and_lstm_have_tf1_defaults():
    gru = tf.compat.v1.keras.layers.GRU(3, return_sequences=True, **_constants())
    np.testing.assert_allclose(gru(_X).numpy()[1, -1], [0.5503613] * 3, rtol=1e-6)
    assert [tuple(w.shape) for w in gru.weights] == [(3, 9), (3, 9), (9,)]
    config = gru.get_config()
    assert (config["recurrent_activation"], config["implementation"],
            config["reset_after"]) == ("hard_sigmoid", 1, False)
    assert type(gru).__name__ == "GRU"
    lstm = tf.compat.v1.keras.layers.LSTM(3, return_sequences=True, **_constants())
    np.testing.assert_allclose(lstm(_X).numpy()[1, -1], [0.73236245] * 3, rtol=1e-6)
    # (arguments given by position are kept)
    lstm = tf.compat.v1.keras.layers.LSTM(3, "tanh", "sigmoid", **_constants())
    np.testing.assert_allclose(lstm(_X).numpy()[0], [-0.12854631] * 3, rtol=1e-6)
    assert tf.compat.v1.keras.layers.Dense is tf.keras.layers.Dense


def test_v1_cells_have_tf1_defaults():
    cell = tf.compat.v1.keras.layers.GRUCell(3, **_constants())
    np.testing.assert_allclose(cell(_X[:, 0], [tf.zeros((2, 3))])[0].numpy(),
                               [[-0.738099] * 3, [0.13979146] * 3], rtol=1e-6)
    cell = tf.compat.v1.keras.layers.LSTMCell(3, **_constants())
    np.testing.assert_allclose(
        cell(_X[:, 0], [tf.zeros((2, 3)), tf.zeros((2, 3))])[0].numpy(),
        [[-0.03306715] * 3, [0.10262121] * 3], rtol=1e-6)


def test_v1_batch_normalization_frozen_still_takes_the_batch_statistics():
    # TF 1's layer (tf.compat.v1.keras.layers, tf.compat.v1.layers): trainable=False does not
    # switch it to inference; it leaves the moving statistics alone. TF 2's infers.
    x = np.arange(12, dtype=np.float32).reshape(4, 3)
    for cls, first in ((tf.compat.v1.keras.layers.BatchNormalization, [-1.3415811] * 3),
                       (tf.keras.layers.BatchNormalization, [0.0, 0.9995004, 1.9990008])):
        layer = cls(momentum=0.5, trainable=False)
        np.testing.assert_allclose(layer(x, training=True).numpy()[0], first, rtol=1e-6)
        assert layer.moving_mean.numpy().tolist() == [0.0, 0.0, 0.0]
        assert layer.name.startswith("batch_normalization")
    layer = tf.compat.v1.keras.layers.BatchNormalization(momentum=0.5)
    layer(x, training=True)
    assert layer.moving_mean.numpy().tolist() == [2.25, 2.75, 3.25]


def test_tf_layers_batch_normalization_frozen_in_a_graph():
    graph = tf.Graph()
    with graph.as_default():
        x = tf.constant(np.arange(12, dtype=np.float32).reshape(4, 3))
        training = tf.compat.v1.placeholder_with_default(True, [])
        y = tf.compat.v1.layers.batch_normalization(x, training=training, trainable=False)
        assert tf.compat.v1.get_collection(tf.compat.v1.GraphKeys.UPDATE_OPS) == []
        with tf.compat.v1.Session() as sess:
            sess.run(tf.compat.v1.global_variables_initializer())
            np.testing.assert_allclose(sess.run(y)[0], [-1.3415811] * 3, rtol=1e-6)
