"""IMDB reviews (``tf.keras.datasets.imdb``)."""
from eagerflow._src.keras.datasets.imdb import get_word_index, load_data  # noqa: F401
