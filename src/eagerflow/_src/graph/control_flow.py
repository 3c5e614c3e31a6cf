"""Control flow: `cond`, `case`, `switch_case` and `while_loop`.

Executing eagerly they are plain Python: the predicate is read and one branch
runs (a tape then records just the ops that ran).  While a graph is built,
each branch, loop condition and loop body is traced into a graph of its own
and added to the graph's function library (`function_library`); one
registered op stands for the whole construct, its attributes naming those
functions: ``If``/``StatelessIf`` (``then_branch``, ``else_branch``),
``Case``/``StatelessCase`` (``branches``), ``While``/``StatelessWhile``
(``cond``, ``body``).  The executor writes the op as a Python ``if`` or ``while`` around the bodies'
compiled code.  `TensorArray`s travel through them as their flows.

The ops' layouts: an ``If`` takes the predicate, then the outer tensors
(``Tin``; a variable as a ``resource``), and returns ``Tout`` of shapes
``output_shapes``; each branch takes every one of those outer tensors.  A
``Case`` takes the branch index first.  A ``While`` takes the loop variables,
then the iteration limit when ``_limited``, then the outer tensors (``T``
lists the dtypes of them all); its condition and body take the loop
variables then the outer tensors, the body returns the loop variables, and
the op returns the loop variables (``output_shapes``).

Their gradients replay the subgraphs under a tape: an ``If``'s (a ``Case``'s) is
the same op over branches differentiating the forward ones; a ``While``'s is a loop over the
iterations backwards, replaying the body on the values each iteration
started with.  A construct a tape records is built in TF's accumulating form
(`_Accumulation`, `_BranchAccumulation`): its bodies also push, run by run,
onto lists it returns, what the replay needs and must not compute again (a
loop's variables as each iteration starts; the values of its stateful ops:
a variable's reads, random draws), so a gradient neither repeats an update
or a draw nor differentiates other values than the forward pass's.  The
form is TF's, loop variables and outputs, so such graphs are written as
TF's GraphDefs.

>>> tf.cond(tf.constant(2.0) > 0, lambda: 1.0, lambda: -1.0)
1.0
>>> tf.while_loop(lambda i: i < 3, lambda i: (i + 1,), [tf.constant(0)])
(<tf.Tensor: shape=(), dtype=int32, numpy=3>,)
"""
import collections
import contextlib
import functools

import numpy as np

from eagerflow._src.autodiff import graph_gradients
from eagerflow._src.autodiff.backprop import hold
from eagerflow._src.autodiff.tape import (
    GradientTape, UnconnectedGradients, is_differentiable, records, watch_accessed)
from eagerflow._src.backend.api_export import SymbolicCall, export
from eagerflow._src.core import context, errors, nest
from eagerflow._src.core.convert import convert_to_tensor
from eagerflow._src.core.dispatch import dispatch
from eagerflow._src.core.node_forms import NodeForm, tf_nodes
from eagerflow._src.core.node_forms import tf_args
from eagerflow._src.core.node_forms import input_dtype, input_dtypes, tf_defaults
from eagerflow._src.core.dtypes import int32, int64, resource, variant
from eagerflow._src.core.registry import (
    PER_ELEMENT, batching_rules, kernel_type_name, register, register_gradient)
from eagerflow._src.core.tensor_shape import TensorShape
from eagerflow._src.core.tensor_spec import TensorSpec
from eagerflow._src.core.variables import Variable
from eagerflow._src.graph import executor
from eagerflow._src.graph.function_library import (
    FunctionBody, add_function, check_replayable, lookup)
from eagerflow._src.graph.graph import Graph, SymbolicTensor
from eagerflow._src.graph.tensor_array import TensorArray, to_flow, with_flows
from eagerflow._src.core.tensor import EagerTensor, Tensor
from eagerflow._src.ops import (array_ops, cast_ops, debugging_ops, list_ops, math_ops,
                                reduction_ops)
from eagerflow._src.ops.indexed_slices import IndexedSlices, add_sparse_or_dense

# How a branching op differs by kind: its op type (``Stateless`` prepended when no branch has
# state), the names of its branches' graphs and of the branches and the function in errors.
_Branching = collections.namedtuple("_Branching", "op_type scope graphs roles api kind")


def _branching(op_type, scope, n=2):
    """The `_Branching` of an op of `op_type` (``If`` or ``Case``, `n` branches) named `scope`."""
    if op_type == "If":
        return _Branching("If", scope, (f"{scope}_true", f"{scope}_false"),
                          ("true_fn", "false_fn"), "tf.cond", "cond")
    return _Branching("Case", scope, [f"{scope}_branch{i}" for i in range(n)],
                      [f"branches[{i}]" for i in range(n)], "tf.switch_case", "case")


def _op_scope(name):
    """The name scope of a branching or loop op named `name` built in the current graph,
    taken now (``outer/cond_1/``): its branches and bodies are traced in it and the op is
    named after it, as in TF (the tags of summaries inside take it too). None eagerly."""
    graph = context.get().graph
    return None if graph is None else graph.unique_name(name) + "/"


def _scope(body):
    """The scope a branch or loop op was built under, from its body's graph name
    (``cond_true``, ``while_body``: see `_branching` and `_graph_while`)."""
    return body.graph.name.rsplit("_", 1)[0]


# -- cond -----------------------------------------------------------------------------------

@export("cond")
def cond(pred, true_fn=None, false_fn=None, name=None):
    """``true_fn()`` if `pred` else ``false_fn()``; in a graph, one ``If`` op.

    Both branches must return the same structure of tensors of the same dtypes.

    >>> tf.cond(tf.constant(True), lambda: tf.constant(1), lambda: tf.constant(2))
    <tf.Tensor: shape=(), dtype=int32, numpy=1>
    """
    for role, fn in (("true_fn", true_fn), ("false_fn", false_fn)):
        if fn is None:
            raise TypeError(f"cond(): '{role}' argument required")
        if not callable(fn):
            raise TypeError(f"'{role}' must be callable.")
    if context.executing_eagerly():
        return true_fn() if pred else false_fn()  # a tensor's truth, as TF's eager cond
    if isinstance(pred, bool):
        raise TypeError("pred must not be a Python bool")
    pred = convert_to_tensor(pred)
    return _branched(pred, [true_fn, false_fn], _branching("If", name or "cond"))


def _truth(dtype, rank, scope):
    """The branch number (0: true) a predicate of `dtype` and static `rank` selects, as a
    function of its array; None for a bool scalar, whose truth selects it (TF's If takes any
    one-element bool tensor, and refuses other dtypes when it runs)."""
    if not dtype.is_bool:
        message = (f"Input 'pred' passed {kernel_type_name(dtype)} expected bool while "
                   f"building NodeDef '{scope}/switch_pred/_2' using Op<name=Switch; "
                   "signature=data:T, pred:bool -> output_false:T, output_true:T; "
                   "attr=T:type>")

        def refuse(value):
            raise errors.InvalidArgumentError(None, None, message)
        return refuse
    if rank == 0:
        return None
    return _one_truth


def _one_truth(value):
    if value.size != 1:
        raise errors.InvalidArgumentError(
            None, None, f"The second input must be a scalar, but it has shape "
            f"{errors.shape_text(value.shape)}")
    return 0 if value.reshape(()) else 1


def _branch_names(attrs):
    """The names of a branching op's functions, in branch order."""
    if "branches" in attrs:
        return attrs["branches"]
    return [attrs["then_branch"], attrs["else_branch"]]


def _pick(op_type, key_dtype, key_rank, bodies):
    """``pick(key array) -> branch number`` of a branching op, or None: a Python ``if`` on
    the key (a bool scalar) selects the first branch or the second."""
    if op_type.endswith("If"):
        return _truth(key_dtype, key_rank, _scope(bodies[0]))
    return functools.partial(_case_pick, len(bodies))


def _branched(key, fns, kind, gradient=False, by_type=False):
    """The outputs of the branch of `fns` that `key` selects, through one op of `kind` (a
    `gradient`'s branches may return sparse and dense gradients in one place). In a graph
    the op is named as its scope (``cond``), or `by_type` (``StatelessIf``, in the current
    scope), and each output passes through an ``Identity`` (``cond/Identity``), as TF's."""
    scope = _op_scope(kind.scope)
    branches = [_Subgraph.trace(graph, fn, scope=scope, op_value=key)
                for graph, fn in zip(kind.graphs, fns)]
    _match_sparse_outputs(branches, kind, gradient)
    _check_branches(branches, kind)
    specs = _merged_specs(branches)
    outer = _union_captures(branches)
    bodies = [b.body(outer) for b in branches]
    graph = context.get().graph
    for body in bodies:
        if graph is not None:
            add_function(graph, body)
    stateful = any(b.stateful for b in branches)
    attrs = {"Tin": _input_types(outer), "Tout": tuple(dtype for _, dtype in specs),
             "output_shapes": tuple(shape for shape, _ in specs)}
    if kind.op_type == "If":
        attrs.update(Tcond=key.dtype, then_branch=bodies[0].name, else_branch=bodies[1].name)
        op = _IF if stateful else _STATELESS_IF
    else:
        attrs["branches"] = tuple(b.name for b in bodies)
        op = _CASE if stateful else _STATELESS_CASE
    _watch_variables(outer)
    n = len(specs)
    inputs = (key, *outer)
    form = None
    if records(inputs):  # a tape records it: its gradient will be taken
        form = _branch_accumulating_form(op, attrs, inputs)
    if form is not None:
        op, inputs, attrs = form
        bodies = [lookup(name) for name in _branch_names(attrs)]
    flat = dispatch(op, inputs, attrs, name=None if by_type else scope or kind.scope)
    if graph is None and flat:  # run eagerly (a gradient of a replayed op): a tape may
        hold(flat[0], bodies)   # record it, naming the bodies, as long as its outputs live
    flat = _identities(flat[:n], None if by_type else scope)
    leaves = branches[0].leaves
    values = iter(with_flows([v for v in leaves if v is not None], flat))
    return nest.pack_sequence_as(_composite_specs(branches[0].structure),
                                 [None if v is None else next(values) for v in leaves],
                                 expand_composites=True)


