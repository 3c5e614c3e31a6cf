"""CsvDataset and make_csv_dataset, against TF's outcomes (recorded from TF 2.21)."""
import collections
import gzip

import numpy as np
import pytest

import eagerflow as tf

TEXT = 'a,b,c,d\n1,2.5,"x,y",7\n3,,z,\n4,1e3,"q""r",8\n'


def _csv(tmp_path, text, name="a.csv"):
    path = tmp_path / name
    path.write_text(text)
    return str(path)


def _values(ds):
    return list(ds.as_numpy_iterator())


def test_csv_dataset_types_defaults_and_quotes(tmp_path):
    path = _csv(tmp_path, TEXT)
    ds = tf.data.experimental.CsvDataset(
        path, [tf.int32, tf.constant(0.5), tf.string, tf.constant(0, tf.int64)], header=True)
    assert repr(ds).startswith("<CsvDatasetV2 element_spec=(TensorSpec(shape=(), "
                               "dtype=tf.int32, name=None), TensorSpec(shape=(), "
                               "dtype=tf.float32")
    rows = _values(ds)
    assert rows == [(1, 2.5, b"x,y", 7), (3, 0.5, b"z", 0), (4, 1000.0, b'q"r', 8)]
    assert [type(v) for v in rows[0]] == [np.int32, np.float32, bytes, np.int64]


def test_record_defaults_naming_a_type_make_required_fields(tmp_path):
    # As in TF, a default equal to a CSV type's enum number (float32 1, float64 2, int32 3,
    # string 7, int64 9, so 1.0 too) or name is that type, its field required.
    path = _csv(tmp_path, "1,2,3,4,5,6\n")
    ds = tf.data.experimental.CsvDataset(path, [7, 1.0, 3, 9, "float64", 5])
    assert [s.dtype for s in ds.element_spec] == [tf.string, tf.float32, tf.int32, tf.int64,
                                                  tf.float64, tf.int32]
    assert _values(ds) == [(b"1", 2.0, 3, 4, 5.0, 6)]
    missing = tf.data.experimental.CsvDataset(_csv(tmp_path, ",\n", "b.csv"), [0, 3])
    with pytest.raises(tf.errors.InvalidArgumentError, match="Field 1 is required"):
        _values(missing)


def test_csv_dataset_select_and_exclude_columns(tmp_path):
    path = _csv(tmp_path, TEXT)
    assert _values(tf.data.experimental.CsvDataset(path, [0.0, tf.string], header=True,
                                                   select_cols=[1, 2])) == \
        [(2.5, b"x,y"), (0.0, b"z"), (1000.0, b'q"r')]
    assert _values(tf.data.experimental.CsvDataset(
        path, [tf.int32, tf.float32], header=True, exclude_cols=[2, 3]).take(1)) == [(1, 2.5)]
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match="Either select_cols or exclude_cols should be empty"):
        tf.data.experimental.CsvDataset(path, [0], select_cols=[0], exclude_cols=[1])
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match="select_cols should be strictly increasing indices"):
        tf.data.experimental.CsvDataset(path, [0, 0], select_cols=[2, 0])
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match="select_cols should match output size"):
        tf.data.experimental.CsvDataset(path, [0], select_cols=[0, 2])


