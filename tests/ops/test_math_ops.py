"""Elementwise math: broadcasting and dtype properties, errors, TF-specific semantics."""
import re
import subprocess
import sys

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st
from hypothesis.extra import numpy as hnp

import eagerflow as tf
from tests.internals import broadcast_shapes, math_ops as m
from tests.op_errors import op_text

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
        tf.add(tf.constant([1.0, 2.0]), tf.constant([1.0, 2.0, 3.0]))


def test_disallowed_dtype_names_op():
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"Value for attr 'T' of int32 is not in the list of allowed values: "
                             r"bfloat16, half, float, double, complex64, complex128\n\t; "
                             r"NodeDef: \{\{node Sqrt\}\}; Op<name=Sqrt> \[Op:Sqrt\]"):
        tf.sqrt(tf.constant(4))


def test_fixed_type_inputs_name_the_input_not_a_type_attr():
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"^cannot compute LogicalAnd as input #0\(zero-based\) was expected "
                             r"to be a bool tensor but is a int32 tensor \[Op:LogicalAnd\] "
                             r"name: $"):
        tf.logical_and(tf.constant([1]), tf.constant([True]))
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"^cannot compute StringLength as input #0\(zero-based\) was "
                             r"expected to be a string tensor but is a int32 tensor"):
        tf.strings.length(tf.constant(1))


def test_integer_division_by_zero():
    for fn in (tf.math.floordiv, tf.math.floormod):
        with pytest.raises(tf.errors.InvalidArgumentError, match="Integer division by zero"):
            fn(tf.constant([1, 2]), tf.constant([1, 0]))
    # TF's truncating kernels fail otherwise, with an InternalError
    for fn in (tf.truncatediv, tf.truncatemod, tf.function(tf.truncatediv)):
        with pytest.raises(tf.errors.InternalError, match=r"Unexpected error in binary "
                           r"operator \(only integer div and mod should have errors\)"):
            fn(tf.constant([1, 2]), tf.constant([1, 0]))
    assert tf.math.floordiv(1.0, 0.0).numpy() == np.inf  # floats follow IEEE, silently


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
    np.testing.assert_allclose(tf.sigmoid(tf.constant([-1000.0, 0.0, 1000.0])).numpy(),
                               [0.0, 0.5, 1.0])
    np.testing.assert_allclose(tf.math.softplus(tf.constant([1000.0])).numpy(), [1000.0])
    assert tf.round(tf.constant([2.5, -2.5, 1.5])).numpy().tolist() == [2.0, -2.0, 2.0]
    assert tf.truncatediv(tf.constant([-7, 7]), tf.constant([2, -2])).numpy().tolist() == [-3, -3]
    assert tf.math.divide_no_nan(tf.constant(1.0), tf.constant(0.0)).numpy() == 0.0
    assert tf.math.multiply_no_nan(tf.constant(np.inf), tf.constant(0.0)).numpy() == 0.0
    assert tf.math.logical_xor(True, False).numpy() and not tf.math.logical_xor(True, True).numpy()
    assert tf.abs(tf.constant(3 + 4j)).dtype == tf.float64
    np.testing.assert_allclose(tf.sign(tf.constant([3 + 4j, 0j])).numpy(), [0.6 + 0.8j, 0j])


def test_sign_and_neg_reject_bool_and_unsigned():
    with pytest.raises(tf.errors.InvalidArgumentError):
        tf.negative(tf.constant([1], tf.uint8))


# -- how operands convert (TF's rules, which differ between functions and operators) -------

_INT = tf.constant([1, 2])


@pytest.mark.parametrize("fn", [
    lambda: _INT * 0.5, lambda: 0.5 * _INT, lambda: _INT - 1.5, lambda: 1.5 + _INT,
    lambda: _INT / 1.5, lambda: 2.5 / _INT, lambda: _INT < 1.5, lambda: tf.multiply(2.5, _INT),
    lambda: tf.maximum(_INT, 1.5), lambda: tf.subtract(2, 3.5), lambda: tf.logical_and(True, 1),
])
def test_python_values_must_take_the_tensor_dtype(fn):
    with pytest.raises(TypeError, match="Cannot convert|must have the same dtype"):
        fn()


def test_add_converts_y_only_where_it_can():
    # add/`+` converts x alone and y to x's dtype if possible: the op reports the mismatch.
    for fn in (lambda: _INT + 1.5, lambda: tf.add(_INT, 1.5), lambda: tf.add(1.5, _INT),
               lambda: tf.add(2, tf.constant([1.0]))):
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
        tf.multiply(b, b)


def test_division_dtypes():
    assert tf.math.divide_no_nan(tf.constant([1, 2]), 0).dtype == tf.float64
    assert tf.math.divide_no_nan(tf.constant([1], tf.int8), 2).dtype == tf.float32
    assert tf.divide(2, tf.constant([4])).numpy().tolist() == [0.5]
    with pytest.raises(TypeError, match=r"Invalid dtype tf.bool in __truediv__"):
        tf.constant([True]) / tf.constant([True])


def test_float_floormod_has_the_sign_of_y():
    got = tf.math.floormod(tf.constant([1.0, -2.0, 7.0, -7.0]), tf.constant([-1.0, 2.0, -2.0, 2.0]))
    assert [str(v) for v in got.numpy()] == ["0.0", "-0.0", "-1.0", "1.0"]


def test_string_scalars_concatenate():
    assert (tf.constant("a") + "b").numpy() == b"ab"
    assert tf.add(tf.constant(["a"]), tf.constant(["c"])).numpy().tolist() == [b"ac"]


def test_complex_parts():
    c = tf.complex(tf.constant([1.0]), tf.constant([2.0]))
    assert c.dtype == tf.complex64 and tf.math.real(c).numpy().tolist() == [1.0]
    assert tf.math.imag(tf.constant([3])).numpy().tolist() == [0]
    assert tf.math.conj(tf.constant([1.5])).numpy().tolist() == [1.5]
    with pytest.raises(TypeError, match="incorrect types"):
        tf.complex(1, 2)
    with pytest.raises(TypeError, match="Expected numeric"):
        tf.math.conj(tf.constant([True]))


def test_saturate_cast_ranges():
    from eagerflow import saturate_cast
    big = tf.constant([1e40 + 1j], tf.complex128)
    assert saturate_cast(big, tf.complex64).numpy()[0].real == np.finfo(np.float32).max
    with pytest.raises(TypeError, match="Cannot find minimum value of <dtype: 'bool'>"):
        saturate_cast(tf.constant([True]), tf.float32)
    with pytest.raises(TypeError, match="Cannot find minimum value of <dtype: 'string'>"):
        saturate_cast(tf.constant([1.0]), tf.string)


def test_identities():
    assert tf.stop_gradient([1, 2]).numpy().tolist() == [1, 2]
    assert [t.dtype for t in tf.identity_n([1, 2.0])] == [tf.int32, tf.float32]
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match="Length for attr 'T' of 0 must be at least minimum 1"):
        tf.identity_n([])
    with pytest.raises(ValueError, match="'IdentityN' Op passed list of length 0 less than"):
        tf.function(lambda: tf.identity_n([]))()
    assert [int(t) for t in tf.identity_n(tf.constant([1, 2]))] == [1, 2]  # eagerly, its rows
    with pytest.raises(TypeError, match="Expected list for 'input' argument to 'IdentityN'"):
        tf.function(lambda: tf.identity_n(tf.constant([1, 2])))()
    assert tf.ensure_shape(tf.zeros([2, 3]), [None, 3]).shape == (2, 3)
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"input \[2,3\] is not compatible with expected shape \[\?,4\]"):
        tf.ensure_shape(tf.zeros([2, 3]), [None, 4])


def test_small_math_composites():
    assert tf.scalar_mul(2, tf.constant([1.5])).numpy().tolist() == [3.0]
    with pytest.raises(ValueError, match="must be a 0-D value"):
        tf.scalar_mul(tf.constant([2.0]), tf.constant([1.0]))
    assert tf.math.zero_fraction(tf.constant([0, 1, 0, 3])).numpy() == 0.5
    # TF 2.21: False and empty strings are the zeros of bools and strings
    assert tf.math.zero_fraction(tf.constant([True, False, False, False])).numpy() == 0.75
    assert tf.math.zero_fraction(tf.constant(["", "a"])).numpy() == 0.5
    assert (tf.math.is_non_decreasing([1, 1, 2]).numpy()
            and not tf.math.is_strictly_increasing([1, 1]).numpy())
    assert tf.math.polyval([1, 2], tf.constant(3)).numpy() == 5
    assert tf.math.invert_permutation([2, 0, 1]).numpy().tolist() == [1, 2, 0]
    with pytest.raises(tf.errors.InvalidArgumentError, match="0 is duplicated"):
        tf.math.invert_permutation([0, 0])
    assert tf.math.reciprocal_no_nan(tf.constant([0.0, 4.0])).numpy().tolist() == [0.0, 0.25]
    assert tf.truncatemod(tf.constant([-7, 7]), 3).numpy().tolist() == [-1, 1]


