"""`ConcreteFunction`: one traced graph of a `function`, compiled once and callable.

Calls on eager tensors run the compiled program (arrays in, arrays out).
With a tape recording, a call is one op on the tape, differentiated by a
backward graph traced once (see `call_gradient`).  While another function
is being traced, a call is one ``PartitionedCall`` (``StatefulPartitionedCall``)
op of the enclosing graph naming this function's body in its library, as in
TF; the executor inlines the body when it compiles the enclosing graph.
"""
import collections
import inspect
import itertools
import weakref

import numpy as np

from eagerflow._src import backend
from eagerflow._src.backend import tracebacks
from eagerflow._src.core import context, nest
from eagerflow._src.core.dtypes import resource
from eagerflow._src.core.tensor import EagerTensor, Tensor
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


# Called with each concrete function run from eager code while not empty (the graphs
# ``tf.summary.trace_on`` collects).
call_listeners = []
# (numbered apart from the library's other functions, whose numbers SavedModels keep)
_function_numbers = itertools.count(1)


class ConcreteFunction:
    """A traced function for one input signature (``tf.types.experimental.ConcreteFunction``).

    >>> cf = tf.function(lambda x: x * 2.0).get_concrete_function(tf.TensorSpec([3]))
    >>> cf(tf.constant([1.0, 2.0, 3.0]))
    <tf.Tensor: shape=(3,), dtype=float32, numpy=array([2., 4., 6.], dtype=float32)>
    """

    def __init__(self, name, graph, inputs, structured_outputs, input_signature,
                 python_parameters=None, declared_names=frozenset()):
        self._name = name  # the Python function's
        # TF's name of the function: the name of its body in graphs' libraries
        self._inference_name = f"__inference_{name}_{next(_function_numbers)}"
        self._python_parameters = python_parameters  # the traced function's, for printing
        self._declared_names = declared_names  # spec names an input_signature gave
        self.graph = graph
        self._inputs = list(inputs)  # the arguments' placeholders (what calls feed)
        self.structured_outputs = structured_outputs
        # (the Python objects among the arguments held weakly, as the trace key holds them)
        self._input_signature = trace_key.weakened(input_signature)
        leaves = self._leaves = nest.flatten(structured_outputs, expand_composites=True)
        self.outputs = [leaf for leaf in leaves if _is_symbolic(leaf)]
        # (a composite of one tensor, an ExtensionType say, is packed back: not single)
        self._single = len(leaves) == 1 and leaves[0] is structured_outputs
        graph.outputs = self.outputs
        graph.structured_outputs = structured_outputs  # (as TF's FuncGraph has them)
        graph._traced_by = weakref.ref(self)  # (its structured_input_signature is this one's)
        # Stand-ins of the variables passed as arguments: each call binds them to its own.
        self._variable_inputs = tuple(getattr(graph, "variable_inputs", ()))
        graph.variables = self.variables  # (TF's FuncGraph.variables: those it reads)
        # Tensors of graphs built outside this one (a function traced inside another) that
        # no input feeds: it can run only replayed there, never on its own.
        fed = {id(t) for t in self._inputs}
        self._foreign = [t for t, inner in graph.captures
                         if isinstance(t, SymbolicTensor) and id(inner) not in fed]
        if self._foreign:
            self._run = self._out_of_scope
        elif all(t.shape.is_fully_defined() for t in self._inputs):
            self._run = executor.compile_graph(graph, self._inputs, self.outputs,
                                               self._inference_name)
        else:  # a program per input shape the calls repeat
            self._run = ShapeSpecialized(graph, self._inputs, self.outputs, self._inference_name)
        # (kernels that keep state for one call of the function: `context.call_scope`)
        self._call_scoped = getattr(graph, "call_scoped", False)
        self._call_gradient = None  # made when a tape first records a call
        self._function_def = None

    @property
    def name(self):
        """TF's name of the traced function, as bytes: ``b'__inference_<function>_<n>'``.

        >>> tf.function(lambda: 1).get_concrete_function().name.startswith(b"__inference_")
        True
        """
        return self._inference_name.encode()

    @property
    def structured_input_signature(self):
        """``(args, kwargs)`` of the traced call: specs for tensors, Python values as given."""
        return trace_key.strengthened(self._input_signature)

    @property
    def inputs(self):
        """The graph's inputs, as TF lists them: a placeholder per tensor argument (one of
        dtype resource per variable argument), in argument order, then what stands for each
        capture (see `Graph.internal_captures`).

        >>> c = tf.constant(np.ones(200, np.float32))
        >>> cf = tf.function(lambda x: x + c).get_concrete_function(tf.TensorSpec([200]))
        >>> [t.name for t in cf.inputs]
        ['x:0', 'add/y:0']
        """
        return self._argument_inputs() + self.graph.internal_captures

    def _argument_inputs(self):
        """The placeholders of the arguments, variable arguments' (of dtype resource) in
        their place among the tensors'."""
        if not self._variable_inputs:
            return list(self._inputs)
        tensors, out = iter(self._inputs), []
        for leaf in nest.flatten(self.structured_input_signature, expand_composites=True):
            if isinstance(leaf, VariableSpec):
                stand_in = self._variable_inputs[leaf.alias_id]
                out.append(self.graph.resource_input(stand_in))
            elif isinstance(leaf, TensorSpec):
                out.append(next(tensors, None))
        out += list(tensors)
        return [t for t in out if t is not None]

    @property
    def captured_inputs(self):
        """What the graph closed over: eager tensors, and variables by their handles."""
        return self.graph.external_captures

    @property
    def variables(self):
        return tuple(v for v, _ in self.graph.captures if isinstance(v, Variable))

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
        try:
            return self.call_flat(binding.bind(self, args, kwargs))
        except Exception as e:
            raise tracebacks.filtered(e)  # (pointing at the caller's lines, not ours)

    def call_flat(self, tensors):
        """Runs the graph on `tensors` (one per input placeholder, with each variable
        argument among them, in argument order) and packs the outputs."""
        if self._call_scoped and context.call_scope() is None and context.get().graph is None:
            with context.calling():
                return self._call_flat(tensors)
        return self._call_flat(tensors)

    def _call_flat(self, tensors):
        variables = ()
        if self._variable_inputs:
            variables = [t for t in tensors if isinstance(t, Variable)]
            tensors = [t for t in tensors if not isinstance(t, Variable)]
            if len(variables) != len(self._variable_inputs):
                raise TypeError(f"{self._name} takes {len(self._variable_inputs)} variable "
                                f"arguments, got {len(variables)}.")
        if len(tensors) != len(self._inputs):
            raise TypeError(f"{self._name} takes {len(self._inputs)} tensor arguments, "
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
            flat = executor.replay(self.graph, [*self._inputs, *self._variable_inputs],
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
        return [EagerTensor._wrap(a) for a in self._run(
            *[t._data if type(t) is EagerTensor else np.asarray(t) for t in tensors])]

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
        return repr(self.function_type) if verbose else self._summary()

    @property
    def function_type(self):
        """The traced signature (``tf.types.experimental.FunctionType``): each parameter with
        its spec or literal as type constraint, the output type and the captures.

        >>> cf = tf.function(lambda x: x).get_concrete_function(tf.TensorSpec([2]))
        >>> print(cf.function_type)
        (x: TensorSpec(shape=(2,), dtype=tf.float32, name=None)) -> TensorSpec(shape=(2,), dtype=tf.float32, name=None)
        """
        parameters = [Parameter(name, getattr(inspect.Parameter, kind), False,
                                trace_type(value, self._declared_names))
                      for name, kind, value in self._parameters()]
        captures = {id(c.handle if isinstance(c, Variable) else c): TensorSpec([], resource)
                    if isinstance(c, Variable) else TensorSpec(c.shape, c.dtype)
                    for c, _ in self.graph.captures}
        return FunctionType(parameters, captures,
                            trace_type(self.structured_outputs, self._declared_names))

    @property
    def function_def(self):
        """The traced graph as TF's ``FunctionDef`` protobuf (``__inference_<name>_<n>``):
        its tensor arguments, then the variables it reads, as resource arguments."""
        if self._function_def is None:
            from eagerflow._src.graph import graph_def  # noqa: PLC0415 (protobuf when asked)
            self._function_def = graph_def.function_def(self, self._inference_name)
        return self._function_def

    def _type_text(self, value):
        return _type_text(value, self._declared_names)

    def _summary(self):
        """``(x: TensorSpec(...)) -> TensorSpec(...)``: the one-line signature."""
        return str(self.function_type)

    def __repr__(self):
        return f"<ConcreteFunction {self._summary()} at 0x{id(self):X}>"

    def __str__(self):
        return f"ConcreteFunction {self.pretty_printed_signature()}"


class _CapturedDefault:
    """The default of an optional parameter of a `FunctionType` (TF keeps defaults in the
    traces, not in the signature)."""

    def __repr__(self):
        return "<captured_default_value>"


CAPTURED_DEFAULT = _CapturedDefault()


class Parameter(inspect.Parameter):
    """A parameter of a `FunctionType`: `optional` (it has a default) and `type_constraint`
    (what the trace holds it to: a spec, a `Literal`; None before tracing)."""

    __slots__ = ("_optional",)

    def __init__(self, name, kind, optional, type_constraint):
        super().__init__(name, kind, default=CAPTURED_DEFAULT if optional else self.empty,
                         annotation=self.empty if type_constraint is None else type_constraint)
        self._optional = optional

    optional = property(lambda self: self._optional)
    type_constraint = property(
        lambda self: None if self.annotation is self.empty else self.annotation)

    def replace(self, **changes):  # (inspect's replace passes default/annotation)
        return inspect.Parameter(changes.get("name", self.name), changes.get("kind", self.kind),
                                 default=changes.get("default", self.default),
                                 annotation=changes.get("annotation", self.annotation))

    def __repr__(self):
        return (f"Parameter(name={self.name}, kind={self.kind}, optional={self.optional}, "
                f"type_constraint={self.type_constraint!r})")


class FunctionType(inspect.Signature):
    """The signature of a `function` or of one of its traces
    (``tf.types.experimental.FunctionType``): `Parameter`s, the `output` type (None before
    tracing) and the `captures` (id -> type). ``str`` gives the Python-style signature,
    ``repr`` TF's listing of inputs, output and captures."""

    __slots__ = ("_output", "_captures")

    def __init__(self, parameters, captures=None, output=None):
        super().__init__(parameters, return_annotation=self.empty if output is None else output,
                         __validate_parameters__=False)
        self._output = output
        self._captures = collections.OrderedDict(captures or {})

    output = property(lambda self: self._output)
    captures = property(lambda self: self._captures)

    @property
    def flat_inputs(self):
        """The specs of the tensors the parameters take, flattened in order."""
        return [spec for p in self.parameters.values() for spec in _flat(p.type_constraint)]

    @property
    def flat_outputs(self):
        """The specs of the output's tensors, flattened."""
        return _flat(self._output)

    @property
    def flat_captures(self):
        """The specs of the captured values, in capture order."""
        return list(self._captures.values())

    def __repr__(self):
        lines = ["Input Parameters:"]
        lines += [f"  {p.name} ({p.kind}): {p.type_constraint!r}"
                  for p in self.parameters.values()]
        lines += ["Output Type:", f"  {self._output!r}", "Captures:"]
        lines += [f"  {k}: {v!r}" for k, v in self._captures.items()] or ["  None"]
        return "\n".join(lines)


class _TraceType:
    """TF's type of a Python value in a signature: ``Literal[3]``, ``Tuple[...]``, ..."""

    __slots__ = ("_key",)

    def __init__(self, key):
        self._key = key

    def __eq__(self, other):
        return type(other) is type(self) and other._key == self._key

    def __hash__(self):
        return hash((type(self).__name__, self._key))


class Literal(_TraceType):
    value = property(lambda self: self._key)

    def __repr__(self):
        return f"Literal[{self._key!r}]"

    def __hash__(self):
        try:
            return hash(("Literal", self._key))
        except TypeError:  # (an unhashable value: by identity)
            return id(self._key)


class Tuple(_TraceType):
    components = property(lambda self: self._key)

    def __repr__(self):
        return f"Tuple[{', '.join(map(repr, self._key))}]"


class List(_TraceType):
    components = property(lambda self: self._key)

    def __repr__(self):
        return f"List[{', '.join(map(repr, self._key))}]"


class NamedTuple(_TraceType):
    """A namedtuple's type: its class's name, then each field's name and type."""
    components = property(lambda self: tuple(t for _, t in self._key[1]))

    def __repr__(self):
        return f"{self._key[0]}[{', '.join(f'[{k!r}, {t!r}]' for k, t in self._key[1])}]"


class Dict(_TraceType):
    mapping = property(lambda self: dict(self._key))

    def __repr__(self):  # (in the dict's own order, as TF prints it)
        return f"Dict[{', '.join(f'[{k!r}, {v!r}]' for k, v in self._key)}]"


def _flat(trace):
    """The tensor specs within a trace type, as `nest.flatten` orders them (dicts by key)."""
    if trace is None or isinstance(trace, Literal):
        return []
    if isinstance(trace, (Tuple, List, NamedTuple)):
        return [spec for t in trace.components for spec in _flat(t)]
    if isinstance(trace, Dict):
        items = trace._key
        try:
            items = sorted(items, key=lambda kv: kv[0])
        except TypeError:  # (keys that do not sort: in the dict's order)
            pass
        return [spec for _, t in items for spec in _flat(t)]
    parts = getattr(trace, "_component_specs", None)
    return [s for part in parts for s in _flat(part)] if parts is not None else [trace]


def trace_type(value, declared=frozenset()):
    """TF's type of a nested value in signatures: a `TensorSpec` for a tensor (named only
    where `declared`), a composite's spec, or `Literal`, `Tuple`, `List`, `Dict`."""
    if isinstance(value, Variable):
        return TensorSpec([], resource)
    if isinstance(value, (TensorSpec, SymbolicTensor)):
        name = getattr(value, "name", None) if isinstance(value, TensorSpec) else None
        return TensorSpec(value.shape, value.dtype, name if name in declared else None)
    if isinstance(value, VariableSpec) or hasattr(value, "_argument_tensor") or hasattr(
            value, "_component_specs"):  # (a composite's spec prints itself)
        return value
    if hasattr(getattr(value, "_type_spec", None), "_component_specs"):  # a composite result
        return value._type_spec
    if hasattr(type(value), "__tf_tracing_type__") and not isinstance(value, Tensor):
        return value.__tf_tracing_type__(None)  # a value of the tracing protocol: its type
    if isinstance(value, dict):
        return Dict(tuple((k, trace_type(value[k], declared)) for k in value))
    if isinstance(value, list):
        return List(tuple(trace_type(v, declared) for v in value))
    fields = getattr(type(value), "_fields", None)
    if isinstance(value, tuple) and fields is not None:
        return NamedTuple((type(value).__name__, tuple(
            (f, trace_type(v, declared)) for f, v in zip(fields, value))))
    if isinstance(value, tuple):
        return Tuple(tuple(trace_type(v, declared) for v in value))
    return Literal(value)


def _type_text(value, declared=frozenset()):
    """TF's type notation of a nested value: TensorSpec(...), Literal[...], List[...], ..."""
    return repr(trace_type(value, declared))


def _is_symbolic(value):
    return isinstance(value, SymbolicTensor)
