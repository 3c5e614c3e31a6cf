"""Keras's legacy NumPy image preprocessing (``tf.keras.preprocessing``)."""
