"""Compiled backward passes for eager tapes that repeat: a training step's gradient.

An eager training loop records the same ops on the same shapes every step,
so the backward pass it plays is the same program every step.  The second
time a tape of one *structure* (its ops, attrs, wiring, shapes and dtypes,
the targets and sources) asks for gradients, that backward pass is traced
once into a graph, optimized by the graph passes and compiled by the
executor; from then on a step's gradient is one call of straight-line code
over the recorded arrays, with none of the per-op bookkeeping of playing the
tape op by op.

Tracing runs the very gradient functions `backprop` runs eagerly, on
placeholders of the recorded shapes, so the result is the eager result.
Tapes this cannot serve are played eagerly, as before: gradients that will
be recorded (another tape is active: higher order), ops outside the
registry or played eagerly (custom gradients, calls of traced functions),
and structures
whose backward fails to trace (the eager pass then raises the real error).

>>> # enabled by importing this module: GradientTape.gradient uses it by itself
"""
import numpy as np

from eagerflow._src.autodiff import backprop, compiled_backward
from eagerflow._src.core import context, dtypes
from eagerflow._src.core.tensor import EagerTensor
from eagerflow._src.core.variables import Variable
from eagerflow._src.graph import executor, vectorize
from eagerflow._src.graph.graph import Graph
from eagerflow._src.ops.indexed_slices import IndexedSlices

_wrap = EagerTensor._wrap
_MAX_PROGRAMS = 64  # structures kept; a loop over ever-new shapes must not grow memory
_FAILED = object()  # a structure whose backward did not trace: always played eagerly
_cache = {}         # structure -> times seen (int), a _Program, or _FAILED
# Ops whose gradients this compiler does not trace, filled where they are registered (the
# calls of traced functions, whose backward is a traced function already).  Neither does it
# trace a gradient a ``_gradient_op_type`` attribute names (a custom gradient, which calls
# back into the user's Python code with the values of the run that recorded it).
played_eagerly = set()


class _Unsupported(Exception):
    """A tape this compiler does not serve (it is played op by op)."""


def gradients(entries, targets, weightings, sources):
    """For each weighting of `targets`, the gradients of `sources`; or None: play eagerly.

    `entries` are the tape's ``(op, inputs, attrs, outputs)``; `sources` are
    watched and differentiable.
    """
    if not context.get().fast:  # the gradient ops must be recorded or traced
        return None
    try:
        key, values = _structure(entries, targets, weightings, sources)
    except _Unsupported:
        return None
    try:
        program = _cache.get(key, 0)
    except TypeError:  # an attr holds an unhashable value (a list, an array)
        return None
    if type(program) is int:  # times seen: compile on the second sighting (or for a jacobian)
        if program == 0 and len(_cache) >= _MAX_PROGRAMS:
            _cache.clear()
        if program == 0 and len(weightings) == 1:
            _cache[key] = 1
            return None
        program = _cache[key] = _compile(entries, targets, weightings, sources, values)
    if program is _FAILED:
        return None
    try:
        if len(weightings) > 1 and program.batch is not None:
            return program.run_batch(values, weightings)
        return [program.run(values, weights) for weights in weightings]
    except Exception:  # noqa: BLE001 (played eagerly, the failing op raises as it would there)
        return None


def _structure(entries, targets, weightings, sources):
    """A hashable description of the tape's backward problem, and the values of its slots.

    Every tensor the tape mentions gets a slot, numbered in order of first
    appearance; the key names ops and slots, never values.  (Run on every
    gradient call, so written for speed: most inputs already have a slot.)
    """
    slots, values, key = {}, [], []
    find = slots.get
    for op, inputs, attrs, outputs in entries:
        if (not op.registered or op in played_eagerly
                or attrs and "_gradient_op_type" in attrs):
            raise _Unsupported
        wiring = []
        for t in inputs:
            i = find(id(t))
            wiring.append(_slot(t, slots, values, key) if i is None else i)
        if op.multi:
            for o in outputs:
                slots[id(o)] = len(values)
                values.append(o)
            specs = tuple(map(_spec, outputs))
        else:
            slots[id(outputs)] = len(values)
            values.append(outputs)
            data = outputs._data  # an op's output is an EagerTensor in eager mode
            specs = data.shape, data.dtype
        key.append((op, tuple(attrs.items()) if attrs else None, tuple(wiring),
                    specs))
    ends = [_slot(t, slots, values, key) for t in (*targets, *sources)]
    # which targets have an explicit weight, and of what kind (the same in every pass)
    if type(weightings) is compiled_backward.Rows:
        weighted = {tuple((a.shape[1:], a.dtype) for a in weightings.stacked)}
    else:
        weighted = {None if weights is None else tuple(None if w is None else _spec(w)
                                                       for w in weights)
                    for weights in weightings}
    if len(weighted) != 1:
        raise _Unsupported
    ends.append(weighted.pop())
    key.append(tuple(ends))
    return tuple(key), values


