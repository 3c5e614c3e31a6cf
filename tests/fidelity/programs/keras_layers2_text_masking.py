import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(42)

# Padded integer sequences, as a tokenizer would produce them.
ids = np.array([[5, 3, 8, 0, 0],
                [2, 9, 0, 0, 0],
                [7, 1, 4, 6, 3],
                [4, 0, 0, 0, 0]], dtype="int32")
labels = np.array([1, 0, 1, 0], dtype="float32")

emb = tf.keras.layers.Embedding(input_dim=10, output_dim=4, mask_zero=True)
embedded = emb(ids)
print(embedded.shape, embedded.dtype)
print(embedded._keras_mask)
print(emb.compute_mask(ids))
print(emb.compute_output_shape((None, 5)))

# Masks propagate through mask-supporting layers.
lstm = tf.keras.layers.LSTM(3, return_sequences=True)
seq = lstm(embedded)
print(seq.shape, seq._keras_mask.numpy().tolist())
# Padded steps repeat the last valid output.
print(np.allclose(seq[1, 1].numpy(), seq[1, 4].numpy()))

pool = tf.keras.layers.GlobalAveragePooling1D()
pooled_masked = pool(seq, mask=seq._keras_mask)
pooled_plain = pool(seq)
print(pooled_masked.shape, hasattr(pooled_masked, "_keras_mask"))
print(np.allclose(pooled_masked[2].numpy(), pooled_plain[2].numpy()))
print(np.allclose(pooled_masked[3].numpy(), seq[3, 0].numpy()))

td = tf.keras.layers.TimeDistributed(tf.keras.layers.Dense(2))
td_out = td(seq)
print(td_out.shape, td_out._keras_mask.numpy().tolist())

# Functional text classifier.
inputs = tf.keras.Input(shape=(None,), dtype="int32", name="tokens")
x = tf.keras.layers.Embedding(10, 8, mask_zero=True, name="embed")(inputs)
print(x._keras_mask.shape, x._keras_mask.dtype)
x = tf.keras.layers.Bidirectional(tf.keras.layers.LSTM(4, return_sequences=True),
                                  name="bilstm")(x)
x = tf.keras.layers.GRU(4, name="gru")(x)
x = tf.keras.layers.Dropout(0.1)(x)
outputs = tf.keras.layers.Dense(1, activation="sigmoid", name="head")(x)
model = tf.keras.Model(inputs, outputs, name="text_clf")
model.summary()
print([l.name for l in model.layers])
print([w.name for w in model.get_layer("bilstm").weights])
print([tuple(w.shape) for w in model.trainable_weights])
print(model.get_layer("bilstm").get_config()["merge_mode"])
print(model.compute_mask(inputs, None))

model.compile(optimizer=tf.keras.optimizers.Adam(0.01), loss="binary_crossentropy",
              metrics=["accuracy"])
hist = model.fit(ids, labels, epochs=3, batch_size=2, verbose=0)
print(sorted(hist.history), len(hist.history["loss"]))
pred = model.predict(ids, verbose=0)
print(pred.shape, pred.dtype)

# A fully padded row still works, and padding to a longer length does not change results.
longer = np.concatenate([ids, np.zeros((4, 3), "int32")], axis=1)
a = model(ids, training=False).numpy()
b = model(longer, training=False).numpy()
print(np.allclose(a, b, atol=1e-6))

# Masking layer on float features, with a sum merge Bidirectional GRU.
feats = np.random.RandomState(0).rand(2, 4, 3).astype("float32")
feats[0, 2:] = 0.0
masking = tf.keras.layers.Masking(mask_value=0.0)
masked = masking(feats)
print(masked._keras_mask.numpy().tolist())
print(masking.compute_mask(feats).numpy().tolist())
bi = tf.keras.layers.Bidirectional(tf.keras.layers.GRU(2, return_sequences=True),
                                   merge_mode="sum")
bo = bi(masked)
print(bo.shape, bo._keras_mask.numpy().tolist())
print(bi.compute_output_shape((2, 4, 3)))
bi_concat = tf.keras.layers.Bidirectional(tf.keras.layers.SimpleRNN(2), merge_mode=None)
outs = bi_concat(masked)
print(type(outs).__name__, len(outs), [o.shape for o in outs])

# Embedding errors and config.
print(emb.get_config())
try:
    out = tf.keras.layers.Embedding(10, 4)(np.array([[1.5, 2.0]]))
    print(out.shape, out.dtype)
except Exception as e:
    print(type(e).__name__)
conv_mask = tf.keras.layers.Conv1D(2, 2)
try:
    conv_mask(embedded)
    print("conv ok")
except Exception as e:
    print(type(e).__name__, e)
try:
    tf.keras.layers.Embedding(10, 4)(np.array([[12, 2]]))
    print("out of range ok")
except Exception as e:
    print(type(e).__name__)
