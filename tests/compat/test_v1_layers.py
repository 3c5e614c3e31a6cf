"""TF 1's layers (``tf.compat.v1.layers``) in graphs, against TF's recorded results
(`data/make_v1_layers_data.py`)."""
import json
import os

import numpy as np
import pytest

import eagerflow as tf
import eagerflow.compat.v1 as tf1

from tests.compat.v1_layers_programs import cnn, layer_objects

with open(os.path.join(os.path.dirname(__file__), "data", "v1_layers.json")) as _f:
    RECORDED = json.load(_f)


def test_cnn_trains_as_tfs_with_its_variables_names_and_batch_norm_updates():
    got, want = cnn(tf1), dict(RECORDED["cnn"])
    np.testing.assert_allclose(got.pop("losses"), want.pop("losses"), rtol=1e-5)
    np.testing.assert_allclose(got.pop("final"), want.pop("final"), rtol=1e-5)
    for g, w in zip(got.pop("moving"), want.pop("moving"), strict=True):
        np.testing.assert_allclose(g, w, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(got.pop("shared"), want.pop("shared"), rtol=1e-5, atol=1e-6)
    assert got == want


def test_layer_objects_share_their_scope_across_calls():
    got, want = layer_objects(tf1), dict(RECORDED["layer_objects"])
    for g, w in zip(got.pop("values"), want.pop("values"), strict=True):
        np.testing.assert_allclose(g, w, rtol=1e-5, atol=1e-6)
    # (TF normalizes a matrix by a composite whose last op is ``batchnorm/add_1``)
    assert got.pop("tensors")[:3] == want.pop("tensors")[:3]
    assert got == want


def test_reuse_errors_are_tfs():
    tf1.disable_eager_execution()
    x = tf1.placeholder(tf.float32, [None, 3])
    tf1.layers.dense(x, 2, name="fc")
    with pytest.raises(ValueError, match="Variable fc/kernel already exists, disallowed"):
        tf1.layers.dense(x, 2, name="fc")
    with pytest.raises(ValueError, match="Variable other/kernel does not exist"):
        tf1.layers.dense(x, 2, name="other", reuse=True)
    with pytest.raises(ValueError, match="has not been used yet"):
        tf1.layers.Dense(2).scope_name


def test_eagerly_they_are_keras_layers():
    layer = tf1.layers.Dense(2, kernel_initializer="ones")
    assert isinstance(layer, tf.keras.layers.Dense)
    assert layer(tf.ones([1, 3])).numpy().tolist() == [[3.0, 3.0]]
    assert tf1.layers.flatten(tf.ones([2, 2, 3])).shape == (2, 6)
    x = tf.ones([4, 5])
    assert tf1.layers.dropout(x, 0.5) is not None
    assert np.array_equal(tf1.layers.dropout(x, 0.5).numpy(), x.numpy())


def test_v1_and_keras_layers_of_one_name_get_unique_scopes_as_in_tf():
    # Names as TF 2.21 (tf_keras) gives them: whichever comes second gets the name scope
    # `d_1`; a Keras layer's weights follow its scope, a v1 layer's its variable scope.
    g = tf.compat.v1.Graph()
    with g.as_default():
        x = tf.compat.v1.placeholder(tf.float32, [None, 3], name="x")
        yk = tf.keras.layers.Dense(4, name="d")(x)
        y1 = tf.compat.v1.layers.dense(x, 4, name="d")
        y2 = tf.compat.v1.layers.dense(x, 4, name="d", reuse=True)
        names = [v.name for v in tf.compat.v1.global_variables()]
    assert [yk.name, y1.name, y2.name] == ["d/BiasAdd:0", "d_1/BiasAdd:0", "d_2/BiasAdd:0"]
    assert names == ["d/kernel:0", "d/bias:0", "d/kernel_1:0", "d/bias_1:0"]
    g = tf.compat.v1.Graph()
    with g.as_default():
        x = tf.compat.v1.placeholder(tf.float32, [None, 3], name="x")
        y1 = tf.compat.v1.layers.dense(x, 4, name="d")
        layer = tf.keras.layers.Dense(4, name="d")
        yk, yk2 = layer(x), layer(x)
        names = [v.name for v in tf.compat.v1.global_variables()]
    assert [y1.name, yk.name, yk2.name] == ["d/BiasAdd:0", "d_1/BiasAdd:0", "d_2/BiasAdd:0"]
    assert names == ["d/kernel:0", "d/bias:0", "d_1/kernel:0", "d_1/bias:0"]


@pytest.mark.parametrize("shape", [[None, 2], [None, 1, 1, 2]])
def test_batch_normalization_updates_with_a_training_placeholder(shape):
    with tf1.Graph().as_default():
        x = tf1.placeholder(tf.float32, shape)
        training = tf1.placeholder(tf.bool, [])
        y = tf1.layers.batch_normalization(x, training=training)
        updates = tf1.get_collection(tf1.GraphKeys.UPDATE_OPS)
        assert len(updates) == 2
        with tf1.control_dependencies(updates):
            trained = tf.identity(y)
        mean = [v for v in tf1.global_variables() if "moving_mean" in v.name][0]
        data = np.array([[1.0, 2.0], [3.0, 6.0]], np.float32).reshape([2] + shape[1:-1] + [2])
        with tf1.Session() as sess:
            sess.run(tf1.global_variables_initializer())
            sess.run(y, {x: data, training: True})  # (without the updates: unchanged)
            assert sess.run(mean).tolist() == [0.0, 0.0]
            out = sess.run(trained, {x: data, training: False})
            np.testing.assert_allclose(out, data / np.sqrt(1.001), rtol=1e-6)
            assert sess.run(mean).tolist() == [0.0, 0.0]
            out = sess.run(trained, {x: data, training: True})
            np.testing.assert_allclose(out.reshape(2, 2), [[-1.0, -1.0], [1.0, 1.0]], atol=1e-3)
            np.testing.assert_allclose(sess.run(mean), [0.02, 0.04], rtol=1e-6)


def test_batch_renormalization_updates_all_its_statistics_with_a_training_placeholder():
    with tf1.Graph().as_default():
        x = tf1.placeholder(tf.float32, [None, 3])
        training = tf1.placeholder_with_default(True, [])
        tf1.layers.batch_normalization(x, training=training, renorm=True, renorm_momentum=0.9)
        data = np.random.RandomState(0).rand(4, 3).astype(np.float32)
        with tf1.Session() as sess:
            sess.run(tf1.global_variables_initializer())
            sess.run(tf1.get_collection(tf1.GraphKeys.UPDATE_OPS), {x: data})
            got = {v.name.split("/")[1][:-2]: value for v, value in
                   zip(tf1.global_variables(), sess.run(tf1.global_variables()))}
    want = {  # (TF 2.21's values)
        "moving_mean": [0.0048, 0.0071, 0.0069], "moving_variance": [0.9806, 0.9826, 0.9825],
        "moving_stddev": [0.9908, 0.9918, 0.9917], "renorm_mean": [0.0479, 0.0706, 0.0685],
        "renorm_stddev": [0.9078, 0.9177, 0.9169]}
    for name, values in want.items():
        np.testing.assert_allclose(got[name], values, atol=1e-4, err_msg=name)


def test_layers_and_cells_take_the_variable_scopes_initializer_in_graphs_and_eagerly():
    # TF 1's layers leave their kernels' initializer to get_variable: the enclosing
    # scope's (DCGAN-style `variable_scope(..., initializer=...)`), else Glorot uniform
    def build():
        with tf1.variable_scope("a", initializer=tf1.constant_initializer(0.1)):
            dense = tf1.layers.dense(tf.ones([1, 3]), 2)
            conv = tf1.layers.conv2d(tf.ones([1, 4, 4, 1]), 2, 3, name="c")
            cell = tf1.nn.rnn_cell.GRUCell(2)
            tf1.nn.dynamic_rnn(cell, tf.ones([1, 2, 3]), dtype=tf.float32, scope="g")
            given = tf1.layers.Dense(2, kernel_initializer=tf1.ones_initializer())
            given(tf.ones([1, 3]))
        return dense, conv, cell, given

    dense, conv, cell, given = build()  # eagerly
    np.testing.assert_allclose(dense.numpy(), [[0.3, 0.3]], rtol=1e-6)
    np.testing.assert_allclose(conv.numpy(), np.full((1, 2, 2, 2), 0.9), rtol=1e-6)
    assert [(v.name, float(v.numpy().flat[0])) for v in cell.weights[::2]] == [
        ("a/g/gru_cell/gates/kernel:0", pytest.approx(0.1)),
        ("a/g/gru_cell/candidate/kernel:0", pytest.approx(0.1))]
    assert given.kernel.name == "a/dense_1/kernel:0" and given.kernel.numpy().min() == 1.0
    assert tf1.layers.Dense(2).get_config()["kernel_initializer"] is None
    with tf.Graph().as_default():
        dense, conv, _, _ = build()
        with tf1.Session() as sess:
            sess.run(tf1.global_variables_initializer())
            np.testing.assert_allclose(sess.run(dense), [[0.3, 0.3]], rtol=1e-6)
            np.testing.assert_allclose(sess.run(conv), np.full((1, 2, 2, 2), 0.9), rtol=1e-6)
