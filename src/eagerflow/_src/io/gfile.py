"""`tf.io.gfile`: file system access with TensorFlow's errors, on local paths (plain or
``file://`` URIs) and ``ram://``, the in-memory file system (see `ops.file_system`).

Errors are TF's classes and messages (``NotFoundError: <path>; No such file or
directory``) rather than Python's `OSError`s.

>>> import os, tempfile
>>> folder = tempfile.mkdtemp()
>>> with tf.io.gfile.GFile(os.path.join(folder, "a.txt"), "w") as f:
...     _ = f.write("one\\ntwo\\n")
>>> tf.io.gfile.listdir(folder), list(tf.io.gfile.GFile(os.path.join(folder, "a.txt")))
(['a.txt'], ['one\\n', 'two\\n'])
"""
import os
import shutil

from eagerflow._src.backend.api_export import export
from eagerflow._src.core import errors
from eagerflow._src.ops.file_system import copy_between, file_in_the_way, resolve
from eagerflow._src.ops.io_ops import match_files, os_error


def _path(path):
    path = os.fspath(path)
    return path.decode("utf-8", "surrogateescape") if isinstance(path, bytes) else path


@export("io.gfile.exists", "compat.v1.gfile.Exists")
def exists(path):
    """Whether `path` exists (a file or a directory)."""
    fs, path = resolve(path)
    return fs.exists(path)


@export("io.gfile.isdir", "compat.v1.gfile.IsDirectory")
def isdir(path):
    """Whether `path` is a directory."""
    fs, path = resolve(path)
    return fs.isdir(path)


@export("io.gfile.glob", "compat.v1.gfile.Glob")
def glob(pattern):
    """The paths matching `pattern` (a string or a list of them), hidden files too, in the
    order the directories list them (unsorted, as in TF)."""
    patterns = [pattern] if isinstance(pattern, (str, bytes, os.PathLike)) else pattern
    return [p for one in patterns for p in match_files(_path(one))]


@export("io.gfile.listdir", "compat.v1.gfile.ListDirectory")
def listdir(path):
    """The names of the entries of directory `path` (not `.` and `..`), in the directory's
    order (unsorted, as in TF)."""
    fs, name = resolve(path)
    if not fs.isdir(name):
        raise errors.NotFoundError(None, None, f"Could not find directory {_path(path)}")
    return fs.listdir(name)


@export("io.gfile.mkdir", "compat.v1.gfile.MkDir")
def mkdir(path):
    """Makes directory `path`; its parent must exist (where `path` exists already, file
    or directory, nothing is done, as in TF)."""
    fs, path = resolve(path)
    try:
        fs.mkdir(path)
    except FileExistsError:
        pass
    except OSError as e:
        raise os_error(e, path) from None


@export("io.gfile.makedirs", "compat.v1.gfile.MakeDirs")
def makedirs(path):
    """Makes directory `path` and any parents it lacks."""
    fs, path = resolve(path)
    blocking = file_in_the_way(fs, path)
    if blocking is not None:
        raise errors.FailedPreconditionError(None, None, f"{blocking} is not a directory")
    try:
        fs.makedirs(path)
    except OSError as e:
        raise os_error(e, path) from None


@export("io.gfile.remove", "compat.v1.gfile.Remove")
def remove(path):
    """Deletes file `path` (a directory is FailedPreconditionError)."""
    fs, path = resolve(path)
    try:
        if fs.isdir(path):
            raise IsADirectoryError(21, "Is a directory")
        fs.remove(path)
    except OSError as e:
        raise os_error(e, path) from None


@export("io.gfile.rmtree", "compat.v1.gfile.DeleteRecursively")
def rmtree(path):
    """Deletes directory `path` and everything under it."""
    fs, path = resolve(path)
    if not fs.exists(path):
        raise errors.NotFoundError(None, None, f"{path} not found")
    try:
        fs.rmtree(path)
    except OSError as e:
        raise os_error(e, path) from None


def _check_target(fs, dst, overwrite):
    if not overwrite and fs.exists(dst):
        raise errors.AlreadyExistsError(None, None, "file already exists")


@export("io.gfile.copy", "compat.v1.gfile.Copy")
def copy(src, dst, overwrite=False):
    """Copies file `src` to `dst` (AlreadyExistsError if it exists, unless `overwrite`)."""
    (src_fs, src), (dst_fs, dst) = resolve(src), resolve(dst)
    _check_target(dst_fs, dst, overwrite)
    try:
        copy_between(src_fs, src, dst_fs, dst)
    except shutil.SameFileError:
        # TF opens the target for writing (truncating it) before it reads the source
        dst_fs.open(dst, "wb").close()
    except FileNotFoundError as e:
        raise os_error(e, src if not src_fs.exists(src) else dst) from None
    except OSError as e:
        raise os_error(e, src) from None


@export("io.gfile.rename", "compat.v1.gfile.Rename")
def rename(src, dst, overwrite=False):
    """Renames (moves) `src` to `dst` (AlreadyExistsError if it exists, unless
    `overwrite`)."""
    (src_fs, src), (dst_fs, dst) = resolve(src), resolve(dst)
    _check_target(dst_fs, dst, overwrite)
    try:
        if src_fs is dst_fs:
            src_fs.replace(src, dst)
        else:
            copy(src, dst, overwrite=True)
            src_fs.remove(src)
    except OSError as e:
        raise os_error(e, src) from None


