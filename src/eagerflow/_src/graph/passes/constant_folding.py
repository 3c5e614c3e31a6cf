"""Constant folding: pure operations computable before run time become ``Const`` nodes.

An operation folds when every input is a ``Const``, or when its result
follows from its input's static shape alone (an op registered ``shape_only``:
``Shape``, ``Size``, ``Rank``, ``ZerosLike``, ``OnesLike``, of a fully known
shape). Stateful operations never fold, nor do results above `MAX_FOLDED_ELEMENTS` (a small graph must not
turn into a huge constant), nor operations whose kernel fails (the error
belongs to run time, where it names the user's line).

A floating-point division by a constant becomes a multiplication by the
constant's reciprocal (``RealDiv`` -> ``Mul``, ``Xdivy`` -> ``MulNoNan``), as
TensorFlow's constant folding does in functions: ``x / 6.0`` in a function may
then differ from eager ``x / 6.0`` by one ulp, as in TensorFlow, where results
like ``floor(10.0 / (10.0 / 6.0))`` depend on it.

>>> from eagerflow._src.graph.passes.program import Program
>>> def program_of(fn, *shapes):
...     specs = [tf.TensorSpec(s, tf.float32) for s in shapes]
...     cf = tf.function(fn).get_concrete_function(*specs)
...     return Program.from_graph(cf.graph, cf.inputs, cf.outputs)
>>> program = program_of(lambda x: x * (tf.constant(2.0) * 3.0), [2])
>>> [op.type for op in program.operations]
['Placeholder', 'Const', 'Const', 'Mul', 'Mul', 'Identity']
>>> [op.type for op in fold_constants(program).operations]  # the product is a new Const
['Placeholder', 'Const', 'Const', 'Const', 'Mul', 'Identity']
"""
import numpy as np

from eagerflow._src.graph.passes.program import const_value, derive, rewrite
from eagerflow._src.ops import math_ops

MAX_FOLDED_ELEMENTS = 10 ** 6


def fold_constants(program, reciprocals=True):
    """`program` with every foldable operation replaced by ``Const`` nodes of its results
    (and, with `reciprocals`, divisions by constants by products)."""
    return rewrite(program, _folded if reciprocals else _folded_only)


def _folded(op):
    found = _folded_only(op)
    return _reciprocal_product(op) if found is None else found


def _folded_only(op):
    """``Const`` nodes standing for `op`'s outputs, as `rewrite` takes them, or None."""
    values = _evaluate(op)
    if values is None:
        return None
    consts = [derive(op, None, (), {"dtype": t.dtype}, type_name="Const", value=value,
                     specs=[(t.shape, t.dtype)],
                     name=op.name if len(op.outputs) == 1 else f"{op.name}_{t.value_index}")
              for t, value in zip(op.outputs, values)]
    return consts, [c.outputs[0] for c in consts]


def _evaluate(op):
    """The output arrays of `op` if it folds, else None."""
    if op.op_def is None or op.stateful or not op.outputs:
        return None
    if not all(t.dtype.is_numpy_compatible for t in op.outputs):
        return None  # a list (variant) is no array a Const could hold
    if not all(t.shape.is_fully_defined() and t.shape.num_elements() <= MAX_FOLDED_ELEMENTS
               for t in op.outputs):
        return None
    if op.op_def.shape_only:
        shape = op.inputs[0].shape
        if not shape.is_fully_defined() or shape.num_elements() > MAX_FOLDED_ELEMENTS:
            return None
        args = [np.zeros(shape.as_list(), op.inputs[0].dtype.as_numpy_dtype)]
    else:
        args = [const_value(t) for t in op.inputs]
        if any(a is None for a in args):
            return None
    try:
        result = op.op_def.host_kernel(*args, **op.attrs)
    except Exception:  # noqa: BLE001 (it fails again at run time, with the user's line)
        return None
    values = [np.asarray(v) for v in (result if op.op_def.multi else (result,))]
    for t, v in zip(op.outputs, values):
        if v.dtype != t.dtype.as_numpy_dtype or list(v.shape) != t.shape.as_list():
            return None  # not what the graph promised: leave it to run time
    return values


_RECIPROCAL_OF = {math_ops._REAL_DIV: math_ops._MUL, math_ops._XDIVY: math_ops._MUL_NO_NAN}


def reciprocal_product(op):
    """``(product op_def, 1 / c)`` for a floating-point ``x / c`` with a constant ``c``
    (TF's rewrite), or None."""
    product = _RECIPROCAL_OF.get(op.op_def)
    c = const_value(op.inputs[1]) if product is not None else None
    if c is None or not (op.outputs[0].dtype.is_floating or op.outputs[0].dtype.is_complex):
        return None
    if product is math_ops._MUL_NO_NAN and np.any(c == 0):
        return None  # xdivy(0, 0) is 0, but 0 * inf is not
    denominator = op.inputs[1]
    if any(inner is denominator for _, inner in getattr(denominator.graph, "captures", ())):
        return None  # a captured tensor is an argument in TF's function, not a constant
    return product, np.asarray(np.ones_like(c) / c, dtype=c.dtype)


def _reciprocal_product(op):
    found = reciprocal_product(op)
    if found is None:
        return None
    product, reciprocal = found
    denominator = op.inputs[1]
    const = derive(denominator.op, None, (), {"dtype": denominator.dtype}, type_name="Const",
                   value=reciprocal, name=f"{op.name}/reciprocal")
    mul = derive(op, product, (op.inputs[0], const.outputs[0]))
    return [const, mul], list(mul.outputs)
