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
