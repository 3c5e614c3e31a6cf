"""`function`: Python functions traced into graphs, one graph per input signature.

A call computes the trace key of its arguments (see `trace_key`), reuses the
`ConcreteFunction` traced for it or traces a new one, and runs it.  Every
trace is kept with the reason it happened, so that repeated retracing can be
explained argument by argument (`experimental_explain_retracing`).

>>> @tf.function
... def f(x):
...     return x * 2.0
>>> f(tf.constant(3.0))
<tf.Tensor: shape=(), dtype=float32, numpy=6.0>
"""
import collections.abc
import functools
import inspect
import threading
import weakref

import numpy as np

from eagerflow._src.backend.api_export import export
from eagerflow._src.backend import tracebacks
from eagerflow._src.backend.log import logger as _logger
from eagerflow._src.core import config, context, distribution_context, nest
from eagerflow._src.core.dtypes import variant
from eagerflow._src.core.convert import convert_to_tensor
from eagerflow._src.core.tensor import EagerTensor, Tensor
from eagerflow._src.core.tensor_shape import TensorShape
from eagerflow._src.core.tensor_spec import TensorSpec
from eagerflow._src.core.variables import Variable
from eagerflow._src.function import autograph_slot, binding, trace_key
from eagerflow._src.core import errors
from eagerflow._src.function.concrete_function import (
    CAPTURED_DEFAULT as _CAPTURED_DEFAULT, ConcreteFunction, FunctionType, Parameter, trace_type)
from eagerflow._src.core.dispatch import dispatch
from eagerflow._src.core.variables import VAR_IS_INITIALIZED
from eagerflow._src.graph.control_flow import cond
from eagerflow._src.graph.graph import Graph, SymbolicTensor
from eagerflow._src.ops.math_ops import logical_and
from eagerflow._src.ops.cast_ops import identity

_MAX_KEYS = 1024          # call keys remembered per function (shapes seen, for example)
_MAX_TRACES = 1024        # traces kept per function (the latest half stay once it has more)


