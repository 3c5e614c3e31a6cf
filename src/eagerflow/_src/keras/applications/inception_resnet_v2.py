"""Inception-ResNet-v2 (Szegedy et al., 2017: "Inception-v4, Inception-ResNet and the
Impact of Residual Connections on Learning"), as ``tf.keras.applications.InceptionResNetV2``
builds it: same layers in the same order, names and weights as Keras's, so that its
weights files load.

>>> model = tf.keras.applications.InceptionResNetV2(weights=None, include_top=False,
...                                                 input_shape=(75, 75, 3), pooling="avg")
>>> model.output_shape, model.count_params()
((None, 1536), 54336736)
"""
from eagerflow._src.backend.api_export import export
from eagerflow._src.keras import backend
from eagerflow._src.keras.applications import imagenet_utils
from eagerflow._src.keras.engine.base_layer import Layer
from eagerflow._src.keras.layers import convolutional, core, merging, normalization, \
    pooling as pooling_layers
from eagerflow._src.keras.utils import serialization


@serialization.register_keras_serializable(package="Custom")
class CustomScaleLayer(Layer):
    """``inputs[0] + inputs[1] * scale``: a residual branch scaled down before it is added
    (registered as Keras registers it, so that saved models holding it load).

    >>> CustomScaleLayer(0.5)([tf.ones([2]), tf.ones([2])]).numpy()
    array([1.5, 1.5], dtype=float32)
    """
    _serialized_module = "tf_keras.src.applications.inception_resnet_v2"
    _serialized_registered_name = "Custom>CustomScaleLayer"

    def __init__(self, scale, **kwargs):
        super().__init__(**kwargs)
        self.scale = scale

    def get_config(self):
        return {**super().get_config(), "scale": self.scale}

    def call(self, inputs):
        return inputs[0] + inputs[1] * self.scale


def _conv_bn(x, filters, kernel_size, strides=1, padding="same", activation="relu",
             use_bias=False, name=None):
    """A convolution, batch normalization without scale (not with a bias) and `activation`;
    named `name`, `name`_bn and `name`_ac when given."""
    x = convolutional.Conv2D(filters, kernel_size, strides=strides, padding=padding,
                             use_bias=use_bias, name=name)(x)
    if not use_bias:
        x = normalization.BatchNormalization(axis=imagenet_utils.channel_axis(), scale=False,
                                             name=None if name is None else name + "_bn")(x)
    if activation is not None:
        x = core.Activation(activation, name=None if name is None else name + "_ac")(x)
    return x


# residual blocks by kind: their branches, as (filters, kernel size) convolutions in turn
_BRANCHES = {
    "block35": (((32, 1),), ((32, 1), (32, 3)), ((32, 1), (48, 3), (64, 3))),
    "block17": (((192, 1),), ((128, 1), (160, (1, 7)), (192, (7, 1)))),
    "block8": (((192, 1),), ((192, 1), (224, (1, 3)), (256, (3, 1)))),
}


def _residual_block(x, scale, kind, index, activation="relu"):
    """The branches of `kind` side by side, projected by a 1x1 convolution with a bias to
    the input's channels, scaled, added to the input and activated."""
    name = f"{kind}_{index}"
    branches = []
    for convs in _BRANCHES[kind]:
        branch = x
        for filters, size in convs:
            branch = _conv_bn(branch, filters, size)
        branches.append(branch)
    axis = imagenet_utils.channel_axis()
    mixed = merging.Concatenate(axis=axis, name=name + "_mixed")(branches)
    up = _conv_bn(mixed, backend.int_shape(x)[axis], 1, activation=None, use_bias=True,
                  name=name + "_conv")
    x = CustomScaleLayer(scale)([x, up])
    if activation is not None:
        x = core.Activation(activation, name=name + "_ac")(x)
    return x


def _concat(branches, name):
    return merging.Concatenate(axis=imagenet_utils.channel_axis(), name=name)(branches)


@export("keras.applications.InceptionResNetV2",
        "keras.applications.inception_resnet_v2.InceptionResNetV2")
