"""Image ops (``tf.image``): resizing, crops and pads, flips and rotations, dtype conversion,
patches, crops resized from boxes, and boxes drawn.

The resize kernels are separable: each output row (or column) is a weighted sum of a few
input rows, found once per call as (indices, weights) "taps" by the sampling rules of TF's
kernels (bilinear, nearest, Keys bicubic through its 1024-entry table, area, and the
kernels of ``ScaleAndTranslate``), then applied width first, as whole-array gathers (two
taps) or one matrix product per axis (more). Their gradients apply the same weights
transposed. Sizes and offsets given as tensors that only run time knows become the ops'
runtime inputs.

>>> tf.image.resize(tf.constant([[[1.], [3.]]]), [1, 4])[0, :, 0].numpy()
array([1. , 1.5, 2.5, 3. ], dtype=float32)
"""
import collections
import math

import numpy as np

from eagerflow._src.backend.api_export import export
from eagerflow._src.backend.arrays import to_host
from eagerflow._src.core import config, context
from eagerflow._src.core import dtypes as _d
from eagerflow._src.core import errors
from eagerflow._src.core.convert import convert_to_tensor, get_static_value
from eagerflow._src.core.dispatch import dispatch
from eagerflow._src.core.errors import shape_text
from eagerflow._src.core.node_forms import AttrInput, NodeForm, tf_nodes
from eagerflow._src.core.node_forms import tf_args
from eagerflow._src.core.node_forms import tf_defaults
from eagerflow._src.core.registry import PER_ELEMENT, batching_rules, no_gradient_entry, \
    register, register_gradient
from eagerflow._src.core.tensor import EagerTensor, Tensor
from eagerflow._src.core.tensor_shape import TensorShape
from eagerflow._src.ops import array_ops, cast_ops, conv_ops, debugging_ops, math_ops, \
    philox, random_ops, reduction_ops
from eagerflow._src.ops import linalg_ops
from eagerflow._src.ops import shape_rules as rules
from eagerflow._src.ops.array_ops import _ints_or_tensor
from eagerflow._src.ops.wrappers import as_tensor, defaulted

# TF's dtypes of the resize ops' images (the output is float32, or T for nearest neighbour).
_RESIZE_TYPES = (_d.int8, _d.uint8, _d.int16, _d.uint16, _d.int32, _d.int64, _d.bfloat16,
                 _d.float16, _d.float32, _d.float64)
_GRAD_TYPES = (_d.float32, _d.bfloat16, _d.float16, _d.float64)
_NN_GRAD_TYPES = (_d.uint8, _d.int8, _d.int32, _d.float16, _d.float32, _d.float64, _d.bfloat16)


def _invalid(message):
    return errors.InvalidArgumentError(None, None, message)


# --- sampling: the taps of each output position along one axis -----------------------------

def _scale(in_size, out_size, align_corners):
    """TF's input/output ratio of a legacy resize (float32)."""
    if align_corners and out_size > 1:
        return np.float32(in_size - 1) / np.float32(out_size - 1)
    return np.float32(in_size) / np.float32(out_size)


def _source(out_size, scale, half_pixel):
    """The input coordinate of each output position, in float32 as TF computes it."""
    i = np.arange(out_size, dtype=np.float32)
    return (i + np.float32(0.5)) * scale - np.float32(0.5) if half_pixel else i * scale


def _linear_taps(in_size, out_size, align_corners, half_pixel):
    """(lower, upper, lerp) of a bilinear resize along one axis."""
    x = _source(out_size, _scale(in_size, out_size, align_corners), half_pixel)
    floor = np.floor(x)
    lower = np.maximum(floor, 0).astype(np.int64)
    upper = np.minimum(np.ceil(x), in_size - 1).astype(np.int64)
    return lower, upper, (x - floor).astype(np.float32)


def _round_half_away(x):
    floor = np.floor(x)
    return np.where(x - floor >= 0.5, floor + 1, floor)


def _nearest_index(in_size, out_size, align_corners, half_pixel):
    scale = _scale(in_size, out_size, align_corners)
    i = np.arange(out_size, dtype=np.float32)
    x = (i + np.float32(0.5)) * scale if half_pixel else i * scale
    index = np.minimum(_round_half_away(x) if align_corners else np.floor(x), in_size - 1)
    return np.maximum(index, 0).astype(np.int64)


_TABLE_SIZE = 1024
_CUBIC_TABLES = {}


def _cubic_table(a):
    """Keys' cubic weights at 1/1024 steps (TF's table): columns (near tap, far tap)."""
    if a not in _CUBIC_TABLES:
        x = np.arange(_TABLE_SIZE + 1, dtype=np.float64) / _TABLE_SIZE
        near = ((a + 2) * x - (a + 3)) * x * x + 1
        x1 = x + 1
        far = ((a * x1 - 5 * a) * x1 + 8 * a) * x1 - 4 * a
        _CUBIC_TABLES[a] = np.stack([near, far], 1).astype(np.float32)
    return _CUBIC_TABLES[a]


def _cubic_taps(in_size, out_size, align_corners, half_pixel):
    """(indices, weights), each (out_size, 4), of a bicubic resize along one axis."""
    x = _source(out_size, _scale(in_size, out_size, align_corners), half_pixel)
    start = np.floor(x).astype(np.int64)
    offset = np.rint((x - start) * np.float32(_TABLE_SIZE)).astype(np.int64)
    table = _cubic_table(-0.5 if half_pixel else -0.75)
    weights = np.stack([table[offset, 1], table[offset, 0], table[_TABLE_SIZE - offset, 0],
                        table[_TABLE_SIZE - offset, 1]], 1)
    wanted = start[:, None] + np.arange(-1, 3)
    index = np.clip(wanted, 0, in_size - 1)
    if half_pixel:  # taps outside the image drop out and the others are renormalized
        weights = np.where(index == wanted, weights, np.float32(0))
        total = weights.sum(1, keepdims=True)
        usable = np.abs(total) >= 1000 * np.finfo(np.float32).tiny
        weights = np.where(usable, weights * (np.float32(1) / np.where(usable, total, 1)),
                           weights)
    return index, weights.astype(np.float32)


def _area_taps(in_size, out_size, align_corners):
    """(indices, weights) of an area resize: each output averages the input span it covers."""
    scale = _scale(in_size, out_size, align_corners)
    y0 = np.arange(out_size, dtype=np.float32) * scale
    y1 = np.arange(1, out_size + 1, dtype=np.float32) * scale
    start = np.floor(y0).astype(np.int64)
    span = max(int((np.ceil(y1).astype(np.int64) - start).max()), 1)
    rows = start[:, None] + np.arange(span)
    cover = np.minimum(rows + 1, y1[:, None]) - np.maximum(rows, y0[:, None])
    touched = rows < np.ceil(y1)[:, None]
    weights = np.where(touched, cover, 0).astype(np.float32)
    return np.where(touched, np.minimum(rows, in_size - 1), -1), weights / scale


def _lanczos(radius):
    def kernel(x):
        with np.errstate(invalid="ignore", divide="ignore"):
            value = radius * np.sin(np.pi * x) * np.sin(np.pi * x / radius) / (np.pi * x) ** 2
        return np.where(x > radius, 0.0, np.where(x <= 1e-3, 1.0, value))
    return kernel, float(radius)


def _keys_cubic(x):
    return np.where(x >= 2, 0.0, np.where(x >= 1, ((-0.5 * x + 2.5) * x - 4) * x + 2,
                                          (1.5 * x - 2.5) * x * x + 1))


def _mitchell_cubic(x):
    return np.where(x >= 2, 0.0, np.where(
        x >= 1, (((-7 / 18) * x + 2) * x - 10 / 3) * x + 16 / 9, ((7 / 6) * x - 2) * x * x + 8 / 9))


# ScaleAndTranslate's kernels: name -> (function of |distance|, radius)
_KERNELS = {
    "lanczos1": _lanczos(1), "lanczos3": _lanczos(3), "lanczos5": _lanczos(5),
    "gaussian": (lambda x: np.where(x >= 1.5, 0.0, np.exp(-x * x / 0.5)), 1.5),
    "box": (lambda x: np.where(x < 0.5, 1.0, np.where(x == 0.5, 0.5, 0.0)), 1.0),
    "triangle": (lambda x: np.where(x >= 1, 0.0, 1 - x), 1.0),
    "keyscubic": (_keys_cubic, 2.0),
    "mitchellcubic": (_mitchell_cubic, 2.0),
}


def _span_taps(in_size, out_size, scale, translate, kernel_type, antialias):
    """(indices, weights) of ScaleAndTranslate along one axis (TF's spans)."""
    fn, radius = _KERNELS[kernel_type]
    inv_scale = 1.0 / scale
    kernel_scale = max(inv_scale, 1.0) if antialias else 1.0
    span = min(2 * int(math.ceil(radius * kernel_scale)) + 1, in_size)
    sample = (np.arange(out_size, dtype=np.float32) + np.float32(0.5)) * np.float32(inv_scale) \
        - np.float32(inv_scale * translate)
    inside = (sample >= 0) & (sample <= in_size)
    start = np.ceil(sample - radius * kernel_scale - 0.5).astype(np.int64)
    end = np.floor(sample + radius * kernel_scale - 0.5).astype(np.int64)
    start, end = np.clip(start, 0, in_size - 1), np.clip(end, 0, in_size - 1) + 1
    start = np.where(inside, start, 0)  # (an empty span, at the first row)
    rows = start[:, None] + np.arange(span)
    distance = np.abs((rows + 0.5 - sample[:, None]) / kernel_scale).astype(np.float32)
    weights = np.where((rows < end[:, None]) & inside[:, None], fn(distance), 0.0)
    total = weights.sum(1, keepdims=True)
    usable = np.abs(total) >= 1000 * np.finfo(np.float32).tiny
    weights = np.where(usable, weights / np.where(usable, total, 1), weights)
    # TF reads every row of the widest span from `start` on, up to the image's end
    return np.where(rows < in_size, rows, -1), weights.astype(np.float32)


def _apply_taps(xp, x, axis, index, weights):
    """Along `axis` of float `x`: each output the sum of its taps' rows times their weights.
    Index -1 marks a tap TF's kernel never reads (its weight is 0)."""
    if index.shape[1] > 2 and xp.isfinite(x).all():
        # many taps: one matrix product (BLAS) beats a gather per tap. (Not with a NaN or
        # inf: a zero weight would spread it to every output, where TF's sums of taps keep it
        # to the outputs that read it.)
        letters = "abcdefgh"[:x.ndim]
        out = letters[:axis] + "z" + letters[axis + 1:]
        matrix = xp.asarray(_matrix(index, weights, x.shape[axis]))
        return xp.einsum(f"{letters},z{letters[axis]}->{out}", x, matrix, optimize=True)
    shape = [1] * x.ndim
    shape[axis] = index.shape[0]
    out = None
    for t in range(index.shape[1]):
        read = index[:, t] >= 0
        term = xp.take(x, np.where(read, index[:, t], 0), axis=axis) * \
            weights[:, t].reshape(shape)
        if not read.all():
            term = xp.where(xp.asarray(read.reshape(shape)), term, np.float32(0))
        out = term if out is None else out + term
    return out


def _lerp(xp, x, axis, lower, upper, lerp):
    """TF's bilinear step along `axis`: ``a + (b - a) * t``."""
    shape = [1] * x.ndim
    shape[axis] = lower.shape[0]
    a, b = xp.take(x, lower, axis=axis), xp.take(x, upper, axis=axis)
    b -= a  # in place: the gathers are fresh arrays
    b *= lerp.reshape(shape)
    b += a
    return b


def _matrix(index, weights, in_size, dtype=np.float32):
    """The dense (out, in) matrix of taps."""
    m = np.zeros((index.shape[0], in_size), dtype)
    weights = np.where(index >= 0, weights, 0).astype(dtype)
    np.add.at(m, (np.arange(index.shape[0])[:, None], np.maximum(index, 0)), weights)
    return m


def _dense_adjoint(xp, g, axis, index, weights, in_size):
    """`_adjoint` of a finite `g`: one product with the taps' matrix."""
    moved = xp.moveaxis(g, axis, -1)
    matrix = _matrix(index, weights, in_size, g.dtype)
    return xp.moveaxis(moved @ xp.asarray(matrix), -1, axis)


def _adjoint(xp, g, axis, index, weights, in_size):
    """The taps' matrix transposed applied along `axis` of `g`: a resize's gradient step."""
    if xp.isfinite(g).all():
        return _dense_adjoint(xp, g, axis, index, weights, in_size)
    # a NaN or inf reaches only the inputs its output read (as TF's scatter of taps; on the
    # host, where the scatter-add is)
    moved = np.moveaxis(to_host(g), axis, 0)
    out = np.zeros((in_size,) + moved.shape[1:], g.dtype)
    shape = (-1,) + (1,) * (moved.ndim - 1)
    for t in range(index.shape[1]):
        read = index[:, t] >= 0
        np.add.at(out, index[read, t], moved[read] * weights[read, t].reshape(shape))
    return xp.asarray(np.moveaxis(out, 0, axis))


# --- the resize ops ---------------------------------------------------------------------------

def _size_value(runtime, size):
    """A size given as the attr `size`, or as the runtime input (`runtime`: () or (array,))."""
    return tuple(int(v) for v in np.asarray(runtime[0]).reshape(-1)) if runtime else size


def _output_size(images, runtime, size):
    """The (height, width) of a resize, checked as TF's kernels check it."""
    if images.ndim != 4:
        raise _invalid(f"input must be 4-dimensional{shape_text(images.shape)}")
    size = _size_value(runtime, size)
    if len(size) != 2:
        raise _invalid(f"shape_t must have two elements{shape_text([len(size)])}")
    if size[0] <= 0 or size[1] <= 0:
        raise _invalid("output dimensions must be positive")
    if 0 in images.shape[1:3]:
        raise _invalid("input image must be of non-zero size")
    if images.shape[3] == 0:
        raise _invalid("image must have at least one channel")
    return size


def _check_centers(align_corners, half_pixel_centers):
    if align_corners and half_pixel_centers:
        raise _invalid("If half_pixel_centers is True, align_corners must be False.")


def _resize_kernel(method):
    def kernel(xp, images, *runtime, size=None, align_corners=False, half_pixel_centers=False):
        oh, ow = _output_size(images, runtime, size)
        _check_centers(align_corners, half_pixel_centers)
        _, h, w, _ = images.shape
        if method == "ResizeNearestNeighbor":
            rows = _nearest_index(h, oh, align_corners, half_pixel_centers)
            cols = _nearest_index(w, ow, align_corners, half_pixel_centers)
            return xp.take(xp.take(images, cols, axis=2), rows, axis=1)
        x = images.astype(np.float32, copy=False)
        if method == "ResizeBilinear":
            x = _lerp(xp, x, 2, *_linear_taps(w, ow, align_corners, half_pixel_centers))
            return _lerp(xp, x, 1, *_linear_taps(h, oh, align_corners, half_pixel_centers))
        if method == "ResizeBicubic":
            taps = _cubic_taps
            x = _apply_taps(xp, x, 2, *taps(w, ow, align_corners, half_pixel_centers))
            return _apply_taps(xp, x, 1, *taps(h, oh, align_corners, half_pixel_centers))
        x = _apply_taps(xp, x, 2, *_area_taps(w, ow, align_corners))
        return _apply_taps(xp, x, 1, *_area_taps(h, oh, align_corners))
    return kernel


def _size_rule(images, size):
    """(batch, height, width, channels) of a resize's output, as far as known."""
    rules.check_rank("Resize", [images], 0, rank=4)
    if isinstance(size, tuple):
        dims = list(size)
    else:
        dims = rules.known_elements(size) or [None, None]
    if len(dims) != 2:
        raise rules.shape_error("Resize", "Dimension must be 2 but is " f"{len(dims)}",
                                [images.shape, TensorShape([len(dims)])])
    if images.shape.rank is None:
        return TensorShape([None, *dims, None])
    return TensorShape([images.shape[0], *dims, images.shape[3]])


def _resize_rule(float_output):
    def rule(images, *runtime, size=None, **_):
        size = runtime[0] if runtime else size
        return _size_rule(images, size), _d.float32 if float_output else images.dtype
    return rule


