"""Known differences from TensorFlow, and the cases not compared (with the reason).

KNOWN: eagerflow bugs found by the sweep, each an xfail(strict=True) in
test_differential.  Keys are fnmatch patterns over "case_id@mode", or over
the case id alone (every mode).  A fix that makes a listed case pass makes
its test fail as XPASS: remove the entry then.  Entries are grouped by root
cause; the reason names it.

TF_WRONG: cases where TF itself is wrong (crashes, internal errors, flushed
denormals, uninitialized output, Python wrappers that fail on lists);
eagerflow deliberately differs and they are not compared.

NOT_COMPARED: cases the harness cannot compare fairly (results that are not
unique, ops whose graph-mode result a function cannot return).
"""

# ---------------------------------------------------------------- TF_WRONG
_FTZ = ("TF's CPU kernels flush denormal inputs and results to zero (FTZ/DAZ: sign(1e-45) == 0, "
        "1e-45 == 0); eagerflow keeps IEEE denormals as NumPy does")
_TF_LIST = ("TF's Python wrapper fails on a Python list argument ('list' object has no attribute "
            "'shape', list + float); eagerflow converts it as the docs' Tensor-like promises")
_TF_DTYPE_STR = "TF's window functions take only DType objects (a dtype string raises AttributeError)"
_TF_ONEDNN = "TF's oneDNN kernel aborts with AbortedError where the op's own check would raise InvalidArgumentError"
_TF_CRASH = "TF aborts the process (recorded as TFCrash)"
TF_WRONG = {
    "*:denormal*": _FTZ,
    "*softsign:*@grad2": "TF registers no gradient for SoftsignGrad (LookupError); eagerflow's second derivative is right",
    "truncate*:int32_zero": "TF raises InternalError 'Unexpected error in binary operator' for integer division by zero",
    "truncate*:int64_extreme": "TF raises InternalError 'Unexpected error in binary operator' for integer division by zero",
    "nn.conv2d:int32": _TF_LIST, "nn.conv2d:kernel_too_big": _TF_LIST, "nn.conv3d:valid": _TF_LIST,
    "nn.conv3d:bad_strides": _TF_LIST, "nn.avg_pool:int32": _TF_LIST, "nn.avg_pool:nonfinite": _TF_LIST,
    "nn.max_pool:int32": _TF_LIST, "nn.max_pool:nonfinite": _TF_LIST, "*einsum:mixed": _TF_LIST,
    "nn.batch_normalization:f32": _TF_LIST,
    "signal.hamming_window:f64": _TF_DTYPE_STR, "signal.hamming_window:int_dtype": _TF_DTYPE_STR,
    "math.softmax:scalar@eager": _TF_ONEDNN, "math.softmax:scalar@var": _TF_ONEDNN,
    "nn.softmax:scalar@eager": _TF_ONEDNN, "nn.softmax:scalar@var": _TF_ONEDNN,
    "nn.avg_pool1d:bad_rank": _TF_ONEDNN, "nn.max_pool1d:bad_rank": _TF_ONEDNN,
    "nn.conv2d_transpose:bad_output_shape": _TF_ONEDNN,
    "nn.conv1d_transpose:bad_output_shape@eager": _TF_ONEDNN,
    "meshgrid:empty": _TF_CRASH, "nn.conv2d:bad_rank": _TF_CRASH,
    "nn.max_pool:window_too_big": _TF_CRASH, "nn.max_pool2d:window_too_big": _TF_CRASH,
    "math.igamma*:extreme": "TF's igamma(a, x) is 0 for huge a == x and for tiny a (should be ~0.5 and ~1)",
    "linalg.cholesky:singular": "TF returns uninitialized memory above the failed pivot (7e22, 3e-41)",
    "math.cumulative_logsumexp:nonfinite": "TF drops NaN inputs (cumulative_logsumexp([nan, ...])[0] == -inf)",
    "math.reduce_euclidean_norm:int32_extreme": "int32 overflow: both libraries wrap, differently",
    "nn.conv2d:empty_batch": "TF returns a result of the input's shape [0, 4, 4, 3] for an empty batch",
    "cond:mismatched@fn*": "TF raises an internal AssertionError for branches of different structure",
    "linalg.diag:rect@fn_unk": "TF rejects a valid num_rows/num_cols when the diagonal's length is unknown",
    "operator.pow:int_negative@fn*": "TF raises NotFoundError in function for int ** negative (InvalidArgumentError eagerly)",
    "operator.ne:none@var": "TF's Variable != None raises ValueError while Tensor != None returns True",
    "nn.moments:axis0@grad2": ("TF's moments takes the variance around stop_gradient(mean), so its second "
                               "derivative misses the mean's dependence (TF 1, exact 0, eagerflow 0)"),
    "nn.softmax_cross_entropy_with_logits:f32@grad2": (
        "TF's first derivative wrt logits is softmax - labels, but its gradient of that ignores labels "
        "(0); eagerflow differentiates the same first derivative consistently (-1)"),
    "*erf:nonfinite64": "TF's float64 erf is NaN at +-inf (exact: +-1; its float32 erf and erfc are right)",
    "*erf:extreme64": "TF's float64 erf is NaN at +-1e308 (exact: +-1)",
    "reshape:two_minus_one@fn": "TF's graph optimizer drops an invalid Reshape([-1, -1]) of a static shape and returns the input",
}

