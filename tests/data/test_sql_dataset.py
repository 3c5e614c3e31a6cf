"""tf.data.experimental.SqlDataset against TF 2.21's outcomes on the same SQLite tables."""
import sqlite3

import numpy as np
import pytest

import eagerflow as tf


@pytest.fixture
def db(tmp_path):
    path = str(tmp_path / "x.db")
    with sqlite3.connect(path) as c:
        c.execute("create table t (name text, age integer, score real, b blob)")
        c.executemany("insert into t values (?, ?, ?, ?)", [
            ("12abc", 300, 1.5, b"xy"), (" 7.5e1z", -2, 2.5, None), (None, 3, None, b"")])
    return path


def _rows(db, query, types):
    return [tuple(v.numpy() for v in (row if isinstance(row, tuple) else (row,)))
            for row in tf.data.experimental.SqlDataset("sqlite", db, query, types)]


@pytest.mark.parametrize("query, types, expected", [  # TF's values
    ("select name from t", (tf.int32,), [12, 7, 0]),
    ("select name from t", (tf.float64,), [12.0, 75.0, 0.0]),
    ("select name from t", (tf.string,), [b"12abc", b" 7.5e1z", b""]),
    ("select age from t", (tf.int8,), [44, -2, 3]),
    ("select age from t", (tf.uint8,), [44, 254, 3]),
    ("select age from t", (tf.string,), [b"300", b"-2", b"3"]),
    ("select score from t", (tf.string,), [b"1.5", b"2.5", b""]),
    ("select score from t", (tf.int64,), [1, 2, 0]),
    ("select b from t", (tf.string,), [b"xy", b"", b""]),
    ("select age from t", (tf.bool,), [True, True, True]),
])
def test_column_conversions(db, query, types, expected):
    rows = _rows(db, query, types)
    assert [r[0] for r in rows] == expected
    assert all(r[0].dtype == types[0].as_numpy_dtype for r in rows if types[0] != tf.string)


def test_structure_and_errors(db):
    ds = tf.data.experimental.SqlDataset("sqlite", db, "select name, age, score from t",
                                         (tf.string, tf.int32, tf.float64))
    assert ds.element_spec == (tf.TensorSpec([], tf.string), tf.TensorSpec([], tf.int32),
                               tf.TensorSpec([], tf.float64))
    assert ds.cardinality().numpy() == tf.data.UNKNOWN_CARDINALITY
    single = tf.data.experimental.SqlDataset("sqlite", db, "select age from t", tf.int64)
    assert single.element_spec == tf.TensorSpec([], tf.int64)
    assert list(single.as_numpy_iterator()) == [300, -2, 3]
    with pytest.raises(tf.errors.InvalidArgumentError, match="mysql, is not supported"):
        tf.data.experimental.SqlDataset("mysql", db, "select age from t", (tf.int64,))
    with pytest.raises(tf.errors.InvalidArgumentError, match="must be one of: DT_STRING"):
        tf.data.experimental.SqlDataset("sqlite", db, "select age from t", (tf.float32,))
    with pytest.raises(tf.errors.UnknownError, match="no such column: nope"):
        _rows(db, "select nope from t", (tf.int64,))
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"columns in query \(2\) must match .* output_types \(1\)"):
        _rows(db, "select name, age from t", (tf.int64,))
    missing = tf.data.experimental.SqlDataset("sqlite", "/no/such/dir/x.db", "select 1",
                                              (tf.int64,))  # (made; fails when read)
    with pytest.raises(tf.errors.InvalidArgumentError, match="unable to open database"):
        list(missing)


def test_in_a_function_and_pipeline(db):
    @tf.function
    def total():
        ds = tf.data.experimental.SqlDataset("sqlite", db, "select age from t", tf.int64)
        return ds.map(lambda a: a * 2).reduce(tf.constant(0, tf.int64), lambda s, a: s + a)
    assert int(total()) == 602
    batched = tf.data.experimental.SqlDataset("sqlite", db, "select age, score from t",
                                              (tf.int64, tf.float64)).batch(2)
    ages, scores = next(iter(batched))
    assert ages.numpy().tolist() == [300, -2] and np.allclose(scores, [1.5, 2.5])


def test_autotune_algorithm_option():
    assert [a.name for a in tf.data.experimental.AutotuneAlgorithm] == [
        "DEFAULT", "HILL_CLIMB", "GRADIENT_DESCENT", "MAX_PARALLELISM", "STAGE_BASED"]
    options = tf.data.Options()
    assert options.autotune.autotune_algorithm is None
    options.autotune.autotune_algorithm = tf.data.experimental.AutotuneAlgorithm.MAX_PARALLELISM
    ds = tf.data.Dataset.range(3).with_options(options)
    assert ds.options().autotune.autotune_algorithm.name == "MAX_PARALLELISM"
    assert list(ds.as_numpy_iterator()) == [0, 1, 2]
