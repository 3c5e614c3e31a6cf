"""tf.reverse_sequence, tf.unravel_index and tf.linalg.expm (TF's values, recorded from 2.21)."""
import numpy as np
import pytest

import eagerflow as tf


def test_reverse_sequence_values_gradients_and_errors():
    x = tf.reshape(tf.range(24), [2, 3, 4])
    out = tf.reverse_sequence(x, [1, 2, 3], seq_axis=2, batch_axis=1)
    np.testing.assert_array_equal(out.numpy()[0], [[0, 1, 2, 3], [5, 4, 6, 7], [10, 9, 8, 11]])
    w = tf.constant([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    with tf.GradientTape() as tape:
        tape.watch(w)
        y = tf.reverse_sequence(w, [2, 1], seq_axis=1) * tf.constant([1.0, 2.0, 3.0])
    np.testing.assert_array_equal(tape.gradient(y, w).numpy(), [[2, 1, 3], [1, 2, 3]])
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"seq_lens\(0\) > input.dims\(2\)"):
        tf.reverse_sequence(x, [5, 3], seq_axis=2)
    with pytest.raises(tf.errors.InvalidArgumentError, match="batch_dim == seq_dim == 0"):
        tf.reverse_sequence(x, [2, 3], seq_axis=0)


def test_unravel_index():
    np.testing.assert_array_equal(tf.unravel_index([1, 5, 7], [2, 4]).numpy(),
                                  [[0, 1, 1], [1, 1, 3]])
    assert tf.unravel_index(5, [2, 4]).numpy().tolist() == [1, 1]
    assert tf.unravel_index([-1], [2, 4]).numpy().tolist() == [[0], [-1]]  # C division, as TF
    with pytest.raises(tf.errors.InvalidArgumentError, match="index is out of bound"):
        tf.unravel_index([8], [2, 4])
    with pytest.raises(tf.errors.InvalidArgumentError, match="scalar or vector"):
        tf.unravel_index([[1]], [2, 4])


def test_expm_orders_batches_gradients_and_functions():
    a = np.array([[0.1, 0.2], [0.3, -0.4]], np.float32)
    np.testing.assert_allclose(tf.linalg.expm(a).numpy(), [[1.13356, 0.17568],
                                                           [0.26352, 0.69436]], atol=1e-5)
    np.testing.assert_allclose(tf.linalg.expm(a.astype(np.float64) * 30).numpy(), [
        [345.79616, 115.26539], [172.89808, 57.632693]], rtol=1e-6)
    batch = tf.linalg.expm(np.stack([a, a * 20, a * 0.01]))
    np.testing.assert_allclose(batch.numpy()[1], [[46.79842, 15.59946], [23.39918, 7.79977]],
                               rtol=2e-5)
    v = tf.constant(a * 5)
    with tf.GradientTape() as tape:
        tape.watch(v)
        y = tf.reduce_sum(tf.linalg.expm(v) * tf.constant([[1.0, 2.0], [3.0, 4.0]]))
    np.testing.assert_allclose(tape.gradient(y, v).numpy(), [[6.12316, 4.76662],
                                                             [4.43308, 2.94906]], rtol=1e-4)
    squared = tf.function(tf.linalg.expm)(tf.constant(a * 50))  # squarings in a graph loop
    np.testing.assert_allclose(squared.numpy(), [[18879.842, 6293.2793], [9439.921, 3146.6396]],
                               rtol=2e-5)
    with pytest.raises(tf.errors.InvalidArgumentError, match="square"):
        tf.linalg.expm(tf.ones([2, 3]))


def test_expm_scales_large_norms_as_tf():
    # the number of squarings comes from the highest order's norm limit (not its order):
    # a 1-norm of 48 takes 3 squarings in float64 and 3 in float32 (TF 2.21's values)
    m = np.array([[1.0, 2.0], [3.0, 4.0]]) * 8
    np.testing.assert_allclose(tf.linalg.expm(m).numpy(), [
        [1.1051042627243715e+18, 1.6106089093915809e+18],
        [2.4159133640873738e+18, 3.5210176268117463e+18]], rtol=1e-13)
    np.testing.assert_allclose(tf.linalg.expm(m.astype(np.float32)).numpy(), [
        [1.10541126e+18, 1.61105639e+18], [2.41658445e+18, 3.52199605e+18]], rtol=2e-5)


def test_expm_of_nan_and_empty_matrices_is_tfs():
    got = tf.linalg.expm(tf.constant([[np.nan, 1.0], [1.0, 2.0]], tf.float16))
    assert got.dtype == tf.float16 and np.isnan(got.numpy()).all()
    got = tf.function(tf.linalg.expm)(tf.constant([[[np.inf, 1.0], [1.0, 2.0]],
                                                   [[1.0, 0.0], [0.0, 1.0]]]))
    assert got.shape == (2, 2, 2) and np.isnan(got.numpy()).all()
    for dtype in (tf.bfloat16, tf.int32):
        empty = tf.linalg.expm(tf.zeros([2, 0, 0], dtype))
        assert empty.dtype == dtype and empty.shape == (2, 0, 0)


def test_expm_refuses_the_dtypes_tf_does():
    # (integers failed in an addition, bfloat16 in a solve)
    for dtype in (tf.int32, tf.bfloat16):
        with pytest.raises(ValueError, match=f"^tf.linalg.expm does not support matrices of "
                                             f"type <dtype: '{dtype.name}'>$"):
            tf.linalg.expm(tf.eye(2, dtype=dtype))


def test_reverse_sequence_is_tfs_op_with_its_errors():
    x = tf.reshape(tf.range(12), [3, 4])
    for call, message in [
            (lambda: tf.reverse_sequence(x, [1, 2, 4], seq_axis=-1), "Invalid seq_dim -1"),
            (lambda: tf.reverse_sequence(x, [1, 2, 5], seq_axis=1), r"seq_lens\(2\) > input"),
            (lambda: tf.reverse_sequence(x, [1, 2, -1], seq_axis=1), r"seq_lens\(2\) < 0"),
            (lambda: tf.reverse_sequence(x, [1, 2], seq_axis=1),
             r"Length of seq_lengths != input.dims\(0\), \(2 vs. 3\)")]:
        with pytest.raises(tf.errors.InvalidArgumentError, match=message):
            call()
    fn = tf.function(lambda a, n: tf.reverse_sequence(a, n, seq_axis=1),
                     input_signature=[tf.TensorSpec(None), tf.TensorSpec([None], tf.int32)])
    graph = fn.get_concrete_function().graph
    assert [op.type for op in graph.get_operations()].count("ReverseSequence") == 1
    np.testing.assert_array_equal(fn(tf.reshape(tf.range(8.0), [2, 4]), [1, 3]),
                                  [[0.0, 1.0, 2.0, 3.0], [6.0, 5.0, 4.0, 7.0]])


def test_unravel_index_is_tfs_op_with_its_errors():
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"The indices can only be 1-D"):
        tf.unravel_index(1, [[2, 4]])  # (2-D dims were read as one dim list)
    with pytest.raises(tf.errors.InvalidArgumentError, match="contains zero at index 0"):
        tf.unravel_index(1, [0, 4])
    np.testing.assert_array_equal(tf.unravel_index(-1, [2, 4]), [0, -1])  # C division, as TF
    fn = tf.function(lambda i, d: tf.unravel_index(i, d),
                     input_signature=[tf.TensorSpec([None], tf.int32),
                                      tf.TensorSpec([3], tf.int32)])
    assert fn.get_concrete_function().structured_outputs.shape.as_list() == [3, None]
