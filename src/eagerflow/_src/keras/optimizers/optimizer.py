"""The optimizer base class (``tf.keras.optimizers.Optimizer``, tf_keras 2.x semantics).

The base class holds what every algorithm shares: the learning rate (a
number, variable, callable or schedule), the `iterations` counter, slot
variables created on the first `apply_gradients`, gradient clipping, weight
decay, exponential moving averages and (de)serialization. An algorithm
names its slots and per-step scalars and updates each variable with one
fused op (``ops/training_ops.py``):

    class SGD(Optimizer):
        def _coefficients(self, dtype):          # once per step and dtype
            return (self._lr(dtype),)
        def _apply_dense(self, grad, var, slots, coefficients):
            dispatch(training_ops.GRADIENT_DESCENT, (var, *coefficients, grad))

A subclass written for tf_keras (``build`` creating variables with
`add_variable_from_reference`, ``update_step(gradient, variable)`` with
variable ops) works as well, one `update_step` call per variable.

>>> opt = tf.keras.optimizers.SGD(learning_rate=0.1)
>>> var = tf.Variable(1.0)
>>> opt.apply_gradients([(tf.constant(1.0), var)])
<tf.Variable 'UnreadVariable' shape=() dtype=int64, numpy=1>
>>> print(var.numpy())
0.9
"""
import numbers
import re

import numpy as np

from eagerflow._src.backend import log as _log
from eagerflow._src.autodiff.tape import GradientTape
from eagerflow._src.backend.api_export import export
from eagerflow._src.compat import graph_mode
from eagerflow._src.core import context, distribution_context, errors
from eagerflow._src.core import dtypes as _d
from eagerflow._src.core.convert import constant, convert_to_tensor
from eagerflow._src.core import module as module_lib
from eagerflow._src.core.dispatch import dispatch
from eagerflow._src.core.module import leaves
from eagerflow._src.core.tensor import Tensor
from eagerflow._src.core.variables import Variable
from eagerflow._src.keras import backend, initializers
from eagerflow._src.keras.optimizers import schedules
from eagerflow._src.ops import array_ops, math_ops, reduction_ops, training_ops
from eagerflow._src.ops.cast_ops import cast
from eagerflow._src.ops.indexed_slices import IndexedSlices, deduplicated

_logger = _log.logger
_LEGACY_KWARGS = ("decay", "gradient_aggregator", "gradient_transformers")


class _CallableList(list):
    """`optimizer.variables`, also callable: Keras 2 code uses both ``variables`` and
    ``variables()``."""

    def __call__(self):
        return self


# The arguments every optimizer takes after its own (tf_keras's order), and their defaults.
_SHARED_DEFAULTS = {"clipnorm": None, "clipvalue": None, "global_clipnorm": None,
                    "use_ema": False, "ema_momentum": 0.99, "ema_overwrite_frequency": None,
                    "jit_compile": True}


def given_options(**options):
    """Those of the shared `options` given other values than their defaults, which an
    optimizer passes on to its base class by keyword (a legacy optimizer's base, which the
    legacy classes reach through these, takes fewer)."""
    def default(key, value):
        plain = _SHARED_DEFAULTS[key]
        return value is plain or type(value) in (bool, int, float) and value == plain
    return {key: value for key, value in options.items() if not default(key, value)}


def _is_zero(value):
    return isinstance(value, numbers.Real) and value == 0


def _on_values(fn, grad):
    """`fn` applied to a dense gradient, or to the rows of an `IndexedSlices` one."""
    if isinstance(grad, IndexedSlices):
        return IndexedSlices(fn(grad.values), grad.indices, grad.dense_shape)
    return fn(grad)


def _shared_name(variable):
    return variable.name.partition(":")[0]


