"""TF 1 names of ``tf.compat.v1`` whose TF 2 form renamed or dropped them: the v1 sparse
functions (``tf.compat.v1.sparse.*`` and ``tf.compat.v1.sparse_*``, with their deprecated
argument names), and small TF 1 functions and scopes (`sparse_to_dense`, `setdiff1d`,
`colocate_with`, `verify_tensor_all_finite`, ...).

>>> st = tf.SparseTensor([[0, 1], [1, 0]], [1.0, 2.0], [2, 2])
>>> tf.compat.v1.sparse_reduce_sum(st, reduction_axes=1).numpy()
array([1., 2.], dtype=float32)
"""
import collections
import contextlib
import re

from eagerflow._src.backend.api_export import export
from eagerflow._src.compat import graph_mode, variable_scope
from eagerflow._src.core import context
from eagerflow._src.core import dtypes as _d
from eagerflow._src.core import errors
from eagerflow._src.core.convert import convert_to_tensor, get_static_value
from eagerflow._src.ops import (array_ops, cast_ops, debugging_ops, image_ops, indexed_slices,
                                linalg_ops, math_ops, random_ops, reduction_ops, sparse_ops,
                                string_ops)
from eagerflow._src.core.tensor import Tensor
from eagerflow._src.ops import sparse_tensor
from eagerflow._src.ops.sparse_tensor import SparseTensor
from eagerflow._src.ragged import ragged_ops, ragged_string_ops


def _either(new, old, new_name, old_name):
    """The value of an argument TF 1 also takes under its deprecated name."""
    if new is not None and old is not None:
        raise ValueError(f"Cannot specify both '{new_name}' and '{old_name}'.")
    return old if new is None else new


# -- tf.compat.v1.sparse ---------------------------------------------------------------------

@export("compat.v1.sparse.add", "compat.v1.sparse_add")
def sparse_add(a, b, threshold=None, thresh=None):
    """`tf.sparse.add`, whose `threshold` TF 1 also takes as `thresh`."""
    threshold = _either(threshold, thresh, "threshold", "thresh")
    return sparse_ops.add(a, b, 0 if threshold is None else threshold)


@export("compat.v1.sparse.concat", "compat.v1.sparse_concat")
def sparse_concat(axis, sp_inputs, name=None, expand_nonconcat_dim=False, concat_dim=None,
                  expand_nonconcat_dims=None):
    """`tf.sparse.concat` with TF 1's argument names (`concat_dim`,
    `expand_nonconcat_dim`)."""
    axis = _either(axis, concat_dim, "axis", "concat_dim")
    expand = _either(expand_nonconcat_dims, expand_nonconcat_dim or None,
                     "expand_nonconcat_dims", "expand_nonconcat_dim")
    return sparse_ops.concat(axis, sp_inputs, bool(expand), name=name)


def _reduction(reduce, output_is_sparse, doc):
    def reduction(sp_input, axis=None, keepdims=None, reduction_axes=None, keep_dims=None):
        axis = _either(axis, reduction_axes, "axis", "reduction_axes")
        keepdims = _either(keepdims, keep_dims, "keepdims", "keep_dims")
        return reduce(sp_input, axis, keepdims, output_is_sparse=output_is_sparse)
    reduction.__doc__ = doc
    return reduction


sparse_reduce_sum = export("compat.v1.sparse.reduce_sum", "compat.v1.sparse_reduce_sum")(
    _reduction(sparse_ops.reduce_sum, False, """`tf.sparse.reduce_sum` with TF 1's argument
    names (`reduction_axes`, `keep_dims`)."""))
sparse_reduce_sum_sparse = export("compat.v1.sparse.reduce_sum_sparse",
                                  "compat.v1.sparse_reduce_sum_sparse")(
    _reduction(sparse_ops.reduce_sum, True, """The sum of a `SparseTensor`, as a
    `SparseTensor`."""))
sparse_reduce_max = export("compat.v1.sparse.reduce_max", "compat.v1.sparse_reduce_max")(
    _reduction(sparse_ops.reduce_max, False, """`tf.sparse.reduce_max` with TF 1's argument
    names."""))
sparse_reduce_max_sparse = export("compat.v1.sparse.reduce_max_sparse",
                                  "compat.v1.sparse_reduce_max_sparse")(
    _reduction(sparse_ops.reduce_max, True, """The max of a `SparseTensor`, as a
    `SparseTensor`."""))


class _KeywordRequired:
    def __repr__(self):
        return "KeywordRequired()"


