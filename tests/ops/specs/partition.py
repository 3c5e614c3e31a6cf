"""Specs of the partition ops (partition_ops.py): DynamicPartition, DynamicStitch and
HistogramFixedWidth."""
import numpy as np

import eagerflow as tf
from tests.ops.spec import OpSpec, rand

I32 = np.int32
PARTS = np.array([2, 0, 2, 1, 0, 2], I32)


def _partition(data, partitions, n):
    rows = data.reshape((partitions.size,) + data.shape[partitions.ndim:])
    return [rows[partitions.reshape(-1) == i] for i in range(n)]


def _stitch(indices, data):
    inner = data[0].shape[indices[0].ndim:]
    out = np.zeros((1 + max(int(i.max()) for i in indices),) + inner, data[0].dtype)
    for i, d in zip(indices, data):
        out[i.reshape(-1)] = d.reshape((i.size,) + inner)
    return out


SPECS = [
    OpSpec("DynamicPartition", lambda d, q: tf.dynamic_partition(d, q, 4),
           [rand(6, 2), PARTS], lambda d, q: _partition(d, q, 4)),
    OpSpec("DynamicPartition", lambda d, q: tf.dynamic_partition(d, q, 3),
           [rand(2, 3, dtype=np.float64), PARTS.reshape(2, 3)], lambda d, q: _partition(d, q, 3),
           name="DynamicPartition-2d"),
    OpSpec("DynamicPartition", lambda d, q: tf.dynamic_partition(d, q, 2),
           [np.array([b"a", b"b", b"c"], object), np.array([1, 0, 1], I32)],
           lambda d, q: _partition(d, q, 2), name="DynamicPartition-string", grad="strings"),
    OpSpec("DynamicStitch", lambda i0, i1, d0, d1: tf.dynamic_stitch([i0, i1], [d0, d1]),
           [np.array([0, 4], I32), np.array([[1, 2]], I32), rand(2, 3), rand(1, 2, 3)],
           lambda i0, i1, d0, d1: _stitch([i0, i1], [d0, d1])),
    # Where an index repeats, TF's gradient also reaches the value a later one overwrote.
    OpSpec("DynamicStitch", lambda i0, i1, d0, d1: tf.dynamic_stitch([i0, i1], [d0, d1]),
           [np.array([0, 1], I32), np.array([1], I32), rand(2, dtype=I32, low=1, high=9),
            rand(1, dtype=I32, low=1, high=9)],
           lambda i0, i1, d0, d1: _stitch([i0, i1], [d0, d1]), name="DynamicStitch-repeated",
           grad="integer"),
    OpSpec("ParallelDynamicStitch",
           lambda i0, i1, d0, d1: tf.raw_ops.ParallelDynamicStitch(indices=[i0, i1],
                                                                   data=[d0, d1]),
           [np.array([0, 4], I32), np.array([[1, 2]], I32), rand(2, 3), rand(1, 2, 3)],
           lambda i0, i1, d0, d1: _stitch([i0, i1], [d0, d1])),
    OpSpec("HistogramFixedWidth", lambda v, r: tf.histogram_fixed_width(v, r, nbins=5),
           [rand(4, 5), np.array([-1.5, 1.0], np.float32)],
           lambda v, r: np.histogram(np.clip(v, -1.5, 1.0), 5, (-1.5, 1.0))[0].astype(I32),
           grad="counts"),
    OpSpec("HistogramFixedWidth",
           lambda v, r: tf.histogram_fixed_width(v, r, nbins=3, dtype=tf.int64),
           [np.array([-5, 0, 3, 4, 9, 100], I32), np.array([0, 9], I32)],
           lambda v, r: np.array([2, 2, 2], np.int64), name="HistogramFixedWidth-int64",
           grad="counts"),
]
