"""Image metrics and box selection of ``tf.image``: `psnr`, `ssim`, `ssim_multiscale`,
`total_variation`, `image_gradients`, `sobel_edges` (composites of existing ops, so they
differentiate through the tape) and non-maximum suppression (TF's ``NonMaxSuppressionV3``,
``V4``, ``V5``, ``NonMaxSuppressionWithOverlaps`` and ``CombinedNonMaxSuppression`` ops).

Suppression is greedy as TF's: boxes in decreasing order of score (ties: lower index
first), each kept unless its IoU with a kept box exceeds the threshold; soft NMS instead
lowers the others' scores (and, as TF's, ignores the IoU threshold). Each kept box's IoUs
with the remaining candidates are computed at once, so the Python loop runs once per kept
box, not per pair: 1000 boxes take a few tens of milliseconds.

>>> tf.image.non_max_suppression([[0, 0, 1, 1], [0, 0.1, 1, 1.1], [0, 2, 1, 3]],
...                              [0.9, 0.8, 0.7], 3)
<tf.Tensor: shape=(2,), dtype=int32, numpy=array([0, 2], dtype=int32)>
"""
import collections

import numpy as np

from eagerflow._src.backend.api_export import export
from eagerflow._src.core import dtypes as _d
from eagerflow._src.core import errors
from eagerflow._src.core.convert import convert_to_tensor
from eagerflow._src.core.dispatch import dispatch
from eagerflow._src.core.node_forms import NodeForm, tf_nodes
from eagerflow._src.core.node_forms import tf_args
from eagerflow._src.core.registry import (
    PER_ELEMENT, batching_rules, register, register_gradient)
from eagerflow._src.core.tensor import EagerTensor
from eagerflow._src.core.tensor_shape import TensorShape
from eagerflow._src.ops import array_ops, conv_ops, debugging_ops, math_ops, nn_ops, reduction_ops
from eagerflow._src.ops import shape_rules as rules
from eagerflow._src.ops.cast_ops import cast
from eagerflow._src.ops.image_color_ops import no_registered_gradient
from eagerflow._src.ops.image_ops import convert_image_dtype
from eagerflow._src.ops.wrappers import as_tensor, defaulted

_HALF_FLOAT = (_d.float16, _d.float32)
CombinedNonMaxSuppression = collections.namedtuple(
    "CombinedNonMaxSuppression", ["nmsed_boxes", "nmsed_scores", "nmsed_classes",
                                  "valid_detections"])


def _invalid(message):
    return errors.InvalidArgumentError(None, None, message)


# -- non-maximum suppression kernels ----------------------------------------------------------

def _corners(boxes):
    """(ymin, xmin, ymax, xmax, area) of boxes given by any two opposite corners."""
    y1, x1, y2, x2 = (boxes[:, i] for i in range(4))
    ymin, ymax = np.minimum(y1, y2), np.maximum(y1, y2)
    xmin, xmax = np.minimum(x1, x2), np.maximum(x1, x2)
    return ymin, xmin, ymax, xmax, (ymax - ymin) * (xmax - xmin)


def _iou_of(corners):
    """``iou(i, js)``: IoUs (float32) of box `i` with boxes `js`, 0 for an empty box."""
    ymin, xmin, ymax, xmax, area = corners
    zero = np.float32(0)

    def iou(i, js):
        inter = (np.maximum(np.minimum(ymax[i], ymax[js]) - np.maximum(ymin[i], ymin[js]), zero)
                 * np.maximum(np.minimum(xmax[i], xmax[js]) - np.maximum(xmin[i], xmin[js]),
                              zero))
        with np.errstate(divide="ignore", invalid="ignore"):
            out = inter / (area[i] + area[js] - inter)
        return np.where((area[i] <= 0) | (area[js] <= 0), zero, out)
    return iou


def _overlaps_of(overlaps):
    def similarity(i, js):  # TF reads a candidate's overlap with kept box i from its row
        return overlaps[js, i]
    return similarity


def _suppress(similarity, scores, max_output, threshold, score_threshold, sigma):
    """Greedy (soft) NMS: (selected indices, their scores after any soft decay)."""
    if max_output <= 0:
        return np.zeros(0, np.int32), np.zeros(0, np.float32)
    candidates = np.flatnonzero(scores > score_threshold)
    # decreasing score, ties to the lower index (a stable sort of the negated scores)
    candidates = candidates[np.argsort(-scores[candidates], kind="stable")]
    selected, kept_scores = [], []
    if sigma > 0:  # soft NMS: every kept box decays the others' scores by its IoU
        scale = np.float32(-0.5 / sigma)
        current = scores[candidates].astype(np.float32)
        while len(selected) < max_output and candidates.size:
            best = np.flatnonzero(current == current.max())
            pick = best[np.argmin(candidates[best])]
            selected.append(candidates[pick])
            kept_scores.append(current[pick])
            rest = np.ones(candidates.size, bool)
            rest[pick] = False
            candidates, current = candidates[rest], current[rest]
            sim = similarity(selected[-1], candidates).astype(np.float32)
            current = current * np.exp(scale * sim * sim)
            alive = current > score_threshold
            candidates, current = candidates[alive], current[alive]
        return np.asarray(selected, np.int32), np.asarray(kept_scores, np.float32)
    alive = np.ones(candidates.size, bool)
    for k in range(candidates.size):
        if not alive[k]:
            continue
        selected.append(candidates[k])
        if len(selected) >= max_output:
            break
        later = k + 1 + np.flatnonzero(alive[k + 1:])
        alive[later[similarity(candidates[k], candidates[later]) > threshold]] = False
    selected = np.asarray(selected, np.int32)
    return selected, scores[selected].astype(np.float32)


def _check_nms(boxes, scores, max_output_size, iou_threshold, score_threshold,
               overlaps=False):
    if max_output_size.ndim != 0:
        raise _invalid(f"max_output_size must be 0-D, got shape "
                       f"{errors.shape_text(max_output_size.shape)} (Shape must be rank 0 but "
                       f"is rank {max_output_size.ndim})")
    for name, value in (("iou_threshold" if not overlaps else "overlap_threshold",
                         iou_threshold), ("score_threshold", score_threshold)):
        if value.ndim != 0:
            raise _invalid(f"{name} must be 0-D, got shape {errors.shape_text(value.shape)}")
    if not overlaps and not 0 <= float(iou_threshold) <= 1:
        raise _invalid("iou_threshold must be in [0, 1]")
    if overlaps:
        if boxes.ndim != 2:
            raise _invalid(f"overlaps must be 2-D{errors.shape_text(boxes.shape)}")
        if boxes.shape[0] != boxes.shape[1]:
            raise _invalid(f"overlaps must be square{errors.shape_text(boxes.shape)}")
    else:
        if boxes.ndim != 2:
            raise _invalid(f"boxes must be 2-D{errors.shape_text(boxes.shape)}")
        if boxes.shape[1] != 4:
            raise _invalid(f"boxes must have 4 columns (Dimension must be 4 but is "
                           f"{boxes.shape[1]})")
    if scores.ndim != 1:
        raise _invalid(f"scores must be 1-D{errors.shape_text(scores.shape)}")
    if scores.shape[0] != boxes.shape[0]:
        raise _invalid(f"scores has incompatible shape (Dimensions must be equal, but are "
                       f"{boxes.shape[0]} and {scores.shape[0]})")
    if int(max_output_size) < 0:
        raise _invalid("output size must be non-negative")