def test_invert_permutation_errors_are_tfs():
    # a list runs TF's slower path (no name at the end); a tensor's error ends with it
    with pytest.raises(tf.errors.InvalidArgumentError) as info:
        tf.math.invert_permutation([0, 0])
    assert info.value.message.endswith("0 is duplicated in the input. [Op:InvertPermutation]")
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"invert_permutation expects a 1D vector. \[Op:InvertPermutation\]"
                             " name: $"):
        tf.math.invert_permutation(tf.constant([[0]]))
    with pytest.raises(ValueError, match="Shape must be rank 1 but is rank 2"):
        tf.function(tf.math.invert_permutation).get_concrete_function(
            tf.TensorSpec([1, 1], tf.int32))
    unknown = tf.function(tf.math.invert_permutation).get_concrete_function(
        tf.TensorSpec(None, tf.int32))
    assert unknown.output_shapes.as_list() == [None]


# -- special functions ----------------------------------------------------------------------
# TF's printed results (its float64 kernels; its float32 ones differ from the correctly
# rounded values computed here by an ulp now and then).

_S = tf.math.special
_INF, _NAN = np.inf, np.nan
_SPECIAL_PRINTS = [
    (tf.math.bessel_i0e, ([-1.0, 0.0, 2.0, _INF],),
     "array([0.46575961, 1.        , 0.30850832, 0.        ])"),
    # I from its scaled form: NaN at infinity, as TF
    (tf.math.bessel_i1, ([-1.0, 0.0, 2.0, _INF],),
     "array([-0.5651591 ,  0.        ,  1.59063685,         nan])"),
    (_S.bessel_j0, ([0.0, 0.5, 2.0, _INF],),
     "array([1.        , 0.93846981, 0.22389078,        nan])"),
    (_S.bessel_y0, ([-1.0, 0.0, 0.5, 2.0],),
     "array([       -inf,        -inf, -0.44451873,  0.51037567])"),
    (_S.bessel_y1, ([-1.0, 0.0, 0.5, 10.0],),
     "array([       -inf,        -inf, -1.47147239,  0.24901542])"),
    (_S.bessel_k0, ([-1.0, 0.0, 0.5, 2.0, _INF],),
     "array([       inf,        inf, 0.92441907, 0.11389387, 0.        ])"),
    (_S.bessel_k0e, ([-1.0, 0.5, 10.0],), "array([       inf, 1.52410939, 0.39163193])"),
    (_S.bessel_k1, ([0.0, 0.5, 2.0],), "array([       inf, 1.65644112, 0.13986588])"),
    (_S.bessel_k1e, ([0.5, 2.0, 10.0],), "array([2.73100971, 1.03347685, 0.41076657])"),
    (_S.expint, ([-1.0, 0.0, 0.5, 10.0, _INF],),
     "\narray([           nan,           -inf, 4.54219905e-01, 2.49222898e+03,\n"
     "                  nan])"),
    (_S.fresnel_cos, ([-1.0, 0.0, 0.5, 2.0, _INF],),
     "array([-0.7798934 ,  0.        ,  0.49234423,  0.48825341,  0.5       ])"),
    (_S.fresnel_sin, ([-1.0, 0.0, 0.5, 2.0, _INF],),
     "array([-0.43825915,  0.        ,  0.06473243,  0.34341568,  0.5       ])"),
    (_S.spence, ([-1.0, 0.0, 0.5, 1.0, 2.0, _INF],),
     "\narray([        nan,  1.64493407,  0.58224053,  0.        , -0.82246703,\n"
     "               nan])"),
    (tf.math.igamma, ([0.0, -1.0, 1.0, 1.0, _INF, _NAN, _INF],
                      [0.0, 1.0, -1.0, _INF, 1.0, 0.0, _INF]),
     "array([ 0., nan, nan,  1.,  0.,  0.,  0.])"),
    (tf.math.igammac, ([0.0, -1.0, 1.0, 1.0, _INF, _NAN, _INF, 2.0],
                       [0.0, 1.0, 0.0, _INF, 1.0, 0.0, _INF, 3.0]),
     "\narray([       nan,        nan, 1.        , 0.        , 1.        ,\n"
     "              nan, 0.        , 0.19914827])"),
    (tf.math.igamma, ([100.0, 1000.0, 50.0], [101.0, 990.0, 1.0]),
     "array([5.52896293e-01, 3.79521379e-01, 1.23375090e-65])"),
    (tf.math.betainc, ([0.5, 10.0, 200.0], [1.0, 20.0, 300.0], [0.5, 0.3, 0.4]),
     "array([0.70710678, 0.36400408, 0.50242862])"),
]


@pytest.mark.parametrize("fn, args, numpy_text", _SPECIAL_PRINTS)
def test_special_functions_print_as_tf(fn, args, numpy_text):
    result = fn(*(tf.constant(a, tf.float64) for a in args))
    assert repr(result) == (f"<tf.Tensor: shape=({len(args[0])},), dtype=float64, "
                            f"numpy={numpy_text}>")


def test_special_functions_float32_and_half():
    assert repr(tf.math.bessel_i1e([-2.5, 0.0, 10.0, np.inf])) == (
        "<tf.Tensor: shape=(4,), dtype=float32, numpy=array([-0.20658465,  0.        ,  "
        "0.12126268,  0.        ], dtype=float32)>")
    # TF's float and half kernels give NaN for Y1 at 0 (its double kernel -inf)
    assert np.isnan(tf.math.special.bessel_y1([0.0]).numpy()).all()
    assert repr(tf.math.special.bessel_i0(tf.constant([1.0, 2.0], tf.float16))) == (
        "<tf.Tensor: shape=(2,), dtype=float16, numpy=array([1.266, 2.28 ], dtype=float16)>")
    assert repr(tf.math.igamma(tf.constant([1.0, 2.0]), tf.constant([[1.0], [2.0], [3.0]]))) \
        .startswith("<tf.Tensor: shape=(3, 2), dtype=float32")
    # Python numbers take the tensor's dtype
    assert repr(tf.math.igamma(2, tf.constant(1.0, tf.float64))) == (
        "<tf.Tensor: shape=(), dtype=float64, numpy=0.2642411176571153>")
    assert repr(tf.math.betainc(1, 2, tf.constant(0.5, tf.float64))) == (
        "<tf.Tensor: shape=(), dtype=float64, numpy=0.75>")
    assert tf.math.betainc([0.5, 1.0, 0.0, 1.0, 1.0, 1.0, 2.0],
                           [1.0, 2.0, 1.0, 0.0, 1.0, 1.0, 1.0],
                           [0.5, 0.25, 0.5, 0.5, 0.0, 1.0, 1.5]).numpy().tolist()[:2] == [
        0.7071067690849304, 0.4375]
    assert np.isnan(tf.math.betainc([0.0, 1.0, 2.0], [1.0, 0.0, 1.0], [0.5, 0.5, 1.5])).all()
    assert repr(tf.math.betainc(tf.constant([[1.0, 2.0]]), 2.0, tf.constant([[0.5, 0.2]]))) \
        .startswith("<tf.Tensor: shape=(1, 2), dtype=float32")


_NO_KERNEL = tf.errors.NotFoundError


@pytest.mark.parametrize("call, error, message", [
    (lambda: tf.math.bessel_i0(tf.constant([1.0], tf.bfloat16)), _NO_KERNEL,
     r"^Could not find device for node: \{\{node BesselI0\}\} = BesselI0\[T=DT_BFLOAT16\]\n"
     r"All kernels registered for op BesselI0:\n"),
    (lambda: tf.math.special.dawsn(tf.constant([1.0], tf.float16)), _NO_KERNEL,
     r"^Could not find device for node: \{\{node Dawsn\}\} = Dawsn\[T=DT_HALF\]"),
    (lambda: tf.math.igamma(tf.constant([1.0], tf.float16), tf.constant([1.0], tf.float16)),
     _NO_KERNEL, r"= Igamma\[T=DT_HALF\]"),
    (lambda: tf.math.special.bessel_k1([1, 2]), tf.errors.InvalidArgumentError,
     r"^Value for attr 'T' of int32 is not in the list of allowed values: bfloat16, half, "
     r"float, double"),
    (lambda: tf.math.igamma(tf.constant(1.0), tf.constant(1.0, tf.float64)),
     tf.errors.InvalidArgumentError, r"^cannot compute Igamma as input #1\(zero-based\) was "
                                     r"expected to be a float tensor but is a double tensor"),
    (lambda: tf.math.igamma(tf.constant([1.0, 2.0]), tf.constant([1.0, 2.0, 3.0])),
     tf.errors.InvalidArgumentError, r"^Incompatible shapes: \[2\] vs. \[3\] \[Op:Igamma\]$"),
    (lambda: tf.math.betainc(1.0, [1.0, 2.0], [[0.5], [0.2]]), tf.errors.InvalidArgumentError,
     r"^Shapes of b and x are inconsistent: \[2\] vs. \[2,1\] \[Op:Betainc\]$"),
    (lambda: tf.math.betainc([1.0, 2.0], [1.0, 2.0, 3.0], 0.5), tf.errors.InvalidArgumentError,
     r"^Shapes of a and b are inconsistent: \[2\] vs. \[3\]"),
    (lambda: tf.math.betainc(*(tf.constant(1.0, tf.float16),) * 3),
     tf.errors.InvalidArgumentError, r"^Value for attr 'T' of half is not in the list of "
                                     r"allowed values: float, double"),
    (lambda: tf.math.betainc(1.5, tf.constant(2), tf.constant(0.5, tf.float64)), TypeError,
     r"^Cannot convert 1.5 to EagerTensor of dtype int32$"),
    (lambda: tf.math.lbeta(2.0), tf.errors.InvalidArgumentError,
     r"^Invalid reduction dimension \(-1 for input with 0 dimension\(s\)"),
])
def test_special_function_errors(call, error, message):
    with pytest.raises(error) as info:
        call()
    assert re.search(message, op_text(info.value)), str(info.value)


