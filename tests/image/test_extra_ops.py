"""tf.image.sample_distorted_bounding_box and its stateless twin, decode_and_crop_jpeg and
extract_glimpse: TF's values (recorded by record_tf_extra.py), TF's errors, and the ops
inside functions and pipelines."""
import numpy as np
import pytest

import eagerflow as tf
from eagerflow import errors
from tests.image import extra_cases
from tests.image.tf_data import load

TF = load("extra")
_ONE = [[[0.1, 0.2, 0.5, 0.9]]]


@pytest.mark.parametrize("name", sorted(extra_cases.CASES))
def test_values_are_tensorflows(name):
    got = extra_cases.CASES[name](tf)
    assert len(got) == len(TF[name])
    for g, w in zip(got, TF[name]):
        assert g.dtype.as_numpy_dtype == w.dtype and g.shape == w.shape
        if name == "decode_and_crop_jpeg-rgb.jpg":
            # TF decodes only the window: at its edges the chroma it upsamples from the
            # window alone differs by a unit or two from the whole image's decoding
            assert np.abs(g.numpy().astype(int) - w).max() <= 2
        else:
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


_JPEG = tf.io.encode_jpeg(np.random.default_rng(0).integers(0, 256, (37, 45, 3), dtype=np.uint8))


@pytest.mark.parametrize("window, channels", [([0, 0, 37, 45], 0), ([3, 5, 10, 20], 0),
                                              ([3, 5, 10, 20], 1), ([36, 44, 1, 1], 3)])
def test_decode_and_crop_is_the_decoded_window(window, channels):
    y, x, h, w = window
    want = tf.io.decode_jpeg(_JPEG, channels=channels)[y:y + h, x:x + w]
    got = tf.image.decode_and_crop_jpeg(_JPEG, window, channels=channels)
    np.testing.assert_array_equal(got.numpy(), want.numpy())


@pytest.mark.parametrize("contents, window, message", [
    (_JPEG, [0, 0, 38, 45], "jpeg::Uncompress failed. Invalid JPEG data or crop window."),
    (_JPEG, [-1, 0, 3, 3], "jpeg::Uncompress failed. Invalid JPEG data or crop window."),
    (_JPEG, [0, 0, 0, 3], "jpeg::Uncompress failed. Invalid JPEG data or crop window."),
    (_JPEG, [1, 2, 3], "crop_size must have four elements [3]"),
    (_JPEG, [[1, 2, 3, 4]], "crop_window must be 1-D, got shape [1,4]"),
    (tf.io.encode_png(tf.zeros([4, 4, 3], tf.uint8)), [0, 0, 2, 2],
     "DecodeAndCropJpeg operation can run on JPEG only, but detected PNG."),
    (b"", [0, 0, 2, 2], "Input is empty."),
    (b"garbage", [0, 0, 2, 2], "Unknown image file format."),
])
def test_decode_and_crop_errors_are_tfs(contents, window, message):
    with pytest.raises(errors.InvalidArgumentError) as info:
        tf.image.decode_and_crop_jpeg(contents, window)
    assert message in str(info.value) and "DecodeAndCropJpeg" in str(info.value)


def test_decode_and_crop_in_a_function_and_a_map():
    fn = tf.function(lambda data, window: tf.image.decode_and_crop_jpeg(data, window, 3))
    concrete = fn.get_concrete_function(tf.TensorSpec([], tf.string), tf.TensorSpec([4], tf.int32))
    assert concrete.outputs[0].shape.as_list() == [None, None, 3]
    windows = np.array([[0, 0, 5, 6], [3, 4, 5, 6], [30, 38, 5, 6]], np.int32)
    ds = tf.data.Dataset.from_tensor_slices(([_JPEG.numpy()] * 3, windows)).map(
        lambda data, window: tf.image.decode_and_crop_jpeg(data, window)).batch(3)
    got = next(iter(ds)).numpy()
    for g, window in zip(got, windows):  # (each the eager decoding of its window)
        np.testing.assert_array_equal(g, tf.image.decode_and_crop_jpeg(_JPEG, window).numpy())


_IMAGES = np.arange(2 * 7 * 9 * 2, dtype=np.float32).reshape(2, 7, 9, 2)


@pytest.mark.parametrize("kwargs, message", [
    ({"input": _IMAGES[0]}, "input must be 4-dimensional (batch_size, height, width, depth)"
                            "[7,9,2]"),
    ({"size": [3]}, "input must be a vector of size 2 (height, width)[1]"),
    ({"offsets": [[0.0, 0.0]]}, "first dimension should be batch[1,2]"),
    ({"offsets": [[0.0, 0.0, 1.0], [0.3, -0.5, 1.0]]}, "second dimension should be of size 2 "
                                                       "(y,x)[2,3]"),
    ({"size": [-3, 4]}, "Expected a non-negative size, got -3"),
    ({"noise": "bad"}, "The noise could only be uniform, gaussian, or zero, gotbad"),
])
def test_glimpse_errors_are_tfs(kwargs, message):
    args = {"input": _IMAGES, "size": [3, 4], "offsets": [[0.0, 0.0], [0.3, -0.5]], **kwargs}
    with pytest.raises(errors.InvalidArgumentError) as info:
        tf.image.extract_glimpse(**args)
    assert message in str(info.value) and "ExtractGlimpseV2" in str(info.value)


