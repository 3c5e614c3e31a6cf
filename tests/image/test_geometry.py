"""tf.image's resizing, crops, pads, flips, rotations, dtype conversion, patches and
crop_and_resize against TensorFlow's recorded outputs (eager, in `function`, with unknown
dims), and TF's errors."""
import numpy as np
import pytest

import eagerflow as tf
from eagerflow import errors
from tests.image import geometry_cases
from tests.image.geometry_cases import image
from tests.image.tf_data import assert_matches, load, outputs

TF = load("geometry")
CASES = sorted(geometry_cases.CASES)
# Seeded stateful ops draw per op instance: run eagerly, as recorded.
TRACEABLE = [c for c in CASES if "random" not in c]


def _check(name, result):
    want = TF[name]
    got = outputs(result)
    assert len(got) == len(want)
    for g, w in zip(got, want):
        assert_matches(g, w, name=name)


@pytest.mark.parametrize("name", CASES)
def test_matches_tf_eagerly(name):
    _check(name, geometry_cases.CASES[name](tf))


@pytest.mark.parametrize("name", TRACEABLE)
def test_matches_tf_in_function(name):
    _check(name, tf.function(lambda: geometry_cases.CASES[name](tf))())


_X3, _X4 = image(5, 7, 2), image(3, 5, 7, 2)
_UNKNOWN_DIMS = {
    "resize": lambda x: tf.image.resize(x, [3, 4]),
    "resize-nearest": lambda x: tf.image.resize(x, [3, 4], "nearest"),
    "resize-bicubic": lambda x: tf.image.resize(x, [6, 9], "bicubic"),
    "resize-area": lambda x: tf.image.resize(x, [3, 4], "area"),
    "resize-lanczos3": lambda x: tf.image.resize(x, [3, 4], "lanczos3"),
    "resize-antialias": lambda x: tf.image.resize(x, [3, 4], antialias=True),
    "resize-aspect": lambda x: tf.image.resize(x, [6, 6], preserve_aspect_ratio=True),
    "resize-aspect-gaussian": lambda x: tf.image.resize(x, [6, 6], "gaussian",
                                                        preserve_aspect_ratio=True),
    "flip_left_right": tf.image.flip_left_right,
    "flip_up_down": tf.image.flip_up_down,
    "rot90": lambda x: tf.image.rot90(x, 3),
    "transpose": tf.image.transpose,
    "central_crop": lambda x: tf.image.central_crop(x, 0.5),
    "crop_to_bounding_box": lambda x: tf.image.crop_to_bounding_box(x, 1, 2, 3, 4),
    "pad_to_bounding_box": lambda x: tf.image.pad_to_bounding_box(x, 1, 2, 8, 10),
    "resize_with_crop_or_pad-wide": lambda x: tf.image.resize_with_crop_or_pad(x, 3, 10),
    "resize_with_crop_or_pad-tall": lambda x: tf.image.resize_with_crop_or_pad(x, 8, 4),
    "resize_with_pad": lambda x: tf.image.resize_with_pad(x, 8, 10),
    "convert_image_dtype": lambda x: tf.image.convert_image_dtype(x, tf.uint8),
    "stateless_random_crop": lambda x: tf.image.stateless_random_crop(
        x, [2, 3, 2] if x.shape.rank == 3 else [2, 2, 3, 2], seed=(1, 2)),
    "stateless_random_flip_left_right": lambda x: tf.image.stateless_random_flip_left_right(
        x, seed=(3, 4)),
}


@pytest.mark.parametrize("name", sorted(_UNKNOWN_DIMS))
@pytest.mark.parametrize("x", [_X3, _X4], ids=["3d", "4d"])
def test_unknown_dims_in_function_give_the_eager_values(name, x):
    fn = _UNKNOWN_DIMS[name]
    traced = tf.function(fn, input_signature=[tf.TensorSpec([None] * x.ndim, tf.float32)])
    np.testing.assert_allclose(traced(tf.constant(x)), fn(tf.constant(x)), rtol=1e-6)


@pytest.mark.parametrize("flip", [tf.image.flip_left_right, tf.image.flip_up_down])
def test_flips_of_unknown_rank_in_function(flip):
    traced = tf.function(flip, input_signature=[tf.TensorSpec(None, tf.float32)])
    for x in (_X3, _X4):
        np.testing.assert_array_equal(traced(tf.constant(x)), flip(x))