@export("keras.optimizers.Optimizer", "keras.optimizers.experimental.Optimizer")
class Optimizer:
    """The base class of Keras optimizers.

    Arguments shared by every optimizer: `weight_decay` (decoupled decay
    ``var -= lr * weight_decay * var`` before each step), `clipnorm`,
    `clipvalue`, `global_clipnorm` (gradient clipping, at most one of the
    norms), `use_ema`, `ema_momentum`, `ema_overwrite_frequency` (a moving
    average of the weights), `jit_compile` (accepted; there is no XLA here,
    so it reads False as in tf_keras without a GPU) and `name`.

    >>> opt = tf.keras.optimizers.Adam(learning_rate=0.1)
    >>> var = tf.Variable([1.0, 2.0])
    >>> opt.minimize(lambda: tf.reduce_sum(var * var), [var])
    >>> [v.name for v in opt.variables]
    ['iteration:0', 'Adam/m/Variable:0', 'Adam/v/Variable:0']
    """

    # The algorithm's hyperparameters (attributes), in `get_config` order.
    _config_keys = ()
    # Legacy (optimizer_v2) slot names `get_slot` also accepts.
    _slot_aliases = {}
    # The name of the `iterations` variable.
    _ITERATIONS_NAME = "iteration"
    # Whether its aggregation of gradients (tf_keras's all-reduce) filters the missing ones
    # apart from the step, warning of them again.
    _aggregation_filters = True
    # Its identifier and version in a SavedModel, by which tf_keras revives it (as its
    # RestoredOptimizer, whose state the optimizer's checkpoint restores)
    _saved_model_identifier = ("experimentalOptimizer", 2, 1)

    def __init__(self, name, weight_decay=0, clipnorm=None, clipvalue=None, global_clipnorm=None,
                 use_ema=False, ema_momentum=0.99, ema_overwrite_frequency=None,
                 jit_compile=True, **kwargs):
        self.name = name
        self.weight_decay = weight_decay
        self.clipnorm = clipnorm
        self.global_clipnorm = global_clipnorm
        self.clipvalue = clipvalue
        self.use_ema = use_ema
        self.jit_compile = False
        if use_ema:
            if ema_momentum > 1 or ema_momentum < 0:
                raise ValueError(f"`ema_momentum` must be in the range [0, 1]. Received: "
                                 f"ema_momentum={ema_momentum}")
            if ema_overwrite_frequency and (not isinstance(ema_overwrite_frequency, int)
                                            or ema_overwrite_frequency < 1):
                raise ValueError(f"`ema_overwrite_frequency` must be an integer > 1 or None. "
                                 f"Received: ema_overwrite_frequency={ema_overwrite_frequency}")
        self.ema_momentum = ema_momentum
        self.ema_overwrite_frequency = ema_overwrite_frequency
        if clipnorm is not None and global_clipnorm is not None:
            raise ValueError(f"At most one of `clipnorm` and `global_clipnorm` can be set. "
                             f"Received: clipnorm={clipnorm}, global_clipnorm={global_clipnorm}.")
        self._variables = []
        self._constants = {}  # (number, dtype) -> scalar tensor, made once
        self._make_iterations()
        self._process_kwargs(kwargs)

    def _make_iterations(self):
        """Makes `iterations`, the first of `variables`."""
        with context.init_scope():
            self._iterations = Variable(0, name=self._ITERATIONS_NAME.format(name=self.name),
                                        dtype=_d.int64, trainable=False)
        self._variables.append(self._iterations)

    def _process_kwargs(self, kwargs):
        kwargs.pop("is_legacy_optimizer", None)  # written by `get_config`
        if kwargs.pop("lr", None):
            # As tf_keras 2.11+: the old name is ignored, with a warning.
            _log.absl_logger.warning(f"`lr` is deprecated in TF-Keras optimizer, please use "
                            f"`learning_rate` or use the legacy optimizer, e.g.,"
                            f"tf.keras.optimizers.legacy.{type(self).__name__}.")
        for key in kwargs:
            if key in _LEGACY_KWARGS:
                raise ValueError(f"{key} is deprecated in the new TF-Keras optimizer, please "
                                 f"check the docstring for valid arguments, or use the legacy "
                                 f"optimizer, e.g., tf.keras.optimizers.legacy."
                                 f"{type(self).__name__}.")
            raise TypeError(f"{key} is not a valid argument, kwargs should be empty  for "
                            f"`optimizer_experimental.Optimizer`.")

    # -- learning rate and step ---------------------------------------------------
    def _build_learning_rate(self, learning_rate):
        """The value to store as `_learning_rate`: the schedule, or a variable holding the rate.

        A callable is called once, for the variable's initial value (as tf_keras does).
        """
        with context.init_scope():
            if isinstance(learning_rate, schedules.LearningRateSchedule):
                current = convert_to_tensor(learning_rate(self._steps_so_far()))
                self._current_learning_rate = backend.out_of_collections(Variable(
                    current, name="current_learning_rate", dtype=current.dtype,
                    trainable=False))
                return learning_rate
            return backend.out_of_collections(Variable(
                learning_rate, name="learning_rate", dtype=backend.floatx(), trainable=False))

    def _steps_so_far(self):
        """The steps taken, which a schedule's first rate is computed at."""
        return self._iterations

    @property
    def learning_rate(self):
        """The rate variable (with a schedule: the variable holding this step's rate)."""
        if getattr(self, "_learning_rate", None) is None:
            raise ValueError("Missing learning rate, please set self.learning_rate at optimizer "
                             "creation time.")
        if isinstance(self._learning_rate, schedules.LearningRateSchedule):
            return self._current_learning_rate
        return self._learning_rate

    @learning_rate.setter
    def learning_rate(self, learning_rate):
        if isinstance(learning_rate, schedules.LearningRateSchedule):
            if getattr(self, "_current_learning_rate", None) is None:  # set after a float rate
                self._learning_rate = self._build_learning_rate(learning_rate)
            else:  # the next step's rate comes from it
                self._learning_rate = learning_rate
            return
        if isinstance(self._learning_rate, schedules.LearningRateSchedule):
            raise TypeError(
                "This optimizer was created with a `LearningRateSchedule` object as its "
                "`learning_rate` constructor argument, hence its learning rate is not "
                "settable. If you need the learning rate to be settable, you should "
                "instantiate the optimizer with a float `learning_rate` argument.")
        if backend._graph_session() is not None:  # (TF 1's graph mode: its Keras session
            backend.set_value(self._learning_rate, learning_rate)  # holds the value)
        else:
            self._learning_rate.assign(learning_rate)

    lr = learning_rate  # the Keras 2 alias

    @property
    def iterations(self):
        """The number of steps applied (an int64 variable)."""
        return self._iterations

    @iterations.setter
    def iterations(self, variable):
        if getattr(self, "_built", False):
            raise RuntimeError(
                f"Cannot set `iterations` to a new Variable after the Optimizer weights have "
                f"been created. Here it is attempting to set `iterations` to {variable}."
                f"Usually this means you are trying to set `iterations` after calling "
                f"`apply_gradients()`. Please set `iterations` before calling "
                f"`apply_gradients()`.")
        self._variables[self._variables.index(self._iterations)] = variable
        self._iterations = variable

    def _compute_current_learning_rate(self):
        if isinstance(self._learning_rate, schedules.LearningRateSchedule):
            self._current_learning_rate.assign(self._learning_rate(self._iterations))

    def _constant(self, value, dtype):
        """`value` as a scalar of `dtype`: numbers become constants (made once when eager),
        callables are called, tensors and variables are cast."""
        if isinstance(value, numbers.Real):
            if not context.executing_eagerly():
                # a traced update's own constant, as in TF: not an eager tensor it captures
                return constant(value, dtype)
            key = (value, dtype)
            found = self._constants.get(key)
            if found is None:
                with context.init_scope():
                    found = self._constants[key] = constant(value, dtype)
            return found
        if callable(value) and not isinstance(value, (Tensor, Variable)):
            value = value()
        return cast(value, dtype)

    def _cast(self, value, dtype):
        """`value` as ``tf.cast(value, dtype)`` gives it in tf_keras: a Python number becomes
        a float32 (or int32) tensor first, so a float64 variable's update sees
        ``float64(float32(0.9))``, not 0.9."""
        if isinstance(value, numbers.Real) and not isinstance(value, bool):
            value = float(np.float32(value)) if isinstance(value, float) else value
        return self._constant(value, dtype)

    def _number_hyper(self, value, dtype):
        """A hyperparameter tf_keras's update takes as a Python number (exact in `dtype`);
        the legacy optimizers read it from a float32 variable (see `_cast`)."""
        return self._constant(value, dtype)

    def _rate(self, value):
        """A decay rate whose complement ``1 - value`` the update takes, in float64: tf_keras
        computes that complement in Python (``1 - 0.999``, exact, not ``1 - float32(0.999)``)."""
        return self._constant(value, _d.float64)

    def _lr(self, dtype):
        """This step's learning rate in `dtype`."""
        return cast(self.learning_rate, dtype)

    def _local_step(self, dtype):
        """The number of the step being applied (1 for the first), in `dtype`."""
        return cast(self._iterations + 1, dtype)

    # -- variables ----------------------------------------------------------------------
    def _var_key(self, variable):
        return variable._unique_id

    def _build_index_dict(self, var_list):
        self._index_dict = {self._var_key(v): i for i, v in enumerate(var_list)}

    def _slot_groups(self):
        """The slots of each variable: dicts of name -> initial value. Each dict's slots are
        made variable by variable, one dict after the other (the order of `variables`)."""
        return ()

    def build(self, var_list):
        """Creates the optimizer's variables for `var_list` (once): slots, and moving averages
        with `use_ema`. `apply_gradients` calls it on its first step.

        >>> opt = tf.keras.optimizers.Adam()
        >>> opt.build([tf.Variable([1.0, 2.0], name="w")])
        >>> [v.name for v in opt.variables]
        ['iteration:0', 'm/w:0', 'v/w:0']
        """
        if getattr(self, "_built", False):
            return
        self._build_index_dict(var_list)
        if self.use_ema:
            self._model_variables_moving_average = [
                self.add_variable_from_reference(v, "average", initial_value=v)
                for v in var_list]
        self._slots = [{} for _ in var_list]
        for group in self._slot_groups():
            for var, slots in zip(var_list, self._slots):
                for name, initial in group.items():
                    slots[name] = self.add_variable_from_reference(
                        var, name, initial_value=None if _is_zero(initial) else np.full(
                            var.shape, initial, var.dtype.as_numpy_dtype))
        # A subclass with its own `build` marks itself built once its variables exist.
        if type(self).build is Optimizer.build:
            self._built = True

    def add_variable(self, shape, dtype=None, initializer="zeros", name=None):
        """A new optimizer variable of `shape` and `dtype` (default floatx), initialized by
        `initializer` (a name, config or callable, as `keras.initializers.get` takes)."""
        initializer = initializers.get(initializer)
        dtype = _d.as_dtype(dtype or backend.floatx())
        shape = [] if shape is None else shape
        variable = Variable(lambda: initializer(shape, dtype), name=name, dtype=dtype,
                            trainable=False)
        self._variables.append(variable)
        module_lib.tracked(self)  # a checkpoint restored before the variable existed
        return variable

    def add_variable_from_reference(self, model_variable, variable_name, shape=None,
                                    initial_value=None):
        """A new optimizer variable named ``<variable_name>/<model variable's name>``, of the
        model variable's dtype and shape (or `shape`), zeros unless `initial_value` is given."""
        dtype = model_variable.dtype
        if initial_value is None:
            initial_value = np.zeros(model_variable.shape if shape is None else shape,
                                     dtype.as_numpy_dtype)
        variable = Variable(initial_value, name=f"{variable_name}/{_shared_name(model_variable)}",
                            dtype=dtype, trainable=False)
        self._variables.append(variable)
        module_lib.tracked(self)  # a checkpoint restored before the slots existed
        return variable

    @property
    def variables(self):
        """The optimizer's variables: `iterations`, then slots (and averages) in creation order."""
        return _CallableList(self._variables)

    def get_slot_names(self):
        """The names of the slots each variable gets (``['m', 'v']`` for Adam)."""
        return [name for group in self._slot_groups() for name in group]

    def get_slot(self, var, slot_name):
        """The slot variable `slot_name` of model variable `var` (after `build`).

        >>> opt, w = tf.keras.optimizers.Adam(), tf.Variable([1.0])
        >>> opt.build([w])
        >>> opt.get_slot(w, "m").name
        'm/Variable:0'
        """
        slot_name = self._slot_aliases.get(slot_name, slot_name)
        return self._slots[self._index_dict[self._var_key(var)]][slot_name]

    def set_weights(self, weights):
        """Assigns `weights` (arrays or variables, in the order of `variables`)."""
        if not getattr(self, "_built", False):
            raise ValueError(
                "You are calling `set_weights()` on an optimizer that has not yet been built. "
                "Please call `optimizer.build(trainable_variables)` to create the optimizer "
                "weights before calling `set_weights()`.")
        for variable, weight in zip(self._variables, weights):
            if variable.shape != np.shape(weight):
                raise ValueError(f"Optimizer variable {_shared_name(variable)} has shape "
                                 f"{variable.shape} not compatible with provided weight shape "
                                 f"{tuple(np.shape(weight))}.")
            variable.assign(weight)

    def get_weights(self):
        """The values of `variables`, as NumPy arrays (the legacy optimizers' method)."""
        return backend.batch_get_value(self._variables)

    def save_own_variables(self, store):
        for i, variable in enumerate(self._variables):
            store[str(i)] = variable.numpy()

    def load_own_variables(self, store):
        if len(store.keys()) != len(self._variables):
            _warn_skipped_loading(self, len(self._variables), len(store.keys()))
            return
        for i, variable in enumerate(self._variables):
            variable.assign(store[str(i)])

    # -- steps ----------------------------------------------------------------------------
    def compute_gradients(self, loss, var_list, tape=None):
        """``[(gradient, variable)]`` of `loss` (a callable, or a tensor computed under `tape`)."""
        if not callable(loss) and tape is None:
            raise ValueError(f"`tape` is required when a `Tensor` loss is passed. Received: "
                             f"loss={loss}, tape={tape}.")
        loss, var_list, tape = recorded_loss(loss, var_list, tape)
        grads = tape.gradient(loss, var_list)
        return list(zip(grads, var_list))

    def minimize(self, loss, var_list, tape=None):
        """One step on `var_list` (or a callable giving it) down the gradient of `loss`.

        `loss` is a callable taking no arguments, or a tensor computed under `tape`.
        Returns None, as tf_keras does.
        """
        self.apply_gradients(self.compute_gradients(loss, var_list, tape))

    def aggregate_gradients(self, grads_and_vars):
        """Sums gradients across replicas: one replica here, so they are returned as given."""
        return list(grads_and_vars)

    def apply_gradients(self, grads_and_vars, name=None, skip_gradients_aggregation=False,
                        **kwargs):
        """Updates each variable with its gradient; returns `iterations` after the step.

        Pairs with a None gradient are skipped (with a warning); a ValueError
        when no pair has one. Creates the slot variables on the first call.
        """
        grads_and_vars = list(grads_and_vars)
        aggregate = not skip_gradients_aggregation and \
            kwargs.pop("experimental_aggregate_gradients", True)
        if aggregate and grads_and_vars and self._aggregation_filters:
            # (as tf_keras's aggregation, which leaves the missing gradients for the step:
            # each warns of them, or fails when none exists)
            _filter_empty_gradients(grads_and_vars)
        replica = distribution_context.synced_replica()
        if replica is not None:
            # one of several replicas: their gradients summed, the step taken once
            if aggregate:
                grads_and_vars = sum_over_replicas(replica, grads_and_vars)
            return replica.merge_call(
                lambda strategy: self._apply_gradients_once(grads_and_vars, name))
        return self._apply_gradients_once(grads_and_vars, name)

    def _apply_gradients_once(self, grads_and_vars, name):
        graph = graph_mode.v1_graph()
        if graph is not None:  # building a TF 1 graph: the step is an op, run by a session
            # (the variables first: their initializers run once, not with every step)
            self._make_graph_variables(grads_and_vars)
            first = len(graph.get_operations())
            self._apply_gradients_step(grads_and_vars, name)
            return graph_mode.group(*graph.get_operations()[first:])
        return self._apply_gradients_step(grads_and_vars, name)

    _sums_repeated_rows = True  # (the legacy optimizers sum them in their updates, or not)

    def _make_graph_variables(self, grads_and_vars):
        """Makes the variables a step in a TF 1 graph needs before the step's ops."""
        if grads_and_vars:
            with context.init_scope():
                self.build([v for _, v in grads_and_vars])

    def _apply_gradients_step(self, grads_and_vars, name):
        self._compute_current_learning_rate()
        if not grads_and_vars:
            return self._iterations
        with context.name_scope(name or self.name or "optimizer"):
            with context.init_scope():
                self.build([v for _, v in grads_and_vars])
            # (a checkpoint loaded before the first step: its state, now that the variables
            # exist)
            restore = self.__dict__.pop("_restore_when_built", None)
            if restore is not None:
                restore()
            grads_and_vars = _filter_empty_gradients(grads_and_vars)
            grads, variables = zip(*grads_and_vars)
            grads = self._clip_gradients(grads)
            if self._sums_repeated_rows:
                # (a row named twice takes the sum of its slices, as in tf_keras: adding
                # them one by one to a slot rounds otherwise)
                grads = [deduplicated(g) if isinstance(g, IndexedSlices) else g for g in grads]
            self._apply_weight_decay(variables)
            iteration = self._internal_apply_gradients(list(zip(grads, variables)))
            for variable in variables:
                if variable.constraint is not None:
                    variable.assign(variable.constraint(variable))
            return iteration

    def _clip_gradients(self, grads):
        if self.clipnorm and self.clipnorm > 0:
            return [_on_values(lambda x: reduction_ops.clip_by_norm(x, self.clipnorm), g)
                    for g in grads]
        if self.global_clipnorm and self.global_clipnorm > 0:
            values = [g.values if isinstance(g, IndexedSlices) else g for g in grads]
            clipped, _ = reduction_ops.clip_by_global_norm(values, self.global_clipnorm)
            return [IndexedSlices(c, g.indices, g.dense_shape) if isinstance(g, IndexedSlices)
                    else c for c, g in zip(clipped, grads)]
        if self.clipvalue and self.clipvalue > 0:
            return [_on_values(
                lambda x: reduction_ops.clip_by_value(x, -self.clipvalue, self.clipvalue), g)
                for g in grads]
        return grads

    def exclude_from_weight_decay(self, var_list=None, var_names=None):
        """Exempts `var_list`, and variables whose names match a pattern of `var_names`, from
        weight decay (before the first step only)."""
        if getattr(self, "_built", False):
            raise ValueError("`exclude_from_weight_decay()` can only be configued before the "
                             "optimizer is built.")
        self._exclude_from_weight_decay = [self._var_key(v) for v in var_list or ()]
        self._exclude_from_weight_decay_names = var_names or []

    def _use_weight_decay(self, variable):
        if self._var_key(variable) in getattr(self, "_exclude_from_weight_decay", ()):
            return False
        return not any(re.search(pattern, variable.name) is not None
                       for pattern in getattr(self, "_exclude_from_weight_decay_names", ()))

    def _apply_weight_decay(self, variables):
        if self.weight_decay is None or _is_zero(self.weight_decay):
            return
        rates = {}  # dtype -> (weight decay, learning rate)
        for variable in variables:
            if self._use_weight_decay(variable):
                dtype = variable.dtype
                if dtype not in rates:
                    rates[dtype] = self._cast(self.weight_decay, dtype), self._lr(dtype)
                dispatch(training_ops.KERAS_WEIGHT_DECAY, (variable, *rates[dtype]))

    def _internal_apply_gradients(self, grads_and_vars):
        if type(self).update_step is Optimizer.update_step:
            # A built-in algorithm: the step's scalars are computed once per dtype.
            coefficients = {}
            for grad, var in grads_and_vars:
                found = coefficients.get(var.dtype)
                if found is None:
                    found = coefficients[var.dtype] = self._coefficients(var.dtype)
                self._apply(grad, var, found)
        else:
            for grad, var in grads_and_vars:
                self._update_step(grad, var)
        if self.use_ema:
            var_list = [var for _, var in grads_and_vars]
            self._update_model_variables_moving_average(var_list)
            if self.ema_overwrite_frequency:
                due = math_ops.equal((self._iterations + 1) % self.ema_overwrite_frequency, 0)
                for var, average in zip(var_list, self._averages_of(var_list)):
                    var.assign(array_ops.where(due, average, var))
        return self._iterations.assign_add(1)

    # What a traced step whose input ran out still does (the ops that wait on no gradient):
    # tf_keras's `fit` on data of unknown size ends each epoch with such a step.
    # Each entry: (slot, "decay" for ``slot + -slot * (1 - rate)`` ("decay_cast" with the
    # rate cast to the slot's dtype first) or "scale" for ``slot * rate``, the attribute
    # holding the rate), applied to the slots of the
    # variables that took sparse gradients.
    _sparse_decays = ()

    def _step_without_gradients(self, variables):
        """Runs the part of a step that needs no gradient, as TF's graph does when the step's
        input runs out: weight decay of `variables` (those with dense gradients), the decay
        of the slots of the variables that took sparse gradients (tf_keras decays every row
        before adding the gradient's), and the count of `iterations`."""
        if not getattr(self, "_built", False):
            return
        sparse = self._decay_sparse_slots(variables, self._sparse_decays)
        # (a variable read by a gather of the input, as an embedding's, waits on it)
        self._apply_weight_decay([v for v in variables if self._var_key(v) in self._index_dict
                                  and self._var_key(v) not in sparse])
        self._iterations.assign_add(1)

    def _decay_sparse_slots(self, variables, decays):
        """Applies `decays` (as `_sparse_decays`) to the slots of those of `variables` that
        took sparse gradients; returns the keys of the variables that did."""
        sparse = getattr(self, "_sparse_variables", set())
        for variable in variables:
            if self._var_key(variable) not in sparse:
                continue
            slots = self._slots_of(variable)
            for name, kind, attribute in decays:
                slot = slots.get(name)
                if slot is None:
                    continue
                rate = getattr(self, attribute)
                if kind == "decay":
                    slot.assign_add(-slot * self._constant(1 - rate, slot.dtype))
                elif kind == "decay_cast":
                    slot.assign_add(-slot * (1 - self._cast(rate, slot.dtype)))
                else:
                    slot.assign(slot * self._constant(rate, slot.dtype))
        return sparse

    def _slots_of(self, variable):
        try:
            return self._slots[self._index_dict[self._var_key(variable)]]
        except KeyError:
            raise KeyError(
                f"The optimizer cannot recognize variable {variable.name}. This usually means "
                f"you are trying to call the optimizer to update different parts of the model "
                f"separately. Please call `optimizer.build(variables)` with the full list of "
                f"trainable variables before the training loop or use legacy optimizer "
                f"`tf.keras.optimizers.legacy.{type(self).__name__}.") from None

    def _update_step(self, gradient, variable):
        self._slots_of(variable)  # an unknown variable is a KeyError
        self.update_step(gradient, variable)

    def update_step(self, gradient, variable):
        """Updates one variable with its gradient (what a custom optimizer overrides)."""
        self._apply(gradient, variable, self._coefficients(variable.dtype))

    def _apply(self, grad, var, coefficients):
        slots = self._slots_of(var)
        sparse = isinstance(grad, IndexedSlices)
        if not (sparse or isinstance(grad, Tensor)):
            grad = convert_to_tensor(grad, dtype=var.dtype)
        if grad.dtype != var.dtype:
            raise errors.InvalidArgumentError(
                None, None, f"The gradient of {var.name} is a {grad.dtype.name} tensor, the "
                            f"variable's dtype is {var.dtype.name}.")
        if sparse:
            self.__dict__.setdefault("_sparse_variables", set()).add(self._var_key(var))
            self._apply_sparse(grad, var, slots, coefficients)
        else:
            if self._broadcasts_gradients:
                grad = _broadcast_to_variable(grad, var)
            self._apply_dense(grad, var, slots, coefficients)

    # tf_keras's update steps are elementwise expressions of the gradient and the variable:
    # a gradient that broadcasts to the variable's shape ((1, n), (n,), a scalar) updates
    # it as its broadcast would (Adagrad, whose accumulator takes the gradient's square
    # alone, and the legacy optimizers' fused ops refuse it)
    _broadcasts_gradients = True

    def _coefficients(self, dtype):
        """The step's scalars (tensors of `dtype`) that `_apply_dense` passes to its op."""
        raise NotImplementedError(f"{type(self).__name__} must implement `update_step`.")

    def _apply_dense(self, grad, var, slots, coefficients):
        """Updates `var` (and its `slots`, a dict) with dense gradient `grad`: one fused op."""
        raise NotImplementedError(f"{type(self).__name__} must implement `update_step`.")

    def _apply_sparse(self, grad, var, slots, coefficients):
        """Updates `var` with `IndexedSlices` `grad`. tf_keras's sparse updates equal the dense
        ones on the summed gradient; algorithms that touch only the gradient's rows override."""
        self._apply_dense(convert_to_tensor(grad), var, slots, coefficients)

    # -- moving averages ----------------------------------------------------------------
    def _averages_of(self, var_list):
        return [self._model_variables_moving_average[self._index_dict[self._var_key(v)]]
                for v in var_list]

    def _update_model_variables_moving_average(self, var_list):
        for var, average in zip(var_list, self._averages_of(var_list)):
            average.assign(self.ema_momentum * average + (1 - self.ema_momentum) * var)

    def _overwrite_model_variables_with_average_value(self, var_list):
        for var, average in zip(var_list, self._averages_of(var_list)):
            var.assign(average)

    def finalize_variable_values(self, var_list):
        """With `use_ema`, sets `var_list` to their moving averages (the end of training)."""
        if self.use_ema:
            self._overwrite_model_variables_with_average_value(var_list)

    def _trackable_children(self):
        """The checkpoint's children: the attributes holding variables (``_variables``,
        ``_iterations``, ...), named as TF names them."""
        return [(k, v) for k, v in self._checkpoint_items()
                if any(isinstance(leaf, Variable) or hasattr(type(leaf), "_trackable_children")
                       for leaf in leaves(v))]

    def _checkpoint_items(self):
        """``(name, value)`` of the attributes a checkpoint looks into for this optimizer's
        variables (a wrapper names those of the optimizer it wraps)."""
        return list(vars(self).items())

    # -- configuration ------------------------------------------------------------------
    def _serialize_hyperparameter(self, hyperparameter):
        if isinstance(hyperparameter, schedules.LearningRateSchedule):
            return schedules.serialize(hyperparameter)
        if isinstance(hyperparameter, Variable):
            return backend.get_value(hyperparameter)
        if callable(hyperparameter):
            return hyperparameter()
        return hyperparameter

    def get_config(self):
        """The constructor arguments, as a dict (`from_config` builds an equal optimizer)."""
        config = {"name": self.name, "weight_decay": self.weight_decay,
                  "clipnorm": self.clipnorm, "global_clipnorm": self.global_clipnorm,
                  "clipvalue": self.clipvalue, "use_ema": self.use_ema,
                  "ema_momentum": self.ema_momentum,
                  "ema_overwrite_frequency": self.ema_overwrite_frequency,
                  "jit_compile": self.jit_compile, "is_legacy_optimizer": False}
        if getattr(self, "_learning_rate", None) is not None:
            config["learning_rate"] = self._serialize_hyperparameter(self._learning_rate)
        config.update({key: getattr(self, key) for key in self._config_keys})
        return config

    @classmethod
    def from_config(cls, config, custom_objects=None):
        """The optimizer `config` (from `get_config`) describes, without its variables."""
        config = dict(config)
        if isinstance(config.get("learning_rate"), dict):
            config["learning_rate"] = schedules.deserialize(config["learning_rate"],
                                                            custom_objects=custom_objects)
        return cls(**config)


