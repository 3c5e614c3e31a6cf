"""tf.io's tensor, bytes, CSV and file ops and tf.io.gfile, against TF's recorded results
(data/reference.json) and messages (recorded from TensorFlow 2.21 by hand)."""

import numpy as np
import pytest

import eagerflow as tf
from tests.io.test_tf_record import REFERENCE
from tests.op_errors import op_text, prefix

_TENSORS = {
    "float32": lambda: tf.constant([[1.5, -2.0], [0.0, 3.25]]),
    "int32_scalar": lambda: tf.constant(7),
    "int64": lambda: tf.constant([1, -1], tf.int64),
    "uint8": lambda: tf.constant([0, 255], tf.uint8),
    "bool": lambda: tf.constant([True, False, True]),
    "float64_empty": lambda: tf.zeros([0, 3], tf.float64),
    "string": lambda: tf.constant([b"ab", b"", b"\xff"]),
    "string_scalar": lambda: tf.constant("hello"),
    "float16": lambda: tf.constant([1.0, -0.5], tf.float16),
    "complex64": lambda: tf.constant([1 + 2j], tf.complex64),
}


@pytest.mark.parametrize("case", sorted(_TENSORS))
def test_serialize_tensor_writes_tensorflows_bytes(case):
    tensor = _TENSORS[case]()
    serialized = tf.io.serialize_tensor(tensor)
    assert serialized.shape == () and serialized.dtype == tf.string
    assert serialized.numpy().hex() == REFERENCE["serialize_tensor"][case]
    back = tf.io.parse_tensor(bytes.fromhex(REFERENCE["serialize_tensor"][case]), tensor.dtype)
    assert back.shape == tensor.shape and back.dtype == tensor.dtype
    np.testing.assert_array_equal(back.numpy(), tensor.numpy())


def test_serialize_a_variable_and_parse_in_a_function():
    assert tf.io.serialize_tensor(tf.Variable([1.0, 2.0])).numpy() == \
        b'\x08\x01\x12\x04\x12\x02\x08\x02"\x08\x00\x00\x80?\x00\x00\x00@'

    @tf.function(input_signature=[tf.TensorSpec([None, 2])])
    def round_trip(x):
        back = tf.io.parse_tensor(tf.io.serialize_tensor(x), tf.float32)
        assert back.shape.rank is None
        return back

    x = np.arange(6, dtype=np.float32).reshape(3, 2)
    np.testing.assert_array_equal(round_trip(x), x)


@pytest.mark.parametrize("case", sorted(REFERENCE["parse_tensor_errors"]))
def test_parse_tensor_errors(case):
    kind, message = REFERENCE["parse_tensor_errors"][case]
    with pytest.raises(getattr(tf.errors, kind)) as info:
        if case == "wrong_dtype":
            tf.io.parse_tensor(tf.io.serialize_tensor(tf.constant(1.0)), tf.int32)
        else:
            tf.io.parse_tensor(b"\xff\xff", tf.float32)
    assert op_text(info.value) == message.replace(" name: ", "")


_RAW = {
    "int16_le": lambda: tf.io.decode_raw([b"\x01\x02\x03\x04"], tf.int16),
    "int16_be": lambda: tf.io.decode_raw([b"\x01\x02\x03\x04"], tf.int16, little_endian=False),
    "float32_fixed": lambda: tf.io.decode_raw([b"\x00\x00\x80\x3f", b""], tf.float32,
                                              fixed_length=8),
    "uneven": lambda: tf.io.decode_raw([b"\x01\x02", b"\x01"], tf.uint8),
    "odd": lambda: tf.io.decode_raw([b"\x01\x02\x03"], tf.int16),
    "fixed_odd": lambda: tf.io.decode_raw([b"\x01"], tf.int16, fixed_length=3),
}


@pytest.mark.parametrize("case", sorted(_RAW))
def test_decode_raw(case):
    want = REFERENCE["decode_raw"][case]
    if isinstance(want[0], str):
        with pytest.raises(tf.errors.InvalidArgumentError) as info:
            _RAW[case]()
        assert op_text(info.value) == want[1]
    else:
        assert _RAW[case]().numpy().tolist() == want


