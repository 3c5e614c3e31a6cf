"""File names with a scheme, as TF's file systems take them: ``file://`` URIs are local files,
``ram://`` lives in memory, other schemes are TF's UnimplementedError (outcomes checked
against TF 2.21)."""
import copy
import os
import pickle
import uuid

import numpy as np
import pytest

import eagerflow as tf

gfile = tf.io.gfile


@pytest.fixture
def ram():
    """A fresh ``ram://`` folder name (the file system lives as long as the process)."""
    root = f"ram://{uuid.uuid4().hex}"
    yield root
    if gfile.exists(root):
        gfile.rmtree(root)


def test_file_uris_are_local_paths(tmp_path):
    uri = f"file://{tmp_path}"
    assert gfile.exists(uri) and gfile.isdir(uri)
    with gfile.GFile(f"{uri}/u.txt", "w") as f:
        f.write("abc")
    assert (tmp_path / "u.txt").read_text() == "abc"
    assert gfile.glob(f"{uri}/u.tx*") == [f"{uri}/u.txt"]  # matches keep their scheme
    assert tf.io.read_file(f"{uri}/u.txt").numpy() == b"abc"
    assert tf.io.matching_files(f"{uri}/*.txt").numpy().tolist() == [f"{uri}/u.txt".encode()]


def test_ram_files_and_folders(ram):
    with gfile.GFile(f"{ram}/x/y.txt", "w") as f:
        f.write("mem")
    # the folder above a file exists without being made
    assert gfile.exists(f"{ram}/x") and gfile.isdir(f"{ram}/x")
    assert not gfile.isdir(f"{ram}/x/y.txt")
    assert gfile.listdir(f"{ram}/x") == ["y.txt"]
    assert gfile.stat(f"{ram}/x/y.txt").length == 3 and gfile.stat(f"{ram}/x").is_directory
    with gfile.GFile(f"{ram}/x/y.txt", "a") as f:
        f.write("+")
    assert gfile.GFile(f"{ram}/x/y.txt").read() == "mem+"
    gfile.makedirs(f"{ram}/e/f/g")
    assert gfile.isdir(f"{ram}/e/f") and gfile.listdir(f"{ram}/e") == ["f"]
    gfile.copy(f"{ram}/x/y.txt", f"{ram}/x/z.txt")
    with pytest.raises(tf.errors.AlreadyExistsError):
        gfile.copy(f"{ram}/x/y.txt", f"{ram}/x/z.txt")
    gfile.rename(f"{ram}/x/z.txt", f"{ram}/x/w.txt")
    assert sorted(gfile.glob(f"{ram}/x/*.txt")) == [f"{ram}/x/w.txt", f"{ram}/x/y.txt"]
    assert list(gfile.walk(f"{ram}/x")) == [(f"{ram}/x", [], ["w.txt", "y.txt"])]
    gfile.remove(f"{ram}/x/w.txt")
    assert not gfile.exists(f"{ram}/x/w.txt")
    for missing in (lambda: gfile.remove(f"{ram}/x/w.txt"),
                    lambda: gfile.GFile(f"{ram}/q").read(), lambda: gfile.stat(f"{ram}/q")):
        with pytest.raises(tf.errors.NotFoundError):
            missing()
    with pytest.raises(tf.errors.NotFoundError, match="Could not find directory"):
        gfile.listdir(f"{ram}/nope")
    gfile.rmtree(f"{ram}/x")
    assert not gfile.exists(f"{ram}/x/y.txt")


def test_ram_files_cross_to_local_ones(ram, tmp_path):
    gfile.GFile(f"{ram}/a.bin", "wb").write(b"\x00\x01")
    gfile.copy(f"{ram}/a.bin", str(tmp_path / "a.bin"))
    assert (tmp_path / "a.bin").read_bytes() == b"\x00\x01"
    gfile.rename(str(tmp_path / "a.bin"), f"{ram}/b.bin")
    assert gfile.GFile(f"{ram}/b.bin", "rb").read() == b"\x00\x01"
    assert not (tmp_path / "a.bin").exists()


def test_ops_and_datasets_read_and_write_ram_files(ram):
    tf.io.write_file(f"{ram}/wf/a.txt", "hi")  # (making its folder, as on disk)
    assert tf.io.read_file(f"{ram}/wf/a.txt").numpy() == b"hi"
    assert tf.io.matching_files(f"{ram}/wf/*").numpy().tolist() == [f"{ram}/wf/a.txt".encode()]
    with tf.io.TFRecordWriter(f"{ram}/t.rec") as writer:
        writer.write(b"rec")
        writer.write(b"ord")
    assert [r.numpy() for r in tf.data.TFRecordDataset(f"{ram}/t.rec")] == [b"rec", b"ord"]
    gfile.GFile(f"{ram}/l.txt", "w").write("a\nb\n")
    assert [r.numpy() for r in tf.data.TextLineDataset(f"{ram}/l.txt")] == [b"a", b"b"]
    gfile.GFile(f"{ram}/f.bin", "wb").write(b"abcdef")
    assert [r.numpy() for r in tf.data.FixedLengthRecordDataset(f"{ram}/f.bin", 2)] == [
        b"ab", b"cd", b"ef"]
    gfile.GFile(f"{ram}/odd.bin", "wb").write(b"abcdefg")  # (as a local file of 7 bytes)
    with pytest.raises(tf.errors.InvalidArgumentError, match="Excluding the header"):
        list(tf.data.FixedLengthRecordDataset(f"{ram}/odd.bin", 2))