def _composite_specs(structure):
    """`structure` with each composite value a branch returned as its type spec, which
    packs the outputs alike without making ops (an `Optional` of a value would make its
    variant in the outer graph, of tensors inside the branch)."""
    def spec(value):
        value_spec = getattr(value, "_type_spec", None)
        return value_spec if getattr(value_spec, "_to_components", None) else value
    return nest.map_structure(spec, structure)


# () -> whether control flow built now is TF 1's (`disable_control_flow_v2`), set by the
# TF 1 graph mode: its results are then named as TF 1's ``cond/Merge``, ``while/Exit``
tf1_control_flow = None


def _identities(outputs, scope, first=0, tf1_name="Merge"):
    """In a graph, `outputs` (of a branching or loop op) each through an ``Identity`` in
    name scope `scope` (else the current one), numbered from `first` (TF's loop numbers
    its variables after its counter and limit: ``while/Identity_2``); under TF 1's control
    flow named `tf1_name` (``cond/Merge``, ``while/Exit_1``) from 0."""
    if context.get().graph is None:
        return outputs
    base = "Identity"
    if tf1_control_flow is not None and tf1_control_flow():
        base, first = tf1_name, 0
    with context.name_scope_push(scope) if scope else contextlib.nullcontext():
        return [cast_ops.identity(t, name=f"{base}_{i}" if i else base)
                for i, t in enumerate(outputs, first)]


def _match_sparse_outputs(branches, kind, gradient):
    """Where some branches of a `gradient` return an `IndexedSlices` and others a tensor,
    the others' become `IndexedSlices` of all their rows (as in TF: a gradient a branch
    keeps sparse stays sparse); the indices of them all take one dtype (int64 if they
    differ).  Other branches must not mix them (TF's TypeError)."""
    structures = [b.structure for b in branches]
    try:
        for s in structures[1:]:
            nest.assert_same_structure(structures[0], s)
    except (TypeError, ValueError):
        return  # (`_check_branches` says why)
    flats = [nest.flatten(s) for s in structures]
    changed = set()
    for j, position in enumerate(zip(*flats)):
        sparse = [v for v in position if isinstance(v, IndexedSlices)]
        if not sparse or any(v is not None and not isinstance(v, (IndexedSlices, Tensor))
                             for v in position):
            continue
        if not gradient and len(sparse) < len(position):
            raise TypeError(f"Cannot reconcile {kind.api} {j}-th "
                            f"outputs:\n  branches returned: {position}")
        dtypes = {v.indices.dtype for v in sparse}
        for b, v in enumerate(position):
            if not isinstance(v, IndexedSlices) or len(dtypes) > 1 and v.indices.dtype != int64:
                changed.add(b)
    for b in changed:
        branch = branches[b]
        others = [f for i, f in enumerate(flats) if i != b]
        with context.building(branch.graph):
            flat = [_as_matching_slices(v, [f[j] for f in others])
                    for j, v in enumerate(flats[b])]
        branch.set_result(nest.pack_sequence_as(structures[b], flat))


def _as_matching_slices(value, others):
    """`value`, an output of one branch, as the `IndexedSlices` the `others` (the other
    branches' outputs in its place) make it, when they make it one."""
    sparse = [v for v in others if isinstance(v, IndexedSlices)]
    if not sparse or not isinstance(value, (IndexedSlices, Tensor)):
        return value
    dtype = int64 if len({v.indices.dtype for v in [*sparse, value]
                          if isinstance(v, IndexedSlices)}) > 1 else sparse[0].indices.dtype
    if isinstance(value, IndexedSlices):
        return IndexedSlices(value.values, cast_ops.cast(value.indices, dtype),
                             value.dense_shape)
    shape = array_ops.shape(value, out_type=dtype)
    return IndexedSlices(value, array_ops.range(shape[0]), shape)


def _input_types(inputs):
    """The dtypes of an op's inputs as its type-list attribute (``Tin``) gives them: a
    variable is a resource."""
    return tuple(resource if isinstance(t, Variable) else t.dtype for t in inputs)


def _check_branches(branches, kind):
    """Every branch returns what the first does: its structure, outputs and their dtypes."""
    first = branches[0]
    for i, branch in enumerate(branches[1:], 1):
        def fail(details):
            return TypeError(
                f"{kind.roles[0]} and {kind.roles[i]} arguments to {kind.api} must have the "
                f"same number, type, and overall structure of return values.\n\n"
                f"{kind.roles[0]} output: {first.structure}\n{kind.roles[i]} output: "
                f"{branch.structure}\n\nError details:\n{details}")
        try:
            # (composites too: an extension type's Python fields must agree, as its spec)
            nest.assert_same_structure(first.structure, branch.structure,
                                       expand_composites=True)
        except (TypeError, ValueError) as e:
            raise fail(e) from None
        if len(first.outputs) != len(branch.outputs):  # a None against a tensor
            raise ValueError(f"Lengths of branch outputs of {kind.kind} must match.\n"
                             f"len(graphs[0].outputs): {len(first.outputs)}\n"
                             f"len(graphs[{i}].outputs): {len(branch.outputs)}\n")
        for a, b in zip(first.outputs, branch.outputs):
            if a.dtype != b.dtype:
                raise fail(f"{a} and {b} have different types")


def _merged_specs(branches):
    """(shape, dtype) of each output: the shape all branches are compatible with."""
    specs = []
    for outputs in zip(*(b.outputs for b in branches)):
        shape = outputs[0].shape
        for t in outputs[1:]:
            shape = shape.most_specific_compatible_shape(t.shape)
        specs.append((shape, outputs[0].dtype))
    return specs


def _watch_variables(inputs):
    """Tapes watch the trainable variables among `inputs`, as if they saw the reads inside."""
    watch_accessed([t for t in inputs if isinstance(t, Variable)])


# -- the branching ops: If, StatelessIf, Case, StatelessCase ------------------------------------

def _branch_rule(key, *inputs, Tout, output_shapes, **_):
    return list(zip(output_shapes, Tout))


def _branch_kernel(xp, key, *arrays, **attrs):
    """Runs the branch `key` selects, by its compiled program."""
    bodies = [lookup(name) for name in _branch_names(attrs)]
    if "branches" in attrs:
        chosen = _case_pick(len(bodies), key)
    else:
        pick = _truth(attrs["Tcond"], None, _scope(bodies[0]))
        chosen = pick(key)
    return bodies[chosen].run(*arrays)


def _unknown_shapes(inputs, attrs):
    """A raw op's branch outputs: of shapes only run time knows, one per ``Tout``."""
    return (TensorShape(None),) * len(attrs["Tout"])


# (grad_takes_none: the accumulated lists mostly get none)
_IF = register("If", _branch_kernel, _branch_rule, multi=True, tied=(), stateful=True,
               grad_takes_none=True)
tf_args[_IF] = ("cond", "*input")
tf_defaults[_IF] = {"Tcond": input_dtype(0), "Tin": input_dtypes(1),
                     "output_shapes": _unknown_shapes}
_STATELESS_IF = register("StatelessIf", _branch_kernel, _branch_rule, multi=True, tied=(),
                         grad_takes_none=True)
tf_args[_STATELESS_IF] = ("cond", "*input")
tf_defaults[_STATELESS_IF] = tf_defaults.get(_IF)
_CASE = register("Case", _branch_kernel, _branch_rule, multi=True, tied=(), stateful=True,
                 grad_takes_none=True)
tf_args[_CASE] = ("branch_index", "*input")
tf_defaults[_CASE] = {"Tin": input_dtypes(1), "output_shapes": _unknown_shapes}
_STATELESS_CASE = register("StatelessCase", _branch_kernel, _branch_rule, multi=True, tied=(),
                           grad_takes_none=True)
tf_args[_STATELESS_CASE] = ("branch_index", "*input")
tf_defaults[_STATELESS_CASE] = tf_defaults.get(_CASE)
# TF's forms: the attrs are TF's already (Tcond, Tin, Tout, then_branch, ..., output_shapes)
for _op in (_IF, _STATELESS_IF, _CASE, _STATELESS_CASE):
    tf_nodes[_op] = NodeForm(types={}, outputs=("output",),
                             functions=("then_branch", "else_branch", "branches"))


