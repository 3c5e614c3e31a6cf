"""Dtype conversion and identities: `cast`, `saturate_cast`, `identity`, `stop_gradient`,
`identity_n`, `ensure_shape`.

>>> tf.cast(tf.constant([1.7, -1.7]), tf.int32)
<tf.Tensor: shape=(2,), dtype=int32, numpy=array([ 1, -1], dtype=int32)>
"""
import numpy as np

from eagerflow._src.backend import log as _log
from eagerflow._src.backend.api_export import export
from eagerflow._src.core import dtypes as _d
from eagerflow._src.core import context, errors
from eagerflow._src.core.dispatch import dispatch
from eagerflow._src.core.op_attrs import list_below_minimum
from eagerflow._src.core.node_forms import NodeForm, tf_nodes
from eagerflow._src.core.node_forms import tf_args, tf_defaults
from eagerflow._src.core.registry import (
    attr_dtype_error, kernel_type_name, register, register_gradient, same_shape, takes_narrow)
from eagerflow._src.core.tensor import EagerTensor, Tensor
from eagerflow._src.core.tensor_shape import TensorShape
from eagerflow._src.core.registry import PER_ELEMENT, QUANTIZED, batching_rules
from eagerflow._src.ops import late, shape_rules
from eagerflow._src.ops.wrappers import as_tensor, sparse_values


_NARROW_NUMPY = frozenset(np.dtype(d.as_numpy_dtype) for d in _d.NARROW)


def _cast_kernel(xp, x, DstT):
    target = np.dtype(DstT.as_numpy_dtype)
    if (x.dtype.kind in "OSU") != (DstT is _d.string):  # (TF's kernels cast no strings)
        src = _d.string if x.dtype.kind in "OSU" else _d.from_numpy(x.dtype)
        raise errors.UnimplementedError(
            None, None, f"Cast {kernel_type_name(src)} to {kernel_type_name(DstT)} is not "
                        f"supported")
    if x.dtype in _NARROW_NUMPY or target in _NARROW_NUMPY:
        src = _d.from_numpy(x.dtype)
        if not _d.narrow_cast_supported(src, DstT):
            raise errors.UnimplementedError(
                None, None,
                f"Cast {kernel_type_name(src)} to {kernel_type_name(DstT)} is not supported")
        if x.dtype in _NARROW_NUMPY and x.dtype != target:  # through a wide type
            x = x.astype(np.float32 if src.is_floating else np.int64)
    source = x.dtype  # (its vector steps: see _PACKETS)
    if x.dtype.kind == "c" and target.kind != "c":
        x = x.real  # TF drops the imaginary part
    if x.dtype.kind in "fV" and target.kind in "iu":  # bfloat16's kind is "V"
        x = xp.trunc(x)  # toward zero, as C casts
        if target.kind == "u" and target.itemsize >= 4:
            # TF converts through int64, whose x86 conversion gives 2**63 for NaN, +-inf
            # and values out of its range; uint32 keeps its low half, 0 (NumPy's values
            # differ by sign)
            wide = x.astype(xp.float64)
            bad = ~((wide >= -2.0 ** 63) & (wide < 2.0 ** (64 if target.itemsize == 8 else 63)))
            wide = xp.asarray(xp.where(bad, 0, wide))
            # (in range, float64 to uint64 is exact; to uint32 modular through int64, which
            # NumPy's direct conversion is not always)
            out = (wide if target.itemsize == 8 else wide.astype(xp.int64)).astype(target)
            out = xp.where(bad, xp.asarray(0 if target.itemsize == 4 else 2 ** 63, target), out)
            packet = _PACKETS_U32.get(source, 8)
            if target.itemsize == 4 and packet and x.size >= packet:
                return _packet_cast(xp, x, out, packet)
            return out
        packet = _PACKETS.get(source, 32)
        if target.itemsize <= 2 and packet and x.size >= packet:
            return _packet_cast(xp, x, x.astype(target), packet)
    return xp.asarray(x).astype(target)


# Elements per vector step of TF's x86 CPU conversion of floats (and complex numbers' real
# parts) to 8- and 16-bit integers, by the source dtype (32 for float32; 0: no vector steps,
# every element converted as C does), and to uint32 (8 unless given)
_PACKETS = {np.dtype(_d.bfloat16.as_numpy_dtype): 8, np.dtype(np.float16): 16,
            np.dtype(np.float64): 16, np.dtype(np.complex64): 0, np.dtype(np.complex128): 16}
