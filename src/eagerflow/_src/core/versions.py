"""``tf.version``: the TensorFlow API version eagerflow implements.

Programs compare ``tf.__version__`` to decide which API to use; eagerflow
answers with the TensorFlow release whose API and printed behaviour it
follows.  Its own release is the package's metadata
(``importlib.metadata.version("eagerflow")``).
"""
from eagerflow._src.backend.api_export import export

VERSION = "2.21.0"
GIT_VERSION = "v2.21.0"
COMPILER_VERSION = ""  # nothing compiled: eagerflow is Python over NumPy
export("version.VERSION", "__version__", "compat.v1.__version__",
       "compat.v2.__version__").export_constant(__name__, "VERSION")
export("version.GIT_VERSION").export_constant(__name__, "GIT_VERSION")
export("version.COMPILER_VERSION").export_constant(__name__, "COMPILER_VERSION")
GRAPH_DEF_VERSION = 2474  # the GraphDef producer version TF 2.21 writes
GRAPH_DEF_VERSION_MIN_CONSUMER = 0
GRAPH_DEF_VERSION_MIN_PRODUCER = 0
export("version.GRAPH_DEF_VERSION").export_constant(__name__, "GRAPH_DEF_VERSION")
export("version.GRAPH_DEF_VERSION_MIN_CONSUMER").export_constant(
    __name__, "GRAPH_DEF_VERSION_MIN_CONSUMER")
export("version.GRAPH_DEF_VERSION_MIN_PRODUCER").export_constant(
    __name__, "GRAPH_DEF_VERSION_MIN_PRODUCER")


@export("sysconfig.get_build_info")
def get_build_info():
    """How this TensorFlow was built, as a CPU-only build reports it.

    >>> tf.sysconfig.get_build_info()["is_cuda_build"]
    False
    """
    import collections  # noqa: PLC0415
    return collections.OrderedDict([("cpu_compiler", ""), ("is_cuda_build", False),
                                    ("is_rocm_build", False), ("is_tensorrt_build", False)])
