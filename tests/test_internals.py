"""Only tests/internals.py reaches eagerflow's private package: every other test uses the public
API or imports what it needs from tests.internals, so moving a module breaks no test file."""
import ast
import pathlib

TESTS = pathlib.Path(__file__).resolve().parent
PRIVATE = ".".join(("eagerflow", "_src"))  # spelled apart: this file names it only to find it


def _private_references(tree):
    """(line, text) of each import of the private package, or string naming one of its modules."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names = [node.module] + [f"{node.module}.{alias.name}" for alias in node.names]
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            names = [node.value]  # importlib.import_module, pytest.importorskip, sys.modules keys
        elif isinstance(node, ast.JoinedStr):
            names = ["".join(v.value for v in node.values if isinstance(v, ast.Constant))]
        else:
            continue
        for name in names:
            if name == PRIVATE or name.startswith(PRIVATE + "."):
                yield node.lineno, name


def test_only_internals_imports_the_private_package():
    offenders = []
    for path in sorted(TESTS.rglob("*.py")):
        if path == TESTS / "internals.py":
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        offenders += [f"{path.relative_to(TESTS.parent)}:{line}: {name}"
                      for line, name in _private_references(tree)]
    assert not offenders, ("import these through tests/internals.py (or use the public API):\n"
                           + "\n".join(offenders))


def test_the_check_sees_imports_strings_and_f_strings():
    source = (f"import {PRIVATE}.core.registry\n"
              f"from {PRIVATE}.ops import math_ops\n"
              f"from eagerflow import _src\n"
              f"pytest.importorskip('{PRIVATE}.ops.array_ops')\n"
              "mod = f'" + PRIVATE + ".ops.{name}'\n"
              "from eagerflow.keras import layers\n"
              "import eagerflow as tf\n")
    found = sorted({line for line, _ in _private_references(ast.parse(source))})
    assert found == [1, 2, 3, 4, 5]


def test_internals_exports_resolve():
    from tests import internals
    assert internals.registry.get("MatMul").name == "MatMul"