@pytest.mark.parametrize("x", [_X3, _X4], ids=["3d", "4d"])
def test_rot90_by_a_run_time_k(x):
    # k drawn in a function (as augmentations do) is known only when the function runs
    rotate = tf.function(lambda x, k: tf.image.rot90(x, k),
                         input_signature=[tf.TensorSpec(x.shape, tf.float32),
                                          tf.TensorSpec([], tf.int32)])
    for k in range(-2, 6):
        np.testing.assert_array_equal(rotate(x, k), np.rot90(x, k, axes=(x.ndim - 3, x.ndim - 2)))
    static = [None, None, 2] if x.ndim == 3 else [3, None, None, 2]
    assert rotate.get_concrete_function().outputs[0].shape.as_list() == static
    x = tf.constant(x)
    with tf.GradientTape() as tape:
        tape.watch(x)
        loss = tf.reduce_sum(rotate(x, tf.constant(3)) ** 2)
    np.testing.assert_allclose(tape.gradient(loss, x), 2 * x.numpy(), rtol=1e-6)


@pytest.mark.parametrize("fn, static", [
    (lambda x: tf.image.crop_to_bounding_box(x, 1, 2, 3, 4), [3, 4, None]),
    (lambda x: tf.image.pad_to_bounding_box(x, 1, 2, 8, 10), [8, 10, None]),
    (lambda x: tf.image.resize_with_crop_or_pad(x, 3, 10), [3, 10, None]),
    (lambda x: tf.image.resize_with_pad(x, 8, 10), [8, 10, None]),
], ids=["crop", "pad", "crop_or_pad", "resize_with_pad"])
def test_images_of_unknown_rank_are_taken_as_3d(fn, static):
    traced = tf.function(fn, input_signature=[tf.TensorSpec(None, tf.float32)])
    np.testing.assert_allclose(traced(_X3), fn(_X3), rtol=1e-6)
    assert traced.get_concrete_function().outputs[0].shape.as_list() == static


def _loss_grad(fn, x):
    with tf.GradientTape() as tape:
        tape.watch(x)
        loss = tf.reduce_sum(tf.square(fn(x)))
    return tape.gradient(loss, x)


@pytest.mark.parametrize("fn", [
    lambda x: tf.image.resize(x, [3, 9]),
    lambda x: tf.image.resize(x, [3, 9], "nearest"),
    lambda x: tf.image.resize(x, [3, 9], "bicubic"),
    lambda x: tf.image.resize(x, [3, 9], "mitchellcubic"),
    lambda x: tf.image.extract_patches(x, [1, 2, 3, 1], [1, 2, 1, 1], [1, 1, 2, 1], "SAME"),
    lambda x: tf.image.crop_and_resize(x, [[0.1, 0.2, 0.8, 0.9]], [1], [3, 3]),
], ids=["bilinear", "nearest", "bicubic", "mitchellcubic", "extract_patches",
        "crop_and_resize"])
def test_gradients_with_unknown_dims_in_function(fn):
    x = tf.constant(image(2, 5, 7, 2))
    traced = tf.function(lambda x: _loss_grad(fn, x),
                         input_signature=[tf.TensorSpec([None] * 4, tf.float32)])
    np.testing.assert_allclose(traced(x), _loss_grad(fn, x), rtol=1e-5, atol=1e-6)


def test_static_shapes_in_function():
    @tf.function(input_signature=[tf.TensorSpec([None, None, None, 3], tf.uint8)])
    def fn(x):
        return (tf.image.resize(x, [4, 5]), tf.image.resize(x, [4, 5], "nearest"),
                tf.image.crop_to_bounding_box(x, 0, 0, 2, 2), tf.image.random_crop(
                    x[0], [2, 2, 3]), tf.image.pad_to_bounding_box(x, 0, 0, 9, 9))
    shapes = [(t.shape.as_list(), t.dtype) for t in fn.get_concrete_function().outputs]
    assert shapes == [([None, 4, 5, 3], tf.float32), ([None, 4, 5, 3], tf.uint8),
                      ([None, 2, 2, 3], tf.uint8), ([2, 2, 3], tf.uint8),
                      ([None, 9, 9, 3], tf.uint8)]


