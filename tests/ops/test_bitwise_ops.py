"""Bitwise ops: TF's clamped shifts, dtype constraints and broadcasting."""
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st
from hypothesis.extra import numpy as hnp

import eagerflow as tf
from eagerflow.errors import InvalidArgumentError
from eagerflow import bitwise as b

_INT_TYPES = [np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32, np.uint64]


@settings(max_examples=60, deadline=None)
@given(dtype=st.sampled_from(_INT_TYPES), data=st.data())
def test_shifts_clamp_the_amount(dtype, data):
    bits = np.dtype(dtype).itemsize * 8
    x = data.draw(hnp.arrays(dtype, 5))
    y = data.draw(hnp.arrays(dtype, 5, elements=st.integers(
        max(np.iinfo(dtype).min, -3), min(np.iinfo(dtype).max, bits + 3))))
    clamped = np.clip(y, 0, bits - 1)
    np.testing.assert_array_equal(b.left_shift(x, y).numpy(), np.left_shift(x, clamped))
    np.testing.assert_array_equal(b.right_shift(x, y).numpy(), np.right_shift(x, clamped))


def test_shift_values_match_tf():
    x = tf.constant([1, 1, 1, 3, -1], tf.int8)
    y = tf.constant([7, 8, 11, -1, 2], tf.int8)
    np.testing.assert_array_equal(b.left_shift(x, y).numpy(), [-128, -128, -128, 3, -4])
    x = tf.constant([-128, -128, 127, 8, 8], tf.int8)
    y = tf.constant([1, 8, 13, -1, -3], tf.int8)
    np.testing.assert_array_equal(b.right_shift(x, y).numpy(), [-64, -1, 0, 8, 8])


def test_logic_and_invert():
    assert b.bitwise_and(tf.constant([5], tf.uint8), 3).dtype == tf.uint8
    np.testing.assert_array_equal(b.bitwise_or([[1], [2]], [4, 8]).numpy(), [[5, 9], [6, 10]])
    np.testing.assert_array_equal(b.bitwise_xor([5], [3]).numpy(), [6])
    np.testing.assert_array_equal(b.invert(tf.constant([0, 5], tf.uint8)).numpy(), [255, 250])
    np.testing.assert_array_equal(b.invert([0, -1]).numpy(), [-1, 0])


@pytest.mark.parametrize("fn", [b.bitwise_and, b.left_shift])
def test_non_integer_types_are_rejected(fn):
    with pytest.raises(InvalidArgumentError, match="attr 'T' of float"):
        fn([1.0], [2.0])
    with pytest.raises(InvalidArgumentError, match="attr 'T' of bool"):
        fn([True], [False])


def test_mixed_dtypes_and_shapes_are_errors():
    with pytest.raises(InvalidArgumentError, match="expected to be a int8 tensor"):
        b.bitwise_and(tf.constant([1], tf.int8), tf.constant([1], tf.int32))
    with pytest.raises(InvalidArgumentError, match="Incompatible shapes"):
        b.bitwise_or([5, 1], [3, 2, 1])
    with pytest.raises(InvalidArgumentError, match="attr 'T' of float"):
        b.invert([1.5])
