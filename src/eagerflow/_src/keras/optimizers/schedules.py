"""Learning-rate schedules (``tf.keras.optimizers.schedules``): the rate as a function of the step.

An optimizer given a schedule evaluates it at its `iterations` on every
step, so inside a traced function the rate follows the step at run time.

>>> schedule = tf.keras.optimizers.schedules.ExponentialDecay(0.1, decay_steps=10, decay_rate=0.5)
>>> float(schedule(10))
0.05000000074505806
"""
import math

from eagerflow._src.backend.api_export import export
from eagerflow._src.core.context import name_scope
from eagerflow._src.core.convert import convert_to_tensor
from eagerflow._src.graph.control_flow import cond
from eagerflow._src.keras.utils.serialization import (
    deserialize_keras_object, serialize_keras_object)
from eagerflow._src.ops import array_ops, math_ops, reduction_ops
from eagerflow._src.ops.cast_ops import cast


@export("keras.optimizers.schedules.LearningRateSchedule")
class LearningRateSchedule:
    """The base class of schedules: `__call__(step)` gives the rate, `get_config` its arguments.

    >>> class Halving(tf.keras.optimizers.schedules.LearningRateSchedule):
    ...     def __call__(self, step):
    ...         return 0.1 / (1 + step)
    ...     def get_config(self):
    ...         return {}
    >>> Halving()(1)
    0.05
    """

    def __call__(self, step):
        raise NotImplementedError(f"Learning rate schedule '{type(self).__name__}' must "
                                  f"override `__call__(self, step)`.")

    def get_config(self):
        raise NotImplementedError(f"Learning rate schedule '{type(self).__name__}' must "
                                  f"override `get_config()` in order to be serializable.")

    @classmethod
    def from_config(cls, config):
        return cls(**config)


def _start(initial_learning_rate, step):
    """The initial rate as a tensor, and the step as a number of the rate's dtype."""
    initial = convert_to_tensor(initial_learning_rate)
    return initial, cast(step, initial.dtype)


class _StepDecay(LearningRateSchedule):
    """A rate decaying with ``step / decay_steps`` (floored with `staircase`): subclasses
    say how, in `_decay(initial, decay_rate, progress)`."""

    def __init__(self, initial_learning_rate, decay_steps, decay_rate, staircase=False,
                 name=None):
        self.initial_learning_rate = initial_learning_rate
        self.decay_steps = decay_steps
        self.decay_rate = decay_rate
        self.staircase = staircase
        self.name = name

    def __call__(self, step):
        with name_scope(self.name or type(self).__name__):
            initial, step = _start(self.initial_learning_rate, step)
            p = step / cast(self.decay_steps, initial.dtype)
            if self.staircase:
                p = math_ops.floor(p)
            return self._decay(initial, cast(self.decay_rate, initial.dtype), p)

    def get_config(self):
        return {"initial_learning_rate": self.initial_learning_rate,
                "decay_steps": self.decay_steps, "decay_rate": self.decay_rate,
                "staircase": self.staircase, "name": self.name}


@export("keras.optimizers.schedules.ExponentialDecay")
class ExponentialDecay(_StepDecay):
    """``initial_learning_rate * decay_rate ** (step / decay_steps)`` (an integer power with
    `staircase`).

    >>> float(tf.keras.optimizers.schedules.ExponentialDecay(1.0, 2, 0.5, staircase=True)(3))
    0.5
    """

    def _decay(self, initial, decay_rate, progress):
        return initial * math_ops.pow(decay_rate, progress)


@export("keras.optimizers.schedules.PiecewiseConstantDecay")
class PiecewiseConstantDecay(LearningRateSchedule):
    """``values[i]`` for steps in ``(boundaries[i-1], boundaries[i]]``: `values[0]` up to
    and including the first boundary, `values[-1]` after the last.

    >>> schedule = tf.keras.optimizers.schedules.PiecewiseConstantDecay([10, 20], [1.0, 0.5, 0.1])
    >>> [float(schedule(s)) for s in (10, 11, 21)]
    [1.0, 0.5, 0.10000000149011612]
    """

    def __init__(self, boundaries, values, name=None):
        if len(boundaries) != len(values) - 1:
            raise ValueError(
                f"The length of boundaries should be 1 less than the length of values. "
                f"Received: boundaries={boundaries} of length {len(boundaries)}, and "
                f"values={values} of length {len(values)}.")
        self.boundaries = boundaries
        self.values = values
        self.name = name

    def __call__(self, step):
        with name_scope(self.name or "PiecewiseConstant"):
            step = convert_to_tensor(step)
            boundaries = array_ops.stack([cast(b, step.dtype) for b in self.boundaries])
            values = array_ops.stack([convert_to_tensor(v) for v in self.values])
            # The number of boundaries the step has passed indexes the value.
            passed = reduction_ops.reduce_sum(cast(step > boundaries, "int32"))
            return array_ops.gather(values, passed)

    def get_config(self):
        return {"boundaries": self.boundaries, "values": self.values, "name": self.name}


