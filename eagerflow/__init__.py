"""eagerflow: TensorFlow 2's programming model, eager-first, on NumPy."""
from eagerflow._src.core.dtypes import (
    DType, as_dtype, bfloat16, bool, complex64, complex128, double, float16, float32, float64,
    half, int8, int16, int32, int64, resource, string, uint8, uint16, uint32, uint64, variant)
from eagerflow._src.core.tensor_shape import TensorShape
from eagerflow._src.core.tensor_spec import TensorSpec
from eagerflow._src.core.tensor import Tensor
from eagerflow._src.core.convert import constant, convert_to_tensor
from eagerflow._src.core.context import device, executing_eagerly
from eagerflow._src.ops.cast_ops import cast, identity, saturate_cast
from eagerflow._src.ops.math_ops import (
    abs, add, cos, divide, equal, exp, floordiv, greater, greater_equal, less, less_equal, log,
    logical_and, logical_not, logical_or, maximum, minimum, multiply, negative, not_equal, pow,
    realdiv, sign, sin, sqrt, square, subtract, tan, tanh, truediv, truncatediv)
