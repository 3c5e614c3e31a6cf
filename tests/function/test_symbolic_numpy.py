"""Inside a traced function, tensors have no `numpy` attribute at all, as in TF: code that
tests for eager tensors with ``hasattr(x, "numpy")`` takes its graph path."""
import pytest

import eagerflow as tf


def test_traced_tensors_have_no_numpy_attribute():
    seen = []

    @tf.function
    def f(x):
        seen.append(hasattr(x, "numpy"))
        with pytest.raises(AttributeError, match="^'SymbolicTensor' object has no attribute "
                                                 "'numpy'"):
            x.numpy()
        return x * 2

    assert f(tf.constant(1.0)).numpy() == 2.0
    assert seen == [False]
    assert hasattr(tf.constant(1.0), "numpy")
    with tf.Graph().as_default():
        assert not hasattr(tf.constant(1.0), "numpy")
