"""RegNet (Radosavovic et al., 2020: "Designing Network Design Spaces"), as
``tf.keras.applications.RegNetX002`` ... ``RegNetY320`` build them: same layers in the same
order, names and weights as Keras's, so that its weights files load. X models stack
residual blocks of grouped convolutions, Y models add squeeze-and-excitation to them. The
model rescales its own inputs (``include_preprocessing``): `preprocess_input` passes them
through.

>>> model = tf.keras.applications.RegNetX002(weights=None, include_top=False,
...                                          input_shape=(32, 32, 3), pooling="avg")
>>> model.output_shape, model.count_params()
((None, 368), 2336640)
"""
from eagerflow._src.backend.api_export import export
from eagerflow._src.keras import backend
from eagerflow._src.keras.applications import imagenet_utils
from eagerflow._src.keras.layers import activation, convolutional, core, normalization, \
    pooling as pooling_layers, preprocessing
from eagerflow._src.ops import math_ops

# per model: blocks per stage, channels per stage, channels per group of the 3x3 convolutions
_CONFIGS = {
    "x002": ((1, 1, 4, 7), (24, 56, 152, 368), 8),
    "x004": ((1, 2, 7, 12), (32, 64, 160, 384), 16),
    "x006": ((1, 3, 5, 7), (48, 96, 240, 528), 24),
    "x008": ((1, 3, 7, 5), (64, 128, 288, 672), 16),
    "x016": ((2, 4, 10, 2), (72, 168, 408, 912), 24),
    "x032": ((2, 6, 15, 2), (96, 192, 432, 1008), 48),
    "x040": ((2, 5, 14, 2), (80, 240, 560, 1360), 40),
    "x064": ((2, 4, 10, 1), (168, 392, 784, 1624), 56),
    "x080": ((2, 5, 15, 1), (80, 240, 720, 1920), 120),
    "x120": ((2, 5, 11, 1), (224, 448, 896, 2240), 112),
    "x160": ((2, 6, 13, 1), (256, 512, 896, 2048), 128),
    "x320": ((2, 7, 13, 1), (336, 672, 1344, 2520), 168),
    "y002": ((1, 1, 4, 7), (24, 56, 152, 368), 8),
    "y004": ((1, 3, 6, 6), (48, 104, 208, 440), 8),
    "y006": ((1, 3, 7, 4), (48, 112, 256, 608), 16),
    "y008": ((1, 3, 8, 2), (64, 128, 320, 768), 16),
    "y016": ((2, 6, 17, 2), (48, 120, 336, 888), 24),
    "y032": ((2, 5, 13, 1), (72, 216, 576, 1512), 24),
    "y040": ((2, 6, 12, 2), (128, 192, 512, 1088), 64),
    "y064": ((2, 7, 14, 2), (144, 288, 576, 1296), 72),
    "y080": ((2, 4, 10, 1), (168, 448, 896, 2016), 56),
    "y120": ((2, 5, 11, 1), (224, 448, 896, 2240), 112),
    "y160": ((2, 4, 11, 1), (224, 448, 1232, 3024), 112),
    "y320": ((2, 5, 12, 1), (232, 696, 1392, 3712), 232),
}


def _conv_bn(x, filters, kernel_size, name, strides=1, groups=1, padding="valid",
             relu=True, prefix=None):
    """A convolution without bias (He-normal filters), batch normalization and ReLU, named
    `name`, then `prefix` (else `name`) and "_bn", "_relu"."""
    prefix = prefix or name
    x = convolutional.Conv2D(filters, kernel_size, strides=strides, groups=groups,
                             padding=padding, use_bias=False, kernel_initializer="he_normal",
                             name=name)(x)
    x = normalization.BatchNormalization(momentum=0.9, epsilon=1e-5,
                                         name=prefix + "_bn")(x)
    return activation.ReLU(name=prefix + "_relu")(x) if relu else x


