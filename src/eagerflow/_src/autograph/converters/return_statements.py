"""A function that returns from inside control flow gets one exit at its end.

``return x`` sets ``do_return = True; retval_ = x``; what would follow it is
guarded by ``do_return``, loops stop on it, and the function ends with
``return ag__.retval(retval_)``.

>>> from eagerflow._src.autograph.pyct.naming import Namer
>>> fn = ast.parse("def f(x):\\n    if x:\\n        return 1\\n    return 2").body[0]
>>> print(ast.unparse(transform(fn, Namer(fn))))
def f(x):
    do_return = False
    retval_ = ag__.UndefinedReturnValue(True)
    if x:
        do_return = True
        retval_ = 1
    if ag__.not_(do_return):
        do_return = True
        retval_ = 2
    return ag__.retval(retval_)
"""
import ast

from eagerflow._src.autograph.converters import jumps
from eagerflow._src.autograph.pyct import analysis, templates


def always_returns(block):
    """Whether every path through `block` ends in a ``return`` or ``raise``."""
    for statement in block:
        if isinstance(statement, (ast.Return, ast.Raise)):
            return True
        if isinstance(statement, ast.If) and always_returns(statement.body) and \
                always_returns(statement.orelse):
            return True
        if isinstance(statement, (ast.With, ast.AsyncWith)) and always_returns(statement.body):
            return True
    return False


def transform(function, namer):
    """Lowers `function`'s returns when one sits inside control flow."""
    nested = [s for s in analysis.own_statements(function)
              if isinstance(s, ast.Return) and s not in function.body]
    if not nested:
        return function
    flag, value = namer.new("do_return"), namer.new("retval_")

    def assign_value(node):
        return templates.replace("value = result", value=value,
                                 result=node.value or ast.Constant(None))

    jump = jumps.Jump(ast.Return, flag, loops=True, on_jump=assign_value)
    guarded = always_returns(function.body)
    start = templates.locate(templates.replace(
        f"flag = False\nvalue = ag__.UndefinedReturnValue({guarded})", flag=flag, value=value),
        function.body[0])
    end = templates.locate(templates.replace("return ag__.retval(value)", value=value),
                           function.body[-1])
    docstring = function.body[:1] if analysis.is_docstring(function.body[0]) else []
    function.body = docstring + start + jumps.guard_block(
        function.body[len(docstring):], jump) + end
    return function

