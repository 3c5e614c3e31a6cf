"""Regenerates ``programs/<name>.expected``: each tf.data program's stdout under TensorFlow.

Not run by the tests.  Needs a Python with TensorFlow (``$TF_PYTHON``, default
``/root/tfvenv/bin/python``).  Run from anywhere:

    python tests/data/regenerate.py                  # every program
    python tests/data/regenerate.py guide_basics     # only the programs named
"""
import os
import pathlib
import subprocess
import sys

PROGRAMS = pathlib.Path(__file__).parent / "programs"
TF_PYTHON = os.environ.get("TF_PYTHON", "/root/tfvenv/bin/python")


def main(names):
    programs = [PROGRAMS / f"{n}.py" for n in names] or sorted(PROGRAMS.glob("*.py"))
    env = dict(os.environ, TF_CPP_MIN_LOG_LEVEL="3", CUDA_VISIBLE_DEVICES="")
    failed = []
    for program in programs:
        proc = subprocess.run([TF_PYTHON, program.name], cwd=PROGRAMS, env=env,
                              capture_output=True, text=True)
        if proc.returncode != 0:
            print(f"FAILED {program.name}:\n{proc.stderr[-2000:]}", file=sys.stderr)
            failed.append(program.name)
        else:
            program.with_suffix(".expected").write_text(proc.stdout, encoding="utf-8")
    print(f"{len(programs) - len(failed)} regenerated, {len(failed)} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
