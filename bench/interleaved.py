"""One `keras_train` case in several libraries or source trees, timed in turn, epoch by epoch.

    python bench/interleaved.py CASE [--epochs 6] [--load] NAME=PYTHON:TREE:LIB ...

e.g. ``ef=/root/efvenv/bin/python:.:eagerflow tf=/root/tfvenv/bin/python:.:tensorflow``.
Each worker (one interpreter, with ``TREE/src`` first on its path) builds the case
once and warms it up; then they run one epoch each in turn (the order rotated each
turn), so that a machine whose load changes from second to second (shared cores) hits
every worker alike. Prints each worker's median samples per second (wall and per
CPU second) and its ratio to the last worker, epoch by epoch: median and range.
``--load`` keeps every core busy with other processes meanwhile (see harness.Load).
``--idle`` holds eagerflow's thread budget whatever the load (as
``enable_op_determinism`` does): run under ``chrt -f 1`` (real-time priority) on a
machine others keep busy, it times what an idle machine would give (not for cases on
OpenBLAS, mlp and lstm: its threads spin at that priority and starve the machine).
Under heavy load (a load average many times the cores) oneDNN's OpenMP threads can spin
at that priority too: runs of the convolution cases were seen to stall there, starving
everything else, so keep ``--idle`` for a machine that is busy but not swamped.
"""
import argparse
import json
import os
import statistics
import subprocess
import sys

import harness

_WORKER = r'''
import importlib, json, os, sys, time
tree, lib, case = sys.argv[1:4]
sys.path[:0] = [os.path.join(tree, "src"), os.path.join(tree, "bench")]
module = importlib.import_module(lib)
if sys.argv[4:] == ["idle"] and lib == "eagerflow":
    module.config.experimental.enable_op_determinism()
import keras_train
fn, n = keras_train.CASES[case](module, getattr(module, "constant", None))
fn(); fn()
print("ready", flush=True)
for _ in sys.stdin:
    wall, cpu = time.perf_counter(), time.process_time()
    fn()
    print(json.dumps([n / (time.perf_counter() - wall), n / (time.process_time() - cpu)]),
          flush=True)
'''


def main():
    p = argparse.ArgumentParser()
    p.add_argument("case")
    p.add_argument("workers", nargs="+", help="NAME=PYTHON:TREE:LIB")
    p.add_argument("--epochs", type=int, default=6)
    p.add_argument("--load", action="store_true")
    p.add_argument("--idle", action="store_true")
    args = p.parse_args()
    env = dict(os.environ, TF_USE_LEGACY_KERAS="1", TF_CPP_MIN_LOG_LEVEL="3")
    workers = []
    for spec in args.workers:
        name, rest = spec.split("=", 1)
        python, tree, lib = rest.split(":")
        proc = subprocess.Popen([python, "-c", _WORKER, os.path.abspath(tree), lib, args.case,
                                 *(["idle"] if args.idle else [])],
                                stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                stderr=subprocess.DEVNULL, text=True, env=env)
        workers.append((name, proc))
    results = {name: [] for name, _ in workers}
    try:
        for name, proc in workers:
            if proc.stdout.readline().strip() != "ready":
                sys.exit(f"{name}: the case failed to build")
        load = harness.Load() if args.load else None
        if load:
            load.__enter__()
        try:
            for epoch in range(args.epochs):
                # (rotated, not reversed: no worker runs twice in a row, each in every place
                # in turn; reversing ran the first and last twice in a row at alternate turns,
                # and the middle ones never, which favoured the ends by some 7%)
                turn = epoch % len(workers)
                for name, proc in workers[turn:] + workers[:turn]:
                    proc.stdin.write("go\n")
                    proc.stdin.flush()
                    results[name].append(json.loads(proc.stdout.readline()))
        finally:
            if load:
                load.__exit__(None, None, None)
    finally:
        for _, proc in workers:
            proc.stdin.close()
            proc.wait()
    last = workers[-1][0]
    for name, _ in workers:
        wall = [w for w, _ in results[name]]
        cpu = [c for _, c in results[name]]
        ratios = [a[0] / b[0] for a, b in zip(results[name], results[last])]
        print(f"{args.case} {name:10s} {statistics.median(wall):8.0f} samples/s "
              f"[{min(wall):.0f}-{max(wall):.0f}], {statistics.median(cpu):8.0f} per CPU s; "
              f"x{last}: {statistics.median(ratios):.2f} [{min(ratios):.2f}-{max(ratios):.2f}]")
    return 0


if __name__ == "__main__":
    sys.exit(main())