def _emit_branches(program, op, args, indent):
    """Writes a branching op into a compiled program as a Python ``if``/``elif`` chain around
    its branches' bodies, the last one under ``else``."""
    key, *inputs = args
    bodies = [lookup(name, op.graph) for name in _branch_names(op.attrs)]
    pred = op.inputs[0]
    pick = _pick(op.type, pred.dtype, pred.shape.rank, bodies)
    if pick is None:
        tests = [f"if {key}:"]
    else:
        chosen = program.fresh()
        program.line(indent, f"{chosen} = {program.bind(pick, 'k')}({key})")
        tests = [f"{'el' if i else ''}if {chosen} == {i}:" for i in range(len(bodies) - 1)]
    outs = [program.fresh() for _ in op.outputs]
    with _scoped(program, op):
        for keyword, body in zip([*tests, "else:"], bodies):
            program.line(indent, keyword)
            results = body.emit(program, inputs, indent + 1)
            program.line(indent + 1, _assignment(outs, results))
    return outs


@contextlib.contextmanager
def _scoped(program, op):
    """Within the block, `program` writes the body of control flow `op`: a failure there names
    its node under the op's name, as TF's do (``cond/GatherV2``; the ops of a body traced in
    the op's name scope are named so already)."""
    outer = program.scope
    program.scope = f"{op.name}/"
    try:
        yield
    finally:
        program.scope = outer


def _assignment(targets, values):
    """``a, b, = x, y,`` (a statement even with nothing to assign)."""
    return f"{', '.join(targets)}, = {', '.join(values)}," if targets else "pass"


def _branch_gradient(view, *dys):
    """A branching op's gradient: the same branching over branches that differentiate the
    forward ones.

    Each gradient branch replays its forward branch under a tape (recomputing
    its intermediates) and takes the gradient with the incoming `dys`.
    """
    key, *inputs = view.inputs
    bodies = [lookup(name) for name in _branch_names(view.attrs)]
    accumulated = bodies[0].derived.get("accumulation")
    if accumulated is None:
        for body in bodies:
            check_replayable(body, view.op_def.name, "branch")
    else:  # the values of the branch's stateful ops come from the lists it returned
        bodies, lists = accumulated.bodies, view.outputs[accumulated.n:]
        # (the gradients of the values the lists hold, when a higher-order derivative
        # differentiates a gradient branch that read them)
        list_dys = dys[accumulated.n:]
    n = len(view.outputs) if accumulated is None else accumulated.n
    dys = [array_ops.zeros_like(o) if d is None else d for o, d in zip(view.outputs, dys[:n])]

    def differentiate(b, body):
        def fn():
            graph = context.get().graph
            inner = [graph.capture(t) if graph is not None else t for t in inputs]
            wanted = [t for i, t in enumerate(inner)
                      if view.needs(i + 1) and is_differentiable(t)]
            stateful, targets, weights = None, [], []
            if accumulated is not None:
                def read(lst, shape, dtype):
                    return list_ops.get_item(graph.capture(lst) if graph is not None else lst,
                                             0, shape, dtype)
                mine = [i for i, (owner, _, _) in enumerate(accumulated.elements)
                        if owner == b]
                saved = [read(lists[i], *accumulated.elements[i][1:]) for i in mine]
                stateful = _substitute(_grouped(accumulated.saved_ops[b],
                                                accumulated.sizes[b], saved))
                for i, value in zip(mine, saved):
                    if list_dys[i] is not None:
                        targets.append(value)
                        weights.append(read(list_dys[i], *accumulated.elements[i][1:]))
            with GradientTape() as tape:
                tape.watch(wanted)
                outs = body.replay(inner, stateful)
            found = _gradients(tape, [*outs, *targets], [*dys, *weights], wanted, sparse=True)
            by_id = {id(t): g for t, g in zip(wanted, found)}
            return [by_id.get(id(t)) if id(t) in by_id else array_ops.zeros_like(t)
                    for t in inner]
        return fn

    op_type = view.op_def.name.replace("Stateless", "")
    backward = _branching(op_type, f"gradients/{_scope(bodies[0])}", len(bodies))
    # (in a named backward pass, ``gradients/cond_grad/StatelessIf``, as TF's)
    grads = _branched(key, [differentiate(b, body) for b, body in enumerate(bodies)],
                      backward, gradient=True, by_type=bool(context.get().scope))
    return [None, *(g if is_differentiable(t) else None for t, g in zip(inputs, grads))]


class _BranchAccumulation:
    """The accumulating form of a branching op, TF's: each branch also returns, per value
    its own or another branch's stateful ops give (see `_saved_ops`), a list holding it
    when the branch is the one that ran (an empty list for the other branches' values),
    which the gradient's branch reads instead of running the stateful ops again.
    `branches` are the copies of `bodies` that the op names; `elements` are ``(branch,
    shape, dtype)`` of each list's value."""

    def __init__(self, bodies):
        self.bodies = bodies
        self.n = len(bodies[0].outputs)
        self.branches = list(bodies)
        if not any(body.stateful for body in bodies):
            return
        copies = [_Copy(body) for body in bodies]
        self.saved_ops = [c.ops for c in copies]
        self.sizes = [c.sizes for c in copies]
        self.elements = [(b, v.shape, v.dtype) for b, c in enumerate(copies) for v in c.saved]
        for b, c in enumerate(copies):
            with context.building(c.graph):
                mine, lists = iter(c.saved), []
                for owner, shape, dtype in self.elements:
                    empty = list_ops.reserve(shape, 0, dtype)
                    lists.append(list_ops.set_item(empty, 0, next(mine), resize=True)
                                 if owner == b else empty)
            self.branches[b] = c.body(c.args, [*c.results, *lists])
            self.branches[b].derived["accumulation"] = self


def _branch_accumulating_form(op, attrs, inputs):
    """``(op, inputs, attrs)`` of the accumulating form of branching op `op` (a
    `_BranchAccumulation`) on `inputs`, or None for branches without state (or that form
    already). (Branches whose stateful ops give nothing, as a print, are copied too: the
    gradient's replay skips those ops.)"""
    bodies = [lookup(name) for name in _branch_names(attrs)]
    if "accumulation" in bodies[0].derived:
        return None
    key = ("accumulation of", tuple(b.name for b in bodies))
    found = bodies[0].derived.get(key)
    if found is None:
        found = bodies[0].derived[key] = _BranchAccumulation(bodies)
    if found.branches == found.bodies:
        return None
    graph = context.get().graph
    if graph is not None:
        for body in found.branches:
            add_function(graph, body)
    k = len(found.elements)
    attrs = {**attrs, "Tout": (*attrs["Tout"], *[variant] * k),
             "output_shapes": (*attrs["output_shapes"], *[TensorShape([])] * k)}
    if "branches" in attrs:
        attrs["branches"] = tuple(b.name for b in found.branches)
    else:
        attrs.update(then_branch=found.branches[0].name, else_branch=found.branches[1].name)
    return op, inputs, attrs


for _op in (_IF, _STATELESS_IF, _CASE, _STATELESS_CASE):
    executor.emission_rules[_op] = _emit_branches
    register_gradient(_op.name)(_branch_gradient)
batching_rules.assign(PER_ELEMENT, _STATELESS_IF, _STATELESS_CASE)  # (If and Case: stateful)


def _gradients(tape, outputs, dys, sources, sparse=False):
    """The gradients of `outputs` weighted by `dys`, for `sources` (zeros where unconnected).

    Sparse ones are made dense unless `sparse` (a branch's stay sparse, as in TF; a
    loop's become loop variables).
    """
    pairs = [(o, d) for o, d in zip(outputs, dys) if is_differentiable(o)]
    found = tape.gradient([o for o, _ in pairs], sources,
                          output_gradients=[d for _, d in pairs],
                          unconnected_gradients=UnconnectedGradients.ZERO)
    return [g if sparse and isinstance(g, IndexedSlices) else convert_to_tensor(g)
            for g in found]


# -- case / switch_case -----------------------------------------------------------------------

@export("case")
def case(pred_fn_pairs, default=None, exclusive=False, strict=False, name="case"):
    """The result of the first callable whose predicate is true (else `default`).

    Without `default` the last pair's callable is the default, asserting that
    its predicate holds (InvalidArgumentError if none does); `exclusive`
    asserts that at most one of the other predicates holds.

    >>> tf.case([(tf.constant(False), lambda: 1.0), (tf.constant(True), lambda: 2.0)],
    ...         default=lambda: 3.0)
    2.0
    """
    pairs = list(pred_fn_pairs.items() if isinstance(pred_fn_pairs, dict) else pred_fn_pairs)
    for pair in pairs:
        if not isinstance(pair, tuple) or len(pair) != 2:
            raise TypeError(f"Each entry in 'pred_fn_pairs' must be a 2-tuple. Received {pair}.")
        if not isinstance(pair[0], Tensor):
            raise TypeError(f"pred must be a Tensor, got: {pair[0]}")
        # (a graph tensor is named by its name, as in TF; an eager one has none)
        named = pair[0] if context.executing_eagerly() else pair[0].name
        if not pair[0].dtype.is_bool:
            raise TypeError(f"pred must be Tensor of type bool: {named}")
        if not callable(pair[1]):
            raise TypeError(f"fn for pred {named} must be callable.")
    if not pairs:  # (TF fails here too, even with a default)
        raise ValueError("pred_fn_pairs must not be empty.")
    if not strict and _unpacks_singletons():  # a branch's one-element list is its element
        pairs = [(p, _unpacking_singleton(fn)) for p, fn in pairs]
        default = default and _unpacking_singleton(default)
    preds = [p for p, _ in pairs]
    if default is None:
        *pairs, (last, fn) = pairs
        default = _asserting(last, fn, "Input error: None of conditions evaluated as True:",
                             preds)
    if exclusive and len(pairs) > 1:
        checked = array_ops.stack([p for p, _ in pairs])
        names = ", ".join("?" if context.executing_eagerly() else p.name for p, _ in pairs)
        debugging_ops.Assert(
            reduction_ops.reduce_sum(cast_ops.cast(checked, int32)) <= 1,
            [f"Input error: exclusive=True: more than 1 conditions ({names}) evaluated as "
             f"True:", checked], summarize=len(pairs))
    result = default
    for pred, fn in reversed(pairs):
        result = _chained(pred, fn, result, name)
    return result()


