"""TF 1's initializers and op seeds under a graph seed: the initial values TF 2.21 gives the
same TF 1 programs (recorded from it)."""
import numpy as np
import pytest

import eagerflow.compat.v1 as tf1


@pytest.fixture
def v1_behavior():
    tf1.disable_v2_behavior()
    yield
    tf1.enable_v2_behavior()


def _initial_values(variables):
    with tf1.Session() as sess:
        sess.run(tf1.global_variables_initializer())
        return [sess.run(v) for v in variables]


def test_get_variable_initializers_take_the_graphs_op_seeds(v1_behavior):
    tf1.set_random_seed(7)
    a = tf1.get_variable("a", [3], initializer=tf1.truncated_normal_initializer(stddev=0.1))
    b = tf1.get_variable("b", [3], initializer=tf1.glorot_uniform_initializer())
    c = tf1.get_variable("c", [3])
    d = tf1.Variable(tf1.random_normal([3]))
    got = _initial_values([a, b, c, d])
    want = [[0.03537, 0.06636, -0.09775], [-0.07925, 0.85704, -0.30889],
            [-0.43998, 0.37373, 0.30521], [0.9447, -0.96679, 0.80517]]
    np.testing.assert_allclose(got, want, atol=1e-5)


def test_v1_initializers_have_tf1s_defaults_and_distributions(v1_behavior):
    assert tf1.random_normal_initializer().stddev == 1.0
    assert (tf1.random_uniform_initializer().minval,
            tf1.random_uniform_initializer().maxval) == (0.0, None)
    assert tf1.truncated_normal_initializer().get_config() == {
        "mean": 0.0, "stddev": 1.0, "seed": None, "dtype": "float32"}
    assert tf1.variance_scaling_initializer().get_config() == {
        "scale": 1.0, "mode": "fan_in", "distribution": "truncated_normal", "seed": None,
        "dtype": "float32"}
    tf1.set_random_seed(5)
    a = tf1.get_variable("a", [2, 2], initializer=tf1.orthogonal_initializer())
    b = tf1.get_variable("b", [3], initializer=tf1.random_uniform_initializer())
    c = tf1.get_variable("c", [3], initializer=tf1.initializers.he_normal())
    d = tf1.get_variable("d", [3], initializer=tf1.random_normal_initializer(seed=2))
    got = _initial_values([a, b, c, d])
    np.testing.assert_allclose(got[0], [[-0.98843, -0.1517], [0.1517, -0.98843]], atol=1e-5)
    np.testing.assert_allclose(got[1], [0.38752, 0.74855, 0.54872], atol=1e-5)
    np.testing.assert_allclose(got[2], [1.63103, -0.15375, -0.86096], atol=1e-5)
    np.testing.assert_allclose(got[3], [1.75713, -2.31173, -0.16563], atol=1e-5)


def test_v1_layers_default_kernels_draw_from_the_graph_seed(v1_behavior):
    tf1.set_random_seed(7)
    x = tf1.placeholder(tf1.float32, [None, 4])
    tf1.layers.dense(tf1.layers.dense(x, 3), 2)
    kernel, _, kernel_1, _ = _initial_values(tf1.global_variables())
    np.testing.assert_allclose(kernel[:, 0], [0.46981, 0.66072, 0.85346, -0.31849], atol=1e-5)
    np.testing.assert_allclose(kernel_1[:, 1], [0.93884, -0.32652, -0.83825], atol=1e-5)


def test_v1_control_flow_bodies_take_op_seeds_from_the_graph(v1_behavior):
    # TF 1's cond and while_loop build into the graph itself: their random ops take the
    # graph's next op seeds, and the ops after them the seeds after those.
    tf1.set_random_seed(3)
    p = tf1.placeholder(tf1.bool, [])
    c = tf1.cond(p, lambda: tf1.random_uniform([2]), lambda: tf1.zeros([2]))
    d = tf1.random_uniform([2])
    w = tf1.while_loop(lambda i, x: i < 2, lambda i, x: (i + 1, x + tf1.random_normal([2])),
                       [0, tf1.zeros([2])])
    e = tf1.random_uniform([2])
    with tf1.Session() as sess:
        np.testing.assert_allclose(sess.run(c, {p: True}), [0.1274, 0.8147], atol=1e-4)
        np.testing.assert_allclose(sess.run(d), [0.7781, 0.5053], atol=1e-4)
        np.testing.assert_allclose(sess.run(w)[1], [-0.1413, 0.9457], atol=1e-4)
        np.testing.assert_allclose(sess.run(e), [0.2232, 0.668], atol=1e-4)


def test_v2_control_flow_bodies_count_op_seeds_of_their_own():
    tf1.disable_eager_execution()
    tf1.set_random_seed(3)
    p = tf1.placeholder(tf1.bool, [])
    c = tf1.cond(p, lambda: tf1.random_uniform([2]), lambda: tf1.zeros([2]))
    d = tf1.random_uniform([2])
    with tf1.Session() as sess:
        np.testing.assert_allclose(sess.run(c, {p: True}), [0.1274, 0.8147], atol=1e-4)
        np.testing.assert_allclose(sess.run(d), [0.1274, 0.8147], atol=1e-4)


