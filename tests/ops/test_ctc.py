"""tf.nn.ctc_loss and tf.nn.ctc_greedy_decoder against TF's recorded values."""
import numpy as np
import pytest

import eagerflow as tf
from tests.ops.specs.ctc import brute_force_ctc

LOGITS = np.random.default_rng(0).normal(size=(6, 2, 5)).astype(np.float32)
LABELS = np.array([[1, 2, 2], [3, 1, 0]], np.int32)
LABEL_LENGTH = np.array([3, 2], np.int32)
LOGIT_LENGTH = np.array([6, 5], np.int32)


def test_loss_values_layouts_and_blanks():
    loss = tf.nn.ctc_loss(LABELS, LOGITS, LABEL_LENGTH, LOGIT_LENGTH)
    assert loss.dtype == tf.float32 and loss.shape == (2,)
    np.testing.assert_allclose(loss, [8.453879, 6.1903553], rtol=1e-6)
    np.testing.assert_allclose(
        tf.nn.ctc_loss(LABELS, LOGITS, LABEL_LENGTH, LOGIT_LENGTH, blank_index=4),
        [7.5187583, 5.5641565], rtol=1e-6)
    np.testing.assert_allclose(
        tf.nn.ctc_loss(LABELS, np.transpose(LOGITS, [1, 0, 2]), LABEL_LENGTH, LOGIT_LENGTH,
                       logits_time_major=False), [8.453879, 6.1903553], rtol=1e-6)
    sparse = tf.sparse.from_dense(tf.constant(LABELS))
    np.testing.assert_allclose(tf.nn.ctc_loss(sparse, LOGITS, None, LOGIT_LENGTH, blank_index=0),
                               [8.453879, 6.1903553], rtol=1e-6)
    with pytest.raises(ValueError, match="`blank_index` must be provided"):
        tf.nn.ctc_loss(sparse, LOGITS, None, LOGIT_LENGTH)
    fn = tf.function(lambda x: tf.nn.ctc_loss(LABELS, x, LABEL_LENGTH, LOGIT_LENGTH))
    np.testing.assert_allclose(fn(tf.constant(LOGITS)), [8.453879, 6.1903553], rtol=1e-6)
    small = LOGITS[:4].astype(np.float64)
    np.testing.assert_allclose(
        tf.nn.ctc_loss(LABELS[:, :2], small, [2, 1], [4, 3]),
        brute_force_ctc(small, LABELS[:, :2], [2, 1], [4, 3]), rtol=1e-10)



@pytest.mark.parametrize("signature", [None, [tf.TensorSpec([None, None, 5], tf.float32)]])
def test_sparse_labels_in_functions(signature):
    # labels a SparseTensor built in the function (as Keras' ctc_batch_cost builds them)
    @tf.function(input_signature=signature)
    def losses(logits):
        sparse = tf.sparse.from_dense(tf.constant(LABELS))
        return tf.nn.ctc_loss(sparse, logits, None, LOGIT_LENGTH, blank_index=0)

    np.testing.assert_allclose(losses(LOGITS), [8.453879, 6.1903553], rtol=1e-6)
    y_pred = tf.nn.softmax(np.random.default_rng(0).normal(size=(2, 6, 5)).astype(np.float32))
    cost = tf.function(tf.keras.backend.ctc_batch_cost)(
        tf.constant(LABELS), y_pred, tf.constant([[6], [5]]), tf.constant([[3], [2]]))
    np.testing.assert_allclose(cost, [[7.547363], [4.903264]], rtol=1e-6)

def test_gradient_matches_tf_and_finite_differences():
    v = tf.Variable(LOGITS)
    with tf.GradientTape() as tape:
        loss = tf.reduce_sum(tf.nn.ctc_loss(LABELS, v, LABEL_LENGTH, LOGIT_LENGTH)
                             * tf.constant([1.0, 2.0]))
    g = tape.gradient(loss, v).numpy()
    np.testing.assert_allclose(g[0, 0], [-0.26164, -0.37961, 0.3386, 0.1982, 0.10445],
                               atol=1e-5)
    np.testing.assert_array_equal(g[5, 1], 0.0)  # past the sequence's length
    x = LOGITS[:, :1].astype(np.float64)
    wide = tf.Variable(x)
    with tf.GradientTape() as tape:
        loss = tf.nn.ctc_loss(LABELS[:1], wide, LABEL_LENGTH[:1], [6])
    analytic = tape.gradient(loss, wide).numpy()
    eps, numeric = 1e-6, np.zeros_like(x)
    for index in np.ndindex(*x.shape):
        up, down = x.copy(), x.copy()
        up[index] += eps
        down[index] -= eps
        numeric[index] = (tf.nn.ctc_loss(LABELS[:1], up, LABEL_LENGTH[:1], [6]).numpy()[0]
                          - tf.nn.ctc_loss(LABELS[:1], down, LABEL_LENGTH[:1], [6]).numpy()[0]
                          ) / (2 * eps)
    np.testing.assert_allclose(analytic, numeric, atol=1e-6)