def _resize_form():
    return NodeForm(inputs=(0, AttrInput("size", type_attr=None, runtime=True)),
                    outputs=("resized_images",))


_RESIZE_BILINEAR = register("ResizeBilinear", _resize_kernel("ResizeBilinear"),
                            _resize_rule(True), dtypes=_RESIZE_TYPES)
tf_args[_RESIZE_BILINEAR] = ("images", "size")
_RESIZE_NEAREST = register("ResizeNearestNeighbor", _resize_kernel("ResizeNearestNeighbor"),
                           _resize_rule(False), dtypes=_RESIZE_TYPES)
tf_args[_RESIZE_NEAREST] = ("images", "size")
_RESIZE_BICUBIC = register("ResizeBicubic", _resize_kernel("ResizeBicubic"), _resize_rule(True),
                           dtypes=_RESIZE_TYPES)
tf_args[_RESIZE_BICUBIC] = ("images", "size")
_RESIZE_AREA = register("ResizeArea", _resize_kernel("ResizeArea"), _resize_rule(True),
                        dtypes=_RESIZE_TYPES, not_differentiable=None)
# TF registers no gradient of ResizeArea: differentiating through it raises, as in TF
register_gradient("ResizeArea")(lambda op, dy: _no_glimpse_gradient(op))
tf_args[_RESIZE_AREA] = ("images", "size")
for _op in (_RESIZE_BILINEAR, _RESIZE_NEAREST, _RESIZE_BICUBIC, _RESIZE_AREA):
    tf_nodes[_op] = _resize_form()
# (TF's defaults of the resize ops' attrs, which their gradients read)
_CORNERS = {"align_corners": False, "half_pixel_centers": False}
tf_defaults.assign(_CORNERS, _RESIZE_BILINEAR, _RESIZE_NEAREST, _RESIZE_BICUBIC)
tf_defaults[_RESIZE_AREA] = {"align_corners": False}


def _grad_kernel(method):
    """ResizeBilinearGrad / ResizeBicubicGrad: the weights transposed, as original's dtype."""
    def kernel(xp, grads, original, align_corners=False, half_pixel_centers=False):
        if grads.ndim != 4 or original.ndim != 4:
            raise _invalid(f"input_grad must be 4-dimensional{shape_text(grads.shape)}")
        _check_centers(align_corners, half_pixel_centers)
        _, oh, ow, _ = grads.shape
        _, h, w, _ = original.shape
        if method == "ResizeBilinear":
            def taps(n, o):
                lower, upper, lerp = _linear_taps(n, o, align_corners, half_pixel_centers)
                return np.stack([lower, upper], 1), np.stack([1 - lerp, lerp], 1), n
        else:
            def taps(n, o):
                return (*_cubic_taps(n, o, align_corners, half_pixel_centers), n)
        g = grads.astype(np.float32, copy=False)
        out = _adjoint(xp, _adjoint(xp, g, 1, *taps(h, oh)), 2, *taps(w, ow))
        return out.astype(original.dtype, copy=False)
    return kernel


def _grad_rule(grads, original, **_):
    if grads.shape.rank is None or original.shape.rank is None:
        return TensorShape(None), original.dtype
    return TensorShape([grads.shape[0], original.shape[1], original.shape[2],
                        grads.shape[3]]), original.dtype


# TF declares ResizeBilinearGrad not differentiable: second derivatives through a bilinear
# resize leave out its share (ResizeBicubicGrad's, which TF has none of, is the resize).
_RESIZE_BILINEAR_GRAD = register("ResizeBilinearGrad", _grad_kernel("ResizeBilinear"),
                                 _grad_rule, tied=(1,), dtypes=_GRAD_TYPES,
                                 not_differentiable="as in TensorFlow")
tf_args[_RESIZE_BILINEAR_GRAD] = ("grads", "original_image")
_RESIZE_BICUBIC_GRAD = register("ResizeBicubicGrad", _grad_kernel("ResizeBicubic"), _grad_rule,
                                tied=(1,), dtypes=(_d.float32, _d.float64))
tf_args[_RESIZE_BICUBIC_GRAD] = ("grads", "original_image")
for _op in (_RESIZE_BILINEAR_GRAD, _RESIZE_BICUBIC_GRAD):
    tf_nodes[_op] = NodeForm(types={"T": 1}, outputs=("output",))
tf_defaults.assign(_CORNERS, _RESIZE_BILINEAR_GRAD, _RESIZE_BICUBIC_GRAD)


def _nearest_grad_kernel(xp, grads, *runtime, size=None, align_corners=False,
                         half_pixel_centers=False):
    if grads.ndim != 4:
        raise _invalid(f"input must be 4-dimensional{shape_text(grads.shape)}")
    size = _size_value(runtime, size)
    if len(size) != 2:
        raise _invalid(f"shape_t must have two elements{shape_text([len(size)])}")
    _check_centers(align_corners, half_pixel_centers)
    (h, w), (_, oh, ow, _) = size, grads.shape
    rows = _nearest_index(h, oh, align_corners, half_pixel_centers)
    cols = _nearest_index(w, ow, align_corners, half_pixel_centers)
    out = xp.zeros((grads.shape[0], h, w, grads.shape[3]), grads.dtype)
    xp.add.at(out, (slice(None), rows[:, None], cols[None, :]), grads)
    return out


def _nearest_grad_rule(grads, *runtime, size=None, **_):
    size = runtime[0] if runtime else size
    return _size_rule(grads, size), grads.dtype


_RESIZE_NEAREST_GRAD = register("ResizeNearestNeighborGrad", _nearest_grad_kernel,
                                _nearest_grad_rule, dtypes=_NN_GRAD_TYPES)
tf_nodes[_RESIZE_NEAREST_GRAD] = NodeForm(
    inputs=(0, AttrInput("size", type_attr=None, runtime=True)), outputs=("output",))
tf_args[_RESIZE_NEAREST_GRAD] = ("grads", "size")
tf_defaults[_RESIZE_NEAREST_GRAD] = _CORNERS


# ScaleAndTranslate: images, scale, translation, then size when only run time knows it.
def _scale_translate_kernel(xp, images, scale, translation, *runtime, size=None,
                            kernel_type="lanczos3", antialias=True):
    oh, ow = _output_size(images, runtime, size)
    kernel_type = _kernel_type(kernel_type)
    (sy, sx), (ty, tx) = (np.asarray(scale, np.float32).reshape(-1).tolist(),
                          np.asarray(translation, np.float32).reshape(-1).tolist())
    if sy <= 0 or sx <= 0:
        raise _invalid("Scale must be greater than zero.")
    _, h, w, _ = images.shape
    x = images.astype(np.float32, copy=False)
    x = _apply_taps(xp, x, 2, *_span_taps(w, ow, sx, tx, kernel_type, antialias))
    return _apply_taps(xp, x, 1, *_span_taps(h, oh, sy, ty, kernel_type, antialias))


def _kernel_type(kernel_type):
    name = kernel_type.decode() if isinstance(kernel_type, bytes) else kernel_type
    if name not in _KERNELS:
        raise _invalid(f"Unrecognized kernel type: {name}")
    return name


def _scale_translate_rule(images, scale, translation, *runtime, size=None, **_):
    size = runtime[0] if runtime else size
    return _size_rule(images, size), _d.float32


_SCALE_AND_TRANSLATE = register("ScaleAndTranslate", _scale_translate_kernel,
                                _scale_translate_rule, tied=(0,), dtypes=_RESIZE_TYPES)
tf_nodes[_SCALE_AND_TRANSLATE] = NodeForm(
    inputs=(0, AttrInput("size", type_attr=None, runtime=True), 1, 2),
    outputs=("resized_images",))
tf_args[_SCALE_AND_TRANSLATE] = ("images", "size", "scale", "translation")
tf_defaults[_SCALE_AND_TRANSLATE] = {"kernel_type": "lanczos3", "antialias": True}


def _scale_translate_grad_kernel(xp, grads, original, scale, translation,
                                 kernel_type="lanczos3", antialias=True):
    kernel_type = _kernel_type(kernel_type)
    (sy, sx), (ty, tx) = (np.asarray(scale, np.float32).reshape(-1).tolist(),
                          np.asarray(translation, np.float32).reshape(-1).tolist())
    _, oh, ow, _ = grads.shape
    _, h, w, _ = original.shape
    g = grads.astype(np.float32, copy=False)
    for axis, n, o, sc, tr in ((1, h, oh, sy, ty), (2, w, ow, sx, tx)):
        taps = _span_taps(n, o, sc, tr, kernel_type, antialias)
        if xp.isfinite(g).all():  # (checked per axis: the first product may overflow)
            g = _dense_adjoint(xp, g, axis, *taps, n)
        else:  # (TF's gradient gathers over spans of its own, which decide where NaNs go)
            g = _apply_taps(xp, g, axis, *_gradient_spans(*taps, n, o))
    return g


def _gradient_spans(index, weights, in_size, out_size):
    """(indices, weights) over the outputs of ScaleAndTranslate's taps (`index`, `weights`)
    that give each input its gradient: from the first output weighing it, as many outputs
    as the widest such range (TF reads them all, weighed 0 or not), up to the last output."""
    weights = np.where(index >= 0, weights, 0)
    matrix = _matrix(index, weights, in_size)  # (out, in)
    weighed = np.zeros((in_size, out_size), bool)
    rows, cols = np.nonzero(weights)
    weighed[index[rows, cols], rows] = True
    used = weighed.any(1)
    first = np.where(used, weighed.argmax(1), 0)
    last = np.where(used, out_size - 1 - weighed[:, ::-1].argmax(1), 0)
    span = max(int((last - first + 1)[used].max()) if used.any() else 0, 1)
    outputs = first[:, None] + np.arange(span)
    inside = outputs < out_size
    grad_weights = np.where(
        inside, matrix[np.minimum(outputs, out_size - 1), np.arange(in_size)[:, None]], 0)
    return np.where(inside, outputs, -1), grad_weights.astype(np.float32)


_SCALE_AND_TRANSLATE_GRAD = register(
    "ScaleAndTranslateGrad", _scale_translate_grad_kernel,
    lambda grads, original, *_, **__: _grad_rule(grads, original), tied=(0,),
    dtypes=(_d.float32,))
tf_nodes[_SCALE_AND_TRANSLATE_GRAD] = NodeForm(types={"T": 0}, outputs=("output",))
tf_args[_SCALE_AND_TRANSLATE_GRAD] = ("grads", "original_image", "scale", "translation")
tf_defaults[_SCALE_AND_TRANSLATE_GRAD] = tf_defaults.get(_SCALE_AND_TRANSLATE)


def _spatial_size(images):
    """The (height, width) of NHWC `images`: a tuple when known, else a tensor."""
    dims = images.shape.as_list()[1:3] if images.shape.rank is not None else [None, None]
    return tuple(dims) if None not in dims else array_ops.shape(images)[1:3]


def _resize_attrs(op):
    return {"align_corners": op.attrs["align_corners"],
            "half_pixel_centers": op.attrs["half_pixel_centers"]}


@register_gradient("ResizeBilinear")
def _resize_bilinear_grad(op, dy):
    return dispatch(_RESIZE_BILINEAR_GRAD, (dy, op.inputs[0]), _resize_attrs(op)), \
        *([None] * (len(op.inputs) - 1))


@register_gradient("ResizeBicubic")
def _resize_bicubic_grad(op, dy):
    if op.inputs[0].dtype not in (_d.float32, _d.float64):
        return (None,) * len(op.inputs)
    return dispatch(_RESIZE_BICUBIC_GRAD, (dy, op.inputs[0]), _resize_attrs(op)), \
        *([None] * (len(op.inputs) - 1))


def _with_size(op_def, inputs, size, attrs):
    if isinstance(size, tuple):
        return dispatch(op_def, inputs, {**attrs, "size": size})
    return dispatch(op_def, (*inputs, size), attrs)


@register_gradient("ResizeNearestNeighbor")
def _resize_nearest_grad(op, dy):
    return _with_size(_RESIZE_NEAREST_GRAD, (dy,), _spatial_size(op.inputs[0]),
                      _resize_attrs(op)), *([None] * (len(op.inputs) - 1))


@register_gradient("ResizeNearestNeighborGrad")
def _resize_nearest_grad_grad(op, g):
    # linear in its input: the gradient is the forward resize
    return _with_size(_RESIZE_NEAREST, (g,), _spatial_size(op.inputs[0]), _resize_attrs(op)), \
        *([None] * (len(op.inputs) - 1))


@register_gradient("ResizeBicubicGrad")
def _resize_bicubic_grad_grad(op, g):
    g = cast_ops.cast(g, _d.float32) if g.dtype != _d.float32 else g
    return _with_size(_RESIZE_BICUBIC, (g,), _spatial_size(op.inputs[0]), _resize_attrs(op)), \
        None


def _scale_translate_attrs(op):
    return {"kernel_type": op.attrs["kernel_type"], "antialias": op.attrs["antialias"]}


@register_gradient("ScaleAndTranslate")
def _scale_and_translate_grad(op, dy):
    images, scale, translation = op.inputs[:3]
    if not images.dtype.is_floating:
        return (None,) * len(op.inputs)
    # The gradient op takes float32 images only (TF's fails for others): the others are
    # cast there and back, their gradient computed all the same.
    original = images if images.dtype == _d.float32 else cast_ops.cast(images, _d.float32)
    grad = dispatch(_SCALE_AND_TRANSLATE_GRAD, (dy, original, scale, translation),
                    _scale_translate_attrs(op))
    if images.dtype != _d.float32:
        grad = cast_ops.cast(grad, images.dtype)
    return (grad,) + (None,) * (len(op.inputs) - 1)


@register_gradient("ScaleAndTranslateGrad")
def _scale_and_translate_grad_grad(op, g):
    grads, original, scale, translation = op.inputs
    return (_with_size(_SCALE_AND_TRANSLATE, (g, scale, translation), _spatial_size(grads),
                       _scale_translate_attrs(op)), None, None, None)


batching_rules.assign(PER_ELEMENT, _RESIZE_BILINEAR_GRAD, _RESIZE_BICUBIC_GRAD,
                      _RESIZE_NEAREST_GRAD, _SCALE_AND_TRANSLATE, _SCALE_AND_TRANSLATE_GRAD)


def _resize_batched(op, args):
    """Batching: the batch's images resized as one batch of images (a size that differs by
    element, or images not of rank 4: None)."""
    (images, _), *size = args
    if any(b for _, b in size) or images.ndim != 5:
        return None
    n, b = images.shape[:2]
    out = op.op_def.host_kernel(images.reshape((n * b,) + images.shape[2:]),
                                *(a for a, _ in size), **op.attrs)
    return [out.reshape((n, b) + out.shape[1:])]


batching_rules.assign(_resize_batched, _RESIZE_BILINEAR, _RESIZE_NEAREST, _RESIZE_BICUBIC,
                      _RESIZE_AREA)


# --- SampleDistortedBoundingBox -------------------------------------------------------------
# TF's sampler, step by step in float32 (its rounding decides the boxes): each attempt draws
# an aspect ratio, a height and an offset from one Philox stream, as the words come.

_F32 = np.float32
_BOX_TYPES = (_d.uint8, _d.int8, _d.int16, _d.int32, _d.int64)


def _lrint(x):
    return int(np.rint(x))  # (ties to even, as lrintf)


def _below(words, n):
    """A uniform integer in [0, n) by rejection, as TF's ``ExactUniformInt``."""
    if n & (n - 1) == 0:
        return next(words) & (n - 1)
    least = 0xFFFFFFFF % n + 1  # words below it would bias the remainder
    while True:
        w = next(words)
        if w >= least:
            return w % n


