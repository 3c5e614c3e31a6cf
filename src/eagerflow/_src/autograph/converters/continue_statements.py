"""``continue`` sets a flag, reset at the top of each iteration, guarding the rest of the body.

>>> from eagerflow._src.autograph.pyct.naming import Namer
>>> fn = ast.parse("def f(x):\\n    for i in x:\\n        continue").body[0]
>>> print(ast.unparse(transform(fn, Namer(fn)).body[0].body[0]))
continue_ = False
"""
import ast

from eagerflow._src.autograph.converters import jumps
from eagerflow._src.autograph.pyct import analysis, templates


class _Continues(analysis.OwnScopeTransformer):
    def __init__(self, namer):
        self.namer = namer

    def _loop(self, node):
        self.generic_visit(node)
        if not any(jumps.Jump(ast.Continue, "", loops=False).contains(s) for s in node.body):
            return node
        flag = self.namer.new("continue_")
        reset = templates.locate(templates.replace("flag = False", flag=flag), node.body[0])
        node.body = reset + jumps.guard_block(node.body, jumps.Jump(ast.Continue, flag,
                                                                     loops=False))
        return node

    visit_While = visit_For = _loop


def transform(function, namer):
    """Lowers the continues of `function`'s own loops."""
    function.body = templates.visit_block(_Continues(namer), function.body)
    return function
