"""Adagrad (``tf.keras.optimizers.Adagrad``): per-coordinate rates from summed squared
gradients.

>>> opt = tf.keras.optimizers.Adagrad(learning_rate=0.1)
>>> var = tf.Variable(1.0)
>>> opt.minimize(lambda: var ** 2, [var])
>>> print(var.numpy())
0.90122706
"""
from eagerflow._src.backend.api_export import export
from eagerflow._src.core.dispatch import dispatch
from eagerflow._src.keras.optimizers.optimizer import Optimizer, given_options
from eagerflow._src.ops import training_ops


@export("keras.optimizers.Adagrad", "keras.optimizers.experimental.Adagrad")
class Adagrad(Optimizer):
    """``accumulator += grad**2``, ``var -= lr * grad / sqrt(accumulator + epsilon)``, the
    accumulator starting at `initial_accumulator_value`. A sparse gradient updates only its
    rows.

    >>> tf.keras.optimizers.Adagrad().get_slot_names()
    ['accumulator']
    """

    _config_keys = ("initial_accumulator_value", "epsilon")

    def __init__(self, learning_rate=0.001, initial_accumulator_value=0.1, epsilon=1e-7,
                 weight_decay=None,
                 clipnorm=None, clipvalue=None, global_clipnorm=None, use_ema=False,
                 ema_momentum=0.99, ema_overwrite_frequency=None, jit_compile=True,
                 name="Adagrad", **kwargs):
        super().__init__(name, weight_decay=weight_decay, **given_options(
            clipnorm=clipnorm, clipvalue=clipvalue, global_clipnorm=global_clipnorm,
            use_ema=use_ema, ema_momentum=ema_momentum,
            ema_overwrite_frequency=ema_overwrite_frequency, jit_compile=jit_compile),
            **kwargs)
        self._learning_rate = self._build_learning_rate(learning_rate)
        self.initial_accumulator_value = initial_accumulator_value
        self.epsilon = epsilon

    def _slot_groups(self):
        return [{"accumulator": self.initial_accumulator_value}]

    def _coefficients(self, dtype):
        return self._lr(dtype), self._constant(self.epsilon, dtype)

    # (its accumulator adds the gradient's square alone: a gradient of another shape fails
    # there, as in tf_keras; the legacy Adagrad's fused op refuses it itself)
    _broadcasts_gradients = False
    _accumulates_first = True

    def _apply_dense(self, grad, var, slots, coefficients):
        if (self._accumulates_first and grad.shape.is_fully_defined()
                and grad.shape != var.shape):
            slots["accumulator"].assign_add(grad * grad)  # (raises tf_keras's error)
        dispatch(training_ops.KERAS_ADAGRAD, (var, slots["accumulator"], *coefficients, grad))

    def _apply_sparse(self, grad, var, slots, coefficients):
        dispatch(training_ops.SPARSE_KERAS_ADAGRAD,
                 (var, slots["accumulator"], *coefficients, grad.values, grad.indices))
