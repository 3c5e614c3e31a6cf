"""Inception-v3 (Szegedy et al., 2016: "Rethinking the Inception Architecture for Computer
Vision"), as ``tf.keras.applications.InceptionV3`` builds it: same layers in the same
order (their names are Keras's automatic ones) and weights, so that its weights files load.

>>> model = tf.keras.applications.InceptionV3(weights=None, include_top=False,
...                                           input_shape=(75, 75, 3), pooling="avg")
>>> model.output_shape, model.count_params()
((None, 2048), 21802784)
"""
from eagerflow._src.backend.api_export import export
from eagerflow._src.keras.applications import imagenet_utils
from eagerflow._src.keras.layers import convolutional, core, merging, normalization, \
    pooling as pooling_layers


def _conv_bn(x, filters, rows, cols, padding="same", strides=1):
    """A convolution without bias, batch normalization without scale, and ReLU."""
    x = convolutional.Conv2D(filters, (rows, cols), strides=strides, padding=padding,
                             use_bias=False)(x)
    x = normalization.BatchNormalization(axis=imagenet_utils.channel_axis(), scale=False)(x)
    return core.Activation("relu")(x)


def _concat(branches, name=None):
    return merging.concatenate(branches, axis=imagenet_utils.channel_axis(), name=name)


def _avg_pool_branch(x, filters):
    x = pooling_layers.AveragePooling2D(3, strides=1, padding="same")(x)
    return _conv_bn(x, filters, 1, 1)


def _block_35(x, pool_filters, name):
    """1x1; 1x1 then 5x5; 1x1 then two 3x3; average pooling then 1x1."""
    b1 = _conv_bn(x, 64, 1, 1)
    b5 = _conv_bn(_conv_bn(x, 48, 1, 1), 64, 5, 5)
    b3 = _conv_bn(_conv_bn(_conv_bn(x, 64, 1, 1), 96, 3, 3), 96, 3, 3)
    return _concat([b1, b5, b3, _avg_pool_branch(x, pool_filters)], name)


def _block_17(x, width, name):
    """1x1; factorized 7x7 (1x7, 7x1); two factorized 7x7; average pooling then 1x1."""
    b1 = _conv_bn(x, 192, 1, 1)
    b7 = _conv_bn(_conv_bn(_conv_bn(x, width, 1, 1), width, 1, 7), 192, 7, 1)
    d = _conv_bn(x, width, 1, 1)
    for filters, rows, cols in ((width, 7, 1), (width, 1, 7), (width, 7, 1), (192, 1, 7)):
        d = _conv_bn(d, filters, rows, cols)
    return _concat([b1, b7, d, _avg_pool_branch(x, 192)], name)


def _block_8(x, index):
    """1x1; 1x1 then 1x3 and 3x1 side by side; 1x1, 3x3 then 1x3 and 3x1 side by side;
    average pooling then 1x1."""
    b1 = _conv_bn(x, 320, 1, 1)
    b3 = _conv_bn(x, 384, 1, 1)
    b3 = _concat([_conv_bn(b3, 384, 1, 3), _conv_bn(b3, 384, 3, 1)], f"mixed9_{index}")
    d = _conv_bn(_conv_bn(x, 448, 1, 1), 384, 3, 3)
    d = _concat([_conv_bn(d, 384, 1, 3), _conv_bn(d, 384, 3, 1)])
    return _concat([b1, b3, d, _avg_pool_branch(x, 192)], f"mixed{9 + index}")


@export("keras.applications.InceptionV3", "keras.applications.inception_v3.InceptionV3")
def InceptionV3(include_top=True, weights="imagenet", input_tensor=None,  # noqa: N802
                input_shape=None, pooling=None, classes=1000,
                classifier_activation="softmax"):
    """Inception-v3: a convolutional stem, then eleven Inception blocks ("mixed0" to
    "mixed10", two of them reducing the size) (23.9M parameters with its 1000-class top).

    `weights` is None (random initialization), ``"imagenet"`` (Keras's file, downloaded into
    ``~/.keras/models`` the first time) or the path of a weights file to load. Without the
    top (`include_top` False) the model takes any image size of at least 75x75 and
    `pooling` (None, ``"avg"`` or ``"max"``) says what it does to the last feature map.
    """
    imagenet_utils.check_weights(weights, include_top, classes, f"; Received: weights={weights}",
                                 f"; Received classes={classes}")
    input_shape, img_input = imagenet_utils.model_input(
        input_shape, input_tensor, include_top, weights, default_size=299, min_size=75)

    x = _conv_bn(img_input, 32, 3, 3, strides=2, padding="valid")
    x = _conv_bn(x, 32, 3, 3, padding="valid")
    x = _conv_bn(x, 64, 3, 3)
    x = pooling_layers.MaxPooling2D(3, strides=2)(x)
    x = _conv_bn(x, 80, 1, 1, padding="valid")
    x = _conv_bn(x, 192, 3, 3, padding="valid")
    x = pooling_layers.MaxPooling2D(3, strides=2)(x)
    for i, pool_filters in enumerate((32, 64, 64)):
        x = _block_35(x, pool_filters, f"mixed{i}")
    # reduction to 17x17 (at 299x299)
    b3 = _conv_bn(x, 384, 3, 3, strides=2, padding="valid")
    d = _conv_bn(_conv_bn(_conv_bn(x, 64, 1, 1), 96, 3, 3), 96, 3, 3, strides=2,
                 padding="valid")
    x = _concat([b3, d, pooling_layers.MaxPooling2D(3, strides=2)(x)], "mixed3")
    for i, width in enumerate((128, 160, 160, 192)):
        x = _block_17(x, width, f"mixed{4 + i}")
    # reduction to 8x8
    b3 = _conv_bn(_conv_bn(x, 192, 1, 1), 320, 3, 3, strides=2, padding="valid")
    d = _conv_bn(x, 192, 1, 1)
    for filters, rows, cols in ((192, 1, 7), (192, 7, 1)):
        d = _conv_bn(d, filters, rows, cols)
    d = _conv_bn(d, 192, 3, 3, strides=2, padding="valid")
    x = _concat([b3, d, pooling_layers.MaxPooling2D(3, strides=2)(x)], "mixed8")
    for index in (0, 1):
        x = _block_8(x, index)
    x = imagenet_utils.top(x, include_top, pooling, classes, classifier_activation, weights)
    model = imagenet_utils.model(img_input, input_tensor, x, "inception_v3")
    suffix = "" if include_top else "_notop"
    imagenet_utils.load_weights(
        model, weights,
        f"inception_v3/inception_v3_weights_tf_dim_ordering_tf_kernels{suffix}.h5")
    return model


@export("keras.applications.inception_v3.preprocess_input")
def preprocess_input(x, data_format=None):
    """ImageNet's preprocessing for Inception-v3 (``"tf"``): pixels scaled to [-1, 1]."""
    return imagenet_utils.preprocess_input(x, data_format=data_format, mode="tf")
