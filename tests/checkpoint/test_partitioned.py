"""Checkpoints of TF 1 partitioned variables cross to TensorFlow 2.21 both ways.

TF's `Saver` writes a partitioned variable as one tensor under its full name, stored in
slices (the shards), not as ``w/part_0``, ``w/part_1``. data/tf/partitioned/ was written by
real TF and expected.json records what TF's readers list of it and what its `Saver`
restored into each layout (programs.py's `PARTITIONED_LAYOUTS`); data/ours/partitioned/ was
written here and tf_read.json records the same of TF reading it (data/partitioned.py).
"""
import json
import os

import numpy as np
import pytest

import eagerflow as tf
from tests.checkpoint.programs import (PARTITIONED_LAYOUTS, PARTITIONED_VALUES, as_json,
                                       partitioned_listed, partitioned_restored,
                                       partitioned_variables)
from tests.checkpoint.reference import DATA

TF_PREFIX = os.path.join(DATA, "tf", "partitioned", "model")
OUR_PREFIX = os.path.join(DATA, "ours", "partitioned", "model")


def _recorded(name):
    with open(os.path.join(os.path.dirname(OUR_PREFIX if "read" in name else TF_PREFIX),
                           name)) as f:
        return json.load(f)


def _plain(value):
    return json.loads(json.dumps(value))  # (tuples as lists, as recorded)


@pytest.fixture(scope="module")
def expected():
    return _recorded("expected.json")


@pytest.fixture(scope="module")
def tf_read():
    return _recorded("tf_read.json")


@pytest.mark.parametrize("what", ["list_variables", "dtypes", "debug_string", "values"])
def test_tf_partitioned_checkpoint_reads_as_in_tf(expected, what):
    """list_variables / the reader's maps show each partitioned variable once, whole."""
    assert _plain(partitioned_listed(tf, TF_PREFIX)[what]) == expected[what]


@pytest.fixture(scope="module")
def restored_from_tf():
    return partitioned_restored(tf, TF_PREFIX)


@pytest.mark.parametrize("layout", [*PARTITIONED_LAYOUTS, "meta_graph"])
def test_tf_partitioned_checkpoint_restores_into_any_layout(restored_from_tf, expected,
                                                            layout):
    """Into the same shards, other shards, unpartitioned variables, and through the
    checkpoint's own meta graph (whose restore reads the slices by their specs)."""
    assert restored_from_tf[layout] == expected["restored"][layout]


@pytest.mark.parametrize("what", ["list_variables", "dtypes", "debug_string", "values"])
def test_tf_lists_our_partitioned_checkpoint_as_its_own(expected, tf_read, what):
    assert tf_read[what] == expected[what]


@pytest.mark.parametrize("layout", [*PARTITIONED_LAYOUTS, "meta_graph"])
def test_tf_restored_our_partitioned_checkpoint_into_any_layout(expected, tf_read, layout):
    assert tf_read["restored"][layout] == expected["restored"][layout]
    if layout != "meta_graph":
        assert tf_read["restored"][layout] == {k: as_json(v)
                                               for k, v in PARTITIONED_VALUES.items()}


def test_we_still_write_the_partitioned_checkpoint_tf_read(tmp_path):
    """Byte for byte, the checkpoint TF read, and its meta graph still restores here."""
    with tf.Graph().as_default():
        partitioned_variables(tf, "saved")
        with tf.compat.v1.Session() as sess:
            sess.run(tf.compat.v1.global_variables_initializer())
            path = tf.compat.v1.train.Saver().save(sess, str(tmp_path / "model"))
    for suffix in (".index", ".data-00000-of-00001"):
        with open(OUR_PREFIX + suffix, "rb") as f:
            theirs = f.read()
        with open(path + suffix, "rb") as f:
            assert f.read() == theirs, suffix
    assert partitioned_restored(tf, path)["meta_graph"] == _recorded(
        "expected.json")["restored"]["meta_graph"]


def test_eager_saver_of_a_partitioned_variable_and_its_shards_as_a_dict(tmp_path):
    tf1 = tf.compat.v1
    w = tf1.get_variable("eager_w", initializer=tf.constant(np.arange(10.0).reshape(5, 2)),
                         partitioner=tf1.fixed_size_partitioner(3))
    path = tf1.train.Saver([w]).save(None, str(tmp_path / "a"))
    assert tf.train.list_variables(path) == [("eager_w", [5, 2])]
    path = tf1.train.Saver({"renamed": list(w)}).save(None, str(tmp_path / "b"))
    np.testing.assert_array_equal(tf.train.load_variable(path, "renamed"),
                                  np.arange(10.0).reshape(5, 2))
    w.assign(tf.zeros([5, 2], tf.float64))
    tf1.train.Saver({"renamed": w}).restore(None, path)
    np.testing.assert_array_equal(tf.convert_to_tensor(w), np.arange(10.0).reshape(5, 2))


def test_restoring_a_partitioned_variable_of_another_full_shape_fails_as_in_tf():
    with tf.Graph().as_default():
        tf.compat.v1.get_variable("w", [6, 3], partitioner=tf.compat.v1.fixed_size_partitioner(2))
        with tf.compat.v1.Session() as sess:
            with pytest.raises(tf.errors.InvalidArgumentError,
                               match="Restoring from checkpoint failed"):
                tf.compat.v1.train.Saver().restore(sess, TF_PREFIX)


def test_init_from_checkpoint_fills_partitioned_variables_by_name_and_by_scope():
    tf1 = tf.compat.v1
    want = PARTITIONED_VALUES["w"]
    for assignment, scope in (({"w": "w"}, ""), ({"/": "new/"}, "new")):
        with tf.Graph().as_default():
            with tf1.variable_scope(scope):
                w = tf1.get_variable("w", [5, 3], partitioner=tf1.fixed_size_partitioner(3))
            tf1.train.init_from_checkpoint(TF_PREFIX, assignment)
            with tf1.Session() as sess:
                sess.run(tf1.global_variables_initializer())
                np.testing.assert_array_equal(sess.run(tf.convert_to_tensor(w)), want)
