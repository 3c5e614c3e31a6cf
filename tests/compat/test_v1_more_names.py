"""TF 1 names of ``tf.compat.v1`` that are TF 2 objects under another name (as TF 2.21
exports them), next to the namespaces' other names."""
import numpy as np
import pytest

import eagerflow as tf
import eagerflow.compat.v1 as tf1


def test_v1_spellings_are_the_tf2_objects():
    assert tf1.debugging.is_nan is tf.math.is_nan
    assert tf1.debugging.is_finite is tf.math.is_finite
    assert tf1.debugging.is_inf is tf.math.is_inf
    assert tf1.debugging.is_non_decreasing is tf.math.is_non_decreasing
    assert tf1.debugging.is_strictly_increasing is tf.math.is_strictly_increasing
    assert tf1.dtypes.as_string is tf.strings.as_string
    assert tf1.linalg.transpose is tf.linalg.matrix_transpose
    assert tf1.nn.ctc_loss_v2 is tf.nn.ctc_loss
    assert tf1.nn.ctc_beam_search_decoder_v2 is tf.nn.ctc_beam_search_decoder
    assert tf1.nn.uniform_candidate_sampler is tf.random.uniform_candidate_sampler
    assert tf1.nn.log_uniform_candidate_sampler is tf.random.log_uniform_candidate_sampler
    assert tf1.gfile.FastGFile is tf.io.gfile.GFile


def test_the_namespaces_keep_their_other_names():
    assert tf1.debugging.assert_equal is not None and tf1.dtypes.float32 is tf.float32
    assert tf1.linalg.matmul is tf.linalg.matmul
    assert tf1.errors.NotFoundError is tf.errors.NotFoundError
    assert tf1.test.TestCase is tf.test.TestCase
    assert tf1.linalg.transpose([[1, 2, 3]]).numpy().tolist() == [[1], [2], [3]]
    x = tf.constant([1.0, np.nan, np.inf])
    assert tf1.debugging.is_nan(x).numpy().tolist() == [False, True, False]


def test_fast_gfile_reads_what_it_wrote(tmp_path):
    path = str(tmp_path / "f.bin")
    with tf1.gfile.FastGFile(path, "wb") as f:
        f.write(b"abc")
    assert tf1.gfile.FastGFile(path, "rb").read() == b"abc"


def test_uniform_unit_scaling_draws_tfs_values():
    # TF 2.21, same seeds, the ops' sequences fresh (earlier draws of these seeds restarted)
    tf.random.set_seed(None)
    init = tf1.uniform_unit_scaling_initializer(factor=1.5, seed=7)
    assert tf1.initializers.uniform_unit_scaling is tf1.uniform_unit_scaling_initializer
    np.testing.assert_array_equal(init([4, 3]).numpy(), np.array(
        [[-0.041722655296325684, 0.016116023063659668, -0.6361551284790039],
         [-0.9749481678009033, 1.1249932050704956, 0.427667498588562],
         [-0.7034955024719238, 0.8943284749984741, 0.6991513967514038],
         [0.13282155990600586, 1.1339539289474487, -1.0152547359466553]], np.float32))
    assert init.get_config() == {"factor": 1.5, "seed": 7, "dtype": "float32"}
    np.testing.assert_array_equal(tf1.uniform_unit_scaling_initializer(seed=2)([5]).numpy(),
                                  np.array([0.6191962957382202, 0.7418404817581177,
                                            -0.10455727577209473, -0.06245875358581543,
                                            -0.07488775253295898], np.float32))
    wide = tf1.uniform_unit_scaling_initializer(seed=2, dtype=tf.float64)([2, 2, 3]).numpy()
    assert wide.dtype == np.float64 and wide[0, 0].tolist() == [
        -0.12128930542799343, 0.4477977436718341, 0.5664744232414378]
    with pytest.raises(ValueError, match="Argument `dtype` is expected to be floating point. "
                                         "Received: <dtype: 'int32'>."):
        tf1.uniform_unit_scaling_initializer(dtype=tf.int32)


def test_stateless_multinomial_is_stateless_categorical_with_tf1s_arguments():
    logits = tf.math.log([[0.2, 0.8], [0.5, 0.5]])
    got = tf1.random.stateless_multinomial(logits, 5, seed=[1, 2])
    assert got.dtype == tf.int64 and got.numpy().tolist() == [[1, 1, 0, 1, 1], [1, 1, 0, 1, 1]]
    small = tf1.random.stateless_multinomial(tf.math.log([[0.2, 0.8]]), 3, seed=[3, 4],
                                             output_dtype=tf.int32)
    assert small.dtype == tf.int32 and small.numpy().tolist() == [[1, 1, 0]]


