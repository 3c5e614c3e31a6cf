import numpy as np
import pytest

import eagerflow as tf


def _log1pexp_naive(x):
    return tf.math.log(1 + tf.exp(x))


@tf.custom_gradient
def _log1pexp(x):
    e = tf.exp(x)

    def grad(upstream):
        return upstream * (1 - 1 / (1 + e))
    return tf.math.log(1 + e), grad


def _grad(fn, value):
    x = tf.constant(value)
    with tf.GradientTape() as g:
        g.watch(x)
        y = fn(x)
    return g.gradient(y, x)


def test_guide_log1pexp():
    assert np.isnan(_grad(_log1pexp_naive, 100.0).numpy())
    assert _grad(_log1pexp, 100.0).numpy() == 1.0
    assert _grad(_log1pexp, 0.0).numpy() == 0.5
    assert _log1pexp(tf.constant(0.0)).numpy() == pytest.approx(np.log(2.0))


def test_inner_ops_are_not_recorded_and_structures_pass_through():
    @tf.custom_gradient
    def pair(x, y):
        def grad(d1, d2):
            return d1 * 10.0, d2 * 20.0
        return (x * 1.0, y * 1.0), grad

    x, y = tf.constant(1.0), tf.constant(2.0)
    with tf.GradientTape() as g:
        g.watch([x, y])
        a, b = pair(x, y)
        total = a + b
    dx, dy = g.gradient(total, [x, y])
    assert (dx.numpy(), dy.numpy()) == (10.0, 20.0)


def test_variables_read_inside_need_the_keyword():
    v = tf.Variable(3.0)

    @tf.custom_gradient
    def scale(x):
        def grad(dy, variables):
            return dy * v, [dy * x]
        return x * v, grad

    x = tf.constant(2.0)
    with tf.GradientTape() as g:
        g.watch(x)
        y = scale(x)
    dx, dv = g.gradient(y, [x, v])
    assert (dx.numpy(), dv.numpy()) == (3.0, 2.0)

    @tf.custom_gradient
    def bad(x):
        return x * v, lambda dy: dy
    with pytest.raises(TypeError, match="variables"):
        bad(x)


def test_wrong_number_of_gradients_is_a_clear_error():
    @tf.custom_gradient
    def f(x, y):
        return x * y, lambda dy: dy  # one gradient for two inputs

    x, y = tf.constant(1.0), tf.constant(2.0)
    with tf.GradientTape() as g:
        g.watch([x, y])
        z = f(x, y)
    with pytest.raises(ValueError, match="expected to return 2 gradient"):
        g.gradient(z, [x, y])


@tf.custom_gradient
def _clip_gradient_by_norm(x, norm):
    y = tf.identity(x)

    def grad_fn(dresult):
        return [tf.clip_by_norm(dresult, norm), None]
    return y, grad_fn


@pytest.mark.parametrize("traced", [False, True])
@pytest.mark.parametrize("norm", [1.0, tf.constant(1.0)], ids=["python", "tensor"])
def test_guide_clip_gradient_by_norm_counts_every_positional_argument(norm, traced):
    x = tf.constant([3.0, 4.0])

    def run():
        with tf.GradientTape() as t:
            t.watch(x)
            y = _clip_gradient_by_norm(x, norm) * [3.0, 4.0]
        return t.gradient(y, x)
    g = tf.function(run)() if traced else run()
    np.testing.assert_allclose(g.numpy(), [0.6, 0.8], rtol=1e-6)


@pytest.mark.parametrize("returned", [1, 3])
@pytest.mark.parametrize("norm", [1.0, tf.constant(1.0)], ids=["python", "tensor"])
def test_wrong_gradient_count_with_python_arguments(norm, returned):
    @tf.custom_gradient
    def clip(x, norm):
        def grad_fn(dy):
            return [dy, None, None][:returned]
        return tf.identity(x), grad_fn

    x = tf.constant([3.0, 4.0])

    def run():
        with tf.GradientTape() as t:
            t.watch(x)
            y = clip(x, norm)
        return t.gradient(y, x)
    with pytest.raises(ValueError, match=f"^custom_gradient function expected to return 2 "
                                         f"gradients, but returned {returned} instead.$"):
        run()
    # Traced, TF reports the recorded op's count (its outputs, inputs and variables).
    with pytest.raises(tf.errors.InternalError,
                       match=f"Recorded operation 'clip' returned too few gradients. Expected "
                             f"3 but received {1 + returned}"):
        tf.function(run)()


