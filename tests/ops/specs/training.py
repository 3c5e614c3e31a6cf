"""Specs of the fused optimizer updates (ops/training_ops.py).

Each spec makes variables from its arrays, runs one update with fixed scalars
and returns the updated variable and slots; the reference is the update's
formula written in NumPy (float64, then rounded to the inputs' dtype).
"""
import numpy as np

import eagerflow as tf
from tests.internals import dispatch, training_ops as T
from tests.ops.spec import OpSpec, positive, rand

_LR, _B1, _B2, _EPS, _RHO, _MOMENTUM = 0.05, 0.9, 0.999, 1e-3, 0.8, 0.6
_B1_POWER, _B2_POWER = 0.9 ** 3, 0.999 ** 3
_NOT_DIFFERENTIABLE = "variable update"


def _update(op, n_slots, scalars, attrs=None, grad_at=None):
    """A spec function: variables from the first ``1 + n_slots`` tensors, then `op` on them,
    the `scalars` (in the tensors' dtype) and the gradient (inserted at input `grad_at`)."""
    def fn(*tensors):
        dtype = tensors[0].dtype
        variables = [tf.Variable(t) for t in tensors[:1 + n_slots]]
        inputs = [*variables, *(tf.constant(s, dtype) for s in scalars)]
        at = len(inputs) if grad_at is None else grad_at
        inputs[at:at] = tensors[1 + n_slots:]
        dispatch(op, tuple(inputs), attrs or {})
        return tuple(v.read_value() for v in variables)
    return fn


def _in_dtype(ref):
    """`ref` computed in float64 on the arrays, its results rounded back to their dtype."""
    def wrapped(*arrays):
        out = ref(*(np.asarray(a, np.float64) if a.dtype.kind == "f" else a for a in arrays))
        return tuple(np.asarray(o).astype(arrays[0].dtype) for o in out)
    return wrapped


@_in_dtype
def _gradient_descent(w, g):
    return (w - _LR * g,)


@_in_dtype
def _sparse_gradient_descent(w, values, indices):
    w = w.copy()
    np.subtract.at(w, indices, _LR * values)
    return (w,)


def _momentum(nesterov):
    @_in_dtype
    def ref(w, a, g):
        a = _MOMENTUM * a - _LR * g
        return (w + (_MOMENTUM * a - _LR * g if nesterov else a)), a
    return ref


def _adam(amsgrad):
    @_in_dtype
    def ref(w, m, v, *rest):
        vhat, g = rest if amsgrad else (None, rest[0])
        m = m + (g - m) * (1 - _B1)
        v = v + (g * g - v) * (1 - _B2)
        alpha = _LR * np.sqrt(1 - _B2_POWER) / (1 - _B1_POWER)
        if amsgrad:
            vhat = np.maximum(vhat, v)
            return w - alpha * m / (np.sqrt(vhat) + _EPS), m, v, vhat
        return w - alpha * m / (np.sqrt(v) + _EPS), m, v
    return ref


@_in_dtype
def _ada_max(w, m, u, g):
    m = m + (g - m) * (1 - _B1)
    u = np.maximum(_B2 * u, np.abs(g))
    return w - _LR * m / ((1 - _B1_POWER) * (u + _EPS)), m, u


_M_SCALE, _G_SCALE = 0.7, 0.2


@_in_dtype
def _nadam(w, m, v, g):
    m = m + (g - m) * (1 - _B1)
    v = v + (g * g - v) * (1 - _B2)
    m_hat = _M_SCALE * m + _G_SCALE * g
    return w - _LR * m_hat / (np.sqrt(v / (1 - _B2_POWER)) + _EPS), m, v


def _rms_prop(centered, with_momentum):
    @_in_dtype
    def ref(w, *rest):
        if centered:
            mg, ms, mom, g = rest
        elif with_momentum:
            ms, mom, g = rest
        else:
            (ms, g), mom = rest, None
        ms = _RHO * ms + (1 - _RHO) * g * g
        denominator = ms + _EPS
        if centered:
            mg = _RHO * mg + (1 - _RHO) * g
            denominator = ms - mg * mg + _EPS
        step = _LR * g / np.sqrt(denominator)
        if with_momentum:
            mom = _MOMENTUM * mom + step
            step = mom
        out = (w - step,) + ((mg,) if centered else ()) + (ms,)
        return out + ((mom,) if with_momentum else ())
    return ref


