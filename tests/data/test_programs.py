"""tf.data programs (the TensorFlow data guide's examples) print what TensorFlow prints.

``programs/<name>.expected`` is each program's output under TensorFlow
(``regenerate.py``); the programs run with ``tensorflow`` bound to eagerflow
through the fidelity runner and compare as the fidelity tests do.
"""
import difflib
import json
import pathlib
import subprocess
import sys

import pytest

from tests.fidelity.test_programs import same_output

HERE = pathlib.Path(__file__).parent
ROOT = HERE.parent.parent
PROGRAMS = sorted((HERE / "programs").glob("*.py"))


@pytest.fixture(scope="module")
def outputs():
    proc = subprocess.run([sys.executable, "-m", "tests.fidelity.runner", *map(str, PROGRAMS)],
                          cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


@pytest.mark.parametrize("program", PROGRAMS, ids=lambda p: p.stem)
def test_program_prints_what_tensorflow_prints(program, outputs):
    expected = program.with_suffix(".expected").read_text(encoding="utf-8")
    got = outputs[program.name]
    diff = "".join(difflib.unified_diff(expected.splitlines(True), got.splitlines(True),
                                        "tensorflow", "eagerflow"))
    assert same_output(expected, got), f"{program.name} differs:\n{diff}"
