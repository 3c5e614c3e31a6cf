"""``tf.io.decode_proto`` / ``tf.io.encode_proto``: fields of serialized protocol buffer
messages as tensors, and back (TF's ``DecodeProtoV2`` and ``EncodeProto``).

The message type is found by its full name in ``descriptor_source``: ``"local://"`` for
the messages eagerflow defines (``tensorflow.Example``, ``tensorflow.TensorProto``, ...) and
those of the ``protobuf`` runtime's default pool (a generated ``_pb2`` module imported);
otherwise a file path holding a serialized ``FileDescriptorSet``, or ``"bytes://"``
followed by one. Each field decodes to a tensor of the batch's shape plus one dimension,
as wide as the most values a message has (at least 1), padded with the field's default;
``sizes`` counts each message's values of each field.

>>> ex = tf.train.Int64List(value=[4, 5]).SerializeToString()
>>> sizes, (values,) = tf.io.decode_proto([ex, b""], "tensorflow.Int64List", ["value"],
...                                       [tf.int64])
>>> sizes.numpy().tolist(), values.numpy().tolist()
([[2], [0]], [[4, 5], [0, 0]])
"""
import collections
import importlib
import os
import threading

import numpy as np

from eagerflow._src.backend.api_export import export
from eagerflow._src.core import dtypes as _d
from eagerflow._src.core import errors
from eagerflow._src.core.convert import convert_to_tensor
from eagerflow._src.core.dispatch import dispatch
from eagerflow._src.core.node_forms import NodeForm, tf_args, tf_defaults, tf_nodes
from eagerflow._src.core.registry import PER_ELEMENT, batching_rules, register
from eagerflow._src.core.tensor_shape import TensorShape

_NO_GRAD = "serialized messages"
_DecodeProtoResult = collections.namedtuple("DecodeProtoV2", ["sizes", "values"])

# The C++ type name of each field type (``FieldDescriptor.TYPE_*``, 1 double to 18 sint64), as
# TF's errors name them, and the dtypes a field of that type decodes to and encodes from.
_CPP_TYPE = dict(enumerate(
    ("double", "float", "int64", "uint64", "int32", "uint64", "uint32", "bool", "string",
     "message", "message", "string", "uint32", "enum", "int32", "int64", "int32", "int64"),
    start=1))
_TYPE_STRING = 9
_LABEL_REPEATED = 3
_DTYPES = {
    "double": (_d.float64,), "float": (_d.float64, _d.float32), "int64": (_d.int64,),
    "uint64": (_d.uint64,), "int32": (_d.int64, _d.int32), "uint32": (_d.uint64, _d.uint32),
    "bool": (_d.bool,), "string": (_d.string,), "message": (_d.string,), "enum": (_d.int32,),
}
_DT_NAMES = {_d.float32: "DT_FLOAT", _d.float64: "DT_DOUBLE", _d.float16: "DT_HALF"}

# -- descriptors -------------------------------------------------------------------------------

# eagerflow's own message modules, imported when "local://" first looks a message up
_LOCAL_MODULES = ("example", "framework", "tensors", "checkpoint", "saved_model")
_pools = {}
_pools_lock = threading.Lock()


def _invalid(op_name, message):
    return errors.op_error(errors.InvalidArgumentError, op_name, message)


def _protobuf():
    """The ``protobuf`` runtime's modules (imported on first use: eagerflow's import does not
    load it)."""
    from google.protobuf import (  # noqa: PLC0415 (protobuf)
        descriptor_pb2, descriptor_pool, message, message_factory, text_format)
    return descriptor_pb2, descriptor_pool, message, message_factory, text_format


def _source_pool(source, op_name):
    """The descriptor pool of `source` (None for "local://")."""
    descriptor_pb2, descriptor_pool, message, _, _ = _protobuf()
    if source in ("local://", b"local://"):
        return None
    key = source
    with _pools_lock:
        found = _pools.get(key)
    if found is not None:
        return found
    raw = source.encode("utf-8") if isinstance(source, str) else bytes(source)
    try:
        if raw.startswith(b"bytes://"):
            data = raw[len(b"bytes://"):]
        else:
            with open(os.fsdecode(raw), "rb") as f:
                data = f.read()
        files = descriptor_pb2.FileDescriptorSet.FromString(data).file
        if not files:
            raise ValueError("no files")
        pool = descriptor_pool.DescriptorPool()
        for fdp in files:
            pool.Add(fdp)
    except (OSError, ValueError, TypeError, message.DecodeError):
        text = raw.decode("utf-8", "replace")
        raise _invalid(op_name, f"Source does not represent serialized file descriptor set "
                                f"proto. This may be due to a missing dependency on the file "
                                f"containing REGISTER_DESCRIPTOR_POOL(\"{text}\", ...);") from None
    with _pools_lock:
        _pools[key] = pool
    return pool


