"""Argument errors of `GradientTape.gradient` and `register_tensor_conversion_function`, as
TF 2.21 raises them."""
import numpy as np
import pytest

import eagerflow as tf


def test_unknown_unconnected_gradients():
    x = tf.constant(2.)
    with tf.GradientTape(persistent=True) as t:
        t.watch(x)
        y = x * 2
    with pytest.raises(ValueError, match="Unknown value for unconnected_gradients: 'bogus'"):
        t.gradient(y, x, unconnected_gradients="bogus")
    with pytest.raises(ValueError, match="Unknown value for unconnected_gradients: 3"):
        t.gradient(y, x, unconnected_gradients=3)
    assert float(t.gradient(y, x, unconnected_gradients="zero")) == 2.0


class _Wrapped:
    def __init__(self, v):
        self.v = v


def test_register_tensor_conversion_function_checks_its_arguments():
    def conv(value, dtype=None, name=None, as_ref=False):
        return tf.constant(value.v, dtype=dtype)

    with pytest.raises(TypeError, match="Cannot register conversions for Python numeric types "
                                        "and NumPy scalars and arrays."):
        tf.register_tensor_conversion_function(int, conv)
    with pytest.raises(TypeError, match="Cannot register conversions"):
        tf.register_tensor_conversion_function(np.ndarray, conv)
    with pytest.raises(TypeError, match="Argument `conversion_func` must be callable. "
                                        "Received 3."):
        tf.register_tensor_conversion_function(_Wrapped, 3)
    with pytest.raises(TypeError, match="Argument `base_type` must be a type or a tuple of "
                                        "types."):
        tf.register_tensor_conversion_function("x", conv)
    tf.register_tensor_conversion_function(_Wrapped, conv)
    out = tf.add(_Wrapped([1., 2.]), 1.)
    assert out.numpy().tolist() == [2., 3.]
