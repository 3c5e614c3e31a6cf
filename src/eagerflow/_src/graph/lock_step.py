"""Running a traced function's graph for many rows in lock step, eagerly, as TensorFlow's
vectorized function runs (`vectorized_map`): each op runs for all the rows that reach it
before the next op does.

Most ops give the same values either way; random ops do not.  TF's vectorized
function calls a random op once for all the rows that reach it: every row at
the top, the rows taking a branch in that branch (each branch once), the rows
still running a loop at each of its steps (the op going on along its stream
from step to step).  Here a value is either shared by the rows (it depends on
none of them) or a list with one tensor per row; a random op the `RowDraws`
recorded draws once for its rows (`RowDraws.drawn_together`), a branch runs
once for the rows taking it, a loop step once for the rows still running it,
and any other op row by row.  The op of a map in the function (`nested_maps`)
runs once for all the rows of its rows, as TF's vectorized function runs along both.

>>> # LockStep(draws, rows=[0, 1, 2]).run(graph, inputs, outputs, per_row_values)
"""
import weakref

from eagerflow._src.core.convert import from_array
from eagerflow._src.core.variables import Variable
from eagerflow._src.graph import executor
from eagerflow._src.graph.control_flow import _branch_names, _case_pick, _scope, _truth
from eagerflow._src.graph.function_library import lookup

# The op of a map in the function of another (a `py_function`'s, by its token) -> what
# runs its rows (`nested(args, rows)`): the outer map's lock step runs it for all the
# rows of its rows at once
nested_maps = weakref.WeakValueDictionary()

BRANCH_OPS = frozenset(("If", "StatelessIf", "Case", "StatelessCase"))
LOOP_OPS = frozenset(("While", "StatelessWhile"))
PRINT_OPS = frozenset(("PrintV2", "Print"))


class LockStep:
    """Runs graphs for the rows `rows` (their numbers in the map) in lock step; `draws`
    (a `RowDraws` past `lock_step`) draws the random ops it recorded.  With `prints`,
    a print prints for row 0 only (TF's vectorized function runs it once, for the first
    row); else not at all."""

    def __init__(self, draws, prints=True):
        self.draws, self.prints = draws, prints

    def run(self, graph, inputs, outputs, values, rows):
        """The outputs of `graph` for `rows`: each a tensor shared by them or a list with
        one per row; `values` are the inputs', in the same form."""
        env = executor.environment(graph, inputs, values)
        for op in executor.needed_operations(graph, outputs):
            if op.type == "Const":
                if id(op.outputs[0]) not in env:
                    env[id(op.outputs[0])] = from_array(op.value)
                continue
            if op.op_def is None:
                continue
            args = [env.get(id(t._handle), env.get(id(t), t)) if isinstance(t, Variable)
                    else env[id(t)] for t in op.inputs]
            drawn = self.draws.drawn_together(op, args, len(rows))
            nested = nested_maps.get(op.attrs.get("token")) if op.type == "EagerPyFunc" \
                else None
            if drawn is not None:
                results = [drawn]
            elif op.type == "ReadVariableOp" and not isinstance(args[0], Variable):
                results = [args[0]]  # (a variable's value, given as an input of the map's op)
            elif nested is not None:
                results = nested.nested(args, rows)
            elif op.type in BRANCH_OPS:
                results = self._branch(op, args, rows)
            elif op.type in LOOP_OPS:
                results = self._loop(op, args, rows)
            elif op.stateful or any(isinstance(a, list) for a in args):
                results = self._row_by_row(op, args, rows)
            else:
                results = executor.run_op(op, args)
            for t, v in zip(op.outputs, results):
                env[id(t)] = v
        return [env.get(id(t), t) if isinstance(t, Variable) else env[id(t)] for t in outputs]

    def _row_by_row(self, op, args, rows):
        if op.type in PRINT_OPS:
            if self.prints and rows[0] == 0:
                executor.run_op(op, _row(args, 0))
            return []
        per_row = [executor.run_op(op, _row(args, i)) for i in range(len(rows))]
        return [list(values) for values in zip(*per_row)]

    def _branch(self, op, args, rows):
        """A branching op: each branch runs once, for the rows it takes (in order)."""
        key, *inputs = args
        bodies = [lookup(name, op.graph) for name in _branch_names(op.attrs)]
        keys = key if isinstance(key, list) else [key] * len(rows)
        if op.type.endswith("If"):
            chosen = [_truth(k.dtype, None, _scope(bodies[0]))(k.numpy()) for k in keys]
        else:
            chosen = [_case_pick(len(bodies), k.numpy()) for k in keys]
        results = [[None] * len(rows) for _ in op.outputs]
        for b, body in enumerate(bodies):
            taken = [i for i, c in enumerate(chosen) if c == b]
            if not taken:
                continue
            outputs = self.run(body.graph, body.inputs, body.outputs, _rows(inputs, taken),
                               [rows[i] for i in taken])
            for column, value in zip(results, outputs):
                for j, i in enumerate(taken):
                    column[i] = value[j] if isinstance(value, list) else value
        return results

    def _loop(self, op, args, rows):
        """A loop: each step tests the rows still running, then runs the body once for
        those that go on."""
        attrs = op.attrs
        test, step = lookup(attrs["cond"], op.graph), lookup(attrs["body"], op.graph)
        n, limited = len(attrs["output_shapes"]), attrs.get("_limited", False)
        values, captured = list(args[:n]), args[n + limited:]
        limits = args[n] if limited else None
        results = [[None] * len(rows) for _ in range(n)]
        running = list(range(len(rows)))
        count = 0
        while running:
            go, = self.run(test.graph, test.inputs, test.outputs,
                           values + _rows(captured, running), [rows[i] for i in running])
            goes = [bool(g) for g in go] if isinstance(go, list) else [bool(go)] * len(running)
            if limits is not None:  # (TF's test is the loop's and the limit's)
                goes = [g and count < int(limits[i] if isinstance(limits, list) else limits)
                        for g, i in zip(goes, running)]
            kept = [j for j, g in enumerate(goes) if g]
            for j, g in enumerate(goes):
                if not g:
                    for column, value in zip(results, values):
                        column[running[j]] = value[j] if isinstance(value, list) else value
            running = [running[j] for j in kept]
            values = _rows(values, kept)
            if not running:
                break
            values = self.run(step.graph, step.inputs, step.outputs,
                              values + _rows(captured, running), [rows[i] for i in running])
            count += 1
        return results


def _row(args, i):
    return [a[i] if isinstance(a, list) else a for a in args]


def _rows(values, kept):
    """`values` for the rows at positions `kept` (shared ones as they are)."""
    return [[v[i] for i in kept] if isinstance(v, list) else v for v in values]

