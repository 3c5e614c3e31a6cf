"""TF 1.x-style programs as old tutorials write them, under ``compat.v1`` graph mode:
each checks what TF 2.21's ``tf.compat.v1`` gives for the same program."""
import re
import sys

import numpy as np
import pytest

import eagerflow as tf
import eagerflow.compat.v1 as tf1


@pytest.fixture
def graph():
    g = tf1.Graph()
    with g.as_default():
        yield g


def test_batch_normalization_with_a_training_placeholder_trains(graph):
    x = tf1.placeholder(tf.float32, [None, 4, 4, 2])
    training = tf1.placeholder_with_default(False, [], name="training")
    h = tf1.layers.batch_normalization(x, training=training)
    loss = tf.reduce_mean(tf1.layers.dense(tf1.layers.flatten(h), 1))
    with tf1.control_dependencies(tf1.get_collection(tf1.GraphKeys.UPDATE_OPS)):
        train = tf1.train.AdamOptimizer(0.01).minimize(loss)
    xs = np.random.RandomState(0).rand(3, 4, 4, 2).astype(np.float32)
    with tf1.Session(graph=graph) as sess:
        sess.run(tf1.global_variables_initializer())
        before = sess.run(loss, {x: xs})
        for _ in range(3):
            sess.run(train, {x: xs, training: True})
        assert sess.run(loss, {x: xs}) != before


def test_print_writes_tf1s_summaries_when_computed(graph, capsys):
    a = tf.constant([[1, 2, 3], [4, 5, 6]])
    b = tf.constant([1.5, 2.0, 3.25, 4.0])
    p = tf1.Print(a, [a, b, tf.constant("str"), tf.constant(True), tf.zeros([0])], "msg: ")
    once = tf1.Print(b, [b], summarize=10, first_n=1)
    assert p.name == "Print:0" and p.op.type == "Print" and p.shape == (2, 3)
    assert capsys.readouterr().err == ""  # (only when run)
    with tf1.Session(graph=graph) as sess:
        assert sess.run(p).tolist() == [[1, 2, 3], [4, 5, 6]]
        for _ in range(2):
            sess.run(once * 2.0)
        grad = sess.run(tf1.gradients(tf.reduce_sum(once * 3.0), b)[0])
    assert capsys.readouterr().err == ("msg: [[1 2 3]...][1.5 2 3.25...][str][1][]\n"
                                       "[1.5 2 3.25 4]\n")
    assert grad.tolist() == [3.0] * 4


def test_print_eagerly_prints_at_once(capsys):
    out = tf1.Print(tf.constant([1, 2]), [tf.constant([[0.1], [2.0]])], message="v=",
                    summarize=-1)
    assert out.numpy().tolist() == [1, 2]
    assert capsys.readouterr().err == "v=[[0.1][2]]\n"


def test_mean_iou_and_mean_per_class_accuracy_are_tfs(graph):
    # TF 2.21's values (classes never seen: left out of the IoU, 0 in the class mean)
    y, p = tf.constant([1, 0, 2, 1, 0, 2]), tf.constant([1, 1, 2, 0, 0, 1])
    iou, iou_up = tf1.metrics.mean_iou(y, p, 4)
    iouw, iouw_up = tf1.metrics.mean_iou(y, p, 3, weights=tf.constant([1., 2., 0., 1., 1., 3.]),
                                         name="wiou")
    mpc, mpc_up = tf1.metrics.mean_per_class_accuracy(y, p, 3)
    mpcw, mpcw_up = tf1.metrics.mean_per_class_accuracy(
        tf.constant([[1], [0], [2]]), tf.constant([[1], [1], [2]]), 4,
        weights=tf.constant([[2.0], [1.0], [0.5]]))
    assert iou.dtype == tf.float32 and iou_up.dtype == tf.float64
    assert iou_up.shape == (4, 4) and mpc.shape == () and mpc_up.shape == (3,)
    assert [(v.name, v.dtype.name, v.shape.as_list()) for v in tf1.local_variables()] == [
        ("mean_iou/total_confusion_matrix:0", "float64", [4, 4]),
        ("wiou/total_confusion_matrix:0", "float64", [3, 3]),
        ("mean_accuracy/total:0", "float32", [3]), ("mean_accuracy/count:0", "float32", [3]),
        ("mean_accuracy_1/total:0", "float32", [4]), ("mean_accuracy_1/count:0", "float32", [4])]
    assert len(tf1.get_collection(tf1.GraphKeys.METRIC_VARIABLES)) == 6
    with tf1.Session(graph=graph) as sess:
        sess.run(tf1.local_variables_initializer())
        assert sess.run(iou) == 0.0
        for _ in range(2):
            cm, cmw, per_class, per_class_w = sess.run([iou_up, iouw_up, mpc_up, mpcw_up])
        assert cm.tolist() == [[2, 2, 0, 0], [2, 2, 0, 0], [0, 2, 2, 0], [0, 0, 0, 0]]
        assert cmw.tolist() == [[2, 4, 0], [2, 2, 0], [0, 6, 0]]
        assert per_class.tolist() == [0.5, 0.5, 0.5] and per_class_w.tolist() == [0, 1, 1, 0]
        np.testing.assert_allclose(sess.run([iou, iouw, mpc, mpcw]),
                                   [0.36111, 0.13095, 0.5, 0.5], atol=1e-5)


