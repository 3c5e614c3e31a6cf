"""Colour ops of ``tf.image``: colour-space conversions, brightness, contrast, saturation,
hue and gamma adjustments, standardization and their random augmentations.

The HSV conversions and the contrast, saturation and hue adjustments are registered ops
(TF's ``RGBToHSV``, ``HSVToRGB``, ``AdjustContrastv2``, ``AdjustSaturation``,
``AdjustHue``); the rest are composites of existing ops, so they differentiate through
the tape. The adjustments take integer images through float32 and back, as TF's do.

>>> tf.image.rgb_to_hsv(tf.constant([[1.0, 0.5, 0.0]]))
<tf.Tensor: shape=(1, 3), dtype=float32, numpy=array([[0.08333334, 1.        , 1.        ]], dtype=float32)>
"""
import numpy as np

from eagerflow._src.backend.api_export import export
from eagerflow._src.core import context
from eagerflow._src.core import dtypes as _d
from eagerflow._src.core import errors
from eagerflow._src.core.convert import convert_to_tensor
from eagerflow._src.core.dispatch import dispatch
from eagerflow._src.core.registry import (
    PER_ELEMENT, batching_rules, fixed_input_error, register, register_gradient)
from eagerflow._src.core.tensor import EagerTensor
from eagerflow._src.core.node_forms import tf_args
from eagerflow._src.ops import array_ops, debugging_ops, math_ops, random_ops, reduction_ops
from eagerflow._src.ops import shape_rules as rules
from eagerflow._src.ops.cast_ops import cast
from eagerflow._src.ops.image_ops import convert_image_dtype
from eagerflow._src.ops.wrappers import as_tensor, defaulted

_HALF_FLOAT = (_d.float16, _d.float32)
_HSV_TYPES = (_d.float16, _d.bfloat16, _d.float32, _d.float64)


def _error(cls, message):
    return cls(None, None, message)


def _as_float(image):
    """`image` as float16/float32 as it is, any other dtype converted to float32."""
    return image if image.dtype in _HALF_FLOAT else convert_image_dtype(image, _d.float32)


# -- kernels ----------------------------------------------------------------------------------

def _compute_type(xp, x):
    """Half-precision images are computed in float32 (as TF's kernels accumulate)."""
    return x.astype(xp.float32) if x.dtype.itemsize < 4 else x


def _planes(xp, x):
    """The three channels of pixels `x` (the last axis) as contiguous arrays: elementwise
    work runs several times faster on them than on strided views of `x`."""
    planes = xp.ascontiguousarray(xp.moveaxis(_compute_type(xp, x), -1, 0))
    return planes[0], planes[1], planes[2]


def _extremes(xp, r, g, b):
    """(smallest, largest) channel of each pixel, folded left to right as TF's kernels fold
    them: a NaN replaces the running value and the next channel replaces the NaN."""
    if not (xp.isnan(r).any() or xp.isnan(g).any() or xp.isnan(b).any()):
        return xp.minimum(xp.minimum(r, g), b), xp.maximum(xp.maximum(r, g), b)
    hi = xp.where(r > g, r, g)
    lo = xp.where(r < g, r, g)
    return xp.where(lo < b, lo, b), xp.where(hi > b, hi, b)


def _hsv(xp, r, g, b):
    """(h, s, v) of RGB channels: h in [0, 1), 0 where the pixel is grey (TF's arithmetic)."""
    low, v = _extremes(xp, r, g, b)
    span = v - low
    dtype = r.dtype.type
    with np.errstate(divide="ignore", invalid="ignore"):
        s = xp.where(v > 0, span / v, dtype(0))
        norm = 1 / (6 * span)
        h = xp.where(r == v, norm * (g - b),
                     xp.where(g == v, norm * (b - r) + dtype(2 / 6),
                              norm * (r - g) + dtype(4 / 6)))
    h = xp.where(span > 0, h, dtype(0))
    h = xp.where(h < 0, h + 1, h)
    return h, s, v


def _weights(xp, h6):
    """Where each of red, green and blue lies between the smallest (0) and largest (1)
    channel, for hue `h6` in sixths of the colour wheel ([0, 6])."""
    one = h6.dtype.type(1)
    return (xp.clip(xp.abs(h6 - 3) - 1, 0, one), xp.clip(2 - xp.abs(h6 - 2), 0, one),
            xp.clip(2 - xp.abs(h6 - 4), 0, one))


