"""Reductions, sorting, unique, segments, scans and norms: TF semantics, errors, edge cases."""
import re
import warnings
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st
from hypothesis.extra import numpy as hnp

import eagerflow as tf
from eagerflow.errors import InvalidArgumentError
from eagerflow import TensorShape
from tests.internals import onednn, reduction_ops as r, registry, threads, unknown_shape


class _Static:
    def __init__(self, shape, dtype):
        self.shape, self.dtype = TensorShape(shape), dtype


def _rule(op_name, *inputs, **attrs):
    return registry.get(op_name).shape(*inputs, **attrs)


# --- reductions ----------------------------------------------------------------------------------

@st.composite
def _array_and_axes(draw):
    x = draw(hnp.arrays(st.sampled_from([np.float32, np.int32]),
                        hnp.array_shapes(min_dims=0, max_dims=4, min_side=0, max_side=3),
                        elements={"min_value": -100, "max_value": 100}))
    rank = x.ndim
    if draw(st.booleans()):
        return x, None
    axes = draw(st.lists(st.integers(0, max(rank - 1, 0)), unique=True, max_size=rank))
    negate = draw(st.lists(st.booleans(), min_size=len(axes), max_size=len(axes)))
    return x, [a - rank if n else a for a, n in zip(axes, negate)]


@settings(max_examples=80, deadline=None)
@given(data=_array_and_axes(), keepdims=st.booleans(), which=st.sampled_from(["sum", "max"]))
def test_reduce_sum_and_max_match_numpy_and_static_shape(data, keepdims, which):
    x, axis = data
    np_axis = None if axis is None else tuple(axis)
    if which == "sum":
        got = tf.reduce_sum(x, axis, keepdims)
        want = np.sum(x, np_axis, x.dtype, keepdims=keepdims)
        op_name = "Sum"
    else:
        got = tf.reduce_max(x, axis, keepdims)
        lowest = -np.inf if x.dtype.kind == "f" else np.iinfo(x.dtype).min
        want = np.max(x, np_axis, keepdims=keepdims, initial=lowest)  # TF: empty -> lowest
        op_name = "Max"
    assert got.dtype == tf.as_dtype(x.dtype)
    np.testing.assert_allclose(got.numpy(), want, rtol=1e-5)
    attrs = {"axis": None if axis is None else tuple(axis), "keepdims": keepdims}
    shape, dtype = _rule(op_name, _Static(x.shape, got.dtype), **attrs)
    assert shape == got.shape and dtype == got.dtype
    blurred, _ = _rule(op_name, _Static([None] * x.ndim, got.dtype), **attrs)
    assert blurred.is_compatible_with(got.shape) and blurred.rank == got.shape.rank


@pytest.mark.parametrize("shape, axis", [((32, 26, 26, 16), (0, 1, 2)), ((8, 24, 24, 16), (1, 2)),
                                         ((8, 24, 24, 16), (-3, -2)), ((4096, 8), (0,)),
                                         ((16, 64, 32), (1,))])
@pytest.mark.parametrize("keepdims", [False, True])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_large_sums_over_leading_or_middle_axes_are_products_with_ones(shape, axis, keepdims,
                                                                       dtype):
    x = np.random.default_rng(0).uniform(0.5, 1.5, shape).astype(dtype)
    assert r._gemv_block(x, axis) is not None
    got = r.add_reduce(np, x, axis, keepdims)
    want = x.astype(np.longdouble).sum(axis, keepdims=keepdims)
    assert got.dtype == dtype and got.shape == want.shape
    # at least as accurate as the ufunc's reduce, which adds the rows one after another
    ufunc_error = np.abs(np.add.reduce(x, axis, dtype, keepdims=keepdims) - want).max()
    assert np.abs(got - want).max() <= ufunc_error


def test_other_sums_stay_with_the_ufunc():
    x = np.ones((64, 32, 16), np.float32)
    for axis in [None, (2,), (1, 2), (0, 2), (0, 0), (3,), (1,)]:
        source = x[:, ::2] if axis == (1,) else x  # not C-contiguous
        assert r._gemv_block(source, axis) is None
    assert r._gemv_block(x.astype(np.int32), (0,)) is None
    assert r._gemv_block(x[:8, :8], (0,)) is None  # small
    assert r._gemv_block(np.ones((16, 1024), np.float32), (0,)) is None  # few long rows
    assert r._gemv_block(np.ones((8192, 1, 2), np.float32), (1,)) is None  # nothing to add
    with pytest.raises(np.exceptions.AxisError):
        r.add_reduce(np, x, (3,))


