"""Cases of tf.image's resizing and geometry, written against a module ``tf`` so that the same
code runs on TensorFlow (record_geometry.py records its outputs) and on eagerflow (the tests).

Each case is ``fn(tf) -> tensor or tuple of tensors``.
"""
import numpy as np

CASES = {}


def image(*shape, dtype=np.float32, seed=0):
    """Reproducible test images: uint8-like values for integer dtypes, [0, 1) for floats."""
    rng = np.random.default_rng(seed + 13 * sum(shape))
    if np.issubdtype(dtype, np.integer):
        high = min(np.iinfo(dtype).max, 255) if dtype != np.uint16 else 65535
        return rng.integers(0, high + 1, size=shape).astype(dtype)
    return rng.random(shape).astype(dtype)


def case(name):
    def decorate(fn):
        assert name not in CASES, name
        CASES[name] = fn
        return fn
    return decorate


_METHODS = ("bilinear", "nearest", "bicubic", "area", "lanczos3", "lanczos5", "gaussian",
            "mitchellcubic")
_RESIZES = [  # input shape, dtype, size
    ((1, 5, 7, 2), np.float32, (3, 4)),
    ((2, 4, 6, 1), np.float32, (9, 11)),
    ((6, 5, 3), np.uint8, (4, 8)),
    ((6, 5, 3), np.float64, (6, 5)),
    ((3, 8, 1), np.int32, (8, 3)),
    ((1, 1, 1), np.float32, (3, 2)),
]

for _method in _METHODS:
    for _antialias in (False, True):
        for _i, (_shape, _dtype, _size) in enumerate(_RESIZES):
            def _resize(tf, shape=_shape, dtype=_dtype, size=_size, method=_method,
                        antialias=_antialias):
                return tf.image.resize(image(*shape, dtype=dtype), size, method=method,
                                       antialias=antialias)
            case(f"resize-{_method}-{'aa' if _antialias else 'plain'}-{_i}")(_resize)
    for _keep in (True,):
        case(f"resize-{_method}-aspect")(
            lambda tf, m=_method: tf.image.resize(image(5, 9, 2), [7, 7], method=m,
                                                  preserve_aspect_ratio=True))

_V1 = {"bilinear": "resize_bilinear", "nearest": "resize_nearest_neighbor",
       "bicubic": "resize_bicubic", "area": "resize_area"}
for _method, _fn in _V1.items():
    for _align, _half in ((False, False), (True, False), (False, True)):
        if _method == "area" and _half:
            continue
        for _i, (_shape, _size) in enumerate((((2, 5, 7, 2), (3, 4)), ((1, 4, 3, 1), (9, 7)),
                                              ((1, 4, 4, 1), (1, 1)))):
            def _v1(tf, shape=_shape, size=_size, fn=_fn, align=_align, half=_half):
                kwargs = {} if fn == "resize_area" else {"half_pixel_centers": half}
                return getattr(tf.compat.v1.image, fn)(image(*shape), size, align_corners=align,
                                                       **kwargs)
            case(f"v1-{_method}-{int(_align)}{int(_half)}-{_i}")(_v1)


def _grad(tf, fn, x, seed=1):
    x = tf.constant(x)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = fn(x)
        w = tf.constant(image(*y.shape, seed=seed).astype(y.dtype.as_numpy_dtype))
        loss = tf.reduce_sum(y * w)
    return tape.gradient(loss, x)


for _method, _fn in _V1.items():
    if _method == "area":
        continue
    for _align, _half in ((False, False), (True, False), (False, True)):
        for _i, (_shape, _size) in enumerate((((2, 5, 7, 2), (3, 4)), ((1, 4, 3, 1), (9, 7)))):
            def _v1_grad(tf, shape=_shape, size=_size, fn=_fn, align=_align, half=_half):
                return _grad(tf, lambda x: getattr(tf.compat.v1.image, fn)(
                    x, size, align_corners=align, half_pixel_centers=half), image(*shape))
            case(f"grad-{_method}-{int(_align)}{int(_half)}-{_i}")(_v1_grad)
