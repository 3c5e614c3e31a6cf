"""Specs of the Python-function ops (autodiff/script_ops.py): EagerPyFunc (`py_function`,
differentiable by running the function again under a tape), PyFunc and PyFuncStateless
(`numpy_function`), the last two run eagerly as the op a traced function holds."""
import numpy as np

import eagerflow as tf
from tests.internals import dispatch
from tests.ops.spec import OpSpec, rand

_NO_GRAD = "a NumPy function (tf.numpy_function has no gradient)"
_TRACED = {}  # (fn, dtypes) -> concrete function (its graph holds the Python function)


def _graph_op(fn, op_type):
    """``run(*tensors)``: the `op_type` op of ``fn`` traced on tensors like them, dispatched
    on them."""
    def run(*tensors):
        key = (fn, tuple((t.dtype, tuple(t.shape)) for t in tensors))
        concrete = _TRACED.get(key)
        if concrete is None:
            concrete = _TRACED[key] = tf.function(fn, autograph=False).get_concrete_function(
                *[tf.TensorSpec(t.shape, t.dtype) for t in tensors])
        op, = [op for op in concrete.graph.get_operations() if op.type == op_type]
        by_input = dict(zip(map(id, concrete.inputs), tensors))
        out = dispatch(op.op_def, [by_input[id(t)] for t in op.inputs], op.attrs)
        return out if len(out) > 1 else out[0]
    return run


def _sinh_cos(x, y):
    return tf.py_function(lambda a, b: (tf.sinh(a) * b, tf.cos(a)), [x, y],
                          [tf.float32, tf.float32])


def _numpy(x, y):
    return tf.numpy_function(lambda a, b: np.sinh(a) * b, [x, y], tf.float32)


def _numpy_stateless(x):
    return tf.numpy_function(lambda a: np.abs(a).astype(np.int64), [x], tf.int64,
                             stateful=False)


SPECS = [
    OpSpec("EagerPyFunc", _sinh_cos, [rand(2, 3), rand(2, 3, seed=1)],
           lambda x, y: (np.sinh(x) * y, np.cos(x)), rtol=1e-5),
    OpSpec("EagerPyFunc", lambda x: tf.py_function(lambda a: tf.square(a), [x], tf.float64),
           [rand(4, dtype=np.float64)], lambda x: x * x, name="EagerPyFunc-float64"),
    OpSpec("PyFunc", _graph_op(_numpy, "PyFunc"), [rand(3), rand(3, seed=2)],
           lambda x, y: np.sinh(x) * y, grad=_NO_GRAD),
    OpSpec("PyFuncStateless", _graph_op(_numpy_stateless, "PyFuncStateless"),
           [np.array([-2, 3], np.int32)], lambda x: np.abs(x).astype(np.int64), grad=_NO_GRAD),
]
