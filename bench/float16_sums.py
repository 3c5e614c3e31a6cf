"""float16 sums in TF's CPU rounding order, beside NumPy's own float16 sum.

    python bench/float16_sums.py [--reps 5]

Each case sums 512K float16 values (a whole-array sum, rows of a 512x1024 matrix, its
columns, and the spatial axes of a 32x16x16x64 batch as global average pooling does), eagerly
with ``reduce_sum`` and with NumPy's ``sum`` on the same array. NumPy's sum is the floor, not
the same computation: it adds halves in float32 pairs and rounds once, where TF (and
eagerflow) round every partial sum to half precision in Eigen's order. TensorFlow is timed in
its own interpreter when EF_BENCH_TF_PYTHON names one (see harness.py).
"""
import sys

import numpy as np

import harness

# name: (shape, axis)
SHAPES = {"all_512k": ((512 * 1024,), None), "rows_512x1024": ((512, 1024), 1),
          "columns_512x1024": ((512, 1024), 0), "pool_32x16x16x64": ((32, 16, 16, 64), (1, 2))}


def _case(shape, axis):
    def build(lib, make):
        x = np.random.default_rng(0).random(shape).astype(np.float16)
        name = getattr(lib, "__name__", "")
        if name == "numpy":
            def fn():
                return x.sum(axis)
        elif name == "torch":
            return None  # (its CPU float16 sum accumulates in float32, as NumPy's)
        else:
            t = make(x)

            def fn():
                return lib.reduce_sum(t, axis)
        calls = 20
        fn()

        def run():
            for _ in range(calls):
                fn()
        return run, calls
    return build


CASES = {name: _case(*spec) for name, spec in SHAPES.items()}


if __name__ == "__main__":
    with np.errstate(all="ignore"):
        sys.exit(harness.main(CASES, __file__))
