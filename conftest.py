"""The docstring examples of ``src/eagerflow`` run as doctests.

Each module under ``src/eagerflow`` is collected as a doctest module (only
there: files under ``tests/`` include programs that import real TensorFlow),
with the option flags of ``doctest_optionflags`` in ``pyproject.toml``, and
with ``tf`` (eagerflow) and ``np`` defined, as TensorFlow's documentation
assumes.
"""
import pathlib

import numpy as np
import pytest
from _pytest.doctest import DoctestModule

import eagerflow as tf

_SOURCES = pathlib.Path(__file__).resolve().parent / "src" / "eagerflow"


def pytest_collect_file(file_path, parent):
    if (file_path.suffix == ".py" and _SOURCES in file_path.parents
            and not parent.config.option.doctestmodules):
        return DoctestModule.from_parent(parent, path=file_path)
    return None


@pytest.fixture(autouse=True)
def _doctest_namespace(doctest_namespace):
    doctest_namespace["tf"] = tf
    doctest_namespace["np"] = np
