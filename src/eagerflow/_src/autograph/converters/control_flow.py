"""``if``, ``while`` and ``for`` become calls of ``ag__.if_stmt``/``while_stmt``/``for_stmt``.

Branches and loop bodies move into local functions that declare the
variables they modify ``nonlocal``; ``get_state``/``set_state`` read and
write the ones the statement passes on (modified and live afterwards, or
carried from one iteration to the next).  The operators decide at run time
whether Python or graph control flow runs them.

>>> from eagerflow._src.autograph.pyct.naming import Namer
>>> fn = ast.parse("def f(x):\\n    if x > 0:\\n        x = -x\\n    return x").body[0]
>>> sorted(annotate(fn))
['x']
>>> print(ast.unparse(transform(fn, Namer(fn)).body[0]))
def if_body():
    nonlocal x
    x = -x
"""
import ast

from eagerflow._src.autograph.pyct import analysis, templates

_IF = """
def if_body():
    nonlocal modified
    global modified_globals
    body
def else_body():
    nonlocal modified
    global modified_globals
    orelse
get_state_and_set_state
ag__.if_stmt(test, if_body, else_body, get_state, set_state, names, count)
"""

_STATE = """
def get_state():
    return state_values
def set_state(vars_):
    nonlocal state
    global state_globals
    assign_state
"""

_WHILE = """
def loop_test():
    return test
def loop_body():
    nonlocal modified
    global modified_globals
    body
get_state_and_set_state
ag__.while_stmt(loop_test, loop_body, get_state, set_state, names, options)
"""

_FOR = """
extra_test_def
def loop_body(itr):
    nonlocal modified
    global modified_globals
    target = itr
    body
get_state_and_set_state
ag__.for_stmt(iterated, extra_test_arg, loop_body, get_state, set_state, names, options)
"""


def annotate(function):
    """Records on each own if/while/for what it modifies (``ag_modified``) and what is live;
    returns every name they modify."""
    analysis.annotate_liveness(function.body)
    modified = set()
    for node in analysis.own_statements(function):
        if isinstance(node, (ast.If, ast.While, ast.For)):
            parts = node.body + node.orelse + ([node.target] if isinstance(node, ast.For)
                                               else [])
            node.ag_modified = analysis.stores(parts)
            node.ag_composites = _composites(parts, node.ag_modified)
            modified |= node.ag_modified
            if not isinstance(node, ast.If):
                node.ag_direct = _direct_stores(parts)
    return modified


def _direct_stores(statements):
    """The names `statements` bind themselves: not in the if/while/for statements nested in
    them, which become functions of their own."""
    names = set()
    for node in statements:
        if isinstance(node, (ast.If, ast.While, ast.For)):
            continue
        if isinstance(node, (ast.Try, getattr(ast, "TryStar", ast.Try))):
            names |= {h.name for h in node.handlers if h.name}
            names |= _direct_stores(node.body + node.orelse + node.finalbody +
                                    [s for h in node.handlers for s in h.body])
        elif isinstance(node, (ast.With, ast.AsyncWith)):
            names |= analysis.stores([i.optional_vars for i in node.items
                                      if i.optional_vars is not None])
            names |= _direct_stores(node.body)
        elif isinstance(node, ast.Match):
            for case in node.cases:
                names |= analysis.stores([case.pattern]) | _direct_stores(case.body)
        else:
            names |= analysis.stores([node])
    return names


def _closure_reads(function):
    """The names the functions defined in `function` read (lambdas aside): TF counts them
    live wherever such a function may be called."""
    return analysis.loads([n for n in ast.walk(function) if n is not function and
                           isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))])


def _composite_text(target, rebound):
    """``self.x`` or ``d['k']`` (attributes and constant or variable keys of a variable's
    object) as source text; None for another target or one whose object is rebound here."""
    node = target
    while isinstance(node, (ast.Attribute, ast.Subscript)):
        if isinstance(node, ast.Subscript):
            key = node.slice
            if not (isinstance(key, ast.Constant) or
                    isinstance(key, ast.Name) and key.id not in rebound):
                return None
        node = node.value
    if not isinstance(node, ast.Name) or node.id in rebound or node is target:
        return None
    return ast.unparse(target)


def _composites(statements, rebound):
    """The attributes and items that `statements` store to (nested scopes excluded; a loop's
    target may be one): like the variables they modify, they are the statement's state (TF's
    composite symbols)."""
    found = set()
    stack = list(statements)
    while stack:
        node = stack.pop()
        if isinstance(node, analysis.SCOPES):
            continue
        if isinstance(node, ast.AnnAssign) and node.value is None:
            continue  # (an annotation alone assigns nothing)
        # what assignments, loop targets (``for o.x in ...``) and ``with ... as d[k]`` store
        # (unpacked targets are among the children walked)
        if isinstance(node, (ast.Attribute, ast.Subscript)) and isinstance(node.ctx, ast.Store):
            text = _composite_text(node, rebound)
            if text is not None:
                found.add(text)
        stack.extend(ast.iter_child_nodes(node))
    return found


