# The character-level LSTM seq2seq and the English-to-Spanish Transformer examples, shrunk to tiny data:
# encoder states into a decoder, a separate inference loop, TextVectorization with a custom standardize,
# a causal attention mask, and the summaries, losses and predictions along the way.
import numpy as np
import tensorflow as tf
keras = tf.keras
keras.utils.set_random_seed(42)
np.set_printoptions(precision=4, suppress=True)
input_texts = ["go.", "hi.", "run!", "wow!", "fire!"]
target_texts = ["\tva !\n", "\tsalut !\n", "\tcours !\n", "\tça alors !\n", "\tau feu !\n"]
input_chars = sorted(set("".join(input_texts)))
target_chars = sorted(set("".join(target_texts)))
nei, ndt = len(input_chars), len(target_chars)
mel = max(len(t) for t in input_texts); mdl = max(len(t) for t in target_texts)
itok = {c: i for i, c in enumerate(input_chars)}; ttok = {c: i for i, c in enumerate(target_chars)}
eid = np.zeros((5, mel, nei), dtype="float32"); did = np.zeros((5, mdl, ndt), dtype="float32"); dtd = np.zeros((5, mdl, ndt), dtype="float32")
for i, (it, tt) in enumerate(zip(input_texts, target_texts)):
    for t, c in enumerate(it): eid[i, t, itok[c]] = 1.0
    eid[i, t + 1:, itok["."]] = 1.0
    for t, c in enumerate(tt):
        did[i, t, ttok[c]] = 1.0
        if t > 0: dtd[i, t - 1, ttok[c]] = 1.0
    did[i, t + 1:, ttok[" "]] = 1.0; dtd[i, t:, ttok[" "]] = 1.0
latent_dim = 16
encoder_inputs = keras.Input(shape=(None, nei))
encoder = keras.layers.LSTM(latent_dim, return_state=True)
encoder_outputs, state_h, state_c = encoder(encoder_inputs)
encoder_states = [state_h, state_c]
decoder_inputs = keras.Input(shape=(None, ndt))
decoder_lstm = keras.layers.LSTM(latent_dim, return_sequences=True, return_state=True)
decoder_outputs, _, _ = decoder_lstm(decoder_inputs, initial_state=encoder_states)
decoder_dense = keras.layers.Dense(ndt, activation="softmax")
decoder_outputs = decoder_dense(decoder_outputs)
model = keras.Model([encoder_inputs, decoder_inputs], decoder_outputs)
model.summary()
model.compile(optimizer="rmsprop", loss="categorical_crossentropy", metrics=["accuracy"])
h = model.fit([eid, did], dtd, batch_size=2, epochs=3, validation_split=0.2, verbose=0)
print({k: np.round(v, 4).tolist() for k, v in h.history.items()})
encoder_model = keras.Model(encoder_inputs, encoder_states)
dsih = keras.Input(shape=(latent_dim,)); dsic = keras.Input(shape=(latent_dim,))
dsi = [dsih, dsic]
do, sh, sc = decoder_lstm(decoder_inputs, initial_state=dsi)
do = decoder_dense(do)
decoder_model = keras.Model([decoder_inputs] + dsi, [do, sh, sc])
decoder_model.summary()
rev = {i: c for c, i in ttok.items()}
def decode(seq):
    states = encoder_model.predict(seq, verbose=0)
    ts = np.zeros((1, 1, ndt)); ts[0, 0, ttok["\t"]] = 1.0
    out = ""
    for _ in range(6):
        ot, h, c = decoder_model.predict([ts] + states, verbose=0)
        idx = np.argmax(ot[0, -1, :]); out += rev[idx]
        print(np.round(ot[0, -1, :5], 4))
        ts = np.zeros((1, 1, ndt)); ts[0, 0, idx] = 1.0
        states = [h, c]
    return out
print(repr(decode(eid[0:1])))
import string, re
layers = keras.layers
TextVectorization = layers.TextVectorization
keras.utils.set_random_seed(42)
pairs = [("Go.", "[start] Ve. [end]"), ("Hi.", "[start] Hola. [end]"), ("Run!", "[start] ¡Corre! [end]"),
         ("Who?", "[start] ¿Quién? [end]"), ("I see.", "[start] Ya veo. [end]"), ("Help!", "[start] ¡Ayuda! [end]"),
         ("I'm OK.", "[start] Estoy bien. [end]"), ("Thanks.", "[start] ¡Gracias! [end]")]
