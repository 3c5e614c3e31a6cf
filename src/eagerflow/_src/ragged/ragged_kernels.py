"""TF's ops of ragged components that TF's graphs of ragged programs hold: `RaggedCross`
(``tf.ragged.cross``), `RaggedBincount` (``tf.math.bincount`` per row),
`RaggedCountSparseOutput` (``tf.sparse.bincount``), and `RaggedTensorToVariant` /
`RaggedTensorFromVariant`, which ``tf.map_fn`` over ragged rows uses to keep each row (or
each result) as one element of a tensor list.

A ragged tensor encoded as a variant is a `RaggedVariant` (its row splits and values); a
batched encoding is a vector of them, one per row.

>>> v = tf.raw_ops.RaggedTensorToVariant(rt_nested_splits=[[0, 2, 3]],
...                                      rt_dense_values=[1.0, 2.0, 3.0], batched_input=True)
>>> tf.raw_ops.RaggedTensorFromVariant(encoded_ragged=v[1], input_ragged_rank=0,
...                                    output_ragged_rank=0, Tvalues=tf.float32).output_dense_values
<tf.Tensor: shape=(1,), dtype=float32, numpy=array([3.], dtype=float32)>
"""
import numpy as np

from eagerflow._src.core import dtypes as _d
from eagerflow._src.core import errors
from eagerflow._src.core.convert import convert_to_tensor
from eagerflow._src.core.dispatch import dispatch
from eagerflow._src.core.node_forms import NodeForm, tf_args, tf_defaults, tf_nodes
from eagerflow._src.core.registry import PER_ELEMENT, batching_rules, no_gradient_entry, \
    register, register_gradient
from eagerflow._src.core.tensor_shape import TensorShape
from eagerflow._src.ops import array_ops, cast_ops, math_ops, reduction_ops, sparse_ops
from eagerflow._src.ops.sparse_tensor import SparseTensor

_I64 = _d.int64
_INDEX = (_d.int32, _d.int64)


def _invalid(message):
    return errors.InvalidArgumentError(None, None, message)


def _checked_splits(splits, nvals):
    """Row splits as the counting kernels read them: TF's errors for a bad start or end;
    a decrease counts as no row (TF's kernels walk the splits upwards)."""
    splits = np.asarray(splits).astype(np.int64)
    if splits.size == 0:
        raise _invalid("Splits must be non-empty")
    if splits[0] != 0:
        raise _invalid(f"Splits must start with 0, not with {splits[0]}")
    if splits[-1] != nvals:
        raise _invalid(f"Splits must end with the number of values, got {splits[-1]} "
                       f"instead of {nvals}")
    return np.maximum.accumulate(splits)


def _rows_of(splits, nvals):
    return np.searchsorted(splits, np.arange(nvals), side="right") - 1


def _checked_weights(weights, values):
    weights = np.asarray(weights)
    if weights.size and weights.shape != values.shape:
        raise _invalid(f"Weights and values must have the same shape. Weight shape: "
                       f"[{','.join(map(str, weights.shape))}]; values shape: "
                       f"[{','.join(map(str, values.shape))}]")
    return weights.reshape(-1) if weights.size else None


# -- RaggedBincount -------------------------------------------------------------------------
def _ragged_bincount(xp, splits, values, size, weights, binary_output=False):
    values = np.asarray(values).reshape(-1)
    size = int(size)
    if size < 0:
        raise _invalid(f"size ({size}) must be non-negative")
    splits = _checked_splits(splits, values.size)
    out_dtype = np.asarray(weights).dtype
    weights = _checked_weights(weights, values)
    if values.size and values.min() < 0:
        raise _invalid("Input must be non-negative")
    out = np.zeros((splits.size - 1) * size, out_dtype)
    keep = values < size
    linear = (_rows_of(splits, values.size) * size + values)[keep]
    if binary_output:
        out[linear] = 1
    else:
        np.add.at(out, linear, 1 if weights is None else weights[keep])
    return out.reshape(splits.size - 1, size)


def _ragged_bincount_rule(splits, values, size, weights, binary_output=False):
    rows = splits.shape[0] - 1 if splits.shape.rank == 1 and splits.shape[0] is not None \
        else None
    return TensorShape([rows, None]), weights.dtype


