"""The cost of a summary per training step, beside TF.

    EF_BENCH_TF_PYTHON=/path/to/tf/python python bench/summary.py [--reps 5]

* ``scalar_float``: ``tf.summary.scalar("loss", 0.5, step=i)`` under a file writer,
  per call (the goal is at most 20 us);
* ``scalar_tensor``: the same with a scalar float32 tensor and an int64 step variable
  as the default step (what a training loop writes);
* ``scalar_in_function``: a traced function computing a value and writing it as a
  scalar summary, per call;
* ``histogram_1k``: a histogram of 1,000 floats (30 buckets), per call.

NumPy's floor frames the same events (a prebuilt ``Event``, the time and step
patched in) into a buffered TFRecord file with zlib's CRC-32 (a C loop) in place
of CRC-32C: the writing alone.
"""
import os
import struct
import sys
import tempfile
import time
import zlib

import numpy as np

import harness

_DIR = tempfile.mkdtemp(prefix="ef_bench_summary_")
_N = 2000


def _writer(lib, case):
    return lib.summary.create_file_writer(os.path.join(_DIR, f"{lib.__name__}_{case}"))


def _floor():
    path = os.path.join(_DIR, "floor")
    body = (b"*\x1d\n\x1b\n\x04lossB\n\x08\x01\x12\x00\"\x04\x00\x00\x00?"
            b"J\x0b\n\t\n\x07scalars")

    def record(data):
        length = struct.pack("<Q", len(data))
        return (length + struct.pack("<I", zlib.crc32(length)) + data
                + struct.pack("<I", zlib.crc32(data)))

    def run():
        queue = []
        with open(path, "ab") as f:
            for i in range(_N):
                queue.append(record(struct.pack("<Bd", 9, time.time()) + b"\x10"
                                    + bytes([i & 0x7F]) + body))
                if len(queue) > 10:
                    f.write(b"".join(queue))
                    queue = []
            f.write(b"".join(queue))
    return run, _N


def _scalar_float(lib, make):
    if lib is np:
        return _floor()
    writer = _writer(lib, "float")

    def run():
        with writer.as_default():
            for i in range(_N):
                lib.summary.scalar("loss", 0.5, step=i)
    return run, _N


def _scalar_tensor(lib, make):
    if lib is np:
        return None
    writer = _writer(lib, "tensor")
    step = lib.Variable(0, dtype=lib.int64)
    value = lib.constant(0.5)

    def run():
        with writer.as_default(step=step):
            for _ in range(_N):
                lib.summary.scalar("loss", value)
    return run, _N


def _scalar_in_function(lib, make):
    if lib is np:
        return None
    writer = _writer(lib, "function")
    step = lib.Variable(0, dtype=lib.int64)

    @lib.function
    def train_step(x):
        loss = lib.reduce_mean(x * x)
        lib.summary.scalar("loss", loss, step=step)
        step.assign_add(1)
        return loss

    x = lib.constant([1.0, 2.0, 3.0])

    def run():
        with writer.as_default():
            for _ in range(_N):
                train_step(x)
    return run, _N


def _histogram(lib, make):
    if lib is np:
        return None
    writer = _writer(lib, "histogram")
    data = lib.constant(np.random.default_rng(0).normal(size=1000).astype(np.float32))

    def run():
        with writer.as_default():
            for i in range(100):
                lib.summary.histogram("weights", data, step=i)
    return run, 100


CASES = {
    "scalar_float": _scalar_float,
    "scalar_tensor": _scalar_tensor,
    "scalar_in_function": _scalar_in_function,
    "histogram_1k": _histogram,
}

if __name__ == "__main__":
    sys.exit(harness.main(CASES, __file__))