def test_decode_raw_fixed_length_must_be_positive_and_fixes_the_last_dim():
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"fixed_length \(-1\) must be greater than zero\."):
        tf.io.decode_raw([b"ab"], tf.uint8, fixed_length=-1)
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"fixed_length \(0\) must be"):
        tf.io.decode_raw([b"ab"], tf.uint8, fixed_length=0)
    # (a length that is no multiple of the type's size says so first, negative or not)
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"fixed_length \(-1\) must be a "
                                                             r"multiple of the size of out_type "
                                                             r"\(4\)"):
        tf.io.decode_raw([b"ab"], tf.int32, fixed_length=-1)
    # DecodePaddedRaw reads no complex or bool numbers
    for out_type in (tf.complex64, tf.complex128, tf.bool):
        with pytest.raises(tf.errors.InvalidArgumentError,
                           match=f"Value for attr 'out_type' of {out_type.name} is not in the "
                                 f"list of allowed values: half, float, double, int32, uint16, "
                                 f"uint8, int16, int8, int64, bfloat16\n\t; NodeDef: "
                                 f"{{{{node DecodePaddedRaw}}}}"):
            tf.io.decode_raw([b"ab"], out_type, fixed_length=16)

    def traced(spec, out_type, length):
        fn = tf.function(lambda x: tf.io.decode_raw(x, out_type, fixed_length=length))
        return fn.get_concrete_function(spec).structured_outputs.shape.as_list()

    assert traced(tf.TensorSpec([None, 3], tf.string), tf.float64, 16) == [None, 3, 2]
    assert traced(tf.TensorSpec([2], tf.string), tf.uint8, 0) == [2, 0]
    with pytest.raises(ValueError, match="Dimension size must be evenly divisible by 4 but is "
                                         "7 for '{{node DecodePaddedRaw}}"):
        traced(tf.TensorSpec([2], tf.string), tf.int32, 7)
    with pytest.raises(ValueError, match="given by scalar input 1, must be non-negative but "
                                         "is -1"):
        traced(tf.TensorSpec([2], tf.string), tf.uint8, -1)


def test_decode_raw_shapes_and_types():
    assert tf.io.decode_raw(b"\x01\x00\x00\x00", tf.int32).numpy().tolist() == [1]
    assert tf.io.decode_raw(tf.constant([], tf.string), tf.int32).shape == (0, 0)
    assert tf.io.decode_raw([b"\x01\x00"], tf.bool).numpy().tolist() == [[True, False]]
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match="Value for attr 'out_type' of string is not in the list"):
        tf.io.decode_raw([b"\x01"], tf.string)


_CSV = {
    "basic": (["1,2.5,a", "3,,\"b,c\""], [[0], [0.0], [""]], {}),
    "defaults": (["1,,x"], [[0], [9.0], ["d"]], {}),
    "int64_double": (["5,1e300"], [tf.constant([0], tf.int64), tf.constant([0.0], tf.float64)],
                     {}),
    "delim": (["1|2"], [[0], [0]], {"field_delim": "|"}),
    "na": (["1,NA"], [[0], [7]], {"na_value": "NA"}),
    "select": (["1,2,3"], [[0], [0]], {"select_cols": [0, 2]}),
    "required": (["1,"], [[0], tf.constant([], tf.int32)], {}),
    "bad_int": (["1,x"], [[0], [0]], {}),
    "bad_float": (["1.5x"], [[0.0]], {}),
    "too_many": (["1,2,3"], [[0], [0]], {}),
    "too_few": (["1"], [[0], [0]], {}),
    "quote": (['"a""b",c'], [[""], [""]], {}),
    "bad_quote": (['a"b,c'], [[""], [""]], {}),
    "unclosed": (['"ab,c'], [[""], [""]], {}),
    "text_after_quote": (['"a"b,c'], [[""], [""]], {}),
    "no_quote": (['"ab",c'], [[""], [""]], {"use_quote_delim": False}),
    "int_overflow": (["99999999999"], [[0]], {}),
    "scalar": ("4,5", [[0], [0]], {}),
    "matrix": ([["1,2"], ["3,4"]], [[0], [0]], {}),
    "empty_line": ([""], [[0]], {}),
    "spaces": ([" 1, 2.5 "], [[0], [0.0]], {}),
}


