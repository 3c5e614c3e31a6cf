"""TFRecord files read a block at a time: records across blocks, larger than a block,
and damage past the first block."""
import pathlib

import pytest

import eagerflow as tf
from tests.internals import RecordReader, read_records

MB = 1 << 20


def _write(path, records, kind=""):
    with tf.io.TFRecordWriter(str(path), kind) as writer:
        for r in records:
            writer.write(r)
    return str(path)


@pytest.mark.parametrize("kind", ["", "GZIP"])
def test_records_across_and_larger_than_a_block(tmp_path, kind):
    records = [bytes([i]) * n for i, n in enumerate(
        [MB - 30, 17, 3 * MB + 5, 0, 12, MB, 1, 2 * MB - 7, 5])]
    path = _write(tmp_path / "r", records, kind)
    assert list(read_records(path, kind)) == records
    reader = RecordReader(path, kind)
    assert [next(reader), next(reader), next(reader)] == records[:3]
    assert list(read_records(path, kind, offset=reader.offset)) == records[3:]
    reader.close()


@pytest.mark.parametrize("cut", [4, 11, 12, 13, 500])
def test_a_file_cut_inside_a_record_of_a_later_block(tmp_path, cut):
    records = [bytes([i % 256]) * 1000 for i in range(1500)]  # about 1.5 blocks
    path = _write(tmp_path / "r", records)
    data = pathlib.Path(path).read_bytes()
    start = 1200 * 1016  # record 1200 begins here, in the second block
    pathlib.Path(path).write_bytes(data[:start + cut])
    got = []
    if cut < 12:  # a partial header: the file ends quietly, as in TF
        got.extend(read_records(path))
    else:
        with pytest.raises(tf.errors.DataLossError,
                           match=f"truncated record at {start}' failed with Read less"):
            got.extend(read_records(path))
    assert got == records[:1200]


@pytest.mark.parametrize("where, message", [(3, "corrupted record at {0}"),
                                            (12 + 500, "corrupted record at {1}")])
def test_damage_in_a_later_block(tmp_path, where, message):
    records = [bytes([i % 256]) * 1000 for i in range(1500)]
    path = _write(tmp_path / "r", records)
    data = bytearray(pathlib.Path(path).read_bytes())
    start = 1100 * 1016
    data[start + where] ^= 1
    pathlib.Path(path).write_bytes(bytes(data))
    got = []
    with pytest.raises(tf.errors.DataLossError,
                       match=message.format(start, start + 12) + "$"):
        got.extend(read_records(path))
    assert got == records[:1100]
