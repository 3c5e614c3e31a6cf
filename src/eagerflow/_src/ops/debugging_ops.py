"""Runtime checks (``tf.debugging``): assertions on values, ranks, shapes and dtypes.

In eager mode an assertion checks at once and returns None, raising TF's
errors: InvalidArgumentError when values break the condition, ValueError for
static shapes and ranks, TypeError for dtypes. `check_numerics` is an op.

>>> tf.assert_equal(tf.constant([1, 2]), [1, 2]) is None
True
"""
import sys

import numpy as np

from eagerflow._src.backend import tracebacks
from eagerflow._src.backend.api_export import export
from eagerflow._src.core import dtypes as _d
from eagerflow._src.core import context, errors, registry
from eagerflow._src.core.convert import convert_to_tensor, get_static_value
from eagerflow._src.core.dispatch import dispatch
from eagerflow._src.core.node_forms import NodeForm, tf_nodes
from eagerflow._src.core.node_forms import arg_names, tf_args
from eagerflow._src.core.registry import FLOAT, register, register_gradient, same_shape
from eagerflow._src.core.tensor import EagerTensor, Tensor
from eagerflow._src.ops import late, math_ops
from eagerflow._src.ops.logging_ops import summarized_text
from eagerflow._src.ops.wrappers import as_tensor, hinted_operands


def _invalid(message):
    return errors.InvalidArgumentError(None, None, message)


def _prefixed(message, text):
    return f"{message}\n{text}" if message else text


def _first(t, summarize):
    """The first `summarize` elements of `t` (3 by default), flat."""
    return np.asarray(t).reshape(-1)[:3 if summarize is None else summarize]


def _holds(condition):
    return bool(late.reduction_ops.reduce_all(condition))


def _graph_check(condition, message, data, summarize):
    """In a graph an assertion is an Assert op, checking when the graph runs."""
    return Assert(late.reduction_ops.reduce_all(condition), ([message] if message else []) + data,
           summarize)


# -- comparisons of two tensors --------------------------------------------------------------

_NUMPY_COMPARISONS = {"==": np.equal, "!=": np.not_equal, "<": np.less, "<=": np.less_equal,
                      ">": np.greater, ">=": np.greater_equal}


def _static_failure(holds, prefix, symbol, operands, summarize, sep="\n"):
    """In a graph, an assertion on values known while tracing (eager tensors captured
    by a function, constants) that fails raises as TF's does, before the graph runs."""
    values = [get_static_value(t) for t in operands]
    if any(v is None for v in values) or bool(np.all(holds(*values))):
        return None
    lines = [f"{prefix}Condition x {symbol} did not hold element-wise:"]
    for label, t, v in zip("xy", operands, values):
        lines.append(f"{label} ({_label(t)}) = \n{_first(v, summarize)}")
    return _invalid(lines[0] + sep + "\n".join(lines[1:]))


def _pretty(item, summarize):
    """A data item of a TF 1 assertion as its eager failure shows it: a tensor's first
    `summarize` (3) values as a list of their texts ("..." when cut), a scalar as it is."""
    if not isinstance(item, Tensor):
        return str(item)
    array = np.asarray(item)
    if array.ndim == 0:
        return str(array[()])
    flat = array.reshape(-1)
    keep = 3 if summarize is None else summarize
    return str([str(v) for v in flat[:keep]] + (["..."] if flat.size > keep else []))


def _data_check(holds, operands, data, summarize):
    """A check showing the caller's `data` (TF 1's assertions) in place of its own text:
    eagerly the data's texts, in a graph an Assert of them (raising while building where
    the operands are known and fail)."""
    if context.executing_eagerly():
        if not _holds(holds):
            raise _invalid("\n".join(_pretty(d, summarize) for d in data))
        return None
    values = [get_static_value(t) for t in operands]
    if all(v is not None for v in values) and not bool(np.all(get_static_value(holds))):
        raise _invalid("\n".join(
            str(get_static_value(d)) if isinstance(d, Tensor) else str(d) for d in data))
    return _graph_check(holds, None, list(data), summarize)


