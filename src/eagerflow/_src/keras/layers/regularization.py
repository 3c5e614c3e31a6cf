"""Regularization layers: noise and dropout variants active only while training, and
ActivityRegularization.

>>> layer = tf.keras.layers.GaussianNoise(0.1)
>>> layer(tf.constant([1.0, 2.0])).numpy()  # inference: the identity
array([1., 2.], dtype=float32)
"""
import math

from eagerflow._src.backend.api_export import export
from eagerflow._src.core.tensor_shape import TensorShape
from eagerflow._src.ops import array_ops, cast_ops, math_ops
from eagerflow._src.keras import backend, regularizers
from eagerflow._src.keras.engine.base_layer import Layer
from eagerflow._src.keras.engine.input_spec import InputSpec
from eagerflow._src.keras.layers.core import Dropout

_SELU_ALPHA = 1.6732632423543772
_SELU_SCALE = 1.0507009873554805


class _TrainingNoise(Layer):
    """A layer that perturbs its inputs while training and is the identity otherwise."""

    def __init__(self, seed=None, **kwargs):
        super().__init__(**kwargs)
        self.seed = seed
        # Each call draws with the next op seed: seed, seed + 1, ... (unseeded: None); or
        # from a `tf.random.Generator` of `seed` when `enable_tf_random_generator` is on.
        self._random_generator = backend.RandomGenerator(seed)
        self.supports_masking = True

    def build(self, input_shape):
        super().build(input_shape)
        self._random_generator._maybe_init()

    def compute_output_shape(self, input_shape):
        return TensorShape(input_shape)


@export("keras.layers.GaussianNoise")
class GaussianNoise(_TrainingNoise):
    """Adds zero-mean Gaussian noise of standard deviation `stddev` while training.

    >>> tf.keras.layers.GaussianNoise(0.0)(tf.constant([1.0]), training=True).numpy()
    array([1.], dtype=float32)
    """

    def __init__(self, stddev, seed=None, **kwargs):
        super().__init__(seed, **kwargs)
        self.stddev = stddev

    def call(self, inputs, training=None):
        def noised():
            return math_ops.add(inputs, self._random_generator.random_normal(
                array_ops.shape(inputs), 0.0, self.stddev, inputs.dtype))
        return backend.in_train_phase(noised, lambda: cast_ops.identity(inputs), training)

    def get_config(self):
        return {**super().get_config(), "stddev": self.stddev, "seed": self.seed}


@export("keras.layers.GaussianDropout")
class GaussianDropout(_TrainingNoise):
    """Multiplies by Gaussian noise of mean 1 and variance ``rate / (1 - rate)`` while training.

    >>> tf.keras.layers.GaussianDropout(0.5)(tf.constant([1.0])).numpy()  # inference: the identity
    array([1.], dtype=float32)
    """

    def __init__(self, rate, seed=None, **kwargs):
        super().__init__(seed, **kwargs)
        self.rate = rate

    def call(self, inputs, training=None):
        if not 0 < self.rate < 1:
            return inputs

        def noised():
            stddev = math.sqrt(self.rate / (1.0 - self.rate))
            return math_ops.multiply(inputs, self._random_generator.random_normal(
                array_ops.shape(inputs), 1.0, stddev, inputs.dtype))
        return backend.in_train_phase(noised, lambda: cast_ops.identity(inputs), training)

    def get_config(self):
        return {**super().get_config(), "rate": self.rate, "seed": self.seed}


