"""The pre-2.11 Keras optimizers (``tf.keras.optimizers.legacy``, tf_keras's OptimizerV2).

Each algorithm is the current one's update (the same fused op) with the legacy
optimizer's behaviour around it:

* slots are made for any variable on its first step (no `build` over the whole
  variable list first, so no KeyError for a variable seen late), named
  ``<optimizer>/<variable>/<slot>`` under the legacy slot names (RMSprop's
  ``rms``, SGD's ``momentum`` only with momentum), slot by slot;
* ``decay`` divides the learning rate by ``1 + decay * iterations``; ``lr`` is
  the learning rate's old name; no weight decay or moving averages;
* `get_config` has the legacy keys (``decay``; clipping only when set);
  `minimize` returns the step; `get_updates`, `get_gradients`, `add_slot`,
  `variables()` and `weights` as in Keras 2.

A subclass in the legacy style (``_create_slots`` with `add_slot`,
``_resource_apply_dense(grad, var, apply_state)``, ``_set_hyper``) runs too.

>>> opt = tf.keras.optimizers.legacy.SGD(learning_rate=1.0, decay=0.5)
>>> var = tf.Variable(1.0)
>>> for _ in range(2):
...     _ = opt.apply_gradients([(tf.constant(1.0), var)])
>>> print(var.numpy(), opt.iterations.name)
-0.6666667 SGD/iter:0
"""
import numbers
import warnings

import numpy as np

from eagerflow._src.autodiff.graph_gradients import gradients
from eagerflow._src.backend.api_export import export
from eagerflow._src.core import context
from eagerflow._src.core import dtypes as _d
from eagerflow._src.core import module as module_lib
from eagerflow._src.core.variables import Variable
from eagerflow._src.keras import backend, initializers
from eagerflow._src.keras.optimizers import (
    adadelta, adagrad, adam, adamax, ftrl, nadam, optimizer, rmsprop, schedules, sgd)
from eagerflow._src.core.dispatch import dispatch
from eagerflow._src.ops import array_ops, math_ops, training_ops
from eagerflow._src.ops.cast_ops import cast
from eagerflow._src.ops.indexed_slices import IndexedSlices, deduplicated

_ALLOWED_KWARGS = {"clipnorm", "clipvalue", "global_clipnorm", "decay", "lr"}


class _Hyperparameter:
    """A hyperparameter as TF's OptimizerV2 checkpoints it: a float32 scalar variable.
    `get()` gives its value here, `set(value)` takes a restored one."""

    __slots__ = ("get", "set", "__weakref__")

    def __init__(self, get, set):  # noqa: A002 (TF's words)
        self.get, self.set = get, set

    def _serialize_to_tensors(self):
        return {"VARIABLE_VALUE": np.array(self.get(), np.float32)}

    def _restore_from_tensors(self, tensors):
        value = tensors["VARIABLE_VALUE"]
        value = np.float32(value)
        if np.float32(self.get()) != value:  # (an equal value keeps the number as given)
            self.set(float(str(value)))  # the shortest number of that float32 (0.9)


