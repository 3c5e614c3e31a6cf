"""PNG rows filtered by None, Sub and Up (and mixes) decode to the pixels they were made
from, whatever the channels and dtype asked for, as libpng decodes them for TF."""
import struct
import zlib

import numpy as np
import pytest

import eagerflow as tf


def _chunk(kind, body):
    return (struct.pack(">I", len(body)) + kind + body
            + struct.pack(">I", zlib.crc32(kind + body) & 0xFFFFFFFF))


def _png(pixels, filters):
    """A PNG of uint8 `pixels` (h, w, c) whose row y is filtered by ``filters[y]``."""
    h, w, c = pixels.shape
    rows = pixels.reshape(h, -1).astype(np.int32)
    out = []
    for y in range(h):
        r = rows[y]
        if filters[y] == 1:
            r = r - np.concatenate([np.zeros(c, np.int32), rows[y][:-c]])
        elif filters[y] == 2:
            r = r - (rows[y - 1] if y else 0)
        out.append(np.concatenate([[filters[y]], r & 0xFF]).astype(np.uint8))
    color = {1: 0, 2: 4, 3: 2, 4: 6}[c]
    return (b"\x89PNG\r\n\x1a\n"
            + _chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, color, 0, 0, 0))
            + _chunk(b"IDAT", zlib.compress(np.concatenate(out).tobytes()))
            + _chunk(b"IEND", b""))


@pytest.mark.parametrize("channels", [1, 2, 3, 4])
@pytest.mark.parametrize("filters", [[0], [1], [2], [0, 1], [0, 2, 2], [2, 0, 1, 0, 2]])
def test_filtered_rows_decode_to_their_pixels(channels, filters):
    rng = np.random.default_rng(channels)
    pixels = rng.integers(0, 256, (6, 5, channels), dtype=np.uint8)
    data = _png(pixels, [filters[y % len(filters)] for y in range(6)])
    np.testing.assert_array_equal(tf.io.decode_png(data).numpy(), pixels)
    np.testing.assert_array_equal(tf.image.decode_image(data).numpy(), pixels)
    wide = tf.io.decode_png(data, dtype=tf.uint16).numpy()
    np.testing.assert_array_equal(wide, pixels.astype(np.uint16) * 257)
    rgba = tf.io.decode_png(data, channels=4).numpy()
    assert rgba.shape == (6, 5, 4)
    if channels >= 3:
        np.testing.assert_array_equal(rgba[..., :3], pixels[..., :3])


def test_encode_png_round_trip_and_a_truncated_file():
    pixels = np.arange(2 * 3 * 3, dtype=np.uint8).reshape(2, 3, 3)
    data = tf.io.encode_png(pixels)
    np.testing.assert_array_equal(tf.io.decode_png(data).numpy(), pixels)
    with pytest.raises(tf.errors.InvalidArgumentError):
        tf.io.decode_png(data.numpy()[:40])


def _mapped(contents, fn, parallel=None, batch=None):
    ds = tf.data.Dataset.from_tensor_slices(contents).map(fn, num_parallel_calls=parallel)
    if batch:
        ds = ds.batch(batch)
    return [e.numpy() for e in ds]


_DECODES = {
    "png": lambda d: tf.io.decode_png(d),
    "png_gray": lambda d: tf.io.decode_png(d, channels=1),
    "png_rgba_16": lambda d: tf.io.decode_png(d, channels=4, dtype=tf.uint16),
    "jpeg_op": lambda d: tf.io.decode_jpeg(d, channels=3),
    "image_float": lambda d: tf.image.decode_image(d, channels=3, dtype=tf.float32),
}


@pytest.mark.parametrize("name", sorted(_DECODES))
@pytest.mark.parametrize("channels", [1, 3, 4])
@pytest.mark.parametrize("kinds", [[[0]], [[1], [1, 0]], [[2], [2, 0, 2], [0, 2]],
                                   [[0], [1], [2]]])
@pytest.mark.parametrize("parallel", [None, tf.data.AUTOTUNE])
def test_a_mapped_chunk_of_pngs_decodes_as_each_alone(name, channels, kinds, parallel):
    # (Up rows start over at each image's first row, which has no row above)
    rng = np.random.default_rng(channels)
    pixels = rng.integers(0, 256, (12, 5, 4, channels), dtype=np.uint8)
    pngs = [_png(p, [kinds[i % len(kinds)][y % len(kinds[i % len(kinds)])] for y in range(5)])
            for i, p in enumerate(pixels)]
    fn = _DECODES[name]
    want = [fn(d).numpy() for d in pngs]
    for got in (_mapped(pngs, fn, parallel), np.concatenate(_mapped(pngs, fn, parallel, 5))):
        assert len(got) == len(want)
        for a, b in zip(got, want):
            assert a.dtype == b.dtype and a.shape == b.shape
            np.testing.assert_array_equal(a, b)


