"""ResNet-RS (Bello et al., 2021: "Revisiting ResNets: Improved Training and Scaling
Strategies"), as ``tf.keras.applications.ResNetRS50`` ... ``ResNetRS420`` build it: the same
layers in the same order, with the same names and weights as Keras's, so that its weights
files load. A ResNet-D stem (four 3x3 convolutions), then four groups of bottleneck blocks
with squeeze-and-excitation, whose strided shortcuts average-pool before projecting. The
model rescales and normalizes its own inputs (``include_preprocessing``):
`preprocess_input` passes them through.

>>> model = tf.keras.applications.ResNetRS50(weights=None, include_top=False,
...                                          input_shape=(32, 32, 3), pooling="avg")
>>> model.name, model.output_shape, len(model.layers)
('resnet-rs-50', (None, 2048), 272)
"""
import os

from eagerflow._src.backend.api_export import export
from eagerflow._src.keras import backend
from eagerflow._src.keras.applications import imagenet_utils
from eagerflow._src.keras.applications.efficientnet import CONV_KERNEL_INITIALIZER, \
    channel_axis, classifier, squeeze_excite
from eagerflow._src.keras.layers import convolutional, core, merging, normalization, \
    pooling as pooling_layers, preprocessing, reshaping

BASE_WEIGHTS_URL = "https://storage.googleapis.com/tensorflow/keras-applications/resnet_rs/"
# the hash of each ImageNet file
WEIGHT_HASHES = {
    "resnet-rs-101-i160.h5": "544b3434d00efc199d66e9058c7f3379",
    "resnet-rs-101-i160_notop.h5": "82d5b90c5ce9d710da639d6216d0f979",
    "resnet-rs-101-i192.h5": "eb285be29ab42cf4835ff20a5e3b5d23",
    "resnet-rs-101-i192_notop.h5": "f9a0f6b85faa9c3db2b6e233c4eebb5b",
    "resnet-rs-152-i192.h5": "8d72a301ed8a6f11a47c4ced4396e338",
    "resnet-rs-152-i192_notop.h5": "5fbf7ac2155cb4d5a6180ee9e3aa8704",
    "resnet-rs-152-i224.h5": "31a46a92ab21b84193d0d71dd8c3d03b",
    "resnet-rs-152-i224_notop.h5": "dc8b2cba2005552eafa3167f00dc2133",
    "resnet-rs-152-i256.h5": "ba6271b99bdeb4e7a9b15c05964ef4ad",
    "resnet-rs-152-i256_notop.h5": "fa79794252dbe47c89130f65349d654a",
    "resnet-rs-200-i256.h5": "a76930b741884e09ce90fa7450747d5f",
    "resnet-rs-200-i256_notop.h5": "bbdb3994718dfc0d1cd45d7eff3f3d9c",
    "resnet-rs-270-i256.h5": "20d575825ba26176b03cb51012a367a8",
    "resnet-rs-270-i256_notop.h5": "2c42ecb22e35f3e23d2f70babce0a2aa",
    "resnet-rs-350-i256.h5": "f4a039dc3c421321b7fc240494574a68",
    "resnet-rs-350-i256_notop.h5": "6e44b55025bbdff8f51692a023143d66",
    "resnet-rs-350-i320.h5": "7ccb858cc738305e8ceb3c0140bee393",
    "resnet-rs-350-i320_notop.h5": "ab0c1f9079d2f85a9facbd2c88aa6079",
    "resnet-rs-420-i320.h5": "ae0eb9bed39e64fc8d7e0db4018dc7e8",
    "resnet-rs-420-i320_notop.h5": "fe6217c32be8305b1889657172b98884",
    "resnet-rs-50-i160.h5": "69d9d925319f00a8bdd4af23c04e4102",
    "resnet-rs-50-i160_notop.h5": "90daa68cd26c95aa6c5d25451e095529",
}
# the input sizes each depth has ImageNet weights for ("imagenet" takes the largest)
DEPTH_TO_WEIGHT_VARIANTS = {50: [160], 101: [160, 192], 152: [192, 224, 256], 200: [256],
                            270: [256], 350: [256, 320], 420: [320]}
# blocks in each of the four groups (of 64, 128, 256 and 512 bottleneck filters), by depth
_REPEATS = {50: (3, 4, 6, 3), 101: (3, 4, 23, 3), 152: (3, 8, 36, 3), 200: (3, 24, 36, 3),
            270: (4, 29, 53, 4), 350: (4, 36, 72, 4), 420: (4, 44, 87, 4)}