def _unpacks_singletons():
    """Whether `strict=False` applies now: TF unpacks a branch's one-element result eagerly
    and in TF 1's control flow, not in TF 2's graphs (a `tf.function`)."""
    return context.executing_eagerly() or (tf1_control_flow is not None and tf1_control_flow())


def _unpacking_singleton(fn):
    def unpacked():
        result = fn()
        return result[0] if isinstance(result, (list, tuple)) and len(result) == 1 else result
    return unpacked


def _asserting(condition, fn, message, preds):
    """`fn`, asserting `condition` first (the predicates are the assertion's data)."""
    def checked():
        debugging_ops.Assert(condition, [message, array_ops.stack(preds)], summarize=len(preds))
        return fn()
    return checked


def _chained(pred, fn, otherwise, name):
    return lambda: cond(pred, fn, otherwise, name=name)


@export("switch_case")
def switch_case(branch_index, branch_fns, default=None, name="switch_case"):
    """``branch_fns[branch_index]()``; an index out of range runs `default` (or the last).

    >>> tf.switch_case(tf.constant(1), [lambda: 1.0, lambda: 2.0, lambda: 3.0])
    2.0
    """
    if not isinstance(branch_index, Tensor):
        raise TypeError(f"'branch_index' must be a Tensor, got {type(branch_index)}")
    if not branch_index.dtype.is_integer:
        raise TypeError(f"'branch_index' must be an integer Tensor, got {branch_index.dtype}")
    fns = _indexed_branches(branch_fns)
    if default is None:
        default = fns[-1]
    if context.executing_eagerly():
        index = _case_pick(len(fns) + 1, branch_index.numpy())
        return (fns[index] if index < len(fns) else default)()
    if default is not fns[-1]:
        fns = [*fns, default]
    with context.name_scope(name):  # (TF's op is switch_case/indexed_case)
        kind = _branching("Case", "indexed_case", len(fns))
        full = f"{context.get_current_name_scope()}/indexed_case".replace("/", "_")
        return _branched(branch_index, fns, kind._replace(
            graphs=[f"{full}_branch{i}" for i in range(len(fns))]))


def _case_pick(n, index):
    """The branch an index selects: out of range, the last (the default)."""
    if np.ndim(index) != 0:
        raise errors.InvalidArgumentError(
            None, None, "The second input must be a scalar, but it has shape "
            f"{errors.shape_text(np.shape(index))}")
    return int(index) if 0 <= index < n - 1 else n - 1


def _indexed_branches(branch_fns):
    """The branch callables in index order: from a list of them, or of (index, callable)
    pairs, or a dict by index; the indices must be 0, 1, 2, ..."""
    if not branch_fns:
        raise ValueError("Must provide at least one item in 'branch_fns'")
    if isinstance(branch_fns, dict):
        pairs = list(branch_fns.items())
    elif all(callable(fn) for fn in branch_fns):
        pairs = list(enumerate(branch_fns))
    else:
        pairs = list(branch_fns)
    for pair in pairs:
        if not isinstance(pair, tuple) or len(pair) != 2:
            raise TypeError(f"Each entry in 'branch_fns' must be a 2-tuple. Received {pair}.")
        key, fn = pair
        if not isinstance(key, int):
            raise TypeError(f"key must be a Python `int`, got {type(key)}")
        if not callable(fn):
            raise TypeError(f"br_fn must be callable, got {fn!r}")
    keys = sorted(key for key, _ in pairs)
    if keys != list(range(len(pairs))):
        raise ValueError(f"branch indices (keys) must form contiguous range of [0 to "
                         f"{len(pairs)}) but found {{{','.join(map(str, keys))}}}")
    return [fn for _, fn in sorted(pairs, key=lambda pair: pair[0])]


# -- while_loop ---------------------------------------------------------------------------------

@export("while_loop")
def while_loop(cond, body, loop_vars, shape_invariants=None, parallel_iterations=10,
               back_prop=True, swap_memory=False, maximum_iterations=None, name=None):
    """Repeats ``loop_vars = body(*loop_vars)`` while ``cond(*loop_vars)``; returns them.

    In a graph the loop is one ``While`` op; each variable must keep its dtype,
    and its shape unless `shape_invariants` allows it to change.  Loop
    variables may be `TensorArray`s.

    >>> tf.while_loop(lambda i, s: i < 4, lambda i, s: (i + 1, s + i), (0, 0))
    (<tf.Tensor: shape=(), dtype=int32, numpy=4>, <tf.Tensor: shape=(), dtype=int32, numpy=6>)
    """
    if not callable(cond):
        raise TypeError("'cond' must be callable.")
    if not callable(body):
        raise TypeError("'body' must be callable.")
    if parallel_iterations < 1:
        raise TypeError("'parallel_iterations' must be a positive integer.")
    if context.executing_eagerly():
        for v in nest.flatten(loop_vars):
            if isinstance(v, SymbolicTensor) and v.graph.lifts_eager_ops:
                # a Keras tensor: TF's loop, which has no dispatch support, fails on it
                raise SymbolicCall(f"A while_loop cannot take {v} as a loop variable.")
        return _eager_while(cond, body, loop_vars, maximum_iterations)
    structure = loop_vars
    flat = [_carried(v) for v in nest.flatten(loop_vars, expand_composites=True)]
    return _graph_while(cond, body, structure, flat, shape_invariants, maximum_iterations,
                        back_prop, name, parallel_iterations)


def _eager_while(cond, body, loop_vars, maximum_iterations):
    """The loop in plain Python, as TF runs it eagerly.

    `cond` and `body` see the values as they are (Python numbers stay
    numbers, dtypes may change); the result has the structure of the body's
    last result, its leaves made tensors.
    """
    if isinstance(loop_vars, (list, tuple, dict)) and not loop_vars:
        raise ValueError("'loop_vars' must be provided.")
    limit = None
    if maximum_iterations is not None:
        limit = convert_to_tensor(maximum_iterations)
        if limit.shape.rank != 0:
            raise ValueError(f"'maximum_iterations' must be a scalar. Received shape: "
                             f"{limit.shape}")
        limit = int(limit.numpy())
    values, n = loop_vars, 0
    check = (_eager_structure_check(loop_vars, limit is not None)
             if isinstance(loop_vars, (list, tuple))
             else functools.partial(_same_structure, loop_vars))
    while (limit is None or n < limit) and cond(*_arguments(loop_vars, values)):
        values = check(body(*_arguments(loop_vars, values)))
        n += 1
    return nest.map_structure(_carried, values, expand_composites=True)


def _eager_structure_check(loop_vars, counted):
    """Checks a body's result against a list or tuple of loop variables as TF does eagerly:
    the result's items (``list(result)``: a lone scalar tensor is a TypeError) must have the
    variables' nested structure, container types included. With `maximum_iterations`
    (`counted`) TF compares the result itself, so a tuple for a list is a TypeError too."""
    def spec(v):
        if v is None or isinstance(v, TensorArray):
            return v
        try:
            return TensorSpec.from_tensor(_carried(v))
        except (TypeError, ValueError):  # not a tensor value: compared as it is
            return v
    specs = nest.map_structure(spec, loop_vars)

    def check(result):
        if counted:
            nest.assert_same_structure(specs, result)
        else:
            nest.assert_same_structure(list(specs), list(result))
        return result
    return check


def _arguments(structure, values):
    """The loop variables as `cond` and `body` take them: one argument per top-level item."""
    return tuple(values) if isinstance(structure, (list, tuple)) else (values,)


def _carried(value):
    """A loop variable or result as control flow carries it: a tensor (a graph
    `TensorArray`'s flow), or an eager `TensorArray` as it is."""
    value = to_flow(value)
    return value if isinstance(value, TensorArray) else convert_to_tensor(value)


def _packed(structure, flat):
    """`_arguments` of the loop variables `flat` holds."""
    return _arguments(structure, nest.pack_sequence_as(structure, flat, expand_composites=True))


def _same_structure(structure, result):
    """`body`'s result, checked to have the loop variables' structure.

    A lone value stands for a one-item list or tuple of loop variables.
    """
    if isinstance(structure, (list, tuple)) and not isinstance(result, (list, tuple)):
        result = [result] if isinstance(structure, list) else (result,)
    try:  # (TF's error names the result first; an extension type's Python fields must agree)
        nest.assert_same_structure(result, structure, check_types=False,
                                   expand_composites=True)
    except TypeError as e:
        raise ValueError(str(e)) from None
    return result


