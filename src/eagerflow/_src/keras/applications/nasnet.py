"""NASNet-A (Zoph et al., 2018: "Learning Transferable Architectures for Scalable Image
Recognition"), as ``tf.keras.applications.NASNetMobile`` and ``NASNetLarge`` build it: the
same layers in the same order, with the same names and weights as Keras's, so that its
weights files load. The network is a stem, then three stacks of "normal" cells separated by
"reduction" cells (which halve the feature map); each cell mixes the outputs of the two
cells before it through separable convolutions and poolings found by architecture search.

>>> model = tf.keras.applications.NASNetMobile(weights=None, input_shape=(32, 32, 3),
...                                            classes=10)
>>> model.name, model.count_params(), len(model.layers)
('NASNet', 4280286, 771)
"""
from eagerflow._src.backend import log
from eagerflow._src.backend.api_export import export
from eagerflow._src.keras import backend
from eagerflow._src.keras.applications import imagenet_utils
from eagerflow._src.keras.layers import convolutional, core, merging, normalization, \
    pooling as pooling_layers, reshaping

BASE_WEIGHTS_PATH = "https://storage.googleapis.com/tensorflow/keras-applications/nasnet/"
# (include_top, no top): Keras's file in the bucket, the name it is cached under, its hash
_FILES = {
    224: (("NASNet-mobile.h5", "nasnet_mobile.h5", "020fb642bf7360b370c678b08e0adf61"),
          ("NASNet-mobile-no-top.h5", "nasnet_mobile_no_top.h5",
           "1ed92395b5b598bdda52abe5c0dbfd63")),
    331: (("NASNet-large.h5", "nasnet_large.h5", "11577c9a518f0070763c2b964a382f17"),
          ("NASNet-large-no-top.h5", "nasnet_large_no_top.h5",
           "d81d89dc07e6e56530c4e77faddd61b5")),
}


def _channel_dim():
    return 1 if backend.image_data_format() == "channels_first" else -1


def _bn(x, name):
    """NASNet's batch normalization (slow moving averages) over the channels."""
    return normalization.BatchNormalization(axis=_channel_dim(), momentum=0.9997, epsilon=1e-3,
                                            name=name)(x)


def _conv_1x1(x, filters, name):
    return convolutional.Conv2D(filters, (1, 1), padding="same", use_bias=False, name=name,
                                kernel_initializer="he_normal")(x)


def _separable_block(x, filters, kernel_size=3, strides=1, block_id=None):
    """Twice: ReLU, separable convolution (the first one strided, after a padding that
    centres its windows), batch normalization."""
    x = core.Activation("relu")(x)
    if strides == 2:
        x = reshaping.ZeroPadding2D(padding=imagenet_utils.correct_pad(x, kernel_size),
                                    name=f"separable_conv_1_pad_{block_id}")(x)
    for i, stride in ((1, strides), (2, 1)):
        if i == 2:
            x = core.Activation("relu")(x)
        x = convolutional.SeparableConv2D(
            filters, kernel_size, strides=stride, name=f"separable_conv_{i}_{block_id}",
            padding="valid" if stride == 2 else "same", use_bias=False,
            kernel_initializer="he_normal")(x)
        x = _bn(x, f"separable_conv_{i}_bn_{block_id}")
    return x


