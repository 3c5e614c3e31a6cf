"""Common-subexpression elimination: identical pure operations computed once.

Two operations are identical when they run the same op on the same input
tensors with equal attributes; two ``Const`` nodes when their values have
the same dtype, shape and bytes. Stateful operations are never merged.

>>> from eagerflow._src.graph.passes.program import Program
>>> def program_of(fn, *shapes):
...     specs = [tf.TensorSpec(s, tf.float32) for s in shapes]
...     cf = tf.function(fn).get_concrete_function(*specs)
...     return Program.from_graph(cf.graph, cf.inputs, cf.outputs)
>>> program = program_of(lambda x: x * x + x * x, [2])
>>> [op.type for op in eliminate_common_subexpressions(program).operations]
['Placeholder', 'Mul', 'AddV2', 'Identity']
"""
import numpy as np

from eagerflow._src.core.tensor_shape import TensorShape
from eagerflow._src.core.variables import Variable
from eagerflow._src.graph.passes.constant_folding import MAX_FOLDED_ELEMENTS
from eagerflow._src.graph.passes.program import rewrite


def eliminate_common_subexpressions(program):
    """`program` where each operation identical to an earlier one reads that one's outputs."""
    first = {}

    def merged(op):
        key = _key(op)
        twin = None if key is None else first.setdefault(key, op)
        return None if twin is None or twin is op else ((), twin.outputs)
    return rewrite(program, merged)


def _key(op):
    """What identifies `op`'s results, or None when they must not be shared."""
    if op.type == "Const":
        value = op.value
        if (not isinstance(value, np.ndarray) or value.dtype == object
                or value.size > MAX_FOLDED_ELEMENTS):
            # strings compare by content, not bytes; huge ones are not worth it; a variant
            # (a dataset, an iterator) is one object, held by reference
            return None
        return "Const", value.dtype, value.shape, value.tobytes()
    if op.op_def is None or op.stateful or any(isinstance(t, Variable) for t in op.inputs):
        return None  # placeholders, side effects, and reads of a variable's current value
    try:
        attrs = _freeze(op.attrs)
        hash(attrs)
    except TypeError:
        return None
    # Inputs by identity: the operations remembered in `first` keep them alive.  (Two loops
    # or branches differ by their attrs, which name their bodies.)
    return op.op_def, tuple(id(t) for t in op.inputs), attrs


def _freeze(value):
    """A hashable stand-in for an attribute value; equal values give equal stand-ins."""
    if isinstance(value, dict):
        return tuple(sorted((k, _freeze(v)) for k, v in value.items()))
    if isinstance(value, (list, tuple)):
        return type(value).__name__, tuple(_freeze(v) for v in value)
    if isinstance(value, TensorShape):
        return "TensorShape", None if value.rank is None else tuple(value.as_list())
    if isinstance(value, np.ndarray):
        if value.dtype == object:
            raise TypeError("object arrays are compared by content")
        return "ndarray", value.dtype, value.shape, value.tobytes()
    return type(value).__name__, value  # 1, 1.0 and True are different attributes
