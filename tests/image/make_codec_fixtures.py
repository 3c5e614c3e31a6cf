"""Writes the small image files the codec tests decode (run once with Pillow; output checked in).

    python -m tests.image.make_codec_fixtures
"""
import io
import os
import struct

import numpy as np
from PIL import Image

DATA = os.path.join(os.path.dirname(__file__), "data")


def _pixels(h, w, c, seed, high=256, dtype=np.uint8):
    rng = np.random.default_rng(seed)
    # smooth gradients plus noise: JPEG keeps them recognizable
    y, x = np.mgrid[0:h, 0:w]
    base = (y[..., None] * 7 + x[..., None] * 5 + np.arange(c) * 40) % high
    noise = rng.integers(0, max(high // 16, 2), size=(h, w, c))
    return ((base + noise) % high).astype(dtype)


def _save(name, img, **kwargs):
    buf = io.BytesIO()
    img.save(buf, **kwargs)
    with open(os.path.join(DATA, name), "wb") as f:
        f.write(buf.getvalue())


def _lzw(indices):
    """The LZW image data (code size and sub-blocks) Pillow writes for `indices`."""
    im = Image.fromarray(indices.astype(np.uint8), "P")
    im.putpalette(list(range(48)))
    buf = io.BytesIO()
    im.save(buf, format="GIF", optimize=False)
    data = buf.getvalue()
    at = data.index(b"\x2c", 13 + 3 * (2 << (data[10] & 7)))  # the image descriptor
    start = end = at + 10
    end += 1
    while data[end]:
        end += data[end] + 1
    return data[start:end + 1]


def _gif(name, size, palette, images):
    """A GIF of `images` (dicts: `idx` colour indices, `at` (left, top), optional
    `transparent` index, `disposal` method, `palette` of its own), written byte by byte."""
    def table(colors):
        return bytes(np.asarray(colors, np.uint8).ravel())

    def bits(colors):  # a colour table's size field
        return len(colors).bit_length() - 2

    out = b"GIF89a" + struct.pack("<HHBBB", *size, 0x80 | bits(palette) if palette else 0,
                                  0, 0)
    out += table(palette) if palette else b""
    for image in images:
        if "transparent" in image or "disposal" in image:
            flags = image.get("disposal", 0) << 2 | ("transparent" in image)
            out += b"\x21\xf9\x04" + bytes([flags, 5, 0, image.get("transparent", 0), 0])
        own = image.get("palette")
        h, w = image["idx"].shape
        out += b"\x2c" + struct.pack("<4HB", *image["at"], w, h, 0x80 | bits(own) if own else 0)
        out += (table(own) if own else b"") + _lzw(image["idx"])
    with open(os.path.join(DATA, name), "wb") as f:
        f.write(out + b"\x3b")


def _gifs():
    rng = np.random.default_rng(14)
    palette = rng.integers(0, 256, (16, 3)).tolist()
    small = rng.integers(0, 256, (4, 3)).tolist()
    # TF paints each image over the frame before, keeping it where the image is transparent
    # (the first frame: black), and applies no disposal method
    _gif("composed.gif", (8, 6), palette, [
        {"idx": rng.integers(0, 16, (6, 8)), "at": (0, 0), "transparent": 2, "disposal": 2},
        {"idx": rng.integers(0, 16, (3, 4)), "at": (2, 1), "transparent": 3, "disposal": 3},
        {"idx": rng.integers(0, 4, (6, 8)), "at": (0, 0), "palette": small, "transparent": 1},
        {"idx": rng.integers(0, 16, (4, 5)), "at": (6, 4)}])  # (partly off the frame)
    # frames of the first image's size, though the screen is larger
    _gif("offset.gif", (8, 6), palette, [{"idx": rng.integers(0, 16, (3, 4)), "at": (2, 1)},
                                         {"idx": rng.integers(0, 16, (3, 4)), "at": (0, 0)}])
    # a second image with no colour table: only the first frame decodes
    _gif("no_map.gif", (8, 6), None, [
        {"idx": rng.integers(0, 4, (6, 8)), "at": (0, 0), "palette": small},
        {"idx": rng.integers(0, 4, (6, 8)), "at": (0, 0)}])
    _gif("bad_index.gif", (8, 6), small, [{"idx": rng.integers(0, 16, (6, 8)), "at": (0, 0)}])


def main():
    _save("rgb.png", Image.fromarray(_pixels(9, 11, 3, 0)), format="PNG")
    _save("rgba.png", Image.fromarray(_pixels(6, 5, 4, 1)), format="PNG")
    _save("gray.png", Image.fromarray(_pixels(7, 4, 1, 2)[..., 0]), format="PNG")
    _save("gray_alpha.png", Image.fromarray(_pixels(5, 6, 2, 3), mode="LA"), format="PNG")
    gray16 = _pixels(6, 7, 1, 4, high=65536, dtype=np.uint16)[..., 0]
    _save("gray16.png", Image.fromarray(gray16.astype(np.int32), mode="I").convert("I;16"),
          format="PNG")
    _save("palette.png", Image.fromarray(_pixels(8, 8, 3, 5)).convert("P", palette=1,
                                                                       colors=16), format="PNG")
    _save("rgb.jpg", Image.fromarray(_pixels(16, 24, 3, 6)), format="JPEG", quality=90)
    _save("gray.jpg", Image.fromarray(_pixels(10, 12, 1, 7)[..., 0]), format="JPEG", quality=85)
    # 4:2:2 chroma (libjpeg interpolates it across only), odd sizes
    _save("rgb422.jpg", Image.fromarray(_pixels(13, 19, 3, 13)), format="JPEG", quality=90,
          subsampling=1)
    frames = [Image.fromarray(_pixels(6, 8, 3, 8 + i)).convert("P", palette=1, colors=8)
              for i in range(3)]
    _save("anim.gif", frames[0], format="GIF", save_all=True, append_images=frames[1:],
          duration=50, loop=0, disposal=1)
    _save("still.gif", frames[0], format="GIF")
    _save("rgb.bmp", Image.fromarray(_pixels(5, 7, 3, 11)), format="BMP")
    _save("rgba.bmp", Image.fromarray(_pixels(4, 6, 4, 12)), format="BMP")
    # tRNS chunks: TF gives palette images an alpha channel from them, the others none
    rng = np.random.default_rng(5)
    levels = rng.integers(0, 4, (4, 5, 3)).astype(np.uint8) * 60
    _save("trns_rgb.png", Image.fromarray(levels), format="PNG", transparency=(60, 0, 120))
    _save("trns_gray.png", Image.fromarray(rng.integers(0, 4, (3, 4)).astype(np.uint8) * 60),
          format="PNG", transparency=60)
    _save("trns_palette.png", Image.fromarray(levels).convert("P", palette=1, colors=4),
          format="PNG", transparency=0)
    _save("bilevel.png", Image.fromarray(rng.integers(0, 2, (3, 9)).astype(bool)), format="PNG")
    rng = np.random.default_rng(0)
    _save("rgb.webp", Image.fromarray(rng.integers(0, 256, (6, 9, 3)).astype(np.uint8)),
          format="WEBP", lossless=True)
    _save("rgba.webp", Image.fromarray(rng.integers(0, 256, (5, 4, 4)).astype(np.uint8)),
          format="WEBP", lossless=True)
    _save("anim_rgb.webp", Image.fromarray(rng.integers(0, 256, (5, 4, 3)).astype(np.uint8)),
          format="WEBP", lossless=True, save_all=True, duration=50,
          append_images=[Image.fromarray(rng.integers(0, 256, (5, 4, 3)).astype(np.uint8))])
    _gifs()


if __name__ == "__main__":
    main()
