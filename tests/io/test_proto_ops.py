"""tf.io.decode_proto / encode_proto against TF 2.21's values: every scalar type of a proto2
message (singular and repeated), defaults of missing fields, sizes, the dtypes each field
type takes, descriptor sources, and TF's errors."""
import numpy as np
import pytest
from google.protobuf import descriptor_pb2, descriptor_pool, message_factory

import eagerflow as tf

_F = descriptor_pb2.FieldDescriptorProto
TYPES = ["double", "float", "int64", "uint64", "int32", "fixed64", "fixed32", "bool", "string",
         "bytes", "uint32", "sfixed32", "sfixed64", "sint32", "sint64"]


def _descriptor_set():
    """probe.All: s_<type> (optional) and r_<type> (repeated) of every scalar type, enums,
    messages, fields with declared defaults and a packed repeated int32."""
    fdp = descriptor_pb2.FileDescriptorProto(name="probe/test.proto", package="probe",
                                             syntax="proto2")
    fdp.message_type.add(name="Inner").field.add(name="a", number=1, type=_F.TYPE_INT32,
                                                 label=_F.LABEL_OPTIONAL)
    color = fdp.enum_type.add(name="Color")
    for name, number in (("RED", 0), ("GREEN", 1), ("BLUE", 5)):
        color.value.add(name=name, number=number)
    m = fdp.message_type.add(name="All")
    fields = []
    for t in TYPES:
        fields += [(f"s_{t}", getattr(_F, "TYPE_" + t.upper()), _F.LABEL_OPTIONAL, {}),
                   (f"r_{t}", getattr(_F, "TYPE_" + t.upper()), _F.LABEL_REPEATED, {})]
    fields += [
        ("s_enum", _F.TYPE_ENUM, _F.LABEL_OPTIONAL, {"type_name": ".probe.Color"}),
        ("r_enum", _F.TYPE_ENUM, _F.LABEL_REPEATED, {"type_name": ".probe.Color"}),
        ("s_msg", _F.TYPE_MESSAGE, _F.LABEL_OPTIONAL, {"type_name": ".probe.Inner"}),
        ("r_msg", _F.TYPE_MESSAGE, _F.LABEL_REPEATED, {"type_name": ".probe.Inner"}),
        ("d_int", _F.TYPE_INT32, _F.LABEL_OPTIONAL, {"default_value": "42"}),
        ("d_str", _F.TYPE_STRING, _F.LABEL_OPTIONAL, {"default_value": "hi"}),
        ("d_float", _F.TYPE_FLOAT, _F.LABEL_OPTIONAL, {"default_value": "1.5"}),
        ("d_enum", _F.TYPE_ENUM, _F.LABEL_OPTIONAL,
         {"type_name": ".probe.Color", "default_value": "BLUE"}),
        ("d_bool", _F.TYPE_BOOL, _F.LABEL_OPTIONAL, {"default_value": "true"}),
        ("p_int32", _F.TYPE_INT32, _F.LABEL_REPEATED,
         {"options": descriptor_pb2.FieldOptions(packed=True)}),
    ]
    for number, (name, type_, label, extra) in enumerate(fields, start=1):
        m.field.add(name=name, number=number, type=type_, label=label, **extra)
    return descriptor_pb2.FileDescriptorSet(file=[fdp]).SerializeToString()


DESCRIPTORS = _descriptor_set()
_pool = descriptor_pool.DescriptorPool()
for _file in descriptor_pb2.FileDescriptorSet.FromString(DESCRIPTORS).file:
    _pool.Add(_file)
All = message_factory.GetMessageClass(_pool.FindMessageTypeByName("probe.All"))
FIELDS = [f.name for f in All.DESCRIPTOR.fields]


@pytest.fixture(scope="module")
def source(tmp_path_factory):
    path = tmp_path_factory.mktemp("proto") / "test.desc"
    path.write_bytes(DESCRIPTORS)
    return str(path)


