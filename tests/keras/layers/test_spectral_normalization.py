"""`SpectralNormalization` normalizes the wrapped kernel as tf_keras 2.21 does (the values
below are what it printed for the same program)."""
import numpy as np
import pytest

import eagerflow as tf

L = tf.keras.layers


def test_training_call_normalizes_the_kernel_as_tf_keras():
    tf.keras.utils.set_random_seed(0)
    sn = L.SpectralNormalization(L.Dense(3), power_iterations=2)
    x = np.arange(8, dtype="float32").reshape(2, 4) / 8
    np.testing.assert_allclose(sn(x).numpy(), [[-0.1349118, 0.3960784, 0.00701233],
                                               [-0.54337084, 0.8327669, 0.15350628]],
                               rtol=1e-5)
    assert [(w.name, w.shape.as_list(), w.trainable) for w in sn.weights] == [
        ("spectral_normalization/kernel:0", [4, 3], True),
        ("spectral_normalization/bias:0", [3], True),
        ("spectral_normalization/vector_u:0", [1, 3], False)]
    y = sn(x, training=True).numpy()
    np.testing.assert_allclose(y, [[-0.1280648, 0.37597677, 0.00665644],
                                   [-0.51579386, 0.7905026, 0.14571556]], rtol=1e-5)
    np.testing.assert_allclose(sn.layer.kernel.numpy()[0], [0.0275679, -0.3356053, 0.5956809],
                               rtol=1e-5)
    np.testing.assert_allclose(sn.vector_u.numpy(), [[-0.06820042, 0.94993496, -0.30491367]],
                               rtol=1e-5)
    # two power iterations estimate the largest singular value: now close to one
    assert abs(np.linalg.svd(sn.layer.kernel.numpy(), compute_uv=False)[0] - 1) < 0.1


def test_a_fit_step_and_a_zero_kernel():
    tf.keras.utils.set_random_seed(0)
    x = np.arange(8, dtype="float32").reshape(2, 4) / 8
    model = tf.keras.Sequential([tf.keras.Input((4,)), L.SpectralNormalization(L.Dense(3)),
                                 L.Dense(1)])
    model.compile("sgd", "mse")
    history = model.fit(x, np.ones((2, 1)), epochs=3, verbose=0).history["loss"]
    np.testing.assert_allclose(history, [3.8717804, 2.1382434, 1.6599016], rtol=1e-5)
    again = tf.keras.models.model_from_json(model.to_json())
    assert type(again.layers[0]).__name__ == "SpectralNormalization"
    assert again.layers[0].power_iterations == 1
    zero = L.SpectralNormalization(L.Dense(2, kernel_initializer="zeros"))
    zero(x)
    vector_u = zero.vector_u.numpy()
    np.testing.assert_array_equal(zero(x, training=True).numpy(), np.zeros((2, 2)))
    np.testing.assert_array_equal(zero.vector_u.numpy(), vector_u)  # left as it was


def test_convolutions_embeddings_and_bad_arguments():
    conv = L.SpectralNormalization(L.Conv2D(2, 2))
    assert conv(np.ones((1, 3, 3, 1), "float32"), training=True).shape == (1, 2, 2, 2)
    assert conv.vector_u.shape == (1, 2)
    emb = L.SpectralNormalization(L.Embedding(5, 2))
    emb(np.array([[1, 2]]), training=True)
    assert [w.name.split("/")[-1] for w in emb.weights] == ["embeddings:0", "vector_u:0"]
    with pytest.raises(ValueError, match="ReLU object has no attribute 'kernel' nor "
                                         "'embeddings'"):
        L.SpectralNormalization(L.ReLU())(np.ones((1, 2), "float32"))
    with pytest.raises(ValueError, match="`power_iterations` should be greater than zero"):
        L.SpectralNormalization(L.Dense(2), power_iterations=0)
