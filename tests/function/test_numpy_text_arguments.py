"""NumPy text arrays passed to a `tf.function` are string tensors of their UTF-8 bytes,
as TF converts them (not NumPy unicode arrays reaching the graph)."""
import numpy as np
import pytest

import eagerflow as tf


@pytest.mark.parametrize("array", [np.array(["a", "bé"]), np.array(["a", "bé"], dtype=object),
                                   np.array([b"a", "bé".encode()])])
def test_text_arrays_are_utf8_string_tensors(array):
    @tf.function
    def f(x):
        return tf.strings.length(x), x, tf.strings.to_hash_bucket_fast(x, 10)

    length, same, buckets = f(array)
    assert length.numpy().tolist() == [1, 3]
    assert same.dtype == tf.string and same.numpy().tolist() == [b"a", "bé".encode()]
    assert buckets.numpy().tolist() == tf.strings.to_hash_bucket_fast(
        tf.constant(["a", "bé"]), 10).numpy().tolist()


def test_text_arrays_of_any_width_share_a_trace():
    f = tf.function(lambda x: tf.strings.length(x))
    f(np.array(["a"]))
    assert f(np.array(["xyz"])).numpy().tolist() == [3]
    assert f.experimental_get_tracing_count() == 1


def test_text_arrays_bind_to_a_string_signature():
    g = tf.function(lambda x: tf.strings.length(x),
                    input_signature=[tf.TensorSpec([None], tf.string)])
    assert g(np.array(["a", "bé"])).numpy().tolist() == [1, 3]