def InceptionResNetV2(include_top=True, weights="imagenet", input_tensor=None,  # noqa: N802
                      input_shape=None, pooling=None, classes=1000,
                      classifier_activation="softmax", **kwargs):
    """Inception-ResNet-v2: Inception-v3's stem, then 10, 20 and 10 scaled residual
    Inception blocks with two reductions between them (55.9M parameters with its
    1000-class top).

    `weights` is None (random initialization), ``"imagenet"`` (Keras's file, downloaded into
    ``~/.keras/models`` the first time) or the path of a weights file to load. Without the
    top (`include_top` False) the model takes any image size of at least 75x75 and
    `pooling` (None, ``"avg"`` or ``"max"``) says what it does to the last feature map.
    """
    if kwargs:
        raise ValueError(f"Unknown argument(s): {kwargs}")
    imagenet_utils.check_weights(weights, include_top, classes)
    input_shape, img_input = imagenet_utils.model_input(
        input_shape, input_tensor, include_top, weights, default_size=299, min_size=75)

    x = _conv_bn(img_input, 32, 3, strides=2, padding="valid")
    x = _conv_bn(x, 32, 3, padding="valid")
    x = _conv_bn(x, 64, 3)
    x = pooling_layers.MaxPooling2D(3, strides=2)(x)
    x = _conv_bn(x, 80, 1, padding="valid")
    x = _conv_bn(x, 192, 3, padding="valid")
    x = pooling_layers.MaxPooling2D(3, strides=2)(x)

    b0 = _conv_bn(x, 96, 1)
    b1 = _conv_bn(_conv_bn(x, 48, 1), 64, 5)
    b2 = _conv_bn(_conv_bn(_conv_bn(x, 64, 1), 96, 3), 96, 3)
    pool = _conv_bn(pooling_layers.AveragePooling2D(3, strides=1, padding="same")(x), 64, 1)
    x = _concat([b0, b1, b2, pool], "mixed_5b")
    for index in range(1, 11):
        x = _residual_block(x, 0.17, "block35", index)

    b0 = _conv_bn(x, 384, 3, strides=2, padding="valid")
    b1 = _conv_bn(_conv_bn(_conv_bn(x, 256, 1), 256, 3), 384, 3, strides=2, padding="valid")
    x = _concat([b0, b1, pooling_layers.MaxPooling2D(3, strides=2, padding="valid")(x)],
                "mixed_6a")
    for index in range(1, 21):
        x = _residual_block(x, 0.1, "block17", index)

    b0 = _conv_bn(_conv_bn(x, 256, 1), 384, 3, strides=2, padding="valid")
    b1 = _conv_bn(_conv_bn(x, 256, 1), 288, 3, strides=2, padding="valid")
    b2 = _conv_bn(_conv_bn(_conv_bn(x, 256, 1), 288, 3), 320, 3, strides=2, padding="valid")
    x = _concat([b0, b1, b2, pooling_layers.MaxPooling2D(3, strides=2, padding="valid")(x)],
                "mixed_7a")
    for index in range(1, 10):
        x = _residual_block(x, 0.2, "block8", index)
    x = _residual_block(x, 1.0, "block8", 10, activation=None)
    x = _conv_bn(x, 1536, 1, name="conv_7b")

    x = imagenet_utils.top(x, include_top, pooling, classes, classifier_activation, weights)
    model = imagenet_utils.model(img_input, input_tensor, x, "inception_resnet_v2")
    suffix = "" if include_top else "_notop"
    imagenet_utils.load_weights(
        model, weights, "inception_resnet_v2/inception_resnet_v2_weights_tf_dim_ordering_tf_"
        f"kernels{suffix}.h5")
    return model


@export("keras.applications.inception_resnet_v2.preprocess_input")
def preprocess_input(x, data_format=None):
    """ImageNet's preprocessing for Inception-ResNet-v2 (``"tf"``): pixels scaled to
    [-1, 1]."""
    return imagenet_utils.preprocess_input(x, data_format=data_format, mode="tf")
