"""Running graphs: compiled to straight-line Python once, or replayed op by op.

`compile_graph` optimizes the operations that the outputs (and the stateful
ops) need with the passes of `graph.passes` (constant folding, CSE,
simplification, fusion, buffer reuse), then turns them into the source of one
Python function, one line per operation, with kernels, constants and variable
handles bound as globals, so a run costs a kernel call per node and nothing
else (``out=`` names a dead intermediate the result may overwrite):

    def run(a0):
        t1 = k1(a0, c0)        # Mul
        t2 = k2(t1, c1, out=t1)  # AddV2 into Mul's dead array
        return (t2,)

A failure inside names the failing operation and the user's line that
created it.  `replay` runs the same operations through `dispatch` instead,
so that tapes record them or an enclosing graph inlines them.
"""
import functools
import itertools

import numpy as np

from eagerflow._src.backend import threads

from eagerflow._src.core import context, errors
from eagerflow._src.core.convert import from_array
from eagerflow._src.core.dtypes import resource
from eagerflow._src.core.dispatch import dispatch, kernel_error
from eagerflow._src.core.registry import RuleTable
from eagerflow._src.core.variables import _READ, Variable
from eagerflow._src.graph.graph import SymbolicTensor, gradient_override
from eagerflow._src.graph.passes.dead_code import eliminate_dead_code
from eagerflow._src.graph.passes.inline_calls import inlined_operations
from eagerflow._src.graph.passes.pipeline import optimize
from eagerflow._src.graph.passes.program import Program

_programs = itertools.count()

# Emission rules: `OpDef` -> ``rule(program, op, args, indent)``, which writes `op` (an
# `Operation` whose inputs are held in the names `args`) into `program` as Python statements
# and returns the names holding its outputs.  Filled where the ops are registered (control
# flow: a Python ``if``/``while`` around the bodies its attributes name); any other op is
# one kernel call.
emission_rules = RuleTable("emission", lambda op: True)
# Replay rules: `OpDef` -> ``rule(op, args) -> the values of op's outputs (perhaps more)``,
# which `replay` runs instead of dispatching `op` (a loop or branch that a tape records runs
# in the form its gradient needs); filled where the ops are registered.
replay_rules = RuleTable("replay", lambda op: True)


def needed_operations(graph, outputs, inline=True):
    """The operations the outputs depend on, and every stateful one, in creation order; the
    calls of library functions replaced by their bodies' ops unless `inline` is False."""
    operations = inlined_operations(graph) if inline else graph.get_operations()
    return eliminate_dead_code(Program(operations, [], outputs)).operations


def compile_graph(graph, inputs, outputs, name="graph"):
    """A function ``run(*input_arrays) -> tuple of output arrays`` executing `graph`."""
    program = Emitter(name)
    args = [f"a{i}" for i in range(len(inputs))]
    result = program.emit(graph, inputs, outputs, args, indent=2)
    return program.compile(args, result)