def test_tf1_variables_print_as_ref_variables_once_v2_behavior_is_disabled(v1_behavior):
    w = tf1.Variable(tf1.zeros([2, 2]), name="W")
    v = tf1.get_variable("v", [2])
    r = tf1.get_variable("r", [2], use_resource=True)
    with tf1.variable_scope("s", use_resource=True):
        q = tf1.get_variable("q", [2])
    gs = tf1.train.get_or_create_global_step()
    assert repr(w) == "<tf.Variable 'W:0' shape=(2, 2) dtype=float32_ref>"
    assert str(v) == "<tf.Variable 'v:0' shape=(2,) dtype=float32_ref>"
    assert repr(gs) == "<tf.Variable 'global_step:0' shape=() dtype=int64_ref>"
    assert repr(r) == "<tf.Variable 'r:0' shape=(2,) dtype=float32>"
    assert repr(q) == "<tf.Variable 's/q:0' shape=(2,) dtype=float32>"
    import eagerflow as tf  # noqa: PLC0415 (TF 2's variables stay resource ones)
    assert repr(tf.Variable(1.0, name="k")) == "<tf.Variable 'k:0' shape=() dtype=float32>"


def test_graph_variables_are_resource_ones_with_v2_behavior():
    tf1.disable_eager_execution()
    assert repr(tf1.Variable(1.0, name="W")) == "<tf.Variable 'W:0' shape=() dtype=float32>"
    assert repr(tf1.get_variable("v", [2])) == "<tf.Variable 'v:0' shape=(2,) dtype=float32>"


def test_v1_zeros_ones_and_constant_take_a_dtype_and_partition_info():
    import eagerflow as tf
    zeros = tf1.zeros_initializer(dtype=tf.int32)
    assert zeros([2]).numpy().tolist() == [0, 0] and zeros([2]).dtype == tf.int32
    assert zeros.get_config() == {"dtype": "int32"}
    assert tf1.zeros_initializer()([2], tf.string).numpy().tolist() == [b"", b""]
    assert tf1.zeros_initializer()([1], partition_info=None).numpy().tolist() == [0.0]
    assert tf1.ones_initializer(dtype=tf.int64)([2]).dtype == tf.int64
    const = tf1.constant_initializer(3, dtype=tf.int32)
    assert const([2]).numpy().tolist() == [3, 3]
    assert const.get_config() == {"value": 3, "dtype": "int32"}
    assert tf1.constant_initializer([1, 2, 3], verify_shape=True)([3]).numpy().tolist() == \
        [1.0, 2.0, 3.0]
    with pytest.raises(TypeError, match="Invalid type for initial value"):
        tf1.constant_initializer({"a": 1})


def test_v1_constant_initializer_pads_with_its_last_value_in_a_graph():
    with tf1.Graph().as_default():
        v = tf1.get_variable("v", [2, 2], initializer=tf1.constant_initializer([1, 2, 3]))
        with tf1.Session() as sess:
            sess.run(v.initializer)
            assert sess.run(v).tolist() == [[1.0, 2.0], [3.0, 3.0]]
        with pytest.raises(ValueError, match="Too many elements provided. Takes at most 2"):
            tf1.get_variable("w", [2], initializer=tf1.constant_initializer([1, 2, 3]))


def test_get_variable_defaults_by_dtype_and_refuses_a_value_with_a_shape():
    import eagerflow as tf
    with tf1.Graph().as_default():
        s = tf1.get_variable("s", [2], dtype=tf.string)
        b = tf1.get_variable("b", [2], dtype=tf.bool)
        with tf1.Session() as sess:
            sess.run(tf1.global_variables_initializer())
            assert sess.run(s).tolist() == [b"", b""] and sess.run(b).tolist() == [False] * 2
        with pytest.raises(ValueError, match=r"An initializer for variable c of "
                                             r"<dtype: 'complex64'> is required"):
            tf1.get_variable("c", [1], dtype=tf.complex64)
        for value in (tf.constant([1.0, 2.0]), [1.0, 2.0], np.array([1.0, 2.0])):
            with pytest.raises(ValueError, match="If initializer is a constant, do not "
                                                 "specify shape."):
                tf1.get_variable("k", [2], initializer=value)


def test_v1_keras_initializers_are_tf1s_with_keras_defaults():
    # tf_keras's compat.v1 initializers draw with TF 1's ops and op seeds (TF 2.21's values)
    import eagerflow as tf
    m = tf.compat.v1.keras.initializers
    tf.random.set_seed(3)
    assert m.RandomNormal(seed=1).stddev == 0.05
    np.testing.assert_allclose(m.RandomNormal(seed=1)([2]), [-0.00117679, -0.03540219],
                               rtol=1e-5)
    np.testing.assert_allclose(m.glorot_uniform(seed=1)([2]), [0.68112755, 0.01295412],
                               rtol=1e-5)
    assert m.RandomUniform().get_config() == {"minval": -0.05, "maxval": 0.05, "seed": None,
                                              "dtype": "float32"}
    assert type(m.he_normal(seed=2)).__name__ == "HeNormal"
    assert m.he_normal(seed=2).get_config() == {"seed": 2}
    assert m.glorot_uniform is tf1.glorot_uniform_initializer
    assert m.get is tf.keras.initializers.get
