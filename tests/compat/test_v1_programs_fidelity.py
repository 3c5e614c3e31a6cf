"""TF 1.x programs under ``compat.v1``: names, structures and errors as TF 2.21's
``tf.compat.v1`` gives them (checked against the real TF)."""
import numpy as np
import pytest

import eagerflow as tf
import eagerflow.compat.v1 as tf1


@pytest.fixture
def graph():
    g = tf1.Graph()
    with g.as_default():
        yield g


@pytest.fixture
def v1_behavior():
    tf1.disable_v2_behavior()
    try:
        yield
    finally:
        tf1.enable_v2_behavior()


def test_add_names_its_node_add_and_names_clash_without_case(graph):
    x = tf1.placeholder(tf.float32, [None, 3], name="x")
    a, b = x + x, x + x
    c = tf.add(x, x)
    d = tf.add(x, x, name="add")
    assert [t.name for t in (a, b, c, d)] == ["add:0", "add_1:0", "Add_2:0", "add_3:0"]
    assert c.op.type == "AddV2"
    with tf1.Session(graph=graph) as sess:
        assert sess.run("Add_2:0", {x: [[1.0, 2.0, 3.0]]}).tolist() == [[2.0, 4.0, 6.0]]


def test_v1_while_loop_eagerly_takes_a_bare_body_result_for_one_variable():
    i0 = tf.constant(0)
    bare = tf1.while_loop(lambda i: i < 3, lambda i: i + 1, [i0])
    assert isinstance(bare, tf.Tensor) and int(bare) == 3
    # a one-item result is not unwrapped eagerly: TF returns the body's tuple
    one = tf1.while_loop(lambda i: i < 3, lambda i: (i + 1,), [i0])
    assert isinstance(one, tuple) and int(one[0]) == 3
    pair = tf1.while_loop(lambda i, s: i < 3, lambda i, s: (i + 1, s + i), [i0, i0])
    assert isinstance(pair, tuple) and [int(t) for t in pair] == [3, 3]
    # with maximum_iterations too
    bare = tf1.while_loop(lambda i: i < 30, lambda i: i + 1, [i0], maximum_iterations=5)
    assert isinstance(bare, tf.Tensor) and int(bare) == 5


def test_v1_control_flow_while_loop_has_the_body_results_structure(v1_behavior):
    i0 = tf.constant(0)
    pair = tf1.while_loop(lambda i, s: i < 3, lambda i, s: (i + 1, s + i), [i0, i0])
    listed = tf1.while_loop(lambda i, s: i < 3, lambda i, s: [i + 1, s + i], (i0, i0))
    same = tf1.while_loop(lambda i: i < 3, lambda i: i + 1, [i0], return_same_structure=True)
    assert type(pair) is tuple and type(listed) is list and type(same) is list
    with tf1.Session() as sess:
        assert sess.run(pair) == (3, 3)
        assert sess.run(listed) == [3, 3] and sess.run(same) == [3]


def test_v2_control_flow_while_loop_in_a_graph_has_the_loop_variables_structure(graph):
    i0 = tf.constant(0)
    pair = tf1.while_loop(lambda i, s: i < 3, lambda i, s: (i + 1, s + i), [i0, i0])
    assert type(pair) is list


def test_saver_def_is_an_attribute_of_the_saver(graph):
    tf1.get_variable("w", [2], initializer=tf1.zeros_initializer())
    saver = tf1.train.Saver()
    assert saver.saver_def.filename_tensor_name == "save/Const:0"
    assert saver.saver_def.restore_op_name == "save/restore_all"


def _helper_gather(index):
    return tf.gather([1, 2, 3], index)


def test_session_run_errors_say_where_the_node_was_made_as_tf1s(graph):
    n = tf1.placeholder(tf.int32, [], name="n")
    out = _helper_gather(n)
    line = _helper_gather.__code__.co_firstlineno + 1
    with tf1.Session(graph=graph) as sess:
        with pytest.raises(tf.errors.InvalidArgumentError) as info:
            sess.run(out, {n: 5})
    e = info.value
    assert e.message.startswith(
        "Graph execution error:\n\nDetected at node 'GatherV2' defined at (most recent call "
        "last):\n    File ")
    assert e.message.endswith(
        f'line {line}, in _helper_gather\nNode: \'GatherV2\'\nindices = 5 is not in [0, 3)'
        f"\n\t [[{{{{node GatherV2}}}}]]")
    assert "[Op:" not in e.message and e.op is graph.get_operation_by_name("GatherV2")
    assert e.node_def.name == "GatherV2"
    # str() adds where the op was made, as TF's does
    assert str(e).startswith(e.message + "\n\nOriginal stack trace for 'GatherV2':\n  File ")