def _gradients(fn, *args):
    tensors = [tf.constant(a) for a in args]
    with tf.GradientTape() as tape:
        tape.watch(tensors)
        out = fn(*tensors)
    return tape.gradient(out, tensors)


def test_igamma_partial_in_a_at_its_edges_is_tfs():
    # TF's IgammaGradA is 0 at a = x = 0 and at a = inf (x >= 0), NaN elsewhere off a > 0
    a = [0.0, 0.0, 0.0, np.inf, np.inf, np.inf, np.inf, 2.0, -1.0]
    x = [0.0, 1.0, np.inf, 0.0, 1.0, np.inf, -1.0, 0.0, 1.0]
    want = [0.0, np.nan, np.nan, 0.0, 0.0, 0.0, np.nan, 0.0, np.nan]
    for dtype in (tf.float32, tf.float64):
        got = tf.raw_ops.IgammaGradA(a=tf.constant(a, dtype), x=tf.constant(x, dtype))
        np.testing.assert_array_equal(got.numpy(), want)
        da, _ = _gradients(tf.math.igammac, tf.constant(a, dtype), tf.constant(x, dtype))
        np.testing.assert_array_equal(da.numpy(), want)


def test_second_derivative_of_igamma_in_a_is_tfs_lookup_error():
    # TF registers no gradient for IgammaGradA, igamma's partial in a
    a, x = tf.Variable(2.0), tf.constant(1.5)
    for fn in (tf.math.igamma, tf.math.igammac):
        with tf.GradientTape() as outer:
            with tf.GradientTape() as inner:
                y = fn(a, x)
            da = inner.gradient(y, a)
        np.testing.assert_allclose(abs(da.numpy()), 0.31348863, rtol=1e-6)
        with pytest.raises(LookupError, match="^gradient registry has no entry for: IgammaGradA$"):
            outer.gradient(da, a)


def test_special_function_gradients():
    da, dx = _gradients(tf.math.igamma, [0.5, 2.0, 3.0], [1.0, 3.0, 0.5])
    assert dx.dtype == tf.float32 and dx.shape == (3,)
    np.testing.assert_allclose(dx, [0.20755376, 0.14936121, 0.07581633], rtol=1e-6)
    np.testing.assert_allclose(da, [-0.38983727, -0.19742544, -0.02852023], rtol=1e-6)
    np.testing.assert_allclose(np.concatenate(_gradients(tf.math.igammac, [0.5, 2.0], [1.0, 3.0])),
                               [0.38983727, 0.19742544, -0.20755376, -0.14936121], rtol=1e-6)
    # TF differentiates betainc in x only; the partial is 1 at x = 0 and 1 for a = b = 1
    assert _gradients(tf.math.betainc, [0.5, 2.0], [1.0, 3.0], [0.1, 0.3])[:2] == [None, None]
    assert _gradients(lambda x: tf.math.betainc(1.0, 1.0, x),
                      [0.0, 1.0, 0.5])[0].numpy().tolist() == [1, 1, 1]
    assert _gradients(lambda x: tf.math.betainc(2.0, 3.0, x),
                      [0.0, 1.0, 0.5])[0].numpy().tolist() == [0, 0, 1.5]
    x = np.array([0.0, 0.5, 1.0, 2.5])
    special = tf.math.special
    for fn, grad in [  # TF's float64 gradients
            # I1'(0) is 1/2; TF takes 1 there
            (tf.math.bessel_i1, "[1.         0.54769476 0.70090677 2.28315265]"),
            (tf.math.bessel_i1e, "[ 0.5         0.17577286  0.04993878 -0.01917207]"),
            (tf.math.bessel_i0e, "[ 0.         -0.48861447 -0.25784919 -0.06346179]"),
            (special.bessel_j1, "[ 0.5         0.45393289  0.3251471  -0.24722142]"),
            (special.bessel_y1, "[       nan 2.49842605 0.86946979 0.4397031 ]"),
            (special.bessel_k0e, "[        nan -1.20690032 -0.49169041 -0.14062573]"),
            (special.bessel_k1e, "[       -inf -4.25511909 -1.14446308 -0.21944404]"),
            (special.dawsn, "[ 1.          0.57556362 -0.07615901 -0.11541861]"),
            (special.expint, "[       inf 3.29744254 2.71828183 4.87299758]"),
            (special.fresnel_sin, "[ 0.          0.38268343  1.         -0.38268343]"),
            (special.spence, "[       -inf -1.38629436 -1.         -0.61086049]")]:
        assert str(_gradients(fn, x)[0].numpy()) == grad, fn.__name__


def test_lbeta():
    assert repr(tf.math.lbeta([[1.0, 2.0], [0.5, 0.5]])) == (
        "<tf.Tensor: shape=(2,), dtype=float32, numpy=array([-0.6931472,  1.1447299], "
        "dtype=float32)>")
    assert repr(tf.math.lbeta([1.0, 2.0, 3.0])) == (
        "<tf.Tensor: shape=(), dtype=float32, numpy=-4.094344615936279>")
    np.testing.assert_allclose(tf.math.lbeta(tf.constant([1.0, 2.0], tf.float64)), -np.log(2),
                               rtol=1e-15)
    assert repr(tf.math.lbeta(tf.zeros([2, 0]))) == (
        "<tf.Tensor: shape=(2,), dtype=float32, numpy=array([-inf, -inf], dtype=float32)>")
    assert repr(tf.math.lbeta([[1e-10, 1e-10]])) == (
        "<tf.Tensor: shape=(1,), dtype=float32, numpy=array([23.718996], dtype=float32)>")


def test_special_function_namespaces():
    special = ["bessel_i0", "bessel_i0e", "bessel_i1", "bessel_i1e", "bessel_j0", "bessel_j1",
               "bessel_k0", "bessel_k0e", "bessel_k1", "bessel_k1e", "bessel_y0", "bessel_y1",
               "dawsn", "expint", "fresnel_cos", "fresnel_sin", "spence"]
    assert all(hasattr(tf.math.special, n) for n in special)
    assert tf.math.special.bessel_i0 is tf.math.bessel_i0
    assert all(hasattr(tf.math, n) for n in ["bessel_i0", "bessel_i0e", "bessel_i1",
                                              "bessel_i1e", "betainc", "igamma", "igammac",
                                              "lbeta", "confusion_matrix"])
    assert not any(hasattr(tf.math, n) for n in ["bessel_j0", "dawsn", "spence"])
    assert not any(hasattr(tf, n) for n in ["lbeta", "igamma", "betainc", "confusion_matrix"])


@pytest.fixture(params=[False, True], ids=["numpy", "emulated"])
def float_kernels(request):
    """Each test twice: with NumPy's kernels, and emulating TensorFlow's."""
    tf.config.experimental.enable_tf_cpu_float_emulation(request.param)
    yield
    tf.config.experimental.enable_tf_cpu_float_emulation(False)


ZERO_SIZE_UNARY = ["exp", "expm1", "log", "log1p", "reciprocal", "rsqrt", "sqrt", "tanh", "sin",
                   "cos", "sigmoid", "softplus", "erf", "erfc", "round", "floor", "abs",
                   "square", "negative", "log_sigmoid", "lgamma", "is_nan"]
ZERO_SIZE_BINARY = ["pow", "floordiv", "floormod", "truediv", "divide_no_nan", "maximum",
                    "squared_difference", "xlogy", "atan2", "add", "multiply"]


@pytest.mark.usefixtures("float_kernels")
@pytest.mark.parametrize("dtype", [tf.float32, tf.float64, tf.float16, tf.bfloat16])
@pytest.mark.parametrize("shape", [[0], [0, 3], [3, 0]])
def test_zero_size_inputs_give_empty_results(shape, dtype):
    z = tf.zeros(shape, dtype)
    for name in ZERO_SIZE_UNARY:
        if name == "lgamma" and dtype == tf.bfloat16:  # TF has no kernel for it
            continue
        got = getattr(tf.math, name)(z)
        assert got.shape == shape, name
    for name in ZERO_SIZE_BINARY:
        assert getattr(tf.math, name)(z, z).shape == shape, name
        assert getattr(tf.math, name)(z, tf.ones([], dtype)).shape == shape, name


