"""Image codecs (``tf.io.decode_png``, ``encode_jpeg``, ...) on string tensors.

Decoding and JPEG encoding go through Pillow, an optional dependency
(``pip install Pillow``, or the ``image`` extra), imported when an op first runs;
PNG encoding needs only zlib. As in TF, every decode op reads any of the formats
except where TF refuses (BMP through the other ops, animated GIFs through
``decode_png``/``decode_jpeg``), and converts channels and dtypes itself.

JPEG: TF decodes with libjpeg's fast integer inverse DCT and interpolated chroma by
default; Pillow's draft decoding gives the fast DCT with replicated chroma, from which
the chroma planes are interpolated and converted here as libjpeg does, so the pixels are
TF's (only INTEGER_ACCURATE without fancy upscaling differs, as the accurate DCT comes
with interpolation alone); JPEG encoding gives the same pixels as TF's. PNG,
GIF, BMP and WebP decode to TF's values. 16-bit colour PNGs are decoded here (Pillow
would reduce them to 8 bits), except interlaced ones; BMP too.

A dataset map decodes a chunk of images at once (the decode ops' batching rule): plain
8-bit PNGs of one size are inflated one by one and unfiltered together, other images
are decoded on the intra-op threads (`backend.threads.in_chunks`).

>>> png = tf.io.encode_png(tf.constant([[[0], [255]]], tf.uint8))
>>> tf.io.decode_png(png)[..., 0]
<tf.Tensor: shape=(1, 2), dtype=uint8, numpy=array([[  0, 255]], dtype=uint8)>
"""
import io
import math
import struct
import zlib

import numpy as np

from eagerflow._src.backend import threads
from eagerflow._src.backend.api_export import export
from eagerflow._src.core import dtypes as _d
from eagerflow._src.core import errors
from eagerflow._src.core.convert import convert_input
from eagerflow._src.core.dispatch import dispatch
from eagerflow._src.core.errors import shape_text
from eagerflow._src.core.node_forms import NodeForm, tf_nodes
from eagerflow._src.core.node_forms import tf_args
from eagerflow._src.core.registry import PER_ELEMENT, attr_dtype_error, batching_rules, register
from eagerflow._src.core.tensor import Tensor
from eagerflow._src.core.tensor_shape import TensorShape
from eagerflow._src.ops import image_ops, math_ops, random_ops, shape_rules, string_ops
from eagerflow._src.ops.wrappers import as_tensor

_NO_GRAD = "image codec"
_DOCTEST_REQUIRES = ("PIL",)  # the examples decode through Pillow (see conftest.py)


def _invalid(message):
    return errors.InvalidArgumentError(None, None, message)


def _pillow(op_name):
    """PIL.Image, imported on first use: Pillow is an optional dependency."""
    try:
        from PIL import Image
    except ImportError:
        raise ImportError(f"{op_name} needs Pillow, which is not installed: pip install Pillow "
                          f"(or pip install eagerflow[image]).") from None
    return Image


def _contents(contents):
    if contents.ndim != 0:
        raise _invalid(f"`contents` must be scalar but got shape{shape_text(contents.shape)}")
    data = contents.item()
    return data.encode() if isinstance(data, str) else bytes(data)


def _format(data):
    if data[:3] == b"\xff\xd8\xff":
        return "JPEG"
    if data[:8] == b"\x89PNG\r\n\x1a\n":
        return "PNG"
    if data[:6] in (b"GIF87a", b"GIF89a"):
        return "GIF"
    if data[:2] == b"BM":
        return "BMP"
    if data[:4] == b"RIFF" and data[8:12] == b"WEBP":
        return "WebP"
    return None


_CORRUPT = {
    "PNG": "Invalid PNG data, size {size}",
    "JPEG": "jpeg::Uncompress failed. Invalid JPEG data or crop window.",
    "GIF": "Invalid GIF data (size {size}), failed to slurp gif file: Failed to read from "
           "given file",
    "BMP": "Invalid BMP data, size {size}",
    "WebP": "Invalid WebP data, size {size}",
}


def _frames(op_name, data, fmt, gray, ratio=1, fast=True, fancy=True, columns=None,
            first_only=False):
    """The frames of `data`, (frames, height, width, channels) arrays of uint8 (or uint16
    for 16-bit PNGs); `gray`: a JPEG decodes its luma alone, as libjpeg does; `fast`: with
    libjpeg's fast integer inverse DCT; `fancy`: upsampling chroma by interpolation;
    `first_only`: a GIF's first frame alone (the others not even read)."""
    Image = _pillow(op_name)
    try:
        im = Image.open(io.BytesIO(data))
        if fmt == "JPEG":
            if gray and im.mode == "CMYK":  # libjpeg has no CMYK -> grayscale conversion
                raise ValueError("Unsupported color conversion request")
            return _jpeg(im, gray, ratio, fast, fancy, columns)[None]
        if fmt == "GIF":
            return _gif(data, Image, first_only)
        return _native(im, fmt)[None]
    except _GifError as e:
        raise _invalid(f"Invalid GIF data (size {len(data)}), {e}") from None
    except (OSError, ValueError, SyntaxError, EOFError, IndexError, struct.error) as e:
        raise _invalid(_CORRUPT[fmt].format(size=len(data))) from e


def _gif(data, Image, first_only=False):
    """The frames of GIF `data` as TF composes them, of the first image's size: each frame
    starts as a copy of the one before (the first as black) and its image's pixels are
    painted over it at its offset, but for those of its transparent colour; disposal
    methods are not applied. Pillow decodes each image's colour indices alone (its own
    compositing differs)."""
    def blocks(pos):  # (the end of a run of data sub-blocks starting at `pos`)
        while data[pos]:
            pos += data[pos] + 1
        return pos + 1

    def color_map(flags, pos):
        if not flags & 0x80:
            return None, pos
        size = 3 * (2 << (flags & 7))
        return np.frombuffer(data[pos:pos + size], np.uint8).reshape(-1, 3), pos + size

    global_map, pos = color_map(data[10], 13)
    canvas, frames, transparent = None, [], None
    while pos < len(data) and data[pos] != 0x3B:  # (0x3B: the trailer)
        kind, pos = data[pos], pos + 1
        if kind == 0x21:  # an extension: a graphic control one gives the next image's
            if data[pos] == 0xF9 and data[pos + 1] >= 4:  # transparent colour
                transparent = data[pos + 5] if data[pos + 2] & 1 else None
            pos = blocks(pos + 1)
            continue
        if kind != 0x2C:
            raise ValueError("not an image descriptor")
        left, top, w, h, flags = struct.unpack("<4HB", data[pos:pos + 9])
        local_map, pos = color_map(flags, pos + 9)
        end = blocks(pos + 1)
        indices = _gif_indices(Image, w, h, flags & 0x40, data[pos:end])
        pos, colors = end, global_map if local_map is None else local_map
        canvas = np.zeros((h, w, 3), np.uint8) if canvas is None else canvas.copy()
        if colors is None:
            raise _GifError(f"missing color map for frame {len(frames)}")
        height, width = canvas.shape[:2]
        area = indices[:max(0, min(h, height - top)), :max(0, min(w, width - left))]
        painted = area != transparent if transparent is not None else np.ones_like(area, bool)
        outside = area[painted & (area >= len(colors))]  # (the first, row by row)
        if outside.size:
            raise _GifError(f"found color index {outside[0]} outside of color map range "
                            f"{len(colors)}")
        region = canvas[top:top + area.shape[0], left:left + area.shape[1]]
        region[painted] = colors[area[painted]]
        frames.append(canvas)
        transparent = None
        if first_only:
            break
    if not frames:
        raise ValueError("no image")
    return np.stack(frames)


