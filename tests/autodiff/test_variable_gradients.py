"""Gradients reach a Variable on every path its value takes into an op.

Each path is computed twice, once on a Variable and once on a watched
Tensor holding the same value; the gradients must agree in every way a tape
is used (eager, inside and around `function`, persistent, nested, jacobian).
"""
import numpy as np
import pytest

import eagerflow as tf

INIT = [1.0, 2.0, -1.0]


def _first(xs):
    return [x for x in xs][0]


# name -> (computation on the Variable, the same computation on a Tensor)
_PATHS = {
    "index_int": lambda p: p[0] * p[1],
    "index_negative": lambda p: p[-1] * 3.0,
    "index_slice": lambda p: tf.reduce_sum(p[1:] ** 2),
    "index_strided": lambda p: tf.reduce_sum(p[::-2] * 2.0),
    "index_ellipsis": lambda p: tf.reduce_sum(p[...] ** 2),
    "index_newaxis": lambda p: tf.reduce_sum(p[tf.newaxis, :] ** 2),
    "index_tensor": lambda p: p[tf.constant(2)] * 5.0,
    "index_tuple": lambda p: p[0:2, ][0] * 7.0,
    "index_mask": lambda p: tf.reduce_sum(p[tf.constant([True, False, True])] ** 2),
    "index_each": lambda p: p[0] * 1.0 + p[1] * 2.0 + p[2] * 3.0,
    "index_plus_whole": lambda p: tf.reduce_sum(p ** 3) + p[0] * p[1],
    "add_mul": lambda p: tf.reduce_sum(p + p * 2.0),
    "rsub": lambda p: tf.reduce_sum(1.0 - p),
    "div": lambda p: tf.reduce_sum(1.0 / (p + 3.0) + p / 2.0),
    "pow": lambda p: tf.reduce_sum(p ** 3),
    "rpow": lambda p: tf.reduce_sum(2.0 ** p),
    "neg": lambda p: tf.reduce_sum(-p),
    "abs": lambda p: tf.reduce_sum(abs(p)),
    "matmul_operator": lambda p: tf.reduce_sum(tf.reshape(p, [1, 3]) @ tf.ones([3, 2])),
    "comparison": lambda p: tf.reduce_sum(tf.where(p > 0, p, 2.0 * p)),
    "gather": lambda p: tf.reduce_sum(tf.gather(p, [0, 0, 2]) ** 2),
    "reshape": lambda p: tf.reduce_sum(tf.reshape(p, [3, 1]) ** 2),
    "matmul": lambda p: tf.reduce_sum(tf.matmul(tf.expand_dims(p, 0), tf.expand_dims(p, 1))),
    "concat": lambda p: tf.reduce_sum(tf.concat([p, tf.constant([4.0])], 0) ** 2),
    "stack": lambda p: tf.reduce_sum(tf.stack([p, p * 2.0]) ** 2),
    "convert_to_tensor": lambda p: tf.reduce_sum(tf.convert_to_tensor(p) ** 2),
    "convert_list": lambda p: tf.reduce_sum(tf.convert_to_tensor([p, p]) ** 2),
    "convert_list_of_index": lambda p: tf.reduce_sum(tf.convert_to_tensor([p[0], 2.0]) ** 2),
    "identity": lambda p: tf.reduce_sum(tf.identity(p) ** 2),
    "add_n": lambda p: tf.reduce_sum(tf.add_n([p, p, p])),
    "einsum": lambda p: tf.einsum("i,i->", p, p),
    "strided_slice": lambda p: tf.reduce_sum(tf.strided_slice(p, [0], [2]) ** 2),
    "slice": lambda p: tf.reduce_sum(tf.slice(p, [1], [2]) ** 2),
    "unstack": lambda p: tf.unstack(p)[1] * 3.0,
    "nn": lambda p: tf.reduce_sum(tf.nn.relu(p) + tf.nn.softmax(p)),
    "cast": lambda p: tf.reduce_sum(tf.cast(p, tf.float64) ** 2),
    "iterate": lambda p: _first(p) * 4.0,
}
# Variable methods, with the same computation on a Tensor.
_METHODS = {
    "value": (lambda p: tf.reduce_sum(p.value() ** 2), lambda x: tf.reduce_sum(x ** 2)),
    "read_value": (lambda p: tf.reduce_sum(p.read_value() ** 2),
                   lambda x: tf.reduce_sum(x ** 2)),
    "sparse_read": (lambda p: tf.reduce_sum(p.sparse_read([1, 2]) * 4.0),
                    lambda x: tf.reduce_sum(tf.gather(x, [1, 2]) * 4.0)),
    "gather_nd": (lambda p: tf.reduce_sum(p.gather_nd([[1]]) * 4.0),
                  lambda x: tf.reduce_sum(tf.gather_nd(x, [[1]]) * 4.0)),
}
PATHS = {**{k: (f, f) for k, f in _PATHS.items()}, **_METHODS}