@_in_dtype
def _adagrad(w, a, g):
    a = a + g * g
    return w - _LR * g / np.sqrt(a + _EPS), a


@_in_dtype
def _adagrad_v2(w, a, g):
    a = a + g * g
    return w - _LR * g / (np.sqrt(a) + _EPS), a


@_in_dtype
def _sparse_adagrad(w, a, values, indices):
    rows, inverse = np.unique(indices, return_inverse=True)
    summed = np.zeros((len(rows),) + values.shape[1:])
    np.add.at(summed, inverse, values)
    w, a = w.copy(), a.copy()
    a[rows] += summed * summed
    w[rows] -= _LR * summed / np.sqrt(a[rows] + _EPS)
    return w, a


@_in_dtype
def _adadelta(w, a, u, g):
    a = _RHO * a + (1 - _RHO) * g * g
    update = np.sqrt(u + _EPS) / np.sqrt(a + _EPS) * g
    u = _RHO * u + (1 - _RHO) * update * update
    return w - _LR * update, a, u


_L1, _L2, _SHRINK, _POWER = 0.01, 0.02, 0.03, -0.6


@_in_dtype
def _ftrl(w, a, linear, g):
    new_a = a + g * g
    linear = (linear + g + 2 * _SHRINK * w
              - (new_a ** -_POWER - a ** -_POWER) / _LR * w)
    quadratic = new_a ** -_POWER / _LR + 2 * _L2
    w = np.where(np.abs(linear) > _L1, (np.sign(linear) * _L1 - linear) / quadratic, 0.0)
    return w, new_a, linear


def _ftrl_without_shrinkage(multiply_linear_by_lr):
    @_in_dtype
    def ref(w, a, linear, g):
        new_a = a + g * g
        change = new_a ** -_POWER - a ** -_POWER
        if multiply_linear_by_lr:
            linear = linear + g * _LR - change * w
            l1, quadratic = _L1 * _LR, new_a ** -_POWER + 2 * _L2 * _LR
        else:
            linear = linear + g - change / _LR * w
            l1, quadratic = _L1, new_a ** -_POWER / _LR + 2 * _L2
        w = np.where(np.abs(linear) > l1, (np.sign(linear) * l1 - linear) / quadratic, 0.0)
        return w, new_a, linear
    return ref


_PROX_L1 = 2.0  # (times the rate, large enough to zero some entries)


def _proximal(prox, rate):
    return np.sign(prox) * np.maximum(np.abs(prox) - rate * _PROX_L1, 0) / (1 + rate * _L2)


@_in_dtype
def _proximal_gradient_descent(w, g):
    return (_proximal(w - _LR * g, _LR),)


@_in_dtype
def _proximal_adagrad(w, a, g):
    a = a + g * g
    rate = _LR / np.sqrt(a)
    return _proximal(w - rate * g, rate), a


_STEP = 3


@_in_dtype
def _adagrad_da(w, g_sum, gg_sum, g):
    g_sum, gg_sum = g_sum + g, gg_sum + g * g
    shrunk = np.sign(g_sum) * np.maximum(np.abs(g_sum) - _STEP * _L1, 0)
    return -_LR * shrunk / (_L2 * _STEP * _LR + np.sqrt(gg_sum)), g_sum, gg_sum


@_in_dtype
def _averaged_adagrad_da(w, g_sum, gg_sum, g):
    g_sum, gg_sum = g_sum + g, gg_sum + g * g
    shrunk = np.sign(g_sum) * np.maximum(np.abs(g_sum) / _STEP - _L1, 0)
    return -shrunk / (_L2 + np.sqrt(gg_sum) / (_STEP * _LR)), g_sum, gg_sum


def _sparse_adagrad_da_update(var, g_sum, gg_sum, values, indices):
    variables = [tf.Variable(t) for t in (var, g_sum, gg_sum)]
    scalars = [tf.constant(s, var.dtype) for s in (_LR, _L1, _L2)]
    dispatch(T.SPARSE_ADAGRAD_DA, (*variables, values, indices, *scalars,
                                   tf.constant(_STEP, tf.int64)))
    return tuple(v.read_value() for v in variables)