@pytest.mark.parametrize("case", sorted(_CSV))
def test_decode_csv(case):
    records, defaults, kwargs = _CSV[case]
    want = REFERENCE["decode_csv"][case]
    if want[0] != "ok":
        with pytest.raises(getattr(tf.errors, want[0])) as info:
            tf.io.decode_csv(records, defaults, **kwargs)
        assert op_text(info.value) == want[1]
        return
    got = tf.io.decode_csv(records, defaults, **kwargs)
    assert [[t.dtype.name, t.numpy().tolist() if t.dtype != tf.string
             else [v.decode() for v in np.ravel(t.numpy())]] for t in got] == want[1]


def test_decode_csv_spec_errors_and_function():
    with pytest.raises(ValueError, match="select_cols is not strictly increasing."):
        tf.io.decode_csv(["1,2"], [[0], [0]], select_cols=[1, 0])
    with pytest.raises(ValueError, match="Length of select_cols and record_defaults"):
        tf.io.decode_csv(["1,2"], [[0]], select_cols=[0, 1])
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match="Expect 1 fields but have 0 in record 0"):
        tf.io.decode_csv(["1,2"], [[0]], select_cols=[3])
    with pytest.raises(tf.errors.InvalidArgumentError, match="field_delim should be only 1 char"):
        tf.io.decode_csv(["1,2"], [[0], [0]], field_delim=",,")
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match="There should only be 1 default per field but field 0 has 2"):
        tf.io.decode_csv(["1,2"], [[0, 1], [0]])
    with pytest.raises(tf.errors.InvalidArgumentError, match="attr 'OUT_TYPE' of bool"):
        tf.io.decode_csv(["1,2"], [[True], [0]])
    got = tf.io.decode_csv(["inf,nan,+5,-0x10"], [[0.0], [0.0], [0], [0.0]])
    assert [t.numpy().tolist()[0] for t in got][2:] == [5, -16.0]

    @tf.function(input_signature=[tf.TensorSpec([None], tf.string)])
    def columns(lines):
        a, b = tf.io.decode_csv(lines, [[0], ["?"]])
        assert a.shape.as_list() == [None]
        return a * 2, b

    a, b = columns(tf.constant(["1,x", "2,"]))
    assert a.numpy().tolist() == [2, 4] and b.numpy().tolist() == [b"x", b"?"]


def test_decode_csv_error_names_its_column_types():
    # TF's one-op function is named by the number of column dtypes; given Python lists it
    # runs the op on its slower path, whose text does not end with a name
    with pytest.raises(tf.errors.InvalidArgumentError) as info:
        tf.io.decode_csv("1,a", record_defaults=[[0], [0]])
    assert str(info.value) == (prefix("DecodeCSV_OUT_TYPE_2") + "Field 1 in record 0 is not a "
                               "valid int32: a [Op:DecodeCSV]")
    with pytest.raises(tf.errors.InvalidArgumentError) as info:
        tf.io.decode_csv(tf.constant("1,a"), [tf.constant([0]), tf.constant([0])])
    assert str(info.value).endswith("[Op:DecodeCSV] name: ")


def test_read_write_and_match_files(tmp_path):
    folder = str(tmp_path)
    assert tf.io.write_file(f"{folder}/a/b/c.txt", "hi") is None
    assert tf.io.read_file(f"{folder}/a/b/c.txt").numpy() == b"hi"
    with pytest.raises(tf.errors.NotFoundError) as info:
        tf.io.read_file(f"{folder}/nope")
    assert op_text(info.value) == f"{folder}/nope; No such file or directory [Op:ReadFile]"
    with pytest.raises(tf.errors.FailedPreconditionError, match="Is a directory"):
        tf.io.read_file(folder)
    with open(f"{folder}/plain", "w"):
        pass
    with pytest.raises(tf.errors.FailedPreconditionError) as info:  # (a file in the way)
        tf.io.write_file(f"{folder}/plain/sub/x.txt", "a")
    assert f"{folder}/plain is not a directory [Op:WriteFile]" in str(info.value)
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"Input filename tensor must be scalar, but had shape: \[2\]"):
        tf.io.read_file(["a", "b"])
    assert tf.io.matching_files(f"{folder}/a/*/*.txt").numpy().tolist() == \
        [f"{folder}/a/b/c.txt".encode()]
    assert tf.io.matching_files(f"{folder}/zz*").shape == (0,)
    assert tf.io.matching_files([f"{folder}/a", f"{folder}/a/b/*"]).numpy().tolist() == \
        [f"{folder}/a".encode(), f"{folder}/a/b/c.txt".encode()]

    @tf.function
    def write_then_read(path, text):
        tf.io.write_file(path, text)
        return tf.io.read_file(path)

    # run in program order each call, never folded into a constant
    path = f"{folder}/f.txt"
    assert write_then_read(tf.constant(path), tf.constant("one")).numpy() == b"one"
    assert write_then_read(tf.constant(path), tf.constant("two")).numpy() == b"two"


