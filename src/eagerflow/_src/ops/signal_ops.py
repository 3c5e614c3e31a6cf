"""Spectral ops (``tf.signal``): FFTs over the innermost 1-3 axes, shifts, windows, framing.

The transforms run on the array module's ``fft`` (NumPy's pocketfft on the host);
TF's FFT library rounds differently, so results agree to float precision, not bit
for bit.  One kernel maker and one shape-rule maker serve all twelve FFT ops.

>>> tf.signal.fft(tf.constant([1 + 0j, 1j]))
<tf.Tensor: shape=(2,), dtype=complex128, numpy=array([1.+1.j, 1.-1.j])>
"""
import math

import numpy as np

from eagerflow._src.backend.api_export import export
from eagerflow._src.backend.arrays import quiet
from eagerflow._src.core import context
from eagerflow._src.core import dtypes as _d
from eagerflow._src.core import errors
from eagerflow._src.core.errors import shape_text
from eagerflow._src.core.convert import convert_to_tensor, get_static_value, is_tensor_like
from eagerflow._src.core.dispatch import dispatch
from eagerflow._src.core.node_forms import AttrInput, NodeForm, tf_nodes
from eagerflow._src.core.registry import COMPLEX, register, register_gradient
from eagerflow._src.core.tensor import Tensor
from eagerflow._src.core.tensor_shape import TensorShape
from eagerflow._src.core.registry import PER_ELEMENT, batching_rules
from eagerflow._src.ops import array_ops, late, math_ops
from eagerflow._src.ops import shape_rules as rules
from eagerflow._src.ops.array_ops import _int, _ints
from eagerflow._src.ops.cast_ops import cast
from eagerflow._src.ops.wrappers import as_tensor

_REAL = (_d.float32, _d.float64)
_COMPLEX_OF = {_d.float32: _d.complex64, _d.float64: _d.complex128}
_SUFFIX = {1: "", 2: "2D", 3: "3D"}

# kind: (array-module function, input dtypes, TF's type attr, output dtype of the input's)
_KINDS = {
    "FFT": ("fftn", COMPLEX, "Tcomplex", lambda d: d),
    "IFFT": ("ifftn", COMPLEX, "Tcomplex", lambda d: d),
    "RFFT": ("rfftn", _REAL, "Treal", lambda d: _COMPLEX_OF[d]),
    "IRFFT": ("irfftn", COMPLEX, "Tcomplex", lambda d: d.real_dtype),
}


def _invalid(message):
    return errors.InvalidArgumentError(None, None, message)


def _half_length(n):
    """Length of a real signal's spectrum: the non-negative frequencies (0 for no signal)."""
    return None if n is None else n // 2 + 1 if n else 0


def _inferred_length(kind, dims):
    """TF's default `fft_length` for an input whose innermost sizes are `dims`."""
    if kind != "IRFFT":
        return list(dims)
    last = dims[-1]
    return list(dims[:-1]) + [None if last is None else max(2 * (last - 1), 0)]


def _output_dims(kind, dims, fft_length):
    """The innermost output sizes for input sizes `dims` (None: unknown)."""
    if kind in ("FFT", "IFFT"):
        return list(dims)
    n = list(fft_length) if fft_length is not None else _inferred_length(kind, dims)
    return n[:-1] + [_half_length(n[-1])] if kind == "RFFT" else n


def _kernel(kind, rank):
    fn_name, _, _, out_dtype = _KINDS[kind]
    axes = tuple(range(-rank, 0))

    @quiet
    def kernel(xp, x, fft_length=None):
        if x.ndim < rank:
            raise _invalid(f"Input must have rank of at least {rank} but got: "
                           f"{shape_text(x.shape)}")
        dtype = out_dtype(_d.from_numpy(x.dtype)).as_numpy_dtype
        n = fft_length or (None if kind in ("FFT", "IFFT")
                           else tuple(_inferred_length(kind, x.shape[-rank:])))
        out_shape = x.shape[:-rank] + tuple(_output_dims(kind, x.shape[-rank:], n))
        if 0 in x.shape or 0 in out_shape:  # the FFT libraries refuse empty transforms
            return xp.zeros(out_shape, dtype)
        return getattr(xp.fft, fn_name)(x, s=n, axes=axes).astype(dtype, copy=False)
    return kernel


def _rule(kind, rank):
    out_dtype = _KINDS[kind][3]

    def rule(x, fft_length=None):
        dtype = out_dtype(x.dtype)
        rules.check_rank(f"{kind}{_SUFFIX[rank]}", [x], 0, at_least=rank)
        if x.shape.rank is None:
            return TensorShape(None), dtype
        dims = x.shape.as_list()
        return TensorShape(dims[:-rank] + _output_dims(kind, dims[-rank:], fft_length)), dtype
    return rule


_OPS = {(kind, rank): register(f"{kind}{_SUFFIX[rank]}", _kernel(kind, rank), _rule(kind, rank),
                               dtypes=_KINDS[kind][1], type_attr=_KINDS[kind][2])
        for kind in _KINDS for rank in (1, 2, 3)}
for (_kind, _rank), _op in _OPS.items():  # TF's real transforms take fft_length as an input
    if _kind in ("RFFT", "IRFFT"):
        _types = {"Treal": 0, "Tcomplex": "out0"} if _kind == "RFFT" else \
            {"Tcomplex": 0, "Treal": "out0"}
        tf_nodes[_op] = NodeForm(inputs=(0, AttrInput("fft_length", type_attr=None)),
                                 types=_types, outputs=("output",))
    else:
        tf_nodes[_op] = NodeForm(outputs=("output",))


# -- public FFT functions --------------------------------------------------------------------

def _complex_fft(kind, rank, input, name):
    # As TF's conversion for the ops' default complex64: a NumPy array becomes complex64,
    # a list of Python values keeps its own dtype if complex, else becomes complex64
    if isinstance(input, (np.ndarray, np.generic)):
        input = convert_to_tensor(np.asarray(input).astype(np.complex64))
    elif not is_tensor_like(input):
        x = convert_to_tensor(input)
        input = x if x.dtype in COMPLEX else convert_to_tensor(input, _d.complex64)
    return dispatch(_OPS[kind, rank], (as_tensor(input),), name=name)


