"""TF 1's spellings of names TF 2 moved (``tf.compat.v1.log`` is ``tf.math.log``,
``tf.compat.v1.random_normal`` is ``tf.random.normal``), declared here as the objects of
their TF 2 names, and the TF 1 casts (``tf.compat.v1.to_float`` & co.).

>>> tf.compat.v1.log(1.0), tf.compat.v1.random_normal is tf.random.normal
(<tf.Tensor: shape=(), dtype=float32, numpy=0.0>, True)
>>> tf.compat.v1.to_int32([1.7, -2.5])
<tf.Tensor: shape=(2,), dtype=int32, numpy=array([ 1, -2], dtype=int32)>
"""
import numpy as np

from eagerflow._src.backend.api_export import export
from eagerflow._src.core import context, convert
from eagerflow._src.core import dtypes as _d
from eagerflow._src.ops import array_ops, cast_ops, reduction_ops
from eagerflow._src.ragged import ragged_dispatch

# (TF 1 name under ``compat.v1``, module defining the object, its attribute there): the
# object TF 2 exports under its new name. ``set_random_seed`` is ``tf.random.set_seed``
# (``data.Dataset`` is TF 1's, `dataset_v1`; ``train.Checkpoint`` `CheckpointV1`).
ALIASES = (
    ('COMPILER_VERSION', 'eagerflow._src.core.versions', 'COMPILER_VERSION'),
    ('GIT_VERSION', 'eagerflow._src.core.versions', 'GIT_VERSION'),
    ('GRAPH_DEF_VERSION', 'eagerflow._src.core.versions', 'GRAPH_DEF_VERSION'),
    ('GRAPH_DEF_VERSION_MIN_CONSUMER', 'eagerflow._src.core.versions',
     'GRAPH_DEF_VERSION_MIN_CONSUMER'),
    ('GRAPH_DEF_VERSION_MIN_PRODUCER', 'eagerflow._src.core.versions',
     'GRAPH_DEF_VERSION_MIN_PRODUCER'),
    ('OpError', 'eagerflow._src.core.errors', 'OpError'),
    ('VERSION', 'eagerflow._src.core.versions', 'VERSION'),
    ('accumulate_n', 'eagerflow._src.ops.reduction_ops', 'accumulate_n'),
    ('angle', 'eagerflow._src.ops.math_ops', 'angle'),
    ('betainc', 'eagerflow._src.ops.math_ops', 'betainc'),
    ('ceil', 'eagerflow._src.ops.math_ops', 'ceil'),
    ('check_numerics', 'eagerflow._src.ops.debugging_ops', 'check_numerics'),
    ('cholesky', 'eagerflow._src.ops.linalg_ops', 'cholesky'),
    ('cholesky_solve', 'eagerflow._src.ops.linalg_ops', 'cholesky_solve'),
    ('conj', 'eagerflow._src.ops.math_ops', 'conj'),
    ('cross', 'eagerflow._src.ops.linalg_ops', 'cross'),
    ('cumprod', 'eagerflow._src.ops.reduction_ops', 'cumprod'),
    ('data.AUTOTUNE', 'eagerflow._src.data.dataset_ops', 'AUTOTUNE'),
    ('data.DatasetSpec', 'eagerflow._src.data.dataset_spec', 'DatasetSpec'),
    ('data.INFINITE_CARDINALITY', 'eagerflow._src.data.dataset_ops', 'INFINITE'),
    ('data.NumpyIterator', 'eagerflow._src.data.iterator_ops', 'NumpyIterator'),
    ('data.Options', 'eagerflow._src.data.options', 'Options'),
    ('data.ThreadingOptions', 'eagerflow._src.data.options', 'ThreadingOptions'),
    ('data.UNKNOWN_CARDINALITY', 'eagerflow._src.data.dataset_ops', 'UNKNOWN'),
    ('debugging.is_finite', 'eagerflow._src.ops.math_ops', 'is_finite'),
    ('debugging.is_inf', 'eagerflow._src.ops.math_ops', 'is_inf'),
    ('debugging.is_nan', 'eagerflow._src.ops.math_ops', 'is_nan'),
    ('debugging.is_non_decreasing', 'eagerflow._src.ops.math_ops', 'is_non_decreasing'),
    ('debugging.is_strictly_increasing', 'eagerflow._src.ops.math_ops',
     'is_strictly_increasing'),
    ('diag', 'eagerflow._src.ops.linalg_ops', 'tensor_diag'),
    ('diag_part', 'eagerflow._src.ops.linalg_ops', 'tensor_diag_part'),
    ('digamma', 'eagerflow._src.ops.math_ops', 'digamma'),
    ('div_no_nan', 'eagerflow._src.ops.math_ops', 'divide_no_nan'),
    ('dtypes.as_string', 'eagerflow._src.ops.string_ops', 'as_string'),
    ('erf', 'eagerflow._src.ops.math_ops', 'erf'),
    ('erfc', 'eagerflow._src.ops.math_ops', 'erfc'),
    ('expm1', 'eagerflow._src.ops.math_ops', 'expm1'),
    ('fft', 'eagerflow._src.ops.signal_ops', 'fft'),
    ('fft2d', 'eagerflow._src.ops.signal_ops', 'fft2d'),
    ('fft3d', 'eagerflow._src.ops.signal_ops', 'fft3d'),
    ('floordiv', 'eagerflow._src.ops.math_ops', 'floordiv'),
    ('floormod', 'eagerflow._src.ops.math_ops', 'floormod'),
    ('gfile.FastGFile', 'eagerflow._src.io.gfile', 'GFile'),
    ('global_norm', 'eagerflow._src.ops.reduction_ops', 'global_norm'),
    ('ifft', 'eagerflow._src.ops.signal_ops', 'ifft'),
    ('ifft2d', 'eagerflow._src.ops.signal_ops', 'ifft2d'),
    ('ifft3d', 'eagerflow._src.ops.signal_ops', 'ifft3d'),
    ('igamma', 'eagerflow._src.ops.math_ops', 'igamma'),
    ('igammac', 'eagerflow._src.ops.math_ops', 'igammac'),
    ('imag', 'eagerflow._src.ops.math_ops', 'imag'),
    ('invert_permutation', 'eagerflow._src.ops.math_ops', 'invert_permutation'),
    ('is_finite', 'eagerflow._src.ops.math_ops', 'is_finite'),
    ('is_inf', 'eagerflow._src.ops.math_ops', 'is_inf'),
    ('is_nan', 'eagerflow._src.ops.math_ops', 'is_nan'),
    ('is_non_decreasing', 'eagerflow._src.ops.math_ops', 'is_non_decreasing'),
    ('is_numeric_tensor', 'eagerflow._src.ops.debugging_ops', 'is_numeric_tensor'),
    ('is_strictly_increasing', 'eagerflow._src.ops.math_ops', 'is_strictly_increasing'),
    ('lbeta', 'eagerflow._src.ops.math_ops', 'lbeta'),
    ('lgamma', 'eagerflow._src.ops.math_ops', 'lgamma'),
    ('lin_space', 'eagerflow._src.ops.array_ops', 'linspace'),
    ('linalg.transpose', 'eagerflow._src.ops.linalg_ops', 'matrix_transpose'),
    ('log', 'eagerflow._src.ops.math_ops', 'log'),
    ('log1p', 'eagerflow._src.ops.math_ops', 'log1p'),
    ('log_sigmoid', 'eagerflow._src.ops.math_ops', 'log_sigmoid'),
    ('logical_xor', 'eagerflow._src.ops.math_ops', 'logical_xor'),
    ('matrix_band_part', 'eagerflow._src.ops.linalg_ops', 'band_part'),
    ('matrix_determinant', 'eagerflow._src.ops.linalg_ops', 'det'),
    ('matrix_diag', 'eagerflow._src.ops.linalg_ops', 'diag'),
    ('matrix_diag_part', 'eagerflow._src.ops.linalg_ops', 'diag_part'),
    ('matrix_inverse', 'eagerflow._src.ops.linalg_ops', 'inv'),
    ('matrix_set_diag', 'eagerflow._src.ops.linalg_ops', 'set_diag'),
    ('matrix_solve', 'eagerflow._src.ops.linalg_ops', 'solve'),
    ('matrix_solve_ls', 'eagerflow._src.ops.linalg_ops', 'lstsq'),
    ('matrix_transpose', 'eagerflow._src.ops.linalg_ops', 'matrix_transpose'),
    ('matrix_triangular_solve', 'eagerflow._src.ops.linalg_ops', 'triangular_solve'),
    ('mod', 'eagerflow._src.ops.math_ops', 'floormod'),
    ('nn.ctc_beam_search_decoder_v2', 'eagerflow._src.ops.ctc_ops', 'ctc_beam_search_decoder'),
    ('nn.ctc_loss_v2', 'eagerflow._src.ops.ctc_ops', 'ctc_loss'),
    ('nn.log_uniform_candidate_sampler', 'eagerflow._src.ops.candidate_sampling_ops',
     'log_uniform_candidate_sampler'),
    ('nn.uniform_candidate_sampler', 'eagerflow._src.ops.candidate_sampling_ops',
     'uniform_candidate_sampler'),
    ('polygamma', 'eagerflow._src.ops.math_ops', 'polygamma'),
    ('qr', 'eagerflow._src.ops.linalg_ops', 'qr'),
    ('random.set_random_seed', 'eagerflow._src.ops.random_ops', 'set_seed'),
    ('random_crop', 'eagerflow._src.ops.image_ops', 'random_crop'),
    ('random_gamma', 'eagerflow._src.ops.random_ops', 'gamma'),
    ('random_normal', 'eagerflow._src.ops.random_ops', 'normal'),
    ('random_shuffle', 'eagerflow._src.ops.random_ops', 'shuffle'),
    ('random_uniform', 'eagerflow._src.ops.random_ops', 'uniform'),
    ('real', 'eagerflow._src.ops.math_ops', 'real'),
    ('reciprocal', 'eagerflow._src.ops.math_ops', 'reciprocal'),
    ('regex_replace', 'eagerflow._src.ops.string_ops', 'regex_replace'),
    ('reverse_v2', 'eagerflow._src.ops.array_ops', 'reverse'),
    ('rint', 'eagerflow._src.ops.math_ops', 'rint'),
    ('rsqrt', 'eagerflow._src.ops.math_ops', 'rsqrt'),
    ('segment_max', 'eagerflow._src.ops.reduction_ops', 'segment_max'),
    ('segment_mean', 'eagerflow._src.ops.reduction_ops', 'segment_mean'),
    ('segment_min', 'eagerflow._src.ops.reduction_ops', 'segment_min'),
    ('segment_prod', 'eagerflow._src.ops.reduction_ops', 'segment_prod'),
    ('segment_sum', 'eagerflow._src.ops.reduction_ops', 'segment_sum'),
    ('self_adjoint_eig', 'eagerflow._src.ops.linalg_ops', 'eigh'),
    ('self_adjoint_eigvals', 'eagerflow._src.ops.linalg_ops', 'eigvalsh'),
    ('set_random_seed', 'eagerflow._src.ops.random_ops', 'set_seed'),
    ('sets.set_difference', 'eagerflow._src.ops.set_ops', 'set_difference'),
    ('sets.set_intersection', 'eagerflow._src.ops.set_ops', 'set_intersection'),
    ('sets.set_size', 'eagerflow._src.ops.set_ops', 'set_size'),
    ('sets.set_union', 'eagerflow._src.ops.set_ops', 'set_union'),
    ('sparse_fill_empty_rows', 'eagerflow._src.ops.sparse_ops', 'fill_empty_rows'),
    ('sparse_mask', 'eagerflow._src.ops.sparse_ops', 'mask'),
    ('sparse_maximum', 'eagerflow._src.ops.sparse_ops', 'maximum'),
    ('sparse_minimum', 'eagerflow._src.ops.sparse_ops', 'minimum'),
    ('sparse_reorder', 'eagerflow._src.ops.sparse_ops', 'reorder'),
    ('sparse_reshape', 'eagerflow._src.ops.sparse_ops', 'reshape'),
    ('sparse_retain', 'eagerflow._src.ops.sparse_ops', 'retain'),
    ('sparse_slice', 'eagerflow._src.ops.sparse_ops', 'slice'),
    ('sparse_softmax', 'eagerflow._src.ops.sparse_ops', 'softmax'),
    ('sparse_tensor_dense_matmul', 'eagerflow._src.ops.sparse_ops', 'sparse_dense_matmul'),
    ('sparse_tensor_to_dense', 'eagerflow._src.ops.sparse_tensor', 'to_dense'),
    ('sparse_to_indicator', 'eagerflow._src.ops.sparse_ops', 'to_indicator'),
    ('sparse_transpose', 'eagerflow._src.ops.sparse_ops', 'transpose'),
    ('squared_difference', 'eagerflow._src.ops.math_ops', 'squared_difference'),
    ('string_join', 'eagerflow._src.ops.string_ops', 'join'),
    ('string_strip', 'eagerflow._src.ops.string_ops', 'strip'),
    ('string_to_hash_bucket_fast', 'eagerflow._src.ops.fingerprint_ops', 'to_hash_bucket_fast'),
    ('string_to_hash_bucket_strong', 'eagerflow._src.ops.fingerprint_ops', 'to_hash_bucket_strong'),
    ('svd', 'eagerflow._src.ops.linalg_ops', 'svd'),
    ('tensor_scatter_add', 'eagerflow._src.ops.array_ops', 'tensor_scatter_nd_add'),
    ('tensor_scatter_sub', 'eagerflow._src.ops.array_ops', 'tensor_scatter_nd_sub'),
    ('tensor_scatter_update', 'eagerflow._src.ops.array_ops', 'tensor_scatter_nd_update'),
    ('trace', 'eagerflow._src.ops.linalg_ops', 'trace'),
    ('train.BytesList', 'eagerflow._src.core.protos.example', 'BytesList'),
    ('train.Example', 'eagerflow._src.core.protos.example', 'Example'),
    ('train.Feature', 'eagerflow._src.core.protos.example', 'Feature'),
    ('train.FeatureList', 'eagerflow._src.core.protos.example', 'FeatureList'),
    ('train.FeatureLists', 'eagerflow._src.core.protos.example', 'FeatureLists'),
    ('train.Features', 'eagerflow._src.core.protos.example', 'Features'),
    ('train.FloatList', 'eagerflow._src.core.protos.example', 'FloatList'),
    ('train.Int64List', 'eagerflow._src.core.protos.example', 'Int64List'),
    ('train.SequenceExample', 'eagerflow._src.core.protos.example', 'SequenceExample'),
    ('truncated_normal', 'eagerflow._src.ops.random_ops', 'truncated_normal'),
    ('unsorted_segment_max', 'eagerflow._src.ops.reduction_ops', 'unsorted_segment_max'),
    ('unsorted_segment_mean', 'eagerflow._src.ops.reduction_ops', 'unsorted_segment_mean'),
    ('unsorted_segment_min', 'eagerflow._src.ops.reduction_ops', 'unsorted_segment_min'),
    ('unsorted_segment_prod', 'eagerflow._src.ops.reduction_ops', 'unsorted_segment_prod'),
    ('unsorted_segment_sqrt_n', 'eagerflow._src.ops.reduction_ops', 'unsorted_segment_sqrt_n'),
    ('unsorted_segment_sum', 'eagerflow._src.ops.reduction_ops', 'unsorted_segment_sum'),
    ('where_v2', 'eagerflow._src.ops.array_ops', 'where'),
)

