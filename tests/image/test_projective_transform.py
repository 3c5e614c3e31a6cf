"""tf.raw_ops.ImageProjectiveTransformV3 (the resampling of TF's random rotation, zoom and
translation layers in TF's SavedModels): its gradient is TF's, recorded with TF 2.21."""
import numpy as np

import eagerflow as tf

_TRANSFORMS = np.array([[0.9, -0.4, 1.5, 0.4, 0.9, -0.7, 0.0, 0.0],
                        [1.3, 0.2, -2.0, -0.1, 0.9, 3.1, 0.01, -0.02]], np.float32)
# TF's gradient of sum(y * y): the output gradient resampled through the inverse transforms
_GRAD = [0.7538660764694214, 0.46056702733039856, 0.7221065759658813, 0.7934584617614746,
         1.2749998569488525, 1.2500001192092896, 1.5000001192092896, 1.728063702583313,
         1.1760306358337402, 1.6809279918670654, 2.2608249187469482, 2.5593953132629395,
         3.4751555919647217, 3.867267608642578, 3.9343438148498535, 3.734088897705078,
         4.293198585510254, 4.724714279174805, 4.936798572540283, 4.869716644287109,
         5.10079288482666, 5.295112609863281, 5.461164951324463, 5.439113616943359]


def _transformed(images):
    return tf.raw_ops.ImageProjectiveTransformV3(
        images=images, transforms=_TRANSFORMS, output_shape=[3, 4], fill_value=-1.0,
        interpolation="BILINEAR", fill_mode="REFLECT")


def test_gradient_is_tfs_inverse_resampling_eagerly_and_in_a_function():
    images = tf.constant(np.arange(24, dtype=np.float32).reshape(2, 3, 4, 1) / 8)

    def grad(x):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = _transformed(x)
            loss = tf.reduce_sum(y * y)
        return tape.gradient(loss, x)

    for fn in (grad, tf.function(grad)):
        out = fn(images)
        assert out.shape == (2, 3, 4, 1)
        np.testing.assert_allclose(out.numpy().ravel(), _GRAD, rtol=1e-5, atol=1e-6)


def test_unknown_output_size_in_a_function():
    @tf.function(input_signature=[tf.TensorSpec([None, None, None, 1]), tf.TensorSpec([2],
                                                                                     tf.int32)])
    def fn(x, size):
        out = tf.raw_ops.ImageProjectiveTransformV3(
            images=x, transforms=_TRANSFORMS[:1], output_shape=size, fill_value=0.0,
            interpolation="NEAREST", fill_mode="NEAREST")
        assert out.shape.as_list() == [None, None, None, 1]
        return out

    out = fn(tf.ones([2, 3, 4, 1]), tf.constant([5, 2]))
    assert out.shape == (2, 5, 2, 1)
    np.testing.assert_array_equal(out.numpy(), np.ones((2, 5, 2, 1), np.float32))


def test_v2_fills_with_zero_and_has_tfs_gradient():
    # TF 2.21's gradient of sum(ImageProjectiveTransformV2(x)) (BILINEAR, CONSTANT)
    grad_of_sum = [0.0, 0.8247, 1.0, 1.0, 0.2487, 1.0, 1.0, 1.0, 0.0, 0.2887, 0.701, 1.0,
                   0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0449, 0.1453, 0.1811, 0.0]
    images = tf.constant(np.arange(24, dtype=np.float32).reshape(2, 3, 4, 1) / 8)
    with tf.GradientTape() as tape:
        tape.watch(images)
        y = tf.raw_ops.ImageProjectiveTransformV2(
            images=images, transforms=_TRANSFORMS, output_shape=[3, 4],
            interpolation="BILINEAR")
    np.testing.assert_allclose(tape.gradient(y, images).numpy().ravel(), grad_of_sum,
                               atol=1e-4)
    v3 = tf.raw_ops.ImageProjectiveTransformV3(
        images=images, transforms=_TRANSFORMS, output_shape=[3, 4], fill_value=0.0,
        interpolation="BILINEAR")
    np.testing.assert_array_equal(y, v3)
    assert tf.raw_ops.ImageProjectiveTransformV2(
        images=tf.cast(images, tf.uint8), transforms=_TRANSFORMS, output_shape=[3, 4],
        interpolation="NEAREST").dtype == tf.uint8
