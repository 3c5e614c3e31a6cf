"""Lion (``tf.keras.optimizers.Lion``): steps of fixed size along the sign of an
interpolated momentum.

>>> opt = tf.keras.optimizers.Lion(learning_rate=0.1)
>>> var = tf.Variable(1.0)
>>> opt.minimize(lambda: var ** 2, [var])
>>> print(var.numpy())
0.9
"""
from eagerflow._src.backend.api_export import export
from eagerflow._src.keras.optimizers.optimizer import Optimizer, given_options
from eagerflow._src.ops import math_ops


@export("keras.optimizers.Lion")
class Lion(Optimizer):
    """Lion (Chen et al., "Symbolic Discovery of Optimization Algorithms"):
    ``var -= lr * sign(beta_1 * m + (1 - beta_1) * grad)``, then
    ``m = beta_2 * m + (1 - beta_2) * grad``.

    >>> tf.keras.optimizers.Lion().get_slot_names()
    ['m']
    """

    _config_keys = ("beta_1", "beta_2")
    _sparse_decays = (("m", "scale", "beta_1"),)

    def __init__(self, learning_rate=0.0001, beta_1=0.9, beta_2=0.99, weight_decay=None,
                 clipnorm=None, clipvalue=None, global_clipnorm=None, use_ema=False,
                 ema_momentum=0.99, ema_overwrite_frequency=None, jit_compile=True,
                 name="Lion", **kwargs):
        super().__init__(name, weight_decay=weight_decay, **given_options(
            clipnorm=clipnorm, clipvalue=clipvalue, global_clipnorm=global_clipnorm,
            use_ema=use_ema, ema_momentum=ema_momentum,
            ema_overwrite_frequency=ema_overwrite_frequency, jit_compile=jit_compile),
            **kwargs)
        self._learning_rate = self._build_learning_rate(learning_rate)
        self.beta_1 = beta_1
        self.beta_2 = beta_2
        if beta_1 <= 0 or beta_1 > 1:
            raise ValueError(f"`beta_1`={beta_1} must be between ]0, 1]. Otherwise, the "
                             f"optimizer degenerates to SignSGD.")

    def _slot_groups(self):
        return [{"m": 0.0}]

    def _coefficients(self, dtype):
        return (self._lr(dtype), self._cast(self.beta_1, dtype),
                self._cast(self.beta_2, dtype))

    def _apply_dense(self, grad, var, slots, coefficients):
        lr, beta_1, beta_2 = coefficients
        m = slots["m"]
        # the complements are taken in the variable's dtype, as tf_keras does
        direction = math_ops.sign(m * beta_1 + grad * (1.0 - beta_1))
        var.assign_sub(lr * direction)
        m.assign(m * beta_2 + grad * (1.0 - beta_2))
