"""TF 1 graph mode (``tf.compat.v1``): graphs, placeholders, sessions, graph variables."""
import collections as pycollections
import json
import os
import sys

import numpy as np
import pytest

import eagerflow as tf
import eagerflow.compat.v1 as tf1

from tests.compat.v1_programs import PROGRAMS

with open(os.path.join(os.path.dirname(__file__), "data", "v1_graph.json")) as _f:
    RECORDED = json.load(_f)


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_programs_give_tfs_results(name):
    got = json.loads(json.dumps(PROGRAMS[name](tf1)))
    want = RECORDED[name]
    if name == "linear_regression":
        np.testing.assert_allclose(got.pop("losses"), want.pop("losses"), rtol=1e-4)
        for k in ("w", "b"):
            np.testing.assert_allclose(got.pop(k), want.pop(k), rtol=1e-5)
    assert got == want


def test_disable_eager_execution_builds_into_the_default_graph():
    tf1.disable_eager_execution()
    assert not tf1.executing_eagerly()
    assert not tf1.executing_eagerly_outside_functions()
    x = tf1.placeholder(tf.float32, [None, 3], name="x")
    y = tf.matmul(x, tf.ones([3, 1]))
    assert y.name == "MatMul:0" and y.graph is tf1.get_default_graph()
    with tf1.Session() as sess:
        assert sess.run(y, {x: [[1.0, 2.0, 3.0]]}).tolist() == [[6.0]]
    tf1.enable_eager_execution()
    assert tf1.executing_eagerly()
    assert float(tf.ones([]) + 1.0) == 2.0


def test_fetch_structures_and_names():
    g = tf1.Graph()
    Pair = pycollections.namedtuple("Pair", "a b")
    with g.as_default():
        x = tf1.placeholder(tf.int32, [], name="x")
        y = x * 2
        op = tf1.no_op()
    with tf1.Session(graph=g) as sess:
        out = sess.run({"p": Pair(x, y), "l": [y, "mul:0", (op,)]}, feed_dict={"x:0": 3})
        assert out["p"] == Pair(3, 6)
        assert out["l"][:2] == [6, 6] and out["l"][2] == (None,)
        assert sess.run(op) is None
        assert isinstance(sess.run(y, {x: 1}), np.int32)
        assert sess.graph is g
        assert sess.make_callable(y, [x])(5) == 10


def test_feed_errors_are_tfs():
    g = tf1.Graph()
    with g.as_default():
        x = tf1.placeholder(tf.float32, [None, 3], name="x")
        y = x + 1.0
    with tf1.Session(graph=g) as sess:
        with pytest.raises(tf.errors.InvalidArgumentError,
                           match=r"You must feed a value for placeholder tensor 'x' with "
                                 r"dtype float and shape \[\?,3\]"):
            sess.run(y)
        with pytest.raises(ValueError, match=r"Cannot feed value of shape \(3,\) for Tensor "
                                             r"x:0, which has shape \(None, 3\)"):
            sess.run(y, {x: [1.0, 2.0, 3.0]})
        with pytest.raises(TypeError, match="The value of a feed cannot be a tf.Tensor"):
            sess.run(y, {x: y})
    with pytest.raises(RuntimeError, match="closed Session"):
        sess.run(y, {x: [[1.0, 2.0, 3.0]]})


def test_repeated_runs_check_each_steps_fetches_and_feeds():
    g = tf1.Graph()
    with g.as_default():
        x = tf1.placeholder(tf.float32, [None, 2], name="x")
        v = tf1.Variable(0.0)
        inc = v.assign_add(1.0)
        y = tf.reduce_sum(x)
    with tf1.Session(graph=g) as sess:
        sess.run(v.initializer)
        fetches = [inc, y]
        ones = np.ones((1, 2), np.float32)
        for step in range(3):  # the same list and feeds: one compiled run, values anew
            out = sess.run(fetches, {x: ones * step})
            assert isinstance(out, list) and out == [step + 1.0, 2.0 * step]
        assert sess.run((y,), {x: ones}) == (2.0,) and sess.run(y, {x: [[1, 2]]}) == 3.0
        fetches[1] = x  # a changed list is fetched as it is now
        assert sess.run(fetches, {x: ones})[1].tolist() == [[1.0, 1.0]]
        with pytest.raises(ValueError, match=r"Cannot feed value of shape \(2,\) for Tensor "
                                             r"x:0, which has shape \(None, 2\)"):
            sess.run([inc, y], {x: np.ones(2, np.float32)})
        with pytest.raises(TypeError, match="The value of a feed cannot be a tf.Tensor"):
            sess.run([inc, y], {x: y})
        assert sess.run([inc, y], {x: np.ones((1, 2), np.float64)}) == [5.0, 2.0]  # (cast)