VALUES = {"double": [1.5, -2.25], "float": [0.1, 3.0], "int64": [-5, 2 ** 40],
          "uint64": [2 ** 63 + 5, 7], "int32": [-7, 2 ** 31 - 1], "fixed64": [2 ** 63 + 9, 1],
          "fixed32": [2 ** 32 - 1, 3], "bool": [True, False], "string": ["héllo", ""],
          "bytes": [b"\x00\xff", b"b"], "uint32": [2 ** 32 - 2, 0], "sfixed32": [-3, 4],
          "sfixed64": [-2 ** 62, 5], "sint32": [-9, 9], "sint64": [-2 ** 50, 1]}


def _batch():
    """A [2, 1] batch: every field set in the first message; r_int32 and d_int in the
    second."""
    first = All()
    for t in TYPES:
        setattr(first, f"s_{t}", VALUES[t][0])
        getattr(first, f"r_{t}").extend(VALUES[t])
    first.s_enum = 5
    first.r_enum.extend([1, 0, 5])
    first.s_msg.a = 3
    first.r_msg.add(a=1)
    first.r_msg.add(a=-2)
    first.p_int32.extend([1, 2, 3])
    second = All(r_int32=[8], d_int=7)
    return tf.constant([[first.SerializeToString()], [second.SerializeToString()]])


# TF 2.21: the output dtypes each field's type decodes to (and encodes from)
ALLOWED = {
    "double": ["float64"], "float": ["float64", "float32"], "int64": ["int64"],
    "uint64": ["uint64"], "int32": ["int64", "int32"], "fixed64": ["uint64"],
    "fixed32": ["uint64", "uint32"], "bool": ["bool"], "string": ["string"],
    "bytes": ["string"], "uint32": ["uint64", "uint32"], "sfixed32": ["int64", "int32"],
    "sfixed64": ["int64"], "sint32": ["int64", "int32"], "sint64": ["int64"],
    "enum": ["int32"], "msg": ["string"], "d_int": ["int64", "int32"], "d_str": ["string"],
    "d_float": ["float64", "float32"], "d_enum": ["int32"], "d_bool": ["bool"],
    "p_int32": ["int64", "int32"],
}
# ... and the C++ type TF's error names for each
CPP = {"double": "double", "float": "float", "int64": "int64", "uint64": "uint64",
       "int32": "int32", "fixed64": "uint64", "fixed32": "uint32", "bool": "bool",
       "string": "string", "bytes": "string", "uint32": "uint32", "sfixed32": "int32",
       "sfixed64": "int64", "sint32": "int32", "sint64": "int64", "enum": "enum",
       "msg": "message", "d_int": "int32", "d_str": "string", "d_float": "float",
       "d_enum": "enum", "d_bool": "bool", "p_int32": "int32"}
CANDIDATES = [tf.float64, tf.float32, tf.int64, tf.uint64, tf.int32, tf.uint32, tf.bool,
              tf.string, tf.int8, tf.uint8, tf.int16, tf.bfloat16, tf.float16]


def _kind(field):
    return field if field.startswith(("d_", "p_")) else field[2:]


@pytest.mark.parametrize("field", FIELDS)
def test_output_types_each_field_takes(field, source):
    batch = _batch()
    taken = []
    for dtype in CANDIDATES:
        try:
            tf.io.decode_proto(batch, "probe.All", [field], [dtype], descriptor_source=source)
            taken.append(dtype.name)
        except tf.errors.InvalidArgumentError as e:
            last = e
    assert taken == ALLOWED[_kind(field)]
    assert f"Unexpected output type for probe.All.{field}: {CPP[_kind(field)]} to DT_HALF" \
        in str(last)


