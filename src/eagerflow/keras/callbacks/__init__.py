"""Keras callbacks (``tf.keras.callbacks``)."""
from eagerflow._src.keras.callbacks import *  # noqa: F401,F403
from eagerflow._src.keras.callbacks import Callback, CallbackList, History, ProgbarLogger  # noqa: F401
