"""Specs of the array ops (array_ops.py) and strided slicing (slicing.py)."""
import numpy as np

import eagerflow as tf
from tests.internals import array_ops as a, dispatch, slicing
from tests.ops.spec import OpSpec, rand

F32, F64, I32, I64 = np.float32, np.float64, np.int32, np.int64


def _grid(*shape, dtype=F32):
    """Distinct values 0..n-1 in `shape`: index mix-ups show up in comparisons."""
    return np.arange(np.prod(shape), dtype=dtype).reshape(shape)


def _strings(*shape):
    return np.array([str(i).encode() for i in range(int(np.prod(shape)))],
                    object).reshape(shape)


def _per_dtype(op, fn, make, ref, dtypes=(F32, F64, I32)):
    """One spec per dtype, with args `make(dtype)`; integer cases are not differentiated."""
    return [OpSpec(op, fn, make(d), ref, name=f"{op}-{np.dtype(d).name}",
                   grad=True if np.dtype(d).kind == "f" else "integer")
            for d in dtypes]


def _tensor_scatter_ref(how):
    def ref(tensor, indices, updates):
        out = tensor.copy()
        getattr(np, how).at(out, tuple(indices.reshape(-1, indices.shape[-1]).T), updates)
        return out
    return ref


def _one_hot_ref(indices, depth, axis=-1, on=1.0, off=0.0, dtype=F32):
    hot = indices[..., None] == np.arange(depth)
    return np.moveaxis(np.where(hot, dtype(on), dtype(off)), -1, axis)


def _batch_gather_ref(params, indices):
    return np.stack([p[i] for p, i in zip(params, indices)])


def _gather_nd_ref(params, indices):
    return params[tuple(np.moveaxis(indices, -1, 0))]


def _searchsorted_ref(side, out=I32):
    def ref(s, v):
        return np.stack([np.searchsorted(r, x, side) for r, x in zip(s, v)]).astype(out)
    return ref


def _linspace_ref(start, stop, num=5, axis=0):
    return np.linspace(start, stop, num, axis=axis).astype(start.dtype)


def _strided_slice_grad_ref(dy, shape, index):
    out = np.zeros(shape, dy.dtype)
    out[index] = dy
    return out


_SORTED = np.sort(rand(3, 6), axis=-1)

def _shape_input(op):
    """Runs `op` with its shape-like parameter as an input (the spec's last arg), as in a
    function where only run time knows it."""
    return lambda *tensors: dispatch(op, tensors)


def _space_to_batch_ref(x, block, pads):
    """SpaceToBatchND by loops: output batch b * prod(block) + (block offsets, row-major) picks
    the padded input's elements at those offsets of each block."""
    m = len(block)
    padded = np.pad(x, [(0, 0)] + [tuple(p) for p in pads] + [(0, 0)] * (x.ndim - 1 - m))
    out = []
    for offsets in np.ndindex(*block):
        index = tuple(slice(o, None, b) for o, b in zip(offsets, block))
        out.append(padded[(slice(None),) + index])
    return np.concatenate(out)


def _batch_to_space_ref(x, block, crops):
    m, size = len(block), int(np.prod(block))
    batch = x.shape[0] // size
    full = np.zeros((batch,) + tuple(d * b for d, b in zip(x.shape[1:1 + m], block))
                    + x.shape[1 + m:], x.dtype)
    for k, offsets in enumerate(np.ndindex(*block)):
        index = tuple(slice(o, None, b) for o, b in zip(offsets, block))
        full[(slice(None),) + index] = x[k * batch:(k + 1) * batch]
    return full[(slice(None),) + tuple(slice(c0, full.shape[1 + i] - c1)
                                      for i, (c0, c1) in enumerate(crops))]


