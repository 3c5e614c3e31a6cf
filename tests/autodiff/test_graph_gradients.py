import numpy as np
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


def test_gradients_of_ops_that_never_broadcast_need_no_run_time_reduction():
    import numpy as np
    v1 = tf.compat.v1
    rng = np.random.default_rng(0)
    w_value = rng.standard_normal((3, 4)).astype(np.float32)
    k_value = rng.standard_normal((2, 2, 1, 2)).astype(np.float32)
    g = v1.Graph()
    with g.as_default():
        x = v1.placeholder(tf.float32, [None, 3])
        images = v1.placeholder(tf.float32, [None, 4, 4, 1])
        labels = v1.placeholder(tf.int64, [None])
        w, b, k = tf.constant(w_value), tf.constant(np.ones(4, np.float32)), tf.constant(k_value)
        logits = tf.nn.bias_add(tf.matmul(x, w), b)
        conv = tf.nn.conv2d(images, k, 1, "VALID")
        loss = (tf.reduce_sum(tf.nn.sparse_softmax_cross_entropy_with_logits(labels, logits))
                + tf.reduce_sum(conv * conv))
        grads = tf.gradients(loss, [x, images])
    assert "BroadcastGradientArgs" not in {op.type for op in g.get_operations()}
    x_value = rng.standard_normal((5, 3)).astype(np.float32)
    image_value = rng.standard_normal((2, 4, 4, 1)).astype(np.float32)
    label_value = np.array([0, 1, 2, 3, 0])
    with v1.Session(graph=g) as sess:
        dx, dimages = sess.run(grads, {x: x_value, images: image_value, labels: label_value})
    z = x_value @ w_value + 1
    p = np.exp(z - z.max(1, keepdims=True))
    p /= p.sum(1, keepdims=True)
    np.testing.assert_allclose(dx, (p - np.eye(4)[label_value]) @ w_value.T, rtol=1e-5,
                               atol=1e-6)
    with tf.GradientTape() as tape:  # the same convolution's gradient, eagerly
        t = tf.constant(image_value)
        tape.watch(t)
        out = tf.nn.conv2d(t, k_value, 1, "VALID")
        want = tape.gradient(tf.reduce_sum(out * out), t)
    assert dimages.shape == (2, 4, 4, 1)
    np.testing.assert_allclose(dimages, want.numpy(), rtol=1e-5, atol=1e-5)


def test_gradients_in_branches_and_loop_bodies_of_tensors_from_outside():
    # as TF: a body's captures pass their gradients on to the tensors they stand for
    @tf.function
    def f(x):
        y = x * x
        out = tf.zeros_like(x)
        for _ in tf.range(2):
            if tf.reduce_sum(x) > 0:
                z = y * x  # in the branch, from captured tensors
                out += tf.gradients(z, x)[0]
            else:
                out += tf.gradients(y, x, grad_ys=tf.ones_like(y) * 2.0)[0]
        w = tf.while_loop(lambda j, s: j < 3,
                          lambda j, s: (j + 1, s + tf.gradients(tf.reduce_sum(s * y), x)[0]),
                          [0, x])[1]
        c = tf.cond(x[0] > 0, lambda: tf.gradients(tf.sin(y) * x, x, stop_gradients=[y])[0],
                    lambda: tf.zeros_like(x))
        return out, w, c

    got = [t.numpy().tolist() for t in f(tf.constant([1.0, 2.0]))]
    np.testing.assert_allclose(got[0], [6.0, 24.0])
    np.testing.assert_allclose(got[1], [27.0, 250.0])
    np.testing.assert_allclose(got[2], np.sin([1.0, 4.0]), rtol=1e-6)
    got = [t.numpy().tolist() for t in f(tf.constant([-1.0, -2.0]))]
    assert got[0] == [-8.0, -16.0] and got[1] == [1.0, 54.0] and got[2] == [0.0, 0.0]


def test_stop_gradients_may_be_a_single_tensor():
    @tf.function
    def f(x):
        y = x * x
        return tf.gradients(y * x, x, stop_gradients=y)[0], tf.gradients(x, x, stop_gradients=x)[0]

    held, itself = f(tf.constant(3.0))
    assert float(held) == 9.0 and float(itself) == 1.0


def test_an_unknown_aggregation_method_is_refused():
    @tf.function
    def f(x, method):
        return tf.gradients(x * x, x, aggregation_method=method)[0]

    assert float(f(tf.constant(2.0), tf.AggregationMethod.EXPERIMENTAL_TREE)) == 4.0
    with pytest.raises(ValueError, match=r"Invalid `aggregation_method` specified 7\. "
                                         r"Accepted values are \[0, 1, 2\]\."):
        f(tf.constant(2.0), 7)
