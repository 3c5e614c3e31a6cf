"""`tf.compat`'s Python helpers behave as TF 2.21's (values recorded from it)."""
import pathlib

import numpy as np
import pytest

import eagerflow as tf


def test_text_and_bytes_conversions():
    c = tf.compat
    assert c.as_bytes("héllo") == b"h\xc3\xa9llo"
    assert c.as_bytes("é", encoding="latin-1") == b"\xe9"
    assert c.as_bytes(bytearray(b"q")) == b"q" and type(c.as_bytes(bytearray(b"q"))) is bytes
    assert c.as_text(b"h\xc3\xa9") == "hé" and c.as_str("a") == "a"
    assert c.as_str_any(5) == "5" and c.as_str_any(b"ab") == "ab"
    assert c.as_str_any(np.str_("z")) == "z" and c.as_str_any(pathlib.Path("p")) == "p"
    assert c.path_to_str(pathlib.Path("/a/b")) == "/a/b" and c.path_to_str(3) == 3
    for convert in (c.as_bytes, c.as_text):
        with pytest.raises(TypeError, match="^Expected binary or unicode string, got 5$"):
            convert(5)
    assert c.v1.compat.as_bytes is c.as_bytes


def test_type_tuples_and_dimensions():
    c = tf.compat
    assert isinstance(np.int8(1), c.integral_types) and not isinstance(1.5, c.integral_types)
    assert isinstance(np.float16(1), c.real_types) and isinstance(1j, c.complex_types)
    assert c.bytes_or_text_types == (bytes, str)
    assert c.dimension_value(tf.TensorShape([3])[0]) == 3
    assert c.dimension_value(None) is None
    assert str(c.dimension_at_index(tf.TensorShape([3, None]), 1)) == "?"


def test_forward_compatibility_horizon():
    c = tf.compat
    assert c.forward_compatible(2021, 1, 1) and not c.forward_compatible(2030, 1, 1)
    with c.forward_compatibility_horizon(2031, 1, 1):
        assert c.forward_compatible(2030, 1, 1)
    assert not c.forward_compatible(2030, 1, 1)


def test_tf_operation_is_the_graph_operation_class():
    with tf.Graph().as_default():
        y = tf.constant(1.0) + 1
    assert isinstance(y.op, tf.Operation)
    assert not isinstance(y, tf.Operation)


def test_none_tensor_spec_is_public():
    spec = tf.data.Dataset.from_tensors((1, None)).element_spec[1]
    assert isinstance(spec, tf.NoneTensorSpec) and repr(spec) == "NoneTensorSpec()"
