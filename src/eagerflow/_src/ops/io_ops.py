"""File and format ops of `tf.io`: whole files, tensor serialization, raw bytes and CSV.

``ReadFile``/``WriteFile``/``MatchingFiles`` touch the file system, so they are
stateful: a function runs them in program order and never folds them into
constants. ``SerializeTensor``/``ParseTensor`` use TF's ``TensorProto`` bytes.

>>> tf.io.decode_raw(tf.constant([b"\\x01\\x00\\x02\\x00"]), tf.int16)
<tf.Tensor: shape=(1, 2), dtype=int16, numpy=array([[1, 2]], dtype=int16)>
>>> [t.numpy().tolist() for t in tf.io.decode_csv(["1,a", "2,b"], [[0], [""]])]
[[1, 2], [b'a', b'b']]
"""
import base64
import os
import re
import zlib

import numpy as np

from eagerflow._src.backend.api_export import export
from eagerflow._src.core import context
from eagerflow._src.core import dtypes as _d
from eagerflow._src.core import errors
from eagerflow._src.core.op_attrs import list_below_minimum
from eagerflow._src.core.convert import convert_input, convert_to_tensor
from eagerflow._src.core.dispatch import dispatch
from eagerflow._src.core.node_forms import NodeForm, tf_nodes
from eagerflow._src.core.node_forms import tf_args
from eagerflow._src.core.node_forms import input_dtypes, tf_defaults
from eagerflow._src.core.registry import PER_ELEMENT, attr_dtype_error, batching_rules, \
    register
from eagerflow._src.core.tensor_shape import TensorShape
from eagerflow._src.core.variables import Variable
from eagerflow._src.ops import file_system, shape_rules, string_ops
from eagerflow._src.ops.sparse_tensor import SparseTensor, check_indices

_NO_GRAD = "io op"


def _invalid(message):
    return errors.InvalidArgumentError(None, None, message)


def _path(value):
    return value.decode("utf-8", "surrogateescape") if isinstance(value, bytes) else str(value)


def os_error(error, path):
    """TF's error for an `OSError` on `path`: ``<path>; No such file or directory`` ..."""
    reason = error.strerror or str(error)
    cls = {FileNotFoundError: errors.NotFoundError,
           NotADirectoryError: errors.FailedPreconditionError,
           IsADirectoryError: errors.FailedPreconditionError,
           FileExistsError: errors.AlreadyExistsError,
           PermissionError: errors.PermissionDeniedError}.get(type(error), errors.UnknownError)
    return cls(None, None, f"{path}; {reason}")


def match_files(pattern):
    """The paths matching glob `pattern` (``*``, ``?``, ``[...]``; no ``**``), hidden ones
    too, in directory order (as TF's file system lists them); ``file://`` patterns match
    as local paths and keep their scheme."""
    fs, local = file_system.resolve(pattern)
    found = fs.glob(local)
    prefix = pattern[:len(pattern) - len(local)] if fs is file_system.LOCAL else ""
    return [prefix + f for f in found] if prefix else found


# -- ReadFile, WriteFile, MatchingFiles ---------------------------------------------------------

def _scalar(array, what):
    if array.ndim:
        raise _invalid(f"{what} tensor must be scalar, but had shape: "
                       f"{errors.shape_text(array.shape)}")


def _read_file(xp, filename):
    _scalar(filename, "Input filename")
    path = _path(filename[()])
    try:
        with file_system.open_file(path, "rb") as f:
            data = f.read()
    except OSError as e:
        raise os_error(e, path) from None
    out = np.empty((), object)
    out[()] = data
    return out


def _write_file(xp, filename, contents):
    _scalar(filename, "Input filename")
    _scalar(contents, "Contents")
    path = _path(filename[()])
    fs, local = file_system.resolve(path)
    folder = os.path.dirname(local)
    blocking = file_system.file_in_the_way(fs, folder)
    if blocking is not None:
        raise errors.FailedPreconditionError(None, None, f"{blocking} is not a directory")
    try:
        if folder:
            fs.makedirs(folder)
        with fs.open(local, "wb") as f:
            f.write(contents[()])
    except OSError as e:
        # (a folder that could not be made is the one TF's message names)
        raise os_error(e, e.filename if isinstance(e.filename, str) else path) from None
    return ()


def _matching_files(xp, pattern):
    if pattern.ndim > 1:
        raise _invalid(f"Input patterns tensor must be scalar or vector, but had shape: "
                       f"{errors.shape_text(pattern.shape)}")
    found = sorted(f for p in pattern.reshape(-1) for f in match_files(_path(p)))
    out = np.empty(len(found), object)
    out[:] = [f.encode("utf-8", "surrogateescape") for f in found]
    return out


_READ_FILE = register("ReadFile", _read_file, lambda filename: (TensorShape([]), _d.string),
                      dtypes=(_d.string,), stateful=True, replayable=True,
                      not_differentiable=_NO_GRAD)
