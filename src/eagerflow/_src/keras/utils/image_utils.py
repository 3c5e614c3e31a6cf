"""Images as PIL images and NumPy arrays: loading, saving and converting (PIL is needed).

>>> tf.keras.utils.img_to_array(tf.keras.utils.array_to_img(np.ones((2, 3, 3)))).shape
(2, 3, 3)
"""
import io
import pathlib
import warnings

import numpy as np

from eagerflow._src.backend.api_export import export
from eagerflow._src.keras import backend

try:
    from PIL import Image as _pil
except ImportError:  # the functions below say that PIL is needed
    _pil = None

_PIL_METHODS = ("nearest", "bilinear", "bicubic", "hamming", "box", "lanczos")


def _need_pil(name):
    if _pil is None:
        raise ImportError(f"Could not import PIL.Image. The use of `{name}` requires PIL.")


def _channels_first(data_format, refused="Invalid"):
    """Whether `data_format` (as given: not lowercased) is channels first; `refused`: the
    word of the ValueError for another value (Keras's two functions differ)."""
    data_format = data_format or backend.image_data_format()
    if data_format not in {"channels_first", "channels_last"}:
        raise ValueError(f"{refused} data_format: {data_format}")
    return data_format == "channels_first"


@export("keras.utils.array_to_img", "keras.preprocessing.image.array_to_img")
def array_to_img(x, data_format=None, scale=True, dtype=None):
    """The PIL image of the rank-3 array `x` (RGBA, RGB or grayscale by its channels);
    `scale` maps its values onto 0-255 first."""
    _need_pil("array_to_img")
    x = np.asarray(x, dtype=dtype or backend.floatx())
    if x.ndim != 3:
        raise ValueError(f"Expected image array to have rank 3 (single image). Got array with "
                         f"shape: {x.shape}")
    if _channels_first(data_format):
        x = x.transpose(1, 2, 0)
    if scale:
        x = x - np.min(x)
        top = np.max(x)
        if top != 0:
            x /= top
        x *= 255
    channels = x.shape[2]
    if channels == 4:
        return _pil.fromarray(x.astype("uint8"), "RGBA")
    if channels == 3:
        return _pil.fromarray(x.astype("uint8"), "RGB")
    if channels == 1:
        if np.max(x) > 255:  # 32-bit signed integer grayscale
            return _pil.fromarray(x[:, :, 0].astype("int32"), "I")
        return _pil.fromarray(x[:, :, 0].astype("uint8"), "L")
    raise ValueError(f"Unsupported channel number: {channels}")


@export("keras.utils.img_to_array", "keras.preprocessing.image.img_to_array")
def img_to_array(img, data_format=None, dtype=None):
    """The PIL image `img` as a rank-3 array of `dtype` (floatx by default)."""
    channels_first = _channels_first(data_format, "Unknown")
    x = np.asarray(img, dtype=dtype or backend.floatx())
    if x.ndim == 3:
        return x.transpose(2, 0, 1) if channels_first else x
    if x.ndim == 2:
        return x.reshape((1, *x.shape) if channels_first else (*x.shape, 1))
    raise ValueError(f"Unsupported image shape: {x.shape}")


@export("keras.utils.save_img", "keras.preprocessing.image.save_img")
def save_img(path, x, data_format=None, file_format=None, scale=True, **kwargs):
    """Saves the array `x` as an image file (the format from `file_format` or the name)."""
    img = array_to_img(x, data_format=data_format, scale=scale)
    if img.mode == "RGBA" and file_format in ("jpg", "jpeg"):
        warnings.warn("The JPG format does not support RGBA images, converting to RGB.",
                      stacklevel=2)
        img = img.convert("RGB")
    img.save(path, format=file_format, **kwargs)


@export("keras.utils.load_img", "keras.preprocessing.image.load_img")
def load_img(path, grayscale=False, color_mode="rgb", target_size=None,
             interpolation="nearest", keep_aspect_ratio=False):
    """The PIL image in the file `path` (or a BytesIO), converted to `color_mode` and resized
    to `target_size` = (height, width) if given (first cropped to its aspect ratio with
    `keep_aspect_ratio`)."""
    if grayscale:
        warnings.warn('grayscale is deprecated. Please use color_mode = "grayscale"',
                      stacklevel=2)
        color_mode = "grayscale"
    _need_pil("load_img")
    if isinstance(path, io.BytesIO):
        img = _pil.open(path)
    elif isinstance(path, (pathlib.Path, bytes, str)):
        with open(str(path.resolve()) if isinstance(path, pathlib.Path) else path, "rb") as f:
            img = _pil.open(io.BytesIO(f.read()))
    else:
        raise TypeError(f"path should be path-like or io.BytesIO, not {type(path)}")
    modes = {"grayscale": ("L", ("L", "I;16", "I")), "rgba": ("RGBA", ("RGBA",)),
             "rgb": ("RGB", ("RGB",))}
    if color_mode not in modes:
        raise ValueError('color_mode must be "grayscale", "rgb", or "rgba"')
    mode, kept = modes[color_mode]
    if img.mode not in kept:
        img = img.convert(mode)
    if target_size is None:
        return img
    size = (target_size[1], target_size[0])
    if img.size == size:
        return img
    if interpolation not in _PIL_METHODS:
        raise ValueError(f"Invalid interpolation method {interpolation} specified. Supported "
                         f"methods are {', '.join(_PIL_METHODS)}")
    resample = getattr(_pil.Resampling, "NEAREST" if interpolation == "nearest"
                       else interpolation.upper())
    if not keep_aspect_ratio:
        return img.resize(size, resample)
    width, height = img.size
    crop_height = min(height, (width * size[1]) // size[0])
    crop_width = min(width, (height * size[0]) // size[1])
    top, left = (height - crop_height) // 2, (width - crop_width) // 2
    return img.resize(size, resample, box=[left, top, left + crop_width, top + crop_height])
