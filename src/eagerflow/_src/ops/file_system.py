"""The file systems behind TF's file names: local files, as plain paths or ``file://`` URIs,
and ``ram://``, a file system held in this process's memory (as TF's, which Keras uses to
save models without touching the disk). Any other scheme is TF's UnimplementedError.

Each file system answers with `OSError`s as the local one does (``FileNotFoundError``
for a missing file ...), so that callers turn them into TF's errors in one place
(`io_ops.os_error`).

>>> fs, path = resolve("ram://notes/a.txt")
>>> fs.makedirs("ram://notes")
>>> with fs.open(path, "wb") as f:
...     _ = f.write(b"kept in memory")
>>> fs.listdir("ram://notes"), fs.open(path, "rb").read()
(['a.txt'], b'kept in memory')
"""
import fnmatch
import glob as _glob
import io
import os
import re
import shutil
import stat as _stat
import tempfile
import threading
import time

from eagerflow._src.core import errors

_SCHEME = re.compile(r"([A-Za-z][A-Za-z0-9+.\-]*)://")


def _clean(path):
    """`path` written plainly, as TF's local file system reads names: repeated and trailing
    slashes and ``.`` dropped, ``..`` taken lexically (``a.txt/`` is file ``a.txt``)."""
    return os.path.normpath(path) if path else path


def python_glob(pattern):
    """TF's glob `pattern`, as C's fnmatch reads it (a backslash makes the next character
    plain; ``[^...]`` is a negated class, like ``[!...]``), in Python's glob syntax.

    >>> python_glob(r"data/\\[1\\]-*.csv"), python_glob("f[^0-9].txt")
    ('data/[[]1]-*.csv', 'f[!0-9].txt')
    """
    out, i, n = [], 0, len(pattern)
    while i < n:
        c = pattern[i]
        if c == "\\" and i + 1 < n:
            plain = pattern[i + 1]
            out.append(f"[{plain}]" if plain in "*?[" else plain)
            i += 2
            continue
        end = _class_end(pattern, i) if c == "[" else None
        if end is None:
            out.append("[[]" if c == "[" else c)
            i += 1
            continue
        body = pattern[i + 1:end]
        negated = body[:1] in ("!", "^")
        body = re.sub(r"\\(.)", r"\1", body[negated:])
        if "]" in body:  # (Python's class takes a "]" only first)
            body = "]" + body.replace("]", "")
        if not negated and body[:1] == "!" and len(body) > 1:
            body = body[1:] + "!"  # (a plain "!" first would negate)
        out.append("[" + "!" * negated + body + "]")
        i = end + 1
    return "".join(out)


def _class_end(pattern, start):
    """Where the class opened by the "[" at `start` closes, None if nothing does (then the
    "[" is plain)."""
    j = start + 1
    if pattern[j:j + 1] in ("!", "^"):
        j += 1
    if pattern[j:j + 1] == "]":  # (a "]" first is in the class)
        j += 1
    while j < len(pattern) and pattern[j] != "]":
        j += 2 if pattern[j] == "\\" else 1
    return j if j < len(pattern) else None


class _Local:
    """The local file system, through `os`, on cleaned names (see `_clean`)."""

    @staticmethod
    def open(path, mode="r"):
        return open(_clean(path), mode)

    @staticmethod
    def exists(path):
        return os.path.exists(_clean(path))

    @staticmethod
    def isdir(path):
        return os.path.isdir(_clean(path))

    @staticmethod
    def listdir(path):
        return os.listdir(_clean(path))

    @staticmethod
    def mkdir(path):
        os.mkdir(_clean(path))

    @staticmethod
    def remove(path):
        os.remove(_clean(path))

    @staticmethod
    def replace(src, dst):
        os.replace(_clean(src), _clean(dst))

    @staticmethod
    def makedirs(path):
        os.makedirs(_clean(path), exist_ok=True)

    @staticmethod
    def rmtree(path):
        path = _clean(path)
        shutil.rmtree(path) if os.path.isdir(path) else os.remove(path)

    @staticmethod
    def stat(path):
        """``(length, mtime_nsec, is_directory)``."""
        s = os.stat(_clean(path))
        return s.st_size, s.st_mtime_ns, _stat.S_ISDIR(s.st_mode)

    @staticmethod
    def glob(pattern):
        """Paths matching `pattern` (``*``, ``?``, ``[...]`` within one name, see
        `python_glob`), hidden ones too, in directory order (as TF's file system lists
        them)."""
        return _glob.glob(python_glob(pattern), include_hidden=True)


