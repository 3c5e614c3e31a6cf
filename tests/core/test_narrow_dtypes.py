"""TF's experimental narrow dtypes (float8, int4, ...) from ml_dtypes: DType properties,
conversions, casts, printing, and TF's errors for the ops without kernels for them (values
and messages as TF 2.21 gives them)."""
import ml_dtypes
import numpy as np
import pytest

import eagerflow as tf
from eagerflow import errors

E = tf.dtypes.experimental
NAMES = ["float8_e5m2", "float8_e4m3fn", "float8_e4m3fnuz", "float8_e4m3b11fnuz",
         "float8_e5m2fnuz", "int4", "uint4", "int2", "uint2", "float4_e2m1fn"]


@pytest.mark.parametrize("enum, name", list(enumerate(NAMES, 24)))
def test_dtype_properties(enum, name):
    d = getattr(E, name)
    assert getattr(tf.experimental, name) is d and not hasattr(tf.dtypes, name)
    assert (repr(d), str(d), d.name, d.size, d.as_datatype_enum) == (
        f"tf.{name}", f"<dtype: '{name}'>", name, 1, enum)
    assert d.as_numpy_dtype is getattr(ml_dtypes, name)
    assert d.is_floating == name.startswith("float") and d.is_integer != d.is_floating
    assert d.is_unsigned == name.startswith("u")
    assert not d.is_numeric and not d.is_quantized and d.is_numpy_compatible
    assert d.real_dtype is d and d.base_dtype is d
    for alias in (name, getattr(ml_dtypes, name), np.dtype(getattr(ml_dtypes, name)), enum):
        assert tf.as_dtype(alias) is d
    assert d == name and d != tf.float32
    with pytest.raises(ValueError, match="does not have defined limits"):
        d.limits


def test_dtype_limits():
    assert (E.float8_e4m3fn.min, E.float8_e4m3fn.max) == (-448, 448)
    assert isinstance(E.float8_e4m3fn.min, ml_dtypes.float8_e4m3fn)
    assert (E.float8_e5m2.min, E.float8_e5m2.max) == (-57344, 57344)
    assert (E.int4.min, E.int4.max, E.uint4.min, E.uint4.max) == (-8, 7, 0, 15)
    assert type(E.int4.min) is int and (E.int2.min, E.int2.max) == (-2, 1)
    assert E.float4_e2m1fn.min == -6


def test_constants_round_and_print_as_tf():
    x = tf.constant([0.1, 1e5, -1e5, float("nan"), float("inf")], E.float8_e4m3fn)
    assert str(x) == ("tf.Tensor([0.101562 nan nan nan nan], shape=(5,), "
                      "dtype=float8_e4m3fn)")
    assert str(tf.constant([0.1, 1e5, -1e5, float("nan"), float("inf")], E.float8_e5m2)) == (
        "tf.Tensor([0.09375 inf -inf nan inf], shape=(5,), dtype=float8_e5m2)")
    assert repr(tf.constant(np.array([[1.5, 2], [3, 4]]), E.float8_e5m2)) == (
        "<tf.Tensor: shape=(2, 2), dtype=float8_e5m2, numpy=\n"
        "array([[1.5, 2],\n       [3, 4]], dtype='float8_e5m2')>")
    assert repr(tf.constant([9, -9], E.int4)) == (
        "<tf.Tensor: shape=(2,), dtype=int4, numpy=array([-7, 7], dtype=int4)>")
    assert repr(tf.constant(np.int32(20), E.uint4)) == (
        "<tf.Tensor: shape=(), dtype=uint4, numpy=4>")
    assert repr(tf.Variable(tf.constant([1.5], E.float8_e4m3fn))) == (
        "<tf.Variable 'Variable:0' shape=(1,) dtype=float8_e4m3fn, "
        "numpy=array([1.5], dtype='float8_e4m3fn')>")


@pytest.mark.parametrize("value, dtype, message", [
    ([1, -2], E.float8_e4m3fn, "Error while casting from dtype int64 to float8_e4m3fn."),
    ([1.5], E.float8_e5m2fnuz, "Error while casting from dtype double to float8_e5m2fnuz."),
    (3, E.int2, "Error while casting from dtype int64 to int2."),
    (2.5, E.float4_e2m1fn, "Error while casting from dtype double to float4_e2m1fn."),
    ([1.5, 2.0], E.int4, r"Cannot convert \[1.5, 2.0\] to EagerTensor of dtype int4"),
])
def test_python_values_that_tf_cannot_convert(value, dtype, message):
    with pytest.raises(TypeError, match=message):
        tf.constant(value, dtype)


def test_zeros_and_ones():
    assert tf.zeros([2], E.int4).numpy().tolist() == [0, 0]
    assert tf.ones([2], E.uint4).numpy().tolist() == [1, 1]
    with pytest.raises(TypeError, match="Error while casting from dtype int64 to float8_e4m3fn"):
        tf.zeros([2], E.float8_e4m3fn)


