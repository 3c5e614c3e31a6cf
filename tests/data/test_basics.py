"""The core of tf.data: sources, element specs, iteration and the basic transformations."""
import collections

import numpy as np
import pytest

import eagerflow as tf


def values(ds):
    return [tf.nest.map_structure(lambda t: np.asarray(t).tolist(), e) for e in ds]


def test_from_tensor_slices_nests_and_specs():
    ds = tf.data.Dataset.from_tensor_slices({"b": [1, 2], "a": [3.0, 4.0]})
    assert repr(ds) == ("<_TensorSliceDataset element_spec={'b': TensorSpec(shape=(), "
                        "dtype=tf.int32, name=None), 'a': TensorSpec(shape=(), dtype=tf.float32, "
                        "name=None)}>")
    assert values(ds) == [{"b": 1, "a": 3.0}, {"b": 2, "a": 4.0}]
    point = collections.namedtuple("Point", "x y")
    ds = tf.data.Dataset.from_tensor_slices(point(np.arange(3), np.ones((3, 2))))
    first = next(iter(ds))
    assert isinstance(first, point) and first.y.shape == (2,)
    # a Python list is one tensor, not a tuple of components
    ds = tf.data.Dataset.from_tensor_slices([[1, 2], [3, 4]])
    assert ds.element_spec == tf.TensorSpec([2], tf.int32)
    ds = tf.data.Dataset.from_tensor_slices(tf.Variable([1.0, 2.0]))
    assert values(ds) == [1.0, 2.0]


def test_from_tensor_slices_errors():
    with pytest.raises(ValueError, match="Dimensions 3 and 2 are not compatible"):
        tf.data.Dataset.from_tensor_slices(([1, 2, 3], [1, 2]))
    with pytest.raises(ValueError, match="rank >= 1"):
        tf.data.Dataset.from_tensor_slices(5)


def test_range_and_cardinality():
    assert values(tf.data.Dataset.range(5, 1, -2)) == [5, 3]
    assert tf.data.Dataset.range(2, output_type=tf.int32).element_spec.dtype == tf.int32
    ds = tf.data.Dataset.range(10)
    assert int(ds.batch(3).cardinality()) == 4
    assert int(ds.batch(3, drop_remainder=True).cardinality()) == 3
    assert int(ds.repeat().cardinality()) == tf.data.INFINITE_CARDINALITY
    assert int(ds.filter(lambda x: True).cardinality()) == tf.data.UNKNOWN_CARDINALITY
    # (repeated forever, a dataset of unknown size is infinite unless it is empty)
    assert int(ds.filter(lambda x: True).repeat().cardinality()) == tf.data.INFINITE_CARDINALITY
    assert int(ds.filter(lambda x: True).repeat().take(4).cardinality()) == 4
    assert len(ds.skip(7)) == 3
    with pytest.raises(TypeError, match="The dataset is infinite."):
        len(ds.repeat())
    with pytest.raises(TypeError, match="The dataset length is unknown."):
        len(ds.filter(lambda x: True))


def test_cardinality_of_infinite_inputs_as_tf_counts_it():
    inf = tf.data.Dataset.range(3).repeat()
    unknown, infinite = tf.data.UNKNOWN_CARDINALITY, tf.data.INFINITE_CARDINALITY
    # these never know their length, even of an infinite input
    for ds in (inf.filter(lambda x: True), inf.unique(), inf.ignore_errors(),
               inf.batch(4).rebatch(2), inf.filter(lambda x: True).take(3),
               inf.interleave(tf.data.Dataset.from_tensors)):
        assert int(ds.cardinality()) == unknown
    # these are infinite when an input is
    for ds in (inf.enumerate(), inf.interleave(tf.data.Dataset.from_tensors,
                                               num_parallel_calls=2),
               tf.data.Dataset.sample_from_datasets([inf, inf.filter(lambda x: True)]),
               tf.data.Dataset.choose_from_datasets([inf, tf.data.Dataset.range(2)],
                                                    tf.data.Dataset.range(2)),
               inf.rejection_resample(lambda x: tf.cast(x % 2, tf.int32), [0.5, 0.5], seed=1)):
        assert int(ds.cardinality()) == infinite
    assert int(tf.data.Dataset.sample_from_datasets(
        [tf.data.Dataset.range(2), tf.data.Dataset.range(3)]).cardinality()) == unknown
    # a range up to the largest int64 is infinite; others count in int64
    assert int(tf.data.Dataset.range(5, 2 ** 63 - 1).cardinality()) == infinite
    assert int(tf.data.Dataset.range(0, 2 ** 63 - 2, 2).cardinality()) == 2 ** 62 - 1
    assert int(tf.data.Dataset.range(-1, 2 ** 63 - 2).cardinality()) == 2 ** 63 - 1
    assert int(tf.data.Dataset.range(3).enumerate(start=5).cardinality()) == 3


def test_batch_after_map_is_tfs_fused_map_and_batch():
    # rows take the first element's shape: one of as many values is reshaped to it, as TF's
    # fused kernel copies it; one of another count fails with that kernel's text
    ds = tf.data.Dataset.range(2).map(lambda x: tf.reshape(tf.range(6), tf.stack([2 + x, 3 - x])))
    assert values(ds.batch(2)) == [[[[0, 1, 2], [3, 4, 5]], [[0, 1, 2], [3, 4, 5]]]]
    lengths = tf.data.Dataset.range(3).map(lambda x: tf.range(x + 1))
    with pytest.raises(tf.errors.InvalidArgumentError) as info:
        list(lengths.batch(3))
    assert ("Cannot add tensor to the batch: number of elements does not match. Shapes are: "
            "[tensor]: [2], [batch]: [1] [Op:IteratorGetNext]") in str(info.value)
    # without the fusion (a parallel batch, a cache between): the shapes must be equal
    for unfused in (ds.batch(2, num_parallel_calls=2), ds.cache().batch(2)):
        with pytest.raises(tf.errors.InvalidArgumentError,
                           match=r"Cannot batch tensors with different shapes in component 0. "
                                 r"First element had shape \[2,3\] and element 1 had shape"):
            list(unfused)


