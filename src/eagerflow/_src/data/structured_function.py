"""User functions of dataset transformations, traced once and called per element.

`StructuredFunction` traces the user's function with `function` (AutoGraph
converts it) on symbolic inputs made from the input element spec, as TF's
``StructuredFunctionWrapper`` does: a tuple element is unpacked into
positional arguments, anything else (a dict, a single tensor) is one
argument.  Python code in the function runs once, at trace time; the traced
graph then runs for every element on flat tuples of arrays.
"""
import contextlib
import copy
import threading
import warnings

import numpy as np

from eagerflow._src import backend
from eagerflow._src.core import context
from eagerflow._src.core.convert import convert_to_tensor
from eagerflow._src.core.tensor import EagerTensor, Tensor
from eagerflow._src.core.tensor_spec import TensorSpec
from eagerflow._src.core.variables import Variable
from eagerflow._src.data import structure
from eagerflow._src.data.optional_ops import Optional, OptionalSpec
from eagerflow._src.function import autograph_slot
from eagerflow._src.function.polymorphic_function import Function
from eagerflow._src.ops.extension_type import ExtensionType
from eagerflow._src.ops.random_ops import draw_scope, enter_draw_scope, exit_draw_scope
from eagerflow._src.ops.sparse_tensor import SparseTensor, SparseTensorSpec
from eagerflow._src.ragged.ragged_tensor import RaggedTensor, RaggedTensorSpec

_new = object.__new__
_UNSET = object()


def _should_unpack(element):
    return type(element) is tuple


def _normalize_output(value):
    """A function's result as a dataset element, every leaf a tensor: a list returned is a
    tuple, a list inside the result one tensor (TF's rules)."""
    if isinstance(value, list):
        value = tuple(value)

    def fix(v):
        if hasattr(v, "_iterator") and hasattr(v, "element_spec"):  # a dataset
            raise ReturnsDatasets
        if isinstance(v, list):
            return _packed(v)
        if isinstance(v, tuple) and not hasattr(type(v), "_fields"):
            return tuple(fix(x) for x in v)
        if isinstance(v, tuple):
            return type(v)(*[fix(x) for x in v])
        if isinstance(v, dict):
            return type(v)((k, fix(x)) for k, x in v.items())
        if isinstance(v, Variable):
            return v.read_value()
        if v is None or isinstance(v, (Tensor, SparseTensor, RaggedTensor, ExtensionType,
                                       Optional)):
            return v
        return convert_to_tensor(v)
    return fix(value)


class ReturnsDatasets(Exception):
    """Raised while tracing a function whose result holds datasets (`map` then calls it per
    element instead)."""


class ReturnsNothing(Exception):
    """Raised while tracing a `map` function that returns None or an empty structure: TF's
    map op then refuses its empty list of output types."""


def _packed(values):
    """A (nested) Python list of tensors and numbers as one tensor, stacked."""
    from eagerflow._src.ops.array_ops import stack  # noqa: PLC0415
    if any(isinstance(v, (Tensor, Variable, list)) for v in values):
        return stack([_packed(v) if isinstance(v, list) else v for v in values])
    return convert_to_tensor(values)


_reuse = threading.local()  # .traces: the cache in force on this thread, or None


@contextlib.contextmanager
def reusing_traces(cache):
    """Within the block, `traced` hands back the trace it made before for the same function
    and input spec (a function returning datasets runs per element, and TF traces the
    functions of the datasets it builds once, not once per element)."""
    saved = getattr(_reuse, "traces", None)
    _reuse.traces = cache
    try:
        yield
    finally:
        _reuse.traces = saved


def traced(func, name, spec):
    """`func` traced for elements of `spec` (see `reusing_traces`)."""
    cache = getattr(_reuse, "traces", None)
    if cache is None:
        return StructuredFunction(func, name, spec).trace()
    key = (func, name, repr(spec))
    found = cache.get(key)
    if found is None:
        found = cache[key] = StructuredFunction(func, name, spec).trace()
    return found