def _next_values(structure, result, previous):
    """`body`'s result, flat and checked against the loop variables' structure and dtypes."""
    flat = [_carried(v) for v in nest.flatten(_same_structure(structure, result),
                                              expand_composites=True)]
    for old, new in zip(previous, flat):
        if new.dtype != old.dtype:
            raise TypeError(f"Loop var {old.name} enters the loop with type {old.dtype} but "
                            f"has type {new.dtype} after 1 iteration. {old.name} type should "
                            f"remain constant.")
    return flat


def fits(shape, invariant):
    """Whether every value of `shape` also has the shape `invariant` (None dims: any)."""
    if invariant.rank is None:
        return True
    if shape.rank != invariant.rank:
        return False
    return all(b is None or a == b for a, b in zip(shape.as_list(), invariant.as_list()))


def _graph_while(cond, body, structure, flat, shape_invariants, maximum_iterations, back_prop,
                 name, parallel_iterations):
    scope = name or "while"
    if shape_invariants is not None:  # one per loop variable, as TF checks first
        nest.assert_same_structure(structure, shape_invariants)
    # a TensorArray's flow is a scalar whatever its invariant says of the elements; a
    # variable without an invariant keeps its shape
    invariants = [t.shape if t.dtype is variant or s is None else TensorShape(s)
                  for t, s in zip(flat, _component_invariants(structure, shape_invariants))]
    specs = [(shape, t.dtype) for shape, t in zip(invariants, flat)]
    for t, shape in zip(flat, invariants):
        if not fits(t.shape, shape):
            raise ValueError(f"The shape invariant specified for {t.name} is not compatible "
                             f"with the initial shape of the loop variable. It enters the loop "
                             f"with shape {t.shape}, but the specified shape invariant is "
                             f"{shape}.")
    templates = nest.flatten(structure, expand_composites=True)  # TensorArrays' flows

    def traced_cond(*args):
        return convert_to_tensor(cond(*_packed(structure, with_flows(templates, args))))

    def traced_body(*args):
        result = body(*_packed(structure, with_flows(templates, args)))
        return _next_values(structure, result, flat)

    op_scope = _op_scope(scope)
    test = _Subgraph.trace(f"{scope}_cond", traced_cond, specs, scope=op_scope)
    # TF's While op rejects a condition that is not a scalar bool when the function runs,
    # as InvalidArgumentError.
    verdict = test.outputs[0]
    if verdict.dtype.name != "bool":
        raise errors.InvalidArgumentError(
            None, None, f"Input 'input' passed {kernel_type_name(verdict.dtype)} expected bool "
            f"while building NodeDef '{scope}/LoopCond' using Op<name=LoopCond; "
            f"signature=input:bool -> output:bool>")
    if verdict.shape.rank not in (None, 0):
        raise errors.InvalidArgumentError(
            None, None, "The second input must be a scalar, but it has shape ["
            + ",".join("?" if d is None else str(d) for d in verdict.shape.as_list()) + "]")
    step = _Subgraph.trace(f"{scope}_body", traced_body, specs, scope=op_scope)
    for t, out, shape in zip(flat, step.outputs, invariants):
        if not fits(out.shape, shape):
            # (TF 1's loop quotes the name, TF 2's puts it in backticks)
            quote = "'" if tf1_control_flow is not None and tf1_control_flow() else "`"
            raise ValueError(
                f"Input tensor {quote}{t.name}{quote} enters the loop with shape {shape}, "
                f"but has shape {out.shape} after one iteration. To allow the shape to vary across "
                f"iterations, use the `shape_invariants` argument of tf.while_loop to specify "
                f"a less-specific shape.")
    outer = _union_captures([test, step])
    limit = () if maximum_iterations is None else (_iteration_limit(maximum_iterations),)
    inputs = (*flat, *limit, *outer)
    test, step = test.body(outer), step.body(outer)
    graph = context.get().graph
    add_function(graph, test)
    add_function(graph, step)
    _watch_variables(outer)
    attrs = {"T": _input_types(inputs), "cond": test.name, "body": step.name,
             "output_shapes": tuple(shape for shape, _ in specs),
             "parallel_iterations": parallel_iterations, "_limited": bool(limit)}
    loop = _Loop(attrs)
    if back_prop and records(inputs):  # a tape records it: its gradient will be taken
        results = loop.accumulating(inputs, name=op_scope or scope)
    else:
        results = dispatch(loop.op, inputs, attrs, name=op_scope or scope)
    results = results[:len(flat)]
    if not getattr(graph, "building_function", True):  # (TF's, in a TF 1 graph only)
        results = _identities(results, op_scope, 2, "Exit")
    if not back_prop:  # as TF's graph loops (eagerly, TF ignores it too)
        results = [cast_ops.stop_gradient(r) for r in results]
    return nest.pack_sequence_as(_result_structure(structure, shape_invariants),
                                 with_flows(templates, results), expand_composites=True)


def _iteration_limit(maximum_iterations):
    """A graph loop's `maximum_iterations` as its op takes it: an int32 scalar (TF's errors
    for another dtype, and, as its op's when it runs, for more than one element); TF 1's
    loops count in the limit's own dtype."""
    if tf1_control_flow is not None and tf1_control_flow():
        return convert_to_tensor(maximum_iterations)
    try:
        limit = convert_to_tensor(maximum_iterations, dtype=int32)
    except ValueError as e:
        raise ValueError(f"maximum_iterations: {e}") from None
    if limit.shape.rank not in (None, 0):
        raise errors.InvalidArgumentError(
            None, None, f"The second input must be a scalar, but it has shape "
            f"{errors.shape_text(limit.shape.as_list())}")
    return limit


def _invariant_spec(value, shape):
    """The type spec a composite loop variable's invariant `shape` gives it, or None: the
    invariant itself if a spec, or the spec the value's type makes of a shape."""
    if getattr(shape, "_component_specs", None) is not None:
        return shape
    if shape is not None and hasattr(value, "_shape_invariant_to_type_spec"):
        return value._shape_invariant_to_type_spec(TensorShape(shape))
    return None


def _result_structure(structure, shape_invariants):
    """The loop variables' structure as the loop's results have it: a composite variable
    with an invariant becomes its spec (a `SparseTensor` whose dense shape may change
    comes back of unknown dimensions, as TF's)."""
    if shape_invariants is None:
        return structure
    leaves = [v if getattr(v, "_type_spec", None) is None else _invariant_spec(v, shape) or v
              for v, shape in zip(nest.flatten(structure), nest.flatten(shape_invariants))]
    return nest.pack_sequence_as(structure, leaves)


def _component_invariants(structure, shape_invariants):
    """The shape invariants, one per loop variable's leaf, made one per component: a
    composite loop variable (a `SparseTensor`, an `Optional`) is carried as its components,
    whose shapes its type spec gives (unknown numbers of values), as in TF. Its invariant
    may be a type spec (a `RaggedTensorSpec`), or a shape that its type turns into one (an
    `IndexedSlices`' or `RaggedTensor`'s dense shape); a tensor's may be its `TensorSpec`.
    Without invariants (None) a tensor's
    is None, and a composite's components take its type spec's shapes, so that a
    `RaggedTensor`'s or `SparseTensor`'s number of values may change, as in TF."""
    values = nest.flatten(structure)
    shapes = [None] * len(values) if shape_invariants is None else nest.flatten(shape_invariants)
    out = []
    for value, shape in zip(values, shapes):
        spec = getattr(value, "_type_spec", None)
        if getattr(spec, "_to_components", None) is None:
            if isinstance(shape, TensorSpec):  # (a tensor's type spec stands for its shape)
                tensor = _carried(value)
                if not shape.is_compatible_with(tensor):
                    raise TypeError(f"TypeSpec {shape!r} is not compatible with {tensor!r}")
                shape = shape.shape
            out.append(shape)
            continue
        spec = _invariant_spec(value, shape) or spec
        components = getattr(spec, "_component_specs", None)
        if components is None:
            components = spec._to_components(value)
        out.extend(c.shape for c in components)
    return out


