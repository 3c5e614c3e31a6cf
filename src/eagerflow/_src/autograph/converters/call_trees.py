r"""Every call ``f(a, *b, k=c)`` becomes ``ag__.converted_call(f, (a, *b), {'k': c})``.

At run time `converted_call` converts `f` when it is user code, swaps in the
tensor-aware builtins, and calls anything else as it is.  Calls whose
meaning depends on the calling frame (``super()``, ``locals()``...) stay; a
bare ``super()`` names its class and object, ``super(__class__, self)``, as
the statement may end up in a function that control flow generates.

>>> ast.unparse(transform(ast.parse("f(x, k=1)")))
"ag__.converted_call(f, (x,), {'k': 1})"
>>> ast.unparse(transform(ast.parse("def m(self):\n    super().m")))
'def m(self):\n    super(__class__, self).m'
"""
import ast

from eagerflow._src.autograph.pyct import templates

_FRAME_BUILTINS = {"super", "locals", "globals", "vars", "eval", "exec", "dir"}


def _is_generated(func):
    return (isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name)
            and func.value.id == "ag__")


class _Calls(ast.NodeTransformer):
    def __init__(self):
        self.functions = []  # the enclosing functions and lambdas, innermost last

    def _visit_function(self, node):
        self.functions.append(node)
        try:
            return self.generic_visit(node)
        finally:
            self.functions.pop()

    visit_FunctionDef = visit_Lambda = _visit_function

    def visit_Call(self, node):
        self.generic_visit(node)
        func = node.func
        if isinstance(func, ast.Name) and func.id == "super" and not node.args \
                and not node.keywords and self.functions:
            # Python finds the object of a bare super() in the running function's first
            # argument; converted, the call may run inside a generated branch or loop body.
            arguments = self.functions[-1].args
            first = (arguments.posonlyargs + arguments.args)[:1]
            if first:
                node.args = [ast.Name("__class__", ast.Load()),
                             ast.Name(first[0].arg, ast.Load())]
            return node
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
