"""Static shape/dtype rules shared by many ops (unknown dims are None).

Each rule takes the op's inputs (anything with ``.shape`` and ``.dtype``) and
its attrs, and returns ``(shape, dtype)``.
"""
import numpy as np

from eagerflow._src.core import context
from eagerflow._src.core import dtypes as _d
from eagerflow._src.core import errors
from eagerflow._src.core.tensor import EagerTensor
from eagerflow._src.core.tensor_shape import TensorShape, unknown_shape


def broadcast_shapes(a, b, op_name="BroadcastTo"):
    """NumPy broadcasting of two `TensorShape`s; InvalidArgumentError when impossible."""
    if a.rank is None or b.rank is None:
        return unknown_shape()
    da, db = list(a), list(b)
    n = max(len(da), len(db))
    da = [1] * (n - len(da)) + da
    db = [1] * (n - len(db)) + db
    out = []
    for x, y in zip(da, db):
        if x == 1:
            out.append(y)
        elif y == 1:
            out.append(x)
        elif x is None or y is None:
            out.append(x if y is None else y)
        elif x == y:
            out.append(x)
        else:
            raise errors.InvalidArgumentError(
                None, op_name, f"Incompatible shapes: {list(a)} vs. {list(b)} [Op:{op_name}]")
    return TensorShape(out)


def merge_failure(a, b):
    """Why TF cannot merge known shapes `a` and `b`: their ranks, or the first dims that
    differ."""
    if a.rank != b.rank:
        return f"Shapes must be equal rank, but are {a.rank} and {b.rank}"
    d, (x, y) = next((d, (x, y)) for d, (x, y) in enumerate(zip(a.as_list(), b.as_list()))
                     if None not in (x, y) and x != y)
    return (f"Dimension {d} in both shapes must be equal, but are {x} and {y}. Shapes are "
            f"{errors.shape_text(a.as_list())} and {errors.shape_text(b.as_list())}.")


def same_shapes(op_name):
    """The rule of op `op_name`, whose two inputs have one shape (TF merges what each
    knows), its output's."""
    def rule(x, y, **_):
        if not x.shape.is_compatible_with(y.shape):
            raise shape_error(op_name, merge_failure(x.shape, y.shape), [x.shape, y.shape])
        return x.shape.merge_with(y.shape), x.dtype
    rule.one_shape = True  # (its op computes each output element from the matching inputs')
    return rule


def known_elements(t):
    """What is known before run time of the 1-D integer tensor `t` (a shape, multiples).

    A list of ints with None for the elements only run time knows, or None
    when even its length is unknown. `t` is an eager tensor (all known), a
    symbolic one (partly known: see `static_value`) or anything with ``.shape``.

    >>> known_elements(tf.constant([2, -1]))
    [2, -1]
    """
    if isinstance(t, EagerTensor):
        data = t._data
    else:
        static_value = getattr(t, "static_value", None)
        data = None if static_value is None else static_value(partial=True)
    if data is not None:
        return [None if v is None else int(v) for v in np.asarray(data).reshape(-1).tolist()]
    if t.shape.rank == 1 and t.shape[0] is not None:
        return [None] * t.shape[0]
    return None


def known_value(t):
    """The whole value of tensor `t` known before run time (a NumPy array), else None; None
    too for a stand-in with only a shape and dtype."""
    if isinstance(t, EagerTensor):
        return t._data
    static_value = getattr(t, "static_value", None)
    return None if static_value is None else static_value()


def shape_error(op_name, sentence, shapes, partial=None, computed=None):
    """TF's ValueError for inputs whose static `shapes` break `op_name`'s rule.

    `partial`: ``(index, dims)`` of an input whose known values took part (a
    shape); `computed`: ``(index, value)`` pairs of constant inputs that did (an
    axis). A graph building the op rewrites the text to name its node, from
    the error's ``shape_rule``: ``(sentence, shapes text)``.
    """
    shapes = ", ".join("?" if s.rank is None else errors.shape_text(s.as_list())
                       for s in shapes)
    if partial is not None:
        shapes += (f" and with input tensors computed as partial shapes: input[{partial[0]}] = "
                   f"{errors.shape_text(partial[1])}")
    if computed is not None:
        shapes += " and with computed input tensors: " + ", ".join(
            f"input[{i}] = <{v}>" for i, v in computed)
    error = ValueError(f"{sentence} for '{op_name}' (op: '{op_name}') with input shapes: "
                       f"{shapes}.")
    error.shape_rule = sentence, shapes
    return error


def merge_prefix(op_name, data, prefix, shapes):
    """TF's shape-function check that `data`'s shape starts with `prefix`'s (both known
    rank), a ValueError while tracing."""
    if data.rank < prefix.rank:
        raise shape_error(op_name, f"Shape must be at least rank {prefix.rank} but is rank "
                                   f"{data.rank}", shapes)
    for d, p in zip(data.as_list(), prefix.as_list()):
        if d is not None and p is not None and d != p:
            raise shape_error(op_name, f"Dimensions must be equal, but are {d} and {p}",
                              shapes)