def test_variables_are_images():
    v = tf.Variable(_X4)
    np.testing.assert_allclose(tf.image.resize(v, [2, 3]), tf.image.resize(_X4, [2, 3]))
    np.testing.assert_array_equal(tf.image.flip_left_right(v), _X4[:, :, ::-1])
    np.testing.assert_array_equal(tf.image.rot90(v, 2), _X4[:, ::-1, ::-1])
    assert tf.image.central_crop(v, 0.5).shape == (3, 3, 5, 2)


def test_lists_are_images():
    assert tf.image.flip_up_down([[[1], [2]], [[3], [4]]]).numpy()[:, :, 0].tolist() == \
        [[3, 4], [1, 2]]
    assert tf.image.resize([[[1.0]]], [2, 2]).numpy().tolist() == [[[1.0], [1.0]],
                                                                  [[1.0], [1.0]]]


def test_empty_batches_resize_to_empty_batches():
    for method in ("bilinear", "nearest", "bicubic", "area", "lanczos3"):
        assert tf.image.resize(tf.ones([0, 4, 4, 1]), [2, 3], method).shape == (0, 2, 3, 1)


def test_second_derivative_of_bicubic_resize():
    # TF defines no gradient of ResizeBicubicGrad; it is linear, so its gradient is the resize
    x = tf.constant(image(1, 4, 5, 1))
    with tf.GradientTape() as outer:
        outer.watch(x)
        with tf.GradientTape() as inner:
            inner.watch(x)
            y = tf.reduce_sum(tf.image.resize(x, [7, 3], "bicubic") ** 2)
        total = tf.reduce_sum(inner.gradient(y, x))
    hessian_vector = outer.gradient(total, x)
    # d/dx sum(2 R^T R x) = 2 R^T R 1
    ones = tf.ones_like(x)
    with tf.GradientTape() as tape:
        tape.watch(ones)
        r = tf.image.resize(ones, [7, 3], "bicubic")
    want = tape.gradient(r, ones, output_gradients=2 * r)
    np.testing.assert_allclose(hessian_vector, want, rtol=1e-5, atol=1e-6)


def test_antialiased_resize_of_float64_images_has_their_gradient():
    x = tf.constant(image(1, 6, 5, 1).astype(np.float64))
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.image.resize(x, [3, 4], "lanczos3", antialias=True)
    got = tape.gradient(y, x, output_gradients=tf.ones_like(y))
    with tf.GradientTape() as tape:
        x32 = tf.cast(x, tf.float32)
        tape.watch(x32)
        y = tf.image.resize(x32, [3, 4], "lanczos3", antialias=True)
    want = tape.gradient(y, x32, output_gradients=tf.ones_like(y))
    assert got.dtype == tf.float64
    np.testing.assert_allclose(got, want, rtol=1e-6)


def test_resize_method_names():
    assert tf.image.ResizeMethod.BILINEAR == "bilinear"
    assert tf.image.ResizeMethod.NEAREST_NEIGHBOR == "nearest"
    out = tf.image.resize(_X3, [2, 2], tf.image.ResizeMethod.LANCZOS5)
    np.testing.assert_allclose(out, tf.image.resize(_X3, [2, 2], "lanczos5"))


def test_resize_keeps_non_finite_values_local():
    x = np.ones((1, 4, 4, 1), np.float32)
    x[0, 0, 0, 0] = np.nan
    out = tf.image.resize(x, [8, 8], "nearest").numpy()
    assert np.isnan(out[0, :2, :2]).all() and not np.isnan(out[0, 2:, 2:]).any()


