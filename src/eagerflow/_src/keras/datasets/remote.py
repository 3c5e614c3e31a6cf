"""Where each dataset file comes from, and fetching it into the cache.

`FILES` maps a file to its origin and hash; tests point it at a local server.

>>> FILES["mnist.npz"][0]
'https://storage.googleapis.com/tensorflow/tf-keras-datasets/mnist.npz'
"""
import os

from eagerflow._src.keras.utils.data_utils import get_file

_BUCKET = "https://storage.googleapis.com/tensorflow/tf-keras-datasets/"

# name -> (origin, sha256 or md5 hash, or None where Keras checks none)
FILES = {
    "mnist.npz": (
        _BUCKET + "mnist.npz",
        "731c5ac602752760c8e48fbffcf8c3b850d9dc2a2aedcf2cc48468fc17b673d1"),
    "train-labels-idx1-ubyte.gz": (_BUCKET + "train-labels-idx1-ubyte.gz", None),
    "train-images-idx3-ubyte.gz": (_BUCKET + "train-images-idx3-ubyte.gz", None),
    "t10k-labels-idx1-ubyte.gz": (_BUCKET + "t10k-labels-idx1-ubyte.gz", None),
    "t10k-images-idx3-ubyte.gz": (_BUCKET + "t10k-images-idx3-ubyte.gz", None),
    "cifar-10-python.tar.gz": (
        "https://www.cs.toronto.edu/~kriz/cifar-10-python.tar.gz",
        "6d958be074577803d12ecdefd02955f39262c83c16fe9348329d7fe0b5c001ce"),
    "cifar-100-python.tar.gz": (
        "https://www.cs.toronto.edu/~kriz/cifar-100-python.tar.gz",
        "85cd44d02ba6437773c5bbd22e183051d648de2e7d6b014e1ef29b855ba677a7"),
    "boston_housing.npz": (
        _BUCKET + "boston_housing.npz",
        "f553886a1f8d56431e820c5b82552d9d95cfcb96d1e678153f8839538947dff5"),
    "reuters.npz": (
        _BUCKET + "reuters.npz",
        "d6586e694ee56d7a4e65172e12b3e987c03096cb01eab99753921ef915959916"),
    "reuters_word_index.json": (
        _BUCKET + "reuters_word_index.json", "4d44cc38712099c9e383dc6e5f11a921"),
    "imdb.npz": (
        _BUCKET + "imdb.npz",
        "69664113be75683a8fe16e3ed0ab59fda8886cb3cd7ada244f7d9544e4676b9f"),
    "imdb_word_index.json": (_BUCKET + "imdb_word_index.json", "bfafd718b763782e994055a2d397834f"),
}


def fetch(name, path, cache_dir=None, **get_file_kwargs):
    """The local path of dataset file `name`, cached as `path`, downloading it if needed.

    >>> fetch("mnist.npz", "mnist.npz")  # doctest: +SKIP
    '/root/.keras/datasets/mnist.npz'
    """
    origin, file_hash = FILES[name]
    if cache_dir:
        cache_dir = os.path.expanduser(cache_dir)
        os.makedirs(cache_dir, exist_ok=True)
    return get_file(path, origin=origin, file_hash=file_hash, cache_dir=cache_dir,
                    **get_file_kwargs)