class Function:
    """A callable that traces `python_function` into graphs (``tf.function``'s result)."""

    def __init__(self, python_function, name=None, input_signature=None, autograph=True,
                 jit_compile=None, reduce_retracing=False, autograph_options=None):
        self._python_function = python_function
        self._name = name or getattr(python_function, "__name__", "function")
        if input_signature is not None:
            _check_signature(input_signature)
        self._input_signature = (None if input_signature is None
                                 else tuple(_as_spec(s) for s in input_signature))
        self._autograph = autograph
        self._autograph_options = autograph_options  # AutoGraph's optional features
        self._jit_compile = jit_compile
        self._reduce_retracing = reduce_retracing
        self._cache = {}          # call key -> ConcreteFunction
        self._traces = []         # (trace key, ConcreteFunction), in trace order
        self._signatures = []     # every ConcreteFunction traced, variable-making ones too
        self._reasons = _Reasons()  # why each trace happened (a variable-making one traces twice)
        self._tracing = 0         # traces of this function in progress (one inside another)
        self._made_variables = False
        self._created_variables = []  # those the first trace made
        self._initialized = False  # traced before: only the first trace may make variables
        self._initializer = None  # a trace to run once first: it assigns initial values
        self._last_key = None     # the key of the latest trace started
        # Tracing and the first call run one thread at a time (see `_call`); reentrant, as
        # a function's trace may call the function itself.
        self._lock = threading.RLock()
        self._ready = False       # a first call has run: later calls may skip the lock
        self._call_stats_key = _call_stats_key(python_function)
        self._call_stats = None  # its calls' counts, shared by functions of the same code
        self._traced_for_next_call = False  # a trace made ahead, counted as the next call's
        self._bound = weakref.WeakKeyDictionary()
        self._method = False  # a method of an instance (see `__get__`)
        self._slots = None  # the parameters an input_signature binds (`_signature_slots`)
        try:
            self._signature = inspect.signature(python_function)
        except (TypeError, ValueError):
            self._signature = None
        self._params = [] if self._signature is None else list(
            self._signature.parameters.values())
        if self._input_signature is None and self._signature is not None and not self._params:
            self._input_signature = ()  # (a function of no parameters has one signature, as in TF)
        # Calls giving exactly these positional arguments need no binding to the signature.
        self._plain_arity = len(self._params) if all(
            p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD) for p in self._params) else -1
        functools.update_wrapper(self, python_function, updated=())
        if self.__doc__ is None:  # (TF's functions document an undocumented one as "")
            self.__doc__ = ""
        if input_signature is not None:
            self._check_parameters()

    def _check_parameters(self):
        """TF's TypeErrors for an `input_signature` that does not fit the parameters (a
        leading ``self`` is the instance's, not the signature's)."""
        params = self._params[1:] if self._params and self._params[0].name == "self" \
            else self._params
        positional = [p for p in params if p.kind in (p.POSITIONAL_ONLY,
                                                      p.POSITIONAL_OR_KEYWORD)]
        n = len(self._input_signature)
        # in TF's order: positional parameters left without a spec, keyword-only ones
        # without a default, then specs left over
        for p in positional[n:]:
            if p.default is p.empty:
                raise TypeError(f"input_signature missing type constraint for {p.name}")
        for p in params:
            if p.kind is p.KEYWORD_ONLY and p.default is p.empty:
                raise TypeError(f"Since input_signature is defined, keyword-only parameter "
                                f"`{p.name}` must have a default value")
        if n > len(positional) and not any(p.kind is p.VAR_POSITIONAL for p in params):
            raise TypeError(f"input_signature contains {n - len(positional)} extra type "
                            f"constraints.")

    @property
    def python_function(self):
        """The Python function traced (a method's own function, for a method of an instance,
        as in TF)."""
        if self._method:
            return self._python_function.__func__
        return self._python_function

    input_signature = property(lambda self: self._input_signature)

    # -- calling -------------------------------------------------------------------
    def __call__(self, *args, **kwargs):
        try:
            if config.functions_run_eagerly():
                return self._python_function(*args, **kwargs)
            traces = self._reasons.made_here()
            result = self._call(args, kwargs)
        except Exception as e:
            raise tracebacks.filtered(e)  # (pointing at the caller's lines, not ours)
        if context.executing_eagerly():  # (calls made while another function traces do not count)
            traced = self._reasons.made_here() != traces or self._traced_for_next_call
            self._traced_for_next_call = False
            _retracing_monitor.called(self, traced)
        return result

    def _trace_for_next_call(self, *args, **kwargs):
        """`get_concrete_function`, a trace it makes counted as the next call's in TF's
        warning of frequent retracing (as a Keras step traced for its batches' spec, which
        TF traces in that call)."""
        traces = self._reasons.made_here()
        concrete = self.get_concrete_function(*args, **kwargs)
        self._traced_for_next_call |= self._reasons.made_here() != traces
        return concrete

    def _replica_function(self):
        """The function as called in one of several synced replicas of a strategy's `run`:
        one of its own per replica (as TF traces per replica device), counting its traces
        among this function's; None elsewhere."""
        replica = distribution_context.synced_replica()
        if replica is None or self._replica_of is not None:
            return None
        copies = self.__dict__.setdefault("_replica_copies", weakref.WeakKeyDictionary())
        mine = copies.setdefault(replica.strategy, {})
        copy = mine.get(replica._replica_id)
        if copy is None:
            copy = mine[replica._replica_id] = Function(
                self._python_function, self._name, self._input_signature, self._autograph,
                self._jit_compile, self._reduce_retracing, self._autograph_options)
            copy._method, copy._reasons, copy._replica_of = self._method, self._reasons, self
        return copy

    _replica_of = None

    def _call(self, args, kwargs):
        copy = self._replica_function()
        if copy is not None:
            return copy._call(args, kwargs)
        key = None
        if self._input_signature is not None:
            tensors = self._bind(args, kwargs)
            concrete = self._traces[0][1] if self._traces else None
        else:
            if kwargs or len(args) != self._plain_arity:
                args, kwargs = self._canonical(args, kwargs)
            key, tensors = trace_key.call_key(args, kwargs)
            concrete = self._cache.get(key)
        if concrete is None or not self._ready:
            # Tracing, and the first call, happen one thread at a time: threads calling
            # meanwhile wait for the trace rather than trace it again, and for the first
            # call to assign the initial values of variables it made from its inputs.
            with self._lock:
                if self._input_signature is not None:
                    concrete = self._signature_function()
                else:
                    concrete = self._cache.get(key) or self._concrete_for(args, kwargs, key)
                initializer, self._initializer = self._initializer, None
                if initializer is not None:
                    try:
                        if context.get().graph is not None:  # called while another traces
                            return _first_call_in_graph(initializer, concrete,
                                                        self._created_variables, tensors)
                        return initializer.call_flat(tensors)
                    finally:
                        self._ready = True
                self._ready = True
        return concrete.call_flat(tensors)

    def _canonical(self, args, kwargs):
        """The call as TF keys it: bound to the parameters (positionally where they can
        be), defaults filled in, so that ``f(x)``, ``f(x, k=1)`` and ``f(x, 1)`` agree."""
        if self._signature is None:
            return args, kwargs
        try:
            bound = self._signature.bind(*args, **kwargs)
        except TypeError as e:
            raise binding_error(self._signature, e, args, kwargs) from None
        bound.apply_defaults()
        return bound.args, bound.kwargs

    def __get__(self, instance, owner=None):
        """Methods trace per instance, as in TF."""
        if instance is None:
            return self
        bound = self._bound.get(instance)
        if bound is None:
            bound = Function(self._python_function.__get__(instance, owner), self._name,
                             self._input_signature, self._autograph, self._jit_compile,
                             self._reduce_retracing, self._autograph_options)
            bound._method = True
            self._bound[instance] = bound
        return bound

    def get_concrete_function(self, *args, **kwargs):
        """The `ConcreteFunction` for these arguments (`TensorSpec`s stand for tensors)."""
        copy = self._replica_function()
        if copy is not None:
            return copy.get_concrete_function(*args, **kwargs)
        if self._input_signature is not None:
            if args or kwargs:
                self._bind(args, kwargs)
            with self._lock:
                return self._signature_function()
        args, kwargs = self._canonical(args, kwargs)
        key, _ = trace_key.call_key(args, kwargs)
        with self._lock:
            return self._cache.get(key) or self._concrete_for(args, kwargs, key)

    def pretty_printed_concrete_signatures(self, verbose=True):
        """Every traced signature, in trace order, as `ConcreteFunction` prints them (a
        function with an `input_signature` traces it first, as TF does)."""
        if self._input_signature is not None and not self._signatures:
            self.get_concrete_function()
        return ("\n\n" if verbose else "\n").join(concrete.pretty_printed_signature(verbose)
                                                 for concrete in self._signatures)

    @property
    def function_type(self):
        """The signature calls bind to (``tf.types.experimental.FunctionType``): the Python
        function's parameters, held to the `input_signature` where one is given.

        >>> print(tf.function(lambda x, y=2: x).function_type)
        (x, y=<captured_default_value>)
        """
        if self._input_signature is None:
            return FunctionType([Parameter(p.name, p.kind, p.default is not p.empty, None)
                                 for p in self._params])
        declared = _spec_names(self._input_signature)
        # (a method's instance, which the signature does not cover, first)
        parameters = [Parameter(p.name, p.kind, False, None) for p in self._params[:1]
                      if p.name == "self" and p.kind is not p.VAR_POSITIONAL]
        parameters += [Parameter(name, kind, optional, trace_type(
            spec if spec is not _NO_SPEC else default, declared))
            for name, kind, spec, default, optional in self._signature_slots()]
        parameters += [Parameter(p.name, p.kind, p.default is not p.empty, None)
                       for p in self._params if p.kind is p.KEYWORD_ONLY]
        return FunctionType(parameters)

    def _signature_slots(self):
        """The positional parameters an `input_signature` binds, as TF lists them: ``(name,
        kind, spec, default, optional)``, specs in order (a ``*args`` takes those left, as
        ``args_0``, ``args_1``, ... positional-only, as all are then), then parameters left
        with defaults (their spec `_NO_SPEC`: the default is the only value taken)."""
        if self._slots is not None:
            return self._slots
        specs = list(self._input_signature)
        varargs = any(p.kind is p.VAR_POSITIONAL for p in self._params)
        slots = []
        for i, p in enumerate(self._params):
            if p.kind is p.VAR_POSITIONAL:
                slots += [(f"{p.name}_{j}", p.POSITIONAL_ONLY, spec, p.empty, False)
                          for j, spec in enumerate(specs)]
                specs = []
            elif p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD) and (
                    i or p.name != "self"):
                kind = p.POSITIONAL_ONLY if varargs else p.kind
                spec = specs.pop(0) if specs else _NO_SPEC
                slots.append((p.name, kind, spec, p.default, p.default is not p.empty))
        self._slots = slots
        return slots

    @property
    def function_spec(self):
        """The binding of calls to the Python function (its `function_type` and
        `input_signature`), kept for code written against TF's older attribute."""
        return FunctionSpec(self.function_type, self._input_signature, self._jit_compile,
                            fullargspec=_fullargspec(self._signature))

    def get_initialization_function(self, *args, **kwargs):
        """A `ConcreteFunction` of no arguments that assigns their initial values to the
        variables the first trace (on these arguments) creates; before any other use.

        >>> f = tf.function(lambda x: x)
        >>> f.get_initialization_function(tf.constant(1.0))()
        """
        if self._signatures:
            raise RuntimeError("get_initialization_function cannot be called after the "
                               "function has been used")
        self.get_concrete_function(*args, **kwargs)
        variables = [v for v in self._created_variables if v.handle.value is not None]
        initial = [v.numpy() for v in variables]  # (constants of the graph)

        def initialize_variables():
            for variable, value in zip(variables, initial):
                variable.assign(value)
        return Function(initialize_variables, "initialize_variables").get_concrete_function()

    def experimental_get_compiler_ir(self, *args, **kwargs):
        """XLA's program for these arguments, for a function made with ``jit_compile=True``:
        returns ``generate(stage="hlo", device_name=None, platform_name=None)``. eagerflow
        does not compile to XLA, so `generate` raises `UnimplementedError` for a valid
        stage (after TF's checks of the function and the stage).

        >>> tf.function(lambda x: x + 1).experimental_get_compiler_ir(tf.constant(1.0))
        Traceback (most recent call last):
        ...
        ValueError: Compiler IR can only be returned for functions marked with 'jit_compile=True'
        """
        if not self._jit_compile:
            raise ValueError("Compiler IR can only be returned for functions marked with "
                             "'jit_compile=True'")
        values = list(args) + list(kwargs.values())
        specs = [isinstance(v, TensorSpec) for v in values]
        if any(specs) and not all(specs):
            raise ValueError("experimental_get_compiler_ir supports either (1) all inputs are "
                             "TensorSpec  or (2) all inputs are tf.Tensor/python variables")
        concrete = self.get_concrete_function(*args, **kwargs)

        def compiler_ir_generator(stage="hlo", device_name=None, platform_name=None):
            if device_name is not None and platform_name is not None:
                raise ValueError("device_name and platform_name cannot be provided at the "
                                 "same time.")
            if stage not in _IR_STAGES:
                raise ValueError(f"Invalid stage selected: '{stage}'. Valid values are: "
                                 f"{', '.join(repr(s) for s in _IR_STAGES[:5])}")
            raise errors.UnimplementedError(
                None, None, f"XLA is not available: the compiler IR ({stage}) of "
                f"{concrete._inference_name} cannot be generated.")
        return compiler_ir_generator

    def experimental_get_tracing_count(self):
        """How many times the Python function was traced."""
        return self._reasons.total()

    def experimental_explain_retracing(self):
        """Why each trace happened: the first call, then what changed for every retrace.

        >>> @tf.function
        ... def f(x):
        ...     return x + 1
        >>> _ = f(1), f(2)
        >>> print(f.experimental_explain_retracing())
        f was traced 2 times:
          1. first call: x=int 1
          2. x changed from int 1 to int 2
        """
        n, dropped = self._reasons.total(), self._reasons.dropped
        lines = [f"{self._name} was traced {n} time{'' if n == 1 else 's'}:"]
        if dropped:
            lines.append(f"  (the reasons of the first {dropped} traces are no longer kept)")
        lines += [f"  {i}. {reason}" for i, reason in enumerate(self._reasons, dropped + 1)]
        return "\n".join(lines)

    # -- tracing ---------------------------------------------------------------------
    def _concrete_for(self, args, kwargs, key):
        """The concrete function for `key`: a general trace that covers it, or a new one."""
        for general, concrete in self._traces:
            if trace_key.covers(general, key):
                break
        else:
            general = key
            if self._reduce_retracing:
                for old, _ in self._traces:
                    merged = trace_key.relaxed(old, key)
                    if merged is not None:
                        general = merged
                        break
            self._tracing += 1
            try:
                concrete = self._trace(args, kwargs, general, self._reason(general))
            finally:
                self._tracing -= 1
            if len(self._traces) > _MAX_TRACES and not self._tracing:
                self._forget_old_traces()
        if len(self._cache) >= _MAX_KEYS:
            self._cache.clear()
        self._cache[key] = concrete
        return concrete

    def _forget_old_traces(self):
        """Drops all but the latest half of `_MAX_TRACES` traces, so that a function traced
        on almost every call (given a Python number that changes, say) holds bounded memory;
        a call of a signature forgotten traces it again."""
        keep = _MAX_TRACES // 2
        del self._traces[:-keep]
        del self._signatures[:-keep]
        self._reasons.forget_all_but(keep)
        self._cache.clear()

    def _signature_function(self):
        if not self._traces:
            specs = list(self._input_signature)
            self._trace(specs, {}, None, "first call (input_signature)")
        return self._traces[0][1]

    def _bind(self, args, kwargs):
        """The call's tensors for `input_signature`, or TF's TypeError when they do not fit."""
        slots = self._signature_slots()
        values, tensors, fail_early = [], [], None
        if len(args) > len(slots):
            fail_early = "too many positional arguments"
        else:  # bound as `inspect` binds, to the parameters TF lists
            for name, kind, spec, default, _ in slots:
                i = len(values)
                if i < len(args):
                    if name in kwargs and kind is not _POSITIONAL_ONLY:
                        fail_early = f"multiple values for argument '{name}'"
                        break
                    values.append(args[i])
                elif name in kwargs and kind is not _POSITIONAL_ONLY:
                    values.append(kwargs[name])
                elif default is not _EMPTY:  # a default the signature's spec checks
                    values.append(default)
                else:
                    fail_early = f"missing a required argument: '{name}'"
                    break
        if fail_early is None:
            named = {name for name, kind, *_ in slots if kind is not _POSITIONAL_ONLY}
            fail_early = next((f"got an unexpected keyword argument '{k}'" for k in kwargs
                               if k not in named), None)

        def bind(value, spec):
            if isinstance(spec, (list, tuple, dict)):  # a nested signature: part by part
                try:
                    parts = binding.matched_parts(value, spec, _signature_type_text)
                except TypeError as e:
                    fail(str(e))
                for v, s in parts:
                    bind(v, s)
                return
            if hasattr(spec, "_argument_tensor"):  # a DatasetSpec or IteratorSpec
                tensor = spec._argument_tensor(value)
                if tensor is None:
                    fail(f"{value!r} does not match {spec!r}")
                tensors.append(tensor)
                return
            if trace_key.composite_parts(spec) is not None:  # a SparseTensorSpec
                parts = trace_key.composite_parts(value)
                if parts is None or not spec.is_compatible_with(value):
                    fail(binding.mismatched_component(value, spec) or
                         f"{value!r} does not match {spec!r}")
                tensors.extend(parts)
                return
            # (a spec stands for a tensor: get_concrete_function)
            tensor = value if isinstance(value, (Tensor, TensorSpec)) and not isinstance(
                value, Variable) else None
            if tensor is None:  # other values converted to the spec's dtype, as in TF
                try:
                    tensor = convert_to_tensor(value, dtype=spec.dtype)
                except (TypeError, ValueError) as e:
                    fail(str(e))
            if not spec.is_compatible_with(tensor):
                fail(f"Can not cast {TensorSpec(tensor.shape, tensor.dtype)!r} to {spec!r}")
            tensors.append(tensor)

        def fail(why):
            raise TypeError(f"Binding inputs to tf.function failed due to `{why}`. Received "
                            f"args: {args!r} and kwargs: {kwargs!r} for signature: "
                            f"{self._signature_text()}.")

        if fail_early is not None:
            fail(fail_early)
        for value, (_, _, spec, default, _) in zip(values, slots):
            if spec is not _NO_SPEC:
                bind(value, spec)
            elif not _same_literal(value, default):
                fail(f"Can not cast {value!r} to {trace_type(default)!r}")
        return tensors

    def _signature_text(self):
        return str(self.function_type)

    def _reason(self, key):
        """Why tracing `key` is needed: the first call, or what differs from the last trace."""
        keywords = key[-1][1:] if key and type(key[-1]) is tuple and key[-1][:1] == (
            "kwargs",) else None
        names = self._arg_names(len(key) - (keywords is not None))
        if not self._reasons:
            given = list(zip(names, key[:len(names) - 1])) + list(keywords or ())
            return "first call: " + ", ".join(f"{n}={trace_key.describe(k)}" for n, k in given)
        last = self._last_key or ()
        changes = trace_key.differences(last, key, names)
        return "; ".join(f"{n} changed from {old} to {new}" for n, old, new in changes)

    def _arg_names(self, n):
        names = [p.name for p in self._params if p.kind in (
            p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
        rest = next((p.name for p in self._params if p.kind is p.VAR_POSITIONAL), "args")
        return (names + [f"{rest}_{i}" for i in range(n - len(names))])[:n] + ["kwargs"]

    def _trace(self, args, kwargs, key, reason):
        graph = Graph(self._name)
        graph.variable_arguments = {}  # its own (a function traced inside another's trace)
        names = self._arg_names(len(args))
        leaves = iter(_key_leaves(key)) if key is not None else None
        p_args = [_placeholders(a, leaves, graph, names[i]) for i, a in enumerate(args)]
        p_kwargs = {k: _placeholders(kwargs[k], leaves, graph, k) for k in sorted(kwargs)}
        created = _NoMoreVariables() if self._made_variables else []
        if not self._made_variables:
            self._created_variables = created
        first, self._initialized = not self._initialized, True
        # The reason is listed when the trace starts (a recursive function's own calls trace
        # inside it) and dropped if the trace fails: only finished traces count, as in TF.
        at = len(self._reasons)
        self._reasons.append(reason)
        self._last_key = key
        try:
            with context.building(graph), context.collecting_variables(created), \
                    autograph_slot.status(self._autograph):
                if self._autograph and autograph_slot.call is not None:
                    result = autograph_slot.call(self._python_function, p_args, p_kwargs,
                                                 self._autograph_options)
                else:
                    result = self._python_function(*p_args, **p_kwargs)
                # TF's message shows the Python function itself (a method's, unbound).
                shown = repr(getattr(self._python_function, "__func__", self._python_function))
                outputs = nest.map_structure(lambda v: _graph_output(v, shown), result)
        except BaseException:
            del self._reasons[at]
            raise
        if created and not first:
            # Only the first trace may make variables (a trace of a later call fails whole).
            del self._reasons[at]
            raise ValueError("Creating variables on a non-first call to a function decorated "
                             "with tf.function.")
        signature = (tuple(nest.map_structure(lambda v: _spec_or_value(v, graph), p_args)),
                     nest.map_structure(lambda v: _spec_or_value(v, graph), p_kwargs))
        signature = (tuple(_path_named(s, a, n, True) for s, a, n in zip(signature[0], args,
                                                                          names)),
                     {k: _path_named(v, kwargs[k], k, True) for k, v in signature[1].items()})
        declared = _spec_names((args, kwargs, self._input_signature))  # shown when printed
        concrete = ConcreteFunction(f"{self._name}", graph, graph.inputs, outputs, signature,
                                    self._params if self._params else None, declared)
        self._signatures.append(concrete)
        if created:
            # As in TF, a trace that made variables is traced again right away (its Python
            # body runs twice; both traces count and print): a function that would make new
            # ones on every call fails on its first call.
            self._made_variables = True
            if any(v.handle.value is None for v in created):
                # Initial values computed from the inputs: the first call runs this trace,
                # which assigns them (later calls, the one that follows, as TF does).
                self._initializer = concrete
            return self._trace(args, kwargs, key, _VARIABLES_RETRACE)
        self._traces.append((key, concrete))
        return concrete

    @property
    def name(self):
        """The name of the Python function (``tf.function(f).name == f.__name__``)."""
        return self._name

    def __repr__(self):
        return f"<eagerflow.function {self._name} at 0x{id(self):x}>"


def _first_call_in_graph(initializer, concrete, created, tensors):
    """The first call of a function that made variables from its inputs, made while another
    function traces: in that graph, the trace that assigns their initial values runs while
    any of them is uninitialized, the later one otherwise (TF's conditional initializer)."""
    ready = None
    for variable in created:
        if variable.handle.value is None:
            known = dispatch(VAR_IS_INITIALIZED, (variable,))
            ready = known if ready is None else logical_and(ready, known)
    return cond(ready, lambda: concrete.call_flat(tensors),
                lambda: initializer.call_flat(tensors))


_VARIABLES_RETRACE = "traced again after creating variables"
_NO_SPEC = object()  # (a parameter an input_signature leaves to its default)
_POSITIONAL_ONLY, _EMPTY = inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.empty


def _same_literal(value, default):
    """Whether `value` may stand for the `default` of a parameter outside the
    input_signature (TF holds it to ``Literal[default]``)."""
    try:
        return value is default or bool(type(value) is type(default) and value == default)
    except Exception:  # (a value that does not compare: a tensor, an array)
        return False


def _call_stats_key(python_function):
    """What retracing is counted by: the code of the Python function (a method's, one
    wrapped by decorators), so that the same function redefined in a loop, or a method of
    new instances, shares the count (as in TF)."""
    target = python_function
    while hasattr(target, "__wrapped__"):
        target = target.__wrapped__
    target = getattr(target, "__func__", target)
    return getattr(target, "__code__", python_function)


class _RetracingMonitor:
    """Warns, as TF does, when most recent calls of a Python function traced it anew.

    Each function's recent calls are kept as groups: a call that traced starts one, the
    calls after it that did not trace join it.  The oldest groups are dropped while the
    calls after them number more than `WINDOW`; when `THRESHOLD` groups remain, a warning
    is logged, at most `MAX_WARNINGS` times per function.
    """
    WINDOW, THRESHOLD, MAX_WARNINGS = 10, 5, 2

    def __init__(self):
        self._stats = weakref.WeakKeyDictionary()  # stats key -> [groups, calls, warnings]

    def called(self, function, traced):
        stats = function._call_stats
        if stats is None:  # the first call: the counts kept for the function's code
            try:
                stats = self._stats.get(function._call_stats_key)
                if stats is None:
                    stats = self._stats[function._call_stats_key] = [[], 0, 0]
            except TypeError:  # a key that cannot be weakly referenced: not counted
                stats = False
            function._call_stats = stats
        if not stats:
            return
        groups = stats[0]
        stats[1] += 1
        if not traced:
            if not groups:  # (a concrete function got before the first call)
                groups.append(0)
            groups[-1] += 1
            return
        groups.append(1)
        while groups and stats[1] - groups[0] > self.WINDOW:
            stats[1] -= groups.pop(0)
        if len(groups) >= self.THRESHOLD and stats[2] < self.MAX_WARNINGS:
            stats[2] += 1
            _logger.warning("%s", _retracing_warning(function, len(groups), stats[1]))


def _retracing_warning(function, traces, calls):
    shown = getattr(function._python_function, "__func__", function._python_function)
    text = (f"{traces} out of the last {calls} calls to {shown!r} triggered tf.function "
            f"retracing. Each trace builds and compiles a new graph. Frequent retracing "
            f"usually comes from (1) defining the @tf.function inside a loop: define it once, "
            f"outside; (2) passing tensors whose shapes change: use reduce_retracing=True or an "
            f"input_signature with None for the dimensions that vary; (3) passing Python "
            f"values that change instead of tensors: pass tensors. See "
            f"https://www.tensorflow.org/guide/function#controlling_retracing.")
    # what changed between this function's own traces (none to tell where each trace was
    # another function's of the same code, but for the second a first makes variables)
    if len([r for r in function._reasons if r != _VARIABLES_RETRACE]) > 1:
        text += "\n" + function.experimental_explain_retracing()
    return text


_retracing_monitor = _RetracingMonitor()


class _Reasons(list):
    """Why each trace of a function happened, the earliest ones forgotten past a bound:
    `dropped` counts those."""

    dropped = 0

    def __init__(self):
        super().__init__()
        # `.count`: the traces the calling thread made (a call that ran while another
        # thread traced did not trace)
        self._here = threading.local()

    def append(self, reason):
        super().append(reason)
        self._here.count = self.made_here() + 1

    def made_here(self):
        """How many traces the calling thread made."""
        return getattr(self._here, "count", 0)

    def total(self):
        """How many traces happened."""
        return self.dropped + len(self)

    def forget_all_but(self, keep):
        drop = len(self) - keep
        if drop > 0:
            del self[:drop]
            self.dropped += drop


class _NoMoreVariables(list):
    """Where the variables made while a function traces go once it has made its own: a new
    one fails where it is created (so the error points at the user's line)."""

    def append(self, variable):
        raise ValueError(
            "tf.function only supports singleton tf.Variables created on the first call. Make "
            "sure the tf.Variable is only created once or created outside tf.function. See "
            "https://www.tensorflow.org/guide/function#creating_tfvariables for more "
            "information.")


_IR_STAGES = ("hlo", "hlo_serialized", "optimized_hlo", "optimized_hlo_serialized",
              "optimized_hlo_dot", "stablehlo", "stablehlo_serialized",
              "optimized_hlo_proto_serialized")


class FunctionSpec:
    """What ``Function.function_spec`` holds (TF's older description of a signature)."""

    def __init__(self, function_type, input_signature, jit_compile, fullargspec=None):
        self.function_type = function_type
        self.input_signature = input_signature
        self.jit_compile = jit_compile
        self._fullargspec = fullargspec

    @property
    def fullargspec(self):
        """The Python function's parameters as an ``inspect.FullArgSpec``."""
        if self._fullargspec is None:
            self._fullargspec = _fullargspec(self.function_type)
        return self._fullargspec


def _fullargspec(signature):
    """The ``inspect.FullArgSpec`` of an ``inspect.Signature``'s parameters."""
    P = inspect.Parameter
    params = list(signature.parameters.values()) if signature is not None else []
    args = [p.name for p in params if p.kind in (P.POSITIONAL_ONLY, P.POSITIONAL_OR_KEYWORD)]
    defaults = tuple(p.default for p in params if p.kind in (
        P.POSITIONAL_ONLY, P.POSITIONAL_OR_KEYWORD) and p.default is not p.empty)
    kwonly = [p for p in params if p.kind == P.KEYWORD_ONLY]
    kwdefaults = {p.name: p.default for p in kwonly if p.default is not p.empty}
    return inspect.FullArgSpec(
        args, next((p.name for p in params if p.kind == P.VAR_POSITIONAL), None),
        next((p.name for p in params if p.kind == P.VAR_KEYWORD), None), defaults or None,
        [p.name for p in kwonly], kwdefaults or None, {})


def _spec_names(structure):
    """The names the specs in `structure` declare (shown where they are printed)."""
    return frozenset(s.name for s in nest.flatten(structure)
                     if isinstance(s, TensorSpec) and s.name)


def _key_leaves(key):
    """The tensor keys within a call key, in the order `call_key` met the tensors."""
    if type(key) is not tuple:
        return []
    if key[:1] in (("T",), ("V",), ("D",)):
        return [key]
    if key[:1] in (("P",), ("O",), ("X",)):
        return []
    if len(key) >= 3 and type(key[1]) is tuple and key[1][:1] == ("shape",):
        # a composite: its (maybe relaxed) shape and fields, then its components' keys
        return [("C", key[1][1], key[2])] + [
            leaf for part in key[3:] for leaf in _key_leaves(part)]
    return [leaf for part in key for leaf in _key_leaves(part)]


def _placeholders(value, leaves, graph, name):
    """`value` with every tensor (or spec) replaced by a placeholder of `graph`.

    A variable stays itself, as in TF; the graph reaches it through a stand-in
    that each call binds to the variable it passes.
    """
    if isinstance(value, Variable):
        spec = trace_key.spec_of(next(leaves)) if leaves is not None else value
        stand_in = graph.variable_argument(value, spec.shape)
        if "_argument_name" not in stand_in.__dict__:  # (its placeholder's, as TF names it)
            stand_in._argument_name = graph.unique_name(name)
        return value
    if hasattr(type(value), "__tf_tracing_type__") and not isinstance(value, Tensor):
        return value.__tf_tracing_type__(None).placeholder_value(None)  # the tracing protocol
    as_argument = getattr(value, "_as_function_argument", None)
    if as_argument is not None:  # a dataset: a stand-in reaching the one each call passes
        spec = next(leaves)[1] if leaves is not None else as_argument()[0]
        return spec._stand_in(graph.placeholder(variant, [], name))
    if isinstance(value, (EagerTensor, TensorSpec, np.ndarray, np.number, np.bool_)) or (
            isinstance(value, Tensor) and not isinstance(value, Variable)):
        if leaves is None:
            spec = value if isinstance(value, TensorSpec) else TensorSpec(value.shape, value.dtype)
        else:
            spec = trace_key.spec_of(next(leaves))
        named = isinstance(value, TensorSpec) and value.name  # a spec's own name wins
        return graph.placeholder(spec.dtype, spec.shape, value.name if named else name)
    parts = trace_key.composite_parts(value)
    if parts is not None:  # a SparseTensor or its spec: one made of placeholders
        spec = getattr(value, "_type_spec", value)
        if leaves is not None:  # (of the trace's shape: relaxed, a call's may be known)
            _, dims, static = next(leaves)
            with_shape = getattr(spec, "_with_shape", None)
            if with_shape is not None:
                spec = with_shape(TensorShape(None if dims is None else list(dims)))
            if static:  # (an extension type's shape fields: the trace's, not the call's)
                spec = spec._with_static_key(static)
        return spec._from_components([_placeholders(p, leaves, graph, name) for p in parts])
    if isinstance(value, (list, tuple)) and not isinstance(value, str):
        items = [_placeholders(v, leaves, graph, name) for v in value]
        return type(value)(*items) if hasattr(type(value), "_fields") else type(value)(items)
    if isinstance(value, dict):  # (made in key order, as flattened; kept in the dict's order)
        made = {k: _placeholders(value[k], leaves, graph, name) for k in sorted(value)}
        # (a defaultdict traces as a dict, as in TF)
        kind = dict if isinstance(value, collections.defaultdict) else type(value)
        return kind((k, made[k]) for k in value)
    array = trace_key.as_array(value)
    if array is not None:  # (as its trace key)
        return _placeholders(array, leaves, graph, name)
    return value


def _graph_output(value, name):
    """A function result as a graph tensor (through an Identity, as TF does); None stays."""
    if value is None:
        return None
    spec = getattr(value, "_type_spec", None)
    if hasattr(spec, "_to_components"):  # a composite (SparseTensor): each component
        return spec._from_components([_graph_output(c, name)
                                      for c in spec._to_components(value)])
    return identity(output_tensor(value, name))


def output_tensor(value, name):
    """`value`, a result of the traced function `name`, as a tensor, or TF's TypeError."""
    try:
        return convert_to_tensor(value)
    except (TypeError, ValueError):
        raise TypeError(f"To be compatible with tf.function, Python functions must return "
                        f"zero or more Tensors or ExtensionTypes or None values; in "
                        f"compilation of {name}, found return value of type "
                        f"{type(value).__name__}, which is not a Tensor or "
                        f"ExtensionType.") from None


def _path_named(spec, value, name, top=False):
    """`spec` (a structured input's) with each `TensorSpec` inside a nest named by its path
    from the argument's `name` (``d_a``, ``y_0``), as TF names them, unless `value`, the
    argument given, declared one."""
    if isinstance(spec, TensorSpec):
        if top or isinstance(value, TensorSpec) and value.name:
            return spec
        return TensorSpec(spec.shape, spec.dtype, name)
    if isinstance(spec, dict) and isinstance(value, collections.abc.Mapping):
        return type(spec)((k, _path_named(spec[k], value[k], f"{name}_{k}")) for k in spec)
    if isinstance(spec, (list, tuple)) and isinstance(value, (list, tuple)) and \
            len(spec) == len(value):
        fields = getattr(type(spec), "_fields", None)
        items = [_path_named(s, v, f"{name}_{fields[i] if fields else i}")
                 for i, (s, v) in enumerate(zip(spec, value))]
        return type(spec)(*items) if fields else type(spec)(items)
    return spec


def _spec_or_value(value, graph):
    if hasattr(value, "_as_function_argument"):
        return value._as_function_argument()[0]
    spec = getattr(value, "_type_spec", None)
    if hasattr(spec, "_to_components"):  # a SparseTensor argument: its SparseTensorSpec
        return spec
    if isinstance(value, SymbolicTensor):
        return TensorSpec(value.shape, value.dtype, value.op.name)
    if isinstance(value, Variable):
        stand_in = graph.variable_arguments[id(value._handle)]
        return trace_key.VariableSpec(stand_in.shape, stand_in.dtype, stand_in.trainable,
                                      next(i for i, s in enumerate(graph.variable_inputs)
                                           if s is stand_in))
    return value


def _as_spec(spec):
    if isinstance(spec, (list, tuple)):
        items = [_as_spec(s) for s in spec]
        return type(spec)(*items) if hasattr(type(spec), "_fields") else type(spec)(items)
    if isinstance(spec, dict):
        return {k: _as_spec(v) for k, v in spec.items()}
    return spec


def _signature_type_text(spec):
    """A nested `input_signature` entry as TF's binding errors show it: containers in TF's
    type notation (``Dict[...]``, ``Tuple[...]``), specs as their repr."""
    if isinstance(spec, dict):
        return "Dict[" + ", ".join(f"[{k!r}, {_signature_type_text(v)}]"
                                   for k, v in spec.items()) + "]"
    fields = getattr(type(spec), "_fields", None)
    if fields is not None:  # a namedtuple: its class name, its fields by name
        return f"{type(spec).__name__}[" + ", ".join(
            f"[{f!r}, {_signature_type_text(s)}]" for f, s in zip(fields, spec)) + "]"
    if isinstance(spec, (list, tuple)):
        kind = "List" if isinstance(spec, list) else "Tuple"
        return f"{kind}[{', '.join(_signature_type_text(s) for s in spec)}]"
    return repr(spec)


def _check_signature(signature):
    """TF's TypeError for an `input_signature` that is not a list or tuple of (nested)
    specs."""
    if not isinstance(signature, (list, tuple)):
        raise TypeError(f"input_signature must be either a tuple or a list, got "
                        f"{type(signature)}.")
    invalid = []

    def walk(spec):
        if isinstance(spec, (list, tuple, dict)):
            for s in (spec.values() if isinstance(spec, dict) else spec):
                walk(s)
        elif not isinstance(spec, TensorSpec) and trace_key.composite_parts(spec) is None \
                and not hasattr(spec, "_argument_tensor"):
            invalid.append(spec)

    walk(signature)
    if invalid:
        raise TypeError(f"input_signature must be a possibly nested sequence of TensorSpec "
                        f"objects, got invalid args {invalid!r} with types "
                        f"{[type(s) for s in invalid]!r}.")


def binding_error(signature, error, args, kwargs):
    """TF's TypeError for `args` and `kwargs` that `signature` (an `inspect.Signature`) could
    not bind, `error` saying why; defaults show as TF shows captured ones."""
    shown = signature.replace(parameters=[
        p.replace(annotation=p.empty, default=p.default if p.default is p.empty
                  else _CAPTURED_DEFAULT) for p in signature.parameters.values()])
    return TypeError(f"Binding inputs to tf.function failed due to `{error}`. Received args: "
                     f"{args!r} and kwargs: {kwargs!r} for signature: {shown}.")


@export("function")
def function(func=None, input_signature=None, autograph=True, jit_compile=None,
             reduce_retracing=False, experimental_implements=None,
             experimental_autograph_options=None, experimental_attributes=None,
             experimental_relax_shapes=None, experimental_compile=None,
             experimental_follow_type_hints=None):
    """Compiles `func` into graphs: use as ``@function``, ``@function(...)`` or ``function(f)``.

    Traced once per input signature (tensors by dtype and shape, Python
    values by value); `input_signature` fixes one signature, `reduce_retracing`
    relaxes changing shapes to None.
    """
    reduce_retracing = reduce_retracing or bool(experimental_relax_shapes)
    jit_compile = jit_compile if experimental_compile is None else experimental_compile

    def decorate(f):
        if not callable(f):
            raise TypeError(f"{f!r} is not a callable object")
        return Function(f, input_signature=input_signature, autograph=autograph,
                        jit_compile=jit_compile, reduce_retracing=reduce_retracing,
                        autograph_options=experimental_autograph_options)
    return decorate if func is None else decorate(func)
