"""The names of the ops a backward pass adds to a graph, as TF 2.21 names them: programs
print gradient tensors and fetch them with ``get_tensor_by_name``."""
import numpy as np

import eagerflow as tf
import eagerflow.compat.v1 as tf1


def _names(graph):
    return [op.name for op in graph.get_operations()]


def test_gradients_of_each_op_are_named_under_its_grad_scope():
    g = tf.Graph()
    with g.as_default():
        x = tf1.placeholder(tf.float32, [None, 3], name="x")
        z = tf.reduce_sum(x ** 2 * 3.0)
        grad, = tf1.gradients(z, x)
        assert grad.name == "gradients/pow_grad/mul_1:0"
        names = _names(g)
        for name in ["gradients/Shape", "gradients/grad_ys_0/Const", "gradients/grad_ys_0",
                     "gradients/Sum_grad/Tile", "gradients/mul_grad/Mul",
                     "gradients/mul_grad/Mul_1", "gradients/pow_grad/Pow"]:
            assert name in names
        assert g.get_tensor_by_name("gradients/Sum_grad/Tile:0").shape.as_list() == [None, 3]
        with tf1.Session() as sess:
            value = sess.run(g.get_tensor_by_name("gradients/pow_grad/mul_1:0"),
                             {x: [[1.0, 2.0, 3.0]]})
    np.testing.assert_allclose(value, [[6.0, 12.0, 18.0]])


def test_a_tensor_used_twice_sums_its_gradients_with_one_add_n():
    @tf.function
    def f(x):
        return tf.gradients(tf.reduce_sum(x * x + x), x)

    cf = f.get_concrete_function(tf.TensorSpec([None, 3]))
    names = _names(cf.graph)
    assert "gradients/AddN" in names and "gradients/add_grad/Reshape" in names
    assert [op.type for op in cf.graph.get_operations() if op.name == "gradients/AddN"] == ["AddN"]
    np.testing.assert_allclose(f(tf.constant([[1.0, 2.0, 3.0]]))[0], [[3.0, 5.0, 7.0]])


def test_common_gradients_have_tf_names():
    g = tf.Graph()
    with g.as_default():
        x = tf1.placeholder(tf.float32, [None, 3], name="x")
        labels = tf1.placeholder(tf.int32, [None])
        w = tf1.get_variable("w", [3, 2])
        b = tf1.get_variable("b", [2], initializer=tf.zeros_initializer())
        logits = tf.matmul(x, w) + b
        loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(
            labels=labels, logits=logits))
        gw, gb = tf1.gradients(loss, [w, b])
        assert (gw.name, gb.name) == ("gradients/MatMul_grad/MatMul_1:0",
                                      "gradients/add_grad/Reshape:0")
        assert tf1.gradients(tf.reduce_sum(tf.nn.softmax(x)), x)[0].name == \
            "gradients_1/Softmax_grad/mul_1:0"
        assert tf1.gradients(tf.nn.relu(x), x)[0].name == "gradients_2/Relu_grad/ReluGrad:0"


def test_optimizers_gate_each_ops_gradients_through_a_tuple():
    g = tf.Graph()
    with g.as_default():
        x = tf1.placeholder(tf.float32, [None, 3], name="x")
        w = tf.Variable(tf.ones([3, 2]), name="w")
        b = tf.Variable(tf.zeros([2]), name="b")
        loss = tf.reduce_mean(tf.square(tf.nn.relu(tf.matmul(x, w) + b) - 1.0))
        opt = tf1.train.GradientDescentOptimizer(0.1)
        pairs = opt.compute_gradients(loss)
        assert [gr.name for gr, _ in pairs] == [
            "gradients/MatMul_grad/tuple/control_dependency_1:0",
            "gradients/add_grad/tuple/control_dependency_1:0"]
        gate = g.get_operation_by_name("gradients/MatMul_grad/tuple/group_deps")
        assert gate.type == "NoOp"
        assert [gr.name for gr, _ in opt.compute_gradients(loss, gate_gradients=0)] == [
            "gradients_1/MatMul_grad/MatMul_1:0", "gradients_1/add_grad/Reshape:0"]
        assert [gr.name for gr, _ in opt.compute_gradients(loss, gate_gradients=2)] == [
            "tuple/control_dependency:0", "tuple/control_dependency_1:0"]
        train = opt.minimize(loss)
        with tf1.Session() as sess:
            sess.run(tf1.global_variables_initializer())
            before = sess.run(loss, {x: [[1.0, 0.5, 0.25]]})
            sess.run(train, {x: [[1.0, 0.5, 0.25]]})
            assert sess.run(loss, {x: [[1.0, 0.5, 0.25]]}) < before


def test_gated_gradients_wait_for_indexed_slices():
    # the two shards of a concatenated table get IndexedSlices gradients through a gather,
    # which the gate of the concat's gradient passes through
    g = tf.Graph()
    with g.as_default():
        a, b = tf.Variable(tf.ones([2, 3])), tf.Variable(tf.ones([3, 3]))
        loss = tf.reduce_sum(tf.gather(tf.concat([a, b], 0), [0, 4, 4]))
        ga, gb = tf1.gradients(loss, [a, b], gate_gradients=True)
        assert isinstance(ga, tf.IndexedSlices) and isinstance(gb, tf.IndexedSlices)
        with tf1.Session() as sess:
            sess.run(tf1.global_variables_initializer())
            ga, gb = sess.run([tf.convert_to_tensor(ga), tf.convert_to_tensor(gb)])
    np.testing.assert_array_equal(ga, [[1, 1, 1], [0, 0, 0]])
    np.testing.assert_array_equal(gb, [[0, 0, 0], [0, 0, 0], [2, 2, 2]])


def test_tf_tuple_names_its_gate_and_identities():
    g = tf.Graph()
    with g.as_default():
        a = tf1.placeholder(tf.float32, [2])
        c = tf1.placeholder(tf.float32, [])
        out = tf.tuple([a, None, c])
        assert [None if t is None else t.name for t in out] == [
            "tuple/control_dependency:0", None, "tuple/control_dependency_1:0"]
        assert "tuple/group_deps" in _names(g)


def test_a_tape_in_a_function_names_its_ops_under_gradient_tape():
    @tf.function
    def f(x):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = tf.nn.relu(tf.reduce_sum(x * x))
        return tape.gradient(y, x)

    cf = f.get_concrete_function(tf.TensorSpec([None, 3]))
    assert "gradient_tape/ReluGrad" in _names(cf.graph)
    np.testing.assert_allclose(f(tf.constant([[1.0, 2.0, 3.0]])), [[2.0, 4.0, 6.0]])


def test_a_tapes_ops_are_named_under_the_scope_their_op_was_made_in():
    @tf.function
    def f(x):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = tf.reduce_sum(x ** 2 * 3.0)
        grad = tape.gradient(y, x)
        assert grad.name == "gradient_tape/pow/mul_1:0"
        return grad

    cf = f.get_concrete_function(tf.TensorSpec([None, 3]))
    names = _names(cf.graph)
    assert "gradient_tape/mul/Mul" in names
    np.testing.assert_allclose(f(tf.constant([[1.0, 2.0]]))[0], [6.0, 12.0])
