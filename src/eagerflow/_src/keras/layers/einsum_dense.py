"""`EinsumDense`: a dense layer whose product with the kernel is any einsum equation.

The equation names the input, the kernel and the output axes
(``'abc,cde->abde'``); the kernel's shape follows from the input's and from
`output_shape` (the output's shape without its batch axis). An ellipsis stands
for axes passed through unchanged, either before (``'...b,bc->...c'``) or after
(``'ab...,bc->ac...'``) the named ones.

>>> layer = tf.keras.layers.EinsumDense("abc,cde->abde", output_shape=(None, 2, 4), bias_axes="de")
>>> layer(np.ones((1, 3, 5), np.float32)).shape
TensorShape([1, 3, 2, 4])
>>> [tuple(w.shape) for w in layer.weights]
[(5, 2, 4), (2, 4)]
"""
import re

from eagerflow._src.backend.api_export import export
from eagerflow._src.core.tensor_shape import TensorShape
from eagerflow._src.keras import activations
from eagerflow._src.keras.layers import weight_arguments
from eagerflow._src.keras.engine.base_layer import Layer
from eagerflow._src.ops import array_ops

_LABELS = "[a-zA-Z]"
# (pattern, where the ellipsis is): no ellipsis, before the named axes, after them.
_EQUATION_FORMS = (
    (re.compile(f"({_LABELS}+),({_LABELS}+)->({_LABELS}+)"), None),
    (re.compile(rf"\.\.\.({_LABELS}+),({_LABELS}+)->\.\.\.({_LABELS}+)"), "left"),
    (re.compile(rf"({_LABELS}{{2,}})\.\.\.,({_LABELS}+)->({_LABELS}+)\.\.\."), "right"),
)


def analyze_equation(equation, bias_axes, input_shape, output_shape):
    """``(kernel_shape, bias_shape or None, full_output_shape)`` for inputs of `input_shape`.

    `output_shape` is the output's shape without its first (batch) axis; axes
    the ellipsis passes through are filled in from `input_shape`.

    >>> analyze_equation("ab,bc->ac", "c", tf.TensorShape([None, 3]), [4])
    ([3, 4], [4], [None, 4])
    """
    for pattern, ellipsis in _EQUATION_FORMS:
        match = pattern.fullmatch(equation.replace(" ", ""))
        if match:
            break
    else:
        raise ValueError(f"Invalid einsum equation '{equation}'. Equations must be in the form "
                         f"[X],[Y]->[Z], ...[X],[Y]->...[Z], or [X]...,[Y]->[Z]....")
    input_spec, kernel_spec, output_spec = match.groups()
    dims = input_shape.as_list()
    elided = len(dims) - len(input_spec)
    if ellipsis == "left":
        full = dims[:max(elided, 1)] + list(output_shape)
        input_axis = {c: i + elided for i, c in enumerate(input_spec)}
        output_axis = {c: i + elided for i, c in enumerate(output_spec)}
    else:
        full = dims[:1] + list(output_shape) + (dims[len(dims) - elided:] if elided > 0 else [])
        input_axis = {c: i for i, c in enumerate(input_spec)}
        output_axis = {c: i for i, c in enumerate(output_spec)}

    for label in input_spec:
        if label in output_axis:
            have, want = dims[input_axis[label]], full[output_axis[label]]
            if want is not None and want != have:
                raise ValueError(f"Input shape and output shape do not match at shared "
                                 f"dimension '{label}'. Input shape is {have}, and output "
                                 f"shape is {want}.")
    for label in output_spec:
        if label not in input_spec and label not in kernel_spec:
            # tf_keras names the output spec where it means the weight spec; kept verbatim.
            raise ValueError(f"Dimension '{label}' was specified in the output "
                             f"'{output_spec}' but has no corresponding dim in the input spec "
                             f"'{input_spec}' or weight spec '{output_spec}'")
    kernel_shape = []
    for label in kernel_spec:
        if label in input_axis:
            kernel_shape.append(dims[input_axis[label]])
        elif label in output_axis:
            kernel_shape.append(full[output_axis[label]])
        else:
            raise ValueError(f"Weight dimension '{label}' did not have a match in either the "
                             f"input spec '{input_spec}' or the output spec '{output_spec}'. "
                             f"For this layer, the weight must be fully specified.")
    if bias_axes is None:
        return kernel_shape, None, full
    for label in bias_axes:
        if label not in output_spec:
            raise ValueError(f"Bias dimension '{label}' was requested, but is not part of the "
                             f"output spec '{output_spec}'")
    # The bias spans the output axes from its first one on, broadcasting (size 1) over
    # the unnamed ones, and over the axes a trailing ellipsis passes through.
    first = min(output_spec.index(c) for c in bias_axes)
    bias_shape = [full[output_axis[c]] if c in bias_axes else 1 for c in output_spec[first:]]
    if ellipsis == "right":
        bias_shape += [1] * elided
    return kernel_shape, bias_shape, full


