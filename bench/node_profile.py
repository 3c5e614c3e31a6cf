"""Per-op profile of a `keras_train` case's compiled step: where the main thread's time goes.

    python bench/node_profile.py CASE [--tree DIR] [--reps 10] [--serial] [--nodes]

The step's program (the executor's source, one kernel call per op, kernels bound as
globals ``k0, k1, ...``) is caught as it is compiled, and each kernel is wrapped with a
timer. Per op type (per node with ``--nodes``): calls per step, wall microseconds per
step, the part spent in oneDNN's ``dnnl_primitive_execute`` and ``dnnl_stream_wait``
(native), and the rest (Python around the kernels, NumPy work, allocations).

``--serial`` stubs oneDNN's execution out instead and times each node's kernel alone on
the arguments it had, in loops: the serial Python and NumPy cost of every op, free of
the native kernels' noise (its results are meaningless; only the times are kept).

eagerflow's thread budget is held fixed (as ``bench/interleaved.py --idle``), except with
``--load``: other processes keep every core busy meanwhile (``harness.Load``) and the
budget follows the load as it does in use. Do not run
this under real-time priority on a machine others keep busy: oneDNN's OpenMP threads
spin at that priority and starve every other process.
"""
import argparse
import collections
import contextlib
import os
import re
import sys
import time

_KERNEL = re.compile(r"\b(k\d+)\(")


def _caught_programs(executor):
    programs = []
    compile_ = executor.Emitter.compile

    def compile(self, args, result):
        run = compile_(self, args, result)
        programs.append(self)
        return run
    executor.Emitter.compile = compile
    return programs


def _kernels(program):
    """[(kernel name, op)] in program order."""
    found = []
    for line in sorted(program.at_line):
        match = _KERNEL.search(program.lines[line - 3])  # (at_line counts "def" and "try")
        if match:
            found.append((match.group(1), program.at_line[line][0]))
    return found


def _label(name, op, nodes):
    if not nodes:
        return op.type
    return f"{op.type} {name} {[tuple(t.shape) for t in op.inputs][:3]}"


def profile(step, steps, program, lib, reps, nodes):
    """{label: [calls, seconds, native seconds]} over `reps` runs of `step`."""
    native = [0.0]
    clock = time.perf_counter
    execute, wait = lib.dnnl_primitive_execute, lib.dnnl_stream_wait

    def timed(function):
        def run(*args):
            start = clock()
            result = function(*args)
            native[0] += clock() - start
            return result
        return run
    lib.dnnl_primitive_execute, lib.dnnl_stream_wait = timed(execute), timed(wait)
    stats = collections.defaultdict(lambda: [0, 0.0, 0.0])

    def wrap(kernel, label):
        def run(*args, **kwargs):
            before, start = native[0], clock()
            result = kernel(*args, **kwargs)
            row = stats[label]
            row[0] += 1
            row[1] += clock() - start
            row[2] += native[0] - before
            return result
        return run
    for name, op in _kernels(program):
        program.env[name] = wrap(program.env[name], _label(name, op, nodes))
    step()
    stats.clear()
    for _ in range(reps):
        step()
    return {label: [c / (reps * steps), t / (reps * steps), n / (reps * steps)]
            for label, (c, t, n) in stats.items()}


def serial(step, program, lib, loops, nodes):
    """{label: [calls, seconds, 0]}: each kernel alone on its arguments, oneDNN stubbed out."""
    captured, kernels = {}, _kernels(program)
    originals = {name: program.env[name] for name, _ in kernels}

    def capture(name, kernel):
        def run(*args, **kwargs):
            captured.setdefault(name, (args, kwargs))
            return kernel(*args, **kwargs)
        return run
    for name, _ in kernels:
        program.env[name] = capture(name, originals[name])
    step()
    program.env.update(originals)
    lib.dnnl_primitive_execute = lib.dnnl_stream_wait = lambda *args: 0
    stats = collections.defaultdict(lambda: [0, 0.0, 0.0])
    for name, op in kernels:
        args, kwargs = captured[name]
        best = float("inf")
        for _ in range(5):
            start = time.perf_counter()
            for _ in range(loops):
                originals[name](*args, **kwargs)
            best = min(best, (time.perf_counter() - start) / loops)
        row = stats[_label(name, op, nodes)]
        row[0] += 1
        row[1] += best
    return stats


def main():
    p = argparse.ArgumentParser()
    p.add_argument("case")
    p.add_argument("--tree", default=".", help="source tree whose src/ is imported")
    p.add_argument("--reps", type=int, default=10, help="epochs timed (loops with --serial)")
    p.add_argument("--serial", action="store_true")
    p.add_argument("--nodes", action="store_true")
    p.add_argument("--load", action="store_true", help="keep every core busy meanwhile")
    args = p.parse_args()
    here = os.path.dirname(os.path.abspath(__file__))
    sys.path[:0] = [os.path.join(os.path.abspath(args.tree), "src"), here]
    import eagerflow as tf
    from eagerflow._src.backend import onednn
    from eagerflow._src.graph import executor
    import harness
    import keras_train
    if not args.load:
        tf.config.experimental.enable_op_determinism()
    programs = _caught_programs(executor)
    epoch, samples = keras_train.CASES[args.case](tf, tf.constant)
    epoch()
    epoch()
    if not onednn.enabled():
        sys.exit("oneDNN is not available")
    program = programs[-1]  # the step's (the one compiled last)
    steps = samples // 32
    with harness.Load() if args.load else contextlib.nullcontext():
        if args.serial:
            stats = serial(epoch, program, onednn.lib(), args.reps, args.nodes)
        else:
            stats = profile(epoch, steps, program, onednn.lib(), args.reps, args.nodes)
    total = [sum(row[i] for row in stats.values()) for i in (1, 2)]
    print(f"{args.case} ({args.tree}): {total[0] * 1e6:.0f} us per step in kernels, "
          f"{total[1] * 1e6:.0f} native, {(total[0] - total[1]) * 1e6:.0f} else")
    print(f"{'op':40s} {'calls':>5s} {'total':>8s} {'native':>8s} {'else':>8s}  (us/step)")
    for label, (calls, seconds, native) in sorted(stats.items(), key=lambda kv: -kv[1][1]):
        print(f"{label:40s} {calls:5.0f} {seconds * 1e6:8.1f} {native * 1e6:8.1f} "
              f"{(seconds - native) * 1e6:8.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
