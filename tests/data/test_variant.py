"""tf.data.experimental.to_variant / from_variant: a dataset through a variant tensor and
back (eagerly and in a function), and TF's errors when the structure does not fit."""
import pytest

import eagerflow as tf

DS = tf.data.Dataset.range(5).map(lambda x: (x, tf.cast(x, tf.float32) * 2))
ROWS = [(i, 2.0 * i) for i in range(5)]


def test_round_trip_eagerly():
    v = tf.data.experimental.to_variant(DS)
    assert v.dtype == tf.variant and v.shape == ()
    spec = tf.data.experimental.get_structure(DS)
    assert spec == (tf.TensorSpec([], tf.int64), tf.TensorSpec([], tf.float32))
    back = tf.data.experimental.from_variant(v, spec)
    assert back.element_spec == spec
    assert [(int(a), float(b)) for a, b in back.as_numpy_iterator()] == ROWS
    assert back.cardinality().numpy() == 5
    doubled = back.map(lambda a, b: a * 2)
    assert list(doubled.as_numpy_iterator()) == [0, 2, 4, 6, 8]


def test_round_trip_in_function():
    @tf.function
    def total(d):
        v = tf.data.experimental.to_variant(d)
        assert v.dtype == tf.variant and v.shape == ()
        back = tf.data.experimental.from_variant(v, d.element_spec)
        return back.reduce(tf.constant(0, tf.int64), lambda s, e: s + e[0])
    assert total(DS).numpy() == 10

    @tf.function(input_signature=[tf.data.DatasetSpec(tf.TensorSpec([], tf.int64))])
    def loop(d):
        out = tf.constant(0, tf.int64)
        for x in tf.data.experimental.from_variant(tf.data.experimental.to_variant(d),
                                                   tf.TensorSpec([], tf.int64)):
            out += x
        return out
    assert loop(tf.data.Dataset.range(3)).numpy() == 3
    assert loop(tf.data.Dataset.range(3).map(lambda x: x + 1)).numpy() == 6


def test_variant_made_in_function_read_eagerly():
    @tf.function
    def make():
        return tf.data.experimental.to_variant(tf.data.Dataset.from_tensor_slices([1, 2, 3]))
    v = make()
    assert v.dtype == tf.variant and v.shape == ()
    back = tf.data.experimental.from_variant(v, tf.TensorSpec([], tf.int32))
    assert list(back.as_numpy_iterator()) == [1, 2, 3]


def test_tuple_structure_wraps_elements():
    v = tf.data.experimental.to_variant(tf.data.Dataset.range(2))
    got = list(tf.data.experimental.from_variant(v, (tf.TensorSpec([], tf.int64),)))
    assert [tuple(int(t) for t in e) for e in got] == [(0,), (1,)]


@pytest.mark.parametrize("value, spec, message", [
    (DS, tf.TensorSpec([], tf.int64),
     "Number of components does not match: expected 1 types but got 2."),
    (tf.data.Dataset.range(3), tf.TensorSpec([], tf.int32),
     "Data type mismatch at component 0: expected int32 but got int64."),
])
def test_structure_that_does_not_fit_fails_when_iterated(value, spec, message):
    back = tf.data.experimental.from_variant(tf.data.experimental.to_variant(value), spec)
    assert back.element_spec == spec
    with pytest.raises(tf.errors.InvalidArgumentError, match=message):
        list(back)


def test_errors():
    with pytest.raises(AttributeError, match="'list' object has no attribute '_variant_tensor'"):
        tf.data.experimental.to_variant([1, 2])
    not_variant = tf.data.experimental.from_variant(tf.constant(1), tf.TensorSpec([], tf.int32))
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"cannot compute MakeIterator as input #0\(zero-based\) was "
                             r"expected to be a variant tensor but is a int32 tensor"):
        list(not_variant)
    with pytest.raises(TypeError, match="Invalid `dataset_or_iterator`"):
        tf.data.experimental.get_structure(5)
    assert tf.data.experimental.get_structure(iter(DS)) == DS.element_spec
