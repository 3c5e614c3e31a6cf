"""`keras.utils.warmstart_embedding_matrix` gives tf_keras 2.21's matrices (printed by it for
the same calls)."""
import numpy as np

import eagerflow as tf

warmstart = tf.keras.utils.warmstart_embedding_matrix


def test_known_terms_keep_their_rows_new_ones_come_from_the_initializer():
    base = np.arange(12, dtype="float32").reshape(4, 3)
    new = -np.arange(21, dtype="float32").reshape(7, 3)
    got = warmstart(tf.constant(["unk", "a", "b", "c"]),
                    tf.constant(["unk", "unk", "a", "b", "c", "d", "e"]), base,
                    tf.keras.initializers.Constant(new))
    assert isinstance(got, tf.Tensor) and got.dtype == tf.float32
    np.testing.assert_array_equal(got.numpy(), np.concatenate([base[[0, 0, 1, 2, 3]],
                                                               new[5:]]))
    np.testing.assert_array_equal(warmstart(["x", "y"], ["y", "z", "x"], base[:2], "zeros"),
                                  [[3, 4, 5], [0, 0, 0], [0, 1, 2]])


def test_the_initializer_draws_as_tf_keras_and_the_dtype_is_kept():
    tf.keras.utils.set_random_seed(1)
    got = warmstart(["x", "y"], ["y", "z"], np.arange(6.0).reshape(2, 3), "uniform")
    assert got.dtype == tf.float64
    np.testing.assert_allclose(got.numpy(), [[3.0, 4.0, 5.0],
                                             [-0.01395785, -0.0128011, -0.03245017]],
                               rtol=1e-6)