for _method in ("lanczos3", "mitchellcubic", "bilinear", "bicubic"):
    case(f"grad-resize-{_method}-aa")(
        lambda tf, m=_method: _grad(tf, lambda x: tf.image.resize(x, [3, 7], m, antialias=True),
                                    image(1, 5, 4, 2)))

# -- crops, pads, flips, rotations ----------------------------------------------------------

_X3 = image(5, 7, 2)
_X4 = image(3, 5, 7, 2)
case("flip_left_right-3")(lambda tf: tf.image.flip_left_right(_X3))
case("flip_left_right-4")(lambda tf: tf.image.flip_left_right(_X4))
case("flip_up_down-3")(lambda tf: tf.image.flip_up_down(_X3))
case("flip_up_down-4")(lambda tf: tf.image.flip_up_down(_X4))
case("transpose-3")(lambda tf: tf.image.transpose(_X3))
case("transpose-4")(lambda tf: tf.image.transpose(_X4))
for _k in (-1, 0, 1, 2, 3, 4, 7):
    case(f"rot90-3-{_k}")(lambda tf, k=_k: tf.image.rot90(_X3, k))
    case(f"rot90-4-{_k}")(lambda tf, k=_k: tf.image.rot90(_X4, k))
case("rot90-default")(lambda tf: tf.image.rot90(image(2, 3, 1, dtype=np.uint8)))
for _f in (0.1, 0.33, 0.5, 0.8, 1.0):
    case(f"central_crop-3-{_f}")(lambda tf, f=_f: tf.image.central_crop(_X3, f))
    case(f"central_crop-4-{_f}")(lambda tf, f=_f: tf.image.central_crop(_X4, f))
case("crop_to_bounding_box-3")(lambda tf: tf.image.crop_to_bounding_box(_X3, 1, 2, 3, 4))
case("crop_to_bounding_box-4")(lambda tf: tf.image.crop_to_bounding_box(_X4, 0, 3, 5, 4))
case("pad_to_bounding_box-3")(lambda tf: tf.image.pad_to_bounding_box(_X3, 1, 2, 8, 10))
case("pad_to_bounding_box-4")(lambda tf: tf.image.pad_to_bounding_box(_X4, 0, 3, 5, 10))
case("pad_to_bounding_box-u8")(
    lambda tf: tf.image.pad_to_bounding_box(image(2, 2, 1, dtype=np.uint8), 1, 1, 4, 3))
for _th, _tw in ((3, 4), (8, 10), (3, 10), (8, 4), (5, 7), (6, 6)):
    case(f"resize_with_crop_or_pad-3-{_th}x{_tw}")(
        lambda tf, th=_th, tw=_tw: tf.image.resize_with_crop_or_pad(_X3, th, tw))
    case(f"resize_with_crop_or_pad-4-{_th}x{_tw}")(
        lambda tf, th=_th, tw=_tw: tf.image.resize_with_crop_or_pad(_X4, th, tw))
for _th, _tw in ((3, 4), (8, 10), (10, 4), (5, 7)):
    for _method in ("bilinear", "nearest", "area"):
        case(f"resize_with_pad-{_method}-{_th}x{_tw}")(
            lambda tf, th=_th, tw=_tw, m=_method: tf.image.resize_with_pad(_X4, th, tw, m))
case("resize_with_pad-aa")(lambda tf: tf.image.resize_with_pad(_X3, 3, 9, antialias=True))

# -- convert_image_dtype ---------------------------------------------------------------------

_INTS = {"uint8": np.uint8, "int8": np.int8, "uint16": np.uint16, "int16": np.int16,
         "int32": np.int32, "int64": np.int64}
_FLOATS = {"float16": np.float16, "float32": np.float32, "float64": np.float64}


