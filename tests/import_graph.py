"""Imports between the modules of one eagerflow package, read from the source (nothing runs)."""
import ast
import importlib.util
import pathlib


def package_modules(package):
    """{dotted module name: file} for `package` (like "eagerflow._src.ops") and below it."""
    root = pathlib.Path(importlib.util.find_spec("eagerflow").origin).parent.parent
    base = root.joinpath(*package.split("."))
    found = {}
    for path in sorted(base.rglob("*.py")):
        parts = path.relative_to(root).with_suffix("").parts
        found[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return found


def imports(modules):
    """(importer, imported, line, in_function) for every import of one of `modules` by another.

    `from a.b import c` counts as importing the module a.b.c when that is a module, else a.b;
    importing a module also runs the `__init__` of each package above it, so those count too.
    """
    out = []
    for name, path in modules.items():
        tree = ast.parse(path.read_text(), str(path))
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        in_function = set()
        for node in ast.walk(tree):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
                in_function.update(id(n) for n in ast.walk(node) if n is not node)
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                source = node.module or ""
                if node.level:
                    base = package.split(".")[:len(package.split(".")) - node.level + 1]
                    source = ".".join(base + ([node.module] if node.module else []))
                targets = [f"{source}.{a.name}" for a in node.names]
            else:
                continue
            for target in targets:
                parts = target.split(".")
                for end in range(len(parts), 0, -1):
                    imported = ".".join(parts[:end])
                    # a package above the importer has already run when the importer runs
                    if imported in modules and not (name + ".").startswith(imported + "."):
                        out.append((name, imported, node.lineno, id(node) in in_function))
    return out


def cycles(edges):
    """The strongly connected components of more than one module, each sorted."""
    graph = {}
    for a, b, *_ in edges:
        graph.setdefault(a, set()).add(b)
        graph.setdefault(b, set())
    index, low, stack, on_stack, found = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in graph[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found
