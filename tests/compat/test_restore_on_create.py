"""``tf.contrib.eager.restore_variables_on_create`` (TF 1.x's contrib, documented
behaviour: values by variable name, once per name, NotFoundError for a missing name)."""
import os

import numpy as np
import pytest

import eagerflow as tf
import eagerflow.compat.v1 as tf1
from eagerflow.contrib import eager as tfe


@pytest.fixture
def ckpt(tmp_path):
    w = tf.Variable([1.0, 2.0], name="w")
    b = tf.Variable(7, name="scope/b")
    return tfe.Saver([w, b]).save(os.path.join(str(tmp_path), "ckpt"))


def test_variables_made_in_the_block_take_the_checkpoints_values(ckpt):
    with tfe.restore_variables_on_create(ckpt):
        w = tfe.Variable([0.0, 0.0], name="w")
        b = tf.Variable(0, name="scope/b")
        again = tf.Variable([5.0, 5.0], name="w")  # (restored once per name)
    np.testing.assert_array_equal(w.numpy(), [1.0, 2.0])
    assert int(b) == 7
    np.testing.assert_array_equal(again.numpy(), [5.0, 5.0])
    after = tf.Variable([0.0, 0.0], name="w")
    np.testing.assert_array_equal(after.numpy(), [0.0, 0.0])


def test_map_func_and_missing_names(ckpt):
    with tfe.restore_variables_on_create(ckpt, map_func=lambda name: "scope/" + name):
        assert int(tf.Variable(0, name="b")) == 7
        with pytest.raises(tf.errors.NotFoundError, match="scope/c not found in checkpoint"):
            tf.Variable(0, name="c")
    with pytest.raises(ValueError, match="map_func must be callable"):
        with tfe.restore_variables_on_create(ckpt, map_func=3):
            pass


def test_no_checkpoint_restores_nothing_and_graphs_are_refused(ckpt):
    with tfe.restore_variables_on_create(None):
        assert float(tf.Variable(4.0, name="w")) == 4.0
    with tf1.Graph().as_default():
        with pytest.raises(ValueError, match="can only be used with eager execution"):
            with tfe.restore_variables_on_create(ckpt):
                pass