_RAGGED_BINCOUNT = register("RaggedBincount", _ragged_bincount, _ragged_bincount_rule,
                            tied=(1, 2), dtypes=_INDEX, type_attr="Tidx",
                            input_names=("values", "size"))
tf_nodes[_RAGGED_BINCOUNT] = NodeForm(types={"Tidx": 1, "T": 3})
tf_args[_RAGGED_BINCOUNT] = ("splits", "values", "size", "weights")
no_gradient_entry("RaggedBincount")  # (its weights')
tf_defaults[_RAGGED_BINCOUNT] = {"binary_output": False}


# -- RaggedCountSparseOutput ------------------------------------------------------------------
def _ragged_count(xp, splits, values, weights, binary_output, minlength=-1, maxlength=-1):
    values = np.asarray(values).reshape(-1)
    weights_array = np.asarray(weights)
    splits = _checked_splits(splits, values.size)
    weights = _checked_weights(weights_array, values)
    if values.size and values.min() < 0:
        raise _invalid("Input values must all be non-negative")
    rows = _rows_of(splits, values.size)
    values = values.astype(np.int64)
    keep = values < maxlength if maxlength >= 0 else np.ones(values.size, bool)
    rows, values = rows[keep], values[keep]
    width = maxlength if maxlength >= 0 else max(int(values.max(initial=0)) + 1, minlength)
    # (each row's distinct values, in order: TF's kernel sorts them)
    linear, position = np.unique(rows * max(width, 1) + values, return_inverse=True)
    if binary_output:
        counts = np.ones(linear.size, weights_array.dtype)
    else:
        counts = np.zeros(linear.size, weights_array.dtype)
        np.add.at(counts, position, 1 if weights is None else weights[keep])
    indices = np.stack([linear // max(width, 1), linear % max(width, 1)], 1).astype(np.int64)
    return [indices.reshape(-1, 2), counts, np.array([splits.size - 1, width], np.int64)]


def _ragged_count_rule(splits, values, weights, binary_output, minlength=-1, maxlength=-1):
    return [(TensorShape([None, 2]), _I64), (TensorShape([None]), weights.dtype),
            (TensorShape([2]), _I64)]


_RAGGED_COUNT = register("RaggedCountSparseOutput", _ragged_count, _ragged_count_rule,
                         multi=True, tied=())
tf_nodes[_RAGGED_COUNT] = NodeForm(types={"T": 1, "output_type": 2}, outputs=(
    "output_indices", "output_values", "output_dense_shape"))
tf_args[_RAGGED_COUNT] = ("splits", "values", "weights")
no_gradient_entry("RaggedCountSparseOutput")
tf_defaults[_RAGGED_COUNT] = {"minlength": -1, "maxlength": -1}


# -- RaggedCross ------------------------------------------------------------------------------
_CROSS_LISTS = ("ragged_values_types", "ragged_splits_types", "sparse_values_types",
                "dense_types")


def _cross_parts(arrays, input_order):
    """The inputs of a RaggedCross, in `input_order`, each as sparse ``(indices, values,
    shape)`` parts (`sparse_ops`'s cross kernel takes those)."""
    count = {kind: input_order.count(kind) for kind in "RSD"}
    lists = {}
    at = 0
    for name, n in (("ragged_values", count["R"]), ("ragged_splits", count["R"]),
                    ("sparse_indices", count["S"]), ("sparse_values", count["S"]),
                    ("sparse_shape", count["S"]), ("dense", count["D"])):
        lists[name] = [np.asarray(a) for a in arrays[at:at + n]]
        at += n
    if at != len(arrays):
        raise _invalid(f"input_order \"{input_order}\" does not match the {len(arrays)} "
                       f"inputs of RaggedCross")
    parts, taken = [], {kind: 0 for kind in "RSD"}
    names = {"R": "ragged tensor", "S": "sparse tensor", "D": "dense tensor"}
    sizes = {"R": len(lists["ragged_values"]), "S": len(lists["sparse_values"]),
             "D": len(lists["dense"])}
    for kind in input_order:
        if kind not in names:
            raise _invalid(f"Unexpected input_order value {kind!r}")
        i = taken[kind]
        if i >= sizes[kind]:
            raise _invalid(f"input_order \"{input_order}\" specifies reading a {names[kind]} "
                           f"value at index {i} from a list of {sizes[kind]} values.")
        taken[kind] += 1
        if kind == "R":
            values, splits = lists["ragged_values"][i], lists["ragged_splits"][i].astype(np.int64)
            rows = _rows_of(splits, values.size)
            columns = np.arange(values.size) - splits[rows]
            parts.append((np.stack([rows, columns], 1).astype(np.int64).reshape(-1, 2), values,
                          np.array([splits.size - 1, 0], np.int64)))
        elif kind == "S":
            parts.append((lists["sparse_indices"][i], lists["sparse_values"][i],
                          lists["sparse_shape"][i]))
        else:
            dense = lists["dense"][i]
            if dense.ndim != 2:
                raise _invalid("tf.ragged.cross only supports inputs with rank=2.")
            rows, cols = dense.shape
            grid = np.indices((rows, cols)).reshape(2, -1).T.astype(np.int64)
            parts.append((grid, dense.reshape(-1), np.array([rows, cols], np.int64)))
    return parts


def _ragged_cross(xp, *arrays, input_order, hashed_output, num_buckets, hash_key,
                  out_values_type, out_row_splits_type):
    parts = _cross_parts(arrays, input_order)
    if not parts:
        values = np.zeros(0, np.int64) if hashed_output else np.zeros(0, object)
        return [values, np.zeros(1, _d.as_dtype(out_row_splits_type).as_numpy_dtype)]
    batch = {int(shape[0]) for _, _, shape in parts}
    if len(batch) > 1:
        raise _invalid("inputs must all have the same batch dimension size.")
    flat = []
    for indices, values, shape in parts:
        if values.dtype.kind in "iu":
            values = values.astype(np.int64)
        flat += [indices, values, shape]
    indices, values, _ = sparse_ops._cross_kernel(
        xp, *flat, num=len(parts), hashed=hashed_output, num_buckets=num_buckets,
        hash_key=int(hash_key) & ((1 << 64) - 1), sep=b"_X_")
    nrows = batch.pop()
    splits = np.zeros(nrows + 1, np.int64)
    np.cumsum(np.bincount(indices[:, 0], minlength=nrows), out=splits[1:])
    return [values, splits.astype(_d.as_dtype(out_row_splits_type).as_numpy_dtype)]


def _ragged_cross_rule(*inputs, input_order, hashed_output, num_buckets, hash_key,
                       out_values_type, out_row_splits_type):
    return [(TensorShape([None]), _d.as_dtype(out_values_type)),
            (TensorShape([None]), _d.as_dtype(out_row_splits_type))]


def _cross_attrs(attrs, inputs):
    """TF's list attrs of a RaggedCross node: its inputs' dtypes, list by list."""
    order = attrs["input_order"]
    r, s, d = (order.count(kind) for kind in "RSD")
    dtypes = [t.dtype for t in inputs]
    at = {"R": 0, "Rs": r, "Si": 2 * r, "Sv": 2 * r + s, "D": 2 * r + 3 * s}
    return {**attrs, "Nsparse": s, "ragged_values_types": tuple(dtypes[:r]),
            "ragged_splits_types": tuple(dtypes[at["Rs"]:at["Rs"] + r]),
            "sparse_values_types": tuple(dtypes[at["Sv"]:at["Sv"] + s]),
            "dense_types": tuple(dtypes[at["D"]:at["D"] + d])}


_RAGGED_CROSS = register("RaggedCross", _ragged_cross, _ragged_cross_rule, multi=True, tied=(),
                         not_differentiable="crosses features")
tf_nodes[_RAGGED_CROSS] = NodeForm(types={}, ignored=("Nsparse",) + _CROSS_LISTS,
                                   outputs=("output_values", "output_row_splits"),
                                   rewrite=_cross_attrs)
tf_args[_RAGGED_CROSS] = ("*ragged_values", "*ragged_row_splits", "*sparse_indices",
                          "*sparse_values", "*sparse_shape", "*dense_inputs")


# -- RaggedTensorToVariant / RaggedTensorFromVariant ------------------------------------------
_C_NAMES = {_d.float32: "float", _d.float64: "double"}


class RaggedVariant:
    """A ragged tensor held as one variant element: its row splits (a list of arrays, empty
    for a dense tensor) and its values."""

    __slots__ = ("splits", "values")

    def __init__(self, splits, values):
        self.splits, self.values = list(splits), values

    def __repr__(self):
        dtype = _d.from_numpy(self.values.dtype) if self.values.dtype != object else _d.string
        splits = _d.from_numpy(self.splits[0].dtype).name if self.splits else "INVALID"
        return (f"<RaggedTensorVariant(dtype={_C_NAMES.get(dtype, dtype.name)}, "
                f"ragged_rank={len(self.splits)}, splits_dtype={splits}>")


def _variants(shape):
    return np.empty(shape, _d.VARIANT_ARRAY)


def _to_variant(xp, *arrays, batched_input):
    splits, values = [np.asarray(s) for s in arrays[:-1]], np.asarray(arrays[-1])
    if not batched_input:
        out = _variants(())
        out["variant"][()] = RaggedVariant(splits, values)
        return out
    if not splits:  # (each row of a dense tensor)
        if values.ndim == 0:
            raise _invalid("Requires the values to be at least rank 1 for batched input")
        out = _variants(values.shape[0])
        for i in range(values.shape[0]):
            out["variant"][i] = RaggedVariant([], values[i])
        return out
    outer, inner = splits[0].astype(np.int64), splits[1:]
    out = _variants(outer.size - 1)
    for i in range(outer.size - 1):
        start, stop = int(outer[i]), int(outer[i + 1])
        row = []
        for level in inner:  # (the row's part of each level below, from 0)
            cut = level[start:stop + 1]
            row.append(cut - cut[0])
            start, stop = int(cut[0]), int(cut[-1])
        out["variant"][i] = RaggedVariant(row, values[start:stop])
    return out


def _to_variant_rule(*inputs, batched_input):
    if not batched_input:
        return TensorShape([]), _d.variant
    first = inputs[0]
    n = None
    if first.shape.rank is not None and first.shape.rank >= 1 and first.shape[0] is not None:
        n = first.shape[0] - (1 if len(inputs) > 1 else 0)
    return TensorShape([n]), _d.variant


_TO_VARIANT = register("RaggedTensorToVariant", _to_variant, _to_variant_rule, tied=())
tf_nodes[_TO_VARIANT] = NodeForm(
    types={}, ignored=("RAGGED_RANK", "Tvalues", "Tsplits"), outputs=("encoded_ragged",),
    rewrite=lambda attrs, inputs: {**attrs, "RAGGED_RANK": len(inputs) - 1,
                                   "Tvalues": inputs[-1].dtype,
                                   "Tsplits": inputs[0].dtype if len(inputs) > 1 else _I64})
tf_args[_TO_VARIANT] = ("*rt_nested_splits", "rt_dense_values")


def _decoded(element, input_ragged_rank, values_dtype, splits_dtype):
    if not isinstance(element, RaggedVariant):
        raise _invalid("Input Tensor is not a RaggedTensorVariant")
    if len(element.splits) != input_ragged_rank:
        raise _invalid(f"Encoded input RaggedTensorVariant has ragged_rank="
                       f"{len(element.splits)}.  Expected ragged_rank={input_ragged_rank}.")
    found = _d.from_numpy(element.values.dtype) if element.values.dtype != object \
        else _d.string
    if found != values_dtype:
        raise _invalid(f"Expected values Tensor dtype: {values_dtype.name}, found: "
                       f"{_C_NAMES.get(found, found.name)}")
    for s in element.splits:
        if _d.from_numpy(s.dtype) != splits_dtype:
            raise _invalid(f"Expected row_splits Tensor dtype: {splits_dtype.name}, found: "
                           f"{_d.from_numpy(s.dtype).name}")
    return element


def _from_variant(xp, encoded, input_ragged_rank, output_ragged_rank, Tvalues, Tsplits=_I64):
    encoded = np.asarray(encoded)
    encoded = encoded["variant"] if encoded.dtype == _d.VARIANT_ARRAY else encoded
    values_dtype, splits_dtype = _d.as_dtype(Tvalues), _d.as_dtype(Tsplits)
    if input_ragged_rank == -1:
        input_ragged_rank = output_ragged_rank - encoded.ndim
    if output_ragged_rank != input_ragged_rank + encoded.ndim:
        raise _invalid(f"output_ragged_rank must be equal to input_ragged_rank + "
                       f"encoded_ragged.dims(); output_ragged_rank: {output_ragged_rank}, "
                       f"input_ragged_rank: {input_ragged_rank}, encoded_ragged.dims(): "
                       f"{encoded.ndim}")
    np_splits = splits_dtype.as_numpy_dtype
    elements = [_decoded(e, input_ragged_rank, values_dtype, splits_dtype)
                for e in encoded.reshape(-1)]
    out = []
    # (the encoded tensor's own dimensions: uniform row partitions)
    for d in range(encoded.ndim - 1):
        rows, width = int(np.prod(encoded.shape[:d + 1])), encoded.shape[d + 1]
        out.append(np.arange(rows + 1, dtype=np_splits) * width)
    if encoded.ndim == 0:
        return [s.astype(np_splits) for s in elements[0].splits] + [elements[0].values]
    if input_ragged_rank == 0:
        lengths = [e.values.shape[0] if e.values.ndim else 1 for e in elements]
    else:
        lengths = [e.splits[0].size - 1 for e in elements]
    out.append(np.concatenate([[0], np.cumsum(lengths, dtype=np.int64)]).astype(np_splits))
    for level in range(input_ragged_rank):  # each level's splits, shifted row by row
        pieces, offset = [np.zeros(1, np.int64)], 0
        for e in elements:
            s = e.splits[level].astype(np.int64)
            pieces.append(s[1:] + offset)
            offset += int(s[-1])
        out.append(np.concatenate(pieces).astype(np_splits))
    shapes = [e.values.shape for e in elements]
    for i, shape in enumerate(shapes[1:], 1):
        if len(shape) != len(shapes[0]):
            raise _invalid(f"Rank of values must match for all components; values shape at "
                           f"index 0: [{','.join(map(str, shapes[0]))}], values shape at "
                           f"index {i}: [{','.join(map(str, shape))}]")
        if shape[1:] != shapes[0][1:]:
            raise _invalid(f"Values shape mismatch between components; values shape at "
                           f"index 0: [{','.join(map(str, shapes[0]))}], values shape at "
                           f"index {i}: [{','.join(map(str, shape))}]")
    if elements:
        values = np.concatenate([e.values.reshape((-1,) + e.values.shape[1:])
                                 if e.values.ndim else e.values.reshape(1) for e in elements])
    else:
        values = np.zeros(0, values_dtype.as_numpy_dtype if values_dtype != _d.string
                          else object)
    return out + [values.astype(values.dtype if values_dtype == _d.string
                                else values_dtype.as_numpy_dtype, copy=False)]


def _from_variant_rule(encoded, input_ragged_rank, output_ragged_rank, Tvalues, Tsplits=_I64):
    return [(TensorShape([None]), _d.as_dtype(Tsplits))] * output_ragged_rank + [
        (TensorShape(None), _d.as_dtype(Tvalues))]


_FROM_VARIANT = register("RaggedTensorFromVariant", _from_variant, _from_variant_rule,
                         multi=True, tied=(), grad_takes_none=True)
tf_nodes[_FROM_VARIANT] = NodeForm(types={}, outputs=(
    ("output_nested_splits", "output_ragged_rank"), "output_dense_values"))
tf_args[_FROM_VARIANT] = ("encoded_ragged",)
tf_defaults[_FROM_VARIANT] = {"Tsplits": _I64}



# -- gradients: through the encoding, to the values (a missing element's gradient is zeros) ----
def _variant_gradient(xp, encoded_grad, row_splits, dense_values_shape, Tvalues):
    encoded = np.asarray(encoded_grad)
    encoded = encoded["variant"] if encoded.dtype == _d.VARIANT_ARRAY else encoded
    shape = tuple(int(d) for d in np.asarray(dense_values_shape).reshape(-1))
    dtype = _d.as_dtype(Tvalues).as_numpy_dtype

    def values_of(element, piece_shape):
        if isinstance(element, RaggedVariant):
            return np.asarray(element.values, dtype).reshape(piece_shape)
        return np.zeros(piece_shape, dtype)  # (no gradient reached this element)
    if encoded.ndim == 0:
        return values_of(encoded[()], shape)
    splits = np.asarray(row_splits)
    if splits.ndim == 0:  # (each element one row of a dense tensor)
        pieces = [values_of(e, shape[1:]) for e in encoded.reshape(-1)]
        return np.stack(pieces) if pieces else np.zeros(shape, dtype)
    # (an element's gradient holds its row's values; one that none reached, the row's count of
    # values, which the row splits give for a ragged rank of 1)
    pieces = [values_of(e, (np.asarray(e.values).shape[0] if isinstance(e, RaggedVariant) else
                            int(splits[i + 1] - splits[i]),) + shape[1:])
              for i, e in enumerate(encoded.reshape(-1))]
    out = np.concatenate(pieces) if pieces else np.zeros(shape, dtype)
    if out.shape != shape:
        raise _invalid(f"The gradients of the encoded rows hold {out.shape[0]} values, but "
                       f"the values have shape [{','.join(map(str, shape))}]")
    return out


def _variant_gradient_rule(encoded_grad, row_splits, dense_values_shape, Tvalues):
    return TensorShape(None), _d.as_dtype(Tvalues)


_TO_VARIANT_GRADIENT = register("RaggedTensorToVariantGradient", _variant_gradient,
                                _variant_gradient_rule, tied=(),
                                not_differentiable="a gradient itself")
tf_nodes[_TO_VARIANT_GRADIENT] = NodeForm(types={"Tsplits": 1}, outputs=("dense_values_grad",))
tf_args[_TO_VARIANT_GRADIENT] = ("encoded_ragged_grad", "row_splits", "dense_values_shape")


@register_gradient("RaggedTensorToVariant")
def _to_variant_grad(op, grad):
    values = op.inputs[-1]
    splits = op.inputs[0] if len(op.inputs) > 1 else convert_to_tensor(np.int64(0))
    values_grad = dispatch(_TO_VARIANT_GRADIENT, (grad, splits, array_ops.shape(
        values, out_type=_I64)), {"Tvalues": values.dtype})
    return [None] * (len(op.inputs) - 1) + [values_grad]


@register_gradient("RaggedTensorFromVariant")
def _from_variant_grad(op, *grads):
    if grads[-1] is None:
        return [None]
    batched = op.inputs[0].shape.rank == 1 if op.inputs[0].shape.rank is not None else \
        op.attrs["output_ragged_rank"] > 0
    return [dispatch(_TO_VARIANT, list(op.outputs[:-1]) + [grads[-1]],
                     {"batched_input": batched})]


batching_rules.assign(PER_ELEMENT, _RAGGED_BINCOUNT, _RAGGED_COUNT, _RAGGED_CROSS, _TO_VARIANT,
                      _FROM_VARIANT, _TO_VARIANT_GRADIENT)


# -- the functions that run them --------------------------------------------------------------
def row_weights(values, weights, dtype):
    """The weights of a ragged `values` as a flat tensor (empty when None), as TF's
    bincounts take them."""
    if weights is None:  # (a constant, as TF's)
        return convert_to_tensor(np.zeros(0, dtype.as_numpy_dtype))
    if not isinstance(weights, type(values)):
        raise ValueError(f"`weights` must be a RaggedTensor if `values` is a RaggedTensor. "
                         f"Received argument weights={weights} of type: "
                         f"{type(weights).__name__}.")
    return weights.values


def bincount_rows(values, weights=None, minlength=None, maxlength=None, dtype=_d.int32,
                  binary_output=False, name=None):
    """``tf.math.bincount(values, axis=-1)`` of a 2-D ragged `values` (op RaggedBincount):
    a row of counts per row, as wide as the largest value + 1 (within `minlength` and
    `maxlength`)."""
    if weights is not None and binary_output:
        raise ValueError("Arguments `binary_output` and `weights` are mutually exclusive. "
                         "Please specify only one.")
    if not values.dtype.is_integer:
        values = values.with_flat_values(cast_ops.cast(values.flat_values, _d.int32))
    index = values.dtype
    flat = values.values
    nonempty = math_ops.greater(array_ops.size(flat), 0)
    size = math_ops.multiply(cast_ops.cast(nonempty, index), math_ops.add(
        reduction_ops.reduce_max(flat), np.ones((), index.as_numpy_dtype)))
    if minlength is not None:
        size = math_ops.maximum(convert_to_tensor(minlength, index), size)
    if maxlength is not None:
        size = math_ops.minimum(convert_to_tensor(maxlength, index), size)
    weights = row_weights(values, weights, _d.as_dtype(dtype))
    return dispatch(_RAGGED_BINCOUNT, (values.row_splits, flat, size, weights),
                    {"binary_output": bool(binary_output)}, name)


def count_rows(values, weights=None, minlength=None, maxlength=None, binary_output=False,
               name=None):
    """``tf.sparse.bincount(values, axis=-1)`` of a 2-D ragged `values` (op
    RaggedCountSparseOutput): each row's counts as a SparseTensor."""
    if weights is not None and binary_output:
        raise ValueError("Arguments `binary_output` and `weights` are mutually exclusive. "
                         "Please specify only one.")
    weights = row_weights(values, weights, values.dtype)
    indices, counts, shape = dispatch(_RAGGED_COUNT, (values.row_splits, values.values, weights),
                                      {"binary_output": bool(binary_output),
                                       "minlength": -1 if minlength is None else int(minlength),
                                       "maxlength": -1 if maxlength is None else int(maxlength)},
                                      name)
    return SparseTensor(indices, counts, shape)


def cross(ragged, sparse, dense, input_order, hashed_output, num_buckets, hash_key,
          splits_dtype, name=None):
    """The op RaggedCross of 2-D ragged, sparse and dense inputs (each list in the order of
    `input_order`): ``(values, row_splits)``."""
    inputs = ([r.values for r in ragged] + [r.row_splits for r in ragged] +
              [s.indices for s in sparse] + [s.values for s in sparse] +
              [s.dense_shape for s in sparse] + list(dense))
    return dispatch(_RAGGED_CROSS, inputs, {
        "input_order": input_order, "hashed_output": bool(hashed_output),
        "num_buckets": int(num_buckets), "hash_key": int(hash_key),
        "out_values_type": _I64 if hashed_output else _d.string,
        "out_row_splits_type": splits_dtype}, name)


def to_variant(value, batched):
    """A ragged tensor (or a dense one, of ragged rank 0) encoded as a variant: one scalar,
    or with `batched` a vector of its rows (op RaggedTensorToVariant)."""
    if hasattr(value, "nested_row_splits"):
        parts = list(value.nested_row_splits) + [value.flat_values]
    else:
        parts = [value]
    return dispatch(_TO_VARIANT, parts, {"batched_input": bool(batched)})


def from_variant(encoded, input_ragged_rank, output_ragged_rank, dtype, splits_dtype,
                 inner=None):
    """The ragged tensor (a dense one for ragged rank 0) decoded from variant `encoded`
    (op RaggedTensorFromVariant); `inner`: the values' shape past their first dimension."""
    from eagerflow._src.ragged.ragged_tensor import RaggedTensor
    out = dispatch(_FROM_VARIANT, (encoded,), {
        "input_ragged_rank": input_ragged_rank, "output_ragged_rank": output_ragged_rank,
        "Tvalues": dtype, "Tsplits": splits_dtype})
    splits, values = out[:-1], out[-1]
    if inner is not None and inner.rank is not None:
        values.set_shape(TensorShape([None]).concatenate(inner))
    if not splits:
        return values
    return RaggedTensor.from_nested_row_splits(values, splits, validate=False)