def _random_crop_box(width, height, min_area, max_area, aspect, words):
    """(x0, y0, x1, y1) of a crop of `aspect` covering between `min_area` and `max_area` of
    the image, or None when rounding leaves no such crop."""
    if max_area <= 0 or aspect <= 0 or width <= 0 or height <= 0 or min_area > max_area:
        return None
    low = min_area * _F32(width) * _F32(height)
    high = max_area * _F32(width) * _F32(height)
    h = _lrint(np.sqrt(low / aspect))
    top = _lrint(np.sqrt(high / aspect))
    if _lrint(_F32(top) * aspect) > width:
        top = int((width + 0.5 - float(_F32(1e-7))) / float(aspect))
        if _lrint(_F32(top) * aspect) > width:
            top -= 1
    top = min(top, height)
    h = min(h, top)
    if h < top:
        h += _below(words, top - h + 1)
    w = _lrint(_F32(h) * aspect)
    area = _F32(w * h)
    if area < low:
        h += 1
        w = _lrint(_F32(h) * aspect)
        area = _F32(w * h)
    if area > high:
        h -= 1
        w = _lrint(_F32(h) * aspect)
        area = _F32(w * h)
    if area < low or area > high or w > width or h > height or w <= 0 or h <= 0:
        return None
    y = _below(words, height - h) if h < height else 0
    x = _below(words, width - w) if w < width else 0
    return x, y, x + w, y + h


def _covers(crop, boxes, min_covered):
    """Whether `crop` covers at least `min_covered` of one of `boxes` (of a pixel or more)."""
    x0, y0, x1, y1 = crop
    if _F32((x1 - x0) * (y1 - y0)) < 1:
        return False
    for bx0, by0, bx1, by1 in boxes:
        area = _F32((bx1 - bx0) * (by1 - by0))
        if area < 1:
            continue
        ix0, iy0, ix1, iy1 = max(x0, bx0), max(y0, by0), min(x1, bx1), min(y1, by1)
        inside = 0 if ix0 > ix1 or iy0 > iy1 else (ix1 - ix0) * (iy1 - iy0)
        if _F32(inside) / area >= min_covered:
            return True
    return False


def _check_box_attrs(aspect_ratio_range, area_range, max_attempts):
    if len(aspect_ratio_range) != 2:
        raise _invalid("Aspect ratio range field must specify 2 dimensions")
    if not (aspect_ratio_range[0] > 0 and aspect_ratio_range[1] > 0):
        raise _invalid(f"Aspect ratio range must be non-negative: [{_g(aspect_ratio_range[0])}"
                       f", {_g(aspect_ratio_range[1])}]")
    if len(area_range) != 2:
        raise _invalid("Area range field must specify 2 dimensions")
    if not (area_range[0] > 0 and area_range[1] > 0):
        raise _invalid(f"Area range must be non-negative: [{_g(area_range[0])}, "
                       f"{_g(area_range[1])}]")
    if not (area_range[0] <= 1 and area_range[1] <= 1):
        raise _invalid(f"Area range must be less then or equal to 1.0: [{_g(area_range[0])}, "
                       f"{_g(area_range[1])}]")
    if max_attempts <= 0:
        raise _invalid(f"Max attempts must be non-negative: {max_attempts}")


def _g(value):
    """A float as C++ streams print it (6 significant digits)."""
    return f"{float(_F32(value)):g}"


def _draw_distorted_box(xp, key, counter, image_size, bounding_boxes, min_object_covered, *,
                        aspect_ratio_range, area_range, max_attempts,
                        use_image_if_no_bounding_boxes):
    _check_box_attrs(aspect_ratio_range, area_range, max_attempts)
    if image_size.ndim != 1:
        raise _invalid(f"image_size must be 1-dimensional{shape_text(image_size.shape)}")
    if image_size.shape[0] != 3:
        raise _invalid(f"image_size must contain 3 elements{shape_text(image_size.shape)}")
    height_raw, width_raw = (int(v) & (2**64 - 1) for v in image_size[:2].tolist())
    if height_raw >= 2**31 - 1:
        raise _invalid("image height cannot be >= int32 max")
    if width_raw >= 2**31 - 1:
        raise _invalid("image width cannot be >= int32 max")
    height, width = height_raw, width_raw
    if bounding_boxes.ndim != 3:
        raise _invalid(f"input boxes must be 3-dimensional [batch, num_boxes, coords]: "
                       f"{shape_text(bounding_boxes.shape)}")
    if bounding_boxes.shape[-1] != 4:
        raise _invalid(f"bounding boxes must have shape [4] or [*, 4], got "
                       f"{shape_text(bounding_boxes.shape)}")
    if min_object_covered.ndim != 0:
        raise _invalid(f"min_object_covered must be 0-D, got shape "
                       f"{shape_text(min_object_covered.shape)}")
    min_covered = _F32(min_object_covered)
    if not min_covered >= 0:
        raise _invalid(f"Min object covered must be non-negative: {_g(min_covered)}")
    boxes = []
    for ymin, xmin, ymax, xmax in bounding_boxes.astype(_F32).reshape(-1, 4).tolist():
        for v in (ymin, xmin, ymax, xmax):
            if not 0.0 <= v <= 1.0:
                raise _invalid(f"All bounding box coordinates must be in [0.0, 1.0]: {_g(v)}")
        boxes.append(tuple(int(_F32(v) * _F32(n)) for v, n in (
            (xmin, width), (ymin, height), (xmax, width), (ymax, height))))
    image = (0, 0, width, height)
    if not boxes:
        if not use_image_if_no_bounding_boxes:
            raise _invalid("No bounding boxes provided as input. One must enable "
                           "use_image_if_no_bounding_boxes if you wish to not provide any "
                           "bounding boxes.")
        boxes.append(image)
    low, high = (_F32(a) for a in area_range)
    ratio_low, ratio_high = (_F32(a) for a in aspect_ratio_range)
    words = philox.word_stream(key, counter)
    crop = None
    for _ in range(max_attempts):
        aspect = philox.next_float(words) * (ratio_high - ratio_low) + ratio_low
        found = _random_crop_box(width, height, low, high, aspect, words)
        if found is not None and _covers(found, boxes, min_covered):
            crop = found
            break
    x0, y0, x1, y1 = crop or image
    dtype = image_size.dtype
    with np.errstate(divide="ignore", invalid="ignore"):  # (an empty image: TF's inf, nan)
        box = np.array([y0, x0, y1, x1], _F32) / np.array([height, width] * 2, _F32)
    return (np.array([y0, x0, 0]).astype(dtype),  # (-1 wraps in unsigned types, as in TF)
            np.array([y1 - y0, x1 - x0, -1]).astype(dtype),
            box.reshape(1, 1, 4))


def _distorted_box_rule(image_size, bounding_boxes, min_object_covered, *_, **__):
    op_name = "SampleDistortedBoundingBoxV2"
    inputs = [image_size, bounding_boxes, min_object_covered]
    rules.check_rank(op_name, inputs, 0, rank=1)
    rules.check_rank(op_name, inputs, 1, rank=3)
    rules.check_rank(op_name, inputs, 2, rank=0)
    return [(TensorShape([3]), image_size.dtype), (TensorShape([3]), image_size.dtype),
            (TensorShape([1, 1, 4]), _d.float32)]


_DISTORTED_BOX = random_ops._register(
    _draw_distorted_box, _distorted_box_rule, lambda shapes, attrs: attrs["max_attempts"],
    "SampleDistortedBoundingBoxV2", "StatelessSampleDistortedBoundingBox", run_time_attr=None,
    not_differentiable="random", multi=True, tied=(0,), dtypes=_BOX_TYPES)
_BOX_DEFAULTS = {"aspect_ratio_range": (0.75, 1.33), "area_range": (0.05, 1.0),
                 "max_attempts": 100, "use_image_if_no_bounding_boxes": False}
tf_nodes[_DISTORTED_BOX[0]] = NodeForm(local={"stream": random_ops._OpState},
                                        defaults={"seed": 0, "seed2": 0, **_BOX_DEFAULTS})
tf_nodes[_DISTORTED_BOX[1]] = NodeForm(types={"T": 0, "Tseed": 3}, defaults=_BOX_DEFAULTS)
tf_args[_DISTORTED_BOX[0]] = ("image_size", "bounding_boxes", "min_object_covered")
tf_args[_DISTORTED_BOX[1]] = ("image_size", "bounding_boxes", "min_object_covered", "seed")
for _op in _DISTORTED_BOX:
    tf_nodes.get(_op).outputs = ("begin", "size", "bboxes")


def _box_attrs(aspect_ratio_range, area_range, max_attempts, use_image_if_no_bounding_boxes):
    attrs = {"aspect_ratio_range": (0.75, 1.33) if aspect_ratio_range is None
             else tuple(float(v) for v in aspect_ratio_range),
             "area_range": (0.05, 1.0) if area_range is None
             else tuple(float(v) for v in area_range),
             "max_attempts": 100 if max_attempts is None else int(max_attempts),
             "use_image_if_no_bounding_boxes": bool(use_image_if_no_bounding_boxes)}
    return attrs


# The named results TF's ops give (printed with these names).
SampleDistortedBoundingBoxV2 = collections.namedtuple(
    "SampleDistortedBoundingBoxV2", ["begin", "size", "bboxes"])
StatelessSampleDistortedBoundingBox = collections.namedtuple(
    "StatelessSampleDistortedBoundingBox", ["begin", "size", "bboxes"])


def _box_inputs(image_size, bounding_boxes, min_object_covered):
    return (as_tensor(image_size), convert_to_tensor(bounding_boxes, _d.float32),
            convert_to_tensor(min_object_covered, _d.float32))


@export("image.sample_distorted_bounding_box")
def sample_distorted_bounding_box(image_size, bounding_boxes, seed=0, min_object_covered=0.1,
                                  aspect_ratio_range=None, area_range=None, max_attempts=None,
                                  use_image_if_no_bounding_boxes=None, name=None):
    """A random crop of an image of `image_size` ([height, width, channels]) covering at
    least `min_object_covered` of one of `bounding_boxes` ([batch, n, 4], relative
    ``[ymin, xmin, ymax, xmax]``): ``(begin, size, box)`` for ``tf.slice`` and
    ``draw_bounding_boxes``.  A `seed` of 0 leaves the op unseeded, as in TF.

    >>> begin, size, box = tf.image.sample_distorted_bounding_box(
    ...     [40, 50, 3], [[[0.1, 0.2, 0.5, 0.9]]], seed=3, min_object_covered=0.3)
    >>> size.shape, box.shape
    (TensorShape([3]), TensorShape([1, 1, 4]))
    """
    if seed:
        seeds = random_ops._seed_attrs(seed)
    else:
        if config._settings["op_determinism"]:
            raise ValueError(
                f"tf.image.sample_distorted_bounding_box requires a non-zero seed to be passed "
                f"in when determinism is enabled, but got seed={seed}. Please pass in a "
                f"non-zero seed, e.g. by passing \"seed=1\".")
        seeds = random_ops._seed_attrs_unseeded()
    return SampleDistortedBoundingBoxV2(*random_ops._run(
        _DISTORTED_BOX, _box_inputs(image_size, bounding_boxes, min_object_covered),
        _box_attrs(aspect_ratio_range, area_range, max_attempts,
                   use_image_if_no_bounding_boxes), seeds, name))


@export("compat.v1.image.sample_distorted_bounding_box")
def sample_distorted_bounding_box_v1(image_size, bounding_boxes, seed=None, seed2=None,
                                     min_object_covered=0.1, aspect_ratio_range=None,
                                     area_range=None, max_attempts=None,
                                     use_image_if_no_bounding_boxes=None, name=None):
    """TF 1's `sample_distorted_bounding_box`: `seed` and `seed2` are the op's seed pair as
    given (both 0 or None: unseeded)."""
    if not seed and not seed2:
        if config._settings["op_determinism"]:
            raise ValueError(
                f"tf.compat.v1.image.sample_distorted_bounding_box requires \"seed\" or "
                f"\"seed2\" to be non-zero when determinism is enabled. Please pass in a "
                f"non-zero seed, e.g. by passing \"seed=1\". Got seed={seed} and "
                f"seed2={seed2}")
        seeds = random_ops._seed_attrs_unseeded()
    elif context.get().graph is not None:
        seeds = {"seed": int(seed or 0), "seed2": int(seed2 or 0),
                 "stream": random_ops._OpState()}
    else:
        seeds = {"seed": int(seed or 0), "seed2": int(seed2 or 0), "stream": None}
    return SampleDistortedBoundingBoxV2(*random_ops._run(
        _DISTORTED_BOX, _box_inputs(image_size, bounding_boxes, min_object_covered),
        _box_attrs(aspect_ratio_range, area_range, max_attempts,
                   use_image_if_no_bounding_boxes), seeds, name))


@export("image.stateless_sample_distorted_bounding_box")
def stateless_sample_distorted_bounding_box(image_size, bounding_boxes, seed,
                                            min_object_covered=0.1, aspect_ratio_range=None,
                                            area_range=None, max_attempts=None,
                                            use_image_if_no_bounding_boxes=None, name=None):
    """`sample_distorted_bounding_box` determined by `seed` (shape [2]).

    >>> begin, size, box = tf.image.stateless_sample_distorted_bounding_box(
    ...     [40, 50, 3], [[[0.1, 0.2, 0.5, 0.9]]], seed=[1, 2], min_object_covered=0.3)
    >>> begin.numpy(), size.numpy()
    (array([12,  3,  0], dtype=int32), array([26, 32, -1], dtype=int32))
    """
    seed = random_ops._seed_input(seed, "StatelessSampleDistortedBoundingBox")
    return StatelessSampleDistortedBoundingBox(*random_ops._run(
        _DISTORTED_BOX, _box_inputs(image_size, bounding_boxes, min_object_covered),
        _box_attrs(aspect_ratio_range, area_range, max_attempts,
                   use_image_if_no_bounding_boxes), seed, name))


# --- ExtractGlimpse ----------------------------------------------------------------------------

_NOISES = ("uniform", "gaussian", "zero")


def _glimpse_noise(uniform_noise, noise):
    if uniform_noise and noise not in ("", "uniform"):
        raise _invalid("The uniform_noise and noise should not be specified at the same time")
    if not noise:
        return "uniform" if uniform_noise else "gaussian"
    if noise not in _NOISES:
        raise _invalid(f"The noise could only be uniform, gaussian, or zero, got{noise}")
    return noise


def _glimpse_kernel(version):
    def kernel(xp, images, size, offsets, *, centered=True, normalized=True,
               uniform_noise=True, noise="uniform"):
        mode = _glimpse_noise(uniform_noise, noise)
        if images.ndim != 4:
            raise _invalid(f"input must be 4-dimensional (batch_size, height, width, depth)"
                           f"{shape_text(images.shape)}")
        if size.ndim != 1 or size.size != 2:
            raise _invalid(f"input must be a vector of size 2 (height, width)"
                           f"{shape_text(size.shape)}")
        height, width = (int(v) for v in size.tolist())
        for v in (height, width):
            if v < 0:
                raise _invalid(f"Expected a non-negative size, got {v}")
        if offsets.ndim != 2:
            raise _invalid(f"input must be a matrix{shape_text(offsets.shape)}")
        if offsets.shape[0] != images.shape[0]:
            raise _invalid(f"first dimension should be batch{shape_text(offsets.shape)}")
        if offsets.shape[1] != 2:
            raise _invalid(f"second dimension should be of size 2 (y,x)"
                           f"{shape_text(offsets.shape)}")
        batch, in_h, in_w, depth = images.shape
        out = np.empty((batch, height, width, depth), np.float32)
        for i, (y, x) in enumerate(offsets.astype(_F32).tolist()):
            top, left = _glimpse_corner(_F32(y), _F32(x), in_h, in_w, height, width, version,
                                        centered, normalized)
            image = images[i]
            (src_y, dst_y, n_y), part_y = _glimpse_span(top, height, in_h)
            (src_x, dst_x, n_x), part_x = _glimpse_span(left, width, in_w)
            if part_y or part_x:
                out[i] = _glimpse_fill(image, (height, width, depth), mode)
                if n_y == 0 or n_x == 0:
                    continue
            out[i, dst_y:dst_y + n_y, dst_x:dst_x + n_x] = \
                image[src_y:src_y + n_y, src_x:src_x + n_x]
        return out
    return kernel


def _glimpse_corner(y, x, in_h, in_w, height, width, version, centered, normalized):
    """The glimpse's top-left pixel, in float32 as TF's kernel computes it, truncated."""
    half = version == 1 or normalized and centered  # (V2 moves by half a glimpse only then)
    if normalized:
        x, y = x * _F32(in_w), y * _F32(in_h)
    if centered:
        if normalized or version == 1:  # (TF 1 halves an offset in pixels too)
            x, y = x / _F32(2), y / _F32(2)
        x, y = x + _F32(in_w) / _F32(2), y + _F32(in_h) / _F32(2)
    if half:
        x, y = x - _F32(width) / _F32(2), y - _F32(height) / _F32(2)
    return int(y), int(x)  # (toward zero, as C's cast)


