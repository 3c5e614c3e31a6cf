"""Records what TensorFlow prints for guide_examples.py (run once with a TensorFlow install;
the output is checked in):

    /root/tfvenv/bin/python -m tests.ragged.record_tf
"""
import contextlib
import io
import json
import os

from tests.ragged.guide_examples import EXAMPLES

PATH = os.path.join(os.path.dirname(__file__), "guide_tf.json")


def run_one(tf, name):
    """What example `name` printed, then "!" and the class of the exception it raised."""
    buffer = io.StringIO()
    try:
        with contextlib.redirect_stdout(buffer):
            EXAMPLES[name](tf)
        return buffer.getvalue()
    except Exception as e:  # noqa: BLE001 (recorded)
        return buffer.getvalue() + f"!{type(e).__name__}"


def run(tf):
    """{example: what it printed}, as `run_one`."""
    return {name: run_one(tf, name) for name in EXAMPLES}


if __name__ == "__main__":
    import tensorflow as tf  # noqa: PLC0415
    with open(PATH, "w") as f:
        json.dump(run(tf), f, indent=1, sort_keys=True)
