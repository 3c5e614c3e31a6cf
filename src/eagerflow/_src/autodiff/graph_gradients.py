"""`gradients`: symbolic derivatives inside a graph being built (``tf.gradients``).

The graph's operations are replayed, in creation order, into a tape that
watches `xs`, as `dispatch` would have recorded them while they were built;
the tape's backward pass then adds the gradient ops to the same graph, under
the name scope `name`. Called in a branch or loop body for tensors of an enclosing graph
(`xs` outside, `ys` inside or out), the enclosing graphs' operations are replayed first and
each capture passes its gradient on to the tensor it stands for, as in TF.
"""
from eagerflow._src.autodiff import gradient_names
from eagerflow._src.autodiff.tape import GradientTape, UnconnectedGradients
from eagerflow._src.backend.api_export import export
from eagerflow._src.core import context, nest, registry
from eagerflow._src.core.convert import convert_to_tensor
from eagerflow._src.ops import array_ops

# ``prepare(graph, xs)``, filled by the graph layer: turns the loops and branches with state
# that depend on `xs` into the forms their gradients need (see `graph.control_flow`).
prepare = None


@export("AggregationMethod")
class AggregationMethod:
    """How `gradients` adds the gradients of a tensor used several times (all methods give
    the same sums here).

    >>> tf.AggregationMethod.ADD_N
    0
    """
    ADD_N = 0
    DEFAULT = ADD_N
    EXPERIMENTAL_TREE = 1
    EXPERIMENTAL_ACCUMULATE_N = 2


@export("gradients")
def gradients(ys, xs, grad_ys=None, name="gradients", gate_gradients=False,
              aggregation_method=None, stop_gradients=None,
              unconnected_gradients=UnconnectedGradients.NONE):
    """The derivatives of ``sum(ys)`` with respect to each of `xs`: a list as long as `xs`.

    Only inside a `function` (TF2 has no other graphs): eagerly, use a
    `GradientTape`. `grad_ys` weights each of `ys`; `stop_gradients` are
    tensors held constant; an `x` that `ys` do not depend on gets None, or
    zeros with ``unconnected_gradients="zero"``.

    >>> @tf.function
    ... def f(x):
    ...     return tf.gradients(x * x, x)
    >>> f(tf.constant(3.0))
    [<tf.Tensor: shape=(), dtype=float32, numpy=6.0>]
    """
    graph = context.get().graph
    if graph is None:
        raise RuntimeError("tf.gradients is not supported when eager execution is enabled. "
                           "Use tf.GradientTape instead.")
    # a scheduling hint (every method gives the same sums), but an unknown one is refused
    methods = [AggregationMethod.ADD_N, AggregationMethod.EXPERIMENTAL_TREE,
               AggregationMethod.EXPERIMENTAL_ACCUMULATE_N]
    if aggregation_method is not None and aggregation_method not in methods:
        raise ValueError(f"Invalid `aggregation_method` specified {aggregation_method}. "
                         f"Accepted values are {methods}.")
    ys, xs = nest.flatten(ys), nest.flatten(xs)
    # never entered: the tape records only the operations given to it below
    tape = GradientTape(persistent=False, watch_accessed_variables=False)
    tape._naming = gradient_names.GraphGradients(bool(gate_gradients))
    for x in xs:
        tape._recorder.watch(x)
    # a held tensor's own gradient is still wanted, but none flows through its op
    held = [] if stop_gradients is None else nest.flatten(stop_gradients)
    if all(getattr(x, "graph", graph) is graph for x in xs):
        if prepare is not None:
            prepare(graph, xs)
        tape._record_operations(graph.get_operations(), held)
    else:
        replayed = set()
        for g in [getattr(t, "graph", None) for t in xs + ys] + [graph]:
            _replay(tape, g, xs, held, replayed)
    with context.name_scope(name):
        return tape.gradient(ys, xs, output_gradients=_grad_ys(ys, grad_ys),
                             unconnected_gradients=unconnected_gradients)


def _grad_ys(ys, grad_ys):
    """The incoming gradient of each of `ys`: ones where none is given, named as TF's
    (``grad_ys_0``, a ``Fill`` of the shape of ``ys[0]``)."""
    grad_ys = [None] * len(ys) if grad_ys is None else nest.flatten(grad_ys)
    if len(grad_ys) != len(ys):
        return grad_ys  # (the tape's check says what is wrong)
    out = []
    for i, (y, g) in enumerate(zip(ys, grad_ys)):
        if g is None and getattr(y, "dtype", None) is not None and (
                y.dtype.is_floating or y.dtype.is_complex):
            shape = array_ops.shape(y)
            with context.name_scope(f"grad_ys_{i}") as scope:
                g = array_ops.fill(shape, convert_to_tensor(1, y.dtype), name=scope)
        out.append(g)
    return out


def _replay(tape, graph, xs, held, replayed):
    """Records the operations of `graph` after those of the graphs whose tensors it
    captured, each capture an identity of the outer tensor (its gradient goes there)."""
    if graph is None or not hasattr(graph, "captures") or id(graph) in replayed:
        return
    replayed.add(id(graph))
    outer = [(e, i) for e, i in graph.captures
             if e is not i and getattr(e, "graph", graph) is not graph]
    for external, _ in outer:
        _replay(tape, external.graph, xs, held, replayed)
    if prepare is not None:
        prepare(graph, xs + [internal for _, internal in outer])
    identity = registry.get("Identity")
    for external, internal in outer:
        tape._recorder.record(identity, (external,), {}, internal)
    tape._record_operations(graph.get_operations(), held)
