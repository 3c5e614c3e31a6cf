"""TF's graph messages (``tensorflow.GraphDef`` and what it holds), field for field.

Field numbers are the wire contract with TensorFlow's files: bytes written by
either side parse on the other. Later formats (MetaGraphDef, SavedModel,
checkpoints, events) add their files with `schema.build` the same way.
"""
from eagerflow._src.core.protos.schema import build

_FILES = {
    "tensorflow/core/framework/types.proto": """
        package tensorflow;
        enum DataType {
          DT_INVALID = 0; DT_FLOAT = 1; DT_DOUBLE = 2; DT_INT32 = 3; DT_UINT8 = 4;
          DT_INT16 = 5; DT_INT8 = 6; DT_STRING = 7; DT_COMPLEX64 = 8; DT_INT64 = 9;
          DT_BOOL = 10; DT_QINT8 = 11; DT_QUINT8 = 12; DT_QINT32 = 13; DT_BFLOAT16 = 14;
          DT_QINT16 = 15; DT_QUINT16 = 16; DT_UINT16 = 17; DT_COMPLEX128 = 18; DT_HALF = 19;
          DT_RESOURCE = 20; DT_VARIANT = 21; DT_UINT32 = 22; DT_UINT64 = 23;
          DT_FLOAT8_E5M2 = 24; DT_FLOAT8_E4M3FN = 25; DT_FLOAT8_E4M3FNUZ = 26;
          DT_FLOAT8_E4M3B11FNUZ = 27; DT_FLOAT8_E5M2FNUZ = 28; DT_INT4 = 29; DT_UINT4 = 30;
          DT_INT2 = 31; DT_UINT2 = 32; DT_FLOAT4_E2M1FN = 33;
          DT_FLOAT_REF = 101; DT_DOUBLE_REF = 102; DT_INT32_REF = 103; DT_UINT8_REF = 104;
          DT_INT16_REF = 105; DT_INT8_REF = 106; DT_STRING_REF = 107; DT_COMPLEX64_REF = 108;
          DT_INT64_REF = 109; DT_BOOL_REF = 110; DT_QINT8_REF = 111; DT_QUINT8_REF = 112;
          DT_QINT32_REF = 113; DT_BFLOAT16_REF = 114; DT_QINT16_REF = 115;
          DT_QUINT16_REF = 116; DT_UINT16_REF = 117; DT_COMPLEX128_REF = 118;
          DT_HALF_REF = 119; DT_RESOURCE_REF = 120; DT_VARIANT_REF = 121;
          DT_UINT32_REF = 122; DT_UINT64_REF = 123; DT_FLOAT8_E5M2_REF = 124;
          DT_FLOAT8_E4M3FN_REF = 125; DT_FLOAT8_E4M3FNUZ_REF = 126;
          DT_FLOAT8_E4M3B11FNUZ_REF = 127; DT_FLOAT8_E5M2FNUZ_REF = 128; DT_INT4_REF = 129;
          DT_UINT4_REF = 130; DT_INT2_REF = 131; DT_UINT2_REF = 132;
          DT_FLOAT4_E2M1FN_REF = 133;
        }
        message SerializedDType { DataType datatype = 1; }
    """,
    "tensorflow/core/framework/tensor_shape.proto": """
        package tensorflow;
        message TensorShapeProto {
          message Dim { int64 size = 1; string name = 2; }
          repeated Dim dim = 2;     // -1 for an unknown size
          bool unknown_rank = 3;
        }
    """,
    "tensorflow/core/framework/versions.proto": """
        package tensorflow;
        message VersionDef {
          int32 producer = 1;
          int32 min_consumer = 2;
          repeated int32 bad_consumers = 3;
        }
    """,
    "tensorflow/core/framework/resource_handle.proto": """
        package tensorflow;
        message ResourceHandleProto {
          string device = 1;
          string container = 2;
          string name = 3;
          uint64 hash_code = 4;
          string maybe_type_name = 5;
          message DtypeAndShape { DataType dtype = 1; TensorShapeProto shape = 2; }
          repeated DtypeAndShape dtypes_and_shapes = 6;
        }
    """,
    "tensorflow/core/framework/tensor.proto": """
        package tensorflow;
        message TensorProto {
          DataType dtype = 1;
          TensorShapeProto tensor_shape = 2;
          int32 version_number = 3;
          bytes tensor_content = 4;      // the elements, little endian, row major
          repeated int32 half_val = 13;  // float16 and bfloat16 bits
          repeated float float_val = 5;
          repeated double double_val = 6;
          repeated int32 int_val = 7;    // int32, int16, int8, uint8 (and uint16)
          repeated bytes string_val = 8;
          repeated float scomplex_val = 9;
          repeated int64 int64_val = 10;
          repeated bool bool_val = 11;
          repeated double dcomplex_val = 12;
          repeated ResourceHandleProto resource_handle_val = 14;
          repeated VariantTensorDataProto variant_val = 15;
          repeated uint32 uint32_val = 16;
          repeated uint64 uint64_val = 17;
          bytes float8_val = 18;
        }
        message VariantTensorDataProto {
          string type_name = 1;
          bytes metadata = 2;
          repeated TensorProto tensors = 3;
        }
    """,
    "tensorflow/core/framework/attr_value.proto": """
        package tensorflow;
        message AttrValue {
          message ListValue {
            repeated bytes s = 2;
            repeated int64 i = 3;
            repeated float f = 4;
            repeated bool b = 5;
            repeated DataType type = 6;
            repeated TensorShapeProto shape = 7;
            repeated TensorProto tensor = 8;
            repeated NameAttrList func = 9;
          }
          oneof value {
            bytes s = 2;
            int64 i = 3;
            float f = 4;
            bool b = 5;
            DataType type = 6;
            TensorShapeProto shape = 7;
            TensorProto tensor = 8;
            ListValue list = 1;
            NameAttrList func = 10;     // a function of the library, with its attrs
            string placeholder = 9;     // in a function body: the function's attr of this name
          }
        }
        message NameAttrList {
          string name = 1;
          map<string, AttrValue> attr = 2;
        }
    """,
    "tensorflow/core/framework/full_type.proto": """
        package tensorflow;
        enum FullTypeId {
          TFT_UNSET = 0; TFT_VAR = 1; TFT_ANY = 2; TFT_PRODUCT = 3; TFT_NAMED = 4;
          TFT_FOR_EACH = 20; TFT_CALLABLE = 100; TFT_TENSOR = 1000; TFT_ARRAY = 1001;
          TFT_OPTIONAL = 1002; TFT_LITERAL = 1003; TFT_ENCODED = 1004;
          TFT_SHAPE_TENSOR = 1005; TFT_BOOL = 200; TFT_UINT8 = 201; TFT_UINT16 = 202;
          TFT_UINT32 = 203; TFT_UINT64 = 204; TFT_INT8 = 205; TFT_INT16 = 206;
          TFT_INT32 = 207; TFT_INT64 = 208; TFT_HALF = 209; TFT_FLOAT = 210;
          TFT_DOUBLE = 211; TFT_BFLOAT16 = 215; TFT_COMPLEX64 = 212; TFT_COMPLEX128 = 213;
          TFT_STRING = 214; TFT_DATASET = 10102; TFT_RAGGED = 10103; TFT_ITERATOR = 10104;
          TFT_MUTEX_LOCK = 10202; TFT_LEGACY_VARIANT = 10203;
        }
        message FullTypeDef {
          FullTypeId type_id = 1;
          repeated FullTypeDef args = 2;
          oneof attr { string s = 3; int64 i = 4; }
        }
    """,
    "tensorflow/core/framework/node_def.proto": """
        package tensorflow;
        message NodeDef {
          string name = 1;
          string op = 2;
          repeated string input = 3;   // "node", "node:1", or "^node" (a control input)
          string device = 4;
          map<string, AttrValue> attr = 5;
          message ExperimentalDebugInfo {
            repeated string original_node_names = 1;
            repeated string original_func_names = 2;
          }
          ExperimentalDebugInfo experimental_debug_info = 6;
          FullTypeDef experimental_type = 7;
        }
    """,
    "tensorflow/core/framework/op_def.proto": """
        package tensorflow;
        message OpDef {
          string name = 1;
          message ArgDef {
            string name = 1;
            string description = 2;
            DataType type = 3;
            string type_attr = 4;
            string number_attr = 5;
            string type_list_attr = 6;
            repeated ResourceHandleProto.DtypeAndShape handle_data = 7;
            bool is_ref = 16;
            FullTypeDef experimental_full_type = 17;
          }
          repeated ArgDef input_arg = 2;
          repeated ArgDef output_arg = 3;
          repeated string control_output = 20;
          message AttrDef {
            string name = 1;
            string type = 2;
            AttrValue default_value = 3;
            string description = 4;
            bool has_minimum = 5;
            int64 minimum = 6;
            AttrValue allowed_values = 7;
          }
          repeated AttrDef attr = 4;
          OpDeprecation deprecation = 8;
          string summary = 5;
          string description = 6;
          bool is_commutative = 18;
          bool is_aggregate = 16;
          bool is_stateful = 17;
          bool allows_uninitialized_input = 19;
          bool is_distributed_communication = 21;
        }
        message OpDeprecation { int32 version = 1; string explanation = 2; }
        message OpList { repeated OpDef op = 1; }
    """,
    "tensorflow/core/framework/function.proto": """
        package tensorflow;
        message FunctionDefLibrary {
          repeated FunctionDef function = 1;
          repeated GradientDef gradient = 2;
          repeated RegisteredGradient registered_gradients = 3;
        }
        message FunctionDef {
          OpDef signature = 1;
          map<string, AttrValue> attr = 5;
          message ArgAttrs { map<string, AttrValue> attr = 1; }
          map<uint32, ArgAttrs> arg_attr = 7;
          map<uint32, uint32> resource_arg_unique_id = 8;
          repeated NodeDef node_def = 3;
          map<string, string> ret = 4;          // output arg -> "node:output_arg:index"
          map<string, string> control_ret = 6;
        }
        message GradientDef { string function_name = 1; string gradient_func = 2; }
        message RegisteredGradient { string gradient_func = 1; string registered_op_type = 2; }
    """,
    "tensorflow/core/framework/graph.proto": """
        package tensorflow;
        message GraphDef {
          repeated NodeDef node = 1;
          VersionDef versions = 4;
          int32 version = 3 [deprecated = true];
          FunctionDefLibrary library = 2;
          // debug_info = 5 (GraphDebugInfo, stack traces) is not read: kept as unknown bytes
        }
    """,
    "tensorflow/core/framework/device_attributes.proto": """
        package tensorflow;
        message InterconnectLink { int32 device_id = 1; string type = 2; int32 strength = 3; }
        message LocalLinks { repeated InterconnectLink link = 1; }
        message DeviceLocality { int32 bus_id = 1; int32 numa_node = 2; LocalLinks links = 3; }
        message DeviceAttributes {
          string name = 1;
          string device_type = 2;
          int64 memory_limit = 4;
          DeviceLocality locality = 5;
          fixed64 incarnation = 6;
          string physical_device_desc = 7;
          int64 xla_global_id = 8;
        }
    """,
}

_classes = {}
for _name, _text in _FILES.items():
    _classes.update(build(_name, _text))

DataType = _classes["DataType"]
SerializedDType = _classes["SerializedDType"]
TensorShapeProto = _classes["TensorShapeProto"]
VersionDef = _classes["VersionDef"]
ResourceHandleProto = _classes["ResourceHandleProto"]
TensorProto = _classes["TensorProto"]
VariantTensorDataProto = _classes["VariantTensorDataProto"]
AttrValue = _classes["AttrValue"]
NameAttrList = _classes["NameAttrList"]
FullTypeDef = _classes["FullTypeDef"]
NodeDef = _classes["NodeDef"]
OpDef = _classes["OpDef"]
OpList = _classes["OpList"]
FunctionDefLibrary = _classes["FunctionDefLibrary"]
FunctionDef = _classes["FunctionDef"]
GradientDef = _classes["GradientDef"]
GraphDef = _classes["GraphDef"]
DeviceAttributes = _classes["DeviceAttributes"]
DeviceLocality = _classes["DeviceLocality"]