def _int_values(dtype):
    info = np.iinfo(dtype)
    picks = [info.min, info.min + 1, -1, 0, 1, 2, 127, 128, 255, 256, 32767, 65535,
             info.max - 1, info.max]
    return np.array([v for v in picks if info.min <= v <= info.max], dtype)


_FLOAT_VALUES = np.array([-1.5, -1.0, -0.25, 0.0, 0.001, 0.25, 0.5, 0.999, 1.0, 1.0001, 2.0],
                         np.float64)
for _src, _sdt in {**_INTS, **_FLOATS}.items():
    for _dst in (*_INTS, *_FLOATS):
        for _sat in (False, True):
            if _sat and not (_dst in _INTS):
                continue
            def _convert(tf, sdt=_sdt, dst=_dst, sat=_sat):
                values = (_int_values(sdt) if np.issubdtype(sdt, np.integer)
                          else _FLOAT_VALUES.astype(sdt))
                return tf.image.convert_image_dtype(values, getattr(tf, dst), saturate=sat)
            case(f"convert_image_dtype-{_src}-{_dst}{'-sat' if _sat else ''}")(_convert)

# -- patches, crop_and_resize ----------------------------------------------------------------

for _i, (_shape, _k, _s, _r, _pad) in enumerate([
        ((1, 5, 6, 2), (2, 2), (1, 1), (1, 1), "VALID"),
        ((2, 5, 6, 1), (3, 2), (2, 3), (1, 1), "SAME"),
        ((1, 7, 7, 2), (2, 3), (1, 2), (2, 1), "SAME"),
        ((1, 7, 8, 1), (2, 2), (3, 3), (2, 2), "VALID")]):
    def _patches(tf, shape=_shape, k=_k, s=_s, r=_r, pad=_pad):
        return tf.image.extract_patches(image(*shape), [1, *k, 1], [1, *s, 1], [1, *r, 1], pad)
    case(f"extract_patches-{_i}")(_patches)

    def _patches_grad(tf, shape=_shape, k=_k, s=_s, r=_r, pad=_pad):
        return _grad(tf, lambda x: tf.image.extract_patches(x, [1, *k, 1], [1, *s, 1],
                                                            [1, *r, 1], pad), image(*shape))
    case(f"extract_patches-grad-{_i}")(_patches_grad)

_BOXES = np.array([[0.1, 0.2, 0.8, 0.9], [0.0, 0.0, 1.0, 1.0], [0.5, 0.6, 0.2, 0.1],
                   [-0.2, -0.1, 1.3, 0.7]], np.float32)
for _method in ("bilinear", "nearest"):
    for _size in ((3, 4), (1, 1), (5, 2)):
        def _crop_and_resize(tf, method=_method, size=_size):
            return tf.image.crop_and_resize(image(2, 6, 5, 2), _BOXES, [0, 1, 1, 0], size,
                                            method=method, extrapolation_value=-1.0)
        case(f"crop_and_resize-{_method}-{_size[0]}x{_size[1]}")(_crop_and_resize)
case("crop_and_resize-u8")(lambda tf: tf.image.crop_and_resize(
    image(1, 6, 5, 3, dtype=np.uint8), _BOXES[:2], [0, 0], [4, 4]))


def _crop_and_resize_grads(tf):
    x, b = tf.constant(image(2, 6, 5, 2)), tf.constant(_BOXES[:3])
    with tf.GradientTape() as tape:
        tape.watch([x, b])
        y = tf.image.crop_and_resize(x, b, [0, 1, 1], [3, 4])
        loss = tf.reduce_sum(y * image(*y.shape, seed=1))
    return tuple(tape.gradient(loss, [x, b]))


case("crop_and_resize-grads")(_crop_and_resize_grads)

# -- seeded random ops -----------------------------------------------------------------------


