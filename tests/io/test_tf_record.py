"""TFRecord files: TF's files read here, ours byte for byte like TF's, damage reported as TF
reports it (plus the file), and any records surviving a round trip."""
import gzip
import hashlib
import json
import os
import pathlib
import zlib

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import eagerflow as tf
from tests.internals import RecordReader, crc32c, crc32c_many, masked_crc32c, read_records

DATA = os.path.join(os.path.dirname(__file__), "data")
with open(os.path.join(DATA, "reference.json")) as _f:
    REFERENCE = json.load(_f)
RECORDS = [bytes.fromhex(r) for r in REFERENCE["records"]]
KINDS = {"": "none", "GZIP": "gzip", "ZLIB": "zlib"}


def _tf_file(kind):
    return os.path.join(DATA, f"records_{KINDS[kind]}.tfrecord")


def _stream(path, kind):
    data = pathlib.Path(path).read_bytes()
    if kind == "GZIP":
        return gzip.decompress(data)
    if kind == "ZLIB":
        return zlib.decompress(data)
    return data


# -- CRC-32C ----------------------------------------------------------------------------------

@pytest.mark.parametrize("data, crc", [
    (b"", 0), (b"123456789", 0xE3069283), (bytes(32), 0x8A9136AA),
    (b"\xff" * 32, 0x62A8AB43), (bytes(range(32)), 0x46DD794E),
    (bytes(range(31, -1, -1)), 0x113FDB5C)])
def test_crc32c_known_vectors(data, crc):
    assert crc32c(data) == crc


@settings(max_examples=40, deadline=None)
@given(st.binary(max_size=6000), st.integers(0, 6000))
def test_crc32c_long_inputs_agree_with_the_byte_loop_and_continue(data, cut):
    # the vectorized path (long inputs) against the byte loop (short pieces, chained)
    want = 0
    for i in range(0, len(data), 1000):
        want = crc32c(data[i:i + 1000], want)
    assert crc32c(data) == want
    cut = min(cut, len(data))
    assert crc32c(data[cut:], crc32c(data[:cut])) == want


@settings(max_examples=40, deadline=None)
@given(st.lists(st.one_of(st.binary(max_size=40), st.binary(min_size=100, max_size=300)),
                max_size=40))
def test_crc32c_of_many_buffers_at_once(buffers):
    assert crc32c_many(buffers) == [crc32c(b) for b in buffers]


@pytest.mark.parametrize("sizes", [[100] * 50, [3072] * 9, [17] * 4 + [40000] * 5,
                                   [70000] * 4, list(range(16, 400, 7))])
def test_crc32c_of_many_buffers_of_one_size_and_of_many(sizes):
    rng = np.random.default_rng(len(sizes))
    buffers = [rng.bytes(n) for n in sizes]
    assert crc32c_many(buffers) == [crc32c(b) for b in buffers]


def test_masked_crc_of_tf_headers():
    data = pathlib.Path(_tf_file("")).read_bytes()
    assert int.from_bytes(data[8:12], "little") == masked_crc32c(data[:8])


# -- TF's files and ours ----------------------------------------------------------------------

@pytest.mark.parametrize("kind", list(KINDS))
def test_reads_files_written_by_tensorflow(kind):
    assert list(tf.compat.v1.io.tf_record_iterator(_tf_file(kind), kind)) == RECORDS
    options = tf.io.TFRecordOptions(kind)
    assert list(tf.compat.v1.io.tf_record_iterator(_tf_file(kind), options)) == RECORDS


@pytest.mark.parametrize("kind", list(KINDS))
def test_writes_what_tensorflow_writes(kind, tmp_path):
    path = str(tmp_path / "out.tfrecord")
    with tf.io.TFRecordWriter(path, kind) as writer:
        for r in RECORDS:
            writer.write(r)
    # the record stream (what TF's reader checks) is TF's, byte for byte
    assert _stream(path, kind) == _stream(_tf_file(kind), kind)
    if not kind:
        assert pathlib.Path(path).read_bytes() == pathlib.Path(_tf_file(kind)).read_bytes()


@pytest.mark.parametrize("case", sorted(REFERENCE["damaged"]))
def test_damaged_files_fail_as_in_tensorflow(case, tmp_path):
    error, count = REFERENCE["damaged"][case]
    data = bytearray(pathlib.Path(_tf_file("")).read_bytes())
    if case.startswith("cut"):
        data = data[:int(case[3:])]
    else:
        data[int(case[4:])] ^= 4
    path = str(tmp_path / "damaged.tfrecord")
    pathlib.Path(path).write_bytes(bytes(data))
    got = []
    if error is None:
        got.extend(read_records(path))
    else:
        with pytest.raises(tf.errors.DataLossError) as info:
            got.extend(read_records(path))
        assert str(info.value) == error[1]
    assert got == RECORDS[:count]


