"""`tf.experimental.Optional` as a value functions return and datasets carry (TF 2.21's
behaviour)."""
import pytest

import eagerflow as tf

_INT = tf.TensorSpec([], tf.int32)


def test_a_function_returns_and_takes_optionals_made_from_its_tensors():
    @tf.function
    def twice(x):
        return tf.experimental.Optional.from_value(x * 2)

    o = twice(tf.constant(3))
    assert bool(o.has_value()) and int(o.get_value()) == 6
    assert o.element_spec == _INT

    @tf.function
    def present(o):
        return o.has_value()

    assert bool(present(tf.experimental.Optional.from_value(1)))
    assert not bool(present(tf.experimental.Optional.empty(_INT)))


def test_branches_join_optionals():
    @tf.function
    def positive(x):
        o = tf.cond(x > 0, lambda: tf.experimental.Optional.from_value(x),
                    lambda: tf.experimental.Optional.empty(_INT))
        return tf.cond(o.has_value(), o.get_value, lambda: -1)

    assert int(positive(tf.constant(5))) == 5 and int(positive(tf.constant(-5))) == -1
    with pytest.raises(tf.errors.InvalidArgumentError, match="does not have a value"):
        tf.function(lambda: tf.experimental.Optional.empty(_INT).get_value())()


def test_datasets_carry_optionals():
    o = tf.experimental.Optional.from_value(tf.constant([1, 2]))
    ds = tf.data.Dataset.from_tensors(o)
    assert ds.element_spec == tf.OptionalSpec(tf.TensorSpec([2], tf.int32))
    (element,) = list(ds)
    assert element.get_value().numpy().tolist() == [1, 2]
    doubled = tf.data.Dataset.range(3).map(lambda x: tf.experimental.Optional.from_value(x * 2))
    assert doubled.element_spec == tf.OptionalSpec(tf.TensorSpec([], tf.int64))
    assert [int(e.get_value()) for e in doubled] == [0, 2, 4]
    assert list(doubled.map(lambda e: e.get_value() + 1).as_numpy_iterator()) == [1, 3, 5]
    pairs = tf.data.Dataset.zip((doubled, tf.data.Dataset.range(3))).filter(
        lambda e, i: e.has_value() & (i > 0))
    assert [(int(e.get_value()), int(i)) for e, i in pairs] == [(2, 1), (4, 2)]
    some = tf.data.Dataset.from_tensor_slices([1, 2]).map(lambda x: tf.cond(
        x > 1, lambda: tf.experimental.Optional.from_value(x),
        lambda: tf.experimental.Optional.empty(_INT)))
    assert [bool(e.has_value()) for e in some] == [False, True]
    empty = tf.data.Dataset.from_tensors(
        tf.experimental.Optional.empty(tf.TensorSpec([2], tf.float32)))
    assert not bool(empty.map(lambda e: e.has_value()).get_single_element())


def test_a_function_iterates_a_dataset_of_optionals():
    doubled = tf.data.Dataset.range(4).map(lambda x: tf.experimental.Optional.from_value(x * 2))

    @tf.function
    def total(ds):
        s = tf.constant(0, tf.int64)
        for e in ds:
            s += e.get_value()
        return s

    assert int(total(doubled)) == 12