def _seeded(fn):
    def run(tf):
        tf.random.set_seed(1)
        return tuple(fn(tf) for _ in range(3))
    return run


for _name in ("random_flip_left_right", "random_flip_up_down"):
    case(f"{_name}-3")(_seeded(lambda tf, n=_name: getattr(tf.image, n)(_X3, seed=2)))
    case(f"{_name}-4")(_seeded(lambda tf, n=_name: getattr(tf.image, n)(image(8, 2, 3, 1),
                                                                       seed=2)))
    case(f"{_name}-4-u8")(_seeded(lambda tf, n=_name: getattr(tf.image, n)(
        image(8, 2, 3, 1, dtype=np.uint8), seed=3)))
    _stateless = "stateless_" + _name
    case(f"{_stateless}-3")(lambda tf, n=_stateless: tuple(
        getattr(tf.image, n)(_X3, seed=(s, 3)) for s in range(4)))
    case(f"{_stateless}-4")(lambda tf, n=_stateless: getattr(tf.image, n)(
        image(8, 2, 3, 1), seed=(1, 2)))
case("random_crop")(_seeded(lambda tf: tf.image.random_crop(_X3, [3, 4, 2], seed=5)))
case("random_crop-4")(_seeded(lambda tf: tf.image.random_crop(_X4, [2, 3, 3, 1])))
case("stateless_random_crop")(lambda tf: tuple(
    tf.image.stateless_random_crop(_X3, [3, 4, 2], seed=(s, 7)) for s in range(3)))

# -- draw_bounding_boxes ---------------------------------------------------------------------

_DRAW_BOXES = np.array([[[0.1, 0.2, 0.8, 0.9], [0.0, 0.0, 1.0, 1.0], [0.5, 0.6, 0.2, 0.1],
                         [-0.2, -0.1, 0.5, 0.7], [0.3, 0.3, 1.4, 0.6], [1.2, 0.1, 1.5, 0.5]],
                        [[0.25, 0.25, 0.75, 0.75], [0.0, 0.5, 0.0, 0.5], [0.9, -0.5, 2.0, 2.0],
                         [0.4, 0.1, 0.6, 0.3], [0.05, 0.05, 0.3, 0.95], [0.0, 0.0, 0.0, 0.0]]],
                       np.float32)
for _depth in (1, 3, 4):
    case(f"draw_bounding_boxes-{_depth}")(lambda tf, d=_depth: tf.image.draw_bounding_boxes(
        image(2, 9, 11, d), _DRAW_BOXES, np.array([[0.9, 0.1, 0.2, 0.3], [0.0, 0.5, 1.0, 0.7]],
                                                  np.float32)))
    case(f"draw_bounding_boxes-default-{_depth}")(lambda tf, d=_depth: tf.image.draw_bounding_boxes(
        image(2, 9, 11, d), _DRAW_BOXES, np.zeros((0, 4), np.float32)))
# (a half tensor: a NumPy array converts to float32, except at TF's first call of the op)
case("draw_bounding_boxes-half")(lambda tf: tf.image.draw_bounding_boxes(
    tf.constant(image(2, 5, 6, 3, dtype=np.float16)), _DRAW_BOXES, [[1.0, 0.0, 0.0]]))


def _seeded_function(fn):
    """Seeded random ops in a function called three times (TF's op seeds in a graph)."""
    def run(tf):
        tf.random.set_seed(1)
        traced = tf.function(lambda: fn(tf))
        return tuple(traced() for _ in range(3))
    return run


case("random_flip_left_right-fn")(_seeded_function(
    lambda tf: tf.image.random_flip_left_right(_X3, seed=2)))
case("random_flip_up_down-4-fn")(_seeded_function(
    lambda tf: tf.image.random_flip_up_down(image(8, 2, 3, 1))))
case("random_crop-fn")(_seeded_function(lambda tf: tf.image.random_crop(_X4, [2, 3, 3, 1],
                                                                        seed=4)))
