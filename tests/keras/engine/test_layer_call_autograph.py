"""A subclassed layer's ``call`` with Python control flow on tensors, as tf_keras runs it:
converted by AutoGraph whenever a graph is built (tf.function, functional construction,
fit and predict), unless the enclosing function has AutoGraph off."""
import numpy as np
import pytest

import eagerflow as tf


class _Doubling(tf.keras.layers.Layer):
    def call(self, x, training=None):
        if training:
            x = x + 100.
        if tf.reduce_sum(x) > 0:
            return x * 2
        return x


class _Looping(tf.keras.Model):
    def __init__(self):
        super().__init__()
        self.d = tf.keras.layers.Dense(1, kernel_initializer="ones")

    def call(self, x):
        y = self.d(x)
        for _ in tf.range(2):
            y = y + 1.
        if tf.reduce_mean(y) > 0:
            y = y * 10.
        return y


def test_layer_call_in_a_function():
    layer = _Doubling()
    f = tf.function(lambda x: layer(x))
    assert f(tf.constant([1., 2.])).numpy().tolist() == [2., 4.]
    assert f(tf.constant([-1., -2.])).numpy().tolist() == [-1., -2.]


def test_layer_call_in_a_functional_model_and_fit():
    inp = tf.keras.Input((2,))
    model = tf.keras.Model(inp, _Doubling()(inp))
    assert model(tf.constant([[1., 2.]])).numpy().tolist() == [[2., 4.]]
    assert model.predict(np.array([[-1., -2.]], np.float32), verbose=0).tolist() == \
        [[-1., -2.]]
    out = tf.keras.layers.Dense(1, kernel_initializer="zeros")(_Doubling()(inp))
    trained = tf.keras.Model(inp, out)
    trained.compile("sgd", "mse")
    trained.fit(np.ones((4, 2), np.float32), np.ones((4, 1), np.float32), epochs=1, verbose=0)
    np.testing.assert_allclose(trained(np.ones((1, 2), np.float32)).numpy(), [[16.18]],
                               rtol=1e-5)


def test_subclassed_model_with_a_tensor_loop_predicts_and_fits():
    model = _Looping()
    model.compile("sgd", "mse")
    assert model.predict(np.ones((2, 2), np.float32), verbose=0).tolist() == [[40.], [40.]]
    history = model.fit(np.ones((4, 2), np.float32), np.ones((4, 1), np.float32), epochs=1,
                        verbose=0)
    assert sorted(history.history) == ["loss"]


def test_autograph_off_in_the_enclosing_function_leaves_call_unconverted():
    layer = _Doubling()
    with pytest.raises(tf.errors.OperatorNotAllowedInGraphError):
        tf.function(lambda x: layer(x), autograph=False)(tf.constant([1., 2.]))
    not_converted = tf.autograph.experimental.do_not_convert(lambda x: layer(x))
    with pytest.raises(tf.errors.OperatorNotAllowedInGraphError):
        tf.function(lambda x: not_converted(x))(tf.constant([1., 2.]))
