"""`reverse_sequence` and `unravel_index`: TF's ReverseSequence and UnravelIndex ops.

>>> tf.reverse_sequence(tf.constant([[1, 2, 3], [4, 5, 6]]), [2, 3], seq_axis=1)
<tf.Tensor: shape=(2, 3), dtype=int32, numpy=
array([[2, 1, 3],
       [6, 5, 4]], dtype=int32)>
"""
import numpy as np

from eagerflow._src.backend.api_export import export
from eagerflow._src.core import dtypes as _d
from eagerflow._src.core import errors
from eagerflow._src.core.convert import convert_to_tensor
from eagerflow._src.ops import array_ops, reduction_ops
from eagerflow._src.core.dispatch import dispatch
from eagerflow._src.core.node_forms import NodeForm, tf_args, tf_defaults, tf_nodes
from eagerflow._src.core.registry import (
    PER_ELEMENT, attr_dtype_error, batching_rules, register, register_gradient)
from eagerflow._src.core.tensor_shape import TensorShape
from eagerflow._src.ops.shape_rules import shape_error


def _reverse_sequence(xp, x, seq_lengths, seq_dim, batch_dim=0):
    def invalid(message):
        return errors.InvalidArgumentError(None, None, message)
    if seq_lengths.dtype not in (np.int32, np.int64):
        raise attr_dtype_error("ReverseSequence", "Tlen", _d.as_dtype(seq_lengths.dtype),
                               (_d.int32, _d.int64))
    if seq_dim < 0:
        raise invalid(f"Invalid seq_dim {seq_dim}")
    if batch_dim < 0:
        raise invalid(f"Invalid batch_dim {batch_dim}")
    if batch_dim == seq_dim:
        raise invalid(f"batch_dim == seq_dim == {seq_dim}")
    if seq_dim >= x.ndim:
        raise invalid(f"seq_dim must be < input rank ( {seq_dim} vs. {x.ndim})")
    if batch_dim >= x.ndim:
        raise invalid(f"batch_dim must be < input rank ( {batch_dim} vs. {x.ndim})")
    if seq_lengths.ndim != 1:
        raise invalid(f"seq_lengths must be 1-dim, not {seq_lengths.ndim}")
    if len(seq_lengths) != x.shape[batch_dim]:
        raise invalid(f"Length of seq_lengths != input.dims({batch_dim}), "
                      f"({len(seq_lengths)} vs. {x.shape[batch_dim]})")
    for b, n in enumerate(seq_lengths):
        if n < 0:
            raise invalid(f"seq_lens({b}) < 0")
        if n > x.shape[seq_dim]:
            raise invalid(f"seq_lens({b}) > input.dims({seq_dim})")
    # each batch element's first seq_lengths[b] steps read back to front, the rest in place
    steps = xp.arange(x.shape[seq_dim])
    lengths = seq_lengths.astype(np.int64)[:, None]
    index = xp.where(steps[None, :] < lengths, lengths - 1 - steps[None, :], steps[None, :])
    shape = [1] * x.ndim
    shape[batch_dim], shape[seq_dim] = len(seq_lengths), x.shape[seq_dim]
    order = index.reshape(shape) if batch_dim < seq_dim else index.T.reshape(shape)
    return xp.take_along_axis(x, xp.broadcast_to(order, x.shape), axis=seq_dim)


def _reverse_sequence_rule(x, seq_lengths, seq_dim, batch_dim=0):
    rank = x.shape.rank
    if seq_lengths.shape.rank not in (None, 1):
        raise shape_error("ReverseSequence", f"Shape must be rank 1 but is rank "
                                             f"{seq_lengths.shape.rank}",
                          [x.shape, seq_lengths.shape])
    if rank is None:
        return x.shape, x.dtype
    if seq_dim >= rank or batch_dim >= rank:
        raise shape_error("ReverseSequence", f"Invalid seq_dim {seq_dim}"
                          if seq_dim >= rank else f"Invalid batch_dim {batch_dim}",
                          [x.shape, seq_lengths.shape])
    n, batch = seq_lengths.shape[0] if seq_lengths.shape.rank else None, x.shape[batch_dim]
    if None not in (n, batch) and n != batch:
        raise shape_error("ReverseSequence", f"Dimensions must be equal, but are {batch} and "
                                             f"{n}", [x.shape, seq_lengths.shape])
    return x.shape, x.dtype


_REVERSE_SEQUENCE = register("ReverseSequence", _reverse_sequence, _reverse_sequence_rule,
                             tied=(0,), type_attr="T")
