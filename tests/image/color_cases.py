"""Cases of the colour, augmentation, metric and suppression ops of ``tf.image``, run by both
TensorFlow (record_tf_color.py writes its outputs to data/color_tf.npz) and eagerflow
(test_color_values.py compares them).

A case is ``Case(name, fn, inputs)``: ``fn(tf, *tensors)`` returns a tensor or a tuple of
them; `inputs` name arrays of `INPUTS`. `traced`: whether the case also runs inside
`function` (with static shapes and with every dim unknown; "static": static shapes only);
`seeded`: it draws from the
global seed, set to 1 before it runs.
"""
import numpy as np


def _rng(seed):
    return np.random.default_rng(seed)


def _rgb(shape, seed):
    x = _rng(seed).uniform(0, 1, shape).astype(np.float32)
    flat = x.reshape(-1, 3)
    # edge pixels: grey, pure and saturated colours, black, white, ties of the largest
    edges = [[0.5, 0.5, 0.5], [1, 0, 0], [0, 1, 0], [0, 0, 1], [0, 0, 0], [1, 1, 1],
             [0.8, 0.8, 0.2], [0.3, 0.9, 0.9], [0.7, 0.2, 0.7], [1, 1, 0]]
    flat[:len(edges)] = edges
    return x


def _boxes(n, seed, flip=True):
    rng = _rng(seed)
    corner = rng.uniform(0, 10, (n, 2))
    size = rng.uniform(0.5, 4, (n, 2))
    boxes = np.concatenate([corner, corner + size], 1).astype(np.float32)
    if flip:  # some boxes given by the other two corners
        boxes[::3] = boxes[::3][:, [2, 3, 0, 1]]
        boxes[5] = [1, 1, 1, 3]  # empty
    return boxes


def _scores(n, seed):
    s = _rng(seed).uniform(0, 1, n).astype(np.float32)
    s[7] = s[3]  # a tie
    return s


_RGB = _rgb((4, 5, 3), 0)
_PAIR = _rng(3).uniform(0, 1, (2, 16, 16, 3)).astype(np.float32)
_BIG = _rng(4).uniform(0, 1, (1, 180, 181, 1)).astype(np.float32)
_BOXES = _boxes(60, 5)
_MANY = _boxes(1000, 6, flip=False) * 10

INPUTS = {
    "rgb": _RGB,
    "rgb_batch": _rgb((2, 3, 4, 3), 1),
    "rgb_u8": (_rgb((4, 5, 3), 2) * 255).round().astype(np.uint8),
    "rgb_f16": _RGB.astype(np.float16),
    "rgb_u16": (_RGB * 65535).round().astype(np.uint16),
    "rgb_i8": (_RGB * 127).round().astype(np.int8),
    "rgb_i32": (_RGB.astype(np.float64) * 2147483647).round().astype(np.int32),
    "rgb_f64": _RGB.astype(np.float64),
    "rgb_wide": (_RGB * 2 - 0.5).astype(np.float32),  # outside [0, 1], negatives too
    "rgb_nan": np.where(np.arange(60).reshape(4, 5, 3) == 31, np.nan, _RGB).astype(np.float32),
    "rgb_inf": np.where(np.arange(60).reshape(4, 5, 3) % 7 == 3, np.inf,
                        np.where(np.arange(60).reshape(4, 5, 3) % 11 == 5, -np.inf, _RGB)
                        ).astype(np.float32),
    "hsv": _rng(7).uniform(0, 1, (4, 5, 3)).astype(np.float32),
    "hsv_f64": _rng(7).uniform(0, 1, (4, 5, 3)),
    "gray": _rng(8).uniform(0, 1, (4, 5, 1)).astype(np.float32),
    "flat": np.full((3, 4, 3), 0.25, np.float32),
    "img_a": _PAIR,
    "img_b": np.clip(_PAIR + _rng(9).normal(0, 0.1, _PAIR.shape), 0, 1).astype(np.float32),
    "img_a_u8": (_PAIR * 255).astype(np.uint8),
    "img_b_u8": (np.clip(_PAIR + _rng(9).normal(0, 0.1, _PAIR.shape), 0, 1) * 255).astype(
        np.uint8),
    "big_a": _BIG,
    "big_b": np.clip(_BIG + _rng(10).normal(0, 0.05, _BIG.shape), 0, 1).astype(np.float32),
    "boxes": _BOXES,
    "scores": _scores(60, 11),
    "boxes_f16": _BOXES.astype(np.float16),
    "scores_f16": _scores(60, 11).astype(np.float16),
    "many_boxes": _MANY,
    "many_scores": _rng(12).uniform(0, 1, 1000).astype(np.float32),
    "boxes_batch": np.stack([_boxes(30, 13, flip=False), _boxes(30, 14, flip=False)]),
    "scores_batch": _rng(15).uniform(0, 1, (2, 30)).astype(np.float32),
    "det_boxes": _rng(18).uniform(-0.1, 1.1, (2, 40, 1, 4)).astype(np.float32),
    "det_class_boxes": _rng(19).uniform(-0.1, 1.1, (2, 40, 3, 4)).astype(np.float32),
    "det_scores": _rng(20).uniform(0, 1, (2, 40, 3)).astype(np.float32),
    "signed_boxes": _boxes(40, 21, flip=False) - 6,  # some with no coordinate above 0
    "signed_scores": _rng(22).uniform(0, 1, 40).astype(np.float32),
    "overlaps": _rng(16).uniform(0, 1, (20, 20)).astype(np.float32),
    "overlap_scores": _rng(17).uniform(0, 1, 20).astype(np.float32),
}


