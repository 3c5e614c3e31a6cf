"""`file://` URLs name local files in tf.io.gfile and the file ops, as in TF; other schemes
eagerflow has no file system for raise TF's UnimplementedError (they used to make folders
named ``file:`` or ``gs:`` under the working directory)."""
import os

import pytest

import eagerflow as tf
from eagerflow import errors


def test_file_urls_name_local_files(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    url = "file://" + str(tmp_path / "t")
    tf.io.gfile.makedirs(url + "/a")
    assert os.path.isdir(tmp_path / "t" / "a")
    assert tf.io.gfile.exists(url + "/a") and tf.io.gfile.isdir(url)
    with tf.io.gfile.GFile(url + "/a/x.txt", "w") as f:
        f.write("hi")
    assert f.name == url + "/a/x.txt"
    assert tf.io.gfile.GFile(url + "/a/x.txt").read() == "hi"
    assert tf.io.gfile.listdir(url + "/a") == ["x.txt"]
    assert tf.io.gfile.glob(url + "/a/*.txt") == [url + "/a/x.txt"]  # (TF keeps the scheme)
    assert tf.io.gfile.stat(url + "/a/x.txt").length == 2
    assert list(tf.io.gfile.walk(url)) == [(url, ["a"], []), (url + "/a", [], ["x.txt"])]
    tf.io.gfile.copy(url + "/a/x.txt", url + "/a/y.txt")
    tf.io.gfile.rename(url + "/a/y.txt", url + "/a/z.txt")
    tf.io.gfile.remove(url + "/a/z.txt")
    assert tf.io.read_file(url + "/a/x.txt").numpy() == b"hi"
    tf.io.write_file(url + "/b.txt", "there")
    assert (tmp_path / "t" / "b.txt").read_text() == "there"
    assert tf.io.matching_files(url + "/a/*").numpy().tolist() == [
        (url + "/a/x.txt").encode()]
    tf.io.gfile.rmtree(url)
    assert not tf.io.gfile.exists(url)
    assert not os.path.exists(tmp_path / "file:")


def test_other_schemes_are_unimplemented(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    with pytest.raises(errors.UnimplementedError,
                       match=r"^File system scheme 'foo' not implemented \(file: 'foo://x'\)$"):
        tf.io.gfile.exists("foo://x")
    with pytest.raises(errors.UnimplementedError):
        tf.io.gfile.makedirs("gs://bucket/dir")
    assert os.listdir(tmp_path) == []
    assert tf.io.gfile.get_registered_schemes() == ["ram", "file", ""]