class _Loop:
    """A while loop of a graph, as its op's attributes describe it: the bodies of its
    condition and body in the function library, and the ops that run it.

    The op's inputs are the loop variables, the iteration limit if there is
    one (``_limited``), then the outer tensors and variables the bodies
    captured; each body takes the loop variables then those outer tensors.
    A loop whose gradient is taken runs in its accumulating form (see
    `_Accumulation`), whose bodies are the original ones' copies; `test` and
    `step` are the original ones either way.
    """

    def __init__(self, attrs):
        self._attrs = attrs
        test, step = lookup(attrs["cond"]), lookup(attrs["body"])
        self.accumulation = step.derived.get("accumulation")  # of an accumulating body
        if self.accumulation is not None:
            test, step = self.accumulation.test, self.accumulation.step
        self.test, self.step = test, step
        self.n = len(step.outputs)
        self.specs = list(zip(attrs["output_shapes"], attrs["T"]))[:self.n]
        self.limited = attrs.get("_limited", False)
        self.name = _scope(self.step)
        self.op = _WHILE if self.test.stateful or self.step.stateful else _STATELESS_WHILE

    def accumulating_form(self, inputs):
        """``(op, inputs, attrs)`` of the accumulating form of this (plain) loop on its
        op's `inputs`: its outputs are the loop variables, the number of iterations, then
        the accumulated lists (see `_Accumulation`)."""
        found = _accumulation(self.test, self.step, self.n)
        n = self.n
        lists = [list_ops.reserve(shape, 0, dtype) for shape, dtype in found.elements]
        start = (*inputs[:n], convert_to_tensor(0, int32), *lists, *inputs[n:])
        graph = context.get().graph
        if graph is not None:
            add_function(graph, found.cond)
            add_function(graph, found.body)
        shapes = self._attrs["output_shapes"][:n]
        attrs = {**self._attrs, "T": _input_types(start), "cond": found.cond.name,
                 "body": found.body.name,
                 "output_shapes": (*shapes, *[TensorShape([])] * (1 + len(lists)))}
        op = _WHILE if found.cond.stateful or found.body.stateful else _STATELESS_WHILE
        return op, start, attrs

    def accumulating(self, inputs, name=None):
        """The outputs of the accumulating form of this (plain) loop on `inputs`."""
        op, start, attrs = self.accumulating_form(inputs)
        outputs = dispatch(op, start, attrs, name=name)
        if context.get().graph is None and outputs:  # run eagerly: a tape's record names
            hold(outputs[0], _accumulation(self.test, self.step, self.n))  # the bodies
        return outputs

    def _gradient(self, view, *dys):
        """A loop running the iterations backwards, from the last.

        Each step replays the body under a tape on the variables the
        iteration started with, the values its reads and draws gave taken from
        the accumulated lists rather than run again, turns the gradients of its
        results into those of its variables, and adds those of the outer
        tensors and variables it read to their sums.  When the accumulated
        values themselves have gradients (a higher-order derivative
        differentiates a gradient loop that read them), each iteration's share
        joins the gradients of its variables (of the reads: of the variables).
        A plain loop (one whose gradient was not foreseen: without state, or
        read from a GraphDef) runs again in its accumulating form, unless that
        would repeat an effect.
        """
        n, inputs = self.n, view.inputs
        found = self.accumulation
        if found is None:
            first = n + self.limited
            list_dys = ()
        else:
            k = len(found.elements)
            first = n + 1 + k + self.limited
            list_dys = dys[n + 1:n + 1 + k]
        captured = inputs[first:]
        # A variable carried as a loop variable (TF's loops carry what they capture so) is
        # read by every iteration: its gradient sums over them, as a captured one's does.
        handles = [i for i in range(n) if isinstance(inputs[i], Variable) and view.needs(i)]
        variables = [i for i in range(n) if is_differentiable(inputs[i])
                     and self.specs[i][1] != resource]
        dys = [array_ops.zeros_like(o) if d is None and i in variables else d
               for i, (o, d) in enumerate(zip(view.outputs[:n], dys[:n]))]
        sources = [j for j, c in enumerate(captured)
                   if is_differentiable(c) and view.needs(first + j)]
        grads = [None] * len(inputs)
        if not variables:
            return grads
        if found is None:
            for body, what in ((self.test, "loop condition"), (self.step, "loop body")):
                check_replayable(body, view.op_def.name, what)
            outputs = self.accumulating(inputs)
            found = _accumulation(self.test, self.step, n)
        else:
            outputs = view.outputs
        count, lists = outputs[n], outputs[n + 1:n + 1 + len(found.elements)]
        n_kept = len(found.kept)
        kept = dict(zip(found.kept, lists))
        kept_grads = dict(zip(found.kept, list_dys[:n_kept]))
        saved_grads = [(j, g) for j, g in enumerate(list_dys[n_kept:]) if g is not None]

        def step_back(k, var_grads, source_grads):
            k -= 1
            values = [list_ops.get_item(kept[i], k, shape, dtype)
                      if i in kept and dtype != resource else inputs[i]
                      for i, (shape, dtype) in enumerate(self.specs)]
            saved = [list_ops.get_item(lst, k, shape, dtype)
                     for lst, (shape, dtype) in zip(lists[n_kept:], found.elements[n_kept:])]
            wanted = ([values[i] for i in variables] + [captured[j] for j in sources]
                      + [inputs[i] for i in handles])
            with GradientTape() as tape:
                tape.watch(wanted)
                outs = self.step.replay([*values, *captured], _substitute(
                    _grouped(found.saved_ops, found.sizes, saved)))
            targets = [outs[i] for i in variables] + [saved[j] for j, _ in saved_grads]
            weights = [*var_grads, *(_item_like(g, k, saved[j]) for j, g in saved_grads)]
            grads = _gradients(tape, targets, weights, wanted)
            for g, source in zip(grads, wanted):  # (a value read through a handle fed at
                if isinstance(g, SymbolicTensor) and g.shape.is_compatible_with(source.shape):
                    g.set_shape(source.shape)  # run time was saved without its shape)
            for pos, i in enumerate(variables):
                if kept_grads.get(i) is not None:
                    share = _item_like(kept_grads[i], k, values[i])
                    grads[pos] = add_sparse_or_dense(grads[pos], share)
            sums = [add_sparse_or_dense(a, g)
                    for a, g in zip(source_grads, grads[len(variables):])]
            return k, grads[:len(variables)], sums

        summed = [captured[j] for j in sources] + [inputs[i] for i in handles]
        start = (count, [dys[i] for i in variables], [array_ops.zeros_like(t) for t in summed])
        invariants = (TensorShape([]), [self.specs[i][0] for i in variables],
                      [t.shape for t in summed])
        _, var_grads, source_grads = while_loop(lambda k, *_: k > 0, step_back, start,
                                                invariants, name=f"{self.name}_grad")
        for i, g in zip(variables, var_grads):
            grads[i] = g
        for j, g in zip([first + j for j in sources] + handles, source_grads):
            grads[j] = g
        return grads


def _item_like(lst, k, like):
    """Element `k` of gradient list `lst`, zeros shaped as `like` (the value it is the
    gradient of) where no gradient was written: run time knows that shape where the static
    one is partial."""
    if like.shape.is_fully_defined():
        return list_ops.get_item(lst, k, like.shape, like.dtype)
    item = list_ops.get_item(lst, k, array_ops.shape(like), like.dtype)
    item.set_shape(like.shape)
    return item


def _saved_ops(body):
    """The stateful ops of `body` that have outputs (a variable's reads, random draws,
    loops and branches with state), in the order they run: a gradient replaying the body
    takes their values from the forward pass instead of running them again."""
    found = body.derived.get("saved ops")
    if found is None:
        found = body.derived["saved ops"] = [
            op for op in executor.needed_operations(body.graph, body.outputs)
            if op.stateful and op.op_def is not None and op.outputs]
    return found


def _accumulating_form(op, args):
    """``(op, inputs, attrs)`` of stateful `op` run on `args`: a loop or branch with state
    in its accumulating form (unless it is that already), any other op as it is."""
    form = None
    if op.op_def in (_WHILE, _STATELESS_WHILE):
        if "accumulation" not in lookup(op.attrs["body"]).derived:
            form = _Loop(op.attrs).accumulating_form(args)
    elif op.op_def in (_IF, _STATELESS_IF, _CASE, _STATELESS_CASE):
        form = _branch_accumulating_form(op.op_def, op.attrs, args)
    return form or (op.op_def, args, op.attrs)


def _accumulating_run(op, args):
    """Runs stateful `op` on `args` (in `_accumulating_form`); returns every value it
    gives, its outputs first."""
    op_def, inputs, attrs = _accumulating_form(op, args)
    if attrs is op.attrs:  # (no loop or branch to turn: run as a replay runs it)
        return executor.run_op(op, args)
    result = dispatch(op_def, inputs, attrs)
    return list(result) if op_def.multi else [result]


def _grouped(ops, sizes, values):
    """id(op) -> its values, `values` holding `sizes[i]` of them for each of `ops`."""
    grouped, at = {}, 0
    for op, size in zip(ops, sizes):
        grouped[id(op)] = values[at:at + size]
        at += size
    return grouped


def _substitute(saved):
    """The `stateful` runner of a gradient's replay of a body: each stateful op gives the
    values the forward pass saved (`saved`: id(op) -> them), and tapes record it (in the
    accumulating form that gave them) as if it had run; an op without outputs (a variable's
    update, an assertion) is skipped, its effect had."""
    def run(op, args):
        values = saved.get(id(op))
        if values is None:
            return []
        op_def, inputs, attrs = _accumulating_form(op, args)  # (the form that gave them)
        result = values if op_def.multi else values[0]
        for recorder in context.get().recorders:
            recorder.record(op_def, inputs, attrs, result)
        return values[:len(op.outputs)]
    return run


class _Copy:
    """`body`'s ops copied into a graph of their own, its loops and branches with state in
    their accumulating forms (unless not `accumulating`): `args` stand for its inputs,
    `results` for its outputs, `saved` are the values its `ops` (`_saved_ops`) gave,
    `sizes[i]` of them for ``ops[i]``. `body` makes it a library function."""

    def __init__(self, body, accumulating=True):
        self.original = body
        self.graph = graph = Graph(body.graph.name)
        graph.variable_arguments = body.graph.variable_arguments
        given = {}

        def run(op, args):
            values = given[id(op)] = _accumulating_run(op, args)
            return values

        with context.building(graph):
            self.args = [graph.placeholder(t.dtype, t.shape, "arg") for t in body.inputs]
            self.results = executor.replay(body.graph, body.inputs, body.outputs, self.args,
                                           run if accumulating else None)
        self.ops = _saved_ops(body) if accumulating else []
        self.sizes = [len(given[id(op)]) for op in self.ops]
        self.saved = [v for op in self.ops for v in given[id(op)]]

    def body(self, inputs, outputs):
        """The copy as a library function from `inputs` (its `args`, perhaps with more
        placeholders) to `outputs`."""
        position = {id(t): i for i, t in enumerate(self.original.inputs)}
        self.graph.handle_arguments = {
            key: self.args[position[id(t)]]
            for key, t in getattr(self.original.graph, "handle_arguments", {}).items()
            if id(t) in position}
        return FunctionBody(self.original.graph.name, self.graph, inputs, outputs)


