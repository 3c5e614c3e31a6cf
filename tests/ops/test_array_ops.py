"""Array ops: TF's errors and messages, dtype inference, edge cases and static shape rules."""
import re

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st
from hypothesis.extra import numpy as hnp

import eagerflow as tf
from eagerflow import errors, TensorShape
from tests.internals import array_ops as a, unknown_shape
from tests.op_errors import prefix

InvalidArgument = errors.InvalidArgumentError


def _grid(*shape, dtype=np.int32):
    return tf.constant(np.arange(np.prod(shape), dtype=dtype).reshape(shape))


class _Static:
    """An input known only statically, as the graph builder sees it."""

    def __init__(self, dims, dtype=tf.float32):
        self.shape, self.dtype = TensorShape(dims), dtype


def _rule(op_name):
    from tests.internals import registry
    return registry.get(op_name).shape


P = _grid(3, 4)

# (call, exception class, TF's message, or the start of it)
ERRORS = [
    (lambda: tf.reshape([1, 2, 3], [4]), InvalidArgument,
     "Input to reshape is a tensor with 3 values, but the requested shape has 4 [Op:Reshape]"),
    (lambda: tf.reshape([1, 2, 3], [-1, -1]), InvalidArgument,
     "Only one input size may be -1, not both 0 and 1"),
    (lambda: tf.reshape([1, 2, 3], [2, -1]), InvalidArgument,
     "Input to reshape is a tensor with 3 values, but the requested shape requires a multiple "
     "of 2"),
    (lambda: tf.reshape([1, 2], [-2, -1]), InvalidArgument, "Size 0 must be non-negative, not -2"),
    (lambda: tf.reshape(tf.zeros([4]), [0, -1]), InvalidArgument,
     "Input to reshape is a tensor with 4 values, but the requested shape has 0"),
    (lambda: tf.reshape([1], [1.0]), InvalidArgument,
     "Value for attr 'Tshape' of float is not in the list of allowed values: int32, int64"),
    (lambda: tf.transpose([[1, 2]], [0, 0]), InvalidArgument, "1 is missing from {0,0}."),
    (lambda: tf.transpose([[1, 2]], [0]), InvalidArgument,
     "transpose expects a vector of size 2. But input(1) is a vector of size 1"),
    (lambda: tf.expand_dims([1, 2], 3), InvalidArgument,
     "Tried to expand dim index 3 for tensor with 1 dimensions. [Op:ExpandDims]"),
    (lambda: tf.expand_dims([1, 2], [0, 1]), InvalidArgument,
     "'dim' must be a tensor with a single value"),
    (lambda: tf.squeeze([[1, 2]], 1), InvalidArgument,
     "Can not squeeze dim[1], expected a dimension of 1, got 2 [Op:Squeeze]"),
    (lambda: tf.squeeze([[1, 2]], 3), InvalidArgument,
     "Tried to squeeze dim index 3 for tensor with 2 dimensions."),
    (lambda: tf.concat([tf.zeros([2, 3]), tf.zeros([2, 4])], 0), InvalidArgument,
     "ConcatOp : Dimension 1 in both shapes must be equal: shape[0] = [2,3] vs. shape[1] = "
     "[2,4] [Op:ConcatV2]"),
    (lambda: tf.concat([tf.zeros([2, 3]), tf.zeros([2])], 0), InvalidArgument,
     "ConcatOp : Ranks of all input tensors should match: shape[0] = [2,3] vs. shape[1] = [2]"),
    (lambda: tf.concat([tf.zeros([2, 3]), tf.zeros([2, 3])], 2), InvalidArgument,
     "ConcatOp : Expected concatenating dimensions in the range [-2, 2), but got 2"),
    (lambda: tf.concat([tf.constant(1), tf.constant(2)], 0), InvalidArgument,
     "ConcatOp : Can't concatenate scalars (use tf.stack instead)"),
    (lambda: tf.concat([tf.zeros([2]), tf.constant([1])], 0), InvalidArgument,
     "cannot compute ConcatV2 as input #1(zero-based) was expected to be a float tensor but is "
     "a int32 tensor [Op:ConcatV2]"),
    (lambda: tf.concat([[1, 2], [3.0]], 0), TypeError,
     "Cannot convert [3.0] to EagerTensor of dtype int32"),
    (lambda: tf.stack([[1, 2], [3]]), InvalidArgument,
     "Shapes of all inputs must match: values[0].shape = [2] != values[1].shape = [1] [Op:Pack]"),
    (lambda: tf.stack([[1, 2], [3, 4]], axis=3), ValueError,
     "Argument `axis` = 3 not in range [-2, 2)"),
    (lambda: tf.stack([tf.constant(1), 2.0]), TypeError,
     "Cannot convert 2.0 to EagerTensor of dtype int32"),
    (lambda: tf.unstack([[1, 2], [3, 4]], num=3), InvalidArgument,
     "Input shape axis 0 must equal 3, got shape [2,2] [Op:Unpack]"),
    (lambda: tf.unstack([[1, 2], [3, 4]], axis=5), ValueError,
     "Argument `axis` = 5 not in range [-2, 2)"),
    (lambda: tf.unstack(tf.constant(1)), ValueError, "Argument `axis` = 0 not in range [0, 0)"),
    (lambda: tf.split(tf.range(6), 4), InvalidArgument,
     "Number of ways to split should evenly divide the split dimension, but got split_dim 0 "
     "(size = 6) and num_split 4 [Op:Split]"),
    (lambda: tf.split(tf.range(6), [1, 2, 2]), InvalidArgument,
     "Determined shape must either match input shape along split_dim exactly if fully "
     "specified, or be less than the size of the input along split_dim if not fully "
     "specified.  Got: 5 [Op:SplitV]"),
    (lambda: tf.split(tf.range(6), [-1, -1, 2]), InvalidArgument,
     "There can only be one -1 in the input."),
    (lambda: tf.split(tf.range(6), 0), InvalidArgument,
     "Value for attr 'num_split' of 0 must be at least minimum 1"),
    (lambda: tf.split(tf.range(6), tf.constant(3)), ValueError,
     "Rank-0 tensors are not supported as the num_or_size_splits argument to split. Argument "
     "provided: tf.Tensor(3, shape=(), dtype=int32)"),
    (lambda: tf.split(P, 2, axis=5), InvalidArgument,
     "-input rank(-2) <= split_dim < input rank (2), but got 5"),
    (lambda: tf.tile([[1, 2]], [2]), InvalidArgument,
     "Expected multiples argument to be a vector of length 2 but got length 1 [Op:Tile]"),
    (lambda: tf.tile([[1, 2]], [2, -1]), InvalidArgument,
     "Expected multiples[1] >= 0, but got -1"),
    (lambda: tf.pad([[1, 2]], [[1, 1], [0, 0]], "REFLECT"), InvalidArgument,
     "paddings must be less than the dimension size: 1, 1 not less than 1 [Op:MirrorPad]"),
    (lambda: tf.pad([[1, 2, 3]], [[0, 0], [4, 3]], "symmetric"), InvalidArgument,
     "paddings must be no greater than the dimension size: 4, 3 greater than 3"),
    (lambda: tf.pad([[1, 2]], [[1, 1], [0, 0]], "foo"), ValueError,
     'Value of argument `mode` expected to be one of "CONSTANT", "REFLECT", or "SYMMETRIC". '
     'Received `mode` = FOO'),
    (lambda: tf.pad([[1, 2]], [[1, 1]]), InvalidArgument,
     "The first dimension of paddings must be the rank of inputs[1,2] [1,2]"),
    (lambda: tf.pad([[1, 2]], [[-1, 1], [0, 0]]), InvalidArgument,
     "Paddings must be non-negative: -1 1"),
    (lambda: tf.pad([[1, 2, 3]], [[0, 0], [1, 1]], constant_values=7.5), TypeError,
     "Cannot convert 7.5 to EagerTensor of dtype int32"),
    (lambda: tf.fill([2, -3], 7), InvalidArgument, "Dimension -3 must be >= 0 [Op:Fill]"),
    (lambda: tf.fill([2], [7, 8]), InvalidArgument, "value must represent a scalar, got shape [2]"),
    (lambda: tf.fill([[2]], 1), InvalidArgument, "dims must represent a vector, got shape [1,1]"),
    (lambda: tf.zeros([-2]), InvalidArgument, "Dimension -2 must be >= 0"),
    (lambda: tf.ones_like(["a"]), InvalidArgument,
     "Value for attr 'T' of string is not in the list of allowed values"),
    (lambda: tf.eye(-1), InvalidArgument, "Dimension -1 must be >= 0"),
    (lambda: tf.range(1, 5, 0), InvalidArgument, "Requires delta != 0: 0 [Op:Range]"),
    (lambda: tf.range(5, 1), InvalidArgument, "Requires start <= limit when delta > 0: 5/1"),
    (lambda: tf.range(5.5, 1.0), InvalidArgument, "Requires start <= limit when delta > 0: 5.5/1"),
    (lambda: tf.range(1, 5, -1), InvalidArgument, "Requires start >= limit when delta < 0: 1/5"),
    (lambda: tf.range(5, dtype=tf.uint8), InvalidArgument,
     "Value for attr 'T' of uint8 is not in the list of allowed values"),
    (lambda: tf.range(1.5, 5, dtype=tf.int32), TypeError,
     "Cannot convert 1.5 to EagerTensor of dtype int32"),
    (lambda: tf.linspace(tf.constant(0.0, tf.float64), tf.constant(1.0), 3), ValueError,
     "Tensor conversion requested dtype float64 for Tensor with dtype float32"),
    (lambda: tf.one_hot([0, 2], 3, on_value=5, off_value=1.0), TypeError,
     "dtype <dtype: 'int32'> of on_value does not match dtype <dtype: 'float32'> of off_value"),
    (lambda: tf.one_hot([1], 3, on_value=tf.constant(2.0, tf.float64), dtype=tf.float32),
     TypeError, "dtype <dtype: 'float64'> of on_value does not match dtype parameter "
     "<dtype: 'float32'>"),
    (lambda: tf.one_hot([0.0, 2.0], 3), InvalidArgument,
     "Value for attr 'TI' of float is not in the list of allowed values: uint8, int8, int32, "
     "int64"),
    (lambda: tf.one_hot([0, 2], 3, dtype=tf.bool), TypeError,
     "Cannot convert 1 to EagerTensor of dtype bool"),
    (lambda: tf.one_hot([0, 2], 3, axis=-2), InvalidArgument,
     "Expected axis to be -1 or between [0, 2).  But received: -2"),
    (lambda: tf.one_hot([0, 2], -1), InvalidArgument, "depth must be non-negative, got: -1"),
    (lambda: tf.meshgrid([1], indexing="foo"), ValueError,
     "Argument `indexing` parameter must be either 'xy' or 'ij', got 'foo'"),
    (lambda: tf.meshgrid([1], foo=1), TypeError,
     "'foo' is an invalid keyword argument for this function"),
    (lambda: tf.gather([1, 2, 3], [0, 7]), InvalidArgument,
     "indices[1] = 7 is not in [0, 3) [Op:GatherV2]"),
    (lambda: tf.gather([1, 2, 3], [[0, 1], [-1, 1]]), InvalidArgument,
     "indices[1,0] = -1 is not in [0, 3)"),
    (lambda: tf.gather(P, [[0, 4]], axis=1), InvalidArgument, "indices[0,1] = 4 is not in [0, 4)"),
    (lambda: tf.gather(P, [[0, 1], [2, 3], [1, 5]], axis=1, batch_dims=1), InvalidArgument,
     "indices[2,1] = 5 is not in [0, 4)"),
    (lambda: tf.gather(P, [0], axis=2), InvalidArgument,
     "Shape must be at least rank 3 but is rank 2"),
    (lambda: tf.gather(P, [0.0]), InvalidArgument,
     "Value for attr 'Tindices' of float is not in the list of allowed values: int16, int32, "
     "int64"),
    (lambda: tf.gather(3, [0]), InvalidArgument, "params must be at least 1 dimensional"),
    (lambda: tf.gather(P, [[0, 1], [1, 2], [0, 0]], axis=1, batch_dims=2), InvalidArgument,
     "batch_dims (2) must be less than rank(params) (2)."),
    (lambda: tf.gather(P, [[0, 1], [1, 2]], axis=1, batch_dims=1), InvalidArgument,
     "params.shape[0]: 3 should be equal to indices.shape[0]: 2"),
    (lambda: tf.gather(P, [0], axis=1, batch_dims=2), InvalidArgument,
     "Expected batch_dims in the range [-1, 1], but got 2"),
    # the axis (batch_dims when not given) is checked against params' rank first
    (lambda: tf.gather(P, [[1]], batch_dims=3), InvalidArgument,
     "Shape must be at least rank 4 but is rank 2"),
    (lambda: tf.gather(P, [[1]], batch_dims=-3), InvalidArgument,
     "Shape must be at least rank 3 but is rank 2"),
    (lambda: tf.gather_nd(P, [[0, 1], [3, 3]]), InvalidArgument,
     "indices[1] = [3, 3] does not index into param shape [3,4], node name: GatherNd"),
    (lambda: tf.gather_nd(P, [[[0, 1]], [[2, 4]]]), InvalidArgument,
     "indices[1,0] = [2, 4] does not index into param shape [3,4]"),
    (lambda: tf.gather_nd(P, [[0, 1, 1]]), InvalidArgument,
     "index innermost dimension length must be <= params rank; saw: 3 vs. 2"),
    (lambda: tf.scatter_nd([[0], [5]], [1, 2], [4]), InvalidArgument,
     "indices[1] = [5] does not index into shape [4] [Op:ScatterNd]"),
    (lambda: tf.scatter_nd([[0], [1]], [1, 2, 3], [4]), InvalidArgument,
     "Dimensions [0,1) of indices[shape=[2,1]] must match dimensions [0,1) of "
     "updates[shape=[3]]"),
    (lambda: tf.tensor_scatter_nd_update([1, 2, 3, 4], [[0], [5]], [8, 9]), InvalidArgument,
     "indices[1] = [5] does not index into shape [4] [Op:TensorScatterUpdate]"),
    (lambda: tf.tensor_scatter_nd_update([1, 2, 3, 4], [[0], [1]], [8, 9, 1]), InvalidArgument,
     "Outer dimensions of indices and update must match. Indices shape: [2,1], updates "
     "shape:[3]"),
    (lambda: tf.boolean_mask(P, [True, False]), ValueError,
     "Shapes (3,) and (2,) are incompatible"),
    (lambda: tf.boolean_mask(P, True), ValueError, "mask cannot be scalar."),
    (lambda: tf.where(True), InvalidArgument, "WhereOp : Unhandled input dimensions: 0"),
    (lambda: tf.where([True, False, True], [1, 2], 0), InvalidArgument,
     "condition [3], then [2], and else [] must be broadcastable [Op:SelectV2]"),
    (lambda: tf.where([True, False], [1, 2], [3.0, 4.0]), TypeError,
     "Cannot convert [3.0, 4.0] to EagerTensor of dtype int32"),
    (lambda: tf.where([True, False], [1, 2]), ValueError,
     "x and y must both be non-None or both be None."),
    (lambda: tf.where([1, 0], [1, 2], [3, 4]), TypeError,
     "Cannot convert [1, 0] to EagerTensor of dtype bool"),
    (lambda: tf.where(tf.constant([1, 0]), [1, 2], [3, 4]), ValueError,
     "Tensor conversion requested dtype bool for Tensor with dtype int32"),
    (lambda: tf.reverse(P, [1, -1]), InvalidArgument, "axis 1 specified more than once."),
    (lambda: tf.reverse(P, [2]), InvalidArgument, "'axis'[0] = 2 is out of valid range [0, 1"),
    (lambda: tf.reverse(P, 1), InvalidArgument, "'dims' must be 1-dimension, not 0"),
    (lambda: tf.roll(P, [1, 1], [0]), InvalidArgument, "shift and axis must have the same size"),
    (lambda: tf.roll(P, 1, 2), InvalidArgument, "axis 2 is out of range"),
    (lambda: tf.broadcast_to([1, 2, 3], [2, 2]), InvalidArgument,
     "Incompatible shapes: [3] vs. [2,2] [Op:BroadcastTo]"),
    (lambda: tf.broadcast_to([[1, 2]], [2]), InvalidArgument,
     "Rank of input (2) must be no greater than rank of output shape (1)."),
    (lambda: tf.shape(P, tf.float32), InvalidArgument,
     "Value for attr 'out_type' of float is not in the list of allowed values: int32, int64"),
    (lambda: tf.slice(P, [1, 0], [3, 2]), InvalidArgument,
     "Expected size[0] in [0, 2], but got 3 [Op:Slice]"),
    (lambda: tf.slice(P, [1, 0], [2]), InvalidArgument,
     "Expected begin and size arguments to be 1-D tensors of size 2, but got shapes [2] and "
     "[1] instead."),
    (lambda: tf.slice(P, [-1, 0], [1, 2]), InvalidArgument,
     "Expected begin[0] in [0, 3], but got -1"),
    (lambda: tf.slice(P, [0, 0], [-2, 2]), InvalidArgument,
     "Expected size[0] in [0, 3], but got -2"),
    (lambda: tf.einsum("ij,jk->ik", tf.constant([[1.0, 2.0]]), tf.constant([[3.0], [4.0], [5.0]])),
     InvalidArgument,
     "Expected dimension 2 at axis 0 of the input shaped [3,1] but got dimension 3 [Op:Einsum]"),
    (lambda: tf.einsum("ij,ij->ij", tf.constant([[1.0, 2.0]]), tf.ones([2, 2])), InvalidArgument,
     "Expected dimension 1 at axis 0 of the input shaped [2,2] but got dimension 2"),
    (lambda: tf.einsum("ij,jk", tf.constant([[1.0, 2.0]])), ValueError,
     'Got 1 inputs for equation "ij,jk", expecting 2'),
    (lambda: tf.einsum("ij->ik", tf.constant([[1.0, 2.0]])), ValueError,
     "Output subscripts contain the label k not present in the input subscripts."),
    (lambda: tf.einsum("i,i->", tf.constant([1.0, 2.0]), tf.constant([1, 2])), InvalidArgument,
     "cannot compute _MklEinsum as input #1(zero-based) was expected to be a float tensor but is a "
     "int32 tensor"),
    (lambda: tf.einsum("ij->i", tf.constant([1.0, 2.0])), InvalidArgument,
     "Expected input 0 to have rank 2 but got: 1"),
    (lambda: tf.repeat([[1, 2], [3, 4]], [1, 2, 3], axis=0), ValueError,
     "Dimensions 2 and 3 are not compatible"),
    (lambda: tf.repeat([1, 2], 2, axis=2), ValueError,
     "axis=2 out of bounds: expected -1<=axis<1"),
    (lambda: tf.tensordot(tf.ones([2, 3]), tf.ones([3, 5]), 3), ValueError,
     "`axes` must not be larger than the number of dimensions of tensor"),
    (lambda: tf.tensordot(tf.ones([2, 3]), tf.ones([3, 5]), [[1], [0, 1]]), ValueError,
     "Different number of contraction axes `a` and `b`, 1 != 2."),
    (lambda: tf.broadcast_static_shape(TensorShape([2, 3]), TensorShape([2, 4])), ValueError,
     "Incompatible shapes for broadcasting. Two shapes are compatible if for each dimension "
     "pair they are either equal or one of them is 1. Received: (2, 3) and (2, 4)."),
    (lambda: tf.broadcast_dynamic_shape([2, 3], [4]), InvalidArgument,
     "Incompatible shapes: [2,3] vs. [4] [Op:BroadcastArgs]"),
    (lambda: tf.searchsorted([1.0, 3.0], [2.0], side="x"), ValueError,
     "Argument `side` must be either 'right' or 'left'. Received: `side` = 'x'."),
    (lambda: tf.searchsorted([[1.0, 3.0]], [[2.0], [1.0]]), InvalidArgument,
     "Leading dim_size of both tensors must match. [Op:LowerBound]"),
    (lambda: tf.searchsorted([1.0, 3.0], [2.0], out_type=tf.float32), InvalidArgument,
     "Value for attr 'out_type' of float is not in the list of allowed values: int32, int64"),
    (lambda: tf.sequence_mask([1, 3], [4]), ValueError,
     "Argument `maxlen` must be scalar for sequence_mask, received `maxlen` = [4] with shape "
     "'(1,)' instead"),
]


