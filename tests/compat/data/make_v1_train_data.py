"""Records TF's results of the programs of `tests/compat/v1_train_programs.py` into
`v1_train.json`. Run with TensorFlow 2.x: ``python make_v1_train_data.py``."""
import json
import os
import sys

import tensorflow.compat.v1 as tf

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
from v1_train_programs import OPTIMIZERS, eager_run, graph_run, sparse_run  # noqa: E402

results = {"graph": {n: graph_run(tf, n) for n in OPTIMIZERS},
           "eager": {n: eager_run(tf, n) for n in OPTIMIZERS},
           "sparse": {n: sparse_run(tf, n) for n in OPTIMIZERS}}
with open(os.path.join(HERE, "v1_train.json"), "w") as f:
    json.dump(results, f, indent=1, sort_keys=True)
