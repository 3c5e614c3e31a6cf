"""Records TF's results of the programs of `tests/compat/v1_monitored_programs.py` into
`v1_monitored.json`. Run with TensorFlow 2.x: ``python make_v1_monitored_data.py``."""
import json
import os
import sys
import tempfile

import tensorflow.compat.v1 as tf

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
from v1_monitored_programs import PROGRAMS  # noqa: E402

results = {name: program(tf, tempfile.mkdtemp()) for name, program in PROGRAMS.items()}
with open(os.path.join(HERE, "v1_monitored.json"), "w") as f:
    json.dump(results, f, indent=1, sort_keys=True)
