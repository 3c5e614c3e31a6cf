"""Fused optimizer updates: each op updates a variable and its slot variables in one call.

The ops take the variable and its slots (handles), the step's scalars (learning
rate, decay rates, ...) and the gradient, and return nothing. They carry
TensorFlow's op names and input orders where TensorFlow has the same update
(``ResourceApplyAdam``); a ``Keras`` in the name marks tf_keras's formula where
it differs from TensorFlow's kernel (Adagrad's epsilon under the square root).

Kernels compute in place with ``out=`` through one to three scratch arrays
(for large variables, buffers each thread keeps), in tf_keras's order of
operations so that float32 results agree with it to the last bit (but where
TensorFlow's pow and rsqrt round differently). Adam, RMSprop, Adagrad, SGD and
weight decay on large float32 variables run on oneDNN instead (`onednn_training`:
one to three passes instead of up to a dozen, within float32 rounding of the NumPy
kernels).
A variable's array is also the value of every tensor read from it, so it is
written in place only while nothing else refers to it; otherwise the update
goes to a copy that replaces it, and the earlier reads keep their snapshot.

>>> from eagerflow._src.core.dispatch import dispatch
>>> v, m = tf.Variable([1.0, 2.0]), tf.Variable([0.0, 0.0])
>>> dispatch(KERAS_MOMENTUM, (v, m, tf.constant(0.1), tf.constant([1.0, 1.0]), tf.constant(0.9)))
()
>>> v.numpy()
array([0.9, 1.9], dtype=float32)
"""
import sys
import threading

import numpy

from eagerflow._src.backend import onednn_training
from eagerflow._src.core import dtypes as _d
from eagerflow._src.core import errors
from eagerflow._src.core.errors import shape_text
from eagerflow._src.core.node_forms import NodeForm, tf_nodes
from eagerflow._src.core.node_forms import tf_args
from eagerflow._src.core.registry import FLOAT, FLOAT_COMPLEX, register
from eagerflow._src.core.tensor_shape import TensorShape
from eagerflow._src.core.variables import ResourceHandle, resource_variable_info

_refcount = sys.getrefcount


def _own(xp, handle):
    """The handle's array, safe to update in place (copied first when anything else holds it)."""
    value = handle.value
    # Three references when it is private: the handle's, `value` and getrefcount's argument.
    # A view shares another array's memory, and a NumPy scalar cannot change in place.
    if (_refcount(value) > 3 or value.base is not None
            or not getattr(value.flags, "writeable", True)):
        value = xp.array(value)
        handle.value = value
    return value


def _scratch(xp, like, slot=0):
    """An uninitialized array like `like` (ufuncs on 0-d arrays return scalars, not arrays),
    the calling thread's buffer number `slot` (0 to 2) when `like` is large: a fresh array
    that size comes from the system page by page (a fault per 4 KiB page, costing about
    as much as a pass over it), a kept one is already mapped. A kernel's slots are its
    own until it returns."""
    n = like.size
    if not _SCRATCH_MIN <= like.nbytes <= _SCRATCH_MAX or xp is not numpy or like.ndim == 0:
        return xp.empty_like(like)
    buffers = _buffers.__dict__.get(like.dtype)
    if buffers is None:
        buffers = _buffers.__dict__[like.dtype] = [numpy.empty(0, like.dtype)] * 3
    buffer = buffers[slot]
    if buffer.size < n:
        buffer = buffers[slot] = numpy.empty(n, like.dtype)
    return buffer[:n].reshape(like.shape)


# Arrays from 128 KiB (where malloc turns to mapping fresh pages) to 8 MiB use the buffers
# (at most three of 8 MiB kept per thread and dtype).
_SCRATCH_MIN, _SCRATCH_MAX = 1 << 17, 1 << 23
_buffers = threading.local()


def _complement(like, rate):
    """``1 - rate`` in `like`'s dtype. A rate given in float64 keeps the precision of
    tf_keras's ``1 - rate`` in Python (``1 - 0.999`` is 1e-3 to the last bit, ``1 -
    float32(0.999)`` 1.3e-5 off)."""
    return like.dtype.type(1 - rate[()])


def _approach(xp, average, target, rate, t):
    """``average += (target - average) * rate`` through scratch `t` (which may hold
    `target`): tf_keras's moving averages of the gradient and its square."""
    xp.subtract(target, average, out=t)
    t *= rate
    average += t


def _check_dense(var, grad, what="grad"):
    if var.value.shape != grad.shape:
        raise errors.InvalidArgumentError(
            None, None, f"var and {what} do not have the same shape{shape_text(var.value.shape)} "
                        f"{shape_text(grad.shape)}")


def _check_rows(xp, var, values, indices):
    """TF's checks of a sparse update's gradient `values` and `indices` against `var`."""
    shape = var.value.shape
    if not shape:
        raise errors.InvalidArgumentError(None, None, "var must be at least 1 dimensional")
    if indices.ndim != 1:
        raise errors.InvalidArgumentError(None, None, "indices must be one-dimensional")
    if values.shape[:1] != indices.shape:
        raise errors.InvalidArgumentError(
            None, None, "grad must be the same size as indices in the first dimension.")
    if values.shape[1:] != shape[1:]:
        raise errors.InvalidArgumentError(
            None, None, f"var and grad do not have the same shape{shape_text(shape)} "
                        f"{shape_text(values.shape)} (indices {shape_text(indices.shape)})")
    if indices.size and (indices.min() < 0 or indices.max() >= shape[0]):
        at = int(xp.argmax((indices < 0) | (indices >= shape[0])))
        raise errors.InvalidArgumentError(
            None, None, f"Index {int(indices[at])} at offset {at} in indices is out of range")