def test_python_arguments_and_keywords():
    x = tf.constant(2.0)

    @tf.custom_gradient
    def scaled(x, s, mode, scale=1.0):
        def grad_fn(dy):
            return dy * s * scale, tf.reduce_sum(dy * x), None  # ignored for Python values
        return x * s * scale, grad_fn

    def body():
        with tf.GradientTape() as t:
            t.watch(x)
            y = scaled(x, 3, "mode", scale=2.0)  # keywords are not inputs
        return t.gradient(y, x)
    assert body().numpy() == 6.0
    # as TF, a graph refuses keyword arguments (any: TF's graph form takes none)
    with pytest.raises(ValueError, match="supports keywords arguments only when eager "
                                         "execution is enabled"):
        tf.function(body)()


def test_tensors_passed_only_as_keywords_keep_their_own_gradient():
    # TF records the custom gradient on a tape only when the tape watches a positional
    # input or a variable the function reads; otherwise the tape differentiates f's ops
    @tf.custom_gradient
    def triple(c, x=None):
        return c * x * 3.0, lambda dy: dy * 100.0

    x, c = tf.constant(1.0), tf.constant(2.0)
    with tf.GradientTape() as t:
        t.watch(x)
        y = triple(c, x=x)
    assert float(t.gradient(y, x)) == 6.0
    with tf.GradientTape(persistent=True) as t:
        t.watch([x, c])
        y = triple(c, x=x)
    assert t.gradient(y, x) is None and float(t.gradient(y, c)) == 100.0
    with tf.GradientTape() as outer:  # per tape: the outer one watches x only
        outer.watch(x)
        with tf.GradientTape() as inner:
            inner.watch(c)
            y = triple(c, x=x)
    assert float(inner.gradient(y, c)) == 100.0 and float(outer.gradient(y, x)) == 6.0


def test_variable_argument_is_differentiated():
    v = tf.Variable(2.0)

    @tf.custom_gradient
    def square(x):
        return x * x, lambda dy: dy * 2.0 * x

    for run in (lambda f: f(), lambda f: tf.function(f)()):
        def body():
            with tf.GradientTape() as t:
                y = square(v)
            return t.gradient(y, v)
        assert run(body).numpy() == 4.0


def test_variable_gradients_count_and_keyword_forms():
    v = tf.Variable(2.0)
    x = tf.constant([1.0, 2.0])

    @tf.custom_gradient
    def missing(x):
        return x * v, lambda dy, variables=None: (dy * v, [])

    with tf.GradientTape() as t:
        t.watch(x)
        y = missing(x)
    with pytest.raises(ValueError, match="^Must return gradient for each variable from "
                                         "@custom_gradient grad_fn.$"):
        t.gradient(y, [x, v])

    @tf.custom_gradient
    def any_keywords(x):
        def grad_fn(dy, **kwargs):  # accepts `variables` too
            return dy * v, [tf.reduce_sum(dy * x)]
        return x * v, grad_fn

    with tf.GradientTape() as t:
        t.watch(x)
        y = any_keywords(x)
    dx, dv = t.gradient(y, [x, v])
    np.testing.assert_array_equal(dx.numpy(), [2.0, 2.0])
    assert dv.numpy() == 3.0

    @tf.custom_gradient
    def no_keyword(x):
        return x * v, lambda dy: dy
    with pytest.raises(TypeError, match="^@tf.custom_gradient grad_fn must accept keyword "
                                        "argument 'variables', since function uses "
                                        "variables: \\[<tf.Variable 'Variable:0'"):
        no_keyword(x)


