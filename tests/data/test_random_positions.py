"""Seeded random ops in dataset functions keep their state with the top-level iterator
and the place of the function in the pipeline, as TF does.  The expected values were
printed by TensorFlow 2.21 for the same programs (``tf.random.set_seed(5)``; the
sequence of ``uniform([])`` draws there is U below)."""
import numpy as np
import pytest

import eagerflow as tf

U = [0.18286, 0.67308, 0.93639, 0.38764, 0.06604, 0.48616, 0.77253, 0.68559]


def _values(xs):
    return [round(float(x), 5) for x in xs]


def _uniform(x):
    return tf.random.uniform([])


@pytest.fixture(autouse=True)
def _seeded():
    tf.random.set_seed(5)


def _ds(n=4):
    return tf.data.Dataset.range(n).map(_uniform)


def test_each_iterator_draws_from_the_start():
    ds = _ds()
    it1, it2 = iter(ds), iter(ds)
    assert _values([next(it1), next(it2), next(it1), next(it2)]) == [U[0], U[0], U[1], U[1]]
    assert _values(ds) == U[:4]


def test_zip_inputs_draw_their_own_sequences():
    ds = _ds()
    assert [_values(p) for p in tf.data.Dataset.zip((ds, ds))] == [[u, u] for u in U[:4]]
    # (two traces of one Python function too)
    a, b = _ds(3), _ds(3)
    assert [_values(p) for p in tf.data.Dataset.zip((a, b.take(10)))] == [[u, u]
                                                                         for u in U[:3]]


def test_concatenate_inputs_draw_their_own_sequences():
    ds = _ds()
    assert _values(ds.concatenate(ds)) == U[:4] + U[:4]


def test_repeat_goes_on_with_the_sequence():
    ds = _ds()
    assert _values(ds.repeat(2)) == U[:8]
    ds = _ds(3)
    assert _values(ds.concatenate(ds).repeat(2)) == U[:3] * 2 + U[3:6] * 2
    assert [_values(p) for p in tf.data.Dataset.zip((ds.repeat(2), ds))] == [
        [u, u] for u in U[:3]]


def test_datasets_a_function_makes_share_one_sequence():
    def inner(i):
        return tf.data.Dataset.range(3).map(lambda x: tf.random.uniform([]))
    flat = tf.data.Dataset.range(2).flat_map(inner)
    assert _values(flat) == U[:6]
    assert _values(flat) == U[:6]  # (a new iterator starts it again)
    shifted = tf.data.Dataset.range(2).flat_map(
        lambda i: tf.data.Dataset.range(3).map(
            lambda x: tf.random.uniform([]) + tf.cast(i, tf.float32)))
    np.testing.assert_allclose(_values(shifted), np.add(U[:6], [0, 0, 0, 1, 1, 1]),
                               atol=2e-5)
    interleaved = tf.data.Dataset.range(2).interleave(inner, cycle_length=2)
    assert _values(interleaved) == U[:6]  # (in the order the elements come)
    fm = tf.data.Dataset.range(2).flat_map(
        lambda i: tf.data.Dataset.range(2).map(lambda x: tf.random.uniform([])))
    assert [_values(p) for p in tf.data.Dataset.zip((fm, fm))] == [[u, u] for u in U[:4]]


def test_a_captured_dataset_goes_on_across_a_flat_maps_inputs():
    ds = _ds(3)
    flat = tf.data.Dataset.range(2).flat_map(lambda i: ds)
    assert _values(flat) == U[:6]
    assert _values(flat) == U[:6]


def test_threads_draw_in_the_iterators_states():
    prefetched = _ds().prefetch(2)
    it1, it2 = iter(prefetched), iter(prefetched)
    assert _values([next(it1), next(it2), next(it1), next(it2)]) == [U[0], U[0], U[1], U[1]]
    # (a map on threads draws its elements' values in any order, each iterator all of U)
    pooled = tf.data.Dataset.range(4).map(_uniform, num_parallel_calls=2, deterministic=False)
    it1, it2 = iter(pooled), iter(pooled)
    got = [_values([next(it1), next(it2)]) for _ in range(4)]
    assert sorted(a for a, _ in got) == sorted(b for _, b in got) == sorted(U[:4])


def test_unseeded_ops_stay_fresh():
    tf.random.set_seed(None)
    ds = tf.data.Dataset.range(4).map(_uniform)
    values = [v for pair in tf.data.Dataset.zip((ds, ds)) for v in _values(pair)]
    assert len(set(values)) == 8


def test_choose_from_datasets_inputs_draw_their_own_sequences():
    ds = _ds()
    chosen = tf.data.Dataset.choose_from_datasets(
        [ds, ds], tf.data.Dataset.from_tensor_slices(tf.constant([0, 1, 0, 1], tf.int64)))
    assert _values(chosen) == [U[0], U[0], U[1], U[1]]


def test_reduce_is_an_iteration_of_its_own():
    ds = _ds()
    assert float(tf.data.Dataset.zip((ds, ds)).reduce(0.0, lambda s, p: s + p[0] - p[1])) == 0
    assert round(float(ds.reduce(0.0, lambda s, x: s + x)), 4) == 2.18


def test_a_take_leaves_the_undrawn_values_to_the_next_epoch():
    ds = _ds(3)
    assert _values(ds.take(2).repeat(2)) == U[:4]
    assert _values(ds.take(3).skip(1)) == U[1:3]


def test_a_loop_in_a_function_is_an_iteration_of_its_own():
    ds = _ds()

    @tf.function
    def differences():
        out = tf.TensorArray(tf.float32, size=0, dynamic_size=True)
        i = 0
        for a, b in tf.data.Dataset.zip((ds, ds)):
            out = out.write(i, a - b)
            i += 1
        return out.stack()
    assert differences().numpy().tolist() == [0.0] * 4
    assert differences().numpy().tolist() == [0.0] * 4


def test_a_function_taking_the_outer_graphs_seed_warns():
    tf.random.set_seed(3)

    @tf.function
    def total():
        d = tf.data.Dataset.range(3).map(lambda x: x + tf.random.uniform([], 0, 9, tf.int64))
        return d.reduce(tf.constant(0, tf.int64), lambda a, b: a + b)

    with pytest.warns(UserWarning, match=r"^Seed 3 from outer graph might be getting used by "
                      r"function Dataset_map_lambda, if the random op has not been provided "
                      r"any seed\. Explicitly set the seed in the function if this is not the "
                      r"intended behavior\.$"):
        total()


@pytest.mark.parametrize("seeded", [False, True])
def test_no_warning_eagerly_or_for_seeded_ops(seeded, recwarn):
    tf.random.set_seed(3)
    list(tf.data.Dataset.range(3).map(lambda x: tf.random.uniform([])))  # (eager: no outer graph)

    @tf.function
    def total():
        d = tf.data.Dataset.range(3).map(
            lambda x: tf.random.uniform([], seed=1) if seeded else tf.cast(x, tf.float32))
        return d.reduce(0.0, lambda a, b: a + b)

    total()
    assert not [w for w in recwarn if "from outer graph" in str(w.message)]
