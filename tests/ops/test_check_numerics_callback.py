"""tf.debugging.enable_check_numerics / disable_check_numerics, as TF reports anomalies."""
import threading

import numpy as np
import pytest

import eagerflow as tf


@pytest.fixture
def checking():
    tf.debugging.enable_check_numerics()
    yield
    tf.debugging.disable_check_numerics()


def test_an_infinity_raises_naming_the_op_and_input(checking):
    with pytest.raises(tf.errors.InvalidArgumentError) as info:
        tf.math.log(tf.constant([1.0, 0.0]))
    text = str(info.value)
    assert ('!!! Detected Infinity or NaN in output 0 of eagerly-executing op "Log" '
            '(# of outputs: 1) !!!') in text
    assert "  dtype: <dtype: 'float32'>\n  shape: (2,)\n  # of -Inf elements: 1\n" in text
    assert "  Input tensor: tf.Tensor([1. 0.], shape=(2,), dtype=float32)" in text
    assert text.endswith(" : Tensor had -Inf values [Op:CheckNumericsV2]")


def test_several_inputs_and_anomalies(checking):
    with pytest.raises(tf.errors.InvalidArgumentError) as info:
        tf.constant([1.0, 0.0]) / tf.constant([0.0, 0.0])
    text = str(info.value)
    assert "  # of +Inf elements: 1\n  # of +NaN elements: 1\n" in text
    assert "  Input tensors (2):\n         0: tf.Tensor([1. 0.], shape=(2,), dtype=float32)\n" \
           "         1: tf.Tensor([0. 0.], shape=(2,), dtype=float32)" in text
    assert text.endswith("Tensor had +Inf and NaN values [Op:CheckNumericsV2]")


def test_finite_programs_run_and_disable_stops_the_checks():
    tf.debugging.enable_check_numerics()
    try:
        v = tf.Variable([1.0, 2.0])
        with tf.GradientTape() as tape:
            y = tf.reduce_sum(v * v)
        np.testing.assert_allclose(tape.gradient(y, v), [2.0, 4.0])
        assert int(tf.constant(3) // 1) == 3  # integer outputs are not checked
        other = []
        thread = threading.Thread(target=lambda: other.append(tf.math.log(0.0)))
        thread.start()
        thread.join()
        assert np.isneginf(other[0])  # the checks are the calling thread's
    finally:
        tf.debugging.disable_check_numerics()
    tf.debugging.disable_check_numerics()  # twice is fine
    assert np.isneginf(tf.math.log(tf.constant(0.0)))


def test_log_device_placement_setting():
    assert tf.debugging.get_log_device_placement() is False
    tf.debugging.set_log_device_placement(True)
    try:
        assert tf.debugging.get_log_device_placement() is True
        assert float(tf.matmul([[1.0, 2.0]], [[1.0], [2.0]])[0, 0]) == 5.0
    finally:
        tf.debugging.set_log_device_placement(False)
    assert tf.debugging.get_log_device_placement() is False
