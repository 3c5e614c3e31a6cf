"""TF 1's API kept in TF 2 (``tf.compat.v1``): running frozen graphs, `Dimension`."""
from eagerflow._src.compat import v1 as _v1
from eagerflow._src.compat.v1 import import_graph_def, wrap_function  # noqa: F401
from eagerflow._src.core.tensor_shape import Dimension  # noqa: F401
from eagerflow.compat.v1 import graph_util  # noqa: F401


def __getattr__(name):
    # The protobuf messages load on first use, keeping ``import eagerflow`` free of protobuf.
    if name in _v1.MESSAGES:
        return _v1.message(name)
    raise AttributeError(f"module 'eagerflow.compat.v1' has no attribute {name!r}")