for _v1_name, _module, _attribute in ALIASES:
    export(f"compat.v1.{_v1_name}").export_constant(_module, _attribute)


@export("compat.v1.to_float")
def to_float(x, name="ToFloat"):
    """``tf.cast(x, tf.float32)`` (TF 1's, deprecated)."""
    return cast_ops.cast(x, _d.float32, name=name)


@export("compat.v1.to_double")
def to_double(x, name="ToDouble"):
    """``tf.cast(x, tf.float64)`` (TF 1's, deprecated)."""
    return cast_ops.cast(x, _d.float64, name=name)


@export("compat.v1.to_int32")
def to_int32(x, name="ToInt32"):
    """``tf.cast(x, tf.int32)`` (TF 1's, deprecated)."""
    return cast_ops.cast(x, _d.int32, name=name)


@export("compat.v1.to_int64")
def to_int64(x, name="ToInt64"):
    """``tf.cast(x, tf.int64)`` (TF 1's, deprecated)."""
    return cast_ops.cast(x, _d.int64, name=name)


@export("compat.v1.to_bfloat16")
def to_bfloat16(x, name="ToBFloat16"):
    """``tf.cast(x, tf.bfloat16)`` (TF 1's, deprecated)."""
    return cast_ops.cast(x, _d.bfloat16, name=name)