@pytest.mark.parametrize("call, cls, message", ERRORS, ids=[m[:48] for _, _, m in ERRORS])
def test_errors_match_tensorflow(call, cls, message):
    with pytest.raises(cls) as info:
        call()
    assert type(info.value) is cls
    assert str(info.value).startswith(message) or message in str(info.value)


def test_op_errors_name_the_op():
    with pytest.raises(InvalidArgument) as info:
        tf.gather([1, 2, 3], [5])
    assert info.value.op is None  # (as in TF: the text names it)
    assert str(info.value) == (prefix("GatherV2") + "indices[0] = 5 is not in [0, 3) "
                               "[Op:GatherV2]")


# -- dtype inference -------------------------------------------------------------------------

@pytest.mark.parametrize("args, kwargs, dtype, values", [
    ((5,), {}, tf.int32, [0, 1, 2, 3, 4]),
    ((1, 5.0, 1.5), {}, tf.float32, [1.0, 2.5, 4.0]),
    ((1, 5, 0.5), {}, tf.float32, np.arange(1, 5, 0.5)),
    ((1, 5), {"dtype": tf.float64}, tf.float64, [1, 2, 3, 4]),
    ((np.int64(5),), {}, tf.int64, range(5)),
    ((np.int64(1), 5), {}, tf.int64, [1, 2, 3, 4]),
    ((tf.constant(3.0, tf.float64), tf.constant(7)), {}, tf.float64, [3, 4, 5, 6]),
    ((tf.constant(1.0, tf.float16), 3), {}, tf.float16, [1, 2]),
    ((tf.constant(3),), {"dtype": tf.int64}, tf.int64, [0, 1, 2]),
    ((tf.constant(1), 3.5), {}, tf.float32, [1, 2, 3]),
    ((5, 1, -1), {}, tf.int32, [5, 4, 3, 2]),
    ((0.0, 0.3, 0.1), {}, tf.float32, np.arange(0, 0.3, 0.1, np.float32)),
])
def test_range_dtype_inference(args, kwargs, dtype, values):
    r = tf.range(*args, **kwargs)
    assert r.dtype == dtype
    np.testing.assert_allclose(r.numpy(), np.asarray(values, dtype.as_numpy_dtype), rtol=1e-6)


def test_linspace_dtypes_and_edges():
    assert tf.linspace(0, 1, 5).dtype == tf.float64  # integer bounds: float64
    assert tf.linspace(tf.constant(0.0, tf.float64), 1.0, 3).dtype == tf.float64
    np.testing.assert_array_equal(tf.linspace(0.0, 1.0, 1).numpy(), [0.0])
    assert tf.linspace(0.0, 1.0, 0).shape == (0,)
    out = tf.linspace([[0.0], [1.0]], [1.0, 3.0], 2)
    np.testing.assert_array_equal(out.numpy(), [[[0, 0], [1, 1]], [[1, 3], [1, 3]]])
    half = tf.linspace(tf.constant(0.0, tf.float16), 1.0, 3)
    assert half.dtype == tf.float16
    np.testing.assert_array_equal(half.numpy(), np.array([0, 0.5, 1], np.float16))
    assert a.lin_space is tf.linspace


def test_linspace_infinite_bounds_start_and_stop_exactly():
    # TF: the ends are the bounds themselves; only the interior takes NaN steps
    inf = np.inf
    np.testing.assert_array_equal(tf.linspace(0.0, inf, 4).numpy(), [0, inf, inf, inf])
    np.testing.assert_array_equal(tf.linspace(-inf, 0.0, 3).numpy(), [-inf, np.nan, 0])
    np.testing.assert_array_equal(tf.linspace(inf, inf, 3).numpy(), [inf, np.nan, inf])
    out = tf.linspace([0.0, -inf], [1.0, 0.0], 3, axis=1)
    np.testing.assert_array_equal(out.numpy(), [[0, 0.5, 1], [-inf, np.nan, 0]])


def test_linspace_of_half_types_rounds_each_step_as_tf():
    # TF rounds the step and each start + k * step to the type: its values, not float32's
    # rounded once
    np.testing.assert_array_equal(
        tf.linspace(tf.constant(100.0, tf.float16), tf.constant(2000.0, tf.float16), 22),
        np.array([100.0, 190.5, 281.0, 371.5, 462.0, 552.5, 643.0, 733.5, 824.0, 914.5, 1005.0,
                  1096.0, 1186.0, 1276.0, 1367.0, 1458.0, 1548.0, 1638.0, 1729.0, 1820.0,
                  1910.0, 2000.0], np.float16))
    np.testing.assert_array_equal(
        tf.linspace(tf.constant(1.0, tf.float16), tf.constant(0.0, tf.float16), 10),
        np.array([1.0, 0.888671875, 0.77783203125, 0.6669921875, 0.5556640625, 0.4443359375,
                  0.33349609375, 0.22265625, 0.111328125, 0.0], np.float16))
    out = tf.linspace(tf.constant([[0.0, 5.0], [1.0, 2.0]], tf.bfloat16),
                      tf.constant([10.3, 40.7], tf.bfloat16), 5, axis=1)
    np.testing.assert_array_equal(tf.cast(out, tf.float32), np.reshape(
        [0.0, 5.0, 2.578125, 13.9375, 5.15625, 22.875, 7.75, 31.75, 10.3125, 40.75,
         1.0, 2.0, 3.328125, 11.6875, 5.65625, 21.375, 8.0, 31.0, 10.3125, 40.75], [2, 5, 2]))


@pytest.mark.parametrize("kwargs, dtype, on, off", [
    ({}, tf.float32, 1, 0),
    ({"on_value": 5, "off_value": -1}, tf.int32, 5, -1),
    ({"on_value": 5.0, "dtype": tf.float64}, tf.float64, 5, 0),
    ({"on_value": 5, "dtype": tf.float32}, tf.float32, 5, 0),
    ({"off_value": 2}, tf.int32, 1, 2),
    ({"on_value": tf.constant(2.0, tf.float64)}, tf.float64, 2, 0),
    ({"on_value": True, "off_value": False}, tf.bool, True, False),
])
def test_one_hot_values_and_dtype(kwargs, dtype, on, off):
    out = tf.one_hot([0, 2, -1, 5], 3, **kwargs)
    assert out.dtype == dtype
    want = np.where(np.array([0, 2, -1, 5])[:, None] == np.arange(3), on, off)
    np.testing.assert_array_equal(out.numpy(), want.astype(dtype.as_numpy_dtype))


def test_one_hot_axis_and_scalar_indices():
    assert tf.one_hot([[0, 1]], 3, axis=1).shape == (1, 3, 2)
    assert tf.one_hot(1, 3).shape == (3,)
    assert tf.one_hot([1], 0).shape == (1, 0)
    assert tf.one_hot([], 2).shape == (0, 2)  # (a Python list converts as int64 indices)
    with pytest.raises(tf.errors.InvalidArgumentError, match="'TI' of float"):
        tf.one_hot([1.5], 2)


def test_one_hot_depth_known_at_run_time():
    @tf.function(input_signature=[tf.TensorSpec([None], tf.int64), tf.TensorSpec([], tf.int32)])
    def f(indices, depth):
        return (tf.one_hot(indices, depth, axis=0),
                tf.one_hot(indices, depth, on_value=5, off_value=-1))
    cf = f.get_concrete_function()
    assert [t.shape.as_list() for t in cf.outputs] == [[None, None], [None, None]]
    assert [op.name for op in cf.graph.get_operations() if op.type == "OneHot"] == [
        "one_hot", "one_hot_1"]  # (TF's wrapper's scope names the node)
    by_axis, valued = f(tf.constant([0, 2, 4], tf.int64), tf.constant(3))
    assert by_axis.numpy().tolist() == [[1, 0, 0], [0, 0, 0], [0, 1, 0]]
    assert valued.dtype == tf.int32
    assert valued.numpy().tolist() == [[5, -1, -1], [-1, -1, 5], [-1, -1, -1]]
    with pytest.raises(tf.errors.InvalidArgumentError, match="depth must be non-negative"):
        f(tf.constant([0], tf.int64), tf.constant(-1))
    with pytest.raises(TypeError, match="Input 'depth' of 'OneHot' Op has type int64"):
        tf.function(lambda n: tf.one_hot([0], n)).get_concrete_function(
            tf.TensorSpec([], tf.int64))


def test_one_hot_axis_and_depth_take_tfs_types():
    spec = [tf.TensorSpec([None], tf.int32), tf.TensorSpec([], tf.int32)]
    # an axis is an attr: a tensor only run time knows is refused as TF's wrapper does
    axis_at_run_time = tf.function(lambda x, a: tf.one_hot(x, 3, axis=a), input_signature=spec)
    with pytest.raises(TypeError, match=r"Expected int for argument 'axis' not <tf.Tensor 'a:0'"):
        axis_at_run_time(tf.constant([0, 2]), tf.constant(0))
    with pytest.raises(TypeError, match="Expected int for argument 'axis' not '1'."):
        tf.one_hot([0, 1], 3, axis="1")
    assert tf.one_hot([0, 1], 3, axis=1.5).shape == (2, 3)  # (int() of it, as TF)
    assert tf.one_hot([0, 1], 3, axis=tf.constant(0)).shape == (3, 2)  # (eagerly: its value)
    # the depth converts to int32 as an input does
    with pytest.raises(TypeError, match="Cannot convert 2.0 to EagerTensor of dtype int32"):
        tf.one_hot([0, 1], 2.0)
    with pytest.raises(ValueError, match="requested dtype int32 for Tensor with dtype int64"):
        tf.one_hot([0, 1], tf.constant(2, tf.int64))
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"depth must be a scalar, but got: \[1\] \[Op:OneHot\]$"):
        tf.one_hot([0, 1], [2])
    with pytest.raises(TypeError, match="Expected int32 passed to parameter 'depth' of op "
                                        "'OneHot', got 2.5 of type 'float' instead."):
        tf.function(lambda x: tf.one_hot(x, 2.5))(tf.constant([0]))
    # TF's shape function refuses a negative axis or depth as the node is added
    with pytest.raises(ValueError, match=r"axis must be >= -1 for '\{\{node one_hot\}\} = "
                                         r"OneHot\[T=DT_FLOAT, TI=DT_INT32, axis=-2\]\(x, "
                                         r"one_hot/depth, one_hot/on_value, one_hot/off_value"):
        tf.function(lambda x: tf.one_hot(x, 3, axis=-2))(tf.constant([0]))
    with pytest.raises(ValueError, match=r"must be non-negative but is -1 for .* with input "
                                         r"shapes: \[1\], \[\], \[\], \[\] and with "
                                         r"computed input tensors: input\[1\] = <-1>."):
        tf.function(lambda x: tf.one_hot(x, -1))(tf.constant([0]))
    # eagerly the kernel's error, ending with the name the scope yields for tensor indices
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"\[Op:OneHot\] name: $"):
        tf.one_hot(tf.constant([0, 1]), 3, axis=5, name="x")


def test_one_hot_in_a_graph_names_its_values_in_its_scope():
    g = tf.Graph()
    with g.as_default():
        tf.one_hot([0, 1], 3)
        tf.one_hot(tf.constant([0, 2]), 3, on_value=2.0, name="oh")
    assert [(n.name, n.op) for n in g.as_graph_def().node] == [
        ("one_hot/on_value", "Const"), ("one_hot/off_value", "Const"),
        ("one_hot/indices", "Const"), ("one_hot/depth", "Const"), ("one_hot", "OneHot"),
        ("Const", "Const"), ("oh/Const", "Const"), ("oh/off_value", "Const"),
        ("oh/depth", "Const"), ("oh", "OneHot")]


