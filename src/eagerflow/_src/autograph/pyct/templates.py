"""Python snippets with holes, filled with names and syntax trees.

A converter writes the code it generates as source text; each placeholder
name in it is replaced by a name (a str), an expression node, or (standing
alone as a statement) a list of statements.  Generated nodes take the
location of the user's node they stand for, so errors point at user lines.

>>> [ast.unparse(s) for s in locate(replace("x = f(y)", x="total", y=ast.Constant(1)),
...                                   ast.parse("pass").body[0])]
['total = f(1)']
"""
import ast
import copy

_POSITIONS = ("lineno", "col_offset", "end_lineno", "end_col_offset")


class _Filler(ast.NodeTransformer):
    def __init__(self, replacements):
        self.replacements = replacements

    def visit_Name(self, node):
        value = self.replacements.get(node.id)
        if value is None:
            return node
        if isinstance(value, str):
            return ast.Name(value, node.ctx)
        value = copy.deepcopy(value)
        if isinstance(value, (ast.Name, ast.Attribute, ast.Subscript, ast.Tuple, ast.List,
                              ast.Starred)):
            _set_context(value, node.ctx)
        return value

    def visit_Expr(self, node):
        if isinstance(node.value, ast.Name) and isinstance(
                self.replacements.get(node.value.id), list):
            return list(self.replacements[node.value.id])
        return self.generic_visit(node)

    def visit_FunctionDef(self, node):
        node.name = self._renamed(node.name)
        return self.generic_visit(node)

    def visit_arg(self, node):
        node.arg = self._renamed(node.arg)
        return node

    def visit_Nonlocal(self, node):
        return self._declaration(node, ast.Nonlocal)

    def visit_Global(self, node):
        return self._declaration(node, ast.Global)

    def _declaration(self, node, kind):
        names = []
        for name in node.names:
            value = self.replacements.get(name, name)
            names.extend([value] if isinstance(value, str) else value)
        return kind(names) if names else None  # nothing to declare: no statement

    def _renamed(self, name):
        value = self.replacements.get(name)
        return value if isinstance(value, str) else name


def _set_context(node, ctx):
    """Sets a target's context: a tuple's elements are targets too, an attribute's base
    is not."""
    node.ctx = ctx
    if isinstance(node, (ast.Tuple, ast.List)):
        for element in node.elts:
            _set_context(element, ctx)
    elif isinstance(node, ast.Starred):
        _set_context(node.value, ctx)


def _unlocated(tree):
    for node in ast.walk(tree):
        for attr in _POSITIONS:
            if hasattr(node, attr):
                delattr(node, attr)
    return tree


class _Span:
    def __init__(self, start, end):
        self.lineno, self.col_offset = start.lineno, start.col_offset
        self.end_lineno, self.end_col_offset = end.end_lineno, end.end_col_offset


def replace(template, **replacements):
    """The statements of `template` with its placeholders filled (see the module doc).

    A list of str replaces a name in `nonlocal`/`global` declarations (an
    empty one drops the declaration).
    """
    tree = _unlocated(ast.parse(template))
    filled = _Filler(replacements).visit(tree)
    return filled.body


def replace_expr(template, **replacements):
    """The expression `template` with its placeholders filled."""
    statement, = replace(template, **replacements)
    return statement.value


def locate(nodes, origin):
    """Gives every node of `nodes` that has no location the location of `origin`.

    A compound statement lends only its header (``if test``, ``for x in y``),
    so that a traceback through generated code shows that line.
    """
    head = getattr(origin, "test", None) or getattr(origin, "iter", None)
    if isinstance(origin, (ast.If, ast.While, ast.For)) and head is not None:
        origin = _Span(origin, head)
    for root in nodes:
        for node in ast.walk(root):
            if "lineno" in node._attributes and not hasattr(node, "lineno"):
                for attr in _POSITIONS:
                    setattr(node, attr, getattr(origin, attr, None))
    return nodes


def visit_block(transformer, statements):
    """`statements` through an `ast.NodeTransformer`, flat (a statement may become several)."""
    out = []
    for statement in statements:
        result = transformer.visit(statement)
        if isinstance(result, list):
            out.extend(result)
        elif result is not None:
            out.append(result)
    return out