SPECS = [
    # -- reshaping and reordering
    *_per_dtype("Reshape", lambda x: tf.reshape(x, [4, -1]), lambda d: [_grid(2, 3, 2, dtype=d)],
                lambda x: x.reshape(4, -1)),
    OpSpec("Reshape", lambda x: tf.reshape(x, []), [np.array([5.0], F32)],
           lambda x: x.reshape(()), name="Reshape-scalar"),
    OpSpec("Reshape", lambda x: tf.reshape(x, [0, -1]), [np.zeros((2, 0, 3), F32)],
           lambda x: x.reshape(0, 6), name="Reshape-empty"),
    OpSpec("Reshape", lambda x: tf.reshape(x, [-1]), [_strings(2, 2)], lambda x: x.reshape(-1),
           name="Reshape-string", grad="strings"),
    OpSpec("Reshape", _shape_input(a._RESHAPE), [rand(2, 3, 2), np.array([3, -1], I32)],
           lambda x, s: x.reshape(s), name="Reshape-shape-input"),
    *_per_dtype("Transpose", tf.transpose, lambda d: [_grid(2, 3, 4, dtype=d)], np.transpose),
    OpSpec("Transpose", lambda x: tf.transpose(x, [1, 0, 2]), [rand(2, 3, 4)],
           lambda x: x.transpose(1, 0, 2), name="Transpose-perm"),
    OpSpec("Transpose", _shape_input(a._TRANSPOSE), [rand(2, 3, 4), np.array([2, 0, 1], I32)],
           lambda x, p: x.transpose(p), name="Transpose-run-time"),
    OpSpec("Transpose", lambda x: tf.transpose(x, [-1, 0]), [rand(2, 3)], lambda x: x.T,
           name="Transpose-negative-perm"),
    OpSpec("ConjugateTranspose", lambda x: tf.transpose(x, conjugate=True),
           [rand(2, 3, dtype=np.complex128)], lambda x: np.conj(x.T)),
    *_per_dtype("ExpandDims", lambda x: tf.expand_dims(x, -1), lambda d: [_grid(2, 3, dtype=d)],
                lambda x: x[..., None]),
    OpSpec("ExpandDims", lambda x: tf.expand_dims(x, 1), [rand(2, 3)], lambda x: x[:, None],
           name="ExpandDims-middle"),
    OpSpec("Squeeze", tf.squeeze, [rand(1, 3, 1)], np.squeeze, name="Squeeze-all"),
    OpSpec("Squeeze", lambda x: tf.squeeze(x, [-1]), [rand(1, 3, 1)], lambda x: x[..., 0],
           name="Squeeze-axis"),
    OpSpec("Squeeze", lambda x: tf.squeeze(x, 0), [_grid(1, 2, dtype=I32)], lambda x: x[0],
           name="Squeeze-int", grad="integer"),
    *_per_dtype("BroadcastTo", lambda x: tf.broadcast_to(x, [2, 3, 4]),
                lambda d: [_grid(3, 1, dtype=d)], lambda x: np.broadcast_to(x, (2, 3, 4))),
    *_per_dtype("Tile", lambda x: tf.tile(x, [2, 3]), lambda d: [_grid(2, 2, dtype=d)],
                lambda x: np.tile(x, (2, 3))),
    OpSpec("Tile", lambda x: tf.tile(x, [0, 1]), [rand(2, 2)], lambda x: np.tile(x, (0, 1)),
           name="Tile-zero"),
    OpSpec("Tile", _shape_input(a._TILE), [rand(2, 3), np.array([2, 1], I64)],
           lambda x, m: np.tile(x, m), name="Tile-multiples-input"),
    OpSpec("BroadcastTo", _shape_input(a._BROADCAST_TO), [rand(3, 1), np.array([2, 3, 4], I32)],
           lambda x, s: np.broadcast_to(x, s), name="BroadcastTo-shape-input"),
    *_per_dtype("ReverseV2", lambda x: tf.reverse(x, [0, -1]),
                lambda d: [_grid(2, 3, 4, dtype=d)], lambda x: x[::-1, :, ::-1]),
    OpSpec("ReverseV2", lambda x: tf.reverse(x, []), [rand(2, 3)], lambda x: x,
           name="ReverseV2-none"),
    *_per_dtype("Roll", lambda x: tf.roll(x, [1, -1], [0, 1]), lambda d: [_grid(3, 4, dtype=d)],
                lambda x: np.roll(x, (1, -1), (0, 1))),
    OpSpec("Roll", lambda x: tf.roll(x, [1, 2], [1, 1]), [rand(2, 5)], lambda x: np.roll(x, 3, 1),
           name="Roll-same-axis"),

    # -- joining and splitting
    *_per_dtype("ConcatV2", lambda x, y: tf.concat([x, y], -1),
                lambda d: [_grid(2, 3, dtype=d), _grid(2, 1, dtype=d)],
                lambda x, y: np.concatenate([x, y], -1)),
    OpSpec("ConcatV2", lambda x, y, z: tf.concat([x, y, z], 0),
           [rand(1, 2), rand(3, 2), rand(0, 2)], lambda x, y, z: np.concatenate([x, y, z]),
           name="ConcatV2-three"),
    OpSpec("ConcatV2", lambda x, y: tf.concat([x, y], 0), [_strings(2), _strings(1)],
           lambda x, y: np.concatenate([x, y]), name="ConcatV2-string", grad="strings"),
    *_per_dtype("Pack", lambda x, y: tf.stack([x, y], axis=1),
                lambda d: [_grid(2, 3, dtype=d), _grid(2, 3, dtype=d) + 1],
                lambda x, y: np.stack([x, y], 1)),
    OpSpec("Pack", lambda x, y: tf.stack([x, y], axis=-1), [rand(3), rand(3, seed=1)],
           lambda x, y: np.stack([x, y], -1), name="Pack-last"),
    *_per_dtype("Unpack", lambda x: tf.unstack(x, axis=1), lambda d: [_grid(2, 3, 2, dtype=d)],
                lambda x: list(np.moveaxis(x, 1, 0))),
    OpSpec("Unpack", tf.unstack, [rand(4)], lambda x: list(x), name="Unpack-vector"),
    OpSpec("Unpack", tf.unstack, [_strings(2)], lambda x: [np.array(v, object) for v in x],
           name="Unpack-string", grad="strings"),
    *_per_dtype("Split", lambda x: tf.split(x, 3, axis=1), lambda d: [_grid(2, 6, dtype=d)],
                lambda x: np.split(x, 3, 1)),
    *_per_dtype("SplitV", lambda x: tf.split(x, [1, -1, 2], axis=-1),
                lambda d: [_grid(2, 6, dtype=d)], lambda x: np.split(x, [1, 4], -1)),
    OpSpec("SplitV", lambda x: tf.split(x, [2, 0, 1]), [rand(3, 2)],
           lambda x: np.split(x, [2, 2]), name="SplitV-empty-part"),

    # -- creation
    OpSpec("Fill", lambda v: tf.fill([2, 3], v), [np.float32(1.5)], lambda v: np.full((2, 3), v)),
    OpSpec("Fill", _shape_input(a._FILL), [np.float32(1.5), np.array([2, 3], I32)],
           lambda v, s: np.full(s, v), name="Fill-dims-input"),
    OpSpec("Fill", lambda v: tf.fill([2], v), [np.int64(7)], lambda v: np.full(2, v),
           name="Fill-int64", grad="integer"),
    OpSpec("Fill", lambda v: tf.zeros([2, 2], "float64"), [np.float64(3)],
           lambda v: np.zeros((2, 2)), name="Fill-zeros", grad="constant output"),
    OpSpec("Fill", lambda v: tf.ones([3], "int32"), [np.int32(0)], lambda v: np.ones(3, I32),
           name="Fill-ones", grad="integer"),
    OpSpec("Fill", lambda v: tf.zeros([2], "string"), [np.int32(0)],
           lambda v: np.array([b"", b""], object), name="Fill-zeros-string", grad="strings"),
    OpSpec("ZerosLike", tf.zeros_like, [rand(2, 3)], np.zeros_like, grad="constant output"),
    OpSpec("ZerosLike", tf.zeros_like, [_strings(2)], lambda x: np.full(x.shape, b"", object),
           name="ZerosLike-string", grad="constant output"),
    OpSpec("OnesLike", tf.ones_like, [_grid(2, 3, dtype=I32)], np.ones_like,
           grad="constant output"),
    OpSpec("Fill", lambda x: tf.ones_like(x, dtype="float64"), [rand(2)],
           lambda x: np.ones(x.shape, F64), name="OnesLike-dtype", grad="constant output"),
    OpSpec("Range", lambda n: tf.range(n), [np.int32(5)], lambda n: np.arange(n, dtype=I32),
           grad="integer-like output"),
    OpSpec("Range", lambda s, l, d: tf.range(s, l, d),
           [np.float32(1), np.float32(2.5), np.float32(0.25)],
           lambda s, l, d: np.arange(s, l, d, F32), name="Range-float",
           grad="integer-like output"),
    OpSpec("Range", lambda s: tf.range(s, 0, -3), [np.int64(10)],
           lambda s: np.arange(10, 0, -3, dtype=I64), name="Range-int64-down",
           grad="integer-like output"),
    OpSpec("Range", lambda s: tf.range(s, 4, dtype="float64"), [np.int32(1)],
           lambda s: np.arange(1, 4, dtype=F64), name="Range-dtype",
           grad="integer-like output"),
    OpSpec("LinSpace", lambda s, e: tf.linspace(s, e, 5), [np.float32(-1), np.float32(3)],
           _linspace_ref, grad=True),
    OpSpec("LinSpace", lambda s, e: tf.linspace(s, e, 3, axis=-1),
           [rand(2, dtype=F64), np.float64(4)],
           lambda s, e: _linspace_ref(s, np.broadcast_to(e, s.shape), 3, -1), name="LinSpace-nd",
           grad=True),
    OpSpec("LinSpace", lambda s, e: tf.linspace(s, e, 4), [np.int32(0), np.int32(3)],
           lambda s, e: np.linspace(0, 3, 4), name="LinSpace-int", grad="integer"),
    OpSpec("OneHot", lambda i: tf.one_hot(i, 4), [np.array([[0, 3], [-1, 5]], I32)],
           lambda i: _one_hot_ref(i, 4), grad="integer indices"),
    OpSpec("OneHot", lambda i: tf.one_hot(i, 3, on_value=5, off_value=-1, axis=0),
           [np.array([2, 0, 1], I64)], lambda i: _one_hot_ref(i, 3, 0, 5, -1, I32),
           name="OneHot-axis0", grad="integer indices"),
    OpSpec("OneHot", lambda i: tf.one_hot(i, 2, dtype="float64"), [np.array([1, 0], np.uint8)],
           lambda i: _one_hot_ref(i, 2, dtype=F64), name="OneHot-uint8",
           grad="integer indices"),
    OpSpec("BroadcastTo", lambda x, y: tf.meshgrid(x, y), [rand(3), rand(2, seed=1)],
           lambda x, y: np.meshgrid(x, y), name="meshgrid-xy"),
    OpSpec("BroadcastTo", lambda x, y, z: tf.meshgrid(x, y, z, indexing="ij"),
           [_grid(2, dtype=I32), _grid(3, dtype=I32), _grid(4, dtype=I32)],
           lambda x, y, z: np.meshgrid(x, y, z, indexing="ij"), name="meshgrid-ij",
           grad="integer"),

    # -- padding
    OpSpec("Pad", lambda x: a.pad_v1(x, [[1, 0], [2, 3]]), [rand(2, 3)],
           lambda x: np.pad(x, [[1, 0], [2, 3]])),
    *_per_dtype("Pad", lambda x: tf.pad(x, [[1, 0], [2, 3]]), lambda d: [_grid(2, 3, dtype=d)],
                lambda x: np.pad(x, ((1, 0), (2, 3)))),
    OpSpec("PadV2", lambda x, c: tf.pad(x, [[1, 1]], constant_values=c),
           [rand(3), np.float32(9)], lambda x, c: np.pad(x, 1, constant_values=c),
           name="PadV2-value"),
    OpSpec("PadV2", lambda x: tf.pad(x, [[1, 0]]), [_strings(2)],
           lambda x: np.array([b"", *x], object), name="PadV2-string", grad="strings"),
    OpSpec("MirrorPad", lambda x: tf.pad(x, [[2, 1], [3, 3]], "REFLECT"), [_grid(3, 4)],
           lambda x: np.pad(x, ((2, 1), (3, 3)), "reflect")),
    OpSpec("MirrorPad", lambda x: tf.pad(x, [[3, 1], [0, 4]], "symmetric"), [_grid(3, 4)],
           lambda x: np.pad(x, ((3, 1), (0, 4)), "symmetric"), name="MirrorPad-symmetric"),
    # paddings as a run-time input (a function's paddings computed from a shape)
    OpSpec("Pad", _shape_input(a._ZERO_PAD), [rand(2, 3), np.array([[1, 0], [2, 3]], I32)],
           lambda x, p: np.pad(x, p), name="Pad-run-time"),
    OpSpec("PadV2", _shape_input(a._PAD),
           [rand(3, 2), np.float32(9), np.array([[0, 2], [1, 1]], I64)],
           lambda x, c, p: np.pad(x, p, constant_values=c), name="PadV2-run-time"),
    OpSpec("MirrorPad", lambda x, p: dispatch(a._MIRROR_PAD, (x, p), {"mode": "REFLECT"}),
           [_grid(3, 4), np.array([[2, 1], [3, 3]], I32)],
           lambda x, p: np.pad(x, p, "reflect"), name="MirrorPad-run-time"),
    OpSpec("MirrorPad", lambda x, p: dispatch(a._MIRROR_PAD, (x, p), {"mode": "SYMMETRIC"}),
           [rand(3, 4), np.array([[3, 1], [0, 4]], I32)],
           lambda x, p: np.pad(x, p, "symmetric"), name="MirrorPad-symmetric-run-time"),

    # -- gathering and scattering
    *_per_dtype("GatherV2", tf.gather,
                lambda d: [_grid(4, 3, dtype=d), np.array([[3, 0], [1, 1]], I32)],
                lambda p, i: p[i]),
    OpSpec("GatherV2", lambda p, i: tf.gather(p, i, axis=-1),
           [rand(2, 3, 4), np.array([3, 0], I64)], lambda p, i: p[..., i], name="GatherV2-axis"),
    OpSpec("GatherV2", lambda p, i, axis: dispatch(a._GATHER, (p, i, axis), {"batch_dims": 0}),
           [rand(2, 3, 4), np.array([2, 0], I32), np.int32(1)], lambda p, i, _: p[:, i],
           name="GatherV2-run-time-axis"),
    OpSpec("GatherV2", lambda p, i: tf.gather(p, i, axis=1, batch_dims=1),
           [rand(3, 4, 2), np.array([[0, 3], [2, 2], [1, 0]], I32)], _batch_gather_ref,
           name="GatherV2-batch"),
    OpSpec("GatherV2", lambda p, i: tf.gather(p, i, axis=2, batch_dims=1),
           [rand(2, 3, 4), np.array([[0, 3, 3], [2, 1, 0]], I32)],
           lambda p, i: np.stack([q[:, j] for q, j in zip(p, i)]), name="GatherV2-batch-outer"),
    OpSpec("GatherV2", tf.gather, [_strings(3), np.int32(1)],
           lambda p, i: np.array(p[i], object), name="GatherV2-string-scalar", grad="strings"),
    OpSpec("GatherV2", tf.boolean_mask,
           [rand(3, 2, 2), np.array([[True, False], [False, False], [True, True]])],
           lambda x, m: x[m], name="boolean_mask"),
    OpSpec("GatherV2", lambda x, m: tf.boolean_mask(x, m, axis=1),
           [rand(2, 3), np.array([False, True, True])], lambda x, m: x[:, m],
           name="boolean_mask-axis"),
    OpSpec("GatherV2", lambda x: tf.repeat(x, [2, 0, 1], axis=0), [rand(3, 2)],
           lambda x: np.repeat(x, [2, 0, 1], axis=0), name="repeat-axis"),
    OpSpec("GatherV2", lambda x: tf.repeat(x, 2), [_grid(2, 2, dtype=I32)],
           lambda x: np.repeat(x, 2), name="repeat-flat", grad="integer"),
    OpSpec("GatherNd", tf.gather_nd, [rand(3, 4, 2), np.array([[0, 1], [2, 3], [1, 0]], I32)],
           _gather_nd_ref),
    OpSpec("GatherNd", tf.gather_nd, [_grid(3, 4, dtype=I64), np.array([[[2]], [[0]]], I64)],
           _gather_nd_ref, name="GatherNd-slices", grad="integer"),
    OpSpec("GatherNd", lambda p, i: tf.gather_nd(p, i, batch_dims=1),
           [rand(2, 3, 4), np.array([[1, 3], [2, 0]], I32)],
           lambda p, i: np.stack([q[tuple(j)] for q, j in zip(p, i)]), name="GatherNd-batch"),
    OpSpec("ScatterNd", lambda i, u: tf.scatter_nd(i, u, [5, 2]),
           [np.array([[0], [3], [0]], I32), rand(3, 2)],
           lambda i, u: _tensor_scatter_ref("add")(np.zeros((5, 2), F32), i, u)),
    OpSpec("ScatterNd", lambda i, u: tf.scatter_nd(i, u, [3]),
           [np.array([[0], [2]], I64), np.array([True, True])],
           lambda i, u: np.array([True, False, True]), name="ScatterNd-bool", grad="boolean"),
    OpSpec("TensorScatterAdd", tf.tensor_scatter_nd_add,
           [rand(4, 3), np.array([[1, 2], [1, 2], [0, 0]], I32), rand(3, seed=2)],
           _tensor_scatter_ref("add")),
    OpSpec("TensorScatterSub", tf.tensor_scatter_nd_sub,
           [rand(4, 3), np.array([[1], [3]], I32), rand(2, 3, seed=2)],
           _tensor_scatter_ref("subtract")),
    OpSpec("TensorScatterMax", tf.tensor_scatter_nd_max,
           [rand(5), np.array([[1], [3], [1]], I32), rand(3, seed=2)],
           _tensor_scatter_ref("maximum")),
    OpSpec("TensorScatterMin", tf.tensor_scatter_nd_min,
           [rand(5), np.array([[1], [3], [1]], I32), rand(3, seed=3)],
           _tensor_scatter_ref("minimum"), name="TensorScatterMin-float"),
    OpSpec("TensorScatterMin", tf.tensor_scatter_nd_min,
           [_grid(5, dtype=I32), np.array([[1], [4]], I64), np.array([-3, 9], I32)],
           _tensor_scatter_ref("minimum"), grad="integer"),
    OpSpec("TensorScatterUpdate", tf.tensor_scatter_nd_update,
           [rand(4, 2), np.array([[2]], I32), rand(1, 2, seed=3)],
           lambda t, i, u: np.where(np.arange(4)[:, None] == 2, u, t)),
    OpSpec("TensorScatterUpdate", tf.tensor_scatter_nd_update,
           [_strings(2), np.array([[0]], I32), np.array([b"x"], object)],
           lambda t, i, u: np.array([b"x", b"1"], object), name="TensorScatterUpdate-string",
           grad="strings"),

    # -- selection and slicing
    OpSpec("Where", tf.where, [rand(3, 4) > 0], np.argwhere, grad="integer output"),
    OpSpec("Where", tf.where, [_grid(5, dtype=F32) % 2], np.argwhere, name="Where-float",
           grad="integer output"),
    *_per_dtype("SelectV2", tf.where,
                lambda d: [rand(2, 1, 3) > 0, _grid(3, dtype=d), _grid(2, 1, 1, dtype=d) - 9],
                np.where),
    OpSpec("SelectV2", tf.where, [rand(2, 2) > 0, _strings(2, 2), _strings(2, 2)[::-1]],
           np.where, name="SelectV2-string", grad="strings"),
    OpSpec("Select", a.select_v1, [rand(2, 3) > 0, rand(2, 3, seed=1), rand(2, 3, seed=2)],
           np.where),
    OpSpec("Select", a.select_v1, [np.array([True, False]), rand(2, 3, seed=1),
                                   rand(2, 3, seed=2)],
           lambda c, x, y: np.where(c[:, None], x, y), name="Select-rows"),
    *_per_dtype("Slice", lambda x: tf.slice(x, [1, 0, 2], [-1, 2, 1]),
                lambda d: [_grid(3, 4, 5, dtype=d)], lambda x: x[1:, :2, 2:3]),
    OpSpec("StridedSlice", lambda x: tf.strided_slice(x, [0, 3], [3, 0], [1, -1]),
           [_grid(4, 5)], lambda x: x[0:3, 3:0:-1]),
    OpSpec("StridedSlice",
           lambda x: tf.strided_slice(x, [1, 0, 0, 2], [0, 0, 0, 3], [1, 1, 1, 1], begin_mask=1,
                                     end_mask=1, ellipsis_mask=4, new_axis_mask=2,
                                     shrink_axis_mask=8),
           [rand(2, 3, 4)], lambda x: x[:, None, ..., 2], name="StridedSlice-masks"),
    OpSpec("StridedSlice", lambda x: slicing.getitem(x, (-1, slice(None, None, -2), None)),
           [_grid(3, 5, dtype=I64)], lambda x: x[-1, ::-2, None], name="getitem-int64",
           grad="integer"),
    OpSpec("StridedSlice", lambda x: slicing.getitem(x, (1, 2)), [rand(3, 4)],
           lambda x: x[1, 2], name="getitem-scalar"),
    OpSpec("StridedSlice", lambda x: slicing.getitem(x, slice(1, None)), [_strings(3)],
           lambda x: x[1:], name="getitem-string", grad="strings"),
    # bounds as run-time inputs (how a traced `x[i]` passes a symbolic index)
    OpSpec("StridedSlice",
           lambda x, i: slicing._slice(x, {"begin": (i, 1), "end": (i + 1, -1), "strides": (1, 2),
                                           "begin_mask": 0, "end_mask": 0, "ellipsis_mask": 0,
                                           "new_axis_mask": 0, "shrink_axis_mask": 1}, None),
           [rand(3, 6), np.int64(2)], lambda x, i: x[i, 1:-1:2], name="StridedSlice-run-time"),
    OpSpec("StridedSliceGrad", lambda d: slicing.strided_slice_grad(d, [4, 5], [0, 3], [3, 0],
                                                                    [2, -1]),
           [rand(2, 3)], lambda d: _strided_slice_grad_ref(d, (4, 5), np.s_[0:3:2, 3:0:-1])),
    OpSpec("StridedSliceGrad",
           lambda d: slicing.strided_slice_grad(d, [2, 3], [1, 0, 2], [0, 0, 3], [1, 1, 1],
                                                begin_mask=1, end_mask=1, new_axis_mask=2,
                                                shrink_axis_mask=4),
           [rand(2, 1, dtype=F64)], lambda d: _strided_slice_grad_ref(d, (2, 3), np.s_[:, None, 2]),
           name="StridedSliceGrad-masks"),

    # -- shapes
    OpSpec("Shape", tf.shape, [rand(2, 0, 3)], lambda x: np.array(x.shape, I32), grad="shape"),
    OpSpec("Shape", lambda x: tf.shape(x, out_type="int64"), [np.float64(1)],
           lambda x: np.array(x.shape, I64), name="Shape-int64-scalar", grad="shape"),
    OpSpec("ShapeN", lambda x, y: tf.shape_n([x, y]), [_strings(2, 3), _strings(4)],
           lambda x, y: [np.array(x.shape, I32), np.array(y.shape, I32)], grad="shape"),
    OpSpec("Size", tf.size, [rand(2, 3, 4)], lambda x: np.array(x.size, I32), grad="shape"),
    OpSpec("Size", lambda x: tf.size(x, out_type="int64"), [_strings(3)],
           lambda x: np.array(x.size, I64), name="Size-int64", grad="shape"),
    OpSpec("Rank", tf.rank, [rand(2, 3, 1)], lambda x: np.array(x.ndim, I32), grad="shape"),
    OpSpec("BroadcastArgs", tf.broadcast_dynamic_shape,
           [np.array([3, 1], I32), np.array([2, 1, 4], I32)],
           lambda x, y: np.array([2, 3, 4], x.dtype), grad="shape"),
    OpSpec("BroadcastArgs", tf.broadcast_dynamic_shape, [np.array([5], I64), np.array([], I64)],
           lambda x, y: np.array([5], I64), name="BroadcastArgs-int64", grad="shape"),
    # (TF's values: a dim where both are 1 is summed in both, unless the shapes are equal)
    OpSpec("BroadcastGradientArgs", a.broadcast_gradient_args,
           [np.array([2, 1, 3], I32), np.array([3], I32)],
           lambda x, y: [np.array([1], I32), np.array([0, 1], I32)], grad="shape"),
    OpSpec("BroadcastGradientArgs", a.broadcast_gradient_args,
           [np.array([4, 1], I64), np.array([1, 5], I64)],
           lambda x, y: [np.array([1], I64), np.array([0], I64)],
           name="BroadcastGradientArgs-int64", grad="shape"),
    OpSpec("BroadcastGradientArgs", a.broadcast_gradient_args,
           [np.array([1, 1], I32), np.array([1, 1], I32)],
           lambda x, y: [np.zeros(0, I32), np.zeros(0, I32)], name="BroadcastGradientArgs-same",
           grad="shape"),

    # -- contractions and searches
    OpSpec("Einsum", lambda x, y: tf.einsum("ij,jk->ik", x, y), [rand(2, 3), rand(3, 4, seed=1)],
           lambda x, y: x @ y),
    OpSpec("Einsum", lambda x, y: tf.einsum("...ij,...jk->...ik", x, y),
           [rand(2, 1, 2, 3, dtype=F64), rand(3, 3, 2, dtype=F64, seed=1)],
           lambda x, y: x @ y, name="Einsum-ellipsis"),
    OpSpec("Einsum", lambda x: tf.einsum("ii->i", x), [_grid(3, 3, dtype=I32)], np.diagonal,
           name="Einsum-diag", grad="integer"),
    OpSpec("Einsum", lambda x, y, z: tf.einsum("i,j,k->ijk", x, y, z),
           [rand(2), rand(3, seed=1), rand(1, seed=2)],
           lambda x, y, z: np.einsum("i,j,k->ijk", x, y, z), name="Einsum-three"),
    OpSpec("Einsum", lambda x: tf.einsum("bij->", x), [rand(2, 2, 2, dtype=np.complex64)],
           lambda x: np.array(x.sum(), x.dtype), name="Einsum-complex-sum"),
    OpSpec("Einsum", lambda x: tf.einsum("iji->j", x), [rand(3, 2, 3, dtype=F64)],
           lambda x: np.einsum("iji->j", x), name="Einsum-diagonal"),
    OpSpec("Einsum", lambda x, y: tf.einsum("ab...,...b->...a", x, y),
           [rand(2, 3, 4, 5), rand(1, 5, 3, seed=1)],
           lambda x, y: np.einsum("ab...,...b->...a", x, y), name="Einsum-middle-ellipsis"),
    OpSpec("Einsum", lambda x, y: tf.tensordot(x, y, [[1, 2], [1, 0]]),
           [rand(2, 3, 4), rand(4, 3, 5, seed=1)],
           lambda x, y: np.tensordot(x, y, [[1, 2], [1, 0]]), name="tensordot"),
    OpSpec("Einsum", lambda x, y: tf.tensordot(x, y, 0), [rand(2), rand(3, seed=1)],
           lambda x, y: np.multiply.outer(x, y), name="tensordot-outer"),
    OpSpec("LowerBound", tf.searchsorted,
           [_SORTED, np.concatenate([_SORTED[:, :2], rand(3, 2, seed=3)], axis=1)],
           _searchsorted_ref("left"), grad="integer output"),
    OpSpec("LowerBound", tf.searchsorted, [np.array([1, 3, 5], I32), np.array([0, 3, 6, 5], I32)],
           lambda s, v: np.searchsorted(s, v).astype(I32), name="LowerBound-1d",
           grad="integer output"),
    OpSpec("UpperBound", lambda s, v: tf.searchsorted(s, v, "right", out_type="int64"),
           [_SORTED, _SORTED[:, ::2]], _searchsorted_ref("right", I64), grad="integer output"),
    OpSpec("Less", lambda n: tf.sequence_mask(n, 4), [np.array([[1, 4], [0, 2]], I32)],
           lambda n: np.arange(4) < n[..., None], name="sequence_mask", grad="boolean output"),
    OpSpec("Cast", lambda n: tf.sequence_mask(n, 3, dtype="float32"), [np.array([2, 0], I64)],
           lambda n: (np.arange(3) < n[:, None]).astype(F32), name="sequence_mask-float",
           grad="boolean output"),

    # -- space to batch and back (block shape and paddings as attrs, or inputs at run time)
    *_per_dtype("SpaceToBatchND", lambda x: tf.space_to_batch_nd(x, [2, 2], [[0, 1], [1, 0]]),
                lambda d: [_grid(2, 3, 3, 2, dtype=d)],
                lambda x: _space_to_batch_ref(x, [2, 2], [[0, 1], [1, 0]])),
    OpSpec("SpaceToBatchND", lambda x, p: dispatch(a._SPACE_TO_BATCH, (x, p),
                                                   {"block_shape": (2,)}),
           [rand(1, 4, 3), np.array([[1, 1]], I32)],
           lambda x, p: _space_to_batch_ref(x, [2], p), name="SpaceToBatchND-run-time"),
    *_per_dtype("BatchToSpaceND", lambda x: tf.batch_to_space(x, [2, 2], [[0, 1], [1, 0]]),
                lambda d: [_grid(8, 2, 2, 1, dtype=d)],
                lambda x: _batch_to_space_ref(x, [2, 2], [[0, 1], [1, 0]])),
    OpSpec("BatchToSpaceND", lambda x, c: dispatch(a._BATCH_TO_SPACE, (x, c),
                                                   {"block_shape": (3,)}),
           [rand(6, 2, 2), np.array([[2, 1]], I64)],
           lambda x, c: _batch_to_space_ref(x, [3], c), name="BatchToSpaceND-run-time"),
    OpSpec("ParallelConcat", lambda x, y: dispatch(a._PARALLEL_CONCAT, (x, y), {"shape": (2, 3)}),
           [rand(1, 3), rand(1, 3, seed=1)], lambda x, y: np.concatenate([x, y]),
           grad="no gradient in TF (LookupError)"),
    OpSpec("GuaranteeConst", tf.guarantee_const, [rand(2, 3)], lambda x: x,
           grad="no gradient in TF (LookupError)"),
]


