"""EfficientNetV2 B0 to B3, S, M and L (Tan and Le, 2021: "EfficientNetV2: Smaller Models and
Faster Training"), as ``tf.keras.applications.EfficientNetV2B0`` and the others build it:
same layer names and weights, so that weights files of Keras's EfficientNetV2s load into it.

>>> model = tf.keras.applications.EfficientNetV2B0(weights=None, input_shape=(32, 32, 3),
...                                                classes=10)
>>> model.name, model.count_params(), len(model.layers)
('efficientnetv2-b0', 5932122, 273)
"""
import math
import os

from eagerflow._src.backend.api_export import export
from eagerflow._src.keras import backend
from eagerflow._src.keras.applications import imagenet_utils
from eagerflow._src.keras.applications.efficientnet import CONV_KERNEL_INITIALIZER, \
    bn_activation, channel_axis, classifier, conv, skip, squeeze_excite
from eagerflow._src.keras.initializers import Constant
from eagerflow._src.keras.layers import convolutional, core, normalization, preprocessing

BASE_WEIGHTS_PATH = ("https://storage.googleapis.com/tensorflow/keras-applications/"
                     "efficientnet_v2/")
# hashes of the (include_top, no top) ImageNet files, by the end of the model's name
_HASHES = {
    "b0": ("21ecbf6da12460d5c40bb2f29ceb2188", "893217f2bb855e2983157299931e43ff"),
    "b1": ("069f0534ff22adf035c89e2d9547a9dc", "0e80663031ca32d657f9caa404b6ec37"),
    "b2": ("424e49f28180edbde1e94797771950a7", "1dfe2e7a5d45b6632553a8961ea609eb"),
    "b3": ("1f1fc43bd98a6e4fd8fdfd551e02c7a0", "f6abf7b5849ac99a89b50dd3fd532856"),
    "-s": ("e1d88a8495beba45748fedd0cecbe016", "af0682fb74e8c54910f2d4393339c070"),
    "-m": ("a3bf6aa3276309f4fc6a34aa114c95cd", "1b8dc055df72dde80d614482840fe342"),
    "-l": ("27e6d408b53c7ebc868fefa357689935", "b0b66b5c863aef5b46e8608fe1711615"),
}
_KEYS = ("kernel_size", "num_repeat", "input_filters", "output_filters", "expand_ratio",
         "se_ratio", "strides", "conv_type")
# The stages of each model (the paper's tables 4 and 8): kernel, repeats, input and output
# filters, expansion, squeeze-excite ratio, stride, and 1 for fused MBConv blocks (a full
# convolution in place of the expansion and the depthwise one), 0 for MBConv ones.
_B = ((3, 1, 32, 16, 1, 0, 1, 1), (3, 2, 16, 32, 4, 0, 2, 1), (3, 2, 32, 48, 4, 0, 2, 1),
      (3, 3, 48, 96, 4, 0.25, 2, 0), (3, 5, 96, 112, 6, 0.25, 1, 0),
      (3, 8, 112, 192, 6, 0.25, 2, 0))
_STAGES = {
    "efficientnetv2-s": ((3, 2, 24, 24, 1, 0.0, 1, 1), (3, 4, 24, 48, 4, 0.0, 2, 1),
                         (3, 4, 48, 64, 4, 0, 2, 1), (3, 6, 64, 128, 4, 0.25, 2, 0),
                         (3, 9, 128, 160, 6, 0.25, 1, 0), (3, 15, 160, 256, 6, 0.25, 2, 0)),
    "efficientnetv2-m": ((3, 3, 24, 24, 1, 0, 1, 1), (3, 5, 24, 48, 4, 0, 2, 1),
                         (3, 5, 48, 80, 4, 0, 2, 1), (3, 7, 80, 160, 4, 0.25, 2, 0),
                         (3, 14, 160, 176, 6, 0.25, 1, 0), (3, 18, 176, 304, 6, 0.25, 2, 0),
                         (3, 5, 304, 512, 6, 0.25, 1, 0)),
    "efficientnetv2-l": ((3, 4, 32, 32, 1, 0, 1, 1), (3, 7, 32, 64, 4, 0, 2, 1),
                         (3, 7, 64, 96, 4, 0, 2, 1), (3, 10, 96, 192, 4, 0.25, 2, 0),
                         (3, 19, 192, 224, 6, 0.25, 1, 0), (3, 25, 224, 384, 6, 0.25, 2, 0),
                         (3, 7, 384, 640, 6, 0.25, 1, 0)),
    "efficientnetv2-b0": _B, "efficientnetv2-b1": _B, "efficientnetv2-b2": _B,
    "efficientnetv2-b3": _B,
}
DEFAULT_BLOCKS_ARGS = {name: [dict(zip(_KEYS, stage)) for stage in stages]
                       for name, stages in _STAGES.items()}


