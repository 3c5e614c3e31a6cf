"""Differential fidelity tests: small TF2 programs must print exactly what TensorFlow prints.

Every ``programs/<name>.py`` is plain TF2 code; ``programs/<name>.expected`` is
its output under TensorFlow (see ``regenerate.py``).  All programs run in one
subprocess with ``tensorflow`` bound to eagerflow (``runner.py``); each test
compares one program's output with its expected file.
"""
import difflib
import json
import pathlib
import subprocess
import sys

import pytest

HERE = pathlib.Path(__file__).parent
ROOT = HERE.parent.parent
PROGRAMS = sorted((HERE / "programs").glob("*.py"))


@pytest.fixture(scope="module")
def outputs():
    """Output of every program under eagerflow, by file name."""
    proc = subprocess.run([sys.executable, "-m", "tests.fidelity.runner", *map(str, PROGRAMS)],
                          cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


def test_every_program_has_expected_output():
    missing = [p.name for p in PROGRAMS if not p.with_suffix(".expected").exists()]
    assert PROGRAMS and not missing, f"run tests/fidelity/regenerate.py for {missing}"


@pytest.mark.parametrize("program", PROGRAMS, ids=lambda p: p.stem)
def test_program_prints_what_tensorflow_prints(program, outputs):
    expected_file = program.with_suffix(".expected")
    if not expected_file.exists():
        pytest.skip("no expected output yet")
    expected = expected_file.read_text(encoding="utf-8")
    got = outputs[program.name]
    diff = "".join(difflib.unified_diff(expected.splitlines(True), got.splitlines(True),
                                        "tensorflow", "eagerflow"))
    assert got == expected, f"{program.name} differs:\n{diff}"