def _glimpse_span(start, size, extent):
    """(source start, destination start, length) of the glimpse's pixels inside the image
    along one axis, and whether the glimpse only partly covers the image there."""
    if start < 0:
        n = max(0, size + start)
        return (0, size - n, min(extent, n)), True
    if start + size >= extent:
        n = max(0, extent - start)
        return (start, 0, min(extent, n)), True
    return (start, 0, min(extent, size)), False


def _glimpse_fill(image, shape, mode):
    """What fills the part of a glimpse off the image: zeros, or noise spanning the image's
    values (uniform) or shaped by each channel's mean and deviation (gaussian)."""
    if mode == "zero":
        return np.zeros(shape, np.float32)
    rng = np.random.default_rng()
    image = image.astype(np.float32)
    if mode == "uniform":
        low = image.min()
        return low + rng.random(shape, np.float32) * (image.max() - low)
    mean, sigma = image.mean(axis=(0, 1)), image.std(axis=(0, 1))
    noise = mean + rng.standard_normal(shape, np.float32) * sigma
    return np.clip(noise, image.min(axis=(0, 1)), image.max(axis=(0, 1)))


def _glimpse_rule(images, size, offsets, **_):
    op_name = "ExtractGlimpseV2"
    rules.check_rank(op_name, [images, size, offsets], 0, rank=4)
    rules.check_rank(op_name, [images, size, offsets], 1, rank=1)
    rules.check_rank(op_name, [images, size, offsets], 2, rank=2)
    dims = rules.known_elements(size) or [None, None]
    if len(dims) != 2:
        raise rules.shape_error(op_name, f"Dimension must be 2 but is {len(dims)}",
                                [images.shape, size.shape, offsets.shape])
    known = images.shape.rank is not None
    batch = images.shape[0] if known else None
    if batch is None and offsets.shape.rank is not None:
        batch = offsets.shape[0]
    return TensorShape([batch, *dims, images.shape[3] if known else None]), _d.float32


_GLIMPSE_V1 = register("ExtractGlimpse", _glimpse_kernel(1), _glimpse_rule, tied=(),
                       dtypes=(_d.float32,), not_differentiable=None)
_GLIMPSE = register("ExtractGlimpseV2", _glimpse_kernel(2), _glimpse_rule, tied=(),
                    dtypes=(_d.float32,), not_differentiable=None)
for _name in ("ExtractGlimpse", "ExtractGlimpseV2"):
    register_gradient(_name)(lambda op, dy: _no_glimpse_gradient(op))
batching_rules.assign(PER_ELEMENT, _GLIMPSE_V1, _GLIMPSE)
tf_args.assign(("input", "size", "offsets"), _GLIMPSE_V1, _GLIMPSE)
_GLIMPSE_DEFAULTS = {"centered": True, "normalized": True, "uniform_noise": True,
                     "noise": "uniform"}
for _op in (_GLIMPSE_V1, _GLIMPSE):
    tf_nodes[_op] = NodeForm(types={"T": 0}, defaults=_GLIMPSE_DEFAULTS, outputs=("glimpse",))


def _no_glimpse_gradient(op):  # (and ResizeArea's, DrawBoundingBoxesV2's)
    raise LookupError(f"gradient registry has no entry for: {op.type}")


def _glimpse(op_def, input, size, offsets, attrs, name):
    size = convert_to_tensor(size, _d.int32)
    return dispatch(op_def, (convert_to_tensor(input, _d.float32), size,
                             convert_to_tensor(offsets, _d.float32)), attrs, name)


@export("image.extract_glimpse")
def extract_glimpse(input, size, offsets, centered=True, normalized=True,  # noqa: A002
                    noise="uniform", name=None):
    """Windows of `size` ([height, width]) of a batch of images at `offsets` ([batch, 2],
    (y, x): centered on the image and normalized to [-1, 1] by default, else from the
    top-left corner and in pixels); parts off the image are filled with `noise`
    (``"uniform"``, ``"gaussian"`` or ``"zero"``).

    >>> x = tf.reshape(tf.range(25.0), [1, 5, 5, 1])
    >>> tf.image.extract_glimpse(x, [2, 2], [[0.0, 0.0]])[0, ..., 0].numpy()
    array([[ 6.,  7.],
           [11., 12.]], dtype=float32)
    """
    return _glimpse(_GLIMPSE, input, size, offsets, {
        "centered": bool(centered), "normalized": bool(normalized), "uniform_noise": False,
        "noise": noise}, name)


@export("compat.v1.image.extract_glimpse")
def extract_glimpse_v1(input, size, offsets, centered=True, normalized=True,  # noqa: A002
                       uniform_noise=True, name=None):
    """TF 1's `extract_glimpse` (op ExtractGlimpse): the window always moves by half its
    size from the offset, and noise is uniform or gaussian per `uniform_noise`."""
    return _glimpse(_GLIMPSE_V1, input, size, offsets, {
        "centered": bool(centered), "normalized": bool(normalized),
        "uniform_noise": bool(uniform_noise), "noise": "uniform"}, name)


# --- ExtractImagePatches ----------------------------------------------------------------------