tf_nodes[_READ_FILE] = NodeForm(types={})
tf_args[_READ_FILE] = ("filename",)
tf_nodes.get(_READ_FILE).outputs = ("contents",)
_WRITE_FILE = register("WriteFile", _write_file, lambda filename, contents: [],
                       multi=True, tied=(0, 1), dtypes=(_d.string,), stateful=True,
                       not_differentiable=_NO_GRAD)
tf_nodes[_WRITE_FILE] = NodeForm(types={})
tf_args[_WRITE_FILE] = ("filename", "contents")
_MATCHING_FILES = register("MatchingFiles", _matching_files,
                           lambda p: (TensorShape([None]), _d.string), dtypes=(_d.string,),
                           stateful=True, replayable=True, not_differentiable=_NO_GRAD)
tf_nodes[_MATCHING_FILES] = NodeForm(types={})
tf_args[_MATCHING_FILES] = ("pattern",)
tf_nodes.get(_MATCHING_FILES).outputs = ("filenames",)


@export("io.read_file", "compat.v1.io.read_file", "compat.v1.read_file")
def read_file(filename, name=None):
    """The contents of file `filename` as a scalar string tensor.

    A missing file raises NotFoundError, a directory FailedPreconditionError.
    """
    try:
        return dispatch(_READ_FILE, (convert_input(filename, _d.string),), {}, name)
    except errors.OpError as e:
        raise errors.listed(e, filename) from None


@export("io.write_file", "compat.v1.io.write_file", "compat.v1.write_file")
def write_file(filename, contents, name=None):
    """Writes scalar string `contents` to file `filename`, creating its directory."""
    try:
        dispatch(_WRITE_FILE, (convert_to_tensor(filename, _d.string),
                               convert_to_tensor(contents, _d.string)), {}, name)
    except errors.OpError as e:
        raise errors.listed(e, filename, contents) from None


@export("io.matching_files", "compat.v1.io.matching_files", "compat.v1.matching_files")
def matching_files(pattern, name=None):
    """The files matching glob `pattern` (a string or a 1-D tensor of them, hidden files
    too), sorted; an empty vector when none match.

    >>> tf.io.matching_files("/no/such/dir/*").shape
    TensorShape([0])
    """
    return dispatch(_MATCHING_FILES, (convert_input(pattern, _d.string),), {}, name)


@export("io.match_filenames_once")
def match_filenames_once(pattern, name=None):
    """A non-trainable string variable holding the files matching `pattern` when it was
    made (`matching_files` once).

    >>> tf.io.match_filenames_once("/no/such/dir/*").shape
    TensorShape([0])
    """
    return Variable(matching_files(pattern), trainable=False, name=name, validate_shape=False)


# -- SerializeTensor, ParseTensor ---------------------------------------------------------------

def _serialize_tensor(xp, tensor):
    from eagerflow._src.core.protos.tensors import tensor_proto  # noqa: PLC0415 (protobuf)
    out = np.empty((), object)
    out[()] = tensor_proto(np.asarray(tensor)).SerializeToString()
    return out


def _parse_tensor(xp, serialized, out_type):
    from eagerflow._src.core.protos import framework  # noqa: PLC0415 (protobuf)
    from eagerflow._src.core.protos.tensors import tensor_from_proto  # noqa: PLC0415
    if serialized.ndim:
        raise _invalid(f"Expected `serialized` to be a scalar, got shape: "
                       f"{errors.shape_text(serialized.shape)}")
    data = serialized[()]
    try:
        proto = framework.TensorProto.FromString(data)
        dtype = _d.as_dtype(proto.dtype)
    except Exception:  # DecodeError, or no dtype of that number
        raise _invalid(f"Could not parse `serialized` as TensorProto, base64: "
                       f"{base64.b64encode(data).decode()}") from None
    if dtype != out_type:
        from eagerflow._src.core.registry import kernel_type_name  # noqa: PLC0415
        raise _invalid(f"Type mismatch between parsed tensor ({kernel_type_name(dtype)}) and "
                       f"dtype ({kernel_type_name(out_type)})")
    dims = proto.tensor_shape
    if dims.unknown_rank:  # TF reads a shape of unknown rank as a scalar's
        dims.Clear()
    np_type = np.dtype(dtype.as_numpy_dtype)
    count = int(np.prod([d.size for d in dims.dim]))
    if any(d.size < 0 for d in dims.dim) or (proto.tensor_content and np_type != object
                                             and len(proto.tensor_content) !=
                                             np_type.itemsize * count):
        raise _invalid("Cannot parse tensor from proto: a shape with an unknown dim, or "
                       "tensor_content of another size than the shape's")
    array = tensor_from_proto(proto, truncate=True)
    return array.astype(object) if dtype == _d.string else array


_SERIALIZE_TENSOR = register("SerializeTensor", _serialize_tensor,
                             lambda t: (TensorShape([]), _d.string), tied=(),
                             not_differentiable=_NO_GRAD)
tf_args[_SERIALIZE_TENSOR] = ("tensor",)
tf_nodes[_SERIALIZE_TENSOR] = NodeForm(outputs=("serialized",))
_PARSE_TENSOR = register("ParseTensor", _parse_tensor,
                         lambda s, out_type: (TensorShape(None), out_type), dtypes=(_d.string,),
                         not_differentiable=_NO_GRAD)
