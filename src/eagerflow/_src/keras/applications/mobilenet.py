"""MobileNet (Howard et al., 2017: "MobileNets: Efficient Convolutional Neural Networks for
Mobile Vision Applications"), as ``tf.keras.applications.MobileNet`` builds it: same layer
names and weights, so that weights files of Keras's MobileNet load into it.

>>> model = tf.keras.applications.MobileNet(weights=None, alpha=0.25,
...                                         input_shape=(32, 32, 3), classes=10)
>>> model.name, model.count_params()
('mobilenet_0.25_32', 221114)
"""
from eagerflow._src.backend import log
from eagerflow._src.backend.api_export import export
from eagerflow._src.keras import backend
from eagerflow._src.keras.applications import imagenet_utils
from eagerflow._src.keras.layers import activation, convolutional, core, normalization, \
    pooling as pooling_layers, reshaping

_SIZES = (128, 160, 192, 224)  # the input sizes ImageNet weights exist for
_ALPHAS = {1.0: "1_0", 0.75: "7_5", 0.5: "5_0", 0.25: "2_5"}  # as in the files' names
# (pointwise filters, stride) of the 13 depthwise separable blocks, in order
_BLOCKS = ((64, 1), (128, 2), (128, 1), (256, 2), (256, 1), (512, 2), (512, 1), (512, 1),
           (512, 1), (512, 1), (512, 1), (1024, 2), (1024, 1))


def _channel_axis():
    return 1 if backend.image_data_format() == "channels_first" else -1


def _bn_relu6(x, name):
    x = normalization.BatchNormalization(axis=_channel_axis(), name=name + "_bn")(x)
    return activation.ReLU(6.0, name=name + "_relu")(x)


def _separable_block(x, filters, depth_multiplier, stride, block_id):
    """A 3x3 depthwise convolution (strided: after padding the bottom and right by one) and a
    1x1 convolution to `filters`, each batch-normalized and clipped by ReLU6."""
    if stride == 2:
        x = reshaping.ZeroPadding2D(((0, 1), (0, 1)), name=f"conv_pad_{block_id}")(x)
    x = convolutional.DepthwiseConv2D((3, 3), padding="same" if stride == 1 else "valid",
                                      depth_multiplier=depth_multiplier,
                                      strides=(stride, stride), use_bias=False,
                                      name=f"conv_dw_{block_id}")(x)
    x = _bn_relu6(x, f"conv_dw_{block_id}")
    x = convolutional.Conv2D(filters, (1, 1), padding="same", use_bias=False, strides=(1, 1),
                             name=f"conv_pw_{block_id}")(x)
    return _bn_relu6(x, f"conv_pw_{block_id}")


def _rows_cols(shape):
    if backend.image_data_format() == "channels_first":
        return shape[1], shape[2]
    return shape[0], shape[1]


@export("keras.applications.MobileNet", "keras.applications.mobilenet.MobileNet")
def MobileNet(input_shape=None, alpha=1.0, depth_multiplier=1, dropout=1e-3,  # noqa: N802
              include_top=True, weights="imagenet", input_tensor=None, pooling=None,
              classes=1000, classifier_activation="softmax", **kwargs):
    """MobileNet: a strided 3x3 convolution and 13 depthwise separable convolutions, then
    the classifier, a 1x1 convolution after dropout (4.3M parameters with its 1000-class top
    and `alpha` 1).

    `alpha` scales the number of filters of every layer, `depth_multiplier` the channels of
    the depthwise convolutions. `weights` is None (random initialization), ``"imagenet"``
    (Keras's file for `alpha` and the input size, downloaded into ``~/.keras/models`` the
    first time) or the path of a weights file to load. Without the top (`include_top` False)
    the model takes any image size of at least 32x32 and `pooling` (None, ``"avg"`` or
    ``"max"``) says what it does to the last feature map.
    """
    kwargs.pop("layers", None)
    if kwargs:
        raise ValueError(f"Unknown argument(s): {(kwargs,)}")
    imagenet_utils.check_weights(weights, include_top, classes,
                                 f".  Received weights={weights}",
                                 f".  Received classes={classes}")
    default_size = 224
    if input_shape is not None:
        rows, cols = _rows_cols(input_shape)
        if rows == cols and rows in _SIZES:
            default_size = rows
    input_shape = imagenet_utils.obtain_input_shape(
        input_shape, default_size=default_size, min_size=32,
        data_format=backend.image_data_format(), require_flatten=include_top, weights=weights)
    rows, cols = _rows_cols(input_shape)
    if weights == "imagenet":
        if depth_multiplier != 1:
            raise ValueError("If imagenet weights are being loaded, depth multiplier must be "
                             f"1.  Received depth_multiplier={depth_multiplier}")
        if alpha not in _ALPHAS:
            raise ValueError("If imagenet weights are being loaded, alpha can be one of"
                             "`0.25`, `0.50`, `0.75` or `1.0` only.  "
                             f"Received alpha={alpha}")
        if rows != cols or rows not in _SIZES:
            rows = 224
            log.get_logger().warning(
                "`input_shape` is undefined or non-square, or `rows` is not in "
                "[128, 160, 192, 224]. Weights for input shape (224, 224) will "
                "be loaded as the default.")
    img_input = imagenet_utils.image_input(input_shape, input_tensor)

    x = convolutional.Conv2D(int(32 * alpha), (3, 3), padding="same", use_bias=False,
                             strides=(2, 2), name="conv1")(img_input)
    x = _bn_relu6(x, "conv1")
    for block_id, (filters, stride) in enumerate(_BLOCKS, start=1):
        x = _separable_block(x, int(filters * alpha), depth_multiplier, stride, block_id)

    if include_top:
        x = pooling_layers.GlobalAveragePooling2D(keepdims=True)(x)
        x = core.Dropout(dropout, name="dropout")(x)
        x = convolutional.Conv2D(classes, (1, 1), padding="same", name="conv_preds")(x)
        x = reshaping.Reshape((classes,), name="reshape_2")(x)
        imagenet_utils.validate_activation(classifier_activation, weights)
        x = core.Activation(activation=classifier_activation, name="predictions")(x)
    elif pooling == "avg":
        x = pooling_layers.GlobalAveragePooling2D()(x)
    elif pooling == "max":
        x = pooling_layers.GlobalMaxPooling2D()(x)

    model = imagenet_utils.model(img_input, input_tensor, x, f"mobilenet_{alpha:0.2f}_{rows}")
    top = "" if include_top else "_no_top"
    imagenet_utils.load_weights(
        model, weights, f"mobilenet/mobilenet_{_ALPHAS.get(alpha)}_{rows}_tf{top}.h5")
    return model


@export("keras.applications.mobilenet.preprocess_input")
def preprocess_input(x, data_format=None):
    """ImageNet's preprocessing for MobileNet (``"tf"``): pixels scaled to [-1, 1]."""
    return imagenet_utils.preprocess_input(x, data_format=data_format, mode="tf")
