"""Elementwise math: broadcasting and dtype properties, errors, TF-specific semantics."""
import subprocess
import sys

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st
from hypothesis.extra import numpy as hnp

import eagerflow as tf
from eagerflow._src.ops import math_ops as m
from eagerflow._src.ops.shape_rules import broadcast_shapes

_DTYPES = [np.float32, np.float64, np.int32, np.int64, np.int8, np.uint8]


@settings(max_examples=60, deadline=None)
@given(shapes=hnp.mutually_broadcastable_shapes(num_shapes=2, max_dims=4, max_side=4),
       dtype=st.sampled_from(_DTYPES), op=st.sampled_from(["add", "subtract", "multiply",
                                                           "maximum", "minimum"]))
def test_broadcasting_matches_numpy(shapes, dtype, op):
    a_shape, b_shape = shapes.input_shapes
    rng = np.random.default_rng(0)
    a = rng.integers(0, 50, a_shape).astype(dtype)
    b = rng.integers(0, 50, b_shape).astype(dtype)
    got = getattr(m, op)(a, b)
    want = getattr(np, op)(a, b)
    assert got.dtype == tf.as_dtype(dtype)
    np.testing.assert_array_equal(got.numpy(), want)
    assert broadcast_shapes(tf.TensorShape(a_shape), tf.TensorShape(b_shape)) == want.shape


@settings(max_examples=40, deadline=None)
@given(shape=hnp.array_shapes(max_dims=3, max_side=4),
       value=st.one_of(st.integers(-100, 100), st.floats(-100, 100, width=32)),
       dtype=st.sampled_from([np.float32, np.float64, np.float16]))
def test_python_scalars_adopt_float_tensor_dtype(shape, value, dtype):
    x = tf.constant(np.ones(shape, dtype))
    for result in (x + value, value * x, x - value, value / x if value else x):
        assert result.dtype == tf.as_dtype(dtype) and result.shape == shape


@settings(max_examples=40, deadline=None)
@given(a=st.sampled_from(_DTYPES), b=st.sampled_from(_DTYPES))
def test_mixed_tensor_dtypes_never_promote(a, b):
    x, y = tf.constant(np.ones(2, a)), tf.constant(np.ones(2, b))
    if a == b:
        assert (x + y).dtype == tf.as_dtype(a)
    else:
        with pytest.raises(tf.errors.InvalidArgumentError, match=r"\[Op:AddV2\]"):
            x + y


def test_broadcast_shapes_with_unknown_dims():
    assert broadcast_shapes(tf.TensorShape([None, 3]), tf.TensorShape([3])) == [None, 3]
    assert broadcast_shapes(tf.TensorShape([None, 1]), tf.TensorShape([1, 4])) == [None, 4]
    assert broadcast_shapes(tf.TensorShape(None), tf.TensorShape([2])).rank is None
    with pytest.raises(tf.errors.InvalidArgumentError, match="Incompatible shapes"):
        broadcast_shapes(tf.TensorShape([2]), tf.TensorShape([3]))


def test_incompatible_shapes_error_names_op_and_shapes():
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"Incompatible shapes: \[2\] vs. \[3\] \[Op:AddV2\]"):
        m.add(tf.constant([1.0, 2.0]), tf.constant([1.0, 2.0, 3.0]))


def test_disallowed_dtype_names_op():
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"Value for attr 'T' of int32 is not in the list of allowed values.*"
                             r"\[Op:Sqrt\]"):
        m.sqrt(tf.constant(4))


def test_integer_division_by_zero():
    for fn in (m.floordiv, m.floormod, m.truncatediv):
        with pytest.raises(tf.errors.InvalidArgumentError, match="Integer division by zero"):
            fn(tf.constant([1, 2]), tf.constant([1, 0]))
    assert m.floordiv(1.0, 0.0).numpy() == np.inf  # floats follow IEEE, silently


