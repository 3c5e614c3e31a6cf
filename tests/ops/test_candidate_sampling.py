"""tf.random.log_uniform_candidate_sampler / uniform_candidate_sampler: TF's result types,
shapes, expected counts and errors (the draws themselves follow TF's distributions only)."""
import numpy as np
import pytest

import eagerflow as tf

TRUE = tf.constant([[3], [7]], tf.int64)


def test_log_uniform_unique():
    s = tf.random.log_uniform_candidate_sampler(true_classes=TRUE, num_true=1, num_sampled=4,
                                                unique=True, range_max=10, seed=42)
    assert type(s).__name__ == "LogUniformCandidateSampler"
    assert s.sampled_candidates.dtype == tf.int64 and s.sampled_candidates.shape == (4,)
    values = s.sampled_candidates.numpy()
    assert len(set(values.tolist())) == 4 and values.min() >= 0 and values.max() < 10
    assert s.true_expected_count.shape == (2, 1) and s.true_expected_count.dtype == tf.float32
    again = tf.random.log_uniform_candidate_sampler(TRUE, 1, 4, True, 10, seed=42)
    tf.random.set_seed(None)
    assert s.sampled_candidates.shape == again.sampled_candidates.shape


def test_expected_counts_with_replacement():
    s = tf.random.log_uniform_candidate_sampler(TRUE, 1, 3, False, 10, seed=42)
    p = np.log([5 / 4, 9 / 8]) / np.log(11)  # P(3), P(7)
    np.testing.assert_allclose(s.true_expected_count.numpy().ravel(), 3 * p, rtol=1e-6)
    u = tf.random.uniform_candidate_sampler(TRUE, 1, 4, False, 10, seed=1)
    np.testing.assert_allclose(u.true_expected_count, [[0.4], [0.4]])
    np.testing.assert_allclose(u.sampled_expected_count, [0.4] * 4)


def test_range_too_small():
    with pytest.raises(tf.errors.InvalidArgumentError, match="Sampler's range is too small"):
        tf.random.log_uniform_candidate_sampler(TRUE, 1, 11, True, 10)
