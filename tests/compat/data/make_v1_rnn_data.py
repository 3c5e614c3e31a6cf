"""Records TF's results of the programs of `tests/compat/v1_rnn_programs.py` into
`v1_rnn.json`. Run with TensorFlow 2.x and tf_keras: ``TF_USE_LEGACY_KERAS=1 python
make_v1_rnn_data.py``."""
import json
import os
import sys

import tensorflow.compat.v1 as tf

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
from v1_rnn_programs import raw, recurrent, state_saving, wrapped  # noqa: E402

tf.disable_eager_execution()
results = recurrent(tf)
results["wrapped"] = wrapped(tf)
results["raw"] = raw(tf)
results["state_saving"] = state_saving(tf)
with open(os.path.join(HERE, "v1_rnn.json"), "w") as f:
    json.dump(results, f, indent=1, sort_keys=True)
