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
        assert tf.norm(x).name == "norm/Squeeze:0"
        assert tf.norm(x, axis=1, keepdims=True).name == "norm_1/Sqrt:0"
        assert tf.reduce_logsumexp(x).name == "ReduceLogSumExp:0"
        table = tf1.get_variable("table", [10, 4])
        assert tf.nn.embedding_lookup(table, labels).name == "embedding_lookup/Identity:0"
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


def test_control_flow_outputs_pass_through_named_identities():
    g = tf.Graph()
    with g.as_default():
        x = tf1.placeholder(tf.float32, [], name="x")
        c = tf1.cond(x > 0, lambda: x * 2.0, lambda: x - 1.0)
        assert (c.name, c.op.type) == ("cond/Identity:0", "Identity")
        pair = tf.cond(x > 0, lambda: (x, x + 1), lambda: (x, x - 1))
        assert [t.name for t in pair] == ["cond_1/Identity:0", "cond_1/Identity_1:0"]
        i, s = tf.while_loop(lambda i, s: i < 3, lambda i, s: (i + 1, s * 2.0), [0, x])
        assert (i.name, s.name) == ("while/Identity_2:0", "while/Identity_3:0")
        grad, = tf1.gradients(c, x)
        assert grad.name == "gradients/cond_grad/Identity:0"
        assert g.get_operation_by_name("gradients/cond_grad/StatelessIf").type == "StatelessIf"
        with tf1.Session() as sess:
            assert sess.run([c, s, grad], {x: 1.5}) == [3.0, 12.0, 2.0]


def test_function_valued_attrs_read_as_name_attr_lists():
    @tf.function
    def inner(x):
        return x * 2.0

    @tf.function
    def outer(x):
        y = tf.while_loop(lambda v: v < 10.0, lambda v: v + 1.0, [x])[0]  # (no identities)
        return inner(y) + tf.cond(x > 0, lambda: x, lambda: -x)

    graph = outer.get_concrete_function(tf.TensorSpec([])).graph
    library = [f.signature.name for f in graph.as_graph_def().library.function]
    ops = {op.type: op for op in graph.get_operations()}
    then = ops["StatelessIf"].get_attr("then_branch")
    assert type(then).__name__ == "NameAttrList" and then.name in library
    assert ops["PartitionedCall"].get_attr("f").name.startswith("__inference_inner")
    assert ops["StatelessWhile"].get_attr("body").name in library
    assert not [op for op in graph.get_operations() if op.name.startswith("while/Identity")]
    assert ops["StatelessIf"].get_attr("Tout") == [tf.float32] or \
        list(ops["StatelessIf"].get_attr("Tout")) == [tf.float32]


def test_tf1_control_flow_results_are_named_merge_and_exit():
    tf1.disable_control_flow_v2()
    try:
        g = tf.Graph()
        with g.as_default():
            x = tf1.placeholder(tf.float32, [], name="x")
            c = tf1.cond(x > 0, lambda: x * 2.0, lambda: x - 1.0)
            i, s = tf1.while_loop(lambda i, s: i < 3, lambda i, s: (i + 1, s * 2.0), [0, x])
            assert (c.name, i.name, s.name) == ("cond/Merge:0", "while/Exit:0",
                                                "while/Exit_1:0")
            with tf1.Session() as sess:
                assert sess.run([c, s], {x: 2.0}) == [4.0, 16.0]
    finally:
        tf1.enable_control_flow_v2()


def test_batch_normalization_is_tfs_expression():
    g = tf.Graph()
    with g.as_default():
        x = tf1.placeholder(tf.float32, [None, 3], name="x")
        mean, variance = tf.nn.moments(x, [0])
        plain = tf.nn.batch_normalization(x, 0.0, 1.0, None, None, 1e-3)
        full = tf.nn.batch_normalization(x, mean, variance, tf.ones([3]), tf.ones([3]) * 2.0,
                                         1e-3, name="bn")
        assert (plain.name, full.name) == ("batchnorm/add:0", "bn/add_1:0")
        with tf1.Session() as sess:
            a, b = sess.run([plain, full], {x: [[1.0, 2.0, 3.0], [4.0, 6.0, 5.0]]})
    np.testing.assert_allclose(a[0], [0.9995004, 1.9990008, 2.9985013], rtol=1e-6)
    np.testing.assert_allclose(b[:, 0], [-0.9995558, 2.9995556], rtol=1e-6)
    # numbers add as Python numbers before the tensor ops, as in TF
    assert tf.nn.batch_normalization(tf.constant([3.0, 1.0]), 1.0, 4.0, None, None,
                                     1e-3).numpy().tolist() == [0.9998750686645508, 0.0]