# ---------------------------------------------------------------- NOT_COMPARED
NOT_COMPARED = {
    "assert_*@fn*": "in graph mode TF's assert_* returns an Operation, which a function cannot return",
    "linalg.eigh:batch": "repeated eigenvalues: eigenvectors are not unique",
    "linalg.svd:batch": "repeated singular values: singular vectors are not unique",
    "linalg.svd:singular": "a zero singular value: its singular vectors are not unique",
}

# ---------------------------------------------------------------- KNOWN
# Root causes: one reason each, then the cases it explains.

_PYSCALAR_FIRST = (
    'in function, tf.op(3, float_tensor): TF converts the leading Python int to int32 and raises '
    "TypeError; eagerflow takes the tensor's dtype as in eager mode "
)
_NOKERNEL = (
    'dtype the op declares but TF has no CPU kernel for: TF raises NotFoundError eagerly and '
    "InvalidArgumentError ('No OpKernel') in function; eagerflow computes, or raises another "
    'class '
)
_VAR_DTYPE = (
    "a Variable of a dtype the op rejects: eagerflow raises ValueError from the Variable's "
    "conversion, TF InvalidArgumentError from the op's dtype check "
)
_TENSOR_AXIS = (
    'a Tensor axis (reductions, argmax, cumsum, expand_dims) inside function: eagerflow requires '
    "a constant ('must be a constant value here'), TF takes it at run time "
)
_STRIDED_SLICE_FN = (
    'tf.strided_slice inside function with a zero stride or an out-of-range shrink axis: TF '
    "raises ValueError while tracing, eagerflow InvalidArgumentError when the function runs "
)
_GRAPH_SHAPE = (
    'in function, a static shape or attr error (rank, axis out of range, mismatched dims, bad '
    "padding/stride) is not raised as TF's ValueError while tracing; eagerflow raises "
    'InvalidArgumentError when the graph runs, or computes (pooling window larger than the input) '
)
_GRAPH_DTYPE = (
    "in function, an input dtype outside the op's allowed list is TF's TypeError ('Value passed "
    "to parameter ... not in list of allowed values') while tracing; eagerflow raises "
    'InvalidArgumentError '
)
_UNKNOWN_DIMS = (
    'Python-level wrappers do arithmetic on static dims that are None under input_signature '
    '[None]*rank (sort, argsort, repeat, boolean_mask, meshgrid, fftshift, frame, space_to_depth, '
    'sufficient_statistics, lstsq) '
)
_NAN_ORDER = (
    "NaN ordering: TF's sort/argsort/top_k order NaN as the largest value and searchsorted places "
    'NaN first; eagerflow follows NumPy (NaN last) '
)
_SPECIAL_NONFINITE = (
    'lgamma(-inf) is -inf (TF +inf); digamma(0), digamma(-0.0), digamma(-inf) are +-inf (TF NaN) '
)
_POLYGAMMA_HANG = (
    'polygamma(1, -inf) (second derivative of lgamma, derivative of digamma) never returns '
)
_LEAKY_F64 = (
    "leaky_relu on float64 uses alpha in float64; TF's alpha attr is a float32 (0.2 -> "
    '0.20000000298...) '
)
_SATURATE = (
    'saturate_cast(inf, int32) gives INT32_MIN (TF: 2147483520, the largest float32 below 2**31) '
)
_WEIGHTED_MOMENTS = (
    'weighted_moments with all-zero weights gives NaN (TF: 0 via divide_no_nan) '
)
_UNSUPPORTED = (
    'not implemented: strings.split of a non-scalar (a RaggedTensor) '
)
_ERRCLASS = (
    'eager error class differs: TF raises ValueError/TypeError from Python-side checks '
    "(multiply_no_nan's conversion, log_poisson_loss/weighted_cross_entropy shape checks, "
    'is_non_decreasing on strings, ones([2.0]), argmin with a list axis, where/reduce_all with a '
    "float condition) where eagerflow reaches the kernel's InvalidArgumentError, or the reverse "
)
_EMPTY_LIST_DTYPE = (
    "an empty Python list converts to float32 before the op's expected dtype is applied "
    '(logical_not([[]]) fails; TF makes it bool) '
)
_DTYPE_WIDTH = (
    "dtype handling differs: truncatemod accepts uint8 (TF: InvalidArgumentError); "
    "matrix_rank([[1, 2], [3, 4]]) keeps the Python ints as int32 and raises TypeError (TF converts to float32)"
)