def test_zeros_ones_like_dtypes():
    assert tf.zeros([2], tf.string).numpy().tolist() == [b"", b""]
    assert tf.zeros([2], tf.bool).numpy().tolist() == [False, False]
    assert tf.ones([2], "float16").dtype == tf.float16
    assert tf.zeros(3, tf.int32).shape == (3,)
    assert tf.zeros([]).shape == ()
    assert tf.zeros(TensorShape([2, 1])).shape == (2, 1)
    assert tf.zeros(tf.constant([2, 2])).shape == (2, 2)
    z = tf.zeros_like([1, 2], dtype=tf.float64)
    assert z.dtype == tf.float64 and z.numpy().tolist() == [0, 0]
    assert tf.zeros_like(["a"]).numpy().tolist() == [b""]
    assert tf.ones_like(tf.constant([1, 2]), dtype=tf.bool).numpy().tolist() == [True, True]
    with pytest.raises(NotImplementedError):
        tf.zeros([2], layout=object())


def test_eye():
    np.testing.assert_array_equal(tf.eye(2, 3, batch_shape=[2]).numpy(),
                                  np.broadcast_to(np.eye(2, 3, dtype=np.float32), (2, 2, 3)))
    assert tf.eye(2, dtype=tf.int32).dtype == tf.int32
    assert tf.eye(0).shape == (0, 0)


def test_eye_refuses_sizes_that_are_not_scalars():
    with pytest.raises(TypeError, match="must be positive integer values"):
        tf.eye((2, 3))  # (a shape given where a size is: it was read as a vector size)
    with pytest.raises(tf.errors.InvalidArgumentError):
        tf.eye(tf.constant([2]))  # (it made a 2x2 matrix)


def test_fill_value_forms():
    assert tf.fill([2, 3], [7]).numpy().tolist() == [[7] * 3] * 2  # a 1-element vector works
    assert tf.fill([2], "a").numpy().tolist() == [b"a", b"a"]
    assert tf.fill(tf.constant([2], tf.int64), 1.5).dtype == tf.float32


def test_pad_defaults_adapt_to_dtype():
    assert tf.pad(["a"], [[1, 1]]).numpy().tolist() == [b"", b"a", b""]
    assert tf.pad(["a"], [[1, 1]], constant_values="z").numpy().tolist() == [b"z", b"a", b"z"]
    assert tf.pad([True], [[1, 0]]).numpy().tolist() == [False, True]
    assert tf.pad(["a", "b"], [[1, 1]], "reflect").numpy().tolist() == [b"b", b"a", b"b", b"a"]
    assert tf.pad([[1, 2]], tf.constant([[0, 0], [1, 1]], tf.int64)).shape == (1, 4)


# -- structure -------------------------------------------------------------------------------

def test_reshape_of_empty_tensors_infers_like_tensorflow():
    assert tf.reshape(tf.zeros([2, 0, 5]), [0, -1]).shape == (0, 10)
    assert tf.reshape(tf.zeros([2, 0, 5]), [-1, 0]).shape == (10, 0)
    assert tf.reshape(tf.zeros([2, 0, 5]), [3, 0, -1]).shape == (3, 0, 3)
    assert tf.reshape(tf.zeros([0]), [-1]).shape == (0,)


@pytest.mark.parametrize("spec,shape,want", [
    ([None, 3], [-1, 7], [None, 7]), ([None, 3], [6, 2], [6, 2]), ([None, 6], [4, -1], [4, None]),
    ([None, 3], [0, 7], [0, 7]), ([None, 0], [-1, 7], [0, 7]), ([2, 3], [-1, -1], [None, None]),
    ([0, 3], [0, -1], [0, None]), ([2, 0], [-1, 3], [0, 3]), ([None, None], [3, 4], [3, 4]),
    ([None], [], []), ([], [-1], [1]), ([2, 3], [3, -1], [3, 2])])
def test_reshape_rule_infers_what_the_element_counts_fix(spec, shape, want):
    # TF's inference: only an unknown dim the counts determine is filled in
    graph = tf.function(lambda x: tf.reshape(x, shape), input_signature=[tf.TensorSpec(spec)])
    assert graph.get_concrete_function().structured_outputs.shape.as_list() == want


@pytest.mark.parametrize("spec,shape,message", [
    ([None, 3], [7, 7], r"Dimension size must be evenly divisible by 3 but is 49 for '\{\{node "
                        r"Reshape\}\} = Reshape\[T=DT_FLOAT, Tshape=DT_INT32\]\(x, Reshape/shape\)' "
                        r"with input shapes: \[\?,3\], \[2\] and with input "
                        r"tensors computed as partial shapes: input\[1\] = \[7,7\]\.$"),
    ([None, 2, 3], [5, 7], "evenly divisible by 6 but is 35"),
    ([2, 3], [-1, 4], r"evenly divisible by 4 but is 6 .* input\[1\] = \[\?,4\]\.$"),
    ([2, 3], [7, 7], r"Cannot reshape a tensor with 6 elements to shape \[7,7\] \(49 elements\)"),
    ([None, 0], [7, 7], r"Cannot reshape a tensor with 0 elements to shape \[7,7\]"),
    ([6], [-1, 0], r"Cannot reshape a tensor with 6 elements to shape \[\?,0\] \(0 elements\)"),
    ([2, 3], [], r"shape \[\] \(1 elements\) .* input shapes: \[2,3\], \[0\]\.$"),
    ([None, 3], [-2, 3], "Invalid value in tensor used for shape: -2")])
def test_reshape_rule_rejects_counts_that_cannot_match(spec, shape, message):
    graph = tf.function(lambda x: tf.reshape(x, shape), input_signature=[tf.TensorSpec(spec)])
    with pytest.raises(ValueError, match=message):
        graph.get_concrete_function()


def test_reshape_rule_with_a_partly_known_shape_tensor():
    def reshaped(x, n):
        return tf.reshape(x, tf.stack([n, 4]))
    specs = [tf.TensorSpec([2, 3]), tf.TensorSpec([], tf.int32)]
    with pytest.raises(ValueError, match=r"evenly divisible by 4 but is 6 .* = \[\?,4\]\.$"):
        tf.function(reshaped, input_signature=specs).get_concrete_function()
    specs[0] = tf.TensorSpec([2, 4])
    out = tf.function(reshaped, input_signature=specs).get_concrete_function().structured_outputs
    assert out.shape.as_list() == [2, 4]


def test_reshape_accepts_tensor_and_shape_arguments():
    x = tf.constant([1, 2, 3, 4])
    assert tf.reshape(x, tf.constant([2, 2], tf.int64)).shape == (2, 2)
    assert tf.reshape(x, TensorShape([4, 1])).shape == (4, 1)
    assert tf.reshape(x, (np.int64(2), -1)).shape == (2, 2)
    assert tf.reshape([1], []).shape == ()


def test_transpose_and_conjugate():
    assert tf.transpose(tf.zeros([2, 3, 4])).shape == (4, 3, 2)
    c = tf.transpose(tf.constant([[1 + 2j, 3j]]), conjugate=True)
    np.testing.assert_array_equal(c.numpy(), [[1 - 2j], [-3j]])
    real = tf.transpose(tf.constant([[1.0, 3.0]]), conjugate=True)  # no-op conjugate on reals
    assert real.shape == (2, 1)


def test_squeeze_and_expand_dims_accept_tensors_and_negative_axes():
    x = tf.zeros([1, 2, 1])
    assert tf.squeeze(x, tf.constant([0])).shape == (2, 1)
    assert tf.squeeze(x, (0, -1)).shape == (2,)
    assert tf.expand_dims(tf.constant(3), -1).shape == (1,)
    assert tf.expand_dims([1, 2], -2).shape == (1, 2)


def test_concat_single_value_and_mixed_python_data():
    assert tf.concat([[1, 2]], 0).numpy().tolist() == [1, 2]
    out = tf.concat([tf.constant([1.0]), [2, 3]], 0)  # Python data adopts the tensor's dtype
    assert out.dtype == tf.float32 and out.numpy().tolist() == [1, 2, 3]
    assert tf.concat([P, P], tf.constant(-1)).shape == (3, 8)


def test_stack_plain_python_data_converts_once():
    assert tf.stack([]).dtype == tf.float32 and tf.stack([]).shape == (0,)
    assert tf.stack([1, 2, 3]).numpy().tolist() == [1, 2, 3]
    assert tf.stack([[1, 2], [3, 4]], axis=1).numpy().tolist() == [[1, 3], [2, 4]]


def test_attrs_given_tensors_known_at_run_time_fail_as_tfs():
    # (TF's ops take these as attrs, never as inputs: its wrappers refuse a graph tensor)
    def traced(fn):
        return tf.function(fn, input_signature=[tf.TensorSpec([], tf.int32)]) \
            .get_concrete_function()
    x = tf.ones([2, 1, 4])
    with pytest.raises(TypeError, match="Expected list for 'axis' argument to 'squeeze' Op"):
        traced(lambda n: tf.squeeze(x, axis=n))
    with pytest.raises(TypeError, match="Expected int for argument 'num' not <tf.Tensor 'n:0'"):
        traced(lambda n: tf.unstack(x, num=n))
    with pytest.raises(tf.errors.OperatorNotAllowedInGraphError, match="Iterating over"):
        traced(lambda n: tf.nn.max_pool1d(x, n, 1, "VALID"))
    assert len(tf.unstack(x, num=tf.constant(2))) == 2  # (eagerly, a value)
    with pytest.raises(TypeError, match="Expected int for argument 'batch_dims' not "):
        traced(lambda n: tf.gather(P, [[0], [1], [2]], batch_dims=n))
    with pytest.raises(TypeError, match="Expected int for argument 'block_size' not "):
        traced(lambda n: tf.nn.depth_to_space(tf.ones([1, 1, 1, 4]), n))
    with pytest.raises(TypeError, match="Expected int for argument 'batch_dim' not "):
        traced(lambda n: tf.reverse_sequence(P, [1, 2, 3], seq_axis=1, batch_axis=n))
    # TF's wrappers test these as Python bools, which a graph refuses
    for fn in (lambda n: tf.nn.softmax(P, axis=n), lambda n: tf.nn.log_softmax(P, axis=n),
               lambda n: tf.gather_nd(P, [[0]], batch_dims=n),
               lambda n: tf.stack([P, P], axis=n), lambda n: tf.unstack(P, axis=n)):
        with pytest.raises(tf.errors.OperatorNotAllowedInGraphError,
                           match="Using a symbolic `tf.Tensor` as a Python `bool`"):
            traced(fn)
    with pytest.raises(ValueError, match="Argument `axis` must be a constant scalar"):
        traced(lambda n: tf.sort(P, axis=n))


def test_unstack_and_split_return_lists():
    parts = tf.unstack(tf.zeros([2, 3]), axis=-1)
    assert isinstance(parts, list) and [p.shape for p in parts] == [(2,)] * 3
    assert tf.unstack(tf.zeros([0, 2])) == []
    strings = tf.unstack(tf.constant(["a", "b"]))
    assert [s.numpy() for s in strings] == [b"a", b"b"] and strings[0].shape == ()
    parts = tf.split(P, tf.constant([1, 2]))
    assert isinstance(parts, list) and [p.shape for p in parts] == [(1, 4), (2, 4)]


def test_gather_variants():
    assert tf.gather([1, 2, 3], 1).numpy() == 2
    np.testing.assert_array_equal(tf.gather(P, [0], axis=tf.constant(1)).numpy(), [[0], [4], [8]])
    out = tf.gather(P, [[0, 1], [2, 3], [1, 1]], batch_dims=-1)
    np.testing.assert_array_equal(out.numpy(), [[0, 1], [6, 7], [9, 9]])
    # TF gathers without batching when the axis is given as 0
    out = tf.gather(P, [[0], [1], [2]], axis=0, batch_dims=1)
    np.testing.assert_array_equal(out.numpy(), P.numpy()[[[0], [1], [2]]])
    assert tf.gather(P, np.array([], np.int64)).shape == (0, 4)


def test_gather_nd_bad_indices_policy_ignore():
    out = tf.gather_nd([[1, 2], [3, 4]], [[0, 1], [5, 0]], bad_indices_policy="IGNORE")
    assert out.numpy().tolist() == [2, 0]
    out = tf.scatter_nd([[0], [9]], [5, 6], [3], bad_indices_policy="IGNORE")
    assert out.numpy().tolist() == [5, 0, 0]
    out = tf.tensor_scatter_nd_add([1, 1], [[3], [1]], [5, 6], bad_indices_policy="IGNORE")
    assert out.numpy().tolist() == [1, 7]


def test_gather_nd_empty_index_vectors_take_everything():
    out = tf.gather_nd(P, np.zeros((2, 0), np.int32))
    np.testing.assert_array_equal(out.numpy(), np.stack([P.numpy()] * 2))


def test_tensor_scatter_semantics():
    assert tf.tensor_scatter_nd_update([1, 2, 3, 4], [[0], [0]], [8, 9]).numpy()[0] == 9
    assert tf.tensor_scatter_nd_min([1, 2], [[0], [0]], [8, -9]).numpy().tolist() == [-9, 2]
    out = tf.tensor_scatter_nd_add([1.0, 2.0], [[0]], [1])  # Python updates adopt the dtype
    assert out.dtype == tf.float32 and out.numpy().tolist() == [2, 2]
    original = tf.constant([1, 2])
    tf.tensor_scatter_nd_update(original, [[0]], [5])
    assert original.numpy().tolist() == [1, 2]  # tensors are never written in place


def test_boolean_mask_variants():
    np.testing.assert_array_equal(tf.boolean_mask(P, [1, 0, 1]).numpy(), P.numpy()[[0, 2]])
    assert tf.boolean_mask(P, [False] * 3).shape == (0, 4)
    np.testing.assert_array_equal(tf.boolean_mask(P, [True, False, True, False], axis=-1).numpy(),
                                  P.numpy()[:, [0, 2]])


def test_where_forms():
    coords = tf.where([[True, False], [False, True]])
    assert coords.dtype == tf.int64 and coords.numpy().tolist() == [[0, 0], [1, 1]]
    assert tf.where([1.0, 0.0, 3.0]).numpy().tolist() == [[0], [2]]
    out = tf.where([[True], [False]], [1, 2], 0)
    assert out.numpy().tolist() == [[1, 2], [0, 0]]
    assert tf.where([True, False], 1.0, 0.0).dtype == tf.float32


def test_shape_size_rank():
    assert tf.shape(3.0).numpy().tolist() == []
    assert tf.size(["a", "b"]).numpy() == 2
    assert tf.rank([[1, 2]]).numpy() == 2 and tf.rank([[1, 2]]).dtype == tf.int32
    s = tf.shape_n([P, [1, 2]], out_type=tf.int64)
    assert [t.numpy().tolist() for t in s] == [[3, 4], [2]] and s[0].dtype == tf.int64
    with pytest.raises(tf.errors.InvalidArgumentError):  # one dtype for all, as TF's ShapeN
        tf.shape_n([[1], [1.0]])
    assert tf.broadcast_static_shape(TensorShape([None, 3]), TensorShape([2, 1])) == [2, 3]
    assert tf.broadcast_static_shape(TensorShape([None]), TensorShape([1])).as_list() == [None]


def test_meshgrid_forms():
    assert tf.meshgrid() == []
    assert tf.meshgrid([1, 2, 3])[0].numpy().tolist() == [1, 2, 3]
    x, y = tf.meshgrid([[1, 2]], [3])  # inputs are flattened
    assert x.numpy().tolist() == [[1, 2]] and y.numpy().tolist() == [[3, 3]]


def test_repeat_forms():
    assert tf.repeat(3, 2).numpy().tolist() == [3, 3]
    assert tf.repeat([1, 2], [-1, 2]).numpy().tolist() == [2, 2]  # negative counts: none
    assert tf.repeat([[1, 2], [3, 4]], [2], axis=1).numpy().tolist() == [[1, 1, 2, 2],
                                                                        [3, 3, 4, 4]]
    assert tf.repeat([1, 2], tf.constant(2)).numpy().tolist() == [1, 1, 2, 2]


