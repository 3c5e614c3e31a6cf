"""Elementwise float functions and softmax at 16, 1,000 and 100,000 elements, beside NumPy.

    python bench/float_math.py [--reps 5]

Each case times exp, log, tanh, sigmoid, softmax, ``t * t`` (square) or ``t + 1.0``
(add_scalar) on one float32 tensor, eagerly and as a traced `function` (`_fn` cases), and
prints seconds per call for every library and the ratio to the same computation written in
NumPy (sigmoid as 1 / (1 + exp(-x)), softmax as exp of the shifted logits over their sum).
TensorFlow is timed in its own interpreter when EF_BENCH_TF_PYTHON names one (see harness.py).
"""
import sys

import numpy as np

import harness

SIZES = {16: (1, 16), 1000: (100, 10), 100_000: (1000, 100)}


def _np_softmax(x):
    e = np.exp(x - x.max(-1, keepdims=True))
    return e / e.sum(-1, keepdims=True)


# name: (NumPy's version, the library's op by library name, inputs positive)
OPS = {
    "exp": (np.exp, lambda lib, name: lib.exp, False),
    "log": (np.log, lambda lib, name: lib.math.log if name != "torch" else lib.log, True),
    "tanh": (np.tanh, lambda lib, name: lib.tanh, False),
    "sigmoid": (lambda x: 1 / (1 + np.exp(-x)), lambda lib, name: lib.sigmoid, False),
    "softmax": (_np_softmax, lambda lib, name: (lambda t: lib.softmax(t, -1)) if name == "torch"
                else lib.nn.softmax, False),
    "square": (lambda x: x * x, lambda lib, name: lambda t: t * t, False),
    "add_scalar": (lambda x: x + 1.0, lambda lib, name: lambda t: t + 1.0, False),
}


def _case(op, size, traced):
    numpy_fn, get, positive = OPS[op]

    def build(lib, make):
        rng = np.random.default_rng(0)
        x = rng.standard_normal(SIZES[size]).astype(np.float32) * 4
        if positive:
            x = np.abs(x) + np.float32(0.1)
        name = getattr(lib, "__name__", "")
        calls = max(1, 100_000 // size)  # enough calls for each timing to be measurable
        if name == "numpy":
            fn = numpy_fn
        else:
            fn = get(lib, name)
            if traced:
                if not hasattr(lib, "function"):
                    return None
                fn = lib.function(fn)
            x = make(x)
        fn(x)

        def run():
            for _ in range(calls):
                fn(x)
        return run, calls
    return build


CASES = {f"{op}_{size}{'_fn' if traced else ''}": _case(op, size, traced)
         for op in OPS for size in SIZES for traced in (False, True)}


if __name__ == "__main__":
    with np.errstate(all="ignore"):
        sys.exit(harness.main(CASES, __file__))