@export("keras.optimizers.legacy.Optimizer", "compat.v1.keras.optimizers.Optimizer")
class OptimizerV2(optimizer.Optimizer):
    """The base class of the legacy optimizers (``tf.keras.optimizers.legacy.Optimizer``)."""

    _aggregation_filters = False  # (its aggregation takes the gradients the step filtered)

    _broadcasts_gradients = False  # (their fused ops take gradients of the variable's shape)
    _sums_repeated_rows = False  # (`_apply` does, as the algorithm needs)

    # TF's OptimizerV2 keeps its hyperparameters in float32 variables: a float64 update
    # reads them rounded to float32, ``1 - beta`` included
    def _number_hyper(self, value, dtype):
        return self._cast(value, dtype)

    def _rate(self, value):
        return self._cast(value, _d.float64)

    _ITERATIONS_NAME = "{name}/iter"
    _saved_model_identifier = ("optimizer", 2, 1)  # (TF's OptimizerV2's)
    # Legacy slot order: slot by slot over the variables (False: variable by variable).
    _slot_major = True
    # The attributes TF's optimizer keeps as hyperparameter variables (besides the learning
    # rate and decay), which its checkpoints hold
    _legacy_hypers = ()

    # (as `_sparse_decays`: those of TF's legacy sparse updates that wait on no gradient)
    _legacy_sparse_decays = ()

    def _apply(self, grad, var, coefficients):
        # tf_keras sums the values of a sparse gradient's repeated indices before the
        # update: TF's sparse kernels would update such a row once per occurrence
        if isinstance(grad, IndexedSlices):
            grad = deduplicated(grad)
        super()._apply(grad, var, coefficients)

    def _step_without_gradients(self, variables):
        """The legacy updates wait on the gradients, the count of iterations too: only some
        sparse updates' decay of their slots runs."""
        self._decay_sparse_slots(variables, self._legacy_sparse_decays)

    def __init__(self, name, weight_decay=None, clipnorm=None, clipvalue=None,
                 global_clipnorm=None, ema_overwrite_frequency=None, gradient_aggregator=None,
                 gradient_transformers=None, **kwargs):
        if weight_decay is not None:
            kwargs["weight_decay"] = weight_decay
        for key in kwargs:
            if key not in _ALLOWED_KWARGS:
                raise TypeError(f"Unexpected keyword argument passed to optimizer: {key}. "
                                f"Allowed kwargs are {_ALLOWED_KWARGS}.")
        if clipnorm is not None and global_clipnorm is not None:
            raise ValueError(f"Cannot accept both `clipnorm` and `global_clipnorm`. Received: "
                             f"`clipnorm`={clipnorm}, `global_clipnorm`={global_clipnorm}.")
        decay = kwargs.pop("decay", 0.0)
        if decay < 0.0:
            raise ValueError(f"decay cannot be less than 0. Received: decay={decay}.")
        self._initial_decay = decay
        self._renamed_lr = kwargs.pop("lr", None)
        if self._renamed_lr is not None:
            warnings.warn("The `lr` argument is deprecated, use `learning_rate` instead.")
        self._hyper = {}
        self._slot_names = []
        self._index_dict, self._slots = {}, []
        self._slot_owners = []  # the variable of each entry of `_slots`
        self._hyper_nodes = {}  # name -> its `_Hyperparameter` (one per name, for restores)
        # In TF 1's graph mode TF's OptimizerV2 makes `iterations` and its hyperparameters'
        # variables when they are first used, in the name scope open then: its first step
        # (under Keras's ``training`` scope in `fit`: ``training/Adam/iter``), or a read
        # of `iterations` or the learning rate (``iter``, ``learning_rate``)
        self._made_when_used = backend.building_v1_graph()
        self._graph_hypers = None  # (those variables, once made)
        super().__init__(name, weight_decay=None, clipnorm=clipnorm, clipvalue=clipvalue,
                         global_clipnorm=global_clipnorm)

    def _make_iterations(self):
        if not self._made_when_used:
            super()._make_iterations()

    @property
    def _iterations(self):
        variable = self.__dict__.get("_iterations_variable")
        if variable is None:  # (TF 1's graph mode: made on first use)
            with context.lifting_scope():
                variable = Variable(0, name="iter", dtype=_d.int64, trainable=False)
            self.__dict__["_iterations_variable"] = variable
            self._variables.insert(0, variable)
            module_lib.tracked(self)  # a checkpoint loaded before restores it
        return variable

    @_iterations.setter
    def _iterations(self, variable):
        self.__dict__["_iterations_variable"] = variable

    def _steps_so_far(self):
        made = self.__dict__.get("_iterations_variable")
        return 0 if made is None else made  # (none before `iterations` is made)

    def _build_learning_rate(self, learning_rate):
        if self._renamed_lr is not None:
            learning_rate = self._renamed_lr
        self._initial_learning_rate = learning_rate
        if self._made_when_used and isinstance(learning_rate, numbers.Real):
            return learning_rate  # (its variable is made on first use, `_make_graph_hypers`)
        return super()._build_learning_rate(learning_rate)

    def _decayed(self, lr, dtype):
        """`lr` decayed by `decay` over the steps taken."""
        if self._initial_decay > 0:
            decay = self._cast(self._initial_decay, dtype)
            lr = lr / (1.0 + decay * cast(self._iterations, dtype))
        return lr

    # -- hyperparameters -------------------------------------------------------------
    @property
    def learning_rate(self):
        """The rate as TF's OptimizerV2 holds it: its schedule, or its variable (a number set
        in place of a schedule stays a number)."""
        if self._made_when_used and self._graph_hypers is None:
            self._make_graph_hypers()  # (read in TF 1's graph mode: the variables are made)
        rate = optimizer.Optimizer.learning_rate.fget(self)
        return self._learning_rate if isinstance(
            self._learning_rate, schedules.LearningRateSchedule) else rate

    @learning_rate.setter
    def learning_rate(self, value):
        if (isinstance(self._learning_rate, (schedules.LearningRateSchedule, numbers.Real))
                and not isinstance(value, schedules.LearningRateSchedule)):
            # (TF's hyperparameter variables are made by then; or, in TF 1's graph mode, not
            # yet: they take the number)
            self._learning_rate = value
            return
        optimizer.Optimizer.learning_rate.fset(self, value)

    lr = learning_rate  # the Keras 2 alias

    def _lr(self, dtype):  # this step's rate, the schedule's through its variable
        return self._decayed(cast(optimizer.Optimizer.learning_rate.fget(self), dtype), dtype)

    def _set_hyper(self, name, value):
        if name in ("learning_rate", "lr"):
            if getattr(self, "_learning_rate", None) is None:
                self._learning_rate = self._build_learning_rate(value)
            else:
                self.learning_rate = value
            return
        self._hyper[name] = value

    def _get_hyper(self, name, dtype=None):
        if name in ("learning_rate", "lr"):
            value = self.learning_rate
        else:
            value = self._hyper[name]
            if callable(value) and not isinstance(value, Variable):
                value = value()
        return value if dtype is None else cast(value, dtype)

    # -- slots -------------------------------------------------------------------------
    def _legacy_slot_name(self, name):
        renamed = {new: old for old, new in self._slot_aliases.items()}
        return renamed.get(name, name)

    def build(self, var_list):
        """Makes the slots of the variables in `var_list` that have none yet."""
        self._hypers_created = True  # (TF's float32 hyperparameter variables, for the config)
        new = []
        for var in var_list:
            key = self._var_key(var)
            if key not in self._index_dict:
                self._index_dict[key] = len(self._slots)
                self._slots.append({})
                self._slot_owners.append(var)
                new.append(var)
        if not new:
            return
        self._building = True  # (restores waiting for the slots look once, at the end)
        try:
            if type(self)._create_slots is not OptimizerV2._create_slots:
                self._create_slots(new)
            else:
                groups = self._slot_groups()
                if self._slot_major:
                    groups = [{name: initial} for group in groups
                              for name, initial in group.items()]
                for group in groups:
                    for var in new:
                        for name, initial in group.items():
                            self.add_slot(var, name, initial)
        finally:
            self._building = False
        module_lib.tracked(self)  # a checkpoint restored before the slots existed

    def _make_graph_variables(self, grads_and_vars):
        """As TF's OptimizerV2 makes them at its first step in a TF 1 graph, in its name
        scope (under the one open: Keras's ``training`` in `fit`): `iterations`, its
        hyperparameters' variables, then the slots."""
        if not grads_and_vars:
            return
        with context.name_scope(self.name):
            if self._graph_hypers is None:  # (made before, as the optimizer was: now)
                self._made_when_used = True
            self._create_all_weights([v for _, v in grads_and_vars])

    def _create_all_weights(self, var_list):
        """TF's OptimizerV2's: `iterations`, in TF 1's graph mode the hyperparameters'
        variables, then the slots of `var_list`, in the name scope open (their first)."""
        if self._made_when_used:
            self.__dict__.setdefault("_graph_scope", context.get().scope)
            self._iterations  # noqa: B018 (made on first use)
            if self._graph_hypers is None:
                self._make_graph_hypers()
        with context.init_scope():
            self.build(var_list)

    def _make_graph_hypers(self):
        """In a TF 1 graph: TF's OptimizerV2 holds its hyperparameters in float32 variables
        among the graph's global variables (``beta_1``, ..., ``learning_rate``, by name, in
        the name scope open), which a session initializes; the learning rate's is the one
        the steps read (set it with ``K.set_value``)."""
        self._graph_hypers = []
        self._hypers_created = True
        for name, (attribute, owner) in sorted(self._hyper_attributes().items()):
            value = owner[attribute] if isinstance(owner, dict) else getattr(owner, attribute)
            if name == "learning_rate" and isinstance(value, Variable):
                value = self._initial_learning_rate  # (made at construction: replaced)
            if not isinstance(value, numbers.Real):
                continue  # (a schedule's rate is no variable)
            with context.lifting_scope():
                variable = Variable(np.float32(value), name=name, dtype=_d.float32,
                                    trainable=False)
            self._graph_hypers.append(variable)
            if name == "learning_rate":
                self._learning_rate = variable
        module_lib.tracked(self)  # (a checkpoint loaded before restores the learning rate's)

    def _hyper_attributes(self):
        """TF's hyperparameter variables: name -> (attribute, its owner: self or `_hyper`);
        the learning rate's is ``_learning_rate``."""
        hypers = {"decay": ("_initial_decay", self), "learning_rate": ("_learning_rate", self)}
        hypers.update({name: (name, self) for name in self._legacy_hypers})
        hypers.update({name: (name, self._hyper) for name, value in self._hyper.items()
                       if isinstance(value, numbers.Real)})
        return hypers

    def _slot_scope(self):
        """The absolute name scope of the slots: the optimizer's, under the scope open at its
        first step in a TF 1 graph."""
        scope = self.__dict__.get("_graph_scope")
        return f"{self.name}/" if scope is None else scope

    def _create_slots(self, var_list):
        """Makes each variable's slots with `add_slot` (what a legacy subclass overrides)."""

    def add_slot(self, var, slot_name, initializer="zeros", shape=None):
        """The slot `slot_name` of `var`, made on first use (``<optimizer>/<var>/<slot>``)."""
        index = self._index_dict.get(self._var_key(var))
        if index is None:
            self._index_dict[self._var_key(var)] = index = len(self._slots)
            self._slots.append({})
            self._slot_owners.append(var)
        slots = self._slots[index]
        if slot_name in slots:
            return slots[slot_name]
        legacy_name = self._legacy_slot_name(slot_name)
        if legacy_name not in self._slot_names:
            self._slot_names.append(legacy_name)
        shape = var.shape if shape is None else shape
        if isinstance(initializer, numbers.Real):
            initial = np.full(shape, initializer, var.dtype.as_numpy_dtype)
        else:
            initial = initializers.get(initializer)(shape, var.dtype)
        with context.init_scope(), context.name_scope_push(self._slot_scope()):
            slot = Variable(initial, name=f"{optimizer._shared_name(var)}/{legacy_name}",
                            dtype=var.dtype, trainable=False)
        self._variables.append(slot)
        slots[slot_name] = slot
        if not getattr(self, "_building", False):
            module_lib.tracked(self)
        return slot

    # -- checkpoints: TF's OptimizerV2 layout ----------------------------------------------
    def _trackable_children(self):
        """``iter``, the hyperparameters by name (as variables), then what a subclass adds;
        the slots are saved by variable (`_checkpoint_slot_variables`)."""
        hypers = self._hyper_attributes()
        made = self.__dict__.get("_iterations_variable")  # (made on first use in TF 1 graphs)
        out = [] if made is None else [("iter", made)]
        for name in sorted(hypers):
            if name == "learning_rate":
                rate = getattr(self, "_learning_rate", None)
                if isinstance(rate, Variable):
                    out.append((name, rate))
                elif isinstance(rate, numbers.Real):  # (its variable not made yet)
                    out.append((name, self._hyper_node(name, "_learning_rate", self)))
                continue
            attribute, owner = hypers[name]
            out.append((name, self._hyper_node(name, attribute, owner)))
        return out + self._extra_checkpoint_children()

    def _extra_checkpoint_children(self):
        return []

    def _hyper_node(self, name, attribute, owner):
        node = self._hyper_nodes.get(name)
        if node is None:
            if isinstance(owner, dict):
                node = _Hyperparameter(lambda: owner[attribute],
                                       lambda v: owner.__setitem__(attribute, v))
            else:
                node = _Hyperparameter(lambda: getattr(owner, attribute),
                                       lambda v: setattr(owner, attribute, v))
            self._hyper_nodes[name] = node
        return node

    def _checkpoint_slot_variables(self):
        """``[(slot name, [(variable, slot)])]``: TF's slot names, in the order made."""
        out = []
        for legacy_name in self._slot_names:
            name = self._slot_aliases.get(legacy_name, legacy_name)
            pairs = [(var, slots[name]) for var, slots in zip(self._slot_owners, self._slots)
                     if name in slots]
            out.append((legacy_name, pairs))
        return out

    def get_slot_names(self):
        """The names of the slots made so far (``['m', 'v']`` for Adam after a step)."""
        return list(self._slot_names)

    @property
    def weights(self):
        """`iterations`, then the slots in the order they were made."""
        return self.variables

    def get_weights(self):
        """The values of `weights`, as NumPy arrays."""
        return backend.batch_get_value(self.weights)

    def set_weights(self, weights):
        """Assigns `weights` (arrays, in the order of `weights`): as many as there are."""
        params = self.weights
        if len(params) != len(weights):
            raise ValueError(f"You called `set_weights(weights)` on optimizer {self.name} with a "
                             f" weight list of length {len(weights)}, but the optimizer was "
                             f"expecting {len(params)} weights. Provided weights: "
                             f"{str(weights)[:50]}...")
        for param, weight in zip(params, weights):
            if tuple(param.shape) != np.shape(weight):
                raise ValueError(f"Optimizer weight shape {tuple(param.shape)} not compatible "
                                 f"with provided weight shape {np.shape(weight)}.")
        backend.batch_set_value(list(zip(params, weights)))

    # -- steps ---------------------------------------------------------------------------
    def minimize(self, loss, var_list, grad_loss=None, name=None, tape=None):
        """One step down the gradient of `loss`; returns the step (`iterations` after it)."""
        return self.apply_gradients(self.compute_gradients(loss, var_list, tape), name=name)

    def get_gradients(self, loss, params):
        """The gradients of `loss` with respect to `params` (in a graph, as Keras 1 code)."""
        grads = gradients(loss, params)
        for grad, param in zip(grads, params):
            if grad is None:
                raise ValueError(f"Variable {param} has `None` for gradient. Please make sure "
                                 f"that all of your ops have a gradient defined (i.e. are "
                                 f"differentiable). Common ops without gradient: K.argmax, "
                                 f"K.round, K.eval.")
        return self._clip_gradients(grads)

    def get_updates(self, loss, params):
        """``[step]``: the update of `params` down the gradient of `loss` (Keras 1 style)."""
        return [self.apply_gradients(zip(self.get_gradients(loss, params), params))]

    def _internal_apply_gradients(self, grads_and_vars):
        if type(self)._resource_apply_dense is OptimizerV2._resource_apply_dense:
            return super()._internal_apply_gradients(grads_and_vars)
        apply_state = {}
        for grad, var in grads_and_vars:
            key = (var.device, var.dtype)
            if key not in apply_state:
                apply_state[key] = {}
                self._prepare_local(var.device, var.dtype, apply_state)
            if isinstance(grad, IndexedSlices):
                grad = deduplicated(grad)
                self._resource_apply_sparse(grad.values, var, grad.indices,
                                            apply_state=apply_state)
            else:
                self._resource_apply_dense(grad, var, apply_state=apply_state)
        return self._iterations.assign_add(1)

    def _prepare_local(self, var_device, var_dtype, apply_state):
        apply_state[(var_device, var_dtype)]["lr_t"] = self._lr(var_dtype)

    def _resource_apply_dense(self, grad, handle, apply_state):
        """Updates `handle` with dense `grad` (what a legacy subclass overrides)."""
        raise NotImplementedError("Must be implemented in subclasses.")

    def _resource_apply_sparse(self, grad, handle, indices, apply_state):
        """Updates the rows `indices` of `handle` (a legacy subclass may override)."""
        dense = math_ops.unsorted_segment_sum(grad, indices, handle.shape[0])
        self._resource_apply_dense(dense, handle, apply_state)

    # -- configuration --------------------------------------------------------------------
    def get_config(self):
        """The legacy keys: name, clipping (when set), learning_rate, decay, then the
        algorithm's."""
        config = {"name": self.name}
        for key in ("clipnorm", "clipvalue", "global_clipnorm"):
            if getattr(self, key) is not None:
                config[key] = getattr(self, key)
        if getattr(self, "_learning_rate", None) is not None:
            rate = self._serialize_hyperparameter(self._learning_rate)
            # a Python number until it changes, as the legacy optimizers make the variable late
            initial = self._initial_learning_rate
            if isinstance(initial, numbers.Real) and np.float32(initial) == rate:
                rate = self._as_hyper_variable(initial)
            config["learning_rate"] = rate
        config["decay"] = self._initial_decay
        config.update({key: self._as_hyper_variable(getattr(self, key))
                       if key in self._legacy_hypers else getattr(self, key)
                       for key in self._config_keys})
        return config

    def _as_hyper_variable(self, value):
        """A number hyperparameter as TF's config gives it: once the optimizer has built its
        float32 hyperparameter variables (its first update), their value (``np.float32``)."""
        if getattr(self, "_hypers_created", False) and isinstance(value, numbers.Real):
            return np.float32(value)
        return value


