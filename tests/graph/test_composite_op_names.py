"""The output names of composite ops built into graphs: TF's Python wrappers open a name
scope and name their last op after it (``random_normal:0``, ``moments/Squeeze:0``), and
programs print and fetch these names."""
import numpy as np

import eagerflow as tf
import eagerflow.compat.v1 as tf1


def test_random_ops_are_named_in_their_scopes():
    g = tf.Graph()
    with g.as_default():
        normal = tf.random.normal([2, 3])
        assert normal.name == "random_normal:0" and normal.op.type == "AddV2"
        names = [op.name for op in g.get_operations()]
        assert "random_normal/RandomStandardNormal" in names and "random_normal/mul" in names
        assert tf.random.uniform([2]).name == "random_uniform/RandomUniform:0"
        assert tf.random.uniform([2], -1.0, 1.0).name == "random_uniform_1:0"
        assert tf.random.uniform([2], 0, 5, tf.int32).name == "random_uniform_2:0"
        assert tf.random.truncated_normal([2]).name == "truncated_normal:0"
        assert tf1.random_normal([2]).name == "random_normal_1:0"
        assert tf.random.normal([2], name="noise").name == "noise:0"
        with tf.name_scope("layer"):
            assert tf.random.normal([2]).name == "layer/random_normal:0"
        w = tf1.get_variable("w", [3, 3])
        assert "w/Initializer/random_uniform" in [op.name for op in g.get_operations()]
        with tf1.Session() as sess:
            sess.run(tf1.global_variables_initializer())
            low = sess.run(tf.random.uniform([100], 2.0, 3.0, seed=1))
            assert sess.run(w).shape == (3, 3)
    assert low.min() >= 2.0 and low.max() < 3.0


def test_nn_composites_are_named_as_tfs():
    g = tf.Graph()
    with g.as_default():
        x = tf1.placeholder(tf.float32, [None, 3], name="x")
        labels = tf1.placeholder(tf.int32, [None])
        mean, variance = tf.nn.moments(x, [0])
        assert (mean.name, variance.name) == ("moments/Squeeze:0", "moments/Squeeze_1:0")
        assert "moments/mean" in [op.name for op in g.get_operations()]
        assert tf.math.count_nonzero(x).name == "count_nonzero/Sum:0"
        assert tf.nn.l2_normalize(x, 1).name == "l2_normalize:0"
        assert tf.clip_by_value(x, 0.0, 1.0).name == "clip_by_value:0"
        assert tf.nn.sigmoid_cross_entropy_with_logits(labels=x, logits=x).name == \
            "logistic_loss:0"
        assert tf.nn.sparse_softmax_cross_entropy_with_logits(labels=labels, logits=x).name \
            == "SparseSoftmaxCrossEntropyWithLogits/SparseSoftmaxCrossEntropyWithLogits:0"
        assert tf.reduce_mean(x).name == "Mean:0"  # (moments' means took no top-level name)
        with tf1.Session() as sess:
            m, v, n = sess.run([mean, variance, "l2_normalize:0"],
                               {x: [[1.0, 2.0, 2.0], [3.0, 2.0, 0.0]]})
    np.testing.assert_allclose(m, [2.0, 2.0, 1.0])
    np.testing.assert_allclose(v, [1.0, 0.0, 1.0])
    np.testing.assert_allclose(n[0], [1 / 3, 2 / 3, 2 / 3], rtol=1e-6)


def test_eager_results_are_unchanged():
    mean, variance = tf.nn.moments(tf.constant([1.0, 3.0]), [0])
    assert (float(mean), float(variance)) == (2.0, 1.0)
    assert tf.random.normal([2], mean=3.0, stddev=0.0).numpy().tolist() == [3.0, 3.0]
    assert tf.clip_by_value(tf.constant([1, 5, 9]), 2, 6, name="c").numpy().tolist() == [2, 5, 6]
    assert int(tf.math.count_nonzero(tf.constant([0, 1, 2]), name="n")) == 2