@export("keras.layers.AlphaDropout")
class AlphaDropout(_TrainingNoise):
    """Dropout for SELU networks: keeps the inputs' mean and variance while training.

    Dropped units take SELU's negative saturation value, then an affine map restores
    the moments.

    >>> tf.keras.layers.AlphaDropout(0.2)(tf.constant([1.0])).numpy()  # inference: the identity
    array([1.], dtype=float32)
    """

    def __init__(self, rate, noise_shape=None, seed=None, **kwargs):
        super().__init__(seed, **kwargs)
        self.rate = rate
        self.noise_shape = noise_shape

    def call(self, inputs, training=None):
        if not 0.0 < self.rate < 1.0:
            return inputs
        rate = self.rate

        def dropped():
            noise_shape = self.noise_shape if self.noise_shape else array_ops.shape(inputs)
            kept = cast_ops.cast(math_ops.greater_equal(
                self._random_generator.random_uniform(noise_shape), rate), inputs.dtype)
            saturation = -_SELU_ALPHA * _SELU_SCALE
            a = ((1 - rate) * (1 + rate * saturation ** 2)) ** -0.5
            b = -a * saturation * rate
            x = math_ops.add(math_ops.multiply(inputs, kept),
                             math_ops.multiply(saturation, math_ops.subtract(1.0, kept)))
            return math_ops.add(math_ops.multiply(a, x), b)
        return backend.in_train_phase(dropped, lambda: cast_ops.identity(inputs), training)

    def get_config(self):
        return {**super().get_config(), "rate": self.rate, "seed": self.seed}


class _SpatialDropout(Dropout):
    """Dropout of whole feature maps: one draw per example and channel.

    `_RANK` is the input rank; the noise keeps the batch and channel dims.
    """

    _RANK = None

    def __init__(self, rate, data_format=None, **kwargs):
        super().__init__(rate, **kwargs)
        if data_format is None:
            data_format = backend.image_data_format()
        if data_format not in {"channels_last", "channels_first"}:
            raise ValueError(f'`data_format` must be "channels_last" or "channels_first". '
                             f"Received: data_format={data_format}.")
        self.data_format = data_format
        self.input_spec = InputSpec(ndim=self._RANK)

    def _get_noise_shape(self, inputs):
        # None: the input's size along that axis
        channel = 1 if self.data_format == "channels_first" else self._RANK - 1
        return [None if i in (0, channel) else 1 for i in range(self._RANK)]


@export("keras.layers.SpatialDropout1D")
class SpatialDropout1D(_SpatialDropout):
    """Drops whole channels of (batch, steps, channels) inputs while training.

    >>> layer = tf.keras.layers.SpatialDropout1D(0.5)
    >>> layer(tf.constant([[[1.0, 2.0]]])).numpy()  # inference: the identity
    array([[[1., 2.]]], dtype=float32)
    """

    _RANK = 3

    def __init__(self, rate, **kwargs):
        super().__init__(rate, data_format="channels_last", **kwargs)


@export("keras.layers.SpatialDropout2D")
class SpatialDropout2D(_SpatialDropout):
    """Drops whole feature maps of 4-D inputs (NHWC, or NCHW with "channels_first").

    >>> tf.keras.layers.SpatialDropout2D(0.5)(tf.constant([[[[1.0]]]])).shape
    TensorShape([1, 1, 1, 1])
    """

    _RANK = 4


@export("keras.layers.SpatialDropout3D")
class SpatialDropout3D(_SpatialDropout):
    """Drops whole feature volumes of 5-D inputs (NDHWC, or NCDHW with "channels_first").

    >>> tf.keras.layers.SpatialDropout3D(0.5)(tf.constant([[[[[1.0]]]]])).shape
    TensorShape([1, 1, 1, 1, 1])
    """

    _RANK = 5


@export("keras.layers.ActivityRegularization")
class ActivityRegularization(Layer):
    """The identity, adding ``l1 * sum(|x|) + l2 * sum(x ** 2)`` (per example) to `losses`.

    >>> layer = tf.keras.layers.ActivityRegularization(l1=0.5)
    >>> _ = layer(tf.constant([[1.0, -3.0]]))
    >>> float(layer.losses[0])
    2.0
    """

    def __init__(self, l1=0.0, l2=0.0, **kwargs):
        super().__init__(activity_regularizer=regularizers.L1L2(l1=l1, l2=l2), **kwargs)
        self.supports_masking = True
        self.l1, self.l2 = l1, l2

    def compute_output_shape(self, input_shape):
        return input_shape

    def get_config(self):
        return {**super().get_config(), "l1": self.l1, "l2": self.l2}
