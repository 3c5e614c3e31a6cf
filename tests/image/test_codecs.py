"""tf.io's image codecs against TensorFlow's recorded decodes of the files in data/, in
`function` on string tensors, encoders round-tripping, TF's errors, and the clear error when
Pillow (an optional dependency) is missing."""
import importlib.util
import subprocess
import sys

import numpy as np
import pytest

import eagerflow as tf
from eagerflow import errors
from tests.image import codec_cases
from tests.image.codec_cases import read
from tests.image.tf_data import assert_matches, load

# Decoding and JPEG encoding go through Pillow, an optional dependency; PNG encoding does not.
needs_pillow = pytest.mark.skipif(importlib.util.find_spec("PIL") is None,
                                  reason="the image codecs decode through Pillow")
TF = load("codecs")
DECODES = sorted(c for c in codec_cases.CASES if not c.startswith("encode"))


@needs_pillow
@pytest.mark.parametrize("name", DECODES)
def test_decodes_match_tf(name):
    want = TF[name]
    if isinstance(want, str):
        with pytest.raises(getattr(errors, want)):
            codec_cases.CASES[name](tf)
        return
    got = codec_cases.CASES[name](tf)
    got = list(got) if isinstance(got, tuple) else [got]
    assert len(got) == len(want)
    for g, w in zip(got, want):  # (JPEGs too: TF's fast inverse DCT and upsampling)
        assert_matches(g, w, rtol=0, atol=0, name=name)


@needs_pillow
@pytest.mark.parametrize("name", ["decode_png-rgb.png-3-uint16", "decode_gif-anim.gif",
                                  "decode_image-anim.gif-None-float32-0",
                                  "decode_bmp-rgba.bmp-4", "decode_jpeg-rgb.jpg-1-accurate",
                                  "extract_jpeg_shape-rgb.jpg"])
def test_decodes_in_function_on_string_tensors(name):
    want = TF[name][0]
    got = tf.function(lambda: codec_cases.CASES[name](tf))()
    assert_matches(got, want, rtol=0, atol=0, name=name)


@needs_pillow
def test_static_shapes_in_function():
    @tf.function(input_signature=[tf.TensorSpec([], tf.string)])
    def fn(c):
        return (tf.io.decode_image(c), tf.io.decode_png(c), tf.io.decode_jpeg(c, channels=3),
                tf.io.decode_gif(c), tf.io.decode_bmp(c),
                tf.io.decode_image(c, channels=3, expand_animations=False),
                tf.io.decode_image(c, expand_animations=False),
                tf.io.encode_png(tf.zeros([2, 2, 3], tf.uint8)), tf.io.extract_jpeg_shape(c),
                tf.io.decode_png(c, channels=4, dtype=tf.uint16),
                tf.io.decode_image(c, dtype=tf.float32), tf.io.is_jpeg(c))
    shapes = [t.shape for t in fn.get_concrete_function().outputs]
    assert shapes == [tf.TensorShape(None), tf.TensorShape([None, None, None]),
                      tf.TensorShape([None, None, 3]), tf.TensorShape([None, None, None, 3]),
                      tf.TensorShape([None, None, None]), tf.TensorShape([None, None, 3]),
                      tf.TensorShape([None, None, None]), tf.TensorShape([]),
                      tf.TensorShape([3]), tf.TensorShape([None, None, 4]),
                      tf.TensorShape(None), tf.TensorShape([])]
    decode = tf.function(tf.io.decode_png, input_signature=[tf.TensorSpec([], tf.string)])
    np.testing.assert_array_equal(decode(tf.constant(read("rgb.png"))),
                                  TF["decode_png-rgb.png-0-uint8"][0])


@needs_pillow
def test_decoded_image_feeds_resize_in_function():
    @tf.function
    def fn(c):
        image = tf.io.decode_png(c, channels=3)
        return tf.image.resize(tf.image.convert_image_dtype(image, tf.float32), [4, 4])
    want = tf.image.resize(TF["decode_image-rgb.png-3-float32-1"][0], [4, 4])
    np.testing.assert_allclose(fn(tf.constant(read("rgb.png"))), want, rtol=1e-6)