_EQ_INCOMPATIBLE = ("in function with unknown dims, == of incompatible shapes raises; TF's __eq__ uses "
                    "Equal(incompatible_shape_error=False) and returns False")

_BY_CAUSE = {
    _EQ_INCOMPATIBLE: ['operator.eq:bad_shape@fn_unk'],
    _PYSCALAR_FIRST: [
        'atan2:pyint_first@fn', 'atan2:pyint_first@fn_unk', 'equal:pyint_first@fn',
        'equal:pyint_first@fn_unk', 'greater:pyint_first@fn', 'greater:pyint_first@fn_unk',
        'greater_equal:pyint_first@fn', 'greater_equal:pyint_first@fn_unk', 'less:pyint_first@fn',
        'less:pyint_first@fn_unk', 'less_equal:pyint_first@fn', 'less_equal:pyint_first@fn_unk',
        'math.atan2:pyint_first@fn', 'math.atan2:pyint_first@fn_unk', 'math.equal:pyint_first@fn',
        'math.equal:pyint_first@fn_unk', 'math.floordiv:pyint_first@fn',
        'math.floordiv:pyint_first@fn_unk', 'math.floormod:pyint_first@fn',
        'math.floormod:pyint_first@fn_unk', 'math.greater:pyint_first@fn',
        'math.greater:pyint_first@fn_unk', 'math.greater_equal:pyint_first@fn',
        'math.greater_equal:pyint_first@fn_unk', 'math.igamma:pyint_first@fn',
        'math.igamma:pyint_first@fn_unk', 'math.igammac:pyint_first@fn',
        'math.igammac:pyint_first@fn_unk', 'math.less:pyint_first@fn', 'math.less:pyint_first@fn_unk',
        'math.less_equal:pyint_first@fn', 'math.less_equal:pyint_first@fn_unk',
        'math.maximum:pyint_first@fn', 'math.maximum:pyint_first@fn_unk', 'math.minimum:pyint_first@fn',
        'math.minimum:pyint_first@fn_unk', 'math.mod:pyint_first@fn', 'math.mod:pyint_first@fn_unk',
        'math.multiply:pyint_first@fn', 'math.multiply:pyint_first@fn_unk',
        'math.multiply_no_nan:pyint_first@fn', 'math.multiply_no_nan:pyint_first@fn_unk',
        'math.not_equal:pyint_first@fn', 'math.not_equal:pyint_first@fn_unk', 'math.pow:pyint_first@fn',
        'math.pow:pyint_first@fn_unk', 'math.squared_difference:pyint_first@fn',
        'math.squared_difference:pyint_first@fn_unk', 'math.subtract:pyint_first@fn',
        'math.subtract:pyint_first@fn_unk', 'math.xdivy:pyint_first@fn',
        'math.xdivy:pyint_first@fn_unk', 'math.xlog1py:pyint_first@fn',
        'math.xlog1py:pyint_first@fn_unk', 'math.xlogy:pyint_first@fn', 'math.xlogy:pyint_first@fn_unk',
        'maximum:pyint_first@fn', 'maximum:pyint_first@fn_unk', 'minimum:pyint_first@fn',
        'minimum:pyint_first@fn_unk', 'multiply:pyint_first@fn', 'multiply:pyint_first@fn_unk',
        'not_equal:pyint_first@fn', 'not_equal:pyint_first@fn_unk', 'pow:pyint_first@fn',
        'pow:pyint_first@fn_unk', 'realdiv:pyint_first@fn', 'realdiv:pyint_first@fn_unk',
        'subtract:pyint_first@fn', 'subtract:pyint_first@fn_unk', 'truncatediv:pyint_first@fn',
        'truncatediv:pyint_first@fn_unk', 'truncatemod:pyint_first@fn', 'truncatemod:pyint_first@fn_unk'
    ],
    _NOKERNEL: [
        'math.bessel_i0:bf16@fn', 'math.bessel_i0:bf16@fn_unk', 'math.bessel_i0e:bf16@fn',
        'math.bessel_i0e:bf16@fn_unk', 'math.bessel_i1:bf16@fn', 'math.bessel_i1:bf16@fn_unk',
        'math.bessel_i1e:bf16@fn', 'math.bessel_i1e:bf16@fn_unk', 'math.digamma:bf16',
        'math.igamma:bf16@fn', 'math.igamma:bf16@fn_unk', 'math.igamma:f16@fn',
        'math.igamma:f16@fn_unk', 'math.igammac:bf16@fn', 'math.igammac:bf16@fn_unk',
        'math.igammac:f16@fn', 'math.igammac:f16@fn_unk', 'math.lgamma:bf16',
        'math.reciprocal:int32@eager', 'math.rint:bf16', 'math.rint:f16', 'realdiv:int32',
        'realdiv:int32_extreme', 'realdiv:int32_zero', 'realdiv:int64_extreme', 'realdiv:uint8',
        'truncatemod:bf16', 'truncatemod:f16'
    ],
    _VAR_DTYPE: [
        'math.multiply_no_nan:pyint_first@var', 'math.reduce_all:all@var', 'math.reduce_all:axis0@var',
        'math.reduce_all:axis1_keep@var', 'math.reduce_all:axis_neg@var',
        'math.reduce_all:axis_oob@var', 'math.reduce_all:axis_tensor@var', 'math.reduce_all:bf16@var',
        'math.reduce_all:empty03_axis0@var', 'math.reduce_all:empty03_axis1@var',
        'math.reduce_all:empty@var', 'math.reduce_all:extreme@var', 'math.reduce_all:f16@var',
        'math.reduce_all:f64@var', 'math.reduce_all:nonfinite@var', 'math.reduce_any:all@var',
        'math.reduce_any:axis0@var', 'math.reduce_any:axis1_keep@var', 'math.reduce_any:axis_neg@var',
        'math.reduce_any:axis_oob@var', 'math.reduce_any:axis_tensor@var', 'math.reduce_any:bf16@var',
        'math.reduce_any:empty03_axis0@var', 'math.reduce_any:empty03_axis1@var',
        'math.reduce_any:empty@var', 'math.reduce_any:extreme@var', 'math.reduce_any:f16@var',
        'math.reduce_any:f64@var', 'math.reduce_any:nonfinite@var', 'reduce_all:all@var',
        'reduce_all:axis0@var', 'reduce_all:axis1_keep@var', 'reduce_all:axis_neg@var',
        'reduce_all:axis_oob@var', 'reduce_all:axis_tensor@var', 'reduce_all:bf16@var',
        'reduce_all:empty03_axis0@var', 'reduce_all:empty03_axis1@var', 'reduce_all:empty@var',
        'reduce_all:extreme@var', 'reduce_all:f16@var', 'reduce_all:f64@var',
        'reduce_all:nonfinite@var', 'reduce_any:all@var', 'reduce_any:axis0@var',
        'reduce_any:axis1_keep@var', 'reduce_any:axis_neg@var', 'reduce_any:axis_oob@var',
        'reduce_any:axis_tensor@var', 'reduce_any:bf16@var', 'reduce_any:empty03_axis0@var',
        'reduce_any:empty03_axis1@var', 'reduce_any:empty@var', 'reduce_any:extreme@var',
        'reduce_any:f16@var', 'reduce_any:f64@var', 'reduce_any:nonfinite@var',
        'strings.length:float@var', 'where:float_cond@var'
    ],
    _TENSOR_AXIS: [
        'argmax:axis_tensor@fn', 'argmax:axis_tensor@fn_unk', 'argmin:axis_tensor@fn',
        'argmin:axis_tensor@fn_unk', 'cumsum:axis_tensor@fn', 'cumsum:axis_tensor@fn_unk',
        'expand_dims:axis_tensor@fn', 'expand_dims:axis_tensor@fn_unk',
        'math.argmax:axis_tensor@fn', 'math.argmax:axis_tensor@fn_unk',
        'math.argmin:axis_tensor@fn', 'math.argmin:axis_tensor@fn_unk',
        'math.cumprod:axis_tensor@fn', 'math.cumprod:axis_tensor@fn_unk',
        'math.cumsum:axis_tensor@fn', 'math.cumsum:axis_tensor@fn_unk',
        'math.cumulative_logsumexp:axis_tensor@fn', 'math.cumulative_logsumexp:axis_tensor@fn_unk'
    ],
    _STRIDED_SLICE_FN: [
        'strided_slice:shrink_oob@fn', 'strided_slice:zero_stride@fn',
        'strided_slice:zero_stride@fn_unk'
    ],
    _GRAPH_SHAPE: [
        'nn.convolution:bad_channels@fn', 'nn.separable_conv2d:bad_pointwise@fn',
        'nn.separable_conv2d:bad_pointwise@fn_unk',
        'operator.getitem:oob@fn', 'operator.getitem:too_many@fn',
        'operator.getitem:too_many@fn_unk', 'operator.getitem:scalar@fn',
        'operator.getitem:scalar@fn_unk', 'argmax:axis_oob@fn', 'argmax:axis_oob@fn_unk',
        'argmin:axis_list@fn', 'argmin:axis_list@fn_unk', 'argmin:axis_oob@fn',
        'argmin:axis_oob@fn_unk', 'broadcast_to:bad@fn', 'dynamic_partition:bad_shape@fn',
        'dynamic_stitch:bad_len@fn', 'fill:non_scalar@fn', 'fill:non_scalar@fn_unk',
        'gather_nd:too_deep@fn', 'gather_nd:too_deep@fn_unk', 'histogram_fixed_width:zero_bins@fn',
        'histogram_fixed_width:zero_bins@fn_unk', 'linalg.diag:bad_rows@fn',
        'linalg.diag_part:k_oob@fn', 'linalg.l2_normalize:axis_oob@fn',
        'linalg.l2_normalize:axis_oob@fn_unk', 'linalg.tensor_diag:scalar@fn',
        'linalg.tensor_diag:scalar@fn_unk', 'math.argmax:axis_oob@fn',
        'math.argmax:axis_oob@fn_unk', 'math.argmin:axis_list@fn', 'math.argmin:axis_list@fn_unk',
        'math.argmin:axis_oob@fn', 'math.argmin:axis_oob@fn_unk', 'math.betainc:bad_shape@fn',
        'math.betainc:bad_shape@fn_unk', 'math.count_nonzero:axis_oob@fn',
        'math.count_nonzero:axis_oob@fn_unk', 'math.l2_normalize:axis_oob@fn',
        'math.l2_normalize:axis_oob@fn_unk', 'math.log_softmax:scalar@fn',
        'math.log_softmax:scalar@fn_unk', 'math.multiply_no_nan:mixed_dtype@fn',
        'math.multiply_no_nan:mixed_dtype@fn_unk', 'math.polyval:not_list@fn',
        'math.polyval:not_list@fn_unk', 'math.reduce_euclidean_norm:axis_oob@fn',
        'math.reduce_euclidean_norm:axis_oob@fn_unk', 'math.reduce_logsumexp:axis_oob@fn',
        'math.reduce_logsumexp:axis_oob@fn_unk', 'math.reduce_max:axis_oob@fn',
        'math.reduce_max:axis_oob@fn_unk', 'math.reduce_mean:axis_oob@fn',
        'math.reduce_mean:axis_oob@fn_unk', 'math.reduce_min:axis_oob@fn',
        'math.reduce_min:axis_oob@fn_unk', 'math.reduce_prod:axis_oob@fn',
        'math.reduce_prod:axis_oob@fn_unk', 'math.reduce_std:axis_oob@fn',
        'math.reduce_std:axis_oob@fn_unk', 'math.reduce_sum:axis_oob@fn',
        'math.reduce_sum:axis_oob@fn_unk', 'math.reduce_variance:axis_oob@fn',
        'math.reduce_variance:axis_oob@fn_unk', 'math.softmax:scalar@fn',
        'math.softmax:scalar@fn_unk', 'math.top_k:k_too_big@fn', 'math.top_k:scalar@fn',
        'math.top_k:scalar@fn_unk', 'math.unsorted_segment_max:bad_len@fn',
        'math.unsorted_segment_mean:bad_len@fn', 'math.unsorted_segment_min:bad_len@fn',
        'math.unsorted_segment_prod:bad_len@fn', 'math.unsorted_segment_sqrt_n:bad_len@fn',
        'math.unsorted_segment_sum:bad_len@fn', 'nn.avg_pool2d:bad_padding@fn',
        'nn.avg_pool2d:bad_padding@fn_unk', 'nn.avg_pool2d:bad_rank@fn',
        'nn.avg_pool2d:bad_rank@fn_unk', 'nn.avg_pool2d:window_too_big@fn',
        'nn.avg_pool2d:zero_stride@fn', 'nn.avg_pool2d:zero_stride@fn_unk',
        'nn.avg_pool3d:bad_rank@fn', 'nn.avg_pool3d:bad_rank@fn_unk', 'nn.avg_pool:bad_padding@fn',
        'nn.avg_pool:bad_padding@fn_unk', 'nn.avg_pool:window_too_big@fn',
        'nn.avg_pool:zero_stride@fn', 'nn.avg_pool:zero_stride@fn_unk', 'nn.bias_add:bad@fn',
        'nn.bias_add:bias_rank2@fn', 'nn.bias_add:bias_rank2@fn_unk', 'nn.bias_add:rank1@fn',
        'nn.bias_add:rank1@fn_unk', 'nn.conv2d:bad_channels@fn', 'nn.conv2d:bad_padding@fn',
        'nn.conv2d:bad_padding@fn_unk', 'nn.depth_to_space:bad@fn', 'nn.depthwise_conv2d:bad@fn',
        'nn.l2_normalize:axis_oob@fn', 'nn.l2_normalize:axis_oob@fn_unk',
        'nn.log_poisson_loss:bad@fn_unk', 'nn.log_softmax:scalar@fn',
        'nn.log_softmax:scalar@fn_unk', 'nn.max_pool2d:bad_padding@fn',
        'nn.max_pool2d:bad_padding@fn_unk', 'nn.max_pool2d:bad_rank@fn',
        'nn.max_pool2d:bad_rank@fn_unk', 'nn.max_pool2d:zero_stride@fn',
        'nn.max_pool2d:zero_stride@fn_unk', 'nn.max_pool3d:bad_rank@fn',
        'nn.max_pool3d:bad_rank@fn_unk', 'nn.max_pool:bad_padding@fn',
        'nn.max_pool:bad_padding@fn_unk', 'nn.max_pool:zero_stride@fn',
        'nn.max_pool:zero_stride@fn_unk', 'nn.moments:axis_oob@fn', 'nn.moments:axis_oob@fn_unk',
        'nn.softmax:scalar@fn', 'nn.softmax:scalar@fn_unk', 'nn.space_to_depth:bad@fn',
        'nn.top_k:k_too_big@fn', 'nn.top_k:scalar@fn', 'nn.top_k:scalar@fn_unk',
        'nn.weighted_cross_entropy_with_logits:bad@fn_unk', 'one_hot:negative_depth@fn',
        'one_hot:negative_depth@fn_unk', 'pad:negative@fn', 'pad:negative@fn_unk',
        'reduce_logsumexp:axis_oob@fn', 'reduce_logsumexp:axis_oob@fn_unk',
        'reduce_max:axis_oob@fn', 'reduce_max:axis_oob@fn_unk', 'reduce_mean:axis_oob@fn',
        'reduce_mean:axis_oob@fn_unk', 'reduce_min:axis_oob@fn', 'reduce_min:axis_oob@fn_unk',
        'reduce_prod:axis_oob@fn', 'reduce_prod:axis_oob@fn_unk', 'reduce_sum:axis_oob@fn',
        'reduce_sum:axis_oob@fn_unk', 'reverse:dup@fn', 'reverse:dup@fn_unk', 'roll:bad_len@fn',
        'roll:bad_len@fn_unk', 'scatter_nd:bad_updates@fn', 'signal.fft2d:rank1@fn',
        'signal.fft2d:rank1@fn_unk', 'signal.fft3d:rank1@fn', 'signal.fft3d:rank1@fn_unk',
        'signal.ifft2d:rank1@fn', 'signal.ifft2d:rank1@fn_unk', 'signal.ifft3d:rank1@fn',
        'signal.ifft3d:rank1@fn_unk', 'sort:scalar@fn', 'sort:scalar@fn_unk', 'split:zero@fn',
        'split:zero@fn_unk', 'strings.reduce_join:axis_oob@fn',
        'strings.reduce_join:axis_oob@fn_unk', 'tensor_scatter_nd_add:bad_updates@fn',
        'tensor_scatter_nd_max:bad_updates@fn', 'tensor_scatter_nd_min:bad_updates@fn',
        'tensor_scatter_nd_sub:bad_updates@fn', 'tensor_scatter_nd_update:bad_updates@fn',
        'unique:rank2@fn', 'unique:rank2@fn_unk', 'unstack:bad_num@fn', 'where:bad_shape@fn'
    ],
    _GRAPH_DTYPE: [
        'gather:float_indices@fn', 'gather:float_indices@fn_unk', 'math.segment_max:float_ids@fn',
        'math.segment_max:float_ids@fn_unk', 'math.segment_mean:float_ids@fn',
        'math.segment_mean:float_ids@fn_unk', 'math.segment_min:float_ids@fn',
        'math.segment_min:float_ids@fn_unk', 'math.segment_prod:float_ids@fn',
        'math.segment_prod:float_ids@fn_unk', 'math.segment_sum:float_ids@fn',
        'math.segment_sum:float_ids@fn_unk', 'nn.silu:string@fn', 'nn.silu:string@fn_unk',
        'nn.sparse_softmax_cross_entropy_with_logits:float_labels@fn',
        'nn.sparse_softmax_cross_entropy_with_logits:float_labels@fn_unk', 'nn.swish:string@fn',
        'nn.swish:string@fn_unk', 'one_hot:float_indices@fn', 'one_hot:float_indices@fn_unk',
        'tensor_scatter_nd_add:empty_indices@fn', 'tensor_scatter_nd_add:empty_indices@fn_unk',
        'tensor_scatter_nd_max:empty_indices@fn', 'tensor_scatter_nd_max:empty_indices@fn_unk',
        'tensor_scatter_nd_min:empty_indices@fn', 'tensor_scatter_nd_min:empty_indices@fn_unk',
        'tensor_scatter_nd_sub:empty_indices@fn', 'tensor_scatter_nd_sub:empty_indices@fn_unk',
        'tensor_scatter_nd_update:empty_indices@fn', 'tensor_scatter_nd_update:empty_indices@fn_unk'
    ],
    _UNKNOWN_DIMS: [
        'where:float_cond@fn_unk'
    ],
    _NAN_ORDER: [
        'argsort:nonfinite@fn_unk', 'sort:nonfinite@fn_unk', 'argsort:nonfinite@eager', 'argsort:nonfinite@fn', 'argsort:nonfinite@var',
        'math.top_k:nonfinite', 'nn.top_k:nonfinite', 'searchsorted:nonfinite', 'sort:nonfinite@eager',
        'sort:nonfinite@fn', 'sort:nonfinite@var'
    ],
    _SPECIAL_NONFINITE: [
        'math.digamma:nonfinite64', 'math.digamma:nonfinite@eager', 'math.digamma:nonfinite@fn',
        'math.digamma:nonfinite@fn_unk', 'math.digamma:nonfinite@var', 'math.lgamma:nonfinite64',
        'math.lgamma:nonfinite@eager', 'math.lgamma:nonfinite@fn', 'math.lgamma:nonfinite@fn_unk',
        'math.lgamma:nonfinite@grad', 'math.lgamma:nonfinite@grad_var', 'math.lgamma:nonfinite@var'
    ],
    _POLYGAMMA_HANG: [
        'math.digamma:nonfinite@grad', 'math.digamma:nonfinite@grad_var', 'math.lgamma:nonfinite@grad2'
    ],
    _LEAKY_F64: [
        'nn.leaky_relu:extreme64', 'nn.leaky_relu:f64'
    ],
    _SATURATE: [
        'saturate_cast:nonfinite_to_i32'
    ],
    _WEIGHTED_MOMENTS: [
        'nn.weighted_moments:zero_weights'
    ],
    _UNSUPPORTED: [
        'strings.split:whitespace'
    ],
    _ERRCLASS: [
        'argmin:axis_list@eager', 'argmin:axis_list@var', 'math.argmin:axis_list@eager',
        'math.argmin:axis_list@var', 'math.is_non_decreasing:string@eager',
        'math.is_strictly_increasing:string@eager', 'math.multiply_no_nan:mixed_dtype@eager',
        'math.multiply_no_nan:mixed_dtype@var', 'math.multiply_no_nan:pyint_first@eager',
        'math.reduce_all:axis_list@eager', 'math.reduce_any:axis_list@eager',
        'nn.log_poisson_loss:bad@eager', 'nn.log_poisson_loss:bad@var',
        'nn.weighted_cross_entropy_with_logits:bad@eager',
        'nn.weighted_cross_entropy_with_logits:bad@var', 'ones:float_shape',
        'reduce_all:axis_list@eager', 'reduce_any:axis_list@eager', 'tile:negative@fn',
        'where:float_cond@eager', 'where:float_cond@fn'
    ],
    _EMPTY_LIST_DTYPE: [
        'logical_not:empty', 'math.logical_not:empty'
    ],
    _DTYPE_WIDTH: [
        'linalg.matrix_rank:int32', 'truncatemod:uint8'
    ],
}
KNOWN = {key: reason.strip() for reason, keys in _BY_CAUSE.items() for key in keys}