def test_kernels_raise_no_numpy_warnings():
    # A user's plain script (not under pytest, which resets warning filters) sees none.
    code = ("import eagerflow as tf\n"
            "tf.math.log(tf.constant([0.0, -1.0])); tf.math.divide(tf.constant([1.0]), 0.0)\n"
            "tf.math.sqrt(tf.constant([-1.0])); tf.math.multiply_no_nan(float('inf'), 0.0)\n"
            "tf.math.floordiv(1.0, 0.0)\n")
    proc = subprocess.run([sys.executable, "-W", "default", "-c", code], capture_output=True,
                          text=True, check=True)
    assert "Warning" not in proc.stderr, proc.stderr


def test_special_values():
    np.testing.assert_allclose(m.sigmoid(tf.constant([-1000.0, 0.0, 1000.0])).numpy(),
                               [0.0, 0.5, 1.0])
    np.testing.assert_allclose(m.softplus(tf.constant([1000.0])).numpy(), [1000.0])
    assert m.round(tf.constant([2.5, -2.5, 1.5])).numpy().tolist() == [2.0, -2.0, 2.0]
    assert m.truncatediv(tf.constant([-7, 7]), tf.constant([2, -2])).numpy().tolist() == [-3, -3]
    assert m.divide_no_nan(tf.constant(1.0), tf.constant(0.0)).numpy() == 0.0
    assert m.multiply_no_nan(tf.constant(np.inf), tf.constant(0.0)).numpy() == 0.0
    assert m.logical_xor(True, False).numpy() and not m.logical_xor(True, True).numpy()
    assert m.abs(tf.constant(3 + 4j)).dtype == tf.float64
    np.testing.assert_allclose(m.sign(tf.constant([3 + 4j, 0j])).numpy(), [0.6 + 0.8j, 0j])
    assert m.reciprocal(tf.constant([2, 1, -1])).numpy().tolist() == [0, 1, -1]


def test_sign_and_neg_reject_bool_and_unsigned():
    with pytest.raises(tf.errors.InvalidArgumentError):
        m.negative(tf.constant([1], tf.uint8))


# -- how operands convert (TF's rules, which differ between functions and operators) -------

_INT = tf.constant([1, 2])


@pytest.mark.parametrize("fn", [
    lambda: _INT * 0.5, lambda: 0.5 * _INT, lambda: _INT - 1.5, lambda: 1.5 + _INT,
    lambda: _INT / 1.5, lambda: 2.5 / _INT, lambda: _INT < 1.5, lambda: m.multiply(2.5, _INT),
    lambda: m.maximum(_INT, 1.5), lambda: m.subtract(2, 3.5), lambda: m.logical_and(True, 1),
])
def test_python_values_must_take_the_tensor_dtype(fn):
    with pytest.raises(TypeError, match="Cannot convert|must have the same dtype"):
        fn()


def test_add_converts_y_only_where_it_can():
    # add/`+` converts x alone and y to x's dtype if possible: the op reports the mismatch.
    for fn in (lambda: _INT + 1.5, lambda: m.add(_INT, 1.5), lambda: m.add(1.5, _INT),
               lambda: m.add(2, tf.constant([1.0]))):
        with pytest.raises(tf.errors.InvalidArgumentError, match=r"\[Op:AddV2\]"):
            fn()
    assert (tf.constant([5], tf.uint8) + 300).numpy().tolist() == [49]  # wraps, as TF


def test_python_bools_convert_to_some_numeric_types():
    assert (_INT + True).numpy().tolist() == [2, 3]
    assert (True - tf.constant([1.0])).numpy().tolist() == [0.0]
    assert tf.constant(True, tf.float64).numpy() == 1.0
    with pytest.raises(TypeError):
        tf.constant(True, tf.uint8)  # TF converts bools to few types
    with pytest.raises(tf.errors.InvalidArgumentError):
        tf.constant([1], tf.int8) + True


def test_numpy_values_are_cast_to_the_tensor_dtype():
    assert (_INT * np.array([1.5, 2.5])).numpy().tolist() == [1, 4]
    assert (tf.constant([1.0]) + np.float64(0.5)).dtype == tf.float32


