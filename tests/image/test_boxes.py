"""tf.image.sample_distorted_bounding_box and its stateless twin: TF's boxes for the same
seeds (recorded by record_tf_boxes.py), TF's errors, and the sampler inside pipelines."""
import numpy as np
import pytest

import eagerflow as tf
from eagerflow import errors
from tests.image import box_cases
from tests.image.tf_data import load

TF = load("boxes")
_ONE = [[[0.1, 0.2, 0.5, 0.9]]]


@pytest.mark.parametrize("name", sorted(box_cases.CASES))
def test_boxes_are_tensorflows(name):
    got = box_cases.CASES[name](tf)
    assert len(got) == len(TF[name])
    for g, w in zip(got, TF[name]):
        assert g.dtype.as_numpy_dtype == w.dtype
        np.testing.assert_array_equal(g.numpy(), w)


@pytest.mark.parametrize("kwargs, message", [
    ({"image_size": [40, 50]}, "image_size must contain 3 elements[2]"),
    ({"bounding_boxes": [[0.1, 0.2, 0.5, 0.9]]},
     "input boxes must be 3-dimensional [batch, num_boxes, coords]: [1,4]"),
    ({"bounding_boxes": [[[0.1, 0.2, 1.5, 0.9]]]},
     "All bounding box coordinates must be in [0.0, 1.0]: 1.5"),
    ({"bounding_boxes": np.zeros((1, 0, 4), np.float32)},
     "No bounding boxes provided as input. One must enable use_image_if_no_bounding_boxes"),
    ({"area_range": [0.0, 1.0]}, "Area range must be non-negative: [0, 1]"),
    ({"area_range": [0.5, 1.5]}, "Area range must be less then or equal to 1.0: [0.5, 1.5]"),
    ({"aspect_ratio_range": [-1.0, 1.0]}, "Aspect ratio range must be non-negative: [-1, 1]"),
    ({"max_attempts": 0}, "Max attempts must be non-negative: 0"),
    ({"min_object_covered": -1.0}, "Min object covered must be non-negative: -1"),
])
@pytest.mark.parametrize("stateless", [True, False])
def test_bad_arguments_raise_tfs_errors(kwargs, message, stateless):
    args = {"image_size": [40, 50, 3], "bounding_boxes": _ONE, **kwargs}
    op = "StatelessSampleDistortedBoundingBox" if stateless else "SampleDistortedBoundingBoxV2"
    with pytest.raises(errors.InvalidArgumentError) as info:
        if stateless:
            tf.image.stateless_sample_distorted_bounding_box(seed=[1, 2], **args)
        else:
            tf.image.sample_distorted_bounding_box(seed=1, **args)
    assert message in str(info.value) and op in str(info.value)


def test_float_image_size_is_a_dtype_error():
    with pytest.raises(errors.InvalidArgumentError, match="Value for attr 'T' of float is not "
                       "in the list of allowed values: uint8, int8, int16, int32, int64"):
        tf.image.stateless_sample_distorted_bounding_box([40.0, 50, 3], _ONE, seed=[1, 2])


def test_an_unseeded_box_fits_the_image():
    for _ in range(5):
        begin, size, box = tf.image.sample_distorted_bounding_box([40, 50, 3], _ONE)
        (y, x, _), (h, w, c) = begin.numpy(), size.numpy()
        assert 0 <= y and y + h <= 40 and 0 <= x and x + w <= 50 and c == -1
        np.testing.assert_allclose(box.numpy(), [[[y / 40, x / 50, (y + h) / 40, (x + w) / 50]]])


def test_no_seed_under_op_determinism_is_an_error(monkeypatch):
    from tests.internals import config
    monkeypatch.setitem(config._settings, "op_determinism", True)
    with pytest.raises(ValueError, match="requires a non-zero seed"):
        tf.image.sample_distorted_bounding_box([40, 50, 3], _ONE)
    with pytest.raises(ValueError, match='requires "seed" or "seed2" to be non-zero'):
        tf.compat.v1.image.sample_distorted_bounding_box([40, 50, 3], _ONE)


def test_static_shapes_in_a_function():
    @tf.function
    def crop(image, seed):
        begin, size, box = tf.image.stateless_sample_distorted_bounding_box(
            tf.shape(image), _ONE, seed=seed, min_object_covered=0.4)
        assert begin.shape == [3] and size.shape == [3] and box.shape == [1, 1, 4]
        return tf.slice(image, begin, size)
    image = np.arange(20 * 30 * 2, dtype=np.float32).reshape(20, 30, 2)
    np.testing.assert_array_equal(crop(image, tf.constant([4, 4])).numpy(), TF["crop"][0])


def test_sampled_crops_in_a_dataset_map():
    # each element crops where the sampler, run element by element, puts its box
    images = np.arange(6 * 20 * 30 * 2, dtype=np.float32).reshape(6, 20, 30, 2)

    def crop(image, seed):
        begin, size, _ = tf.image.stateless_sample_distorted_bounding_box(
            tf.shape(image), _ONE, seed=seed, min_object_covered=0.4)
        return tf.image.resize(tf.slice(image, begin, size), (8, 8)), size

    seeds = np.arange(12, dtype=np.int64).reshape(6, 2)
    got = list(tf.data.Dataset.from_tensor_slices((images, seeds)).map(crop).batch(4).unbatch())
    for (image, size), im, seed in zip(got, images, seeds):
        want_image, want_size = crop(tf.constant(im), tf.constant(seed))
        np.testing.assert_array_equal(size.numpy(), want_size.numpy())
        np.testing.assert_allclose(image.numpy(), want_image.numpy(), rtol=1e-6)
