"""tf.keras.utils: to_categorical, normalize, set_random_seed, get_file, pad_sequences and
(un)packing of (x, y, sample_weight), checked against tf_keras 2.21's results.

Downloads come from a server on 127.0.0.1; nothing here touches the internet.
"""
import hashlib
import io
import os
import random
import tarfile
import tempfile
import zipfile

import numpy as np
import pytest

import eagerflow as tf
from eagerflow.keras.preprocessing.sequence import pad_sequences as public_pad_sequences
from eagerflow.keras.utils import (
    Progbar, get_file, normalize, pack_x_y_sample_weight, pad_sequences, set_random_seed,
    to_categorical, unpack_x_y_sample_weight)
from tests.keras.utils.local_server import FileServer, closed_port_url

BLOB = bytes(range(256)) * 80  # 20480 bytes: three 8 KiB blocks
BLOB_SHA256 = hashlib.sha256(BLOB).hexdigest()
BLOB_MD5 = hashlib.md5(BLOB).hexdigest()


# ---------------------------------------------------------------- to_categorical, normalize

def test_to_categorical():
    np.testing.assert_array_equal(to_categorical([0, 1, 2, 3], num_classes=4), np.eye(4))
    assert to_categorical([0, 1]).dtype == np.float32


def test_to_categorical_replaces_a_trailing_axis_of_one():
    out = to_categorical([[1], [2]])
    assert out.shape == (2, 3)
    np.testing.assert_array_equal(out, [[0, 1, 0], [0, 0, 1]])


def test_to_categorical_keeps_other_axes_and_dtype():
    out = to_categorical(np.array([[0, 1], [2, 1]]), dtype="int32")
    assert out.shape == (2, 2, 3) and out.dtype == np.int32
    np.testing.assert_array_equal(out[1, 0], [0, 0, 1])


def test_to_categorical_scalar_and_float_labels():
    np.testing.assert_array_equal(to_categorical(5), [0, 0, 0, 0, 0, 1])
    np.testing.assert_array_equal(to_categorical([1.7, 0.2]), [[0, 1], [1, 0]])


def test_to_categorical_label_out_of_range():
    with pytest.raises(IndexError, match="index 3 is out of bounds for axis 1 with size 2"):
        to_categorical(np.array([3]), num_classes=2)


def test_normalize():
    np.testing.assert_allclose(normalize(np.array([[3.0, 4.0], [0.0, 0.0]])),
                               [[0.6, 0.8], [0.0, 0.0]])
    np.testing.assert_allclose(normalize(np.array([[3.0, 4.0], [1.0, 1.0]]), axis=0, order=1),
                               [[0.75, 0.8], [0.25, 0.2]])


def test_normalize_keeps_float32_and_makes_1d_input_2d():
    out = normalize(np.array([3.0, 4.0], dtype="float32"))
    assert out.dtype == np.float32 and out.shape == (1, 2)


# ---------------------------------------------------------------- set_random_seed

def test_set_random_seed_seeds_python_numpy_and_eagerflow():
    set_random_seed(7)
    first = random.random(), np.random.rand(), tf.random.uniform([2]).numpy()
    set_random_seed(7)
    again = random.random(), np.random.rand(), tf.random.uniform([2]).numpy()
    assert first[:2] == again[:2]
    np.testing.assert_array_equal(first[2], again[2])
    assert first[1] == 0.07630828937395717  # NumPy's legacy generator, as in tf_keras


def test_set_random_seed_needs_an_int():
    with pytest.raises(ValueError, match=r"Expected `seed` argument to be an integer. "
                                         r"Received: seed=1.0 \(of type <class 'float'>\)"):
        set_random_seed(1.0)


# ---------------------------------------------------------------- pad_sequences

SEQUENCES = [[1], [2, 3], [4, 5, 6], []]


def test_pad_sequences_defaults_pad_and_truncate_at_the_front():
    out = pad_sequences(SEQUENCES)
    assert out.dtype == np.int32
    np.testing.assert_array_equal(out, [[0, 0, 1], [0, 2, 3], [4, 5, 6], [0, 0, 0]])


def test_pad_sequences_post():
    np.testing.assert_array_equal(
        pad_sequences(SEQUENCES, padding="post", truncating="post", maxlen=2),
        [[1, 0], [2, 3], [4, 5], [0, 0]])


def test_pad_sequences_value_and_dtype():
    out = pad_sequences(SEQUENCES, maxlen=2, value=-1.5, dtype="float32")
    assert out.dtype == np.float32
    np.testing.assert_array_equal(out, [[-1.5, 1], [2, 3], [5, 6], [-1.5, -1.5]])


