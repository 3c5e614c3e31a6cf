"""What converted ``if``, ``while`` and ``for`` statements call.

Each statement arrives as functions: the branches or the loop test and body,
which modify the enclosing function's variables, and ``get_state`` /
``set_state``, which read and write the variables the statement passes on.
A Python condition or iterable runs the statement as Python would.  A tensor
condition or iterable while a graph is built turns it into graph control
flow: ``cond`` for an ``if``, ``while_loop`` for a loop, with the variables as
the branch outputs or loop variables.

>>> state = {"y": 0}
>>> if_stmt(True, lambda: state.update(y=1), lambda: None, lambda: (), lambda v: None, (), 0)
>>> state["y"]
1
"""
import numpy as np

from eagerflow._src.autograph.operators import data_structures
from eagerflow._src.autograph.operators.variables import UndefinedReturnValue, is_undefined
from eagerflow._src.core import context, dtypes, errors, nest
from eagerflow._src.core.convert import convert_to_tensor, get_static_value
from eagerflow._src.core.tensor import Tensor
from eagerflow._src.core.tensor_shape import TensorShape
from eagerflow._src.core.variables import Variable
from eagerflow._src.graph import control_flow
from eagerflow._src.graph.graph import Graph, SymbolicTensor
from eagerflow._src.graph.tensor_array import TensorArray
from eagerflow._src.ops import array_ops, math_ops


def is_graph_tensor(value):
    """True for a value only known when the graph runs: it needs graph control flow."""
    return isinstance(value, SymbolicTensor) or (
        isinstance(value, Variable) and not context.executing_eagerly())


def _is_tensor_loop(value):
    """Whether a loop on `value` runs as a ``while_loop``: a graph tensor, or (as TF, where
    converted code runs eagerly) an eager tensor, whose loop variables become tensors."""
    return is_graph_tensor(value) or isinstance(value, Tensor)


# -- if ---------------------------------------------------------------------------------------

def if_stmt(cond, body, orelse, get_state, set_state, symbol_names, nouts):
    """``body()`` if `cond` else ``orelse()``; a graph tensor `cond` becomes one ``cond`` op."""
    if is_graph_tensor(cond):
        _graph_if(cond, body, orelse, get_state, set_state, symbol_names)
    elif cond:
        body()
    else:
        orelse()


class _SwapBranches(Exception):
    """The first branch traced left the return value unset: trace the other one first."""


def _condition(cond, statement):
    """`cond` as the scalar bool a graph ``if`` or ``while`` needs; a ValueError (at trace
    time, as TF) for another dtype or more than one element."""
    cond = convert_to_tensor(cond)
    hint = "to check for None, use `is not None`"
    if cond.dtype != dtypes.bool:
        raise ValueError(f"condition of {statement} expected to be `tf.bool` scalar, got "
                         f"{cond}; to use as boolean Tensor, use `tf.cast`; {hint}")
    if cond.shape.rank == 0:
        return cond
    known = [d for d in (cond.shape.as_list() if cond.shape.rank is not None else [])
             if d is not None]
    if int(np.prod(known)) > 1:
        raise ValueError(f"condition of {statement} expected to be `tf.bool` scalar, got "
                         f"{cond}; {hint}")
    return array_ops.reshape(cond, [])  # one element (or unknown: checked when it runs)


def _graph_if(cond, body, orelse, get_state, set_state, names):
    cond = _condition(cond, "if statement")
    initial = get_state()
    try:
        results = _traced_if(cond, (body, "main"), (orelse, "else"), initial, set_state,
                             get_state, names)
    except _SwapBranches:
        # neither branch may return (both leave the value unset): then it stays unset
        results = _traced_if(math_ops.logical_not(cond), (orelse, "else"), (body, "main"),
                             initial, set_state, get_state, names, swap=False)
    set_state(results)


