"""Records TF's results of the programs of `tests/compat/v1_partition_programs.py` into
`v1_partition.json`. Run with TensorFlow 2.x: ``python make_v1_partition_data.py``."""
import json
import os
import sys

import tensorflow as tf

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
from v1_partition_programs import partitioned_graph, partitioners  # noqa: E402

results = {"partitioners": partitioners(tf), "graph": partitioned_graph(tf)}
with open(os.path.join(HERE, "v1_partition.json"), "w") as f:
    json.dump(results, f, indent=1, sort_keys=True)