@pytest.mark.parametrize("text, defaults, kwargs, message", [
    (TEXT, [tf.int32] * 4, {}, "Field 0 in record is not a valid int32: a"),
    (TEXT, [tf.int32] * 3, {"header": True}, "Field 1 in record is not a valid int32: 2.5"),
    (TEXT, [tf.string] * 4, {"header": True, "use_quote_delim": False},
     "Expect 4 fields but have more in record"),
    (TEXT, [tf.string] * 4, {"header": True, "na_value": "z"},
     "Field 1 is required but missing in record!"),
    ("1,2\n3\n", [0, 0], {}, "Expect 2 fields but have 1 in record"),
    ("1,2\n\n3,4\n", [0, 0], {}, "Expect 2 fields but have 1 in record"),
    ("1.0,2\n", [0, 0], {}, "Field 0 in record is not a valid int32: 1.0"),
    ("99999999999,2\n", [0, 0], {}, "Field 0 in record is not a valid int32: 99999999999"),
    ('"ab,2\n', ["", 0], {}, "without closing quoted field"),
    ("x,2\n", [0.0, 0], {}, "Field 0 in record is not a valid float: x"),
    ("x,2\n", [tf.float64, 0], {}, "Field 0 in record is not a valid double: x"),
])
def test_csv_dataset_errors_as_tf(tmp_path, text, defaults, kwargs, message):
    ds = tf.data.experimental.CsvDataset(_csv(tmp_path, text), defaults, **kwargs)
    with pytest.raises(tf.errors.InvalidArgumentError, match=message):
        _values(ds)


def test_csv_dataset_records_as_tf_reads_them(tmp_path):
    def read(text, defaults, **kwargs):
        return _values(tf.data.experimental.CsvDataset(_csv(tmp_path, text), defaults,
                                                       **kwargs))
    assert read("1,2\nNA,4\n", [0, 0], na_value="NA") == [(1, 2), (0, 4)]
    assert read(" 1,2\n", [0, 0]) == [(1, 2)]
    assert read('"a\nb",2\n', ["", 0]) == [(b"a\nb", 2)]
    assert read("a;b\n", ["", ""], field_delim=";") == [(b"a", b"b")]
    assert read("1,2\r\n3,4\r\n", [0, 0]) == [(1, 2), (3, 4)]
    assert read("1,2", [0, 0]) == [(1, 2)]
    assert read("", [0, 0]) == []
    assert read("1,2,3\n", [0, 0], select_cols=[0, 2]) == [(1, 3)]
    assert read("1,2\n", [tf.constant(0, tf.float64), 0.0]) == [(1.0, 2.0)]
    path = tmp_path / "z.csv.gz"
    path.write_bytes(gzip.compress(b"1,x\n2,y\n"))
    assert _values(tf.data.experimental.CsvDataset(str(path), [0, ""],
                                                   compression_type="GZIP")) == \
        [(1, b"x"), (2, b"y")]


def test_make_csv_dataset_infers_columns_and_types(tmp_path):
    path = _csv(tmp_path, TEXT)
    ds = tf.data.experimental.make_csv_dataset(path, batch_size=2, shuffle=False,
                                               num_epochs=1, label_name="a")
    features_spec, label_spec = ds.element_spec
    assert isinstance(features_spec, collections.OrderedDict)
    assert {k: (s.shape.as_list(), s.dtype) for k, s in features_spec.items()} == {
        "b": ([None], tf.float32), "c": ([None], tf.string), "d": ([None], tf.int32)}
    assert list(features_spec) == ["b", "c", "d"]
    assert (label_spec.shape.as_list(), label_spec.dtype) == ([None], tf.int32)
    batches = [({k: v.numpy().tolist() for k, v in f.items()}, label.numpy().tolist())
               for f, label in ds]
    assert batches == [({"b": [2.5, 0.0], "c": [b"x,y", b"z"], "d": [7, 0]}, [1, 3]),
                       ({"b": [1000.0], "c": [b'q"r'], "d": [8]}, [4])]


def test_make_csv_dataset_columns_shuffle_and_epochs(tmp_path):
    path = _csv(tmp_path, "x,y,name\n1,2,foo\n3,4.5,bar\n5,6,baz\n", "b.csv")
    ds = tf.data.experimental.make_csv_dataset(path, batch_size=2, shuffle=False,
                                               num_epochs=1, select_columns=["name", "x"],
                                               column_defaults=[tf.string, tf.int64])
    # the defaults go with the selected columns in the file's order, as in TF
    assert {k: s.dtype for k, s in ds.element_spec.items()} == {"x": tf.string,
                                                                "name": tf.int64}
    ds = tf.data.experimental.make_csv_dataset(path, batch_size=3, shuffle=True,
                                               shuffle_seed=3, num_epochs=2)
    assert [f["x"].numpy().tolist() for f in ds] == [[1, 3, 5], [1, 5, 3]]  # TF's order
    assert int(ds.cardinality()) == tf.data.UNKNOWN_CARDINALITY
    forever = tf.data.experimental.make_csv_dataset(path, batch_size=2, shuffle=False)
    assert forever.element_spec["x"].shape.as_list() == [2]  # whole batches only
    assert [f["x"].numpy().tolist() for f in forever.take(3)] == [[1, 3], [5, 1], [3, 5]]


