"""The gradient ops of nn ops called as raw ops: TF's values, shape rules and errors."""
import numpy as np
import pytest

import eagerflow as tf
from eagerflow import errors

F32 = np.float32

_ACTIVATION_GRADS = [("ReluGrad", "features"), ("Relu6Grad", "features"),
                     ("LeakyReluGrad", "features"), ("EluGrad", "outputs"),
                     ("SeluGrad", "outputs"), ("SoftsignGrad", "features")]


@pytest.mark.parametrize("op, second", _ACTIVATION_GRADS)
def test_activation_gradients_take_one_shape_and_never_broadcast(op, second):
    fn = getattr(tf.raw_ops, op)
    a, b = np.ones((4, 2), F32), np.ones((1, 2), F32)
    with pytest.raises(errors.InvalidArgumentError,
                       match=rf"Inputs to operation {op} of type {op} must have the same size "
                             r"and shape.  Input 0: \[4,2\] != input 1: \[1,2\]"):
        fn(gradients=a, **{second: b})
    # a traced call with known shapes fails while the graph is built, as TF's shape function
    traced = tf.function(lambda x, y: fn(gradients=x, **{second: y}))
    with pytest.raises(ValueError, match="Dimension 0 in both shapes must be equal, but are 4 "
                                         r"and 1. Shapes are \[4,2\] and \[1,2\]."):
        traced(a, b)
    # each input's shape tells what the other's lacks
    g = tf.function(lambda x, y: fn(gradients=x, **{second: y}),
                    input_signature=[tf.TensorSpec([None, 2]), tf.TensorSpec([4, None])])
    out = g.get_concrete_function().structured_outputs
    assert out.shape.as_list() == [4, 2]
    with pytest.raises(errors.InvalidArgumentError, match="must have the same size and shape"):
        g(np.ones((3, 2), F32), np.ones((4, 3), F32))
