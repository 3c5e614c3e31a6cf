"""Stochastic gradient descent, with (Nesterov) momentum (``tf.keras.optimizers.SGD``).

>>> opt = tf.keras.optimizers.SGD(learning_rate=0.1, momentum=0.9)
>>> var = tf.Variable(1.0)
>>> opt.minimize(lambda: var ** 2 / 2.0, [var])
>>> print(var.numpy())
0.9
"""
from eagerflow._src.backend.api_export import export
from eagerflow._src.core.dispatch import dispatch
from eagerflow._src.keras.optimizers.optimizer import Optimizer, given_options, _is_zero
from eagerflow._src.ops.indexed_slices import IndexedSlices
from eagerflow._src.ops import training_ops


@export("keras.optimizers.SGD", "keras.optimizers.experimental.SGD")
class SGD(Optimizer):
    """``var -= learning_rate * grad``; with momentum,
    ``m = momentum * m - learning_rate * grad`` and ``var += m``
    (Nesterov: ``var += momentum * m - learning_rate * grad``).

    Each variable gets a slot ``m`` as in tf_keras, updated even without momentum
    (it then holds the last step, ``-learning_rate * grad``, and an inf or nan in it
    stays in the variable's next steps, as in tf_keras).

    >>> opt = tf.keras.optimizers.SGD(learning_rate=0.1)
    >>> var = tf.Variable(1.0)
    >>> opt.minimize(lambda: var ** 2 / 2.0, [var])
    >>> print(var.numpy())
    0.9
    """

    _config_keys = ("momentum", "nesterov")
    _sparse_decays = (("m", "scale", "momentum"),)
    _slot_aliases = {"momentum": "m"}

    def __init__(self, learning_rate=0.01, momentum=0.0, nesterov=False, weight_decay=None,
                 clipnorm=None, clipvalue=None, global_clipnorm=None, use_ema=False,
                 ema_momentum=0.99, ema_overwrite_frequency=None, jit_compile=True,
                 name="SGD", **kwargs):
        super().__init__(name, weight_decay=weight_decay, **given_options(
            clipnorm=clipnorm, clipvalue=clipvalue, global_clipnorm=global_clipnorm,
            use_ema=use_ema, ema_momentum=ema_momentum,
            ema_overwrite_frequency=ema_overwrite_frequency, jit_compile=jit_compile),
            **kwargs)
        self._learning_rate = self._build_learning_rate(learning_rate)
        self.momentum = momentum
        self.nesterov = nesterov
        if isinstance(momentum, (int, float)) and (momentum < 0 or momentum > 1):
            raise ValueError("`momentum` must be between [0, 1].")

    def _slot_groups(self):
        return [{"m": 0.0}]

    # (the legacy SGD, as TF's OptimizerV2, steps without a slot when it has no momentum)
    _plain_without_momentum = False

    def _coefficients(self, dtype):
        if self._plain_without_momentum and _is_zero(self.momentum):
            return self._lr(dtype), None
        return self._lr(dtype), self._cast(self.momentum, dtype)

    def _apply_dense(self, grad, var, slots, coefficients):
        # tf_keras's step, with or without momentum: m = -lr * grad + m * momentum; var += m
        lr, momentum = coefficients
        if momentum is None:
            dispatch(training_ops.GRADIENT_DESCENT, (var, lr, grad))
        else:
            dispatch(training_ops.KERAS_MOMENTUM, (var, slots["m"], lr, grad, momentum),
                     {"use_nesterov": bool(self.nesterov)})

    def _apply_sparse(self, grad, var, slots, coefficients):
        lr, momentum = coefficients
        if momentum is None:
            dispatch(training_ops.SPARSE_GRADIENT_DESCENT, (var, lr, grad.values, grad.indices))
            return
        # tf_keras's sparse step: every row of m decays, the gradient's rows are added to it
        # (their out-of-range indices are the scatter's error), then var moves by m
        m = slots["m"]
        step = IndexedSlices(-grad.values * lr, grad.indices, grad.dense_shape)
        m.assign(m * momentum)
        m.scatter_add(step)
        if self.nesterov:
            var.scatter_add(step)
            var.assign_add(m * momentum)
        else:
            var.assign_add(m)
