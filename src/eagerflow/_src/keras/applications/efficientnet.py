"""EfficientNet B0 to B7 (Tan and Le, 2019: "EfficientNet: Rethinking Model Scaling for
Convolutional Neural Networks"), as ``tf.keras.applications.EfficientNetB0`` and the others
build it: same layer names and weights, so that weights files of Keras's EfficientNets load
into it.

>>> model = tf.keras.applications.EfficientNetB0(weights=None, input_shape=(32, 32, 3),
...                                              classes=10)
>>> model.name, model.count_params(), len(model.layers)
('efficientnetb0', 4062381, 240)
"""
import math

from eagerflow._src.backend.api_export import export
from eagerflow._src.keras import backend
from eagerflow._src.keras.applications import imagenet_utils
from eagerflow._src.keras.layers import convolutional, core, merging, normalization, \
    pooling as pooling_layers, preprocessing, reshaping
from eagerflow._src.core import dtypes
from eagerflow._src.core.convert import constant
from eagerflow._src.ops import array_ops, math_ops

BASE_WEIGHTS_PATH = "https://storage.googleapis.com/keras-applications/"
# hashes of the (include_top, no top) ImageNet files, by model
_HASHES = {
    "b0": ("902e53a9f72be733fc0bcb005b3ebbac", "50bc09e76180e00e4465e1a485ddc09d"),
    "b1": ("1d254153d4ab51201f1646940f018540", "74c4e6b3e1f6a1eea24c589628592432"),
    "b2": ("b15cce36ff4dcbd00b6dd88e7857a6ad", "111f8e2ac8aa800a7a99e3239f7bfb39"),
    "b3": ("ffd1fdc53d0ce67064dc6a9c7960ede0", "af6d107764bb5b1abb91932881670226"),
    "b4": ("18c95ad55216b8f92d7e70b3a046e2fc", "ebc24e6d6c33eaebbd558eafbeedf1ba"),
    "b5": ("ace28f2a6363774853a83a0b21b9421a", "38879255a25d3c92d5e44e04ae6cec6f"),
    "b6": ("165f6e37dce68623721b423839de8be5", "9ecce42647a20130c1f39a5d4cb75743"),
    "b7": ("8c03f828fec3ef71311cd463b6759d99", "cbcfe4450ddf6f3ad90b1b398090fe4a"),
}
# The seven stages of B0 (the paper's table 1): kernel, repeats, input and output filters,
# expansion, stride; every block skips (when its shapes allow) and squeeze-excites by 1/4.
_STAGES = ((3, 1, 32, 16, 1, 1), (3, 2, 16, 24, 6, 2), (5, 2, 24, 40, 6, 2),
           (3, 3, 40, 80, 6, 2), (5, 3, 80, 112, 6, 1), (5, 4, 112, 192, 6, 2),
           (3, 1, 192, 320, 6, 1))
DEFAULT_BLOCKS_ARGS = [
    {"kernel_size": k, "repeats": r, "filters_in": i, "filters_out": o, "expand_ratio": e,
     "id_skip": True, "strides": s, "se_ratio": 0.25} for k, r, i, o, e, s in _STAGES]
# He-style initialization over the output fan (convolutions), and a uniform one for the top
CONV_KERNEL_INITIALIZER = {"class_name": "VarianceScaling",
                           "config": {"scale": 2.0, "mode": "fan_out",
                                      "distribution": "truncated_normal"}}
DENSE_KERNEL_INITIALIZER = {"class_name": "VarianceScaling",
                            "config": {"scale": 1.0 / 3.0, "mode": "fan_out",
                                       "distribution": "uniform"}}
IMAGENET_STDDEV_RGB = (0.229, 0.224, 0.225)


def channel_axis():
    return 3 if backend.image_data_format() == "channels_last" else 1


def conv(x, filters, kernel_size, name, **kwargs):
    return convolutional.Conv2D(filters, kernel_size, kernel_initializer=CONV_KERNEL_INITIALIZER,
                                name=name, **kwargs)(x)


def bn_activation(x, activation, bn_name, activation_name, momentum=0.99):
    x = normalization.BatchNormalization(axis=channel_axis(), momentum=momentum,
                                         name=bn_name)(x)
    return core.Activation(activation, name=activation_name)(x)


def squeeze_excite(x, filters, filters_se, activation, name):
    """Channel weights in (0, 1), from the globally pooled `x` through a bottleneck of
    `filters_se` channels, multiplied into `x`."""
    se = pooling_layers.GlobalAveragePooling2D(name=name + "se_squeeze")(x)
    se_shape = (1, 1, filters) if channel_axis() == 3 else (filters, 1, 1)
    se = reshaping.Reshape(se_shape, name=name + "se_reshape")(se)
    se = conv(se, filters_se, 1, name + "se_reduce", padding="same", activation=activation)
    se = conv(se, filters, 1, name + "se_expand", padding="same", activation="sigmoid")
    return merging.multiply([x, se], name=name + "se_excite")


