"""Bad input to the colour, metric and suppression ops of ``tf.image`` raises TF's errors."""
import re

import numpy as np
import pytest

import eagerflow as tf
from eagerflow import errors

RGB = tf.zeros([2, 2, 3])


@pytest.mark.parametrize("fn, cls, message", [
    (lambda: tf.image.adjust_hue(tf.zeros([2, 2]), 0.1), errors.InvalidArgumentError,
     "input must be at least 3-D, got shape[2,2] [Op:AdjustHue]"),
    (lambda: tf.image.adjust_hue(tf.zeros([2, 2, 4]), 0.1), errors.InvalidArgumentError,
     "input must have 3 channels but instead has 4 channels. [Op:AdjustHue]"),
    (lambda: tf.image.adjust_hue(RGB, 2.0), ValueError, "delta must be in the interval [-1, 1]"),
    (lambda: tf.image.adjust_saturation(tf.zeros([2, 2, 4]), 0.1), errors.InvalidArgumentError,
     "input must have 3 channels but instead has 4 channels. [Op:AdjustSaturation]"),
    (lambda: tf.image.adjust_contrast(RGB, [0.1, 0.2]), errors.InvalidArgumentError,
     "contrast_factor must be scalar: [2] [Op:AdjustContrastv2]"),
    (lambda: tf.image.adjust_contrast(tf.zeros([2, 2, 3], tf.float16), 0.1),
     errors.NotFoundError, "Could not find device for node: {{node AdjustContrastv2}}"),
    (lambda: tf.image.adjust_saturation(RGB, tf.constant(0.5, tf.float64)),
     errors.InvalidArgumentError, "cannot compute AdjustSaturation as input #1(zero-based) was "
     "expected to be a float tensor but is a double tensor [Op:AdjustSaturation]"),
    (lambda: tf.image.adjust_contrast(RGB, tf.constant(0.5, tf.float64)),
     errors.InvalidArgumentError, "input #1(zero-based) was expected to be a float tensor"),
    (lambda: tf.image.adjust_gamma(RGB, tf.constant(-2.0)), errors.InvalidArgumentError,
     "Summarized data: b'Gamma should be a non-negative real number.'"),
    (lambda: tf.image.rgb_to_hsv(tf.zeros([2, 4])), errors.FailedPreconditionError,
     "input must have 3 channels but input only has 4 channels. [Op:RGBToHSV]"),
    (lambda: tf.image.rgb_to_hsv(tf.zeros([2, 3], tf.int32)), errors.InvalidArgumentError,
     "Value for attr 'T' of int32 is not in the list of allowed values: half, bfloat16, "
     "float, double"),
    (lambda: tf.image.rgb_to_yuv(tf.ones([2, 2, 3], tf.int32)), TypeError,
     "to EagerTensor of dtype int32"),
    (lambda: tf.image.grayscale_to_rgb(RGB), ValueError,
     "Last dimension of a grayscale image should be size 1."),
    (lambda: tf.image.per_image_standardization(tf.zeros([2, 2])), ValueError,
     "'image' (shape (2, 2)) must be at least three-dimensional."),
    (lambda: tf.image.random_brightness(RGB, -1.0), ValueError,
     "max_delta must be non-negative."),
    (lambda: tf.image.random_contrast(RGB, 0.5, 0.4), ValueError, "upper must be > lower."),
    (lambda: tf.image.stateless_random_saturation(RGB, -0.5, 0.4, (1, 2)), ValueError,
     "lower must be non-negative."),
    (lambda: tf.image.random_hue(RGB, 0.6), ValueError, "max_delta must be <= 0.5."),
    (lambda: tf.image.adjust_gamma(RGB, -1), ValueError,
     "Gamma should be a non-negative real number."),
    (lambda: tf.image.total_variation(tf.zeros([2, 2])), ValueError,
     "'images' must be either 3 or 4-dimensional."),
    (lambda: tf.image.image_gradients(RGB), ValueError,
     "image_gradients expects a 4D tensor [batch_size, h, w, d], not (2, 2, 3)."),
    (lambda: tf.image.psnr(tf.zeros([4, 4, 3]), tf.zeros([4, 5, 3]), 1.0),
     errors.InvalidArgumentError, "Incompatible shapes: [4,4,3] vs. [4,5,3]"),
    (lambda: tf.image.ssim(tf.zeros([2, 11, 11, 3]), tf.zeros([3, 11, 11, 3]), 1.0),
     ValueError, "Two images are not compatible: (2, 11, 11, 3) and (3, 11, 11, 3)"),
    (lambda: tf.image.ssim(tf.zeros([5, 5, 1]), tf.zeros([5, 5, 1]), 1.0),
     errors.InvalidArgumentError, "Summarized data: 5, 5, 1\n11"),
    (lambda: tf.image.non_max_suppression(tf.zeros([3, 3]), tf.zeros([3]), 2),
     errors.InvalidArgumentError,
     "boxes must have 4 columns (Dimension must be 4 but is 3) [Op:NonMaxSuppressionV3]"),
    (lambda: tf.image.non_max_suppression(tf.zeros([3, 4]), tf.zeros([4]), 2),
     errors.InvalidArgumentError,
     "scores has incompatible shape (Dimensions must be equal, but are 3 and 4)"),
    (lambda: tf.image.non_max_suppression(tf.zeros([3, 4]), tf.zeros([3]), -1),
     errors.InvalidArgumentError, "output size must be non-negative"),
    (lambda: tf.image.non_max_suppression(tf.zeros([3, 4]), tf.zeros([3]), [2, 3]),
     errors.InvalidArgumentError, "max_output_size must be 0-D, got shape [2]"),
    (lambda: tf.image.non_max_suppression(tf.zeros([3, 4]), tf.zeros([3]), 2, 1.5),
     errors.InvalidArgumentError, "iou_threshold must be in [0, 1]"),
    (lambda: tf.image.non_max_suppression(tf.zeros([3, 4], tf.float64),
                                          tf.zeros([3], tf.float64), 2),
     errors.InvalidArgumentError, "Value for attr 'T' of double is not in the list"),
    (lambda: tf.image.non_max_suppression(tf.zeros([3, 4]), tf.zeros([3], tf.float16), 2),
     errors.InvalidArgumentError, "was expected to be a float tensor but is a half tensor"),
    (lambda: tf.image.non_max_suppression_with_scores(tf.zeros([3, 4]), tf.zeros([3]), 2,
                                                      soft_nms_sigma=-1.0),
     errors.InvalidArgumentError, "soft_nms_sigma_val must be >= 0"),
    (lambda: tf.image.non_max_suppression_padded(tf.zeros([2, 3, 4]), tf.zeros([2, 3]), 2),
     ValueError, "'pad_to_max_output_size' (value False) must be True for batched input"),
    (lambda: tf.image.combined_non_max_suppression(tf.zeros([2, 6, 2, 4]), tf.zeros([2, 6, 3]),
                                                   2, 5),
     errors.InvalidArgumentError, "third dimension of boxes must be either 1 or num classes"),
    (lambda: tf.image.combined_non_max_suppression(tf.zeros([2, 6, 1, 4]), tf.zeros([2, 6, 3]),
                                                   2, 0),
     errors.InvalidArgumentError, "max_total_size must be > 0 [Op:CombinedNonMaxSuppression]"),
    (lambda: tf.image.combined_non_max_suppression(tf.zeros([2, 6, 1, 4]), tf.zeros([2, 5, 3]),
                                                   2, 3),
     errors.InvalidArgumentError, "scores has incompatible shape"),
])
def test_eager_errors(fn, cls, message):
    with pytest.raises(cls) as info:
        fn()
    assert type(info.value) is cls
    assert message in str(info.value)


