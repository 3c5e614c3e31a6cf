"""`tf.space_to_batch_nd` / `tf.batch_to_space`: blocks of the spatial dimensions moved into
(or out of) the batch, built from pads, reshapes and transposes (so differentiable).

>>> tf.space_to_batch_nd(tf.reshape(tf.range(4), [1, 2, 2, 1]), [2, 2], [[0, 0], [0, 0]]
...                      ).numpy().ravel()
array([0, 1, 2, 3], dtype=int32)
"""
import numpy as np

from eagerflow._src.backend.api_export import export
from eagerflow._src.core import errors
from eagerflow._src.ops import array_ops
from eagerflow._src.ops.cast_ops import identity
from eagerflow._src.ops.wrappers import as_tensor


def _ints(value, name):
    array = np.asarray(as_tensor(value).numpy() if hasattr(value, "numpy") else value,
                       np.int64)
    return array


def _dims(x, count):
    """The first `count` dims of `x`: Python ints where known, else scalar tensors."""
    dynamic = array_ops.shape(x)
    return [x.shape[i] if x.shape[i] is not None else dynamic[i] for i in range(count)]


@export("space_to_batch_nd", "space_to_batch", "nn.space_to_batch")
def space_to_batch_nd(input, block_shape, paddings, name=None):
    """Zero-pads the M spatial dimensions after the batch by `paddings` (``[M, 2]``), splits
    each into blocks of `block_shape`, and moves the block offsets into the batch:
    ``[batch * prod(block_shape), padded_1 / block_1, ..., rest...]``."""
    x = as_tensor(input)
    blocks = _ints(block_shape, "block_shape").reshape(-1)
    pads = _ints(paddings, "paddings").reshape(-1, 2)
    m = len(blocks)
    rank = x.shape.rank
    x = array_ops.pad(x, [[0, 0]] + pads.tolist() + [[0, 0]] * (rank - m - 1))
    dims = _dims(x, rank)
    for i, b in enumerate(blocks):
        size = dims[1 + i]
        if isinstance(size, int) and size % b:
            raise errors.InvalidArgumentError(
                None, "SpaceToBatchND", f"padded_shape[{i}]={size} is not divisible by "
                                        f"block_shape[{i}]={b} [Op:SpaceToBatchND]")
    split = [dims[0]]
    for i, b in enumerate(blocks):
        split += [dims[1 + i] // int(b), int(b)]
    rest = dims[1 + m:]
    x = array_ops.reshape(x, array_ops.stack(split + rest) if _any_tensor(split + rest)
                          else split + rest)
    order = [2 + 2 * i for i in range(m)] + [0] + [1 + 2 * i for i in range(m)] + \
        list(range(1 + 2 * m, 1 + 2 * m + len(rest)))
    x = array_ops.transpose(x, order)
    out = [dims[0] * int(np.prod(blocks))] + [dims[1 + i] // int(b) for i, b in
                                              enumerate(blocks)] + rest
    return array_ops.reshape(x, array_ops.stack(out) if _any_tensor(out) else out, name=name)


@export("batch_to_space")
def batch_to_space(input, block_shape, crops, name=None):
    """The inverse of `space_to_batch_nd`: the batch's block offsets moved back into the M
    spatial dimensions, which are then cropped by `crops` (``[M, 2]``)."""
    x = as_tensor(input)
    blocks = _ints(block_shape, "block_shape").reshape(-1)
    crop = _ints(crops, "crops").reshape(-1, 2)
    m = len(blocks)
    rank = x.shape.rank
    dims = _dims(x, rank)
    total = int(np.prod(blocks))
    if isinstance(dims[0], int) and dims[0] % total:
        raise errors.InvalidArgumentError(
            None, "BatchToSpaceND", f"Input batch dimension ({dims[0]}) is not divisible by "
                                    f"product of block sizes ({total}) [Op:BatchToSpaceND]")
    batch = dims[0] // total
    rest = dims[1 + m:]
    split = [int(b) for b in blocks] + [batch] + dims[1:1 + m] + rest
    x = array_ops.reshape(x, array_ops.stack(split) if _any_tensor(split) else split)
    order = [m]
    for i in range(m):
        order += [m + 1 + i, i]
    order += list(range(2 * m + 1, 2 * m + 1 + len(rest)))
    x = array_ops.transpose(x, order)
    merged = [batch] + [dims[1 + i] * int(b) for i, b in enumerate(blocks)] + rest
    x = array_ops.reshape(x, array_ops.stack(merged) if _any_tensor(merged) else merged)
    begin = [0] + [int(c[0]) for c in crop] + [0] * len(rest)
    size = [-1] + [merged[1 + i] - int(c[0]) - int(c[1]) for i, c in enumerate(crop)] + \
        [-1] * len(rest)
    if crop.any():
        x = array_ops.slice(x, begin, array_ops.stack(size) if _any_tensor(size) else size)
    return identity(x, name=name) if name else x


def _any_tensor(values):
    return any(not isinstance(v, (int, np.integer)) for v in values)
