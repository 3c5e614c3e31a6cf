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


def _setup():
    rng = np.random.default_rng(0)
    weights = tf.Variable(rng.normal(size=(10, 4)).astype(np.float32))
    biases = tf.Variable(np.zeros(10, np.float32))
    inputs = tf.constant(rng.normal(size=(3, 4)).astype(np.float32))
    sampled = (tf.constant([0, 2, 4, 9], tf.int64), tf.constant([[0.3], [0.2], [0.1]]),
               tf.constant([0.5, 0.3, 0.2, 0.05]))
    return weights, biases, inputs, sampled


LABELS = tf.constant([[1], [4], [7]], tf.int64)


def test_nce_and_sampled_softmax_losses_match_tf():
    weights, biases, inputs, sampled = _setup()
    np.testing.assert_allclose(
        tf.nn.nce_loss(weights, biases, LABELS, inputs, 4, 10, sampled_values=sampled),
        [11.030291, 14.248176, 2.6032662], rtol=1e-6)
    np.testing.assert_allclose(
        tf.nn.nce_loss(weights, biases, LABELS, inputs, 4, 10, sampled_values=sampled,
                       remove_accidental_hits=True), [11.030291, 10.024857, 2.6032662],
        rtol=1e-6)
    np.testing.assert_allclose(
        tf.nn.sampled_softmax_loss(weights, biases, LABELS, inputs, 4, 10,
                                   sampled_values=sampled),
        [1.3151226, 2.796741, 0.56672126], rtol=1e-6)
    np.testing.assert_allclose(
        tf.nn.sampled_softmax_loss(weights, biases, LABELS, inputs, 4, 10,
                                   sampled_values=sampled, remove_accidental_hits=False),
        [1.3151226, 2.855961, 0.56672126], rtol=1e-6)
    two = tf.constant([[1, 2], [4, 5], [7, 8]], tf.int64)
    sampled2 = (sampled[0], tf.constant([[0.3, 0.1], [0.2, 0.1], [0.1, 0.1]]), sampled[2])
    np.testing.assert_allclose(
        tf.nn.nce_loss(weights, biases, two, inputs, 4, 10, num_true=2,
                       sampled_values=sampled2), [14.210792, 17.322802, 4.7091365], rtol=1e-6)
    assert tf.nn.nce_loss(weights, biases, LABELS, inputs, 4, 10).shape == (3,)


def test_sampled_softmax_gradient_is_sparse_and_matches_tf():
    weights, biases, inputs, sampled = _setup()
    with tf.GradientTape() as tape:
        loss = tf.reduce_sum(tf.nn.sampled_softmax_loss(weights, biases, LABELS, inputs, 4, 10,
                                                        sampled_values=sampled))
    grad_w, grad_b = tape.gradient(loss, [weights, biases])
    assert type(grad_w).__name__ == "IndexedSlices"
    np.testing.assert_allclose(tf.convert_to_tensor(grad_b),
                               [0.2652, -0.7316, 0.0173, 0, -0.8478, 0, 0, -0.4326, 0, 1.7295],
                               atol=1e-4)


def test_samplers_in_functions():
    @tf.function(input_signature=[tf.TensorSpec([None, 2], tf.int64)])
    def sample(true_classes):
        s = tf.random.log_uniform_candidate_sampler(true_classes, 2, 5, True, 10)
        u = tf.random.uniform_candidate_sampler(true_classes, 2, 3, False, 10, seed=3)
        # TF's static shapes
        assert s.sampled_candidates.shape == (5,) and u.sampled_expected_count.shape == (3,)
        assert s.true_expected_count.shape.as_list() == [None, 2]
        return s, u

    s, u = sample(tf.constant([[1, 2], [3, 4], [5, 6]], tf.int64))
    assert len(set(s.sampled_candidates.numpy().tolist())) == 5
    assert s.true_expected_count.shape == (3, 2)
    np.testing.assert_allclose(u.true_expected_count, np.full((3, 2), 0.3), rtol=1e-6)


def test_seeded_sampler_draws_a_stream():
    # as in TF: each call takes the next draw of a seeded op's stream, and a function's op
    # draws the same sequence as eager calls
    def draw():
        return tf.random.uniform_candidate_sampler([[1]], 1, 3, False, 1000,
                                                   seed=1).sampled_candidates.numpy().tolist()
    traced = tf.function(lambda: tf.random.uniform_candidate_sampler(
        [[1]], 1, 3, False, 1000, seed=1).sampled_candidates)
    tf.random.set_seed(5)
    first, second = draw(), draw()
    assert first != second
    tf.random.set_seed(5)
    assert [traced().numpy().tolist(), traced().numpy().tolist()] == [first, second]
    tf.random.set_seed(None)


