"""``assert test, message`` becomes ``ag__.assert_stmt(test, lambda: message)``.

>>> ast.unparse(transform(ast.parse("assert x > 0, 'neg'")))
"ag__.assert_stmt(x > 0, lambda: 'neg')"
"""
import ast

from eagerflow._src.autograph.pyct import templates


class _Asserts(ast.NodeTransformer):
    def visit_Assert(self, node):
        self.generic_visit(node)
        message = node.msg if node.msg is not None else ast.Constant(None)
        statements = templates.replace("ag__.assert_stmt(test, lambda: message)",
                                       test=node.test, message=message)
        return templates.locate(statements, node)


def transform(node):
    return _Asserts().visit(node)