def test_uninitialized_variable_and_per_session_values():
    g = tf1.Graph()
    with g.as_default():
        v = tf1.Variable(1.0, name="v")
        inc = v.assign_add(1.0)
        init = tf1.global_variables_initializer()
    a, b = tf1.Session(graph=g), tf1.Session(graph=g)
    with pytest.raises(tf.errors.FailedPreconditionError, match="Could not find variable v"):
        a.run(v)
    a.run(init)
    b.run(init)
    a.run(inc)
    a.run(inc)
    assert a.run(v) == 3.0 and b.run(v) == 1.0
    with a.as_default():
        assert v.eval() == 3.0
        inc.op.run()
        assert inc.eval() == 5.0


def test_control_dependencies_and_group():
    g = tf1.Graph()
    with g.as_default():
        v = tf1.Variable(0.0)
        with tf1.control_dependencies([v.assign_add(1.0)]):
            w = tf.identity(v.read_value())  # (read after the update)
        both = tf1.group(v.assign_add(10.0), v.assign_add(100.0))
    with tf1.Session(graph=g) as sess:
        sess.run(v.initializer)
        assert sess.run(w) == 1.0
        sess.run(both)
        assert sess.run(v) == 111.0


def test_a_constant_renamed_by_its_op_keeps_its_control_inputs(capsys):
    # `x + 1` in a control_dependencies block makes a ``Const`` (renamed ``add/y``): its
    # control input stays with it; the next op named ``Const`` (a TensorArray's, made after
    # the block) does not inherit it, so running that array no longer ran the print.
    g = tf1.Graph()
    with g.as_default():
        x = tf1.placeholder(tf.float32, [], name="x")
        printed = tf.print("printed", x, output_stream=sys.stdout)
        with tf1.control_dependencies([printed]):
            y = x + 1
        stacked = tf.TensorArray(tf.float32, size=1).write(0, x * 2).stack()
    assert [op.name for op in g.get_operation_by_name("add/y").control_inputs] == ["PrintV2"]
    assert g.get_operation_by_name("Const").control_inputs == []
    with tf1.Session(graph=g) as sess:
        assert sess.run(stacked, {x: 2.0}).tolist() == [4.0]
        assert capsys.readouterr().out == ""
        assert sess.run(y, {x: 3.0}) == 4.0
        assert capsys.readouterr().out == "printed 3\n"


def test_graph_inspection_and_finalize():
    g = tf1.Graph()
    with g.as_default():
        x = tf1.placeholder(tf.float32, name="x")
        y = tf.add(x, x, name="y")
    assert g.get_tensor_by_name("y:0") is y
    assert g.get_operation_by_name("y") is y.op
    assert len(g.as_graph_def().node) == 2
    with pytest.raises(KeyError, match="does not exist"):
        g.get_tensor_by_name("z:0")
    g.finalize()
    with pytest.raises(RuntimeError, match="Graph is finalized"):
        with g.as_default():
            tf.add(x, x)


def test_gradients_in_graph_mode():
    g = tf1.Graph()
    with g.as_default():
        x = tf1.placeholder(tf.float32, [2])
        y = tf.reduce_sum(x * x)
        (dx,) = tf1.gradients(y, [x])
    with tf1.Session(graph=g) as sess:
        assert sess.run(dx, {x: [1.0, 2.0]}).tolist() == [2.0, 4.0]


def test_interactive_session_is_default():
    g = tf1.Graph()
    with g.as_default():
        c = tf.constant(4.0) * 2.0
    sess = tf1.InteractiveSession(graph=g)
    try:
        assert tf1.get_default_session() is sess
        assert c.eval() == 8.0
    finally:
        sess.close()
    assert tf1.get_default_session() is None


def test_config_protos_are_accepted():
    config = tf1.ConfigProto(allow_soft_placement=True,
                             gpu_options=tf1.GPUOptions(allow_growth=True))
    config.gpu_options.allow_growth = True
    g = tf1.Graph()
    with g.as_default():
        c = tf.constant(1)
    with tf1.Session(graph=g, config=config) as sess:
        assert sess.run(c, options=tf1.RunOptions()) == 1


