"""ResNet-50 (He et al., 2015: "Deep Residual Learning for Image Recognition"), as
``tf.keras.applications.ResNet50`` builds it: same layer names and weights, so that weights
files of Keras's ResNet50 load into it.

>>> model = tf.keras.applications.ResNet50(weights=None, include_top=False,
...                                        input_shape=(32, 32, 3), pooling="avg")
>>> model.output_shape, len(model.weights)
((None, 2048), 318)
"""
from eagerflow._src.backend.api_export import export
from eagerflow._src.keras.applications import imagenet_utils
from eagerflow._src.keras.layers import convolutional, core, merging, normalization, \
    pooling as pooling_layers, reshaping

# (include_top, no top) weights files' hashes, by model
_HASHES = {"resnet50": ("2cb95161c43110f7111970584f804107", "4d473c1dd8becc155b73f8504c6f6626"),
           "resnet101": ("f1aeb4b969a6efcfb50fad2f0c20cfc5", "88cf7a10940856eca736dc7b7e228a21"),
           "resnet152": ("100835be76be38e30d865e96f2aaae62", "ee4c566cf9a93f14d82f913c2dc6dd0c")}


def bn(x, name):
    """ResNet's batch normalization over the channels."""
    return normalization.BatchNormalization(axis=imagenet_utils.channel_axis(), epsilon=1.001e-5,
                                            name=name)(x)


def _block(x, filters, stride=1, conv_shortcut=True, name=None):
    """A bottleneck block: 1x1 (strided), 3x3, 1x1 to 4 * `filters`, added to its input (or
    to a 1x1 convolution of it) and rectified."""
    if conv_shortcut:
        shortcut = convolutional.Conv2D(4 * filters, 1, strides=stride, name=name + "_0_conv")(x)
        shortcut = bn(shortcut, name + "_0_bn")
    else:
        shortcut = x
    x = convolutional.Conv2D(filters, 1, strides=stride, name=name + "_1_conv")(x)
    x = core.Activation("relu", name=name + "_1_relu")(bn(x, name + "_1_bn"))
    x = convolutional.Conv2D(filters, 3, padding="SAME", name=name + "_2_conv")(x)
    x = core.Activation("relu", name=name + "_2_relu")(bn(x, name + "_2_bn"))
    x = convolutional.Conv2D(4 * filters, 1, name=name + "_3_conv")(x)
    x = bn(x, name + "_3_bn")
    x = merging.Add(name=name + "_add")([shortcut, x])
    return core.Activation("relu", name=name + "_out")(x)


def _stack(x, filters, blocks, stride=2, name=None):
    x = _block(x, filters, stride=stride, name=name + "_block1")
    for i in range(2, blocks + 1):
        x = _block(x, filters, conv_shortcut=False, name=f"{name}_block{i}")
    return x


@export("keras.applications.ResNet50", "keras.applications.resnet50.ResNet50",
        "keras.applications.resnet.ResNet50")
def ResNet50(include_top=True, weights="imagenet", input_tensor=None,  # noqa: N802
             input_shape=None, pooling=None, classes=1000, classifier_activation="softmax",
             **kwargs):
    """ResNet-50: a 7x7 stem and 16 bottleneck blocks in four stages (25.6M parameters with
    its 1000-class top).

    `weights` is None (random initialization), ``"imagenet"`` (Keras's file, downloaded into
    ``~/.keras/models`` the first time) or the path of a weights file to load. Without the
    top (`include_top` False) the model takes any image size of at least 32x32 and `pooling`
    (None, ``"avg"`` or ``"max"``) says what it does to the last feature map.
    """
    return _resnet((3, 4, 6, 3), "resnet50", include_top, weights, input_tensor, input_shape,
                   pooling, classes, classifier_activation, kwargs)


@export("keras.applications.ResNet101", "keras.applications.resnet.ResNet101")
def ResNet101(include_top=True, weights="imagenet", input_tensor=None,  # noqa: N802
              input_shape=None, pooling=None, classes=1000, classifier_activation="softmax",
              **kwargs):
    """ResNet-101: ResNet-50 with 23 blocks in its third stage (44.7M parameters with its
    1000-class top); the arguments are ResNet50's."""
    return _resnet((3, 4, 23, 3), "resnet101", include_top, weights, input_tensor,
                   input_shape, pooling, classes, classifier_activation, kwargs)


@export("keras.applications.ResNet152", "keras.applications.resnet.ResNet152")
def ResNet152(include_top=True, weights="imagenet", input_tensor=None,  # noqa: N802
              input_shape=None, pooling=None, classes=1000, classifier_activation="softmax",
              **kwargs):
    """ResNet-152: ResNet-50 with 8 and 36 blocks in its second and third stages (60.4M
    parameters with its 1000-class top); the arguments are ResNet50's."""
    return _resnet((3, 8, 36, 3), "resnet152", include_top, weights, input_tensor,
                   input_shape, pooling, classes, classifier_activation, kwargs)


def _resnet(stacks, name, include_top, weights, input_tensor, input_shape, pooling, classes,
            classifier_activation, kwargs):
    def stack_all(x):
        x = _stack(x, 64, stacks[0], stride=1, name="conv2")
        x = _stack(x, 128, stacks[1], name="conv3")
        x = _stack(x, 256, stacks[2], name="conv4")
        return _stack(x, 512, stacks[3], name="conv5")
    return build(stack_all, False, name, include_top, weights, input_tensor, input_shape,
                 pooling, classes, classifier_activation, kwargs, _HASHES[name])


def build(stack_all, preact, name, include_top, weights, input_tensor, input_shape, pooling,
          classes, classifier_activation, kwargs, hashes=(None, None)):
    """A ResNet: the 7x7 stem, `stack_all`'s stages, and the top. `preact` (ResNetV2): the
    stem's convolution has a bias and no normalization, and the stages end in one."""
    if kwargs:
        raise ValueError(f"Unknown argument(s): {kwargs}")
    imagenet_utils.check_weights(weights, include_top, classes)
    input_shape, img_input = imagenet_utils.model_input(
        input_shape, input_tensor, include_top, weights)

    x = reshaping.ZeroPadding2D(padding=((3, 3), (3, 3)), name="conv1_pad")(img_input)
    x = convolutional.Conv2D(64, 7, strides=2, name="conv1_conv")(x)
    if not preact:
        x = core.Activation("relu", name="conv1_relu")(bn(x, "conv1_bn"))
    x = reshaping.ZeroPadding2D(padding=((1, 1), (1, 1)), name="pool1_pad")(x)
    x = pooling_layers.MaxPooling2D(3, strides=2, name="pool1_pool")(x)
    x = stack_all(x)
    if preact:
        x = core.Activation("relu", name="post_relu")(bn(x, "post_bn"))
    x = imagenet_utils.top(x, include_top, pooling, classes, classifier_activation, weights,
                           ("avg_pool", "max_pool"))
    model = imagenet_utils.model(img_input, input_tensor, x, name)
    suffix = "" if include_top else "_notop"
    imagenet_utils.load_weights(
        model, weights, f"resnet/{name}_weights_tf_dim_ordering_tf_kernels{suffix}.h5",
        hashes[0 if include_top else 1])
    return model


@export("keras.applications.resnet50.preprocess_input",
        "keras.applications.resnet.preprocess_input")
def preprocess_input(x, data_format=None):
    """ImageNet's preprocessing for ResNet-50 (``"caffe"``): RGB to BGR, minus the mean
    colour of ImageNet, not scaled."""
    return imagenet_utils.preprocess_input(x, data_format=data_format, mode="caffe")
