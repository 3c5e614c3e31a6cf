"""ResNet-50 throughput in images per second, eagerflow beside TensorFlow.

    python bench/resnet50.py [--image-size 224] [--batch-size 8] [--reps 3]

Both libraries build ``keras.applications.ResNet50(weights=None)`` and time,
on the same synthetic batch, the steps of ``examples/resnet50.py``:

* ``train``: a training step under ``function`` (tape, softmax cross-entropy,
  gradients, SGD with momentum);
* ``inference``: the model called with ``training=False`` under ``function``.

Each figure is the median of `--reps` timed steps after a warm-up one.
TensorFlow (tf_keras) runs in the interpreter named by EF_BENCH_TF_PYTHON, or
in this one when it imports; without it only eagerflow's figures are shown.
"""
import argparse
import json
import os
import subprocess
import sys

import numpy as np

import harness


def measure(tf, image_size, batch_size, reps):
    """Images per second of each step (``{"train": ..., "inference": ...}``) with library
    `tf` (eagerflow or TensorFlow: the same program runs on both)."""
    tf.keras.utils.set_random_seed(0)
    model = tf.keras.applications.ResNet50(weights=None, input_shape=(image_size, image_size, 3),
                                           classes=1000, classifier_activation=None)
    rng = np.random.default_rng(0)
    images = tf.constant(rng.uniform(-1, 1, (batch_size, image_size, image_size, 3))
                         .astype("float32"))
    labels = tf.constant(rng.integers(0, 1000, batch_size))
    optimizer = tf.keras.optimizers.SGD(0.001, momentum=0.9)
    loss_fn = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True)

    @tf.function
    def train():
        with tf.GradientTape() as tape:
            loss = loss_fn(labels, model(images, training=True))
        grads = tape.gradient(loss, model.trainable_variables)
        optimizer.apply_gradients(zip(grads, model.trainable_variables))
        return loss

    @tf.function
    def inference():
        return model(images, training=False)

    return {name: batch_size / harness.timeit(lambda: step().numpy(), reps)
            for name, step in (("train", train), ("inference", inference))}


def tensorflow_results(args):
    """TensorFlow's figures: from the interpreter of EF_BENCH_TF_PYTHON, or from this one;
    None where neither has TensorFlow."""
    python = os.environ.get("EF_BENCH_TF_PYTHON")
    flags = ["--image-size", str(args.image_size), "--batch-size", str(args.batch_size),
             "--reps", str(args.reps)]
    if python:
        proc = subprocess.run([python, __file__, "--tf-only", *flags], capture_output=True,
                              text=True, env=dict(os.environ, TF_CPP_MIN_LOG_LEVEL="3",
                                                  TF_USE_LEGACY_KERAS="1"))
        lines = [line for line in proc.stdout.splitlines() if line.startswith("{")]
        return json.loads(lines[-1]) if lines else {"error": proc.stderr[-300:]}
    os.environ.setdefault("TF_USE_LEGACY_KERAS", "1")
    try:
        import tensorflow
    except ImportError:
        return None
    return measure(tensorflow, args.image_size, args.batch_size, args.reps)


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--image-size", type=int, default=224)
    p.add_argument("--batch-size", type=int, default=8)
    p.add_argument("--reps", type=int, default=3)
    p.add_argument("--tf-only", action="store_true", help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    if args.tf_only:
        os.environ.setdefault("TF_USE_LEGACY_KERAS", "1")
        import tensorflow
        print(json.dumps(measure(tensorflow, args.image_size, args.batch_size, args.reps)))
        return 0
    import eagerflow
    results = {"eagerflow": measure(eagerflow, args.image_size, args.batch_size, args.reps)}
    tf_results = tensorflow_results(args)
    if tf_results is not None:
        results["tensorflow"] = tf_results
    print(f"ResNet-50, {args.image_size}x{args.image_size} images, batch {args.batch_size}, "
          f"median of {args.reps} steps ({harness._cores()} cores)")
    for step in ("train", "inference"):
        print(f"{step}:")
        ours = results["eagerflow"][step]
        for name, res in results.items():
            if step not in res:
                print(f"  {name:11s} {res.get('error', 'no result')}")
                continue
            vs = f"  ({res[step] / ours:5.2f}x eagerflow)" if name != "eagerflow" else ""
            print(f"  {name:11s} {res[step]:8.2f} images/s{vs}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
