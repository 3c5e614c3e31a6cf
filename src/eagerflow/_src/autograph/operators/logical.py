"""What converted ``and``, ``or``, ``not`` and conditional expressions call.

Operands arrive as functions so that evaluation stays lazy, as in Python: the
second operand of ``and`` runs only when the first is true.  On graph tensors
the laziness is kept by a ``cond``.

>>> and_(lambda: 0, lambda: 1 / 0)
0
>>> if_exp(True, lambda: "yes", lambda: "no")
'yes'
"""
import operator

from eagerflow._src.autograph.operators.control_flow import (as_tensors, check_same,
                                                             is_graph_tensor)
from eagerflow._src.core.convert import convert_to_tensor
from eagerflow._src.graph import control_flow
from eagerflow._src.ops import math_ops


def and_(a, b):
    """``a() and b()``."""
    first = a()
    if is_graph_tensor(first):
        first = convert_to_tensor(first)
        return control_flow.cond(first, lambda: convert_to_tensor(b()), lambda: first)
    return first and b()


def or_(a, b):
    """``a() or b()``."""
    first = a()
    if is_graph_tensor(first):
        first = convert_to_tensor(first)
        return control_flow.cond(first, lambda: first, lambda: convert_to_tensor(b()))
    return first or b()


_COMPARE = {"<": operator.lt, "<=": operator.le, ">": operator.gt, ">=": operator.ge,
            "==": operator.eq, "!=": operator.ne, "is": operator.is_, "is not": operator.is_not,
            "in": lambda a, b: a in b, "not in": lambda a, b: a not in b}


def compare_chain(left, *steps):
    """``left op1 b1 op2 b2 ...`` for `steps` ``(op, lambda: b)``: ``left op1 b1 and b1 op2
    b2 ...``, each operand evaluated once and only while the comparisons before hold (on a
    graph tensor, by ``and_``'s cond).

    >>> compare_chain(1, ("<", lambda: 2), ("<", lambda: 3))
    True
    """
    op, right = steps[0]
    right = right()
    result = _COMPARE[op](left, right)
    if len(steps) == 1:
        return result
    return and_(lambda: result, lambda: compare_chain(right, *steps[1:]))


def not_(a):
    """``not a``; a graph tensor gets ``logical_not``."""
    if is_graph_tensor(a):
        return math_ops.logical_not(a)
    return not a


def if_exp(cond, if_true, if_false, expr_repr="if_exp"):
    """``if_true() if cond else if_false()``; a graph tensor `cond` becomes a ``cond``, whose
    branches must give values of one structure and dtype (errors name the condition's
    source, `expr_repr`, as TF's)."""
    if not is_graph_tensor(cond):
        return if_true() if cond else if_false()
    first = []

    def branch(fn, label):
        def traced():
            value = fn()
            if value is None:
                raise ValueError(f"'{expr_repr}' is None at the end of the {label} branch.")
            tensors = as_tensors(value, expr_repr, f"at the end of the {label} branch")
            if first:
                check_same(expr_repr, first[0], "main", tensors, label)
            first.append(tensors)
            return value
        return traced
    return control_flow.cond(cond, branch(if_true, "main"), branch(if_false, "else"),
                             name="if_exp")
