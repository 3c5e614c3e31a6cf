"""Writes `v1_saver/model-3.*`: TF's `compat.v1.train.Saver` checkpoint of the program of
`tests/compat/v1_train_programs.py` (`saver_program`), after three Adam steps.
Run with TensorFlow 2.x: ``python make_v1_saver_data.py``."""
import os
import shutil
import sys

import tensorflow.compat.v1 as tf

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
from v1_train_programs import saver_program  # noqa: E402

out = os.path.join(HERE, "v1_saver")
shutil.rmtree(out, ignore_errors=True)
os.makedirs(out)
g, init, train, saver, fetch = saver_program(tf)
with tf.Session(graph=g) as sess:
    sess.run(init)
    for _ in range(3):
        sess.run(train)
    saver.save(sess, os.path.join(out, "model"), global_step=3, write_meta_graph=False,
               write_state=False)
