"""The ragged versions of TF's functions, and the dispatcher that runs them.

Each handler takes ``(function, arguments)`` (the undispatched public function and its
arguments by parameter name) and returns the result on ragged arguments. The dispatcher is
registered first (see `api_export.add_dispatcher`): a call with no ragged argument is not
its business.
"""
import sys

import numpy as np

from eagerflow._src.backend import api_export
from eagerflow._src.core import context, errors
from eagerflow._src.core import dtypes as _d
from eagerflow._src.core import nest
from eagerflow._src.core.convert import constant as _constant
from eagerflow._src.core.convert import convert_to_tensor, get_static_value
from eagerflow._src.core.tensor import Tensor
from eagerflow._src.core.tensor_spec import TensorSpec
from eagerflow._src.graph import control_flow, functional_ops
from eagerflow._src.graph.control_flow import while_loop
from eagerflow._src.graph.tensor_array import TensorArray
from eagerflow._src.ops import array_ops, cast_ops, debugging_ops, logging_ops, math_ops, \
    reduction_ops, sparse_ops, string_ops
from eagerflow._src.ops.sparse_tensor import SparseTensorSpec
from eagerflow._src.ragged import ragged_kernels, ragged_ops, ragged_string_ops, user_functions
from eagerflow._src.ragged.ragged_ops import DynamicRaggedShape, _public, elementwise
from eagerflow._src.ragged.ragged_tensor import RaggedTensor, RaggedTensorSpec, _NotATensor

_HANDLERS = {}  # undispatched public function -> handler(function, arguments)

_UNARY = (
    "math.abs", "math.acos", "math.acosh", "math.asin", "math.asinh", "math.atan",
    "math.atanh", "cast", "math.ceil", "math.conj", "math.cos", "math.cosh", "math.digamma",
    "math.erf", "math.erfc", "math.erfinv", "math.exp", "math.expm1", "math.floor",
    "math.imag", "math.is_finite", "math.is_inf", "math.is_nan", "math.lgamma", "math.log",
    "math.log1p", "math.log_sigmoid", "math.logical_not", "math.negative", "math.real",
    "math.reciprocal", "math.rint", "math.round", "math.rsqrt", "math.sign", "math.sin",
    "math.sinh", "math.sqrt", "math.square", "math.tan", "math.tanh", "math.sigmoid",
    "math.softplus", "math.ndtri", "nn.relu", "nn.relu6", "nn.elu", "nn.selu", "nn.softsign",
    "nn.leaky_relu", "nn.gelu", "nn.silu", "identity", "ones_like", "zeros_like",
    "saturate_cast", "bitwise.invert", "stop_gradient", "strings.length", "strings.lower",
    "strings.upper", "strings.strip", "strings.regex_replace", "strings.regex_full_match",
    "strings.to_number", "strings.as_string", "strings.to_hash_bucket_fast",
    "strings.to_hash_bucket", "strings.to_hash_bucket_strong", "debugging.check_numerics", "nn.dropout",
    "strings.unicode_script", "strings.unicode_transcode",
    "math.angle", "math.reciprocal_no_nan", "math.bessel_i0", "math.bessel_i0e", "math.bessel_i1",
    "math.bessel_i1e", "math.special.bessel_j0", "math.special.bessel_j1",
    "math.special.bessel_k0", "math.special.bessel_k0e", "math.special.bessel_k1",
    "math.special.bessel_k1e", "math.special.bessel_y0", "math.special.bessel_y1",
    "math.special.dawsn", "math.special.expint", "math.special.fresnel_cos",
    "math.special.fresnel_sin", "math.special.spence", "math.erfcinv", "io.decode_base64",
    "io.encode_base64", "io.decode_compressed", "image.adjust_brightness", "image.adjust_gamma",
    "image.convert_image_dtype", "image.random_brightness", "image.stateless_random_brightness",
    "nn.experimental.stateless_dropout")
_BINARY = (
    "math.add", "math.subtract", "math.multiply", "math.divide", "math.truediv",
    "math.floordiv", "math.floormod", "math.pow", "math.maximum", "math.minimum",
    "math.squared_difference", "math.equal", "math.not_equal", "math.less", "math.less_equal",
    "math.greater", "math.greater_equal", "math.logical_and", "math.logical_or",
    "math.logical_xor", "math.atan2", "realdiv", "truncatediv", "truncatemod",
    "math.divide_no_nan", "math.xdivy", "math.xlogy", "math.multiply_no_nan", "math.zeta",
    "math.igamma", "math.igammac", "math.polygamma", "bitwise.bitwise_and",
    "bitwise.bitwise_or", "bitwise.bitwise_xor", "bitwise.left_shift", "bitwise.right_shift",
    "math.nextafter", "math.xlog1py", "dtypes.complex")
_ALL_ELEMENTWISE = {"clip_by_value": ("t", "clip_value_min", "clip_value_max"),
                    "strings.substr": ("input", "pos", "len"),
                    "math.add_n": ("inputs",), "strings.join": ("inputs",),
                    "where": ("condition", "x", "y"), "math.scalar_mul": ("x",),
                    "nn.embedding_lookup": ("ids",),
                    "nn.sigmoid_cross_entropy_with_logits": ("labels", "logits")}


def _params(fn):
    code = fn.__code__
    return code.co_varnames[:code.co_argcount + code.co_kwonlyargcount]


def _elementwise_handler(names):
    def handler(fn, arguments):
        return elementwise(fn, arguments, names)
    return handler


def _reduction(kind):
    def handler(fn, arguments):
        x = arguments.get("input_tensor", arguments.get("input"))
        return ragged_ops.reduce(x, kind, arguments.get("axis"), bool(arguments.get("keepdims")))
    return handler


def _concat(fn, arguments):
    return ragged_ops._concat_or_stack(list(arguments["values"]), int(arguments["axis"]),
                                       stack_values=False)


def _stack(fn, arguments):
    return ragged_ops.stack(arguments["values"], int(arguments.get("axis") or 0))


def _gather(fn, arguments):
    batch_dims = arguments.get("batch_dims") or 0
    axis = arguments.get("axis")
    return ragged_ops.gather(arguments["params"], arguments["indices"],
                             batch_dims if axis is None else axis, batch_dims)


def _gather_nd(fn, arguments):
    return ragged_ops.gather_nd(arguments["params"], arguments["indices"],
                                arguments.get("batch_dims") or 0)


def _reshape(fn, arguments):
    """TF's reshape of ragged values: of their flat values; to a `DynamicRaggedShape`, a
    ragged tensor of its row lengths."""
    tensor, shape = arguments["tensor"], arguments["shape"]
    if isinstance(shape, RaggedTensor):
        _not_convertible(_NotATensor(shape))
    if isinstance(tensor, RaggedTensor):
        tensor = tensor.flat_values
    if not isinstance(shape, DynamicRaggedShape):
        return fn(tensor, shape)
    return shape.to_ragged(fn(fn(tensor, [-1]), shape.inner_shape))


def _filled(fn, arguments):
    """``zeros``/``ones`` of a `DynamicRaggedShape`."""
    shape = arguments["shape"]
    if not isinstance(shape, DynamicRaggedShape):
        return fn(shape, arguments["dtype"])
    return shape.to_ragged(fn(shape.inner_shape, arguments["dtype"]))


