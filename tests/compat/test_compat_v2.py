"""``import tensorflow.compat.v2 as tf`` (libraries written for TF 1 and 2 at once): the
whole TF 2 API under that name, plus `enable_v2_behavior`."""
import subprocess
import sys

import numpy as np

import eagerflow as tf
import eagerflow.compat.v2 as tf2


def test_compat_v2_is_the_tf2_api():
    assert tf.compat.v2 is tf2
    assert tf2.constant is tf.constant and tf2.nn.relu is tf.nn.relu
    assert tf2.keras.layers.Dense is tf.keras.layers.Dense
    assert tf2.compat.v1.Session is tf.compat.v1.Session
    assert tf2.__version__ == tf.__version__
    from eagerflow.compat.v2 import keras
    assert keras is tf.keras


def test_a_program_written_against_compat_v2_runs():
    tf2.enable_v2_behavior()
    assert tf2.executing_eagerly()
    model = tf2.keras.Sequential([tf2.keras.layers.Dense(1, kernel_initializer="ones")])
    y = model(np.ones((2, 3), np.float32))
    np.testing.assert_array_equal(y.numpy(), [[3.0], [3.0]])

    @tf2.function
    def double(x):
        return x * 2
    assert int(double(tf2.constant(4))) == 8


def test_importing_compat_v2_first_works():
    code = ("import eagerflow.compat.v2 as tf; tf.enable_v2_behavior(); "
            "print(tf.reduce_sum(tf.ones([2, 2])).numpy())")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout
    assert out.strip() == "4.0"