def test_streaming_metrics_keep_totals_in_local_variables(graph):
    labels = tf1.placeholder(tf.int64, [None])
    preds = tf1.placeholder(tf.int64, [None])
    values = tf1.placeholder(tf.float32, [None])
    acc, acc_op = tf1.metrics.accuracy(labels, preds)
    mean, mean_op = tf1.metrics.mean(values)
    prec, prec_op = tf1.metrics.precision(labels, preds)
    rec, rec_op = tf1.metrics.recall(labels, preds)
    auc, auc_op = tf1.metrics.auc(labels, tf.cast(preds, tf.float32))
    mse, mse_op = tf1.metrics.mean_squared_error(tf.cast(labels, tf.float32),
                                                 tf.cast(preds, tf.float32))
    assert (acc.name, acc_op.name) == ("accuracy/value:0", "accuracy/update_op:0")
    assert mean_op.name == "mean/update_op:0"
    assert [v.name for v in tf1.local_variables()] == [
        "accuracy/total:0", "accuracy/count:0", "mean/total:0", "mean/count:0",
        "precision/true_positives/count:0", "precision/false_positives/count:0",
        "recall/true_positives/count:0", "recall/false_negatives/count:0",
        "auc/true_positives:0", "auc/false_negatives:0", "auc/true_negatives:0",
        "auc/false_positives:0", "mean_squared_error/total:0", "mean_squared_error/count:0"]
    assert tf1.get_collection(tf1.GraphKeys.METRIC_VARIABLES) == tf1.local_variables()
    assert tf1.global_variables() == []
    updates = [acc_op, mean_op, prec_op, rec_op, mse_op]
    with tf1.Session(graph=graph) as sess:
        with pytest.raises(tf.errors.FailedPreconditionError):
            sess.run(acc_op, {labels: [1], preds: [1]})
        sess.run(tf1.local_variables_initializer())
        got = [sess.run(updates, {labels: lab, preds: p, values: np.array(p, np.float32)})
               for lab, p in [([1, 0, 1], [1, 1, 1]), ([0, 0], [0, 1])]]
        np.testing.assert_allclose(got, [[2 / 3, 1.0, 2 / 3, 1.0, 1 / 3],
                                         [0.6, 0.8, 0.5, 1.0, 0.4]], rtol=1e-6)
        np.testing.assert_allclose(sess.run([acc, mean, prec, rec, mse]),
                                   [0.6, 0.8, 0.5, 1.0, 0.4], rtol=1e-6)
        sess.run(tf1.local_variables_initializer())
        assert sess.run(acc) == 0.0
        sess.run(auc_op, {labels: [1, 0, 1], preds: [1, 0, 0]})
        assert round(float(sess.run(auc)), 3) == 0.75


def test_streaming_metrics_take_weights(graph):
    acc, update = tf1.metrics.accuracy([[1], [2], [3]], [1, 0, 3], weights=[1.0, 0.0, 3.0],
                                       name="weighted")
    rmse, rmse_update = tf1.metrics.root_mean_squared_error([1.0, 2.0], [2.0, 4.0])
    assert (acc.name, rmse.name, rmse_update.name) == ("weighted/value:0", "Sqrt:0", "Sqrt_1:0")
    with tf1.Session(graph=graph) as sess:
        sess.run(tf1.local_variables_initializer())
        assert sess.run(update) == 1.0
        assert sess.run(rmse_update) == pytest.approx(np.sqrt(2.5))


def test_streaming_metrics_refuse_eager_execution():
    with pytest.raises(RuntimeError, match="tf.metrics.accuracy is not supported when eager "
                                           "execution is enabled"):
        tf1.metrics.accuracy([1], [1])


def test_py_func_in_a_graph_passes_scalars_as_numpy_scalars(graph):
    kinds = tf1.py_func(lambda a, b, c, d: str([type(v).__name__ for v in (a, b, c, d)]),
                        [tf.constant(b"abc"), tf.constant(1.0), tf.constant([b"x"]),
                         tf.constant(3)], tf.string)
    upper = tf1.py_func(lambda s: s.upper(), [tf.constant(b"abc")], tf.string)
    with tf1.Session(graph=graph) as sess:
        assert sess.run(kinds) == b"['bytes', 'float32', 'ndarray', 'int32']"
        assert sess.run(upper) == b"ABC"