def test_unknown_schemes_are_unimplemented():
    for call in (lambda: gfile.exists("s3://b/x"), lambda: gfile.GFile("foo://b/x").read(),
                 lambda: tf.io.read_file("foo://b/x")):
        with pytest.raises(tf.errors.UnimplementedError,
                           match=r"File system scheme '(s3|foo)' not implemented "
                                 r"\(file: '(s3|foo)://b/x'\)"):
            call()


def test_a_keras_model_saves_to_ram():
    path = f"ram://{uuid.uuid4().hex}/model.keras"
    model = tf.keras.Sequential([tf.keras.Input((3,)),
                                 tf.keras.layers.Dense(2, kernel_initializer="ones")])
    model.save(path)
    assert tf.keras.models.load_model(path)(np.ones((1, 3))).numpy().tolist() == [[3.0, 3.0]]
    assert not os.path.exists(path)


def test_registered_schemes():
    assert gfile.get_registered_schemes() == ["ram", "file", ""]


def test_checkpoints_write_read_and_rotate_in_ram():
    # (outcomes as TF 2.21's, which keeps ram:// checkpoints and their state file in memory)
    root = f"ram://{uuid.uuid4().hex}"
    v = tf.Variable([1.0, 2.0])
    big = tf.Variable(np.arange(300000, dtype=np.float32))  # (read in pieces from disk)
    ckpt = tf.train.Checkpoint(v=v, big=big)
    path = ckpt.write(f"{root}/c")
    assert path == f"{root}/c"
    assert gfile.listdir(root) == ["c.data-00000-of-00001", "c.index"]
    v.assign([5.0, 6.0])
    big.assign(tf.zeros([300000]))
    ckpt.read(path).assert_consumed()
    assert v.numpy().tolist() == [1.0, 2.0] and big.numpy()[-1] == 299999
    assert tf.train.load_variable(path, "v/.ATTRIBUTES/VARIABLE_VALUE").tolist() == [1.0, 2.0]
    manager = tf.train.CheckpointManager(ckpt, f"{root}/m", max_to_keep=2)
    saved = [manager.save() for _ in range(3)]
    assert saved == [f"{root}/m/ckpt-{i}" for i in (1, 2, 3)]
    assert sorted(gfile.listdir(f"{root}/m")) == [
        "checkpoint", "ckpt-2.data-00000-of-00001", "ckpt-2.index",
        "ckpt-3.data-00000-of-00001", "ckpt-3.index"]
    assert tf.train.latest_checkpoint(f"{root}/m") == f"{root}/m/ckpt-3"
    assert not os.path.exists("ram:")  # (no local folder named after the scheme)


class _Scaled(tf.Module):
    def __init__(self, vocabulary):
        super().__init__()
        self.v = tf.Variable([2.0, 3.0])
        self.table = tf.lookup.StaticHashTable(tf.lookup.TextFileInitializer(
            vocabulary, tf.string, tf.lookup.TextFileIndex.WHOLE_LINE, tf.int64,
            tf.lookup.TextFileIndex.LINE_NUMBER), -1)

    @tf.function(input_signature=[tf.TensorSpec([None], tf.float32)])
    def scale(self, x):
        return x * self.v[0]

    @tf.function(input_signature=[tf.TensorSpec([None], tf.string)])
    def lookup(self, words):
        return self.table.lookup(words)


def test_saved_models_save_and_load_in_ram(ram, tmp_path, monkeypatch):
    # (outcomes as TF 2.21's: the SavedModel, its variables, assets and fingerprint in memory)
    monkeypatch.chdir(tmp_path)
    vocabulary = tmp_path / "vocab.txt"
    vocabulary.write_text("a\nb\nc\n")
    tf.saved_model.save(_Scaled(str(vocabulary)), f"{ram}/sm")
    assert gfile.listdir(f"{ram}/sm") == ["assets", "fingerprint.pb", "saved_model.pb",
                                          "variables"]
    assert gfile.listdir(f"{ram}/sm/variables") == ["variables.data-00000-of-00001",
                                                    "variables.index"]
    assert gfile.listdir(f"{ram}/sm/assets") == ["vocab.txt"]
    assert tf.saved_model.contains_saved_model(f"{ram}/sm")
    assert tf.saved_model.experimental.read_fingerprint(f"{ram}/sm").checkpoint_hash != 0
    vocabulary.unlink()  # (the loaded table reads the SavedModel's copy)
    loaded = tf.saved_model.load(f"{ram}/sm")
    assert loaded.scale(tf.constant([1.0, 2.0])).numpy().tolist() == [2.0, 4.0]
    assert loaded.lookup(tf.constant(["b", "z"])).numpy().tolist() == [1, -1]
    assert os.listdir(tmp_path) == []  # (no local folder named after the scheme)