def _run_nms(boxes, scores, max_output_size, threshold, score_threshold, sigma=0.0,
             overlaps=False):
    boxes32 = boxes.astype(np.float32)
    similarity = _overlaps_of(boxes32) if overlaps else _iou_of(_corners(boxes32))
    return _suppress(similarity, scores.astype(np.float32), int(max_output_size),
                     np.float32(threshold), np.float32(score_threshold), float(sigma))


def _padded(values, size, pad):
    if not pad or values.size >= size:
        return values
    return np.concatenate([values, np.zeros(size - values.size, values.dtype)])


def _nms_v3_kernel(xp, boxes, scores, max_output_size, iou_threshold, score_threshold):
    _check_nms(boxes, scores, max_output_size, iou_threshold, score_threshold)
    return _run_nms(boxes, scores, max_output_size, iou_threshold, score_threshold)[0]


def _nms_v4_kernel(xp, boxes, scores, max_output_size, iou_threshold, score_threshold,
                   pad_to_max_output_size=False):
    _check_nms(boxes, scores, max_output_size, iou_threshold, score_threshold)
    selected = _run_nms(boxes, scores, max_output_size, iou_threshold, score_threshold)[0]
    return (_padded(selected, int(max_output_size), pad_to_max_output_size),
            np.asarray(selected.size, np.int32))


def _nms_v5_kernel(xp, boxes, scores, max_output_size, iou_threshold, score_threshold,
                   soft_nms_sigma, pad_to_max_output_size=False):
    _check_nms(boxes, scores, max_output_size, iou_threshold, score_threshold)
    if soft_nms_sigma.ndim != 0:
        raise _invalid(f"soft_nms_sigma must be 0-D, got shape "
                       f"{errors.shape_text(soft_nms_sigma.shape)}")
    if float(soft_nms_sigma) < 0:
        raise _invalid("soft_nms_sigma_val must be >= 0")
    selected, kept = _run_nms(boxes, scores, max_output_size, iou_threshold, score_threshold,
                              soft_nms_sigma)
    size = int(max_output_size)
    return (_padded(selected, size, pad_to_max_output_size),
            _padded(kept.astype(scores.dtype), size, pad_to_max_output_size),
            np.asarray(selected.size, np.int32))


def _nms_overlaps_kernel(xp, overlaps, scores, max_output_size, overlap_threshold,
                         score_threshold):
    _check_nms(overlaps, scores, max_output_size, overlap_threshold, score_threshold,
               overlaps=True)
    return _run_nms(overlaps, scores, max_output_size, overlap_threshold, score_threshold,
                    overlaps=True)[0]


def _combined_nms_kernel(xp, boxes, scores, max_output_size_per_class, max_total_size,
                         iou_threshold, score_threshold, pad_per_class=False, clip_boxes=True):
    if boxes.ndim != 4 or scores.ndim != 3 or boxes.shape[0] != scores.shape[0]:
        raise _invalid("boxes and scores must have same batch size")
    batch, count, q, width = boxes.shape
    classes = scores.shape[2]
    if scores.shape[1] != count or width != 4:
        raise _invalid("scores has incompatible shape")
    if q not in (1, classes):
        raise _invalid("third dimension of boxes must be either 1 or num classes")
    for name, value in (("max_output_size_per_class", max_output_size_per_class),
                        ("max_total_size", max_total_size)):
        if value.ndim != 0:
            raise _invalid(f"{name} must be 0-D, got shape {errors.shape_text(value.shape)}")
    per_class, total = int(max_output_size_per_class), int(max_total_size)
    if total <= 0:
        raise _invalid("max_total_size must be > 0")
    if per_class <= 0:
        raise _invalid("max_size_per_class must be positive")
    if not 0 <= float(iou_threshold) <= 1:
        raise _invalid("iou_threshold must be in [0, 1]")
    size = min(per_class * classes, total) if pad_per_class else total
    out_boxes = np.zeros((batch, size, 4), np.float32)
    out_scores = np.zeros((batch, size), np.float32)
    out_classes = np.zeros((batch, size), np.float32)
    valid = np.zeros(batch, np.int32)
    for b in range(batch):
        kept, kept_scores, kept_classes = [], [], []
        for c in range(classes):
            selected, selected_scores = _run_nms(boxes[b, :, c if q > 1 else 0], scores[b, :, c],
                                                 per_class, iou_threshold, score_threshold)
            kept.append(selected)
            kept_scores.append(selected_scores)
            kept_classes.append(np.full(selected.size, c))
        kept, kept_scores = np.concatenate(kept), np.concatenate(kept_scores)
        kept_classes = np.concatenate(kept_classes)
        best = np.argsort(-kept_scores, kind="stable")[:size]
        found = best.size
        chosen = boxes[b, kept[best], np.where(q > 1, kept_classes[best], 0)]
        out_boxes[b, :found] = np.clip(chosen, 0, 1) if clip_boxes else chosen
        out_scores[b, :found] = kept_scores[best]
        out_classes[b, :found] = kept_classes[best]
        valid[b] = found
    return out_boxes, out_scores, out_classes, valid


def _combined_nms_rule(boxes, scores, max_output_size_per_class, max_total_size,
                       iou_threshold, score_threshold, pad_per_class=False, clip_boxes=True):
    inputs = [boxes, scores, max_output_size_per_class, max_total_size, iou_threshold,
              score_threshold]
    rules.check_rank("CombinedNonMaxSuppression", inputs, 0, rank=4)
    rules.check_rank("CombinedNonMaxSuppression", inputs, 1, rank=3)
    for i in range(2, 6):
        rules.check_rank("CombinedNonMaxSuppression", inputs, i, rank=0)
    batch = boxes.shape[0] if boxes.shape.rank is not None else None
    if batch is None and scores.shape.rank is not None:
        batch = scores.shape[0]
    return [(TensorShape([batch, None, 4]), _d.float32), (TensorShape([batch, None]), _d.float32),
            (TensorShape([batch, None]), _d.float32), (TensorShape([batch]), _d.int32)]


