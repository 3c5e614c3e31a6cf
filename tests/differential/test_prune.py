"""prune.rewrite narrows known.py's lists without touching their neighbours."""
from .prune import narrowed, rewrite

SOURCE = """_A = "a reason"
_B = (
    'another '
)
_BY_CAUSE = {
    _A: ['k1'],
    _B: [
        'k2', 'k3'
    ],
    _C: ['k4'],
}
"""


def test_a_cause_left_empty_goes_with_its_reason():
    out = rewrite(SOURCE, {"_A": []})
    assert "_A =" not in out and "_A:" not in out and "'k2', 'k3'" in out and "_C: ['k4']," in out


def test_a_multiline_cause_is_narrowed_or_removed():
    assert "_B: [\n        'k2'\n    ],\n    _C: ['k4']," in rewrite(SOURCE, {"_B": ["k2"]})
    out = rewrite(SOURCE, {"_B": []})
    assert "_B =" not in out and "_B:" not in out and "_A: ['k1'],\n    _C: ['k4']," in out


def test_patterns_partly_fixed_become_the_keys_that_still_differ():
    status = {"a*": (["a1", "a2"], ["a2"]), "b": (["b"], ["b"]), "c": (["c"], [])}
    assert narrowed(["a*", "b", "c"], status) == ["a2", "b"]
