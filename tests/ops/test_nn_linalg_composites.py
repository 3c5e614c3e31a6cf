"""tf.nn / tf.linalg / tf.sparse functions TF builds from other ops, against TF 2.21's values
(recorded from the same calls) and the identities they must satisfy."""
import numpy as np
import pytest

import eagerflow as tf

RNG = np.random.RandomState(0)
X = RNG.randn(1, 4, 4, 2).astype(np.float32)
W = RNG.randn(3, 3, 3, 2).astype(np.float32)


def test_conv_transpose_picks_the_rank_from_the_output_shape():
    two = tf.nn.conv_transpose(X, W, [1, 8, 8, 3], 2)
    np.testing.assert_allclose(two, tf.nn.conv2d_transpose(X, W, [1, 8, 8, 3], 2), rtol=1e-6)
    np.testing.assert_allclose(two.numpy()[0, 0, :3, 0], [-2.359, -0.804, -6.382], atol=1e-3)  # TF's
    one = tf.nn.conv_transpose(X[:, 0], W[0], [1, 8, 3], 2)
    assert one.shape == (1, 8, 3)
    np.testing.assert_allclose(one.numpy()[0, 0], [-2.359, -0.551, 2.651], atol=1e-3)
    with pytest.raises(ValueError, match="must be of length 3, 4 or 5"):
        tf.nn.conv_transpose(X, W, [1, 8, 3, 3, 3, 3], 2)


def test_atrous_conv2d_transpose_is_the_adjoint_of_atrous_conv2d():
    same = tf.nn.atrous_conv2d_transpose(X, W, [1, 4, 4, 3], 2, "SAME")
    np.testing.assert_allclose(same.numpy()[0, 0, :, 0], [-1.357, 0.673, -2.177, -4.543], atol=1e-3)
    valid = tf.nn.atrous_conv2d_transpose(X, W, [1, 8, 8, 3], 2, "VALID")
    np.testing.assert_allclose(valid.numpy()[0, 0, :4, 1], [-0.551, 0.01, -3.22, -4.563], atol=1e-3)
    # <atrous_conv2d(u), x> == <u, atrous_conv2d_transpose(x)>
    u = tf.constant(RNG.randn(1, 8, 8, 3).astype(np.float32))
    lhs = tf.reduce_sum(tf.nn.atrous_conv2d(u, W, 2, "VALID") * X)
    rhs = tf.reduce_sum(u * valid)
    np.testing.assert_allclose(lhs.numpy(), rhs.numpy(), rtol=1e-4)
    with pytest.raises(ValueError, match="`rate` cannot be less than one"):
        tf.nn.atrous_conv2d_transpose(X, W, [1, 6, 6, 3], 0, "VALID")
    with pytest.raises(ValueError, match="must be either 'VALID' or 'SAME'"):
        tf.nn.atrous_conv2d_transpose(X, W, [1, 6, 6, 3], 2, "FULL")
    with pytest.raises(ValueError, match="channel count must be compatible"):
        tf.nn.atrous_conv2d_transpose(X, W[..., :1], [1, 6, 6, 3], 2, "SAME")