@export("keras.optimizers.legacy.SGD", "compat.v1.keras.optimizers.SGD")
class SGD(sgd.SGD, OptimizerV2):
    """Gradient descent with optional (Nesterov) momentum; a ``momentum`` slot only with
    momentum."""

    _legacy_hypers = ("momentum",)
    _plain_without_momentum = True

    def __init__(self, learning_rate=0.01, momentum=0.0, nesterov=False, name="SGD", **kwargs):
        if isinstance(momentum, (int, float)) and (momentum < 0 or momentum > 1):
            raise ValueError(f"`momentum` must be between [0, 1]. Received: "
                             f"momentum={momentum} (of type {type(momentum)}).")
        super().__init__(learning_rate=learning_rate, momentum=momentum, nesterov=nesterov,
                         name=name, **kwargs)

    def _slot_groups(self):
        return [] if optimizer._is_zero(self.momentum) else super()._slot_groups()

    def _apply(self, grad, var, coefficients):
        if isinstance(grad, IndexedSlices) and coefficients[1] is None:
            # (without momentum TF's legacy SGD scatters the slices as they come: a repeated
            # index's one after the other, not summed first)
            return optimizer.Optimizer._apply(self, grad, var, coefficients)
        return super()._apply(grad, var, coefficients)

    def _apply_sparse(self, grad, var, slots, coefficients):
        # TF's sparse momentum: only the gradient's rows (duplicates summed) and their slot
        lr, momentum = coefficients
        if momentum is None:
            var.scatter_add(IndexedSlices(-grad.values * lr, grad.indices, grad.dense_shape))
            return
        dispatch(training_ops.SPARSE_KERAS_MOMENTUM,
                 (var, slots["m"], lr, grad.values, grad.indices, momentum),
                 {"use_nesterov": bool(self.nesterov)})


