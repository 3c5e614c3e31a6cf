"""Gradients through control flow against central finite differences, in float64.

`check_gradients(f, *args)` takes the Jacobian of `f` at `args` three ways
and compares each with the numerical one: a tape around eager `f`, a tape
inside a `tf.function` (the loop's gradient is traced), and a tape around a
call of ``tf.function(f)`` (the call's backward graph holds it).
"""
import numpy as np

import eagerflow as tf


def check_gradients(f, *args, rtol=1e-6, atol=1e-8):
    xs = [tf.constant(np.asarray(a, np.float64)) for a in args]
    theoretical, numerical = tf.test.compute_gradient(f, xs, delta=1e-6)
    for got, want in zip(theoretical, numerical):
        np.testing.assert_allclose(got, want, rtol=rtol, atol=atol, err_msg="eager")
    weights = tf.constant(np.random.default_rng(0).uniform(0.5, 1.5, np.shape(f(*xs))))
    expected = [(n.T @ np.ravel(weights)).reshape(np.shape(x)) for n, x in zip(numerical, xs)]

    @tf.function
    def inside(*xs):
        with tf.GradientTape() as tape:
            tape.watch(xs)
            y = f(*xs)
        return tape.gradient(y, xs, output_gradients=weights)

    traced = tf.function(f)
    with tf.GradientTape() as tape:
        tape.watch(xs)
        y = traced(*xs)
    for how, grads in (("inside a function", inside(*xs)),
                       ("over a function call", tape.gradient(y, xs, output_gradients=weights))):
        for got, want in zip(grads, expected):
            got = np.zeros_like(want) if got is None else np.asarray(got)
            np.testing.assert_allclose(got, want, rtol=rtol, atol=atol, err_msg=how)