def _traced_if(cond, first, second, initial, set_state, get_state, names, swap=True):
    """Traces both branches with `cond` and returns the state they leave, reconciled; with
    `swap`, _SwapBranches if the first leaves the return value unset."""
    seen = {}  # the first branch's state, which the second is checked against

    def branch(fn, label):
        def traced():
            set_state(initial)
            fn()
            values = list(get_state())
            for value, name in zip(values, names):
                if value is None:
                    raise ValueError(f"'{name}' is None at the end of the {label} branch.")
            if not seen:
                if swap and any(type(v) is UndefinedReturnValue and v.guarded
                                for v in values):
                    raise _SwapBranches
            else:
                values = _reconcile(seen, values, label, names)
            tensors = [v if is_undefined(v) else
                       as_tensors(v, n, f"at the end of the {label} branch")
                       for v, n in zip(values, names)]
            if not seen:
                seen.update(values=tensors, label=label)
            return tuple(t for t in tensors if not is_undefined(t))
        return traced

    outputs = iter(control_flow.cond(cond, branch(*first), branch(*second)) or ())
    return tuple(v if is_undefined(v) else next(outputs) for v in seen["values"])


def _reconcile(first, second, label, names):
    """The second branch's values, checked against the `first` branch's (its tensors and
    label): defined in both or neither, of one structure and dtype."""
    values = []
    for a, b, name in zip(first["values"], second, names):
        if type(b) is UndefinedReturnValue and b.guarded and not is_undefined(a):
            # this branch returns later: any value of the other branch's type will do
            b = nest.map_structure(_zeros_of, a)
        elif is_undefined(a) != is_undefined(b):
            missing = label if is_undefined(b) else first["label"]
            if UndefinedReturnValue in (type(a), type(b)):
                raise ValueError(f"the {missing} branch must also have a return statement.")
            raise ValueError(f"'{name}' must also be initialized in the {missing} branch")
        if not is_undefined(a):
            check_same(name, a, first["label"],
                        as_tensors(b, name, f"at the end of the {label} branch"), label)
        values.append(b)
    return values


def check_same(name, a, first, b, second):
    try:
        # (composites by their specs: an extension type's Python fields must agree)
        nest.assert_same_structure(a, b, check_types=False, expand_composites=True)
    except (TypeError, ValueError) as e:
        raise TypeError(f"'{name}' must have the same nested structure in the {first} and "
                        f"{second} branches:\n\n{e}") from None
    for x, y in zip(nest.flatten(a, expand_composites=True),
                    nest.flatten(b, expand_composites=True)):
        if x.dtype != y.dtype:
            raise TypeError(f"'{name}' has dtype {x.dtype.name} in the {first} branch, but "
                            f"dtype {y.dtype.name} in the {second} branch")


def as_tensors(value, name, where):
    """`value` with every leaf a tensor (or a TensorArray), or a TypeError naming `name`."""
    def convert(leaf):
        if isinstance(leaf, TensorArray) or _is_composite(leaf):  # it travels as it is
            return leaf
        try:
            return convert_to_tensor(leaf)
        except (TypeError, ValueError):
            raise TypeError(f"'{name}' must be a tensor, a Python number or a structure of "
                            f"them to be used in graph control flow; {where} it is "
                            f"{leaf!r}") from None
    return nest.map_structure(convert, value)


# -- while ------------------------------------------------------------------------------------

def _returns_in_loop(stmt):
    """In a loop body, as in TF, a graph ``if`` that returns needs a return in both
    branches: the code after the loop is no later part of that branch."""
    def run(*args):
        get_state, set_state = args[-4], args[-3]
        state = list(get_state())
        guarded = [i for i, v in enumerate(state)
                   if type(v) is UndefinedReturnValue and v.guarded]
        if not guarded:
            return stmt(*args)
        for i in guarded:
            state[i] = UndefinedReturnValue()
        set_state(state)
        try:
            return stmt(*args)
        finally:
            after = list(get_state())
            for i in guarded:
                if type(after[i]) is UndefinedReturnValue:
                    after[i] = UndefinedReturnValue(True)
            set_state(after)
    return run


