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


def test_tensor_array_spec_as_tf_prints_and_compares_it():
    s = tf.TensorArraySpec([2], tf.float32, dynamic_size=True)
    assert isinstance(s, tf.TypeSpec) and s.value_type is tf.TensorArray
    assert repr(s) == "TensorArraySpec(TensorShape([2]), tf.float32, True, True)"
    assert repr(tf.TensorArraySpec()) == "TensorArraySpec(TensorShape(None), tf.float32, False, True)"
    assert s == tf.TensorArraySpec([2], tf.float32, True)
    assert hash(s) == hash(tf.TensorArraySpec([2], tf.float32, True))
    assert s != tf.TensorArraySpec([2], tf.float32, False)
    # infer_shape aside; dtype and dynamic_size must agree
    assert s.is_compatible_with(tf.TensorArraySpec([None], tf.float32, True, False))
    assert not s.is_compatible_with(tf.TensorArraySpec([2], tf.int32, True))
    assert repr(s.most_specific_compatible_type(tf.TensorArraySpec([None], tf.float32, True,
                                                                   False))) == \
        "TensorArraySpec(TensorShape([2]), tf.float32, True, False)"
    with pytest.raises(ValueError, match="No TypeSpec is compatible with both"):
        s.most_specific_compatible_type(tf.TensorArraySpec([2], tf.float32, False))
    ta = tf.TensorArray(tf.float32, size=0, dynamic_size=True, element_shape=[2])
    assert s.is_compatible_with(ta)
    assert repr(tf.type_spec_from_value(tf.TensorArray(tf.float32, size=2))) == \
        "TensorArraySpec(TensorShape(None), tf.float32, False, True)"

    @tf.function(input_signature=[tf.TensorArraySpec([], tf.float32)])
    def stack(ta):
        return ta.stack()
    assert stack.get_concrete_function().output_shapes == tf.TensorShape([None])


def test_optional_spec_as_tf_prints_and_traces_it():
    spec = tf.OptionalSpec(tf.TensorSpec([], tf.int32))
    assert isinstance(spec, tf.TypeSpec)
    assert repr(spec) == "OptionalSpec(TensorSpec(shape=(), dtype=tf.int32, name=None),)"
    assert spec == tf.type_spec_from_value(tf.experimental.Optional.from_value(tf.constant(1)))
    assert spec.is_compatible_with(tf.OptionalSpec(tf.TensorSpec(None, tf.int32)))
    assert not spec.is_compatible_with(tf.OptionalSpec(tf.TensorSpec([], tf.float32)))
    wider = tf.OptionalSpec(tf.TensorSpec([3], tf.int32)).most_specific_compatible_type(
        tf.OptionalSpec(tf.TensorSpec([None], tf.int32)))
    assert repr(wider) == "OptionalSpec(TensorSpec(shape=(None,), dtype=tf.int32, name=None),)"

    @tf.function(input_signature=[spec])
    def get_or_zero(o):
        return tf.cond(o.has_value(), o.get_value, lambda: 0)
    assert get_or_zero(tf.experimental.Optional.from_value(tf.constant(5))).numpy() == 5
    assert get_or_zero(tf.experimental.Optional.empty(tf.TensorSpec([], tf.int32))).numpy() == 0


def test_indexed_slices_spec_as_tf_prints_and_compares_it():
    s = tf.IndexedSlicesSpec([10, 3], tf.float32)
    assert isinstance(s, tf.TypeSpec) and s.value_type is tf.IndexedSlices
    assert repr(s) == ("IndexedSlicesSpec(TensorShape([10, 3]), tf.float32, tf.int64, None, "
                       "TensorShape([None]))")
    assert s.is_compatible_with(tf.IndexedSlicesSpec([None, 3]))
    assert not s.is_compatible_with(tf.IndexedSlicesSpec([10, 3], tf.int32))
    assert repr(s.most_specific_compatible_type(tf.IndexedSlicesSpec([4, 3]))) == (
        "IndexedSlicesSpec(TensorShape([None, 3]), tf.float32, tf.int64, None, "
        "TensorShape([None]))")
    value = tf.IndexedSlices(tf.ones([1, 2]), tf.constant([1], tf.int64),
                             tf.constant([4, 2], tf.int64))
    assert repr(tf.type_spec_from_value(value)) == (
        "IndexedSlicesSpec(TensorShape([4, 2]), tf.float32, tf.int64, tf.int64, "
        "TensorShape([1]))")
    assert repr(tf.type_spec_from_value(tf.IndexedSlices(tf.ones([1, 2]), tf.constant([1])))) \
        == ("IndexedSlicesSpec(TensorShape([None, 2]), tf.float32, tf.int32, None, "
            "TensorShape([1]))")


def test_an_unnamed_tensor_spec_is_a_subtype_of_a_named_one_but_not_the_reverse():
    named = tf.TensorSpec([None], tf.float32, name="x")
    assert tf.TensorSpec([2], tf.float32).is_subtype_of(named)
    assert not tf.TensorSpec([2], tf.float32, name="x").is_subtype_of(
        tf.TensorSpec([None], tf.float32))
    assert not tf.TensorSpec([2], tf.float32, name="y").is_subtype_of(named)
