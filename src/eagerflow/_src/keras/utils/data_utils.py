"""Downloading into Keras's cache, padding sequences, and packing ``(x, y, sample_weight)``.

>>> tf.keras.utils.pad_sequences([[1], [2, 3]])
array([[0, 1],
       [2, 3]], dtype=int32)
>>> tf.keras.utils.unpack_x_y_sample_weight((1, 2))
(1, 2, None)
"""
import contextlib
import hashlib
import os
import pathlib
import tarfile
import tempfile
import urllib.error
import urllib.parse
import zipfile

import numpy as np

from eagerflow._src.backend.api_export import export
from eagerflow._src.keras.utils.io_utils import print_msg
from eagerflow._src.keras.utils.progbar import Progbar

_CHUNK_SIZE = 8192


def _cache_root(cache_dir):
    """The directory holding Keras's cache: `cache_dir` or ``~/.keras``.

    ``$KERAS_HOME`` does not move the cache: in tf_keras it names only where ``keras.json``
    is (and the directory Keras makes on import). ``~/.keras`` is made if missing when
    ``$KERAS_HOME`` is unset, as Keras makes it on import then.

    When it is not a directory that can be written to (a `cache_dir` that does
    not exist too: tf_keras does not make it), ``.keras`` in the temporary
    directory is used instead, as Keras falls back to ``/tmp/.keras``.
    """
    if cache_dir is None:
        cache_dir = os.path.join("~", ".keras")
        if "KERAS_HOME" not in os.environ:
            with contextlib.suppress(OSError):
                os.makedirs(os.path.expanduser(cache_dir), exist_ok=True)
    root = os.path.expanduser(cache_dir)
    if os.access(root, os.W_OK):
        return root
    return os.path.join(tempfile.gettempdir(), ".keras")


def _hasher(algorithm, file_hash=None):
    # 'auto' means sha256 for a 64-character hash and md5 otherwise (Keras's rule).
    if algorithm == "sha256" or (algorithm == "auto" and file_hash is not None
                                 and len(file_hash) == 64):
        return hashlib.sha256()
    return hashlib.md5()


def validate_file(fpath, file_hash, algorithm="auto", chunk_size=65535):
    """Whether the file at `fpath` has the sha256 or md5 hash `file_hash`.

    >>> import tempfile
    >>> with tempfile.NamedTemporaryFile() as f:
    ...     validate_file(f.name, "d41d8cd98f00b204e9800998ecf8427e")
    True
    """
    hasher = _hasher(algorithm, file_hash)
    with open(fpath, "rb") as f:
        for chunk in iter(lambda: f.read(chunk_size), b""):
            hasher.update(chunk)
    return hasher.hexdigest() == str(file_hash)


def _download(origin, fpath):
    """Fetches `origin` into `fpath` with a progress bar; no file is left behind on failure."""
    # Imported here: the HTTP and SSL stack adds ~15 ms to importing Keras.
    import urllib.request

    print_msg(f"Downloading data from {origin}")
    # Written beside the target and renamed at the end, so an interrupted
    # download never looks like a cached file.
    partial = fpath + ".part"
    failure = "URL fetch failure on {}: {} -- {}"
    try:
        with open(partial, "wb") as out:
            try:
                response = urllib.request.urlopen(origin)
            except urllib.error.HTTPError as e:
                raise Exception(failure.format(origin, e.code, e.msg))
            except urllib.error.URLError as e:
                raise Exception(failure.format(origin, e.errno, e.reason))
            with response:
                _copy_with_progress(response, out)
        os.replace(partial, fpath)
    except BaseException:
        if os.path.exists(partial):
            os.remove(partial)
        raise


def _copy_with_progress(response, out):
    size = int(response.headers.get("Content-Length", 0))
    bar = Progbar(size if size > 0 else None)
    read = 0
    while True:
        chunk = response.read(_CHUNK_SIZE)
        # Keras counts whole blocks (the final empty read too) and shows the
        # target once, when the count first reaches it.
        read += _CHUNK_SIZE
        if bar.target is None or read < bar.target:
            bar.update(read)
        elif read - _CHUNK_SIZE < bar.target:
            bar.update(bar.target)
        if not chunk:
            return
        out.write(chunk)


