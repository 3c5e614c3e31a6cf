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
sys.path.insert(0, os.path.dirname(os.path.dirname(HERE)))
import models  # noqa: E402

CASES = models.single_ops(tf)


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
        inputs = [models.op_sample(spec, rng) for spec in specs]
        for d, x in zip(interpreter.get_input_details(), inputs):
            interpreter.set_tensor(d["index"], x)
        interpreter.invoke()
        outputs = [interpreter.get_tensor(d["index"]) for d in interpreter.get_output_details()]
        np.savez(os.path.join(HERE, f"{name}.npz"),
                 **{f"in_{n}": x for n, x in enumerate(inputs)},
                 **{f"out_{n}": y for n, y in enumerate(outputs)})


if __name__ == "__main__":
    main(sys.argv[1:] or list(CASES))
