"""The op families import each other without cycles (see eagerflow/_src/ops/late.py)."""
from tests import internals
from tests.import_graph import cycles, imports, package_modules

PACKAGE = internals.ops_package.__name__


def test_no_module_level_import_cycle_in_ops():
    module_level = [e for e in imports(package_modules(PACKAGE)) if not e[3]]
    assert cycles(module_level) == []


def test_no_family_imports_another_inside_a_function():
    # A family reaches one above it through `late`, bound once every family has loaded.
    local = [f"{a} line {line} imports {b}" for a, b, line, inside in
             imports(package_modules(PACKAGE)) if inside]
    assert local == []


def test_the_package_binds_every_module_into_late():
    modules = package_modules(PACKAGE)
    bound = {b for a, b, _, _ in imports(modules) if a == PACKAGE}
    assert bound == set(modules) - {PACKAGE}
