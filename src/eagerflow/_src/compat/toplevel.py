"""TF 2 top-level names kept from TF 1: ``tf.control_dependencies`` and ``tf.get_logger``.

>>> with tf.control_dependencies([tf.constant(1)]):
...     tf.constant(2)
<tf.Tensor: shape=(), dtype=int32, numpy=2>
>>> tf.get_logger().name
'tensorflow'
"""
import contextlib

from eagerflow._src.backend.api_export import export


@export("control_dependencies")
def control_dependencies(control_inputs):
    """A block whose ops run after `control_inputs` (operations or tensors).

    Eagerly every op has already run, so the block does nothing; a `function`
    runs its stateful ops in program order (automatic control dependencies),
    so there too the block adds nothing. In a TF 1 graph it adds control
    edges (``Graph.control_dependencies``).
    """
    from eagerflow._src.compat import graph_mode  # noqa: PLC0415 (graph mode loads on use)
    graph = graph_mode.v1_graph()
    if graph is not None:
        return graph.control_dependencies(control_inputs)
    return contextlib.nullcontext()


@export("get_logger")
def get_logger():
    """TF's logger: the standard library's ``logging`` logger named ``tensorflow``, with a
    ``LEVEL:tensorflow:message`` stderr handler when the root logger has none."""
    from eagerflow._src.backend import log  # noqa: PLC0415
    return log.get_logger()
