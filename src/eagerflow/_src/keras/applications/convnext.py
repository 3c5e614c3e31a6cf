"""ConvNeXt (Liu et al., 2022: "A ConvNet for the 2020s"), as
``tf.keras.applications.ConvNeXtTiny`` and its larger siblings build it: same layers in the
same order, names and weights as Keras's, so that its weights files load. The model
normalizes its own inputs (``include_preprocessing``): `preprocess_input` passes them through.

>>> model = tf.keras.applications.ConvNeXtTiny(weights=None, include_top=False,
...                                            input_shape=(32, 32, 3), pooling="avg")
>>> model.output_shape, model.count_params()
((None, 768), 27820128)
"""
from eagerflow._src.backend.api_export import export
from eagerflow._src.keras import backend, initializers
from eagerflow._src.keras.applications import imagenet_utils
from eagerflow._src.keras.engine import sequential
from eagerflow._src.keras.engine.base_layer import Layer
from eagerflow._src.keras.layers import convolutional, core, normalization, \
    pooling as pooling_layers, preprocessing
from eagerflow._src.ops import array_ops, math_ops, random_ops

# per model: blocks per stage, channels per stage
_CONFIGS = {
    "tiny": ((3, 3, 9, 3), (96, 192, 384, 768)),
    "small": ((3, 3, 27, 3), (96, 192, 384, 768)),
    "base": ((3, 3, 27, 3), (128, 256, 512, 1024)),
    "large": ((3, 3, 27, 3), (192, 384, 768, 1536)),
    "xlarge": ((3, 3, 27, 3), (256, 512, 1024, 2048)),
}
# ImageNet's mean and variance per channel, on 0-255 pixels
_MEAN = (0.485 * 255, 0.456 * 255, 0.406 * 255)
_VARIANCE = ((0.229 * 255) ** 2, (0.224 * 255) ** 2, (0.225 * 255) ** 2)


class StochasticDepth(Layer):
    """Drops a whole residual branch per example with probability `drop_path_rate` while
    training, scaling the kept ones by ``1 / (1 - rate)``; the identity otherwise.

    >>> StochasticDepth(0.5)(tf.ones([2, 3])).numpy()
    array([[1., 1., 1.],
           [1., 1., 1.]], dtype=float32)
    """
    # (configs name the module tf_keras defines it in, which loads them without custom_objects)
    _serialized_module = "tf_keras.src.applications.convnext"
    _serialized_registered_name = "StochasticDepth"

    def __init__(self, drop_path_rate, **kwargs):
        super().__init__(**kwargs)
        self.drop_path_rate = drop_path_rate

    def call(self, x, training=None):
        def dropped():
            keep = 1 - self.drop_path_rate
            shape = array_ops.concat([array_ops.shape(x)[:1],
                                      array_ops.ones([len(x.shape) - 1], "int32")], 0)
            mask = math_ops.floor(keep + random_ops.uniform(shape, 0, 1))
            return (x / keep) * mask
        return backend.in_train_phase(dropped, x, training)

    def get_config(self):
        return {**super().get_config(), "drop_path_rate": self.drop_path_rate}


class LayerScale(Layer):
    """Multiplies each of the last axis's `projection_dim` channels by a learned factor that
    starts at `init_values` ("gamma").

    >>> layer = LayerScale(0.5, 2)
    >>> layer(tf.ones([1, 2])).numpy()
    array([[0.5, 0.5]], dtype=float32)
    """
    _serialized_module = StochasticDepth._serialized_module
    _serialized_registered_name = "LayerScale"

    def __init__(self, init_values, projection_dim, **kwargs):
        super().__init__(**kwargs)
        self.init_values, self.projection_dim = init_values, projection_dim

    def build(self, input_shape):
        self.gamma = self.add_weight(name="gamma", shape=(self.projection_dim,),
                                     initializer=initializers.Constant(self.init_values),
                                     trainable=True)
        super().build(input_shape)

    def call(self, x):
        return x * self.gamma

    def get_config(self):
        return {**super().get_config(), "init_values": self.init_values,
                "projection_dim": self.projection_dim}


def _block(x, channels, drop_path_rate, layer_scale_init_value, name):
    """A 7x7 depthwise convolution, layer normalization, a 4x wide pointwise MLP with GELU,
    a learned scale, and the input added back (after dropping the branch at random)."""
    inputs = x
    x = convolutional.Conv2D(channels, 7, padding="same", groups=channels,
                             name=name + "_depthwise_conv")(x)
    x = normalization.LayerNormalization(epsilon=1e-6, name=name + "_layernorm")(x)
    x = core.Dense(4 * channels, name=name + "_pointwise_conv_1")(x)
    x = core.Activation("gelu", name=name + "_gelu")(x)
    x = core.Dense(channels, name=name + "_pointwise_conv_2")(x)
    if layer_scale_init_value is not None:
        x = LayerScale(layer_scale_init_value, channels, name=name + "_layer_scale")(x)
    if drop_path_rate:
        x = StochasticDepth(drop_path_rate, name=name + "_stochastic_depth")(x)
    else:
        x = core.Activation("linear", name=name + "_identity")(x)
    return inputs + x