def test_pad_sequences_of_vectors():
    out = pad_sequences([[[1, 2]], [[3, 4], [5, 6]]])
    np.testing.assert_array_equal(out, [[[0, 0], [1, 2]], [[3, 4], [5, 6]]])


def test_pad_sequences_of_strings():
    out = pad_sequences([["a"], ["b", "c"]], dtype=object, value="x")
    assert out.tolist() == [["x", "a"], ["b", "c"]]
    out = pad_sequences([["ab"], ["b", "cde"]], dtype="<U3", value="x")
    assert out.tolist() == [["x", "ab"], ["b", "cde"]]


def test_pad_sequences_of_an_array_and_public_alias():
    assert public_pad_sequences is pad_sequences
    np.testing.assert_array_equal(pad_sequences(np.array([[1, 2], [3, 4]]), maxlen=3),
                                  [[0, 1, 2], [0, 3, 4]])


@pytest.mark.parametrize("args, kwargs, message", [
    ([[["a"], ["b", "c"]]], {"value": "x"},
     "`dtype` int32 is not compatible with `value`'s type: <class 'str'>\n"
     "You should set `dtype=object` for variable length strings."),
    ([SEQUENCES], {"padding": "mid"}, 'Padding type "mid" not understood'),
    ([SEQUENCES], {"truncating": "mid"}, 'Truncating type "mid" not understood'),
    ([5], {}, "`sequences` must be iterable."),
    ([[1, 2]], {}, "`sequences` must be a list of iterables. Found non-iterable: 1"),
    ([[[[1, 2]], [[3]]]], {},
     "Shape of sample (1,) of sequence at position 1 is different from expected shape (2,)"),
])
def test_pad_sequences_errors(args, kwargs, message):
    with pytest.raises(ValueError) as info:
        pad_sequences(*args, **kwargs)
    assert str(info.value) == message


# ---------------------------------------------------------------- (un)packing

def test_unpack_x_y_sample_weight():
    assert unpack_x_y_sample_weight((1,)) == (1, None, None)
    assert unpack_x_y_sample_weight([1, 2]) == (1, 2, None)
    assert unpack_x_y_sample_weight([1, 2, 3]) == (1, 2, 3)
    assert unpack_x_y_sample_weight({"a": 1}) == ({"a": 1}, None, None)
    x = tf.ones((2, 3))
    assert unpack_x_y_sample_weight(x)[0] is x


@pytest.mark.parametrize("data", [(), (1, 2, 3, 4)])
def test_unpack_x_y_sample_weight_bad_length(data):
    with pytest.raises(ValueError) as info:
        unpack_x_y_sample_weight(data)
    assert str(info.value) == ("Data is expected to be in format `x`, `(x,)`, `(x, y)`, "
                               f"or `(x, y, sample_weight)`, found: {data}")


def test_pack_x_y_sample_weight():
    assert pack_x_y_sample_weight((1, 2)) == ((1, 2),)
    assert pack_x_y_sample_weight([1, 2]) == [1, 2]
    assert pack_x_y_sample_weight(1, 2) == (1, 2)
    assert pack_x_y_sample_weight(1, 2, 3) == (1, 2, 3)
    assert pack_x_y_sample_weight(1, None, 3) == 1


# ---------------------------------------------------------------- get_file

@pytest.fixture(autouse=True)
def keras_home(monkeypatch, tmp_path):
    """Keeps the default cache (``~/.keras``) of every test in its own directory."""
    monkeypatch.delenv("KERAS_HOME", raising=False)
    monkeypatch.setenv("HOME", str(tmp_path / "keras_home"))


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    root = tmp_path_factory.mktemp("served")
    (root / "blob.bin").write_bytes(BLOB)
    (root / "pkg").mkdir()
    (root / "pkg" / "a.txt").write_text("hi")
    with tarfile.open(root / "pkg.tar.gz", "w:gz") as archive:
        archive.add(root / "pkg", arcname="pkg")
    with zipfile.ZipFile(root / "z.zip", "w") as archive:
        archive.writestr("zdir/a.txt", "zipped")
    with tarfile.open(root / "evil.tar", "w") as archive:
        member = tarfile.TarInfo("../evil.txt")
        member.size = 4
        archive.addfile(member, io.BytesIO(b"evil"))
    with FileServer(root) as server:
        yield server


@pytest.fixture
def requests(server):
    server.requests.clear()
    return server.requests


@pytest.fixture
def clock(monkeypatch):
    """Each reading of the progress bar's clock is 1 ms after the previous one."""
    now = iter(range(10**6))
    monkeypatch.setattr(Progbar, "_time", staticmethod(lambda: next(now) / 1000))