BLOCK_ARGS = {depth: [{"input_filters": filters, "num_repeats": repeats}
                      for filters, repeats in zip((64, 128, 256, 512), group_repeats)]
              for depth, group_repeats in _REPEATS.items()}


def _conv(x, filters, kernel_size, strides, name):
    """A convolution without bias; strided ones pad their input first by a fixed amount (so
    that the padding does not depend on the input's size)."""
    if strides > 1:
        begin = (kernel_size - 1) // 2
        end = kernel_size - 1 - begin
        x = reshaping.ZeroPadding2D(padding=((begin, end), (begin, end)))(x)
    return convolutional.Conv2D(filters=filters, kernel_size=kernel_size, strides=strides,
                                padding="same" if strides == 1 else "valid", use_bias=False,
                                kernel_initializer=CONV_KERNEL_INITIALIZER, name=name)(x)


def _bn(x, bn_momentum, bn_epsilon, name):
    return normalization.BatchNormalization(axis=channel_axis(), momentum=bn_momentum,
                                            epsilon=bn_epsilon, name=name)(x)


def _stem(x, bn_momentum, bn_epsilon, activation):
    """Four 3x3 convolutions (32, 32, 64, 64 filters; the first and last strided), each
    normalized and activated: ResNet-D's stem, with a convolution for the max pooling."""
    name = f"stem_{backend.get_uid('stem_')}"
    for i, (filters, strides) in enumerate(((32, 2), (32, 1), (64, 1), (64, 2)), 1):
        x = _conv(x, filters, 3, strides, f"{name}_stem_conv_{i}")
        x = _bn(x, bn_momentum, bn_epsilon, f"{name}_stem_batch_norm_{i}")
        x = core.Activation(activation, name=f"{name}_stem_act_{i}")(x)
    return x


def _bottleneck(inputs, filters, strides, use_projection, bn_momentum, bn_epsilon,
                activation, se_ratio, survival_probability, name):
    """1x1, 3x3 (strided), 1x1 to 4 * `filters` convolutions, squeeze-and-excitation and drop
    connect, added to the input (or to its projection: average-pooled when strided)."""
    shortcut = inputs
    if use_projection:
        if strides == 2:
            shortcut = pooling_layers.AveragePooling2D(pool_size=(2, 2), strides=(2, 2),
                                                       padding="same",
                                                       name=name + "_projection_pooling")(inputs)
            shortcut = _conv(shortcut, filters * 4, 1, 1, name + "_projection_conv")
        else:
            shortcut = _conv(inputs, filters * 4, 1, strides, name + "_projection_conv")
        shortcut = _bn(shortcut, bn_momentum, bn_epsilon, name + "_projection_batch_norm")
    x = _conv(inputs, filters, 1, 1, name + "_conv_1")
    # (Keras names this one without the underscore the others have)
    x = _bn(x, bn_momentum, bn_epsilon, name + "batch_norm_1")
    x = core.Activation(activation, name=name + "_act_1")(x)
    x = _conv(x, filters, 3, strides, name + "_conv_2")
    x = _bn(x, bn_momentum, bn_epsilon, name + "_batch_norm_2")
    x = core.Activation(activation, name=name + "_act_2")(x)
    x = _conv(x, filters * 4, 1, 1, name + "_conv_3")
    x = _bn(x, bn_momentum, bn_epsilon, name + "_batch_norm_3")
    if 0 < se_ratio < 1:
        x = squeeze_excite(x, filters * 4, max(1, int(filters * 4 * se_ratio)), "relu",
                           name + "_se_")
    if survival_probability:
        # (Keras's "survival probability" is the rate at which the branch drops)
        x = core.Dropout(survival_probability, noise_shape=(None, 1, 1, 1),
                         name=name + "_drop")(x)
    x = merging.Add()([x, shortcut])
    return core.Activation(activation, name=name + "_output_act")(x)


