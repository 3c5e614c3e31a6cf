"""MobileNetV2 (Sandler et al., 2018: "MobileNetV2: Inverted Residuals and Linear
Bottlenecks"), as ``tf.keras.applications.MobileNetV2`` builds it: same layer names and
weights, so that weights files of Keras's MobileNetV2 load into it.

>>> model = tf.keras.applications.MobileNetV2(weights=None, alpha=0.35,
...                                           input_shape=(32, 32, 3), classes=10)
>>> model.name, model.count_params()
('mobilenetv2_0.35_32', 423018)
"""
from eagerflow._src.backend import log
from eagerflow._src.backend.api_export import export
from eagerflow._src.keras import backend
from eagerflow._src.keras.applications import imagenet_utils
from eagerflow._src.keras.engine import keras_tensor
from eagerflow._src.keras.layers import activation, convolutional, core, merging, \
    normalization, pooling as pooling_layers, reshaping

_SIZES = (96, 128, 160, 192, 224)  # the input sizes ImageNet weights exist for
# (filters, stride, expansion) of the inverted residual blocks, in order
_BLOCKS = ((16, 1, 1), (24, 2, 6), (24, 1, 6), (32, 2, 6), (32, 1, 6), (32, 1, 6),
           (64, 2, 6), (64, 1, 6), (64, 1, 6), (64, 1, 6), (96, 1, 6), (96, 1, 6), (96, 1, 6),
           (160, 2, 6), (160, 1, 6), (160, 1, 6), (320, 1, 6))