@export("keras.layers.EinsumDense", "keras.layers.experimental.EinsumDense")
class EinsumDense(Layer):
    """``activation(einsum(equation, inputs, kernel) + bias)``.

    Args: `equation` (``'ab,bc->ac'`` is a Dense layer), `output_shape` (an
    int or the output's dimensions after the batch axis, None for those that
    follow from the input), `bias_axes` (the output labels the bias spans,
    None for no bias), then Dense's activation, initializers, regularizers
    and constraints.

    >>> layer = tf.keras.layers.EinsumDense("ab,bc->ac", output_shape=4, bias_axes="c")
    >>> layer(np.ones((2, 3), np.float32)).shape
    TensorShape([2, 4])
    """

    def __init__(self, equation, output_shape, activation=None, bias_axes=None,
                 kernel_initializer="glorot_uniform", bias_initializer="zeros",
                 kernel_regularizer=None, bias_regularizer=None, activity_regularizer=None,
                 kernel_constraint=None, bias_constraint=None, **kwargs):
        super().__init__(activity_regularizer=activity_regularizer, **kwargs)
        self.equation = equation
        self.partial_output_shape = ([output_shape] if isinstance(output_shape, int)
                                     else list(output_shape))
        self.bias_axes = bias_axes
        self.activation = activations.get(activation)
        weight_arguments.resolve(
            self, kernel_initializer=kernel_initializer, bias_initializer=bias_initializer,
            kernel_regularizer=kernel_regularizer, bias_regularizer=bias_regularizer,
            kernel_constraint=kernel_constraint, bias_constraint=bias_constraint)

    def build(self, input_shape):
        kernel_shape, bias_shape, self.full_output_shape = analyze_equation(
            self.equation, self.bias_axes, TensorShape(input_shape), self.partial_output_shape)
        self.kernel = self.add_weight("kernel", shape=kernel_shape,
                                      initializer=self.kernel_initializer,
                                      regularizer=self.kernel_regularizer,
                                      constraint=self.kernel_constraint, dtype=self.dtype,
                                      trainable=True)
        self.bias = None if bias_shape is None else self.add_weight(
            "bias", shape=bias_shape, initializer=self.bias_initializer,
            regularizer=self.bias_regularizer, constraint=self.bias_constraint,
            dtype=self.dtype, trainable=True)
        self.built = True

    def call(self, inputs):
        outputs = array_ops.einsum(self.equation, inputs, self.kernel)
        if self.bias is not None:
            outputs = outputs + self.bias
        if self.activation is not None:
            outputs = self.activation(outputs)
        return outputs

    def compute_output_shape(self, input_shape):
        return TensorShape(analyze_equation(self.equation, self.bias_axes,
                                            TensorShape(input_shape),
                                            self.partial_output_shape)[2])

    def get_config(self):
        config = super().get_config()
        config.update({
            "output_shape": self.partial_output_shape, "equation": self.equation,
            "activation": activations.serialize(self.activation), "bias_axes": self.bias_axes,
            **weight_arguments.config(self, ("kernel", "bias"))})
        return config
