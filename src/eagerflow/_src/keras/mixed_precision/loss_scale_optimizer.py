"""`LossScaleOptimizer` (``tf.keras.mixed_precision``): loss scaling around another optimizer.

float16 gradients of small magnitude flush to zero. Multiplying the loss by
a large "loss scale" scales every gradient up by the same factor; dividing
the gradients by it afterwards brings them back. With a dynamic scale
(the default) a step whose gradients overflow (inf or nan) is skipped and
the scale halved; after `dynamic_growth_steps` finite steps in a row it is
doubled. `Model.compile` wraps the optimizer in one under ``mixed_float16``.

>>> opt = tf.keras.mixed_precision.LossScaleOptimizer(tf.keras.optimizers.SGD(0.25))
>>> var = tf.Variable(1.0)
>>> opt.minimize(lambda: var ** 2, var_list=[var])
>>> print(var.numpy())
0.5
"""

from eagerflow._src.backend import log as _log
from eagerflow._src.autodiff.tape import GradientTape
from eagerflow._src.backend.api_export import export
from eagerflow._src.core import context, distribution_context
from eagerflow._src.core import module as module_lib
from eagerflow._src.core import dtypes as _d
from eagerflow._src.core.convert import convert_to_tensor
from eagerflow._src.core.variables import Variable
from eagerflow._src.graph.control_flow import cond
from eagerflow._src.keras import optimizers
from eagerflow._src.keras.optimizers.optimizer import (Optimizer, _filter_empty_gradients,
                                                     sum_over_replicas)
from eagerflow._src.ops import array_ops, math_ops, reduction_ops
from eagerflow._src.ops.cast_ops import cast
from eagerflow._src.ops.indexed_slices import IndexedSlices

_logger = _log.logger
# High: a scale too high is lowered within a few (skipped) steps, one too low rises slowly.
_DEFAULT_INITIAL_SCALE = 2 ** 15
_DEFAULT_GROWTH_STEPS = 2000


def _all_finite(grads):
    """A bool scalar: whether every value of every gradient (dense or sparse) is finite."""
    return reduction_ops.reduce_all(array_ops.stack([
        reduction_ops.reduce_all(math_ops.is_finite(
            g.values if isinstance(g, IndexedSlices) else g)) for g in grads]))


def _multiply_gradient(grad, scale):
    scale = cast(scale, grad.dtype)
    if isinstance(grad, IndexedSlices):
        return IndexedSlices(grad.values * scale, grad.indices, grad.dense_shape)
    return grad * scale