def test_a_scalar_placeholder_not_fed_names_no_shape(graph):
    n = tf1.placeholder(tf.int32, [], name="n")
    m = tf1.placeholder(tf.float32, [None, 3], name="m")
    with tf1.Session(graph=graph) as sess:
        with pytest.raises(tf.errors.InvalidArgumentError) as info:
            sess.run(n + 1)
        assert info.value.message.endswith(
            "Node: 'n'\nYou must feed a value for placeholder tensor 'n' with dtype int32\n"
            "\t [[{{node n}}]]")
        with pytest.raises(tf.errors.InvalidArgumentError, match=r"dtype float and shape "
                                                                 r"\[\?,3\]"):
            sess.run(m)


def test_ref_variables_uninitialized_give_tf1s_message(v1_behavior):
    v = tf1.Variable(1.0, name="v")
    with tf1.Session() as sess:
        with pytest.raises(tf.errors.FailedPreconditionError) as info:
            sess.run(v * 2.0)
    assert "\nAttempting to use uninitialized value v\n" in info.value.message


def test_a_fed_tensor_is_fetched_as_fed_without_its_inputs(graph):
    x = tf1.placeholder(tf.float32, [None, 3], name="x")
    y = tf.reduce_sum(x * 2.0)
    z = y * 2.0
    with tf1.Session(graph=graph) as sess:
        assert sess.run(y, {y: 3.0}) == 3.0
        assert sess.run([z, y], {y: 3.0}) == [6.0, 3.0]


def test_feeding_a_ref_variable_feeds_its_reads(v1_behavior):
    x = tf1.placeholder(tf.float32, [None, 3], name="x")
    v = tf1.Variable(1.0, name="v")
    y = tf.reduce_sum(x * v)
    with tf1.Session() as sess:
        sess.run(v.initializer)
        assert sess.run([y, y * 2], {v: 3.0, x: [[1.0, 1.0, 1.0]]}) == [9.0, 18.0]
        assert sess.run(v) == 1.0


def test_feeding_a_resource_variable_leaves_its_reads(graph):
    # (TF feeds only the variable's snapshot; the reads made by ops read the variable)
    x = tf1.placeholder(tf.float32, [None, 3], name="x")
    v = tf1.Variable(1.0, name="v")
    y = tf.reduce_sum(x * v)
    with tf1.Session(graph=graph) as sess:
        sess.run(v.initializer)
        assert sess.run(y, {v: 3.0, x: [[1.0, 1.0, 1.0]]}) == 3.0


def test_none_among_the_fetches_is_tfs_type_error(graph):
    y = tf.constant(1.0)
    with tf1.Session(graph=graph) as sess:
        for fetches in (None, [y, None]):
            with pytest.raises(TypeError, match=r'^Argument `fetch` = None has invalid type '
                                                r'"NoneType". Cannot be None$'):
                sess.run(fetches)


def test_feedable_iterator_switches_between_datasets_by_string_handle(graph):
    import numpy as np
    train = tf.data.Dataset.from_tensor_slices(np.arange(10, dtype=np.float32)).repeat()
    val = tf.data.Dataset.from_tensor_slices(np.arange(100, 102, dtype=np.float32))
    handle = tf1.placeholder(tf.string, shape=[])
    it = tf1.data.Iterator.from_string_handle(handle, tf1.data.get_output_types(train),
                                              tf1.data.get_output_shapes(train))
    assert it.output_types == tf.float32 and it.output_shapes == ()
    out = it.get_next() * 2
    train_it = tf1.data.make_one_shot_iterator(train)
    val_it = tf1.data.make_initializable_iterator(val)
    # (each iterator makes its string handle's op as it is made)
    assert [op.name for op in graph.get_operations() if op.type == "IteratorToStringHandle"
            ] == ["IteratorToStringHandle", "IteratorToStringHandle_1",
                  "IteratorToStringHandle_2"]
    assert train_it.string_handle() is train_it.string_handle()
    assert train_it.string_handle().dtype == tf.string
    with tf1.Session(graph=graph) as sess:
        train_h, val_h = sess.run([train_it.string_handle(), val_it.string_handle()])
        assert isinstance(train_h, bytes)
        assert [sess.run(out, {handle: train_h}) for _ in range(2)] == [0.0, 2.0]
        sess.run(val_it.initializer)
        assert [sess.run(out, {handle: val_h}) for _ in range(2)] == [200.0, 202.0]
        with pytest.raises(tf.errors.OutOfRangeError):
            sess.run(out, {handle: val_h})
        assert sess.run(out, {handle: train_h}) == 4.0