@export("keras.optimizers.schedules.PolynomialDecay")
class PolynomialDecay(LearningRateSchedule):
    """From `initial_learning_rate` to `end_learning_rate` over `decay_steps` along
    ``(1 - step / decay_steps) ** power``; with `cycle`, over the next multiple of
    `decay_steps` past the step.

    >>> float(tf.keras.optimizers.schedules.PolynomialDecay(1.0, 10, end_learning_rate=0.0)(5))
    0.5
    """

    def __init__(self, initial_learning_rate, decay_steps, end_learning_rate=0.0001, power=1.0,
                 cycle=False, name=None):
        self.initial_learning_rate = initial_learning_rate
        self.decay_steps = decay_steps
        self.end_learning_rate = end_learning_rate
        self.power = power
        self.cycle = cycle
        self.name = name

    def __call__(self, step):
        with name_scope(self.name or "PolynomialDecay"):
            initial, step = _start(self.initial_learning_rate, step)
            dtype = initial.dtype
            end = cast(self.end_learning_rate, dtype)
            decay_steps = cast(self.decay_steps, dtype)
            if self.cycle:
                periods = math_ops.ceil(step / decay_steps)
                decay_steps = decay_steps * array_ops.where(
                    math_ops.equal(step, 0), cast(1, dtype), periods)
            else:
                step = math_ops.minimum(step, decay_steps)
            fraction = 1 - step / decay_steps
            return (initial - end) * math_ops.pow(fraction, cast(self.power, dtype)) + end

    def get_config(self):
        return {"initial_learning_rate": self.initial_learning_rate,
                "decay_steps": self.decay_steps, "end_learning_rate": self.end_learning_rate,
                "power": self.power, "cycle": self.cycle, "name": self.name}


@export("keras.optimizers.schedules.InverseTimeDecay")
class InverseTimeDecay(_StepDecay):
    """``initial_learning_rate / (1 + decay_rate * step / decay_steps)`` (the quotient
    floored with `staircase`).

    >>> float(tf.keras.optimizers.schedules.InverseTimeDecay(1.0, 1, 0.5)(2))
    0.5
    """

    def _decay(self, initial, decay_rate, progress):
        return initial / (1 + decay_rate * progress)


def _cosine(fraction, dtype):
    """``0.5 * (1 + cos(pi * fraction))``."""
    return 0.5 * (1.0 + math_ops.cos(cast(math.pi, dtype) * fraction))


@export("keras.optimizers.schedules.CosineDecay", "keras.experimental.CosineDecay")
class CosineDecay(LearningRateSchedule):
    """A cosine from the rate to ``alpha * rate`` over `decay_steps`, after an optional
    linear warmup from `initial_learning_rate` to `warmup_target` over `warmup_steps`.

    >>> schedule = tf.keras.optimizers.schedules.CosineDecay(0.0, 10, warmup_target=1.0,
    ...                                                      warmup_steps=10)
    >>> [float(schedule(s)) for s in (5, 10, 20)]
    [0.5, 1.0, 0.0]
    """

    def __init__(self, initial_learning_rate, decay_steps, alpha=0.0, name=None,
                 warmup_target=None, warmup_steps=0):
        self.initial_learning_rate = initial_learning_rate
        self.decay_steps = decay_steps
        self.alpha = alpha
        self.name = name
        self.warmup_steps = warmup_steps
        self.warmup_target = warmup_target

    def _decay(self, step, decay_steps, start):
        decayed = (1 - self.alpha) * _cosine(step / decay_steps, start.dtype) + self.alpha
        return start * decayed

    def __call__(self, step):
        with name_scope(self.name or "CosineDecay"):
            initial, step = _start(self.initial_learning_rate, step)
            dtype = initial.dtype
            decay_steps = cast(self.decay_steps, dtype)
            if self.warmup_target is None:
                return self._decay(math_ops.minimum(step, decay_steps), decay_steps, initial)
            target = cast(self.warmup_target, dtype)
            warmup_steps = cast(self.warmup_steps, dtype)
            step = math_ops.minimum(step, decay_steps + warmup_steps)
            return cond(step < warmup_steps,
                        lambda: (target - initial) * (step / warmup_steps) + initial,
                        lambda: self._decay(step - warmup_steps, decay_steps, target))

    def get_config(self):
        return {"initial_learning_rate": self.initial_learning_rate,
                "decay_steps": self.decay_steps, "alpha": self.alpha, "name": self.name,
                "warmup_target": self.warmup_target, "warmup_steps": self.warmup_steps}