def _fill(fn, arguments):
    """``fill`` of a `DynamicRaggedShape`: a ragged tensor of that shape holding `value`."""
    dims, value = arguments["dims"], arguments["value"]
    if not isinstance(dims, DynamicRaggedShape):
        _not_convertible(_NotATensor(dims if isinstance(dims, RaggedTensor) else value))
    return dims.to_ragged(fn(dims.inner_shape, value))


def _unsorted_segment(fn, arguments):
    """TF's segment reductions of ragged data: ragged ids (the data's outer partition) on the
    flat values; dense ids group whole rows, aligned at their starts (each segment's row as
    long as its longest member)."""
    data, ids, n = arguments["data"], arguments["segment_ids"], arguments["num_segments"]
    if isinstance(ids, RaggedTensor):
        if not isinstance(data, RaggedTensor):
            raise ValueError("segment_ids.shape must be a prefix of data.shape, but "
                             "segment_ids is ragged and data is not.")
        if ids.ragged_rank > data.ragged_rank:
            raise ValueError("segment_ids.shape must be a prefix of data.shape")
        for mine, theirs in zip(ids.nested_row_splits, data.nested_row_splits):
            debugging_ops.assert_equal(mine, cast_ops.cast(theirs, mine.dtype), message=(
                "segment_ids.shape must be a prefix of data.shape"))
        for _ in range(ids.ragged_rank):
            data = data.values
        return fn(data, ids.flat_values, n)
    dtype = data.row_splits_dtype
    ids = cast_ops.cast(convert_to_tensor(ids), dtype)
    n = cast_ops.cast(convert_to_tensor(n), dtype)
    lengths = data.row_lengths()
    out_lengths = math_ops.maximum(reduction_ops.unsorted_segment_max(lengths, ids, n),
                                   array_ops.zeros([], dtype))
    out_splits = array_ops.concat([array_ops.zeros([1], dtype),
                                   reduction_ops.cumsum(out_lengths)], 0)
    rows = data.value_rowids()  # each value's position in its segment's row
    column = math_ops.subtract(array_ops.range(array_ops.size(rows, out_type=dtype),
                                               dtype=dtype),
                               array_ops.gather(data.row_splits, rows))
    position = math_ops.add(array_ops.gather(out_splits, array_ops.gather(ids, rows)), column)
    values = fn(data.values, position, out_splits[-1])
    return RaggedTensor.from_row_splits(values, out_splits, validate=False)


def _squeeze(fn, arguments):
    """TF's squeeze of a ragged tensor: the listed axes (which must be given) of size 1."""
    rt, axis = arguments["input"], arguments.get("axis")
    if axis is None:
        raise ValueError("Ragged.squeeze must have an axis argument.")
    rank = rt.shape.rank
    axes = _static_ints(axis, "axis")
    for i, a in enumerate(axes):
        if not -rank <= a < rank:
            raise ValueError(f"axis[{i}]={a} out of bounds: expected {-rank}<=axis[{i}]<{rank}")
    for a in sorted({a + rank if a < 0 else a for a in axes}, reverse=True):
        if a > rt.ragged_rank or not isinstance(rt, RaggedTensor):
            if isinstance(rt, RaggedTensor):
                rt = rt.with_flat_values(fn(rt.flat_values, [a - rt.ragged_rank]))
            else:
                rt = fn(rt, [a])
            continue
        lengths = rt.nrows() if a == 0 else _level(rt, a).row_lengths()
        debugging_ops.Assert(reduction_ops.reduce_all(math_ops.equal(
            lengths, array_ops.ones_like(lengths))), [
            f"the given axis (axis = {a}) is not squeezable!"])
        rt = rt.values if a == 0 else _drop_level(rt, a)
    return rt


def _level(rt, axis):
    """The ragged tensor whose rows are `rt`'s ragged dimension `axis` (1 <= axis)."""
    for _ in range(axis - 1):
        rt = rt.values
    return rt


def _drop_level(rt, axis):
    """`rt` without its ragged dimension `axis` (whose rows all have one value)."""
    if axis > 1:
        return rt.with_values(_drop_level(rt.values, axis - 1))
    inner = rt.values
    if not isinstance(inner, RaggedTensor):
        return inner
    # each row of `rt` one row of `inner`: its values' rows, cut where `rt`'s rows are
    return RaggedTensor.from_row_splits(inner.values, array_ops.gather(
        inner.row_splits, rt.row_splits), validate=False)


def _split(fn, arguments):
    """TF's split of a ragged tensor along its rows (or a uniform inner axis)."""
    rt, sizes = arguments["value"], arguments["num_or_size_splits"]
    axis = _static_ints(arguments.get("axis") or 0, "axis")[0]
    rank = rt.shape.rank
    axis += rank if axis < 0 else 0
    if axis > rt.ragged_rank:
        return [rt.with_flat_values(v) for v in fn(rt.flat_values, sizes,
                                                   axis=axis - rt.ragged_rank,
                                                   num=arguments.get("num"))]
    if axis != 0:
        if isinstance(sizes, int) and sizes == 1:
            return [rt]
        raise ValueError("split of a ragged tensor along a ragged axis is not supported")
    n = rt.nrows()
    if isinstance(sizes, int):
        size = math_ops.floordiv(n, cast_ops.cast(sizes, n.dtype))
        debugging_ops.assert_equal(n, math_ops.multiply(size, cast_ops.cast(sizes, n.dtype)),
                                   message="Cannot exactly split the `axis` dimension of "
                                           "`value` with the given `num_or_size_split`.")
        starts = [math_ops.multiply(size, cast_ops.cast(i, n.dtype)) for i in range(sizes)]
        limits = starts[1:] + [n]
    else:
        sizes = _static_ints(sizes, "num_or_size_splits")
        if -1 in sizes:  # (the remainder)
            rest = math_ops.subtract(n, cast_ops.cast(sum(v for v in sizes if v != -1),
                                                      n.dtype))
            sizes = [rest if v == -1 else cast_ops.cast(v, n.dtype) for v in sizes]
        starts, position = [], array_ops.zeros([], n.dtype)
        for v in sizes:
            starts.append(position)
            position = math_ops.add(position, cast_ops.cast(v, n.dtype))
        limits = starts[1:] + [position]
    return [ragged_ops.gather(rt, array_ops.range(a, b, dtype=n.dtype))
            for a, b in zip(starts, limits)]


def _dynamic_partition(fn, arguments):
    """TF's dynamic_partition of ragged data: dense partitions pick rows; ragged ones (the
    data's partition) pick the flat values."""
    data, parts, k = arguments["data"], arguments["partitions"], arguments["num_partitions"]
    if isinstance(parts, RaggedTensor):
        if not isinstance(data, RaggedTensor):
            raise ValueError("partitions is ragged and data is not")
        for _ in range(parts.ragged_rank):
            data = data.values
        return fn(data, parts.flat_values, k)
    if not isinstance(data, RaggedTensor):
        _not_convertible(_NotATensor(parts))
    rows = array_ops.range(data.nrows(), dtype=data.row_splits_dtype)
    return [ragged_ops.gather(data, part) for part in fn(rows, parts, k)]


