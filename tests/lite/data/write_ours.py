"""Writes eagerflow's conversions of the models of `tests/lite/models.py`, with the weights
``make_lite_data.py`` recorded, as ``ours_<name>.tflite`` (that script then records
TensorFlow's interpreter's results on them).

Run from the project root: ``PYTHONPATH=src python tests/lite/data/write_ours.py [names...]``
(default: every model).
"""
import os
import sys

import numpy as np

import eagerflow as tf

HERE = os.path.dirname(os.path.abspath(__file__))
try:
    from tests.lite import models   # (imported by the tests)
except ImportError:                 # (run as a script)
    sys.path.insert(0, os.path.dirname(HERE))
    import models  # noqa: E402


def converted(name):
    """eagerflow's ``.tflite`` bytes of model `name` with its recorded weights."""
    tf.keras.backend.clear_session()
    recurrent = name in models.RECURRENT
    model = models.build_recurrent(tf, name) if recurrent else models.build(tf, name)
    data = np.load(os.path.join(HERE, f"{name}.npz"))
    model.set_weights([data[f"w{i}"] for i in range(len(model.get_weights()))])
    if recurrent:
        return models.recurrent_converter(tf, model, name).convert()
    converter = tf.lite.TFLiteConverter.from_keras_model(model)
    models.configure(converter, name, tf)
    return converter.convert()


if __name__ == "__main__":
    for name in sys.argv[1:] or sorted(set(models.INPUTS) - {"upsample_ptq"}) + \
            sorted(models.RECURRENT_CONVERTED):
        with open(os.path.join(HERE, f"ours_{name}.tflite"), "wb") as f:
            f.write(converted(name))
