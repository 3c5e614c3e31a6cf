"""Resident memory and live objects across many tape uses and function calls.

    python bench/memory.py [--steps 10000] [--calls 100000]

Runs the linear-regression step under a fresh tape each time, reuses one
persistent tape, calls a traced function, and runs the same step traced,
reporting RSS (from /proc) and gc-tracked objects before and after each
(no growth expected).
"""
import argparse
import gc
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "src"))
import eagerflow as tf  # noqa: E402


def rss_mib():
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--steps", type=int, default=10_000)
    p.add_argument("--calls", type=int, default=100_000)
    args = p.parse_args()
    rng = np.random.default_rng(0)
    xs = rng.normal(size=1000).astype(np.float32)
    x, y = tf.constant(xs), tf.constant(xs * 3 + 2)
    w, b = tf.Variable(5.0), tf.Variable(10.0)

    def step():
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean(tf.square(x * w + b - y))
        dw, db = tape.gradient(loss, [w, b])
        w.assign_sub(dw * 0.01)
        b.assign_sub(db * 0.01)

    def persistent_use():
        with tf.GradientTape(persistent=True) as tape:
            loss = tf.reduce_mean(tf.square(x * w + b - y))
        tape.gradient(loss, w)
        tape.gradient(loss, b)

    add_one = tf.function(lambda v: v + 1.0)
    scalar = tf.constant(1.0)
    traced_step = tf.function(step)
    cases = (("training steps", step, args.steps),
             ("persistent tapes", persistent_use, args.steps),
             ("calls of function(lambda x: x + 1.0)", lambda: add_one(scalar), args.calls),
             ("traced training steps", traced_step, args.steps))
    for name, fn, n in cases:
        for _ in range(100):
            fn()
        gc.collect()
        rss0, obj0 = rss_mib(), len(gc.get_objects())
        for _ in range(n):
            fn()
        gc.collect()
        print(f"{n} {name}: RSS {rss0:.1f} -> {rss_mib():.1f} MiB, "
              f"gc objects {obj0} -> {len(gc.get_objects())}")


if __name__ == "__main__":
    main()
