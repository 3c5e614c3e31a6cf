# Under recurrent dropout (implementation=1) LSTM and GRU cells drop each gate's inputs and
# states with a mask of its own, as Keras does.
import numpy as np
import tensorflow as tf
tf.keras.utils.set_random_seed(4)
def p(name, t):
    t = np.asarray(t)
    print(name, t.shape, np.round(t.astype("float64"), 4).ravel()[:6].tolist(), round(float(np.abs(t.astype("float64")).sum()), 3))
x = np.random.RandomState(0).rand(2, 5, 3).astype("float32")
x[0, 3:] = 0
xm = tf.keras.layers.Masking()(x)
p("lstm_dr", tf.keras.layers.LSTM(3, dropout=0.4, recurrent_dropout=0.3, return_sequences=True)(x, training=True))
p("lstm_r", tf.keras.layers.LSTM(3, recurrent_dropout=0.3, return_sequences=True)(xm, training=True))
p("gru_dr", tf.keras.layers.GRU(3, dropout=0.4, recurrent_dropout=0.3, go_backwards=True)(xm, training=True))
p("gru_dr_nra", tf.keras.layers.GRU(3, dropout=0.4, recurrent_dropout=0.3, reset_after=False)(x, training=True))
p("cell_i1", tf.keras.layers.RNN(tf.keras.layers.LSTMCell(3, dropout=0.4, implementation=1))(x, training=True))
p("gcell_i1", tf.keras.layers.RNN(tf.keras.layers.GRUCell(3, dropout=0.4, implementation=1), return_sequences=True)(x, training=True))
p("lstm_i1", tf.keras.layers.LSTM(3, dropout=0.4, implementation=1)(x, training=True))
p("lstm_dr_unroll", tf.keras.layers.LSTM(3, dropout=0.4, recurrent_dropout=0.3, unroll=True)(x, training=True))
p("lstm_dr_inf", tf.keras.layers.LSTM(3, dropout=0.4, recurrent_dropout=0.3)(x))
cell = tf.keras.layers.LSTMCell(3, dropout=0.5, recurrent_dropout=0.5)
o, st = cell(x[:, 0], [tf.zeros((2, 3)), tf.ones((2, 3))], training=True)
p("cell_call", o); p(" c", st[1])
