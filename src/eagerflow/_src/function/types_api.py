"""``tf.types.experimental``: the types of functions and of what converts to a tensor, for
``isinstance`` checks and annotations.

>>> isinstance(tf.function(lambda x: x), tf.types.experimental.GenericFunction)
True
"""
import typing

import numpy as np

from eagerflow._src.backend.api_export import export
from eagerflow._src.core.tensor import Tensor
from eagerflow._src.core.variables import Variable
from eagerflow._src.function.concrete_function import ConcreteFunction, FunctionType
from eagerflow._src.function.polymorphic_function import Function

GenericFunction = Function
export("types.experimental.GenericFunction",
       "types.experimental.PolymorphicFunction").export_constant(__name__, "GenericFunction")
export("types.experimental.ConcreteFunction").export_constant(__name__, "ConcreteFunction")
export("types.experimental.FunctionType").export_constant(__name__, "FunctionType")

# What TF's ops accept where a tensor is expected.
TensorLike = typing.Union[Tensor, Variable, int, float, bool, str, bytes, complex, tuple, list,
                          np.ndarray, np.generic]
export("types.experimental.TensorLike").export_constant(__name__, "TensorLike")