def _comparison(compare, symbol, summarize_first=False):
    """An assertion that ``compare(x, y)`` holds element-wise (with broadcasting); its
    `with_data` takes TF 1's `data`, shown instead of the assertion's own text. With
    `summarize_first`, its third parameter is `summarize` and its fourth `message`, as
    ``tf.debugging.assert_none_equal`` takes them."""
    def with_data(x, y, data=None, summarize=None, message=None, name=None):
        x, y = hinted_operands(x, y)  # a y of another dtype reaches the op, which reports it
        if data is not None:
            return _data_check(compare(x, y), (x, y),
                               ([message] if message is not None else []) + list(data),
                               summarize)
        if not context.executing_eagerly():
            failure = _static_failure(_NUMPY_COMPARISONS[symbol],
                                      f"{message}\n" if message else "", f"{symbol} y",
                                      (x, y), summarize)
            if failure is not None:
                raise failure
        holds = compare(x, y)
        if not context.executing_eagerly():
            return _graph_check(holds, message, [
                f"Condition x {symbol} y did not hold element-wise:", f"x ({_label(x)}) = ", x,
                f"y ({_label(y)}) = ", y], summarize)
        if not _holds(holds):
            text = f"Condition x {symbol} y did not hold.\n"
            if x.shape == y.shape and x.shape.rank:  # point at the first failing elements
                where = np.argwhere(~np.asarray(holds))[:3 if summarize is None else summarize]
                picked = tuple(where.T)
                text += (f"Indices of first {len(where)} different values:\n{where}\n"
                         f"Corresponding x values:\n{np.asarray(x)[picked]}\n"
                         f"Corresponding y values:\n{np.asarray(y)[picked]}\n")
            xs, ys = _first(x, summarize), _first(y, summarize)
            raise _invalid(_prefixed(message, (
                f"{text}First {xs.size} elements of x:\n{xs}\n"
                f"First {ys.size} elements of y:\n{ys}")))
        return None

    def check(x, y, message=None, summarize=None, name=None):
        return with_data(x, y, summarize=summarize, message=message, name=name)

    def summarize_first_check(x, y, summarize=None, message=None, name=None):
        return with_data(x, y, summarize=summarize, message=message, name=name)
    if summarize_first:
        check = summarize_first_check
    check.__doc__ = f"Asserts that x {symbol} y element-wise; InvalidArgumentError if not."
    check.with_data = with_data
    return check


assert_equal = _comparison(math_ops.equal, "==")
export("debugging.assert_equal", "assert_equal")(assert_equal)
assert_none_equal = _comparison(math_ops.not_equal, "!=", summarize_first=True)
export("debugging.assert_none_equal")(assert_none_equal)
assert_less = _comparison(math_ops.less, "<")
export("debugging.assert_less", "assert_less")(assert_less)
assert_less_equal = _comparison(math_ops.less_equal, "<=")
export("debugging.assert_less_equal")(assert_less_equal)
assert_greater = _comparison(math_ops.greater, ">")
export("debugging.assert_greater", "assert_greater")(assert_greater)
assert_greater_equal = _comparison(math_ops.greater_equal, ">=")
export("debugging.assert_greater_equal")(assert_greater_equal)


def _sign_check(compare, symbol):
    """An assertion that ``compare(x, 0)`` holds for every element of x."""
    def with_data(x, data=None, summarize=None, message=None, name=None):
        x = as_tensor(x)
        holds = compare(x, convert_to_tensor(0, x.dtype))
        if data is not None:  # (TF 1 shows the data alone: the message goes with its own text)
            return _data_check(holds, (x,), data, summarize)
        prefix = f"{message}.  " if message else ""  # TF ends a given message so here
        condition = f"Condition x {symbol} 0 did not hold element-wise:"
        sep = "" if symbol == "<=" else "\n"  # (TF's assert_non_positive runs the two together)
        if not context.executing_eagerly():
            failure = _static_failure(lambda v: _NUMPY_COMPARISONS[symbol](v, 0), f"{prefix}\n",
                                      f"{symbol} 0", (x,), summarize, sep)
            if failure is not None:
                raise failure
            # (TF shows the prefix even when empty: ``[]``)
            return Assert(late.reduction_ops.reduce_all(holds), [prefix, *(
                [condition + f"x ({_label(x)}) = "] if not sep else
                [condition, f"x ({_label(x)}) = "]), x], summarize)
        if not _holds(holds):
            values = (str(np.asarray(x)) if x.shape.rank == 0  # (TF shows a scalar as is)
                      else [str(v) for v in _first(x, summarize).tolist()])
            raise _invalid(f"{prefix}\n{condition}{sep}x ({_described(x)}) = \n{values}")
        return None

    def check(x, message=None, summarize=None, name=None):
        return with_data(x, summarize=summarize, message=message, name=name)
    check.with_data = with_data
    check.__doc__ = f"Asserts that x {symbol} 0 element-wise; InvalidArgumentError if not."
    return check


assert_positive = _sign_check(math_ops.greater, ">")
export("debugging.assert_positive")(assert_positive)
assert_negative = _sign_check(math_ops.less, "<")
export("debugging.assert_negative")(assert_negative)
assert_non_negative = _sign_check(math_ops.greater_equal, ">=")
export("debugging.assert_non_negative")(assert_non_negative)
assert_non_positive = _sign_check(math_ops.less_equal, "<=")
export("debugging.assert_non_positive")(assert_non_positive)


@export("debugging.assert_near")
def assert_near(x, y, rtol=None, atol=None, message=None, summarize=None, name=None):
    """Asserts |x - y| <= atol + rtol * |y| element-wise (tolerances default to 10 eps).

    >>> tf.debugging.assert_near(1.0, 1.0000001) is None
    True
    """
    return _near(x, y, rtol, atol, None, summarize, message)


