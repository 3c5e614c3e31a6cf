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


@pytest.mark.parametrize("fn", [
    lambda z: tf.reduce_prod(z, 1),
    lambda z: tf.reduce_prod(z),
    lambda z: tf.reduce_prod(z, [0], keepdims=True),
    lambda z: tf.math.top_k(z, 2).values,
    lambda z: tf.sort(z),
    lambda z: tf.sort(z, axis=0, direction="DESCENDING"),
    lambda z: tf.cast(tf.argsort(z), tf.float32) * z,
    lambda z: tf.math.segment_sum(z, [0, 0]),
    lambda z: tf.math.segment_mean(z, [0, 1]),
    lambda z: tf.math.segment_max(z, [0, 1]),
    lambda z: tf.math.segment_min(z, [1, 1]),
    lambda z: tf.math.segment_prod(z, [0, 0]),
    lambda z: tf.math.unsorted_segment_max(z, [2, 0], 3),
    lambda z: tf.math.unsorted_segment_prod(z, [2, 0], 3),
], ids=["prod-1", "prod-all", "prod-keep", "top_k", "sort", "sort-0", "argsort", "seg-sum",
        "seg-mean", "seg-max", "seg-min", "seg-prod", "useg-max", "useg-prod"])
def test_values_and_gradients_over_dimensions_known_at_run_time(fn):
    _assert_same(*_eager_and_graph(fn))


def test_num_segments_and_k_known_only_at_run_time():
    def aggregate(nodes, receivers):
        with tf.GradientTape() as tape:
            tape.watch(nodes)
            messages = tf.gather(nodes, receivers)  # a sparse gradient, made dense below
            n = tf.shape(nodes)[0]
            total = tf.math.unsorted_segment_sum(messages, receivers, num_segments=n)
            mean = tf.math.unsorted_segment_mean(messages, receivers, n)
            top = tf.math.top_k(nodes, k=tf.shape(nodes)[0] - 1).values
            loss = tf.reduce_sum(total * mean) + tf.reduce_sum(top * top)
        return total, mean, top, tf.convert_to_tensor(tape.gradient(loss, nodes))

    traced = tf.function(aggregate, input_signature=[tf.TensorSpec([None, 3], tf.float32),
                                                     tf.TensorSpec([None], tf.int32)])
    concrete = traced.get_concrete_function()
    assert [t.shape.as_list() for t in concrete.outputs[:3]] == [[None, 3]] * 2 + [[None, None]]
    args = tf.constant([[1., 2., 3.], [4., 5., 6.], [7., 8., 9.]]), tf.constant([0, 2, 2, 0])
    total, mean, top, grad = traced(*args)
    np.testing.assert_array_equal(total.numpy(), [[2, 4, 6], [0, 0, 0], [14, 16, 18]])
    np.testing.assert_array_equal(mean.numpy(), [[1, 2, 3], [0, 0, 0], [7, 8, 9]])
    np.testing.assert_array_equal(top.numpy(), [[3, 2], [6, 5], [9, 8]])
    np.testing.assert_array_equal(grad.numpy(), [[4, 12, 18], [0, 10, 12], [28, 48, 54]])
    np.testing.assert_array_equal(aggregate(*args)[3].numpy(), grad.numpy())


def test_run_time_num_segments_and_k_are_checked_when_run():
    segments = tf.function(lambda d, n: tf.math.unsorted_segment_sum(d, [0, 1], n))
    with pytest.raises(tf.errors.InvalidArgumentError, match="out of range"):
        segments(tf.constant([1., 2.]), tf.constant(1))
    top = tf.function(lambda d, k: tf.math.top_k(d, k).values)
    with pytest.raises(tf.errors.InvalidArgumentError, match="at least k columns"):
        top(tf.constant([1., 2.]), tf.constant(3))


@pytest.mark.parametrize("call", [
    lambda: tf.math.unsorted_segment_sum([1., 2.], [0, 1], 3.0),
    lambda: tf.math.top_k([1., 2.], 1.0),
], ids=["num_segments", "k"])
def test_float_counts_are_rejected_by_their_type_attribute(call):
    with pytest.raises(tf.errors.InvalidArgumentError, match="is not in the list of allowed"):
        call()


