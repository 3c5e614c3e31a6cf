"""`ConcreteFunction`: one traced graph of a `function`, compiled once and callable.

Calls on eager tensors run the compiled program (arrays in, arrays out).
With a tape recording, a call is one op on the tape, differentiated by a
backward graph traced once (see `call_gradient`).  While another function
is being traced, a call is one ``PartitionedCall`` (``StatefulPartitionedCall``)
op of the enclosing graph naming this function's body in its library, as in
TF; the executor inlines the body when it compiles the enclosing graph.
"""
import inspect

import numpy as np

from eagerflow._src import backend
from eagerflow._src.core import context, nest
from eagerflow._src.core.tensor import EagerTensor
from eagerflow._src.core.tensor_shape import TensorShape
from eagerflow._src.core.tensor_spec import TensorSpec
from eagerflow._src.core.variables import Variable
from eagerflow._src.function import binding
from eagerflow._src.function.call_gradient import CallGradient
from eagerflow._src.function import trace_key
from eagerflow._src.function.trace_key import VariableSpec
from eagerflow._src.graph import executor
from eagerflow._src.graph.graph import SymbolicTensor
from eagerflow._src.graph.specialize import ShapeSpecialized

_new = object.__new__

# Called with each concrete function run from eager code while not empty (the graphs
# ``tf.summary.trace_on`` collects).
call_listeners = []


