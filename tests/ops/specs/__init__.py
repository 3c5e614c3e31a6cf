"""Op test specs, one module per op family; each defines `SPECS`."""
import importlib
import pkgutil


def all_specs():
    specs = []
    for info in sorted(pkgutil.iter_modules(__path__), key=lambda i: i.name):
        specs.extend(importlib.import_module(f"{__name__}.{info.name}").SPECS)
    return specs
