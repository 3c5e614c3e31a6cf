"""Keras's ImageNet models (``tf.keras.applications``), built layer for layer as tf_keras
builds them, so that their weights files load."""
from eagerflow._src.keras.applications import convnext, densenet, efficientnet, \
    efficientnet_v2, imagenet_utils, inception_resnet_v2, inception_v3, mobilenet, \
    mobilenet_v2, mobilenet_v3, nasnet, regnet, resnet, resnet_rs, resnet_v2, vgg16, \
    xception  # noqa: F401
