"""`TensorProto` and `TensorShapeProto` to and from NumPy arrays and `TensorShape`s.

Constants of GraphDefs, `io.serialize_tensor` and checkpoints write tensors in
TF's form: the bytes of numbers (``tensor_content``), the elements of strings.

>>> tensor_from_proto(tensor_proto(np.array([1.5, 2.0], np.float32))).tolist()
[1.5, 2.0]
"""
import numpy as np

from eagerflow._src.core import dtypes as _d
from eagerflow._src.core import errors
from eagerflow._src.core.protos import framework as pb
from eagerflow._src.core.tensor_shape import TensorShape

_VAL_FIELDS = {  # dtype -> (TensorProto field, NumPy type of its values)
    _d.float32: ("float_val", np.float32), _d.float64: ("double_val", np.float64),
    _d.int32: ("int_val", np.int32), _d.int16: ("int_val", np.int16),
    _d.int8: ("int_val", np.int8), _d.uint8: ("int_val", np.uint8),
    _d.uint16: ("int_val", np.uint16), _d.int64: ("int64_val", np.int64),
    _d.uint32: ("uint32_val", np.uint32), _d.uint64: ("uint64_val", np.uint64),
    _d.bool: ("bool_val", np.bool_), _d.float16: ("half_val", np.uint16),
    _d.bfloat16: ("half_val", np.uint16), _d.complex64: ("scomplex_val", np.float32),
    _d.complex128: ("dcomplex_val", np.float64),
}


def shape_proto(shape):
    """A `TensorShapeProto`: -1 for an unknown dim, ``unknown_rank`` for an unknown rank."""
    shape = TensorShape(shape)
    if shape.rank is None:
        return pb.TensorShapeProto(unknown_rank=True)
    return pb.TensorShapeProto(dim=[pb.TensorShapeProto.Dim(size=-1 if d is None else d)
                                    for d in shape.as_list()])


def shape_from_proto(proto):
    if proto.unknown_rank:
        return TensorShape(None)
    return TensorShape([None if d.size < 0 else d.size for d in proto.dim])


def tensor_proto(array, dtype=None):
    """A `TensorProto` of `array`: the bytes of numbers, the elements of strings."""
    array = np.asarray(array)
    dtype = dtype or _d.from_numpy(array.dtype)
    proto = pb.TensorProto(dtype=dtype.as_datatype_enum, tensor_shape=shape_proto(array.shape))
    if dtype == _d.string:
        proto.string_val.extend(v if isinstance(v, bytes) else str(v).encode()
                                for v in array.reshape(-1))
    elif not dtype.is_numpy_compatible:
        raise errors.InvalidArgumentError(None, None, f"A constant of dtype {dtype.name} has "
                                                      f"no TensorProto.")
    else:
        proto.tensor_content = np.ascontiguousarray(
            array, dtype.as_numpy_dtype).astype(array.dtype.newbyteorder("<")).tobytes()
    return proto


def tensor_from_proto(proto, truncate=False):
    """The NumPy array a `TensorProto` holds (as TF reads it: a short ``*_val`` list is
    filled out with its last value). `truncate`: a long one is cut to the shape's size, as
    TF's kernels read it (``tf.make_ndarray`` refuses it)."""
    dtype = _d.as_dtype(proto.dtype)
    shape = shape_from_proto(proto.tensor_shape).as_list()
    size = int(np.prod(shape, dtype=np.int64))
    if dtype == _d.string:
        values = np.empty(len(proto.string_val), object)
        values[:] = list(proto.string_val)
        np_type = object
    elif proto.tensor_content:
        np_type = np.dtype(dtype.as_numpy_dtype)
        return np.frombuffer(proto.tensor_content, np_type.newbyteorder("<")).astype(
            np_type).reshape(shape)
    else:
        field, raw = _VAL_FIELDS.get(dtype, (None, None))
        if field is None:
            raise errors.InvalidArgumentError(None, None, f"Cannot read a tensor of dtype "
                                                          f"{dtype.name} from a TensorProto.")
        np_type = np.dtype(dtype.as_numpy_dtype)
        values = np.asarray(getattr(proto, field), raw)
        if field == "half_val":
            values = values.view(np_type)
        elif dtype.is_complex:
            values = values.reshape(-1, 2)
            values = (values[:, 0] + 1j * values[:, 1]).astype(np_type)
        else:
            values = values.astype(np_type)
    if values.size == size:
        return values.reshape(shape)
    if values.size == 0:
        return np.zeros(shape, np_type) if np_type is not object else np.full(shape, b"", object)
    if values.size > size and truncate:
        return values[:size].reshape(shape)
    if values.size > size:
        raise errors.InvalidArgumentError(None, None, f"A TensorProto of shape {shape} holds "
                                                      f"{values.size} values.")
    out = np.empty(size, np_type)
    out[:values.size] = values
    out[values.size:] = values[-1]
    return out.reshape(shape)