def _unique_rows(xp, var, values, indices):
    """`values` summed per distinct row of `indices`, checked against `var`'s shape."""
    _check_rows(xp, var, values, indices)
    rows, inverse = xp.unique(indices, return_inverse=True)
    if rows.size == indices.size:
        return values, indices
    summed = xp.zeros((rows.size,) + values.shape[1:], values.dtype)
    xp.add.at(summed, inverse.reshape(-1), values)
    return summed, rows


def _rounds(xp, indices):
    """The positions of `indices` in rounds where no index repeats: round k holds the k-th
    occurrence of every index, so that updating the rounds in turn updates a repeated row
    once per occurrence in order, as TF's sparse kernels' loop over the indices does (None:
    no index repeats, one round of all)."""
    n = indices.size
    order = xp.argsort(indices, kind="stable")
    ordered = indices[order]
    first = xp.ones(n, bool)
    xp.not_equal(ordered[1:], ordered[:-1], out=first[1:])
    if first.all():
        return None
    positions = xp.arange(n)
    rank = positions - xp.maximum.accumulate(xp.where(first, positions, 0))
    ranks = xp.empty(n, rank.dtype)
    ranks[order] = rank
    return [xp.flatnonzero(ranks == r) for r in range(int(rank.max()) + 1)]


# -- kernels ------------------------------------------------------------------------

def _gradient_descent(xp, var, alpha, delta):
    """var -= alpha * delta."""
    _check_dense(var, delta, "delta")
    w = _own(xp, var)
    if onednn_training.gradient_descent(w, alpha, delta):
        return ()
    w -= xp.multiply(delta, alpha, out=_scratch(xp, w))
    return ()


def _sparse_gradient_descent(xp, var, alpha, values, indices):
    """var[indices] -= alpha * values (duplicate indices add up)."""
    values, indices = _unique_rows(xp, var, values, indices)
    _own(xp, var)[indices] -= values * alpha
    return ()


def _keras_momentum(xp, var, accum, lr, grad, momentum, use_nesterov=False):
    """accum = momentum * accum - lr * grad; var += accum, or with Nesterov momentum
    var += momentum * accum - lr * grad."""
    _check_dense(var, grad)
    a, w = _own(xp, accum), _own(xp, var)
    if not use_nesterov and onednn_training.momentum(w, a, lr, grad, momentum):
        return ()
    step = xp.multiply(grad, lr, out=_scratch(xp, w))
    a *= momentum
    a -= step
    if use_nesterov:
        xp.subtract(a * momentum, step, out=step)
        w += step
    else:
        w += a
    return ()


def _adam(xp, var, m, v, beta1_power, beta2_power, lr, beta1, beta2, epsilon, grad, vhat=None,
          use_nesterov=False):
    """m, v: moving averages of grad and grad**2; var -= lr_t * m / (sqrt(v) + epsilon),
    lr_t = lr * sqrt(1 - beta2_power) / (1 - beta1_power). AMSGrad divides by the running
    maximum `vhat` of `v` instead; Nesterov's variant steps by beta1 * m + (1 - beta1) * grad
    instead of m."""
    _check_dense(var, grad)
    m, v, w = _own(xp, m), _own(xp, v), _own(xp, var)
    alpha = lr[()] * xp.sqrt(1 - beta2_power[()]) / (1 - beta1_power[()])
    decay1, decay2 = _complement(w, beta1), _complement(w, beta2)
    if vhat is None and not use_nesterov and onednn_training.adam(
            w, m, v, alpha, decay1, decay2, epsilon, grad):
        return ()
    t = _scratch(xp, w)
    _approach(xp, m, grad, decay1, t)
    _approach(xp, v, xp.multiply(grad, grad, out=t), decay2, t)
    if vhat is not None:
        vhat = _own(xp, vhat)
        v = xp.maximum(vhat, v, out=vhat)
    xp.sqrt(v, out=t)
    t += epsilon
    if use_nesterov:
        m = m * beta1 + grad * decay1
    step = xp.multiply(m, alpha, out=_scratch(xp, w, 1))
    step /= t
    w -= step
    return ()


def _momentum(xp, var, accum, lr, grad, momentum, use_nesterov=False):
    """TF 1's momentum: accum = momentum * accum + grad; var -= lr * accum, or with Nesterov
    momentum var -= lr * (grad + momentum * accum)."""
    _check_dense(var, grad)
    a, w = _own(xp, accum), _own(xp, var)
    a *= momentum
    a += grad
    if use_nesterov:  # (TF's order: the sparse kernel scales by lr * momentum)
        w -= grad * lr + (a * (lr * momentum) if isinstance(var, _Rows) else a * momentum * lr)
    else:
        w -= xp.multiply(a, lr, out=_scratch(xp, w))
    return ()