_ERRORS = [
    (lambda: tf.compat.v1.image.resize_bilinear(tf.ones([1, 4, 4, 1]), [0, 3]),
     errors.InvalidArgumentError, "output dimensions must be positive"),
    (lambda: tf.compat.v1.image.resize_bilinear(tf.ones([1, 4, 4, 1]), [2, 3], True,
                                                half_pixel_centers=True),
     errors.InvalidArgumentError, "If half_pixel_centers is True, align_corners must be False"),
    (lambda: tf.image.resize(tf.ones([4, 4]), [2, 2]), ValueError,
     "'images' must have either 3 or 4 dimensions."),
    (lambda: tf.image.resize(tf.ones([1, 4, 4, 1]), [2, 2], method="foo"), ValueError,
     "Resize method is not implemented: foo"),
    (lambda: tf.image.resize(tf.ones([1, 4, 4, 1]), [2, 2, 2]), ValueError,
     "'size' must be a 1-D Tensor of 2 elements: new_height, new_width"),
    (lambda: tf.image.resize(tf.ones([1, 4, 4, 1]), [2.5, 2]), ValueError,
     "'size' must be a 1-D int32 Tensor"),
    (lambda: tf.image.resize(tf.ones([0, 4, 1]), [2, 2]), errors.InvalidArgumentError,
     "input image must be of non-zero size"),
    (lambda: tf.image.resize(tf.ones([4, 4, 0]), [2, 2], "lanczos3"),
     errors.InvalidArgumentError, "image must have at least one channel"),
    (lambda: tf.image.resize(tf.ones([4, 4, 1], tf.bool), [2, 2]), errors.InvalidArgumentError,
     "Value for attr 'T' of bool is not in the list of allowed values"),
    (lambda: tf.image.flip_left_right(tf.ones([4, 4])), ValueError,
     r"'image' \(shape \(4, 4\)\) must be at least three-dimensional."),
    (lambda: tf.image.flip_left_right(tf.ones([1, 1, 4, 4, 1])), ValueError,
     "must have either 3 or 4 dimensions"),
    (lambda: tf.image.flip_left_right(tf.ones([0, 4, 1])), ValueError,
     r"inner 3 dims of 'image.shape' must be > 0: \(0, 4, 1\)"),
    (lambda: tf.image.crop_to_bounding_box(tf.ones([4, 4, 1]), -1, 0, 2, 2), ValueError,
     "offset_height must be >= 0."),
    (lambda: tf.image.crop_to_bounding_box(tf.ones([4, 4, 1]), 3, 0, 2, 2), ValueError,
     "height must be >= target [+] offset."),
    (lambda: tf.image.crop_to_bounding_box(tf.ones([4, 4, 1]), 0, 0, 0, 2), ValueError,
     "target_height must be > 0."),
    (lambda: tf.image.crop_to_bounding_box(tf.ones([4, 4, 1]), tf.constant(3), 0, 2, 2),
     errors.InvalidArgumentError, "height must be >= target [+] offset."),
    (lambda: tf.image.pad_to_bounding_box(tf.ones([4, 4, 1]), -1, 0, 6, 6), ValueError,
     "offset_height must be >= 0"),
    (lambda: tf.image.pad_to_bounding_box(tf.ones([4, 4, 1]), 1, 0, 4, 6), ValueError,
     "height must be <= target - offset"),
    (lambda: tf.image.pad_to_bounding_box(tf.ones([4, 4, 1]), tf.constant(3), 0, 6, 6),
     errors.InvalidArgumentError, "height must be <= target - offset"),
    (lambda: tf.image.central_crop(tf.ones([4, 4, 1]), 0.0), ValueError,
     r"central_fraction must be within \(0, 1\]"),
    (lambda: tf.image.central_crop(tf.ones([4, 4, 1]), 1.5), ValueError,
     r"central_fraction must be within \(0, 1\]"),
    (lambda: tf.image.rot90(tf.ones([4, 4, 1]), [1]), ValueError,
     r"Shape \(1,\) must have rank 0"),
    (lambda: tf.image.convert_image_dtype(tf.ones([4, 4, 1]), tf.bool), AttributeError,
     "dtype must be either floating point or integer"),
    (lambda: tf.image.convert_image_dtype(tf.constant(["a"]), tf.float32), AttributeError,
     "image dtype must be either floating point or integer"),
    (lambda: tf.image.resize_with_crop_or_pad(tf.ones([4, 4, 1]), 0, 3), ValueError,
     "target_height must be > 0."),
    (lambda: tf.image.resize_with_pad(tf.ones([4, 4, 1]), 0, 3), ValueError,
     "target_height must be > 0."),
    (lambda: tf.image.random_crop(tf.ones([4, 4, 1]), [5, 4, 1]), errors.InvalidArgumentError,
     "Need value.shape >= size, got"),
    (lambda: tf.image.random_crop(tf.ones([4, 4, 1]), [4, 4]), errors.InvalidArgumentError,
     r"Incompatible shapes: \[3\] vs. \[2\]"),
    (lambda: tf.image.transpose(tf.ones([4, 4])), ValueError,
     "must be at least three-dimensional"),
    (lambda: tf.image.extract_patches(tf.ones([4, 4, 1]), [1, 2, 2, 1], [1, 1, 1, 1],
                                      [1, 1, 1, 1], "VALID"),
     errors.InvalidArgumentError, r"input must be 4-dimensional\[4,4,1\]"),
    (lambda: tf.image.extract_patches(tf.ones([1, 4, 4, 1]), [1, 2, 2, 1], [1, 1, 1, 1],
                                      [1, 1, 1, 1], "FOO"),
     errors.InvalidArgumentError, "Value for attr 'padding' of \"FOO\" is not in the list"),
    (lambda: tf.image.extract_patches(tf.ones([1, 4, 4, 1]), [2, 2, 2, 1], [1, 1, 1, 1],
                                      [1, 1, 1, 1], "VALID"),
     errors.UnimplementedError, "Only support ksizes across space."),
    (lambda: tf.image.extract_patches(tf.ones([1, 4, 4, 1]), [2, 2, 1], [1, 1, 1, 1],
                                      [1, 1, 1, 1], "VALID"),
     errors.InvalidArgumentError, "Length for attr 'ksizes' of 3 must be at least minimum 4"),
    (lambda: tf.image.draw_bounding_boxes(tf.ones([1, 4, 4, 2]), [[[0., 0., 1., 1.]]], [[1.]]),
     errors.InvalidArgumentError, r"Channel depth should be either 1 \(GRY\), 3 \(RGB\), or 4"),
    (lambda: tf.image.draw_bounding_boxes(tf.ones([1, 4, 4, 3]), [[[0., 0., 1., 1.]]],
                                          [[1., 0.]]),
     errors.InvalidArgumentError, "colors must have equal or more channels than the image"),
    (lambda: tf.image.draw_bounding_boxes(tf.ones([2, 4, 4, 3]), [[[0., 0., 1., 1.]]],
                                          [[1., 0., 0.]]),
     errors.InvalidArgumentError, "The batch sizes should be the same"),
    (lambda: tf.image.draw_bounding_boxes(tf.ones([1, 4, 4, 3], tf.uint8), [[[0., 0., 1., 1.]]],
                                          [[1., 0., 0.]]),
     errors.InvalidArgumentError, "Value for attr 'T' of uint8 is not in the list"),
    (lambda: tf.image.crop_and_resize(tf.ones([1, 4, 4, 1]), [[0., 0., 1., 1.]], [1], [2, 2]),
     errors.OutOfRangeError, r"box_index has values outside \[0, batch_size\)"),
]


