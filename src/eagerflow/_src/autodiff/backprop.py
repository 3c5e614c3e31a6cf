"""Playing a tape backwards: reverse-mode accumulation of gradients.

`backprop` walks recorded entries in reverse, calling each op's registered
gradient ``grad(op, *output_grads)``.  Gradients are built from ops, so any
tape still recording sees them (higher-order derivatives).  Reducing a
broadcast gradient back to its input's shape happens here, once, for every op
with several inputs (a one-input op's gradient has its input's shape).
"""
import collections
import itertools
import os
import weakref

import numpy as np

from eagerflow._src.autodiff import gradient_registry
from eagerflow._src.core import dtypes as _d
from eagerflow._src.core import errors
from eagerflow._src.core.convert import convert_to_tensor
from eagerflow._src.core.tensor import EagerTensor
from eagerflow._src.ops import array_ops
from eagerflow._src.ops.indexed_slices import (IndexedSlices, add_sparse_or_dense,
                                               concat_slices)
from eagerflow._src.ops.reduction_ops import unbroadcast

_HOST_SCALARS = (np.ndarray, np.generic)
# Gradient functions by name: an op whose ``_gradient_op_type`` attribute names one is
# differentiated by it instead of its type's gradient (TF's gradient override; see
# custom_gradient).  Held weakly (name -> weak reference): what names a function `hold`s it.
_gradient_refs = {}
_sweep_at = 1024  # the registry's size at which dead references are next dropped
# Numbered from a random start, far above TF's own counter: a name read from a GraphDef
# another process wrote (TF's ``CustomGradient-3``) never finds a function of this one.
_gradient_ids = itertools.count(int.from_bytes(os.urandom(5), "little") + 2 ** 40)
_new = object.__new__
_ONES = {}  # NumPy dtype -> its scalar one (immutable, so seeds may share it)
# Ops with several inputs that never broadcast them against each other: their gradients
# have their inputs' shapes already (in graphs with dims unknown until run time, no
# run-time reduction follows them).
_INPUT_SHAPED_GRADIENTS = frozenset(("MatMul", "BiasAdd", "SparseSoftmaxCrossEntropyWithLogits",
                                 "Conv2D"))


def seed(target):
    """The incoming gradient of a target given none: ones like it.

    A scalar loss on the host, the common case, takes a shared NumPy scalar
    one instead of running an op.
    """
    if type(target) is EagerTensor:
        data = target._data
        if data.shape == () and isinstance(data, _HOST_SCALARS):
            one = _ONES.get(data.dtype)
            if one is None:
                one = _ONES[data.dtype] = data.dtype.type(1)
            t = _new(EagerTensor)
            t._data = one
            return t
    return array_ops.ones_like(target)


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


def name_gradient(base, fn):
    """Registers gradient function `fn` under a new name made from `base`; returns the name.
    The registry holds it weakly: what names it `hold`s it."""
    global _sweep_at
    name = f"{base}-{next(_gradient_ids)}"
    _gradient_refs[name] = weakref.ref(fn)
    if len(_gradient_refs) >= _sweep_at:  # (a plain weak reference is cheaper than a
        for key in [k for k, ref in _gradient_refs.items() if ref() is None]:  # callback)
            del _gradient_refs[key]
        _sweep_at = max(1024, 2 * len(_gradient_refs))
    return name


def gradient_function(name):
    """The gradient function registered under `name`, or None."""
    ref = _gradient_refs.get(name)
    if ref is None:  # (a name registered by tf.RegisterGradient)
        return gradient_registry.registered_gradient(name)
    return ref()


def hold(owner, value):
    """Keeps `value` alive as long as `owner` lives: a function an op names by attribute,
    held by the graph of the op, or by the op's eager output (which a tape's record of the
    op keeps)."""
    held = owner.__dict__.get("_held")
    if held is None:
        owner._held = [value]
    else:
        held.append(value)


def connected(entries, sources):
    """Ids of the tensors that depend on a source: only their gradients are needed."""
    live = {id(s) for s in sources}
    for op, inputs, attrs, outputs in entries:
        for t in inputs:
            if id(t) in live:
                for o in (outputs if op.multi else (outputs,)):
                    live.add(id(o))
                break
    return live