def _between(xp, h6, lo, hi):
    """RGB pixels (stacked last) of hue `h6` in [0, 6] with channels from `lo` to `hi`: the
    smallest and largest channels come out exactly as `lo` and `hi`."""
    span = hi - lo
    return xp.stack([xp.where(w >= 1, hi, lo + w * span) for w in _weights(xp, h6)], axis=-1)


def _check_image(x, op_rank=1, message="input must have 3 channels but instead has {} channels.",
                 cls=errors.InvalidArgumentError):
    if x.ndim < op_rank:
        raise _error(errors.InvalidArgumentError,
                     f"input must be at least {op_rank}-D, got shape{errors.shape_text(x.shape)}")
    if x.shape[-1] != 3:
        raise _error(cls, message.format(x.shape[-1]))


def _rgb_to_hsv_kernel(xp, images):
    _check_image(images, 1, "input must have 3 channels but input only has {} channels.",
                 errors.FailedPreconditionError)
    return xp.stack(_hsv(xp, *_planes(xp, images)), axis=-1).astype(images.dtype, copy=False)


def _hsv_to_rgb_kernel(xp, images):
    _check_image(images, 1, "input must have 3 channels but input only has {} channels.",
                 errors.FailedPreconditionError)
    h, s, v = _planes(xp, images)
    rest = 1 - s
    rgb = xp.stack([(rest + s * w) * v for w in _weights(xp, h * 6)], axis=-1)
    return rgb.astype(images.dtype, copy=False)


def _scalar(value, name):
    if value.ndim != 0:
        raise _error(errors.InvalidArgumentError,
                     f"{name} must be scalar: {errors.shape_text(value.shape)}")
    return value


def _sixths(xp, r, g, b, lo, hi):
    """The hue of RGB channels in sixths of the colour wheel, in [-1, 5) (0 where grey)."""
    span = hi - lo
    with np.errstate(divide="ignore", invalid="ignore"):
        h = xp.where(r == hi, (g - b) / span,
                     xp.where(g == hi, (b - r) / span + 2, (r - g) / span + 4))
    return xp.where(span > 0, h, r.dtype.type(0))


def _wrap6(xp, h6):
    """`h6` wrapped into [0, 6] (a floor, many times faster than a float modulo)."""
    return h6 - 6 * xp.floor(h6 / 6)


# AdjustHue as TF's kernel computes it, step for step (so rounding, NaN and inf come out
# alike): each pixel's channels ordered by comparisons into (low, middle, high) and one of the
# colour wheel's six sectors, the hue shifted in sixths of the wheel, then the channels rebuilt
_SECTOR_ORDER = ((2, 1, 0), (2, 0, 1), (0, 2, 1), (0, 1, 2), (1, 0, 2), (1, 2, 0))  # (lo, mid, hi)
_SECTOR_PLACES = ((2, 1, 0), (1, 2, 0), (0, 2, 1), (0, 1, 2), (1, 0, 2), (2, 0, 1))  # r, g, b


def _pick(xp, sector, options):
    """Per element, ``options[sector]`` (sector in 0..5)."""
    out = options[5]
    for k in range(5):
        out = xp.where(sector == k, options[k], out)
    return out


def _hue_range(xp, r, g, b):
    """(hue in [0, 6), low, high) of pixels: the sector found by comparisons (NaNs fall to
    their else branches), the hue the middle channel's place between low and high."""
    below = r < g
    sector = xp.where(below, xp.where(b < r, 1, xp.where(b > g, 3, 2)),
                      xp.where(b < g, 0, xp.where(b > r, 4, 5)))
    channels = (r, g, b)
    lo, mid, hi = (_pick(xp, sector, [channels[order[k]] for order in _SECTOR_ORDER])
                   for k in range(3))
    with np.errstate(divide="ignore", invalid="ignore"):
        ratio = (mid - lo) / (hi - lo)
    one = r.dtype.type(1)
    hue = sector.astype(r.dtype) + xp.where(sector % 2 == 0, ratio, one - ratio)
    return xp.where(hi == lo, r.dtype.type(0), hue), lo, hi


def _from_hue_range(xp, hue, lo, hi):
    """RGB pixels (stacked last) of `hue` in [0, 6) with channels from `lo` to `hi`."""
    finite = xp.isfinite(hue)
    # (C's conversion of NaN to int gives int's smallest value: the default sector, 5)
    sector = xp.where(finite, xp.trunc(xp.where(finite, hue, 0)), -1).astype(np.int64)
    ratio = hue - sector.astype(hue.dtype)
    ratio = xp.where(sector % 2 == 0, ratio, hue.dtype.type(1) - ratio)
    mid = lo + ratio * (hi - lo)
    values = (lo, mid, hi)
    return xp.stack([_pick(xp, sector, [values[places[k]] for places in _SECTOR_PLACES])
                     for k in range(3)], axis=-1)


