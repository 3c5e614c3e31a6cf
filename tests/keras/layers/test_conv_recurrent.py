"""ConvLSTM1D/2D/3D; the sums and losses are tf_keras 2.21's for the same weights."""
import numpy as np
import pytest

import eagerflow as tf
from eagerflow import keras

X = (np.arange(2 * 3 * 5 * 5 * 2, dtype="float32").reshape(2, 3, 5, 5, 2) % 7) / 7


@pytest.mark.parametrize("kwargs, shapes, sums", [
    ({}, [(2, 3, 3, 3)], [11.9943]),
    (dict(padding="same", return_sequences=True), [(2, 3, 5, 5, 3)], [55.5132]),
    (dict(strides=2, return_state=True), [(2, 2, 2, 3)] * 3, [5.6226, 5.6226, 10.5839]),
    (dict(go_backwards=True, activation="relu", recurrent_activation="sigmoid",
          use_bias=False), [(2, 3, 3, 3)], [10.8902]),
    (dict(dilation_rate=2), [(2, 1, 1, 3)], [1.5577])])
def test_conv_lstm2d_matches_tf(kwargs, shapes, sums):
    layer = keras.layers.ConvLSTM2D(3, 3, kernel_initializer=keras.initializers.Constant(0.05),
                                    recurrent_initializer=keras.initializers.Constant(-0.03),
                                    **kwargs)
    out = layer(X)
    outs = out if isinstance(out, list) else [out]
    assert [tuple(o.shape) for o in outs] == shapes
    np.testing.assert_allclose([float(tf.reduce_sum(o)) for o in outs], sums, atol=1e-3)
    assert [w.name.split("/", 1)[1] for w in layer.weights] == [
        "kernel:0", "recurrent_kernel:0", "bias:0"][:len(layer.weights)]
    assert layer.name.startswith("conv_lstm2d")


def test_conv_lstm_1d_3d_and_config():
    out = keras.layers.ConvLSTM1D(2, 2, kernel_initializer="ones",
                                  recurrent_initializer="zeros")(X[:, :, 0])
    np.testing.assert_allclose(out.numpy().ravel()[:6],
                               [0.8693, 0.8693, 0.9212, 0.9212, 0.7412, 0.7412], atol=1e-4)
    layer = keras.layers.ConvLSTM3D(1, 2, kernel_initializer="ones")
    assert layer(np.ones((1, 2, 3, 3, 3, 1), "float32")).shape == (1, 2, 2, 2, 1)
    config = keras.layers.ConvLSTM2D(3, (2, 3), strides=(1, 2), name="cl").get_config()
    assert config["recurrent_activation"] == "hard_sigmoid" and "activity_regularizer" in config
    keys = list(config)  # (in Keras's order, as get_config() prints)
    assert keys[keys.index("bias_regularizer") + 1] == "activity_regularizer"
    clone = keras.layers.ConvLSTM2D.from_config(config)
    assert (clone.cell.kernel_size, clone.cell.strides, clone.name) == ((2, 3), (1, 2), "cl")


def test_conv_lstm_model_trains_like_tf(tmp_path):
    model = keras.Sequential([
        keras.Input((None, 5, 5, 2)),
        keras.layers.ConvLSTM2D(4, 3, padding="same", return_sequences=True),
        keras.layers.BatchNormalization(), keras.layers.ConvLSTM2D(2, 3),
        keras.layers.Flatten(), keras.layers.Dense(1)])
    assert model.layers[0].output_shape == (None, None, 5, 5, 4)
    assert model.layers[0].count_params() == 880
    rs = np.random.RandomState(0)
    model.set_weights([rs.uniform(-0.3, 0.3, w.shape).astype("float32")
                       for w in model.get_weights()])
    model.compile(keras.optimizers.SGD(0.01), "mse")
    history = model.fit(X, np.ones((2, 1)), epochs=2, verbose=0)
    np.testing.assert_allclose(history.history["loss"], [0.9039, 0.8445], atol=1e-4)
    model.save(tmp_path / "m.keras")
    loaded = keras.models.load_model(tmp_path / "m.keras")
    np.testing.assert_allclose(loaded.predict(X, verbose=0), model.predict(X, verbose=0),
                               atol=1e-6)


