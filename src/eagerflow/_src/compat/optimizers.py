"""TF 1's optimizers beside gradient descent (``tf.compat.v1.train.MomentumOptimizer``,
``AdamOptimizer``, ``RMSPropOptimizer``, ``AdagradOptimizer``, ``AdadeltaOptimizer``,
``FtrlOptimizer``, ``AdagradDAOptimizer`` and the proximal ones), on the `Optimizer` base of `gradient_descent` and the training kernels
the Keras optimizers use.

>>> w = tf.Variable(1.0)
>>> opt = tf.compat.v1.train.MomentumOptimizer(0.1, momentum=0.9)
>>> opt.minimize(lambda: w * w)
>>> opt.minimize(lambda: w * w)
>>> print(round(float(w), 4), opt.get_slot_names())
0.46 ['momentum']
"""
import numpy as np

from eagerflow._src.backend.api_export import export
from eagerflow._src.compat import graph_mode
from eagerflow._src.compat.gradient_descent import Optimizer, _nothing
from eagerflow._src.core import dtypes as _d
from eagerflow._src.core import errors
from eagerflow._src.core import context
from eagerflow._src.core import variables as _variables
from eagerflow._src.core.registry import kernel_type_name
from eagerflow._src.core.convert import convert_to_tensor
from eagerflow._src.ops import array_ops, cast_ops, math_ops, training_ops


def _check_accumulator(value):
    if value <= 0.0:
        raise ValueError(f"initial_accumulator_value must be positive: {value}")


class _Coefficients(Optimizer):
    """An optimizer whose hyperparameters (numbers, tensors or callables) become tensors
    in `_prepare` and are cast to each variable's dtype."""

    _hyper = ()  # (attribute, tensor name)

    def _prepare(self):
        self._tensors = {attr: self._tensor(getattr(self, "_" + attr), name)
                         for attr, name in self._hyper}

    def _c(self, attr, dtype):
        return self._as(self._tensors[attr], dtype)


@export("compat.v1.train.MomentumOptimizer")
class MomentumOptimizer(_Coefficients):
    """``accumulation = momentum * accumulation + gradient``;
    ``variable -= learning_rate * accumulation`` (with Nesterov,
    ``variable -= learning_rate * (gradient + momentum * accumulation)``)."""

    _hyper = (("learning_rate", "learning_rate"), ("momentum", "momentum"))

    def __init__(self, learning_rate, momentum, use_locking=False, name="Momentum",
                 use_nesterov=False):
        super().__init__(use_locking, name)
        self._learning_rate = learning_rate
        self._momentum = momentum
        self._use_nesterov = use_nesterov

    def _create_slots(self, var_list):
        for v in var_list:
            self._slot(v, "momentum")

    def _apply_dense(self, grad, var):
        lr, momentum = self._c("learning_rate", var.dtype), self._c("momentum", var.dtype)
        # (TF's kernel, whose Nesterov step rounds as grad * lr + accum * momentum * lr)
        return [self._update(training_ops.MOMENTUM,
                             (var, self.get_slot(var, "momentum"), lr, grad, momentum),
                             {"use_nesterov": bool(self._use_nesterov)})]

    def _apply_sparse(self, grad, var):
        lr, momentum = self._c("learning_rate", var.dtype), self._c("momentum", var.dtype)
        accum, g, i = self.get_slot(var, "momentum"), grad.values, grad.indices
        new = self._rows(accum, i) * momentum + g
        step = g * lr + new * momentum * lr if self._use_nesterov else new * lr
        return [self._set_rows(accum, i, new),
                self._set_rows(var, i, step, array_ops.tensor_scatter_nd_sub)]


