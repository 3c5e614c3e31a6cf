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
export("version.VERSION", "__version__").export_constant(__name__, "VERSION")
export("version.GIT_VERSION").export_constant(__name__, "GIT_VERSION")
export("version.COMPILER_VERSION").export_constant(__name__, "COMPILER_VERSION")