def test_large_float_sums_and_means_over_middle_axes():
    x = np.random.default_rng(1).normal(size=(16, 12, 12, 8)).astype(np.float32)
    want = x.astype(np.float64).sum((1, 2), keepdims=True)
    np.testing.assert_allclose(tf.reduce_sum(x, [1, 2], keepdims=True).numpy(), want,
                               rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(tf.reduce_mean(x, [-3, -2]).numpy(), want[:, 0, 0] / 144,
                               rtol=1e-5, atol=1e-6)
    half = tf.reduce_mean(x.astype(np.float16), [0, 1, 2])  # summed in float16, as TF does
    assert half.dtype == tf.float16
    np.testing.assert_allclose(half.numpy(), x.mean((0, 1, 2)), atol=2e-3)


def test_reduction_rule_with_unknown_rank():
    shape, dtype = _rule("Sum", _Static(None, tf.float32), axis=(0,), keepdims=False)
    assert shape.rank is None and dtype == tf.float32


def test_integer_mean_truncates_toward_zero():
    assert tf.reduce_mean([-1, -2]).numpy() == -1
    assert tf.reduce_mean([1, 2]).numpy() == 1
    np.testing.assert_array_equal(tf.reduce_mean([[1, 2], [4, 8]], 0).numpy(), [2, 5])
    # accumulated wide, as TF does: no int8 overflow
    assert tf.reduce_mean(tf.constant([100, 100], tf.int8)).numpy() == 100
    assert tf.reduce_sum(tf.constant([100, 100], tf.int8)).numpy() == -56  # sums wrap


def test_empty_reductions():
    empty = np.zeros((0, 3), np.float32)
    assert tf.reduce_max(empty).numpy() == -np.inf
    assert tf.reduce_min(empty).numpy() == np.inf
    assert tf.reduce_max(np.zeros(0, np.int32)).numpy() == np.iinfo(np.int32).min
    assert tf.reduce_min(np.zeros(0, np.uint8)).numpy() == 255
    assert np.isnan(tf.reduce_mean(empty).numpy())
    assert tf.reduce_mean(np.zeros(0, np.int32)).numpy() == 0
    np.testing.assert_array_equal(tf.reduce_prod(empty, 0).numpy(), [1, 1, 1])
    assert tf.reduce_sum(empty, 1).shape == (0,)
    assert not tf.reduce_any(np.zeros(0, bool)).numpy()
    assert tf.reduce_all(np.zeros(0, bool)).numpy()
    with np.errstate(divide="ignore"):  # log(0) in the Log kernel
        assert tf.reduce_logsumexp(empty).numpy() == -np.inf


def test_reduction_axis_errors():
    x = tf.constant(np.ones((2, 3), np.float32))
    with pytest.raises(InvalidArgumentError,
                       match=r"Invalid reduction dimension \(2 for input with 2 dimension"):
        tf.reduce_sum(x, 2)
    with pytest.raises(InvalidArgumentError, match=r"\(-3 for input.*\[Op:Max\]"):
        tf.reduce_max(x, -3)
    with pytest.raises(InvalidArgumentError, match="duplicate dimension: 0"):
        tf.reduce_sum(x, [0, -2])
    with pytest.raises(InvalidArgumentError, match=r"\(0 for input with 0 dimension"):
        tf.reduce_sum(5.0, 0)
    with pytest.raises(TypeError, match="Cannot convert 0.0"):
        tf.reduce_sum(x, 0.0)


def test_reduction_axis_forms():
    x = np.arange(6, dtype=np.float32).reshape(2, 3)
    np.testing.assert_array_equal(tf.reduce_sum(x, tf.constant([1])).numpy(), [3, 12])
    np.testing.assert_array_equal(tf.reduce_sum(x, np.int64(-1)).numpy(), [3, 12])
    assert tf.reduce_sum(x, []).shape == (2, 3)
    assert tf.reduce_sum(x, keepdims=True).shape == (1, 1)


def test_reduction_dtype_errors():
    with pytest.raises(InvalidArgumentError, match="attr 'T' of bool"):
        tf.reduce_sum([True, False])
    with pytest.raises(InvalidArgumentError, match="attr 'T' of complex"):
        tf.reduce_max(tf.constant([1j]))
    with pytest.raises(TypeError, match="dtype bool"):
        tf.reduce_any([1.0])
    with pytest.raises(TypeError, match="integer type"):
        tf.math.reduce_variance([1, 2])


def test_logsumexp_is_stable_and_handles_infinities():
    np.testing.assert_allclose(tf.reduce_logsumexp([1000.0, 1000.0]).numpy(),
                               1000 + np.log(2), rtol=1e-6)
    np.testing.assert_allclose(tf.reduce_logsumexp([-1000.0, -1000.0]).numpy(),
                               -1000 + np.log(2), rtol=1e-6)
    assert tf.reduce_logsumexp([np.inf, 1.0]).numpy() == np.inf
    assert tf.reduce_logsumexp([-np.inf, 0.0]).numpy() == 0.0
    assert tf.reduce_logsumexp([[1.0, 2.0]], 1, keepdims=True).shape == (1, 1)


def test_variance_of_complex_is_real():
    v = tf.math.reduce_variance(tf.constant([1 + 1j, 2 + 0j]))
    assert v.dtype == tf.float64
    np.testing.assert_allclose(v.numpy(), 0.5)


# --- argmax / argmin -----------------------------------------------------------------------------

def test_argmax_defaults_and_ties():
    got = tf.argmax([[1, 5], [7, 2]])
    assert got.dtype == tf.int64
    np.testing.assert_array_equal(got.numpy(), [1, 0])
    assert tf.argmax([3, 7, 7, 1]).numpy() == 1
    assert tf.argmin([3, 1, 7, 1], output_type=tf.int32).numpy() == 1


def test_argmax_ignores_nan():
    assert tf.argmax([np.nan, 1.0, 3.0]).numpy() == 2
    assert tf.argmin([np.nan, 1.0, 3.0]).numpy() == 1
    assert tf.argmax([1.0, np.nan, 0.0]).numpy() == 0


def test_argmax_errors():
    with pytest.raises(InvalidArgumentError, match=r"Reduction axis 0 is empty in shape \[0\]"):
        tf.argmax(np.zeros(0, np.float32))
    assert tf.argmax(np.zeros((0, 3), np.float32), 1).shape == (0,)
    with pytest.raises(InvalidArgumentError, match=r"range \[-2, 2\), but got 2"):
        tf.argmax(tf.constant(np.ones((2, 3), np.float32)), 2)
    with pytest.raises(InvalidArgumentError, match="'output_type' of float"):
        tf.argmax([1, 2], output_type=tf.float32)
    with pytest.raises(TypeError, match="axis must be int"):
        tf.argmax([[1, 2]], axis=[1])


# --- top_k, sort, argsort ------------------------------------------------------------------------

def test_top_k_tie_order_and_result_type():
    result = tf.math.top_k([1, 3, 3, 2, 3], k=3)
    assert type(result).__name__ == "TopKV2"
    np.testing.assert_array_equal(result.values.numpy(), [3, 3, 3])
    np.testing.assert_array_equal(result.indices.numpy(), [1, 2, 4])
    assert result.indices.dtype == tf.int32
    assert tf.math.top_k([1, 2], index_type=tf.int64).indices.dtype == tf.int64
    zeros = tf.math.top_k([0.0, -0.0, 0.0], k=3)
    np.testing.assert_array_equal(zeros.indices.numpy(), [0, 1, 2])


def test_top_k_puts_nan_last():
    result = tf.math.top_k([1.0, np.nan, 3.0], k=3)
    np.testing.assert_array_equal(result.indices.numpy(), [2, 0, 1])


def test_top_k_errors():
    with pytest.raises(InvalidArgumentError, match="Had 3, needed 5"):
        tf.math.top_k([1, 2, 3], k=5)
    with pytest.raises(InvalidArgumentError, match="Need k >= 0, got -1"):
        tf.math.top_k([1, 2, 3], k=-1)
    with pytest.raises(InvalidArgumentError, match=r"input must be >= 1-D, got shape \[\]"):
        tf.math.top_k(3)
    assert tf.math.top_k(tf.constant(np.ones((2, 4), np.float32)), k=0).values.shape == (2, 0)


def test_top_k_static_shape():
    (values, _), (indices, index_type) = _rule("TopKV2", _Static([None, 7], tf.float32), k=2,
                                               sorted=True, index_type=tf.int32)
    assert values == [None, 2] and indices == [None, 2] and index_type == tf.int32


def test_sort_extremes_of_integer_types():
    np.testing.assert_array_equal(tf.sort(tf.constant([1, 200, 0, 3], tf.uint8)).numpy(),
                                  [0, 1, 3, 200])
    low = np.iinfo(np.int32).min
    np.testing.assert_array_equal(tf.sort(tf.constant([0, low, 5])).numpy(), [low, 0, 5])
    np.testing.assert_array_equal(
        tf.argsort(tf.constant([1, 200, 0, 3], tf.uint8), direction="DESCENDING").numpy(),
        [1, 3, 0, 2])


def test_sort_nan_both_directions():  # TF 2.21's values
    np.testing.assert_array_equal(tf.sort([1.0, np.nan, 0.0]).numpy(), [0, 1, np.nan])
    np.testing.assert_array_equal(tf.sort([1.0, np.nan, 0.0], direction="DESCENDING").numpy(),
                                  [1, np.nan, 0])


def test_argsort_is_stable():
    np.testing.assert_array_equal(tf.argsort([3, 1, 3, 1]).numpy(), [1, 3, 0, 2])
    np.testing.assert_array_equal(tf.argsort([3, 1, 3, 1], direction="DESCENDING").numpy(),
                                  [0, 2, 1, 3])


def test_sort_errors():
    with pytest.raises(ValueError, match="Received: direction=UP"):
        tf.sort([1], direction="UP")
    with pytest.raises(InvalidArgumentError, match="slice index 2 of dimension 0"):
        tf.sort([1], axis=2)
    with pytest.raises(InvalidArgumentError):
        tf.sort([True, False])


# --- unique --------------------------------------------------------------------------------------

def test_unique_first_occurrence_order():
    y, idx = tf.unique([3, 1, 3, 2, 1])
    np.testing.assert_array_equal(y.numpy(), [3, 1, 2])
    np.testing.assert_array_equal(idx.numpy(), [0, 1, 0, 2, 1])
    assert idx.dtype == tf.int32
    y, idx, count = tf.unique_with_counts(["b", "a", "b"], out_idx=tf.int64)
    np.testing.assert_array_equal(y.numpy(), [b"b", b"a"])
    np.testing.assert_array_equal(count.numpy(), [2, 1])
    assert idx.dtype == count.dtype == tf.int64


def test_unique_float_edge_cases():
    y, idx = tf.unique([np.nan, np.nan, 1.0])  # NaNs never equal each other
    assert y.shape == (3,)
    np.testing.assert_array_equal(idx.numpy(), [0, 1, 2])
    y, idx = tf.unique([0.0, -0.0])
    assert y.shape == (1,)
    y, idx = tf.unique(np.zeros(0, np.float32))
    assert y.shape == idx.shape == (0,)


def test_unique_errors():
    with pytest.raises(InvalidArgumentError, match="unique expects a 1D vector"):
        tf.unique([[1]])
    with pytest.raises(InvalidArgumentError, match="'out_idx' of int16"):
        tf.unique([1], out_idx=tf.int16)


# --- bincount, count_nonzero ---------------------------------------------------------------------

def test_bincount_lengths_and_weights():
    np.testing.assert_array_equal(tf.math.bincount([1, 1, 3], minlength=6).numpy(),
                                  [0, 2, 0, 1, 0, 0])
    np.testing.assert_array_equal(tf.math.bincount([1, 1, 3], maxlength=2).numpy(), [0, 2])
    weighted = tf.math.bincount([1, 1, 3], weights=[0.5, 0.25, 1.0], dtype=tf.float64)
    assert weighted.dtype == tf.float32  # the weights' dtype wins
    np.testing.assert_allclose(weighted.numpy(), [0, 0.75, 0, 1])
    assert tf.math.bincount(np.zeros(0, np.int32)).shape == (0,)
    np.testing.assert_array_equal(
        tf.math.bincount([[1, 2, 2], [0, 0, 3]], axis=-1, binary_output=True).numpy(),
        [[0, 1, 1, 0], [1, 0, 0, 1]])


def test_bincount_errors():
    with pytest.raises(InvalidArgumentError, match="must be non-negative"):
        tf.math.bincount([1, -1])
    with pytest.raises(InvalidArgumentError, match="same shape as `arr`"):
        tf.math.bincount([1, 2], weights=[1.0])
    with pytest.raises(ValueError, match="mutually exclusive"):
        tf.math.bincount([1, 2], weights=[1.0, 2.0], binary_output=True)
    with pytest.raises(ValueError, match="Only 0 and -1"):
        tf.math.bincount([[1]], axis=1)
    with pytest.raises(InvalidArgumentError, match="at most rank 2"):
        tf.math.bincount(np.zeros((2, 2, 2), np.int32), axis=-1)


def test_count_nonzero():
    assert tf.math.count_nonzero([[0, 1], [2, 0]]).dtype == tf.int64
    assert tf.math.count_nonzero(["", "a", "b"]).numpy() == 2
    assert tf.math.count_nonzero([0.0, np.nan, -0.0]).numpy() == 1
    assert tf.math.count_nonzero([[0, 1]], axis=1, keepdims=True).shape == (1, 1)


# --- segments ------------------------------------------------------------------------------------

def test_sorted_segment_empty_segments():
    np.testing.assert_array_equal(tf.math.segment_max([1.0, 2, 3, 5], [0, 0, 2, 2]).numpy(),
                                  [2, 0, 5])
    np.testing.assert_array_equal(tf.math.segment_prod([1, 2, 3, 5], [0, 0, 2, 2]).numpy(),
                                  [2, 1, 15])
    np.testing.assert_array_equal(tf.math.segment_mean([1, 2, -3, -4], [0, 0, 1, 1]).numpy(),
                                  [1, -3])  # truncated
    empty = tf.math.segment_sum(np.zeros((0, 2), np.float32), np.zeros(0, np.int32))
    assert empty.shape == (0, 2)


@pytest.mark.parametrize("ids, message", [
    ([1, 0, 0], "segment ids are not increasing"),
    ([-1, 0, 0], r"Segment id -1 out of range \[0, 1\)"),
    ([0, 0], "should be the same size as dimension 0"),
    ([[0, 0, 1]], "segment_ids should be a vector"),
])
def test_sorted_segment_errors(ids, message):
    with pytest.raises(InvalidArgumentError, match=message):
        tf.math.segment_sum([1, 2, 3], ids)


def test_sorted_segment_id_dtype():
    with pytest.raises(InvalidArgumentError, match="'Tindices' of float"):
        tf.math.segment_sum([1.0], [0.0])


def test_unsorted_segments():
    np.testing.assert_array_equal(
        tf.math.unsorted_segment_sum([1, 2, 3, 4], [2, -1, 2, 0], 3).numpy(), [4, 0, 4])
    np.testing.assert_array_equal(
        tf.math.unsorted_segment_sum([[1, 2], [3, 4]], [[0, 1], [1, 1]], 2).numpy(), [1, 9])
    maxima = tf.math.unsorted_segment_max([1.0, 2.0], [0, 0], 2).numpy()
    np.testing.assert_array_equal(maxima, [2, np.finfo(np.float32).min])
    mean = tf.math.unsorted_segment_mean([1, 2, 3], [0, 0, 2], 4)
    assert mean.dtype == tf.float64
    np.testing.assert_allclose(mean.numpy(), [1.5, 0, 3, 0])


def test_unsorted_segment_sum_of_negative_zeros_is_positive_zero():
    summed = tf.math.unsorted_segment_sum([-0.0, -0.0, 1.0], [0, 0, 1], 3).numpy()
    np.testing.assert_array_equal(np.signbit(summed), [False, False, False])
    # the sorted kernel starts from the first row, as TF's does
    assert np.signbit(tf.math.segment_sum([-0.0, 1.0], [0, 1]).numpy()[0])


def test_unsorted_segment_static_shape():
    shape, _ = _rule("UnsortedSegmentSum", _Static([None, 3, 4], tf.float32),
                     _Static([None, 3], tf.int32), num_segments=5)
    assert shape == [5, 4]
    shape, _ = _rule("SegmentSum", _Static([None, 4], tf.float32), _Static([None], tf.int32))
    assert shape == [None, 4]


def test_unsorted_segment_errors():
    with pytest.raises(InvalidArgumentError, match=r"segment_ids\[3\] = 5 is out of range"):
        tf.math.unsorted_segment_sum([1, 2, 3, 4], [2, 0, 2, 5], 3)
    with pytest.raises(InvalidArgumentError, match=r"segment_ids\[1,0\] = 5"):
        tf.math.unsorted_segment_sum([[1, 2], [3, 4]], [[0, 1], [5, 1]], 2)
    with pytest.raises(InvalidArgumentError, match="does not start with segment_ids.shape"):
        tf.math.unsorted_segment_sum([[1, 2], [3, 4]], [0, 1, 1], 2)
    with pytest.raises(InvalidArgumentError, match="num_segments == -1 must not be negative"):
        tf.math.unsorted_segment_sum([1.0], [0], -1)


# --- scans ---------------------------------------------------------------------------------------

def test_cumsum_exclusive_and_reverse():
    np.testing.assert_array_equal(tf.cumsum([1, 2, 3], exclusive=True, reverse=True).numpy(),
                                  [5, 3, 0])
    np.testing.assert_array_equal(tf.math.cumprod([1, 2, 3], exclusive=True).numpy(), [1, 1, 2])
    np.testing.assert_array_equal(tf.cumsum(tf.constant([100, 100], tf.int8)).numpy(),
                                  [100, -56])
    assert tf.cumsum(np.zeros((0, 2), np.float32), exclusive=True).shape == (0, 2)


def test_cumsum_errors():
    with pytest.raises(InvalidArgumentError, match=r"range \[-1, 1\), but got 1"):
        tf.cumsum([1, 2], axis=1)
    with pytest.raises(InvalidArgumentError, match="attr 'T' of bool"):
        tf.cumsum([True])


# --- add_n, clipping, norms ----------------------------------------------------------------------

def test_add_n_errors():
    with pytest.raises(ValueError, match="at least one Tensor"):
        tf.add_n([])
    with pytest.raises(InvalidArgumentError, match=r"Input 0: \[2\] != input 1: \[3\]"):
        tf.add_n([tf.constant([1, 2]), tf.constant([1, 2, 3])])
    with pytest.raises(InvalidArgumentError, match="expected to be a int32 tensor"):
        tf.add_n([tf.constant([1, 2]), tf.constant([1.0, 2.0])])
    with pytest.raises(TypeError, match="`tensor_dtype` argument"):
        tf.math.accumulate_n([tf.constant([1])], tensor_dtype=tf.float32)


def test_add_n_of_one_and_of_a_tensor():
    np.testing.assert_array_equal(tf.add_n([tf.constant([1, 2])]).numpy(), [1, 2])
    np.testing.assert_array_equal(tf.add_n(tf.constant([[1, 2], [3, 4]])).numpy(), [4, 6])
    shape, _ = _rule("AddN", _Static([None, 3], tf.float32), _Static([2, None], tf.float32))
    assert shape == [2, 3]


def test_clip_by_value_conversion_and_shape():
    with pytest.raises(TypeError, match="Cannot convert 2.5"):
        tf.clip_by_value([1, 5, 9], 2.5, 6)
    with pytest.raises(ValueError, match=r"Shapes \(1, 3\) and \(2, 3\) are incompatible"):
        tf.clip_by_value([[1, 5, 9]], [[2], [3]], 6)
    np.testing.assert_array_equal(tf.clip_by_value([1, 5, 9], 6, 2).numpy(), [6, 6, 6])


def test_clip_by_norm_of_zero_rows():
    got = tf.clip_by_norm([[3.0, 4.0], [0.0, 0.0]], 1.0, axes=[1]).numpy()
    np.testing.assert_allclose(got, [[0.6, 0.8], [0, 0]])


def test_clip_by_global_norm():
    clipped, norm = tf.clip_by_global_norm([tf.constant([3.0, 4.0]), None], 1.0)
    assert clipped[1] is None and norm.numpy() == 5.0
    np.testing.assert_allclose(clipped[0].numpy(), [0.6, 0.8])
    with np.errstate(invalid="ignore"):
        clipped, _ = tf.clip_by_global_norm([tf.constant([np.inf, 4.0])], 1.0)
    assert np.isnan(clipped[0].numpy()).all()
    with pytest.raises(TypeError, match="should be a sequence"):
        tf.linalg.global_norm(tf.constant([3.0]))
    assert tf.linalg.global_norm([]).numpy() == 0.0


def test_l2_normalize():
    np.testing.assert_allclose(tf.linalg.l2_normalize([[3.0, 4.0], [0, 0]], axis=1).numpy(),
                               [[0.6, 0.8], [0, 0]])
    np.testing.assert_allclose(tf.linalg.l2_normalize(tf.constant([3 + 4j, 0])).numpy(),
                               [0.6 + 0.8j, 0])
    with pytest.raises(TypeError, match="Cannot convert 1e-12"):
        tf.linalg.l2_normalize([3, 4])
    with pytest.raises(ValueError, match="Cannot specify both 'dim' and 'axis'"):  # TF's
        tf.nn.l2_normalize([[3.0, 4.0]], axis=0, dim=0)
    np.testing.assert_allclose(tf.nn.l2_normalize([[3.0, 4.0]], dim=1).numpy(), [[0.6, 0.8]])


def test_unknown_rank_rules():
    assert _rule("ArgMax", _Static(None, tf.float32), axis=0,
                 output_type=tf.int64)[0].rank is None
    assert _rule("DenseBincount", _Static(None, tf.int32), _Static([], tf.int32),
                 _Static([0], tf.int32), binary_output=False)[0].rank is None
    assert _rule("UnsortedSegmentMax", _Static(None, tf.float32), _Static([3], tf.int32),
                 num_segments=2)[0] == unknown_shape()


@pytest.mark.parametrize("values, maximum, minimum", [
    ([np.nan, 1.0], 1.0, 1.0),
    ([2.0, np.nan, 1.0], 1.0, 1.0),   # a NaN restarts the segment's running extreme
    ([np.nan, 1.0, 2.0], 2.0, 1.0),
    ([1.0, np.nan], np.nan, np.nan),  # ... and is the result when nothing follows it
    ([np.nan, -np.inf], -np.inf, -np.inf),
    ([-np.inf, 3.0], 3.0, -np.inf),
])
def test_segment_extremes_with_nan_as_tensorflow(values, maximum, minimum):
    ids = [0] * len(values)
    data = np.stack([np.array(values, np.float32), np.arange(len(values), dtype=np.float32)], 1)
    for op, want in ((tf.math.segment_max, maximum), (tf.math.segment_min, minimum)):
        np.testing.assert_array_equal(op(data, ids).numpy()[0, 0], np.float32(want))
    for op, want in ((tf.math.unsorted_segment_max, maximum),
                     (tf.math.unsorted_segment_min, minimum)):
        got = op(data, ids, 2).numpy()  # segment 1 is empty
        np.testing.assert_array_equal(got[0, 0], np.float32(want))
        empty = (np.finfo(np.float32).min if op is tf.math.unsorted_segment_max
                 else np.finfo(np.float32).max)
        assert got[1, 0] == empty
    np.testing.assert_array_equal(  # other columns keep the plain extreme
        tf.math.segment_max(data, ids).numpy()[0, 1], len(values) - 1)


@pytest.mark.parametrize("values, exclusive, reverse, want", [
    ([np.nan, 1.0], False, False, [-np.inf, 1.0]),    # a NaN adds nothing to -inf
    ([1.0, np.nan], False, False, [1.0, 1.0 + np.log(2.0)]),  # ... and log 2 to a value
    ([2.0, np.nan, 1.0], True, True, [1.0 + np.log(2.0), 1.0, -np.inf]),
    ([np.inf, np.inf], False, False, [np.inf, np.nan]),
    ([np.inf, 1.0], False, False, [np.inf, np.inf]),
    ([-np.inf, -np.inf, 1.0], False, False, [-np.inf, -np.inf, 1.0]),
])
def test_cumulative_logsumexp_non_finite_as_tensorflow(values, exclusive, reverse, want):
    for dtype in (np.float32, np.float64):
        data = np.stack([np.array(values, dtype), np.zeros(len(values), dtype)], 1)
        got = tf.math.cumulative_logsumexp(data, 0, exclusive=exclusive, reverse=reverse).numpy()
        np.testing.assert_allclose(got[:, 0], np.array(want, dtype), rtol=1e-6)
        np.testing.assert_allclose(  # the finite column is the plain running log-sum-exp
            got[:, 1], tf.math.cumulative_logsumexp(data[:, 1], 0, exclusive=exclusive,
                                              reverse=reverse).numpy())


def test_float16_mean_divides_the_half_precision_sum_as_tensorflow():
    x = np.array([1000.0, 1001.0, 1002.0], np.float16)  # the sum 3003 rounds to 3004 in half
    assert tf.reduce_mean(x).numpy() == np.float16(1001.5)
    assert tf.reduce_mean(x.reshape(1, 3), 1, keepdims=True).numpy()[0, 0] == np.float16(1001.5)
    assert tf.math.reduce_variance(x).numpy() == np.float16(2.75) / np.float16(3)
    assert np.isinf(tf.reduce_mean(np.full(100, 1000.0, np.float16)).numpy())  # the sum overflows
    assert np.isnan(tf.reduce_mean(np.zeros([0], np.float16)).numpy())
    # bfloat16 keeps the sum in float32 until the division
    assert tf.reduce_mean(x.astype(tf.bfloat16.as_numpy_dtype)).numpy() == 1000


@pytest.mark.parametrize("values, dtype, want", [
    ([3, 4], np.int32, 5),
    ([100, 100], np.int8, 5),        # each square wraps to 16 in int8: sqrt(32)
    ([-3, -4], np.uint32, 5),        # (2**32 - 3)**2 wraps to 9
    ([50000, 50000], np.int32, 26552),
    ([46341, 0], np.int32, -2 ** 31),  # a negative (wrapped) sum has a NaN root
    ([46341, 0], np.int64, 46341),
])
def test_integer_euclidean_norm_wraps_in_its_type_as_tensorflow(values, dtype, want):
    x = np.array(values, np.int64).astype(dtype)
    got = tf.math.reduce_euclidean_norm(x)
    assert got.dtype == tf.as_dtype(dtype) and got.numpy() == np.array(want).astype(dtype)


def _embedding_gradients():
    """The sparse gradient of a gather that takes row 0 twice, and a dense one."""
    table, w = tf.Variable([[1., 2.], [3., 4.], [5., 6.]]), tf.Variable([[1., 1.]])
    with tf.GradientTape() as tape:
        loss = tf.reduce_sum(tf.gather(table, [0, 2, 0]) * 3.) + tf.reduce_sum(w * 10.)
    return tape.gradient(loss, [table, w])


def test_norm_clipping_of_sparse_gradients_works_on_their_values_as_tensorflow():
    sparse, dense = _embedding_gradients()
    assert isinstance(sparse, tf.IndexedSlices)
    # TF's norms take the slices' values as they are: row 0 counts twice, unsummed
    norm = np.sqrt(6 * 9.0 + 2 * 100.0)
    np.testing.assert_allclose(tf.linalg.global_norm([sparse, dense]).numpy(), norm, rtol=1e-6)
    clipped = tf.clip_by_norm(sparse, 1.0)
    assert isinstance(clipped, tf.IndexedSlices)
    np.testing.assert_array_equal(clipped.indices.numpy(), [0, 2, 0])
    np.testing.assert_allclose(clipped.values.numpy(), np.full((3, 2), 3 / np.sqrt(54)),
                               rtol=1e-6)
    (clipped_sparse, clipped_dense), got_norm = tf.clip_by_global_norm([sparse, dense], 1.0)
    assert isinstance(clipped_sparse, tf.IndexedSlices)
    np.testing.assert_allclose(got_norm.numpy(), norm, rtol=1e-6)
    np.testing.assert_allclose(clipped_sparse.values.numpy(), np.full((3, 2), 3 / norm),
                               rtol=1e-6)
    np.testing.assert_allclose(clipped_dense.numpy(), [[10 / norm, 10 / norm]], rtol=1e-6)


@pytest.mark.parametrize("clip_norm", [-1.0, tf.constant(-1.0), tf.constant(-1)])
def test_clip_by_norm_takes_a_negative_clip_norm_as_zero(clip_norm):
    np.testing.assert_array_equal(tf.clip_by_norm([3., 4.], clip_norm).numpy(), [0., 0.])


def test_clip_by_norm_casts_a_clip_norm_tensor_to_the_values_dtype():
    got = tf.clip_by_norm(tf.constant([3., 4.], tf.float64), tf.constant(1.0))
    assert got.dtype == tf.float64
    np.testing.assert_allclose(got.numpy(), [0.6, 0.8])


def test_cumulative_logsumexp_of_bfloat16_and_its_gradient():
    x = tf.constant([1.0, 2.0, 3.0], tf.bfloat16)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.math.cumulative_logsumexp(x)
    assert y.dtype == tf.bfloat16
    np.testing.assert_allclose(y.numpy().astype(np.float32), [1, 2.3125, 3.40625])
    grad = tape.gradient(y, x)
    assert grad.dtype == tf.bfloat16
    with tf.GradientTape() as tape:
        x32 = tf.cast(x, tf.float32)
        tape.watch(x32)
        want = tf.math.cumulative_logsumexp(x32)
    np.testing.assert_allclose(grad.numpy().astype(np.float32),
                               tape.gradient(want, x32).numpy(), rtol=2e-2)


def test_cumprod_gradient_is_finite_at_zeros_as_in_tf():
    # TF divides by x with divide_no_nan: 0 at the zeros, finite elsewhere.
    x = tf.constant([2.0, 0.0, 3.0, 4.0])
    weights = tf.constant([1.0, 2.0, 3.0, 4.0])
    want = {(): [1.0, 0.0, 0.0, 0.0], (True, False): [2.0, 0.0, 0.0, 0.0],
            (False, True): [0.0, 0.0, 12.0, 13.0], (True, True): [0.0, 0.0, 8.0, 9.0]}
    for flags, expected in want.items():
        exclusive, reverse = flags or (False, False)
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = tf.reduce_sum(tf.math.cumprod(x, exclusive=exclusive, reverse=reverse) * weights)
        assert tape.gradient(y, x).numpy().tolist() == expected, flags
    v = tf.Variable([1.0, np.inf, 2.0, 0.0])
    with tf.GradientTape() as tape:
        y = tf.reduce_sum(tf.math.cumprod(v))
    assert tape.gradient(y, v).numpy()[3] == 0.0


_NAN = np.nan


@pytest.mark.parametrize("x, ascending, descending", [
    # TF's whole-row order is its introsort's: NaN compares equal to everything and stays
    # where the insertion steps leave it (not first, not last)
    ([3., _NAN, 1., 2.], [1., 3., _NAN, 2.], [3., _NAN, 2., 1.]),
    ([_NAN, 3., 1., 2.], [_NAN, 1., 2., 3.], [_NAN, 3., 2., 1.]),
    ([_NAN, np.inf, -np.inf, 0., -0., 1.], [_NAN, -np.inf, 0., -0., 1., np.inf],
     [_NAN, np.inf, 1., 0., -0., -np.inf]),
])
@pytest.mark.parametrize("dtype", [tf.float32, tf.float16, tf.float64])
def test_sort_with_nan_follows_tf_order(x, ascending, descending, dtype):
    t = tf.constant(x, dtype)
    np.testing.assert_array_equal(tf.sort(t).numpy(), np.array(ascending, dtype.as_numpy_dtype))
    np.testing.assert_array_equal(tf.sort(t, direction="DESCENDING").numpy(),
                                  np.array(descending, dtype.as_numpy_dtype))
    np.testing.assert_array_equal(tf.function(tf.sort)(t).numpy(),
                                  np.array(ascending, dtype.as_numpy_dtype))


def test_argsort_and_full_top_k_with_nan_follow_tf_order():
    x = tf.constant([1., _NAN, 3., _NAN, 2.])
    assert tf.argsort(x).numpy().tolist() == [0, 1, 2, 3, 4]
    top = tf.math.top_k(x, 5)
    assert top.indices.numpy().tolist() == [2, 0, 1, 3, 4]
    assert tf.nn.top_k(tf.Variable(x), 5).indices.numpy().tolist() == [2, 0, 1, 3, 4]
    batch = tf.constant([[3., _NAN, 1., 2.], [_NAN, 3., 1., 2.]])
    assert tf.argsort(batch, axis=0).numpy().tolist() == [[0, 0, 0, 0], [1, 1, 1, 1]]
    assert tf.argsort(batch).numpy().tolist() == [[2, 0, 1, 3], [0, 2, 3, 1]]
    v = tf.Variable([3., _NAN, 1., 2.])
    with tf.GradientTape() as tape:
        y = tf.reduce_sum(tf.sort(v) * [1., 2., 3., 4.])
    assert tape.gradient(y, v).numpy().tolist() == [2., 3., 1., 4.]


def test_sort_with_nan_long_rows_match_tf():
    # beyond 16 elements the order comes from the quicksort partitions (values from TF 2.21)
    x = tf.constant([2., _NAN, 0., 1., _NAN, 3., 1., 0., 2., _NAN, 4., 1., 0., 3., 2., _NAN,
                     1., 0., 4., 2.])
    assert tf.argsort(x).numpy().tolist() == [2, 7, 12, 17, 3, 6, 11, 16, 0, 8, 14, 19, 5, 13, 10,
                                           18, 15, 9, 4, 1]


def test_sum_over_no_axes_is_the_input_and_later_ops_leave_it_intact():
    @tf.function(input_signature=[tf.TensorSpec([None, 3]), tf.TensorSpec([None, 3])])
    def f(a, b):
        h = a * 2.0
        s = tf.reduce_sum(h, axis=tf.zeros([0], tf.int32), keepdims=True)  # no axes
        t = s + 1.0  # (must not overwrite h's array, which `s` may be)
        with tf.GradientTape() as tape:
            tape.watch(b)
            y = tf.reduce_sum((h + b) * t)
        return h, s, t, tape.gradient(y, b)

    a = np.arange(6, dtype=np.float32).reshape(2, 3)
    h, s, t, g = f(a, np.ones((1, 3), np.float32))
    np.testing.assert_array_equal(h.numpy(), a * 2)
    np.testing.assert_array_equal(s.numpy(), a * 2)
    np.testing.assert_array_equal(t.numpy(), a * 2 + 1)
    np.testing.assert_array_equal(g.numpy(), (a * 2 + 1).sum(0, keepdims=True))


@pytest.mark.parametrize("dtype", [tf.float16, tf.bfloat16, tf.float32, tf.float64])
def test_arg_extremes_with_nan_in_some_rows_only(dtype, recwarn):
    n = np.nan
    x = tf.constant([[n, 1., 3.], [2., -1., 0.], [n, n, n], [1., n, -np.inf]], dtype)
    np.testing.assert_array_equal(tf.argmax(x, 1).numpy(), [2, 0, 0, 0])
    np.testing.assert_array_equal(tf.argmin(x, -1, output_type=tf.int32).numpy(), [1, 1, 0, 2])
    np.testing.assert_array_equal(tf.argmax(x, 0).numpy(), [1, 0, 0])
    np.testing.assert_array_equal(tf.argmax(tf.zeros([0, 3], dtype), 1).numpy(), [])
    assert not [w for w in recwarn if issubclass(w.category, RuntimeWarning)]


@pytest.fixture
def fixed_budget():
    """The thread budget held whatever the machine's load (oneDNN pools means on two)."""
    saved = threads._fixed
    threads.set_fixed(True)
    yield threads.budget()
    threads.set_fixed(saved)


@pytest.mark.parametrize("shape, axis", [((32, 24, 24, 32), (1, 2)), ((4, 64, 64, 64), (-3, -2)),
                                         ((1000, 300, 16), (1,)), ((2, 3, 400, 224), (1, 2))])
@pytest.mark.parametrize("keepdims", [False, True])
def test_large_float32_means_over_middle_axes_pool_on_onednn(path, fixed_budget, shape, axis,
                                                             keepdims):
    """A global average pooling's mean: oneDNN's average pooling on two threads or more,
    NumPy's values within float32 rounding, non-finite values included."""
    x = np.random.default_rng(2).normal(size=shape).astype(np.float32)
    x.reshape(-1)[[0, 7, 9000]] = [np.nan, np.inf, -np.inf]
    onednn.clear_cache()
    got = tf.reduce_mean(x, axis, keepdims=keepdims).numpy()
    assert any(key[0] == "pooling" for key in onednn._cache) == (path and fixed_budget > 1)
    want = x.astype(np.float64).mean(axis, keepdims=keepdims)
    assert got.dtype == np.float32 and got.shape == want.shape
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6)