def _nms_rule(op_name, outputs, overlaps=False):
    def rule(boxes, scores, max_output_size, *thresholds, pad_to_max_output_size=False):
        inputs = [boxes, scores, max_output_size, *thresholds]
        rules.check_rank(op_name, inputs, 0, rank=2)
        rules.check_rank(op_name, inputs, 1, rank=1)
        for i in range(2, len(inputs)):
            rules.check_rank(op_name, inputs, i, rank=0)
        width = boxes.shape[1] if boxes.shape.rank is not None else None
        if not overlaps and width is not None and width != 4:
            raise rules.shape_error(op_name, f"Dimension must be 4 but is {width}",
                                    [t.shape for t in inputs])
        n = boxes.shape[0] if boxes.shape.rank is not None else None
        m = scores.shape[0] if scores.shape.rank is not None else None
        if n is not None and m is not None and n != m:
            raise rules.shape_error(op_name, f"Dimensions must be equal, but are {n} and {m}",
                                    [t.shape for t in inputs])
        shapes = {"indices": (TensorShape([None]), _d.int32),
                  "scores": (TensorShape([None]), scores.dtype),
                  "count": (TensorShape([]), _d.int32)}
        out = [shapes[o] for o in outputs]
        return out if len(out) > 1 else out[0]
    return rule


_NMS_V3 = register("NonMaxSuppressionV3", _nms_v3_kernel,
                   _nms_rule("NonMaxSuppressionV3", ["indices"]), tied=(0, 1),
                   dtypes=_HALF_FLOAT, not_differentiable="integer indices")
_NMS_V4 = register("NonMaxSuppressionV4", _nms_v4_kernel,
                   _nms_rule("NonMaxSuppressionV4", ["indices", "count"]), multi=True,
                   tied=(0, 1), dtypes=_HALF_FLOAT, not_differentiable="integer indices")
_NMS_V5 = register("NonMaxSuppressionV5", _nms_v5_kernel,
                   _nms_rule("NonMaxSuppressionV5", ["indices", "scores", "count"]),
                   multi=True, tied=(0, 1, 3, 4, 5), dtypes=_HALF_FLOAT)
_NMS_OVERLAPS = register("NonMaxSuppressionWithOverlaps", _nms_overlaps_kernel,
                         _nms_rule("NonMaxSuppressionWithOverlaps", ["indices"], True),
                         tied=(0, 1, 3, 4), dtypes=(_d.float32,),
                         not_differentiable="integer indices")
_COMBINED_NMS = register("CombinedNonMaxSuppression", _combined_nms_kernel, _combined_nms_rule,
                         multi=True, tied=(0, 1, 4, 5), dtypes=(_d.float32,))
for _op in (_NMS_V5, _COMBINED_NMS):
    register_gradient(_op.name)(no_registered_gradient)
tf_nodes[_COMBINED_NMS] = NodeForm(outputs=("nmsed_boxes", "nmsed_scores", "nmsed_classes",
                                            "valid_detections"))
tf_args[_COMBINED_NMS] = ("boxes", "scores", "max_output_size_per_class", "max_total_size",
                          "iou_threshold", "score_threshold")
tf_nodes[_NMS_V3] = NodeForm(types={"T": 0, "T_threshold": 3}, outputs=("selected_indices",))
tf_args[_NMS_V3] = ("boxes", "scores", "max_output_size", "iou_threshold", "score_threshold")
tf_nodes[_NMS_V4] = NodeForm(types={"T": 0, "T_threshold": 3},
                             outputs=("selected_indices", "valid_outputs"))
tf_args[_NMS_V4] = ("boxes", "scores", "max_output_size", "iou_threshold", "score_threshold")
tf_nodes[_NMS_V5] = NodeForm(outputs=("selected_indices", "selected_scores", "valid_outputs"))
tf_args[_NMS_V5] = ("boxes", "scores", "max_output_size", "iou_threshold", "score_threshold",
                    "soft_nms_sigma")
tf_nodes[_NMS_OVERLAPS] = NodeForm(types={}, outputs=("selected_indices",))
tf_args[_NMS_OVERLAPS] = ("overlaps", "scores", "max_output_size", "overlap_threshold",
                          "score_threshold")
batching_rules.assign(PER_ELEMENT, _NMS_V3, _NMS_V4, _NMS_V5, _NMS_OVERLAPS, _COMBINED_NMS)


def _floats(value, dtype=_d.float32):
    """A tensor as it is, a NumPy array cast to `dtype`, Python values as `dtype` where they
    fit (as TF's op inputs)."""
    if isinstance(value, (np.ndarray, np.generic)):
        return defaulted(value, dtype, _HALF_FLOAT)
    if hasattr(value, "dtype"):
        return as_tensor(value)
    return convert_to_tensor(value, dtype_hint=dtype)


def _nms_inputs(boxes, scores, max_output_size, thresholds, dtype=None):
    boxes = _floats(boxes)
    scores = _floats(scores, boxes.dtype)
    size = convert_to_tensor(max_output_size, _d.int32)
    if size.dtype != _d.int32:
        raise TypeError(f"Input 'max_output_size' has type {size.dtype.name} that does not "
                        f"match expected type of int32.")
    thresholds = [_floats(t, dtype or _d.float32) for t in thresholds]
    return boxes, scores, size, thresholds


@export("image.non_max_suppression")
def non_max_suppression(boxes, scores, max_output_size, iou_threshold=0.5,
                        score_threshold=float("-inf"), name=None):
    """Indices of at most `max_output_size` boxes (rows ``[y1, x1, y2, x2]``) kept by greedy
    non-maximum suppression: by decreasing score, dropping boxes whose IoU with a kept box
    exceeds `iou_threshold`, and boxes scoring at most `score_threshold`.

    >>> tf.image.non_max_suppression([[0, 0, 1, 1], [0, 0, 1, 1]], [0.5, 0.6], 2)
    <tf.Tensor: shape=(1,), dtype=int32, numpy=array([1], dtype=int32)>
    """
    boxes, scores, size, thresholds = _nms_inputs(boxes, scores, max_output_size,
                                                  [iou_threshold, score_threshold])
    return dispatch(_NMS_V3, (boxes, scores, size, *thresholds), name=name)


