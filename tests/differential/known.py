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

_BY_CAUSE = {
}
KNOWN = {key: reason.strip() for reason, keys in _BY_CAUSE.items() for key in keys}


# Public functions of both libraries that are not swept, with the reason.
_MACHINERY = "API machinery, not an op on tensors: tested in tests/function, tests/autodiff, tests/core"
_STATEFUL = ("stateful random: values depend on the global seed and op counters; "
             "streams are compared in tests/ops/test_random_ops.py")
_RAGGED = ("ragged results: compared with TF's in tests/ragged (the ragged guide's examples, "
           "recorded by tests/ragged/record_tf.py) and tests/ops/specs/ragged.py")
_SPECTRAL = ("compositions of the FFT and framing ops: compared with TF's recorded values in "
             "tests/ops/test_spectral_ops.py")
_COMPOSITE = "built from other ops: compared with TF's recorded values in tests/ops/test_composite_ops.py"
_NN_LINALG = "compared with TF's values in tests/ops/test_nn_linalg_composites.py"
_SAMPLER = "random draws: their expected counts in tests/ops/test_candidate_sampling.py"
_MORPHOLOGY = "compared with TF's values and gradients in tests/ops/test_morphology.py"
_FRACTIONAL = "random windows: checked in tests/ops/test_fractional_pool.py"
_GPU_ONLY_FFT = ("TF 2.21 has GPU kernels only (NotFoundError on a CPU): NumPy's values in "
                 "tests/ops/test_fftnd.py")
