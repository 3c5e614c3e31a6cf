"""Specs of the gradient accumulator ops (accumulator_ops.py), run eagerly (a sparse
accumulator, which TF makes in graphs only, is made in a TF 1 graph)."""
import numpy as np

import eagerflow as tf
from tests.ops.spec import OpSpec

_NO_GRAD = "accumulator op"


def _mean_of_two(x):
    acc = tf.compat.v1.ConditionalAccumulator(tf.float32, shape=x.shape[1:])
    acc.apply_grad(x[0])
    acc.set_global_step(0)
    acc.apply_grad(x[1], local_step=0)
    return acc.num_accumulated(), acc.take_grad(2)


def _sparse(x):
    with tf.compat.v1.Graph().as_default():
        acc = tf.compat.v1.SparseConditionalAccumulator(tf.float32, shape=[4, 2])
    acc.apply_grad([0, 2], x[:2])
    acc.apply_grad([2], x[2:])
    return tuple(acc.take_grad(2))


_ROWS = np.arange(6, dtype=np.float32).reshape(3, 2)
_MEAN = (np.int32(2), (_ROWS[0] + _ROWS[1]) / 2)
_SPARSE = (np.array([0, 2], np.int64), np.stack([_ROWS[0], (_ROWS[1] + _ROWS[2]) / 2]),
           np.array([4, 2], np.int64))

SPECS = [OpSpec(name, _mean_of_two, [_ROWS], lambda x: _MEAN, grad=_NO_GRAD, name=name)
         for name in ("ResourceAccumulatorApplyGradient", "ResourceAccumulatorTakeGradient",
                      "ResourceAccumulatorSetGlobalStep", "ResourceAccumulatorNumAccumulated")]
SPECS += [OpSpec(name, _sparse, [_ROWS], lambda x: _SPARSE, grad=_NO_GRAD, name=name)
          for name in ("SparseAccumulatorApplyGradient", "SparseAccumulatorTakeGradient")]
