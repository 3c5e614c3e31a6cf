"""Specs of the Python-function ops (autodiff/script_ops.py): EagerPyFunc (`py_function`,
differentiable by running the function again under a tape), PyFunc and PyFuncStateless
(`numpy_function`), the last two run eagerly as the op a traced function holds."""
import numpy as np

import eagerflow as tf
from tests.ops.spec import OpSpec, graph_op, rand

_NO_GRAD = "a NumPy function (tf.numpy_function has no gradient)"


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
    OpSpec("PyFunc", graph_op(_numpy, "PyFunc", unpack=True), [rand(3), rand(3, seed=2)],
           lambda x, y: np.sinh(x) * y, grad=_NO_GRAD),
    OpSpec("PyFuncStateless", graph_op(_numpy_stateless, "PyFuncStateless",
                                              unpack=True),
           [np.array([-2, 3], np.int32)], lambda x: np.abs(x).astype(np.int64), grad=_NO_GRAD),
]
