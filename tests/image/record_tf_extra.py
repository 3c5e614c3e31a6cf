"""Records TensorFlow's outputs of extra_cases.py (run once with a TensorFlow install; the
output is checked in):

    /root/tfvenv/bin/python -m tests.image.record_tf_extra

Writes data/extra_tf.npz: per case, its output arrays as ``<case>#<i>``.
"""
import os

import numpy as np

from tests.image import extra_cases

OUT = os.path.join(os.path.dirname(__file__), "data", "extra_tf.npz")

if __name__ == "__main__":
    import tensorflow as tf
    arrays = {}
    for name, fn in extra_cases.CASES.items():
        for i, t in enumerate(fn(tf)):
            arrays[f"{name}#{i}"] = t.numpy()
    np.savez_compressed(OUT, **arrays)