@pytest.mark.parametrize("dtype", [tf.bfloat16, tf.float16, tf.float32, tf.float64])
def test_round_is_half_to_even_in_every_float_dtype(dtype):
    x = tf.constant([0.5, 1.5, 2.5, -0.5, -1.5, 2.4, 2.6, -2.6, 3.75, np.inf, -np.inf, np.nan],
                    dtype)
    want = [0.0, 2.0, 2.0, -0.0, -2.0, 2.0, 3.0, -3.0, 4.0, np.inf, -np.inf, np.nan]  # TF's
    for got in (tf.round(x), tf.function(tf.round)(x), tf.round(tf.Variable(x))):
        assert got.dtype == dtype
        np.testing.assert_array_equal(got.numpy().astype(np.float64), want)
        assert np.signbit(got.numpy().astype(np.float64)[3])
    # past the last odd integer of the dtype, every value is an integer already
    big = tf.constant([255.5, 256.5, 257.0, 0.25, 0.75], dtype)
    np.testing.assert_array_equal(tf.round(big).numpy().astype(np.float64),
                                  np.rint(big.numpy().astype(np.float64)))


_DIV_X = [np.inf, -3.795, np.inf, -np.inf, 5.0, -5.0, 5.0, -5.0, 0.0, 5.0, np.nan, 3.0, -0.0, 7.5,
          -7.5, 1.0, -1.0, 0.0]
_DIV_Y = [-2.0, np.inf, np.inf, 2.0, -np.inf, np.inf, np.inf, -np.inf, np.inf, 0.0, 1.0, np.nan,
          3.0, -2.0, 2.0, 0.1, 0.1, 0.0]
# TF 2.21's results
_FLOOR_DIV_TF = [-np.inf, -0.0, np.nan, -np.inf, -0.0, -0.0, 0.0, 0.0, 0.0, np.inf, np.nan,
                 np.nan, -0.0, -4.0, -4.0, 10.0, -10.0, np.nan]
_FLOOR_MOD_TF = [np.nan, np.inf, np.nan, np.nan, -np.inf, np.inf, 5.0, -5.0, 0.0, np.nan, np.nan,
                 np.nan, -0.0, -0.5, 0.5, None, None, np.nan]


def _same_floats(got, want):
    got = np.asarray(got, np.float64)
    keep = np.array([w is not None for w in want])
    want = np.array([np.nan if w is None else w for w in want])
    np.testing.assert_array_equal(got[keep], want[keep])
    signed = keep & ~np.isnan(want)  # zeros' signs too (a NaN's sign is unspecified)
    np.testing.assert_array_equal(np.signbit(got[signed]), np.signbit(want[signed]))