# Public functions of both libraries that are not swept, with the reason.
_MACHINERY = "API machinery, not an op on tensors: tested in tests/function, tests/autodiff, tests/core"
_STATEFUL = ("stateful random: values depend on the global seed and op counters; "
             "streams are compared in tests/ops/test_random_ops.py")
NOT_SWEPT = {
    "broadcast_static_shape": "takes TensorShape objects, no tensors: tested in tests/core/test_tensor_shape.py",
    "case": "control flow taking (predicate, callable) pairs: tested in tests/graph/test_control_flow.py",
    "custom_gradient": _MACHINERY,
    "device": _MACHINERY,
    "function": _MACHINERY,
    "grad_pass_through": _MACHINERY,
    "gradients": _MACHINERY,
    "init_scope": _MACHINERY,
    "print": "writes to stderr, returns nothing: tested in tests/ops/test_logging_ops.py",
    "recompute_grad": _MACHINERY,
    "register_tensor_conversion_function": _MACHINERY,
    "random.categorical": _STATEFUL,
    "random.gamma": _STATEFUL,
    "random.normal": _STATEFUL,
    "random.poisson": _STATEFUL,
    "random.shuffle": _STATEFUL,
    "random.truncated_normal": _STATEFUL,
    "random.uniform": _STATEFUL,
    "random.get_global_generator": _MACHINERY,
    "random.set_global_generator": _MACHINERY,
    "random.set_seed": _MACHINERY,
}
