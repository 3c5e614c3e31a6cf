"""A TF 1 optimizer as a Keras model's optimizer (``model.compile(optimizer=
tf.compat.v1.train.AdamOptimizer(0.01))``), as tf_keras wraps it: `TFOptimizer`.

The TF 1 optimizer makes its own slots and applies the updates; the wrapper counts the
steps in its ``TFOptimizer/iterations`` variable (the global step it gives the TF 1
optimizer). As in tf_keras, it has no weights, config or learning rate of its own.

>>> opt = tf.keras.optimizers.get(tf.compat.v1.train.GradientDescentOptimizer(0.5))
>>> type(opt).__name__, opt.iterations.name
('TFOptimizer', 'TFOptimizer/iterations:0')
"""
# (the module, not its class: it loads Keras's initializers, which load this)
from eagerflow._src.compat import gradient_descent
from eagerflow._src.core import context, nest
from eagerflow._src.core import dtypes as _d
from eagerflow._src.core.variables import Variable
from eagerflow._src.keras.optimizers.optimizer import recorded_loss


class TFOptimizer:
    """Keras's wrapper of a TF 1 optimizer (``tf.compat.v1.train.Optimizer``)."""

    def __init__(self, optimizer, iterations=None):
        self.optimizer = optimizer
        if iterations is None:
            # (in a TF 1 graph the scope is made unique: TFOptimizer_1/iterations, ...)
            with context.lifting_scope(), context.name_scope("TFOptimizer"):
                # (trainable, as Keras's backend makes variables)
                iterations = Variable(0, dtype=_d.int64, name="iterations")
        self.iterations = iterations

    def _trackable_children(self):
        return [("optimizer", self.optimizer), ("global_step", self.iterations)]

    def build(self, var_list):
        """Makes the TF 1 optimizer's variables (slots, Adam's beta powers) for `var_list`,
        as its first update would: in TF 1's graph mode, variables of the graph the model
        trains in (a ``Saver`` then keeps them), made before its step is traced."""
        # (its variables other than slots named in Keras's ``training`` scope, as tf_keras's)
        with context.name_scope_push("training/"):
            self.optimizer._create_slots(list(var_list))

    def minimize(self, loss, var_list, grad_loss=None, tape=None):
        """Applies the gradients of `loss` (a tensor recorded by `tape`, or a callable) for
        `var_list`."""
        if not callable(loss) and tape is None:
            raise ValueError("`tape` is required when a `Tensor` loss is passed.")
        loss, var_list, tape = recorded_loss(loss, var_list, tape)
        if callable(var_list):
            var_list = var_list()
        var_list = nest.flatten(var_list)
        if var_list:
            grads = tape.gradient(loss, var_list, grad_loss)
            self.apply_gradients(list(zip(grads, var_list)))

    def apply_gradients(self, grads_and_vars):
        """The TF 1 optimizer's update, counted in `iterations`."""
        return self.optimizer.apply_gradients(grads_and_vars, global_step=self.iterations)

    def get_gradients(self, loss, params):
        return self.optimizer.compute_gradients(loss, params)

    def get_updates(self, loss, params):
        grads = self.optimizer.compute_gradients(loss, params)
        return [self.optimizer.apply_gradients(grads, global_step=self.iterations)]

    @property
    def weights(self):
        raise NotImplementedError

    def get_weights(self):
        return [w.numpy() for w in self.weights]

    def set_weights(self, weights):
        raise NotImplementedError

    def get_config(self):
        raise NotImplementedError

    def from_config(self, config):
        raise NotImplementedError


def is_v1_optimizer(value):
    """Whether `value` is a TF 1 optimizer (``tf.compat.v1.train.Optimizer``)."""
    return isinstance(value, gradient_descent.Optimizer)
