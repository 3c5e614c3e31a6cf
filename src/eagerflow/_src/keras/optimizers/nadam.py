"""Nadam (``tf.keras.optimizers.Nadam``): Adam with Nesterov momentum.

>>> opt = tf.keras.optimizers.Nadam(learning_rate=0.1)
>>> var = tf.Variable(1.0)
>>> opt.minimize(lambda: var ** 2, [var])
>>> print(var.numpy())
0.8937212
"""
from eagerflow._src.backend.api_export import export
from eagerflow._src.core import context
from eagerflow._src.core import dtypes as _d
from eagerflow._src.core.dispatch import dispatch
from eagerflow._src.core.variables import Variable
from eagerflow._src.keras.optimizers.optimizer import Optimizer, given_options
from eagerflow._src.ops import array_ops, math_ops, training_ops
from eagerflow._src.ops.cast_ops import cast


@export("keras.optimizers.Nadam", "keras.optimizers.experimental.Nadam")
class Nadam(Optimizer):
    """Adam's moments with a momentum schedule ``u_t = beta_1 * (1 - 0.5 * 0.96**t)``
    (Dozat): the step uses ``u_{t+1} m / (1 - prod u_1..u_{t+1}) +
    (1 - u_t) grad / (1 - prod u_1..u_t)`` in place of Adam's ``m``.

    As in tf_keras, each variable's update reads the running product, advancing it first
    unless a count of its advances says it is current: eagerly it advances once per step;
    a traced step compares the count as it stood when the step was traced (the count grows
    once per variable traced), so it advances once per variable there, but on the step
    when the count traced for a variable is current.

    >>> tf.keras.optimizers.Nadam().get_slot_names()
    ['m', 'v']
    """

    _config_keys = ("beta_1", "beta_2", "epsilon")
    # (its rates cast to float32 before their complements are taken)
    _sparse_decays = (("m", "decay_cast", "beta_1"), ("v", "decay_cast", "beta_2"))

    def __init__(self, learning_rate=0.001, beta_1=0.9, beta_2=0.999, epsilon=1e-7,
                 weight_decay=None,
                 clipnorm=None, clipvalue=None, global_clipnorm=None, use_ema=False,
                 ema_momentum=0.99, ema_overwrite_frequency=None, jit_compile=True,
                 name="Nadam", **kwargs):
        super().__init__(name, weight_decay=weight_decay, **given_options(
            clipnorm=clipnorm, clipvalue=clipvalue, global_clipnorm=global_clipnorm,
            use_ema=use_ema, ema_momentum=ema_momentum,
            ema_overwrite_frequency=ema_overwrite_frequency, jit_compile=jit_compile),
            **kwargs)
        self._learning_rate = self._build_learning_rate(learning_rate)
        self.beta_1 = beta_1
        self.beta_2 = beta_2
        self.epsilon = epsilon

    def build(self, var_list):
        if getattr(self, "_built", False):
            return
        # (made before the slots, as in tf_keras: a checkpoint restored before the first
        # step, waiting for the slots, restores it with them)
        with context.init_scope():
            self._u_product = self._new_u_product(var_list[0].dtype)
            # The step `_u_product` last advanced at: it advances once per step, however
            # many dtypes (or direct `update_step` calls) read it.
            self._u_product_step = Variable(0, dtype=_d.int64, trainable=False)
        # tf_keras's count (a Python number) of the product's advances, plus one
        self._u_product_counter = 1
        super().build(var_list)
        self._built = True

    def _checkpoint_items(self):
        # (`_u_product_step` is our own bookkeeping: checkpoints hold tf_keras's variables)
        return [(k, v) for k, v in super()._checkpoint_items() if k != "_u_product_step"]

    def _new_u_product(self, dtype):
        return Variable(1.0, dtype=dtype, trainable=False)

    def _slot_groups(self):
        return [{"m": 0.0, "v": 0.0}]

    def _momentum_at(self, step, dtype):
        """u_step, in `dtype`."""
        decay = self._cast(0.96, dtype)
        return self._cast(self.beta_1, dtype) * (1.0 - 0.5 * math_ops.pow(decay, step))

    def _u_product_until(self, step):
        """prod u_1..u_step, with `step` the step being applied (an int64 tensor)."""
        dtype = self._u_product.dtype
        advanced = math_ops.equal(self._u_product_step, step)
        u_product = array_ops.where(advanced, self._u_product.value(), self._u_product
                                    * self._momentum_at(cast(step, dtype), dtype))
        self._u_product.assign(u_product)
        self._u_product_step.assign(step)
        return u_product

    def _counted_u_product(self, u_t):
        """prod u_1..u_t as tf_keras's update of one variable reads it (see the class)."""
        counter = self._u_product_counter
        if context.executing_eagerly():
            if counter == int(self._iterations.numpy()) + 2:
                return self._u_product.value()
            self._u_product_counter += 1
            return self._u_product.assign(self._u_product * u_t).value()
        self._u_product_counter += 1  # once per variable traced, as the branch's trace
        current = math_ops.equal(self._iterations + 2, self._constant(counter, _d.int64))
        u_product = array_ops.where(current, self._u_product.value(), self._u_product * u_t)
        return self._u_product.assign(u_product).value()

    def update_step(self, gradient, variable):
        """Updates `variable`; the step's scalars are computed for each variable, as
        tf_keras's advance of the momentum product is."""
        self._apply(gradient, variable, self._coefficients(variable.dtype, counted=True))

    def _coefficients(self, dtype, counted=False):
        step = self._local_step(dtype)
        u_t, u_next = self._momentum_at(step, dtype), self._momentum_at(step + 1, dtype)
        if counted:
            u_product = cast(self._counted_u_product(cast(u_t, self._u_product.dtype)), dtype)
        else:
            u_product = cast(self._u_product_until(self._iterations + 1), dtype)
        beta_2 = self._cast(self.beta_2, dtype)
        return (self._lr(dtype), self._cast(self.beta_1, dtype), beta_2,
                math_ops.pow(beta_2, step), u_next / (1.0 - u_product * u_next),
                (1.0 - u_t) / (1.0 - u_product), self._constant(self.epsilon, dtype))

    def _apply_dense(self, grad, var, slots, coefficients):
        dispatch(training_ops.KERAS_NADAM, (var, slots["m"], slots["v"], *coefficients, grad))
