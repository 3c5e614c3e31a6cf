"""Registry test specs: how each op is checked by the sweep in test_registry_sweep.py.

Every registered op needs at least one `OpSpec` in a module of `tests/ops/specs/`
(a module-level list named ``SPECS``).  A spec calls the public API on tensors
made from `args`, and the sweep checks

* values against `ref` (a NumPy reference computed from the same args), or a
  custom `check(outputs, args)` for ops without a reference (random ops);
* for every op dispatched while running, its static shape/dtype rule against
  the real outputs, both with the exact input shapes and with all dims unknown;
* (gradients against float64 finite differences, when autodiff lands: `grad`).
"""
import numpy as np

import eagerflow as tf
from tests.internals import dispatch


class OpSpec:
    """One test case for registry op `op`.

    op:     the registry name the case covers (e.g. "AddV2").
    fn:     calls the public API: ``fn(*tensors)`` -> tensor or tuple/list of tensors.
    args:   NumPy arrays (or Python values) turned into tensors with `constant`.
    ref:    ``ref(*args)`` -> expected array(s); or None with `check`.
    check:  ``check(outputs_as_numpy, args)`` asserting properties instead of `ref`.
    grad:   True when the op's gradient is to be checked, else a reason string.
    """

    def __init__(self, op, fn, args, ref=None, *, check=None, rtol=1e-5, atol=1e-6,
                 grad=True, name=None):
        if ref is None and check is None:
            raise ValueError(f"spec for {op} needs `ref` or `check`")
        self.op, self.fn, self.args, self.ref, self.check = op, fn, list(args), ref, check
        self.rtol, self.atol, self.grad = rtol, atol, grad
        self.name = name or op

    def __repr__(self):
        return f"OpSpec({self.name})"


def rand(*shape, dtype=np.float32, low=-2.0, high=2.0, seed=0):
    """Reproducible random test data of `shape` and `dtype`."""
    rng = np.random.default_rng(seed + sum(shape) * 7 + len(shape))
    if np.issubdtype(dtype, np.integer):
        return rng.integers(int(low), int(high) + 1, size=shape).astype(dtype)
    if dtype == np.bool_:
        return rng.random(shape) > 0.5
    if np.issubdtype(dtype, np.complexfloating):
        return (rng.uniform(low, high, shape) + 1j * rng.uniform(low, high, shape)).astype(dtype)
    return rng.uniform(low, high, size=shape).astype(dtype)


def positive(*shape, dtype=np.float32, seed=0):
    """Random data in (0.1, 2.1): inputs of log, sqrt, ..."""
    return rand(*shape, dtype=dtype, low=0.1, high=2.1, seed=seed)


_TRACED = {}  # (fn, dtypes) -> concrete function of `graph_op`


def graph_op(fn, op_type, *, unpack=False):
    """``run(*tensors)``: the `op_type` op of ``fn`` traced on tensors like them, dispatched
    on them (the op's inputs are the function's arguments); its outputs, or with `unpack`
    a single output alone."""
    def run(*tensors):
        key = (fn, tuple((t.dtype, tuple(t.shape)) for t in tensors))
        concrete = _TRACED.get(key)
        if concrete is None:
            concrete = _TRACED[key] = tf.function(fn, autograph=False).get_concrete_function(
                *[tf.TensorSpec(t.shape, t.dtype) for t in tensors])
        op, = [op for op in concrete.graph.get_operations() if op.type == op_type]
        by_input = dict(zip(map(id, concrete.inputs), tensors))
        out = dispatch(op.op_def, [by_input[id(t)] for t in op.inputs], op.attrs)
        return out[0] if unpack and len(out) == 1 else out
    return run