class _ControlFlow(analysis.OwnScopeTransformer):
    def __init__(self, namer, global_names, closure_reads):
        self.names = {base: namer.fixed_name(base) for base in (
            "if_body", "else_body", "get_state", "set_state", "vars_", "loop_test",
            "loop_body", "extra_test", "itr")}
        self.global_names = global_names
        self.closure_reads = closure_reads

    def _declarations(self, names, prefix):
        """`names` split into the `nonlocal` and `global` declarations of a generated function."""
        return {prefix: sorted(n for n in names if n not in self.global_names),
                f"{prefix}_globals": sorted(set(names) & self.global_names)}

    def _state(self, state, composites=()):
        state, composites = sorted(state), sorted(composites)
        values = [ast.Name(n, ast.Load()) for n in state] + [
            ast.parse(f"ag__.ldu(lambda: {text}, {text!r})", mode="eval").body
            for text in composites]
        loads = ast.Tuple(values, ast.Load())
        stores = ast.Tuple([ast.Name(n, ast.Store()) for n in state], ast.Store())
        vars_ = self.names["vars_"]
        whole = ast.Name(vars_, ast.Load()) if not composites else \
            ast.parse(f"{vars_}[:{len(state)}]", mode="eval").body
        assign = templates.replace("target = value", target=stores, value=whole) if state \
            else []
        for i, text in enumerate(composites, len(state)):
            target = ast.parse(text, mode="eval").body
            key = (repr(target.attr) if isinstance(target, ast.Attribute)
                   else ast.unparse(target.slice))
            assign += ast.parse(f"ag__.set_composite({ast.unparse(target.value)}, {key}, "
                                f"{isinstance(target, ast.Attribute)}, {vars_}[{i}])").body
        statements = templates.replace(_STATE, state_values=loads,
                                       assign_state=assign or [ast.Pass()],
                                       **self._declarations(state, "state"), **self.names)
        names = ast.Tuple([ast.Constant(n) for n in state + composites], ast.Load())
        return statements, names, len(state) + len(composites)

    def _fill(self, template, node, state, **replacements):
        get_and_set, names, count = self._state(state, getattr(node, "ag_composites", ()))
        modified = node.ag_modified
        if not isinstance(node, ast.If):
            # As in TF, a variable that a loop body binds itself and that is live neither at
            # the loop's head nor after it is the body function's own: a lambda made in an
            # iteration keeps that iteration's value.
            modified = modified - (node.ag_direct - node.ag_live_in - node.ag_live_out
                                   - self.closure_reads - self.global_names)
        statements = templates.replace(
            template, get_state_and_set_state=get_and_set, names=names,
            count=ast.Constant(count), **self._declarations(modified, "modified"),
            **replacements, **self.names)
        return templates.locate(statements, node)

    def visit_If(self, node):
        self.generic_visit(node)
        state = node.ag_modified & node.ag_live_out
        return self._fill(_IF, node, state, test=node.test, body=node.body,
                          orelse=node.orelse or [ast.Pass()])

    def visit_While(self, node):
        self.generic_visit(node)
        state = node.ag_modified & node.ag_live_in
        return self._fill(_WHILE, node, state, test=node.test, body=node.body,
                          options=_options(node))

    def visit_For(self, node):
        self.generic_visit(node)
        state = node.ag_modified & node.ag_live_in
        tests = getattr(node, "ag_extra_tests", [])
        if tests:
            test = tests[-1]
            for earlier in reversed(tests[:-1]):
                test = templates.replace_expr("ag__.and_(lambda: a, lambda: b)", a=earlier,
                                              b=test)
            extra = templates.replace("def extra_test():\n    return test", test=test,
                                      **self.names)
            extra_name = self.names["extra_test"]
        else:
            extra, extra_name = [], ast.Constant(None)
        return self._fill(_FOR, node, state, iterated=node.iter, target=node.target,
                          body=node.body, options=_options(node), extra_test_def=extra,
                          extra_test_arg=extra_name)


def _options(loop):
    """The loop's options as a dict display: its `set_loop_options` and whether it had an else."""
    keywords = getattr(loop, "ag_loop_options", [])
    keys = [ast.Constant(k.arg) for k in keywords] + [ast.Constant("has_else")]
    values = [k.value for k in keywords] + [ast.Constant(getattr(loop, "ag_has_else", False))]
    if isinstance(loop, ast.For) and isinstance(loop.target, ast.Name):
        keys.append(ast.Constant("iterate_names"))  # (a loop over a range starts it there)
        values.append(ast.Constant(loop.target.id))
    return ast.Dict(keys, values)


def transform(function, namer):
    """Converts `function`'s own control flow (annotated by `annotate`)."""
    converter = _ControlFlow(namer, analysis.global_names(function), _closure_reads(function))
    function.body = templates.visit_block(converter, function.body)
    return function
