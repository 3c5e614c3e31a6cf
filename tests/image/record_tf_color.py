"""Records TensorFlow's outputs of the cases in color_cases.py (run once, output checked in).

    /root/tfvenv/bin/python -m tests.image.record_tf_color

Writes tests/image/data/color_tf.npz: per case, ``<name>|<i>`` for output i (eager), and
``<name>|error`` holding the error's class name where TF raised; and TF's GraphDef of
`graph_program` (tf_image_graph.pb) with its feeds, fetches and outputs
(tf_image_graph.npz).
"""
import os

import numpy as np

from tests.image.color_cases import CASES, INPUTS

DATA = os.path.join(os.path.dirname(__file__), "data", "color_tf.npz")
GRAPH = os.path.join(os.path.dirname(__file__), "data", "tf_image_graph")
GRAPH_INPUTS = ("rgb", "boxes", "scores", "overlaps", "overlap_scores", "det_boxes",
                "det_scores")


def graph_program(tf, x, boxes, scores, overlaps, overlap_scores, det_boxes, det_scores):
    """Every registered image op once: run from TF's GraphDef by test_color_graphdef.py."""
    return (tf.image.rgb_to_hsv(x), tf.image.hsv_to_rgb(x), tf.image.adjust_hue(x, 0.2),
            tf.image.adjust_saturation(x, 1.5), tf.image.adjust_contrast(x, 1.3),
            tf.image.non_max_suppression(boxes, scores, 10, 0.5),
            *tf.image.non_max_suppression_with_scores(boxes, scores, 10, 0.5,
                                                      soft_nms_sigma=0.5),
            tf.image.non_max_suppression_overlaps(overlaps, overlap_scores, 5, 0.5),
            *tf.image.combined_non_max_suppression(det_boxes, det_scores, 5, 12, 0.4, 0.1))


def _record_graph(tf):
    from tensorflow.python.ops import gen_image_ops
    args = [INPUTS[k] for k in GRAPH_INPUTS]

    def program(*xs):
        padded = gen_image_ops.non_max_suppression_v4(xs[1], xs[2], 10, 0.5, float("-inf"),
                                                      pad_to_max_output_size=True)
        return (*graph_program(tf, *xs), *padded)
    concrete = tf.function(program).get_concrete_function(
        *[tf.TensorSpec(a.shape, tf.as_dtype(a.dtype)) for a in args])
    with open(GRAPH + ".pb", "wb") as f:
        f.write(concrete.graph.as_graph_def().SerializeToString())
    outs = concrete(*[tf.constant(a) for a in args])
    np.savez_compressed(GRAPH + ".npz", feeds=np.array([t.name for t in concrete.inputs]),
                        fetches=np.array([t.name for t in concrete.outputs]),
                        **{f"out{i}": o.numpy() for i, o in enumerate(outs)})


def _outputs(result):
    return list(result) if isinstance(result, (tuple, list)) else [result]


def main():
    import tensorflow as tf
    out = {}
    for case in CASES:
        if case.seeded:
            tf.random.set_seed(1)
        args = [tf.constant(INPUTS[i]) for i in case.inputs]
        try:
            result = case.fn(tf, *args)
        except Exception as e:  # noqa: BLE001 (recorded for the test to match)
            out[f"{case.name}|error"] = np.array(type(e).__name__)
            continue
        for i, t in enumerate(_outputs(result)):
            out[f"{case.name}|{i}"] = t.numpy()
    np.savez_compressed(DATA, **out)
    _record_graph(tf)
    print(f"{len(CASES)} cases, {len(out)} arrays -> {DATA}")


if __name__ == "__main__":
    main()
