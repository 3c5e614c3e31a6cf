"""Sources drawing random numbers or reading the file system: TF's values for the same seeds."""
import numpy as np
import pytest

import eagerflow as tf


def values(ds):
    return [tf.nest.map_structure(lambda t: np.asarray(t).tolist(), e) for e in ds]


def test_random_follows_tensorflow():
    # values recorded from TensorFlow 2.21
    assert values(tf.data.Dataset.random(seed=4).take(3)) == [3128586565, 2023892699, 452966358]
    ds = tf.data.Dataset.random(seed=4, rerandomize_each_iteration=True).take(2)
    assert values(ds) == [1905554911, 4215726141]
    assert values(ds) == [1683472663, 2279948892]
    ds = tf.data.Dataset.random(seed=4, rerandomize_each_iteration=False).take(2)
    assert values(ds) == values(ds) == [3128586565, 2023892699]


def test_sample_from_datasets_follows_tensorflow():
    a, b = tf.data.Dataset.range(0, 5), tf.data.Dataset.range(100, 110)
    s = tf.data.Dataset.sample_from_datasets([a, b], weights=[0.3, 0.7], seed=3)
    assert int(s.cardinality()) == tf.data.UNKNOWN_CARDINALITY
    expected = [100, 101, 102, 0, 103, 104, 105, 106, 107, 1, 108, 2, 109, 3, 4]
    assert values(s) == values(s) == expected
    stop = tf.data.Dataset.sample_from_datasets([a, b], seed=1, stop_on_empty_dataset=True)
    assert values(stop) == [100, 0, 1, 2, 3, 4, 101, 102, 103]
    tf.random.set_seed(7)
    assert values(tf.data.Dataset.sample_from_datasets([a, b])) == [
        0, 100, 1, 101, 102, 2, 103, 3, 4, 104, 105, 106, 107, 108, 109]
    assert tf.data.Dataset.sample_from_datasets([a]) is a
    assert int(tf.data.Dataset.sample_from_datasets([a, b], weights=[1.0, 0.0]).take(3)
               .cardinality()) == 3


def test_sample_from_datasets_errors():
    a = tf.data.Dataset.range(3)
    with pytest.raises(TypeError, match="`weights` type must be either `tf.float32` or"):
        tf.data.Dataset.sample_from_datasets([a, a], weights=[1, 2])
    with pytest.raises(ValueError, match="should have the same length as `datasets`"):
        tf.data.Dataset.sample_from_datasets([a, a], weights=[1.0, 2.0, 3.0])
    with pytest.raises(ValueError, match="`datasets` should not be empty"):
        tf.data.Dataset.sample_from_datasets([])
    with pytest.raises(TypeError, match="must have compatible element specs"):
        tf.data.Dataset.sample_from_datasets([a, a.map(lambda x: (x, x))])


def test_choose_from_datasets():
    a, b = tf.data.Dataset.range(0, 5), tf.data.Dataset.range(100, 110)
    choice = tf.data.Dataset.from_tensor_slices(tf.constant([0, 1, 1, 0, 0, 0, 0, 0, 1],
                                                            tf.int64))
    assert values(tf.data.Dataset.choose_from_datasets([a, b], choice)) == [
        0, 100, 101, 1, 2, 3, 4]
    assert values(tf.data.Dataset.choose_from_datasets(
        [a, b], choice, stop_on_empty_dataset=False)) == [0, 100, 101, 1, 2, 3, 4, 102]
    # (the experimental form goes on past an empty input by default)
    assert values(tf.data.experimental.choose_from_datasets([a, b], choice)) == [
        0, 100, 101, 1, 2, 3, 4, 102]
    with pytest.raises(TypeError, match="must be scalar `tf.int64` tensors"):
        tf.data.Dataset.choose_from_datasets([a, b], a.map(lambda x: tf.cast(x, tf.int32)))
    with pytest.raises(tf.errors.InvalidArgumentError, match="Selector index out of range: 3"):
        list(tf.data.Dataset.choose_from_datasets([a, b], tf.data.Dataset.range(3, 4)))