@export("keras.optimizers.legacy.Adam", "compat.v1.keras.optimizers.Adam")
class Adam(adam.Adam, OptimizerV2):
    _legacy_hypers = ("beta_1", "beta_2")
    _legacy_sparse_decays = (("m", "scale", "beta_1"), ("v", "scale", "beta_2"))

    def __init__(self, learning_rate=0.001, beta_1=0.9, beta_2=0.999, epsilon=1e-7,
                 amsgrad=False, name="Adam", **kwargs):
        super().__init__(learning_rate=learning_rate, beta_1=beta_1, beta_2=beta_2,
                         epsilon=epsilon, amsgrad=amsgrad, name=name, **kwargs)

    def _coefficients(self, dtype):
        # TF's Adam kernel takes the rates in the variable's dtype: ``1 - float32(0.999)``
        coefficients = list(super()._coefficients(dtype))
        coefficients[3:5] = [cast(rate, dtype) for rate in coefficients[3:5]]
        return tuple(coefficients)


@export("keras.optimizers.legacy.RMSprop", "compat.v1.keras.optimizers.RMSprop")
class RMSprop(rmsprop.RMSprop, OptimizerV2):
    _legacy_hypers = ("momentum", "rho")

    def __init__(self, learning_rate=0.001, rho=0.9, momentum=0.0, epsilon=1e-7,
                 centered=False, name="RMSprop", **kwargs):
        super().__init__(learning_rate=learning_rate, rho=rho, momentum=momentum,
                         epsilon=epsilon, centered=centered, name=name, **kwargs)

    def _coefficients(self, dtype):
        # TF's RMSprop kernels take rho in the variable's dtype: ``1 - float32(rho)``
        lr, rho, momentum, epsilon = super()._coefficients(dtype)
        return lr, cast(rho, dtype), momentum, epsilon

    @property
    def _legacy_sparse_decays(self):
        # without momentum, the decay of every row's averages waits on no gradient
        if any("momentum" in group for group in self._slot_groups()):
            return ()
        return (("velocity", "scale", "rho"), ("average_gradient", "scale", "rho"))

    def _averages(self, grad, slots, coefficients, indices=None):
        """tf_keras's legacy RMSprop without momentum: every row's moving averages decay,
        the gradient's (its `indices`, None for dense) take it in; returns the divisor of
        the step (of those rows), with epsilon outside the square root."""
        dtype = grad.dtype
        rho = cast(coefficients[1], dtype)
        one_minus_rho = 1.0 - rho

        def average(slot, value):
            if indices is None:
                average = rho * slot + one_minus_rho * value
                slot.assign(average)  # (in a TF 1 graph, an op: the new value is `average`)
                return average
            slot.assign(slot * rho)
            slot.scatter_add(IndexedSlices(value * one_minus_rho, indices))
            return array_ops.gather(slot.value(), indices)
        denominator = average(slots["velocity"], math_ops.square(grad))
        if self.centered:
            denominator = denominator - math_ops.square(
                average(slots["average_gradient"], grad))
        return math_ops.sqrt(denominator) + coefficients[3]

    def _apply_dense(self, grad, var, slots, coefficients):
        if "momentum" in slots:  # TF's RMSprop kernels
            return super()._apply_dense(grad, var, slots, coefficients)
        var.assign(var - coefficients[0] * grad / self._averages(grad, slots, coefficients))

    def _apply_sparse(self, grad, var, slots, coefficients):
        # With momentum, TF's sparse RMSprop kernel: only the gradient's rows (duplicates
        # summed) and their slots; without, every row's averages decay.
        mom = slots.get("momentum")
        if mom is None:
            divisor = self._averages(grad.values, slots, coefficients, grad.indices)
            var.scatter_add(IndexedSlices(-coefficients[0] * grad.values / divisor,
                                          grad.indices))
            return
        if self.centered:
            dispatch(training_ops.SPARSE_CENTERED_RMS_PROP,
                     (var, slots["average_gradient"], slots["velocity"], mom, *coefficients,
                      grad.values, grad.indices))
        else:
            dispatch(training_ops.SPARSE_RMS_PROP, (var, slots["velocity"], mom, *coefficients,
                                                    grad.values, grad.indices))