def _patch_geometry(size, k, stride, rate, padding):
    """(output size, padding before) of one spatial axis."""
    effective = k + (k - 1) * (rate - 1)
    if padding == "VALID":
        return max(-(-(size - effective + 1) // stride), 0), 0
    out = -(-size // stride)
    return out, max((out - 1) * stride + effective - size, 0) // 2


def _extract_patches(xp, images, ksizes, strides, rates, padding):
    if images.ndim != 4:
        raise _invalid(f"input must be 4-dimensional{shape_text(images.shape)}")
    n, h, w, c = images.shape
    (_, kh, kw, _), (_, sh, sw, _), (_, rh, rw, _) = ksizes, strides, rates
    oh, top = _patch_geometry(h, kh, sh, rh, padding)
    ow, left = _patch_geometry(w, kw, sw, rw, padding)
    rows = (np.arange(oh) * sh - top)[:, None] + np.arange(kh) * rh  # (oh, kh)
    cols = (np.arange(ow) * sw - left)[:, None] + np.arange(kw) * rw  # (ow, kw)
    padded = xp.zeros((n, h + 1, w + 1, c), images.dtype)  # index -1 reads the zero row
    padded[:, :h, :w] = images
    rows, cols = np.where((rows >= 0) & (rows < h), rows, -1), \
        np.where((cols >= 0) & (cols < w), cols, -1)
    out = padded[:, rows[:, None, :, None], cols[None, :, None, :]]  # (n, oh, ow, kh, kw, c)
    return xp.ascontiguousarray(out).reshape(n, oh, ow, kh * kw * c)


def _extract_patches_rule(images, ksizes, strides, rates, padding):
    rules.check_rank("ExtractImagePatches", [images], 0, rank=4)
    if images.shape.rank is None:
        return TensorShape([None] * 4), images.dtype
    n, h, w, c = images.shape.as_list()
    (_, kh, kw, _), (_, sh, sw, _), (_, rh, rw, _) = ksizes, strides, rates
    oh = None if h is None else _patch_geometry(h, kh, sh, rh, padding)[0]
    ow = None if w is None else _patch_geometry(w, kw, sw, rw, padding)[0]
    return TensorShape([n, oh, ow, None if c is None else kh * kw * c]), images.dtype


_EXTRACT_PATCHES = register("ExtractImagePatches", _extract_patches, _extract_patches_rule)
tf_nodes[_EXTRACT_PATCHES] = NodeForm(outputs=("patches",))
tf_args[_EXTRACT_PATCHES] = ("images",)


@register_gradient("ExtractImagePatches")
def _extract_patches_grad(op, dy):
    # Patches of each channel alone are a convolution with one-hot filters (one per kernel
    # position), so the gradient is that convolution's input gradient, channels as batch.
    x = op.inputs[0]
    _, kh, kw, _ = op.attrs["ksizes"]
    n, h, w, c = (array_ops.known_shape(x)[i] for i in range(4))
    _, oh, ow, _ = (array_ops.known_shape(dy)[i] for i in range(4))
    filters = as_tensor(np.eye(kh * kw).reshape(kh, kw, 1, kh * kw).astype(
        dy.dtype.as_numpy_dtype))
    g = array_ops.reshape(dy, array_ops.stack([n, oh, ow, kh * kw, c]) if _dynamic(n, oh, ow, c)
                          else [n, oh, ow, kh * kw, c])
    g = array_ops.transpose(g, [0, 4, 1, 2, 3])
    g = array_ops.reshape(g, _pack([n * c, oh, ow, kh * kw]))
    dx = conv_ops.conv2d_backprop_input(_pack([n * c, h, w, 1]), filters, g,
                                        list(op.attrs["strides"]), op.attrs["padding"],
                                        dilations=list(op.attrs["rates"]))
    return array_ops.transpose(array_ops.reshape(dx, _pack([n, c, h, w])), [0, 2, 3, 1])


def _dynamic(*values):
    return any(isinstance(v, Tensor) for v in values)


def _pack(values):
    """A shape of ints, or of ints and scalar tensors (stacked into one tensor)."""
    return array_ops.stack(values) if _dynamic(*values) else list(values)


def _patch_attr(value, name):
    value = [int(v) for v in value]
    if len(value) < 4:
        raise errors.InvalidArgumentError(
            None, "ExtractImagePatches", f"Length for attr '{name}' of {len(value)} must be at "
            f"least minimum 4\n\t; NodeDef: {{{{node ExtractImagePatches}}}}")
    return tuple(value)


@export("image.extract_patches")
def extract_patches(images, sizes, strides, rates, padding, name=None):
    """The patches of `sizes` (``[1, rows, cols, 1]``) of 4-D `images`, `strides` apart and
    spread by `rates`, each flattened into the depth of the output.

    >>> tf.image.extract_patches(tf.reshape(tf.range(16), [1, 4, 4, 1]), [1, 2, 2, 1],
    ...                          [1, 2, 2, 1], [1, 1, 1, 1], "VALID")[0, 0].numpy()
    array([[0, 1, 4, 5],
           [2, 3, 6, 7]], dtype=int32)
    """
    images = as_tensor(images)
    if padding not in ("SAME", "VALID"):
        raise errors.InvalidArgumentError(
            None, "ExtractImagePatches", f"Value for attr 'padding' of \"{padding}\" is not in "
            f"the list of allowed values: \"SAME\", \"VALID\"\n\t; NodeDef: "
            f"{{{{node ExtractImagePatches}}}}")
    attrs = {"ksizes": _patch_attr(sizes, "ksizes"), "strides": _patch_attr(strides, "strides"),
             "rates": _patch_attr(rates, "rates"), "padding": padding}
    for attr in ("ksizes", "strides", "rates"):
        value = attrs[attr]
        if value[0] != 1 or value[3] != 1:
            what = {"ksizes": "ksizes", "strides": "strides", "rates": "rates"}[attr]
            raise errors.eager_error(errors.UnimplementedError, "ExtractImagePatches",
                                     f"Only support {what} across space.")
    return dispatch(_EXTRACT_PATCHES, (images,), attrs, name)


# --- ExtractVolumePatches ---------------------------------------------------------------------

def _extract_volume_patches(xp, input, ksizes, strides, padding):
    if input.ndim != 5:
        raise errors.op_error(errors.InvalidArgumentError, "ExtractVolumePatches",
                              f"input must be 5-dimensional{shape_text(input.shape)}")
    n, *sizes, c = input.shape
    kernel, step = ksizes[1:4], strides[1:4]
    geometry = [_patch_geometry(size, k, s, 1, padding)
                for size, k, s in zip(sizes, kernel, step)]
    padded = np.zeros([n] + [size + 1 for size in sizes] + [c], input.dtype)
    padded[:, :sizes[0], :sizes[1], :sizes[2]] = input  # (index -1 reads the zero plane)
    index = []
    for (out, before), size, k, s in zip(geometry, sizes, kernel, step):
        at = (np.arange(out) * s - before)[:, None] + np.arange(k)  # (out, k)
        index.append(np.where((at >= 0) & (at < size), at, -1))
    d, h, w = index
    # (n, od, oh, ow, kd, kh, kw, c), patch values in depth, row, column, channel order
    patches = padded[:, d[:, None, None, :, None, None], h[None, :, None, None, :, None],
                     w[None, None, :, None, None, :]]
    outs = [g[0] for g in geometry]
    return np.ascontiguousarray(patches).reshape(n, *outs, int(np.prod(kernel)) * c)


def _extract_volume_patches_rule(input, ksizes, strides, padding):
    rules.check_rank("ExtractVolumePatches", [input], 0, rank=5)
    if input.shape.rank is None:
        return TensorShape([None] * 5), input.dtype
    n, *sizes, c = input.shape.as_list()
    outs = [None if size is None else _patch_geometry(size, k, s, 1, padding)[0]
            for size, k, s in zip(sizes, ksizes[1:4], strides[1:4])]
    depth = None if c is None else int(np.prod(ksizes[1:4])) * c
    return TensorShape([n, *outs, depth]), input.dtype


_EXTRACT_VOLUME_PATCHES = register("ExtractVolumePatches", _extract_volume_patches,
                                   _extract_volume_patches_rule)
tf_nodes[_EXTRACT_VOLUME_PATCHES] = NodeForm(outputs=("patches",))
tf_args[_EXTRACT_VOLUME_PATCHES] = ("input",)


@register_gradient("ExtractVolumePatches")
def _extract_volume_patches_grad(op, dy):
    # As for image patches: per channel, the patches are a 3-D convolution with one-hot
    # filters (one per kernel position), whose input gradient the gradient is.
    x = op.inputs[0]
    kd, kh, kw = op.attrs["ksizes"][1:4]
    k = kd * kh * kw
    n, d, h, w, c = (array_ops.known_shape(x)[i] for i in range(5))
    _, od, oh, ow, _ = (array_ops.known_shape(dy)[i] for i in range(5))
    filters = as_tensor(np.eye(k).reshape(kd, kh, kw, 1, k).astype(dy.dtype.as_numpy_dtype))
    g = array_ops.reshape(dy, _pack([n, od, oh, ow, k, c]))
    g = array_ops.reshape(array_ops.transpose(g, [0, 5, 1, 2, 3, 4]),
                          _pack([n * c, od, oh, ow, k]))
    dx = conv_ops.conv3d_transpose(g, filters, _pack([n * c, d, h, w, 1]),
                                   list(op.attrs["strides"]), op.attrs["padding"])
    return array_ops.transpose(array_ops.reshape(dx, _pack([n, c, d, h, w])), [0, 2, 3, 4, 1])


@export("extract_volume_patches")
def extract_volume_patches(input, ksizes, strides, padding, name=None):  # noqa: A002
    """The patches of `ksizes` (``[1, depth, rows, cols, 1]``) of 5-D `input`, `strides`
    apart, each flattened into the depth of the output.

    >>> tf.extract_volume_patches(tf.ones([1, 3, 3, 3, 1]), [1, 2, 2, 2, 1],
    ...                           [1, 1, 1, 1, 1], "VALID").shape
    TensorShape([1, 2, 2, 2, 8])
    """
    input = as_tensor(input)
    if padding not in ("SAME", "VALID"):
        raise errors.InvalidArgumentError(
            None, "ExtractVolumePatches", f"Value for attr 'padding' of \"{padding}\" is not "
            f"in the list of allowed values: \"SAME\", \"VALID\"\n\t; NodeDef: "
            f"{{{{node ExtractVolumePatches}}}}")
    attrs = {"ksizes": tuple(int(v) for v in ksizes), "strides": tuple(int(v) for v in strides),
             "padding": padding}
    for attr in ("ksizes", "strides"):
        value = attrs[attr]
        if len(value) != 5:
            raise errors.InvalidArgumentError(
                None, "ExtractVolumePatches", f"Length for attr '{attr}' of {len(value)} must "
                f"be at least minimum 5\n\t; NodeDef: {{{{node ExtractVolumePatches}}}}")
        if value[0] != 1 or value[4] != 1:
            raise errors.eager_error(errors.UnimplementedError, "ExtractVolumePatches",
                                     f"Only support {attr} across space.")
    return dispatch(_EXTRACT_VOLUME_PATCHES, (input,), attrs, name)


# --- CropAndResize ----------------------------------------------------------------------------

def _box_sources(boxes, crop, size):
    """Input coordinates (n_boxes, crop) along one axis, and whether each is inside."""
    y1, y2 = boxes[:, 0:1].astype(np.float32), boxes[:, 1:2].astype(np.float32)
    i = np.arange(crop, dtype=np.float32)
    if crop > 1:
        x = y1 * np.float32(size - 1) + i * ((y2 - y1) * (np.float32(size - 1) / (crop - 1)))
    else:
        x = np.broadcast_to(np.float32(0.5) * (y1 + y2) * np.float32(size - 1), (len(boxes), 1))
    return x, (x >= 0) & (x <= size - 1)


def _check_boxes(image, boxes, box_index, crop_size):
    """TF's checks of CropAndResize's inputs, in its order (`crop_size` an array)."""
    if image.ndim != 4:
        raise _invalid(f"input image must be 4-D{shape_text(image.shape)}")
    if image.shape[1] <= 0 or image.shape[2] <= 0:
        raise _invalid("image dimensions must be positive")
    if boxes.ndim != 2:
        raise _invalid(f"boxes must be 2-D, got: {shape_text(boxes.shape)}")
    if box_index.ndim != 1:
        raise _invalid(f"box_indices must be rank 1 but is shape {shape_text(box_index.shape)}")
    if boxes.size or box_index.size:  # (no boxes at all: their columns are not checked)
        if boxes.shape[1] != 4:
            raise _invalid("boxes must have 4 columns")
        if box_index.shape[0] != boxes.shape[0]:
            raise _invalid("box_index has incompatible shape")
    if crop_size.ndim != 1:
        raise _invalid(f"crop_size must be 1-D{shape_text(crop_size.shape)}")
    if crop_size.shape[0] != 2:
        raise _invalid(f"crop_size must have two elements{shape_text(crop_size.shape)}")
    if crop_size[0] <= 0 or crop_size[1] <= 0:
        raise _invalid("crop dimensions must be positive")
    if ((box_index < 0) | (box_index >= image.shape[0])).any():
        raise errors.OutOfRangeError(None, None, "box_index has values outside [0, batch_size)")
    if not np.isfinite(boxes).all():
        raise _invalid("Boxes contains at least one element that is not finite")


def _crop_and_resize(xp, image, boxes, box_index, *runtime, crop_size=None, method="bilinear",
                     extrapolation_value=0.0):
    _check_boxes(image, boxes, box_index, np.asarray(runtime[0] if runtime else crop_size))
    _, h, w, _ = image.shape
    ch, cw = _size_value(runtime, crop_size)
    if not boxes.size:
        return xp.zeros((0, ch, cw, image.shape[3]), np.float32)
    ys, y_in = _box_sources(boxes[:, [0, 2]], ch, h)
    xs, x_in = _box_sources(boxes[:, [1, 3]], cw, w)
    x = image.astype(np.float32, copy=False)
    b = box_index.astype(np.int64)[:, None, None]
    if method == "nearest":
        yi = np.clip(_round_half_away(ys), 0, h - 1).astype(np.int64)[:, :, None]
        xi = np.clip(_round_half_away(xs), 0, w - 1).astype(np.int64)[:, None, :]
        out = x[b, yi, xi]
    else:
        def parts(v, size):
            lo = np.floor(v)
            return (np.clip(lo, 0, size - 1).astype(np.int64),
                    np.clip(np.ceil(v), 0, size - 1).astype(np.int64), (v - lo)[..., None])
        top, bottom, ly = parts(ys, h)
        left, right, lx = parts(xs, w)
        top, bottom, ly = top[:, :, None], bottom[:, :, None], ly[:, :, None]
        left, right, lx = left[:, None, :], right[:, None, :], lx[:, None, :]
        upper = x[b, top, left] + (x[b, top, right] - x[b, top, left]) * lx
        lower = x[b, bottom, left] + (x[b, bottom, right] - x[b, bottom, left]) * lx
        out = upper + (lower - upper) * ly
    inside = (y_in[:, :, None] & x_in[:, None, :])[..., None]
    return xp.where(inside, out, np.float32(extrapolation_value)).astype(np.float32)


def _crop_and_resize_rule(image, boxes, box_index, *runtime, crop_size=None, **_):
    size = runtime[0] if runtime else crop_size
    dims = list(size) if isinstance(size, tuple) else (rules.known_elements(size) or [None] * 2)
    if len(dims) != 2:  # (the kernel raises TF's error)
        dims = [None] * 2
    channels = image.shape[3] if image.shape.rank is not None else None
    n = boxes.shape[0] if boxes.shape.rank is not None else None
    return TensorShape([n, *dims, channels]), _d.float32


_CROP_AND_RESIZE = register("CropAndResize", _crop_and_resize, _crop_and_resize_rule, tied=(0,),
                            dtypes=(_d.uint8, _d.uint16, _d.int8, _d.int16, _d.int32, _d.int64,
                                    _d.float16, _d.float32, _d.float64, _d.bfloat16))
tf_nodes[_CROP_AND_RESIZE] = NodeForm(
    inputs=(0, 1, 2, AttrInput("crop_size", type_attr=None, runtime=True)),
    outputs=("crops",))
tf_args[_CROP_AND_RESIZE] = ("image", "boxes", "box_ind", "crop_size")
tf_defaults[_CROP_AND_RESIZE] = {"method": "bilinear", "extrapolation_value": 0.0}


def _crop_grad_geometry(grads, boxes, h, w):
    _, ch, cw, _ = grads.shape
    ys, y_in = _box_sources(boxes[:, [0, 2]], ch, h)
    xs, x_in = _box_sources(boxes[:, [1, 3]], cw, w)
    return ys, y_in, xs, x_in


def _crop_and_resize_grad_image(xp, grads, boxes, box_index, *runtime, image_size=None,
                                method="bilinear", T=None):
    n, h, w, c = _size_value(runtime, image_size)
    g = grads.astype(np.float64)
    ys, y_in, xs, x_in = _crop_grad_geometry(grads, boxes, h, w)
    g = g * (y_in[:, :, None] & x_in[:, None, :])[..., None]
    out = np.zeros((n, h, w, c), np.float64)
    b = box_index.astype(np.int64)[:, None, None]
    if method == "nearest":
        yi = np.clip(_round_half_away(ys), 0, h - 1).astype(np.int64)[:, :, None]
        xi = np.clip(_round_half_away(xs), 0, w - 1).astype(np.int64)[:, None, :]
        np.add.at(out, (b, yi, xi), g)
    else:
        ly, lx = (ys - np.floor(ys))[:, :, None, None], (xs - np.floor(xs))[:, None, :, None]
        top = np.clip(np.floor(ys), 0, h - 1).astype(np.int64)[:, :, None]
        bottom = np.clip(np.ceil(ys), 0, h - 1).astype(np.int64)[:, :, None]
        left = np.clip(np.floor(xs), 0, w - 1).astype(np.int64)[:, None, :]
        right = np.clip(np.ceil(xs), 0, w - 1).astype(np.int64)[:, None, :]
        np.add.at(out, (b, top, left), g * (1 - ly) * (1 - lx))
        np.add.at(out, (b, top, right), g * (1 - ly) * lx)
        np.add.at(out, (b, bottom, left), g * ly * (1 - lx))
        np.add.at(out, (b, bottom, right), g * ly * lx)
    return xp.asarray(out.astype(_d.as_dtype(T).as_numpy_dtype))


def _crop_and_resize_grad_image_rule(grads, boxes, box_index, *runtime, image_size=None, T=None,
                                     **_):
    size = runtime[0] if runtime else image_size
    dims = list(size) if isinstance(size, tuple) else (rules.known_elements(size) or [None] * 4)
    return TensorShape(dims), _d.as_dtype(T)


_CROP_AND_RESIZE_GRAD_IMAGE = register(
    "CropAndResizeGradImage", _crop_and_resize_grad_image, _crop_and_resize_grad_image_rule,
    tied=(0,), dtypes=(_d.float32,))
tf_nodes[_CROP_AND_RESIZE_GRAD_IMAGE] = NodeForm(
    inputs=(0, 1, 2, AttrInput("image_size", type_attr=None, runtime=True)), types={},
    outputs=("output",))
tf_args[_CROP_AND_RESIZE_GRAD_IMAGE] = ("grads", "boxes", "box_ind", "image_size")


def _crop_and_resize_grad_boxes(xp, grads, image, boxes, box_index, method="bilinear"):
    _, h, w, _ = image.shape
    ch, cw = grads.shape[1:3]
    ys, y_in, xs, x_in = _crop_grad_geometry(grads, boxes, h, w)
    x = image.astype(np.float64)
    b = box_index.astype(np.int64)[:, None, None]
    top = np.clip(np.floor(ys), 0, h - 1).astype(np.int64)[:, :, None]
    bottom = np.clip(np.ceil(ys), 0, h - 1).astype(np.int64)[:, :, None]
    left = np.clip(np.floor(xs), 0, w - 1).astype(np.int64)[:, None, :]
    right = np.clip(np.ceil(xs), 0, w - 1).astype(np.int64)[:, None, :]
    ly, lx = (ys - np.floor(ys))[:, :, None, None], (xs - np.floor(xs))[:, None, :, None]
    tl, tr, bl, br = x[b, top, left], x[b, top, right], x[b, bottom, left], x[b, bottom, right]
    g = grads.astype(np.float64) * (y_in[:, :, None] & x_in[:, None, :])[..., None]
    grad_y = (g * ((1 - lx) * (bl - tl) + lx * (br - tr))).sum(-1)  # (boxes, ch, cw)
    grad_x = (g * ((1 - ly) * (tr - tl) + ly * (br - bl))).sum(-1)
    out = np.zeros((len(boxes), 4), np.float64)

    def add(col_lo, col_hi, grad, axis, crop, size):
        along = grad.sum(2 if axis == 0 else 1)  # (boxes, crop)
        if crop > 1:
            i = np.arange(crop) * ((size - 1) / (crop - 1))
            out[:, col_lo] += (along * (size - 1 - i)).sum(1)
            out[:, col_hi] += (along * i).sum(1)
        else:
            out[:, col_lo] += along.sum(1) * 0.5 * (size - 1)
            out[:, col_hi] += along.sum(1) * 0.5 * (size - 1)
    add(0, 2, grad_y, 0, ch, h)
    add(1, 3, grad_x, 1, cw, w)
    return xp.asarray(out.astype(np.float32))


_CROP_AND_RESIZE_GRAD_BOXES = register(
    "CropAndResizeGradBoxes", _crop_and_resize_grad_boxes,
    lambda grads, image, boxes, box_index, **_: (TensorShape([boxes.shape[0] if boxes.shape.rank
                                                              else None, 4]), _d.float32),
    tied=(1,), dtypes=(_d.uint8, _d.uint16, _d.int8, _d.int16, _d.int32, _d.int64, _d.float16,
                       _d.float32, _d.float64))
tf_nodes[_CROP_AND_RESIZE_GRAD_BOXES] = NodeForm(types={"T": 1}, outputs=("output",))
tf_args[_CROP_AND_RESIZE_GRAD_BOXES] = ("grads", "image", "boxes", "box_ind")
no_gradient_entry("CropAndResizeGradImage", "CropAndResizeGradBoxes")  # (second derivatives)


@register_gradient("CropAndResize")
def _crop_and_resize_grad(op, dy):
    image, boxes, box_index = op.inputs[:3]
    method = op.attrs["method"]
    grad_image = None
    if image.dtype in (_d.float16, _d.float32, _d.float64):
        size = array_ops.known_shape(image)
        attrs = {"method": method, "T": image.dtype}
        grad_image = dispatch(_CROP_AND_RESIZE_GRAD_IMAGE, (dy, boxes, box_index),
                              {**attrs, "image_size": tuple(size)}) if isinstance(size, list) \
            else dispatch(_CROP_AND_RESIZE_GRAD_IMAGE, (dy, boxes, box_index, size), attrs)
    grad_boxes = dispatch(_CROP_AND_RESIZE_GRAD_BOXES, (dy, image, boxes, box_index),
                          {"method": "bilinear"})
    return (grad_image, grad_boxes) + (None,) * (len(op.inputs) - 2)


batching_rules.assign(PER_ELEMENT, _EXTRACT_PATCHES, _EXTRACT_VOLUME_PATCHES, _CROP_AND_RESIZE,
                      _CROP_AND_RESIZE_GRAD_IMAGE, _CROP_AND_RESIZE_GRAD_BOXES)


@export("image.crop_and_resize")
def crop_and_resize(image, boxes, box_indices, crop_size, method="bilinear",
                    extrapolation_value=0.0, name=None):
    """Crops of `image` (N, H, W, C) at normalized `boxes` ``[y1, x1, y2, x2]`` of the images
    `box_indices`, each resized to `crop_size` (bilinear or nearest), as float32.

    >>> tf.image.crop_and_resize(tf.ones([1, 4, 4, 1]), [[0., 0., 1., 1.]], [0], [2, 2]).shape
    TensorShape([1, 2, 2, 1])
    """
    if method not in ("bilinear", "nearest"):
        raise errors.InvalidArgumentError(
            None, "CropAndResize", f"method must be 'bilinear' or 'nearest', got {method}")
    given = (boxes, box_indices, crop_size)
    image = as_tensor(image)
    boxes = convert_to_tensor(boxes, _d.float32)
    box_indices = convert_to_tensor(box_indices, _d.int32)
    attrs = {"method": method, "extrapolation_value": float(extrapolation_value)}
    try:  # (a size of another shape: the kernel raises TF's error)
        if isinstance(crop_size, Tensor) and not crop_size.shape.is_compatible_with([2]):
            raise ValueError(crop_size)
        size = _size_arg(crop_size, "CropAndResize")
    except ValueError:
        size = convert_to_tensor(crop_size, _d.int32)
    try:
        if isinstance(size, tuple):
            return dispatch(_CROP_AND_RESIZE, (image, boxes, box_indices),
                            {**attrs, "crop_size": size}, name)
        return dispatch(_CROP_AND_RESIZE, (image, boxes, box_indices, size), attrs, name)
    except errors.OpError as e:
        raise errors.listed(e, *given) from None



@export("compat.v1.image.crop_and_resize")
def crop_and_resize_v1(image, boxes, box_ind=None, crop_size=None, method="bilinear",
                       extrapolation_value=0, name=None, box_indices=None):
    """TF 1's `crop_and_resize`: the image indices may be given as `box_ind` (deprecated)
    or `box_indices`."""
    if box_ind is not None and box_indices is not None:
        raise ValueError("Cannot specify both 'box_ind' and 'box_indices'.")
    return crop_and_resize(image, boxes, box_indices if box_ind is None else box_ind,
                           crop_size, method, extrapolation_value, name)


# --- resizing -------------------------------------------------------------------------------

@export("image.ResizeMethod")
class ResizeMethod:
    """The methods of `resize`, by their string names."""

    BILINEAR = "bilinear"
    NEAREST_NEIGHBOR = "nearest"
    BICUBIC = "bicubic"
    AREA = "area"
    LANCZOS3 = "lanczos3"
    LANCZOS5 = "lanczos5"
    GAUSSIAN = "gaussian"
    MITCHELLCUBIC = "mitchellcubic"


def _size_arg(size, op_name="Resize"):
    """A 2-element size: a tuple of ints when known now, else an int32 tensor."""
    if isinstance(size, TensorShape):
        size = size.as_list()
    if isinstance(size, Tensor) and size.dtype != _d.int32:
        raise ValueError("'size' must be a 1-D int32 Tensor")
    if not isinstance(size, Tensor):
        try:
            arr = np.asarray(size if not isinstance(size, (list, tuple)) or not any(
                isinstance(v, Tensor) for v in size) else None)
        except (TypeError, ValueError):
            arr = None
        if arr is not None and arr.dtype != object:
            if arr.dtype.kind not in "iu":
                raise ValueError("'size' must be a 1-D int32 Tensor")
            if arr.shape != (2,):
                raise ValueError("'size' must be a 1-D Tensor of 2 elements: new_height, "
                                 "new_width")
            return tuple(int(v) for v in arr)
    value = _ints_or_tensor(size, op_name, "size")
    if isinstance(value, tuple):
        if len(value) != 2:
            raise ValueError("'size' must be a 1-D Tensor of 2 elements: new_height, new_width")
        return value
    if not value.shape.is_compatible_with([2]):
        raise ValueError("'size' must be a 1-D Tensor of 2 elements: new_height, new_width")
    return cast_ops.cast(value, _d.int32) if value.dtype != _d.int32 else value


def _as_batch(images, what="images"):
    """(4-D images, whether the input was a batch); TF's ValueError for other ranks."""
    images = as_tensor(images)
    rank = images.shape.rank
    if rank is None:
        raise ValueError(f"'{what}' contains no shape.")
    if rank == 3:
        return array_ops.expand_dims(images, 0), False
    if rank != 4:
        raise ValueError(f"'{what}' must have either 3 or 4 dimensions.")
    return images, True


def _dims(image):
    """The dims of `image` (known rank): ints where static, else scalar int32 tensors."""
    static = image.shape.as_list()
    if None not in static:
        return static
    dynamic = array_ops.shape(image)
    return [d if d is not None else dynamic[i] for i, d in enumerate(static)]


def _set_shape(tensor, dims):
    """Narrows a traced tensor's static shape (eager tensors already have theirs)."""
    if not isinstance(tensor, EagerTensor):
        tensor.set_shape(dims)
    return tensor


def _finish(images, is_batch):
    return images if is_batch else array_ops.squeeze(images, [0])


def _resize_op(op_def, images, size, attrs, name=None):
    if isinstance(size, tuple):
        return dispatch(op_def, (images,), {**attrs, "size": size}, name)
    return dispatch(op_def, (images, size), attrs, name)


def _float(value):
    return cast_ops.cast(value, _d.float32)


def _scale_and_translate(images, size, method, antialias):
    """ScaleAndTranslate for `resize`: the scale of `size` to the images' size."""
    dims = _dims(images)
    if isinstance(size, tuple) and not _dynamic(*dims[1:3]):
        with np.errstate(divide="ignore"):  # (an empty image: inf, which the kernel rejects)
            scale = as_tensor(np.divide(np.array(size, np.float32),
                                        np.array(dims[1:3], np.float32)))
    else:
        scale = math_ops.divide(_float(size if not isinstance(size, tuple) else list(size)),
                                _float(array_ops.shape(images)[1:3]))
    translation = as_tensor(np.zeros(2, np.float32))
    attrs = {"kernel_type": method, "antialias": bool(antialias)}
    if isinstance(size, tuple):
        return dispatch(_SCALE_AND_TRANSLATE, (images, scale, translation),
                        {**attrs, "size": size})
    return dispatch(_SCALE_AND_TRANSLATE, (images, scale, translation, size), attrs)


_SPAN_METHODS = ("lanczos3", "lanczos5", "gaussian", "mitchellcubic")


@export("image.resize")
def resize(images, size, method=ResizeMethod.BILINEAR, preserve_aspect_ratio=False,
           antialias=False, name=None):
    """Resizes `images` (3-D or a 4-D batch) to `size` ``[height, width]`` by `method`.

    The result is float32, except with "nearest", which keeps the dtype. `antialias`
    widens the filter when downsampling; `preserve_aspect_ratio` fits the image inside
    `size` instead.

    >>> tf.image.resize(tf.ones([4, 6, 3]), [2, 3]).shape
    TensorShape([2, 3, 3])
    """
    method = getattr(method, "value", method)
    if method not in ("bilinear", "nearest", "bicubic", "area") + _SPAN_METHODS:
        raise ValueError(f"Resize method is not implemented: {method}")
    images, is_batch = _as_batch(images)
    size = _resize_size_arg(size)
    if preserve_aspect_ratio:
        size = _aspect_size(images, size)
    if method in _SPAN_METHODS or antialias and method in ("bilinear", "bicubic"):
        kernel = {"bilinear": "triangle", "bicubic": "keyscubic"}.get(method, method)
        out = _scale_and_translate(images, size, kernel, antialias)
    else:
        op_def = {"bilinear": _RESIZE_BILINEAR, "nearest": _RESIZE_NEAREST,
                  "bicubic": _RESIZE_BICUBIC, "area": _RESIZE_AREA}[method]
        attrs = {"align_corners": False, "half_pixel_centers": method != "area"}
        out = _resize_op(op_def, images, size, attrs)
    return _finish(out, is_batch)


def _resize_size_arg(size):
    """`_size_arg` of `resize`/`resize_images`, whose known size TF also reads as a static
    shape: there -1 means unknown (the kernel refuses it later) but a smaller value fails."""
    size = _size_arg(size)
    if isinstance(size, tuple):
        for v in size:
            if v < -1:
                raise ValueError(f"Dimension {v} must be >= 0")
    return size


def _aspect_size(images, size):
    """The largest size inside `size` with the images' aspect ratio (rounded as TF does)."""
    dims = _dims(images)
    if isinstance(size, tuple) and not _dynamic(*dims[1:3]):
        h, w = np.float32(dims[1]), np.float32(dims[2])
        factor = min(np.float32(size[0]) / h, np.float32(size[1]) / w)
        return (int(np.round(np.float32(factor * h))), int(np.round(np.float32(factor * w))))
    hw = _float(array_ops.shape(images)[1:3])
    factor = reduction_ops.reduce_min(_float(size) / hw)
    return cast_ops.cast(math_ops.round(factor * hw), _d.int32)


def _v1_resize(op_def, images, size, align_corners, half_pixel_centers, name):
    attrs = {"align_corners": bool(align_corners),
             "half_pixel_centers": bool(half_pixel_centers)}
    return _resize_op(op_def, as_tensor(images), _size_arg(size), attrs, name)


@export("compat.v1.image.resize_bilinear")
def resize_bilinear(images, size, align_corners=False, name=None, half_pixel_centers=False):
    """TF 1's bilinear resize of 4-D `images` (op ``ResizeBilinear``), as float32.

    >>> tf.compat.v1.image.resize_bilinear(tf.ones([1, 2, 2, 1]), [3, 3]).shape
    TensorShape([1, 3, 3, 1])
    """
    return _v1_resize(_RESIZE_BILINEAR, images, size, align_corners, half_pixel_centers, name)


@export("compat.v1.image.resize_nearest_neighbor")
def resize_nearest_neighbor(images, size, align_corners=False, name=None,
                            half_pixel_centers=False):
    """TF 1's nearest-neighbour resize of 4-D `images` (op ``ResizeNearestNeighbor``).

    >>> tf.compat.v1.image.resize_nearest_neighbor(tf.ones([1, 2, 2, 1], tf.uint8), [3, 3]).dtype
    tf.uint8
    """
    return _v1_resize(_RESIZE_NEAREST, images, size, align_corners, half_pixel_centers, name)


@export("compat.v1.image.resize_bicubic")
def resize_bicubic(images, size, align_corners=False, name=None, half_pixel_centers=False):
    """TF 1's bicubic resize of 4-D `images` (op ``ResizeBicubic``), as float32.

    >>> tf.compat.v1.image.resize_bicubic(tf.ones([1, 2, 2, 1]), [3, 3]).shape
    TensorShape([1, 3, 3, 1])
    """
    return _v1_resize(_RESIZE_BICUBIC, images, size, align_corners, half_pixel_centers, name)


@export("compat.v1.image.resize_area")
def resize_area(images, size, align_corners=False, name=None):
    """TF 1's area resize of 4-D `images` (op ``ResizeArea``), as float32.

    >>> tf.compat.v1.image.resize_area(tf.ones([1, 4, 4, 1]), [2, 2]).shape
    TensorShape([1, 2, 2, 1])
    """
    return _v1_resize(_RESIZE_AREA, images, size, align_corners, False, name)


@export("compat.v1.image.ResizeMethod")
class ResizeMethodV1:
    """TF 1's methods of `resize_images`, by number."""

    BILINEAR = 0
    NEAREST_NEIGHBOR = 1
    BICUBIC = 2
    AREA = 3


@export("compat.v1.image.resize_images", "compat.v1.image.resize")
def resize_images(images, size, method=ResizeMethodV1.BILINEAR, align_corners=False,
                  preserve_aspect_ratio=False, name=None):
    """TF 1's resize of `images` (3-D or a 4-D batch) to `size` by `method` (a
    `ResizeMethodV1` number or a `ResizeMethod` name): pixel corners, not centers, align
    unless `align_corners`. Images of that size already come back unchanged.

    >>> tf.compat.v1.image.resize_images(tf.ones([2, 2, 1]), [3, 3]).shape
    TensorShape([3, 3, 1])
    """
    method = getattr(method, "value", method)
    op_def = {0: _RESIZE_BILINEAR, 1: _RESIZE_NEAREST, 2: _RESIZE_BICUBIC, 3: _RESIZE_AREA,
              "bilinear": _RESIZE_BILINEAR, "nearest": _RESIZE_NEAREST,
              "bicubic": _RESIZE_BICUBIC, "area": _RESIZE_AREA}.get(
        method if isinstance(method, (int, str)) else None)
    if op_def is None:
        raise ValueError(f"Resize method is not implemented: {method}")
    images, is_batch = _as_batch(images)
    size = _resize_size_arg(size)
    if preserve_aspect_ratio:
        size = _aspect_size(images, size)
    if isinstance(size, tuple) and tuple(images.shape[1:3]) == size:
        return _finish(images, is_batch)
    attrs = {"align_corners": bool(align_corners), "half_pixel_centers": False}
    return _finish(_resize_op(op_def, images, size, attrs, name), is_batch)


def _check(condition, message, error=ValueError):
    """TF's `_assert`: `error` now for a false Python bool, an Assert when run time decides."""
    if isinstance(condition, Tensor):
        debugging_ops.Assert(condition, [message])
    elif not condition:
        raise error(message)


@export("image.resize_with_pad")
def resize_with_pad(image, target_height, target_width, method=ResizeMethod.BILINEAR,
                    antialias=False):
    """Resizes `image` to fit `target_height` x `target_width` keeping its aspect ratio, then
    pads the rest with zeros, evenly on both sides.

    >>> tf.image.resize_with_pad(tf.ones([2, 4, 1]), 4, 4)[:, :, 0].numpy()
    array([[0., 0., 0., 0.],
           [1., 1., 1., 1.],
           [1., 1., 1., 1.],
           [0., 0., 0., 0.]], dtype=float32)
    """
    return _resize_with_pad(image, target_height, target_width,
                            lambda images, size: resize(images, size, method,
                                                        antialias=antialias))


@export("compat.v1.image.resize_image_with_pad")
def resize_image_with_pad(image, target_height, target_width, method=ResizeMethodV1.BILINEAR,
                          align_corners=False):
    """TF 1's `resize_with_pad`: the resize is `resize_images`'s, with `align_corners`.

    >>> tf.compat.v1.image.resize_image_with_pad(tf.ones([2, 4, 1]), 4, 4).shape
    TensorShape([4, 4, 1])
    """
    return _resize_with_pad(image, target_height, target_width,
                            lambda images, size: resize_images(images, size, method,
                                                               align_corners))


def _resize_with_pad(image, target_height, target_width, resize_fn):
    image, is_batch = _image_batch(image)
    _check_at_least_3d(image)
    _check(_gt(target_width, 0), "target_width must be > 0.")
    _check(_gt(target_height, 0), "target_height must be > 0.")
    _, height, width, _ = _dims(image)
    if not _dynamic(height, width, target_height, target_width):
        ratio = max(np.float32(width) / np.float32(target_width),
                    np.float32(height) / np.float32(target_height))
        rh, rw = np.float32(height) / ratio, np.float32(width) / ratio
        resized_size = (int(np.floor(rh)), int(np.floor(rw)))
        pad_h = max(0, int(np.floor((np.float32(target_height) - rh) / 2)))
        pad_w = max(0, int(np.floor((np.float32(target_width) - rw) / 2)))
    else:
        f = [_float(v) for v in (height, width, target_height, target_width)]
        ratio = math_ops.maximum(f[1] / f[3], f[0] / f[2])
        rh, rw = f[0] / ratio, f[1] / ratio
        resized_size = cast_ops.cast(array_ops.stack([math_ops.floor(rh), math_ops.floor(rw)]),
                                     _d.int32)
        pad_h = math_ops.maximum(0, cast_ops.cast(math_ops.floor((f[2] - rh) / 2), _d.int32))
        pad_w = math_ops.maximum(0, cast_ops.cast(math_ops.floor((f[3] - rw) / 2), _d.int32))
    resized = resize_fn(image, resized_size)
    padded = pad_to_bounding_box(resized, pad_h, pad_w, target_height, target_width)
    return _finish(padded, is_batch)


# --- crops and pads -------------------------------------------------------------------------

def _check_at_least_3d(image, require_nonzero=True):
    shape = image.shape
    if shape.rank is not None and shape.rank < 3:
        raise ValueError(f"'image' (shape {_shape_str(shape)}) must be at least "
                         f"three-dimensional.")
    if shape.rank is not None and require_nonzero and 0 in shape.as_list()[-3:]:
        raise ValueError(f"inner 3 dims of 'image.shape' must be > 0: {_shape_str(shape)}")


def _shape_str(shape):
    dims = shape.as_list()
    return "(" + ", ".join("None" if d is None else str(d) for d in dims) + \
        ("," if len(dims) == 1 else "") + ")"


def _image_batch(image):
    """(4-D image, whether it was a batch), rank 3 or 4 (unknown: taken as 3)."""
    image = as_tensor(image)
    rank = image.shape.rank
    if rank == 4:
        return image, True
    if rank not in (None, 3):
        raise ValueError(f"'image' (shape {_shape_str(image.shape)}) must have either 3 or 4 "
                         f"dimensions.")
    image = array_ops.expand_dims(image, 0)
    if rank is None:
        image = array_ops.reshape(image, _pack(_dims_4(image)))
    return image, False


def _dims_4(image):
    shape = array_ops.shape(image)
    return [shape[i] for i in range(4)]


def _ge(a, b):
    return math_ops.greater_equal(a, b) if _dynamic(a, b) else a >= b


def _gt(a, b):
    return math_ops.greater(a, b) if _dynamic(a, b) else a > b


def _crop(image, top, left, height, width):
    """The (height, width) window at (top, left) of a 4-D image."""
    if not _dynamic(top, left, height, width):
        return array_ops.slice(image, [0, top, left, 0], [-1, height, width, -1])
    return image[:, top:top + height, left:left + width, :]


@export("image.crop_to_bounding_box")
def crop_to_bounding_box(image, offset_height, offset_width, target_height, target_width):
    """The `target_height` x `target_width` window of `image` (3-D or 4-D) whose top-left
    corner is at (`offset_height`, `offset_width`).

    >>> tf.image.crop_to_bounding_box(tf.reshape(tf.range(9), [3, 3, 1]), 1, 1, 2, 2)[..., 0]
    <tf.Tensor: shape=(2, 2), dtype=int32, numpy=
    array([[4, 5],
           [7, 8]], dtype=int32)>
    """
    image, is_batch = _image_batch(image)
    _check_at_least_3d(image)
    batch, height, width, depth = _dims(image)
    _check(_ge(offset_width, 0), "offset_width must be >= 0.")
    _check(_ge(offset_height, 0), "offset_height must be >= 0.")
    _check(_gt(target_width, 0), "target_width must be > 0.")
    _check(_gt(target_height, 0), "target_height must be > 0.")
    _check(_ge(width, target_width + offset_width), "width must be >= target + offset.")
    _check(_ge(height, target_height + offset_height), "height must be >= target + offset.")
    cropped = _crop(image, offset_height, offset_width, target_height, target_width)
    _set_shape(cropped, [None if isinstance(v, Tensor) else v
                         for v in (batch, target_height, target_width, depth)])
    return _finish(cropped, is_batch)


@export("image.pad_to_bounding_box")
def pad_to_bounding_box(image, offset_height, offset_width, target_height, target_width):
    """`image` (3-D or 4-D) padded with zeros to `target_height` x `target_width`, with
    `offset_height` rows above it and `offset_width` columns to its left.

    >>> tf.image.pad_to_bounding_box(tf.ones([1, 1, 1]), 1, 0, 2, 2)[..., 0]
    <tf.Tensor: shape=(2, 2), dtype=float32, numpy=
    array([[0., 0.],
           [1., 0.]], dtype=float32)>
    """
    image, is_batch = _image_batch(image)
    batch, height, width, depth = _dims(image)
    after_width = target_width - offset_width - width
    after_height = target_height - offset_height - height
    _check_at_least_3d(image)
    _check(_ge(offset_height, 0), "offset_height must be >= 0")
    _check(_ge(offset_width, 0), "offset_width must be >= 0")
    _check(_ge(after_width, 0), "width must be <= target - offset")
    _check(_ge(after_height, 0), "height must be <= target - offset")
    if not _dynamic(offset_height, after_height, offset_width, after_width):
        padded = array_ops.pad(image, [[0, 0], [offset_height, after_height],
                                       [offset_width, after_width], [0, 0]])
    else:
        padded = _pad_dynamic(image, offset_height, after_height, offset_width, after_width)
    _set_shape(padded, [None if isinstance(v, Tensor) else v
                        for v in (batch, target_height, target_width, depth)])
    return _finish(padded, is_batch)


def _pad_dynamic(image, top, bottom, left, right):
    """Zero padding by amounts only run time knows: concatenated blocks of zeros."""
    batch, height, width, depth = _dims_4(image)
    zeros = array_ops.zeros
    image = array_ops.concat([zeros(array_ops.stack([batch, height, left, depth]), image.dtype),
                              image,
                              zeros(array_ops.stack([batch, height, right, depth]), image.dtype)],
                             2)
    width = array_ops.shape(image)[2]
    return array_ops.concat([zeros(array_ops.stack([batch, top, width, depth]), image.dtype),
                             image,
                             zeros(array_ops.stack([batch, bottom, width, depth]), image.dtype)],
                            1)


def _max(a, b):
    return math_ops.maximum(a, b) if _dynamic(a, b) else max(a, b)


def _min(a, b):
    return math_ops.minimum(a, b) if _dynamic(a, b) else min(a, b)


@export("image.resize_with_crop_or_pad", "compat.v1.image.resize_image_with_crop_or_pad")
def resize_with_crop_or_pad(image, target_height, target_width):
    """Centrally crops or zero-pads `image` (3-D or 4-D) to `target_height` x
    `target_width`.

    >>> tf.image.resize_with_crop_or_pad(tf.ones([2, 2, 1]), 1, 4)[..., 0]
    <tf.Tensor: shape=(1, 4), dtype=float32, numpy=array([[0., 1., 1., 0.]], dtype=float32)>
    """
    image, is_batch = _image_batch(image)
    _check_at_least_3d(image)
    _check(_gt(target_width, 0), "target_width must be > 0.")
    _check(_gt(target_height, 0), "target_height must be > 0.")
    _, height, width, _ = _dims(image)
    width_diff = target_width - width
    height_diff = target_height - height
    cropped = crop_to_bounding_box(image, _max(-height_diff // 2, 0), _max(-width_diff // 2, 0),
                                   _min(target_height, height), _min(target_width, width))
    resized = pad_to_bounding_box(cropped, _max(height_diff // 2, 0), _max(width_diff // 2, 0),
                                  target_height, target_width)
    return _finish(resized, is_batch)


@export("image.central_crop")
def central_crop(image, central_fraction):
    """The central `central_fraction` (in (0, 1]) of `image`'s height and width.

    >>> tf.image.central_crop(tf.ones([4, 4, 3]), 0.5).shape
    TensorShape([2, 2, 3])
    """
    image = as_tensor(image)
    fraction = get_static_value(central_fraction) if isinstance(central_fraction, Tensor) \
        else central_fraction
    if fraction is not None:
        fraction = float(fraction)
        if fraction <= 0.0 or fraction > 1.0:
            raise ValueError("central_fraction must be within (0, 1]")
        if fraction == 1.0:
            return image
    _check_at_least_3d(image)
    rank = image.shape.rank
    if rank not in (3, 4):
        raise ValueError(f"`image` should either be a Tensor with rank = 3 or rank = 4. Had "
                         f"rank = {rank}.")
    first = rank - 3
    dims = _dims(image)
    starts, sizes = [], []
    for axis in (first, first + 1):
        size = dims[axis]
        if isinstance(size, Tensor) or fraction is None:
            sd = cast_ops.cast(size, _d.float64)
            start = cast_ops.cast((sd - sd * cast_ops.cast(central_fraction, _d.float64)) / 2,
                                  _d.int32)
        else:
            start = int((float(size) - float(size) * fraction) / 2)
        starts.append(start)
        sizes.append(size - start * 2)
    if not _dynamic(*starts, *sizes):
        begin, extent = [0] * rank, [-1] * rank
        begin[first:first + 2], extent[first:first + 2] = starts, sizes
        return array_ops.slice(image, begin, extent)
    index = [slice(None)] * rank
    index[first:first + 2] = [slice(s, s + n) for s, n in zip(starts, sizes)]
    return image[tuple(index)]


# --- flips, rotations, transposes -----------------------------------------------------------

def _assert_3d_at_run_time(image, scope):
    """An image of unknown rank checked, when the graph runs, to have 3 dims or more (TF's
    assertion and message)."""
    rank = array_ops.rank(image)
    debugging_ops.Assert(math_ops.greater_equal(rank, 3), [
        "'image' must be at least three-dimensional.",
        "Condition x >= y did not hold element-wise:", f"x ({scope}/Rank:0) = ", rank,
        f"y ({scope}/assert_greater_equal/y:0) = ", 3])
    return rank


def _as_batch_of_any_rank(image, scope):
    """An image of unknown rank as a batch (a 3-D image as a batch of one), checked to have
    3 dims or more; with the function giving the result its own leading dims back."""
    rank = _assert_3d_at_run_time(image, scope)
    shape = array_ops.shape(image)
    lead = array_ops.slice(shape, [0], array_ops.reshape(rank - 3, [1]))
    batch = array_ops.reshape(image, array_ops.stack([-1, shape[-3], shape[-2], shape[-1]]))

    def restore(out):
        return array_ops.reshape(out, array_ops.concat([lead, array_ops.shape(out)[1:]], 0))
    return batch, rank, restore


def _flip(image, axis, scope="flip_left_right"):
    image = as_tensor(image)
    _check_at_least_3d(image)
    rank = image.shape.rank
    if rank is None:  # a 3-D image or a batch: the axis counted from the end is the same
        _assert_3d_at_run_time(image, scope)
        return array_ops.reverse(image, [axis - 3])
    if rank not in (3, 4):
        raise ValueError(f"'image' (shape {_shape_str(image.shape)})must have either 3 or 4 "
                         f"dimensions.")
    return array_ops.reverse(image, [axis + rank - 3])


@export("image.flip_left_right")
def flip_left_right(image):
    """`image` (3-D or 4-D) mirrored horizontally.

    >>> tf.image.flip_left_right([[[1], [2]]])[..., 0]
    <tf.Tensor: shape=(1, 2), dtype=int32, numpy=array([[2, 1]], dtype=int32)>
    """
    return _flip(image, 1)


@export("image.flip_up_down")
def flip_up_down(image):
    """`image` (3-D or 4-D) mirrored vertically.

    >>> tf.image.flip_up_down([[[1]], [[2]]])[..., 0]
    <tf.Tensor: shape=(2, 1), dtype=int32, numpy=
    array([[2],
           [1]], dtype=int32)>
    """
    return _flip(image, 0, "flip_up_down")


def _random_flip(image, axis, uniform, scope="random_flip_left_right"):
    image = as_tensor(image)
    _check_at_least_3d(image)
    rank = image.shape.rank
    if rank is None:
        return _random_flip_any_rank(image, axis, uniform, scope)
    if rank == 3:
        mirror = math_ops.less(uniform([]), 0.5)
        return array_ops.where(mirror, array_ops.reverse(image, [axis]), image)
    if rank != 4:
        raise ValueError(f"'image' (shape {_shape_str(image.shape)}) must have either 3 or 4 "
                         f"dimensions.")
    batch = _dims(image)[0]
    draws = uniform([batch] if not isinstance(batch, Tensor) else array_ops.stack([batch]))
    return _flip_batch(image, axis, draws)


def _flip_batch(images, axis, draws):
    """The images whose draw rounds to 1 flipped (TF's arithmetic: a product with 0 or 1)."""
    flips = cast_ops.cast(math_ops.round(array_ops.reshape(draws, [-1, 1, 1, 1])), images.dtype)
    flipped = array_ops.reverse(images, [axis + 1])
    return flips * flipped + (1 - flips) * images


def _random_flip_any_rank(image, axis, uniform, scope):
    """`_random_flip` of an image whose rank only run time knows: TF runs the 3-D way (one
    draw of its own op) or the batch's (a draw per image, of another op) by a cond on the
    rank; here both ops run, the one the rank does not choose drawing no value (so it
    takes nothing of its sequence, as in TF), and the rank picks the result."""
    batch, rank, restore = _as_batch_of_any_rank(image, scope)
    single = cast_ops.cast(math_ops.equal(rank, 3), _d.int32)
    one = array_ops.concat([uniform(array_ops.reshape(single, [1])), [1.0]], 0)[0]
    count = array_ops.shape(batch)[0] * (1 - single)
    many = array_ops.concat([uniform(array_ops.reshape(count, [1])),
                             array_ops.zeros(array_ops.reshape(single, [1]))], 0)
    flipped = array_ops.reverse(batch, [axis + 1])
    chosen = array_ops.where(math_ops.less(one, 0.5), flipped, batch)
    return restore(array_ops.where(math_ops.equal(rank, 3), chosen,
                                   _flip_batch(batch, axis, many)))


def _stateful_uniform(seed):
    return lambda shape: random_ops.uniform(shape, 0, 1.0, seed=seed)


def _stateless_uniform(seed):
    return lambda shape: random_ops.stateless_uniform(shape, seed, 0, 1.0)


@export("image.random_flip_left_right")
def random_flip_left_right(image, seed=None):
    """`image` mirrored horizontally with probability 1/2 (each image of a batch apart).

    >>> tf.image.random_flip_left_right(tf.ones([2, 2, 1])).shape
    TensorShape([2, 2, 1])
    """
    return _random_flip(image, 1, _stateful_uniform(seed), "random_flip_left_right")


@export("image.random_flip_up_down")
def random_flip_up_down(image, seed=None):
    """`image` mirrored vertically with probability 1/2 (each image of a batch apart).

    >>> tf.image.random_flip_up_down(tf.ones([2, 2, 1])).shape
    TensorShape([2, 2, 1])
    """
    return _random_flip(image, 0, _stateful_uniform(seed), "random_flip_up_down")


@export("image.stateless_random_flip_left_right")
def stateless_random_flip_left_right(image, seed):
    """`image` mirrored horizontally or not, as the shape [2] `seed` decides.

    >>> tf.image.stateless_random_flip_left_right(tf.ones([2, 2, 1]), seed=(1, 2)).shape
    TensorShape([2, 2, 1])
    """
    return _random_flip(image, 1, _stateless_uniform(seed),
                        "stateless_random_flip_left_right")


@export("image.stateless_random_flip_up_down")
def stateless_random_flip_up_down(image, seed):
    """`image` mirrored vertically or not, as the shape [2] `seed` decides.

    >>> tf.image.stateless_random_flip_up_down(tf.ones([2, 2, 1]), seed=(1, 2)).shape
    TensorShape([2, 2, 1])
    """
    return _random_flip(image, 0, _stateless_uniform(seed), "stateless_random_flip_up_down")


def _crop_offsets(value, size, draw):
    value = as_tensor(value)
    size = convert_to_tensor(size, _d.int32)
    shape = array_ops.shape(value)
    if size.shape.rank is not None and shape.shape[0] is not None and \
            size.shape.as_list() != shape.shape.as_list():
        raise errors.InvalidArgumentError(
            None, "GreaterEqual", f"Incompatible shapes: {shape.shape.as_list()} vs. "
            f"{size.shape.as_list()} [Op:GreaterEqual]")
    ok = reduction_ops.reduce_all(math_ops.greater_equal(shape, size))
    debugging_ops.Assert(ok, ["Need value.shape >= size, got ", shape, size], summarize=1000)
    limit = shape - size + 1
    offset = math_ops.floormod(draw(array_ops.shape(shape), size.dtype), limit)
    static_size = get_static_value(size)
    if get_static_value(offset) is not None and static_size is not None:
        return array_ops.slice(value, offset, size)
    rank = value.shape.rank
    if rank is None:  # (the rank is the size's)
        out = array_ops.slice(value, offset, size)
    else:
        out = value[tuple(slice(offset[i], offset[i] + size[i]) for i in range(rank))]
    if static_size is not None:
        _set_shape(out, [int(v) for v in static_size])
    return out


@export("image.random_crop")
def random_crop(value, size, seed=None, name=None):
    """A window of `size` of `value` at a uniformly random offset.

    >>> tf.image.random_crop(tf.ones([4, 4, 3]), [2, 2, 3]).shape
    TensorShape([2, 2, 3])
    """
    return _crop_offsets(value, size, lambda shape, dtype: random_ops.uniform(
        shape, maxval=dtype.max, dtype=dtype, seed=seed))


@export("image.stateless_random_crop")
def stateless_random_crop(value, size, seed, name=None):
    """A window of `size` of `value` at an offset the shape [2] `seed` decides.

    >>> tf.image.stateless_random_crop(tf.ones([4, 4, 3]), [2, 2, 3], seed=(1, 2)).shape
    TensorShape([2, 2, 3])
    """
    return _crop_offsets(value, size, lambda shape, dtype: random_ops.stateless_uniform(
        shape, seed, maxval=dtype.max, dtype=dtype))


@export("image.rot90")
def rot90(image, k=1, name=None):
    """`image` (3-D or 4-D) rotated counter-clockwise by `k` quarter turns.

    >>> tf.image.rot90([[[1], [2]]])[..., 0]
    <tf.Tensor: shape=(2, 1), dtype=int32, numpy=
    array([[2],
           [1]], dtype=int32)>
    """
    image = as_tensor(image)
    _check_at_least_3d(image)
    rank = image.shape.rank
    if rank is None:  # (TF's cond on the rank fails when it runs: here each rank works)
        batch, _, restore = _as_batch_of_any_rank(image, "rot90")
        return restore(rot90(batch, k))
    if rank not in (3, 4):
        raise ValueError(f"'image' (shape {_shape_str(image.shape)}) must have either 3 or 4 "
                         f"dimensions.")
    k_tensor = convert_to_tensor(k, _d.int32)
    if k_tensor.shape.rank not in (None, 0):
        raise ValueError(f"Shape {_shape_str(k_tensor.shape)} must have rank 0")
    value = get_static_value(k_tensor)
    if value is None:
        return _rot90_gathered(image, math_ops.floormod(k_tensor, 4))
    k = int(value) % 4
    h, w = rank - 3, rank - 2
    perm = list(range(rank))
    perm[h], perm[w] = w, h
    if k == 1:
        return array_ops.transpose(array_ops.reverse(image, [w]), perm)
    if k == 2:
        return array_ops.reverse(image, [h, w])
    if k == 3:
        return array_ops.reverse(array_ops.transpose(image, perm), [w])
    return image


def _rot90_gathered(image, k):
    """rot90 by a `k` in [0, 4) only run time knows: each output pixel gathered from its
    source, whose row and column are chosen among the four rotations' by `k`."""
    rank = image.shape.rank
    dims = _dims_4(image) if rank == 4 else [None] + [array_ops.shape(image)[i]
                                                     for i in range(3)]
    h, w = dims[1], dims[2]
    odd = math_ops.equal(math_ops.floormod(k, 2), 1)
    out_h, out_w = array_ops.where(odd, w, h), array_ops.where(odd, h, w)
    i = array_ops.reshape(array_ops.range(out_h), [-1, 1]) + array_ops.zeros(
        array_ops.stack([1, out_w]), _d.int32)
    j = array_ops.reshape(array_ops.range(out_w), [1, -1]) + array_ops.zeros(
        array_ops.stack([out_h, 1]), _d.int32)
    rows = array_ops.gather(array_ops.stack([i, j, h - 1 - i, h - 1 - j]), k)
    cols = array_ops.gather(array_ops.stack([j, w - 1 - i, w - 1 - j, i]), k)
    flat = array_ops.reshape(image, array_ops.stack(
        ([dims[0]] if rank == 4 else []) + [h * w, dims[3]]))
    out = array_ops.gather(flat, rows * w + cols, axis=rank - 3)
    static = image.shape.as_list()
    _set_shape(out, [static[0], None, None, static[3]] if rank == 4 else
               [None, None, static[2]])
    return out


@export("image.transpose", "compat.v1.image.transpose_image")
def transpose(image, name=None):
    """`image` (3-D or 4-D) with its height and width swapped.

    >>> tf.image.transpose(tf.ones([2, 3, 1])).shape
    TensorShape([3, 2, 1])
    """
    image = as_tensor(image)
    _check_at_least_3d(image)
    rank = image.shape.rank
    if rank is None:  # (TF's cond on the rank fails when it runs: here each rank works)
        batch, _, restore = _as_batch_of_any_rank(image, "transpose")
        return restore(array_ops.transpose(batch, [0, 2, 1, 3]))
    if rank == 3:
        return array_ops.transpose(image, [1, 0, 2], name=name)
    if rank == 4:
        return array_ops.transpose(image, [0, 2, 1, 3], name=name)
    raise ValueError(f"'image' (shape {_shape_str(image.shape)}) must have either 3 or 4 "
                     f"dimensions.")


# --- dtypes -----------------------------------------------------------------------------------

@export("image.convert_image_dtype")
def convert_image_dtype(image, dtype, saturate=False, name=None):
    """`image` in `dtype`, rescaled: floats span [0, 1), integers [0, MAX]; `saturate`
    clips before casting to integers.

    >>> tf.image.convert_image_dtype(tf.constant([0, 255], tf.uint8), tf.float32)
    <tf.Tensor: shape=(2,), dtype=float32, numpy=array([0., 1.], dtype=float32)>
    """
    image = as_tensor(image)
    dtype = _d.as_dtype(dtype)
    if not dtype.is_floating and not dtype.is_integer:
        raise AttributeError("dtype must be either floating point or integer")
    if not image.dtype.is_floating and not image.dtype.is_integer:
        raise AttributeError("image dtype must be either floating point or integer")
    if dtype == image.dtype:
        return cast_ops.identity(image, name=name)
    to_dtype = cast_ops.saturate_cast if saturate else cast_ops.cast
    if image.dtype.is_integer and dtype.is_integer:
        scale_in, scale_out = image.dtype.max, dtype.max
        if scale_in > scale_out:
            scaled = math_ops.floordiv(image, (scale_in + 1) // (scale_out + 1))
            return to_dtype(scaled, dtype, name=name)
        return math_ops.multiply(to_dtype(image, dtype), (scale_out + 1) // (scale_in + 1),
                                 name=name)
    if image.dtype.is_floating and dtype.is_floating:
        return cast_ops.cast(image, dtype, name=name)
    if image.dtype.is_integer:
        return math_ops.multiply(cast_ops.cast(image, dtype), 1.0 / image.dtype.max, name=name)
    scaled = math_ops.multiply(image, dtype.max + 0.5)  # + 0.5: the cast truncates
    return to_dtype(scaled, dtype, name=name)


# --- draw_bounding_boxes ----------------------------------------------------------------------

_DEFAULT_COLORS = np.array([[1, 1, 0, 1], [0, 0, 1, 1], [1, 0, 0, 1], [0, 1, 0, 1],
                            [0.5, 0, 0.5, 1], [0.5, 0.5, 0, 1], [0.5, 0, 0, 1], [0, 0, 0.5, 1],
                            [0, 1, 1, 1], [1, 0, 1, 1]], np.float32)


def _to_int64(value):
    """A scaled box coordinate as TF's kernel converts it on x86: truncated toward zero, and
    NaN, inf or anything out of int64's range as int64's smallest value (so such a box is
    inverted or off the image, and not drawn)."""
    if not np.isfinite(value) or abs(float(value)) >= 2.0 ** 63:
        return -2 ** 63
    return int(value)


def _draw_bounding_boxes(xp, images, boxes, colors):
    if images.ndim != 4:
        raise _invalid("The rank of the images should be 4")
    if boxes.ndim != 3:
        raise _invalid(f"boxes must be 3-D{shape_text(boxes.shape)}")
    if boxes.shape[2] != 4:
        raise _invalid(f"The size of the third dimension of the box must be 4. Received: "
                       f"{boxes.shape[2]}")
    if images.shape[0] != boxes.shape[0]:
        raise _invalid("The batch sizes should be the same")
    n, height, width, depth = images.shape
    if depth not in (1, 3, 4):
        raise _invalid("Channel depth should be either 1 (GRY), 3 (RGB), or 4 (RGBA)")
    if colors.ndim != 2:
        raise _invalid(f"colors must be a 2-D matrix{shape_text(colors.shape)}")
    table = np.array(colors, np.float32) if colors.size else _DEFAULT_COLORS.copy()
    if table.shape[1] < depth:
        raise _invalid(f"colors must have equal or more channels than the image provided: "
                       f"{shape_text(colors.shape)}")
    if depth == 1 and not colors.size:  # gray images draw the default colours white
        table[:, 0] = 1
    table = table[:, :depth].astype(images.dtype)
    canvas = np.array(images, copy=True)
    for b in range(n):
        for i, (y0, x0, y1, x1) in enumerate(np.asarray(boxes[b], np.float32)):
            top, bottom = (_to_int64(v * np.float32(height - 1)) for v in (y0, y1))
            left, right = (_to_int64(v * np.float32(width - 1)) for v in (x0, x1))
            if top > bottom or left > right or top >= height or bottom < 0 or \
                    left >= width or right < 0:
                continue
            color = table[i % len(table)]
            rows = slice(max(top, 0), min(bottom, height - 1) + 1)
            cols = slice(max(left, 0), min(right, width - 1) + 1)
            if top >= 0:
                canvas[b, top, cols] = color
            if bottom < height:
                canvas[b, bottom, cols] = color
            if left >= 0:
                canvas[b, rows, left] = color
            if right < width:
                canvas[b, rows, right] = color
    return xp.asarray(canvas)


_DRAW_BOUNDING_BOXES = register(
    "DrawBoundingBoxesV2", _draw_bounding_boxes,
    lambda images, boxes, colors: (images.shape, images.dtype), tied=(0,),
    dtypes=(_d.float32, _d.float16), not_differentiable=None)
# TF registers no gradient of DrawBoundingBoxesV2: differentiating through it raises, as in TF
register_gradient("DrawBoundingBoxesV2")(lambda op, dy: _no_glimpse_gradient(op))
tf_args[_DRAW_BOUNDING_BOXES] = ("images", "boxes", "colors")
batching_rules[_DRAW_BOUNDING_BOXES] = PER_ELEMENT


@export("image.draw_bounding_boxes")
def draw_bounding_boxes(images, boxes, colors, name=None):
    """`images` (batch, height, width, 1, 3 or 4 channels) with the outlines of `boxes`
    (batch, boxes, ``[y_min, x_min, y_max, x_max]`` normalized) drawn in `colors` (one row per
    box, cycling; empty: TF's default colours).

    >>> tf.image.draw_bounding_boxes(tf.zeros([1, 3, 3, 1]), [[[0., 0., 1., 1.]]],
    ...                              [[1.]])[0, ..., 0].numpy()
    array([[1., 1., 1.],
           [1., 0., 1.],
           [1., 1., 1.]], dtype=float32)
    """
    images = defaulted(images, _d.float32, (_d.float32, _d.float16))
    boxes = convert_to_tensor(boxes, _d.float32)
    colors = convert_to_tensor(colors if colors is not None else np.zeros((0, 4), np.float32),
                               _d.float32)
    return dispatch(_DRAW_BOUNDING_BOXES, (images, boxes, colors), {}, name)


@export("compat.v1.image.draw_bounding_boxes")
def draw_bounding_boxes_v1(images, boxes, name=None, colors=None):
    """TF 1's `draw_bounding_boxes`: `colors` optional (TF's default colours).

    >>> tf.compat.v1.image.draw_bounding_boxes(tf.zeros([1, 3, 3, 3]), [[[0., 0., 1., 1.]]]
    ...                                        )[0, 0, 0].numpy()
    array([1., 1., 0.], dtype=float32)
    """
    return draw_bounding_boxes(images, boxes, colors, name)


# -- ImageProjectiveTransformV3: TF's resampling of images through projective transforms (the
# kernel of TF's random rotation, zoom and translation layers in TF's SavedModels) ----------

def _text(value):
    return value.decode() if isinstance(value, bytes) else value


def _map_coordinate(coord, size, fill_mode):
    """Coordinates outside ``[0, size - 1]`` mapped inside by `fill_mode`, as TF's kernel
    (in float32, truncating quotients); CONSTANT keeps them (their reads are the fill)."""
    if fill_mode == "CONSTANT":
        return coord
    if fill_mode != "NEAREST" and size > 1:
        low, high = coord < 0, coord > size - 1
        if fill_mode == "REFLECT":
            sz2 = np.float32(2 * size)
            c = np.where(low & (coord < sz2), sz2 * np.trunc(-coord / sz2) + coord, coord)
            c = np.where(c < -size, c + sz2, -c - 1)
            h = coord - sz2 * np.trunc(coord / sz2)
            h = np.where(h >= size, sz2 - h - 1, h)
        else:  # WRAP
            sz = np.float32(size - 1)
            c = coord + size * (np.trunc(-coord / sz) + 1)
            h = coord - size * np.trunc(coord / sz)
        coord = np.where(low, c, np.where(high, h, coord)).astype(np.float32)
    elif fill_mode != "NEAREST":
        coord = np.zeros_like(coord)
    return np.clip(coord, 0, size - 1).astype(np.float32)


def _projective_transform(xp, images, transforms, output_shape, fill_value, interpolation,
                          fill_mode="CONSTANT", dtype=None):
    interpolation, fill_mode = _text(interpolation), _text(fill_mode)
    if images.ndim != 4:
        raise errors.InvalidArgumentError(None, None, "Input images must have rank 4")
    if transforms.ndim != 2 or transforms.shape[0] not in (1, images.shape[0]) \
            or transforms.shape[1] != 8:
        raise errors.InvalidArgumentError(
            None, None, "Input transform should be num_images x 8 or 1 x 8")
    out_h, out_w = (int(d) for d in np.asarray(output_shape).reshape(-1)[:2])
    batch, height, width, _ = images.shape
    t = np.broadcast_to(transforms.astype(np.float32), (batch, 8))[:, :, None, None]
    ys, xs = np.meshgrid(np.arange(out_h, dtype=np.float32),
                         np.arange(out_w, dtype=np.float32), indexing="ij")
    projection = t[:, 6] * xs + t[:, 7] * ys + np.float32(1)
    with np.errstate(divide="ignore", invalid="ignore"):
        x_in = (t[:, 0] * xs + t[:, 1] * ys + t[:, 2]) / projection
        y_in = (t[:, 3] * xs + t[:, 4] * ys + t[:, 5]) / projection
    x_in = _map_coordinate(x_in, width, fill_mode)
    y_in = _map_coordinate(y_in, height, fill_mode)
    fill = np.float32(fill_value)
    b = np.arange(batch)[:, None, None]

    def read(y, x):
        inside = (y >= 0) & (y < height) & (x >= 0) & (x < width)
        yi = np.clip(np.nan_to_num(y), 0, height - 1).astype(np.int64)
        xi = np.clip(np.nan_to_num(x), 0, width - 1).astype(np.int64)
        return np.where(inside[..., None], images[b, yi, xi].astype(np.float32), fill)

    if interpolation == "NEAREST":
        out = read(np.sign(y_in) * np.floor(np.abs(y_in) + 0.5),
                   np.sign(x_in) * np.floor(np.abs(x_in) + 0.5))
    else:
        x0, y0 = np.floor(x_in), np.floor(y_in)
        x1, y1 = x0 + 1, y0 + 1
        wx0, wx1 = (x1 - x_in)[..., None], (x_in - x0)[..., None]
        top = wx0 * read(y0, x0) + wx1 * read(y0, x1)
        bottom = wx0 * read(y1, x0) + wx1 * read(y1, x1)
        out = (y1 - y_in)[..., None] * top + (y_in - y0)[..., None] * bottom
    out = np.where((projection == 0)[..., None], fill, out)
    return out.astype(images.dtype)


def _projective_transform_rule(images, transforms, output_shape, *_, **__):
    known = rules.known_elements(output_shape) or [None, None]
    dims = images.shape.as_list() if images.shape.rank == 4 else [None] * 4
    return TensorShape([dims[0], *known[:2], dims[3]]), images.dtype


_PROJECTIVE_TRANSFORM = register(
    "ImageProjectiveTransformV3", _projective_transform, _projective_transform_rule,
    dtypes=(_d.uint8, _d.int32, _d.int64, _d.float16, _d.bfloat16, _d.float32, _d.float64),
    type_attr="dtype")
tf_args[_PROJECTIVE_TRANSFORM] = ("images", "transforms", "output_shape", "fill_value")
tf_nodes[_PROJECTIVE_TRANSFORM] = NodeForm(types={"dtype": 0}, outputs=("transformed_images",))
tf_defaults[_PROJECTIVE_TRANSFORM] = {"fill_mode": "CONSTANT"}
batching_rules[_PROJECTIVE_TRANSFORM] = PER_ELEMENT


def _projective_transform_v2(xp, images, transforms, output_shape, interpolation,
                             fill_mode="CONSTANT", dtype=None):
    return _projective_transform(xp, images, transforms, output_shape, 0.0, interpolation,
                                 fill_mode, dtype)


# V3 without the fill value (0): what TF 2.3-2.5's image layers saved
_PROJECTIVE_TRANSFORM_V2 = register(
    "ImageProjectiveTransformV2", _projective_transform_v2, _projective_transform_rule,
    dtypes=(_d.uint8, _d.int32, _d.int64, _d.float16, _d.bfloat16, _d.float32, _d.float64),
    type_attr="dtype")
tf_args[_PROJECTIVE_TRANSFORM_V2] = ("images", "transforms", "output_shape")
tf_nodes[_PROJECTIVE_TRANSFORM_V2] = NodeForm(types={"dtype": 0},
                                              outputs=("transformed_images",))
tf_defaults[_PROJECTIVE_TRANSFORM_V2] = {"fill_mode": "CONSTANT"}
batching_rules[_PROJECTIVE_TRANSFORM_V2] = PER_ELEMENT


def projective_transform(images, transforms, fill_mode, fill_value, interpolation):
    """`images` (a batch) resampled through the projective `transforms` (batch or 1, 8) to
    their own size by ``ImageProjectiveTransformV3``, as Keras's image layers resample
    them: output pixel (x, y) reads the input at ((a0 x + a1 y + a2) / k,
    (b0 x + b1 y + b2) / k), k = c0 x + c1 y + 1 (TF's gradient too)."""
    images = as_tensor(images)
    inputs = (images, convert_to_tensor(transforms, _d.float32), array_ops.shape(images)[1:3],
              convert_to_tensor(fill_value, _d.float32))
    return dispatch(_PROJECTIVE_TRANSFORM, inputs, {"interpolation": interpolation.upper(),
                                                     "fill_mode": fill_mode.upper()})


@register_gradient("ImageProjectiveTransformV2")
@register_gradient("ImageProjectiveTransformV3")
def _projective_transform_grad(op, grad):
    """TF's: the gradient resampled through the inverse transforms (to the images' size,
    fill 0); none for the transforms, shape and fill value."""
    images, transforms = op.inputs[0], op.inputs[1]
    ones = array_ops.ones_like(transforms[:, :1])
    matrices = array_ops.reshape(array_ops.concat([transforms, ones], 1), [-1, 3, 3])
    inverse = array_ops.reshape(linalg_ops.inv(matrices), [-1, 9])
    inverse = (inverse / inverse[:, 8:9])[:, :8]
    size = array_ops.shape(images)[1:3]
    attrs = {"interpolation": op.attrs["interpolation"], "fill_mode": op.attrs["fill_mode"]}
    if op.type == "ImageProjectiveTransformV2":
        return dispatch(_PROJECTIVE_TRANSFORM_V2, (grad, inverse, size), attrs), None, None
    out = dispatch(_PROJECTIVE_TRANSFORM, (grad, inverse, size, as_tensor(0.0)), attrs)
    return out, None, None, None