def test_arguments_refused_as_a_dataset_is_made_read_as_tfs_kernel_errors():
    def text(make):
        with pytest.raises(tf.errors.InvalidArgumentError) as info:
            make()
        return str(info.value)

    device = "/job:localhost/replica:0/task:0/device:CPU:0"
    ds = tf.data.Dataset.range(4)
    assert text(lambda: ds.batch(0)) == (
        f"{{{{function_node __wrapped__BatchDatasetV2_device_{device}}}}} Batch size must be "
        f"greater than zero. [Op:BatchDatasetV2] name: ")
    assert "__wrapped__PaddedBatchDatasetV2_N_2_Toutput_types_2_device_" in text(
        lambda: tf.data.Dataset.zip((ds, ds)).padded_batch(0))
    c = tf.constant(3, tf.int64)
    assert text(lambda: ds.map(lambda x: x + c, num_parallel_calls=-5)) == (
        f"{{{{function_node __wrapped__ParallelMapDatasetV2_Targuments_1_device_{device}}}}} "
        f"num_parallel_calls must be greater than zero. [Op:ParallelMapDatasetV2] name: ")
    assert "__wrapped__ParallelInterleaveDatasetV4_Targuments_0_device_" in text(
        lambda: ds.interleave(tf.data.Dataset.from_tensors, num_parallel_calls=-7))
    for make, op in ((lambda: ds.shard(3, 3), "ShardDataset"),
                     (lambda: ds.window(2, shift=0), "WindowDataset"),
                     (lambda: ds.prefetch(-5), "PrefetchDataset"),
                     (lambda: tf.data.Dataset.range(0, 4, 0), "RangeDataset"),
                     # (-1, AUTOTUNE, is no buffer size; UNKNOWN_CARDINALITY is)
                     (lambda: ds.shuffle(-1), "ShuffleDatasetV3")):
        message = text(make)
        assert message.startswith(f"{{{{function_node __wrapped__{op}_device_{device}}}}} ")
        assert message.endswith(f" [Op:{op}] name: ")
    assert values(ds.shuffle(tf.data.UNKNOWN_CARDINALITY, seed=1).batch(4).map(
        tf.sort)) == [[0, 1, 2, 3]]


def test_counts_of_python_floats_and_strings_are_tfs_type_errors():
    ds = tf.data.Dataset.range(5)
    for make in (lambda c: ds.take(c), lambda c: ds.batch(c), lambda c: ds.shuffle(c),
                 lambda c: ds.repeat(c), lambda c: ds.shard(c, 0)):
        with pytest.raises(TypeError, match="Cannot convert 2.0 to EagerTensor of dtype int64"):
            make(2.0)
        with pytest.raises(TypeError, match="Cannot convert 'a' to EagerTensor of dtype int64"):
            make("a")
    assert values(ds.batch(np.float64(2.0)).prefetch(None)) == [[0, 1], [2, 3], [4]]


def test_batch_specs_and_values():
    ds = tf.data.Dataset.range(7)
    assert ds.batch(3).element_spec == tf.TensorSpec([None], tf.int64)
    assert ds.batch(3, drop_remainder=True).element_spec == tf.TensorSpec([3], tf.int64)
    assert values(ds.batch(3)) == [[0, 1, 2], [3, 4, 5], [6]]
    x = np.arange(12.0).reshape(6, 2)
    got = values(tf.data.Dataset.from_tensor_slices((x, np.arange(6))).batch(4))
    assert got == [(x[:4].tolist(), [0, 1, 2, 3]), (x[4:].tolist(), [4, 5])]


def test_batch_of_different_shapes_names_the_component():
    ds = tf.data.Dataset.from_generator(lambda: iter([[1], [1, 2]]), output_types=tf.int32)
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"Cannot batch tensors with different shapes in component 0. "
                             r"First element had shape \[1\] and element 1 had shape \[2\]."):
        list(ds.batch(2))


def test_map_filter_traced_once():
    traces = []

    def f(x):
        traces.append(1)
        return x * 2
    ds = tf.data.Dataset.range(5).map(f).filter(lambda x: x > 2)
    assert values(ds) == [4, 6, 8]
    assert values(ds) == [4, 6, 8]
    assert len(traces) == 1


def test_map_unpacks_tuples_and_passes_dicts():
    ds = tf.data.Dataset.range(3).map(lambda x: (x, x + 1)).map(lambda a, b: a * b)
    assert values(ds) == [0, 2, 6]
    ds = tf.data.Dataset.from_tensor_slices({"a": [1, 2]}).map(lambda d: d["a"] + 1)
    assert values(ds) == [2, 3]
    ds = tf.data.Dataset.range(2).map(lambda x: [x, x])  # a list result is a tuple
    assert isinstance(ds.element_spec, tuple)


def test_parallel_map_keeps_order():
    ds = tf.data.Dataset.range(50).map(lambda x: x * x, num_parallel_calls=tf.data.AUTOTUNE)
    assert values(ds) == [i * i for i in range(50)]


def test_iterator_protocol():
    it = iter(tf.data.Dataset.range(2))
    assert it.element_spec == tf.TensorSpec([], tf.int64)
    assert int(it.get_next()) == 0
    assert int(next(it)) == 1
    assert not bool(it.get_next_as_optional().has_value())
    with pytest.raises(tf.errors.OutOfRangeError, match="End of sequence"):
        it.get_next()
    with pytest.raises(StopIteration):
        next(it)


