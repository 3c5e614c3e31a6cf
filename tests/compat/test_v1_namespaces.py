"""TF 1 namespaces that are other names of TF 2 functions (tf.compat.v1.spectral, .manip, ...)."""
import numpy as np

import eagerflow as tf

v1 = tf.compat.v1


def test_spectral_is_tf_signal():
    x = tf.constant([1.0, 2.0, 0.5, -1.0])
    np.testing.assert_allclose(v1.spectral.rfft(x).numpy(), np.fft.rfft(x.numpy()), rtol=1e-6)
    np.testing.assert_allclose(v1.spectral.dct(x).numpy(), tf.signal.dct(x).numpy())
    assert v1.spectral.irfft2d is tf.signal.irfft2d


def test_manip_holds_the_shape_functions():
    x = tf.reshape(tf.range(6), [2, 3])
    assert v1.manip.roll(x, 1, axis=1).numpy().tolist() == [[2, 0, 1], [5, 3, 4]]
    assert v1.manip.tile(x[:1], [2, 1]).numpy().tolist() == [[0, 1, 2], [0, 1, 2]]
    assert v1.manip.reverse(x, [0]).numpy().tolist() == [[3, 4, 5], [0, 1, 2]]
    assert v1.manip.gather_nd(x, [[1, 2]]).numpy().tolist() == [5]
    assert v1.manip.scatter_nd([[1]], [7], [3]).numpy().tolist() == [0, 7, 0]
    assert v1.manip.reshape(x, [-1]).shape == (6,)
    batched = v1.manip.space_to_batch_nd(tf.ones([1, 2, 2, 1]), [2, 2], [[0, 0], [0, 0]])
    assert batched.shape == (4, 1, 1, 1)
    assert v1.manip.batch_to_space_nd(batched, [2, 2], [[0, 0], [0, 0]]).shape == (1, 2, 2, 1)


def test_fake_quant_and_asset_under_their_tf1_names():
    x = tf.constant([-7.0, 0.3, 7.0])
    np.testing.assert_array_equal(
        v1.fake_quant_with_min_max_args(x).numpy(),
        tf.quantization.fake_quant_with_min_max_args(x).numpy())
    assert v1.fake_quant_with_min_max_vars_per_channel is \
        tf.quantization.fake_quant_with_min_max_vars_per_channel
    assert v1.saved_model.Asset is tf.saved_model.Asset