@export("image.non_max_suppression_with_scores")
def non_max_suppression_with_scores(boxes, scores, max_output_size, iou_threshold=0.5,
                                    score_threshold=float("-inf"), soft_nms_sigma=0.0,
                                    name=None):
    """`non_max_suppression` returning (indices, scores); with ``soft_nms_sigma > 0``, soft
    NMS: a kept box lowers the others' scores by ``exp(-iou**2 / (2 sigma))`` instead of
    dropping them.

    >>> tf.image.non_max_suppression_with_scores([[0, 0, 1, 1]], [0.5], 2)[1]
    <tf.Tensor: shape=(1,), dtype=float32, numpy=array([0.5], dtype=float32)>
    """
    boxes, scores, size, thresholds = _nms_inputs(
        boxes, scores, max_output_size, [iou_threshold, score_threshold, soft_nms_sigma],
        dtype=_floats(boxes).dtype)
    indices, kept, _ = dispatch(_NMS_V5, (boxes, scores, size, *thresholds),
                                {"pad_to_max_output_size": False}, name=name)
    return indices, kept


@export("image.non_max_suppression_overlaps")
def non_max_suppression_with_overlaps(overlaps, scores, max_output_size, overlap_threshold=0.5,
                                      score_threshold=float("-inf"), name=None):
    """`non_max_suppression` given the pairwise overlaps (an n x n matrix) instead of boxes.

    >>> tf.image.non_max_suppression_overlaps([[1.0, 0.9], [0.9, 1.0]], [0.5, 0.6], 2)
    <tf.Tensor: shape=(1,), dtype=int32, numpy=array([1], dtype=int32)>
    """
    overlaps, scores, size, thresholds = _nms_inputs(
        overlaps, scores, max_output_size, [overlap_threshold, score_threshold])
    return dispatch(_NMS_OVERLAPS, (overlaps, scores, size, *thresholds), name=name)


@export("image.combined_non_max_suppression")
def combined_non_max_suppression(boxes, scores, max_output_size_per_class, max_total_size,
                                 iou_threshold=0.5, score_threshold=float("-inf"),
                                 pad_per_class=False, clip_boxes=True, name=None):
    """`non_max_suppression` per class and batch element (boxes ``[b, n, q, 4]``, q 1 or one
    box per class; scores ``[b, n, classes]``), then the best `max_total_size` of all
    classes: (boxes, scores, classes as floats, number valid), zero-padded.

    >>> out = tf.image.combined_non_max_suppression(
    ...     [[[[0, 0, 1, 1]], [[0, 0, 1, 1]]]], [[[0.9, 0.1], [0.8, 0.7]]], 2, 3)
    >>> out.nmsed_scores.numpy(), out.nmsed_classes.numpy(), out.valid_detections.numpy()
    (array([[0.9, 0.7, 0. ]], dtype=float32), array([[0., 1., 0.]], dtype=float32), array([2], dtype=int32))
    """
    boxes = _floats(boxes)
    scores = _floats(scores)
    per_class = convert_to_tensor(max_output_size_per_class, _d.int32)
    total = convert_to_tensor(max_total_size, _d.int32)
    thresholds = [convert_to_tensor(iou_threshold, _d.float32),
                  convert_to_tensor(score_threshold, _d.float32)]
    outputs = dispatch(_COMBINED_NMS, (boxes, scores, per_class, total, *thresholds),
                       {"pad_per_class": bool(pad_per_class), "clip_boxes": bool(clip_boxes)},
                       name=name)
    if isinstance(max_total_size, int) and not isinstance(outputs[0], EagerTensor):
        classes = scores.shape[2] if scores.shape.rank is not None else None
        size = max_total_size
        if pad_per_class:  # known when the per-class count and the classes are
            size = (min(max_output_size_per_class * classes, max_total_size)
                    if isinstance(max_output_size_per_class, int) and classes is not None
                    else None)
        for t in outputs[:3]:
            t.set_shape(t.shape[:1].concatenate([size]).concatenate(t.shape[2:]))
    return CombinedNonMaxSuppression(*outputs)


def _padded_nms_kernel(xp, boxes, scores, max_output_size, iou_threshold, score_threshold):
    """`non_max_suppression_padded` of every batch element of boxes ``[..., n, 4]`` and
    scores ``[..., n]``: (indices ``[..., size]``, counts ``[...]``); a batch whose shape
    only run time knows."""
    lead = boxes.shape[:-2]
    if boxes.ndim < 2 or boxes.shape[-1] != 4 or scores.shape != boxes.shape[:-1]:
        raise _invalid(f"boxes must be [..., num_boxes, 4] and scores [..., num_boxes], got "
                       f"{errors.shape_text(boxes.shape)} and "
                       f"{errors.shape_text(scores.shape)}")
    size = int(max_output_size)
    flat_boxes = boxes.reshape((-1,) + boxes.shape[-2:])
    flat_scores = scores.reshape((-1, scores.shape[-1]))
    indices = np.zeros((len(flat_boxes), max(size, 0)), np.int32)
    counts = np.zeros(len(flat_boxes), np.int32)
    everything = np.asarray(boxes.shape[-2], np.int32)
    for i, (b, sc) in enumerate(zip(flat_boxes, flat_scores)):
        kept, _ = _nms_v4_kernel(xp, b, sc, everything, iou_threshold, score_threshold)
        # TF's tiled suppression outputs only boxes with a coordinate above 0
        kept = kept[(b[kept] > 0).any(axis=1)][:max(size, 0)]
        indices[i, :kept.size] = kept
        counts[i] = kept.size
    return indices.reshape(lead + (max(size, 0),)), counts.reshape(lead)


def _padded_nms_rule(boxes, scores, max_output_size, *_):
    if boxes.shape.rank is None:
        return [(TensorShape(None), _d.int32), (TensorShape(None), _d.int32)]
    lead = boxes.shape[:-2]
    return [(lead.concatenate([_known_scalar(max_output_size)]), _d.int32), (lead, _d.int32)]


def _known_scalar(t):
    """The value of scalar `t` when known before run time, else None."""
    if isinstance(t, EagerTensor):
        return int(t._data)
    static_value = getattr(t, "static_value", None)
    value = None if static_value is None else static_value(partial=True)
    return None if value is None or np.ndim(value) else int(value)


def _no_graph_def_form(inputs, attrs):
    raise ValueError("TensorFlow has no op for it (its non_max_suppression_padded is a loop "
                     "over the batch); give the boxes a batch shape known when the function "
                     "is traced")


# non_max_suppression_padded of a batch whose shape only run time knows (TF loops over it)
_PADDED_NMS = register("PaddedNonMaxSuppression", _padded_nms_kernel, _padded_nms_rule,
                       multi=True, tied=(0, 1), dtypes=_HALF_FLOAT,
                       not_differentiable="integer indices")
tf_nodes[_PADDED_NMS] = NodeForm(lower=_no_graph_def_form)
tf_args[_PADDED_NMS] = None  # (eagerflow's own op)
batching_rules[_PADDED_NMS] = PER_ELEMENT


