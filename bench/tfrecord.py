"""TFRecord files and Example parsing, beside TF.

    python bench/tfrecord.py [--reps 5]

* ``write_100B`` / ``read_100B``: 10,000 records of 100 bytes written to (read
  from) a TFRecord file, per record;
* ``write_3KB`` / ``read_3KB``: 2,000 records of 3,072 bytes (an image's worth);
* ``read_3KB_gzip``: the same records in a GZIP file;
* ``parse_example``: a batch of 1,000 serialized Examples (an int64, 16 floats
  and a 3 KB string) parsed by one ``parse_example``, per Example;
* ``parse_single_example``: the same, one call per Example.

NumPy's floor frames the same records with zlib's CRC-32 (a C loop) in place of
CRC-32C: what the checksums cost beyond reading and writing the bytes.
"""
import os
import struct
import sys
import tempfile
import zlib

import numpy as np

import harness

_DIR = tempfile.mkdtemp(prefix="ef_bench_tfrecord_")
_RNG = np.random.default_rng(0)
_RECORDS = {"100B": [_RNG.bytes(100) for _ in range(10000)],
            "3KB": [_RNG.bytes(3072) for _ in range(2000)]}


def _floor_write(path, records):
    with open(path, "wb") as f:
        for r in records:
            length = struct.pack("<Q", len(r))
            f.write(length + struct.pack("<I", zlib.crc32(length)) + r
                    + struct.pack("<I", zlib.crc32(r)))


def _floor_read(path):
    out = []
    with open(path, "rb") as f:
        while header := f.read(12):
            (n,) = struct.unpack_from("<Q", header)
            assert zlib.crc32(header[:8]) == struct.unpack_from("<I", header, 8)[0]
            data = f.read(n + 4)
            assert zlib.crc32(data[:n]) == struct.unpack_from("<I", data, n)[0]
            out.append(data[:n])
    return out


def _path(lib, size, compression):
    return os.path.join(_DIR, f"{getattr(lib, '__name__', 'x')}_{size}{compression}.rec")


def _lib_write(lib, path, records, compression):
    with lib.io.TFRecordWriter(path, compression) as w:
        for r in records:
            w.write(r)


def _write(size, compression=""):
    def build(lib, make):
        records, path = _RECORDS[size], _path(lib, size, compression)
        if lib is np:
            return (lambda: _floor_write(path, records)), len(records)
        if not hasattr(lib, "io"):
            return None
        return (lambda: _lib_write(lib, path, records, compression)), len(records)
    return build


def _read(size, compression=""):
    def build(lib, make):
        records, path = _RECORDS[size], _path(lib, size, compression)
        if lib is np:
            _floor_write(path, records)
            return (lambda: _floor_read(path)), len(records)
        if not hasattr(lib, "io"):
            return None
        _lib_write(lib, path, records, compression)

        def read():
            got = list(lib.compat.v1.io.tf_record_iterator(path, compression))
            assert len(got) == len(records)
        return read, len(records)
    return build


def _examples(lib):
    train = lib.train
    out = []
    for i in range(1000):
        out.append(train.Example(features=train.Features(feature={
            "label": train.Feature(int64_list=train.Int64List(value=[i % 10])),
            "f": train.Feature(float_list=train.FloatList(value=_RNG.random(16).tolist())),
            "image": train.Feature(bytes_list=train.BytesList(value=[_RNG.bytes(3072)]))})
        ).SerializeToString())
    return out


def _spec(lib):
    return {"label": lib.io.FixedLenFeature([], lib.int64),
            "f": lib.io.FixedLenFeature([16], lib.float32),
            "image": lib.io.FixedLenFeature([], lib.string)}


def _parse_batch(lib, make):
    if lib is np or not hasattr(lib, "io"):
        return None
    examples, spec = lib.constant(_examples(lib)), _spec(lib)
    return (lambda: lib.io.parse_example(examples, spec)), 1000


def _parse_single(lib, make):
    if lib is np or not hasattr(lib, "io"):
        return None
    examples, spec = _examples(lib), _spec(lib)

    def parse():
        for e in examples:
            lib.io.parse_single_example(e, spec)
    return parse, 1000


CASES = {
    "write_100B": _write("100B"),
    "read_100B": _read("100B"),
    "write_3KB": _write("3KB"),
    "read_3KB": _read("3KB"),
    "read_3KB_gzip": _read("3KB", "GZIP"),
    "parse_example": _parse_batch,
    "parse_single_example": _parse_single,
}

if __name__ == "__main__":
    sys.exit(harness.main(CASES, __file__))