def _real_fft(kind, rank, input, fft_length, name):
    op = _OPS[kind, rank]
    wanted = _REAL if kind == "RFFT" else COMPLEX
    # Python floats convert to float32, the RFFT's usual input; anything but a tensor given
    # to the inverse (a NumPy array of floats or ints, a list) converts to complex64.
    x = convert_to_tensor(input, dtype_hint=_d.float32 if kind == "RFFT" else _d.complex64)
    if x.dtype not in wanted:
        names = " or ".join(f"tf.{d.name}" for d in wanted)
        raise ValueError(f"{kind} requires {names} inputs, got: {x!s}")
    if fft_length is None:
        if x.shape.rank is not None and x.shape.rank < rank:
            raise ValueError(f"Shape {x.shape} must have rank at least {rank}")
        dims = x.shape[-rank:].as_list() if x.shape.rank is not None else [None]
        # Known sizes fix the length now; otherwise the kernel infers it at run time.
        fft_length = None if None in dims else _inferred_length(kind, dims)
    else:
        # TF converts it to an int32 tensor (ValueError for another dtype's), then walks its
        # known value as a list of ints
        fft_length = convert_to_tensor(fft_length, _d.int32)
        if get_static_value(fft_length) is None and x.shape.rank is not None:
            return _real_fft_of_run_time_length(kind, rank, x, fft_length, name)
        shape, fft_length = array_ops._int_array(fft_length, op.name, "fft_length")
        if len(shape) != 1:
            raise TypeError("'numpy.int32' object is not iterable" if not shape else
                            "only integer scalar arrays can be converted to a scalar index")
        if shape != (rank,):
            if not context.executing_eagerly():  # TF's shape function refuses it
                raise rules.shape_error(op.name, f"Dimension must be {rank} but is {shape[0]}",
                                        [x.shape, TensorShape(shape)])
            raise _kernel_error(op.name, f"fft_length must have shape [{rank}]")
        for i, n in enumerate(fft_length):
            if n < 0:
                raise _kernel_error(op.name, f"fft_length[{i}] must >= 0, but got: {n}")
        _check_empty_batch(kind, op.name, x, fft_length)
    attrs = {"fft_length": None if fft_length is None else tuple(fft_length)}
    return dispatch(op, (x,), attrs, name)


def _check_empty_batch(kind, op_name, x, fft_length):
    """TF's error for an input with no signals (an outer dim of 0) whose innermost sizes are
    under those the transform needs: TF pads such an input to `fft_length` only when it
    is not empty, and its kernel then refuses it."""
    dims = x.shape.as_list() if x.shape.rank is not None else None
    rank = len(fft_length)
    if dims is None or None in dims or len(dims) < rank or math.prod(dims[:-rank]) != 0:
        return
    needed = list(fft_length)
    if kind == "IRFFT":
        needed[-1] = needed[-1] // 2 + 1
    for i, (have, need) in enumerate(zip(dims[-rank:], needed)):
        if have < need:
            raise _kernel_error(op_name, f"Input dimension {len(dims) - rank + i} must have "
                                         f"length of at least {need} but got: {have}")


def _kernel_error(op_name, message, name=""):
    """TF's InvalidArgumentError of the kernel of `op_name` refusing its arguments (in its
    eager form when run eagerly, ending with the op's `name`)."""
    if context.executing_eagerly():
        return errors.InvalidArgumentError(None, op_name,
                                           errors.eager_message(message, op_name, name=name))
    return errors.op_error(errors.InvalidArgumentError, op_name, message)


def _fitted(x, axis, size):
    """`x` cut or zero-padded to `size` (a scalar tensor) along `axis` (negative)."""
    shape = array_ops.shape(x)
    dims = [shape[i] for i in range(x.shape.rank)]
    kept = list(dims)
    kept[axis] = math_ops.minimum(size, dims[axis])
    x = array_ops.slice(x, [0] * x.shape.rank, array_ops.stack(kept))
    kept[axis] = math_ops.maximum(size - dims[axis], 0)
    return array_ops.concat([x, array_ops.zeros(array_ops.stack(kept), x.dtype)], axis)