def test_greedy_decoder():
    (decoded,), log_probability = tf.nn.ctc_greedy_decoder(LOGITS, LOGIT_LENGTH)
    np.testing.assert_array_equal(decoded.indices, [[0, 0], [0, 1], [0, 2], [0, 3], [0, 4],
                                                    [1, 0], [1, 1]])
    np.testing.assert_array_equal(decoded.values, [2, 1, 3, 1, 3, 1, 2])
    np.testing.assert_array_equal(decoded.dense_shape, [2, 5])
    assert decoded.values.dtype == tf.int64
    np.testing.assert_allclose(log_probability, [[-4.7594566], [-6.020398]], rtol=1e-6)
    (raw,), _ = tf.nn.ctc_greedy_decoder(LOGITS, LOGIT_LENGTH, merge_repeated=False,
                                         blank_index=0)
    np.testing.assert_array_equal(tf.sparse.to_dense(raw), [[2, 1, 1, 3, 1, 3],
                                                            [1, 4, 4, 4, 2, 0]])


def test_beam_search_decoder():
    logits = np.random.default_rng(0).normal(size=(6, 2, 4)).astype(np.float32) * 2
    decoded, log_probabilities = tf.nn.ctc_beam_search_decoder(logits, [6, 5], beam_width=3,
                                                               top_paths=2)
    assert [tf.sparse.to_dense(d, default_value=-1).numpy().tolist() for d in decoded] == \
        [[[2, 0, 1], [2, 1, -1]], [[2, 0, 2], [1, -1, -1]]]
    np.testing.assert_allclose(log_probabilities, [[-2.0105133, -2.63424],
                                                   [-1.0505232, -1.9489493]], rtol=1e-6)
    (best,), score = tf.nn.ctc_beam_search_decoder(tf.nn.log_softmax(logits), [6, 5])
    assert tf.sparse.to_dense(best, default_value=-1).numpy().tolist() == [[2, 0, 1],
                                                                           [2, 1, -1]]
    np.testing.assert_allclose(score, [[-1.9368582], [-1.0486399]], rtol=1e-6)


def test_beam_search_decoder_prunes_as_tensorflow():
    # A narrow beam: the sequence [1] is displaced by a grown one, then grown again from the
    # empty sequence, counting only that growth (TF's -1.6094 and -0.5656, recorded from
    # TF 2.21); a full prefix search scores it -1.4961 and the best path -0.4716.
    x = tf.math.log(tf.constant([[[.1, .8, .1]], [[.1, .8, .1]], [[.7, .2, .1]]]))
    decoded, log_probabilities = tf.nn.ctc_beam_search_decoder(x, [3], beam_width=2,
                                                               top_paths=2)
    assert [d.values.numpy().tolist() for d in decoded] == [[1, 0], [1]]
    np.testing.assert_allclose(log_probabilities, [[-0.5656, -1.6094]], atol=1e-4)
    _, wide = tf.nn.ctc_beam_search_decoder(x, [3], beam_width=3, top_paths=2)
    np.testing.assert_allclose(wide, [[-0.4716, -1.4961]], atol=1e-4)