def _warn_skipped_loading(optimizer, count, saved):
    """tf_keras's (absl) warning that `optimizer`'s saved state, of `saved` variables, does
    not fit its `count` variables."""
    message = (f"Skipping variable loading for optimizer '{optimizer.name}', because it has "
               f"{count} variables whereas the saved optimizer has {saved} variables. ")
    if count == 0:
        message += "This is likely because the optimizer has not been called/built yet."
    _log.absl_logger.warning(message)


def sum_over_replicas(replica, grads_and_vars):
    """`grads_and_vars` with each gradient summed over the replicas of `replica` (the
    context of one of several synchronized replicas)."""
    if not grads_and_vars:
        return grads_and_vars
    grads = [g for g, _ in grads_and_vars]
    present = [i for i, g in enumerate(grads) if g is not None]
    summed = replica.all_reduce("SUM", [grads[i] for i in present])
    for i, g in zip(present, summed):
        grads[i] = g
    return list(zip(grads, [v for _, v in grads_and_vars]))


def _filter_empty_gradients(grads_and_vars):
    """The pairs with a gradient; warns about the others, a ValueError when none has one."""
    grads_and_vars = tuple(tuple(pair) for pair in grads_and_vars)
    filtered = tuple((g, v) for g, v in grads_and_vars if g is not None)
    if not filtered:
        names = ([v.name for _, v in grads_and_vars],)
        raise ValueError(f"No gradients provided for any variable: {names}. Provided "
                         f"`grads_and_vars` is {grads_and_vars}.")
    if len(filtered) < len(grads_and_vars):
        _logger.warning("Gradients do not exist for variables %s when minimizing the loss. If "
                        "you're using `model.compile()`, did you forget to provide a `loss` "
                        "argument?", [v.name for g, v in grads_and_vars if g is None])
    return filtered


