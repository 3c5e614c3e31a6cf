"""Records TF's results of the programs of `tests/compat/v1_nn_programs.py` into
`v1_nn.json`. Run with TensorFlow 2.x: ``python make_v1_nn_data.py``."""
import json
import os
import sys

import tensorflow.compat.v1 as tf

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
from v1_nn_programs import eager_results, graph_results  # noqa: E402

results = {"eager": eager_results(tf), "graph": graph_results(tf)}
with open(os.path.join(HERE, "v1_nn.json"), "w") as f:
    json.dump(results, f, indent=1, sort_keys=True)
