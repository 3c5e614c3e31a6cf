"""The docstring examples of ``src/eagerflow`` run as doctests.

Each module under ``src/eagerflow`` is collected as a doctest module (only
there: files under ``tests/`` include programs that import real TensorFlow),
with the option flags of ``doctest_optionflags`` in ``pyproject.toml``, and
with ``tf`` (eagerflow) and ``np`` defined, as TensorFlow's documentation
assumes. Each docstring starts from a fresh Keras session, as in a new
interpreter, so that the layer names it prints do not depend on what ran before.
A module whose examples need an optional dependency names it in ``_DOCTEST_REQUIRES``
(module names): without it they skip.
"""
import importlib.util
import pathlib

import numpy as np
import pytest
from _pytest.doctest import DoctestItem, DoctestModule

import eagerflow as tf

_SOURCES = pathlib.Path(__file__).resolve().parent / "src" / "eagerflow"


def pytest_collect_file(file_path, parent):
    if (file_path.suffix == ".py" and _SOURCES in file_path.parents
            and not parent.config.option.doctestmodules):
        return DoctestModule.from_parent(parent, path=file_path)
    return None


@pytest.fixture(autouse=True)
def _doctest_namespace(request, doctest_namespace):
    doctest_namespace["tf"] = tf
    doctest_namespace["np"] = np
    if isinstance(request.node, DoctestItem):
        missing = [name for name in request.node.dtest.globs.get("_DOCTEST_REQUIRES", ())
                   if importlib.util.find_spec(name) is None]
        if missing:
            pytest.skip(f"the examples need {', '.join(missing)}")
        tf.keras.backend.clear_session()