def test_make_csv_dataset_argument_errors(tmp_path):
    path = _csv(tmp_path, "x,y\n1,2\n")
    with pytest.raises(ValueError, match="`label_name` provided must be one of the columns"):
        tf.data.experimental.make_csv_dataset(path, 1, label_name="z")
    with pytest.raises(ValueError, match="Expected `column_names` or `header` arguments"):
        tf.data.experimental.make_csv_dataset(path, 1, header=False)
    with pytest.raises(ValueError, match="No files match"):
        tf.data.experimental.make_csv_dataset(str(tmp_path / "none*.csv"), 1)

    with pytest.raises(ValueError, match=r"Column z specified in `select_columns` must be of "
                                         r"one of the columns: dict_keys\(\['x', 'y'\]\)."):
        tf.data.experimental.make_csv_dataset(path, 1, select_columns=["z"])


def test_make_csv_dataset_type_inference_checks_the_field_counts(tmp_path):
    def make(text, name, **kwargs):
        return tf.data.experimental.make_csv_dataset(_csv(tmp_path, text, name), 5,
                                                     shuffle=False, num_epochs=1, **kwargs)
    with pytest.raises(ValueError, match=r"^Problem inferring types: CSV row 2 has 3 number "
                                         r"of fields. Expected: 2.$"):
        make("a,b\n1,2,3\n", "wide.csv")
    with pytest.raises(ValueError, match="CSV row 3 has 0 number of fields"):
        make("a,b\n1,2\n\n3,4\n", "blank.csv")
    with pytest.raises(ValueError, match="CSV row 2 has 1 number of fields"):
        make("1,2\n3\n", "short.csv", column_names=["a", "b"], header=False)
    # (as TF's: the row after the last one read for the inference is checked too)
    with pytest.raises(ValueError, match="CSV row 4 has 1 number of fields"):
        make("a,b\n1,2\n3,4\n5\n", "late.csv", num_rows_for_inference=2)
    late = make("a,b\n1,2\n3,4\n5\n", "later.csv", num_rows_for_inference=1)
    with pytest.raises(tf.errors.InvalidArgumentError, match="Expect 2 fields but have 1"):
        list(late)


def test_csv_dataset_reads_float_fields_as_decode_csv_does(tmp_path):
    # C's reading: hexadecimal floats and NaN payloads are numbers, digit separators not
    path = tmp_path / "floats.csv"
    path.write_text("a\n0x10\n nan(1)\n1e400\n")
    got = [float(r[0]) for r in tf.data.experimental.CsvDataset(str(path), [[0.0]], header=True)]
    assert got[0] == 16.0 and np.isnan(got[1]) and got[2] == float("inf")
    path.write_text("a\n1_000\n")
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match="Field 0 in record is not a valid float: 1_000"):
        list(tf.data.experimental.CsvDataset(str(path), [[0.0]], header=True))


def test_csv_dataset_reads_int_fields_as_decode_csv_does(tmp_path):
    path = tmp_path / "ints.csv"
    path.write_text("a\n5 \n+7\n")
    got = [int(r[0]) for r in tf.data.experimental.CsvDataset(str(path), [[0]], header=True)]
    assert got == [5, 7]
    path.write_text("a\n0x10\n")
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match="Field 0 in record is not a valid int32: 0x10"):
        list(tf.data.experimental.CsvDataset(str(path), [[0]], header=True))
