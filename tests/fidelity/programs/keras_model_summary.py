import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

# A Sequential model with its input shape given on the first layer.
clf = tf.keras.Sequential([
    tf.keras.layers.Dense(64, activation="relu", input_shape=(20,)),
    tf.keras.layers.Dropout(0.3),
    tf.keras.layers.BatchNormalization(),
    tf.keras.layers.Dense(10, activation="softmax"),
], name="classifier")
clf.summary()
print(clf.count_params(), len(clf.trainable_weights), len(clf.non_trainable_weights))
print([w.name for w in clf.weights])
print([w.shape for w in clf.get_weights()])
clf.layers[2].trainable = False
clf.summary(show_trainable=True, line_length=80)

# Built by a call: the batch size of the first call is kept, a second one relaxes it.
seq = tf.keras.Sequential([tf.keras.layers.Dense(3), tf.keras.layers.Dense(2)])
seq(tf.zeros((4, 5)))
print(seq.input_shape, seq.output_shape, [l.name for l in seq.layers])
seq.summary()
seq(tf.zeros((6, 5)))
print(seq.input_shape, seq.output_shape)
print(seq.get_config()["layers"][0]["config"])

# A functional model with two inputs and two outputs.
title = tf.keras.Input(shape=(8,), name="title")
body = tf.keras.Input(shape=(16,), name="body")
merged = tf.keras.layers.concatenate([title, body])
hidden = tf.keras.layers.Dense(12, activation="relu")(merged)
priority = tf.keras.layers.Dense(1, name="priority")(hidden)
department = tf.keras.layers.Dense(4, activation="softmax", name="department")(hidden)
model = tf.keras.Model([title, body], [priority, department], name="ticket_model")
model.summary()
print(model.input_names, model.output_names)
print(model.input_shape, model.output_shape)
print(model.input_spec)

# A nested model, expanded.
encoder = tf.keras.Sequential(
    [tf.keras.layers.Dense(6, activation="relu"), tf.keras.layers.Dense(2)], name="encoder")
inp = tf.keras.Input((10,))
auto = tf.keras.Model(inp, tf.keras.layers.Dense(10)(encoder(inp)), name="autoencoder")
auto.summary(expand_nested=True)
auto.summary(layer_range=["encoder", "dense"])
print([w.name for w in auto.weights])

# A subclassed model, after build.
class Residual(tf.keras.Model):
    def __init__(self):
        super().__init__()
        self.inner = tf.keras.layers.Dense(5, activation="relu")
        self.norm = tf.keras.layers.LayerNormalization()
        self.head = tf.keras.layers.Dense(1)

    def call(self, x):
        return self.head(self.norm(self.inner(x) + x))

net = Residual()
net.build((None, 5))
net.summary()
print([w.name for w in net.weights])
net2 = Residual()
print(net2(np.ones((2, 5), "float32")).shape, net2.name)
print([w.name for w in net2.weights][:2])