@export("compat.v1.to_complex64")
def to_complex64(x, name="ToComplex64"):
    """``tf.cast(x, tf.complex64)`` (TF 1's, deprecated)."""
    return cast_ops.cast(x, _d.complex64, name=name)


@export("compat.v1.to_complex128")
def to_complex128(x, name="ToComplex128"):
    """``tf.cast(x, tf.complex128)`` (TF 1's, deprecated)."""
    return cast_ops.cast(x, _d.complex128, name=name)


def _deprecated_arg(new, new_name, old, old_name):
    """TF 1's choice between an argument and its deprecated spelling."""
    if old is not None:
        if new is not None:
            raise ValueError(f"Cannot specify both '{old_name}' and '{new_name}'.")
        return old
    return new


def _v1_reducer(reduce):
    def fn(input_tensor, axis=None, keepdims=None, name=None, reduction_indices=None,
           keep_dims=None):
        axis = _deprecated_arg(axis, "axis", reduction_indices, "reduction_indices")
        keepdims = _deprecated_arg(keepdims, "keepdims", keep_dims, "keep_dims")
        return reduce(input_tensor, axis=axis, keepdims=bool(keepdims), name=name)
    fn.__name__ = fn.__qualname__ = reduce.__name__
    fn.__doc__ = (f"``tf.{reduce.__name__}`` with TF 1's arguments: `reduction_indices` "
                  f"for `axis`, `keep_dims` for `keepdims`.")
    return fn


