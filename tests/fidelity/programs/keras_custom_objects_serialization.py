import json
import os
import tempfile
import warnings

import numpy as np
import tensorflow as tf

warnings.simplefilter("ignore")
tmp = tempfile.mkdtemp()
C = tf.keras.initializers.Constant


def doubled(x):
    return x * 2.0


@tf.keras.utils.register_keras_serializable(package="fid")
def tripled(x):
    return x * 3.0


# functions serialize as configs naming them; tf.keras.activations' own by name
for family in (tf.keras.activations, tf.keras.losses, tf.keras.metrics, tf.keras.constraints):
    for fn in (tf.keras.activations.relu, tf.keras.losses.mean_squared_error, doubled, tripled):
        print(family.__name__.rpartition(".")[2], fn.__name__, family.serialize(fn),
              family.serialize(fn, use_legacy_format=True))
print(tf.keras.layers.Dense(2, activation=tripled).get_config()["activation"])
print(tf.keras.activations.deserialize(tf.keras.activations.serialize(tripled)).__name__)

# a model using an unregistered function: loading without it is a TypeError
inp = tf.keras.Input((3,))
model = tf.keras.Model(inp, tf.keras.layers.Dense(2, activation=doubled, name="d",
                                                  kernel_initializer=C(0.5))(inp))
print(json.loads(model.to_json())["config"]["layers"][1]["config"]["activation"])
for attempt in (lambda: tf.keras.models.model_from_json(model.to_json()),
                lambda: tf.keras.layers.Dense.from_config({"units": 2, "bad": 1})):
    try:
        attempt()
    except Exception as e:
        print(type(e).__name__, str(e).splitlines()[0][:60], "|", str(e).splitlines()[-1])
again = tf.keras.models.model_from_json(model.to_json(), custom_objects={"doubled": doubled})
print(again.layers[1].activation.__name__)

# Keras's own classes found again by their module
for obj in (tf.keras.layers.Dense(2, name="dd"), tf.keras.optimizers.Adam(0.01),
            tf.keras.initializers.GlorotUniform(seed=1)):
    config = tf.keras.utils.serialize_keras_object(obj)
    print(config["module"], type(tf.keras.utils.deserialize_keras_object(config)).__name__)

# clone_function is called for each layer of a functional model but its inputs
inp = tf.keras.Input((3,), name="x")
shared = tf.keras.layers.Dense(2, name="shared", kernel_initializer=C(0.3))
model = tf.keras.Model(inp, tf.keras.layers.Add(name="add")([shared(inp), shared(inp)]))
seen = []


def clone_function(layer):
    seen.append(type(layer).__name__)
    config = layer.get_config()
    config["name"] += "_c"
    return type(layer).from_config(config)


clone = tf.keras.models.clone_model(model, clone_function=clone_function)
print(seen, [layer.name for layer in clone.layers])


# a layer calling add_metric, saved as a SavedModel
class MeanTracking(tf.keras.layers.Layer):
    def call(self, x):
        self.add_metric(tf.reduce_mean(x), name="mean_in")
        return x * 2.0


inp = tf.keras.Input((3,))
model = tf.keras.Model(inp, MeanTracking(name="mt")(inp))
model.compile("sgd", "mse")
model.fit(np.ones((4, 3), "float32"), np.ones((4, 3), "float32"), verbose=0)
path = os.path.join(tmp, "sm")
tf.saved_model.save(model, path)
print(tf.saved_model.load(path)(tf.ones((1, 3))).numpy())
print([name for name, _ in tf.train.list_variables(os.path.join(path, "variables", "variables"))
       if "total" in name or "count" in name])
