"""``a if test else b`` becomes ``ag__.if_exp(test, lambda: a, lambda: b, 'test')``
(the condition's source names it in errors).

>>> ast.unparse(transform(ast.parse("y = a if t else b")))
"y = ag__.if_exp(t, lambda: a, lambda: b, 't')"
"""
import ast

from eagerflow._src.autograph.pyct import templates


class _Conditionals(ast.NodeTransformer):
    def visit_IfExp(self, node):
        self.generic_visit(node)
        call = templates.replace_expr("ag__.if_exp(test, lambda: body, lambda: orelse, text)",
                                      test=node.test, body=node.body, orelse=node.orelse,
                                      text=ast.Constant(ast.unparse(node.test)))
        return templates.locate([call], node)[0]


def transform(node):
    return _Conditionals().visit(node)
