"""``tf.io.write_graph``: a graph's GraphDef written to a file, as text or binary."""
import os

from eagerflow._src.backend.api_export import export
from eagerflow._src.io import gfile


@export("io.write_graph", "compat.v1.io.write_graph", "compat.v1.train.write_graph")
def write_graph(graph_or_graph_def, logdir, name, as_text=True):
    """Writes `graph_or_graph_def` (a `Graph` or a GraphDef message) to ``logdir/name``,
    creating `logdir`, as a text proto or (``as_text=False``) binary; returns the path.

    >>> import tempfile
    >>> f = tf.function(lambda x: x + 1).get_concrete_function(tf.TensorSpec([]))
    >>> path = tf.io.write_graph(f.graph, tempfile.mkdtemp(), "g.pbtxt")
    >>> 'op: "AddV2"' in open(path).read()
    True
    """
    from google.protobuf import text_format  # noqa: PLC0415
    graph_def = graph_or_graph_def
    if hasattr(graph_def, "as_graph_def"):
        graph_def = graph_def.as_graph_def()
    logdir = os.fspath(logdir)
    if not logdir.startswith("gs:"):
        gfile.makedirs(logdir)
    path = os.path.join(logdir, name)
    if as_text:
        data = text_format.MessageToString(graph_def).encode()
    else:
        data = graph_def.SerializeToString(deterministic=True)
    temp = f"{path}.tmp{os.getpid()}"
    with open(temp, "wb") as f:  # written whole, then renamed: readers never see a part
        f.write(data)
    os.replace(temp, path)
    return path
