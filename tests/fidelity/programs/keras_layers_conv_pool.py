import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)
x = np.arange(24, dtype="float32").reshape(2, 3, 4) / 10.0

d = tf.keras.layers.Dense(3, activation="relu")
print(np.round(d(x).numpy(), 4))
print(d.get_config())
print([w.name for w in d.weights])
print(np.round(d.kernel.numpy(), 4))

c1 = tf.keras.layers.Conv1D(2, 2, padding="causal", dilation_rate=1)
print(np.round(c1(x).numpy(), 4))
print(c1.get_config())

img = np.arange(2 * 5 * 5 * 2, dtype="float32").reshape(2, 5, 5, 2) / 50.0
c2 = tf.keras.layers.Conv2D(3, 3, strides=2, padding="same")
print(np.round(c2(img).numpy(), 4))
print(c2.get_config())
ct = tf.keras.layers.Conv2DTranspose(2, 3, strides=2, padding="same")
print(ct(img).shape)
print(np.round(ct(img).numpy()[0, :2, :2], 4))
print(ct.get_config())
ct2 = tf.keras.layers.Conv2DTranspose(2, 3, strides=2, padding="valid", output_padding=1)
print(ct2(img).shape)
dw = tf.keras.layers.DepthwiseConv2D(3, depth_multiplier=2)
print(np.round(dw(img).numpy()[0, 0], 4))
print(dw.get_config())
sc = tf.keras.layers.SeparableConv2D(4, 3, padding="same")
print(np.round(sc(img).numpy()[1, 0, :2], 4))
print(sc.get_config())
for P in [tf.keras.layers.MaxPooling2D, tf.keras.layers.AveragePooling2D]:
    p = P(pool_size=2, strides=2, padding="same")
    print(np.round(p(img).numpy()[0, :, :, 0], 4))
    print(p.get_config())
print(tf.keras.layers.GlobalAveragePooling2D()(img).numpy())
print(tf.keras.layers.GlobalMaxPooling1D(keepdims=True)(x).numpy())
print(tf.keras.layers.GlobalAveragePooling1D().get_config())
print(tf.keras.layers.MaxPooling1D(2)(x).numpy())
print(tf.keras.layers.AveragePooling1D(2, strides=1, padding="same")(x).numpy())

# wrong inputs and arguments
L = tf.keras.layers
def attempt(desc, fn):
    try:
        r = fn()
        print(desc, "OK", getattr(r, "shape", r))
    except Exception as e:
        print(desc, type(e).__name__, str(e).strip().splitlines()[:6])

x2 = np.ones((2, 3), "float32")
x3 = np.ones((2, 4, 3), "float32")
x4 = np.ones((2, 5, 5, 3), "float32")
attempt("conv2d-rank3", lambda: L.Conv2D(2, 3)(x3))
attempt("conv1d-rank2", lambda: L.Conv1D(2, 3)(x2))
attempt("lstm-rank2", lambda: L.LSTM(2)(x2))
d = L.Dense(2); d(x2)
attempt("dense-wrongdim", lambda: d(np.ones((2, 4), "float32")))
attempt("maxpool-rank3", lambda: L.MaxPooling2D()(x3))
attempt("bn-axis", lambda: L.BatchNormalization(axis=5)(x3))
attempt("concat-mismatch", lambda: L.Concatenate()([x3, x4]))
attempt("add-mismatch", lambda: L.Add()([x2, np.ones((2, 4), "float32")]))
attempt("add-single", lambda: L.Add()([x2]))
attempt("conv-kernel-too-big", lambda: L.Conv2D(2, 7)(x4))
attempt("embedding-float", lambda: L.Embedding(5, 2)(np.array([[1.5]])))
attempt("gru-rank4", lambda: L.GRU(2)(x4))
attempt("dropout-rate", lambda: L.Dropout(1.5))
attempt("conv-filters-neg", lambda: L.Conv2D(-1, 3))
attempt("conv-padding", lambda: L.Conv2D(2, 3, padding="full"))
attempt("pool-padding", lambda: L.MaxPooling2D(padding="full"))
attempt("flatten-ok", lambda: L.Flatten()(x4))
attempt("permute-bad", lambda: L.Permute((0, 1)))
attempt("mha-bad", lambda: L.MultiHeadAttention(2, 3)(x3, np.ones((2, 4, 5), "float32")))
attempt("dot-bad", lambda: L.Dot(axes=1)([x3, x4]))
attempt("td-rank2", lambda: L.TimeDistributed(L.Dense(2))(x2))
attempt("activation-bad", lambda: L.Activation("nope"))
attempt("zeropad-bad", lambda: L.ZeroPadding2D((1, 2, 3)))
attempt("layernorm-axis", lambda: L.LayerNormalization(axis=4)(x3))
attempt("softmax-ok", lambda: L.Softmax(axis=1)(x3))
attempt("simplernn-unroll-none", lambda: L.SimpleRNN(2, unroll=True)(x3))
attempt("rescaling", lambda: L.Rescaling(1/255., offset=-1)(x2))
attempt("globalpool-rank3", lambda: L.GlobalAveragePooling2D()(x3))