def play_order(entries, targets):
    """The positions in `entries` of the ops a backward pass from `targets` meets, in the
    order TF's tape plays them: an op once every op reading its outputs has had its turn,
    first come first served.  (The order in which the gradients of a tensor arrive there,
    and so the order of a sum of sparse ones' slices.)"""
    produced = {}  # id(tensor) -> index of the entry making it
    for k, (op, _, _, outputs) in enumerate(entries):
        if op.multi:
            for o in outputs:
                produced[id(o)] = k
        else:
            produced[id(outputs)] = k
    uses, reached, stack = {}, {}, [id(t) for t in targets]
    while stack:  # the entries the targets depend on, and how often each tensor is read
        k = produced.get(stack.pop())
        if k is None or k in reached:
            continue
        reached[k] = None
        for t in entries[k][1]:
            i = id(t)
            if i in uses:
                uses[i] += 1
            else:
                uses[i] = 1
                if i in produced:
                    stack.append(i)
    waiting = {}  # entry -> how many of its outputs are still to be read
    for i in uses:
        k = produced.get(i)
        if k is not None:
            waiting[k] = waiting.get(k, 0) + 1
    ready = collections.deque(sorted(k for k in reached if k not in waiting))
    order = []
    while ready:
        k = ready.pop()
        order.append(k)
        for t in entries[k][1]:
            i = id(t)
            uses[i] -= 1
            if uses[i] == 0 and i in produced:
                p = produced[i]
                waiting[p] -= 1
                if waiting[p] == 0:
                    ready.appendleft(p)
    return order


class _Arrivals:
    """The sparse gradients of one tensor, from the ops (positions in the tape) that sent
    them; summed when read, their slices listed in the order TF's tape delivers them."""

    __slots__ = ("pieces",)

    def __init__(self, k, g):
        self.pieces = [(k, g)]

    def total(self, rank):
        pieces = self.pieces
        if len(pieces) == 1:
            return pieces[0][1]
        order = rank()
        return concat_slices([g for _, g in sorted(pieces, key=lambda p: order[p[0]])])


