"""Playing a tape backwards: reverse-mode accumulation of gradients.

`backprop` walks recorded entries in reverse, calling each op's registered
gradient ``grad(op, *output_grads)``.  Gradients are built from ops, so any
tape still recording sees them (higher-order derivatives).  Reducing a
broadcast gradient back to its input's shape happens here, once, for every op.
"""
from eagerflow._src.core import errors
from eagerflow._src.core.convert import convert_to_tensor
from eagerflow._src.ops import array_ops, reduction_ops
from eagerflow._src.ops.indexed_slices import IndexedSlices, add_sparse_or_dense

# Ops whose gradient hands a sparse incoming gradient on unchanged.
_SPARSE_PASS_THROUGH = frozenset({"ReadVariableOp", "Identity"})


class OpView:
    """What a gradient function sees of one recorded op: inputs, outputs and attrs.

    `needs(i)` tells whether input i's gradient is wanted at all (it leads to
    a source); a gradient function may return None for the others and skip
    their work (e.g. the data-side GEMM of a first layer).

    >>> # grad(op, dy): op.inputs[0], op.outputs, op.get_attr("axis"), op.needs(1)
    """

    __slots__ = ("op_def", "inputs", "outputs", "attrs", "_live")

    def __init__(self, op_def, inputs, outputs, attrs, live=None):
        self.op_def, self.inputs, self.outputs, self.attrs = op_def, inputs, outputs, attrs
        self._live = live

    def needs(self, i):
        return self._live is None or id(self.inputs[i]) in self._live

    @property
    def type(self):
        return self.op_def.name

    name = type

    def get_attr(self, name):
        return self.attrs[name]


def _dims(t):
    """The concrete shape tuple of an eager tensor or variable, else None (symbolic)."""
    data = getattr(t, "_data", None)
    data = getattr(data, "value", data)  # a variable's handle holds its array
    return getattr(data, "shape", None)


def unbroadcast(grad, like):
    """`grad` summed over the dimensions along which `like` was broadcast."""
    concrete, target = _dims(grad), _dims(like)
    if concrete is not None and concrete == target:
        return grad  # the common case, decided without building shapes
    if target == ():
        return reduction_ops.reduce_sum(grad)  # a scalar (a bias, a scale) took it all
    gshape, shape = grad.shape, like.shape
    if gshape == shape or shape.rank is None or gshape.rank is None:
        return grad
    lead = gshape.rank - shape.rank
    axes = list(range(lead)) + [lead + i for i, d in enumerate(shape)
                                if d == 1 and gshape[lead + i] != 1]
    if axes:
        grad = reduction_ops.reduce_sum(grad, axes, keepdims=False)
    return array_ops.reshape(grad, shape.as_list()) if grad.shape != shape else grad


def _connected(entries, sources):
    """Ids of the tensors that depend on a source: only their gradients are needed."""
    live = {id(s) for s in sources}
    for op, inputs, attrs, outputs in entries:
        for t in inputs:
            if id(t) in live:
                for o in (outputs if op.multi else (outputs,)):
                    live.add(id(o))
                break
    return live


def _take(grads, keep, tensor):
    """The gradient reaching `tensor`, released unless it is a source."""
    key = id(tensor)
    return grads.get(key) if key in keep else grads.pop(key, None)


def backprop(entries, targets, target_grads, sources):
    """Gradients of sum(targets) with respect to `sources` (None where unconnected).

    `entries` are ``(op, inputs, attrs, outputs)`` in the order they ran;
    `target_grads` holds the incoming gradient of each target (None: ones).
    """
    live = _connected(entries, sources)
    grads = {}
    for t, g in zip(targets, target_grads):
        if id(t) in live:
            g = array_ops.ones_like(t) if g is None else g
            grads[id(t)] = add_sparse_or_dense(grads[id(t)], g) if id(t) in grads else g
    keep = {id(s) for s in sources}
    for op, inputs, attrs, outputs in reversed(entries):
        if op.multi:
            out_grads = [_take(grads, keep, o) for o in outputs]
            if all(g is None for g in out_grads):
                continue
            out_grads = [array_ops.zeros_like(o) if g is None else convert_to_tensor(g)
                         for o, g in zip(outputs, out_grads)]
        else:  # the common case, kept lean: one output
            g = _take(grads, keep, outputs)
            if g is None:
                continue
            if type(g) is IndexedSlices and op.name not in _SPARSE_PASS_THROUGH:
                g = convert_to_tensor(g)
            out_grads = (g,)
        if op.grad is None:
            raise LookupError(f"No gradient defined for operation '{op.name}' "
                              f"(op type: {op.name}).")
        in_grads = op.grad(OpView(op, inputs, outputs, attrs, live), *out_grads)
        if type(in_grads) is not tuple and type(in_grads) is not list:
            in_grads = (in_grads,)
        if len(in_grads) != len(inputs):
            raise errors.InternalError(None, op.name, f"The gradient of {op.name} returned "
                                       f"{len(in_grads)} values for {len(inputs)} inputs.")
        for t, g in zip(inputs, in_grads):
            key = id(t)
            if g is None or key not in live:
                continue
            if type(g) is not IndexedSlices:
                g = unbroadcast(g, t)
            grads[key] = add_sparse_or_dense(grads[key], g) if key in grads else g
    return [grads.get(id(s)) for s in sources]
