"""Records TF's results of the programs of `tests/compat/v1_loss_programs.py` into
`v1_losses.json`. Run with TensorFlow 2.x: ``python make_v1_losses_data.py``."""
import json
import os
import sys

import tensorflow.compat.v1 as tf

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
from v1_loss_programs import eager_losses, graph_losses  # noqa: E402

results = {"eager": eager_losses(tf), "graph": graph_losses(tf)}
with open(os.path.join(HERE, "v1_losses.json"), "w") as f:
    json.dump(results, f, indent=1, sort_keys=True)
