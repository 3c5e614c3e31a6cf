# Dropout in recurrent layers draws masks as Keras does: LSTM/GRU eligible for fused kernels
# drop the inputs with a whole-sequence mask (one drawn per gate), cells one mask per gate.
import numpy as np
import tensorflow as tf
tf.keras.utils.set_random_seed(2)
def p(name, t):
    t = np.asarray(t)
    print(name, t.shape, np.round(t.astype("float64"), 4).ravel()[:6].tolist(), round(float(np.abs(t.astype("float64")).sum()), 3))
x = np.random.RandomState(0).rand(2, 5, 3).astype("float32")
x[0, 3:] = 0
xm = tf.keras.layers.Masking()(x)
p("lstm_d", tf.keras.layers.LSTM(3, dropout=0.4, return_sequences=True)(x, training=True))
p("lstm_dm", tf.keras.layers.LSTM(3, dropout=0.4, return_sequences=True)(xm, training=True))
p("gru_dm_back", tf.keras.layers.GRU(3, dropout=0.4, go_backwards=True)(xm, training=True))
p("srnn_d", tf.keras.layers.SimpleRNN(3, dropout=0.4, recurrent_dropout=0.3)(x, training=True))
p("cell_d", tf.keras.layers.RNN(tf.keras.layers.LSTMCell(3, dropout=0.4))(x, training=True))
p("gru_nf", tf.keras.layers.GRU(3, dropout=0.4, reset_after=False)(x, training=True))
p("bi", tf.keras.layers.Bidirectional(tf.keras.layers.LSTM(2, dropout=0.3))(x, training=True))
m = tf.keras.Sequential([tf.keras.layers.LSTM(4, dropout=0.3, input_shape=(5, 3)), tf.keras.layers.Dense(1)])
m.compile("sgd", "mse")
h = m.fit(x, np.ones((2, 1)), epochs=3, verbose=0)
print(np.round(h.history["loss"], 5).tolist())
