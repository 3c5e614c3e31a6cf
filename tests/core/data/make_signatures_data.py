"""Records the signatures of TF's functions named in tests/core/signature_cases.py into
signatures_tf.json.

Run with TensorFlow 2.21 and tf_keras (TF_USE_LEGACY_KERAS=1) from the repository root:
``python tests/core/data/make_signatures_data.py``.
"""
import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", ".."))

import tensorflow as tf  # noqa: E402

from tests.core.signature_cases import NAMES, public, signature  # noqa: E402

table = {path: signature(public(tf, path)) for path in NAMES}
with open(os.path.join(os.path.dirname(__file__), "signatures_tf.json"), "w") as f:
    f.write("{\n" + ",\n".join(f" {json.dumps(path)}: {json.dumps(table[path])}"
                               for path in sorted(table)) + "\n}\n")
