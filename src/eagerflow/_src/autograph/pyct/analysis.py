"""Which names code binds and reads, and which names are live after a statement.

A converted ``if`` or loop passes on only the variables that it modifies and
that are read later (live): a temporary defined in one branch and never read
again need not be defined in the other.  The analysis is conservative: a
name a nested function reads counts as read where the function is defined.

>>> tree = ast.parse("y = 1\\nif c:\\n    t = 2\\n    y = t\\nprint(y)")
>>> sorted(annotate_liveness(tree.body))
['c', 'print']
>>> sorted(tree.body[1].ag_live_out)
['print', 'y']
"""
import ast

SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)
_COMPREHENSIONS = (ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)


class _Stores(ast.NodeVisitor):
    """Names bound in the current scope (nested scopes only through `nonlocal`)."""

    def __init__(self):
        self.names = set()

    def visit_Name(self, node):
        if not isinstance(node.ctx, ast.Load):
            self.names.add(node.id)

    def visit_FunctionDef(self, node):
        self.names.add(node.name)
        for child in node.decorator_list + node.args.defaults + node.args.kw_defaults:
            if child is not None:
                self.visit(child)
        self.names |= nonlocals(node)

    visit_AsyncFunctionDef = visit_FunctionDef

    def visit_ClassDef(self, node):
        self.names.add(node.name)
        for child in node.decorator_list + node.bases:
            self.visit(child)

    def visit_Lambda(self, node):
        pass

    def _comprehension(self, node):
        for child in ast.walk(node):  # only a walrus binds outside a comprehension
            if isinstance(child, ast.NamedExpr):
                self.visit(child.target)

    visit_ListComp = visit_SetComp = visit_DictComp = visit_GeneratorExp = _comprehension

    def visit_alias(self, node):
        self.names.add((node.asname or node.name).split(".")[0])

    def visit_ExceptHandler(self, node):
        if node.name:
            self.names.add(node.name)
        self.generic_visit(node)

    def _pattern(self, node):
        for attr in ("name", "rest"):
            if getattr(node, attr, None):
                self.names.add(getattr(node, attr))
        self.generic_visit(node)

    visit_MatchAs = visit_MatchStar = visit_MatchMapping = _pattern


def nonlocals(function):
    """Names that `function` or the functions inside it declare nonlocal."""
    return {name for node in ast.walk(function) if isinstance(node, ast.Nonlocal)
            for name in node.names}


def stores(nodes):
    """The names `nodes` (statements or expressions) bind in their own scope."""
    visitor = _Stores()
    for node in nodes:
        visitor.visit(node)
    return visitor.names


def loads(nodes):
    """The names `nodes` read, nested scopes included (augmented targets are read too)."""
    names = set()
    for root in nodes:
        for node in ast.walk(root):
            if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load):
                names.add(node.id)
            elif isinstance(node, ast.AugAssign) and isinstance(node.target, ast.Name):
                names.add(node.target.id)
    return names


def parameters(function):
    """The names of `function`'s parameters."""
    args = function.args
    return {a.arg for a in args.posonlyargs + args.args + args.kwonlyargs
            + [args.vararg, args.kwarg] if a}


def declared_names(function):
    """Names `function` itself declares global or nonlocal (bound outside it)."""
    return {name for node in _own_nodes(function) if isinstance(node, (ast.Global, ast.Nonlocal))
            for name in node.names}


def global_names(function):
    """Names `function` itself declares global."""
    return {name for node in _own_nodes(function) if isinstance(node, ast.Global)
            for name in node.names}


class OwnScopeTransformer(ast.NodeTransformer):
    """A transformer that stays in its scope: nested functions, classes and lambdas are
    converted on their own."""

    def _nested_scope(self, node):
        return node

    visit_FunctionDef = visit_AsyncFunctionDef = visit_ClassDef = visit_Lambda = _nested_scope


def is_docstring(statement):
    """Whether `statement` is a docstring (a lone string constant)."""
    return isinstance(statement, ast.Expr) and isinstance(statement.value, ast.Constant) and \
        isinstance(statement.value.value, str)


def own_statements(node):
    """Every statement under `node` that belongs to its scope (nested scopes excluded)."""
    for child in ast.iter_child_nodes(node):
        if isinstance(child, SCOPES):
            continue
        if isinstance(child, ast.stmt):
            yield child
        yield from own_statements(child)


def _own_nodes(function):
    stack = list(function.body)
    while stack:
        node = stack.pop()
        yield node
        if not isinstance(node, SCOPES):
            stack.extend(ast.iter_child_nodes(node))


# -- liveness ---------------------------------------------------------------------------------

def annotate_liveness(statements, live_out=frozenset()):
    """Sets ``ag_live_out`` on every if/while/for of `statements` (nested scopes excluded),
    and ``ag_live_in`` (live at the loop's head) on loops; returns the names live before."""
    return _block(statements, set(live_out))


def _block(statements, live):
    live = set(live)
    for statement in reversed(statements):
        live = _statement(statement, live)
    return live


def _statement(node, out):
    if isinstance(node, ast.If):
        # A graph if traces each branch from the state before the if, one after the other
        # (and a branch again after a retry): what the if modifies and a branch reads before
        # it writes it is passed on, reset before each branch, as if live after the if.
        live, modified = set(out), stores(node.body + node.orelse)
        while True:
            body, orelse = _block(node.body, live), _block(node.orelse, live)
            new = out | (modified & (body | orelse))
            if new == live:
                break
            live = new
        node.ag_live_out = live
        return loads([node.test]) | body | orelse
    if isinstance(node, (ast.While, ast.For)):
        node.ag_live_out = set(out)
        after = _block(node.orelse, out) | out
        head = set()
        while True:  # a fixed point: what the loop reads may be live on the back edge
            body = _block(node.body, head | after)
            if isinstance(node, ast.For):
                # the tests that jumps add (`ag_extra_tests`) run before every item
                body = (body - stores([node.target])) | loads(
                    [node.iter, *getattr(node, "ag_extra_tests", ())])
            else:
                body |= loads([node.test])
            new = body | after
            if new == head:
                break
            head = new
        node.ag_live_in = head
        return head
    if isinstance(node, ast.Return):
        return loads([node.value]) if node.value is not None else set()
    if isinstance(node, ast.Try):
        final = _block(node.finalbody, out)
        # (`except ... as name` binds name before the handler's body: it is not live before)
        handlers = set().union(*((_block(h.body, final) - {h.name})
                                 | loads([h.type] if h.type else []) for h in node.handlers))
        return _block(node.body, _block(node.orelse, final) | handlers) | handlers
    if isinstance(node, (ast.With, ast.AsyncWith)):
        # `with ... as name` binds name before the body: it is not live before the with
        bound = stores([i.optional_vars for i in node.items if i.optional_vars is not None])
        return loads(node.items) | (_block(node.body, out) - bound)
    if isinstance(node, ast.Match):
        return loads([node.subject]) | out | set().union(
            *(_block(c.body, out) | loads([c.pattern]) for c in node.cases))
    # a simple statement (or a definition): what it reads, plus what stays live past it
    return (out - stores([node])) | loads([node])
