"""Grayscale morphology: `dilation2d` and `erosion2d` of NHWC images by per-channel
structuring functions.

``Dilation2D`` takes, at each output position, the maximum over the window of
``input + filter`` (the window placed as a convolution's, `strides` apart with taps
`rates` apart; positions outside the input take no part). Its gradients route each output's
gradient to the input element and filter tap of that maximum, the first one in the
window's row-major order on a tie, as TF's kernels do. Erosion is dilation of the
negated image by the reflected filter, negated.

>>> x = tf.constant([[[[1.0], [5.0], [2.0]]]])
>>> tf.nn.dilation2d(x, tf.zeros([1, 2, 1]), [1, 1, 1, 1], "VALID", "NHWC",
...                  [1, 1, 1, 1])[0, 0, :, 0].numpy()
array([5., 5.], dtype=float32)
"""
import numpy as np

from eagerflow._src.backend.api_export import export
from eagerflow._src.core import dtypes as _d
from eagerflow._src.core import errors
from eagerflow._src.core.dispatch import dispatch
from eagerflow._src.core.node_forms import NodeForm, tf_args, tf_nodes
from eagerflow._src.core.registry import PER_ELEMENT, REAL_NUMBER_TYPES, batching_rules, \
    no_gradient_entry, register, register_gradient
from eagerflow._src.core.tensor_shape import TensorShape
from eagerflow._src.ops import array_ops, math_ops
from eagerflow._src.ops.conv_ops import _window
from eagerflow._src.ops.wrappers import as_tensor, defaulted


def _invalid(message):
    return errors.op_error(errors.InvalidArgumentError, "Dilation2D", message)


def _geometry(x, w, strides, rates, padding):
    """(output height, output width, top pad, left pad), with TF's errors."""
    if x.ndim != 4:
        raise _invalid(f"input must be 4-dimensional{list(x.shape)}")
    if w.ndim != 3:
        raise _invalid(f"filter must be 3-dimensional: {list(w.shape)}")
    if x.shape[3] != w.shape[2]:
        raise _invalid(f"input and filter must have the same depth: {x.shape[3]} vs "
                       f"{w.shape[2]}")
    (oh, ow), ((top, _), (left, _)) = _window(list(x.shape[1:3]), list(w.shape[:2]),
                                              strides[1:3], rates[1:3], padding)
    return oh, ow, top, left


def _taps(x, w, strides, rates, padding):
    """``input + filter`` at every window tap, ``(taps, n, oh, ow, c)`` (the lowest value
    where a tap falls outside the input), and the input index of each tap."""
    oh, ow, top, left = _geometry(x, w, strides, rates, padding)
    (kh, kw, _), (sh, sw), (rh, rw) = w.shape, strides[1:3], rates[1:3]
    rows = np.arange(oh)[:, None] * sh - top + np.arange(kh)[None, :] * rh  # (oh, kh)
    cols = np.arange(ow)[:, None] * sw - left + np.arange(kw)[None, :] * rw  # (ow, kw)
    inside = ((rows >= 0) & (rows < x.shape[1]))[:, None, :, None] & \
        ((cols >= 0) & (cols < x.shape[2]))[None, :, None, :]  # (oh, ow, kh, kw)
    gathered = x[:, np.clip(rows, 0, x.shape[1] - 1)[:, None, :, None],
                 np.clip(cols, 0, x.shape[2] - 1)[None, :, None, :]]  # (n, oh, ow, kh, kw, c)
    values = gathered + w
    lowest = _d.from_numpy(x.dtype).min
    values = np.where(inside[None, :, :, :, :, None], values, lowest)
    n, c = x.shape[0], x.shape[3]
    taps = np.moveaxis(values.reshape(n, oh, ow, kh * kw, c), 3, 0)
    return taps, rows, cols


def _dilation(xp, x, w, strides, rates, padding):
    return _taps(x, w, strides, rates, padding)[0].max(axis=0)


def _winners(x, w, strides, rates, padding):
    """Each output's winning tap: (batch, output row, output col, channel, tap index, input
    row, input col) as flat index arrays."""
    taps, rows, cols = _taps(x, w, strides, rates, padding)
    best = taps.argmax(axis=0)  # (n, oh, ow, c): the first maximum
    n, oh, ow, c = best.shape
    b, y, xx, ch = np.indices(best.shape).reshape(4, -1)
    k = best.reshape(-1)
    kh, kw = divmod(k, w.shape[1])
    return b, y, xx, ch, kh, kw, rows[y, kh], cols[xx, kw]


def _backprop_input(xp, x, w, dy, strides, rates, padding):
    b, y, xx, ch, _, _, row, col = _winners(x, w, strides, rates, padding)
    out = np.zeros(x.shape, dy.dtype)
    np.add.at(out, (b, row, col, ch), dy[b, y, xx, ch])
    return out