@export("image.non_max_suppression_padded")
def non_max_suppression_padded(boxes, scores, max_output_size, iou_threshold=0.5,
                               score_threshold=float("-inf"), pad_to_max_output_size=False,
                               name=None, sorted_input=False, canonicalized_coordinates=False,
                               tile_size=512):
    """`non_max_suppression` of boxes ``[..., n, 4]`` (batches when padded), returning
    (indices, number valid); padded with 0 to `max_output_size` per batch element. As TF's,
    boxes with no coordinate above 0 are never returned.

    >>> tf.image.non_max_suppression_padded([[0, 0, 1, 1], [0, 0, 1, 1]], [0.5, 0.6], 2,
    ...                                     pad_to_max_output_size=True)[0]
    <tf.Tensor: shape=(2,), dtype=int32, numpy=array([1, 0], dtype=int32)>
    """
    boxes = _floats(boxes)
    scores = _floats(scores, boxes.dtype)
    rank = boxes.shape.rank
    if not pad_to_max_output_size and rank is not None and rank > 2:
        raise ValueError(f"'pad_to_max_output_size' (value {pad_to_max_output_size}) must be "
                         f"True for batched input")
    if rank is None and not pad_to_max_output_size:
        raise ValueError(f"non_max_suppression_padded needs the rank of the boxes known "
                         f"before run time when not padding, got shape {boxes.shape}")
    iou_threshold = convert_to_tensor(iou_threshold, _d.float32)
    # TF's tiled suppression counts a pair as overlapping at IoU >= the threshold, and a box
    # suppresses others only while nothing overlaps it: at threshold 0 every box is
    # overlapped, so none suppresses (greedy suppression at IoU > 1 keeps every box too)
    iou_threshold = array_ops.where(math_ops.equal(iou_threshold, 0.0),
                                    convert_to_tensor(1.0, _d.float32), iou_threshold)
    thresholds = [iou_threshold, convert_to_tensor(score_threshold, _d.float32)]
    if rank is None or not boxes.shape[:-2].is_fully_defined():  # (a batch of any size)
        indices, counts = dispatch(_PADDED_NMS, (
            boxes, scores, convert_to_tensor(max_output_size, _d.int32), *thresholds), name=name)
        return indices, counts
    batch = boxes.shape[:-2].as_list()
    elements = int(np.prod(batch, dtype=int))
    flat_boxes = array_ops.reshape(boxes, [elements, -1, 4])
    flat_scores = array_ops.reshape(scores, [elements, -1])
    size = convert_to_tensor(max_output_size, _d.int32)
    everything = array_ops.shape(flat_boxes)[1]
    indices, counts = [], []
    for i in range(elements):
        kept, _ = dispatch(_NMS_V4, (flat_boxes[i], flat_scores[i], everything, *thresholds),
                           {"pad_to_max_output_size": False})
        # TF's tiled suppression outputs only boxes with a coordinate above 0 (the others
        # still suppress boxes they overlap)
        positive = reduction_ops.reduce_any(
            math_ops.greater(array_ops.gather(flat_boxes[i], kept), 0), axis=1)
        kept = array_ops.boolean_mask(kept, positive)
        # the first `size`, zero-padded (gathers: their run-time sizes write as TF's nodes)
        padded = array_ops.concat([kept, array_ops.zeros([size], _d.int32)], 0)
        indices.append(array_ops.gather(padded, array_ops.range(size)))
        counts.append(math_ops.minimum(array_ops.size(kept), size))
    if not pad_to_max_output_size:
        return array_ops.gather(indices[0], array_ops.range(counts[0])), counts[0]
    indices = array_ops.reshape(array_ops.stack(indices), batch + [-1])
    if isinstance(max_output_size, int):
        indices.set_shape(batch + [max_output_size])
    return indices, array_ops.reshape(array_ops.stack(counts), batch)


# -- metrics ------------------------------------------------------------------------------------

def _check_compatible(a, b):
    shape1, shape2 = a.shape, b.shape
    for s in (shape1, shape2):
        if s.rank is not None and s.rank < 3:
            raise ValueError(f"Shape {s} must have rank at least 3")
    if shape1.rank is not None and shape2.rank is not None:
        shape1[-3:].assert_is_compatible_with(shape2[-3:])
        for d1, d2 in zip(reversed(shape1.as_list()[:-3]), reversed(shape2.as_list()[:-3])):
            if not (d1 == 1 or d2 == 1 or d1 is None or d2 is None or d1 == d2):
                raise ValueError(f"Two images are not compatible: {shape1} and {shape2}")


# -- region proposals --------------------------------------------------------------------------
# TF 2.21 has a GPU kernel only; this follows it: the `pre_nms_topn` best scores of each image
# (a stable sort: ties keep the lower index first), their anchors moved by the deltas (the
# log-sizes capped at log(1000 / 16)), clipped to the image, those with a side under
# ``min_size * scale`` dropped, then greedy suppression (IoU tested as ``inter > union * t``;
# a box of zero area suppresses nothing) up to `post_nms_topn`, zero-padded.

GenerateBoundingBoxProposals = collections.namedtuple(
    "GenerateBoundingBoxProposals", ["rois", "roi_probabilities"])
_DELTA_CLIP = np.float32(np.log(1000.0 / 16.0))


def _decode(anchors, deltas, height, width):
    """Boxes (y1, x1, y2, x2) of `anchors` moved by `deltas` (dy, dx, dh, dw), clipped."""
    half = np.float32(0.5)
    out = []
    for lo, hi, shift, grow, limit in ((0, 2, 0, 2, height), (1, 3, 1, 3, width)):
        size = anchors[:, hi] - anchors[:, lo]
        centre = anchors[:, lo] + half * size + size * deltas[:, shift]
        new_size = size * np.exp(np.minimum(deltas[:, grow], _DELTA_CLIP))
        out.append([np.fmax(np.fmin(centre - half * new_size, limit), np.float32(0)),
                    np.fmax(np.fmin(centre + half * new_size, limit), np.float32(0))])
    (y1, y2), (x1, x2) = out
    return np.stack([y1, x1, y2, x2], axis=1)


def _greedy_nms(boxes, threshold, limit):
    """Indices of the boxes (in order of decreasing score) greedy suppression keeps."""
    y1, x1, y2, x2 = boxes.T
    area = (x2 - x1) * (y2 - y1)
    alive = np.ones(len(boxes), bool)
    kept = []
    for i in range(len(boxes)):
        if not alive[i]:
            continue
        kept.append(i)
        if len(kept) >= limit:
            break
        rest = i + 1 + np.flatnonzero(alive[i + 1:])
        inter = (np.fmax(np.fmin(y2[i], y2[rest]) - np.fmax(y1[i], y1[rest]), np.float32(0)) *
                 np.fmax(np.fmin(x2[i], x2[rest]) - np.fmax(x1[i], x1[rest]), np.float32(0)))
        over = inter > (area[i] + area[rest] - inter) * threshold
        alive[rest[over & (area[i] != 0) & (area[rest] != 0)]] = False
    return np.asarray(kept, np.int64)


