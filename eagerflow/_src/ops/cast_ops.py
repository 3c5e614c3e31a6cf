"""Dtype conversion and identity: `cast`, `saturate_cast`, `identity`.

>>> cast(constant([1.7, -1.7]), int32)
<tf.Tensor: shape=(2,), dtype=int32, numpy=array([ 1, -1], dtype=int32)>
"""
import numpy as np

from eagerflow._src.core import dtypes as _d
from eagerflow._src.core.dispatch import dispatch
from eagerflow._src.core.registry import register, same_shape
from eagerflow._src.ops.wrappers import as_tensor


def _cast_kernel(xp, x, DstT):
    target = np.dtype(DstT.as_numpy_dtype)
    if x.dtype.kind == "c" and target.kind != "c":
        x = x.real  # TF drops the imaginary part
    if x.dtype.kind == "f" and target.kind in "iu":
        x = xp.trunc(x)  # toward zero, as C casts
    return xp.asarray(x).astype(target)


_CAST = register("Cast", _cast_kernel, lambda x, DstT, **_: (x.shape, DstT), tied=())
_IDENTITY = register("Identity", lambda xp, x: x, same_shape, tied=())


def cast(x, dtype, name=None):
    """Casts `x` to `dtype` (floats truncate toward zero when cast to integers).

    >>> cast(constant([1, 2]), float32)
    <tf.Tensor: shape=(2,), dtype=float32, numpy=array([1., 2.], dtype=float32)>
    """
    dtype = _d.as_dtype(dtype)
    x = as_tensor(x)
    if x.dtype == dtype:
        return x
    if x.dtype == _d.string or dtype == _d.string:
        from eagerflow._src.core import errors
        raise errors.UnimplementedError(
            None, "Cast", f"Cast {x.dtype.name} to {dtype.name} is not supported [Op:Cast]")
    return dispatch(_CAST, (x,), {"DstT": dtype}, name=name)


def _bound_in(src, limit, toward):
    """`limit` as a value of dtype `src`, stepped toward `toward` if rounding overshot it."""
    v = np.asarray(limit, src.as_numpy_dtype)
    if src.is_floating and (v > limit if toward < limit else v < limit):
        v = np.nextafter(v, np.asarray(toward, v.dtype))
    return v


def saturate_cast(value, dtype, name=None):
    """Casts `value` to `dtype`, clamping to the target's range first.

    >>> saturate_cast(constant([300.0, -5.0]), uint8)
    <tf.Tensor: shape=(2,), dtype=uint8, numpy=array([255,   0], dtype=uint8)>
    """
    from eagerflow._src.ops import math_ops
    dtype = _d.as_dtype(dtype)
    value = as_tensor(value)
    if value.dtype.is_complex and not dtype.is_complex:
        value = cast(value, value.dtype.real_dtype)
    src = value.dtype
    if src.is_numeric and not src.is_complex and dtype.is_numeric and not dtype.is_complex:
        if src.min < dtype.min:
            value = math_ops.maximum(value, _bound_in(src, dtype.min, 0))
        if src.max > dtype.max:
            value = math_ops.minimum(value, _bound_in(src, dtype.max, 0))
    return cast(value, dtype, name=name)


def identity(input, name=None):
    """Returns a tensor with the same shape and contents as `input`.

    >>> identity(constant([1, 2]))
    <tf.Tensor: shape=(2,), dtype=int32, numpy=array([1, 2], dtype=int32)>
    """
    return dispatch(_IDENTITY, (as_tensor(input),), name=name)
