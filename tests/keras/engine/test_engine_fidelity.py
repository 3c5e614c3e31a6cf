"""Layer and Model behaviours checked against tf_keras: reprs, nodes, configs, submodules."""
import numpy as np
import pytest

import eagerflow as tf

keras = tf.keras


def test_keras_tensor_without_history_has_no_creator():
    x = keras.layers.Embedding(10, 8, mask_zero=True, name="emb")(keras.Input((None,)))
    assert str(x._keras_mask) == ("KerasTensor(type_spec=TensorSpec(shape=(None, None), "
                                  "dtype=tf.bool, name=None), name='NotEqual:0')")
    assert repr(x._keras_mask) == "<KerasTensor: shape=(None, None) dtype=bool>"
    assert repr(x).endswith("(created by layer 'emb')>")


def test_inbound_and_outbound_nodes_are_public():
    i = keras.Input((3,))
    d = keras.layers.Dense(2)
    keras.layers.Dense(1)(d(i))
    assert d.inbound_nodes is d._inbound_nodes and len(d.inbound_nodes) == 1
    assert len(d.outbound_nodes) == 1 and keras.layers.Dense(1).inbound_nodes == []


def test_shared_layer_properties():
    shared = keras.layers.Activation("relu")
    a, b = keras.Input((4,)), keras.Input((7,))
    shared(a)
    shared(b)
    assert shared.output.shape.as_list() == [None, 4] and shared.input is a
    assert shared.input_mask is None and shared.output_mask is None
    with pytest.raises(AttributeError, match='different output shapes. Hence the notion of '
                                             '"output shape"'):
        shared.output_shape
    assert shared.get_input_shape_at(-1) == (None, 7)
    with pytest.raises(ValueError, match="Asked to get output shape at node 5, but the layer "
                                         "has only 2 inbound nodes."):
        shared.get_output_shape_at(5)
    unused = keras.layers.Dense(3, name="u")
    with pytest.raises(AttributeError, match="^Layer u has no inbound nodes.$"):
        unused.output
    with pytest.raises(AttributeError, match="Note that the `input_shape` property"):
        unused.input_shape
    with pytest.raises(RuntimeError, match="has never been called and thus has no defined "
                                           "input.$"):
        unused.get_input_mask_at(0)


class _Drop(keras.layers.Layer):
    def __init__(self, rate, flag=True, **kw):
        super().__init__(**kw)
        self.rate = rate


class _DropKwargs(keras.layers.Layer):
    def __init__(self, rate, flag=True, **kwargs):
        super().__init__(**kwargs)


def test_default_get_config_records_explicit_arguments():
    config = _Drop(0.5, flag=False, name="x").get_config()
    assert list(config.items()) == [("flag", False), ("rate", 0.5)]  # no `**kwargs`: no name
    assert _Drop.from_config(config).rate == 0.5
    assert list(_DropKwargs(0.5, flag=False).get_config()) == [
        "name", "trainable", "dtype", "flag", "rate"]
    assert _Drop([1, (2, "a")]).get_config() == {"rate": [1, (2, "a")]}
    with pytest.raises(NotImplementedError, match="non-serializable argument values"):
        _Drop(np.float32(0.5)).get_config()


def test_subclassed_model_default_config():
    class M(keras.Model):
        def __init__(self, units, **kw):
            super().__init__(**kw)
            self.units = units

    assert M(3).get_config() == {"units": 3}
    assert M(object()).get_config() == {}  # a model's config is empty rather than an error


def test_reset_states_resets_stateful_layers():
    model = keras.Sequential([keras.layers.SimpleRNN(2, stateful=True,
                                                     batch_input_shape=(1, 3, 1))])
    model.predict(np.ones((1, 3, 1)), verbose=0)
    assert np.abs(model.layers[0].states[0].numpy()).sum() > 0
    assert model.reset_states() is None
    assert not model.layers[0].states[0].numpy().any()


def test_submodules_include_metrics_in_tf_order():
    class Inner(keras.layers.Layer):
        def __init__(self):
            super().__init__()
            self.z = keras.layers.Dense(1, name="z")
            self.a = keras.layers.Dense(1, name="a")

    class Outer(keras.Model):
        def __init__(self):
            super().__init__()
            self.y = Inner()
            self.b = keras.layers.Dense(1, name="b")
            self.x = keras.metrics.Mean(name="x")

    assert [m.name for m in Outer().submodules] == ["x", "inner", "b", "z", "a"]
    i = keras.Input((3,), name="in")
    model = keras.Model(i, keras.layers.Dense(1, name="d2")(keras.layers.Dense(2, name="d1")(i)))
    assert [m.name for m in model.submodules] == ["in", "d2", "d1"]


@pytest.mark.parametrize("make", [
    lambda: keras.layers.Dense(2, kernel_initializer="no_such"),
    lambda: keras.losses.get("no_such"),
    lambda: keras.optimizers.get("no_such"),
    lambda: keras.constraints.get("no_such")])
def test_unknown_identifier_message(make):
    with pytest.raises(ValueError, match=r"in the scope\. See https://www\.tensorflow\.org/guide/"
                                         r"keras/save_and_serialize#registering_the_custom_"
                                         r"object for details\.$"):
        make()


def test_array_batches_have_a_static_size_when_the_rows_divide_evenly():
    # as tf_keras's array adapter, which then makes only full batches: a traced step sees
    # (batch_size, ...), and a stateful layer checks its fixed batch size before running
    seen = []

    class Shape(tf.keras.layers.Layer):
        def call(self, x):
            seen.append(tuple(x.shape.as_list()))
            return x
    model = tf.keras.Sequential([tf.keras.Input((4, 2)), Shape(), tf.keras.layers.Dense(1)])
    model.compile("sgd", "mse")
    for rows, batch in [(8, 2), (7, 2), (64, None)]:
        model.predict_function = None
        model.predict(np.ones((rows, 4, 2)), batch_size=batch, verbose=0)
    model.fit(np.ones((10, 4, 2)), np.ones((10, 1)), batch_size=4, validation_split=0.2,
              verbose=0)
    # (a first fit traces its step again after the optimizer made its variables)
    assert seen[1:] == [(2, 4, 2), (None, 4, 2), (32, 4, 2), (4, 4, 2), (4, 4, 2),
                        (None, 4, 2)]
    stateful = tf.keras.Sequential([
        tf.keras.layers.LSTM(4, stateful=True, batch_input_shape=(2, 4, 2))])
    with pytest.raises(ValueError, match=r'Input 0 of layer "lstm\w*" is incompatible with '
                                         r"the layer: expected shape=\(2, None, 2\), found "
                                         r"shape=\(3, 4, 2\)"):
        stateful.predict(np.ones((3, 4, 2), "float32"), batch_size=3, verbose=0)