def _near(x, y, rtol, atol, data, summarize, message):
    """`assert_near`, showing TF 1's `data` (when not None) in place of its own text."""
    x = as_tensor(x)
    y = convert_to_tensor(y, x.dtype)
    # (NumPy's finfo: TF's ValueError for dtypes without one, bfloat16's included)
    eps = 10 * float(np.finfo(x.dtype.as_numpy_dtype).eps)
    rtol = convert_to_tensor(eps if rtol is None else rtol, x.dtype.real_dtype)
    atol = convert_to_tensor(eps if atol is None else atol, x.dtype.real_dtype)
    gap = math_ops.abs(math_ops.subtract(x, y))
    holds = math_ops.less_equal(gap, math_ops.add(atol, math_ops.multiply(
        rtol, math_ops.abs(y))))
    # (TF's Assert eagerly too: its error lists the data, tolerances as tensors' text)
    label = _described if context.executing_eagerly() else _label
    if data is None:
        data = [f"{message}.  " if message else "",
                f"x and y not equal to tolerance rtol = {rtol!s}, atol = {atol!s}",
                f"x ({label(x)}) = ", x, f"y ({label(y)}) = ", y]
    return Assert(late.reduction_ops.reduce_all(holds), data, summarize)


def _near_with_data(x, y, rtol=None, atol=None, data=None, summarize=None, message=None,
                    name=None):
    return _near(x, y, rtol, atol, data, summarize, message)


assert_near.with_data = _near_with_data


def _assert(xp, condition, *data, summarize, condition_text):
    """Raises when `condition` fails: eagerly naming it by `condition_text`, in a graph
    showing the data as TF formats tensors, each in brackets."""
    if bool(xp.all(condition)):
        return ()
    if condition_text is None:  # (in a graph: each item as TF's kernel summarizes it)
        raise _invalid("assertion failed: " + " ".join(
            f"[{summarized_text(d, 3 if summarize is None else summarize)}]" for d in data))
    shown = []
    for item in data:  # as TF's eager Assert: str() of each NumPy value, "..." when cut
        array = np.asarray(item)
        flat = array.reshape(-1)
        keep = 3 if summarize is None else flat.size if summarize < 0 else summarize
        values = [str(v) for v in flat[:keep]]
        if array.ndim and len(values) < flat.size:
            values.append("...")
        shown.append(", ".join(values))
    raise errors.python_raised(errors.InvalidArgumentError(
        None, None, f"Expected '{condition_text}' to be true. Summarized data: "
                    + "\n".join(shown)))


_ASSERT = register("Assert", _assert, lambda *_, **__: [], multi=True, tied=(), stateful=True,
                   not_differentiable="an assertion has no gradient", replayable=True)
tf_nodes[_ASSERT] = NodeForm(types={"T": "*1"}, local={"condition_text": ""},
                              defaults={"summarize": None})
tf_args[_ASSERT] = ("condition", "*data")


def _assert_batched(op, args):
    """Batching: a batch whose conditions all hold passes; otherwise each element checks
    its own, so that the first failing one raises with its data."""
    return [] if bool(np.all(args[0][0])) else None


registry.batching_rules[_ASSERT] = _assert_batched
registry.runs_rules[_ASSERT] = registry.RUNS_ONCE  # (a check: repeating it changes nothing)


@export("debugging.Assert", "Assert")
def Assert(condition, data, summarize=None, name=None):  # noqa: N802 (TF's public name)
    """Raises InvalidArgumentError showing `data` when `condition` is false.

    Eagerly it checks at once and returns None; in a graph it is an op that
    checks when the graph runs.

    >>> tf.debugging.Assert(True, ["never shown"]) is None
    True
    """
    text = None
    if context.executing_eagerly():  # as `if not condition`: TF's eager check
        bool(condition)  # ValueError for a condition of several values
        text = str(condition)  # a tensor as it prints, or a Python bool
    dispatch(_ASSERT, (as_tensor(condition), *(as_tensor(d) for d in data)),
             {"summarize": summarize, "condition_text": text}, name)
    graph = context.get().graph
    if text is None and getattr(graph, "building_function", True) is False:
        # (in a TF 1 graph, the op: for control dependencies to wait on)
        return graph.get_operations()[-1]
    return context.no_outputs()


# -- static checks: ranks, shapes, dtypes -------------------------------------------------------

def _rank_error(x, wanted, message):
    # (eagerly, or for a SparseTensor, TF's text names no tensor)
    name = "" if isinstance(x, EagerTensor) or not isinstance(x, Tensor) else x.name
    text = (f"Tensor {name} must have rank {wanted}.  Received rank {x.shape.rank}, "
            f"shape {x.shape}")
    return ValueError(f"{message}.  {text}" if message else text)


