"""How a backward pass built into a graph names its ops, as TF names them.

`tf.gradients` (and TF 1's optimizers) put the gradient of each op ``<name>`` under the
name scope ``gradients/<name>_grad/`` and sum the gradients of a tensor used several times
with one ``AddN`` in ``gradients/``; with ``gate_gradients`` the input gradients of an op
with more than one pass through ``tuple/control_dependency`` identities that wait for all
of them. A `GradientTape` played inside a `function` puts them under
``gradient_tape/<the op's name scope>/``. Programs fetch gradients by these names
(``graph.get_tensor_by_name('gradients/MatMul_grad/MatMul:0')``).

>>> g = tf.Graph()
>>> with g.as_default():
...     x = tf.compat.v1.placeholder(tf.float32, [2])
...     print(tf.compat.v1.gradients(tf.nn.relu(x), x)[0].name)
gradients/Relu_grad/ReluGrad:0
"""
import contextlib

from eagerflow._src.core import context, registry
from eagerflow._src.core.convert import convert_to_tensor
from eagerflow._src.core.dispatch import dispatch
from eagerflow._src.core.dtypes import variant
from eagerflow._src.ops.indexed_slices import IndexedSlices, add_sparse_or_dense

_NO_SCOPE = contextlib.nullcontext()


def _op_of(outputs):
    """The graph operation whose recorded `outputs` (a tensor, or a tuple or list of them)
    these are, or None (an eager op)."""
    first = outputs[0] if type(outputs) is tuple or type(outputs) is list else outputs
    op = getattr(first, "op", None) if first is not None else None
    return op if getattr(op, "graph", None) is context.get().graph else None


def gated_tuple(tensors, control_inputs=(), name="tuple"):
    """`tensors` (None kept) through identities that wait for all of them and for
    `control_inputs`, in the graph being built, named as TF's ``tuple``:
    ``tuple/group_deps`` (the wait) and ``tuple/control_dependency_<i>``."""
    graph = context.get().graph
    identity = registry.get("Identity")
    deps = [t.values if isinstance(t, IndexedSlices) else t  # (waits for the op of its values)
            for t in tensors if t is not None] + list(control_inputs or ())
    with context.name_scope(name or "tuple"):
        with graph.control_dependencies(deps):
            gate = graph._add(None, "NoOp", graph.unique_name("group_deps"), (), {}, [])
        with graph.control_dependencies([gate]):
            return [None if t is None else _waiting(identity, t) for t in tensors]


def _waiting(identity, t):
    """`t` through an identity named ``control_dependency`` (the values and indices of an
    `IndexedSlices`)."""
    if isinstance(t, IndexedSlices):
        with context.name_scope("control_dependency"):
            return IndexedSlices(dispatch(identity, (t.values,)), t.indices, t.dense_shape)
    return dispatch(identity, (convert_to_tensor(t),), name="control_dependency")


class _Either:
    """Ids in either of two collections (without copying the first, the pass's own)."""

    __slots__ = ("first", "second")

    def __init__(self, first, second):
        self.first, self.second = first, second

    def __contains__(self, key):
        return key in self.first or key in self.second


class GraphGradients:
    """The names of `tf.gradients`' ops: each op's gradient in ``<op name>_grad``, relative
    to the scope the pass runs in; every input's gradient computed (as in TF's graphs,
    where the pass prunes nothing); `gate` passes an op's input gradients through a
    ``tuple``."""

    def __init__(self, gate=False):
        self.gate = gate

    def scope(self, outputs):
        op = _op_of(outputs)
        return _NO_SCOPE if op is None else context.name_scope_push(op.name + "_grad")

    @staticmethod
    def needed(inputs, live):
        """Ids of the inputs whose gradients an op's gradient function computes: those the
        pass needs, and every other floating one."""
        return _Either(live, {id(t) for t in inputs if getattr(t, "dtype", None) is not None
                              and (t.dtype.is_floating or t.dtype.is_complex)})

    def gated(self, grads):
        """`grads` through identities that wait for all of them, when gated and more than one
        is given."""
        if not self.gate or sum(g is not None for g in grads) < 2:
            return grads
        return gated_tuple(grads)

    @staticmethod
    def total(grads):
        """The sum of several dense gradients of one tensor: one ``AddN`` (pairwise sums
        for those of different shapes or of lists)."""
        grads = [convert_to_tensor(g) for g in grads]
        first = grads[0]
        if first.dtype is not variant and all(
                g.dtype == first.dtype and g.shape.is_compatible_with(first.shape)
                for g in grads):
            return dispatch(registry.get("AddN"), tuple(grads))
        total = first
        for g in grads[1:]:
            total = add_sparse_or_dense(total, g)
        return total


class TapeGradients(GraphGradients):
    """The names of a `GradientTape`'s ops in a graph: ``gradient_tape/<scope>/`` where
    ``<scope>`` is the name scope the op was made in (TF2's); only the gradients the pass
    needs are computed."""

    def __init__(self):
        super().__init__(gate=False)

    def scope(self, outputs):
        op = _op_of(outputs)
        if op is None:
            return _NO_SCOPE
        made_in = getattr(op, "name_scope", "")
        return context.name_scope_push("gradient_tape/" + made_in)

    @staticmethod
    def needed(inputs, live):
        return live
