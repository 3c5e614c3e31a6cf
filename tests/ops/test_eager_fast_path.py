"""Eager elementwise ops call NumPy's function directly, and keep every behaviour doing so:
dtype checks, 16-bit floats in float32, the float emulation switch, tapes, graphs, errors."""
import gc
import sys
import warnings

import numpy as np
import pytest

import eagerflow as tf

_X = np.linspace(0.25, 3.0, 16, dtype=np.float32)


def _python_calls(fn, *args):
    """The Python functions `fn(*args)` runs, by name (C functions are not counted)."""
    seen = []

    def profile(frame, event, arg):
        if event == "call":
            seen.append(frame.f_code.co_name)
    previous = sys.getprofile()
    gc.disable()  # a collection here would run other objects' finalizers, not the op's code
    sys.setprofile(profile)
    try:
        fn(*args)
    finally:
        sys.setprofile(previous)
        gc.enable()
    return seen[1:]  # the first is `fn` itself


UNARY = {"exp": tf.exp, "log": tf.math.log, "tanh": tf.tanh, "sqrt": tf.sqrt,
         "log1p": tf.math.log1p, "sin": tf.sin, "negative": tf.negative}
BINARY = {"multiply": tf.multiply, "subtract": tf.subtract, "less": tf.less, "equal": tf.equal,
          "maximum": tf.maximum}


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("name", sorted(UNARY))
def test_unary_op_on_a_tensor_runs_no_python_below_its_function(name, dtype):
    t = tf.constant(_X.astype(dtype))
    assert _python_calls(lambda: UNARY[name](t)) == [UNARY[name].__code__.co_name]


@pytest.mark.parametrize("name", sorted(BINARY))
def test_binary_op_on_tensors_runs_no_python_below_its_function(name):
    t = tf.constant(_X)
    assert _python_calls(lambda: BINARY[name](t, t)) == [BINARY[name].__code__.co_name]


def test_sigmoid_calls_its_numpy_computation_directly():
    t = tf.constant(_X)
    assert _python_calls(lambda: tf.sigmoid(t))[1:] == ["_sigmoid_numpy"]


EMULATED = {"exp": tf.exp, "log": tf.math.log, "log1p": tf.math.log1p, "expm1": tf.math.expm1,
            "tanh": tf.tanh, "sigmoid": tf.sigmoid, "sin": tf.sin, "cos": tf.cos,
            "erf": tf.math.erf, "erfc": tf.math.erfc, "rsqrt": tf.math.rsqrt,
            "reciprocal": tf.math.reciprocal}


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("name", sorted(EMULATED))
def test_emulation_switch_changes_eager_kernels_both_ways(name, dtype):
    op = EMULATED[name]
    x = np.resize(np.float32([0.3, 1.7, 2.9, 0.01, 5.5]), 21).astype(dtype)  # a scalar tail
    t = tf.constant(x)
    default = op(t).numpy()
    tf.config.experimental.enable_tf_cpu_float_emulation(True)
    try:
        emulated = op(t).numpy()
        traced = tf.function(op)(t).numpy()
    finally:
        tf.config.experimental.enable_tf_cpu_float_emulation(False)
    # eager and traced agree bit for bit while emulating; switched off, eager is as before
    np.testing.assert_array_equal(emulated.view(np.uint8), traced.view(np.uint8))
    np.testing.assert_array_equal(op(t).numpy().view(np.uint8), default.view(np.uint8))
    np.testing.assert_allclose(emulated, default, rtol=1e-6 if dtype == np.float32 else 1e-14)


def test_emulated_exp_differs_from_numpy_where_tensorflow_does():
    # exp(1.0): NumPy gives 0x402df855, TensorFlow's CPU kernel 0x402df854
    one = tf.constant([1.0] * 8)
    assert tf.exp(one).numpy().view(np.uint32)[0] == np.exp(np.float32(1)).view(np.uint32)
    tf.config.experimental.enable_tf_cpu_float_emulation(True)
    try:
        assert tf.exp(one).numpy().view(np.uint32)[0] == 0x402df854
    finally:
        tf.config.experimental.enable_tf_cpu_float_emulation(False)


@pytest.mark.parametrize("dtype", [tf.float16, tf.bfloat16])
@pytest.mark.parametrize("name", ["exp", "tanh", "sigmoid"])
def test_16_bit_floats_are_computed_in_float32(name, dtype):
    x = tf.constant(_X, dtype)
    narrow = dtype.as_numpy_dtype
    if name == "sigmoid":  # TF's steps, each rounded: e = exp(x), then e / (1 + e)
        e = np.exp(x.numpy().astype(np.float32)).astype(narrow)
        want = e / (e + narrow(1))
    else:
        want = {"exp": np.exp, "tanh": np.tanh}[name](x.numpy().astype(np.float32))
    got = getattr(tf, name)(x)
    assert got.dtype == dtype
    np.testing.assert_array_equal(got.numpy(), want.astype(narrow))


def test_complex_exp_matches_numpy():
    z = np.array([1 + 2j, -0.5j], np.complex64)
    np.testing.assert_allclose(tf.exp(tf.constant(z)).numpy(), np.exp(z), rtol=1e-6)


def test_dtype_checks_keep_tensorflows_errors():
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"^Value for attr 'T' of int32 is not in the list of allowed "
                             r"values: bfloat16, half, float, double, complex64, complex128"):
        tf.exp(tf.constant([1, 2]))
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"cannot compute Mul as input #1\(zero-based\) was expected to be "
                             r"a float tensor but is a double tensor \[Op:Mul\]"):
        tf.multiply(tf.constant([1.0]), tf.constant([1.0], tf.float64))


def test_kernel_failures_become_errors_naming_the_op():
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"AddV2_device_.*}} Incompatible shapes: \[2\] vs. \[3\] "
                             r"\[Op:AddV2\] name: $"):
        tf.add(tf.ones([2]), tf.ones([3]))
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"\[Op:Mul\]"):
        tf.ones([2]) * tf.ones([3])


def test_numpy_warnings_stay_silent():
    with warnings.catch_warnings(record=True) as caught:
        tf.math.log(tf.constant([0.0, -1.0])).numpy()
        tf.exp(tf.constant([100.0, 1000.0], tf.float64)).numpy()
        (tf.constant([1e30]) * tf.constant([1e30])).numpy()
    assert not [w for w in caught if issubclass(w.category, RuntimeWarning)]


def test_tapes_record_the_ops():
    x = tf.constant(_X)
    v = tf.Variable(_X)
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        y = tf.exp(x) * x
        z = tf.tanh(v)
    np.testing.assert_allclose(tape.gradient(y, x).numpy(), np.exp(_X) * (1 + _X), rtol=1e-6)
    np.testing.assert_allclose(tape.gradient(z, v).numpy(), 1 - np.tanh(_X) ** 2, rtol=1e-5)


def test_graphs_and_python_values_take_the_same_ops():
    @tf.function(input_signature=[tf.TensorSpec([None], tf.float32)])
    def f(x):
        return tf.exp(x) * x + 1.0

    np.testing.assert_allclose(f(tf.constant(_X)).numpy(), np.exp(_X) * _X + 1, rtol=1e-6)
    np.testing.assert_allclose(tf.exp([0.0, 1.0]).numpy(), np.exp(np.float32([0, 1])))
    np.testing.assert_allclose(tf.exp(tf.Variable([0.0, 1.0])).numpy(),
                               np.exp(np.float32([0, 1])))
    assert tf.exp(tf.constant(0.0)).shape == ()