def _bincount(fn, arguments):
    """TF's bincount of ragged values (and weights): of the flat values, or (axis -1) a row
    of counts per row (TF's ops RaggedBincount and RaggedCountSparseOutput)."""
    values = arguments["arr"] if "arr" in arguments else arguments["values"]
    weights = arguments.get("weights")
    options = {k: arguments.get(k) for k in ("minlength", "maxlength", "binary_output")}
    if isinstance(values, RaggedTensor) and isinstance(weights, RaggedTensor) and \
            weights.row_splits is not values.row_splits:
        debugging_ops.assert_equal(weights.row_splits, values.row_splits, message=(
            "'weights' and 'values' must have the same row splits."))
    if fn is api_export.undispatched(sparse_ops.bincount) and arguments.get("axis", 0) in \
            (0, None) and isinstance(values, RaggedTensor):
        # As TF: the rows' values are counted, by RaggedCountSparseOutput per row when they
        # are ragged themselves (DenseCountSparseOutput otherwise).
        if weights is not None:
            weights = ragged_kernels.row_weights(values, weights, values.dtype)
        values = values.values
        if isinstance(values, RaggedTensor):
            return ragged_kernels.count_rows(values, weights, **options)
        return sparse_ops.count_sparse_output(values, weights, name=arguments.get("name"),
                                              **options)
    if arguments.get("axis") not in (-1, 1):
        return fn(values.flat_values if isinstance(values, RaggedTensor) else values,
                  weights.flat_values if isinstance(weights, RaggedTensor) else weights,
                  **{k: v for k, v in arguments.items() if k not in ("arr", "values",
                                                                     "weights", "name")})
    if isinstance(values, RaggedTensor) and isinstance(values.values, RaggedTensor):
        # (TF's error: its counting ops take one row partition)
        raise ValueError("TypeError: object of type 'RaggedTensor' has no len()\n")
    if fn is api_export.undispatched(sparse_ops.bincount):  # (TF's RaggedCountSparseOutput)
        return ragged_kernels.count_rows(values, weights, **options)
    return ragged_kernels.bincount_rows(values, weights, dtype=arguments.get("dtype", _d.int32),
                                        **options)


def ragged_text(rt, summarize=3):
    """TF's text of a ragged tensor in `strings.format` and `print` (a string scalar):
    nested ``[a, b]`` lists of its values (``%f`` floats, ``true``, quoted strings), each
    list of more than ``2 * summarize`` values cut to its first and last `summarize` ones."""
    if summarize is None or summarize == 0 or summarize < -1:
        raise ValueError(f"Expected summarize to be -1 or a positive int, got {summarize!r}")
    values = rt.flat_values
    if values.dtype == _d.string:
        text = string_ops.join(["'", string_ops.regex_replace(values, r"(['\\])", r"\\\1"),
                                "'"])
    else:
        text = string_ops.as_string(values)
    if text.shape.rank is None or text.shape.rank > 1:  # (uniform inner dims: rows too)
        text = RaggedTensor.from_tensor(text, ragged_rank=text.shape.rank - 1,
                                        row_splits_dtype=rt.row_splits_dtype)
    splits = list(rt.nested_row_splits)
    if isinstance(text, RaggedTensor):
        splits += list(text.nested_row_splits)
        text = text.flat_values
    for row_splits in reversed(splits):
        text = _joined_rows(text, row_splits, summarize)
    top = array_ops.stack([array_ops.zeros([], rt.row_splits_dtype),
                           array_ops.size(text, out_type=rt.row_splits_dtype)])
    return array_ops.reshape(_joined_rows(text, top, summarize), [])


def _joined_rows(text, row_splits, summarize):
    """``[a, b, ...]`` of each row of strings `text` cut by `row_splits`."""
    rows = RaggedTensor.from_row_splits(text, row_splits, validate=False)
    if summarize > 0:
        ids = rows.value_rowids()
        lengths = array_ops.gather(rows.row_lengths(), ids)
        position = math_ops.subtract(array_ops.range(array_ops.size(ids, out_type=ids.dtype),
                                                     dtype=ids.dtype),
                                     array_ops.gather(row_splits, ids))
        s = _constant(summarize, ids.dtype)
        cut = math_ops.greater(lengths, math_ops.multiply(s, 2))
        last_shown = math_ops.logical_and(cut, math_ops.equal(position, math_ops.subtract(
            s, 1)))
        text = array_ops.where(last_shown, string_ops.join([text, ", ..."]), text)
        keep = math_ops.logical_or(math_ops.logical_not(cut), math_ops.logical_or(
            math_ops.less(position, s), math_ops.greater_equal(
                position, math_ops.subtract(lengths, s))))
        rows = ragged_ops.boolean_mask(rows.with_values(text), rows.with_values(keep))
    joined = ragged_ops.reduce(rows, ragged_string_ops.Join(", "), 1)
    return string_ops.join(["[", joined, "]"])


def _format(fn, arguments):
    """``strings.format`` with ragged inputs: their text (see `ragged_text`) in the template,
    the other inputs formatted by `fn`."""
    template, inputs = arguments["template"], arguments["inputs"]
    placeholder = arguments.get("placeholder") or "{}"
    summarize = arguments.get("summarize", 3)
    if isinstance(inputs, RaggedTensor) or not isinstance(inputs, (list, tuple)):
        inputs = [inputs]
    pieces = template.split(placeholder)
    if len(pieces) - 1 != len(inputs):
        return fn(template, [0] * len(inputs), placeholder=placeholder)  # (its ValueError)
    parts = [pieces[0]]
    for value, piece in zip(inputs, pieces[1:]):
        parts += [ragged_text(value, summarize) if isinstance(value, RaggedTensor) else
                  fn(placeholder, [value], placeholder=placeholder, summarize=summarize), piece]
    return string_ops.join(parts)


def _print(fn, arguments):
    """``print`` of ragged tensors (among strings and tensors): the line as one string."""
    inputs = arguments["inputs"]
    summarize = arguments.get("summarize", 3)
    sep = arguments.get("sep", " ")
    parts = []
    for i, value in enumerate(inputs):
        parts += ([sep] if i else []) + _printed_pieces(value, summarize, top=True)
    line = string_ops.join(parts)
    return fn(line, output_stream=arguments["output_stream"], end=arguments.get("end", "\n"),
              name=arguments.get("name"))


def _holds_ragged(value):
    if isinstance(value, RaggedTensor):
        return True
    if isinstance(value, dict):
        return any(_holds_ragged(v) for v in value.values())
    return isinstance(value, (list, tuple)) and any(_holds_ragged(v) for v in value)