@pytest.mark.parametrize("dtype", [tf.float32, tf.float64, tf.float16, tf.bfloat16])
def test_floordiv_and_floormod_of_floats_follow_tf_not_python(dtype):
    x, y = tf.constant(_DIV_X, dtype), tf.constant(_DIV_Y, dtype)
    for floordiv in (tf.math.floordiv, lambda a, b: a // b, tf.function(tf.math.floordiv)):
        _same_floats(floordiv(x, y).numpy(), _FLOOR_DIV_TF)
    for floormod in (tf.math.floormod, lambda a, b: a % b, tf.function(tf.math.floormod)):
        _same_floats(floormod(x, y).numpy(), _FLOOR_MOD_TF)
    _same_floats((tf.Variable(x) // 2.0).numpy()[:4], [np.inf, -2.0, np.inf, -np.inf])


@pytest.mark.parametrize("dtype", [tf.int8, tf.int32, tf.int64, tf.uint8, tf.uint32])
def test_floordiv_and_floormod_of_integers(dtype):
    if dtype.is_unsigned:
        x, y = tf.constant([7, 6, 0], dtype), tf.constant([2, 4, 3], dtype)
        assert (x // y).numpy().tolist() == [3, 1, 0] and (x % y).numpy().tolist() == [1, 2, 0]
    else:
        x, y = tf.constant([7, -7, 7, -7], dtype), tf.constant([2, 2, -2, -2], dtype)
        assert (x // y).numpy().tolist() == [3, -4, -4, 3]
        assert (x % y).numpy().tolist() == [1, 1, -1, -1]
    zero = tf.constant([2, 0], dtype)
    for op in (tf.math.floordiv, tf.math.floormod, tf.function(tf.math.floordiv)):
        with pytest.raises(tf.errors.InvalidArgumentError, match="Integer division by zero"):
            op(tf.constant([7, 6], dtype), zero)


def test_floordiv_of_the_most_negative_integer_by_minus_one_wraps():
    lowest = tf.constant([-2 ** 31], tf.int32)
    assert (lowest // -1).numpy().tolist() == [-2 ** 31]
    assert (lowest % -1).numpy().tolist() == [0]


def test_round_returns_integers_unchanged_and_has_no_complex_kernel():
    for dtype in (tf.uint8, tf.uint32, tf.int8, tf.int64):  # as TF: no op, so any integer
        x = tf.constant([1, 2], dtype)
        assert tf.round(x) is x
    with pytest.raises(tf.errors.NotFoundError,
                       match=r"Could not find device for node: \{\{node Round\}\} = "
                             r"Round\[T=DT_COMPLEX64\]\nAll kernels registered for op Round:"):
        tf.round(tf.constant([1.5 + 2.5j], tf.complex64))
    v = tf.Variable([0.4, 2.5])
    with tf.GradientTape() as tape:
        y = tf.round(v)
    assert y.numpy().tolist() == [0.0, 2.0] and tape.gradient(y, v) is None


_NONFINITE = [np.nan, np.inf, -np.inf, 0.0, -0.0, -2.0, -1e300, -2.5, -1e6 - 0.5, 1e6]


@pytest.mark.parametrize("scipy", [True, False], ids=["scipy", "numpy_fallbacks"])
def test_polygamma_returns_on_every_input(scipy):
    # The Hurwitz zeta summed its terms up to 16 one at a time, forever from -inf; in a
    # subprocess (with SciPy hidden for the NumPy fallbacks) so a regression fails, not hangs.
    code = ("import sys\n"
            + ("" if scipy else "sys.modules['scipy'] = sys.modules['scipy.special'] = None\n")
            + "import eagerflow as tf\n"
            f"x = tf.constant({_NONFINITE!r}, tf.float64)\n"
            "for n in (0.0, 1.0, 2.0, 3.0, 1.5, -1.0):\n"
            "    print(tf.math.polygamma(tf.fill([10], tf.constant(n, tf.float64)), x)"
            ".numpy().tolist())\n")
    code = code.replace("nan", "float('nan')").replace("inf", "float('inf')")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=120, check=True)
    got = np.array([eval(line, {"nan": np.nan, "inf": np.inf})
                    for line in proc.stdout.splitlines()])
    nan, inf = np.nan, np.inf
    # TF 2.21: inf or NaN at the poles (by the parity of n), its values at negative non-integers
    want = [[nan, inf, nan, nan, nan, nan, nan, 1.1031566406452432, 13.815511557963802,
             13.815510057964311],
            [nan, 0.0, inf, inf, inf, inf, inf, 9.539246644251039, 9.869603401, 1.0000005e-06],
            [nan, -0.0, nan, nan, nan, nan, nan, -0.10820405249914, -9.99998e-13, -1.000001e-12],
            [nan, 0.0, inf, inf, inf, inf, inf, 194.74787622, 194.81818207, 2.000003e-18],
            [nan] * 10, [nan] * 10]
    np.testing.assert_allclose(got, want, rtol=1e-6, equal_nan=True)


def test_polygamma_at_negative_non_integers_any_distance_from_zero():
    x = tf.constant([-0.5, -0.3, -7.25, -1e15 - 0.25], tf.float64)
    got = tf.math.polygamma(tf.constant([1.0, 2.0, 3.0, 4.0], tf.float64), x)
    np.testing.assert_allclose(got.numpy(), [8.934802200544704, 67.63908117, 1558.5411952,
                                             24481.574851], rtol=1e-6)


def test_lgamma_and_digamma_at_poles_and_infinities():
    for dtype in (tf.float32, tf.float64):
        x = tf.constant([-np.inf, np.inf, 0.0, -0.0, -3.0, np.nan], dtype)
        np.testing.assert_array_equal(tf.math.lgamma(x).numpy(),
                                      [np.inf, np.inf, np.inf, np.inf, np.inf, np.nan])
        # NaN at every pole, as TF (not +-inf at 0)
        np.testing.assert_array_equal(tf.math.digamma(x).numpy(),
                                      [np.nan, np.inf, np.nan, np.nan, np.nan, np.nan])


def test_lgamma_derivatives_at_infinities():
    x = tf.constant([-np.inf, np.inf, 0.0, -2.5])
    with tf.GradientTape() as outer:
        outer.watch(x)
        with tf.GradientTape() as inner:
            inner.watch(x)
            y = tf.math.lgamma(x)
        dy = inner.gradient(y, x)
    np.testing.assert_array_equal(dy.numpy()[:3], [np.nan, np.inf, np.nan])
    np.testing.assert_allclose(outer.gradient(dy, x).numpy(), [np.inf, 0.0, np.inf, 9.539247])


def test_saturate_cast_of_non_finite_floats_matches_tf():
    inf, nan = np.inf, np.nan
    x = tf.constant([inf, -inf, nan, 1e30, -1.5], tf.float32)
    want = {tf.int8: [127, -128, 0, 127, -1], tf.uint8: [255, 0, 0, 255, 0],
            tf.int16: [32767, -32768, 0, 32767, -1], tf.uint16: [65535, 0, 0, 65535, 0],
            # the float32 bounds nearest the range: 2147483520, not INT32_MIN
            tf.int32: [2147483520, -2147483648, -2147483648, 2147483520, -1],
            tf.uint32: [4294967040, 0, 0, 4294967040, 0],
            # 2**63 is TF's bound for the 64-bit types, which the cast wraps
            tf.int64: [-2 ** 63, -2 ** 63, -2 ** 63, -2 ** 63, -1],
            tf.uint64: [2 ** 63, 0, 2 ** 63, 2 ** 63, 0]}
    for dtype, values in want.items():
        assert tf.saturate_cast(x, dtype).numpy().tolist() == values, dtype
    assert tf.function(lambda v: tf.saturate_cast(v, tf.int32))(x).numpy()[0] == 2147483520
    half = tf.constant([inf, -inf, nan], tf.float16)
    assert tf.saturate_cast(half, tf.int32).numpy().tolist() == [65504, -65504, -2 ** 31]
    assert tf.saturate_cast(half, tf.int16).numpy().tolist() == [32752, -32768, 0]
    bf16 = tf.constant([inf, -inf], tf.bfloat16)
    assert tf.saturate_cast(bf16, tf.int32).numpy().tolist() == [2139095040, -2 ** 31]
    # clamped even to a wider float type, as TF
    assert tf.saturate_cast(x[:1], tf.float64).numpy()[0] == np.finfo(np.float32).max
    assert tf.saturate_cast(tf.constant([inf], tf.float64), tf.float16).numpy()[0] == 65504


def test_cast_of_non_finite_floats_to_wide_unsigned_types():
    x = tf.constant([np.inf, -np.inf, np.nan, 5e9, -1.0], tf.float64)
    assert tf.cast(x, tf.uint32).numpy().tolist() == [0, 0, 0, 705032704, 4294967295]
    assert tf.cast(x, tf.uint64).numpy().tolist() == [2 ** 63] * 3 + [5 * 10 ** 9, 2 ** 64 - 1]
    assert tf.cast(tf.constant([np.inf], tf.bfloat16), tf.uint64).numpy().tolist() == [2 ** 63]


def test_casts_of_strings_are_unimplemented_and_in_a_graph_fail_as_it_runs():
    for make in (lambda: tf.raw_ops.Cast(x=tf.constant(["a"]), DstT=tf.float32),
                 lambda: tf.cast(tf.constant(["a"]), tf.float32)):
        with pytest.raises(tf.errors.UnimplementedError,
                           match=r"Cast string to float is not supported \[Op:Cast\]"):
            make()
    with pytest.raises(tf.errors.UnimplementedError, match="Cast int32 to string is not"):
        tf.raw_ops.Cast(x=tf.constant([1]), DstT=tf.string)
    # TF's graph takes the op (a Keras model fit on strings fails in its step's run)
    to_float = tf.function(lambda x: tf.cast(x, tf.float32))
    graph = to_float.get_concrete_function(tf.TensorSpec([None], tf.string)).graph
    assert "Cast" in [op.type for op in graph.get_operations()]
    with pytest.raises(tf.errors.UnimplementedError,
                       match=r"^Graph execution error:(?s:.*)Cast string to float is not "
                             r"supported\n\t \[\[\{\{node Cast\}\}\]\]"):
        to_float(tf.constant(["a"]))


def test_cast_of_out_of_range_floats_saturates_in_whole_vector_steps():
    # TF's x86 kernel converts 32 elements at a time to 8- and 16-bit integers (through
    # int32, then saturating) and the last n % 32 one by one (wrapping as C does)
    x = tf.fill([33], 268.0)
    assert tf.cast(x, tf.uint8).numpy()[[0, 31, 32]].tolist() == [255, 255, 12]
    assert tf.cast(tf.fill([31], 268.0), tf.uint8).numpy()[0] == 12
    special = tf.constant([np.nan, np.inf, -np.inf, 3e9, -300.7, 70000.0] + [0.0] * 26)
    assert tf.cast(special, tf.int8).numpy()[:6].tolist() == [-128] * 5 + [127]
    assert tf.cast(special, tf.uint16).numpy()[:6].tolist() == [0] * 5 + [65535]
    assert tf.cast(tf.fill([32], tf.constant(-5.0, tf.float64)), tf.uint8).numpy()[0] == 0
    img = tf.reshape(tf.linspace(-0.5, 1.5, 64), [4, 4, 4])
    u8 = tf.function(tf.image.convert_image_dtype)(img, tf.uint8).numpy().ravel()
    assert u8[:16].tolist() == [0] * 16 and u8[-16:].tolist() == [255] * 16
    # to uint32, 8 elements at a time: values in [-2**31, 2**32) wrap, the others give 2**31
    y = tf.constant([-3e9, -1.5, 3e9, 5e9, np.nan, 0.0, 0.0, 0.0, -3e9, 5e9])
    assert tf.cast(y, tf.uint32).numpy().tolist() == [
        2 ** 31, 2 ** 32 - 1, 3 * 10 ** 9, 2 ** 31, 2 ** 31, 0, 0, 0, 1294967296, 705032704]



def test_cast_vector_steps_follow_the_source_float_type():
    # the vector step is 8 elements from bfloat16, 16 from float16 and float64 (32 from
    # float32): TF 2.21's values, saturating in whole steps and wrapping in the rest
    for dtype, step in ((tf.bfloat16, 8), (tf.float16, 16), (tf.float64, 16)):
        got = tf.cast(tf.fill([step + 1], tf.constant(-2.5, dtype)), tf.uint8).numpy()
        assert got.tolist() == [0] * step + [254], dtype
        assert tf.cast(tf.fill([step - 1], tf.constant(-2.5, dtype)), tf.uint16).numpy()[0] == 65534
    x = tf.constant([np.nan, np.inf, -np.inf, -2.5, 3.7, 1e4, -1e4, 65504, 3e38], tf.bfloat16)
    assert tf.cast(x, tf.int8).numpy().tolist() == [-128, -128, -128, -2, 3, 127, -128, 127, 0]
    assert tf.cast(x, tf.int16).numpy().tolist() == [
        -32768, -32768, -32768, -2, 3, 9984, -9984, 32767, 0]
    assert tf.saturate_cast(x, tf.int16).numpy()[0] == -32768
    # complex64 has no vector steps to small integers (8 to uint32), complex128 16 (none)
    nan64 = tf.fill([32], tf.constant(complex(np.nan, 0), tf.complex64))
    assert tf.cast(nan64, tf.int8).numpy().tolist() == [0] * 32
    assert tf.cast(nan64, tf.uint32).numpy().tolist() == [2 ** 31] * 32
    nan128 = tf.fill([16], tf.constant(complex(np.nan, 0), tf.complex128))
    assert tf.cast(nan128, tf.int8).numpy().tolist() == [-128] * 16
    assert tf.cast(nan128, tf.uint32).numpy().tolist() == [0] * 16

_NO_KERNEL_CASES = [
    (tf.math.rint, [tf.constant([1.5], tf.float16)], "Rint", "DT_HALF"),
    (tf.math.rint, [tf.constant([1.5], tf.bfloat16)], "Rint", "DT_BFLOAT16"),
    (tf.math.lgamma, [tf.constant([1.5], tf.bfloat16)], "Lgamma", "DT_BFLOAT16"),
    (tf.math.digamma, [tf.constant([1.5], tf.bfloat16)], "Digamma", "DT_BFLOAT16"),
    (tf.truncatemod, [tf.constant([1.5], tf.float16)] * 2, "TruncateMod", "DT_HALF"),
    (tf.realdiv, [tf.constant([1, 2]), tf.constant([2, 1])], "RealDiv", "DT_INT32"),
    (tf.math.reciprocal, [tf.constant([1, 2])], "Reciprocal", "DT_INT32"),
    (tf.math.bessel_i0, [tf.constant([1.5], tf.bfloat16)], "BesselI0", "DT_BFLOAT16"),
    (tf.math.igamma, [tf.constant([1.5], tf.float16)] * 2, "Igamma", "DT_HALF"),
    (tf.round, [tf.constant([1.5 + 1j], tf.complex64)], "Round", "DT_COMPLEX64"),
]


@pytest.mark.parametrize("fn, args, op, dtype", _NO_KERNEL_CASES,
                         ids=[f"{c[2]}-{c[3]}" for c in _NO_KERNEL_CASES])
def test_dtypes_without_a_kernel_raise_tf_errors(fn, args, op, dtype):
    # allowed by the op's type attribute, but TF has no CPU kernel: NotFoundError eagerly,
    # and in a function (which traces) InvalidArgumentError when it runs
    with pytest.raises(tf.errors.NotFoundError,
                       match=rf"^Could not find device for node: \{{\{{node {op}\}}\}} = "
                             rf"{op}\[T={dtype}\]\nAll kernels registered for op {op}:\n"):
        fn(*args)
    with pytest.raises(tf.errors.NotFoundError):
        fn(*[tf.Variable(a) for a in args])
    traced = tf.function(lambda *a: fn(*a))
    assert traced.get_concrete_function(*args) is not None
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=rf"No OpKernel was registered to support Op '{op}' used by "
                             rf"\{{\{{node {op}\}}\}} with these attrs: \[T={dtype}\]"):
        traced(*args)


def test_truncatemod_allows_only_tf_dtypes():
    x = tf.constant([7, -7], tf.uint8)
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match="Value for attr 'T' of uint8 is not in the list of allowed values: "
                             "int32, int64, bfloat16, half, float, double"):
        tf.truncatemod(x, x)
    assert tf.truncatemod(tf.constant([7, -7]), 3).numpy().tolist() == [1, -1]


def test_variable_of_a_dtype_the_op_rejects_reaches_the_op_check():
    # as TF's eager ops: the variable is read in its own dtype and the op's type check
    # raises InvalidArgumentError (not the ValueError of converting it to bool)
    v = tf.Variable([[1.0, 0.0]])
    for fn, op in ((tf.math.reduce_all, "All"), (tf.reduce_any, "Any")):
        with pytest.raises(tf.errors.InvalidArgumentError,
                           match=rf"cannot compute {op} as input #0\(zero-based\) was expected "
                                 r"to be a bool tensor but is a float tensor"):
            fn(v, axis=0)
    with pytest.raises(tf.errors.InvalidArgumentError, match="expected to be a string tensor"):
        tf.strings.length(tf.Variable([1.0]))
    # a list axis takes TF's slower path, which converts the variable to bool first
    with pytest.raises(ValueError, match="Incompatible type conversion requested to type bool"):
        tf.reduce_all(v, axis=[0, 1])
    with pytest.raises(ValueError, match="Tensor conversion requested dtype bool for Tensor"):
        tf.reduce_any(tf.constant([[1.0]]), axis=[0])
    assert tf.reduce_all(tf.Variable([True, False])).numpy() == False  # noqa: E712
    with pytest.raises(TypeError):  # Python values still convert to bool
        tf.reduce_all([1, 0])


def test_logical_ops_convert_python_values_to_bool():
    # the inputs are bool, so an empty list is a bool tensor (not float32) and ints fail
    assert tf.logical_not([[]]).dtype == tf.bool and tf.logical_not([[]]).shape == [1, 0]
    assert tf.logical_and([], []).shape == [0] and tf.math.logical_or([], True).dtype == tf.bool
    assert tf.math.logical_xor([], []).shape == [0]
    with pytest.raises(TypeError, match="Cannot convert"):
        tf.logical_not([1, 0])
    with pytest.raises(tf.errors.InvalidArgumentError, match="expected to be a bool tensor"):
        tf.logical_not(tf.Variable([1.0]))
    assert tf.function(tf.logical_not)([[]]).dtype == tf.bool


def test_multiply_no_nan_converts_y_to_x_dtype():
    x = tf.constant([1.0, np.nan])
    with pytest.raises(ValueError, match="^y: Tensor conversion requested dtype int32 for "
                                         "Tensor with dtype float32"):
        tf.math.multiply_no_nan(3, x)
    with pytest.raises(ValueError, match="^y: Tensor conversion requested dtype float32"):
        tf.math.multiply_no_nan(x, tf.constant([1, 0]))
    with pytest.raises(ValueError, match="Incompatible type conversion requested to type float32"):
        tf.math.multiply_no_nan(x, tf.Variable([1, 0]))
    assert tf.math.multiply_no_nan(x, [2, 0]).numpy().tolist() == [2.0, 0.0]


def test_monotonic_checks_reject_non_numeric_tensors():
    for fn in (tf.math.is_non_decreasing, tf.math.is_strictly_increasing):
        with pytest.raises(TypeError, match=r"^Expected x to be numeric, instead found: "
                                            r"tf.Tensor\(\[b'a' b'b'\], shape=\(2,\)"):
            fn(tf.constant(["a", "b"]))
        with pytest.raises(TypeError, match="Expected x to be numeric"):
            fn([True, False])


def test_argmin_and_argmax_with_a_list_axis():
    x = tf.constant([[1.0, 2.0], [3.0, 0.0]])
    # TF's argmin converts the list and its kernel rejects it; argmax checks it in Python
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"^dim must be a scalar, but received tensor of shape: \[2\] "
                             r"\[Op:ArgMin\]$"):
        tf.math.argmin(tf.Variable(x), axis=[0, 1])
    with pytest.raises(TypeError, match="Cannot convert"):
        tf.argmin(x, axis=[0.5])
    with pytest.raises(TypeError, match="axis must be int or Tensor with integer datatype"):
        tf.argmax(x, axis=[0])


def test_abs_allows_only_signed_types():
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match="Value for attr 'T' of uint8 is not in the list of allowed values: "
                             "bfloat16, half, float, double, int8, int16, int32, int64"):
        tf.abs(tf.constant([1], tf.uint8))
    assert tf.abs(tf.constant([-3], tf.int8)).numpy().tolist() == [3]


def test_betainc_at_the_ends_of_the_interval_with_non_finite_parameters():
    a = tf.constant([np.nan, np.inf, 0.5, 0.5, -1.0, np.inf], tf.float64)
    b = tf.constant([0.5, 0.5, np.nan, np.inf, 0.5, 0.5], tf.float64)
    # TF: 0 at x = 0 and 1 at x = 1 unless a or b <= 0; NaN inside for NaN or inf a, b
    assert np.array_equal(tf.math.betainc(a, b, tf.zeros([6], tf.float64)).numpy(),
                          [0, 0, 0, 0, np.nan, 0], equal_nan=True)
    assert np.array_equal(tf.math.betainc(a, b, tf.ones([6], tf.float64)).numpy(),
                          [1, 1, 1, 1, np.nan, 1], equal_nan=True)
    assert np.isnan(tf.math.betainc(a, b, tf.fill([6], tf.constant(0.5, tf.float64)))).all()


def test_fresnel_integrals_at_huge_arguments():
    x = tf.constant([1e300, -1e300, -np.inf, 1e5], tf.float64)
    for fn in (tf.math.special.fresnel_cos, tf.math.special.fresnel_sin):
        np.testing.assert_allclose(fn(x).numpy(), [0.5, -0.5, -0.5, 0.5], atol=4e-6)


@pytest.mark.parametrize("dtype", [tf.float16, tf.bfloat16, tf.float32, tf.float64])
@pytest.mark.parametrize("fn", [tf.math.log, tf.math.log1p, tf.math.expm1, tf.math.softplus,
                                tf.math.log_sigmoid, tf.math.reciprocal])
def test_float_kernels_of_empty_tensors_are_empty(fn, dtype):
    out = fn(tf.zeros([0, 2], dtype))
    assert out.shape == (0, 2) and out.dtype == dtype


def test_sqrt_rsqrt_reciprocal_gradient_is_zero_where_upstream_is_zero():
    # TF: an unused singular branch (y at 0 or inf) contributes 0, not 0 * inf = NaN.
    x = tf.constant([4.0, 4.0, 4.0])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.sqrt(tf.reduce_sum(x * 0.0)) ** 2
    assert tape.gradient(y, x).numpy().tolist() == [0.0, 0.0, 0.0]
    for fn in (tf.sqrt, tf.math.rsqrt, tf.math.reciprocal):
        a = tf.Variable([0.0, np.inf, -np.inf, np.nan, 4.0])
        with tf.GradientTape() as tape:
            y = fn(a) * tf.constant([0.0, 0.0, 0.0, 0.0, 1.0])
        g = tape.gradient(y, a).numpy()
        assert g[:4].tolist() == [0.0, 0.0, 0.0, 0.0], fn
        assert np.isfinite(g[4])

    @tf.function(input_signature=[tf.TensorSpec([None])])
    def second(a):
        with tf.GradientTape() as outer:
            outer.watch(a)
            with tf.GradientTape() as inner:
                inner.watch(a)
                y = tf.sqrt(a) * 2.0
            g = inner.gradient(y, a)
        return g, outer.gradient(g, a)

    g, gg = second(tf.constant([4.0, 0.0]))
    np.testing.assert_allclose(g.numpy(), [0.5, np.inf])
    np.testing.assert_allclose(gg.numpy(), [-0.0625, -np.inf])


def test_where_checks_its_condition_is_bool():
    x, y = tf.constant([1.0, 2.0]), tf.constant([3.0, 4.0])
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"cannot compute SelectV2 as input #0\(zero-based\) was expected "
                             r"to be a bool tensor but is a float tensor"):
        tf.where(tf.constant([1.0, 0.0]), x, y)
    with pytest.raises(TypeError, match="Input 'condition' of 'SelectV2' Op has type float32 "
                                        "that does not match expected type of bool."):
        tf.function(lambda c: tf.where(c, x, y))(tf.constant([1.0, 0.0]))
    with pytest.raises(TypeError, match="Cannot convert"):
        tf.where([1.0, 0.0], x, y)
    # with Python x and y, TF's fallback path converts the condition first
    with pytest.raises(ValueError, match="Tensor conversion requested dtype bool"):
        tf.where(tf.constant([1.0, 0.0]), [1.0, 2.0], 3.0)
    assert tf.where([True, False], x, y).numpy().tolist() == [1.0, 4.0]