def _adjust_hue_kernel(xp, images, delta):
    _check_image(images, 3)
    r, g, b = _planes(xp, images)
    hue, lo, hi = _hue_range(xp, r, g, b)
    hue = hue + _scalar(delta, "delta").astype(r.dtype) * r.dtype.type(6)
    for _ in range(64):  # back into [0, 6) by whole turns, as TF's loops (NaN stays NaN)
        low, high = hue < 0, hue >= 6
        if not (low.any() or high.any()):
            break
        hue = xp.where(low, hue + r.dtype.type(6), xp.where(high, hue - r.dtype.type(6), hue))
    else:
        hue = _wrap6(xp, hue)
    return _from_hue_range(xp, hue, lo, hi).astype(images.dtype, copy=False)


def _adjust_saturation_kernel(xp, images, scale):
    _check_image(images, 3)
    r, g, b = _planes(xp, images)
    lo, v = _extremes(xp, r, g, b)
    with np.errstate(divide="ignore", invalid="ignore"):
        s = xp.where(v > 0, (v - lo) / v, r.dtype.type(0))
    s = xp.clip(s * _scalar(scale, "scale").astype(r.dtype), 0, r.dtype.type(1))
    h6 = _wrap6(xp, _sixths(xp, r, g, b, lo, v))
    return _between(xp, h6, v - s * v, v).astype(images.dtype, copy=False)


def _adjust_contrast_kernel(xp, images, contrast_factor):
    if images.ndim < 3:
        raise _error(errors.InvalidArgumentError, f"input must be at least 3-D, got shape"
                                                  f"{errors.shape_text(images.shape)}")
    return _contrast(xp, images, _scalar(contrast_factor, "contrast_factor"))


def _channel_means(pixels):
    """The mean of each channel of (images, pixels, channels) `pixels`, summed as TF's
    contrast kernel does (the rows folded in halves, a middle row left over carried along,
    until one is left) and scaled by the reciprocal of the count, so contrasted pixels
    round as TF's do."""
    total = pixels
    size = remaining = pixels.shape[1]
    while remaining > 1:
        right = remaining // 2
        left = remaining - right
        folded = total[:, left:left + right] + total[:, :right]
        if left > right:
            folded = np.concatenate([folded, total[:, right:right + 1]], axis=1)
        total, remaining = folded, left
    if not size:
        return total.sum(axis=1)
    return total[:, 0] * (pixels.dtype.type(1) / pixels.dtype.type(size))


def _contrast(xp, images, factor):
    """`images` (at least 3-D) contrasted by `factor`: a scalar, or one per image (shaped
    to broadcast against them)."""
    x = _compute_type(xp, images)
    *lead, height, width, depth = x.shape
    pixels = x.reshape(int(np.prod(lead, dtype=np.int64)), height * width, depth)
    mean = _channel_means(pixels).reshape(*lead, 1, 1, depth)
    out = x - mean
    out *= factor.astype(x.dtype)
    out += mean
    return out.astype(images.dtype, copy=False)


# -- shape rules ------------------------------------------------------------------------------

def _pixels_rule(op_name, at_least, channels=True):
    """The rule of an op on RGB or HSV pixels; TF's shape functions check the 3 channels of
    the conversions (`channels`) but leave the adjustments' to their kernels."""
    def rule(images, *scalars):
        rules.check_rank(op_name, [images, *scalars], 0, at_least=at_least)
        for i, s in enumerate(scalars, 1):
            rules.check_rank(op_name, [images, *scalars], i, rank=0)
        shape = images.shape
        if channels and shape.rank is not None and shape[-1] is not None and shape[-1] != 3:
            raise rules.shape_error(op_name, f"Dimension must be 3 but is {shape[-1]}",
                                    [images.shape, *(s.shape for s in scalars)])
        if channels and shape.rank is not None:  # channels not known: the 3 checked for
            shape = shape[:-1].concatenate([3])
        return shape, images.dtype
    return rule


def _contrast_rule(images, contrast_factor):
    rules.check_rank("AdjustContrastv2", [images, contrast_factor], 0, at_least=3)
    rules.check_rank("AdjustContrastv2", [images, contrast_factor], 1, rank=0)
    return images.shape, images.dtype


# -- registration -----------------------------------------------------------------------------

