"""`Model.summary` and the model's graph as tf_keras shows them."""
import eagerflow as tf

keras = tf.keras
layers = keras.layers


def test_an_output_a_layer_returns_twice_keeps_each_place():
    # An LSTM with return_state returns its last output and its state h, equal values; as
    # in tf_keras they are two tensors, and the graph names each by its own place.
    inputs = keras.Input((5, 3), name="seq_in")
    output, h, c = layers.LSTM(4, return_state=True, name="lstm")(inputs)
    assert output is not h
    model = keras.Model(inputs, [layers.Dense(1, name="d1")(output),
                                 layers.Dense(1, name="d2")(h), c])
    config = model.get_config()
    inbound = {layer["name"]: layer["inbound_nodes"] for layer in config["layers"]}
    assert inbound["d1"] == [[["lstm", 0, 0, {}]]]
    assert inbound["d2"] == [[["lstm", 0, 1, {}]]]
    assert config["output_layers"] == [["d1", 0, 0], ["d2", 0, 0], ["lstm", 0, 2]]
    lines = []
    model.summary(print_fn=lines.append)
    assert any(line.startswith(" d1 (Dense)") and "['lstm[0][0]']" in line for line in lines)
    assert any(line.startswith(" d2 (Dense)") and "['lstm[0][1]']" in line for line in lines)
