import tensorflow as tf
import numpy as np

tf.keras.utils.set_random_seed(42)
pos = ["a great movie", "loved the acting", "wonderful and moving story", "best film of the year",
       "i really enjoyed it", "brilliant direction and great cast", "a joy to watch", "fun and clever"]
neg = ["a terrible movie", "hated the acting", "boring and slow story", "worst film of the year",
       "i really disliked it", "awful direction and bad cast", "a pain to watch", "dull and stupid"]
texts = pos + neg
labels = [1] * len(pos) + [0] * len(neg)
dataset = tf.data.Dataset.from_tensor_slices((texts, labels))
print(dataset.element_spec)
train_dataset = dataset.shuffle(16, seed=1).batch(4)
for example, label in train_dataset.take(1):
    print('texts: ', example.numpy()[:3])
    print('labels: ', label.numpy()[:3])

VOCAB_SIZE = 40
encoder = tf.keras.layers.TextVectorization(max_tokens=VOCAB_SIZE)
encoder.adapt(train_dataset.map(lambda text, label: text))
vocab = np.array(encoder.get_vocabulary())
print(len(vocab), vocab[:20])
encoded_example = encoder(example)[:3].numpy()
print(encoded_example)
for n in range(3):
    print("Original: ", example[n].numpy())
    print("Round-trip: ", " ".join(vocab[encoded_example[n]]))
    print()

model = tf.keras.Sequential([
    encoder,
    tf.keras.layers.Embedding(input_dim=len(encoder.get_vocabulary()), output_dim=8, mask_zero=True),
    tf.keras.layers.Bidirectional(tf.keras.layers.LSTM(8)),
    tf.keras.layers.Dense(8, activation='relu'),
    tf.keras.layers.Dense(1)
])
print([layer.supports_masking for layer in model.layers])
sample_text = ('The movie was cool. The animation and the graphics were out of this world. I would recommend this movie.')
predictions = model.predict(np.array([sample_text]), verbose=0)
print(np.round(predictions[0], 4))
padding = "the " * 20
predictions = model.predict(np.array([sample_text, padding]), verbose=0)
print(np.round(predictions[0], 4))
model.compile(loss=tf.keras.losses.BinaryCrossentropy(from_logits=True),
              optimizer=tf.keras.optimizers.Adam(1e-2), metrics=['accuracy'])
history = model.fit(train_dataset, epochs=3, validation_data=train_dataset, validation_steps=2, verbose=0)
print({k: [round(x, 3) for x in v] for k, v in history.history.items()})
test_loss, test_acc = model.evaluate(train_dataset, verbose=0)
print('Test Loss:', round(test_loss, 3))
print('Test Accuracy:', round(test_acc, 3))
model.summary()

model2 = tf.keras.Sequential([
    encoder,
    tf.keras.layers.Embedding(len(encoder.get_vocabulary()), 8, mask_zero=True),
    tf.keras.layers.Bidirectional(tf.keras.layers.LSTM(8, return_sequences=True)),
    tf.keras.layers.Bidirectional(tf.keras.layers.LSTM(4)),
    tf.keras.layers.Dense(8, activation='relu'),
    tf.keras.layers.Dropout(0.5),
    tf.keras.layers.Dense(1)
])
model2.compile(loss=tf.keras.losses.BinaryCrossentropy(from_logits=True),
               optimizer=tf.keras.optimizers.Adam(1e-2), metrics=['accuracy'])
h = model2.fit(train_dataset, epochs=2, verbose=0)
print([round(x, 3) for x in h.history['loss']])
print(np.round(model2.predict(np.array(["great cast", "bad cast"]), verbose=0), 3))
model2.summary()
emb = model2.layers[1]
print(emb.compute_mask(tf.constant([[1, 0, 2]])))
print(encoder.get_config()['max_tokens'], encoder.vocabulary_size())