_PACKETS_U32 = {np.dtype(np.complex128): 0}


def _packet_cast(xp, x, out, packet):
    """`out`, truncated floats `x` converted one at a time as C does (out-of-range values
    wrap), with the leading whole `packet`s of elements converted as TF's x86 CPU kernel's
    vector steps do. To 8- and 16-bit integers those go through int32 (NaN and values beyond
    its range give INT32_MIN) and saturate to the target's range: 300.0 gives 255 as uint8
    there, 44 in the last ``n % packet`` elements. To uint32, values in [-2**31, 2**32) wrap and
    the others give 2**31."""
    flat = x.reshape(-1)
    whole = flat.size - flat.size % packet
    head = flat[:whole].astype(xp.float64)
    info = np.iinfo(out.dtype)
    if info.bits == 32:
        bad = ~((head >= -2.0 ** 31) & (head < 2.0 ** 32))  # (NaN too)
        head = xp.where(bad, 2 ** 31, xp.where(bad, 0, head).astype(xp.int64))
    else:
        bad = ~((head >= -2.0 ** 31) & (head < 2.0 ** 31))
        head = xp.where(bad, min(info.min, 0), xp.clip(head, info.min, info.max))
    return xp.concatenate([head.astype(out.dtype), out.reshape(-1)[whole:]]).reshape(x.shape)


_CAST = register("Cast", _cast_kernel, lambda x, DstT, **_: (x.shape, DstT),
                 tied=(), elementwise=True)
_IDENTITY = register("Identity", lambda xp, x: x, same_shape, tied=(), moves_elements=True)
tf_args[_IDENTITY] = ("input",)
tf_nodes[_CAST] = NodeForm(types={"SrcT": 0}, fixed={"Truncate": False}, outputs=("y",))
# Many tensors passed through as one op (TF's IdentityN); variables ride along as their handles.
# With a ``_gradient_op_type`` attribute, its gradient is the one registered under that name
# (a custom gradient: see autodiff.custom_gradient).
_IDENTITY_N = register("IdentityN", lambda xp, *xs, **_: xs,
                       lambda *xs, **_: [(x.shape, x.dtype) for x in xs], multi=True, tied=(),
                       grad_takes_none=True)
tf_nodes[_IDENTITY_N] = NodeForm(types={"T": "*"}, outputs=("output",),
                                 keep={"_gradient_op_type"})
tf_args[_IDENTITY_N] = ("*input",)
_STOP_GRADIENT = register("StopGradient", lambda xp, x: x, same_shape, tied=(),
                          not_differentiable="gradients stop here by definition")
tf_args[_STOP_GRADIENT] = ("input",)
# The identity whose gradient is an error (``tf.raw_ops.PreventGradient``): a tape or graph
# that needs one raises LookupError with its `message`.
_PREVENT_GRADIENT = register("PreventGradient", lambda xp, x, message="": x, same_shape, tied=())
tf_args[_PREVENT_GRADIENT] = ("input",)
tf_defaults[_PREVENT_GRADIENT] = {"message": ""}
# TF's kernels for the narrow types (float8, int4, ...): casts (see _narrow_cast) and these
takes_narrow(_d.NARROW, _CAST, _IDENTITY, _IDENTITY_N, _STOP_GRADIENT)