@export("keras.optimizers.legacy.Adagrad", "compat.v1.keras.optimizers.Adagrad")
class Adagrad(adagrad.Adagrad, OptimizerV2):
    _accumulates_first = False

    def __init__(self, learning_rate=0.001, initial_accumulator_value=0.1, epsilon=1e-7,
                 name="Adagrad", **kwargs):
        if initial_accumulator_value < 0.0:
            raise ValueError(f"initial_accumulator_value must be non-negative: "
                             f"{initial_accumulator_value}")
        super().__init__(learning_rate=learning_rate,
                         initial_accumulator_value=initial_accumulator_value, epsilon=epsilon,
                         name=name, **kwargs)

    # TF's legacy Adagrad adds epsilon to the root of the accumulator (AdagradV2 kernels),
    # tf_keras's Adagrad to the accumulator under the root
    def _apply_dense(self, grad, var, slots, coefficients):
        dispatch(training_ops.ADAGRAD_V2, (var, slots["accumulator"], *coefficients, grad))

    def _apply_sparse(self, grad, var, slots, coefficients):
        dispatch(training_ops.SPARSE_ADAGRAD_V2,
                 (var, slots["accumulator"], *coefficients, grad.values, grad.indices))


@export("keras.optimizers.legacy.Adadelta", "compat.v1.keras.optimizers.Adadelta")
class Adadelta(adadelta.Adadelta, OptimizerV2):
    _legacy_hypers = ("rho",)

    def __init__(self, learning_rate=0.001, rho=0.95, epsilon=1e-7, name="Adadelta",
                 **kwargs):
        super().__init__(learning_rate=learning_rate, rho=rho, epsilon=epsilon, name=name,
                         **kwargs)

    def _apply_sparse(self, grad, var, slots, coefficients):
        # TF's sparse Adadelta: only the gradient's rows (duplicates summed) and their slots
        dispatch(training_ops.SPARSE_ADADELTA,
                 (var, slots["accumulated_grad"], slots["accumulated_delta_var"], *coefficients,
                  grad.values, grad.indices))