def test_other_means_stay_with_the_product_with_ones(path, fixed_budget):
    onednn.clear_cache()
    for shape, axis in [((2000, 300), (0,)), ((300, 2000), (1,)), ((64, 32, 16), (1,)),
                        ((16, 8, 64, 64), (0, 2)), ((16, 32, 32, 24), (1, 2)),
                        ((8, 100, 400), (1,))]:
        x = np.random.default_rng(3).normal(size=shape).astype(np.float32)
        np.testing.assert_allclose(tf.reduce_mean(x, axis).numpy(), x.mean(axis, np.float64),
                                   rtol=1e-5, atol=1e-6)
    assert not any(key[0] == "pooling" for key in onednn._cache)


def test_sum_and_mean_over_axes_of_length_one_keep_negative_zero():
    # As TF's kernels, which copy the input when each output covers one element; a sum of
    # several -0.0 starts from +0.0 there too.
    x = tf.constant([[-0.0], [-0.0]])
    for fn in (tf.reduce_sum, tf.reduce_mean):
        out = fn(x, -1).numpy()
        assert out.shape == (2,) and np.signbit(out).all()
        assert np.signbit(fn(x, [1], keepdims=True).numpy()).all()
    assert not np.signbit(tf.reduce_sum(tf.constant([-0.0, -0.0])).numpy())
    assert tf.reduce_sum(tf.constant([[1, 2]]), 0).numpy().tolist() == [1, 2]
    with pytest.raises(tf.errors.InvalidArgumentError):
        tf.reduce_sum(x, 2)