@export("compat.v1.train.AdamOptimizer")
class AdamOptimizer(_Coefficients):
    """Adam in TF 1's form: ``lr_t = learning_rate * sqrt(1 - beta2^t) / (1 - beta1^t)``,
    ``variable -= lr_t * m / (sqrt(v) + epsilon)`` (epsilon "hat"), the powers of the
    betas kept in the variables ``beta1_power`` and ``beta2_power``."""

    _hyper = (("learning_rate", "learning_rate"), ("beta1", "beta1"), ("beta2", "beta2"),
              ("epsilon", "epsilon"))

    def __init__(self, learning_rate=0.001, beta1=0.9, beta2=0.999, epsilon=1e-08,
                 use_locking=False, name="Adam"):
        super().__init__(use_locking, name)
        self._learning_rate = learning_rate
        self._beta1 = beta1
        self._beta2 = beta2
        self._epsilon = epsilon

    def _create_slots(self, var_list):
        first = min(var_list, key=lambda v: v.name)
        self._non_slot("beta1_power", _initial(self._beta1, first.dtype))
        self._non_slot("beta2_power", _initial(self._beta2, first.dtype))
        for v in var_list:
            self._slot(v, "m")
            self._slot(v, "v")

    def _get_beta_accumulators(self):
        """The variables ``beta1_power`` and ``beta2_power`` of the current graph (None
        before they are made), which programs read for Adam's effective learning rate."""
        return tuple(self._get_non_slot_variable(name) for name in ("beta1_power", "beta2_power"))

    def _apply_dense(self, grad, var):
        d = var.dtype
        return [self._update(training_ops.ADAM, (
            var, self.get_slot(var, "m"), self.get_slot(var, "v"),
            self._as(self._non_slot("beta1_power").read_value(), d),
            self._as(self._non_slot("beta2_power").read_value(), d),
            self._c("learning_rate", d), self._c("beta1", d), self._c("beta2", d),
            self._c("epsilon", d), grad))]

    def _more_updates(self, update_ops):
        graph = graph_mode.v1_graph()
        ops = []
        with graph.control_dependencies(update_ops) if graph is not None else _nothing():
            for attr in ("beta1", "beta2"):
                power = self._non_slot(attr + "_power")
                ops.append(self._update(_variables._ASSIGN, (
                    power, power.read_value() * self._as(self._tensors[attr], power.dtype))))
        return ops


@export("compat.v1.train.RMSPropOptimizer")
class RMSPropOptimizer(_Coefficients):
    """RMSProp: ``rms = decay * rms + (1 - decay) * gradient^2`` (``rms`` starts at 1);
    ``mom = momentum * mom + learning_rate * gradient / sqrt(rms + epsilon)``;
    ``variable -= mom``. Centered, the mean gradient's square is taken off ``rms``."""

    _hyper = (("learning_rate", "learning_rate"), ("decay", "decay"),
              ("momentum", "momentum"), ("epsilon", "epsilon"))

    def __init__(self, learning_rate, decay=0.9, momentum=0.0, epsilon=1e-10,
                 use_locking=False, centered=False, name="RMSProp"):
        super().__init__(use_locking, name)
        self._learning_rate = learning_rate
        self._decay = decay
        self._momentum = momentum
        self._epsilon = epsilon
        self._centered = centered

    def _create_slots(self, var_list):
        for v in var_list:
            self._slot(v, "rms", 1.0)
            if self._centered:
                self._slot(v, "mg")
            self._slot(v, "momentum")

    def _apply_dense(self, grad, var):
        d = var.dtype
        coefficients = (self._c("learning_rate", d), self._c("decay", d),
                        self._c("momentum", d), self._c("epsilon", d))
        rms, mom = self.get_slot(var, "rms"), self.get_slot(var, "momentum")
        if self._centered:
            return [self._update(training_ops.CENTERED_RMS_PROP, (
                var, self.get_slot(var, "mg"), rms, mom, *coefficients, grad))]
        return [self._update(training_ops.RMS_PROP, (var, rms, mom, *coefficients, grad))]

    def _apply_sparse(self, grad, var):
        d, g, i = var.dtype, grad.values, grad.indices
        lr, rho, momentum, epsilon = (self._c("learning_rate", d), self._c("decay", d),
                                      self._c("momentum", d), self._c("epsilon", d))
        rms, mom = self.get_slot(var, "rms"), self.get_slot(var, "momentum")
        rms_rows = self._rows(rms, i) * rho + g * g * (1 - rho)
        ops = [self._set_rows(rms, i, rms_rows)]
        denominator = rms_rows + epsilon
        if self._centered:
            mg = self.get_slot(var, "mg")
            mg_rows = self._rows(mg, i) * rho + g * (1 - rho)
            ops.append(self._set_rows(mg, i, mg_rows))
            denominator = rms_rows - mg_rows * mg_rows + epsilon
        mom_rows = self._rows(mom, i) * momentum + math_ops.rsqrt(denominator) * lr * g
        return ops + [self._set_rows(mom, i, mom_rows),
                      self._set_rows(var, i, mom_rows, array_ops.tensor_scatter_nd_sub)]