@export("keras.optimizers.legacy.Adamax", "compat.v1.keras.optimizers.Adamax")
class Adamax(adamax.Adamax, OptimizerV2):
    _legacy_hypers = ("beta_1", "beta_2")

    def __init__(self, learning_rate=0.001, beta_1=0.9, beta_2=0.999, epsilon=1e-7,
                 name="Adamax", **kwargs):
        super().__init__(learning_rate=learning_rate, beta_1=beta_1, beta_2=beta_2,
                         epsilon=epsilon, name=name, **kwargs)

    def _apply_dense(self, grad, var, slots, coefficients):  # (TF's kernel)
        dispatch(training_ops.ADA_MAX, (var, slots["m"], slots["u"], *coefficients, grad))

    def _apply_sparse(self, grad, var, slots, coefficients):
        # tf_keras's legacy sparse Adamax: only the gradient's rows and their slots
        dispatch(training_ops.SPARSE_ADA_MAX, (var, slots["m"], slots["u"], *coefficients,
                                               grad.values, grad.indices))


@export("keras.optimizers.legacy.Nadam", "compat.v1.keras.optimizers.Nadam")
class Nadam(nadam.Nadam, OptimizerV2):
    """Nadam whose momentum schedule decays at `decay` (the legacy ``schedule_decay``,
    0.004) per step; the learning rate itself is not decayed."""

    _legacy_sparse_decays = (("m", "scale", "beta_1"), ("v", "scale", "beta_2"))

    _legacy_hypers = ("beta_1", "beta_2")

    def __init__(self, learning_rate=0.001, beta_1=0.9, beta_2=0.999, epsilon=1e-7,
                 name="Nadam", **kwargs):
        kwargs["decay"] = kwargs.pop("schedule_decay", kwargs.get("decay", 0.004))
        super().__init__(learning_rate=learning_rate, beta_1=beta_1, beta_2=beta_2,
                         epsilon=epsilon, name=name, **kwargs)

    def _momentum_at(self, step, dtype):
        return super()._momentum_at(step * self._constant(self._initial_decay, dtype), dtype)

    def build(self, var_list):
        super().build(var_list)
        restored = self.__dict__.pop("_restored_momentum_cache", None)
        if restored is not None:
            self._set_momentum_cache(restored)

    def _new_u_product(self, dtype):
        with context.name_scope_push(self._slot_scope()):  # (TF's momentum_cache weight)
            return Variable(1.0, name="momentum_cache", dtype=dtype, trainable=False)

    @property
    def variables(self):
        """`iterations`, ``momentum_cache`` once built, then the slots (TF's weights)."""
        out = list(super().variables)
        if getattr(self, "_built", False):
            out.insert(1, self._u_product)
        return optimizer._CallableList(out)

    def set_weights(self, weights):
        super().set_weights(weights)
        if getattr(self, "_built", False):  # the product given covers the steps taken
            self._u_product_step.assign(self._iterations)

    def _extra_checkpoint_children(self):
        # TF's ``momentum_cache``: the product of the momentum schedule over the steps taken
        return [("momentum_cache", self._hyper_node("momentum_cache", None, None))]

    def _hyper_node(self, name, attribute, owner):
        if name != "momentum_cache" or name in self._hyper_nodes:
            return super()._hyper_node(name, attribute, owner)
        node = self._hyper_nodes[name] = _Hyperparameter(self._momentum_cache,
                                                         self._set_momentum_cache)
        return node

    def _momentum_cache(self):
        if hasattr(self, "_u_product"):
            return backend.get_value(self._u_product)  # (in TF 1's graph mode, the session's)
        return self.__dict__.get("_restored_momentum_cache", 1.0)

    def _set_momentum_cache(self, value):
        if not hasattr(self, "_u_product"):  # assigned when the optimizer is built
            self._restored_momentum_cache = value
            return
        # the product covers the steps taken (in TF 1's graph mode, set in the Keras session)
        backend.batch_set_value([(self._u_product, value), (self._u_product_step,
                                                            backend.get_value(self._iterations))])

    def _lr(self, dtype):
        return cast(optimizer.Optimizer.learning_rate.fget(self), dtype)

    # the momentum cache advances once per step (and dtype)
    update_step = optimizer.Optimizer.update_step

    def _step_without_gradients(self, variables):
        # tf_keras's advance of the momentum cache waits on no gradient (the count of
        # iterations does: the next step advances it again by the same factor)
        super()._step_without_gradients(variables)
        if getattr(self, "_built", False):
            dtype = self._u_product.dtype
            self._u_product.assign(self._u_product * self._momentum_at(
                cast(self._iterations + 1, dtype), dtype))

    def _apply_sparse(self, grad, var, slots, coefficients):
        # tf_keras's legacy sparse Nadam: the moments of every row decay, the gradient's
        # rows alone are updated
        dispatch(training_ops.SPARSE_KERAS_NADAM, (var, slots["m"], slots["v"], *coefficients,
                                                   grad.values, grad.indices))


