"""Activation layers: ReLU, LeakyReLU, PReLU, ELU, ThresholdedReLU and Softmax.

>>> tf.keras.layers.LeakyReLU()(tf.constant([-1.0, 2.0])).numpy()
array([-0.3,  2. ], dtype=float32)
"""
from eagerflow._src.backend.api_export import export
from eagerflow._src.core import dtypes as _dtypes
from eagerflow._src.core.tensor_shape import TensorShape
from eagerflow._src.ops import array_ops, cast_ops, math_ops, nn_ops, reduction_ops
from eagerflow._src.keras import activations, backend
from eagerflow._src.keras.layers import weight_arguments
from eagerflow._src.keras.engine.base_layer import Layer
from eagerflow._src.keras.engine.input_spec import InputSpec


class _Activation(Layer):
    """An elementwise activation: masks pass through and shapes are unchanged."""

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.supports_masking = True

    def compute_output_shape(self, input_shape):
        return TensorShape(input_shape)


class _ScalarParameterActivation(_Activation):
    """An activation with one float parameter, named by `_PARAMETER`, that may not be None.

    `_NONE_MESSAGE` is the error for None, formatted with the value received.
    """

    _PARAMETER = "alpha"
    _NONE_MESSAGE = ""

    def __init__(self, value, **kwargs):
        super().__init__(**kwargs)
        if value is None:
            raise ValueError(self._NONE_MESSAGE.format(value))
        setattr(self, self._PARAMETER, backend.cast_to_floatx(value))

    def _value(self):
        return float(getattr(self, self._PARAMETER))

    def get_config(self):
        return {**super().get_config(), self._PARAMETER: self._value()}


@export("keras.layers.LeakyReLU")
class LeakyReLU(_ScalarParameterActivation):
    """``x`` for x >= 0, else ``alpha * x`` (alpha is 0.3 in Keras 2).

    >>> tf.keras.layers.LeakyReLU(alpha=0.1)(tf.constant([-2.0, 2.0])).numpy()
    array([-0.2,  2. ], dtype=float32)
    """

    _NONE_MESSAGE = ("The alpha value of a Leaky ReLU layer cannot be None, Expecting a "
                     "float. Received: {}")

    def __init__(self, alpha=0.3, **kwargs):
        super().__init__(alpha, **kwargs)

    def call(self, inputs):
        return activations.relu(inputs, alpha=self._value())


@export("keras.layers.ELU")
class ELU(_ScalarParameterActivation):
    """``x`` for x > 0, else ``alpha * (exp(x) - 1)``.

    >>> tf.keras.layers.ELU(alpha=2.0)(tf.constant([0.0, 1.0])).numpy()
    array([0., 1.], dtype=float32)
    """

    _NONE_MESSAGE = "Alpha of an ELU layer cannot be None, expecting a float. Received: {}"

    def __init__(self, alpha=1.0, **kwargs):
        super().__init__(alpha, **kwargs)

    def call(self, inputs):
        return activations.elu(inputs, self._value())


@export("keras.layers.ThresholdedReLU")
class ThresholdedReLU(_ScalarParameterActivation):
    """``x`` where x > theta, else 0.

    >>> tf.keras.layers.ThresholdedReLU(theta=1.0)(tf.constant([1.0, 1.5])).numpy()
    array([0. , 1.5], dtype=float32)
    """

    _PARAMETER = "theta"
    _NONE_MESSAGE = ("Theta of a Thresholded ReLU layer cannot be None, expecting a float. "
                     "Received: {}")

    def __init__(self, theta=1.0, **kwargs):
        super().__init__(theta, **kwargs)
        if theta < 0:
            raise ValueError(f"The theta value of a Thresholded ReLU layer should be >=0. "
                             f"Received: {theta}")

    def call(self, inputs):
        above = cast_ops.cast(math_ops.greater(inputs, self.theta), self.compute_dtype)
        return math_ops.multiply(inputs, above)


@export("keras.layers.ReLU")
class ReLU(_Activation):
    """``max(x, 0)`` capped at `max_value`; below `threshold`, ``negative_slope * (x - threshold)``.

    >>> tf.keras.layers.ReLU(max_value=6.0)(tf.constant([-1.0, 8.0])).numpy()
    array([0., 6.], dtype=float32)
    """

    def __init__(self, max_value=None, negative_slope=0.0, threshold=0.0, **kwargs):
        super().__init__(**kwargs)
        if max_value is not None and max_value < 0.0:
            raise ValueError(f"max_value of a ReLU layer cannot be a negative value. Received: "
                             f"{max_value}")
        if negative_slope is None or negative_slope < 0.0:
            raise ValueError(f"negative_slope of a ReLU layer cannot be a negative value. "
                             f"Received: {negative_slope}")
        if threshold is None or threshold < 0.0:
            raise ValueError(f"threshold of a ReLU layer cannot be a negative value. Received: "
                             f"{threshold}")
        # NumPy scalars of floatx, which is what Keras 2's config holds too
        self.max_value = None if max_value is None else backend.cast_to_floatx(max_value)
        self.negative_slope = backend.cast_to_floatx(negative_slope)
        self.threshold = backend.cast_to_floatx(threshold)

    def call(self, inputs):
        # The NumPy floatx scalars themselves, as Keras passes them: converted to an integer
        # input's dtype where Python floats would be refused
        return activations.relu(inputs, alpha=self.negative_slope, max_value=self.max_value,
                                threshold=self.threshold)

    def get_config(self):
        return {**super().get_config(), "max_value": self.max_value,
                "negative_slope": self.negative_slope, "threshold": self.threshold}


