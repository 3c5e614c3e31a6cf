import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(11)
rng = np.random.RandomState(5)
query = rng.rand(2, 3, 4).astype("float32")
value = rng.rand(2, 5, 4).astype("float32")

# MultiHeadAttention with a padding mask and returned scores.
mha = tf.keras.layers.MultiHeadAttention(num_heads=2, key_dim=3, name="mha")
mask = np.array([[[1, 1, 1, 0, 0]] * 3, [[1, 1, 1, 1, 1]] * 3], dtype=bool)
out, scores = mha(query, value, attention_mask=mask, return_attention_scores=True)
print(out.shape, scores.shape)
print(np.round(scores.numpy()[0, 0], 4))
print(np.round(scores.numpy().sum(-1), 4))
print([w.name for w in mha.weights])
print([tuple(w.shape) for w in mha.weights])
cfg = mha.get_config()
print(sorted(cfg))
print(cfg["num_heads"], cfg["key_dim"], cfg["value_dim"], cfg["output_shape"],
      cfg["attention_axes"])
print(mha.compute_output_shape((2, 3, 4), (2, 5, 4)))

# Self-attention with a causal mask: no weight on future positions.
self_attn = tf.keras.layers.MultiHeadAttention(num_heads=1, key_dim=2, value_dim=3,
                                               output_shape=6)
o, s = self_attn(query, query, use_causal_mask=True, return_attention_scores=True)
print(o.shape, np.round(s.numpy()[1, 0], 4))

# Keras masks from an Embedding flow into the attention layer as a padding mask.
tokens = np.array([[3, 4, 0, 0], [1, 2, 5, 0]])
emb = tf.keras.layers.Embedding(8, 4, mask_zero=True)
h = emb(tokens)
att = tf.keras.layers.MultiHeadAttention(num_heads=2, key_dim=2)
a, sc = att(h, h, return_attention_scores=True)
print(np.round(sc.numpy()[0, 0], 4))

# A transformer encoder block as a custom layer.
class TransformerBlock(tf.keras.layers.Layer):
    def __init__(self, embed_dim, num_heads, ff_dim, rate=0.1, **kwargs):
        super().__init__(**kwargs)
        self.att = tf.keras.layers.MultiHeadAttention(num_heads=num_heads, key_dim=embed_dim)
        self.ffn = tf.keras.Sequential([tf.keras.layers.Dense(ff_dim, activation="relu"),
                                        tf.keras.layers.Dense(embed_dim)])
        self.layernorm1 = tf.keras.layers.LayerNormalization(epsilon=1e-6)
        self.layernorm2 = tf.keras.layers.LayerNormalization(epsilon=1e-6)
        self.dropout1 = tf.keras.layers.Dropout(rate)
        self.dropout2 = tf.keras.layers.Dropout(rate)

    def call(self, inputs, training=False):
        attn_output = self.att(inputs, inputs)
        attn_output = self.dropout1(attn_output, training=training)
        out1 = self.layernorm1(inputs + attn_output)
        ffn_output = self.dropout2(self.ffn(out1), training=training)
        return self.layernorm2(out1 + ffn_output)


class TokenAndPositionEmbedding(tf.keras.layers.Layer):
    def __init__(self, maxlen, vocab_size, embed_dim, **kwargs):
        super().__init__(**kwargs)
        self.token_emb = tf.keras.layers.Embedding(input_dim=vocab_size, output_dim=embed_dim)
        self.pos_emb = tf.keras.layers.Embedding(input_dim=maxlen, output_dim=embed_dim)

    def call(self, x):
        maxlen = tf.shape(x)[-1]
        positions = tf.range(start=0, limit=maxlen, delta=1)
        return self.token_emb(x) + self.pos_emb(positions)


inputs = tf.keras.layers.Input(shape=(6,))
x = TokenAndPositionEmbedding(6, 20, 8)(inputs)
x = TransformerBlock(8, 2, 16)(x)
x = tf.keras.layers.GlobalAveragePooling1D()(x)
x = tf.keras.layers.Dropout(0.1)(x)
outputs = tf.keras.layers.Dense(2, activation="softmax")(x)
model = tf.keras.Model(inputs=inputs, outputs=outputs)
model.summary()
print(len(model.trainable_weights))
print([w.name for w in model.layers[2].weights][:4])
model.compile(optimizer="adam", loss="sparse_categorical_crossentropy", metrics=["accuracy"])
xs = rng.randint(0, 20, size=(6, 6))
ys = rng.randint(0, 2, size=(6,))
hist = model.fit(xs, ys, batch_size=3, epochs=2, verbose=0)
print(sorted(hist.history))
print(model.predict(xs[:2], verbose=0).shape)

# Dot-product and additive attention layers.
q = tf.constant(rng.rand(2, 2, 3).astype("float32"))
v = tf.constant(rng.rand(2, 4, 3).astype("float32"))
vmask = tf.constant([[True, True, False, False], [True, True, True, False]])
dot = tf.keras.layers.Attention()
res, w = dot([q, v], mask=[None, vmask], return_attention_scores=True)
print(res.shape, np.round(w.numpy(), 4))
scaled = tf.keras.layers.Attention(use_scale=True, score_mode="concat")
print(scaled([q, v]).shape, [x.name for x in scaled.weights])
add = tf.keras.layers.AdditiveAttention()
r2 = add([q, v, v], mask=[None, vmask])
print(r2.shape, [x.name for x in add.weights], add.get_config())
causal = tf.keras.layers.Attention()
cw = causal([q, q], use_causal_mask=True, return_attention_scores=True)[1]
print(np.round(cw.numpy()[0], 4))

# Errors.
try:
    tf.keras.layers.Attention()(q)
except Exception as e:
    print(type(e).__name__, e)
try:
    tf.keras.layers.Attention()([q, v], mask=vmask)
except Exception as e:
    print(type(e).__name__, e)
try:
    tf.keras.layers.MultiHeadAttention(num_heads=2, key_dim=2)(query, value,
                                                               attention_mask=mask[:, :2])
except Exception as e:
    print(type(e).__name__, str(e).splitlines()[0])
