"""TF's ``tf.train.Example`` messages (``tensorflow/core/example/{feature,example}.proto``).

An `Example` maps feature names to lists of bytes, floats or int64s; a
`SequenceExample` adds lists of such features (one per time step). Bytes are
TensorFlow's: messages written here parse there and the other way round.

>>> ex = Example(features=Features(feature={"x": Feature(int64_list=Int64List(value=[7]))}))
>>> ex.SerializeToString()
b'\\n\\x0c\\n\\n\\n\\x01x\\x12\\x05\\x1a\\x03\\n\\x01\\x07'
"""
from eagerflow._src.backend.api_export import export
from eagerflow._src.core.protos.schema import build

_FILES = {
    "tensorflow/core/example/feature.proto": """
        package tensorflow;
        message BytesList { repeated bytes value = 1; }
        message FloatList { repeated float value = 1 [packed = true]; }
        message Int64List { repeated int64 value = 1 [packed = true]; }
        message Feature {
          oneof kind {
            BytesList bytes_list = 1;
            FloatList float_list = 2;
            Int64List int64_list = 3;
          }
        }
        message Features { map<string, Feature> feature = 1; }
        message FeatureList { repeated Feature feature = 1; }
        message FeatureLists { map<string, FeatureList> feature_list = 1; }
    """,
    "tensorflow/core/example/example.proto": """
        package tensorflow;
        message Example { Features features = 1; }
        message SequenceExample {
          Features context = 1;
          FeatureLists feature_lists = 2;
        }
    """,
}

_classes = {}
for _name, _text in _FILES.items():
    _classes.update(build(_name, _text))
for _cls in _classes.values():  # users see (and pickle) them as `eagerflow.train.X`
    _cls.__module__ = "eagerflow.train"

BytesList = export("train.BytesList")(_classes["BytesList"])
FloatList = export("train.FloatList")(_classes["FloatList"])
Int64List = export("train.Int64List")(_classes["Int64List"])
Feature = export("train.Feature")(_classes["Feature"])
Features = export("train.Features")(_classes["Features"])
FeatureList = export("train.FeatureList")(_classes["FeatureList"])
FeatureLists = export("train.FeatureLists")(_classes["FeatureLists"])
Example = export("train.Example")(_classes["Example"])
SequenceExample = export("train.SequenceExample")(_classes["SequenceExample"])
