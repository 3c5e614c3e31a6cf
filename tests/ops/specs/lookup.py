"""Specs of the lookup-table ops (lookup_ops.py) and of the string hashing ops."""
import numpy as np

import eagerflow as tf
from tests.ops.spec import OpSpec

_NO_GRAD = "lookup table op"


def _bytes(*words):
    out = np.empty(len(words), object)
    out[:] = [w.encode() for w in words]
    return out


def _static(keys, values):
    return tf.lookup.StaticHashTable(tf.lookup.KeyValueTensorInitializer(keys, values), -1)


def _mutable(keys, values):
    table = tf.lookup.experimental.MutableHashTable(tf.string, tf.int64, -1)
    table.insert(keys, values)
    return table


def _removed(keys, values):
    table = _mutable(keys, values)
    table.remove(keys[:1])
    return table.export()


def _imported(keys, values):
    table = tf.lookup.experimental.MutableHashTable(tf.string, tf.int64, -1)
    table.import_(keys, values)
    return table.lookup(keys)


def _from_file(keys, values):
    import os
    import tempfile
    fd, path = tempfile.mkstemp(suffix=".txt")
    os.close(fd)
    tf.io.write_file(path, tf.strings.reduce_join(keys, separator="\n"))
    try:
        table = tf.lookup.StaticHashTable(tf.lookup.TextFileInitializer(
            path, tf.string, tf.lookup.TextFileIndex.WHOLE_LINE, tf.int64,
            tf.lookup.TextFileIndex.LINE_NUMBER, value_index_offset=1), -1)
        return table.lookup(keys)
    finally:
        os.remove(path)


def _raw_table(op, **attrs):
    """``fn(keys, values)``: a table made by raw op `op`, filled by the raw ops, looked up."""
    def fn(keys, values):
        table = getattr(tf.raw_ops, op)(key_dtype=tf.string, value_dtype=tf.int64, **attrs)
        if op == "HashTableV2":
            tf.raw_ops.InitializeTableV2(table_handle=table, keys=keys, values=values)
        else:
            tf.raw_ops.LookupTableInsertV2(table_handle=table, keys=keys, values=values)
        default = tf.constant([-1, -1] if attrs else -1, tf.int64)
        return tf.raw_ops.LookupTableFindV2(table_handle=table, keys=tf.constant(["c", "z"]),
                                            default_value=default)
    return fn


def _raw_vectors(keys, values):
    table = tf.raw_ops.MutableHashTableOfTensorsV2(key_dtype=tf.string, value_dtype=tf.int64,
                                                   value_shape=[2])
    tf.raw_ops.LookupTableInsertV2(table_handle=table, keys=keys,
                                   values=tf.stack([values, -values], axis=1))
    return tf.raw_ops.LookupTableFindV2(table_handle=table, keys=tf.constant(["c", "z"]),
                                        default_value=tf.constant([0, 0], tf.int64))


_KEYS, _VALUES = _bytes("a", "b", "c"), np.array([1, 2, 3], np.int64)

SPECS = [
    OpSpec("StringToHashBucketFast", lambda x: tf.strings.to_hash_bucket_fast(x, 1000),
           [_bytes("", "a", "Hello", "TensorFlow", "x" * 20, "y" * 40, "z" * 100)],
           lambda x: np.array([263, 939, 151, 254, 348, 6, 73]), grad="string op"),
    OpSpec("StringToHashBucketStrong",
           lambda x: tf.strings.to_hash_bucket_strong(x, 1000, [1, 2]),
           [_bytes("", "Hello", "x" * 20)], lambda x: np.array([435, 274, 326]),
           grad="string op"),
    OpSpec("StringToHashBucket", lambda x: tf.strings.to_hash_bucket(x, 1000),
           [_bytes("", "a", "Hello", "TensorFlow", "x" * 20)],
           lambda x: np.array([899, 868, 941, 232, 341]), grad="string op"),
    OpSpec("Fingerprint", tf.fingerprint, [_bytes("a", "", "hello")],
           lambda x: np.array([[227, 117, 223, 182, 101, 66, 69, 179],
                               [79, 64, 144, 47, 59, 106, 225, 154],
                               [232, 12, 56, 49, 169, 229, 139, 180]], np.uint8),
           grad="string op"),
    OpSpec("InitializeTableV2", lambda k, v: _static(k, v).lookup(k), [_KEYS, _VALUES],
           lambda k, v: v, grad=_NO_GRAD),
    OpSpec("InitializeTableFromTextFileV2", _from_file, [_KEYS, _VALUES], lambda k, v: v,
           grad=_NO_GRAD),
    OpSpec("LookupTableFindV2", lambda k, v: _static(k, v).lookup(tf.constant(["c", "z"])),
           [_KEYS, _VALUES], lambda k, v: np.array([3, -1]), grad=_NO_GRAD),
    OpSpec("LookupTableSizeV2", lambda k, v: _static(k, v).size(), [_KEYS, _VALUES],
           lambda k, v: np.int64(3), grad=_NO_GRAD),
    OpSpec("LookupTableInsertV2", lambda k, v: _mutable(k, v).lookup(k), [_KEYS, _VALUES],
           lambda k, v: v, grad=_NO_GRAD),
    OpSpec("LookupTableExportV2", lambda k, v: _mutable(k, v).export(), [_KEYS, _VALUES],
           lambda k, v: (k, v), grad=_NO_GRAD),
    OpSpec("LookupTableRemoveV2", _removed, [_KEYS, _VALUES],
           lambda k, v: (k[1:], v[1:]), grad=_NO_GRAD),
    OpSpec("LookupTableImportV2", _imported, [_KEYS, _VALUES], lambda k, v: v,
           grad=_NO_GRAD),
    OpSpec("HashTableV2", _raw_table("HashTableV2"), [_KEYS, _VALUES],
           lambda k, v: np.array([3, -1]), grad=_NO_GRAD),
    OpSpec("MutableHashTableV2", _raw_table("MutableHashTableV2"), [_KEYS, _VALUES],
           lambda k, v: np.array([3, -1]), grad=_NO_GRAD),
    OpSpec("MutableHashTableOfTensorsV2", _raw_vectors, [_KEYS, _VALUES],
           lambda k, v: np.array([[3, -3], [0, 0]]), grad=_NO_GRAD),
]