class _Accumulation:
    """The accumulating form of a loop, TF's: as loop variables after the loop's own, the
    number of iterations and one list per value the gradient needs from each iteration
    (each variable the body is replayed on, as the iteration starts, and each value of
    the body's stateful ops, `_saved_ops`), the body pushing onto them.  `cond` and
    `body` are the copies of the condition `test` and the body `step` that the op names;
    `elements` are ``(shape, dtype)`` of each list's values."""

    def __init__(self, test, step, n):
        self.test, self.step, self.n = test, step, n
        self.kept = _kept(step, n)
        copy = _Copy(step)
        self.saved_ops, self.sizes = copy.ops, copy.sizes
        values = [copy.args[i] for i in self.kept] + copy.saved
        self.elements = [(v.shape, v.dtype) for v in values]
        with context.building(copy.graph):
            count = copy.graph.placeholder(int32, [], "count")
            lists = [copy.graph.placeholder(variant, [], "accumulator") for _ in values]
            pushed = [list_ops.set_item(lst, count, v, resize=True)
                      for lst, v in zip(lists, values)]
            results = [*copy.results, count + 1, *pushed]
        self.body = copy.body([*copy.args[:n], count, *lists, *copy.args[n:]], results)
        self.body.derived["accumulation"] = self
        copy = _Copy(test, accumulating=False)
        with context.building(copy.graph):
            added = [copy.graph.placeholder(int32, [], "count")] + [
                copy.graph.placeholder(variant, [], "accumulator") for _ in values]
        self.cond = copy.body([*copy.args[:n], *added, *copy.args[n:]], copy.results)


def accumulating_copy(graph, inputs, outputs, captured=()):
    """A copy of `graph` whose loops and branches with state run in their accumulating
    forms, for a tape outside its function to differentiate (TF rewrites the forward
    function so): ``(copy, its inputs, its outputs, its stand-ins for captured)``, given
    `captured` ``(outer, inner)`` pairs of what `graph` captured; None when `graph` has no
    such loop or branch."""
    ops = executor.needed_operations(graph, outputs)
    if not any(op.stateful and op.op_def in _CONSTRUCTS for op in ops):
        return None
    copy = Graph(graph.name)
    copy.variable_arguments = graph.variable_arguments
    with context.building(copy):
        args = [copy.placeholder(t.dtype, t.shape, t.op.name) for t in inputs]
        stand_ins = [copy.capture(outer) for outer, _ in captured]
        results = executor.replay(graph, [*inputs, *(inner for _, inner in captured)],
                                  outputs, [*args, *stand_ins], _accumulating_run)
    copy.outputs = results
    return copy, args, results, stand_ins


def _accumulation(test, step, n):
    """The `_Accumulation` of the loop of condition `test` and body `step` (made once)."""
    key = ("accumulation of", test.name)
    found = step.derived.get(key)
    if found is None:
        found = step.derived[key] = _Accumulation(test, step, n)
    return found


def _kept(step, n):
    """The loop variables (of `n`) whose values the gradient replays the body `step` on,
    iteration by iteration.

    A list the body only writes (as map_fn's results) is not one: its writes'
    gradients do not depend on what it held, so its value entering the loop
    stands in for all.
    """
    kept = step.derived.get("kept")
    if kept is None:
        writes = {}  # id(argument) -> whether the body only writes it (a list it fills)
        for op in step.graph.get_operations():
            for t in op.inputs:
                writes[id(t)] = writes.get(id(t), True) and op.op_def is list_ops._SET_ITEM and (
                    not op.attrs["resize_if_index_out_of_bounds"])
        kept = step.derived["kept"] = [i for i, a in enumerate(step.inputs[:n])
                                       if a.dtype is not variant or not writes.get(id(a), False)]
    return kept


# -- the loop ops: While, StatelessWhile ----------------------------------------------------------

def _while_rule(*inputs, T, output_shapes, **_):
    return list(zip(output_shapes, T))


def _while_kernel(xp, *arrays, cond, body, output_shapes, _limited=False, **_):
    """Runs the loop by the compiled programs of its condition and body."""
    test, step = lookup(cond), lookup(body)
    n = len(output_shapes)
    values, captured = arrays[:n], arrays[n + _limited:]
    limit = int(arrays[n]) if _limited else None
    count = 0
    while (limit is None or count < limit) and _go_on(test.run(*values, *captured)[0]):
        values = step.run(*values, *captured)
        count += 1
    return tuple(values)


def _go_on(verdict):
    """Whether a loop's condition, of a shape unknown as its graph was built, says to go on:
    it must hold one element, as TF's loop checks when it runs."""
    return _one_truth(verdict) == 0


def _emit_loop(program, op, args, indent):
    """Writes a loop into a compiled program as a Python ``while`` around its condition and
    body."""
    attrs = op.attrs
    test, step = lookup(attrs["cond"], op.graph), lookup(attrs["body"], op.graph)
    n, limited = len(attrs["output_shapes"]), attrs.get("_limited", False)
    values, captured = args[:n], args[n + limited:]
    names = [program.fresh("v") for _ in values]
    program.line(indent, _assignment(names, values))
    if limited:
        count, limit = program.fresh("n"), program.fresh("limit")
        program.line(indent, f"{count}, {limit} = 0, int({args[n]})")
    program.line(indent, "while True:")
    if limited:
        program.line(indent + 1, f"if {count} >= {limit}: break")
    with _scoped(program, op):
        go, = test.emit(program, [*names, *captured], indent + 1)
        if test.outputs[0].shape.rank != 0:  # (checked when it runs)
            go = f"{program.bind(_go_on, 'go_on')}({go})"
        program.line(indent + 1, f"if not {go}: break")
        results = step.emit(program, [*names, *captured], indent + 1)
    program.line(indent + 1, _assignment(names, results))
    if limited:
        program.line(indent + 1, f"{count} += 1")
    return names


def _while_gradient(view, *dys):
    return _Loop(view.attrs)._gradient(view, *dys)


_WHILE = register("While", _while_kernel, _while_rule, multi=True, tied=(), stateful=True,
                  grad_takes_none=True)  # (the accumulated lists mostly get none)
_STATELESS_WHILE = register("StatelessWhile", _while_kernel, _while_rule, multi=True, tied=(),
                            grad_takes_none=True)
for _op in (_WHILE, _STATELESS_WHILE):
    executor.emission_rules[_op] = _emit_loop
    register_gradient(_op.name)(_while_gradient)
batching_rules[_STATELESS_WHILE] = PER_ELEMENT


_CONSTRUCTS = frozenset((_WHILE, _STATELESS_WHILE, _IF, _STATELESS_IF, _CASE, _STATELESS_CASE))


def _replayed(op, args):
    """How `executor.replay` runs a loop or branch (a function called inside another, a
    body replayed for a gradient): as `while_loop` and `cond` build one, in its
    accumulating form when a tape records it."""
    _watch_variables(args)
    if records(args):
        return _accumulating_run(op, args)
    return dispatch(op.op_def, args, op.attrs)


executor.replay_rules.assign(_replayed, *_CONSTRUCTS)


def _accumulate_in_place(graph, xs):
    """Turns the loops and branches with state of `graph` (being built) that depend on `xs`
    into their accumulating forms in place, as TF rewrites a While whose gradient
    ``tf.gradients`` takes: the op keeps its name and outputs and gains the lists (their
    initial values made just before it), so its gradient reads the iterations' values
    instead of running it again."""
    live = {id(x) for x in xs}
    for op in graph.get_operations():
        if not any(id(t) in live for t in op.inputs):
            continue
        live.update(id(t) for t in op.outputs)
        if not (op.stateful and op.op_def in _CONSTRUCTS):
            continue
        start = len(graph._operations)
        with context.building(graph):
            op_def, inputs, attrs = _accumulating_form(op, op.inputs)
        if attrs is op.attrs:  # (a branch without state, or the form already)
            continue
        made = graph._operations[start:]
        del graph._operations[start:]
        at = graph._operations.index(op)
        graph._operations[at:at] = made
        specs = op_def.shape(*inputs, **attrs)
        op.op_def, op.type, op.inputs, op.attrs = op_def, op_def.name, tuple(inputs), attrs
        op.outputs = (*op.outputs, *(graph.tensor_type(op, i, shape, dtype)
                                     for i, (shape, dtype) in enumerate(specs)
                                     if i >= len(op.outputs)))
        live.update(id(t) for t in op.outputs)


graph_gradients.prepare = _accumulate_in_place


class _PassingThrough:
    """A loop body returning, after its results, the values it captured, unchanged: TF's
    While carries captured values as loop variables."""

    def __init__(self, step, n):
        self.name, self.graph, self.inputs = step.name, step.graph, step.inputs
        self.outputs = [*step.outputs, *step.inputs[n:]]


