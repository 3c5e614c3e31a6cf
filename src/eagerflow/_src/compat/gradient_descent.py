"""TF 1's `GradientDescentOptimizer` for graphs, `gradients` and the global step: enough
for a v1 graph training loop.

>>> g = tf.compat.v1.Graph()
>>> with g.as_default():
...     w = tf.compat.v1.Variable(3.0)
...     train = tf.compat.v1.train.GradientDescentOptimizer(0.25).minimize(w * w)
...     init = tf.compat.v1.global_variables_initializer()
>>> with tf.compat.v1.Session(graph=g) as sess:
...     sess.run(init)
...     sess.run(train)
...     print(sess.run(w))
1.5
"""
import numpy as np

from eagerflow._src.autodiff import graph_gradients
from eagerflow._src.backend.api_export import export
from eagerflow._src.compat import graph_mode, variable_scope
from eagerflow._src.compat.graph_mode import GraphKeys
from eagerflow._src.core import context, nest
from eagerflow._src.core import dtypes as _d
from eagerflow._src.core import module as module_lib
from eagerflow._src.core import variables as _variables
from eagerflow._src.core.convert import convert_to_tensor
from eagerflow._src.core.dispatch import dispatch
from eagerflow._src.ops import array_ops, cast_ops, training_ops
from eagerflow._src.ops.indexed_slices import IndexedSlices, deduplicated


@export("compat.v1.gradients")
def gradients(ys, xs, grad_ys=None, name="gradients", colocate_gradients_with_ops=False,
              gate_gradients=False, aggregation_method=None, stop_gradients=None,
              unconnected_gradients="none"):
    """The symbolic derivatives of ``sum(ys)`` with respect to each of `xs` (tensors or
    variables), added to the default graph: a list as long as `xs` (None where
    unconnected)."""
    del colocate_gradients_with_ops
    graph = graph_mode.v1_graph()
    scope = graph.unique_name(name) + "/" if graph is not None else name
    return graph_gradients.gradients(ys, xs, grad_ys, scope, gate_gradients,
                                     aggregation_method, stop_gradients, unconnected_gradients)


@export("compat.v1.train.get_or_create_global_step")
def get_or_create_global_step(graph=None):
    """The graph's ``global_step`` variable (an int64 scalar, not trainable), made once."""
    graph = graph or graph_mode.default_v1_graph()
    found = get_global_step(graph)
    if found is not None:
        return found
    if context.get().graph is None and graph is graph_mode.default_v1_graph():
        # Eagerly (as in TF 1's eager guide) an eager variable, kept in the collection.
        step = variable_scope.GraphVariable(convert_to_tensor(0, _d.int64), trainable=False,
                                            name="global_step")
        graph.add_to_collections([GraphKeys.GLOBAL_VARIABLES, GraphKeys.GLOBAL_STEP], step)
        return step
    with graph.as_default() if graph_mode.v1_graph() is not graph else _nothing():
        with context.name_scope_push(""):
            step = variable_scope.GraphVariable(
                convert_to_tensor(0, _d.int64), trainable=False, name="global_step",
                collections=[GraphKeys.GLOBAL_VARIABLES, GraphKeys.GLOBAL_STEP])
    return step


@export("compat.v1.train.get_global_step")
def get_global_step(graph=None):
    graph = graph or graph_mode.default_v1_graph()
    found = graph.get_collection(GraphKeys.GLOBAL_STEP)
    return found[0] if found else None


@export("compat.v1.train.create_global_step")
def create_global_step(graph=None):
    """Makes the graph's ``global_step`` variable; ValueError when it has one."""
    graph = graph or graph_mode.default_v1_graph()
    if get_global_step(graph) is not None:
        raise ValueError("'global_step' already exists.")
    return get_or_create_global_step(graph)


@export("compat.v1.train.global_step")
def global_step(sess, global_step_tensor):
    """The value of `global_step_tensor` (run in `sess`) as a Python int."""
    if context.get().graph is None and hasattr(global_step_tensor, "numpy"):  # eagerly
        return int(global_step_tensor.numpy())
    return int(sess.run(global_step_tensor))