def test_keras_backend_ctc():
    y_pred = tf.nn.softmax(np.random.default_rng(0).normal(size=(2, 6, 5)).astype(np.float32))
    cost = tf.keras.backend.ctc_batch_cost(LABELS, y_pred, [[6], [5]], [[3], [2]])
    assert cost.shape == (2, 1)
    np.testing.assert_allclose(cost, [[7.547363], [4.903264]], rtol=1e-6)
    (dense,), log_prob = tf.keras.backend.ctc_decode(y_pred, [6, 5])
    assert dense.numpy().tolist() == [[2, 1, 1, -1, -1, -1], [3, 1, 2, 3, -1, -1]]
    np.testing.assert_allclose(log_prob, [[5.6454926], [4.8693166]], rtol=1e-6)
    paths, log_prob = tf.keras.backend.ctc_decode(y_pred, [6, 5], greedy=False, beam_width=3,
                                                  top_paths=2)
    assert [p.numpy().tolist() for p in paths] == [
        [[2, 1, 3, 1, -1, -1], [3, 2, 3, -1, -1, -1]], [[2, 1, 3, -1, -1, -1], [3, 1, 3, -1, -1, -1]]]
    np.testing.assert_allclose(log_prob, [[-4.203728, -4.372421], [-3.5708795, -3.817371]],
                               rtol=1e-6)
    sparse = tf.keras.backend.ctc_label_dense_to_sparse(tf.constant(LABELS), [3, 2])
    np.testing.assert_array_equal(sparse.values, [1, 2, 2, 3, 1])
    np.testing.assert_array_equal(sparse.dense_shape, [2, 3])


@pytest.mark.parametrize("signature", [
    [tf.TensorSpec([6, 2, 5], tf.float32), tf.TensorSpec([2], tf.int32)],
    [tf.TensorSpec([None, None, 5], tf.float32), tf.TensorSpec([None], tf.int32)]])
def test_decoders_in_functions(signature):
    batch = signature[0].shape[1]

    @tf.function(input_signature=signature)
    def greedy(x, n):
        (d,), p = tf.nn.ctc_greedy_decoder(x, n)
        # TF's static shapes
        assert d.indices.shape.as_list() == [None, 2] and d.values.shape.as_list() == [None]
        assert d.dense_shape.shape == (2,) and p.shape.as_list() == [batch, 1]
        return tf.sparse.to_dense(d, default_value=-1), p

    @tf.function(input_signature=signature)
    def beam(x, n):
        decoded, p = tf.nn.ctc_beam_search_decoder(x, n, beam_width=3, top_paths=2)
        assert p.shape.as_list() == [batch, 2]
        assert [d.indices.shape.as_list() for d in decoded] == [[None, 2]] * 2
        return [tf.sparse.to_dense(d, default_value=-1) for d in decoded], p

    dense, p = greedy(LOGITS, LOGIT_LENGTH)
    assert dense.numpy().tolist() == [[2, 1, 3, 1, 3], [1, 2, -1, -1, -1]]
    np.testing.assert_allclose(p, [[-4.7594566], [-6.020398]], rtol=1e-6)
    logits = np.random.default_rng(0).normal(size=(6, 2, 5)).astype(np.float32)
    paths, p = beam(logits, [6, 5])
    eager, eager_p = tf.nn.ctc_beam_search_decoder(logits, [6, 5], beam_width=3, top_paths=2)
    assert [d.numpy().tolist() for d in paths] == [
        tf.sparse.to_dense(d, default_value=-1).numpy().tolist() for d in eager]
    np.testing.assert_allclose(p, eager_p)
    with pytest.raises(tf.errors.FailedPreconditionError, match=r"sequence_length\(0\) <= 6"):
        greedy(LOGITS, [7, 1])


def test_decoder_errors():
    with pytest.raises(tf.errors.FailedPreconditionError,
                       match="len.sequence_length. != batch_size"):
        tf.nn.ctc_greedy_decoder(LOGITS, [1, 1, 1])
    with pytest.raises(tf.errors.InvalidArgumentError, match="more paths than the beam width"):
        tf.nn.ctc_beam_search_decoder(LOGITS, LOGIT_LENGTH, beam_width=1, top_paths=2)


def test_keras_ctc_decode_in_predict_and_functions():
    y_pred = tf.nn.softmax(np.random.default_rng(0).normal(size=(2, 6, 5)).astype(np.float32))
    inputs = tf.keras.Input((None, 5))
    decoded = tf.keras.layers.Lambda(lambda t: tf.keras.backend.ctc_decode(
        t, tf.fill(tf.shape(t)[:1], tf.shape(t)[1]))[0][0])(inputs)
    model = tf.keras.Model(inputs, decoded)
    assert model.predict(y_pred, verbose=0).tolist() == [[2, 1, 1, -1, -1, -1],
                                                        [3, 1, 2, 3, 2, -1]]

    @tf.function(input_signature=[tf.TensorSpec([None, None], tf.int32),
                                  tf.TensorSpec([None], tf.int32)])
    def to_sparse(labels, lengths):
        return tf.sparse.to_dense(tf.keras.backend.ctc_label_dense_to_sparse(labels, lengths),
                                  default_value=-1)
    assert to_sparse(LABELS, [3, 2]).numpy().tolist() == [[1, 2, 2], [3, 1, -1]]