tf_nodes[_PARSE_TENSOR] = NodeForm(types={})
tf_args[_PARSE_TENSOR] = ("serialized",)


@export("io.serialize_tensor", "compat.v1.io.serialize_tensor", "compat.v1.serialize_tensor")
def serialize_tensor(tensor, name=None):
    """`tensor` as a scalar string: its ``TensorProto`` bytes, as TF writes them.

    >>> t = tf.io.serialize_tensor(tf.constant([1.5, 2.0]))
    >>> tf.io.parse_tensor(t, tf.float32)
    <tf.Tensor: shape=(2,), dtype=float32, numpy=array([1.5, 2. ], dtype=float32)>
    """
    return dispatch(_SERIALIZE_TENSOR, (convert_to_tensor(tensor),), {}, name)


@export("io.parse_tensor", "compat.v1.io.parse_tensor", "compat.v1.parse_tensor")
def parse_tensor(serialized, out_type, name=None):
    """The tensor a serialized ``TensorProto`` holds; its dtype must be `out_type`."""
    try:
        return dispatch(_PARSE_TENSOR, (convert_input(serialized, _d.string),),
                        {"out_type": _d.as_dtype(out_type)}, name)
    except errors.OpError as e:
        raise errors.listed(e, serialized) from None


# -- SerializeSparse, SerializeManySparse, DeserializeManySparse ---------------------------------

def _serialized(arrays):
    """The ``TensorProto`` bytes of each of `arrays`, as an object array."""
    from eagerflow._src.core.protos.tensors import tensor_proto  # noqa: PLC0415 (protobuf)
    out = np.empty(len(arrays), object)
    out[:] = [tensor_proto(np.asarray(a)).SerializeToString() for a in arrays]
    return out


def _serialize_sparse(xp, indices, values, dense_shape, out_type=_d.string):
    return _serialized([indices, values, dense_shape])


def _serialize_many_sparse(xp, indices, values, dense_shape, out_type=_d.string):
    if dense_shape.size <= 1:
        raise _invalid(f"Rank of input SparseTensor should be > 1, but saw rank: "
                       f"{dense_shape.size}")
    check_indices(indices, dense_shape)  # (TF groups the entries by row: they must be sorted)
    rows = [indices[:, 0] == i for i in range(int(dense_shape[0]))]
    out = np.empty((len(rows), 3), object)
    for i, row in enumerate(rows):  # each row's entries, in their order, without the row
        out[i] = _serialized([indices[row, 1:], values[row], dense_shape[1:]])
    return out


def _deserialize_many_sparse(xp, serialized, dtype):
    from eagerflow._src.core.protos import framework  # noqa: PLC0415 (protobuf)
    from eagerflow._src.core.protos.tensors import tensor_from_proto  # noqa: PLC0415
    from eagerflow._src.core.registry import kernel_type_name  # noqa: PLC0415
    if serialized.ndim != 2 or serialized.shape[1] != 3:
        raise _invalid(f"Serialized sparse should be a matrix of shape [N, 3] but received "
                       f"shape: {errors.shape_text(serialized.shape)}")
    indices, values, shapes = [], [], []
    for i, (ind, val, shape) in enumerate(serialized):
        ind, val, shape = (framework.TensorProto.FromString(b) for b in (ind, val, shape))
        if _d.as_dtype(val.dtype) != dtype:
            raise _invalid(f"Requested SparseTensor of type {kernel_type_name(dtype)} but "
                           f"SparseTensor[{i}].values.dtype() == "
                           f"{kernel_type_name(_d.as_dtype(val.dtype))}")
        ind, shape = tensor_from_proto(ind).reshape(-1, len(tensor_from_proto(shape))), \
            tensor_from_proto(shape)
        if shapes and len(shape) != len(shapes[0]):
            raise _invalid(f"Inconsistent shape across SparseTensors: rank prior to "
                           f"SparseTensor[{i}] was: {len(shapes[0])} but rank of "
                           f"SparseTensor[{i}] is: {len(shape)}")
        indices.append(np.concatenate([np.full((len(ind), 1), i, np.int64), ind], 1))
        values.append(tensor_from_proto(val).reshape(-1))
        shapes.append(shape)
    rank = len(shapes[0]) if shapes else 0
    out_shape = np.array([len(shapes)] + list(np.max(shapes, 0) if shapes else []), np.int64)
    out_values = np.concatenate(values) if values else np.zeros([0], dtype.as_numpy_dtype)
    return (np.concatenate(indices).astype(np.int64) if indices else
            np.zeros([0, rank + 1], np.int64),
            out_values.astype(object) if dtype == _d.string else out_values, out_shape)