@pytest.mark.parametrize("call, param", [
    (lambda d, i: tf.math.unsorted_segment_sum(d, i, tf.constant(2.0)), "num_segments"),
    (lambda d, i: tf.math.segment_sum(d, tf.cast(i, tf.float32)), "segment_ids"),
    (lambda d, i: tf.math.top_k(d, tf.constant(1.0)).values, "k"),
], ids=["num_segments", "segment_ids", "k"])
def test_wrong_index_dtypes_in_a_graph_name_their_parameter(call, param):
    with pytest.raises(TypeError, match=f"Value passed to parameter '{param}' has DataType "
                                        "float32 not in list of allowed values"):
        tf.function(call)(tf.constant([1.0, 2.0]), tf.constant([0, 1]))


UNKNOWN_RANK = [tf.TensorSpec(None, tf.float32)]


@pytest.mark.parametrize("fn", [
    lambda z: tf.reduce_sum(z, 1),
    lambda z: tf.reduce_sum(z, -1, keepdims=True),
    lambda z: tf.reduce_mean(z, 1),
    lambda z: tf.reduce_max(z, 1),
    lambda z: tf.reduce_logsumexp(z, 1),
    lambda z: tf.math.reduce_std(z, 0),
    lambda z: tf.math.reduce_euclidean_norm(z, 1),
    lambda z: tf.math.l2_normalize(z, 1),
    lambda z: tf.clip_by_norm(z, 1.0, axes=[1]),
    lambda z: z * tf.reduce_max(z, 0),  # a broadcast product
], ids=["sum", "sum-keep", "mean", "max", "logsumexp", "std", "norm", "l2_normalize",
        "clip_by_norm", "broadcast"])
def test_values_and_gradients_over_an_unknown_rank(fn):
    _assert_same(*_eager_and_graph(fn, signature=UNKNOWN_RANK))


@pytest.mark.parametrize("fn", [
    lambda z: tf.reduce_sum(z, axis=tf.shape(z)[0] - 1),
    lambda z: tf.reduce_max(z, axis=tf.shape(z)[:1] - 1, keepdims=True),
    lambda z: tf.reduce_mean(z, axis=tf.range(tf.rank(z) - 1)),
], ids=["sum", "max-keep", "mean"])
def test_axes_known_only_at_run_time(fn):
    eager, graph = _eager_and_graph(fn)
    _assert_same(eager, graph)


def test_broadcast_gradient_over_an_unknown_rank_is_summed_to_the_operand_shape():
    @tf.function(input_signature=UNKNOWN_RANK * 2)
    def grads(a, b):
        with tf.GradientTape() as tape:
            tape.watch([a, b])
            y = a * b
        return tape.gradient(y, [a, b])

    da, db = grads(tf.ones([2, 3]), tf.constant([[1.0], [2.0]]))
    np.testing.assert_array_equal(da.numpy(), [[1, 1, 1], [2, 2, 2]])
    np.testing.assert_array_equal(db.numpy(), [[3], [3]])


def test_broadcast_gradient_over_a_dimension_known_only_at_run_time():
    @tf.function(input_signature=[tf.TensorSpec([None, 3], tf.float32),
                                  tf.TensorSpec([None, None], tf.float32)])
    def grads(a, b):
        with tf.GradientTape() as tape:
            tape.watch([a, b])
            y = a * b
        return tape.gradient(y, [a, b])

    da, db = grads(tf.ones([2, 3]), tf.constant([[1.0], [2.0]]))  # b broadcasts along dim 1
    np.testing.assert_array_equal(da.numpy(), [[1, 1, 1], [2, 2, 2]])
    np.testing.assert_array_equal(db.numpy(), [[3], [3]])


@pytest.mark.parametrize("fn", [
    lambda z: tf.sort(z),
    lambda z: tf.sort(z, direction="DESCENDING"),
    lambda z: tf.cast(tf.argsort(z), tf.float32) * z,
], ids=["sort", "sort-descending", "argsort"])
def test_sort_along_the_last_axis_of_an_unknown_rank(fn):
    _assert_same(*_eager_and_graph(fn, signature=UNKNOWN_RANK))


def test_sort_along_another_axis_of_an_unknown_rank_needs_the_rank():
    with pytest.raises(ValueError, match="needs the rank"):
        sort = tf.function(lambda z: tf.sort(z, axis=0), input_signature=UNKNOWN_RANK)
        sort.get_concrete_function()
