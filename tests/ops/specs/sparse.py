"""Specs of the sparse-tensor ops of sparse_ops.py (the others compose dense ops)."""
import numpy as np

import eagerflow as tf
from tests.ops.spec import OpSpec


def _words(*words):
    out = np.empty(len(words), object)
    out[:] = [w.encode() for w in words]
    return out


def _crossed(a, b):
    out = tf.sparse.cross([tf.reshape(a, [-1, 1]), tf.reshape(b, [-1, 1])])
    return out.indices, out.values, out.dense_shape


def _hashed(a, b):
    out = tf.sparse.cross_hashed([tf.reshape(a, [-1, 1]), tf.reshape(b, [-1, 1])], 100)
    return out.values


SPECS = [
    OpSpec("SparseCrossV2", _crossed, [_words("A", "B"), np.array([101, 102], np.int64)],
           lambda a, b: (np.array([[0, 0], [1, 0]]), _words("A_X_101", "B_X_102"),
                         np.array([2, 1])), grad="crosses features"),
    OpSpec("SparseCrossV2", _hashed, [_words("A", "B"), np.array([101, 102], np.int64)],
           lambda a, b: np.array([91, 76]),
           name="SparseCrossV2-hashed", grad="crosses features"),
]
