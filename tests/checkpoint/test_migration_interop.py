"""Checkpoints TensorFlow 2.21 wrote as the checkpoint migration guides write them
(data/make_migration_checkpoints.py) restore here: by name into `tf.train.Checkpoint`, in a
session, and into a Keras model around a ``track_tf1_style_variables`` layer."""
import os

import numpy as np
import pytest

import eagerflow as tf

tf1 = tf.compat.v1
DIR = os.path.join(os.path.dirname(__file__), "data", "tf", "migration")


def _path(name):
    return os.path.join(DIR, name)


def test_tfs_saver_checkpoint_restores_by_name():
    a = tf.Variable(0.0, name="a")
    with tf.name_scope("scoped"):
        c = tf.Variable([0.0, 0.0], name="c")
    tf.train.Checkpoint(v=[a, c]).restore(_path("tf1-ckpt")).assert_consumed()
    assert float(a.numpy()) == 1.0 and c.numpy().tolist() == [3.0, 3.0]


def test_checkpoint_tf_saved_in_a_session_restores_eagerly_and_in_a_session():
    a, c = tf.Variable(0.0), tf.Variable([0.0, 0.0])
    tf.train.Checkpoint(var_list={"a": a, "scoped/c": c}).restore(
        _path("tf2-in-sess-1")).assert_consumed()
    assert float(a.numpy()) == 1.0 and c.numpy().tolist() == [3.0, 3.0]
    with tf.Graph().as_default():
        a = tf1.get_variable("a", shape=[], initializer=tf1.zeros_initializer())
        with tf1.variable_scope("scoped"):
            c = tf1.get_variable("c", shape=[2], initializer=tf1.zeros_initializer())
        with tf1.Session() as sess:
            sess.run(tf1.global_variables_initializer())
            ckpt = tf.train.Checkpoint(var_list={v.name.split(":")[0]: v
                                                 for v in tf1.global_variables()})
            ckpt.restore(_path("tf2-in-sess-1")).run_restore_ops()
            assert sess.run(a) == 1.0 and sess.run(c).tolist() == [3.0, 3.0]


class _DenseLayer(tf.keras.layers.Layer):
    @tf1.keras.utils.track_tf1_style_variables
    def call(self, inputs):
        with tf1.variable_scope("dense"):
            kernel = tf1.get_variable("kernel", [inputs.shape[-1], 2])
            return tf1.layers.dense(tf.matmul(inputs, kernel), 3)


@pytest.mark.parametrize("how", ["load_weights", "checkpoint", "by_name"])
def test_shim_model_restores_tfs_checkpoints(how):
    inputs = tf.keras.Input(shape=(4,))
    model = tf.keras.Model(inputs, _DenseLayer()(inputs))
    model(tf.ones((1, 4)))
    assert [v.name for v in model.variables] == [
        "dense/dense/bias:0", "dense/dense/kernel:0", "dense/kernel:0"]
    if how == "load_weights":
        status = model.load_weights(_path("shim-weights"))
    elif how == "checkpoint":
        status = tf.train.Checkpoint(model=model).read(_path("shim-ckpt"))
    else:
        status = tf.train.Checkpoint(model=model).read(_path("shim-by-name"))
    status.assert_consumed()
    bias, dense_kernel, kernel = (v.numpy() for v in model.variables)
    assert not bias.any() and (dense_kernel == 1).all() and (kernel == 0.5).all()
    np.testing.assert_allclose(model(tf.ones((1, 4))).numpy(), [[4.0, 4.0, 4.0]])
