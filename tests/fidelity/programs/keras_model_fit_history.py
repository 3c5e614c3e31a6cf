import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)
rng = np.random.RandomState(0)
x = rng.rand(60, 4).astype("float32")
y = (x.sum(axis=1) > 2).astype("float32")  # labels of shape (60,), predictions (60, 1)


def rounded(history):
    return {k: [round(float(v), 3) for v in vals] for k, vals in history.items()}


model = tf.keras.Sequential([
    tf.keras.layers.Dense(8, activation="relu", input_shape=(4,)),
    tf.keras.layers.Dense(1, activation="sigmoid"),
])
model.compile(optimizer=tf.keras.optimizers.Adam(0.02), loss="binary_crossentropy",
              metrics=["accuracy", tf.keras.metrics.AUC(name="auc")])
print(model.metrics_names)
history = model.fit(x, y, epochs=3, batch_size=16, validation_split=0.2, verbose=0)
print(list(history.history), history.epoch, history.params)
print(rounded(history.history))
print(model.metrics_names)
print([round(v, 3) for v in model.evaluate(x, y, batch_size=7, verbose=0)])
print({k: round(v, 3) for k, v in model.evaluate(x, y, verbose=0, return_dict=True).items()})
print([round(v, 3) for v in model.train_on_batch(x[:10], y[:10])])
print(sorted(model.test_on_batch(x[:10], y[:10], return_dict=True)))
print(model.predict(x[:5], verbose=0).round(3).tolist())
print(model.predict_on_batch(x[:3]).shape)
history = model.fit(x, y, epochs=4, initial_epoch=2, batch_size=32,
                    validation_data=(x[:12], y[:12]), validation_freq=2, verbose=0)
print(history.epoch, rounded(history.history))

# Several outputs: per-output losses, loss weights and metrics.
inp = tf.keras.Input((4,), name="features")
hidden = tf.keras.layers.Dense(6, activation="relu")(inp)
score = tf.keras.layers.Dense(1, name="score")(hidden)
kind = tf.keras.layers.Dense(3, activation="softmax", name="kind")(hidden)
multi = tf.keras.Model(inp, [score, kind])
y_score = x[:, :1] * 2.0
y_kind = rng.randint(0, 3, size=(60,))
multi.compile("adam", loss=["mse", "sparse_categorical_crossentropy"],
              loss_weights=[1.0, 0.5], metrics={"kind": "accuracy", "score": ["mae"]},
              weighted_metrics={"score": "mae"})
history = multi.fit(x, [y_score, y_kind], sample_weight=np.linspace(0.5, 1.5, 60),
                    epochs=2, batch_size=20, verbose=0)
print(list(history.history))
print(multi.metrics_names)
print({k: round(v, 3) for k, v in multi.evaluate(x, {"score": y_score, "kind": y_kind},
                                                  verbose=0, return_dict=True).items()})

# Dict outputs: losses and targets by key.
named = tf.keras.Model(inp, {"value": score, "label": kind})
named.compile("adam", loss={"value": "mse", "label": "sparse_categorical_crossentropy"},
              metrics={"label": ["accuracy"]})
history = named.fit(x, {"value": y_score, "label": y_kind}, epochs=1, verbose=0)
print(named.output_names, list(history.history))
print(sorted(named.predict(x[:2], verbose=0)))

# Subclassed model with two outputs: pseudo output names.
class TwoHeads(tf.keras.Model):
    def __init__(self):
        super().__init__()
        self.a = tf.keras.layers.Dense(1)
        self.b = tf.keras.layers.Dense(2)

    def call(self, inputs):
        return self.a(inputs), self.b(inputs)

heads = TwoHeads()
heads.compile("sgd", ["mse", "mae"], metrics=["mae"], weighted_metrics=["mae"])
history = heads.fit(x, (y_score, np.hstack([y_score, y_score])), epochs=1, verbose=0)
print(list(history.history))
