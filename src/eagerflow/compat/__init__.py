"""Compatibility namespaces (``tf.compat``)."""
from eagerflow.compat import v1  # noqa: F401
