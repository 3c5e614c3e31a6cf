"""The syntax tree of a function or lambda, located where its source lives.

Every node keeps the line and column it has in the user's file, so code
compiled from a converted tree reports the user's own lines in tracebacks.

>>> def f(x):
...     return x
>>> parse_entity(f).name
'f'
"""
import ast
import copy
import inspect
import linecache
import re
import textwrap


class SourceUnavailableError(Exception):
    """The function's source cannot be read (made in a REPL, by `exec`, or built in)."""


def source_lines(fn):
    """(lines, first line number) of `fn`'s definition, or SourceUnavailableError."""
    # (from the code object: `inspect` would follow `__wrapped__` to the function a
    # `functools.wraps` wrapper wraps, and convert that one in the wrapper's place)
    code = getattr(getattr(fn, "__func__", fn), "__code__", None)
    try:
        lines, first = inspect.getsourcelines(code if code is not None else fn)
    except (OSError, TypeError) as e:
        raise SourceUnavailableError(f"could not get the source code of {fn!r}: {e}") from None
    return lines, max(first, 1)


def parse_entity(fn):
    """The `ast.FunctionDef` (or `ast.Lambda`) node defining `fn`, at its real location."""
    if fn.__name__ == "<lambda>":
        found = _lambdas_in_file(fn)
        if found is not None:
            return _the_lambda(found, fn)
    lines, first = source_lines(fn)
    text = "".join(lines)
    dedented = textwrap.dedent(text)
    indent = _indent_of(text) - _indent_of(dedented)
    try:
        tree = ast.parse(dedented)
    except SyntaxError:
        if fn.__name__ != "<lambda>":
            raise SourceUnavailableError(f"could not parse the source code of {fn!r}") from None
        tree = _parse_lambda_line(dedented)
    _relocate(tree, first - 1, indent)
    if fn.__name__ == "<lambda>":
        return _the_lambda([n for n in ast.walk(tree) if isinstance(n, ast.Lambda)], fn)
    node = tree.body[0] if tree.body else None
    if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
        raise SourceUnavailableError(f"the source of {fn!r} is not a function definition")
    node.decorator_list = []  # the decorators already ran; the conversion must not re-run them
    return node


def _indent_of(text):
    first = next((line for line in text.splitlines() if line.strip()), "")
    return len(first) - len(first.lstrip())


def _parse_lambda_line(text):
    """A lambda's lines are often part of a larger statement: keep the part that parses.

    What precedes the lambda is blanked (newlines kept) so positions stay put,
    and the rest is cut at the longest prefix that parses in parentheses.
    """
    start = text.index("lambda") if "lambda" in text else 0
    blank = re.sub(r"[^\n]", " ", text[:start])
    opening = "(" + blank[1:] if blank and blank[0] != "\n" else "(" + blank
    for end in range(len(text), start, -1):
        try:
            return ast.parse(opening + text[start:end] + ")", mode="eval")
        except SyntaxError:
            continue
    raise SourceUnavailableError("could not parse the lambda's source code")


def _relocate(tree, line_offset, column_offset):
    for node in ast.walk(tree):
        if "lineno" in node._attributes:
            node.lineno += line_offset
            node.end_lineno = (node.end_lineno or node.lineno - line_offset) + line_offset
            node.col_offset += column_offset
            if node.end_col_offset is not None:
                node.end_col_offset += column_offset


_file_trees = {}  # file name -> (its text, its syntax tree)


def _lambdas_in_file(fn):
    """The lambda nodes on `fn`'s first line, parsed from its whole file (a lambda is often
    one part of a larger statement); None when the file cannot be read or parsed."""
    code = fn.__code__
    text = "".join(linecache.getlines(code.co_filename, getattr(fn, "__globals__", None)))
    if not text:
        return None
    cached = _file_trees.get(code.co_filename)
    if cached is None or cached[0] != text:
        try:
            cached = _file_trees[code.co_filename] = (text, ast.parse(text))
        except (SyntaxError, ValueError):
            return None
    # a copy: the conversion changes the tree it is given
    return [copy.deepcopy(n) for n in ast.walk(cached[1]) if isinstance(n, ast.Lambda)
            and n.lineno == code.co_firstlineno]


def _code_span(code):
    """(first, last) (line, column) positions of `code`'s instructions, or None if unknown."""
    spans = [((line, col), (end_line, end_col)) for line, end_line, col, end_col
             in code.co_positions() if None not in (line, end_line, col, end_col)
             and (end_line, end_col) > (line, col)]
    if not spans:
        return None
    return min(s for s, _ in spans), max(e for _, e in spans)


def _the_lambda(lambdas, fn):
    """The one lambda node of `lambdas` that defines `fn`: on its first line, with its
    parameters, and whose body holds its instructions' columns (several: ambiguous)."""
    code = fn.__code__
    names = list(code.co_varnames[:code.co_argcount + code.co_kwonlyargcount])
    found = [n for n in lambdas if n.lineno == code.co_firstlineno
             and [a.arg for a in n.args.posonlyargs + n.args.args + n.args.kwonlyargs] == names]
    span = _code_span(code)
    if len(found) > 1 and span is not None:
        found = [n for n in found if (n.body.lineno, n.body.col_offset) <= span[0]
                 and span[1] <= (n.body.end_lineno, n.body.end_col_offset)]
        # a lambda in another's body lies in both bodies: the innermost is the one
        found = sorted(found, key=lambda n: (n.body.end_lineno - n.body.lineno,
                                             n.body.end_col_offset - n.body.col_offset))[:1]
    if len(found) != 1:
        raise SourceUnavailableError(
            f"{len(found) or 'no'} lambdas with parameters {names} on line "
            f"{code.co_firstlineno}: cannot tell which one is {fn!r}")
    return found[0]
