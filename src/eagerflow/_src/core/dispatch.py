"""`dispatch`: the one entry point through which every op runs.

1. eager: run the kernel now and wrap the result in `EagerTensor`s;
2. tracing: hand the op to the graph being built (``state.graph.create_op``);
3. recording: let every active recorder (tape) see the op, in both modes.

The eager path with no tape active is a handful of attribute lookups on top
of the kernel call. Elementwise ops' public functions are built here
(`unary_function`, `binary_function`): with no tape, graph or device in the
way they call the op's direct host function themselves (`OpDef.direct`, the
NumPy ufunc for most), and hand every other case to `dispatch`.
"""
import contextlib
import functools
import threading

import numpy as np

from eagerflow._src.backend import tracebacks
from eagerflow._src.backend.api_export import (SymbolicCall, dispatch_call, dispatches_itself,
                                               with_parameter_names)
from eagerflow._src.core import errors
from eagerflow._src.core import context
from eagerflow._src.core.node_forms import tf_nodes
from eagerflow._src.core.registry import check_dtypes
from eagerflow._src.core.tensor import EagerTensor
from eagerflow._src.core.dtypes import DType

_NO_ATTRS = {}
_LISTS = (list, tuple)
_numpy = np
_new = object.__new__
_wrap = EagerTensor._wrap
_context = context._lookup
_get_context = context.get
_KERNEL_ERRORS = (ValueError, TypeError, IndexError, ArithmeticError, np.linalg.LinAlgError)
_FAILURES = (errors.OpError,) + _KERNEL_ERRORS


def dispatch(op, inputs, attrs=_NO_ATTRS, name=None):
    """Runs `op` on `inputs` (tensors, or variables for resource ops) with `attrs`.

    Returns one tensor, or a tuple of tensors for multi-output ops.
    """
    s = _context(None) or _get_context()
    if s.fast:
        kernel = op.host_kernel
    elif s.graph is not None:
        return _record(s, op, inputs, attrs, s.graph.create_op(op, inputs, attrs, name))
    elif s.xp is _numpy:  # recording on the host: the same direct kernel
        kernel = op.host_kernel
    else:
        kernel = functools.partial(op.kernel, s.xp)
    try:
        n = len(inputs)
        if n == 2 and op.tied_pair and not attrs:
            # The common binary case, with TF's type attribute checked inline.
            x, y = inputs
            x, y = arrays = (x._data, y._data)
            first = x.dtype
            if y.dtype is not first or op.allowed is not None and first not in op.allowed:
                check_dtypes(op, [first, y.dtype])
            out = kernel(x, y)
        elif n == 1:  # unary ops, reductions, variable reads
            arrays = (inputs[0]._data,)
            if (op.allowed is not None and op.tied and op.tied[0] == 0
                    and arrays[0].dtype not in op.allowed):
                check_dtypes(op, [arrays[0].dtype])
            out = kernel(arrays[0], **attrs)
        else:
            arrays = [t._data for t in inputs]
            if op.tied:
                _check_tied(op, arrays if op.tail_attr is None else op.listed(arrays, attrs))
            out = kernel(*arrays, **attrs)
    except _FAILURES as e:
        raise _named_error(op, arrays, e, name, attrs) from None
    except AttributeError:
        fed = _fed_inputs(inputs)
        if fed is not None:
            return dispatch(op, fed, attrs, name)
        graph = _graph_of(inputs)
        if graph is None:
            raise
        return graph.create_op(op, inputs, attrs, name)
    if op.multi:
        result = tuple(map(_wrap, out))
    else:
        result = _new(EagerTensor)
        result._data = out
    if s.fast:
        return result
    if s.logical_device is not None and not op.multi:  # (`_wrap` marks each of several)
        result._device = s.logical_device
    for recorder in s.recorders:
        recorder.record(op, inputs, attrs, result)
    return result


