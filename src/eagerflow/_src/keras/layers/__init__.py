"""Keras layers (``tf.keras.layers``): every layer class by name, and their (de)serialization.

>>> type(tf.keras.layers.deserialize({"class_name": "Dense", "config": {"units": 2}})).__name__
'Dense'
"""
import importlib

from eagerflow._src.keras.engine.base_layer import Layer
from eagerflow._src.keras.engine.input_layer import InputLayer
from eagerflow._src.keras.utils import serialization

# The modules defining layer classes; each contributes every Layer subclass it defines.
_FAMILIES = ("core", "convolutional", "pooling", "reshaping", "normalization",
             "preprocessing", "merging", "attention", "activation", "regularization",
             "recurrent", "wrappers", "masking", "einsum_dense", "tf_op_layers")


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
    from eagerflow._src.keras.engine import functional, sequential, training  # noqa: PLC0415
    return {"Model": training.Model, "Functional": functional.Functional,
            "Sequential": sequential.Sequential}


def serialize(layer):
    """``{'module', 'class_name', 'config', 'registered_name'}`` of `layer`."""
    return serialization.serialize_keras_object(layer, module="keras.layers")


def deserialize(config, custom_objects=None):
    """The layer (or model) a `serialize`d config describes."""
    return serialization.deserialize_keras_object(
        config, {**_layer_classes(), **_models()}, custom_objects, "layer")