def _extract_archive(file_path, path, archive_format="auto"):
    """Extracts a tar (plain, gz, bz2, xz) or zip archive into `path`; False if it is neither.

    Tar members that would land outside `path` (absolute names, ``..``,
    links pointing out) are refused rather than written.
    """
    if archive_format is None:
        return False
    if archive_format == "auto":
        archive_format = ["tar", "zip"]
    if isinstance(archive_format, str):
        archive_format = [archive_format]
    for kind in archive_format:
        if kind == "tar" and tarfile.is_tarfile(file_path):
            with tarfile.open(file_path) as archive:
                archive.extractall(path, filter="data")
            return True
        if kind == "zip" and zipfile.is_zipfile(file_path):
            with zipfile.ZipFile(file_path) as archive:
                archive.extractall(path)
            return True
    return False


@export("keras.utils.get_file")
def get_file(fname=None, origin=None, untar=False, md5_hash=None, file_hash=None,
             cache_subdir="datasets", hash_algorithm="auto", extract=False,
             archive_format="auto", cache_dir=None):
    """Downloads a file from a URL unless it is already in the cache; returns its path.

    The file goes to ``~/.keras/datasets/<fname>`` by default (`cache_dir` and
    `cache_subdir` override both parts; ``$KERAS_HOME`` does not, as in tf_keras). With
    `file_hash` (sha256 or md5) a cached file that does not match is
    downloaded again and a download that does not match raises `ValueError`.
    An unreachable origin raises ``Exception('URL fetch failure on ...')``.

    >>> path = tf.keras.utils.get_file(origin="https://storage.googleapis.com/tensorflow/"
    ...                 "tf-keras-datasets/mnist.npz")  # doctest: +SKIP
    >>> path  # doctest: +SKIP
    '/root/.keras/datasets/mnist.npz'
    """
    if origin is None:
        raise ValueError('Please specify the "origin" argument (URL of the file to download).')
    if md5_hash is not None and file_hash is None:
        file_hash, hash_algorithm = md5_hash, "md5"
    datadir = os.path.join(_cache_root(cache_dir), cache_subdir)
    os.makedirs(datadir, exist_ok=True)

    fname = os.fspath(fname) if fname else os.path.basename(urllib.parse.urlsplit(origin).path)
    if not fname:
        raise ValueError(f"Can't parse the file name from the origin provided: '{origin}'."
                         "Please specify the `fname` as the input param.")
    if untar:
        if fname.endswith(".tar.gz"):
            fname = str(pathlib.Path(fname).with_suffix("").with_suffix(""))
        untar_fpath = os.path.join(datadir, fname)
        fpath = untar_fpath + ".tar.gz"
    else:
        fpath = os.path.join(datadir, fname)

    download = not os.path.exists(fpath)
    if not download and file_hash is not None and not validate_file(fpath, file_hash,
                                                                     hash_algorithm):
        print_msg("A local file was found, but it seems to be incomplete or outdated "
                    f"because the {hash_algorithm} file hash does not match the original "
                    f"value of {file_hash} so we will re-download the data.")
        download = True
    if download:
        _download(origin, fpath)
        if file_hash is not None and not validate_file(fpath, file_hash, hash_algorithm):
            os.remove(fpath)
            raise ValueError(f"Incomplete or corrupted file detected. The {hash_algorithm} "
                             f"file hash does not match the provided value of {file_hash}.")

    if untar:
        # A fresh archive replaces what an older one extracted.
        if download or not os.path.exists(untar_fpath):
            _extract_archive(fpath, datadir, archive_format="tar")
        return untar_fpath
    if extract:
        _extract_archive(fpath, datadir, archive_format)
    return fpath