def test_zip_concatenate_take_skip_repeat_prefetch():
    a, b = tf.data.Dataset.range(3), tf.data.Dataset.range(10, 12)
    assert values(tf.data.Dataset.zip((a, b))) == [(0, 10), (1, 11)]
    assert values(tf.data.Dataset.zip(a, b)) == [(0, 10), (1, 11)]
    assert values(a.concatenate(b)) == [0, 1, 2, 10, 11]
    with pytest.raises(TypeError, match="Incompatible dataset elements"):
        a.concatenate(a.map(lambda x: (x, x)))
    assert values(a.repeat(2).skip(1).take(3)) == [1, 2, 0]
    assert values(a.repeat().take(7).prefetch(2)) == [0, 1, 2, 0, 1, 2, 0]
    assert values(a.enumerate(5)) == [(5, 0), (6, 1), (7, 2)]


def test_shuffle_follows_tensorflow_order():
    # orders recorded from TensorFlow 2.21
    ds = tf.data.Dataset.range(10).shuffle(4, seed=1)
    assert values(ds) == [0, 4, 5, 1, 2, 7, 9, 8, 6, 3]
    ds = tf.data.Dataset.range(6).shuffle(6, seed=3, reshuffle_each_iteration=False)
    assert values(ds) == values(ds)


def test_shuffle_repeat_draws_next_epoch_seeds_with_the_last_element():
    # orders recorded from TensorFlow 2.21: an iterator stopped right at an epoch's end has
    # drawn the next epoch's seeds, so the next iterator starts two draws further
    ds = tf.data.Dataset.range(6).shuffle(6, seed=1).repeat(3)
    assert values(ds) == [4, 5, 1, 2, 3, 0, 4, 3, 1, 5, 0, 2, 3, 5, 0, 1, 4, 2]
    ds = tf.data.Dataset.range(6).shuffle(6, seed=1).repeat(3)
    firsts = []
    for _ in range(3):
        it = iter(ds)
        firsts.append([int(next(it)) for _ in range(6)])
    assert firsts == [[4, 5, 1, 2, 3, 0], [3, 5, 0, 1, 4, 2], [0, 5, 2, 4, 3, 1]]
    # the first epoch's seeds are drawn as the iterator is made, not at its first element
    ds = tf.data.Dataset.range(6).shuffle(6, seed=1).repeat(2)
    first, second = iter(ds), iter(ds)
    assert [values(second), values(first)] == [
        [4, 3, 1, 5, 0, 2, 3, 5, 0, 1, 4, 2], [4, 5, 1, 2, 3, 0, 0, 3, 2, 5, 1, 4]]
    # the last epoch has no next one to draw for
    ds = tf.data.Dataset.range(5).shuffle(5, seed=2).repeat(1)
    alone = tf.data.Dataset.range(5).shuffle(5, seed=2)
    assert [values(ds), values(ds)] == [values(alone), values(alone)]


def test_shuffle_makes_its_inputs_iterator_at_the_first_element():
    # orders recorded from TensorFlow 2.21: an outer shuffle's iterator dropped unused took
    # its own seeds but made no iterator of the inner shuffle (nor of a cache under it)
    def inner():
        return tf.data.Dataset.range(8).shuffle(64, seed=0)

    ds = inner().shuffle(10, seed=1)
    iter(ds)
    assert [values(ds), values(ds)] == [[6, 0, 5, 7, 4, 3, 2, 1], [4, 1, 6, 3, 5, 7, 2, 0]]
    cached = inner().cache().shuffle(10, seed=1)
    iter(cached)
    assert [values(cached), values(cached)] == [[6, 0, 5, 7, 4, 3, 2, 1],
                                                [2, 5, 0, 1, 7, 4, 6, 3]]
    # Keras's adapt makes an iterator it drops, as fit does: later orders are TF's
    cached = inner().cache().shuffle(10, seed=1)
    tf.keras.layers.Normalization(axis=None).adapt(cached.map(lambda x: tf.cast(x, tf.float32)))
    assert values(cached) == [2, 5, 0, 1, 7, 4, 6, 3]


@pytest.mark.parametrize("make,expected", [
    (lambda d: d.skip(2), [2, 5, 1, 4]),
    (lambda d: d.batch(2).unbatch(), [3, 0, 2, 5, 1, 4]),
    (lambda d: d.padded_batch(4), [[3, 0, 2, 5], [1, 4]]),
    (lambda d: d.batch(4).rebatch(2), [[3, 0], [2, 5], [1, 4]]),
    (lambda d: d.window(3).flat_map(lambda w: w), [3, 0, 2, 5, 1, 4]),
    (lambda d: d.scan(tf.constant(0, tf.int64), lambda s, x: (s + x, x)), [3, 0, 2, 5, 1, 4]),
    (lambda d: d.unique(), [3, 0, 2, 5, 1, 4]),
    (lambda d: d.ignore_errors(), [3, 0, 2, 5, 1, 4]),
    (lambda d: d.take_while(lambda x: x < 9), [3, 0, 2, 5, 1, 4]),
    (lambda d: d.group_by_window(lambda x: x % 2, lambda k, w: w, window_size=10),
     [0, 2, 4, 3, 5, 1]),
    (lambda d: d.repeat().take(6), [3, 0, 2, 5, 1, 4]),
    (lambda d: d.map(lambda x: x).repeat(2).take(6), [3, 0, 2, 5, 1, 4]),
    (lambda d: d.concatenate(tf.data.Dataset.range(6).shuffle(64, seed=0)),
     [3, 0, 2, 5, 1, 4, 0, 1, 2, 5, 3, 4]),  # (the second input's is made when reached)
    (lambda d: tf.data.Dataset.choose_from_datasets([d], tf.data.Dataset.range(1).repeat(6)),
     [3, 0, 2, 5, 1, 4]),
])
def test_iterators_make_their_inputs_iterators_as_they_are_made(make, expected):
    # orders recorded from TensorFlow 2.21: an iterator dropped unused has drawn the seeds
    # of the shuffle under it, so the next one reshuffles
    ds = make(tf.data.Dataset.range(6).shuffle(64, seed=0))
    iter(ds)
    assert values(ds) == expected