def test_matrix_rank_converts_python_values_to_float32():
    assert tf.linalg.matrix_rank([[1, 2], [2, 4]]).numpy() == 1
    with pytest.raises(TypeError, match=r"Input `a` must have `float`-like `dtype` \(saw int32\)"):
        tf.linalg.matrix_rank(tf.constant([[1, 2], [2, 4]]))
    with pytest.raises(TypeError, match="float`-like"):
        tf.linalg.pinv([[1, 2], [2, 4]])


def test_binary_op_errors_with_python_lists_end_without_the_name():
    # TF's wrapper passes the lists to the op, which runs on its slower path: no " name: "
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"Incompatible shapes: \[2\] vs. \[3\] \[Op:Sub\]$"):
        tf.subtract([1, 2], [1, 2, 3])
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"Integer division by zero \[Op:FloorDiv\]$"):
        tf.math.floordiv(tf.constant([1]), [0])
    # tensors (and Python scalars) take the fast path, whose errors end with the name
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"Integer division by zero \[Op:FloorDiv\] name: $"):
        tf.math.floordiv(tf.constant([1]), 0)
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"\[Op:AddV2\] name: $"):
        tf.add([1, 2], [1, 2, 3])  # (TF's add converts its operands first)


@pytest.mark.parametrize("fn, x, listed", [
    (tf.math.softplus, [1], "half, bfloat16, float, double"),
    (tf.nn.softmax, [1], "half, bfloat16, float, double"),
    (tf.math.log, [1], "bfloat16, half, float, double, complex64, complex128"),
    (tf.cumsum, [True], "float, double, int32, uint8, int16, int8, complex64, int64, qint8, "
                        "quint8, qint32, bfloat16, qint16, quint16, uint16, complex128, half, "
                        "uint32, uint64"),
    (tf.reduce_sum, [True], "float, double, int32, uint8, int16, int8, complex64, int64, qint8, "
                            "quint8, qint32, bfloat16, qint16, quint16, uint16, complex128, half, "
                            "uint32, uint64"),
    (tf.reduce_max, [True], "float, double, int32, uint8, int16, int8, int64, bfloat16, uint16, "
                            "half, uint32, uint64, qint8, quint8, qint32, qint16, quint16"),
    (tf.nn.relu, [True], "float, double, int32, uint8, int16, int8, int64, bfloat16, uint16, "
                         "half, uint32, uint64, qint8"),
    (lambda x: tf.add(x, x), [True], "bfloat16, half, float, double, uint8, uint16, uint32, "
                                     "uint64, int8, int16, int32, int64, complex64, complex128"),
    (lambda x: tf.maximum(x, x), [True], "bfloat16, half, float, double, int8, uint8, int16, "
                                         "uint16, int32, uint32, int64, uint64"),
])
def test_dtype_errors_list_the_allowed_dtypes_in_tfs_order(fn, x, listed):
    x = tf.constant(x)
    with pytest.raises(tf.errors.InvalidArgumentError) as info:
        fn(x)
    assert info.value.message.split("\n")[0] == (
        f"Value for attr 'T' of {'int32' if x.dtype == tf.int32 else 'bool'} is not in the "
        f"list of allowed values: {listed}")
    # the quantized dtypes are listed but the numbers still compute
    assert tf.reduce_max(tf.constant([1, 3])).numpy() == 3


