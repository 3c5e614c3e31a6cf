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


def test_accidental_hits_of_true_classes_not_a_matrix_errors_as_tfs():
    sampled = tf.constant([1, 5], tf.int64)
    for true in (tf.constant([1, 5], tf.int64), tf.constant([[[1]]], tf.int64)):
        with pytest.raises(tf.errors.InvalidArgumentError,
                           match="true_candidates must be a batch_size \\* num_true matrix"):
            tf.nn.compute_accidental_hits(true, sampled, 1)
    traced = tf.function(lambda t: tf.nn.compute_accidental_hits(t, sampled, 1)[0],
                         input_signature=[tf.TensorSpec([None], tf.int64)])
    with pytest.raises(ValueError, match="Shape must be rank 2 but is rank 1"):
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


# TF 2.21's draws after tf.random.set_seed(7), op seed 3, for true classes [[1, 2], [3, 9]]
# and range 10: (candidates, true expected counts, sampled expected counts) of two calls.
_TF_DRAWS = {
    ("log", True, 7): [
        ([0, 2, 9, 1, 5, 3, 6], [[0.7727922201156616, 0.6402763724327087],
                                 [0.542242169380188, 0.2770906984806061]],
         [0.9347410798072815, 0.6402763724327087, 0.2770906984806061, 0.7727922201156616,
          0.4123135805130005, 0.542242169380188, 0.3676929175853729]),
        ([1, 0, 2, 9, 7, 6, 4], [[0.8112112879753113, 0.6834334135055542],
                                 [0.5848402380943298, 0.3058244585990906]],
         [0.8112112879753113, 0.9536051154136658, 0.6834334135055542, 0.3058244585990906,
          0.36447280645370483, 0.4029041528701782, 0.5092006921768188])],
    ("log", False, 7): [
        ([0, 2, 9, 0, 1, 5, 3], [[1.1836446523666382, 0.8398091793060303],
                                 [0.6514065861701965, 0.27823203802108765]],
         [2.023453712463379, 0.8398091793060303, 0.27823203802108765, 2.023453712463379,
          1.1836446523666382, 0.4500008225440979, 0.6514065861701965])],
    ("uniform", True, 3): [
        ([1, 8, 2], [[0.30000001192092896] * 2] * 2, [0.30000001192092896] * 3),
        ([2, 4, 6], [[0.30000001192092896] * 2] * 2, [0.30000001192092896] * 3)],
    ("uniform", True, 7): [
        ([1, 8, 2, 0, 6, 9, 3], [[0.7712320685386658] * 2] * 2, [0.7712320685386658] * 7)],
    ("fixed", True, 3): [
        ([8, 7, 6], [[0.13771124184131622, 0.2009708732366562],
                     [0.2606842517852783, 0.5518748760223389]],
         [0.5106939673423767, 0.4667379558086395, 0.4198848605155945]),
        ([3, 6, 4], [[0.1090909093618393, 0.16363635659217834],
                     [0.2181818187236786, 0.5454545617103577]],
         [0.2181818187236786, 0.38181817531585693, 0.27272728085517883])],
    ("fixed", False, 7): [
        ([8, 8, 7, 6, 9, 1, 9], [[0.2545454502105713, 0.38181817531585693],
                                 [0.5090909004211426, 1.2727272510528564]],
         [1.1454545259475708, 1.1454545259475708, 1.0181818008422852, 0.8909090757369995,
          1.2727272510528564, 0.2545454502105713, 1.2727272510528564])],
    ("distorted", True, 7): [
        ([8, 7, 6, 4, 1, 9, 0], [[0.6721096634864807, 0.7827796936035156],
                                 [0.8523058891296387, 0.9817081093788147]],
         [0.974460780620575, 0.9642093181610107, 0.9495978355407715, 0.8978828191757202,
          0.6721096634864807, 0.9817081093788147, 0.4808226525783539])],
}
_SAMPLER_CALLS = {
    "log": (tf.random.log_uniform_candidate_sampler, {}),
    "uniform": (tf.random.uniform_candidate_sampler, {}),
    "fixed": (tf.random.fixed_unigram_candidate_sampler, {"unigrams": list(range(1, 11))}),
    "distorted": (tf.random.fixed_unigram_candidate_sampler,
                  {"unigrams": [1., 2, 3, 4, 5, 0, 7, 8, 9, 10], "distortion": 0.75}),
}