def _adjust(p, ip, filters, block_id):
    """The previous cell's output `p`, brought to the size of `ip` (halved by two offset
    strided 1x1 paths) or projected to `filters` channels, as the cell needs it."""
    if p is None:
        return ip
    spatial = 2 if backend.image_data_format() == "channels_first" else -2
    if backend.int_shape(p)[spatial] != backend.int_shape(ip)[spatial]:
        p = core.Activation("relu", name=f"adjust_relu_1_{block_id}")(p)
        paths = []
        for i in (1, 2):
            q = p
            if i == 2:  # the path of the odd positions: shifted by one
                q = reshaping.ZeroPadding2D(padding=((0, 1), (0, 1)))(q)
                q = reshaping.Cropping2D(cropping=((1, 0), (1, 0)))(q)
            q = pooling_layers.AveragePooling2D((1, 1), strides=(2, 2), padding="valid",
                                                name=f"adjust_avg_pool_{i}_{block_id}")(q)
            paths.append(_conv_1x1(q, filters // 2, f"adjust_conv_{i}_{block_id}"))
        p = merging.concatenate(paths, axis=_channel_dim())
        return _bn(p, f"adjust_bn_{block_id}")
    if backend.int_shape(p)[_channel_dim()] != filters:
        p = core.Activation("relu")(p)
        p = _conv_1x1(p, filters, f"adjust_conv_projection_{block_id}")
        return _bn(p, f"adjust_bn_{block_id}")
    return p


def _squeeze(ip, filters, kind, block_id):
    """ReLU, 1x1 convolution to `filters` and batch normalization of a cell's input."""
    h = core.Activation("relu")(ip)
    h = _conv_1x1(h, filters, f"{kind}_conv_1_{block_id}")
    return _bn(h, f"{kind}_bn_1_{block_id}")


def _pool(x, kind, strides, name):
    pool = pooling_layers.MaxPooling2D if kind == "max" else pooling_layers.AveragePooling2D
    return pool((3, 3), strides=strides, padding="valid" if strides == 2 else "same",
                name=name)(x)


def _normal_cell(ip, p, filters, block_id):
    """NASNet-A's normal cell: five sums of pairs of operations on the two inputs,
    concatenated with the (adjusted) previous output. Returns it and `ip`, the next cell's
    previous output."""
    p = _adjust(p, ip, filters, block_id)
    h = _squeeze(ip, filters, "normal", block_id)

    def named(kind):
        return f"normal_{kind}_{block_id}"

    x1 = merging.add([_separable_block(h, filters, 5, block_id=named("left1")),
                      _separable_block(p, filters, block_id=named("right1"))],
                     name=named("add_1"))
    x2 = merging.add([_separable_block(p, filters, 5, block_id=named("left2")),
                      _separable_block(p, filters, 3, block_id=named("right2"))],
                     name=named("add_2"))
    x3 = merging.add([_pool(h, "avg", 1, named("left3")), p], name=named("add_3"))
    x4 = merging.add([_pool(p, "avg", 1, named("left4")), _pool(p, "avg", 1, named("right4"))],
                     name=named("add_4"))
    x5 = merging.add([_separable_block(h, filters, block_id=named("left5")), h],
                     name=named("add_5"))
    x = merging.concatenate([p, x1, x2, x3, x4, x5], axis=_channel_dim(), name=named("concat"))
    return x, ip


def _reduction_cell(ip, p, filters, block_id):
    """NASNet-A's reduction cell: strided separable convolutions and poolings, halving the
    feature map. Returns its output and `ip`."""
    p = _adjust(p, ip, filters, block_id)
    h = _squeeze(ip, filters, "reduction", block_id)

    def named(kind):
        return f"reduction_{kind}_{block_id}"

    h3 = reshaping.ZeroPadding2D(padding=imagenet_utils.correct_pad(h, 3),
                                 name=named("pad_1"))(h)
    x1 = merging.add([_separable_block(h, filters, 5, 2, named("left1")),
                      _separable_block(p, filters, 7, 2, named("right1"))], name=named("add_1"))
    x2 = merging.add([_pool(h3, "max", 2, named("left2")),
                      _separable_block(p, filters, 7, 2, named("right2"))], name=named("add_2"))
    # (Keras's names of the last three sums lose their underscore, and the fourth has none)
    x3 = merging.add([_pool(h3, "avg", 2, named("left3")),
                      _separable_block(p, filters, 5, 2, named("right3"))], name=named("add3"))
    x4 = merging.add([x2, _pool(x1, "avg", 1, named("left4"))])
    x5 = merging.add([_separable_block(x1, filters, 3, block_id=named("left4")),
                      _pool(h3, "max", 2, named("right5"))], name=named("add4"))
    x = merging.concatenate([x2, x3, x4, x5], axis=_channel_dim(), name=named("concat"))
    return x, ip


def NASNet(input_shape=None, penultimate_filters=4032, num_blocks=6,  # noqa: N802
           stem_block_filters=96, skip_reduction=True, filter_multiplier=2, include_top=True,
           weights="imagenet", input_tensor=None, pooling=None, classes=1000,
           default_size=None, classifier_activation="softmax"):
    """A NASNet-A "`num_blocks` @ `penultimate_filters`": `num_blocks` normal cells per stack,
    the last stack `penultimate_filters` channels wide (as 6 branches of a 24th of them
    each), each stack `filter_multiplier` times wider than the one before. With
    `skip_reduction` the cell after a reduction cell takes the reduction's previous input as
    its own, rather than the reduction's main input. ImageNet weights exist for the mobile
    (`default_size` 224) and large (331) ones."""
    imagenet_utils.check_weights(weights, include_top, classes)
    if isinstance(input_shape, tuple) and None in input_shape and weights == "imagenet":
        raise ValueError("When specifying the input shape of a NASNet and loading `ImageNet` "
                         "weights, the input_shape argument must be static (no None entries). "
                         f"Got: `input_shape={input_shape}`.")
    default_size = default_size or 331
    input_shape = imagenet_utils.obtain_input_shape(
        input_shape, default_size=default_size, min_size=32,
        data_format=backend.image_data_format(), require_flatten=include_top, weights=weights)
    old_data_format = None
    if backend.image_data_format() != "channels_last":
        log.get_logger().warning(
            "The NASNet family of models is only available for the input data format "
            '"channels_last" (width, height, channels). However your settings specify the '
            'default data format "channels_first" (channels, width, height). You should set '
            '`image_data_format="channels_last"` in your TF-Keras config located at '
            "~/.keras/keras.json. The model being returned right now will expect inputs to "
            'follow the "channels_last" data format.')
        old_data_format = backend.image_data_format()
        backend.set_image_data_format("channels_last")
    try:
        return _build(input_shape, penultimate_filters, num_blocks, stem_block_filters,
                      skip_reduction, filter_multiplier, include_top, weights, input_tensor,
                      pooling, classes, default_size, classifier_activation)
    finally:
        if old_data_format:
            backend.set_image_data_format(old_data_format)


def _build(input_shape, penultimate_filters, num_blocks, stem_block_filters, skip_reduction,
           filter_multiplier, include_top, weights, input_tensor, pooling, classes,
           default_size, classifier_activation):
    img_input = imagenet_utils.image_input(input_shape, input_tensor)
    if penultimate_filters % (24 * (filter_multiplier ** 2)) != 0:
        raise ValueError("For NASNet-A models, the `penultimate_filters` must be a multiple of "
                         "24 * (`filter_multiplier` ** 2). Current value: "
                         f"{int(penultimate_filters)}")
    filters = penultimate_filters // 24
    x = convolutional.Conv2D(stem_block_filters, (3, 3), strides=(2, 2), padding="valid",
                             use_bias=False, name="stem_conv1",
                             kernel_initializer="he_normal")(img_input)
    x = _bn(x, "stem_bn1")
    x, p = _reduction_cell(x, None, filters // filter_multiplier ** 2, "stem_1")
    x, p = _reduction_cell(x, p, filters // filter_multiplier, "stem_2")
    for stack in range(3):
        width = filters * filter_multiplier ** stack
        if stack:
            x, p0 = _reduction_cell(x, p, width, f"reduce_{stack * num_blocks}")
            p = p if skip_reduction else p0
        for i in range(num_blocks):
            # numbered on from the reduction cell before them
            x, p = _normal_cell(x, p, width, str(stack * num_blocks + i + (stack > 0)))
    x = core.Activation("relu")(x)
    x = imagenet_utils.top(x, include_top, pooling, classes, classifier_activation, weights,
                           top_pool=None)
    model = imagenet_utils.model(img_input, input_tensor, x, "NASNet")
    if weights == "imagenet":
        if default_size not in _FILES:
            raise ValueError("ImageNet weights can only be loaded with NASNetLarge or "
                             "NASNetMobile")
        bucket, fname, file_hash = _FILES[default_size][0 if include_top else 1]
        imagenet_utils.load_weights(model, weights, bucket, file_hash, base=BASE_WEIGHTS_PATH,
                                    fname=fname)
    else:
        imagenet_utils.load_weights(model, weights, None)
    return model


@export("keras.applications.NASNetMobile", "keras.applications.nasnet.NASNetMobile")
def NASNetMobile(input_shape=None, include_top=True, weights="imagenet",  # noqa: N802
                 input_tensor=None, pooling=None, classes=1000,
                 classifier_activation="softmax"):
    """NASNet-A (4 @ 1056), for 224x224 images (5.3M parameters with its 1000-class top).

    `weights` is None (random initialization), ``"imagenet"`` (Keras's file, downloaded into
    ``~/.keras/models`` the first time; with the top, for 224x224 inputs only) or the path of
    a weights file to load. Without the top (`include_top` False) the model takes any image
    size of at least 32x32 and `pooling` (None, ``"avg"`` or ``"max"``) says what it does to
    the last feature map. Inputs are scaled to [-1, 1] (`nasnet.preprocess_input`).
    """
    return NASNet(input_shape, penultimate_filters=1056, num_blocks=4, stem_block_filters=32,
                  skip_reduction=False, filter_multiplier=2, include_top=include_top,
                  weights=weights, input_tensor=input_tensor, pooling=pooling, classes=classes,
                  default_size=224, classifier_activation=classifier_activation)


@export("keras.applications.NASNetLarge", "keras.applications.nasnet.NASNetLarge")
def NASNetLarge(input_shape=None, include_top=True, weights="imagenet",  # noqa: N802
                input_tensor=None, pooling=None, classes=1000,
                classifier_activation="softmax"):
    """NASNet-A (6 @ 4032), for 331x331 images (88.9M parameters with its 1000-class top);
    the arguments are NASNetMobile's (ImageNet weights with the top: 331x331 inputs)."""
    return NASNet(input_shape, penultimate_filters=4032, num_blocks=6, stem_block_filters=96,
                  skip_reduction=True, filter_multiplier=2, include_top=include_top,
                  weights=weights, input_tensor=input_tensor, pooling=pooling, classes=classes,
                  default_size=331, classifier_activation=classifier_activation)


@export("keras.applications.nasnet.preprocess_input")
def preprocess_input(x, data_format=None):
    """NASNet's preprocessing (``"tf"``): pixels (0-255) scaled to [-1, 1].

    >>> tf.keras.applications.nasnet.preprocess_input(np.array([0.0, 127.5, 255.0]))
    array([-1.,  0.,  1.])
    """
    return imagenet_utils.preprocess_input(x, data_format=data_format, mode="tf")