def no_registered_gradient(op, *output_grads):
    """The gradient of an op TF registers none for: differentiating through it raises TF's
    LookupError (an op TF declares not differentiable gets `not_differentiable` instead)."""
    raise LookupError(f"gradient registry has no entry for: {op.type}")


_NO_GRADIENT = "no gradient in TensorFlow"
_RGB_TO_HSV = register("RGBToHSV", _rgb_to_hsv_kernel, _pixels_rule("RGBToHSV", 1),
                       dtypes=_HSV_TYPES)
tf_args[_RGB_TO_HSV] = ("images",)
_HSV_TO_RGB = register("HSVToRGB", _hsv_to_rgb_kernel, _pixels_rule("HSVToRGB", 1),
                       dtypes=_HSV_TYPES, not_differentiable=_NO_GRADIENT)
tf_args[_HSV_TO_RGB] = ("images",)
# TF's CPU kernels of the adjustments take float32 only (half on GPUs).
_ADJUST_HUE = register("AdjustHue", _adjust_hue_kernel, _pixels_rule("AdjustHue", 3, False),
                       dtypes=_HALF_FLOAT, kernels=(_d.float32,))
tf_args[_ADJUST_HUE] = ("images", "delta")
_ADJUST_SATURATION = register("AdjustSaturation", _adjust_saturation_kernel,
                              _pixels_rule("AdjustSaturation", 3, False), dtypes=_HALF_FLOAT,
                              kernels=(_d.float32,))
tf_args[_ADJUST_SATURATION] = ("images", "scale")
_ADJUST_CONTRAST = register("AdjustContrastv2", _adjust_contrast_kernel, _contrast_rule,
                            dtypes=_HALF_FLOAT, kernels=(_d.float32,))
tf_args[_ADJUST_CONTRAST] = ("images", "contrast_factor")
for _name in ("AdjustHue", "AdjustSaturation", "AdjustContrastv2"):
    register_gradient(_name)(no_registered_gradient)
# No batching rule: a vectorized graph runs them once per batch element.
batching_rules.assign(PER_ELEMENT, _RGB_TO_HSV, _HSV_TO_RGB, _ADJUST_HUE, _ADJUST_SATURATION)


def _contrast_batched(op, args):
    """Batching: the images of every element at once, each by its own factor (a random
    contrast's); a factor that is not a scalar: None (each element raises)."""
    (images, batched), (factor, factor_batched) = args
    if not batched or images.ndim < 4 or np.ndim(factor) != int(factor_batched):
        return None
    if factor_batched:
        factor = factor.reshape((len(factor),) + (1,) * (images.ndim - 1))
    return [_contrast(np, images, factor)]


batching_rules[_ADJUST_CONTRAST] = _contrast_batched


@register_gradient("RGBToHSV")
def _rgb_to_hsv_grad(op, dy):
    """The HSV conversion's vector-Jacobian product by TF's piecewise rule: ties pick the
    largest channel in the order R, G, B and the smallest in the order B, G, R, every
    reciprocal of 0 is 0, and each case counts only where the channel it divides by
    (the largest, for H and S) is positive."""
    x = op.inputs[0]
    dtype = x.dtype
    rgb = [x[..., 0], x[..., 1], x[..., 2]]
    s, v = op.outputs[..., 1], op.outputs[..., 2]
    r, g, b = rgb

    def mask(condition):
        return cast(condition, dtype)
    biggest = [mask(math_ops.logical_and(r >= b, r >= g)),
               mask(math_ops.logical_and(g > r, g >= b)),
               mask(math_ops.logical_and(b > r, b > g))]
    smallest = [mask(math_ops.logical_and(r < b, r < g)),
                mask(math_ops.logical_and(g <= r, g < b)),
                mask(math_ops.logical_and(b <= r, b <= g))]
    positive = [mask(c > 0) for c in rgb]
    recip = math_ops.reciprocal_no_nan
    span_squared = math_ops.square(s) * math_ops.square(v)  # (max - min)^2 as S^2 V^2
    out = []
    for c in range(3):
        n, p = (c + 1) % 3, (c + 2) % 3  # the next and previous channels, cyclically
        xc, xn, xp = rgb[c], rgb[n], rgb[p]
        # V is the largest channel; S = (max - min) / max.
        dv = biggest[c]
        ds = positive[c] * (biggest[c] * (smallest[n] * xn + smallest[p] * xp)
                            * recip(math_ops.square(xc))
                            - smallest[c] * recip(biggest[n] * xn + biggest[p] * xp))
        # H: 1/6 of (next - previous of the largest) / (max - min), plus its sector.
        dh = (positive[c] * biggest[c] * -(xn - xp) * recip(span_squared)
              + positive[n] * biggest[n] * smallest[c] * (xp - xn)
              * recip(math_ops.square(xc - xn))
              - positive[n] * biggest[n] * smallest[p] * recip(xn - xp)
              + positive[p] * biggest[p] * smallest[c] * (xp - xn)
              * recip(math_ops.square(xp - xc))
              + positive[p] * biggest[p] * smallest[n] * recip(xp - xn)) / 6
        out.append(dy[..., 2] * dv + dy[..., 1] * ds + dy[..., 0] * dh)
    return array_ops.stack(out, axis=-1)


