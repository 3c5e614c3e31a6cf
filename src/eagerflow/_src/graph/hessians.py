"""`hessians`: second derivatives inside a graph being built (``tf.hessians``)."""
from eagerflow._src.autodiff.graph_gradients import gradients
from eagerflow._src.backend.api_export import export
from eagerflow._src.core import context, dtypes, nest
from eagerflow._src.graph import control_flow
from eagerflow._src.graph.tensor_array import TensorArray
from eagerflow._src.ops import array_ops


@export("hessians")
def hessians(ys, xs, gate_gradients=False, aggregation_method=None, name="hessians"):
    """The Hessian of ``sum(ys)`` with respect to each of `xs`: a list as long as `xs`,
    each of shape ``x.shape + x.shape``.

    Only inside a `function`, as `gradients`: each row is the gradient of one element of
    the first derivative (in a loop of the graph where the number of elements of `x` is
    known only when the function runs).

    >>> @tf.function
    ... def f(x):
    ...     return tf.hessians(tf.reduce_sum(x ** 3), x)
    >>> f(tf.constant([1.0, 2.0]))[0]
    <tf.Tensor: shape=(2, 2), dtype=float32, numpy=
    array([[ 6.,  0.],
           [ 0., 12.]], dtype=float32)>
    """
    if context.get().graph is None:
        raise RuntimeError("tf.gradients is not supported when eager execution is enabled. "
                           "Use tf.GradientTape instead.")
    xs = nest.flatten(xs)
    kwargs = {"gate_gradients": gate_gradients, "aggregation_method": aggregation_method}
    result = []
    with context.name_scope(name):
        for gradient, x in zip(gradients(ys, xs, **kwargs), xs):
            if gradient is None:  # TF's message (its reshape of the missing first derivative)
                raise ValueError("Tried to convert 'tensor' to a tensor and failed. Error: None "
                                 "values not supported.")
            gradient = array_ops.reshape(gradient, [-1])
            n = x.shape.num_elements()
            if n is not None:  # each row the gradient of one element of the first derivative
                rows = array_ops.stack([_not_none(gradients(gradient[j], x, **kwargs)[0])
                                        for j in range(n)]) if n else array_ops.zeros(
                                            [0], x.dtype)
            else:
                def row(j, found, gradient=gradient, x=x):
                    return j + 1, found.write(j, _not_none(gradients(gradient[j], x,
                                                                     **kwargs)[0]))
                size = array_ops.size(x)
                _, found = control_flow.while_loop(lambda j, _: j < size, row,
                                                   [0, TensorArray(x.dtype, size)])
                rows = found.stack()
            shape = array_ops.shape(x)
            result.append(array_ops.reshape(rows, array_ops.concat((shape, shape), 0)))
    return result



def _not_none(gradient):
    if gradient is None:  # TF's message: a row of the Hessian is unconnected
        raise ValueError("None values not supported.")
    return gradient
