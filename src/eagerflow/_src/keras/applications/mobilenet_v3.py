"""MobileNetV3 (Howard et al., 2019: "Searching for MobileNetV3"), as
``tf.keras.applications.MobileNetV3Small`` and ``MobileNetV3Large`` build it: same layer
names and weights, so that weights files of Keras's MobileNetV3 load into it.

>>> model = tf.keras.applications.MobileNetV3Small(weights=None, alpha=0.25,
...                                                input_shape=(32, 32, 3), classes=10)
>>> model.name, model.count_params()
('MobilenetV3small', 259178)
"""
from eagerflow._src.backend import log
from eagerflow._src.backend.api_export import export
from eagerflow._src.keras import backend
from eagerflow._src.keras.applications import imagenet_utils
from eagerflow._src.keras.applications.mobilenet_v2 import _make_divisible
from eagerflow._src.keras.engine import keras_tensor
from eagerflow._src.keras.layers import activation as activation_layers, convolutional, core, \
    merging, normalization, pooling as pooling_layers, preprocessing, reshaping

# (small/large, minimalistic, alpha) -> hashes of the (include_top, no top) ImageNet files
_HASHES = {
    "large_224_0.75_float": ("765b44a33ad4005b3ac83185abf1d0eb",
                             "40af19a13ebea4e2ee0c676887f69a2e"),
    "large_224_1.0_float": ("59e551e166be033d707958cf9e29a6a7",
                            "07fb09a5933dd0c8eaafa16978110389"),
    "large_minimalistic_224_1.0_float": ("675e7b876c45c57e9e63e6d90a36599c",
                                         "ec5221f64a2f6d1ef965a614bdae7973"),
    "small_224_0.75_float": ("cb65d4e5be93758266aa0a7f2c6708b7",
                             "ebdb5cc8e0b497cd13a7c275d475c819"),
    "small_224_1.0_float": ("8768d4c2e7dee89b9d02b2d03d65d862",
                            "d3e8ec802a04aa4fc771ee12a9a9b836"),
    "small_minimalistic_224_1.0_float": ("99cd97fb2fcdad2bf028eb838de69e37",
                                         "cde8136e733e811080d9fcd8a252f7e4"),
}

# The blocks of the papers' tables: (expansion, filters, kernel, stride, squeeze-excite,
# activation). In a kernel, squeeze-excite or activation column, "var" is what the model's
# variant says (5, SE and hard swish; 3, none and ReLU when minimalistic).
_V = "var"
_SMALL = ((1, 16, 3, 2, _V, "relu"), (72 / 16, 24, 3, 2, None, "relu"),
          (88 / 24, 24, 3, 1, None, "relu"), (4, 40, _V, 2, _V, _V), (6, 40, _V, 1, _V, _V),
          (6, 40, _V, 1, _V, _V), (3, 48, _V, 1, _V, _V), (3, 48, _V, 1, _V, _V),
          (6, 96, _V, 2, _V, _V), (6, 96, _V, 1, _V, _V), (6, 96, _V, 1, _V, _V))
_LARGE = ((1, 16, 3, 1, None, "relu"), (4, 24, 3, 2, None, "relu"),
          (3, 24, 3, 1, None, "relu"), (3, 40, _V, 2, _V, "relu"), (3, 40, _V, 1, _V, "relu"),
          (3, 40, _V, 1, _V, "relu"), (6, 80, 3, 2, None, _V), (2.5, 80, 3, 1, None, _V),
          (2.3, 80, 3, 1, None, _V), (2.3, 80, 3, 1, None, _V), (6, 112, 3, 1, _V, _V),
          (6, 112, 3, 1, _V, _V), (6, 160, _V, 2, _V, _V), (6, 160, _V, 1, _V, _V),
          (6, 160, _V, 1, _V, _V))


def _channel_axis():
    return 1 if backend.image_data_format() == "channels_first" else -1


def _bn(x, name):
    return normalization.BatchNormalization(axis=_channel_axis(), epsilon=1e-3, momentum=0.999,
                                            name=name)(x)


def _relu(x):
    return activation_layers.ReLU()(x)


def _hard_sigmoid(x):
    # Keras's arithmetic on Keras tensors: two TFOpLambda layers around a ReLU6
    return activation_layers.ReLU(6.0)(x + 3.0) * (1.0 / 6.0)


def _hard_swish(x):
    return merging.Multiply()([x, _hard_sigmoid(x)])


def _squeeze_excite(inputs, filters, se_ratio, prefix):
    """Channel weights in (0, 1), from the globally pooled input through a bottleneck."""
    x = pooling_layers.GlobalAveragePooling2D(keepdims=True,
                                              name=prefix + "squeeze_excite/AvgPool")(inputs)
    x = convolutional.Conv2D(_make_divisible(filters * se_ratio), kernel_size=1, padding="same",
                             name=prefix + "squeeze_excite/Conv")(x)
    x = activation_layers.ReLU(name=prefix + "squeeze_excite/Relu")(x)
    x = convolutional.Conv2D(filters, kernel_size=1, padding="same",
                             name=prefix + "squeeze_excite/Conv_1")(x)
    x = _hard_sigmoid(x)
    return merging.Multiply(name=prefix + "squeeze_excite/Mul")([inputs, x])