@pytest.mark.parametrize("fn", [tf.math.floordiv, tf.math.floormod])
def test_integer_division_of_nothing_by_zero_is_empty_as_tf(fn):
    # TF meets a zero divisor only in an element it divides (sparse reshapes of empty batches)
    out = fn(tf.zeros([0, 2], tf.int64), tf.constant([0, 1], tf.int64))
    assert out.shape == (0, 2) and out.dtype == tf.int64
    with pytest.raises(tf.errors.InvalidArgumentError, match="Integer division by zero"):
        fn(tf.ones([1, 2], tf.int64), tf.constant([0, 1], tf.int64))


@pytest.mark.parametrize("fn", [tf.math.xlogy, tf.math.xlog1py, tf.math.xdivy])
def test_x_of_y_ops_list_their_dtypes_in_tfs_order(fn):
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match="of int32 is not in the list of allowed values: half, bfloat16, "
                             "float, double, complex64, complex128"):
        fn(tf.constant([1]), tf.constant([2]))


def test_python_numbers_take_the_dtype_tfs_ops_infer():
    # nextafter's op defaults its type to float32; betainc's takes the first value's
    one_up = tf.math.nextafter(1, 2)
    assert one_up.dtype == tf.float32 and one_up.numpy() == np.nextafter(np.float32(1), 2)
    assert tf.math.nextafter([1, 2], [3, 0]).dtype == tf.float32
    assert tf.math.nextafter(1, tf.constant(2.0, tf.float64)).dtype == tf.float64
    np.testing.assert_allclose(tf.math.betainc(1.0, 2, 0.5).numpy(), 0.75)
    assert tf.math.betainc([1.0, 2.0], 2, 0.5).dtype == tf.float32
    assert tf.math.betainc(1, tf.constant(2.0, tf.float64), 0.5).dtype == tf.float64
    with pytest.raises(TypeError, match="Cannot convert 2.0 to EagerTensor of dtype int32"):
        tf.math.betainc(1, 2.0, 0.5)


def test_reductions_scans_and_segment_ops_carry_their_names():
    for name in ("reduce_sum", "reduce_all", "reduce_euclidean_norm", "cumsum", "cumprod",
                 "cumulative_logsumexp", "segment_sum", "unsorted_segment_max"):
        fn = getattr(tf.math, name)
        assert fn.__name__ == fn.__qualname__ == name


def test_scan_of_a_listed_axis_raises_tfs_slow_path_error():
    x = tf.constant([[1.0, 2.0]])
    for fn, op in ((tf.math.cumsum, "Cumsum"), (tf.math.cumulative_logsumexp,
                                                 "CumulativeLogsumexp")):
        with pytest.raises(tf.errors.InvalidArgumentError) as info:
            fn(x, axis=[1])
        assert info.value.message.endswith(f"axis must be a scalar, not [1] [Op:{op}]")
        with pytest.raises(tf.errors.InvalidArgumentError) as info:
            fn(x, axis=tf.constant([1]))
        assert info.value.message.endswith(f"[Op:{op}] name: ")


def test_div_no_nan_lists_its_dtypes_in_tfs_order():
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match="of int32 is not in the list of allowed values: half, float, "
                             "bfloat16, double, complex64, complex128"):
        tf.math.reciprocal_no_nan(tf.constant([1]))


@pytest.mark.parametrize("fn", [tf.math.zeta, tf.math.polygamma])
def test_special_binary_ops_report_incompatible_shapes_as_tf(fn):
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"Incompatible shapes: \[2\] vs. \[3\]"):
        fn(tf.constant([1.0, 2.0]), tf.constant([1.0, 2.0, 3.0]))


def test_sobol_sample_takes_tensors_as_they_are():
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"cannot compute SobolSample as input #2\(zero-based\) was expected "
                             "to be a int32 tensor but is a int64 tensor"):
        tf.math.sobol_sample(2, 2, skip=tf.constant(1, tf.int64))
    np.testing.assert_array_equal(tf.math.sobol_sample(tf.constant(2), 2, skip=np.int64(1)),
                                  [[0.75, 0.25], [0.25, 0.75]])


def test_approx_max_k_checks_k_as_tfs_op_declares_it():
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match="Value for attr 'k' of -1 must be at least minimum 0"):
        tf.math.approx_max_k(tf.constant([[1.0, 2.0]]), -1)


