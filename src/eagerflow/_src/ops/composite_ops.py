"""Public functions that TF itself builds from other ops: `reverse_sequence` and
`unravel_index`.

>>> tf.reverse_sequence(tf.constant([[1, 2, 3], [4, 5, 6]]), [2, 3], seq_axis=1)
<tf.Tensor: shape=(2, 3), dtype=int32, numpy=
array([[2, 1, 3],
       [6, 5, 4]], dtype=int32)>
"""
import numpy as np

from eagerflow._src.backend.api_export import export
from eagerflow._src.core import dtypes as _d
from eagerflow._src.core import errors
from eagerflow._src.core.convert import convert_to_tensor, get_static_value
from eagerflow._src.ops import array_ops, math_ops, reduction_ops
from eagerflow._src.ops.cast_ops import cast


@export("reverse_sequence")
def reverse_sequence(input, seq_lengths, seq_axis=None, batch_axis=None,  # noqa: A002
                     name=None):
    """Reverses the first ``seq_lengths[b]`` elements along `seq_axis` of each batch
    element b (along `batch_axis`, 0 by default); the rest stay in place."""
    input = convert_to_tensor(input)
    seq_lengths = convert_to_tensor(seq_lengths)
    if seq_lengths.dtype not in (_d.int32, _d.int64):
        raise errors.InvalidArgumentError(
            None, None, f"Value for attr 'Tlen' of {seq_lengths.dtype.name} is not in the list "
                        f"of allowed values: int32, int64")
    rank = input.shape.rank
    seq_axis = array_ops.attr_int(seq_axis, "seq_dim")
    batch_axis = 0 if batch_axis is None else array_ops.attr_int(batch_axis, "batch_dim")
    batch_axis, seq_axis = batch_axis % rank, seq_axis % rank
    if batch_axis == seq_axis:
        raise errors.InvalidArgumentError(None, None, f"batch_dim == seq_dim == {seq_axis}")
    known = get_static_value(seq_lengths)
    size = input.shape[seq_axis]
    if known is not None and size is not None and np.any(np.asarray(known) > size):
        first = int(np.argmax(np.asarray(known) > size))
        raise errors.InvalidArgumentError(
            None, None, f"seq_lens({first}) > input.dims({seq_axis})")
    # batch axis first, sequence axis second; gather each row's reversed prefix
    perm = [batch_axis, seq_axis] + [a for a in range(rank) if a not in (batch_axis, seq_axis)]
    moved = array_ops.transpose(input, perm)
    lengths = array_ops.expand_dims(cast(seq_lengths, _d.int32), 1)
    steps = array_ops.expand_dims(array_ops.range(array_ops.shape(moved)[1]), 0)
    index = array_ops.where(steps < lengths, lengths - 1 - steps, steps)
    out = array_ops.gather(moved, index, axis=1, batch_dims=1)
    return array_ops.transpose(out, list(np.argsort(perm)))


@export("unravel_index")
def unravel_index(indices, dims, name=None):
    """The coordinates of flat `indices` in an array of shape `dims` (row-major):
    ``[len(dims)] + indices.shape``."""
    indices = convert_to_tensor(indices)
    if indices.dtype not in (_d.int32, _d.int64):
        raise TypeError(f"Value for attr 'Tidx' of {indices.dtype.name} is not in the list of "
                        f"allowed values: int32, int64")
    dims = convert_to_tensor(dims, indices.dtype)
    if indices.shape.rank is not None and indices.shape.rank > 1:
        raise errors.InvalidArgumentError(
            None, None, f"The indices can only be scalar or vector, got "
                        f"\"{errors.shape_text(indices.shape.as_list())}\"")
    static_i, static_d = get_static_value(indices), get_static_value(dims)
    if static_d is not None and np.any(np.asarray(static_d) <= 0):
        raise errors.InvalidArgumentError(
            None, None, "Input dims must be positive (all dims must be > 0).")
    if static_i is not None and static_d is not None:
        total = int(np.prod(static_d))
        if np.any(np.asarray(static_i) >= total):
            raise errors.InvalidArgumentError(None, None,
                                              "index is out of bound as with dims")
    # strides of the row-major layout: the product of the dims after each one
    strides = reduction_ops.cumprod(dims, exclusive=True, reverse=True)
    flat = array_ops.expand_dims(indices, 0)
    shape = array_ops.concat([array_ops.shape(dims), array_ops.ones_like(array_ops.shape(
        indices))], 0)
    strides = array_ops.reshape(strides, shape)
    # C division, as TF's kernel: a negative index gives negative coordinates
    return math_ops.truncatemod(math_ops.truncatediv(flat, strides), array_ops.reshape(dims, shape))