def test_summaries_write_event_files_in_ram(ram, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    writer = tf.summary.create_file_writer(f"{ram}/logs", filename_suffix=".v2")
    with writer.as_default(step=3):
        tf.summary.scalar("loss", 0.5)
    writer.close()
    files = gfile.glob(f"{ram}/logs/events.out.tfevents.*.v2")
    assert len(files) == 1
    events = list(tf.compat.v1.train.summary_iterator(files[0]))
    assert [e.file_version for e in events] == ["brain.Event:2", ""]
    assert [(e.step, [v.tag for v in e.summary.value]) for e in events] == [(0, []),
                                                                            (3, ["loss"])]
    assert os.listdir(tmp_path) == []


def test_keras_saved_models_h5_files_and_weights_in_ram(ram, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    words = tf.keras.Input((), dtype=tf.string)
    lookup = tf.keras.layers.StringLookup()
    lookup.adapt(["x", "y", "y"])  # (a vocabulary saved as an asset file)
    model = tf.keras.Model(words, lookup(words))
    model.save(f"{ram}/km")
    assert gfile.listdir(f"{ram}/km") == ["assets", "fingerprint.pb", "keras_metadata.pb",
                                          "saved_model.pb", "variables"]
    loaded = tf.keras.models.load_model(f"{ram}/km")
    assert loaded(tf.constant(["y", "x", "q"])).numpy().tolist() == [1, 2, 0]
    dense = tf.keras.Sequential([tf.keras.Input((3,)),
                                 tf.keras.layers.Dense(2, kernel_initializer="ones")])
    with pytest.warns(UserWarning, match="HDF5 file"):
        dense.save(f"{ram}/d.h5")
    assert tf.keras.models.load_model(f"{ram}/d.h5")(np.ones((1, 3))).numpy().tolist() == \
        [[3.0, 3.0]]
    for path in (f"{ram}/w.h5", f"{ram}/w.weights.h5", f"{ram}/w/ckpt"):
        dense.save_weights(path)
        dense.layers[0].kernel.assign(tf.zeros([3, 2]))
        dense.load_weights(path)
        assert dense.layers[0].kernel.numpy().sum() == 6.0
    assert os.listdir(tmp_path) == []


@pytest.mark.parametrize("root", ["local", "ram"])
def test_gfile_reads_and_writes_through_two_streams(root, tmp_path):
    # TF's GFile reads and writes through separate streams: the first write truncates
    # (even in "r+"), "a+" reads from the start, and a writer that never writes leaves
    # the file alone.
    base = str(tmp_path) if root == "local" else f"ram://gfile-{uuid.uuid4().hex}"
    path = base + "/a.txt"

    def reset():
        with tf.io.gfile.GFile(path, "w") as f:
            f.write("hello world\n")

    def content():
        with tf.io.gfile.GFile(path) as f:
            return f.read()

    reset()
    with tf.io.gfile.GFile(path, "r+") as f:
        assert f.read(5) == "hello"
        f.write("XY")
    assert content() == "XY"
    reset()
    with tf.io.gfile.GFile(path, "a+") as f:
        assert f.read() == "hello world\n"
        f.write("Z")
        assert f.tell() == 12  # (the reading position)
    assert content() == "hello world\nZ"
    reset()
    tf.io.gfile.GFile(path, "w").close()
    assert content() == "hello world\n"
    with tf.io.gfile.GFile(path, "w") as f:
        with pytest.raises(tf.errors.PermissionDeniedError, match="open for reading"):
            f.seek(0)
        assert f.tell() == 0
        f.write(b"ab")
        assert f.tell() == 2
    with tf.io.gfile.GFile(path, "rb") as f:
        f.seek(-1, 2)
        assert f.read() == b"b"
        f.seek(position=0)
        assert f.read(1) == b"a"
        with pytest.raises(tf.errors.OutOfRangeError):
            f.seek(5, 1)
        with pytest.raises(tf.errors.PermissionDeniedError, match="open for writing"):
            f.write("x")


def test_gfile_opened_for_writing_is_created_on_first_write(tmp_path):
    path = str(tmp_path / "new.txt")
    tf.io.gfile.GFile(path, "w").close()
    assert not os.path.exists(path)
    with tf.io.gfile.GFile(path, "w+") as f:
        with pytest.raises(tf.errors.NotFoundError):
            f.read()
        f.write("x")
    assert open(path).read() == "x"