def test_take_ending_at_an_epochs_end_leaves_the_next_seeds_undrawn():
    # orders recorded from TensorFlow 2.21: a take() that ends with an epoch's last element
    # asks its reshuffling repeat for nothing more, so the next iteration of the shuffle
    # gets the draw after that epoch's (a take ending one element later has drawn it)
    a = tf.data.Dataset.range(6).shuffle(6, seed=1)
    r = a.repeat()
    assert values(r.take(12)) == [4, 5, 1, 2, 3, 0, 4, 3, 1, 5, 0, 2]
    assert [values(a), values(a)] == [[3, 5, 0, 1, 4, 2], [0, 3, 2, 5, 1, 4]]
    a = tf.data.Dataset.range(6).shuffle(6, seed=1)
    r = a.repeat()
    assert values(r.take(13)) == [4, 5, 1, 2, 3, 0, 4, 3, 1, 5, 0, 2, 3]
    assert values(a) == [0, 3, 2, 5, 1, 4]


def test_get_single_element_and_reduce():
    assert int(tf.data.Dataset.range(1).get_single_element()) == 0
    with pytest.raises(tf.errors.InvalidArgumentError, match="Dataset was empty."):
        tf.data.Dataset.range(0).get_single_element()
    with pytest.raises(tf.errors.InvalidArgumentError, match="more than one element"):
        tf.data.Dataset.range(2).get_single_element()
    assert int(tf.data.Dataset.range(5).reduce(np.int64(0), lambda s, x: s + x)) == 10


def test_padded_batch_defaults_and_errors():
    ds = tf.data.Dataset.range(1, 5).map(lambda x: tf.fill([x], x))
    assert ds.padded_batch(2).element_spec == tf.TensorSpec([None, None], tf.int64)
    assert values(ds.padded_batch(2)) == [[[1, 0], [2, 2]], [[3, 3, 3, 0], [4, 4, 4, 4]]]
    got = ds.padded_batch(2, padded_shapes=[5], padding_values=tf.constant(-1, tf.int64),
                          drop_remainder=True)
    assert got.element_spec == tf.TensorSpec([2, 5], tf.int64)
    assert values(got)[0] == [[1, -1, -1, -1, -1], [2, 2, -1, -1, -1]]
    with pytest.raises(tf.errors.DataLossError, match="pad to a smaller size"):
        list(ds.padded_batch(2, padded_shapes=[2]))
    with pytest.raises(ValueError, match=r"The padded shape \(2,\) is not compatible"):
        tf.data.Dataset.range(3).padded_batch(2, padded_shapes=[2])
    strings = tf.data.Dataset.from_tensor_slices(["a", "bb"]).map(
        lambda s: (s, tf.strings.length(s))).padded_batch(2)
    assert values(strings) == [([b"a", b"bb"], [1, 2])]


def test_padding_values_convert_on_their_own():
    ints = tf.data.Dataset.range(3).map(lambda x: tf.range(x))
    # A Python int is an int32 value: it cannot pad int64 components.
    with pytest.raises(TypeError, match="values type <dtype: 'int32'> does not match type "
                                        "<dtype: 'int64'>"):
        ints.padded_batch(3, padding_values=0)
    with pytest.raises(TypeError, match="values type <dtype: 'int32'> does not match type "
                                        "<dtype: 'string'>"):
        ints.map(lambda r: tf.strings.as_string(r)).padded_batch(3, padding_values=0)
    with pytest.raises(ValueError, match=r"should be scalars, but got \(2,\)"):
        ints.padded_batch(3, padding_values=[1, 2])
    small = ints.map(lambda r: tf.cast(r, tf.int32)).padded_batch(3, padding_values=-1)
    assert values(small) == [[[-1, -1], [0, -1], [0, 1]]]


def test_a_none_padding_value_keeps_the_default():
    ds = tf.data.Dataset.range(3).map(lambda x: (tf.range(x), tf.strings.as_string(tf.range(x))))
    batches = ds.padded_batch(3, padding_values=(tf.constant(7, tf.int64), None))
    assert values(batches) == [([[7, 7], [0, 7], [0, 1]], [[b"", b""], [b"0", b""], [b"0", b"1"]])]


def test_map_of_elements_of_differing_shapes_then_padded_batch():
    ints = tf.data.Dataset.range(3).map(lambda x: tf.range(x))
    assert values(ints.map(lambda r: r * 2).padded_batch(3)) == [[[0, 0], [0, 0], [0, 2]]]
    assert values(ints.map(lambda r: r + 1)) == [[], [1], [1, 2]]


