"""The functional-API guide's ticket classifier: several inputs, named outputs, loss weights."""
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(6)
rng = np.random.RandomState(6)
num_tags, num_words, num_departments, n = 5, 50, 3, 24

title_input = tf.keras.Input(shape=(None,), name="title")
body_input = tf.keras.Input(shape=(None,), name="body")
tags_input = tf.keras.Input(shape=(num_tags,), name="tags")
title_features = tf.keras.layers.Embedding(num_words, 4)(title_input)
body_features = tf.keras.layers.Embedding(num_words, 4)(body_input)
title_features = tf.keras.layers.GlobalAveragePooling1D()(title_features)
body_features = tf.keras.layers.GlobalAveragePooling1D()(body_features)
x = tf.keras.layers.concatenate([title_features, body_features, tags_input])
priority_pred = tf.keras.layers.Dense(1, name="priority")(x)
department_pred = tf.keras.layers.Dense(num_departments, name="department")(x)
model = tf.keras.Model(inputs=[title_input, body_input, tags_input],
                       outputs=[priority_pred, department_pred])
print(model.input_names, model.output_names)
print([t.shape for t in model.inputs], [t.shape for t in model.outputs])
model.summary(line_length=90)

title_data = rng.randint(num_words, size=(n, 6))
body_data = rng.randint(num_words, size=(n, 10))
tags_data = rng.randint(2, size=(n, num_tags)).astype("float32")
priority_targets = rng.random_sample(size=(n, 1))
dept_targets = rng.randint(2, size=(n, num_departments)).astype("float32")

model.compile(
    optimizer=tf.keras.optimizers.RMSprop(1e-3),
    loss={"priority": tf.keras.losses.BinaryCrossentropy(from_logits=True),
          "department": tf.keras.losses.CategoricalCrossentropy(from_logits=True)},
    loss_weights={"priority": 1.0, "department": 0.2},
    metrics={"priority": ["mae"], "department": [tf.keras.metrics.CategoricalAccuracy()]},
)
print(model.metrics_names)
history = model.fit({"title": title_data, "body": body_data, "tags": tags_data},
                    {"priority": priority_targets, "department": dept_targets},
                    epochs=2, batch_size=8, verbose=0)
print(list(history.history))
print(model.metrics_names)
print({k: round(v[-1], 3) for k, v in history.history.items()})
result = model.evaluate([title_data, body_data, tags_data],
                        [priority_targets, dept_targets], verbose=0, return_dict=True)
print({k: round(v, 3) for k, v in result.items()})
priority, department = model.predict(
    {"title": title_data[:4], "body": body_data[:4], "tags": tags_data[:4]}, verbose=0)
print(priority.shape, department.shape, priority.dtype)
print(model.get_layer("department").output_shape, model.get_layer("title").input_shape)
print(sorted(model.get_config()), len(model.get_config()["layers"]))
try:
    model.fit({"title": title_data, "body": body_data}, [priority_targets, dept_targets],
              verbose=0)
except Exception as e:
    print(type(e).__name__)

# Dict outputs: history keys and predictions follow the dict's keys.
named = tf.keras.Model(inputs=[title_input, body_input, tags_input],
                       outputs={"urgency": priority_pred, "team": department_pred})
named.compile(optimizer="adam", loss={"urgency": "mse", "team": "categorical_crossentropy"},
              loss_weights={"urgency": 2.0, "team": 1.0}, metrics={"team": "accuracy"})
history = named.fit([title_data, body_data, tags_data],
                    {"urgency": priority_targets, "team": dept_targets},
                    epochs=1, batch_size=12, verbose=0)
print(named.output_names, list(history.history))
out = named.predict([title_data[:2], body_data[:2], tags_data[:2]], verbose=0)
print(type(out).__name__, sorted(out), out["team"].shape)
print({k: round(v, 3) for k, v in named.evaluate(
    [title_data, body_data, tags_data], {"urgency": priority_targets, "team": dept_targets},
    verbose=0, return_dict=True).items()})