for _name in ("reduce_sum", "reduce_mean", "reduce_max", "reduce_min", "reduce_prod",
              "reduce_all", "reduce_any", "reduce_logsumexp"):
    globals()[_name] = _v1_reducer(getattr(reduction_ops, _name))
    export(f"compat.v1.{_name}", f"compat.v1.math.{_name}")(globals()[_name])


@export("compat.v1.count_nonzero", "compat.v1.math.count_nonzero")
def count_nonzero(input_tensor=None, axis=None, keepdims=None, dtype=_d.int64, name=None,
                  reduction_indices=None, keep_dims=None, input=None):
    """``tf.math.count_nonzero`` with TF 1's arguments (`input_tensor`,
    `reduction_indices`, `keep_dims`)."""
    input_tensor = _deprecated_arg(input_tensor, "input_tensor", input, "input")
    axis = _deprecated_arg(axis, "axis", reduction_indices, "reduction_indices")
    keepdims = _deprecated_arg(keepdims, "keepdims", keep_dims, "keep_dims")
    return reduction_ops.count_nonzero(input_tensor, axis=axis, keepdims=keepdims, dtype=dtype,
                                       name=name)


@export("compat.v1.argmax", "compat.v1.math.argmax")
def argmax(input, axis=None, name=None, dimension=None, output_type=_d.int64):
    """``tf.math.argmax`` with TF 1's argument order (`name` third) and `dimension`."""
    axis = _deprecated_arg(axis, "axis", dimension, "dimension")
    return reduction_ops.argmax(input, axis=axis, output_type=output_type, name=name)


@export("compat.v1.argmin", "compat.v1.math.argmin")
def argmin(input, axis=None, name=None, dimension=None, output_type=_d.int64):
    """``tf.math.argmin`` with TF 1's argument order (`name` third) and `dimension`."""
    axis = _deprecated_arg(axis, "axis", dimension, "dimension")
    return reduction_ops.argmin(input, axis=axis, output_type=output_type, name=name)


@export("compat.v1.constant")
def constant(value, dtype=None, shape=None, name="Const", verify_shape=False):
    """TF 1's `tf.constant`: with `verify_shape`, `value` must have `shape` exactly; while a
    graph is built, fewer values than `shape` holds are padded with the last one.

    >>> tf.compat.v1.constant([1, 2], shape=[2], verify_shape=True)
    <tf.Tensor: shape=(2,), dtype=int32, numpy=array([1, 2], dtype=int32)>
    """
    if shape is None or not (verify_shape or context.get().graph is not None):
        return convert.constant(value, dtype, shape, name)
    plain = np.asarray(value) if convert.is_tensor_like(value) else value
    arr = convert.to_array(plain, None if dtype is None else _d.as_dtype(dtype))
    dims = tuple(int(d) for d in shape)
    if verify_shape and arr.shape != dims:
        if context.get().graph is not None:
            raise TypeError(f"Expected Tensor's shape: {dims}, but got {arr.shape}.")
        raise TypeError(f"Expected Tensor {arr} (converted from {plain}) with shape {dims}, "
                        f"but got shape {arr.shape}.")
    size = int(np.prod(dims, dtype=np.int64))
    if 1 < arr.size < size:  # TF 1's graph constant repeats the last value
        flat = arr.reshape(-1)
        value = np.concatenate([flat, np.repeat(flat[-1:], size - arr.size)]).reshape(dims)
    elif arr.size > size and size > 1:
        raise ValueError(f"Too many elements provided. Takes at most {size}, but got "
                         f"{arr.size}.")
    return convert.constant(value, dtype, shape, name)


@export("compat.v1.squeeze")
def squeeze(input, axis=None, name=None, squeeze_dims=None):
    """``tf.squeeze`` with TF 1's `squeeze_dims` for `axis`."""
    axis = _deprecated_arg(axis, "axis", squeeze_dims, "squeeze_dims")
    return array_ops.squeeze(input, axis, name=name)


@export("compat.v1.expand_dims")
def expand_dims(input, axis=None, name=None, dim=None):
    """``tf.expand_dims`` with TF 1's `dim` for `axis`."""
    axis = _deprecated_arg(axis, "axis", dim, "dim")
    if axis is None:
        raise ValueError("Must specify an axis argument to tf.expand_dims()")
    return array_ops.expand_dims(input, axis, name=name)


