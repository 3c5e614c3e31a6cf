"""TFRecordDataset, TextLineDataset and FixedLengthRecordDataset, against TF's outcomes."""
import gzip
import json
import os
import zlib

import numpy as np
import pytest

import eagerflow as tf

IO_DATA = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "io", "data")
STRING = tf.TensorSpec(shape=(), dtype=tf.string)


def _values(ds):
    return [x.numpy() for x in ds]


def _write_records(tmp_path, files=3, records=4):
    paths = []
    for i in range(files):
        path = str(tmp_path / f"f{i}.tfrecord")
        with tf.io.TFRecordWriter(path) as writer:
            for j in range(records):
                writer.write(f"{i}-{j}".encode())
        paths.append(path)
    return paths


def test_tfrecord_dataset_reads_files_in_order(tmp_path):
    paths = _write_records(tmp_path)
    ds = tf.data.TFRecordDataset(paths)
    assert repr(ds) == ("<TFRecordDatasetV2 element_spec=TensorSpec(shape=(), "
                        "dtype=tf.string, name=None)>")
    assert ds.element_spec == STRING
    assert int(ds.cardinality()) == tf.data.UNKNOWN_CARDINALITY
    assert isinstance(ds, tf.data.TFRecordDataset) and isinstance(ds, tf.data.Dataset)
    assert _values(ds) == [f"{i}-{j}".encode() for i in range(3) for j in range(4)]
    # iterated again from the start
    assert len(_values(ds)) == 12


@pytest.mark.parametrize("make", [
    lambda p: p, lambda p: tf.constant(p), lambda p: tf.data.Dataset.from_tensor_slices(p)])
def test_num_parallel_reads_interleaves_records_as_tf(tmp_path, make):
    paths = _write_records(tmp_path)
    ds = tf.data.TFRecordDataset(make(paths), num_parallel_reads=2)
    # TF's order: two files at a time, one record from each in turn
    assert _values(ds) == [b"0-0", b"1-0", b"0-1", b"1-1", b"0-2", b"1-2", b"0-3", b"1-3",
                           b"2-0", b"2-1", b"2-2", b"2-3"]


