"""Small random Python programs, and a check that AutoGraph runs them as Python does.

`programs()` is a hypothesis strategy of function sources ``def f(a, b, p)``:
`a` and `b` are int32 scalar tensors, `p` a Python int.  The bodies mix
if/elif/else, while loops, for loops over ``range``, ``tf.range`` and Python
lists, break, continue and return inside loops and branches, lambdas (several
on one line), list and dict comprehensions, conditional expressions, boolean
operators, chained comparisons, augmented and tuple assignment, and a nested
function that returns from a branch, on tensors and Python values alike.

Every program is one TF can run in a graph: the variables are all defined
before any control flow and stay integers (assignments reduce them modulo a
small prime, so int32 tensors and Python ints agree), loops are bounded
(a while loop counts its own iterations first), a loop's target is read only
inside it, and every return gives the same four-element tuple.

`check(source, inputs)` runs the program as plain Python (eagerly) and as a
``tf.function``, and describes the first difference, or returns None.
"""
import atexit
import itertools
import os
import re
import shutil
import tempfile

import numpy as np
from hypothesis import strategies as st

import eagerflow as tf

VARIABLES = ("v0", "v1", "v2", "v3")
RESULT = "(v0, v1, v2, v3)"

PREAMBLE = """\
def f(a, b, p):
    ops = {"add": lambda x, y: x + y, "sub": lambda x, y: x - y, "mul": lambda x, y: x * y % 97}
    inc, dec = lambda x, k=1: x + k, lambda x: x - 1

    def helper(x, y=1):
        if x > y:
            return x - y
        return x + y
    v0 = a
    v1 = b
    v2 = p
    v3 = {v3}
"""


class _Context:
    """Where a statement goes: its nesting, the loops around it and their targets."""

    def __init__(self, depth=0, loop_depth=0, targets=(), counter=None):
        self.depth, self.loop_depth, self.targets = depth, loop_depth, targets
        self.counter = counter if counter is not None else itertools.count()

    def nested(self, target=None, loop=False):
        return _Context(self.depth + 1, self.loop_depth + loop,
                        self.targets + ((target,) if target else ()), self.counter)


def _leaf(draw, ctx):
    choices = ["var", "const", "arg"] + (["target"] if ctx.targets else [])
    kind = draw(st.sampled_from(choices))
    if kind == "var":
        return draw(st.sampled_from(VARIABLES))
    if kind == "const":
        return str(draw(st.integers(-3, 5)))
    if kind == "arg":
        return draw(st.sampled_from(["a", "b", "p"]))
    return draw(st.sampled_from(ctx.targets))


def _expression(draw, ctx, depth=2):
    if depth == 0:
        return _leaf(draw, ctx)
    kind = draw(st.sampled_from(["leaf", "leaf", "binary", "binary", "call", "ternary",
                                 "comprehension", "abs"]))
    sub = lambda: _expression(draw, ctx, depth - 1)  # noqa: E731
    if kind == "leaf":
        return _leaf(draw, ctx)
    if kind == "binary":
        op = draw(st.sampled_from(["+", "-", "*"]))
        return f"({sub()} {op} {sub()})"
    if kind == "call":
        form = draw(st.sampled_from(["ops", "inc", "inc_k", "dec", "inline", "helper",
                                     "helper_y"]))
        if form == "ops":
            return f'ops["{draw(st.sampled_from(["add", "sub", "mul"]))}"]({sub()}, {sub()})'
        if form == "inc":
            return f"inc({sub()})"
        if form == "inc_k":
            return f"inc({sub()}, k={draw(st.integers(-2, 3))})"
        if form == "dec":
            return f"dec({sub()})"
        if form == "helper":
            return f"helper({sub()})"
        if form == "helper_y":
            return f"helper({sub()}, y={sub()})"
        return f"(lambda u, w=2: u * w - 1)({sub()})"
    if kind == "ternary":
        return f"({sub()} if {_condition(draw, ctx, 1)} else {sub()})"
    if kind == "abs":
        return f"abs({sub()})"
    form = draw(st.sampled_from(["sum", "dict", "filtered"]))
    if form == "sum":
        return f"sum([w + 1 for w in [{sub()}, {sub()}]])"
    if form == "dict":
        return f"{{j: j + {sub()} for j in range(3)}}[{draw(st.integers(0, 2))}]"
    return f"[w * 2 for w in range(4) if w != {draw(st.integers(0, 3))}][-1]"


def _condition(draw, ctx, depth=2):
    kind = draw(st.sampled_from(["compare", "compare", "compare", "python", "not", "and",
                                 "or", "chain"] if depth else ["compare", "python"]))
    if kind == "compare":
        op = draw(st.sampled_from(["<", ">", "==", "!=", ">=", "<="]))
        return f"{_expression(draw, ctx, 1)} {op} {_expression(draw, ctx, 1)}"
    if kind == "chain":
        ops = draw(st.lists(st.sampled_from(["<", "<=", "!=", ">"]), min_size=2, max_size=3))
        return _leaf(draw, ctx) + "".join(f" {op} {_leaf(draw, ctx)}" for op in ops)
    if kind == "python":
        return f"p {draw(st.sampled_from(['>', '<', '==']))} {draw(st.integers(0, 4))}"
    if kind == "not":
        return f"not ({_condition(draw, ctx, depth - 1)})"
    joiner = " and " if kind == "and" else " or "
    return "(" + joiner.join(_condition(draw, ctx, depth - 1) for _ in range(2)) + ")"


