"""The gradient of a loop or branch whose body has state uses the forward pass's values.

Inside `function`, a `While` or `If` a tape records runs in its accumulating
form: it also returns, per iteration (per run of the branch), what its
gradient needs, the values its variable reads and random draws gave
included, so the gradient replays the body on them without updating a
variable or drawing again. So does the copy of a function that a tape outside
it differentiates. The numbers are TF 2.21's for the same programs.
"""
import sys

import numpy as np
import pytest

import eagerflow as tf


def _close(got, want):
    # (TF's values are given to 5 places)
    np.testing.assert_allclose(np.asarray(got), want, rtol=1e-5, atol=1e-5)


def test_a_loop_body_updating_a_variable_updates_it_once_and_differentiates_its_reads():
    v = tf.Variable(1.0)

    @tf.function
    def f(x):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = x
            for _ in tf.range(2):
                v.assign_add(1.0)
                y = y * v
        return y, tape.gradient(y, [x, v])

    y, (dx, dv) = f(tf.constant(3.0))
    # y = x * 2 * 3 (the reads after each update); dy/dv sums x * 3 and x * 2
    _close(y, 18.0)
    _close(dx, 6.0)
    _close(dv, 15.0)
    assert v.numpy() == 3.0


def test_a_loop_reading_a_variable_assigned_after_it_differentiates_the_values_read():
    v = tf.Variable(2.0)

    @tf.function
    def f(x):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = x
            for _ in tf.range(2):
                y = y * v
            v.assign(10.0)
        return y, tape.gradient(y, [x, v])

    y, (dx, dv) = f(tf.constant(3.0))
    _close([y, dx, dv], [12.0, 4.0, 12.0])
    assert v.numpy() == 10.0


def test_a_loop_drawing_from_a_generator_draws_once_per_iteration():
    g = tf.random.Generator.from_seed(7)

    @tf.function
    def f(x):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = x
            draws = tf.TensorArray(tf.float32, size=3)
            for i in tf.range(3):
                r = g.uniform([])
                draws = draws.write(i, r)
                y = y * r + x * x
        return y, tape.gradient(y, x), draws.stack()

    y, dx, draws = f(tf.constant(2.0))
    _close(draws, [0.39933, 0.62598, 0.32116])
    # the gradient of the values drawn: d/dx of ((x r0 + x^2) r1 + x^2) r2 + x^2
    r0, r1, r2 = draws.numpy()
    _close(dx, (r0 * r1 + 4 * r1) * r2 + 4 * r2 + 4)
    _close([y, dx], [6.24935, 6.16907])
    assert g.state.numpy().tolist() == [775, 0, 0]


def test_a_loop_drawing_stateless_numbers_differentiates_the_same_draws():
    @tf.function
    def f(x):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = x
            draws = tf.TensorArray(tf.float32, size=3)
            for i in tf.range(3):
                r = tf.random.stateless_uniform([], seed=[1, i])
                draws = draws.write(i, r)
                y = y * r + x
        return y, tape.gradient(y, x), draws.stack()

    y, dx, draws = f(tf.constant(2.0))
    _close(draws, [0.87849, 0.09828, 0.84406])
    _close([y, dx], [3.99977, 1.99988])


@pytest.fixture
def global_seed():
    tf.random.set_seed(3)
    yield
    tf.random.set_seed(None)


def test_a_loop_drawing_with_the_global_seed_differentiates_its_draws(global_seed):

    @tf.function
    def f(x):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = x
            draws = tf.TensorArray(tf.float32, size=3)
            for i in tf.range(3):
                r = tf.random.uniform([])
                draws = draws.write(i, r)
                y = y * r + x * x
        return y, tape.gradient(y, x), draws.stack()

    y, dx, draws = f(tf.constant(2.0))
    _close(draws, [0.12736, 0.85802, 0.88987])
    _close([y, dx], [10.80806, 10.71082])


def test_a_branch_updating_a_variable_updates_it_once():
    v = tf.Variable(2.0)

    @tf.function
    def f(x, flag):
        with tf.GradientTape() as tape:
            tape.watch(x)

            def update():
                v.assign_add(1.0)
                return x * v
            y = tf.cond(flag, update, lambda: x * 2.0)
        return y, tape.gradient(y, [x, v])

    y, (dx, dv) = f(tf.constant(3.0), tf.constant(True))
    _close([y, dx, dv], [9.0, 3.0, 3.0])
    y, (dx, dv) = f(tf.constant(3.0), tf.constant(False))
    _close([y, dx, dv], [6.0, 2.0, 0.0])
    assert v.numpy() == 3.0