@export("compat.v1.sparse.split", "compat.v1.sparse_split")
def sparse_split(keyword_required=_KeywordRequired(), sp_input=None, num_split=None, axis=None,
                 name=None, split_dim=None):
    """`tf.sparse.split`, whose arguments TF 1 takes by keyword only (`axis` also as
    `split_dim`)."""
    if not isinstance(keyword_required, _KeywordRequired):
        raise ValueError("Keyword arguments are required for this function.")
    if sp_input is None:
        raise ValueError("sp_input is required")
    if num_split is None:
        raise ValueError("num_split is required")
    axis = _either(axis, split_dim, "axis", "split_dim")
    if axis is None:
        raise ValueError("axis is required")
    return sparse_ops.split(sp_input=sp_input, num_split=num_split, axis=axis, name=name)


@export("compat.v1.sparse.merge", "compat.v1.sparse_merge")
def sparse_merge(sp_ids, sp_values, vocab_size, name=None, already_sorted=False):
    """One `SparseTensor` whose last dimension (of size `vocab_size`) holds at column
    ``id`` the value of each id of `sp_ids` (one or a list of `SparseTensor`s) in
    `sp_values`, sorted in row-major order unless `already_sorted`."""
    if isinstance(sp_ids, SparseTensor):
        sp_ids, vocab_size = [sp_ids], [vocab_size]
    ids = [cast_ops.cast(s.values, _d.int64) for s in sp_ids]
    columns = sp_ids[0].indices[:, :-1]
    indices = array_ops.concat([columns] + [array_ops.expand_dims(i, 1) for i in ids], 1)
    shape = array_ops.concat([sp_ids[0].dense_shape[:-1],
                              cast_ops.cast(convert_to_tensor(vocab_size), _d.int64)], 0)
    merged = SparseTensor(indices, sp_values.values, shape)
    if already_sorted:
        return merged
    ordered = sparse_ops.reorder(merged)
    return SparseTensor(ordered.indices, ordered.values, shape)


@export("compat.v1.sparse.matmul")
def sparse_matmul_v1(sp_a, b, adjoint_a=False, adjoint_b=False, name=None):
    """`tf.sparse.sparse_dense_matmul` (TF 1's ``sparse.matmul``)."""
    return sparse_ops.sparse_dense_matmul(sp_a, b, adjoint_a, adjoint_b, name=name)


def _segment(reduce, doc):
    def segment(data, indices, segment_ids, name=None, num_segments=None,
                sparse_gradient=False):
        return reduce(data, indices, segment_ids, num_segments=num_segments, name=name,
                      sparse_gradient=sparse_gradient)
    segment.__doc__ = doc
    return segment


sparse_segment_sum = export("compat.v1.sparse.segment_sum", "compat.v1.sparse_segment_sum")(
    _segment(sparse_ops.segment_sum, """`tf.sparse.segment_sum` with TF 1's argument order
    (`name` before `num_segments`)."""))
sparse_segment_mean = export("compat.v1.sparse.segment_mean",
                             "compat.v1.sparse_segment_mean")(
    _segment(sparse_ops.segment_mean, """`tf.sparse.segment_mean` with TF 1's argument
    order."""))
sparse_segment_sqrt_n = export("compat.v1.sparse.segment_sqrt_n",
                               "compat.v1.sparse_segment_sqrt_n")(
    _segment(sparse_ops.segment_sqrt_n, """`tf.sparse.segment_sqrt_n` with TF 1's argument
    order."""))


@export("compat.v1.sparse_reset_shape")
def sparse_reset_shape(sp_input, new_shape=None):
    """`tf.sparse.reset_shape`."""
    return sparse_ops.reset_shape(sp_input, new_shape)


@export("compat.v1.sparse_matmul")
def sparse_matmul(a, b, transpose_a=False, transpose_b=False, a_is_sparse=False,
                  b_is_sparse=False, name=None):
    """The float32 product of float32 (or bfloat16) matrices `a` and `b` (TF 1's
    ``SparseMatMul``: the sparsity hints change nothing here)."""
    a, b = [x if isinstance(x, Tensor) else convert_to_tensor(x, _d.float32) for x in (a, b)]
    for x, which in ((a, "a"), (b, "b")):
        if x.dtype not in (_d.float32, _d.bfloat16):
            raise TypeError(f"Value passed to parameter '{which}' has DataType "
                            f"{x.dtype.name} not in list of allowed values: float32, bfloat16")
    return linalg_ops.matmul(cast_ops.cast(a, _d.float32), cast_ops.cast(b, _d.float32),
                           transpose_a=transpose_a, transpose_b=transpose_b, name=name)