def test_gfile(tmp_path):
    g, d = tf.io.gfile, str(tmp_path)
    g.makedirs(f"{d}/a/b")
    g.makedirs(f"{d}/a/b")
    with g.GFile(f"{d}/a/b/c.txt", "w") as f:
        f.write("hi")
    assert (g.exists(f"{d}/a"), g.exists(f"{d}/q")) == (True, False)
    assert (g.isdir(f"{d}/a"), g.isdir(f"{d}/a/b/c.txt"), g.isdir(f"{d}/q")) == \
        (True, False, False)
    assert g.listdir(f"{d}/a") == ["b"]
    assert g.glob(f"{d}/a/*") == [f"{d}/a/b"] and g.glob(f"{d}/zz*") == []
    g.mkdir(f"{d}/a")
    for call, cls, message in [
            (lambda: g.listdir(f"{d}/q"), tf.errors.NotFoundError, f"Could not find directory "
                                                                   f"{d}/q"),
            (lambda: g.mkdir(f"{d}/x/y"), tf.errors.NotFoundError,
             f"{d}/x/y; No such file or directory"),
            (lambda: g.remove(f"{d}/q"), tf.errors.NotFoundError,
             f"{d}/q; No such file or directory"),
            (lambda: g.remove(f"{d}/a"), tf.errors.FailedPreconditionError,
             f"{d}/a; Is a directory"),
            (lambda: g.rmtree(f"{d}/q"), tf.errors.NotFoundError, f"{d}/q not found"),
            (lambda: g.copy(f"{d}/q", f"{d}/c3.txt"), tf.errors.NotFoundError,
             f"{d}/q; No such file or directory"),
            (lambda: g.stat(f"{d}/q"), tf.errors.NotFoundError,
             f"{d}/q; No such file or directory"),
            (lambda: g.GFile(f"{d}/q").read(), tf.errors.NotFoundError,
             f"{d}/q; No such file or directory"),
            (lambda: g.GFile(f"{d}/a/b/c.txt", "z").read(), tf.errors.InvalidArgumentError,
             "mode is not 'r' or 'w' or 'a' or 'r+' or 'w+' or 'a+'"),
            (lambda: g.GFile(f"{d}/a/b/c.txt").write("x"), tf.errors.PermissionDeniedError,
             "File isn't open for writing")]:
        with pytest.raises(cls) as info:
            call()
        assert str(info.value) == message
    g.copy(f"{d}/a/b/c.txt", f"{d}/c2.txt")
    with pytest.raises(tf.errors.AlreadyExistsError, match="file already exists"):
        g.copy(f"{d}/a/b/c.txt", f"{d}/c2.txt")
    g.copy(f"{d}/a/b/c.txt", f"{d}/c2.txt", overwrite=True)
    with pytest.raises(tf.errors.AlreadyExistsError, match="file already exists"):
        g.rename(f"{d}/c2.txt", f"{d}/a/b/c.txt")
    g.rename(f"{d}/c2.txt", f"{d}/c3.txt")
    s = g.stat(f"{d}/c3.txt")
    assert (s.length, s.is_directory, type(s.mtime_nsec)) == (2, False, int)
    assert sorted(g.walk(d)) == [(d, ["a"], ["c3.txt"]), (f"{d}/a", ["b"], []),
                                 (f"{d}/a/b", [], ["c.txt"])]
    assert list(g.walk(f"{d}/q")) == []
    g.rmtree(f"{d}/a")
    assert not g.exists(f"{d}/a") and g.join("a", "b") == "a/b"