def test_partial_run_errors_are_tfs_run_errors(graph):
    a, b, c = (tf1.placeholder(tf.float32, shape=[]) for _ in range(3))
    r1 = a + b
    r2 = r1 * c
    with tf1.Session(graph=graph) as sess:
        h = sess.partial_run_setup([r1, r2], [a, b, c])
        with pytest.raises(tf.errors.InvalidArgumentError) as info:
            sess.partial_run(h, r2, feed_dict={c: 2.0})
        assert info.value.message == ("Graph execution error:\n\nFetch Placeholder:0 can't be "
                                      "computed from the feeds that have been fed so far.")
        h = sess.partial_run_setup([r1, r2], [a, b, c])
        assert sess.partial_run(h, r1, feed_dict={a: 1.0, b: 2.0}) == 3.0
        with pytest.raises(tf.errors.InvalidArgumentError) as info:
            sess.partial_run(h, r1, feed_dict={a: 2.0})
        assert info.value.message == ("Graph execution error:\n\nThe feed Placeholder:0 has "
                                      "already been fed.")
        assert sess.partial_run(h, r2, feed_dict={c: 3.0}) == 9.0
        with pytest.raises(tf.errors.InvalidArgumentError) as info:
            sess.partial_run(h, r2, feed_dict={c: 3.0})
        assert info.value.message == ("Graph execution error:\n\nMust run 'setup' before "
                                      "performing partial runs!")


def test_exponential_moving_average_in_a_graph_follows_a_training_step(graph):
    w = tf1.get_variable("w", initializer=tf.constant([1.0, 2.0]))
    step = tf1.assign_add(w, [1.0, 1.0])
    ema = tf1.train.ExponentialMovingAverage(0.5)
    with tf1.control_dependencies([step]):
        train = ema.apply([w])
    assert train.name == "ExponentialMovingAverage" and train.type == "NoOp"
    assert ema.average(w).name == "w/ExponentialMovingAverage:0"
    assert [v.name for v in tf1.moving_average_variables()] == ["w:0"]
    with tf1.Session(graph=graph) as sess:
        sess.run(tf1.global_variables_initializer())
        assert sess.run(ema.average(w)).tolist() == [1.0, 2.0]
        for _ in range(2):
            sess.run(train)
        assert sess.run(ema.average(w)).tolist() == [2.25, 3.25]


def _linear_training_graph():
    x = tf1.placeholder(tf.float32, [None, 2], name="input")
    w = tf1.get_variable("w", initializer=tf.constant([[1.0], [2.0]]))
    loss = tf.reduce_mean(tf.square(tf.matmul(x, w) - 1.0), name="loss")
    step = tf1.train.get_or_create_global_step()
    train = tf1.train.GradientDescentOptimizer(0.1).minimize(loss, global_step=step,
                                                            name="train_op")
    tf1.add_to_collection("train_op", train)
    return w, train


