"""Eager op overhead and a tape training step, beside raw NumPy (the floor) and TF/PyTorch.

    python bench/eager_ops.py [--reps 5]

Prints, for each case, seconds per op for every library and the ratio to NumPy.
TensorFlow is timed in its own interpreter when EF_BENCH_TF_PYTHON names one
(a virtual environment with tensorflow-cpu), otherwise if it imports here.
"""
import sys

import numpy as np

import harness

SMALL_OPS = 10_000  # `y = y * 1.0001 + 0.5` is two ops per iteration


def small_ops(lib, make):
    x = make(np.ones(16, np.float32))

    def run():
        y = x
        for _ in range(SMALL_OPS // 2):
            y = y * 1.0001 + 0.5
        return y
    return run, SMALL_OPS


def matmul(lib, make):
    rng = np.random.default_rng(0)
    a = make(rng.random((1024, 1024), dtype=np.float32))
    b = make(rng.random((1024, 1024), dtype=np.float32))
    mm = {"numpy": np.matmul}.get(lib) or getattr(lib, "matmul")
    return (lambda: mm(a, b)), 1


def conv2d(lib, make):
    if lib is np:
        return None  # NumPy has no convolution: eagerflow's own time is the figure
    rng = np.random.default_rng(0)
    x = rng.random((32, 28, 28, 16), dtype=np.float32)
    w = rng.random((3, 3, 16, 32), dtype=np.float32)
    if getattr(lib, "__name__", "") == "torch":
        import torch
        xt = torch.from_numpy(x.transpose(0, 3, 1, 2).copy())
        wt = torch.from_numpy(w.transpose(3, 2, 0, 1).copy())
        return (lambda: torch.nn.functional.conv2d(xt, wt)), 1
    xs, ws = make(x), make(w)
    return (lambda: lib.nn.conv2d(xs, ws, strides=1, padding="VALID")), 1


def tape_step(lib, make):
    """The eager guide's linear regression step: loss, gradient wrt W and B, two updates."""
    rng = np.random.default_rng(0)
    xs = rng.normal(size=1000).astype(np.float32)
    ys = (xs * 3 + 2 + rng.normal(size=1000)).astype(np.float32)
    steps = 200
    name = getattr(lib, "__name__", "")
    if name == "numpy":
        def run():
            w, b = np.float32(5.0), np.float32(10.0)
            for _ in range(steps):
                err = xs * w + b - ys
                dw, db = np.mean(2 * err * xs), np.mean(2 * err)
                w, b = w - 0.01 * dw, b - 0.01 * db
        return run, steps
    if name == "torch":
        import torch
        x, y = torch.from_numpy(xs), torch.from_numpy(ys)

        def run():
            w = torch.tensor(5.0, requires_grad=True)
            b = torch.tensor(10.0, requires_grad=True)
            for _ in range(steps):
                loss = torch.mean(torch.square(x * w + b - y))
                dw, db = torch.autograd.grad(loss, [w, b])
                with torch.no_grad():
                    w -= dw * 0.01
                    b -= db * 0.01
        return run, steps
    x, y = lib.constant(xs), lib.constant(ys)

    def run():
        w, b = lib.Variable(5.0), lib.Variable(10.0)
        for _ in range(steps):
            with lib.GradientTape() as tape:
                loss = lib.reduce_mean(lib.square(x * w + b - y))
            dw, db = tape.gradient(loss, [w, b])
            w.assign_sub(dw * 0.01)
            b.assign_sub(db * 0.01)
    return run, steps


def jacobian(lib, make):
    """d tanh(W @ x * x) / dx for 200 inputs: 200 rows, one batched backward pass."""
    rng = np.random.default_rng(0)
    xs = rng.random(200, dtype=np.float32)
    ws = rng.random((200, 200), dtype=np.float32)
    name = getattr(lib, "__name__", "")
    if name == "numpy":  # the hand-derived jacobian
        def run():
            u = ws @ xs * xs
            return (1 - np.tanh(u) ** 2)[:, None] * (ws * xs[:, None] + np.diag(ws @ xs))
        return run, 1
    if name == "torch":
        import torch
        x, w = torch.from_numpy(xs), torch.from_numpy(ws)
        f = lambda v: torch.tanh(w @ v * v)  # noqa: E731
        return (lambda: torch.autograd.functional.jacobian(f, x, vectorize=True)), 1
    x, w = make(xs), make(ws)

    def run():
        with lib.GradientTape() as tape:
            tape.watch(x)
            y = lib.tanh(lib.linalg.matvec(w, x) * x)
        return tape.jacobian(y, x)
    return run, 1


CASES = {"small_ops": small_ops, "tape_step_linear_regression": tape_step,
         "jacobian_200": jacobian, "matmul_1024": matmul, "conv2d_32x28x28x16_to_32": conv2d}


if __name__ == "__main__":
    sys.exit(harness.main(CASES, __file__))
