"""tf.bitcast against TF's values, shapes and errors (checked on TF 2.21)."""
import numpy as np
import pytest

import eagerflow as tf


def test_values_and_shapes():
    assert tf.bitcast(tf.constant([1.0, 2.0]), tf.int32).numpy().tolist() == [1065353216,
                                                                              1073741824]
    wide = tf.bitcast(tf.constant([[1, 2], [3, 4]], tf.int32), tf.int64)
    assert wide.dtype == tf.int64 and wide.numpy().tolist() == [8589934593, 17179869187]
    narrow = tf.bitcast(tf.constant([1], tf.int64), tf.int16)
    assert narrow.shape == (1, 4) and narrow.numpy().tolist() == [[1, 0, 0, 0]]
    scalar = tf.bitcast(tf.constant(1.0), tf.int32)
    assert scalar.shape == () and int(scalar) == 1065353216
    assert tf.bitcast(tf.constant([1 + 2j], tf.complex64), tf.float32).numpy().tolist() == [
        [1.0, 2.0]]
    assert int(tf.bitcast(tf.constant([1.0], tf.bfloat16), tf.uint16)[0]) == 16256
    assert tf.bitcast(tf.zeros([0, 2], tf.int32), tf.int64).shape == (0,)
    assert tf.bitcast([1.0, 2.0], "int32").dtype == tf.int32
    assert int(tf.bitcast(tf.Variable([1.0]), tf.int32)[0]) == 1065353216
    assert int(tf.raw_ops.Bitcast(input=tf.constant([1.0]), type=tf.int32)[0]) == 1065353216


def test_eager_errors():
    for x in (tf.constant([1, 2, 3]), tf.constant(1)):
        with pytest.raises(tf.errors.InvalidArgumentError, match="Cannot bitcast from 3 to 9"):
            tf.bitcast(x, tf.int64)
    with pytest.raises(tf.errors.InvalidArgumentError, match="attr 'T' of string"):
        tf.bitcast(tf.constant(["a"]), tf.int32)
    with pytest.raises(tf.errors.InvalidArgumentError, match="attr 'T' of bool"):
        tf.bitcast(tf.constant([True]), tf.int8)
    with pytest.raises(tf.errors.InvalidArgumentError, match="attr 'type' of string"):
        tf.bitcast(tf.constant([1]), tf.string)


def test_in_function():
    shapes = []

    @tf.function(input_signature=[tf.TensorSpec([None, 2], tf.int32)])
    def f(x):
        shapes.extend([tf.bitcast(x, tf.int64).shape, tf.bitcast(x, tf.int8).shape])
        return tf.bitcast(x, tf.int64)

    assert f(tf.constant([[1, 2]])).numpy().tolist() == [8589934593]
    assert shapes == [tf.TensorShape([None]), tf.TensorShape([None, 2, 4])]

    @tf.function(input_signature=[tf.TensorSpec([None, None], tf.int32)])
    def g(x):
        return tf.bitcast(x, tf.int64)

    with pytest.raises(tf.errors.InvalidArgumentError, match="Cannot bitcast from 3 to 9"):
        g(tf.constant([[1, 2, 3]]))

    @tf.function
    def h(x):
        return tf.bitcast(x, tf.int64)

    with pytest.raises(ValueError, match=r"Cannot bitcast from 3 to 9 due to shape\. 3 does not "
                                         r"match 2"):
        h(tf.constant([1, 2, 3]))
    with pytest.raises(ValueError, match="Shape must be at least rank 1 but is rank 0"):
        h(tf.constant(1))


def test_no_gradient():
    x = tf.Variable([1.0])
    with tf.GradientTape() as tape:
        y = tf.bitcast(x, tf.int32)
    with pytest.raises(LookupError, match="gradient registry has no entry for: Bitcast"):
        tape.gradient(y, x)
