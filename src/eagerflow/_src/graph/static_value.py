"""``tf.get_static_value``: a graph tensor's value where TF's Python evaluator knows it.

TF knows the value of a graph tensor from a handful of ops only (constants,
shapes and sizes of tensors of known shape, ``Range``, ``Cast``, ``ConcatV2``,
``Pack`` and ``Unpack`` along axis 0, ``Split``, ``Fill``, ``Equal``,
``NotEqual``, identities); every other op leaves it None, even of constant
inputs.  Its graphs hold constants where eagerflow's hold ``ZerosLike`` and
``OnesLike`` of tensors of known shape: those count too.  (Shape inference
folds any op of constants: see `SymbolicTensor.static_value`.)
"""
import numpy as np

from eagerflow._src.backend.api_export import export
from eagerflow._src.core.convert import is_tensor
from eagerflow._src.core.tensor import EagerTensor
from eagerflow._src.graph.graph import SymbolicTensor


@export("get_static_value")
def get_static_value(tensor, partial=False):
    """The value of `tensor` as a NumPy array when it is known before it runs: always for
    an eager tensor, for a graph tensor when TF's evaluator knows it, else None (a variable,
    a tensor of most ops). Other values are returned as they are.

    >>> tf.get_static_value(tf.constant([1, 2]))
    array([1, 2], dtype=int32)
    >>> tf.get_static_value([1, 2])
    [1, 2]
    """
    if isinstance(tensor, EagerTensor):
        return tensor.numpy()
    if not is_tensor(tensor):
        return tensor
    if not isinstance(tensor, SymbolicTensor):
        return None  # a variable, a sparse or ragged tensor
    return _value(tensor, partial)


def _value(tensor, partial=False):
    if tensor.__dict__.get("_fed_default"):
        return None  # (a TF 1 default a run may feed another value for)
    op = tensor.op
    rule = _RULES.get(op.type)
    return None if rule is None else rule(tensor, op, partial)


def _known_inputs(op):
    values = [_value(t) for t in op.inputs]
    return None if any(v is None for v in values) else values


def _attr_or_input(op, name, index):
    """An argument eagerflow keeps as an attr where TF's op takes an input."""
    if name in op.attrs:
        return op.attrs[name]
    return _value(op.inputs[index]) if len(op.inputs) > index else None


def _shape(tensor, op, _):
    shape = op.inputs[0].shape
    if not shape.is_fully_defined():
        return None
    return np.array(shape.as_list(), tensor.dtype.as_numpy_dtype)


def _size(tensor, op, _):
    shape = op.inputs[0].shape
    if not shape.is_fully_defined():
        return None
    return np.asarray(np.prod(shape.as_list(), dtype=np.int64), tensor.dtype.as_numpy_dtype)


def _rank(tensor, op, _):
    rank = op.inputs[0].shape.rank
    return None if rank is None else np.asarray(rank, np.int32)


def _range(tensor, op, _):
    bounds = _known_inputs(op)
    if bounds is None:
        return None
    return np.arange(*bounds, dtype=tensor.dtype.as_numpy_dtype)


def _cast(tensor, op, _):
    value = _value(op.inputs[0])
    return None if value is None else value.astype(tensor.dtype.as_numpy_dtype)


def _concat(tensor, op, _):
    axis = op.attrs["axis"] if "axis" in op.attrs else _value(op.inputs[-1])
    values = _known_inputs(op) if "axis" in op.attrs else _known_inputs_but_last(op)
    if axis is None or values is None:
        return None
    return np.concatenate(values, axis=int(axis))


def _known_inputs_but_last(op):
    values = [_value(t) for t in op.inputs[:-1]]
    return None if any(v is None for v in values) else values


def _pack(tensor, op, partial):
    if not op.inputs or op.attrs.get("axis", 0) != 0:
        return None
    values = [_value(t, partial) for t in op.inputs]
    if not partial and any(v is None for v in values):
        return None
    try:
        return np.array(values)
    except ValueError:  # (some parts unknown: an object array, as TF gives)
        return np.array(values, dtype=object)


def _unpack(tensor, op, partial):
    if op.attrs.get("axis", 0) != 0:
        return None
    value = _value(op.inputs[0], partial)
    return None if value is None else value[tensor.value_index]


def _split(tensor, op, partial):
    axis = _attr_or_input(op, "axis", 0)
    value = _value(op.inputs[-1], partial)
    if value is None or axis is None:
        return None
    return np.split(value, op.attrs["num_split"], int(axis))[tensor.value_index]


def _fill(tensor, op, _):
    value = _value(op.inputs[-1])
    if value is None or not tensor.shape.is_fully_defined():
        return None
    return np.full(tensor.shape.as_list(), value, dtype=value.dtype)


def _filled(fill):
    def rule(tensor, _op, __):
        if not tensor.shape.is_fully_defined() or not tensor.dtype.is_numpy_compatible:
            return None
        return np.full(tensor.shape.as_list(), fill, tensor.dtype.as_numpy_dtype)
    return rule


def _compare(ufunc):
    def rule(tensor, op, _):
        values = _known_inputs(op)
        return None if values is None else ufunc(*values)
    return rule


def _through(tensor, op, partial):
    return _value(op.inputs[0], partial)


_RULES = {
    "Const": lambda tensor, op, _: op.value,
    "Shape": _shape, "Size": _size, "Rank": _rank, "Range": _range, "Cast": _cast,
    "ConcatV2": _concat, "Pack": _pack, "Unpack": _unpack, "Split": _split, "Fill": _fill,
    "ZerosLike": _filled(0), "OnesLike": _filled(1),
    "Equal": _compare(np.equal), "NotEqual": _compare(np.not_equal),
    "StopGradient": _through, "Identity": _through, "CheckNumericsV2": _through,
    "DebugIdentityV2": _through,
}