def unary_function(op, convert, composite=None, listed=True, arg="x"):
    """``fn(x, name=None)``: `dispatch` of one-input `op` without attrs, a non-`EagerTensor` `x`
    made a tensor by ``convert(x)`` first (unless ``composite(fn, x, name)``, given, returns
    the result for such an `x`: a sparse tensor's values mapped). With `listed` (TF's wrapper
    passes `x` to the op as it is), a Python list `x` gives TF's error of the op's slower
    path, without the name (see `errors.listed`). `arg`: the name of `x` that callers pass
    it by (TF's function's: ``features`` for ``nn.relu``).

    Elementwise ops' eager path: in the fast context (no tape, no graph, host arrays) it
    calls the op's direct host function for x's dtype (see `OpDef.direct`), one call in all.
    Its dispatch support (see `api_export`) is on the path of other operands, costing the
    fast path nothing.
    """
    @dispatches_itself
    def fn(x, name=None):
        if type(x) is not EagerTensor:
            if composite is not None:
                result = composite(fn, x, name)
                if result is not NotImplemented:
                    return result
            try:
                return dispatch(op, (convert(x),), _NO_ATTRS, name)
            except SymbolicCall:
                return dispatch_call(fn, {arg: x, "name": name})
            except errors.OpError as e:
                if not listed:
                    raise
                raise errors.listed(e, x) from None
        if (_context(None) or _get_context()).fast:
            data = x._data
            kernel = op.direct.get(data.dtype)
            if kernel is not None:
                try:
                    out = kernel(data)
                except _FAILURES as e:
                    raise _named_error(op, (data,), e, name) from None
                result = EagerTensor()  # (no __init__: cheaper than object.__new__)
                result._data = out
                return result
        return dispatch(op, (x,), _NO_ATTRS, name)
    return fn if arg == "x" else with_parameter_names(fn, (arg,))


_PYTHON_OPERANDS = (bool, int, float, complex, str, bytes)


def graph_operand_error(op, x, y, error):
    """`error`, raised converting a Python operand of `op` to its tensor operand's dtype,
    as TF words it while a graph is built (its op wrapper checks the operand: "Expected
    int32 passed to parameter 'y' of op 'Sub', ..."); eagerly it stays as it is."""
    if not str(error).startswith("Cannot convert") or context.executing_eagerly():
        return error
    tensor, value = (x, y) if type(y) in _PYTHON_OPERANDS else (y, x)
    dtype = getattr(getattr(tensor, "dtype", None), "name", None)
    if type(value) not in _PYTHON_OPERANDS or dtype is None:
        return error
    got = f"got {value!r} of type '{type(value).__name__}'"
    if value is x:  # (TF converts a left Python operand on its own: the bare check)
        return TypeError(f"Expected {dtype}, but {got}.")
    return TypeError(f"Expected {dtype} passed to parameter 'y' of op '{op.name}', {got} "
                     f"instead. Error: Expected {dtype}, but {got}.")


def binary_function(op, convert, listed=False, args=("x", "y")):
    """``fn(x, y, name=None)``: `dispatch` of two-input `op` without attrs, the operands made
    tensors by ``convert(x, y)`` unless both are `EagerTensor`s; as `unary_function`, it calls
    the op's direct host function when both have one dtype. With `listed` (TF's wrapper passes
    its operands to the op as they are), a Python list or tuple operand gives TF's error of
    the op's slower path, without the name (see `errors.listed`). `args`: the names of `x`
    and `y` that callers pass them by (TF's function's: ``a`` and ``x`` for ``igamma``)."""
    @dispatches_itself
    def fn(x, y, name=None):
        if type(x) is not EagerTensor or type(y) is not EagerTensor:
            try:
                a, b = convert(x, y)
                if type(a) is not EagerTensor or type(b) is not EagerTensor:
                    return dispatch(op, (a, b), _NO_ATTRS, name)
            except SymbolicCall:
                return dispatch_call(fn, {args[0]: x, args[1]: y, "name": name})
            except TypeError as e:
                raise tracebacks.filtered(graph_operand_error(op, x, y, e)) from None
            if listed and (type(x) in _LISTS or type(y) in _LISTS):
                try:
                    return fn(a, b, name)
                except errors.OpError as e:
                    raise errors.without_name(e) from None
            x, y = a, b
        if (_context(None) or _get_context()).fast:
            a = x._data
            b = y._data
            dtype = a.dtype
            kernel = op.direct.get(dtype) if b.dtype is dtype else None
            if kernel is not None:
                try:
                    out = kernel(a, b)
                except _FAILURES as e:
                    raise _named_error(op, (a, b), e, name) from None
                result = EagerTensor()
                result._data = out
                return result
        try:
            return dispatch(op, (x, y), _NO_ATTRS, name)
        except Exception as e:  # (as operators call it: an error shown at the caller's line)
            raise tracebacks.filtered(e)  # noqa: B904 (the same error)
    return fn if args == ("x", "y") else with_parameter_names(fn, args)