def test_division_kernels_and_dtype_lists_as_tf():
    # bfloat16 truncates x / y like the other floats (a zero divisor gives inf, not NaN)
    out = tf.truncatediv(tf.constant([7.0, -7.0, 5.0], tf.bfloat16),
                         tf.constant([2.0, 2.0, 0.0], tf.bfloat16))
    assert out.numpy().astype(float).tolist() == [3.0, -3.0, float("inf")]
    # FloorDiv and TruncateDiv take complex numbers, which have no CPU kernel
    for fn, op in ((tf.math.floordiv, "FloorDiv"), (tf.truncatediv, "TruncateDiv")):
        with pytest.raises(tf.errors.NotFoundError, match=re.escape(
                f"Could not find device for node: {{{{node {op}}}}} = {op}[T=DT_COMPLEX128]")):
            fn(tf.constant([1 + 1j]), tf.constant([2 + 0j]))
    with pytest.raises(tf.errors.InvalidArgumentError, match=re.escape(
            "of int32 is not in the list of allowed values: half, bfloat16, float, double, "
            "complex64, complex128")):
        tf.math.xdivy(tf.constant([1]), tf.constant([2]))
    with pytest.raises(tf.errors.InvalidArgumentError, match=re.escape(
            "of int32 is not in the list of allowed values: half, float, bfloat16, double, "
            "complex64, complex128")):
        tf.raw_ops.DivNoNan(x=tf.constant([1]), y=tf.constant([2]))


def test_unpickled_arrays_take_the_string_and_bool_routes():
    # an unpickled (or np.load-ed) array's dtype equals NumPy's but is another instance:
    # tf.add still concatenates its strings and `*` still multiplies its bools
    import pickle  # noqa: PLC0415 (only this test)
    text = tf.constant(pickle.loads(pickle.dumps(np.array([b"a", b"bc"], object))))
    assert tf.add(text, text).numpy().tolist() == [b"aa", b"bcbc"]
    assert (text + "x").numpy().tolist() == [b"ax", b"bcx"]
    flags = tf.constant(pickle.loads(pickle.dumps(np.array([True, False]))))
    assert (flags * tf.constant([True, True])).numpy().tolist() == [True, False]


def test_older_raw_math_ops_fail_as_tfs():
    with pytest.raises(tf.errors.InvalidArgumentError, match="Integer division by zero"):
        tf.raw_ops.Mod(x=tf.constant([7]), y=tf.constant([0]))
    assert np.isnan(tf.raw_ops.Mod(x=[7.0], y=[0.0]).numpy()[0])
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"x and y must be of the same "
                                                             r"shape. x shape: \[2\]. y shape"):
        tf.raw_ops.ApproximateEqual(x=[1.0, 2.0], y=[1.0])
    with pytest.raises(tf.errors.NotFoundError):
        tf.raw_ops.ApproximateEqual(x=[1, 2], y=[1, 3])
    with pytest.raises(tf.errors.InvalidArgumentError, match="clip_value_min and clip_value_max "
                                                             "must be either of the same shape"):
        tf.raw_ops.ClipByValue(t=tf.ones([2, 2]), clip_value_min=[0.0, 1.0], clip_value_max=3.0)
    with pytest.raises(tf.errors.NotFoundError):
        tf.raw_ops.Inv(x=tf.constant([2]))
    with pytest.raises(LookupError):
        x = tf.constant([2.0])
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = tf.raw_ops.Mod(x=x, y=x)
        tape.gradient(y, x)


def test_clip_by_value_op_sends_the_gradient_to_the_bound_reached():
    x, lo = tf.constant([[1.0, 5.0], [-3.0, 2.0]]), tf.constant(0.0)
    hi = tf.constant([[3.0, 3.0], [3.0, 1.5]])
    with tf.GradientTape() as tape:
        tape.watch([x, lo, hi])
        y = tf.raw_ops.ClipByValue(t=x, clip_value_min=lo, clip_value_max=hi)
    dx, dlo, dhi = tape.gradient(y, [x, lo, hi])
    np.testing.assert_array_equal(dx, [[1.0, 0.0], [0.0, 0.0]])
    assert float(dlo) == 1.0
    np.testing.assert_array_equal(dhi, [[0.0, 1.0], [0.0, 1.0]])


def test_dawsn_is_positive_zero_at_negative_zero_and_infinity():
    # TF prints 0, not -0, for D(-0) and D(-inf) (the function is odd; TF's kernel drops the sign)
    for dtype in (tf.float32, tf.float64):
        y = tf.math.special.dawsn(tf.constant([-0.0, -np.inf, 0.0], dtype)).numpy()
        assert y.tolist() == [0.0, 0.0, 0.0] and not np.signbit(y).any()


@pytest.mark.parametrize("dtype", [tf.bfloat16, tf.float16, tf.float32, tf.float64])
def test_sign_of_negative_zero_is_positive_zero(dtype):
    got = np.asarray(tf.sign(tf.constant([-0., 0., -2., np.nan], dtype))).astype(np.float64)
    assert got[:3].tolist() == [0., 0., -1.] and np.isnan(got[3])
    assert not np.signbit(got[:2]).any()  # TF prints 0, not -0


@pytest.mark.parametrize("dtype", [tf.complex64, tf.complex128])
def test_complex_reciprocal_signs_zero_imaginary_parts_as_division(dtype):
    got = tf.math.reciprocal(tf.constant([2 + 0j, -4 + 0j], dtype)).numpy()
    assert got.real.tolist() == [0.5, -0.25]
    assert np.signbit(got.imag).tolist() == [False, True]  # TF: [0.5+0j, -0.25-0j], as 1 / x
    np.testing.assert_array_equal(got, (1 / tf.constant([2 + 0j, -4 + 0j], dtype)).numpy())


def test_complex_division_rounds_as_tf_cpu_kernels():
    # TF's recorded quotients: the first four complex64 values (two complex128) come from
    # its vector path (y scaled by max(|re|, |im|)), the rest from Smith's algorithm
    x = np.array([1.6905256509780884, -0.0008903858833946288, -0.46593737602233887,
                  -1.7547242641448975, 0.032820165157318115, 1.017657995223999,
                  0.4075162708759308, 0.6004984974861145, -0.7889230251312256,
                  -0.6254289746284485, 0.002065572887659073, -0.1715482622385025],
                 np.float32).view(np.complex64)
    y = np.array([0.5052993893623352, 0.27445992827415466, -0.2613564133644104,
                  -1.526524543762207, -0.24274908006191254, 1.6506997346878052,
                  -1.4532414674758911, 0.15433552861213684, 0.5545803308486938,
                  -0.3871399462223053, 0.12388090789318085, 2.0290722846984863],
                 np.float32).view(np.complex64)
    tf64 = [2.5826776027679443, -1.4045770168304443, 1.1675242185592651, -0.10533563792705536,
            0.6005886793136597, -0.10820411890745163, -0.23389717936515808,
            -0.4380532503128052, -0.427146852016449, -1.4259332418441772,
            -0.08416927605867386, -0.006156774237751961]
    tf128 = [2.58267780964512, -1.4045771026351224, 1.1675242396323477, -0.10533563242928512,
             0.6005886619307569, -0.10820411888562224, -0.23389718711411428,
             -0.4380532469982138, -0.42714688319664124, -1.4259333626348425,
             -0.08416928108069077, -0.0061567741764841704]
    q = (tf.constant(x) / tf.constant(y)).numpy()
    np.testing.assert_array_equal(q.view(np.float32), np.float32(tf64))
    q = tf.math.divide_no_nan(tf.constant(x), tf.constant(y)).numpy()
    np.testing.assert_array_equal(q.view(np.float32), np.float32(tf64))
    q = tf.math.xdivy(tf.constant(x), tf.constant(y)).numpy()
    np.testing.assert_array_equal(q.view(np.float32), np.float32(tf64))
    q = (tf.constant(x.astype(np.complex128)) / y.astype(np.complex128)).numpy()
    np.testing.assert_array_equal(q.view(np.float64), tf128)
    tf_reciprocal = [1.5281736850738525, -0.8300474286079407, -0.108962781727314,
                     0.6364273428916931, -0.08720260858535767, -0.5929798483848572,
                     -0.6804423928260803, -0.07226358354091644, 1.2123651504516602,
                     0.846324622631073, 0.02997736819088459, -0.4910058379173279]
    q = tf.math.reciprocal(tf.constant(y)).numpy()
    np.testing.assert_array_equal(q.view(np.float32), np.float32(tf_reciprocal))
    # so the gradient of |z|^2 is TF's 2z exactly
    z = tf.Variable([1 + 1j, 2j], dtype=tf.complex64)
    with tf.GradientTape() as t:
        loss = tf.reduce_sum(tf.abs(z) ** 2)
    np.testing.assert_array_equal(t.gradient(loss, z).numpy(), [2 + 2j, 4j])
    # a zero divisor: NaN in the vector path, C's infinity in the scalar one (as TF)
    q = (tf.constant([1 + 0j] * 5, tf.complex64) / tf.constant([0j] * 5, tf.complex64)).numpy()
    assert np.isnan(q[:4].real).all() and np.isinf(q[4].real) and np.isnan(q[4].imag)
