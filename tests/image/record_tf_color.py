"""Records TensorFlow's outputs of the cases in color_cases.py (run once, output checked in).

    /root/tfvenv/bin/python -m tests.image.record_tf_color

Writes tests/image/data/color_tf.npz: per case, ``<name>|<i>`` for output i (eager), and
``<name>|error`` holding the error's class name where TF raised.
"""
import os

import numpy as np

from tests.image.color_cases import CASES, INPUTS

DATA = os.path.join(os.path.dirname(__file__), "data", "color_tf.npz")


def _outputs(result):
    return list(result) if isinstance(result, (tuple, list)) else [result]


def main():
    import tensorflow as tf
    out = {}
    for case in CASES:
        if case.seeded:
            tf.random.set_seed(1)
        args = [tf.constant(INPUTS[i]) for i in case.inputs]
        try:
            result = case.fn(tf, *args)
        except Exception as e:  # noqa: BLE001 (recorded for the test to match)
            out[f"{case.name}|error"] = np.array(type(e).__name__)
            continue
        for i, t in enumerate(_outputs(result)):
            out[f"{case.name}|{i}"] = t.numpy()
    np.savez_compressed(DATA, **out)
    print(f"{len(CASES)} cases, {len(out)} arrays -> {DATA}")


if __name__ == "__main__":
    main()
