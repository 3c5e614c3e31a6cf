import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(7)
rng = np.random.RandomState(3)
x = rng.rand(2, 6, 3).astype("float32")

# return_state: LSTM gives (output, h, c); GRU and SimpleRNN give (output, h).
lstm = tf.keras.layers.LSTM(4, return_state=True)
out, h, c = lstm(x)
print(out.shape, h.shape, c.shape, np.allclose(out.numpy(), h.numpy()))
gru = tf.keras.layers.GRU(4, return_sequences=True, return_state=True)
seq, gh = gru(x)
print(seq.shape, gh.shape, np.allclose(seq[:, -1].numpy(), gh.numpy()))
print(lstm.compute_output_shape((2, 6, 3)))
print(gru.compute_output_shape((2, 6, 3)))

# Encoder-decoder: the decoder starts from the encoder's states.
enc_in = tf.keras.Input(shape=(None, 3), name="enc_in")
dec_in = tf.keras.Input(shape=(None, 2), name="dec_in")
_, state_h, state_c = tf.keras.layers.LSTM(5, return_state=True, name="encoder")(enc_in)
print(state_h.shape, state_c.shape)
dec_seq = tf.keras.layers.LSTM(5, return_sequences=True, name="decoder")(
    dec_in, initial_state=[state_h, state_c])
dec_out = tf.keras.layers.Dense(2, activation="softmax", name="proj")(dec_seq)
seq2seq = tf.keras.Model([enc_in, dec_in], dec_out)
seq2seq.summary()
y = seq2seq([x, rng.rand(2, 4, 2).astype("float32")])
print(y.shape, np.round(float(tf.reduce_sum(y)), 4))

# Explicit initial_state changes the result; zeros reproduce the default.
g2 = tf.keras.layers.GRU(3)
zeros = tf.zeros((2, 3))
a = g2(x)
b = g2(x, initial_state=zeros)
c2 = g2(x, initial_state=tf.ones((2, 3)))
print(np.allclose(a.numpy(), b.numpy()), np.allclose(a.numpy(), c2.numpy()))
try:
    g2(x, initial_state=[zeros, zeros])
except Exception as e:
    print(type(e).__name__, e)

# Stateful RNN: states carry over between calls until reset_states().
stateful = tf.keras.layers.SimpleRNN(2, stateful=True, return_sequences=False)
first = stateful(x[:, :3])
print([v.name for v in stateful.states], stateful.states[0].shape)
second = stateful(x[:, 3:])
stateful.reset_states()
again = stateful(x[:, 3:])
full = tf.keras.layers.SimpleRNN(2)
full.build((None, None, 3))
full.set_weights(stateful.get_weights())
print(np.allclose(second.numpy(), full(x).numpy(), atol=1e-6))
print(np.allclose(again.numpy(), full(x[:, 3:]).numpy(), atol=1e-6))
stateful.reset_states(states=np.ones((2, 2), "float32"))
print(stateful.states[0].numpy().tolist())
print(stateful.get_config()["stateful"])

model = tf.keras.Sequential([
    tf.keras.layers.LSTM(3, stateful=True, batch_input_shape=(2, None, 3), name="s_lstm"),
    tf.keras.layers.Dense(1, name="out"),
])
model.summary()
p1 = model.predict(x[:, :2], verbose=0)
p2 = model.predict(x[:, 2:], verbose=0)
model.get_layer("s_lstm").reset_states()
p3 = model.predict(x[:, 2:], verbose=0)
print(p1.shape, np.allclose(p2, p3))
lay = model.get_layer("s_lstm")
print(len(lay.states), [tuple(s.shape) for s in lay.states])
try:
    tf.keras.layers.LSTM(2, stateful=True)(tf.keras.Input((None, 3)))
except Exception as e:
    print(type(e).__name__, str(e).splitlines()[0])

# RNN over a custom cell, with state_size and get_initial_state.
class MinimalRNNCell(tf.keras.layers.Layer):
    def __init__(self, units, **kwargs):
        super().__init__(**kwargs)
        self.units = units
        self.state_size = units

    def build(self, input_shape):
        self.kernel = self.add_weight(shape=(input_shape[-1], self.units),
                                      initializer="ones", name="kernel")
        self.recurrent_kernel = self.add_weight(shape=(self.units, self.units),
                                                initializer="identity",
                                                name="recurrent_kernel")
        self.built = True

    def call(self, inputs, states):
        prev = states[0]
        h = tf.matmul(inputs, self.kernel) + 0.5 * tf.matmul(prev, self.recurrent_kernel)
        return h, [h]


rnn = tf.keras.layers.RNN(MinimalRNNCell(2), return_sequences=True, return_state=True)
out, last = rnn(x[:, :3])
print(np.round(out.numpy(), 4))
print(np.round(last.numpy(), 4))
print([w.name for w in rnn.weights])
stacked = tf.keras.layers.RNN([MinimalRNNCell(2), MinimalRNNCell(3)], return_state=True)
res = stacked(x[:, :3])
print(len(res), [r.shape for r in res])
print(np.round(res[0].numpy(), 4))
cell = tf.keras.layers.LSTMCell(2)
print(cell.state_size, cell.output_size)
init = cell.get_initial_state(batch_size=2, dtype=tf.float32)
print([tuple(s.shape) for s in init])
o, st = cell(x[:, 0], init)
print(o.shape, [s.shape for s in st])

# unroll=True and go_backwards agree with reversing the inputs.
u = tf.keras.layers.SimpleRNN(2, unroll=True, go_backwards=True)
v = tf.keras.layers.SimpleRNN(2)
u.build((None, 6, 3))
v.build((None, 6, 3))
v.set_weights(u.get_weights())
print(np.allclose(u(x).numpy(), v(x[:, ::-1]).numpy(), atol=1e-6))
