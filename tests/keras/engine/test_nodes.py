"""The nodes of a functional graph (``layer.inbound_nodes``) and Keras tensors' histories,
as tf_keras shows them."""
import numpy as np

import eagerflow as tf

keras = tf.keras


def _graph():
    a, b = keras.Input((4,), name="a"), keras.Input((4,), name="b")
    dense = keras.layers.Dense(3, name="d")
    xa = dense(a)
    joined = keras.layers.Concatenate(name="cat")([xa, b])
    out = keras.layers.Dropout(0.1, name="s")(joined, training=True)
    return a, b, xa, joined, out, keras.Model([a, b], out)


def test_a_calls_node_names_its_inbound_layers_tensors_and_shapes():
    a, b, xa, joined, out, model = _graph()
    node = model.get_layer("d").inbound_nodes[0]
    assert not node.is_input and node.inbound_layers is model.get_layer("a")
    assert node.input_tensors is a and node.output_tensors is xa
    assert (node.input_shapes, node.output_shapes) == ((None, 4), (None, 3))
    cat = model.get_layer("cat").inbound_nodes[0]
    assert [layer.name for layer in cat.inbound_layers] == ["d", "b"]
    assert cat.input_shapes == [(None, 3), (None, 4)]
    assert [(layer.name, n, t, x is b) for layer, n, t, x in cat.iterate_inbound()] == [
        ("d", 0, 0, False), ("b", 0, 0, True)]
    assert [p.layer.name for p in cat.parent_nodes] == ["d", "b"]
    assert cat.flat_input_ids == [str(id(xa)), str(id(b))]
    drop = model.get_layer("s").inbound_nodes[0]
    assert drop.call_kwargs == {"training": True} and drop.call_args[0] is joined


def test_an_input_layers_node_has_its_tensor_in_a_list_as_input_and_output():
    a, *_, model = _graph()
    node = model.get_layer("a").inbound_nodes[0]
    assert node.is_input and node.inbound_layers == [] and node.call_args == []
    assert node.input_tensors == [a] and node.output_tensors == [a]
    assert node.input_shapes == [(None, 4)] and node.output_shapes == [(None, 4)]
    assert model.get_layer("a").input is a  # (one tensor out of its list)


def test_keras_history_names_its_fields():
    a, b, xa, *_ = _graph()
    history = xa._keras_history
    assert type(history).__name__ == "KerasHistory"
    assert (history.layer.name, history.node_index, history.tensor_index) == ("d", 0, 0)
    layer, node_index, tensor_index = b._keras_history
    assert (layer.name, node_index, tensor_index) == ("b", 0, 0)


def test_a_layer_may_leave_an_output_none():
    import numpy as np

    class Pair(keras.layers.Layer):
        def call(self, x):
            return None, x * 2

    inputs = keras.Input((3,))
    missing, doubled = Pair(name="pair")(inputs)
    assert missing is None and doubled._keras_history.tensor_index == 1
    model = keras.Model(inputs, keras.layers.Dense(1, kernel_initializer="ones")(doubled))
    np.testing.assert_allclose(model(np.ones((1, 3), "float32")), [[6.0]])
    config = model.get_config()
    assert config["layers"][2]["inbound_nodes"] == [[["pair", 0, 1, {}]]]
    rebuilt = keras.Model.from_config(config, custom_objects={"Pair": Pair})
    rebuilt.set_weights(model.get_weights())
    np.testing.assert_allclose(rebuilt(np.ones((1, 3), "float32")), [[6.0]])


def test_keras_tensors_have_no_length_or_truth_and_iterate_over_a_known_first_dimension():
    import numpy as np
    import pytest

    x = keras.Input((3,))
    for use in (len, bool):
        with pytest.raises(TypeError, match="Keras symbolic inputs/outputs do not implement "
                                            "`__len__`"):
            use(x)
    with pytest.raises(TypeError, match="^Cannot iterate over a Tensor with unknown first "
                                        "dimension.$"):
        iter(x)
    fixed = keras.Input(batch_shape=(2, 3))
    first, second = fixed
    assert first._keras_history.layer.name.startswith("tf.__operators__.getitem")
    model = keras.Model(fixed, [first, second])
    data = np.arange(6, dtype="float32").reshape(2, 3)
    np.testing.assert_allclose(model(data)[1], data[1])


def test_a_nested_first_argument_keeps_its_structure_in_the_config():
    # tf_keras 2.21: the references keep the call's nesting (a tuple stays one), so a
    # layer taking ((a, b), c) is called alike from the config
    class Sum(tf.keras.layers.Layer):
        def call(self, inputs):
            (a, b), c = inputs
            return a + b + c

    a, b, c = (tf.keras.Input((2,), name=n) for n in "abc")
    y = Sum(name="s")([[a, b], c])
    z = tf.keras.layers.Add(name="add")((a, y))
    model = tf.keras.Model([a, b, c], z)
    nodes = {layer["name"]: layer["inbound_nodes"] for layer in model.get_config()["layers"]}
    assert nodes["s"] == [[[["a", 0, 0, {}], ["b", 0, 0, {}]], ["c", 0, 0, {}]]]
    assert nodes["add"] == [(["a", 0, 0, {}], ["s", 0, 0, {}])]
    again = tf.keras.Model.from_config(model.get_config(), custom_objects={"Sum": Sum})
    ones = [np.ones((1, 2), np.float32)] * 3
    np.testing.assert_array_equal(again(ones).numpy(), [[4.0, 4.0]])


def test_stacked_cells_keras_tensor_states_round_trip():
    x, h, c = tf.keras.Input((5, 3)), tf.keras.Input((4,)), tf.keras.Input((4,))
    layer = tf.keras.layers.RNN([tf.keras.layers.LSTMCell(4), tf.keras.layers.LSTMCell(4)])
    model = tf.keras.Model([x, h, c], layer(x, initial_state=[[h, c], [h, c]]))
    assert layer.input_shape == [(None, 5, 3), [(None, 4), (None, 4)], [(None, 4), (None, 4)]]
    again = tf.keras.models.model_from_json(model.to_json())
    again.set_weights(model.get_weights())
    data = [np.ones((2, 5, 3), np.float32), np.full((2, 4), 0.5, np.float32),
            np.full((2, 4), 0.2, np.float32)]
    np.testing.assert_allclose(again(data).numpy(), model(data).numpy(), rtol=1e-6)