def _slot(t, slots, values, key):
    """The slot of `t`, made (its spec joining the key) if it is new: an outside input."""
    i = slots.get(id(t))
    if i is None:
        i = slots[id(t)] = len(values)
        values.append(t)
        key.append(_spec(t))
    return i


def _spec(t):
    if type(t) is EagerTensor:
        data = t._data
        return data.shape, data.dtype
    if isinstance(t, Variable):
        value = t._handle.value
        return "variable", value.shape, value.dtype
    raise _Unsupported


class _Program:
    """A compiled backward pass: which slots it reads, and how its outputs become gradients.

    `batch` runs the same pass for a stack of weightings at once (a jacobian's
    rows), or is None when the pass takes no weighting.
    """

    __slots__ = ("run_arrays", "reads", "weighted", "layout", "batch")

    def __init__(self, run_arrays, reads, weighted, layout, batch):
        self.run_arrays, self.reads, self.weighted = run_arrays, reads, weighted
        self.layout = layout  # per source: None, "dense" or "sparse" (with or without a shape)
        self.batch = batch

    def run(self, values, weights):
        arrays = [values[i]._data for i in self.reads]
        arrays += [weights[i]._data for i in self.weighted]
        return self._gradients(iter(self.run_arrays(*arrays)))

    def run_batch(self, values, weightings):
        """The passes of every weighting at once: `Stacked` gradients for `Rows` (sparse
        ones excepted), else one list of gradients per weighting."""
        arrays = [values[i]._data for i in self.reads]
        rows = type(weightings) is compiled_backward.Rows
        arrays += [weightings.stacked[i] if rows else np.stack([w[i]._data for w in weightings])
                   for i in self.weighted]
        flat = self.batch(*arrays)
        if rows and all(kind in (None, "dense") for kind in self.layout):
            # results that no weighting reaches come back as read-only broadcasts
            return compiled_backward.Stacked(self._gradients(
                a if a.flags.writeable else a.copy() for a in flat))
        return [self._gradients(a[row] for a in flat) for row in range(len(weightings))]

    def _gradients(self, flat):
        grads = []
        for kind in self.layout:
            if kind is None:
                grads.append(None)
            elif kind == "dense":
                grads.append(_wrap(next(flat)))
            else:
                values_, indices = _wrap(next(flat)), _wrap(next(flat))
                shape = _wrap(next(flat)) if kind == "sparse+shape" else None
                grads.append(IndexedSlices(values_, indices, shape))
        return grads


def _compile(entries, targets, weightings, sources, values):
    """Traces the backward pass of this tape on placeholders and compiles it (or _FAILED)."""
    graph = Graph("gradient_tape")
    try:
        with context.building(graph):
            return _trace(graph, entries, targets, weightings[0], sources, values)
    except Exception:  # noqa: BLE001 (the eager pass that follows raises the real error)
        return _FAILED


def _trace(graph, entries, targets, weights, sources, values):
    """Runs `backprop` on placeholders standing for every slot; compiles what it builds."""
    placeholders = [_placeholder(graph, v) for v in values]
    slot = {id(v): p for v, p in zip(values, placeholders)}
    traced = [(op, [slot[id(t)] for t in inputs], attrs,
               tuple(slot[id(o)] for o in outputs) if op.multi else slot[id(outputs)])
              for op, inputs, attrs, outputs in entries]
    sources = [slot[id(s)] for s in sources]
    if weights is not None:
        weights = [None if w is None else graph.placeholder(w.dtype, w.shape, "weight")
                   for w in weights]
    grads = backprop.backprop(traced, [slot[id(t)] for t in targets], weights, sources,
                              backprop.connected(traced, sources))
    flat, layout = [], []
    for g in grads:
        if g is None:
            layout.append(None)
        elif isinstance(g, IndexedSlices):
            flat += [g.values, g.indices] + ([] if g.dense_shape is None else [g.dense_shape])
            layout.append("sparse" if g.dense_shape is None else "sparse+shape")
        else:
            flat.append(g)
            layout.append("dense")
    operations = executor.needed_operations(graph, flat)
    needed = {id(op) for op in operations}
    reads = [i for i, p in enumerate(placeholders) if id(p.op) in needed]
    if any(isinstance(values[i], Variable) for i in reads):
        raise _Unsupported  # a gradient that reads a variable's value: played eagerly
    weighted = [i for i, w in enumerate(weights or ()) if w is not None]
    fed = [placeholders[i] for i in reads] + [weights[i] for i in weighted]
    run_arrays = executor.compile_graph(graph, fed, flat, "gradient_tape")
    batch = None
    if weighted:
        batch = vectorize.batched(operations, fed, flat,
                                  set(range(len(reads), len(reads) + len(weighted))))
    return _Program(run_arrays, reads, weighted, layout, batch)


def _placeholder(graph, value):
    shape = value.shape.as_list() if isinstance(value, Variable) else value._data.shape
    return graph.placeholder(dtypes.as_dtype(value.dtype), shape, "slot")


compiled_backward.run = gradients