def _adagrad(xp, var, accum, lr, grad, update_slots=True):
    """TF 1's Adagrad: accum += grad**2 (unless not `update_slots`);
    var -= lr * grad / sqrt(accum)."""
    _check_dense(var, grad)
    a, w = _own(xp, accum), _own(xp, var)
    if update_slots:
        a += grad * grad
    w -= grad * lr / xp.sqrt(a)
    return ()


def _adagrad_da(xp, var, gradient_accumulator, gradient_squared_accumulator, grad, lr, l1, l2,
                global_step, averaged=False):
    """Adagrad dual averaging: g += grad, gg += grad**2; var = -sign(g) lr
    max(|g| - global_step l1, 0) / (l2 global_step lr + sqrt(gg)) (-lr g / (...) when l1
    is 0). `averaged` (TF's sparse kernel): the same rule divided through by
    global_step lr, -sign(g) max(|g| / global_step - l1, 0) / (l2 + sqrt(gg) /
    (global_step lr)), which rounds otherwise."""
    _check_dense(var, grad)
    g, gg, w = _own(xp, gradient_accumulator), _own(xp, gradient_squared_accumulator), \
        _own(xp, var)
    g += grad
    gg += grad * grad
    step = global_step.astype(w.dtype)
    if averaged:
        denominator = xp.sqrt(gg) / (step * lr) + l2
        g = g / step
        shrink, rate = l1, -1
    else:
        denominator = xp.sqrt(gg) + l2 * step * lr
        shrink, rate = step * l1, -lr
    if l1 > 0:
        numerator = xp.maximum(xp.abs(g) - shrink, 0)
        xp.copysign(numerator, g, out=numerator)
        numerator *= rate
    else:
        numerator = g * rate
    xp.divide(numerator, denominator, out=w)
    return ()


def _sparse_adagrad_da(xp, *inputs):
    return _adagrad_da(xp, *inputs, averaged=True)


def _adagrad_v2(xp, var, accum, lr, epsilon, grad, update_slots=True):
    """TF's Adagrad with epsilon (the legacy Keras Adagrad's): accum += grad**2 (unless not
    `update_slots`); var -= lr * grad / (sqrt(accum) + epsilon)."""
    _check_dense(var, grad)
    a, w = _own(xp, accum), _own(xp, var)
    if update_slots:
        a += grad * grad
    t = xp.sqrt(a, out=_scratch(xp, w))
    t += epsilon
    step = xp.multiply(grad, lr, out=_scratch(xp, w, 1))
    step /= t
    w -= step
    return ()


def _sign_step(xp, var, m, beta, grad):
    """m = beta m + (1 - beta) grad; the sign of grad * m (1 where the gradient agrees
    with its moving average, -1 where not, 0 where either is 0)."""
    _check_dense(var, grad)
    m = _own(xp, m)
    m *= beta
    m += grad * (1 - beta)
    return xp.sign(grad) * xp.sign(m)


def _add_sign(xp, var, m, lr, alpha, sign_decay, beta, grad):
    """AddSign: var -= lr (alpha + sign_decay sign(grad m)) grad, after `_sign_step`."""
    agreement = _sign_step(xp, var, m, beta, grad)
    _own(xp, var)[...] -= lr * (alpha + sign_decay * agreement) * grad
    return ()


def _power_sign(xp, var, m, lr, logbase, sign_decay, beta, grad):
    """PowerSign: var -= lr exp(logbase sign_decay sign(grad m)) grad, after `_sign_step`."""
    agreement = _sign_step(xp, var, m, beta, grad)
    _own(xp, var)[...] -= lr * xp.exp(logbase * sign_decay * agreement) * grad
    return ()


def _adam_with_amsgrad(xp, var, m, v, vhat, beta1_power, beta2_power, lr, beta1, beta2,
                       epsilon, grad):
    return _adam(xp, var, m, v, beta1_power, beta2_power, lr, beta1, beta2, epsilon, grad, vhat)


def _ada_max(xp, var, m, v, beta1_power, lr, beta1, beta2, epsilon, grad):
    """m += (grad - m)(1 - beta1); v = max(beta2 v, |grad|);
    var -= lr / (1 - beta1_power) * (m / (v + epsilon)) (TF's order of operations)."""
    _check_dense(var, grad)
    m, v, w = _own(xp, m), _own(xp, v), _own(xp, var)
    t = _scratch(xp, w)
    _approach(xp, m, grad, _complement(w, beta1), t)
    v *= beta2
    xp.maximum(v, xp.abs(grad, out=t), out=v)
    xp.add(v, epsilon, out=t)
    step = xp.divide(m, t, out=_scratch(xp, w, 1))
    step *= lr[()] / (1 - beta1_power[()])
    w -= step
    return ()


