"""TF 1's learning-rate decay functions (``tf.compat.v1.train.exponential_decay`` & co.): the
rate at a `global_step`.  In a graph each returns the rate's tensor; eagerly (as TF does)
a callable of no argument computing the rate at the step's value when called, so an
optimizer given it follows a step variable.

>>> step = tf.Variable(10, dtype=tf.int64)
>>> rate = tf.compat.v1.train.exponential_decay(0.1, step, 10, 0.5)
>>> float(rate())
0.05000000074505806
>>> _ = step.assign(20); float(rate())
0.02500000037252903
"""
import math

from eagerflow._src.backend.api_export import export
from eagerflow._src.core import context
from eagerflow._src.core.context import name_scope
from eagerflow._src.core import dtypes as _d
from eagerflow._src.core.convert import convert_to_tensor, is_tensor_like, to_array
from eagerflow._src.ops import array_ops, math_ops, random_ops, reduction_ops
from eagerflow._src.ops.cast_ops import cast


def _decayed(schedule, global_step):
    """TF 1's result: the rate's tensor while building a graph, else a callable."""
    if context.executing_eagerly():
        return lambda: schedule(global_step)
    return schedule(global_step)


def _start(learning_rate, global_step, *numbers):
    """The rate as a tensor, then the step and `numbers` cast to its dtype."""
    rate = convert_to_tensor(learning_rate, name="learning_rate")
    return (rate, cast(global_step, rate.dtype), *(cast(n, rate.dtype) for n in numbers))


def _progress(step, decay_steps, staircase):
    p = step / decay_steps
    return math_ops.floor(p) if staircase else p


@export("compat.v1.train.exponential_decay")
def exponential_decay(learning_rate, global_step, decay_steps, decay_rate, staircase=False,
                      name=None):
    """``learning_rate * decay_rate ** (global_step / decay_steps)`` (an integer power with
    `staircase`)."""
    def schedule(global_step):
        with name_scope(name or "ExponentialDecay") as scope:
            rate, step, steps, decay = _start(learning_rate, global_step, decay_steps,
                                              decay_rate)
            return math_ops.multiply(rate, math_ops.pow(decay, _progress(step, steps,
                                                                          staircase)),
                                     name=scope)
    return _decayed(schedule, global_step)


@export("compat.v1.train.natural_exp_decay")
def natural_exp_decay(learning_rate, global_step, decay_steps, decay_rate, staircase=False,
                      name=None):
    """``learning_rate * exp(-decay_rate * global_step / decay_steps)`` (the quotient
    floored with `staircase`)."""
    def schedule(global_step):
        with name_scope(name or "ExponentialDecay") as scope:  # (TF's name for it)
            rate, step, steps, decay = _start(learning_rate, global_step, decay_steps,
                                              decay_rate)
            factor = math_ops.pow(math_ops.exp(-decay), _progress(step, steps, staircase))
            return math_ops.multiply(rate, factor, name=scope)
    return _decayed(schedule, global_step)


@export("compat.v1.train.inverse_time_decay")
def inverse_time_decay(learning_rate, global_step, decay_steps, decay_rate, staircase=False,
                       name=None):
    """``learning_rate / (1 + decay_rate * global_step / decay_steps)`` (the quotient
    floored with `staircase`)."""
    def schedule(global_step):
        with name_scope(name or "InverseTimeDecay") as scope:
            rate, step, steps, decay = _start(learning_rate, global_step, decay_steps,
                                              decay_rate)
            denominator = 1 + decay * _progress(step, steps, staircase)
            return math_ops.divide(rate, denominator, name=scope)
    return _decayed(schedule, global_step)


@export("compat.v1.train.piecewise_constant", "compat.v1.train.piecewise_constant_decay")
def piecewise_constant(x, boundaries, values, name=None):
    """``values[0]`` for `x` up to ``boundaries[0]``, ``values[i]`` for `x` in
    ``(boundaries[i-1], boundaries[i]]``, ``values[-1]`` past the last boundary."""
    if len(boundaries) != len(values) - 1:
        raise ValueError("The length of boundaries should be 1 less than the length of values")
    # As TF, no boundary is cast to the step's dtype (a float boundary would be cut to an
    # integer step's) but int32 ones to an int64 step's; the values share one dtype.
    step_dtype = _dtype_of(x)
    for b in boundaries:
        dtype = _dtype_of(b)
        if dtype != step_dtype and (dtype, step_dtype) != (_d.int32, _d.int64):
            raise ValueError(f"Boundaries ({dtype}) must have the same dtype as x "
                             f"({step_dtype}).")
    value_dtypes = [_dtype_of(v) for v in values]
    for dtype in value_dtypes[1:]:
        if dtype != value_dtypes[0]:
            raise ValueError(f"Values must have elements all with the same dtype "
                             f"({value_dtypes[0]} vs {dtype}).")

    def schedule(x):
        with name_scope(name or "PiecewiseConstant"):
            x = convert_to_tensor(x)
            bounds = array_ops.stack([cast(b, x.dtype) for b in boundaries])
            table = array_ops.stack([convert_to_tensor(v) for v in values])
            passed = reduction_ops.reduce_sum(cast(x > bounds, "int32"))
            return array_ops.gather(table, passed)
    return _decayed(schedule, x)


