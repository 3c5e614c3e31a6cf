"""TF's raw ops Div, PreventGradient and PopulationCount, and Erfinv/Ndtri's CPU kernels."""
import numpy as np
import pytest

import eagerflow as tf


def test_div_truncates_integers_and_divides_floats():
    out = tf.raw_ops.Div(x=tf.constant([7, -7]), y=tf.constant([2, 2]))
    assert out.dtype == tf.int32 and out.numpy().tolist() == [3, -3]
    out = tf.raw_ops.Div(x=tf.constant([7.0, -7.0]), y=tf.constant([2.0, 0.0]))
    assert out.numpy().tolist() == [3.5, -np.inf]
    assert tf.raw_ops.Div(x=tf.constant([7], tf.uint8), y=tf.constant([2], tf.uint8)).dtype \
        == tf.uint8


def test_div_errors():
    with pytest.raises(tf.errors.InvalidArgumentError, match="Integer division by zero"):
        tf.raw_ops.Div(x=tf.constant([7]), y=tf.constant([0]))
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match="Value for attr 'T' of bool is not in the list"):
        tf.raw_ops.Div(x=tf.constant([True]), y=tf.constant([True]))


def test_div_gradient():
    x = tf.constant([1.0, 2.0])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.raw_ops.Div(x=x, y=x * x)
    np.testing.assert_allclose(tape.gradient(y, x).numpy(), [-1.0, -0.25])


def test_prevent_gradient_is_identity_whose_gradient_raises():
    x = tf.constant([1.0, 2.0])
    assert tf.raw_ops.PreventGradient(input=x).numpy().tolist() == [1.0, 2.0]
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.raw_ops.PreventGradient(input=x * 2.0, message="nope")
    with pytest.raises(LookupError, match=r"Gradient explicitly disabled. Reason: b'nope'"):
        tape.gradient(y, x)

    @tf.function
    def f(a):
        with tf.GradientTape() as t:
            t.watch(a)
            b = tf.raw_ops.PreventGradient(input=a * 2.0)
        return t.gradient(b, a)
    with pytest.raises(Exception, match=r"LookupError: Gradient explicitly disabled. Reason: "
                                        r"b''") as e:
        f(x)
    assert type(e.value).__name__ == "StagingError"  # (as TF raises it from a traced function)


def test_population_count_counts_bits_of_twos_complement():
    out = tf.raw_ops.PopulationCount(x=tf.constant([-1, -128, 5], tf.int8))
    assert out.dtype == tf.uint8 and out.numpy().tolist() == [8, 1, 2]
    assert tf.raw_ops.PopulationCount(x=tf.constant(-1, tf.int64)).numpy() == 64


@pytest.mark.parametrize("fn", [tf.math.erfinv, tf.math.ndtri])
@pytest.mark.parametrize("dtype", [tf.float16, tf.bfloat16])
def test_erfinv_and_ndtri_have_no_half_kernels(fn, dtype):
    with pytest.raises(tf.errors.NotFoundError, match="Could not find device for node"):
        fn(tf.constant([0.5], dtype))
