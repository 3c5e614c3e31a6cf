"""SavedModel: objects with their functions and variables, in TensorFlow's format (``tf.saved_model``)."""