# TF 2.21's (sizes, values) of each field of `_batch()`, in its first allowed dtype
DECODED = {
    "s_double": ([1, 0], [[1.5], [0.0]]), "r_double": ([2, 0], [[1.5, -2.25], [0.0, 0.0]]),
    "s_float": ([1, 0], [[0.10000000149011612], [0.0]]),
    "r_float": ([2, 0], [[0.10000000149011612, 3.0], [0.0, 0.0]]),
    "s_int64": ([1, 0], [[-5], [0]]), "r_int64": ([2, 0], [[-5, 1099511627776], [0, 0]]),
    "s_uint64": ([1, 0], [[9223372036854775813], [0]]),
    "r_uint64": ([2, 0], [[9223372036854775813, 7], [0, 0]]),
    "s_int32": ([1, 0], [[-7], [0]]), "r_int32": ([2, 1], [[-7, 2147483647], [8, 0]]),
    "s_fixed64": ([1, 0], [[9223372036854775817], [0]]),
    "r_fixed64": ([2, 0], [[9223372036854775817, 1], [0, 0]]),
    "s_fixed32": ([1, 0], [[4294967295], [0]]),
    "r_fixed32": ([2, 0], [[4294967295, 3], [0, 0]]),
    "s_bool": ([1, 0], [[True], [False]]), "r_bool": ([2, 0], [[True, False], [False, False]]),
    "s_string": ([1, 0], [[b"h\xc3\xa9llo"], [b""]]),
    "r_string": ([2, 0], [[b"h\xc3\xa9llo", b""], [b"", b""]]),
    "s_bytes": ([1, 0], [[b"\x00\xff"], [b""]]),
    "r_bytes": ([2, 0], [[b"\x00\xff", b"b"], [b"", b""]]),
    "s_uint32": ([1, 0], [[4294967294], [0]]), "r_uint32": ([2, 0], [[4294967294, 0], [0, 0]]),
    "s_sfixed32": ([1, 0], [[-3], [0]]), "r_sfixed32": ([2, 0], [[-3, 4], [0, 0]]),
    "s_sfixed64": ([1, 0], [[-4611686018427387904], [0]]),
    "r_sfixed64": ([2, 0], [[-4611686018427387904, 5], [0, 0]]),
    "s_sint32": ([1, 0], [[-9], [0]]), "r_sint32": ([2, 0], [[-9, 9], [0, 0]]),
    "s_sint64": ([1, 0], [[-1125899906842624], [0]]),
    "r_sint64": ([2, 0], [[-1125899906842624, 1], [0, 0]]),
    "s_enum": ([1, 0], [[5], [0]]), "r_enum": ([3, 0], [[1, 0, 5], [0, 0, 0]]),
    "s_msg": ([1, 0], [[b"\x08\x03"], [b""]]),
    "r_msg": ([2, 0], [[b"\x08\x01", b"\x08\xfe\xff\xff\xff\xff\xff\xff\xff\xff\x01"],
                       [b"", b""]]),
    # missing fields: their declared defaults
    "d_int": ([0, 1], [[42], [7]]), "d_str": ([0, 0], [[b"hi"], [b"hi"]]),
    "d_float": ([0, 0], [[1.5], [1.5]]), "d_enum": ([0, 0], [[5], [5]]),
    "d_bool": ([0, 0], [[True], [True]]), "p_int32": ([3, 0], [[1, 2, 3], [0, 0, 0]]),
}


@pytest.mark.parametrize("field", FIELDS)
def test_decoded_values(field, source):
    dtype = tf.as_dtype(ALLOWED[_kind(field)][0])
    sizes, (values,) = tf.io.decode_proto(_batch(), "probe.All", [field], [dtype],
                                          descriptor_source=source)
    want_sizes, want = DECODED[field]
    assert sizes.dtype == tf.int32 and sizes.numpy().tolist() == [[[n]] for n in want_sizes]
    assert values.dtype == dtype
    assert values.shape == (2, 1, len(want[0]))
    assert values.numpy().reshape(2, -1).tolist() == want
    if len(ALLOWED[_kind(field)]) > 1:  # the narrower dtype holds the same values
        narrow = tf.as_dtype(ALLOWED[_kind(field)][1])
        _, (values,) = tf.io.decode_proto(_batch(), "probe.All", [field], [narrow],
                                          descriptor_source=source)
        assert values.dtype == narrow
        np.testing.assert_array_equal(values.numpy().reshape(2, -1),
                                      np.array(want, narrow.as_numpy_dtype))


