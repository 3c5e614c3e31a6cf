"""Linear regression on the diabetes data set (442 patients, 10 features).

The data ships with scikit-learn. Training is full-batch gradient descent on
`Variable`s: a `GradientTape` records the forward pass and gives the
gradient of the mean squared error with respect to the weights and bias.
The whole step (forward, gradient, update) is traced once by `function`
into one optimized graph; evaluation runs eagerly.

    python examples/linear_regression.py
"""
import numpy as np
from sklearn.datasets import load_diabetes

import eagerflow as tf

STEPS, LEARNING_RATE = 200, 0.1


def standardize(train, test):
    mean, std = train.mean(axis=0), train.std(axis=0)
    return (train - mean) / std, (test - mean) / std


def main():
    features, target = load_diabetes(return_X_y=True)
    order = np.random.default_rng(0).permutation(len(features))
    train, test = order[:354], order[354:]
    x_train, x_test = standardize(features[train], features[test])
    y_train, y_test = standardize(target[train, None], target[test, None])
    x, y = tf.constant(x_train, tf.float32), tf.constant(y_train, tf.float32)
    x_eval, y_eval = tf.constant(x_test, tf.float32), tf.constant(y_test, tf.float32)

    w = tf.Variable(tf.zeros([x.shape[1], 1]), name="weights")
    b = tf.Variable(0.0, name="bias")
    print(f"training {w.name} {w.shape} and {b.name} on {x.shape[0]} patients, "
          f"testing on {x_eval.shape[0]}")

    def mse(inputs, labels):
        return tf.reduce_mean(tf.square(tf.matmul(inputs, w) + b - labels))

    @tf.function
    def train_step(inputs, labels):
        with tf.GradientTape() as tape:
            loss = mse(inputs, labels)
        grad_w, grad_b = tape.gradient(loss, [w, b])
        w.assign_sub(LEARNING_RATE * grad_w)
        b.assign_sub(LEARNING_RATE * grad_b)
        return loss

    for step in range(STEPS + 1):
        loss = train_step(x, y)
        if step % 25 == 0:
            print(f"step {step:3d}  train mse {float(loss):.4f}")
    graph = train_step.get_concrete_function(x, y).graph
    print(f"train_step traced {train_step.experimental_get_tracing_count()} time(s) into a "
          f"graph of {len(graph.get_operations())} ops")

    test_mse = float(mse(x_eval, y_eval))
    r2 = 1.0 - test_mse / float(tf.math.reduce_variance(y_eval))
    print(f"test mse {test_mse:.4f}  test R^2 {r2:.3f}")
    print("weights per feature:", tf.reshape(w, [-1]).numpy().round(2))


if __name__ == "__main__":
    main()
