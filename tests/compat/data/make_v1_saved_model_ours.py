"""Writes eagerflow's SavedModels and GraphDef of `tests/compat/v1_saved_model_programs.py`
into `v1_saved_model/` (``ours_simple_save``, ``ours_builder``, ``ours_graph.pb``), for
make_v1_saved_model_data.py to load with TF. Run from the project root:
``PYTHONPATH=src python tests/compat/data/make_v1_saved_model_ours.py``."""
import os
import shutil
import sys

import eagerflow.compat.v1 as tf

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
from v1_saved_model_programs import builder_program, graph_program, simple_save_program  # noqa: E402,I001

OUT = os.path.join(HERE, "v1_saved_model")
for name in ("ours_simple_save", "ours_builder"):
    shutil.rmtree(os.path.join(OUT, name), ignore_errors=True)
simple_save_program(tf, os.path.join(OUT, "ours_simple_save"))
builder_program(tf, os.path.join(OUT, "ours_builder"))
with open(os.path.join(OUT, "ours_graph.pb"), "wb") as f:
    f.write(graph_program(tf).as_graph_def().SerializeToString())