def _deserialize_sparse(xp, serialized, dtype):
    """The kernel of op DeserializeSparse: a ``[..., 3]`` array of serialized sparse tensors
    as one SparseTensor, its leading dims the batch's (a ``[3]`` one: the tensor itself), each
    tensor's entries in their order, its other dims the largest of theirs."""
    from eagerflow._src.core.protos import framework  # noqa: PLC0415 (protobuf)
    from eagerflow._src.core.protos.tensors import tensor_from_proto  # noqa: PLC0415
    from eagerflow._src.core.registry import kernel_type_name  # noqa: PLC0415
    text = errors.shape_text(serialized.shape)
    if serialized.ndim == 0:
        raise _invalid(f"Serialized sparse should have non-zero rank {text}")
    if serialized.shape[-1] != 3:
        raise _invalid(f"Serialized sparse should have 3 as the last dimension {text}")
    batch = serialized.shape[:-1]
    if serialized.size == 0:
        raise _invalid(f"Serialized sparse should have at least 1 serialized tensor, but has a "
                       f"zero dimension {text}")
    try:
        for item in serialized.reshape(-1):
            framework.TensorProto.FromString(item)
    except Exception:  # noqa: BLE001 (protobuf's DecodeError)
        raise _invalid("Could not parse serialized proto") from None
    if not batch:
        indices, values, shape = (tensor_from_proto(framework.TensorProto.FromString(b))
                                  for b in serialized)
        if _d.as_dtype(values.dtype) != dtype:
            raise _invalid(f"Requested SparseTensor of type {kernel_type_name(dtype)} but "
                           f"SparseTensor[0].values.dtype() == "
                           f"{kernel_type_name(_d.as_dtype(values.dtype))}")
        return (indices.astype(np.int64).reshape(-1, len(shape)), values.reshape(-1),
                shape.astype(np.int64))
    indices, values, shape = _deserialize_many_sparse(xp, serialized.reshape(-1, 3), dtype)
    at = np.stack(np.unravel_index(indices[:, 0], batch), 1).reshape(-1, len(batch))
    return (np.concatenate([at, indices[:, 1:]], 1).astype(np.int64), values,
            np.concatenate([np.array(batch, np.int64), shape[1:]]))


_SERIALIZE_SPARSE = register("SerializeSparse", _serialize_sparse,
                             lambda i, v, s, **_: (TensorShape([3]), _d.string), tied=(),
                             not_differentiable=_NO_GRAD)
_SERIALIZE_MANY_SPARSE = register("SerializeManySparse", _serialize_many_sparse,
                                  lambda i, v, s, **_: (TensorShape([None, 3]), _d.string),
                                  tied=(), not_differentiable=_NO_GRAD)
for _op in (_SERIALIZE_SPARSE, _SERIALIZE_MANY_SPARSE):
    tf_args[_op] = ("sparse_indices", "sparse_values", "sparse_shape")
    tf_nodes[_op] = NodeForm(types={"T": 1}, outputs=("serialized_sparse",))
    tf_defaults[_op] = {"out_type": _d.string}
_DESERIALIZE_MANY_SPARSE = register(
    "DeserializeManySparse", _deserialize_many_sparse,
    lambda s, dtype: [(TensorShape([None, None]), _d.int64), (TensorShape([None]), dtype),
                      (TensorShape([None]), _d.int64)],
    multi=True, dtypes=(_d.string,), not_differentiable=_NO_GRAD)
tf_args[_DESERIALIZE_MANY_SPARSE] = ("serialized_sparse",)
tf_nodes[_DESERIALIZE_MANY_SPARSE] = NodeForm(
    types={}, outputs=("sparse_indices", "sparse_values", "sparse_shape"))
_DESERIALIZE_SPARSE = register(
    "DeserializeSparse", _deserialize_sparse,
    lambda s, dtype: [(TensorShape([None, None]), _d.int64), (TensorShape([None]), dtype),
                      (TensorShape([None]), _d.int64)],
    multi=True, dtypes=(_d.string,), not_differentiable=_NO_GRAD)
tf_args[_DESERIALIZE_SPARSE] = ("serialized_sparse",)
tf_nodes[_DESERIALIZE_SPARSE] = NodeForm(
    types={"Tserialized": 0}, outputs=("sparse_indices", "sparse_values", "sparse_shape"))
batching_rules.assign(PER_ELEMENT, _SERIALIZE_SPARSE, _SERIALIZE_MANY_SPARSE,
                      _DESERIALIZE_MANY_SPARSE, _DESERIALIZE_SPARSE)


def _sparse_parts(sp_input):
    if not isinstance(sp_input, SparseTensor):
        raise TypeError(f"Input must be a SparseTensor, got {type(sp_input).__name__}.")
    return sp_input.indices, sp_input.values, sp_input.dense_shape


def _out_type(out_type):
    out_type = _d.as_dtype(out_type)
    if out_type != _d.string:  # (a variant holds a SparseTensor only inside TF)
        raise _invalid(f"out_type {out_type.name} is not supported: only tf.string is")
    return out_type


@export("io.serialize_sparse")
def serialize_sparse(sp_input, out_type=_d.string, name=None):
    """`sp_input` as a string vector of 3: the serialized ``TensorProto`` of its indices,
    values and dense shape.

    >>> s = tf.io.serialize_sparse(tf.sparse.from_dense([[0, 7]]))
    >>> tf.io.parse_tensor(s[1], tf.int32).numpy()
    array([7], dtype=int32)
    """
    return dispatch(_SERIALIZE_SPARSE, _sparse_parts(sp_input),
                    {"out_type": _out_type(out_type)}, name)


