"""Maps over sources of arrays run their function on a chunk of elements at once: every
element gets what running the function on it alone gives (random draws included, in
TF's order), and errors, effects and iterators behave as element by element."""
import re

import numpy as np
import pytest

import eagerflow as tf
from eagerflow import errors
from tests.data import augment_cases
from tests.data.record_augment import OUT
from tests.internals import data_structured_function

RECORDED = np.load(OUT)


@pytest.mark.parametrize("name", sorted(augment_cases.CASES))
def test_augmentations_draw_tensorflows_values(name):
    got = augment_cases.CASES[name](tf)
    for i, a in enumerate(got):
        want = RECORDED[f"{name}#{i}"]
        assert a.dtype == want.dtype and a.shape == want.shape
        if a.dtype.kind == "f":
            np.testing.assert_allclose(a, want, rtol=1e-6, atol=1e-6)
        else:
            np.testing.assert_array_equal(a, want)


_IMAGES = augment_cases.IMAGES[:37]
_VARIABLE = tf.Variable([0.5, 2.0, 1.0])
_OFFSET = tf.constant([1.0, -2.0, 3.0])


def _image_ops(im):
    x = tf.cast(tf.image.random_crop(im, (8, 8, 3)), tf.float32)
    x = tf.image.random_flip_left_right(tf.image.random_flip_up_down(x))
    x = tf.image.random_contrast(tf.image.random_brightness(x, 10.0), 0.5, 1.5)
    x = tf.image.resize(x, (5, 6)) * _VARIABLE + _OFFSET
    return {"image": x, "sum": tf.reduce_sum(x), "mean": tf.reduce_mean(x, axis=[0, 1])}


def _slices(im):
    x = tf.cast(im, tf.int32)
    return (x[..., ::-1], x[None, 1:, :-1], x[:, 2], x[3, 4, 1], x[::2, 1::3, :2],
            tf.stack([x[0, 0], x[1, 1]], axis=-1), tf.stack([x[0], x[1]], axis=1),
            tf.reverse(x, [0, -1]), tf.where(x > 100, x, -x),
            tf.where(x[0, 0, 0] > 100, x[0], x[1]))


def _shapes(im):
    x = tf.cast(im, tf.float32)
    return (tf.expand_dims(x, -1), tf.expand_dims(x, 1), tf.squeeze(x[:, :1], axis=1),
            tf.squeeze(tf.expand_dims(x, 0)), tf.squeeze(x[:1, :, :1]),
            tf.image.adjust_contrast(x, 1.5), tf.image.adjust_contrast(x[None], 0.5),
            tf.image.resize(x[None], (3, 4), "nearest"), tf.image.resize(x, (7, 5), "area"),
            tf.image.resize(x, (13, 11), "bicubic"), tf.shape(x), tf.shape(x[1:, ::2]))


def _sampled_crops(im):
    # crops of a size drawn per element (values of differing shapes inside the chunk)
    seed = tf.cast(im[0, 0, :2], tf.int32)
    begin, size, _ = tf.image.stateless_sample_distorted_bounding_box(
        tf.shape(im), [[[0.1, 0.2, 0.5, 0.9]]], seed=seed, min_object_covered=0.3)
    return tf.image.resize(tf.slice(im, begin, size), (5, 5)), size


def _draws(im):
    seed = tf.stack([tf.cast(im[0, 0, 0], tf.int64), tf.constant(7, tf.int64)])
    coin = tf.random.uniform([])
    flipped = tf.cond(coin < 0.5, lambda: tf.image.flip_left_right(im), lambda: im)
    return (flipped, tf.random.stateless_uniform([3], seed=seed),
            tf.random.stateless_normal([2, 2], seed=seed + 1),
            tf.random.stateless_uniform([], seed=seed, minval=0, maxval=50, dtype=tf.int32),
            tf.random.normal([4], seed=3), tf.random.uniform([2], 0, 10, tf.int64),
            tf.random.shuffle(tf.range(5)), tf.random.truncated_normal([2]))


def _elements(ds):
    return [tf.nest.map_structure(lambda t: t.numpy(), e) for e in ds]


