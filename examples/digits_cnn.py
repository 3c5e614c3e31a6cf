"""Train a small convolutional network on scikit-learn's handwritten digits with Keras.

The 1,797 8x8 grey-scale digits ship with scikit-learn. `fit` takes them
through `tf.data` pipelines (slices, shuffled each epoch, batched, prefetched
on a thread while the model trains). The program is a plain TF2 Keras
program: replace ``import eagerflow as tf`` with ``import tensorflow as tf``
and it runs the same.

    python examples/digits_cnn.py
"""
import time

import numpy as np
from sklearn.datasets import load_digits
from sklearn.model_selection import train_test_split

import eagerflow as tf

keras = tf.keras


def load_data():
    digits = load_digits()
    images = (digits.images / 16.0).astype("float32")[..., np.newaxis]  # (n, 8, 8, 1)
    return train_test_split(images, digits.target.astype("int32"), test_size=0.25,
                            random_state=0, stratify=digits.target)


def make_datasets(x_train, y_train, batch_size=32, validation_fraction=0.1):
    """Training and validation datasets: the last `validation_fraction` of the training
    digits validate (as ``validation_split`` would take them)."""
    split = int(len(x_train) * (1 - validation_fraction))
    train = (tf.data.Dataset.from_tensor_slices((x_train[:split], y_train[:split]))
             .shuffle(split)
             .batch(batch_size)
             .prefetch(tf.data.AUTOTUNE))
    validation = (tf.data.Dataset.from_tensor_slices((x_train[split:], y_train[split:]))
                  .batch(batch_size)
                  .prefetch(tf.data.AUTOTUNE))
    return train, validation


def build_model():
    return keras.Sequential([
        keras.layers.Conv2D(32, 3, padding="same", activation="relu", input_shape=(8, 8, 1)),
        keras.layers.MaxPooling2D(),
        keras.layers.Conv2D(64, 3, padding="same", activation="relu"),
        keras.layers.GlobalAveragePooling2D(),
        keras.layers.Dropout(0.2),
        keras.layers.Dense(10, activation="softmax"),
    ], name="digits_cnn")


def main():
    keras.utils.set_random_seed(0)
    x_train, x_test, y_train, y_test = load_data()
    model = build_model()
    model.summary()
    model.compile(optimizer=keras.optimizers.Adam(learning_rate=3e-3),
                  loss="sparse_categorical_crossentropy", metrics=["accuracy"])
    start = time.perf_counter()
    train, validation = make_datasets(x_train, y_train)
    model.fit(train, epochs=15, validation_data=validation,
              callbacks=[keras.callbacks.EarlyStopping(monitor="val_loss", patience=3,
                                                       restore_best_weights=True)])
    seconds = time.perf_counter() - start
    loss, accuracy = model.evaluate(x_test, y_test, verbose=0)
    print(f"test loss {loss:.4f}, test accuracy {accuracy:.4f} "
          f"({len(x_test)} held-out digits; trained in {seconds:.1f} s)")


if __name__ == "__main__":
    main()
