import copy
import json

import numpy as np
import tensorflow as tf


class Holder(tf.keras.layers.Layer):
    def build(self, input_shape):
        self.v1 = tf.Variable(1.0, name="v1")
        self.vs = [tf.Variable(2.0, name="v2")]
        self.w = self.add_weight("w", ())
        self.sub = [tf.keras.layers.Dense(1, name="da")]
        self.d = {"b": tf.keras.layers.Dense(1, name="db"),
                  "a": tf.keras.layers.Dense(1, name="dc")}
        self.vs.append(tf.Variable(3.0, name="v3"))
        self.vs.append(tf.Variable(4.0, name="v4", trainable=False))
        self.sub.append(tf.keras.layers.Dense(1, name="dd"))
        self.d["c"] = tf.Variable(5.0, name="v5")

    def call(self, x):
        for layer in self.sub:
            x = layer(x)
        return self.d["a"](self.d["b"](x))


print("--- containers held by a layer")
layer = tf.keras.layers.Layer()
layer.a = [1]
layer.d = {"x": 1, "y": [2, 3], "z": {"k": 1}}
layer.n = [[1, 2], [3]]
layer.t = (1, [2])
layer.plain = (1, 2)
print(layer.a, repr(layer.a), isinstance(layer.a, list), layer.a == [1], [1] == layer.a)
print(layer.d, repr(layer.d), isinstance(layer.d, dict))
print(layer.n, layer.t, repr(layer.t), isinstance(layer.t, tuple), layer.plain)
print(type(layer.a).__name__, type(layer.n[0]).__name__, type(layer.d["y"]).__name__)
print(json.dumps(layer.a), json.dumps({"n": layer.n}))
print(layer.a + [2], layer.a[:], layer.a * 2, list(layer.a))
print(copy.copy(layer.a), copy.deepcopy(layer.n), layer.a.copy())
layer.a.append([4])
layer.a += [[5]]
layer.d["w"] = [6]
print(layer.a, layer.d["w"])
try:
    hash(layer.a)
except TypeError as e:
    print("TypeError:", e)

print("--- tf.nest")
print(tf.nest.flatten(layer.n), tf.nest.flatten(layer.d))
print(tf.nest.map_structure(lambda v: v * 2, layer.n))
print(tf.nest.map_structure(lambda u, v: u + v, [1, [2]], [3, layer.a[1]]))
tf.nest.assert_same_structure(layer.n, [[0, 0], [0]])
print("same structure")

print("--- tf.Module")
module = tf.Module()
module.a = [1]
module.d = {"k": [1]}
module.vs = []
module.vs.append(tf.Variable(1.0, name="a"))
module.subs = {}
module.subs["k"] = tf.Module(name="inner")
module.subs["k"].v = tf.Variable(2.0, name="b")
print(module.a, module.d, repr(module.d))
print([v.name for v in module.variables], [m.name for m in module.submodules])

print("--- tracking through mutated containers")
holder = Holder(name="l")
holder(tf.ones((1, 1)))
print([w.name for w in holder.trainable_weights])
print([w.name for w in holder.non_trainable_weights])
print([m.name for m in holder.submodules])
owner = tf.keras.layers.Layer()
owner.a = tf.keras.layers.Dense(1, name="first")
owner.b = tf.keras.layers.Dense(1, name="second")
owner.a = tf.keras.layers.Dense(1, name="third")
owner.c = []
owner.c.append(tf.keras.layers.Dense(1, name="appended"))
print([m.name for m in owner.submodules])
owner.c.pop()
print([m.name for m in owner.submodules])

print("--- layers and metrics")
x = np.zeros((2, 3, 4), "float32")
bn = tf.keras.layers.BatchNormalization(axis=-1)
print(bn.axis, bn.get_config()["axis"])
bn(x)
print(bn.axis, bn.get_config()["axis"])
ln = tf.keras.layers.LayerNormalization(axis=[1, 2])
ln(x)
print(ln.axis, ln.get_config()["axis"])
print(tf.keras.layers.Dropout(0.5, noise_shape=[None, 1]).get_config()["noise_shape"])
print(tf.keras.metrics.Precision(thresholds=[0.3]).thresholds)
print(tf.keras.metrics.Precision(thresholds=0.3).get_config())
print(tf.keras.metrics.TruePositives(thresholds=[0.3, 0.6]).get_config())
print(tf.keras.metrics.Recall().thresholds)
print(tf.keras.metrics.AUC(num_thresholds=3).thresholds)
print(tf.keras.layers.serialize(bn)["config"]["axis"])

print("--- models keep plain lists")
inp = tf.keras.Input((3,), name="inp")
model = tf.keras.Model(inp, tf.keras.layers.Dense(2, name="out")(inp))
print(type(model.inputs).__name__, type(model.outputs).__name__, model.input_names,
      model.output_names, type(model.layers).__name__)

print("--- serialization")
mha = tf.keras.layers.MultiHeadAttention(num_heads=2, key_dim=3)
mha(tf.ones((1, 4, 5)), tf.ones((1, 6, 5)))
config = mha.get_config()
print(config["query_shape"], config["key_shape"], config["value_shape"])
try:
    json.dumps(config)
except TypeError as e:
    print("TypeError:", e)
seq_in = tf.keras.Input((4, 5))
att = tf.keras.Model(seq_in, tf.keras.layers.MultiHeadAttention(2, 3, name="m")(seq_in, seq_in))
model_config = att.get_config()
print(model_config["layers"][1]["config"]["query_shape"])
print(json.dumps(model_config)[:120])
print(tf.keras.optimizers.serialize(tf.keras.optimizers.SGD())["config"]["learning_rate"])
print(tf.keras.optimizers.serialize(tf.keras.optimizers.Adam(1e-3)))
print(tf.keras.optimizers.SGD().get_config()["learning_rate"])
print(tf.keras.utils.serialize_keras_object(
    tf.keras.layers.Dropout(np.float32(0.5), noise_shape=tf.TensorShape([None, 1])))["config"])
