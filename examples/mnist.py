"""Handwritten digits with a subclassed Keras model and a custom training loop.

The eager guide's MNIST program: a `tf.keras.Model` subclass (two convolution
and pooling stages, a hidden dense layer with dropout, ten logits) trained by
a loop written out by hand over `tf.data` batches: a `GradientTape` records
the forward pass, the optimizer applies the gradients, and `keras.metrics`
keep the running loss and accuracy. After each epoch it prints the training
time and the test set's loss and accuracy, as the guide's version does.

The data is MNIST (60,000 28x28 digits) when ``keras.datasets.mnist`` has it
in its cache (``~/.keras/datasets/mnist.npz``), else scikit-learn's 1,797 8x8
digits, which ship with it: the program never downloads.

    python examples/mnist.py                  # 10 epochs of digits, or 200 steps of MNIST
    python examples/mnist.py --epochs 3 --steps 500
"""
import argparse
import os
import time

import numpy as np

import eagerflow as tf


class MNISTModel(tf.keras.Model):
    """Conv-pool, conv-pool, a hidden dense layer with dropout, and ten logits."""

    def __init__(self, filters=(32, 64), hidden=256):
        super().__init__(name="mnist_model")
        self.conv1 = tf.keras.layers.Conv2D(filters[0], 5, padding="same", activation="relu")
        self.conv2 = tf.keras.layers.Conv2D(filters[1], 5, padding="same", activation="relu")
        self.pool = tf.keras.layers.MaxPooling2D(2, padding="same")
        self.flatten = tf.keras.layers.Flatten()
        self.fc1 = tf.keras.layers.Dense(hidden, activation="relu")
        self.dropout = tf.keras.layers.Dropout(0.4)
        self.fc2 = tf.keras.layers.Dense(10)

    def call(self, inputs, training=False):
        x = self.pool(self.conv1(inputs))
        x = self.pool(self.conv2(x))  # the same pooling layer twice: it has no weights
        x = self.dropout(self.fc1(self.flatten(x)), training=training)
        return self.fc2(x)


def mnist_is_cached():
    home = os.environ.get("KERAS_HOME", os.path.join(os.path.expanduser("~"), ".keras"))
    return os.path.exists(os.path.join(home, "datasets", "mnist.npz"))


def load_data(source="auto"):
    """``(x_train, y_train), (x_test, y_test), name``: float images in [0, 1] with a channel
    axis, int64 labels."""
    if source == "mnist" or (source == "auto" and mnist_is_cached()):
        (x_train, y_train), (x_test, y_test) = tf.keras.datasets.mnist.load_data()
        scale, name = 255.0, "MNIST"
    else:
        from sklearn.datasets import load_digits
        from sklearn.model_selection import train_test_split
        digits = load_digits()
        x_train, x_test, y_train, y_test = train_test_split(
            digits.images, digits.target, test_size=0.25, random_state=0,
            stratify=digits.target)
        scale, name = 16.0, "scikit-learn digits"

    def prepare(x, y):
        return (x / scale).astype("float32")[..., np.newaxis], y.astype("int64")

    return prepare(x_train, y_train), prepare(x_test, y_test), name


def train_one_epoch(model, optimizer, dataset, step_counter, log_interval=None):
    """One pass of the custom loop over `dataset`; prints the loss every `log_interval`
    steps and returns the epoch's mean loss and accuracy."""
    loss_metric = tf.keras.metrics.Mean()
    accuracy = tf.keras.metrics.SparseCategoricalAccuracy()

    @tf.function
    def step(images, labels):
        with tf.GradientTape() as tape:
            logits = model(images, training=True)
            loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(
                labels=labels, logits=logits))
        grads = tape.gradient(loss, model.trainable_variables)
        optimizer.apply_gradients(zip(grads, model.trainable_variables))
        step_counter.assign_add(1)
        loss_metric.update_state(loss)
        accuracy.update_state(labels, logits)
        return loss

    for batch, (images, labels) in enumerate(dataset):
        loss = step(images, labels)
        if log_interval and batch % log_interval == 0:
            print(f"Step #{int(step_counter)}\tLoss: {float(loss):.6f}")
    return float(loss_metric.result()), float(accuracy.result())


def evaluate(model, dataset):
    loss_metric = tf.keras.metrics.Mean()
    accuracy = tf.keras.metrics.SparseCategoricalAccuracy()
    for images, labels in dataset:
        logits = model(images, training=False)
        loss_metric.update_state(tf.nn.sparse_softmax_cross_entropy_with_logits(
            labels=labels, logits=logits))
        accuracy.update_state(labels, logits)
    loss, acc = float(loss_metric.result()), float(accuracy.result())
    print(f"Test set: Average loss: {loss:.4f}, Accuracy: {100 * acc:.2f}%")
    return loss, acc


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--data", choices=["auto", "mnist", "digits"], default="auto",
                        help="auto: MNIST when cached, else scikit-learn's digits")
    parser.add_argument("--epochs", type=int, default=None,
                        help="default: 10 on the digits, 1 on MNIST")
    parser.add_argument("--steps", type=int, default=None,
                        help="at most this many training steps per epoch (default: all on "
                             "the digits, 200 on MNIST)")
    parser.add_argument("--batch-size", type=int, default=64)
    parser.add_argument("--learning-rate", type=float, default=1e-3)
    parser.add_argument("--log-interval", type=int, default=20)
    args = parser.parse_args(argv)

    tf.keras.utils.set_random_seed(0)
    (x_train, y_train), (x_test, y_test), name = load_data(args.data)
    small = x_train.shape[1] < 16  # 8x8 digits: fewer filters are enough, and time for epochs
    epochs = args.epochs or (10 if small else 1)
    steps = args.steps or (None if small else 200)
    print(f"{name}: {len(x_train)} training and {len(x_test)} test images of "
          f"{x_train.shape[1]}x{x_train.shape[2]}")
    train_ds = (tf.data.Dataset.from_tensor_slices((x_train, y_train))
                .shuffle(len(x_train), seed=0)
                .batch(args.batch_size))
    if steps:
        train_ds = train_ds.take(steps)
    train_ds = train_ds.prefetch(tf.data.AUTOTUNE)
    test_ds = tf.data.Dataset.from_tensor_slices((x_test, y_test)).batch(256)

    model = MNISTModel(filters=(16, 32) if small else (32, 64), hidden=128 if small else 256)
    optimizer = tf.keras.optimizers.Adam(args.learning_rate)
    step_counter = tf.Variable(0, dtype=tf.int64, trainable=False)

    history = []
    for epoch in range(1, epochs + 1):
        start = time.perf_counter()
        train_loss, train_acc = train_one_epoch(model, optimizer, train_ds, step_counter,
                                                args.log_interval)
        print(f"Train time for epoch #{epoch} (step {int(step_counter)}): "
              f"{time.perf_counter() - start:.2f}s  "
              f"(train loss {train_loss:.4f}, accuracy {100 * train_acc:.2f}%)")
        test_loss, test_acc = evaluate(model, test_ds)
        history.append({"train_loss": train_loss, "train_accuracy": train_acc,
                        "test_loss": test_loss, "test_accuracy": test_acc})
    return history


if __name__ == "__main__":
    main()