def test_v1_cond_unpacks_one_value_eagerly_but_not_in_a_function():
    true = tf.constant(True)
    eager = tf1.cond(true, lambda: [tf.constant(1)], lambda: [tf.constant(2)])
    assert isinstance(eager, tf.Tensor) and int(eager) == 1
    traced = tf.function(lambda: tf1.cond(true, lambda: [tf.constant(1)],
                                          lambda: [tf.constant(2)]))()
    assert isinstance(traced, list) and [int(t) for t in traced] == [1]


def test_v1_while_loop_unpacks_one_value_and_takes_control_dependencies(graph):
    v = tf1.Variable(0.0, name="counter")

    def body(i):
        with tf1.control_dependencies([tf1.assign_add(v, 1.0)]):
            return i + 1
    counted = tf1.while_loop(lambda i: i < 4, body, [tf.constant(0)])
    stepped = tf1.while_loop(lambda i: i < 10, lambda i: i + 3, [tf.constant(0)])
    both = tf1.while_loop(lambda i, s: i < 3, lambda i, s: (i + 1, s * 2), [0, 1])
    same = tf1.while_loop(lambda i: i < 2, lambda i: [i + 1], [0], return_same_structure=True)
    x = tf1.placeholder(tf.float32, [])
    one = tf1.cond(x > 0, lambda: [x * 2], lambda: [x - 1])
    old = tf1.cond(x > 0, fn1=lambda: x, fn2=lambda: -x)
    assert isinstance(counted, tf.Tensor) and isinstance(stepped, tf.Tensor)
    # TF 2's control flow builds this graph's cond: strict=False does not unpack there.
    assert isinstance(one, list) and len(both) == 2 and len(same) == 1
    with tf1.Session(graph=graph) as sess:
        sess.run(tf1.global_variables_initializer())
        assert sess.run(counted) == 4 and sess.run(v) == 4.0
        assert sess.run(stepped * 2) == 24
        assert [int(t) for t in sess.run(both)] == [3, 8] and sess.run(same) == [2]
        assert sess.run([one, old], {x: -3.0}) == [[-4.0], 3.0]


def test_v1_while_loop_shape_invariants_and_tfs_error(graph):
    m = tf.zeros([1, 2])
    grown = tf1.while_loop(lambda j, m: j < 3, lambda j, m: (j + 1, tf.concat([m, m], 0)),
                           [0, m], shape_invariants=[tf.TensorShape([]),
                                                     tf.TensorShape([None, 2])])
    assert grown[1].shape.as_list() == [None, 2]
    with pytest.raises(ValueError, match="^Input tensor `zeros:0` enters the loop with shape "
                                         r"\(1, 2\), but has shape \(2, 2\) after one"):
        tf1.while_loop(lambda j, m: j < 3, lambda j, m: (j + 1, tf.concat([m, m], 0)),
                       [0, m])
    with tf1.Session(graph=graph) as sess:
        assert sess.run(grown)[1].shape == (8, 2)



def test_logging_module_of_tf1(caplog):
    logging = tf1.logging
    assert (logging.DEBUG, logging.INFO, logging.WARN, logging.ERROR, logging.FATAL) == (
        10, 20, 30, 40, 50)
    before = logging.get_verbosity()
    try:
        logging.set_verbosity(logging.INFO)
        assert logging.get_verbosity() == logging.INFO
        logging.info("step %d", 3)
        logging.debug("hidden")
        logging.warn("careful")
        for _ in range(3):
            logging.log_first_n(logging.INFO, "first", 2)
    finally:
        logging.set_verbosity(before)
    assert [(r.name, r.levelname, r.getMessage()) for r in caplog.records] == [
        ("tensorflow", "INFO", "step 3"), ("tensorflow", "WARNING", "careful"),
        ("tensorflow", "INFO", "first"), ("tensorflow", "INFO", "first")]


