"""TF 1 datasets (``tf.compat.v1.data.Dataset``) and their iterators, eagerly and in v1
graphs, against TF's recorded results (`data/make_v1_data_data.py`)."""
import json
import os

import numpy as np
import pytest

import eagerflow as tf
import eagerflow.compat.v1 as tf1

from tests.compat.v1_data_programs import PROGRAMS

with open(os.path.join(os.path.dirname(__file__), "data", "v1_data.json")) as _f:
    RECORDED = json.load(_f)


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_programs_give_tfs_results(name):
    assert json.loads(json.dumps(PROGRAMS[name](tf1))) == RECORDED[name]


def test_tf2_datasets_keep_no_v1_method():
    ds = tf.data.Dataset.range(3)
    assert not hasattr(ds, "make_one_shot_iterator") and not hasattr(ds, "output_shapes")
    assert tf1.data.Dataset is not tf.data.Dataset
    assert not isinstance(ds, tf1.data.Dataset)
    v1 = tf1.data.Dataset.range(3)
    assert isinstance(v1, tf.data.Dataset) and isinstance(v1, tf1.data.Dataset)
    assert isinstance(tf1.data.TFRecordDataset([]), tf1.data.Dataset)


def test_v1_datasets_built_in_a_disabled_eager_program():
    tf1.disable_eager_execution()
    x = tf1.placeholder(tf.int64, [None], name="x")
    ds = tf1.data.Dataset.zip((tf1.data.Dataset.from_tensor_slices(x),
                               tf1.data.Dataset.range(10, 20)))
    it = ds.shuffle(4, seed=1).batch(10).make_initializable_iterator()
    a, b = it.get_next()
    with tf1.Session() as sess:
        sess.run(it.initializer, {x: [1, 2, 3]})
        got_a, got_b = sess.run([a, b])
        assert sorted(got_a.tolist()) == [1, 2, 3] and sorted(got_b.tolist()) == [10, 11, 12]
        with pytest.raises(tf.errors.OutOfRangeError):
            sess.run(a)


def test_v1_dataset_in_a_function_and_as_its_argument():
    ds = tf1.data.Dataset.range(4)

    @tf.function
    def first():
        return ds.make_one_shot_iterator().get_next()

    @tf.function
    def total(d):
        return d.reduce(np.int64(0), lambda s, x: s + x)

    assert int(first()) == 0 and int(total(ds.map(lambda x: x * 2))) == 12


def test_graph_with_a_dataset_of_its_tensors_is_written(tmp_path):
    # A TF 1 graph's initializable iterator over a dataset of a placeholder: the graph's
    # GraphDef (for a FileWriter, a Saver's meta graph) is written, as TF writes it, the
    # iterator's MakeIterator with TF's two inputs.
    g = tf1.Graph()
    with g.as_default():
        x = tf1.placeholder(tf.float32, [None, 2], name="x")
        it = tf1.data.make_initializable_iterator(
            tf1.data.Dataset.from_tensor_slices(x).batch(2))
        w = tf1.get_variable("w", [2, 1], initializer=tf1.ones_initializer())
        y = tf.matmul(it.get_next(), w)
        saver = tf1.train.Saver()
    with tf1.Session(graph=g) as sess:
        sess.run(tf1.global_variables_initializer())
        sess.run(it.initializer, {x: np.ones((3, 2), np.float32)})
        assert sess.run(y).tolist() == [[2.0], [2.0]]
        saver.save(sess, str(tmp_path / "model"))
        with tf1.summary.FileWriter(str(tmp_path / "logs"), sess.graph):
            pass
    assert (tmp_path / "model.meta").exists() and len(list((tmp_path / "logs").iterdir())) == 1
    make = [n for n in g.as_graph_def().node if n.op == "MakeIterator"]
    assert len(make) == 1 and len(make[0].input) == 2
