"""AutoGraph: Python control flow on tensors turned into graph control flow (``tf.autograph``)."""
from eagerflow._src.autograph.api import (  # noqa: F401
    set_verbosity, to_code, to_graph, trace)
from eagerflow.autograph import experimental  # noqa: F401
