"""Specs of the image ops of image_ops.py (resizing, patches, crops, boxes): references are
TensorFlow's recorded outputs of the same inputs (tests/image/data, see tests/image/record_tf.py).

The resize ops compute in float32 whatever the input, so their gradients are checked in
float32 (the sweep's looser check of specs tied to their dtype).
"""
import numpy as np

import eagerflow as tf
from tests.image import geometry_cases
from tests.image.geometry_cases import image
from tests.image.tf_data import load
from tests.ops.spec import OpSpec

TF = load("geometry")


def _recorded(case, index=0):
    return lambda *_: TF[case][index]


def _float32_only(fn):
    """`fn` for float32 inputs only: the gradient sweep then checks it in float32."""
    def run(*tensors):
        if any(t.dtype == tf.float64 for t in tensors):
            raise TypeError("this spec runs in float32")
        return fn(*tensors)
    return run


def _vjp(fn, x, dy):
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = fn(x)
    return tape.gradient(y, x, output_gradients=dy)


_V1 = {"ResizeBilinear": ("bilinear", "resize_bilinear"),
       "ResizeNearestNeighbor": ("nearest", "resize_nearest_neighbor"),
       "ResizeBicubic": ("bicubic", "resize_bicubic"), "ResizeArea": ("area", "resize_area")}
_SHAPES = (((2, 5, 7, 2), (3, 4)), ((1, 4, 3, 1), (9, 7)))


def _v1_specs():
    specs = []
    for op, (method, fn_name) in _V1.items():
        fn = getattr(tf.compat.v1.image, fn_name)
        for align, half in ((False, False), (True, False), (False, True)):
            if method == "area" and half:
                continue
            kwargs = {} if method == "area" else {"half_pixel_centers": half}
            for i, (shape, size) in enumerate(_SHAPES):
                tag = f"{int(align)}{int(half)}-{i}"

                def resize(x, fn=fn, size=size, align=align, kwargs=kwargs):
                    return fn(x, size, align_corners=align, **kwargs)
                specs.append(OpSpec(op, _float32_only(resize), [image(*shape)],
                                    _recorded(f"v1-{method}-{tag}"), name=f"{op}-{tag}",
                                    grad=True if method != "area" else "no gradient in TF"))
                if method == "area":
                    continue
                y_shape = (shape[0], *size, shape[3])
                grad_op = {"bilinear": "ResizeBilinearGrad", "bicubic": "ResizeBicubicGrad",
                           "nearest": "ResizeNearestNeighborGrad"}[method]
                specs.append(OpSpec(
                    grad_op, _float32_only(lambda x, dy, resize=resize: _vjp(resize, x, dy)),
                    [image(*shape), image(*y_shape, seed=1)], _recorded(f"grad-{method}-{tag}"),
                    name=f"{grad_op}-{tag}",
                    grad=True if method != "bilinear" else "not differentiable in TF"))
    return specs


def _span_specs():
    specs = []
    for method in ("lanczos3", "lanczos5", "gaussian", "mitchellcubic"):
        for aa in ("plain", "aa"):
            def resize(x, m=method, a=aa == "aa"):
                return tf.image.resize(x, (3, 4), m, antialias=a)
            specs.append(OpSpec(
                "ScaleAndTranslate", _float32_only(resize), [image(1, 5, 7, 2)],
                _recorded(f"resize-{method}-{aa}-0"), name=f"ScaleAndTranslate-{method}-{aa}"))
    for method in ("lanczos3", "mitchellcubic", "bilinear", "bicubic"):
        def resize(x, m=method):
            return tf.image.resize(x, [3, 7], m, antialias=True)
        specs.append(OpSpec(
            "ScaleAndTranslateGrad",
            _float32_only(lambda x, dy, resize=resize: _vjp(resize, x, dy)),
            [image(1, 5, 4, 2), image(1, 3, 7, 2, seed=1)], _recorded(f"grad-resize-{method}-aa"),
            name=f"ScaleAndTranslateGrad-{method}"))
    return specs


_PATCHES = [((1, 5, 6, 2), (2, 2), (1, 1), (1, 1), "VALID"),
            ((2, 5, 6, 1), (3, 2), (2, 3), (1, 1), "SAME"),
            ((1, 7, 7, 2), (2, 3), (1, 2), (2, 1), "SAME"),
            ((1, 7, 8, 1), (2, 2), (3, 3), (2, 2), "VALID")]


