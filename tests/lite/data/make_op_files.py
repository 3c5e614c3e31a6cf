"""Records TensorFlow's TFLite files of single operations for `tests/lite`: for each case,
``ops/<name>.tflite`` (TF's converter's, of a function of the case's input specs) and
``ops/<name>.npz`` (the inputs given, ``in_<n>``, and TF's interpreter's outputs,
``out_<n>``).

Run from the project root with TensorFlow 2.x:
``python tests/lite/data/make_op_files.py [names...]`` (default: every case).
"""
import os
import sys

import numpy as np
import tensorflow as tf

HERE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "ops")
S = tf.TensorSpec
CASES = {   # name -> (function, input specs)
    "add_n": (lambda x, y: tf.add_n([x, y, x]), [S([2, 5]), S([2, 5])]),
    "arg_min": (lambda x: tf.argmin(x, axis=1), [S([2, 5])]),
    "atan2": (lambda x, y: tf.atan2(x, y), [S([2, 5]), S([2, 5])]),
    "cumsum": (lambda x: tf.cumsum(x, axis=1, exclusive=True, reverse=True), [S([2, 5])]),
    "depth_to_space": (lambda x: tf.nn.depth_to_space(x, 2), [S([1, 2, 3, 8])]),
    "space_to_depth": (lambda x: tf.nn.space_to_depth(x, 2), [S([1, 4, 2, 3])]),
    "gather_nd": (lambda x, i: tf.gather_nd(x, i), [S([3, 4]), S([2, 2], tf.int32)]),
    "l2_normalize": (lambda x: tf.math.l2_normalize(x, axis=-1), [S([2, 5])]),
    "matrix_diag": (lambda x: tf.linalg.diag(x), [S([2, 3])]),
    "mirror_pad": (lambda x: tf.pad(x, [[1, 1], [2, 2]], mode="REFLECT") +
                   tf.pad(x, [[1, 1], [2, 2]], mode="SYMMETRIC"), [S([3, 4])]),
    "one_hot": (lambda i: tf.one_hot(i, 4, on_value=2.0, off_value=-1.0, axis=0),
                [S([3], tf.int32)]),
    "range": (lambda n: tf.range(1, n, 2), [S([], tf.int32)]),
    "reduce_any": (lambda x: tf.reduce_any(x > 0.5, axis=1), [S([2, 5])]),
    "segment_sum": (lambda x: tf.math.segment_sum(x, [0, 0, 1]), [S([3, 2])]),
    "top_k": (lambda x: tf.math.top_k(x, 3), [S([2, 5])]),
    "sort": (lambda x: tf.sort(x, axis=-1, direction="DESCENDING"), [S([2, 5])]),
}


def sample(spec, rng):
    if spec.dtype == tf.int32:   # (indices of the cases' shapes)
        return rng.randint(0, 3 if spec.shape.rank else 9, spec.shape).astype(np.int32)
    return rng.uniform(-1, 1, spec.shape).astype(np.float32)


def main(names):
    for name in names:
        fn, specs = CASES[name]
        concrete = tf.function(fn).get_concrete_function(*specs)
        content = tf.lite.TFLiteConverter.from_concrete_functions([concrete]).convert()
        with open(os.path.join(HERE, f"{name}.tflite"), "wb") as f:
            f.write(content)
        interpreter = tf.lite.Interpreter(model_content=content)
        interpreter.allocate_tensors()
        rng = np.random.RandomState(0)
        inputs = [sample(spec, rng) for spec in specs]
        for d, x in zip(interpreter.get_input_details(), inputs):
            interpreter.set_tensor(d["index"], x)
        interpreter.invoke()
        outputs = [interpreter.get_tensor(d["index"]) for d in interpreter.get_output_details()]
        np.savez(os.path.join(HERE, f"{name}.npz"),
                 **{f"in_{n}": x for n, x in enumerate(inputs)},
                 **{f"out_{n}": y for n, y in enumerate(outputs)})


if __name__ == "__main__":
    main(sys.argv[1:] or list(CASES))
