"""Reductions, sorting, scans and segment ops inside `function`: tensor arguments whose values
are known when traced, and values and gradients over dimensions known only at run time,
checked against the same computation run eagerly."""
import numpy as np
import pytest

import eagerflow as tf

X = np.array([[1., 5., 3.], [4., 2., 6.]], np.float32)
UNKNOWN = [tf.TensorSpec([None, None], tf.float32)]


def _eager_and_graph(fn, x=X, signature=UNKNOWN):
    """(value, gradient of sum(value**2)) of `fn` eagerly and in a function traced with
    `signature`."""
    def run(z):
        with tf.GradientTape() as tape:
            tape.watch(z)
            y = fn(z)
            loss = tf.reduce_sum(y * y)
        return y, tape.gradient(loss, z)

    eager = run(tf.constant(x))
    graph = tf.function(run, input_signature=signature)(tf.constant(x))
    return eager, graph


def _assert_same(eager, graph):
    for e, g in zip(eager, graph):
        assert e.dtype == g.dtype and e.shape == g.shape
        np.testing.assert_allclose(g.numpy(), e.numpy(), rtol=1e-6)


@pytest.mark.parametrize("fn", [
    lambda z: tf.reduce_sum(z, axis=tf.rank(z) - 1),
    lambda z: tf.reduce_mean(z, axis=tf.constant([0, 1])),
    lambda z: tf.reduce_max(z, axis=tf.constant(-1), keepdims=True),
    lambda z: tf.cumsum(z, axis=tf.constant(1)),
    lambda z: tf.math.top_k(z, k=tf.constant(2)).values,
    lambda z: tf.math.unsorted_segment_sum(z, [1, 0], tf.constant(3)),
    lambda z: tf.argmax(z, axis=tf.constant(1)),
], ids=["sum-rank", "mean-const", "max-const", "cumsum", "top_k", "segments", "argmax"])
def test_tensor_arguments_known_when_traced_are_read_as_their_values(fn):
    eager = fn(tf.constant(X))
    graph = tf.function(fn, input_signature=UNKNOWN)(tf.constant(X))
    assert graph.shape == eager.shape and graph.dtype == eager.dtype
    np.testing.assert_array_equal(graph.numpy(), eager.numpy())
