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