def _message_descriptor(message_type, source, op_name):
    pool = _source_pool(source, op_name)
    pools = [pool] if pool is not None else _local_pools()
    for p in pools:
        try:
            return p.FindMessageTypeByName(message_type)
        except KeyError:
            continue
    raise _invalid(op_name, f"No descriptor found for message type {message_type}")


def _local_pools():
    for name in _LOCAL_MODULES:
        importlib.import_module(f"eagerflow._src.core.protos.{name}")
    schema = importlib.import_module("eagerflow._src.core.protos.schema")
    return [schema.POOL, _protobuf()[1].Default()]


def _fields(descriptor, field_names, op_name):
    fields = []
    for name in field_names:
        field = descriptor.fields_by_name.get(name)
        if field is None:
            raise _invalid(op_name, f"Unknown field: {name} in message type "
                                    f"{descriptor.full_name}")
        fields.append(field)
    return fields


def _dt_name(dtype):
    return _DT_NAMES.get(dtype, f"DT_{dtype.name.upper()}")


def _repeated(field):
    repeated = getattr(field, "is_repeated", None)  # (protobuf 6.31 on; `label` before)
    return repeated if repeated is not None else field.label == _LABEL_REPEATED


def _present(msg, field):
    """How many values of `field` message `msg` holds (a singular field: 0 or 1)."""
    if _repeated(field):
        return len(getattr(msg, field.name))
    if getattr(field, "has_presence", True):
        return int(msg.HasField(field.name))
    return int(getattr(msg, field.name) != field.default_value)


def _default(field):
    """The value padding `field`'s output: its declared default, or its type's zero."""
    cpp = _CPP_TYPE[field.type]
    if cpp == "enum":
        if not _repeated(field):
            return field.default_value
        return field.enum_type.values[0].number if field.enum_type.values else 0
    if cpp == "message" or _repeated(field):
        return b"" if cpp in ("string", "message") else 0
    value = field.default_value
    return value.encode("utf-8") if isinstance(value, str) else value


def _as_output(field, value):
    cpp = _CPP_TYPE[field.type]
    if cpp == "message":
        return value.SerializeToString()
    if isinstance(value, str):
        return value.encode("utf-8")
    return value


# -- DecodeProtoV2 -----------------------------------------------------------------------------

def _decode_proto(xp, bytes, *, message_type, field_names, output_types, descriptor_source,
                  message_format, sanitize):
    op = "DecodeProtoV2"
    if len(field_names) != len(output_types):
        raise _invalid(op, "field_names and output_types attributes must have the same length")
    if message_format not in ("binary", "text"):
        raise _invalid(op, "format must be one of binary or text")
    descriptor = _message_descriptor(message_type, descriptor_source, op)
    fields = _fields(descriptor, field_names, op)
    for field, dtype in zip(fields, output_types):
        cpp = _CPP_TYPE[field.type]
        if dtype not in _DTYPES[cpp]:
            raise _invalid(op, f"Unexpected output type for {field.full_name}: {cpp} to "
                               f"{_dt_name(dtype)}")
    flat = np.asarray(bytes, object).reshape(-1)
    if flat.size == 0:
        raise _invalid(op, "Bufs argument must contain at least one value")
    cls = _protobuf()[3].GetMessageClass(descriptor)
    messages = [_parse(cls, b, message_format) for b in flat]
    _check_wire_types(messages, {f.number for f in fields})
    batch = np.shape(bytes)
    sizes = np.zeros((flat.size, len(fields)), np.int32)
    outputs, seen = [], set()
    for k, (field, dtype) in enumerate(zip(fields, output_types)):
        first = field.number not in seen  # (TF fills a field named twice the first time only)
        seen.add(field.number)
        values = []
        for m, msg in enumerate(messages):
            count = _present(msg, field) if first else 0
            sizes[m, k] = count
            if count:
                got = getattr(msg, field.name)
                values.append([_as_output(field, v) for v in got] if _repeated(field)
                              else [_as_output(field, got)])
            else:
                values.append([])
        width = max([1] + [len(v) for v in values])
        np_dtype = object if dtype == _d.string else dtype.as_numpy_dtype
        out = np.empty((flat.size, width), np_dtype)
        out[...] = _default(field)
        for m, row in enumerate(values):
            if row:
                out[m, :len(row)] = row
        outputs.append(out.reshape(batch + (width,)))
    return (sizes.reshape(batch + (len(fields),)), *outputs)