def _real_fft_of_run_time_length(kind, rank, x, fft_length, name):
    """The real transform for an `fft_length` known only at run time: the input fitted to
    it, then the transform of the length the kernel infers from the input."""
    op = _OPS[kind, rank]
    n = array_ops.reshape(cast(fft_length, _d.int32), [rank])
    for i in range(rank - 1):
        x = _fitted(x, i - rank, n[i])
    if kind == "RFFT":
        return dispatch(op, (_fitted(x, -1, n[-1]), ), {"fft_length": None}, name)
    # The inverse of an odd length cannot be inferred from a number of bins: take the
    # inverse of length 2n of the n // 2 + 1 bins (zero-padded), whose even samples are
    # half the length-n signal's; the bin n / 2 of an even n, which the length-n inverse
    # counts once, counts twice there and is halved.
    last = n[-1]
    bins = _fitted(_fitted(x, -1, last // 2 + 1), -1, last + 1)
    paired = math_ops.not_equal(array_ops.range(last + 1) * 2, last)
    bins = bins * cast(array_ops.where(paired, 1.0, 0.5), x.dtype)
    doubled = dispatch(op, (bins,), {"fft_length": None}, name)
    return doubled[..., ::2] * cast(2.0, doubled.dtype)


@export("signal.fft", "compat.v1.spectral.fft")
def fft(input, name=None):
    """The discrete Fourier transform over the innermost axis of a complex tensor.

    >>> tf.signal.fft(tf.constant([1 + 0j, 1j]))
    <tf.Tensor: shape=(2,), dtype=complex128, numpy=array([1.+1.j, 1.-1.j])>
    """
    return _complex_fft("FFT", 1, input, name)


@export("signal.ifft", "compat.v1.spectral.ifft")
def ifft(input, name=None):
    """The inverse DFT over the innermost axis (scaled by 1/n).

    >>> tf.signal.ifft(tf.constant([1 + 1j, 1 - 1j]))
    <tf.Tensor: shape=(2,), dtype=complex128, numpy=array([1.+0.j, 0.+1.j])>
    """
    return _complex_fft("IFFT", 1, input, name)


@export("signal.fft2d", "compat.v1.spectral.fft2d")
def fft2d(input, name=None):
    """The 2-D DFT over the two innermost axes of a complex tensor.

    >>> tf.signal.fft2d(tf.constant([[1j, 0j]])).shape
    TensorShape([1, 2])
    """
    return _complex_fft("FFT", 2, input, name)


@export("signal.ifft2d", "compat.v1.spectral.ifft2d")
def ifft2d(input, name=None):
    """The inverse 2-D DFT over the two innermost axes.

    >>> tf.signal.ifft2d(tf.constant([[2j, 0j]]))
    <tf.Tensor: shape=(1, 2), dtype=complex128, numpy=array([[0.+1.j, 0.+1.j]])>
    """
    return _complex_fft("IFFT", 2, input, name)


@export("signal.fft3d", "compat.v1.spectral.fft3d")
def fft3d(input, name=None):
    """The 3-D DFT over the three innermost axes of a complex tensor.

    >>> tf.signal.fft3d(tf.constant([[[1j]]]))
    <tf.Tensor: shape=(1, 1, 1), dtype=complex128, numpy=array([[[0.+1.j]]])>
    """
    return _complex_fft("FFT", 3, input, name)


@export("signal.ifft3d", "compat.v1.spectral.ifft3d")
def ifft3d(input, name=None):
    """The inverse 3-D DFT over the three innermost axes.

    >>> tf.signal.ifft3d(tf.constant([[[1j]]]))
    <tf.Tensor: shape=(1, 1, 1), dtype=complex128, numpy=array([[[0.+1.j]]])>
    """
    return _complex_fft("IFFT", 3, input, name)


@export("signal.rfft", "compat.v1.spectral.rfft")
def rfft(input_tensor, fft_length=None, name=None):
    """The DFT of a real signal over its innermost axis: the ``n // 2 + 1`` non-negative
    frequencies, the signal cropped or zero-padded to ``n = fft_length[0]``.

    >>> tf.signal.rfft(tf.constant([1.0, 2.0, 3.0, 4.0]))
    <tf.Tensor: shape=(3,), dtype=complex64, numpy=array([10.+0.j, -2.+2.j, -2.+0.j], dtype=complex64)>
    """
    return _real_fft("RFFT", 1, input_tensor, fft_length, name)


@export("signal.irfft", "compat.v1.spectral.irfft")
def irfft(input_tensor, fft_length=None, name=None):
    """The real signal of length ``fft_length[0]`` (default ``2 * (m - 1)``) whose
    non-negative frequencies are `input_tensor`'s innermost axis.

    >>> tf.signal.irfft(tf.constant([10 + 0j, -2 + 2j, -2 + 0j], dtype=tf.complex64))
    <tf.Tensor: shape=(4,), dtype=float32, numpy=array([1., 2., 3., 4.], dtype=float32)>
    """
    return _real_fft("IRFFT", 1, input_tensor, fft_length, name)


@export("signal.rfft2d", "compat.v1.spectral.rfft2d")
def rfft2d(input_tensor, fft_length=None, name=None):
    """`rfft` over the two innermost axes (the last one halved).

    >>> tf.signal.rfft2d(tf.ones([2, 3])).shape
    TensorShape([2, 2])
    """
    return _real_fft("RFFT", 2, input_tensor, fft_length, name)


@export("signal.irfft2d", "compat.v1.spectral.irfft2d")
def irfft2d(input_tensor, fft_length=None, name=None):
    """`irfft` over the two innermost axes.

    >>> tf.signal.irfft2d(tf.ones([2, 3], tf.complex64)).shape
    TensorShape([2, 4])
    """
    return _real_fft("IRFFT", 2, input_tensor, fft_length, name)


@export("signal.rfft3d", "compat.v1.spectral.rfft3d")
def rfft3d(input_tensor, fft_length=None, name=None):
    """`rfft` over the three innermost axes (the last one halved).

    >>> tf.signal.rfft3d(tf.ones([2, 3, 4])).shape
    TensorShape([2, 3, 3])
    """
    return _real_fft("RFFT", 3, input_tensor, fft_length, name)


@export("signal.irfft3d", "compat.v1.spectral.irfft3d")
def irfft3d(input_tensor, fft_length=None, name=None):
    """`irfft` over the three innermost axes.

    >>> tf.signal.irfft3d(tf.ones([2, 3, 4], tf.complex64)).shape
    TensorShape([2, 3, 6])
    """
    return _real_fft("IRFFT", 3, input_tensor, fft_length, name)


def _check_shift_axes(axes, rank, single, python_int):
    """TF's errors for `axes` outside the rank: it reads an int axis's size by slicing the
    shape, and the sizes of other axes (wrapped once into range) by gathering from it."""
    for i, a in enumerate(axes):
        wrapped = a + rank if a < 0 else a
        if 0 <= wrapped < rank:
            continue
        if python_int:
            raise _kernel_error("StridedSlice", f"slice index {wrapped} of dimension 0 out of "
                                                f"bounds.", name="strided_slice/")
        where = "" if single else f"[{i}]"
        raise _kernel_error("GatherV2", f"indices{where} = {wrapped} is not in [0, {rank})")


def _shift(x, axes, sign):
    x = as_tensor(x)
    if axes is None:
        axes = list(range(x.shape.rank))
    single, python_int = np.ndim(axes) == 0, isinstance(axes, (int, np.integer))
    axes = list(_ints(axes, "Roll", "Taxis"))
    if x.shape.rank is not None:
        _check_shift_axes(axes, x.shape.rank, single, python_int)
    dims = [x.shape[a] for a in axes]
    if None in dims:  # sizes known only at run time
        half = math_ops.floordiv(array_ops.gather(array_ops.shape(x), axes), 2)
        return array_ops.roll(x, half if sign > 0 else math_ops.negative(half), axes)
    return array_ops.roll(x, [sign * (d // 2) for d in dims], axes)


@export("signal.fftshift")
def fftshift(x, axes=None, name=None):
    """Moves the zero frequency to the centre of `axes` (default: all).

    >>> tf.signal.fftshift(tf.constant([0, 1, 2, -2, -1]))
    <tf.Tensor: shape=(5,), dtype=int32, numpy=array([-2, -1,  0,  1,  2], dtype=int32)>
    """
    return _shift(x, axes, 1)


@export("signal.ifftshift")
def ifftshift(x, axes=None, name=None):
    """The inverse of `fftshift`: the centre of `axes` back to index 0.

    >>> tf.signal.ifftshift(tf.constant([-2, -1, 0, 1, 2]))
    <tf.Tensor: shape=(5,), dtype=int32, numpy=array([ 0,  1,  2, -2, -1], dtype=int32)>
    """
    return _shift(x, axes, -1)


_FFT_FNS = {("FFT", 1): fft, ("FFT", 2): fft2d, ("FFT", 3): fft3d,
            ("IFFT", 1): ifft, ("IFFT", 2): ifft2d, ("IFFT", 3): ifft3d,
            ("RFFT", 1): rfft, ("RFFT", 2): rfft2d, ("RFFT", 3): rfft3d,
            ("IRFFT", 1): irfft, ("IRFFT", 2): irfft2d, ("IRFFT", 3): irfft3d}


# -- gradients ---------------------------------------------------------------------------
# Complex gradients follow TF's convention dL/dRe + i dL/dIm: a C-linear map's gradient is
# its adjoint, and the DFT's adjoint is the unscaled inverse DFT.

def _static_length(op, kind, rank):
    n = op.attrs.get("fft_length") or _inferred_length(kind, op.inputs[0].shape[-rank:].as_list())
    if None in n:
        raise ValueError(f"The gradient of {op.name} needs the input's innermost sizes "
                         f"known before run time, got shape {op.inputs[0].shape}")
    return list(n)


def _fit(x, dims):
    """`x` with its innermost axes cropped or zero-padded to `dims`: the adjoint of the
    cropping or padding the real FFTs apply to their input."""
    have = x.shape[-len(dims):].as_list()
    x = x[(Ellipsis,) + tuple(slice(0, d) for d in dims)]
    padding = [max(d - h, 0) for d, h in zip(dims, have)]
    if any(padding):
        x = array_ops.pad(x, [[0, 0]] * (x.shape.rank - len(dims)) + [[0, p] for p in padding])
    return x


def _complex_grad(kind, rank):
    inverse = _FFT_FNS["IFFT" if kind == "FFT" else "FFT", rank]

    def grad(op, dy):
        dims = array_ops.known_shape(dy)
        if isinstance(dims, list):
            size = math.prod(dims[-rank:])
        else:  # sizes known only at run time
            size = cast(late.reduction_ops.reduce_prod(dims[-rank:]), dy.dtype)
        return inverse(dy) * size if kind == "FFT" else inverse(dy) / size
    return grad


def _fit_run_time(x, dims, rank):
    """`_fit` to innermost sizes `dims` (an int vector of `rank` values) known at run time."""
    x = x[(Ellipsis,) + tuple(slice(0, dims[i]) for i in range(rank))]
    more = math_ops.maximum(math_ops.subtract(dims, array_ops.shape(x)[-rank:]), 0)
    outer = array_ops.zeros(array_ops.stack([array_ops.rank(x) - rank, 2]), _d.int32)
    return array_ops.pad(x, array_ops.concat(
        [outer, array_ops.stack([array_ops.zeros_like(more), more], 1)], 0))


def _rfft_grad_run_time(op, dy, rank):
    """The RFFT gradient where the input's innermost sizes are known at run time only."""
    sizes = array_ops.shape(op.inputs[0])[-rank:]
    n = op.attrs.get("fft_length")
    n = sizes if n is None else convert_to_tensor(list(n), _d.int32)
    full = _fit_run_time(dy, n, rank)
    count = cast(late.reduction_ops.reduce_prod(n), op.inputs[0].dtype)
    dx = math_ops.real(_FFT_FNS["IFFT", rank](full)) * count
    return _fit_run_time(dx, sizes, rank)


def _rfft_grad(rank):
    def grad(op, dy):
        x = op.inputs[0]
        if x.shape.rank is None or None in x.shape[-rank:].as_list():
            return _rfft_grad_run_time(op, dy, rank)
        n = _static_length(op, "RFFT", rank)
        # The spectrum's dropped negative frequencies get zero gradient; the full inverse
        # DFT of the zero-extended gradient is the transform's adjoint.
        full = _fit(dy, n)
        dx = math_ops.real(_FFT_FNS["IFFT", rank](full)) * float(math.prod(n))
        return _fit(dx, op.inputs[0].shape[-rank:].as_list())
    return grad


def _irfft_grad_run_time(op, dy, rank):
    """The IRFFT gradient where the length, inferred from the input's innermost sizes, is
    known at run time only: the weights of `_irfft_grad` built as tensors."""
    x = op.inputs[0]
    sizes = array_ops.shape(x)[-rank:]
    n = array_ops.concat([sizes[:-1], array_ops.reshape(2 * (sizes[-1] - 1), [1])], 0)
    spectrum = _FFT_FNS["RFFT", rank](dy, n)
    k = array_ops.range(sizes[-1])
    real = x.dtype.real_dtype
    unpaired = math_ops.logical_or(math_ops.equal(k, 0), math_ops.equal(2 * k, n[-1]))
    weight = array_ops.where(unpaired, cast(1.0, real), cast(2.0, real)) / cast(
        late.reduction_ops.reduce_prod(n), real)
    return spectrum * math_ops.complex(weight, array_ops.zeros_like(weight))


def _irfft_grad(rank):
    def grad(op, dy):
        x = op.inputs[0]
        known = x.shape.rank is not None and None not in x.shape[-rank:].as_list()
        if not known and not op.attrs.get("fft_length"):
            return _irfft_grad_run_time(op, dy, rank)
        n = _static_length(op, "IRFFT", rank)
        half = _half_length(n[-1])
        # Each inner frequency stands for itself and its mirror image, so counts twice;
        # zero frequency and (n even) the Nyquist one have no mirror.
        weight = np.full(half, 2.0)
        weight[0] = 1.0
        if n[-1] % 2 == 0:
            weight[-1] = 1.0
        dtype = op.inputs[0].dtype
        spectrum = _FFT_FNS["RFFT", rank](dy, n)
        dy_in = spectrum * convert_to_tensor(weight / math.prod(n), dtype)
        if not known:
            return _fit_run_time(dy_in, array_ops.shape(x)[-rank:], rank)
        return _fit(dy_in, x.shape[-rank:].as_list())
    return grad


for _rank in (1, 2, 3):
    register_gradient(_OPS["FFT", _rank].name)(_complex_grad("FFT", _rank))
    register_gradient(_OPS["IFFT", _rank].name)(_complex_grad("IFFT", _rank))
    register_gradient(_OPS["RFFT", _rank].name)(_rfft_grad(_rank))
    register_gradient(_OPS["IRFFT", _rank].name)(_irfft_grad(_rank))


# -- transforms over any axes (FFTND) --------------------------------------------------------
# TF's ND ops take `fft_length` and `axes` as inputs (here attrs, TF's inputs in its graphs);
# the input is cropped or zero-padded to `fft_length` along `axes`, and the real forms
# halve the last of `axes`.  TF has GPU kernels only, restricted to the 1-3 innermost axes in
# order; these run anywhere, on any distinct axes.

def _nd_axes(rank, axes, dims):
    """`axes` as indices in [0, rank) of an input of shape `dims`, checked."""
    if len(axes) > rank:
        raise _invalid(f"Input must have rank of at least {len(axes)} but got: "
                       f"{shape_text(dims)}")
    if not axes:
        raise _invalid("The last axis to perform transform on must be -1.")
    for i, a in enumerate(axes):
        if not -rank <= a < rank:
            raise _invalid(f"axes[{i}] = {a} is out of range for an input of rank {rank}")
    out = tuple(a % rank for a in axes)
    if len(set(out)) != len(out):
        raise _invalid(f"axes must be distinct, got {list(axes)}")
    return out


def _nd_lengths(fft_length, count):
    """`fft_length` checked against the number of axes."""
    if len(fft_length) != count:
        raise _invalid(f"fft_length must have shape [{count}], but got: {len(fft_length)}.")
    for i, n in enumerate(fft_length):
        if n < 0:
            raise _invalid(f"fft_length[{i}] must >= 0, but got: {n}")
    return tuple(fft_length)


def _nd_output_dims(kind, dims, axes, fft_length):
    """The output dims of input `dims` (None: unknown) transformed over `axes` (in range)."""
    along = [dims[a] for a in axes]
    n = list(fft_length) if fft_length is not None else _inferred_length(kind, along)
    if kind == "RFFT":
        n[-1] = _half_length(n[-1])
    out = list(dims)
    for a, d in zip(axes, n):
        out[a] = d
    return out


def _nd_kernel(kind):
    fn_name, _, _, out_dtype = _KINDS[kind]

    @quiet
    def kernel(xp, x, fft_length=None, axes=None):
        axes = _nd_axes(x.ndim, axes, x.shape)
        if fft_length is not None:
            fft_length = _nd_lengths(fft_length, len(axes))
        dtype = out_dtype(_d.from_numpy(x.dtype)).as_numpy_dtype
        n = fft_length or tuple(_inferred_length(kind, [x.shape[a] for a in axes]))
        out_shape = tuple(_nd_output_dims(kind, x.shape, axes, n))
        if 0 in x.shape or 0 in out_shape:  # the FFT libraries refuse empty transforms
            return xp.zeros(out_shape, dtype)
        return getattr(xp.fft, fn_name)(x, s=n, axes=axes).astype(dtype, copy=False)
    return kernel


def _nd_rule(kind):
    out_dtype = _KINDS[kind][3]

    def rule(x, fft_length=None, axes=None):
        dtype = out_dtype(x.dtype)
        if x.shape.rank is None:
            return TensorShape(None), dtype
        dims = x.shape.as_list()
        axes = _nd_axes(len(dims), axes, dims)
        if fft_length is not None:
            fft_length = _nd_lengths(fft_length, len(axes))
        return TensorShape(_nd_output_dims(kind, dims, axes, fft_length)), dtype
    return rule


_ND_OPS = {kind: register(f"{kind}ND", _nd_kernel(kind), _nd_rule(kind),
                          dtypes=_KINDS[kind][1], type_attr=_KINDS[kind][2])
           for kind in _KINDS}
for _kind, _op in _ND_OPS.items():
    _types = {"Treal": 0, "Tcomplex": "out0"} if _kind == "RFFT" else \
        {"Tcomplex": 0, "Treal": "out0"} if _kind == "IRFFT" else {"Tcomplex": 0}
    tf_nodes[_op] = NodeForm(inputs=(0, AttrInput("fft_length", type_attr=None),
                                     AttrInput("axes", type_attr=None)),
                             types=_types, outputs=("output",))


def _static_ints(value, what):
    """An int32 vector parameter as a tuple of ints, or the tensor when known at run time
    only."""
    static = get_static_value(value) if isinstance(value, Tensor) else None
    if static is None and isinstance(value, Tensor):
        return value
    shape, values = array_ops._int_array(value if static is None else static, what)
    if len(shape) != 1:
        raise ValueError(f"Shape {TensorShape(shape)} must have rank 1")
    return values


def _nd_fft(kind, input, fft_length, axes, norm, name):
    """The public ND transforms: `input` converted as TF converts it, `fft_length` by default
    the input's sizes along `axes` (by default all), and `norm`'s scaling of the input."""
    if kind == "RFFT":
        x = convert_to_tensor(input, dtype_hint=_d.float32)
        if x.dtype not in _REAL:
            raise ValueError(f"RFFT requires tf.float32 or tf.float64 inputs, got: {x!s}")
    else:
        x = convert_to_tensor(input, dtype_hint=_d.complex64)
        if kind == "IRFFT" and x.dtype not in COMPLEX:
            raise ValueError(f"IRFFT requires tf.complex64 or tf.complex128 inputs, got: {x!s}")
    rank = x.shape.rank
    if axes is None:
        if rank is None:
            raise ValueError("fftnd of an input of unknown rank needs `axes`")
        axes = tuple(range(rank))
    else:
        axes = _static_ints(axes, "axes")
        if isinstance(axes, Tensor):
            raise ValueError("The axes of an ND FFT must be known before run time")
        if rank is not None and rank < len(axes):
            raise ValueError(f"Shape {x.shape} must have rank at least {len(axes)}")
    if fft_length is not None:
        fft_length = _static_ints(fft_length, "fft_length")
    n = fft_length
    if n is None and rank is not None and all(-rank <= a < rank for a in axes):
        # (the op reports axes out of range)
        dims = [x.shape[a] for a in axes]
        n = None if None in dims else tuple(_inferred_length(kind, dims))
    if norm in ("forward", "ortho"):
        count = (float(math.prod(n)) if isinstance(n, tuple) else
                 cast(late.reduction_ops.reduce_prod(
                     array_ops.gather(array_ops.shape(x), list(axes)) if n is None else n),
                      _d.float64))
        scale = count if norm == "forward" else (math.sqrt(count) if isinstance(count, float)
                                                 else math_ops.sqrt(count))
        scale = cast(scale, x.dtype)
        x = x / scale if kind in ("FFT", "RFFT") else x * scale
    if isinstance(fft_length, Tensor):
        return _nd_fft_of_run_time_length(kind, x, fft_length, axes, name)
    return dispatch(_ND_OPS[kind], (x,), {"fft_length": n, "axes": tuple(axes)}, name)


def _nd_fft_of_run_time_length(kind, x, fft_length, axes, name):
    """The ND transform for an `fft_length` known only at run time: the input fitted to it
    along `axes`, then the transform of the length the kernel infers (for the inverse real
    transform's last axis, as `_real_fft_of_run_time_length` takes it)."""
    if x.shape.rank is None:
        raise ValueError("An ND FFT of an input of unknown rank needs `fft_length` known "
                         "before run time")
    rank = x.shape.rank
    axes = [a % rank for a in axes]
    n = array_ops.reshape(cast(fft_length, _d.int32), [len(axes)])
    last = axes[-1] - rank
    for i, a in enumerate(axes[:-1]):
        x = _fitted(x, a - rank, n[i])
    op, attrs = _ND_OPS[kind], {"fft_length": None, "axes": tuple(axes)}
    if kind != "IRFFT":
        return dispatch(op, (_fitted(x, last, n[-1]),), attrs, name)
    size = n[-1]
    bins = _fitted(_fitted(x, last, size // 2 + 1), last, size + 1)
    paired = math_ops.not_equal(array_ops.range(size + 1) * 2, size)
    weight = array_ops.reshape(array_ops.where(paired, 1.0, 0.5), [-1] + [1] * (-1 - last))
    doubled = dispatch(op, (bins * cast(weight, x.dtype),), attrs, name)
    every_other = (slice(None),) * axes[-1] + (slice(None, None, 2),)
    return doubled[every_other] * cast(2.0, doubled.dtype)


@export("signal.fftnd")
def fftnd(input_tensor, fft_length=None, axes=None, norm=None, name=None):
    """The N-D discrete Fourier transform of a complex tensor over `axes` (default: all),
    the input cropped or zero-padded to `fft_length` along them; `norm` ``"ortho"`` or
    ``"forward"`` scales by ``1/sqrt(n)`` or ``1/n``.

    >>> tf.signal.fftnd(tf.constant([[1j, 0j], [0j, 0j]]))
    <tf.Tensor: shape=(2, 2), dtype=complex128, numpy=
    array([[0.+1.j, 0.+1.j],
           [0.+1.j, 0.+1.j]])>
    """
    return _nd_fft("FFT", input_tensor, fft_length, axes, norm, name)


@export("signal.ifftnd")
def ifftnd(input_tensor, fft_length=None, axes=None, norm=None, name=None):
    """The inverse N-D DFT over `axes` (default: all), scaled by ``1/n`` (see `fftnd`).

    >>> tf.signal.ifftnd(tf.constant([[4 + 0j, 0j], [0j, 0j]]))
    <tf.Tensor: shape=(2, 2), dtype=complex128, numpy=
    array([[1.+0.j, 1.+0.j],
           [1.+0.j, 1.+0.j]])>
    """
    return _nd_fft("IFFT", input_tensor, fft_length, axes, norm, name)


@export("signal.rfftnd")
def rfftnd(input_tensor, fft_length=None, axes=None, norm=None, name=None):
    """The N-D DFT of a real tensor over `axes` (default: all), the last of them halved to
    its ``n // 2 + 1`` non-negative frequencies.

    >>> tf.signal.rfftnd(tf.ones([2, 4]), axes=[-1])
    <tf.Tensor: shape=(2, 3), dtype=complex64, numpy=
    array([[4.+0.j, 0.+0.j, 0.+0.j],
           [4.+0.j, 0.+0.j, 0.+0.j]], dtype=complex64)>
    """
    return _nd_fft("RFFT", input_tensor, fft_length, axes, norm, name)


@export("signal.irfftnd")
def irfftnd(input_tensor, fft_length=None, axes=None, norm=None, name=None):
    """The real N-D signal whose spectrum over `axes` (default: all) is `input_tensor`, the
    last of them holding the non-negative frequencies (length by default ``2 * (m - 1)``).

    >>> tf.signal.irfftnd(tf.constant([[4 + 0j, 0j, 0j]], tf.complex64), axes=[-1])
    <tf.Tensor: shape=(1, 4), dtype=float32, numpy=array([[1., 1., 1., 1.]], dtype=float32)>
    """
    return _nd_fft("IRFFT", input_tensor, fft_length, axes, norm, name)



def _raw_nd(kind, input, fft_length, axes, name, wanted=None):
    """TF's top-level ``tf.fftnd`` ... (the ops as they are: `fft_length` and `axes` given,
    the input converted to the op's dtype); `wanted`: the output dtype the caller asks."""
    x = convert_to_tensor(input, dtype_hint=_d.float32 if kind == "RFFT" else _d.complex64)
    out = _KINDS[kind][3](x.dtype) if x.dtype in _KINDS[kind][1] else None
    if wanted is not None and out is not None and _d.as_dtype(wanted) != out:
        direction = "forward" if kind == "RFFT" else "backward"
        raise errors.op_error(
            errors.InvalidArgumentError, f"{kind}ND",
            f"Wrong types for {direction} real FFT: in={x.dtype.as_datatype_enum} "
            f"out={_d.as_dtype(wanted).as_datatype_enum}")
    axes = _static_ints(axes, "axes")
    if isinstance(axes, Tensor):
        raise ValueError("The axes of an ND FFT must be known before run time")
    fft_length = _static_ints(fft_length, "fft_length")
    if isinstance(fft_length, Tensor):
        return _nd_fft_of_run_time_length(kind, x, fft_length, axes, name)
    return dispatch(_ND_OPS[kind], (x,), {"fft_length": fft_length, "axes": axes}, name)


@export("fftnd")
def fftnd_op(input, fft_length, axes, name=None):
    """The FFTND op itself (see `tf.signal.fftnd`): every argument given.

    >>> tf.fftnd(tf.constant([1j, 0j]), [2], [0])
    <tf.Tensor: shape=(2,), dtype=complex128, numpy=array([0.+1.j, 0.+1.j])>
    """
    return _raw_nd("FFT", input, fft_length, axes, name)


@export("ifftnd")
def ifftnd_op(input, fft_length, axes, name=None):
    """The IFFTND op itself (see `tf.signal.ifftnd`).

    >>> tf.ifftnd(tf.constant([2j, 2j]), [2], [0])
    <tf.Tensor: shape=(2,), dtype=complex128, numpy=array([0.+2.j, 0.+0.j])>
    """
    return _raw_nd("IFFT", input, fft_length, axes, name)


@export("rfftnd")
def rfftnd_op(input, fft_length, axes, Tcomplex=_d.complex64, name=None):
    """The RFFTND op itself (see `tf.signal.rfftnd`); `Tcomplex` must match the input.

    >>> tf.rfftnd(tf.constant([1., 1.]), [2], [0])
    <tf.Tensor: shape=(2,), dtype=complex64, numpy=array([2.+0.j, 0.+0.j], dtype=complex64)>
    """
    return _raw_nd("RFFT", input, fft_length, axes, name, Tcomplex)


@export("irfftnd")
def irfftnd_op(input, fft_length, axes, Treal=_d.float32, name=None):
    """The IRFFTND op itself (see `tf.signal.irfftnd`); `Treal` must match the input.

    >>> tf.irfftnd(tf.constant([2 + 0j, 0j], tf.complex64), [2], [0])
    <tf.Tensor: shape=(2,), dtype=float32, numpy=array([1., 1.], dtype=float32)>
    """
    return _raw_nd("IRFFT", input, fft_length, axes, name, Treal)

def _nd_length(op, kind):
    """The static `fft_length` and axes (in range) of the `kind` ND FFT node `op`."""
    x = op.inputs[0]
    n = op.attrs.get("fft_length")
    if x.shape.rank is not None:
        axes = list(_nd_axes(x.shape.rank, op.attrs["axes"], x.shape.as_list()))
        if n is None:
            n = _inferred_length(kind, [x.shape[a] for a in axes])
    if x.shape.rank is None or None in n:
        raise ValueError(f"The gradient of {op.name} needs the input's sizes along its axes "
                         f"known before run time, got shape {x.shape}")
    return list(n), axes


def _fit_along(x, dims, axes):
    """`x` cropped or zero-padded to `dims` along `axes`: the adjoint of the fitting the
    transforms apply to their input."""
    rank = x.shape.rank
    index, padding = [slice(None)] * rank, [[0, 0] for _ in range(rank)]
    for a, d in zip(axes, dims):
        index[a] = slice(0, d)
        padding[a][1] = max(d - x.shape[a], 0)
    x = x[tuple(index)]
    return array_ops.pad(x, padding) if any(p for _, p in padding) else x


def _nd_complex_grad(kind):
    def grad(op, dy):
        n, axes = _nd_length(op, kind)
        count = float(math.prod(n))
        if kind == "FFT":
            dx = _ND_FNS["IFFT"](dy, n, axes) * cast(count, dy.dtype)
        else:
            dx = _ND_FNS["FFT"](dy, n, axes) / cast(count, dy.dtype)
        return _fit_along(dx, [op.inputs[0].shape[a] for a in axes], axes)
    return grad


def _nd_rfft_grad(op, dy):
    n, axes = _nd_length(op, "RFFT")
    # zero gradient for the dropped negative frequencies; the adjoint of the full DFT
    full = _fit_along(dy, n, axes)
    dx = math_ops.real(ifftnd(full, n, axes)) * cast(float(math.prod(n)), op.inputs[0].dtype)
    return _fit_along(dx, [op.inputs[0].shape[a] for a in axes], axes)


def _nd_irfft_grad(op, dy):
    n, axes = _nd_length(op, "IRFFT")
    half = _half_length(n[-1])
    # Inner frequencies of the last axis stand for themselves and their mirror images.
    weight = np.full(half, 2.0)
    weight[0] = 1.0
    if n[-1] % 2 == 0:
        weight[-1] = 1.0
    weight = weight.reshape((half,) + (1,) * (dy.shape.rank - 1 - axes[-1]))
    dtype = op.inputs[0].dtype
    spectrum = rfftnd(dy, n, axes) * convert_to_tensor(weight / math.prod(n), dtype)
    return _fit_along(spectrum, [op.inputs[0].shape[a] for a in axes], axes)


_ND_FNS = {"FFT": fftnd, "IFFT": ifftnd}
register_gradient(_ND_OPS["FFT"].name)(_nd_complex_grad("FFT"))
register_gradient(_ND_OPS["IFFT"].name)(_nd_complex_grad("IFFT"))
register_gradient(_ND_OPS["RFFT"].name)(_nd_rfft_grad)
register_gradient(_ND_OPS["IRFFT"].name)(_nd_irfft_grad)


# -- windows and framing -------------------------------------------------------------------

def _raised_cosine(window_length, periodic, dtype, a, b):
    dtype = _d.as_dtype(dtype)
    if not dtype.is_floating:
        raise ValueError(f"dtype must be a floating point type. Found {dtype}")
    if not isinstance(window_length, int):
        window_length = convert_to_tensor(window_length, _d.int32, name="window_length")
        if window_length.shape.rank != 0:
            raise ValueError(f"Shape {window_length.shape} must have rank 0")
    periodic = _periodic(periodic)
    if isinstance(window_length, Tensor) and get_static_value(window_length) is None or \
            isinstance(periodic, Tensor):
        length = convert_to_tensor(window_length, _d.int32)
        return _raised_cosine_of_tensor(length, periodic, dtype, a, b)
    length = _int(window_length, "window_length")
    if length == 1:
        return array_ops.ones([1], dtype)
    # A periodic window of even length is one period of a window one longer; TF makes
    # odd lengths symmetric either way.
    denominator = length - 1 + (1 if periodic and length % 2 == 0 else 0)
    count = cast(array_ops.range(length), dtype)
    angle = convert_to_tensor(2 * np.pi, dtype) * count / cast(denominator, dtype)
    return convert_to_tensor(a, dtype) - convert_to_tensor(b, dtype) * math_ops.cos(angle)


def _periodic(periodic):
    """A window's `periodic` as a Python bool, or a bool scalar tensor where a traced function
    knows it only at run time (anything else refused as TF's conversion to bool refuses it)."""
    if isinstance(periodic, bool):
        return periodic
    tensor = convert_to_tensor(periodic, _d.bool, name="periodic")
    if tensor.shape.rank not in (None, 0):
        raise ValueError(f"Shape {tensor.shape} must have rank 0")
    found = get_static_value(tensor)
    return tensor if found is None else bool(found)


def _raised_cosine_of_tensor(length, periodic, dtype, a, b):
    """`_raised_cosine` of a length known only at run time."""
    even = 1 - math_ops.floormod(length, 2)
    denominator = length - 1 + cast(periodic, _d.int32) * even
    angle = (convert_to_tensor(2 * np.pi, dtype) * cast(array_ops.range(length), dtype) /
             cast(denominator, dtype))
    window = convert_to_tensor(a, dtype) - convert_to_tensor(b, dtype) * math_ops.cos(angle)
    # a one-point window is [1] (its angle divides 0 by 0)
    return array_ops.where(math_ops.equal(length, 1), array_ops.ones_like(window), window)


@export("signal.hann_window")
def hann_window(window_length, periodic=True, dtype=_d.float32, name=None):
    """The Hann window ``0.5 - 0.5 cos(2 pi n / N)`` of `window_length` points.

    >>> tf.signal.hann_window(4)
    <tf.Tensor: shape=(4,), dtype=float32, numpy=array([0. , 0.5, 1. , 0.5], dtype=float32)>
    """
    return _raised_cosine(window_length, periodic, dtype, 0.5, 0.5)


@export("signal.hamming_window")
def hamming_window(window_length, periodic=True, dtype=_d.float32, name=None):
    """The Hamming window ``0.54 - 0.46 cos(2 pi n / N)`` of `window_length` points.

    >>> tf.signal.hamming_window(3, dtype=tf.float64)
    <tf.Tensor: shape=(3,), dtype=float64, numpy=array([0.08, 1.  , 0.08])>
    """
    return _raised_cosine(window_length, periodic, dtype, 0.54, 0.46)


@export("signal.frame")
def frame(signal, frame_length, frame_step, pad_end=False, pad_value=0, axis=-1, name=None):
    """Slices `axis` of `signal` into frames of `frame_length` every `frame_step` samples;
    `axis` becomes two axes (frames, samples). With `pad_end` the last frames run past the
    end, filled with `pad_value`.

    >>> tf.signal.frame(tf.constant([1, 2, 3, 4, 5]), 3, 2)
    <tf.Tensor: shape=(2, 3), dtype=int32, numpy=
    array([[1, 2, 3],
           [3, 4, 5]], dtype=int32)>
    """
    signal = as_tensor(signal)
    length, step = _frame_param(frame_length, "frame_length"), _frame_param(frame_step,
                                                                            "frame_step")
    if pad_end:  # (TF converts it to the signal's dtype, a scalar)
        pad_value = convert_to_tensor(pad_value, signal.dtype)
        _check_scalar(pad_value)
    rank = signal.shape.rank
    if rank is None:
        return _frame_of_unknown_rank(signal, length, step, pad_end, pad_value, axis)
    if rank < 1:
        raise ValueError(f"Shape {signal.shape} must have rank at least 1")
    if not -rank <= axis < rank:  # (TF indexes the list of dims with it)
        raise IndexError("list index out of range")
    axis = axis + rank if axis < 0 else axis
    if isinstance(step, int) and step == 0:  # TF's frame count divides by the step
        text = "Integer division by zero"
        raise errors.InvalidArgumentError(None, None, errors.eager_message(
            text, "FloorDiv", name="") if context.executing_eagerly() else text)
    samples = signal.shape[axis]
    if samples is None:  # known only at run time: the same arithmetic on tensors
        samples = array_ops.shape(signal)[axis]
    def at_least_0(v):
        return max(v, 0) if isinstance(v, int) else math_ops.maximum(v, 0)

    if pad_end:
        count = -(-samples // step)
        extra = at_least_0((count - 1) * step + length - samples)
        if isinstance(extra, int):
            paddings = [[0, 0]] * rank
            paddings[axis] = [0, extra]
            signal = array_ops.pad(signal, paddings, constant_values=pad_value)
        else:  # the padding's size is known only at run time: append a filled block
            dims = array_ops.tensor_scatter_nd_update(array_ops.shape(signal), [[axis]],
                                                      array_ops.reshape(extra, [1]))
            block = array_ops.fill(dims, cast(pad_value, signal.dtype))
            signal = array_ops.concat([signal, block], axis)
    else:
        count = at_least_0(1 + (samples - length) // step)
    if isinstance(count, int):
        starts = np.arange(count, dtype=np.int32)[:, None] * step
    else:
        starts = array_ops.expand_dims(array_ops.range(count), 1) * step
    # (a negative length fails in the range, as in TF)
    offsets = array_ops.range(length) if isinstance(length, Tensor) or length < 0 else \
        np.arange(length, dtype=np.int32)
    indices = starts + array_ops.expand_dims(offsets, 0) if isinstance(offsets, Tensor) else \
        starts + offsets[None, :]
    if axis == 0:  # gathered from a leading unit axis: a dense gradient, as TF's frame has
        framed = array_ops.gather(array_ops.expand_dims(signal, 0), indices, axis=1)
        return array_ops.squeeze(framed, [0])
    return array_ops.gather(signal, indices, axis=axis)


def _frame_of_unknown_rank(signal, length, step, pad_end, pad_value, axis):
    """`frame` of a signal whose rank only the run time knows: framed as a rank-3
    ``[outer, samples, inner]`` view along its middle axis, then given back its outer and
    inner dims."""
    shape = array_ops.shape(signal)
    if axis < 0:
        axis = array_ops.rank(signal) + axis
    outer, inner = shape[:axis], shape[axis + 1:]
    flat = array_ops.reshape(signal, array_ops.stack(
        [late.reduction_ops.reduce_prod(outer), shape[axis],
         late.reduction_ops.reduce_prod(inner)]))
    framed = frame(flat, length, step, pad_end=pad_end, pad_value=pad_value, axis=1)
    return array_ops.reshape(framed, array_ops.concat(
        [outer, array_ops.shape(framed)[1:3], inner], 0))


def _check_scalar(tensor):
    if tensor.shape.rank not in (None, 0):
        raise ValueError(f"Shape {tensor.shape} must have rank 0")


def _frame_param(value, attr):
    """`frame`'s `attr` as a Python int, or an int32 tensor where a traced function knows
    it only at run time; a scalar (ValueError otherwise, as TF's)."""
    if isinstance(value, (list, tuple, np.ndarray, Tensor)):
        _check_scalar(convert_to_tensor(value))
    if isinstance(value, Tensor) and value.dtype.is_integer and get_static_value(value) is None:
        return cast(value, _d.int32)
    return _int(value, "Frame", attr)


# No batching rule: a vectorized graph runs these once per batch element.
batching_rules.assign(PER_ELEMENT, *_OPS.values(), *_ND_OPS.values())