def _named_error(op, arrays, exc, name, attrs=_NO_ATTRS):
    """The TF error to raise for `exc`, the failure of eager `op` called with `name`, in TF's
    form (see `errors.eager_message`).  An error raised before the kernel ran (its inputs'
    dtypes) has its ``[Op:X]`` tag already and only gains the name; one in TF's form
    already (an op run inside `op`'s kernel, or a function's, failed) is kept."""
    if not isinstance(exc, errors.OpError):
        translated = kernel_error(op, arrays, exc)
        if translated is None:
            return exc
        exc = translated
    text = exc.message
    if text.startswith(("{{function_node", "Graph execution error:")) or getattr(
            exc, "python_raised", False):
        return exc
    name = getattr(name, "eager", name) or ""
    if getattr(exc, "before_kernel", False):
        return type(exc)(None, None, f"{text} name: {name}")
    text, tagged = errors.split_tag(text)
    dtype = getattr(arrays[0], "dtype", None) if len(arrays) else None
    return type(exc)(None, None, errors.eager_message(
        text, tagged or op.name, _counts(op, arrays, attrs), name, dtype))


def _counts(op, arrays, attrs):
    """The sizes of `op`'s lists of inputs or outputs that TF's one-op function for it is
    named by: ``(("N", 2),)`` for a `ConcatV2` of two tensors."""
    form = tf_nodes.get(op)
    counts = []
    if form is not None and form.number:
        counts.append((form.number, len(arrays)))
    elif form is not None and form.rewrite is not None and "N" in form.ignored:
        # an N the form's rewrite counts (the pairs of a DynamicStitch, SparseConcat's inputs)
        counts.append(("N", form.rewrite(dict(attrs), arrays)["N"]))
    if form is not None and form.types:
        for attr, source in form.types.items():  # ``"*<i>"``: the inputs' dtypes from i on
            if isinstance(source, str) and source.startswith("*") and attr not in attrs:
                counts.append((attr, max(len(arrays) - int(source[1:] or 0), 0)))
    for attr, value in attrs.items():
        if attr in _NUMBER_ATTRS and isinstance(value, int):
            counts.append((attr, value))
        elif (type(value) is tuple and value and isinstance(value[0], DType)) or (
                value == () and attr in _TYPE_LIST_ATTRS):
            counts.append((attr, len(value)))  # a list(type) attr (DecodeCSV's OUT_TYPE)
    return sorted(counts) if len(counts) > 1 else counts  # TF names them in attr order


# int attrs that size an op's outputs (Unpack's, Split's, ParseExampleV2's sparse ones)
_NUMBER_ATTRS = frozenset({"num", "num_split", "num_sparse", "Ncontext_sparse",
                           "Nfeature_list_sparse", "Nfeature_list_dense"})