@export("compat.v1.train.AdagradOptimizer")
class AdagradOptimizer(_Coefficients):
    """Adagrad: ``accumulator += gradient^2``;
    ``variable -= learning_rate * gradient / sqrt(accumulator)``."""

    _hyper = (("learning_rate", "learning_rate"),)

    def __init__(self, learning_rate, initial_accumulator_value=0.1, use_locking=False,
                 name="Adagrad"):
        _check_accumulator(initial_accumulator_value)
        super().__init__(use_locking, name)
        self._learning_rate = learning_rate
        self._initial_accumulator_value = initial_accumulator_value

    def _create_slots(self, var_list):
        for v in var_list:
            self._slot(v, "accumulator", self._initial_accumulator_value)

    def _apply_dense(self, grad, var):
        zero = self._as(self._tensor(0.0, "epsilon"), var.dtype)
        return [self._update(training_ops.KERAS_ADAGRAD, (
            var, self.get_slot(var, "accumulator"), self._c("learning_rate", var.dtype),
            zero, grad))]

    def _apply_sparse(self, grad, var):
        zero = self._as(self._tensor(0.0, "epsilon"), var.dtype)
        return [self._update(training_ops.SPARSE_KERAS_ADAGRAD, (
            var, self.get_slot(var, "accumulator"), self._c("learning_rate", var.dtype),
            zero, grad.values, grad.indices))]


@export("compat.v1.train.AdadeltaOptimizer")
class AdadeltaOptimizer(_Coefficients):
    """Adadelta: running averages of squared gradients (``accum``) and squared updates
    (``accum_update``) scale each step."""

    _hyper = (("learning_rate", "lr"), ("rho", "rho"), ("epsilon", "epsilon"))

    def __init__(self, learning_rate=0.001, rho=0.95, epsilon=1e-08, use_locking=False,
                 name="Adadelta"):
        super().__init__(use_locking, name)
        self._learning_rate = learning_rate
        self._rho = rho
        self._epsilon = epsilon

    def _create_slots(self, var_list):
        for v in var_list:
            self._slot(v, "accum")
            self._slot(v, "accum_update")

    def _apply_dense(self, grad, var):
        d = var.dtype
        return [self._update(training_ops.ADADELTA, (
            var, self.get_slot(var, "accum"), self.get_slot(var, "accum_update"),
            self._c("learning_rate", d), self._c("rho", d), self._c("epsilon", d), grad))]

    def _apply_sparse(self, grad, var):
        d, g, i = var.dtype, grad.values, grad.indices
        lr, rho, epsilon = self._c("learning_rate", d), self._c("rho", d), self._c("epsilon", d)
        accum, accum_update = self.get_slot(var, "accum"), self.get_slot(var, "accum_update")
        accum_rows = self._rows(accum, i) * rho + g * g * (1 - rho)
        previous = self._rows(accum_update, i)
        update = math_ops.sqrt(previous + epsilon) * math_ops.rsqrt(accum_rows + epsilon) * g
        update_rows = previous * rho + update * update * (1 - rho)
        return [self._set_rows(accum, i, accum_rows),
                self._set_rows(accum_update, i, update_rows),
                self._set_rows(var, i, update * lr, array_ops.tensor_scatter_nd_sub)]


