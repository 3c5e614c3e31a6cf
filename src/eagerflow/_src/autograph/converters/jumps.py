"""Lowering of jump statements (``break``, ``continue``, ``return``) to flags.

Graph control flow has no jumps, so a jump sets a flag and everything that
would be skipped is guarded by ``if not flag:``; loops also stop on the
flag.  What remains runs straight through, which ``if_stmt``/``while_stmt``
can express.

>>> body = ast.parse("a()\\nif c:\\n    break\\nb()").body
>>> print(ast.unparse(guard_block(body, Jump(ast.Break, "stop", loops=False))))
a()
if c:
    stop = True
if ag__.not_(stop):
    b()
"""
import ast

from eagerflow._src.autograph.pyct import analysis, templates

_LOOPS = (ast.While, ast.For)


class Jump:
    """A kind of jump: its statement type, the flag it sets, and whether it leaves loops
    (a ``return`` does; a ``break`` or ``continue`` belongs to its own loop)."""

    def __init__(self, kind, flag, loops, on_jump=None):
        self.kind, self.flag, self.loops = kind, flag, loops
        self.on_jump = on_jump  # extra statements for the jump (a return's value)

    def contains(self, node):
        """Whether `node` holds a jump of this kind that leaves it."""
        if isinstance(node, self.kind):
            return True
        if isinstance(node, analysis.SCOPES) or (isinstance(node, _LOOPS) and not self.loops):
            return False
        return any(self.contains(child) for child in ast.iter_child_nodes(node))

    def replacement(self, node):
        statements = templates.replace("flag = True", flag=self.flag)
        if self.on_jump is not None:
            statements += self.on_jump(node)
        return templates.locate(statements, node)

    def guard(self, statements, origin):
        return templates.locate(templates.replace(
            "if ag__.not_(flag):\n    body", flag=self.flag, body=statements), origin)


def guard_block(statements, jump):
    """`statements` with `jump`'s statements lowered and what follows a jump guarded."""
    out = []
    for i, statement in enumerate(statements):
        if isinstance(statement, jump.kind):
            return out + jump.replacement(statement)  # what follows cannot run
        if not jump.contains(statement):
            out.append(statement)
            continue
        out.append(_lower_inside(statement, jump))
        rest = guard_block(statements[i + 1:], jump)
        if rest:
            out += jump.guard(rest, statements[i + 1])
        return out
    return out


def _lower_inside(node, jump):
    for field in ("body", "orelse", "finalbody"):
        block = getattr(node, field, None)
        if block:
            setattr(node, field, guard_block(block, jump) or [ast.Pass()])
    for handler in getattr(node, "handlers", ()):
        handler.body = guard_block(handler.body, jump) or [ast.Pass()]
    for case in getattr(node, "cases", ()):
        case.body = guard_block(case.body, jump) or [ast.Pass()]
    if isinstance(node, _LOOPS):  # a loop left by the jump stops on its flag
        stop = templates.replace_expr("ag__.not_(flag)", flag=jump.flag)
        add_loop_test(node, templates.locate([stop], node)[0])
    return node


def add_loop_test(loop, test):
    """Makes `loop` stop once `test` is false: a while tests it first, a for before each item."""
    if isinstance(loop, ast.While):
        loop.test = templates.locate([templates.replace_expr(
            "ag__.and_(lambda: stop, lambda: test)", stop=test, test=loop.test)], loop)[0]
    else:
        loop.ag_extra_tests = [*getattr(loop, "ag_extra_tests", []), test]
