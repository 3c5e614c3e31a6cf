"""`RandomFourierFeatures`: random features approximating a shift-invariant kernel.

``cos(x @ (w / scale) + b)`` with ``w`` drawn from the kernel's spectral distribution
(standard normal for the Gaussian kernel, standard Cauchy for the Laplacian one) and ``b``
uniform in ``[0, 2 pi)``; neither is trained, ``scale`` is when the layer is trainable.

>>> layer = tf.keras.layers.experimental.RandomFourierFeatures(4)
>>> layer(tf.zeros([2, 3])).shape
TensorShape([2, 4])
"""
import numpy as np

from eagerflow._src.backend.api_export import export
from eagerflow._src.core import dtypes as _dtypes
from eagerflow._src.core.convert import convert_to_tensor
from eagerflow._src.core.tensor_shape import TensorShape
from eagerflow._src.keras import initializers
from eagerflow._src.keras.engine.base_layer import Layer
from eagerflow._src.keras.engine.input_spec import InputSpec
from eagerflow._src.ops import cast_ops, linalg_ops, math_ops, nn_ops

_KERNELS = ["gaussian", "laplacian"]


@export("keras.layers.experimental.RandomFourierFeatures")
class RandomFourierFeatures(Layer):
    """Maps inputs of shape ``(batch, d)`` to ``output_dim`` random Fourier features.

    `kernel_initializer` is ``'gaussian'``, ``'laplacian'`` or an initializer of the
    random projection; `scale` defaults to ``sqrt(d / 2)`` for the Gaussian kernel and 1
    otherwise.
    """

    _serialized_module = "keras.layers.experimental"
    _serialized_registered_name = None

    def __init__(self, output_dim, kernel_initializer="gaussian", scale=None, trainable=False,
                 name=None, **kwargs):
        if output_dim <= 0:
            raise ValueError(f"`output_dim` should be a positive integer. Received: "
                             f"{output_dim}")
        if isinstance(kernel_initializer, str) and kernel_initializer.lower() not in _KERNELS:
            raise ValueError(f"Unsupported `kernel_initializer`: {kernel_initializer} Expected "
                             f"one of: {_KERNELS}")
        if scale is not None and scale <= 0.0:
            raise ValueError(f"When provided, `scale` should be a positive float. Received: "
                             f"{scale}")
        super().__init__(trainable=trainable, name=name, **kwargs)
        self.output_dim = output_dim
        self.kernel_initializer = kernel_initializer
        self.scale = scale

    def build(self, input_shape):
        input_shape = TensorShape(input_shape)
        if input_shape.rank != 2:
            raise ValueError(f"The rank of the input tensor should be 2. Received input with "
                             f"rank {input_shape.rank} instead. Full input shape received: "
                             f"{input_shape}")
        input_dim = input_shape[1]
        if input_dim is None:
            raise ValueError(f"The last dimension of the input tensor should be defined. "
                             f"Found `None`. Full input shape received: {input_shape}")
        self.input_spec = InputSpec(ndim=2, axes={1: input_dim})
        self.unscaled_kernel = self.add_weight(
            name="unscaled_kernel", shape=(input_dim, self.output_dim), dtype=_dtypes.float32,
            initializer=_projection_initializer(self.kernel_initializer,
                                                (input_dim, self.output_dim)),
            trainable=False)
        self.bias = self.add_weight(
            name="bias", shape=(self.output_dim,), dtype=_dtypes.float32,
            initializer=initializers.RandomUniform(minval=0.0, maxval=2 * np.pi),
            trainable=False)
        if self.scale is None:
            gaussian = isinstance(self.kernel_initializer, str) and \
                self.kernel_initializer.lower() == "gaussian"
            self.scale = np.sqrt(input_dim / 2.0) if gaussian else 1.0
        self.kernel_scale = self.add_weight(
            name="kernel_scale", shape=(1,), dtype=_dtypes.float32,
            initializer=initializers.Constant(self.scale), trainable=True, constraint="NonNeg")
        self.built = True

    def call(self, inputs):
        inputs = cast_ops.cast(convert_to_tensor(inputs, dtype=self.dtype), _dtypes.float32)
        kernel = math_ops.multiply(math_ops.truediv(1.0, self.kernel_scale),
                                   self.unscaled_kernel)
        outputs = nn_ops.bias_add(linalg_ops.matmul(inputs, kernel), self.bias)
        return math_ops.cos(outputs)

    def compute_output_shape(self, input_shape):
        input_shape = TensorShape(input_shape).with_rank(2)
        if input_shape[-1] is None:
            raise ValueError(f"The last dimension of the input tensor should be defined. "
                             f"Found `None`. Full input shape received: {input_shape}")
        return input_shape[:-1].concatenate(self.output_dim)

    def get_config(self):
        kernel_initializer = self.kernel_initializer
        if not isinstance(kernel_initializer, str):
            kernel_initializer = initializers.serialize(kernel_initializer)
        return {**super().get_config(), "output_dim": self.output_dim,
                "kernel_initializer": kernel_initializer, "scale": self.scale}


def _projection_initializer(initializer, shape):
    """The initializer of the random projection for a kernel's name (or `initializer`)."""
    if not isinstance(initializer, str):
        return initializer
    if initializer.lower() == "gaussian":
        return initializers.RandomNormal(stddev=1.0)
    # the Laplacian kernel's spectral distribution: standard Cauchy, by inverse CDF (NumPy's
    # global generator, as Keras draws it)
    probs = np.random.uniform(low=0.0, high=1.0, size=shape)
    return initializers.Constant(np.tan(np.pi * (probs - 0.5)))