def _keras_nadam(xp, var, m, v, lr, beta1, beta2, beta2_power, m_scale, grad_scale, epsilon,
                 grad):
    """Adam's moments, then var -= lr m_hat / (sqrt(v / (1 - beta2_power)) + epsilon) with
    the Nesterov estimate m_hat = m_scale * m + grad_scale * grad."""
    _check_dense(var, grad)
    m, v, w = _own(xp, m), _own(xp, v), _own(xp, var)
    t = _scratch(xp, w)
    _approach(xp, m, grad, 1 - beta1, t)
    _approach(xp, v, xp.multiply(grad, grad, out=t), 1 - beta2, t)
    m_hat = xp.multiply(m, m_scale, out=_scratch(xp, w, 1))
    m_hat += xp.multiply(grad, grad_scale, out=t)
    xp.divide(v, 1 - beta2_power, out=t)
    xp.sqrt(t, out=t)
    t += epsilon
    m_hat *= lr
    m_hat /= t
    w -= m_hat
    return ()


def _rms_prop(xp, var, ms, mom, lr, rho, momentum, epsilon, grad, mg=None):
    """ms = rho ms + (1 - rho) grad**2; step = lr grad / sqrt(ms + epsilon); with a momentum
    accumulator `mom` (a handle; anything else means none): mom = momentum mom + step and
    var -= mom, else var -= step. Centered: the denominator is sqrt(ms - mg**2 + epsilon),
    mg the moving average of grad."""
    _check_dense(var, grad)
    ms, w = _own(xp, ms), _own(xp, var)
    decay, keep = _complement(w, rho), w.dtype.type(rho)
    accumulated = isinstance(mom, (ResourceHandle, _Rows))
    if accumulated:
        mom = _own(xp, mom)
    if mg is None and onednn_training.rms_prop(
            w, ms, mom if accumulated else None, lr, decay, momentum, epsilon, grad):
        return ()
    t = xp.multiply(grad, grad, out=_scratch(xp, w))
    t *= decay
    ms *= keep
    ms += t
    if mg is not None:
        mg = _own(xp, mg)
        mg *= keep
        mg += grad * decay
        xp.multiply(mg, mg, out=t)
        xp.subtract(ms, t, out=t)
        t += epsilon
    else:
        xp.add(ms, epsilon, out=t)
    xp.sqrt(t, out=t)
    step = xp.multiply(grad, lr, out=_scratch(xp, w, 1))
    step /= t
    if accumulated:
        mom *= momentum
        mom += step
        step = mom
    w -= step
    return ()


def _centered_rms_prop(xp, var, mg, ms, mom, lr, rho, momentum, epsilon, grad):
    return _rms_prop(xp, var, ms, mom, lr, rho, momentum, epsilon, grad, mg)


def _keras_adagrad(xp, var, accum, lr, epsilon, grad):
    """accum += grad**2; var -= lr grad / sqrt(accum + epsilon)."""
    _check_dense(var, grad)
    a, w = _own(xp, accum), _own(xp, var)
    if onednn_training.adagrad(w, a, lr, epsilon, grad):
        return ()
    t = xp.multiply(grad, grad, out=_scratch(xp, w))
    a += t
    xp.add(a, epsilon, out=t)
    xp.sqrt(t, out=t)
    step = xp.multiply(grad, lr, out=_scratch(xp, w, 1))
    step /= t
    w -= step
    return ()


def _sparse_keras_adagrad(xp, var, accum, lr, epsilon, values, indices):
    """Adagrad on the rows at `indices` only (duplicate indices add up first)."""
    values, indices = _unique_rows(xp, var, values, indices)
    a, w = _own(xp, accum), _own(xp, var)
    rows = a[indices] + values * values
    a[indices] = rows
    rows += epsilon
    xp.sqrt(rows, out=rows)
    w[indices] -= values * lr / rows
    return ()


def _adadelta(xp, var, accum, accum_update, lr, rho, epsilon, grad):
    """accum = rho accum + (1 - rho) grad**2;
    update = sqrt(accum_update + epsilon) / sqrt(accum + epsilon) * grad;
    accum_update = rho accum_update + (1 - rho) update**2; var -= lr update."""
    _check_dense(var, grad)
    a, u, w = _own(xp, accum), _own(xp, accum_update), _own(xp, var)
    decay, keep = _complement(w, rho), w.dtype.type(rho)
    t = xp.multiply(grad, decay, out=_scratch(xp, w))
    t *= grad
    a *= keep
    a += t
    update = xp.add(u, epsilon, out=_scratch(xp, w, 1))
    xp.sqrt(update, out=update)
    update *= grad
    xp.add(a, epsilon, out=t)
    xp.sqrt(t, out=t)
    update /= t
    xp.multiply(update, decay, out=t)
    t *= update
    u *= keep
    u += t
    update *= lr
    w -= update
    return ()


def _ftrl_v2(xp, var, accum, linear, grad, lr, l1, l2, l2_shrinkage, lr_power,
             multiply_linear_by_lr=False):
    """FTRL-proximal: new_accum = accum + grad**2;
    linear += grad + 2 l2_shrinkage var - (new_accum**-lr_power - accum**-lr_power) / lr * var;
    var = (clip(linear, -l1, l1) - linear) / (new_accum**-lr_power / lr + 2 l2).
    `multiply_linear_by_lr` keeps `linear` multiplied by lr (its terms, and l1 and l2 in
    the new var, taken times lr)."""
    _check_dense(var, grad)
    a, lin, w = _own(xp, accum), _own(xp, linear), _own(xp, var)
    new_accum = xp.multiply(grad, grad, out=_scratch(xp, w))
    new_accum += a
    t = xp.power(new_accum, -lr_power, out=_scratch(xp, w, 1))
    sigma = xp.subtract(t, xp.power(a, -lr_power, out=a), out=_scratch(xp, w, 2))
    if not multiply_linear_by_lr:
        sigma /= lr
    sigma *= w
    xp.multiply(w, 2 * l2_shrinkage, out=a)  # the old accumulator is used up
    a += grad
    if multiply_linear_by_lr:
        a *= lr
        l1, l2 = l1 * lr, l2 * lr
    else:
        t /= lr
    a -= sigma
    lin += a
    t += 2 * l2
    xp.clip(lin, -l1, l1, out=sigma)
    sigma -= lin
    xp.divide(sigma, t, out=w)
    a[...] = new_accum
    return ()


