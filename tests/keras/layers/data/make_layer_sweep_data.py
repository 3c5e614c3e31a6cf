"""Records TF's outcomes of tests/keras/layers/layer_sweep_cases.py into layer_sweep_tf.json.

Run with TensorFlow 2.21 and tf_keras, from the repository root:
``TF_USE_LEGACY_KERAS=1 python tests/keras/layers/data/make_layer_sweep_data.py``.
"""
import os
import sys

os.environ["TF_USE_LEGACY_KERAS"] = "1"
sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "..", ".."))

import tensorflow as tf  # noqa: E402

from tests.keras.layers import layer_sweep_cases, tf_outcomes  # noqa: E402

tf_outcomes.write(tf_outcomes.outcomes(tf, layer_sweep_cases.cases(tf),
                                      layer_sweep_cases.jsonable),
                  os.path.join(os.path.dirname(__file__), "layer_sweep_tf.json"), indent=0)