def _run_time_rank_check(x, holds, wanted_text, ranks, message):
    """While tracing a tensor of unknown rank: TF's Assert op on its rank, run with the
    graph (`holds` maps the rank tensor to the condition)."""
    return Assert(holds(late.array_ops.rank(x)), [
        f"{message}.  " if message else "", f"Tensor {x.name} must have rank{wanted_text}",
        *ranks, "Received shape: ", late.array_ops.shape(x)])


def _rank_arg(rank):
    """`rank` (a Python or NumPy int, or a tensor known while tracing) as an int."""
    known = get_static_value(rank) if isinstance(rank, Tensor) else rank
    if known is not None and np.ndim(known) != 0:
        raise ValueError("Rank must be a scalar.")
    return int(rank if known is None else known)


@export("debugging.assert_rank", "assert_rank")
def assert_rank(x, rank, message=None, name=None):
    """Asserts that `x` has rank `rank`; ValueError if not.

    >>> tf.assert_rank(tf.constant([1, 2]), 1) is None
    True
    """
    x, rank = as_tensor(x), _rank_arg(rank)
    if x.shape.rank is None:
        return _run_time_rank_check(x, lambda r: math_ops.equal(r, int(rank)), "",
                                    [int(rank)], message)
    if x.shape.rank != int(rank):
        raise _rank_error(x, int(rank), message)
    return context.no_outputs()  # (in a graph TF's no-op: checked as it was built)


@export("debugging.assert_rank_at_least")
def assert_rank_at_least(x, rank, message=None, name=None):
    """Asserts that `x` has rank `rank` or more; ValueError if not."""
    x, rank = as_tensor(x), _rank_arg(rank)
    if x.shape.rank is None:
        return _run_time_rank_check(x, lambda r: math_ops.greater_equal(r, int(rank)),
                                    " at least", [int(rank)], message)
    if x.shape.rank < int(rank):
        raise _rank_error(x, f"at least {int(rank)}", message)
    return context.no_outputs()


@export("debugging.assert_rank_in")
def assert_rank_in(x, ranks, message=None, name=None):
    """Asserts that the rank of `x` is one of `ranks`; ValueError if not."""
    x = as_tensor(x)
    ranks = tuple(int(r) for r in ranks)
    if x.shape.rank is None:
        return _run_time_rank_check(
            x, lambda r: late.reduction_ops.reduce_any(math_ops.equal(r, list(ranks))), " in",
            list(ranks), message)
    if x.shape.rank not in ranks:
        raise _rank_error(x, f"in {ranks}", message)
    return context.no_outputs()


@export("debugging.assert_scalar")
def assert_scalar(tensor, message=None, name=None):
    """Asserts that `tensor` is a scalar; ValueError if not."""
    tensor = as_tensor(tensor)
    if tensor.shape.rank != 0:
        named = "" if isinstance(tensor, EagerTensor) else f" for {tensor.name}"
        raise ValueError((f"{message}.  " if message else "") +
                         f"Expected scalar shape{named}, saw shape: {tensor.shape}.")


@export("debugging.assert_type")
def assert_type(tensor, tf_type, message=None, name=None):
    """Asserts that `tensor` has dtype `tf_type`; TypeError if not."""
    tensor, tf_type = as_tensor(tensor), _d.as_dtype(tf_type)
    if tensor.dtype != tf_type:
        named = "tensor" if isinstance(tensor, EagerTensor) else tensor.name
        text = f"{named} must be of type {tf_type!r}; got {tensor.dtype!r}"
        raise TypeError(f"{message}.  {text}" if message else text)


@export("debugging.assert_integer")
def assert_integer(x, message=None, name=None):
    """Asserts that `x` has an integer dtype; TypeError if not."""
    x = as_tensor(x)
    if not x.dtype.is_integer:
        named = "tensor" if isinstance(x, EagerTensor) else x.name
        raise TypeError((f"{message}.  " if message else "") +
                        f'Expected "x" to be integer type.  Found: {named} of dtype {x.dtype}')


@export("debugging.assert_same_float_dtype", "compat.v1.assert_same_float_dtype")
def assert_same_float_dtype(tensors=None, dtype=None):
    """The one floating dtype of `tensors` (and `dtype`, if given); float32 when neither
    gives one. Raises ValueError for a non-floating dtype or a mix.

    >>> tf.debugging.assert_same_float_dtype([tf.constant(1.0)])
    tf.float32
    """
    if tensors:
        tensors = [t for t in tensors if t is not None]
        if dtype is None:
            first = tensors[0]
            dtype = first.dtype.base_dtype if hasattr(first.dtype, "base_dtype") else first.dtype
            source = f" as {first!s}"
        else:
            dtype, source = _d.as_dtype(dtype), ""
        for t in tensors:
            if t.dtype != dtype:
                raise ValueError(f"{t!s}, type={t.dtype}, must be of the same type ({dtype})"
                                 f"{source}.")
    if dtype is None:
        return _d.float32
    dtype = _d.as_dtype(dtype)
    if not dtype.is_floating:
        raise ValueError(f"Expected floating point type, got {dtype}.")
    return dtype


