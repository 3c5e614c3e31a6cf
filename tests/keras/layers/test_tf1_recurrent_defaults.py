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