def backprop(entries, targets, target_grads, sources, live, naming=None):
    """Gradients of sum(targets) with respect to `sources` (None where unconnected).

    `entries` are ``(op, inputs, attrs, outputs)`` in the order they ran;
    `target_grads` holds the incoming gradient of each target (None: ones for all, or
    for that target);
    `live` holds the ids of the tensors that depend on a source (or a superset
    of them: see `connected`); `naming`, for a pass built into a graph, names its ops as
    TF does (see `gradient_names`).
    """
    grads = {}
    ranks = []

    def rank():  # entry position -> its turn in TF's play (targets' gradients come first)
        if not ranks:
            ranks.append({k: i for i, k in enumerate(play_order(entries, targets))})
            ranks[0][-1] = -1
        return ranks[0]

    def add(key, g, k):  # the gradient g, sent by entry k, to the tensor of id `key`
        if key not in grads:
            grads[key] = _Arrivals(k, g) if type(g) is IndexedSlices else g
            return
        prev = grads[key]
        if naming is not None and type(g) is not IndexedSlices and type(prev) is not _Arrivals \
                and type(prev) is not IndexedSlices:  # (summed by one AddN when read)
            if type(prev) is _Terms:
                prev.append(g)
            else:
                grads[key] = _Terms((prev, g))
            return
        if type(prev) is _Arrivals:
            if type(g) is IndexedSlices:  # (summed when read)
                prev.pieces.append((k, g))
                return
            prev = prev.total(rank)
        grads[key] = add_sparse_or_dense(prev, g)
    for t, g in zip(targets, target_grads or [None] * len(targets)):
        if id(t) in live:
            add(id(t), seed(t) if g is None else g, -1)
    keep = {id(s) for s in sources}
    take, pop = grads.get, grads.pop
    for k in range(len(entries) - 1, -1, -1):
        op, inputs, attrs, outputs = entries[k]
        if op.multi:
            out_grads = [take(id(o)) if id(o) in keep else pop(id(o), None) for o in outputs]
            if all(g is None for g in out_grads):
                continue
            out_grads = [(None if op.grad_takes_none else array_ops.zeros_like(o))
                         if g is None else convert_to_tensor(
                             g.total(rank) if type(g) is _Arrivals else
                             naming.total(g) if type(g) is _Terms else g)
                         for o, g in zip(outputs, out_grads)]
        else:  # the common case, kept lean: one output
            key = id(outputs)
            g = take(key) if key in keep else pop(key, None)
            if g is None:
                continue
            if type(g) is _Arrivals:
                g = g.total(rank)
            elif type(g) is _Terms:
                g = naming.total(g)
            if type(g) is IndexedSlices and not op.grad_passes_sparse:
                g = convert_to_tensor(g)
            out_grads = (g,)
        grad_fn = op.grad
        # only ops with several inputs broadcast them
        several = len(inputs) > 1 and op.name not in _INPUT_SHAPED_GRADIENTS
        if attrs and "_gradient_op_type" in attrs:
            grad_fn = gradient_function(attrs["_gradient_op_type"])
            # a user's gradient (tf.custom_gradient, an override) is taken as it is, as TF
            # takes it: one of another shape than its input is not summed to that shape
            several = False
        if grad_fn is None:  # (a custom gradient's name, in a graph another process wrote)
            raise LookupError(
                f"No gradient defined for operation'{op.name}' (op type: {op.name}). In "
                f"general every operation must have an associated `@tf.RegisterGradient` for "
                f"correct autodiff, which this op is lacking. If you want to pretend this "
                f"operation is a constant in your program, you may insert `tf.stop_gradient`. "
                f"This can be useful to silence the error in cases where you know gradients "
                f"are not needed, e.g. the forward pass of tf.custom_gradient. Please see more "
                f"details in https://www.tensorflow.org/api_docs/python/tf/custom_gradient.")
        if naming is None:
            in_grads = _input_grads(grad_fn, OpView(op, inputs, outputs, attrs, live),
                                    out_grads)
        else:  # every input's gradient reduced to its shape, in the op's name scope
            with naming.scope(outputs):
                in_grads = _input_grads(grad_fn, OpView(op, inputs, outputs, attrs,
                                                        naming.needed(inputs, live)), out_grads)
                if several:
                    in_grads = [g if g is None else _reduced(g, t, op, inputs)
                                for t, g in zip(inputs, in_grads)]
                    several = False
                in_grads = naming.gated(in_grads)
        for t, g in zip(inputs, in_grads):
            key = id(t)
            if g is None or key not in live:
                continue
            if several:
                g = _reduced(g, t, op, inputs)
            if key in grads or type(g) is IndexedSlices:
                add(key, g, k)
            else:
                grads[key] = g
    found = [grads.get(id(s)) for s in sources]
    return [g.total(rank) if type(g) is _Arrivals else naming.total(g) if type(g) is _Terms
            else g for g in found]


def _input_grads(grad_fn, view, out_grads):
    """What `grad_fn` gives for the op `view` shows: one gradient (or None) per input."""
    in_grads = grad_fn(view, *out_grads)
    if type(in_grads) is not tuple and type(in_grads) is not list:
        in_grads = (in_grads,)
    inputs, name = view.inputs, view.op_def.name
    if len(in_grads) != len(inputs):
        raise errors.InternalError(None, name, f"The gradient of {name} returned "
                                   f"{len(in_grads)} values for {len(inputs)} inputs.")
    return in_grads


def _reduced(g, t, op, inputs):
    """The gradient `g` of input `t` of an op with several inputs, summed over the dims
    along which the op broadcast `t` (an eager one already of t's shape needs nothing)."""
    if type(g) is IndexedSlices or (type(g) is EagerTensor and type(t) is EagerTensor
                                     and g._data.shape == t._data.shape):
        return g
    if g.dtype == _d.variant:  # (a list's or an optional's gradient: a scalar, never broadcast)
        return g
    return unbroadcast(g, t, inputs if op.elementwise else ())


class _Terms(list):
    """The dense gradients of one tensor in a pass that names its ops, summed when read."""

    __slots__ = ()