@export("cast", "dtypes.cast", "keras.backend.cast")
def cast(x, dtype, name=None):
    """Casts `x` to `dtype` (floats truncate toward zero when cast to integers).

    >>> tf.cast(tf.constant([1, 2]), tf.float32)
    <tf.Tensor: shape=(2,), dtype=float32, numpy=array([1., 2.], dtype=float32)>
    """
    dtype = _d.as_dtype(dtype)
    if type(x) is not EagerTensor:
        if isinstance(x, late.sparse_tensor.SparseTensor):  # the values cast, as in TF
            return late.sparse_tensor.SparseTensor(x.indices, cast(x.values, dtype, name),
                                                   x.dense_shape)
        if isinstance(x, late.indexed_slices.IndexedSlices):
            return late.indexed_slices.IndexedSlices(cast(x.values, dtype, name), x.indices,
                                                     x.dense_shape)
        x = as_tensor(x)
    src = x.dtype  # (DTypes are singletons: `is` spares DType.__eq__'s conversions)
    if src is dtype and (type(x) is EagerTensor or not _lifted(x)):
        return x
    if src.is_complex and dtype.is_floating:
        _log.logger.warning(f"You are casting an input of type {src.name} to an incompatible "
                            f"dtype {dtype.name}.  This will discard the imaginary part and "
                            f"may not be what you intended.")
    if (src is _d.string or dtype is _d.string) and context.executing_eagerly():
        # (a graph takes the op, which fails as it runs)
        raise errors.eager_error(
            errors.UnimplementedError, "Cast",
            f"Cast {kernel_type_name(x.dtype)} to {kernel_type_name(dtype)} is not supported")
    try:
        return dispatch(_CAST, (x,), {"DstT": dtype}, name=name)
    except errors.OpError as e:  # (TF's wrapper opens a name scope)
        raise errors.scoped(e) from None


def _lifted(x):
    """Whether `x` is a tensor of a graph not being built whose ops join it (a Keras tensor
    outside a layer's call): a cast of it, even to its own dtype, is an op there (a layer, as
    in tf_keras)."""
    graph = getattr(x, "graph", None)
    return getattr(graph, "lifts_eager_ops", False) and context.get().graph is not graph


def _bound_in(src, limit, toward):
    """`limit` as a value of dtype `src`, stepped toward `toward` if rounding overshot it."""
    v = np.asarray(limit, src.as_numpy_dtype)
    if src.is_floating and (v > limit if toward < limit else v < limit):
        v = np.nextafter(v, np.asarray(toward, v.dtype))
    return v


def _float_limits(src, dst):
    """TF's clamp bounds of float dtype `src` for a cast to real dtype `dst`: the range's
    ends rounded to `src` and stepped toward 0 where rounding overshot, compared in the
    dtypes' promoted type (float64 with bfloat16). There, 2**63 is not above int64's max,
    so TF's bound for int64 and uint64 stays 2**63, which the cast wraps (to INT64_MIN and
    2**63): TF's results, kept."""
    np_src, np_dst = np.dtype(src.as_numpy_dtype), np.dtype(dst.as_numpy_dtype)
    promoted = (np.float64 if _d.bfloat16 in (src, dst) else np.promote_types(np_src, np_dst))
    with np.errstate(over="ignore"):
        lo = np.asarray(max(src.min, dst.min), np_src)
        hi = np.asarray(min(float(src.max), float(dst.max)), np_src)
        if np.asarray(lo, promoted) < np.asarray(dst.min, promoted):
            lo = np.nextafter(lo, np.zeros((), np_src))
        if np.asarray(hi, promoted) > np.asarray(dst.max, promoted):
            hi = np.nextafter(hi, np.zeros((), np_src))
    return lo, hi


@export("dtypes.saturate_cast", "saturate_cast")
def saturate_cast(value, dtype, name=None):
    """Casts `value` to `dtype`, clamping to the target's range first.

    Complex values keep only their real part unless `dtype` is complex too (then
    both parts are clamped); bool and string values have no range (TypeError). As in TF,
    floats are clamped to the bounds nearest the target's range that they can hold
    (inf to int32 is 2147483520 from float32), even to a wider float type (inf to float64
    is float32's max from float32).

    >>> tf.saturate_cast(tf.constant([300.0, -5.0]), tf.uint8)
    <tf.Tensor: shape=(2,), dtype=uint8, numpy=array([255,   0], dtype=uint8)>
    """
    dtype = _d.as_dtype(dtype)
    value = as_tensor(value)
    if value.dtype.is_complex and not dtype.is_complex:
        _log.logger.warning("Casting complex to real discards imaginary part.")
        value = late.math_ops.real(value)
    src, dst = value.dtype.real_dtype, dtype.real_dtype

    def clamp(part):
        if src.is_floating and not value.dtype.is_complex:
            lo, hi = _float_limits(src, dst)
            return late.math_ops.minimum(late.math_ops.maximum(part, lo), hi)
        if src.min < dst.min:
            part = late.math_ops.maximum(part, _bound_in(src, dst.min, 0))
        if src.max > dst.max:
            part = late.math_ops.minimum(part, _bound_in(src, dst.max, 0))
        return part

    if value.dtype.is_complex:
        value = late.math_ops.complex(clamp(late.math_ops.real(value)),
                                      clamp(late.math_ops.imag(value)))
    else:
        value = clamp(value)
    return cast(value, dtype, name=name)