@_returns_in_loop
def while_stmt(test, body, get_state, set_state, symbol_names, opts):
    """``while test(): body()``; a ``while_loop`` when `test` first gives a graph tensor."""
    first = True
    while True:
        go = test()
        if _is_tensor_loop(go):
            _no_else(opts)
            if not first:  # TF decides the kind of loop once, on the first test
                raise NotImplementedError(
                    "The condition of while loop started as non-Tensor, then changed to Tensor. "
                    "This may happen either because variables changed type, or when a break or "
                    "return statement inside the loop depends on a Tensor condition. In both "
                    "cases, changing to a TF loop should remove the error.\nSee "
                    "https://github.com/tensorflow/tensorflow/blob/master/tensorflow/python/"
                    "autograph/g3doc/reference/limitations.md"
                    "#consistency-of-control-flow-types for more info.")
            _graph_loop(test, body, get_state, set_state, symbol_names, opts,
                        statement="while loop")
            return
        first = False
        if not go:
            return
        body()


def _no_else(opts):
    """A loop/else (which TF leaves unconverted) can't become a graph loop."""
    if opts.get("has_else"):
        raise errors.OperatorNotAllowedInGraphError(
            "A loop over a tensor (or with a tensor condition) cannot have an else clause: "
            "for/else and while/else run only in Python. Move the else body after the loop, "
            "guarded by a flag the loop's break sets.")


def _graph_loop(test, body, get_state, set_state, names, opts, statement=None):
    """Runs the loop as one ``while_loop`` whose loop variables are the state; the user's
    `statement` condition is checked to be a scalar bool."""
    _no_else(opts)
    initial, shaped = _defined_before(list(get_state()), body, set_state, get_state, names)
    if shaped:  # the stand-ins of variables the loop defines loop with the body's shapes
        opts = {**opts, "shape_invariants": [*opts.get("shape_invariants", ()), *shaped]}
    if any(is_undefined(v) for v in initial):
        # a return value the loop never sets (its returns are under false Python
        # conditions) stays unset and out of the loop variables
        get_state, set_state, names, initial = _without_unset(get_state, set_state, names,
                                                              initial)
    # Eagerly, as in TF, the first iteration sees the values as they are (Python numbers
    # stay numbers); what they become is checked against their tensor form.
    start = tuple(initial) if context.executing_eagerly() else None
    initial = [as_tensors(v, n, "before the loop") for v, n in zip(initial, names)]
    invariants = _shape_invariants(initial, opts)

    def cond(*values):
        set_state(values)
        go = test()
        return go if statement is None else _condition(go, statement)

    def step(*values):
        set_state(values)
        body()
        after = list(get_state())
        for name, old, new, shape in zip(names, initial, after, invariants):
            _check_iteration(name, old, new, shape)
        return tuple(as_tensors(v, n, "after one iteration") for v, n in zip(after, names))

    kwargs = {k: opts[k] for k in ("maximum_iterations", "parallel_iterations") if k in opts}
    results = control_flow.while_loop(cond, step, start or tuple(initial),
                                      shape_invariants=tuple(invariants), **kwargs)
    set_state(results)


def _without_unset(get_state, set_state, names, values):
    """`get_state`, `set_state`, `names` and `values` for the variables of `values` that are
    set; the others keep their unset values."""
    kept = [i for i, v in enumerate(values) if not is_undefined(v)]

    def get_kept():
        state = get_state()
        return tuple(state[i] for i in kept)

    def set_kept(new):
        state = list(values)
        for i, v in zip(kept, new):
            state[i] = v
        set_state(state)
    return get_kept, set_kept, [names[i] for i in kept], [values[i] for i in kept]