class FileStatistics:
    """What `stat` tells of a file: ``length`` (bytes), ``mtime_nsec``, ``is_directory``."""

    __slots__ = ("length", "mtime_nsec", "is_directory")

    def __init__(self, length, mtime_nsec, is_directory):
        self.length, self.mtime_nsec, self.is_directory = length, mtime_nsec, is_directory


@export("io.gfile.stat", "compat.v1.gfile.Stat")
def stat(path):
    """The `FileStatistics` of `path`."""
    fs, path = resolve(path)
    try:
        return FileStatistics(*fs.stat(path))
    except OSError as e:
        raise os_error(e, path) from None


@export("io.gfile.walk", "compat.v1.gfile.Walk")
def walk(top, topdown=True, onerror=None):
    """Yields ``(directory, subdirectories, files)`` for `top` and each directory under
    it; nothing for a `top` that does not exist."""
    top = _path(top)
    fs, name = resolve(top)
    try:
        names = fs.listdir(name)
    except OSError as e:
        if onerror is not None:
            onerror(os_error(e, top))
        return
    dirs = [n for n in names if fs.isdir(os.path.join(name, n))]
    files = [n for n in names if n not in dirs]
    if topdown:
        yield top, dirs, files
    for d in dirs:
        yield from walk(os.path.join(top, d), topdown, onerror)
    if not topdown:
        yield top, dirs, files


@export("io.gfile.get_registered_schemes")
def get_registered_schemes():
    """The URI schemes file names may start with (``ram://``, ``file://``; ``""`` for plain
    paths).

    >>> tf.io.gfile.get_registered_schemes()
    ['ram', 'file', '']
    """
    return ["ram", "file", ""]


@export("io.gfile.join")
def join(path, *paths):
    """`path` and `paths` joined with ``/``."""
    return os.path.join(_path(path), *map(_path, paths))


_MODES = ("r", "w", "a", "r+", "w+", "a+")


@export("io.gfile.GFile", "compat.v1.gfile.GFile", "compat.v1.gfile.Open")
class GFile:
    """A file of `name` opened in `mode` ("r", "w", "a", with "+" and "b" options).

    Text modes read and write `str` (UTF-8); binary ones `bytes`. Writes also take the
    other kind. The file opens on first use, so a missing file raises NotFoundError
    when read, as in TF.
    """

    def __init__(self, name, mode="r"):
        self._file = None
        if mode.replace("b", "") not in ("r", "w", "a", "r+", "w+", "a+"):
            raise errors.InvalidArgumentError(
                None, None, "mode is not 'r' or 'w' or 'a' or 'r+' or 'w+' or 'a+'")
        self._name = _path(name)
        self._fs, self._local_name = resolve(self._name)
        self._mode = mode
        self._binary = "b" in mode
        self._file = None

    name = property(lambda self: self._name)
    mode = property(lambda self: self._mode)

    def _open(self):
        if self._file is None:
            base = self._mode.replace("b", "")
            try:
                self._file = self._fs.open(self._local_name, base + "b")
            except OSError as e:
                raise os_error(e, self._name) from None
        return self._file

    def _text(self, data):
        return data if self._binary else data.decode("utf-8")

    def _check(self, kind):
        base = self._mode.replace("b", "")
        if base not in _MODES:
            raise errors.InvalidArgumentError(
                None, None, "mode is not 'r' or 'w' or 'a' or 'r+' or 'w+' or 'a+'")
        if kind == "r" and not (base.startswith("r") or "+" in base):
            raise errors.PermissionDeniedError(None, None, "File isn't open for reading")
        if kind == "w" and base == "r":
            raise errors.PermissionDeniedError(None, None, "File isn't open for writing")

    def read(self, n=-1):
        """Up to `n` bytes (all that is left for -1), as str in text modes."""
        self._check("r")
        return self._text(self._open().read(-1 if n is None else n))

    def readline(self):
        """The next line, with its newline and without any carriage return (as TF's line
        reader skips them); empty at the end."""
        self._check("r")
        return self._text(_without_returns(self._open().readline()))

    def readlines(self):
        self._check("r")
        lines = (_without_returns(line) for line in self._open().readlines())
        return [self._text(line) for line in lines if line]

    def __iter__(self):
        return self

    def __next__(self):
        line = self.readline()
        if not line:
            raise StopIteration
        return line

    next = __next__

    def write(self, file_content):
        """Writes `file_content` (str as UTF-8, or bytes)."""
        self._check("w")
        if isinstance(file_content, str):
            file_content = file_content.encode("utf-8")
        self._open().write(file_content)

    def seek(self, offset=None, whence=0, position=None):
        if position is not None:
            offset = position
        self._open().seek(offset, whence)

    def tell(self):
        return self._open().tell()

    def size(self):
        """The file's length in bytes."""
        if self._file is not None:
            self._file.flush()
        return stat(self._name).length

    def seekable(self):
        return True

    def flush(self):
        if self._file is not None:
            self._file.flush()

    def close(self):
        if self._file is not None:
            self._file.close()
            self._file = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def __del__(self):
        self.close()


def _without_returns(line):
    return line.replace(b"\r", b"") if isinstance(line, bytes) else line.replace("\r", "")