@export("debugging.assert_proper_iterable", "compat.v1.assert_proper_iterable")
def assert_proper_iterable(values):
    """Raises TypeError unless `values` is iterable and not a tensor, array or string."""
    unintentional = (Tensor, np.ndarray, bytes, str)
    if isinstance(values, unintentional) or hasattr(type(values), "__tf_tensor__"):
        raise TypeError(f'Expected argument "values" to be a "proper" iterable.  Found: '
                        f'{type(values)}')
    if not hasattr(values, "__iter__"):
        raise TypeError(f'Expected argument "values" to be iterable.  Found: {type(values)}')



@export("debugging.is_traceback_filtering_enabled")
def is_traceback_filtering_enabled():
    """Whether error tracebacks leave out the library's own frames (on by default)."""
    return tracebacks.enabled[0]


@export("debugging.enable_traceback_filtering")
def enable_traceback_filtering():
    """Turns traceback filtering on (see `is_traceback_filtering_enabled`)."""
    tracebacks.enabled[0] = True


@export("debugging.disable_traceback_filtering")
def disable_traceback_filtering():
    """Turns traceback filtering off (see `is_traceback_filtering_enabled`)."""
    tracebacks.enabled[0] = False


_LOG_DEVICE_PLACEMENT = [False]


class _PlacementLogger:
    """A recorder printing, as TF does on stdout, where an op run eagerly is placed: the
    first time each op runs with given input dtypes and attrs, a line for each of its
    arguments, the op and each of its results (``z_RetVal: (_Retval): <device>``); 32-bit
    integers, which TF keeps in host memory, are ``_DeviceArg`` and ``_DeviceRetval``."""

    watch_accessed_variables = False
    persistent = False

    def __init__(self):
        self.seen = set()
        self.watched = {}

    def watch(self, _):
        pass

    def record(self, op, inputs, attrs, outputs):
        if context.get().graph is not None:
            return
        dtypes = tuple(getattr(t, "dtype", None) for t in inputs)
        key = (op.name, dtypes, repr(sorted(attrs.items())))
        if key in self.seen:
            return
        self.seen.add(key)
        form = tf_nodes.get(op, None)
        names = [n.lstrip("*") for n in (arg_names(op) or ())]
        if len(names) != len(inputs):
            names = [names[0] if len(names) == 1 else "input"] * len(inputs)
            names = [f"{n}_{i}" for i, n in enumerate(names)] if len(inputs) > 1 else names
        device = context.get().device_name
        lines = [f"{n.replace('_', '__')}: ({'_DeviceArg' if d == _d.int32 else '_Arg'}): "
                 f"{device}" for n, d in zip(names, dtypes)]
        op_type = getattr(form, "op_type", None) or op.name
        lines.append(f"{op_type}: ({op_type}): {device}")
        results = outputs if op.multi else () if outputs is None else (outputs,)
        declared = getattr(form, "outputs", None) or ()
        default = "z" if op.tied_pair else "y" if op.elementwise else "output"
        for i, out in enumerate(results):
            name = declared[i] if i < len(declared) else declared[0] if declared else default
            kind = "_DeviceRetval" if getattr(out, "dtype", None) == _d.int32 else "_Retval"
            lines.append(f"{name}_RetVal: ({kind}): {device}")
        sys.stdout.write("\n".join(lines) + "\n")
        sys.stdout.flush()


_placement_loggers = {}  # id(context) -> (context, the logger added to it)


@export("debugging.set_log_device_placement")
def set_log_device_placement(enabled):
    """Turns on (or off) printing where each op run eagerly is placed, on stdout as TF does:
    an op's arguments, the op and its results, the first time it runs with its input dtypes.

    >>> tf.debugging.set_log_device_placement(True)
    >>> _ = tf.exp(tf.constant([1.0]))
    x: (_Arg): /job:localhost/replica:0/task:0/device:CPU:0
    Exp: (Exp): /job:localhost/replica:0/task:0/device:CPU:0
    y_RetVal: (_Retval): /job:localhost/replica:0/task:0/device:CPU:0
    >>> tf.debugging.set_log_device_placement(False)
    """
    _LOG_DEVICE_PLACEMENT[0] = bool(enabled)
    ctx = context.get()
    entry = _placement_loggers.pop(id(ctx), None)
    if entry is not None and entry[0] is ctx:
        context.remove_recorder(ctx, entry[1])
    if enabled:
        logger = entry[1] if entry is not None and entry[0] is ctx else _PlacementLogger()
        _placement_loggers[id(ctx)] = (ctx, logger)
        context.add_recorder(logger)


@export("debugging.get_log_device_placement")
def get_log_device_placement():
    """The setting `set_log_device_placement` recorded (False by default)."""
    return _LOG_DEVICE_PLACEMENT[0]


