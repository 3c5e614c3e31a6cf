"""tf.data programs (the TensorFlow data guide's examples) print what TensorFlow prints.

``programs/<name>.expected`` is each program's output under TensorFlow
(``regenerate.py``); the programs run with ``tensorflow`` bound to eagerflow
through the fidelity runner and compare as the fidelity tests do.
"""
import pathlib

import pytest

from tests.fidelity.test_programs import assert_prints, run_programs

HERE = pathlib.Path(__file__).parent
PROGRAMS = sorted((HERE / "programs").glob("*.py"))


@pytest.fixture(scope="module")
def outputs():
    return run_programs(PROGRAMS)


@pytest.mark.parametrize("program", PROGRAMS, ids=lambda p: p.stem)
def test_program_prints_what_tensorflow_prints(program, outputs):
    expected = program.with_suffix(".expected").read_text(encoding="utf-8")
    assert_prints(program, expected, outputs[program.name])