def test_euclidean_norm_gradient_is_nan_at_zero_as_in_tf():
    x = tf.constant([[0.0, 0.0], [3.0, 4.0]])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.math.reduce_euclidean_norm(x, axis=1)
    g = tape.gradient(y, x).numpy()
    assert np.isnan(g[0]).all()
    np.testing.assert_allclose(g[1], [0.6, 0.8])
    with tf.GradientTape() as tape:  # a zero upstream gradient gives 0 (x / inf)
        tape.watch(x)
        y = tf.math.reduce_euclidean_norm(x, axis=1, keepdims=True) * [[1.0], [0.0]]
    np.testing.assert_array_equal(tape.gradient(y, x)[1], [0.0, 0.0])


def test_unsorted_top_k_returns_tf_kernels_heap_order():
    # TF keeps the best k in a bounded heap and, unsorted, returns them in its order
    out = tf.math.top_k([[1.0, 3.0, 3.0, 2.0], [4.0, 4.0, 0.0, 1.0]], k=2, sorted=False)
    assert out.indices.numpy().tolist() == [[2, 1], [1, 0]]
    assert out.values.numpy().tolist() == [[3.0, 3.0], [4.0, 4.0]]
    out = tf.math.top_k(tf.constant([5, 1, 4, 2, 3, 9, 0]), 4, sorted=False)
    assert out.indices.numpy().tolist() == [4, 0, 2, 5]
    # all of a row, or its maximum, come sorted as with sorted=True
    assert tf.math.top_k([1, 3, 2], 3, sorted=False).indices.numpy().tolist() == [1, 2, 0]
    assert tf.math.top_k([1, 3, 2], 1, sorted=False).indices.numpy().tolist() == [1]