def _printed_pieces(value, summarize, top=False):
    """The text `print` writes for `value`, as strings and string tensors to join: ragged
    tensors (also inside dicts, lists and tuples) as `ragged_text`, the rest as `print`
    writes it."""
    if isinstance(value, RaggedTensor):
        return [ragged_text(value, summarize if summarize is not None else 3)]
    if not _holds_ragged(value):
        if isinstance(value, str):
            return [value if top else repr(value)]
        return [logging_ops.line_text([value], 3 if summarize is None else summarize)]
    if isinstance(value, dict):  # (keys sorted, as TF shows structures)
        pieces = ["{"]
        for i, k in enumerate(sorted(value)):
            pieces += ([", "] if i else []) + [f"{k!r}: "] + _printed_pieces(value[k], summarize)
        return pieces + ["}"]
    opening, closing = ("[", "]") if isinstance(value, list) else ("(", ")")
    pieces = [opening]
    for i, v in enumerate(value):
        pieces += ([", "] if i else []) + _printed_pieces(v, summarize)
    return pieces + ([","] if isinstance(value, tuple) and len(value) == 1 else []) + [closing]


_NOT_RAGGED_INSIDE = ("The matrices in `a` and `b` may not be ragged in their innermost "
                      "dimension.")


def _matmul(fn, arguments):
    """TF's matmul of ragged operands: matrices (which may not be ragged) as dense ones; a
    batch of matrices of ragged row counts as each row times its batch's matrix."""
    a, b = arguments["a"], arguments["b"]
    flags = {k: arguments.get(k) for k in ("transpose_a", "transpose_b", "adjoint_a",
                                           "adjoint_b")}
    rank = (a if isinstance(a, RaggedTensor) else convert_to_tensor(a)).shape.rank
    rank_b = (b if isinstance(b, RaggedTensor) else convert_to_tensor(b)).shape.rank
    if None not in (rank, rank_b) and rank != rank_b:
        raise ValueError("`a` and `b` must have the same rank.")
    if rank == 2:
        return fn(_uniform(a), _uniform(b), **flags)
    if rank != 3:
        raise ValueError(f"matmul of ragged tensors supports ranks 2 and 3, got rank {rank}")
    if flags["transpose_a"] or flags["adjoint_a"]:
        raise ValueError("matmul of ragged tensors with transpose_a or adjoint_a is not "
                         "supported")
    if not isinstance(a, RaggedTensor):
        a = RaggedTensor.from_tensor(a, row_splits_dtype=b.row_splits_dtype)
    rows = a.values  # (the matrices' rows, of a's batch each)
    if isinstance(rows, RaggedTensor):
        k_rows = rows.row_lengths()
        rows = rows.to_tensor()
    else:
        k_rows = None
    ids = a.value_rowids()
    transposed = flags["transpose_b"] or flags["adjoint_b"]
    widths = None  # (of each batch's product: b's heights when b is ragged and transposed)
    if isinstance(b, RaggedTensor):
        heights = cast_ops.cast(b.row_lengths(), ids.dtype)
        if transposed:
            heights, widths = None, heights
        elif b.ragged_rank > 1:  # (each batch's matrix as wide as its rows)
            widths = cast_ops.cast(math_ops.maximum(ragged_ops.reduce(
                b.row_lengths(axis=2), "max", axis=1), 0), ids.dtype)
        b = b.to_tensor()
    else:
        b, heights = convert_to_tensor(b), None
    if transposed:
        b = array_ops.transpose(b, [0, 2, 1], conjugate=bool(flags["adjoint_b"]))
    k = array_ops.shape(b, out_type=ids.dtype)[1]
    width = array_ops.shape(rows, out_type=ids.dtype)[1]
    # each row as long as its batch's matrix is high
    lengths = k_rows if k_rows is not None else array_ops.fill(
        array_ops.shape(ids, out_type=ids.dtype), width)
    wanted = array_ops.gather(heights, ids) if heights is not None else \
        array_ops.fill(array_ops.shape(ids, out_type=ids.dtype), k)
    debugging_ops.assert_equal(lengths, wanted, message="Matrix size-incompatible: the "
                                                        "rows of `a` and the heights of `b`")
    rows = array_ops.pad(rows, array_ops.stack([
        array_ops.zeros([2], ids.dtype),
        array_ops.stack([array_ops.zeros([], ids.dtype), math_ops.maximum(
            math_ops.subtract(k, width), array_ops.zeros([], ids.dtype))])]))
    product = array_ops.einsum("rk,rkm->rm", rows, array_ops.gather(b, ids))
    if widths is not None:  # (each row cut to its batch's width: no padding columns)
        product = RaggedTensor.from_tensor(product, lengths=array_ops.gather(widths, ids))
    return RaggedTensor.from_row_splits(product, a.row_splits, validate=False)


def _uniform(x, message=_NOT_RAGGED_INSIDE):
    """Dense `x`: a ragged tensor whose rows are all of one shape as a tensor (an assertion
    failing with `message` when they are not)."""
    if not isinstance(x, RaggedTensor):
        return x
    # Each ragged dimension's row lengths must all equal its first (counting values would
    # miss rows of different lengths whose elements are empty: [2, 0] and [3, 0] hold none)
    for lengths in x.nested_row_lengths():
        debugging_ops.assert_equal(lengths, lengths[:1], message=message)
    return x.to_tensor()


def _moments(fn, arguments):
    """``nn.moments`` of a ragged tensor: its mean over `axes`, and (as TF computes it) the
    mean of the squared differences from it."""
    x, axes = arguments["x"], arguments["axes"]
    keepdims = bool(arguments.get("keepdims") or arguments.get("keep_dims"))
    deviation = x - ragged_ops.reduce(x, "mean", axes, True)
    squared = deviation.with_flat_values(math_ops.square(deviation.flat_values))
    return (ragged_ops.reduce(x, "mean", axes, keepdims),
            ragged_ops.reduce(squared, "mean", axes, keepdims))


def _logsumexp(fn, arguments):
    """TF's ``reduce_logsumexp`` of a ragged tensor: log of the sum of exp of the values less
    their (finite) maximum, plus that maximum."""
    x, axis = arguments["input_tensor"], arguments.get("axis")
    keepdims = bool(arguments.get("keepdims"))
    if axis is None and not keepdims:
        return fn(x.flat_values)

    def finite_max(keep):
        m = ragged_ops.reduce(x, "max", axis, keep)
        flat = m.flat_values if isinstance(m, RaggedTensor) else m
        flat = array_ops.where(math_ops.is_finite(flat), flat, array_ops.zeros_like(flat))
        return m.with_flat_values(flat) if isinstance(m, RaggedTensor) else flat
    shifted = x - finite_max(True)
    summed = ragged_ops.reduce(shifted.with_flat_values(math_ops.exp(shifted.flat_values)),
                               "sum", axis, keepdims)
    peak = finite_max(keepdims)
    if isinstance(summed, RaggedTensor):
        return summed.with_flat_values(math_ops.log(summed.flat_values)) + peak
    return math_ops.add(math_ops.log(summed), peak)


def _assert(fn, arguments):
    """The elementwise assertions on the flat values of ragged tensors of one partition."""
    ragged = next(v for v in (arguments.get("x"), arguments.get("y"))
                  if isinstance(v, RaggedTensor))
    args = dict(arguments)
    args["x"], args["y"] = ragged_ops._aligned([arguments.get("x"), arguments.get("y")],
                                               ragged)
    return fn(**args)


