"""Xception (Chollet, 2017: "Xception: Deep Learning with Depthwise Separable
Convolutions"), as ``tf.keras.applications.Xception`` builds it: same layer names and
weights as Keras's, so that its weights files load.

>>> model = tf.keras.applications.Xception(weights=None, include_top=False,
...                                        input_shape=(71, 71, 3), pooling="avg")
>>> model.output_shape, model.count_params()
((None, 2048), 20861480)
"""
from eagerflow._src.backend.api_export import export
from eagerflow._src.keras.applications import imagenet_utils
from eagerflow._src.keras.layers import convolutional, core, merging, normalization, \
    pooling as pooling_layers


def _bn(x, name=None):
    return normalization.BatchNormalization(axis=imagenet_utils.channel_axis(), name=name)(x)


def _sepconv(x, filters, name, relu_before=True):
    """(ReLU,) a 3x3 separable convolution and its normalization, named after `name`."""
    if relu_before:
        x = core.Activation("relu", name=name + "_act")(x)
    x = convolutional.SeparableConv2D(filters, 3, padding="same", use_bias=False, name=name)(x)
    return _bn(x, name + "_bn")


def _downsampling(x, filters, block, first_relu=True):
    """Two separable convolutions and a strided max pooling, added to a strided 1x1
    convolution of the input."""
    residual = convolutional.Conv2D(filters[1], 1, strides=2, padding="same",
                                    use_bias=False)(x)
    residual = _bn(residual)
    x = _sepconv(x, filters[0], f"block{block}_sepconv1", relu_before=first_relu)
    if not first_relu:  # the entry flow's first block rectifies between its convolutions only
        x = core.Activation("relu", name=f"block{block}_sepconv2_act")(x)
    x = _sepconv(x, filters[1], f"block{block}_sepconv2", relu_before=first_relu)
    x = pooling_layers.MaxPooling2D(3, strides=2, padding="same", name=f"block{block}_pool")(x)
    return merging.add([x, residual])


@export("keras.applications.Xception", "keras.applications.xception.Xception")
def Xception(include_top=True, weights="imagenet", input_tensor=None,  # noqa: N802
             input_shape=None, pooling=None, classes=1000, classifier_activation="softmax"):
    """Xception: an entry flow of strided separable-convolution blocks, eight residual
    blocks of three separable convolutions each, and an exit flow (22.9M parameters with
    its 1000-class top).

    `weights` is None (random initialization), ``"imagenet"`` (Keras's file, downloaded into
    ``~/.keras/models`` the first time) or the path of a weights file to load. Without the
    top (`include_top` False) the model takes any image size of at least 71x71 and
    `pooling` (None, ``"avg"`` or ``"max"``) says what it does to the last feature map.
    """
    imagenet_utils.check_weights(weights, include_top, classes)
    input_shape, img_input = imagenet_utils.model_input(
        input_shape, input_tensor, include_top, weights, default_size=299, min_size=71)

    x = convolutional.Conv2D(32, 3, strides=2, use_bias=False, name="block1_conv1")(img_input)
    x = core.Activation("relu", name="block1_conv1_act")(_bn(x, "block1_conv1_bn"))
    x = convolutional.Conv2D(64, 3, use_bias=False, name="block1_conv2")(x)
    x = core.Activation("relu", name="block1_conv2_act")(_bn(x, "block1_conv2_bn"))
    x = _downsampling(x, (128, 128), 2, first_relu=False)
    x = _downsampling(x, (256, 256), 3)
    x = _downsampling(x, (728, 728), 4)
    for block in range(5, 13):
        residual = x
        for i in (1, 2, 3):
            x = _sepconv(x, 728, f"block{block}_sepconv{i}")
        x = merging.add([x, residual])
    x = _downsampling(x, (728, 1024), 13)
    for i, filters in ((1, 1536), (2, 2048)):
        x = convolutional.SeparableConv2D(filters, 3, padding="same", use_bias=False,
                                          name=f"block14_sepconv{i}")(x)
        x = core.Activation("relu", name=f"block14_sepconv{i}_act")(
            _bn(x, f"block14_sepconv{i}_bn"))
    x = imagenet_utils.top(x, include_top, pooling, classes, classifier_activation, weights)
    model = imagenet_utils.model(img_input, input_tensor, x, "xception")
    suffix = "" if include_top else "_notop"
    imagenet_utils.load_weights(
        model, weights, f"xception/xception_weights_tf_dim_ordering_tf_kernels{suffix}.h5")
    return model


@export("keras.applications.xception.preprocess_input")
def preprocess_input(x, data_format=None):
    """ImageNet's preprocessing for Xception (``"tf"``): pixels scaled to [-1, 1]."""
    return imagenet_utils.preprocess_input(x, data_format=data_format, mode="tf")