@export("keras.optimizers.legacy.Ftrl", "compat.v1.keras.optimizers.Ftrl")
class Ftrl(ftrl.Ftrl, OptimizerV2):
    _config_keys = ("initial_accumulator_value", "learning_rate_power",
                    "l1_regularization_strength", "l2_regularization_strength", "beta",
                    "l2_shrinkage_regularization_strength")
    _slot_major = False
    _legacy_hypers = ("beta", "l1_regularization_strength", "l2_regularization_strength",
                      "learning_rate_power")

    def __init__(self, learning_rate=0.001, learning_rate_power=-0.5,
                 initial_accumulator_value=0.1, l1_regularization_strength=0.0,
                 l2_regularization_strength=0.0, name="Ftrl",
                 l2_shrinkage_regularization_strength=0.0, beta=0.0, **kwargs):
        super().__init__(
            learning_rate=learning_rate, learning_rate_power=learning_rate_power,
            initial_accumulator_value=initial_accumulator_value,
            l1_regularization_strength=l1_regularization_strength,
            l2_regularization_strength=l2_regularization_strength,
            l2_shrinkage_regularization_strength=l2_shrinkage_regularization_strength, beta=beta,
            name=name, **kwargs)

    def _slot_groups(self):  # (TF's OptimizerV2 fills the accumulator in the variable's dtype)
        return [{"accumulator": self.initial_accumulator_value, "linear": 0.0}]

    def _apply_sparse(self, grad, var, slots, coefficients):
        # TF's sparse FTRL: only the gradient's rows (duplicates summed) and their slots
        dispatch(training_ops.SPARSE_FTRL_V2,
                 (var, slots["accumulator"], slots["linear"], grad.values, grad.indices,
                  *coefficients))


