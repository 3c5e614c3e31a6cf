"""Sequence preprocessing (``tf.keras.preprocessing.sequence``)."""
from eagerflow._src.keras.utils.data_utils import pad_sequences  # noqa: F401
