"""Keras models (``tf.keras.models``)."""
from eagerflow._src.keras.engine.functional import Functional  # noqa: F401
from eagerflow._src.keras.engine.sequential import Sequential  # noqa: F401
from eagerflow._src.keras.engine.training import Model  # noqa: F401
from eagerflow._src.keras.models import clone_model, model_from_config  # noqa: F401
from eagerflow._src.keras.saving.saving_lib import (  # noqa: F401
    load_model, model_from_json, save_model)
