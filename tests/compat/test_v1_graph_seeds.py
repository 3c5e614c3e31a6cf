"""The random seeds of TF 1 graphs and sessions, as TF 2.21 gives them: each graph holds its
own seed (which `set_random_seed` sets while it is the default graph), and each session
draws every random op's sequence from its start (values recorded from TF)."""
import numpy as np

import eagerflow as tf

v1 = tf.compat.v1


def test_a_new_session_draws_the_ops_sequences_from_their_start():
    g = tf.Graph()
    with g.as_default():
        v1.set_random_seed(5)
        a = v1.random_uniform([2])
        b = v1.random_normal([2], seed=3)
        with v1.Session() as s:
            first = s.run([a, b])
            second = s.run([a, b])
        with v1.Session() as s:
            again = s.run([a, b])
    np.testing.assert_allclose(first[0], [0.18286479, 0.68998957], rtol=1e-6)
    np.testing.assert_allclose(first[1], [-1.4616988, -0.5901872], rtol=1e-6)
    np.testing.assert_allclose(second[0], [0.9363872, 0.651327], rtol=1e-6)
    np.testing.assert_allclose(second[1], [-1.1615473, -0.1216567], rtol=1e-6)
    for got, want in zip(again, first):
        np.testing.assert_array_equal(got, want)


def test_each_graph_holds_its_own_seed():
    tf.random.set_seed(1)
    g = tf.Graph()
    with g.as_default():
        assert g.seed is None  # (not the eager global seed)
        a = v1.random_uniform([1])
        assert (a.op.get_attr("seed"), a.op.get_attr("seed2")) == (0, 0)
        v1.set_random_seed(5)
        assert g.seed == 5
        b = v1.random_uniform([1])
        assert (b.op.get_attr("seed"), b.op.get_attr("seed2")) == (5, 0)
    # the graph's seed leaves the eager one as it was
    np.testing.assert_allclose(tf.random.uniform([1]).numpy(), [0.16513085], rtol=1e-6)
    g2 = tf.Graph()
    with g2.as_default():
        c = v1.random_uniform([1], seed=2)
        assert (c.op.get_attr("seed"), c.op.get_attr("seed2"), g2.seed) == (87654321, 2, None)


def test_a_graph_seed_set_by_attribute_seeds_its_ops():
    g = tf.Graph()
    g.seed = 9
    with g.as_default():
        e = v1.random_uniform([1])
        assert (e.op.get_attr("seed"), e.op.get_attr("seed2")) == (9, 0)
        with v1.Session() as s:
            np.testing.assert_allclose(s.run(e), [0.08012962], rtol=1e-6)


def test_set_seed_inside_a_function_seeds_only_its_graph():
    tf.random.set_seed(3)
    x = tf.random.uniform([1])

    @tf.function
    def f():
        tf.random.set_seed(4)
        return tf.random.uniform([1])

    assert f.get_concrete_function().graph.seed == 4
    tf.random.set_seed(3)
    np.testing.assert_array_equal(tf.random.uniform([1]).numpy(), x.numpy())


def test_a_generator_in_a_graph_starts_from_its_seed_in_each_session():
    g = tf.Graph()
    with g.as_default():
        gen = tf.random.Generator.from_seed(1)
        a = gen.normal([2])
        b = gen.uniform([2], 0, 10, tf.int32)
        assert gen.state in v1.global_variables()
        with v1.Session() as s:
            s.run(v1.global_variables_initializer())
            np.testing.assert_allclose(s.run(a), [0.43842274, -0.53439844], rtol=1e-6)
            assert s.run(b).tolist() == [3, 5]
            assert s.run(gen.state).tolist() == [1025, 0, 0]
        with v1.Session() as s:
            s.run(gen.state.initializer)
            np.testing.assert_allclose(s.run(a), [0.43842274, -0.53439844], rtol=1e-6)
