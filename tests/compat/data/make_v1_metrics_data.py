"""Records TF's results of the programs of `tests/compat/v1_metrics_programs.py` into
`v1_metrics.json`. Run with TensorFlow 2.x: ``python make_v1_metrics_data.py``."""
import json
import os
import sys

import tensorflow as tf

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
from v1_metrics_programs import (  # noqa: E402
    eager_errors, graph_errors, metric_runs, out_of_range_predictions)

results = {"eager_errors": eager_errors(tf), "graph_errors": graph_errors(tf),
           "out_of_range": out_of_range_predictions(tf)}
tf.compat.v1.disable_eager_execution()
results["runs"] = metric_runs(tf)
with open(os.path.join(HERE, "v1_metrics.json"), "w") as f:
    json.dump(results, f, indent=1, sort_keys=True)