@export("keras.optimizers.schedules.CosineDecayRestarts", "keras.experimental.CosineDecayRestarts")
class CosineDecayRestarts(LearningRateSchedule):
    """Cosine decay restarted after each period (SGDR): the i-th period lasts
    ``first_decay_steps * t_mul ** i`` steps and starts from ``m_mul ** i`` times the rate.

    >>> schedule = tf.keras.optimizers.schedules.CosineDecayRestarts(1.0, 10, t_mul=1.0)
    >>> [round(float(schedule(s)), 6) for s in (0, 5, 10)]
    [1.0, 0.5, 1.0]
    """

    def __init__(self, initial_learning_rate, first_decay_steps, t_mul=2.0, m_mul=1.0,
                 alpha=0.0, name=None):
        self.initial_learning_rate = initial_learning_rate
        self.first_decay_steps = first_decay_steps
        self._t_mul = t_mul
        self._m_mul = m_mul
        self.alpha = alpha
        self.name = name

    def __call__(self, step):
        with name_scope(self.name or "SGDRDecay"):
            initial, step = _start(self.initial_learning_rate, step)
            dtype = initial.dtype
            t_mul, m_mul = cast(self._t_mul, dtype), cast(self._m_mul, dtype)
            alpha = cast(self.alpha, dtype)
            fraction = step / cast(self.first_decay_steps, dtype)

            def equal_periods():
                restarts = math_ops.floor(fraction)
                return restarts, fraction - restarts

            def growing_periods():
                # Periods 1, t, t**2, ...: the restarts so far solve a geometric sum.
                restarts = math_ops.floor(math_ops.log(1.0 - fraction * (1.0 - t_mul))
                                          / math_ops.log(t_mul))
                done = (1.0 - math_ops.pow(t_mul, restarts)) / (1.0 - t_mul)
                return restarts, (fraction - done) / math_ops.pow(t_mul, restarts)

            restarts, fraction = cond(math_ops.equal(t_mul, 1.0), equal_periods,
                                      growing_periods)
            decayed = math_ops.pow(m_mul, restarts) * _cosine(fraction, dtype)
            return initial * ((1 - alpha) * decayed + alpha)

    def get_config(self):
        return {"initial_learning_rate": self.initial_learning_rate,
                "first_decay_steps": self.first_decay_steps, "t_mul": self._t_mul,
                "m_mul": self._m_mul, "alpha": self.alpha, "name": self.name}


_SCHEDULES = {cls.__name__: cls for cls in (
    LearningRateSchedule, ExponentialDecay, PiecewiseConstantDecay, PolynomialDecay,
    InverseTimeDecay, CosineDecay, CosineDecayRestarts)}


@export("keras.optimizers.schedules.serialize")
def serialize(learning_rate_schedule, use_legacy_format=False):
    """The schedule's config as ``{'module', 'class_name', 'config', 'registered_name'}``.

    >>> schedule = tf.keras.optimizers.schedules.ExponentialDecay(0.1, 10, 0.5)
    >>> tf.keras.optimizers.schedules.serialize(schedule)["class_name"]
    'ExponentialDecay'
    """
    own = _SCHEDULES.get(type(learning_rate_schedule).__name__) is type(learning_rate_schedule)
    return serialize_keras_object(learning_rate_schedule,
                                  module="keras.optimizers.schedules" if own else None)


@export("keras.optimizers.schedules.deserialize")
def deserialize(config, custom_objects=None, use_legacy_format=False):
    """The schedule a `serialize` result describes.

    >>> schedule = tf.keras.optimizers.schedules.ExponentialDecay(0.1, 10, 0.5)
    >>> config = tf.keras.optimizers.schedules.serialize(schedule)
    >>> tf.keras.optimizers.schedules.deserialize(config).decay_rate
    0.5
    """
    return deserialize_keras_object(config, module_objects=_SCHEDULES,
                                    custom_objects=custom_objects,
                                    printable_module_name="decay")
