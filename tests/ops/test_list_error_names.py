"""Eager errors of functions given Python lists end as TF's do: TF's wrappers that pass a
list to the op unconverted run its slower path, whose errors lack the ``name: `` ending."""
import pytest

import eagerflow as tf


@pytest.mark.parametrize("fn", [tf.math.sqrt, tf.math.exp, tf.math.negative, tf.nn.relu,
                                tf.bitwise.invert])
def test_unary_function_given_a_list(fn):
    with pytest.raises(tf.errors.InvalidArgumentError) as e:
        fn([["a"]])
    assert str(e.value).endswith("]") and " name: " not in str(e.value)
    with pytest.raises(tf.errors.InvalidArgumentError) as e:
        fn(tf.constant([["a"]]))
    assert str(e.value).endswith(" name: ")


@pytest.mark.parametrize("fn", [tf.math.sigmoid, tf.nn.relu6, tf.math.log_sigmoid])
def test_functions_converting_first_keep_the_name(fn):
    with pytest.raises(tf.errors.InvalidArgumentError) as e:
        fn([["a"]])
    assert str(e.value).endswith(" name: ")


def test_logical_and_given_lists():
    with pytest.raises(tf.errors.InvalidArgumentError) as e:
        tf.logical_and([True, False], [True, False, True])
    assert str(e.value).endswith("Incompatible shapes: [2] vs. [3] [Op:LogicalAnd]")


@pytest.mark.parametrize("values", [["b", "a"], [True, False]])
def test_sort_of_strings_or_bools_fails_in_neg(values):
    # TF sorts ascending by negating what is not an integer: the error is Neg's
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"\{\{node Neg\}\}"):
        tf.sort(tf.constant(values))