def test_unbatch_rebatch_window():
    assert values(tf.data.Dataset.range(3).batch(2).unbatch()) == [0, 1, 2]
    with pytest.raises(ValueError, match="Cannot unbatch an input with scalar components."):
        tf.data.Dataset.range(3).unbatch()
    assert values(tf.data.Dataset.range(8).batch(4).rebatch([1, 3])) == [
        [0], [1, 2, 3], [4], [5, 6, 7]]
    assert tf.data.Dataset.range(8).batch(4, True).rebatch(2).element_spec.shape == [2]
    # a zero size in the cycle makes an empty batch, as in TF
    assert values(tf.data.Dataset.range(10).batch(6).rebatch([2, 4, 0])) == [
        [0, 1], [2, 3, 4, 5], [], [6, 7], [8, 9]]
    with pytest.raises(ValueError, match="Invalid `batch_sizes`"):
        tf.data.Dataset.range(4).batch(2).rebatch([0])
    windows = tf.data.Dataset.range(7).window(3, shift=2, stride=2)
    assert [values(w) for w in windows] == [[0, 2, 4], [2, 4, 6], [4, 6], [6]]
    assert windows.element_spec == tf.data.DatasetSpec(tf.TensorSpec([], tf.int64))
    flat = tf.data.Dataset.range(7).window(3, drop_remainder=True).flat_map(lambda w: w.batch(3))
    assert values(flat) == [[0, 1, 2], [3, 4, 5]]
    assert flat.element_spec == tf.TensorSpec([None], tf.int64)


def test_flat_map_interleave_orders():
    ds = tf.data.Dataset.range(1, 6)
    inter = ds.interleave(lambda x: tf.data.Dataset.from_tensors(x).repeat(x), cycle_length=2)
    # TensorFlow's order
    assert values(inter) == [1, 2, 2, 3, 3, 4, 3, 4, 4, 5, 4, 5, 5, 5, 5]
    par = ds.interleave(lambda x: tf.data.Dataset.from_tensors(x).repeat(x), cycle_length=3,
                        num_parallel_calls=2)
    assert values(par) == [1, 2, 3, 2, 3, 4, 3, 4, 5, 4, 5, 4, 5, 5, 5]
    blocks = tf.data.Dataset.range(1, 4).interleave(
        lambda x: tf.data.Dataset.from_tensors(x).repeat(3), cycle_length=2, block_length=2)
    assert values(blocks) == [1, 1, 2, 2, 1, 2, 3, 3, 3]


def test_group_by_window_and_buckets():
    ds = tf.data.Dataset.range(10).group_by_window(lambda x: x % 2, lambda k, d: d.batch(3),
                                                   window_size=3)
    assert values(ds) == [[0, 2, 4], [1, 3, 5], [6, 8], [7, 9]]
    ds = tf.data.Dataset.range(1, 12).map(lambda x: tf.fill([x % 3 + 1], x))
    buckets = ds.bucket_by_sequence_length(lambda x: tf.shape(x)[0], [2, 4], [3, 2, 2],
                                           pad_to_bucket_boundary=True)
    assert values(buckets) == [[[1, 1, 0], [2, 2, 2]], [[4, 4, 0], [5, 5, 5]],
                               [[7, 7, 0], [8, 8, 8]], [[3], [6], [9]],
                               [[10, 10, 0], [11, 11, 11]]]



def test_bucket_boundaries_need_not_be_sorted():
    # TensorFlow takes the first interval [lower, upper) holding the length, the lower
    # bounds being [int32 min] + boundaries and the upper ones boundaries + [int32 max].
    ds = tf.data.Dataset.from_tensor_slices([1, 3, 4, 7, 2]).map(lambda x: tf.fill([x], x))
    buckets = ds.bucket_by_sequence_length(lambda x: tf.shape(x)[0], [6, 3], [2, 2, 2])
    assert values(buckets) == [[[1, 0, 0], [3, 3, 3]], [[4, 4, 4, 4], [2, 2, 0, 0]],
                               [[7, 7, 7, 7, 7, 7, 7]]]

def test_bucket_lengths_are_int32_and_window_sizes_positive():
    ds = tf.data.Dataset.range(1, 5).map(lambda n: (tf.range(n), n))
    # (TF compares the length with its int32 boundaries: an int64 length does not fit)
    with pytest.raises(TypeError, match="Input 'y' of 'LessEqual' Op has type int64 that does "
                                        "not match type int32 of argument 'x'"):
        ds.bucket_by_sequence_length(lambda t, n: n, [3], [2, 2])
    buckets = ds.bucket_by_sequence_length(lambda t, n: tf.cast(n, tf.int32), [3], [2, 2])
    assert [b[1] for b in values(buckets)] == [[1, 2], [3, 4]]
    for size in (dict(window_size=0), dict(window_size_func=lambda k: k - 1)):
        windows = tf.data.Dataset.range(4).group_by_window(lambda x: x % 2,
                                                           lambda k, w: w.batch(2), **size)
        with pytest.raises(tf.errors.InvalidArgumentError,
                           match="Window size must be greater than zero, but got -?[01]."):
            values(windows)


def test_scan_take_while_unique_shard_cache():
    ds = tf.data.Dataset.range(5)
    assert values(ds.scan(np.int64(0), lambda s, x: (s + x, s * 2))) == [0, 0, 2, 6, 12]
    assert values(ds.take_while(lambda x: x < 3)) == [0, 1, 2]
    assert values(tf.data.Dataset.from_tensor_slices([1, 2, 1, 3, 2]).unique()) == [1, 2, 3]
    assert values(tf.data.Dataset.range(10).shard(3, 1)) == [1, 4, 7]
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"Index must be between 0 and 2"):
        tf.data.Dataset.range(10).shard(3, 3)
    calls = []
    cached = tf.data.Dataset.from_generator(
        lambda: calls.append(1) or iter([1, 2]), output_signature=tf.TensorSpec([], tf.int32)
    ).cache()
    assert values(cached) == values(cached) == [1, 2]
    assert len(calls) == 1


def test_ignore_errors_skips_failing_elements():
    ds = tf.data.Dataset.from_tensor_slices([1.0, 0.0, 2.0]).map(
        lambda x: tf.debugging.check_numerics(1.0 / x, "bad"))
    with pytest.raises(tf.errors.InvalidArgumentError, match="bad"):
        list(ds)
    assert values(ds.ignore_errors()) == [1.0, 0.5]