@needs_pillow
@pytest.mark.parametrize("dtype", [np.uint8, np.uint16])
@pytest.mark.parametrize("channels", [1, 2, 3, 4])
@pytest.mark.parametrize("compression", [-1, 0, 9])
def test_encode_png_round_trips(dtype, channels, compression):
    rng = np.random.default_rng(channels)
    image = rng.integers(0, np.iinfo(dtype).max, (5, 7, channels), endpoint=True).astype(dtype)
    png = tf.io.encode_png(image, compression=compression)
    assert png.dtype == tf.string and png.shape == ()
    np.testing.assert_array_equal(tf.io.decode_png(png, dtype=tf.as_dtype(dtype)), image)


@needs_pillow
def test_tf_reads_our_pngs_and_we_read_tfs():
    for name in ("encode_png-rgb.png", "encode_png-rgba.png", "encode_png-gray.png"):
        tf_png = TF[name][0].item()
        source = name.split("-", 1)[1]
        np.testing.assert_array_equal(tf.io.decode_png(tf_png), tf.io.decode_png(read(source)))
        ours = tf.io.encode_png(tf.io.decode_png(read(source)))
        np.testing.assert_array_equal(tf.io.decode_png(ours), tf.io.decode_png(tf_png))
    np.testing.assert_array_equal(
        tf.io.decode_png(TF["encode_png-u16"][0].item(), dtype=tf.uint16),
        tf.io.decode_png(read("gray16.png"), dtype=tf.uint16))


@needs_pillow
@pytest.mark.parametrize("quality", [50, 95])
def test_encode_jpeg_quality_matches_tfs_encoder(quality):
    image = tf.io.decode_png(read("rgb.png"))
    ours = tf.io.decode_jpeg(tf.io.encode_jpeg(image, quality=quality))
    theirs = tf.io.decode_jpeg(TF[f"encode_jpeg-q{quality}"][0].item())
    np.testing.assert_array_equal(ours, theirs)


@needs_pillow
def test_encode_jpeg_options():
    image = tf.io.decode_png(read("rgb.png"))
    small = tf.io.encode_jpeg(image, quality=10)
    large = tf.io.encode_jpeg(image, quality=100, chroma_downsampling=False)
    assert len(small.numpy()) < len(large.numpy())
    progressive = tf.io.encode_jpeg(image, progressive=True, optimize_size=True)
    assert tf.io.extract_jpeg_shape(progressive).numpy().tolist() == [9, 11, 3]
    gray = tf.io.encode_jpeg(tf.io.decode_png(read("gray.png")), format="grayscale")
    assert tf.io.decode_jpeg(gray).shape == (7, 4, 1)



@needs_pillow
@pytest.mark.parametrize("unit, x, y, header", [
    ("in", 300, 300, b"\x01\x01,\x01,"), ("cm", 100, 50, b"\x02\x00d\x002"),
    ("in", 0, 72, b"\x01\x00\x00\x00H"), ("cm", -1, 5, b"\x02\xff\xff\x00\x05")])
def test_encode_jpeg_writes_the_densities_given_in_their_unit(unit, x, y, header):
    # recorded from TF: the JFIF header's unit byte, then x and y densities (16 bits)
    image = tf.io.decode_png(read("rgb.png"))
    data = tf.io.encode_jpeg(image, density_unit=unit, x_density=x, y_density=y).numpy()
    assert data[:13] == b"\xff\xd8\xff\xe0\x00\x10JFIF\x00\x01\x01" and data[13:18] == header

