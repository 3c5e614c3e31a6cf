"""TF's checkpoint messages: the tensor bundle's index entries, the object graph, the state file.

Field numbers are TensorFlow's (``tensor_bundle.proto``, ``tensor_slice.proto``,
``trackable_object_graph.proto``, ``checkpoint_state.proto``), so the files
written here read in TensorFlow and the other way round.

>>> BundleEntryProto(dtype=1, size=4).SerializeToString()
b'\\x08\\x01(\\x04'
"""
from eagerflow._src.core.protos import framework
from eagerflow._src.core.protos.schema import POOL, build

# The messages below use these, built by `framework` first.
_DEPENDENCIES = (framework.DataType, framework.TensorShapeProto, framework.VersionDef)

_FILES = {
    "tensorflow/core/framework/tensor_slice.proto": """
        package tensorflow;
        message TensorSliceProto {
          message Extent {
            int64 start = 1;
            oneof has_length { int64 length = 2; }
          }
          repeated Extent extent = 1;
        }
    """,
    "tensorflow/core/protobuf/tensor_bundle.proto": """
        package tensorflow;
        message BundleHeaderProto {
          int32 num_shards = 1;
          enum Endianness { LITTLE = 0; BIG = 1; }
          Endianness endianness = 2;
          VersionDef version = 3;
        }
        message BundleEntryProto {
          DataType dtype = 1;
          TensorShapeProto shape = 2;
          int32 shard_id = 3;
          int64 offset = 4;
          int64 size = 5;
          fixed32 crc32c = 6;
          repeated TensorSliceProto slices = 7;
        }
    """,
    # google.protobuf.BoolValue, wire-identical, in this project's own pool.
    "google/protobuf/wrappers.proto": """
        package google.protobuf;
        message BoolValue { bool value = 1; }
    """,
    "tensorflow/core/protobuf/trackable_object_graph.proto": """
        package tensorflow;
        message RegisteredSaver { string name = 1; string object_name = 2; }
        message TrackableObjectGraph {
          message TrackableObject {
            message ObjectReference { int32 node_id = 1; string local_name = 2; }
            message SerializedTensor {
              string name = 1;
              string full_name = 2;
              string checkpoint_key = 3;
            }
            message SlotVariableReference {
              int32 original_variable_node_id = 1;
              string slot_name = 2;
              int32 slot_variable_node_id = 3;
            }
            repeated ObjectReference children = 1;
            repeated SerializedTensor attributes = 2;
            repeated SlotVariableReference slot_variables = 3;
            RegisteredSaver registered_saver = 4;
            google.protobuf.BoolValue has_checkpoint_values = 5;
          }
          repeated TrackableObject nodes = 1;
        }
    """,
    "tensorflow/python/checkpoint/checkpoint_state.proto": """
        package tensorflow;
        message CheckpointState {
          string model_checkpoint_path = 1;
          repeated string all_model_checkpoint_paths = 2;
          repeated double all_model_checkpoint_timestamps = 3;
          double last_preserved_timestamp = 4;
        }
    """,
}

_classes = {}
for _name, _text in _FILES.items():
    try:
        POOL.FindFileByName(_name)  # another format's module built it already
    except KeyError:
        _classes.update(build(_name, _text))

TensorSliceProto = _classes["TensorSliceProto"]
BundleHeaderProto = _classes["BundleHeaderProto"]
BundleEntryProto = _classes["BundleEntryProto"]
TrackableObjectGraph = _classes["TrackableObjectGraph"]
CheckpointState = _classes["CheckpointState"]