def test_dataset_iterators_in_graph_mode():
    g = tf1.Graph()
    with g.as_default():
        ds = tf.data.Dataset.from_tensor_slices((np.arange(5.0), np.arange(5))).batch(2)
        x, y = tf1.data.make_one_shot_iterator(ds).get_next()
        it = tf1.data.make_initializable_iterator(tf.data.Dataset.range(3))
        n = it.get_next()
    with tf1.Session(graph=g) as sess:
        assert [sess.run(y).tolist() for _ in range(3)] == [[0, 1], [2, 3], [4]]
        with pytest.raises(tf.errors.OutOfRangeError, match="End of sequence"):
            sess.run(x)
        with pytest.raises(tf.errors.FailedPreconditionError,
                           match="iterator has not been initialized"):
            sess.run(n)
        sess.run(it.initializer)
        assert [sess.run(n), sess.run(n)] == [0, 1]
        sess.run(it.initializer)
        assert sess.run(n) == 0
    with tf1.Session(graph=g) as other:  # each session iterates on its own
        assert other.run(y).tolist() == [0, 1]


def test_fetch_errors_are_tfs():
    g, other = tf1.Graph(), tf1.Graph()
    with other.as_default():
        c = tf.constant(1.0)
    with tf1.Session(graph=g) as sess:
        with pytest.raises(ValueError, match=r"cannot be interpreted as a Tensor. \(Tensor "
                                             r".* is not an element of this graph.\)"):
            sess.run(c)
        with pytest.raises(TypeError, match='Argument `fetch` = 3 has invalid type "int"'):
            sess.run(3)
        with pytest.raises(ValueError, match="The operation, 'nope', does not exist"):
            sess.run("nope:0")


def test_functions_and_name_scopes_in_a_v1_graph():
    g = tf1.Graph()
    with g.as_default():
        f = tf.function(lambda a: a * 2.0 + 1.0)
        x = tf1.placeholder(tf.float32, [None])
        with tf.name_scope("b"):
            y = f(x)
        with tf.name_scope("b"):
            z = tf.reduce_sum(y)
    assert z.name == "b_1/Sum:0"
    with tf1.Session(graph=g) as sess:
        out = sess.run([y, z], {x: [1.0, 2.0]})
    assert out[0].tolist() == [3.0, 5.0] and out[1] == 8.0


def test_feeds_convert_to_the_placeholder_dtype():
    g = tf1.Graph()
    with g.as_default():
        i = tf1.placeholder(tf.int32, [])
    with tf1.Session(graph=g) as sess:
        assert sess.run(i, {i: np.int64(3)}) == 3
        assert isinstance(sess.run(i, {i: 4.0}), np.int32)


def test_get_variable_initializers_regularizers_and_scopes():
    g = tf1.Graph()
    with g.as_default():
        with tf1.variable_scope("net", initializer=tf1.constant_initializer(2.0)) as sc:
            a = tf1.get_variable("a", [2, 2], regularizer=lambda w: tf.reduce_sum(w) * 0.5)
            b = tf1.get_variable("b", [3, 3], initializer=tf1.glorot_uniform_initializer())
        c = tf1.get_variable("c", [3])
        d = tf1.get_variable("d", [], dtype=tf.int32)
        with tf1.variable_scope(sc, reuse=True):
            assert tf1.get_variable("a") is a
        with tf1.variable_scope(None, default_name="dense"):
            e = tf1.get_variable("k", [1])
        with tf1.variable_scope(None, default_name="dense"):
            f = tf1.get_variable("k", [1])
        regs = tf1.get_collection(tf1.GraphKeys.REGULARIZATION_LOSSES)
        init = tf1.global_variables_initializer()
    assert [e.name, f.name] == ["dense/k:0", "dense_1/k:0"]
    with g.as_default():
        assert tf1.trainable_variables("net") == [a, b]
        assert [v.name for v in tf1.global_variables()][:4] == ["net/a:0", "net/b:0", "c:0",
                                                                "d:0"]
    with tf1.Session(graph=g) as sess:
        sess.run(init)
        av, reg, dv, bv, cv = sess.run([a, regs[0], d, b, c])
    assert av.tolist() == [[2.0, 2.0], [2.0, 2.0]] and reg == 4.0 and dv == 0
    assert bv.std() > 0 and np.abs(bv).max() <= 1.0 and cv.shape == (3,)


def test_v1_variable_is_a_tf2_variable_eagerly():
    v = tf1.Variable(2.0)
    assert float(v.assign_add(1.0)) == 3.0
    assert isinstance(v, tf.Variable)