class Emitter:
    """The source of one compiled program, written graph by graph.

    `emit` writes the operations of a graph, one line each; an op with an
    emission rule (control flow) writes its own statements instead, emitting
    the bodies it names in place (a Python ``if``/``while`` around them), so
    a loop runs without a call per iteration.
    """

    def __init__(self, name):
        self.name = name
        self.env = {"_fail": None}
        self.lines = []
        self.at_line = {}  # line number -> (op, argument names, scope), to locate failures
        # the names of the control flow ops whose bodies are being written, each followed by
        # "/": what TF's names of those bodies' nodes start with
        self.scope = ""
        self._count = itertools.count()

    def fresh(self, prefix="t"):
        """A variable name not used before in this program."""
        return f"{prefix}{next(self._count)}"

    def bind(self, value, prefix):
        """The global name bound to `value` (a kernel, constant or variable handle)."""
        key = self.fresh(prefix)
        self.env[key] = value
        return key

    def line(self, indent, text, op=None, args=()):
        if op is not None:
            self.at_line[len(self.lines) + 3] = op, args, self.scope  # after "def", "try"
        self.lines.append("    " * indent + text)

    def emit(self, graph, inputs, outputs, input_names, indent):
        """Writes the operations `outputs` need, with `inputs` held in `input_names`;
        returns the names holding the outputs."""
        names = {id(t): n for t, n in zip(inputs, input_names)}
        # A variable whose handle is an argument (a body's) is the handle its op passes in.
        handles = getattr(graph, "handle_arguments", None) or {}

        def ref(t):
            if isinstance(t, Variable):  # by reference: assignments replace the handle's array
                given = handles.get(id(t._handle))
                if given is not None and id(given) in names:
                    return names[id(given)]
                return self.bind(t._handle, "h")
            try:
                return names[id(t)]
            except KeyError:
                raise errors.InvalidArgumentError(
                    None, None, f"The graph of {self.name!r} uses {t.name}, a tensor of another "
                    f"graph that is not available when it runs on its own.") from None

        program = optimize(graph, inputs, outputs)
        releases = _released_reads(program)
        for op in program.operations:
            if op.type == "Const":  # a number as NumPy's scalar: kernels take it faster
                value = op.value
                if getattr(value, "ndim", None) == 0 and \
                        getattr(value.dtype, "kind", "v") in "biufc":  # (a variant has none)
                    value = value[()]
                names[id(op.outputs[0])] = self.bind(value, "c")
                continue
            if op.op_def is None:  # a placeholder not fed: an argument or capture is missing
                continue
            args = [ref(t) for t in op.inputs]
            rule = emission_rules.get(op.op_def)
            if rule is not None:
                outs = rule(self, op, args, indent)
            else:
                outs = self._call(op, args, [ref(program.reuse[op])] if op in program.reuse
                                  else [], indent)
            for t, var in zip(op.outputs, outs):
                names[id(t)] = var
            for t in releases.get(op, ()):
                self.line(indent, f"del {names[id(t)]}")
        return [ref(t) for t in program.outputs]

    def call(self, op, args, indent):
        """Writes `op` as one call of its kernel (what an emission rule may fall back to)."""
        return self._call(op, args, [], indent)

    def _call(self, op, args, into, indent):
        host = threads.split_elementwise(op.op_def.host_kernel) if _splits(op) else \
            op.op_def.host_kernel
        kernel = self.bind(functools.partial(host, **op.attrs) if op.attrs else host, "k")
        call = f"{kernel}({', '.join(args + [f'out={n}' for n in into])})"
        outs = [self.fresh() for _ in op.outputs]
        if not op.op_def.multi:
            text = f"{outs[0]} = {call}"
        elif outs:
            text = f"({', '.join(outs)},) = {call}"
        else:
            text = call
        self.line(indent, text, op, args)
        return outs

    def compile(self, args, result):
        """The function ``run(*args)`` returning the arrays named `result`."""
        source = "\n".join([
            f"def run({', '.join(args)}):",
            "    try:",
            *self.lines,
            f"        return ({', '.join(result)}{',' if result else ''})",
            "    except Exception as e:",
            "        _fail(e)",
            "        raise",
        ])
        number = next(_programs)
        filename = f"<eagerflow graph {self.name} #{number}>"
        # the function TF's errors name: a concrete function's own, else one numbered here
        shown = self.name if self.name.startswith("__inference_") else \
            f"__inference_{self.name}_{number}"
        self.env["_fail"] = functools.partial(_raise_located, self.at_line, filename, shown)
        self.env["__name__"] = __name__  # NumPy warnings from kernels are filtered as ours
        exec(compile(source, filename, "exec"), self.env)  # noqa: S102 (source made above)
        return self.env["run"]


def _splits(op):
    """Whether `op` runs in parts on the intra-op threads (`threads.split_elementwise`): an
    element-wise kernel writing into ``out=``, of a result not known to be small."""
    op_def = op.op_def
    if op.attrs or op_def.multi or not op_def.elementwise:
        return False
    kernel = op_def.host_kernel
    if not (op_def.takes_out or isinstance(kernel, np.ufunc) and kernel.nout == 1):
        return False
    shape = op.outputs[0].shape
    return not shape.is_fully_defined() or shape.num_elements() >= 2 * threads.SPLIT_SIZE


def _released_reads(program):
    """``{op: [variable reads last used by op]}``: names the program drops after that op.

    A read held until the program returns would keep the variable's array
    shared, so a later in-place update (an optimizer's fused op) would have
    to copy it.
    """
    last = {}
    for op in program.operations:
        for t in op.inputs:
            if isinstance(t, SymbolicTensor) and t.op.op_def is _READ:
                last[id(t)] = (op, t)
    kept = {id(t) for t in program.outputs}
    releases = {}
    for op, t in last.values():
        if id(t) not in kept:
            releases.setdefault(op, []).append(t)
    return releases


def _raise_located(at_line, filename, name, exc):
    """Re-raises a kernel failure as TF's error naming the op and the user's line."""
    tb = exc.__traceback__
    while tb is not None and tb.tb_frame.f_code.co_filename != filename:
        tb = tb.tb_next
    found = at_line.get(tb.tb_lineno) if tb is not None else None
    if found is None:
        return
    op, args, prefix = found
    if isinstance(exc, errors.OpError):
        cls, message = type(exc), errors.bare_message(exc.message)
    else:
        scope = {**tb.tb_frame.f_globals, **tb.tb_frame.f_locals}
        translated = kernel_error(op.op_def, [scope.get(a) for a in args], exc)
        if translated is None:
            return
        cls, message = type(translated), errors.bare_message(translated.message)
    where = ""
    if op.location is not None:
        where = "".join(f'  File "{file}", line {line}, in {function}\n\n'
                        for file, line, function in op.location[2])
    node = op.name if op.name.startswith(prefix) else prefix + op.name
    error = cls(None, None,
                f"Graph execution error:\n\nDetected at node {node} defined at (most recent "
                f"call last):\n{where}{message}\n\t [[{{{{node {node}}}}}]] "
                f"[Op:{name}]")
    error.located = (op, node, message)  # (a Session words it as TF 1 does)
    raise error from None


