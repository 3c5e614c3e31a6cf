"""Runs fidelity programs with ``tensorflow`` bound to eagerflow; prints their outputs as JSON.

Each program runs in a forked child of one process that imported eagerflow
once, so programs are isolated from each other (seeds, scopes) yet cheap to start.
Each program's output is written as it ends, one JSON line ``{"name": ..., "output": ...}``
(flushed), so that the caller sees how far the run got.

    python -m tests.fidelity.runner tests/fidelity/programs/printing_basic.py
"""
import contextlib
import io
import json
import os
import sys
import traceback


def _capture(path):
    """The program's stdout; an exception escaping it is appended as a short traceback."""
    with open(path, encoding="utf-8") as f:
        source = f.read()
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        try:
            exec(compile(source, path, "exec"), {"__name__": "__main__", "__file__": path})
        except BaseException:  # noqa: B036 (reported in the diff, whatever it is)
            print("UNCAUGHT " + traceback.format_exc(limit=-2))
    return out.getvalue()


def run_isolated(path):
    """Runs one program in a forked child and returns its captured output."""
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:  # child: run, send the output, leave without cleanup handlers
        os.close(read_end)
        with os.fdopen(write_end, "wb") as pipe:
            pipe.write(_capture(path).encode("utf-8"))
        os._exit(0)
    os.close(write_end)
    with os.fdopen(read_end, "rb") as pipe:
        text = pipe.read().decode("utf-8")
    os.waitpid(pid, 0)
    return text


def main(paths):
    import eagerflow
    sys.modules["tensorflow"] = eagerflow
    for path in paths:
        line = json.dumps({"name": os.path.basename(path), "output": run_isolated(path)})
        sys.stdout.write(line + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main(sys.argv[1:])
