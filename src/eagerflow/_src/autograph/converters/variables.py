"""Binds the variables that control flow modifies, and checks their reads.

The generated branch and loop functions declare these variables
``nonlocal``, which needs a binding in the function: each gets
``x = ag__.Undefined('x')`` at the top, and every read becomes
``ag__.ld(x)``, which raises UnboundLocalError as Python would before a
value arrives.

>>> fn = ast.parse("def f(c):\\n    if c:\\n        y = 1\\n    return y").body[0]
>>> print(ast.unparse(transform(fn, {"y"})))
def f(c):
    y = ag__.Undefined('y')
    if c:
        y = 1
    return ag__.ld(y)
"""
import ast

from eagerflow._src.autograph.pyct import analysis, templates


class _Loads(analysis.OwnScopeTransformer):
    def __init__(self, names):
        self.names = names

    def visit_Name(self, node):
        if isinstance(node.ctx, ast.Load) and node.id in self.names:
            return templates.locate([templates.replace_expr("ag__.ld(name)", name=node.id)],
                                    node)[0]
        return node

    # a lambda runs here and now; a nested function later, when the variable may be set
    visit_Lambda = ast.NodeTransformer.generic_visit


def _assigned_first(function):
    """Names the function assigns before any compound statement: always bound after."""
    names = set()
    for statement in function.body:
        if isinstance(statement, (ast.Assign, ast.AnnAssign)) and statement.value is not None:
            names |= analysis.stores([statement]) - analysis.loads([statement])
        elif not isinstance(statement, ast.Expr):
            break
    return names


def transform(function, modified):
    """Binds and checks the names of `modified` that are local to `function`."""
    names = sorted(set(modified) - analysis.parameters(function)
                   - analysis.declared_names(function) - _assigned_first(function))
    if not names:
        return function
    loads = _Loads(set(names))
    function.body = templates.visit_block(loads, function.body)
    first = function.body[0]
    bindings = templates.locate([s for n in names for s in templates.replace(
        "name = ag__.Undefined(text)", name=n, text=ast.Constant(n))], first)
    docstring = int(analysis.is_docstring(first))
    function.body[docstring:docstring] = bindings
    return function
