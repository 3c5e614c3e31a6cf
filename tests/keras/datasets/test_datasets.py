"""tf.keras.datasets loaders on small files in the real formats, served from 127.0.0.1.

Each loader goes through the real download, checksum and cache path; `remote.FILES`
is pointed at the local server with the hashes of the small files. Expected
values were checked against tf_keras 2.21's loaders on the same files.
"""
import gzip
import hashlib
import json
import os
import pickle
import tarfile

import numpy as np
import pytest

from eagerflow.keras.datasets import boston_housing, cifar10, cifar100, fashion_mnist, imdb, \
    mnist, reuters
from tests.internals import keras_backend as backend, remote
from tests.keras.utils.local_server import FileServer, closed_port_url

RNG = np.random.RandomState(0)
MNIST = {"x_train": RNG.randint(0, 256, (6, 28, 28)).astype("uint8"),
         "y_train": np.array([5, 0, 4, 1, 9, 2], dtype="uint8"),
         "x_test": RNG.randint(0, 256, (3, 28, 28)).astype("uint8"),
         "y_test": np.array([7, 2, 1], dtype="uint8")}
FASHION = {"train": (RNG.randint(0, 256, (4, 28, 28)).astype("uint8"),
                     np.array([9, 0, 0, 3], dtype="uint8")),
           "t10k": (RNG.randint(0, 256, (2, 28, 28)).astype("uint8"),
                    np.array([9, 2], dtype="uint8"))}
# Two images in each of the five training batches, three in the test batch.
CIFAR = {name: (RNG.randint(0, 256, (n, 3072)).astype("uint8"), RNG.randint(0, 10, n).tolist())
         for name, n in [*((f"data_batch_{i}", 2) for i in range(1, 6)), ("test_batch", 3)]}
IMDB = {"x_train": [[1, 2, 3], [4, 5], [6, 7, 8, 9], [10], [11, 12, 13, 14, 15]],
        "y_train": [0, 1, 0, 1, 1],
        "x_test": [[2, 4], [16, 1, 3]],
        "y_test": [1, 0]}
WORD_INDEX = {"the": 1, "and": 2, "a": 3}
REUTERS = [[5, 1, 2], [3, 4], [6, 7, 8, 9], [1], [2, 2, 9, 10, 11]]
BOSTON = {"x": np.arange(10 * 13, dtype="float64").reshape(10, 13),
          "y": np.arange(10, dtype="float64") + 0.5}
CIFAR100 = {name: (RNG.randint(0, 256, (n, 3072)).astype("uint8"),
                   RNG.randint(0, 100, n).tolist(), RNG.randint(0, 20, n).tolist())
            for name, n in [("train", 3), ("test", 2)]}


def _object_array(lists):
    out = np.empty(len(lists), dtype=object)
    out[:] = lists
    return out


def _write_idx(path, array, magic):
    # IDX: big-endian magic number and dimensions, then the uint8 data.
    header = np.array([magic, *array.shape], dtype=">i4").tobytes()
    with gzip.open(path, "wb") as f:
        f.write(header + array.tobytes())