def test_file_cache_is_read_back_across_datasets(tmp_path):
    calls = []

    def gen():
        calls.append(1)
        yield from [(1, "a"), (2, "bb")]
    spec = (tf.TensorSpec([], tf.int32), tf.TensorSpec([], tf.string))
    path = str(tmp_path / "cache")
    ds = tf.data.Dataset.from_generator(gen, output_signature=spec).map(
        lambda x, s: (tf.fill([x], x), s)).cache(path)
    assert values(ds) == [([1], b"a"), ([2, 2], b"bb")]
    assert values(ds) == [([1], b"a"), ([2, 2], b"bb")]
    again = tf.data.Dataset.from_generator(gen, output_signature=spec).map(
        lambda x, s: (tf.fill([x], x), s)).cache(path)
    assert values(again) == [([1], b"a"), ([2, 2], b"bb")]
    assert len(calls) == 1


def test_file_cache_discards_a_partial_iteration(tmp_path):
    path = str(tmp_path / "partial")
    ds = tf.data.Dataset.range(5).cache(path)
    it = iter(ds)
    next(it)
    del it
    assert not (tmp_path / "partial.index").exists()
    assert values(ds) == [0, 1, 2, 3, 4]
    assert (tmp_path / "partial.index").exists()
    assert values(ds.take(2)) == [0, 1]


def test_file_cache_has_one_writer_at_a_time(tmp_path):
    path = str(tmp_path / "locked")
    ds = tf.data.Dataset.range(4).cache(path)
    it = iter(ds)
    next(it)
    assert (tmp_path / "locked_0.lockfile").exists()
    with pytest.raises(tf.errors.AlreadyExistsError, match="concurrent caching iterator"):
        values(ds.take(2))
    with pytest.raises(tf.errors.AlreadyExistsError, match="cache lockfile already exists"):
        values(tf.data.Dataset.zip((ds, ds)))
    del it
    assert not (tmp_path / "locked_0.lockfile").exists()
    assert values(ds) == [0, 1, 2, 3]
    assert values(tf.data.Dataset.zip((ds, ds))) == [(0, 0), (1, 1), (2, 2), (3, 3)]


def test_map_functions_update_variables_and_are_not_recorded_by_tapes():
    v = tf.Variable(0, dtype=tf.int64)
    ds = tf.data.Dataset.range(5).map(lambda x: x + v.assign_add(1))
    assert values(ds) == [1, 3, 5, 7, 9] and int(v.numpy()) == 5
    w = tf.Variable(2.0)
    with tf.GradientTape() as tape:
        total = tf.add_n(list(tf.data.Dataset.range(3).map(
            lambda x: tf.cast(x, tf.float32) * w)))
    assert float(total) == 6.0
    assert tape.gradient(total, w) is None  # as in TF: the pipeline is not differentiated


def test_dataset_elements_are_refused_where_only_tensors_go():
    windows = tf.data.Dataset.range(5).window(2)
    with pytest.raises(TypeError, match=r"Dataset.filter\(\) cannot take elements that are "
                                        r"datasets"):
        windows.filter(lambda w: True)
    with pytest.raises(TypeError, match="cannot batch elements that are datasets"):
        windows.batch(2)


def test_map_takes_and_returns_datasets():
    # TensorFlow's values and specs
    ds = tf.data.Dataset.range(4).map(lambda x: tf.data.Dataset.range(x))
    assert ds.element_spec == tf.data.DatasetSpec(tf.TensorSpec([], tf.int64))
    assert [values(d) for d in ds] == [[], [0], [0, 1], [0, 1, 2]]
    assert values(ds.flat_map(lambda d: d)) == [0, 0, 1, 0, 1, 2]
    sums = tf.data.Dataset.range(7).window(3).map(
        lambda d: d.reduce(np.int64(0), lambda s, x: s + x))
    assert sums.element_spec == tf.TensorSpec([], tf.int64) and values(sums) == [3, 12, 6]
    pairs = tf.data.Dataset.range(3).map(lambda x: (x, tf.data.Dataset.from_tensors(x * 10)))
    assert [(int(a), values(b)) for a, b in pairs] == [(0, [0]), (1, [10]), (2, [20])]


def test_ignore_errors_after_parallel_map_and_filter():
    ds = tf.data.Dataset.from_tensor_slices([1.0, 0.0, 2.0, 0.0, 4.0])
    bad = ds.map(lambda x: tf.debugging.check_numerics(1.0 / x, "bad"), num_parallel_calls=3)
    assert values(bad.ignore_errors()) == [1.0, 0.5, 0.25]
    failing = ds.filter(lambda x: tf.debugging.check_numerics(1.0 / x, "bad") > 0.3)
    assert values(failing.ignore_errors()) == [1.0, 2.0]


def test_concatenate_compares_named_tuples_by_kind():
    point = collections.namedtuple("Point", "a b")
    a = tf.data.Dataset.from_tensors(point(1, 2))
    assert [type(e).__name__ for e in a.concatenate(a)] == ["Point", "Point"]
    with pytest.raises(TypeError, match="Incompatible dataset elements"):
        a.concatenate(tf.data.Dataset.from_tensors((1, 2)))


