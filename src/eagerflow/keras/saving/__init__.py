"""Saving and loading Keras models (``tf.keras.saving``)."""
from eagerflow._src.keras.saving.saving_lib import load_model, save_model  # noqa: F401
from eagerflow._src.keras.utils.serialization import (  # noqa: F401
    custom_object_scope, deserialize_keras_object, get_custom_objects, get_registered_name,
    get_registered_object, register_keras_serializable, serialize_keras_object)
