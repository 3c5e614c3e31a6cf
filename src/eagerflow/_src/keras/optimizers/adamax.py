"""Adamax (``tf.keras.optimizers.Adamax``): Adam with the infinity norm.

>>> opt = tf.keras.optimizers.Adamax(learning_rate=0.1)
>>> var = tf.Variable(1.0)
>>> opt.minimize(lambda: var ** 2, [var])
>>> print(var.numpy())
0.90000004
"""
from eagerflow._src.backend.api_export import export
from eagerflow._src.keras.optimizers.optimizer import Optimizer, given_options
from eagerflow._src.ops import array_ops, math_ops
from eagerflow._src.ops.indexed_slices import IndexedSlices


@export("keras.optimizers.Adamax", "keras.optimizers.experimental.Adamax")
class Adamax(Optimizer):
    """``m`` the moving average of the gradient, ``u = max(beta_2 * u, |grad|)``,
    ``var -= lr / (1 - beta_1**t) * m / (u + epsilon)``.

    >>> tf.keras.optimizers.Adamax().get_slot_names()
    ['m', 'u']
    """

    _config_keys = ("beta_1", "beta_2", "epsilon")
    _sparse_decays = (("m", "decay", "beta_1"), ("u", "scale", "beta_2"))
    _slot_aliases = {"v": "u"}

    def __init__(self, learning_rate=0.001, beta_1=0.9, beta_2=0.999, epsilon=1e-7,
                 weight_decay=None,
                 clipnorm=None, clipvalue=None, global_clipnorm=None, use_ema=False,
                 ema_momentum=0.99, ema_overwrite_frequency=None, jit_compile=True,
                 name="Adamax", **kwargs):
        super().__init__(name, weight_decay=weight_decay, **given_options(
            clipnorm=clipnorm, clipvalue=clipvalue, global_clipnorm=global_clipnorm,
            use_ema=use_ema, ema_momentum=ema_momentum,
            ema_overwrite_frequency=ema_overwrite_frequency, jit_compile=jit_compile),
            **kwargs)
        self._learning_rate = self._build_learning_rate(learning_rate)
        self.beta_1 = beta_1
        self.beta_2 = beta_2
        self.epsilon = epsilon

    def _slot_groups(self):
        return [{"m": 0.0, "u": 0.0}]

    def _coefficients(self, dtype):
        beta_1_power = math_ops.pow(self._cast(self.beta_1, dtype), self._local_step(dtype))
        return (beta_1_power, self._lr(dtype), self._rate(self.beta_1),
                self._number_hyper(self.beta_2, dtype), self._constant(self.epsilon, dtype))

    def _apply_dense(self, grad, var, slots, coefficients):
        # tf_keras's step, in its order of operations (TF's AdaMax kernel, which the legacy
        # Adamax runs, divides m by u first)
        beta_1_power, lr, _, beta_2, epsilon = coefficients
        m, u = slots["m"], slots["u"]
        m.assign_add((grad - m) * self._constant(1 - self.beta_1, var.dtype))
        u.assign(math_ops.maximum(beta_2 * u, math_ops.abs(grad)))
        var.assign_sub((lr * m) / ((1 - beta_1_power) * (u + epsilon)))

    def _apply_sparse(self, grad, var, slots, coefficients):
        # tf_keras's sparse step, in its order of operations: every row of m and u decays,
        # the gradient's rows are added in, then every row of var moves
        beta_1_power, lr, _, beta_2, epsilon = coefficients
        m, u, dtype = slots["m"], slots["u"], var.dtype
        one_minus_beta_1 = self._constant(1 - self.beta_1, dtype)
        m.assign_add(-m * one_minus_beta_1)
        m.scatter_add(IndexedSlices(grad.values * one_minus_beta_1, grad.indices))
        u.assign(u * beta_2)
        rows = array_ops.gather(u, grad.indices)
        u.scatter_add(IndexedSlices(math_ops.maximum(rows, math_ops.abs(grad.values)) - rows,
                                    grad.indices))
        var.assign_sub((lr * m) / ((1 - beta_1_power) * (u + epsilon)))