def test_sampled_losses_in_functions_and_keras():
    weights = tf.random.normal([20, 4], seed=1)
    biases = tf.zeros([20])

    @tf.function(input_signature=[tf.TensorSpec([None, 1], tf.int64),
                                  tf.TensorSpec([None, 4], tf.float32)])
    def losses(labels, inputs):
        return (tf.nn.nce_loss(weights, biases, labels, inputs, 5, 20),
                tf.nn.sampled_softmax_loss(weights, biases, labels, inputs, 5, 20))

    nce, softmax = losses(tf.constant([[1], [3]], tf.int64), tf.ones([2, 4]))
    assert nce.shape == (2,) and softmax.shape == (2,)
    assert np.all(np.isfinite(nce)) and np.all(softmax.numpy() > 0)
    inputs = tf.keras.Input((4,))
    labels = tf.keras.Input((1,), dtype=tf.int64)
    loss = tf.keras.layers.Lambda(lambda t: tf.nn.nce_loss(weights, biases, t[1], t[0], 5,
                                                           20))([inputs, labels])
    model = tf.keras.Model([inputs, labels], loss)
    out = model.predict([np.ones((3, 4), np.float32), np.array([[1], [2], [3]])], verbose=0)
    assert out.shape == (3,) and np.all(np.isfinite(out))


def test_raw_sampler_takes_python_lists_as_int64():
    # (TF's true_classes is int64 whatever the values given)
    s = tf.raw_ops.UniformCandidateSampler(true_classes=[[1]], num_true=1, num_sampled=2,
                                           unique=False, range_max=4)
    assert type(s).__name__ == "UniformCandidateSampler"
    assert s.sampled_candidates.dtype == tf.int64 and s.sampled_candidates.shape == (2,)
    np.testing.assert_allclose(s.true_expected_count, [[0.5]])


def test_true_classes_errors_as_tfs():
    with pytest.raises(tf.errors.InvalidArgumentError, match="true_classes must be a matrix"):
        tf.random.uniform_candidate_sampler(tf.constant([1, 2], tf.int64), 1, 2, False, 5)
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match="true_classes must have num_true columns, expected: 2 was: 1"):
        tf.random.uniform_candidate_sampler(tf.constant([[1, 2]], tf.int64), 1, 2, False, 5)
    traced = tf.function(lambda t: tf.random.log_uniform_candidate_sampler(t, 1, 2, False, 5)[0],
                         input_signature=[tf.TensorSpec([None], tf.int64)])
    with pytest.raises(ValueError, match=r"Shape must be rank 2 but is rank 1 for "
                                         r"'\{\{node LogUniformCandidateSampler\}\}"):
        traced.get_concrete_function()


def test_fixed_unigram_sampler_draws_by_counts(tmp_path):
    true = tf.constant([[1, 2], [3, 0]], tf.int64)
    # reserved id 0 never drawn; ids 1..5 in proportion to the counts
    s = tf.random.fixed_unigram_candidate_sampler(true, 2, 3, False, 6,
                                                  unigrams=[1, 2, 3, 4, 10],
                                                  num_reserved_ids=1, seed=1)
    np.testing.assert_allclose(s.true_expected_count, [[0.15, 0.3], [0.45, 0.0]], rtol=1e-6)
    assert type(s).__name__ == "FixedUnigramCandidateSampler"
    draws = tf.random.fixed_unigram_candidate_sampler(true, 2, 4000, False, 6,
                                                      unigrams=[1, 2, 3, 4, 10],
                                                      num_reserved_ids=1, seed=2)
    counts = np.bincount(draws.sampled_candidates.numpy(), minlength=6)
    assert counts[0] == 0 and abs(counts[5] / 4000 - 0.5) < 0.05
    vocab = tmp_path / "vocab.txt"
    vocab.write_text("a,1\nb,2\nc,3\nd,4\n")
    s = tf.random.fixed_unigram_candidate_sampler(true, 2, 2, False, 4, vocab_file=str(vocab),
                                                  distortion=0.0)  # every count as 1
    np.testing.assert_allclose(s.true_expected_count, [[0.5, 0.5], [0.5, 0.5]])
    # a shard holds the ids i with i % num_shards == shard
    s = tf.random.fixed_unigram_candidate_sampler([[0]], 1, 1, False, 2, unigrams=[1.0] * 5,
                                                  num_shards=2, shard=1)
    np.testing.assert_allclose(s.true_expected_count, [[0.5]])
    with pytest.raises(tf.errors.InvalidArgumentError, match="must be equal to weights size"):
        tf.random.fixed_unigram_candidate_sampler(true, 2, 3, True, 7, unigrams=[1, 2, 3])
    with pytest.raises(tf.errors.InvalidArgumentError, match="either vocab_file or unigrams"):
        tf.random.fixed_unigram_candidate_sampler(true, 2, 3, True, 3)
    with pytest.raises(tf.errors.InvalidArgumentError, match="range is too small"):
        tf.random.fixed_unigram_candidate_sampler(true, 2, 6, True, 5, unigrams=[1] * 5)
    with pytest.raises(tf.errors.InvalidArgumentError, match="out of range"):
        tf.random.fixed_unigram_candidate_sampler([[4]], 1, 1, True, 2, unigrams=[1] * 2)


