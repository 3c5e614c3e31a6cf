"""crop_and_resize's input checks: TF's classes, messages and order."""
import numpy as np
import pytest

import eagerflow as tf

_IM = np.zeros((2, 4, 4, 1), np.float32)
_PREFIX = ("{{function_node __wrapped__CropAndResize_device_/job:localhost/replica:0/task:0/"
           "device:CPU:0}} ")


def _crop(image, boxes, indices, size):
    return tf.image.crop_and_resize(image, tf.constant(boxes, tf.float32),
                                    tf.constant(indices, tf.int32), size)


@pytest.mark.parametrize("image, boxes, indices, size, cls, text", [
    (_IM, [[0, 0, 1, 1]], [2], [2, 2], tf.errors.OutOfRangeError,
     "box_index has values outside [0, batch_size)"),
    (_IM, [[0, 0, 1, 1]], [-1], [2, 2], tf.errors.OutOfRangeError,
     "box_index has values outside [0, batch_size)"),
    (_IM, [[0, 0, np.inf, 1]], [0], [2, 2], tf.errors.InvalidArgumentError,
     "Boxes contains at least one element that is not finite"),
    (_IM, [[0, 0, np.nan, 1]], [5], [2, 2], tf.errors.OutOfRangeError,
     "box_index has values outside [0, batch_size)"),
    (np.zeros((2, 0, 4, 1), np.float32), [[0, 0, 1]], [[0]], [2, 2],
     tf.errors.InvalidArgumentError, "image dimensions must be positive"),
    (_IM, [0, 0, 1, 1], [[0]], [2, 2], tf.errors.InvalidArgumentError,
     "boxes must be 2-D, got: [4]"),
    (_IM, [[0, 0, 1]], [[0]], [2, 2], tf.errors.InvalidArgumentError,
     "box_indices must be rank 1 but is shape [1,1]"),
    (_IM, [[0, 0, 1]], [0], [2, 2], tf.errors.InvalidArgumentError,
     "boxes must have 4 columns"),
    (_IM, np.zeros((2, 4)), [0], [2, 2, 3], tf.errors.InvalidArgumentError,
     "box_index has incompatible shape"),
    (_IM, np.zeros((0, 4)), np.zeros(0), [2, 2, 3], tf.errors.InvalidArgumentError,
     "crop_size must have two elements[3]"),
    (_IM, [[0, 0, 1, 1]], [0], tf.constant([[2, 2]]), tf.errors.InvalidArgumentError,
     "crop_size must be 1-D[1,2]"),
])
def test_crop_and_resize_checks(image, boxes, indices, size, cls, text):
    with pytest.raises(cls) as info:
        _crop(image, boxes, indices, size)
    assert type(info.value) is cls
    assert str(info.value).startswith(_PREFIX + text + " [Op:CropAndResize]")


def test_crop_and_resize_error_name_ending_follows_tf_paths():
    # Python lists among the inputs take TF's slower path, whose errors end without the name
    with pytest.raises(tf.errors.OutOfRangeError) as info:
        tf.image.crop_and_resize(_IM, [[0, 0, 1, 1.0]], [3], (2, 2))
    assert str(info.value).endswith("[Op:CropAndResize]")
    with pytest.raises(tf.errors.OutOfRangeError) as info:
        _crop(_IM, [[0, 0, 1, 1]], [3], tf.constant([2, 2]))
    assert str(info.value).endswith("[Op:CropAndResize] name: ")


def test_crop_and_resize_without_boxes_skips_their_columns():
    out = _crop(_IM, np.zeros((0, 3)), np.zeros(0), [1, 2])
    assert out.shape == (0, 1, 2, 1) and out.dtype == tf.float32


def test_v1_takes_the_indices_as_box_ind_too():
    image = np.arange(8, dtype=np.float32).reshape(2, 2, 2, 1)
    want = tf.image.crop_and_resize(image, [[0.0, 0.0, 1.0, 1.0]], [1], (1, 1))
    got = tf.compat.v1.image.crop_and_resize(image, [[0.0, 0.0, 1.0, 1.0]], box_ind=[1],
                                             crop_size=(1, 1))
    np.testing.assert_array_equal(got.numpy(), want.numpy())
    assert want.numpy().ravel().tolist() == [5.5]
    with pytest.raises(ValueError, match="Cannot specify both 'box_ind' and 'box_indices'"):
        tf.compat.v1.image.crop_and_resize(image, [[0.0, 0.0, 1.0, 1.0]], box_ind=[1],
                                           box_indices=[1], crop_size=(1, 1))