def test_unique_v2_finds_unique_slices_along_an_axis_as_tf():
    x = tf.constant([[1, 0, 1], [1, 0, 1], [2, 0, 0]])
    y, idx = tf.raw_ops.UniqueV2(x=x, axis=[0])
    assert y.numpy().tolist() == [[1, 0, 1], [2, 0, 0]] and idx.numpy().tolist() == [0, 0, 1]
    y, idx = tf.raw_ops.UniqueV2(x=x, axis=[-1])
    assert y.numpy().tolist() == x.numpy().tolist() and idx.numpy().tolist() == [0, 1, 2]
    y, idx = tf.raw_ops.UniqueV2(x=tf.zeros([0, 2]), axis=[0])
    assert y.shape == [0, 2] and idx.shape == [0]
    for axis, message in (([2], r"axis has to be between \[0, 2\)"),
                          ([0, 1], "axis does not support input tensors larger than 1 elements")):
        with pytest.raises(tf.errors.InvalidArgumentError, match=message):
            tf.raw_ops.UniqueV2(x=x, axis=axis)
    with pytest.raises(tf.errors.InvalidArgumentError, match="unique expects a 1D vector"):
        tf.raw_ops.UniqueV2(x=tf.constant(1), axis=[])
    traced = tf.function(lambda x: tf.raw_ops.UniqueV2(x=x, axis=[1])).get_concrete_function(
        tf.TensorSpec([None, 3], tf.int32))
    assert [s.as_list() for s in traced.output_shapes] == [[None, None], [3]]