def test_bool_tensors_multiply_as_int32():
    b = tf.constant([True, False])
    assert (b * 2).numpy().tolist() == [True, False]
    assert (b * tf.constant([1.0, 1.0])).dtype == tf.bool
    assert (b * 2**40).numpy().tolist() == [False, False]  # 2**40 as int32 is 0
    with pytest.raises(TypeError):
        2 * b
    with pytest.raises(tf.errors.InvalidArgumentError):
        m.multiply(b, b)


def test_division_dtypes():
    assert m.divide_no_nan(tf.constant([1, 2]), 0).dtype == tf.float64
    assert m.divide_no_nan(tf.constant([1], tf.int8), 2).dtype == tf.float32
    assert m.divide(2, tf.constant([4])).numpy().tolist() == [0.5]
    with pytest.raises(TypeError, match=r"Invalid dtype tf.bool in __truediv__"):
        tf.constant([True]) / tf.constant([True])


def test_float_floormod_has_the_sign_of_y():
    got = m.floormod(tf.constant([1.0, -2.0, 7.0, -7.0]), tf.constant([-1.0, 2.0, -2.0, 2.0]))
    assert [str(v) for v in got.numpy()] == ["0.0", "-0.0", "-1.0", "1.0"]


def test_string_scalars_concatenate():
    assert (tf.constant("a") + "b").numpy() == b"ab"
    assert m.add(tf.constant(["a"]), tf.constant(["c"])).numpy().tolist() == [b"ac"]


def test_complex_parts():
    c = m.complex(tf.constant([1.0]), tf.constant([2.0]))
    assert c.dtype == tf.complex64 and m.real(c).numpy().tolist() == [1.0]
    assert m.imag(tf.constant([3])).numpy().tolist() == [0]
    assert m.conj(tf.constant([1.5])).numpy().tolist() == [1.5]
    with pytest.raises(TypeError, match="incorrect types"):
        m.complex(1, 2)
    with pytest.raises(TypeError, match="Expected numeric"):
        m.conj(tf.constant([True]))


def test_saturate_cast_ranges():
    from eagerflow._src.ops.cast_ops import saturate_cast
    big = tf.constant([1e40 + 1j], tf.complex128)
    assert saturate_cast(big, tf.complex64).numpy()[0].real == np.finfo(np.float32).max
    with pytest.raises(TypeError, match="Cannot find minimum value of <dtype: 'bool'>"):
        saturate_cast(tf.constant([True]), tf.float32)
    with pytest.raises(TypeError, match="Cannot find minimum value of <dtype: 'string'>"):
        saturate_cast(tf.constant([1.0]), tf.string)


def test_identities():
    from eagerflow._src.ops import cast_ops
    assert cast_ops.stop_gradient([1, 2]).numpy().tolist() == [1, 2]
    assert [t.dtype for t in cast_ops.identity_n([1, 2.0])] == [tf.int32, tf.float32]
    assert cast_ops.ensure_shape(tf.zeros([2, 3]), [None, 3]).shape == (2, 3)
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"input \[2,3\] is not compatible with expected shape \[\?,4\]"):
        cast_ops.ensure_shape(tf.zeros([2, 3]), [None, 4])


def test_small_math_composites():
    assert m.scalar_mul(2, tf.constant([1.5])).numpy().tolist() == [3.0]
    with pytest.raises(ValueError, match="must be a 0-D value"):
        m.scalar_mul(tf.constant([2.0]), tf.constant([1.0]))
    assert m.zero_fraction(tf.constant([0, 1, 0, 3])).numpy() == 0.5
    assert m.is_non_decreasing([1, 1, 2]).numpy() and not m.is_strictly_increasing([1, 1]).numpy()
    assert m.polyval([1, 2], tf.constant(3)).numpy() == 5
    assert m.invert_permutation([2, 0, 1]).numpy().tolist() == [1, 2, 0]
    with pytest.raises(tf.errors.InvalidArgumentError, match="0 is duplicated"):
        m.invert_permutation([0, 0])
    assert m.reciprocal_no_nan(tf.constant([0.0, 4.0])).numpy().tolist() == [0.0, 0.25]
    assert m.truncatemod(tf.constant([-7, 7]), 3).numpy().tolist() == [-1, 1]
