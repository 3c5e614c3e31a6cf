"""The comparison itself: differences it must report and noise it must accept."""
from tests.differential.compare import compare


def _out(v, dtype="float32", shape=None):
    return {"out": {"dtype": dtype, "shape": shape or [len(v)], "v": v}}


def test_accepts_a_few_ulps_and_flushed_denormals():
    assert compare(_out([1.0, 1e-38]), _out([1.0000001, 0.0]), "sin", "eager") is None


def test_reports_values_beyond_tolerance():
    assert compare(_out([1.0, 2.0]), _out([1.0, 2.001]), "sin", "eager")[0] == "value"


def test_reports_nan_and_inf_placement():
    nan = float("nan")
    assert compare(_out([nan, 1.0]), _out([1.0, 1.0]), "sin", "eager")[0] == "value"
    assert compare(_out([float("inf")]), _out([-float("inf")]), "sin", "eager")[0] == "value"
    assert compare(_out([nan, float("inf")]), _out([nan, float("inf")]), "sin", "eager") is None


def test_reports_dtype_and_shape():
    assert compare(_out([1.0]), _out([1.0], "float64"), "sin", "eager")[0] == "dtype"
    assert compare(_out([1.0], shape=[1]), _out([1.0], shape=[1, 1]), "sin", "eager")[0] == "shape"


def test_exceptions_by_class_name():
    tf_err = {"err": "InvalidArgumentError", "msg": ""}
    assert compare(tf_err, {"err": "InvalidArgumentError"}, "f", "eager") is None
    assert compare(tf_err, {"err": "ValueError"}, "f", "eager")[0] == "exc_class"
    assert compare(tf_err, {"err": "IndexError"}, "f", "eager")[0] == "non_tf_exc"
    assert compare(tf_err, _out([1.0]), "f", "eager")[0] == "tf_raises"
    assert compare(_out([1.0]), {"err": "ZeroDivisionError"}, "f", "eager")[0] == "non_tf_exc"
    assert compare(_out([1.0]), tf_err, "f", "eager")[0] == "ef_raises"


def test_integers_and_strings_exactly():
    assert compare(_out([1, 2], "int32"), _out([1, 3], "int32"), "f", "eager")[0] == "value"
    assert compare(_out(["a"], "string"), _out(["a "], "string"), "f", "eager")[0] == "value"