def test_approx_max_and_min_k_are_exact_top_k_as_on_tfs_cpu():
    v = tf.constant([[0.1, 0.9, 0.3, 0.7], [5., 4., 3., 2.]])
    found = tf.math.approx_max_k(v, 2)
    assert type(found).__name__ == "ApproxTopK"
    assert found.indices.numpy().tolist() == [[1, 3], [0, 1]]
    assert tf.math.approx_min_k(v, 2).indices.numpy().tolist() == [[0, 2], [3, 2]]
    ties = tf.constant([1., 2., 2., 1.])
    assert tf.math.approx_max_k(ties, 3).indices.numpy().tolist() == [1, 2, 0]
    assert tf.math.approx_min_k(ties, 3).indices.numpy().tolist() == [0, 3, 1]
    with tf.GradientTape() as tape:
        tape.watch(v)
        low = tf.math.approx_min_k(v, 1, reduction_dimension=0)
        loss = tf.reduce_sum(low.values * [[1., 2., 3., 4.]])
    assert low.indices.numpy().tolist() == [[0, 0, 0, 0]]
    assert tape.gradient(loss, v).numpy().tolist() == [[1, 2, 3, 4], [0, 0, 0, 0]]
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match="input must have at least k columns. Had 4, needed 5"):
        tf.math.approx_max_k(v, 5)
    with pytest.raises(tf.errors.InvalidArgumentError, match="Value for attr 'T' of int32"):
        tf.math.approx_max_k(tf.constant([1, 3, 2]), 2)