@export("keras.layers.PReLU")
class PReLU(_Activation):
    """``x`` for x >= 0, else ``alpha * x`` with a learned `alpha` per input element.

    `shared_axes` share one alpha along those axes (e.g. ``[1, 2]`` for images: one per
    channel).

    >>> layer = tf.keras.layers.PReLU(alpha_initializer="ones")
    >>> layer(tf.constant([[-2.0, 3.0]])).numpy()
    array([[-2.,  3.]], dtype=float32)
    >>> [w.name for w in layer.weights]
    ['p_re_lu/alpha:0']
    """

    def __init__(self, alpha_initializer="zeros", alpha_regularizer=None, alpha_constraint=None,
                 shared_axes=None, **kwargs):
        super().__init__(**kwargs)
        weight_arguments.resolve(self, alpha_initializer=alpha_initializer,
                                 alpha_regularizer=alpha_regularizer,
                                 alpha_constraint=alpha_constraint)
        if shared_axes is None:
            self.shared_axes = None
        elif isinstance(shared_axes, (list, tuple)):
            self.shared_axes = list(shared_axes)
        else:
            self.shared_axes = [shared_axes]

    def build(self, input_shape):
        dims = TensorShape(input_shape).as_list()
        param_shape = dims[1:]
        for axis in self.shared_axes or ():
            param_shape[axis - 1] = 1
        self.alpha = self.add_weight("alpha", shape=param_shape,
                                     initializer=self.alpha_initializer,
                                     regularizer=self.alpha_regularizer,
                                     constraint=self.alpha_constraint)
        axes = {i: dims[i] for i in range(1, len(dims)) if i not in self.shared_axes} \
            if self.shared_axes else {}
        self.input_spec = InputSpec(ndim=len(dims), axes=axes)
        self.built = True

    def call(self, inputs):
        negative = math_ops.multiply(math_ops.negative(self.alpha),
                                     nn_ops.relu(math_ops.negative(inputs)))
        return math_ops.add(nn_ops.relu(inputs), negative)

    def get_config(self):
        return {**super().get_config(),
                **weight_arguments.config(self, ("alpha",), activity=False),
                "shared_axes": self.shared_axes}


def _large_negative(dtype):
    """A logit that masks an entry out: -1e9, or half of float16's lowest value."""
    return float(_dtypes.float16.min) / 2 if dtype == _dtypes.float16 else -1e9


@export("keras.layers.Softmax")
class Softmax(_Activation):
    """Softmax over `axis` (an int, or a tuple of axes normalized together).

    A mask (1 keeps, 0 drops; broadcast against the inputs) gives dropped entries a
    logit of -1e9; with ``robust_masking=True`` they are replaced by it instead of offset.

    >>> tf.keras.layers.Softmax()(tf.constant([[1.0, 1.0, 5.0]]),
    ...                           mask=tf.constant([[True, True, False]])).numpy()
    array([[0.5, 0.5, 0. ]], dtype=float32)
    """

    def __init__(self, axis=-1, robust_masking=False, **kwargs):
        super().__init__(**kwargs)
        self.robust_masking = robust_masking
        self.axis = axis

    def call(self, inputs, mask=None):
        if mask is not None:
            negative = _large_negative(inputs.dtype)
            if self.robust_masking:
                if mask.dtype != _dtypes.bool:
                    mask = math_ops.greater(mask, cast_ops.cast(0.5, mask.dtype))
                inputs = array_ops.where(mask, inputs,
                                         cast_ops.cast(negative, inputs.dtype))
            else:
                dropped = math_ops.subtract(1.0, cast_ops.cast(mask, inputs.dtype))
                inputs = math_ops.add(inputs, math_ops.multiply(dropped, negative))
        if isinstance(self.axis, (tuple, list)):
            if len(self.axis) > 1:
                return math_ops.exp(math_ops.subtract(
                    inputs, reduction_ops.reduce_logsumexp(inputs, self.axis, keepdims=True)))
            return backend.softmax(inputs, axis=self.axis[0])
        return backend.softmax(inputs, axis=self.axis)  # (which refuses a scalar or a vector)

    def get_config(self):
        config = {**super().get_config(), "axis": self.axis}
        if self.robust_masking:
            config["robust_masking"] = True
        return config