def skip(x, inputs, drop_rate, name):
    """`inputs` added back to the block's output, which drop connect (a dropout of whole
    samples) drops at random in training."""
    if drop_rate > 0:
        x = core.Dropout(drop_rate, noise_shape=(None, 1, 1, 1), name=name + "drop")(x)
    return merging.add([x, inputs], name=name + "add")


def block(inputs, activation="swish", drop_rate=0.0, name="", filters_in=32, filters_out=16,
          kernel_size=3, strides=1, expand_ratio=1, se_ratio=0.0, id_skip=True):
    """An inverted residual (MBConv) block: expand with a 1x1 convolution, filter depthwise
    (strided: after explicit padding), squeeze-excite, project linearly, and add the input
    back when the shapes allow."""
    filters = filters_in * expand_ratio
    x = inputs
    if expand_ratio != 1:
        x = conv(x, filters, 1, name + "expand_conv", padding="same", use_bias=False)
        x = bn_activation(x, activation, name + "expand_bn", name + "expand_activation")
    if strides == 2:
        x = reshaping.ZeroPadding2D(padding=imagenet_utils.correct_pad(x, kernel_size),
                                    name=name + "dwconv_pad")(x)
    x = convolutional.DepthwiseConv2D(kernel_size, strides=strides,
                                      padding="same" if strides == 1 else "valid",
                                      use_bias=False,
                                      depthwise_initializer=CONV_KERNEL_INITIALIZER,
                                      name=name + "dwconv")(x)
    x = bn_activation(x, activation, name + "bn", name + "activation")
    if 0 < se_ratio <= 1:
        x = squeeze_excite(x, filters, max(1, int(filters_in * se_ratio)), activation, name)
    x = conv(x, filters_out, 1, name + "project_conv", padding="same", use_bias=False)
    x = normalization.BatchNormalization(axis=channel_axis(), name=name + "project_bn")(x)
    if id_skip and strides == 1 and filters_in == filters_out:
        x = skip(x, inputs, drop_rate, name)
    return x


