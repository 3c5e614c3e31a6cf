"""ResNet-V2 (He et al., 2016: "Identity Mappings in Deep Residual Networks"), as
``tf.keras.applications.ResNet50V2`` and its deeper siblings build it: batch normalization
and ReLU before each convolution, same layer names and weights as Keras's, so that its
weights files load.

>>> model = tf.keras.applications.ResNet50V2(weights=None, include_top=False,
...                                          input_shape=(32, 32, 3), pooling="avg")
>>> model.output_shape, model.count_params()
((None, 2048), 23564800)
"""
from eagerflow._src.backend.api_export import export
from eagerflow._src.keras.applications import imagenet_utils, resnet
from eagerflow._src.keras.layers import convolutional, core, merging, pooling as pooling_layers, \
    reshaping


def _block(x, filters, stride=1, conv_shortcut=False, name=None):
    """A pre-activation bottleneck: normalize and rectify, then 1x1, 3x3 (carrying the
    block's stride) and 1x1 to 4 * `filters`, added to the input (or to a 1x1 convolution of
    the normalized input, or to the input subsampled where the block strides)."""
    preact = core.Activation("relu", name=name + "_preact_relu")(
        resnet.bn(x, name + "_preact_bn"))
    if conv_shortcut:
        shortcut = convolutional.Conv2D(4 * filters, 1, strides=stride,
                                        name=name + "_0_conv")(preact)
    elif stride > 1:
        shortcut = pooling_layers.MaxPooling2D(1, strides=stride)(x)
    else:
        shortcut = x
    x = convolutional.Conv2D(filters, 1, strides=1, use_bias=False, name=name + "_1_conv")(preact)
    x = core.Activation("relu", name=name + "_1_relu")(resnet.bn(x, name + "_1_bn"))
    x = reshaping.ZeroPadding2D(padding=((1, 1), (1, 1)), name=name + "_2_pad")(x)
    x = convolutional.Conv2D(filters, 3, strides=stride, use_bias=False,
                             name=name + "_2_conv")(x)
    x = core.Activation("relu", name=name + "_2_relu")(resnet.bn(x, name + "_2_bn"))
    x = convolutional.Conv2D(4 * filters, 1, name=name + "_3_conv")(x)
    return merging.Add(name=name + "_out")([shortcut, x])


def _stack(x, filters, blocks, stride=2, name=None):
    """`blocks` blocks: the first projects its shortcut, the last one strides."""
    x = _block(x, filters, conv_shortcut=True, name=name + "_block1")
    for i in range(2, blocks):
        x = _block(x, filters, name=f"{name}_block{i}")
    return _block(x, filters, stride=stride, name=f"{name}_block{blocks}")


def _resnet_v2(stacks, name, args):
    def stack_all(x):
        x = _stack(x, 64, stacks[0], name="conv2")
        x = _stack(x, 128, stacks[1], name="conv3")
        x = _stack(x, 256, stacks[2], name="conv4")
        return _stack(x, 512, stacks[3], stride=1, name="conv5")
    return resnet.build(stack_all, True, name, *args)


@export("keras.applications.ResNet50V2", "keras.applications.resnet_v2.ResNet50V2")
def ResNet50V2(include_top=True, weights="imagenet", input_tensor=None,  # noqa: N802
               input_shape=None, pooling=None, classes=1000,
               classifier_activation="softmax"):
    """ResNet-50 V2: a 7x7 stem and 16 pre-activation bottleneck blocks in four stages
    (25.6M parameters with its 1000-class top).

    `weights` is None (random initialization), ``"imagenet"`` (Keras's file, downloaded into
    ``~/.keras/models`` the first time) or the path of a weights file to load. Without the
    top (`include_top` False) the model takes any image size of at least 32x32 and `pooling`
    (None, ``"avg"`` or ``"max"``) says what it does to the last feature map.
    """
    return _resnet_v2((3, 4, 6, 3), "resnet50v2", (
        include_top, weights, input_tensor, input_shape, pooling, classes,
        classifier_activation, {}))


@export("keras.applications.ResNet101V2", "keras.applications.resnet_v2.ResNet101V2")
def ResNet101V2(include_top=True, weights="imagenet", input_tensor=None,  # noqa: N802
                input_shape=None, pooling=None, classes=1000,
                classifier_activation="softmax"):
    """ResNet-101 V2: ResNet50V2 with 23 blocks in its third stage; the arguments are
    ResNet50V2's."""
    return _resnet_v2((3, 4, 23, 3), "resnet101v2", (
        include_top, weights, input_tensor, input_shape, pooling, classes,
        classifier_activation, {}))


@export("keras.applications.ResNet152V2", "keras.applications.resnet_v2.ResNet152V2")
def ResNet152V2(include_top=True, weights="imagenet", input_tensor=None,  # noqa: N802
                input_shape=None, pooling=None, classes=1000,
                classifier_activation="softmax"):
    """ResNet-152 V2: ResNet50V2 with 8 and 36 blocks in its second and third stages; the
    arguments are ResNet50V2's."""
    return _resnet_v2((3, 8, 36, 3), "resnet152v2", (
        include_top, weights, input_tensor, input_shape, pooling, classes,
        classifier_activation, {}))


@export("keras.applications.resnet_v2.preprocess_input")
def preprocess_input(x, data_format=None):
    """ImageNet's preprocessing for the ResNet V2 models (``"tf"``): pixels scaled to
    [-1, 1]."""
    return imagenet_utils.preprocess_input(x, data_format=data_format, mode="tf")
