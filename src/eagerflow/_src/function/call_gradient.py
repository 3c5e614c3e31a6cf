"""Gradients through a call of a traced function: the call is one recorded op.

While a tape records, a call of a `ConcreteFunction` on eager tensors runs a
forward program that also returns the intermediate values its gradient
needs, and the tapes record one registered op (``StatefulPartitionedCall``,
or ``PartitionedCall`` for a function without state, as TensorFlow names
it) whose attribute ``f`` names the function's body in the function library.
Its gradient runs a backward graph traced once per concrete function, and
per set of inputs whose gradients are wanted (pruning, say, the gradient of
a data batch nobody asked for).

The backward graph is called as a `ConcreteFunction` too, so a tape that
records the gradient computation sees one op again, with a gradient of its
own.  When a gradient may itself be differentiated (two tapes watch the
call, or a persistent one), the saved intermediates are outputs of the
recorded op: gradients reaching them flow on to the inputs.

A call made while another function is traced is one such op of that graph
(`CallGradient.call_traced`), as in TF: it names the body, or, when a tape
records it, a ``__forward_`` body that also returns the saved values, and
its gradient is a call of the backward function.  The executor inlines the
bodies it calls when it compiles the graph (``passes.inline_calls``).

>>> @tf.function
... def cube(x):
...     return x * x * x
>>> x = tf.constant(2.0)
>>> with tf.GradientTape() as tape:
...     tape.watch(x)
...     y = cube(x)                 # one op on the tape
>>> tape.gradient(y, x)
<tf.Tensor: shape=(), dtype=float32, numpy=12.0>
"""
import weakref

from eagerflow._src.autodiff.backprop import hold
from eagerflow._src.autodiff.tape import GradientTape, is_differentiable
from eagerflow._src.core import context, errors
from eagerflow._src.core.convert import convert_to_tensor
from eagerflow._src.core.node_forms import NodeForm, tf_nodes
from eagerflow._src.core.node_forms import tf_args
from eagerflow._src.core.registry import (
    PER_ELEMENT, batching_rules, register, register_gradient)
from eagerflow._src.core.tensor import EagerTensor
from eagerflow._src.core.tensor_spec import TensorSpec
from eagerflow._src.core.variables import Variable
from eagerflow._src.graph import executor, tape_compiler
from eagerflow._src.core.dtypes import resource
from eagerflow._src.core.tensor_shape import TensorShape
from eagerflow._src.graph.control_flow import accumulating_copy
from eagerflow._src.graph.function_library import (
    FunctionBody, add_function, check_replayable, lookup)
from eagerflow._src.graph.graph import Graph, Operation, SymbolicTensor, VariableArgument
from eagerflow._src.graph.passes.inline_calls import inline_rules
from eagerflow._src.ops.indexed_slices import IndexedSlices

_new = object.__new__
# library name of a function -> a weak reference to its CallGradient (dropped with it)
_CALLS = {}

# Tracing a backward graph fails where the eager gradient would fail (an op
# without a gradient, an argument that must be static).  Such a function's
# calls are replayed op by op instead, so the failure comes, as in eager
# execution, only if that gradient is taken.
_NO_BACKWARD = (LookupError, NotImplementedError, errors.OpError,
                errors.OperatorNotAllowedInGraphError)