def _proposals_kernel(xp, scores, bbox_deltas, image_info, anchors, nms_threshold,
                      pre_nms_topn, min_size, post_nms_topn=300):
    if post_nms_topn <= 0:
        raise _invalid("post_nms_topn can't be 0 or less")
    for name, value, rank in (("scores", scores, 4), ("bbox_deltas", bbox_deltas, 4),
                              ("image_info", image_info, 2), ("anchors", anchors, 3)):
        if value.ndim != rank:
            raise _invalid(f"{name} must be rank {rank}, got shape "
                           f"{errors.shape_text(value.shape)}")
    images, height, width, count = scores.shape
    if count and anchors.shape[2] // count != 4:
        raise errors.OutOfRangeError(None, None, "Box dimensions need to be 4")
    for i, value in ((4, nms_threshold), (5, pre_nms_topn), (6, min_size)):
        if value.ndim:
            raise _invalid(f"Expected a scalar in input {i}but got shape "
                           f"{errors.shape_text(value.shape)}")
    threshold = np.float32(nms_threshold)
    if not 0 <= threshold <= 1:
        raise _invalid(f"nms_threshold should be between 0 and 1. Got {float(threshold):g}")
    if int(pre_nms_topn) <= 0:
        raise _invalid(f"pre_nms_topn should be greater than 0{int(pre_nms_topn)}")
    boxes_per_image = height * width * count
    if (bbox_deltas.shape != (images, height, width, 4 * count)
            or anchors.size != 4 * boxes_per_image or image_info.shape != (images, 5)):
        raise _invalid(
            f"Expected bbox_deltas [{images},{height},{width},{4 * count}], anchors "
            f"[{height},{width},{4 * count}] and image_info [{images},5], got "
            f"{errors.shape_text(bbox_deltas.shape)}, {errors.shape_text(anchors.shape)} and "
            f"{errors.shape_text(image_info.shape)}")
    rois = np.zeros((images, post_nms_topn, 4), np.float32)
    probabilities = np.zeros((images, post_nms_topn), np.float32)
    anchors = anchors.reshape(-1, 4).astype(np.float32)
    for n in range(images):
        flat = scores[n].reshape(-1)
        best = np.argsort(-flat, kind="stable")[:int(pre_nms_topn)]
        boxes = _decode(anchors[best], bbox_deltas[n].reshape(-1, 4)[best],
                        image_info[n, 0], image_info[n, 1])
        sides = np.fmin(boxes[:, 2] - boxes[:, 0], boxes[:, 3] - boxes[:, 1])
        large = sides >= np.float32(min_size) * image_info[n, 2]
        boxes, best_scores = boxes[large], flat[best][large]
        kept = _greedy_nms(boxes, threshold, post_nms_topn)
        rois[n, :kept.size] = boxes[kept]
        probabilities[n, :kept.size] = best_scores[kept]
    return rois, probabilities


def _proposals_rule(scores, bbox_deltas, image_info, anchors, nms_threshold, pre_nms_topn,
                    min_size, post_nms_topn=300):
    inputs = [scores, bbox_deltas, image_info, anchors, nms_threshold, pre_nms_topn, min_size]
    for i, rank in enumerate((4, 4, 2, 3, 0, 0, 0)):
        rules.check_rank("GenerateBoundingBoxProposals", inputs, i, rank=rank)
    images = scores.shape[0] if scores.shape.rank is not None else None
    return [(TensorShape([images, post_nms_topn, 4]), _d.float32),
            (TensorShape([images, post_nms_topn]), _d.float32)]


_PROPOSALS = register("GenerateBoundingBoxProposals", _proposals_kernel, _proposals_rule,
                      multi=True, tied=(0, 1, 2, 3, 4, 6), dtypes=(_d.float32,))
register_gradient(_PROPOSALS.name)(no_registered_gradient)
tf_nodes[_PROPOSALS] = NodeForm(types={}, outputs=("rois", "roi_probabilities"))
tf_args[_PROPOSALS] = ("scores", "bbox_deltas", "image_info", "anchors", "nms_threshold",
                       "pre_nms_topn", "min_size")
batching_rules[_PROPOSALS] = PER_ELEMENT


@export("image.generate_bounding_box_proposals")
def generate_bounding_box_proposals(scores, bbox_deltas, image_info, anchors, nms_threshold=0.7,
                                    pre_nms_topn=6000, min_size=16, post_nms_topn=300,
                                    name=None):
    """Region proposals (Faster R-CNN): per image the `pre_nms_topn` best-scoring anchors
    (``anchors``: ``[height, width, 4 * num_anchors]``, boxes ``[y1, x1, y2, x2]``) moved by
    `bbox_deltas` (``[dy, dx, dh, dw]``), clipped to the image (`image_info` rows: height,
    width, scale, ...), those with a side under ``min_size * scale`` dropped, then
    non-maximum suppression: (rois ``[images, post_nms_topn, 4]``, their scores), zero-padded.

    >>> out = tf.image.generate_bounding_box_proposals(
    ...     tf.constant([[[[0.9, 0.8]]]]), tf.zeros([1, 1, 1, 8]), [[10., 10., 1., 0., 0.]],
    ...     [[[0., 0., 4., 4., 0., 1., 4., 5.]]], 0.5, min_size=1, post_nms_topn=2)
    >>> out.rois.numpy(), out.roi_probabilities.numpy()
    (array([[[0., 0., 4., 4.],
            [0., 0., 0., 0.]]], dtype=float32), array([[0.9, 0. ]], dtype=float32))
    """
    tensors = [convert_to_tensor(v, _d.float32) for v in (scores, bbox_deltas, image_info,
                                                          anchors, nms_threshold)]
    topn = convert_to_tensor(pre_nms_topn, _d.int32)
    size = convert_to_tensor(min_size, _d.float32)
    if not isinstance(post_nms_topn, (int, float, np.number)):  # (TF truncates a float)
        raise TypeError(f"Expected int for argument 'post_nms_topn' not {post_nms_topn!r}.")
    outputs = dispatch(_PROPOSALS, (*tensors, topn, size),
                       {"post_nms_topn": int(post_nms_topn)}, name=name)
    return GenerateBoundingBoxProposals(*outputs)