class _GifError(ValueError):
    """A GIF TF reads but refuses, with TF's reason."""


def _gif_indices(Image, width, height, interlaced, image_data):
    """The colour indices of one GIF image (its LZW data), decoded by Pillow from a GIF of
    that image alone whose palette maps each index to itself."""
    palette = bytes(np.repeat(np.arange(256, dtype=np.uint8), 3))
    alone = (b"GIF87a" + struct.pack("<HHBBB", width, height, 0xF7, 0, 0) + palette
             + b"\x2c" + struct.pack("<4HB", 0, 0, width, height, 0x40 if interlaced else 0)
             + image_data + b"\x3b")
    with Image.open(io.BytesIO(alone)) as im:
        return np.asarray(im.convert("L") if im.mode not in ("L", "P") else im)


def _jpeg(im, gray, ratio, fast, fancy, columns=None):
    """The pixels of JPEG `im` (opened by Pillow) as TF's libjpeg settings give them.

    Pillow's decoder takes a scale and a "draft" flag, which picks the fast inverse DCT
    and plain (replicating) upsampling; TF's default is the fast DCT with interpolated
    upsampling, so for subsampled chroma the planes are decoded with the flag and
    upsampled and converted to RGB here as libjpeg does."""
    from PIL import ImageFile  # noqa: PLC0415 (Pillow is imported on first use)
    d, extent, offset, args = im.tile[0]
    width, height = im.size
    ycc = im.mode == "RGB" and len(getattr(im, "layer", ())) == 3 and \
        im.info.get("adobe_transform", 1) != 0
    factors = _chroma_factors(im, ratio) if ycc and fast and fancy and not gray else None
    if gray and args[0] == "RGB":
        im._mode, args = "L", ("L", "")
    elif factors:
        im._mode, args = "YCbCr", ("YCbCr", "")
    if ratio > 1:  # (as Pillow's `draft` scales, but by `ratio` even for tiny images)
        extent = (extent[0], extent[1], (extent[2] - extent[0] + ratio - 1) // ratio + extent[0],
                  (extent[3] - extent[1] + ratio - 1) // ratio + extent[1])
        im._size = ((width + ratio - 1) // ratio, (height + ratio - 1) // ratio)
    im.tile = [ImageFile._Tile(d, extent, offset, args)]
    im.decoderconfig = (ratio, 1 if fast else 0)
    pixels = _native(im, "JPEG")
    if not factors:
        return pixels
    h, v = factors  # the chroma planes as decoded, then interpolated as libjpeg does
    if columns is not None:  # (TF's cropped decoding: its edges are the window's, the
        # left one moved back to a column of whole blocks)
        start = columns[0] // (8 * h) * (8 * h)
        end = columns[1]
        out = np.zeros(pixels.shape, np.uint8)
        region = pixels[:, start:end].astype(np.int32)
        if h == 2 and end - start <= 2:  # (one chroma column: replicated, as TF's gives it)
            out[:, start:end] = _ycc_to_rgb(region[..., 0], region[..., 1], region[..., 2])
        else:
            out[:, start:end] = _jpeg_region(pixels[:, start:end], h, v)
        return out
    return _jpeg_region(pixels, h, v)


def _jpeg_region(pixels, h, v):
    """RGB of YCbCr `pixels` whose chroma libjpeg replicated `h` by `v` times, the chroma
    interpolated instead as libjpeg's fancy upsampling does."""
    planes = [pixels[..., 0].astype(np.int32)]
    for c in (1, 2):
        plane = pixels[::v, ::h, c].astype(np.int32)
        if v == 2:
            plane = _fancy_rows(plane, bias=(8, 7) if h == 2 else (1, 2))
        if h == 2:
            plane = _fancy_columns(plane, four=v == 2)
        elif v == 2:
            plane = plane >> 2
        planes.append(plane[:pixels.shape[0], :pixels.shape[1]])
    return _ycc_to_rgb(*planes)


def _chroma_factors(im, ratio):
    """(h, v): how many times libjpeg upsamples `im`'s chroma across and down when it
    interpolates (2x1, 1x2 or 2x2 with both chroma planes at 1x1), else None (no
    upsampling, or one libjpeg replicates, which the draft decoding gives as it is).
    Decoding scaled down by `ratio`, libjpeg scales the chroma less where it can."""
    (_, lh, lv, _), (_, ch, cv, _), (_, rh, rv, _) = im.layer
    scaled = 8 // ratio  # the size of the luma's inverse DCTs
    if (ch, cv, rh, rv) != (1, 1, 1, 1) or scaled == 1:
        return None
    size = scaled  # the chroma's
    while size < 8 and (lh * scaled) % (2 * size) == 0 and (lv * scaled) % (2 * size) == 0:
        size *= 2
    h, v = lh * scaled // size, lv * scaled // size
    if (h, v) not in ((2, 2), (2, 1), (1, 2)):
        return None
    if h == 2 and -(-im.size[0] * size // (lh * 8)) <= 2:  # libjpeg replicates these
        return None
    return h, v


def _fancy_rows(plane, bias):
    """libjpeg's vertical interpolation: each row twice, 3/4 of itself and 1/4 of the row
    above (then below), edges repeated; as column sums ×4 when `bias` is (8, 7) (the
    2x2 case, finished by `_fancy_columns`), else rounded with `bias` (1/4 then 2/4)."""
    above = np.concatenate([plane[:1], plane[:-1]])
    below = np.concatenate([plane[1:], plane[-1:]])
    out = np.empty((2 * plane.shape[0], plane.shape[1]), np.int32)
    out[0::2] = 3 * plane + above
    out[1::2] = 3 * plane + below
    if bias != (8, 7):
        out[0::2] += bias[0]
        out[1::2] += bias[1]
    return out


def _fancy_columns(plane, four):
    """libjpeg's horizontal interpolation of `plane` (column sums of `_fancy_rows` when
    `four`, else samples): each column twice, 3/4 of itself and 1/4 of its neighbour."""
    left = np.concatenate([plane[:, :1], plane[:, :-1]], 1)
    right = np.concatenate([plane[:, 1:], plane[:, -1:]], 1)
    out = np.empty((plane.shape[0], 2 * plane.shape[1]), np.int32)
    if four:
        out[:, 0::2] = (3 * plane + left + 8) >> 4
        out[:, 1::2] = (3 * plane + right + 7) >> 4
    else:
        out[:, 0::2] = (3 * plane + left + 1) >> 2
        out[:, 1::2] = (3 * plane + right + 2) >> 2
    return out


def _fixed(x):
    return int(x * 65536 + 0.5)


def _ycc_to_rgb(y, cb, cr):
    """libjpeg's YCbCr to RGB conversion, in its 16-bit fixed point."""
    cb, cr = cb - 128, cr - 128
    red = y + ((_fixed(1.402) * cr + 32768) >> 16)
    green = y + ((-_fixed(0.34414) * cb + 32768 - _fixed(0.71414) * cr) >> 16)
    blue = y + ((_fixed(1.772) * cb + 32768) >> 16)
    return np.clip(np.stack([red, green, blue], -1), 0, 255).astype(np.uint8)


def _png16(data):
    """(1, height, width, channels) uint16 pixels of a non-interlaced 16-bit colour PNG, which
    Pillow would reduce to 8 bits; None for every other PNG (Pillow decodes those)."""
    if len(data) < 33 or data[24] != 16 or data[25] not in (2, 4, 6) or data[28] != 0:
        return None
    width, height = struct.unpack(">II", data[16:24])
    channels = {2: 3, 4: 2, 6: 4}[data[25]]
    chunks, at = [], 8
    while at + 8 <= len(data):
        size, kind = struct.unpack(">I", data[at:at + 4])[0], data[at + 4:at + 8]
        if kind == b"IDAT":
            chunks.append(data[at + 8:at + 8 + size])
        at += size + 12
    try:
        raw = np.frombuffer(zlib.decompress(b"".join(chunks)), np.uint8)
    except zlib.error as e:
        raise _invalid(f"Invalid PNG data, size {len(data)}") from e
    bpp, stride = 2 * channels, 2 * channels * width
    if raw.size < height * (stride + 1):
        raise _invalid(f"Invalid PNG data, size {len(data)}")
    rows = raw[:height * (stride + 1)].reshape(height, stride + 1)
    out = np.zeros((height, stride), np.uint8)
    prior = np.zeros(stride, np.uint8)
    for y in range(height):
        kind, line = rows[y, 0], rows[y, 1:].copy()
        if kind == 1:  # each byte adds the reconstructed byte one pixel to its left
            line = np.cumsum(line.reshape(-1, bpp), 0, dtype=np.uint8).reshape(-1)
        elif kind == 2:
            line = line + prior
        elif kind in (3, 4):  # depend on the reconstructed left pixel: one pixel at a time
            left, line = np.zeros(bpp, np.int32), line.astype(np.int32)
            up, corner = prior.astype(np.int32), np.zeros(bpp, np.int32)
            for x in range(0, stride, bpp):
                b = up[x:x + bpp]
                if kind == 3:
                    predictor = (left + b) // 2
                else:
                    p = left + b - corner
                    pa, pb, pc = np.abs(p - left), np.abs(p - b), np.abs(p - corner)
                    predictor = np.where((pa <= pb) & (pa <= pc), left,
                                         np.where(pb <= pc, b, corner))
                left = line[x:x + bpp] = (line[x:x + bpp] + predictor) & 0xFF
                corner = b
            line = line.astype(np.uint8)
        out[y] = prior = line
    return out.view(">u2").astype(np.uint16).reshape(1, height, width, channels)


_PLAIN_CHUNKS = {b"IHDR", b"IDAT", b"IEND"}


def _png8(data):
    """(1, height, width, channels) uint8 pixels of a plain 8-bit PNG (gray, gray-alpha, RGB
    or RGBA, not interlaced, no other chunks) whose rows are unfiltered, or all filtered
    by Sub, or by Up (as `encode_png` and simple writers make them), decoded with zlib and
    NumPy at a fraction of Pillow's cost per image; None for every other PNG (Pillow
    decodes those, and reports what is wrong with a damaged one)."""
    found = _png8_rows(data)
    if found is None:
        return None
    rows, height, width, channels = found
    pixels = _unfilter(rows, height, width, channels)
    return None if pixels is None else pixels.reshape(1, height, width, channels)


def _png8_rows(data):
    """(the filtered rows, height, width, channels) of a plain 8-bit PNG as `_png8` takes
    them, the rows a (height, 1 + width * channels) uint8 array; or None."""
    if len(data) < 33 or data[24] != 8 or data[25] not in (0, 2, 4, 6) or data[28] != 0:
        return None
    width, height = struct.unpack(">II", data[16:24])
    channels = {0: 1, 2: 3, 4: 2, 6: 4}[data[25]]
    chunks, at = [], 8
    while at + 8 <= len(data):
        size, kind = struct.unpack(">I", data[at:at + 4])[0], data[at + 4:at + 8]
        if kind not in _PLAIN_CHUNKS:
            return None
        if kind == b"IDAT":
            chunks.append(data[at + 8:at + 8 + size])
        at += size + 12
    try:
        raw = np.frombuffer(zlib.decompress(b"".join(chunks)), np.uint8)
    except zlib.error:
        return None
    stride = channels * width
    if width == 0 or height == 0 or raw.size != height * (stride + 1):
        return None
    return raw.reshape(height, stride + 1), height, width, channels


def _unfilter(rows, height, width, channels):
    """The pixels, (rows, width * channels) uint8, of the filtered `rows` of one or more
    images `height` rows each, stacked: unfiltered, Sub or Up rows only; None for others."""
    kinds, lines = rows[:, 0], rows[:, 1:]
    stride = width * channels
    if not kinds.any():
        return lines.copy()
    if kinds.max() == 1:  # each byte adds the reconstructed one a pixel to its left
        pixels = lines.copy()
        sub = kinds == 1
        pixels[sub] = np.cumsum(lines[sub].reshape(-1, width, channels), 1,
                                dtype=np.uint8).reshape(-1, stride)
        return pixels
    if set(np.unique(kinds).tolist()) <= {0, 2}:  # each byte adds the one above it
        total = np.cumsum(lines, 0, dtype=np.uint8)  # sums restarting at each unfiltered row
        index = np.arange(len(kinds))
        # (an image's first row has no row above: its sum restarts there too)
        start = np.maximum.accumulate(np.where((kinds == 0) | (index % height == 0), index, 0))
        before = np.where(start > 0, total[start - 1].T, 0).T.astype(np.uint8)
        return total - before
    return None


def _webp(op_name, data, channels, dtype, expand_animations):
    """A WebP file's frames, (frames, height, width, 3 or 4) uint8, as every decode op gives
    them (one frame alone when decode_image does not expand animations)."""
    if channels not in (0, 3, 4):
        raise _invalid("WebP only supports 3 or 4 channels")
    if dtype != _d.uint8:
        raise _invalid("WebP only supports uint8 for dtype")
    Image = _pillow(op_name)
    try:
        im = Image.open(io.BytesIO(data))
        mode = "RGBA" if "A" in im.mode or im.info.get("transparency") is not None else "RGB"
        frames = []
        for i in range(getattr(im, "n_frames", 1)):
            im.seek(i)
            frames.append(np.asarray(im.convert(mode)))
    except (OSError, ValueError, SyntaxError, EOFError) as e:
        raise _invalid(_CORRUPT["WebP"].format(size=len(data))) from e
    if channels not in (0, len(mode)):
        raise _invalid("Number of channels requested does not match input")
    if channels == 3 and len(frames) > 1:  # (TF decodes animations as RGBA alone)
        raise _invalid("WebP Animation must be 4 channel RGBA")
    frames = np.stack(frames)
    return frames[0] if op_name == "DecodeImage" and not expand_animations else frames


def _native(im, fmt):
    """An opened image's pixels as (height, width, channels), uint8 or 16-bit uint16."""
    mode = im.mode
    if mode == "P":
        im = im.convert("RGBA" if "transparency" in im.info else "RGB")
    elif mode == "1":
        im = im.convert("L")
    elif mode == "CMYK":
        im = im.convert("RGB")
    elif mode == "PA":
        im = im.convert("RGBA")
    if im.mode.startswith("I"):  # 16-bit grayscale
        return np.asarray(im).astype(np.uint16)[..., None]
    pixels = np.asarray(im)
    return pixels[..., None] if pixels.ndim == 2 else pixels


def _gray(pixels):
    """Luma of RGB pixels as libpng computes it for TF (weights .299, .587 and the rest in
    fixed point; 8-bit sums truncated, 16-bit ones rounded)."""
    weights = np.array([9797, 19234, 3737], np.int64)  # of 32768
    total = (pixels[..., :3].astype(np.int64) * weights).sum(-1)
    if pixels.dtype == np.uint16:
        total += 16384
    return (total >> 15).astype(pixels.dtype)[..., None]


def _with_channels(pixels, channels, alpha=None):
    """`pixels` (..., c) with `channels` channels (0: as they are), as TF's decoders give;
    `alpha`: the alpha channel added to pixels without one (by default opaque)."""
    have = pixels.shape[-1]
    if channels == 0 or channels == have:
        return pixels
    if channels == 1:
        return pixels[..., :1] if have <= 2 else _gray(pixels)
    color = np.repeat(pixels[..., :1], 3, -1) if have <= 2 else pixels[..., :3]
    if channels == 3:
        return color
    if have in (2, 4):
        alpha = pixels[..., -1:]
    elif alpha is None:
        alpha = np.full(pixels.shape[:-1] + (1,), np.iinfo(pixels.dtype).max, pixels.dtype)
    return np.concatenate([color, alpha], -1)


def _as_dtype(pixels, dtype, fmt):
    """uint8 or 16-bit pixels as `dtype` (uint8, uint16 or float32 in [0, 1]): PNG scales
    8 bits to 16 by 257 (libpng), the other formats by 256."""
    if dtype == _d.float32:  # PNG decodes to 16 bits first, then each is scaled
        if fmt == "PNG" and pixels.dtype == np.uint8:
            pixels = pixels.astype(np.uint16) * np.uint16(257)
        return pixels.astype(np.float32) * np.float32(1.0 / np.iinfo(pixels.dtype).max)
    want = dtype.as_numpy_dtype
    if pixels.dtype == want:
        return pixels
    if want == np.uint16:
        return pixels.astype(np.uint16) * np.uint16(257 if fmt == "PNG" else 256)
    return (pixels >> 8).astype(np.uint8)


def _png_alpha(data, fmt, pixels):
    """The alpha channel TF's PNG decoder adds to `pixels` without one, or None: from a tRNS
    chunk's transparent colour (grayscale and RGB images), else libpng's filler, which holds
    the file's bit depth (15 for a 4-bit image, 255 for 8 bits)."""
    if fmt != "PNG" or len(data) < 33:
        return None
    depth, color = data[24], data[25]
    at = 8
    while at + 8 <= len(data):
        size, kind = struct.unpack(">I", data[at:at + 4])[0], data[at + 4:at + 8]
        if kind in (b"IDAT", b"IEND"):
            break
        if kind == b"tRNS" and color in (0, 2):
            values = struct.unpack(f">{size // 2}H", data[at + 8:at + 8 + size // 2 * 2])
            if depth < 8:  # Pillow scales low bit depths to 8 bits
                values = tuple(v * (255 // ((1 << depth) - 1)) for v in values)
            clear = np.all(pixels[..., :len(values)] == np.array(values), axis=-1)
            return np.where(clear, 0, np.iinfo(pixels.dtype).max).astype(pixels.dtype)[..., None]
        at += size + 12
    if depth < 8:
        return np.full(pixels.shape[:-1] + (1,), (1 << depth) - 1, pixels.dtype)
    return None


def _bmp(data):
    """(1, height, width, channels) pixels of an uncompressed 8, 24 or 32-bit BMP."""
    def number(at, size, signed=False):
        return int.from_bytes(data[at:at + size], "little", signed=signed)
    if len(data) < 32:  # (TF reads the header's fields as 32 bytes)
        raise _invalid(f"Incomplete bmp content, requires at least 32 bytes to find the header "
                       f"size, width, height, and bpp, got {len(data)} bytes")
    offset, width, height, bpp = number(10, 4), number(18, 4, True), number(22, 4, True), \
        number(28, 2)
    channels = bpp // 8
    if channels not in (1, 3, 4) or bpp % 8:
        raise _invalid(f"Number of channels inherent in the image must be 1, 3 or 4, was "
                       f"{channels}")
    rows, row_size = abs(height), ((bpp * width + 31) // 32) * 4
    excess = len(data) - (offset + row_size * rows)
    if excess < 0:
        raise _invalid(f"Input size should match (header_size + row_size * abs_height) but "
                       f"they differ by {excess}")
    pixels = np.frombuffer(data, np.uint8, row_size * rows, offset).reshape(rows, row_size)
    pixels = pixels[:, :width * channels].reshape(rows, width, channels)
    if height > 0:  # stored bottom-up
        pixels = pixels[::-1]
    if channels >= 3:  # BGR(A) -> RGB(A)
        pixels = pixels[..., [2, 1, 0, 3][:channels]]
    return np.ascontiguousarray(pixels)[None]


_USE = {"PNG": "decode_png", "JPEG": "decode_jpeg", "GIF": "decode_gif", "BMP": "decode_bmp",
        "WebP": "decode_webp"}


def _decode(op_name):
    def kernel(xp, contents, channels=0, dtype=_d.uint8, expand_animations=True, ratio=1,
               dct_method="", fancy_upscaling=True, columns=None, **_):
        data = _contents(contents)
        if op_name == "DecodeWebP" and channels not in (0, 3, 4):
            raise _invalid("WebP only supports 3 or 4 channels")
        if op_name not in ("DecodeBmp", "DecodeGif") and channels not in (0, 1, 3, 4):
            raise _invalid(f"`channels` must be 0, 1, 3 or 4 but got {channels}")
        if not data:
            raise _invalid("Input is empty.")
        fmt = _format(data)
        if fmt is None:
            raise _invalid("Unknown image file format. One of JPEG, JPEG XL, PNG, GIF, BMP, "
                           "WebP required.")
        # the format's own channel counts are checked before the op's format (as in TF)
        if fmt == "JPEG" and channels == 4:
            raise _invalid("JPEG does not support 4 channels")
        if fmt == "GIF" and channels not in (0, 3):
            raise _invalid(f"channels must be 0 or 3 for GIF, got {channels}")
        if fmt == "BMP" and channels not in (0, 3, 4):
            raise _invalid(f"`channels` must be 0, 3 or 4 for BMP, but got {channels}")
        if op_name == "DecodeBmp" and fmt not in ("BMP", "WebP"):  # (TF's reads WebP)
            raise _invalid(f"Trying to decode {fmt} format using DecodeBmp op. Use "
                           f"`{_USE[fmt]}` or `decode_image` instead.")
        if fmt == "BMP" and op_name not in ("DecodeBmp", "DecodeImage"):
            raise _invalid(f"Trying to decode BMP format using a wrong op. Use `decode_bmp` or "
                           f"`decode_image` instead. Op used: {op_name}")
        if fmt == "GIF" and op_name == "DecodeWebP":
            raise _invalid("Bad op type DecodeWebP")
        if fmt == "WebP":
            return xp.asarray(_webp(op_name, data, channels, dtype, expand_animations))
        frames = (_bmp(data) if fmt == "BMP" else
                  (_png8(data) if data[24:25] == b"\x08" else _png16(data)) if fmt == "PNG"
                  else None)
        if frames is None:
            frames = _frames(op_name, data, fmt, gray=channels == 1, ratio=ratio,
                             fast=dct_method != "INTEGER_ACCURATE", fancy=fancy_upscaling,
                             columns=columns,
                             first_only=op_name == "DecodeImage" and not expand_animations)
        if op_name == "DecodeGif":
            return xp.asarray(_as_dtype(_with_channels(frames, 3), _d.uint8, fmt))
        if fmt == "GIF" and op_name != "DecodeImage" and len(frames) > 1:
            raise _invalid(f"Got {len(frames)} frames, but animated gifs can only be decoded by "
                           f"tf.io.decode_gif or tf.io.decode_image")
        alpha = _png_alpha(data, fmt, frames) if channels == 4 else None
        pixels = _as_dtype(_with_channels(frames, channels, alpha), dtype, fmt)
        if fmt == "GIF" and op_name == "DecodeImage" and expand_animations:
            return xp.asarray(pixels)
        return xp.asarray(pixels[0])
    return kernel


def _decode_rule(op_name):
    def rule(contents, channels=0, dtype=_d.uint8, expand_animations=True, **_):
        if op_name == "DecodeGif":
            return TensorShape([None, None, None, 3]), _d.uint8
        if op_name == "DecodeWebP":
            return TensorShape([None, None, None, channels or None]), dtype
        if op_name == "DecodeImage" and expand_animations:
            return TensorShape(None), dtype
        return TensorShape([None, None, channels or None]), dtype
    return rule


def _register_decode(name, **kwargs):
    op = register(name, _decode(name), _decode_rule(name), dtypes=(_d.string,),
                  not_differentiable=_NO_GRAD, **kwargs)
    tf_nodes[op] = NodeForm(outputs=("image",))
    return op


_DECODE_PNG = _register_decode("DecodePng")
tf_args[_DECODE_PNG] = ("contents",)
_DECODE_JPEG = _register_decode("DecodeJpeg")
tf_args[_DECODE_JPEG] = ("contents",)
_DECODE_IMAGE = _register_decode("DecodeImage")
tf_args[_DECODE_IMAGE] = ("contents",)
_DECODE_BMP = _register_decode("DecodeBmp")
tf_args[_DECODE_BMP] = ("contents",)
_DECODE_GIF = _register_decode("DecodeGif")
tf_args[_DECODE_GIF] = ("contents",)
_DECODE_WEBP = _register_decode("DecodeWebP")
tf_args[_DECODE_WEBP] = ("contents",)


_decode_jpeg_kernel = _decode("DecodeJpeg")


def _decode_and_crop_jpeg(xp, contents, crop_window, **attrs):
    """The JPEG's pixels in ``crop_window`` ([y, x, height, width]): TF decodes just those,
    which gives the values of the whole image's decoding, cropped."""
    window = np.asarray(crop_window)
    if window.ndim != 1:
        raise _invalid(f"crop_window must be 1-D, got shape {shape_text(window.shape)}")
    if window.shape[0] != 4:
        raise _invalid(f"crop_size must have four elements {shape_text(window.shape)}")
    data = _contents(contents)
    fmt = _format(data) if data else None
    if fmt is not None and fmt != "JPEG":
        raise _invalid(f"DecodeAndCropJpeg operation can run on JPEG only, but detected {fmt}.")
    y, x, h, w = (int(v) for v in window.tolist())
    image = _decode_jpeg_kernel(xp, contents, columns=(max(x, 0), x + w), **attrs)
    if y < 0 or x < 0 or h <= 0 or w <= 0 or y + h > image.shape[0] or x + w > image.shape[1]:
        raise _invalid("jpeg::Uncompress failed. Invalid JPEG data or crop window.")
    return xp.ascontiguousarray(image[y:y + h, x:x + w])


def _decode_and_crop_rule(contents, crop_window, channels=0, **_):
    shape_rules.check_rank("DecodeAndCropJpeg", [contents, crop_window], 1, rank=1)
    return TensorShape([None, None, channels or None]), _d.uint8


_DECODE_AND_CROP_JPEG = register("DecodeAndCropJpeg", _decode_and_crop_jpeg,
                                 _decode_and_crop_rule, dtypes=(_d.string,),
                                 not_differentiable=_NO_GRAD)
tf_nodes[_DECODE_AND_CROP_JPEG] = NodeForm(outputs=("image",))
tf_args[_DECODE_AND_CROP_JPEG] = ("contents", "crop_window")


def _extract_jpeg_shape(xp, contents, output_type=_d.int32):
    if contents.ndim != 0:  # (TF's words for this op)
        raise _invalid(f"contents must be scalar, got shape {shape_text(contents.shape)}")
    data = _contents(contents)
    if _format(data) != "JPEG":
        raise _invalid(f"Invalid JPEG data, size {len(data)}")
    Image = _pillow("ExtractJpegShape")
    try:
        im = Image.open(io.BytesIO(data))
    except (OSError, ValueError, SyntaxError) as e:
        raise _invalid(f"Invalid JPEG data, size {len(data)}") from e
    channels = {"L": 1, "RGB": 3, "YCbCr": 3, "CMYK": 4}.get(im.mode, len(im.getbands()))
    return xp.asarray([im.size[1], im.size[0], channels], output_type.as_numpy_dtype)


_EXTRACT_JPEG_SHAPE = register(
    "ExtractJpegShape", _extract_jpeg_shape,
    lambda contents, output_type=_d.int32: (TensorShape([3]), output_type),
    dtypes=(_d.string,), not_differentiable=_NO_GRAD)
tf_nodes[_EXTRACT_JPEG_SHAPE] = NodeForm(outputs=("image_shape",))
tf_args[_EXTRACT_JPEG_SHAPE] = ("contents",)


# --- encoders -------------------------------------------------------------------------------

def _png_chunk(kind, body):
    return struct.pack(">I", len(body)) + kind + body + \
        struct.pack(">I", zlib.crc32(kind + body) & 0xFFFFFFFF)


def _encode_png(xp, image, compression=-1):
    """PNGs of `image`, ``[..., height, width, channels]``: one per image of its batch
    dimensions, as TF encodes them (an image without pixels fails libpng's encoding)."""
    if image.ndim < 3:
        raise _invalid(f"images must be at least rank 3{shape_text(image.shape)}")
    if not -1 <= compression <= 9:
        raise _invalid(f"compression should be in [-1,9], got {compression}")
    c = image.shape[-1]
    if c not in (1, 2, 3, 4):
        raise _invalid(f"image must have 1, 2, 3, or 4 channels, got {c}")
    images = np.asarray(image).reshape((math.prod(image.shape[:-3]),) + image.shape[-3:])
    if 0 in image.shape[-3:-1] and len(images):
        raise errors.InternalError(None, None, "PNG encoding failed at the following "
                                   f"flattened batch indices: "
                                   f"{', '.join(map(str, range(len(images))))}")
    out = np.empty(len(images), object)
    for i, pixels in enumerate(images):
        out[i] = _png_bytes(pixels, compression)
    return out.reshape(image.shape[:-3])


def _png_bytes(pixels, compression):
    """The PNG of one image (``[height, width, channels]``)."""
    h, w, c = pixels.shape
    depth = 16 if pixels.dtype == np.uint16 else 8
    rows = pixels.astype(">u2" if depth == 16 else np.uint8).reshape(h, -1).view(np.uint8)
    raw = _png_filtered(rows, c * depth // 8)
    color = {1: 0, 2: 4, 3: 2, 4: 6}[c]
    header = struct.pack(">IIBBBBB", w, h, depth, color, 0, 0, 0)
    data = _png_deflate(raw, compression)
    out = b"\x89PNG\r\n\x1a\n" + _png_chunk(b"IHDR", header)
    for start in range(0, len(data), 8192):  # libpng's IDAT chunks: 8 KiB each
        out += _png_chunk(b"IDAT", data[start:start + 8192])
    return out + _png_chunk(b"IEND", b"")


def _png_filtered(rows, bpp):
    """The rows (uint8, one per image row) each behind the filter libpng picks for it, as
    TF's encoder writes them: of None, Sub, Up, Average and Paeth, the one whose bytes,
    read as signed, have the smallest sum of magnitudes (the first on a tie)."""
    cur = rows.astype(np.int32)
    prev = np.concatenate([np.zeros_like(cur[:1]), cur[:-1]])
    left = np.concatenate([np.zeros_like(cur[:, :bpp]), cur[:, :-bpp]], 1)
    upleft = np.concatenate([np.zeros_like(prev[:, :bpp]), prev[:, :-bpp]], 1)
    p = left + prev - upleft
    pa, pb, pc = np.abs(p - left), np.abs(p - prev), np.abs(p - upleft)
    paeth = np.where((pa <= pb) & (pa <= pc), left, np.where(pb <= pc, prev, upleft))
    filtered = np.stack([cur, cur - left, cur - prev, cur - (left + prev) // 2, cur - paeth])
    filtered %= 256
    costs = np.where(filtered < 128, filtered, 256 - filtered).sum(-1)
    kind = np.argmin(costs, 0)
    chosen = filtered[kind, np.arange(len(rows))].astype(np.uint8)
    return np.concatenate([kind.astype(np.uint8)[:, None], chosen], 1).tobytes()


def _png_deflate(raw, compression):
    """`raw` deflated as libpng does for TF: Z_FILTERED, its window cut down for small
    images, and the header then claiming the smallest window that covers the data."""
    size = len(raw)
    bits = 15
    if size <= 16384:
        while size + 262 <= 1 << (bits - 1):
            bits -= 1
    engine = zlib.compressobj(compression, zlib.DEFLATED, bits, 8, zlib.Z_FILTERED)
    data = bytearray(engine.compress(raw) + engine.flush())
    cmf = data[0]
    if size <= 16384 and (cmf & 0x0F) == 8 and (cmf & 0xF0) <= 0x70:
        info = cmf >> 4
        half = 1 << (info + 7)
        if size <= half:
            while True:
                half >>= 1
                info -= 1
                if not (info > 0 and size <= half):
                    break
            data[0] = cmf = (cmf & 0x0F) | (info << 4)
            level = data[1] & 0xE0
            data[1] = level + 0x1F - ((cmf << 8) + level) % 0x1F
    return bytes(data)


def _encode_png_rule(image, **_):
    if image.shape.rank is not None and image.shape.rank < 3:
        raise shape_rules.shape_error(
            "EncodePng", f"Shape must be at least rank 3 but is rank {image.shape.rank}",
            [image.shape])
    return image.shape[:-3], _d.string


_ENCODE_PNG = register("EncodePng", _encode_png, _encode_png_rule,
                       dtypes=(_d.uint8, _d.uint16), not_differentiable=_NO_GRAD)
tf_nodes[_ENCODE_PNG] = NodeForm(outputs=("contents",))
tf_args[_ENCODE_PNG] = ("image",)


def _encode_jpeg(xp, image, format="", quality=95, progressive=False, optimize_size=False,
                 chroma_downsampling=True, density_unit="in", x_density=300, y_density=300,
                 xmp_metadata=""):
    if image.ndim != 3:
        raise _invalid(f"image must be 3-dimensional{shape_text(image.shape)}")
    channels = image.shape[2]
    wanted = {"grayscale": 1, "rgb": 3}.get(format)
    if wanted is not None and channels != wanted:
        raise _invalid(f"format {format} expects {wanted} channels, got "
                       f"{shape_text(image.shape)}")
    if channels not in (1, 3):
        raise _invalid(f"image must have 1 or 3 channels, got {shape_text(image.shape)}")
    if not 0 <= quality <= 100:
        raise _invalid(f"quality must be in [0,100], got {quality}")
    if 0 in image.shape:
        raise errors.InternalError(None, None, "JPEG encoding failed")
    Image = _pillow("EncodeJpeg")
    pixels = np.ascontiguousarray(image)
    im = Image.fromarray(pixels[..., 0] if channels == 1 else pixels,
                         "L" if channels == 1 else "RGB")
    options = {"quality": int(quality), "progressive": bool(progressive),
               "optimize": bool(optimize_size),
               # (one channel is sampled 1x1, as libjpeg samples grayscale)
               "subsampling": 2 if chroma_downsampling and channels == 3 else 0,
               "dpi": (1, 1)}  # (the header's densities are written below)
    if xmp_metadata:
        options["xmp"] = xmp_metadata.encode() if isinstance(xmp_metadata, str) else xmp_metadata
    buf = io.BytesIO()
    im.save(buf, format="JPEG", **options)
    data = buf.getvalue()
    if data[6:11] == b"JFIF\0":
        # TF's JFIF header holds the densities as given, in their unit (16 bits each, zero
        # and negative ones too), where Pillow's counts positive ones per inch only
        density = struct.pack(">BHH", 2 if density_unit == "cm" else 1,
                              int(x_density) & 0xFFFF, int(y_density) & 0xFFFF)
        data = data[:13] + density + data[18:]
    return np.array(data, dtype=object)


_ENCODE_JPEG = register("EncodeJpeg", _encode_jpeg,
                        lambda image, **_: (TensorShape([]), _d.string), dtypes=(_d.uint8,),
                        not_differentiable=_NO_GRAD)
tf_nodes[_ENCODE_JPEG] = NodeForm(outputs=("contents",))
tf_args[_ENCODE_JPEG] = ("image",)



def _encode_jpeg_variable_quality(xp, images, quality):
    if np.ndim(quality) != 0:
        raise _invalid(f"quality must be scalar: {shape_text(np.shape(quality))}")
    return _encode_jpeg(xp, images, quality=int(quality))


_ENCODE_JPEG_VARIABLE_QUALITY = register(
    "EncodeJpegVariableQuality", _encode_jpeg_variable_quality,
    lambda images, quality: (TensorShape([]), _d.string), tied=(0,), dtypes=(_d.uint8,),
    not_differentiable=_NO_GRAD)
tf_nodes[_ENCODE_JPEG_VARIABLE_QUALITY] = NodeForm(types={}, outputs=("contents",))
tf_args[_ENCODE_JPEG_VARIABLE_QUALITY] = ("images", "quality")

def _decode_batched(op, args):
    """Batching: a batch of plain 8-bit PNGs of one size (`_png8`'s) decoded together, their
    rows unfiltered at once; any other batch decoded image by image, on the intra-op
    threads together (Pillow leaves the interpreter lock while it decodes), a
    list of images where they differ in shape."""
    (contents, _), = args
    if contents.ndim != 1 or not len(contents):
        return None
    pixels = _png8_batch(contents, op.attrs.get("channels", 0), op.attrs.get("dtype", _d.uint8))
    if pixels is not None:
        return [pixels]
    kernel = op.op_def.host_kernel
    images = threads.in_chunks(len(contents), lambda k: kernel(contents[k, ...], **op.attrs))
    if any(image.shape != images[0].shape for image in images):
        return [images]
    return [np.stack(images)]


def _png8_batch(contents, channels, dtype):
    """The pixels of `contents`, a batch of plain 8-bit PNGs of one size, or None."""
    if channels not in (0, 1, 3, 4):
        return None
    found = []
    for value in contents:
        data = value.encode() if isinstance(value, str) else bytes(value)
        rows = _png8_rows(data) if data[:8] == b"\x89PNG\r\n\x1a\n" else None
        if rows is None or rows[1:] != (found[0][1:] if found else rows[1:]):
            return None
        found.append(rows)
    _, height, width, have = found[0]
    pixels = _unfilter(np.concatenate([rows for rows, *_ in found]), height, width, have)
    if pixels is None:
        return None
    pixels = pixels.reshape(len(found), height, width, have)
    # (plain 8-bit files have no tRNS chunk: an added alpha channel is opaque)
    return _as_dtype(_with_channels(pixels, channels), dtype, "PNG")


batching_rules.assign(_decode_batched, _DECODE_PNG, _DECODE_JPEG, _DECODE_IMAGE)
batching_rules.assign(PER_ELEMENT, _DECODE_AND_CROP_JPEG, _DECODE_BMP,
                      _DECODE_GIF, _DECODE_WEBP, _EXTRACT_JPEG_SHAPE, _ENCODE_PNG, _ENCODE_JPEG,
                      _ENCODE_JPEG_VARIABLE_QUALITY)


# --- public functions -----------------------------------------------------------------------

def _string(contents):
    return convert_input(contents, _d.string)


def _decode(op, contents, attrs, name):
    """`op` run on the string `contents`; eager errors end as TF's do when Python bytes, a
    str or a list took TF's slower path (without the name)."""
    try:
        return dispatch(op, (_string(contents),), attrs, name)
    except errors.OpError as e:
        raise errors.listed(e, contents) from None


def _int_attr(value, name):
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise TypeError(f"Expected int for argument '{name}' not {value!r}.")
    return int(value)


def _decode_dtype(op_name, dtype, allowed):
    dtype = _d.as_dtype(dtype)
    if dtype not in allowed:
        raise attr_dtype_error(op_name, "dtype", dtype, allowed)
    return dtype


@export("io.decode_png", "image.decode_png")
def decode_png(contents, channels=0, dtype=_d.uint8, name=None):
    """Decodes a PNG (or JPEG, or single-frame GIF) string into a (height, width, channels)
    uint8 or uint16 tensor; `channels` 0 keeps the file's.

    >>> tf.io.decode_png(tf.io.encode_png(tf.zeros([2, 3, 1], tf.uint8)), channels=3).shape
    TensorShape([2, 3, 3])
    """
    dtype = _decode_dtype("DecodePng", dtype, (_d.uint8, _d.uint16))
    return _decode(_DECODE_PNG, contents,
                   {"channels": _int_attr(channels, "channels"), "dtype": dtype}, name)


@export("io.decode_jpeg", "image.decode_jpeg")
def decode_jpeg(contents, channels=0, ratio=1, fancy_upscaling=True, try_recover_truncated=False,
                acceptable_fraction=1, dct_method="", name=None):
    """Decodes a JPEG (or PNG, or single-frame GIF) string into a uint8 (height, width,
    channels) tensor; `ratio` (1, 2, 4 or 8) downscales while decoding.

    The pixels are TF's for each `dct_method` and `fancy_upscaling`, except
    INTEGER_ACCURATE without fancy upscaling, which upsamples as fancy upscaling does;
    truncated files fail rather than being recovered.

    >>> tf.io.decode_jpeg(tf.io.encode_jpeg(tf.zeros([8, 8, 3], tf.uint8))).shape
    TensorShape([8, 8, 3])
    """
    attrs = _jpeg_attrs("DecodeJpeg", channels, ratio, fancy_upscaling, try_recover_truncated,
                        acceptable_fraction, dct_method)
    try:
        return dispatch(_DECODE_JPEG, (_string(contents),), attrs, name)
    except errors.OpError as e:
        raise _jpeg_error(e, contents, acceptable_fraction) from None


def _jpeg_attrs(op_name, channels, ratio, fancy_upscaling, try_recover_truncated,
                acceptable_fraction, dct_method):
    """The attrs of JPEG decode op `op_name`; TF's error for a `ratio` it cannot scale by."""
    ratio = _int_attr(ratio, "ratio")
    if ratio not in (1, 2, 4, 8):
        raise errors.InvalidArgumentError(None, op_name,
                                          f"ratio must be 1, 2, 4, or 8, got {ratio}")
    return {"channels": _int_attr(channels, "channels"), "ratio": ratio,
            "fancy_upscaling": bool(fancy_upscaling),
            "try_recover_truncated": bool(try_recover_truncated),
            "acceptable_fraction": float(acceptable_fraction), "dct_method": str(dct_method)}


def _jpeg_error(error, contents, acceptable_fraction):
    """A JPEG decode's eager `error` as TF's wrapper raises it: without the name when its
    slower path ran, as it does for the int default of `acceptable_fraction`."""
    if not isinstance(acceptable_fraction, float):
        return errors.without_name(error)
    return errors.listed(error, contents)


@export("io.decode_and_crop_jpeg", "image.decode_and_crop_jpeg")
def decode_and_crop_jpeg(contents, crop_window, channels=0, ratio=1, fancy_upscaling=True,
                         try_recover_truncated=False, acceptable_fraction=1, dct_method="",
                         name=None):
    """Decodes the part ``crop_window`` ([y, x, height, width], int32) of a JPEG string into
    a uint8 (height, width, channels) tensor. As TF decodes only the window, subsampled
    colour is interpolated within it (its left edge moved back to whole blocks); with
    ``dct_method="INTEGER_ACCURATE"`` the pixels are `decode_jpeg`'s there instead, which
    along the window's edges may differ by a unit or two.

    >>> jpeg = tf.io.encode_jpeg(tf.zeros([8, 8, 3], tf.uint8))
    >>> tf.image.decode_and_crop_jpeg(jpeg, [2, 1, 4, 5]).shape
    TensorShape([4, 5, 3])
    """
    attrs = _jpeg_attrs("DecodeAndCropJpeg", channels, ratio, fancy_upscaling,
                        try_recover_truncated, acceptable_fraction, dct_method)
    try:
        return dispatch(_DECODE_AND_CROP_JPEG,
                        (_string(contents), convert_input(crop_window, _d.int32)), attrs, name)
    except errors.OpError as e:
        raise errors.listed(_jpeg_error(e, contents, acceptable_fraction), crop_window) \
            from None


@export("io.decode_bmp", "image.decode_bmp")
def decode_bmp(contents, channels=0, name=None):
    """Decodes a BMP string into a uint8 (height, width, channels) tensor; `channels` is 0
    (the file's), 3 or 4."""
    return _decode(_DECODE_BMP, contents, {"channels": _int_attr(channels, "channels")}, name)


@export("io.decode_gif", "image.decode_gif")
def decode_gif(contents, name=None):
    """Decodes a GIF (every frame) into a uint8 (frames, height, width, 3) tensor.

    >>> tf.io.decode_gif(tf.io.encode_png(tf.zeros([2, 3, 1], tf.uint8))).shape
    TensorShape([1, 2, 3, 3])
    """
    return _decode(_DECODE_GIF, contents, {}, name)


@export("io.decode_webp", "image.decode_webp")
def decode_webp(contents, channels=0, dtype=_d.uint8, name=None):
    """Decodes a WebP string (every frame) into a uint8 (frames, height, width, channels)
    tensor; `channels` is 0 (the file's), or 3 or 4 when the file has that many."""
    dtype = _decode_dtype("DecodeWebP", dtype, (_d.uint8,))
    return _decode(_DECODE_WEBP, contents,
                   {"channels": _int_attr(channels, "channels"), "dtype": dtype}, name)


@export("io.decode_image", "image.decode_image")
def decode_image(contents, channels=None, dtype=_d.uint8, name=None, expand_animations=True):
    """Decodes a BMP, GIF, JPEG, PNG or WebP string: 3-D, or 4-D for GIFs and WebP when
    `expand_animations`; `dtype` float32 scales to [0, 1].

    >>> tf.io.decode_image(tf.io.encode_png(tf.zeros([2, 3, 1], tf.uint8)), 3, tf.float32).shape
    TensorShape([2, 3, 3])
    """
    channels = 0 if channels is None else _int_attr(channels, "channels")
    dtype = _d.as_dtype(dtype)
    decode_as = dtype if dtype in (_d.float32, _d.uint8, _d.uint16) else _d.uint16
    image = _decode(_DECODE_IMAGE, contents,
                    {"channels": channels, "dtype": decode_as,
                     "expand_animations": bool(expand_animations)}, name)
    if decode_as != dtype:
        image = image_ops.convert_image_dtype(image, dtype)
    return image


@export("io.extract_jpeg_shape", "image.extract_jpeg_shape")
def extract_jpeg_shape(contents, output_type=_d.int32, name=None):
    """The [height, width, channels] of a JPEG string, without decoding its pixels.

    >>> tf.io.extract_jpeg_shape(tf.io.encode_jpeg(tf.zeros([4, 6, 3], tf.uint8))).numpy()
    array([4, 6, 3], dtype=int32)
    """
    output_type = _decode_dtype("ExtractJpegShape", output_type, (_d.int32, _d.int64))
    return _decode(_EXTRACT_JPEG_SHAPE, contents, {"output_type": output_type}, name)


@export("io.is_jpeg", "image.is_jpeg")
def is_jpeg(contents, name=None):
    """Whether each string of `contents` starts like a JPEG file.

    >>> tf.io.is_jpeg(tf.io.encode_jpeg(tf.zeros([2, 2, 1], tf.uint8)))
    <tf.Tensor: shape=(), dtype=bool, numpy=True>
    """
    return math_ops.equal(string_ops.substr(contents, 0, 3), b"\xff\xd8\xff", name=name)


@export("io.encode_png", "image.encode_png")
def encode_png(image, compression=-1, name=None):
    """Encodes a uint8 or uint16 (height, width, channels) image as a PNG string;
    `compression` -1 (zlib's default) or 0 to 9.

    >>> tf.io.encode_png(tf.zeros([1, 1, 1], tf.uint8)).numpy()[:4]
    b'\\x89PNG'
    """
    return dispatch(_ENCODE_PNG, (as_tensor(image),),
                    {"compression": _int_attr(compression, "compression")}, name)


_JPEG_FORMATS = ("", "grayscale", "rgb")


@export("io.encode_jpeg", "image.encode_jpeg")
def encode_jpeg(image, format="", quality=95, progressive=False, optimize_size=False,
                chroma_downsampling=True, density_unit="in", x_density=300, y_density=300,
                xmp_metadata="", name=None):
    """Encodes a uint8 (height, width, 1 or 3) image as a JPEG string at `quality` (0-100).

    >>> tf.io.encode_jpeg(tf.zeros([2, 2, 3], tf.uint8)).numpy()[:3]
    b'\\xff\\xd8\\xff'
    """
    if format not in _JPEG_FORMATS:
        raise errors.InvalidArgumentError(
            None, "EncodeJpeg", f"Value for attr 'format' of \"{format}\" is not in the list of "
            f"allowed values: \"\", \"grayscale\", \"rgb\"\n\t; NodeDef: {{{{node EncodeJpeg}}}}")
    if density_unit not in ("in", "cm"):
        raise errors.InvalidArgumentError(
            None, "EncodeJpeg", f"Value for attr 'density_unit' of \"{density_unit}\" is not in "
            f"the list of allowed values: \"in\", \"cm\"\n\t; NodeDef: {{{{node EncodeJpeg}}}}")
    attrs = {"format": format, "quality": _int_attr(quality, "quality"),
             "progressive": bool(progressive), "optimize_size": bool(optimize_size),
             "chroma_downsampling": bool(chroma_downsampling), "density_unit": density_unit,
             "x_density": _int_attr(x_density, "x_density"),
             "y_density": _int_attr(y_density, "y_density"), "xmp_metadata": str(xmp_metadata)}
    return dispatch(_ENCODE_JPEG, (as_tensor(image),), attrs, name)


@export("image.adjust_jpeg_quality")
def adjust_jpeg_quality(image, jpeg_quality, dct_method="", name=None):
    """`image` encoded as JPEG at `jpeg_quality` (0-100, an int or a scalar tensor) and decoded
    again, in its own dtype: JPEG's artifacts, as an augmentation.

    >>> tf.image.adjust_jpeg_quality(tf.zeros([4, 4, 3]), 75).shape
    TensorShape([4, 4, 3])
    """
    image = as_tensor(image)
    channels = image.shape[-1] if image.shape.rank else None
    original = image.dtype
    image = image_ops.convert_image_dtype(image, _d.uint8, saturate=True)
    quality = jpeg_quality if isinstance(jpeg_quality, Tensor) else convert_input(
        jpeg_quality, _d.int32)
    contents = dispatch(_ENCODE_JPEG_VARIABLE_QUALITY, (image, quality), {}, name)
    image = decode_jpeg(contents, channels=channels or 0, dct_method=dct_method)
    return image_ops.convert_image_dtype(image, original, saturate=True)


def _quality_range(low, high):
    if low < 0 or high < 0 or low > 100 or high > 100:
        raise ValueError("jpeg encoding range must be between 0 and 100.")
    if low >= high:
        raise ValueError("`min_jpeg_quality` must be less than `max_jpeg_quality`.")


@export("image.random_jpeg_quality")
def random_jpeg_quality(image, min_jpeg_quality, max_jpeg_quality, seed=None):
    """`adjust_jpeg_quality` at a quality drawn uniformly from [min, max).

    >>> tf.image.random_jpeg_quality(tf.zeros([4, 4, 3]), 70, 90).shape
    TensorShape([4, 4, 3])
    """
    _quality_range(min_jpeg_quality, max_jpeg_quality)
    quality = random_ops.uniform([], min_jpeg_quality, max_jpeg_quality, seed=seed,
                                 dtype=_d.int32)
    return adjust_jpeg_quality(image, quality)


@export("image.stateless_random_jpeg_quality")
def stateless_random_jpeg_quality(image, min_jpeg_quality, max_jpeg_quality, seed):
    """`adjust_jpeg_quality` at a quality in [min, max) that the shape [2] `seed` decides.

    >>> tf.image.stateless_random_jpeg_quality(tf.zeros([4, 4, 3]), 70, 90, (1, 2)).shape
    TensorShape([4, 4, 3])
    """
    _quality_range(min_jpeg_quality, max_jpeg_quality)
    quality = random_ops.stateless_uniform([], seed, min_jpeg_quality, max_jpeg_quality,
                                           dtype=_d.int32)
    return adjust_jpeg_quality(image, quality)