def test_gfile_reading_and_writing(tmp_path):
    g, path = tf.io.gfile, str(tmp_path / "t.txt")
    with g.GFile(path, "w") as f:
        f.write("line1\nline2\n")
        f.write(b"x")
    assert g.GFile(path).read() == "line1\nline2\nx"
    assert g.GFile(path, "rb").read() == b"line1\nline2\nx"
    assert list(g.GFile(path)) == ["line1\n", "line2\n", "x"]
    assert g.GFile(path).readlines() == ["line1\n", "line2\n", "x"]
    f = g.GFile(path)
    assert [f.readline(), f.readline(), f.readline(), f.readline(), f.tell()] == \
        ["line1\n", "line2\n", "x", "", 13]
    f = g.GFile(path)
    assert (f.read(3), f.tell()) == ("lin", 3)
    f.seek(1)
    assert (f.read(2), f.size(), f.name, f.mode) == ("in", 13, path, "r")
    f.close()
    with g.GFile(path, "a") as f:
        f.write("Z")
    assert g.GFile(path).read() == "line1\nline2\nxZ"
    with g.GFile(path, "w") as f:
        f.write("\u00e9\n")
    assert g.GFile(path).read() == "\u00e9\n"
    assert tf.compat.v1.gfile.Open is tf.io.gfile.GFile


def test_gfile_modes_stat_and_copy_onto_itself(tmp_path):
    g, path = tf.io.gfile, str(tmp_path / "t.txt")
    for mode in ("x", "rw", "b", ""):
        with pytest.raises(tf.errors.InvalidArgumentError,
                           match=r"mode is not 'r' or 'w' or 'a' or 'r\+' or 'w\+' or 'a\+'"):
            g.GFile(path, mode)
    with g.GFile(path, "wb+") as f:
        f.write(b"abc")
    assert g.GFile(path, "br").read() == b"abc"
    stat = g.stat(path)
    assert type(stat).__name__ == "FileStatistics"
    assert (stat.length, stat.is_directory) == (3, False)
    # as in TF, the target is opened for writing (emptied) before the source is read
    g.copy(path, path, overwrite=True)
    assert g.GFile(path).read() == ""
    with pytest.raises(tf.errors.AlreadyExistsError, match="file already exists"):
        g.copy(path, path)


def test_base64():
    data = [b"\xff\xfe\xfd", b"a", b""]
    assert tf.io.encode_base64(data).numpy().tolist() == [b"__79", b"YQ", b""]
    assert tf.io.encode_base64(data, pad=True).numpy().tolist() == [b"__79", b"YQ==", b""]
    assert tf.io.decode_base64(["__79", "YQ", "YQ==", ""]).numpy().tolist() == \
        [b"\xff\xfe\xfd", b"a", b"a", b""]
    for text, message in [("a+b", "Invalid character found in base64."),
                          ("Y", "Base64 string length cannot be 1 modulo 4."),
                          ("YQ=", "Invalid character found in base64."),
                          ("YW Jj", "Invalid character found in base64."),
                          ("YWJj\n", "Base64 string length cannot be 1 modulo 4.")]:
        with pytest.raises(tf.errors.InvalidArgumentError) as info:
            tf.io.decode_base64([text])
        assert op_text(info.value) == message + " [Op:DecodeBase64]"


def test_decode_compressed():
    import gzip
    import zlib
    assert tf.io.decode_compressed([zlib.compress(b"hello"), zlib.compress(b"")],
                                   "ZLIB").numpy().tolist() == [b"hello", b""]
    assert tf.io.decode_compressed([gzip.compress(b"hello")], "GZIP").numpy().tolist() == \
        [b"hello"]
    assert tf.io.decode_compressed(zlib.compress(b"hi"), "ZLIB").numpy() == b"hi"
    assert tf.io.decode_compressed([zlib.compress(b"hello")[:-3]], "ZLIB").numpy().tolist() == \
        [b"hello"]
    assert tf.io.decode_compressed([b"as is"]).numpy().tolist() == [b"as is"]
    # concatenated gzip members all decode; what follows a zlib stream is left unread
    two = gzip.compress(b"ab") + gzip.compress(b"cd")
    assert tf.io.decode_compressed([two + gzip.compress(b"e")[:-3], two[:25]],
                                   "GZIP").numpy().tolist() == [b"abcde", b"ab"]
    assert tf.io.decode_compressed([zlib.compress(b"ab") + zlib.compress(b"cd")],
                                   "ZLIB").numpy().tolist() == [b"ab"]
    with pytest.raises(tf.errors.DataLossError, match="incorrect header check"):
        tf.io.decode_compressed([gzip.compress(b"ab") + b"junk"], "GZIP")
    with pytest.raises(tf.errors.DataLossError) as info:
        tf.io.decode_compressed([b"garbage"], "GZIP")
    assert op_text(info.value) == \
        "inflate() failed with error -3: incorrect header check [Op:DecodeCompressed]"
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match="Only ZLIB, ZSTD, GZIP or NONE are supported compressions"):
        tf.io.decode_compressed([b"x"], "BZ2")


