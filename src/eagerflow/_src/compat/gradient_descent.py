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
from eagerflow._src.autodiff import graph_gradients
from eagerflow._src.backend.api_export import export
from eagerflow._src.compat import graph_mode, variable_scope
from eagerflow._src.compat.graph_mode import GraphKeys
from eagerflow._src.core import context, nest
from eagerflow._src.core import dtypes as _d
from eagerflow._src.core import variables as _variables
from eagerflow._src.core.convert import convert_to_tensor
from eagerflow._src.core.dispatch import dispatch


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
    graph = graph or graph_mode.get_default_graph()
    found = get_global_step(graph)
    if found is not None:
        return found
    with graph.as_default() if graph_mode.v1_graph() is not graph else _nothing():
        with context.name_scope_push(""):
            step = variable_scope.GraphVariable(
                convert_to_tensor(0, _d.int64), trainable=False, name="global_step",
                collections=[GraphKeys.GLOBAL_VARIABLES, GraphKeys.GLOBAL_STEP])
    return step


@export("compat.v1.train.get_global_step")
def get_global_step(graph=None):
    graph = graph or graph_mode.get_default_graph()
    found = graph.get_collection(GraphKeys.GLOBAL_STEP)
    return found[0] if found else None


class _nothing:
    def __enter__(self):
        return None

    def __exit__(self, *exc):
        return False


@export("compat.v1.train.GradientDescentOptimizer")
class GradientDescentOptimizer:
    """Plain gradient descent (``tf.compat.v1.train.GradientDescentOptimizer``):
    `minimize` adds ops updating each variable by ``-learning_rate * gradient``."""

    def __init__(self, learning_rate, use_locking=False, name="GradientDescent"):
        self._learning_rate = learning_rate
        self._name = name

    def get_name(self):
        return self._name

    def compute_gradients(self, loss, var_list=None, gate_gradients=1,
                          aggregation_method=None, colocate_gradients_with_ops=False,
                          grad_loss=None):
        """``[(gradient, variable)]`` of `loss` for `var_list` (the trainable variables)."""
        if callable(loss):
            raise RuntimeError("`loss` passed to Optimizer.compute_gradients should be a "
                               "function when eager execution is enabled.")
        if var_list is None:
            var_list = (graph_mode.get_collection(GraphKeys.TRAINABLE_VARIABLES)
                        + graph_mode.get_collection("trainable_resource_variables"))
        var_list = nest.flatten(var_list)
        if not var_list:
            raise ValueError("No variables to optimize.")
        grads = gradients(loss, var_list, None if grad_loss is None else [grad_loss])
        return list(zip(grads, var_list))

    def apply_gradients(self, grads_and_vars, global_step=None, name=None):
        """An operation applying the updates (and incrementing `global_step`)."""
        grads_and_vars = [(g, v) for g, v in grads_and_vars]
        if not any(g is not None for g, _ in grads_and_vars):
            raise ValueError(f"No gradients provided for any variable: "
                             f"{[v.name for _, v in grads_and_vars]}.")
        graph = graph_mode.v1_graph()
        updates = []
        with graph_mode.name_scope(name or self._name) as scope:
            rate = convert_to_tensor(self._learning_rate, name="learning_rate")
            for g, v in grads_and_vars:
                if g is None:
                    continue
                step = g * (rate if rate.dtype == v.dtype else
                            convert_to_tensor(self._learning_rate, v.dtype))
                # (the update op itself, whatever the variable's class returns)
                dispatch(_variables._ASSIGN_SUB, (v, step))
                updates.append(graph.get_operations()[-1])
            if global_step is None:  # (the step's operation is named as its scope)
                with graph.control_dependencies(updates):
                    return graph._add(None, "NoOp", scope[:-1], (), {}, [])
            with graph.control_dependencies(updates):
                return global_step.assign_add(convert_to_tensor(1, global_step.dtype),
                                              read_value=False)

    def minimize(self, loss, global_step=None, var_list=None, gate_gradients=1,
                 aggregation_method=None, colocate_gradients_with_ops=False, name=None,
                 grad_loss=None):
        """`compute_gradients` then `apply_gradients`: the training step's operation."""
        grads = self.compute_gradients(loss, var_list, grad_loss=grad_loss)
        return self.apply_gradients(grads, global_step, name)
