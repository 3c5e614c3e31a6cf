"""Keras's small datasets (``tf.keras.datasets``), downloaded once into Keras's cache."""