def test_several_fields_sizes_and_shapes(source):
    m1 = All(r_int32=[1, 2], s_string="x", r_float=[1.0])
    m2 = All(r_int32=[3], s_float=2.5)
    batch = [m1.SerializeToString(), m2.SerializeToString()]
    sizes, values = tf.io.decode_proto(
        batch, "probe.All", ["r_int32", "s_string", "r_float", "s_float", "r_bool"],
        [tf.int32, tf.string, tf.float32, tf.float32, tf.bool], descriptor_source=source)
    assert sizes.numpy().tolist() == [[2, 1, 1, 0, 0], [1, 0, 0, 1, 0]]
    assert [v.numpy().tolist() for v in values] == [
        [[1, 2], [3, 0]], [[b"x"], [b""]], [[1.0], [0.0]], [[0.0], [2.5]],
        [[False], [False]]]
    sizes, (v,) = tf.io.decode_proto(batch[0], "probe.All", ["r_int32"], [tf.int32],
                                     descriptor_source=source)
    assert sizes.numpy().tolist() == [2] and v.numpy().tolist() == [1, 2]
    sizes, values = tf.io.decode_proto(batch, "probe.All", [], [], descriptor_source=source)
    assert sizes.shape == (2, 0) and values == []
    # a field named twice is filled the first time only (TF's kernel)
    sizes, values = tf.io.decode_proto(batch, "probe.All", ["r_int32", "r_int32"],
                                       [tf.int32, tf.int64], descriptor_source=source)
    assert sizes.numpy().tolist() == [[2, 0], [1, 0]]
    assert values[1].numpy().tolist() == [[0], [0]] and values[1].dtype == tf.int64
    # a singular field written twice: the last value
    sizes, (v,) = tf.io.decode_proto([b"\x48\x01\x48\x02"], "probe.All", ["s_int32"],
                                     [tf.int32], descriptor_source=source)
    assert sizes.numpy().tolist() == [[1]] and v.numpy().tolist() == [[2]]


def test_in_function_with_unknown_batch(source):
    @tf.function(input_signature=[tf.TensorSpec([None], tf.string)])
    def f(b):
        sizes, (v,) = tf.io.decode_proto(b, "probe.All", ["r_int32"], [tf.int32],
                                         descriptor_source=source)
        assert sizes.shape.as_list() == [None, 1] and v.shape.as_list() == [None, None]
        return sizes, v
    sizes, v = f(tf.constant([All(r_int32=[1, 2]).SerializeToString(),
                              All(r_int32=[3]).SerializeToString()]))
    assert sizes.numpy().tolist() == [[2], [1]] and v.numpy().tolist() == [[1, 2], [3, 0]]


def test_descriptor_sources(source):
    batch = [All(r_int32=[4]).SerializeToString()]
    for given in (source, b"bytes://" + DESCRIPTORS):
        _, (v,) = tf.io.decode_proto(batch, "probe.All", ["r_int32"], [tf.int32],
                                     descriptor_source=given)
        assert v.numpy().tolist() == [[4]]
    ex = tf.train.Example(features=tf.train.Features(
        feature={"x": tf.train.Feature(int64_list=tf.train.Int64List(value=[7]))}))
    sizes, (v,) = tf.io.decode_proto([ex.SerializeToString()], "tensorflow.Example",
                                     ["features"], [tf.string])
    assert sizes.numpy().tolist() == [[1]]
    assert v.numpy().tolist() == [[b"\n\n\n\x01x\x12\x05\x1a\x03\n\x01\x07"]]
    sizes, (v,) = tf.io.decode_proto(
        [tf.train.Int64List(value=[1, 2]).SerializeToString(), b""], "tensorflow.Int64List",
        ["value"], [tf.int64])
    assert sizes.numpy().tolist() == [[2], [0]] and v.numpy().tolist() == [[1, 2], [0, 0]]


def test_text_format(source):
    sizes, (a, b) = tf.io.decode_proto(['r_int32: 1 r_int32: 5 s_string: "q"'], "probe.All",
                                       ["r_int32", "s_string"], [tf.int32, tf.string],
                                       message_format="text", descriptor_source=source)
    assert sizes.numpy().tolist() == [[2, 1]]
    assert a.numpy().tolist() == [[1, 5]] and b.numpy().tolist() == [[b"q"]]
    with pytest.raises(tf.errors.DataLossError, match="Unable to parse text protobuf"):
        tf.io.decode_proto(["r_int32: 1 junk"], "probe.All", ["r_int32"], [tf.int32],
                           message_format="text", descriptor_source=source)