def test_einsum_and_tensordot_forms():
    x = tf.constant([[1.0, 2.0], [3.0, 4.0]])
    assert tf.einsum("ii", x).numpy() == 5.0
    assert tf.einsum("ij, jk -> ik", x, x).shape == (2, 2)
    assert tf.einsum("ba", tf.constant([[1.0, 2.0]])).shape == (2, 1)  # implicit: sorted labels
    assert tf.einsum("...ij,...jk->...ik", tf.ones([2, 1, 2, 3]),
                    tf.ones([3, 3, 2])).shape == (2, 3, 2, 2)
    assert tf.einsum("i,i->", tf.constant([1j]), tf.constant([1j])).numpy() == -1
    half = tf.einsum("i,i->", tf.constant([1.0, 2.0], tf.float16), tf.constant([3.0, 4.0],
                                                                              tf.float16))
    assert half.dtype == tf.float16 and half.numpy() == 11
    assert tf.tensordot([[1, 2]], [[3], [4]], 1).numpy().tolist() == [[11]]
    assert tf.tensordot(tf.ones([2, 3]), tf.ones([3, 5]), [[-1], [0]]).shape == (2, 5)


@settings(max_examples=40, deadline=None)
@given(rows=st.integers(1, 4), k=st.integers(0, 6), m=st.integers(0, 5),
       side=st.sampled_from(["left", "right"]), seed=st.integers(0, 1000))
def test_searchsorted_matches_numpy_row_by_row(rows, k, m, side, seed):
    rng = np.random.default_rng(seed)
    s = np.sort(rng.integers(-5, 5, (rows, k)), axis=-1).astype(np.float32)
    v = rng.integers(-6, 6, (rows, m)).astype(np.float32)
    got = tf.searchsorted(s, v, side=side)
    want = np.array([np.searchsorted(r, x, side) for r, x in zip(s, v)]).reshape(rows, m)
    assert got.dtype == tf.int32
    np.testing.assert_array_equal(got.numpy(), want)


def test_sequence_mask_forms():
    assert tf.sequence_mask([1, 2], 3.0).dtype == tf.bool
    assert tf.sequence_mask(2, 3).numpy().tolist() == [True, True, False]
    assert tf.sequence_mask([1.0, 3.0], 4).shape == (2, 4)
    with pytest.raises(InvalidArgument):
        tf.sequence_mask([1, 2], -1)


def test_sequence_mask_infers_maxlen():
    out = tf.sequence_mask([[1, 3], [2, 0]])
    assert out.shape == (2, 2, 3) and out.numpy()[0, 1].tolist() == [True, True, True]


@settings(max_examples=60, deadline=None)
@given(shapes=hnp.mutually_broadcastable_shapes(num_shapes=3, max_dims=4, max_side=3),
       seed=st.integers(0, 100))
def test_where_broadcasts_like_numpy(shapes, seed):
    rng = np.random.default_rng(seed)
    c_shape, x_shape, y_shape = shapes.input_shapes
    cond = rng.random(c_shape) > 0.5
    x, y = rng.standard_normal(x_shape), rng.standard_normal(y_shape)
    got = tf.where(cond, x, y)
    np.testing.assert_array_equal(got.numpy(), np.where(cond, x, y))
    assert got.dtype == tf.float64


@settings(max_examples=60, deadline=None)
@given(shapes=hnp.mutually_broadcastable_shapes(num_shapes=2, max_dims=4, max_side=3))
def test_broadcast_shapes_agree_with_numpy(shapes):
    x_shape, y_shape = shapes.input_shapes
    want = list(np.broadcast_shapes(x_shape, y_shape))
    got = tf.broadcast_dynamic_shape(np.array(x_shape, np.int32), np.array(y_shape, np.int32))
    assert got.numpy().tolist() == want
    assert tf.broadcast_static_shape(TensorShape(x_shape), TensorShape(y_shape)) == want
    assert tf.broadcast_to(np.ones(x_shape), want).shape == tuple(want)


# -- static shape rules ----------------------------------------------------------------------

@pytest.mark.parametrize("op, inputs, attrs, want", [
    ("Reshape", [[None, 3]], {"shape": (-1, 6)}, [None, 6]),
    ("Reshape", [[2, 3]], {"shape": (-1, 2)}, [3, 2]),
    ("Reshape", [None], {"shape": (2, -1)}, [2, None]),
    ("Transpose", [None], {"perm": (1, 0)}, [None, None]),
    ("Transpose", [[None, 2, 3]], {"perm": None}, [3, 2, None]),
    ("ExpandDims", [[None, 2]], {"axis": -1}, [None, 2, 1]),
    ("ExpandDims", [None], {"axis": 0}, None),
    ("Squeeze", [[1, None, 1]], {"squeeze_dims": ()}, None),
    ("Squeeze", [[1, None, 1]], {"squeeze_dims": (0,)}, [None, 1]),
    ("Squeeze", [[1, 3]], {"squeeze_dims": ()}, [3]),
    ("Tile", [[None, 2]], {"multiples": (3, 2)}, [None, 4]),
    ("Tile", [None], {"multiples": (3, 2)}, [None, None]),
    ("BroadcastTo", [[None, 1]], {"shape": (4, 5)}, [4, 5]),
    ("ConcatV2", [[None, 2], [3, 2]], {"axis": 0}, [None, 2]),
    ("ConcatV2", [[1, None], [None, 2]], {"axis": -1}, [1, None]),
    ("ConcatV2", [[1, 2], None], {"axis": 0}, None),
    ("Pack", [[None, 2], [3, None]], {"axis": 1}, [3, 2, 2]),
    ("Pack", [None, [2]], {"axis": 0}, [2, 2]),
    ("PadV2", [[None, 2], []], {"paddings": ((1, 1), (0, 2))}, [None, 4]),
    ("Fill", [[]], {"dims": (2, 3)}, [2, 3]),
    ("Range", [[], [], []], {}, [None]),
    ("LinSpace", [[None], []], {"num": 4, "axis": -1}, [None, 4]),
    ("OneHot", [[2, None], [], []], {"depth": 5, "axis": 1}, [2, 5, None]),
    ("GatherV2", [[None, 4, 5], [None, 3]], {"axis": 1, "batch_dims": 1}, [None, 3, 5]),
    ("GatherV2", [None, [3]], {"axis": 0, "batch_dims": 0}, None),
    ("GatherNd", [[None, 4, 5], [7, 2]], {"batch_dims": 0, "bad_indices_policy": "DEFAULT"},
     [7, 5]),
    ("GatherNd", [[4, 5], [7, None]], {"batch_dims": 0, "bad_indices_policy": "DEFAULT"}, None),
    ("ScatterNd", [[None, 1], [None]], {"shape": (8,), "bad_indices_policy": "DEFAULT"}, [8]),
    ("Where", [[None, 3]], {}, [None, 2]),
    ("SelectV2", [[None, 1], [3], [1, 1]], {}, [None, 3]),
    ("Slice", [[None, 5]], {"begin": (0, 1), "size": (-1, 2)}, [None, 2]),
    ("Slice", [[4, 5]], {"begin": (1, 1), "size": (-1, -1)}, [3, 4]),
    ("Shape", [None], {"out_type": tf.int32}, [None]),
    ("Shape", [[None, 2]], {"out_type": tf.int32}, [2]),
    ("Size", [None], {"out_type": tf.int64}, []),
    ("Einsum", [[None, 3], [3, None]], {"equation": "ij,jk->ik"}, [None, None]),
    ("Einsum", [[2, None], [None, 4]], {"equation": "ij,jk->ki"}, [4, 2]),
    ("Einsum", [[5, 2, 3], [3, 4]], {"equation": "...ij,jk->...ik"}, [5, 2, 4]),
    ("Einsum", [None, [3, 4]], {"equation": "...ij,jk->...ik"}, None),
    ("Einsum", [None, [3, 4]], {"equation": "ij,jk->ik"}, [None, 4]),
])
def test_shape_rules_with_unknown_dims(op, inputs, attrs, want):
    statics = [_Static(s, tf.int32 if op in ("GatherV2", "GatherNd") and i == 1 else
                       tf.bool if op in ("SelectV2", "Where") and i == 0 else tf.float32)
               for i, s in enumerate(inputs)]
    shape, _ = _rule(op)(*statics, **attrs)
    assert TensorShape(shape) == TensorShape(want)


def test_multi_output_rules_with_unknown_dims():
    assert _rule("Unpack")(_Static([None, 3]), num=3, axis=1) == [(TensorShape([None]),
                                                                   tf.float32)] * 3
    assert _rule("Split")(_Static([None, 6]), num_split=3, axis=1) == \
        [(TensorShape([None, 2]), tf.float32)] * 3
    shapes = [s for s, _ in _rule("SplitV")(_Static([4, None]), size_splits=(1, -1), axis=-1)]
    assert shapes == [TensorShape([4, 1]), TensorShape([4, None])]
    shapes = [s for s, _ in _rule("SplitV")(_Static([4, 6]), size_splits=(1, -1), axis=1)]
    assert shapes == [TensorShape([4, 1]), TensorShape([4, 5])]
    assert _rule("Split")(_Static(None), num_split=2, axis=0) == [(unknown_shape(),
                                                                   tf.float32)] * 2


def test_rules_reject_static_mismatches():
    with pytest.raises(ValueError, match="evenly divisible by 4 but is 6"):
        _rule("Reshape")(_Static([2, 3]), shape=(4, -1))
    with pytest.raises(ValueError, match="Dimensions must be equal, but are 3 and 4"):
        _rule("Einsum")(_Static([2, 3]), _Static([4, 5]), equation="ij,jk->ik")
    with pytest.raises(InvalidArgument):
        _rule("BroadcastTo")(_Static([3]), shape=(2, 2))


def test_gather_into_an_empty_result_reads_no_indices():
    # TF fills a zero-size result without checking the indices against the gathered axis
    out = tf.gather(tf.zeros([1, 0, 0, 2]), [0], axis=2)
    assert out.shape == (1, 0, 1, 2)
    assert tf.gather(tf.zeros([1, 0, 3, 2]), [5], axis=2).shape == (1, 0, 1, 2)
    assert tf.gather(tf.zeros([2, 0]), [3], axis=0).shape == (1, 0)
    assert tf.function(lambda: tf.gather(tf.zeros([1, 0, 0, 2]), [0], axis=2))().shape == \
        (1, 0, 1, 2)
    with pytest.raises(InvalidArgument, match=r"indices\[0\] = 0 is not in \[0, 0\)"):
        tf.gather(tf.zeros([0, 3]), [0], axis=0)  # a non-empty result still checks them


@pytest.mark.parametrize("params, indices", [([0, 3], [[0]]), ([2, 0], [[1]]), ([2, 0, 2], [[5]])])
def test_gather_nd_from_empty_params_with_indices_fails(params, indices):
    with pytest.raises(tf.errors.InvalidArgumentError) as info:
        tf.gather_nd(tf.zeros(params), indices)
    text = ",".join(map(str, params))
    assert str(info.value) == (f"{prefix('GatherNd')}Requested more than 0 entries, but params "
                               f"is empty.  Params shape: [{text}] [Op:GatherNd]")
    assert tf.gather_nd(tf.zeros(params), np.zeros((0, 1), np.int32)).shape[0] == 0


# -- bad arguments: TF's error classes eagerly and when traced, never a stray Python error ----

def _traced(fn, shape):
    """`fn` traced for float32 inputs of `shape` (None: unknown rank)."""
    return tf.function(fn, input_signature=[tf.TensorSpec(shape, tf.float32)])


def test_concat_of_no_tensors():
    with pytest.raises(InvalidArgument, match=r"concat needs at least one tensor; got an empty "
                                              r"list \[Op:ConcatV2\]"):
        tf.concat([], 0)
    with pytest.raises(ValueError, match=r"List argument 'values' to 'ConcatV2' Op with length 0 "
                                         r"shorter than minimum length 2\."):
        tf.function(lambda: tf.concat([], 0))()


@pytest.mark.parametrize("shape", [[], [None]])
def test_split_of_scalars_and_axes_out_of_range_fail_when_traced(shape):
    x = np.zeros([4] * len(shape), np.float32)
    if not shape:
        with pytest.raises(ValueError, match=r"Dimension size, given by scalar input 0 must be "
                                             r"in range \[-0, 0\) for '.*Split.*' with input "
                                             r"shapes: \[\], \[\] and with computed input "
                                             r"tensors: input\[0\] = <0>\."):
            _traced(lambda t: tf.split(t, 2), shape)(x)
        with pytest.raises(ValueError, match=r"Can't split scalars for '.*SplitV"):
            _traced(lambda t: tf.split(t, [1, 1]), shape)(x)
        with pytest.raises(InvalidArgument, match=r"-input rank\(-0\) <= split_dim < input "
                                                  r"rank \(0\), but got 0"):
            tf.split(tf.constant(3.0), 2)
    else:
        with pytest.raises(ValueError, match=r"Dimension size, given by scalar input 3 must be "
                                             r"in range \[-1, 1\)"):
            _traced(lambda t: tf.split(t, 2, axis=3), shape)(x)
        with pytest.raises(ValueError, match=r"Dimension size, given by scalar input -3 must be "
                                             r"in range \[-1, 1\)"):
            _traced(lambda t: tf.split(t, [2, 2], axis=-3), shape)(x)
    # unknown rank: checked when run
    with pytest.raises(InvalidArgument):
        _traced(lambda t: tf.split(t, 2, axis=3), None)(x)


@pytest.mark.parametrize("shape, perm, message", [
    ([], [1, 2, 0], r"Dimension must be 0 but is 3 for '.*Transpose.*' with input shapes: "
                    r"\[\], \[3\]\."),
    ([None], [1, 0], r"Dimension must be 1 but is 2 .* with input shapes: \[\?\], \[2\]\."),
    ([2, 3], [0, 5], r"perm dim 5 is out of range of input rank 2 .* with input shapes: \[2,3\], "
                     r"\[2\] and with computed input tensors: input\[1\] = <0 5>\."),
    (None, [0, 5], r"perm dim 5 is out of range of input rank 2 .* with input shapes: \?, \[2\]")])
def test_transpose_with_a_perm_not_matching_the_rank_fails_when_traced(shape, perm, message):
    x = np.zeros([2] * len(perm) if shape is None else [d or 2 for d in shape], np.float32)
    with pytest.raises(ValueError, match=message):
        _traced(lambda t: tf.transpose(t, perm), shape)(x)


def test_transpose_with_a_perm_not_matching_the_rank_fails_eagerly():
    with pytest.raises(InvalidArgument, match=r"transpose expects a vector of size 0\. But "
                                              r"input\(1\) is a vector of size 3"):
        tf.transpose(tf.constant(3.0), [1, 2, 0])
    assert _traced(lambda t: tf.transpose(t, [1, 0]), [2, None])(np.zeros((2, 3), np.float32)) \
        .shape == (3, 2)


@pytest.mark.parametrize("shape", ["eager", [], [None]])
def test_tensordot_axes_outside_the_ranks(shape):
    def run(fn, x):
        return fn(tf.constant(x)) if shape == "eager" else \
            _traced(fn, [None] * x.ndim if shape else x.shape)(x)
    scalar, vector = np.float32(3.0), np.arange(4, dtype=np.float32)
    # TF: an IndexError too, which traced code re-raises as a StagingError
    index_error = "IndexError" if shape == "eager" else "StagingError"
    with pytest.raises(Exception, match=r"tensordot: axis 0 of `a` is out of range for a "
                                        r"tensor of rank 0") as raised:
        run(lambda t: tf.tensordot(t, t, axes=[[0], [0]]), scalar)
    assert type(raised.value).__name__ == index_error
    with pytest.raises(Exception, match="axis 1 of `a` is out of range for a tensor of rank 1") \
            as raised:
        run(lambda t: tf.tensordot(t, t, axes=[[1], [0]]), vector)
    assert type(raised.value).__name__ == index_error
    with pytest.raises(ValueError, match=r"`axes` must be at least 0\. Received: -1\."):
        run(lambda t: tf.tensordot(t, t, axes=-1), vector)
    with pytest.raises(ValueError, match=r"`axes` must not be larger than the number of "
                                         r"dimensions of tensor"):
        run(lambda t: tf.tensordot(t, t, axes=1), scalar)
    assert float(run(lambda t: tf.tensordot(t, t, axes=[[-1], [0]]), vector)) == 14.0


