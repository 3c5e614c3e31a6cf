"""``break`` sets a flag that stops its loop; a loop's ``else`` runs when it is unset.

>>> from eagerflow._src.autograph.pyct.naming import Namer
>>> fn = ast.parse("def f(x):\\n    while x:\\n        break").body[0]
>>> print(ast.unparse(transform(fn, Namer(fn)).body[0]))
break_ = False
"""
import ast

from eagerflow._src.autograph.converters import jumps
from eagerflow._src.autograph.pyct import analysis, templates


class _Breaks(analysis.OwnScopeTransformer):
    def __init__(self, namer):
        self.namer = namer

    def _loop(self, node):
        self.generic_visit(node)
        orelse, node.orelse = node.orelse, []
        node.ag_has_else = bool(orelse)
        if not any(jumps.Jump(ast.Break, "", loops=False).contains(s) for s in node.body):
            return [node, *orelse]
        flag = self.namer.new("break_")
        jump = jumps.Jump(ast.Break, flag, loops=False)
        node.body = jumps.guard_block(node.body, jump) or [ast.Pass()]
        jumps.add_loop_test(node, templates.locate(
            [templates.replace_expr("ag__.not_(flag)", flag=flag)], node)[0])
        before = templates.locate(templates.replace("flag = False", flag=flag), node)
        return [*before, node, *(jump.guard(orelse, orelse[0]) if orelse else [])]

    visit_While = visit_For = _loop


def transform(function, namer):
    """Lowers the breaks of `function`'s own loops."""
    function.body = templates.visit_block(_Breaks(namer), function.body)
    return function