class StructuredFunction:
    """`func` traced for elements of `input_spec`; calling it maps a flat tuple of arrays to
    the flat tuple of arrays of its result, whose spec is `output_spec`."""

    def __init__(self, func, transformation_name, input_spec, use_autograph=True):
        self._func = func
        self._name = transformation_name
        self.input_spec = input_spec
        self.output_spec = None
        self.output_structure = None
        flat_specs = structure.flatten(input_spec)
        for spec in flat_specs:
            if not isinstance(spec, (TensorSpec,) + structure.COMPOSITE_SPECS):
                raise TypeError(f"{transformation_name} cannot take elements that are "
                                f"datasets ({spec!r}); map, flat_map and interleave can.")
        # a sparse leaf is three arguments of the traced function: its components (a ragged
        # one its flat values and row splits)
        self._sparse_in = any(isinstance(s, structure.COMPOSITE_SPECS) for s in flat_specs)
        self._sparse_out = False
        leaf_specs = flat_specs
        if self._sparse_in:
            flat_specs = [c for s in flat_specs for c in _components(s)]
        n_in = len(flat_specs)
        unpack = self._unpack = _should_unpack(input_spec)

        def traced(*args):  # (its placeholders are named args_0, args_1, ... as in TF)
            # TF's tf.data functions keep their divisions by constants (no reciprocal product)
            context.get().graph.keeps_divisions = True
            args = _leaves(leaf_specs, args[:n_in]) if self._sparse_in else args[:n_in]
            element = structure.pack(input_spec, args)
            args = tuple(element) if unpack else (element,)
            if use_autograph and autograph_slot.call is not None:
                result = autograph_slot.call(func, args, {})
            else:
                result = func(*args)
            if transformation_name == "Dataset.map()" and (
                    result is None or isinstance(result, (tuple, list, dict))
                    and all(v is None for v in structure.flatten(
                        tuple(result) if isinstance(result, list) else result))):
                raise ReturnsNothing  # (an empty list too: TF returns it as a tuple)
            try:
                result = _normalize_output(result)
            except (TypeError, ValueError):
                raise TypeError(f"Unsupported return value from function passed to "
                                f"{transformation_name}: {result}.") from None
            self.output_structure = result
            self.output_spec = structure.spec_of(result)
            flat = structure.flatten(result)
            self._sparse_out = any(map(structure.is_composite, flat))
            if self._sparse_out:
                flat = [c for t in flat for c in structure.components(t)]
            return tuple(flat)

        name = getattr(func, "__name__", "fn")
        if not isinstance(name, str) or not name.isidentifier():
            name = "lambda"
        traced.__name__ = f"{name}"
        self._function = Function(traced, name=name, autograph=False)
        self._specs = flat_specs
        self._concrete = None
        self._chunked = _UNSET

    def trace(self, flat_specs=None):
        specs = flat_specs if flat_specs is not None else self._specs
        self._concrete = self._function.get_concrete_function(*specs)
        self._n_out = len(structure.flatten(self.output_spec))
        graph = getattr(self._concrete, "graph", None)
        if graph is not None and flat_specs is None:
            self._warn_of_outer_seed(graph)
        if graph is not None:
            # (keys naming each random op alike in every trace of the function: a dataset
            # iterator keeps its ops' states under them, see `random_ops.draw_scope`)
            code = getattr(self._func, "__code__", self._func)
            states = self._op_states = _op_states(graph)
            for i, state in enumerate(states):
                state._key = (code, i)
        return self

    def _warn_of_outer_seed(self, graph):
        """TF's warning when a function made inside a graph of a seed (a `tf.function`'s
        under `set_seed`, or a TF 1 graph's) has random ops of no seed, which take it."""
        outer = context.get().graph
        outer_seed = None if outer is None else outer.seed
        if outer_seed and graph.seed == outer_seed and graph.seed_used:
            name = getattr(self._func, "__name__", type(self._func).__name__)
            name = f"{self._name.replace('.', '_')[:-2]}_{name}"
            for symbol in "<>\\' ":
                name = name.replace(symbol, "")
            warnings.warn(f"Seed {outer_seed} from outer graph might be getting used by "
                          f"function {name}, if the random op has not been provided any "
                          f"seed. Explicitly set the seed in the function if this is not the "
                          f"intended behavior.", stacklevel=5)

    def __call__(self, arrays):
        """The flat tuple of arrays of the function applied to one element's arrays.

        On the host, the compiled graph runs on the arrays directly: a pipeline's functions
        are not recorded by the caller's tapes (as in TF), elements stay values even while
        a function traces around the loop, and this spares wrapping each element in
        tensors (a third of the cost of a small map).
        """
        if debug_mode:
            return self._run_python(arrays)
        if self._sparse_in or self._sparse_out:
            return self._run_sparse(arrays)
        if context.get().xp is backend.numpy_module:
            return tuple(self._concrete._run(*arrays))
        tensors = []
        for a in arrays:
            t = _new(EagerTensor)
            t._data = a
            tensors.append(t)
        out = self._concrete.call_flat(tensors)
        return tuple(t._data for t in out)

    def restart_draws(self):
        """Restarts the sequences of the function's seeded random ops: each iterator of a
        dataset draws them from the start, as TF instantiates the function per iterator.
        True when it has such ops."""
        states = self.__dict__.get("_op_states")
        if states is None:
            concrete = getattr(self._concrete, "graph", None)
            states = self._op_states = [] if concrete is None else _op_states(concrete)
        for state in states:
            state.restart()
        return bool(states)

    def chunked(self):
        """``run(arrays) -> arrays``: the function run once for a chunk of elements (each
        flat array with a leading axis, one entry per element), giving every element what
        `__call__` would, its random ops drawing each element's values in turn; or None
        where the graph cannot run so (see `graph.vectorize`).

        A chunk fails where an element fails, or where its elements' values (of shapes
        the graph does not fix) do not stack: the caller then maps it element by element,
        after `random_ops.Draws` gave the chunk's draws back.
        """
        if self._chunked is _UNSET:
            self._chunked = self._make_chunked()
        if debug_mode or context.get().xp is not backend.numpy_module:
            return None
        return self._chunked

    def _make_chunked(self):
        from eagerflow._src.function.concrete_function import ConcreteFunction  # noqa: PLC0415
        from eagerflow._src.graph import vectorize  # noqa: PLC0415
        from eagerflow._src.graph.passes.pipeline import optimize  # noqa: PLC0415
        concrete = self._concrete
        if (self._sparse_in or self._sparse_out or type(concrete) is not ConcreteFunction
                or concrete._foreign or concrete._variable_inputs or not concrete._inputs):
            return None
        program = optimize(concrete.graph, concrete._inputs, concrete.outputs)
        return vectorize.batched(program.operations, concrete._inputs, program.outputs,
                                 set(range(len(concrete._inputs))), runs=True)

    def _run_sparse(self, arrays):
        """`__call__` for elements holding sparse tensors: their components in, and out."""
        flat = []
        for a, s in zip(arrays, structure.flatten(self.input_spec)):
            flat.extend(structure.sparse_arrays(a) if isinstance(a, SparseTensor) else
                        structure.ragged_arrays(a) if isinstance(s, RaggedTensorSpec) else
                        () if a is None else (a,))
        out = iter(self._concrete._run(*flat))
        return tuple(structure.sparse_value(next(out), next(out), next(out))
                     if isinstance(s, SparseTensorSpec) else
                     structure.ragged_value(s, [next(out) for _ in s._component_specs])
                     if isinstance(s, RaggedTensorSpec) else
                     None if isinstance(s, structure.NoneTensorSpec) else next(out)
                     for s in structure.flatten(self.output_spec))

    def foreign_tensors(self):
        """The tensors of an enclosing function's graph this function captured (a map
        function closing over the function's arguments), by id."""
        concrete = self._concrete
        return {} if concrete is None else {id(t): t for t in concrete._foreign}

    def fed(self, values):
        """A copy of this function whose captured enclosing tensors take `values` (eager
        tensors by the symbolic ones' ids): one call of the enclosing function's."""
        from eagerflow._src.graph.specialize import ShapeSpecialized  # noqa: PLC0415
        concrete = self._concrete
        foreign = {id(t) for t in concrete._foreign}
        captured = [(outer, inner) for outer, inner in concrete.graph.captures
                    if id(outer) in foreign]
        program = getattr(concrete, "_fed_program", None)
        if program is None:  # (compiled once, fed on every call)
            program = concrete._fed_program = ShapeSpecialized(
                concrete.graph, [*concrete._inputs, *(inner for _, inner in captured)],
                concrete.outputs, concrete._name)
        bound = copy.copy(self)
        bound._concrete = _Fed(program, [values[id(outer)]._data for outer, _ in captured])
        return bound

    def _run_python(self, arrays):
        """The Python function itself run eagerly on the element (debug mode)."""
        element = structure.pack(self.input_spec, [
            a if a is None or isinstance(a, (SparseTensor, RaggedTensor, EagerTensor))
            else structure.wrap(a)
            for a in arrays])
        result = self._func(*(tuple(element) if self._unpack else (element,)))
        return tuple(_eager_leaf(t) for t in structure.flatten(_normalize_output(result)))


