"""Running a graph for a whole batch of values of some of its inputs at once.

`jacobian` plays one backward pass per element of the target; each differs
only in the weighting fed in.  `batched` runs the backward graph once with
the weightings stacked along a new leading axis: every operation that reads
a batched value runs on the whole batch, by its batching rule:

- the op's own rule in `registry.batching_rules`, declared where it is
  registered (Reshape, BroadcastTo, Transpose and the matrix products get the
  batch dimension added to their shape, permutation or operands);
- elementwise ops (NumPy-broadcasting kernels) run as they are, batched
  operands given ones for the dimensions they lack;
- ops whose rule is `same_shape` and that have no attrs act elementwise or on
  trailing dimensions (softmax, matrix inverse): they run as they are;
- reductions reduce the same axes, one further along;
- any other op (declared `PER_ELEMENT`, stateful, or whose rule does not apply)
  runs once per batch element and its results are stacked, so every graph runs
  (the loop is just no faster than playing per element).

Values that do not depend on a batched input are computed once, except, when
the batch stands for `runs` of the graph (a dataset's map function on a chunk
of elements), the results of stateful ops: each run draws its own random
values (`registry.runs_rules`).

>>> # run = batched(ops, [x, w], outputs, batched_inputs={1}); run(x_array, w_stack)
"""
import numpy as np

from eagerflow._src.core import dtypes, registry
from eagerflow._src.core.variables import Variable
from eagerflow._src.ops import shape_rules


def batched(operations, inputs, outputs, batched_inputs, runs=False):
    """``run(*arrays) -> output arrays``, the batched inputs' arrays having a leading axis;
    None for graphs that hold lists of tensors (a list's value has no batch axis).

    `operations` run in order; `batched_inputs` holds the positions of the
    inputs fed with a batch.  Every output comes back with the leading axis.
    With `runs`, the batch is that many runs of the graph: a stateful op runs once
    per batch element (by its `registry.runs_rules` rule; None for a graph with a
    stateful op that has none, whose effects must happen element by element), and
    values whose elements differ in shape are lists (an output may be one).
    """
    if any(t.dtype == dtypes.variant for op in operations for t in op.outputs):
        return None
    if runs and any(op.op_def is not None and op.stateful
                    and op.op_def not in registry.runs_rules for op in operations):
        return None
    def run(*arrays):
        n = len(arrays[next(iter(batched_inputs))])
        env = {}  # id(tensor) -> (array, whether it has the batch axis)
        for i, (t, a) in enumerate(zip(inputs, arrays)):
            env[id(t)] = a, i in batched_inputs
        for op in operations:
            if op.type == "Const":
                env[id(op.outputs[0])] = op.value, False
                continue
            if op.op_def is None:  # a placeholder: fed above
                continue
            args = [env[id(t)] if id(t) in env or not isinstance(t, Variable)
                    else (t._handle, False) for t in op.inputs]  # (a variable: its handle)
            if any(b for _, b in args):
                results = _run_batched(op, args, n, runs)
            elif runs and op.stateful:
                results = _runs(op, [a for a, _ in args], n)
            else:
                results = _run(op, [a for a, _ in args])
            for t, r in zip(op.outputs, results):
                env[id(t)] = r
        out = []
        for t in outputs:
            a, b = env[id(t)]
            out.append(a if b else np.broadcast_to(a, (n,) + np.shape(a)))
        return out
    return run


def _run(op, arrays):
    """The op's kernel on `arrays`; its results as a list of (array, unbatched)."""
    result = op.op_def.host_kernel(*arrays, **op.attrs)
    return [(r, False) for r in (result if op.op_def.multi else (result,))]


def _runs(op, arrays, n):
    """`n` runs of stateful `op` on unbatched `arrays`, by its `runs_rules` rule."""
    rule = registry.runs_rules.get(op.op_def)
    if rule is registry.RUNS_ONCE:
        return _run(op, arrays)
    return [(r, True) for r in rule(op, arrays, n)]


def _run_batched(op, args, n, ragged=False):
    """`op` on a batch; with `ragged`, elements whose results differ in shape (a crop of a
    size drawn per element) keep them as a list, which ops then take element by element."""
    rule = None if any(type(a) is list for a, _ in args) else _rule(op)
    results = None if rule is None else rule(op, args)
    if results is not None:
        return [(r, True) for r in results]
    rows = [_run(op, [(a[i] if type(a) is list else a[i, ...]) if b else a for a, b in args])
            for i in range(n)]  # (an array's a[i, ...]: arrays, never NumPy scalars)
    out = []
    for k in range(len(op.outputs)):
        parts = [row[k][0] for row in rows]
        if ragged and any(np.shape(p) != np.shape(parts[0]) for p in parts):
            out.append((parts, True))
        else:
            out.append((np.stack(parts), True))
    return out


def _rule(op):
    """The batching rule of `op`, or None: run it per batch element."""
    op_def = op.op_def
    rule = registry.batching_rules.get(op_def)
    if rule is not None:
        return None if rule is registry.PER_ELEMENT else rule
    if op_def.elementwise:
        return _elementwise
    if (op_def.shape is registry.same_shape or getattr(op_def.shape, "one_shape", False)) \
            and not op.attrs:
        return _elementwise
    if op_def.reduction and len(op.inputs) == 1:  # axes as attrs
        return _reduction
    return None


def _elementwise(op, args):
    rank = max(len(t.shape) for t in op.outputs)
    arrays = registry.aligned(args, rank)
    if len(arrays) > 1 and not isinstance(op.op_def.host_kernel, np.ufunc):
        # a kernel may work in place in a temporary shaped like one operand (the activation
        # gradients do): every operand gets the batched shape, as views
        arrays = np.broadcast_arrays(*arrays)
    return _outputs(op, op.op_def.host_kernel(*arrays, **op.attrs))


def _outputs(op, result):
    return list(result) if op.op_def.multi else [result]


def _reduction(op, args):
    (x, _), = args
    axis = op.attrs.get("axis")
    rank = x.ndim - 1
    axes = (tuple(range(1, x.ndim)) if axis is None
            else tuple(a + 1 for a in shape_rules.normalize_axis(axis, rank, op.type)))
    return _outputs(op, op.op_def.host_kernel(x, **{**op.attrs, "axis": axes}))
