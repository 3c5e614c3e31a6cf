"""FTRL-proximal (``tf.keras.optimizers.Ftrl``): follow the regularized leader, with L1/L2.

>>> opt = tf.keras.optimizers.Ftrl(learning_rate=0.1)
>>> var = tf.Variable(1.0)
>>> opt.minimize(lambda: var ** 2, [var])
>>> print(var.numpy())
0.7450533
"""
import numpy as np

from eagerflow._src.backend.api_export import export
from eagerflow._src.core.dispatch import dispatch
from eagerflow._src.keras.optimizers.optimizer import Optimizer, given_options
from eagerflow._src.ops import training_ops


@export("keras.optimizers.Ftrl", "keras.optimizers.experimental.Ftrl")
class Ftrl(Optimizer):
    """McMahan et al.'s FTRL-proximal with slots ``accumulator`` (summed squared gradients,
    from `initial_accumulator_value`) and ``linear``. `beta` adds ``beta / (2 lr)`` to the L2
    strength; `l2_shrinkage_regularization_strength` adds ``2 * strength * var`` to the
    gradient.

    >>> tf.keras.optimizers.Ftrl().get_slot_names()
    ['accumulator', 'linear']
    """

    _config_keys = ("learning_rate_power", "initial_accumulator_value",
                    "l1_regularization_strength", "l2_regularization_strength",
                    "l2_shrinkage_regularization_strength", "beta")

    def __init__(self, learning_rate=0.001, learning_rate_power=-0.5,
                 initial_accumulator_value=0.1, l1_regularization_strength=0.0,
                 l2_regularization_strength=0.0, l2_shrinkage_regularization_strength=0.0,
                 beta=0.0, weight_decay=None,
                 clipnorm=None, clipvalue=None, global_clipnorm=None, use_ema=False,
                 ema_momentum=0.99, ema_overwrite_frequency=None, jit_compile=True,
                 name="Ftrl", **kwargs):
        super().__init__(name, weight_decay=weight_decay, **given_options(
            clipnorm=clipnorm, clipvalue=clipvalue, global_clipnorm=global_clipnorm,
            use_ema=use_ema, ema_momentum=ema_momentum,
            ema_overwrite_frequency=ema_overwrite_frequency, jit_compile=jit_compile),
            **kwargs)
        for arg, value, sign in (
                ("initial_accumulator_value", initial_accumulator_value, 1),
                ("learning_rate_power", learning_rate_power, -1),
                ("l1_regularization_strength", l1_regularization_strength, 1),
                ("l2_regularization_strength", l2_regularization_strength, 1),
                ("l2_shrinkage_regularization_strength", l2_shrinkage_regularization_strength,
                 1)):
            if sign * value < 0.0:
                raise ValueError(f"`{arg}` needs to be {'positive' if sign > 0 else 'negative'} "
                                 f"or zero. Received: {arg}={value}.")
        self._learning_rate = self._build_learning_rate(learning_rate)
        self.learning_rate_power = learning_rate_power
        self.initial_accumulator_value = initial_accumulator_value
        self.l1_regularization_strength = l1_regularization_strength
        self.l2_regularization_strength = l2_regularization_strength
        self.l2_shrinkage_regularization_strength = l2_shrinkage_regularization_strength
        self.beta = beta

    def _slot_groups(self):
        # (tf_keras fills the accumulator in float32 and casts it: a float64 variable's
        # starts at float32(0.1), not 0.1)
        return [{"accumulator": np.float32(self.initial_accumulator_value), "linear": 0.0}]

    def _coefficients(self, dtype):
        lr = self._lr(dtype)
        l2 = (self._number_hyper(self.l2_regularization_strength, dtype)
              + self._number_hyper(self.beta, dtype) / (2.0 * lr))
        return (lr, self._number_hyper(self.l1_regularization_strength, dtype), l2,
                self._number_hyper(self.l2_shrinkage_regularization_strength, dtype),
                self._number_hyper(self.learning_rate_power, dtype))

    def _apply_dense(self, grad, var, slots, coefficients):
        dispatch(training_ops.FTRL_V2,
                 (var, slots["accumulator"], slots["linear"], grad, *coefficients))
