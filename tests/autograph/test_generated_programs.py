"""Generated programs (see `programs`) give under ``tf.function`` what they give as Python.

A longer run of the same check: ``python tests/autograph/fuzz_programs.py --examples 5000``.
"""
import logging
import re

import pytest
from hypothesis import HealthCheck, given, settings

from tests.autograph import programs


@pytest.fixture(autouse=True)
def _quiet_conversion_warnings():
    """Generated programs make AutoGraph warn; the level goes back for the tests that follow."""
    logger = logging.getLogger("tensorflow")
    level = logger.level
    logger.setLevel(logging.ERROR)
    yield
    logger.setLevel(level)


@settings(max_examples=60, deadline=None, database=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(programs.programs(), programs.inputs)
def test_function_runs_generated_programs_as_python(source, cases):
    difference = programs.check(source, cases)
    assert difference is None, f"{difference}\n{source}"


def test_generated_programs_cover_the_constructs():
    """The generator reaches every construct it is meant to (so the check above can fail)."""
    constructs = [re.escape(c) for c in (
        "elif ", "else:", "while ", "in range(", "in tf.range(", "in [1, ", "in [a, b]",
        "break", "continue", "return (v0", "lambda u", 'ops["', " if ", " for w in ",
        " for j in ", " and ", " or ", "not (", "+=", "-=", "helper(")] + [
        r"v\d, v\d = v\d, v\d", r"[\w-]+ [<>!]=? [\w-]+ [<>!]=? [\w-]+"]
    seen = set()

    # (derandomized: the same programs each run, so that coverage cannot fail by chance)
    @settings(max_examples=150, deadline=None, database=None, derandomize=True)
    @given(programs.programs())
    def collect(source):
        body = source.split("    v3 = ", 1)[1]
        seen.update(c for c in constructs if re.search(c, body))
    collect()
    assert seen == set(constructs), set(constructs) - seen