def test_autotuned_parallel_reads_cycle_over_a_third_of_the_cores(tmp_path):
    # TF reads as an interleave with both its threads and its cycle tuned: a cycle of a
    # third of the cores (one file at a time, in order, on up to three cores)
    paths = _write_records(tmp_path)
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else \
        os.cpu_count()
    ds = tf.data.TFRecordDataset(paths, num_parallel_reads=tf.data.AUTOTUNE)
    assert _values(ds) == _values(tf.data.TFRecordDataset(
        paths, num_parallel_reads=-(-cores // 3)))
    if cores <= 3:
        assert _values(ds) == _values(tf.data.TFRecordDataset(paths))


def test_num_parallel_reads_refused_as_tfs_interleave_of_files_refuses_it(tmp_path):
    paths = _write_records(tmp_path, files=1, records=1)
    for make in (tf.data.TFRecordDataset, tf.data.TextLineDataset):
        with pytest.raises(tf.errors.InvalidArgumentError) as info:
            make(paths, num_parallel_reads=0)
        assert str(info.value) == (
            "{{function_node __wrapped__LegacyParallelInterleaveDatasetV2_Targuments_0_device_"
            "/job:localhost/replica:0/task:0/device:CPU:0}} `cycle_length` must be > 0 "
            "[Op:LegacyParallelInterleaveDatasetV2] name: ")


def test_file_names_given_every_way(tmp_path):
    paths = _write_records(tmp_path, files=2, records=1)
    for names in (paths[0], tf.constant(paths[0]), [paths[0]], tf.constant([[paths[0]]])):
        assert _values(tf.data.TFRecordDataset(names)) == [b"0-0"]
    assert _values(tf.data.TFRecordDataset([])) == []
    from pathlib import Path
    assert _values(tf.data.TFRecordDataset(Path(paths[1]))) == [b"1-0"]


def test_file_names_of_the_wrong_type():
    with pytest.raises(TypeError, match=r"must contain `tf.string` elements. Got `tf.int32` "
                                        r"elements."):
        tf.data.TFRecordDataset([1, 2])
    with pytest.raises(TypeError, match=r"Got a dataset of `tf.int32` elements."):
        tf.data.TFRecordDataset(tf.data.Dataset.from_tensor_slices([1, 2]))
    with pytest.raises(TypeError, match=r"of shape \[\] \(i.e. scalars\). Got a dataset of "
                                        r"element shape TensorShape\(\[1\]\)."):
        tf.data.TextLineDataset(tf.data.Dataset.from_tensor_slices([["a"]]))


@pytest.mark.parametrize("kind", ["", "GZIP", "ZLIB"])
def test_tf_written_files_read_back(kind):
    reference = json.load(open(os.path.join(IO_DATA, "reference.json")))
    expected = [bytes.fromhex(r) for r in reference["records"]]
    path = os.path.join(IO_DATA, f"records_{kind.lower() or 'none'}.tfrecord")
    assert _values(tf.data.TFRecordDataset(path, compression_type=kind)) == expected
    assert _values(tf.data.TFRecordDataset([path, path], compression_type=kind,
                                           buffer_size=7, num_parallel_reads=2)) == \
        [r for r in expected for _ in range(2)]


def test_written_records_round_trip_through_a_pipeline(tmp_path):
    path = str(tmp_path / "ex.tfrecord")
    with tf.io.TFRecordWriter(path, tf.io.TFRecordOptions("GZIP")) as writer:
        for i in range(5):
            example = tf.train.Example(features=tf.train.Features(feature={
                "x": tf.train.Feature(int64_list=tf.train.Int64List(value=[i, i * 2]))}))
            writer.write(example.SerializeToString())
    spec = {"x": tf.io.FixedLenFeature([2], tf.int64)}
    ds = tf.data.TFRecordDataset(path, "GZIP").map(
        lambda r: tf.io.parse_single_example(r, spec)["x"]).batch(2)
    assert [b.tolist() for b in ds.as_numpy_iterator()] == [
        [[0, 0], [1, 2]], [[2, 4], [3, 6]], [[4, 8]]]


def test_truncated_file_raises_data_loss_when_iterated(tmp_path):
    paths = _write_records(tmp_path, files=1)
    data = open(paths[0], "rb").read()
    cut = str(tmp_path / "cut.tfrecord")
    open(cut, "wb").write(data[:-3])
    ds = tf.data.TFRecordDataset(cut)  # nothing is read yet
    it = iter(ds)
    assert [next(it).numpy() for _ in range(3)] == [b"0-0", b"0-1", b"0-2"]
    with pytest.raises(tf.errors.DataLossError, match="truncated record at 57"):
        next(it)


def test_missing_file_raises_not_found_when_iterated(tmp_path):
    for make in (tf.data.TFRecordDataset, tf.data.TextLineDataset,
                 lambda f: tf.data.FixedLengthRecordDataset(f, 3)):
        ds = make([str(tmp_path / "missing")])
        with pytest.raises(tf.errors.NotFoundError, match="No such file or directory"):
            list(ds)


def test_text_lines_drop_line_ends_as_tf(tmp_path):
    path = tmp_path / "t.txt"
    path.write_bytes(b"a\r\nb\n\nc\rd\r\n\r\ne")
    ds = tf.data.TextLineDataset(str(path))
    assert repr(ds) == ("<TextLineDatasetV2 element_spec=TensorSpec(shape=(), "
                        "dtype=tf.string, name=None)>")
    # TF drops every \r, keeps empty lines and a last line without a newline
    assert _values(ds) == [b"a", b"b", b"", b"cd", b"", b"e"]
    path.write_bytes(b"a\nb\n")
    assert _values(tf.data.TextLineDataset([str(path)] * 2)) == [b"a", b"b", b"a", b"b"]
    assert _values(tf.data.TextLineDataset([str(path)] * 2, num_parallel_reads=2)) == \
        [b"a", b"a", b"b", b"b"]
    assert _values(tf.data.TextLineDataset(str(path), buffer_size=1)) == [b"a", b"b"]


@pytest.mark.parametrize("kind", ["GZIP", "ZLIB"])
def test_text_lines_of_compressed_files(tmp_path, kind):
    path = tmp_path / "t.gz"
    data = b"x\ny\r\n" + b"long " * 1000 + b"\nlast"
    path.write_bytes(gzip.compress(data) if kind == "GZIP" else zlib.compress(data))
    assert _values(tf.data.TextLineDataset(str(path), compression_type=kind,
                                           buffer_size=100)) == \
        [b"x", b"y", b"long " * 1000, b"last"]


def test_unknown_compression_names_as_tfs_readers_take_them(tmp_path):
    # TF's TFRecord reader reads a file uncompressed for a name it does not know (even
    # "gzip" or "NONE"); its text, fixed-length and CSV readers refuse one.
    path = _write_records(tmp_path, files=1)[0]
    for name in ["gzip", "NONE", "BAD", tf.constant("ZLIB ")]:
        assert _values(tf.data.TFRecordDataset(path, compression_type=name)) == [
            b"0-0", b"0-1", b"0-2", b"0-3"]
    for ds in [tf.data.TextLineDataset(path, compression_type="gzip"),
               tf.data.FixedLengthRecordDataset(path, 4, compression_type="BAD")]:
        with pytest.raises(tf.errors.InvalidArgumentError,
                           match=r"Unsupported compression_type\."):
            _values(ds)
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match="Unsupported compression_type: BAD."):
        tf.data.experimental.CsvDataset(path, [0], compression_type="BAD")
    with pytest.raises(ValueError, match="Received unknown `compression_type` gzip."):
        tf.data.experimental.make_csv_dataset(path, 1, compression_type="gzip")
    out = str(tmp_path / "w.tfrecord")
    tf.data.experimental.TFRecordWriter(out, "gzip").write(
        tf.data.Dataset.from_tensor_slices(["a"]))
    assert _values(tf.data.TFRecordDataset(out)) == [b"a"]


def test_fixed_length_records_between_header_and_footer(tmp_path):
    path = tmp_path / "f.bin"
    path.write_bytes(b"HH" + b"abcdefghi" + b"FFF")
    ds = tf.data.FixedLengthRecordDataset(str(path), 3, header_bytes=2, footer_bytes=3)
    assert repr(ds) == ("<FixedLengthRecordDatasetV2 element_spec=TensorSpec(shape=(), "
                        "dtype=tf.string, name=None)>")
    assert _values(ds) == [b"abc", b"def", b"ghi"]
    assert _values(tf.data.FixedLengthRecordDataset(str(path), 1, header_bytes=11,
                                                    buffer_size=1)) == [b"F"] * 3
    raw = np.frombuffer(b"".join(_values(tf.data.FixedLengthRecordDataset(
        str(path), 7))), np.uint8)
    assert raw.tobytes() == b"HHabcdefghiFFF"


def test_fixed_length_body_not_a_multiple_of_the_record(tmp_path):
    path = tmp_path / "f.bin"
    path.write_bytes(b"HH" + b"abcdefghij" + b"FFF")
    with pytest.raises(tf.errors.InvalidArgumentError, match=(
            r'Excluding the header \(2 bytes\) and footer \(3 bytes\), input file ".*f.bin" '
            r'has body length 10 bytes, which is not an exact multiple of the record length '
            r'\(3 bytes\).')):
        list(tf.data.FixedLengthRecordDataset(str(path), 3, header_bytes=2, footer_bytes=3))
    path.write_bytes(b"ab")  # shorter than the header: TF's unsigned length
    with pytest.raises(tf.errors.InvalidArgumentError, match="body length 18446744073709551615"):
        list(tf.data.FixedLengthRecordDataset(str(path), 4, header_bytes=3))


def test_fixed_length_records_of_a_compressed_file(tmp_path):
    path = tmp_path / "f.gz"
    path.write_bytes(gzip.compress(b"HHabcdefF"))
    ds = tf.data.FixedLengthRecordDataset(str(path), 2, header_bytes=2, footer_bytes=1,
                                          compression_type="GZIP", buffer_size=3)
    assert _values(ds) == [b"ab", b"cd", b"ef"]
    path.write_bytes(gzip.compress(b"HHabcdefgF"))
    ds = tf.data.FixedLengthRecordDataset(str(path), 2, header_bytes=2, footer_bytes=1,
                                          compression_type="GZIP")
    with pytest.raises(tf.errors.DataLossError, match=r"has body length 7 bytes, which is "
                                                      r"not an exact multiple"):
        list(ds)


def test_readers_inside_dataset_functions(tmp_path):
    paths = _write_records(tmp_path, files=2, records=2)
    ds = tf.data.Dataset.from_tensor_slices(paths).interleave(
        lambda f: tf.data.TFRecordDataset(f), cycle_length=2)
    assert _values(ds) == [b"0-0", b"1-0", b"0-1", b"1-1"]
    ds = tf.data.Dataset.from_tensor_slices(paths).flat_map(tf.data.TFRecordDataset)
    assert _values(ds) == [b"0-0", b"0-1", b"1-0", b"1-1"]


def test_num_parallel_reads_refills_a_finished_files_slot_in_turn(tmp_path):
    paths = []
    for i, n in enumerate([1, 3, 2, 4, 1]):
        paths.append(str(tmp_path / f"f{i}"))
        with tf.io.TFRecordWriter(paths[-1]) as writer:
            for j in range(n):
                writer.write(f"{i}{j}".encode())

    def order(k):
        return [x.decode() for x in _values(tf.data.TFRecordDataset(paths,
                                                                    num_parallel_reads=k))]
    # TF's orders
    assert order(2) == ["00", "10", "11", "20", "12", "21", "30", "40", "31", "32", "33"]
    assert order(3) == ["00", "10", "20", "11", "21", "30", "12", "31", "40", "32", "33"]
    assert order(7) == ["00", "10", "20", "30", "40", "11", "21", "31", "12", "32", "33"]


def test_experimental_tfrecord_writer_writes_a_dataset(tmp_path):
    path = str(tmp_path / "w.tfrecord")
    writer = tf.data.experimental.TFRecordWriter(path, compression_type="GZIP")
    assert writer.write(tf.data.Dataset.from_tensor_slices(["a", "bc"])) is None
    got = list(tf.data.TFRecordDataset(path, compression_type="GZIP").as_numpy_iterator())
    assert got == [b"a", b"bc"]
    # TF 2.21's message for a dataset of non-string elements.
    with pytest.raises(TypeError, match=r"with shapes \(\) and types <dtype: 'int64'>"):
        writer.write(tf.data.Dataset.range(3))


def _write_examples(tmp_path):
    for k in range(2):
        with tf.io.TFRecordWriter(str(tmp_path / f"r{k}.tfrecord")) as writer:
            for i in range(5):
                writer.write(tf.train.Example(features=tf.train.Features(feature={
                    "x": tf.train.Feature(int64_list=tf.train.Int64List(value=[k * 10 + i])),
                    "v": tf.train.Feature(float_list=tf.train.FloatList(value=[0.5] * i)),
                    "label": tf.train.Feature(int64_list=tf.train.Int64List(value=[i % 2]))})
                ).SerializeToString())
    return str(tmp_path / "*.tfrecord")


def test_make_batched_features_dataset_as_tf(tmp_path):
    pattern = _write_examples(tmp_path)
    features = {"x": tf.io.FixedLenFeature([], tf.int64), "v": tf.io.VarLenFeature(tf.float32),
                "label": tf.io.FixedLenFeature([], tf.int64)}
    ds = tf.data.experimental.make_batched_features_dataset(
        pattern, 3, features, label_key="label", shuffle=False, num_epochs=1)
    assert ds.element_spec == ({"v": tf.SparseTensorSpec([None, None], tf.float32),
                                "x": tf.TensorSpec([None], tf.int64)},
                               tf.TensorSpec([None], tf.int64))
    batches = [(f["x"].numpy().tolist(), label.numpy().tolist(),
                f["v"].dense_shape.numpy().tolist()) for f, label in ds]
    assert batches == [([0, 1, 2], [0, 1, 0], [3, 2]), ([3, 4, 10], [1, 0, 0], [3, 4]),
                       ([11, 12, 13], [1, 0, 1], [3, 3]), ([14], [0], [1, 4])]
    # repeated forever: whole batches of a static size; files read two at a time
    ds = tf.data.experimental.make_batched_features_dataset(
        pattern, 4, {"x": features["x"]}, shuffle=False, reader_num_threads=2)
    assert ds.element_spec == {"x": tf.TensorSpec([4], tf.int64)}
    assert [b["x"].numpy().tolist() for b in ds.take(3)] == [
        [0, 10, 1, 11], [2, 12, 3, 13], [4, 14, 0, 10]]
    with pytest.raises(ValueError, match=r"The `label_key` provided \(y\) must be one of the "
                                         r"`features` keys: dict_keys\(\['x'\]\)."):
        tf.data.experimental.make_batched_features_dataset(pattern, 4, {"x": features["x"]},
                                                           label_key="y")


def test_files_named_by_a_python_string_inside_a_function(tmp_path):
    path = tmp_path / "lines.txt"
    path.write_text("a\nb\nc\n")

    @tf.function
    def count(name):
        n = tf.constant(0)
        for _ in tf.data.TextLineDataset(name):
            n += 1
        return n

    assert int(count(str(path))) == 3
    with pytest.raises(tf.errors.NotFoundError, match="No such file or directory"):
        count(str(tmp_path / "missing.txt"))
