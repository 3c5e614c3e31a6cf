"""tf.edit_distance against TF's recorded values."""
import numpy as np
import pytest

import eagerflow as tf


def test_values():
    hyp = tf.SparseTensor([[0, 0, 0], [1, 0, 0]], ["a", "b"], (2, 1, 1))
    truth = tf.SparseTensor([[0, 1, 0], [1, 0, 0], [1, 0, 1], [1, 1, 0]], ["a", "b", "c", "a"],
                            (2, 2, 2))
    out = tf.edit_distance(hyp, truth)
    assert out.shape == (2, 2) and out.dtype == tf.float32
    np.testing.assert_array_equal(out, [[np.inf, 1.0], [0.5, 1.0]])
    np.testing.assert_array_equal(tf.edit_distance(hyp, truth, normalize=False), np.ones((2, 2)))
    h = tf.sparse.from_dense(tf.constant([[1, 2, 3, 0], [4, 5, 0, 0]]))
    t = tf.sparse.from_dense(tf.constant([[1, 3, 3, 0], [0, 0, 0, 0]]))
    np.testing.assert_allclose(tf.edit_distance(h, t), [1 / 3, np.inf])
    np.testing.assert_array_equal(tf.edit_distance(h, t, normalize=False), [1.0, 2.0])
    np.testing.assert_array_equal(tf.edit_distance(h, h), [0.0, 0.0])


def test_errors():
    h = tf.sparse.from_dense(tf.constant([[1]]))
    with pytest.raises(TypeError, match="Hypothesis must be a SparseTensor"):
        tf.edit_distance(tf.constant([[1]]), h)
    with pytest.raises(TypeError, match="same dtype"):
        tf.edit_distance(h, tf.sparse.from_dense(tf.constant([[1.0]])))