@export("compat.v1.train.FtrlOptimizer")
class FtrlOptimizer(_Coefficients):
    """FTRL-proximal, with L1 and L2 (and L2 shrinkage) regularization."""

    _hyper = (("learning_rate", "learning_rate"), ("l1", "l1_regularization_strength"),
              ("l2", "l2_regularization_strength"), ("l2_shrinkage", "l2_shrinkage"),
              ("power", "learning_rate_power"))

    def __init__(self, learning_rate, learning_rate_power=-0.5, initial_accumulator_value=0.1,
                 l1_regularization_strength=0.0, l2_regularization_strength=0.0,
                 use_locking=False, name="Ftrl", accum_name=None, linear_name=None,
                 l2_shrinkage_regularization_strength=0.0, beta=None):
        super().__init__(use_locking, name)
        for what, value, at_most_zero in (
                ("initial_accumulator_value", initial_accumulator_value, False),
                ("learning_rate_power", learning_rate_power, True),
                ("l1_regularization_strength", l1_regularization_strength, False),
                ("l2_regularization_strength", l2_regularization_strength, False),
                ("l2_shrinkage_regularization_strength", l2_shrinkage_regularization_strength,
                 False)):
            if value > 0.0 if at_most_zero else value < 0.0:
                raise ValueError(f"{what} {value:f} needs to be "
                                 f"{'negative' if at_most_zero else 'positive'} or zero")
        self._learning_rate = learning_rate
        self._power = learning_rate_power
        self._initial_accumulator_value = initial_accumulator_value
        # (`beta` folds into L2 as TF does: l2 + beta / (2 * learning_rate))
        self._l1 = l1_regularization_strength
        self._l2 = (l2_regularization_strength if not beta else
                    l2_regularization_strength + beta / (2.0 * learning_rate))
        self._l2_shrinkage = l2_shrinkage_regularization_strength

    def _create_slots(self, var_list):
        for v in var_list:
            self._slot(v, "accum", self._initial_accumulator_value)
            self._slot(v, "linear")

    def _apply_dense(self, grad, var):
        d = var.dtype
        return [self._update(training_ops.FTRL_V2, (
            var, self.get_slot(var, "accum"), self.get_slot(var, "linear"), grad,
            self._c("learning_rate", d), self._c("l1", d), self._c("l2", d),
            self._c("l2_shrinkage", d), self._c("power", d)))]

    def _apply_sparse(self, grad, var):
        d, g, i = var.dtype, grad.values, grad.indices
        lr, l1, l2 = self._c("learning_rate", d), self._c("l1", d), self._c("l2", d)
        shrinkage, power = self._c("l2_shrinkage", d), self._c("power", d)
        accum, linear = self.get_slot(var, "accum"), self.get_slot(var, "linear")
        w, old_accum = self._rows(var, i), self._rows(accum, i)
        new_accum = old_accum + g * g
        sigma = (math_ops.pow(new_accum, -power) - math_ops.pow(old_accum, -power)) / lr
        linear_rows = self._rows(linear, i) + (g + 2 * shrinkage * w) - sigma * w
        quadratic = math_ops.pow(new_accum, -power) / lr + 2 * l2
        kept = math_ops.greater(math_ops.abs(linear_rows), l1)
        w_rows = array_ops.where(kept, (math_ops.sign(linear_rows) * l1 - linear_rows)
                                 / quadratic, array_ops.zeros_like(linear_rows))
        return [self._set_rows(accum, i, new_accum), self._set_rows(linear, i, linear_rows),
                self._set_rows(var, i, w_rows)]


def _initial(value, dtype):
    """The first power of a beta (a number, tensor or callable): a tensor in `dtype`, a
    number in float32 whatever the variables' dtype, as TF keeps it (the powers are cast
    to each variable's dtype when used, and so match the cast betas exactly)."""
    value = value() if callable(value) else value
    if hasattr(value, "dtype"):  # (a tensor, maybe symbolic)
        return Optimizer._as(value, dtype)
    return np.asarray(value, np.float32)



def _uncast(optimizer, var, op, grad_name, rate_name, grad_at):
    """TF's dense proximal kernels take the rates as they are: a variable of another dtype
    than theirs fails (the sparse kernels cast them), when the op runs eagerly (input
    `grad_at` is the gradient) or is made in a graph."""
    rate = optimizer._tensors["learning_rate"]
    if rate.dtype != var.dtype.base_dtype and context.executing_eagerly():
        raise errors.op_error(
            errors.InvalidArgumentError, op,
            f"cannot compute {op} as input #{grad_at}(zero-based) was expected to be a "
            f"{kernel_type_name(rate.dtype)} tensor but is a "
            f"{kernel_type_name(var.dtype.base_dtype)} tensor")
    if rate.dtype != var.dtype.base_dtype:
        raise TypeError(f"Input '{grad_name}' of '{op}' Op has type {var.dtype.name} that does "
                        f"not match type {rate.dtype.name} of argument '{rate_name}'.")