def _inverted_res_block(x, expansion, filters, kernel_size, stride, se_ratio, activation,
                        block_id):
    """Expand with a 1x1 convolution (not in the first block), filter depthwise (strided:
    after explicit padding), squeeze-excite, project linearly, and add the input back when
    the shapes allow."""
    shortcut = x
    in_channels = backend.int_shape(x)[_channel_axis()]
    expanded = _make_divisible(in_channels * expansion)
    prefix = f"expanded_conv_{block_id}/" if block_id else "expanded_conv/"
    if block_id:
        x = convolutional.Conv2D(expanded, kernel_size=1, padding="same", use_bias=False,
                                 name=prefix + "expand")(x)
        x = activation(_bn(x, prefix + "expand/BatchNorm"))
    if stride == 2:
        x = reshaping.ZeroPadding2D(padding=imagenet_utils.correct_pad(x, kernel_size),
                                    name=prefix + "depthwise/pad")(x)
    x = convolutional.DepthwiseConv2D(kernel_size, strides=stride,
                                      padding="same" if stride == 1 else "valid",
                                      use_bias=False, name=prefix + "depthwise")(x)
    x = activation(_bn(x, prefix + "depthwise/BatchNorm"))
    if se_ratio:
        x = _squeeze_excite(x, expanded, se_ratio, prefix)
    x = convolutional.Conv2D(filters, kernel_size=1, padding="same", use_bias=False,
                             name=prefix + "project")(x)
    x = _bn(x, prefix + "project/BatchNorm")
    if stride == 1 and in_channels == filters:
        x = merging.Add(name=prefix + "Add")([shortcut, x])
    return x


def _input_shape(input_shape, input_tensor):
    """The model's input shape: `input_shape` (checked against `input_tensor`'s), else that
    of `input_tensor` (with its rows and columns swapped, as Keras does), else any size."""
    channels_first = backend.image_data_format() == "channels_first"
    if input_tensor is not None:
        if not keras_tensor.is_keras_tensor(input_tensor):
            if input_shape is not None:
                raise ValueError("input_tensor specified: ", input_tensor,
                                 "is not a keras tensor")
        elif input_shape is not None:
            shape = backend.int_shape(input_tensor)
            if channels_first and shape[1] != input_shape[1]:
                raise ValueError("When backend.image_data_format()=channels_first, "
                                 "input_shape[1] must equal backend.int_shape(input_tensor)[1]."
                                 f"  Received input_shape={input_shape}, "
                                 f"backend.int_shape(input_tensor)={shape}")
            if not channels_first and shape[2] != input_shape[1]:
                raise ValueError("input_shape[1] must equal backend.int_shape(input_tensor)[2]."
                                 f"  Received input_shape={input_shape}, "
                                 f"backend.int_shape(input_tensor)={shape}")
        else:
            shape = backend.int_shape(input_tensor)
            if channels_first:
                input_shape = (3, shape[3], shape[2])
            else:
                input_shape = (shape[2], shape[1], 3)
    if input_shape is None:
        input_shape = (3, None, None) if channels_first else (None, None, 3)
    return input_shape


