import tensorflow as tf
import numpy as np

# Closed-form least squares and a hand-written gradient descent, as a user might do.
X = tf.constant([[1.0, 1.0], [1.0, 2.0], [1.0, 3.0], [1.0, 4.0]])
y = tf.constant([[6.0], [5.0], [7.0], [10.0]])
XtX = tf.matmul(X, X, transpose_a=True)
Xty = tf.matmul(X, y, transpose_a=True)
theta = tf.linalg.solve(XtX, Xty)
print(theta.shape, np.round(theta.numpy().ravel(), 3))
w = tf.Variable(tf.zeros([2, 1]))
lr = 0.05
for step in range(200):
    pred = tf.matmul(X, w)
    err = pred - y
    grad = 2.0 * tf.matmul(X, err, transpose_a=True) / tf.cast(tf.shape(X)[0], tf.float32)
    w.assign_sub(lr * grad)
    if step % 50 == 0:
        print(step, round(float(tf.reduce_mean(tf.square(err))), 2))
print(np.round(w.numpy().ravel(), 2))
print(w.shape, w.dtype)
mse = tf.reduce_mean(tf.square(tf.matmul(X, w) - y))
print(mse.shape, mse.dtype, bool(mse < 2.0))
# normalisation of features
feats = tf.constant([[1.0, 200.0], [2.0, 400.0], [3.0, 600.0]])
mean = tf.reduce_mean(feats, axis=0)
std = tf.math.reduce_std(feats, axis=0)
print(mean, np.round(std.numpy(), 4))
normed = (feats - mean) / std
print(np.round(normed.numpy(), 4))
# one-hot classification accuracy
logits = tf.constant([[2.0, 0.5, 0.1], [0.1, 0.2, 3.0], [1.0, 2.0, 0.5]])
labels = tf.constant([0, 2, 0])
preds = tf.argmax(logits, axis=1, output_type=tf.int32)
print(preds, tf.reduce_mean(tf.cast(preds == labels, tf.float32)))
print(tf.one_hot(labels, 3) * tf.nn.log_softmax(logits) if False else tf.one_hot(labels, 3))