class ConcreteFunction:
    """A traced function for one input signature (``tf.types.experimental.ConcreteFunction``).

    >>> cf = tf.function(lambda x: x * 2.0).get_concrete_function(tf.TensorSpec([3]))
    >>> cf(tf.constant([1.0, 2.0, 3.0]))
    <tf.Tensor: shape=(3,), dtype=float32, numpy=array([2., 4., 6.], dtype=float32)>
    """

    def __init__(self, name, graph, inputs, structured_outputs, input_signature,
                 python_parameters=None, declared_names=frozenset()):
        self._name = name
        self._python_parameters = python_parameters  # the traced function's, for printing
        self._declared_names = declared_names  # spec names an input_signature gave
        self.graph = graph
        self.inputs = list(inputs)
        self.structured_outputs = structured_outputs
        # (the Python objects among the arguments held weakly, as the trace key holds them)
        self._input_signature = trace_key.weakened(input_signature)
        leaves = self._leaves = nest.flatten(structured_outputs, expand_composites=True)
        self.outputs = [leaf for leaf in leaves if _is_symbolic(leaf)]
        self._single = len(leaves) == 1 and not nest.is_nested(structured_outputs)
        graph.outputs = self.outputs
        # Stand-ins of the variables passed as arguments: each call binds them to its own.
        self._variable_inputs = tuple(getattr(graph, "variable_inputs", ()))
        # Tensors of graphs built outside this one (a function traced inside another) that
        # no input feeds: it can run only replayed there, never on its own.
        fed = {id(t) for t in self.inputs}
        self._foreign = [t for t, inner in graph.captures
                         if isinstance(t, SymbolicTensor) and id(inner) not in fed]
        if self._foreign:
            self._run = self._out_of_scope
        elif all(t.shape.is_fully_defined() for t in self.inputs):
            self._run = executor.compile_graph(graph, self.inputs, self.outputs, name)
        else:  # a program per input shape the calls repeat
            self._run = ShapeSpecialized(graph, self.inputs, self.outputs, name)
        self._call_gradient = None  # made when a tape first records a call

    name = property(lambda self: self._name)

    @property
    def structured_input_signature(self):
        """``(args, kwargs)`` of the traced call: specs for tensors, Python values as given."""
        return trace_key.strengthened(self._input_signature)

    @property
    def captured_inputs(self):
        """What the graph closed over: eager tensors (by value) and variables (by reference)."""
        return [external for external, _ in self.graph.captures]

    @property
    def variables(self):
        return tuple(v for v in self.captured_inputs if isinstance(v, Variable))

    def _output_leaves(self):
        # a composite stands as the list of its components, as in TF's attributes
        def components(value):
            parts = nest._components(value)
            return value if parts is None else parts
        return nest.map_structure(components, self.structured_outputs)

    @property
    def output_shapes(self):
        """The outputs' shapes in their structure (``TensorShape(None)`` for a None)."""
        return nest.map_structure(lambda v: getattr(v, "shape", TensorShape(None)),
                                  self._output_leaves())

    @property
    def output_dtypes(self):
        """The outputs' dtypes in their structure (None for a None)."""
        return nest.map_structure(lambda v: None if v is None else v.dtype,
                                  self._output_leaves())

    @property
    def trainable_variables(self):
        return tuple(v for v in self.variables if v.trainable)

    def __call__(self, *args, **kwargs):
        return self.call_flat(binding.bind(self, args, kwargs))

    def call_flat(self, tensors):
        """Runs the graph on `tensors` (one per input placeholder, with each variable
        argument among them, in argument order) and packs the outputs."""
        variables = ()
        if self._variable_inputs:
            variables = [t for t in tensors if isinstance(t, Variable)]
            tensors = [t for t in tensors if not isinstance(t, Variable)]
            if len(variables) != len(self._variable_inputs):
                raise TypeError(f"{self._name} takes {len(self._variable_inputs)} variable "
                                f"arguments, got {len(variables)}.")
        if len(tensors) != len(self.inputs):
            raise TypeError(f"{self._name} takes {len(self.inputs)} tensor arguments, "
                            f"got {len(tensors)}.")
        ctx = context._lookup(None) or context.get()
        if call_listeners and ctx.graph is None:
            for listener in call_listeners:
                listener(self)
        if ctx.fast and not variables:
            flat = self._execute(tensors)
        elif ctx.graph is None and ctx.xp is backend.numpy_module:
            if self._foreign:
                self._out_of_scope()
            saved = self._bind([v._handle for v in variables])
            try:
                if ctx.fast:
                    flat = self._execute(tensors)
                else:  # a tape records
                    if self._call_gradient is None:
                        self._call_gradient = CallGradient(self)
                    flat = self._call_gradient.call(tensors, ctx.recorders, variables)
            finally:
                self._bind(saved)
        elif ctx.graph is not None:  # one call op in the graph being built, as in TF
            if self._call_gradient is None:
                self._call_gradient = CallGradient(self)
            flat = self._call_gradient.call_traced(tensors, variables)
        else:
            flat = executor.replay(self.graph, [*self.inputs, *self._variable_inputs],
                                   self.outputs, [*tensors, *variables])
        if self._single and self.outputs:
            return flat[0]
        return self._pack(flat)

    def _out_of_scope(self, *_):
        """TF's TypeError for running, outside of its graph, a tensor this function captured."""
        t = self._foreign[0]
        where = t.op.location
        frame = "".join(f'    File "{file}", line {line}, in {function}\n'
                        for file, line, function in where[2]) if where else ""
        raise TypeError(
            f"{t!r} is out of scope and cannot be used here. Use return values, explicit "
            f"Python locals or TensorFlow collections to access it.\nPlease see "
            f"https://www.tensorflow.org/guide/function#all_outputs_of_a_tffunction_must_be_"
            f"return_values for more information.\n\n{t!r} was defined here:\n{frame}\n"
            f"The tensor {t!r} cannot be accessed from here, because it was defined in "
            f"FuncGraph(name={t.graph.name}, id={id(t.graph)}), which is out of scope.")

    def _bind(self, handles):
        """Points the variable arguments' stand-ins at `handles`; returns what they were at."""
        saved = []
        for stand_in, handle in zip(self._variable_inputs, handles):
            forwarding = stand_in._handle
            saved.append(forwarding.target)
            forwarding.target = handle
        return saved

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
        return nest.pack_sequence_as(self.structured_outputs, leaves, expand_composites=True)

    def _parameters(self):
        """``(name, kind, value)`` of each parameter this trace bound: a spec or a literal.

        Listed as TF lists them: the Python signature's parameters (all
        positional ones positional-only when there is a ``*args``), with
        defaults for those the call left out; ``*args``/``**kwargs`` only
        by their entries.
        """
        args, kwargs = self.structured_input_signature
        params = self._python_parameters
        if params is None:  # no Python signature: argument positions
            return ([(f"arg{i}", "POSITIONAL_ONLY", a) for i, a in enumerate(args)]
                    + [(k, "KEYWORD_ONLY", v) for k, v in kwargs.items()])
        varargs = any(p.kind is p.VAR_POSITIONAL for p in params)
        out, positional = [], list(args)
        for p in params:
            if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD):
                kind = "POSITIONAL_ONLY" if varargs else p.kind.name
                value = (positional.pop(0) if positional
                         else kwargs.get(p.name, p.default))
                out.append((p.name, kind, value))
            elif p.kind is p.KEYWORD_ONLY:
                out.append((p.name, "KEYWORD_ONLY", kwargs.get(p.name, p.default)))
            elif p.kind is p.VAR_POSITIONAL:
                out += [(f"{p.name}_{i}", "POSITIONAL_ONLY", a) for i, a in enumerate(positional)]
        named = {p.name for p in params}
        out += [(k, "KEYWORD_ONLY", v) for k, v in kwargs.items() if k not in named]
        return out

    def pretty_printed_signature(self, verbose=True):
        """The inputs, output type and captures, as TF prints a concrete function.

        >>> print(tf.function(lambda x: x).get_concrete_function(tf.TensorSpec([])))
        ConcreteFunction Input Parameters:
          x (POSITIONAL_OR_KEYWORD): TensorSpec(shape=(), dtype=tf.float32, name=None)
        Output Type:
          TensorSpec(shape=(), dtype=tf.float32, name=None)
        Captures:
          None
        """
        if not verbose:
            return self._summary()
        lines = ["Input Parameters:"]
        lines += [f"  {name} ({kind}): {self._type_text(value)}"
                  for name, kind, value in self._parameters()]
        lines += ["Output Type:", f"  {self._type_text(self.structured_outputs)}", "Captures:"]
        captures = self.captured_inputs
        lines += [f"  {id(c)}: {_spec_text(c)}" for c in captures] or ["  None"]
        return "\n".join(lines)

    @property
    def function_type(self):
        """The traced signature as an `inspect.Signature`: each parameter annotated with its
        spec or literal, `output` the output type; printed as TF prints it."""
        parameters = [inspect.Parameter(name, getattr(inspect.Parameter, kind), annotation=value)
                      for name, kind, value in self._parameters()]
        output = nest.map_structure(
            lambda v: TensorSpec(v.shape, v.dtype) if _is_symbolic(v) else v,
            self.structured_outputs)
        return FunctionType(parameters, output, self.pretty_printed_signature(), self._summary())

    def _type_text(self, value):
        return _type_text(value, self._declared_names)

    def _summary(self):
        """``(x: TensorSpec(...)) -> TensorSpec(...)``: the one-line signature."""
        parts, star = [], False
        for name, kind, value in self._parameters():
            star = star or kind == "VAR_POSITIONAL"
            if kind == "KEYWORD_ONLY" and not star:  # (as Python prints a signature)
                parts.append("*")
                star = True
            parts.append(f"{name}: {self._type_text(value)}")
        inputs = ", ".join(parts)
        return f"({inputs}) -> {self._type_text(self.structured_outputs)}"

    def __repr__(self):
        return f"<ConcreteFunction {self._summary()} at 0x{id(self):X}>"

    def __str__(self):
        return f"ConcreteFunction {self.pretty_printed_signature()}"


