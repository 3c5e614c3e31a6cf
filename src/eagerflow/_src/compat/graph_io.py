"""`write_graph` (``tf.io.write_graph``): a graph's ``GraphDef`` written to a file, as text
or binary protobuf (the protobuf runtime loads on the first call)."""
from eagerflow._src.backend.api_export import export


@export("io.write_graph", "compat.v1.io.write_graph", "compat.v1.train.write_graph")
def write_graph(graph_or_graph_def, logdir, name, as_text=True):
    """Writes a graph (or ``GraphDef``) to ``logdir/name``, as text (``.pbtxt``) or as
    binary protobuf; makes `logdir` when missing; returns the path."""
    import os  # noqa: PLC0415
    graph_def = graph_or_graph_def
    if hasattr(graph_def, "as_graph_def"):
        graph_def = graph_def.as_graph_def()
    os.makedirs(logdir, exist_ok=True)
    path = os.path.join(logdir, name)
    if as_text:
        from google.protobuf import text_format  # noqa: PLC0415
        data = text_format.MessageToString(graph_def).encode("utf-8")
    else:
        data = graph_def.SerializeToString(deterministic=True)
    with open(path, "wb") as f:
        f.write(data)
    return path
