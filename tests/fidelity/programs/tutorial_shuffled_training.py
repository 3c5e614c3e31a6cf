# Tutorials' seeded input pipelines: a dataset that reshuffles each iteration, adapted by
# preprocessing layers and fit several times (structured data, overfit and underfit).
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(7)
rng = np.random.RandomState(7)
n = 40
data = {"Type": rng.choice(["Cat", "Dog"], n), "Fee": rng.randint(0, 200, n).astype("int64"),
        "PhotoAmt": rng.randint(0, 10, n).astype("float64")}
target = rng.randint(0, 2, n).astype("int64")


def df_to_dataset(batch_size=8):
    features = {key: value[:, tf.newaxis] for key, value in data.items()}
    return tf.data.Dataset.from_tensor_slices((features, target)).shuffle(n).batch(batch_size)


train_ds = df_to_dataset(5)
[(features, labels)] = train_ds.take(1)
print(features["Fee"].numpy().ravel(), labels.numpy())
inputs, encoded = [], []
for header in ["PhotoAmt", "Fee"]:
    col = tf.keras.Input(shape=(1,), name=header)
    norm = tf.keras.layers.Normalization(axis=None)
    norm.adapt(train_ds.map(lambda x, y: x[header]))
    print(header, np.round(norm.mean.numpy(), 4), np.round(norm.variance.numpy(), 4))
    inputs.append(col)
    encoded.append(norm(col))
col = tf.keras.Input(shape=(1,), name="Type", dtype="string")
lookup = tf.keras.layers.StringLookup(output_mode="one_hot")
lookup.adapt(train_ds.map(lambda x, y: x["Type"]))
inputs.append(col)
encoded.append(lookup(col))
for f, y in train_ds.take(2):
    print(f["Fee"].numpy().ravel(), y.numpy())
x = tf.keras.layers.Dense(8, activation="relu")(tf.keras.layers.concatenate(encoded))
model = tf.keras.Model(inputs, tf.keras.layers.Dense(1)(tf.keras.layers.Dropout(0.5)(x)))
model.compile(optimizer="adam", loss=tf.keras.losses.BinaryCrossentropy(from_logits=True),
              metrics=["accuracy"])
history = model.fit(train_ds, epochs=2, verbose=0)
print({k: np.round(v, 4).tolist() for k, v in history.history.items()})

# overfit and underfit: shuffle(...).repeat() with steps covering whole passes, fit twice
packed = tf.data.Dataset.from_tensor_slices((rng.randn(30, 4).astype("float32"),
                                             rng.randint(0, 2, 30).astype("float32")))
repeated = packed.shuffle(30).repeat().batch(10)
for size in (4, 8):
    model = tf.keras.Sequential([tf.keras.layers.Dense(size, activation="elu", input_shape=(4,)),
                                 tf.keras.layers.Dense(1)])
    model.compile(optimizer="adam", loss=tf.keras.losses.BinaryCrossentropy(from_logits=True))
    history = model.fit(repeated, steps_per_epoch=3, epochs=2, verbose=0)
    print(size, np.round(history.history["loss"], 4).tolist())
ds = tf.data.Dataset.range(6).shuffle(6, seed=1).repeat(3)
for _ in range(3):
    it = iter(ds)
    print([int(next(it)) for _ in range(6)])

