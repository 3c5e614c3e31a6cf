"""Adafactor (``tf.keras.optimizers.Adafactor``): Adam-like steps whose second moment of a
matrix is kept factored, as row and column means.

>>> opt = tf.keras.optimizers.Adafactor(learning_rate=0.1)
>>> var = tf.Variable([1.0, 2.0])
>>> opt.minimize(lambda: tf.reduce_sum(var * var), [var])
>>> var.numpy()
array([0.8418861, 1.8418862], dtype=float32)
"""
from eagerflow._src.backend.api_export import export
from eagerflow._src.core import context
from eagerflow._src.core.variables import Variable
from eagerflow._src.keras.optimizers.optimizer import Optimizer, given_options, _shared_name
from eagerflow._src.ops import array_ops, math_ops, reduction_ops


def _rms(x):
    return math_ops.sqrt(reduction_ops.reduce_mean(math_ops.square(x)))


@export("keras.optimizers.Adafactor", "keras.optimizers.experimental.Adafactor")
class Adafactor(Optimizer):
    """Adafactor (Shazeer & Stern). At step ``t`` with ``beta = 1 - t**beta_2_decay``, the
    squared gradient (plus `epsilon_1`) is averaged into ``v``; for a variable of rank 2 or
    more, into its row means ``r`` and column means ``c`` instead, with
    ``v = r / mean(r) * c``. The update ``u = grad / sqrt(v)``, clipped to an RMS of at most
    `clip_threshold`, moves the variable by
    ``min(lr, 1/sqrt(t)) * max(epsilon_2, rms(var)) * u``.

    As in tf_keras, the step size is ``min(lr, 1/sqrt(t))`` whatever `relative_step`.

    >>> tf.keras.optimizers.Adafactor().get_config()["beta_2_decay"]
    -0.8
    """

    _config_keys = ("beta_2_decay", "epsilon_1", "epsilon_2", "clip_threshold",
                    "relative_step")

    def __init__(self, learning_rate=0.001, beta_2_decay=-0.8, epsilon_1=1e-30, epsilon_2=1e-3,
                 clip_threshold=1.0, relative_step=True, weight_decay=None,
                 clipnorm=None, clipvalue=None, global_clipnorm=None, use_ema=False,
                 ema_momentum=0.99, ema_overwrite_frequency=None, jit_compile=True,
                 name="Adafactor", **kwargs):
        super().__init__(name, weight_decay=weight_decay, **given_options(
            clipnorm=clipnorm, clipvalue=clipvalue, global_clipnorm=global_clipnorm,
            use_ema=use_ema, ema_momentum=ema_momentum,
            ema_overwrite_frequency=ema_overwrite_frequency, jit_compile=jit_compile),
            **kwargs)
        self._learning_rate = self._build_learning_rate(learning_rate)
        self.beta_2_decay = beta_2_decay
        self.epsilon_1 = epsilon_1
        self.epsilon_2 = epsilon_2
        self.clip_threshold = clip_threshold
        self.relative_step = relative_step

    def build(self, var_list):
        """Creates, variable by variable, ``r`` and ``c`` (rank 2 or more) and ``v``.

        As in tf_keras, the lists ``_r`` and ``_c`` hold a variable's factors, or an
        integer 0 placeholder for a variable of rank under 2: a checkpoint saves them
        (as ``optimizer/_r/<i>``), and one written by TF restores only where they are.
        """
        if getattr(self, "_built", False):
            return
        super().build(var_list)
        self._r, self._c = [], []
        for var, slots in zip(var_list, self._slots):
            shape = var.shape
            name = _shared_name(var)
            if shape.rank >= 2:
                slots["r"] = self.add_variable(shape[:-1], var.dtype, name=f"r/{name}")
                slots["c"] = self.add_variable(shape[:-2].concatenate(shape[-1:]), var.dtype,
                                               name=f"c/{name}")
                self._r.append(slots["r"])
                self._c.append(slots["c"])
            else:
                with context.init_scope():
                    self._r.append(Variable(0, name=f"r/{name}"))
                    self._c.append(Variable(0, name=f"c/{name}"))
            slots["v"] = self.add_variable_from_reference(var, "v")
        self._built = True

    def _coefficients(self, dtype):
        step = self._local_step(dtype)
        beta = 1.0 - math_ops.pow(step, self._constant(self.beta_2_decay, dtype))
        return math_ops.minimum(self._lr(dtype), math_ops.rsqrt(step)), beta

    def _apply_dense(self, grad, var, slots, coefficients):
        rate, beta = coefficients
        dtype = var.dtype
        step_size = math_ops.maximum(self._cast(self.epsilon_2, dtype), _rms(var)) * rate
        squared = math_ops.square(grad) + self._constant(self.epsilon_1, dtype)
        if "r" in slots:
            r = beta * slots["r"] + (1.0 - beta) * reduction_ops.reduce_mean(squared, axis=-1)
            c = beta * slots["c"] + (1.0 - beta) * reduction_ops.reduce_mean(squared, axis=-2)
            slots["r"].assign(r)
            slots["c"].assign(c)
            v = (array_ops.expand_dims(r / reduction_ops.reduce_mean(r, axis=-1, keepdims=True),
                                       -1) * array_ops.expand_dims(c, -2))
        else:
            v = beta * slots["v"] + (1.0 - beta) * squared
        slots["v"].assign(v)
        update = grad * math_ops.rsqrt(v)
        clip = self._constant(self.clip_threshold, dtype)
        update = update / math_ops.maximum(self._constant(1.0, dtype), _rms(update) / clip)
        var.assign_add(-step_size * update)
