import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(4)
num_tags, num_words, num_departments = 6, 20, 3

title_input = tf.keras.Input(shape=(None,), name="title")
body_input = tf.keras.Input(shape=(None,), name="body")
tags_input = tf.keras.Input(shape=(num_tags,), name="tags")
title_features = tf.keras.layers.Embedding(num_words, 8)(title_input)
body_features = tf.keras.layers.Embedding(num_words, 8)(body_input)
title_features = tf.keras.layers.LSTM(6)(title_features)
body_features = tf.keras.layers.LSTM(4)(body_features)
x = tf.keras.layers.concatenate([title_features, body_features, tags_input])
priority_pred = tf.keras.layers.Dense(1, name="priority")(x)
department_pred = tf.keras.layers.Dense(num_departments, name="department")(x)
model = tf.keras.Model(inputs=[title_input, body_input, tags_input],
                       outputs=[priority_pred, department_pred])
model.summary()
print(model.input_names, model.output_names)
print([tuple(t.shape) for t in model.inputs], [tuple(t.shape) for t in model.outputs])
model.compile(optimizer=tf.keras.optimizers.RMSprop(1e-3),
              loss={"priority": tf.keras.losses.BinaryCrossentropy(from_logits=True),
                    "department": tf.keras.losses.CategoricalCrossentropy(from_logits=True)},
              loss_weights={"priority": 1.0, "department": 0.2})
rng = np.random.RandomState(0)
title_data = rng.randint(num_words, size=(8, 5))
body_data = rng.randint(num_words, size=(8, 7))
tags_data = rng.randint(2, size=(8, num_tags)).astype("float32")
priority_targets = rng.random_sample(size=(8, 1))
dept_targets = rng.randint(2, size=(8, num_departments))
hist = model.fit({"title": title_data, "body": body_data, "tags": tags_data},
                 {"priority": priority_targets, "department": dept_targets},
                 epochs=2, batch_size=4, verbose=0)
print(sorted(hist.history))
preds = model.predict({"title": title_data, "body": body_data, "tags": tags_data}, verbose=0)
print(type(preds).__name__, [p.shape for p in preds])

# Merge layers and their shapes.
a = tf.keras.Input((4,))
b = tf.keras.Input((4,))
for layer in [tf.keras.layers.Add(), tf.keras.layers.Subtract(), tf.keras.layers.Multiply(),
              tf.keras.layers.Average(), tf.keras.layers.Maximum(), tf.keras.layers.Minimum(),
              tf.keras.layers.Concatenate(), tf.keras.layers.Dot(axes=1),
              tf.keras.layers.Dot(axes=1, normalize=True)]:
    out = layer([a, b])
    va = np.array([[1.0, 2.0, 3.0, 4.0]], "float32")
    vb = np.array([[4.0, 3.0, 2.0, 1.0]], "float32")
    print(type(layer).__name__, out.shape, np.round(layer([va, vb]).numpy(), 4).tolist())
print(tf.keras.layers.Dot(axes=(1, 2))([tf.ones((2, 3, 4)), tf.ones((2, 4, 3))]).shape)

# Reshaping utilities.
seq = tf.keras.Input((3, 4))
print(tf.keras.layers.Permute((2, 1))(seq).shape, tf.keras.layers.Reshape((-1, 2))(seq).shape)
print(tf.keras.layers.RepeatVector(5)(a).shape, tf.keras.layers.Flatten()(seq).shape)
print(tf.keras.layers.Lambda(lambda t: t[:, :2] * 2.0)(seq).shape)
lam = tf.keras.layers.Lambda(lambda t: tf.reduce_sum(t, axis=-1, keepdims=True), name="sum")
print(lam(np.ones((2, 3), "float32")).numpy().tolist(), lam.name)
print(tf.keras.layers.Reshape((2, 2)).get_config())
print(tf.keras.layers.Permute((2, 1)).get_config()["dims"])
print(tf.keras.layers.RepeatVector(3)(np.array([[1.0, 2.0]], "float32")).numpy().tolist())
td = tf.keras.layers.TimeDistributed(tf.keras.layers.Conv2D(2, 3, padding="same"))
print(td(tf.ones((1, 4, 5, 5, 1))).shape, td.compute_output_shape((None, 4, 5, 5, 1)))
print([w.name for w in td.weights])

# Shared layers: one layer object called on two inputs.
shared = tf.keras.layers.Dense(3, name="shared")
o1, o2 = shared(a), shared(b)
siamese = tf.keras.Model([a, b], tf.keras.layers.subtract([o1, o2]))
print(len(siamese.weights), [l.name for l in siamese.layers])
print(shared.get_output_at(0).shape, shared.get_input_at(1).name)
print(tf.keras.layers.Add()([a]).shape)
try:
    tf.keras.layers.Concatenate()([a, seq])
except Exception as e:
    print(type(e).__name__, e)
