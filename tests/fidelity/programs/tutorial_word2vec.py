"""Word2vec with negative sampling, as tensorflow.org's tutorial (a tiny inline corpus):
skip-grams, log-uniform negative candidates, and a shuffled, cached, prefetched dataset
trained with fit."""
import re
import string

import numpy as np
import tensorflow as tf

SEED = 42
text = ["the quick brown fox jumps over the lazy dog", "a dog and a fox are friends",
        "the lazy cat sleeps all day long", "quick thinking saves the day",
        "over and over the fox jumps", "the dog barks at the cat"] * 3


def custom_standardization(input_data):
    lowercase = tf.strings.lower(input_data)
    return tf.strings.regex_replace(lowercase, "[%s]" % re.escape(string.punctuation), "")


vocab_size, sequence_length, num_ns = 30, 10, 4
vectorize_layer = tf.keras.layers.TextVectorization(
    standardize=custom_standardization, max_tokens=vocab_size, output_mode="int",
    output_sequence_length=sequence_length)
text_ds = tf.data.Dataset.from_tensor_slices(text)
vectorize_layer.adapt(text_ds.batch(4))
inverse_vocab = vectorize_layer.get_vocabulary()
print(inverse_vocab[:8])
sequences = list(text_ds.batch(4).prefetch(tf.data.AUTOTUNE).map(vectorize_layer)
                 .unbatch().as_numpy_iterator())
print(len(sequences), sequences[0])
print(np.round(tf.keras.preprocessing.sequence.make_sampling_table(8), 6))

tf.random.set_seed(SEED)
targets, contexts, labels = [], [], []
for sequence in sequences:
    skip_grams, _ = tf.keras.preprocessing.sequence.skipgrams(
        sequence, vocabulary_size=vocab_size, window_size=2, negative_samples=0, seed=SEED)
    for target_word, context_word in skip_grams:
        context_class = tf.expand_dims(tf.constant([context_word], dtype="int64"), 1)
        candidates, true_expected, sampled_expected = tf.random.log_uniform_candidate_sampler(
            true_classes=context_class, num_true=1, num_sampled=num_ns, unique=True,
            range_max=vocab_size, seed=SEED, name="negative_sampling")
        if not targets:
            print(candidates, true_expected, sampled_expected)
        targets.append(target_word)
        contexts.append(tf.concat([tf.squeeze(context_class, 1), candidates], 0))
        labels.append(tf.constant([1] + [0] * num_ns, dtype="int64"))
targets, contexts, labels = np.array(targets), np.array(contexts), np.array(labels)
print(targets.shape, contexts.shape, labels.shape)
print(targets[:8], contexts[:3], contexts.sum())
hits = tf.nn.compute_accidental_hits(tf.constant(contexts[:4, :1]), tf.constant(contexts[0]), 1)
print(hits)

dataset = tf.data.Dataset.from_tensor_slices(((targets, contexts), labels))
dataset = dataset.shuffle(100, seed=1).batch(8, drop_remainder=True)
dataset = dataset.cache().prefetch(buffer_size=tf.data.AUTOTUNE)
print(dataset.element_spec)


class Word2Vec(tf.keras.Model):
    def __init__(self, vocab_size, embedding_dim):
        super().__init__()
        self.target_embedding = tf.keras.layers.Embedding(vocab_size, embedding_dim,
                                                          name="w2v_embedding")
        self.context_embedding = tf.keras.layers.Embedding(vocab_size, embedding_dim)

    def call(self, pair):
        target, context = pair
        if len(target.shape) == 2:
            target = tf.squeeze(target, axis=1)
        word_emb = self.target_embedding(target)
        context_emb = self.context_embedding(context)
        return tf.einsum("be,bce->bc", word_emb, context_emb)


word2vec = Word2Vec(vocab_size, 16)
word2vec.compile(optimizer="adam",
                 loss=tf.keras.losses.CategoricalCrossentropy(from_logits=True))
word2vec((tf.constant(targets[:1]), tf.constant(contexts[:1])))
for i, w in enumerate(word2vec.weights):
    w.assign(tf.reshape(tf.sin(tf.range(tf.size(w), dtype=tf.float32) * 1.37 + i),
                        w.shape) * 0.05)
history = word2vec.fit(dataset, epochs=3, verbose=0)
print([round(v, 4) for v in history.history["loss"]])
print(next(iter(dataset))[0][0].numpy())
weights = word2vec.get_layer("w2v_embedding").get_weights()[0]
print(weights.shape, np.round(weights[2, :4], 4))