class _Holder(tf.Module):
    def __init__(self):
        super().__init__()
        self.p = tf.Variable(INIT)


def _dense(g):
    if g is None:
        return None
    return np.asarray(tf.convert_to_tensor(g))


def _tensor_gradient(fn, how):
    x = tf.constant(INIT)
    if how == "second":
        with tf.GradientTape() as outer:
            outer.watch(x)
            with tf.GradientTape() as inner:
                inner.watch(x)
                y = fn(x)
            g = tf.convert_to_tensor(inner.gradient(y, x))
            s = tf.reduce_sum(g * g)
        return outer.gradient(s, x)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = fn(x)
    return tape.jacobian(y, x) if how == "jacobian" else tape.gradient(y, x)


def _variable_gradient(fn, how):
    p = tf.Variable(INIT)
    if how == "eager":
        with tf.GradientTape() as tape:
            y = fn(p)
        return tape.gradient(y, p)
    if how == "module":
        m = _Holder()
        with tf.GradientTape() as tape:
            y = fn(m.p)
        return tape.gradient(y, m.trainable_variables)[0]
    if how == "inside_function":
        @tf.function
        def step():
            with tf.GradientTape() as tape:
                y = fn(p)
            return tape.gradient(y, p)
        return step()
    if how == "around_function":
        traced = tf.function(fn)
        with tf.GradientTape() as tape:
            y = traced(p)
        return tape.gradient(y, p)
    if how == "explicit_watch":
        with tf.GradientTape(watch_accessed_variables=False) as tape:
            tape.watch(p)
            y = fn(p)
        return tape.gradient(y, p)
    if how == "persistent":
        with tf.GradientTape(persistent=True) as tape:
            y = fn(p)
        first = _dense(tape.gradient(y, p))
        second = tape.gradient(y, p)
        np.testing.assert_array_equal(first, _dense(second))
        return second
    if how == "jacobian":
        with tf.GradientTape() as tape:
            y = fn(p)
        return tape.jacobian(y, p)
    if how == "second":
        with tf.GradientTape() as outer:
            with tf.GradientTape() as inner:
                y = fn(p)
            g = tf.convert_to_tensor(inner.gradient(y, p))
            s = tf.reduce_sum(g * g)
        return outer.gradient(s, p)
    raise AssertionError(how)


HOWS = ["eager", "module", "inside_function", "around_function", "explicit_watch",
        "persistent", "jacobian", "second"]


@pytest.mark.parametrize("how", HOWS)
@pytest.mark.parametrize("name", sorted(PATHS))
def test_variable_gradient_equals_watched_tensor_gradient(name, how):
    on_variable, on_tensor = PATHS[name]
    if name == "iterate" and how in ("around_function", "inside_function"):
        pytest.skip("iterating a tensor in a traced function is not allowed (as in TF)")
    expected = _dense(_tensor_gradient(on_tensor, how))
    got = _dense(_variable_gradient(on_variable, how))
    if expected is None:
        assert got is None
    else:
        assert got is not None, f"{name}: the variable's gradient is None"
        np.testing.assert_allclose(got, expected, rtol=1e-6)