def test_all_candidate_sampler():
    s = tf.random.all_candidate_sampler(tf.constant([[1, 2], [3, 0]], tf.int64), 2, 4, True)
    assert s.sampled_candidates.numpy().tolist() == [0, 1, 2, 3]
    assert s.true_expected_count.numpy().tolist() == [[1, 1], [1, 1]]
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"out of range \[0, 3\), received 3"):
        tf.random.all_candidate_sampler(tf.constant([[1, 2], [3, 0]], tf.int64), 2, 3, True)


def test_unique_draw_without_repeats_counts_p_times_num_sampled():
    # TF 2.21: three distinct classes of 1000 drawn in three tries count p * 3 (0.003), not
    # 1 - (1 - p) ** 3
    s = tf.random.uniform_candidate_sampler([[1]], 1, 3, True, 1000, seed=1)
    np.testing.assert_allclose(s.true_expected_count, [[0.003]], rtol=1e-7)
    np.testing.assert_allclose(s.sampled_expected_count, [0.003] * 3, rtol=1e-7)


LEARNED_TRUE = tf.constant([[1, 2], [3, 1]], tf.int64)
# TF 2.21's true_expected_count of three runs of one kernel (4 draws from 6 classes, with
# replacement): counts start at 1 and grow by the true classes after each run
LEARNED_COUNTS = [[[4 / 6, 4 / 6], [4 / 6, 4 / 6]], [[1.2, 0.8], [0.8, 1.2]],
                  [[1.4285715, 0.85714287], [0.85714287, 1.4285715]]]


def test_learned_unigram_result_and_learning_eagerly():
    runs = [tf.nn.learned_unigram_candidate_sampler(LEARNED_TRUE, 2, 4, False, 6)
            for _ in range(3)]
    s = runs[0]
    assert type(s).__name__ == "LearnedUnigramCandidateSampler"
    assert s._fields == ("sampled_candidates", "true_expected_count", "sampled_expected_count")
    assert [x.dtype for x in s] == [tf.int64, tf.float32, tf.float32]
    assert [tuple(x.shape) for x in s] == [(4,), (2, 2), (4,)]
    for run, want in zip(runs, LEARNED_COUNTS):
        np.testing.assert_allclose(run.true_expected_count, want, rtol=1e-6)
    assert tf.random.learned_unigram_candidate_sampler is tf.nn.learned_unigram_candidate_sampler


def test_learned_unigram_sampled_counts_follow_the_counts():
    first = tf.nn.learned_unigram_candidate_sampler(LEARNED_TRUE, 2, 5, False, 6, seed=11)
    second = tf.nn.learned_unigram_candidate_sampler(LEARNED_TRUE, 2, 5, False, 6, seed=11)
    np.testing.assert_allclose(first.sampled_expected_count, [5 / 6] * 5, rtol=1e-6)
    weights = np.array([1, 3, 2, 2, 1, 1]) / 10
    np.testing.assert_allclose(second.sampled_expected_count,
                               5 * weights[second.sampled_candidates.numpy()], rtol=1e-6)


def test_learned_unigram_seeded_determinism_and_set_seed_restarts():
    def draws():
        tf.random.set_seed(4)
        return [tf.nn.learned_unigram_candidate_sampler(LEARNED_TRUE, 2, 3, True, 6, seed=2)
                for _ in range(3)]
    a, b = draws(), draws()
    for x, y in zip(a, b):
        for u, v in zip(x, y):
            np.testing.assert_array_equal(u, v)
    np.testing.assert_allclose(a[0].true_expected_count, [[0.5, 0.5], [0.5, 0.5]])
    # a global seed and no op seed: a new kernel (fresh counts) every call, as in TF
    for _ in range(2):
        s = tf.nn.learned_unigram_candidate_sampler(LEARNED_TRUE, 2, 4, False, 6)
        np.testing.assert_allclose(s.true_expected_count, LEARNED_COUNTS[0], rtol=1e-6)
    tf.random.set_seed(None)


def test_learned_unigram_in_function_learns_per_op():
    @tf.function(input_signature=[tf.TensorSpec([None, 2], tf.int64)])
    def f(x):
        s = tf.nn.learned_unigram_candidate_sampler(x, 2, 4, False, 6)
        assert [tuple(t.shape) for t in s] == [(4,), (None, 2), (4,)]
        return s
    for want in LEARNED_COUNTS:
        np.testing.assert_allclose(f(tf.Variable(LEARNED_TRUE)).true_expected_count, want,
                                   rtol=1e-6)


@pytest.mark.parametrize("args, message", [
    ((tf.constant([1, 2], tf.int64), 1, 2, False, 5), "true_classes must be a matrix"),
    ((LEARNED_TRUE, 1, 2, False, 5), "true_classes must have num_true columns, expected: 2 "
                                     "was: 1"),
    ((LEARNED_TRUE, 2, 7, True, 6), "Sampler's range is too small."),
    ((tf.constant([[9]], tf.int64), 1, 2, False, 5),
     r"`true_candidate` out of range \[0, 5\), received 9"),
])
def test_learned_unigram_errors(args, message):
    with pytest.raises(tf.errors.InvalidArgumentError, match=message):
        tf.nn.learned_unigram_candidate_sampler(*args)
