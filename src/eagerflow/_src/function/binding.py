"""Binding a call of a `ConcreteFunction` to its graph inputs, with TF's errors.

As in TF, a call is first bound to the structured signature (every traced
parameter required, literals compared by value, tensors of any shape, Python
values converted and checked against their spec); failing that, to the flat
signature (the graph's tensor inputs, passed positionally as tensors).  When
both fail the error names both reasons.
"""
import collections.abc
import inspect

import numpy as np

from eagerflow._src.core import errors
from eagerflow._src.core.convert import convert_to_tensor
from eagerflow._src.core.registry import kernel_type_name
from eagerflow._src.core.tensor import Tensor
from eagerflow._src.core.tensor_spec import TensorSpec
from eagerflow._src.core.variables import Variable
from eagerflow._src.function.trace_key import VariableSpec


def bind(concrete, args, kwargs):
    """The tensors feeding `concrete`'s graph for this call (TypeError when it does not fit)."""
    try:
        tensors = _bind_structured(concrete, args, kwargs)
    except _InputTypeError as e:
        raise e.at(concrete) from None
    except TypeError as structured:
        try:
            tensors = _bind_flat(concrete, args, kwargs)
        except TypeError as flat:
            raise TypeError(f"{structured}\nFallback to flat signature also failed due to: "
                            f"{flat}") from None
    _check_dtypes(concrete, tensors)
    return tensors


def _check_dtypes(concrete, tensors):
    """TF's InvalidArgumentError for a tensor whose dtype is not its input's."""
    tensors = [t for t in tensors if not isinstance(t, Variable)]
    for i, (tensor, inp) in enumerate(zip(tensors, concrete._inputs)):
        if isinstance(tensor, Tensor) and tensor.dtype != inp.dtype:
            raise _InputTypeError(i, kernel_type_name(inp.dtype),
                                  kernel_type_name(tensor.dtype)).at(concrete)


class _InputTypeError(Exception):
    """An input of the wrong type, found while binding; `at` gives TF's error for it."""

    def __init__(self, index, expected, got):
        super().__init__(index, expected, got)
        self.index, self.expected, self.got = index, expected, got

    def at(self, concrete):
        op = concrete._inference_name
        return errors.InvalidArgumentError(
            None, op, f"cannot compute {op} as input #{self.index}(zero-based) was expected to "
            f"be a {self.expected} tensor but is a {self.got} tensor [Op:{op}]")


def _bind_structured(concrete, args, kwargs):
    params = concrete._parameters()
    signature = inspect.Signature([inspect.Parameter(name, getattr(inspect.Parameter, kind))
                                   for name, kind, _ in params])
    tensors = []
    try:
        bound = signature.bind(*args, **kwargs).arguments
        for name, _, expected in params:
            _cast(bound[name], expected, tensors, concrete._type_text)
    except TypeError as e:
        raise TypeError(f"Binding inputs to tf.function failed due to `{e}`. Received args: "
                        f"{args!r} and kwargs: {kwargs!r} for signature: "
                        f"{concrete.function_type}.") from None
    return tensors


def mismatched_component(value, spec, type_text=repr):
    """TF's complaint about the first tensor of composite `value` that its own kind of
    `spec` does not take (``Can not cast TensorSpec(...) to TensorSpec(...)``); None when
    `value` is of another kind or no one tensor differs."""
    own = getattr(value, "_type_spec", None)
    if type(own) is not type(spec):
        return None
    for want, got in zip(spec._component_specs, own._component_specs):
        if isinstance(want, TensorSpec) and isinstance(got, TensorSpec) and \
                not want.is_compatible_with(got):
            return f"Can not cast {TensorSpec(got.shape, got.dtype)!r} to {type_text(want)}"
    return None