def _adagrad_da_update(var, g_sum, gg_sum, grad):
    variables = [tf.Variable(t) for t in (var, g_sum, gg_sum)]
    scalars = [tf.constant(s, var.dtype) for s in (_LR, _L1, _L2)]
    dispatch(T.ADAGRAD_DA, (*variables, grad, *scalars, tf.constant(_STEP, tf.int64)))
    return tuple(v.read_value() for v in variables)


_SIGN_DECAY, _LOGBASE = 0.5, 0.7


def _sign_update(power):
    @_in_dtype
    def ref(w, m, g):
        m = _B1 * m + (1 - _B1) * g
        agreement = np.sign(g) * np.sign(m)
        scale = (np.exp(_LOGBASE * _SIGN_DECAY * agreement) if power
                 else 1.0 + _SIGN_DECAY * agreement)
        return w - _LR * scale * g, m
    return ref


@_in_dtype
def _weight_decay(w):
    return (w - w * 0.5 * 0.5,)


def _adam_with_float64_rates(var, m, v, grad):
    """Adam with beta1 and beta2 in float64: their complements keep double precision."""
    variables = [tf.Variable(t) for t in (var, m, v)]
    scalars = [tf.constant(s, var.dtype) for s in (_B1_POWER, _B2_POWER, _LR)]
    rates = [tf.constant(s, tf.float64) for s in (_B1, 0.999999)]
    dispatch(T.ADAM, (*variables, *scalars, *rates, tf.constant(_EPS, var.dtype), grad))
    return tuple(v.read_value() for v in variables)


@_in_dtype
def _adam_float64_rates_ref(w, m, v, g):
    m = m + (g - m) * np.float32(1 - _B1)
    v = v + (g * g - v) * np.float32(1 - 0.999999)  # float32(1 - 0.999999) would be 1.2e-6
    alpha = _LR * np.sqrt(1 - _B2_POWER) / (1 - _B1_POWER)
    return w - alpha * m / (np.sqrt(v) + _EPS), m, v


def _tf1_momentum(nesterov):
    @_in_dtype
    def ref(w, a, g):
        a = _MOMENTUM * a + g
        return (w - _LR * (g + _MOMENTUM * a if nesterov else a)), a
    return ref


@_in_dtype
def _nesterov_adam(w, m, v, g):
    m = m + (g - m) * (1 - _B1)
    v = v + (g * g - v) * (1 - _B2)
    alpha = _LR * np.sqrt(1 - _B2_POWER) / (1 - _B1_POWER)
    return w - alpha * (_B1 * m + (1 - _B1) * g) / (np.sqrt(v) + _EPS), m, v


def _tf1_adagrad(update_slots):
    @_in_dtype
    def ref(w, a, g):
        a = a + g * g if update_slots else a
        return w - _LR * g / np.sqrt(a), a
    return ref


_INDICES = np.array([3, 0, 3], np.int32)  # a repeated row


def _on_rows(dense_ref, n_slots, decays=(), summed=False):
    """The reference of a sparse update: `dense_ref` on the gradient's rows of the variable
    and its slots, a repeated row updated once per occurrence in turn (TF's kernels), or
    with `summed` once with the sum of its values (eagerflow's own ops); the other rows of
    slot i scaled by rate r for (i, r) in `decays`."""
    def ref(*arrays):
        held, values, indices = arrays[:1 + n_slots], arrays[-2], arrays[-1]
        out = [a.copy() for a in held]
        for i, rate in decays:
            out[i] = (out[i] * np.float64(rate)).astype(out[i].dtype)
        if summed:
            rows, inverse = np.unique(indices, return_inverse=True)
            summed_values = np.zeros((len(rows),) + values.shape[1:], values.dtype)
            np.add.at(summed_values, inverse, values)
            steps = [(rows, summed_values)]
        else:
            steps = [(indices[i:i + 1], values[i:i + 1]) for i in range(len(indices))]
        for rows, rows_values in steps:
            current = [held[k] if decays else o for k, o in enumerate(out)]
            for o, new in zip(out, dense_ref(*(c[rows] for c in current), rows_values)):
                o[rows] = new
        return tuple(out)
    return ref


