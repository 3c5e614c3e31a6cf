"""Records TensorFlow's outputs of augment_cases.py (run once with a TensorFlow install; the
output is checked in):

    /root/tfvenv/bin/python -m tests.data.record_augment

Writes augment_tf.npz: per case, its output arrays as ``<case>#<i>``.
"""
import os

import numpy as np

from tests.data import augment_cases

OUT = os.path.join(os.path.dirname(__file__), "augment_tf.npz")

if __name__ == "__main__":
    import tensorflow as tf
    out = {}
    for name, fn in augment_cases.CASES.items():
        for i, a in enumerate(fn(tf)):
            out[f"{name}#{i}"] = a
    np.savez_compressed(OUT, **out)
