"""Records TF's results of the programs of `tests/compat/v1_summary_programs.py` into
`v1_summary.json`. Run with TensorFlow 2.x: ``python make_v1_summary_data.py``."""
import json
import os
import sys

import tensorflow.compat.v1 as tf

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
from v1_summary_programs import audio, file_writer, summaries  # noqa: E402

results = {"summaries": summaries(tf), "file_writer": file_writer(tf), "audio": audio(tf)}
with open(os.path.join(HERE, "v1_summary.json"), "w") as f:
    json.dump(results, f, indent=1, sort_keys=True)