def _ftrl(xp, var, accum, linear, grad, lr, l1, l2, lr_power, multiply_linear_by_lr=False):
    """FTRL-proximal without shrinkage (`_ftrl_v2` with l2_shrinkage 0)."""
    return _ftrl_v2(xp, var, accum, linear, grad, lr, l1, l2, xp.zeros((), grad.dtype),
                    lr_power, multiply_linear_by_lr)


def _proximal_step(xp, w, step, rate, l1, l2):
    """var = prox / (1 + rate l2) for prox = var - step, shrunk by rate l1 towards 0 first
    when l1 > 0 (`rate` a scalar or an array like `w`)."""
    w -= step
    if l1 > 0:
        shrunk = xp.abs(w) - rate * l1
        xp.maximum(shrunk, 0, out=shrunk)
        xp.copysign(shrunk, w, out=w)
    w /= 1 + rate * l2


def _proximal_gradient_descent(xp, var, alpha, l1, l2, delta):
    """prox = var - alpha delta; var = sign(prox) max(|prox| - alpha l1, 0) / (1 + alpha l2)
    (without the shrinking when l1 is 0)."""
    _check_dense(var, delta, "delta")
    w = _own(xp, var)
    _proximal_step(xp, w, delta * alpha, alpha, l1, l2)
    return ()


def _proximal_adagrad(xp, var, accum, lr, l1, l2, grad):
    """accum += grad**2; the proximal step of `_proximal_gradient_descent` with the rate
    lr / sqrt(accum)."""
    _check_dense(var, grad)
    a, w = _own(xp, accum), _own(xp, var)
    a += grad * grad
    rate = lr / xp.sqrt(a)
    _proximal_step(xp, w, grad * rate, rate, l1, l2)
    return ()


def _keras_weight_decay(xp, var, weight_decay, lr):
    """var -= var * weight_decay * lr (decoupled weight decay, before the gradient step)."""
    w = _own(xp, var)
    if onednn_training.weight_decay(w, weight_decay, lr):
        return ()
    t = xp.multiply(w, weight_decay, out=_scratch(xp, w))
    t *= lr
    w -= t
    return ()


class _Rows:
    """Gathered rows of a variable or slot, handle-like for a dense kernel."""

    __slots__ = ("value",)

    def __init__(self, value):
        self.value = value


def _on_rows(kernel, grad_index, decays=(), summed=False):
    """The sparse form of dense `kernel` (TF's ``ResourceSparseApply*``): its gradient
    comes as values and indices at `grad_index` and `grad_index + 1`, and only those rows
    of the variable and its slots (the leading handles) are updated, each as the dense
    update would. A repeated index updates its row once per occurrence in turn (TF's
    kernels), or with `summed` (eagerflow's own ops, for tf_keras's sparse updates) once
    with the sum of its values. `decays`: pairs (handle, rate) of input positions, a slot
    whose other rows are scaled by the rate (tf_keras's legacy Nadam)."""
    def sparse(xp, *inputs, **attrs):
        n = 0
        while n < len(inputs) and isinstance(inputs[n], ResourceHandle):
            n += 1
        handles = inputs[:n]
        values, indices = inputs[grad_index], inputs[grad_index + 1]
        if summed:
            values, indices = _unique_rows(xp, handles[0], values, indices)
            rounds = None
        else:
            _check_rows(xp, handles[0], values, indices)
            rounds = _rounds(xp, indices)
        for at in [None] if rounds is None else rounds:
            rows_values, rows = (values, indices) if at is None else (values[at], indices[at])
            gathered = [_Rows(xp.array(h.value[rows])) for h in handles]
            kernel(xp, *gathered, *inputs[n:grad_index], rows_values,
                   *inputs[grad_index + 2:], **attrs)
            for handle, rate in decays:  # (of a summed op's one round: not the updated rows)
                _own(xp, inputs[handle])[...] *= inputs[rate]
            for handle, row in zip(handles, gathered):
                _own(xp, handle)[rows] = row.value
        return ()
    sparse.__name__ = "_sparse" + kernel.__name__
    return sparse


def _sparse_rule_at(grad_index):
    """`_sparse_rule` for values and indices at `grad_index` and `grad_index + 1`."""
    def rule(*inputs, **_):
        return _sparse_rule(inputs[0], inputs[grad_index], inputs[grad_index + 1])
    return rule


# -- registration -------------------------------------------------------------------