@export("compat.v1.sparse_to_dense")
def sparse_to_dense(sparse_indices, output_shape, sparse_values, default_value=0,
                    validate_indices=True, name=None):
    """A dense tensor of `output_shape` holding `sparse_values` (one, or one per index) at
    `sparse_indices` (a scalar, a vector of positions in a vector, or a matrix of
    coordinates), `default_value` elsewhere."""
    indices = convert_to_tensor(sparse_indices)
    shape = convert_to_tensor(output_shape)
    try:  # (TF's op: indices checked in order and in bounds, unless not `validate_indices`)
        return sparse_tensor.sparse_to_dense(cast_ops.cast(indices, shape.dtype), shape,
                                             sparse_values, default_value, validate_indices,
                                             name)
    except errors.OpError as e:
        raise errors.listed(e, sparse_indices, output_shape, sparse_values) from None


# -- other TF 1 names --------------------------------------------------------------------------

ListDiff = collections.namedtuple("ListDiff", ["out", "idx"])


@export("compat.v1.setdiff1d")
def setdiff1d(x, y, index_dtype=_d.int32, name=None):
    """``ListDiff(out, idx)``: the values of vector `x` not in `y`, in their order, and their
    positions in `x`.

    >>> out, idx = tf.compat.v1.setdiff1d([1, 2, 3, 4, 5, 6], [1, 3, 5])
    >>> out.numpy(), idx.numpy()
    (array([2, 4, 6], dtype=int32), array([1, 3, 5], dtype=int32))
    """
    x, y = convert_to_tensor(x), convert_to_tensor(y)
    if x.dtype != y.dtype:
        y = convert_to_tensor(y, x.dtype)
    keep = math_ops.logical_not(reduction_ops.reduce_any(
        math_ops.equal(array_ops.expand_dims(x, 1), array_ops.expand_dims(y, 0)), axis=1))
    idx = cast_ops.cast(array_ops.reshape(array_ops.where(keep), [-1]),
                        _d.as_dtype(index_dtype))
    return ListDiff(array_ops.boolean_mask(x, keep, name=name), idx)


@export("compat.v1.floor_div")
def floor_div(x, y, name=None):
    """`x` // `y`, element-wise (``tf.math.floordiv``)."""
    return math_ops.floordiv(x, y, name=name)


@export("compat.v1.get_seed", "compat.v1.random.get_seed")
def get_seed(op_seed):
    """``(graph-level seed, op seed)`` an op of seed `op_seed` uses (None, None without
    seeds)."""
    return random_ops.get_seed(op_seed)


@export("compat.v1.verify_tensor_all_finite")
def verify_tensor_all_finite(t=None, msg=None, name=None, x=None, message=None):
    """`t` (or `x`), checked to hold no NaN or infinity (InvalidArgumentError naming
    `msg`, else)."""
    t = _either(t, x, "t", "x")
    msg = _either(msg, message, "msg", "message")
    return debugging_ops.check_numerics(t, msg, name=name)


@export("compat.v1.batch_gather")
def batch_gather(params, indices, name=None):
    """``tf.gather(params, indices, batch_dims=rank(indices) - 1)``."""
    indices = convert_to_tensor(indices)
    if indices.shape.rank is None:
        raise ValueError("batch_gather does not allow indices with unknown shape.")
    return array_ops.gather(params, indices, batch_dims=indices.shape.rank - 1, name=name)


@export("compat.v1.where")
def where(condition, x=None, y=None, name=None):
    """TF 1's `where`: with `condition` alone, the coordinates of its True elements (as
    `tf.where`); else TF 1's ``Select``, which does not broadcast: `x` and `y` of one shape,
    `condition` of that shape, a scalar, or a vector choosing whole rows.

    >>> tf.compat.v1.where([True, False], [[1, 2], [3, 4]], [[5, 6], [7, 8]]).numpy()
    array([[1, 2],
           [7, 8]], dtype=int32)
    """
    if x is None and y is None:
        return array_ops.where(condition, name=name)
    if x is None or y is None:
        raise ValueError("x and y must both be non-None or both be None.")
    return array_ops.select_v1(condition, x, y, name=name)


@export("compat.v1.bincount")
def bincount(arr, weights=None, minlength=None, maxlength=None, dtype=_d.int32):
    """`tf.math.bincount` (TF 1's arguments)."""
    return reduction_ops.bincount(arr, weights, minlength, maxlength, dtype)


