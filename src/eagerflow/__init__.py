"""eagerflow: TensorFlow 2's programming model, eager-first, on NumPy.

>>> import eagerflow as tf
>>> tf.constant([1, 2]) * 2
<tf.Tensor: shape=(2,), dtype=int32, numpy=array([2, 4], dtype=int32)>
"""
from eagerflow._src.autodiff.custom_gradient import (  # noqa: F401
    custom_gradient, grad_pass_through, recompute_grad)
from eagerflow._src.autodiff.graph_gradients import gradients  # noqa: F401
from eagerflow._src.autodiff.tape import GradientTape, UnconnectedGradients  # noqa: F401
from eagerflow._src.backend.devices import DeviceSpec  # noqa: F401
from eagerflow._src.core.context import (  # noqa: F401
    device, executing_eagerly, init_scope, name_scope)
from eagerflow._src.core.convert import (  # noqa: F401
    constant, convert_to_tensor, get_static_value, is_tensor,
    register_tensor_conversion_function)
from eagerflow._src.core.dtypes import (  # noqa: F401
    DType, as_dtype, bfloat16, bool, complex64, complex128, double, float16, float32, float64,
    half, int8, int16, int32, int64, qint8, qint16, qint32, quint8, quint16, resource, string,
    uint8, uint16, uint32, uint64, variant)
from eagerflow._src.core.module import Module  # noqa: F401
from eagerflow._src.function.polymorphic_function import function  # noqa: F401
from eagerflow._src.core.tensor import Tensor, newaxis  # noqa: F401
from eagerflow._src.core.tensor_shape import TensorShape  # noqa: F401
from eagerflow._src.core.tensor_spec import TensorSpec  # noqa: F401
from eagerflow._src.ops.indexed_slices import IndexedSlices  # noqa: F401
from eagerflow._src.core.variables import (  # noqa: F401
    Variable, VariableAggregation, VariableSynchronization)
import eagerflow._src.ops.overloads  # noqa: F401,E402  (installs Tensor's operators)
from eagerflow._src.graph.control_flow import (  # noqa: F401,E402
    case, cond, switch_case, while_loop)
from eagerflow._src.graph.functional_ops import (  # noqa: F401,E402
    foldl, foldr, map_fn, scan, vectorized_map)
from eagerflow._src.graph.tensor_array import TensorArray  # noqa: F401,E402
import eagerflow._src.graph.tape_compiler  # noqa: F401,E402  (compiles repeated backward passes)
from eagerflow._src.ops.array_ops import (  # noqa: F401
    boolean_mask, broadcast_dynamic_shape, broadcast_static_shape, broadcast_to, concat,
    einsum, expand_dims, eye, fill, gather, gather_nd, linspace, meshgrid, one_hot, ones,
    ones_like, pad, range, rank, repeat, reshape, reverse, roll, scatter_nd, searchsorted,
    sequence_mask, shape, shape_n, size, slice, split, squeeze, stack, tensor_scatter_nd_add,
    tensor_scatter_nd_max, tensor_scatter_nd_min, tensor_scatter_nd_sub,
    tensor_scatter_nd_update, tensordot, tile, transpose, unstack, where, zeros, zeros_like)
from eagerflow._src.ops.cast_ops import (  # noqa: F401
    cast, ensure_shape, identity, identity_n, saturate_cast, stop_gradient)
from eagerflow._src.ops.debugging_ops import (  # noqa: F401
    assert_equal, assert_greater, assert_less, assert_rank)
from eagerflow._src.ops.linalg_ops import (  # noqa: F401
    matmul, norm)
from eagerflow._src.ops.logging_ops import print  # noqa: F401,A004 (TF's public name)
from eagerflow._src.ops.math_ops import (  # noqa: F401
    abs, acos, acosh, add, asin, asinh, atan, atan2, atanh, complex, cos, cosh, divide, equal,
    exp, floor, greater, greater_equal, less, less_equal, logical_and, logical_not, logical_or,
    maximum, minimum, multiply, negative, not_equal, pow, realdiv, round, scalar_mul, sigmoid,
    sign, sin, sinh, sqrt, square, subtract, tan, tanh, truediv, truncatediv, truncatemod)
from eagerflow._src.ops.partition_ops import (  # noqa: F401
    dynamic_partition, dynamic_stitch, histogram_fixed_width, histogram_fixed_width_bins)
from eagerflow._src.ops.reduction_ops import (  # noqa: F401
    add_n, argmax, argmin, argsort, clip_by_global_norm, clip_by_norm, clip_by_value, cumsum,
    reduce_all, reduce_any, reduce_logsumexp, reduce_max, reduce_mean, reduce_min, reduce_prod,
    reduce_sum, sort, unique, unique_with_counts)
from eagerflow._src.ops.slicing import (  # noqa: F401
    strided_slice)
from eagerflow._src.ops.string_ops import (  # noqa: F401
    as_string)
from eagerflow import (  # noqa: F401,E402
    autodiff, autograph, bitwise, config, debugging, dtypes, errors, linalg, math, nest, nn,
    random, signal, strings, test)
from eagerflow import compat, graph_util  # noqa: F401,E402


from eagerflow import version  # noqa: E402
from eagerflow.version import VERSION as __version__  # noqa: E402,F401


def __getattr__(name):
    # Keras loads on first use (``tf.keras``), keeping ``import eagerflow`` fast.
    if name == "keras":
        import importlib  # noqa: PLC0415
        return importlib.import_module("eagerflow.keras")
    raise AttributeError(f"module 'eagerflow' has no attribute {name!r}")