@export("compat.v1.while_loop")
def while_loop(cond, body, loop_vars, shape_invariants=None, parallel_iterations=10,
               back_prop=True, swap_memory=False, name=None, maximum_iterations=None,
               return_same_structure=False):
    """TF 1's `while_loop`: as TF 2's, but one loop variable comes back as itself rather
    than in the list or tuple it was given in, unless `return_same_structure`.

    As in TF: eagerly, a body given one loop variable may return it bare (and the loop
    then returns it bare); TF 1's control flow (`disable_v2_behavior`) returns the
    structure of the body's result (a bare tensor: a list of it)."""
    from eagerflow._src.compat import graph_mode  # noqa: PLC0415
    from eagerflow._src.core import context, nest  # noqa: PLC0415
    from eagerflow._src.graph import control_flow  # noqa: PLC0415
    if context.executing_eagerly():
        if len(loop_vars) != 1 or return_same_structure:
            return control_flow.while_loop(cond, body, loop_vars, shape_invariants,
                                           parallel_iterations, back_prop, swap_memory,
                                           maximum_iterations, name)
        if maximum_iterations is not None:
            # TF counts the iterations in a loop variable of its own beside the one given,
            # which the body takes and returns bare, and which the loop returns
            return control_flow.while_loop(
                cond, lambda v: [body(v)], [loop_vars[0]], shape_invariants,
                parallel_iterations, back_prop, swap_memory, maximum_iterations, name)[0]
        bare = []

        def packed_body(*args):
            result = body(*args)
            if isinstance(result, (list, tuple)):
                return result
            bare.append(True)
            return (result,)
        out = control_flow.while_loop(cond, packed_body, loop_vars, shape_invariants,
                                      parallel_iterations, back_prop, swap_memory,
                                      maximum_iterations, name)
        return out[0] if bare else out
    results = []

    def recorded_body(*args):
        result = body(*args)
        results.append(result if nest.is_nested(result) else [result])
        return result
    v1 = graph_mode.v1_control_flow()
    out = control_flow.while_loop(cond, recorded_body if v1 else body, loop_vars,
                                  shape_invariants, parallel_iterations, back_prop,
                                  swap_memory, maximum_iterations, name)
    if v1:
        out = nest.pack_sequence_as(results[-1], nest.flatten(out, expand_composites=True),
                                    expand_composites=True)
    if not return_same_structure:
        flat = nest.flatten(out)
        if len(flat) == 1:
            return flat[0]
    return out


@export("compat.v1.cond")
def cond(pred, true_fn=None, false_fn=None, strict=False, name=None, fn1=None, fn2=None):
    """TF 1's `cond`: as TF 2's, but a branch result that is a list or tuple of one
    element comes back as that element, unless `strict`; `fn1`/`fn2` are the old names
    of `true_fn`/`false_fn`."""
    from eagerflow._src.graph import control_flow  # noqa: PLC0415
    if fn1 is not None:
        if true_fn is not None:
            raise TypeError("cond(): true_fn and fn1 may not be set simultaneously.")
        true_fn = fn1
    if fn2 is not None:
        if false_fn is not None:
            raise TypeError("cond(): false_fn and fn2 may not be set simultaneously.")
        false_fn = fn2
    from eagerflow._src.compat import graph_mode  # noqa: PLC0415
    v1 = graph_mode.v1_control_flow()
    if v1:
        _check_v1_pred(pred, name)
    results = {}
    unpack = not strict and (v1 or context.executing_eagerly())  # (TF 2's graphs: never)

    def unpacked(fn, which):
        if not callable(fn):
            return fn  # (TF 2's `cond` names the missing or bad branch)

        def branch():
            out = fn()
            if v1 and out is None:  # (TF 1's cond says so as the branch is built)
                raise ValueError(f"'{which}' must have a return value.")
            if unpack and isinstance(out, (list, tuple)) and len(out) == 1:
                out = out[0]
            results[which] = out
            return out
        return branch
    try:
        return control_flow.cond(pred, unpacked(true_fn, "true_fn"),
                                 unpacked(false_fn, "false_fn"), name)
    except (TypeError, ValueError) as e:
        error = e
    if v1 and len(results) == 2:  # (TF 1's errors for branches that do not match)
        _check_v1_branches(results["true_fn"], results["false_fn"])
    raise error


def _check_v1_pred(pred, name):
    """TF 1's cond takes a boolean scalar tensor (its Switch op's input), not a Python bool;
    its errors use up the cond's name, as TF's are raised in its name scope."""
    if isinstance(pred, bool):
        error = TypeError("'pred' must not be a Python bool.")
    else:
        pred = convert.convert_to_tensor(pred)
        rank = pred.shape.rank
        if pred.dtype.base_dtype != _d.bool:
            error = TypeError(f"Input 'pred' of 'Switch' Op has type "
                              f"{pred.dtype.base_dtype.name} that does not match expected "
                              f"type of bool.")
        elif rank not in (None, 0):
            error = ValueError
        else:
            return
    with context.name_scope(name or "cond") as scope:
        if error is ValueError:
            shape = "[" + ",".join("?" if d is None else str(d)
                                   for d in pred.shape.as_list()) + "]"
            error = ValueError(f"Shape must be rank 0 but is rank {rank} for '{{{{node "
                               f"{scope}Switch}}}} = Switch[T=DT_BOOL]({pred.op.name}, "
                               f"{pred.op.name})' with input shapes: {shape}, {shape}.")
        raise error


def _check_v1_branches(true_out, false_out):
    """The errors of TF 1's cond for branch results that do not match: nest's for their
    structures, then a ValueError naming the dtypes."""
    from eagerflow._src.core import nest  # noqa: PLC0415
    nest.map_structure(lambda a, b: None, true_out, false_out, expand_composites=True)
    for a, b in zip(nest.flatten(true_out, expand_composites=True),
                    nest.flatten(false_out, expand_composites=True)):
        a_dtype, b_dtype = (getattr(v, "dtype", None) for v in (a, b))
        if a_dtype is not None and b_dtype is not None and \
                a_dtype.base_dtype != b_dtype.base_dtype:
            raise ValueError(f"Outputs of 'true_fn' and 'false_fn' must have the same type(s). "
                             f"Received {a_dtype.name} from 'true_fn' and {b_dtype.name} from "
                             f"'false_fn'.")


@export("compat.v1.arg_max")
def arg_max(input, dimension, output_type=_d.int64, name=None):  # noqa: A002 (TF's names)
    """TF 1's `argmax` spelling, with the axis named `dimension`."""
    return reduction_ops.argmax(input, dimension, output_type=output_type, name=name)


@export("compat.v1.arg_min")
def arg_min(input, dimension, output_type=_d.int64, name=None):  # noqa: A002 (TF's names)
    """TF 1's `argmin` spelling, with the axis named `dimension`."""
    return reduction_ops.argmin(input, dimension, output_type=output_type, name=name)


@export("compat.v1.multinomial", "compat.v1.random.multinomial")
def multinomial(logits, num_samples, seed=None, name=None, output_dtype=None):
    """TF 1's `random.categorical`: `num_samples` class indices per row of `logits`."""
    from eagerflow._src.ops import random_ops  # noqa: PLC0415
    return random_ops.categorical(logits, num_samples, dtype=output_dtype, seed=seed,
                                  name=name)