# TF 2.21's values.
def test_indexing_a_variable_is_differentiable():
    p = tf.Variable([1.0, 2.0, -1.0])
    with tf.GradientTape() as t:
        f = p[0] * p[1]
    np.testing.assert_array_equal(t.gradient(f, p).numpy(), [2.0, 1.0, 0.0])
    with tf.GradientTape() as t:
        f = tf.reduce_sum(p ** 3) + p[0] * p[1]
    np.testing.assert_array_equal(t.gradient(f, p).numpy(), [5.0, 13.0, 3.0])


def test_second_derivative_through_indexing():
    p = tf.Variable([1.0, 2.0, -1.0])
    with tf.GradientTape() as t2:
        with tf.GradientTape() as t1:
            f = tf.reduce_sum(p ** 3) + p[0] * p[1]
        g = t1.gradient(f, p)
        s = tf.reduce_sum(g * g)
    np.testing.assert_allclose(t2.gradient(s, p).numpy(), [86.0, 322.0, -36.0])


def test_batch_jacobian_through_indexing():
    w = tf.Variable([[1.0, 2.0], [3.0, 4.0]])
    with tf.GradientTape() as t:
        y = w[:, :1] * w[:, 1:] * 2.0
    np.testing.assert_array_equal(t.batch_jacobian(y, w).numpy(),
                                  [[[4.0, 2.0]], [[8.0, 6.0]]])


def test_index_of_2d_variable_in_a_keras_style_module():
    class Layer(tf.Module):
        def __init__(self):
            super().__init__()
            self.kernel = tf.Variable([[1.0, 2.0], [3.0, 4.0]])

        @tf.function
        def __call__(self, x):
            return x * self.kernel[0, 1] + self.kernel[1:, :]

    layer = Layer()
    with tf.GradientTape() as t:
        y = tf.reduce_sum(layer(tf.constant(2.0)))
    g, = t.gradient(y, layer.trainable_variables)
    np.testing.assert_array_equal(g.numpy(), [[0.0, 4.0], [1.0, 1.0]])


def test_variable_slice_stays_assignable():
    v = tf.Variable([1.0, 2.0, 3.0])
    with tf.GradientTape() as t:
        y = v[1] * 2.0
        v[1].assign(7.0)
    np.testing.assert_array_equal(v.numpy(), [1.0, 7.0, 3.0])
    np.testing.assert_array_equal(t.gradient(y, v).numpy(), [0.0, 2.0, 0.0])
    assert not hasattr(v[tf.constant([True, False, True])], "assign")  # as in TF


def test_variable_slice_assign_with_a_tensor_index_in_a_function():
    v = tf.Variable([1.0, 2.0, 3.0])

    @tf.function
    def f(i):
        v[i].assign(9.0)
        v[0:i].assign([4.0])
        return v[2]

    assert f(tf.constant(1)).numpy() == 3.0
    np.testing.assert_array_equal(v.numpy(), [4.0, 9.0, 3.0])


def test_gradient_with_respect_to_a_variable_handle():
    # TF: a variable's handle stands for the variable as a source, and watching the handle
    # watches the variable without listing it among the watched variables.
    v = tf.Variable([1.0, 2.0])
    with tf.GradientTape(persistent=True) as tape:
        y = tf.reduce_sum(v * v)
    grads = tape.gradient(y, {"h": v.handle, "v": v})
    np.testing.assert_allclose(grads["h"].numpy(), [2.0, 4.0])
    np.testing.assert_allclose(grads["v"].numpy(), [2.0, 4.0])
    with tf.GradientTape(watch_accessed_variables=False) as tape:
        tape.watch(v.handle)
        y = tf.reduce_sum(v * 3.0)
    assert tape.watched_variables() == ()
    np.testing.assert_allclose(tape.gradient(y, v.handle).numpy(), [3.0, 3.0])

    @tf.function
    def traced():
        with tf.GradientTape() as tape:
            y = tf.reduce_sum(v * v)
        return tape.gradient(y, v.handle)

    np.testing.assert_allclose(traced().numpy(), [2.0, 4.0])