def test_raw_beam_search_merges_repeats_of_decoded_paths():
    # TF's op with merge_repeated (its default) merges a path's repeated labels once decoded,
    # "1 (blank) 1" becoming "1"; tf.nn.ctc_beam_search_decoder keeps them
    x = np.log(np.array([[[0.2, 0.7, 0.1]], [[0.1, 0.8, 0.1]], [[0.1, 0.2, 0.7]],
                         [[0.6, 0.3, 0.1]]], np.float32))
    raw = tf.raw_ops.CTCBeamSearchDecoder(inputs=x, sequence_length=[4], beam_width=5,
                                          top_paths=2)
    assert [v.numpy().tolist() for v in raw.decoded_values] == [[1, 0], [1]]
    assert len(raw.decoded_indices) == 2 and raw.log_probability.shape == (1, 2)
    decoded, _ = tf.nn.ctc_beam_search_decoder(x, [4], beam_width=5, top_paths=2)
    assert [d.values.numpy().tolist() for d in decoded] == [[1, 0], [1, 1]]


def test_decoder_rank_errors_eagerly_and_in_functions():
    with pytest.raises(tf.errors.InvalidArgumentError, match="inputs is not a 3-Tensor"):
        tf.nn.ctc_greedy_decoder(LOGITS[0], [1, 1])
    greedy = tf.function(lambda x, n: tf.nn.ctc_greedy_decoder(x, n)[1],
                         input_signature=[tf.TensorSpec([None, 3]),
                                          tf.TensorSpec([None], tf.int32)])
    with pytest.raises(ValueError, match=r"Shape must be rank 3 but is rank 2 for "
                                         r"'\{\{node CTCGreedyDecoder\}\}.*\[\?,3\], \[\?\]"):
        greedy.get_concrete_function()
    beam = tf.function(lambda x, n: tf.nn.ctc_beam_search_decoder(x, n)[1],
                       input_signature=[tf.TensorSpec([None, 2, 3]),
                                        tf.TensorSpec([None, 1], tf.int32)])
    with pytest.raises(ValueError, match="Shape must be rank 1 but is rank 2"):
        beam.get_concrete_function()


@pytest.mark.parametrize("decoder", [tf.nn.ctc_greedy_decoder, tf.nn.ctc_beam_search_decoder])
def test_decoders_take_numpy_and_python_numbers_as_float32(decoder):
    x = np.array([[[0, 3, 1]], [[2, 0, 1]]], np.int32)
    for inputs in (x, x.astype(np.int64), x.tolist(), x.astype(np.float64)):
        decoded, log_probability = decoder(inputs, np.array([2]))
        assert decoded[0].values.numpy().tolist() == [1, 0]
        assert log_probability.dtype == tf.float32
    with pytest.raises(tf.errors.InvalidArgumentError, match="int32 is not in the list"):
        decoder(tf.constant(x), np.array([2]))


def test_label_equal_to_a_nonzero_blank_is_the_class_below_it():
    # TF moves the blank class first and shifts the labels below it up one, so a label equal
    # to blank_index (> 0) scores as class blank_index - 1 (TF 2.21's losses)
    logits = tf.constant(np.random.RandomState(1).randn(5, 2, 4).astype(np.float32))
    labels = tf.constant([[1, 2, 0], [3, 3, 0]])
    for blank, want in ((-1, [5.2266493, 2.6778297]), (3, [5.2266493, 2.6778297]),
                        (2, [6.0463886, 2.7752233])):
        got = tf.nn.ctc_loss(labels, logits, tf.constant([2, 1]), tf.constant([5, 4]),
                             blank_index=blank)
        np.testing.assert_allclose(got.numpy(), want, rtol=1e-5)


def test_unique_labels_of_unknown_rank_is_a_matrix_when_traced():
    traced = tf.function(tf.nn.ctc_unique_labels, input_signature=[tf.TensorSpec(None, tf.int32)])
    unique, index = traced.get_concrete_function().outputs
    assert unique.shape.as_list() == [None, None] and index.shape.rank is None  # TF's


