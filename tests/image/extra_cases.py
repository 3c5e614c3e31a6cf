"""Cases of tf.image ops added after the first recording (the bounding box sampler,
decode_and_crop_jpeg, extract_glimpse), written once for TensorFlow and eagerflow:
``CASES[name](tf)`` returns a tuple of tensors (record_tf_extra.py stores TF's)."""
import numpy as np

CASES = {}


def case(name):
    def register(fn):
        CASES[name] = fn
        return fn
    return register


_RNG = np.random.default_rng(7)
_BOXES = np.sort(_RNG.uniform(0, 1, (2, 3, 4)).astype(np.float32).reshape(2, 3, 2, 2),
                 axis=2).transpose(0, 1, 3, 2).reshape(2, 3, 4)  # ymin <= ymax, xmin <= xmax
_ONE = np.array([[[0.1, 0.2, 0.5, 0.9]]], np.float32)


def _flat(results):
    return tuple(t for r in results for t in r)


for _i, (_size, _kw) in enumerate([
        ((40, 50, 3), {"min_object_covered": 0.3}),
        ((40, 50, 3), {"min_object_covered": 0.0, "area_range": (0.1, 0.3)}),
        ((7, 300, 1), {"min_object_covered": 0.5, "aspect_ratio_range": (2.0, 8.0)}),
        ((33, 17, 3), {"min_object_covered": 0.9, "max_attempts": 3}),
        ((64, 64, 3), {"aspect_ratio_range": (0.2, 5.0), "area_range": (0.01, 0.9)})]):
    @case(f"stateless-{_i}")
    def _stateless(tf, size=_size, kw=_kw):
        return _flat(tf.image.stateless_sample_distorted_bounding_box(
            size, _BOXES, seed=(s, 3 * s - 1), **kw) for s in range(12))

    @case(f"seeded-{_i}")
    def _seeded(tf, size=_size, kw=_kw):  # the op's stream goes on call after call
        tf.random.set_seed(None)  # (its streams start again)
        return _flat(tf.image.sample_distorted_bounding_box(size, _BOXES, seed=5, **kw)
                     for _ in range(6))


@case("no-boxes")
def _no_boxes(tf):
    return _flat(tf.image.stateless_sample_distorted_bounding_box(
        [20, 30, 3], np.zeros((1, 0, 4), np.float32), seed=(s, 1),
        use_image_if_no_bounding_boxes=True) for s in range(4))


@case("dtypes")
def _dtypes(tf):
    return _flat(tf.image.stateless_sample_distorted_bounding_box(
        tf.constant([40, 50, 3], dtype), _ONE, seed=(2, 9)) for dtype in (tf.uint8, tf.int64))


@case("global-seed")
def _global_seed(tf):
    tf.random.set_seed(11)
    first = tf.image.sample_distorted_bounding_box([40, 50, 3], _ONE, seed=4)
    second = tf.compat.v1.image.sample_distorted_bounding_box([40, 50, 3], _ONE, seed=4)
    return (*first, *second)


@case("function")
def _function(tf):
    tf.random.set_seed(3)
    fn = tf.function(lambda size: tf.image.sample_distorted_bounding_box(
        size, _ONE, seed=2, min_object_covered=0.2))
    return _flat(fn(tf.constant([40, 50, 3])) for _ in range(3))


@case("crop")
def _crop(tf):
    image = np.arange(20 * 30 * 2, dtype=np.float32).reshape(20, 30, 2)
    begin, size, _ = tf.image.stateless_sample_distorted_bounding_box(
        tf.shape(image), _ONE, seed=(4, 4), min_object_covered=0.4)
    return (tf.slice(image, begin, size),)


_DATA = __import__("os").path.join(__import__("os").path.dirname(__file__), "data")


def _file(name):
    with open(__import__("os").path.join(_DATA, name), "rb") as f:
        return f.read()


