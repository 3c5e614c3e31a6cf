"""What the ImageNet models share (``tf.keras.applications.imagenet_utils``): preprocessing,
decoding predictions, and checking and completing the arguments their builders take.

>>> x = np.array([[[0.0, 127.5, 255.0]]])
>>> tf.keras.applications.imagenet_utils.preprocess_input(x, mode="tf")
array([[[-1.,  0.,  1.]]])
"""
import json
import os
import warnings

import numpy as np

from eagerflow._src.backend.api_export import export
from eagerflow._src.keras import activations, backend
from eagerflow._src.keras.engine import input_layer, keras_tensor, training
from eagerflow._src.keras.layers import core, pooling as pooling_layers, preprocessing
from eagerflow._src.keras.utils import data_utils
from eagerflow._src.core import dtypes
from eagerflow._src.core.convert import constant
from eagerflow._src.ops import array_ops, cast_ops

CLASS_INDEX = None  # ImageNet's {"index": [wordnet id, name]}, read on first decode
CLASS_INDEX_PATH = ("https://storage.googleapis.com/download.tensorflow.org/data/"
                    "imagenet_class_index.json")
BASE_WEIGHTS_PATH = "https://storage.googleapis.com/tensorflow/keras-applications/"

_MEAN = {"caffe": (103.939, 116.779, 123.68), "torch": (0.485, 0.456, 0.406)}
_STD = {"torch": (0.229, 0.224, 0.225)}


@export("keras.applications.imagenet_utils.preprocess_input")
def preprocess_input(x, data_format=None, mode="caffe"):
    """Scales a batch of RGB images (values 0-255) as the ImageNet models were trained on.

    `mode` ``"caffe"`` turns RGB into BGR and subtracts ImageNet's mean colour, ``"tf"``
    scales to [-1, 1], ``"torch"`` scales to [0, 1] and standardizes each channel. A NumPy
    array comes back as an array (a float one is changed in place, as in Keras), anything
    else as a tensor.
    """
    if mode not in {"caffe", "tf", "torch"}:
        raise ValueError("Expected mode to be one of `caffe`, `tf` or `torch`. "
                         f"Received: mode={mode}")
    if data_format is None:
        data_format = backend.image_data_format()
    elif data_format not in {"channels_first", "channels_last"}:
        raise ValueError("Expected data_format to be one of `channels_first` or "
                         f"`channels_last`. Received: data_format={data_format}")
    if isinstance(x, np.ndarray):
        return _preprocess_array(x, data_format, mode)
    return _preprocess_tensor(x, data_format, mode)


def _channel_shape(ndim, data_format):
    """The shape a per-channel constant broadcasts with over an image batch of rank `ndim`."""
    if data_format == "channels_first":
        return (3,) + (1,) * (min(ndim, 3) - 1) if ndim <= 3 else (1, 3, 1, 1)
    return (3,)


def _flip_channels(x, data_format):
    if data_format == "channels_first":
        return x[::-1, ...] if len(x.shape) == 3 else x[:, ::-1, ...]
    return x[..., ::-1]


def _preprocess_array(x, data_format, mode):
    if not np.issubdtype(x.dtype, np.floating):
        x = x.astype(backend.floatx(), copy=False)
    if mode == "tf":
        x /= 127.5
        x -= 1.0
        return x
    if mode == "torch":
        x /= 255.0
    else:
        x = _flip_channels(x, data_format)
    shape = _channel_shape(x.ndim, data_format)
    x -= np.reshape(np.asarray(_MEAN[mode], x.dtype), shape)
    if mode in _STD:
        x /= np.reshape(np.asarray(_STD[mode], x.dtype), shape)
    return x


def _preprocess_tensor(x, data_format, mode):
    # Keras's arithmetic on tensors: an integer tensor stays one (the mean, a float32
    # constant, is cast to it) and 'tf' mode divides it by a float, which TF refuses.
    if mode == "tf":
        return x / 127.5 - 1.0
    if mode == "torch":
        x = x / 255.0
    else:
        x = _flip_channels(x, data_format)
    shape = _channel_shape(len(x.shape), data_format)
    mean = constant(-np.array(_MEAN[mode]), dtypes.float32)
    x = x + array_ops.reshape(cast_ops.cast(mean, x.dtype), shape)
    if mode in _STD:
        x = x / array_ops.reshape(constant(np.array(_STD[mode]), x.dtype), shape)
    return x


# the model modules, each exporting `decode_predictions` under its name
_MODULES = ("resnet50", "resnet", "resnet_v2", "vgg16", "vgg19", "mobilenet", "mobilenet_v2",
            "mobilenet_v3", "densenet", "xception", "inception_v3", "inception_resnet_v2",
            "efficientnet", "efficientnet_v2", "convnext", "regnet", "nasnet", "resnet_rs")
