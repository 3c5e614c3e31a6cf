"""Datasets built inside `function` from its tensors: built again from their values on every
call, as TF builds its dataset ops at run time.

The expected values were checked against TensorFlow 2.21.
"""
import numpy as np
import pytest

import eagerflow as tf


def test_from_tensor_slices_of_an_argument_reads_each_call():
    @tf.function
    def total(x):
        s = 0.
        for e in tf.data.Dataset.from_tensor_slices(x):
            s += e
        return s

    assert float(total(tf.constant([1., 2., 3.]))) == 6.
    assert float(total(tf.constant([1., 2., 3., 4.]))) == 10.
    assert total.experimental_get_tracing_count() == 2  # a new shape retraces, as in TF


def test_range_of_a_tensor():
    @tf.function
    def total(n):
        s = tf.constant(0, tf.int64)
        for e in tf.data.Dataset.range(n):
            s += e
        return s

    assert int(total(tf.constant(5, tf.int64))) == 10
    assert int(total(tf.constant(7, tf.int64))) == 21
    assert total.experimental_get_tracing_count() == 1


def test_from_tensors_repeat_reduce():
    @tf.function
    def f(x):
        ds = tf.data.Dataset.from_tensors(x).repeat(3)
        return ds.reduce(tf.zeros_like(x), lambda s, e: s + e)

    np.testing.assert_array_equal(f(tf.constant([1., 2.])).numpy(), [3., 6.])
    np.testing.assert_array_equal(f(tf.constant([0., 5.])).numpy(), [0., 15.])


def test_computed_tensor_map_and_batch_of_a_tensor_size():
    @tf.function
    def f(x, y):
        ds = tf.data.Dataset.from_tensor_slices({"a": x * 2., "b": y}).map(
            lambda e: {"a": e["a"] + 1., "b": e["b"]})
        ds = ds.batch(tf.cast(tf.shape(x)[0] - 1, tf.int64))
        return ds.reduce(tf.constant(0.), lambda s, e: s + tf.reduce_sum(e["a"]) * tf.cast(
            tf.size(e["b"]), tf.float32))

    # batches [3, 5] and [7]: 8 * 2 + 7 * 1
    assert float(f(tf.constant([1., 2., 3.]), tf.constant([1, 2, 3]))) == 23.
    assert float(f(tf.constant([1., 1., 1., 1.]), tf.constant([1, 2, 3, 4]))) == 27. + 3.


def test_zip_take_of_a_tensor_count_passes_tuple_elements_whole_to_reduce():
    @tf.function
    def f(x):
        z = tf.data.Dataset.zip((tf.data.Dataset.range(3),
                                 tf.data.Dataset.from_tensor_slices(x)))
        z = z.take(tf.cast(tf.size(x) - 1, tf.int64))
        return z.reduce(tf.constant(0, tf.int64),
                        lambda s, e: s + e[0] + tf.cast(e[1], tf.int64))

    assert int(f(tf.constant([10, 20, 30]))) == 31


def test_shared_node_and_iter_next_in_the_function():
    @tf.function
    def f(x):
        ds = tf.data.Dataset.from_tensor_slices(x)
        it = iter(tf.data.Dataset.zip((ds, ds.skip(1))))
        a, b = next(it)
        return a * 10. + b

    assert float(f(tf.constant([1., 2., 3.]))) == 12.
    assert float(f(tf.constant([4., 5.]))) == 45.


def test_map_and_filter_functions_closing_over_the_function_arguments():
    @tf.function
    def f(x, limit):
        ds = tf.data.Dataset.from_tensor_slices(x).map(lambda e: e * x[0])
        ds = ds.filter(lambda e: e < limit)
        return ds.reduce(0., lambda s, e: s + e)

    assert float(f(tf.constant([2., 3.]), tf.constant(100.))) == 10.
    assert float(f(tf.constant([3., 1., 5.]), tf.constant(10.))) == 12.
    assert float(f(tf.constant([3., 1., 5.]), tf.constant(4.))) == 3.
    assert f.experimental_get_tracing_count() == 2


def test_for_over_a_dataset_lets_the_state_change_shape_as_a_reduce():
    @tf.function
    def f(x):
        out = tf.zeros([0])
        n = 0
        for b in tf.data.Dataset.from_tensor_slices(x * 2.).map(lambda e: e + 1.).batch(2):
            out = tf.concat([out, b], 0)
            n += 1
        return out, n

    out, n = f(tf.constant([1., 2., 3.]))
    assert out.numpy().tolist() == [3., 5., 7.]
    assert int(n) == 2


def test_a_variable_is_read_when_the_iteration_starts():
    v = tf.Variable([1., 2.])

    @tf.function
    def total():
        return tf.data.Dataset.from_tensor_slices(v).reduce(0., lambda s, e: s + e)

    assert float(total()) == 3.
    v.assign([5., 6.])
    assert float(total()) == 11.


def test_iterated_in_a_nested_function():
    @tf.function
    def f(x):
        ds = tf.data.Dataset.from_tensor_slices(x)

        @tf.function
        def inner():
            return ds.reduce(0., lambda s, e: s + e)
        return inner()

    assert float(f(tf.constant([1., 2., 3.]))) == 6.


def test_get_single_element_inside_a_function():
    @tf.function
    def f(x):
        return tf.data.Dataset.from_tensors(x).get_single_element()

    np.testing.assert_array_equal(f(tf.constant([1., 2.])).numpy(), [1., 2.])

    @tf.function
    def g(x):
        return tf.data.Dataset.from_tensor_slices(x).get_single_element()

    with pytest.raises(tf.errors.InvalidArgumentError, match="more than one element"):
        g(tf.constant([1., 2.]))
    with pytest.raises(tf.errors.InvalidArgumentError, match="Dataset was empty"):
        g(tf.zeros([0]))


def test_a_seeded_shuffle_built_in_the_function_gives_the_same_order_every_call():
    @tf.function
    def f(x):
        return tf.data.Dataset.from_tensor_slices(x).shuffle(10, seed=1).batch(
            10).get_single_element()

    assert f(tf.range(5)).numpy().tolist() == [0, 4, 3, 1, 2]
    assert f(tf.range(5)).numpy().tolist() == [0, 4, 3, 1, 2]


def test_cardinality_of_a_dataset_built_from_the_function_tensors_is_counted_per_call():
    @tf.function
    def f(n, x):
        return (tf.data.Dataset.range(n).cardinality(),
                tf.data.Dataset.from_tensor_slices(x).batch(2).cardinality(),
                tf.data.Dataset.range(5).cardinality())

    assert [int(t) for t in f(tf.constant(7, tf.int64), tf.zeros([5]))] == [7, 3, 5]
    assert [int(t) for t in f(tf.constant(2, tf.int64), tf.zeros([1]))] == [2, 1, 5]

    @tf.function
    def g(ds):
        return ds.cardinality()

    assert int(g(tf.data.Dataset.range(4))) == 4
    assert int(g(tf.data.Dataset.range(9))) == 9