strip_chars = string.punctuation + "¿¡"
strip_chars = strip_chars.replace("[", "").replace("]", "")
vocab_size = 30; sequence_length = 6; batch_size = 4
def custom_standardization(input_string):
    lowercase = tf.strings.lower(input_string)
    return tf.strings.regex_replace(lowercase, "[%s]" % re.escape(strip_chars), "")
eng_vectorization = TextVectorization(max_tokens=vocab_size, output_mode="int", output_sequence_length=sequence_length)
spa_vectorization = TextVectorization(max_tokens=vocab_size, output_mode="int", output_sequence_length=sequence_length + 1, standardize=custom_standardization)
train_eng_texts = [p[0] for p in pairs]; train_spa_texts = [p[1] for p in pairs]
eng_vectorization.adapt(train_eng_texts); spa_vectorization.adapt(train_spa_texts)
print(eng_vectorization.get_vocabulary()); print(spa_vectorization.get_vocabulary())
print(spa_vectorization(["[start] ¡Corre! [end]"]))
def format_dataset(eng, spa):
    eng = eng_vectorization(eng); spa = spa_vectorization(spa)
    return ({"encoder_inputs": eng, "decoder_inputs": spa[:, :-1]}, spa[:, 1:])
ds = tf.data.Dataset.from_tensor_slices((train_eng_texts, train_spa_texts)).batch(batch_size).map(format_dataset)
for inputs, targets in ds.take(1):
    print(inputs["encoder_inputs"].shape, inputs["decoder_inputs"].shape, targets.shape)
    print(targets.numpy())
class TransformerEncoder(layers.Layer):
    def __init__(self, embed_dim, dense_dim, num_heads, **kwargs):
        super().__init__(**kwargs)
        self.attention = layers.MultiHeadAttention(num_heads=num_heads, key_dim=embed_dim)
        self.dense_proj = keras.Sequential([layers.Dense(dense_dim, activation="relu"), layers.Dense(embed_dim)])
        self.layernorm_1 = layers.LayerNormalization(); self.layernorm_2 = layers.LayerNormalization()
        self.supports_masking = True
    def call(self, inputs, mask=None):
        if mask is not None:
            padding_mask = tf.cast(mask[:, tf.newaxis, :], dtype="int32")
        attention_output = self.attention(query=inputs, value=inputs, key=inputs, attention_mask=padding_mask)
        proj_input = self.layernorm_1(inputs + attention_output)
        proj_output = self.dense_proj(proj_input)
        return self.layernorm_2(proj_input + proj_output)
class PositionalEmbedding(layers.Layer):
    def __init__(self, sequence_length, vocab_size, embed_dim, **kwargs):
        super().__init__(**kwargs)
        self.token_embeddings = layers.Embedding(input_dim=vocab_size, output_dim=embed_dim)
        self.position_embeddings = layers.Embedding(input_dim=sequence_length, output_dim=embed_dim)
    def call(self, inputs):
        length = tf.shape(inputs)[-1]
        positions = tf.range(start=0, limit=length, delta=1)
        return self.token_embeddings(inputs) + self.position_embeddings(positions)
    def compute_mask(self, inputs, mask=None):
        return tf.math.not_equal(inputs, 0)