@export("identity")
def identity(input, name=None):
    """Returns a tensor with the same shape and contents as `input`.

    >>> tf.identity(tf.constant([1, 2]))
    <tf.Tensor: shape=(2,), dtype=int32, numpy=array([1, 2], dtype=int32)>
    """
    if isinstance(input, late.sparse_tensor.SparseTensor):
        return sparse_values(identity, input, name)
    if isinstance(input, late.indexed_slices.IndexedSlices):  # (a gradient stays sparse)
        dense_shape = input.dense_shape
        return late.indexed_slices.IndexedSlices(
            identity(input.values, name), identity(input.indices),
            None if dense_shape is None else identity(dense_shape))
    spec = None if isinstance(input, Tensor) else getattr(input, "_type_spec", None)
    if hasattr(spec, "_to_components"):  # a composite (an extension type): each component's
        return spec._from_components([identity(c) for c in spec._to_components(input)])
    return dispatch(_IDENTITY, (as_tensor(input),), name=name)


@export("stop_gradient")
def stop_gradient(input, name=None):
    """Returns `input` unchanged, as a value gradients do not flow through.

    >>> tf.stop_gradient(tf.constant([1.0]))
    <tf.Tensor: shape=(1,), dtype=float32, numpy=array([1.], dtype=float32)>
    """
    return dispatch(_STOP_GRADIENT, (as_tensor(input),), name=name)


@export("identity_n")
def identity_n(input, name=None):
    """Returns the identity of each tensor of the list `input`.

    >>> tf.identity_n([tf.constant(1), 2.0])
    [<tf.Tensor: shape=(), dtype=int32, numpy=1>, <tf.Tensor: shape=(), dtype=float32, numpy=2.0>]
    """
    if isinstance(input, Tensor) and not context.executing_eagerly():
        raise TypeError(f"Expected list for 'input' argument to 'IdentityN' Op, not {input}.")
    tensors = tuple(as_tensor(t) for t in input)
    if not tensors:  # IdentityN takes at least one input
        raise list_below_minimum("IdentityN", "T", 0, 1, name)
    return list(dispatch(_IDENTITY_N, tensors, name=name))


def _dims_text(dims):
    return "[" + ",".join("?" if d is None else str(d) for d in dims) + "]"


def _ensure_shape(xp, x, shape):
    if not TensorShape(shape).is_compatible_with(x.shape):
        raise errors.InvalidArgumentError(
            None, None, f"Shape of tensor input {_dims_text(x.shape)} is not compatible with "
                        f"expected shape {_dims_text(shape)}.")
    return x


def _ensure_shape_rule(x, shape):
    return x.shape.merge_with(TensorShape(shape)), x.dtype


_ENSURE_SHAPE = register("EnsureShape", _ensure_shape, _ensure_shape_rule, tied=())
takes_narrow(_d.NARROW, _ENSURE_SHAPE)


@export("ensure_shape")
def ensure_shape(x, shape, name=None):
    """Returns `x`, checking that its shape is compatible with `shape` (None: any size).

    >>> tf.ensure_shape(tf.constant([1, 2]), [None])
    <tf.Tensor: shape=(2,), dtype=int32, numpy=array([1, 2], dtype=int32)>
    """
    shape = TensorShape(shape)
    dims = None if shape.rank is None else tuple(shape.as_list())
    return dispatch(_ENSURE_SHAPE, (as_tensor(x),), {"shape": dims}, name=name)


# -- gradients ---------------------------------------------------------------------------
@register_gradient("Cast")
def _cast_grad(op, dy):
    """Casts between floating/complex types pass gradients back; others have none."""
    src = op.inputs[0].dtype
    if (src.is_floating or src.is_complex) and (dy.dtype.is_floating or dy.dtype.is_complex):
        return cast(dy, src)
    return None