def _reverse_prefixes(x, lengths):
    out = x.copy()
    for b, n in enumerate(lengths):
        out[b, :n] = x[b, :n][::-1]
    return out


SPECS += [
    OpSpec("ReverseSequence", lambda x, n: tf.reverse_sequence(x, n, seq_axis=1),
           [rand(3, 4, 2, dtype=np.float64), np.array([1, 4, 2], np.int32)], _reverse_prefixes),
    OpSpec("ReverseSequence", lambda x, n: tf.reverse_sequence(x, n, seq_axis=0, batch_axis=1),
           [rand(4, 3, dtype=np.float64), np.array([0, 3, 4], np.int64)],
           lambda x, n: _reverse_prefixes(x.T, n).T, name="ReverseSequence-batch-axis-1"),
]
SPECS += [
    OpSpec("UnravelIndex", tf.unravel_index,
           [np.array([1, 5, 7], np.int64), np.array([2, 4], np.int64)],
           lambda i, d: np.array(np.unravel_index(i, d), np.int64), grad="integer output"),
    OpSpec("UnravelIndex", tf.unravel_index, [np.array(11, np.int32), np.array([3, 4], np.int32)],
           lambda i, d: np.array(np.unravel_index(i, d), np.int32), grad="integer output",
           name="UnravelIndex-scalar"),
]