def test_training_step_waits_on_its_updates_after_a_meta_graph_round_trip(tmp_path):
    with tf1.Graph().as_default() as g:
        w, train = _linear_training_graph()
        assert train.name == "train_op"
        # (the step op's first name is free again, and took nothing with it)
        assert tf1.train.get_global_step().assign_add(1, read_value=False).name \
            == "AssignAddVariableOp"
        with tf1.Session(graph=g) as sess:
            sess.run(tf1.global_variables_initializer())
            path = tf1.train.Saver().save(sess, str(tmp_path / "m"))
    with tf1.Graph().as_default() as g, tf1.Session(graph=g) as sess:
        saver = tf1.train.import_meta_graph(path + ".meta")
        saver.restore(sess, path)
        train = tf1.get_collection("train_op")[0]
        for _ in range(2):
            sess.run(train, {"input:0": [[1.0, 1.0]]})
        got = sess.run(tf1.global_variables())  # (w, global_step: their values)
    # two steps of gradient descent on (x w - 1)^2 from w = [1, 2], x = [1, 1]
    want = np.array([[1.0], [2.0]])
    for _ in range(2):
        want = want - 0.1 * 2 * (want.sum() - 1.0)
    np.testing.assert_allclose(got[0], want, rtol=1e-6)
    assert got[1] == 2


def test_an_imported_constant_keeps_its_control_inputs(tmp_path):
    with tf1.Graph().as_default():
        v = tf1.get_variable("v", initializer=tf.constant(0.0))
        bump = v.assign_add(1.0, read_value=False)
        with tf1.control_dependencies([bump]):
            tf.constant(5.0, name="c")
        tf1.global_variables_initializer()
        tf1.train.export_meta_graph(str(tmp_path / "m.meta"))
    with tf1.Graph().as_default() as g, tf1.Session(graph=g) as sess:
        tf1.train.import_meta_graph(str(tmp_path / "m.meta"))
        sess.run("init")
        assert [sess.run("c:0") for _ in range(2)] == [5.0, 5.0]
        assert sess.run(tf1.global_variables()) == [2.0]


def test_a_tf1_ref_variable_meta_graph_imports_restores_and_trains():
    # TF 1's program (`make_v1_ref_meta_data.py`): VariableV2, Assign, ApplyAdam and
    # ApplyMomentum nodes; TF's values after importing it and three more steps
    import json
    import os
    data = os.path.join(os.path.dirname(__file__), "data")
    with open(os.path.join(data, "v1_ref_meta.json")) as f:
        want = json.load(f)
    assert {"VariableV2", "Assign", "ApplyAdam", "ApplyMomentum"} <= set(want["ops"])
    path = os.path.join(data, "v1_ref_meta", "model")
    x = [[1.0, 2.0], [0.5, -1.0]]
    with tf1.Graph().as_default() as g, tf1.Session(graph=g) as sess:
        tf1.train.import_meta_graph(path + ".meta").restore(sess, path)
        np.testing.assert_allclose(sess.run("output:0", {"input:0": x}), want["restored"],
                                   rtol=1e-6)
        w = tf1.global_variables()[0]
        assert repr(w) == "<tf.Variable 'layer/w:0' shape=(2, 1) dtype=float32_ref>"
        assert len(tf1.trainable_variables()) == 2
        for _ in range(3):
            for op in tf1.get_collection("train_ops"):
                sess.run(op, {"input:0": x})
        got = {v.name: sess.run(v) for v in tf1.global_variables()}
    assert sorted(got) == sorted(want["values"])
    for name, value in want["values"].items():
        np.testing.assert_allclose(got[name], value, rtol=1e-5, err_msg=name)


def test_graph_variables_are_on_the_device_asked_for_as_tfs_ops(graph):
    a = tf1.Variable(1.0, name="a")
    with tf1.device("/cpu:0"):
        c = tf1.get_variable("c", [])
    with tf1.device("/job:worker/task:1"):
        f = tf1.Variable(1.0, name="f")
    assert (a.device, c.device, f.device) == ("", "/device:CPU:0", "/job:worker/task:1")
    assert (a.op.device, c.op.device) == ("", "/device:CPU:0")


def test_compat_v1_has_the_version():
    assert tf1.__version__ == tf.__version__ == tf1.VERSION