class TransformerDecoder(layers.Layer):
    def __init__(self, embed_dim, latent_dim, num_heads, **kwargs):
        super().__init__(**kwargs)
        self.attention_1 = layers.MultiHeadAttention(num_heads=num_heads, key_dim=embed_dim)
        self.attention_2 = layers.MultiHeadAttention(num_heads=num_heads, key_dim=embed_dim)
        self.dense_proj = keras.Sequential([layers.Dense(latent_dim, activation="relu"), layers.Dense(embed_dim)])
        self.layernorm_1 = layers.LayerNormalization(); self.layernorm_2 = layers.LayerNormalization(); self.layernorm_3 = layers.LayerNormalization()
        self.supports_masking = True
    def call(self, inputs, encoder_outputs, mask=None):
        causal_mask = self.get_causal_attention_mask(inputs)
        if mask is not None:
            padding_mask = tf.cast(mask[:, tf.newaxis, :], dtype="int32")
            padding_mask = tf.minimum(padding_mask, causal_mask)
        attention_output_1 = self.attention_1(query=inputs, value=inputs, key=inputs, attention_mask=causal_mask)
        out_1 = self.layernorm_1(inputs + attention_output_1)
        attention_output_2 = self.attention_2(query=out_1, value=encoder_outputs, key=encoder_outputs, attention_mask=padding_mask)
        out_2 = self.layernorm_2(out_1 + attention_output_2)
        proj_output = self.dense_proj(out_2)
        return self.layernorm_3(out_2 + proj_output)
    def get_causal_attention_mask(self, inputs):
        input_shape = tf.shape(inputs)
        batch_size, sequence_length = input_shape[0], input_shape[1]
        i = tf.range(sequence_length)[:, tf.newaxis]
        j = tf.range(sequence_length)
        mask = tf.cast(i >= j, dtype="int32")
        mask = tf.reshape(mask, (1, input_shape[1], input_shape[1]))
        mult = tf.concat([tf.expand_dims(batch_size, -1), tf.constant([1, 1], dtype=tf.int32)], axis=0)
        return tf.tile(mask, mult)
embed_dim = 8; latent_dim = 16; num_heads = 2
encoder_inputs = keras.Input(shape=(None,), dtype="int64", name="encoder_inputs")
x = PositionalEmbedding(sequence_length, vocab_size, embed_dim)(encoder_inputs)
encoder_outputs = TransformerEncoder(embed_dim, latent_dim, num_heads)(x)
encoder = keras.Model(encoder_inputs, encoder_outputs)
decoder_inputs = keras.Input(shape=(None,), dtype="int64", name="decoder_inputs")
encoded_seq_inputs = keras.Input(shape=(None, embed_dim), name="decoder_state_inputs")
x = PositionalEmbedding(sequence_length, vocab_size, embed_dim)(decoder_inputs)
x = TransformerDecoder(embed_dim, latent_dim, num_heads)(x, encoded_seq_inputs)
x = layers.Dropout(0.5)(x)
decoder_outputs = layers.Dense(vocab_size, activation="softmax")(x)
decoder = keras.Model([decoder_inputs, encoded_seq_inputs], decoder_outputs)
decoder_outputs = decoder([decoder_inputs, encoder_outputs])
transformer = keras.Model([encoder_inputs, decoder_inputs], decoder_outputs, name="transformer")
transformer.summary()
transformer.compile("rmsprop", loss="sparse_categorical_crossentropy", metrics=["accuracy"])
h = transformer.fit(ds, epochs=2, validation_data=ds, verbose=0)
print({k: np.round(v, 4).tolist() for k, v in h.history.items()})
spa_vocab = spa_vectorization.get_vocabulary(); spa_index_lookup = dict(zip(range(len(spa_vocab)), spa_vocab))
def decode_sequence(input_sentence):
    tokenized_input_sentence = eng_vectorization([input_sentence])
    decoded_sentence = "[start]"
    for i in range(sequence_length):
        tokenized_target_sentence = spa_vectorization([decoded_sentence])[:, :-1]
        predictions = transformer([tokenized_input_sentence, tokenized_target_sentence])
        sampled_token_index = np.argmax(predictions[0, i, :])
        decoded_sentence += " " + spa_index_lookup.get(sampled_token_index, "?")
        if spa_index_lookup.get(sampled_token_index, "?") == "[end]":
            break
    return decoded_sentence
print(decode_sequence("Go."))
print(np.round(transformer.predict(ds, verbose=0)[0, 0, :6], 4))
x = tf.ones((2, 4))
print(tf.linalg.band_part(x, -1, 0)); print(tf.linalg.band_part(tf.ones((3, 3)), 0, -1)); print(tf.linalg.band_part(tf.ones((2,3,3)), 1, 0))