def _parse(cls, data, message_format):
    _, _, message, _, text_format = _protobuf()
    msg = cls()
    data = data if isinstance(data, (bytes, bytearray)) else bytes(data)
    try:
        if message_format == "text":
            text_format.Parse(data.decode("utf-8"), msg)
        else:
            msg.ParseFromString(data)
    except (message.DecodeError, text_format.ParseError, UnicodeDecodeError, ValueError):
        what = "Unable to parse text protobuf" if message_format == "text" else \
            "CountFields: Failed to consume entire buffer"
        raise errors.op_error(errors.DataLossError, "DecodeProtoV2", what) from None
    return msg


def _check_wire_types(messages, numbers):
    """TF's DataLossError for a requested field written with another wire type (the
    ``protobuf`` runtime keeps it as an unknown field)."""
    from google.protobuf import unknown_fields  # noqa: PLC0415 (protobuf)
    for msg in messages:
        for entry in unknown_fields.UnknownFieldSet(msg):
            if entry.field_number in numbers:
                raise errors.op_error(errors.DataLossError, "DecodeProtoV2",
                                      f"Failed to parse field {entry.field_number}: wire "
                                      f"type {entry.wire_type} does not match its type")


def _decode_proto_rule(bytes, *, field_names, output_types, **_):
    shape = bytes.shape
    return [(shape.concatenate([len(field_names)]), _d.int32)] + [
        (shape.concatenate([None]), t) for t in output_types]


_DECODE_PROTO = register("DecodeProtoV2", _decode_proto, _decode_proto_rule, multi=True,
                         tied=(), not_differentiable=_NO_GRAD)
_DECODE_DEFAULTS = {"descriptor_source": "local://", "message_format": "binary",
                    "sanitize": False}
tf_nodes[_DECODE_PROTO] = NodeForm(types={}, outputs=("sizes", ("values", "output_types")),
                                   defaults=_DECODE_DEFAULTS)
tf_args[_DECODE_PROTO] = ("bytes",)
tf_defaults[_DECODE_PROTO] = _DECODE_DEFAULTS


def _string_input(value, op_name, name):
    t = convert_to_tensor(value)
    if t.dtype != _d.string:
        raise errors.InvalidArgumentError(
            None, None, f"cannot compute {op_name} as input #0(zero-based) was expected to "
                        f"be a string tensor but is a {t.dtype.name} tensor [Op:{op_name}] "
                        f"name: {name or ''}")
    return t


def _source_attr(value):
    """`descriptor_source` as TF's string attr holds it: bytes as they are (a ``bytes://``
    set), text as UTF-8 when read."""
    return bytes(value) if isinstance(value, (bytes, bytearray)) else str(value)


@export("io.decode_proto")
def decode_proto(bytes, message_type, field_names, output_types, descriptor_source="local://",
                 message_format="binary", sanitize=False, name=None):
    """The values of `field_names` of the serialized `message_type` messages `bytes`:
    ``(sizes, values)``, `values` one tensor per field (of `output_types`), each of shape
    ``bytes.shape + [max count]`` padded with the field's default, and `sizes`
    (``bytes.shape + [len(field_names)]``, int32) each message's count of each field."""
    attrs = {"message_type": str(message_type), "field_names": tuple(map(str, field_names)),
             "output_types": tuple(_d.as_dtype(t) for t in output_types),
             "descriptor_source": _source_attr(descriptor_source),
             "message_format": str(message_format), "sanitize": bool(sanitize)}
    sizes, *values = dispatch(_DECODE_PROTO, (_string_input(bytes, "DecodeProtoV2", name),),
                              attrs, name)
    return _DecodeProtoResult(sizes, values)


# -- EncodeProto -------------------------------------------------------------------------------

def _shape_text(shape):
    return "[" + ",".join(str(d) for d in shape) + "]"


def _value_dtype(array):
    array = np.asarray(array)
    return _d.string if array.dtype.kind in "OSU" else _d.as_dtype(array.dtype)


