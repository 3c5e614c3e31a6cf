"""A function traced on almost every call keeps a bounded number of traces."""
import gc
import logging

import pytest

import eagerflow as tf
from tests.internals import polymorphic_function


@pytest.fixture
def few_traces(monkeypatch):
    monkeypatch.setattr(polymorphic_function, "_MAX_TRACES", 8)


def _objects():
    gc.collect()
    return len(gc.get_objects())


def test_a_python_number_changing_every_call_keeps_memory_bounded(few_traces, caplog):
    @tf.function
    def scale(x, n):
        return x * n

    x = tf.constant(2.0)
    with caplog.at_level(logging.ERROR):  # (the retracing warnings)
        for n in range(40):
            assert float(scale(x, n)) == 2.0 * n
        before = _objects()
        for n in range(40, 200):
            assert float(scale(x, n)) == 2.0 * n
        after = _objects()
    # each trace holds dozens of objects: 160 more kept would be thousands
    assert after - before < 100
    assert scale.experimental_get_tracing_count() == 200
    assert len(scale.pretty_printed_concrete_signatures().split("\n\n")) <= 8


def test_a_forgotten_signature_traces_again_and_the_count_goes_on(few_traces, caplog):
    f = tf.function(lambda x, n: x + n)
    with caplog.at_level(logging.ERROR):
        for n in range(20):
            f(tf.constant(1), n)
        assert int(f(tf.constant(1), 0)) == 1  # traced again
    assert f.experimental_get_tracing_count() == 21
    lines = f.experimental_explain_retracing().splitlines()
    assert lines[0] == "<lambda> was traced 21 times:"
    assert lines[1].startswith("  (the reasons of the first ")
    assert lines[-1] == "  21. n changed from int 19 to int 0"
