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


_POOL = dict(ksize=[1, 2, 2, 1], strides=[1, 2, 2, 1], padding="VALID")


def test_max_pool_gradients_check_the_shapes_of_what_they_route():
    x = np.arange(32, dtype=F32).reshape(1, 4, 4, 2)
    y, g = tf.nn.max_pool2d(x, 2, 2, "VALID"), np.ones((1, 2, 2, 2), F32)
    cases = [  # TF's messages; a gradient of the wrong shape was routed silently
        (tf.raw_ops.MaxPoolGrad, dict(orig_output=y, grad=g[:, :1]),
         r"Expected grad shape to be \[1,2,2,2\], but got \[1,1,2,2\]"),
        (tf.raw_ops.MaxPoolGrad, dict(orig_output=y[:, :1], grad=g),
         r"Expected orig_output shape to be \[1,2,2,2\], but got \[1,1,2,2\]"),
        (tf.raw_ops.MaxPoolGradGrad, dict(orig_output=y, grad=g),
         r"Expected grad shape to be \[1,4,4,2\], but got \[1,2,2,2\]"),
        (tf.raw_ops.MaxPoolGradGrad, dict(orig_output=y[:, :1], grad=x),
         r"Expected orig_output shape to be \[1,2,2,2\], but got \[1,1,2,2\]")]
    for fn, kwargs, message in cases:
        with pytest.raises(errors.InvalidArgumentError, match=message):
            fn(orig_input=x, **kwargs, **_POOL)
    x3 = np.ones((1, 4, 4, 4, 2), F32)
    with pytest.raises(errors.InvalidArgumentError,
                       match=r"Expected grad shape to be \[1,2,2,2,2\], but got \[1,1,2,2,2\]"):
        tf.raw_ops.MaxPool3DGrad(orig_input=x3, orig_output=tf.nn.max_pool3d(x3, 2, 2, "VALID"),
                                 grad=np.ones((1, 1, 2, 2, 2), F32), ksize=[1, 2, 2, 2, 1],
                                 strides=[1, 2, 2, 2, 1], padding="VALID")
    # traced, MaxPoolGradGrad's grad is merged with its orig_input, as TF's shape function
    traced = tf.function(lambda a, b, c: tf.raw_ops.MaxPoolGradGrad(
        orig_input=a, orig_output=b, grad=c, **_POOL))
    with pytest.raises(ValueError, match=r"Dimension 1 in both shapes must be equal, but are 4 "
                                         r"and 2. Shapes are \[1,4,4,2\] and \[1,2,2,2\]."):
        traced(x, y, g)
    np.testing.assert_array_equal(traced(x, y, x).numpy(), y.numpy())