@export("compat.v1.random.stateless_multinomial")
def stateless_multinomial(logits, num_samples, seed, output_dtype=_d.int64, name=None):
    """TF 1's `random.stateless_categorical`: class indices determined by `seed`."""
    from eagerflow._src.ops import random_ops  # noqa: PLC0415
    return random_ops.stateless_categorical(logits, num_samples, seed, dtype=output_dtype,
                                            name=name)


@export("compat.v1.string_to_hash_bucket", "compat.v1.strings.to_hash_bucket")
def string_to_hash_bucket(string_tensor=None, num_buckets=None, name=None, input=None):  # noqa: A002
    """TF 1's `strings.to_hash_bucket` (the strings also named `input`)."""
    from eagerflow._src.ops import fingerprint_ops  # noqa: PLC0415
    if input is not None:
        string_tensor = input
    return fingerprint_ops.to_hash_bucket(string_tensor, num_buckets, name=name)


@export("compat.v1.string_to_number", "compat.v1.strings.to_number")
def string_to_number(string_tensor=None, out_type=_d.float32, name=None, input=None):  # noqa: A002
    """TF 1's `strings.to_number` (the strings also named `input`)."""
    from eagerflow._src.ops import string_ops  # noqa: PLC0415
    string_tensor = _deprecated_arg(string_tensor, "string_tensor", input, "input")
    return string_ops.to_number(string_tensor, out_type, name=name)


@export("compat.v1.substr", "compat.v1.strings.substr")
def substr(input, pos, len, name=None, unit="BYTE"):  # noqa: A002 (TF's names)
    """TF 1's `strings.substr` (`name` before `unit`)."""
    from eagerflow._src.ops import string_ops  # noqa: PLC0415
    return string_ops.substr(input, pos, len, unit=unit, name=name)


@export("compat.dimension_value", "compat.v1.dimension_value",
        "compat.v1.compat.dimension_value")
def dimension_value(dimension):
    """The int (or None) of `dimension`, a `Dimension` or already an int."""
    return getattr(dimension, "value", dimension)


@export("compat.dimension_at_index", "compat.v1.dimension_at_index",
        "compat.v1.compat.dimension_at_index")
def dimension_at_index(shape, index):
    """Dimension `index` of `shape` as a `Dimension` (unknown for an unknown rank)."""
    from eagerflow._src.core.tensor_shape import Dimension, TensorShape  # noqa: PLC0415
    shape = TensorShape(shape)
    return Dimension(None if shape.rank is None else shape.as_list()[index])


# TF 1's switches between its old and new behaviours: eagerflow has only the new ones (resource
# variables, control flow as functional ops, tensors compared by value), so they only record
# what was asked for, for the queries.
_switches = {"resource_variables": True, "control_flow_v2": True, "tensor_equality": True}


def _switch(key, value):
    def switch():
        _switches[key] = value
    switch.__name__ = f"{'enable' if value else 'disable'}_{key}"
    switch.__doc__ = f"Records that {key.replace('_', ' ')} are {'on' if value else 'off'}."
    return switch


for _key in _switches:
    for _value in (True, False):
        _fn = _switch(_key, _value)
        globals()[_fn.__name__] = _fn
        export(f"compat.v1.{_fn.__name__}").export_constant(__name__, _fn.__name__)
del _key, _value, _fn


@export("compat.v1.resource_variables_enabled")
def resource_variables_enabled():
    """Whether `disable_resource_variables` (or `disable_v2_behavior`) was not called last."""
    return _switches["resource_variables"]


@export("compat.v1.control_flow_v2_enabled")
def control_flow_v2_enabled():
    """Whether `disable_control_flow_v2` (or `disable_v2_behavior`) was not called last."""
    return _switches["control_flow_v2"]


# TF 1's assertions take `data` (tensors shown when they fail) before `summarize` and
# `message`; TF 2's have only `message` and `summarize`.
def _v1_assert(name, n_args, extra=()):
    import inspect  # noqa: PLC0415

    def assertion(*args, data=None, summarize=None, message=None, name=None, **kwargs):
        from eagerflow._src.ops import debugging_ops  # noqa: PLC0415
        fn = getattr(debugging_ops, assertion.__name__)
        args = list(args)
        fixed, rest = args[:n_args], args[n_args:]
        for key, value in zip(extra, rest):  # (assert_near's rtol, atol)
            kwargs[key] = value
        rest = rest[len(extra):]
        if rest:
            data = rest.pop(0)
        if rest:
            summarize = rest.pop(0)
        if rest:
            message = rest.pop(0)
        if rest:
            name = rest.pop(0)
        accepted = inspect.signature(fn).parameters
        if "summarize" in accepted:
            kwargs["summarize"] = summarize
        from eagerflow._src.compat import graph_mode  # noqa: PLC0415
        graph = graph_mode.v1_graph()
        start = len(graph.get_operations()) if graph is not None else 0
        if data is not None and hasattr(fn, "with_data"):  # (the rank checks are static)
            out = fn.with_data(*fixed, data=data, message=message, name=name, **kwargs)
        else:
            out = fn(*fixed, message=message, name=name, **kwargs)
        if out is None and graph is not None:
            # TF 1 returns the check's Assert op, for control dependencies to wait on (a
            # no_op when it was decided while building)
            made = [op for op in graph.get_operations()[start:] if op.type == "Assert"]
            return made[-1] if made else graph_mode.no_op(name)
        return out
    assertion.__name__ = name
    assertion.__doc__ = (f"TF 1's ``{name}`` (``data`` before ``summarize`` and ``message``), "
                         f"checked as TF 2's ``debugging.{name}``.")
    return assertion