def _sparse_inputs(n_slots, positive_slots=()):
    """A 5x2 variable, its slots (those at `positive_slots` positive), 3 gradient rows."""
    return ([rand(5, 2)]
            + [(positive if i in positive_slots else rand)(5, 2, seed=1 + i)
               for i in range(n_slots)]
            + [rand(3, 2, seed=9), _INDICES])

SPECS = [
    OpSpec("ResourceApplyGradientDescent", _update(T.GRADIENT_DESCENT, 0, [_LR]),
           [rand(3, 2), rand(3, 2, seed=1)], _gradient_descent, grad=_NOT_DIFFERENTIABLE),
    OpSpec("ResourceApplyGradientDescent", _update(T.GRADIENT_DESCENT, 0, [_LR]),
           [rand(4, dtype=np.float64), rand(4, dtype=np.float64, seed=1)], _gradient_descent,
           name="ResourceApplyGradientDescent-float64", grad=_NOT_DIFFERENTIABLE),
    OpSpec("ResourceSparseApplyGradientDescent",
           _update(T.SPARSE_GRADIENT_DESCENT, 0, [_LR]),
           [rand(5, 2), rand(3, 2, seed=1), _INDICES], _sparse_gradient_descent,
           grad=_NOT_DIFFERENTIABLE),
    OpSpec("ResourceApplyKerasMomentum",
           _update(T.KERAS_MOMENTUM, 1, [_LR, _MOMENTUM], grad_at=3),
           [rand(3, 2), rand(3, 2, seed=1), rand(3, 2, seed=2)], _momentum(False),
           grad=_NOT_DIFFERENTIABLE),
    OpSpec("ResourceApplyKerasMomentum",
           _update(T.KERAS_MOMENTUM, 1, [_LR, _MOMENTUM], {"use_nesterov": True}, grad_at=3),
           [rand(4), rand(4, seed=1), rand(4, seed=2)], _momentum(True),
           name="ResourceApplyKerasMomentum-nesterov", grad=_NOT_DIFFERENTIABLE),
    OpSpec("ResourceApplyAdam",
           _update(T.ADAM, 2, [_B1_POWER, _B2_POWER, _LR, _B1, _B2, _EPS]),
           [rand(3, 2), rand(3, 2, seed=1), positive(3, 2, seed=2), rand(3, 2, seed=3)],
           _adam(False), grad=_NOT_DIFFERENTIABLE),
    OpSpec("ResourceApplyAdam",
           _update(T.ADAM, 2, [_B1_POWER, _B2_POWER, _LR, _B1, _B2, _EPS]),
           [np.float32(1.5), np.float32(0.5), np.float32(0.25), np.float32(-2.0)],
           _adam(False), name="ResourceApplyAdam-scalar", grad=_NOT_DIFFERENTIABLE),
    OpSpec("ResourceApplyAdam",
           _update(T.ADAM, 2, [_B1_POWER, _B2_POWER, _LR, _B1, _B2, _EPS],
                   {"use_nesterov": True, "use_locking": True}),
           [rand(3, 2), rand(3, 2, seed=1), positive(3, 2, seed=2), rand(3, 2, seed=3)],
           _nesterov_adam, name="ResourceApplyAdam-nesterov", grad=_NOT_DIFFERENTIABLE),
    OpSpec("ResourceApplyMomentum", _update(T.MOMENTUM, 1, [_LR, _MOMENTUM], grad_at=3),
           [rand(3, 2), rand(3, 2, seed=1), rand(3, 2, seed=2)], _tf1_momentum(False),
           grad=_NOT_DIFFERENTIABLE),
    OpSpec("ResourceApplyMomentum",
           _update(T.MOMENTUM, 1, [_LR, _MOMENTUM], {"use_nesterov": True}, grad_at=3),
           [rand(4), rand(4, seed=1), rand(4, seed=2)], _tf1_momentum(True),
           name="ResourceApplyMomentum-nesterov", grad=_NOT_DIFFERENTIABLE),
    OpSpec("ResourceApplyAdagrad", _update(T.ADAGRAD, 1, [_LR]),
           [rand(3, 2), positive(3, 2, seed=1), rand(3, 2, seed=2)], _tf1_adagrad(True),
           grad=_NOT_DIFFERENTIABLE),
    OpSpec("ResourceApplyAdagrad", _update(T.ADAGRAD, 1, [_LR], {"update_slots": False}),
           [rand(3, 2), positive(3, 2, seed=1), rand(3, 2, seed=2)], _tf1_adagrad(False),
           name="ResourceApplyAdagrad-no-slot-update", grad=_NOT_DIFFERENTIABLE),
    OpSpec("ResourceApplyAdam", _adam_with_float64_rates,
           [rand(3, 2), rand(3, 2, seed=1), positive(3, 2, seed=2), rand(3, 2, seed=3)],
           _adam_float64_rates_ref, rtol=1e-6, name="ResourceApplyAdam-float64-rates",
           grad=_NOT_DIFFERENTIABLE),
    OpSpec("ResourceApplyAdamWithAmsgrad",
           _update(T.ADAM_WITH_AMSGRAD, 3, [_B1_POWER, _B2_POWER, _LR, _B1, _B2, _EPS]),
           [rand(3, 2), rand(3, 2, seed=1), positive(3, 2, seed=2), positive(3, 2, seed=4),
            rand(3, 2, seed=3)], _adam(True), grad=_NOT_DIFFERENTIABLE),
    OpSpec("ResourceApplyAdaMax", _update(T.ADA_MAX, 2, [_B1_POWER, _LR, _B1, _B2, _EPS]),
           [rand(3, 2), rand(3, 2, seed=1), positive(3, 2, seed=2), rand(3, 2, seed=3)],
           _ada_max, grad=_NOT_DIFFERENTIABLE),
    OpSpec("ResourceApplyKerasNadam",
           _update(T.KERAS_NADAM, 2, [_LR, _B1, _B2, _B2_POWER, _M_SCALE, _G_SCALE, _EPS]),
           [rand(3, 2), rand(3, 2, seed=1), positive(3, 2, seed=2), rand(3, 2, seed=3)],
           _nadam, grad=_NOT_DIFFERENTIABLE),
    OpSpec("ResourceApplyRMSProp",
           _update(T.RMS_PROP, 2, [_LR, _RHO, _MOMENTUM, _EPS]),
           [rand(3, 2), positive(3, 2, seed=1), rand(3, 2, seed=2), rand(3, 2, seed=3)],
           _rms_prop(False, True), grad=_NOT_DIFFERENTIABLE),
    OpSpec("ResourceApplyRMSProp",
           # No momentum accumulator: the momentum scalar takes its place.
           _update(T.RMS_PROP, 1, [0.0, _LR, _RHO, 0.0, _EPS]),
           [rand(4), positive(4, seed=1), rand(4, seed=3)], _rms_prop(False, False),
           name="ResourceApplyRMSProp-no-momentum", grad=_NOT_DIFFERENTIABLE),
    OpSpec("ResourceApplyCenteredRMSProp",
           _update(T.CENTERED_RMS_PROP, 3, [_LR, _RHO, _MOMENTUM, _EPS]),
           [rand(3, 2), rand(3, 2, seed=1, low=-0.1, high=0.1), positive(3, 2, seed=2),
            rand(3, 2, seed=4), rand(3, 2, seed=3)], _rms_prop(True, True),
           grad=_NOT_DIFFERENTIABLE),
    OpSpec("ResourceApplyAdagradV2", _update(T.ADAGRAD_V2, 1, [_LR, _EPS], grad_at=4),
           [rand(3, 2), positive(3, 2, seed=1), rand(3, 2, seed=2)], _adagrad_v2,
           grad=_NOT_DIFFERENTIABLE),
    OpSpec("ResourceSparseApplyAdagradV2",
           _update(T.SPARSE_ADAGRAD_V2, 1, [_LR, _EPS], grad_at=4),
           _sparse_inputs(1, (0,)), _on_rows(_adagrad_v2, 1), grad=_NOT_DIFFERENTIABLE),
    OpSpec("ResourceApplyKerasAdagrad", _update(T.KERAS_ADAGRAD, 1, [_LR, _EPS]),
           [rand(3, 2), positive(3, 2, seed=1), rand(3, 2, seed=2)], _adagrad,
           grad=_NOT_DIFFERENTIABLE),
    OpSpec("ResourceSparseApplyKerasAdagrad",
           _update(T.SPARSE_KERAS_ADAGRAD, 1, [_LR, _EPS]),
           [rand(5, 2), positive(5, 2, seed=1), rand(3, 2, seed=2), _INDICES], _sparse_adagrad,
           grad=_NOT_DIFFERENTIABLE),
    OpSpec("ResourceApplyAdadelta", _update(T.ADADELTA, 2, [_LR, _RHO, _EPS]),
           [rand(3, 2), positive(3, 2, seed=1), positive(3, 2, seed=2), rand(3, 2, seed=3)],
           _adadelta, grad=_NOT_DIFFERENTIABLE),
    OpSpec("ResourceApplyFtrlV2",
           _update(T.FTRL_V2, 2, [_LR, _L1, _L2, _SHRINK, _POWER], grad_at=3),
           [rand(3, 2), positive(3, 2, seed=1), rand(3, 2, seed=2), rand(3, 2, seed=3)],
           _ftrl, grad=_NOT_DIFFERENTIABLE),
    OpSpec("ResourceSparseApplyKerasMomentum",
           _update(T.SPARSE_KERAS_MOMENTUM, 1, [_LR, _MOMENTUM], grad_at=3),
           _sparse_inputs(1), _on_rows(_momentum(False), 1), grad=_NOT_DIFFERENTIABLE),
    OpSpec("ResourceSparseApplyKerasMomentum",
           _update(T.SPARSE_KERAS_MOMENTUM, 1, [_LR, _MOMENTUM], {"use_nesterov": True},
                   grad_at=3),
           _sparse_inputs(1), _on_rows(_momentum(True), 1),
           name="ResourceSparseApplyKerasMomentum-nesterov", grad=_NOT_DIFFERENTIABLE),
    OpSpec("ResourceSparseApplyMomentum",
           _update(T.SPARSE_MOMENTUM, 1, [_LR, _MOMENTUM], grad_at=3),
           _sparse_inputs(1), _on_rows(_tf1_momentum(False), 1), grad=_NOT_DIFFERENTIABLE),
    OpSpec("ResourceSparseApplyRMSProp",
           _update(T.SPARSE_RMS_PROP, 2, [_LR, _RHO, _MOMENTUM, _EPS]),
           _sparse_inputs(2, (0,)), _on_rows(_rms_prop(False, True), 2),
           grad=_NOT_DIFFERENTIABLE),
    OpSpec("ResourceSparseApplyCenteredRMSProp",
           _update(T.SPARSE_CENTERED_RMS_PROP, 3, [_LR, _RHO, _MOMENTUM, _EPS]),
           [rand(5, 2), rand(5, 2, seed=1, low=-0.1, high=0.1), positive(5, 2, seed=2),
            rand(5, 2, seed=4), rand(3, 2, seed=3), _INDICES],
           _on_rows(_rms_prop(True, True), 3), grad=_NOT_DIFFERENTIABLE),
    OpSpec("ResourceSparseApplyAdadelta", _update(T.SPARSE_ADADELTA, 2, [_LR, _RHO, _EPS]),
           _sparse_inputs(2, (0, 1)), _on_rows(_adadelta, 2), grad=_NOT_DIFFERENTIABLE),
    OpSpec("ResourceSparseApplyFtrlV2",
           _update(T.SPARSE_FTRL_V2, 2, [_LR, _L1, _L2, _SHRINK, _POWER], grad_at=3),
           _sparse_inputs(2, (0,)), _on_rows(_ftrl, 2), grad=_NOT_DIFFERENTIABLE),
    OpSpec("ResourceSparseApplyAdaMax",
           _update(T.SPARSE_ADA_MAX, 2, [_B1_POWER, _LR, _B1, _B2, _EPS]),
           _sparse_inputs(2, (1,)), _on_rows(_ada_max, 2, summed=True),
           grad=_NOT_DIFFERENTIABLE),
    OpSpec("ResourceSparseApplyKerasNadam",
           _update(T.SPARSE_KERAS_NADAM, 2,
                   [_LR, _B1, _B2, _B2_POWER, _M_SCALE, _G_SCALE, _EPS]),
           _sparse_inputs(2, (1,)), _on_rows(_nadam, 2, ((1, _B1), (2, _B2)), summed=True),
           grad=_NOT_DIFFERENTIABLE),
    OpSpec("ResourceApplyFtrl", _update(T.FTRL, 2, [_LR, _L1, _L2, _POWER], grad_at=3),
           [rand(3, 2), positive(3, 2, seed=1), rand(3, 2, seed=2), rand(3, 2, seed=3)],
           _ftrl_without_shrinkage(False), grad=_NOT_DIFFERENTIABLE),
    OpSpec("ResourceApplyFtrl",
           _update(T.FTRL, 2, [_LR, _L1, _L2, _POWER], {"multiply_linear_by_lr": True},
                   grad_at=3),
           [rand(3, 2), positive(3, 2, seed=1), rand(3, 2, seed=2), rand(3, 2, seed=3)],
           _ftrl_without_shrinkage(True), name="ResourceApplyFtrl-multiply-linear-by-lr",
           grad=_NOT_DIFFERENTIABLE),
    OpSpec("ResourceSparseApplyFtrl",
           _update(T.SPARSE_FTRL, 2, [_LR, _L1, _L2, _POWER], grad_at=3),
           _sparse_inputs(2, (0,)), _on_rows(_ftrl_without_shrinkage(False), 2),
           grad=_NOT_DIFFERENTIABLE),
    OpSpec("ResourceSparseApplyAdagrad", _update(T.SPARSE_ADAGRAD, 1, [_LR], grad_at=3),
           _sparse_inputs(1, (0,)), _on_rows(_tf1_adagrad(True), 1),
           grad=_NOT_DIFFERENTIABLE),
    OpSpec("ResourceApplyProximalGradientDescent",
           _update(T.PROXIMAL_GRADIENT_DESCENT, 0, [_LR, _PROX_L1, _L2]),
           [rand(3, 2), rand(3, 2, seed=1)], _proximal_gradient_descent,
           grad=_NOT_DIFFERENTIABLE),
    OpSpec("ResourceSparseApplyProximalGradientDescent",
           _update(T.SPARSE_PROXIMAL_GRADIENT_DESCENT, 0, [_LR, _PROX_L1, _L2], grad_at=4),
           _sparse_inputs(0), _on_rows(_proximal_gradient_descent, 0),
           grad=_NOT_DIFFERENTIABLE),
    OpSpec("ResourceApplyProximalAdagrad",
           _update(T.PROXIMAL_ADAGRAD, 1, [_LR, _PROX_L1, _L2]),
           [rand(3, 2), positive(3, 2, seed=1), rand(3, 2, seed=2)], _proximal_adagrad,
           grad=_NOT_DIFFERENTIABLE),
    OpSpec("ResourceSparseApplyProximalAdagrad",
           _update(T.SPARSE_PROXIMAL_ADAGRAD, 1, [_LR, _PROX_L1, _L2], grad_at=5),
           _sparse_inputs(1, (0,)), _on_rows(_proximal_adagrad, 1), grad=_NOT_DIFFERENTIABLE),
    OpSpec("ResourceApplyAdagradDA", _adagrad_da_update,
           [rand(3, 2), rand(3, 2, seed=1), positive(3, 2, seed=2), rand(3, 2, seed=3)],
           _adagrad_da, grad=_NOT_DIFFERENTIABLE),
    OpSpec("ResourceSparseApplyAdagradDA", _sparse_adagrad_da_update,
           _sparse_inputs(2, (1,)), _on_rows(_averaged_adagrad_da, 2),
           grad=_NOT_DIFFERENTIABLE),
    OpSpec("ResourceApplyAddSign",
           _update(T.ADD_SIGN, 1, [_LR, 1.0, _SIGN_DECAY, _B1]),
           [rand(3, 2), rand(3, 2, seed=1), rand(3, 2, seed=2)], _sign_update(False),
           grad=_NOT_DIFFERENTIABLE),
    OpSpec("ResourceApplyPowerSign",
           _update(T.POWER_SIGN, 1, [_LR, _LOGBASE, _SIGN_DECAY, _B1]),
           [rand(3, 2), rand(3, 2, seed=1), rand(3, 2, seed=2)], _sign_update(True),
           grad=_NOT_DIFFERENTIABLE),
    OpSpec("ResourceApplyKerasWeightDecay", _update(T.KERAS_WEIGHT_DECAY, 0, [0.5, 0.5]),
           [rand(3, 2)], _weight_decay, grad=_NOT_DIFFERENTIABLE),
]