register_gradient("Identity", passes_sparse=True)(lambda op, dy: dy)
register_gradient("IdentityN")(lambda op, *dys: list(dys))
register_gradient("EnsureShape")(lambda op, dy: dy)


@register_gradient("PreventGradient")
def _prevent_gradient_grad(op, dy):
    message = op.attrs.get("message", "")
    if isinstance(message, str):
        message = message.encode()
    raise LookupError(f"Gradient explicitly disabled. Reason: {message!r}")


# No batching rule: a vectorized graph runs these once per batch element.
batching_rules.assign(PER_ELEMENT, _ENSURE_SHAPE, _IDENTITY_N)


_BITCAST_TYPES = (_d.bfloat16, _d.float16, _d.float32, _d.float64, _d.int64, _d.int32,
                  _d.uint8, _d.uint16, _d.uint32, _d.uint64, _d.int8, _d.int16, _d.complex64,
                  _d.complex128, _d.qint8, _d.quint8, _d.qint16, _d.quint16, _d.qint32)


def _bitcast_kernel(xp, x, type):
    src, dst = x.dtype.itemsize, np.dtype(type.as_numpy_dtype).itemsize
    if src < dst and (x.ndim == 0 or x.shape[-1] != dst // src):
        raise errors.InvalidArgumentError(
            None, "Bitcast", f"Cannot bitcast from {_d.from_numpy(x.dtype).as_datatype_enum} to "
                             f"{type.as_datatype_enum}")
    if not x.flags.c_contiguous:  # (a view needs contiguous bytes; a 0-d array stays 0-d)
        x = x.copy()
    if src < dst:
        return x.view(type.as_numpy_dtype).reshape(x.shape[:-1])
    if src > dst:
        return x.reshape(x.shape + (1,)).view(type.as_numpy_dtype)
    return x.view(type.as_numpy_dtype)


def _bitcast_rule(x, type, **_):
    src, dst = x.dtype.size, type.size
    shape = x.shape
    if src > dst:
        return shape.concatenate([src // dst]), type
    if src < dst and shape.rank is not None:
        if shape.rank == 0:
            raise shape_rules.shape_error(
                "Bitcast", "Shape must be at least rank 1 but is rank 0", [shape])
        if shape[-1] is not None and shape[-1] != dst // src:
            raise shape_rules.shape_error(
                "Bitcast", f"Cannot bitcast from {x.dtype.as_datatype_enum} to "
                           f"{type.as_datatype_enum} due to shape. {shape[-1]} does not match "
                           f"{dst // src}", [shape])
        return shape[:-1], type
    return (shape if src == dst else TensorShape(None)), type


_BITCAST = register("Bitcast", _bitcast_kernel, _bitcast_rule, dtypes=_BITCAST_TYPES)
takes_narrow(QUANTIZED, _BITCAST)  # (its kernel views quantized integers too, as TF's)
batching_rules.assign(PER_ELEMENT, _BITCAST)


@register_gradient("Bitcast")
def _bitcast_grad(op, grad):
    # TF registers no gradient for Bitcast: differentiating through it is its LookupError
    raise LookupError(f"gradient registry has no entry for: {op.type}")
tf_nodes[_BITCAST] = NodeForm(types={"T": 0}, outputs=("output",))
tf_args[_BITCAST] = ("input",)


@export("bitcast")
def bitcast(input, type, name=None):
    """Reinterprets the bytes of `input` as dtype `type`, without copying values.

    To a narrower type the result gains a last dimension (the ratio of the sizes);
    to a wider one, the last dimension of `input` must equal that ratio and is dropped.

    >>> tf.bitcast(tf.constant([1.0]), tf.int32)
    <tf.Tensor: shape=(1,), dtype=int32, numpy=array([1065353216], dtype=int32)>
    >>> tf.bitcast(tf.constant([1], tf.int32), tf.int16)
    <tf.Tensor: shape=(1, 2), dtype=int16, numpy=array([[1, 0]], dtype=int16)>
    """
    type = _d.as_dtype(type)
    input = as_tensor(input)
    if type not in _BITCAST_TYPES:
        raise _bitcast_type_error("type", type)
    return dispatch(_BITCAST, (input,), {"type": type}, name=name)


def _bitcast_type_error(attr, dtype):
    return attr_dtype_error("Bitcast", attr, dtype, _BITCAST_TYPES, param="type")