class CallGradient:
    """Runs calls of one concrete function under tapes, each recorded as a single op.

    The recorded forward ops and each backward graph are made on first need
    and cached; `call` is what `ConcreteFunction.call_flat` does while a tape
    records.
    """

    def __init__(self, concrete):
        self._concrete = concrete
        graph = concrete.graph
        # As in TF, what the function captured are inputs of the op after the call's tensors
        # and variable arguments: variables and tensors of an enclosing graph, eager tensors
        # that can have gradients (inputs of a call op too, so that a tape outside the
        # function calling it reaches them), then other eager tensors; all can have
        # gradients. The body holds eager tensors by value.
        fed = {id(t) for t in concrete._inputs}
        passed = [(outer, inner) for outer, inner in graph.captures
                  if isinstance(outer, Variable) or isinstance(outer, SymbolicTensor)
                  and id(inner) not in fed]
        passed += [(outer, inner) for outer, inner in graph.captures
                   if isinstance(outer, EagerTensor) and is_differentiable(outer)]
        self._n_node = len(concrete._inputs) + len(concrete._variable_inputs) + len(passed)
        captures = passed + [(outer, inner) for outer, inner in graph.captures
                             if isinstance(outer, EagerTensor) and not is_differentiable(outer)]
        self._captured = tuple(outer for outer, _ in captures)
        # The op's inputs: the call's tensors, its variable arguments, then the captures.
        self._n_tensors = len(concrete._inputs)
        self._n_variables = len(concrete._variable_inputs)
        self._sources = [*concrete._inputs, *concrete._variable_inputs,
                         *(inner for _, inner in captures)]
        self._captures, self._passed = captures, passed
        # The graph the tapes differentiate, its inputs and outputs: the function's own, or
        # a copy whose loops and branches with state keep what their gradients need (see
        # `_record_forward`).
        self._graph, self._inputs, self._outputs = (concrete.graph, concrete._inputs,
                                                    concrete.outputs)
        self._trainable = concrete.trainable_variables
        self._n_outputs = len(concrete.outputs)
        # The function's body in the library, which the recorded op names.
        self.body = _body(concrete._inference_name, concrete, passed, named=True)
        _CALLS[self.body.name] = weakref.ref(self, lambda _, name=self.body.name: _CALLS.pop(
            name, None))
        self._op = _STATEFUL_CALL if self.body.stateful else _CALL
        self._tin = tuple(t.dtype for t in (*concrete._inputs, *concrete._variable_inputs,
                                            *self._captured))
        self._tape = None     # the graph's ops, recorded once
        self._modes = {}      # higher order possible? -> _Mode, or None: replay instead

    def call(self, tensors, recorders, variables=()):
        """The flat outputs of a call on eager `tensors` (and the variables its variable
        arguments are bound to), recorded on `recorders` as one op."""
        tensors = [t if isinstance(t, EagerTensor) else convert_to_tensor(t) for t in tensors]
        trainable = (*(v for v in variables if v.trainable), *self._trainable)
        for recorder in recorders:  # as in TF, a call reads every variable it is given
            if recorder.watch_accessed_variables:
                for v in trainable:
                    recorder.watch(v)
        inputs = (*tensors, *variables, *self._captured)
        watching = [r for r in recorders if any(id(t) in r.watched for t in inputs)]
        if not watching:
            return self._concrete._execute(tensors)
        higher = len(watching) > 1 or watching[0].persistent
        mode = self._mode(higher)
        if mode is None:
            concrete = self._concrete
            return executor.replay(concrete.graph, [*concrete._inputs, *concrete._variable_inputs],
                                   concrete.outputs, [*tensors, *variables])
        if mode.forward is None:
            mode.forward = executor.compile_graph(self._graph, self._inputs,
                                                  [*self._outputs, *mode.saved],
                                                  self._concrete._name)
        flat = []
        for array in mode.forward(*[t._data for t in tensors]):
            t = _new(EagerTensor)
            t._data = array
            flat.append(t)
        outputs, saved = flat[:self._n_outputs], tuple(flat[self._n_outputs:])
        recorded = tuple(flat) if higher else tuple(outputs)
        attrs = {"f": self.body.name, "Tin": self._tin, "Tout": mode.tout[higher],
                 "_higher": higher, "_saved": saved}
        for recorder in recorders:
            recorder.record(self._op, inputs, attrs, recorded)
        if recorded:  # the tapes find this by the name `f` as long as they hold the record
            hold(recorded[0], self)
        return outputs

    def call_traced(self, tensors, variables=(), substitute=None):
        """The flat outputs of a call made while another graph is built: one call op naming
        the body (one that also returns the values the gradient keeps, when a tape records
        the call), as TF makes it. `substitute`: id of a variable the function captured ->
        the variable the op takes in its place."""
        ctx = context.get()
        graph = ctx.graph
        captured = self._captured
        if substitute:
            captured = tuple(substitute.get(id(c), c) for c in captured)
        inputs = (*tensors, *variables, *captured)
        recorders = ctx.recorders
        mode = higher = None
        if recorders:
            trainable = [v for v in (*variables, *captured)
                         if isinstance(v, Variable) and v.trainable]
            for recorder in recorders:
                if recorder.watch_accessed_variables:
                    for v in trainable:
                        recorder.watch(v)
            watching = [r for r in recorders if any(id(t) in r.watched for t in inputs)]
            if watching:
                higher = len(watching) > 1 or watching[0].persistent
                mode = self._mode(higher)
                if mode is None:  # no backward: its ops join the graph, as eagerly
                    concrete = self._concrete
                    stand_ins = [c for c in self._captured if id(c) in (substitute or {})]
                    return executor.replay(
                        concrete.graph, [*concrete._inputs, *concrete._variable_inputs,
                                         *stand_ins],
                        concrete.outputs, [*tensors, *variables,
                                           *(substitute[id(c)] for c in stand_ins)])
        body = self.body if mode is None else self._forward_body(mode)
        add_function(graph, body)
        node_inputs = inputs[:self._n_node]
        attrs = {"f": body.name,
                 "Tin": tuple(resource if isinstance(t, Variable) else t.dtype
                              for t in node_inputs),
                 "Tout": tuple(t.dtype for t in body.outputs)}
        flat = graph.create_op(self._op, node_inputs, attrs)
        hold(graph, self)  # the gradient finds it by the name of its body
        outputs = list(flat[:self._n_outputs])
        if mode is not None:
            recorded = tuple(flat) if higher else tuple(outputs)
            attrs = {"f": self.body.name, "Tin": self._tin, "Tout": mode.tout[higher],
                     "_higher": higher, "_saved": tuple(flat[self._n_outputs:])}
            for recorder in recorders:
                recorder.record(self._op, inputs, attrs, recorded)
        return outputs

    def _forward_body(self, mode):
        """The body returning the outputs, then the values `mode`'s gradient keeps."""
        if mode.body is None:
            name, body = f"__forward_{self._concrete._name}", self.body
            if self._graph is body.graph:
                mode.body = _CallBody(name, body.graph, body.inputs,
                                      [*body.outputs, *mode.saved], body.rebind)
            else:  # the copy the tape differentiates, its loops keeping their iterations'
                mode.body = _body(name, self._concrete, self._passed, self._graph,
                                  self._inputs, [*self._outputs, *mode.saved])
        return mode.body

    def run(self, arrays):
        """The op's kernel: the output arrays of the function on the op's input arrays (the
        handles of its variables among them)."""
        return self.body.run(*arrays[:self._n_node])

    # -- the op's gradient -----------------------------------------------------------
    def _gradient(self, view, *dys):
        if "_higher" not in view.attrs:  # a call op recorded as it stands in a graph
            return _body_gradient(self.body, view, dys)
        mode = self._modes[view.attrs["_higher"]]
        wanted = tuple(i for i in mode.sources if view.needs(i))
        backward = mode.backwards.get(wanted)
        if backward is None:
            backward = mode.backwards[wanted] = self._backward_for(mode, wanted)
        saved = view.attrs["_saved"]
        # A backward that reads a variable argument reads the one this call was given.
        start = self._n_tensors
        variables = view.inputs[start:start + self._n_variables]
        flat = [saved[i] for i in backward.saved] + [dys[i] for i in mode.dy_index]
        if context.get().graph is not None:  # a call op of the backward, in the graph built
            function = backward.function
            if function._call_gradient is None:
                function._call_gradient = CallGradient(function)
            results = function._call_gradient.call_traced(flat, (), {
                id(s): v for s, v in zip(self._concrete._variable_inputs, variables)})
            results = function._pack(results)
        else:
            bound = self._concrete._bind([v._handle for v in variables])
            try:
                results = backward.function.call_flat(flat)
            finally:
                self._concrete._bind(bound)
        grads = [None] * len(view.inputs)
        for i, g in zip(backward.sources, results):
            grads[i] = IndexedSlices(*g) if type(g) is tuple else g
        return grads

    def _backward_for(self, mode, wanted):
        """The backward computing only the `wanted` sources' gradients (or, failing, all)."""
        function, needs = self._trace_backward(wanted, mode.exposed)
        index = [mode.saved_position.get(id(t)) for t in needs]
        if None in index:  # it needs a value the forward does not keep
            return mode.backwards[mode.sources]
        return _Backward(function, index, wanted)

    # -- tracing -----------------------------------------------------------------------
    def _mode(self, higher):
        if higher not in self._modes:
            try:
                self._modes[higher] = self._build_mode(higher)
            except _NO_BACKWARD:
                self._modes[higher] = None
        return self._modes[higher]

    def _build_mode(self, higher):
        """Forward program and full backward, for first-order or higher-order use.

        For higher order, the saved tensors become targets of the backward too;
        their own backward may need more saved tensors, so this repeats until
        the saved set stops growing.
        """
        if self._tape is None:
            self._tape = self._record_forward()
        concrete = self._concrete
        outputs = self._outputs
        everything = tuple(i for i, s in enumerate(self._sources) if is_differentiable(s))
        saved, exposed = [], ()
        while True:
            function, needs = self._trace_backward(everything, exposed)
            kept = {id(t) for t in saved}
            saved += [t for t in needs if id(t) not in kept]
            if not higher or len(saved) == len(exposed):
                break
            exposed = tuple(saved)
        dy_index = [i for i, t in enumerate((*outputs, *exposed)) if is_differentiable(t)]
        mode = _Mode(saved, everything, exposed, {id(t): i for i, t in enumerate(saved)},
                     dy_index)
        mode.tout = {False: tuple(t.dtype for t in outputs),
                     True: tuple(t.dtype for t in (*outputs, *saved))}
        index = [mode.saved_position[id(t)] for t in needs]
        mode.backwards[everything] = _Backward(function, index, everything)
        return mode

    def _record_forward(self):
        """A tape holding the ops of the function's graph, watching its inputs and captures.

        The ops are recorded as `dispatch` records them while tracing, so the
        gradients are the ones eager execution would compute.  A function whose loops
        or branches have state (a variable's update or read, a random draw) is copied
        first with those in their accumulating forms, as TF's forward function is: their
        gradients read the values of their runs from the lists those return, rather than
        running them again.
        """
        concrete = self._concrete
        copied = accumulating_copy(concrete.graph, concrete._inputs, concrete.outputs,
                                   self._captures)
        if copied is not None:
            self._graph, self._inputs, self._outputs, stand_ins = copied
            self._passed = [(outer, inner) for (outer, _), inner
                            in zip(self._passed, stand_ins)]
            n = len(self._sources) - len(stand_ins)
            self._sources = [*self._inputs, *self._sources[len(self._inputs):n], *stand_ins]
        # never entered: this tape alone records them (the caller's tapes must not see them)
        tape = GradientTape(persistent=True, watch_accessed_variables=False)
        tape.watch([s for s in self._sources if is_differentiable(s)])
        tape._record_operations(executor.needed_operations(self._graph, self._outputs))
        return tape

    def _trace_backward(self, wanted, exposed):
        """The backward function for the gradients of sources `wanted`, and what it needs.

        Its inputs are the forward tensors it needs (saved values), then the
        gradients of the differentiable outputs and `exposed` tensors.
        """
        targets = [t for t in (*self._outputs, *exposed) if is_differentiable(t)]
        graph = Graph(f"__backward_{self._concrete._name}")
        with context.building(graph):
            dys = [graph.placeholder(t.dtype, t.shape, "grad") for t in targets]
            grads = self._tape.gradient(targets, [self._sources[i] for i in wanted],
                                        output_gradients=dys)
        saved = [(outer, inner) for outer, inner in graph.captures
                 if isinstance(outer, SymbolicTensor)]
        inputs = [inner for _, inner in saved] + dys
        structure = [(g.values, g.indices, g.dense_shape) if isinstance(g, IndexedSlices)
                     else g for g in grads]
        signature = (tuple(TensorSpec(t.shape, t.dtype, t.op.name) for t in inputs), {})
        function = type(self._concrete)(graph.name, graph, inputs, structure, signature)
        return function, [outer for outer, _ in saved]