def test_tensordot_of_unknown_rank_over_listed_axes():
    out = _traced(lambda t: tf.tensordot(t, t, axes=[[0], [0]]), None)(
        np.array([1.0, 2.0, 3.0], np.float32))
    assert float(out) == 14.0


def test_reverse_of_a_scalar_is_the_scalar():
    # TF's kernel returns a scalar as it is, before reading `axis`
    assert float(tf.reverse(tf.constant(3.0), [0])) == 3.0
    assert float(_traced(lambda t: tf.reverse(t, [0]), None)(np.float32(3.0))) == 3.0


@pytest.mark.parametrize("shape", [[None], None])
def test_repeat_with_dims_or_counts_known_only_at_run_time(shape):
    x = np.arange(4, dtype=np.float32)
    out = _traced(lambda t: tf.repeat(t, [1, 0, 2, 3], axis=0), shape)(x)
    np.testing.assert_array_equal(out, [0, 2, 2, 3, 3, 3])
    np.testing.assert_array_equal(_traced(lambda t: tf.repeat(t, 2), shape)(x),
                                  np.repeat(x, 2))
    counts = tf.function(lambda t, c: tf.repeat(t, c, axis=0))
    np.testing.assert_array_equal(counts(x, tf.constant([2, 0, 1, -1])), [0, 0, 2])
    m = np.arange(6, dtype=np.float32).reshape(2, 3)
    out = _traced(lambda t: tf.repeat(t, [2, 1, 0], axis=1), None if shape is None else
                  [None, None])(m)
    np.testing.assert_array_equal(out, [[0, 0, 1], [3, 3, 4]])


def test_repeat_of_a_scalar_and_bad_counts():
    np.testing.assert_array_equal(tf.repeat(tf.constant(3.0), 2, axis=0), [3, 3])
    np.testing.assert_array_equal(_traced(lambda t: tf.repeat(t, 2, axis=0), [])(np.float32(3)),
                                  [3, 3])
    with pytest.raises(ValueError, match=r"Shape \(1, 1\) must have rank at most 1"):
        tf.repeat(tf.constant([1.0]), [[3]], axis=0)
    with pytest.raises(ValueError, match=r"axis=3 out of bounds: expected -1<=axis<1"):
        _traced(lambda t: tf.repeat(t, 2, axis=3), [None])(np.zeros(2, np.float32))


@pytest.mark.parametrize("shape", [[None, None], None])
def test_boolean_mask_and_meshgrid_with_unknown_dims(shape):
    m = np.arange(6, dtype=np.float32).reshape(2, 3)
    np.testing.assert_array_equal(
        _traced(lambda t: tf.boolean_mask(t, [True, False]), shape)(m), [[0, 1, 2]])
    np.testing.assert_array_equal(
        _traced(lambda t: tf.boolean_mask(t, [True, False, True], axis=1), shape)(m),
        [[0, 2], [3, 5]])
    v = np.arange(3, dtype=np.float32)
    for indexing in ("xy", "ij"):
        grids = _traced(lambda t: tf.meshgrid(t, t[:2], indexing=indexing),
                        None if shape is None else [None])(v)
        for got, want in zip(grids, np.meshgrid(v, v[:2], indexing=indexing)):
            np.testing.assert_array_equal(got, want)


def test_boolean_mask_needs_the_mask_rank():
    f = tf.function(lambda t, m: tf.boolean_mask(t, m), input_signature=[
        tf.TensorSpec(None, tf.float32), tf.TensorSpec(None, tf.bool)])
    with pytest.raises(ValueError, match=r"Number of mask dimensions must be specified, even if "
                                         r"some dimensions are None\.  E\.g\. shape=\[None\] is "
                                         r"ok, but shape=None is not\."):
        f.get_concrete_function()


@pytest.mark.parametrize("shape", [[None, None], None])
def test_eye_and_tensordot_with_sizes_known_at_run_time(shape):
    m = np.arange(6, dtype=np.float32).reshape(2, 3)
    np.testing.assert_array_equal(_traced(lambda t: tf.eye(tf.shape(t)[0]), shape)(m), np.eye(2))
    np.testing.assert_array_equal(
        _traced(lambda t: tf.eye(tf.shape(t)[1], tf.shape(t)[0], batch_shape=[2]), shape)(m),
        np.broadcast_to(np.eye(3, 2), (2, 3, 2)))
    for n in (0, 2):
        np.testing.assert_allclose(_traced(lambda t: tf.tensordot(t, t, n), shape)(m),
                                   np.tensordot(m, m, n))
    out = _traced(lambda t: tf.tensordot(t, tf.transpose(t), 1), shape)(m)
    np.testing.assert_allclose(out, m @ m.T)


def test_eye_with_a_batch_size_known_at_run_time():
    # as the SimCLR example's color transforms: tf.eye(3, batch_shape=[tf.shape(x)[0], 1])
    @tf.function(input_signature=[tf.TensorSpec([None, 2])])
    def f(x):
        e = tf.eye(3, batch_shape=[tf.shape(x)[0], 1])
        e2 = tf.eye(2, batch_shape=tf.shape(x)[:1])
        assert e.shape.as_list() == [None, 1, 3, 3] and e2.shape.as_list() == [None, 2, 2]
        return e, e2

    e, e2 = f(tf.ones([4, 2]))
    np.testing.assert_array_equal(e, np.broadcast_to(np.eye(3), (4, 1, 3, 3)))
    np.testing.assert_array_equal(e2, np.broadcast_to(np.eye(2), (4, 2, 2)))


def test_float_counts_and_sizes_are_type_errors():
    with pytest.raises(TypeError, match=r"Argument `tensor` \(name: repeats\) must be of type "
                                        r"integer\. Received `tensor` = 1\.5 of dtype: "
                                        r"<dtype: 'float32'>"):
        tf.repeat(tf.constant([1.0, 2.0]), 1.5)
    with pytest.raises(TypeError, match="must be of type integer"):
        tf.function(lambda c: tf.repeat(tf.constant([1.0]), c))(tf.constant([2.0]))
    assert tf.repeat(tf.constant([], tf.float32), []).shape == (0,)
    with pytest.raises(TypeError, match=r"Arguments `num_rows` and `num_columns` must be "
                                        r"positive integer values\. Received: num_rows=2\.5, "
                                        r"num_columns=2\.5"):
        tf.eye(2.5)


def test_gather_nd_with_scalar_indices_fails_when_traced():
    with pytest.raises(ValueError, match=r"Shape must be at least rank 1 but is rank 0 for "
                                         r"'.*GatherNd.*' with input shapes: \[2,3\], \[\]\."):
        _traced(lambda t: tf.gather_nd(t, 0), [2, 3])(np.zeros((2, 3), np.float32))


def test_shape_n_of_no_tensors():
    with pytest.raises(InvalidArgument, match="Value for attr 'N' of 0 must be at least minimum 1"):
        tf.shape_n([])
    with pytest.raises(ValueError, match=r"List argument 'input' to 'ShapeN' Op with length 0 "
                                         r"shorter than minimum length 1\."):
        tf.function(lambda: tf.shape_n([]))()


@pytest.mark.parametrize("shape, fn, message", [
    ([], lambda t: tf.concat([t, t], 0), r"Can't concatenate scalars \(use tf\.stack instead\) "
                                         r"for '.*ConcatV2.*' with input shapes: \[\], \[\], "
                                         r"\[\]\."),
    ([None], lambda t: tf.concat([t, t], -3), r"Shape must be at least rank 3 but is rank 1 .* "
                                              r"input\[2\] = <-3>\."),
    ([4], lambda t: tf.expand_dims(t, 5), r"dim 5 not in the interval \[-2, 1\]\. for "
                                          r"'.*ExpandDims.*' with input shapes: \[4\], \[\]"),
    ([None], lambda t: tf.squeeze(t, 3), r"squeeze_dims\[0\] not in \[-1,1\)\. for '.*Squeeze"),
    ([4], lambda t: tf.squeeze(t, 0), r"Can not squeeze dim\[0\], expected a dimension of 1, "
                                      r"got 4 for '.*Squeeze"),
    ([4], lambda t: tf.reverse(t, [3]), r"'axis'\[0\] = 3 is out of valid range \[0, 0 for "
                                        r"'.*ReverseV2"),
    ([], lambda t: tf.roll(t, 1, 0), r"Shape must be at least rank 1 but is rank 0 for '.*Roll"),
    ([None], lambda t: tf.tile(t, [2, 2]), r"Shape must be rank 1 but is rank 2 for '.*Tile.*' "
                                           r"with input shapes: \[\?\], \[2\]\."),
    ([], lambda t: tf.pad(t, [[1, 1]]), r"Shape must be rank 1 but is rank 0 for '.*Pad.*' with "
                                        r"input shapes: \[\], \[1,2\]\."),
    ([4], lambda t: tf.slice(t, [0, 0], [1, 1]), r"Shape must be rank 2 but is rank 1 for "
                                                 r"'.*Slice"),
    ([4], lambda t: tf.gather(t, [0], axis=3), r"Shape must be at least rank 4 but is rank 1 "
                                               r"for '.*GatherV2.*input\[2\] = <3>\."),
    ([], lambda t: tf.gather(t, [0]), r"Shape must be at least rank 1 but is rank 0 for "
                                      r"'.*GatherV2")])
def test_bad_ranks_and_axes_fail_when_traced(shape, fn, message):
    with pytest.raises(ValueError, match=message):
        _traced(fn, shape).get_concrete_function()


@pytest.mark.parametrize("shape, fn", [
    ([None], lambda t: tf.concat([t, t], -1)), ([None], lambda t: tf.expand_dims(t, -2)),
    ([None, 1], lambda t: tf.squeeze(t, -1)), ([None, 2], lambda t: tf.reverse(t, [-1, 0])),
    ([None], lambda t: tf.tile(t, [2])), ([None, 2], lambda t: tf.gather(t, [0], axis=-1)),
    ([None], lambda t: tf.roll(t, 1, -1)), (None, lambda t: tf.gather(t, [0], axis=5))])
def test_valid_or_unknown_ranks_still_trace(shape, fn):
    assert _traced(fn, shape).get_concrete_function() is not None


@pytest.mark.parametrize("fn, message", [
    (lambda t: tf.split(t, 3), r"Number of ways to split should evenly divide the split "
                               r"dimension for '.*Split"),
    (lambda t: tf.split(t, [1, 1]), r"can't split axis of size 4 into pieces of size \[1,1\]"),
    (lambda t: tf.split(t, [5, -1]), r"Split size at index 1 must be >= 0\. Got: -1"),
    (lambda t: tf.split(t, [-1, -1]), r"size_splits can only have one -1 for '.*SplitV")])
def test_split_sizes_not_fitting_fail_when_traced(fn, message):
    with pytest.raises(ValueError, match=message):
        _traced(fn, [4]).get_concrete_function()
    with pytest.raises(InvalidArgument):
        fn(tf.zeros([4]))


def test_tensordot_of_unknown_rank_checks_the_ranks_when_run():
    with pytest.raises(InvalidArgument):
        _traced(lambda t: tf.tensordot(t, t, 2), None)(np.arange(4, dtype=np.float32))


@pytest.mark.parametrize("equation, shape, message", [
    ("ij->i", [4], r"Shape must be rank 2 but is rank 1\n\s*\t for 0th input and equation: ij->i "
                   r"for '.*Einsum.*' with input shapes: \[4\]\."),
    ("...ij->i", [None], r"Shape must be at least rank 2 but is rank 1\n\s*\t for 0th input"),
    ("ij,ij->i", [2, 3], r"Dimensions must be equal, but are 2 and 3 for '.*Einsum")])
def test_einsum_of_mismatched_shapes_fails_when_traced(equation, shape, message):
    fn = (lambda t: tf.einsum(equation, t, tf.transpose(t))) if "," in equation else \
        (lambda t: tf.einsum(equation, t))
    with pytest.raises(ValueError, match=message):
        _traced(fn, shape).get_concrete_function()
    with pytest.raises(InvalidArgument, match=r"Expected"):  # eagerly: TF's kernel error
        fn(tf.zeros([d or 2 for d in shape]))


@pytest.mark.parametrize("equation, count, message", [
    ("ij->ii", 1, "Output subscripts contain a label appearing more than once: ij->ii"),
    ("ij,jk->ikk", 2, "Output subscripts contain a label appearing more than once: ij,jk->ikk"),
    ("...ij->...i...", 1, "Output subscripts contain a label appearing more than once: "
                          "...ij->...i..."),
    ("i0,jk->ik", 2, "Subscripts have incorrect format: i0,jk->ik"),
    ("...0,jk->ik", 2, 'Invalid character "0" in equation: ...0,jk->ik.'),
    ("..ij->ij", 1, "Subscripts have incorrect format: ..ij->ij"),
    ("ij,jk->i.k", 2, "Subscripts have incorrect format: ij,jk->i.k"),
    ("ij, jk->ik->", 2, "Subscripts have incorrect format: ij,jk->ik->"),
    ("ij;jk->ik", 2, "Subscripts have incorrect format: ij;jk->ik"),
    ("i j,jk->ik", 1, 'Got 1 inputs for equation "i j,jk->ik", expecting 2')])
def test_einsum_checks_its_equation_before_the_op(equation, count, message):
    # tf.einsum's own ValueErrors, eagerly and as a function is traced (the kernel's
    # InvalidArgumentError came instead, or another label's message)
    args = [tf.ones([2, 2, 2]) if "..." in equation else tf.ones([2, 2])] * count
    with pytest.raises(ValueError, match=re.escape(message)):
        tf.einsum(equation, *args)
    with pytest.raises(ValueError, match=re.escape(message)):
        tf.function(lambda *a: tf.einsum(equation, *a))(*args)


def test_einsum_names_its_list_input_inputs_when_traced_with_mixed_dtypes():
    with pytest.raises(TypeError, match="Tensors in list passed to 'inputs' of 'Einsum' Op have "
                                        r"types \[float32, int32\] that don't all match."):
        tf.function(lambda a, b: tf.einsum("ij,jk->ik", a, b))(tf.ones([2, 3]),
                                                               tf.ones([3, 2], tf.int32))


def test_repeat_of_a_scalar_of_unknown_rank():
    np.testing.assert_array_equal(_traced(lambda t: tf.repeat(t, 2, axis=0), None)(np.float32(3)),
                                  [3, 3])
    np.testing.assert_array_equal(
        _traced(lambda t: tf.repeat(t, [1, 2], axis=-1), None)(np.float32([[1, 2]])),
        [[1, 2, 2]])


def test_gather_gradients_with_unknown_static_dims():
    params = tf.reshape(tf.range(24.0), [2, 3, 4])
    gathers = [
        lambda p: tf.gather(p, [[1, 0]]),
        lambda p: tf.gather(p, [2, 0, 2], axis=1),
        lambda p: tf.gather(p, [[0, 2], [1, 1]], axis=1, batch_dims=1),
        lambda p: tf.gather_nd(p, [[0, 1], [1, 2]]),
    ]
    for fn in gathers:
        def grad(p):
            with tf.GradientTape() as tape:
                tape.watch(p)
                y = tf.reduce_sum(fn(p) * fn(p))
            return tf.convert_to_tensor(tape.gradient(y, p))

        want = grad(params).numpy()
        traced = tf.function(grad, input_signature=[tf.TensorSpec([None, None, None])])
        np.testing.assert_array_equal(traced(params).numpy(), want)

    @tf.function(input_signature=[tf.TensorSpec([None, None]), tf.TensorSpec([None], tf.int32)])
    def segment_grad2(p, ids):
        with tf.GradientTape() as outer:
            outer.watch(p)
            with tf.GradientTape() as inner:
                inner.watch(p)
                y = tf.reduce_sum(tf.math.segment_max(p * p, ids))
            s = tf.reduce_sum(inner.gradient(y, p) ** 2)
        return outer.gradient(s, p)

    got = segment_grad2(tf.constant([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]), tf.constant([0, 1, 1]))
    assert got.numpy().tolist() == [[8.0, 16.0], [0.0, 0.0], [40.0, 48.0]]


