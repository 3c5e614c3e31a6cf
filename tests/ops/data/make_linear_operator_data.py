"""Records TF's outcomes of tests/ops/linear_operator_cases.py into linear_operator_tf.json.

Run with TensorFlow 2.21 from the repository root:
``python tests/ops/data/make_linear_operator_data.py``.
"""
import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", ".."))

import tensorflow as tf  # noqa: E402

from tests.ops.linear_operator_cases import cases  # noqa: E402

results = {}
for name, fn in cases(tf).items():
    try:
        results[name] = fn()
    except Exception as e:  # noqa: BLE001 - an error is an outcome too
        results[name] = {"error": type(e).__name__}
with open(os.path.join(os.path.dirname(__file__), "linear_operator_tf.json"), "w") as f:
    json.dump(results, f, indent=1, sort_keys=True)