# TF 1's ctc_loss: SparseTensor labels, the blank the last class (values recorded from TF).
V1_LOGITS = np.random.RandomState(0).randn(6, 3, 4).astype(np.float32)
V1_LOSSES = {  # (preprocess_collapse_repeated, ctc_merge_repeated): (losses, row sums of the
    # gradient of losses * [1, 2, 3] wrt the logits of sequences 1 and 0)
    (False, True): ([6.2325573, 3.9166582, 1.726199], [0.7299549, 1.2946553, -2.6189654,
                                                       0.5943542],
                    [2.2327156, -1.5115769, 0.9433202, -1.6644583]),
    (False, False): ([6.7563434, 4.459267, 2.399022], [1.758452, 1.2946553, -2.2930627,
                                                       -0.7600432],
                     [2.2327156, -0.6530441, 0.9433202, -2.5229888]),
    (True, True): ([6.752396, 2.2950406, 1.726199], [-0.8118316, 1.2946553, -0.4563789,
                                                     -0.0264449],
                   [2.2327156, -1.1361678, 0.9433202, -2.0398688]),
    (True, False): ([7.955061, 4.3067684, 2.399022], [1.7584513, 1.2946553, -0.2930636,
                                                      -2.7600462],
                    [2.2327156, 0.3469547, 0.9433202, -3.5229907]),
}


def _v1_labels():
    return tf.SparseTensor([[0, 0], [0, 1], [1, 0], [1, 1], [1, 2], [2, 0]],
                           tf.constant([1, 1, 0, 2, 2, 2], tf.int32), [3, 3])


@pytest.mark.parametrize("collapse,merge", sorted(V1_LOSSES))
def test_v1_ctc_loss_values_and_gradients(collapse, merge):
    losses, grad1, grad0 = V1_LOSSES[(collapse, merge)]
    logits = tf.constant(V1_LOGITS)
    with tf.GradientTape() as tape:
        tape.watch(logits)
        loss = tf.compat.v1.nn.ctc_loss(_v1_labels(), logits, [6, 5, 4],
                                        preprocess_collapse_repeated=collapse,
                                        ctc_merge_repeated=merge)
        weighted = loss * [1., 2., 3.]
    grad = tape.gradient(weighted, logits).numpy()
    np.testing.assert_allclose(loss, losses, rtol=1e-5)
    np.testing.assert_allclose(grad[:, 1].sum(0), grad1, rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(grad[:, 0].sum(0), grad0, rtol=1e-5, atol=1e-5)


def test_v1_ctc_loss_layouts_functions_and_graphs():
    want = V1_LOSSES[(False, True)][0]
    labels = _v1_labels()
    np.testing.assert_allclose(tf.compat.v1.nn.ctc_loss(
        labels, np.transpose(V1_LOGITS, [1, 0, 2]), [6, 5, 4], time_major=False), want, rtol=1e-5)
    np.testing.assert_allclose(tf.compat.v1.nn.ctc_loss(
        labels, logits=V1_LOGITS, sequence_length=[6, 5, 4]), want, rtol=1e-5)
    fn = tf.function(lambda x: tf.compat.v1.nn.ctc_loss(labels, x, [6, 5, 4]),
                     input_signature=[tf.TensorSpec([None, None, None], tf.float32)])
    np.testing.assert_allclose(fn(V1_LOGITS), want, rtol=1e-5)
    with tf.Graph().as_default():
        x = tf.compat.v1.placeholder(tf.float32, [None, None, 4])
        loss = tf.compat.v1.nn.ctc_loss(_v1_labels(), x, tf.constant([6, 5, 4]))
        grad = tf.compat.v1.gradients(tf.reduce_sum(loss), x)[0]
        assert loss.shape.as_list() == [3]
        with tf.compat.v1.Session() as sess:
            got, g = sess.run([loss, grad], {x: V1_LOGITS})
    np.testing.assert_allclose(got, want, rtol=1e-5)
    np.testing.assert_allclose(np.abs(g).sum(), 13.04968, rtol=1e-5)


def test_v1_ctc_loss_errors_and_too_long_labels():
    logits = tf.constant(V1_LOGITS)
    too_long = tf.SparseTensor([[0, 0], [1, 0], [2, 0], [2, 1]],
                               tf.constant([1, 1, 0, 1], tf.int32), [3, 2])
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"Not enough time for target transition sequence \(required: 2, "
                             r"available: 1\)2"):
        tf.compat.v1.nn.ctc_loss(too_long, logits, [6, 5, 1])
    with tf.GradientTape() as tape:
        tape.watch(logits)
        loss = tf.compat.v1.nn.ctc_loss(too_long, logits, [6, 5, 1],
                                        ignore_longer_outputs_than_inputs=True)
    assert loss.numpy()[2] == 0 and not tape.gradient(loss, logits).numpy()[:, 2].any()
    with pytest.raises(tf.errors.InvalidArgumentError, match="Labels length is zero in batch 1"):
        tf.compat.v1.nn.ctc_loss(tf.SparseTensor([[0, 0]], tf.constant([1]), [3, 1]),
                                 logits, [6, 5, 4])
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"sequence_length\(1\) <= 6"):
        tf.compat.v1.nn.ctc_loss(_v1_labels(), logits, [6, 7, 4])
    with pytest.raises(TypeError, match="Expected argument `labels` to be a SparseTensor"):
        tf.compat.v1.nn.ctc_loss(tf.constant([[1, 2]]), logits[:, :1], [6])
    # a label that cannot be emitted (a repeat needs a blank between): TF's inf loss and
    # the softmax as its gradient
    repeat = tf.SparseTensor([[0, 0], [0, 1], [1, 0], [2, 0]], tf.constant([1, 1, 1, 1]), [3, 2])
    with tf.GradientTape() as tape:
        tape.watch(logits)
        loss = tf.compat.v1.nn.ctc_loss(repeat, logits, [2, 5, 4])
    assert np.isinf(loss.numpy()[0])
    np.testing.assert_allclose(tape.gradient(loss, logits)[:2, 0],
                               tf.nn.softmax(logits[:2, 0]), rtol=1e-5)