def test_scatter_nd_with_a_run_time_shape():
    @tf.function(input_signature=[tf.TensorSpec([None], tf.int32)])
    def scatter(shape):
        return tf.scatter_nd([[0], [1]], [1.0, 2.0], shape)

    assert scatter(tf.constant([3])).numpy().tolist() == [1.0, 2.0, 0.0]
    with pytest.raises(tf.errors.InvalidArgumentError, match="Dimension -3 must be >= 0"):
        scatter(tf.constant([-3]))
    with pytest.raises(tf.errors.InvalidArgumentError, match="does not index into shape"):
        scatter(tf.constant([1]))


def test_concat_gradient_with_unknown_static_dims():
    @tf.function(input_signature=[tf.TensorSpec([None, None]), tf.TensorSpec([None, None])])
    def grads(a, b):
        with tf.GradientTape() as tape:
            tape.watch([a, b])
            y = tf.concat([a, b], 1)
            loss = tf.reduce_sum(y * tf.range(5.0))
        return tape.gradient(loss, [a, b])

    da, db = grads(tf.ones([2, 2]), tf.ones([2, 3]))
    assert da.numpy().tolist() == [[0.0, 1.0]] * 2
    assert db.numpy().tolist() == [[2.0, 3.0, 4.0]] * 2


def test_repeat_with_a_negative_count_raises_like_tile():
    x = tf.constant([[1.0, 2.0], [3.0, 4.0]])
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"multiples\[2\] >= 0, but got -1"):
        tf.repeat(x, -1, axis=1)
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"multiples\[1\] >= 0, but got -1"):
        tf.function(lambda t: tf.repeat(t, [-1], axis=0),
                    input_signature=[tf.TensorSpec([None, None])])(x)
    # In a vector of counts a negative one repeats 0 times, as in TF.
    assert tf.repeat(x, [1, -1], axis=0).numpy().tolist() == [[1.0, 2.0]]


def test_sequence_mask_of_empty_lengths():
    assert tf.sequence_mask(tf.zeros([0], tf.int32)).shape == (0, 0)
    assert tf.sequence_mask(tf.zeros([2, 0], tf.int64)).shape == (2, 0, 0)
    got = tf.function(tf.sequence_mask, input_signature=[tf.TensorSpec([None], tf.int32)])(
        tf.zeros([0], tf.int32))
    assert got.shape == (0, 0) and got.dtype == tf.bool


@pytest.mark.parametrize("dtype", [tf.float32, tf.float16, tf.float64])
def test_searchsorted_nan_values_go_first_left_and_last_right(dtype):
    # TF's binary search compares with <, false for NaN.
    seq = tf.constant([1., 2., 3.], dtype)
    vals = tf.constant([np.nan, 2., -np.inf, np.inf], dtype)
    assert tf.searchsorted(seq, vals, side="left").numpy().tolist() == [0, 1, 0, 3]
    assert tf.searchsorted(seq, vals, side="right").numpy().tolist() == [3, 2, 0, 3]
    batched = tf.searchsorted([[1., 2., 3.], [0., 5., 6.]], [[np.nan, 2.], [7., np.nan]],
                              side="right")
    assert batched.numpy().tolist() == [[3, 2], [3, 3]]
    f = tf.function(lambda s, v: tf.searchsorted(s, v))
    assert f(seq, vals).numpy().tolist() == [0, 1, 0, 3]


@pytest.mark.parametrize("dtype", [tf.float32, tf.bfloat16, tf.float64])
def test_searchsorted_nan_in_sequence_bisects_as_tf(dtype):
    # TF bisects with < only: a NaN in the sequence is passed over on the right side and
    # stops the search on the left, wherever it lies.
    seq = tf.constant([[1., 2., 3., np.nan, np.nan], [np.nan, 1., 2., 3., 4.]], dtype)
    vals = tf.constant([[5., np.nan, 0., 2.], [5., np.nan, 0., 2.]], dtype)
    assert tf.searchsorted(seq, vals, side="right").numpy().tolist() == [[5, 5, 0, 2],
                                                                         [5, 5, 1, 3]]
    assert tf.searchsorted(seq, vals, side="left").numpy().tolist() == [[3, 0, 0, 1],
                                                                        [5, 0, 0, 2]]
    assert tf.searchsorted(tf.constant([1., np.nan], dtype), tf.constant([5.], dtype),
                           side="right").numpy().tolist() == [2]


def test_searchsorted_unsorted_sequence_gives_tf_bisection():
    seq = tf.constant([3, 1, 2, 5, 4, 0, 7])
    vals = tf.range(9)
    assert tf.searchsorted(seq, vals).numpy().tolist() == [0, 0, 2, 3, 3, 3, 6, 6, 7]
    assert tf.searchsorted(seq, vals, side="right").numpy().tolist() == [0, 2, 3, 3, 3, 6, 6,
                                                                          7, 7]
    assert tf.searchsorted(tf.zeros([2, 0]), tf.ones([2, 3])).numpy().tolist() == [[0] * 3] * 2


@pytest.mark.parametrize("make", [tf.ones, tf.zeros])
@pytest.mark.parametrize("shape", [[2.0], (2.0, 3), 2.0, [np.float32(2.0)]])
def test_ones_zeros_float_python_shape_is_type_error(make, shape):
    with pytest.raises(TypeError, match=r"Cannot convert .* to EagerTensor of dtype int32"):
        make(shape)


def test_ones_zeros_int_shapes_still_work():
    assert tf.ones([2, 3]).shape == (2, 3)
    assert tf.zeros((2,)).shape == (2,)


def test_tile_negative_multiples_in_a_function_as_tf():
    """TF reads constant multiples as a shape while tracing: -1 is unknown (the kernel rejects
    it when the graph runs), anything below -1 is a ValueError at once."""
    with pytest.raises(ValueError, match="Invalid value in tensor used for shape: -2"):
        tf.function(lambda x: tf.tile(x, [-2]))(tf.ones([2]))
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"Expected multiples\[0\] >= 0"):
        tf.function(lambda x: tf.tile(x, [-1, 1]))(tf.ones([2, 3]))
    shapes = []
    tf.function(lambda x: shapes.append(tf.tile(x, [2, -1]).shape.as_list())).\
        get_concrete_function(tf.TensorSpec([2, 3]))
    assert shapes == [[4, None]]
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"Expected multiples\[0\] >= 0"):
        tf.tile(tf.ones([2]), [-3])