def _defined_before(values, body, set_state, get_state, names):
    """`values` ready to enter a graph loop: zeros standing in for each variable the loop
    defines but that has no value yet, and a TensorArray for each Python list it grows;
    and ``(stand-in, shape)`` for each stand-in, its shape after one iteration.

    What the loop makes of them is learned by tracing the body once, in a graph
    that is then dropped.
    """
    missing = [i for i, v in enumerate(values) if is_undefined(v) or v is None]
    lists = [i for i, v in enumerate(values) if type(v) is list]
    if not missing and not lists:
        return values, []
    with context.building(Graph("loop_body_probe")):
        probe = list(values)  # placeholders (and copies of the lists, which the body grows)
        for i, v in enumerate(values):
            if i not in missing:
                probe[i] = nest.map_structure(
                    _probe_placeholder, as_tensors(v, names[i], "before the loop"))
        set_state(probe)
        try:
            body()
        except Exception as e:  # the body reads the variable first: it must exist before
            if not missing or isinstance(e, NotImplementedError):
                raise  # (AutoGraph's own limits surface as they are)
            if isinstance(e, (TypeError, ValueError, KeyError)) and any(
                    type(values[i]) is UndefinedReturnValue for i in missing):
                raise NotImplementedError(
                    "a return statement cannot be placed inside this TensorFlow loop; this may "
                    "happen if a return statement depends on a static Python condition such as "
                    "a hyperparameter") from None
            raise ValueError(f"'{names[missing[0]]}' must be defined before the loop\nThe "
                             f"loop body could not run without it: "
                             f"{type(e).__name__}: {e}") from None
        after = list(get_state())
    set_state(values)
    values = list(values)
    shaped = []
    for i in missing:
        if type(values[i]) is UndefinedReturnValue and is_undefined(after[i]):
            continue  # the loop does not return: the value stays unset
        if is_undefined(after[i]) or after[i] is None:
            raise ValueError(f"'{names[i]}' must be defined before the loop")
        made = as_tensors(after[i], names[i], "after one iteration")
        values[i] = nest.map_structure(_zeros_of, made)
        shaped += [(z, _shape_of(t)) for z, t in zip(nest.flatten(values[i]),
                                                    nest.flatten(made))
                   if not isinstance(t, TensorArray) and not _is_composite(t)]
    for i in lists:
        grown = after[i]
        if isinstance(grown, list) and len(grown) > len(values[i]):
            values[i] = data_structures.as_tensor_array(values[i], grown[-1])
    return values, shaped


def _probe_placeholder(t):
    return t if isinstance(t, TensorArray) else context.get().graph.placeholder(t.dtype,
                                                                                t.shape)


def _zeros_of(t):
    """Zeros standing in for `t` where control flow has not given it a value yet, made from
    its static type alone (`t` may belong to another graph): its dtype and shape, with 0 for
    each unknown dimension (a scalar for an unknown rank). The value is never read; its
    shape merges into `t`'s (a branch's output, or a loop variable `t`'s shape keeps)."""
    dims = t.shape.as_list() if t.shape.rank is not None else []
    return array_ops.zeros([0 if d is None else d for d in dims], t.dtype)


def _shape_invariants(initial, opts):
    """Per variable: its `set_loop_options` shape invariant, else its own shape."""
    chosen = {id(v): TensorShape(s) for v, s in opts.get("shape_invariants", ())}
    return [nest.map_structure(lambda t: chosen.get(id(t), _shape_of(t)), v) for v in initial]


def _shape_of(value):
    if _is_composite(value):  # carried as its components, shaped by its type spec
        return value._type_spec
    return value.flow.shape if isinstance(value, TensorArray) else value.shape


def _is_composite(value):
    """A value with a type spec that control flow carries as its component tensors (a
    `SparseTensor`, an `Optional`)."""
    return getattr(getattr(value, "_type_spec", None), "_to_components", None) is not None


def _check_iteration(name, before, after, invariant):
    if after is None:
        raise ValueError(f"'{name}' is None at the end of the iteration.")
    if is_undefined(after):
        raise ValueError(f"'{name}' is undefined after one iteration of the loop; it must stay "
                         f"a tensor")
    after = as_tensors(after, name, "after one iteration")
    try:
        nest.assert_same_structure(before, after, check_types=False)
    except (TypeError, ValueError) as e:
        raise TypeError(f"'{name}' does not have the same nested structure after one "
                        f"iteration.\n\n{e}") from None
    for old, new, shape in zip(nest.flatten(before), nest.flatten(after),
                               nest.flatten(invariant)):
        if _is_composite(old) or _is_composite(new):
            if type(old._type_spec) is not type(getattr(new, "_type_spec", None)):
                raise TypeError(f"'{name}' is a {type(old).__name__} before the loop, but a "
                                f"{type(new).__name__} after one iteration")
            try:  # (by their specs: an extension type's Python fields must stay)
                nest.assert_same_structure(old, new, check_types=False, expand_composites=True)
            except (TypeError, ValueError) as e:
                raise TypeError(f"'{name}' does not have the same nested structure after one "
                                f"iteration.\n\n{e}") from None
            continue
        if old.dtype != new.dtype:
            raise TypeError(f"'{name}' has dtype {old.dtype.name} before the loop, but dtype "
                            f"{new.dtype.name} after one iteration")
        if not isinstance(new, TensorArray) and not control_flow.fits(new.shape, shape):
            raise ValueError(f"'{name}' has shape {old.shape} before the loop, but shape "
                             f"{new.shape} after one iteration. Use "
                             f"tf.autograph.experimental.set_loop_options to set shape "
                             f"invariants.")


