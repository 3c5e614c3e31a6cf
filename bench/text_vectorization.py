"""TextVectorization over 100k short strings, beside TF.

    python bench/text_vectorization.py [--reps 3]

* ``adapt``: learning the vocabulary of 100k short reviews (2-12 words of a
  5000-word Zipf-distributed vocabulary, punctuation and capitals mixed in),
  the strings given as one Dataset batched by 1024;
* ``call_int``: the adapted layer (``max_tokens=20000``,
  ``output_sequence_length=16``) on the 100k strings at once: standardize,
  split, look up, pad;
* ``call_multi_hot``: the same with ``output_mode="multi_hot"`` (a given
  vocabulary of 2000 tokens).

Times are per run of the whole 100k. TensorFlow runs in the interpreter named by
EF_BENCH_TF_PYTHON (see harness.py) with tf_keras (TF_USE_LEGACY_KERAS=1).
"""
import os
import sys

import numpy as np

import harness

os.environ.setdefault("TF_USE_LEGACY_KERAS", "1")


def _strings(n=100_000, seed=0):
    rng = np.random.default_rng(seed)
    words = np.array([f"w{i}" for i in range(5000)])
    ranks = np.minimum(rng.zipf(1.3, size=n * 12), 5000) - 1
    lengths = rng.integers(2, 13, size=n)
    marks = np.array(["", "", "", ".", ",", "!", "?"])
    out, at = [], 0
    for length in lengths:
        row = words[ranks[at:at + length]]
        at += length
        text = " ".join(row) + marks[rng.integers(len(marks))]
        out.append(text.capitalize())
    return out


DATA = _strings()


def _adapt(lib, make):
    if not hasattr(lib, "keras"):
        return None
    dataset = lib.data.Dataset.from_tensor_slices(DATA).batch(1024)

    def run():
        layer = lib.keras.layers.TextVectorization(max_tokens=20000, output_sequence_length=16)
        layer.adapt(dataset)
    return run, 1


def _call(output_mode):
    def build(lib, make):
        if not hasattr(lib, "keras"):
            return None
        if output_mode == "int":
            layer = lib.keras.layers.TextVectorization(max_tokens=20000,
                                                       output_sequence_length=16)
            layer.adapt(lib.data.Dataset.from_tensor_slices(DATA[:20000]).batch(1024))
        else:
            layer = lib.keras.layers.TextVectorization(
                output_mode=output_mode, vocabulary=[f"w{i}" for i in range(2000)])
        inputs = lib.constant(DATA)
        layer(inputs)
        return (lambda: layer(inputs)), 1
    return build


CASES = {
    "adapt": _adapt,
    "call_int": _call("int"),
    "call_multi_hot": _call("multi_hot"),
}

if __name__ == "__main__":
    sys.exit(harness.main(CASES, __file__))