@pytest.mark.parametrize("constant_values", [0.0, 2.0])
def test_pad_gradient_with_an_unknown_batch_in_a_function(constant_values):
    @tf.function(input_signature=[tf.TensorSpec([None, 3])])
    def grad(x):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = tf.pad(x, [[0, 1], [2, 1]], constant_values=constant_values)
            loss = tf.reduce_sum(y * y)
        return tape.gradient(loss, x)

    x = tf.constant([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    np.testing.assert_allclose(grad(x).numpy(), 2 * x.numpy())


def test_linspace_gradients_reach_start_and_stop():
    x = tf.constant(1.0)
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        three = tf.linspace(x, 5.0, 3)
        one = tf.linspace(x, 5.0, 1)  # the value is start itself
        rows = tf.linspace([x, 2 * x], [[5.0], [6.0]], 4, axis=-1)
        weighted = tf.linspace([x, 2 * x], [[5.0], [6.0]], 4, axis=0) * tf.reshape(
            tf.range(16.0), [4, 2, 2])
        stop = tf.linspace(tf.constant([1.0, 2.0], tf.float64), tf.cast(x, tf.float64), 5,
                           axis=1) ** 2
    assert [float(tape.gradient(y, x)) for y in (three, one, rows, weighted, stop)] == [
        1.5, 1.0, 12.0, 52.0, 11.25]

    @tf.function
    def squares_grad(v):
        with tf.GradientTape() as inner:
            inner.watch(v)
            y = tf.linspace(v, 2 * v, 4) ** 2
        return inner.gradient(y, v)
    np.testing.assert_allclose(squares_grad(tf.constant([1.0, 3.0])).numpy(), [172 / 9, 172 / 3],
                               rtol=1e-6)


def test_linspace_count_known_at_run_time():
    @tf.function(input_signature=[tf.TensorSpec([], tf.int32)])
    def f(n):
        with tf.GradientTape() as tape:
            start, stop = tf.constant([1.0, 2.0]), tf.constant(5.0)
            tape.watch([start, stop])
            y = tf.linspace(start, stop, n, axis=-1)
            total = tf.reduce_sum(y * tf.range(1.0, 1.0 + tf.cast(n, tf.float32)))
        assert y.shape.as_list() == [2, None]
        return y, tape.gradient(total, [start, stop])
    y, (d_start, d_stop) = f(tf.constant(4))
    np.testing.assert_allclose(y.numpy(), [[1, 7 / 3, 11 / 3, 5], [2, 3, 4, 5]], rtol=1e-6)
    np.testing.assert_allclose(d_start.numpy(), [10 / 3, 10 / 3], rtol=1e-6)
    np.testing.assert_allclose(d_stop.numpy(), 2 * (1 / 3 * 2 + 2 / 3 * 3 + 1 * 4), rtol=1e-6)
    y, (d_start, d_stop) = f(tf.constant(1))  # (one value: start, whose weight is 1)
    assert y.numpy().tolist() == [[1], [2]] and d_stop.numpy() == 0
    assert f(tf.constant(0))[0].shape == (2, 0)
    with pytest.raises(tf.errors.InvalidArgumentError, match="num >= 0"):
        f(tf.constant(-1))


def test_linspace_num_must_be_an_integer():
    for num in (2.5, tf.constant(2.5), np.float64(3.0)):
        with pytest.raises(TypeError, match=r"\(name: num\) must be of type integer"):
            tf.linspace(0.0, 1.0, num)
    assert tf.linspace(0.0, 1.0, np.int64(3)).shape == (3,)


@pytest.mark.parametrize("axis", [0, 1, 2, -1, -2, -3])
def test_expand_dims_every_axis_of_a_strided_input(axis):
    x = np.arange(6.0).reshape(2, 3).T  # (not contiguous)
    out = tf.expand_dims(x, axis)
    np.testing.assert_array_equal(out.numpy(), np.expand_dims(x, axis))
    assert out.shape == np.expand_dims(x, axis).shape
    v = tf.Variable(x)
    with tf.GradientTape() as tape:
        y = tf.reduce_sum(tf.expand_dims(v, axis) * 2.0)
    np.testing.assert_array_equal(tape.gradient(y, v).numpy(), np.full((3, 2), 2.0))
    assert tf.expand_dims(3.0, axis % 1).shape == [1]


def test_zeros_and_ones_name_their_graph_ops_as_tf_wrappers_do():
    names = []

    @tf.function
    def f(x):
        made = [tf.zeros([2]), tf.ones([2]), tf.zeros_like(x), tf.ones_like(x), tf.fill([2], 1.0),
                tf.zeros([2], name="z")]
        names.extend(t.name for t in made)
        return made

    f(tf.constant([1.0, 2.0]))
    assert names == ["zeros:0", "ones:0", "zeros_like:0", "ones_like:0", "Fill:0", "z:0"]


def test_zero_padding_runs_tfs_pad_op():
    # TF pads with its Pad op for the default zero value, PadV2 for another value
    @tf.function
    def f(x):
        return tf.pad(x, [[1, 1]]), tf.pad(x, [[1, 1]], constant_values=2.0)
    ops = [n.op for n in f.get_concrete_function(tf.TensorSpec([3])).graph.as_graph_def().node]
    assert "Pad" in ops and "PadV2" in ops
    np.testing.assert_array_equal(f(tf.constant([1.0, 2.0, 3.0]))[0], [0, 1, 2, 3, 0])
    with pytest.raises(errors.InvalidArgumentError,
                       match=r"Paddings must be non-negative: -1 1 \[Op:Pad\]$"):
        tf.pad([1, 2], [[-1, 1]])  # (a Python list: TF's slower path, no name)


def test_pad_takes_any_scalar_zero_as_zero_padding():
    # TF pads with Pad for a zero of any type: an int tensor with 0.0 does not fail
    x = tf.constant([1, 2])
    for zero in (0.0, np.float32(0), False):
        out = tf.pad(x, [[1, 1]], constant_values=zero)
        assert out.dtype == tf.int32 and out.numpy().tolist() == [0, 1, 2, 0]
    assert tf.pad(tf.constant(["a"]), [[1, 0]], constant_values="").numpy().tolist() == [b"", b"a"]
    assert tf.pad(x, [[1, 0]], constant_values=7).numpy().tolist() == [7, 1, 2]


def test_fill_shapes_refused_while_a_graph_is_built_are_tfs_trace_errors():
    for make, error, text in (
            (lambda: tf.zeros([2, -3]), ValueError, "Invalid value in tensor used for shape: -3"),
            (lambda: tf.fill([-1], 1), ValueError, "Fill dimensions must be >= 0"),
            (lambda: tf.eye(2, -1), ValueError, "Fill dimensions must be >= 0"),
            (lambda: tf.fill([2.0], 1), TypeError, "Value passed to parameter 'dims' has "
             "DataType float32 not in list of allowed values: int32, int64"),
            (lambda: tf.reshape(tf.ones([2]), [2.0]), TypeError, "Value passed to parameter "
             "'shape' has DataType float32")):
        with pytest.raises(error, match=re.escape(text)):
            tf.function(make)()
    with pytest.raises(tf.errors.InvalidArgumentError, match=re.escape(
            "Value for attr 'index_type' of float is not in the list of allowed values: int32, "
            "int64\n\t; NodeDef: {{node Fill}}")):
        tf.fill([2.0], 1)


def test_einsum_of_three_dim_bfloat16_operands():
    # the contraction MultiHeadAttention's projections run under mixed_bfloat16
    a = tf.reshape(tf.range(4.0), (1, 2, 2))
    b = tf.reshape(tf.range(4.0), (2, 1, 2))
    out = tf.einsum("abc,cde->abde", tf.cast(a, tf.bfloat16), tf.cast(b, tf.bfloat16))
    assert out.dtype == tf.bfloat16
    np.testing.assert_array_equal(out.numpy().astype(np.float32),
                                  tf.einsum("abc,cde->abde", a, b).numpy())


@pytest.mark.parametrize("mode, value", [("CONSTANT", 0), ("CONSTANT", 2.5), ("REFLECT", 0),
                                         ("SYMMETRIC", 0)])
def test_pad_with_paddings_known_at_run_time(mode, value):
    """Paddings computed in a function (from a shape, or a function argument): the pad ops
    take them as an input; values, gradients and errors as eagerly (as TF's)."""
    def padded(x, paddings):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = tf.pad(x, paddings, mode, constant_values=value)
            weights = tf.cast(tf.reshape(tf.range(tf.size(y)), tf.shape(y)), y.dtype)
            loss = tf.reduce_sum(y * weights)
        return y, tape.gradient(loss, x)

    fn = tf.function(padded, input_signature=[tf.TensorSpec(None, tf.float64),
                                              tf.TensorSpec(None, tf.int32)])
    x = tf.constant(np.arange(12.0).reshape(3, 4))
    for paddings in ([[1, 0], [2, 1]], [[0, 2], [1, 3]]):
        for got, want in zip(fn(x, tf.constant(paddings)), padded(x, paddings)):
            assert got.shape == want.shape
            np.testing.assert_array_equal(got.numpy(), want.numpy())
    mirror = mode != "CONSTANT"
    if not mirror:  # (TF's values)
        np.testing.assert_array_equal(fn(x, tf.constant([[1, 0], [2, 1]]))[1].numpy(),
                                      [[9, 10, 11, 12], [16, 17, 18, 19], [23, 24, 25, 26]])
    with pytest.raises(errors.InvalidArgumentError, match=re.escape(
            f"{'p' if mirror else 'P'}addings must be non-negative: -1 0")):
        fn(x, tf.constant([[-1, 0], [0, 0]]))
    with pytest.raises(errors.InvalidArgumentError,
                       match=re.escape("paddings must be a matrix with 2 columns: [2,3]")):
        fn(x, tf.constant([[1, 1, 1], [1, 1, 1]]))
    if mirror:
        with pytest.raises(errors.InvalidArgumentError, match="paddings must be less than|"
                                                              "paddings must be no greater"):
            fn(x, tf.constant([[4, 0], [0, 0]]))


def test_pad_shape_with_paddings_partly_known_when_traced():
    fn = tf.function(lambda x, n: tf.pad(x, [[0, n], [n, 1]]),
                     input_signature=[tf.TensorSpec([3, 4], tf.float32),
                                      tf.TensorSpec(None, tf.int32)])
    assert fn.get_concrete_function().outputs[0].shape.as_list() == [None, None]
    assert fn(tf.ones([3, 4]), tf.constant(2)).shape == (5, 7)
    strings = tf.function(lambda x, n: tf.pad(x, [[0, n], [0, 0]]))
    np.testing.assert_array_equal(strings(tf.constant([["a", "b"]]), tf.constant(1)).numpy(),
                                  [[b"a", b"b"], [b"", b""]])


def test_mirror_pad_errors_in_tf_words():
    with pytest.raises(errors.InvalidArgumentError,
                       match=re.escape("paddings must be non-negative: -1 0 [Op:MirrorPad]")):
        tf.pad(tf.ones([3, 4]), [[-1, 0], [0, 0]], "REFLECT")
    with pytest.raises(errors.InvalidArgumentError, match=re.escape(
            "The first dimension of paddings must be the rank of inputs[1,2], [3,4]")):
        tf.pad(tf.ones([3, 4]), [[1, 2]], "REFLECT")


def test_transpose_with_a_permutation_known_at_run_time():
    """A permutation computed in a function (from a rank only run time knows) is the op's
    input; the values and gradients are the eager ones."""
    def moved(x):
        with tf.GradientTape() as tape:
            tape.watch(x)
            perm = tf.concat([[0], tf.range(2, tf.rank(x)), [1]], 0)  # channels last
            y = tf.transpose(x, perm)
            loss = tf.reduce_sum(y * tf.cast(tf.range(tf.size(y)), y.dtype)[0] + y * y)
        return y, tape.gradient(loss, x)

    fn = tf.function(moved, input_signature=[tf.TensorSpec(None, tf.float64)])
    for shape in [(2, 3, 4), (2, 3, 4, 5)]:
        x = tf.constant(np.arange(np.prod(shape), dtype=np.float64).reshape(shape))
        for got, want in zip(fn(x), moved(x)):
            assert got.shape == want.shape
            np.testing.assert_array_equal(got.numpy(), want.numpy())
    assert fn.get_concrete_function().outputs[0].shape.rank is None


@pytest.mark.parametrize("axes, a_shape, b_shape", [
    ([[2], [0]], (3, 4, 5), (5, 2)), ([[0, 2], [1, 0]], (3, 4, 5), (5, 3, 2)),
    ([[-1, 0], [0, -1]], (3, 4, 5), (5, 2, 3)), ([[1], [1]], (3, 4), (2, 4, 5))])
@pytest.mark.parametrize("known", ["a", "b", "neither"])
def test_tensordot_with_axes_of_tensors_whose_rank_is_unknown(axes, a_shape, b_shape, known):
    """As TF: the contracted axes are moved by permutations made at run time."""
    rng = np.random.default_rng(0)
    a, b = (tf.constant(rng.standard_normal(s)) for s in (a_shape, b_shape))

    def dot(a, b):
        with tf.GradientTape() as tape:
            tape.watch([a, b])
            y = tf.tensordot(a, b, axes)
            loss = tf.reduce_sum(y * y)
        return [y, *tape.gradient(loss, [a, b])]

    specs = [tf.TensorSpec(t.shape if known == k else None, tf.float64)
             for t, k in ((a, "a"), (b, "b"))]
    for got, want in zip(tf.function(dot, input_signature=specs)(a, b), dot(a, b)):
        assert got.shape == want.shape
        np.testing.assert_allclose(got.numpy(), want.numpy(), rtol=1e-12)


@pytest.mark.parametrize("call, prefix", [
    (lambda s: tf.zeros(s), ""), (lambda s: tf.ones(s), ""),
    (lambda s: tf.random.normal(s), ""), (lambda s: tf.random.uniform(s), ""),
    (lambda s: tf.random.stateless_normal(s, [1, 2]), ""),
    (lambda s: tf.fill(s, 1.0), "Tried to convert 'dims' to a tensor and failed. Error: "),
    (lambda s: tf.reshape(tf.ones([2]), s),
     "Tried to convert 'shape' to a tensor and failed. Error: "),
    (lambda s: tf.broadcast_to(1.0, s), "Tried to convert 'shape' to a tensor and failed. "
                                        "Error: ")])
def test_a_partially_known_shape_given_as_a_shape_raises_tfs_error(call, prefix):
    # as the variational autoencoder's tf.random.normal(shape=mean.shape) with a batch unknown
    # when traced (the error was about converting None)
    # (eagerly TF's message is the conversion's alone, as for zeros)
    message = re.escape("Cannot convert a partially known TensorShape (None, 2) to a Tensor.")
    with pytest.raises(ValueError, match="^" + message):
        call(tf.TensorShape([None, 2]))
    traced = tf.function(lambda m: call(m.shape), input_signature=[tf.TensorSpec([None, 2])])
    with pytest.raises(ValueError, match=re.escape(prefix) + message):
        traced.get_concrete_function()


def test_tensor_scatter_min_max_never_take_a_nan_update():
    # an update replaces an element only when strictly smaller (larger), as in TF: a NaN
    # update is ignored, even among duplicates, and a NaN element stays NaN
    nan = float("nan")
    t = tf.constant([5., 2.])
    for fn, want in ((tf.tensor_scatter_nd_min, [1., 2.]), (tf.tensor_scatter_nd_max, [5., 2.])):
        assert fn(t, [[0]], [nan]).numpy().tolist() == [5., 2.]
        assert fn(t, [[0], [0]], [nan, 1.]).numpy().tolist() == want
        assert fn(t, [[0], [0]], [1., nan]).numpy().tolist() == want
        got = fn(tf.constant([nan, 2.], tf.float64), [[0]], [1.]).numpy()
        assert np.isnan(got[0]) and got[1] == 2.
    v = tf.Variable([1., 2.])
    v.scatter_nd_max([[0]], [nan])
    assert v.numpy().tolist() == [1., 2.]


@pytest.mark.parametrize("fn, op_name", [
    (lambda: tf.scatter_nd([[5]], [10], [4]), "ScatterNd"),
    (lambda: tf.where([True, False, True], tf.constant([1, 2]), tf.constant([3, 4])),
     "SelectV2"),
    (lambda: tf.strided_slice(tf.range(8), [0], [3], [0]), "StridedSlice"),
    (lambda: tf.strided_slice(tf.range(8), [0, 0], [1], [1]), "StridedSlice"),
])
def test_eager_errors_from_python_lists_end_without_a_name(fn, op_name):
    # TF runs these on its slower path when given a Python list: the message has the
    # kernel's function prefix and ends at the op's tag
    with pytest.raises(errors.InvalidArgumentError) as info:
        fn()
    text = str(info.value)
    assert text.startswith(f"{{{{function_node __wrapped__{op_name}_device_")
    assert text.endswith(f"[Op:{op_name}]")


def test_eager_errors_from_tensors_end_with_an_empty_name():
    with pytest.raises(errors.InvalidArgumentError) as info:
        tf.scatter_nd(tf.constant([[5]]), tf.constant([10]), tf.constant([4]))
    assert str(info.value).endswith("[Op:ScatterNd] name: ")
    with pytest.raises(errors.InvalidArgumentError) as info:
        tf.strided_slice(tf.range(8), tf.constant([0, 0]), tf.constant([1]), tf.constant([1]))
    assert str(info.value).endswith("[Op:StridedSlice] name: ")


def test_split_and_reverse_eager_errors_name_tfs_function():
    with pytest.raises(errors.InvalidArgumentError) as info:
        tf.split(tf.range(10), [3, 3])
    assert str(info.value).startswith(
        "{{function_node __wrapped__SplitV_num_split_2_device_/job:localhost/replica:0/task:0/"
        "device:CPU:0}} Determined shape must either match input shape along split_dim")
    assert str(info.value).endswith("Got: 6 [Op:SplitV] name: split")
    # an axis list: TF's slower path, whose errors end at the op's tag
    with pytest.raises(errors.InvalidArgumentError) as info:
        tf.reverse(tf.Variable(tf.ones([2, 3])), [0, 0])
    assert str(info.value).endswith("axis 0 specified more than once. [Op:ReverseV2]")
    with pytest.raises(errors.InvalidArgumentError) as info:
        tf.reverse(tf.ones([2, 3]), tf.constant([0, 0]))
    assert str(info.value).endswith("axis 0 specified more than once. [Op:ReverseV2] name: ")


def test_scatter_nd_of_strings_joins_them_and_empty_outputs_are_checked():
    got = tf.scatter_nd([[0], [0], [1]], ["a", "b", "c"], [3])
    assert got.numpy().tolist() == [b"ab", b"c", b""]
    cases = [
        (lambda: tf.scatter_nd(tf.zeros([2, 0], tf.int32), tf.ones([2, 3]), [3]),
         "} Indices and updates specified for empty output shape [Op:ScatterNd]"),
        (lambda: tf.scatter_nd([[0]], [1.], [0]),
         "} Indices and updates specified for empty output.  indices shape: [1,1] "
         "[Op:ScatterNd]"),
        (lambda: tf.scatter_nd(tf.zeros([0, 0], tf.int32), tf.ones([0, 3]), [3]),
         "} Only indices.shape[-1] values between 1 and 5 are currently supported.  "
         "Requested rank: 0 [Op:ScatterNd]"),
        (lambda: tf.tensor_scatter_nd_update(tf.constant([1, 2]), tf.zeros([1, 0], tf.int32),
                                             [[9, 9]]),
         "} Indices and updates specified for empty output shape [Op:TensorScatterUpdate]"),
        (lambda: tf.tensor_scatter_nd_update(tf.zeros([0]), [[0]], [1.]),
         "} Indices and updates specified for empty output shape [Op:TensorScatterUpdate]"),
        (lambda: tf.tensor_scatter_nd_update(tf.constant(5), tf.zeros([0], tf.int32), 1),
         "} Updates shape must have rank at least one. Found:[] [Op:TensorScatterUpdate] "
         "name: "),
    ]
    for fn, ending in cases:
        with pytest.raises(errors.InvalidArgumentError) as info:
            fn()
        assert str(info.value).endswith(ending), str(info.value)
    assert tf.scatter_nd(tf.zeros([0, 1], tf.int32), tf.zeros([0]), [0]).shape == (0,)
    with pytest.raises(ValueError, match="^tf.gather_nd does not allow negative batch_dims.$"):
        tf.gather_nd([[1, 2], [3, 4]], [[1], [0]], batch_dims=-1)


def test_reverse_and_roll_take_axes_known_at_run_time():
    x = tf.reshape(tf.range(6.0), [2, 3])

    @tf.function(input_signature=[tf.TensorSpec([], tf.int32), tf.TensorSpec([None, 3])])
    def f(axis, y):
        with tf.GradientTape() as tape:
            tape.watch(y)
            reversed_, rolled = tf.reverse(y, [axis]), tf.roll(y, axis, axis=axis)
            total = tf.reduce_sum(reversed_ * [[1.0, 2.0, 3.0]]) + tf.reduce_sum(rolled * x)
        assert reversed_.shape.as_list() == rolled.shape.as_list() == [None, 3]
        return reversed_, rolled, tape.gradient(total, y)
    reversed_, rolled, grad = f(tf.constant(1), x)
    assert reversed_.numpy().tolist() == [[2, 1, 0], [5, 4, 3]]
    assert rolled.numpy().tolist() == [[2, 0, 1], [5, 3, 4]]
    assert grad.numpy().tolist() == [[4, 4, 1], [7, 7, 4]]  # (x rolled back, plus 3, 2, 1)
    assert f(tf.constant(0), x)[0].numpy().tolist() == [[3, 4, 5], [0, 1, 2]]
    with pytest.raises(tf.errors.InvalidArgumentError, match="out of valid range"):
        f(tf.constant(2), x)
    graph_def = f.get_concrete_function().graph.as_graph_def()  # (a SavedModel writes it)
    assert {(n.op, len(n.input)) for n in graph_def.node
            if n.op in ("Roll", "ReverseV2")} == {("ReverseV2", 2), ("Roll", 3)}


def test_roll_by_a_shift_known_at_run_time_writes_tfs_node():
    f = tf.function(lambda x, n: tf.roll(x, n, 0))
    graph_def = f.get_concrete_function(tf.TensorSpec([None]), tf.TensorSpec([], tf.int32)) \
        .graph.as_graph_def()
    roll, = [n for n in graph_def.node if n.op == "Roll"]
    assert roll.input[0] == "x" and len(roll.input) == 3  # (it failed: shift known late)


def test_split_by_sizes_known_at_run_time():
    x = tf.reshape(tf.range(24.0), [2, 3, 4])

    @tf.function(input_signature=[tf.TensorSpec([], tf.int32), tf.TensorSpec([None, 3, 4])])
    def f(n, y):
        with tf.GradientTape() as tape:
            tape.watch(y)
            first, rest = tf.split(y, [1, n], axis=1)
            total = tf.reduce_sum(rest * 2.0) + tf.reduce_sum(tf.split(y, [n, -1, 1], 2)[1])
        # (TF's shape function knows no size of the split axis then, not even the constant)
        assert first.shape.as_list() == rest.shape.as_list() == [None, None, 4]
        return first, rest, tape.gradient(total, y)
    first, rest, grad = f(tf.constant(2), x)
    assert first.shape == (2, 1, 4) and rest.numpy()[0, 0].tolist() == [4, 5, 6, 7]
    assert grad.numpy()[0].tolist() == [[0, 0, 1, 0], [2, 2, 3, 2], [2, 2, 3, 2]]
    with pytest.raises(tf.errors.InvalidArgumentError, match="Determined shape must"):
        f(tf.constant(3), x)
    sizes = tf.TensorSpec([None], tf.int32)
    parts = tf.function(lambda s: tf.split(tf.range(6), s, num=3), input_signature=[sizes])
    assert [p.numpy().tolist() for p in parts(tf.constant([1, 2, 3]))] == [[0], [1, 2], [3, 4, 5]]
    with pytest.raises(ValueError, match="Cannot infer argument `num`"):
        tf.function(lambda s: tf.split(tf.range(6), s), input_signature=[sizes]) \
            .get_concrete_function()


def test_roll_checks_as_tfs_kernel():
    x = tf.reshape(tf.range(24), [2, 3, 4])
    kernel = "{{function_node __wrapped__Roll_device_/job:localhost/replica:0/task:0/device:CPU:0}} "
    with pytest.raises(InvalidArgument) as info:  # (it reported the axis out of range)
        tf.roll(tf.constant(3), 1, 0)
    assert info.value.message == kernel + "input must be 1-D or higher [Op:Roll] name: "
    with pytest.raises(InvalidArgument) as info:  # (a 2-D shift was flattened)
        tf.roll(x, [[1]], [[1]])
    assert info.value.message == (kernel + "shift must be a scalar or a 1-D vector. Found: "
                                  "[1,1] [Op:Roll]")
    with pytest.raises(InvalidArgument) as info:  # lists: TF's slower path, without the name
        tf.roll(x, [1, 2], [1])
    assert info.value.message == kernel + "shift and axis must have the same size [Op:Roll]"
    assert tf.roll(x, tf.constant([1, 2]), tf.constant([0, 1])).numpy()[0, 0].tolist() == \
        [16, 17, 18, 19]


def test_where_errors_end_without_the_name_when_given_a_list():
    # TF runs SelectV2 on its slower path then
    with pytest.raises(InvalidArgument) as info:
        tf.where([True], tf.ones([1], tf.float64), tf.ones([1]))
    assert info.value.message.endswith("[Op:SelectV2]")
    with pytest.raises(InvalidArgument) as info:
        tf.where(tf.constant([True, False]), [1.0, 2.0], tf.ones([3]))
    assert info.value.message.endswith("must be broadcastable [Op:SelectV2]")
    with pytest.raises(InvalidArgument) as info:
        tf.where(tf.constant([True, False]), tf.ones([2]), tf.ones([3]))
    assert info.value.message.endswith("must be broadcastable [Op:SelectV2] name: ")


def test_einsum_does_not_sum_an_ellipsis_the_output_lacks():
    # TF: an implicit output keeps the ellipsis only when one input has it; an output
    # without one, where inputs' ellipses cover dims, is the kernel's error (a ValueError of
    # the shape function when traced with known ranks)
    a, b = tf.ones([2, 3, 4]), tf.ones([2, 4, 5])
    assert tf.einsum("...ij,jk", a, tf.ones([4, 5])).shape == (2, 3, 5)
    assert tf.einsum("ij...", a).shape == (4, 2, 3)
    assert tf.einsum("...i,...i", tf.ones([4]), tf.ones([4])).numpy() == 4.0
    for equation in ("...ij,...jk", "...ij,...jk->ik", "...ij->ij"):
        args = (a, b) if "," in equation else (a,)
        with pytest.raises(tf.errors.InvalidArgumentError, match=re.escape(
                "Output contains 1 broadcasting dimension(s) but no ellipsis (...) was found "
                "in the output subscripts. [Op:Einsum]")):
            tf.einsum(equation, *args)
        with pytest.raises(ValueError, match=(
                r"Shape must be at most rank 0 but is rank 1\n\s*\t for einsum equation")):
            tf.function(lambda *xs: tf.einsum(equation, *xs))(*args)
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=re.escape("Expecting exactly one '->' in einsum equation: ij")):
        tf.raw_ops.Einsum(inputs=[tf.ones([2, 2])], equation="ij")
    # the gradients, which sum the ellipsis of the operands that lack it, still work
    x, y = tf.Variable(tf.ones([2, 3, 4])), tf.Variable(tf.ones([4, 5]))
    with tf.GradientTape() as tape:
        out = tf.einsum("...ij,jk->...ik", x, y)
    gx, gy = tape.gradient(out, [x, y])
    assert gx.shape == (2, 3, 4) and gy.numpy().tolist() == [[6.0] * 5] * 4


def test_gather_with_batch_dims_beyond_its_axis_fails_as_tf():
    # only an axis given as 0 gathers rows without the batch_dims (TF's Python wrapper); the
    # kernel refuses a batch_dims past the axis (-3 is axis 0 too, but reaches the kernel)
    p = tf.reshape(tf.range(24.0), [2, 3, 4])
    idx = tf.constant([[0, 1], [1, 1]])
    assert tf.gather(p, idx, axis=0, batch_dims=1).shape == (2, 2, 3, 4)
    for axis, batch_dims, message in ((1, 2, "batch_dims (2) must be less than or equal to "
                                              "axis (1)."),
                                      (-3, 1, "batch_dims (1) must be less than or equal to "
                                              "axis (0).")):
        with pytest.raises(tf.errors.InvalidArgumentError,
                           match=re.escape(message + " [Op:GatherV2]")):
            tf.gather(p, idx, axis=axis, batch_dims=batch_dims)
        with pytest.raises(tf.errors.InvalidArgumentError, match=re.escape(message)):
            tf.function(lambda: tf.gather(p, idx, axis=axis, batch_dims=batch_dims))()
    with pytest.raises(tf.errors.InvalidArgumentError, match=re.escape(
            "batch_dims (1) must be less than or equal to axis (0). [Op:GatherV2]")):
        tf.raw_ops.GatherV2(params=p, indices=idx, axis=0, batch_dims=1)
    # a variable's rows at axis 0 alone are ResourceGather's (its slices ResourceGatherNd's)
    v = tf.Variable(p)
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"\[Op:GatherV2\]"):
        tf.gather(v, [[0, 3]], axis=-2)
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"\[Op:ResourceGather\]"):
        tf.gather(v, [[0, 3]], axis=0)
    with pytest.raises(tf.errors.InvalidArgumentError, match=re.escape(
            "does not index into param shape [2,3,4], node name: ResourceGatherNd "
            "[Op:ResourceGatherNd]")):
        tf.gather_nd(v, [[5, 0]])


