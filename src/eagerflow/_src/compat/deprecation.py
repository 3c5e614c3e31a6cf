"""``tensorflow.python.util.deprecation``: what programs import from it (TensorBoard's
event reader silences TF's deprecation warnings with `silence` while it opens a file)."""
import contextlib

from eagerflow._src.backend.api_export import export


@export("python.util.deprecation.silence")
@contextlib.contextmanager
def silence():
    """A context manager inside which TF's deprecation warnings are not printed (eagerflow
    prints none: the block runs as it is).

    >>> from eagerflow.python.util import deprecation
    >>> with deprecation.silence():
    ...     print("quiet")
    quiet
    """
    yield