# -- colour spaces ----------------------------------------------------------------------------

@export("image.rgb_to_hsv")
def rgb_to_hsv(images, name=None):
    """RGB pixels (the last axis, values in [0, 1]) as hue, saturation and value in [0, 1].

    >>> tf.image.rgb_to_hsv(tf.constant([[0.0, 0.0, 1.0]]))
    <tf.Tensor: shape=(1, 3), dtype=float32, numpy=array([[0.6666667, 1.       , 1.       ]], dtype=float32)>
    """
    return dispatch(_RGB_TO_HSV, (defaulted(images, _d.float32, _HSV_TYPES),), name=name)


@export("image.hsv_to_rgb")
def hsv_to_rgb(images, name=None):
    """HSV pixels (the last axis, values in [0, 1]) as RGB.

    >>> tf.image.hsv_to_rgb(tf.constant([[0.0, 1.0, 1.0]]))
    <tf.Tensor: shape=(1, 3), dtype=float32, numpy=array([[1., 0., 0.]], dtype=float32)>
    """
    return dispatch(_HSV_TO_RGB, (defaulted(images, _d.float32, _HSV_TYPES),), name=name)


# The standard YIQ and YUV (BT.601) matrices, rows indexed by the input channel.
_RGB_TO_YIQ = [[0.299, 0.59590059, 0.2115], [0.587, -0.27455667, -0.52273617],
               [0.114, -0.32134392, 0.31119955]]
_YIQ_TO_RGB = [[1, 1, 1], [0.95598634, -0.27201283, -1.10674021],
               [0.6208248, -0.64720424, 1.70423049]]
_RGB_TO_YUV = [[0.299, -0.14714119, 0.61497538], [0.587, -0.28886916, -0.51496512],
               [0.114, 0.43601035, -0.10001026]]
_YUV_TO_RGB = [[1, 1, 1], [0, -0.394642334, 2.03206185], [1.13988303, -0.58062185, 0]]


def _tensordot_last(images, matrix, any_rank=False):
    """`images`' last axis times `matrix`; of unknown rank only with `any_rank` (as TF's
    grayscale conversion; its other conversions subtract 1 from the unknown rank)."""
    images = as_tensor(images)
    if not images.dtype.is_floating:  # TF converts the matrix to the images' dtype
        raise TypeError(f"Cannot convert {matrix} to EagerTensor of dtype {images.dtype.name}")
    kernel = convert_to_tensor(np.asarray(matrix, images.dtype.as_numpy_dtype), images.dtype)
    rank = images.shape.rank
    if rank is None and not any_rank:
        raise TypeError("unsupported operand type(s) for -: 'NoneType' and 'int'")
    return array_ops.tensordot(images, kernel, axes=[[-1 if rank is None else rank - 1], [0]])


@export("image.rgb_to_yiq")
def rgb_to_yiq(images):
    """RGB pixels (the last axis) as YIQ.

    >>> tf.image.rgb_to_yiq(tf.constant([[1.0, 1.0, 1.0]]))
    <tf.Tensor: shape=(1, 3), dtype=float32, numpy=array([[ 1.0000000e+00,  0.0000000e+00, -3.6656857e-05]], dtype=float32)>
    """
    return _tensordot_last(images, _RGB_TO_YIQ)


@export("image.yiq_to_rgb")
def yiq_to_rgb(images):
    """YIQ pixels (the last axis) as RGB.

    >>> tf.image.yiq_to_rgb(tf.constant([[1.0, 0.0, 0.0]]))
    <tf.Tensor: shape=(1, 3), dtype=float32, numpy=array([[1., 1., 1.]], dtype=float32)>
    """
    return _tensordot_last(images, _YIQ_TO_RGB)