def test_list_files(tmp_path):
    for i in range(6):
        (tmp_path / f"f{i}.txt").write_text("")
    (tmp_path / "other.csv").write_text("")
    pattern = str(tmp_path / "*.txt")
    names = [str(tmp_path / f"f{i}.txt").encode() for i in range(6)]
    assert values(tf.data.Dataset.list_files(pattern, shuffle=False)) == names
    # TensorFlow's order for seed 5
    assert values(tf.data.Dataset.list_files(pattern, seed=5)) == [
        names[i] for i in (1, 2, 5, 0, 3, 4)]
    both = [str(tmp_path / "f1*"), str(tmp_path / "f0*")]
    assert values(tf.data.Dataset.list_files(both, shuffle=False)) == names[:2]
    with pytest.raises(tf.errors.InvalidArgumentError, match="No files matched pattern"):
        tf.data.Dataset.list_files(str(tmp_path / "*.none"))


def test_from_generator_arguments_arrive_as_numpy_values():
    seen = []

    def gen(n, s):
        seen.append((n, s))
        yield from range(n)
    ds = tf.data.Dataset.from_generator(gen, args=[3, "ab"], output_types=tf.int32,
                                        output_shapes=())
    assert ds.element_spec == tf.TensorSpec([], tf.int32)
    assert repr(ds).startswith("<_FlatMapDataset element_spec=")
    assert values(ds) == [0, 1, 2]
    assert type(seen[0][0]) is np.int32 and seen[0][1] == b"ab"


def test_from_generator_values_out_of_range_wrap_as_in_tensorflow():
    ds = tf.data.Dataset.from_generator(lambda: iter([(3000000000, [1.7, 300])]),
                                        output_signature=(tf.TensorSpec([], tf.int32),
                                                          tf.TensorSpec([2], tf.uint8)))
    assert values(ds) == [(-1294967296, [1, 44])]


@pytest.mark.parametrize("items, kwargs, message", [
    ([[1, 2]], dict(output_types=(tf.int32, tf.int32)),
     "did not match the expected structure. The expected structure was (tf.int32, tf.int32), "
     "but the yielded element was [1, 2]."),
    ([{"a": 1}], dict(output_types={"b": tf.int32}),
     "The expected structure was {'b': tf.int32}, but the yielded element was {'a': 1}."),
    ([1.5], dict(output_types=tf.int32),
     "The expected structure was TensorSpec(shape=<unknown>, dtype=tf.int32, name=None), but "
     "the yielded element was 1.5."),
    (["a"], dict(output_signature=tf.TensorSpec((), tf.int32)),
     "could not be converted to the expected type. The expected type was int32, but the "
     "yielded element was a."),
    ([[1, 2]], dict(output_signature=tf.TensorSpec((3,), tf.int32)),
     "yielded an element of shape (2,) where an element of shape (3,) was expected."),
])
def test_from_generator_names_what_it_yielded(items, kwargs, message):
    ds = tf.data.Dataset.from_generator(lambda: iter(items), **kwargs)
    with pytest.raises(tf.errors.InvalidArgumentError) as info:
        list(ds)
    assert message in str(info.value)


def test_from_generator_errors_of_the_generator():
    def gen():
        yield 1
        raise ValueError("boom")
    it = iter(tf.data.Dataset.from_generator(gen, output_types=tf.int32))
    assert int(next(it)) == 1
    with pytest.raises(tf.errors.InvalidArgumentError, match="ValueError: boom") as info:
        next(it)
    assert isinstance(info.value.__cause__, ValueError)
    with pytest.raises(tf.errors.InvalidArgumentError, match="'int' object is not iterable"):
        list(tf.data.Dataset.from_generator(lambda: 5, output_types=tf.int32))
    # other exceptions: the classes TF's py_func gives them
    for exc, cls in ((ZeroDivisionError("z"), tf.errors.UnknownError),
                     (KeyError("k"), tf.errors.UnknownError),
                     (NotImplementedError("n"), tf.errors.UnimplementedError),
                     (MemoryError("m"), tf.errors.ResourceExhaustedError)):
        def failing(exc=exc):
            yield 1
            raise exc
        with pytest.raises(cls, match=type(exc).__name__):
            list(tf.data.Dataset.from_generator(failing, output_types=tf.int32))