BLOB_PROGRESS = (
    "\r 8192/20480 [===========>..................] - ETA: 0s" + "\b" * 54
    + "\r20480/20480 [==============================] - 0s 0us/step\n")


def test_get_file_downloads_once_then_uses_the_cache(server, requests, clock, tmp_path, capsys):
    path = get_file("blob.bin", origin=server.url + "blob.bin", file_hash=BLOB_SHA256,
                    cache_dir=str(tmp_path))
    assert path == str(tmp_path / "datasets" / "blob.bin")
    assert open(path, "rb").read() == BLOB
    assert capsys.readouterr().out == (
        f"Downloading data from {server.url}blob.bin\n" + BLOB_PROGRESS)
    assert get_file("blob.bin", origin=server.url + "blob.bin", file_hash=BLOB_SHA256,
                    cache_dir=str(tmp_path)) == path
    assert capsys.readouterr().out == ""
    assert requests == ["/blob.bin"]
    assert os.listdir(tmp_path / "datasets") == ["blob.bin"]


def test_get_file_redownloads_a_cached_file_with_the_wrong_hash(server, requests, clock,
                                                                  tmp_path, capsys):
    (tmp_path / "datasets").mkdir()
    (tmp_path / "datasets" / "blob.bin").write_bytes(BLOB[:-1])
    path = get_file("blob.bin", origin=server.url + "blob.bin", file_hash=BLOB_MD5,
                    cache_dir=str(tmp_path))
    assert open(path, "rb").read() == BLOB
    assert capsys.readouterr().out == (
        "A local file was found, but it seems to be incomplete or outdated because the auto "
        f"file hash does not match the original value of {BLOB_MD5} so we will re-download "
        f"the data.\nDownloading data from {server.url}blob.bin\n" + BLOB_PROGRESS)
    assert requests == ["/blob.bin"]


@pytest.mark.parametrize("kwargs", [
    {"file_hash": BLOB_SHA256}, {"file_hash": BLOB_MD5}, {"md5_hash": BLOB_MD5},
    {"file_hash": BLOB_SHA256, "hash_algorithm": "sha256"},
    {"file_hash": BLOB_MD5, "hash_algorithm": "md5"}])
def test_get_file_accepts_a_cached_file_with_the_right_hash(server, requests, tmp_path, kwargs):
    (tmp_path / "datasets").mkdir()
    (tmp_path / "datasets" / "blob.bin").write_bytes(BLOB)
    get_file("blob.bin", origin=server.url + "blob.bin", cache_dir=str(tmp_path), **kwargs)
    assert requests == []


def test_get_file_rejects_a_download_with_the_wrong_hash(server, tmp_path, capsys):
    with pytest.raises(ValueError) as info:
        get_file("blob.bin", origin=server.url + "blob.bin", file_hash="0" * 64,
                 cache_dir=str(tmp_path))
    assert str(info.value) == ("Incomplete or corrupted file detected. The auto file hash "
                               f"does not match the provided value of {'0' * 64}.")
    assert os.listdir(tmp_path / "datasets") == []


def test_get_file_http_error(server, tmp_path, capsys):
    origin = server.url + "missing.bin"
    with pytest.raises(Exception) as info:
        get_file(origin=origin, cache_dir=str(tmp_path))
    assert type(info.value) is Exception
    assert str(info.value) == f"URL fetch failure on {origin}: 404 -- File not found"
    assert capsys.readouterr().out == f"Downloading data from {origin}\n"
    assert os.listdir(tmp_path / "datasets") == []


def test_get_file_offline(tmp_path, capsys):
    origin = closed_port_url("blob.bin")
    with pytest.raises(Exception) as info:
        get_file(origin=origin, cache_dir=str(tmp_path))
    assert type(info.value) is Exception
    assert str(info.value) == (f"URL fetch failure on {origin}: None -- "
                               "[Errno 111] Connection refused")
    assert os.listdir(tmp_path / "datasets") == []


def test_get_file_interrupted_download_leaves_no_file(server, tmp_path, monkeypatch, capsys):
    def interrupt(self, *args, **kwargs):
        raise KeyboardInterrupt
    monkeypatch.setattr(Progbar, "update", interrupt)
    with pytest.raises(KeyboardInterrupt):
        get_file(origin=server.url + "blob.bin", cache_dir=str(tmp_path))
    assert os.listdir(tmp_path / "datasets") == []