def write_dataset_files(root):
    """Writes every dataset file, as named on Keras's servers, into `root`."""
    np.savez(root / "mnist.npz", **MNIST)
    for prefix, (images, labels) in FASHION.items():
        _write_idx(root / f"{prefix}-images-idx3-ubyte.gz", images, 2051)
        _write_idx(root / f"{prefix}-labels-idx1-ubyte.gz", labels, 2049)
    batches = root / "cifar-10-batches-py"
    batches.mkdir()
    for name, (data, labels) in CIFAR.items():
        # The real batches are pickled dicts whose keys load as bytes.
        with open(batches / name, "wb") as f:
            pickle.dump({b"batch_label": name.encode(), b"labels": labels, b"data": data,
                         b"filenames": [b"img.png"] * len(labels)}, f, protocol=2)
    with tarfile.open(root / "cifar-10-python.tar.gz", "w:gz") as archive:
        archive.add(batches, arcname="cifar-10-batches-py")
    np.savez(root / "imdb.npz", x_train=_object_array(IMDB["x_train"]),
             y_train=np.array(IMDB["y_train"]), x_test=_object_array(IMDB["x_test"]),
             y_test=np.array(IMDB["y_test"]))
    (root / "imdb_word_index.json").write_text(json.dumps(WORD_INDEX))
    np.savez(root / "boston_housing.npz", **BOSTON)
    np.savez(root / "reuters.npz", x=_object_array(REUTERS), y=np.array([3, 4, 3, 1, 19]))
    (root / "reuters_word_index.json").write_text(json.dumps({"said": 1, "the": 2}))
    hundred = root / "cifar-100-python"
    hundred.mkdir()
    for name, (data, fine, coarse) in CIFAR100.items():
        with open(hundred / name, "wb") as f:
            pickle.dump({b"data": data, b"fine_labels": fine, b"coarse_labels": coarse}, f,
                        protocol=2)
    with tarfile.open(root / "cifar-100-python.tar.gz", "w:gz") as archive:
        archive.add(hundred, arcname="cifar-100-python")


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    root = tmp_path_factory.mktemp("served")
    write_dataset_files(root)
    with FileServer(root) as server:
        server.hashes = {name: hashlib.sha256((root / name).read_bytes()).hexdigest()
                         for name in remote.FILES}
        yield server


@pytest.fixture
def local_files(server, monkeypatch, tmp_path, capsys):
    """Points the loaders at the local server and Keras's cache at a fresh directory."""
    monkeypatch.setattr(remote, "FILES", {
        name: (server.url + name, server.hashes[name] if file_hash else None)
        for name, (_, file_hash) in remote.FILES.items()})
    monkeypatch.delenv("KERAS_HOME", raising=False)
    monkeypatch.setenv("HOME", str(tmp_path))
    server.requests.clear()
    return tmp_path / ".keras" / "datasets"


def test_real_origins_and_hashes():
    origin, file_hash = remote.FILES["mnist.npz"]
    assert origin == "https://storage.googleapis.com/tensorflow/tf-keras-datasets/mnist.npz"
    assert file_hash == "731c5ac602752760c8e48fbffcf8c3b850d9dc2a2aedcf2cc48468fc17b673d1"
    assert remote.FILES["cifar-10-python.tar.gz"][0] == (
        "https://www.cs.toronto.edu/~kriz/cifar-10-python.tar.gz")
    assert all(origin.startswith("https://") for origin, _ in remote.FILES.values())


def test_mnist(local_files, server):
    (x_train, y_train), (x_test, y_test) = mnist.load_data()
    for got, name in [(x_train, "x_train"), (y_train, "y_train"), (x_test, "x_test"),
                      (y_test, "y_test")]:
        assert got.dtype == np.uint8
        np.testing.assert_array_equal(got, MNIST[name])
    assert x_train.shape == (6, 28, 28)
    assert os.listdir(local_files) == ["mnist.npz"]
    mnist.load_data()
    assert server.requests == ["/mnist.npz"]


def test_mnist_cache_dir_and_path(local_files, server, tmp_path):
    mnist.load_data(path="digits.npz", cache_dir=str(tmp_path / "mine"))
    assert os.listdir(tmp_path / "mine" / "datasets") == ["digits.npz"]


def test_mnist_redownloads_a_corrupted_cache(local_files, server, capsys):
    local_files.mkdir(parents=True)
    (local_files / "mnist.npz").write_bytes(b"not an npz")
    np.testing.assert_array_equal(mnist.load_data()[1][1], MNIST["y_test"])
    assert capsys.readouterr().out.startswith("A local file was found, but it seems to be "
                                              "incomplete or outdated")
    assert server.requests == ["/mnist.npz"]


def test_mnist_download_with_the_wrong_hash(local_files, server, monkeypatch):
    monkeypatch.setitem(remote.FILES, "mnist.npz", (server.url + "mnist.npz", "f" * 64))
    with pytest.raises(ValueError, match="Incomplete or corrupted file detected"):
        mnist.load_data()
    assert os.listdir(local_files) == []


def test_mnist_offline(local_files, monkeypatch):
    origin = closed_port_url("mnist.npz")
    monkeypatch.setitem(remote.FILES, "mnist.npz", (origin, None))
    with pytest.raises(Exception, match=f"^URL fetch failure on {origin}: None -- "):
        mnist.load_data()