def test_a_mapped_chunk_of_mixed_images_decodes_each_in_order():
    rng = np.random.default_rng(3)
    small, large = (rng.integers(0, 256, s, dtype=np.uint8) for s in ((3, 2, 3), (4, 5, 3)))
    jpeg = tf.io.encode_jpeg(large).numpy()
    pngs = [_png(small, [0] * 3), _png(large, [2] * 4), tf.io.encode_png(small).numpy(), jpeg,
            _png(small, [1] * 3)]
    got = _mapped(pngs, lambda d: tf.io.decode_image(d, channels=3))
    for a, d in zip(got, pngs):
        np.testing.assert_array_equal(a, tf.io.decode_image(d, channels=3).numpy())
    assert [a.shape for a in got] == [(3, 2, 3), (4, 5, 3), (3, 2, 3), (4, 5, 3), (3, 2, 3)]


def test_a_bad_png_in_a_mapped_chunk_fails_alone_in_its_place():
    pixels = np.random.default_rng(5).integers(0, 256, (8, 3, 2, 3), dtype=np.uint8)
    pngs = [_png(p, [0, 2, 1]) for p in pixels]
    pngs[5] = pngs[5][:40]  # truncated
    it = iter(tf.data.Dataset.from_tensor_slices(pngs).map(tf.io.decode_png))
    for i in range(5):
        np.testing.assert_array_equal(next(it).numpy(), pixels[i])
    with pytest.raises(tf.errors.InvalidArgumentError, match="PNG"):
        next(it)
    rest = tf.data.Dataset.from_tensor_slices(pngs).map(tf.io.decode_png).ignore_errors()
    got = [e.numpy() for e in rest]
    np.testing.assert_array_equal(np.stack(got), np.delete(pixels, 5, 0))
    with pytest.raises(tf.errors.InvalidArgumentError, match="channels"):
        _mapped(pngs[:4], lambda d: tf.io.decode_png(d, channels=2))


@pytest.fixture
def _three_intra_op_threads():
    tf.config.threading.set_intra_op_parallelism_threads(3)
    yield
    tf.config.threading.set_intra_op_parallelism_threads(0)


@pytest.mark.usefixtures("_three_intra_op_threads")
@pytest.mark.parametrize("parallel", [None, tf.data.AUTOTUNE])
def test_a_mapped_chunk_of_jpegs_decodes_on_threads_as_each_alone(parallel):
    pytest.importorskip("PIL")
    rng = np.random.default_rng(9)
    sizes = [(8, 8, 3)] * 7 + [(5, 9, 3)] * 3
    images = [rng.integers(0, 256, s, dtype=np.uint8) for s in sizes]
    jpegs = [tf.io.encode_jpeg(im).numpy() for im in images]
    for fn in (lambda d: tf.io.decode_jpeg(d), lambda d: tf.image.decode_image(d, 1)):
        want = [fn(d).numpy() for d in jpegs]
        for contents in (jpegs[:7], jpegs):  # one shape, then shapes that differ
            got = _mapped(contents, fn, parallel)
            assert len(got) == len(contents)
            for a, b in zip(got, want):
                np.testing.assert_array_equal(a, b)
        batches = _mapped(jpegs[:7], fn, parallel, 3)
        np.testing.assert_array_equal(np.concatenate(batches), np.stack(want[:7]))
    bad = jpegs[:7]
    bad[4] = bad[4][:20]
    it = iter(tf.data.Dataset.from_tensor_slices(bad).map(tf.io.decode_jpeg))
    for i in range(4):
        np.testing.assert_array_equal(next(it).numpy(), tf.io.decode_jpeg(jpegs[i]).numpy())
    with pytest.raises(tf.errors.InvalidArgumentError, match="JPEG"):
        next(it)
    kept = [e.numpy() for e in tf.data.Dataset.from_tensor_slices(bad).map(
        tf.io.decode_jpeg).ignore_errors()]
    assert len(kept) == 6
    np.testing.assert_array_equal(kept[4], tf.io.decode_jpeg(jpegs[5]).numpy())


def test_vectorized_map_decodes_pngs_inside_a_function():
    pixels = np.random.default_rng(2).integers(0, 256, (4, 3, 2, 3), dtype=np.uint8)
    pngs = tf.constant([_png(p, [0, 2, 1]) for p in pixels])
    decode = tf.function(lambda p: tf.vectorized_map(
        lambda d: tf.image.decode_image(d, channels=3, expand_animations=False), p))
    np.testing.assert_array_equal(decode(pngs).numpy(), pixels)
    np.testing.assert_array_equal(tf.vectorized_map(tf.io.decode_png, pngs).numpy(), pixels)