@export("io.serialize_many_sparse")
def serialize_many_sparse(sp_input, out_type=_d.string, name=None):
    """Each row (first index) of `sp_input`, a minibatch, serialized as `serialize_sparse`
    does: a ``[N, 3]`` string matrix.

    >>> tf.io.serialize_many_sparse(tf.sparse.from_dense([[0, 7], [1, 0]])).shape
    TensorShape([2, 3])
    """
    return dispatch(_SERIALIZE_MANY_SPARSE, _sparse_parts(sp_input),
                    {"out_type": _out_type(out_type)}, name)


@export("io.deserialize_many_sparse", "compat.v1.io.deserialize_many_sparse",
        "compat.v1.deserialize_many_sparse")
def deserialize_many_sparse(serialized_sparse, dtype, rank=None, name=None):
    """The ``[N, 3]`` serialized sparse tensors of `serialized_sparse` as one SparseTensor of
    `dtype`, their rows stacked (each shape's dims the largest of theirs); `rank` is the
    result's rank when known.

    >>> ser = tf.io.serialize_many_sparse(tf.sparse.from_dense([[0, 7], [1, 0]]))
    >>> tf.sparse.to_dense(tf.io.deserialize_many_sparse(ser, tf.int32)).numpy().tolist()
    [[0, 7], [1, 0]]
    """
    indices, values, shape = dispatch(
        _DESERIALIZE_MANY_SPARSE, (convert_input(serialized_sparse, _d.string),),
        {"dtype": _d.as_dtype(dtype)}, name)
    indices.set_shape([None, rank])
    shape.set_shape([rank])
    return SparseTensor(indices, values, shape)


# -- DecodeRaw, DecodePaddedRaw -----------------------------------------------------------------

_RAW_TYPES = (_d.float16, _d.float32, _d.float64, _d.int32, _d.uint16, _d.uint8, _d.int16,
              _d.int8, _d.int64, _d.complex64, _d.complex128, _d.bool, _d.bfloat16)
_PADDED_RAW_TYPES = (_d.float16, _d.float32, _d.float64, _d.int32, _d.uint16, _d.uint8,
                     _d.int16, _d.int8, _d.int64, _d.bfloat16)


def _raw_dtype(out_type, little_endian):
    np_type = np.dtype(out_type.as_numpy_dtype)
    return np_type.newbyteorder("<" if little_endian else ">") if np_type.itemsize > 1 \
        else np_type


