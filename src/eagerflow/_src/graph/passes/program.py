"""What the passes rewrite: a straight-line program of a graph's operations.

A `Program` lists operations in the order they run, the tensors fed in and
those returned. Passes never modify the traced graph (users inspect it and
gradients replay it): a pass returns a new `Program`, sharing every
operation it leaves alone and building copies (`derive`) of those it changes.
A `Rewriter` does the bookkeeping: it re-emits operations in order and
redirects every use of a replaced tensor to its replacement; `rewrite` runs
the usual loop, asking a pass what stands in for each operation.

>>> cf = tf.function(lambda x: tf.identity(x) * 2.0).get_concrete_function(tf.TensorSpec([2]))
>>> program = Program.from_graph(cf.graph, cf.inputs, cf.outputs)
>>> [op.type for op in program.operations]
['Placeholder', 'Identity', 'Const', 'Mul', 'Identity']
>>> without_identities = rewrite(
...     program, lambda op: ((), op.inputs) if op.type == "Identity" else None)
>>> [op.type for op in without_identities.operations]
['Placeholder', 'Const', 'Mul']
"""
from eagerflow._src.graph.graph import Operation, SymbolicTensor


class Program:
    """Operations in run order, fed `inputs`, returning `outputs`.

    `reuse` maps an operation to the tensor whose (dead) array it writes its
    result into; the executor passes that array as ``out=``.
    """

    __slots__ = ("operations", "inputs", "outputs", "reuse")

    def __init__(self, operations, inputs, outputs, reuse=None):
        self.operations = list(operations)
        self.inputs = list(inputs)
        self.outputs = list(outputs)
        self.reuse = dict(reuse or {})

    @classmethod
    def from_graph(cls, graph, inputs, outputs):
        """Every operation of `graph`, in creation order (nothing pruned yet)."""
        return cls(graph.get_operations(), inputs, outputs)

    def users(self):
        """id(tensor) -> the operations reading it, once each; an output counts as a user (None)."""
        found = {}
        for op in self.operations:
            for t in op.inputs:
                readers = found.setdefault(id(t), [])
                if not readers or readers[-1] is not op:
                    readers.append(op)
        for t in self.outputs:
            found.setdefault(id(t), []).append(None)
        return found


def const_value(t):
    """The array a ``Const`` node gives `t`, or None when `t` is computed."""
    if isinstance(t, SymbolicTensor) and t.op.type == "Const":
        return t.op.value
    return None


def derive(like, op_def=None, inputs=None, attrs=None, *, type_name=None, value=None,
           specs=None, name=None):
    """A new operation standing in for `like`, with its name and user location.

    Unset arguments are taken from `like`; `specs` are the outputs'
    ``(shape, dtype)`` pairs, by default those of `like`'s outputs.
    """
    op_def = like.op_def if op_def is None and type_name is None else op_def
    op = Operation(like.graph, op_def, type_name or op_def.name, name or like.name,
                   like.inputs if inputs is None else tuple(inputs),
                   like.attrs if attrs is None else attrs, like.location, value)
    if specs is None:
        specs = [(t.shape, t.dtype) for t in like.outputs]
    op.outputs = tuple(SymbolicTensor(op, i, shape, dtype)
                       for i, (shape, dtype) in enumerate(specs))
    return op


class Rewriter:
    """Builds the program a pass returns from `program`. See the module docstring."""

    def __init__(self, program):
        self._source = program
        self._operations = []
        self._replaced = {}  # id(old tensor) -> (old tensor, its replacement)

    def read(self, t):
        """The tensor that now stands for `t`."""
        found = self._replaced.get(id(t))
        while found is not None:
            t = found[1]
            found = self._replaced.get(id(t))
        return t

    def current(self, op):
        """`op` reading the current tensors: itself, or a copy if an input was replaced."""
        inputs = tuple(self.read(t) for t in op.inputs)
        if all(a is b for a, b in zip(inputs, op.inputs)):
            return op
        new = derive(op, inputs=inputs)
        for old, t in zip(op.outputs, new.outputs):
            self.replace(old, t)
        return new

    def emit(self, op):
        """Appends `op` to the program being built."""
        self._operations.append(op)

    def replace(self, old, new):
        """Makes every later use of tensor `old` (and the program's outputs) read `new`."""
        self._replaced[id(old)] = (old, new)

    def program(self):
        source = self._source
        return Program(self._operations, source.inputs, [self.read(t) for t in source.outputs])


def substitute(program, builders, absorbed):
    """`program` with some operations built anew and others dropped (a fusion's rewrite).

    ``builders[id(op)](read)`` returns the operation that runs where `op` ran, reading
    the current tensors through `read`, and the old tensors its outputs stand for, in
    order; the operations whose ids are in `absorbed` (and have no builder) are dropped.
    """
    out = Rewriter(program)
    for op in program.operations:
        build = builders.get(id(op))
        if build is not None:
            new, replaced = build(out.read)
            out.emit(new)
            for old, t in zip(replaced, new.outputs):
                out.replace(old, t)
        elif id(op) not in absorbed:
            out.emit(out.current(op))
    return out.program()


def rewrite(program, replacement):
    """`program` with each operation (reading the current tensors) kept or replaced.

    ``replacement(op)`` returns None to keep `op`, or ``(operations, tensors)``:
    the operations that run in its place and the tensors standing for its outputs.
    """
    out = Rewriter(program)
    for op in program.operations:
        op = out.current(op)
        found = replacement(op)
        if found is None:
            out.emit(op)
            continue
        operations, tensors = found
        for new in operations:
            out.emit(new)
        for old, new in zip(op.outputs, tensors):
            out.replace(old, new)
    return out.program()