# list(type) attrs an op may leave empty (an empty tuple says no dtype)
_TYPE_LIST_ATTRS = frozenset({"sparse_types", "ragged_value_types", "ragged_split_types",
                              "Tdense", "Tin", "Tout", "OUT_TYPE", "dtypes", "T",
                              "output_types", "Toutput_types", "Tcomponents",
                              "Tcontext_dense", "context_sparse_types",
                              "context_ragged_value_types", "context_ragged_split_types",
                              "feature_list_dense_types", "feature_list_sparse_types",
                              "feature_list_ragged_value_types",
                              "feature_list_ragged_split_types"})


def _check_tied(op, arrays):
    """Tied inputs share one allowed dtype; `check_dtypes` explains a failure."""
    tied = op.tied
    if tied[0] >= len(arrays):
        return
    first = arrays[tied[0]].dtype
    if op.allowed is not None and first not in op.allowed or any(
            arrays[i].dtype is not first
            for i in (range(len(arrays)) if op.variadic else op.tied_rest)):
        check_dtypes(op, [getattr(a, "dtype", None) for a in arrays])  # handles have none


def _record(ctx, op, inputs, attrs, result):
    for recorder in ctx.recorders:
        recorder.record(op, inputs, attrs, result)
    return result


_feeds = threading.local()  # .values: the values fed in force on this thread, or None


@contextlib.contextmanager
def feeding(values):
    """Within the block, an eager op given a symbolic tensor that `values` holds (eager
    tensors by the symbolic ones' ids) runs on that value instead.

    A dataset function (``flat_map``'s) runs eagerly per element while the function that
    built its dataset runs: the tensors of that function it closed over are this call's
    values then, as they are in TF's dataset function, which the call feeds.
    """
    saved = getattr(_feeds, "values", None)
    _feeds.values = values if saved is None else {**saved, **values}
    try:
        yield
    finally:
        _feeds.values = saved


def fed_values():
    """The values `feeding` holds on this thread (None outside it)."""
    return getattr(_feeds, "values", None)


def _fed_inputs(inputs):
    """`inputs` with the symbolic tensors `feeding` holds values for replaced by them (None
    when there are none, or some symbolic input is not fed)."""
    values = getattr(_feeds, "values", None)
    if not values:
        return None
    fed = []
    for t in inputs:
        if not hasattr(t, "_data"):
            t = values.get(id(t))
            if t is None:
                return None
        fed.append(t)
    return fed


def _graph_of(inputs):
    """The graph of the symbolic tensors among `inputs` when ops on them join it.

    A graph whose tensors are meant to be combined by ordinary code (Keras's
    functional-model graph) says so with `lifts_eager_ops`; a tensor that
    leaked out of any other graph is an error.
    """
    for t in inputs:
        if not hasattr(t, "_data"):
            graph = getattr(t, "graph", None)
            if graph is None:
                return None
            if not graph.lifts_eager_ops:
                raise TypeError(  # TF's message
                    f"{t!r} is out of scope and cannot be used here. Use return values, "
                    f"explicit Python locals or TensorFlow collections to access it.\nPlease "
                    f"see https://www.tensorflow.org/guide/function#all_outputs_of_a_tffunction"
                    f"_must_be_return_values for more information.\n\nThe tensor {t!r} "
                    f"cannot be accessed from here, because it was defined in "
                    f"FuncGraph(name={graph.name}, id={id(graph)}), which is out of scope.")
            return graph
    return None


def kernel_error(op, arrays, exc):
    """TF's InvalidArgumentError for a kernel's failure, naming the op (and shapes).

    None when `exc` is not one of the errors kernels raise for bad inputs.
    """
    if not isinstance(exc, _KERNEL_ERRORS):
        return None
    msg = str(exc)
    if "could not be broadcast" in msg or "cannot be broadcast to a single shape" in msg:
        shapes = " vs. ".join(str(list(getattr(a, "shape", ()))).replace(" ", "")
                              for a in arrays[:2])
        msg = f"Incompatible shapes: {shapes}"
    return errors.InvalidArgumentError(None, op.name, f"{msg} [Op:{op.name}]")
