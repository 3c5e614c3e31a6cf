"""TF's event file messages (``tensorflow/core/util/event.proto``,
``tensorflow/core/framework/summary.proto``, ``histogram.proto``) and the run
metadata that carries traced graphs, field for field, plus the plugin data
TensorBoard's plugins read from ``SummaryMetadata.plugin_data.content``.

>>> Event(step=3, file_version="brain.Event:2").SerializeToString()
b'\\x10\\x03\\x1a\\rbrain.Event:2'
"""
from eagerflow._src.backend.api_export import export
from eagerflow._src.core.protos import framework  # noqa: F401 (TensorProto, GraphDef first)
from eagerflow._src.core.protos.schema import build

_FILES = {
    "tensorflow/core/framework/histogram.proto": """
        package tensorflow;
        message HistogramProto {
          double min = 1;
          double max = 2;
          double num = 3;
          double sum = 4;
          double sum_squares = 5;
          repeated double bucket_limit = 6 [packed = true];
          repeated double bucket = 7 [packed = true];
        }
    """,
    "tensorflow/core/framework/summary.proto": """
        package tensorflow;
        enum DataClass {
          DATA_CLASS_UNKNOWN = 0; DATA_CLASS_SCALAR = 1; DATA_CLASS_TENSOR = 2;
          DATA_CLASS_BLOB_SEQUENCE = 3;
        }
        message SummaryDescription { string type_hint = 1; }
        message SummaryMetadata {
          message PluginData {
            string plugin_name = 1;   // "scalars", "histograms", "images", "text", "audio", ...
            bytes content = 2;        // the plugin's own message, serialized
          }
          PluginData plugin_data = 1;
          string display_name = 2;
          string summary_description = 3;
          DataClass data_class = 4;
        }
        message Summary {
          message Image {
            int32 height = 1;
            int32 width = 2;
            int32 colorspace = 3;
            bytes encoded_image_string = 4;
          }
          message Audio {
            float sample_rate = 1;
            int64 num_channels = 2;
            int64 length_frames = 3;
            bytes encoded_audio_string = 4;
            string content_type = 5;
          }
          message Value {
            string node_name = 7;
            string tag = 1;
            SummaryMetadata metadata = 9;
            oneof value {
              float simple_value = 2;
              bytes obsolete_old_style_histogram = 3;
              Image image = 4;
              HistogramProto histo = 5;
              Audio audio = 6;
              TensorProto tensor = 8;
            }
          }
          repeated Value value = 1;
        }
    """,
    "tensorflow/core/util/event.proto": """
        package tensorflow;
        message Event {
          double wall_time = 1;
          int64 step = 2;
          oneof what {
            string file_version = 3;
            bytes graph_def = 4;          // a serialized GraphDef
            Summary summary = 5;
            LogMessage log_message = 6;
            SessionLog session_log = 7;
            TaggedRunMetadata tagged_run_metadata = 8;
            bytes meta_graph_def = 9;
          }
          SourceMetadata source_metadata = 10;
        }
        message SourceMetadata { string writer = 1; }
        message LogMessage {
          enum Level { UNKNOWN = 0; DEBUGGING = 10; INFO = 20; WARN = 30; ERROR = 40; FATAL = 50; }
          Level level = 1;
          string message = 2;
        }
        message SessionLog {
          enum SessionStatus { STATUS_UNSPECIFIED = 0; START = 1; STOP = 2; CHECKPOINT = 3; }
          SessionStatus status = 1;
          string checkpoint_path = 2;
          string msg = 3;
        }
        message TaggedRunMetadata { string tag = 1; bytes run_metadata = 2; }
    """,
    # Only the graphs of RunMetadata (config.proto): step_stats = 1, cost_graph = 2 and
    # session_metadata = 5 are never written here and stay unknown bytes when read.
    "tensorflow/core/protobuf/run_metadata.proto": """
        package tensorflow;
        message RunMetadata {
          repeated GraphDef partition_graphs = 3;
          message FunctionGraphs {
            repeated GraphDef partition_graphs = 1;
            GraphDef pre_optimization_graph = 2;
            GraphDef post_optimization_graph = 3;
          }
          repeated FunctionGraphs function_graphs = 4;
        }
    """,
    # TensorBoard's plugin data (tensorboard/plugins/*/plugin_data.proto)
    "tensorboard/plugins/audio/plugin_data.proto": """
        package tensorboard;
        message AudioPluginData {
          enum Encoding { UNKNOWN = 0; WAV = 11; }
          int32 version = 1;
          Encoding encoding = 2;
          bool converted_to_tensor = 3;
        }
    """,
}

_classes = {}
for _name, _text in _FILES.items():
    _classes.update(build(_name, _text))
for _cls in ("HistogramProto", "SummaryMetadata", "Summary", "SummaryDescription", "Event",
             "SessionLog", "LogMessage", "TaggedRunMetadata", "RunMetadata"):
    _classes[_cls].__module__ = "eagerflow.compat.v1"

HistogramProto = export("compat.v1.HistogramProto")(_classes["HistogramProto"])
SummaryMetadata = export("compat.v1.SummaryMetadata")(_classes["SummaryMetadata"])
Summary = export("compat.v1.Summary")(_classes["Summary"])
SummaryDescription = _classes["SummaryDescription"]  # (TF names it under compat.v1.summary only)
Event = export("compat.v1.Event")(_classes["Event"])
SourceMetadata = _classes["SourceMetadata"]
LogMessage = export("compat.v1.LogMessage")(_classes["LogMessage"])
SessionLog = export("compat.v1.SessionLog")(_classes["SessionLog"])
TaggedRunMetadata = export("compat.v1.TaggedRunMetadata")(_classes["TaggedRunMetadata"])
RunMetadata = export("compat.v1.RunMetadata")(_classes["RunMetadata"])
DataClass = _classes["DataClass"]
AudioPluginData = _classes["AudioPluginData"]
