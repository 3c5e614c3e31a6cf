import json

import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)
model = tf.keras.Sequential([
    tf.keras.layers.Dense(4, activation="relu", input_shape=(3,), name="hidden"),
    tf.keras.layers.Dropout(0.1),
    tf.keras.layers.Dense(2, activation="softmax"),
], name="clf")
config = model.get_config()
print(json.dumps(config))
again = tf.keras.Sequential.from_config(config)
print(again.name, [layer.name for layer in again.layers], again.count_params())
clone = tf.keras.models.clone_model(model)
print(clone.name, [layer.name for layer in clone.layers], [w.name for w in clone.weights])
clone.set_weights(model.get_weights())
data = np.random.RandomState(0).rand(2, 3).astype("float32")
print(np.allclose(clone.predict(data, verbose=0), model.predict(data, verbose=0)))
print(model.to_json())
restored = tf.keras.models.model_from_json(model.to_json())
print(restored.name, [layer.name for layer in restored.layers])

inp = tf.keras.Input((3,), name="x")
hidden = tf.keras.layers.Dense(4, name="h")(inp)
out = tf.keras.layers.Dense(1, name="o")(hidden)
functional = tf.keras.Model(inp, out, name="fm")
print(json.dumps(functional.get_config()))
print(functional.to_json(indent=1)[:200])
rebuilt = tf.keras.Model.from_config(functional.get_config())
print(rebuilt.name, [layer.name for layer in rebuilt.layers])
copy = tf.keras.models.clone_model(functional)
print(copy.name, [layer.name for layer in copy.layers], [w.name for w in copy.weights])
print(functional.layers[1].get_build_config(), functional.layers[0].get_build_config())
