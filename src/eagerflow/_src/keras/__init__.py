"""Keras (tf_keras / Keras 2 semantics) built on eagerflow's ops, tapes and `function`."""
from eagerflow._src.backend.api_export import export

__version__ = "2.21.0"
export("keras.__version__").export_constant(__name__, "__version__")