class _Proximal(_Coefficients):
    """An optimizer whose step is followed by TF's proximal L1 shrinking and L2 scaling."""

    _hyper = (("learning_rate", "learning_rate"),
              ("l1_regularization_strength", "l1_regularization_strength"),
              ("l2_regularization_strength", "l2_regularization_strength"))

    def __init__(self, learning_rate, l1, l2, use_locking, name):
        super().__init__(use_locking, name)
        self._learning_rate = learning_rate
        self._l1_regularization_strength = l1
        self._l2_regularization_strength = l2

    def _proximal(self, value, grad, lr, dtype):
        """``value - lr * grad`` shrunk by ``lr * l1`` towards 0 (when l1 is not 0) and
        divided by ``1 + lr * l2``."""
        prox = value - grad * lr
        l2 = self._c("l2_regularization_strength", dtype)
        if self._l1_regularization_strength == 0:
            return prox / (1.0 + lr * l2)
        l1 = self._c("l1_regularization_strength", dtype)
        shrunk = math_ops.maximum(math_ops.abs(prox) - lr * l1, 0.0)
        return math_ops.sign(prox) * shrunk / (1.0 + lr * l2)


@export("compat.v1.train.ProximalGradientDescentOptimizer")
class ProximalGradientDescentOptimizer(_Proximal):
    """Gradient descent with proximal L1 and L2 regularization:
    ``prox = variable - learning_rate * gradient``, then
    ``variable = sign(prox) * max(|prox| - learning_rate * l1, 0) / (1 + learning_rate * l2)``
    (without the shrinking when l1 is 0)."""

    def __init__(self, learning_rate, l1_regularization_strength=0.0,
                 l2_regularization_strength=0.0, use_locking=False,
                 name="ProximalGradientDescent"):
        super().__init__(learning_rate, l1_regularization_strength,
                         l2_regularization_strength, use_locking, name)

    def _step(self, value, grad, dtype):
        return self._proximal(value, grad, self._c("learning_rate", dtype), dtype)

    def _apply_dense(self, grad, var):
        _uncast(self, var, "ResourceApplyProximalGradientDescent", "delta", "alpha", 4)
        return [self._update(_variables._ASSIGN,
                             (var, self._step(var.read_value(), grad, var.dtype)))]

    def _apply_sparse(self, grad, var):
        rows = self._step(self._rows(var, grad.indices), grad.values, var.dtype)
        return [self._set_rows(var, grad.indices, rows)]


@export("compat.v1.train.ProximalAdagradOptimizer")
class ProximalAdagradOptimizer(_Proximal):
    """Adagrad with proximal L1 and L2 regularization: ``accumulator += gradient^2``,
    ``lr = learning_rate / sqrt(accumulator)``, then the proximal step of
    `ProximalGradientDescentOptimizer` with that rate."""

    def __init__(self, learning_rate, initial_accumulator_value=0.1,
                 l1_regularization_strength=0.0, l2_regularization_strength=0.0,
                 use_locking=False, name="ProximalAdagrad"):
        _check_accumulator(initial_accumulator_value)
        super().__init__(learning_rate, l1_regularization_strength,
                         l2_regularization_strength, use_locking, name)
        self._initial_accumulator_value = initial_accumulator_value

    _create_slots = AdagradOptimizer._create_slots

    def _step(self, value, accum, grad, dtype):
        lr = math_ops.rsqrt(accum) * self._c("learning_rate", dtype)
        return self._proximal(value, grad, lr, dtype)

    def _apply_dense(self, grad, var):
        _uncast(self, var, "ResourceApplyProximalAdagrad", "grad", "lr", 5)
        slot = self.get_slot(var, "accumulator")
        accum = slot.read_value() + math_ops.square(grad)
        return [self._update(_variables._ASSIGN, (slot, accum)),
                self._update(_variables._ASSIGN,
                             (var, self._step(var.read_value(), accum, grad, var.dtype)))]

    def _apply_sparse(self, grad, var):
        slot, g, i = self.get_slot(var, "accumulator"), grad.values, grad.indices
        accum = self._rows(slot, i) + math_ops.square(g)
        return [self._set_rows(slot, i, accum),
                self._set_rows(var, i, self._step(self._rows(var, i), accum, g, var.dtype))]