@export("image.psnr")
def psnr(a, b, max_val, name=None):
    """Peak signal-to-noise ratio of images `a` and `b` (over the last three axes), in dB:
    ``20 log10(max_val) - 10 log10(mse)``.

    >>> tf.image.psnr(tf.zeros([2, 2, 1]), tf.fill([2, 2, 1], 0.1), 1.0)
    <tf.Tensor: shape=(), dtype=float32, numpy=20.0>
    """
    a, b = as_tensor(a), as_tensor(b)
    max_val = convert_image_dtype(cast(max_val, a.dtype), _d.float32)
    a = convert_image_dtype(a, _d.float32)
    b = convert_image_dtype(b, _d.float32)
    # (as TF, the difference fails first for images of different shapes)
    mse = reduction_ops.reduce_mean(math_ops.squared_difference(a, b), [-3, -2, -1])
    _check_compatible(a, b)
    return math_ops.subtract(20 * math_ops.log(max_val) / math_ops.log(np.float32(10.0)),
                             np.float32(10 / np.log(10)) * math_ops.log(mse))


def _gaussian(size, sigma):
    """The `size` x `size` Gaussian filter of deviation `sigma` summing to 1, as its two
    1-D factors ``[size, 1, 1, 1]`` and ``[1, size, 1, 1]`` (TF's 2-D filter is their
    product: filtering by one then the other costs 2 size instead of size**2 per pixel)."""
    coords = cast(array_ops.range(size), sigma.dtype)
    coords = coords - cast(size - 1, sigma.dtype) / 2.0
    g = nn_ops.softmax(math_ops.square(coords) * (-0.5 / math_ops.square(sigma)))
    return array_ops.reshape(g, [size, 1, 1, 1]), array_ops.reshape(g, [1, size, 1, 1])


def _per_channel_filter(images, *kernels):
    """Each channel of a batch ``[n, h, w, c]`` filtered (VALID) by `kernels` in turn, each
    ``[kh, kw, 1, m]`` (m > 1 for the last only): ``[n, h', w', c, m]``. The channels go
    through the batch axis, so the filters' shapes stay static whatever the images' (a
    depthwise filter would need the channel count)."""
    shape = array_ops.shape(images)
    out = array_ops.expand_dims(array_ops.reshape(
        array_ops.transpose(images, [0, 3, 1, 2]), array_ops.concat([[-1], shape[1:3]], 0)), -1)
    for kernel in kernels:
        out = conv_ops.conv2d(out, kernel, [1, 1, 1, 1], "VALID")
    out_shape = array_ops.shape(out)
    out = array_ops.reshape(out, array_ops.concat([shape[:1], shape[3:], out_shape[1:]], 0))
    return array_ops.transpose(out, [0, 2, 3, 1, 4])


def _ssim_per_channel(img1, img2, max_val, filter_size, filter_sigma, k1, k2,
                      return_index_map=False):
    """(SSIM, contrast-structure) per channel, averaged over the image unless
    `return_index_map`."""
    for img in (img1, img2):
        dims = img.shape[-3:-1].as_list() if img.shape.rank is not None else [None, None]
        if None in dims:
            debugging_ops.assert_greater_equal(
                array_ops.shape(img)[-3:-1], filter_size,
                message=f"SSIM: image smaller than the {filter_size}x{filter_size} filter")
        elif min(dims) < filter_size and img.shape.is_fully_defined():  # TF's failed Assert
            raise errors.InvalidArgumentError(
                None, None, f"Expected 'tf.Tensor(False, shape=(), dtype=bool)' to be true. "
                            f"Summarized data: {', '.join(map(str, img.shape.as_list()))}\n"
                            f"{filter_size}")
        elif min(dims) < filter_size:
            raise errors.InvalidArgumentError(
                None, None, f"SSIM needs images of at least {filter_size}x{filter_size} "
                            f"pixels (the filter size), got shape {img.shape}")
    kernels = _gaussian(filter_size, convert_to_tensor(filter_sigma, img1.dtype))

    def reducer(x):
        shape = array_ops.shape(x)
        flat = array_ops.reshape(x, array_ops.concat([[-1], shape[-3:]], 0))
        y = array_ops.squeeze(_per_channel_filter(flat, *kernels), [-1])
        return array_ops.reshape(y, array_ops.concat([shape[:-3], array_ops.shape(y)[1:]], 0))

    c1 = (k1 * max_val) ** 2
    c2 = (k2 * max_val) ** 2
    mean1, mean2 = reducer(img1), reducer(img2)
    num0 = mean1 * mean2 * 2.0
    den0 = math_ops.square(mean1) + math_ops.square(mean2)
    luminance = (num0 + c1) / (den0 + c1)
    num1 = reducer(img1 * img2) * 2.0
    den1 = reducer(math_ops.square(img1) + math_ops.square(img2))
    cs = (num1 - num0 + c2) / (den1 - den0 + c2)
    if return_index_map:
        return luminance * cs, cs
    return (reduction_ops.reduce_mean(luminance * cs, [-3, -2]),
            reduction_ops.reduce_mean(cs, [-3, -2]))


def _as_float_pair(img1, img2, max_val):
    img1, img2 = as_tensor(img1), as_tensor(img2)
    _check_compatible(img1, img2)
    max_val = convert_image_dtype(cast(max_val, img1.dtype), _d.float32)
    return (convert_image_dtype(img1, _d.float32), convert_image_dtype(img2, _d.float32),
            max_val)


@export("image.ssim")
def ssim(img1, img2, max_val, filter_size=11, filter_sigma=1.5, k1=0.01, k2=0.03,
         return_index_map=False):
    """Structural similarity of two images (or batches) through an 11x11 Gaussian window:
    one value per image, or the map of values with `return_index_map`.

    >>> tf.image.ssim(tf.ones([11, 11, 1]), tf.ones([11, 11, 1]), 1.0)
    <tf.Tensor: shape=(), dtype=float32, numpy=1.0>
    """
    img1, img2, max_val = _as_float_pair(img1, img2, max_val)
    for img in (img1, img2):
        if not isinstance(img, EagerTensor):
            _check_filter_fits(img, filter_size)
    per_channel, _ = _ssim_per_channel(img1, img2, max_val, filter_size, filter_sigma, k1, k2,
                                       return_index_map)
    return reduction_ops.reduce_mean(per_channel, [-1])