def test_fashion_mnist(local_files, server):
    (x_train, y_train), (x_test, y_test) = fashion_mnist.load_data()
    np.testing.assert_array_equal(x_train, FASHION["train"][0])
    np.testing.assert_array_equal(y_train, FASHION["train"][1])
    np.testing.assert_array_equal(x_test, FASHION["t10k"][0])
    np.testing.assert_array_equal(y_test, FASHION["t10k"][1])
    assert x_train.dtype == y_test.dtype == np.uint8 and x_test.shape == (2, 28, 28)
    assert server.requests == ["/train-labels-idx1-ubyte.gz", "/train-images-idx3-ubyte.gz",
                               "/t10k-labels-idx1-ubyte.gz", "/t10k-images-idx3-ubyte.gz"]
    assert len(os.listdir(local_files / "fashion-mnist")) == 4


def _cifar_split(names):
    data = np.concatenate([CIFAR[name][0] for name in names]).reshape(-1, 3, 32, 32)
    labels = np.array(sum((CIFAR[name][1] for name in names), []), dtype="uint8")
    return data, labels.reshape(-1, 1)


def test_cifar10(local_files, server):
    (x_train, y_train), (x_test, y_test) = cifar10.load_data()
    train = _cifar_split([f"data_batch_{i}" for i in range(1, 6)])
    test = _cifar_split(["test_batch"])
    assert x_train.shape == (10, 32, 32, 3) and x_test.shape == (3, 32, 32, 3)
    assert y_train.shape == (10, 1) and y_test.shape == (3, 1)
    assert {a.dtype for a in (x_train, y_train, x_test, y_test)} == {np.dtype("uint8")}
    np.testing.assert_array_equal(x_train, train[0].transpose(0, 2, 3, 1))
    np.testing.assert_array_equal(y_train, train[1])
    np.testing.assert_array_equal(x_test, test[0].transpose(0, 2, 3, 1))
    np.testing.assert_array_equal(y_test, test[1])
    assert sorted(os.listdir(local_files)) == ["cifar-10-batches-py",
                                               "cifar-10-batches-py.tar.gz"]
    cifar10.load_data()
    assert server.requests == ["/cifar-10-python.tar.gz"]


def test_cifar10_channels_first(local_files, monkeypatch):
    monkeypatch.setattr(backend, "_IMAGE_DATA_FORMAT", "channels_first")
    (x_train, _), (x_test, _) = cifar10.load_data()
    assert x_train.shape == (10, 3, 32, 32)
    np.testing.assert_array_equal(x_test, _cifar_split(["test_batch"])[0])


def _lists(x):
    assert x.dtype == object and x.ndim == 1
    return [list(review) for review in x]


def test_imdb_defaults_shuffle_add_start_and_shift_indices(local_files, server):
    (x_train, y_train), (x_test, y_test) = imdb.load_data()
    assert _lists(x_train) == [[1, 7, 8], [1, 4, 5, 6], [1, 13], [1, 9, 10, 11, 12],
                               [1, 14, 15, 16, 17, 18]]
    assert y_train.tolist() == [1, 0, 1, 0, 1] and y_train.dtype == np.int64
    # num_words defaults to the largest index, which itself becomes oov_char (as in Keras).
    assert _lists(x_test) == [[1, 2, 4, 6], [1, 5, 7]]
    assert y_test.tolist() == [0, 1]
    assert os.listdir(local_files) == ["imdb.npz"]


def test_imdb_options(local_files):
    (x_train, y_train), (x_test, y_test) = imdb.load_data(
        num_words=10, skip_top=5, maxlen=5, seed=1, start_char=None, oov_char=0, index_from=2)
    assert _lists(x_train) == [[8, 9, 0, 0], [6, 7], [0, 0, 5], [0]]
    assert y_train.tolist() == [0, 1, 0, 1]
    assert _lists(x_test) == [[0, 6], [0, 0, 5]]
    assert y_test.tolist() == [1, 0]