def test_error_codes_and_classes():
    assert tf1.errors.error_code_from_exception_type(tf.errors.NotFoundError) == 5
    assert tf1.errors.exception_type_from_error_code(3) is tf.errors.InvalidArgumentError
    with pytest.raises(KeyError):
        tf1.errors.exception_type_from_error_code(99)
    # (TF warns and returns, not raises, an UnknownError for another class)
    with pytest.warns(UserWarning, match="Unknown class exception"):
        got = tf1.errors.error_code_from_exception_type(ValueError)
    assert isinstance(got, tf.errors.UnknownError) and str(got) == "Unknown class exception"


def test_get_temp_dir_is_one_existing_directory():
    import os
    path = tf1.test.get_temp_dir()
    assert os.path.isdir(path) and tf1.test.get_temp_dir() == path


def test_conv_backprop_and_depthwise_native_give_tfs_values():
    # TF 2.21's values for these inputs
    rs = np.random.RandomState(0)
    x = rs.rand(1, 5, 5, 2).astype(np.float32)
    f = rs.rand(3, 3, 2, 4).astype(np.float32)
    dy = rs.rand(1, 3, 3, 4).astype(np.float32)
    dx = tf1.nn.conv2d_backprop_input([1, 5, 5, 2], f, dy, [1, 1, 1, 1], "VALID").numpy()
    np.testing.assert_allclose(dx[0, 0], [[1.30842, 0.734], [1.56286, 1.5807],
                                          [2.18532, 2.66946], [1.07355, 1.58184],
                                          [0.6912, 1.11715]], atol=1e-5)
    same = tf1.nn.conv2d_backprop_input([1, 5, 5, 2], None, dy, [1, 1, 1, 1], "VALID",
                                        filters=f)
    np.testing.assert_allclose(same.numpy().sum(), 164.5062, rtol=1e-6)
    df = tf1.nn.conv2d_backprop_filter(x, [3, 3, 2, 4], dy, [1, 1, 1, 1], "VALID")
    np.testing.assert_allclose(df.numpy().sum(), 180.9436, rtol=1e-6)
    x3, dy3 = rs.rand(1, 4, 4, 4, 1).astype(np.float32), rs.rand(1, 2, 2, 2, 2).astype(np.float32)
    df3 = tf1.nn.conv3d_backprop_filter(x3, [3, 3, 3, 1, 2], dy3, [1] * 5, "VALID")
    np.testing.assert_allclose(df3.numpy().sum(), 86.9092, rtol=1e-6)
    assert tf1.nn.conv3d_backprop_filter_v2 is tf1.nn.conv3d_backprop_filter
    fd = rs.rand(3, 3, 2, 2).astype(np.float32)
    out = tf1.nn.depthwise_conv2d_native(x, fd, [1, 1, 1, 1], "SAME")
    np.testing.assert_allclose(out.numpy().sum(), 181.1647, rtol=1e-6)
    assert tf1.nn.depthwise_conv2d_native(x, fd, [1, 2, 2, 1], "SAME").shape == (1, 3, 3, 4)


def test_more_v1_spellings():
    assert tf1.string_to_hash_bucket(["a", "hello"], 10).numpy().tolist() == [8, 8]
    assert tf1.string_to_hash_bucket(input=["x"], num_buckets=7).numpy().tolist() == [5]
    assert (tf1.GRAPH_DEF_VERSION, tf1.GRAPH_DEF_VERSION_MIN_CONSUMER,
            tf1.GRAPH_DEF_VERSION_MIN_PRODUCER) == (2474, 0, 0)
    assert tf1.data.INFINITE_CARDINALITY == -1


def test_batch_scatter_update_sets_rows_per_batch_position():
    # TF 2.21's results
    v = tf.Variable(np.arange(12, dtype=np.float32).reshape(2, 3, 2))
    got = tf1.batch_scatter_update(v, [[0, 2], [1, 1]], np.array(
        [[[10, 11], [12, 13]], [[20, 21], [22, 23]]], np.float32))
    want = [[[10.0, 11.0], [2.0, 3.0], [12.0, 13.0]], [[6.0, 7.0], [22.0, 23.0], [10.0, 11.0]]]
    assert got.numpy().tolist() == want and v.numpy().tolist() == want
    with tf1.Graph().as_default():
        gv = tf1.Variable([[1.0, 2.0], [3.0, 4.0]])
        op = tf1.batch_scatter_update(gv, tf.constant([[1], [0]]), tf.constant([[9.0], [8.0]]))
        with tf1.Session() as sess:
            sess.run(gv.initializer)
            assert sess.run(op).tolist() == [[1.0, 9.0], [8.0, 4.0]]
            assert sess.run(gv).tolist() == [[1.0, 9.0], [8.0, 4.0]]
