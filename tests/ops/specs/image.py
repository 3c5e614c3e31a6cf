"""Specs of the image ops (image_color_ops.py, image_metrics_ops.py), against references
written with the standard library's `colorsys` and plain loops."""
import colorsys

import numpy as np

import eagerflow as tf
from tests.ops.spec import OpSpec


def _pixels(seed, shape=(2, 3, 3)):
    # distinct channels in (0.05, 0.95): no ties, so the HSV branches stay put under
    # the finite differences of the gradient check
    rng = np.random.default_rng(seed)
    x = rng.uniform(0.05, 0.95, shape)
    return x.astype(np.float32)


def _per_pixel(fn, x):
    flat = x.reshape(-1, 3).astype(np.float64)
    return np.asarray([fn(*p) for p in flat]).reshape(x.shape).astype(x.dtype)


def _hue(delta):
    def shift(r, g, b):
        h, s, v = colorsys.rgb_to_hsv(r, g, b)
        return colorsys.hsv_to_rgb((h + delta) % 1.0, s, v)
    return shift


def _saturation(scale):
    def scaled(r, g, b):
        h, s, v = colorsys.rgb_to_hsv(r, g, b)
        return colorsys.hsv_to_rgb(h, min(max(s * scale, 0.0), 1.0), v)
    return scaled


def _iou(a, b):
    ya, yb = sorted(a[[0, 2]]), sorted(b[[0, 2]])
    xa, xb = sorted(a[[1, 3]]), sorted(b[[1, 3]])
    area_a = (ya[1] - ya[0]) * (xa[1] - xa[0])
    area_b = (yb[1] - yb[0]) * (xb[1] - xb[0])
    if area_a <= 0 or area_b <= 0:
        return 0.0
    inter = (max(min(ya[1], yb[1]) - max(ya[0], yb[0]), 0)
             * max(min(xa[1], xb[1]) - max(xa[0], xb[0]), 0))
    return inter / (area_a + area_b - inter)


def _greedy(similar, scores, size, threshold, score_threshold=-np.inf):
    order = sorted(range(len(scores)), key=lambda i: (-scores[i], i))
    kept = []
    for i in order:
        if len(kept) == size or scores[i] <= score_threshold:
            break
        if all(similar(k, i) <= threshold for k in kept):
            kept.append(i)
    return np.asarray(kept, np.int32)


def _soft(boxes, scores, size, sigma):
    scores = [float(s) for s in scores]
    alive = set(range(len(scores)))
    kept, kept_scores = [], []
    while alive and len(kept) < size:
        best = min(alive, key=lambda i: (-scores[i], i))
        kept.append(best)
        kept_scores.append(scores[best])
        alive.discard(best)
        for i in list(alive):
            scores[i] *= np.exp(-0.5 / sigma * _iou(boxes[best], boxes[i]) ** 2)
    return np.asarray(kept, np.int32), np.asarray(kept_scores, np.float32)


_BOXES = np.asarray([[0, 0, 1, 1], [0, 0.1, 1, 1.1], [0, -0.1, 1, 0.9], [0, 10, 1, 11],
                     [1, 11, 0, 10.1], [0, 100, 1, 101]], np.float32)
_SCORES = np.asarray([0.9, 0.75, 0.6, 0.95, 0.5, 0.3], np.float32)
_OVERLAPS = np.random.default_rng(3).uniform(0, 1, (6, 6)).astype(np.float32)


def _padded(kept, size):
    return np.pad(kept, (0, size - kept.size)), np.int32(kept.size)


def _combined(boxes, scores):
    found = []  # (score, class, box) of each class's two best after suppression
    for c in range(scores.shape[-1]):
        kept = _greedy(_box_iou, scores[0, :, c], 2, 0.5)
        found += [(scores[0, i, c], c, i) for i in kept]
    found = sorted(found, key=lambda f: -f[0])[:4]
    return (np.clip(boxes[0, [f[2] for f in found], 0], 0, 1)[None],
            np.asarray([[f[0] for f in found]], np.float32),
            np.asarray([[f[1] for f in found]], np.float32), np.asarray([len(found)], np.int32))


def _box_iou(i, j):
    return _iou(_BOXES[i], _BOXES[j])