def _broadcast_to_variable(grad, var):
    """Dense `grad` broadcast to `var`'s shape where its shape differs and broadcasts to it
    (unknown dimensions are taken to); otherwise `grad` (the update op then refuses it)."""
    g, v = grad.shape, var.shape
    if g.rank is None or v.rank is None or g.rank > v.rank:
        return grad
    g, v = g.as_list(), v.as_list()
    if g == v or not all(a is None or a == 1 or a == b for a, b in zip(g[::-1], v[::-1])):
        return grad
    return array_ops.broadcast_to(grad, v if None not in v else array_ops.shape(var))


class RestoredOptimizer(Optimizer):
    """The optimizer of a Keras SavedModel loaded without compiling, as tf_keras revives it:
    it holds the saved optimizer's variables (`iterations`, the learning rate, the slots,
    under their saved names) but not its algorithm, so it neither applies gradients nor
    gives a config."""

    def __init__(self):
        super().__init__("RestoredOptimizer")

    def update_step(self, gradient, variable):
        raise NotImplementedError

    def get_config(self):
        raise NotImplementedError("Restoring functional Optimizers from SavedModels is not "
                                  "currently supported. Please file a feature request if this "
                                  "limitation bothers you.")

    @classmethod
    def from_checkpoint(cls, proto, reader, node_id):
        """The optimizer of checkpoint node `node_id` (`proto`, a TrackableObjectGraph read by
        `reader`): each child holding a variable, or a list of them, set as its attribute."""
        made = {}

        def variable(i):
            if i not in made:
                attribute = next((a for a in proto.nodes[i].attributes
                                  if a.name == "VARIABLE_VALUE"), None)
                if attribute is None:
                    made[i] = None
                else:
                    with context.init_scope():
                        made[i] = Variable(reader.get_tensor(attribute.checkpoint_key),
                                           name=attribute.full_name or None, trainable=False)
            return made[i]

        optimizer = cls()
        for ref in proto.nodes[node_id].children:
            node = proto.nodes[ref.node_id]
            if node.attributes:
                value = variable(ref.node_id)
            elif node.children and all(c.local_name.isdigit() for c in node.children):
                items = sorted((int(c.local_name), c.node_id) for c in node.children)
                value = [variable(i) for _, i in items]
                if any(v is None for v in value):
                    continue
                value = _CallableList(value) if ref.local_name == "_variables" else value
            else:
                continue
            if value is not None:
                setattr(optimizer, ref.local_name, value)
        return optimizer


def recorded_loss(loss, var_list, tape=None):
    """`loss`, `var_list` and the tape to take their gradients with: a callable `loss` is run
    under `tape` (a new one if None) watching `var_list` (a callable giving it is called
    there too)."""
    if tape is None:
        tape = GradientTape()
    if callable(loss):
        with tape:
            if not callable(var_list):
                tape.watch(var_list)
            loss = loss()
            if callable(var_list):
                var_list = var_list()
    return loss, var_list, tape