_ERRORS = [
    (lambda: tf.io.decode_png(b"garbage"), "Unknown image file format. One of JPEG, JPEG XL, "
                                           "PNG, GIF, BMP, WebP required."),
    (lambda: tf.io.decode_png(b""), "Input is empty."),
    (lambda: tf.io.decode_png(read("rgb.png")[:60]), "Invalid PNG data, size 60"),
    (lambda: tf.io.decode_jpeg(read("rgb.jpg")[:300]),
     "jpeg::Uncompress failed. Invalid JPEG data or crop window."),
    (lambda: tf.io.decode_bmp(read("rgb.bmp")[:80]),
     r"Input size should match \(header_size \+ row_size \* abs_height\) but they differ "
     r"by -94"),
    (lambda: tf.io.decode_png(read("rgb.png"), channels=2),
     "`channels` must be 0, 1, 3 or 4 but got 2"),
    (lambda: tf.io.decode_png([read("rgb.png")] * 2), r"`contents` must be scalar but got "
                                                      r"shape\[2\]"),
    (lambda: tf.io.decode_bmp(read("rgb.png")), "Trying to decode PNG format using DecodeBmp "
                                                "op. Use `decode_png` or `decode_image` "
                                                "instead."),
    (lambda: tf.io.decode_png(read("rgb.bmp")), "Trying to decode BMP format using a wrong op. "
                                                "Use `decode_bmp` or `decode_image` instead. Op "
                                                "used: DecodePng"),
    (lambda: tf.io.decode_png(read("anim.gif")), "Got 3 frames, but animated gifs can only be "
                                                 "decoded by tf.io.decode_gif or "
                                                 "tf.io.decode_image"),
    (lambda: tf.io.decode_jpeg(read("rgb.jpg"), channels=4), "JPEG does not support 4 channels"),
    (lambda: tf.io.decode_image(read("anim.gif"), channels=4),
     "channels must be 0 or 3 for GIF, got 4"),
    (lambda: tf.io.decode_bmp(read("rgb.bmp"), channels=1),
     "`channels` must be 0, 3 or 4 for BMP, but got 1"),
    # a format's channel counts are checked before the op's format
    (lambda: tf.io.decode_png(read("rgb.bmp"), channels=1),
     "`channels` must be 0, 3 or 4 for BMP, but got 1"),
    (lambda: tf.io.decode_bmp(read("still.gif"), channels=1),
     "channels must be 0 or 3 for GIF, got 1"),
    (lambda: tf.io.decode_bmp(read("rgb.jpg"), channels=4), "JPEG does not support 4 channels"),
    (lambda: tf.io.encode_png(tf.ones([2, 2], tf.uint8)),
     r"images must be at least rank 3\[2,2\]"),
    (lambda: tf.io.encode_png(tf.ones([2, 2, 5], tf.uint8)),
     "image must have 1, 2, 3, or 4 channels, got 5"),
    (lambda: tf.io.encode_png(tf.ones([2, 2, 3]), 3),
     "Value for attr 'T' of float is not in the list of allowed values: uint8, uint16"),
    (lambda: tf.io.encode_png(tf.ones([2, 2, 3], tf.uint8), compression=10),
     r"compression should be in \[-1,9\], got 10"),
    (lambda: tf.io.encode_jpeg(tf.ones([2, 2, 2], tf.uint8)),
     r"image must have 1 or 3 channels, got \[2,2,2\]"),
    (lambda: tf.io.encode_jpeg(tf.ones([2, 2, 3], tf.uint8), quality=101),
     r"quality must be in \[0,100\], got 101"),
    (lambda: tf.io.encode_jpeg(tf.ones([2, 2, 3], tf.uint8), format="grayscale"),
     r"format grayscale expects 1 channels, got \[2,2,3\]"),
    (lambda: tf.io.encode_jpeg(tf.ones([2, 2, 3], tf.uint8), format="foo"),
     "Value for attr 'format' of \"foo\" is not in the list of allowed values"),
    (lambda: tf.io.extract_jpeg_shape(read("rgb.png")), "Invalid JPEG data, size 270"),
    (lambda: tf.io.decode_webp(read("anim_rgb.webp"), channels=3),
     "WebP Animation must be 4 channel RGBA"),
    (lambda: tf.io.decode_image(read("anim_rgb.webp"), channels=4),
     "Number of channels requested does not match input"),
    (lambda: tf.io.decode_image(read("rgb.webp"), channels=1, dtype=tf.float32),
     "WebP only supports 3 or 4 channels"),
    (lambda: tf.io.decode_webp(read("still.gif")), "Bad op type DecodeWebP"),
    (lambda: tf.io.decode_gif(read("no_map.gif")),
     r"Invalid GIF data \(size 126\), missing color map for frame 1"),
    (lambda: tf.io.decode_image(read("bad_index.gif"), expand_animations=False),
     r"Invalid GIF data \(size 95\), found color index 7 outside of color map range 4"),
]