def _by_element(source):
    """The same elements, from a generator (whose elements a map takes one by one)."""
    return tf.data.Dataset.from_generator(lambda: iter(source), output_signature=tf.TensorSpec(
        source.shape[1:], tf.as_dtype(source.dtype)))


@pytest.mark.parametrize("fn", [_image_ops, _slices, _shapes, _sampled_crops, _draws],
                         ids=lambda f: f.__name__[1:])
@pytest.mark.parametrize("parallel", [None, tf.data.AUTOTUNE])
def test_chunks_give_each_element_its_own_result(fn, parallel):
    spec = tf.TensorSpec(_IMAGES.shape[1:], tf.uint8)
    assert data_structured_function.traced(fn, "map", spec).chunked() is not None
    tf.random.set_seed(4)
    chunked = tf.data.Dataset.from_tensor_slices(_IMAGES).map(fn, num_parallel_calls=parallel)
    tf.random.set_seed(4)  # (threads mapping elements one by one draw in any order)
    alone = _by_element(_IMAGES).map(fn)
    for ds in (lambda d: d, lambda d: d.batch(10), lambda d: d.batch(8, drop_remainder=True),
               lambda d: d.take(3)):
        got, want = _elements(ds(chunked)), _elements(ds(alone))
        assert len(got) == len(want)
        for a, b in zip(tf.nest.flatten(got), tf.nest.flatten(want)):
            assert a.dtype == b.dtype and a.shape == b.shape
            np.testing.assert_allclose(a, b, rtol=1e-6)


@pytest.mark.parametrize("fn", [_image_ops, _slices, _shapes, _sampled_crops, _draws],
                         ids=lambda f: f.__name__[1:])
def test_a_chunk_runs_at_once(fn):
    # (a chunk that failed would be mapped element by element: the values alone don't tell)
    spec = tf.TensorSpec(_IMAGES.shape[1:], tf.uint8)
    tf.random.set_seed(4)
    chunk = data_structured_function.traced(fn, "map", spec).chunked()(_IMAGES)
    tf.random.set_seed(4)
    alone = data_structured_function.traced(fn, "map", spec)
    rows = [alone((im,)) for im in _IMAGES]
    for i, a in enumerate(chunk):
        want = np.stack([row[i] for row in rows])
        assert a.dtype == want.dtype and a.shape == want.shape
        np.testing.assert_allclose(a, want, rtol=1e-6)


def _checked(x):
    tf.debugging.assert_less(x, tf.constant(5, tf.int64))
    return x * 10 + tf.random.uniform([], 0, 10, tf.int64)


def _checked_image(im):
    tf.debugging.assert_less(im[0, 0, 0], tf.constant(200, tf.uint8))
    return tf.image.random_crop(im, (4, 4, 3))


