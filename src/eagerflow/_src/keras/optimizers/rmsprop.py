"""RMSprop (``tf.keras.optimizers.RMSprop``): steps divided by a moving RMS of the gradient.

>>> opt = tf.keras.optimizers.RMSprop(learning_rate=0.1)
>>> var = tf.Variable(1.0)
>>> opt.minimize(lambda: var ** 2, [var])
>>> round(float(var), 4)
0.6838
"""
from eagerflow._src.backend.api_export import export
from eagerflow._src.core.dispatch import dispatch
from eagerflow._src.keras.optimizers.optimizer import Optimizer, given_options
from eagerflow._src.ops import training_ops


@export("keras.optimizers.RMSprop", "keras.optimizers.experimental.RMSprop")
class RMSprop(Optimizer):
    """``velocity = rho * velocity + (1 - rho) * grad**2``,
    ``step = lr * grad / sqrt(velocity + epsilon)``; `centered` subtracts the squared moving
    average of the gradient from the velocity; `momentum` > 0 accumulates the steps.

    >>> tf.keras.optimizers.RMSprop(momentum=0.9, centered=True).get_slot_names()
    ['velocity', 'momentum', 'average_gradient']
    """

    _config_keys = ("rho", "momentum", "epsilon", "centered")
    _sparse_decays = (("velocity", "scale", "rho"), ("average_gradient", "scale", "rho"),
                      ("momentum", "scale", "momentum"))
    _slot_aliases = {"rms": "velocity", "mg": "average_gradient"}

    def __init__(self, learning_rate=0.001, rho=0.9, momentum=0.0, epsilon=1e-7,
                 centered=False, weight_decay=None, clipnorm=None, clipvalue=None,
                 global_clipnorm=None, use_ema=False, ema_momentum=0.99,
                 ema_overwrite_frequency=100, jit_compile=True, name="RMSprop", **kwargs):
        super().__init__(name, weight_decay=weight_decay,
                         ema_overwrite_frequency=ema_overwrite_frequency, **given_options(
                             clipnorm=clipnorm, clipvalue=clipvalue,
                             global_clipnorm=global_clipnorm, use_ema=use_ema,
                             ema_momentum=ema_momentum, jit_compile=jit_compile),
                         **kwargs)
        self._learning_rate = self._build_learning_rate(learning_rate)
        self.rho = rho
        self.momentum = momentum
        self.epsilon = epsilon
        self.centered = centered

    def _slot_groups(self):
        groups = [{"velocity": 0.0}]
        if self.momentum > 0:
            groups.append({"momentum": 0.0})
        if self.centered:
            groups.append({"average_gradient": 0.0})
        return groups

    def _coefficients(self, dtype):
        return (self._lr(dtype), self._rate(self.rho), self._number_hyper(self.momentum, dtype),
                self._constant(self.epsilon, dtype))

    def _apply_dense(self, grad, var, slots, coefficients):
        # Without a momentum slot the op takes the momentum scalar in its place.
        mom = slots.get("momentum", coefficients[2])
        if self.centered:
            dispatch(training_ops.CENTERED_RMS_PROP,
                     (var, slots["average_gradient"], slots["velocity"], mom, *coefficients,
                      grad))
        else:
            dispatch(training_ops.RMS_PROP, (var, slots["velocity"], mom, *coefficients, grad))
