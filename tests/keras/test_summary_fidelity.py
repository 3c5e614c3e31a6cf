"""`Model.summary` and the model's graph as tf_keras shows them."""
import re

import numpy as np

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


def test_a_reduction_of_a_ragged_keras_tensor_is_a_layer():
    inputs = keras.Input((None,), dtype="int32", ragged=True)
    embedded = layers.Embedding(10, 2, embeddings_initializer="ones")(inputs)
    mean = tf.reduce_mean(embedded, axis=1)  # (a TFOpLambda layer, as in tf_keras)
    assert mean.shape.as_list() == [None, 2]
    model = keras.Model(inputs, mean)
    assert model.layers[-1].name == "tf.math.reduce_mean"
    result = model(tf.ragged.constant([[1, 2, 3], [4]]))
    np.testing.assert_array_equal(result.numpy(), np.ones((2, 2), "float32"))


def test_summary_shows_the_shape_of_a_ragged_output():
    inputs = keras.Input((None,), dtype="int32", ragged=True)
    model = keras.Model(inputs, layers.Embedding(10, 2)(inputs))
    assert model.layers[1].output_shape == (None, None, 2)
    lines = []
    model.summary(print_fn=lines.append)
    assert any(re.match(r" embedding(_\d+)? \(Embedding\) +\(None, None, 2\) +20 +$", line)
               for line in lines)