def test_get_file_cache_location(server, tmp_path, monkeypatch, capsys):
    origin = server.url + "blob.bin"
    monkeypatch.delenv("KERAS_HOME", raising=False)
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert get_file(origin=origin) == str(tmp_path / "home" / ".keras" / "datasets" / "blob.bin")
    assert get_file(origin=origin, cache_subdir="models") == str(
        tmp_path / "home" / ".keras" / "models" / "blob.bin")
    # $KERAS_HOME says where keras.json is, not where the cache is (as in tf_keras); with it
    # set, ~/.keras is not made: a missing one means the temporary directory's
    monkeypatch.setenv("KERAS_HOME", str(tmp_path / "kh"))
    assert get_file(origin=origin) == str(tmp_path / "home" / ".keras" / "datasets" /
                                          "blob.bin")
    monkeypatch.setenv("HOME", str(tmp_path / "other_home"))
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path / "tmp"))
    assert get_file(origin=origin) == str(tmp_path / "tmp" / ".keras" / "datasets" / "blob.bin")
    assert not os.path.exists(tmp_path / "kh" / "datasets")
    assert not os.path.exists(tmp_path / "other_home")
    assert get_file(str(tmp_path / "abs.bin"), origin=origin) == str(tmp_path / "abs.bin")
    assert os.path.exists(tmp_path / "abs.bin")


def test_get_file_falls_back_to_the_temporary_directory(server, tmp_path, monkeypatch, capsys):
    (tmp_path / "a_file").write_text("")
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path / "tmp"))
    path = get_file(origin=server.url + "blob.bin", cache_dir=str(tmp_path / "a_file" / "x"))
    assert path == str(tmp_path / "tmp" / ".keras" / "datasets" / "blob.bin")


def test_get_file_falls_back_from_a_cache_dir_that_does_not_exist(server, tmp_path,
                                                                   monkeypatch, capsys):
    # As tf_keras (checked against TF 2.21): a `cache_dir` that does not exist is not made,
    # the file goes to the temporary directory's .keras, an archive extracted there too
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path / "tmp"))
    missing = tmp_path / "missing"
    path = get_file("pkg.tar.gz", origin=server.url + "pkg.tar.gz", cache_dir=str(missing),
                    extract=True)
    fallback = tmp_path / "tmp" / ".keras" / "datasets"
    assert path == str(fallback / "pkg.tar.gz")
    assert sorted(os.listdir(fallback)) == ["pkg", "pkg.tar.gz"]
    assert (fallback / "pkg" / "a.txt").read_text() == "hi"
    assert not missing.exists()
    # (once there, it is not fetched again)
    assert get_file("pkg.tar.gz", origin="file:///nowhere", cache_dir=str(missing)) == path


def test_get_file_argument_errors():
    with pytest.raises(ValueError, match='Please specify the "origin" argument'):
        get_file("x")
    with pytest.raises(ValueError) as info:
        get_file(origin="http://127.0.0.1:9/")
    assert str(info.value) == ("Can't parse the file name from the origin provided: "
                               "'http://127.0.0.1:9/'.Please specify the `fname` as the input "
                               "param.")


def test_get_file_untar(server, requests, tmp_path, capsys):
    path = get_file("pkg", origin=server.url + "pkg.tar.gz", untar=True, cache_dir=str(tmp_path))
    assert path == str(tmp_path / "datasets" / "pkg")
    assert (tmp_path / "datasets" / "pkg" / "a.txt").read_text() == "hi"
    assert sorted(os.listdir(tmp_path / "datasets")) == ["pkg", "pkg.tar.gz"]
    assert get_file("pkg.tar.gz", origin=server.url + "pkg.tar.gz", untar=True,
                    cache_dir=str(tmp_path)) == path
    assert requests == ["/pkg.tar.gz"]


@pytest.mark.parametrize("name, archive_format, extracted", [
    ("z.zip", "auto", "zdir"), ("z.zip", "zip", "zdir"), ("pkg.tar.gz", "tar", "pkg"),
    ("pkg.tar.gz", ["zip", "tar"], "pkg"), ("pkg.tar.gz", "zip", None),
    ("pkg.tar.gz", None, None)])
def test_get_file_extract(server, tmp_path, capsys, name, archive_format, extracted):
    path = get_file(origin=server.url + name, extract=True, archive_format=archive_format,
                    cache_dir=str(tmp_path))
    assert path == str(tmp_path / "datasets" / name)
    assert sorted(os.listdir(tmp_path / "datasets")) == sorted({name, extracted} - {None})


def test_get_file_refuses_archive_members_outside_the_cache(server, tmp_path, capsys):
    with pytest.raises(tarfile.TarError):
        get_file(origin=server.url + "evil.tar", extract=True, cache_dir=str(tmp_path))
    assert not (tmp_path / "evil.txt").exists()
