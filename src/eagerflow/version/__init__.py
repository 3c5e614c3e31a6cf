"""``tf.version``: the TensorFlow API version eagerflow implements.

Programs compare ``tf.__version__`` to decide which API to use; eagerflow
answers with the TensorFlow release whose API and printed behaviour it
follows.  Its own release is the package's metadata
(``importlib.metadata.version("eagerflow")``).

>>> import eagerflow as tf
>>> tf.version.VERSION == tf.__version__
True
"""
VERSION = "2.21.0"
GIT_VERSION = "v2.21.0"
COMPILER_VERSION = ""  # nothing compiled: eagerflow is Python over NumPy
