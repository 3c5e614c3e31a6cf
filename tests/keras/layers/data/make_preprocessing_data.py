"""Records TF's outcomes of tests/keras/layers/preprocessing_cases.py into preprocessing_tf.json.

Run with TensorFlow 2.21 and tf_keras, from the repository root:
``TF_USE_LEGACY_KERAS=1 python tests/keras/layers/data/make_preprocessing_data.py``.
"""
import json
import os
import sys

os.environ["TF_USE_LEGACY_KERAS"] = "1"
sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "..", ".."))

import tensorflow as tf  # noqa: E402

from tests.keras.layers.preprocessing_cases import cases, jsonable  # noqa: E402
from tests.keras.layers.tf_outcomes import outcomes  # noqa: E402

results = outcomes(tf, cases(tf), jsonable)
with open(os.path.join(os.path.dirname(__file__), "preprocessing_tf.json"), "w") as f:
    json.dump(results, f, indent=1, sort_keys=True, ensure_ascii=False, default=str)

# text_vectorization_tf.keras: a Sequential of an adapted TextVectorization and an Embedding
vectorize = tf.keras.layers.TextVectorization(max_tokens=10, output_sequence_length=4)
vectorize.adapt(["a b c", "a b", "a"])
model = tf.keras.Sequential([tf.keras.Input(shape=(1,), dtype=tf.string), vectorize,
                             tf.keras.layers.Embedding(10, 2)])
model.save(os.path.join(os.path.dirname(__file__), "text_vectorization_tf.keras"))