@pytest.mark.parametrize("noise", ["uniform", "gaussian"])
def test_glimpse_noise_fills_what_is_off_the_image(noise):
    # the window's top-left quarter lies on the image, the rest is noise within its values
    got = tf.image.extract_glimpse(_IMAGES, [6, 6], [[0.9, 0.9], [0.9, 0.9]], noise=noise)
    zero = tf.image.extract_glimpse(_IMAGES, [6, 6], [[0.9, 0.9], [0.9, 0.9]], noise="zero")
    inside = zero.numpy() != 0
    np.testing.assert_array_equal(got.numpy()[inside], zero.numpy()[inside])
    for image, glimpse in zip(_IMAGES, got.numpy()):
        outside = glimpse[~inside[0]]
        assert outside.size and image.min() <= outside.min() and outside.max() <= image.max()


def test_glimpse_has_no_gradient_and_static_shapes():
    x = tf.constant(_IMAGES)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.image.extract_glimpse(x, [3, 4], [[0.0, 0.0], [0.3, -0.5]], noise="zero")
    with pytest.raises(LookupError, match="gradient registry has no entry for: ExtractGlimpseV2"):
        tape.gradient(y, x)
    fn = tf.function(lambda a, o: tf.image.extract_glimpse(a, [3, 4], o))
    concrete = fn.get_concrete_function(tf.TensorSpec([None, 7, 9, 2]), tf.TensorSpec([None, 2]))
    assert concrete.outputs[0].shape.as_list() == [None, 3, 4, 2]
    np.testing.assert_array_equal(
        concrete(x, tf.constant([[0.0, 0.0], [0.3, -0.5]])).numpy(), TF[
            "extract_glimpse-centered-normalized"][0])


def test_padded_nms_of_a_batch_of_any_size():
    fn = tf.function(lambda b, s: tf.image.non_max_suppression_padded(
        b, s, 5, 0.5, 0.1, pad_to_max_output_size=True), input_signature=[
        tf.TensorSpec([None, None, 4]), tf.TensorSpec([None, None])])
    indices, counts = fn.get_concrete_function().outputs
    assert indices.shape.as_list() == [None, 5] and counts.shape.as_list() == [None]
    for n in (1, 3):  # the same as with the batch known
        want = tf.image.non_max_suppression_padded(
            extra_cases.NMS_BOXES[:n], extra_cases.NMS_SCORES[:n], 5, 0.5, 0.1,
            pad_to_max_output_size=True)
        got = fn(extra_cases.NMS_BOXES[:n], extra_cases.NMS_SCORES[:n])
        for g, w in zip(got, want):
            np.testing.assert_array_equal(g.numpy(), w.numpy())
    with pytest.raises(errors.UnimplementedError, match="TensorFlow has no op for it"):
        fn.get_concrete_function().graph.as_graph_def()


def test_padded_nms_in_a_batched_map():
    ds = tf.data.Dataset.from_tensor_slices((extra_cases.NMS_BOXES, extra_cases.NMS_SCORES))
    ds = ds.batch(2).map(lambda b, s: tf.image.non_max_suppression_padded(
        b, s, 4, 0.5, pad_to_max_output_size=True))
    got = np.concatenate([indices.numpy() for indices, _ in ds])
    want = tf.image.non_max_suppression_padded(extra_cases.NMS_BOXES, extra_cases.NMS_SCORES, 4,
                                               0.5, pad_to_max_output_size=True)[0]
    np.testing.assert_array_equal(got, want.numpy())


def test_padded_nms_at_iou_threshold_zero_suppresses_nothing_as_tfs():
    # recorded from TF: its tiled suppression keeps every box at threshold 0
    boxes = np.array([[0, 0, 1, 1], [0, 0, 1, 0.5], [0, 0, 2, 2], [3, 3, 4, 4]], np.float32)
    scores = np.array([0.9, 0.8, 0.7, 0.95], np.float32)
    for threshold, want, count in [(float("-inf"), [3, 0, 1, 2], 4), (0.75, [3, 0, 1, 0], 3)]:
        indices, valid = tf.image.non_max_suppression_padded(
            boxes, scores, 4, 0.0, threshold, pad_to_max_output_size=True)
        assert indices.numpy().tolist() == want and int(valid) == count
    fn = tf.function(lambda b, s: tf.image.non_max_suppression_padded(
        b, s, 4, 0.0, pad_to_max_output_size=True), input_signature=[
        tf.TensorSpec([None, None, 4]), tf.TensorSpec([None, None])])
    assert fn(boxes[None], scores[None])[0].numpy().tolist() == [[3, 0, 1, 2]]
    indices, _ = tf.image.non_max_suppression_padded(boxes, scores, 4, 0.3,
                                                     pad_to_max_output_size=True)
    assert indices.numpy().tolist() == [3, 0, 2, 0]
