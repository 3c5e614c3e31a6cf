"""Math ops (``tf.math``)."""
from eagerflow._src.ops.math_ops import (  # noqa: F401
    abs, acos, acosh, add, angle, asin, asinh, atan, atan2, atanh, bessel_i0, bessel_i0e,
    bessel_i1, bessel_i1e, betainc, ceil, conj, cos, cosh, digamma, divide, divide_no_nan, equal,
    erf, erfc, exp, expm1, floor, floordiv, floormod, greater, greater_equal, igamma, igammac,
    imag, invert_permutation, is_finite, is_inf, is_nan, is_non_decreasing, is_strictly_increasing,
    lbeta, less, less_equal, lgamma, log, log1p, log_sigmoid, logical_and, logical_not, logical_or,
    logical_xor, maximum, minimum, mod, multiply, multiply_no_nan, negative, not_equal, polygamma,
    polyval, pow, real, reciprocal, reciprocal_no_nan, rint, round, rsqrt, scalar_mul, sigmoid,
    sign, sin, sinh, softplus, sqrt, square, squared_difference, subtract, tan, tanh, truediv,
    xdivy, xlog1py, xlogy, zero_fraction)
from eagerflow._src.ops.nn_ops import (  # noqa: F401
    in_top_k, log_softmax, softmax, softsign)
from eagerflow._src.ops.reduction_ops import (  # noqa: F401
    accumulate_n, add_n, argmax, argmin, bincount, count_nonzero, cumprod, cumsum,
    cumulative_logsumexp,
    l2_normalize, reduce_all, reduce_any, reduce_euclidean_norm, reduce_logsumexp, reduce_max,
    reduce_mean, reduce_min, reduce_prod, reduce_std, reduce_sum, reduce_variance, segment_max,
    segment_mean, segment_min, segment_prod, segment_sum, top_k, unsorted_segment_max,
    unsorted_segment_mean, unsorted_segment_min, unsorted_segment_prod,
    unsorted_segment_sqrt_n, unsorted_segment_sum)
from eagerflow._src.ops.confusion_matrix import confusion_matrix  # noqa: F401
from eagerflow.math import special  # noqa: F401,E402