def _convnext(size, model_name, include_top, include_preprocessing, weights, input_tensor,
              input_shape, pooling, classes, classifier_activation, drop_path_rate=0.0,
              layer_scale_init_value=1e-6):
    depths, channels = _CONFIGS[size]
    imagenet_utils.check_weights(weights, include_top, classes)
    input_shape, img_input = imagenet_utils.model_input(
        input_shape, input_tensor, include_top, weights)

    x = img_input
    if include_preprocessing:
        x = preprocessing.Normalization(mean=list(_MEAN), variance=list(_VARIANCE),
                                        name=model_name + "_prestem_normalization")(x)
    stem = sequential.Sequential([
        convolutional.Conv2D(channels[0], 4, strides=4, name=model_name + "_stem_conv"),
        normalization.LayerNormalization(epsilon=1e-6, name=model_name + "_stem_layernorm"),
    ], name=model_name + "_stem")
    downsampling = [sequential.Sequential([
        normalization.LayerNormalization(epsilon=1e-6,
                                         name=f"{model_name}_downsampling_layernorm_{i}"),
        convolutional.Conv2D(channels[i + 1], 2, strides=2,
                             name=f"{model_name}_downsampling_conv_{i}"),
    ], name=f"{model_name}_downsampling_block_{i}") for i in range(3)]
    total, done = sum(depths), 0
    x = stem(x)
    for stage, (depth, width) in enumerate(zip(depths, channels)):
        if stage:
            x = downsampling[stage - 1](x)
        for j in range(depth):
            # the drop rate grows linearly from 0 over the blocks
            rate = drop_path_rate * (done + j) / (total - 1) if total > 1 else 0.0
            x = _block(x, width, rate, layer_scale_init_value,
                       f"{model_name}_stage_{stage}_block_{j}")
        done += depth

    if include_top:
        x = pooling_layers.GlobalAveragePooling2D(name=model_name + "_head_gap")(x)
        x = normalization.LayerNormalization(epsilon=1e-6,
                                             name=model_name + "_head_layernorm")(x)
        imagenet_utils.validate_activation(classifier_activation, weights)
        x = core.Dense(classes, activation=classifier_activation,
                       name=model_name + "_head_dense")(x)
    else:
        x = imagenet_utils.top(x, False, pooling, classes, classifier_activation, weights)
        x = normalization.LayerNormalization(epsilon=1e-6)(x)
    model = imagenet_utils.model(img_input, input_tensor, x, model_name)
    suffix = "" if include_top else "_notop"
    imagenet_utils.load_weights(model, weights, f"convnext/{model_name}{suffix}.h5")
    return model


@export("keras.applications.ConvNeXtTiny", "keras.applications.convnext.ConvNeXtTiny")
def ConvNeXtTiny(model_name="convnext_tiny", include_top=True,  # noqa: N802
                 include_preprocessing=True, weights="imagenet", input_tensor=None,
                 input_shape=None, pooling=None, classes=1000,
                 classifier_activation="softmax"):
    """ConvNeXt-T: a 4x4 patchifying stem and 3, 3, 9 and 3 ConvNeXt blocks of 96 to 768
    channels (28.6M parameters with its 1000-class top).

    `weights` is None (random initialization), ``"imagenet"`` (Keras's file, downloaded into
    ``~/.keras/models`` the first time) or the path of a weights file to load. The model
    takes 0-255 pixels and normalizes them itself unless `include_preprocessing` is False.
    Without the top (`include_top` False) it takes any image size of at least 32x32;
    `pooling` (None, ``"avg"`` or ``"max"``) says what it does to the last feature map,
    followed by a layer normalization.
    """
    return _convnext("tiny", model_name, include_top, include_preprocessing, weights,
                     input_tensor, input_shape, pooling, classes, classifier_activation)


@export("keras.applications.ConvNeXtSmall", "keras.applications.convnext.ConvNeXtSmall")
def ConvNeXtSmall(model_name="convnext_small", include_top=True,  # noqa: N802
                  include_preprocessing=True, weights="imagenet", input_tensor=None,
                  input_shape=None, pooling=None, classes=1000,
                  classifier_activation="softmax"):
    """ConvNeXt-S: ConvNeXtTiny with 27 blocks in its third stage; the arguments are
    ConvNeXtTiny's."""
    return _convnext("small", model_name, include_top, include_preprocessing, weights,
                     input_tensor, input_shape, pooling, classes, classifier_activation)


@export("keras.applications.ConvNeXtBase", "keras.applications.convnext.ConvNeXtBase")
def ConvNeXtBase(model_name="convnext_base", include_top=True,  # noqa: N802
                 include_preprocessing=True, weights="imagenet", input_tensor=None,
                 input_shape=None, pooling=None, classes=1000,
                 classifier_activation="softmax"):
    """ConvNeXt-B: ConvNeXtSmall with 128 to 1024 channels; the arguments are
    ConvNeXtTiny's."""
    return _convnext("base", model_name, include_top, include_preprocessing, weights,
                     input_tensor, input_shape, pooling, classes, classifier_activation)


@export("keras.applications.ConvNeXtLarge", "keras.applications.convnext.ConvNeXtLarge")
def ConvNeXtLarge(model_name="convnext_large", include_top=True,  # noqa: N802
                  include_preprocessing=True, weights="imagenet", input_tensor=None,
                  input_shape=None, pooling=None, classes=1000,
                  classifier_activation="softmax"):
    """ConvNeXt-L: ConvNeXtSmall with 192 to 1536 channels; the arguments are
    ConvNeXtTiny's."""
    return _convnext("large", model_name, include_top, include_preprocessing, weights,
                     input_tensor, input_shape, pooling, classes, classifier_activation)


@export("keras.applications.ConvNeXtXLarge", "keras.applications.convnext.ConvNeXtXLarge")
def ConvNeXtXLarge(model_name="convnext_xlarge", include_top=True,  # noqa: N802
                   include_preprocessing=True, weights="imagenet", input_tensor=None,
                   input_shape=None, pooling=None, classes=1000,
                   classifier_activation="softmax"):
    """ConvNeXt-XL: ConvNeXtSmall with 256 to 2048 channels; the arguments are
    ConvNeXtTiny's."""
    return _convnext("xlarge", model_name, include_top, include_preprocessing, weights,
                     input_tensor, input_shape, pooling, classes, classifier_activation)
