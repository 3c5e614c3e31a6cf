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
    # (TF's op checks the dtypes, as for any op)
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match="input #4.*expected to be a int32 tensor but is a float tensor"):
        tf.edit_distance(h, tf.sparse.from_dense(tf.constant([[1.0]])))
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"matching ranks, but their shapes are: \[2\] and \[3\]"):
        tf.edit_distance(tf.sparse.from_dense(tf.constant([[[1]]])), h)


@pytest.mark.parametrize("spec", [tf.SparseTensorSpec([2, 4], tf.int32),
                                  tf.SparseTensorSpec([None, None], tf.int32)])
def test_in_functions(spec):
    @tf.function(input_signature=[spec, spec])
    def distance(h, t):
        out = tf.edit_distance(h, t)
        assert out.shape.rank is None  # (TF's: the dense shapes are not constants)
        return out, tf.edit_distance(h, t, normalize=False)

    h = tf.sparse.from_dense(tf.constant([[1, 2, 3, 0], [4, 5, 0, 0]]))
    t = tf.sparse.from_dense(tf.constant([[1, 3, 3, 0], [0, 0, 0, 0]]))
    normalized, plain = distance(h, t)
    np.testing.assert_allclose(normalized, [1 / 3, np.inf])
    np.testing.assert_array_equal(plain, [1.0, 2.0])


def test_static_shape_from_dense_shapes_known_before_run_time():
    @tf.function(input_signature=[tf.TensorSpec([2, 4], tf.int32),
                                  tf.TensorSpec([None, 4], tf.int32)])
    def shapes(a, b):
        h, t = tf.sparse.from_dense(a), tf.sparse.from_dense(b)
        c = tf.SparseTensor([[0, 0, 1]], [1], [3, 2, 5])
        # as TF's: known where both dense shapes are
        assert tf.edit_distance(h, h).shape == (2,)
        assert tf.edit_distance(h, t).shape.rank is None
        assert tf.edit_distance(c, c).shape == (3, 2)
        return tf.edit_distance(h, t)

    np.testing.assert_array_equal(shapes(np.ones((2, 4), np.int32),
                                         np.ones((2, 4), np.int32)), [0.0, 0.0])