def _block(x, filters_in, filters_out, group_width, stride, squeeze_excite, name):
    """1x1, grouped 3x3 (carrying the stride), (squeeze-and-excitation,) 1x1, added to the
    input (or to a strided 1x1 projection of it) and rectified."""
    if stride != 1 or filters_in != filters_out:
        skip = _conv_bn(x, filters_out, 1, name + "_skip_1x1", strides=stride, relu=False,
                        prefix=name + "_skip")
    else:
        skip = x
    y = _conv_bn(x, filters_out, 1, name + "_conv_1x1_1")
    y = _conv_bn(y, filters_out, 3, name + "_conv_3x3", strides=stride,
                 groups=filters_out // min(group_width, filters_out), padding="same")
    if squeeze_excite:
        se = name + "_squeeze_and_excite"
        s = pooling_layers.GlobalAveragePooling2D(keepdims=True, name=se + "_gap")(y)
        s = convolutional.Conv2D(int(filters_in * 0.25), 1, activation="relu",
                                 kernel_initializer="he_normal", name=se + "_squeeze")(s)
        s = convolutional.Conv2D(filters_out, 1, activation="sigmoid",
                                 kernel_initializer="he_normal", name=se + "_excite")(s)
        y = math_ops.multiply(s, y)
    y = _conv_bn(y, filters_out, 1, name + "_conv_1x1_2", relu=False)
    return activation.ReLU(name=name + "_exit_relu")(y + skip)


def _regnet(variant, model_name, include_top, include_preprocessing, weights, input_tensor,
            input_shape, pooling, classes, classifier_activation):
    depths, widths, group_width = _CONFIGS[variant]
    imagenet_utils.check_weights(weights, False, classes)
    if weights == "imagenet" and include_top and classes != 1000:
        raise ValueError("If using `weights` as `'imagenet'` with `include_top` as true, "
                         "`classes` should be 1000")
    input_shape, img_input = imagenet_utils.model_input(
        input_shape, input_tensor, include_top, weights)

    x = img_input
    if include_preprocessing:
        x = preprocessing.Rescaling(1.0 / 255.0, name=model_name + "_prestem_rescaling")(x)
    x = _conv_bn(x, 32, 3, model_name + "_stem_conv", strides=2, padding="same",
                 prefix=model_name + "_stem")
    kind = variant[0].upper()
    filters_in = 32
    for stage, (depth, width) in enumerate(zip(depths, widths)):
        for i in range(depth):
            x = _block(x, filters_in, width, group_width, 2 if i == 0 else 1, kind == "Y",
                       f"{model_name}_Stage_{stage}_{kind}Block_{i}")
            filters_in = width

    if include_top:
        # named as Keras's head names itself: a counter, then "_head_gap" and "head_dense";
        # its dense layer has no activation, whatever `classifier_activation` says
        prefix = str(backend.get_uid("head"))
        x = pooling_layers.GlobalAveragePooling2D(name=prefix + "_head_gap")(x)
        imagenet_utils.validate_activation(classifier_activation, weights)
        x = core.Dense(classes, name=prefix + "head_dense")(x)
    else:
        x = imagenet_utils.top(x, False, pooling, classes, classifier_activation, weights)
    model = imagenet_utils.model(img_input, input_tensor, x, model_name)
    suffix = "" if include_top else "_notop"
    imagenet_utils.load_weights(model, weights, f"regnet/{model_name}{suffix}.h5")
    return model


def _builder(variant):
    """The public builder of RegNet `variant` ("x002", ...)."""
    def build(model_name="regnet" + variant, include_top=True, include_preprocessing=True,
              weights="imagenet", input_tensor=None, input_shape=None, pooling=None,
              classes=1000, classifier_activation="softmax"):
        return _regnet(variant, model_name, include_top, include_preprocessing, weights,
                       input_tensor, input_shape, pooling, classes, classifier_activation)
    name = "RegNet" + variant.upper()
    depths, widths, group_width = _CONFIGS[variant]
    build.__name__ = build.__qualname__ = name
    build.__doc__ = (
        f"RegNet{variant.upper()}: a strided 3x3 stem and {'+'.join(map(str, depths))} "
        f"{'squeeze-and-excitation ' if variant[0] == 'y' else ''}residual blocks of "
        f"{'/'.join(map(str, widths))} channels (groups of {group_width}).\n\n"
        "    `weights` is None (random initialization), ``\"imagenet\"`` (Keras's file, "
        "downloaded into\n    ``~/.keras/models`` the first time) or the path of a weights "
        "file to load. The model\n    takes 0-255 pixels and rescales them itself unless "
        "`include_preprocessing` is False.\n    Without the top (`include_top` False) it "
        "takes any image size of at least 32x32 and\n    `pooling` (None, ``\"avg\"`` or "
        "``\"max\"``) says what it does to the last feature map.\n    ")
    return export(f"keras.applications.{name}", f"keras.applications.regnet.{name}")(build)


for _variant in _CONFIGS:
    globals()["RegNet" + _variant.upper()] = _builder(_variant)
del _variant