def _assert_type(fn, arguments):
    """``assert_type`` of a ragged tensor: of its flat values' dtype (its own)."""
    args = dict(arguments)
    args["tensor"] = args["tensor"].flat_values
    return fn(**args)


def _broadcast_to(fn, arguments):
    """`broadcast_to` a `DynamicRaggedShape`: a ragged tensor of that shape (a ragged input
    of the same row partition)."""
    x, shape = arguments["input"], arguments["shape"]
    if not isinstance(shape, DynamicRaggedShape):
        _not_convertible(_NotATensor(x))
    if isinstance(x, RaggedTensor) and x.row_splits_dtype != shape.dtype:
        raise ValueError("Cannot coerce row_splits.dtype")
    template = shape.to_ragged(array_ops.zeros(shape.inner_shape, _d.int8))
    if not isinstance(template, RaggedTensor):
        return fn(x, shape.inner_shape)
    flat = ragged_ops._aligned([x], template)[0]
    return template.with_flat_values(fn(flat, array_ops.shape(template.flat_values)))


# (the functions taking a DynamicRaggedShape)
_SHAPE_HANDLERS = (_reshape, _filled, _fill, _broadcast_to)


def _where(fn, arguments):
    x, y = arguments.get("x"), arguments.get("y")
    return ragged_ops.where(arguments["condition"], x, y)


def _shape(fn, arguments):
    x = arguments["input"]
    return ragged_ops.DynamicRaggedShape.from_tensor(x, arguments.get("out_type") or _d.int32)


def _size(fn, arguments):
    out_type = arguments.get("out_type") or _d.int32
    return array_ops.size(arguments["input"].flat_values, out_type=out_type)


def _rank(fn, arguments):
    return _constant(arguments["input"].shape.rank, _d.int32)


def _boolean_mask(fn, arguments):
    return ragged_ops.boolean_mask(arguments["tensor"], arguments["mask"])


def _static_ints(value, what):
    """`value` (ints, or a tensor whose value is known while tracing) as a list of ints."""
    known = get_static_value(value) if isinstance(value, Tensor) else value
    if known is None:
        raise ValueError(f"{what} of a ragged tensor's op must be known while tracing")
    return [int(v) for v in np.asarray(known).reshape(-1)]


def _tile(fn, arguments):
    rt, multiples = arguments["input"], arguments["multiples"]
    m = _static_ints(multiples, "multiples")
    if len(m) != rt.shape.rank:
        raise ValueError(f"Expected multiples to have length {rt.shape.rank}, got {len(m)}")
    return _tile_ragged(rt, m)


def _tile_ragged(rt, m):
    """`rt` tiled `m[d]` times along each dimension d: the rows, the elements of each row,
    and (through `values`) every inner dimension, ragged or uniform."""
    if m[0] != 1:
        rt = ragged_ops.gather(rt, array_ops.tile(array_ops.range(rt.nrows()), [m[0]]))
    inner = m[2:]
    if any(v != 1 for v in inner):  # (each element tiled inside: rt.values' dimensions 1...)
        values = rt.values
        rt = rt.with_values(_tile_ragged(values, [1] + inner) if isinstance(
            values, RaggedTensor) else array_ops.tile(values, [1] + inner))
    if len(m) > 1 and m[1] != 1:  # (each row's elements repeated m[1] times, in order)
        lengths = rt.row_lengths()
        k = _constant(m[1], lengths.dtype)
        grown = ragged_ops.range(math_ops.multiply(lengths, k), row_splits_dtype=lengths.dtype)
        rows = grown.value_rowids()
        length = array_ops.gather(lengths, rows)
        where = math_ops.add(array_ops.gather(rt.row_splits, rows),
                             math_ops.floormod(grown.values, math_ops.maximum(
                                 length, array_ops.ones_like(length))))
        rt = grown.with_values(ragged_ops.gather(rt.values, where))
    return rt


def _expand_dims(fn, arguments):
    return ragged_ops.expand_dims(arguments["input"], int(arguments["axis"]))


def _map_fn(fn, arguments):
    """`map_fn` over the rows of ragged tensors (one, or a structure holding them beside dense
    ones): eagerly row by row; in a graph as TF's while loop over tensor lists of the rows,
    a ragged tensor's each encoded as a variant (TF's ops RaggedTensorToVariant and
    RaggedTensorFromVariant), each result written to another (a ragged result encoded too,
    and the list decoded into one ragged tensor after the loop)."""
    elems, func = arguments["elems"], arguments["fn"]
    signature = arguments.get("fn_output_signature") or arguments.get("dtype")
    if signature is None and not isinstance(elems, RaggedTensor):
        raise ValueError("The two structures don't have the same nested structure: map_fn "
                         "of a structure holding ragged tensors needs `fn_output_signature` "
                         "for results of another structure.")
    return _map_rows(fn, func, elems, signature, None)


def _vectorized_map(fn, arguments):
    """`vectorized_map` over elems holding ragged tensors: as TF's, `fn` gets each row of
    one as a dense tensor, so their rows must have one shape (InvalidArgumentError else,
    when the function runs)."""
    def dense(value):
        if not isinstance(value, RaggedTensor) or not context.executing_eagerly():
            return _uniform(value, "PartialTensorShape: Incompatible shapes during merge: the "
                                   "rows of a ragged tensor of vectorized_map's elems differ "
                                   "in shape")
        if value.nrows() == 0:  # (TF's, stacking the rows of none)
            raise errors.InvalidArgumentError(
                None, None, "Tried to stack elements of an empty list with non-fully-defined "
                            "element_shape: <unknown>")
        size = int(np.prod(value.bounding_shape().numpy()))
        if size and value.flat_values.shape.num_elements() == size:
            return value.to_tensor()  # (all its values fill its bounding shape: uniform rows)
        shapes = [tuple(row.shape) if isinstance(row, Tensor)
                  else tuple(row.bounding_shape().numpy().tolist()) for row in value]
        odd = [s for s in shapes if s != shapes[0]]
        if odd or value.flat_values.shape.num_elements() != size:
            got = odd[0] if odd else shapes[0]
            raise errors.InvalidArgumentError(
                None, None, f"PartialTensorShape: Incompatible shapes during merge: "
                            f"[{','.join(map(str, shapes[0]))}] vs. "
                            f"[{','.join(map(str, got))}]")
        return value.to_tensor()
    eager = context.executing_eagerly()
    elems = nest.map_structure(
        lambda v: v if eager and isinstance(v, RaggedTensor) and v.ragged_rank > 1
        else dense(v), arguments["elems"])
    if any(isinstance(v, RaggedTensor) for v in nest.flatten(elems)):
        return _ragged_rows_map(arguments["fn"], elems)
    return fn(**{**arguments, "elems": elems})


