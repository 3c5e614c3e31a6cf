"""tf.math.confusion_matrix: TF's values, dtypes, checks and messages, eagerly and traced."""
import re

import pytest

import eagerflow as tf
from tests.op_errors import op_text

_Invalid = tf.errors.InvalidArgumentError


def test_counts_and_weights():
    assert repr(tf.math.confusion_matrix([1, 2, 4], [2, 2, 4])) == (
        "<tf.Tensor: shape=(5, 5), dtype=int32, numpy=\n"
        "array([[0, 0, 0, 0, 0],\n"
        "       [0, 0, 1, 0, 0],\n"
        "       [0, 0, 1, 0, 0],\n"
        "       [0, 0, 0, 0, 0],\n"
        "       [0, 0, 0, 0, 1]], dtype=int32)>")
    assert repr(tf.math.confusion_matrix([1, 2], [1, 2], weights=[0.5, 0.25],
                                         dtype=tf.float64)) == (
        "<tf.Tensor: shape=(3, 3), dtype=float64, numpy=\n"
        "array([[0.  , 0.  , 0.  ],\n"
        "       [0.  , 0.5 , 0.  ],\n"
        "       [0.  , 0.  , 0.25]])>")
    # weights are cast to `dtype`; repeated pairs add up
    assert tf.math.confusion_matrix([1, 2], [2, 2], weights=[1.5, 2]).numpy().tolist() == [
        [0, 0, 0], [0, 0, 1], [0, 0, 2]]
    matrix = tf.math.confusion_matrix([1, 2, 4], [2, 2, 4], num_classes=6, weights=[1.0, 2, 3],
                                      dtype=tf.float32)
    assert matrix.shape == (6, 6) and matrix.dtype == tf.float32 and matrix[4, 4] == 3


def test_inputs_are_cast_and_squeezed():
    # float labels truncate to int64, bools count as 0 and 1, a num_classes tensor or float works
    assert tf.math.confusion_matrix([1.5, 2, 4], [2, 2.7, 4])[1, 2] == 1
    assert tf.math.confusion_matrix([True, False], [True, True]).numpy().tolist() == [
        [0, 1], [0, 1]]
    assert tf.math.confusion_matrix([1, 2], [1, 2], num_classes=3.7).shape == (3, 3)
    assert tf.math.confusion_matrix([1, 2], [2, 2], num_classes=tf.constant(3)).shape == (3, 3)
    assert tf.math.confusion_matrix(tf.constant([1, 2], tf.int64), [2, 2],
                                    dtype=tf.int64).dtype == tf.int64
    # a trailing dimension of size 1 that one side has over the other is dropped
    assert tf.math.confusion_matrix([[1], [2]], [2, 2]).numpy().tolist() == [
        [0, 0, 0], [0, 0, 1], [0, 0, 1]]
    assert tf.math.confusion_matrix([1, 2], [[2], [2]]).shape == (3, 3)
    assert tf.math.confusion_matrix([[1, 2]], [[1, 1]]).numpy().tolist() == [
        [0, 0, 0], [0, 1, 1], [0, 0, 0]]


@pytest.mark.parametrize("kwargs, error, message", [
    (dict(labels=[1, -2, 4], predictions=[2, 2, 4]), _Invalid,
     r"^`labels` contains negative values.  \nCondition x >= 0 did not hold element-wise:\n"
     r"x \(shape=\(3,\) dtype=int64\) = \n\['1', '-2', '4'\]$"),
    (dict(labels=[1, 2, 4], predictions=[2, -2, 4]), _Invalid,
     r"^`predictions` contains negative values.  \nCondition x >= 0"),
    (dict(labels=[1, 2, 4], predictions=[2, 2, 4], num_classes=4), _Invalid,
     r"^`labels` out of bound\nCondition x < y did not hold.\nFirst 3 elements of x:\n\[1 2 4\]\n"
     r"First 1 elements of y:\n\[4\]$"),
    (dict(labels=[1, 2], predictions=[1, 5], num_classes=3), _Invalid,
     r"^`predictions` out of bound\n"),
    (dict(labels=[1, 2], predictions=[2, 2], weights=[1, 2, 3]), ValueError,
     r"^Shapes \(2,\) and \(3,\) are incompatible$"),
    (dict(labels=[1, 2], predictions=[1, 1], num_classes=3, weights=[[1, 2]]), ValueError,
     r"^Shapes \(2,\) and \(1, 2\) are incompatible$"),
    (dict(labels=[1, 2, 4], predictions=[2, 2]), _Invalid,
     r"^Shapes of all inputs must match: values\[0\].shape = \[3\] != values\[1\].shape = \[2\]"),
])
def test_errors(kwargs, error, message):
    with pytest.raises(error) as info:
        tf.math.confusion_matrix(**kwargs)
    assert re.search(message, op_text(info.value)), str(info.value)


def test_in_a_function():
    counted = tf.function(lambda l, p: tf.math.confusion_matrix(l, p))
    bounded = tf.function(lambda l, p: tf.math.confusion_matrix(l, p, num_classes=4))
    spec = tf.TensorSpec([None], tf.int32)
    assert counted.get_concrete_function(spec, spec).outputs[0].shape.as_list() == [None, None]
    assert bounded.get_concrete_function(spec, spec).outputs[0].shape == (4, 4)
    assert counted(tf.constant([1, 2]), tf.constant([1, 1])).numpy().tolist() == [
        [0, 0, 0], [0, 1, 0], [0, 1, 0]]
    # the checks run with the graph
    with pytest.raises(_Invalid, match=r"assertion failed: \[`labels` contains negative "
                                       r"values.  \] \[Condition x >= 0 did not hold "
                                       r"element-wise:\]"):
        counted(tf.constant([1, -2]), tf.constant([1, 1]))
    with pytest.raises(_Invalid, match=r"assertion failed: \[`predictions` out of bound\] "
                                       r"\[Condition x < y did not hold element-wise:\]"):
        bounded(tf.constant([1, 2]), tf.constant([1, 4]))