def _patch_specs():
    specs = []
    for i, (shape, k, s, r, pad) in enumerate(_PATCHES):
        def patches(x, k=k, s=s, r=r, pad=pad):
            return tf.image.extract_patches(x, [1, *k, 1], [1, *s, 1], [1, *r, 1], pad)
        specs.append(OpSpec("ExtractImagePatches", patches, [image(*shape)],
                            lambda x, i=i: TF[f"extract_patches-{i}"][0].astype(x.dtype),
                            name=f"ExtractImagePatches-{i}"))
    specs.append(OpSpec("ExtractImagePatches", lambda x: tf.image.extract_patches(
        x, [1, 2, 2, 1], [1, 1, 1, 1], [1, 1, 1, 1], "VALID"), [np.arange(12).reshape(1, 3, 4, 1)],
        lambda x: np.stack([x[0, :-1, :-1, 0], x[0, :-1, 1:, 0], x[0, 1:, :-1, 0],
                            x[0, 1:, 1:, 0]], -1)[None], name="ExtractImagePatches-int",
        grad="integer"))
    return specs


def _volume_patches_ref(x, k, s, same):
    """Volume patches by loops: zero outside the input, SAME padding split as a conv's."""
    n, *sizes, c = x.shape
    outs, befores = [], []
    for size, kk, ss in zip(sizes, k, s):
        out = -(-size // ss) if same else (size - kk) // ss + 1
        outs.append(out)
        befores.append(max((out - 1) * ss + kk - size, 0) // 2 if same else 0)
    result = np.zeros((n, *outs, int(np.prod(k)) * c), x.dtype)
    for b, i, j, l in np.ndindex(n, *outs):
        values = []
        for di, dj, dl in np.ndindex(*k):
            at = (i * s[0] - befores[0] + di, j * s[1] - befores[1] + dj,
                  l * s[2] - befores[2] + dl)
            inside = all(0 <= a < size for a, size in zip(at, sizes))
            values.append(x[(b, *at)] if inside else np.zeros(c, x.dtype))
        result[b, i, j, l] = np.concatenate(values)
    return result


def _volume_patch_specs():
    return [OpSpec("ExtractVolumePatches",
                   lambda x, k=k, st=st, pad=pad: tf.extract_volume_patches(
                       x, [1, *k, 1], [1, *st, 1], pad),
                   [np.random.RandomState(i).rand(*shape).astype(np.float64)],
                   lambda x, k=k, st=st, pad=pad: _volume_patches_ref(x, k, st, pad == "SAME"),
                   name=f"ExtractVolumePatches-{i}")
            for i, (shape, k, st, pad) in enumerate([
                ((1, 3, 4, 4, 2), (2, 2, 2), (1, 1, 1), "VALID"),
                ((2, 4, 4, 5, 1), (2, 3, 2), (2, 2, 2), "SAME")])]


_BOXES = np.array([[0.1, 0.2, 0.8, 0.9], [0.0, 0.0, 1.0, 1.0], [0.5, 0.6, 0.2, 0.1],
                   [-0.2, -0.1, 1.3, 0.7]], np.float32)


def _crop_specs():
    specs = []
    for method in ("bilinear", "nearest"):
        for size in ((3, 4), (1, 1), (5, 2)):
            tag = f"{method}-{size[0]}x{size[1]}"
            specs.append(OpSpec(
                "CropAndResize", _float32_only(lambda x, m=method, size=size:
                                               tf.image.crop_and_resize(
                                                   x, _BOXES, [0, 1, 1, 0], size, method=m,
                                                   extrapolation_value=-1.0)),
                [image(2, 6, 5, 2)], _recorded(f"crop_and_resize-{tag}"),
                name=f"CropAndResize-{tag}",
                grad=True if method == "bilinear" else "checked through the bilinear specs"))

    def grads(x, b, dy):
        with tf.GradientTape() as tape:
            tape.watch([x, b])
            y = tf.image.crop_and_resize(x, b, [0, 1, 1], [3, 4])
        return tape.gradient(y, [x, b], output_gradients=dy)
    specs.append(OpSpec("CropAndResizeGradImage",
                        _float32_only(lambda x, b, dy: grads(x, b, dy)[0]),
                        [image(2, 6, 5, 2), _BOXES[:3], image(3, 3, 4, 2, seed=1)],
                        _recorded("crop_and_resize-grads", 0), grad="not differentiable in TF"))
    specs.append(OpSpec("CropAndResizeGradBoxes",
                        _float32_only(lambda x, b, dy: grads(x, b, dy)[1]),
                        [image(2, 6, 5, 2), _BOXES[:3], image(3, 3, 4, 2, seed=1)],
                        _recorded("crop_and_resize-grads", 1), rtol=1e-4, atol=1e-5,
                        grad="not differentiable in TF"))
    return specs


SPECS = [*_v1_specs(), *_span_specs(), *_patch_specs(), *_volume_patch_specs(), *_crop_specs()]

SPECS += [OpSpec("DrawBoundingBoxesV2", lambda x: tf.image.draw_bounding_boxes(
    x, geometry_cases._DRAW_BOXES, np.array([[0.9, 0.1, 0.2, 0.3], [0.0, 0.5, 1.0, 0.7]],
                                            np.float32)),
    [image(2, 9, 11, depth)], _recorded(f"draw_bounding_boxes-{depth}"),
    name=f"DrawBoundingBoxesV2-{depth}", grad="no gradient in TF") for depth in (1, 3, 4)]


# ImageProjectiveTransformV3 (TF's random rotation/zoom/translation layers' resampling in
# TF's SavedModels): TF 2.21's values, fill value -1.
_PROJECTIVE = np.array([[0.9, -0.4, 1.5, 0.4, 0.9, -0.7, 0.0, 0.0],
                        [1.3, 0.2, -2.0, -0.1, 0.9, 3.1, 0.01, -0.02]], np.float32)
_PROJECTED = {
    ("BILINEAR", "REFLECT"): [
        0.1875, 0.30000001192092896, 0.42500001192092896, 0.6000000834465027,
        0.23750001192092896, 0.550000011920929, 0.862500011920929, 1.0749999284744263,
        0.6374999284744263, 0.9500000476837158, 1.2624999284744263, 1.375, 2.575000047683716,
        2.5, 2.5735294818878174, 2.7305824756622314, 2.0637755393981934, 2.0303030014038086,
        2.1999998092651367, 2.428217887878418, 1.5833333730697632, 1.525773525238037,
        1.729591965675354, 1.9671719074249268],
    ("NEAREST", "WRAP"): [
        1.25, 1.25, 0.0, 0.5, 0.125, 0.75, 0.875, 0.5, 0.625, 1.25, 1.375, 0.0, 1.75, 1.875,
        1.625, 1.75, 1.75, 2.375, 2.125, 2.25, 1.75, 1.875, 1.625, 1.75],
    ("BILINEAR", "CONSTANT"): [
        -0.643750011920929, -0.0899999588727951, -0.0024999231100082397, -1.0,
        0.23750001192092896, 0.550000011920929, 0.862500011920929, -0.5849994421005249,
        0.6374999284744263, 0.9500000476837158, 1.2624999284744263, -0.0024997293949127197,
        -1.0, -0.9680914282798767, -0.4394463896751404, 0.050357699394226074, -1.0, -1.0, -1.0,
        -1.0, -1.0, -1.0, -1.0, -1.0]}
SPECS += [OpSpec("ImageProjectiveTransformV3", lambda x, interp=interp, fill=fill:
                 tf.raw_ops.ImageProjectiveTransformV3(
                     images=x, transforms=_PROJECTIVE, output_shape=[3, 4], fill_value=-1.0,
                     interpolation=interp, fill_mode=fill),
                 [np.arange(24, dtype=np.float32).reshape(2, 3, 4, 1) / 8],
                 lambda x, values=values: np.array(values, np.float32).reshape(2, 3, 4, 1),
                 name=f"ImageProjectiveTransformV3-{interp}-{fill}",
                 grad="TF's gradient resamples through the inverse transforms, which is not "
                      "the derivative: tests/image checks TF's values")
          for (interp, fill), values in _PROJECTED.items()]
# ImageProjectiveTransformV2 (V3 filling with 0: TF 2.3-2.5's image layers): TF 2.21's values
_PROJECTED_V2_CONSTANT = [
    0.05625000223517418, 0.21000002324581146, 0.29750004410743713, 0.0, 0.23750001192092896,
    0.550000011920929, 0.862500011920929, 0.21500030159950256, 0.6374999284744263,
    0.9500000476837158, 1.2624999284744263, 0.5775001645088196, 0.0, 0.022791828960180283,
    0.4036908745765686, 0.7688044309616089, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0]
SPECS += [OpSpec("ImageProjectiveTransformV2", lambda x, interp=interp, fill=fill:
                 tf.raw_ops.ImageProjectiveTransformV2(
                     images=x, transforms=_PROJECTIVE, output_shape=[3, 4],
                     interpolation=interp, fill_mode=fill),
                 [np.arange(24, dtype=np.float32).reshape(2, 3, 4, 1) / 8],
                 lambda x, values=values: np.array(values, np.float32).reshape(2, 3, 4, 1),
                 name=f"ImageProjectiveTransformV2-{interp}-{fill}",
                 grad="TF's gradient resamples through the inverse transforms, which is not "
                      "the derivative: tests/image checks TF's values")
          for (interp, fill), values in [(("BILINEAR", "CONSTANT"), _PROJECTED_V2_CONSTANT),
                                         (("NEAREST", "WRAP"), _PROJECTED[("NEAREST", "WRAP")])]]
