"""Cases of tf.io's image codecs, written against a module ``tf`` (see geometry_cases.py): the
files of data/ decoded with each channel count and dtype."""
import os

import numpy as np

DATA = os.path.join(os.path.dirname(__file__), "data")
CASES = {}
# How far the pixels of a JPEG from eagerflow's encoder may be from those of TF's.
JPEG_TOLERANCE = 5


def read(name):
    with open(os.path.join(DATA, name), "rb") as f:
        return f.read()


_PNGS = ("rgb.png", "rgba.png", "gray.png", "gray_alpha.png", "gray16.png", "palette.png",
         "tf_rgb16.png", "tf_rgba16.png",  # tf_*: 16-bit colour, written by TF with every filter
         "trns_rgb.png", "trns_gray.png", "trns_palette.png", "bilevel.png")
for _file in _PNGS:
    for _ch in (0, 1, 3, 4):
        for _dt in ("uint8", "uint16"):
            CASES[f"decode_png-{_file}-{_ch}-{_dt}"] = (
                lambda tf, f=_file, c=_ch, d=_dt: tf.io.decode_png(read(f), channels=c,
                                                                   dtype=getattr(tf, d)))
for _file in ("rgb.jpg", "gray.jpg"):
    for _ch in (0, 1, 3):
        CASES[f"decode_jpeg-{_file}-{_ch}"] = (
            lambda tf, f=_file, c=_ch: tf.io.decode_jpeg(read(f), channels=c))
        CASES[f"decode_jpeg-{_file}-{_ch}-accurate"] = (
            lambda tf, f=_file, c=_ch: tf.io.decode_jpeg(read(f), channels=c,
                                                         dct_method="INTEGER_ACCURATE"))
    CASES[f"extract_jpeg_shape-{_file}"] = lambda tf, f=_file: tf.io.extract_jpeg_shape(read(f))
for _file in ("rgb.bmp", "rgba.bmp"):
    for _ch in (0, 3, 4):
        CASES[f"decode_bmp-{_file}-{_ch}"] = (
            lambda tf, f=_file, c=_ch: tf.io.decode_bmp(read(f), channels=c))
# composed.gif ... bad_index.gif: how TF composes frames, and the GIFs it refuses
_GIFS = ("anim.gif", "still.gif", "composed.gif", "offset.gif", "no_map.gif", "bad_index.gif")
for _file in _GIFS:
    CASES[f"decode_gif-{_file}"] = lambda tf, f=_file: tf.io.decode_gif(read(f))
_ALL = _PNGS + ("rgb.jpg", "gray.jpg", "rgb.bmp", "rgba.bmp") + _GIFS
for _file in _ALL:
    for _ch in (None, 1, 3):
        for _dt in ("uint8", "float32", "uint16"):
            for _expand in (True, False):
                if _file.endswith("gif") and _ch == 1:
                    continue  # TF refuses a single channel for GIF
                CASES[f"decode_image-{_file}-{_ch}-{_dt}-{int(_expand)}"] = (
                    lambda tf, f=_file, c=_ch, d=_dt, e=_expand: tf.io.decode_image(
                        read(f), channels=c, dtype=getattr(tf, d), expand_animations=e))
    CASES[f"is_jpeg-{_file}"] = lambda tf, f=_file: tf.io.is_jpeg(read(f))
for _file in ("rgb.png", "rgba.png", "gray.png"):
    # TF's encoding decoded again: the bytes differ between encoders, the pixels must not
    CASES[f"encode_png-{_file}"] = lambda tf, f=_file: tf.io.encode_png(tf.io.decode_png(read(f)))
CASES["encode_png-u16"] = lambda tf: tf.io.encode_png(tf.io.decode_png(read("gray16.png"),
                                                                       dtype=tf.uint16))
for _q in (50, 95):
    CASES[f"encode_jpeg-q{_q}"] = lambda tf, q=_q: tf.io.encode_jpeg(
        tf.io.decode_png(read("rgb.png")), quality=q)
CASES["encode_jpeg-gray"] = lambda tf: tf.io.encode_jpeg(tf.io.decode_png(read("gray.png")))
for _ratio in (2, 4, 8):
    CASES[f"decode_jpeg-rgb.jpg-ratio{_ratio}-accurate"] = lambda tf, r=_ratio: tf.io.decode_jpeg(
        read("rgb.jpg"), ratio=r, dct_method="INTEGER_ACCURATE")
    CASES[f"decode_jpeg-gray.jpg-ratio{_ratio}-accurate"] = lambda tf, r=_ratio: tf.io.decode_jpeg(
        read("gray.jpg"), channels=1, ratio=r, dct_method="INTEGER_ACCURATE")
for _file in ("rgb.jpg", "rgb422.jpg"):  # TF's default fast DCT and interpolated chroma
    CASES[f"decode_jpeg-{_file}-default"] = lambda tf, f=_file: tf.io.decode_jpeg(read(f))
    CASES[f"decode_jpeg-{_file}-replicated"] = lambda tf, f=_file: tf.io.decode_jpeg(
        read(f), fancy_upscaling=False)
    for _ratio in (2, 4, 8):
        CASES[f"decode_jpeg-{_file}-ratio{_ratio}"] = lambda tf, f=_file, r=_ratio: (
            tf.io.decode_jpeg(read(f), ratio=r))
for _q in (5, 60, 100):
    CASES[f"adjust_jpeg_quality-{_q}-accurate"] = lambda tf, q=_q: tf.image.adjust_jpeg_quality(
        tf.image.convert_image_dtype(tf.io.decode_png(read("rgb.png")), tf.float32), q,
        dct_method="INTEGER_ACCURATE")
CASES["adjust_jpeg_quality-gray-u8"] = lambda tf: tf.image.adjust_jpeg_quality(
    tf.io.decode_png(read("gray.png")), tf.constant(40), dct_method="INTEGER_ACCURATE")
CASES["adjust_jpeg_quality-default"] = lambda tf: tf.image.adjust_jpeg_quality(
    tf.io.decode_png(read("rgb.png")), 75)


def _seeded_qualities(tf):
    tf.random.set_seed(3)
    return tuple(tf.image.random_jpeg_quality(tf.io.decode_png(read("rgb.png")), 5, 95, seed=4)
                 for _ in range(3))


CASES["random_jpeg_quality"] = _seeded_qualities
CASES["stateless_random_jpeg_quality"] = lambda tf: tuple(
    tf.image.stateless_random_jpeg_quality(tf.io.decode_png(read("rgb.png")), 5, 95, (s, 1))
    for s in range(3))
for _file in ("rgb.webp", "rgba.webp"):
    for _ch in (0, 1, 3, 4):
        CASES[f"decode_webp-{_file}-{_ch}"] = (
            lambda tf, f=_file, c=_ch: tf.io.decode_webp(read(f), channels=c))
    CASES[f"decode_image-{_file}-0"] = lambda tf, f=_file: tf.io.decode_image(read(f))
    CASES[f"decode_image-{_file}-float32"] = lambda tf, f=_file: tf.io.decode_image(
        read(f), dtype=tf.float32)
    CASES[f"decode_image-{_file}-flat"] = lambda tf, f=_file: tf.io.decode_image(
        read(f), expand_animations=False)
    CASES[f"decode_png-{_file}"] = lambda tf, f=_file: tf.io.decode_png(read(f))
CASES["decode_webp-rgb.png"] = lambda tf: tf.io.decode_webp(read("rgb.png"))