def test_training_graph_as_graph_def():
    g = tf1.Graph()
    with g.as_default():
        x = tf1.placeholder(tf.float32, [None], name="x")
        w = tf1.Variable(1.0, name="w")
        train = tf1.train.GradientDescentOptimizer(0.1).minimize(tf.reduce_sum(w * x))
        init = tf1.global_variables_initializer()
    assert train.name == "GradientDescent" and init.name == "init"
    nodes = {n.name: n for n in g.as_graph_def().node}
    assert nodes["init"].op == "NoOp" and list(nodes["init"].input) == ["^w/Assign"]
    # (TF's update op is GradientDescent/update_w/ResourceApplyGradientDescent)
    assert nodes["GradientDescent"].input == ["^GradientDescent/update_w/AssignSubVariableOp"]


def test_partial_run_reuses_earlier_steps():
    g = tf1.Graph()
    with g.as_default():
        a = tf1.placeholder(tf.float32, [], name="a")
        b = tf1.placeholder(tf.float32, [], name="b")
        c = tf1.placeholder(tf.float32, [], name="c")
        r1 = tf.add(a, b)
        r2 = tf.multiply(r1, c)
    with tf1.Session(graph=g) as sess:
        h = sess.partial_run_setup([r1, r2], [a, b, c])
        assert sess.partial_run(h, r1, feed_dict={a: 1.0, b: 2.0}) == 3.0
        assert sess.partial_run(h, r2, feed_dict={c: 2.0}) == 6.0
        with pytest.raises(tf.errors.InvalidArgumentError, match="Must run 'setup'"):
            sess.partial_run(h, r2, feed_dict={c: 3.0})


def test_graph_name_scope_and_device():
    g = tf1.Graph()
    with g.as_default(), g.device("/cpu:0"):
        with tf1.name_scope("outer"):
            assert g.get_name_scope() == "outer"
            t = tf.constant(1.0, name="c")
    assert t.name == "outer/c:0"


def test_keras_layer_trained_in_a_v1_graph():
    g = tf1.Graph()
    with g.as_default():
        x = tf1.placeholder(tf.float32, [None, 3])
        layer = tf.keras.layers.Dense(2, kernel_initializer="ones")
        y = layer(x)
        train = tf1.train.GradientDescentOptimizer(0.1).minimize(
            tf.reduce_sum(y), var_list=layer.trainable_variables)
        init = tf1.global_variables_initializer()
    with tf1.Session(graph=g) as sess:
        sess.run(init)  # (the layer's variables are the graph's, as in TF)
        ones = np.ones((1, 3), np.float32)
        assert sess.run(y, {x: ones}).tolist() == [[3.0, 3.0]]
        sess.run(train, {x: ones})
        np.testing.assert_allclose(sess.run(y, {x: ones}), [[2.6, 2.6]], rtol=1e-6)


def test_an_op_on_tensors_of_two_graphs_raises_tfs_value_error():
    tf1.disable_eager_execution()
    y = tf1.constant(3.0, name="y")
    g2 = tf1.Graph()
    with g2.as_default():
        c = tf1.constant(1.0, name="c")
    with pytest.raises(ValueError, match=r'Tensor\("y:0".* must be from the same graph as '
                                         r'Tensor\("c:0"'):
        tf1.add(c, y)
    with pytest.raises(ValueError, match="must be from the same graph"):
        tf1.stack([c, y])


def test_an_op_is_built_in_its_inputs_graph():
    tf1.disable_eager_execution()
    g2 = tf1.Graph()
    with g2.as_default():
        c = tf1.constant(1.0, name="c")
    d = tf1.add(c, c)
    assert d.graph is g2
    with tf1.Session(graph=g2) as sess:
        assert sess.run(d) == 2.0


def test_a_v1_graphs_operation_prints_as_its_node_def():
    tf1.disable_eager_execution()
    a = tf1.placeholder(tf1.float32, [None, 2], name="a")
    b = tf1.add(a, 1.0, name="b")
    assert str(b.op) == ('name: "b"\nop: "AddV2"\ninput: "a"\ninput: "b/y"\nattr {\n  key: "T"\n'
                         '  value {\n    type: DT_FLOAT\n  }\n}\n')
    assert str(tf1.no_op(name="n")) == 'name: "n"\nop: "NoOp"\n'
    assert repr(b.op) == "<tf.Operation 'b' type=AddV2>"