@needs_pillow
@pytest.mark.parametrize("fn, message", _ERRORS, ids=lambda v: "")
def test_errors_are_tfs(fn, message):
    with pytest.raises(errors.InvalidArgumentError, match=message):
        fn()


@needs_pillow
def test_decode_bmp_reads_webp_frames_as_tf_does():
    frames = tf.io.decode_bmp(read("rgb.webp"))
    np.testing.assert_array_equal(frames, tf.io.decode_webp(read("rgb.webp")))
    assert frames.shape.rank == 4


@needs_pillow
def test_cmyk_jpeg_decodes_to_rgb_not_to_grayscale():
    import io  # noqa: PLC0415
    from PIL import Image  # noqa: PLC0415
    buffer = io.BytesIO()
    Image.new("CMYK", (3, 2), (10, 20, 30, 40)).save(buffer, "JPEG")
    data = buffer.getvalue()
    assert tf.io.decode_jpeg(data).shape == (2, 3, 3)
    for decode in (tf.io.decode_jpeg, tf.io.decode_image):
        with pytest.raises(errors.InvalidArgumentError,
                           match=r"jpeg::Uncompress failed\. Invalid JPEG data or crop window\."):
            decode(data, channels=1)


def test_is_jpeg():
    got = tf.io.is_jpeg(tf.constant([read("rgb.jpg"), read("rgb.png"), b"ab"]))
    np.testing.assert_array_equal(got, [True, False, False])
    assert tf.image.is_jpeg(read("gray.jpg")).numpy()


@needs_pillow
def test_decode_image_other_dtypes_convert_from_uint16():
    got = tf.io.decode_image(read("rgb.png"), dtype=tf.float16)
    assert got.dtype == tf.float16
    np.testing.assert_allclose(got, TF["decode_image-rgb.png-None-float32-1"][0], atol=1e-3)


def test_importing_eagerflow_does_not_import_pillow():
    code = "import sys, eagerflow; print('PIL' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         env={"PYTHONPATH": ":".join(sys.path)}, check=True)
    assert out.stdout.strip() == "False"


def test_missing_pillow_says_how_to_install_it(monkeypatch):
    monkeypatch.setitem(sys.modules, "PIL", None)
    with pytest.raises(ImportError, match="DecodePng needs Pillow.*pip install Pillow"):
        tf.io.decode_png(read("rgb.png"))
    # PNG encoding needs only zlib
    assert tf.io.encode_png(tf.zeros([1, 1, 1], tf.uint8)).numpy()[:4] == b"\x89PNG"


@needs_pillow
def test_decode_jpeg_errors_end_as_tfs_wrapper_ends_them():
    # TF's wrapper takes its slower path for the int default of acceptable_fraction
    with pytest.raises(errors.InvalidArgumentError) as info:
        tf.io.decode_jpeg(tf.constant(b"not an image"))
    assert str(info.value).endswith("WebP required. [Op:DecodeJpeg]")
    with pytest.raises(errors.InvalidArgumentError) as info:
        tf.io.decode_jpeg(tf.constant(b"not an image"), acceptable_fraction=1.0)
    assert str(info.value).endswith("WebP required. [Op:DecodeJpeg] name: ")
    with pytest.raises(errors.InvalidArgumentError) as info:
        tf.io.decode_and_crop_jpeg(tf.constant(b"not an image"), tf.constant([0, 0, 1, 1]))
    assert str(info.value).endswith("WebP required. [Op:DecodeAndCropJpeg]")
