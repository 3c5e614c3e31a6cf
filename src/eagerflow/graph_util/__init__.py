"""Graph utilities (``tf.graph_util``)."""
from eagerflow._src.compat.v1 import import_graph_def  # noqa: F401
