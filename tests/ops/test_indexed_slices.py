"""IndexedSlices: sparse gather gradients, their conversion and accumulation."""
import warnings

import numpy as np
import pytest

import eagerflow as tf


def _gather_grad(params, fn):
    with tf.GradientTape() as g:
        if not isinstance(params, tf.Variable):
            g.watch(params)
        y = fn(params)
    return g.gradient(y, params)


def test_gather_gradient_is_sparse_and_prints_like_tf():
    p = tf.Variable([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
    g = _gather_grad(p, lambda p: tf.reduce_sum(tf.gather(p, [2, 0, 2]) * 2.0))
    assert type(g) is tf.IndexedSlices
    assert str(g) == ("IndexedSlices(indices=tf.Tensor([2 0 2], shape=(3,), dtype=int32), "
                      "values=tf.Tensor(\n[[2. 2.]\n [2. 2.]\n [2. 2.]], shape=(3, 2), "
                      "dtype=float32), dense_shape=tf.Tensor([3 2], shape=(2,), dtype=int32))")
    assert g.shape == (3, 2) and g.dtype == tf.float32
    dense = tf.convert_to_tensor(g)
    np.testing.assert_array_equal(dense.numpy(), [[2.0, 2.0], [0.0, 0.0], [4.0, 4.0]])
    p.assign_sub(g)  # variables take sparse gradients as dense values
    np.testing.assert_array_equal(p.numpy(), [[-1.0, 0.0], [3.0, 4.0], [1.0, 2.0]])
    with pytest.raises(TypeError):
        g * 0.1  # as in TF: convert first


def test_accumulation_sparse_with_sparse_and_dense():
    p = tf.constant([[1.0], [2.0], [3.0]])
    both = _gather_grad(p, lambda p: tf.reduce_sum(tf.gather(p, [0])) +
                        tf.reduce_sum(tf.gather(p, [2, 2])))
    assert type(both) is tf.IndexedSlices
    assert tf.convert_to_tensor(both).numpy().ravel().tolist() == [1.0, 0.0, 2.0]
    mixed = _gather_grad(p, lambda p: tf.reduce_sum(tf.gather(p, [1])) + tf.reduce_sum(p * 3))
    assert isinstance(mixed, tf.Tensor)
    assert mixed.numpy().ravel().tolist() == [3.0, 4.0, 3.0]


def test_sparse_gradients_flow_through_dense_consumers():
    p = tf.constant([[1.0, 2.0], [3.0, 4.0]])
    g = _gather_grad(p, lambda p: tf.reduce_sum(tf.square(tf.gather(p * 2.0, [1]))))
    np.testing.assert_allclose(g.numpy(), [[0.0, 0.0], [24.0, 32.0]])


def test_embedding_lookup_gradient_is_sparse():
    table = tf.Variable(np.ones((5, 3), np.float32))
    g = _gather_grad(table, lambda t: tf.reduce_sum(tf.nn.embedding_lookup(t, [[1, 4]])))
    assert type(g) is tf.IndexedSlices and g.indices.numpy().tolist() == [1, 4]


@pytest.mark.parametrize("signature", [None, [tf.TensorSpec([None, None], tf.float32)]])
def test_a_function_returns_a_gather_gradient_as_indexed_slices(signature):
    @tf.function(input_signature=signature)
    def grad(p):
        with tf.GradientTape() as t:
            t.watch(p)
            y = tf.gather(p, [0, 2, 0]) * 2.0
        return t.gradient(y, p)

    g = grad(tf.ones([4, 3]))
    assert isinstance(g, tf.IndexedSlices)
    assert g.indices.numpy().tolist() == [0, 2, 0]
    assert g.dense_shape.numpy().tolist() == [4, 3]
    np.testing.assert_array_equal(g.values.numpy(), np.full((3, 3), 2.0, np.float32))
    assert len(tf.nest.flatten(g, expand_composites=True)) == 3


@pytest.mark.parametrize("compiled", [False, True])
def test_identity_keeps_indexed_slices(compiled):
    # as TF's tf.identity of a composite: the parts pass through, the gradient stays sparse
    v = tf.Variable(np.arange(8, dtype=np.float32).reshape(4, 2))

    def grad():
        with tf.GradientTape() as tape:
            y = tf.reduce_sum(tf.gather(v, [0, 2, 2]) ** 2)
        return tf.identity(tape.gradient(y, v))

    g = tf.function(grad)() if compiled else grad()
    assert type(g) is tf.IndexedSlices
    assert g.indices.numpy().tolist() == [0, 2, 2]
    assert g.values.numpy().tolist() == [[0., 2.], [8., 10.], [8., 10.]]
    assert g.dense_shape.numpy().tolist() == [4, 2]
    unshaped = tf.identity(tf.IndexedSlices(tf.constant([[1., 2.]]), tf.constant([1])))
    assert type(unshaped) is tf.IndexedSlices and unshaped.dense_shape is None


def test_lookups_in_a_table_in_shards_give_each_shard_indexed_slices():
    shards = [tf.Variable(tf.ones([3, 2])), tf.Variable(tf.ones([2, 2]))]
    with tf.GradientTape(persistent=True) as tape:
        plain = tf.reduce_sum(tf.nn.embedding_lookup(shards, [0, 4, 4]))
        clipped = tf.reduce_sum(tf.nn.embedding_lookup(shards, [4, 1], max_norm=0.5))
    first, second = tape.gradient(plain, shards)
    assert type(first) is tf.IndexedSlices and type(second) is tf.IndexedSlices
    assert first.indices.numpy().tolist() == [0] and second.indices.numpy().tolist() == [1, 1]
    np.testing.assert_array_equal(tf.convert_to_tensor(second).numpy(), [[0, 0], [2, 2]])
    assert first.dense_shape.numpy().tolist() == [3, 2]
    first, second = tape.gradient(clipped, shards)
    assert first.indices.numpy().tolist() == [1] and second.indices.numpy().tolist() == [1]
    # a concatenation along another axis still gets its dense pieces
    x, y = tf.Variable(tf.ones([3, 1])), tf.Variable(tf.ones([3, 2]))
    with tf.GradientTape() as tape:
        total = tf.reduce_sum(tf.gather(tf.concat([x, y], 1), [2]))
    np.testing.assert_array_equal(tape.gradient(total, [x, y])[1].numpy(), [[0, 0], [0, 0], [1, 1]])


def test_conversion_to_another_dtype_is_refused_before_densifying():
    s = tf.IndexedSlices(tf.constant([[1.0, 1.0]]), tf.constant([2]), tf.constant([3, 2]))
    with pytest.raises(ValueError, match="Incompatible tensor conversion requested to `dtype` "
                                         "float64 for IndexedSlices"):
        tf.convert_to_tensor(s, dtype=tf.float64)
    assert tf.convert_to_tensor(s, dtype=tf.float32).shape == (3, 2)


def test_densifying_a_huge_gradient_in_a_graph_warns_as_tf_does():
    @tf.function
    def dense_sum(values, dense_shape):
        s = tf.IndexedSlices(values, tf.constant([0]), tf.constant(dense_shape))
        return tf.reduce_sum(tf.convert_to_tensor(s))

    with pytest.warns(UserWarning, match="to a dense Tensor with 120000000 elements. This may "
                                         "consume a large amount of memory"):
        dense_sum.get_concrete_function(tf.TensorSpec([1, 600]), [200000, 600])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        dense_sum.get_concrete_function(tf.TensorSpec([1, 600]), [2000, 600])  # small: silent