@export("compat.v1.train.AdagradDAOptimizer")
class AdagradDAOptimizer(_Coefficients):
    """Adagrad dual averaging: ``gradient_accumulator += gradient``,
    ``gradient_squared_accumulator += gradient^2``, then with ``t`` the global step plus 1
    (read as the step is prepared; `apply_gradients` increments it only when given it)
    ``variable = -sign(g) * learning_rate * max(|g| - t * l1, 0) /
    (l2 * t * learning_rate + sqrt(gg))`` for the accumulators ``g`` and ``gg``.

    >>> step = tf.Variable(0, dtype=tf.int64)
    >>> w = tf.Variable([1.0, -2.0])
    >>> opt = tf.compat.v1.train.AdagradDAOptimizer(0.1, step)
    >>> opt.apply_gradients([(tf.constant([0.5, -1.0]), w)], global_step=step)
    >>> print(w.numpy(), int(step))
    [-0.08451542  0.09534626] 1
    """

    _hyper = (("learning_rate", "learning_rate"),
              ("l1_regularization_strength", "l1_regularization_strength"),
              ("l2_regularization_strength", "l2_regularization_strength"))

    def __init__(self, learning_rate, global_step, initial_gradient_squared_accumulator_value=0.1,
                 l1_regularization_strength=0.0, l2_regularization_strength=0.0,
                 use_locking=False, name="AdagradDA"):
        if initial_gradient_squared_accumulator_value <= 0.0:
            raise ValueError(f"initial_gradient_squared_accumulator_value must be positive: "
                             f"{initial_gradient_squared_accumulator_value}")
        super().__init__(use_locking, name)
        self._learning_rate = learning_rate
        self._initial_gradient_squared_accumulator_value = \
            initial_gradient_squared_accumulator_value
        self._l1_regularization_strength = l1_regularization_strength
        self._l2_regularization_strength = l2_regularization_strength
        self._global_step = global_step

    def _create_slots(self, var_list):
        for v in var_list:
            self._slot(v, "gradient_accumulator")
            self._slot(v, "gradient_squared_accumulator",
                       self._initial_gradient_squared_accumulator_value)

    def _prepare(self):
        super()._prepare()
        step = self._global_step
        step = step.read_value() if hasattr(step, "read_value") else convert_to_tensor(step)
        self._step = step + convert_to_tensor(1, step.dtype)

    def _weights(self, g, gg, dtype, op_name, position):
        """The variable's new value (its rows, for `sparse` updates) from the accumulators
        `g` and `gg`; TF's kernel takes an int64 global step (input `position` of
        `op_name`)."""
        if self._step.dtype != _d.int64:
            raise errors.op_error(
                errors.InvalidArgumentError, op_name,
                f"cannot compute {op_name} as input #{position}(zero-based) was expected to be "
                f"a int64 tensor but is a {self._step.dtype.name} tensor")
        lr = self._c("learning_rate", dtype)
        l2 = self._c("l2_regularization_strength", dtype)
        t = cast_ops.cast(self._step, dtype)
        l1 = self._l1_regularization_strength
        shrinks = callable(l1) or hasattr(l1, "dtype") or l1 > 0
        l1 = self._c("l1_regularization_strength", dtype)
        zero = array_ops.zeros_like(g)
        if position == 8:
            # (TF's sparse kernel averages over the steps: the same rule, rounded otherwise)
            denominator = l2 + math_ops.sqrt(gg) / (t * lr)
            if not shrinks:
                return -(g / t) / denominator
            shrunk = math_ops.maximum(math_ops.abs(g) / t - l1, zero)
            return -(math_ops.sign(g) * shrunk) / denominator
        denominator = l2 * t * lr + math_ops.sqrt(gg)
        if not shrinks:
            return -(lr * g) / denominator
        shrunk = math_ops.maximum(math_ops.abs(g) - t * l1, zero)
        return -(math_ops.sign(g) * (lr * shrunk)) / denominator

    def _apply_dense(self, grad, var):
        slot, squared = (self.get_slot(var, "gradient_accumulator"),
                         self.get_slot(var, "gradient_squared_accumulator"))
        g = slot.read_value() + grad
        gg = squared.read_value() + math_ops.square(grad)
        return [self._update(_variables._ASSIGN, (slot, g)),
                self._update(_variables._ASSIGN, (squared, gg)),
                self._update(_variables._ASSIGN, (var, self._weights(
                    g, gg, var.dtype, "ResourceApplyAdagradDA", 7)))]

    def _apply_sparse(self, grad, var):
        slot, squared = (self.get_slot(var, "gradient_accumulator"),
                         self.get_slot(var, "gradient_squared_accumulator"))
        i, values = grad.indices, grad.values
        g = self._rows(slot, i) + values
        gg = self._rows(squared, i) + math_ops.square(values)
        return [self._set_rows(slot, i, g), self._set_rows(squared, i, gg),
                self._set_rows(var, i, self._weights(
                    g, gg, var.dtype, "ResourceSparseApplyAdagradDA", 8))]