def _dtype_of(value):
    """The dtype of `value` as a tensor (without making one of a Python or NumPy value)."""
    if is_tensor_like(value):
        return value.dtype.base_dtype
    return _d.as_dtype(to_array(value, None).dtype)


@export("compat.v1.train.polynomial_decay")
def polynomial_decay(learning_rate, global_step, decay_steps, end_learning_rate=0.0001,
                     power=1.0, cycle=False, name=None):
    """From `learning_rate` to `end_learning_rate` over `decay_steps` along
    ``(1 - global_step / decay_steps) ** power``; with `cycle`, over the next multiple
    of `decay_steps` past the step."""
    def schedule(global_step):
        with name_scope(name or "PolynomialDecay") as scope:
            rate, step, steps, end, exponent = _start(learning_rate, global_step, decay_steps,
                                                      end_learning_rate, power)
            if cycle:
                steps = steps * array_ops.where(math_ops.equal(step, 0), cast(1, rate.dtype),
                                                math_ops.ceil(step / steps))
            else:
                step = math_ops.minimum(step, steps)
            fraction = 1 - step / steps
            return math_ops.add((rate - end) * math_ops.pow(fraction, exponent), end,
                                name=scope)
    return _decayed(schedule, global_step)


def _half_cosine(fraction):
    """``0.5 * (1 + cos(pi * fraction))``."""
    return 0.5 * (1.0 + math_ops.cos(math.pi * fraction))


@export("compat.v1.train.cosine_decay")
def cosine_decay(learning_rate, global_step, decay_steps, alpha=0.0, name=None):
    """A half cosine from `learning_rate` to ``alpha * learning_rate`` over `decay_steps`."""
    def schedule(global_step):
        with name_scope(name or "CosineDecay") as scope:
            rate, step, steps, low = _start(learning_rate, global_step, decay_steps, alpha)
            fraction = math_ops.minimum(step, steps) / steps
            return math_ops.multiply(rate, (1 - low) * _half_cosine(fraction) + low,
                                     name=scope)
    return _decayed(schedule, global_step)


@export("compat.v1.train.cosine_decay_restarts")
def cosine_decay_restarts(learning_rate, global_step, first_decay_steps, t_mul=2.0,
                          m_mul=1.0, alpha=0.0, name=None):
    """Cosine decay restarted after each period (SGDR): the i-th period lasts
    ``first_decay_steps * t_mul ** i`` steps and starts from ``m_mul ** i`` times the
    rate."""
    def schedule(global_step):
        with name_scope(name or "SGDRDecay") as scope:
            rate, step, steps, t, m, low = _start(learning_rate, global_step,
                                                  first_decay_steps, t_mul, m_mul, alpha)
            fraction = step / steps
            if t_mul == 1.0:
                restarts = math_ops.floor(fraction)
                fraction = fraction - restarts
            else:  # periods 1, t, t**2, ...: the restarts so far solve a geometric sum
                restarts = math_ops.floor(math_ops.log(1.0 - fraction * (1.0 - t))
                                          / math_ops.log(t))
                done = (1.0 - math_ops.pow(t, restarts)) / (1.0 - t)
                fraction = (fraction - done) / math_ops.pow(t, restarts)
            decayed = math_ops.pow(m, restarts) * _half_cosine(fraction)
            return math_ops.multiply(rate, (1 - low) * decayed + low, name=scope)
    return _decayed(schedule, global_step)


def _linear_cosine(learning_rate, global_step, decay_steps, num_periods, alpha, beta, noise,
                   name):
    def schedule(global_step):
        with name_scope(name) as scope:
            rate, step, steps, periods, a, b = _start(learning_rate, global_step, decay_steps,
                                                      num_periods, alpha, beta)
            step = math_ops.minimum(step, steps)
            linear = (steps - step) / steps
            if noise is not None:
                variance_0, variance_decay = (cast(v, rate.dtype) for v in noise)
                stddev = math_ops.sqrt(variance_0 / math_ops.pow(1.0 + step, variance_decay))
                linear = linear + random_ops.normal(array_ops.shape(linear), stddev=stddev,
                                                    dtype=rate.dtype)
            cosine = _half_cosine(2.0 * periods * (step / steps))
            return math_ops.multiply(rate, (a + linear) * cosine + b, name=scope)
    return _decayed(schedule, global_step)


@export("compat.v1.train.linear_cosine_decay")
def linear_cosine_decay(learning_rate, global_step, decay_steps, num_periods=0.5, alpha=0.0,
                        beta=0.001, name=None):
    """``learning_rate * ((alpha + linear) * cosine + beta)``: `linear` falls from 1 to 0
    over `decay_steps` while `cosine` makes `num_periods` periods."""
    return _linear_cosine(learning_rate, global_step, decay_steps, num_periods, alpha, beta,
                          None, name or "LinearCosineDecay")


@export("compat.v1.train.noisy_linear_cosine_decay")
def noisy_linear_cosine_decay(learning_rate, global_step, decay_steps, initial_variance=1.0,
                              variance_decay=0.55, num_periods=0.5, alpha=0.0, beta=0.001,
                              name=None):
    """`linear_cosine_decay` with Gaussian noise on its linear part, of variance
    ``initial_variance / (1 + global_step) ** variance_decay``."""
    return _linear_cosine(learning_rate, global_step, decay_steps, num_periods, alpha, beta,
                          (initial_variance, variance_decay), name or "NoisyLinearCosineDecay")