def test_approx_max_k_and_min_k_are_exact_top_k():
    x = tf.constant([[1.0, 3.0, 3.0, 5.0, 5.0, 2.0], [0.0, -1.0, 7.0, 7.0, 2.0, 2.0]])
    found = tf.math.approx_max_k(x, 3)
    assert type(found).__name__ == "ApproxTopK"
    assert found.values.numpy().tolist() == [[5, 5, 3], [7, 7, 2]]
    assert found.indices.numpy().tolist() == [[3, 4, 1], [2, 3, 4]]
    assert tf.nn.approx_min_k(x, 2).indices.numpy().tolist() == [[0, 5], [1, 0]]
    assert tf.math.approx_max_k(x, 1, reduction_dimension=0).indices.numpy().tolist() == [
        [0, 0, 1, 1, 0, 0]]
    assert tf.math.approx_max_k(tf.constant([[1.0, 3, 2]], tf.float16), 2).values.dtype == \
        tf.float16
    variable = tf.Variable(x)
    with tf.GradientTape() as tape:
        y = tf.reduce_sum(tf.math.approx_max_k(variable, 2).values * tf.constant([[1.0, 2.0]]))
    assert tape.gradient(y, variable).numpy().tolist() == [[0, 0, 0, 1, 2, 0], [0, 0, 1, 2, 0, 0]]
    with pytest.raises(InvalidArgumentError, match="attr 'T' of int32"):
        tf.math.approx_max_k(tf.constant([[1, 3, 2]]), 2)
    with pytest.raises(InvalidArgumentError, match="input must have at least k columns"):
        tf.math.approx_max_k(x, 7)


def test_reduce_logsumexp_of_integers_fails_where_tfs_does():
    with pytest.raises(InvalidArgumentError,
                       match=r"(?s)attr .T. of int32 .*\{\{node IsFinite\}\}"):
        tf.math.reduce_logsumexp(tf.constant([1, 2]))


@pytest.mark.parametrize("scan, op", [(tf.cumsum, "Cumsum"), (tf.math.cumprod, "Cumprod"),
                                      (tf.math.cumulative_logsumexp, "CumulativeLogsumexp")])
def test_a_scan_axis_of_several_values_is_refused_by_the_kernel(scan, op):
    # TF's kernel refuses it (a list, or a tensor), eagerly and when a function runs
    for axis in ([0], tf.constant([0]), np.array([0, 0])):
        with pytest.raises(InvalidArgumentError, match=rf"ScanOp: axis must be a scalar, not "
                                                       rf"\[{np.size(axis)}\] \[Op:{op}\]"):
            scan([1.0, 2.0], axis=axis)
    with pytest.raises(InvalidArgumentError, match=r"ScanOp: axis must be a scalar, not \[1\]"):
        tf.function(lambda x: scan(x, axis=[0]))(tf.constant([1.0, 2.0]))


@pytest.mark.parametrize("scan", [tf.math.cumsum, tf.math.cumprod])
def test_scans_overflow_without_numpy_warnings_as_tf(scan):
    # TF's kernels overflow to inf (and inf * 0 to NaN) silently
    with warnings.catch_warnings(record=True) as caught:
        result = scan([3e38, 3e38, 0.0, float("inf")])
    assert np.isinf(result.numpy()[1])
    assert not [w for w in caught if issubclass(w.category, RuntimeWarning)]


def test_nth_element_raw_op_values_gradient_and_errors_as_tf():
    x = tf.constant([[3.0, 1.0, 2.0, 5.0], [4.0, 4.0, 0.0, -1.0]])
    assert tf.raw_ops.NthElement(input=x, n=1).numpy().tolist() == [2.0, 0.0]
    assert tf.raw_ops.NthElement(input=x, n=0, reverse=True).numpy().tolist() == [5.0, 4.0]
    assert tf.raw_ops.NthElement(input=tf.zeros([0, 3]), n=0).shape == (0,)
    assert np.isnan(tf.raw_ops.NthElement(input=[1.0, np.nan, 3.0, 2.0], n=3).numpy())
    v = tf.Variable(x)
    with tf.GradientTape() as tape:  # (ties share the gradient, as TF's)
        y = tf.raw_ops.NthElement(input=v, n=1, reverse=True)
    assert tape.gradient(y, v).numpy().tolist() == [[1.0, 0, 0, 0], [0.5, 0.5, 0, 0]]
    for n, message in ((4, "Input must have last dimension > n = 4"),
                       (-1, "n must be non-negative but is -1")):
        with pytest.raises(tf.errors.InvalidArgumentError, match=re.escape(
                f"{message} [Op:NthElement]")):
            tf.raw_ops.NthElement(input=x, n=n)
    with pytest.raises(ValueError, match=re.escape(
            "Input must have last dimension > n = 5 but is 4 for '{{node NthElement}}")):
        tf.function(lambda: tf.raw_ops.NthElement(input=x, n=5))()
    traced = tf.function(lambda a, n: tf.raw_ops.NthElement(input=a, n=n), input_signature=[
        tf.TensorSpec([None, 4, None]), tf.TensorSpec([], tf.int32)])
    assert traced.get_concrete_function().structured_outputs.shape.as_list() == [None, 4]


def test_made_reductions_carry_tfs_names():
    for fn, name in ((tf.reduce_sum, "reduce_sum"), (tf.math.reduce_euclidean_norm,
                                                    "reduce_euclidean_norm"),
                     (tf.math.segment_max, "segment_max"), (tf.math.cumulative_logsumexp,
                                                            "cumulative_logsumexp"),
                     (tf.math.unsorted_segment_prod, "unsorted_segment_prod")):
        assert fn.__name__ == name


def test_unsorted_segment_mean_of_listed_ids_fails_as_tf():
    # TF's mean converts the ids itself: its error is the sum's, with the op's name
    with pytest.raises(InvalidArgumentError, match=re.escape(
            "segment_ids[1] = 5 is out of range [0, 3) [Op:UnsortedSegmentSum] name:")):
        tf.math.unsorted_segment_mean(tf.ones([3, 2]), [0, 5, 2], 3)


