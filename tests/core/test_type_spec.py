"""`tf.TypeSpec` / `tf.TensorSpec` and the printed signatures of functions, as TF 2.21 gives
them."""
import numpy as np
import pytest

import eagerflow as tf


def test_tensor_spec_is_a_type_spec():
    s = tf.TensorSpec([None, 3], tf.float32, name="x")
    assert isinstance(s, tf.TypeSpec)
    assert isinstance(tf.SparseTensorSpec([None, 3]), tf.TypeSpec)
    assert s.value_type is tf.Tensor
    with pytest.raises(TypeError, match="Can't instantiate abstract class TypeSpec"):
        tf.TypeSpec()


def test_is_compatible_with_values_that_are_not_tensors():
    s = tf.TensorSpec([None, 3])
    assert s.is_compatible_with(tf.ones([2, 3]))
    assert not s.is_compatible_with([[1., 2., 3.]])
    assert not s.is_compatible_with(np.ones((2, 3), np.float32))
    assert not s.is_compatible_with(tf.SparseTensorSpec([2, 3]))


def test_subtypes_and_supertypes():
    assert tf.TensorSpec([2]).is_subtype_of(tf.TensorSpec([None]))
    assert not tf.TensorSpec([None]).is_subtype_of(tf.TensorSpec([2]))
    assert tf.TensorSpec([2]).is_subtype_of(tf.TensorSpec(None))
    assert not tf.TensorSpec([2]).is_subtype_of(tf.TensorSpec([2], tf.int32))
    assert not tf.TensorSpec([2], name="a").is_subtype_of(tf.TensorSpec([None]))
    assert tf.TensorSpec([2], name="a").most_specific_common_supertype(
        [tf.TensorSpec([2], name="b")]) is None
    assert repr(tf.TensorSpec([2], name="a").most_specific_common_supertype(
        [tf.TensorSpec([3], name="a")])) == "TensorSpec(shape=(None,), dtype=tf.float32, name='a')"
    assert tf.TensorSpec([2]) != tf.TensorSpec([2], name="a")


def test_conversion_errors():
    with pytest.raises(TypeError, match="Cannot convert the argument `type_value`: 'foo' to a "
                                        "TensorFlow DType."):
        tf.TensorSpec([1], "foo")
    with pytest.raises(TypeError, match=r"Failed to convert ''abc'' to a shape: ''a''could not "
                                        r"be converted to a dimension."):
        tf.TensorSpec("abc")


def test_pretty_printed_signatures_with_an_input_signature():
    @tf.function(input_signature=[tf.TensorSpec([None, 2], tf.float32),
                                  tf.TensorSpec([], tf.int32)])
    def k(a, b):
        return {"out": a, "n": b}

    assert k.pretty_printed_concrete_signatures() == (
        "Input Parameters:\n"
        "  a (POSITIONAL_OR_KEYWORD): TensorSpec(shape=(None, 2), dtype=tf.float32, name=None)\n"
        "  b (POSITIONAL_OR_KEYWORD): TensorSpec(shape=(), dtype=tf.int32, name=None)\n"
        "Output Type:\n"
        "  Dict[['out', TensorSpec(shape=(None, 2), dtype=tf.float32, name=None)], "
        "['n', TensorSpec(shape=(), dtype=tf.int32, name=None)]]\n"
        "Captures:\n"
        "  None")


def test_signature_dicts_print_in_their_own_order():
    @tf.function
    def k(d):
        return {"z": d["b"], "a": d["a"]}

    d = {"b": tf.constant(1), "a": tf.constant(2.)}
    out = k(d)
    assert list(out) == ["z", "a"]
    assert k.get_concrete_function(d).pretty_printed_signature(verbose=False) == (
        "(d: Dict[['b', TensorSpec(shape=(), dtype=tf.int32, name=None)], "
        "['a', TensorSpec(shape=(), dtype=tf.float32, name=None)]]) -> "
        "Dict[['z', TensorSpec(shape=(), dtype=tf.int32, name=None)], "
        "['a', TensorSpec(shape=(), dtype=tf.float32, name=None)]]")


def test_flat_signature_fallback_reports_missing_arguments_first():
    @tf.function
    def h(x, y=2):
        return x * y

    cf = h.get_concrete_function(tf.TensorSpec([None], tf.float32, name="inp"))
    with pytest.raises(TypeError, match=r"Fallback to flat signature also failed due to: "
                                        r"h\(inp\) missing required arguments: inp\."):
        cf(x=tf.constant([1.]))
    with pytest.raises(TypeError, match=r"h\(inp\) got unexpected keyword arguments: z\."):
        cf(inp=tf.constant([1.]), z=1)


def test_tensor_spec_most_specific_compatible_type():
    spec = tf.TensorSpec([None]).most_specific_compatible_type(tf.TensorSpec([3]))
    assert spec == tf.TensorSpec([None], tf.float32)
    with pytest.raises(ValueError, match="No TypeSpec is compatible with both "
                                         r"TensorSpec\(shape=\(2,\), dtype=tf.float32"):
        tf.TensorSpec([2]).most_specific_compatible_type(tf.TensorSpec([2], tf.int32))
