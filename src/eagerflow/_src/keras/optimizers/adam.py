"""Adam (``tf.keras.optimizers.Adam``): steps scaled by running moments of the gradient.

>>> opt = tf.keras.optimizers.Adam(learning_rate=0.1)
>>> var = tf.Variable(1.0)
>>> opt.minimize(lambda: var ** 2, [var])
>>> print(var.numpy())
0.9000008
"""
from eagerflow._src.backend.api_export import export
from eagerflow._src.core.dispatch import dispatch
from eagerflow._src.keras.optimizers.optimizer import Optimizer, given_options
from eagerflow._src.ops import math_ops, training_ops


@export("keras.optimizers.Adam", "keras.optimizers.experimental.Adam")
class Adam(Optimizer):
    """Adam (Kingma & Ba): ``m``, ``v`` the moving averages of the gradient and its square,
    ``var -= lr * sqrt(1 - beta_2**t) / (1 - beta_1**t) * m / (sqrt(v) + epsilon)``.

    `amsgrad` divides by the running maximum of ``v`` (slot ``vhat``);
    `adaptive_epsilon` scales epsilon by ``sqrt(1 - beta_2**t)``. A sparse
    gradient decays the moments of every row, as in tf_keras.

    >>> opt = tf.keras.optimizers.Adam(learning_rate=0.1, amsgrad=True)
    >>> var = tf.Variable([1.0, 2.0])
    >>> int(opt.apply_gradients([(tf.constant([1.0, -1.0]), var)]))
    1
    >>> var.numpy()
    array([0.900001, 2.099999], dtype=float32)
    """

    _config_keys = ("beta_1", "beta_2", "epsilon", "amsgrad")
    _sparse_decays = (("m", "decay", "beta_1"), ("v", "decay", "beta_2"))

    def __init__(self, learning_rate=0.001, beta_1=0.9, beta_2=0.999, epsilon=1e-7,
                 adaptive_epsilon=False, amsgrad=False, weight_decay=None,
                 clipnorm=None, clipvalue=None, global_clipnorm=None, use_ema=False,
                 ema_momentum=0.99, ema_overwrite_frequency=None, jit_compile=True,
                 name="Adam", **kwargs):
        super().__init__(name, weight_decay=weight_decay, **given_options(
            clipnorm=clipnorm, clipvalue=clipvalue, global_clipnorm=global_clipnorm,
            use_ema=use_ema, ema_momentum=ema_momentum,
            ema_overwrite_frequency=ema_overwrite_frequency, jit_compile=jit_compile),
            **kwargs)
        self._learning_rate = self._build_learning_rate(learning_rate)
        self.beta_1 = beta_1
        self.beta_2 = beta_2
        self.epsilon = epsilon
        self.adaptive_epsilon = adaptive_epsilon
        self.amsgrad = amsgrad

    def _slot_groups(self):
        return [{"m": 0.0, "v": 0.0}] + ([{"vhat": 0.0}] if self.amsgrad else [])

    def _coefficients(self, dtype):
        step = self._local_step(dtype)
        beta_2_power = math_ops.pow(self._cast(self.beta_2, dtype), step)
        epsilon = self._constant(self.epsilon, dtype)
        if self.adaptive_epsilon:
            epsilon = epsilon * math_ops.sqrt(1 - beta_2_power)
        return (math_ops.pow(self._cast(self.beta_1, dtype), step), beta_2_power,
                self._lr(dtype), self._rate(self.beta_1), self._rate(self.beta_2), epsilon)

    def _apply_dense(self, grad, var, slots, coefficients):
        if self.amsgrad:
            dispatch(training_ops.ADAM_WITH_AMSGRAD,
                     (var, slots["m"], slots["v"], slots["vhat"], *coefficients, grad))
        else:
            dispatch(training_ops.ADAM, (var, slots["m"], slots["v"], *coefficients, grad))