def test_flags_and_app_run_as_tf1_scripts_use_them(monkeypatch):
    flags = tf1.app.flags
    flags.DEFINE_integer("probe_batch_size", 32, "Batch size.")
    tf1.flags.DEFINE_string("probe_data_dir", "/tmp/data", "Data.")
    flags.DEFINE_boolean("probe_fast", False, "Fast.")
    tf1.flags.DEFINE_float("probe_lr", 0.1, "Rate.")
    FLAGS = tf1.flags.FLAGS
    assert FLAGS is flags.FLAGS
    with pytest.raises(tf1.flags.UnrecognizedFlagError, match="Unknown command line flag 'x'"):
        FLAGS(["prog", "--x=1"])
    seen = []

    def main(argv):
        seen.append((argv, FLAGS.probe_batch_size, FLAGS.probe_data_dir, FLAGS.probe_fast,
                     FLAGS.probe_lr))
        return 0
    argv = ["prog", "--probe_batch_size=64", "--probe_fast", "--probe_lr", "0.5", "extra",
            "--unknown=1", "--", "--probe_fast"]
    with pytest.raises(SystemExit) as exit_:
        tf1.app.run(main, argv)
    assert exit_.value.code == 0
    assert seen == [(["prog", "extra", "--unknown=1", "--", "--probe_fast"], 64, "/tmp/data",
                     True, 0.5)]
    FLAGS(["prog", "--noprobe_fast"])
    assert FLAGS.probe_fast is False
    with pytest.raises(tf1.flags.IllegalFlagValueError):
        FLAGS(["prog", "--probe_batch_size=abc"])


def test_reinitializable_iterator_from_structure(graph):
    train = tf.data.Dataset.from_tensor_slices(([1.0, 2.0, 3.0], [0, 1, 0])).batch(2)
    val = tf.data.Dataset.from_tensor_slices(([9.0], [1])).batch(2)
    it = tf1.data.Iterator.from_structure(tf1.data.get_output_types(train),
                                          tf1.data.get_output_shapes(train))
    x, y = it.get_next()
    train_init, val_init = it.make_initializer(train), it.make_initializer(val)
    assert x.shape.as_list() == [None] and y.dtype == tf.int32
    listed = tf1.data.Iterator.from_structure({"a": tf.float32}, {"a": [None, 2]})
    assert listed.output_shapes == {"a": tf.TensorShape([None, 2])}
    with tf1.Session(graph=graph) as sess:
        sess.run(train_init)
        assert sess.run(x).tolist() == [1.0, 2.0] and sess.run(y).tolist() == [0]
        sess.run(val_init)
        assert sess.run(x).tolist() == [9.0]
        with pytest.raises(tf.errors.OutOfRangeError):
            sess.run(x)
        sess.run(train_init)
        assert sess.run(y).tolist() == [0, 1]


def test_tf1_spellings_programs_call(graph, tmp_path):
    v = tf1.Variable([1.0, 2.0, 3.0], name="v")
    upd = tf1.scatter_update(v, [0], [9.0])
    add = tf1.scatter_add(v, [1, 1], [1.0, 1.0])
    nd = tf1.scatter_nd_update(v, [[2]], [7.0])
    local = tf1.get_local_variable("local", [2], initializer=tf1.zeros_initializer())
    step = tf1.train.create_global_step()
    with pytest.raises(ValueError, match="'global_step' already exists."):
        tf1.train.create_global_step()
    assert any(v is local for v in tf1.local_variables())
    assert all(v is not local for v in tf1.trainable_variables())
    w = tf1.get_variable("w", [3, 3], initializer=tf1.variance_scaling_initializer(seed=1))
    o = tf1.get_variable("o", [3, 3], initializer=tf1.initializers.orthogonal(seed=1))
    he = tf1.get_variable("he", [2], initializer=tf1.initializers.he_normal(seed=1))
    am = tf1.arg_max([[1, 5, 2]], 1)
    drawn = tf1.random.multinomial(tf.math.log([[0.0, 1.0]]), 3, seed=1)
    assert tf1.random.normal is tf.random.normal and drawn.shape == (1, 3)
    cos = tf1.losses.cosine_distance([[1.0, 0.0]], [[0.6, 0.8]], axis=1)
    assert cos.name == "cosine_distance_loss/value:0"
    inits = [tf1.initializers.global_variables(), tf1.initializers.local_variables(),
             tf1.tables_initializer(), tf1.initialize_all_tables()]
    assert tf1.dimension_value(tf1.Dimension(3)) == 3 and tf1.dimension_value(None) is None
    assert tf1.dimension_at_index(tf.TensorShape([None, 4]), 1).value == 4
    path = tf1.train.write_graph(graph, str(tmp_path / "sub"), "g.pbtxt")
    binary = tf.io.write_graph(graph.as_graph_def(), str(tmp_path), "g.pb", as_text=False)
    with open(path) as f:
        assert 'name: "v"' in f.read()
    parsed = tf1.GraphDef()
    with open(binary, "rb") as f:
        parsed.ParseFromString(f.read())
    assert [n.name for n in parsed.node] == [n.name for n in graph.as_graph_def().node]
    with tf1.Session(graph=graph) as sess:
        sess.run(inits)
        assert sess.run(upd).tolist() == [9.0, 2.0, 3.0]
        assert sess.run(add).tolist() == [9.0, 4.0, 3.0]
        assert sess.run(nd).tolist() == [9.0, 4.0, 7.0]
        ww, oo = sess.run([w, o])
        np.testing.assert_allclose(oo @ oo.T, np.eye(3), atol=1e-5)
        assert ww.shape == (3, 3) and sess.run(he).shape == (2,)
        assert sess.run(am).tolist() == [1] and sess.run(cos) == pytest.approx(0.4)
        sess.run(tf1.assign(step, 7))
        assert tf1.train.global_step(sess, step) == 7