for _name in ("rgb.jpg", "gray.jpg"):
    @case(f"decode_and_crop_jpeg-{_name}")
    def _decode_and_crop(tf, name=_name):
        data = _file(name)
        return tuple(tf.image.decode_and_crop_jpeg(data, window, channels=channels, ratio=ratio,
                                                   dct_method="INTEGER_ACCURATE")
                     for window, channels, ratio in (
                         ([0, 0, 4, 4], 0, 1), ([1, 2, 3, 2], 3, 1), ([2, 1, 2, 3], 1, 1),
                         ([0, 0, 1, 1], 0, 2)))


for _name in ("rgb.jpg", "rgb422.jpg"):
    # TF's default decoding of the window alone: the chroma is interpolated within it
    @case(f"decode_and_crop_jpeg-default-{_name}")
    def _decode_and_crop_default(tf, name=_name):
        data = _file(name)
        return tuple(tf.image.decode_and_crop_jpeg(data, window, channels=channels)
                     for window, channels in (
                         ([0, 0, 4, 4], 0), ([1, 2, 3, 5], 3), ([2, 1, 2, 3], 1),
                         ([0, 0, 2, 2], 0), ([3, 16, 5, 3], 0), ([5, 17, 4, 1], 0),
                         ([0, 5, 13, 11], 0)))


_GLIMPSE_IMAGES = np.arange(2 * 7 * 9 * 2, dtype=np.float32).reshape(2, 7, 9, 2)
_GLIMPSES = {
    "centered-normalized": ([3, 4], [[0.0, 0.0], [0.3, -0.5]], {}),
    "corner-pixels": ([3, 4], [[1.0, 2.0], [5.5, 8.2]], {"centered": False, "normalized": False}),
    "corner-normalized": ([3, 4], [[0.2, 0.9], [-0.3, 0.5]], {"centered": False}),
    "centered-pixels": ([3, 4], [[-1.0, 2.0], [0.5, -0.7]], {"normalized": False}),
    "wider-than-image": ([9, 11], [[-1.0, 2.0], [0.5, -0.7]], {"normalized": False}),
    "off-the-image": ([2, 3], [[-1.5, 0.9], [1.2, 1.7]], {}),
    "empty": ([0, 3], [[0.0, 0.0], [0.1, 0.1]], {}),
}
for _name, (_size, _offsets, _kw) in _GLIMPSES.items():
    @case(f"extract_glimpse-{_name}")
    def _glimpse(tf, size=_size, offsets=_offsets, kw=_kw):
        return (tf.image.extract_glimpse(_GLIMPSE_IMAGES, size, offsets, noise="zero", **kw),)


@case("extract_glimpse-v1")
def _glimpse_v1(tf):  # (inside the image: no noise)
    return tuple(tf.compat.v1.image.extract_glimpse(_GLIMPSE_IMAGES, [3, 4], offsets, **kw)
                 for offsets, kw in (([[0.0, 0.0], [0.3, -0.5]], {}),
                                     ([[0.2, 0.5], [0.3, 0.4]], {"centered": False}),
                                     ([[3.0, 4.0], [2.0, 5.5]], {"centered": False,
                                                                 "normalized": False}),
                                     # (TF 1 halves the offset from the center in pixels too)
                                     ([[1.0, 1.0], [-3.0, 2.0]], {"normalized": False}),
                                     ([[0.2, -0.3], [0.9, 1.9]], {"normalized": False})))


_NMS_RNG = np.random.default_rng(0)
_NMS_YX = _NMS_RNG.uniform(0, 1, (3, 12, 2)).astype(np.float32)
NMS_BOXES = np.concatenate([_NMS_YX, _NMS_YX + _NMS_RNG.uniform(0.05, 0.4, (3, 12, 2)).astype(
    np.float32)], -1)
NMS_SCORES = _NMS_RNG.uniform(0, 1, (3, 12)).astype(np.float32)


for _name, _signature in (("batch", ([None, 12, 4], [None, 12])),
                          ("any-shape", (None, None))):
    @case(f"nms_padded-unknown-{_name}")
    def _nms_padded(tf, signature=_signature):
        fn = tf.function(lambda b, s: tf.image.non_max_suppression_padded(
            b, s, 5, 0.5, 0.1, pad_to_max_output_size=True), input_signature=[
            tf.TensorSpec(signature[0]), tf.TensorSpec(signature[1])])
        return tuple(fn(NMS_BOXES, NMS_SCORES))