def _tf_while(attrs, inputs):
    n = len(attrs["output_shapes"])
    graph = getattr(inputs[0], "graph", None)
    if attrs.get("_limited"):
        return _tf_limited_while(attrs, inputs, graph)
    captured = inputs[n:]
    if not captured:
        return attrs
    step = lookup(attrs["body"], graph)
    # (kept with the body: a library names what it writes by the written object's id)
    passing = step.derived.get(("tf_passing", n))
    if passing is None:
        passing = step.derived[("tf_passing", n)] = _PassingThrough(step, n)
    return {**attrs, "output_shapes": (*attrs["output_shapes"], *(t.shape for t in captured)),
            "body": passing}


def _tf_limited_while(attrs, inputs, graph):
    """TF's form of a loop with an iteration limit: as TF's, a counter from 0 is a loop
    variable, the limit another, and the condition is ``counter < limit`` and the loop's
    own. (TF puts them first; here the counter comes last, so that the loop variables keep
    their output indices, which the nodes reading them name.)"""
    n = len(attrs["output_shapes"])
    test, step = lookup(attrs["cond"], graph), lookup(attrs["body"], graph)
    limit = inputs[n]
    key = ("tf_limited", test.name)
    bodies = step.derived.get(key)
    if bodies is None:
        bodies = step.derived[key] = _limited_bodies(test, step, n, limit.dtype)
    shapes = (*attrs["output_shapes"], TensorShape([]), *(t.shape for t in inputs[n + 1:]),
              TensorShape([]))
    rewritten = {k: v for k, v in attrs.items() if k != "_limited"}
    rewritten.update(T=(*attrs["T"], limit.dtype), output_shapes=shapes, cond=bodies[0],
                     body=bodies[1])
    return rewritten, [("loop_counter", np.zeros((), limit.dtype.as_numpy_dtype))]


def _limited_bodies(test, step, n, dtype):
    """The condition and body of TF's form of a limited loop (see `_tf_limited_while`),
    each taking ``(*variables, limit, *captured, counter)``."""
    def trace(name, fn):
        graph = Graph(name)
        with context.building(graph):
            args = [graph.placeholder(t.dtype, t.shape, "arg") for t in test.inputs[:n]]
            limit = graph.placeholder(dtype, [], "maximum_iterations")
            captured = [graph.placeholder(t.dtype, t.shape, "arg") for t in test.inputs[n:]]
            counter = graph.placeholder(dtype, [], "loop_counter")
            outputs = fn(args, limit, captured, counter)
        return FunctionBody(name, graph, [*args, limit, *captured, counter], outputs)

    def cond(args, limit, captured, counter):
        go = test.replay([*args, *captured])[0]
        return [math_ops.logical_and(math_ops.less(counter, limit), go)]

    def body(args, limit, captured, counter):
        outs = step.replay([*args, *captured])
        return [*outs, limit, *captured, counter + 1]

    return trace(f"{test.graph.name}_limited", cond), trace(f"{step.graph.name}_limited", body)


tf_nodes[_WHILE] = tf_nodes[_STATELESS_WHILE] = NodeForm(
    types={}, outputs=("output",), rewrite=_tf_while, functions=("cond", "body"))
tf_args[_STATELESS_WHILE] = ("*input",)
tf_args[_WHILE] = ("*input",)
# (a raw op's loop variables keep the shapes they enter with)
tf_defaults[_WHILE] = tf_defaults[_STATELESS_WHILE] = {
    "T": input_dtypes(), "output_shapes": lambda inputs, attrs: tuple(t.shape for t in inputs),
    "parallel_iterations": 10}


# -- subgraphs ----------------------------------------------------------------------------------

class _SubgraphGraph(Graph):
    """The graph of a branch or loop: an eager tensor a tape watches is captured as a
    placeholder fed by the enclosing op (not as a constant), so that the op takes it as an
    input and gradients reach it.

    Another eager tensor that can have a gradient is captured as a constant, which its
    ops use (the passes may fold it), and is an input of the enclosing op all the same
    (so a tape outside the enclosing function, which tracing does not see, reaches it
    through the function's own capture, as in TF): a placeholder the body's program does
    not read stands for it, and `fed_constants` pairs the two for the gradients, which
    replay the body with the op's input in place of the constant.
    """

    control_flow_body = True  # (its `outer_graph`: the graph the construct is built in)

    def __init__(self, name):
        super().__init__(name)
        # the tapes around the construct (tracing hides them)
        self._recorders = context.get().recorders
        self.fed_constants = []  # (constant, placeholder) of the eager tensors above
        self._fed = []           # (eager tensor, placeholder)

    def capture(self, value):
        if type(value) is EagerTensor and id(value) not in self._captures:
            if any(id(value) in getattr(r, "watched", ()) for r in self._recorders):
                inner = self.placeholder(value.dtype, value.shape, "Placeholder")
                self.inputs.pop()  # not an argument
                self._captures[id(value)] = (value, inner)
                return inner
            if is_differentiable(value):
                inner = super().capture(value)
                fed = self.placeholder(value.dtype, value.shape, "Placeholder")
                self.inputs.pop()
                self.fed_constants.append((inner, fed))
                self._fed.append((value, fed))
                return inner
        return super().capture(value)


class _Subgraph:
    """A branch, loop condition or loop body traced into a graph of its own.

    Its arguments are placeholders; the outer tensors it uses are captured
    (placeholders too, fed by the enclosing op).  `body` makes it a function
    of the library.
    """

    def __init__(self, graph, arguments, outputs, structure):
        self.graph, self.arguments, self.outputs = graph, arguments, outputs
        self.structure = structure
        self.leaves = nest.flatten(structure, expand_composites=True)  # (set_result's)
        self.stateful = any(op.stateful for op in graph.get_operations())

    @classmethod
    def trace(cls, name, fn, specs=(), scope=None, op_value=None):
        """`fn` applied to placeholders of `specs` in a graph `name`, in name scope `scope`
        (an absolute one, ``cond/``; its arguments are named outside it). An operation `fn`
        returns (``tf.no_op()``, ``tf.group(...)``) stands for the tensor `op_value` (a
        branch's: the predicate or branch index, as in TF), or None."""
        graph = _SubgraphGraph(name)
        with context.building(graph):
            arguments = [graph.placeholder(dtype, shape, "arg") for shape, dtype in specs]
            with context.name_scope_push(scope) if scope else contextlib.nullcontext():
                result = fn(*arguments)

                def operation_value(v):
                    if not isinstance(v, context.Operation):
                        return v
                    if op_value is None:
                        return None
                    with graph.control_dependencies([v]):
                        return cast_ops.identity(op_value)
                if any(isinstance(v, context.Operation) for v in nest.flatten(result)):
                    result = nest.map_structure(operation_value, result)
            subgraph = cls(graph, arguments, [], None)
            subgraph.set_result(result)
        graph._recorders = ()  # (its tapes are not kept alive by the library)
        return subgraph

    def set_result(self, result):
        """Makes `result`, built in this subgraph's graph, what it returns."""
        graph = self.graph
        with context.building(graph):
            # (flattened here, once: a composite's components may be ops it makes now, as an
            # `Optional` of a value does)
            leaves = nest.flatten(result, expand_composites=True)
            flat = [_carried(t) for t in leaves
                    if t is not None]  # None stays; a composite gives its components
            # an argument or capture returned as it is still gets an op of its own
            flat = [graph.capture(t) for t in flat]
        for t in flat:
            if isinstance(t, SymbolicTensor) and t.graph is not graph:
                raise ValueError(f"{graph.name} returned {t}, a tensor of another graph.")
        self.structure, self.leaves, self.outputs = result, leaves, flat
        self.stateful = any(op.stateful for op in graph.get_operations())

    def captured(self):
        """The outer tensors and variables this subgraph captured, and their inner stand-ins.

        Variables are read by reference when it runs; they are inputs of the
        enclosing op all the same, so that gradients reach them.
        """
        return [(o, i) for o, i in self.graph.captures
                if isinstance(o, (SymbolicTensor, Variable)) or i.op.type == "Placeholder"
                ] + self.graph._fed

    def _placeholders(self):
        """id(outer tensor) -> the placeholder standing for it (variables have none)."""
        return {id(o): i for o, i in self.captured() if not isinstance(o, Variable)}

    def body(self, outer):
        """This subgraph as a library function taking its arguments, then every tensor and
        variable of `outer` (the enclosing op's inputs after them): those it did not capture
        are placeholders it never reads, and a variable, which its ops read by reference,
        a resource placeholder."""
        inner = self._placeholders()
        graph = self.graph
        fed = [inner[id(o)] if id(o) in inner else graph.placeholder(
                   resource if isinstance(o, Variable) else o.dtype, None, "unused")
               for o in outer]
        # the argument a variable's ops take its handle from in TF's form of the body, by the
        # handle's id (an assignment's result shares it)
        graph.handle_arguments = {id(o._handle): t for o, t in zip(outer, fed)
                                  if isinstance(o, Variable)}
        return FunctionBody(graph.name, graph, [*self.arguments, *fed], self.outputs)


def _union_captures(subgraphs):
    """The outer tensors any of `subgraphs` captured, each once, in order of capture."""
    seen, outer = set(), []
    for sub in subgraphs:
        for o, _ in sub.captured():
            if id(o) not in seen:
                seen.add(id(o))
                outer.append(o)
    return outer
