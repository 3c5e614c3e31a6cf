"""Keras's modules import each other only downwards (the order in eagerflow/_src/keras/__init__.py)."""
from tests import internals
from tests.import_graph import cycles, imports, package_modules

PACKAGE = internals.keras_package.__name__
# Lowest first; a module belongs to the tier of the longest prefix naming it.
TIERS = [
    ["late"],  # filled by the package once every module has loaded; imports nothing
    ["backend"],
    ["utils"],
    ["initializers", "regularizers", "constraints", "activations", "losses"],
    ["optimizers", "callbacks"],
    ["mixed_precision"],
    ["engine", "engine.base_layer", "engine.input_spec", "engine.keras_tensor",
     "engine.input_layer", "engine.data_adapter"],
    ["layers", "metrics"],
    ["engine.training", "engine.functional", "engine.sequential", "engine.compile_utils",
     "models", "premade_models"],
    ["saving", "datasets", "preprocessing"],
    ["applications"],
    [""],  # the package itself, which imports everything to fill `late`
]


def tier(module):
    name = module[len(PACKAGE) + 1:]
    best = max((prefix for names in TIERS for prefix in names
                if name == prefix or name.startswith(prefix + ".") or prefix == ""), key=len)
    return next(i for i, names in enumerate(TIERS) if best in names)


def test_keras_modules_import_only_their_own_tier_and_lower_ones():
    upward = [f"{a} line {line} imports {b}" for a, b, line, _ in
              imports(package_modules(PACKAGE)) if tier(b) > tier(a)]
    assert upward == []


def test_no_import_cycle_in_keras():
    # Function-local imports count too: a cycle through one is still a circle of modules.
    assert cycles(imports(package_modules(PACKAGE))) == []


def test_every_keras_module_has_a_tier():
    assert [m for m in package_modules(PACKAGE) if m != PACKAGE and tier(m) == len(TIERS) - 1] \
        == []