def test_global_norm_stacks_half_squares_as_tf():
    # TF stacks each tensor's L2Loss: mixed dtypes fail to stack, integers fail L2Loss
    with pytest.raises(InvalidArgumentError, match=re.escape(
            "cannot compute Pack as input #1(zero-based) was expected to be a double tensor "
            "but is a float tensor [Op:Pack]")):
        tf.clip_by_global_norm([tf.constant([3.0, 4.0], tf.float64), tf.constant([1.0])], 1.0)
    with pytest.raises(InvalidArgumentError, match=re.escape(
            "Value for attr 'T' of int32 is not in the list of allowed values: half, bfloat16, "
            "float, double")):
        tf.linalg.global_norm([tf.constant([3, 4])])
    grads = [tf.constant([3.0, 4.0]), None,
             tf.IndexedSlices(tf.constant([[1.0, 2.0]]), tf.constant([1]), tf.constant([3, 2]))]
    np.testing.assert_allclose(tf.linalg.global_norm(grads).numpy(), np.sqrt(30.0), rtol=1e-6)
    assert tf.linalg.global_norm([None]).numpy() == 0.0


def test_sort_along_a_missing_axis_fails_as_tfs_slice():
    with pytest.raises(InvalidArgumentError, match=re.escape(
            "{{function_node __wrapped__StridedSlice_device_/job:localhost/replica:0/task:0/"
            "device:CPU:0}} slice index 1 of dimension 0 out of bounds. [Op:StridedSlice] "
            "name: strided_slice/")):
        tf.argsort(tf.constant([3.0, 1.0]), axis=1)


def test_unique_with_counts_v2_raw_op_as_tf():
    out = tf.raw_ops.UniqueWithCountsV2(x=tf.constant([[3, 1], [3, 1]]), axis=[-1])
    assert out.y.numpy().tolist() == [[3, 1], [3, 1]]
    assert out.idx.numpy().tolist() == [0, 1] and out.count.numpy().tolist() == [1, 1]
    out = tf.raw_ops.UniqueWithCountsV2(x=tf.constant([3, 1, 3]), axis=[], out_idx=tf.int64)
    assert out.count.dtype == tf.int64 and out.count.numpy().tolist() == [2, 1]
    with pytest.raises(InvalidArgumentError, match=re.escape(
            "axis has to be between [0, 2) [Op:UniqueWithCountsV2]")):
        tf.raw_ops.UniqueWithCountsV2(x=tf.constant([[3, 1], [3, 1]]), axis=[2])


def test_unique_v2_along_an_axis_known_at_run_time():
    x = tf.constant([[1, 2], [1, 2], [3, 4]])
    f = tf.function(lambda n: tf.raw_ops.UniqueWithCountsV2(x=x, axis=tf.reshape(n, [1]),
                                                            out_idx=tf.int64),
                    input_signature=[tf.TensorSpec([], tf.int32)])
    y, idx, count = f(tf.constant(0))
    assert y.numpy().tolist() == [[1, 2], [3, 4]] and idx.numpy().tolist() == [0, 0, 1]
    assert count.dtype == tf.int64 and count.numpy().tolist() == [2, 1]
    assert f(tf.constant(1))[1].numpy().tolist() == [0, 1]


def test_a_full_sum_or_mean_of_one_element_keeps_its_sign_of_zero():
    # TF's kernels give the one element itself (a Keras loss of -0.0 averages to -0.0)
    for value in ([-0.0], [[-0.0]], -0.0):
        assert np.signbit(tf.reduce_sum(value).numpy())
        assert np.signbit(tf.reduce_mean(value).numpy())
    assert np.signbit(tf.reduce_sum([-0.0], keepdims=True).numpy()).all()
    assert not np.signbit(tf.reduce_sum([-0.0, -0.0]).numpy())  # (as TF: a sum from +0.0)
    assert np.signbit(tf.keras.losses.CosineSimilarity()(tf.zeros([2]), tf.zeros([2])).numpy())


@pytest.mark.parametrize("dtype", [tf.float16, tf.bfloat16])
def test_unique_of_16_bit_floats_keeps_signed_zeros_apart(dtype):
    # TF 2.21 hashes 16-bit floats by their bits: -0.0 and 0.0 are two values there (one
    # in float32 and float64); NaNs stay all distinct
    x = tf.constant([0.0, -0.0, 1.0, -0.0, 0.0, np.nan, np.nan], dtype)
    y, idx, count = tf.unique_with_counts(x)
    assert np.signbit(y.numpy().astype(np.float32)).tolist() == [False, True, False, False, False]
    assert idx.numpy().tolist() == [0, 1, 2, 1, 0, 3, 4]
    assert count.numpy().tolist() == [2, 2, 1, 1, 1]
    assert tf.raw_ops.UniqueV2(x=tf.reshape(x, [7, 1]), axis=[0]).idx.numpy().tolist() == [
        0, 1, 2, 1, 0, 3, 4]
    assert tf.unique(tf.constant([0.0, -0.0])).y.numpy().tolist() == [0.0]  # float32: one


def test_float16_segment_sums_round_every_step_as_tf():
    # TF 2.21 adds a segment's float16 rows one at a time, each partial sum rounded:
    # 2048 + 1 stays 2048 four times over (the exact 2052 is a float16 too)
    x = tf.constant([2048, 1, 1, 1, 1, 3, 1], tf.float16)
    ids = [0, 0, 0, 0, 0, 1, 1]
    assert tf.math.segment_sum(x, ids).numpy().tolist() == [2048.0, 4.0]
    assert tf.math.segment_mean(x, ids).numpy().tolist() == [409.5, 2.0]
    assert tf.math.unsorted_segment_sum(x, [1, 1, 1, 1, 1, 0, 0], 2).numpy().tolist() == [
        4.0, 2048.0]
    many = tf.math.segment_sum(tf.tile(x, [40]), np.repeat(np.arange(40), 7)).numpy()
    assert many.tolist() == [2052.0] * 40  # (the per-row steps of many short segments)


def test_bincount_per_row_of_empty_rows():
    out = tf.math.bincount(tf.zeros((2, 0), tf.int32), axis=-1)
    assert out.shape == (2, 0) and out.dtype == tf.int32
    assert tf.math.bincount(tf.zeros((0, 3), tf.int32), axis=-1).shape == (0, 0)
    assert tf.math.bincount(tf.zeros((2, 0), tf.int32), axis=-1,
                            minlength=2).numpy().tolist() == [[0, 0], [0, 0]]


@pytest.mark.parametrize("dtype, want, want_rows", [
    (tf.float16, [-2.244140625, -0.0855712890625, 2.810546875, 5.15625],
     [-0.140625, 1.083984375, 2.30859375, 3.533203125, 4.7578125]),
    (tf.bfloat16, [-2.25, -0.0869140625, 2.796875, 5.15625],
     [-0.142578125, 1.0859375, 2.296875, 3.515625, 4.75]),
])
def test_half_cumulative_logsumexp_rounds_each_step_as_tensorflow(dtype, want, want_rows):
    # (TF 2.21's values: each step's result is rounded to the 16-bit dtype)
    x = tf.constant(np.linspace(-3, 3, 50), dtype)
    got = np.asarray(tf.math.cumulative_logsumexp(x)).astype(np.float64)
    assert got[[1, 9, 30, 49]].tolist() == want
    rows = tf.math.cumulative_logsumexp(tf.reshape(x, [5, 10]), axis=1, exclusive=True,
                                        reverse=True)
    assert np.asarray(rows).astype(np.float64)[:, 0].tolist() == want_rows


@pytest.mark.parametrize("inputs", [
    [],
    [tf.constant([1., 2.]), tf.constant([3, 4])],
    [tf.IndexedSlices(tf.constant([[1., 2.]]), tf.constant([0]), tf.constant([3, 2])),
     tf.ones([3, 2])],
], ids=["empty", "mixed_dtypes", "indexed_slices"])
def test_accumulate_n_takes_dense_tensors_of_one_dtype(inputs):
    with pytest.raises(ValueError, match="^inputs must be a list of at least one Tensor with "
                                         "the same dtype and shape$"):
        tf.math.accumulate_n(inputs)
