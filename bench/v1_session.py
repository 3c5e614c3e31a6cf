"""``tf.compat.v1`` `Session.run` training step of a 784-256-128-10 MLP (batch 128, SGD on
sparse softmax cross-entropy, placeholders fed each step), eagerflow beside TF.

    python bench/v1_session.py [--steps 200]

TensorFlow runs in the interpreter named by EF_BENCH_TF_PYTHON (default
/root/tfvenv/bin/python), in a subprocess running this same file with ``--tf``.
"""
import os
import subprocess
import sys
import time

import numpy as np


def step_time(tf1, steps):
    tf1.disable_eager_execution()
    rng = np.random.RandomState(0)
    xs = rng.rand(128, 784).astype(np.float32)
    ys = rng.randint(0, 10, 128).astype(np.int32)
    x = tf1.placeholder(tf1.float32, [None, 784])
    y = tf1.placeholder(tf1.int32, [None])
    h = x
    for i, (n_in, n_out) in enumerate([(784, 256), (256, 128), (128, 10)]):
        w = tf1.get_variable(f"w{i}", [n_in, n_out])
        b = tf1.get_variable(f"b{i}", [n_out], initializer=tf1.zeros_initializer())
        h = tf1.matmul(h, w) + b
        if i < 2:
            h = tf1.nn.relu(h)
    loss = tf1.reduce_mean(tf1.nn.sparse_softmax_cross_entropy_with_logits(labels=y, logits=h))
    train = tf1.train.GradientDescentOptimizer(0.1).minimize(loss)
    with tf1.Session() as sess:
        sess.run(tf1.global_variables_initializer())
        feed = {x: xs, y: ys}
        for _ in range(10):
            sess.run([train, loss], feed)
        start = time.perf_counter()
        for _ in range(steps):
            sess.run([train, loss], feed)
        return (time.perf_counter() - start) / steps


def main():
    steps = int(sys.argv[sys.argv.index("--steps") + 1]) if "--steps" in sys.argv else 200
    if "--tf" in sys.argv:
        os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
        import tensorflow.compat.v1 as tf1  # noqa: PLC0415
        print(step_time(tf1, steps))
        return
    import eagerflow.compat.v1 as tf1  # noqa: PLC0415
    ours = step_time(tf1, steps)
    python = os.environ.get("EF_BENCH_TF_PYTHON", "/root/tfvenv/bin/python")
    env = dict(os.environ, TF_CPP_MIN_LOG_LEVEL="3", PYTHONPATH="")
    out = subprocess.run([python, __file__, "--tf", "--steps", str(steps)], env=env,
                         capture_output=True, text=True, check=True).stdout
    theirs = float(out.strip().splitlines()[-1])
    print(f"mlp_session_step  eagerflow {ours * 1e3:.3f} ms  tf {theirs * 1e3:.3f} ms  "
          f"speedup {theirs / ours:.2f}x")


if __name__ == "__main__":
    main()