def test_glob_patterns_read_as_c_fnmatch_reads_them(tmp_path):
    # a backslash makes the next character plain, [^...] negates as [!...] does
    d = str(tmp_path)
    for dir_ in (d, "ram://globbing"):
        for name in ["f1.txt", "f2.txt", "f^.txt", "[x].txt", "x.txt", "a*b", "ab"]:
            tf.io.write_file(f"{dir_}/{name}", "")
        for pattern, names in [(r"\[x\].txt", ["[x].txt"]), ("f[^1].txt", ["f2.txt", "f^.txt"]),
                               (r"a\*b", ["a*b"]), (r"f[\^].txt", ["f^.txt"]),
                               (r"*\.txt", ["[x].txt", "f1.txt", "f2.txt", "f^.txt", "x.txt"]),
                               ("[[]x].txt", ["[x].txt"])]:
            want = [f"{dir_}/{n}" for n in names]
            assert sorted(tf.io.gfile.glob(f"{dir_}/{pattern}")) == want, pattern
            assert tf.io.matching_files(f"{dir_}/{pattern}").numpy().tolist() == \
                [w.encode() for w in want]
    files = tf.data.Dataset.list_files(f"{d}/f[^1].txt", shuffle=False)
    assert [f.numpy() for f in files] == [f"{d}/f2.txt".encode(), f"{d}/f^.txt".encode()]


def test_matching_sorts_all_patterns_together_and_sees_hidden_files(tmp_path):
    d = str(tmp_path)
    for name in [".hidden", "a.txt", "[x].txt"]:
        tf.io.write_file(f"{d}/{name}", "")
    tf.io.gfile.makedirs(f"{d}/sub")
    assert tf.io.matching_files([f"{d}/s*", f"{d}/.h*"]).numpy().tolist() == \
        [f"{d}/.hidden".encode(), f"{d}/sub".encode()]
    assert sorted(tf.io.gfile.glob(f"{d}/*")) == \
        [f"{d}/.hidden", f"{d}/[x].txt", f"{d}/a.txt", f"{d}/sub"]
    assert tf.io.gfile.glob(f"{d}/[[]x].txt") == [f"{d}/[x].txt"]
    assert tf.io.gfile.glob([f"{d}/a.txt", f"{d}/nope"]) == [f"{d}/a.txt"]


def test_listdir_keeps_the_directory_order(tmp_path):
    import os
    for name in ["b", "c", ".a", "a"]:
        tf.io.write_file(str(tmp_path / name), "")
    assert tf.io.gfile.listdir(str(tmp_path)) == os.listdir(str(tmp_path))


def test_write_graph_as_text_and_binary(tmp_path):
    graph = tf.function(lambda x: x * 2.5 + 1).get_concrete_function(
        tf.TensorSpec([2], tf.float32)).graph
    path = tf.io.write_graph(graph, str(tmp_path / "sub"), "g.pbtxt")
    assert path == str(tmp_path / "sub" / "g.pbtxt")  # (the directory made on the way)
    text = open(path).read()
    assert 'op: "Placeholder"' in text and 'op: "AddV2"' in text
    path = tf.io.write_graph(graph.as_graph_def(), str(tmp_path), "g.pb", as_text=False)
    read = tf.compat.v1.GraphDef()
    read.ParseFromString(open(path, "rb").read())
    assert [n.op for n in read.node] == ["Placeholder", "Const", "Mul", "Const", "AddV2",
                                         "Identity"]
    assert tf.compat.v1.train.write_graph is tf.io.write_graph


