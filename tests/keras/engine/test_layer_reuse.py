"""Built layers reused on inputs they cannot take, as tf_keras reports it."""
import numpy as np
import pytest

import eagerflow as tf


def test_built_layer_connected_on_wrong_shape_reports_its_call():
    # A built layer connected into a functional model is not checked against its input
    # spec: its call fails, described as the call that failed.
    dense = tf.keras.layers.Dense(2, name="dense")
    dense(tf.ones((1, 3)))
    with pytest.raises(ValueError) as info:
        dense(tf.keras.Input((4,)))
    message = str(info.value)
    assert message.startswith('Exception encountered when calling layer "dense" (type Dense).')
    assert "Dimensions must be equal, but are 4 and 3" in message
    # eagerly the spec still speaks first
    with pytest.raises(ValueError, match='^Input 0 of layer "dense" is incompatible'):
        dense(tf.ones((1, 4)))


def test_layer_spec_still_checked_before_build_and_inside_functions():
    class Fixed(tf.keras.layers.Layer):
        def __init__(self, name):
            super().__init__(name=name)
            self.input_spec = tf.keras.layers.InputSpec(shape=(None, 3))

        def call(self, x):
            return x

    with pytest.raises(ValueError, match='^Input 0 of layer "fixed" is incompatible'):
        Fixed(name="fixed")(tf.keras.Input((4,)))
    conv = tf.keras.layers.Conv2D(2, 3, name="conv2d")
    conv(tf.ones((1, 5, 5, 3)))
    with pytest.raises(ValueError, match="^Exception encountered when calling layer \"conv2d\""):
        conv(tf.keras.Input((5, 5, 4)))


def test_built_layer_that_would_take_wrong_shape_is_still_refused():
    # (where the call itself takes the input, the spec's error is raised after it)
    lstm = tf.keras.layers.LSTM(2, name="lstm")
    lstm(tf.ones((1, 4, 3)))
    with pytest.raises(ValueError, match='^Input 0 of layer "lstm" is incompatible'):
        lstm(tf.keras.Input((4, 5)))


def test_sequential_passes_an_input_added_after_its_first_on():
    # As Keras: a second `Input` is called on the output so far (passing it on), not a
    # disconnected graph.
    model = tf.keras.Sequential([tf.keras.Input((3,)), tf.keras.Input((3,))])
    assert [layer.name for layer in model.layers] == [model.layers[0].name]
    assert isinstance(model.layers[0], tf.keras.layers.InputLayer)
    assert model(tf.ones((1, 3))).numpy().tolist() == [[1.0, 1.0, 1.0]]
    model = tf.keras.Sequential([tf.keras.Input((3,)), tf.keras.layers.Dense(2),
                                 tf.keras.Input((2,)), tf.keras.layers.Dense(4)])
    assert len(model.layers) == 3
    assert model.outputs[0].shape.as_list() == [None, 4]
    assert model(tf.ones((1, 3))).shape == (1, 4)


def test_fit_errors_name_the_batch_as_the_iterator_gives_it():
    inputs = tf.keras.Input((3,))
    model = tf.keras.Model(inputs, tf.keras.layers.Dense(2)(inputs))
    model.compile("sgd", "mse")
    with pytest.raises(ValueError) as info:
        model.fit(np.ones((2, 3)), np.ones((2, 3)), verbose=0)
    # (the loss named as its function, the targets as the iterator's second output)
    assert "{{node mean_squared_error/SquaredDifference}}" in str(info.value)
    assert "IteratorGetNext:1)" in str(info.value)
    assert [loss.name for loss in model.compiled_loss._losses] == ["mean_squared_error"]