def test_a_branch_drawing_random_numbers_differentiates_its_draw():
    @tf.function
    def f(x, flag):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y, r = tf.cond(flag, lambda: (lambda r: (x * r, r))(tf.random.uniform([], seed=1)),
                           lambda: (x, tf.constant(1.0)))
        return tape.gradient(y, x), r

    dx, r = f(tf.constant(2.0), tf.constant(True))
    assert 0.0 < r.numpy() < 1.0
    _close(dx, r.numpy())


def test_a_loop_with_maximum_iterations_updating_a_variable():
    v = tf.Variable(1.0)

    @tf.function
    def f(x):
        with tf.GradientTape() as tape:
            tape.watch(x)

            def body(i, y):
                v.assign_add(1.0)
                return i + 1, y * v
            _, y = tf.while_loop(lambda i, y: i < 10, body, (0, x), maximum_iterations=3)
        return y, tape.gradient(y, [x, v])

    y, (dx, dv) = f(tf.constant(2.0))
    _close([y, dx, dv], [48.0, 24.0, 52.0])
    assert v.numpy() == 4.0


def test_second_derivative_of_a_loop_updating_a_variable():
    v = tf.Variable(1.0)

    @tf.function
    def f(x):
        with tf.GradientTape() as outer:
            outer.watch(x)
            with tf.GradientTape() as inner:
                inner.watch(x)
                y = x
                for _ in tf.range(2):
                    v.assign_add(1.0)
                    y = y * v * x
            dx = inner.gradient(y, x)
        return y, dx, outer.gradient(dx, x)

    _close(f(tf.constant(1.5)), [20.25, 40.5, 54.0])
    assert v.numpy() == 3.0


def test_nested_loops_updating_a_variable_in_the_inner_body():
    v = tf.Variable(1.0)

    @tf.function
    def f(x):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = x
            for _ in tf.range(2):
                for _ in tf.range(2):
                    v.assign_add(0.5)
                    y = y * v
        return y, tape.gradient(y, [x, v])

    y, (dx, dv) = f(tf.constant(1.0))
    _close([y, dx, dv], [22.5, 22.5, 42.75])
    assert v.numpy() == 3.0


def test_a_branch_updating_a_variable_inside_a_loop():
    v = tf.Variable(1.0)

    @tf.function
    def f(x):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = x
            for i in tf.range(3):
                if i % 2 == 0:
                    v.assign_add(1.0)
                    y = y * v
                else:
                    y = y + x * v
        return y, tape.gradient(y, [x, v])

    y, (dx, dv) = f(tf.constant(2.0))
    _close([y, dx, dv], [24.0, 12.0, 20.0])
    assert v.numpy() == 3.0


def test_a_loop_updating_a_variable_inside_a_branch():
    v = tf.Variable(1.0)

    @tf.function
    def f(x, flag):
        with tf.GradientTape() as tape:
            tape.watch(x)

            def loop():
                y = x
                for _ in tf.range(2):
                    v.assign_add(1.0)
                    y = y * v
                return y
            y = tf.cond(flag, loop, lambda: x)
        return y, tape.gradient(y, [x, v])

    y, (dx, dv) = f(tf.constant(2.0), tf.constant(True))
    _close([y, dx, dv], [12.0, 6.0, 10.0])
    assert v.numpy() == 3.0


