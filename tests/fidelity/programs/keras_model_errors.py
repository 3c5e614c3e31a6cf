import numpy as np
import tensorflow as tf


def attempt(fn):
    try:
        fn()
        print("no error")
    except Exception as e:  # the end of the last line: a traced step's error comes wrapped
        print(type(e).__name__ + ":", str(e).strip().splitlines()[-1].split("Error: ")[-1])


x, y = np.zeros((8, 3), "float32"), np.zeros((8, 1), "float32")
model = tf.keras.Sequential([tf.keras.layers.Dense(4, input_shape=(3,)), tf.keras.layers.Dense(1)])
attempt(lambda: model.fit(x, y, verbose=0))
attempt(lambda: model.evaluate(x, y, verbose=0))
model.compile("adam", "mse")
attempt(lambda: model.fit(x, np.zeros((7, 1)), verbose=0))
attempt(lambda: model.fit(x, verbose=0))
attempt(lambda: model(np.zeros((4, 5), "float32")))
attempt(lambda: model(np.zeros((4, 2, 3), "float32")))
print(model(np.zeros((4, 3, 1), "float32")).shape)
attempt(lambda: model.predict(np.zeros((4, 5)), verbose=0))

unbuilt = tf.keras.Sequential([tf.keras.layers.Dense(4)])
attempt(lambda: unbuilt.summary())
attempt(lambda: unbuilt.count_params())
attempt(lambda: unbuilt.weights)
attempt(lambda: model.get_layer("missing"))
attempt(lambda: model.get_layer(index=7))

nothing = tf.keras.Sequential([tf.keras.layers.Dense(1, input_shape=(3,))])
nothing.compile("sgd")
attempt(lambda: nothing.fit(x, y, verbose=0))

lazy = tf.keras.Sequential([tf.keras.layers.Dense(4), tf.keras.layers.Dense(2)])
lazy(np.zeros((2, 3), "float32"))
attempt(lambda: lazy(np.zeros((2, 5), "float32")))

a = tf.keras.Input((3,), name="a")
b = tf.keras.Input((2,), name="b")
pair = tf.keras.Model([a, b], tf.keras.layers.Concatenate()([a, b]))
attempt(lambda: pair([np.zeros((4, 3)), np.zeros((4, 3))]))
attempt(lambda: pair({"b": np.zeros((4, 2)), "c": np.zeros((4, 3))}))
print(pair({"b": np.zeros((4, 2)), "a": np.zeros((4, 3))}).shape)
pair.compile("sgd", "mse")
attempt(lambda: pair.compile("sgd", {"concatenate": "mse", "other": "mae"})
        or pair.fit([np.zeros((4, 3)), np.zeros((4, 2))], np.zeros((4, 5)), verbose=0))


class Broken(tf.keras.layers.Layer):
    def call(self, inputs, training=None):
        raise ValueError("this layer always fails")


try:
    Broken(name="broken")(np.ones((2, 2), "float32"))
except ValueError as e:
    print(e)
