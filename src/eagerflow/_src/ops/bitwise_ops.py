"""Bitwise operations on integer tensors (`tf.bitwise`).

Shift amounts are clamped to [0, bits - 1] as TensorFlow's kernels do, so shifting
by the bit width or more (or by a negative amount) is well defined.

>>> tf.bitwise.bitwise_and(tf.constant([12, 10]), tf.constant([10, 6]))
<tf.Tensor: shape=(2,), dtype=int32, numpy=array([8, 2], dtype=int32)>
>>> tf.bitwise.left_shift(tf.constant([1], tf.int8), tf.constant([9], tf.int8))
<tf.Tensor: shape=(1,), dtype=int8, numpy=array([-128], dtype=int8)>
"""
from eagerflow._src.backend.api_export import export
from eagerflow._src.core import dtypes as _d
from eagerflow._src.core.node_forms import NodeForm, tf_nodes
from eagerflow._src.core.registry import INT, register, same_shape
from eagerflow._src.ops import shape_rules as rules
from eagerflow._src.ops.wrappers import binary, name_functions, unary

_NO_GRAD = "bitwise"


def _shift(fn_name):
    """A shift kernel with the amount clamped to [0, bits - 1]."""
    def kernel(xp, x, y):
        return getattr(xp, fn_name)(x, xp.clip(y, 0, x.dtype.itemsize * 8 - 1))
    return kernel


def _register_binary(tf_name, kernel):
    return register(tf_name, kernel, rules.binary, tied=(0, 1), dtypes=INT,
                    not_differentiable=_NO_GRAD, elementwise=True)


bitwise_and = binary(_register_binary("BitwiseAnd", "bitwise_and"), """Computes x & y.

    >>> tf.bitwise.bitwise_and(tf.constant([5], tf.uint8), 3)
    <tf.Tensor: shape=(1,), dtype=uint8, numpy=array([1], dtype=uint8)>
    """)
export("bitwise.bitwise_and")(bitwise_and)
bitwise_or = binary(_register_binary("BitwiseOr", "bitwise_or"), """Computes x | y.

    >>> tf.bitwise.bitwise_or(tf.constant([5]), tf.constant([3]))
    <tf.Tensor: shape=(1,), dtype=int32, numpy=array([7], dtype=int32)>
    """)
export("bitwise.bitwise_or")(bitwise_or)
bitwise_xor = binary(_register_binary("BitwiseXor", "bitwise_xor"), """Computes x ^ y.

    >>> tf.bitwise.bitwise_xor(tf.constant([5]), tf.constant([3]))
    <tf.Tensor: shape=(1,), dtype=int32, numpy=array([6], dtype=int32)>
    """)
export("bitwise.bitwise_xor")(bitwise_xor)
left_shift = binary(_register_binary("LeftShift", _shift("left_shift")), """Computes x << y.

    Bits shifted out are lost; `y` is clamped to [0, bits - 1].

    >>> tf.bitwise.left_shift(tf.constant([1, 3]), tf.constant([4, 1]))
    <tf.Tensor: shape=(2,), dtype=int32, numpy=array([16,  6], dtype=int32)>
    """)
export("bitwise.left_shift")(left_shift)
right_shift = binary(_register_binary("RightShift", _shift("right_shift")), """Computes x >> y.

    Signed tensors shift arithmetically (the sign fills in); `y` is clamped to
    [0, bits - 1].

    >>> tf.bitwise.right_shift(tf.constant([-8, 8]), tf.constant([1, 2]))
    <tf.Tensor: shape=(2,), dtype=int32, numpy=array([-4,  2], dtype=int32)>
    """)
export("bitwise.right_shift")(right_shift)
invert = unary(register("Invert", "invert", same_shape, dtypes=INT, not_differentiable=_NO_GRAD),
               """Flips all bits of x (~x).

    >>> tf.bitwise.invert(tf.constant([0, 5], tf.uint8))
    <tf.Tensor: shape=(2,), dtype=uint8, numpy=array([255, 250], dtype=uint8)>
    """)
export("bitwise.invert")(invert)

def _population_count(xp, x):
    # (NumPy counts the bits of a signed integer's absolute value: read as unsigned)
    return xp.bitwise_count(x.view(f"u{x.dtype.itemsize}")).astype(xp.uint8)


# The number of set bits of each element, as uint8 (``tf.raw_ops.PopulationCount``).
_POPULATION_COUNT = register(
    "PopulationCount", _population_count,
    lambda x: (x.shape, _d.uint8), dtypes=INT, not_differentiable=_NO_GRAD, elementwise=True)
tf_nodes[_POPULATION_COUNT] = NodeForm(outputs=("y",))

name_functions(globals())