NOT_SWEPT = {
    "fftnd": _GPU_ONLY_FFT, "ifftnd": _GPU_ONLY_FFT, "rfftnd": _GPU_ONLY_FFT,
    "irfftnd": _GPU_ONLY_FFT, "signal.fftnd": _GPU_ONLY_FFT, "signal.ifftnd": _GPU_ONLY_FFT,
    "signal.rfftnd": _GPU_ONLY_FFT, "signal.irfftnd": _GPU_ONLY_FFT,
    "approx_top_k": _NN_LINALG,
    "guarantee_const": _NN_LINALG,
    "linalg.eigh_tridiagonal": _NN_LINALG,
    "nn.atrous_conv2d_transpose": _NN_LINALG,
    "nn.batch_norm_with_global_normalization": _NN_LINALG,
    "nn.collapse_repeated": _NN_LINALG,
    "nn.ctc_unique_labels": _NN_LINALG,
    "nn.compute_accidental_hits": _NN_LINALG,
    "nn.conv_transpose": _NN_LINALG,
    "nn.depthwise_conv2d_backprop_filter": _NN_LINALG,
    "nn.depthwise_conv2d_backprop_input": _NN_LINALG,
    "nn.isotonic_regression": _NN_LINALG,
    "nn.with_space_to_batch": _NN_LINALG,
    "parallel_stack": _NN_LINALG,
    "random_index_shuffle": _NN_LINALG,
    "extract_volume_patches": "TF's values and gradients in tests/ops/test_volume_patches.py",
    "matrix_square_root": "linalg.sqrtm under TF's raw-op name (swept)",
    "nn.all_candidate_sampler": _SAMPLER,
    "random.all_candidate_sampler": _SAMPLER,
    "nn.fixed_unigram_candidate_sampler": _SAMPLER,
    "random.fixed_unigram_candidate_sampler": _SAMPLER,
    "nn.learned_unigram_candidate_sampler": _SAMPLER,
    "random.learned_unigram_candidate_sampler": _SAMPLER,
    "load_library": "no kernels to load: TF's errors in tests/core/test_load_library.py",
    "load_op_library": "no kernels to load: TF's errors in tests/core/test_load_library.py",
    "nn.dilation2d": _MORPHOLOGY,
    "nn.erosion2d": _MORPHOLOGY,
    "nn.fractional_avg_pool": _FRACTIONAL,
    "nn.fractional_max_pool": _FRACTIONAL,
    "math.approx_max_k": "exact top-k as TF's CPU kernel: compared with TF's values in "
                         "tests/ops/test_reduction_ops.py",
    "math.approx_min_k": "TF's CPU has no kernel (XLA's only): compared with XLA's values in "
                         "tests/ops/test_reduction_ops.py",
    "bitcast": "reinterprets bytes: compared with TF's values and errors in tests/ops/test_bitcast.py",
    "broadcast_static_shape": "takes TensorShape objects, no tensors: tested in tests/core/test_tensor_shape.py",
    "Assert": "tf.debugging.Assert under its top-level name: tested in tests/compat/test_toplevel.py",
    "case": "control flow taking (predicate, callable) pairs: tested in tests/graph/test_control_flow.py",
    "control_dependencies": _MACHINERY,
    "custom_gradient": _MACHINERY,
    "device": _MACHINERY,
    "function": _MACHINERY,
    "make_ndarray": "reads a TensorProto, no tensors: tested in tests/summary/test_tensor_proto.py",
    "make_tensor_proto": "builds a TensorProto, no op: tested in tests/summary/test_tensor_proto.py",
    "get_logger": _MACHINERY,
    "grad_pass_through": _MACHINERY,
    "gradients": _MACHINERY,
    "hessians": _MACHINERY,
    "init_scope": _MACHINERY,
    "train.ExponentialMovingAverage": "stateful averages of variables: tested in tests/checkpoint/test_moving_averages.py",
    "inside_function": _MACHINERY,
    "get_current_name_scope": _MACHINERY,
    "timestamp": "a clock reading: tested in tests/ops/test_timestamp.py",
    "tuple": "TF 1 graph machinery (identities after control inputs): tested in "
             "tests/compat/test_toplevel.py",
    "make_ndarray": "reads a TensorProto: tested in tests/core/test_make_tensor_proto.py",
    "make_tensor_proto": "writes a TensorProto: tested in tests/core/test_make_tensor_proto.py",
    "print": "writes to stderr, returns nothing: tested in tests/ops/test_logging_ops.py",
    "py_function": "runs a Python callable: tested in tests/ops/test_py_function.py and "
                   "tests/fidelity/programs/py_function.py",
    "numpy_function": "runs a Python callable: tested in tests/ops/test_py_function.py and "
                      "tests/fidelity/programs/py_function.py",
    "recompute_grad": _MACHINERY,
    "RegisterGradient": _MACHINERY,
    "no_gradient": _MACHINERY,
    "variable_creator_scope": "a context for variable creation: tested in "
                              "tests/compat/test_variable_creator.py",
    "register_tensor_conversion_function": _MACHINERY,
    "type_spec_from_value": "API machinery (specs of values): tested in tests/ops/test_extension_type.py",
    "group": "TF 1 graph machinery: tested in tests/compat/test_toplevel.py",
    "no_op": "TF 1 graph machinery: tested in tests/compat/test_toplevel.py",
    "import_graph_def": "imports a GraphDef: tested in tests/graph/test_graph_def.py",
    "random.categorical": _STATEFUL,
    "random.log_uniform_candidate_sampler": _STATEFUL,
    "random.uniform_candidate_sampler": _STATEFUL,
    "random.gamma": _STATEFUL,
    "random.normal": _STATEFUL,
    "random.poisson": _STATEFUL,
    "random.shuffle": _STATEFUL,
    "random.truncated_normal": _STATEFUL,
    "random.uniform": _STATEFUL,
    "random.get_global_generator": _MACHINERY,
    "random.set_global_generator": _MACHINERY,
    "random.set_seed": _MACHINERY,
    "strings.to_hash_bucket": "string hashing: compared with TF's values in tests/ops/test_lookup_ops.py",
    "strings.to_hash_bucket_fast": "string hashing: compared with TF's values in tests/ops/test_lookup_ops.py",
    "strings.to_hash_bucket_strong": "string hashing: compared with TF's values in tests/ops/test_lookup_ops.py",
    "fingerprint": "string hashing: compared with TF's values in tests/ops/test_string_ops.py",
    **{f"signal.{name}": _SPECTRAL for name in (
        "dct", "idct", "inverse_stft", "inverse_stft_window_fn", "kaiser_bessel_derived_window",
        "kaiser_window", "linear_to_mel_weight_matrix", "mfccs_from_log_mel_spectrograms",
        "overlap_and_add", "stft", "vorbis_window")},
    "math.erfcinv": "built from ndtri: compared with TF's values in tests/ops/test_small_public_names.py",
    "linalg.banded_triangular_solve": "built from diag and triangular_solve: compared with TF's values in tests/ops/test_linalg_ops.py",
    "nn.approx_max_k": "tf.math.approx_max_k under its tf.nn name: tested in tests/ops/test_reduction_ops.py",
    "nn.approx_min_k": "tf.math.approx_min_k under its tf.nn name: tested in tests/ops/test_reduction_ops.py",
    "math.sobol_sample": "a fixed sequence: compared with TF's values in tests/ops/test_special_math.py",
    "is_symbolic_tensor": _MACHINERY,
    "space_to_batch_nd": "built from pad, reshape and transpose: compared with TF's values in "
                         "tests/ops/test_space_batch.py",
    "space_to_batch": "built from pad, reshape and transpose: compared with TF's values in "
                      "tests/ops/test_space_batch.py",
    "nn.space_to_batch": "built from pad, reshape and transpose: compared with TF's values in "
                         "tests/ops/test_space_batch.py",
    "batch_to_space": "built from reshape, transpose and slice: compared with TF's values in "
                      "tests/ops/test_space_batch.py",
    "nn.nce_loss": "samples classes: compared with TF's values for given samples in "
                   "tests/ops/test_candidate_sampling.py",
    "nn.sampled_softmax_loss": "samples classes: compared with TF's values for given samples in "
                               "tests/ops/test_candidate_sampling.py",
    "nn.max_pool_with_argmax": "compared with TF's values and gradients in "
                               "tests/ops/test_max_pool_with_argmax.py",
    "edit_distance": "SparseTensor inputs: compared with TF's values in tests/ops/test_edit_distance.py",
    "math.erfinv": "checked against statistics.NormalDist in tests/ops/specs/math.py",
    "math.ndtri": "checked against statistics.NormalDist in tests/ops/specs/math.py",
    "math.erfcinv": "built from ndtri: compared with TF's values in tests/ops/test_tf_compat_probes.py",
    **dict.fromkeys(["nn.embedding_lookup_sparse", "nn.safe_embedding_lookup_sparse"],
                    "take SparseTensors: compared in tests/ops/test_embedding_lookup_sparse.py"),
    **dict.fromkeys(["space_to_batch_nd", "space_to_batch", "batch_to_space",
                     "required_space_to_batch_paddings"],
                    "compared with TF's values and errors in tests/ops/test_space_to_batch.py"),
    **dict.fromkeys(["signal.mdct", "signal.inverse_mdct"],
                    "built from frame, dct and overlap_and_add: compared with TF's values in "
                    "tests/ops/test_tf_compat_probes.py"),
    **dict.fromkeys(["nn.pool", "nn.atrous_conv2d", "nn.max_pool_with_argmax"],
                    "compared with TF's values and errors in tests/ops/test_tf_compat_probes.py"),
    **dict.fromkeys(["nn.local_response_normalization", "nn.lrn"],
                    "compared with TF's values and gradients in tests/ops/test_tf_compat_probes.py"),
    **{f"linalg.{name}": "LU factors: compared with TF's values in tests/ops/test_lu.py"
       for name in ("lu", "lu_matrix_inverse", "lu_reconstruct", "lu_solve")},
    "linalg.eig": "eigenvectors are defined up to a phase: compared with TF's eigenvalues and "
                  "gradients in tests/ops/test_eig.py",
    "linalg.eigvals": "compared with TF's values and gradients in tests/ops/test_eig.py",
    "eig": "tf.linalg.eig's alias: compared in tests/ops/test_eig.py and test_eig_order.py",
    "eigvals": "tf.linalg.eigvals's alias: compared in tests/ops/test_eig.py",
    "linalg.logm": "complex input only: compared with TF's values in tests/ops/test_logm.py",
    "nn.ctc_loss": "compared with TF's values and gradients and with a sum over every alignment in "
                   "tests/ops/test_ctc.py",
    "nn.local_response_normalization": "compared with TF's values and gradients in "
                                       "tests/ops/test_lrn.py",
    "nn.lrn": "compared with TF's values and gradients in tests/ops/test_lrn.py",
    "nn.ctc_beam_search_decoder": "SparseTensor results: compared with TF's values in "
                                  "tests/ops/test_ctc.py",
    "nn.ctc_greedy_decoder": "SparseTensor results: compared with TF's values in tests/ops/test_ctc.py",
    "strings.unicode_script": "ICU's script codes: compared with TF's values in "
                              "tests/ops/test_unicode_script.py",
    "linalg.sqrtm": "compared with TF's values and gradients in tests/ops/test_sqrtm_tridiagonal_solve.py",
    "linalg.tridiagonal_solve": "compared with TF's values and gradients in "
                                "tests/ops/test_sqrtm_tridiagonal_solve.py",
    "linalg.tridiagonal_matmul": "compared with TF's values and gradients in "
                                 "tests/ops/test_tridiagonal.py",
    "math.zeta": "checked against a direct sum in tests/ops/specs/math.py and TF's values at "
                 "the edges in tests/ops/test_zeta_nextafter.py",
    "math.nextafter": "checked against np.nextafter in tests/ops/specs/math.py and "
                      "tests/ops/test_zeta_nextafter.py",
    **{f"sets.{name}": "SparseTensor results: compared with TF's recorded values in "
                         "tests/ops/test_sparse_ops.py" for name in (
        "difference", "intersection", "size", "union")},
    "reverse_sequence": "TF's ReverseSequence: compared with TF's recorded values in "
                        "tests/ops/test_composite_ops.py and tests/compat/test_raw_ops.py",
    "unravel_index": "TF's UnravelIndex: compared with TF's recorded values in "
                     "tests/ops/test_composite_ops.py and tests/compat/test_raw_ops.py",
    "linalg.expm": _COMPOSITE,
    "strings.bytes_split": _RAGGED, "strings.ngrams": _RAGGED, "strings.unicode_decode": _RAGGED,
    "strings.unicode_decode_with_offsets": _RAGGED, "strings.unicode_split": _RAGGED,
    "strings.unicode_split_with_offsets": _RAGGED,
    "strings.unicode_encode": _RAGGED, "strings.unsorted_segment_join": _RAGGED,
    "strings.unicode_transcode": "unicode_decode's decoder with another encoder: compared with "
                                 "TF's values and errors in tests/ragged/test_ragged.py",
}
