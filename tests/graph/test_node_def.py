"""Shape errors raised while a graph is built quote the node as TF writes it."""
import pytest

import eagerflow as tf


def _error(fn, *shapes, dtype=tf.float32):
    with pytest.raises(ValueError) as info:
        tf.function(fn)(*[tf.ones(s, dtype) for s in shapes])
    return str(info.value).strip().splitlines()[-1].strip()


def test_broadcast_errors_name_the_node_its_inputs_and_the_first_bad_dims():
    assert _error(lambda a, b: a + b, [2, 3], [4, 5]) == (
        "ValueError: Dimensions must be equal, but are 2 and 4 for '{{node add}} = "
        "AddV2[T=DT_FLOAT](a, b)' with input shapes: [2,3], [4,5].")
    assert "are 7 and 8" in _error(lambda a, b: a + b, [2, 3, 7], [3, 8])
    assert "'{{node sub_1}} = Sub[T=DT_INT32](sub, b)'" in _error(
        lambda a, b: (a - 1) - b, [2, 3], [4, 3], dtype=tf.int32)
    assert "'{{node NotEqual}} = NotEqual[T=DT_FLOAT, incompatible_shape_error=true](x, y)'" in \
        _error(tf.math.not_equal, [2, 3], [4, 3])


def test_scoped_names_and_inputs_held_as_attrs():
    def scoped(a, b):
        with tf.name_scope("block"):
            return tf.multiply(a, b, name="prod")
    assert "'{{node block/prod}} = Mul[T=DT_DOUBLE](a, b)'" in _error(
        scoped, [2], [3], dtype=tf.float64)
    assert ("'{{node Reshape}} = Reshape[T=DT_FLOAT, Tshape=DT_INT32](a, Reshape/shape)'"
            in _error(lambda a: tf.reshape(a, [5, -1]), [2, 3]))


def test_matmul_concat_and_stack_errors():
    assert _error(lambda a, b: tf.matmul(a, b, transpose_a=True), [2, 3], [4, 3]) == (
        "ValueError: Dimensions must be equal, but are 2 and 4 for '{{node MatMul}} = "
        "MatMul[T=DT_FLOAT, grad_a=false, grad_b=false, transpose_a=true, transpose_b=false]"
        "(a, b)' with input shapes: [2,3], [4,3].")
    assert "are 3 and 4 for '{{node MatMul}} = BatchMatMulV2[" in _error(
        tf.matmul, [5, 2, 3], [5, 4, 3])
    # concat merges from the last input back: the third input's 2 meets the second's 4
    assert _error(lambda a, b: tf.concat([a, b, a], -1), [2, 3], [4, 3]) == (
        "ValueError: Dimension 0 in both shapes must be equal, but are 4 and 2. Shapes are [4] "
        "and [2]. for '{{node concat}} = ConcatV2[N=3, T=DT_FLOAT, Tidx=DT_INT32](a, b, a, "
        "concat/axis)' with input shapes: [2,3], [4,3], [2,3], [] and with computed input "
        "tensors: input[3] = <-1>.")
    assert "Shape must be rank 2 but is rank 1 for '{{node concat}}" in _error(
        lambda a, b: tf.concat([a, b], 0), [2, 3], [3])
    with pytest.raises(ValueError) as info:
        tf.function(lambda a, b: tf.stack([a, b, a]))(tf.ones([2, 3]), tf.ones([4, 3]))
    assert ("ValueError: Dimension 0 in both shapes must be equal, but are 4 and 2. Shapes are "
            "[4,3] and [2,3].\n    \tFrom merging shape 1 with other shapes. for '{{node stack}} "
            "= Pack[N=3, T=DT_FLOAT, axis=0](a, b, a)' with input shapes: [2,3], [4,3], [2,3]."
            in str(info.value))


def test_string_and_list_attrs_are_written_as_tf_writes_them():
    # strings quoted, lists in brackets (they were bare, and tuples in parentheses)
    assert ("'{{node Conv2D}} = Conv2D[T=DT_FLOAT, data_format=\"NHWC\", dilations=[1, 1, 1, 1], "
            "explicit_paddings=[], padding=\"VALID\", strides=[1, 1, 1, 1]" in _error(
                lambda x, w: tf.nn.conv2d(x, w, 1, "VALID"), [1, 4, 4, 1], [5, 5, 1, 2]))
    assert "= Einsum[N=1, T=DT_FLOAT, equation=\"ii->\"](a)'" in _error(
        lambda a: tf.einsum("ii->", a), [2, 3])
