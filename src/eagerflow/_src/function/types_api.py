"""``tf.types.experimental``: the types of functions and of what converts to a tensor, for
``isinstance`` checks and annotations.

>>> isinstance(tf.function(lambda x: x), tf.types.experimental.GenericFunction)
True
"""
import abc
import typing

import numpy as np

from eagerflow._src.backend.api_export import export
from eagerflow._src.core.tensor import Tensor
from eagerflow._src.core.variables import Variable
from eagerflow._src.function.concrete_function import ConcreteFunction, FunctionType
from eagerflow._src.function.polymorphic_function import Function



@export("types.experimental.Callable")
class Callable(abc.ABC):
    """The base of TF's callables: what `tf.function` makes and its concrete functions.

    >>> isinstance(tf.function(lambda x: x), tf.types.experimental.Callable)
    True
    """

    @property
    @abc.abstractmethod
    def function_type(self):
        """The `FunctionType` of the callable's parameters."""


Callable.register(Function)
Callable.register(ConcreteFunction)

GenericFunction = Function
export("types.experimental.GenericFunction",
       "types.experimental.PolymorphicFunction").export_constant(__name__, "GenericFunction")
export("types.experimental.ConcreteFunction").export_constant(__name__, "ConcreteFunction")
export("types.experimental.FunctionType").export_constant(__name__, "FunctionType")

# What TF's ops accept where a tensor is expected.
TensorLike = typing.Union[Tensor, Variable, int, float, bool, str, bytes, complex, tuple, list,
                          np.ndarray, np.generic]
export("types.experimental.TensorLike").export_constant(__name__, "TensorLike")


@export("types.experimental.TraceType")
class TraceType(abc.ABC):
    """What `tf.function` keys a traced graph by for an argument that implements the tracing
    protocol (``__tf_tracing_type__``): calls whose arguments' trace types are equal share a
    trace, and the traced Python function receives `placeholder_value` for the argument.

    >>> class Kind(tf.types.experimental.TraceType):
    ...     def __init__(self, value): self.value = value
    ...     def is_subtype_of(self, other): return self == other
    ...     def most_specific_common_supertype(self, others):
    ...         return self if all(self == o for o in others) else None
    ...     def placeholder_value(self, placeholder_context=None): return self.value
    ...     def __eq__(self, other): return type(self.value) is type(other.value)
    ...     def __hash__(self): return hash(type(self.value))
    >>> class Three:
    ...     def __tf_tracing_type__(self, context): return Kind(self)
    ...     n = 3
    >>> f = tf.function(lambda x, k: x * k.n)
    >>> int(f(tf.constant(2), Three())), int(f(tf.constant(5), Three()))
    (6, 15)
    >>> f.experimental_get_tracing_count()
    1
    """

    @abc.abstractmethod
    def is_subtype_of(self, other):
        """Whether a value of this type can be used where `other` is expected."""

    @abc.abstractmethod
    def most_specific_common_supertype(self, others):
        """The most specific type that this and every one of `others` subtype, or None."""

    @abc.abstractmethod
    def placeholder_value(self, placeholder_context):
        """The value the traced function receives for an argument of this type."""

    def to_tensors(self, value):
        """The tensors of `value` the graph takes as inputs (none by default)."""
        return []

    def from_tensors(self, tensors):
        """A value of this type from its tensors (the placeholder value by default)."""
        return self.placeholder_value(None)

    def flatten(self):
        """The types of the tensors `to_tensors` gives (none by default)."""
        return []

    def cast(self, value, cast_context):
        """`value` as a value of this type (as it is by default)."""
        return value

    @abc.abstractmethod
    def __eq__(self, other):
        pass

    @abc.abstractmethod
    def __hash__(self):
        pass


@typing.runtime_checkable
class SupportsTracingProtocol(typing.Protocol):
    """An object that gives `tf.function` its own `TraceType` (``__tf_tracing_type__``)."""

    @abc.abstractmethod
    def __tf_tracing_type__(self, context):
        """The `TraceType` of this object."""


# (exported as a constant: an attribute set on a protocol would be one more it asks for)
export("types.experimental.SupportsTracingProtocol").export_constant(
    __name__, "SupportsTracingProtocol")