def test_read_file_of_a_python_string_fails_without_the_name(tmp_path):
    # TF's wrapper takes its slower path for a Python string: its errors end without the name
    missing = str(tmp_path / "missing.bin")
    with pytest.raises(tf.errors.NotFoundError) as info:
        tf.io.read_file(missing)
    assert str(info.value).endswith("No such file or directory [Op:ReadFile]")
    with pytest.raises(tf.errors.NotFoundError) as info:
        tf.io.read_file(tf.constant(missing))
    assert str(info.value).endswith("No such file or directory [Op:ReadFile] name: ")


def test_decode_csv_refuses_its_attrs_as_tf_does():
    with pytest.raises(tf.errors.InvalidArgumentError) as info:
        tf.io.decode_csv(tf.constant(["1"]), [])
    assert str(info.value).startswith(
        "Length for attr 'OUT_TYPE' of 0 must be at least minimum 1\n")
    with pytest.raises(tf.errors.InvalidArgumentError) as info:
        tf.io.decode_csv(tf.constant(["1"]), [tf.constant([0])], field_delim="ab")
    assert str(info.value) == (
        "{{function_node __wrapped__DecodeCSV_OUT_TYPE_1_device_/job:localhost/replica:0/task:0"
        "/device:CPU:0}} field_delim should be only 1 char [Op:DecodeCSV] name: ")


def test_gfile_lines_leave_out_carriage_returns_as_tf_does(tmp_path):
    path = str(tmp_path / "crlf.txt")
    with open(path, "wb") as f:
        f.write(b"a\r\nb\rc\n\r\nd")
    assert tf.io.gfile.GFile(path).readlines() == ["a\n", "bc\n", "\n", "d"]
    assert list(tf.io.gfile.GFile(path, "rb")) == [b"a\n", b"bc\n", b"\n", b"d"]
    reader = tf.io.gfile.GFile(path)
    assert [reader.readline() for _ in range(5)] == ["a\n", "bc\n", "\n", "d", ""]
    assert tf.io.gfile.GFile(path).read() == "a\r\nb\rc\n\r\nd"  # (read keeps them)


def test_match_filenames_once(tmp_path):
    for name in ("a.txt", "b.txt", "c.csv"):
        (tmp_path / name).write_text("x")
    files = tf.io.match_filenames_once(str(tmp_path / "*.txt"))
    assert isinstance(files, tf.Variable) and not files.trainable
    assert files.dtype == tf.string and files.shape == (2,)
    assert [f.decode().rsplit("/", 1)[-1] for f in files.numpy()] == ["a.txt", "b.txt"]
    (tmp_path / "d.txt").write_text("x")  # matched once: later files are not seen
    assert files.shape == (2,)
    assert tf.io.match_filenames_once(str(tmp_path / "*.none")).shape == (0,)


@pytest.mark.parametrize("op_name, call", [
    ("DecodeRaw", lambda x: tf.io.decode_raw(x, tf.uint8)),
    ("DecodePaddedRaw", lambda x: tf.io.decode_raw(x, tf.uint8, fixed_length=2)),
    ("ParseTensor", lambda x: tf.io.parse_tensor(x, tf.int32)),
    ("DecodeCompressed", tf.io.decode_compressed),
    ("DecodeJSONExample", tf.io.decode_json_example),
    ("DecodeBase64", tf.io.decode_base64),
    ("EncodeBase64", tf.io.encode_base64),
    ("ReadFile", lambda x: tf.io.read_file(x[0])),
    ("MatchingFiles", tf.io.matching_files),
    ("DeserializeManySparse", lambda x: tf.io.deserialize_many_sparse(tf.reshape(x, [1, 3]), tf.int32)),
])
def test_string_input_ops_refuse_a_tensor_of_another_dtype(op_name, call):
    # TF's eager ops take a tensor as it is and their type check refuses it; these
    # converted it first (a ValueError), and DecodePaddedRaw ran its kernel on the ints.
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=rf"cannot compute {op_name} as input #0\(zero-based\) was expected "
                             r"to be a string tensor but is a int32 tensor"):
        call(tf.constant([1, 2, 3]))