def replay(graph, inputs, outputs, values, stateful=None):
    """The outputs of `graph` for input `values`, each op run through `dispatch`.

    Tapes see every op, and while another graph is being built the ops land in
    it (a function called inside a function, or traced for its gradient).

    `stateful(op, args) -> values of op's outputs`, when given, runs each
    stateful op instead (a loop's gradient replaying its body gives the values
    the forward pass's reads and draws gave, rather than reading and drawing
    again; see `control_flow`); None runs the op as any other.
    """
    env = environment(graph, inputs, values)
    building = context.get().graph
    for op in needed_operations(graph, outputs):
        if op.type == "Const":
            if id(op.outputs[0]) not in env:  # (unless `values` give it: a capture's copy)
                env[id(op.outputs[0])] = from_array(op.value)
            continue
        if op.op_def is None:
            continue
        # A variable is itself, unless it stands for a variable argument given in `values`.
        args = tuple(env.get(id(t._handle), env.get(id(t), t)) if isinstance(t, Variable)
                     else env[id(t)] for t in op.inputs)
        rule = replay_rules.get(op.op_def)
        result = stateful(op, args) if stateful is not None and op.stateful else None
        if result is not None:
            pass
        elif rule is not None and not _fed_handle(building, args):
            result = rule(op, args)
        else:
            result = run_op(op, args)
        for t, v in zip(op.outputs, result):
            env[id(t)] = v
    return [env.get(id(t), t) if isinstance(t, Variable) else env[id(t)] for t in outputs]


def environment(graph, inputs, values):
    """The values `replay` starts from: id(tensor) -> value of `graph`'s `inputs` (given
    `values`), of the variables its handle arguments stand for and of its captures."""
    env = {id(t): v for t, v in zip(inputs, values)}
    for key, given in (getattr(graph, "handle_arguments", None) or {}).items():
        # A variable whose handle is an argument: the one given for it. A placeholder given
        # instead (a copy of the body being built, which names its own handle arguments)
        # leaves the variable, whose reads say what it holds.
        if id(given) in env and not isinstance(env[id(given)], SymbolicTensor):
            env[key] = env[id(given)]
    for constant, fed in getattr(graph, "fed_constants", ()):
        # a branch's or loop's capture of an eager tensor: the value its op was given
        if id(fed) in env:
            env[id(constant)] = env[id(fed)]
    building = context.get().graph
    if building is not None and graph.functions:  # the functions its ops name come along
        building.functions.update(graph.functions)
    for external, internal in graph.captures:
        env.setdefault(id(internal), external)
    return env


def run_op(op, args):
    """The values of `op`'s outputs (a list) run on `args` as `replay` runs an op: through
    `dispatch`, or `_read_through_handle` when a variable's handle is fed at run time."""
    building = context.get().graph
    override = gradient_override(op)
    if override is not None:
        result = _run_overridden(building, op, args, override)
    elif _fed_handle(building, args):
        result = _read_through_handle(building, op, args)
    else:
        result = dispatch(op.op_def, args, op.attrs)
    return list(result) if op.op_def.multi else [result]


def _run_overridden(building, op, args, override):
    """`op` run on `args` keeping the gradient a `gradient_override_map` gave it: in the
    graph being built (which keeps it too), and on the tapes, which differentiate it by
    that gradient."""
    with context.unrecorded():
        if building is None:
            result = dispatch(op.op_def, args, op.attrs)
        else:
            with building.gradient_override_map({op.op_def.name: override}):
                result = dispatch(op.op_def, args, op.attrs)
    attrs = {**op.attrs, "_gradient_op_type": override}
    for recorder in context.get().recorders:
        recorder.record(op.op_def, args, attrs, result)
    return result


def _fed_handle(building, args):
    """Whether `args`, run while `building` a graph, hold a handle only run time gives."""
    return building is not None and any(getattr(a, "dtype", None) == resource
                                        and isinstance(a, SymbolicTensor) for a in args)


def _read_through_handle(graph, op, args):
    """`op` added to `graph` on `args`, among which a variable's handle only run time gives
    (a resource argument of a body read from TF): its rule cannot tell what the variable
    holds, so its outputs are as `op`'s were; the tapes record it as `dispatch` would."""
    new = graph._add(op.op_def, op.type, graph.unique_name(op.name),
                     tuple(graph.capture(a) for a in args), op.attrs,
                     [(t.shape, t.dtype) for t in op.outputs])
    result = new.outputs if op.op_def.multi else new.outputs[0]
    for recorder in context.get().recorders:
        recorder.record(op.op_def, args, op.attrs, result)
    return result