@pytest.mark.parametrize("kwargs, error, message", [
    (dict(bytes=tf.constant([], tf.string)), tf.errors.InvalidArgumentError,
     "Bufs argument must contain at least one value"),
    (dict(message_type="probe.Nope"), tf.errors.InvalidArgumentError,
     "No descriptor found for message type probe.Nope"),
    (dict(field_names=["zz"]), tf.errors.InvalidArgumentError,
     "Unknown field: zz in message type probe.All"),
    (dict(field_names=["r_int32", "s_int32"]), tf.errors.InvalidArgumentError,
     "field_names and output_types attributes must have the same length"),
    (dict(descriptor_source="/nonexistent.desc"), tf.errors.InvalidArgumentError,
     r"Source does not represent serialized file descriptor set proto. This may be due to a "
     r"missing dependency on the file containing "
     r"REGISTER_DESCRIPTOR_POOL\(\"/nonexistent.desc\", ...\);"),
    (dict(descriptor_source="bytes://garbage"), tf.errors.InvalidArgumentError,
     "Source does not represent serialized file descriptor set proto"),
    (dict(bytes=tf.constant([b"\xff\xff\xff"])), tf.errors.DataLossError,
     "Failed to consume entire buffer"),
    (dict(bytes=tf.constant([1])), tf.errors.InvalidArgumentError,
     r"cannot compute DecodeProtoV2 as input #0\(zero-based\) was expected to be a string "
     r"tensor but is a int32 tensor"),
    (dict(message_format="json"), tf.errors.InvalidArgumentError,
     "format must be one of binary or text"),
])
def test_decode_errors(kwargs, error, message, source):
    args = dict(bytes=tf.constant([All(r_int32=[1]).SerializeToString()]),
                message_type="probe.All", field_names=["r_int32"], output_types=[tf.int32],
                descriptor_source=source)
    args.update(kwargs)
    with pytest.raises(error, match=message):
        tf.io.decode_proto(**args)


# TF 2.21's serialized messages
def test_encode(source):
    out = tf.io.encode_proto(tf.constant([[2, 1], [1, 0]]),
                             [tf.constant([[1, 2], [3, 0]]), tf.constant([["a"], ["b"]])],
                             ["r_int32", "s_string"], "probe.All", descriptor_source=source)
    assert out.dtype == tf.string and out.shape == (2,)
    assert out.numpy().tolist() == [b"P\x01P\x02\x8a\x01\x01a", b"P\x03"]
    cases = [
        ([[1]], [tf.constant([[1.5]], tf.float64)], ["s_float"], b"\x1d\x00\x00\xc0?"),
        ([[1]], [tf.constant([[1]], tf.int64)], ["s_int32"], b"H\x01"),
        ([[2]], [tf.constant([[1, 2]])], ["s_int32"], b"H\x01H\x02"),
        ([[1, 1, 3]], [tf.constant([[b"\x08\x03"]]), tf.constant([[True]]),
                       tf.constant([[5, 1, 0]])], ["s_msg", "s_bool", "r_enum"],
         b"x\x01\x80\x02\x05\x80\x02\x01\x80\x02\x00\x8a\x02\x02\x08\x03"),
        ([[1] * 7], [tf.constant([[1.5]], tf.float64), tf.constant([[2 ** 40]], tf.int64),
                     tf.constant([[2 ** 63 + 1]], tf.uint64),
                     tf.constant([[2 ** 32 - 1]], tf.uint32), tf.constant([[-5]], tf.int32),
                     tf.constant([[-5]], tf.int64), tf.constant([[-7]], tf.int32)],
         ["s_double", "s_int64", "s_fixed64", "s_fixed32", "s_sfixed32", "s_sint64",
          "s_sint32"],
         b"\t\x00\x00\x00\x00\x00\x00\xf8?(\x80\x80\x80\x80\x80 Y\x01\x00\x00\x00\x00\x00\x00"
         b"\x80m\xff\xff\xff\xff\xbd\x01\xfb\xff\xff\xff\xd8\x01\r\xe8\x01\t"),
        ([[3, 2, 2]], [tf.constant([[1, 2, 3]]), tf.constant([[4, 5]]), tf.constant([[7, 8]])],
         ["p_int32", "r_int32", "s_int32"], b"H\x07H\x08P\x04P\x05\xc2\x02\x03\x01\x02\x03"),
        ([[-1]], [tf.constant([[1]])], ["s_int32"], b""),
    ]
    for sizes, values, fields, want in cases:
        got = tf.io.encode_proto(sizes, values, fields, "probe.All", descriptor_source=source)
        assert got.numpy().tolist() == [want], fields
    assert tf.io.encode_proto([[2]], [tf.constant([[1, 2]], tf.int64)], ["value"],
                              "tensorflow.Int64List").numpy().tolist() == [b"\n\x02\x01\x02"]
    empty = tf.io.encode_proto(tf.zeros([0, 1], tf.int32), [tf.zeros([0, 1], tf.int32)],
                               ["s_int32"], "probe.All", descriptor_source=source)
    assert empty.shape == (0,)
    three = tf.io.encode_proto([[[1]], [[0]]], [tf.constant([[[4]], [[9]]])], ["s_int32"],
                               "probe.All", descriptor_source=source)
    assert three.numpy().tolist() == [[b"H\x04"], [b""]]


