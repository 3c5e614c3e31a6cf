"""A Python operand that cannot take its tensor operand's dtype: eagerly TF's conversion
error, while a graph is built TF's op-wrapper error naming the op and parameter."""
import pytest

import eagerflow as tf


@pytest.mark.parametrize("fn, op", [(lambda x: x - 1.5, "Sub"), (lambda x: x * 1.5, "Mul"),
                                    (lambda x: tf.maximum(x, 1.5), "Maximum"),
                                    (lambda x: x < 1.5, "Less"), (lambda x: x // 1.5, "FloorDiv")])
def test_traced_python_operand_error_names_the_op(fn, op):
    with pytest.raises(TypeError, match="^Cannot convert 1.5 to EagerTensor of dtype int32$"):
        fn(tf.constant(4))
    with pytest.raises(TypeError) as e:
        tf.function(fn, autograph=False)(tf.constant(4))
    assert str(e.value) == (f"Expected int32 passed to parameter 'y' of op '{op}', got 1.5 of "
                            f"type 'float' instead. Error: Expected int32, but got 1.5 of type "
                            f"'float'.")


def test_traced_reflected_operator_error_is_the_bare_check():
    with pytest.raises(TypeError, match="^Cannot convert 1.5 to EagerTensor of dtype int32$"):
        1.5 - tf.constant(4)
    with pytest.raises(TypeError, match=r"^Expected int32, but got 1.5 of type 'float'\.$"):
        tf.function(lambda x: 1.5 - x, autograph=False)(tf.constant(4))
