"""Tensor element types (``tf.dtypes``)."""
from eagerflow._src.core.dtypes import (  # noqa: F401
    DType, as_dtype, bfloat16, bool, complex64, complex128, double, float16, float32, float64,
    half, int8, int16, int32, int64, resource, string, uint8, uint16, uint32, uint64, variant)
from eagerflow._src.ops.cast_ops import cast, saturate_cast  # noqa: F401