def _ragged_rows_map(func, elems):
    """`vectorized_map` eagerly over `elems` holding ragged tensors of ragged rows (a ragged
    rank of 2 or more): as TF's, `func` gets each row of one as a ragged tensor (of one
    ragged dimension less), and must return dense tensors, which are stacked (TF cannot
    stack ragged results: ValueError).  The rows' values and row splits must each have
    one shape (TF's InvalidArgumentError)."""
    flat = nest.flatten(elems)
    counts = [int(v.nrows()) if isinstance(v, RaggedTensor) else v.shape[0] for v in flat]
    # (each ragged input's rows sliced once: eager ragged row slicing is not cheap)
    rows = [list(v) if isinstance(v, RaggedTensor) else v for v in flat]
    results, first = [], []
    for i in range(max(counts)):  # (a tensor of one row gives it to every row)
        result = user_functions.call(func, nest.pack_sequence_as(
            elems, [v[i if n > 1 else 0] for v, n in zip(rows, counts)]))
        if any(isinstance(r, RaggedTensor) for r in nest.flatten(result)):
            raise ValueError("No pfor vectorization defined for RaggedTensorToVariant: the "
                             "function of vectorized_map returned a RaggedTensor, and the "
                             "rows' ragged results cannot be stacked")
        if not i:  # (TF stacks the rows' components, when it runs: each of one shape)
            for v, v_rows in zip(flat, rows):
                if isinstance(v, RaggedTensor):
                    parts = []
                    for row in v_rows:
                        functional_ops._check_row_shapes(
                            parts, [row.flat_values, *row.nested_row_splits])
        functional_ops._check_row_shapes(first, result)
        results.append(result)
    return nest.pack_sequence_as(results[0], [array_ops.stack(list(leaves)) for leaves in
                                              zip(*[nest.flatten(r) for r in results])])


def _map_dense_rows(func, elems, signature, rows_class):
    """`map_fn` over the rows of (dense) `elems` with ragged results (`signature` a
    `RaggedTensorSpec`): the results stacked as ragged rows, as TF's."""
    rows = rows_class(elems)
    rows.row_splits_dtype = None
    return _map_rows(None, func, elems, signature, rows)


class _RaggedRows:
    """The rows of `elems`, a ragged tensor or a structure holding ragged and dense tensors
    (of one number of rows, `count`); while a graph builds, held in tensor lists for a loop
    to read (a ragged tensor's rows as variants)."""

    def __init__(self, elems):
        self._structure = elems
        self._flat = [v if isinstance(v, RaggedTensor) else convert_to_tensor(v)
                      for v in nest.flatten(elems)]
        ragged = [v for v in self._flat if isinstance(v, RaggedTensor)]
        self.dtype, self.row_splits_dtype = ragged[0].dtype, ragged[0].row_splits_dtype
        counts = [v.nrows() if isinstance(v, RaggedTensor) else v.shape[0]
                  for v in self._flat]
        known = [int(c) if isinstance(c, int) else get_static_value(c) for c in counts]
        known = [int(c) for c in known if c is not None]
        for c in known[1:]:
            if c != known[0]:
                raise ValueError(f"Dimensions {known[0]} and {c} are not compatible")
        if context.executing_eagerly():
            self.count = known[0]
            return
        first = self._flat[0]
        self.count = first.nrows(out_type=_d.int32) if isinstance(first, RaggedTensor) else \
            array_ops.shape(first)[0]
        self._arrays = [
            TensorArray(_d.variant, size=self.count, element_shape=[]).unstack(
                ragged_kernels.to_variant(v, batched=True)) if isinstance(v, RaggedTensor)
            else TensorArray(v.dtype, size=self.count, element_shape=v.shape[1:]).unstack(v)
            for v in self._flat]

    def __getitem__(self, i):
        """Row `i` of every tensor, in the structure of `elems`."""
        if context.executing_eagerly():
            parts = [ragged_ops.getitem(v, i) if isinstance(v, RaggedTensor) else v[i]
                     for v in self._flat]
        else:
            parts = [ragged_kernels.from_variant(
                ta.read(i), v.ragged_rank - 1, v.ragged_rank - 1, v.dtype, v.row_splits_dtype,
                v.flat_values.shape[1:]) if isinstance(v, RaggedTensor) else ta.read(i)
                for v, ta in zip(self._flat, self._arrays)]
        return nest.pack_sequence_as(self._structure, parts)


def _check_ragged_result(spec, value):
    """TF's ValueError unless `value`, a row's result, fits the `RaggedTensorSpec` given for
    it: as many ragged dimensions (none: a dense tensor), its dtype and a compatible shape."""
    if not isinstance(value, RaggedTensor):
        value = convert_to_tensor(value, dtype_hint=spec.dtype)
    rank = value.ragged_rank if isinstance(value, RaggedTensor) else 0
    if (rank == spec.ragged_rank and value.dtype == spec.dtype and
            value.shape.is_compatible_with(spec.shape)):
        return
    got = value._type_spec if isinstance(value, RaggedTensor) else TensorSpec(value.shape,
                                                                               value.dtype)
    raise ValueError(f"Error in map_fn:\n  Expected `fn` to return a:\n    {spec!r}\n  But it "
                     f"returned a:\n    {got!r}\n    (value={value!s})\n  To fix, update the "
                     f"`fn_output_signature` (or `dtype`) argument to `map_fn`.")


def _map_rows(fn, func, elems, signature, dense_rows):
    """`map_fn` of `func` over the rows of `elems` (holding ragged tensors), or over
    `dense_rows` (a `functional_ops._Rows` of dense elems, whose results are ragged).

    Each entry of `signature` (nested as the results) that is a `RaggedTensorSpec` stacks
    its results as ragged rows, the others as dense ones; no signature means one ragged
    result, as `elems`."""
    specs = [None] if signature is None else nest.flatten(signature)
    ragged = [s is None or isinstance(s, RaggedTensorSpec) for s in specs]
    rows = _RaggedRows(elems) if dense_rows is None else dense_rows
    splits = [s.row_splits_dtype if isinstance(s, RaggedTensorSpec) else rows.row_splits_dtype
              if s is None else None for s in specs]

    def call(i):
        result = user_functions.call(func, rows[i]) if dense_rows is None else func(rows[i])
        flat = [result] if signature is None else nest.flatten(result)
        if len(flat) != len(specs):
            nest.assert_same_structure(signature, result)
        for spec, r in zip(specs, flat):
            if isinstance(spec, RaggedTensorSpec):
                _check_ragged_result(spec, r)
        return [(r.with_row_splits_dtype(splits[j]) if isinstance(r, RaggedTensor) else
                 convert_to_tensor(r)) if ragged[j] else r for j, r in enumerate(flat)]

    def pack(flat):
        return flat[0] if signature is None else nest.pack_sequence_as(signature, flat)

    dense = [j for j, is_ragged in enumerate(ragged) if not is_ragged]
    if context.executing_eagerly():
        n = rows.count if isinstance(rows.count, int) else int(rows.count)
        results = [call(i) for i in range(n)]
        out = [None] * len(specs)
        for j in range(len(specs)):
            if not ragged[j]:
                continue
            if results:
                out[j] = ragged_ops.stack([r[j] for r in results])
                if isinstance(out[j], RaggedTensor):
                    out[j] = out[j].with_row_splits_dtype(splits[j])
            else:
                dtype = rows.dtype if specs[j] is None else specs[j].dtype
                out[j] = RaggedTensor.from_row_lengths(
                    array_ops.zeros([0], dtype), _constant([], splits[j]), validate=False)
        if dense:  # (map_fn's checks of dtypes and shapes)
            stacked = functional_ops.map_fn(
                lambda i: [results[int(i)][j] for j in dense], array_ops.range(n),
                fn_output_signature=[specs[j] for j in dense])
            for j, t in zip(dense, stacked):
                out[j] = t
        return pack(out)
    n = rows.count
    # (sparse results are gathered as functional_ops' map_fn gathers them)
    sparse = {j: functional_ops.SparseResults(s, n) for j, s in enumerate(specs)
              if isinstance(s, SparseTensorSpec)}
    arrays = [sparse[j].arrays if j in sparse else
              TensorArray(_d.variant, size=n, element_shape=[]) if ragged[j] else
              TensorArray(_d.as_dtype(getattr(s, "dtype", s)), size=n)
              for j, s in enumerate(specs)]
    traced = {}

    def body(i, *arrays):
        written = []
        for j, (ta, result) in enumerate(zip(arrays, call(i))):
            if j in sparse:
                written.append(sparse[j].write(ta, i, result))
                continue
            if ragged[j]:
                traced[j] = (result.ragged_rank if isinstance(result, RaggedTensor) else 0,
                             result.dtype, (result.flat_values if isinstance(
                                 result, RaggedTensor) else result).shape[1:])
                result = ragged_kernels.to_variant(result, batched=False)
            written.append(ta.write(i, result))
        return (i + 1, *written)
    _, *arrays = while_loop(lambda i, *_: i < n, body, (_constant(0), *arrays))
    out = []
    for j, ta in enumerate(arrays):
        if j in sparse:
            out.append(sparse[j].join(ta))
        elif ragged[j]:
            rank, dtype, inner = traced[j]
            result = ragged_kernels.from_variant(ta.stack(), rank, rank + 1, dtype, splits[j],
                                                 inner)
            if isinstance(n, int):  # the rows of dense elems, known while tracing, as TF's
                result.row_splits.set_shape([n + 1])
            out.append(result)
        else:
            out.append(ta.stack())
    return pack(out)