# those whose models normalize their own inputs: `preprocess_input` passes them through
_SELF_NORMALIZING = ("mobilenet_v3", "efficientnet", "efficientnet_v2", "convnext", "regnet",
                     "resnet_rs")


@export("keras.applications.imagenet_utils.decode_predictions",
        *(f"keras.applications.{module}.decode_predictions" for module in _MODULES))
def decode_predictions(preds, top=5):
    """The `top` classes of each row of ImageNet predictions ``(samples, 1000)``, as lists of
    ``(wordnet id, class name, score)``, best first. The class index is downloaded into
    ``~/.keras/models`` the first time."""
    global CLASS_INDEX
    preds = np.asarray(preds)
    if len(preds.shape) != 2 or preds.shape[1] != 1000:
        raise ValueError("`decode_predictions` expects a batch of predictions (i.e. a 2D array "
                         "of shape (samples, 1000)). Found array with shape: "
                         + str(preds.shape))
    if CLASS_INDEX is None:
        path = data_utils.get_file("imagenet_class_index.json", CLASS_INDEX_PATH,
                                   cache_subdir="models",
                                   file_hash="c2c37ea517e94d9795004a39431a14cb")
        with open(path) as f:
            CLASS_INDEX = json.load(f)
    results = []
    for pred in preds:
        best = pred.argsort()[-top:][::-1]
        result = [tuple(CLASS_INDEX[str(i)]) + (pred[i],) for i in best]
        result.sort(key=lambda row: row[2], reverse=True)
        results.append(result)
    return results


@export(*(f"keras.applications.{module}.preprocess_input" for module in _SELF_NORMALIZING))
def unchanged_input(x, data_format=None):  # noqa: ARG001
    """`x` as it is: the `preprocess_input` of the models that scale and normalize their
    inputs themselves (``include_preprocessing``: MobileNetV3, EfficientNet and
    EfficientNetV2, ConvNeXt, RegNet, ResNet-RS).

    >>> tf.keras.applications.efficientnet.preprocess_input(np.array([255.0]))
    array([255.])
    """
    return x


def check_weights(weights, include_top, classes, weights_note=".", classes_note=""):
    """Raises TF's ValueError for a `weights` that is neither None, 'imagenet' nor a file,
    or for ImageNet weights with a top of other than 1000 classes (each model words the
    end of the messages its own way: `weights_note`, `classes_note`)."""
    if not (weights in {"imagenet", None} or os.path.exists(weights)):
        raise ValueError("The `weights` argument should be either `None` (random "
                         "initialization), `imagenet` (pre-training on ImageNet), or the path "
                         "to the weights file to be loaded" + weights_note)
    if weights == "imagenet" and include_top and classes != 1000:
        raise ValueError('If using `weights` as `"imagenet"` with `include_top` as true, '
                         "`classes` should be 1000" + classes_note)


def obtain_input_shape(input_shape, default_size, min_size, data_format, require_flatten,
                       weights=None):
    """The model's input shape (without the batch): `input_shape` checked against the
    model's minimum size, or the default one (with unknown rows and columns where a model
    without a top can take any size)."""
    channels_first = data_format == "channels_first"
    if weights != "imagenet" and input_shape and len(input_shape) == 3:
        channels = input_shape[0] if channels_first else input_shape[-1]
        if channels not in {1, 3}:
            warnings.warn("This model usually expects 1 or 3 input channels. However, it was "
                          f"passed an input_shape with {channels} input channels.",
                          stacklevel=3)
        default_shape = ((channels, default_size, default_size) if channels_first else
                         (default_size, default_size, channels))
    else:
        default_shape = (3, default_size, default_size) if channels_first else \
            (default_size, default_size, 3)
    if weights == "imagenet" and require_flatten:
        if input_shape is not None and input_shape != default_shape:
            raise ValueError("When setting `include_top=True` and loading `imagenet` weights, "
                             f"`input_shape` should be {default_shape}.  "
                             f"Received: input_shape={input_shape}")
        return default_shape
    if input_shape:
        if len(input_shape) != 3:
            raise ValueError("`input_shape` must be a tuple of three integers.")
        channels = input_shape[0] if channels_first else input_shape[-1]
        if channels != 3 and weights == "imagenet":
            raise ValueError(f"The input must have 3 channels; Received "
                             f"`input_shape={input_shape}`")
        spatial = input_shape[1:] if channels_first else input_shape[:2]
        if any(size is not None and size < min_size for size in spatial):
            raise ValueError(f"Input size must be at least {min_size}x{min_size}; Received: "
                             f"input_shape={input_shape}")
    elif require_flatten:
        input_shape = default_shape
    else:
        input_shape = (3, None, None) if channels_first else (None, None, 3)
    if require_flatten and None in input_shape:
        raise ValueError("If `include_top` is True, you should specify a static `input_shape`. "
                         f"Received: input_shape={input_shape}")
    return input_shape


