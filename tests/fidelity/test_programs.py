"""Differential fidelity tests: small TF2 programs must print what TensorFlow prints.

Every ``programs/<name>.py`` is plain TF2 code; ``programs/<name>.expected`` is
its output under TensorFlow (see ``regenerate.py``).  All programs run in one
subprocess with ``tensorflow`` bound to eagerflow (``runner.py``); each test
compares one program's output with its expected file.

The comparison is exact except for floating-point numbers printed in the text.
eagerflow computes with NumPy's functions, which may differ from TensorFlow's
kernels in the last bits (see ``float_math``), so `same_output` tokenises both
texts: words, punctuation, line breaks, integers, ``inf`` and ``nan`` must be
identical; a number written with a decimal point or an exponent may differ by
``RTOL`` (a few float32 ulps) relative to its size, plus one unit in its last
printed digit when that digit is at least the fifth significant one (rounding
to the printed precision can fall either side of a boundary).  Where a number
differs, the spaces NumPy pads columns with to the widest number may differ
too; texts that differ only in spacing differ.
`LOOSER` lists the programs whose printed values depend on a cancellation that
amplifies last-bit differences, each with its tolerance and the reason.
"""
import difflib
import json
import os
import pathlib
import re
import select
import signal
import subprocess
import sys
import tempfile

import pytest

HERE = pathlib.Path(__file__).parent
ROOT = HERE.parent.parent
PROGRAMS = sorted((HERE / "programs").glob("*.py"))

RTOL = 4e-6  # ~32 float32 ulps relative: rounding differences of a few ops, not bugs
ATOL = 1e-30
LOOSER = {
    # the gradient of tanh(2x) at x = 2 is 2 * (1 - y * y) with y = tanh(4) = 0.9993293: one
    # ulp of y (6e-8) moves the result by 9e-5 of itself
    "tape_features": 1e-4,
}
_NUMBER = re.compile(r"(?<![\w.])[-+]?(?:\d+\.\d*|\.\d+|\d+)(?:[eE][-+]?\d+)?(?![\w.])")
_TOKEN = re.compile(_NUMBER.pattern + r"| +|\n|[^ \d\n]+|\d+")


def _is_float(token):
    return _NUMBER.fullmatch(token) is not None and any(c in token for c in ".eE")


def _last_digit_unit(token):
    """The place value of the last printed digit, and how many significant digits show."""
    mantissa, _, exponent = token.lower().partition("e")
    digits = mantissa.lstrip("+-").replace(".", "").lstrip("0")
    decimals = len(mantissa.partition(".")[2])
    return 10.0 ** (int(exponent or 0) - decimals), len(digits)


def _close(a, b, rtol):
    x, y = float(a), float(b)
    scale = max(abs(x), abs(y))
    tol = ATOL + rtol * scale
    unit = max(_last_digit_unit(a)[0], _last_digit_unit(b)[0])
    if min(_last_digit_unit(a)[1], _last_digit_unit(b)[1]) >= 5:
        tol += unit
    return abs(x - y) <= tol


def same_output(expected, got, rtol=RTOL):
    """Whether `got` prints what `expected` does, floats within `rtol` (see the module)."""
    if got == expected:
        return True
    want = [t for t in _TOKEN.findall(expected) if not t.startswith(" ")]
    have = [t for t in _TOKEN.findall(got) if not t.startswith(" ")]
    if len(want) != len(have):
        return False
    numbers_differ = False
    for a, b in zip(want, have):
        if a != b:
            if not (_is_float(a) and _is_float(b) and _close(a, b, rtol)):
                return False
            numbers_differ = True
    return numbers_differ  # (when only the spacing differs, the texts differ)


# The longest one program (or the runner's start) may go without a result: each takes about
# a second, a busy machine makes that a few; minutes without one is a hang.
PROGRAM_SECONDS = 120