@export("image.rgb_to_yuv")
def rgb_to_yuv(images):
    """RGB pixels (the last axis) as YUV.

    >>> tf.image.rgb_to_yuv(tf.constant([[0.0, 0.0, 0.0]]))
    <tf.Tensor: shape=(1, 3), dtype=float32, numpy=array([[0., 0., 0.]], dtype=float32)>
    """
    return _tensordot_last(images, _RGB_TO_YUV)


@export("image.yuv_to_rgb")
def yuv_to_rgb(images):
    """YUV pixels (the last axis) as RGB.

    >>> tf.image.yuv_to_rgb(tf.constant([[1.0, 0.0, 0.0]]))
    <tf.Tensor: shape=(1, 3), dtype=float32, numpy=array([[1., 1., 1.]], dtype=float32)>
    """
    return _tensordot_last(images, _YUV_TO_RGB)


@export("image.rgb_to_grayscale")
def rgb_to_grayscale(images, name=None):
    """The luma of RGB pixels, a last axis of size 1, in `images`' dtype.

    >>> tf.image.rgb_to_grayscale(tf.constant([[[1.0, 2.0, 3.0]]]))
    <tf.Tensor: shape=(1, 1, 1), dtype=float32, numpy=array([[[1.8149]]], dtype=float32)>
    """
    images = as_tensor(images)
    flat = convert_image_dtype(images, _d.float32)
    gray = _tensordot_last(flat, [[0.2989], [0.587], [0.114]], any_rank=True)
    return convert_image_dtype(gray, images.dtype)


@export("image.grayscale_to_rgb")
def grayscale_to_rgb(images, name=None):
    """Grey pixels (a last axis of size 1) repeated into three channels.

    >>> tf.image.grayscale_to_rgb(tf.constant([[[0.5]]]))
    <tf.Tensor: shape=(1, 1, 3), dtype=float32, numpy=array([[[0.5, 0.5, 0.5]]], dtype=float32)>
    """
    images = as_tensor(images)
    shape = images.shape
    if shape.rank is not None:
        if shape.rank < 2:
            raise ValueError("A grayscale image (shape %s) must be at least two-dimensional."
                             % shape)
        if shape[-1] is not None and shape[-1] != 1:
            raise ValueError("Last dimension of a grayscale image should be size 1.")
        rgb = array_ops.tile(images, [1] * (shape.rank - 1) + [3], name=name)
        rgb.set_shape(shape[:-1].concatenate([3]))  # (3 channels even where 1 was unknown)
        return rgb
    multiples = array_ops.concat([array_ops.ones(array_ops.expand_dims(
        array_ops.rank(images) - 1, 0), _d.int32), [3]], 0)
    return array_ops.tile(images, multiples, name=name)


# -- adjustments ------------------------------------------------------------------------------

def _check_at_least_3d(image):
    shape = image.shape
    if shape.rank is not None and shape.rank < 3:
        raise ValueError(f"'image' (shape {shape}) must be at least three-dimensional.")
    if shape.rank is not None and any(d == 0 for d in shape[-3:].as_list()):
        raise ValueError(f"inner 3 dims of 'image.shape' must be > 0: {shape}")


@export("image.adjust_brightness")
def adjust_brightness(image, delta):
    """`image` plus `delta`, in [0, 1] units for integer images (which saturate).

    >>> tf.image.adjust_brightness(tf.constant([[[0.25, 0.5, 0.75]]]), 0.25)
    <tf.Tensor: shape=(1, 1, 3), dtype=float32, numpy=array([[[0.5 , 0.75, 1.  ]]], dtype=float32)>
    """
    image = as_tensor(image)
    flat = _as_float(image)
    adjusted = math_ops.add(flat, cast(delta, flat.dtype))
    return convert_image_dtype(adjusted, image.dtype, saturate=True)


@export("image.adjust_contrast")
def adjust_contrast(images, contrast_factor):
    """Each channel of each image moved away from (or towards) its mean by `contrast_factor`.

    >>> tf.image.adjust_contrast(tf.constant([[[1.0], [3.0]]]), 2.0)
    <tf.Tensor: shape=(1, 2, 1), dtype=float32, numpy=
    array([[[0.],
            [4.]]], dtype=float32)>
    """
    images = as_tensor(images)
    flat = _as_float(images)
    factor = _float_input(_ADJUST_CONTRAST, contrast_factor, "contrast_factor")
    adjusted = dispatch(_ADJUST_CONTRAST, (flat, factor))
    return convert_image_dtype(adjusted, images.dtype, saturate=True)


