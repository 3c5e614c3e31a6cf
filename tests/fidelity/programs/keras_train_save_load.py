"""Weights and whole-model round trips: get/set_weights, checkpoints, `.keras` archives."""
import os
import shutil
import tempfile

import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(5)
rng = np.random.RandomState(5)
x = rng.rand(30, 4).astype("float32")
y = (x.sum(axis=1) > 2).astype("int32")
tmp = tempfile.mkdtemp()


def create_model():
    model = tf.keras.Sequential([
        tf.keras.layers.Dense(8, activation="relu", input_shape=(4,)),
        tf.keras.layers.Dropout(0.2),
        tf.keras.layers.Dense(2),
    ])
    model.compile(optimizer="adam",
                  loss=tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True),
                  metrics=[tf.keras.metrics.SparseCategoricalAccuracy()])
    return model


def same(a, b):
    return all(np.array_equal(u, v) for u, v in zip(a.get_weights(), b.get_weights()))


model = create_model()
model.fit(x, y, epochs=2, batch_size=10, verbose=0)
weights = model.get_weights()
print([w.shape for w in weights], [w.dtype.name for w in weights])

# get_weights / set_weights
fresh = create_model()
print(same(model, fresh))
fresh.set_weights(weights)
print(same(model, fresh))
try:
    fresh.set_weights(weights[:2])
except Exception as e:
    print(type(e).__name__, e)
try:
    fresh.layers[0].set_weights([np.zeros((3, 8))])
except Exception as e:
    print(type(e).__name__, e)

# TF checkpoint format: a path prefix.
checkpoint_path = os.path.join(tmp, "training_1", "cp.ckpt")
print(model.save_weights(checkpoint_path))
print(os.path.isdir(os.path.dirname(checkpoint_path)))
restored = create_model()
status = restored.load_weights(checkpoint_path)
print(type(status).__name__, same(model, restored))
print([round(v, 4) for v in restored.evaluate(x, y, verbose=0)] ==
      [round(v, 4) for v in model.evaluate(x, y, verbose=0)])
try:
    restored.load_weights(os.path.join(tmp, "missing", "cp.ckpt"))
except Exception as e:
    print(type(e).__name__)

# ModelCheckpoint saving weights each epoch with a formatted path.
checkpoint_path = os.path.join(tmp, "training_2", "cp-{epoch:04d}.ckpt")
cp_callback = tf.keras.callbacks.ModelCheckpoint(filepath=checkpoint_path,
                                                 save_weights_only=True, verbose=0)
model2 = create_model()
model2.save_weights(checkpoint_path.format(epoch=0))
model2.fit(x, y, epochs=3, batch_size=10, callbacks=[cp_callback], verbose=0)
latest = checkpoint_path.format(epoch=3)
restored2 = create_model()
restored2.load_weights(latest)
print(same(model2, restored2))

# Whole model in the Keras v3 format.
model_path = os.path.join(tmp, "my_model.keras")
print(model.save(model_path))
print(os.path.exists(model_path))
new_model = tf.keras.models.load_model(model_path)
print(type(new_model).__name__, new_model.name == model.name, same(model, new_model))
print([layer.__class__.__name__ for layer in new_model.layers])
print(type(new_model.optimizer).__name__, new_model.loss.__class__.__name__)
print(new_model.predict(x[:3], verbose=0).round(4).tolist() ==
      model.predict(x[:3], verbose=0).round(4).tolist())
new_model.summary()
print(np.allclose(new_model.evaluate(x, y, verbose=0), model.evaluate(x, y, verbose=0)))
uncompiled = tf.keras.models.load_model(model_path, compile=False)
print(uncompiled.optimizer is None or uncompiled._is_compiled)
print(uncompiled.predict(x[:1], verbose=0).shape)

# A functional model round trip, and weights of a subclassed model.
inputs = tf.keras.Input(shape=(4,), name="digits")
h = tf.keras.layers.Dense(5, activation="relu", name="dense_a")(inputs)
outputs = tf.keras.layers.Dense(1, name="predictions")(h)
functional = tf.keras.Model(inputs, outputs, name="functional_net")
functional.compile(optimizer=tf.keras.optimizers.RMSprop(0.01), loss="mse")
functional.fit(x, y.astype("float32"), epochs=1, verbose=0)
path = os.path.join(tmp, "functional.keras")
functional.save(path)
loaded = tf.keras.models.load_model(path)
print(loaded.name, [layer.name for layer in loaded.layers], same(functional, loaded))
print(loaded.get_config()["input_layers"], loaded.get_config()["output_layers"])
print(type(loaded.optimizer).__name__, round(float(loaded.optimizer.learning_rate), 4))


class Sub(tf.keras.Model):
    def __init__(self):
        super().__init__()
        self.hidden = tf.keras.layers.Dense(3)
        self.out = tf.keras.layers.Dense(1)

    def call(self, inputs):
        return self.out(self.hidden(inputs))


a, b = Sub(), Sub()
a(x[:1])
b(x[:1])
print(same(a, b))
prefix = os.path.join(tmp, "sub", "weights")
a.save_weights(prefix)
b.load_weights(prefix)
print(same(a, b))
c = Sub()
c.load_weights(prefix)  # restored when the variables get created
c(x[:1])
print(same(a, c))
shutil.rmtree(tmp)
