"""Records TF's results of the programs of `tests/compat/v1_variables_programs.py` into
`v1_variables.json`. Run with TensorFlow 2.x and tf_keras: ``TF_USE_LEGACY_KERAS=1 python
make_v1_variables_data.py``."""
import json
import os
import sys

import tensorflow as tf2
import tensorflow.compat.v1 as tf1

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
from v1_variables_programs import tf2_variables_in_a_graph  # noqa: E402

results = {"tf2_variables_in_a_graph": tf2_variables_in_a_graph(tf1, tf2)}
with open(os.path.join(HERE, "v1_variables.json"), "w") as f:
    json.dump(results, f, indent=1, sort_keys=True)