class Case:
    def __init__(self, name, fn, inputs, traced=True, seeded=False):
        self.name, self.fn, self.inputs = name, fn, inputs
        self.traced, self.seeded = traced, seeded


def _grad(fn):
    """The gradient of ``sum(fn(tf, x) * weights)`` with respect to `x`."""
    def run(tf, x, *rest):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = fn(tf, x, *rest)
            weights = tf.cos(tf.cast(tf.range(tf.size(y)), y.dtype))
            loss = tf.reduce_sum(tf.reshape(y, [-1]) * weights)
        return tape.gradient(loss, x)
    return run


CASES = [
    # colour spaces
    *(Case(f"rgb_to_hsv/{i}", lambda tf, x: tf.image.rgb_to_hsv(x), [i])
      for i in ("rgb", "rgb_batch", "rgb_f16", "rgb_f64", "rgb_wide", "rgb_nan")),
    *(Case(f"hsv_to_rgb/{i}", lambda tf, x: tf.image.hsv_to_rgb(x), [i])
      for i in ("hsv", "hsv_f64")),
    Case("hsv_round_trip", lambda tf, x: tf.image.hsv_to_rgb(tf.image.rgb_to_hsv(x)), ["rgb"]),
    Case("grad/rgb_to_hsv", _grad(lambda tf, x: tf.image.rgb_to_hsv(x)), ["hsv"]),
    Case("grad/rgb_to_hsv_f64", _grad(lambda tf, x: tf.image.rgb_to_hsv(x)), ["hsv_f64"]),
    *(Case(f"{f}/{i}", lambda tf, x, f=f: getattr(tf.image, f)(x), [i])
      for f in ("rgb_to_yiq", "yiq_to_rgb", "rgb_to_yuv", "yuv_to_rgb")
      for i in ("rgb", "rgb_batch")),
    *(Case(f"rgb_to_grayscale/{i}", lambda tf, x: tf.image.rgb_to_grayscale(x), [i])
      for i in ("rgb", "rgb_batch", "rgb_u8", "rgb_f64")),
    Case("grayscale_to_rgb", lambda tf, x: tf.image.grayscale_to_rgb(x), ["gray"]),
    # adjustments
    *(Case(f"adjust_brightness/{i}/{d}",
           lambda tf, x, d=d: tf.image.adjust_brightness(x, d), [i])
      for i in ("rgb", "rgb_u8", "rgb_f64", "rgb_f16") for d in (0.2, -0.5)),
    Case("grad/adjust_brightness", _grad(lambda tf, x: tf.image.adjust_brightness(x, 0.3)),
         ["rgb"]),
    *(Case(f"adjust_contrast/{i}/{f}", lambda tf, x, f=f: tf.image.adjust_contrast(x, f), [i])
      for i in ("rgb", "rgb_batch", "rgb_u8", "rgb_f16", "rgb_f64") for f in (1.7, 0.4)),
    *(Case(f"adjust_saturation/{i}/{f}",
           lambda tf, x, f=f: tf.image.adjust_saturation(x, f), [i])
      for i in ("rgb", "rgb_batch", "rgb_u8", "rgb_f16", "rgb_wide") for f in (0.4, 2.5)),
    *(Case(f"adjust_hue/{i}/{d}", lambda tf, x, d=d: tf.image.adjust_hue(x, d), [i])
      for i in ("rgb", "rgb_batch", "rgb_u8", "rgb_f16", "rgb_f64", "rgb_wide")
      for d in (0.2, -0.7, 1.0)),
    *(Case(f"adjust_gamma/{i}/{g}", lambda tf, x, g=g: tf.image.adjust_gamma(x, *g), [i])
      for i in ("rgb", "rgb_u8") for g in ((0.5, 1.0), (2, 1.5))),
    *(Case(f"per_image_standardization/{i}",
           lambda tf, x: tf.image.per_image_standardization(x), [i])
      for i in ("rgb", "rgb_batch", "rgb_u8", "flat")),
    Case("grad/per_image_standardization",
         _grad(lambda tf, x: tf.image.per_image_standardization(x)), ["rgb"]),
    # random augmentations (global seed 1)
    Case("random_brightness", lambda tf, x: tf.image.random_brightness(x, 0.5, seed=2), ["rgb"],
         traced=False, seeded=True),
    Case("random_contrast", lambda tf, x: tf.image.random_contrast(x, 0.2, 1.8, seed=2), ["rgb"],
         traced=False, seeded=True),
    Case("random_saturation", lambda tf, x: tf.image.random_saturation(x, 0.2, 1.8, seed=2),
         ["rgb"], traced=False, seeded=True),
    Case("random_hue", lambda tf, x: tf.image.random_hue(x, 0.4, seed=2), ["rgb"],
         traced=False, seeded=True),
    Case("random_twice", lambda tf, x: (tf.image.random_brightness(x, 0.5, seed=3),
                                        tf.image.random_brightness(x, 0.5, seed=3)), ["rgb"],
         traced=False, seeded=True),
    Case("stateless_random_brightness",
         lambda tf, x: tf.image.stateless_random_brightness(x, 0.5, seed=(1, 2)), ["rgb"]),
    Case("stateless_random_contrast",
         lambda tf, x: tf.image.stateless_random_contrast(x, 0.2, 1.8, seed=(1, 2)), ["rgb"]),
    Case("stateless_random_saturation",
         lambda tf, x: tf.image.stateless_random_saturation(x, 0.2, 1.8, seed=(3, 4)), ["rgb_u8"]),
    Case("stateless_random_hue",
         lambda tf, x: tf.image.stateless_random_hue(x, 0.4, seed=(5, 6)), ["rgb_batch"]),
    # metrics
    Case("psnr/f32", lambda tf, a, b: tf.image.psnr(a, b, 1.0), ["img_a", "img_b"]),
    Case("psnr/u8", lambda tf, a, b: tf.image.psnr(a, b, 255), ["img_a_u8", "img_b_u8"]),
    Case("grad/psnr", _grad(lambda tf, a, b: tf.image.psnr(a, b, 1.0)), ["img_a", "img_b"]),
    Case("ssim/f32", lambda tf, a, b: tf.image.ssim(a, b, 1.0), ["img_a", "img_b"]),
    Case("ssim/u8", lambda tf, a, b: tf.image.ssim(a, b, 255), ["img_a_u8", "img_b_u8"]),
    Case("ssim/map", lambda tf, a, b: tf.image.ssim(a, b, 1.0, filter_size=7, filter_sigma=1.0,
                                                    return_index_map=True), ["img_a", "img_b"]),
    Case("grad/ssim", _grad(lambda tf, a, b: tf.image.ssim(a, b, 1.0)), ["img_a", "img_b"]),
    Case("ssim_multiscale", lambda tf, a, b: tf.image.ssim_multiscale(a, b, 1.0),
         ["big_a", "big_b"]),
    Case("ssim_multiscale/3", lambda tf, a, b: tf.image.ssim_multiscale(
        a, b, 1.0, power_factors=(0.2, 0.3, 0.5), filter_size=3, filter_sigma=0.8),
        ["img_a", "img_b"]),
    Case("total_variation/3d", lambda tf, x: tf.image.total_variation(x), ["rgb"]),
    Case("total_variation/4d", lambda tf, x: tf.image.total_variation(x), ["img_a"]),
    Case("grad/total_variation", _grad(lambda tf, x: tf.image.total_variation(x)), ["img_a"]),
    Case("image_gradients", lambda tf, x: tf.image.image_gradients(x), ["rgb_batch"]),
    Case("sobel_edges", lambda tf, x: tf.image.sobel_edges(x), ["img_a"]),
    Case("grad/sobel_edges", _grad(lambda tf, x: tf.image.sobel_edges(x)), ["img_a"]),
    # suppression
    Case("nms/default", lambda tf, b, s: tf.image.non_max_suppression(b, s, 10),
         ["boxes", "scores"]),
    Case("nms/all", lambda tf, b, s: tf.image.non_max_suppression(b, s, 100, 0.3),
         ["boxes", "scores"]),
    Case("nms/zero_iou", lambda tf, b, s: tf.image.non_max_suppression(b, s, 100, 0.0),
         ["boxes", "scores"]),
    Case("nms/score_threshold", lambda tf, b, s: tf.image.non_max_suppression(
        b, s, 100, 0.6, score_threshold=0.4), ["boxes", "scores"]),
    Case("nms/none", lambda tf, b, s: tf.image.non_max_suppression(b, s, 0), ["boxes", "scores"]),
    Case("nms/f16", lambda tf, b, s: tf.image.non_max_suppression(b, s, 20, 0.4),
         ["boxes_f16", "scores_f16"]),
    Case("nms/many", lambda tf, b, s: tf.image.non_max_suppression(b, s, 1000, 0.5),
         ["many_boxes", "many_scores"]),
    Case("nms/with_scores", lambda tf, b, s: tf.image.non_max_suppression_with_scores(
        b, s, 30, 0.5), ["boxes", "scores"]),
    Case("nms/soft", lambda tf, b, s: tf.image.non_max_suppression_with_scores(
        b, s, 30, 0.5, soft_nms_sigma=0.5), ["boxes", "scores"]),
    Case("nms/soft_threshold", lambda tf, b, s: tf.image.non_max_suppression_with_scores(
        b, s, 60, 1.0, score_threshold=0.2, soft_nms_sigma=0.3), ["boxes", "scores"]),
    Case("nms/soft_many", lambda tf, b, s: tf.image.non_max_suppression_with_scores(
        b, s, 200, 0.5, soft_nms_sigma=0.5), ["many_boxes", "many_scores"]),
    Case("nms/overlaps", lambda tf, o, s: tf.image.non_max_suppression_overlaps(o, s, 10, 0.6),
         ["overlaps", "overlap_scores"]),
    Case("nms/padded", lambda tf, b, s: tf.image.non_max_suppression_padded(
        b, s, 20, 0.5, pad_to_max_output_size=True), ["boxes", "scores"], traced="static"),
    Case("nms/padded_unpadded", lambda tf, b, s: tf.image.non_max_suppression_padded(
        b, s, 20, 0.5), ["boxes", "scores"], traced="static"),
    Case("nms/padded_batch", lambda tf, b, s: tf.image.non_max_suppression_padded(
        b, s, 8, 0.3, score_threshold=0.2, pad_to_max_output_size=True),
        ["boxes_batch", "scores_batch"], traced="static"),
    Case("combined_nms", lambda tf, b, s: tuple(tf.image.combined_non_max_suppression(
        b, s, 5, 12, 0.4, 0.1)), ["det_boxes", "det_scores"]),
    Case("combined_nms/per_class_boxes", lambda tf, b, s: tuple(
        tf.image.combined_non_max_suppression(b, s, 4, 100, 0.5, clip_boxes=False)),
        ["det_class_boxes", "det_scores"]),
    Case("combined_nms/pad_per_class", lambda tf, b, s: tuple(
        tf.image.combined_non_max_suppression(b, s, 3, 100, 0.5, 0.3, pad_per_class=True)),
        ["det_boxes", "det_scores"]),
    Case("nms/padded_nonpositive", lambda tf, b, s: tf.image.non_max_suppression_padded(
        b, s, 30, 0.3, score_threshold=0.1, pad_to_max_output_size=True),
        ["signed_boxes", "signed_scores"], traced="static"),
    # other integer image types go through float32 and back as TF's do
    *(Case(f"{f}/{i}", lambda tf, x, f=f: fn(tf, x), [i])
      for f, fn in (("brightness", lambda tf, x: tf.image.adjust_brightness(x, 0.3)),
                    ("contrast", lambda tf, x: tf.image.adjust_contrast(x, 1.4)),
                    ("hue", lambda tf, x: tf.image.adjust_hue(x, 0.3)),
                    ("saturation", lambda tf, x: tf.image.adjust_saturation(x, 1.6)),
                    ("gamma", lambda tf, x: tf.image.adjust_gamma(x, 0.7)),
                    ("grayscale", lambda tf, x: tf.image.rgb_to_grayscale(x)),
                    ("standardization", lambda tf, x: tf.image.per_image_standardization(x)))
      for i in ("rgb_u16", "rgb_i8", "rgb_i32")),
    Case("psnr/u16", lambda tf, a: tf.image.psnr(a, a // 2, 65535), ["rgb_u16"]),
    # non-finite values
    Case("rgb_to_hsv/rgb_inf", lambda tf, x: tf.image.rgb_to_hsv(x), ["rgb_inf"]),
    Case("adjust_brightness/rgb_inf", lambda tf, x: tf.image.adjust_brightness(x, 0.1),
         ["rgb_inf"]),
    Case("psnr/identical", lambda tf, a: tf.image.psnr(a, a, 1.0), ["img_a"]),
    Case("ssim/identical", lambda tf, a: tf.image.ssim(a, a, 1.0), ["img_a"]),
    Case("ssim/constant", lambda tf, a: tf.image.ssim(a * 0, a * 0, 1.0), ["img_a"]),
    Case("total_variation/inf", lambda tf, x: tf.image.total_variation(x), ["rgb_inf"]),
]