@export("keras.utils.pad_sequences", "keras.preprocessing.sequence.pad_sequences")
def pad_sequences(sequences, maxlen=None, dtype="int32", padding="pre", truncating="pre",
                  value=0.0):
    """Pads or truncates sequences to one length: an array ``(len(sequences), maxlen, ...)``.

    `padding` and `truncating` say at which end (``'pre'`` or ``'post'``)
    values are added or removed; `maxlen` defaults to the longest sequence.

    >>> tf.keras.utils.pad_sequences([[1], [2, 3], [4, 5, 6]], maxlen=2, padding="post", value=-1)
    array([[ 1, -1],
           [ 2,  3],
           [ 5,  6]], dtype=int32)
    """
    if not hasattr(sequences, "__len__"):
        raise ValueError("`sequences` must be iterable.")
    lengths = []
    sample_shape = None
    for s in sequences:
        try:
            lengths.append(len(s))
        except TypeError as e:
            raise ValueError("`sequences` must be a list of iterables. "
                             f"Found non-iterable: {s}") from e
        # Each step may be a vector; the first non-empty sequence fixes its shape.
        if sample_shape is None and len(s):
            sample_shape = np.asarray(s).shape[1:]
    sample_shape = sample_shape or ()
    if maxlen is None:
        maxlen = np.max(lengths)
    if isinstance(value, str) and dtype != object and not np.issubdtype(dtype, np.str_):
        raise ValueError(f"`dtype` {dtype} is not compatible with `value`'s type: {type(value)}\n"
                         "You should set `dtype=object` for variable length strings.")
    if truncating not in ("pre", "post"):
        raise ValueError(f'Truncating type "{truncating}" not understood')
    if padding not in ("pre", "post"):
        raise ValueError(f'Padding type "{padding}" not understood')

    x = np.full((len(sequences), maxlen) + sample_shape, value, dtype=dtype)
    for i, s in enumerate(sequences):
        if not len(s):
            continue
        kept = np.asarray(s[-maxlen:] if truncating == "pre" else s[:maxlen], dtype=dtype)
        if kept.shape[1:] != sample_shape:
            raise ValueError(f"Shape of sample {kept.shape[1:]} of sequence at position {i} "
                             f"is different from expected shape {sample_shape}")
        if padding == "post":
            x[i, :len(kept)] = kept
        else:
            x[i, -len(kept):] = kept
    return x


@export("keras.utils.unpack_x_y_sample_weight")
def unpack_x_y_sample_weight(data):
    """``(x, y, sample_weight)`` from ``x``, ``(x,)``, ``(x, y)`` or all three; None where missing.

    >>> tf.keras.utils.unpack_x_y_sample_weight([1])
    (1, None, None)
    """
    if isinstance(data, list):
        data = tuple(data)
    if not isinstance(data, tuple):
        return (data, None, None)
    if 1 <= len(data) <= 3:
        return data + (None,) * (3 - len(data))
    raise ValueError("Data is expected to be in format `x`, `(x,)`, `(x, y)`, "
                     f"or `(x, y, sample_weight)`, found: {data}")


@export("keras.utils.pack_x_y_sample_weight")
def pack_x_y_sample_weight(x, y=None, sample_weight=None):
    """The tuple `Model.fit` takes: `x` alone (a tuple `x` as ``(x,)``), ``(x, y)`` or all three.

    >>> tf.keras.utils.pack_x_y_sample_weight(1, 2)
    (1, 2)
    """
    if y is None:
        # A tuple x would otherwise read as (x, y); other x stay unwrapped so
        # arrays and datasets of single inputs need no extra tuple.
        return (x,) if isinstance(x, tuple) else x
    if sample_weight is None:
        return (x, y)
    return (x, y, sample_weight)


@export("keras.utils.Sequence")
class Sequence:
    """A dataset indexed by batch (``keras.utils.Sequence``): `__len__` batches, `__getitem__`
    returning batch `i`, `on_epoch_end` called after each epoch."""

    def __init__(self, workers=1, use_multiprocessing=False, max_queue_size=10):
        del workers, use_multiprocessing, max_queue_size  # Keras's; batches load in this thread

    def __getitem__(self, index):
        raise NotImplementedError

    def __len__(self):
        raise NotImplementedError

    def on_epoch_end(self):
        pass

    def __iter__(self):
        for i in range(len(self)):
            yield self[i]