def _decode_raw(xp, data, out_type, little_endian):
    np_type = _raw_dtype(out_type, little_endian)
    width = np_type.itemsize
    flat = data.reshape(-1)
    if flat.size == 0:
        return np.empty(data.shape + (0,), out_type.as_numpy_dtype)
    size = len(flat[0])
    for i, s in enumerate(flat):
        if len(s) != size:
            raise _invalid(f"DecodeRaw requires input strings to all be the same size, but "
                           f"element {i} has size {size} != {len(s)}")
    if size % width:
        raise _invalid(f"Input to DecodeRaw has length {size} that is not a multiple of "
                       f"{width}, the size of {out_type.name}")
    out = np.frombuffer(b"".join(flat), np_type).astype(out_type.as_numpy_dtype)
    return out.reshape(data.shape + (size // width,))


def _decode_padded_raw(xp, data, fixed_length, out_type, little_endian):
    np_type = _raw_dtype(out_type, little_endian)
    width = np_type.itemsize
    length = int(fixed_length)
    if length % width:
        raise _invalid(f"fixed_length ({length}) must be a multiple of the size of out_type "
                       f"({width})")
    if length <= 0:
        raise _invalid(f"fixed_length ({length}) must be greater than zero.")
    flat = data.reshape(-1)
    padded = b"".join(s[:length].ljust(length, b"\0") for s in flat)
    out = np.frombuffer(padded, np_type).astype(out_type.as_numpy_dtype)
    return out.reshape(data.shape + (length // width,))


def _decode_raw_rule(data, out_type, little_endian):
    return data.shape.concatenate([None]), out_type


def _decode_padded_raw_rule(data, fixed_length, out_type, little_endian):
    # A fixed_length known while tracing fixes the new last dim, as in TF's shape function.
    length = shape_rules.known_value(fixed_length)
    if length is None:
        return data.shape.concatenate([None]), out_type
    length, width = int(length), _raw_dtype(out_type, little_endian).itemsize
    if not context.executing_eagerly():  # (eagerly the kernel says what is wrong)
        shapes = [data.shape, TensorShape([])]
        if length < 0:
            raise shape_rules.shape_error(
                "DecodePaddedRaw", f"Dimension size, given by scalar input 1, must be "
                f"non-negative but is {length}", shapes, computed=[(1, length)])
        if length % width:
            raise shape_rules.shape_error(
                "DecodePaddedRaw", f"Dimension size must be evenly divisible by {width} but "
                f"is {length}", shapes, computed=[(1, length)])
    return data.shape.concatenate([max(length, 0) // width]), out_type


_DECODE_RAW = register("DecodeRaw", _decode_raw, _decode_raw_rule, dtypes=(_d.string,),
                       not_differentiable=_NO_GRAD)
tf_nodes[_DECODE_RAW] = NodeForm(types={})
tf_args[_DECODE_RAW] = ("bytes",)
tf_defaults[_DECODE_RAW] = {"little_endian": True}
_DECODE_PADDED_RAW = register("DecodePaddedRaw", _decode_padded_raw, _decode_padded_raw_rule,
                              dtypes=(_d.string,), not_differentiable=_NO_GRAD)
tf_nodes[_DECODE_PADDED_RAW] = NodeForm(types={})
tf_args[_DECODE_PADDED_RAW] = ("input_bytes", "fixed_length")
tf_defaults[_DECODE_PADDED_RAW] = {"little_endian": True}


@export("io.decode_raw")
def decode_raw(input_bytes, out_type, little_endian=True, fixed_length=None, name=None):
    """The bytes of each string read as numbers of `out_type`: a new last dim.

    Strings must share one length, unless `fixed_length` is given: then each is cut or
    zero-padded to that many bytes.
    """
    out_type = _d.as_dtype(out_type)
    op_name, allowed = (("DecodeRaw", _RAW_TYPES) if fixed_length is None else
                        ("DecodePaddedRaw", _PADDED_RAW_TYPES))
    if out_type not in allowed:
        raise attr_dtype_error(op_name, "out_type", out_type, allowed, "out_type")
    data = convert_input(input_bytes, _d.string)
    attrs = {"out_type": out_type, "little_endian": bool(little_endian)}
    try:
        if fixed_length is None:
            return dispatch(_DECODE_RAW, (data,), attrs, name)
        return dispatch(_DECODE_PADDED_RAW, (data, convert_to_tensor(fixed_length, _d.int32)),
                        attrs, name)
    except errors.OpError as e:
        raise errors.listed(e, input_bytes) from None


# -- EncodeBase64, DecodeBase64, DecodeCompressed -----------------------------------------------

_BASE64 = re.compile(rb"[A-Za-z0-9_-]*")


def _encode_base64(xp, data, pad):
    out = np.empty(data.shape, object)
    for i, s in np.ndenumerate(data):
        code = base64.urlsafe_b64encode(s)
        out[i] = code if pad else code.rstrip(b"=")
    return out


def _decode_base64(xp, data):
    out = np.empty(data.shape, object)
    for i, s in np.ndenumerate(data):
        if len(s) % 4 == 0 and s.endswith(b"="):  # padding: only a whole last group has it
            s = s[:-2] if s.endswith(b"==") else s[:-1]
        whole = len(s) // 4 * 4  # (checked as TF decodes: whole groups, then the rest)
        if _BASE64.fullmatch(s, 0, whole) is None:
            raise _invalid("Invalid character found in base64.")
        if len(s) % 4 == 1:
            raise _invalid("Base64 string length cannot be 1 modulo 4.")
        if _BASE64.fullmatch(s, whole) is None:
            raise _invalid("Invalid character found in base64.")
        out[i] = base64.urlsafe_b64decode(s + b"=" * (-len(s) % 4))
    return out


def _inflate(data, wbits):
    """`data` inflated; a stream cut short gives what it holds, as TF's. In gzip, bytes after
    a member's end start the next member (gzip files may be concatenated); in zlib they are
    left unread."""
    inflate = zlib.decompressobj(wbits)
    pieces = [inflate.decompress(data)]
    while wbits > zlib.MAX_WBITS and inflate.eof and inflate.unused_data:
        rest = inflate.unused_data
        inflate = zlib.decompressobj(wbits)
        pieces.append(inflate.decompress(rest))
    return b"".join(pieces)


def _decode_compressed(xp, data, compression_type):
    wbits = {"ZLIB": zlib.MAX_WBITS, "GZIP": 16 + zlib.MAX_WBITS}.get(compression_type)
    out = np.empty(data.shape, object)
    for i, s in np.ndenumerate(data):
        if wbits is None:
            out[i] = s
            continue
        try:
            out[i] = _inflate(s, wbits)
        except zlib.error as e:
            raise inflate_error(e) from None
    return out


def inflate_error(e):
    """TF's DataLossError for zlib's ``"Error -3 while decompressing data: <why>"``."""
    code, _, why = str(e).partition(" while decompressing data: ")
    return errors.DataLossError(
        None, None, f"inflate() failed with error {code.replace('Error ', '')}: {why}")


def _strings_like(x, **_):
    return x.shape, _d.string


_ENCODE_BASE64 = register("EncodeBase64", _encode_base64, _strings_like, dtypes=(_d.string,),
                          not_differentiable=_NO_GRAD)
tf_defaults[_ENCODE_BASE64] = {"pad": False}
_DECODE_BASE64 = register("DecodeBase64", _decode_base64, _strings_like, dtypes=(_d.string,),
                          not_differentiable=_NO_GRAD)
_DECODE_COMPRESSED = register("DecodeCompressed", _decode_compressed, _strings_like,
                              dtypes=(_d.string,), not_differentiable=_NO_GRAD)
tf_args[_DECODE_COMPRESSED] = ("bytes",)
tf_defaults[_DECODE_COMPRESSED] = {"compression_type": ""}
for _op in (_ENCODE_BASE64, _DECODE_BASE64, _DECODE_COMPRESSED):
    tf_nodes[_op] = NodeForm(types={})


@export("io.encode_base64", "compat.v1.io.encode_base64", "compat.v1.encode_base64")
def encode_base64(input, pad=False, name=None):  # noqa: A002 (TF's name)
    """Each string in web-safe base64 (``-`` and ``_``), ``=`` padding only if `pad`.

    >>> tf.io.encode_base64([b"\\xff\\xfe\\xfd", b"a"]).numpy().tolist()
    [b'__79', b'YQ']
    """
    return dispatch(_ENCODE_BASE64, (convert_input(input, _d.string),),
                    {"pad": bool(pad)}, name)


@export("io.decode_base64", "compat.v1.io.decode_base64", "compat.v1.decode_base64")
def decode_base64(input, name=None):  # noqa: A002 (TF's name)
    """The bytes each web-safe base64 string (padded or not) stands for."""
    try:
        return dispatch(_DECODE_BASE64, (convert_input(input, _d.string),), {}, name)
    except errors.OpError as e:
        raise errors.listed(e, input) from None


@export("io.decode_compressed", "compat.v1.io.decode_compressed",
        "compat.v1.decode_compressed")
def decode_compressed(bytes, compression_type="", name=None):  # noqa: A002 (TF's name)
    """Each string decompressed: `compression_type` "ZLIB", "GZIP" or "" (as it is)."""
    if compression_type not in ("", "ZLIB", "GZIP"):
        raise errors.listed(errors.eager_error(
            errors.InvalidArgumentError, "DecodeCompressed",
            "Only ZLIB, ZSTD, GZIP or NONE are supported compressions", name or ""), bytes)
    try:
        return dispatch(_DECODE_COMPRESSED, (convert_input(bytes, _d.string),),
                        {"compression_type": compression_type}, name)
    except errors.OpError as e:
        raise errors.listed(e, bytes) from None


# -- DecodeCSV ----------------------------------------------------------------------------------

_CSV_TYPES = (_d.float32, _d.float64, _d.int32, _d.int64, _d.string)
_QUOTE_END = "Quoted field has to end with quote followed by delim or end"


def _split_record(record, delim, quoted):
    """The fields of one CSV line (TF's rules: ``""`` inside quotes is a quote)."""
    fields, i, n = [], 0, len(record)
    if n == 0:
        return fields
    while True:
        if quoted and i < n and record[i:i + 1] == b'"':
            parts, j = [], i + 1
            while True:
                k = record.find(b'"', j)
                if k < 0:
                    raise _invalid(_QUOTE_END)
                parts.append(record[j:k])
                if record[k + 1:k + 2] == b'"':
                    parts.append(b'"')
                    j = k + 2
                    continue
                j = k + 1
                break
            fields.append(b"".join(parts))
            if j == n:
                return fields
            if record[j:j + 1] != delim:
                # A closing quote followed by more text reads as a lone quote inside it.
                raise _invalid("Quote inside a string has to be escaped by another quote")
            i = j + 1
            if i == n:
                fields.append(b"")
                return fields
            continue
        j = record.find(delim, i)
        j = n if j < 0 else j
        field = record[i:j]
        if quoted and (b'"' in field or b"\n" in field or b"\r" in field):
            raise _invalid("Unquoted fields cannot have quotes/CRLFs inside")
        fields.append(field)
        if j == n:
            return fields
        i = j + 1


_INT_RANGE = {_d.int32: (-2 ** 31, 2 ** 31 - 1), _d.int64: (-2 ** 63, 2 ** 63 - 1)}


def parse_number(text, dtype):
    """Bytes `text` as a number of `dtype` (C's reading of a CSV field: spaces around,
    hexadecimal floats, no digit separators), or None where it is not one."""
    text = text.strip(b" \t\n\r\f\v")
    if not text:
        return None
    if b"_" in text:  # (Python reads digit separators, C does not)
        return None if dtype in _INT_RANGE else string_ops.nan_with_payload(text)
    try:
        if dtype in _INT_RANGE:
            value = int(text)
            low, high = _INT_RANGE[dtype]
            return value if low <= value <= high else None
        if b"0x" in text.lower():  # C's strtod reads hexadecimal floats
            return float.fromhex(text.decode("ascii"))
        return float(text)
    except (ValueError, UnicodeDecodeError):
        return None if dtype in _INT_RANGE else string_ops.nan_with_payload(text)


def _decode_csv(xp, records, *defaults, OUT_TYPE, field_delim, use_quote_delim, na_value,
                select_cols):
    delim = field_delim.encode() if isinstance(field_delim, str) else field_delim
    na = na_value.encode() if isinstance(na_value, str) else na_value
    flat = records.reshape(-1)
    ncols = len(defaults)
    for k, d in enumerate(defaults):
        if d.ndim > 1:
            raise _invalid("Each record default should be at most rank 1")
        if d.size > 1:
            raise _invalid(f"There should only be 1 default per field but field {k} has "
                           f"{d.size}")
    outs = [np.empty(flat.size, object if t == _d.string else t.as_numpy_dtype)
            for t in OUT_TYPE]
    wanted = {c: k for k, c in enumerate(select_cols)} if select_cols else None
    for r, record in enumerate(flat):
        fields = _split_record(record, delim, use_quote_delim)
        if wanted is None:
            if len(fields) != ncols:
                raise _invalid(f"Expect {ncols} fields but have {len(fields)} in record {r}")
            picked = enumerate(fields)
        else:
            if len(fields) <= select_cols[-1]:
                found = sum(c < len(fields) for c in select_cols)
                raise _invalid(f"Expect {ncols} fields but have {found} in record {r}")
            picked = ((wanted[c], f) for c, f in enumerate(fields) if c in wanted)
        for k, field in picked:
            dtype = OUT_TYPE[k]
            if not field or field == na:
                if defaults[k].size == 0:
                    raise _invalid(f"Field {k} is required but missing in record {r}!")
                outs[k][r] = defaults[k].reshape(-1)[0]
            elif dtype == _d.string:
                outs[k][r] = field
            else:
                value = parse_number(field, dtype)
                if value is None:
                    kind = {_d.float32: "float", _d.float64: "double"}.get(dtype, dtype.name)
                    raise _invalid(f"Field {k} in record {r} is not a valid {kind}: "
                                   f"{field.decode('utf-8', 'backslashreplace')}")
                outs[k][r] = value
    return tuple(o.reshape(records.shape) for o in outs)


def _decode_csv_rule(records, *defaults, OUT_TYPE, **_):
    return [(records.shape, t) for t in OUT_TYPE]


_DECODE_CSV = register("DecodeCSV", _decode_csv, _decode_csv_rule, multi=True, tied=(),
                       not_differentiable=_NO_GRAD)
tf_nodes[_DECODE_CSV] = NodeForm(types={})
tf_args[_DECODE_CSV] = ("records", "*record_defaults")
tf_defaults[_DECODE_CSV] = {"field_delim": ",", "use_quote_delim": True, "na_value": "",
                            "select_cols": (), "OUT_TYPE": input_dtypes(1)}

batching_rules.assign(PER_ELEMENT, _READ_FILE, _WRITE_FILE, _MATCHING_FILES, _SERIALIZE_TENSOR,
                      _PARSE_TENSOR, _DECODE_RAW, _DECODE_PADDED_RAW, _DECODE_CSV, _ENCODE_BASE64,
                      _DECODE_BASE64, _DECODE_COMPRESSED)


@export("io.decode_csv")
def decode_csv(records, record_defaults, field_delim=",", use_quote_delim=True, na_value="",
               select_cols=None, name=None):
    """Splits each CSV line of `records` into columns, one tensor per column.

    `record_defaults` gives each column's dtype (float32, float64, int32, int64 or
    string) and its value where a field is empty (or equals `na_value`); an empty
    default makes the column required. `select_cols` picks columns (ascending).
    """
    defaults = []
    for d in record_defaults:
        t = convert_to_tensor(d)
        if t.dtype not in _CSV_TYPES:
            raise attr_dtype_error("DecodeCSV", "OUT_TYPE", t.dtype, _CSV_TYPES,
                                   "record_defaults")
        defaults.append(t)
    if select_cols is not None:
        select_cols = [int(c) for c in select_cols]
        if any(b <= a for a, b in zip(select_cols, select_cols[1:])):
            raise ValueError("select_cols is not strictly increasing.")
        if select_cols and select_cols[0] < 0:
            raise ValueError("select_cols contains negative values.")
        if len(select_cols) != len(defaults):
            raise ValueError("Length of select_cols and record_defaults do not match.")
    delim = field_delim.encode() if isinstance(field_delim, str) else bytes(field_delim)
    given = records
    try:
        if not defaults:
            raise list_below_minimum("DecodeCSV", "OUT_TYPE", 0, 1, name)
        attrs = {"OUT_TYPE": tuple(t.dtype for t in defaults)}
        if len(delim) != 1:  # (TF's kernel refuses it as it is made)
            raise errors.eager_error(errors.InvalidArgumentError, "DecodeCSV",
                                     "field_delim should be only 1 char", name or "",
                                     (("OUT_TYPE", len(defaults)),))
        attrs.update({"field_delim": delim.decode("latin-1"),
                      "use_quote_delim": bool(use_quote_delim), "na_value": str(na_value),
                      "select_cols": tuple(select_cols or ())})
        records = convert_to_tensor(records, _d.string)
        return list(dispatch(_DECODE_CSV, [records] + defaults, attrs, name))
    except errors.OpError as e:
        raise errors.listed(e, given, *record_defaults) from None
