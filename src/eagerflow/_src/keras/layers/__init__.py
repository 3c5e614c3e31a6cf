"""Keras layers (``tf.keras.layers``): every layer class by name, and their (de)serialization.

>>> type(tf.keras.layers.deserialize({"class_name": "Dense", "config": {"units": 2}})).__name__
'Dense'
"""
import importlib

from eagerflow._src.keras import late
from eagerflow._src.backend.api_export import export
from eagerflow._src.keras.engine.base_layer import Layer
from eagerflow._src.keras.engine.input_layer import InputLayer
from eagerflow._src.keras.utils import serialization

# The modules defining layer classes; each contributes every Layer subclass it defines.
_FAMILIES = ("core", "convolutional", "pooling", "reshaping", "normalization",
             "preprocessing", "merging", "attention", "activation", "regularization",
             "recurrent", "wrappers", "masking", "einsum_dense", "tf_op_layers",
             "preprocessing_lookup", "text_vectorization", "preprocessing_category",
             "image_augmentation", "conv_recurrent", "preprocessing_image", "feature_space",
             "dense_features", "kernelized", "cell_wrappers", "locally_connected")


def _layer_classes():
    table = {"Layer": Layer, "InputLayer": InputLayer}
    for family in _FAMILIES:
        try:
            module = importlib.import_module(f"{__name__}.{family}")
        except ModuleNotFoundError as e:
            if e.name != f"{__name__}.{family}":
                raise
            continue
        for name, value in vars(module).items():
            if isinstance(value, type) and issubclass(value, Layer) and not name.startswith("_"):
                table[name] = value
    return table


def _models():
    engine, premade = late.engine, late.premade_models  # models are built of layers: a tier above
    return {"Model": engine.training.Model, "Functional": engine.functional.Functional,
            "Sequential": engine.sequential.Sequential,
            "LinearModel": premade.LinearModel, "WideDeepModel": premade.WideDeepModel}


@export("keras.layers.serialize")
def serialize(layer, use_legacy_format=False):
    """``{'module', 'class_name', 'config', 'registered_name'}`` of `layer`."""
    return _IDENTIFIERS.serialize(layer, use_legacy_format)


@export("keras.layers.deserialize")
def deserialize(config, custom_objects=None, use_legacy_format=False):
    """The layer (or model) a `serialize`d config describes. In the legacy format (as
    `tf.keras.utils.legacy.deserialize_keras_object`) a Lambda's Python function loads."""
    if not config:
        raise ValueError(f"Cannot deserialize empty config. Received: config={config}")
    if use_legacy_format:
        return serialization.legacy_deserialize_keras_object(
            config, _IDENTIFIERS.objects(), custom_objects, "layer")
    return _IDENTIFIERS.deserialize(config, custom_objects)


_IDENTIFIERS = serialization.Identifiers("layer", lambda: {**_layer_classes(), **_models()},
                                         module="keras.layers")
