"""`tf.keras.models.clone_model`: new input tensors, the clone's class, and models other
than Sequential and functional ones (values as tf_keras gives them)."""
import numpy as np
import pytest

import eagerflow as tf

keras = tf.keras


def _functional():
    inputs = keras.Input((4,), name="a")
    x = keras.layers.Dense(3, name="d", kernel_initializer="ones")(inputs)
    return keras.Model(inputs, keras.layers.Dense(2, name="e")(tf.nn.relu(x * 2.0)),
                       name="orig")


def test_a_functional_clone_is_built_on_the_given_input_tensors():
    model = _functional()
    new_inputs = keras.Input((4,), name="new_in")
    clone = keras.models.clone_model(model, input_tensors=new_inputs)
    assert clone.name == "orig" and clone.input_names == ["new_in"]
    assert [layer.name for layer in clone.layers] == [
        "new_in", "d", "tf.math.multiply", "tf.nn.relu", "e"]
    assert clone.inputs[0] is new_inputs
    clone.set_weights(model.get_weights())
    x = np.arange(8, dtype="float32").reshape(2, 4)
    np.testing.assert_allclose(clone(x), model(x), rtol=1e-6)
    listed = keras.models.clone_model(model, input_tensors=[keras.Input((4,), name="xx")])
    assert listed.input_names == ["xx"]


def test_a_sequential_clone_takes_the_input_layer_of_the_given_tensor():
    seq = keras.Sequential([keras.layers.Dense(2, input_shape=(3,), name="s1"),
                            keras.layers.Dense(1, name="s2")], name="seq")
    clone = keras.models.clone_model(seq, input_tensors=keras.Input((3,), name="q"))
    assert (clone.name, clone.input_names) == ("seq", ["q"])
    assert [layer.name for layer in clone.layers] == ["s1", "s2"]
    with pytest.raises(ValueError, match="we expect at most one tensor"):
        keras.models.clone_model(seq, input_tensors=[keras.Input((3,)), keras.Input((3,))])
    with pytest.raises(ValueError, match="other than an `InputLayer`"):
        keras.models.clone_model(seq, input_tensors=keras.layers.Dense(3)(keras.Input((3,))))
    with pytest.raises(ValueError, match="Expected `layer_fn` argument to be a callable"):
        keras.models.clone_model(seq, clone_function=3)


def test_a_clone_keeps_a_model_subclass_built_functionally():
    class Plain(keras.Model):
        pass

    class OwnInit(keras.Model):
        def __init__(self, inputs, outputs, **kwargs):
            super().__init__(inputs, outputs, **kwargs)

    inputs = keras.Input((3,))
    plain = Plain(inputs, keras.layers.Dense(2)(inputs))
    own = OwnInit(inputs, keras.layers.Dense(2)(inputs))
    assert type(keras.models.clone_model(plain)) is Plain
    assert type(keras.models.clone_model(own)).__name__ == "Functional"


def test_other_models_and_layers_are_remade_from_their_config():
    class Sub(keras.Model):
        def __init__(self, units):
            super().__init__()
            self.d = keras.layers.Dense(units)

        def call(self, x):
            return self.d(x)

    clone = keras.models.clone_model(Sub(3))
    assert type(clone) is Sub and clone.d.units == 3 and not clone.built
    dense = keras.models.clone_model(keras.layers.Dense(2, name="zz"))
    assert (type(dense).__name__, dense.units) == ("Dense", 2)
    with pytest.raises(ValueError, match="Arguments clone_function and input_tensors are only "
                                         "supported for Sequential models or Functional"):
        keras.models.clone_model(Sub(3), clone_function=lambda layer: layer)


class _Built(keras.Model):
    """A model built functionally in its constructor, with a config of its own."""

    def __init__(self, units=2, **kwargs):
        inputs = keras.Input((3,))
        super().__init__(inputs, keras.layers.Dense(units)(inputs), **kwargs)
        self.units = units

    def get_config(self):
        return {"units": self.units, "name": self.name}


def test_a_functional_subclass_with_its_own_config_is_remade_by_its_constructor():
    model = _Built(4, name="fm")
    again = _Built.from_config(model.get_config())
    assert (type(again), again.name, again.units, again.output_shape) == (
        _Built, "fm", 4, (None, 4))
    clone = keras.models.clone_model(model)
    assert type(clone) is _Built and clone.units == 4
    with pytest.raises(TypeError, match="Unable to revive model from config"):
        _Built.from_config({"units": 2, "nope": 1})


def test_a_functional_config_makes_a_model_of_a_class_built_as_functional():
    class Plain(keras.Model):
        pass

    inputs = keras.Input((3,))
    config = Plain(inputs, keras.layers.Dense(2)(inputs)).get_config()
    assert type(Plain.from_config(config)) is Plain
    assert type(keras.Model.from_config(config)).__name__ == "Functional"
