"""Resident memory and live objects across many tape uses (no growth expected).

    python bench/tape_memory.py [--steps 10000]

Runs the linear-regression step under a fresh tape each time, then reuses
one persistent tape, reporting RSS (from /proc) and gc-tracked objects.
"""
import argparse
import gc
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import eagerflow as tf  # noqa: E402


def rss_mib():
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--steps", type=int, default=10_000)
    steps = p.parse_args().steps
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

    for name, fn in (("training steps", step), ("persistent tapes", persistent_use)):
        for _ in range(100):
            fn()
        gc.collect()
        rss0, obj0 = rss_mib(), len(gc.get_objects())
        for _ in range(steps):
            fn()
        gc.collect()
        print(f"{steps} {name}: RSS {rss0:.1f} -> {rss_mib():.1f} MiB, "
              f"gc objects {obj0} -> {len(gc.get_objects())}")


if __name__ == "__main__":
    main()