def _cumsum(fn, arguments):
    """TF's ragged cumsum: along the values of the innermost rows, the uniform inner axes, or
    (an outer axis) of the padded tensor, cut back to the input's rows."""
    rt = arguments["x"]
    options = {"exclusive": bool(arguments.get("exclusive")),
               "reverse": bool(arguments.get("reverse"))}
    axis = _static_ints(arguments.get("axis") or 0, "axis")[0]
    rank = rt.shape.rank
    if not -rank <= axis < rank:
        raise ValueError(f"axis={axis} out of bounds: expected {-rank}<=axis<{rank}")
    axis += rank if axis < 0 else 0
    if axis > rt.ragged_rank:
        return rt.with_flat_values(fn(rt.flat_values, axis - rt.ragged_rank, **options))
    if axis == rt.ragged_rank:  # (padding zeros add nothing to the sums)
        inner = RaggedTensor.from_row_splits(rt.flat_values, rt.nested_row_splits[-1],
                                             validate=False)
        summed = fn(inner.to_tensor(), 1, **options)
        return rt.with_flat_values(
            RaggedTensor.from_tensor(summed, lengths=inner.row_lengths()).values)
    summed = fn(rt.to_tensor(), axis, **options)
    return RaggedTensor.from_tensor(summed, lengths=rt.nested_row_lengths(),
                                    ragged_rank=rt.ragged_rank)


def _one_hot(fn, arguments):
    rt = arguments["indices"]
    axis = arguments.get("axis")
    axis = -1 if axis is None else int(axis)
    if axis >= 0 and axis <= rt.ragged_rank:
        raise ValueError(f"axis ({axis}) must be greater than indices.ragged_rank "
                         f"({rt.ragged_rank}).")
    options = {k: arguments.get(k) for k in ("depth", "on_value", "off_value", "dtype")}
    return rt.with_flat_values(fn(rt.flat_values, axis=axis if axis < 0 else
                                  axis - rt.ragged_rank, **options))


def _reverse(fn, arguments):
    rt = arguments["tensor"]
    axes = _static_ints(arguments["axis"], "axis")
    rank = rt.shape.rank
    for axis in sorted({a + rank if a < 0 else a for a in axes}):
        rt = _reverse_axis(rt, axis)
    return rt


def _reverse_axis(rt, axis):
    if axis == 0:
        n = rt.nrows()
        return ragged_ops.gather(rt, math_ops.subtract(math_ops.subtract(n, 1), array_ops.range(
            n, dtype=n.dtype)))
    if axis > rt.ragged_rank:
        return rt.with_flat_values(array_ops.reverse(rt.flat_values, [axis - rt.ragged_rank]))
    if axis > 1:
        return rt.with_values(_reverse_axis(rt.values, axis - 1))
    # inside each row: value i of a row from limit - 1 - (i - start)
    rows = rt.value_rowids()
    splits = rt.row_splits
    position = array_ops.range(array_ops.size(rows, out_type=rows.dtype), dtype=rows.dtype)
    source = math_ops.subtract(math_ops.add(array_ops.gather(splits[:-1], rows),
                                            array_ops.gather(splits[1:], rows)),
                               math_ops.add(position, _constant(1, rows.dtype)))
    values = rt.values
    return rt.with_values(ragged_ops.gather(values, source) if isinstance(values, RaggedTensor)
                          else array_ops.gather(values, source))


def _resize_images(fn, arguments):
    """TF's resize of a ragged batch of images ``[batch, (height), (width), channels]``: each
    image resized alone (as a dense one), into a dense float32 batch."""
    images = arguments["images"]
    if images.shape.rank != 4:
        raise ValueError("tf.image.resize: images.shape.rank must be 4 if images is ragged.")
    size = convert_to_tensor(arguments["size"], _d.int32)
    known = get_static_value(size)
    out_shape = [None, None] if known is None else [int(v) for v in known]
    signature = TensorSpec(out_shape + images.shape[-1:].as_list(), _d.float32)
    options = {k: v for k, v in arguments.items() if k not in ("images", "size", "name")}

    def one(image):
        if isinstance(image, RaggedTensor):
            image = image.to_tensor()
        return fn(image, size, **options)

    def resized():
        return _map_rows(api_export.undispatched(_public("map_fn")), one, images, signature,
                         None)

    def empty():
        channels = array_ops.shape(images.flat_values)[-1:]
        return array_ops.zeros(array_ops.concat([[0], size, channels], 0))

    batch = images.shape[0]
    if batch is not None:
        return empty() if batch == 0 else resized()
    result = control_flow.cond(math_ops.equal(images.nrows(), 0), empty, resized)
    result.set_shape([None] + signature.shape.as_list())
    return result


def _reduce_join(fn, arguments):
    join = ragged_string_ops.Join(arguments.get("separator") or "")
    axis = arguments.get("axis")  # (TF 1's also named `reduction_indices`, `keep_dims`)
    axis = arguments.get("reduction_indices") if axis is None else axis
    keepdims = arguments.get("keepdims") or arguments.get("keep_dims")
    return ragged_ops.reduce(arguments["inputs"], join, axis, bool(keepdims))