def _make_divisible(v, divisor=8):
    """`v` rounded to a multiple of `divisor`, never more than 10% below it."""
    new_v = max(divisor, int(v + divisor / 2) // divisor * divisor)
    return new_v + divisor if new_v < 0.9 * v else new_v


def _channel_axis():
    return 1 if backend.image_data_format() == "channels_first" else -1


def _bn(x, name):
    return normalization.BatchNormalization(axis=_channel_axis(), epsilon=1e-3, momentum=0.999,
                                            name=name)(x)


def _inverted_res_block(x, expansion, stride, alpha, filters, block_id):
    """Expand with a 1x1 convolution (not in the first block), filter depthwise (strided:
    after explicit padding), project linearly to `filters` * `alpha`, and add the input back
    when the shapes allow."""
    in_channels = backend.int_shape(x)[_channel_axis()]
    pointwise_filters = _make_divisible(int(filters * alpha), 8)
    inputs = x
    prefix = f"block_{block_id}_" if block_id else "expanded_conv_"
    if block_id:
        x = convolutional.Conv2D(expansion * in_channels, kernel_size=1, padding="same",
                                 use_bias=False, activation=None, name=prefix + "expand")(x)
        x = _bn(x, prefix + "expand_BN")
        x = activation.ReLU(6.0, name=prefix + "expand_relu")(x)
    if stride == 2:
        x = reshaping.ZeroPadding2D(padding=imagenet_utils.correct_pad(x, 3),
                                    name=prefix + "pad")(x)
    x = convolutional.DepthwiseConv2D(kernel_size=3, strides=stride, activation=None,
                                      use_bias=False, padding="same" if stride == 1 else "valid",
                                      name=prefix + "depthwise")(x)
    x = _bn(x, prefix + "depthwise_BN")
    x = activation.ReLU(6.0, name=prefix + "depthwise_relu")(x)
    x = convolutional.Conv2D(pointwise_filters, kernel_size=1, padding="same", use_bias=False,
                             activation=None, name=prefix + "project")(x)
    x = _bn(x, prefix + "project_BN")
    if in_channels == pointwise_filters and stride == 1:
        return merging.Add(name=prefix + "add")([inputs, x])
    return x


def _rows_cols(shape, offset=0):
    """The rows and columns of an image shape (`offset` 1 with a batch dimension)."""
    if backend.image_data_format() == "channels_first":
        return shape[offset + 1], shape[offset + 2]
    return shape[offset], shape[offset + 1]


def _default_size(input_shape, input_tensor):
    """The input size Keras's MobileNetV2 assumes: the given one where ImageNet weights exist
    for it, else 224; and checks that `input_shape` and `input_tensor` agree."""
    if input_shape is not None and input_tensor is not None:
        if not keras_tensor.is_keras_tensor(input_tensor):
            raise ValueError("input_tensor is not a TF-Keras tensor; "
                             f"Received `input_tensor={input_tensor}`")
        if backend.image_data_format() == "channels_first":
            if backend.int_shape(input_tensor)[1] != input_shape[1]:
                raise ValueError("input_shape[1] must equal shape(input_tensor)[1] when "
                                 "`image_data_format` is `channels_first`; Received "
                                 f"`input_tensor.shape={input_tensor.shape}`, "
                                 f"`input_shape={input_shape}`")
        elif backend.int_shape(input_tensor)[2] != input_shape[1]:
            raise ValueError("input_tensor.shape[2] must equal input_shape[1]; Received "
                             f"`input_tensor.shape={input_tensor.shape}`, "
                             f"`input_shape={input_shape}`")
    if input_shape is not None:
        rows, cols = _rows_cols(input_shape)
    elif input_tensor is not None and keras_tensor.is_keras_tensor(input_tensor):
        rows, cols = _rows_cols(backend.int_shape(input_tensor), offset=1)
    else:
        return 224
    return rows if rows == cols and rows in _SIZES else 224


@export("keras.applications.MobileNetV2", "keras.applications.mobilenet_v2.MobileNetV2")
def MobileNetV2(input_shape=None, alpha=1.0, include_top=True, weights="imagenet",  # noqa: N802
                input_tensor=None, pooling=None, classes=1000,
                classifier_activation="softmax", **kwargs):
    """MobileNetV2: a strided 3x3 convolution, 17 inverted residual blocks of depthwise
    convolutions, a 1x1 convolution to 1280 channels and the classifier (3.5M parameters with
    its 1000-class top and `alpha` 1).

    `alpha` scales the number of filters of every layer (the last one only above 1).
    `weights` is None (random initialization), ``"imagenet"`` (Keras's file for `alpha` and
    the input size, downloaded into ``~/.keras/models`` the first time) or the path of a
    weights file to load. Without the top (`include_top` False) the model takes any image
    size of at least 32x32 and `pooling` (None, ``"avg"`` or ``"max"``) says what it does to
    the last feature map.
    """
    if kwargs:
        raise ValueError(f"Unknown argument(s): {kwargs}")
    imagenet_utils.check_weights(weights, include_top, classes,
                                 f".  Received `weights={weights}`",
                                 f". Received `classes={classes}`")
    input_shape = imagenet_utils.obtain_input_shape(
        input_shape, default_size=_default_size(input_shape, input_tensor), min_size=32,
        data_format=backend.image_data_format(), require_flatten=include_top, weights=weights)
    rows, cols = _rows_cols(input_shape)
    if weights == "imagenet":
        if alpha not in (0.35, 0.50, 0.75, 1.0, 1.3, 1.4):
            raise ValueError("If imagenet weights are being loaded, alpha must be one of "
                             "`0.35`, `0.50`, `0.75`, `1.0`, `1.3` or `1.4` only; "
                             f"Received `alpha={alpha}`")
        if rows != cols or rows not in _SIZES:
            rows = 224
            log.get_logger().warning(
                "`input_shape` is undefined or non-square, or `rows` is not in "
                "[96, 128, 160, 192, 224]. Weights for input shape (224, 224) "
                "will be loaded as the default.")
    img_input = imagenet_utils.image_input(input_shape, input_tensor)

    x = convolutional.Conv2D(_make_divisible(32 * alpha, 8), kernel_size=3, strides=(2, 2),
                             padding="same", use_bias=False, name="Conv1")(img_input)
    x = _bn(x, "bn_Conv1")
    x = activation.ReLU(6.0, name="Conv1_relu")(x)
    for block_id, (filters, stride, expansion) in enumerate(_BLOCKS):
        x = _inverted_res_block(x, expansion, stride, alpha, filters, block_id)
    last_filters = _make_divisible(1280 * alpha, 8) if alpha > 1.0 else 1280
    x = convolutional.Conv2D(last_filters, kernel_size=1, use_bias=False, name="Conv_1")(x)
    x = _bn(x, "Conv_1_bn")
    x = activation.ReLU(6.0, name="out_relu")(x)

    if include_top:
        x = pooling_layers.GlobalAveragePooling2D()(x)
        imagenet_utils.validate_activation(classifier_activation, weights)
        x = core.Dense(classes, activation=classifier_activation, name="predictions")(x)
    elif pooling == "avg":
        x = pooling_layers.GlobalAveragePooling2D()(x)
    elif pooling == "max":
        x = pooling_layers.GlobalMaxPooling2D()(x)

    model = imagenet_utils.model(img_input, input_tensor, x, f"mobilenetv2_{alpha:0.2f}_{rows}")
    top = "" if include_top else "_no_top"
    imagenet_utils.load_weights(
        model, weights,
        f"mobilenet_v2/mobilenet_v2_weights_tf_dim_ordering_tf_kernels_{float(alpha)}_{rows}"
        f"{top}.h5")
    return model


@export("keras.applications.mobilenet_v2.preprocess_input")
def preprocess_input(x, data_format=None):
    """ImageNet's preprocessing for MobileNetV2 (``"tf"``): pixels scaled to [-1, 1]."""
    return imagenet_utils.preprocess_input(x, data_format=data_format, mode="tf")
