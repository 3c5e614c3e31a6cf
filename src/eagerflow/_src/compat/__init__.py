"""TF's ``tf.compat`` namespaces: what TF 2 keeps of TF 1's API."""
