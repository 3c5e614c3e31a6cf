"""Keras's ImageNet models (``tf.keras.applications``): ResNet50, MobileNetV2 and VGG16,
built layer for layer as tf_keras builds them, so that their weights files load."""
from eagerflow._src.keras.applications import imagenet_utils, mobilenet_v2, resnet, vgg16  # noqa: F401
from eagerflow._src.keras.applications import mobilenet  # noqa: F401
from eagerflow._src.keras.applications import mobilenet_v3  # noqa: F401
from eagerflow._src.keras.applications import efficientnet  # noqa: F401
from eagerflow._src.keras.applications import efficientnet_v2  # noqa: F401
