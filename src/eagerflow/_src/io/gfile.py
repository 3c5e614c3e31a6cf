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
import io
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
    target = _path(dst)
    (src_fs, src), (dst_fs, dst) = resolve(src), resolve(dst)
    _check_target(dst_fs, dst, overwrite)
    if src_fs.isdir(src):  # (TF names the target: a directory cannot be read into it)
        raise errors.InvalidArgumentError(None, None, f"{target}; Invalid argument")
    try:
        copy_between(src_fs, src, dst_fs, dst)
    except shutil.SameFileError:
        # TF opens the target for writing (truncating it) before it reads the source
        dst_fs.open(dst, "wb").close()
    except FileNotFoundError as e:
        raise os_error(e, src if not src_fs.exists(src) else dst) from None
    except IsADirectoryError as e:  # (the target, as the source is not one)
        raise os_error(e, target) from None
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
    """`path` and `paths` joined with ``/`` (bytes if `path` is bytes, as in TF)."""
    joined = os.path.join(_path(path), *map(_path, paths))
    return joined.encode("utf-8", "surrogateescape") if isinstance(path, bytes) else joined


_MODES = ("r", "w", "a", "r+", "w+", "a+")


@export("io.gfile.GFile", "compat.v1.gfile.GFile", "compat.v1.gfile.Open")
class GFile:
    """A file of `name` opened in `mode` ("r", "w", "a", with "+" and "b" options).

    Text modes read and write `str` (UTF-8); binary ones `bytes`. Writes also take the
    other kind. As in TF, reading and writing are two streams, each opened on first use:
    a missing file raises NotFoundError when first read, and the first write truncates
    the file (or appends, in "a" modes) even in "r+" mode; `seek` and `tell` move the
    reading position where the mode reads.

    >>> path = tf.io.gfile.join(tf.compat.v1.test.get_temp_dir(), "gfile_doc.txt")
    >>> with tf.io.gfile.GFile(path, "w") as f:
    ...     f.write("one\\ntwo\\n")
    >>> with tf.io.gfile.GFile(path) as f:
    ...     f.readlines()
    ['one\\n', 'two\\n']
    """

    def __init__(self, name, mode="r"):
        self._reader = self._writer = None
        base = mode.replace("b", "")
        if base not in _MODES:
            raise errors.InvalidArgumentError(
                None, None, "mode is not 'r' or 'w' or 'a' or 'r+' or 'w+' or 'a+'")
        self._name = _path(name)
        self._fs, self._local_name = resolve(self._name)
        self._mode = mode
        self._binary = "b" in mode
        self._readable = base.startswith("r") or "+" in base
        self._writable = base != "r"
        self._append = base.startswith("a")

    name = property(lambda self: self._name)
    mode = property(lambda self: self._mode)

    def _open(self, mode):
        try:
            return self._fs.open(self._local_name, mode)
        except OSError as e:
            raise os_error(e, self._name) from None

    def _read_stream(self):
        if self._reader is None:
            if not self._readable:
                raise errors.PermissionDeniedError(None, None, "File isn't open for reading")
            self._reader = self._open("rb")
        return self._reader

    def _write_stream(self):
        if self._writer is None:
            if not self._writable:
                raise errors.PermissionDeniedError(None, None, "File isn't open for writing")
            self._writer = self._open("ab" if self._append else "wb")
        return self._writer

    def _text(self, data):
        return data if self._binary else data.decode("utf-8")

    def read(self, n=-1):
        """Up to `n` bytes (all that is left for -1), as str in text modes."""
        return self._text(self._read_stream().read(-1 if n is None else n))

    def readline(self):
        """The next line, with its newline and without any carriage return (as TF's line
        reader skips them); empty at the end."""
        return self._text(_without_returns(self._read_stream().readline()))

    def readlines(self):
        lines = (_without_returns(line) for line in self._read_stream().readlines())
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
        if isinstance(file_content, str):
            file_content = file_content.encode("utf-8")
        self._write_stream().write(file_content)

    def seek(self, offset=None, whence=0, position=None):
        """Moves the reading position to `offset` from the start (`whence` 0), the current
        position (1) or the end (2); past the end raises OutOfRangeError."""
        if position is not None:
            offset = position
        f = self._read_stream()
        if whence not in (0, 1, 2):
            raise errors.InvalidArgumentError(None, None,
                                              f"Invalid whence argument: {whence}. "
                                              "Valid values are 0, 1, or 2.")
        here = f.tell()
        end = f.seek(0, io.SEEK_END)
        target = offset + (0, here, end)[whence]
        if target > end:
            raise errors.OutOfRangeError(None, None, "reached end of file")
        f.seek(max(target, 0))

    def tell(self):
        """The reading position in modes that read, else the writing one."""
        return (self._read_stream() if self._readable else self._write_stream()).tell()

    def size(self):
        """The file's length in bytes (as stored: writes not yet flushed don't count)."""
        return stat(self._name).length

    def seekable(self):
        return True

    def flush(self):
        if self._writer is not None:
            self._writer.flush()

    def close(self):
        for f in (self._reader, self._writer):
            if f is not None:
                f.close()
        self._reader = self._writer = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def __del__(self):
        self.close()


def _without_returns(line):
    return line.replace(b"\r", b"") if isinstance(line, bytes) else line.replace("\r", "")