def test_searchsorted_of_a_scalar_fails_reading_its_last_dim_as_tf():
    for sorted_sequence, values in (([1, 2], 1), (1, [1])):
        with pytest.raises(tf.errors.InvalidArgumentError, match=re.escape(
                "slice index -1 of dimension 0 out of bounds. [Op:StridedSlice] name: "
                "strided_slice/")):
            tf.searchsorted(tf.constant(sorted_sequence), tf.constant(values))


@pytest.mark.parametrize("indices, updates, message", [
    ([[0]], [[1.0, 2.0, 3.0]], "The inner 1 dimensions of output.shape=[3,2] must match the "
                               "inner 1 dimensions of updates.shape=[1,3]"),
    ([[0]], [[1.0, 2.0], [3.0, 4.0]], "Outer dimensions of indices and update must match. "
                                      "Indices shape: [1,1], updates shape:[2,2]"),
    ([[0, 1]], [[1.0, 2.0]], "Inner dimensions of output shape must match inner dimensions of "
                             "updates shape. Output: [3,2] updates: [1,2]"),
    ([[0]], [[[1.0, 2.0]]], "Inner dimensions of output shape must match inner dimensions of "
                            "updates shape. Output: [3,2] updates: [1,1,2]")])
def test_tensor_scatter_shape_errors_in_tfs_order(indices, updates, message):
    for fn, op in ((tf.tensor_scatter_nd_update, "TensorScatterUpdate"),
                   (tf.tensor_scatter_nd_max, "TensorScatterMax")):
        with pytest.raises(tf.errors.InvalidArgumentError,
                           match=re.escape(f"{message} [Op:{op}]")):
            fn(tf.zeros([3, 2]), indices, updates)


def test_scatter_nd_checks_the_slice_dims_after_the_ranks_as_tf():
    with pytest.raises(tf.errors.InvalidArgumentError, match=re.escape(
            "Dimensions [1,2) of input[shape=[3,2]] must match dimensions [1,2) of "
            "updates[shape=[1,3]]")):
        tf.scatter_nd([[0]], [[1.0, 2.0, 3.0]], [3, 2])
    with pytest.raises(tf.errors.InvalidArgumentError, match=re.escape(
            "Dimensions [0,1) of indices[shape=[1,1]] must match dimensions [0,1) of "
            "updates[shape=[2,2]]")):
        tf.scatter_nd([[0]], [[1.0, 2.0], [3.0, 4.0]], [3, 2])


def test_gradient_of_rows_is_sparse_only_for_an_axis_given_as_0_as_tf():
    x = tf.Variable([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
    with tf.GradientTape(persistent=True) as tape:
        rows = tf.gather(x, [2, 0])
        rows_negative = tf.gather(x, [2, 0], axis=-2)
        repeated = tf.repeat(x, [1, 0, 2], axis=0)
    assert isinstance(tape.gradient(rows, x), tf.IndexedSlices)
    assert not isinstance(tape.gradient(rows_negative, x), tf.IndexedSlices)
    grad = tape.gradient(repeated, x)  # (TF's repeat tiles and masks: a dense gradient)
    assert not isinstance(grad, tf.IndexedSlices)
    assert grad.numpy().tolist() == [[1.0, 1.0], [0.0, 0.0], [2.0, 2.0]]


@pytest.mark.parametrize("sorted_, values", [([True, False], [True]),
                                             ([1 + 1j], [1 + 1j]), (["a", "b"], ["a"])])
def test_searchsorted_of_types_without_a_kernel_is_not_found(sorted_, values):
    with pytest.raises(tf.errors.NotFoundError,
                       match=r"^Could not find device for node: \{\{node LowerBound\}\} = "
                             r"LowerBound\[T=DT_"):
        tf.searchsorted(sorted_, values)
    with pytest.raises(tf.errors.NotFoundError, match=r"\{\{node UpperBound\}\}"):
        tf.raw_ops.UpperBound(sorted_inputs=[sorted_], values=[values])
    f = tf.function(lambda a, b: tf.searchsorted(a, b))
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match="No OpKernel was registered to support Op 'LowerBound'"):
        f(tf.constant(sorted_), tf.constant(values))


def test_concat_along_an_axis_known_at_run_time():
    @tf.function(input_signature=[tf.TensorSpec([2, 3]), tf.TensorSpec([], tf.int32)])
    def f(x, n):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = tf.concat([x, 3.0 * x], axis=n)
            loss = tf.reduce_sum(y * y)
        assert y.shape.as_list() == [None, None]  # TF knows the rank only
        return y, tape.gradient(loss, x)
    x = tf.reshape(tf.range(6.0), [2, 3])
    y, dx = f(x, tf.constant(-1))
    assert y.numpy().tolist() == [[0, 1, 2, 0, 3, 6], [3, 4, 5, 9, 12, 15]]
    np.testing.assert_allclose(dx.numpy(), 20.0 * x.numpy())
    assert f(x, tf.constant(0))[0].shape == (4, 3)
    nodes = [n for n in f.get_concrete_function().graph.as_graph_def().node
             if n.op == "ConcatV2"]
    assert [list(n.input) for n in nodes] == [["x", "mul", "n"]]
    assert sorted(nodes[0].attr) == ["N", "T", "Tidx"]
    g = tf.function(lambda x, n: tf.concat([x, x], n), input_signature=[
        tf.TensorSpec([2, 3]), tf.TensorSpec([], tf.float32)])
    with pytest.raises(TypeError, match="Value passed to parameter 'axis' has DataType "
                                        "float32 not in list of allowed values: int32, int64"):
        g.get_concrete_function()
    h = tf.function(lambda x, n: tf.concat([x, x], n), input_signature=[
        tf.TensorSpec([]), tf.TensorSpec([], tf.int32)])
    with pytest.raises(ValueError, match=r"Can't concatenate scalars"):
        h.get_concrete_function()


@pytest.mark.parametrize("run,ending", [
    (lambda: tf.concat([[[1]], [1]], 0), "[Op:ConcatV2]"),
    (lambda: tf.concat([tf.constant([[1]]), tf.constant([1])], 0), "[Op:ConcatV2] name: concat"),
    (lambda: tf.stack([[1, 2], [1]]), "[Op:Pack]"),
    (lambda: tf.stack([tf.constant([1, 2]), tf.constant([1])]), "[Op:Pack] name: stack"),
    (lambda: tf.strings.join([["a", "b"], ["x"]]), "[Op:StringJoin]"),
    (lambda: tf.strings.join([tf.constant(["a", "b"]), ["x"]]), "[Op:StringJoin]"),
    (lambda: tf.strings.join([tf.constant(["a", "b"]), tf.constant(["x"])]),
     "[Op:StringJoin] name: "),
])
def test_list_inputs_holding_python_lists_fail_without_the_name(run, ending):
    """TF's wrappers of concat, stack and strings.join run the op on its slower path when
    a Python list is among the values: its errors end at the op's tag."""
    with pytest.raises(InvalidArgument) as info:
        run()
    assert info.value.message.endswith(ending)


def test_split_along_an_axis_known_at_run_time():
    @tf.function(input_signature=[tf.TensorSpec([3, 4]), tf.TensorSpec([], tf.int32)])
    def f(x, axis):
        with tf.GradientTape() as tape:
            tape.watch(x)
            a, b = tf.split(x, 2, axis=axis)
            loss = tf.reduce_sum(2.0 * a) + tf.reduce_sum(b)
        assert a.shape.as_list() == [None, None]  # TF knows the rank only
        return a, b, tape.gradient(loss, x)
    x = tf.reshape(tf.range(12.0), [3, 4])
    a, b, dx = f(x, tf.constant(-1))
    assert a.numpy().tolist() == [[0, 1], [4, 5], [8, 9]]
    assert b.shape == (3, 2)
    assert dx.numpy().tolist() == [[2, 2, 1, 1]] * 3
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match="Number of ways to split should evenly divide the split dimension"):
        f(x, tf.constant(0))
    nodes = [n for n in f.get_concrete_function().graph.as_graph_def().node if n.op == "Split"]
    assert [list(n.input) for n in nodes] == [["axis", "x"]]
    g = tf.function(lambda x, axis: tf.split(x, [1, -1], axis), input_signature=[
        tf.TensorSpec([3, 4]), tf.TensorSpec([], tf.int32)])
    assert [t.shape for t in g(x, tf.constant(0))] == [(1, 4), (2, 4)]
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"-input rank\(-2\) <= split_dim < input rank \(2\), but got 5"):
        g(x, tf.constant(5))
    h = tf.function(lambda x, axis: tf.split(x, 2, axis), input_signature=[
        tf.TensorSpec([3, 4]), tf.TensorSpec([], tf.int64)])
    with pytest.raises(TypeError, match="Input 'split_dim' of 'Split' Op has type int64 that "
                                        "does not match expected type of int32"):
        h.get_concrete_function()


def test_parallel_stack_and_guarantee_const_are_tfs_ops_without_gradients():
    @tf.function(input_signature=[tf.TensorSpec([2])])
    def f(x):
        stacked = tf.parallel_stack([x, 2.0 * x])
        kept = tf.guarantee_const(tf.constant([1, 2]))
        # TF knows no value of either before run time, even of constants
        assert tf.get_static_value(tf.parallel_stack([1.0, 2.0])) is None
        assert tf.get_static_value(kept) is None
        return stacked, kept
    stacked, kept = f(tf.constant([1.0, 2.0]))
    assert stacked.numpy().tolist() == [[1, 2], [2, 4]] and kept.numpy().tolist() == [1, 2]
    ops = [n.op for n in f.get_concrete_function().graph.as_graph_def().node]
    assert ops.count("ParallelConcat") == 2 and ops.count("GuaranteeConst") == 1
    unknown = tf.function(lambda x: tf.parallel_stack([x, x]),
                          input_signature=[tf.TensorSpec([None])])
    with pytest.raises(ValueError, match="shape attr must be fully defined"):
        unknown.get_concrete_function()
    x = tf.constant([1.0, 2.0])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.reduce_sum(tf.guarantee_const(x))
    with pytest.raises(LookupError, match="gradient registry has no entry for: GuaranteeConst"):
        tape.gradient(y, x)

    @tf.function
    def g(x):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = tf.reduce_sum(tf.parallel_stack([x, x]))
        return tape.gradient(y, x)
    with pytest.raises(Exception, match="LookupError: gradient registry has no entry for: "
                                        "ParallelConcat") as raised:
        g(x)
    assert type(raised.value).__name__ == "StagingError"  # (TF's, for an error while tracing)


def test_raw_split_v_along_an_axis_known_at_run_time_with_constant_sizes():
    x = tf.reshape(tf.range(8.0), [2, 4])
    f = tf.function(lambda a: tf.raw_ops.SplitV(value=x, size_splits=[1, 3], axis=a,
                                                num_split=2),
                    input_signature=[tf.TensorSpec([], tf.int32)])
    a, b = f(tf.constant(1))
    assert a.numpy().tolist() == [[0], [4]] and b.shape == (2, 3)


def test_searchsorted_of_bfloat16_infinities():
    # TF 2.21: +inf goes past every finite value, -inf before them, NaN first (left) or last
    s = tf.constant([-2.0, -1.0, 0.0, 1.0, 2.0, 3.0], tf.bfloat16)
    v = tf.constant([np.nan, np.inf, -np.inf, 0.5, 3.0, 100.0], tf.bfloat16)
    assert tf.searchsorted(s, v).numpy().tolist() == [0, 6, 0, 3, 5, 6]
    assert tf.searchsorted(s, v, side="right").numpy().tolist() == [6, 6, 0, 3, 6, 6]