def test_depthwise_backprops_are_the_depthwise_gradients():
    w = tf.constant(RNG.randn(3, 3, 2, 2).astype(np.float32))
    x = tf.constant(X)
    with tf.GradientTape(persistent=True) as tape:
        tape.watch([x, w])
        y = tf.nn.depthwise_conv2d(x, w, [1, 1, 1, 1], "VALID")
    dy = tf.ones_like(y)
    dx = tf.nn.depthwise_conv2d_backprop_input([1, 4, 4, 2], w, dy, [1, 1, 1, 1], "VALID")
    dw = tf.nn.depthwise_conv2d_backprop_filter(x, [3, 3, 2, 2], dy, [1, 1, 1, 1], "VALID")
    np.testing.assert_allclose(dx, tape.gradient(y, x), rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(dw, tape.gradient(y, w), rtol=1e-5, atol=1e-6)
    ones = tf.nn.depthwise_conv2d_backprop_input([1, 4, 4, 2], tf.ones([3, 3, 2, 1]),
                                                 tf.ones([1, 2, 2, 2]), [1, 1, 1, 1], "VALID")
    assert ones.numpy()[0, :, 0, 0].tolist() == [1, 2, 2, 1]  # TF's


def test_collapse_repeated_and_ctc_unique_labels():
    y, n = tf.nn.collapse_repeated([[1, 1, 2, 2, 3], [4, 4, 4, 0, 0], [5, 6, 6, 6, 6]],
                                   [5, 3, 4])
    assert y.numpy().tolist() == [[1, 2, 3], [4, 0, 0], [5, 6, 0]]
    assert n.numpy().tolist() == [3, 1, 2] and n.dtype == tf.int32
    y, n = tf.nn.collapse_repeated(tf.constant([[5, 5, 5]], tf.int64), tf.constant([0], tf.int64))
    assert y.shape == (1, 0) and n.dtype == tf.int64
    u, i = tf.nn.ctc_unique_labels([[3, 4, 4, 3], [1, 1, 0, 0]])
    assert u.dtype == tf.int64 and i.dtype == tf.int32
    assert u.numpy().tolist() == [[3, 4, 0, 0], [1, 0, 0, 0]]
    assert i.numpy().tolist() == [[0, 1, 1, 0], [0, 0, 1, 1]]

    @tf.function(input_signature=[tf.TensorSpec([None, None], tf.int32)] * 2)
    def f(labels, lengths):
        return tf.nn.collapse_repeated(labels, lengths[:, 0])[0]
    assert f(tf.constant([[1, 1, 2]]), tf.constant([[3]])).numpy().tolist() == [[1, 2]]


def test_isotonic_regression():
    y, s = tf.nn.isotonic_regression([[1.0, 3.0, 2.0, 4.0], [4.0, 3.0, 2.0, 1.0]])
    assert y.numpy().tolist() == [[2.5] * 4, [4, 3, 2, 1]]
    assert s.numpy().tolist() == [[0] * 4, [0, 1, 2, 3]] and s.dtype == tf.int32
    y, s = tf.nn.isotonic_regression([[1.0, 3.0], [2.0, 4.0], [0.0, 5.0]], axis=0)
    assert y.numpy().tolist() == [[1.5, 4], [1.5, 4], [0, 4]]
    assert s.numpy().tolist() == [[0, 0], [0, 0], [1, 0]]
    y, s = tf.nn.isotonic_regression([1.0, 3.0, 2.0])  # equal means stay apart
    assert y.numpy().tolist() == [2, 2, 2] and s.numpy().tolist() == [0, 0, 1]
    y, s = tf.nn.isotonic_regression([[1.0, np.nan, 2.0]])  # a NaN never merges
    assert np.isnan(y.numpy()[0, 1]) and s.numpy().tolist() == [[0, 1, 2]]
    assert tf.nn.isotonic_regression(tf.constant([[1, 3, 2]]))[0].dtype == tf.float64
    for small in (tf.int8, tf.int16):  # TF promotes these to float32
        y = tf.nn.isotonic_regression(tf.constant([[3, 1, 2]], small))[0]
        assert y.dtype == tf.float32 and y.numpy().tolist() == [[3, 1.5, 1.5]]
    assert tf.nn.isotonic_regression(tf.zeros([2, 0]))[0].shape == (2, 0)
    v = tf.Variable([[1.0, 3.0, 2.0, 4.0, 0.0]])
    with tf.GradientTape() as tape:
        y, _ = tf.nn.isotonic_regression(v)
        loss = tf.reduce_sum(y * [[1.0, 2.0, 3.0, 4.0, 5.0]])
    assert tape.gradient(loss, v).numpy().tolist() == [[2.5, 2.5, 2.5, 2.5, 5.0]]  # TF's

    @tf.function(input_signature=[tf.TensorSpec(None, tf.float32)])
    def f(x):
        return tf.nn.isotonic_regression(x, decreasing=False)
    y, s = f(tf.constant([[1.0, 3.0, 2.0, 4.0]]))
    assert y.numpy().tolist() == [[1, 2.5, 2.5, 4]] and s.numpy().tolist() == [[0, 1, 1, 2]]


def test_batch_norm_with_global_normalization():
    args = [tf.constant(v) for v in ([0.1, 0.2], [1.0, 2.0], [0.5, 0.5], [2.0, 3.0])]
    scaled = tf.nn.batch_norm_with_global_normalization(X, *args, 1e-3, True)
    plain = tf.nn.batch_norm_with_global_normalization(X, *args, 1e-3, False)
    np.testing.assert_allclose(scaled, tf.nn.batch_normalization(X, *args[:3], args[3], 1e-3))
    np.testing.assert_allclose(plain, tf.nn.batch_normalization(X, *args[:3], None, 1e-3))


def test_parallel_stack_and_guarantee_const():
    with pytest.raises(RuntimeError, match="not compatible with eager execution"):
        tf.parallel_stack([[1, 2], [3, 4]])
    f = tf.function(lambda a, b: tf.parallel_stack([a, b]))
    assert f(tf.constant([1.0]), tf.constant([2.0])).numpy().tolist() == [[1], [2]]
    assert tf.guarantee_const([1.0, 2.0]).numpy().tolist() == [1, 2]
    m = tf.constant([[4.0, 0.0], [0.0, 9.0]])
    assert tf.matrix_square_root(m).numpy().tolist() == [[2, 0], [0, 3]]


def test_sampled_addmm():
    indices, values, shape = tf.sparse.sampled_addmm(
        [[0, 1], [1, 0]], [1.0, 2.0], [2, 2], tf.ones([2, 3]), tf.ones([3, 2]), beta=0.5,
        alpha=2.0)
    assert values.numpy().tolist() == [6.5, 7.0]
    assert indices.numpy().tolist() == [[0, 1], [1, 0]] and shape.numpy().tolist() == [2, 2]
    m1, m2 = RNG.randn(2, 2, 3).astype(np.float32), RNG.randn(2, 3, 2).astype(np.float32)
    _, values, _ = tf.sparse.sampled_addmm([[[0, 1]], [[1, 0]]], [[1.0], [2.0]], [2, 2], m1, m2)
    full = m1 @ m2
    np.testing.assert_allclose(values, [[full[0, 0, 1] + 1], [full[1, 1, 0] + 2]], rtol=1e-5)


def test_eigh_tridiagonal():
    values = tf.linalg.eigh_tridiagonal([1.0, 2.0, 3.0], [0.5, 0.5])
    np.testing.assert_allclose(values.numpy(), [0.775, 2.0, 3.225], atol=1e-3)  # TF's
    values, vectors = tf.linalg.eigh_tridiagonal([1.0, 2.0, 3.0], [0.5, 0.5], eigvals_only=False)
    matrix = np.diag([1.0, 2.0, 3.0]) + np.diag([0.5, 0.5], 1) + np.diag([0.5, 0.5], -1)
    np.testing.assert_allclose(matrix @ vectors.numpy(), vectors.numpy() * values.numpy(),
                               atol=1e-5)
    picked = tf.linalg.eigh_tridiagonal([1.0, 2.0, 3.0], [0.5, 0.5], select="i",
                                        select_range=[1, 2])
    np.testing.assert_allclose(picked.numpy(), [2.0, 3.225], atol=1e-3)
    picked = tf.linalg.eigh_tridiagonal([1.0, 2.0, 3.0], [0.5, 0.5], select="v",
                                        select_range=[1.5, 5.0])
    np.testing.assert_allclose(picked.numpy(), [2.0, 3.225], atol=1e-3)
    hermitian = tf.linalg.eigh_tridiagonal(tf.constant([1.0, 2.0], tf.complex64),
                                           tf.constant([1j], tf.complex64))
    assert hermitian.dtype == tf.float32
    np.testing.assert_allclose(hermitian.numpy(), [0.382, 2.618], atol=1e-3)
    with pytest.raises(ValueError, match="select must have a value in"):
        tf.linalg.eigh_tridiagonal([1.0, 2.0], [0.5], select="x")


def test_compute_accidental_hits():
    indices, ids, weights = tf.nn.compute_accidental_hits(
        [[1, 2], [3, 1]], tf.constant([1, 5, 3], tf.int64), 2)
    assert indices.dtype == tf.int32 and ids.dtype == tf.int64
    assert indices.numpy().tolist() == [0, 1, 1] and ids.numpy().tolist() == [0, 2, 0]
    assert weights.numpy().tolist() == [np.finfo(np.float32).min] * 3
    none = tf.nn.compute_accidental_hits([[7]], tf.constant([1, 5], tf.int64), 1)
    assert [t.shape for t in none] == [(0,)] * 3


def test_saved_model_constants():
    assert tf.saved_model.ASSETS_DIRECTORY == "assets"
    assert tf.saved_model.CLASSIFY_METHOD_NAME == "tensorflow/serving/classify"
    assert tf.saved_model.TRAINING == "train" and tf.saved_model.SAVED_MODEL_SCHEMA_VERSION == 1


def test_top_level_op_functions():
    top = tf.approx_top_k(tf.constant([1.0, 5.0, 3.0, 4.0]), 2)
    assert top.values.numpy().tolist() == [5, 4] and top.indices.numpy().tolist() == [1, 3]
    shuffled = tf.random_index_shuffle(tf.constant(3, tf.int64), tf.constant([1, 2, 3], tf.int64),
                                       tf.constant(9, tf.int64))
    assert shuffled.numpy() == 4  # TF's
    # the [2] seed of index_shuffle is the op's [3] one with a leading constant
    everything = tf.random.experimental.index_shuffle(tf.range(10, dtype=tf.int64), [5, 9], 9)
    assert sorted(everything.numpy().tolist()) == list(range(10))


def test_with_space_to_batch_dilates_the_op():
    x = tf.reshape(tf.range(2 * 7 * 8 * 3, dtype=tf.float32), [2, 7, 8, 3]) / 100.0
    w = tf.reshape(tf.range(3 * 2 * 3 * 4, dtype=tf.float32), [3, 2, 3, 4]) / 50.0

    def conv(inp, num_spatial_dims, padding):
        return tf.nn.conv2d(inp, w, 1, padding)
    for padding, rate, shape, total in (("VALID", [2, 2], (2, 3, 6, 4), 3491.3809),
                                        ("VALID", [2, 3], (2, 3, 5, 4), 2913.3721),
                                        ("SAME", [2, 3], (2, 7, 8, 4), 6623.7065),
                                        ("SAME", [1, 1], (2, 7, 8, 4), 8335.0342)):
        out = tf.nn.with_space_to_batch(x, rate, padding, conv, filter_shape=[3, 2])
        assert out.shape == shape and float(tf.reduce_sum(out)) == pytest.approx(total, rel=1e-5)
        # a dilated convolution computes the same
        np.testing.assert_allclose(out, tf.nn.conv2d(x, w, 1, padding, dilations=rate),
                                   rtol=1e-5, atol=1e-4)
    with pytest.raises(ValueError, match="`filter_shape` must be specified"):
        tf.nn.with_space_to_batch(x, [2, 2], "SAME", conv)
    with pytest.raises(ValueError, match="must be one of 'SAME' or 'VALID'"):
        tf.nn.with_space_to_batch(x, [2, 2], "FULL", conv, filter_shape=[3, 2])
    with pytest.raises(ValueError, match="`dilation_rate` must be positive"):
        tf.nn.with_space_to_batch(x, [0, 2], "VALID", conv)
