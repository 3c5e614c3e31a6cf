"""What the benchmarks share: timing, the libraries compared, TF in its own interpreter.

A benchmark module defines ``CASES = {name: build}`` where ``build(lib, make)``
returns ``(fn, n)`` (time `fn`, divide by `n`) or None when a library has no
counterpart, and calls ``harness.main(CASES, __file__)``.  TensorFlow runs in
the interpreter named by EF_BENCH_TF_PYTHON (a virtual environment with
tensorflow-cpu), or here when it imports.
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import time

import numpy as np

_SRC = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "src")
sys.path.insert(0, _SRC)


def timeit(fn, reps):
    """Median seconds of `reps` runs of `fn`, after one warm-up run."""
    fn()
    times = []
    for _ in range(reps):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return statistics.median(times)


def libraries():
    """(name, module, make-tensor) for every library importable in this interpreter."""
    import eagerflow
    libs = [("numpy", np, lambda a: a), ("eagerflow", eagerflow, eagerflow.constant)]
    try:
        import torch
        torch.set_num_threads(os.cpu_count() or 1)
        libs.append(("torch", torch, torch.from_numpy))
    except ImportError:
        pass
    return libs


def measure(cases, lib, make, reps):
    out = {}
    for case, build in cases.items():
        try:
            built = build(lib, make)
            if built is not None:
                fn, n = built
                out[case] = timeit(fn, reps) / n
        except Exception as e:  # a missing feature is a result too
            out[case] = f"failed: {type(e).__name__}: {e}"
    return out


def tensorflow_results(cases, script, reps):
    python = os.environ.get("EF_BENCH_TF_PYTHON")
    if python:
        names = ["--cases", ",".join(cases)]
        proc = subprocess.run([python, script, "--tf-only", "--reps", str(reps), *names],
                              capture_output=True, text=True,
                              env=dict(os.environ, TF_CPP_MIN_LOG_LEVEL="3"))
        lines = [line for line in proc.stdout.splitlines() if line.startswith("{")]
        return json.loads(lines[-1]) if lines else {"error": proc.stderr[-300:]}
    try:
        import tensorflow as tf
    except ImportError:
        return None
    return measure(cases, tf, tf.constant, reps)


def _cores():
    """The cores this process may run on (and the busy loops, which inherit its affinity)."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:
        return os.cpu_count() or 1


# a busy loop that ends after `seconds`, or as soon as the benchmark that started it is gone
_BUSY = ("import os, time\nparent, end = os.getppid(), time.monotonic() + {seconds}\n"
         "while time.monotonic() < end and os.getppid() == parent:\n"
         "    for _ in range(100000): pass\n")


class Load:
    """Other processes keeping every core busy (one busy loop per core) while in the block.

    Each loop ends by itself after `seconds`, or when this process dies first.
    """

    def __init__(self, seconds=1800, processes=None):
        self.seconds, self.processes = seconds, processes or _cores()
        self._procs = []

    def __enter__(self):
        code = _BUSY.format(seconds=self.seconds)
        self._procs = [subprocess.Popen([sys.executable, "-c", code])
                       for _ in range(self.processes)]
        return self

    def __exit__(self, *exc):
        for proc in self._procs:
            proc.kill()
        for proc in self._procs:
            proc.wait()
        self._procs = []


def main(cases, script, reps=5):
    """Times every case in every library; prints per-op times and ratios to NumPy.

    ``--cases a,b`` runs only those cases; ``--load`` runs everything while other
    processes keep every core busy (the loops stop with the benchmark); ``--rounds n``
    times the libraries n times in turn and shows the medians.
    """
    p = argparse.ArgumentParser()
    p.add_argument("--reps", type=int, default=reps)
    p.add_argument("--cases", help="comma-separated case names (default: all)")
    p.add_argument("--rounds", type=int, default=1,
                   help="time every library this many times in turn; medians are shown")
    p.add_argument("--load", action="store_true",
                   help="keep every core busy with other processes while timing")
    p.add_argument("--tf-only", action="store_true", help=argparse.SUPPRESS)
    args = p.parse_args()
    if args.cases:
        unknown = set(args.cases.split(",")) - set(cases)
        if unknown:
            p.error(f"unknown cases: {', '.join(sorted(unknown))}")
        cases = {name: build for name, build in cases.items() if name in args.cases.split(",")}
    if args.tf_only:
        import tensorflow as tf
        print(json.dumps(measure(cases, tf, tf.constant, args.reps)))
        return 0
    if args.load:
        print(f"under load: {_cores()} busy processes")
        with Load():
            return _run(cases, script, args)
    return _run(cases, script, args)


def _median(values):
    """The median of the rounds' times, or the first round's message where one failed."""
    times = [v for v in values if isinstance(v, float)]
    return statistics.median(times) if len(times) == len(values) else values[0]


def _run(cases, script, args):
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, [_SRC, os.environ.get(
        "PYTHONPATH")])))
    cold = subprocess.run([sys.executable, "-X", "importtime", "-c", "import eagerflow"],
                          capture_output=True, text=True, env=env).stderr.splitlines()
    print(f"import eagerflow: {int(cold[-1].split('|')[1]) / 1e6:.3f} s (cold, -X importtime)")
    rounds = []
    for _ in range(args.rounds):  # libraries in turn, so that a changing load hits each
        results = {name: measure(cases, lib, make, args.reps) for name, lib, make in libraries()}
        tf_results = tensorflow_results(cases, script, args.reps)
        if tf_results is not None:
            results["tensorflow"] = tf_results
        rounds.append(results)
    results = {name: {case: _median([r[name].get(case) for r in rounds])
                      for case in rounds[0][name]} for name in rounds[0]}
    for case in cases:
        floor = results["numpy"].get(case)
        print(f"{case}:")
        for name, res in results.items():
            v = res.get(case)
            if v is None:
                continue
            if isinstance(v, str):
                print(f"  {name:11s} {v}")
                continue
            ratio = f"  {v / floor:6.2f}x numpy" if isinstance(floor, float) else ""
            ef = results["eagerflow"].get(case)
            vs_ef = (f"  ({v / ef:6.2f}x eagerflow)" if name not in ("eagerflow", "numpy")
                     and isinstance(ef, float) else "")
            print(f"  {name:11s} {v * 1e6:10.2f} us/op{ratio}{vs_ef}")
    return 0