def _mobilenet_v3(blocks, last_point_ch, input_shape, alpha, model_type, minimalistic,
                  include_top, weights, input_tensor, classes, pooling, dropout_rate,
                  classifier_activation, include_preprocessing):
    imagenet_utils.check_weights(weights, include_top, classes,
                                 f".  Received weights={weights}",
                                 f".  Received classes={classes}")
    input_shape = _input_shape(input_shape, input_tensor)
    if backend.image_data_format() == "channels_first":
        rows, cols = input_shape[1], input_shape[2]
    else:
        rows, cols = input_shape[0], input_shape[1]
    if rows and cols and (rows < 32 or cols < 32):
        raise ValueError(f"Input size must be at least 32x32; Received `input_shape="
                         f"{input_shape}`")
    if weights == "imagenet":
        if alpha not in ((1.0,) if minimalistic else (0.75, 1.0)):
            raise ValueError("If imagenet weights are being loaded, alpha can be one of "
                             "`0.75`, `1.0` for non minimalistic or `1.0` for minimalistic "
                             "only.")
        if rows != cols or rows != 224:
            log.get_logger().warning(
                "`input_shape` is undefined or non-square, or `rows` is not 224. "
                "Weights for input shape (224, 224) will be loaded as the "
                "default.")
    img_input = imagenet_utils.image_input(input_shape, input_tensor)

    if minimalistic:
        kernel, activation, se_ratio = 3, _relu, None
    else:
        kernel, activation, se_ratio = 5, _hard_swish, 0.25
    x = img_input
    if include_preprocessing:
        x = preprocessing.Rescaling(scale=1.0 / 127.5, offset=-1.0)(x)
    x = convolutional.Conv2D(16, kernel_size=3, strides=(2, 2), padding="same", use_bias=False,
                             name="Conv")(x)
    x = activation(_bn(x, "Conv/BatchNorm"))
    for block_id, (expansion, filters, k, stride, se, act) in enumerate(blocks):
        x = _inverted_res_block(x, expansion, _make_divisible(filters * alpha),
                                kernel if k == _V else k, stride, se_ratio if se == _V else se,
                                activation if act == _V else _relu, block_id)
    last_conv_ch = _make_divisible(backend.int_shape(x)[_channel_axis()] * 6)
    if alpha > 1.0:
        last_point_ch = _make_divisible(last_point_ch * alpha)
    x = convolutional.Conv2D(last_conv_ch, kernel_size=1, padding="same", use_bias=False,
                             name="Conv_1")(x)
    x = activation(_bn(x, "Conv_1/BatchNorm"))

    if include_top:
        x = pooling_layers.GlobalAveragePooling2D(keepdims=True)(x)
        x = convolutional.Conv2D(last_point_ch, kernel_size=1, padding="same", use_bias=True,
                                 name="Conv_2")(x)
        x = activation(x)
        if dropout_rate > 0:
            x = core.Dropout(dropout_rate)(x)
        x = convolutional.Conv2D(classes, kernel_size=1, padding="same", name="Logits")(x)
        x = core.Flatten()(x)
        imagenet_utils.validate_activation(classifier_activation, weights)
        x = core.Activation(activation=classifier_activation, name="Predictions")(x)
    elif pooling == "avg":
        x = pooling_layers.GlobalAveragePooling2D(name="avg_pool")(x)
    elif pooling == "max":
        x = pooling_layers.GlobalMaxPooling2D(name="max_pool")(x)

    model = imagenet_utils.model(img_input, input_tensor, x, "MobilenetV3" + model_type)
    if weights == "imagenet":
        name = f"{model_type}{'_minimalistic' if minimalistic else ''}_224_{alpha}_float"
        suffix = ".h5" if include_top else "_no_top_v2.h5"
        imagenet_utils.load_weights(model, weights,
                                    f"mobilenet_v3/weights_mobilenet_v3_{name}{suffix}",
                                    _HASHES[name][0 if include_top else 1])
    else:
        imagenet_utils.load_weights(model, weights, None)
    return model


_DOC = """{summary}

    `alpha` scales the number of filters of the blocks, `minimalistic` (ReLU, 3x3 kernels,
    no squeeze-and-excitation) is the variant without the layers that are slow on some
    hardware. With `include_preprocessing` the model scales pixels (0-255) to [-1, 1] itself.
    `weights` is None (random initialization), ``"imagenet"`` (Keras's file for `alpha` 0.75
    or 1, of 224x224 images, downloaded into ``~/.keras/models`` the first time) or the path
    of a weights file to load. The model takes any image size of at least 32x32; without the
    top (`include_top` False) `pooling` (None, ``"avg"`` or ``"max"``) says what it does to
    the last feature map.
    """


@export("keras.applications.MobileNetV3Small")
def MobileNetV3Small(input_shape=None, alpha=1.0, minimalistic=False,  # noqa: N802
                     include_top=True, weights="imagenet", input_tensor=None, classes=1000,
                     pooling=None, dropout_rate=0.2, classifier_activation="softmax",
                     include_preprocessing=True):
    return _mobilenet_v3(_SMALL, 1024, input_shape, alpha, "small", minimalistic,
                         include_top, weights, input_tensor, classes, pooling, dropout_rate,
                         classifier_activation, include_preprocessing)


@export("keras.applications.MobileNetV3Large")
def MobileNetV3Large(input_shape=None, alpha=1.0, minimalistic=False,  # noqa: N802
                     include_top=True, weights="imagenet", input_tensor=None, classes=1000,
                     pooling=None, dropout_rate=0.2, classifier_activation="softmax",
                     include_preprocessing=True):
    return _mobilenet_v3(_LARGE, 1280, input_shape, alpha, "large", minimalistic,
                         include_top, weights, input_tensor, classes, pooling, dropout_rate,
                         classifier_activation, include_preprocessing)


MobileNetV3Small.__doc__ = _DOC.format(summary=(
    "MobileNetV3-Small: a strided 3x3 convolution, 11 inverted residual blocks (most with\n"
    "    squeeze-and-excitation and hard swish) and the classifier (2.6M parameters with its\n"
    "    1000-class top and `alpha` 1)."))
MobileNetV3Large.__doc__ = _DOC.format(summary=(
    "MobileNetV3-Large: a strided 3x3 convolution, 15 inverted residual blocks (most with\n"
    "    squeeze-and-excitation or hard swish) and the classifier (5.5M parameters with its\n"
    "    1000-class top and `alpha` 1)."))