def round_filters(filters, width_coefficient, min_depth, depth_divisor):
    """`filters` scaled by `width_coefficient`, rounded to a multiple of `depth_divisor`."""
    filters *= width_coefficient
    return int(max(min_depth or depth_divisor,
                   int(filters + depth_divisor / 2) // depth_divisor * depth_divisor))


def round_repeats(repeats, depth_coefficient):
    return int(math.ceil(depth_coefficient * repeats))


def MBConvBlock(input_filters, output_filters, expand_ratio=1, kernel_size=3,  # noqa: N802
                strides=1, se_ratio=0.0, bn_momentum=0.9, activation="swish",
                survival_probability=0.8, name=None):
    """An MBConv block (a function of its input): expand with a 1x1 convolution, filter
    depthwise, squeeze-excite, project linearly, and add the input back (dropped at random in
    training at the rate `survival_probability`) when the shapes allow."""
    name = backend.get_uid("block0") if name is None else name

    def apply(inputs):
        filters = input_filters * expand_ratio
        x = inputs
        if expand_ratio != 1:
            x = conv(x, filters, 1, name + "expand_conv", strides=1, padding="same",
                     use_bias=False)
            x = bn_activation(x, activation, name + "expand_bn", name + "expand_activation",
                              bn_momentum)
        x = convolutional.DepthwiseConv2D(
            kernel_size=kernel_size, strides=strides,
            depthwise_initializer=CONV_KERNEL_INITIALIZER, padding="same", use_bias=False,
            name=name + "dwconv2")(x)
        x = bn_activation(x, activation, name + "bn", name + "activation", bn_momentum)
        if 0 < se_ratio <= 1:
            x = squeeze_excite(x, filters, max(1, int(input_filters * se_ratio)), activation,
                               name)
        x = conv(x, output_filters, 1, name + "project_conv", strides=1, padding="same",
                 use_bias=False)
        x = normalization.BatchNormalization(axis=channel_axis(), momentum=bn_momentum,
                                             name=name + "project_bn")(x)
        if strides == 1 and input_filters == output_filters:
            x = skip(x, inputs, survival_probability, name)
        return x
    return apply


def FusedMBConvBlock(input_filters, output_filters, expand_ratio=1, kernel_size=3,  # noqa: N802
                     strides=1, se_ratio=0.0, bn_momentum=0.9, activation="swish",
                     survival_probability=0.8, name=None):
    """A fused MBConv block (a function of its input): MBConv's expansion and depthwise
    convolution as one full convolution (or, without expansion, the projection is that
    convolution, activated)."""
    name = backend.get_uid("block0") if name is None else name

    def apply(inputs):
        filters = input_filters * expand_ratio
        x = inputs
        if expand_ratio != 1:
            x = conv(x, filters, kernel_size, name + "expand_conv", strides=strides,
                     padding="same", use_bias=False)
            x = bn_activation(x, activation, name + "expand_bn", name + "expand_activation",
                              bn_momentum)
        if 0 < se_ratio <= 1:
            x = squeeze_excite(x, filters, max(1, int(input_filters * se_ratio)), activation,
                               name)
        fused = expand_ratio == 1
        x = conv(x, output_filters, kernel_size if fused else 1, name + "project_conv",
                 strides=strides if fused else 1, padding="same", use_bias=False)
        x = normalization.BatchNormalization(axis=channel_axis(), momentum=bn_momentum,
                                             name=name + "project_bn")(x)
        if fused:
            x = core.Activation(activation, name=name + "project_activation")(x)
        if strides == 1 and input_filters == output_filters:
            x = skip(x, inputs, survival_probability, name)
        return x
    return apply


def EfficientNetV2(width_coefficient, depth_coefficient, default_size,  # noqa: N802
                   dropout_rate=0.2, drop_connect_rate=0.2, depth_divisor=8, min_depth=8,
                   bn_momentum=0.9, activation="swish", blocks_args="default",
                   model_name="efficientnetv2", include_top=True, weights="imagenet",
                   input_tensor=None, input_shape=None, pooling=None, classes=1000,
                   classifier_activation="softmax", include_preprocessing=True):
    """An EfficientNetV2 of `model_name`'s stages with `width_coefficient` times the filters
    and `depth_coefficient` times the blocks."""
    if blocks_args == "default":
        blocks_args = DEFAULT_BLOCKS_ARGS[model_name]
    if not (weights in {"imagenet", None} or os.path.exists(weights)):
        raise ValueError("The `weights` argument should be either `None` (random "
                         "initialization), `imagenet` (pre-training on ImageNet), or the path "
                         f"to the weights file to be loaded.Received: weights={weights}")
    if weights == "imagenet" and include_top and classes != 1000:
        raise ValueError("If using `weights` as `'imagenet'` with `include_top` as true, "
                         f"`classes` should be 1000Received: classes={classes}")
    input_shape, img_input = imagenet_utils.model_input(
        input_shape, input_tensor, include_top, weights, default_size)

    def filters(n):
        return round_filters(n, width_coefficient, min_depth, depth_divisor)

    x = img_input
    if include_preprocessing:
        # the B models were trained on ImageNet's standardized colours, the others on [-1, 1]
        if model_name.split("-")[-1].startswith("b") and input_shape[channel_axis() - 1] == 3:
            x = imagenet_utils.standardize(preprocessing.Rescaling(scale=1.0 / 255)(x))
        else:
            x = preprocessing.Rescaling(scale=1.0 / 128.0, offset=-1)(x)
    x = conv(x, filters(blocks_args[0]["input_filters"]), 3, "stem_conv", strides=2,
             padding="same", use_bias=False)
    x = bn_activation(x, activation, "stem_bn", "stem_activation", bn_momentum)

    count = 0
    total = float(sum(args["num_repeat"] for args in blocks_args))
    for i, args in enumerate(blocks_args):
        args = dict(args)
        args["input_filters"] = filters(args["input_filters"])
        args["output_filters"] = filters(args["output_filters"])
        make_block = FusedMBConvBlock if args.pop("conv_type") else MBConvBlock
        for j in range(round_repeats(args.pop("num_repeat"), depth_coefficient)):
            if j > 0:  # only the first block of a stage strides and changes the filters
                args["strides"], args["input_filters"] = 1, args["output_filters"]
            # (Keras's "survival probability" is the rate at which the block's branch drops)
            x = make_block(activation=activation, bn_momentum=bn_momentum,
                           survival_probability=drop_connect_rate * count / total,
                           name=f"block{i + 1}{chr(j + 97)}_", **args)(x)
            count += 1

    x = conv(x, filters(1280), 1, "top_conv", strides=1, padding="same", use_bias=False)
    x = bn_activation(x, activation, "top_bn", "top_activation", bn_momentum)
    x = classifier(x, include_top, pooling, classes, classifier_activation, weights,
                   dropout_rate, bias_initializer=Constant(0))

    model = imagenet_utils.model(img_input, input_tensor, x, model_name)
    if weights == "imagenet":
        imagenet_utils.load_weights(model, weights,
                                    model_name + (".h5" if include_top else "_notop.h5"),
                                    _HASHES[model_name[-2:]][0 if include_top else 1],
                                    base=BASE_WEIGHTS_PATH)
    else:
        imagenet_utils.load_weights(model, weights, None)
    return model


def _variant(name, width, depth, size, params):
    """The public builder of EfficientNetV2-`name`."""
    def build(include_top=True, weights="imagenet", input_tensor=None, input_shape=None,
              pooling=None, classes=1000, classifier_activation="softmax",
              include_preprocessing=True):
        return EfficientNetV2(width, depth, size, model_name=f"efficientnetv2-{name}",
                              include_top=include_top, weights=weights,
                              input_tensor=input_tensor, input_shape=input_shape,
                              pooling=pooling, classes=classes,
                              classifier_activation=classifier_activation,
                              include_preprocessing=include_preprocessing)
    build.__name__ = build.__qualname__ = f"EfficientNetV2{name.upper()}"
    build.__doc__ = (
        f"""EfficientNetV2-{name.upper()}: fused and plain MBConv blocks for {size}x{size}
    images ({params} parameters with its 1000-class top).

    With `include_preprocessing` the model scales its inputs (pixels, 0-255) itself.
    `weights` is None (random initialization), ``"imagenet"`` (Keras's file, downloaded into
    ``~/.keras/models`` the first time) or the path of a weights file to load. Without the
    top (`include_top` False) the model takes any image size of at least 32x32 and `pooling`
    (None, ``"avg"`` or ``"max"``) says what it does to the last feature map.
    """)
    return export(f"keras.applications.EfficientNetV2{name.upper()}",
                  f"keras.applications.efficientnet_v2.EfficientNetV2{name.upper()}")(build)


EfficientNetV2B0 = _variant("b0", 1.0, 1.0, 224, "7.2M")
EfficientNetV2B1 = _variant("b1", 1.0, 1.1, 240, "8.2M")
EfficientNetV2B2 = _variant("b2", 1.1, 1.2, 260, "10.2M")
EfficientNetV2B3 = _variant("b3", 1.2, 1.4, 300, "14.5M")
EfficientNetV2S = _variant("s", 1.0, 1.0, 384, "21.6M")
EfficientNetV2M = _variant("m", 1.0, 1.0, 480, "54.4M")
EfficientNetV2L = _variant("l", 1.0, 1.0, 480, "119.0M")