@pytest.mark.parametrize("fn, shape, message", [
    (lambda x: tf.image.rgb_to_hsv(x), [2, 4],
     "Dimension must be 3 but is 4 for '{{node RGBToHSV}} = RGBToHSV[T=DT_FLOAT](x)' with "
     "input shapes: [2,4]."),
    (lambda x: tf.image.adjust_hue(x, 0.1), [2, 2], "Shape must be at least rank 3 but is rank 2"),
    (lambda x: tf.image.adjust_contrast(x, 0.1), [2, 2],
     "Shape must be at least rank 3 but is rank 2"),
])
def test_traced_shape_errors(fn, shape, message):
    traced = tf.function(fn, input_signature=[tf.TensorSpec(shape)])
    with pytest.raises(ValueError, match=None) as info:
        traced.get_concrete_function()
    assert message in str(info.value)


def test_traced_factor_of_another_dtype_is_refused_as_the_graph_is_built():
    traced = tf.function(lambda x, f: tf.image.adjust_saturation(x, f),
                         input_signature=[tf.TensorSpec([2, 2, 3]), tf.TensorSpec([], tf.float64)])
    with pytest.raises(TypeError, match="Input 'scale' of 'AdjustSaturation' Op has type "
                                        "float64 that does not match expected type of float32."):
        traced.get_concrete_function()


def test_traced_channel_count_of_adjustments_is_checked_when_they_run():
    traced = tf.function(lambda x: tf.image.adjust_hue(x, 0.1),
                         input_signature=[tf.TensorSpec([2, 2, 4])])
    with pytest.raises(errors.InvalidArgumentError, match="input must have 3 channels"):
        traced(tf.zeros([2, 2, 4]))


