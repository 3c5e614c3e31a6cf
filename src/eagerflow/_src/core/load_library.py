"""``tf.load_op_library`` / ``tf.load_library``: TF's custom-op shared libraries.

A library of compiled TF kernels registers them with TF's C++ runtime, which eagerflow
does not have: a file that is a library is an `UnimplementedError`; one that is missing
or no library at all fails as TF's loader does (`NotFoundError`, `FileNotFoundError`).

>>> try:
...     tf.load_op_library("/no/such/ops.so")
... except tf.errors.NotFoundError as e:
...     print(e.message)
/no/such/ops.so: cannot open shared object file: No such file or directory
"""
import errno
import os

from eagerflow._src.backend.api_export import export
from eagerflow._src.core import errors


def _check_library(path):
    """TF's NotFoundError for a `path` its loader cannot open, else eagerflow's refusal."""
    if not os.path.exists(path):
        raise errors.NotFoundError(
            None, None, f"{path}: cannot open shared object file: No such file or directory")
    if os.path.isdir(path):
        raise errors.NotFoundError(None, None,
                                   f"{path}: cannot read file data: Is a directory")
    with open(path, "rb") as f:
        magic = f.read(4)
    if magic != b"\x7fELF":
        message = "invalid ELF header" if len(magic) == 4 else "file too short"
        raise errors.NotFoundError(None, None, f"{path}: {message}")
    raise errors.UnimplementedError(
        None, None, f"{path}: eagerflow cannot load TensorFlow kernel libraries (it runs no "
                    f"compiled TensorFlow kernels); write the op in Python instead.")


@export("load_op_library")
def load_op_library(library_filename):
    """Loads TF's custom-op library `library_filename`: always an error here (see module)."""
    _check_library(os.fspath(library_filename))


@export("load_library")
def load_library(library_location):
    """Loads TF's kernel library `library_location`, or every ``.so`` file of that folder:
    an error for each here (see module); an empty folder loads nothing."""
    library_location = os.fspath(library_location)
    if not os.path.exists(library_location) or not library_location:
        raise FileNotFoundError(
            errno.ENOENT, "The file or folder to load kernel libraries from does not exist.",
            library_location)
    if os.path.isdir(library_location):
        for name in sorted(os.listdir(library_location)):
            path = os.path.join(library_location, name)
            if name.endswith(".so") and os.path.isfile(path):
                _check_library(path)
        return
    _check_library(library_location)