SPECS = [
    OpSpec("RGBToHSV", tf.image.rgb_to_hsv, [_pixels(0)],
           lambda x: _per_pixel(colorsys.rgb_to_hsv, x), rtol=1e-5, atol=1e-6),
    OpSpec("RGBToHSV", tf.image.rgb_to_hsv, [_pixels(1, (2, 2, 2, 3)).astype(np.float64)],
           lambda x: _per_pixel(colorsys.rgb_to_hsv, x), name="RGBToHSV-batch-float64",
           grad="checked by the float32 spec, in float64"),
    OpSpec("HSVToRGB", tf.image.hsv_to_rgb, [_pixels(2)],
           lambda x: _per_pixel(colorsys.hsv_to_rgb, x), rtol=1e-5, atol=1e-6,
           grad="no gradient in TensorFlow"),
    OpSpec("AdjustHue", lambda x: tf.image.adjust_hue(x, 0.3), [_pixels(3)],
           lambda x: _per_pixel(_hue(0.3), x), rtol=1e-5, atol=1e-6,
           grad="no gradient in TensorFlow"),
    OpSpec("AdjustHue", lambda x: tf.image.adjust_hue(x, -0.8), [_pixels(4, (2, 2, 2, 3))],
           lambda x: _per_pixel(_hue(-0.8), x), rtol=1e-5, atol=1e-6,
           grad="no gradient in TensorFlow", name="AdjustHue-batch"),
    OpSpec("AdjustSaturation", lambda x: tf.image.adjust_saturation(x, 1.7), [_pixels(5)],
           lambda x: _per_pixel(_saturation(1.7), x), rtol=1e-5, atol=1e-6,
           grad="no gradient in TensorFlow"),
    OpSpec("AdjustContrastv2", lambda x: tf.image.adjust_contrast(x, 1.5),
           [_pixels(6, (2, 3, 4, 3))],
           lambda x: (x - x.mean((-3, -2), keepdims=True)) * 1.5 + x.mean((-3, -2),
                                                                          keepdims=True),
           rtol=1e-5, atol=1e-6, grad="no gradient in TensorFlow"),
    OpSpec("NonMaxSuppressionV3", lambda b, s: tf.image.non_max_suppression(b, s, 5, 0.5),
           [_BOXES, _SCORES], lambda b, s: _greedy(_box_iou, s, 5, 0.5),
           grad="integer indices"),
    OpSpec("NonMaxSuppressionV4",
           lambda b, s: tf.image.non_max_suppression_padded(b, s, 5, 0.5,
                                                            pad_to_max_output_size=True),
           [_BOXES, _SCORES],
           lambda b, s: _padded(_greedy(_box_iou, s, 5, 0.5), 5),
           grad="integer indices"),
    OpSpec("NonMaxSuppressionV5",
           lambda b, s: tf.image.non_max_suppression_with_scores(b, s, 4, 0.5,
                                                                 score_threshold=0.55),
           [_BOXES, _SCORES],
           lambda b, s: (_greedy(_box_iou, s, 4, 0.5, 0.55),
                         s[_greedy(_box_iou, s, 4, 0.5, 0.55)]),
           grad="no gradient in TensorFlow"),
    OpSpec("NonMaxSuppressionV5",
           lambda b, s: tf.image.non_max_suppression_with_scores(b, s, 6, soft_nms_sigma=0.5),
           [_BOXES, _SCORES], lambda b, s: _soft(b, s, 6, 0.5),
           grad="no gradient in TensorFlow", name="NonMaxSuppressionV5-soft"),
    OpSpec("NonMaxSuppressionWithOverlaps",
           lambda o, s: tf.image.non_max_suppression_overlaps(o, s, 4, 0.5),
           [_OVERLAPS, _SCORES],
           lambda o, s: _greedy(lambda k, i: o[i, k], s, 4, 0.5), grad="integer indices"),
    OpSpec("CombinedNonMaxSuppression",
           lambda b, s: tuple(tf.image.combined_non_max_suppression(b, s, 2, 4, 0.5)),
           [_BOXES[None, :, None], np.stack([_SCORES, _SCORES[::-1]], -1)[None]],
           _combined, grad="no gradient in TensorFlow"),
]