def test_traced_shapes():
    boxes, scores = tf.TensorSpec([None, 4]), tf.TensorSpec([None])
    padded = tf.function(lambda b, s: tf.image.non_max_suppression_padded(
        b, s, 3, pad_to_max_output_size=True), input_signature=[tf.TensorSpec([5, 4]),
                                                                tf.TensorSpec([5])])
    indices, count = padded.get_concrete_function().structured_outputs
    assert indices.shape.as_list() == [3] and count.shape.as_list() == []
    with_scores = tf.function(lambda b, s: tf.image.non_max_suppression_with_scores(b, s, 3),
                              input_signature=[boxes, scores])
    indices, kept = with_scores.get_concrete_function().structured_outputs
    assert indices.shape.as_list() == [None] and kept.dtype == tf.float32
    combined = tf.function(lambda b, s: tf.image.combined_non_max_suppression(b, s, 2, 5),
                           input_signature=[tf.TensorSpec([None, None, 1, 4]),
                                            tf.TensorSpec([None, None, 3])])
    assert [o.shape.as_list() for o in combined.get_concrete_function().structured_outputs] == [
        [None, 5, 4], [None, 5], [None, 5], [None]]
    sobel = tf.function(tf.image.sobel_edges, input_signature=[tf.TensorSpec([None, 8, 8, 3])])
    assert sobel.get_concrete_function().structured_outputs.shape.as_list() == [None, 8, 8, 3, 2]


def test_empty_inputs():
    assert tf.image.rgb_to_hsv(tf.zeros([0, 3])).shape == [0, 3]
    assert tf.image.adjust_hue(tf.zeros([0, 2, 3]), 0.1).shape == [0, 2, 3]
    selected = tf.image.non_max_suppression(tf.zeros([0, 4]), tf.zeros([0]), 3)
    assert selected.shape == [0] and selected.dtype == tf.int32
    indices, kept = tf.image.non_max_suppression_with_scores(tf.zeros([0, 4]), tf.zeros([0]), 3)
    assert indices.shape == [0] and kept.shape == [0]


def test_python_lists_convert_as_tf_does():
    # boxes given as integers are float32, as TF's op takes them
    np.testing.assert_array_equal(
        tf.image.non_max_suppression([[0, 0, 1, 1], [0, 0, 1, 1]], [1, 2], 2), [1])
    out = tf.image.adjust_brightness([[[0.1, 0.2, 0.3]]], 0.1)
    assert out.dtype == tf.float32
    out = tf.image.adjust_brightness([[[1, 2, 3]]], 0.1)
    assert out.dtype == tf.int32


def test_second_order_gradient_of_rgb_to_hsv():
    x = tf.constant([[0.2, 0.5, 0.9], [0.7, 0.1, 0.3]], tf.float64)
    with tf.GradientTape() as outer:
        outer.watch(x)
        with tf.GradientTape() as inner:
            inner.watch(x)
            y = tf.reduce_sum(tf.image.rgb_to_hsv(x) ** 2)
        g = inner.gradient(y, x)
        z = tf.reduce_sum(g * g)
    h = outer.gradient(z, x)
    assert h is not None and np.all(np.isfinite(h.numpy()))


@pytest.mark.parametrize("fn, op", [
    (lambda x: tf.image.adjust_contrast(x, 2.0), "AdjustContrastv2"),
    (lambda x: tf.image.adjust_hue(x, 0.1), "AdjustHue"),
    (lambda x: tf.image.random_saturation(x, 0.5, 1.5), "AdjustSaturation"),
    (lambda x: tf.image.non_max_suppression_with_scores(
        tf.concat([x[0], x[0, :, :1]], -1), x[0, :, 0], 1)[1], "NonMaxSuppressionV5"),
])
def test_ops_tf_gives_no_gradient_raise_its_lookup_error(fn, op):
    x = tf.constant([[[0.1, 0.5, 0.9]]])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.reduce_sum(fn(x))
    with pytest.raises(LookupError, match=f"gradient registry has no entry for: {op}$"):
        tape.gradient(y, x)


def test_hsv_to_rgb_is_not_differentiable():
    x = tf.constant([[0.1, 0.5, 0.9]])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.reduce_sum(tf.image.hsv_to_rgb(x))
    assert tape.gradient(y, x) is None


@pytest.mark.parametrize("convert", [tf.image.rgb_to_hsv, tf.image.hsv_to_rgb])
def test_conversions_traced_give_three_channels_where_unknown(convert):
    # TF's shape function sets the channels it checks (they stayed unknown)
    traced = tf.function(convert, input_signature=[tf.TensorSpec([None, None, None, None])])
    assert traced.get_concrete_function().structured_outputs.shape.as_list() == \
        [None, None, None, 3]


@pytest.mark.parametrize("shape, text", [([2, 8, 8, 3], "[2,8,8,3]"),
                                         ([None, 8, 8, 3], "[?,8,8,3]"),
                                         ([8, 20, 1], "[1,8,20,1]")])
def test_ssim_traced_on_images_smaller_than_its_filter(shape, text):
    # TF's filter refuses them as the graph is built (eagerly, its Assert fails first)
    traced = tf.function(lambda x: tf.image.ssim(x, x, 1.0),
                         input_signature=[tf.TensorSpec(shape)])
    with pytest.raises(ValueError, match=re.escape(
            f"Negative dimension size caused by subtracting 11 from 8 for '{{{{node "
            f"SSIM/depthwise}}}} = DepthwiseConv2dNative")) as info:
        traced.get_concrete_function()
    assert f"with input shapes: {text}, [11,11,?,1]." in str(info.value)
