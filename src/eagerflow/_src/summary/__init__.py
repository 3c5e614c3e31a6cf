"""TensorBoard summaries (``tf.summary``): writers of TF's event files and the summary
functions. Built on the layers below and not on Keras (Keras's TensorBoard callback
uses it): `writer` holds the writers and the summary state, `summary_ops` the
summaries and the ``WriteSummary`` op, `protos` the event file messages, `profiler`
``tf.profiler.experimental``.
"""
from eagerflow._src.summary import profiler, summary_ops, writer  # noqa: F401
