"""Adadelta (``tf.keras.optimizers.Adadelta``): steps sized by moving RMS of past steps.

>>> opt = tf.keras.optimizers.Adadelta(learning_rate=1.0)
>>> var = tf.Variable(1.0)
>>> opt.minimize(lambda: var ** 2, [var])
>>> print(var.numpy())
0.99858576
"""
from eagerflow._src.backend.api_export import export
from eagerflow._src.core.dispatch import dispatch
from eagerflow._src.keras.optimizers.optimizer import Optimizer, given_options
from eagerflow._src.ops import training_ops


@export("keras.optimizers.Adadelta", "keras.optimizers.experimental.Adadelta")
class Adadelta(Optimizer):
    """``accumulated_grad = rho * accumulated_grad + (1 - rho) * grad**2``,
    ``delta = sqrt(accumulated_delta_var + epsilon) / sqrt(accumulated_grad + epsilon) * grad``,
    ``accumulated_delta_var = rho * accumulated_delta_var + (1 - rho) * delta**2``,
    ``var -= lr * delta``.

    >>> tf.keras.optimizers.Adadelta().get_slot_names()
    ['accumulated_grad', 'accumulated_delta_var']
    """

    _config_keys = ("rho", "epsilon")
    _sparse_decays = (("accumulated_grad", "decay", "rho"),)
    _slot_aliases = {"accum_grad": "accumulated_grad", "accum_var": "accumulated_delta_var"}

    def __init__(self, learning_rate=0.001, rho=0.95, epsilon=1e-7, weight_decay=None,
                 clipnorm=None, clipvalue=None, global_clipnorm=None, use_ema=False,
                 ema_momentum=0.99, ema_overwrite_frequency=None, jit_compile=True,
                 name="Adadelta", **kwargs):
        super().__init__(name, weight_decay=weight_decay, **given_options(
            clipnorm=clipnorm, clipvalue=clipvalue, global_clipnorm=global_clipnorm,
            use_ema=use_ema, ema_momentum=ema_momentum,
            ema_overwrite_frequency=ema_overwrite_frequency, jit_compile=jit_compile),
            **kwargs)
        self._learning_rate = self._build_learning_rate(learning_rate)
        self.rho = rho
        self.epsilon = epsilon

    def _slot_groups(self):
        return [{"accumulated_grad": 0.0, "accumulated_delta_var": 0.0}]

    def _coefficients(self, dtype):
        return self._lr(dtype), self._rate(self.rho), self._constant(self.epsilon, dtype)

    def _apply_dense(self, grad, var, slots, coefficients):
        dispatch(training_ops.ADADELTA, (var, slots["accumulated_grad"],
                                         slots["accumulated_delta_var"], *coefficients, grad))