def _missing(path):
    return FileNotFoundError(2, "No such file or directory", path)


class _RamFile(io.BytesIO):
    """An open ``ram://`` file: its bytes go into the file system as they are flushed."""

    def __init__(self, fs, path, data, writable):
        super().__init__(data)
        self._fs, self._path, self._writable = fs, path, writable

    def flush(self):
        super().flush()
        if self._writable and not self.closed:
            with self._fs.lock:
                self._fs.files[self._path] = (self.getvalue(), time.time_ns())

    def close(self):
        if not self.closed:
            self.flush()
        super().close()


class _Ram:
    """``ram://``: files and directories in this process's memory, shared by its threads."""

    def __init__(self):
        self.lock = threading.Lock()
        self.files = {}   # path: (bytes, mtime_nsec)
        self.dirs = {}    # path: mtime_nsec, made by mkdir/makedirs

    @staticmethod
    def _key(path):
        root, rest = path[:6], path[6:].rstrip("/")
        return root + rest

    def _under(self, path):
        prefix = self._key(path) + "/"
        if prefix == "ram:///":  # the root holds everything
            prefix = "ram://"
        return prefix

    def isdir(self, path):
        key, prefix = self._key(path), self._under(path)
        with self.lock:
            return key == "ram://" or key in self.dirs or any(
                k.startswith(prefix) for k in (*self.files, *self.dirs))

    def exists(self, path):
        with self.lock:
            if self._key(path) in self.files:
                return True
        return self.isdir(path)

    def open(self, path, mode="rb"):
        key, base = self._key(path), mode.replace("b", "").replace("t", "")
        with self.lock:
            if key in self.dirs:
                raise IsADirectoryError(21, "Is a directory", path)
            data = self.files.get(key)
        if data is None and base.startswith("r"):
            raise _missing(path)
        content = b"" if base.startswith("w") or data is None else data[0]
        f = _RamFile(self, key, content, base != "r")
        if base.startswith("a"):
            f.seek(0, io.SEEK_END)
        if base != "r":
            f.flush()  # (the file exists once opened for writing, as on disk)
        return f

    def listdir(self, path):
        if not self.isdir(path):
            raise _missing(path)
        prefix = self._under(path)
        with self.lock:
            keys = [*self.files, *self.dirs]
        return sorted({k[len(prefix):].split("/")[0] for k in keys
                       if k.startswith(prefix) and len(k) > len(prefix)})

    def mkdir(self, path):
        key = self._key(path)
        parent = key.rpartition("/")[0]
        if parent not in ("ram:/", "ram://") and not self.isdir(parent):
            raise _missing(path)
        if self.exists(key):
            raise FileExistsError(17, "File exists", path)
        with self.lock:
            self.dirs[key] = time.time_ns()

    def makedirs(self, path):
        key = self._key(path)
        parts = key[6:].split("/")
        for i in range(1, len(parts) + 1):
            sub = "ram://" + "/".join(parts[:i])
            with self.lock:
                if sub in self.files:
                    raise NotADirectoryError(20, "Not a directory", sub)
                self.dirs.setdefault(sub, time.time_ns())

    def remove(self, path):
        key = self._key(path)
        with self.lock:
            if key in self.files:
                del self.files[key]
                return
        if self.isdir(key):
            raise IsADirectoryError(21, "Is a directory", path)
        raise _missing(path)

    def rmtree(self, path):
        key, prefix = self._key(path), self._under(path)
        if not self.exists(key):
            raise _missing(path)
        with self.lock:
            for table in (self.files, self.dirs):
                for k in [k for k in table if k == key or k.startswith(prefix)]:
                    del table[k]

    def stat(self, path):
        key = self._key(path)
        with self.lock:
            if key in self.files:
                data, mtime = self.files[key]
                return len(data), mtime, False
            mtime = self.dirs.get(key)
        if mtime is None and not self.isdir(key):
            raise _missing(path)
        return 0, mtime or 0, True

    def replace(self, src, dst):
        src, dst = self._key(src), self._key(dst)
        with self.lock:
            if src not in self.files:
                raise _missing(src)
            self.files[dst] = self.files.pop(src)

    def glob(self, pattern):
        """Files and directories whose names match `pattern` name by name (``*`` stays
        within one name), sorted."""
        parts = python_glob(self._key(pattern))[6:].split("/")
        with self.lock:
            keys = {*self.files, *self.dirs}
        found = set()
        for key in keys:  # each directory above a file exists too
            names = key[6:].split("/")
            for i in range(1, len(names) + 1):
                if i == len(parts) and all(fnmatch.fnmatchcase(n, p)
                                           for n, p in zip(names[:i], parts)):
                    found.add("ram://" + "/".join(names[:i]))
        return sorted(found)