def test_from_generator_inside_interleave():
    def gen(n):
        yield from range(int(n))
    ds = tf.data.Dataset.range(1, 4).interleave(
        lambda n: tf.data.Dataset.from_generator(gen, args=(n,),
                                                 output_signature=tf.TensorSpec([], tf.int64)),
        cycle_length=2, num_parallel_calls=2)
    assert values(ds) == [0, 0, 1, 0, 1, 2]


def test_element_at_and_device_transformations():
    ds = tf.data.Dataset.range(5)
    assert int(tf.data.experimental.at(ds, 3)) == 3
    with pytest.raises(tf.errors.OutOfRangeError, match=r"Index out of range \[0, 5\):7"):
        tf.data.experimental.at(ds, 7)
    assert values(ds.apply(tf.data.experimental.prefetch_to_device("/cpu:0"))) == list(range(5))
    copied = ds.apply(tf.data.experimental.copy_to_device("/cpu:0"))
    assert repr(copied).startswith("<_CopyToDeviceDataset") and values(copied) == list(range(5))


def test_from_generator_errors_have_tfs_first_line_then_the_traceback():
    def gen():
        yield 1
        raise ValueError("boom")
    with pytest.raises(tf.errors.InvalidArgumentError) as info:
        list(tf.data.Dataset.from_generator(gen, output_signature=tf.TensorSpec([], tf.int32)))
    first, rest = str(info.value).split("\n", 1)
    assert first.endswith("}} ValueError: boom")
    assert rest.startswith("Traceback (most recent call last):")
    assert rest.endswith("\t [[{{node PyFunc}}]] [Op:IteratorGetNext] name: ")
    ds = tf.data.Dataset.from_generator(lambda: iter([[1, 2]]),
                                        output_signature=tf.TensorSpec([3], tf.int32))
    with pytest.raises(tf.errors.InvalidArgumentError) as info:
        list(ds)
    assert str(info.value).split("\n")[0].endswith(
        "TypeError: `generator` yielded an element of shape (2,) where an element of shape "
        "(3,) was expected.")


def test_from_list():
    ds = tf.data.experimental.from_list([(1, "a"), (2, "b")])
    assert values(ds) == [(1, b"a"), (2, b"b")]
    with pytest.raises(ValueError, match=r"should not be empty. If you want an empty dataset, "
                                         r"use `tf.data.Dataset.range\(0\)`."):
        tf.data.experimental.from_list([])


def test_from_generator_with_ragged_parts_converts_the_others_as_tensors():
    # With a ragged (or sparse) part, TF converts each dense part as a tensor of its dtype
    # (1.7 is no int32) and a ragged part must come as a ragged tensor.
    signature = (tf.TensorSpec([], tf.int32), tf.RaggedTensorSpec([None, None], tf.int32))
    row = tf.ragged.constant([[1], [2, 3]])

    def dataset(*items):
        return tf.data.Dataset.from_generator(lambda: iter(items), output_signature=signature)
    assert [(int(a), r.to_list()) for a, r in dataset((np.int64(5), row))] == [
        (5, [[1], [2, 3]])]
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match="did not match the expected structure"):
        list(dataset((1.7, row)))
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match="did not match the expected structure"):
        list(dataset((1, [[1], [2, 3]])))  # (no tensor: its rows differ in length)
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"yielded an element of \(TensorSpec\(shape=\(\), dtype=tf.int32, "
                             r"name=None\), RaggedTensorSpec\(TensorShape\(\[1, None\]\), "
                             r"tf.float32, 1, tf.int64\)\) where an element of"):
        list(dataset((1, tf.ragged.constant([[1.5]]))))
