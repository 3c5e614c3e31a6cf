"""tf.experimental.dispatch_for_api and the elementwise dispatchers: a handler runs in place
of an API when a call's arguments match its signature (an ExtensionType among them); calls
with plain tensors keep the API's own behaviour."""
from typing import List, Union

import pytest

import eagerflow as tf


class Masked(tf.experimental.ExtensionType):
    values: tf.Tensor
    mask: tf.Tensor


class Other(tf.experimental.ExtensionType):
    values: tf.Tensor


def _lists(m):
    return m.values.numpy().tolist(), m.mask.numpy().tolist()


def test_dispatch_for_api_by_annotations_and_by_signature():
    @tf.experimental.dispatch_for_api(tf.stack)
    def masked_stack(values: List[Masked], axis=0):
        return Masked(tf.stack([v.values for v in values], axis),
                      tf.stack([v.mask for v in values], axis))

    x = Masked([1, 2], [True, False])
    y = Masked([3, 4], [False, True])
    assert _lists(tf.stack([x, y])) == ([[1, 2], [3, 4]], [[True, False], [False, True]])
    assert tf.stack([tf.constant(1), tf.constant(2)]).numpy().tolist() == [1, 2]

    @tf.experimental.dispatch_for_api(tf.math.reduce_sum, {"input_tensor": Masked})
    def masked_sum(input_tensor, axis=None, keepdims=False, name=None):
        return tf.reduce_sum(tf.boolean_mask(input_tensor.values, input_tensor.mask))

    assert int(tf.math.reduce_sum(Masked([1, 2, 3], [True, False, True]))) == 4
    assert int(tf.reduce_sum(Masked([5, 2], [True, True]))) == 7  # (every name of the API)
    tf.experimental.unregister_dispatch_for(masked_sum)
    with pytest.raises((TypeError, ValueError)):
        tf.reduce_sum(Masked([5, 2], [True, True]))
    tf.experimental.unregister_dispatch_for(masked_stack)


def test_elementwise_dispatchers():
    @tf.experimental.dispatch_for_unary_elementwise_apis(Masked)
    def unary(api_func, x):
        return Masked(api_func(x.values), x.mask)

    m = Masked([-1.0, 2.0], [True, False])
    assert _lists(tf.math.abs(m)) == ([1.0, 2.0], [True, False])
    assert _lists(tf.ones_like(m)) == ([1.0, 1.0], [True, False])
    assert tf.cast(m, tf.int32).values.dtype == tf.int32  # (the other arguments are bound)
    assert tf.math.abs(tf.constant([-3])).numpy().tolist() == [3]
    with pytest.raises(ValueError, match="already been registered"):
        tf.experimental.dispatch_for_unary_elementwise_apis(Masked)(unary)

    @tf.experimental.dispatch_for_binary_elementwise_apis(Union[Masked, tf.Tensor],
                                                          Union[Masked, tf.Tensor])
    def binary(api_func, x, y):
        if not isinstance(x, Masked):
            x = Masked(x, tf.ones_like(x, tf.bool))
        if not isinstance(y, Masked):
            y = Masked(y, tf.ones_like(y, tf.bool))
        return Masked(api_func(x.values, y.values), x.mask & y.mask)

    assert _lists(tf.math.maximum(m, tf.constant([0.0, 5.0]))) == ([0.0, 5.0], [True, False])
    assert _lists(tf.math.multiply(m, m)) == ([1.0, 4.0], [True, False])
    assert tf.math.maximum(tf.constant([1]), tf.constant([2])).numpy().tolist() == [2]
    with pytest.raises((TypeError, ValueError)):  # (no handler for this type)
        tf.math.abs(Other([1.0]))
    tf.experimental.unregister_dispatch_for(unary)
    tf.experimental.unregister_dispatch_for(binary)
    assert tf.math.abs is tf.abs and tf.math.maximum is tf.maximum
    with pytest.raises((TypeError, ValueError)):
        tf.math.abs(m)
    with pytest.raises(ValueError, match="was not registered"):
        tf.experimental.unregister_dispatch_for(unary)
