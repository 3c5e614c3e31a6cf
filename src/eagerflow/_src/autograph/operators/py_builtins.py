"""Python builtins as converted code calls them: on graph tensors, the matching ops.

``len`` gives the static length or a length tensor (of a dataset, its cardinality;
of a ragged or sparse tensor, its rows); ``range`` with a tensor
bound is ``tf.range``; ``int``/``float`` cast; ``abs``/``any``/``all`` reduce;
``sorted`` sorts; ``map``, ``filter``, ``abs``, ``any``, ``all``, ``enumerate`` and ``zip``
of datasets are dataset transformations, as in TF.
``print`` stays Python's, as in TensorFlow 2: it runs while tracing (use
``tf.print`` to print when the graph runs).

>>> len_([1, 2, 3])
3
>>> OVERRIDES[len] is len_
True
"""
import builtins

import numpy as np

from eagerflow._src.autodiff import script_ops
from eagerflow._src.autograph.operators.control_flow import (is_graph_tensor,
                                                             scalar_len_error)
from eagerflow._src.core import context, dtypes, nest
from eagerflow._src.core.convert import convert_to_tensor
from eagerflow._src.graph import functional_ops
from eagerflow._src.graph.tensor_array import TensorArray
from eagerflow._src.ops import (array_ops, cast_ops, debugging_ops, math_ops, reduction_ops,
                                string_ops)


# -- len, range, int, float, abs, any, all --------------------------------------------------------

def len_(s):
    """``len(s)``: a tensor's static first dimension, else a tensor holding it."""
    if isinstance(s, TensorArray):
        return s.size()
    if _is_dataset(s) and not context.executing_eagerly():
        # as TF: the cardinality as an int64 tensor, checked when the graph runs (a dataset of
        # the function's tensors is counted then), which must be a number of elements
        n = s.cardinality()
        message = string_ops.join(["len requires dataset with definitive cardinality, got ",
                                   string_ops.as_string(n)])
        debugging_ops.Assert(math_ops.greater_equal(n, np.int64(0)), [message])
        return n
    if _is_composite(s) and not context.executing_eagerly():
        # a ragged or sparse tensor of the graph: as a tensor, its number of rows
        if s.shape.rank == 0:
            raise scalar_len_error(s)
        if s.shape.rank is not None and s.shape[0] is not None:
            return s.shape[0]
        return s.nrows() if hasattr(s, "nrows") else s.dense_shape[0]
    if not is_graph_tensor(s):
        return builtins.len(s)
    s = convert_to_tensor(s)
    if s.shape.rank == 0:
        raise scalar_len_error(s)
    if s.shape.rank is not None and s.shape[0] is not None:
        return s.shape[0]
    return array_ops.shape(s)[0]


def range_(start_or_stop, stop=None, step=None):
    """``range``; a tensor bound makes it ``tf.range``, which a loop runs in the graph."""
    args = [a for a in (start_or_stop, stop, step) if a is not None]
    if any(is_graph_tensor(a) for a in args):
        return array_ops.range(*args)
    return builtins.range(*args)


def _cast_or(python_type, dtype):
    def cast(x=0, *args):
        if is_graph_tensor(x) and not args:
            return cast_ops.cast(x, dtype)
        return python_type(x, *args)
    cast.__name__ = f"{python_type.__name__}_"
    cast.__doc__ = f"``{python_type.__name__}(x)``; a graph tensor is cast to {dtype.name}."
    return cast


int_ = _cast_or(builtins.int, dtypes.int32)
float_ = _cast_or(builtins.float, dtypes.float32)


def _op_or(python_fn, op, of_dataset):
    def call(x, *args):
        if args:
            return python_fn(x, *args)
        if is_graph_tensor(x):
            return op(x)
        return of_dataset(x) if _is_dataset(x) else python_fn(x)
    call.__name__ = f"{python_fn.__name__}_"
    call.__doc__ = (f"``{python_fn.__name__}(x)``; a graph tensor gets the matching op, a "
                    f"dataset what TF's AutoGraph makes of it.")
    return call


def _dataset_abs(ds):
    """The dataset of `ds`'s elements' absolute values."""
    if len(nest.flatten(ds.element_spec)) == 1:
        return ds.map(math_ops.abs)
    return ds.map(lambda *e: nest.map_structure(math_ops.abs, e))