def _check_dtype(loss):
    """TF 1's optimizers differentiate only floating losses (ValueError naming the others)."""
    dtype = getattr(loss, "dtype", None)
    if dtype is not None and dtype.base_dtype not in (_d.float32, _d.float64, _d.float16,
                                                       _d.bfloat16):
        raise ValueError(f"Invalid type {dtype!r} for {loss.name}, expected: [tf.float32, "
                         f"tf.float64, tf.float16, tf.bfloat16].")


def _update_scope(graph, var):
    """The name scope of `var`'s update ops in a graph: ``update_<its op's name>``."""
    if graph is None:
        return _nothing()
    return context.name_scope("update_" + var.name.split(":")[0])


class _nothing:
    def __enter__(self):
        return None

    def __exit__(self, *exc):
        return False


@export("compat.v1.train.Optimizer")
class Optimizer:
    """The base of TF 1's optimizers (``tf.compat.v1.train.Optimizer``).

    `minimize` computes gradients and applies them: in a graph it returns the training
    operation (slots are graph variables that `global_variables_initializer` sets up);
    eagerly the loss must be a callable and the update runs at once. Subclasses give
    `_create_slots`, `_prepare` and either TF's ``_resource_apply_dense(grad, var)`` (and
    optionally ``_resource_apply_sparse(values, var, indices)``, given distinct indices)
    or `_apply_dense` (the update ops of one variable, None eagerly), and optionally TF's
    ``_finish(update_ops, name_scope)``. Slots come from `_zeros_slot`,
    `_get_or_make_slot` or `_get_or_make_slot_with_initializer`, other variables from
    `_create_non_slot_variable`, as in TF.

    >>> class Momentum(tf.compat.v1.train.Optimizer):
    ...     def __init__(self):
    ...         super().__init__(False, "Momentum")
    ...     def _create_slots(self, var_list):
    ...         for v in var_list:
    ...             self._zeros_slot(v, "velocity", self._name)
    ...     def _resource_apply_dense(self, grad, var):
    ...         velocity = self.get_slot(var, "velocity")
    ...         velocity.assign(velocity * 0.9 + grad)
    ...         return var.assign_sub(velocity * 0.1)
    >>> w = tf.Variable(1.0)
    >>> Momentum().minimize(lambda: w * w)
    >>> print(round(float(w), 4))
    0.8
    """
    GATE_NONE = 0
    GATE_OP = 1
    GATE_GRAPH = 2

    def __init__(self, use_locking, name):
        if not name:
            raise ValueError("Must specify the optimizer name")
        self._use_locking = use_locking
        self._name = name
        self._slots = {}  # slot name -> {id(variable): slot variable}
        self._slot_owners = {}  # id(variable) -> variable (kept: its id stays its own)
        self._non_slots = {}  # (name, id(graph)) -> variable
        self._made = []  # (graph, variable) of every slot and non-slot variable

    def get_name(self):
        return self._name

    def compute_gradients(self, loss, var_list=None, gate_gradients=GATE_OP,
                          aggregation_method=None, colocate_gradients_with_ops=False,
                          grad_loss=None):
        """``[(gradient, variable)]`` of `loss` for `var_list` (the trainable variables);
        eagerly `loss` is a callable, differentiated on a tape."""
        if graph_mode.v1_graph() is None:  # (eagerly, or in a `function`)
            if not callable(loss):
                raise RuntimeError("`loss` passed to Optimizer.compute_gradients should be a "
                                   "function when eager execution is enabled.")
            from eagerflow._src.autodiff.tape import GradientTape  # noqa: PLC0415
            with GradientTape() as tape:
                if var_list is not None:
                    tape.watch(var_list)
                value = loss()
            var_list = tape.watched_variables() if var_list is None else nest.flatten(var_list)
            if not var_list:
                raise ValueError("No variables to optimize.")
            grads = tape.gradient(value, var_list, grad_loss)
            return list(zip(grads, var_list))
        if callable(loss):
            loss = loss()
        elif gate_gradients not in (Optimizer.GATE_NONE, Optimizer.GATE_OP,
                                    Optimizer.GATE_GRAPH):
            raise ValueError(f"gate_gradients must be one of: Optimizer.GATE_NONE, "
                             f"Optimizer.GATE_OP, Optimizer.GATE_GRAPH.  Not {gate_gradients}")
        _check_dtype(loss)
        if var_list is None:
            var_list = (graph_mode.get_collection(GraphKeys.TRAINABLE_VARIABLES)
                        + graph_mode.get_collection("trainable_resource_variables"))
        var_list = nest.flatten(var_list)
        if not var_list:
            raise ValueError("No variables to optimize.")
        grads = gradients(loss, var_list, None if grad_loss is None else [grad_loss],
                          gate_gradients=gate_gradients == Optimizer.GATE_OP)
        if gate_gradients == Optimizer.GATE_GRAPH:
            grads = graph_mode.tuple_(grads)
        return list(zip(grads, var_list))

    def apply_gradients(self, grads_and_vars, global_step=None, name=None):
        """Applies the updates (and increments `global_step`): the training operation in a
        graph, None eagerly."""
        grads_and_vars = [(g, v) for g, v in grads_and_vars]
        if not grads_and_vars:
            raise ValueError("No variables provided.")
        if not any(g is not None for g, _ in grads_and_vars):
            raise ValueError(f"No gradients provided for any variable: "
                             f"{[str(v) for _, v in grads_and_vars]}.")
        pairs = [(g, v) for g, v in grads_and_vars if g is not None]
        graph = graph_mode.v1_graph()
        # (the optimizer's own variables are named in the name scope the step is made in,
        # as TF's: ``outer/beta1_power``; slots name themselves, see `_slot`)
        self._create_slots([v for _, v in pairs])
        updates = []
        with graph_mode.name_scope(name or self._name) as scope:
            self._prepare()
            for g, v in pairs:
                with _update_scope(graph, v):  # (TF's ``GradientDescent/update_w/...``)
                    made = self._apply_one(g, v)
                if made is not None and not isinstance(made, (list, tuple)):
                    made = [made]
                updates.extend(op for op in (made or ()) if op is not None)
            updates.extend(self._more_updates(updates) or ())
            if type(self)._finish is not Optimizer._finish:
                finished = self._finish(updates, name or self._name)
                updates = [finished] if graph is not None and finished is not None else []
            if graph is None:
                if global_step is not None:
                    global_step.assign_add(convert_to_tensor(1, global_step.dtype))
                return None
            if global_step is None:  # (the step's operation is named as its scope)
                with graph.control_dependencies(updates):
                    return graph._add(None, "NoOp", scope[:-1], (), {}, [])
        with graph.control_dependencies(updates), context.name_scope_push(""):
            dispatch(_variables._ASSIGN_ADD, (global_step, convert_to_tensor(1, global_step.dtype)))
            step = graph.get_operations()[-1]
            # (TF's training step op takes the scope's own name, which the scope reserved;
            # what it waits on moves with it, and its first name is free again)
            made = step.name
            graph._rename(step, scope[:-1])
            graph._release(made)
            return step

    def minimize(self, loss, global_step=None, var_list=None, gate_gradients=GATE_OP,
                 aggregation_method=None, colocate_gradients_with_ops=False, name=None,
                 grad_loss=None):
        """`compute_gradients` then `apply_gradients`: the training step's operation."""
        grads = self.compute_gradients(loss, var_list, gate_gradients, grad_loss=grad_loss)
        if grads and all(g is None for g, _ in grads):
            raise ValueError(f"No gradients provided for any variable, check your graph for ops "
                             f"that do not support gradients, between variables "
                             f"{[str(v) for _, v in grads]} and loss {loss}.")
        return self.apply_gradients(grads, global_step, name)

    def get_slot(self, var, name):
        """The slot variable `name` of `var`, or None."""
        return self._slots.get(name, {}).get(id(var))

    def get_slot_names(self):
        return sorted(self._slots)

    def variables(self):
        """The optimizer's variables (slots and others) of the current graph, by name."""
        graph = self._current_graph()
        return sorted((v for g, v in self._made if g is graph), key=lambda v: v.name)

    @staticmethod
    def _current_graph():
        """The graph whose variables the optimizer uses now: the v1 graph being built, also
        around a `function` traced in it (as TF keys a function's optimizer variables by its
        outer graph: a Keras model's steps in TF 1's graph mode), else None (eagerly)."""
        return graph_mode.outer_v1_graph()

    # -- checkpoints: TF 1's layout (``optimizer/beta1_power``, slots by variable) --

    def _trackable_children(self):
        """The variables that are not slots (Adam's ``beta1_power``...) of the current graph,
        by name."""
        graph = id(self._current_graph())
        return [(name, v) for (name, g), v in self._non_slots.items() if g == graph]

    def _checkpoint_slot_variables(self):
        """``[(slot name, [(variable, slot)])]``, in the order the slots were made."""
        return [(name, [(self._slot_owners[i], slot) for i, slot in slots.items()])
                for name, slots in self._slots.items()]

    # -- for subclasses --

    def _apply_one(self, grad, var):
        """The update ops of `var` by `grad`: TF's ``_resource_apply_*`` methods where a
        subclass gives them (the values of repeated indices summed first), else
        `_apply_dense` or `_apply_sparse`."""
        sparse = isinstance(grad, IndexedSlices)
        if type(self)._resource_apply_dense is not Optimizer._resource_apply_dense:
            if sparse:
                return self._resource_apply_sparse_duplicate_indices(grad.values, var,
                                                                     grad.indices)
            return self._resource_apply_dense(convert_to_tensor(grad), var)
        if sparse:
            return self._apply_sparse(deduplicated(grad), var)
        return self._apply_dense(convert_to_tensor(grad), var)

    def _create_slots(self, var_list):
        pass

    def _prepare(self):
        pass

    def _more_updates(self, update_ops):
        """More update ops, run after `update_ops`."""
        return []

    def _finish(self, update_ops, name_scope):
        """TF's hook for a subclass: the operation that finishes the step after
        `update_ops` (a subclass's is called; this one is never)."""
        return graph_mode.group(*update_ops, name=name_scope)

    def _apply_dense(self, grad, var):
        raise NotImplementedError()

    def _resource_apply_dense(self, grad, handle):
        """TF's hook for a subclass: the update of variable `handle` by dense `grad`."""
        raise NotImplementedError()

    def _resource_apply_sparse_duplicate_indices(self, grad, handle, indices):
        """The values of repeated `indices` summed, then `_resource_apply_sparse`."""
        unique = deduplicated(IndexedSlices(grad, indices))
        return self._resource_apply_sparse(unique.values, handle, unique.indices)

    def _resource_apply_sparse(self, grad, handle, indices):
        """TF's hook for a subclass: the update of the rows `indices` (distinct) of variable
        `handle` by `grad`."""
        raise NotImplementedError()

    # -- TF's helpers for subclasses --

    @staticmethod
    def _call_if_callable(param):
        return param() if callable(param) else param

    def _zeros_slot(self, var, slot_name, op_name):
        """`var`'s slot `slot_name`, made of zeros the first time."""
        return self._slot(var, slot_name)

    def _get_or_make_slot(self, var, val, slot_name, op_name):
        """`var`'s slot `slot_name`, made from the tensor `val` the first time."""
        return self._slot(var, slot_name, value=val)

    def _get_or_make_slot_with_initializer(self, var, initializer, shape, dtype, slot_name,
                                           op_name):
        """`var`'s slot `slot_name`, made by `initializer` (of `shape` and `dtype`) the
        first time."""
        return self._slot(var, slot_name, value=lambda: initializer(
            shape.as_list() if hasattr(shape, "as_list") else shape, dtype=dtype))

    def _create_non_slot_variable(self, initial_value, name, colocate_with):
        """The optimizer's variable `name` of the current graph, made from `initial_value`
        the first time."""
        return self._non_slot(name, initial_value)

    def _get_non_slot_variable(self, name, graph=None):
        """The optimizer's variable `name` of `graph` (the current one), or None."""
        graph = self._current_graph() if graph is None else graph
        return self._non_slots.get((name, id(graph)))

    def _non_slot_variables(self):
        return list(self._non_slots.values())

    def _apply_sparse(self, grad, var):
        """The update ops of `var` for `grad`, an `IndexedSlices` of distinct indices (an
        embedding's rows); by default those of the gradient made dense."""
        return self._apply_dense(convert_to_tensor(grad), var)

    @staticmethod
    def _rows(var, indices):
        """The rows `indices` of `var`'s value."""
        return array_ops.gather(var.read_value(), indices)

    def _set_rows(self, var, indices, rows, how=None):
        """Updates the rows `indices` of `var` (to `rows`, or by `how`: the function of a
        tensor scatter, ``tensor_scatter_nd_sub``) and returns the update op."""
        how = how or array_ops.tensor_scatter_nd_update
        value = how(var.read_value(), array_ops.expand_dims(indices, 1), rows)
        return self._update(_variables._ASSIGN, (var, value))

    def _new_variable(self, value, name):
        graph = self._current_graph()
        var = variable_scope.GraphVariable(value, trainable=False, name=name)
        self._made.append((graph, var))
        return var

    def _slot(self, var, slot_name, fill=0.0, value=None):
        """`var`'s slot `slot_name` (made filled with `fill`, or from `value`, a tensor or a
        callable giving one, the first time)."""
        slots = self._slots.setdefault(slot_name, {})
        if id(var) not in slots:
            if value is None:
                value = np.full(var.shape.as_list(), fill, var.dtype.as_numpy_dtype)
            elif callable(value):
                value = value()
            # A variable's slots are named after the optimizer, each name new among the
            # variable scopes entered, as TF makes a slot in a variable scope of that default
            # name (Adam's ``w/Adam``, ``w/Adam_1``; a second Adam's ``w/Adam_2``,
            # ``w/Adam_3``); in a graph in the variable scope the step is made in, whatever
            # the name scope (eagerly, of the program)
            prefix = var.name.split(":")[0] + "/" + self._name
            outer = (variable_scope.get_variable_scope().name
                     if graph_mode.v1_graph() is not None else "")
            full = variable_scope.enter_unused_scope(f"{outer}/{prefix}" if outer else prefix)
            with context.name_scope_push(outer + "/" if outer else ""):
                slots[id(var)] = self._new_variable(value, full[len(outer) + 1:] if outer
                                                    else full)
            self._slot_owners[id(var)] = var
            module_lib.tracked(self)  # a checkpoint restored before the slot existed
        return slots[id(var)]

    def _non_slot(self, name, value=None):
        """The optimizer's variable `name` of the current graph (made from `value`)."""
        key = (name, id(self._current_graph()))
        if key not in self._non_slots and value is not None:
            self._non_slots[key] = self._new_variable(value, name)
            module_lib.tracked(self)
        return self._non_slots[key]

    def _tensor(self, value, name):
        """`value` (a number, tensor or callable giving one) as a tensor."""
        return convert_to_tensor(value() if callable(value) else value, name=name)

    @staticmethod
    def _as(value, dtype):
        """A coefficient tensor in a variable's dtype."""
        return value if value.dtype == dtype else cast_ops.cast(value, dtype)

    @staticmethod
    def _update(op_def, args, attrs=None):
        """Runs (or adds) the update op; returns the operation in a graph, else None."""
        dispatch(op_def, args, {} if attrs is None else attrs)
        graph = graph_mode.v1_graph()
        return graph.get_operations()[-1] if graph is not None else None


@export("compat.v1.train.GradientDescentOptimizer")
class GradientDescentOptimizer(Optimizer):
    """Plain gradient descent (``tf.compat.v1.train.GradientDescentOptimizer``):
    `minimize` adds ops updating each variable by ``-learning_rate * gradient``."""

    def __init__(self, learning_rate, use_locking=False, name="GradientDescent"):
        super().__init__(use_locking, name)
        self._learning_rate = learning_rate

    def _prepare(self):
        self._lr = self._tensor(self._learning_rate, "learning_rate")

    def _apply_dense(self, grad, var):
        # (the rate tensor, float32 for a number, cast to the variable's dtype: a float64
        # variable steps by float32's 0.1, as TF's)
        rate = self._as(self._lr, var.dtype)
        # (the update op itself, whatever the variable's class returns)
        return [self._update(_variables._ASSIGN_SUB, (var, grad * rate))]

    def _apply_sparse(self, grad, var):
        return [self._update(training_ops.SPARSE_GRADIENT_DESCENT, (
            var, self._as(self._lr, var.dtype), grad.values, grad.indices))]