def test_damage_after_the_first_megabyte(tmp_path):
    # records are read and checked a batch at a time: the ones before the damage come out
    records = [bytes([i % 251]) * 3000 for i in range(700)]
    path = str(tmp_path / "big.tfrecord")
    with tf.io.TFRecordWriter(path) as writer:
        for r in records:
            writer.write(r)
    data = bytearray(pathlib.Path(path).read_bytes())
    assert len(data) == 700 * 3016
    data[500 * 3016 + 12 + 7] ^= 1
    pathlib.Path(path).write_bytes(bytes(data))
    got = []
    with pytest.raises(tf.errors.DataLossError, match=f"corrupted record at {500 * 3016 + 12}$"):
        got.extend(read_records(path))
    assert got == records[:500]


def test_a_huge_length_with_a_good_checksum_is_truncation_not_a_hang(tmp_path):
    length = (1 << 62).to_bytes(8, "little")
    path = str(tmp_path / "huge.tfrecord")
    pathlib.Path(path).write_bytes(length + masked_crc32c(length).to_bytes(4, "little") + b"abc")
    with pytest.raises(tf.errors.DataLossError, match="truncated record at 0"):
        list(read_records(path))


@pytest.mark.parametrize("case", sorted(REFERENCE["damaged_compressed"]))
def test_damaged_compressed_files_fail_as_in_tensorflow(case, tmp_path):
    error, count = REFERENCE["damaged_compressed"][case]
    kind, damage = case.split("-")
    data = pathlib.Path(_tf_file(kind)).read_bytes()
    middle = len(data) // 2
    data = {"flip": data[:middle] + bytes([data[middle] ^ 0xFF]) + data[middle + 1:],
            "cut": data[:-20], "cut40": data[:40], "header": b"xx" + data[2:]}[damage]
    path = str(tmp_path / "damaged.tfrecord")
    pathlib.Path(path).write_bytes(data)
    got = []
    if error is None:
        got.extend(read_records(path, kind))
    else:
        with pytest.raises(tf.errors.DataLossError) as info:
            got.extend(read_records(path, kind))
        assert str(info.value) == error[1]
    assert got == RECORDS[:count]


@pytest.mark.parametrize("kind", list(KINDS))
def test_reading_resumes_at_an_offset(kind):
    reader = RecordReader(_tf_file(kind), kind)
    assert [next(reader), next(reader)] == RECORDS[:2]
    offset = reader.offset
    reader.close()
    assert list(read_records(_tf_file(kind), kind, offset=offset)) == RECORDS[2:]
    assert list(read_records(_tf_file(kind), kind, buffer_size=7)) == RECORDS


def test_gzip_members_one_after_another(tmp_path):
    path = str(tmp_path / "two.tfrecord.gz")
    for part in (["a", "b"], ["c"]):
        with tf.io.TFRecordWriter(str(tmp_path / "part"), "GZIP") as w:
            for r in part:
                w.write(r)
        with open(path, "ab") as f:
            f.write(pathlib.Path(tmp_path / "part").read_bytes())
    assert list(read_records(path, "GZIP")) == [b"a", b"b", b"c"]


@settings(max_examples=30, deadline=None)
@given(records=st.lists(st.binary(max_size=3000), max_size=8),
       kind=st.sampled_from(list(KINDS)), level=st.sampled_from([None, 0, 9]))
def test_any_records_survive_a_round_trip(tmp_path_factory, records, kind, level):
    path = str(tmp_path_factory.mktemp("rt") / "r.tfrecord")
    options = tf.io.TFRecordOptions(kind, compression_level=level)
    with tf.io.TFRecordWriter(path, options) as writer:
        for r in records:
            writer.write(r)
    assert list(read_records(path, kind)) == records


def test_flush_makes_the_records_so_far_readable(tmp_path):
    path = str(tmp_path / "f.tfrecord")
    for kind in KINDS:
        writer = tf.io.TFRecordWriter(path, kind)
        writer.write(b"one")
        writer.flush()
        assert list(read_records(path, kind)) == [b"one"]
        writer.close()


# sha256 (first 16 hex digits) of the files TF 2.21 wrote of _ZLIB_RECORDS with these options
_TF_ZLIB_FILES = [
    (dict(compression_type="ZLIB"), "b99edd3d58399161"),
    (dict(compression_type="GZIP"), "9c656da383641ada"),
    (dict(compression_type="ZLIB", mem_level=1), "c21dccd734815df1"),
    (dict(compression_type="ZLIB", window_bits=9), "03dc7fe1876208c3"),
    (dict(compression_type="GZIP", compression_strategy=1, compression_level=9),
     "9d9ff4e1d492d753"),
]
_ZLIB_RECORDS = [bytes((i * 7 + j * j) % 251 for j in range(300)) + b"abc" * 200 +
                 b"record %d" % i for i in range(300)]


