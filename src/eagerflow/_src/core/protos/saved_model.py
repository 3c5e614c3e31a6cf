"""TF's SavedModel messages: the `SavedModel` file, its `MetaGraphDef`, `SignatureDef`s, the
`SavedObjectGraph` and the `StructuredValue`s describing functions' arguments and results.

Field numbers are TensorFlow's (``saved_model.proto``, ``meta_graph.proto``,
``saved_object_graph.proto``, ``struct.proto``, ``variable.proto``, ``saver.proto``,
``fingerprint.proto``), so ``saved_model.pb`` files read on both sides.

>>> StructuredValue(string_value="x").SerializeToString()
b'j\\x01x'
"""
from eagerflow._src.core.protos import checkpoint  # noqa: F401 (TrackableObjectGraph first)
from eagerflow._src.core.protos.schema import POOL, build

_FILES = {
    "google/protobuf/any.proto": """
        package google.protobuf;
        message Any { string type_url = 1; bytes value = 2; }
    """,
    "tensorflow/core/framework/variable.proto": """
        package tensorflow;
        enum VariableSynchronization {
          VARIABLE_SYNCHRONIZATION_AUTO = 0; VARIABLE_SYNCHRONIZATION_NONE = 1;
          VARIABLE_SYNCHRONIZATION_ON_WRITE = 2; VARIABLE_SYNCHRONIZATION_ON_READ = 3;
        }
        enum VariableAggregation {
          VARIABLE_AGGREGATION_NONE = 0; VARIABLE_AGGREGATION_SUM = 1;
          VARIABLE_AGGREGATION_MEAN = 2; VARIABLE_AGGREGATION_ONLY_FIRST_REPLICA = 3;
        }
    """,
    "tensorflow/core/protobuf/struct.proto": """
        package tensorflow;
        message StructuredValue {
          oneof kind {
            NoneValue none_value = 1;
            double float64_value = 11;
            sint64 int64_value = 12;
            string string_value = 13;
            bool bool_value = 14;
            TensorShapeProto tensor_shape_value = 31;
            DataType tensor_dtype_value = 32;
            TensorSpecProto tensor_spec_value = 33;
            TypeSpecProto type_spec_value = 34;
            BoundedTensorSpecProto bounded_tensor_spec_value = 35;
            ListValue list_value = 51;
            TupleValue tuple_value = 52;
            DictValue dict_value = 53;
            NamedTupleValue named_tuple_value = 54;
            TensorProto tensor_value = 55;
            TensorProto numpy_value = 56;
          }
        }
        message NoneValue {}
        message ListValue { repeated StructuredValue values = 1; }
        message TupleValue { repeated StructuredValue values = 1; }
        message DictValue { map<string, StructuredValue> fields = 1; }
        message PairValue { string key = 1; StructuredValue value = 2; }
        message NamedTupleValue { string name = 1; repeated PairValue values = 2; }
        message TensorSpecProto { string name = 1; TensorShapeProto shape = 2; DataType dtype = 3; }
        message BoundedTensorSpecProto {
          string name = 1; TensorShapeProto shape = 2; DataType dtype = 3;
          TensorProto minimum = 4; TensorProto maximum = 5;
        }
        message TypeSpecProto {
          enum TypeSpecClass {
            UNKNOWN = 0; SPARSE_TENSOR_SPEC = 1; INDEXED_SLICES_SPEC = 2; RAGGED_TENSOR_SPEC = 3;
            TENSOR_ARRAY_SPEC = 4; DATA_DATASET_SPEC = 5; DATA_ITERATOR_SPEC = 6;
            OPTIONAL_SPEC = 7; PER_REPLICA_SPEC = 8; VARIABLE_SPEC = 9; ROW_PARTITION_SPEC = 10;
            REGISTERED_TYPE_SPEC = 12; EXTENSION_TYPE_SPEC = 13;
          }
          TypeSpecClass type_spec_class = 1;
          StructuredValue type_state = 2;
          string type_spec_class_name = 3;
          int32 num_flat_components = 4;
        }
    """,
    "tensorflow/core/protobuf/saver.proto": """
        package tensorflow;
        message SaverDef {
          string filename_tensor_name = 1;
          string save_tensor_name = 2;
          string restore_op_name = 3;
          int32 max_to_keep = 4;
          bool sharded = 5;
          float keep_checkpoint_every_n_hours = 6;
          enum CheckpointFormatVersion { LEGACY = 0; V1 = 1; V2 = 2; }
          CheckpointFormatVersion version = 7;
        }
    """,
    "tensorflow/core/protobuf/saved_object_graph.proto": """
        package tensorflow;
        message SavedObjectGraph {
          repeated SavedObject nodes = 1;
          map<string, SavedConcreteFunction> concrete_functions = 2;
        }
        message SavedObject {
          repeated TrackableObjectGraph.TrackableObject.ObjectReference children = 1;
          repeated TrackableObjectGraph.TrackableObject.ObjectReference dependencies = 15;
          repeated TrackableObjectGraph.TrackableObject.SlotVariableReference slot_variables = 3;
          oneof kind {
            SavedUserObject user_object = 4;
            SavedAsset asset = 5;
            SavedFunction function = 6;
            SavedVariable variable = 7;
            SavedBareConcreteFunction bare_concrete_function = 8;
            SavedConstant constant = 9;
            SavedResource resource = 10;
            CapturedTensor captured_tensor = 12;
          }
          map<string, SaveableObject> saveable_objects = 11;
          string registered_name = 13;
          google.protobuf.Any serialized_user_proto = 14;
          string registered_saver = 16;
        }
        message SavedUserObject { string identifier = 1; VersionDef version = 2; string metadata = 3; }
        message SavedAsset { int32 asset_file_def_index = 1; }
        message SavedFunction { repeated string concrete_functions = 1; FunctionSpec function_spec = 2; }
        message CapturedTensor { string name = 1; string concrete_function = 2; }
        message SavedConcreteFunction {
          repeated int32 bound_inputs = 2;
          StructuredValue canonicalized_input_signature = 3;
          StructuredValue output_signature = 4;
        }
        message SavedBareConcreteFunction {
          string concrete_function_name = 1;
          repeated string argument_keywords = 2;
          int64 allowed_positional_arguments = 3;
          FunctionSpec function_spec = 4;
        }
        message SavedConstant { string operation = 1; }
        message SavedVariable {
          DataType dtype = 1;
          TensorShapeProto shape = 2;
          bool trainable = 3;
          VariableSynchronization synchronization = 4;
          VariableAggregation aggregation = 5;
          string name = 6;
          string device = 7;
          repeated SavedVariable experimental_distributed_variable_components = 8;
        }
        message FunctionSpec {
          StructuredValue fullargspec = 1;
          bool is_method = 2;
          StructuredValue input_signature = 5;
          enum JitCompile { DEFAULT = 0; ON = 1; OFF = 2; }
          JitCompile jit_compile = 6;
        }
        message SavedResource { string device = 1; }
        message SaveableObject { int32 save_function = 2; int32 restore_function = 3; }
    """,
    "tensorflow/core/protobuf/meta_graph.proto": """
        package tensorflow;
        message MetaGraphDef {
          message MetaInfoDef {
            string meta_graph_version = 1;
            OpList stripped_op_list = 2;
            google.protobuf.Any any_info = 3;
            repeated string tags = 4;
            string tensorflow_version = 5;
            string tensorflow_git_version = 6;
            bool stripped_default_attrs = 7;
            map<string, string> function_aliases = 8;
          }
          MetaInfoDef meta_info_def = 1;
          GraphDef graph_def = 2;
          SaverDef saver_def = 3;
          map<string, CollectionDef> collection_def = 4;
          map<string, SignatureDef> signature_def = 5;
          repeated AssetFileDef asset_file_def = 6;
          SavedObjectGraph object_graph_def = 7;
        }
        message CollectionDef {
          message NodeList { repeated string value = 1; }
          message BytesList { repeated bytes value = 1; }
          message Int64List { repeated int64 value = 1; }
          message FloatList { repeated float value = 1; }
          message AnyList { repeated google.protobuf.Any value = 1; }
          oneof kind {
            NodeList node_list = 1;
            BytesList bytes_list = 2;
            Int64List int64_list = 3;
            FloatList float_list = 4;
            AnyList any_list = 5;
          }
        }
        message TensorInfo {
          message CooSparse {
            string values_tensor_name = 1;
            string indices_tensor_name = 2;
            string dense_shape_tensor_name = 3;
          }
          message CompositeTensor { TypeSpecProto type_spec = 1; repeated TensorInfo components = 2; }
          oneof encoding {
            string name = 1;
            CooSparse coo_sparse = 4;
            CompositeTensor composite_tensor = 5;
          }
          DataType dtype = 2;
          TensorShapeProto tensor_shape = 3;
        }
        message SignatureDef {
          map<string, TensorInfo> inputs = 1;
          map<string, TensorInfo> outputs = 2;
          string method_name = 3;
          map<string, TensorProto> defaults = 4;
        }
        message AssetFileDef { TensorInfo tensor_info = 1; string filename = 2; }
    """,
    "tensorflow/core/protobuf/saved_model.proto": """
        package tensorflow;
        message SavedModel {
          int64 saved_model_schema_version = 1;
          repeated MetaGraphDef meta_graphs = 2;
        }
    """,
    "tensorflow/core/protobuf/fingerprint.proto": """
        package tensorflow;
        message FingerprintDef {
          uint64 saved_model_checksum = 1;
          uint64 graph_def_program_hash = 2;
          uint64 signature_def_hash = 3;
          uint64 saved_object_graph_hash = 4;
          uint64 checkpoint_hash = 5;
          string uuid = 7;
          VersionDef version = 6;
        }
    """,
    # tf_keras's keras_metadata.pb (the Keras config of each saved layer), its own package
    "tf_keras/protobuf/saved_metadata.proto": """
        package tf_keras;
        message SavedMetadata {
          message Node {
            int32 node_id = 2;
            string node_path = 3;
            string identifier = 4;
            string metadata = 5;
            tensorflow.VersionDef version = 6;
          }
          repeated Node nodes = 1;
        }
    """,
}

_classes = {}
for _name, _text in _FILES.items():
    try:
        POOL.FindFileByName(_name)
    except KeyError:
        _classes.update(build(_name, _text))

StructuredValue = _classes["StructuredValue"]
NoneValue = _classes["NoneValue"]
PairValue = _classes["PairValue"]
TensorSpecProto = _classes["TensorSpecProto"]
SaverDef = _classes["SaverDef"]
SavedObjectGraph = _classes["SavedObjectGraph"]
SavedObject = _classes["SavedObject"]
SavedConcreteFunction = _classes["SavedConcreteFunction"]
FunctionSpec = _classes["FunctionSpec"]
MetaGraphDef = _classes["MetaGraphDef"]
TensorInfo = _classes["TensorInfo"]
SignatureDef = _classes["SignatureDef"]
SavedModel = _classes["SavedModel"]
FingerprintDef = _classes["FingerprintDef"]
KerasSavedMetadata = _classes["SavedMetadata"]
