"""The objects the reference checkpoints were saved from, built with eagerflow.

programs.py defines them once for TF (data/make_tf_checkpoints.py) and for
eagerflow (here, used by data/make_ours.py and the tests), so that a
checkpoint of one side restores into the other's objects.
"""
import os

import eagerflow as tf
from tests.checkpoint.programs import as_saved, build, keras_data, keras_weights  # noqa: F401

DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data")


_PROGRAMS = build(tf)
module_values = _PROGRAMS.module_values
Inner = _PROGRAMS.Inner
Ref = _PROGRAMS.Ref
keras_model = _PROGRAMS.keras_model