def test_v2_behaviour_switches_answer_as_tf():
    assert tf1.resource_variables_enabled() and tf1.control_flow_v2_enabled()
    tf1.disable_v2_behavior()
    try:
        assert not tf1.resource_variables_enabled() and not tf1.control_flow_v2_enabled()
        tf1.enable_resource_variables()
        assert tf1.resource_variables_enabled()
    finally:
        tf1.enable_v2_behavior()
    assert tf1.resource_variables_enabled() and tf1.control_flow_v2_enabled()


def test_names_of_variables_and_lookup_errors_are_tfs(graph):
    x = tf1.placeholder(tf.float32, [None], name="x")
    with tf1.variable_scope("net"):
        w = tf1.get_variable("w", [], initializer=tf1.constant_initializer(2.0))
    y = tf.identity(x * w, name="y")
    assert graph.get_tensor_by_name("net/w:0") is w
    with pytest.raises(ValueError, match=r"^Name 'y:0' appears to refer to a Tensor, not a "
                                         r"Operation\.$"):
        graph.get_operation_by_name("y:0")
    with pytest.raises(ValueError, match=r"^The name 'y' refers to an Operation, not a Tensor\."):
        graph.get_tensor_by_name("y")
    with pytest.raises(ValueError, match=r"^The name 'nope' looks like an \(invalid\) "
                                         r"Operation name, not a Tensor\."):
        graph.get_tensor_by_name("nope")
    with pytest.raises(KeyError, match="The name 'nope' refers to an Operation not in the "
                                       "graph."):
        graph.as_graph_element("nope")
    with pytest.raises(KeyError, match="The operation, 'y', exists but only has 1 outputs."):
        graph.as_graph_element("y:3")
    with tf1.Session(graph=graph) as sess:
        sess.run(tf1.global_variables_initializer())
        assert sess.run("net/w:0") == 2.0
        assert sess.run(graph.get_tensor_by_name("net/w:0") * 3.0) == 6.0
        assert sess.run("y:0", {"x:0": [1.0]}).tolist() == [2.0]
        with pytest.raises(TypeError, match=r"^Cannot interpret feed_dict key as Tensor: The "
                                            r"name 'x' refers to an Operation, not a Tensor\."):
            sess.run(y, {"x": [1.0]})
        with pytest.raises(TypeError, match="^Cannot interpret feed_dict key as Tensor: The "
                                            "name 'nope:0' refers to a Tensor which does not "
                                            "exist."):
            sess.run(y, {"nope:0": [1.0]})
        with pytest.raises(TypeError, match="^Cannot interpret feed_dict key as Tensor: Can not "
                                            "convert a int into a Tensor.$"):
            sess.run(y, {3: [1.0]})
        with pytest.raises(TypeError, match='^Argument `fetch` = None has invalid type '
                                            '"NoneType". Cannot be None$'):
            sess.run(None)
        with pytest.raises(ValueError, match=r"^Argument `fetch` = zzz cannot be interpreted "
                                             r"as a Tensor\. \(\"The name 'zzz' refers to an "
                                             r"Operation not in the graph\.\"\)$"):
            sess.run("zzz")
    other = tf1.Graph()
    with other.as_default():
        z = tf1.placeholder(tf.float32, [], name="z")
    with tf1.Session(graph=graph) as sess:
        with pytest.raises(TypeError, match=r"^Cannot interpret feed_dict key as Tensor: Tensor "
                                            r'Tensor\("z:0".* is not an element of this '
                                            r"graph\.$"):
            sess.run(y, {z: 1.0})


def test_initialized_value_and_optimizer_errors(graph):
    x = tf1.Variable(tf1.random_normal([3, 3], seed=1), name="x")
    y = tf1.Variable(x.initialized_value() * 2, name="y")
    v = tf1.Variable(1.0, name="v")
    with pytest.raises(ValueError, match=r"^No gradients provided for any variable, check your "
                                         r"graph for ops that do not support gradients, between "
                                         r"variables \[\"<tf.Variable 'v:0' shape=\(\) "
                                         r"dtype=float32>\"\] and loss Tensor\(\"mul"):
        tf1.train.GradientDescentOptimizer(0.1).minimize(tf.constant(1.0) * 2, var_list=[v])
    with pytest.raises(ValueError, match=r"^Invalid type tf.int32 for Cast:0, expected: "
                                         r"\[tf.float32, tf.float64, tf.float16, "
                                         r"tf.bfloat16\]\.$"):
        tf1.train.GradientDescentOptimizer(0.1).minimize(tf.cast(v, tf.int32))
    with tf1.Session(graph=graph) as sess:
        sess.run(tf1.variables_initializer([x, y]))
        np.testing.assert_allclose(sess.run(x) * 2, sess.run(y))
        sess.run(v.initializer)
        assert sess.run(v.initialized_value()) == 1.0