def static_error(message, op_name=None):
    """The error for arguments an op rejects before looking at any value (a bad attr,
    a rank or dims its rule forbids): InvalidArgumentError eagerly, but TF's
    ValueError while a graph is built, as TF's shape functions reject them then."""
    if context.executing_eagerly():
        return errors.InvalidArgumentError(None, op_name, message)
    return ValueError(message)


def check_rank(op_name, inputs, index, rank=None, at_least=None):
    """TF's shape error when input `index` of `inputs` is known not to have `rank` (or at
    least rank `at_least`)."""
    have = inputs[index].shape.rank
    if have is None:
        return
    if rank is not None and have != rank:
        sentence = f"Shape must be rank {rank} but is rank {have}"
    elif at_least is not None and have < at_least:
        sentence = f"Shape must be at least rank {at_least} but is rank {have}"
    else:
        return
    raise shape_error(op_name, sentence, [t.shape for t in inputs])


def at_least_rank(n, op_name):
    """The rule of op `op_name`, whose output is shaped like its input of at least rank `n`."""
    def rule(x, **_):
        check_rank(op_name, [x], 0, at_least=n)
        return x.shape, x.dtype
    return rule


def _broadcast_operands(x, y):
    """The shape of an elementwise op on `x` and `y`; TF's shape error (which a graph
    completes with the node) names the first pair of dims, left to right, that do not
    broadcast."""
    try:
        return broadcast_shapes(x.shape, y.shape)
    except errors.InvalidArgumentError:
        a, b = x.shape.as_list(), y.shape.as_list()
        n = max(len(a), len(b))
        a, b = [1] * (n - len(a)) + a, [1] * (n - len(b)) + b
        p, q = next((p, q) for p, q in zip(a, b)
                    if 1 not in (p, q) and None not in (p, q) and p != q)
        raise shape_error("BroadcastTo", f"Dimensions must be equal, but are {p} and {q}",
                          [x.shape, y.shape]) from None


def binary(x, y, **_):
    """Elementwise binary op: broadcast shape, dtype of the first input."""
    return _broadcast_operands(x, y), x.dtype


def lenient_broadcast(x, y, **_):
    """The shape of ``Equal(incompatible_shape_error=False)`` (TF's ``==``), which gives a
    scalar where `x` and `y` do not broadcast: unknown where run time decides."""
    a, b = x.shape.as_list() if x.shape.rank is not None else None, \
        y.shape.as_list() if y.shape.rank is not None else None
    if a is None or b is None:
        return unknown_shape(), _d.bool
    n = max(len(a), len(b))
    a, b = [1] * (n - len(a)) + a, [1] * (n - len(b)) + b
    out = []
    for p, q in zip(a, b):
        if p == 1 or p == q:
            out.append(q)
        elif q == 1:
            out.append(p)
        elif p is None or q is None:
            return unknown_shape(), _d.bool
        else:
            return TensorShape([]), _d.bool
    return TensorShape(out), _d.bool


def binary_to(dtype):
    """Elementwise binary op with a fixed result dtype (comparisons: bool)."""
    return lambda x, y, **_: (_broadcast_operands(x, y), dtype)


def unary_to(dtype):
    """Elementwise unary op with a fixed result dtype (`is_nan`: bool)."""
    return lambda x, **_: (x.shape, dtype)


def unary_real(x, **_):
    """Elementwise unary op mapping complex to real (`abs`)."""
    return x.shape, x.dtype.real_dtype


def normalize_axis(axis, rank, op_name):
    """`axis` (int or sequence) as a sorted tuple of non-negative ints."""
    axes = (axis,) if isinstance(axis, int) else tuple(axis)
    out = []
    for a in axes:
        if not -rank <= a < max(rank, 1):
            raise errors.InvalidArgumentError(
                None, op_name, f"Invalid reduction dimension {a} for input with {rank} "
                f"dimensions. [Op:{op_name}]")
        out.append(a % rank if rank else 0)
    return tuple(sorted(set(out)))


def reduction(dtype=None):
    """Reduction over attr `axis` (None: all) with attr `keepdims`."""
    def rule(x, axis=None, keepdims=False, **_):
        out_dtype = dtype or x.dtype
        if x.shape.rank is None:  # (reduced over all its axes, whatever they are: a scalar)
            return (TensorShape([]) if axis is None and not keepdims else unknown_shape(),
                    out_dtype)
        if axis is not None and not isinstance(axis, (tuple, list, int)):
            # axes that only run time knows (an input): which dims go is unknown
            return (TensorShape([None] * x.shape.rank) if keepdims else unknown_shape(),
                    out_dtype)
        dims = list(x.shape)
        axes = range(len(dims)) if axis is None else normalize_axis(axis, len(dims), "Reduce")
        if keepdims:
            return TensorShape([1 if i in axes else d for i, d in enumerate(dims)]), out_dtype
        return TensorShape([d for i, d in enumerate(dims) if i not in axes]), out_dtype
    return rule


BOOL = _d.bool
