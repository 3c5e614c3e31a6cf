"""User functions of dataset transformations, traced once and called per element.

`StructuredFunction` traces the user's function with `function` (AutoGraph
converts it) on symbolic inputs made from the input element spec, as TF's
``StructuredFunctionWrapper`` does: a tuple element is unpacked into
positional arguments, anything else (a dict, a single tensor) is one
argument.  Python code in the function runs once, at trace time; the traced
graph then runs for every element on flat tuples of arrays.
"""
import contextlib
import threading

from eagerflow._src import backend
from eagerflow._src.core import context
from eagerflow._src.core.convert import convert_to_tensor
from eagerflow._src.core.tensor import EagerTensor, Tensor
from eagerflow._src.core.tensor_spec import TensorSpec
from eagerflow._src.core.variables import Variable
from eagerflow._src.data import structure
from eagerflow._src.function import autograph_slot
from eagerflow._src.function.polymorphic_function import Function

_new = object.__new__


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
        if isinstance(v, Tensor):
            return v
        return convert_to_tensor(v)
    return fix(value)


class ReturnsDatasets(Exception):
    """Raised while tracing a function whose result holds datasets (`map` then calls it per
    element instead)."""


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
            if not isinstance(spec, TensorSpec):
                raise TypeError(f"{transformation_name} cannot take elements that are "
                                f"datasets ({spec!r}); map, flat_map and interleave can.")
        n_in = len(flat_specs)
        unpack = self._unpack = _should_unpack(input_spec)

        def traced(*args):  # (its placeholders are named args_0, args_1, ... as in TF)
            element = structure.pack(input_spec, args[:n_in])
            args = tuple(element) if unpack else (element,)
            if use_autograph and autograph_slot.call is not None:
                result = autograph_slot.call(func, args, {})
            else:
                result = func(*args)
            result = _normalize_output(result)
            self.output_structure = result
            self.output_spec = structure.map_structure(
                lambda t: TensorSpec(t.shape, t.dtype), result)
            return tuple(structure.flatten(result))

        name = getattr(func, "__name__", "fn")
        if not isinstance(name, str) or not name.isidentifier():
            name = "lambda"
        traced.__name__ = f"{name}"
        self._function = Function(traced, name=name, autograph=False)
        self._specs = flat_specs
        self._concrete = None

    def trace(self, flat_specs=None):
        specs = flat_specs if flat_specs is not None else self._specs
        self._concrete = self._function.get_concrete_function(*specs)
        self._n_out = len(structure.flatten(self.output_spec))
        return self

    def __call__(self, arrays):
        """The flat tuple of arrays of the function applied to one element's arrays.

        On the host, the compiled graph runs on the arrays directly: a pipeline's functions
        are not recorded by the caller's tapes (as in TF), elements stay values even while
        a function traces around the loop, and this spares wrapping each element in
        tensors (a third of the cost of a small map).
        """
        if debug_mode:
            return self._run_python(arrays)
        if context.get().xp is backend.numpy_module:
            return tuple(self._concrete._run(*arrays))
        tensors = []
        for a in arrays:
            t = _new(EagerTensor)
            t._data = a
            tensors.append(t)
        out = self._concrete.call_flat(tensors)
        return tuple(t._data for t in out)

    def _run_python(self, arrays):
        """The Python function itself run eagerly on the element (debug mode)."""
        element = structure.pack(self.input_spec, [structure.wrap(a) for a in arrays])
        result = self._func(*(tuple(element) if self._unpack else (element,)))
        return tuple(t._data for t in structure.flatten(_normalize_output(result)))


# Set by ``tf.data.experimental.enable_debug_mode()``: functions run as Python, eagerly.
debug_mode = False
