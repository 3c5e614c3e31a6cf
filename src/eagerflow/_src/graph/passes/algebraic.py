"""Algebraic simplification: operations that leave a value unchanged are skipped.

* ``x * 1``, ``1 * x``, ``x + 0``, ``0 + x``, ``x - 0``, ``x / 1`` become ``x``
  when the result has ``x``'s shape and dtype (the constant does not
  broadcast ``x`` to a bigger shape);
* ``-(-x)`` is ``x``; two transposes compose into one, or none;
* a reshape of a reshape is one reshape, a reshape to the shape ``x`` has is ``x``;
* a cast of a cast through a type that holds every value exactly is one
  cast, a cast to ``x``'s own dtype is ``x``;
* ``Identity`` (and ``StopGradient``: gradients are built before a graph
  runs) is its input.

``x + 0`` gives ``+0.0`` where ``x`` is ``-0.0``; the simplified program gives
``-0.0``, which compares equal.

>>> from eagerflow._src.graph.passes.program import Program
>>> def program_of(fn, *shapes):
...     specs = [tf.TensorSpec(s, tf.float32) for s in shapes]
...     cf = tf.function(fn).get_concrete_function(*specs)
...     return Program.from_graph(cf.graph, cf.inputs, cf.outputs)
>>> program = program_of(lambda x: tf.identity(-(-x)) * 1.0, [2])
>>> [op.type for op in program.operations]
['Placeholder', 'Neg', 'Neg', 'Identity', 'Const', 'Mul', 'Identity']
>>> simplified = simplify(program)  # the Neg and Const left unread go with dead-code elimination
>>> simplified.outputs[0] is simplified.inputs[0]
True
"""
import ml_dtypes
import numpy as np

from eagerflow._src.graph.graph import SymbolicTensor
from eagerflow._src.graph.passes.program import const_value, derive, rewrite
from eagerflow._src.ops import array_ops, cast_ops, math_ops

# op -> (positions where a constant may stand, the value that makes it a no-op)
_NEUTRAL = {math_ops._MUL: ((0, 1), 1), math_ops._ADD: ((0, 1), 0), math_ops._SUB: ((1,), 0),
            math_ops._REAL_DIV: ((1,), 1)}
_PASSED_THROUGH = (cast_ops._IDENTITY, cast_ops._STOP_GRADIENT)


def simplify(program):
    """`program` with the no-op arithmetic above removed or merged."""
    return rewrite(program, _replacement)


def _replacement(op):
    """What runs in `op`'s place, as `rewrite` takes it, or None."""
    result = _simplified(op)
    if result is None:
        return None
    if isinstance(result, SymbolicTensor):
        return (), (result,)
    return (result,), result.outputs  # a cheaper operation in op's place


def _simplified(op):
    """A tensor or new operation giving `op`'s single result, or None."""
    if op.op_def in _NEUTRAL:
        return _without_neutral(op)
    if op.op_def in _PASSED_THROUGH:
        return op.inputs[0] if isinstance(op.inputs[0], SymbolicTensor) else None
    rule = _CHAINS.get(op.op_def)
    if rule is None or not isinstance(op.inputs[0], SymbolicTensor):
        return None
    return rule(op)


def _without_neutral(op):
    positions, neutral = _NEUTRAL[op.op_def]
    out = op.outputs[0]
    for i in positions:
        c = const_value(op.inputs[i])
        x = op.inputs[1 - i]
        if c is not None and _unchanged(x, out, c) and np.all(c == neutral):
            return x
    return None


def _unchanged(x, out, c):
    """Whether ``x (op) c`` has `x`'s dtype and shape (given `c` is the neutral element)."""
    if not isinstance(x, SymbolicTensor) or x.dtype != out.dtype or x.shape.rank is None:
        return False
    dims = x.shape.as_list()
    # Each of c's dims (aligned from the right) is 1 or x's own: c stretches to x, not x to c.
    return c.ndim <= len(dims) and all(d == 1 or d == xd for d, xd in zip(c.shape[::-1],
                                                                           dims[::-1]))


def _double_neg(op):
    inner = op.inputs[0].op
    return inner.inputs[0] if inner.op_def is math_ops._NEG else None


def _double_transpose(op):
    inner = op.inputs[0].op
    x = inner.inputs[0] if inner.op_def is array_ops._TRANSPOSE else None
    if x is None or x.shape.rank is None:
        return None
    rank = x.shape.rank
    first = _perm(inner.attrs["perm"], rank)
    perm = [first[p] for p in _perm(op.attrs["perm"], rank)]
    if perm == list(range(rank)):
        return x
    return derive(op, inputs=(x,), attrs={**op.attrs, "perm": perm})


def _perm(perm, rank):
    return list(range(rank))[::-1] if perm is None else [p % rank for p in perm]


def _reshape(op):
    x = op.inputs[0]
    # With x's shape known statically, the trace already checked every reshape in the chain.
    if not x.shape.is_fully_defined() or op.outputs[0].shape.rank is None:
        return None  # (an output of unknown rank: a shape the graph computes)
    if x.shape.as_list() == op.outputs[0].shape.as_list():
        return x
    inner = x.op
    if inner.op_def is not array_ops._RESHAPE or not inner.inputs[0].shape.is_fully_defined():
        return None
    source = inner.inputs[0]
    if source.shape.as_list() == op.outputs[0].shape.as_list():
        return source
    # the outer shape stays where it was: an attr, or an input (a shape the graph computes)
    return derive(op, inputs=(source, *op.inputs[1:]))


def _cast(op):
    x = op.inputs[0]
    target = op.attrs["DstT"]
    if x.dtype == target:
        return x
    inner = x.op
    if inner.op_def is not cast_ops._CAST or not _lossless(inner.inputs[0].dtype, x.dtype):
        return None
    source = inner.inputs[0]
    return source if source.dtype == target else derive(op, inputs=(source,))


def _lossless(src, dst):
    """Whether every value of dtype `src` converts to `dst` exactly."""
    src, dst = np.dtype(src.as_numpy_dtype), np.dtype(dst.as_numpy_dtype)
    if src == dst:
        return True
    if dst.kind == "c":  # a complex holds what its real part holds
        dst = np.dtype(f"f{dst.itemsize // 2}")
        src = np.dtype(f"f{src.itemsize // 2}") if src.kind == "c" else src
    if src.kind == "b":
        return dst.kind in "biu" or _is_float(dst)
    if src.kind in "iu" and dst.kind in "iu":
        s, d = np.iinfo(src), np.iinfo(dst)
        return d.min <= s.min and s.max <= d.max
    if not _is_float(dst):
        return False
    d = ml_dtypes.finfo(dst)
    if src.kind in "iu":
        return d.nmant + 1 >= np.iinfo(src).bits - (src.kind == "i")
    if not _is_float(src):
        return False
    s = ml_dtypes.finfo(src)
    return (d.nmant >= s.nmant and d.maxexp >= s.maxexp
            and d.minexp - d.nmant <= s.minexp - s.nmant)


def _is_float(dtype):
    return dtype.kind == "f" or dtype.name == "bfloat16"


_CHAINS = {math_ops._NEG: _double_neg, array_ops._TRANSPOSE: _double_transpose,
           array_ops._RESHAPE: _reshape, cast_ops._CAST: _cast}