class RestoredOptimizer(OptimizerV2):
    """A legacy optimizer of a Keras SavedModel loaded without compiling, as tf_keras revives
    it: its saved hyperparameters (as variables) and slots, but not its algorithm, so it
    neither applies gradients nor gives a config."""

    _ITERATIONS_NAME = "iter"

    def __init__(self):
        super().__init__("RestoredOptimizer")

    def update_step(self, gradient, variable):
        raise NotImplementedError("`_resource_apply_dense` must be implemented in subclasses.")

    def get_config(self):
        raise NotImplementedError("Restoring functional Optimizers from SavedModels is not "
                                  "currently supported. Please file a feature request if this "
                                  "limitation bothers you.")

    def __getattr__(self, name):
        hyper = self.__dict__.get("_hyper", {})  # (the saved hyperparameters, as attributes)
        if name in hyper:
            return hyper[name]
        raise AttributeError(f"'{type(self).__name__}' object has no attribute '{name}'")

    @property
    def variables(self):
        """The slots, by slot name, then `iterations` (tf_keras's order for a revived one)."""
        return optimizer._CallableList(self._variables[1:] + self._variables[:1])

    @classmethod
    def from_checkpoint(cls, restoration, node_id):
        """The optimizer of node `node_id` of `restoration`'s checkpoint: its variable
        children as hyperparameters (a new `iterations`, as tf_keras's), and its slots of the
        model's variables the restore matched."""
        proto, reader = restoration.proto, restoration.reader

        def value(i):
            attribute = next((a for a in proto.nodes[i].attributes
                              if a.name == "VARIABLE_VALUE"), None)
            return None if attribute is None else (reader.get_tensor(attribute.checkpoint_key),
                                                   attribute.full_name or None)

        restored = cls()
        with context.init_scope():
            for ref in proto.nodes[node_id].children:
                found = value(ref.node_id)
                if found is None or ref.local_name == "iter":
                    continue
                variable = Variable(found[0], name=found[1], trainable=False)
                if ref.local_name in ("learning_rate", "lr"):
                    restored._learning_rate = variable
                else:
                    restored._hyper[ref.local_name] = variable
            slots = proto.nodes[node_id].slot_variables
            for name in dict.fromkeys(slot.slot_name for slot in slots):
                for slot in slots:
                    owner = restoration.object(slot.original_variable_node_id)
                    found = value(slot.slot_variable_node_id)
                    if slot.slot_name != name or owner is None or found is None:
                        continue
                    restored._variables.append(Variable(
                        found[0], name=f"{optimizer._shared_name(owner)}/{name}",
                        trainable=False))
                if name not in restored._slot_names:
                    restored._slot_names.append(name)
        return restored


Optimizer = OptimizerV2

# `deserialize` resolves these names to the legacy classes for a legacy config.
BY_NAME = {"adadelta": Adadelta, "adagrad": Adagrad, "adam": Adam, "adamax": Adamax,
           "nadam": Nadam, "rmsprop": RMSprop, "sgd": SGD, "ftrl": Ftrl}
