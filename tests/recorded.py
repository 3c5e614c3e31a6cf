"""Comparing an outcome computed here with TF's recorded one (JSON data written by the
tests' ``make_*_data.py`` scripts under TensorFlow)."""
import pytest


def assert_same(ours, theirs, path="result", rel=1e-4, abs=1e-5):
    """`ours` equals `theirs` (nested lists, dicts and scalars, as JSON gives them), floats
    within `rel`/`abs`; `path` names the first difference."""
    if isinstance(theirs, float) and isinstance(ours, (int, float)):
        assert ours == pytest.approx(theirs, rel=rel, abs=abs, nan_ok=True), path
    elif isinstance(theirs, list):
        assert isinstance(ours, list) and len(ours) == len(theirs), f"{path}: {ours} vs {theirs}"
        for i, (a, b) in enumerate(zip(ours, theirs)):
            assert_same(a, b, f"{path}[{i}]", rel, abs)
    elif isinstance(theirs, dict):
        assert isinstance(ours, dict) and sorted(ours) == sorted(theirs), \
            f"{path}: {ours} vs {theirs}"
        for key in theirs:
            assert_same(ours[key], theirs[key], f"{path}.{key}", rel, abs)
    else:
        assert ours == theirs, f"{path}: {ours!r} vs {theirs!r}"
