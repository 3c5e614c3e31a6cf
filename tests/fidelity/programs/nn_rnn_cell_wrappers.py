# tf.nn's wrappers of Keras RNN cells: dropout (seeded, variational, with a state filter),
# residual and device wrappers in RNN layers, a model trained, configs and errors.
import numpy as np
import tensorflow as tf
tf.keras.utils.set_random_seed(4)
def p(name, t):
    t = np.asarray(t)
    print(name, t.shape, np.round(t.astype("float64"), 4).ravel()[:6].tolist(), round(float(np.abs(t.astype("float64")).sum()), 3))
x = np.random.RandomState(0).rand(2, 5, 3).astype("float32")
W, R, D = tf.nn.RNNCellDropoutWrapper, tf.nn.RNNCellResidualWrapper, tf.nn.RNNCellDeviceWrapper
init = dict(kernel_initializer=tf.keras.initializers.GlorotUniform(seed=1),
            recurrent_initializer=tf.keras.initializers.Orthogonal(seed=2))
lstm = tf.keras.layers.RNN(W(tf.keras.layers.LSTMCell(3, **init), input_keep_prob=0.7, state_keep_prob=0.8, seed=5), return_state=True)
for name, t in zip(["lstm_h", "lstm_state_h", "lstm_state_c"], lstm(x)):
    p(name, t)
p("lstm_again", lstm(x, training=False)[0])
gru = tf.keras.layers.RNN(W(tf.keras.layers.GRUCell(3, **init), output_keep_prob=0.6, variational_recurrent=True, dtype=tf.float32, seed=9), return_sequences=True)
p("gru_variational", gru(x))
simple = tf.keras.layers.RNN(R(D(tf.keras.layers.SimpleRNNCell(3, **init), "/cpu:0")), return_sequences=True, go_backwards=True)
p("simple_residual", simple(x))
filtered = tf.keras.layers.RNN(W(tf.keras.layers.LSTMCell(3, **init), state_keep_prob=0.5, dropout_state_filter_visitor=lambda s: [False, True] if isinstance(s, list) else True), return_state=True)
for name, t in zip(["filtered_h", "filtered_state_h", "filtered_state_c"], filtered(x)):
    p(name, t)
m = tf.keras.Sequential([tf.keras.Input((5, 3)), tf.keras.layers.RNN(R(D(tf.keras.layers.GRUCell(3, **init), "/cpu:0"))), tf.keras.layers.Dense(1, kernel_initializer="ones")])
m.compile("sgd", "mse")
h = m.fit(x, np.ones((2, 1)), epochs=3, verbose=0)
print(np.round(h.history["loss"], 4).tolist(), [w.name for w in m.weights])
cell = W(tf.keras.layers.SimpleRNNCell(2), input_keep_prob=0.5, seed=3, name="dw")
config = cell.get_config()
print(type(cell).__name__, sorted(k for k in config if k != "cell"), config["cell"]["class_name"], config["input_keep_prob"])
print(tf.keras.layers.serialize(cell)["module"], type(tf.keras.layers.deserialize(tf.keras.layers.serialize(cell))).__name__)
print(W(tf.keras.layers.GRUCell(2), output_keep_prob=0.7).get_config()["output_keep_prob"], R(tf.keras.layers.GRUCell(2)).state_size, W(tf.keras.layers.LSTMCell(2)).state_size)
for make in [lambda: W(tf.keras.layers.GRUCell(2), input_keep_prob=1.5),
             lambda: W(tf.keras.layers.GRUCell(2), variational_recurrent=True),
             lambda: W(tf.keras.layers.GRUCell(2), dropout_state_filter_visitor="x"),
             lambda: R(tf.keras.layers.GRUCell(4))(tf.ones([2, 3]), [tf.zeros([2, 4])])]:
    try:
        make()
    except Exception as e:
        print(type(e).__name__, str(e).splitlines()[0])
