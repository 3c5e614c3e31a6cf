"""Regenerates ``programs/<name>.expected``: each program's stdout under real TensorFlow.

Not run by the tests.  Needs a Python with TensorFlow and tf_keras installed
(default ``/opt/tfvenv/bin/python``, or ``$TF_PYTHON``); ``tf.keras`` is
tf_keras there.  TensorFlow's log lines go to stderr and are dropped.  Run from anywhere:

    python tests/fidelity/regenerate.py                  # every program
    python tests/fidelity/regenerate.py strings_ops      # only the programs named

A program that raises, or exits non-zero, keeps its old expected file and is reported.
"""
import os
import pathlib
import subprocess
import sys

HERE = pathlib.Path(__file__).parent
PROGRAMS = HERE / "programs"
TF_PYTHON = os.environ.get("TF_PYTHON", "/opt/tfvenv/bin/python")


def regenerate(program):
    """Runs `program` under TensorFlow and writes its `.expected` file; True on success."""
    # tf.keras is tf_keras (Keras 2), the Keras eagerflow reproduces.
    env = dict(os.environ, TF_CPP_MIN_LOG_LEVEL="3", CUDA_VISIBLE_DEVICES="",
               TF_USE_LEGACY_KERAS="1")
    proc = subprocess.run([TF_PYTHON, program.name], cwd=PROGRAMS, env=env,
                          capture_output=True, text=True)
    if proc.returncode != 0:
        print(f"FAILED {program.name}:\n{proc.stderr[-2000:]}", file=sys.stderr)
        return False
    program.with_suffix(".expected").write_text(proc.stdout, encoding="utf-8")
    return True


def main(names):
    programs = [PROGRAMS / f"{n}.py" for n in names] or sorted(PROGRAMS.glob("*.py"))
    failed = [p.name for p in programs if not regenerate(p)]
    print(f"{len(programs) - len(failed)} regenerated, {len(failed)} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
