"""`tf.nn.max_pool_with_argmax`: 2-D max pooling that also returns where each maximum was,
as flat indices ``((b * height + y) * width + x) * channels + c`` (``b`` only with
`include_batch_in_index`).

>>> out, where = tf.nn.max_pool_with_argmax(tf.reshape(tf.range(4.0), [1, 2, 2, 1]), 2, 2,
...                                         "VALID")
>>> out.numpy().ravel(), where.numpy().ravel()
(array([3.], dtype=float32), array([3]))
"""
import collections

import numpy as np

from eagerflow._src.backend.api_export import export
from eagerflow._src.core import dtypes as _d
from eagerflow._src.core import errors
from eagerflow._src.core.dispatch import dispatch
from eagerflow._src.core.node_forms import NodeForm, tf_args, tf_nodes
from eagerflow._src.core.registry import PER_ELEMENT, batching_rules, register, \
    register_gradient
from eagerflow._src.core.tensor_shape import TensorShape
from eagerflow._src.ops import array_ops
from eagerflow._src.ops.wrappers import as_tensor

_REAL = (_d.float16, _d.bfloat16, _d.float32, _d.float64, _d.int8, _d.int16, _d.int32,
         _d.int64, _d.uint8, _d.uint16, _d.uint32, _d.uint64)


def _geometry(size, k, s, padding):
    if padding == "VALID":
        out = (size - k) // s + 1
        return max(out, 0), 0
    out = -(-size // s)
    return out, max((out - 1) * s + k - size, 0) // 2


def _max_pool_argmax(xp, x, ksize, strides, padding, Targmax=_d.int64,
                     include_batch_in_index=False):
    if x.ndim != 4:
        raise errors.InvalidArgumentError(None, None, "input must be 4-dimensional")
    batch, height, width, channels = x.shape
    _, kh, kw, _ = ksize
    _, sh, sw, _ = strides
    out_h, top = _geometry(height, kh, sh, padding)
    out_w, left = _geometry(width, kw, sw, padding)
    low = -np.inf if x.dtype.kind == "f" else np.iinfo(x.dtype).min
    padded = np.full((batch, height + 2 * kh + top, width + 2 * kw + left, channels), low,
                     x.dtype)
    padded[:, top:top + height, left:left + width] = x
    windows, rows, cols = [], [], []
    for dy in range(kh):
        for dx in range(kw):
            windows.append(padded[:, dy:dy + sh * out_h:sh, dx:dx + sw * out_w:sw][
                :, :out_h, :out_w])
            rows.append(dy)
            cols.append(dx)
    stacked = np.stack(windows)  # [k, B, out_h, out_w, C]
    best = np.argmax(stacked, axis=0)  # the first maximum in the window's row-major order
    out = np.take_along_axis(stacked, best[None], 0)[0]
    y = np.asarray(rows)[best] + (np.arange(out_h) * sh - top)[None, :, None, None]
    x_pos = np.asarray(cols)[best] + (np.arange(out_w) * sw - left)[None, None, :, None]
    index = (y * width + x_pos) * channels + np.arange(channels)
    if include_batch_in_index:
        index = index + (np.arange(batch) * height * width * channels)[:, None, None, None]
    return out, index.astype(_d.as_dtype(Targmax).as_numpy_dtype)


def _rule(x, ksize, strides, padding, Targmax=_d.int64, **_):
    shape = x.shape
    if shape.rank is None:
        return [(TensorShape(None), x.dtype), (TensorShape(None), _d.as_dtype(Targmax))]
    dims = []
    for size, k, s in ((shape[1], ksize[1], strides[1]), (shape[2], ksize[2], strides[2])):
        dims.append(None if size is None else _geometry(size, k, s, padding)[0])
    out = TensorShape([shape[0], *dims, shape[3]])
    return [(out, x.dtype), (out, _d.as_dtype(Targmax))]


_MAX_POOL_ARGMAX = register("MaxPoolWithArgmax", _max_pool_argmax, _rule, multi=True,
                            dtypes=_REAL, grad_takes_none=True)
tf_args[_MAX_POOL_ARGMAX] = ("input",)
tf_nodes[_MAX_POOL_ARGMAX] = NodeForm(outputs=("output", "argmax"))
batching_rules[_MAX_POOL_ARGMAX] = PER_ELEMENT


@register_gradient("MaxPoolWithArgmax")
def _max_pool_argmax_grad(op, grad, _):
    """Each output's gradient added at the input position its maximum came from."""
    x, argmax = op.inputs[0], op.outputs[1]
    shape = array_ops.shape(x, out_type=argmax.dtype)
    size = shape[1] * shape[2] * shape[3]
    index = argmax
    if not op.get_attr("include_batch_in_index"):
        offsets = array_ops.reshape(array_ops.range(shape[0], dtype=argmax.dtype) * size,
                                    [-1, 1, 1, 1])
        index = argmax + offsets
    flat = array_ops.scatter_nd(array_ops.reshape(index, [-1, 1]),
                                array_ops.reshape(grad, [-1]),
                                array_ops.reshape(shape[0] * size, [1]))
    return array_ops.reshape(flat, shape)


_Result = collections.namedtuple("MaxPoolWithArgmax", ["output", "argmax"])


def _four(value, name):
    values = [value] if isinstance(value, int) else list(value)
    if len(values) == 1:
        return [1, values[0], values[0], 1]
    if len(values) == 2:
        return [1, values[0], values[1], 1]
    if len(values) == 4:
        return values
    raise ValueError(f"{name} should be of length 1, 2 or 4. Received: {name}={value} of "
                     f"length {len(values)}")


@export("nn.max_pool_with_argmax")
def max_pool_with_argmax(input, ksize, strides, padding, data_format="NHWC",
                         output_dtype=_d.int64, include_batch_in_index=False, name=None):
    """2-D max pooling of NHWC `input`, and the flat index of each maximum (see the
    module's docstring) as `output_dtype` (int32 or int64)."""
    if data_format != "NHWC":
        raise ValueError(f"`data_format` values other  than 'NHWC' are not supported. "
                         f"Received: data_format={data_format}")
    attrs = {"ksize": tuple(_four(ksize, "ksize")), "strides": tuple(_four(strides, "strides")),
             "padding": padding, "Targmax": _d.as_dtype(output_dtype),
             "include_batch_in_index": bool(include_batch_in_index)}
    return _Result(*dispatch(_MAX_POOL_ARGMAX, (as_tensor(input),), attrs, name))
