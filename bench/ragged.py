"""Ragged tensors beside TF: `to_tensor` of 10k rows, and building one from row lengths.

    python bench/ragged.py [--reps 5]

TensorFlow is timed in its own interpreter when EF_BENCH_TF_PYTHON names one.
"""
import sys

import numpy as np

import harness

ROWS = 10_000


def _lengths():
    return np.random.default_rng(0).integers(0, 40, ROWS)


def to_tensor(lib, make):
    if not hasattr(lib, "RaggedTensor"):
        return None
    lengths = _lengths()
    values = make(np.arange(lengths.sum(), dtype=np.float32))
    rt = lib.RaggedTensor.from_row_lengths(values, make(lengths.astype(np.int64)))

    def run():
        return rt.to_tensor()
    return run, 1


def from_row_lengths_to_tensor(lib, make):
    if not hasattr(lib, "RaggedTensor"):
        return None
    lengths = make(_lengths().astype(np.int64))
    values = make(np.arange(int(np.asarray(lengths).sum()), dtype=np.float32))

    def run():
        return lib.RaggedTensor.from_row_lengths(values, lengths).to_tensor(default_value=-1.0)
    return run, 1


def reduce_sum_rows(lib, make):
    if not hasattr(lib, "RaggedTensor"):
        return None
    lengths = _lengths()
    values = make(np.arange(lengths.sum(), dtype=np.float32))
    rt = lib.RaggedTensor.from_row_lengths(values, make(lengths.astype(np.int64)))

    def run():
        return lib.reduce_sum(rt, axis=1)
    return run, 1


CASES = {"to_tensor_10k_rows": to_tensor, "from_row_lengths_to_tensor": from_row_lengths_to_tensor,
         "reduce_sum_rows": reduce_sum_rows}

if __name__ == "__main__":
    sys.exit(harness.main(CASES, __file__))