class _Mode:
    """How calls are recorded: first-order, or with the saved tensors as outputs too.

    `forward` (compiled on first need) returns the outputs then the `saved` tensors
    (`saved_position`: id -> place), as does `body`, the library function of a call op
    built into a graph; `sources` are the op inputs that can have gradients;
    `dy_index` picks, from the recorded outputs' gradients, those the
    backward functions take.
    """

    __slots__ = ("forward", "saved", "body", "sources", "exposed", "saved_position", "dy_index",
                 "backwards", "tout")

    def __init__(self, saved, sources, exposed, saved_position, dy_index):
        self.forward, self.body, self.saved = None, None, saved
        self.sources, self.exposed = sources, exposed
        self.saved_position, self.dy_index = saved_position, dy_index
        self.backwards = {}   # wanted sources -> _Backward


class _Backward:
    """A backward function, the saved tensors it takes and the sources it differentiates."""

    __slots__ = ("function", "saved", "sources")

    def __init__(self, function, saved, sources):
        self.function, self.saved, self.sources = function, saved, sources


class _CallBody(FunctionBody):
    """A traced function's body in the library. Its inputs are the function's, then a
    resource placeholder for each variable argument, then a placeholder for each capture
    a call op passes (a variable's a resource one); `rebind` pairs the stand-ins of
    variables (arguments, or captured from the function a backward differentiates) with
    the inputs giving their handles when it runs."""

    __slots__ = ("rebind",)

    def __init__(self, base, graph, inputs, outputs, rebind, named=False):
        super().__init__(base, graph, inputs, outputs, named)
        self.rebind = rebind

    def run(self, *arrays):
        if self._run is None:
            self._run = executor.compile_graph(self.graph, self.inputs, self.outputs,
                                               self.graph.name)
        saved = []
        for stand_in, i in self.rebind:
            forwarding = stand_in._handle
            if arrays[i] is not forwarding:
                saved.append((forwarding, forwarding.target))
                forwarding.target = arrays[i]
        try:
            return self._run(*arrays)
        finally:
            for forwarding, target in reversed(saved):
                forwarding.target = target


