"""Records TensorFlow's TFLite files and results for `tests/lite`.

For each model of `tests/lite/models.py`: TF's converter's ``<name>.tflite`` and
``<name>.npz`` (the weights given, a sample input, TF's interpreter's outputs on
its file, by signature output name). Then, for each ``ours_<name>.tflite`` here
(eagerflow's converter's, written by ``write_ours.py``), TF's interpreter's
outputs on it into ``ours_<name>.npz``.

Run from the project root with TensorFlow 2.x and tf_keras:
``TF_USE_LEGACY_KERAS=1 python tests/lite/data/make_lite_data.py [names...]`` (default:
every model).
"""
import os
import sys

import numpy as np
import tensorflow as tf

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
import models  # noqa: E402


def run(content, x):
    runner = tf.lite.Interpreter(model_content=content).get_signature_runner("serving_default")
    name, details = next(iter(runner.get_input_details().items()))
    return runner(**{name: models.quantized_input(x, details)})


def recurrent(name):
    """TF's file of recurrent model `name` and its outputs (two invokes, then one after
    resetting the state); the same of ``ours_<name>.tflite`` when there."""
    model = models.build_recurrent(tf, name)
    w = models.weights(model)
    model.set_weights(w)
    content = models.recurrent_converter(tf, model, name).convert()
    with open(os.path.join(HERE, f"{name}.tflite"), "wb") as f:
        f.write(content)
    x = np.random.RandomState(1).uniform(-1, 1, (1,) + models.RECURRENT[name]).astype(
        np.float32)
    first, second, reset = models.run_twice(tf.lite.Interpreter(model_content=content), x)
    np.savez(os.path.join(HERE, f"{name}.npz"), x=x, first=first, second=second, reset=reset,
             **{f"w{i}": v for i, v in enumerate(w)})
    ours = os.path.join(HERE, f"ours_{name}.tflite")
    if os.path.exists(ours):
        first, second, reset = models.run_twice(tf.lite.Interpreter(model_path=ours), x)
        np.savez(os.path.join(HERE, f"ours_{name}.npz"), first=first, second=second,
                 reset=reset)


def main(names):
    for name in names:
        if name in models.RECURRENT:
            tf.keras.backend.clear_session()
            recurrent(name)
            continue
        tf.keras.backend.clear_session()
        model = models.build(tf, name)
        w = models.weights(model)
        model.set_weights(w)
        converter = tf.lite.TFLiteConverter.from_keras_model(model)
        models.configure(converter, name, tf)
        content = converter.convert()
        with open(os.path.join(HERE, f"{name}.tflite"), "wb") as f:
            f.write(content)
        x = models.sample(name)
        outputs = run(content, x)
        np.savez(os.path.join(HERE, f"{name}.npz"), x=x,
                 **{f"w{i}": v for i, v in enumerate(w)},
                 **{f"out_{k}": v for k, v in outputs.items()})
        ours = os.path.join(HERE, f"ours_{name}.tflite")
        if os.path.exists(ours):
            with open(ours, "rb") as f:
                outputs = run(f.read(), x)
            np.savez(os.path.join(HERE, f"ours_{name}.npz"),
                     **{f"out_{k}": v for k, v in outputs.items()})


if __name__ == "__main__":
    main(sys.argv[1:] or list(models.INPUTS) + list(models.RECURRENT))