def test_concatenate_keeps_ragged_specs_and_merges_dataset_specs():
    uniform = tf.RaggedTensor.from_row_splits(tf.zeros([4, 3]), tf.constant([0, 1, 4], tf.int32))
    a = tf.data.Dataset.from_tensor_slices(uniform)
    assert a.concatenate(a).element_spec == a.element_spec  # (ragged rank 0, int32 splits)
    assert tf.data.Dataset.sample_from_datasets([a, a], seed=1).element_spec == a.element_spec
    with pytest.raises(TypeError, match="Incompatible dataset elements"):
        a.concatenate(tf.data.Dataset.from_tensor_slices(tf.ragged.constant([[[1.0]], [[2.0]]])))
    r = tf.data.Dataset.range(6)
    windows = r.batch(2).window(2).concatenate(r.batch(3).window(2))
    assert windows.element_spec == tf.data.DatasetSpec(tf.TensorSpec([None], tf.int64))
    assert [values(d) for d in windows][-1] == [[0, 1, 2], [3, 4, 5]]
    with pytest.raises(TypeError, match="Incompatible dataset elements"):
        r.window(2).concatenate(r.map(lambda x: tf.zeros([2])).window(3))


def test_functions_inside_interleave_are_not_traced_per_element():
    traces = []

    def parse(x):
        traces.append(1)
        return x * 2
    ds = tf.data.Dataset.range(50).interleave(
        lambda i: tf.data.Dataset.range(i, i + 2).map(parse), cycle_length=4)
    assert sorted(values(ds)) == sorted(2 * v for i in range(50) for v in (i, i + 1))
    assert len(traces) <= 2  # the spec's trace and the first element's, not one per element


def test_datasets_built_per_element_take_symbolic_arguments():
    ds = tf.data.Dataset.range(1, 4).flat_map(
        lambda n: tf.data.Dataset.range(n * 2).shuffle(n, seed=1).batch(n).take(n))
    assert ds.element_spec == tf.TensorSpec([None], tf.int64)
    # TensorFlow's values
    assert values(ds) == [[0], [0, 2], [3, 1], [1, 3, 0], [5, 2, 4]]


def test_debug_mode_runs_functions_as_python(monkeypatch):
    from tests.internals import data_structured_function
    monkeypatch.setattr(data_structured_function, "debug_mode", False)
    seen = []

    def f(x):
        seen.append(x.numpy() if hasattr(x, "numpy") and tf.executing_eagerly() else None)
        return x * 2
    tf.data.experimental.enable_debug_mode()
    assert values(tf.data.Dataset.range(3).map(f)) == [0, 2, 4]
    assert seen[-3:] == [0, 1, 2]  # the Python function saw each element's value


def test_reading_a_dataset_while_tracing_is_a_graph_loop():
    @tf.function
    def total(ds):
        s = tf.constant(0, tf.int64)
        for x in ds:
            s += x
        return s
    assert int(total(tf.data.Dataset.range(4))) == 6
    assert int(total(tf.data.Dataset.range(5))) == 10  # the same trace, another dataset
    assert total.experimental_get_tracing_count() == 1


def test_flat_map_choosing_datasets_with_a_tensor_condition():
    def f(x):
        if x > 1:
            return tf.data.Dataset.range(x)
        else:
            return tf.data.Dataset.from_tensors(x)
    ds = tf.data.Dataset.range(4).flat_map(f)
    assert values(ds) == [0, 1, 0, 1, 0, 1, 2]  # TensorFlow's values
    assert ds.element_spec.dtype == tf.int64
    with pytest.raises(NameError, match="in user code"):
        tf.data.Dataset.range(4).flat_map(lambda x: undefined_name)  # noqa: F821


def test_reprs_of_parallel_interleave_and_sparse_batch():
    # TF 2.21's printed class names.
    d = tf.data.Dataset.range(4)
    spec = "TensorSpec(shape=(), dtype=tf.int64, name=None)"
    assert repr(d.interleave(lambda x: tf.data.Dataset.range(x))) == \
        f"<_InterleaveDataset element_spec={spec}>"
    assert repr(d.interleave(lambda x: tf.data.Dataset.range(x), num_parallel_calls=1)) == \
        f"<_ParallelInterleaveDataset element_spec={spec}>"
    assert repr(d.sparse_batch(2, [3])) == ("<_DenseToSparseBatchDataset element_spec="
                                            "SparseTensorSpec(TensorShape([None, 3]), tf.int64)>")


def test_pad_to_cardinality():
    ds = tf.data.Dataset.from_tensor_slices({"a": [1, 2], "b": [[1.5, 2.5], [3.5, 4.5]]})
    padded = ds.apply(tf.data.experimental.pad_to_cardinality(4))
    assert padded.element_spec == {"a": tf.TensorSpec([], tf.int32),
                                   "b": tf.TensorSpec([2], tf.float32),
                                   "valid": tf.TensorSpec([], tf.bool)}
    assert int(padded.cardinality()) == 4
    assert [(int(e["a"]), e["b"].numpy().tolist(), bool(e["valid"])) for e in padded] == [
        (1, [1.5, 2.5], True), (2, [3.5, 4.5], True), (0, [0, 0], False), (0, [0, 0], False)]
    same = ds.apply(tf.data.experimental.pad_to_cardinality(2, mask_key="m"))
    assert [bool(e["m"]) for e in same] == [True, True]
    for bad, message in ((ds.repeat(), "must have a known cardinalty, but has cardinality -1"),
                         (tf.data.Dataset.range(2), "requires its input dataset to be a "
                                                    "dictionary"),
                         (ds.repeat(3), r"less than the target cardinality \(4\), but has "
                                        r"cardinality 6")):
        with pytest.raises(ValueError, match=message):
            bad.apply(tf.data.experimental.pad_to_cardinality(4))