@export("debugging.is_numeric_tensor")
def is_numeric_tensor(tensor):
    """True for tensors of a numeric dtype (not bool or string)."""
    return isinstance(tensor, Tensor) and tensor.dtype.is_numeric


def _described(x):
    return f"shape={x.shape} dtype={x.dtype.name}"


def _label(x):
    """A tensor's graph name; an eager tensor captured by a graph has none, so its form."""
    return _described(x) if isinstance(x, EagerTensor) or hasattr(x, "dense_shape") else \
        x.name


@export("debugging.assert_shapes")
def assert_shapes(shapes, data=None, summarize=None, message=None, name=None):
    """Asserts that tensors have the shapes in `shapes`: (tensor, dims) pairs (or a dict).

    A dim is an int, a name that must mean the same size everywhere, or "." / None for any
    size; a first entry `...` (or "*") stands for any number of outer dims. A scalar, and
    an empty dims, count as one dim of size 1. Sizes known while tracing are checked at
    once (ValueError); unknown ones when the graph runs (InvalidArgumentError).

    >>> tf.debugging.assert_shapes([(tf.constant([[1, 2]]), ("N", 2))]) is None
    True
    """
    pairs = shapes.items() if isinstance(shapes, dict) else shapes
    prefix = f"{message}.  " if message else ""
    entries = []  # (tensor, innermost only, its sizes, the dims asked)
    for x, spec in pairs:
        if spec is None:  # (no constraint)
            continue
        x = getattr(x, "deref", lambda: x)()
        if not hasattr(x, "dense_shape"):  # (a SparseTensor is checked by its dense shape)
            x = as_tensor(x)
        if not hasattr(spec, "__iter__") and not hasattr(spec, "__getitem__"):
            raise ValueError(f"{prefix}Tensor {_label(x)}.  Specified shape must be an "
                             f"iterable.  An iterable has the attribute `__iter__` or "
                             f"`__getitem__`.  Received specified shape: {spec}")
        spec = tuple(spec)
        innermost = False
        for i, symbol in enumerate(spec):
            if symbol is Ellipsis or (isinstance(symbol, str) and symbol == "*"):
                if i:
                    raise ValueError(
                        f"{prefix}Tensor {_label(x)} specified shape index {i}.  Symbol "
                        f"`...` or `*` for a variable number of unspecified dimensions is "
                        f"only allowed as the first entry")
                innermost = True
        dims = (spec[1:] if innermost else spec) or (1,)
        if hasattr(x, "dense_shape"):  # (a SparseTensor's rank is known while tracing)
            rank = x.shape.rank
            wanted = (f"at least {len(dims)}" if innermost else "in (0, 1)" if len(dims) == 1
                      else len(dims))
            if rank is not None and (rank < len(dims) if innermost else rank > 1 if len(
                    dims) == 1 else rank != len(dims)):
                raise _rank_error(x, wanted, message)
        elif innermost:
            if len(dims) > 1:
                assert_rank_at_least(x, len(dims), message)
        elif len(dims) == 1:  # (a scalar is a dimension of size 1)
            assert_rank_in(x, (0, 1), message)
        else:
            assert_rank(x, len(dims), message)
        entries.append((x, innermost, _dimension_sizes(x), dims))
    sizes = {}  # symbol -> (size, the tensor that fixed it, its dim)
    for x, innermost, actual, dims in entries:
        for i, symbol in enumerate(dims):
            if symbol is None or (isinstance(symbol, str) and symbol == "."):
                continue
            dim = i - len(dims) if innermost else i
            got = actual[dim]
            explicit = _known_size(symbol)
            if explicit is None and symbol not in sizes:
                sizes[symbol] = (got, x, dim)
                continue
            if explicit is not None:
                size, origin = explicit, "Specified explicitly"
            else:
                size, source, at = sizes[symbol]
                origin = f"Specified by tensor {_label(source)} dimension {at}"
            if isinstance(got, int) and isinstance(size, int):
                if got != size:
                    raise ValueError(
                        f"{prefix}{origin}.  Tensor {_label(x)} dimension {dim} must have "
                        f"size {size}.  Received size {got}, shape {x.shape}")
                continue
            # (a size known only when the graph runs: TF's Assert op)
            shape = x.dense_shape if hasattr(x, "dense_shape") else late.array_ops.shape(x)
            Assert(math_ops.equal(as_tensor(got), as_tensor(size)), data if data is not None
                   else [prefix, origin, f"Tensor {_label(x)} dimension", dim,
                         "must have size", size, "Received shape: ", shape], summarize)
    return context.no_outputs()


def _dimension_sizes(x):
    """The sizes of `x`'s dimensions: ints where known while tracing, else scalar tensors
    (a scalar: one dimension of size 1)."""
    if x.shape.rank == 0:
        return (1,)
    if hasattr(x, "dense_shape"):
        dynamic = late.cast_ops.cast(x.dense_shape, _d.int32)
    else:
        dynamic = late.array_ops.shape(x)
    if x.shape.rank is None:  # (each size read from the shape when asked)
        return dynamic
    return tuple(dynamic[i] if size is None else int(size)
                 for i, size in enumerate(x.shape.as_list()))


