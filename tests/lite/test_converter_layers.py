"""Keras layers TF's converter lowers to several TFLite operators (or fuses differently):
our conversions run with the Keras model's values, with TF's operators (TF 2.21)."""
import numpy as np
import pytest

import eagerflow as tf

L = tf.keras.layers


def _converted(model):
    rng = np.random.RandomState(0)
    model.set_weights([rng.uniform(0.5, 1.5, w.shape).astype(np.float32) if w.ndim == 1 else
                       rng.uniform(-0.5, 0.5, w.shape).astype(np.float32)
                       for w in model.get_weights()])
    interpreter = tf.lite.Interpreter(
        model_content=tf.lite.TFLiteConverter.from_keras_model(model).convert())
    x = rng.uniform(-3, 3, (2,) + tuple(model.input_shape[1:])).astype(np.float32)
    runner = interpreter.get_signature_runner()
    (key,) = runner.get_input_details()
    got = runner(**{key: x})
    return [op["op_name"] for op in interpreter._get_ops_details()], got, model(x)


CASES = {   # model -> TF's operators
    "softmax_axis": (lambda: tf.keras.Sequential([L.Softmax(axis=1, input_shape=(3, 4))]),
                     ["TRANSPOSE", "SOFTMAX", "TRANSPOSE"]),
    "log_softmax_axis": (lambda: tf.keras.Sequential([
        L.Lambda(lambda x: tf.nn.log_softmax(x, axis=1), input_shape=(3, 4, 2))]),
        ["TRANSPOSE", "LOG_SOFTMAX", "TRANSPOSE"]),
    "dense_leaky": (lambda: tf.keras.Sequential([L.Dense(4, input_shape=(5,)),
                                                 L.LeakyReLU(0.1)]),
                    ["FULLY_CONNECTED", "LEAKY_RELU"]),
    "selu": (lambda: tf.keras.Sequential([L.Activation("selu", input_shape=(6,))]),
             ["GREATER", "MUL", "EXP", "SUB", "MUL", "SELECT_V2"]),
    "softplus": (lambda: tf.keras.Sequential([L.Activation("softplus", input_shape=(6,))]),
                 ["EXP", "ADD", "LOG"]),
    "softsign": (lambda: tf.keras.Sequential([L.Activation("softsign", input_shape=(6,))]),
                 ["ABS", "ADD", "DIV"]),
    "conv3d": (lambda: tf.keras.Sequential([L.Conv3D(2, 2, input_shape=(3, 3, 3, 1))]),
               ["CONV_3D", "ADD"]),
    "conv3d_strided": (lambda: tf.keras.Sequential([
        L.Conv3D(2, (2, 1, 2), strides=(1, 2, 1), padding="same", input_shape=(3, 4, 3, 2))]),
        ["CONV_3D", "ADD"]),
    # (in a function Conv3D, its bias and a ReLU fuse)
    "conv3d_relu": (lambda: tf.keras.Sequential([
        L.Conv3D(2, 2, activation="relu", bias_initializer="ones", input_shape=(3, 3, 3, 1))]),
        ["CONV_3D", "ADD"]),
    "conv3d_relu6": (lambda: tf.keras.Sequential([
        L.Conv3D(2, 2, activation="relu6", input_shape=(3, 3, 3, 1))]), ["CONV_3D", "ADD"]),
    "depthwise_relu6": (lambda: tf.keras.Sequential([
        L.DepthwiseConv2D(3, activation="relu6", depth_multiplier=2, bias_initializer="ones",
                          input_shape=(6, 6, 2))]), ["DEPTHWISE_CONV_2D"]),
}


def test_a_zero_conv3d_bias_before_a_relu_is_dropped_as_tf_does():
    # TF 2.21's converter: CONV_3D then RELU6 (the zero bias add gone)
    model = tf.keras.Sequential([L.Conv3D(2, 2, activation="relu6", input_shape=(3, 3, 3, 1))])
    interpreter = tf.lite.Interpreter(
        model_content=tf.lite.TFLiteConverter.from_keras_model(model).convert())
    assert [op["op_name"] for op in interpreter._get_ops_details()] == ["CONV_3D", "RELU6"]
    x = np.random.RandomState(1).uniform(-3, 3, (2, 3, 3, 3, 1)).astype(np.float32)
    runner = interpreter.get_signature_runner()
    (key,) = runner.get_input_details()
    (value,) = runner(**{key: x}).values()
    np.testing.assert_allclose(value, model(x).numpy(), rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("name", sorted(CASES))
def test_layer_lowers_as_tf_with_its_values(name):
    build, want_ops = CASES[name]
    ops, got, want = _converted(build())
    assert ops == want_ops
    (value,) = got.values()
    np.testing.assert_allclose(value, want.numpy(), rtol=1e-5, atol=1e-6)


def test_batch_normalization_of_axis_1_converts():
    # (channels first after Keras's reshape: TF's converter scales and shifts per channel)
    ops, got, want = _converted(tf.keras.Sequential([L.BatchNormalization(axis=1,
                                                                          input_shape=(3, 4))]))
    assert "MUL" in ops and "ADD" in ops
    (value,) = got.values()
    np.testing.assert_allclose(value, want.numpy(), rtol=1e-5, atol=1e-6)


def test_model_returning_its_input():
    tf.keras.backend.clear_session()
    model = tf.keras.Sequential([L.Activation("linear", input_shape=(6,))])
    interpreter = tf.lite.Interpreter(
        model_content=tf.lite.TFLiteConverter.from_keras_model(model).convert())
    x = np.arange(12, dtype=np.float32).reshape(2, 6)
    np.testing.assert_array_equal(
        interpreter.get_signature_runner()(activation_input=x)["activation"], x)
    assert interpreter.get_input_details()[0]["name"] == "serving_default_activation_input:0"
