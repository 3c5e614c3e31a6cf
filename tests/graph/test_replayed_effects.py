"""A gradient that runs a loop body or a branch again must not repeat its effects.

Inside `function`, the gradient of a `While` or `If` replays its body under a tape. A
body that updates a variable or draws random numbers would then update it again (and
differentiate other values than the forward pass's), so such a gradient raises TF's
UnimplementedError instead of returning a wrong number; bodies that only read
variables, assert or print replay as they are.
"""
import numpy as np
import pytest

import eagerflow as tf


def test_a_loop_body_updating_a_variable_raises_instead_of_updating_it_again():
    v = tf.Variable(1.0)

    @tf.function
    def f(x):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y, i = x, tf.constant(0)
            while i < 2:
                v.assign_add(1.0)
                y = y * x
                i += 1
        return tape.gradient(y, x)

    with pytest.raises(tf.errors.UnimplementedError, match="op AssignAddVariableOp"):
        f(tf.constant(3.0))


def test_a_branch_drawing_random_numbers_raises():
    @tf.function
    def f(x, flag):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = tf.cond(flag, lambda: x * tf.random.uniform([]), lambda: x)
        return tape.gradient(y, x)

    with pytest.raises(tf.errors.UnimplementedError, match="op RandomUniform"):
        f(tf.constant(2.0), tf.constant(True))


def test_bodies_that_only_read_variables_and_check_give_the_gradient():
    w = tf.Variable(2.0)

    @tf.function
    def f(x):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y, i = x, tf.constant(0)
            while i < 3:
                tf.debugging.assert_all_finite(y, "finite")
                y = y * w + x
                i += 1
        return y, tape.gradient(y, [x, w])

    y, (dx, dw) = f(tf.constant(1.5))
    # y = x w^3 + x w^2 + x w + x, so dy/dx = w^3 + w^2 + w + 1 and dy/dw = x (3w^2 + 2w + 1)
    np.testing.assert_allclose(y.numpy(), 1.5 * 15)
    np.testing.assert_allclose(dx.numpy(), 15.0)
    np.testing.assert_allclose(dw.numpy(), 1.5 * 17)
    assert w.numpy() == 2.0