def _var_shape(var):
    """The shape of the variable `var` stands for: a `Variable`, or a resource tensor
    (``VarHandleOp``'s, where known)."""
    found = resource_variable_info(var)
    return TensorShape(None) if found is None else TensorShape(found[1])


def _dense_rule(grad_index):
    """The static check of a dense update: the gradient has the variable's shape."""
    def rule(*inputs, **_):
        var, grad = inputs[0], inputs[grad_index]
        shape = _var_shape(var)
        if not shape.is_compatible_with(grad.shape):
            raise errors.InvalidArgumentError(
                None, None, f"var and grad do not have the same shape{shape} {grad.shape}")
        return []
    return rule


def _sparse_rule(*inputs, **_):
    """The static check of a sparse update: rows of the variable's shape, one index each."""
    var, values, indices = inputs[0], inputs[-2], inputs[-1]
    shape = _var_shape(var)
    if shape.rank is not None and not (indices.shape.with_rank(1).concatenate(shape[1:])
            .is_compatible_with(values.shape)):
        raise errors.InvalidArgumentError(
            None, None, f"var and grad do not have the same shape{shape} {values.shape}")
    return []


def _no_outputs(*_, **__):
    return []


def _input_name(op, i):
    names = tf_args.get(op)
    return names[i] if names and i < len(names) else f"input {i}"


def _check_inputs(op, arrays, first, grads):
    """TF's checks of an update's inputs: the variables (the `first` leading handles) hold
    the dtype of the tensors and one shape, and the tensors but the gradient (at `grads`)
    are scalars."""
    var = arrays[0].value
    dtype = arrays[first].dtype
    for i in range(first):
        held = arrays[i]
        if not isinstance(held, ResourceHandle):
            continue
        if held.value.dtype != dtype:
            raise errors.InvalidArgumentError(
                None, None, f"{_input_name(op, i)} holds {_d.as_dtype(held.value.dtype).name}, "
                            f"the update's tensors are {_d.as_dtype(dtype).name}")
        if i and held.value.shape != var.shape:
            raise errors.InvalidArgumentError(
                None, None, f"var and {_input_name(op, i)} do not have the same shape"
                            f"{shape_text(var.shape)} {shape_text(held.value.shape)}")
    last = len(arrays)
    for i in range(first, last):
        if arrays[i].ndim and i not in grads and i - last not in grads:
            raise errors.InvalidArgumentError(
                None, None, f"{_input_name(op, i)} is not a scalar: "
                            f"{shape_text(arrays[i].shape)}")


def _register(name, kernel, tied, rule, grads, dtypes=FLOAT):
    """A stateful update op: variables first, then the tensors at `tied`, of one float dtype
    (the step's scalars and the gradient; not a sparse gradient's indices), the gradient
    (and its indices) at `grads` (negative: from the end), scalars elsewhere. Its
    `use_locking` attr (TF's, which GraphDefs and `raw_ops` calls carry) is accepted and
    means nothing here: updates never run concurrently. `dtypes`: those of the tied
    tensors (complex ones for the updates TF has complex kernels of, and eagerflow's own
    that stand for tf_keras's arithmetic on complex variables)."""
    first = min(tied)

    def locked(xp, *arrays, use_locking=False, **attrs):
        _check_inputs(op, arrays, first, grads)
        return kernel(xp, *arrays, **attrs)
    locked.__name__ = locked.__qualname__ = kernel.__name__
    op = register(name, locked, rule, multi=True, tied=tuple(tied), dtypes=dtypes,
                  stateful=True, not_differentiable="variable update")
    return op


GRADIENT_DESCENT = _register("ResourceApplyGradientDescent", _gradient_descent, (1, 2),
                             _dense_rule(2), (2,), FLOAT_COMPLEX)
tf_args[GRADIENT_DESCENT] = ("var", "alpha", "delta")
SPARSE_GRADIENT_DESCENT = _register("ResourceSparseApplyGradientDescent",
                                    _sparse_gradient_descent, (1, 2), _sparse_rule, (-2, -1),
                                    FLOAT_COMPLEX)
tf_args[SPARSE_GRADIENT_DESCENT] = None  # eagerflow's own op: TF has none of this name
KERAS_MOMENTUM = _register("ResourceApplyKerasMomentum", _keras_momentum, (2, 3, 4),
                           _dense_rule(3), (3,), FLOAT_COMPLEX)
tf_args[KERAS_MOMENTUM] = ("var", "accum", "lr", "grad", "momentum")
MOMENTUM = _register("ResourceApplyMomentum", _momentum, (2, 3, 4), _dense_rule(3), (3,),
                     FLOAT_COMPLEX)
tf_args[MOMENTUM] = ("var", "accum", "lr", "grad", "momentum")
ADAGRAD = _register("ResourceApplyAdagrad", _adagrad, (2, 3), _dense_rule(3), (3,), FLOAT_COMPLEX)
tf_args[ADAGRAD] = ("var", "accum", "lr", "grad")
ADAGRAD_V2 = _register("ResourceApplyAdagradV2", _adagrad_v2, (2, 3, 4), _dense_rule(4), (4,),
                       FLOAT_COMPLEX)
