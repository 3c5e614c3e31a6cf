"""tf.image.generate_bounding_box_proposals (raw op GenerateBoundingBoxProposals).

TF 2.21 has a GPU kernel only (on a CPU it raises NotFoundError); the values are checked
against a step-by-step reference of that kernel in tests/ops/specs/image.py, here on more
random inputs, with the static shapes and graph-time errors of TF's op."""
import numpy as np
import pytest

import eagerflow as tf
from eagerflow import errors
from tests.op_errors import op_text
from tests.ops.specs.image import _proposal_inputs, _proposals

P = tf.image.generate_bounding_box_proposals


@pytest.mark.parametrize("seed", range(8))
def test_values_match_the_kernels_steps(seed):
    rng = np.random.default_rng(100 + seed)
    images, height, width, count = (int(v) for v in rng.integers(1, 5, 4))
    inputs = _proposal_inputs(seed, min(images, 2), height, width, count)
    threshold = float(rng.choice([0.0, 0.4, 0.7, 1.0]))
    pre, size, post = int(rng.integers(1, 40)), float(rng.choice([0, 2, 5])), int(
        rng.integers(1, 9))
    out = P(*inputs, threshold, pre, size, post)
    rois, probabilities = _proposals(*inputs, threshold, pre, size, post)
    np.testing.assert_array_equal(out.rois, rois)
    np.testing.assert_array_equal(out.roi_probabilities, probabilities)


def test_result_is_tfs_namedtuple_zero_padded():
    out = P([[[[0.9, 0.8]]]], tf.zeros([1, 1, 1, 8]), [[10., 10., 1., 0., 0.]],
            [[[0., 0., 4., 4., 0., 1., 4., 5.]]], 0.5, min_size=1, post_nms_topn=3)
    assert type(out).__name__ == "GenerateBoundingBoxProposals"
    assert out._fields == ("rois", "roi_probabilities")
    np.testing.assert_array_equal(out.rois, [[[0, 0, 4, 4], [0, 0, 0, 0], [0, 0, 0, 0]]])
    np.testing.assert_array_equal(out.roi_probabilities, np.float32([[0.9, 0, 0]]))


def test_deltas_move_anchors_and_boxes_are_clipped():
    # dy, dx shift by the anchor's size; dh, dw scale by exp (capped at log(1000 / 16))
    deltas = [[[[0.5, -0.25, np.log(2.0), 10.0]]]]
    out = P([[[[1.0]]]], deltas, [[12., 30., 1., 0., 0.]], [[[2., 2., 6., 10.]]],
            min_size=0, post_nms_topn=1)
    # height 4 centred at 4 + 2 -> 8 high: [2, 10] clipped to 12; width 8 centred at
    # 6 - 2, 62.5 wide: clipped to [0, 30]
    np.testing.assert_allclose(out.rois, [[[2., 0., 10., 30.]]])


def test_in_a_function_with_an_unknown_batch():
    inputs = _proposal_inputs(0)
    f = tf.function(lambda *a: P(*a, post_nms_topn=7, min_size=2))
    concrete = f.get_concrete_function(
        tf.TensorSpec([None, 3, 4, 2]), tf.TensorSpec([None, 3, 4, 8]),
        tf.TensorSpec([None, 5]), tf.TensorSpec([3, 4, 8]))
    assert concrete.structured_outputs.rois.shape.as_list() == [None, 7, 4]
    assert concrete.structured_outputs.roi_probabilities.shape.as_list() == [None, 7]
    np.testing.assert_array_equal(concrete(*inputs).rois,
                                  P(*inputs, post_nms_topn=7, min_size=2).rois)
    with pytest.raises(ValueError, match="Shape must be rank 3 but is rank 2"):
        f.get_concrete_function(tf.TensorSpec([2, 3, 4, 2]), tf.TensorSpec([2, 3, 4, 8]),
                                tf.TensorSpec([2, 5]), tf.TensorSpec([24, 4]))


@pytest.mark.parametrize("kwargs, message", [
    ({"nms_threshold": 1.5}, "nms_threshold should be between 0 and 1. Got 1.5"),
    ({"pre_nms_topn": 0}, "pre_nms_topn should be greater than 00"),
    ({"post_nms_topn": 0}, "post_nms_topn can't be 0 or less"),
    ({"nms_threshold": [0.5]}, "Expected a scalar in input 4but got shape [1]"),
])
def test_errors(kwargs, message):
    with pytest.raises(errors.InvalidArgumentError) as info:
        P(*_proposal_inputs(0), **kwargs)
    assert op_text(info.value) == f"{message} [Op:GenerateBoundingBoxProposals]"


def test_no_gradient_as_tf():
    scores = tf.Variable(_proposal_inputs(0)[0])
    with tf.GradientTape() as tape:
        out = P(scores, *_proposal_inputs(0)[1:])
    with pytest.raises(LookupError, match="GenerateBoundingBoxProposals"):
        tape.gradient(out.roi_probabilities, scores)