def _body(base, concrete, captures, graph=None, inputs=None, outputs=None, named=False):
    """The `_CallBody` of `concrete`, taking the node `captures` ((outer, inner) pairs); or
    of `graph`, a copy of its graph with `inputs` and `outputs` in place of its own."""
    if graph is None:
        graph, inputs, outputs = concrete.graph, concrete._inputs, concrete.outputs
    handles = dict(getattr(graph, "handle_arguments", None) or {})
    inputs, rebind = list(inputs), []
    for v in (*concrete._variable_inputs, *(o for o, _ in captures)):
        if isinstance(v, Variable):
            handles[id(v._handle)] = _resource_placeholder(graph, v)
            if isinstance(v, VariableArgument):
                rebind.append((v, len(inputs)))
            inputs.append(handles[id(v._handle)])
        else:  # a tensor of an enclosing graph: the placeholder it captured
            inner = next(inner for outer, inner in captures if outer is v)
            if inner.op.type != "Placeholder":  # the constant holding an eager tensor
                inner = _fed_placeholder(graph, inner)
            inputs.append(inner)
    graph.handle_arguments = handles  # the arguments its variables' ops take, written to TF
    return _CallBody(base, graph, inputs, outputs, rebind, named)


def _fed_placeholder(graph, constant):
    """The input of a body standing for the eager tensor its `constant` holds: its ops read
    the constant (which the passes fold); a replay for a gradient reads the input instead
    (see `executor.replay`)."""
    pairs = getattr(graph, "fed_constants", None)
    if pairs is None:
        pairs = graph.fed_constants = []
    for held, placeholder in pairs:
        if held is constant:
            return placeholder
    placeholder = graph.placeholder(constant.dtype, constant.shape, "Placeholder")
    graph.inputs.pop()  # not an argument of the function
    pairs.append((constant, placeholder))
    return placeholder


