"""Records TF's results of the programs of `tests/compat/variable_creator_programs.py`
into `variable_creator.json`. Run with TensorFlow 2.x and tf_keras:
``TF_USE_LEGACY_KERAS=1 python make_variable_creator_data.py``."""
import json
import os
import sys

import tensorflow as tf

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
from variable_creator_programs import PROGRAMS  # noqa: E402

results = {name: program(tf) for name, program in PROGRAMS.items()}
with open(os.path.join(HERE, "variable_creator.json"), "w") as f:
    json.dump(results, f, indent=1, sort_keys=True)