def _dataset_truth(name, keep, empty):
    """``any``/``all`` of a dataset of bool scalars: the first element `keep` keeps (one
    that decides), else `empty`, found by the dataset when it runs."""
    def reduce(ds):
        specs = nest.flatten(ds.element_spec)
        if len(specs) != 1 or specs[0].dtype != dtypes.bool:
            raise ValueError(f'in graph mode, the "{name}" builtin only supports datasets '
                             f"that return bool scalars; got: {ds.element_spec}")
        return ds.filter(keep).take(1).reduce(convert_to_tensor(empty), lambda _, y: y)
    return reduce


abs_ = _op_or(builtins.abs, math_ops.abs, _dataset_abs)
any_ = _op_or(builtins.any, reduction_ops.reduce_any,
              _dataset_truth("any", lambda x: x, False))
all_ = _op_or(builtins.all, reduction_ops.reduce_all,
              _dataset_truth("all", math_ops.logical_not, True))

def sorted_(iterable, key=None, reverse=False):
    """``sorted(iterable)``; a graph tensor (1-D) is sorted by ``tf.sort``, or, with `key`,
    gathered in the order ``tf.argsort`` gives `key` mapped over its elements, as in TF."""
    if not is_graph_tensor(iterable):
        return builtins.sorted(iterable, key=key, reverse=reverse)
    values = convert_to_tensor(iterable)
    direction = "DESCENDING" if reverse else "ASCENDING"
    order_of = values if key is None else functional_ops.vectorized_map(key, values)
    if order_of.shape.rank is not None and order_of.shape.rank != 1:
        raise ValueError("sort only supports only 1D tensors")
    if key is None:
        return reduction_ops.sort(values, direction=direction)
    return array_ops.gather(values, reduction_ops.argsort(order_of, direction=direction))


def print_(*objects, **kwargs):
    """``print`` with the ``BUILTIN_FUNCTIONS`` feature: given a graph tensor, Python's
    ``print`` of the values (strings decoded) each time the graph runs, as TF's."""
    unknown = set(kwargs) - {"sep", "end", "file", "flush"}
    if unknown:
        raise ValueError(f"invalid keyword arguments: {tuple(unknown)}")
    tensors = [i for i, o in enumerate(objects) if is_graph_tensor(o)]
    if not tensors:
        return builtins.print(*objects, **kwargs)
    kwargs.setdefault("flush", True)

    def run(*values):
        shown = list(objects)
        for i, value in zip(tensors, values):
            value = value.numpy()
            shown[i] = value.decode("utf-8") if isinstance(value, bytes) else value
        builtins.print(*shown, **kwargs)
        return []
    return script_ops.py_function(run, [objects[i] for i in tensors], [])


# -- enumerate, zip over datasets -----------------------------------------------------------------

def _is_composite(x):
    """A ragged or sparse tensor (which ``len`` counts the rows of in converted code)."""
    return type(x).__name__ in ("RaggedTensor", "SparseTensor") and hasattr(x, "shape")


def _is_dataset(x):
    return hasattr(x, "_as_graph_iterator") and hasattr(x, "element_spec") and \
        hasattr(x, "enumerate")


def enumerate_(s, start=0):
    """``enumerate(s)``; of a dataset, ``s.enumerate(start)`` (int64 counts), as in TF, so
    that a loop over it is a graph loop."""
    if _is_dataset(s):
        return s.enumerate(start)
    return builtins.enumerate(s, start)


def map_(fn, *iterables):
    """``map(fn, ...)``; of datasets only, the zipped datasets mapped by `fn`, as in TF."""
    if iterables and builtins.all(_is_dataset(s) for s in iterables):
        return type(iterables[0]).zip(iterables).map(fn)
    return builtins.map(fn, *iterables)


def filter_(fn, iterable):
    """``filter(fn, iterable)``; of a dataset, ``iterable.filter(fn)``, as in TF."""
    if _is_dataset(iterable):
        return iterable.filter(fn)
    return builtins.filter(fn, iterable)


def zip_(*iterables, **kwargs):
    """``zip(...)``; of datasets only, ``Dataset.zip``, as in TF."""
    if iterables and not kwargs and builtins.all(_is_dataset(s) for s in iterables):
        return type(iterables[0]).zip(iterables)
    return builtins.zip(*iterables, **kwargs)


OVERRIDES = {builtins.len: len_, builtins.range: range_,
             builtins.int: int_, builtins.float: float_, builtins.abs: abs_,
             builtins.any: any_, builtins.all: all_, builtins.sorted: sorted_,
             builtins.enumerate: enumerate_,
             builtins.zip: zip_, builtins.map: map_, builtins.filter: filter_}