def _resource_placeholder(graph, variable):
    """A placeholder of dtype resource standing for `variable`'s handle in a body's signature
    (its ops use the variable itself; the graph does not list it). Its name is unique in
    the graph: the body written as a FunctionDef tells its variables apart by these names
    (two variables both named ``Variable`` would read one argument)."""
    name = graph._unique(variable.name.split(":")[0].replace("/", "_") + "_resource")
    op = Operation(graph, None, "Placeholder", name, (), {"dtype": resource,
                                                          "shape": TensorShape([])}, None)
    op.outputs = (SymbolicTensor(op, 0, TensorShape([]), resource),)
    return op.outputs[0]


# -- the call ops --------------------------------------------------------------------------

def _call_kernel(xp, *arrays, f, **_):
    call = _CALLS.get(f)
    if call is None:  # a call read from a GraphDef, or built into a graph: a library function
        return lookup(f).run(*arrays)
    return call().run(arrays)


def _inline(op):
    """The body a call op runs, for the executor to copy in its place."""
    try:
        return lookup(op.attrs["f"], op.graph)
    except LookupError:
        return None


def _call_rule(*inputs, f, _higher=False, _saved=(), **_):
    """The function's outputs, then (recorded for higher order) the values its gradient
    keeps."""
    call = _CALLS.get(f)
    body = lookup(f) if call is None else call().body
    return [*body.output_specs, *([(s.shape, s.dtype) for s in _saved] if _higher else [])]


