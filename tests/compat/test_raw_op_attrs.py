"""tf.raw_ops checks its attrs against TF's declarations: kinds, allowed values, minimums."""
import pytest

import eagerflow as tf


def _first_line(excinfo):
    return str(excinfo.value).splitlines()[0]


def test_string_attr_not_allowed_is_invalid_argument():
    with pytest.raises(tf.errors.InvalidArgumentError) as e:
        tf.raw_ops.StringLength(input=tf.constant(["abc"]), unit="BAD")
    assert _first_line(e) == ("Value for attr 'unit' of \"BAD\" is not in the list of allowed "
                              "values: \"BYTE\", \"UTF8_CHAR\"")
    assert str(e.value).endswith("[Op:StringLength] name: ")


def test_string_attr_given_as_bytes():
    out = tf.raw_ops.StringLength(input=tf.constant(["é"]), unit=b"UTF8_CHAR")
    assert out.numpy().tolist() == [1]


def test_python_list_input_error_has_no_name():
    with pytest.raises(tf.errors.InvalidArgumentError) as e:
        tf.raw_ops.StringLength(input=["abc"], unit="BAD")
    assert str(e.value).endswith("[Op:StringLength]")


def test_string_attr_not_allowed_while_tracing_is_value_error():
    @tf.function
    def f():
        return tf.raw_ops.StringLength(input=tf.constant(["abc"]), unit="BAD")
    with pytest.raises(ValueError, match="Attr 'unit' of 'StringLength' Op passed string 'BAD' "
                                         "not in: \"BYTE\", \"UTF8_CHAR\"."):
        f()


def test_int_attr_below_minimum():
    with pytest.raises(tf.errors.InvalidArgumentError) as e:
        tf.raw_ops.Split(axis=0, value=tf.zeros([2, 2]), num_split=0)
    assert _first_line(e) == "Value for attr 'num_split' of 0 must be at least minimum 1"

    @tf.function
    def f():
        return tf.raw_ops.Split(axis=0, value=tf.zeros([2, 2]), num_split=0)
    with pytest.raises(ValueError, match="Attr 'num_split' of 'Split' Op passed 0 less than "
                                         "minimum 1."):
        f()


def test_type_attr_not_allowed():
    with pytest.raises(tf.errors.InvalidArgumentError) as e:
        tf.raw_ops.ArgMax(input=tf.constant([1.0, 2.0]), dimension=0, output_type=tf.float32)
    assert _first_line(e) == ("Value for attr 'output_type' of float is not in the list of "
                              "allowed values: int16, uint16, int32, int64")


@pytest.mark.parametrize("call, message", [
    (lambda: tf.raw_ops.MatMul(a=tf.zeros([2, 2]), b=tf.zeros([2, 2]), transpose_a="x"),
     "Expected bool for argument 'transpose_a' not 'x'."),
    (lambda: tf.raw_ops.StringLength(input=tf.constant(["a"]), unit=3),
     "Expected string for argument 'unit' not 3."),
    (lambda: tf.raw_ops.Cast(x=[1], DstT="floaty"),
     "Expected DataType for argument 'DstT' not 'floaty'."),
    (lambda: tf.raw_ops.LeakyRelu(features=tf.zeros([2]), alpha="a"),
     "Expected float for argument 'alpha' not 'a'."),
    (lambda: tf.raw_ops.Unpack(value=tf.zeros([2, 2]), num="2"),
     "Expected int for argument 'num' not '2'."),
    (lambda: tf.raw_ops.Conv2D(input=tf.zeros([1, 3, 3, 1]), filter=tf.zeros([1, 1, 1, 1]),
                               strides=1, padding="SAME"),
     "Expected list for 'strides' argument to 'conv2d' Op, not 1."),
])
def test_attr_of_the_wrong_kind_is_type_error(call, message):
    with pytest.raises(TypeError) as e:
        call()
    assert str(e.value) == message


def test_attrs_made_their_kind_and_none_takes_the_default():
    # TF's wrappers make ints of numbers and dtypes of their enum values; None is the default
    parts = tf.raw_ops.Unpack(value=tf.zeros([2, 3]), num=2.5)
    assert len(parts) == 2
    assert tf.raw_ops.ArgMax(input=tf.constant([1.0, 2.0]), dimension=0,
                             output_type=3).dtype == tf.int32
    out = tf.raw_ops.LeakyRelu(features=tf.constant([-1.0, 1.0]), alpha=None)
    assert out.numpy().tolist() == pytest.approx([-0.2, 1.0])


def test_public_function_checks_the_same_way():
    with pytest.raises(tf.errors.InvalidArgumentError) as e:
        tf.strings.length(tf.constant(["abc"]), unit="BAD", name="n")
    assert str(e.value).startswith("Value for attr 'unit' of \"BAD\" is not in the list of "
                                   "allowed values: \"BYTE\", \"UTF8_CHAR\"\n\t; NodeDef: "
                                   "{{node StringLength}}")

    @tf.function
    def f():
        return tf.strings.substr(tf.constant(["abc"]), 0, 1, unit="X")
    with pytest.raises(ValueError, match="Attr 'unit' of 'Substr' Op passed string 'X'"):
        f()