def test_cast_matrix():
    x = tf.constant([1.5, -2.25, 300.0, 1e-3, 0.1])
    assert tf.cast(x, E.float8_e4m3fn).numpy().astype(np.float32).tolist() == [
        1.5, -2.25, 288.0, 0.001953125, 0.1015625]
    assert tf.cast(x, E.float8_e5m2).numpy().astype(np.float32).tolist() == [
        1.5, -2.0, 320.0, 0.0009765625, 0.09375]
    f8 = tf.constant([1.5, -2.0, 3.0], E.float8_e4m3fn)
    for dtype, want in [(tf.float32, [1.5, -2.0, 3.0]), (tf.int32, [1, -2, 3]),
                        (tf.bool, [True, True, True]), (tf.float64, [1.5, -2.0, 3.0]),
                        (tf.bfloat16, [1.5, -2.0, 3.0]), (E.float8_e5m2, [1.5, -2.0, 3.0])]:
        got = tf.cast(f8, dtype)
        assert got.dtype == dtype and got.numpy().tolist() == want
    assert tf.cast(tf.constant([1, -2, 7, 0, 9]), E.int4).numpy().tolist() == [1, -2, 7, 0, -7]
    assert tf.cast(tf.constant([1, -2, 7, 0, 9]), E.uint4).numpy().tolist() == [1, 14, 7, 0, 9]
    assert tf.cast(tf.constant([-3], E.int4), E.uint4).numpy().tolist() == [13]
    assert tf.cast(tf.constant([-3], E.int4), tf.int64).numpy().tolist() == [-3]
    for src, dst, words in [(tf.int32, E.float8_e4m3fn, "int32 to float8_e4m3fn"),
                            (tf.float32, E.int4, "float to int4"),
                            (E.int4, tf.float32, "int4 to float"),
                            (E.float8_e4m3fn, E.int4, "float8_e4m3fn to int4"),
                            (tf.float32, E.float8_e4m3fnuz, "float to float8_e4m3fnuz"),
                            (E.int4, tf.bool, "int4 to bool")]:
        with pytest.raises(errors.UnimplementedError, match=f"Cast {words} is not supported"):
            tf.cast(tf.constant(np.array([1], src.as_numpy_dtype)), dst)


def test_ops_with_and_without_kernels():
    f8 = tf.constant([1.5, -2.0, 3.0], E.float8_e4m3fn)
    i4 = tf.constant([1, -2, 3], E.int4)
    # moves of elements TF has kernels for
    assert tf.reshape(f8, [3, 1]).dtype == E.float8_e4m3fn
    assert tf.concat([f8, f8], 0).numpy().astype(float).tolist() == [1.5, -2, 3, 1.5, -2, 3]
    assert tf.gather(f8, [2, 0]).numpy().astype(float).tolist() == [3.0, 1.5]
    assert tf.transpose(tf.reshape(f8, [1, 3])).shape == (3, 1)
    assert f8[::-1].numpy().astype(float).tolist() == [3.0, -2.0, 1.5]
    assert tf.stack([f8, f8]).shape == (2, 3)
    assert tf.identity(i4).numpy().tolist() == [1, -2, 3]
    assert tf.reshape(i4, [3, 1]).shape == (3, 1)
    v = tf.Variable(i4)
    v.assign(tf.constant([0, 1, 2], E.int4))
    assert v.numpy().tolist() == [0, 1, 2]
    assert tf.function(lambda t: tf.cast(t, tf.float32))(f8).numpy().tolist() == [1.5, -2, 3]
    # arithmetic: TF's type lists
    with pytest.raises(errors.InvalidArgumentError,
                       match="Value for attr 'T' of float8_e4m3fn is not in the list"):
        f8 + f8
    with pytest.raises(errors.InvalidArgumentError,
                       match="Value for attr 'T' of int4 is not in the list"):
        tf.reduce_sum(i4)
    # ops allowing every type, without kernels for these
    for fn, node in [(lambda: tf.equal(f8, f8), "Equal"), (lambda: tf.pad(f8, [[1, 0]]), "Pad"),
                     (lambda: tf.where([True, False, True], f8, f8), "SelectV2"),
                     (lambda: tf.concat([i4, i4], 0), "ConcatV2"),
                     (lambda: tf.gather(i4, [0]), "GatherV2"),
                     (lambda: tf.Variable(f8).assign_add(f8), "AssignAddVariableOp")]:
        with pytest.raises(errors.NotFoundError, match=r"Could not find device for node: "
                                                       r"\{\{node " + node + r"\}\}"):
            fn()


def test_print(capsys):
    tf.print(tf.constant([0.1, 1e5, 300.0], E.float8_e5m2),
             tf.constant([[1, -2], [3, 4]], E.int4))
    assert capsys.readouterr().err == "[0.09375 inf 320] [[1 -2]\n [3 4]]\n"