def _check_filter_fits(img, filter_size):
    """TF's ValueError as a graph is built (from its filter's shape function) for images whose
    known height or width is under the filter's size; eagerly, its Assert fails first."""
    shape = img.shape
    if shape.rank is None or shape.rank < 3:
        return
    for dim in shape[-3:-1].as_list():
        if dim is not None and dim < filter_size:
            outer = shape[:-3]
            batch = outer.num_elements() if outer.is_fully_defined() else None
            raise ValueError(
                f"Negative dimension size caused by subtracting {filter_size} from {dim} for "
                f"'{{{{node SSIM/depthwise}}}} = DepthwiseConv2dNative[T=DT_FLOAT, "
                f"data_format=\"NHWC\", dilations=[1, 1, 1, 1], explicit_paddings=[], "
                f"padding=\"VALID\", strides=[1, 1, 1, 1]](SSIM/Reshape_4, SSIM/Tile)' with "
                f"input shapes: {errors.shape_text([batch] + shape[-3:].as_list())}, "
                f"[{filter_size},{filter_size},?,1].")


def _even(images):
    """A batch ``[n, h, w, c]`` with an odd height or width made even by repeating its last
    row or column (a symmetric padding of one)."""
    for axis in (1, 2):
        size = images.shape[axis]
        if size is not None:
            if size % 2:
                images = array_ops.concat([images, images[:, -1:] if axis == 1
                                           else images[:, :, -1:]], axis)
            continue
        size = array_ops.shape(images)[axis]
        rows = math_ops.minimum(array_ops.range(size + size % 2), size - 1)
        images = array_ops.gather(images, rows, axis=axis)
    return images


_MSSSIM_WEIGHTS = (0.0448, 0.2856, 0.3001, 0.2363, 0.1333)


@export("image.ssim_multiscale")
def ssim_multiscale(img1, img2, max_val, power_factors=_MSSSIM_WEIGHTS, filter_size=11,
                    filter_sigma=1.5, k1=0.01, k2=0.03):
    """Multi-scale SSIM: the contrast-structure terms of the images halved
    ``len(power_factors) - 1`` times and the SSIM of the smallest, weighted by
    `power_factors`.

    >>> tf.image.ssim_multiscale(tf.ones([176, 176, 1]), tf.ones([176, 176, 1]), 1.0)
    <tf.Tensor: shape=(), dtype=float32, numpy=1.0>
    """
    img1, img2, max_val = _as_float_pair(img1, img2, max_val)
    imgs = [img1, img2]
    heads = [array_ops.shape(x)[:-3] for x in imgs]
    mcs = []
    for k in range(len(power_factors)):
        if k > 0:
            flat = [array_ops.reshape(x, array_ops.concat([[-1], array_ops.shape(x)[-3:]], 0))
                    for x in imgs]
            padded = [_even(x) for x in flat]
            halved = [conv_ops.avg_pool(x, [1, 2, 2, 1], [1, 2, 2, 1], "VALID") for x in padded]
            imgs = [array_ops.reshape(x, array_ops.concat([h, array_ops.shape(x)[1:]], 0))
                    for x, h in zip(halved, heads)]
        per_channel, cs = _ssim_per_channel(imgs[0], imgs[1], max_val, filter_size,
                                            filter_sigma, k1, k2)
        mcs.append(nn_ops.relu(cs))
    mcs.pop()
    stacked = array_ops.stack(mcs + [nn_ops.relu(per_channel)], axis=-1)
    weights = convert_to_tensor(np.asarray(power_factors, np.float32), _d.float32)
    return reduction_ops.reduce_mean(
        reduction_ops.reduce_prod(math_ops.pow(stacked, weights), [-1]), [-1])


@export("image.total_variation")
def total_variation(images, name=None):
    """The sum of absolute differences of neighbouring pixels, per image of a batch.

    >>> tf.image.total_variation(tf.constant([[[1.0], [3.0]], [[2.0], [0.0]]]))
    <tf.Tensor: shape=(), dtype=float32, numpy=8.0>
    """
    images = as_tensor(images)
    rank = images.shape.rank
    if rank == 3:
        down = images[1:, :, :] - images[:-1, :, :]
        right = images[:, 1:, :] - images[:, :-1, :]
        axis = None
    elif rank == 4:
        down = images[:, 1:, :, :] - images[:, :-1, :, :]
        right = images[:, :, 1:, :] - images[:, :, :-1, :]
        axis = [1, 2, 3]
    else:
        raise ValueError("'images' must be either 3 or 4-dimensional.")
    return (reduction_ops.reduce_sum(math_ops.abs(down), axis=axis)
            + reduction_ops.reduce_sum(math_ops.abs(right), axis=axis))


@export("image.image_gradients")
def image_gradients(image):
    """(dy, dx): forward differences down and across a batch ``[b, h, w, d]``, zero in the
    last row (dy) and column (dx).

    >>> dy, dx = tf.image.image_gradients(tf.reshape(tf.range(4.0), [1, 2, 2, 1]))
    >>> tf.reshape(dy, [-1]).numpy(), tf.reshape(dx, [-1]).numpy()
    (array([2., 2., 0., 0.], dtype=float32), array([1., 0., 1., 0.], dtype=float32))
    """
    image = as_tensor(image)
    if image.shape.rank != 4:
        raise ValueError(f"image_gradients expects a 4D tensor [batch_size, h, w, d], not "
                         f"{image.shape}.")
    dy = image[:, 1:, :, :] - image[:, :-1, :, :]
    dx = image[:, :, 1:, :] - image[:, :, :-1, :]
    dy = array_ops.concat([dy, array_ops.zeros_like(image[:, :1, :, :])], 1)
    dx = array_ops.concat([dx, array_ops.zeros_like(image[:, :, :1, :])], 2)
    return dy, dx


_SOBEL = np.expand_dims(np.transpose(np.asarray(
    [[[-1, -2, -1], [0, 0, 0], [1, 2, 1]], [[-1, 0, 1], [-2, 0, 2], [-1, 0, 1]]]), (1, 2, 0)), -2)


@export("image.sobel_edges")
def sobel_edges(image):
    """Sobel filter responses of a batch ``[b, h, w, d]``, a new last axis holding the
    vertical (dy) and horizontal (dx) ones; edges mirrored.

    >>> tf.image.sobel_edges(tf.ones([1, 3, 3, 1])).shape
    TensorShape([1, 3, 3, 1, 2])
    """
    image = as_tensor(image)
    static = image.shape
    kernels = convert_to_tensor(_SOBEL.astype(image.dtype.as_numpy_dtype), image.dtype)
    if static.rank is not None and static[1:3].is_fully_defined():
        padded = array_ops.pad(image, [[0, 0], [1, 1], [1, 1], [0, 0]], mode="REFLECT")
    else:  # the same reflection as a gather, whose gradient takes sizes known at run time
        padded = image
        for axis in (1, 2):
            size = array_ops.shape(image)[axis]
            rows = array_ops.concat([[1], array_ops.range(size), [size - 2]], 0)
            padded = array_ops.gather(padded, rows, axis=axis)
    output = _per_channel_filter(padded, kernels)
    if static.rank is not None:
        output.set_shape(static.concatenate([2]))
    return output
