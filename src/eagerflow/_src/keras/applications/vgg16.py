"""VGG-16 (Simonyan & Zisserman, 2014: "Very Deep Convolutional Networks for Large-Scale
Image Recognition"), as ``tf.keras.applications.VGG16`` builds it: same layer names and
weights, so that weights files of Keras's VGG16 load into it.

>>> model = tf.keras.applications.VGG16(weights=None, include_top=False,
...                                     input_shape=(32, 32, 3), pooling="max")
>>> model.output_shape, model.count_params()
((None, 512), 14714688)
"""
from eagerflow._src.backend.api_export import export
from eagerflow._src.keras.applications import imagenet_utils
from eagerflow._src.keras.layers import convolutional, core, pooling as pooling_layers

_FILES = {True: ("vgg16/vgg16_weights_tf_dim_ordering_tf_kernels.h5",
                 "64373286793e3c8b2b4e3219cbf3544b"),
          False: ("vgg16/vgg16_weights_tf_dim_ordering_tf_kernels_notop.h5",
                  "6d6bbae143d832006294945121d1f1fc")}
_BLOCKS = ((64, 2), (128, 2), (256, 3), (512, 3), (512, 3))  # (filters, convolutions)


@export("keras.applications.VGG16", "keras.applications.vgg16.VGG16")
def VGG16(include_top=True, weights="imagenet", input_tensor=None,  # noqa: N802
          input_shape=None, pooling=None, classes=1000, classifier_activation="softmax"):
    """VGG-16: five blocks of 3x3 convolutions, each ending in 2x2 max pooling, then two
    4096-unit dense layers and the classifier (138M parameters with its 1000-class top).

    `weights` is None (random initialization), ``"imagenet"`` (Keras's file, downloaded into
    ``~/.keras/models`` the first time) or the path of a weights file to load. Without the
    top (`include_top` False) the model takes any image size of at least 32x32 and `pooling`
    (None, ``"avg"`` or ``"max"``) says what it does to the last feature map.
    """
    return _vgg(_BLOCKS, "vgg16", _FILES, include_top, weights, input_tensor, input_shape,
                pooling, classes, classifier_activation)


_FILES_19 = {True: ("vgg19/vgg19_weights_tf_dim_ordering_tf_kernels.h5",
                    "cbe5617147190e668d6c5d5026f83318"),
             False: ("vgg19/vgg19_weights_tf_dim_ordering_tf_kernels_notop.h5",
                     "253f8cb515780f3b799900260a226db6")}
_BLOCKS_19 = ((64, 2), (128, 2), (256, 4), (512, 4), (512, 4))


@export("keras.applications.VGG19", "keras.applications.vgg19.VGG19")
def VGG19(include_top=True, weights="imagenet", input_tensor=None,  # noqa: N802
          input_shape=None, pooling=None, classes=1000, classifier_activation="softmax"):
    """VGG-19: VGG-16 with four convolutions in each of its last three blocks (144M
    parameters with its 1000-class top); the arguments are VGG16's.

    >>> tf.keras.applications.VGG19(weights=None, include_top=False,
    ...                             input_shape=(32, 32, 3)).count_params()
    20024384
    """
    return _vgg(_BLOCKS_19, "vgg19", _FILES_19, include_top, weights, input_tensor,
                input_shape, pooling, classes, classifier_activation)


def _vgg(blocks, name, files, include_top, weights, input_tensor, input_shape, pooling,
         classes, classifier_activation):
    imagenet_utils.check_weights(weights, include_top, classes,
                                 f".  Received: weights={weights}",
                                 f".  Received `classes={classes}`")
    input_shape, img_input = imagenet_utils.model_input(
        input_shape, input_tensor, include_top, weights)

    x = img_input
    for block, (filters, convs) in enumerate(blocks, start=1):
        for conv in range(1, convs + 1):
            x = convolutional.Conv2D(filters, (3, 3), activation="relu", padding="same",
                                     name=f"block{block}_conv{conv}")(x)
        x = pooling_layers.MaxPooling2D((2, 2), strides=(2, 2), name=f"block{block}_pool")(x)

    if include_top:
        x = core.Flatten(name="flatten")(x)
        x = core.Dense(4096, activation="relu", name="fc1")(x)
        x = core.Dense(4096, activation="relu", name="fc2")(x)
        imagenet_utils.validate_activation(classifier_activation, weights)
        x = core.Dense(classes, activation=classifier_activation, name="predictions")(x)
    elif pooling == "avg":
        x = pooling_layers.GlobalAveragePooling2D()(x)
    elif pooling == "max":
        x = pooling_layers.GlobalMaxPooling2D()(x)

    model = imagenet_utils.model(img_input, input_tensor, x, name)
    imagenet_utils.load_weights(model, weights, *files[bool(include_top)])
    return model


@export("keras.applications.vgg16.preprocess_input", "keras.applications.vgg19.preprocess_input")
def preprocess_input(x, data_format=None):
    """ImageNet's preprocessing for VGG-16 and VGG-19 (``"caffe"``): RGB to BGR, minus the mean colour
    of ImageNet, not scaled."""
    return imagenet_utils.preprocess_input(x, data_format=data_format, mode="caffe")
