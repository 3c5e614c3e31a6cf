"""Gradients whose values follow TF's registered rules where these differ from the plain
derivative: ties and zero channels of the HSV conversion, the labels of softmax cross
entropy, the second derivative of a bilinear resize (values recorded with TF 2.21)."""
import numpy as np

import eagerflow as tf

PIXELS = [[0.0, 1 / 48, 2 / 48], [0.5, 0.5, 0.25], [0.2, 0.6, 0.6], [0.3, 0.3, 0.3],
          [0.0, 0.0, 0.0], [0.9, 0.1, 0.4], [0.0, 0.5, 0.0]]
# d(H), d(S), d(V) by TF's rule
TF_HSV_GRADIENTS = [
    [[2.0, -4.0, 2.0], [-0.66667, 0.66667, 0.0], [0.0, -0.41667, 0.41667], [0.0, 0.0, 0.0],
     [0.0, 0.0, 0.0], [0.07813, 0.13021, -0.20833], [-0.33333, 0.0, 0.33333]],
    [[0.0, 0.0, 0.0], [1.0, 0.0, -2.0], [-1.66667, 0.55556, 0.0], [3.33333, 0.0, -3.33333],
     [0.0, 0.0, 0.0], [0.12346, -1.11111, 0.0], [0.0, 0.0, 0.0]],
    [[0.0, 0.0, 1.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [1.0, 0.0, 0.0], [1.0, 0.0, 0.0],
     [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]],
]


def test_rgb_to_hsv_gradient_is_tfs_at_ties_and_zero_channels():
    x = tf.constant(PIXELS)
    for k, want in enumerate(TF_HSV_GRADIENTS):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = tf.image.rgb_to_hsv(x)[:, k]
        np.testing.assert_allclose(tape.gradient(y, x), want, atol=1e-4)


def test_rgb_to_hsv_gradient_of_a_batch_is_each_pixels():
    x = tf.constant(PIXELS)
    dy = tf.constant(np.arange(21, dtype=np.float32).reshape(7, 3) / 10 - 1)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.image.rgb_to_hsv(x)
    got = tape.gradient(y, x, output_gradients=dy)
    want = sum(np.asarray(g) * dy.numpy()[:, k:k + 1] for k, g in enumerate(TF_HSV_GRADIENTS))
    np.testing.assert_allclose(got, want, atol=1e-4)


def test_softmax_cross_entropy_labels_gradient_leaves_out_backprop():
    logits = tf.constant([[1.0, 2.0, 3.0], [0.0, -1.0, 4.0]])
    labels = tf.constant([[0.2, 0.3, 0.5], [1.0, 0.0, 0.0]])
    with tf.GradientTape(persistent=True) as tape:
        tape.watch([logits, labels])
        loss, backprop = tf.raw_ops.SoftmaxCrossEntropyWithLogits(features=logits,
                                                                  labels=labels)
        total = tf.reduce_sum(loss) + tf.reduce_sum(backprop)
        squares = tf.reduce_sum(backprop * backprop)
    np.testing.assert_allclose(tape.gradient(total, labels),
                               [[2.407606, 1.407606, 0.407606], [4.024745, 5.024745, 0.024745]],
                               rtol=1e-5)
    d_labels = tape.gradient(squares, labels)
    np.testing.assert_array_equal(d_labels, np.zeros([2, 3]))
    np.testing.assert_allclose(tape.gradient(squares, logits),
                               [[-0.035376, -0.06939, 0.104766], [-0.068482, -0.012195, 0.080678]],
                               rtol=1e-4)


def test_bilinear_resize_has_no_second_derivative():
    x = tf.constant([[[[1.0], [2.0]], [[3.0], [4.0]]]])
    with tf.GradientTape() as outer:
        outer.watch(x)
        with tf.GradientTape() as inner:
            inner.watch(x)
            y = tf.reduce_sum(tf.image.resize(x, [3, 3]) ** 2)
        total = tf.reduce_sum(inner.gradient(y, x))
    assert outer.gradient(total, x) is None


def test_a_means_gradient_is_the_incoming_gradient_divided_by_the_count_as_tfs():
    # TF divides by the count (a product by its reciprocal is an ulp off for many values)
    upstream = np.random.RandomState(0).rand(50).astype(np.float32)
    x = tf.constant(np.zeros((50, 7), np.float32))

    def grad(x):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = tf.reduce_sum(tf.reduce_mean(x, axis=1) * upstream)
        return tape.gradient(y, x)

    want = np.repeat((upstream / np.float32(7))[:, None], 7, axis=1)
    np.testing.assert_array_equal(grad(x).numpy(), want)
    unknown = tf.function(grad, input_signature=[tf.TensorSpec([None, None], tf.float32)])
    np.testing.assert_array_equal(unknown(x).numpy(), want)
