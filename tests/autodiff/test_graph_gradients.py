import pytest

import eagerflow as tf


def test_gradients_is_for_graphs_only():
    with pytest.raises(RuntimeError, match="not supported when eager execution is enabled"):
        tf.gradients(tf.constant(1.0), tf.constant(2.0))


def test_gradients_of_tensors_and_variables_with_stops_and_weights():
    v = tf.Variable(2.0)

    @tf.function
    def f(x):
        y = x * v
        z = tf.stop_gradient(y) * x + y
        return (tf.gradients(z, [x, v, y]), tf.gradients(z, [x, v], stop_gradients=[y]),
                tf.gradients([y, z], x, grad_ys=[tf.constant(2.0), tf.constant(3.0)]),
                tf.gradients(y, tf.constant(3.0)),
                tf.gradients(y * 0.0 + x, [x, tf.constant(1.0)], unconnected_gradients="zero"))

    every, held, weighted, unconnected, zeros = f(tf.constant(3.0))
    assert [float(g) for g in every] == [8.0, 3.0, 1.0]  # d z / d y: 1 (the stop is constant)
    assert float(held[0]) == 6.0 and held[1] is None  # y held: v no longer reaches z
    assert [float(g) for g in weighted] == [28.0]      # 2 * dy/dx + 3 * dz/dx
    assert unconnected == [None]
    assert [float(g) for g in zeros] == [1.0, 0.0]


def test_gradients_through_a_loop_and_named_scope():
    @tf.function
    def f(x):
        acc = tf.constant(1.0)
        for _ in tf.range(3):
            acc = acc * x
        g, = tf.gradients(acc, x, name="grads")
        return g

    assert float(f(tf.constant(2.0))) == 12.0
    graph = f.get_concrete_function(tf.TensorSpec([])).graph
    assert any(op.name.startswith("grads/") for op in graph.get_operations())


def _gradient_graph(x_shape, y_shape):
    """The graph of d(sum(x + y))/dx and /dy for placeholders of the given static shapes."""
    v1 = tf.compat.v1
    g = v1.Graph()
    with g.as_default():
        x = v1.placeholder(tf.float32, x_shape)
        y = v1.placeholder(tf.float32, y_shape)
        grads = tf.gradients(tf.reduce_sum((x + y) * 2.0), [x, y])
    return g, x, y, grads


@pytest.mark.parametrize("x_shape, y_shape, sums_at_run_time", [
    ([None, 3], [3], False),      # matmul(h, w) + b: x decides every dim
    ([None, 3], [1, 3], False),
    ([None, None], [], False),
    ([None, 3], [None, 3], True),  # either may be broadcast along the first axis
    ([None, 3], [5, 3], True),     # x's first dim may be 1
    ([None], [2, 3], True),
])
def test_gradients_of_an_operand_sum_only_where_it_may_be_broadcast(x_shape, y_shape,
                                                                    sums_at_run_time):
    import numpy as np
    g, x, y, (dx, dy) = _gradient_graph(x_shape, y_shape)
    types = [op.type for op in g.get_operations()]
    assert ("BroadcastGradientArgs" in types) == sums_at_run_time
    feeds = {((None, 3), (3,)): [(4, 3), (3,)], ((None, 3), (1, 3)): [(4, 3), (1, 3)],
             ((None, None), ()): [(2, 5), ()], ((None, 3), (None, 3)): [(1, 3), (4, 3)],
             ((None, 3), (5, 3)): [(1, 3), (5, 3)], ((None,), (2, 3)): [(1,), (2, 3)]}
    x_value, y_value = (np.ones(s, np.float32)
                        for s in feeds[tuple(map(tuple, (x_shape, y_shape)))])
    with tf.compat.v1.Session(graph=g) as sess:
        gx, gy = sess.run([dx, dy], {x: x_value, y: y_value})
    out = np.broadcast_shapes(x_value.shape, y_value.shape)
    np.testing.assert_array_equal(gx, np.full(x_value.shape, 2 * np.prod(out) / x_value.size))
    np.testing.assert_array_equal(gy, np.full(y_value.shape, 2 * np.prod(out) / y_value.size))