tf_nodes[_REVERSE_SEQUENCE] = NodeForm(types={"T": 0, "Tlen": 1})
tf_args[_REVERSE_SEQUENCE] = ("input", "seq_lengths")
tf_defaults[_REVERSE_SEQUENCE] = {"batch_dim": 0}
batching_rules[_REVERSE_SEQUENCE] = PER_ELEMENT


@export("reverse_sequence")
def reverse_sequence(input, seq_lengths, seq_axis=None, batch_axis=None,  # noqa: A002
                     name=None):
    """Reverses the first ``seq_lengths[b]`` elements along `seq_axis` of each batch
    element b (along `batch_axis`, 0 by default); the rest stay in place."""
    input = convert_to_tensor(input)
    seq_lengths = convert_to_tensor(seq_lengths)
    reduction_ops.check_attr_dtype("ReverseSequence", "Tlen", seq_lengths.dtype,
                                   (_d.int32, _d.int64))
    seq_axis = array_ops.attr_int(seq_axis, "seq_dim")
    batch_axis = 0 if batch_axis is None else array_ops.attr_int(batch_axis, "batch_dim")
    return dispatch(_REVERSE_SEQUENCE, (input, seq_lengths),
                    {"seq_dim": seq_axis, "batch_dim": batch_axis}, name)


# (the same op reverses the gradient back; the lengths have none)
register_gradient("ReverseSequence")(lambda op, dy: (reverse_sequence(
    dy, op.inputs[1], op.attrs["seq_dim"], op.attrs.get("batch_dim", 0)), None))


def _unravel_index(xp, indices, dims):
    def invalid(message):
        return errors.InvalidArgumentError(None, None, message)
    if indices.ndim > 1:
        raise invalid(f"The indices can only be scalar or vector, got "
                      f"\"{errors.shape_text(indices.shape)}\"")
    if dims.ndim != 1:
        raise invalid(f"The indices can only be 1-D, got \"{errors.shape_text(dims.shape)}\"")
    if indices.ndim == 1 and indices.size == 0:
        raise invalid(f"received empty tensor indices: Tensor<type: "
                      f"{_d.as_dtype(indices.dtype).name} shape: [0] values: >")
    zeros = np.flatnonzero(dims == 0)
    if zeros.size:
        raise invalid(f"Input dims cannot contain a dim of zero, but dims contains zero at "
                      f"index {zeros[0]}")
    if np.any(indices >= np.prod(dims)):
        raise invalid("index is out of bound as with dims")
    # row-major strides, and C division as TF's kernel: a negative index gives negative
    # coordinates
    strides = np.concatenate([np.cumprod(dims[::-1])[::-1][1:], [1]]).astype(dims.dtype)
    flat = indices.reshape(1, -1)
    quotient = np.abs(flat) // strides[:, None] * np.sign(flat)
    out = np.fmod(quotient, dims[:, None]).astype(indices.dtype)
    return out.reshape((len(dims),) + indices.shape)


def _unravel_index_rule(indices, dims):
    if indices.shape.rank is not None and indices.shape.rank > 1:
        raise shape_error("UnravelIndex", f"Shape must be at most rank 1 but is rank "
                                          f"{indices.shape.rank}", [indices.shape, dims.shape])
    if dims.shape.rank not in (None, 1):
        raise shape_error("UnravelIndex", f"Shape must be rank 1 but is rank "
                                          f"{dims.shape.rank}", [indices.shape, dims.shape])
    if indices.shape.rank is None:
        return TensorShape(None), indices.dtype
    n = dims.shape[0] if dims.shape.rank == 1 else None
    return TensorShape([n]).concatenate(indices.shape), indices.dtype


_UNRAVEL_INDEX = register("UnravelIndex", _unravel_index, _unravel_index_rule, tied=(0, 1),
                          dtypes=(_d.int32, _d.int64), type_attr="Tidx",
                          not_differentiable="integer output")
tf_args[_UNRAVEL_INDEX] = ("indices", "dims")
tf_nodes[_UNRAVEL_INDEX] = NodeForm(outputs=("output",))
batching_rules[_UNRAVEL_INDEX] = PER_ELEMENT


@export("unravel_index")
def unravel_index(indices, dims, name=None):
    """The coordinates of flat `indices` in an array of shape `dims` (row-major):
    ``[len(dims)] + indices.shape``."""
    indices = convert_to_tensor(indices)
    if indices.dtype not in (_d.int32, _d.int64):
        raise TypeError(f"Value for attr 'Tidx' of {indices.dtype.name} is not in the list of "
                        f"allowed values: int32, int64")
    dims = convert_to_tensor(dims, indices.dtype)
    return dispatch(_UNRAVEL_INDEX, (indices, dims), {}, name)
