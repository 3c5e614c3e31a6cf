"""Writes, with real TensorFlow, the checkpoints of the "Migrating model checkpoints" and
"Use TF1.x models in TF2 workflows" guides that tests/checkpoint/test_migration_interop.py
reads (not run by tests).

    TF_USE_LEGACY_KERAS=1 python tests/checkpoint/data/make_migration_checkpoints.py

Under tf/migration/: ``tf1-ckpt`` (TF 1's `Saver` in a session: ``a`` = 1.0 and
``scoped/c`` = [3.0, 3.0]), ``tf2-in-sess-1`` (`tf.train.Checkpoint` of those variables
saved in the session), and a Keras model around a ``track_tf1_style_variables`` layer
(``dense/kernel`` of 0.5, ``dense/dense/kernel`` of ones, ``dense/dense/bias`` of zeros) as
``shim-weights`` (`save_weights`), ``shim-ckpt`` (`Checkpoint.write`) and ``shim-by-name``
(`Saver` of its variables).
"""
import os
import shutil

import tensorflow as tf

tf1 = tf.compat.v1
HERE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "tf", "migration")


class DenseLayer(tf.keras.layers.Layer):
    @tf1.keras.utils.track_tf1_style_variables
    def call(self, inputs):
        with tf1.variable_scope("dense"):
            kernel = tf1.get_variable("kernel", [inputs.shape[-1], 2],
                                      initializer=tf1.constant_initializer(0.5))
            return tf1.layers.dense(tf.matmul(inputs, kernel), 3,
                                    kernel_initializer=tf1.ones_initializer())


def main():
    shutil.rmtree(HERE, ignore_errors=True)
    os.makedirs(HERE)
    os.chdir(HERE)
    with tf.Graph().as_default():
        a = tf1.get_variable("a", shape=[], initializer=tf1.constant_initializer(1))
        with tf1.variable_scope("scoped"):
            tf1.get_variable("c", shape=[2], initializer=tf1.constant_initializer(3))
        with tf1.Session() as sess:
            sess.run(tf1.global_variables_initializer())
            tf1.train.Saver().save(sess, "tf1-ckpt")
            tf.train.Checkpoint(var_list={v.name.split(":")[0]: v
                                          for v in tf1.global_variables()}).save("tf2-in-sess")
    del a
    inputs = tf.keras.Input(shape=(4,))
    model = tf.keras.Model(inputs, DenseLayer()(inputs))
    model(tf.ones((1, 4)))
    model.save_weights("shim-weights")
    tf.train.Checkpoint(model=model).write("shim-ckpt")
    tf1.train.Saver(model.variables).save(None, "shim-by-name")
    os.remove("checkpoint")


if __name__ == "__main__":
    main()