def _call_gradient(view, *dys):
    call = _CALLS.get(view.attrs["f"])
    if call is None:  # a call read from a GraphDef: differentiate its body, replayed
        return _body_gradient(lookup(view.attrs["f"]), view, dys)
    return call()._gradient(view, *dys)


def _body_gradient(body, view, dys):
    """The gradients of a call of library function `body` (one with no traced function
    behind it): the body replayed under a tape, differentiated with the incoming `dys`."""
    inputs = list(view.inputs)
    wanted = [i for i, t in enumerate(inputs) if view.needs(i) and is_differentiable(t)]
    if wanted:
        check_replayable(body, view.op_def.name, "function")
    with GradientTape(persistent=False) as tape:
        tape.watch([inputs[i] for i in wanted])
        outs = body.replay(inputs)
    pairs = [(o, d) for o, d in zip(outs, dys) if d is not None and is_differentiable(o)]
    grads = [None] * len(inputs)
    if not pairs or not wanted:
        return grads
    found = tape.gradient([o for o, _ in pairs], [inputs[i] for i in wanted],
                          output_gradients=[d for _, d in pairs])
    for i, g in zip(wanted, found):
        grads[i] = g
    return grads


_CALL = register("PartitionedCall", _call_kernel, _call_rule, multi=True, tied=())
tf_args[_CALL] = ("*args",)
_STATEFUL_CALL = register("StatefulPartitionedCall", _call_kernel, _call_rule, multi=True,
                          tied=(), stateful=True)
tf_args[_STATEFUL_CALL] = ("*args",)
for _op in (_CALL, _STATEFUL_CALL):
    register_gradient(_op.name)(_call_gradient)
    tf_nodes[_op] = NodeForm(types={}, outputs=("output",), functions=("f",))
    tape_compiler.played_eagerly.add(_op)  # its backward is a traced function already
    inline_rules[_op] = _inline
batching_rules[_CALL] = PER_ELEMENT