def test_encode_decode_round_trip_in_function(source):
    @tf.function
    def round_trip(sizes, values):
        encoded = tf.io.encode_proto(sizes, [values], ["r_int32"], "probe.All",
                                     descriptor_source=source)
        assert encoded.shape == (2,)
        return tf.io.decode_proto(encoded, "probe.All", ["r_int32"], [tf.int32],
                                  descriptor_source=source)
    sizes, (values,) = round_trip(tf.constant([[1], [2]]), tf.constant([[1, 2], [3, 4]]))
    assert sizes.numpy().tolist() == [[1], [2]]
    assert values.numpy().tolist() == [[1, 0], [3, 4]]


@pytest.mark.parametrize("sizes, values, fields, message", [
    ([[3]], [[[1, 2]]], ["r_int32"], "Size to write must not be larger than value tensor; but "
                                     "saw: 3 > 2 at message 0 field 0"),
    ([[1], [1]], [[[1]]], ["s_int32"], r"sizes should be batch_size \+ \[len\(field_names\)\]."
                                       r"  Saw: \[2,1\] but expected: \[1,1\]"),
    ([[1, 1]], [[[1]]], ["s_int32"], r"Saw: \[1,2\] but expected: \[1,1\]"),
    ([[1]], [[[1]]], ["zz"], "Unknown field: zz in message type probe.All"),
    ([1], [[1]], ["s_int32"], r"Invalid shape for field s_int32.  Saw shape \[1\] but it should "
                              r"be at least a matrix."),
    ([[1]], [tf.constant([[1]], tf.int32)], ["s_int64"],
     "Incompatible type for field s_int64.  Saw dtype: int32 but field type is: int64"),
])
def test_encode_errors(sizes, values, fields, message, source):
    with pytest.raises(tf.errors.InvalidArgumentError, match=message):
        tf.io.encode_proto(sizes, values, fields, "probe.All", descriptor_source=source)


def test_field_of_another_wire_type_is_data_loss(source):
    # s_double (field 1) written length-delimited: TF 2.21 refuses it (DataLossError)
    with pytest.raises(tf.errors.DataLossError):
        tf.io.decode_proto([b"\x0a\x01a"], "probe.All", ["s_double"], [tf.float64],
                           descriptor_source=source)
    # ... unless the field is not asked for
    sizes, _ = tf.io.decode_proto([b"\x0a\x01a"], "probe.All", ["s_int32"], [tf.int32],
                                  descriptor_source=source)
    assert sizes.numpy().tolist() == [[0]]


def test_decode_result_is_tf_named_tuple(source):
    result = tf.io.decode_proto([All(s_int32=3).SerializeToString()], "probe.All", ["s_int32"],
                                [tf.int32], descriptor_source=source)
    assert type(result).__name__ == "DecodeProtoV2" and result._fields == ("sizes", "values")
    assert result.sizes.numpy().tolist() == [[1]]
    assert [v.numpy().tolist() for v in result.values] == [[[3]]]