for _name, _n, _extra in (("assert_equal", 2, ()), ("assert_none_equal", 2, ()),
                          ("assert_less", 2, ()), ("assert_less_equal", 2, ()),
                          ("assert_greater", 2, ()), ("assert_greater_equal", 2, ()),
                          ("assert_near", 2, ("rtol", "atol")), ("assert_positive", 1, ()),
                          ("assert_negative", 1, ()), ("assert_non_negative", 1, ()),
                          ("assert_non_positive", 1, ()), ("assert_rank", 2, ()),
                          ("assert_rank_at_least", 2, ()), ("assert_rank_in", 2, ())):
    globals()[_name] = _v1_assert(_name, _n, _extra)
    export(f"compat.v1.{_name}").export_constant(__name__, _name)
del _name, _n, _extra


def _v1_static_check(check, op_name, *args, message=None, name=None):
    """`check` (raising when it fails); in a v1 graph TF 1 returns a ``NoOp`` named for the
    check having passed while building, for control dependencies."""
    from eagerflow._src.compat import graph_mode  # noqa: PLC0415
    from eagerflow._src.core import context  # noqa: PLC0415
    check(*args, message=message, name=name)
    graph = graph_mode.v1_graph()
    if graph is None:
        return None
    with context.name_scope_push(graph.unique_name(name or check.__name__) + "/"):
        return graph_mode.no_op(op_name)


@export("compat.v1.assert_integer")
def assert_integer(x, message=None, name=None):
    """TF 1's `assert_integer`: TypeError unless `x` has an integer dtype."""
    from eagerflow._src.ops import debugging_ops  # noqa: PLC0415
    return _v1_static_check(debugging_ops.assert_integer, "statically_determined_was_integer",
                            x, message=message, name=name)


@export("compat.v1.assert_type")
def assert_type(tensor, tf_type, message=None, name=None):
    """TF 1's `assert_type`: TypeError unless `tensor` has dtype `tf_type`."""
    from eagerflow._src.ops import debugging_ops  # noqa: PLC0415
    return _v1_static_check(debugging_ops.assert_type, "statically_determined_correct_type",
                            tensor, tf_type, message=message, name=name)


@export("compat.v1.assert_scalar")
def assert_scalar(tensor, name=None, message=None):
    """TF 1's `assert_scalar` (`name` before `message`)."""
    from eagerflow._src.core.convert import convert_to_tensor  # noqa: PLC0415
    from eagerflow._src.ops import debugging_ops  # noqa: PLC0415
    tensor = convert_to_tensor(tensor)  # (a tensor for control dependencies, as TF 1's)
    debugging_ops.assert_scalar(tensor, message=message, name=name)
    return tensor  # (as TF 1's, once the static rank check passed)


@export("compat.v1.div")
def div(x, y, name=None):
    """Python 2's division: floor division of integers, true division otherwise."""
    from eagerflow._src.ops import math_ops  # noqa: PLC0415
    from eagerflow._src.core.convert import convert_to_tensor  # noqa: PLC0415
    x = convert_to_tensor(x)
    y = convert_to_tensor(y, x.dtype)
    if x.dtype.is_integer:
        return math_ops.floordiv(x, y, name=name)
    return math_ops.divide(x, y, name=name)


@export("compat.v1.decode_raw", "compat.v1.io.decode_raw")
def decode_raw(input_bytes=None, out_type=None, little_endian=True, name=None, bytes=None):  # noqa: A002
    """TF 1's `io.decode_raw` (the input also named `bytes`)."""
    from eagerflow._src.ops import io_ops  # noqa: PLC0415
    return io_ops.decode_raw(input_bytes if input_bytes is not None else bytes, out_type,
                                 little_endian, name=name)


@export("compat.v1.confusion_matrix", "compat.v1.math.confusion_matrix")
def confusion_matrix(labels, predictions, num_classes=None, dtype=_d.int32, name=None,
                     weights=None):
    """TF 1's `math.confusion_matrix` (`dtype` before `weights`)."""
    from eagerflow._src.ops import confusion_matrix as _cm  # noqa: PLC0415
    return _cm.confusion_matrix(labels, predictions, num_classes, weights, dtype, name)


@export("compat.v1.reduce_join", "compat.v1.strings.reduce_join")
def reduce_join(inputs, axis=None, keep_dims=None, separator="", name=None,
                reduction_indices=None, keepdims=None):
    """TF 1's `strings.reduce_join` (the old argument names too)."""
    from eagerflow._src.ops import string_ops  # noqa: PLC0415
    axis = reduction_indices if axis is None else axis
    keepdims = keep_dims if keepdims is None else keepdims
    return string_ops.reduce_join(inputs, axis, bool(keepdims), separator, name)


# TF 1's signatures of functions TF 2 reordered: TF 1 takes `name` before the arguments
# added later, so a TF 1 program passing those by position must reach the same parameters.
def _named(name):
    """The `name` argument to pass on: none when not given, leaving the TF 2 function's
    default (its op's default name)."""
    return {} if name is None else {"name": name}


@export("compat.v1.convert_to_tensor")
def convert_to_tensor(value, dtype=None, name=None, preferred_dtype=None, dtype_hint=None):
    """`tf.convert_to_tensor` with `name` third and `preferred_dtype` for `dtype_hint`."""
    dtype_hint = _deprecated_arg(dtype_hint, "dtype_hint", preferred_dtype, "preferred_dtype")
    return convert.convert_to_tensor(value, dtype, dtype_hint=dtype_hint, name=name)


@export("compat.v1.transpose")
def transpose(a, perm=None, name="transpose", conjugate=False):
    """`tf.transpose` with `name` before `conjugate`."""
    return array_ops.transpose(a, perm, conjugate=conjugate, **_named(name))


@export("compat.v1.gather")
def gather(params, indices, validate_indices=None, name=None, axis=None, batch_dims=0):
    """`tf.gather` with `name` before `axis` and `batch_dims`."""
    return array_ops.gather(params, indices, validate_indices, axis, batch_dims, name)


@export("compat.v1.gather_nd", "compat.v1.manip.gather_nd")
def gather_nd(params, indices, name=None, batch_dims=0, bad_indices_policy=""):
    """`tf.gather_nd` with `name` before `batch_dims`."""
    return array_ops.gather_nd(params, indices, batch_dims, name, bad_indices_policy)