def test_custom_getters_of_scopes_and_calls_nest_as_tfs(graph):
    calls = []

    def float32_storage(getter, name, shape=None, dtype=None, *args, **kwargs):
        calls.append(("storage", name, dtype))
        var = getter(name, shape, tf.float32, *args, **kwargs)
        return tf.cast(var, dtype) if dtype == tf.float16 else var

    def renaming(getter, name, *args, **kwargs):
        calls.append(("renaming", name, kwargs["reuse"]))
        return getter(name + "_r", *args, **kwargs)

    with tf1.variable_scope("outer", custom_getter=float32_storage):
        with tf1.variable_scope("inner", custom_getter=renaming):
            w = tf1.get_variable("w", [2], dtype=tf.float16,
                                 initializer=tf1.ones_initializer())
    v = tf1.get_variable("v", [], custom_getter=renaming)
    assert calls == [("renaming", "outer/inner/w", False),
                     ("storage", "outer/inner/w_r", tf.float16),
                     ("renaming", "v", False)]
    assert w.dtype == tf.float16 and w.op.type == "Cast"
    assert [x.name for x in tf1.global_variables()] == ["outer/inner/w_r:0", "v_r:0"]
    assert tf1.global_variables()[0].dtype.base_dtype == tf.float32


def test_custom_getter_ops_are_named_from_the_root(graph):
    # As TF: a variable's name depends on its variable scope alone, so the getter runs out
    # of the name scopes entered (TF named the ``mul`` below ``mul:0``, we ``cg/mul:0``).
    def doubled(getter, name, *args, **kwargs):
        return getter(name, *args, **kwargs) * 2.0

    with tf1.name_scope("ns"), tf1.variable_scope("cg", custom_getter=doubled):
        g = tf1.get_variable("g", [2], initializer=tf1.ones_initializer())
        after = tf.add(1.0, 2.0, name="after")
    assert (g.name, after.name) == ("mul:0", "ns/cg/after:0")
    assert [v.name for v in tf1.global_variables()] == ["cg/g:0"]


def test_sharing_a_ref_variable_with_another_dtype_names_its_ref_dtype(v1_behavior):
    tf1.get_variable("a", [2])
    with tf1.variable_scope(tf1.get_variable_scope(), reuse=True):
        with pytest.raises(ValueError, match=r"specified dtype int32 and found dtype "
                                             r"float32_ref\.$"):
            tf1.get_variable("a", [2], dtype=tf.int32)


def _counter_runs():
    v = tf1.Variable(0, name="v")
    inc = tf1.assign_add(v, 1)
    read = v + 0
    with tf1.Session() as sess:
        sess.run(tf1.global_variables_initializer())
        return [sess.run([inc, v]), sess.run([inc.op, v, v.value(), read])]


def test_a_fetched_ref_variable_shows_the_runs_updates(v1_behavior):
    # (TF 1's `_, step = sess.run([train_op, global_step])` gives the step after it)
    assert _counter_runs() == [[1, 1], [None, 2, 2, 1]]


def test_a_fetched_resource_variable_is_read_before_the_runs_updates(graph):
    assert _counter_runs() == [[1, 0], [None, 1, 1, 1]]


def test_v1_control_flow_cond_raises_tf1s_errors(v1_behavior):
    x = tf1.placeholder(tf.float32, [])
    cases = [
        (lambda: tf1.cond(x > 0, lambda: x, lambda: [x, x]), ValueError,
         "The two structures don't have the same nested structure."),
        (lambda: tf1.cond(x > 0, lambda: x, lambda: tf.constant(1)), ValueError,
         "Outputs of 'true_fn' and 'false_fn' must have the same type(s). Received float32 "
         "from 'true_fn' and int32 from 'false_fn'."),
        (lambda: tf1.cond(x > 0, lambda: (x, x), lambda: [x, x]), TypeError,
         "The two structures don't have the same nested structure."),
        (lambda: tf1.cond(x > 0, lambda: x, lambda: None), ValueError,
         "'false_fn' must have a return value."),
        (lambda: tf1.cond(True, lambda: x, lambda: x), TypeError,
         "'pred' must not be a Python bool."),
        (lambda: tf1.cond(x, lambda: x, lambda: x), TypeError,
         "Input 'pred' of 'Switch' Op has type float32 that does not match expected type of "
         "bool."),
        (lambda: tf1.cond(tf.constant([True, False]), lambda: x, lambda: x), ValueError,
         "Shape must be rank 0 but is rank 1 for '{{node cond_6/Switch}} = "
         "Switch[T=DT_BOOL](Const, Const)' with input shapes: [2], [2]."),
    ]
    for make, error, message in cases:
        with pytest.raises(error) as info:
            make()
        assert str(info.value).splitlines()[0] == message
    assert tf1.cond(x > 0, lambda: x, lambda: -x).name == "cond_7/Merge:0"
