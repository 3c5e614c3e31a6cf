"""Keras optimizer updates inside `function` on the variables of a 784-256-128-10 MLP
(a step's `apply_gradients`, gradients given), eagerflow beside TF.

    python bench/optimizer_update.py [--steps 300]

TensorFlow runs in the interpreter named by EF_BENCH_TF_PYTHON (default
/root/tfvenv/bin/python), in a subprocess running this same file with ``--tf``.
"""
import os
import subprocess
import sys
import time

import numpy as np

SHAPES = [(784, 256), (256,), (256, 128), (128,), (128, 10), (10,)]
OPTIMIZERS = ("Adam", "SGD", "RMSprop", "Adagrad", "AdamW")


def step_times(tf, steps):
    rng = np.random.default_rng(0)
    times = {}
    for name in OPTIMIZERS:
        variables = [tf.Variable(rng.standard_normal(s).astype(np.float32)) for s in SHAPES]
        grads = [tf.constant(rng.standard_normal(s).astype(np.float32)) for s in SHAPES]
        kwargs = {"SGD": {"momentum": 0.9}, "AdamW": {"weight_decay": 0.004}}.get(name, {})
        opt = getattr(tf.keras.optimizers, name)(1e-3, **kwargs)

        @tf.function
        def step():
            opt.apply_gradients(zip(grads, variables))

        for _ in range(10):
            step()
        best = float("inf")
        for _ in range(3):
            start = time.perf_counter()
            for _ in range(steps):
                step()
            best = min(best, (time.perf_counter() - start) / steps)
        times[name] = best
    return times


def main():
    steps = int(sys.argv[sys.argv.index("--steps") + 1]) if "--steps" in sys.argv else 300
    if "--tf" in sys.argv:
        os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
        os.environ.setdefault("TF_USE_LEGACY_KERAS", "1")
        import tensorflow as tf  # noqa: PLC0415
        print(repr(step_times(tf, steps)))
        return
    import eagerflow as tf  # noqa: PLC0415
    ours = step_times(tf, steps)
    python = os.environ.get("EF_BENCH_TF_PYTHON", "/root/tfvenv/bin/python")
    env = dict(os.environ, TF_CPP_MIN_LOG_LEVEL="3", TF_USE_LEGACY_KERAS="1", PYTHONPATH="")
    out = subprocess.run([python, __file__, "--tf", "--steps", str(steps)], env=env,
                         capture_output=True, text=True, check=True).stdout
    theirs = eval(out.strip().splitlines()[-1])  # noqa: S307 (our own subprocess's dict)
    for name in OPTIMIZERS:
        print(f"{name:8s} update  eagerflow {ours[name] * 1e6:7.1f} us  "
              f"tf {theirs[name] * 1e6:7.1f} us  speedup {theirs[name] / ours[name]:.2f}x")


if __name__ == "__main__":
    main()