@export("image.adjust_gamma")
def adjust_gamma(image, gamma=1, gain=1):
    """``gain * image ** gamma``, in [0, 1] units for integer images.

    >>> tf.image.adjust_gamma(tf.constant([[[0.25, 0.5, 1.0]]]), 2)
    <tf.Tensor: shape=(1, 1, 3), dtype=float32, numpy=array([[[0.0625, 0.25  , 1.    ]]], dtype=float32)>
    """
    image = as_tensor(image)
    flat = _as_float(image)
    if isinstance(gamma, (int, float)):
        if gamma < 0:
            raise ValueError("Gamma should be a non-negative real number.")
    elif isinstance(gamma, EagerTensor):  # TF's assertion, failing as it runs
        if np.any(gamma.numpy() < 0):
            raise errors.InvalidArgumentError(
                None, None, "Expected 'tf.Tensor(False, shape=(), dtype=bool)' to be true. "
                            "Summarized data: b'Gamma should be a non-negative real number.'")
    else:
        debugging_ops.assert_non_negative(gamma, message="Gamma should be a non-negative "
                                                         "real number.")
    adjusted = gain * flat ** gamma
    return convert_image_dtype(adjusted, image.dtype, saturate=True)


def _float_input(op, value, name):
    """Input 1 of an adjustment (a float32 scalar): Python numbers converted, a tensor of
    another dtype refused with TF's error."""
    value = as_tensor(value) if hasattr(value, "dtype") else convert_to_tensor(value,
                                                                               _d.float32)
    if value.dtype != _d.float32:
        raise fixed_input_error(op, 1, name, _d.float32, value.dtype,
                                building=not isinstance(value, EagerTensor))
    return value


@export("image.adjust_hue")
def adjust_hue(image, delta, name=None):
    """`image`'s hue rotated by `delta` (in [-1, 1], a fraction of the colour wheel).

    >>> tf.image.adjust_hue(tf.constant([[[1.0, 0.0, 0.0]]]), 1 / 3)
    <tf.Tensor: shape=(1, 1, 3), dtype=float32, numpy=array([[[0., 1., 0.]]], dtype=float32)>
    """
    if context.executing_eagerly():
        value = float(np.asarray(delta)) if not hasattr(delta, "numpy") else \
            float(delta.numpy())
        if value < -1 or value > 1:
            raise ValueError("delta must be in the interval [-1, 1]")
    image = as_tensor(image)
    flat = _as_float(image)
    adjusted = dispatch(_ADJUST_HUE, (flat, _float_input(_ADJUST_HUE, delta, "delta")),
                        name=name)
    return convert_image_dtype(adjusted, image.dtype)


@export("image.adjust_saturation")
def adjust_saturation(image, saturation_factor, name=None):
    """`image`'s saturation (HSV's S) scaled by `saturation_factor`, clipped to [0, 1].

    >>> tf.image.adjust_saturation(tf.constant([[[1.0, 0.5, 0.5]]]), 0.0)
    <tf.Tensor: shape=(1, 1, 3), dtype=float32, numpy=array([[[1., 1., 1.]]], dtype=float32)>
    """
    image = as_tensor(image)
    flat = _as_float(image)
    scale = _float_input(_ADJUST_SATURATION, saturation_factor, "scale")
    adjusted = dispatch(_ADJUST_SATURATION, (flat, scale), name=name)
    return convert_image_dtype(adjusted, image.dtype)


@export("image.per_image_standardization")
def per_image_standardization(image):
    """Each image scaled to mean 0 and variance 1 (the deviation at least
    ``1 / sqrt(pixels)``), as float32.

    >>> tf.image.per_image_standardization(tf.constant([[[1.0], [3.0]]]))
    <tf.Tensor: shape=(1, 2, 1), dtype=float32, numpy=
    array([[[-1.],
            [ 1.]]], dtype=float32)>
    """
    image = as_tensor(image)
    _check_at_least_3d(image)
    image = cast(image, _d.float32)
    pixels = reduction_ops.reduce_prod(array_ops.shape(image)[-3:])
    mean = reduction_ops.reduce_mean(image, axis=[-1, -2, -3], keepdims=True)
    deviation = reduction_ops.reduce_std(image, axis=[-1, -2, -3], keepdims=True)
    least = math_ops.rsqrt(cast(pixels, _d.float32))
    return math_ops.divide(image - mean, math_ops.maximum(deviation, least))


# -- random augmentations ---------------------------------------------------------------------

