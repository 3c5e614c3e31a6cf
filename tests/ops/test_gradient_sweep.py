"""The gradient half of the registry sweep.

For every spec whose op is differentiable (``grad=True``), the tape's gradient
of a random weighting of the outputs is compared with central finite
differences in float64.  Ops still waiting for their gradient are listed in
`PENDING`, which may only shrink.
"""
import numpy as np
import pytest

import eagerflow as tf
from eagerflow import errors
from tests.internals import registry
from tests.ops.specs import all_specs

SPECS = all_specs()
GRAD_SPECS = [s for s in SPECS if s.grad is True]

# Differentiable ops whose gradients are not written yet.
PENDING = frozenset()


def _floating(a):
    return isinstance(a, np.ndarray) and a.dtype.kind == "f"


def _as_float64(args):
    return [a.astype(np.float64) if _floating(a) else a for a in args]


def _scalarize(outputs, weights):
    outs = outputs if isinstance(outputs, (list, tuple)) else [outputs]
    total = tf.constant(0.0, tf.float64)
    for o, w in zip(outs, weights):
        if o.dtype.is_floating:
            total = total + tf.reduce_sum(tf.cast(o, tf.float64) * w)
    return total


def _weights(outputs):
    outs = outputs if isinstance(outputs, (list, tuple)) else [outputs]
    rng = np.random.default_rng(1)
    return [tf.constant(rng.uniform(0.5, 1.5, np.shape(o)), tf.float64) for o in outs]


def _check(spec, args, rtol, atol):
    tensors = [tf.constant(a) for a in args]
    wrt = [i for i, a in enumerate(args) if _floating(a)]
    with tf.GradientTape() as tape:
        tape.watch([tensors[i] for i in wrt])
        out = spec.fn(*tensors)
        weights = _weights(out)
        loss = _scalarize(out, weights)
    grads = tape.gradient(loss, [tensors[i] for i in wrt])
    eps = 1e-6 if args[wrt[0]].dtype == np.float64 else 1e-2
    for i, g in zip(wrt, grads):
        numeric = np.zeros(args[i].shape)
        for j in range(args[i].size):
            plus, minus = list(args), list(args)
            plus[i], minus[i] = args[i].copy(), args[i].copy()
            plus[i].reshape(-1)[j] += eps
            minus[i].reshape(-1)[j] -= eps
            fp = float(_scalarize(spec.fn(*map(tf.constant, plus)), weights))
            fm = float(_scalarize(spec.fn(*map(tf.constant, minus)), weights))
            numeric.reshape(-1)[j] = (fp - fm) / (2 * eps)
        got = np.zeros(args[i].shape) if g is None else np.asarray(g, np.float64)
        np.testing.assert_allclose(got, numeric, rtol=rtol, atol=atol,
                                   err_msg=f"d/d(input {i}) of {spec.name}")


@pytest.mark.parametrize("spec", GRAD_SPECS, ids=lambda s: s.name)
def test_gradient_matches_finite_differences(spec):
    if spec.op in PENDING:
        pytest.skip(f"gradient of {spec.op} not written yet")
    if not any(_floating(a) for a in spec.args):
        pytest.skip("no floating input")
    try:
        _check(spec, _as_float64(spec.args), rtol=1e-5, atol=1e-6)
    except (TypeError, ValueError, errors.OpError):
        # the spec (or its gradient: channels-first layouts run on CPU in float32 only) is
        # tied to its dtype: check it there, more loosely
        _check(spec, spec.args, rtol=5e-2, atol=5e-2)


def test_every_differentiable_op_has_a_gradient_or_is_pending():
    ops = registry.all_ops()
    missing = {n for n, op in ops.items() if op.grad is None and not op.not_differentiable}
    assert missing <= PENDING, f"no gradient and not pending: {sorted(missing - PENDING)}"
    done = {n for n in PENDING if ops[n].grad is not None}
    assert not done, f"gradients now exist, remove from PENDING: {sorted(done)}"


# Second derivatives (gradients of gradients, through nested tapes) for the
# elementwise and matmul families.
SECOND_ORDER = frozenset({
    "AddV2", "Sub", "Mul", "RealDiv", "Pow", "Maximum", "Minimum", "SquaredDifference",
    "Atan2", "Neg", "Abs", "Square", "Sqrt", "Rsqrt", "Exp", "Expm1", "Log", "Log1p", "Sin",
    "Cos", "Tan", "Asin", "Acos", "Atan", "Sinh", "Cosh", "Tanh", "Asinh", "Acosh", "Atanh",
    "Erf", "Erfc", "Lgamma", "Sigmoid", "Softplus", "Reciprocal", "MatMul", "BatchMatMulV2",
    "SigmoidGrad", "TanhGrad", "RsqrtGrad", "ReciprocalGrad", "SoftsignGrad",
})


class _FirstDerivative:
    """A spec whose function is the tape gradient of another spec's (weighted) outputs."""

    def __init__(self, spec):
        self.name = f"d({spec.name})"
        self._spec = spec

    def fn(self, *tensors):
        wrt = [t for t, a in zip(tensors, self._spec.args) if _floating(a)]
        with tf.GradientTape() as inner:
            inner.watch(wrt)
            out = self._spec.fn(*tensors)
            loss = _scalarize(out, _weights(out))
        grads = inner.gradient(loss, wrt)
        return [tf.zeros_like(w) if g is None else g for g, w in zip(grads, wrt)]


@pytest.mark.parametrize("spec", [s for s in GRAD_SPECS if s.op in SECOND_ORDER],
                         ids=lambda s: s.name)
def test_second_derivative_matches_finite_differences(spec):
    if not any(_floating(a) for a in spec.args):
        pytest.skip("no floating input")
    args = _as_float64(spec.args)
    if spec.op == "Abs":
        args = [a + np.sign(a) * 0.5 for a in args]  # keep away from the kink at 0
    _check(_FirstDerivative(spec), args, rtol=1e-4, atol=1e-5)