def _softmax(log):
    def handler(fn, arguments):
        rt = arguments["logits"]
        axis = arguments.get("axis")
        rank = rt.shape.rank
        axis = rank - 1 if axis is None else int(axis) + (rank if int(axis) < 0 else 0)
        if axis > rt.ragged_rank:  # a uniform inner dimension: on the flat values
            return rt.with_flat_values(fn(rt.flat_values, axis=axis - rt.ragged_rank))
        if axis != rank - 1 or axis != rt.ragged_rank:
            raise ValueError("softmax of a ragged tensor supports its innermost dimension")
        inner = rt
        while isinstance(inner.values, RaggedTensor):
            inner = inner.values
        x, ids, n = inner.values, inner.value_rowids(), inner.nrows()
        # (shifted by each row's largest value, as softmax is)
        shifted = math_ops.subtract(x, array_ops.gather(
            reduction_ops.unsorted_segment_max(x, ids, n), ids))
        exp = math_ops.exp(shifted)
        total = array_ops.gather(reduction_ops.unsorted_segment_sum(exp, ids, n), ids)
        out = math_ops.subtract(shifted, math_ops.log(total)) if log else \
            math_ops.truediv(exp, total)
        return rt.with_flat_values(out)
    return handler


def _dispatch(function, arguments):
    """The dispatcher of calls with ragged arguments (see `api_export.dispatch_call`)."""
    leaves = nest.flatten(list(arguments.values()))
    if not any(isinstance(v, (RaggedTensor, DynamicRaggedShape)) for v in leaves) or \
            any(getattr(v, "_keras_symbolic", False) for v in leaves):
        # (a Keras functional model's ragged tensor stands for its whole value: Keras makes
        # the call a layer)
        return NotImplemented
    ragged_ops.check_splits_dtypes(leaves)
    fn = api_export.undispatched(function)
    handler = _HANDLERS.get(fn)
    if handler is None or (handler not in _SHAPE_HANDLERS and not any(
            isinstance(v, RaggedTensor) for v in leaves)):
        _not_convertible(sys.exc_info()[1])
    return handler(fn, arguments)


def _not_convertible(error):
    """Raises TF's error for a value given where a tensor is needed, with no ragged version
    of the function: `error` is the conversion's `SymbolicCall`."""
    value = getattr(error, "value", None)
    if context.executing_eagerly() and not isinstance(value, str):
        # (TF's eager conversion asks the value for its len())
        raise ValueError(f"TypeError: object of type '{type(value).__name__}' has no "
                         f"len()\n") from None
    # TF's TypeError, a plain one (the `SymbolicCall` stays internal)
    raise TypeError(str(error)) from None


def _sparse_lookup(fn, arguments):
    """The embedding lookups of ragged ids (and weights): those of the `SparseTensor`s they
    make, each row of ids one row of the result."""
    arguments = dict(arguments)
    ids_name = "sp_ids" if "sp_ids" in arguments else "sparse_ids"
    weights_name = "sp_weights" if ids_name == "sp_ids" else "sparse_weights"
    ids, weights = arguments[ids_name], arguments.get(weights_name)
    if not isinstance(ids, RaggedTensor) or not isinstance(weights, (RaggedTensor, type(None))):
        raise TypeError(f"sp_ids must be of the same type as sp_weights, received "
                        f"{type(ids).__name__!r} for sp_ids and {type(weights).__name__!r} "
                        f"for sp_weights.")
    arguments[ids_name] = ids.to_sparse()
    if weights is not None:
        arguments[weights_name] = weights.to_sparse()
    return fn(**arguments)


def register_signature(function, name):
    """Gives `function` the ragged version of the public function `name`, which `function`
    is with another signature (TF 1's: the same arguments by the same names, or its
    elementwise ones first under other names: ``compat.v1.zeros_like(tensor)``)."""
    handler = _HANDLERS[api_export.undispatched(_public(name))]
    function = api_export.undispatched(function)
    if name in _UNARY or name in _ALL_ELEMENTWISE:
        count = len(_ALL_ELEMENTWISE.get(name, "x"))
        handler = _elementwise_handler(_params(function)[:count])
    _HANDLERS[function] = handler


def _register():
    for name in _UNARY:
        fn = _public(name)
        if fn is not None:
            _HANDLERS[api_export.undispatched(fn)] = _elementwise_handler(
                _params(api_export.undispatched(fn))[:1])
    for name in _BINARY:
        fn = _public(name)
        if fn is not None:
            _HANDLERS[api_export.undispatched(fn)] = _elementwise_handler(
                _params(api_export.undispatched(fn))[:2])
    for name, params in _ALL_ELEMENTWISE.items():
        fn = _public(name)
        if fn is not None:
            _HANDLERS[api_export.undispatched(fn)] = _elementwise_handler(params)
    special = {"where": _where, "concat": _concat, "stack": _stack, "gather": _gather,
               "gather_nd": _gather_nd, "reshape": _reshape, "zeros": _filled,
               "ones": _filled, "fill": _fill, "squeeze": _squeeze, "split": _split,
               "dynamic_partition": _dynamic_partition, "math.bincount": _bincount,
               "sparse.bincount": _bincount, "strings.format": _format, "print": _print,
               "linalg.matmul": _matmul, "broadcast_to": _broadcast_to,
               "nn.moments": _moments, "debugging.assert_type": _assert_type, "math.reduce_logsumexp": _logsumexp,
               "shape": _shape, "size": _size, "rank": _rank, "boolean_mask": _boolean_mask,
               "tile": _tile, "expand_dims": _expand_dims, "map_fn": _map_fn,
               "vectorized_map": _vectorized_map,
               "reverse": _reverse, "strings.reduce_join": _reduce_join,
               "math.cumsum": _cumsum, "one_hot": _one_hot,
               "nn.softmax": _softmax(False), "nn.log_softmax": _softmax(True),
               "image.resize": _resize_images,
               "nn.embedding_lookup_sparse": _sparse_lookup,
               "nn.safe_embedding_lookup_sparse": _sparse_lookup, "compat.v1.image.resize": _resize_images}
    for kind in ("equal", "none_equal", "less", "less_equal", "greater", "greater_equal",
                 "near"):
        special[f"debugging.assert_{kind}"] = _assert
    for kind in ("sum", "prod", "max", "min", "mean", "sqrt_n"):
        special[f"math.unsorted_segment_{kind}"] = _unsorted_segment
    for kind in ("sum", "prod", "max", "min", "mean", "any", "all", "variance", "std"):
        special[f"math.reduce_{kind}"] = _reduction(kind)
    for name, handler in special.items():
        fn = _public(name)
        if fn is not None:
            _HANDLERS[api_export.undispatched(fn)] = handler
    # (a TF function traced itself, ``tf.function(tf.reduce_sum)``, is called by the
    # function machinery's conversion step on the user's behalf)
    api_export.add_dispatcher(_dispatch, first=True, outside=(
        api_export.__name__.rpartition(".backend.")[0] + ".autograph.conversion",
        user_functions.__name__))
    # ``dense * ragged``: the operator's helper calls the op for the user's code
    api_export.see_through(array_ops.__name__.rpartition(".")[0] + ".overloads")


_register()
functional_ops.ragged_results = _map_dense_rows