def test_dropout_with_a_keep_prob_placeholder_of_unknown_shape(graph):
    x = tf1.placeholder(tf.float32, [None, 4])
    keep_prob = tf1.placeholder(tf.float32)  # (the MNIST tutorial's, no shape given)
    h = tf1.nn.dropout(x, keep_prob=keep_prob)
    h2 = tf.nn.dropout(x, rate=1.0 - keep_prob)
    assert h.shape.as_list() == [None, 4] and h2.shape.as_list() == [None, 4]
    with tf1.Session(graph=graph) as sess:
        ones = np.ones((2, 4), np.float32)
        assert sess.run(h, {x: ones, keep_prob: 1.0}).tolist() == ones.tolist()
        assert sess.run(h2, {x: ones, keep_prob: 0.5}).shape == (2, 4)
        dropped = sess.run(h, {x: ones, keep_prob: 0.5})
        assert set(np.unique(dropped).tolist()) <= {0.0, 2.0}


def test_disable_v2_behavior_gives_tf1_shapes():
    tf1.disable_v2_behavior()
    try:
        x = tf1.placeholder(tf.float32, [None, 4, 3], name="x")
        assert str(x.shape) == "(?, 4, 3)" and repr(x) == (
            "<tf.Tensor 'x:0' shape=(?, 4, 3) dtype=float32>")
        assert repr(x.shape[1:]) == "TensorShape([Dimension(4), Dimension(3)])"
        batch, rows, cols = x.get_shape()
        assert isinstance(rows, tf1.Dimension) and rows.value == 4 and batch.value is None
        assert x.shape[-1].value * x.get_shape()[1].value == 12 and str(batch) == "?"
        assert (rows * cols).value == 12 and (batch * 2).value is None and rows // 3 == 1
        assert rows > 3 and rows == 4 and int(rows) == 4 and (batch < 3) is None
        with pytest.raises(TypeError, match="please use // instead"):
            rows / 2
        flat = tf.reshape(x, [-1, rows * cols])
        w = tf1.get_variable("w", [x.shape[-1], 2])
        y = tf.matmul(tf.reshape(x, [-1, x.shape[-1]]), w) + tf.zeros([cols.value - 1])
        assert flat.shape.as_list() == [None, 12] and str(y.shape) == "(?, 2)"
        assert tf.TensorShape([None]).__str__() == "(?,)" and list(range(rows)) == [0, 1, 2, 3]
        with tf1.Session() as sess:
            sess.run(tf1.global_variables_initializer())
            assert sess.run(flat, {x: np.ones((2, 4, 3))}).shape == (2, 12)
            with pytest.raises(ValueError, match=r"which has shape \(\?, 4, 3\)"):
                sess.run(flat, {x: np.ones((4, 3))})
    finally:
        tf1.enable_v2_behavior()
    assert str(tf.TensorShape([None, 3])) == "(None, 3)" and tf.TensorShape([2])[0] == 2
    assert type(tf.TensorShape([2])[0]) is int


def test_v2_tensorshape_switch_alone():
    tf1.disable_v2_tensorshape()
    try:
        assert repr(tf.ones([2, 3]).shape[0]) == "Dimension(2)"
        assert tf.zeros([tf.ones([2, 3]).shape[1], 2]).shape.as_list() == [3, 2]
        with pytest.raises(ValueError, match="Cannot convert an unknown Dimension to a Tensor: ?"):
            tf.constant(tf1.Dimension(None))
    finally:
        tf1.enable_v2_tensorshape()
    assert tf.ones([2, 3]).shape[0] == 2 and repr(tf.ones([2]).shape) == "TensorShape([2])"


def test_tf1_assert_scalar_gives_a_tensor_of_a_python_number(graph):
    # (TensorBoard's TF 1 histogram op makes its buckets under control dependencies
    # on assert_scalar of its Python bucket count)
    count = tf1.assert_scalar(30)
    assert isinstance(count, tf.Tensor) and count.dtype == tf.int32
    with tf1.control_dependencies([count, tf1.assert_type(count, tf.int32)]):
        y = tf.identity(tf.constant(1.0))
    with tf1.Session(graph=graph) as sess:
        assert sess.run([y, count]) == [1.0, 30]


