"""The function library: traced bodies that graph ops name by attribute.

Control flow and calls are ops like any other (``If``, ``While``,
``PartitionedCall``); their attributes name functions (``then_branch``,
``body``, ``f``), never hold Python objects.  A `FunctionBody` is one such
function: a traced graph with an explicit signature (the placeholders fed, in
the order of the calling op's inputs, and the tensors returned), named
uniquely, as TensorFlow names a library's functions (``cond_true_12``).

Each graph holds the functions its ops name in ``graph.functions`` (name ->
body), those of the functions it holds included, so the outermost graph's
library is complete, as TF's is.  Kernels, which see attributes but no graph,
find a body by its name with `lookup`: a body can be found while some
graph's library holds it.

>>> body = FunctionBody("double", graph, [x], [y])  # doctest: +SKIP
>>> add_function(outer_graph, body)                 # doctest: +SKIP
>>> lookup(body.name) is outer_graph.functions[body.name]  # doctest: +SKIP
True
"""
import itertools
import weakref

from eagerflow._src.core import errors
from eagerflow._src.core.node_forms import tf_nodes
from eagerflow._src.graph import executor

_ids = itertools.count(1)
_BODIES = weakref.WeakValueDictionary()  # name -> FunctionBody, while a library holds it


class FunctionBody:
    """A library function: `graph` run from `inputs` (placeholders) to `outputs`.

    `name` is made unique from the given base (or is `base`, already unique, when `named`);
    `stateful` says whether any of
    its ops has side effects (the calling op is then ``If`` rather than
    ``StatelessIf``).  It compiles on its first `run`.
    """

    __slots__ = ("name", "graph", "inputs", "outputs", "stateful", "derived", "_run",
                 "__weakref__")

    def __init__(self, base, graph, inputs, outputs, named=False):
        self.name = base if named else f"{base}_{next(_ids)}"
        self.graph, self.inputs, self.outputs = graph, list(inputs), list(outputs)
        self.stateful = any(op.stateful for op in graph.get_operations())
        self.derived = {}  # what interpreters work out from the body once (a loop's kept values)
        self._run = None
        _BODIES[self.name] = self

    def __repr__(self):
        return f"<FunctionBody {self.name}>"

    @property
    def input_specs(self):
        """``(shape, dtype)`` of each input, in order."""
        return [(t.shape, t.dtype) for t in self.inputs]

    @property
    def output_specs(self):
        return [(t.shape, t.dtype) for t in self.outputs]

    def run(self, *arrays):
        """The output arrays for input `arrays` (one per input), by the compiled program."""
        if self._run is None:
            self._run = executor.compile_graph(self.graph, self.inputs, self.outputs,
                                               self.graph.name)
        return self._run(*arrays)

    def emit(self, program, input_names, indent):
        """Writes the body into `program` (an `executor.Emitter`) in place, its inputs held in
        `input_names`; returns the names holding its outputs."""
        return program.emit(self.graph, self.inputs, self.outputs, input_names, indent)

    def replay(self, values, stateful=None):
        """The outputs for input `values`, each op run through `dispatch` (recorded by tapes,
        or built into the graph being built); `stateful` runs the stateful ops instead
        (see `executor.replay`)."""
        return executor.replay(self.graph, self.inputs, self.outputs, values, stateful)


def add_function(graph, body):
    """Adds `body` to `graph`'s library, with every function its own graph's library holds."""
    graph.functions.update(body.graph.functions)
    graph.functions[body.name] = body


def lookup(name, graph=None):
    """The body named `name`: in `graph`'s library when given, else any library's."""
    found = None if graph is None else graph.functions.get(name)
    if found is None:
        found = _BODIES.get(name)
    if found is None:
        raise LookupError(f"Function {name!r} is not in the function library.")
    return found


def repeated_effect(body):
    """The first op of `body`, or of a body one of its ops names, that running the body again
    would run again with an effect beyond its outputs (a variable's update, a random draw);
    None when running it again only recomputes values (see the registry's `replayable`)."""
    found = body.derived.get("repeated_effect", False)
    if found is False:
        found = None
        for op in body.graph.get_operations():
            if op.op_def is None or op.op_def.replayable:
                continue
            form = tf_nodes.get(op.op_def)
            names = [] if form is None else [
                name for attr in form.functions
                for name in _names(op.attrs.get(attr))]
            if not names:
                found = op
                break
            found = next(filter(None, (repeated_effect(lookup(n, body.graph)) for n in names)),
                         None)
            if found is not None:
                break
        body.derived["repeated_effect"] = found
    return found


def check_replayable(body, op_name, what):
    """Raises TF's UnimplementedError when a gradient of `op_name` that runs `body` again
    (`what`: the body's part, as in "loop body") would repeat one of its effects: the
    gradient would come from other values than the forward pass's."""
    effect = repeated_effect(body)
    if effect is not None:
        raise errors.UnimplementedError(
            None, op_name,
            f"The gradient of {op_name} runs its {what} {body.name} again, which would repeat "
            f"the effect of its node {effect.name!r} (op {effect.type}: a variable's update or "
            f"a random draw) and differentiate other values than the forward pass's. Move the "
            f"update or the draw out of the {what}, or differentiate it eagerly.")


def _names(value):
    if isinstance(value, str):
        return [value]
    return list(value) if isinstance(value, (list, tuple)) else []
