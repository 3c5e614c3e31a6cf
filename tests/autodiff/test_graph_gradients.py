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
