"""Saving and restoring a dataset iterator's position with `tf.train.Checkpoint`.

Recorded sequences were checked against TensorFlow 2.21.
"""
import numpy as np
import pytest

import eagerflow as tf


def py(element):
    return tf.nest.map_structure(lambda t: np.asarray(t).tolist(), element)


def take(it, n):
    return [py(next(it)) for _ in range(n)]


def rest(it):
    return [py(e) for e in it]


def test_guide_example_continues_at_the_saved_position(tmp_path):
    ds = tf.data.Dataset.range(20)
    iterator = iter(ds)
    ckpt = tf.train.Checkpoint(step=tf.Variable(0), iterator=iterator)
    manager = tf.train.CheckpointManager(ckpt, str(tmp_path / "m"), max_to_keep=3)
    assert take(iterator, 5) == [0, 1, 2, 3, 4]
    path = manager.save()
    assert take(iterator, 5) == [5, 6, 7, 8, 9]
    ckpt.restore(manager.latest_checkpoint)
    assert take(iterator, 5) == [5, 6, 7, 8, 9]  # TF's output
    keys = dict(tf.train.list_variables(path))
    assert "iterator/.ATTRIBUTES/ITERATOR_POSITION" in keys
    assert "step/.ATTRIBUTES/VARIABLE_VALUE" in keys


def _slices():
    return tf.data.Dataset.from_tensor_slices(
        {"x": np.arange(24, dtype=np.float32).reshape(12, 2), "y": np.arange(12)})


PIPELINES = {
    "range": lambda: tf.data.Dataset.range(11),
    "slices_batch": lambda: _slices().batch(5),
    "from_tensors_repeat": lambda: tf.data.Dataset.from_tensors([1, 2]).repeat(6),
    "map_filter": lambda: tf.data.Dataset.range(30).map(lambda x: x * 3).filter(
        lambda x: x % 2 == 0),
    "shuffle_seeded": lambda: tf.data.Dataset.range(15).shuffle(4, seed=7),
    "shuffle_repeat": lambda: tf.data.Dataset.range(6).shuffle(6, seed=1).repeat(3),
    "shuffle_fixed": lambda: tf.data.Dataset.range(8).shuffle(
        3, seed=2, reshuffle_each_iteration=False).repeat(2),
    "take_skip": lambda: tf.data.Dataset.range(40).skip(3).take(12),
    "prefetch": lambda: tf.data.Dataset.range(20).map(lambda x: x + 1).prefetch(8),
    "zip_concat_enumerate": lambda: tf.data.Dataset.zip(
        (tf.data.Dataset.range(5), tf.data.Dataset.range(10, 15))).concatenate(
        tf.data.Dataset.zip((tf.data.Dataset.range(3), tf.data.Dataset.range(3)))).enumerate(),
    "batch_of_shuffle_prefetch": lambda: _slices().shuffle(5, seed=4).batch(
        4, drop_remainder=True).repeat(2).prefetch(2),
    "nested_repeat": lambda: tf.data.Dataset.range(3).shuffle(3, seed=5).repeat(2).repeat(2),
    "repeat_map_batch": lambda: tf.data.Dataset.range(7).map(lambda x: x * 2).batch(3).repeat(3),
    "infinite_repeat_take": lambda: tf.data.Dataset.range(4).shuffle(4, seed=9).repeat().take(
        15),
    "repeat_filter_concat": lambda: tf.data.Dataset.range(5).filter(lambda x: x > 1).repeat(
        2).concatenate(tf.data.Dataset.range(3).shuffle(3, seed=1).repeat(2)).skip(1),
    "parallel_map_slices_repeat": lambda: _slices().map(
        lambda e: e["y"] + 1, num_parallel_calls=2).repeat(2),
}


@pytest.mark.parametrize("name", sorted(PIPELINES))
@pytest.mark.parametrize("cut", [0, 1, 3, 7, 13])
def test_restored_iterators_continue_the_uninterrupted_sequence(tmp_path, name, cut):
    make = PIPELINES[name]
    whole = rest(iter(make()))
    if cut > len(whole):
        pytest.skip("shorter than the cut")
    it = iter(make())
    ckpt = tf.train.Checkpoint(iterator=it)
    assert take(it, cut) == whole[:cut]
    path = ckpt.save(str(tmp_path / "ckpt"))
    ahead = min(2, len(whole) - cut)
    assert take(it, ahead) == whole[cut:cut + ahead]
    ckpt.restore(path)  # the same iterator, advanced since
    assert rest(it) == whole[cut:]
    fresh = iter(make())  # a new program's pipeline
    tf.train.Checkpoint(iterator=fresh).restore(path)
    assert rest(fresh) == whole[cut:]


def test_seeded_shuffle_repeat_matches_tf_across_iterators(tmp_path):
    ds = tf.data.Dataset.range(10).shuffle(4, seed=3).repeat(2)
    it = iter(ds)
    assert take(it, 6) == [0, 3, 2, 1, 4, 7]
    path = tf.train.Checkpoint(iterator=it).save(str(tmp_path / "s"))
    expected = [6, 5, 8, 9, 0, 4, 1, 2, 5, 3, 6, 8, 9, 7]  # TF's continuation
    assert rest(it) == expected
    second = iter(ds)  # another iterator of the same dataset (its seeds have moved on)
    tf.train.Checkpoint(iterator=second).restore(path)
    assert rest(second) == expected


