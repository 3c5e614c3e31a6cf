"""``and``, ``or``, ``not`` and chained comparisons become lazy ``ag__`` calls.

``a and b and c`` is ``ag__.and_(lambda: a, lambda: ag__.and_(lambda: b,
lambda: c))``; ``a < b < c`` is ``ag__.compare_chain(a, ("<", lambda: b),
("<", lambda: c))``: ``a < b and b < c`` (on graph tensors too, as TF's), each
operand evaluated once, as Python.  A single comparison stays: tensors
overload it.

>>> ast.unparse(transform(ast.parse("not (x and y)")))
'ag__.not_(ag__.and_(lambda: x, lambda: y))'
"""
import ast

from eagerflow._src.autograph.pyct import templates

_FUNCTIONS = {ast.And: "and_", ast.Or: "or_"}


class _Logical(ast.NodeTransformer):
    def visit_BoolOp(self, node):
        self.generic_visit(node)
        function = _FUNCTIONS[type(node.op)]
        result = node.values[-1]
        for value in reversed(node.values[:-1]):
            result = templates.replace_expr(f"ag__.{function}(lambda: a, lambda: b)",
                                            a=value, b=result)
        return templates.locate([result], node)[0]

    def visit_UnaryOp(self, node):
        self.generic_visit(node)
        if not isinstance(node.op, ast.Not):
            return node
        return templates.locate([templates.replace_expr("ag__.not_(a)", a=node.operand)],
                                node)[0]

    def visit_Compare(self, node):
        self.generic_visit(node)
        if len(node.ops) < 2:
            return node
        steps = [templates.replace_expr("(name, lambda: b)", name=ast.Constant(_COMPARISONS[
            type(op)]), b=right) for op, right in zip(node.ops, node.comparators)]
        call = templates.replace_expr("ag__.compare_chain(a)", a=node.left)
        call.args.extend(steps)
        return templates.locate([call], node)[0]


_COMPARISONS = {ast.Lt: "<", ast.LtE: "<=", ast.Gt: ">", ast.GtE: ">=", ast.Eq: "==",
                ast.NotEq: "!=", ast.Is: "is", ast.IsNot: "is not", ast.In: "in",
                ast.NotIn: "not in"}


def transform(node):
    return _Logical().visit(node)