@export("keras.mixed_precision.LossScaleOptimizer")
class LossScaleOptimizer(Optimizer):
    """An optimizer that scales the loss up and the gradients back down, around
    `inner_optimizer`, so that float16 gradients do not underflow.

    `minimize` (and so `Model.fit`) does the scaling. With a `GradientTape`,
    scale the loss with `get_scaled_loss` and unscale the gradients with
    `get_unscaled_gradients` before `apply_gradients`:

    >>> opt = tf.keras.mixed_precision.LossScaleOptimizer(tf.keras.optimizers.SGD(0.25),
    ...                                                   initial_scale=8)
    >>> var = tf.Variable(1.0)
    >>> with tf.GradientTape() as tape:
    ...     scaled_loss = opt.get_scaled_loss(var ** 2)
    >>> (grad,) = opt.get_unscaled_gradients(tape.gradient(scaled_loss, [var]))
    >>> opt.apply_gradients([(grad, var)])
    >>> print(var.numpy())
    0.5

    Arguments: `dynamic` (update the scale over time; else the scale is the
    fixed `initial_scale`, which must be given), `initial_scale` (dynamic
    default ``2 ** 15``) and `dynamic_growth_steps` (finite steps before the
    scale doubles, default 2000; dynamic only). The learning rate,
    `iterations`, `variables` and the slots are the inner optimizer's.
    """

    # Its configs' module and registered name, tf_keras's
    _serialized_module = "tf_keras.src.mixed_precision.loss_scale_optimizer"
    _serialized_registered_name = "LossScaleOptimizer"

    def __new__(cls, inner_optimizer=None, *args, **kwargs):
        # As tf_keras: around a (non-legacy) Keras optimizer, a LossScaleOptimizerV3
        from eagerflow._src.keras.optimizers import legacy  # noqa: PLC0415 (it imports us)
        if cls is LossScaleOptimizer and isinstance(inner_optimizer, Optimizer) and \
                not isinstance(inner_optimizer, legacy.OptimizerV2):
            cls = LossScaleOptimizerV3
        return super().__new__(cls)

    def __init__(self, inner_optimizer, dynamic=True, initial_scale=None,
                 dynamic_growth_steps=None):
        if not isinstance(inner_optimizer, Optimizer):
            raise TypeError(f'"inner_optimizer" must be an instance of '
                            f'`tf.keras.optimizers.Optimizer` or '
                            f'`tf.keras.optimizers.experimental.Optimizer`, but got: '
                            f'{inner_optimizer}.')
        if not isinstance(dynamic, bool):
            # A string or number here is most likely a loss scale in the second position.
            raise TypeError(f'"dynamic" argument to LossScaleOptimizer.__init__ must be a bool, '
                            f'but got: {dynamic!r}')
        if isinstance(inner_optimizer, LossScaleOptimizer):
            raise TypeError(f"LossScaleOptimizer cannot wrap another LossScaleOptimizer, but "
                            f"got: {inner_optimizer}")
        if getattr(inner_optimizer, "_is_wrapped_by_loss_scale_optimizer", False):
            raise ValueError('"inner_optimizer" is already wrapped by a LossScaleOptimizer. An '
                             'optimizer can only be wrapped by a single LossScaleOptimizer')
        if dynamic:
            self._initial = float(_DEFAULT_INITIAL_SCALE if initial_scale is None
                                  else initial_scale)
            self._growth_steps = int(_DEFAULT_GROWTH_STEPS if dynamic_growth_steps is None
                                     else dynamic_growth_steps)
            with context.init_scope():
                self._scale = Variable(self._initial, name="current_loss_scale",
                                       dtype=_d.float32, trainable=False)
                # Finite steps in a row since the scale last changed.
                self._counter = Variable(0, name="good_steps", dtype=_d.int64, trainable=False)
        else:
            if initial_scale is None:
                raise ValueError('"initial_scale" must be specified if "dynamic" is False')
            self._initial = self._scale = float(initial_scale)
            if dynamic_growth_steps is not None:
                raise ValueError(f'"dynamic_growth_steps" must be None if "dynamic" is False, '
                                 f'but got: {dynamic_growth_steps}')
            self._counter = self._growth_steps = None
        self._optimizer = inner_optimizer
        inner_optimizer._is_wrapped_by_loss_scale_optimizer = True
        self._loss_has_been_scaled = self._gradients_have_been_unscaled = False

    def _checkpoint_items(self):
        # The inner optimizer's variables keep their keys when it gets wrapped; the dynamic
        # scale's state is saved under ``loss_scale/``.
        return self._optimizer._checkpoint_items() + self._loss_scale_items()

    def _loss_scale_items(self):
        if not self.dynamic:
            return []
        return [("loss_scale", {"current_loss_scale": self._scale,
                                "good_steps": self._counter})]

    def _trackable_children(self):
        if self._wraps_legacy:  # (TF's OptimizerV2 layout, the inner one's)
            return self._optimizer._trackable_children() + self._loss_scale_items()
        return super()._trackable_children()

    def _checkpoint_slot_variables(self):
        """A legacy inner optimizer's slots, saved by variable as its own are (none for
        another one's, whose slots are among its variables)."""
        if self._wraps_legacy:
            return self._optimizer._checkpoint_slot_variables()
        return []

    @property
    def _wraps_legacy(self):
        """Whether the inner optimizer is a legacy one (``tf.keras.optimizers.legacy``)."""
        from eagerflow._src.keras.optimizers import legacy  # noqa: PLC0415 (it imports us)
        return isinstance(self._optimizer, legacy.OptimizerV2)

    # -- the loss scale ---------------------------------------------------------------
    @property
    def dynamic(self):
        """Whether the loss scale is updated over time."""
        return self._counter is not None

    @property
    def loss_scale(self):
        """The current loss scale, a float32 scalar tensor."""
        return convert_to_tensor(self._scale, dtype=_d.float32)

    @property
    def dynamic_counter(self):
        """The int64 variable counting finite steps since the scale last changed (None when
        the scale is fixed)."""
        return self._counter

    @property
    def initial_scale(self):
        """The loss scale at the start (the scale itself when fixed), a float."""
        return self._initial

    @property
    def dynamic_growth_steps(self):
        """The number of finite steps in a row after which the scale doubles (None when
        fixed)."""
        return self._growth_steps

    @property
    def inner_optimizer(self):
        """The optimizer this one wraps."""
        return self._optimizer

    def get_scaled_loss(self, loss):
        """`loss` (a tensor, or a callable returning one) times the loss scale.

        >>> opt = tf.keras.mixed_precision.LossScaleOptimizer(tf.keras.optimizers.SGD(),
        ...                                                   initial_scale=4)
        >>> opt.get_scaled_loss(tf.constant(1.5))
        <tf.Tensor: shape=(), dtype=float32, numpy=6.0>
        """
        self._loss_has_been_scaled = True
        if callable(loss):
            def scaled_loss():
                value = convert_to_tensor(loss())
                return value * cast(self.loss_scale, value.dtype)
            return scaled_loss
        loss = convert_to_tensor(loss)
        return loss * cast(self.loss_scale, loss.dtype)

    def get_unscaled_gradients(self, grads):
        """`grads` divided by the loss scale (None entries stay None).

        >>> opt = tf.keras.mixed_precision.LossScaleOptimizer(tf.keras.optimizers.SGD(),
        ...                                                   initial_scale=4)
        >>> opt.get_unscaled_gradients([tf.constant(2.0), None])
        [<tf.Tensor: shape=(), dtype=float32, numpy=0.5>, None]
        """
        self._gradients_have_been_unscaled = True
        reciprocal = 1.0 / self.loss_scale
        return [None if g is None else _multiply_gradient(g, reciprocal) for g in grads]

    # -- steps --------------------------------------------------------------------------
    def compute_gradients(self, loss, var_list, tape=None):
        """The unscaled gradients of the scaled `loss`, as ``[(gradient, variable)]``."""
        tape = GradientTape() if tape is None else tape
        with tape:  # the tape records the scaling too
            loss = self.get_scaled_loss(loss)
        grads_and_vars = self._optimizer.compute_gradients(loss, var_list, tape)
        grads = self.get_unscaled_gradients([g for g, _ in grads_and_vars])
        return list(zip(grads, [v for _, v in grads_and_vars]))

    def apply_gradients(self, grads_and_vars, name=None, skip_gradients_aggregation=False,
                        **kwargs):
        """Applies the (unscaled) gradients with the inner optimizer and updates a dynamic
        scale. A step with an inf or nan gradient only counts in `iterations`: the variables
        keep their values and the scale is halved. Returns None."""
        grads_and_vars = list(grads_and_vars)
        with context.init_scope():
            self.build([v for _, v in grads_and_vars])
        self._warn_if_not_scaled()
        grads_and_vars = _filter_empty_gradients(grads_and_vars)
        if not self.dynamic:
            self._optimizer.apply_gradients(grads_and_vars, name=name,
                                            skip_gradients_aggregation=skip_gradients_aggregation)
            return None
        replica = distribution_context.synced_replica()
        if replica is not None and not skip_gradients_aggregation:
            # summed first: the replicas see the same gradients and skip or step together
            grads_and_vars = sum_over_replicas(replica, grads_and_vars)
            skip_gradients_aggregation = True
        finite = self._update_scale([g for g, _ in grads_and_vars])

        # Each branch returns a tensor, as a traced `cond` needs one.
        def apply():
            self._optimizer.apply_gradients(grads_and_vars, name=name,
                                            skip_gradients_aggregation=skip_gradients_aggregation)
            return self._optimizer.iterations.read_value()

        def skip():
            return self._optimizer.iterations.assign_add(1).read_value()

        cond(finite, apply, skip)
        return None

    def _update_scale(self, grads):
        """Updates the dynamic scale after a step on `grads`; returns whether they are all
        finite (a bool tensor). Selections, not Python branches: the values are tensors."""
        finite = _all_finite(grads)
        scale, counter = self._scale.read_value(), self._counter.read_value()
        grow = math_ops.greater_equal(counter + 1, self._growth_steps)
        doubled = scale * 2.0
        grown = array_ops.where(math_ops.logical_and(grow, math_ops.is_finite(doubled)),
                                doubled, scale)
        self._scale.assign(array_ops.where(finite, grown, math_ops.maximum(scale / 2.0, 1.0)))
        self._counter.assign(array_ops.where(
            math_ops.logical_and(finite, math_ops.logical_not(grow)),
            counter + 1, array_ops.zeros_like(counter)))
        return finite

    def _warn_if_not_scaled(self):
        missing = [f"{name}()" for name, done in (
            ("get_scaled_loss", self._loss_has_been_scaled),
            ("get_unscaled_gradients", self._gradients_have_been_unscaled)) if not done]
        if missing:
            _logger.warning(
                f"LossScaleOptimizer.apply_gradients() was called but "
                f"{' and '.join(missing)} never was: with a GradientTape, scale the loss with "
                f"get_scaled_loss() inside the tape and unscale the gradients with "
                f"get_unscaled_gradients() before applying them (minimize() does both). "
                f"Without loss scaling the model will likely train worse.")

    # -- the inner optimizer's state ------------------------------------------------------
    def build(self, var_list):
        """Builds the inner optimizer for `var_list`."""
        self._optimizer.build(var_list)
        # A checkpoint read into this optimizer before it was built waits on it (the inner
        # optimizer's variables are its children) for the slots just made.
        module_lib.tracked(self)

    @property
    def name(self):
        return self._optimizer.name

    @property
    def iterations(self):
        return self._optimizer.iterations

    @iterations.setter
    def iterations(self, variable):
        self._optimizer.iterations = variable

    @property
    def variables(self):
        return self._optimizer.variables

    @property
    def weights(self):
        """The inner optimizer's weights (a legacy optimizer's variables)."""
        if not hasattr(self._optimizer, "weights"):
            raise AttributeError(f"'{type(self).__name__}' object has no attribute 'weights'")
        return self._optimizer.weights

    @property
    def learning_rate(self):
        return self._optimizer.learning_rate

    @learning_rate.setter
    def learning_rate(self, learning_rate):
        self._optimizer.learning_rate = learning_rate

    lr = learning_rate

    @property
    def use_ema(self):
        return self._optimizer.use_ema

    @use_ema.setter
    def use_ema(self, use_ema):
        self._optimizer.use_ema = use_ema

    @property
    def ema_momentum(self):
        return self._optimizer.ema_momentum

    @ema_momentum.setter
    def ema_momentum(self, ema_momentum):
        self._optimizer.ema_momentum = ema_momentum

    def get_slot_names(self):
        return self._optimizer.get_slot_names()

    def get_slot(self, var, slot_name):
        return self._optimizer.get_slot(var, slot_name)

    def get_weights(self):
        return self._optimizer.get_weights()

    def set_weights(self, weights):
        self._optimizer.set_weights(weights)

    def save_own_variables(self, store):
        self._optimizer.save_own_variables(store)

    def load_own_variables(self, store):
        self._optimizer.load_own_variables(store)

    def exclude_from_weight_decay(self, var_list=None, var_names=None):
        self._optimizer.exclude_from_weight_decay(var_list, var_names)

    def finalize_variable_values(self, var_list):
        self._optimizer.finalize_variable_values(var_list)

    # -- configuration --------------------------------------------------------------------
    def get_config(self):
        """The inner optimizer's serialized config and the scaling arguments."""
        return {"inner_optimizer": optimizers.serialize(self._optimizer),
                "dynamic": self.dynamic, "initial_scale": self.initial_scale,
                "dynamic_growth_steps": self.dynamic_growth_steps}

    @classmethod
    def from_config(cls, config, custom_objects=None):
        """A new `LossScaleOptimizer` (and inner optimizer) from `get_config`'s dict."""
        config = dict(config)
        inner = config.pop("inner_optimizer")
        if not isinstance(inner, Optimizer):
            inner = optimizers.deserialize(inner, custom_objects=custom_objects)
        return cls(inner, **config)



class LossScaleOptimizerV3(LossScaleOptimizer):
    """The `LossScaleOptimizer` around a (non-legacy) Keras optimizer, as tf_keras names it:
    ``LossScaleOptimizer(Adam())`` is one, and its configs name it."""

    # Its configs' module and registered name, tf_keras's (the class has no public name)
    _serialized_module = "tf_keras.src.mixed_precision.loss_scale_optimizer"
    _serialized_registered_name = "LossScaleOptimizerV3"