class FunctionType(inspect.Signature):
    """A concrete function's signature (``ConcreteFunction.function_type``)."""

    __slots__ = ("_output", "_verbose", "_line")

    def __init__(self, parameters, output, verbose, line):
        super().__init__(parameters, __validate_parameters__=False)
        self._output, self._verbose, self._line = output, verbose, line

    output = property(lambda self: self._output)

    def __repr__(self):
        return self._verbose

    def __str__(self):
        return self._line


def _type_text(value, declared=frozenset()):
    """TF's type notation of a nested value: TensorSpec(...), Literal[...], List[...], ..."""
    if isinstance(value, (TensorSpec, SymbolicTensor)):
        return _spec_text(value, declared)
    if isinstance(value, VariableSpec) or hasattr(value, "_argument_tensor") or hasattr(
            value, "_component_specs"):  # (a composite's spec prints itself)
        return repr(value)
    if hasattr(getattr(value, "_type_spec", None), "_component_specs"):  # a composite result
        return repr(value._type_spec)
    if isinstance(value, dict):
        # (in the dict's own order, as TF prints it)
        items = ", ".join(f"[{k!r}, {_type_text(value[k], declared)}]" for k in value)
        return f"Dict[{items}]"
    if isinstance(value, (list, tuple)):
        kind = "List" if isinstance(value, list) else "Tuple"
        return f"{kind}[{', '.join(_type_text(v, declared) for v in value)}]"
    return f"Literal[{value!r}]"


def _spec_text(value, declared=frozenset()):
    """A tensor's spec as TF prints it in signatures (names only where the user gave them)."""
    if isinstance(value, Variable):
        return "TensorSpec(shape=(), dtype=tf.resource, name=None)"
    name = getattr(value, "name", None) if isinstance(value, TensorSpec) else None
    shape = tuple(value.shape.as_list()) if value.shape.rank is not None else "<unknown>"
    return (f"TensorSpec(shape={shape!s}, dtype={value.dtype!r}, "
            f"name={name if name in declared else None!r})")



def _is_symbolic(value):
    return isinstance(value, SymbolicTensor)
