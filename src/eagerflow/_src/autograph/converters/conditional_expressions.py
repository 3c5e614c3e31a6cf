"""``a if test else b`` becomes ``ag__.if_exp(test, lambda: a, lambda: b)``.

>>> ast.unparse(transform(ast.parse("y = a if t else b")))
'y = ag__.if_exp(t, lambda: a, lambda: b)'
"""
import ast

from eagerflow._src.autograph.pyct import templates


class _Conditionals(ast.NodeTransformer):
    def visit_IfExp(self, node):
        self.generic_visit(node)
        call = templates.replace_expr("ag__.if_exp(test, lambda: body, lambda: orelse)",
                                      test=node.test, body=node.body, orelse=node.orelse)
        return templates.locate([call], node)[0]


def transform(node):
    return _Conditionals().visit(node)
