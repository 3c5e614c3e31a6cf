"""TF 1 names of ``tf.compat.v1`` that are TF 2 objects under another name (as TF 2.21
exports them), next to the namespaces' other names."""
import numpy as np

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
    assert tf1.linalg.transpose([[1, 2, 3]]).numpy().tolist() == [[1], [2], [3]]
    x = tf.constant([1.0, np.nan, np.inf])
    assert tf1.debugging.is_nan(x).numpy().tolist() == [False, True, False]


def test_fast_gfile_reads_what_it_wrote(tmp_path):
    path = str(tmp_path / "f.bin")
    with tf1.gfile.FastGFile(path, "wb") as f:
        f.write(b"abc")
    assert tf1.gfile.FastGFile(path, "rb").read() == b"abc"
