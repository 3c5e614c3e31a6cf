"""Writes the reference event files of tests/summary with real TensorFlow.

Run with TensorFlow 2 and tensorboard installed, from the project root:
``python tests/summary/make_reference.py``. Each kind of summary goes to its own
subdirectory of ``data/tf_events/``; the tests write the same calls
(`reference_calls.calls`) with eagerflow and compare the parsed events (tags,
metadata, steps, tensor values, decoded images), not the bytes.
"""
import os
import shutil
import sys

import tensorflow as tf

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, "data", "tf_events")
sys.path.insert(0, HERE)

from reference_calls import calls, export_trace  # noqa: E402


def main():
    shutil.rmtree(ROOT, ignore_errors=True)
    for kind, run in calls(tf).items():
        writer = tf.summary.create_file_writer(os.path.join(ROOT, kind))
        with writer.as_default():
            print(kind, run())
        writer.close()

    # the graph of a traced function
    export_trace(tf, os.path.join(ROOT, "graph"))


if __name__ == "__main__":
    main()