def _cast(value, expected, tensors, type_text):
    """Appends the tensors of `value` to `tensors`, checking it against the traced `expected`.

    A variable argument is appended too, the first time its alias appears.
    """
    if isinstance(expected, VariableSpec):
        if not isinstance(value, Variable):  # TF's error when the graph runs
            tensor = value if isinstance(value, Tensor) else convert_to_tensor(value)
            raise _InputTypeError(len(tensors), "resource", kernel_type_name(tensor.dtype))
        if value.dtype != expected.dtype:  # TF fails reading it, with this text
            raise errors.InvalidArgumentError(
                None, "ReadVariableOp", f"Trying to read variable with wrong dtype. Expected "
                f"{kernel_type_name(expected.dtype)} got {kernel_type_name(value.dtype)}")
        if not expected.shape.is_compatible_with(value.shape):
            raise TypeError(f"Can not cast {value!r} to {type_text(expected)}")
        if expected.alias_id == sum(isinstance(t, Variable) for t in tensors):
            tensors.append(value)
    elif hasattr(expected, "_argument_tensor"):  # a DatasetSpec: the dataset's variant
        tensor = expected._argument_tensor(value)
        if tensor is None:
            raise TypeError(f"Can not cast {value!r} to {type_text(expected)}")
        tensors.append(tensor)
    elif isinstance(expected, TensorSpec):
        if not isinstance(value, (Tensor, np.ndarray)) or isinstance(value, Variable) or (
                isinstance(value, np.ndarray) and value.dtype.kind in "USO"):
            # (NumPy text becomes a string tensor's UTF-8 bytes)
            tensor = convert_to_tensor(value, dtype_hint=expected.dtype)
            if not expected.is_compatible_with(tensor):
                raise TypeError(f"Can not cast {TensorSpec(tensor.shape, tensor.dtype)!r} to "
                                f"{type_text(expected)}")
            value = tensor
        tensors.append(value)  # a tensor's dtype is checked when the graph runs, as in TF
    elif hasattr(expected, "_to_components"):  # a composite's spec: its component tensors
        if not expected.is_compatible_with(value):
            raise TypeError(mismatched_component(value, expected, type_text) or
                            f"Can not cast {value!r} to {type_text(expected)}")
        tensors.extend(expected._to_components(value))
    elif isinstance(expected, (dict, list, tuple)):
        for v, e in matched_parts(value, expected, type_text):
            _cast(v, e, tensors, type_text)
    elif not isinstance(expected, Variable) and value != expected:
        raise TypeError(f"Can not cast {value!r} to {type_text(expected)}")


def matched_parts(value, expected, type_text):
    """``(part of value, part of expected)`` for a nested `expected` (a dict, list, tuple or
    namedtuple of specs or literals), in flattening order, or TF's TypeError when `value` is
    not of its kind: a list for a list, any tuple for a tuple, a value with the same fields
    for a namedtuple (taken by name), a mapping with the same keys for a dict."""
    if isinstance(expected, dict):
        if not isinstance(value, collections.abc.Mapping):
            raise TypeError(f"Can not cast {value!r} to a Dict type.")
        if set(value) != set(expected):
            raise TypeError(f"{value!r} has different keys with the TraceType "
                            f"{type_text(expected)}.")
        return [(value[k], expected[k]) for k in sorted(expected)]
    fields = getattr(type(expected), "_fields", None)
    if fields is not None:
        if not all(hasattr(value, f) for f in fields):
            raise TypeError(f"Cannot cast {value!r} to type {type(expected)}.")
        if set(getattr(value, "_fields", fields)) != set(fields):
            raise TypeError(f"{value!r} has different attributes with the TraceType "
                            f"{type_text(expected)}")
        return [(getattr(value, f), e) for f, e in zip(fields, expected)]
    kind = list if isinstance(expected, list) else tuple
    if not isinstance(value, kind):
        raise TypeError(f"Can not cast {value!r} to {kind.__name__} type.")
    if len(value) != len(expected):  # (TF's words for each kind)
        raise TypeError(f"Expected {value!r} to have length of {len(expected)}"
                        if kind is tuple else "object of type 'Tuple' has no len()")
    return list(zip(value, expected))


def _bind_flat(concrete, args, kwargs):
    """The call as the graph's tensor inputs, named by their placeholders, in order."""
    names = [t.op.name for t in concrete._inputs]
    summary = f"{concrete._name}({', '.join(names)})"
    # (a loaded function allows as many as were saved: none for a signature)
    allowed = getattr(concrete, "_num_positional_args", None)
    allowed = len(names) if allowed is None else allowed
    if len(args) > allowed:
        raise TypeError(f"{summary} takes {allowed} positional arguments, got {len(args)}.")
    missing = [n for n in names[len(args):] if n not in kwargs]  # (TF checks this first)
    if missing:
        raise TypeError(f"{summary} missing required arguments: {', '.join(missing)}.")
    unexpected = [k for k in kwargs if k not in names[len(args):]]
    if unexpected:
        raise TypeError(f"{summary} got unexpected keyword arguments: {', '.join(unexpected)}.")
    values = list(args) + [kwargs[n] for n in names[len(args):]]
    for i, value in enumerate(values):
        if not isinstance(value, Tensor) or isinstance(value, Variable):
            raise TypeError(f"{summary}: expected argument #{i}(zero-based) to be a Tensor; "
                            f"got {type(value).__name__} ({value!r}).")
    return values
