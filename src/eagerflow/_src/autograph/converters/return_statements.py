"""A function that returns from inside control flow gets one exit at its end.

``return x`` sets ``do_return = True; retval_ = x``; what would follow it is
guarded by ``do_return``, loops stop on it, and the function ends with
``return ag__.retval(retval_)``.

>>> from eagerflow._src.autograph.pyct.naming import Namer
>>> fn = ast.parse("def f(x):\\n    if x:\\n        return 1\\n    y = 2\\n    while y:\\n"
...                "        return y\\n    return 3").body[0]
>>> print(ast.unparse(transform(fn, Namer(fn))))
def f(x):
    do_return = False
    retval_ = ag__.UndefinedReturnValue(True)
    if x:
        do_return = True
        retval_ = 1
    else:
        y = 2
        while ag__.and_(lambda: ag__.not_(do_return), lambda: y):
            do_return = True
            retval_ = y
        if ag__.not_(do_return):
            do_return = True
            retval_ = 3
    return ag__.retval(retval_)

(What follows an ``if`` whose body always returns moves into its ``else``, as in TF.)
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


def _else_after_returns(block):
    """`block` with what follows an ``if`` whose body always returns moved into its else (as
    TF does): one graph ``if`` chooses between the two ways out, not two."""
    for i, statement in enumerate(block):
        for field in ("body", "orelse", "finalbody"):
            inner = getattr(statement, field, None)
            if isinstance(inner, list) and inner and not isinstance(statement, analysis.SCOPES):
                setattr(statement, field, _else_after_returns(inner))
        for part in [*getattr(statement, "handlers", ()), *getattr(statement, "cases", ())]:
            part.body = _else_after_returns(part.body)
        if isinstance(statement, ast.If) and block[i + 1:] and always_returns(statement.body) \
                and not always_returns(statement.orelse):
            # (the else as it was is done: TF moves nothing further into its own ifs)
            statement.orelse = statement.orelse + _else_after_returns(block[i + 1:])
            return block[:i + 1]
    return block


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

    function.body = _else_after_returns(function.body)
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

