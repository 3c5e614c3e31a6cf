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


@pytest.mark.parametrize("run", [lambda: tf.math.log(tf.constant(-1.0)),
                                 lambda: tf.sqrt(-1.0),
                                 lambda: tf.constant(1.0, tf.bfloat16) / 0.0])
def test_scalar_outputs_are_checked(checking, run):
    # (an eager scalar's value is a NumPy scalar, not an array)
    with pytest.raises(tf.errors.InvalidArgumentError, match="shape: \\(\\)"):
        run()


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


def test_ops_traced_into_functions_are_checked(checking):
    @tf.function(input_signature=[tf.TensorSpec([None], tf.float32)])
    def f(x):
        return tf.math.log(x) * 2

    np.testing.assert_allclose(f(tf.constant([1.0, 2.0])), [0.0, 2 * np.log(2.0)], rtol=1e-6)
    with pytest.raises(tf.errors.InvalidArgumentError) as info:
        f(tf.constant([1.0, 0.0]))
    text = str(info.value)
    assert ('!!! Detected Infinity or NaN in output 0 of graph op "Log" (# of outputs: 1) !!!\n'
            "  dtype: <dtype: 'float32'>\n  shape: (None,)\n\n"
            '  Input tensor: Tensor("x:0", shape=(None,), dtype=float32)\n'
            '  Graph name: "f"\n') in text
    assert " : Tensor had -Inf values" in text and "{{node Log/CheckNumericsV2}}" in text
    # a branch of a tensor condition is checked too
    g = tf.function(lambda x: tf.cond(tf.reduce_sum(x) > 0, lambda: tf.math.sqrt(x - 2.0),
                                      lambda: x),
                    input_signature=[tf.TensorSpec([None], tf.float32)])
    np.testing.assert_array_equal(g(tf.constant([-1.0])), [-1.0])
    with pytest.raises(tf.errors.InvalidArgumentError, match='graph op "Sqrt"'):
        g(tf.constant([1.0]))


def test_keras_predict_is_checked(checking):
    inputs = tf.keras.Input((2,))
    model = tf.keras.Model(inputs, tf.keras.layers.Lambda(tf.math.sqrt)(inputs))
    np.testing.assert_allclose(model.predict(np.full((2, 2), 4.0, np.float32), verbose=0),
                               np.full((2, 2), 2.0))
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"graph op \"Sqrt\"(.|\n)*node model(_\d+)?/lambda(_\d+)?/Sqrt/"
                             r"CheckNumericsV2"):
        model.predict(-np.ones((2, 2), np.float32), verbose=0)


def test_dataset_functions_traced_while_checking_are_checked(checking):
    ds = tf.data.Dataset.from_tensor_slices([1.0, 0.0]).map(tf.math.log)
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match='Detected Infinity or NaN in output 0 of graph op "Log"'):
        list(ds.as_numpy_iterator())