def test_a_failing_element_fails_alone():
    tf.random.set_seed(8)
    ds = tf.data.Dataset.range(9).map(_checked)
    with pytest.raises(errors.InvalidArgumentError, match="assertion failed|Condition x < y"):
        _elements(ds)
    it = iter(ds)
    assert [int(next(it)) // 10 for _ in range(5)] == [0, 1, 2, 3, 4]
    with pytest.raises(errors.InvalidArgumentError):
        next(it)
    # the failing elements' draws are not lost: the others draw what they draw one by one
    tf.random.set_seed(8)
    skipped = _elements(tf.data.Dataset.range(9).map(_checked).ignore_errors())
    tf.random.set_seed(8)
    source = _by_element(np.arange(9, dtype=np.int64))
    assert skipped == _elements(source.map(_checked).ignore_errors())
    assert [int(v) // 10 for v in skipped] == [0, 1, 2, 3, 4]


def test_a_failing_element_fails_its_batch_alone():
    images = augment_cases.IMAGES[:20].copy()
    images[:, 0, 0, 0] = 0
    images[13, 0, 0, 0] = 250
    tf.random.set_seed(1)
    ds = tf.data.Dataset.from_tensor_slices(images).map(_checked_image).batch(5)
    it = iter(ds)
    first = [next(it).numpy() for _ in range(2)]
    with pytest.raises(errors.InvalidArgumentError):
        next(it)
    tf.random.set_seed(1)
    alone = _by_element(images).map(_checked_image).batch(5)
    want = [b.numpy() for b in alone.take(2)]
    np.testing.assert_array_equal(np.stack(first), np.stack(want))
    tf.random.set_seed(1)
    kept = _elements(tf.data.Dataset.from_tensor_slices(images).map(_checked_image)
                     .ignore_errors().batch(5))
    tf.random.set_seed(1)
    want = _elements(_by_element(images).map(_checked_image).ignore_errors().batch(5))
    np.testing.assert_array_equal(np.concatenate(kept), np.concatenate(want))


def test_effects_stay_element_by_element():
    counter = tf.Variable(0, dtype=tf.int64)

    def count(x):
        counter.assign_add(1)
        return x + counter.read_value()
    spec = tf.TensorSpec([], tf.int64)
    assert data_structured_function.traced(count, "map", spec).chunked() is None
    got = [int(v) for v in tf.data.Dataset.range(4).map(count).batch(2).unbatch()]
    assert got == [1, 3, 5, 7]


def test_each_iteration_draws_from_the_start():
    # as in TF: the dataset's functions start again with each iterator (a repeat goes on)
    tf.random.set_seed(6)
    ds = tf.data.Dataset.range(5).map(lambda x: tf.random.uniform([], 0, 1000, tf.int64))
    first = [int(v) for v in ds]
    assert [int(v) for v in ds.take(2)] == first[:2]
    assert [int(v) for v in ds] == first
    again = [int(v) for v in ds.repeat(2)]
    assert again[:5] == first and again[5:] != first

    @tf.function
    def loop():
        out = tf.constant(0, tf.int64)
        for v in ds:
            out = out * 1000 + v
        return out
    code = sum(v * 1000 ** (4 - i) for i, v in enumerate(first))
    assert int(loop()) == int(loop()) == code  # (each call iterates anew, as TF's)
    assert int(ds.reduce(tf.constant(0, tf.int64), lambda a, v: a * 1000 + v)) == code


def test_restoring_a_mapped_batch_iterator_skips_without_mapping(tmp_path, monkeypatch):
    mapped = []
    chunked = data_structured_function.StructuredFunction.chunked

    def counted(self):
        run = chunked(self)
        return None if run is None else lambda *arrays: (mapped.append(len(arrays[0])),
                                                          run(*arrays))[1]
    monkeypatch.setattr(data_structured_function.StructuredFunction, "chunked", counted)
    ds = tf.data.Dataset.range(40).map(lambda x: x * 2).batch(4)
    it = iter(ds)
    ckpt = tf.train.Checkpoint(iterator=it)
    assert [b.numpy().tolist() for b in (next(it), next(it))] == [[0, 2, 4, 6], [8, 10, 12, 14]]
    path = ckpt.save(str(tmp_path / "ckpt"))
    next(it)
    mapped.clear()
    ckpt.restore(path)
    assert next(it).numpy().tolist() == [16, 18, 20, 22]
    assert mapped == []  # (the two batches before the position were skipped unmapped)


def test_elements_of_differing_shapes_map_and_fail_to_batch_as_in_tf():
    def crop(im):
        return tf.slice(im, [0, 0, 0], tf.stack([tf.cast(im[0, 0, 0] % 3, tf.int32) + 1, 2, 3]))
    ds = tf.data.Dataset.from_tensor_slices(_IMAGES[:6]).map(crop)
    got = [x.numpy() for x in ds]
    assert [x.shape for x in got] == [(int(im[0, 0, 0]) % 3 + 1, 2, 3) for im in _IMAGES[:6]]
    for x, im in zip(got, _IMAGES[:6]):
        np.testing.assert_array_equal(x, im[:x.shape[0], :2])
    # (TF fuses a map and the batch after it: that kernel's text)
    with pytest.raises(errors.InvalidArgumentError, match=re.escape(
            "Cannot add tensor to the batch: number of elements does not match. Shapes are: "
            "[tensor]: [")):
        list(ds.batch(6))
    with pytest.raises(errors.InvalidArgumentError, match="Cannot batch tensors with different "
                       "shapes in component 0. First element had shape"):
        list(ds.cache().batch(6))
