"""TF 1's ragged values: RaggedTensorValue, constant_value, ragged placeholders fed and
ragged tensors fetched by Session.run."""
import numpy as np
import pytest

import eagerflow as tf

v1 = tf.compat.v1


def test_constant_value_is_a_numpy_ragged_value():
    v = v1.ragged.constant_value([[1, 2], [3]])
    assert isinstance(v, v1.ragged.RaggedTensorValue)
    assert str(v) == "<tf.RaggedTensorValue [[1, 2], [3]]>"
    assert repr(v) == "tf.RaggedTensorValue(values=array([1, 2, 3]), row_splits=array([0, 2, 3]))"
    assert v.dtype == np.int64 and v.row_splits.dtype == np.int64  # (NumPy's defaults, as TF)
    assert (v.ragged_rank, v.shape, v.to_list()) == (1, (2, None), [[1, 2], [3]])
    nested = v1.ragged.constant_value([[[1.5], []], [[2.0, 3.0]]], dtype=tf.float32)
    assert nested.ragged_rank == 2 and nested.flat_values.dtype == np.float32
    assert [s.tolist() for s in nested.nested_row_splits] == [[0, 2, 3], [0, 1, 1, 3]]
    uniform = v1.ragged.constant_value([[[1.5], [2.0]], []], ragged_rank=1)
    assert uniform.shape == (2, None, 1) and uniform.values.dtype == np.float64
    plain = v1.ragged.constant_value([1, 2])
    assert isinstance(plain, np.ndarray) and plain.dtype == np.int64


def test_a_ragged_value_checks_its_parts():
    with pytest.raises(TypeError):
        v1.ragged.RaggedTensorValue(np.array([1]), [0, 1])
    with pytest.raises(TypeError):
        v1.ragged.constant_value(tf.ragged.constant([[1]]))


def test_session_fetches_ragged_tensors_as_ragged_values_and_feeds_placeholders():
    with tf.Graph().as_default():
        r = tf.ragged.constant([[1, 2], [3]])
        p = v1.ragged.placeholder(tf.float32, 1, [])
        assert p.flat_values.name == "RaggedPlaceholder/flat_values:0"
        assert p.row_splits.name == "RaggedPlaceholder/row_splits_0:0"
        with v1.Session() as sess:
            out = sess.run(r * 2)
            assert isinstance(out, v1.ragged.RaggedTensorValue)
            assert out.to_list() == [[2, 4], [6]]
            fed = v1.ragged.constant_value([[1.0, 2.0], []], dtype=tf.float32)
            got = sess.run({"a": p + 1, "b": [tf.reduce_sum(p)]}, feed_dict={p: fed})
            assert got["a"].to_list() == [[2.0, 3.0], []] and got["b"] == [3.0]
            with pytest.raises(ValueError):
                sess.run(p, feed_dict={p: v1.ragged.constant_value([[[1.0]]])})


def test_ragged_placeholder_needs_a_graph():
    with pytest.raises(RuntimeError):
        v1.ragged.placeholder(tf.float32, 1)