def _encode_proto(xp, sizes, *values, field_names, message_type, descriptor_source):
    op = "EncodeProto"
    Tinput_types = [_value_dtype(v) for v in values]
    descriptor = _message_descriptor(message_type, descriptor_source, op)
    fields = _fields(descriptor, field_names, op)
    if len(values) != len(fields):
        raise _invalid(op, f"Expected {len(fields)} values but got {len(values)}")
    for field, dtype in zip(fields, Tinput_types):
        cpp = _CPP_TYPE[field.type]
        if dtype not in _DTYPES[cpp]:
            raise _invalid(op, f"Incompatible type for field {field.name}.  Saw dtype: "
                               f"{dtype.name} but field type is: {cpp}")
    for field, v in zip(fields, values):
        if np.ndim(v) < 2:
            raise _invalid(op, f"Invalid shape for field {field.name}.  Saw shape "
                               f"{_shape_text(np.shape(v))} but it should be at least a "
                               f"matrix.")
    batch = tuple(np.shape(values[0])[:-1]) if values else tuple(np.shape(sizes)[:-1])
    want = batch + (len(fields),)
    if tuple(np.shape(sizes)) != want:
        raise _invalid(op, f"sizes should be batch_size + [len(field_names)].  Saw: "
                           f"{_shape_text(np.shape(sizes))} but expected: {_shape_text(want)}")
    for field, v in zip(fields, values):
        if tuple(np.shape(v)[:-1]) != batch:
            raise _invalid(op, f"Shape mismatch for field {field.name}.  Saw shape "
                               f"{_shape_text(np.shape(v))} but the batch shape is "
                               f"{_shape_text(batch)}.")
    cls = _protobuf()[3].GetMessageClass(descriptor)
    n = int(np.prod(batch, dtype=np.int64))
    flat_sizes = np.asarray(sizes).reshape(n, len(fields))
    flat_values = [np.asarray(v).reshape(n, np.shape(v)[-1]) for v in values]
    order = sorted(range(len(fields)), key=lambda k: fields[k].number)
    out = np.empty(n, object)
    for m in range(n):
        # Each field written on its own, in field-number order (protobuf's, so the parts
        # join into the message), and a singular field given several values writes each,
        # as TF does (a reader keeps the last).
        parts = []
        for k in order:
            field, count, row = fields[k], int(flat_sizes[m, k]), flat_values[k][m]
            if count > len(row):
                raise _invalid(op, f"Size to write must not be larger than value tensor; but "
                                   f"saw: {count} > {len(row)} at message {m} field {k}")
            groups = [row[:max(count, 0)]] if _repeated(field) else \
                [[value] for value in row[:max(count, 0)]]
            for group in groups:
                msg = cls()
                for value in group:
                    _put(msg, field, value, op)
                parts.append(msg.SerializeToString())
        out[m] = b"".join(parts)
    return out.reshape(batch)


def _put(msg, field, value, op):
    """Sets (a repeated field: appends) `value` to `field` of `msg`."""
    cpp = _CPP_TYPE[field.type]
    message = _protobuf()[2]
    try:
        if cpp == "message":
            target = getattr(msg, field.name).add() if _repeated(field) else \
                getattr(msg, field.name)
            target.MergeFromString(bytes(value))
            return
        if cpp == "string":
            value = bytes(value)
            value = value.decode("utf-8") if field.type == _TYPE_STRING else value
        elif cpp in ("double", "float"):
            value = float(value)
        elif cpp == "bool":
            value = bool(value)
        else:
            value = int(value)
        if _repeated(field):
            getattr(msg, field.name).append(value)
        else:
            setattr(msg, field.name, value)
    except (message.DecodeError, UnicodeDecodeError, ValueError, TypeError) as e:
        raise _invalid(op, f"Unable to write field {field.name}: {e}") from None


def _encode_proto_rule(sizes, *values, **_):
    return (sizes.shape[:-1] if sizes.shape.rank is not None else TensorShape(None)), _d.string


_ENCODE_PROTO = register("EncodeProto", _encode_proto, _encode_proto_rule, tied=(),
                         not_differentiable=_NO_GRAD)
tf_nodes[_ENCODE_PROTO] = NodeForm(types={"Tinput_types": "*1"}, outputs=("bytes",),
                                   defaults={"descriptor_source": "local://"})
tf_args[_ENCODE_PROTO] = ("sizes", "*values")
tf_defaults[_ENCODE_PROTO] = {"descriptor_source": "local://"}
batching_rules.assign(PER_ELEMENT, _DECODE_PROTO, _ENCODE_PROTO)


@export("io.encode_proto")
def encode_proto(sizes, values, field_names, message_type, descriptor_source="local://",
                 name=None):
    """Serialized `message_type` messages, one per batch element: message ``i`` holds the
    first ``sizes[i, k]`` values of ``values[k][i]`` in field `field_names[k]` (a singular
    field keeps its last). `values` are tensors of shape ``batch + [max count]``.

    >>> tf.io.encode_proto([[2]], [tf.constant([[4, 5]], tf.int64)], ["value"],
    ...                    "tensorflow.Int64List").numpy()
    array([b'\\n\\x02\\x04\\x05'], dtype=object)
    """
    tensors = [convert_to_tensor(v) for v in values]
    attrs = {"field_names": tuple(map(str, field_names)), "message_type": str(message_type),
             "descriptor_source": _source_attr(descriptor_source)}
    return dispatch(_ENCODE_PROTO, (convert_to_tensor(sizes, _d.int32), *tensors), attrs,
                    name)