@pytest.mark.parametrize("case", sorted(_TF_DRAWS))
def test_seeded_samplers_draw_tfs_candidates_and_counts(case):
    # the candidates TF's kernels draw from their Philox streams, call after call, and the
    # expected counts as TF computes them in float32: p * num_sampled when no draw was
    # rejected as a repeat (not 1 - (1 - p) ** num_sampled)
    kind, unique, num_sampled = case
    fn, extra = _SAMPLER_CALLS[kind]
    tf.random.set_seed(7)
    try:
        for candidates, true_counts, sampled_counts in _TF_DRAWS[case]:
            s = fn(true_classes=tf.constant([[1, 2], [3, 9]], tf.int64), num_true=2,
                   num_sampled=num_sampled, unique=unique, range_max=10, seed=3, **extra)
            assert s.sampled_candidates.numpy().tolist() == candidates
            assert s.true_expected_count.numpy().tolist() == true_counts
            assert s.sampled_expected_count.numpy().tolist() == sampled_counts
    finally:
        tf.random.set_seed(None)


def test_huge_range_draws_without_a_table():
    s = tf.random.log_uniform_candidate_sampler([[0]], 1, 5, True, 2**40, seed=1)
    assert s.sampled_candidates.numpy().tolist() == [96646399659, 73424, 173115944,
                                                     307541015, 64]
    np.testing.assert_array_equal(s.true_expected_count, [[0.125]])
    u = tf.random.uniform_candidate_sampler([[0]], 1, 2, False, 2**40, seed=1)
    np.testing.assert_array_equal(u.sampled_expected_count, [np.float32(2.0**-40 * 2)] * 2)


def test_true_classes_out_of_range_in_every_sampler():
    for fn in (tf.random.log_uniform_candidate_sampler, tf.random.uniform_candidate_sampler):
        with pytest.raises(tf.errors.InvalidArgumentError,
                           match=r"`true_candidate` out of range \[0, 10\), received 10"):
            fn(tf.constant([[10]], tf.int64), 1, 2, True, 10, seed=1)
    with pytest.raises(tf.errors.InvalidArgumentError, match="received -1"):
        tf.random.uniform_candidate_sampler([[-1]], 1, 2, False, 10)


def test_failed_call_leaves_the_stream():
    tf.random.set_seed(None)
    with pytest.raises(tf.errors.InvalidArgumentError):
        tf.random.log_uniform_candidate_sampler([[10]], 1, 2, True, 10, seed=1)
    s = tf.random.log_uniform_candidate_sampler([[1]], 1, 2, True, 10, seed=1)
    assert s.sampled_candidates.numpy().tolist() == [7, 1]  # TF's first draw of the stream


def test_int32_true_classes_are_tfs_errors():
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match="was expected to be a int64 tensor but is a int32 tensor"):
        tf.random.log_uniform_candidate_sampler(tf.constant([[1]]), 1, 2, True, 10)
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match="was expected to be a int64 tensor but is a int32 tensor"):
        tf.nn.compute_accidental_hits(tf.constant([[1]]), tf.constant([1], tf.int64), 1)

    @tf.function
    def traced():
        return tf.random.log_uniform_candidate_sampler(tf.constant([[1]]), 1, 2, True, 10)
    with pytest.raises(TypeError, match="parameter 'true_classes' has DataType int32"):
        traced()


def test_accidental_hits_find_the_last_position_of_a_repeated_candidate():
    hits = tf.nn.compute_accidental_hits(tf.constant([[1, 1], [2, 5]], tf.int64),
                                         tf.constant([1, 2, 3, 1, 2], tf.int64), num_true=2)
    assert type(hits).__name__ == "ComputeAccidentalHits"
    assert hits.indices.numpy().tolist() == [0, 0, 1]
    assert hits.ids.numpy().tolist() == [3, 3, 4]
    assert hits.weights.dtype == tf.float32 and hits.weights.shape == (3,)
    traced = tf.function(lambda t, s: tf.nn.compute_accidental_hits(t, s, num_true=1),
                         input_signature=[tf.TensorSpec([None, 1], tf.int64),
                                          tf.TensorSpec([None], tf.int64)])
    hits = traced(tf.constant([[1], [2]], tf.int64), tf.constant([2, 1, 2], tf.int64))
    assert hits.indices.numpy().tolist() == [0, 1] and hits.ids.numpy().tolist() == [1, 2]
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match="true_candidates must be a batch_size \\* num_true matrix"):
        tf.nn.compute_accidental_hits(tf.constant([[1]], tf.int64),
                                      tf.constant([1], tf.int64), num_true=2)