@export("compat.v1.pad")
def pad(tensor, paddings, mode="CONSTANT", name=None, constant_values=0):
    """`tf.pad` with `name` before `constant_values`."""
    return array_ops.pad(tensor, paddings, mode, constant_values, name)


@export("compat.v1.boolean_mask")
def boolean_mask(tensor, mask, name="boolean_mask", axis=None):
    """`tf.boolean_mask` with `name` before `axis`."""
    return array_ops.boolean_mask(tensor, mask, axis, name)


@export("compat.v1.shape")
def shape(input, name=None, out_type=None):  # noqa: A002 (TF's names)
    """`tf.shape` with `name` before `out_type`."""
    return array_ops.shape(input, out_type, name)


@export("compat.v1.size")
def size(input, name=None, out_type=None):  # noqa: A002 (TF's names)
    """`tf.size` with `name` before `out_type`."""
    return array_ops.size(input, out_type, name)


@export("compat.v1.zeros_like")
def zeros_like(tensor, dtype=None, name=None, optimize=True):
    """`tf.zeros_like` of TF 1: the input is `tensor` (`optimize` is accepted)."""
    return array_ops.zeros_like(tensor, dtype, **_named(name))


@export("compat.v1.ones_like")
def ones_like(tensor, dtype=None, name=None, optimize=True):
    """`tf.ones_like` of TF 1: the input is `tensor` (`optimize` is accepted)."""
    return array_ops.ones_like(tensor, dtype, **_named(name))


@export("compat.v1.norm", "compat.v1.linalg.norm")
def norm(tensor, ord="euclidean", axis=None, keepdims=None, name=None, keep_dims=None):  # noqa: A002
    """`tf.norm` with TF 1's `keep_dims` for `keepdims`."""
    from eagerflow._src.ops import linalg_ops  # noqa: PLC0415
    keepdims = _deprecated_arg(keepdims, "keepdims", keep_dims, "keep_dims")
    return linalg_ops.norm(tensor, ord, axis, keepdims, name)


@export("compat.v1.reverse_sequence")
def reverse_sequence(input, seq_lengths, seq_axis=None, batch_axis=None, name=None,  # noqa: A002
                     seq_dim=None, batch_dim=None):
    """`tf.reverse_sequence` with TF 1's `seq_dim` and `batch_dim` for its axes."""
    from eagerflow._src.ops import composite_ops  # noqa: PLC0415
    seq_axis = _deprecated_arg(seq_axis, "seq_axis", seq_dim, "seq_dim")
    batch_axis = _deprecated_arg(batch_axis, "batch_axis", batch_dim, "batch_dim")
    return composite_ops.reverse_sequence(input, seq_lengths, seq_axis, batch_axis, name)


@export("compat.v1.strings.length")
def string_length(input, name=None, unit="BYTE"):  # noqa: A002 (TF's names)
    """`tf.strings.length` with `name` before `unit`."""
    from eagerflow._src.ops import string_ops  # noqa: PLC0415
    return string_ops.length(input, unit, name)


@export("compat.v1.parse_example", "compat.v1.io.parse_example")
def parse_example(serialized, features, name=None, example_names=None):
    """`tf.io.parse_example` with `name` before `example_names`."""
    from eagerflow._src.ops import parsing_ops  # noqa: PLC0415
    return parsing_ops.parse_example(serialized, features, example_names, name)


@export("compat.v1.parse_single_example", "compat.v1.io.parse_single_example")
def parse_single_example(serialized, features, name=None, example_names=None):
    """`tf.io.parse_single_example` with `name` before `example_names`."""
    from eagerflow._src.ops import parsing_ops  # noqa: PLC0415
    return parsing_ops.parse_single_example(serialized, features, example_names, name)


@export("compat.v1.serialize_sparse", "compat.v1.io.serialize_sparse")
def serialize_sparse(sp_input, name=None, out_type=_d.string):
    """`tf.io.serialize_sparse` with `name` before `out_type`."""
    from eagerflow._src.ops import io_ops  # noqa: PLC0415
    return io_ops.serialize_sparse(sp_input, out_type, name)


@export("compat.v1.serialize_many_sparse", "compat.v1.io.serialize_many_sparse")
def serialize_many_sparse(sp_input, name=None, out_type=_d.string):
    """`tf.io.serialize_many_sparse` with `name` before `out_type`."""
    from eagerflow._src.ops import io_ops  # noqa: PLC0415
    return io_ops.serialize_many_sparse(sp_input, out_type, name)


@export("compat.v1.decode_csv", "compat.v1.io.decode_csv")
def decode_csv(records, record_defaults, field_delim=",", use_quote_delim=True, name=None,
               na_value="", select_cols=None):
    """`tf.io.decode_csv` with `name` before `na_value` and `select_cols`."""
    from eagerflow._src.ops import io_ops  # noqa: PLC0415
    return io_ops.decode_csv(records, record_defaults, field_delim, use_quote_delim, na_value,
                             select_cols, name)


@export("compat.v1.hessians")
def hessians(ys, xs, name="hessians", colocate_gradients_with_ops=False, gate_gradients=False,
             aggregation_method=None):
    """`tf.hessians` with `name` third (`colocate_gradients_with_ops` is accepted)."""
    from eagerflow._src.graph import hessians as _hessians  # noqa: PLC0415
    return _hessians.hessians(ys, xs, gate_gradients, aggregation_method, name)


# Their ragged versions are the TF 2 functions' (TF 1's boolean_mask and to_number have none).
for _v1, _name in ((gather, "gather"), (gather_nd, "gather_nd"), (shape, "shape"),
                   (size, "size"), (zeros_like, "zeros_like"), (ones_like, "ones_like"),
                   (string_length, "strings.length"), (substr, "strings.substr"),
                   (string_to_hash_bucket, "strings.to_hash_bucket"),
                   (reduce_join, "strings.reduce_join")):
    ragged_dispatch.register_signature(_v1, _name)