class Scoped:
    """An iterator making its elements with a dataset iterator's random-op scope in force
    (`random_ops.draw_scope`): the place in the pipeline its functions draw for."""

    __slots__ = ("_it", "_scope")

    def __init__(self, it, scope):
        self._it, self._scope = it, scope

    def __iter__(self):
        return self

    def __next__(self):
        token = enter_draw_scope(self._scope)
        try:
            return next(self._it)
        finally:
            exit_draw_scope(token)

    def close(self, wait=False):
        close = getattr(self._it, "close", None)
        if close is not None:
            close(wait=True) if wait and hasattr(self._it, "_thread") else close()


def branch_iterator(dataset, key):
    """``dataset._iterator()`` as input `key` of the node being iterated: its functions'
    random ops draw their own sequences there (the inputs of a zip or a concatenation),
    one for all the datasets iterated under the same key (a flat_map's)."""
    scope = draw_scope()
    if scope is None:
        return dataset._iterator()
    scope = (scope[0], scope[1] + (key,))
    token = enter_draw_scope(scope)
    try:
        it = dataset._iterator()
    finally:
        exit_draw_scope(token)
    return Scoped(it, scope)


def in_draw_scope(it):
    """`it`, keeping the random-op scope in force now for when another thread runs it."""
    scope = draw_scope()
    return it if scope is None or type(it) is Scoped else Scoped(it, scope)