def _check_delta(max_delta, at_most=None):
    if at_most is not None and max_delta > at_most:
        raise ValueError(f"max_delta must be <= {at_most}.")
    if max_delta < 0:
        raise ValueError("max_delta must be non-negative.")


def _check_range(lower, upper):
    if upper <= lower:
        raise ValueError("upper must be > lower.")
    if lower < 0:
        raise ValueError("lower must be non-negative.")


@export("image.random_brightness")
def random_brightness(image, max_delta, seed=None):
    """`adjust_brightness` by a delta drawn uniformly from [-max_delta, max_delta).

    >>> tf.image.random_brightness(tf.zeros([1, 1, 3]), 0.0)
    <tf.Tensor: shape=(1, 1, 3), dtype=float32, numpy=array([[[0., 0., 0.]]], dtype=float32)>
    """
    _check_delta(max_delta)
    delta = random_ops.uniform([], -max_delta, max_delta, seed=seed)
    return adjust_brightness(image, delta)


@export("image.stateless_random_brightness")
def stateless_random_brightness(image, max_delta, seed):
    """`adjust_brightness` by a delta in [-max_delta, max_delta) determined by `seed`.

    >>> tf.image.stateless_random_brightness(tf.zeros([1, 1, 1]), 0.5, (1, 2))
    <tf.Tensor: shape=(1, 1, 1), dtype=float32, numpy=array([[[0.34406042]]], dtype=float32)>
    """
    _check_delta(max_delta)
    delta = random_ops.stateless_uniform([], seed, -max_delta, max_delta)
    return adjust_brightness(image, delta)


@export("image.random_contrast")
def random_contrast(image, lower, upper, seed=None):
    """`adjust_contrast` by a factor drawn uniformly from [lower, upper).

    >>> tf.image.random_contrast(tf.ones([1, 1, 3]), 0.5, 1.5).shape
    TensorShape([1, 1, 3])
    """
    _check_range(lower, upper)
    factor = random_ops.uniform([], lower, upper, seed=seed)
    return adjust_contrast(image, factor)


@export("image.stateless_random_contrast")
def stateless_random_contrast(image, lower, upper, seed):
    """`adjust_contrast` by a factor in [lower, upper) determined by `seed`.

    >>> tf.image.stateless_random_contrast(tf.ones([1, 1, 3]), 0.5, 1.5, (1, 2)).shape
    TensorShape([1, 1, 3])
    """
    _check_range(lower, upper)
    factor = random_ops.stateless_uniform([], seed, lower, upper)
    return adjust_contrast(image, factor)


@export("image.random_saturation")
def random_saturation(image, lower, upper, seed=None):
    """`adjust_saturation` by a factor drawn uniformly from [lower, upper).

    >>> tf.image.random_saturation(tf.ones([1, 1, 3]), 0.5, 1.5).shape
    TensorShape([1, 1, 3])
    """
    _check_range(lower, upper)
    factor = random_ops.uniform([], lower, upper, seed=seed)
    return adjust_saturation(image, factor)


@export("image.stateless_random_saturation")
def stateless_random_saturation(image, lower, upper, seed=None):
    """`adjust_saturation` by a factor in [lower, upper) determined by `seed`.

    >>> tf.image.stateless_random_saturation(tf.ones([1, 1, 3]), 0.5, 1.5, (1, 2)).shape
    TensorShape([1, 1, 3])
    """
    _check_range(lower, upper)
    factor = random_ops.stateless_uniform([], seed, lower, upper)
    return adjust_saturation(image, factor)


@export("image.random_hue")
def random_hue(image, max_delta, seed=None):
    """`adjust_hue` by a delta drawn uniformly from [-max_delta, max_delta), max_delta at
    most 0.5.

    >>> tf.image.random_hue(tf.ones([1, 1, 3]), 0.2).shape
    TensorShape([1, 1, 3])
    """
    _check_delta(max_delta, 0.5)
    delta = random_ops.uniform([], -max_delta, max_delta, seed=seed)
    return adjust_hue(image, delta)


@export("image.stateless_random_hue")
def stateless_random_hue(image, max_delta, seed):
    """`adjust_hue` by a delta in [-max_delta, max_delta) determined by `seed`.

    >>> tf.image.stateless_random_hue(tf.ones([1, 1, 3]), 0.2, (1, 2)).shape
    TensorShape([1, 1, 3])
    """
    _check_delta(max_delta, 0.5)
    delta = random_ops.stateless_uniform([], seed, -max_delta, max_delta)
    return adjust_hue(image, delta)