def test_dropout_draws_as_tf():
    # each gate's inputs and states have a mask of their own, drawn in TF's order (first
    # seeded call: TF's values); one mask serves every step, and none outside training
    tf.keras.utils.set_random_seed(5)
    layer = keras.layers.ConvLSTM2D(3, 3, kernel_initializer=keras.initializers.Constant(0.05),
                                    recurrent_initializer=keras.initializers.Constant(-0.03),
                                    dropout=0.3, recurrent_dropout=0.2, return_sequences=True)
    out = layer(X, training=True)
    np.testing.assert_allclose(float(tf.reduce_sum(out)), 27.4015, atol=1e-3)
    np.testing.assert_allclose(out.numpy().ravel()[:4], [0.1136, 0.1136, 0.1136, 0.1393],
                               atol=1e-4)
    plain = keras.layers.ConvLSTM2D(3, 3, return_sequences=True)
    plain(X)
    plain.set_weights(layer.get_weights())
    np.testing.assert_allclose(layer(X, training=False), plain(X), atol=1e-6)
    np.testing.assert_allclose(layer(X), plain(X), atol=1e-6)
    # a unit kept (or dropped) at the first step is at every step eagerly; in a function,
    # as Keras's while_loop, each step draws its masks anew
    ones = keras.layers.ConvLSTM1D(8, 1, kernel_initializer="ones", use_bias=False,
                                   recurrent_initializer="zeros", dropout=0.5,
                                   return_sequences=True, activation=None,
                                   recurrent_activation=None)
    step = tf.function(lambda x: ones(x, training=True),
                       input_signature=[tf.TensorSpec((None, None, 1, 1))])
    for out, same in ((ones(np.ones((64, 6, 1, 1), "float32"), training=True), True),
                      (step(np.ones((64, 6, 1, 1), "float32")), False)):
        kept = out.numpy() != 0  # (kept where the masks of gates i, c and o all keep it)
        assert np.all(kept == kept[:, :1]) == same and 0.05 < kept.mean() < 0.25


def test_conv_lstm_checks_the_rank_of_its_inputs_before_it_builds():
    with pytest.raises(ValueError, match=r'^Input 0 of layer "conv_lstm2d\w*" is incompatible '
                                         r"with the layer: expected ndim=5, found ndim=4\. Full "
                                         r"shape received: \(2, 3, 6, 6\)$"):
        keras.layers.ConvLSTM2D(2, 3)(tf.ones([2, 3, 6, 6]))


@pytest.mark.parametrize("cls, input_shape, kwargs, expected", [
    # (tf_keras 2.21's shapes)
    ("ConvLSTM1D", (2, 5, 9, 3), {}, (2, 7, 4)),
    ("ConvLSTM2D", (2, 5, 9, 8, 3), dict(return_sequences=True, strides=2), (2, 5, 4, 3, 4)),
    ("ConvLSTM2D", (None, None, None, 8, 3), dict(return_state=True, padding="same"),
     [(None, None, 8, 4)] * 3),
    ("ConvLSTM2D", (2, 5, 3, 9, 8), dict(data_format="channels_first", dilation_rate=2,
                                         return_state=True, return_sequences=True),
     [(2, 5, 4, 5, 4), (2, 4, 5, 4), (2, 4, 5, 4)]),
    ("ConvLSTM3D", (2, 5, 7, 6, 5, 3), dict(return_state=True),
     [(2, 5, 4, 3, 4)] * 3)])
def test_conv_lstm_compute_output_shape_keeps_the_feature_maps(cls, input_shape, kwargs,
                                                               expected):
    # (it gave (batch, filters) states and outputs, without the maps' spatial dimensions)
    shape = getattr(keras.layers, cls)(4, 3, **kwargs).compute_output_shape(input_shape)
    if isinstance(expected, list):
        assert [tuple(s.as_list()) for s in shape] == expected
    else:
        assert tuple(shape.as_list()) == expected
