"""AutoGraph: Python control flow on tensors, eagerly and as graph loops, beside NumPy and TF.

    python bench/autograph.py [--reps 5]

* ``collatz_*``: steps of the Collatz sequence from 77031 (350 iterations of
  a ``while`` around an ``if``, int32), eagerly and under ``function``;
* ``fizzbuzz_*``: counts of Fizz, Buzz and FizzBuzz up to 300 (a ``for`` over
  ``range`` with an ``if``/``elif`` chain);
* ``huber_*``: the Huber loss of one scalar (an ``if`` on ``abs(a) <= delta``).

NumPy's floor runs the same Python code on NumPy int32/float32 scalars.
PyTorch runs it eagerly on tensors.  TensorFlow runs in the interpreter named
by EF_BENCH_TF_PYTHON (see harness.py).
"""
import sys

import numpy as np

import harness


def collatz(n):
    steps = 0
    while n != 1:
        if n % 2 == 0:
            n = n // 2
        else:
            n = 3 * n + 1
        steps += 1
    return steps


def fizzbuzz(n):
    fizz, buzz, both = 0, 0, 0
    for i in range(1, n + 1):
        if i % 15 == 0:
            both += 1
        elif i % 3 == 0:
            fizz += 1
        elif i % 5 == 0:
            buzz += 1
    return fizz, buzz, both


def huber(a, delta=1.0):
    if abs(a) <= delta:
        loss = a * a / 2
    else:
        loss = delta * (abs(a) - delta / 2)
    return loss


def _case(fn, value, dtype, traced):
    def build(lib, make):
        name = getattr(lib, "__name__", "")
        if traced and lib is not np and not hasattr(lib, "function"):
            return None  # no graph mode to compare
        if lib is np:
            arg = np.asarray(value, dtype)[()]
        elif name == "torch":
            arg = lib.tensor(value, dtype=getattr(lib, np.dtype(dtype).name))
        else:
            arg = make(np.asarray(value, dtype))
        call = lib.function(fn) if traced and lib is not np else fn
        call(arg)  # traced (and checked) before timing
        return (lambda: call(arg)), 1
    return build


CASES = {
    "collatz_eager": _case(collatz, 77031, np.int32, False),
    "collatz_function": _case(collatz, 77031, np.int32, True),
    "fizzbuzz_eager": _case(fizzbuzz, 300, np.int32, False),
    "fizzbuzz_function": _case(fizzbuzz, 300, np.int32, True),
    "huber_eager": _case(huber, 2.5, np.float32, False),
    "huber_function": _case(huber, 2.5, np.float32, True),
}

if __name__ == "__main__":
    sys.exit(harness.main(CASES, __file__))