def test_a_tape_outside_the_function_of_a_loop_updating_a_variable():
    v = tf.Variable(1.0)

    @tf.function
    def f(x):
        y = x
        for _ in tf.range(2):
            v.assign_add(1.0)
            y = y * v
        return y

    x = tf.constant(3.0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = f(x)
    _close([y, *tape.gradient(y, [x, v])], [18.0, 6.0, 15.0])
    assert v.numpy() == 3.0


def test_a_tape_outside_the_function_of_a_branch_updating_a_variable():
    v = tf.Variable(2.0)

    @tf.function
    def f(x, flag):
        def update():
            v.assign_add(1.0)
            return x * v
        return tf.cond(flag, update, lambda: x * 2.0)

    x = tf.constant(3.0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = f(x, tf.constant(True))
    _close([y, *tape.gradient(y, [x, v])], [9.0, 3.0, 3.0])
    assert v.numpy() == 3.0


def test_nested_tapes_outside_the_function_of_a_loop_updating_a_variable():
    v = tf.Variable(1.0)

    @tf.function
    def f(x):
        y = x
        for _ in tf.range(2):
            v.assign_add(1.0)
            y = y * v * x
        return y

    x = tf.constant(1.5)
    with tf.GradientTape() as outer:
        outer.watch(x)
        with tf.GradientTape() as inner:
            inner.watch(x)
            y = f(x)
        dx = inner.gradient(y, x)
    _close([y, dx, outer.gradient(dx, x)], [20.25, 40.5, 54.0])
    assert v.numpy() == 3.0


def test_a_tape_outside_the_function_of_a_loop_drawing_from_a_generator():
    g = tf.random.Generator.from_seed(7)

    @tf.function
    def f(x):
        y = x
        for _ in tf.range(3):
            y = y * g.uniform([]) + x * x
        return y

    x = tf.constant(2.0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = f(x)
    _close([y, tape.gradient(y, x)], [6.24935, 6.16907])
    assert g.state.numpy().tolist() == [775, 0, 0]


def test_a_tape_outside_the_function_of_a_loop_reading_a_variable():
    w = tf.Variable(2.0)

    @tf.function
    def f(x):
        y = x
        for _ in tf.range(3):
            y = y * w + x
        return y

    x = tf.constant(1.5)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = f(x)
    _close([y, *tape.gradient(y, [x, w])], [22.5, 15.0, 25.5])


def test_a_function_calling_a_function_whose_loop_updates_a_variable():
    v = tf.Variable(1.0)

    @tf.function
    def inner(x):
        y = x
        for _ in tf.range(2):
            v.assign_add(1.0)
            y = y * v
        return y

    @tf.function
    def outer(x):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = inner(x)
        return y, tape.gradient(y, [x, v])

    y, (dx, dv) = outer(tf.constant(3.0))
    _close([y, dx, dv], [18.0, 6.0, 15.0])
    assert v.numpy() == 3.0


def test_a_function_whose_loop_updates_its_variable_argument_called_twice_in_a_function():
    """Each call op runs the body keeping its loop's iterations, on the variable it passes."""
    a, b = tf.Variable(1.0), tf.Variable(10.0)

    @tf.function
    def inner(x, w):
        y = x
        for _ in tf.range(2):
            w.assign_add(1.0)
            y = y * w
        return y

    @tf.function
    def outer(x):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = inner(x, a) + inner(x, b)
        return y, tape.gradient(y, [x, a, b])

    y, (dx, da, db) = outer(tf.constant(1.0))
    _close([y, dx, da, db], [138.0, 138.0, 5.0, 23.0])
    assert (a.numpy(), b.numpy()) == (3.0, 12.0)
    a.assign(1.0)
    x = tf.constant(3.0)
    with tf.GradientTape() as tape:  # a tape outside: the copy with the accumulating loop
        tape.watch(x)
        y = inner(x, a)
    _close([y, *tape.gradient(y, [x, a])], [18.0, 6.0, 15.0])
    assert a.numpy() == 3.0


def test_tf_gradients_of_loops_and_branches_updating_a_variable():
    v = tf.Variable(1.0)

    @tf.function
    def f(x, flag):
        y = x
        for _ in tf.range(2):
            for _ in tf.range(2):
                v.assign_add(0.5)
                y = y * v
        z = tf.cond(flag, lambda: x * v.assign_add(1.0).read_value(), lambda: x)
        return y, tf.gradients(y, [x, v]), z, tf.gradients(z, x)

    y, (dx, dv), z, (dzx,) = f(tf.constant(1.0), tf.constant(True))
    _close([y, dx, dv, z, dzx], [22.5, 22.5, 42.75, 4.0, 4.0])
    assert v.numpy() == 4.0


def test_tf_gradients_twice_through_the_reads_of_a_loop():
    w = tf.Variable(1.5)

    @tf.function
    def f(x):
        y = x
        for _ in tf.range(3):
            y = tf.sin(y * w)
        g = tf.gradients(y, w)[0]
        return g, tf.gradients(g, w)[0]

    np.testing.assert_allclose(f(tf.constant(1.0)), [0.0839, -1.3875], atol=1e-4)


def test_second_derivatives_through_the_reads_a_branch_or_loop_saved():
    w = tf.Variable(1.5)

    @tf.function
    def f(x, flag):
        with tf.GradientTape(persistent=True) as outer:
            with tf.GradientTape(persistent=True) as inner:
                y = tf.cond(flag, lambda: tf.sin(x * w) * w, lambda: x)
                z = x
                for _ in tf.range(3):
                    z = tf.sin(z * w)
            dy, dz = inner.gradient(y, w), inner.gradient(z, w)
        return dy, dz, outer.gradient(dy, w), outer.gradient(dz, w)

    np.testing.assert_allclose(f(tf.constant(1.0), tf.constant(True)),
                               [1.1036, 0.0839, -1.3548, -1.3875], atol=1e-4)


def test_the_gradient_of_a_branch_or_loop_that_prints_does_not_print_again(capsys):
    @tf.function
    def f(x):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = tf.cond(x > 0, lambda: (tf.print("branch", output_stream=sys.stdout), x * x)[1],
                        lambda: x)
            for i in tf.range(2):
                tf.print("loop", i, output_stream=sys.stdout)
                y = y * x
        return tape.gradient(y, x)

    _close(f(tf.constant(2.0)), 32.0)
    assert capsys.readouterr().out == "branch\nloop 0\nloop 1\n"


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