@export("compat.v1.clip_by_average_norm")
def clip_by_average_norm(t, clip_norm, name=None):
    """`t` scaled so its L2 norm divided by its size is at most `clip_norm`."""
    t = convert_to_tensor(t)
    clip_norm = convert_to_tensor(clip_norm, t.dtype)
    size = cast_ops.cast(array_ops.size(t), t.dtype)
    l2norm_inv = math_ops.rsqrt(reduction_ops.reduce_sum(t * t))
    scale = clip_norm * math_ops.minimum(l2norm_inv * size, 1.0 / clip_norm)
    return cast_ops.identity(t * scale, name=name)


@export("compat.v1.colocate_with")
@contextlib.contextmanager
def colocate_with(op, ignore_existing=False):
    """Places the ops made in the block with `op` (one device here: nothing to do)."""
    yield


@export("compat.v1.container")
@contextlib.contextmanager
def container(container_name):
    """Puts the stateful ops made in the block in resource container `container_name`
    (sessions keep one container here); yields the name."""
    yield container_name


@export("compat.v1.random_poisson", "compat.v1.random.poisson")
def random_poisson(lam, shape, dtype=_d.float32, seed=None, name=None):
    """`tf.random.poisson` with TF 1's argument order (`lam` first)."""
    return random_ops.poisson(shape, lam, dtype=dtype, seed=seed, name=name)


@export("compat.v1.extract_image_patches", "compat.v1.image.extract_image_patches")
def extract_image_patches(images, ksizes=None, strides=None, rates=None, padding=None,
                          name=None, sizes=None):
    """`tf.image.extract_patches` (whose `sizes` TF 1 calls `ksizes`)."""
    sizes = _either(ksizes, sizes, "ksizes", "sizes")
    return image_ops.extract_patches(images, sizes, strides, rates, padding, name=name)


@export("compat.v1.zeta")
def zeta(x, q, name=None):
    """The Hurwitz zeta function (``tf.math.zeta``)."""
    return math_ops.zeta(x, q, name=name)


@export("compat.v1.matrix_square_root")
def matrix_square_root(input, name=None):  # noqa: A002 (TF's name)
    """`tf.linalg.sqrtm`."""
    return linalg_ops.sqrtm(input, name=name)


@export("compat.v1.parallel_stack")
def parallel_stack(values, name="parallel_stack"):
    """`tf.stack` of `values` along a new first axis (which must be known in a graph)."""
    return array_ops.parallel_stack(values, name=name)


@export("compat.v1.guarantee_const")
def guarantee_const(input, name=None):  # noqa: A002 (TF's name)
    """`input`, promised constant over the graph's runs."""
    return cast_ops.identity(input, name=name)


@export("compat.v1.no_regularizer")
def no_regularizer(_):
    """The regularizer that adds no loss (None)."""
    return None


@export("compat.v1.op_scope")
@contextlib.contextmanager
def op_scope(values, name, default_name=None):
    """TF 1's earliest name scope: ``name_scope(name, default_name)``."""
    with graph_mode.name_scope(name, default_name, values) as scope:
        yield scope


@export("compat.v1.variable_op_scope")
@contextlib.contextmanager
def variable_op_scope(values, name_or_scope, default_name=None, initializer=None,
                      regularizer=None, caching_device=None, partitioner=None,
                      custom_getter=None, reuse=None, dtype=None, use_resource=None,
                      constraint=None):
    """TF 1's earliest variable scope: ``variable_scope(name_or_scope, default_name, ...)``."""
    with variable_scope.variable_scope(
            name_or_scope, default_name=default_name, values=values, initializer=initializer,
            regularizer=regularizer, caching_device=caching_device, partitioner=partitioner,
            custom_getter=custom_getter, reuse=reuse, dtype=dtype, use_resource=use_resource,
            constraint=constraint) as scope:
        yield scope


def _kept_or_converted(value, kind, dtype, name, mismatch):
    """`value` as it is when of `kind` (a composite tensor), checked to have `dtype`
    (`mismatch(value, dtype)` is the error otherwise); else converted to a tensor."""
    if isinstance(value, kind):
        if dtype is not None and value.dtype != _d.as_dtype(dtype):
            raise mismatch(value, _d.as_dtype(dtype))
        return value
    return convert_to_tensor(value, dtype, name=name)


@export("compat.v1.convert_to_tensor_or_sparse_tensor")
def convert_to_tensor_or_sparse_tensor(value, dtype=None, name=None):
    """`value` as it is when a `SparseTensor` (or made one from a `SparseTensorValue`),
    else as a tensor."""
    if type(value).__name__ == "SparseTensorValue":
        value = SparseTensor(*value)
    return _kept_or_converted(value, SparseTensor, dtype, name, lambda v, d: RuntimeError(
        f"Sparse dtype: requested = {d}, actual = {v.dtype}"))