@pytest.mark.parametrize("fn, error, message", _ERRORS, ids=lambda v: "")
def test_errors_are_tfs(fn, error, message):
    with pytest.raises(error, match=message):
        fn()


def test_run_time_checks_in_function():
    crop = tf.function(lambda x, offset: tf.image.crop_to_bounding_box(x, offset, 0, 2, 2))
    with pytest.raises(errors.InvalidArgumentError, match="height must be >= target [+] offset"):
        crop(tf.ones([4, 4, 1]), tf.constant(3))
    random_crop = tf.function(lambda x: tf.image.random_crop(x, [5, 4, 1]),
                              input_signature=[tf.TensorSpec([None, None, 1])])
    with pytest.raises(errors.InvalidArgumentError, match="Need value.shape >= size, got"):
        random_crop(tf.ones([4, 4, 1]))


def test_v1_resize_needs_a_batch():
    with pytest.raises(errors.InvalidArgumentError, match=r"input must be 4-dimensional\[4,4,1\]"):
        tf.compat.v1.image.resize_bilinear(tf.ones([4, 4, 1]), [2, 2])


def test_seeded_flips_follow_the_global_seed():
    tf.random.set_seed(1)
    first = [tf.image.random_flip_left_right(image(8, 2, 3, 1), seed=2) for _ in range(3)]
    tf.random.set_seed(1)
    again = [tf.image.random_flip_left_right(image(8, 2, 3, 1), seed=2) for _ in range(3)]
    for a, b in zip(first, again):
        np.testing.assert_array_equal(a, b)