def model_input(input_shape, input_tensor, include_top, weights, default_size=224,
                min_size=32):
    """The model's input shape (`input_shape` checked, or the default one: see
    `obtain_input_shape`) and its input (see `image_input`)."""
    input_shape = obtain_input_shape(input_shape, default_size, min_size,
                                     backend.image_data_format(), include_top, weights)
    return input_shape, image_input(input_shape, input_tensor)


def correct_pad(inputs, kernel_size):
    """The zero padding before a strided 'valid' convolution that centres its windows as
    'same' padding would on an odd input."""
    start = 2 if backend.image_data_format() == "channels_first" else 1
    size = backend.int_shape(inputs)[start:start + 2]
    if isinstance(kernel_size, int):
        kernel_size = (kernel_size, kernel_size)
    adjust = (1, 1) if size[0] is None else (1 - size[0] % 2, 1 - size[1] % 2)
    half = (kernel_size[0] // 2, kernel_size[1] // 2)
    return ((half[0] - adjust[0], half[0]), (half[1] - adjust[1], half[1]))


def validate_activation(classifier_activation, weights):
    """Pretrained weights only go with a softmax (or no) activation on the top."""
    if weights is None:
        return
    classifier_activation = activations.get(classifier_activation)
    if classifier_activation not in {activations.get("softmax"), activations.get(None)}:
        raise ValueError("Only `None` and `softmax` activations are allowed for the "
                         "`classifier_activation` argument when using pretrained weights, "
                         "with `include_top=True`; Received: "
                         f"classifier_activation={classifier_activation}")


def image_input(input_shape, input_tensor):
    """The model's input: a new `Input`, or `input_tensor` (a Keras tensor, or a tensor an
    `Input` is made from)."""
    if input_tensor is None:
        return input_layer.Input(shape=input_shape)
    if not keras_tensor.is_keras_tensor(input_tensor):
        return input_layer.Input(tensor=input_tensor, shape=input_shape)
    return input_tensor


def source_inputs(tensor):
    """The `Input`s a Keras tensor is computed from (the model's inputs when it is passed as
    `input_tensor`)."""
    found, seen, stack = [], set(), [tensor]
    while stack:
        t = stack.pop()
        history = getattr(t, "_keras_history", None)
        if history is None:
            continue
        layer, index, _ = history
        node = layer._inbound_nodes[index]
        if not node.keras_inputs:  # an input layer's node
            if id(t) not in seen:
                seen.add(id(t))
                found.append(t)
            continue
        stack.extend(reversed(node.keras_inputs))
    return found[0] if len(found) == 1 else found


def load_weights(model, weights, bucket_path, file_hash=None, base=None, fname=None):
    """Loads `weights` (a file path, or 'imagenet': `bucket_path` in Keras's applications
    bucket, or under the URL `base`, downloaded into ``~/.keras/models`` the first time, as
    `fname` if given) into `model`."""
    if weights == "imagenet":
        path = data_utils.get_file(fname or bucket_path.rpartition("/")[2],
                                   (base or BASE_WEIGHTS_PATH) + bucket_path,
                                   cache_subdir="models",
                                   file_hash=file_hash)
        model.load_weights(path)
    elif weights is not None:
        model.load_weights(weights)



def standardize(x):
    """`x` (RGB images in [0, 1]) standardized by ImageNet's mean and variance of each
    colour, in a `Normalization` layer (of the models that preprocess their own inputs)."""
    return preprocessing.Normalization(mean=list(_MEAN["torch"]),
                                       variance=[std ** 2 for std in _STD["torch"]],
                                       axis=channel_axis())(x)


def channel_axis():
    """The axis of an image's channels under the current `image_data_format`."""
    return 1 if backend.image_data_format() == "channels_first" else 3


def top(x, include_top, pooling, classes, classifier_activation, weights, names=(None, None),
        top_pool="avg_pool"):
    """The end of a classification model: global average pooling and a `classes`-way
    ``predictions`` layer, or without the top, the `pooling` asked for (None, ``"avg"`` or
    ``"max"``). `names`: those of the average and max pooling layers (None: automatic);
    with the top, the average pooling is named `top_pool`."""
    if include_top:
        x = pooling_layers.GlobalAveragePooling2D(name=top_pool)(x)
        validate_activation(classifier_activation, weights)
        return core.Dense(classes, activation=classifier_activation, name="predictions")(x)
    if pooling == "avg":
        return pooling_layers.GlobalAveragePooling2D(name=names[0])(x)
    if pooling == "max":
        return pooling_layers.GlobalMaxPooling2D(name=names[1])(x)
    return x


def model(img_input, input_tensor, x, name):
    """The functional model from the image input (or `input_tensor`'s sources) to `x`."""
    inputs = img_input if input_tensor is None else source_inputs(input_tensor)
    return training.Model(inputs, x, name=name)
