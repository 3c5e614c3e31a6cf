"""The checkpoints of TF 1 partitioned variables, both ways (not run by tests).

    TF_USE_LEGACY_KERAS=1 python tests/checkpoint/data/partitioned.py tf      # real TF
    PYTHONPATH=src python tests/checkpoint/data/partitioned.py ours           # eagerflow
    TF_USE_LEGACY_KERAS=1 python tests/checkpoint/data/partitioned.py tf_reads_ours

``tf`` writes tf/partitioned/: a `Saver` checkpoint (``model``, with its meta graph) of
the variables of programs.py's `partitioned_variables`, split as the "saved" layout, and
expected.json: what TF's readers list (`list_variables`, the dtypes, `debug_string`) and
what its `Saver` restored into each layout. ``ours`` writes ours/partitioned/model with
eagerflow; ``tf_reads_ours`` records in ours/partitioned/tf_read.json what TF lists of it
and restores from it, into each layout and through its meta graph.
"""
import json
import os
import shutil
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", ".."))

from tests.checkpoint.programs import (partitioned_listed,  # noqa: E402
                                       partitioned_restored, partitioned_variables)

DATA = os.path.dirname(os.path.abspath(__file__))


def _write(tf, directory):
    shutil.rmtree(directory, ignore_errors=True)
    with tf.Graph().as_default():
        partitioned_variables(tf, "saved")
        with tf.compat.v1.Session() as sess:
            sess.run(tf.compat.v1.global_variables_initializer())
            return tf.compat.v1.train.Saver().save(sess, os.path.join(directory, "model"))


def main(which):
    if which == "ours":
        import eagerflow as tf  # noqa: PLC0415
        _write(tf, os.path.join(DATA, "ours", "partitioned"))
        return
    import tensorflow as tf  # noqa: PLC0415
    if which == "tf":
        prefix = _write(tf, os.path.join(DATA, "tf", "partitioned"))
        out, name = partitioned_listed(tf, prefix), "expected.json"
    else:
        prefix, name = os.path.join(DATA, "ours", "partitioned", "model"), "tf_read.json"
        out = partitioned_listed(tf, prefix)
    out["restored"] = partitioned_restored(tf, prefix)
    with open(os.path.join(os.path.dirname(prefix), name), "w") as f:
        json.dump(out, f, indent=1, sort_keys=True)


if __name__ == "__main__":
    main(sys.argv[1])
