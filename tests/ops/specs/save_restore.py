"""Specs of TF's checkpoint ops ``SaveV2`` and ``RestoreV2`` (checkpoint/save_restore_ops.py):
a checkpoint written and read back, whole tensors and slices."""
import os
import tempfile

import numpy as np

import eagerflow as tf
from tests.ops.spec import OpSpec, rand

_NO_GRAD = "checkpoint op"


def _saved(*values):
    """A checkpoint of `values` (named ``t0``, ``t1``...) written by SaveV2; its prefix."""
    prefix = os.path.join(tempfile.mkdtemp(), "ckpt")
    tf.raw_ops.SaveV2(prefix=prefix, tensor_names=[f"t{i}" for i in range(len(values))],
                      shape_and_slices=[""] * len(values), tensors=list(values))
    return prefix


def _restored(*values):
    return tf.raw_ops.RestoreV2(prefix=_saved(*values),
                                tensor_names=[f"t{i}" for i in range(len(values))],
                                shape_and_slices=[""] * len(values),
                                dtypes=[v.dtype for v in values])


def _sliced(x):
    """Rows 1 and 2 of `x` (shape [4, 3]), saved as two slices and read back as one."""
    prefix = os.path.join(tempfile.mkdtemp(), "ckpt")
    tf.raw_ops.SaveV2(prefix=prefix, tensor_names=["x", "x"],
                      shape_and_slices=["4 3 0,2:-", "4 3 2,2:-"], tensors=[x[:2], x[2:]])
    return tf.raw_ops.RestoreV2(prefix=prefix, tensor_names=["x"],
                                shape_and_slices=["4 3 1,2:-"], dtypes=[x.dtype])


def _saved_read(x, n):
    """What SaveV2 wrote of `n`, read back (by RestoreV2, which runs after it in a graph)."""
    return tf.raw_ops.RestoreV2(prefix=_saved(x, n), tensor_names=["t1"],
                                shape_and_slices=[""], dtypes=[n.dtype])[0]


SPECS = [
    OpSpec("RestoreV2", _restored, [rand(2, 3), np.array([1, 2], np.int64)],
           lambda x, n: (x, n), grad=_NO_GRAD),
    OpSpec("RestoreV2", _sliced, [rand(4, 3)], lambda x: [x[1:3]], grad=_NO_GRAD,
           name="RestoreV2_slices"),
    OpSpec("SaveV2", _saved_read, [rand(3), np.array([[7]], np.int32)], lambda x, n: n,
           grad=_NO_GRAD),
]


def _merged(x):
    """`x` saved in two shards (their names by ShardedFilename), merged, read back."""
    folder = tempfile.mkdtemp()
    temp = os.path.join(folder, "ckpt_temp", "part")
    shards = [tf.raw_ops.ShardedFilename(basename=temp, shard=i, num_shards=2)
              for i in range(2)]
    for shard, part in zip(shards, (x[:2], x[2:])):
        tf.raw_ops.SaveV2(prefix=shard, tensor_names=[f"p{len(part)}"], shape_and_slices=[""],
                          tensors=[part])
    prefix = os.path.join(folder, "ckpt")
    tf.raw_ops.MergeV2Checkpoints(checkpoint_prefixes=tf.stack(shards),
                                  destination_prefix=prefix)
    return tf.raw_ops.RestoreV2(prefix=prefix, tensor_names=["p2", "p1"],
                                shape_and_slices=["", ""], dtypes=[x.dtype, x.dtype])


SPECS += [
    OpSpec("ShardedFilename", lambda n: tf.raw_ops.ShardedFilename(
        basename="a/b", shard=n, num_shards=10), [np.int32(3)],
        lambda n: np.array(b"a/b-00003-of-00010", object), grad=_NO_GRAD),
    OpSpec("MergeV2Checkpoints", _merged, [rand(3)], lambda x: (x[:2], x[2:]),
           grad=_NO_GRAD),
]