def test_explicit_constants_are_named_const_and_converted_operands_after_their_op():
    tf1.disable_eager_execution()
    x = tf1.constant([1.0, 2.0])
    y = tf1.multiply(x, 3.0, name="m")
    z = tf1.constant(2.0)
    w = z * x
    assert [x.name, y.name, z.name, w.name] == ["Const:0", "m:0", "Const_1:0", "mul:0"]
    assert [op.name for op in tf1.get_default_graph().get_operations()] == [
        "Const", "m/y", "m", "Const_1", "mul"]


def test_operations_are_tf_operation():
    # TF: the nodes of a graph, and what an op without outputs gives in a function, are
    # tf.Operation (tf.compat.v1.Operation is the same class)
    assert tf1.Operation is tf.Operation
    g = tf1.Graph()
    with g.as_default():
        y = tf.constant(1) + 1
        group = tf1.group(y)
    assert isinstance(y.op, tf.Operation) and isinstance(group, tf.Operation)
    assert not isinstance(y, tf.Operation)
    seen = []

    @tf.function
    def f():
        seen.append(isinstance(tf.no_op(), tf.Operation))
        return tf.constant(1)
    f()
    assert seen == [True]


def test_sparse_placeholder_feeds_and_sparse_fetches_are_tfs():
    # TF 2.21: a sparse placeholder's parts and static shape, fed a SparseTensorValue, a
    # tuple of arrays, or its parts alone (its dense_shape defaulting to the shape given);
    # a fetched SparseTensor is a SparseTensorValue, in any fetch structure
    value = tf1.SparseTensorValue([[0, 1]], [1.0], [2, 3])
    assert repr(value) == "SparseTensorValue(indices=[[0, 1]], values=[1.0], dense_shape=[2, 3])"
    assert isinstance(value, tuple) and value._fields == ("indices", "values", "dense_shape")
    g = tf1.Graph()
    with g.as_default():
        s = tf1.sparse_placeholder(tf.float32, [None, 3], name="sp")
        assert [t.name for t in (s.indices, s.values, s.dense_shape)] == \
            ["sp/indices:0", "sp/values:0", "sp/shape:0"]
        assert s.shape.as_list() == [None, 3] and s.indices.shape.as_list() == [None, 2]
        assert tf.get_static_value(s.dense_shape) is None
        unknown = tf1.sparse.placeholder(tf.int64)
        assert unknown.shape.rank is None and unknown.indices.shape.as_list() == [None, None]
        assert unknown.indices.name == "Placeholder_2:0"
        known = tf1.sparse_placeholder(tf.float32, [2, 3])
        assert known.shape.as_list() == [2, 3]
        dense = tf.sparse.to_dense(s)
        total = tf.sparse.reduce_sum(s)
        made = tf.sparse.from_dense(tf.constant([[0, 2], [3, 0]]))
    with tf1.Session(graph=g) as sess:
        assert sess.run(dense, {s: value}).tolist() == [[0, 1, 0], [0, 0, 0]]
        got = sess.run(dense, {s: (np.array([[1, 2]]), np.array([5.0]), np.array([2, 3]))})
        assert got.tolist() == [[0, 0, 0], [0, 0, 5]]
        assert sess.run(total, {s: value}) == 1.0
        assert sess.run(tf.sparse.to_dense(known), {known.indices: [[0, 0]],
                                                    known.values: [1.0]}).tolist() == \
            [[1, 0, 0], [0, 0, 0]]
        assert sess.run(dense, {s.indices: [[0, 0]], s.values: [1.0],
                                s.dense_shape: [1, 3]}).tolist() == [[1, 0, 0]]
        fetched = sess.run(made)
        assert type(fetched) is tf1.SparseTensorValue
        assert fetched.indices.tolist() == [[0, 1], [1, 0]]
        assert fetched.values.tolist() == [2, 3] and fetched.dense_shape.tolist() == [2, 2]
        out = sess.run({"a": made, "b": [dense]}, {s: value})
        assert type(out["a"]) is tf1.SparseTensorValue and out["b"][0].shape == (2, 3)
        with pytest.raises(ValueError, match=r"Cannot feed value of shape \(3,\) for Tensor "
                                             r"sp/indices:0, which has shape \(None, 2\)"):
            sess.run(dense, {s: [[1.0, 2.0, 3.0]]})
        with pytest.raises(tf.errors.InvalidArgumentError):
            sess.run(dense)