def _known_size(symbol):
    """`symbol` as a size when it reads as an int (3, "3"), else None (a name)."""
    if isinstance(symbol, Tensor):
        symbol = get_static_value(symbol)
    try:
        return int(symbol)
    except (TypeError, ValueError):
        return None


# -- CheckNumerics ------------------------------------------------------------------------------

def _check_numerics(xp, x, message):
    nan, inf = bool(xp.isnan(x).any()), bool(xp.isinf(x).any())
    if nan or inf:
        found = "Inf and NaN" if nan and inf else "NaN" if nan else "Inf"
        raise _invalid(f"{message} : Tensor had {found} values")
    return x


_CHECK_NUMERICS = register("CheckNumerics", _check_numerics, same_shape, dtypes=FLOAT,
                           stateful=True, replayable=True)
tf_nodes[_CHECK_NUMERICS] = NodeForm(outputs=("output",))
tf_args[_CHECK_NUMERICS] = ("tensor",)


def _check_numerics_v2(xp, x, message):
    found = _anomalies(np.asarray(x, np.complex128 if x.dtype.kind == "c" else np.float64))
    if found is not None:
        raise _invalid(f"{message} : Tensor had {found} values")
    return x


# (TF's check of each op's output while `enable_check_numerics` is on: -Inf and +Inf told
# apart)
_CHECK_NUMERICS_V2 = register("CheckNumericsV2", _check_numerics_v2, same_shape, dtypes=FLOAT,
                              stateful=True, replayable=True)
tf_nodes[_CHECK_NUMERICS_V2] = NodeForm(outputs=("output",))
tf_args[_CHECK_NUMERICS_V2] = ("tensor",)


@export("debugging.check_numerics")
def check_numerics(tensor, message, name=None):
    """Returns `tensor`, raising InvalidArgumentError (with `message`) if it has NaN or Inf.

    >>> tf.debugging.check_numerics(tf.constant([1.0]), "bad values")
    <tf.Tensor: shape=(1,), dtype=float32, numpy=array([1.], dtype=float32)>
    """
    return dispatch(_CHECK_NUMERICS, (as_tensor(tensor),), {"message": str(message)}, name)


@export("debugging.assert_all_finite")
def assert_all_finite(x, message, name=None):
    """Returns `x`, raising InvalidArgumentError (with `message`) if it has NaN or Inf."""
    return check_numerics(x, message, name)


# -- gradients ---------------------------------------------------------------------------
@register_gradient("CheckNumerics")
@register_gradient("CheckNumericsV2")
def _check_numerics_grad(op, dy):
    """The identity, with the incoming gradient checked in turn."""
    return check_numerics(dy, "Not a number (NaN) or infinity (Inf) values detected in "
                              f"gradient. {op.attrs['message']}")


# -- enable_check_numerics ---------------------------------------------------------------------
# Ops that move or copy elements: they cannot create an infinity or a NaN, so their outputs
# are not checked (as TF skips them).
_MOVES_ONLY = frozenset((
    "Concat", "ConcatV2", "ExpandDims", "Fill", "Gather", "GatherV2", "Identity", "IdentityN",
    "Pack", "Reshape", "Slice", "Squeeze", "StridedSlice", "Transpose", "Unpack", "ZerosLike",
    "OnesLike", "CheckNumerics", "CheckNumericsV2"))


def _anomalies(array):
    """TF's CheckNumericsV2 summary ('-Inf, +Inf, and NaN') of what `array` holds, or None."""
    inf = np.isinf(array)
    found = [label for label, hit in (("-Inf", (inf & (array < 0)).any()),
                                      ("+Inf", (inf & (array > 0)).any()),
                                      ("NaN", np.isnan(array).any())) if hit]
    if not found:
        return None
    if len(found) == 3:
        return "-Inf, +Inf, and NaN"
    return " and ".join(found)


class _NumericsChecker:
    """A recorder that raises TF's InvalidArgumentError when an op run eagerly outputs an
    infinity or a NaN (floating-point outputs only)."""

    watch_accessed_variables = False
    persistent = False
    instruments_graphs = True

    def __init__(self):
        self.watched = {}

    def watch(self, _):
        pass

    def record(self, op, inputs, attrs, outputs):
        if op.name in _MOVES_ONLY:
            return
        outs = outputs if op.multi else (outputs,)
        graph = context.get().graph
        for slot, out in enumerate(outs):
            if graph is not None and isinstance(out, Tensor) and \
                    not isinstance(out, EagerTensor):
                # an op traced into a graph: as TF, a check of the output runs with it
                if _d.as_dtype(out.dtype).is_floating:
                    dispatch(_CHECK_NUMERICS_V2, (out,), {"message": _numerics_message(
                        op, slot, len(outs), out, None, inputs, graph)},
                        f"{out.op.name.rsplit('/', 1)[-1]}/CheckNumericsV2")
                continue
            data = getattr(out, "_data", None)  # (a NumPy scalar for a scalar)
            if not isinstance(data, (np.ndarray, np.generic)) or data.dtype.kind not in "fc" and \
                    not _d.as_dtype(out.dtype).is_floating:
                continue
            array = np.asarray(data, np.complex128 if data.dtype.kind == "c" else np.float64)
            if array.dtype.kind == "c":
                array = np.concatenate([array.real.ravel(), array.imag.ravel()])
            found = _anomalies(array)
            if found is None:
                continue
            raise _invalid(_numerics_message(op, slot, len(outs), out, array, inputs) +
                           f" : Tensor had {found} values [Op:CheckNumericsV2]")