@export("compat.v1.convert_to_tensor_or_indexed_slices")
def convert_to_tensor_or_indexed_slices(value, dtype=None, name=None):
    """`value` as it is when `IndexedSlices`, else as a tensor."""
    return _kept_or_converted(value, indexed_slices.IndexedSlices, dtype, name,
                              lambda v, d: ValueError(
                                  f"Tensor conversion requested dtype {d.name} for Tensor "
                                  f"with dtype {v.dtype.name}: {v!r}"))


@export("compat.v1.add_check_numerics_ops")
def add_check_numerics_ops():
    """One operation checking every floating-point tensor of the default graph for NaN and
    infinity (InvalidArgumentError naming the first found)."""
    graph = graph_mode.default_v1_graph()
    if graph_mode.v1_graph() is None:
        raise RuntimeError("add_check_numerics_ops() is not compatible with eager "
                           "execution. To check for Inf's and NaN's under eager execution, "
                           "call tf.debugging.enable_check_numerics() once before "
                           "executing the checked operations.")
    checks = []
    for op in graph.get_operations():
        for output in op.outputs:
            if output.dtype in (_d.float16, _d.float32, _d.float64, _d.bfloat16):
                checks.append(debugging_ops.check_numerics(
                    output, f"{op.name}:{output.value_index}"))
    return graph_mode.group(*checks)



@export("compat.v1.string_split")
def string_split(source, sep=None, skip_empty=True, delimiter=None, result_type="SparseTensor",
                 name=None):
    """The tokens of each string of vector `source`, split at every character of `sep`
    (TF 1's `delimiter`; a space by default; "" splits into bytes), empty ones dropped
    with `skip_empty`: a `SparseTensor` (row, token) or with `result_type` "RaggedTensor"
    a ragged tensor.

    >>> tf.compat.v1.string_split(["a b", "c"], result_type="RaggedTensor").to_list()
    [[b'a', b'b'], [b'c']]
    """
    sep = _either(sep, delimiter, "sep", "delimiter")
    sep = " " if sep is None else sep
    source = convert_to_tensor(source, _d.string)
    if source.shape.rank is not None and source.shape.rank != 1:
        raise errors.InvalidArgumentError(
            None, None, f"input must be a vector, got shape: "
                        f"{errors.shape_text(source.shape.as_list())}")
    sep = convert_to_tensor(sep, _d.string)
    chars = get_static_value(sep)
    if chars is None:
        raise NotImplementedError("string_split takes a separator known when the graph is "
                                  "built")
    chars = getattr(chars, "item", lambda: chars)()  # (a 0-d array in a graph)
    chars = chars if isinstance(chars, bytes) else str(chars).encode()
    if not chars:
        tokens = ragged_string_ops.bytes_split(source)
    else:
        first = chars[:1].decode("latin-1")
        if len(chars) > 1:  # (every separator character becomes the first one)
            source = string_ops.regex_replace(
                source, "[" + "".join(re.escape(c) for c in chars.decode("latin-1")) + "]",
                first)
        tokens = ragged_string_ops.split(source, sep=first)
    keep = math_ops.not_equal(tokens.flat_values, "")
    if not skip_empty:  # (all tokens but those of an empty string, which has none in TF 1)
        keep = math_ops.logical_or(keep, array_ops.gather(math_ops.not_equal(source, ""),
                                                          tokens.value_rowids()))
    tokens = ragged_ops.boolean_mask(tokens, tokens.with_flat_values(keep))
    return _tokens_as(tokens, result_type)


@export("compat.v1.strings.split")
def strings_split(input=None, sep=None, maxsplit=-1, result_type="SparseTensor", source=None,
                  name=None):
    """`tf.strings.split`'s tokens (TF 1's `source` is `input`), as a `SparseTensor` of
    (string's index..., token) unless `result_type` is "RaggedTensor".

    >>> tf.compat.v1.strings.split(["a b", "c"]).values.numpy()
    array([b'a', b'b', b'c'], dtype=object)
    """
    input = _either(input, source, "input", "source")
    tokens = ragged_string_ops.split(input, sep=sep, maxsplit=maxsplit, name=name)
    return _tokens_as(tokens, result_type)


def _tokens_as(tokens, result_type):
    """TF 1's split result: ragged `tokens` as a SparseTensor, or as they are for
    "RaggedTensor"."""
    if result_type == "RaggedTensor":
        return tokens
    if result_type != "SparseTensor":
        raise ValueError("result_type must be 'RaggedTensor' or 'SparseTensor'.")
    return tokens.to_sparse()