@pytest.mark.parametrize("options, digest", _TF_ZLIB_FILES)
def test_compressed_files_are_tfs_bytes_with_its_zlib_settings(tmp_path, options, digest):
    # (TF's deflate uses memory level 9 and the options' zlib settings)
    path = str(tmp_path / "z.tfrecord")
    with tf.io.TFRecordWriter(path, tf.io.TFRecordOptions(**options)) as writer:
        for r in _ZLIB_RECORDS:
            writer.write(r)
    assert hashlib.sha256(pathlib.Path(path).read_bytes()).hexdigest()[:16] == digest


def test_flush_of_a_compressed_file_writes_tfs_bytes(tmp_path):
    path = tmp_path / "f.tfrecord"
    writer = tf.io.TFRecordWriter(str(path), "GZIP")
    writer.write(b"abc")
    writer.flush()
    assert path.read_bytes().hex() == "1f8b0800000000000003626680800d333df9129392f3c23f2a0204"
    writer.write(b"def")
    writer.close()
    assert path.read_bytes().hex() == (
        "1f8b0800000000000003626680800d333df9129392f3c23f2a0204183392504a6a5a66fe746f004c6dc8"
        "2026000000")


def test_records_before_damage_in_a_compressed_file_are_read_first(tmp_path):
    # TF reads a compressed file's records up to where its stream is damaged
    path = tmp_path / "d.tfrecord"
    with tf.io.TFRecordWriter(str(path), "GZIP") as writer:
        for i in range(20):
            writer.write(b"rec%d" % i * 10)
    path.write_bytes(path.read_bytes() + b"junk")
    for read in (lambda: tf.data.TFRecordDataset(str(path), compression_type="GZIP"),
                 lambda: tf.compat.v1.io.tf_record_iterator(str(path), "GZIP")):
        got = []
        with pytest.raises(tf.errors.DataLossError,
                           match="inflate\\(\\) failed with error -3: incorrect header check"):
            for record in read():
                got.append(record)
        assert len(got) == 20


# -- the API's edges --------------------------------------------------------------------------

def test_writer_errors(tmp_path):
    writer = tf.io.TFRecordWriter(str(tmp_path / "w.tfrecord"))
    with pytest.raises(TypeError):
        writer.write(1)
    writer.write("str is UTF-8")
    writer.close()
    writer.close()
    with pytest.raises(tf.errors.FailedPreconditionError, match="Writer is closed."):
        writer.write(b"x")
    missing = str(tmp_path / "no_dir" / "x")
    with pytest.raises(tf.errors.NotFoundError, match="No such file or directory"):
        tf.io.TFRecordWriter(missing)
    with pytest.raises(tf.errors.NotFoundError, match="No such file or directory"):
        list(tf.compat.v1.io.tf_record_iterator(missing))
    assert list(read_records(str(tmp_path / "w.tfrecord"))) == [b"str is UTF-8"]


def test_options():
    assert tf.io.TFRecordOptions.get_compression_type_string("ZLIB") == "ZLIB"
    assert tf.io.TFRecordOptions.get_compression_type_string(None) == ""
    assert tf.io.TFRecordOptions.get_compression_type_string(
        tf.compat.v1.io.TFRecordCompressionType.GZIP) == "GZIP"
    options = tf.io.TFRecordOptions("GZIP")
    assert (options.compression_type, options.compression_level) == ("GZIP", None)
    with pytest.raises(ValueError, match='Not a valid compression_type: "BZ"'):
        tf.io.TFRecordOptions("BZ")


def test_the_reader_takes_string_tensors_and_paths():
    # (TFRecordDataset hands its file names and options over as string tensors)
    path = pathlib.Path(_tf_file("GZIP"))
    assert list(read_records(tf.constant(str(path)), tf.constant("GZIP"),
                             tf.constant(1024, tf.int64))) == RECORDS
    assert list(read_records(path, b"GZIP")) == RECORDS


def test_bad_compression_level_and_multidimensional_buffers(tmp_path):
    with pytest.raises(ValueError, match="compression_level must be between -1 and 9"):
        tf.io.TFRecordWriter(str(tmp_path / "x"), tf.io.TFRecordOptions("GZIP",
                                                                         compression_level=42))
    path = str(tmp_path / "m.tfrecord")
    with tf.io.TFRecordWriter(path) as writer:
        writer.write(memoryview(np.arange(6, dtype=np.int32).reshape(2, 3)))
    assert list(read_records(path)) == [np.arange(6, dtype=np.int32).tobytes()]