def test_imdb_drops_out_of_vocabulary_words_without_oov_char(local_files):
    (x_train, _), (x_test, _) = imdb.load_data(num_words=9, oov_char=None)
    assert _lists(x_train) == [[1, 7, 8], [1, 4, 5, 6], [1], [1], [1]]
    assert _lists(x_test) == [[1, 4, 6], [1, 5, 7]]


def test_imdb_reviews_stay_lists_when_all_have_the_same_length(local_files):
    (x_train, _), (x_test, _) = imdb.load_data(maxlen=4)
    assert _lists(x_train) == [[1, 7, 8], [1, 2]]
    assert _lists(x_test) == [[1, 5, 7]]


def test_imdb_maxlen_leaving_nothing(local_files):
    with pytest.raises(ValueError) as info:
        imdb.load_data(maxlen=3)
    assert str(info.value) == ("After filtering for sequences shorter than maxlen=3, no "
                               "sequence was kept. Increase maxlen.")


def test_imdb_keyword_arguments(local_files):
    (x_train, _), _ = imdb.load_data(nb_words=3)
    assert _lists(x_train) == [[1, 2, 2], [1, 2, 2, 2], [1, 2], [1, 2, 2, 2, 2],
                               [1, 2, 2, 2, 2, 2]]
    with pytest.raises(TypeError) as info:
        imdb.load_data(words=3)
    assert str(info.value) == "Unrecognized keyword arguments: {'words': 3}."


def test_imdb_word_index(local_files, server):
    assert imdb.get_word_index() == WORD_INDEX
    assert os.listdir(local_files) == ["imdb_word_index.json"]
    assert server.requests == ["/imdb_word_index.json"]


def test_boston_housing(local_files, server):
    (x_train, y_train), (x_test, y_test) = boston_housing.load_data()
    order = np.arange(10)
    np.random.RandomState(113).shuffle(order)
    np.testing.assert_array_equal(x_train, BOSTON["x"][order[:8]])
    np.testing.assert_array_equal(y_test, BOSTON["y"][order[8:]])
    assert x_test.shape == (2, 13) and y_train.shape == (8,)
    (x_train, _), (x_test, _) = boston_housing.load_data(test_split=0.5, seed=1)
    assert len(x_train) == len(x_test) == 5


def test_cifar100(local_files, server):
    (x_train, y_train), (x_test, y_test) = cifar100.load_data()
    assert x_train.shape == (3, 32, 32, 3) and x_train.dtype == np.uint8
    assert y_train.shape == (3, 1) and y_train.ravel().tolist() == CIFAR100["train"][1]
    np.testing.assert_array_equal(
        x_test[1], CIFAR100["test"][0][1].reshape(3, 32, 32).transpose(1, 2, 0))
    (_, coarse), _ = cifar100.load_data(label_mode="coarse")
    assert coarse.ravel().tolist() == CIFAR100["train"][2]
    with pytest.raises(ValueError, match="`label_mode` must be one of"):
        cifar100.load_data(label_mode="medium")


def test_reuters(local_files, server):
    order = np.arange(5)
    np.random.RandomState(113).shuffle(order)
    (x_train, y_train), (x_test, y_test) = reuters.load_data()
    assert x_train.dtype == object and x_train.shape == (4,)
    assert x_test.shape == (1, 6)  # as tf_keras: np.array of one list is 2-D
    assert list(x_train[0]) == [1] + [w + 3 for w in REUTERS[order[0]]]
    assert y_train.tolist() == [[3, 4, 3, 1, 19][i] for i in order[:4]]
    (x_train, _), _ = reuters.load_data(num_words=8, start_char=None, index_from=0,
                                        oov_char=None, test_split=0.4)
    assert [list(x) for x in x_train] == [[w for w in REUTERS[i] if w < 8] for i in order[:3]]
    (x_train, _), _ = reuters.load_data(maxlen=4)
    assert all(len(x) < 4 for x in x_train)
    assert reuters.get_word_index() == {"said": 1, "the": 2}
    assert len(reuters.get_label_names()) == 46 and reuters.get_label_names()[3] == "earn"
    with pytest.raises(TypeError, match="Unrecognized keyword arguments"):
        reuters.load_data(foo=1)
