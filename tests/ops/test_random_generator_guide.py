"""`tf.random.Generator` as the random number generation guide uses it: seeds past int64,
and generators made under a distribution strategy's scope (expected values from TF 2.21)."""
import numpy as np

import eagerflow as tf


def test_seeds_and_states_past_int64_keep_every_bit():
    assert tf.random.Generator.from_seed(2**63 + 5).state.numpy().tolist() == \
        [-9223372036854775803, 0, 0]
    assert tf.random.Generator.from_seed(2**64 - 1).state.numpy().tolist() == [-1, 0, 0]
    assert tf.random.Generator.from_seed([2**63 + 5, 1]).state.numpy().tolist() == \
        [0, -9223372036854775803, 1]
    assert tf.random.create_rng_state([2**63 + 5, 1], "philox").numpy().tolist() == \
        [0, -9223372036854775803, 1]
    assert tf.random.Generator.from_state([-1, 2**64 - 1, 3], "philox").state.numpy()\
        .tolist() == [-1, -1, 3]


def test_generator_made_in_a_strategy_scope_draws_at_the_replicas_key():
    strategy = tf.distribute.MirroredStrategy(devices=["cpu:0"])
    with strategy.scope():
        g = tf.random.Generator.from_seed(1)
    first = strategy.run(lambda: g.normal([]))
    second = strategy.run(lambda: g.normal([]))
    np.testing.assert_allclose([float(first), float(second)], [-0.87930447, -1.5822568],
                               rtol=1e-6)
    with strategy.scope():
        g = tf.random.Generator.from_seed(1)
        gs = g.split(1)
    np.testing.assert_allclose(float(strategy.run(lambda: gs[0].normal([]))), 1.2842705,
                               rtol=1e-6)


def test_strategy_generator_in_a_function_and_outside_run():
    strategy = tf.distribute.MirroredStrategy(devices=["cpu:0"])
    with strategy.scope():
        g = tf.random.Generator.from_seed(1)

    @tf.function
    def step():
        return strategy.run(lambda: g.normal([2]))
    np.testing.assert_allclose(step().numpy(), [-0.87930447, 1.4680789], rtol=1e-6)
    np.testing.assert_allclose(step().numpy(), [-0.5039703, -0.17300826], rtol=1e-6)
    # outside `run` (no replica, even under the scope) the generator's own key draws
    np.testing.assert_allclose(g.normal([2]).numpy(), [-0.79253083, 0.37646857], rtol=1e-6)
    with strategy.scope():
        np.testing.assert_allclose(g.normal([2]).numpy(), [-0.4495664, 1.6220769], rtol=1e-6)


def test_generator_made_outside_any_scope_draws_alike_in_run():
    g = tf.random.Generator.from_seed(1)
    strategy = tf.distribute.MirroredStrategy(devices=["cpu:0"])
    np.testing.assert_allclose(float(strategy.run(lambda: g.normal([]))), 0.43842274,
                               rtol=1e-6)
