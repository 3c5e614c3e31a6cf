"""Specs of the variable ops (core/variables.py): reads and writes through handles."""
import numpy as np

import eagerflow as tf
from tests.ops.spec import OpSpec, rand


def _assign(method):
    def fn(x):
        v = tf.Variable(np.zeros(x.shape, x.dtype.as_numpy_dtype))
        getattr(v, method)(x)
        return v.read_value()
    return fn


def _slice_assign(x):
    v = tf.Variable(np.zeros((3,) + x.shape, x.dtype.as_numpy_dtype))
    v[1].assign(x)
    return v.read_value()


def _slice_assign_ref(x):
    out = np.zeros((3,) + x.shape, x.dtype)
    out[1] = x
    return out


SPECS = [
    OpSpec("ReadVariableOp", lambda x: tf.Variable(x).read_value(), [rand(2, 3)], lambda x: x,
           grad="a variable copies its initial value: checked in tests/autodiff"),
    OpSpec("ReadVariableOp", lambda x: tf.Variable(x) * 1, [rand(4, dtype=np.int32)],
           lambda x: x, name="ReadVariableOp-int", grad="integer"),
    OpSpec("AssignVariableOp", _assign("assign"), [rand(2, 2)], lambda x: x,
           grad="variable update"),
    OpSpec("AssignAddVariableOp", _assign("assign_add"), [rand(3)], lambda x: x,
           grad="variable update"),
    OpSpec("AssignSubVariableOp", _assign("assign_sub"), [rand(3, dtype=np.float64)],
           lambda x: -x, grad="variable update"),
    OpSpec("ResourceStridedSliceAssign", _slice_assign, [rand(2, 2)], _slice_assign_ref,
           grad="variable update"),
    OpSpec("ResourceStridedSliceAssign", _slice_assign, [rand(4, dtype=np.int32)],
           _slice_assign_ref, name="ResourceStridedSliceAssign-int", grad="variable update"),
]