def test_tf1_assertions_and_op_spellings(graph):
    x = tf1.placeholder(tf.float32, [None])
    checks = [tf1.assert_positive(x, [x], message="must be positive"),
              tf1.assert_equal(tf.size(x), 2, [x], 3, "two values"),
              tf1.assert_less(x, x + 1.0, [x], 3, "below"),
              tf1.assert_rank(x, 1, [x]), tf1.assert_scalar(tf.constant(1.0), None, "scalar")]
    with tf1.control_dependencies(checks):
        y = tf.identity(x)
    q = tf1.div(tf.constant([7, -7]), 2)
    r = tf1.div(tf.constant([7.0]), 2.0)
    raw = tf1.decode_raw(tf.constant([b"\x01\x00\x02\x00"]), tf.int16)
    cm = tf1.confusion_matrix([0, 1, 1], [0, 1, 0], 2, tf.float32)
    joined = tf1.reduce_join([["a", "b"], ["c", "d"]], reduction_indices=1, keep_dims=True)
    with tf1.Session(graph=graph) as sess:
        assert sess.run(y, {x: [1.0, 2.0]}).tolist() == [1.0, 2.0]
        # (given data, a sign check shows the data alone, as TF 1's does)
        with pytest.raises(tf.errors.InvalidArgumentError, match=r"assertion failed: \[-1 2\]"):
            sess.run(y, {x: [-1.0, 2.0]})
        with pytest.raises(tf.errors.InvalidArgumentError,
                           match=r"assertion failed: \[two values\] \[1 2 3\]"):
            sess.run(y, {x: [1.0, 2.0, 3.0]})
        assert sess.run(q).tolist() == [3, -4] and sess.run(r).tolist() == [3.5]
        assert sess.run(raw).tolist() == [[1, 2]]
        assert sess.run(cm).tolist() == [[1.0, 0.0], [1.0, 1.0]]
        assert sess.run(joined).tolist() == [[b"ab"], [b"cd"]]


def test_optimizer_variables_are_named_in_the_variable_scope_of_the_step(graph):
    w = tf1.Variable([1.0], name="w")
    loss = tf.reduce_sum(w * w)
    with tf1.variable_scope("adam"):
        tf1.train.AdamOptimizer(0.1).minimize(loss)
    with tf1.variable_scope("momentum"):
        tf1.train.MomentumOptimizer(0.1, 0.9).minimize(loss)
    tf1.train.MomentumOptimizer(0.1, 0.9).minimize(loss)
    assert [v.name for v in tf1.global_variables()] == [
        "w:0", "adam/beta1_power:0", "adam/beta2_power:0", "adam/w/Adam:0", "adam/w/Adam_1:0",
        "momentum/w/Momentum:0", "w/Momentum:0"]


def test_get_variable_without_a_shape_raises_tfs_errors(graph):
    with pytest.raises(ValueError, match=r"^Variable a did not get an initializer, so its "
                                         r"`shape` argument must be specified\.$"):
        tf1.get_variable("a")
    for args, kwargs in (((), {"initializer": tf1.zeros_initializer()}), (([None, 2],), {})):
        with pytest.raises(ValueError, match=r"^The initializer passed is not valid\. .* "
                                             r"`shape` should be fully defined\.$"):
            tf1.get_variable("b", *args, **kwargs)
    assert tf1.get_variable("c", initializer=tf.constant([1.0])).shape == (1,)
    with tf1.variable_scope("outer") as scope:
        assert isinstance(scope, tf1.VariableScope) and scope.name == "outer"


def test_missing_feed_error_reads_as_tfs_run_error(graph):
    x = tf1.placeholder(tf.float32, [None, 3], name="x")
    with tf1.Session(graph=graph) as sess:
        with pytest.raises(tf.errors.InvalidArgumentError) as caught:
            sess.run(x * 2.0)
    message = caught.value.message
    assert message.startswith("Graph execution error:\n\nDetected at node 'x' defined at (most "
                              "recent call last):\n    File ")
    assert message.endswith("\nNode: 'x'\nYou must feed a value for placeholder tensor 'x' with "
                            "dtype float and shape [?,3]\n\t [[{{node x}}]]")
    assert caught.value.op is x.op


def test_tensor_consumers_and_operation_node_def(graph):
    x = tf1.placeholder(tf.float32, [None, 3], name="x")
    doubled = x * 2.0
    y = tf.identity(doubled, name="y")
    assert x.consumers() == [doubled.op] and y.consumers() == []
    node = y.op.node_def
    assert (node.name, node.op, list(node.input)) == ("y", "Identity", [doubled.op.name])