def test_lookup_tables_from_datasets():
    keys = tf.data.Dataset.range(100, 105).map(lambda x: tf.strings.as_string(x))
    index = tf.data.experimental.index_table_from_dataset(keys)
    assert int(index.size()) == 5
    assert index.lookup(tf.constant(["101", "104", "zzz"])).numpy().tolist() == [1, 4, -1]
    pairs = tf.data.Dataset.zip((tf.data.Dataset.range(3), tf.data.Dataset.range(10, 13)))
    table = tf.data.experimental.table_from_dataset(pairs, default_value=-5,
                                                    key_dtype=tf.int64)
    assert table.lookup(tf.constant([0, 2, 7], tf.int64)).numpy().tolist() == [10, 12, -5]
    assert (table.key_dtype, table.value_dtype) == (tf.int64, tf.int64)
    # other keys hashed into buckets after the vocabulary, as TF's FastHashSpec does
    buckets = tf.data.experimental.index_table_from_dataset(keys, num_oov_buckets=2)
    assert buckets.lookup(tf.constant(["101", "zzz"])).numpy().tolist() == [1, 5]
    assert int(buckets.size()) == 7
    init = tf.data.experimental.DatasetInitializer(pairs)
    assert (init.key_dtype, init.value_dtype) == (tf.int64, tf.int64)
    assert tf.lookup.StaticHashTable(init, -1).lookup(
        tf.constant([1], tf.int64)).numpy().tolist() == [11]
    with pytest.raises(TypeError, match="has no len"):
        tf.data.experimental.DatasetInitializer(tf.data.Dataset.range(3))


def test_batched_ragged_elements_keep_the_static_row_length_of_their_spec():
    ds = tf.data.Dataset.from_tensors(tf.ragged.constant([[1, 2], [3]])).repeat(3).batch(2)
    assert ds.element_spec.shape.as_list() == [None, 2, None]
    first = next(iter(ds))
    assert first.shape.as_list() == [2, 2, None]
    assert int(first.uniform_row_length) == 2
    assert first.to_list() == [[[1, 2], [3]], [[1, 2], [3]]]
    unknown = tf.data.Dataset.from_tensor_slices(tf.ragged.constant([[1], [2, 3]])).batch(2)
    assert next(iter(unknown)).uniform_row_length is None


def test_padded_shapes_of_another_structure_raise_tf_classes():
    ds = tf.data.Dataset.range(3).map(lambda x: ({"tok": tf.range(x), "len": x}, x))
    with pytest.raises(TypeError, match="Invalid `padded_shapes`"):
        ds.padded_batch(2, padded_shapes={"tok": [10]})
    with pytest.raises(ValueError, match="Invalid `padded_shapes`"):
        ds.padded_batch(2, padded_shapes=({"tok": [10]}, []))
    with pytest.raises(TypeError, match="Invalid `padding_values`"):
        ds.padded_batch(2, padding_values=(tf.constant(1, tf.int64), tf.constant(0, tf.int64)))


def test_padded_shapes_that_are_no_integer_vectors_raise_tfs_errors():
    ds = tf.data.Dataset.range(1, 4).map(lambda x: tf.fill([x], x))
    for shapes, error, message in [  # TF's classes and messages
            ([[2]], ValueError, "Padded shape [[2]] must be a `tf.int64` vector tensor, but "
                                "its shape was (1, 1)."),
            (([2], [3]), ValueError, "Padded shape ([2], [3]) must be a `tf.int64` vector "
                                     "tensor, but its shape was (2, 1)."),
            ([2.5], TypeError, "Padded shape [2.5] must be a `tf.int64` vector tensor, but "
                               "its element type was float32."),
            (tf.constant([4.0]), TypeError, "Padded shape [4.] must be a `tf.int64` vector "
                                            "tensor, but its element type was float32.")]:
        with pytest.raises(error) as info:
            ds.padded_batch(2, padded_shapes=shapes)
        assert str(info.value) == message


def test_counts_given_as_int32_tensors_raise_tfs_value_error():
    ds = tf.data.Dataset.range(5)
    three = tf.constant(3)
    for make, name in [(lambda: tf.data.Dataset.range(three), "stop"),
                       (lambda: tf.data.Dataset.range(0, 5, three), "step"),
                       (lambda: ds.enumerate(start=three), "start"),
                       (lambda: ds.take(three), "count"), (lambda: ds.skip(three), "count"),
                       (lambda: ds.repeat(three), "count"),
                       (lambda: ds.batch(three), "batch_size"),
                       (lambda: ds.shuffle(three), "buffer_size"),
                       (lambda: ds.prefetch(three), "buffer_size")]:
        with pytest.raises(ValueError, match=f"^{name}: Tensor conversion requested dtype "
                                             f"int64 for Tensor with dtype int32"):
            make()
    assert [int(v) for v in ds.take(tf.constant(2, tf.int64))] == [0, 1]


def test_map_function_taking_other_arguments_is_framed_in_user_code():
    # (the call itself fails: no user frame to show, the message framed as TF frames it)
    with pytest.raises(TypeError) as info:
        tf.data.Dataset.range(3).map(lambda a, b: a)
    text = str(info.value)
    assert text.startswith("in user code:\n\n\n    TypeError: ") and \
        "missing 1 required positional argument: 'b'" in text


def test_assert_cardinality_counts_its_elements_as_tensorflow_words_them():
    ds = tf.data.Dataset.range(10).filter(lambda x: x < 3)
    with pytest.raises(tf.errors.FailedPreconditionError,
                       match=r"expected to contain 0 elements but contained at least 1 "
                             r"element\. "):
        values(ds.apply(tf.data.experimental.assert_cardinality(0)))
    with pytest.raises(tf.errors.FailedPreconditionError,
                       match=r"expected to contain 1 element but contained at least 2 "
                             r"elements\. "):
        values(ds.apply(tf.data.experimental.assert_cardinality(1)))
    with pytest.raises(tf.errors.FailedPreconditionError,
                       match=r"expected to contain 5 elements but contained only 3 elements\. "):
        values(ds.apply(tf.data.experimental.assert_cardinality(5)))
    assert values(ds.apply(tf.data.experimental.assert_cardinality(3))) == [0, 1, 2]