tf_args[ADAGRAD_V2] = ("var", "accum", "lr", "epsilon", "grad")
# Rates whose complement `1 - rate` a kernel takes (beta1, beta2, rho) are not tied: they
# may come in float64 (see `_complement`).
ADAM = _register("ResourceApplyAdam", _adam, (3, 4, 5, 8, 9), _dense_rule(9), (9,), FLOAT_COMPLEX)
tf_args[ADAM] = ("var", "m", "v", "beta1_power", "beta2_power", "lr", "beta1", "beta2", "epsilon",
                 "grad")
ADAM_WITH_AMSGRAD = _register("ResourceApplyAdamWithAmsgrad", _adam_with_amsgrad,
                              (4, 5, 6, 9, 10), _dense_rule(10), (10,))
tf_args[ADAM_WITH_AMSGRAD] = ("var", "m", "v", "vhat", "beta1_power", "beta2_power", "lr", "beta1",
                              "beta2", "epsilon", "grad")
ADA_MAX = _register("ResourceApplyAdaMax", _ada_max, (3, 4, 6, 7, 8), _dense_rule(8), (8,))
tf_args[ADA_MAX] = ("var", "m", "v", "beta1_power", "lr", "beta1", "beta2", "epsilon", "grad")
KERAS_NADAM = _register("ResourceApplyKerasNadam", _keras_nadam, range(3, 11),
                        _dense_rule(10), (10,), FLOAT_COMPLEX)
tf_args[KERAS_NADAM] = None  # eagerflow's own op: TF has none of this name
RMS_PROP = _register("ResourceApplyRMSProp", _rms_prop, (3, 5, 6, 7), _dense_rule(7), (7,),
                     FLOAT_COMPLEX)
tf_args[RMS_PROP] = ("var", "ms", "mom", "lr", "rho", "momentum", "epsilon", "grad")
CENTERED_RMS_PROP = _register("ResourceApplyCenteredRMSProp", _centered_rms_prop,
                              (4, 6, 7, 8), _dense_rule(8), (8,), FLOAT_COMPLEX)
tf_args[CENTERED_RMS_PROP] = ("var", "mg", "ms", "mom", "lr", "rho", "momentum", "epsilon", "grad")
KERAS_ADAGRAD = _register("ResourceApplyKerasAdagrad", _keras_adagrad, range(2, 5),
                          _dense_rule(4), (4,), FLOAT_COMPLEX)
tf_args[KERAS_ADAGRAD] = None  # eagerflow's own op: TF has none of this name
SPARSE_KERAS_ADAGRAD = _register("ResourceSparseApplyKerasAdagrad", _sparse_keras_adagrad,
                                 range(2, 5), _sparse_rule, (-2, -1), FLOAT_COMPLEX)
tf_args[SPARSE_KERAS_ADAGRAD] = None  # eagerflow's own op: TF has none of this name
ADADELTA = _register("ResourceApplyAdadelta", _adadelta, (3, 5, 6), _dense_rule(6), (6,),
                     FLOAT_COMPLEX)
tf_args[ADADELTA] = ("var", "accum", "accum_update", "lr", "rho", "epsilon", "grad")
FTRL_V2 = _register("ResourceApplyFtrlV2", _ftrl_v2, range(3, 9), _dense_rule(3), (3,))
tf_args[FTRL_V2] = ("var", "accum", "linear", "grad", "lr", "l1", "l2", "l2_shrinkage", "lr_power")
FTRL = _register("ResourceApplyFtrl", _ftrl, range(3, 8), _dense_rule(3), (3,))
tf_args[FTRL] = ("var", "accum", "linear", "grad", "lr", "l1", "l2", "lr_power")
PROXIMAL_GRADIENT_DESCENT = _register("ResourceApplyProximalGradientDescent",
                                      _proximal_gradient_descent, range(1, 5), _dense_rule(4),
                                      (4,))
tf_args[PROXIMAL_GRADIENT_DESCENT] = ("var", "alpha", "l1", "l2", "delta")
PROXIMAL_ADAGRAD = _register("ResourceApplyProximalAdagrad", _proximal_adagrad, range(2, 6),
                             _dense_rule(5), (5,))
tf_args[PROXIMAL_ADAGRAD] = ("var", "accum", "lr", "l1", "l2", "grad")
ADD_SIGN = _register("ResourceApplyAddSign", _add_sign, range(2, 7), _dense_rule(6), (6,))
tf_args[ADD_SIGN] = ("var", "m", "lr", "alpha", "sign_decay", "beta", "grad")
POWER_SIGN = _register("ResourceApplyPowerSign", _power_sign, range(2, 7), _dense_rule(6),
                       (6,))
tf_args[POWER_SIGN] = ("var", "m", "lr", "logbase", "sign_decay", "beta", "grad")
ADAGRAD_DA = _register("ResourceApplyAdagradDA", _adagrad_da, range(3, 7), _dense_rule(3),
                       (3,))
tf_args[ADAGRAD_DA] = ("var", "gradient_accumulator", "gradient_squared_accumulator", "grad",
                       "lr", "l1", "l2", "global_step")