def run_programs(programs, program_seconds=PROGRAM_SECONDS):
    """Output of each of `programs` under eagerflow (one runner subprocess), by file name.

    The runner reports each program as it ends, so the time allowed grows with their number:
    a run fails only when one program (or the runner's start) goes `program_seconds`
    without ending, naming that program, and its processes are killed.
    """
    with tempfile.TemporaryFile("w+") as errors:
        proc = subprocess.Popen([sys.executable, "-m", "tests.fidelity.runner",
                                 *map(str, programs)], cwd=ROOT, stdout=subprocess.PIPE,
                                stderr=errors, start_new_session=True)
        results, pending = {}, b""
        try:
            while True:
                ready, _, _ = select.select([proc.stdout], [], [], program_seconds)
                if not ready:
                    running = programs[len(results)].name if len(results) < len(programs) \
                        else "the runner's exit"
                    if not results:
                        running += " (or the runner's start)"
                    pytest.fail(f"{running} did not end within {program_seconds} s (a hang?); "
                                f"{len(results)} of {len(programs)} programs ran")
                data = os.read(proc.stdout.fileno(), 1 << 16)
                if not data:
                    break
                *lines, pending = (pending + data).split(b"\n")
                for line in lines:
                    result = json.loads(line)
                    results[result["name"]] = result["output"]
            proc.wait(timeout=program_seconds)
        finally:
            if proc.poll() is None:
                os.killpg(proc.pid, signal.SIGKILL)  # (the runner and a forked program)
                proc.wait()
            proc.stdout.close()
            errors.seek(0)
            stderr = errors.read()
    assert proc.returncode == 0, stderr
    return results


def assert_prints(program, expected, got, rtol=RTOL):
    """Asserts that `got`, the output of `program`, is `expected` (`same_output`), showing the
    diff when it is not."""
    diff = "".join(difflib.unified_diff(expected.splitlines(True), got.splitlines(True),
                                        "tensorflow", "eagerflow"))
    assert same_output(expected, got, rtol), f"{program.name} differs:\n{diff}"


@pytest.fixture(scope="module")
def outputs():
    """Output of every program under eagerflow, by file name."""
    return run_programs(PROGRAMS)


def test_every_program_has_expected_output():
    missing = [p.name for p in PROGRAMS if not p.with_suffix(".expected").exists()]
    assert PROGRAMS and not missing, f"run tests/fidelity/regenerate.py for {missing}"


def test_a_program_that_hangs_fails_the_run_by_name(tmp_path):
    hang = tmp_path / "hang.py"
    hang.write_text("import time\nprint('started')\ntime.sleep(3600)\n")
    with pytest.raises(pytest.fail.Exception, match=r"^hang.py \(or the runner's start\) did "
                                                    r"not end within 3 s \(a hang\?\); 0 of 1"):
        run_programs([hang], program_seconds=3)


@pytest.mark.parametrize("program", PROGRAMS, ids=lambda p: p.stem)
def test_program_prints_what_tensorflow_prints(program, outputs):
    expected_file = program.with_suffix(".expected")
    if not expected_file.exists():
        pytest.skip("no expected output yet")
    expected = expected_file.read_text(encoding="utf-8")
    assert_prints(program, expected, outputs[program.name], LOOSER.get(program.stem, RTOL))


@pytest.mark.parametrize("expected, got", [
    ("tf.Tensor([ 1.        16.         0.2857143], shape=(3,), dtype=float32)",
     "tf.Tensor([ 1.         16.          0.28571427], shape=(3,), dtype=float32)"),
    ("[2.4037768e+08 2.0041048e+08]", "[2.4037770e+08 2.0041048e+08]"),
    ("kld [1.51777 0.83363 1.51315 0.74266]", "kld [1.51777 0.83363 1.51314 0.74266]"),
    ("loss: 0.6931472\n", "loss: 0.69314724\n"),
])
def test_floats_compare_within_a_few_ulps(expected, got):
    assert same_output(expected, got)


@pytest.mark.parametrize("expected, got", [
    ("[1.5 2.5]", "[1.5 2.6]"),  # a short float: only RTOL
    ("[0.2857143]", "[0.2857243]"),  # 3.5e-5 relative
    ("shape=(3,)", "shape=(4,)"),  # integers are exact
    ("step 10", "step 11"),
    ("dtype=float32", "dtype=float64"),
    ("[inf nan]", "[nan inf]"),
    ("1.0 2.0", "1.0  2.0"),  # padding differs though no number does
    ("1.0\n2.0", "1.0 2.0"),
    ("[1. 2.]", "[1. 2. 3.]"),
    ("0.5", "-0.5"),
    ("1.51315", "1.51313"),  # two units of the last digit
])
def test_other_differences_fail(expected, got):
    assert not same_output(expected, got)
