"""`Masking`: marks the time steps whose features all equal `mask_value` as padding.

The layers after it (recurrent layers above all) skip the masked steps.

>>> x = tf.constant([[[1.0], [0.0], [2.0]]])
>>> masking = tf.keras.layers.Masking(mask_value=0.0)
>>> masking.compute_mask(x).numpy()
array([[ True, False,  True]])
"""
from eagerflow._src.backend.api_export import export
from eagerflow._src.ops import cast_ops, math_ops, reduction_ops
from eagerflow._src.keras.engine.base_layer import Layer


@export("keras.layers.Masking")
class Masking(Layer):
    """Zeroes the steps whose features all equal `mask_value`, and masks them."""

    def __init__(self, mask_value=0.0, **kwargs):
        super().__init__(**kwargs)
        self.supports_masking = True
        self.mask_value = mask_value

    def _kept(self, inputs, keepdims):
        return reduction_ops.reduce_any(math_ops.not_equal(inputs, self.mask_value), axis=-1,
                                        keepdims=keepdims)

    def compute_mask(self, inputs, mask=None):
        return self._kept(inputs, keepdims=False)

    def call(self, inputs):
        return math_ops.multiply(inputs, cast_ops.cast(self._kept(inputs, keepdims=True),
                                                       inputs.dtype))

    def compute_output_shape(self, input_shape):
        return input_shape

    def get_config(self):
        config = super().get_config()
        config["mask_value"] = self.mask_value
        return config
