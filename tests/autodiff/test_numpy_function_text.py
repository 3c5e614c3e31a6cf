"""Text that a NumPy function returns: TF's string tensors hold bytes, whatever array of
text the function gives (str encoded as UTF-8)."""
import numpy as np

import eagerflow as tf


def _tokens(text):
    return np.array(text.decode().split() or [""], dtype=object)  # (Python str elements)


def test_numpy_function_object_array_of_str_gives_bytes():
    ds = tf.data.Dataset.from_tensor_slices(["Héllo wörld", ""]).map(
        lambda s: tf.numpy_function(_tokens, [s], tf.string))
    assert [x.tolist() for x in ds.as_numpy_iterator()] == [
        ["Héllo".encode(), "wörld".encode()], [b""]]
    traced = tf.function(lambda s: tf.numpy_function(_tokens, [s], tf.string))
    out = traced(tf.constant("a b"))
    assert out.numpy().tolist() == [b"a", b"b"]
    assert tf.strings.length(out).numpy().tolist() == [1, 1]
