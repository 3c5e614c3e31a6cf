"""Records TF's outcomes of tests/keras/layers/cell_wrapper_cases.py into cell_wrappers_tf.json,
and cell_wrappers_tf.h5: a model of a GRU cell in every wrapper, saved by tf_keras.

Run with TensorFlow 2.21 and tf_keras, from the repository root:
``TF_USE_LEGACY_KERAS=1 python tests/keras/layers/data/make_cell_wrappers_data.py``.
"""
import json
import os
import sys

os.environ["TF_USE_LEGACY_KERAS"] = "1"
sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "..", ".."))

import tensorflow as tf  # noqa: E402

from tests.keras.layers.cell_wrapper_cases import X, cases, jsonable, weights  # noqa: E402
from tests.keras.layers.tf_outcomes import outcomes  # noqa: E402

HERE = os.path.dirname(__file__)
results = outcomes(tf, cases(tf), jsonable)

tf.keras.backend.clear_session()
cell = tf.nn.RNNCellResidualWrapper(tf.nn.RNNCellDeviceWrapper(tf.nn.RNNCellDropoutWrapper(
    tf.keras.layers.GRUCell(3), state_keep_prob=1.0), "/cpu:0"))
inputs = tf.keras.Input((4, 3))
model = tf.keras.Model(inputs, tf.keras.layers.RNN(cell, return_sequences=True)(inputs))
model.layers[1].set_weights(weights("gru"))
model.save(os.path.join(HERE, "cell_wrappers_tf.h5"))
results["saved_model_outputs"] = model(X).numpy().tolist()
with open(os.path.join(HERE, "cell_wrappers_tf.json"), "w") as f:
    json.dump(results, f, indent=1, sort_keys=True, ensure_ascii=False, default=str)