def test_saver_restore_failures_read_as_tfs(tmp_path):
    g = tf1.Graph()
    with g.as_default():
        tf1.Variable(1.0, name="w")
        saver = tf1.train.Saver()
        with tf1.Session(graph=g) as sess:
            sess.run(tf1.global_variables_initializer())
            path = saver.save(sess, str(tmp_path / "model"))
    start = "^Restoring from checkpoint failed. This is most likely due to "
    for names, error, text in (
            (("v", "w", "a"), tf.errors.NotFoundError,
             start + r"a Variable name or other graph key that is missing from the checkpoint\. "
                     r"Please ensure .* Original error:\n\nGraph execution error:\n\nKey a not "
                     r"found in checkpoint\n\t \[\[\{\{node save/RestoreV2\}\}\]\]$"),
            (("w",), tf.errors.InvalidArgumentError,
             start + r"a mismatch between the current graph and the graph from the checkpoint\."
                     r".*\n\nAssign requires shapes of both tensors to match\. lhs shape= \[2\] "
                     r"rhs shape= \[\]\n\t \[\[\{\{node save/Assign\}\}\]\]$")):
        other = tf1.Graph()
        with other.as_default():
            for name in names:
                tf1.Variable([1.0, 2.0], name=name)
            restorer = tf1.train.Saver()
            with tf1.Session(graph=other) as sess:
                with pytest.raises(error, match=re.compile(text, re.S)):
                    restorer.restore(sess, path)


def test_feeding_none_raises_numpys_type_error(graph):
    n = tf1.placeholder(tf.int32, [], name="n")
    with tf1.Session(graph=graph) as sess:
        with pytest.raises(TypeError, match="int\\(\\) argument must be"):
            sess.run(n + 1, {n: None})
        with pytest.raises(ValueError, match="invalid literal for int"):
            sess.run(n + 1, {n: "a"})


def test_coordinator_and_start_queue_runners_scaffold(graph):
    import threading
    x = tf1.data.make_one_shot_iterator(tf.data.Dataset.range(3)).get_next()
    coord = tf1.train.Coordinator()
    seen = []
    with tf1.Session(graph=graph) as sess:
        assert tf1.train.start_queue_runners(sess=sess, coord=coord) == []

        def worker():
            with coord.stop_on_exception():
                while not coord.should_stop():
                    seen.append(int(sess.run(x)))
        thread = threading.Thread(target=worker)
        thread.start()
        coord.join([thread])  # (OutOfRangeError is a clean stop)
    assert seen == [0, 1, 2] and coord.should_stop() and coord.joined
    failing = tf1.train.Coordinator()
    failing.request_stop(ValueError("boom"))
    with pytest.raises(ValueError, match="boom"):
        failing.join()
    with pytest.raises(ValueError, match="No default session is registered"):
        tf1.train.start_queue_runners()


def test_tf_print_in_a_tf1_graph_runs_where_a_control_dependency_names_it(graph, capsys):
    x = tf1.placeholder(tf.float32, [None])
    printed = tf.print("x is", x, output_stream=sys.stdout)
    assert printed.type == "PrintV2"
    with tf1.control_dependencies([printed, tf1.assert_rank(x, 1)]):  # (a static check)
        y = tf.identity(x)
    with tf1.Session() as sess:
        assert sess.run(y, {x: [1.0, 2.0]}).tolist() == [1.0, 2.0]
    assert capsys.readouterr().out == "x is [1 2]\n"


def test_tf1_control_flow_quotes_the_tensor_of_a_loop_shape_error():
    # TF 1's while_loop (`disable_control_flow_v2`) names the tensor in quotes, TF 2's in
    # backticks.
    tf1.disable_control_flow_v2()
    try:
        with tf1.Graph().as_default():
            m = tf.zeros([1])
            with pytest.raises(ValueError, match=r"^Input tensor 'zeros:0' enters the loop "
                                                 r"with shape \(1,\), but has shape \(2,\)"):
                tf1.while_loop(lambda m: tf.shape(m)[0] < 8,
                               lambda m: tf.concat([m, m], 0), [m])
    finally:
        tf1.enable_control_flow_v2()


def test_disable_v2_behavior_gives_keras_layers_tf1_dtypes():
    # TF 1's dtype behaviour: a layer without a dtype computes in its input's (values from TF)
    tf1.disable_v2_behavior()
    try:
        x = tf1.placeholder(tf.float64, [None, 3])
        layer = tf.keras.layers.Dense(2)
        assert layer(x).dtype == tf.float64 and layer.dtype == "float64"
        assert [w.dtype for w in layer.weights] == [tf.float64, tf.float64]
        assert tf.keras.layers.Dense(2).get_config()["dtype"] is None
    finally:
        tf1.enable_v2_behavior()
    assert tf.keras.layers.Dense(2).dtype == "float32"
    assert tf.keras.layers.Dense(2)(tf.ones([1, 3], tf.float64)).dtype == tf.float32
