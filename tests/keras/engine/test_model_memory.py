"""Models built and dropped leave nothing behind (no `clear_session` needed), as in tf_keras."""
import gc
import weakref

import numpy as np

import eagerflow as tf


def _dropped(build, times=3):
    layers = []
    for _ in range(times):
        layers.append(weakref.ref(build()))
    build()  # (the latest model's last operation stays listed)
    gc.collect()
    return [ref() is None for ref in layers]


def test_sequential_models_built_and_trained_in_a_loop_are_freed():
    x = np.ones((4, 3), np.float32)

    def build():
        model = tf.keras.Sequential([tf.keras.layers.Dense(2, input_shape=(3,)),
                                     tf.keras.layers.Dense(1)])
        model.compile("sgd", "mse")
        model.fit(x, np.ones((4, 1), np.float32), verbose=0)
        return model.layers[0]
    assert _dropped(build) == [True, True, True]


def test_functional_models_with_tf_calls_in_a_loop_are_freed():
    def build():
        inputs = tf.keras.Input((3,))
        hidden = tf.keras.layers.Dense(2)(inputs * 2.0 + tf.constant([1.0, 2.0, 3.0]))
        model = tf.keras.Model(inputs, tf.nn.relu(hidden))
        model.predict(np.ones((2, 3), np.float32), verbose=0)
        return model.layers[-3]
    assert _dropped(build) == [True, True, True]


def test_a_functional_model_still_works_after_others_are_freed():
    inputs = tf.keras.Input((2,), name="kept_input")
    kept = tf.keras.Model(inputs, tf.keras.layers.Dense(1, kernel_initializer="ones")(inputs))
    for _ in range(3):
        other = tf.keras.Input((2,))
        tf.keras.Model(other, tf.keras.layers.Dense(1)(other))
    gc.collect()
    rebuilt = tf.keras.Model.from_config(kept.get_config())
    np.testing.assert_allclose(kept.predict(np.ones((1, 2)), verbose=0), [[2.0]])
    assert rebuilt.inputs[0].shape.as_list() == [None, 2]
