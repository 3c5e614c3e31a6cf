"""Every call ``f(a, *b, k=c)`` becomes ``ag__.converted_call(f, (a, *b), {'k': c})``.

At run time `converted_call` converts `f` when it is user code, swaps in the
tensor-aware builtins, and calls anything else as it is.  Calls whose
meaning depends on the calling frame (``super()``, ``locals()``...) stay.

>>> ast.unparse(transform(ast.parse("f(x, k=1)")))
"ag__.converted_call(f, (x,), {'k': 1})"
"""
import ast

from eagerflow._src.autograph.pyct import templates

_FRAME_BUILTINS = {"super", "locals", "globals", "vars", "eval", "exec", "dir"}


def _is_generated(func):
    return (isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name)
            and func.value.id == "ag__")


class _Calls(ast.NodeTransformer):
    def visit_Call(self, node):
        self.generic_visit(node)
        func = node.func
        if _is_generated(func) or (isinstance(func, ast.Name) and func.id in _FRAME_BUILTINS):
            return node
        args = ast.Tuple(node.args, ast.Load())
        if node.keywords:
            kwargs = ast.Dict([None if k.arg is None else ast.Constant(k.arg)
                               for k in node.keywords], [k.value for k in node.keywords])
        else:
            kwargs = ast.Constant(None)
        call = ast.Call(ast.Attribute(ast.Name("ag__", ast.Load()), "converted_call",
                                      ast.Load()), [func, args, kwargs], [])
        # All of it where the call was: a traceback through it shows the call's line.
        return templates.locate([call], node)[0]


def transform(node):
    return _Calls().visit(node)
