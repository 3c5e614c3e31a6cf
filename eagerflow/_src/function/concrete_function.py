"""`ConcreteFunction`: one traced graph of a `function`, compiled once and callable.

Calls on eager tensors run the compiled program (arrays in, arrays out).
With a tape recording, a call is one op on the tape, differentiated by a
backward graph traced once (see `call_gradient`).  While another function
is being traced, the graph is replayed op by op through `dispatch`, so the
enclosing graph receives its ops.
"""
import numpy as np

from eagerflow._src import backend
from eagerflow._src.core import context, nest
from eagerflow._src.core.tensor import EagerTensor
from eagerflow._src.core.variables import Variable
from eagerflow._src.function.call_gradient import CallGradient
from eagerflow._src.function.trace_key import call_key
from eagerflow._src.graph import executor
from eagerflow._src.graph.graph import SymbolicTensor

_new = object.__new__


class ConcreteFunction:
    """A traced function for one input signature (``tf.types.experimental.ConcreteFunction``).

    >>> cf = function(lambda x: x * 2.0).get_concrete_function(TensorSpec([3]))
    >>> cf(constant([1.0, 2.0, 3.0]))
    <tf.Tensor: shape=(3,), dtype=float32, numpy=array([2., 4., 6.], dtype=float32)>
    """

    def __init__(self, name, graph, inputs, structured_outputs, input_signature):
        self._name = name
        self.graph = graph
        self.inputs = list(inputs)
        self.structured_outputs = structured_outputs
        self.structured_input_signature = input_signature
        leaves = self._leaves = nest.flatten(structured_outputs)
        self.outputs = [leaf for leaf in leaves if _is_symbolic(leaf)]
        self._single = len(leaves) == 1 and not nest.is_nested(structured_outputs)
        graph.outputs = self.outputs
        self._run = executor.compile_graph(graph, self.inputs, self.outputs, name)
        self._call_gradient = None  # made when a tape first records a call

    name = property(lambda self: self._name)

    @property
    def captured_inputs(self):
        """What the graph closed over: eager tensors (by value) and variables (by reference)."""
        return [external for external, _ in self.graph.captures]

    @property
    def variables(self):
        return tuple(v for v in self.captured_inputs if isinstance(v, Variable))

    @property
    def trainable_variables(self):
        return tuple(v for v in self.variables if v.trainable)

    def __call__(self, *args, **kwargs):
        return self.call_flat(call_key(args, kwargs)[1])

    def call_flat(self, tensors):
        """Runs the graph on `tensors` (one per input placeholder) and packs the outputs."""
        if len(tensors) != len(self.inputs):
            raise TypeError(f"{self._name} takes {len(self.inputs)} tensor arguments, "
                            f"got {len(tensors)}.")
        ctx = context._lookup(None) or context.get()
        if ctx.fast:
            flat = self._execute(tensors)
        elif ctx.graph is None and ctx.xp is backend.numpy_module:  # a tape records
            if self._call_gradient is None:
                self._call_gradient = CallGradient(self)
            flat = self._call_gradient.call(tensors, ctx.recorders)
        else:
            flat = executor.replay(self.graph, self.inputs, self.outputs, tensors)
        if self._single and self.outputs:
            return flat[0]
        return self._pack(flat)

    def _execute(self, tensors):
        """The flat outputs of the compiled program run on eager `tensors` (or arrays)."""
        flat = []
        for a in self._run(*[t._data if type(t) is EagerTensor else np.asarray(t)
                             for t in tensors]):
            t = _new(EagerTensor)
            t._data = a
            flat.append(t)
        return flat

    def _pack(self, flat):
        values = iter(flat)
        leaves = [next(values) if _is_symbolic(leaf) else leaf for leaf in self._leaves]
        return nest.pack_sequence_as(self.structured_outputs, leaves)

    def pretty_printed_signature(self, verbose=True):
        args, kwargs = self.structured_input_signature
        lines = ["Input Parameters:"]
        for i, spec in enumerate(args):
            lines.append(f"  {getattr(spec, 'name', None) or f'arg{i}'}: {spec!r}")
        for k, spec in kwargs.items():
            lines.append(f"  {k}: {spec!r}")
        lines.append("Output Type:")
        lines.append(f"  {self.structured_outputs!r}")
        captures = self.captured_inputs
        lines.append("Captures:")
        lines.append("  None" if not captures else "\n".join(f"  {c!r}" for c in captures))
        return "\n".join(lines)

    def __repr__(self):
        return f"<ConcreteFunction {self._name} at 0x{id(self):X}>"

    def __str__(self):
        return f"ConcreteFunction {self.pretty_printed_signature()}"


def _is_symbolic(value):
    return isinstance(value, SymbolicTensor)
