"""Records TF's results of the programs of `tests/compat/v1_keras_names_programs.py` into
`v1_keras_names.json`. Run with TensorFlow 2.x and tf_keras:
``TF_USE_LEGACY_KERAS=1 python make_v1_keras_names_data.py``."""
import json
import os
import sys

import tensorflow.compat.v1 as tf
import tf_keras as keras

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
from v1_keras_names_programs import PROGRAMS  # noqa: E402

results = {name: program(tf, keras) for name, program in PROGRAMS.items()}
with open(os.path.join(HERE, "v1_keras_names.json"), "w") as f:
    json.dump(results, f, indent=1, sort_keys=True)