def _backprop_filter(xp, x, w, dy, strides, rates, padding):
    b, y, xx, ch, kh, kw, _, _ = _winners(x, w, strides, rates, padding)
    out = np.zeros(w.shape, dy.dtype)
    np.add.at(out, (kh, kw, ch), dy[b, y, xx, ch])
    return out


def _dilation_rule(x, w, strides, rates, padding):
    if x.shape.rank is None or w.shape.rank is None:
        return TensorShape([None] * 4), x.dtype
    n, h, wd, c = x.shape.as_list()
    kh, kw, _ = w.shape.as_list()
    outs, _ = _window([h, wd], [kh, kw], strides[1:3], rates[1:3], padding)
    return TensorShape([n, *outs, c]), x.dtype


def _like_first(x, w, dy, **attrs):
    return x.shape, x.dtype


def _like_second(x, w, dy, **attrs):
    return w.shape, w.dtype


_DILATION = register("Dilation2D", _dilation, _dilation_rule, tied=(0, 1),
                     dtypes=REAL_NUMBER_TYPES)
_BACKPROP_INPUT = register("Dilation2DBackpropInput", _backprop_input, _like_first,
                           tied=(0, 1, 2), dtypes=REAL_NUMBER_TYPES)
_BACKPROP_FILTER = register("Dilation2DBackpropFilter", _backprop_filter, _like_second,
                            tied=(0, 1, 2), dtypes=REAL_NUMBER_TYPES)
no_gradient_entry("Dilation2DBackpropInput", "Dilation2DBackpropFilter")  # (second derivatives)
for _op, _names, _out in ((_DILATION, ("input", "filter"), "output"),
                          (_BACKPROP_INPUT, ("input", "filter", "out_backprop"), "in_backprop"),
                          (_BACKPROP_FILTER, ("input", "filter", "out_backprop"),
                           "filter_backprop")):
    tf_args[_op] = _names
    tf_nodes[_op] = NodeForm(outputs=(_out,))
batching_rules.assign(PER_ELEMENT, _DILATION, _BACKPROP_INPUT, _BACKPROP_FILTER)


@register_gradient("Dilation2D")
def _dilation_grad(op, dy):
    x, w = op.inputs
    attrs = {k: op.attrs[k] for k in ("strides", "rates", "padding")}
    return (dispatch(_BACKPROP_INPUT, (x, w, dy), attrs),
            dispatch(_BACKPROP_FILTER, (x, w, dy), attrs))


def _attrs(strides, dilations, padding, data_format):
    if data_format != "NHWC":
        raise ValueError(f"`data_format` values other  than 'NHWC' are not supported. "
                         f"Received: data_format={data_format}")
    return {"strides": tuple(int(s) for s in strides), "rates": tuple(int(r) for r in dilations),
            "padding": padding}


@export("nn.dilation2d")
def dilation2d(input, filters, strides, padding, data_format, dilations, name=None):  # noqa: A002
    """Grayscale dilation of NHWC `input` by `filters` (``[height, width, channels]``): the
    maximum of ``input + filters`` over each window.

    >>> tf.nn.dilation2d(tf.ones([1, 3, 3, 1]), tf.ones([2, 2, 1]), [1, 1, 1, 1], "VALID",
    ...                  "NHWC", [1, 1, 1, 1]).shape
    TensorShape([1, 2, 2, 1])
    """
    input = as_tensor(input)  # noqa: A001
    return dispatch(_DILATION, (input, defaulted(filters, input.dtype, (input.dtype,))),
                    _attrs(strides, dilations, padding, data_format), name)


@export("nn.erosion2d")
def erosion2d(value, filters, strides, padding, data_format, dilations, name=None):
    """Grayscale erosion of NHWC `value` by `filters`: the minimum of ``value - filters``
    (the filter reflected) over each window.

    >>> x = tf.constant([[[[1.0], [5.0], [2.0]]]])
    >>> tf.nn.erosion2d(x, tf.zeros([1, 2, 1]), [1, 1, 1, 1], "VALID", "NHWC",
    ...                 [1, 1, 1, 1])[0, 0, :, 0].numpy().tolist()
    [1.0, 2.0]
    """
    reflected = array_ops.reverse(as_tensor(filters), [0, 1])
    return math_ops.negative(dispatch(
        _DILATION, (math_ops.negative(as_tensor(value)), reflected),
        _attrs(strides, dilations, padding, data_format), name))


@export("compat.v1.nn.dilation2d")
def dilation2d_v1(input, filter=None, strides=None, rates=None, padding=None,  # noqa: A002
                  name=None, filters=None, dilations=None):
    """TF 1's `dilation2d`: `filter` and `rates` (or their TF 2 names)."""
    return dilation2d(input, filter if filters is None else filters, strides, padding, "NHWC",
                      rates if dilations is None else dilations, name)


@export("compat.v1.nn.erosion2d")
def erosion2d_v1(value, kernel, strides, rates, padding, name=None):
    """TF 1's `erosion2d`: the filter as `kernel`, the dilations as `rates`."""
    return erosion2d(value, kernel, strides, padding, "NHWC", rates, name)