def round_filters(filters, width_coefficient, divisor=8):
    """`filters` scaled by `width_coefficient`, to a multiple of `divisor` (never more than
    10% below)."""
    filters *= width_coefficient
    new_filters = max(divisor, int(filters + divisor / 2) // divisor * divisor)
    return int(new_filters + divisor if new_filters < 0.9 * filters else new_filters)


def imagenet_stem(x, weights):
    """The model's own preprocessing: pixels (0-255) to [0, 1], then normalized per channel
    (with ImageNet's weights: by the standard deviations ImageNet's training used, which the
    Normalization layer's variances only take the square root of once)."""
    x = preprocessing.Rescaling(1.0 / 255.0)(x)
    x = preprocessing.Normalization(axis=channel_axis())(x)
    if weights == "imagenet":
        shape = (1, 1, 1, 3) if channel_axis() == 3 else (1, 3, 1, 1)
        scale = constant([1.0 / math.sqrt(s) for s in IMAGENET_STDDEV_RGB], dtypes.float32)
        x = math_ops.multiply(x, array_ops.reshape(scale, shape))
    return x


def classifier(x, include_top, pooling, classes, classifier_activation, weights, dropout_rate,
               bias_initializer="zeros", kernel_initializer=DENSE_KERNEL_INITIALIZER):
    """The classifier (pooled, dropped out, dense), or the pooling of the feature map."""
    if include_top:
        x = pooling_layers.GlobalAveragePooling2D(name="avg_pool")(x)
        if dropout_rate > 0:
            x = core.Dropout(dropout_rate, name="top_dropout")(x)
        imagenet_utils.validate_activation(classifier_activation, weights)
        return core.Dense(classes, activation=classifier_activation,
                          kernel_initializer=kernel_initializer,
                          bias_initializer=bias_initializer, name="predictions")(x)
    if pooling == "avg":
        return pooling_layers.GlobalAveragePooling2D(name="avg_pool")(x)
    if pooling == "max":
        return pooling_layers.GlobalMaxPooling2D(name="max_pool")(x)
    return x


def EfficientNet(width_coefficient, depth_coefficient, default_size,  # noqa: N802
                 dropout_rate=0.2, drop_connect_rate=0.2, depth_divisor=8, activation="swish",
                 blocks_args="default", model_name="efficientnet", include_top=True,
                 weights="imagenet", input_tensor=None, input_shape=None, pooling=None,
                 classes=1000, classifier_activation="softmax"):
    """An EfficientNet of B0's stages with `width_coefficient` times the filters and
    `depth_coefficient` times the blocks."""
    if blocks_args == "default":
        blocks_args = DEFAULT_BLOCKS_ARGS
    imagenet_utils.check_weights(weights, include_top, classes)
    input_shape, img_input = imagenet_utils.model_input(
        input_shape, input_tensor, include_top, weights, default_size)

    def filters(n):
        return round_filters(n, width_coefficient, depth_divisor)

    def repeats(n):
        return int(math.ceil(depth_coefficient * n))

    x = imagenet_stem(img_input, weights)
    x = reshaping.ZeroPadding2D(padding=imagenet_utils.correct_pad(x, 3),
                                name="stem_conv_pad")(x)
    x = conv(x, filters(32), 3, "stem_conv", strides=2, padding="valid", use_bias=False)
    x = bn_activation(x, activation, "stem_bn", "stem_activation")

    count = 0
    total = float(sum(repeats(args["repeats"]) for args in blocks_args))
    for i, args in enumerate(blocks_args):
        args = dict(args)
        args["filters_in"], args["filters_out"] = (filters(args["filters_in"]),
                                                   filters(args["filters_out"]))
        for j in range(repeats(args.pop("repeats"))):
            if j > 0:  # only the first block of a stage strides and changes the filters
                args["strides"], args["filters_in"] = 1, args["filters_out"]
            x = block(x, activation, drop_connect_rate * count / total,
                      name=f"block{i + 1}{chr(j + 97)}_", **args)
            count += 1

    x = conv(x, filters(1280), 1, "top_conv", padding="same", use_bias=False)
    x = bn_activation(x, activation, "top_bn", "top_activation")
    x = classifier(x, include_top, pooling, classes, classifier_activation, weights, dropout_rate)

    model = imagenet_utils.model(img_input, input_tensor, x, model_name)
    if weights == "imagenet":
        imagenet_utils.load_weights(model, weights,
                                    model_name + (".h5" if include_top else "_notop.h5"),
                                    _HASHES[model_name[-2:]][0 if include_top else 1],
                                    base=BASE_WEIGHTS_PATH)
    else:
        imagenet_utils.load_weights(model, weights, None)
    return model


def _variant(name, width, depth, size, dropout, params):
    """The public builder of EfficientNet-`name` (B0 to B7)."""
    def build(include_top=True, weights="imagenet", input_tensor=None, input_shape=None,
              pooling=None, classes=1000, classifier_activation="softmax", **kwargs):
        return EfficientNet(width, depth, size, dropout, model_name=f"efficientnet{name}",
                            include_top=include_top, weights=weights, input_tensor=input_tensor,
                            input_shape=input_shape, pooling=pooling, classes=classes,
                            classifier_activation=classifier_activation, **kwargs)
    build.__name__ = build.__qualname__ = f"EfficientNet{name.upper()}"
    build.__doc__ = (
        f"""EfficientNet-{name.upper()}: B0's stages with {width} times the filters and
    {depth} times the blocks, for {size}x{size} images ({params} parameters with its
    1000-class top).

    The model scales and normalizes its inputs (pixels, 0-255) itself. `weights` is None
    (random initialization), ``"imagenet"`` (Keras's file, downloaded into
    ``~/.keras/models`` the first time) or the path of a weights file to load. Without the
    top (`include_top` False) the model takes any image size of at least 32x32 and `pooling`
    (None, ``"avg"`` or ``"max"``) says what it does to the last feature map.
    """)
    return export(f"keras.applications.EfficientNet{name.upper()}",
                  f"keras.applications.efficientnet.EfficientNet{name.upper()}")(build)


EfficientNetB0 = _variant("b0", 1.0, 1.0, 224, 0.2, "5.3M")
EfficientNetB1 = _variant("b1", 1.0, 1.1, 240, 0.2, "7.9M")
EfficientNetB2 = _variant("b2", 1.1, 1.2, 260, 0.3, "9.2M")
EfficientNetB3 = _variant("b3", 1.2, 1.4, 300, 0.3, "12.3M")
EfficientNetB4 = _variant("b4", 1.4, 1.8, 380, 0.4, "19.5M")
EfficientNetB5 = _variant("b5", 1.6, 2.2, 456, 0.4, "30.6M")
EfficientNetB6 = _variant("b6", 1.8, 2.6, 528, 0.5, "43.3M")
EfficientNetB7 = _variant("b7", 2.0, 3.1, 600, 0.5, "66.7M")
