"""Top-level names TF2 programs read before anything else."""
import eagerflow as tf


def test_version_names_the_tensorflow_api_release():
    assert tf.__version__ == tf.version.VERSION
    assert int(tf.__version__.split(".")[0]) == 2  # version checks in TF2 programs pass
