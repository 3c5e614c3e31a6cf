"""Constant folding: pure operations computable before run time become ``Const`` nodes.

An operation folds when every input is a ``Const``, or when its result
follows from its input's static shape alone (an op registered ``shape_only``:
``Shape``, ``Size``, ``Rank``, ``ZerosLike``, ``OnesLike``, of a fully known
shape). Stateful operations never fold, nor do results above `MAX_FOLDED_ELEMENTS` (a small graph must not
turn into a huge constant), nor operations whose kernel fails (the error
belongs to run time, where it names the user's line).

A constant operand of a sum or product moves into a child sum or product, as TF's
constant folding moves it (`fold_and_push_down_constants`, below).

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

from eagerflow._src.core import errors
from eagerflow._src.graph.passes.program import const_value, derive, rewrite
from eagerflow._src.ops import math_ops
from eagerflow._src.ops.shape_rules import broadcast_shapes

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


def _really_constant(t):
    """Whether `t` is a ``Const`` of the function (a captured tensor is an argument in TF's)."""
    return const_value(t) is not None and not any(
        inner is t for _, inner in getattr(t.graph, "captures", ()))


def reciprocal_product(op):
    """``(product op_def, 1 / c)`` for a floating-point ``x / c`` with a constant ``c``
    (TF's rewrite), or None."""
    product = _RECIPROCAL_OF.get(op.op_def)
    c = const_value(op.inputs[1]) if product is not None else None
    if c is None or not (op.outputs[0].dtype.is_floating or op.outputs[0].dtype.is_complex):
        return None
    if product is math_ops._MUL_NO_NAN and np.any(c == 0):
        return None  # xdivy(0, 0) is 0, but 0 * inf is not
    if not _really_constant(op.inputs[1]):
        return None
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


# -- pushing constants down -------------------------------------------------------------------
# TF's constant folding also moves a constant operand of a sum (product) into a child sum
# (product), trading places with one of the child's operands: with a constant there, the two
# constants meet and fold (``(1 - x) + 1e-7`` runs as ``(1e-7 + 1) - x``, rounding
# ``1 + 1e-7`` in float32 once, before the graph runs); a difference (quotient) of computed
# values takes the constant in too (``(x - y) + 0.1`` runs as ``x + (0.1 - y)``). Results
# differ from eager arithmetic in the last bits, as in TF's functions (Keras's binary
# cross-entropy of probabilities near 1 shows it).
_GROUPS = {"Add": "add", "AddV2": "add", "Sub": "add", "Mul": "mul", "Div": "mul"}
_SYMMETRIC = ("Add", "AddV2", "Mul")
_OPS = {("add", False): math_ops._ADD, ("add", True): math_ops._SUB,
        ("mul", False): math_ops._MUL, ("mul", True): math_ops._DIV}


def fold_and_push_down_constants(program, reciprocals=True, rounds=8):
    """`fold_constants`, with constants pushed down into sums and products (see above) and
    folded again, until nothing changes (or `rounds` times)."""
    program = fold_constants(program, reciprocals)
    for _ in range(rounds):
        users = program.users()
        pushed = rewrite(program, lambda op: _pushed_down(op, users))
        if len(pushed.operations) == len(program.operations):
            break
        program = fold_constants(pushed, reciprocals)
    return program


def _pushed_down(op, users):
    """The two operations computing ``C op (X op' Y)`` as ``X op (C op' Y)`` (signs and
    quotients rotated), as `rewrite` takes them, or None where TF leaves the tree alone."""
    group = _GROUPS.get(op.type)
    if group is None or len(op.inputs) != 2 or not users.get(id(op.outputs[0])):
        return None
    left_const, right_const = (_really_constant(t) for t in op.inputs)
    if left_const == right_const:
        return None
    c, child_out = (op.inputs[0], op.inputs[1]) if left_const else (op.inputs[1], op.inputs[0])
    child = child_out.op
    if _GROUPS.get(child.type) != group or len(child.inputs) != 2 or \
            users.get(id(child_out)) != [op]:  # (read by the parent alone, and no output)
        return None
    dtype = op.outputs[0].dtype
    if dtype.name in ("bfloat16", "float16") or (op.type == "Add" and dtype.name == "string"):
        return None
    symmetric, child_symmetric = op.type in _SYMMETRIC, child.type in _SYMMETRIC
    if not (symmetric and child_symmetric) and not (dtype.is_floating or dtype.is_complex):
        return None
    left_leaf_const, right_leaf_const = (_really_constant(t) for t in child.inputs)
    if left_leaf_const and right_leaf_const:
        return None  # (they fold anyway)
    x, y = (child.inputs[1], child.inputs[0]) if left_leaf_const else child.inputs
    if not right_leaf_const and not left_leaf_const and (
            (symmetric and child_symmetric) or _grows(c.shape, x.shape)):
        # (a sum or product of computed values alone: TF's arithmetic optimizer, which
        # reorders such trees by their operands' shapes, decides what runs; nor does a
        # constant move where it would broadcast X to more elements)
        return None
    try:
        cy_shape = broadcast_shapes(c.shape, y.shape)
    except errors.InvalidArgumentError:
        return None
    if symmetric and child_symmetric:
        parent_inputs, parent_negated, child_inputs, child_negated = (x, None), False, (c, y), False
    else:
        # the sign (or exponent) each of C, X and Y has in the whole expression
        def negated(is_right_leaf):
            return (not child_symmetric and is_right_leaf) != (not symmetric and left_const)
        neg_c = not symmetric and not left_const
        neg_x, neg_y = negated(left_leaf_const), negated(not left_leaf_const)
        parent_negated = neg_x or (neg_c and neg_y)
        parent_inputs = (None, x) if neg_x else (x, None)
        child_negated = neg_c != neg_y
        child_inputs = (y, c) if neg_c else (c, y)
    new_child = derive(child, _OPS[group, child_negated], child_inputs,
                       specs=[(cy_shape, dtype)])
    parent_inputs = tuple(new_child.outputs[0] if t is None else t for t in parent_inputs)
    new_parent = derive(op, _OPS[group, parent_negated], parent_inputs)
    return [new_child, new_parent], list(new_parent.outputs)


def _grows(c_shape, x_shape):
    """Whether constant C (of `c_shape`) has more elements than X (of `x_shape`), or a dim
    bigger than X's (compared from the left, as TF's check)."""
    if c_shape.is_fully_defined() and x_shape.is_fully_defined() and \
            c_shape.num_elements() > x_shape.num_elements():
        return True
    if c_shape.rank is None or x_shape.rank is None or c_shape.rank == 0:
        return False
    c, x = c_shape.as_list(), x_shape.as_list()
    return any(x[i] is not None and c[i] > x[i] for i in range(min(len(c), len(x))))
