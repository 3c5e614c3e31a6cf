"""``tf.autograph``: converting functions by hand, reading converted code, loop directives.

>>> def f(x):
...     while x > 10:
...         x = x // 2
...     return x
>>> "ag__.while_stmt" in tf.autograph.to_code(f)
True
"""
from eagerflow._src.autograph import conversion
from eagerflow._src.autograph.operators.control_flow import is_graph_tensor
from eagerflow._src.backend.api_export import export
from eagerflow._src.core.convert import convert_to_tensor
from eagerflow._src.graph.tensor_array import TensorArray
from eagerflow._src.ops import array_ops

do_not_convert = conversion.do_not_convert
Feature = conversion.Feature


@export("autograph.to_graph")
def to_graph(entity, recursive=True, experimental_optional_features=None):
    """`entity` (a function or method) converted: Python control flow on tensors becomes graph
    control flow when it runs while a graph is built."""
    entity = getattr(entity, "python_function", entity)
    conversion.check_convertible(entity)
    return conversion.convert(entity, conversion.features(experimental_optional_features))


@export("autograph.to_code")
def to_code(entity, recursive=True, experimental_optional_features=None):
    """The converted source of `entity`, as a string."""
    return conversion.to_code(entity, conversion.features(experimental_optional_features))


@export("autograph.experimental.set_loop_options")
def set_loop_options(parallel_iterations=None, swap_memory=None, maximum_iterations=None,
                     shape_invariants=None):
    """Options of the enclosing loop, read by the conversion; a call that runs does nothing."""


@export("autograph.experimental.set_element_type")
def set_element_type(entity, dtype, shape=None):
    """Declares the element type of list `entity` (a hint for older AutoGraph code)."""


@export("autograph.experimental.stack")
def stack(list_or_tensor, element_dtype=None, strict=True):
    """A list (or a list a tensor loop built) stacked into one tensor; a tensor as it is."""
    if isinstance(list_or_tensor, TensorArray):
        return list_or_tensor.stack()
    if isinstance(list_or_tensor, (list, tuple)):
        if not list_or_tensor and element_dtype is None:
            raise ValueError("cannot stack an empty list without element_dtype")
        return array_ops.stack(list_or_tensor) if list_or_tensor else array_ops.zeros(
            [0], element_dtype)
    if strict and not is_graph_tensor(list_or_tensor):
        return convert_to_tensor(list_or_tensor)
    return list_or_tensor


@export("autograph.set_verbosity")
def set_verbosity(level, alsologtostdout=False):
    """Accepted for compatibility: conversion reports through the ``eagerflow`` logger."""


@export("autograph.trace")
def trace(*args):
    """Prints `args` when it runs (Python's ``print`` of the values)."""
    print(*args)
