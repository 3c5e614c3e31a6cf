"""`dispatch`: the one entry point through which every op runs.

1. eager: run the kernel now and wrap the result in `EagerTensor`s;
2. tracing: hand the op to the graph being built (``state.graph.create_op``);
3. recording: let every active recorder (tape) see the op, in both modes.

The eager path with no tape active is a handful of attribute lookups on top
of the kernel call.
"""
import functools

import numpy as np

from eagerflow._src.core import errors
from eagerflow._src.core import context
from eagerflow._src.core.registry import check_dtypes
from eagerflow._src.core.tensor import EagerTensor

_NO_ATTRS = {}
_numpy = np
_new = object.__new__
_wrap = EagerTensor._wrap
_context = context._lookup
_get_context = context.get
_KERNEL_ERRORS = (ValueError, TypeError, IndexError, ArithmeticError, np.linalg.LinAlgError)


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
                _check_tied(op, arrays)
            out = kernel(*arrays, **attrs)
    except errors.OpError as e:
        if e.op is not None:
            raise
        raise type(e)(None, op.name, f"{e.message} [Op:{op.name}]") from None
    except _KERNEL_ERRORS as e:
        raise kernel_error(op, arrays, e) from None
    except AttributeError:
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
    for recorder in s.recorders:
        recorder.record(op, inputs, attrs, result)
    return result


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
                raise TypeError(f"The symbolic tensor {t.name} of graph {graph.name!r} was "
                                f"used outside of it, where it has no value; return it from "
                                f"the traced function instead.")
            return graph
    return None


def kernel_error(op, arrays, exc):
    """TF's InvalidArgumentError for a kernel's failure, naming the op (and shapes).

    None when `exc` is not one of the errors kernels raise for bad inputs.
    """
    if not isinstance(exc, _KERNEL_ERRORS):
        return None
    msg = str(exc)
    if "could not be broadcast" in msg:
        shapes = " vs. ".join(str(list(a.shape)).replace(" ", "") for a in arrays[:2])
        msg = f"Incompatible shapes: {shapes}"
    return errors.InvalidArgumentError(None, op.name, f"{msg} [Op:{op.name}]")