def test_unseeded_shuffle_restores_its_seeds(tmp_path):
    it = iter(tf.data.Dataset.range(30).shuffle(10))
    ckpt = tf.train.Checkpoint(iterator=it)
    take(it, 4)
    path = ckpt.save(str(tmp_path / "u"))
    after = rest(it)
    ckpt.restore(path)
    assert rest(it) == after
    fresh = iter(tf.data.Dataset.range(30).shuffle(10))  # other random seeds until restored
    tf.train.Checkpoint(iterator=fresh).restore(path)
    assert rest(fresh) == after


def test_prefetch_saves_the_consumers_position_not_the_read_ahead(tmp_path):
    it = iter(tf.data.Dataset.range(100).prefetch(50))
    ckpt = tf.train.Checkpoint(iterator=it)
    take(it, 2)
    path = ckpt.save(str(tmp_path / "p"))
    assert int(tf.train.load_variable(path, "iterator/.ATTRIBUTES/ITERATOR_POSITION")) == 2
    take(it, 30)
    ckpt.restore(path)
    assert take(it, 3) == [2, 3, 4]


def test_exhausted_iterator_restores_exhausted(tmp_path):
    it = iter(tf.data.Dataset.range(3))
    ckpt = tf.train.Checkpoint(iterator=it)
    rest(it)
    path = ckpt.save(str(tmp_path / "e"))
    fresh = iter(tf.data.Dataset.range(3))
    tf.train.Checkpoint(iterator=fresh).restore(path)
    with pytest.raises(tf.errors.OutOfRangeError):
        fresh.get_next()
    assert not fresh.get_next_as_optional().has_value()


def test_get_next_and_optionals_count_as_positions(tmp_path):
    it = iter(tf.data.Dataset.range(10))
    ckpt = tf.train.Checkpoint(iterator=it)
    it.get_next()
    it.get_next_as_optional()
    next(it)
    path = ckpt.save(str(tmp_path / "g"))
    next(it)
    ckpt.restore(path)
    assert int(it.get_next()) == 3


def test_from_generator_cannot_be_saved():
    ds = tf.data.Dataset.from_generator(
        lambda: iter(range(5)), output_signature=tf.TensorSpec((), tf.int64)).map(lambda x: x)
    it = iter(ds)
    next(it)
    with pytest.raises(tf.errors.FailedPreconditionError, match="PyFunc is stateful"):
        tf.train.Checkpoint(iterator=it).save("/nonexistent/never/written")


def test_restoring_into_a_shorter_pipeline_says_so(tmp_path):
    it = iter(tf.data.Dataset.range(10))
    ckpt = tf.train.Checkpoint(iterator=it)
    take(it, 6)
    path = ckpt.save(str(tmp_path / "x"))
    short = iter(tf.data.Dataset.range(4))
    with pytest.raises(tf.errors.InvalidArgumentError, match="ends after 4"):
        tf.train.Checkpoint(iterator=short).restore(path)
    assert take(short, 2) == [0, 1]  # left as it was


def test_positions_advanced_inside_a_function_are_saved(tmp_path):
    it = iter(tf.data.Dataset.range(10).batch(2))

    @tf.function
    def step(iterator):
        return tf.reduce_sum(next(iterator))

    ckpt = tf.train.Checkpoint(iterator=it)
    assert [int(step(it)) for _ in range(2)] == [1, 5]
    next(it)
    path = ckpt.save(str(tmp_path / "f"))
    assert int(step(it)) == 13
    ckpt.restore(path)
    assert int(step(it)) == 13  # the traced function reads the restored iterator
    assert take(it, 1) == [[8, 9]]


@pytest.mark.parametrize("fn, op", [
    (lambda x: tf.py_function(lambda v: v, [x], tf.int64), "EagerPyFunc"),
    (lambda x: x + tf.cast(tf.random.uniform(()) * 0, tf.int64), "RandomUniform"),
])
def test_stateful_map_functions_cannot_be_saved(tmp_path, fn, op):
    it = iter(tf.data.Dataset.range(5).map(fn))
    next(it)
    with pytest.raises(tf.errors.FailedPreconditionError, match=f"^{op} is stateful"):
        tf.train.Checkpoint(iterator=it).save(str(tmp_path / "s"))


def test_variable_reads_cannot_be_saved_but_stateless_random_can(tmp_path):
    v = tf.Variable(1, dtype=tf.int64)
    it = iter(tf.data.Dataset.range(5).filter(lambda x: x > v))
    with pytest.raises(tf.errors.FailedPreconditionError, match="ReadVariableOp is stateful"):
        tf.train.Checkpoint(iterator=it).save(str(tmp_path / "v"))
    ds = tf.data.Dataset.range(5).map(
        lambda x: tf.random.stateless_uniform((), seed=(1, x)))
    whole = rest(iter(ds))
    it = iter(ds)
    ckpt = tf.train.Checkpoint(iterator=it)
    take(it, 2)
    path = ckpt.save(str(tmp_path / "r"))
    take(it, 1)
    ckpt.restore(path)
    assert rest(it) == whole[2:]


def test_restoring_a_live_prefetching_iterator_stops_its_thread_first(tmp_path):
    # the old source's prefetch thread, running ahead into the next epoch, drew the
    # shuffle's seeds after the restore had put them back (now and then: its timing)
    def make():
        return _slices().shuffle(5, seed=4).batch(4, drop_remainder=True).repeat(2).prefetch(2)

    whole = rest(iter(make()))
    for trial in range(40):
        it = iter(make())
        ckpt = tf.train.Checkpoint(iterator=it)
        take(it, 1)
        path = ckpt.save(str(tmp_path / f"t{trial}"))
        take(it, 2)
        ckpt.restore(path)
        assert rest(it) == whole[1:]
