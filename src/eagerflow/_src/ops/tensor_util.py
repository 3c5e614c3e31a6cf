"""`make_tensor_proto` and `make_ndarray`: values to a `TensorProto` and back, as TF writes it.

Numbers of more than one element go into ``tensor_content`` (their bytes) for the dtypes
TF writes that way; others, a scalar and a value broadcast to a larger `shape` into the
``*_val`` field of their dtype, which a reader fills out with the last value.

>>> tf.make_ndarray(tf.make_tensor_proto([1, 2]))
array([1, 2], dtype=int32)
>>> tf.make_ndarray(tf.make_tensor_proto(3, shape=[2]))
array([3, 3], dtype=int32)
"""
import numpy as np

from eagerflow._src.backend.api_export import export
from eagerflow._src.core import dtypes as _d
from eagerflow._src.core.convert import to_array


def _protos():
    # (protobuf loads on first use, not with eagerflow)
    from eagerflow._src.core.protos import framework, tensors
    return framework, tensors


_CONTENT_TYPES = frozenset((_d.float16, _d.float32, _d.float64, _d.int32, _d.uint8, _d.int16,
                            _d.int8, _d.int64, _d.uint16, _d.uint32, _d.uint64))


def _as_array(values, dtype):
    if hasattr(values, "numpy") and not isinstance(values, np.ndarray):  # an eager tensor
        values = values.numpy()
    if isinstance(values, (np.ndarray, np.generic)):
        if dtype is not None and dtype.is_numpy_compatible and dtype != _d.string:
            return np.asarray(values).astype(dtype.as_numpy_dtype)
        return np.asarray(values)
    if values is None:
        raise ValueError("None values not supported.")
    try:
        array = to_array(values, dtype)
    except TypeError:
        if dtype is None:
            raise
        for value in _flat(values):  # TF's message names the first value of another type
            try:
                to_array(value, dtype)
            except TypeError:
                raise TypeError(f"Expected {dtype.name}, but got {value} of type "
                                f"'{type(value).__name__}'.") from None
        raise
    if dtype is None and array.dtype == np.int64:  # TF keeps int32 where the values fit
        narrow = array.astype(np.int32)
        if np.array_equal(narrow, array):
            array = narrow
    return array


def _flat(values):
    if isinstance(values, (list, tuple)):
        for v in values:
            yield from _flat(v)
    else:
        yield values


@export("make_tensor_proto", "compat.v1.make_tensor_proto")
def make_tensor_proto(values, dtype=None, shape=None, verify_shape=False,
                      allow_broadcast=False):
    """A `TensorProto` holding `values` (of `dtype`, filled out to `shape` if given).

    >>> print(tf.make_tensor_proto(1.5))
    dtype: DT_FLOAT
    tensor_shape {
    }
    float_val: 1.5
    <BLANKLINE>
    """
    pb, tensors = _protos()
    if isinstance(values, pb.TensorProto):
        return values
    dtype = None if dtype is None else _d.as_dtype(dtype)
    if shape is not None and not isinstance(values, (np.ndarray, np.generic)) and not hasattr(
            values, "numpy") and values is not None and np.prod(shape, dtype=np.int64) == 0:
        array = np.empty(shape, None if dtype is None else dtype.as_numpy_dtype)
    else:
        array = _as_array(values, dtype)
    kind = _d.string if array.dtype.kind in "SUO" else _d.from_numpy(array.dtype)
    if dtype is not None and dtype != kind:
        raise TypeError(f"`dtype` {dtype} is not compatible with {values} of dtype "
                        f"{array.dtype}.")
    if shape is None:
        shape, size, same = array.shape, array.size, True
    else:
        shape = [int(d) for d in shape]
        size = int(np.prod(shape, dtype=np.int64))
        same = size == array.size
        if allow_broadcast:
            if array.shape not in ((1,), ()) and array.size != size:
                raise TypeError(f"Expected Tensor's shape: {tuple(shape)}, but got "
                                f"{array.shape}.")
        else:
            if verify_shape and array.shape != tuple(shape):
                raise TypeError(f"Expected Tensor's shape: {tuple(shape)}, but got "
                                f"{array.shape}.")
            if array.size > size:
                raise ValueError(f"Too many elements provided. Takes at most {size:d}, but "
                                 f"got {array.size:d}.")
    proto = pb.TensorProto(dtype=kind.as_datatype_enum, tensor_shape=tensors.shape_proto(shape))
    if same and kind in _CONTENT_TYPES and size > 1:
        proto.tensor_content = array.astype(array.dtype.newbyteorder("<")).tobytes()
        return proto
    flat = array.reshape(-1)
    if kind == _d.string:
        proto.string_val.extend(v if isinstance(v, bytes) else str(v).encode() for v in flat)
        return proto
    field, raw = tensors._VAL_FIELDS[kind]
    if field == "half_val":
        values = flat.view(np.uint16)
    elif kind.is_complex:
        values = np.stack([flat.real, flat.imag], -1).reshape(-1)
    else:
        values = flat
    getattr(proto, field).extend(values.tolist())
    return proto


@export("make_ndarray", "compat.v1.make_ndarray")
def make_ndarray(tensor):
    """The NumPy array a `TensorProto` holds (a new, writable array).

    >>> tf.make_ndarray(tf.make_tensor_proto([[1.0, 2.0]]))
    array([[1., 2.]], dtype=float32)
    """
    return np.array(_protos()[1].tensor_from_proto(tensor))
