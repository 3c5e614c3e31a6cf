"""Specs of the bitwise ops (bitwise_ops.py)."""
import numpy as np

import eagerflow as tf
from eagerflow import bitwise as b
from tests.ops.spec import OpSpec, rand

_NO_GRAD = "bitwise"


def _pair(dtype, low=-100, high=100):
    return [rand(3, 4, dtype=dtype, low=low, high=high),
            rand(4, dtype=dtype, low=low, high=high, seed=1)]


def _shift_ref(fn):
    """NumPy's shift with the amount clamped to [0, bits - 1]."""
    return lambda x, y: fn(x, np.clip(y, 0, x.dtype.itemsize * 8 - 1))


_AMOUNTS = np.array([0, 1, 7, 8, 30, -1], np.int8)

def _population_count(x):
    return np.unpackbits(x.view(np.uint8).reshape(x.shape + (-1,)), axis=-1).sum(
        -1).astype(np.uint8)


SPECS = [
    OpSpec("PopulationCount", lambda x: tf.raw_ops.PopulationCount(x=x),
           [np.array([[0, -1, 5], [-128, 127, 64]], np.int8)], _population_count, grad=_NO_GRAD),
    OpSpec("PopulationCount", lambda x: tf.raw_ops.PopulationCount(x=x),
           [np.array([0, 2**64 - 1, 2**40 + 3], np.uint64)], _population_count,
           name="PopulationCount-uint64", grad=_NO_GRAD),
    OpSpec("BitwiseAnd", b.bitwise_and, _pair(np.int32), np.bitwise_and, grad=_NO_GRAD),
    OpSpec("BitwiseAnd", b.bitwise_and, _pair(np.uint8, 0, 255), np.bitwise_and,
           name="BitwiseAnd-uint8", grad=_NO_GRAD),
    OpSpec("BitwiseOr", b.bitwise_or, _pair(np.int64), np.bitwise_or, grad=_NO_GRAD),
    OpSpec("BitwiseXor", b.bitwise_xor, _pair(np.int16), np.bitwise_xor, grad=_NO_GRAD),
    OpSpec("Invert", b.invert, [rand(2, 3, dtype=np.int32, low=-9, high=9)], np.invert,
           grad=_NO_GRAD),
    OpSpec("Invert", b.invert, [np.array([0, 5, 255], np.uint8)], np.invert,
           name="Invert-uint8", grad=_NO_GRAD),
    OpSpec("LeftShift", b.left_shift, [np.array([1, 3, 1, 1, -1, 100], np.int8), _AMOUNTS],
           _shift_ref(np.left_shift), grad=_NO_GRAD),
    OpSpec("LeftShift", b.left_shift, _pair(np.uint32, 0, 40), _shift_ref(np.left_shift),
           name="LeftShift-uint32", grad=_NO_GRAD),
    OpSpec("RightShift", b.right_shift,
           [np.array([-128, 127, -128, -1, 64, 8], np.int8), _AMOUNTS],
           _shift_ref(np.right_shift), grad=_NO_GRAD),
    OpSpec("RightShift", b.right_shift, _pair(np.int64, -2**40, 70),
           _shift_ref(np.right_shift), name="RightShift-int64", grad=_NO_GRAD),
]