def ResNetRS(depth, input_shape=None, bn_momentum=0.0, bn_epsilon=1e-5,  # noqa: N802
             activation="relu", se_ratio=0.25, dropout_rate=0.25, drop_connect_rate=0.2,
             include_top=True, block_args=None, model_name="resnet-rs", pooling=None,
             weights="imagenet", input_tensor=None, classes=1000,
             classifier_activation="softmax", include_preprocessing=True):
    """A ResNet-RS of `depth` (the groups of `block_args`, by default those of the depth)."""
    variants = DEPTH_TO_WEIGHT_VARIANTS[depth]
    if weights == "imagenet":
        weights = f"imagenet-i{max(variants)}"
    allowed = [f"imagenet-i{size}" for size in variants]
    if not (weights in {*allowed, None} or os.path.exists(weights)):
        raise ValueError("The `weights` argument should be either `None` (random "
                         "initialization), `'imagenet'` (pre-training on ImageNet, with "
                         "highest available input shape), or the path to the weights file to "
                         f"be loaded. For ResNetRS{depth} the following weight variants are "
                         f"available {allowed} (default=highest). Received weights={weights}")
    if weights in allowed and include_top and classes != 1000:
        raise ValueError(f"If using `weights` as `'imagenet'` or any of {allowed} with "
                         "`include_top` as true, `classes` should be 1000. "
                         f"Received classes={classes}")
    input_shape, img_input = imagenet_utils.model_input(
        input_shape, input_tensor, include_top, weights)

    x = img_input
    if include_preprocessing:
        x = preprocessing.Rescaling(scale=1.0 / 255)(x)
        if input_shape[channel_axis() - 1] == 3:
            x = imagenet_utils.standardize(x)
    x = _stem(x, bn_momentum, bn_epsilon, activation)
    block_args = BLOCK_ARGS[depth] if block_args is None else block_args
    for i, args in enumerate(block_args):
        # the same rate for the blocks of a group, growing with the group
        survival_probability = drop_connect_rate * float(i + 2) / (len(block_args) + 1)
        name = f"BlockGroup{i + 2}_"
        for j in range(args["num_repeats"]):
            x = _bottleneck(x, args["input_filters"], 2 if i and not j else 1, j == 0,
                            bn_momentum, bn_epsilon, activation, se_ratio,
                            survival_probability, f"{name}_block_{j}_")
    x = classifier(x, include_top, pooling, classes, classifier_activation, weights,
                   dropout_rate, kernel_initializer="glorot_uniform")
    model = imagenet_utils.model(img_input, input_tensor, x, model_name)
    if weights in allowed:
        file_name = f"{model_name}-{weights.split('-')[-1]}{'' if include_top else '_notop'}.h5"
        imagenet_utils.load_weights(model, "imagenet", file_name, WEIGHT_HASHES[file_name],
                                    base=BASE_WEIGHTS_URL)
    else:
        imagenet_utils.load_weights(model, weights, None)
    return model


def _builder(depth, drop_connect_rate, dropout_rate):
    """The public builder of ResNet-RS of `depth`."""
    def build(include_top=True, weights="imagenet", classes=1000, input_shape=None,
              input_tensor=None, pooling=None, classifier_activation="softmax",
              include_preprocessing=True):
        return ResNetRS(depth, include_top=include_top, drop_connect_rate=drop_connect_rate,
                        dropout_rate=dropout_rate, weights=weights, classes=classes,
                        input_shape=input_shape, input_tensor=input_tensor, pooling=pooling,
                        classifier_activation=classifier_activation,
                        model_name=f"resnet-rs-{depth}",
                        include_preprocessing=include_preprocessing)
    name = f"ResNetRS{depth}"
    sizes = ", ".join(f'``"imagenet-i{size}"``' for size in DEPTH_TO_WEIGHT_VARIANTS[depth])
    build.__name__ = build.__qualname__ = name
    build.__doc__ = (
        f"""ResNet-RS-{depth}: a ResNet-D stem and {'+'.join(map(str, _REPEATS[depth]))}
    squeeze-and-excitation bottleneck blocks{
        f' (dropped at random in training: drop connect at rates up to {drop_connect_rate})'
        if drop_connect_rate else ''}.

    `weights` is None (random initialization), ``"imagenet"`` (Keras's file for the largest
    input size it has, downloaded into ``~/.keras/models`` the first time), one of {sizes}
    (the file for that size) or the path of a weights file to load. The model takes 0-255
    pixels and rescales and normalizes them itself unless `include_preprocessing` is False
    (then it takes [-1, 1]). Without the top (`include_top` False) it takes any image size
    of at least 32x32 and `pooling` (None, ``"avg"`` or ``"max"``) says what it does to the
    last feature map; the top drops out {dropout_rate} of its inputs in training.
    """)
    return export(f"keras.applications.{name}", f"keras.applications.resnet_rs.{name}")(build)


ResNetRS50 = _builder(50, 0.0, 0.25)
ResNetRS101 = _builder(101, 0.0, 0.25)
ResNetRS152 = _builder(152, 0.0, 0.25)
ResNetRS200 = _builder(200, 0.1, 0.25)
ResNetRS270 = _builder(270, 0.1, 0.25)
ResNetRS350 = _builder(350, 0.1, 0.4)
ResNetRS420 = _builder(420, 0.1, 0.4)