def test_v1_beam_search_decoder_merges_repeated_labels_by_default():
    x = np.log(np.array([[[0.1, 0.8, 0.1]], [[0.1, 0.1, 0.8]], [[0.1, 0.8, 0.1]],
                         [[0.2, 0.6, 0.2]], [[0.1, 0.1, 0.8]]], np.float32))
    for decode, want in ((tf.compat.v1.nn.ctc_beam_search_decoder, [[[1]], [[1, 0]]]),
                         (lambda *a: tf.compat.v1.nn.ctc_beam_search_decoder(
                             *a, merge_repeated=False), [[[1, 1]], [[1, 1, 0]]]),
                         (tf.compat.v1.nn.ctc_beam_search_decoder_v2, [[[1, 1]], [[1, 1, 0]]])):
        decoded, log_probs = decode(x, [5], 4, 2)
        assert [tf.sparse.to_dense(d).numpy().tolist() for d in decoded] == want
        np.testing.assert_allclose(log_probs, [[-0.9113031, -1.9841]], rtol=1e-4)


def test_keras_beam_ctc_decode_merges_repeats_like_tf1():
    # Keras 2 decodes with TF 1's beam search: a "4 (blank) 4" path decodes as [4], where
    # the greedy decoder (blank between) keeps [4, 4]
    p = np.full((2, 6, 7), 0.01, np.float32)
    for t, c in enumerate([1, 1, 6, 2, 2, 3]):
        p[0, t, c] = 0.9
    for t, c in enumerate([6, 4, 4, 6, 4, 0]):
        p[1, t, c] = 0.9
    (greedy,), _ = tf.keras.backend.ctc_decode(p, np.array([6, 5]))
    assert greedy.numpy().tolist() == [[1, 2, 3, -1, -1, -1], [4, 4, -1, -1, -1, -1]]
    paths, log_prob = tf.keras.backend.ctc_decode(p, np.array([6, 5]), greedy=False,
                                                  beam_width=3, top_paths=2)
    assert [d.numpy().tolist() for d in paths] == [
        [[1, 2, 3, -1, -1, -1], [4, -1, -1, -1, -1, -1]],
        [[1, 0, 2, 3, -1, -1], [4, -1, -1, -1, -1, -1]]]
    np.testing.assert_allclose(log_prob, [[-0.3322, -3.7481], [-0.3116, -4.1183]], atol=1e-4)