def test_v1_resize_images_aligns_pixel_corners():
    x = tf.reshape(tf.range(4.0), [1, 2, 2, 1])
    # TF 1's bilinear resize maps corners, not centers: [0, 1] to 4 columns is 0, .5, 1, 1
    out = tf.compat.v1.image.resize_images(x, [2, 4])
    np.testing.assert_allclose(out[0, 0, :, 0], [0.0, 0.5, 1.0, 1.0])
    assert tf.compat.v1.image.resize(x, [2, 4]).shape == (1, 2, 4, 1)
    aligned = tf.compat.v1.image.resize_images(x[0], [3, 3], align_corners=True)
    np.testing.assert_allclose(aligned[:, :, 0], [[0, 0.5, 1], [1, 1.5, 2], [2, 2.5, 3]])
    near = tf.compat.v1.image.resize_images(
        tf.ones([2, 2, 1], tf.uint8), [3, 3], tf.compat.v1.image.ResizeMethod.NEAREST_NEIGHBOR)
    assert near.dtype == tf.uint8
    same = tf.ones([2, 2, 1], tf.uint8)
    assert tf.compat.v1.image.resize_images(same, [2, 2]).dtype == tf.uint8  # not resized
    with pytest.raises(ValueError, match="Resize method is not implemented: 7"):
        tf.compat.v1.image.resize_images(x, [2, 2], method=7)


def test_area_resize_has_no_gradient_as_in_tf():
    x = tf.ones([1, 2, 2, 1])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.image.resize(x, [3, 3], method="area")
    with pytest.raises(LookupError, match="^gradient registry has no entry for: ResizeArea$"):
        tape.gradient(y, x)


def test_drawing_boxes_has_no_gradient_as_in_tf():
    x = tf.ones([1, 4, 4, 3])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.image.draw_bounding_boxes(x, [[[0.1, 0.1, 0.5, 0.5]]], [[1.0, 0.0, 0.0]])
    with pytest.raises(LookupError, match="no entry for: DrawBoundingBoxesV2$"):
        tape.gradient(y, x)


def test_resize_with_pad_of_unknown_sizes_in_a_function_as_tf():
    # In TF's function 10 / (10 / 6.0) is 5.9999995 (the division by 6.0 is a product by its
    # reciprocal), so an 8x10 image is resized to 4x5 and padded on the right; eagerly to 4x6.
    image = np.arange(80, dtype=np.float32).reshape(1, 8, 10, 1)
    traced = tf.function(lambda x: tf.image.resize_with_pad(x, 6, 6),
                         input_signature=[tf.TensorSpec([None, None, None, 1], tf.float32)])
    out = traced(image).numpy()[0, :, :, 0]
    assert out.shape == (6, 6)
    np.testing.assert_array_equal(out[:, 5], 0)
    np.testing.assert_array_equal(out[4:], 0)
    np.testing.assert_allclose(out[:4, :5], tf.image.resize(image, [4, 5])[0, :, :, 0])
    assert np.all(tf.image.resize_with_pad(image, 6, 6)[0, :4, :, 0] > 0)  # eager: 4x6


def test_v1_resize_image_with_pad_resizes_as_resize_images():
    # values recorded from TensorFlow 2.21
    x = np.arange(12, dtype=np.float32).reshape(3, 4, 1)
    aligned = tf.compat.v1.image.resize_image_with_pad(x, 4, 6, align_corners=True)
    np.testing.assert_allclose(aligned[..., 0], [
        [0.0, 0.75, 1.5, 2.25, 3.0, 0.0], [2.6667, 3.4167, 4.1667, 4.9167, 5.6667, 0.0],
        [5.3333, 6.0833, 6.8333, 7.5833, 8.3333, 0.0], [8.0, 8.75, 9.5, 10.25, 11.0, 0.0]],
        atol=1e-4)
    nearest = tf.compat.v1.image.resize_image_with_pad(
        x, 5, 3, method=tf.compat.v1.image.ResizeMethod.NEAREST_NEIGHBOR)
    np.testing.assert_array_equal(nearest[..., 0], [[0, 0, 0], [0, 1, 2], [4, 5, 6], [0, 0, 0],
                                                    [0, 0, 0]])


def test_resize_with_pad_of_unknown_sizes_keeps_tfs_values_on_repeated_calls():
    # the program specialized to a repeated shape runs the same products as the generic one
    image = np.arange(80, dtype=np.float32).reshape(1, 8, 10, 1)
    traced = tf.function(lambda x: tf.image.resize_with_pad(x, 6, 6),
                         input_signature=[tf.TensorSpec([None, None, None, 1], tf.float32)])
    first = traced(image).numpy()
    for _ in range(3):
        np.testing.assert_array_equal(traced(image), first)
    np.testing.assert_array_equal(first[0, :, 5, 0], 0)
