"""``and``, ``or``, ``not`` and chained comparisons become lazy ``ag__`` calls.

``a and b and c`` is ``ag__.and_(lambda: a, lambda: ag__.and_(lambda: b,
lambda: c))``; ``a < b < c`` with a plain middle operand is ``a < b and
b < c``.  ``==`` and the other comparisons stay: tensors overload them.

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
        middles = node.comparators[:-1]
        if len(node.ops) < 2 or not all(isinstance(m, (ast.Name, ast.Constant))
                                        for m in middles):
            return node  # a middle operand with effects must be evaluated once, as Python
        left = [node.left, *middles]
        pairs = [ast.Compare(a, [op], [b]) for a, op, b in zip(left, node.ops,
                                                                node.comparators)]
        return self.visit_BoolOp(ast.copy_location(ast.BoolOp(ast.And(), pairs), node))


def transform(node):
    return _Logical().visit(node)