def _numerics_message(op, slot, n_outputs, out, array, inputs, graph=None):
    """TF's message of a check of `op`'s output `slot`: holding `array`, run eagerly, or
    (`array` None) of `graph`'s op."""
    kind = "eagerly-executing" if graph is None else "graph"
    lines = ["", "", f'!!! Detected Infinity or NaN in output {slot} of {kind} op '
                     f'"{op.name}" (# of outputs: {n_outputs}) !!!',
             f"  dtype: {str(out.dtype)}", f"  shape: {out.shape}"]
    if array is not None:
        inf = np.isinf(array)
        for label, count in (("-Inf", np.sum(inf & (array < 0))),
                             ("+Inf", np.sum(inf & (array > 0))),
                             ("+NaN", np.sum(np.isnan(array)))):
            if count:
                lines.append(f"  # of {label} elements: {count}")
    shown = [t for t in inputs if isinstance(t, Tensor)]
    if len(shown) > 1:
        lines += ["", f"  Input tensors ({len(shown)}):"]
        lines += [f"         {i}: {str(t)}" for i, t in enumerate(shown)]
    elif shown:
        lines += ["", f"  Input tensor: {str(shown[0])}"]
    if graph is not None:
        lines.append(f'  Graph name: "{getattr(graph, "name", "")}"')
    return "\n".join(lines) + "\n\n"


_checkers = {}  # id(context) -> the checker added to it


@export("debugging.enable_check_numerics")
def enable_check_numerics(stack_height_limit=30, path_length_limit=50):
    """From now on in the calling thread, an op run eagerly whose floating-point output holds
    an infinity or a NaN raises InvalidArgumentError naming the op and its inputs.

    >>> tf.debugging.enable_check_numerics()
    >>> try:
    ...     tf.math.log(tf.constant([0.0]))
    ... except tf.errors.InvalidArgumentError as e:
    ...     print(str(e).splitlines()[2])
    !!! Detected Infinity or NaN in output 0 of eagerly-executing op "Log" (# of outputs: 1) !!!
    >>> tf.debugging.disable_check_numerics()
    """
    ctx = context.get()
    if id(ctx) not in _checkers or _checkers[id(ctx)][0] is not ctx:
        checker = _NumericsChecker()
        _checkers[id(ctx)] = (ctx, checker)
        context.add_recorder(checker)


@export("debugging.disable_check_numerics")
def disable_check_numerics():
    """Stops the checks `enable_check_numerics` started in the calling thread (a no-op when
    none are on)."""
    ctx = context.get()
    entry = _checkers.pop(id(ctx), None)
    if entry is not None and entry[0] is ctx:
        context.remove_recorder(ctx, entry[1])



_TENSOR_DEBUG_MODES = ("UNSPECIFIED", "NO_TENSOR", "CURT_HEALTH", "CONCISE_HEALTH", "FULL_HEALTH",
                       "SHAPE", "FULL_NUMERICS", "FULL_TENSOR", "REDUCE_INF_NAN_THREE_SLOTS")


@export("debugging.experimental.enable_dump_debug_info")
def enable_dump_debug_info(dump_root, tensor_debug_mode="NO_TENSOR", circular_buffer_size=1000,
                           op_regex=None, tensor_dtypes=None):
    """Accepted for programs that turn on TF's debugger dumps, which are not written here
    (eagerflow has no tfdbg event files): checks `tensor_debug_mode` as TF does, writes
    nothing and returns None. `enable_check_numerics` finds infinities and NaNs.

    >>> tf.debugging.experimental.enable_dump_debug_info("/tmp/dump") is None
    True
    """
    del dump_root, circular_buffer_size, op_regex, tensor_dtypes
    if tensor_debug_mode not in _TENSOR_DEBUG_MODES:
        raise ValueError(f"Invalid value in tensor_debug_mode ('{tensor_debug_mode}'). Valid "
                         f"options are: {list(_TENSOR_DEBUG_MODES)}")


@export("debugging.experimental.disable_dump_debug_info")
def disable_dump_debug_info():
    """Ends `enable_dump_debug_info` (which writes nothing here)."""
