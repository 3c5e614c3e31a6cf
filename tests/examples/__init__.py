"""Tests of the programs of ``examples/`` (and their benchmark), each in its CI-sized form."""
import importlib.util
import pathlib
import sys

ROOT = pathlib.Path(__file__).resolve().parents[2]


def load(path):
    """The module of the program at `path` (relative to the repository), imported from its
    file; its directory is importable while it loads (a benchmark's ``harness``)."""
    path = ROOT / path
    sys.path.insert(0, str(path.parent))
    try:
        spec = importlib.util.spec_from_file_location(f"_program_{path.stem}", path)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
    finally:
        sys.path.remove(str(path.parent))
    return module
