"""Feature columns (``tf.feature_column``): how a dict of raw features becomes dense tensors."""