def test_grad_fn_using_forward_values_is_differentiable_again():
    # the grad_fn reads e = exp(x) from the forward pass; a second tape must see e depend on x
    @tf.custom_gradient
    def log1pexp(x):
        e = tf.exp(x)

        def grad(upstream):
            return upstream * (1 - 1 / (1 + e))
        return tf.math.log(1 + e), grad

    x = tf.constant([1.0, 2.0, -3.0])

    def second(x):
        with tf.GradientTape() as t2:
            t2.watch(x)
            with tf.GradientTape() as t1:
                t1.watch(x)
                y = tf.reduce_sum(log1pexp(x))
            g = t1.gradient(y, x)
        return t2.gradient(g, x)

    s = 1 / (1 + np.exp(-x.numpy()))
    np.testing.assert_allclose(second(x).numpy(), s * (1 - s), rtol=1e-5)
    np.testing.assert_allclose(tf.function(second)(x).numpy(), s * (1 - s), rtol=1e-5)


def test_custom_gradient_method_binds_its_instance():
    class Scale(tf.keras.layers.Layer):
        def build(self, shape):
            self.k = self.add_weight("k", shape=(), initializer="ones")

        @tf.custom_gradient
        def op(self, x):  # self is bound first: x is the one input, as in TF
            def grad(dy, variables):
                return dy * 3.0, [dy * 11.0 for _ in variables]
            return x * self.k, grad

        def call(self, x):
            return self.op(x)

    layer = Scale()
    x = tf.constant(2.0)
    layer(x)

    @tf.function
    def step(x):
        with tf.GradientTape() as t:
            t.watch(x)
            y = layer(x)
        return t.gradient(y, [x] + layer.trainable_variables)
    for g in (step(x), step.python_function(x)):
        np.testing.assert_allclose(g, [3.0, 11.0])
    assert Scale.op.__name__ == "op"


def test_grad_pass_through_of_a_function_reading_a_variable():
    v = tf.Variable(2.0)
    x = tf.constant([0.4, 1.6])
    with tf.GradientTape() as t:
        t.watch(x)
        y = tf.grad_pass_through(lambda a: tf.round(a) * v)(x)
    np.testing.assert_allclose(y, [0.0, 4.0])
    gx, gv = t.gradient(y, [x, v])  # the variable gets no gradient, as in TF
    np.testing.assert_allclose(gx, [1.0, 1.0])
    assert gv is None


def test_a_custom_gradient_of_another_shape_fails_where_gradients_are_summed():
    """Gradients meeting at a tensor are summed by AddN, as in TF: one of another shape (a
    custom gradient's mistake) fails there instead of broadcasting into a wrong value.
    Alone, or summed with one of its own shape, it passes through as TF lets it."""
    @tf.custom_gradient
    def f(x):
        return tf.identity(x), lambda dy: tf.reduce_sum(dy)

    x = tf.constant([1.0, 2.0])
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        once, twice, mixed = f(x), f(x) + f(x), f(x) + x * 3.0
    assert float(tape.gradient(once, x)) == 2.0 and float(tape.gradient(twice, x)) == 4.0
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"Inputs to operation AddN of type AddN must have the same size "
                             r"and shape\.  Input 0: \[\] != input 1: \[2\]"):
        tape.gradient(mixed, x)

    @tf.function
    def traced(x):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = f(x) + x * 3.0
        return tape.gradient(y, x)
    with pytest.raises(ValueError):
        traced(x)


@pytest.mark.parametrize("compiled", [False, True])
def test_gradient_of_another_shape_is_returned_as_given(compiled):
    # TF takes a custom gradient as it is: one shaped like the output, returned for a
    # scalar input or variable, is not summed to the scalar
    x, s, w = tf.constant([1., 2., 3.]), tf.constant(2.), tf.Variable(3.)

    @tf.custom_gradient
    def f(a, b):
        def grad(dy, variables=None):
            return (dy * 10., dy * 5.), [dy * 100. for _ in variables]
        return a * b * w, grad

    def go():
        with tf.GradientTape() as t:
            t.watch([x, s])
            y = tf.reduce_sum(f(x, s))
        return t.gradient(y, [x, s, w])

    gx, gs, gw = tf.function(go)() if compiled else go()
    assert gx.numpy().tolist() == [10., 10., 10.]
    assert gs.numpy().tolist() == [5., 5., 5.]
    assert gw.numpy().tolist() == [100., 100., 100.]
