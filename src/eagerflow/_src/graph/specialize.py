"""Programs specialized to the input shapes a graph runs on.

A function traced with unknown dimensions (a ``TensorSpec([None, 784])``
signature, or Keras's ``fit``, which traces its step with an unknown batch
size as TF does) gives a graph whose shape arithmetic (``Shape``, ``Size``,
the casts and slices around them) runs on every call, and whose
intermediates cannot share buffers, their sizes being unknown when the
program is compiled.  `ShapeSpecialized` runs such a graph with one program
per input shape seen repeatedly: the graph copied with its placeholders'
shapes made concrete (`specialize`), so that shape inference, constant
folding and buffer reuse see the real sizes.  What the traced Python code
saw is unchanged: it ran once, on the unknown shapes.

>>> cf = tf.function(lambda x: tf.reduce_sum(x * 2.0)).get_concrete_function(
...     tf.TensorSpec([None, 2]))
>>> run = ShapeSpecialized(cf.graph, cf.inputs, cf.outputs, "step")
>>> x_batch_of_128 = np.ones((128, 2), np.float32)
>>> run(x_batch_of_128)   # the generic program; the next call with 128 rows compiles one
(np.float32(512.0),)
>>> run(x_batch_of_128)   # the program specialized to 128 rows
(np.float32(512.0),)
"""
from eagerflow._src.core import context
from eagerflow._src.core.variables import Variable
from eagerflow._src.graph import executor
from eagerflow._src.graph.graph import Graph
from eagerflow._src.graph.passes.constant_folding import fold_constants
from eagerflow._src.graph.passes.program import Program
from eagerflow._src.ops.conv_ops import BY_SPACE_TO_BATCH

_MAX_SHAPES = 8  # specialized programs per graph; further shapes run the generic one


class ShapeSpecialized:
    """``run(*arrays)`` for a graph with unknown input dimensions: the program compiled
    for the arrays' shapes once they have been seen twice, else the generic one."""

    def __init__(self, graph, inputs, outputs, name):
        self._graph, self._inputs, self._outputs, self._name = graph, inputs, outputs, name
        self._generic = executor.compile_graph(graph, inputs, outputs, name)
        self._programs = {}  # shapes -> their program (the generic one past _MAX_SHAPES)
        self._seen = set()   # shapes seen once

    def __call__(self, *arrays):
        # (a variable's handle, which a backward may take as a saved value, is a scalar)
        shapes = tuple([getattr(a, "shape", ()) for a in arrays])
        run = self._programs.get(shapes)
        if run is None:
            run = self._sighted(shapes)
        return run(*arrays)

    def _sighted(self, shapes):
        """The generic program on a first sighting of `shapes`; on the second, the one
        specialized to them (the generic one when that fails or too many exist)."""
        if shapes not in self._seen:
            if len(self._seen) < 4 * _MAX_SHAPES:  # one-off shapes stay one-off
                self._seen.add(shapes)
            return self._generic
        run = self._generic
        if len(self._programs) < _MAX_SHAPES:
            try:
                run = executor.compile_graph(
                    *specialize(self._graph, self._inputs, self._outputs, shapes), self._name)
            except Exception:  # noqa: BLE001 (the generic program reports any real error)
                pass
        self._programs[shapes] = run
        return run


def specialize(graph, inputs, outputs, shapes):
    """A copy of what `outputs` need of `graph`, its `inputs` of the given `shapes`.

    Returns ``(graph, inputs, outputs)`` of the copy.  Its operations keep their
    names, attrs and the user's locations (errors read as the original's);
    shapes are inferred anew by the ops' rules.
    """
    copy = Graph(graph.name)
    copy.functions.update(graph.functions)
    copy.keeps_divisions = getattr(graph, "keeps_divisions", False)
    # (by name, as the copies keep them: graph fusion reads them)
    copy.control_inputs = {name: list(names) for name, names in graph.control_inputs.items()}
    reciprocals = _reciprocals(graph, inputs, outputs)
    env = {}
    with context.building(copy):
        for t, shape in zip(inputs, shapes):
            if not t.shape.is_compatible_with(shape):
                raise ValueError(f"{t.name} of shape {t.shape} cannot take {shape}")
            env[id(t)] = copy.placeholder(t.dtype, shape, t.op.name)
            env[id(t)].op.location = t.op.location
        for op in executor.needed_operations(graph, outputs):
            if op.outputs and id(op.outputs[0]) in env:  # an input, made above
                continue
            if op.type == "Const":
                copy.constant(op.value, op.name)
            elif op.op_def is None:  # a placeholder no input feeds
                copy.placeholder(op.attrs["dtype"], op.attrs["shape"], op.name)
            elif op.name in reciprocals:
                product, value = reciprocals[op.name]
                copy.create_op(product, [env[id(op.inputs[0])],
                                         copy.constant(value, f"{op.name}/reciprocal")],
                               op.attrs, op.name)
            else:
                copy.create_op(op.op_def, [t if isinstance(t, Variable) else env[id(t)]
                                           for t in op.inputs], op.attrs, op.name)
            made = copy._operations[-1]
            made.location = op.location
            if op in BY_SPACE_TO_BATCH:
                BY_SPACE_TO_BATCH.add(made)
            for old, new in zip(op.outputs, made.outputs):
                env[id(old)] = new
    return copy, [env[id(t)] for t in inputs], [
        t if isinstance(t, Variable) else env[id(t)] for t in outputs]


def _reciprocals(graph, inputs, outputs):
    """Name -> (product op_def, reciprocal) of the divisions the generic program runs as
    products (`fold_constants`): the specialized one runs them so too, though its numerators
    may fold to constants, as TF's function with unknown shapes does."""
    if getattr(graph, "keeps_divisions", False):
        return {}
    program = fold_constants(Program(executor.needed_operations(graph, outputs), inputs,
                                     outputs))
    return {op.name: (op.op_def, op.inputs[1].op.value) for op in program.operations
            if len(op.inputs) == 2 and getattr(op.inputs[1], "op", None) is not None
            and op.inputs[1].op.name == f"{op.name}/reciprocal"
            and op.inputs[1].op.type == "Const"}