def test_removing_accidental_hits_masks_a_repeated_candidate_once():
    weights, biases, inputs, _ = _setup()
    sampled = (tf.constant([4, 2, 4], tf.int64), tf.constant([[0.3], [0.2], [0.1]]),
               tf.constant([0.5, 0.3, 0.5]))
    np.testing.assert_allclose(
        tf.nn.sampled_softmax_loss(weights, biases, LABELS, inputs, 3, 10,
                                   sampled_values=sampled),
        [0.13522126, 0.35539976, 0.08399798], rtol=1e-6)
    np.testing.assert_allclose(
        tf.nn.nce_loss(weights, biases, LABELS, inputs, 3, 10, sampled_values=sampled,
                       remove_accidental_hits=True), [5.1665874, 4.3728776, 0.60245794],
        rtol=1e-6)


def test_sampled_losses_take_an_op_seed_as_tf():
    # (TF's compute_accidental_hits takes an op seed it does not use)
    weights = tf.reshape(tf.range(40.0), [10, 4]) / 40.0
    tf.random.set_seed(3)
    try:
        tf.nn.sampled_softmax_loss(weights, tf.zeros([10]), tf.constant([[1], [2]], tf.int64),
                                   tf.ones([2, 4]), 3, 10, seed=5)
        np.testing.assert_array_equal(tf.random.uniform([1]), np.float32([0.19457185]))
    finally:
        tf.random.set_seed(None)


def test_learned_unigram_sampler_learns_the_true_classes_of_its_calls():
    # TF 2.21's draws: the counts of a kernel (an eager op and its attrs, a function's
    # node) start at one per class and take each call's true classes after it draws
    tf.random.set_seed(7)
    try:
        true = tf.constant([[1, 2], [3, 9]], tf.int64)
        draws = [tf.random.learned_unigram_candidate_sampler(true, 2, 4, True, 10, seed=3)
                 for _ in range(3)]
        assert type(draws[0]).__name__ == "LearnedUnigramCandidateSampler"
        assert [d.sampled_candidates.numpy().tolist() for d in draws] == [
            [3, 8, 0, 2], [9, 3, 4, 2], [5, 7, 4, 1]]
        assert draws[1].sampled_expected_count.numpy().tolist() == [
            0.5714285969734192, 0.5714285969734192, 0.2857142984867096, 0.5714285969734192]
        assert draws[2].true_expected_count.numpy().tolist() == [[0.5981224179267883] * 2] * 2
        tf.random.set_seed(7)  # (kernels start again)
        again = tf.random.learned_unigram_candidate_sampler(true, 2, 4, True, 10, seed=3)
        assert again.sampled_candidates.numpy().tolist() == [3, 8, 0, 2]
        traced = tf.function(
            lambda t: tf.nn.learned_unigram_candidate_sampler(t, 1, 3, False, 8, seed=5))
        runs = [traced(tf.constant([[2], [2], [6]], tf.int64)) for _ in range(3)]
        assert [r.sampled_candidates.numpy().tolist() for r in runs] == [
            [1, 7, 2], [6, 6, 2], [7, 6, 2]]
        assert runs[2].true_expected_count.numpy().ravel().tolist() == [
            1.0714285373687744, 1.0714285373687744, 0.6428571343421936]
    finally:
        tf.random.set_seed(None)


def test_seeded_sampled_softmax_loss_takes_float_and_int32_labels():
    # TF casts the labels to int64 whatever their dtype, with or without a seed.
    weights = tf.reshape(tf.range(12, dtype=tf.float32), (4, 3)) / 10
    biases, inputs = tf.zeros(4), tf.ones((2, 3))
    try:
        losses = []
        for labels in (tf.constant([[0], [3]], tf.int64), tf.constant([[0.0], [3.0]]),
                       tf.constant([[0], [3]], tf.int32)):
            tf.random.set_seed(3)
            losses.append(tf.nn.sampled_softmax_loss(weights, biases, labels, inputs,
                                                     num_sampled=2, num_classes=4,
                                                     seed=1).numpy())
    finally:
        tf.random.set_seed(None)
    np.testing.assert_allclose(losses[0], [2.4897845, 0.30652767], rtol=1e-6)
    np.testing.assert_array_equal(losses[1], losses[0])
    np.testing.assert_array_equal(losses[2], losses[0])