def _block(draw, ctx, indent, size=None):
    count = size if size is not None else draw(st.integers(1, 3 if ctx.depth < 2 else 2))
    return [line for _ in range(count) for line in _statement(draw, ctx, indent)]


def _statement(draw, ctx, indent):
    pad = "    " * indent
    kinds = ["assign", "assign", "augassign", "swap"]
    if ctx.depth < 3:
        kinds += ["if", "if", "for", "while"]
    if ctx.loop_depth:
        kinds += ["jump"]
    kinds += ["return"]
    kind = draw(st.sampled_from(kinds))
    if kind == "assign":
        return [f"{pad}{draw(st.sampled_from(VARIABLES))} = "
                f"{_expression(draw, ctx)} % 101"]
    if kind == "augassign":
        op = draw(st.sampled_from(["+=", "-="]))
        return [f"{pad}{draw(st.sampled_from(VARIABLES))} {op} {_leaf(draw, ctx)}"]
    if kind == "swap":
        first, second = draw(st.permutations(VARIABLES))[:2]
        return [f"{pad}{first}, {second} = {second}, {first}"]
    if kind == "return":
        return [f"{pad}return {RESULT}"]
    if kind == "jump":  # under a condition, else what follows never runs
        jump = draw(st.sampled_from(["break", "continue"]))
        return [f"{pad}if {_condition(draw, ctx)}:", f"{pad}    {jump}"]
    inner = ctx.nested()
    if kind == "if":
        lines = [f"{pad}if {_condition(draw, ctx)}:", *_block(draw, inner, indent + 1)]
        for _ in range(draw(st.integers(0, 2))):
            lines += [f"{pad}elif {_condition(draw, ctx)}:", *_block(draw, inner, indent + 1)]
        if draw(st.booleans()):
            lines += [f"{pad}else:", *_block(draw, inner, indent + 1)]
        return lines
    n = next(ctx.counter)
    if kind == "for":
        target = f"i{n}"
        iterable = draw(st.sampled_from([
            f"range({draw(st.integers(0, 3))})", f"tf.range({draw(st.integers(0, 3))})",
            "tf.range(a % 3)", "[1, -2, 3]", "tf.constant([2, 0, -1])",
            "range(p % 3)", "[a, b]"]))
        body = _block(draw, ctx.nested(target, loop=True), indent + 1)
        return [f"{pad}for {target} in {iterable}:", *body]
    counter = f"w{n}"
    bound = draw(st.sampled_from(["3", "a % 3 + 1", "p % 3"]))
    test = f"{counter} < {bound}"
    if draw(st.booleans()):
        test += f" and {_condition(draw, ctx, 1)}"
    body = _block(draw, ctx.nested(loop=True), indent + 1)
    return [f"{pad}{counter} = 0", f"{pad}while {test}:", f"{pad}    {counter} += 1", *body]


@st.composite
def programs(draw):
    """The source of one program (see the module doc)."""
    v3 = draw(st.sampled_from(["0", "tf.constant(1)", "a + b"]))
    body = _block(draw, _Context(), 1, size=draw(st.integers(1, 4)))
    return PREAMBLE.replace("{v3}", v3) + "\n".join(body) + f"\n    return {RESULT}\n"


inputs = st.lists(st.tuples(st.integers(-3, 5), st.integers(-3, 5), st.integers(0, 4)),
                  min_size=1, max_size=3)

_folder = None
_numbers = itertools.count()


def load(source):
    """The function `f` that `source` defines, from a file of its own (AutoGraph reads it)."""
    global _folder
    if _folder is None:
        _folder = tempfile.mkdtemp(prefix="autograph_programs_")
        atexit.register(shutil.rmtree, _folder, True)
    path = os.path.join(_folder, f"program_{next(_numbers)}.py")
    with open(path, "w") as file:
        file.write(source)
    namespace = {"tf": tf}
    exec(compile(source, path, "exec"), namespace)
    return namespace["f"]


def _outcome(fn, a, b, p):
    try:
        return "value", tuple(np.asarray(v).item() for v in fn(tf.constant(a), tf.constant(b),
                                                                 p))
    except Exception as e:  # noqa: BLE001 (both sides must raise alike)
        return "error", f"{type(e).__name__}: {e}"


# What TF's AutoGraph refuses where Python runs: a break or return on a tensor condition
# in a loop that started as Python, a return inside a graph loop, a graph `if` in a loop
# body returning in one branch only.
_LIMITATION = re.compile(
    r"NotImplementedError: .*(The condition of while loop started as non-Tensor|a return "
    r"statement cannot be placed inside this TensorFlow loop|break and return statements which "
    r"depend on a TF condition are not supported in Python for loops)|ValueError: .*the \w+ "
    r"branch must also have a return statement", re.S)


def check(source, cases):
    """None if ``tf.function`` gives what plain Python gives for each (a, b, p) of `cases`,
    else a description of the first difference."""
    eager, traced = load(source), None
    for a, b, p in cases:
        expected = _outcome(eager, a, b, p)
        if traced is None:
            traced = tf.function(eager)
        got = _outcome(traced, a, b, p)
        if expected[0] == "value" and got[0] == "error" and _LIMITATION.search(got[1]):
            continue  # TF's AutoGraph raises here too (its documented limitations)
        if expected[0] != got[0] or (expected[0] == "value" and expected[1] != got[1]):
            return (f"inputs a={a}, b={b}, p={p}\n  python:      {expected}\n"
                    f"  tf.function: {got}")
    return None