def scoped_call(fn):
    """`fn`, called with the random-op scope in force now (on whatever thread)."""
    scope = draw_scope()
    if scope is None:
        return fn

    def call(arrays):
        token = enter_draw_scope(scope)
        try:
            return fn(arrays)
        finally:
            exit_draw_scope(token)
    return call


def _op_states(graph):
    """The states of the seeded random ops of `graph` and of the functions its ops call."""
    from eagerflow._src.ops.random_ops import _OpState  # noqa: PLC0415
    found, seen, graphs = [], set(), [graph]
    while graphs:
        g = graphs.pop()
        if id(g) in seen:
            continue
        seen.add(id(g))
        graphs.extend(getattr(f, "graph", f) for f in getattr(g, "functions", {}).values())
        for op in g.get_operations():
            for value in op.attrs.values():
                if type(value) is _OpState:
                    found.append(value)
                elif hasattr(getattr(value, "graph", None), "get_operations"):
                    graphs.append(value.graph)
    return found


def _eager_leaf(t):
    if isinstance(t, SparseTensor):
        return structure.sparse_value(*(c._data for c in (t.indices, t.values, t.dense_shape)))
    return structure.flat_value(t)


def _components(spec):
    """The specs of the arguments a leaf of `spec` is passed as (three for a sparse one)."""
    return spec._component_specs if isinstance(spec, structure.COMPOSITE_SPECS) else (spec,)


def _leaves(leaf_specs, args):
    """The leaves made from the traced function's arguments (sparse ones from three)."""
    it = iter(args)
    return [sparse_argument(s, (next(it), next(it), next(it)))
            if isinstance(s, SparseTensorSpec) else
            s._from_components([next(it) for _ in s._component_specs])
            if isinstance(s, (RaggedTensorSpec, structure.NoneTensorSpec, OptionalSpec))
            else next(it)
            for s in leaf_specs]


def sparse_argument(spec, components):
    """A sparse argument whose dense shape holds what `spec` knows as constants (as TF's
    functions see it), so results made from it (``with_values``) keep the static shape."""
    indices, values, dense_shape = components
    dims = spec.shape.as_list() if spec.shape.rank is not None else None
    if dims is not None and any(d is not None for d in dims):
        from eagerflow._src.ops import array_ops  # noqa: PLC0415
        known = convert_to_tensor(np.array([0 if d is None else d for d in dims], np.int64))
        dense_shape = known if None not in dims else array_ops.stack([
            dense_shape[i] if d is None else known[i] for i, d in enumerate(dims)])
    return spec._from_components((indices, values, dense_shape))


class _Fed:
    """A compiled function with its trailing inputs fed: what `StructuredFunction` calls."""

    def __init__(self, program, extra):
        self._program = program
        self._extra = extra

    def _run(self, *arrays):
        return self._program(*arrays, *self._extra)

    def call_flat(self, tensors):
        return [EagerTensor._wrap(a) for a in self._run(*(t._data for t in tensors))]


# Set by ``tf.data.experimental.enable_debug_mode()``: functions run as Python, eagerly.
debug_mode = False
