"""Records TF's results of the programs of `tests/compat/v1_layers_programs.py` into
`v1_layers.json`. Run with TensorFlow 2.x and tf_keras: ``TF_USE_LEGACY_KERAS=1 python
make_v1_layers_data.py``."""
import json
import os
import sys

import tensorflow.compat.v1 as tf

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
from v1_layers_programs import cnn, layer_objects  # noqa: E402

tf.disable_eager_execution()
results = {"cnn": cnn(tf), "layer_objects": layer_objects(tf)}
with open(os.path.join(HERE, "v1_layers.json"), "w") as f:
    json.dump(results, f, indent=1, sort_keys=True)