LOCAL, RAM = _Local(), _Ram()


def resolve(path):
    """``(file system, path for it)`` of `path` (str, bytes or path-like): ``file://``
    URIs become local paths; an unknown scheme is TF's UnimplementedError."""
    if not isinstance(path, (str, bytes, os.PathLike)):
        raise TypeError(f"Expected binary or unicode string, got {path!r}")
    path = os.fspath(path)
    if isinstance(path, bytes):
        path = path.decode("utf-8", "surrogateescape")
    scheme = _SCHEME.match(path)
    if scheme is None:
        return LOCAL, path
    name = scheme.group(1)
    if name == "file":
        return LOCAL, path[len("file://"):]
    if name == "ram":
        return RAM, path
    raise errors.UnimplementedError(
        None, None, f"File system scheme '{name}' not implemented (file: '{path}')")


def copy_between(src_fs, src, dst_fs, dst):
    """Copies file `src` of `src_fs` to `dst` of `dst_fs`: on the local file system by
    `shutil`, else through memory."""
    if src_fs is LOCAL and dst_fs is LOCAL:
        shutil.copyfile(_clean(src), _clean(dst))
        return
    with src_fs.open(src, "rb") as f:
        data = f.read()
    with dst_fs.open(dst, "wb") as f:
        f.write(data)


def is_absolute(path):
    """Whether `path` names a file independently of the working directory: an absolute local
    path or a name with a scheme (``ram://a``)."""
    path = os.fspath(path)
    if isinstance(path, bytes):
        path = path.decode("utf-8", "surrogateescape")
    return os.path.isabs(path) or _SCHEME.match(path) is not None


def dirname(path):
    """The directory of `path`, as `os.path.dirname`, a scheme's root kept whole
    (``ram://a`` is in ``ram://``, not in a local ``ram:``)."""
    path = os.fspath(path)
    scheme = _SCHEME.match(path)
    parent = os.path.dirname(path)
    if scheme is not None and len(parent) < scheme.end():
        return scheme.group(0)
    return parent


def exists(path):
    """Whether `path` is a file or directory on its file system."""
    fs, name = resolve(path)
    return fs.exists(name)


def isdir(path):
    """Whether `path` is a directory on its file system."""
    fs, name = resolve(path)
    return fs.isdir(name)


def isfile(path):
    """Whether `path` is a file (not a directory) on its file system."""
    fs, name = resolve(path)
    return fs.exists(name) and not fs.isdir(name)


def makedirs(path):
    """Makes directory `path` and those above it on its file system (none if they exist)."""
    fs, name = resolve(path)
    fs.makedirs(name)


def file_in_the_way(fs, path):
    """The nearest of `path` and the folders above it that exists, if it is a file: what
    keeps folder `path` from being made (None where nothing does)."""
    while path and not fs.exists(path):
        parent = dirname(path)
        if parent == path:
            return None
        path = parent
    return path if path and not fs.isdir(path) else None


def open_file(path, mode="rb"):
    """`path` opened in `mode` on its file system (an `OSError` where it cannot be)."""
    fs, name = resolve(path)
    return fs.open(name, mode)


def write_atomically(path, data):
    """Writes `data` (bytes, or str as UTF-8) to file `path` whole: a local file through a
    temporary one beside it, flushed to disk and renamed over `path`, so that readers see
    the old file or the new one, never a part (a ``ram://`` file is replaced at once)."""
    if isinstance(data, str):
        data = data.encode("utf-8")
    fs, name = resolve(path)
    if fs is not LOCAL:
        with fs.open(name, "wb") as f:
            f.write(data)
        return
    directory = os.path.dirname(os.path.abspath(name))
    fd, temp = tempfile.mkstemp(dir=directory, prefix=f".{os.path.basename(name)}.",
                                suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.replace(temp, name)
    except BaseException:
        os.unlink(temp)
        raise