def test_gfile_local_names_are_cleaned_and_folders_blocked_by_files(tmp_path):
    g, d = tf.io.gfile, str(tmp_path)
    with g.GFile(f"{d}/a.txt", "w") as f:
        f.write("abc")
    # TF reads local names lexically cleaned: a trailing slash or '//' still names the file
    assert g.exists(f"{d}/a.txt/") and g.GFile(f"{d}/a.txt/").read() == "abc"
    assert g.GFile(f"{d}//./a.txt").read() == "abc" and g.stat(f"{d}/a.txt/").length == 3
    assert not g.isdir(f"{d}/a.txt/") and g.glob(f"{d}/") == [f"{d}/"]
    with pytest.raises(tf.errors.NotFoundError, match=f"^{d}//zz; No such file"):
        g.GFile(f"{d}//zz").read()
    # makedirs names the file in the way; mkdir over an existing name does nothing
    for path in (f"{d}/a.txt", f"{d}/a.txt/s/t"):
        with pytest.raises(tf.errors.FailedPreconditionError) as info:
            g.makedirs(path)
        assert str(info.value) == f"{d}/a.txt is not a directory"
    assert g.mkdir(f"{d}/a.txt") is None and not g.isdir(f"{d}/a.txt")
    with pytest.raises(TypeError, match="^Expected binary or unicode string, got 3$"):
        g.exists(3)


def _float_proto(dims, values=(), content=b"", unknown_rank=False):
    proto = tf.make_tensor_proto(0.0)
    proto.tensor_shape.unknown_rank = unknown_rank
    for d in dims:
        proto.tensor_shape.dim.add(size=d)
    proto.float_val[:] = values
    proto.tensor_content = content
    return proto.SerializeToString()


def test_parse_tensor_reads_a_tensor_proto_as_tfs_kernel_does():
    # (values recorded from TF 2.21): more values than the shape holds are cut to it, a
    # shape of unknown rank is a scalar's; both raised InvalidArgumentError
    parse = tf.io.parse_tensor
    assert parse(_float_proto([1], [1.0, 2.0]), tf.float32).numpy().tolist() == [1.0]
    assert parse(_float_proto([], [1.0], unknown_rank=True), tf.float32).numpy() == 1.0
    assert parse(_float_proto([4], [1.0, 2.0]), tf.float32).numpy().tolist() == [1, 2, 2, 2]
    assert parse(_float_proto([2, 2]), tf.float32).numpy().tolist() == [[0, 0], [0, 0]]
    for bad in (_float_proto([3], content=np.array([1, 2], np.float32).tobytes()),
                _float_proto([-1], [1.0])):
        with pytest.raises(tf.errors.InvalidArgumentError,
                           match="Cannot parse tensor from proto"):
            parse(bad, tf.float32)


@pytest.mark.parametrize("indices, shape, text", [
    ([[2, 0], [0, 1]], [3, 2], r"indices\[1\] = \[0,1\] is out of order. Many sparse ops "
                               r"require sorted indices."),
    ([[0, 1], [0, 0]], [1, 2], r"indices\[1\] = \[0,0\] is out of order"),
    ([[0, 1], [0, 1]], [1, 2], r"indices\[1\] = \[0,1\] is repeated"),
    ([[5, 1]], [1, 2], r"indices\[0\] = \[5,1\] is out of bounds: need 0 <= index < \[1,2\]"),
])
def test_serialize_many_sparse_refuses_indices_out_of_order_or_bounds(indices, shape, text):
    # They were taken: entries out of bounds were dropped, unsorted ones reordered.
    st = tf.SparseTensor(indices, list(range(len(indices))), shape)
    with pytest.raises(tf.errors.InvalidArgumentError, match=text):
        tf.io.serialize_many_sparse(st)
    with pytest.raises(tf.errors.InvalidArgumentError, match=text):
        tf.function(tf.io.serialize_many_sparse)(st)


def test_gfile_copy_errors_name_the_target_and_join_keeps_bytes(tmp_path):
    d = str(tmp_path)
    tf.io.gfile.makedirs(f"{d}/sub")
    tf.io.write_file(f"{d}/f.txt", "x")
    with pytest.raises(tf.errors.FailedPreconditionError) as info:
        tf.io.gfile.copy(f"{d}/f.txt", f"{d}/sub/", overwrite=True)
    assert str(info.value) == f"{d}/sub/; Is a directory"
    with pytest.raises(tf.errors.InvalidArgumentError) as info:
        tf.io.gfile.copy(f"{d}/sub", f"{d}/z.txt")
    assert str(info.value) == f"{d}/z.txt; Invalid argument"
    assert tf.io.gfile.join(b"a", b"b") == b"a/b"
    assert tf.io.gfile.join("a", "b") == "a/b"
