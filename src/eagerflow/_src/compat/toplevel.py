"""TF 2 top-level names kept from TF 1: ``tf.control_dependencies`` and ``tf.get_logger``.

>>> with tf.control_dependencies([tf.constant(1)]):
...     tf.constant(2)
<tf.Tensor: shape=(), dtype=int32, numpy=2>
>>> tf.get_logger().name
'tensorflow'
"""
import contextlib

from eagerflow._src.backend.api_export import export
from eagerflow._src.core import context


@export("control_dependencies")
def control_dependencies(control_inputs):
    """A block whose ops run after `control_inputs` (operations or tensors).

    Eagerly every op has already run, so the block does nothing. In a graph it adds
    control edges (``Graph.control_dependencies``), which a `function`'s ops record
    though it runs its stateful ops in program order anyway (automatic control
    dependencies).
    """
    graph = context.get().graph
    if graph is not None:
        return graph.control_dependencies(control_inputs)
    return contextlib.nullcontext()


@export("get_logger")
def get_logger():
    """TF's logger: the standard library's ``logging`` logger named ``tensorflow``, with a
    ``LEVEL:tensorflow:message`` stderr handler when the root logger has none."""
    from eagerflow._src.backend import log  # noqa: PLC0415
    return log.get_logger()
