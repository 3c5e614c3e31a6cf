"""keras.utils.plot_model / model_to_dot without pydot, and get_source_inputs (tf_keras 2.21)."""
import pytest

from eagerflow import keras


def test_plot_model_without_pydot_raises_import_error():
    model = keras.Sequential([keras.Input((2,)), keras.layers.Dense(1)])
    with pytest.raises(ImportError, match=r"You must install pydot \(`pip install pydot`\) "
                                          r"and install graphviz"):
        keras.utils.plot_model(model, "model.png", show_shapes=True)
    with pytest.raises(ImportError, match="for model_to_dot to work"):
        keras.utils.model_to_dot(model)
    with pytest.raises(ValueError, match="This model has not yet been built"):
        keras.utils.plot_model(keras.Sequential([keras.layers.Dense(1)]))


def test_get_source_inputs():
    a, b = keras.Input((2,), name="a"), keras.Input((3,), name="b")
    hidden = keras.layers.Dense(2)(a)
    out = keras.layers.Dense(1)(keras.layers.concatenate([hidden, b]))
    assert keras.utils.get_source_inputs(out) == [a, b]
    assert keras.utils.get_source_inputs(hidden) == [a]
    assert keras.utils.get_source_inputs(a) == [a]


def test_interactive_logging_switch(capsys):
    import numpy as np
    model = keras.Sequential([keras.Input((2,)), keras.layers.Dense(1)])
    model.compile("sgd", "mse")
    assert keras.utils.is_interactive_logging_enabled()
    keras.utils.disable_interactive_logging()
    try:
        assert not keras.utils.is_interactive_logging_enabled()
        model.fit(np.ones((4, 2)), np.ones((4, 1)), epochs=2, verbose=2)
        model.evaluate(np.ones((4, 2)), np.ones((4, 1)), verbose=1)
        model.summary()  # (as Keras: to the log too)
        assert capsys.readouterr().out == ""
    finally:
        keras.utils.enable_interactive_logging()
    model.fit(np.ones((4, 2)), np.ones((4, 1)), epochs=1, verbose=2)
    out = capsys.readouterr().out
    assert out.startswith("1/1 - ") and " - loss: " in out


def test_count_params_is_no_public_utility_as_in_tf_keras():
    # (tf_keras counts a layer's parameters with it, but tf.keras.utils does not list it)
    assert not hasattr(keras.utils, "count_params")
    layer = keras.layers.Dense(2)
    layer.build((None, 3))
    assert layer.count_params() == 8