def test_variables_hash_by_identity_in_a_v1_graph():
    # TF: outside eager execution a variable hashes (a feed_dict or a set holds it); eagerly
    # and in a function it raises TF's TypeError
    g = tf1.Graph()
    with g.as_default():
        a = tf.constant([1.0, 2.0])
        v = tf1.Variable(3.0, name="v")
        assert hash(v) == hash(v) and v in {v}
        product = a * v
        init = tf1.global_variables_initializer()
    with tf1.Session(graph=g) as sess:
        sess.run(init)
        # (a resource variable's feed replaces its snapshot, which `product` does not read)
        assert sess.run(product, feed_dict={v: 10.0}).tolist() == [3.0, 6.0]
        assert sess.run(v, {v: 10.0}) == 10.0
    with pytest.raises(TypeError, match="^Variable is unhashable. Instead, use variable.ref"):
        hash(tf.Variable(1.0))


def test_unique_name_may_leave_the_name_free():
    # TF: Graph.unique_name(name, mark_as_used=False) gives the next name without taking it
    g = tf1.Graph()
    assert [g.unique_name("foo"), g.unique_name("foo")] == ["foo", "foo_1"]
    assert g.unique_name("foo", mark_as_used=False) == "foo_2"
    assert g.unique_name("bar", mark_as_used=False) == "bar"
    assert [g.unique_name("foo"), g.unique_name("bar")] == ["foo_2", "bar"]
    with g.as_default(), g.name_scope("s"):
        assert g.unique_name("x", False) == "s/x" and tf.constant(1, name="x").name == "s/x:0"


def test_tensors_and_variables_compare_by_identity_in_a_v1_graph():
    # TF 2.21: while a TF 1 graph is built (also in a function traced in it), `==` and `!=`
    # are identity, so `in` finds a variable among others; eagerly and in functions traced
    # eagerly they stay elementwise
    g = tf.Graph()
    with g.as_default():
        v = tf.compat.v1.get_variable("v", initializer=tf.constant([1.0, 2.0]))
        w = tf.compat.v1.get_variable("w", [2], trainable=False)
        x = tf.constant([1.0, 2.0])
        assert w not in tf.compat.v1.trainable_variables()
        assert v in tf.compat.v1.trainable_variables()
        assert (x == x) is True and (x != x) is False and (x == v) is False
        assert [x, v].index(v) == 1

        @tf.function
        def f(a):
            return a == a

        assert f(x).shape == ()  # (True, returned as a tensor: not elementwise)
    eager = tf.constant([1.0, 2.0])
    assert (eager == eager).numpy().tolist() == [True, True]
    assert tf.function(lambda a: a == a)(eager).numpy().tolist() == [True, True]


def test_a_session_lists_the_cpu():
    with tf.compat.v1.Session(graph=tf.Graph()) as sess:
        devices = sess.list_devices()
    assert [(d.name, d.device_type, d.memory_limit_bytes) for d in devices] == \
        [("/job:localhost/replica:0/task:0/device:CPU:0", "CPU", 268435456)]
    assert repr(devices[0]).startswith("_DeviceAttributes(/job:localhost/replica:0/task:0/"
                                       "device:CPU:0, CPU, 268435456, ")


def test_get_variable_takes_the_dtype_of_a_value_initializer():
    with tf1.Graph().as_default():
        got = [tf1.get_variable(f"v{i}", initializer=init).dtype for i, init in enumerate(
            [tf.constant(np.arange(3)), np.arange(3), [1, 2], [1.0, 2.0]])]
        assert got == [tf.int64, tf.int64, tf.int32, tf.float32]
        w = tf1.get_variable("w", initializer=np.arange(6),
                             partitioner=tf1.fixed_size_partitioner(2))
        assert w.dtype == tf.int64 and [v.dtype for v in w] == [tf.int64, tf.int64]
        with pytest.raises(ValueError, match=r"^Initializer type '<dtype: 'int32'>' and "
                                             r"explicit dtype '<dtype: 'float64'>' don't match"):
            tf1.get_variable("x", initializer=[1, 2], dtype=tf.float64)


def test_reentering_the_root_variable_scope_opens_no_name_scope():
    with tf1.Graph().as_default():
        with tf1.variable_scope(tf1.get_variable_scope()) as root:
            assert tf.constant(1).name == "Const:0" and root.original_name_scope == ""
        with tf1.variable_scope("b"):
            with tf1.variable_scope(tf1.get_variable_scope()) as b:
                assert tf.constant(1).name == "b/b/Const:0" and b.original_name_scope == "b/"