def _register_sparse(name, kernel, tied, grad_index, args, decays=(), dtypes=FLOAT, cast=()):
    """The sparse form of dense update `kernel` (see `_on_rows`): indices follow the
    gradient; `args` TF's input names, None for eagerflow's own op (which sums the values
    of a repeated index)."""
    op = _register(name, _on_rows(kernel, grad_index, decays, summed=args is None),
                   [i if i <= grad_index else i + 1 for i in tied], _sparse_rule_at(grad_index),
                   (grad_index, grad_index + 1), dtypes)
    tf_args[op] = args
    if args is not None:  # (TF's node types the indices apart; `cast`: as `NodeForm`'s)
        tf_nodes[op] = NodeForm(types={"T": grad_index, "Tindices": grad_index + 1},
                                cast=cast)
    return op


SPARSE_KERAS_MOMENTUM = _register_sparse(
    "ResourceSparseApplyKerasMomentum", _keras_momentum, (2, 3, 4), 3,
    ("var", "accum", "lr", "grad", "indices", "momentum"), dtypes=FLOAT_COMPLEX)
SPARSE_MOMENTUM = _register_sparse(
    "ResourceSparseApplyMomentum", _momentum, (2, 3, 4), 3,
    ("var", "accum", "lr", "grad", "indices", "momentum"), dtypes=FLOAT_COMPLEX)
SPARSE_RMS_PROP = _register_sparse(
    "ResourceSparseApplyRMSProp", _rms_prop, (3, 5, 6, 7), 7,
    ("var", "ms", "mom", "lr", "rho", "momentum", "epsilon", "grad", "indices"),
    dtypes=FLOAT_COMPLEX, cast=(4,))
SPARSE_CENTERED_RMS_PROP = _register_sparse(
    "ResourceSparseApplyCenteredRMSProp", _centered_rms_prop, (4, 6, 7, 8), 8,
    ("var", "mg", "ms", "mom", "lr", "rho", "momentum", "epsilon", "grad", "indices"),
    dtypes=FLOAT_COMPLEX, cast=(5,))
SPARSE_ADADELTA = _register_sparse(
    "ResourceSparseApplyAdadelta", _adadelta, (3, 5, 6), 6,
    ("var", "accum", "accum_update", "lr", "rho", "epsilon", "grad", "indices"),
    dtypes=FLOAT_COMPLEX, cast=(4,))
SPARSE_ADAGRAD_V2 = _register_sparse(
    "ResourceSparseApplyAdagradV2", _adagrad_v2, (2, 3, 4), 4,
    ("var", "accum", "lr", "epsilon", "grad", "indices"),
    dtypes=FLOAT_COMPLEX)
SPARSE_FTRL_V2 = _register_sparse(
    "ResourceSparseApplyFtrlV2", _ftrl_v2, range(3, 9), 3,
    ("var", "accum", "linear", "grad", "indices", "lr", "l1", "l2", "l2_shrinkage",
     "lr_power"))
SPARSE_FTRL = _register_sparse(
    "ResourceSparseApplyFtrl", _ftrl, range(3, 8), 3,
    ("var", "accum", "linear", "grad", "indices", "lr", "l1", "l2", "lr_power"))
SPARSE_ADAGRAD = _register_sparse(
    "ResourceSparseApplyAdagrad", _adagrad, (2, 3), 3,
    ("var", "accum", "lr", "grad", "indices"),
    dtypes=FLOAT_COMPLEX)
SPARSE_PROXIMAL_GRADIENT_DESCENT = _register_sparse(
    "ResourceSparseApplyProximalGradientDescent", _proximal_gradient_descent, range(1, 5), 4,
    ("var", "alpha", "l1", "l2", "grad", "indices"))
SPARSE_PROXIMAL_ADAGRAD = _register_sparse(
    "ResourceSparseApplyProximalAdagrad", _proximal_adagrad, range(2, 6), 5,
    ("var", "accum", "lr", "l1", "l2", "grad", "indices"))
SPARSE_ADAGRAD_DA = _register_sparse(
    "ResourceSparseApplyAdagradDA", _sparse_adagrad_da, range(3, 7), 3,
    ("var", "gradient_accumulator", "gradient_squared_accumulator", "grad", "indices", "lr",
     "l1", "l2", "global_step"))
SPARSE_ADA_MAX = _register_sparse(  # eagerflow's own op: TF has none of this name
    "ResourceSparseApplyAdaMax", _ada_max, (3, 4, 6, 7, 8), 8, None)
SPARSE_KERAS_NADAM = _register_sparse(  # eagerflow's own op: TF has none of this name
    "ResourceSparseApplyKerasNadam", _keras_nadam, range(3, 11), 10, None,
    decays=((1, 4), (2, 5)), dtypes=FLOAT_COMPLEX)
KERAS_WEIGHT_DECAY = _register("ResourceApplyKerasWeightDecay", _keras_weight_decay, (1, 2),
                               _no_outputs, (), FLOAT_COMPLEX)
tf_args[KERAS_WEIGHT_DECAY] = None  # eagerflow's own op: TF has none of this name
# TF types those rates by T: a GraphDef casts them
for _op, _rates in ((ADAM, (6, 7)), (ADAM_WITH_AMSGRAD, (7, 8)), (ADA_MAX, (5,)),
                    (RMS_PROP, (4,)), (CENTERED_RMS_PROP, (5,)), (ADADELTA, (4,)),
                    (SPARSE_ADA_MAX, (5,))):
    tf_nodes[_op] = NodeForm(cast=_rates)
