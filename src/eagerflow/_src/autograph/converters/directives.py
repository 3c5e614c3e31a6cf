"""``set_loop_options(...)`` in a loop body: options of that loop, not a call.

The call is removed and its keywords stored on the loop (``ag_loop_options``)
for the control-flow converter, evaluated where the loop starts.

>>> tree = ast.parse("while x:\\n    set_loop_options(maximum_iterations=3)\\n    x -= 1")
>>> loop = transform(tree).body[0]
>>> [k.arg for k in loop.ag_loop_options], len(loop.body)
(['maximum_iterations'], 1)
"""
import ast

_OPTIONS = ("parallel_iterations", "swap_memory", "maximum_iterations", "shape_invariants")


def _is_directive(statement):
    if not (isinstance(statement, ast.Expr) and isinstance(statement.value, ast.Call)):
        return False
    func = statement.value.func
    name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", None)
    return name == "set_loop_options"


class _Directives(ast.NodeTransformer):
    def _loop(self, node):
        self.generic_visit(node)
        node.ag_loop_options = []
        for statement in [s for s in node.body if _is_directive(s)]:
            call = statement.value
            if call.args:
                raise SyntaxError("set_loop_options takes keyword arguments only")
            for keyword in call.keywords:
                if keyword.arg not in _OPTIONS:
                    raise TypeError(f"set_loop_options() got an unexpected keyword argument "
                                    f"'{keyword.arg}'")
            node.ag_loop_options.extend(call.keywords)
            node.body.remove(statement)
        if not node.body:
            node.body.append(ast.copy_location(ast.Pass(), node))
        return node

    visit_While = visit_For = _loop


def transform(node):
    return _Directives().visit(node)