# -- for --------------------------------------------------------------------------------------

@_returns_in_loop
def for_stmt(iter_, extra_test, body, get_state, set_state, symbol_names, opts):
    """``for x in iter_: body(x)`` (stopping once ``extra_test()`` is false).

    A graph tensor is iterated along its first dimension by a ``while_loop``.
    A Python iterable unrolls; should `extra_test` become a graph tensor (a
    ``break`` or ``return`` under a tensor condition), TF's NotImplementedError
    is raised: such a loop has to be a TF loop.
    """
    if _is_tensor_loop(iter_):
        if isinstance(iter_, SymbolicTensor) and iter_.op.type == "Range":
            _range_for(*iter_.op.inputs, extra_test, body, get_state, set_state,
                       symbol_names, opts)
            return
        _graph_for(convert_to_tensor(iter_), extra_test, body, get_state, set_state,
                   symbol_names, opts)
        return
    if hasattr(iter_, "_as_graph_iterator") and not context.executing_eagerly():
        # a dataset or its iterator: a graph loop that iterates it on every call
        iterator = iter_._as_graph_iterator()
        if hasattr(iter_, "reduce"):  # TF's loop over a dataset is a scan: it runs to the end
            opts = {k: v for k, v in opts.items() if k != "maximum_iterations"}
        before = tuple(get_state())
        try:
            _iterator_for(iterator, extra_test, body, get_state, set_state, symbol_names,
                          opts)
        except ValueError as e:
            # Over a dataset, TF's loop is a reduce, whose state may change shape from one
            # element to the next: the variables then loop with unknown dimensions.
            if not hasattr(iter_, "reduce") or "after one iteration" not in str(e):
                raise
            try:
                set_state(before)
                _iterator_for(iterator, extra_test, body, get_state, set_state, symbol_names,
                              {**opts, "shape_invariants": _relaxed_invariants(before, opts)})
            except ValueError as again:
                # the rank changes too (an element of unknown rank joins the state)
                if "after one iteration" not in str(again):
                    raise
                set_state(before)
                _iterator_for(iterator, extra_test, body, get_state, set_state, symbol_names,
                              {**opts, "shape_invariants": _relaxed_invariants(
                                  before, opts, keep_rank=False)})
        return
    rows = _graph_rows(iter_)
    if rows is not None:  # a ragged tensor of rows only run time counts: a loop over them
        _graph_for(array_ops.range(rows), extra_test, lambda i: body(iter_[i]), get_state,
                   set_state, symbol_names, opts)
        return
    for item in iter_:
        go = True if extra_test is None else extra_test()
        if is_graph_tensor(go):
            raise NotImplementedError(
                "break and return statements which depend on a TF condition are not "
                "supported in Python for loops. Did you intend to make it a TF loop?\nSee "
                "https://github.com/tensorflow/tensorflow/blob/master/tensorflow/python/"
                "autograph/g3doc/reference/limitations.md"
                "#consistency-of-control-flow-types for more info.")
        if not go:
            break
        else:
            body(item)


def _graph_rows(value):
    """The row count of a composite tensor with rows (a `RaggedTensor`) that a graph knows
    only at run time, else None: Python iteration over its rows would never end."""
    if context.executing_eagerly() or not _is_composite(value) or not hasattr(value, "nrows"):
        return None
    rows = value.nrows()
    return rows if is_graph_tensor(rows) and get_static_value(rows) is None else None


