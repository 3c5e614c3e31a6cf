"""DenseNet (Huang et al., 2017: "Densely Connected Convolutional Networks"), as
``tf.keras.applications.DenseNet121`` and its deeper siblings build it: same layer names
and weights as Keras's, so that its weights files load.

>>> model = tf.keras.applications.DenseNet121(weights=None, include_top=False,
...                                           input_shape=(32, 32, 3), pooling="avg")
>>> model.output_shape, model.count_params()
((None, 1024), 7037504)
"""
from eagerflow._src.backend.api_export import export
from eagerflow._src.keras import backend
from eagerflow._src.keras.applications import imagenet_utils
from eagerflow._src.keras.layers import convolutional, core, merging, normalization, \
    pooling as pooling_layers, reshaping

_GROWTH = 32  # channels each convolution block adds


def _bn_relu(x, name):
    x = normalization.BatchNormalization(axis=imagenet_utils.channel_axis(), epsilon=1.001e-5,
                                         name=name + "_bn")(x)
    return core.Activation("relu", name=name + "_relu")(x)


def _conv_block(x, name):
    """Normalize, rectify, 1x1 to 4 * growth channels, again, 3x3 to growth channels, and
    append those to the input's channels."""
    y = convolutional.Conv2D(4 * _GROWTH, 1, use_bias=False, name=name + "_1_conv")(
        _bn_relu(x, name + "_0"))
    y = convolutional.Conv2D(_GROWTH, 3, padding="same", use_bias=False,
                             name=name + "_2_conv")(_bn_relu(y, name + "_1"))
    return merging.Concatenate(axis=imagenet_utils.channel_axis(), name=name + "_concat")([x, y])


def _transition(x, name):
    """Normalize, rectify, halve the channels with a 1x1 convolution and the size with 2x2
    average pooling."""
    channels = backend.int_shape(x)[imagenet_utils.channel_axis()]
    x = convolutional.Conv2D(int(channels * 0.5), 1, use_bias=False, name=name + "_conv")(
        _bn_relu(x, name))
    return pooling_layers.AveragePooling2D(2, strides=2, name=name + "_pool")(x)


def _densenet(blocks, name, include_top, weights, input_tensor, input_shape, pooling, classes,
              classifier_activation):
    imagenet_utils.check_weights(weights, include_top, classes)
    input_shape, img_input = imagenet_utils.model_input(
        input_shape, input_tensor, include_top, weights)

    x = reshaping.ZeroPadding2D(padding=((3, 3), (3, 3)))(img_input)
    x = convolutional.Conv2D(64, 7, strides=2, use_bias=False, name="conv1/conv")(x)
    x = normalization.BatchNormalization(axis=imagenet_utils.channel_axis(), epsilon=1.001e-5,
                                         name="conv1/bn")(x)
    x = core.Activation("relu", name="conv1/relu")(x)
    x = reshaping.ZeroPadding2D(padding=((1, 1), (1, 1)))(x)
    x = pooling_layers.MaxPooling2D(3, strides=2, name="pool1")(x)
    for stage, count in enumerate(blocks, start=2):
        for i in range(1, count + 1):
            x = _conv_block(x, f"conv{stage}_block{i}")
        if stage < 5:
            x = _transition(x, f"pool{stage}")
    x = normalization.BatchNormalization(axis=imagenet_utils.channel_axis(), epsilon=1.001e-5,
                                         name="bn")(x)
    x = core.Activation("relu", name="relu")(x)
    x = imagenet_utils.top(x, include_top, pooling, classes, classifier_activation, weights,
                           ("avg_pool", "max_pool"))
    model = imagenet_utils.model(img_input, input_tensor, x, name)
    suffix = "" if include_top else "_notop"
    imagenet_utils.load_weights(
        model, weights, f"densenet/{name}_weights_tf_dim_ordering_tf_kernels{suffix}.h5")
    return model


@export("keras.applications.DenseNet121", "keras.applications.densenet.DenseNet121")
def DenseNet121(include_top=True, weights="imagenet", input_tensor=None,  # noqa: N802
                input_shape=None, pooling=None, classes=1000,
                classifier_activation="softmax"):
    """DenseNet-121: a 7x7 stem and dense blocks of 6, 12, 24 and 16 convolution blocks,
    with transitions between them (8.1M parameters with its 1000-class top).

    `weights` is None (random initialization), ``"imagenet"`` (Keras's file, downloaded into
    ``~/.keras/models`` the first time) or the path of a weights file to load. Without the
    top (`include_top` False) the model takes any image size of at least 32x32 and `pooling`
    (None, ``"avg"`` or ``"max"``) says what it does to the last feature map.
    """
    return _densenet((6, 12, 24, 16), "densenet121", include_top, weights, input_tensor,
                     input_shape, pooling, classes, classifier_activation)


@export("keras.applications.DenseNet169", "keras.applications.densenet.DenseNet169")
def DenseNet169(include_top=True, weights="imagenet", input_tensor=None,  # noqa: N802
                input_shape=None, pooling=None, classes=1000,
                classifier_activation="softmax"):
    """DenseNet-169: DenseNet121 with 32 blocks in its last two dense blocks; the
    arguments are DenseNet121's."""
    return _densenet((6, 12, 32, 32), "densenet169", include_top, weights, input_tensor,
                     input_shape, pooling, classes, classifier_activation)


@export("keras.applications.DenseNet201", "keras.applications.densenet.DenseNet201")
def DenseNet201(include_top=True, weights="imagenet", input_tensor=None,  # noqa: N802
                input_shape=None, pooling=None, classes=1000,
                classifier_activation="softmax"):
    """DenseNet-201: DenseNet121 with 48 and 32 blocks in its last two dense blocks; the
    arguments are DenseNet121's."""
    return _densenet((6, 12, 48, 32), "densenet201", include_top, weights, input_tensor,
                     input_shape, pooling, classes, classifier_activation)


@export("keras.applications.densenet.preprocess_input")
def preprocess_input(x, data_format=None):
    """ImageNet's preprocessing for DenseNet (``"torch"``): pixels scaled to [0, 1], then
    standardized with ImageNet's mean and deviation per channel."""
    return imagenet_utils.preprocess_input(x, data_format=data_format, mode="torch")
