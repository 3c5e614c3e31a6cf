"""Records TF's outcomes of tests/keras/layers/layer_sweep_cases.py into layer_sweep_tf.json.

Run with TensorFlow 2.21 and tf_keras, from the repository root:
``TF_USE_LEGACY_KERAS=1 python tests/keras/layers/data/make_layer_sweep_data.py``.
"""
import json
import os
import sys

os.environ["TF_USE_LEGACY_KERAS"] = "1"
sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "..", ".."))

import tensorflow as tf  # noqa: E402

from tests.keras.layers.layer_sweep_cases import cases, jsonable  # noqa: E402
from tests.keras.layers.tf_outcomes import outcomes  # noqa: E402

results = outcomes(tf, cases(tf), jsonable)
with open(os.path.join(os.path.dirname(__file__), "layer_sweep_tf.json"), "w") as f:
    json.dump(results, f, indent=0, sort_keys=True, ensure_ascii=False, default=str)