def _relaxed_invariants(state, opts, keep_rank=True):
    """`opts`' shape invariants, plus unknown dimensions (or, without `keep_rank`, an unknown
    shape) for every other tensor of `state`."""
    chosen = list(opts.get("shape_invariants", ()))
    given = {id(v) for v, _ in chosen}
    for leaf in nest.flatten([v for v in state if not is_undefined(v)]):
        if (isinstance(leaf, Tensor) and id(leaf) not in given
                and leaf.shape.rank is not None):
            chosen.append((leaf, TensorShape([None] * leaf.shape.rank if keep_rank else None)))
    return chosen


def _nothing():
    pass


def _iterator_for(iterator, extra_test, body, get_state, set_state, names, opts):
    """A ``while_loop`` over a dataset's iterator, as TF builds it: each step takes the
    next element as an optional and runs the body under a ``cond`` on its presence, so a
    ``break`` leaves the rest of the elements in the iterator."""
    more = [convert_to_tensor(True)]

    def get_all():
        return (more[0], *get_state())

    def set_all(values):
        more[0] = values[0]
        set_state(values[1:])

    def test():
        return more[0] if extra_test is None else math_ops.logical_and(
            more[0], convert_to_tensor(extra_test()))

    def step():
        optional = iterator.get_next_as_optional()
        more[0] = optional.has_value()
        if_stmt(more[0], lambda: body(optional.get_value()), _nothing, get_state, set_state,
                names, len(names))

    _graph_loop(test, step, get_all, set_all, ("<iterator has more>", *names), opts)


def _range_for(start, limit, delta, extra_test, body, get_state, set_state, names, opts):
    """TF's loop over ``tf.range(start, limit, delta)`` in a graph: it counts from `start`
    by `delta` and never runs the range itself, which fails where `start` is past `limit`
    (the loop then runs no times)."""
    index = [start]
    step_sign = get_static_value(delta)
    iterate = opts.get("iterate_names")

    def get_all():  # the loop variable, not set before the loop, starts as `start` (TF's)
        return (index[0], *(index[0] if name == iterate and is_undefined(value) else value
                            for name, value in zip(names, get_state())))

    def set_all(values):
        index[0] = values[0]
        set_state(values[1:])

    def test():
        i = index[0]
        if step_sign is not None:
            more = math_ops.less(i, limit) if step_sign > 0 else math_ops.greater(i, limit)
        else:
            zero = array_ops.zeros_like(delta)
            more = math_ops.logical_or(
                math_ops.logical_and(math_ops.greater(delta, zero), math_ops.less(i, limit)),
                math_ops.logical_and(math_ops.less(delta, zero), math_ops.greater(i, limit)))
        return more if extra_test is None else math_ops.logical_and(
            more, convert_to_tensor(extra_test()))

    def step():
        body(index[0])
        index[0] = math_ops.add(index[0], delta)

    _graph_loop(test, step, get_all, set_all, ("<loop index>", *names), opts)


def scalar_len_error(s):
    """TF's ValueError for the length of scalar graph tensor `s` (a loop over it too),
    which writes the graph's tensor of its shape."""
    return ValueError(f"len requires a non-scalar tensor, got one of shape "
                      f"{array_ops.shape(s)}")


def _graph_for(tensor, extra_test, body, get_state, set_state, names, opts):
    if tensor.shape.rank == 0:  # (TF's loop takes the tensor's len first)
        raise scalar_len_error(tensor)
    length = tensor.shape[0] if tensor.shape[0] is not None else array_ops.shape(tensor)[0]
    index = [convert_to_tensor(0)]

    def get_all():
        return (index[0], *get_state())

    def set_all(values):
        index[0] = values[0]
        set_state(values[1:])

    def test():
        more = index[0] < length
        return more if extra_test is None else math_ops.logical_and(
            more, convert_to_tensor(extra_test()))

    def step():
        body(array_ops.gather(tensor, index[0]))
        index[0] = index[0] + 1

    _graph_loop(test, step, get_all, set_all, ("<loop index>", *names), opts)

