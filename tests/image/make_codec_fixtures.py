"""Writes the small image files the codec tests decode (run once with Pillow; output checked in).

    python -m tests.image.make_codec_fixtures
"""
import io
import os

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


if __name__ == "__main__":
    main()
