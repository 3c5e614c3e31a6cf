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


def _decoded(anchor, delta, height, width):
    """A proposal box (y1, x1, y2, x2) as TF's GPU kernel decodes it, in float32 scalars."""
    f32, cap = np.float32, np.float32(np.log(1000 / 16))
    out = {}
    for lo, hi, shift, grow, limit in ((0, 2, 0, 2, height), (1, 3, 1, 3, width)):
        size = f32(anchor[hi] - anchor[lo])
        centre = f32(f32(anchor[lo] + f32(0.5) * size) + size * delta[shift])
        new_size = f32(size * np.exp(min(delta[grow], cap)))
        out[lo] = max(min(f32(centre - f32(0.5) * new_size), limit), 0)
        out[hi] = max(min(f32(centre + f32(0.5) * new_size), limit), 0)
    return [out[i] for i in range(4)]


def _proposals(scores, deltas, info, anchors, threshold, pre, min_size, post):
    """generate_bounding_box_proposals with plain loops, step by step as TF's GPU kernel."""
    f32 = np.float32
    rois, probs = np.zeros((len(scores), post, 4), f32), np.zeros((len(scores), post), f32)
    anchors = anchors.reshape(-1, 4)
    for n in range(len(scores)):
        flat, moves = scores[n].reshape(-1), deltas[n].reshape(-1, 4)
        order = sorted(range(flat.size), key=lambda k: (-flat[k], k))[:pre]
        found = []
        for k in order:
            box = _decoded(anchors[k], moves[k], info[n, 0], info[n, 1])
            if min(f32(box[2] - box[0]), f32(box[3] - box[1])) >= f32(min_size) * info[n, 2]:
                found.append((box, flat[k]))
        kept = []
        for box, score in found:
            area = f32((box[2] - box[0]) * (box[3] - box[1]))
            for other, _ in kept:
                other_area = f32((other[2] - other[0]) * (other[3] - other[1]))
                inter = f32(max(f32(min(box[2], other[2]) - max(box[0], other[0])), 0) *
                            max(f32(min(box[3], other[3]) - max(box[1], other[1])), 0))
                if area and other_area and inter > f32(area + other_area - inter) * f32(threshold):
                    break
            else:
                kept.append((box, score))
                if len(kept) == post:
                    break
        for i, (box, score) in enumerate(kept):
            rois[n, i], probs[n, i] = box, score
    return rois, probs


def _proposal_inputs(seed, images=2, height=3, width=4, count=2):
    rng = np.random.default_rng(seed)
    scores = np.round(rng.random((images, height, width, count)) * 8) / 8  # with ties
    deltas = rng.normal(0, 0.4, (images, height, width, 4 * count))
    info = np.stack([rng.uniform(20, 40, images), rng.uniform(20, 40, images),
                     [1.0, 0.5][:images], np.zeros(images), np.zeros(images)], 1)
    centres = np.stack(np.meshgrid(np.arange(height) * 8 + 4, np.arange(width) * 8 + 4,
                                   indexing="ij"), -1)[:, :, None]
    half = rng.uniform(2, 10, (height, width, count, 1))
    anchors = np.concatenate([centres - half, centres + half], -1)[..., [0, 1, 2, 3]]
    return [a.astype(np.float32) for a in (scores, deltas, info, anchors.reshape(
        height, width, 4 * count))]


SPECS += [
    OpSpec("GenerateBoundingBoxProposals",
           lambda s, d, i, a, t=t, pre=pre, size=size, post=post: tuple(
               tf.image.generate_bounding_box_proposals(s, d, i, a, t, pre, size, post)),
           _proposal_inputs(seed),
           lambda s, d, i, a, t=t, pre=pre, size=size, post=post: _proposals(
               s, d, i, a, t, pre, size, post),
           rtol=0, atol=0, grad="no gradient in TensorFlow",
           name=f"GenerateBoundingBoxProposals-{seed}")
    for seed, t, pre, size, post in ((0, 0.7, 6000, 2, 10), (1, 0.3, 9, 4, 5),
                                     (2, 0.0, 30, 0, 3), (3, 1.0, 1, 16, 4))]
