"""What an assignment returns reads the variable it assigned: tapes see those reads as reads of
that variable. Expected values are TensorFlow 2.21's."""
import numpy as np
import pytest

import eagerflow as tf

X = tf.constant([1.0, 2.0])

CASES = {
    "product": (lambda r, w: r * 2.0 * w, 8.0, 2.0),
    "identity": (lambda r, w: tf.identity(r) * w, 4.0, 2.0),
    "add": (lambda r, w: (r + 1.0) * w, 5.0, 2.0),
    "reduce": (lambda r, w: tf.reduce_sum(r * X) * w, 12.0, 2.0),
    "matmul": (lambda r, w: tf.matmul(tf.reshape(r, [1, 1]), tf.reshape(w, [1, 1])), 4.0, 2.0),
    "chained assignment": (lambda r, w: r.assign_add(1.0) * w, 6.0, 3.0),
    "alone": (lambda r, w: r * 2.0, 2.0, 2.0),
}


@pytest.mark.parametrize("case", CASES)
def test_gradient_through_the_result_of_assign_add(case):
    f, gradient, final = CASES[case]
    w = tf.Variable(1.0)
    with tf.GradientTape() as tape:
        y = f(w.assign_add(1.0), w)
    assert float(tf.reduce_sum(tape.gradient(y, w))) == gradient
    assert float(w.numpy()) == final


def test_gradient_through_the_results_of_assign_and_assign_sub():
    w = tf.Variable(1.0)
    with tf.GradientTape() as tape:
        y = w.assign(3.0) * 2.0
    assert float(tape.gradient(y, w)) == 2.0
    w = tf.Variable(1.0)
    with tf.GradientTape() as tape:
        y = w.assign_sub(1.0) * w.assign_add(2.0)
    assert float(tape.gradient(y, w)) == 4.0


def test_gather_of_an_assignment_result():
    w = tf.Variable([1.0, 2.0])
    with tf.GradientTape() as tape:
        y = tf.reduce_sum(tf.gather(w.assign([3.0, 4.0]), [1]) * w)
    np.testing.assert_array_equal(tape.gradient(y, w), [4.0, 11.0])


def test_inside_a_function_too():
    @tf.function
    def step(w):
        with tf.GradientTape() as tape:
            y = w.assign_add(1.0) * 2.0 * w
        return tape.gradient(y, w)
    assert float(step(tf.Variable(1.0))) == 8.0
