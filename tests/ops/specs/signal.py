"""Specs of the FFT ops (signal_ops.py).

The gradient sweep differentiates real inputs and outputs only, so complex transforms are
checked through real and imaginary parts: ``re, im -> fft(complex(re, im))``.
"""
import numpy as np

import eagerflow as tf
from tests.internals import signal_ops as s
from tests.ops.spec import OpSpec, rand

_SUFFIX = {1: "", 2: "2d", 3: "3d"}
_SHAPES = {1: (2, 5), 2: (2, 3, 4), 3: (2, 2, 3, 4)}


def _parts(z):
    return tf.math.real(z), tf.math.imag(z)


def _np_parts(z):
    return np.real(z), np.imag(z)


def _pair(shape, dtype=np.float32):
    return [rand(*shape, dtype=dtype), rand(*shape, dtype=dtype, seed=1)]


def _complex_specs(kind, rank):
    fn = getattr(s, f"{kind.lower()}{_SUFFIX[rank]}")
    ref = getattr(np.fft, "fftn" if kind == "FFT" else "ifftn")
    axes = tuple(range(-rank, 0))
    name = f"{kind}{_SUFFIX[rank].upper()}"
    return [
        OpSpec(name, lambda re, im: _parts(fn(tf.complex(re, im))), _pair(_SHAPES[rank]),
               lambda re, im: _np_parts(ref(re + 1j * im, axes=axes).astype(np.complex64)),
               rtol=1e-4, atol=1e-5),
        OpSpec(name, fn, [rand(*_SHAPES[rank], dtype=np.complex128)],
               lambda z: ref(z, axes=axes), name=f"{name}-complex128",
               grad="checked by the real/imaginary-parts spec"),
    ]


def _real_specs(rank, lengths):
    rfft, irfft = getattr(s, f"rfft{_SUFFIX[rank]}"), getattr(s, f"irfft{_SUFFIX[rank]}")
    axes = tuple(range(-rank, 0))
    specs = []
    for n in lengths:  # None: the default; others crop or pad the input
        tag = "default" if n is None else "x".join(map(str, n))
        specs.append(OpSpec(
            f"RFFT{_SUFFIX[rank].upper()}", lambda x, n=n: _parts(rfft(x, n)),
            [rand(*_SHAPES[rank])],
            lambda x, n=n: _np_parts(np.fft.rfftn(x, s=n, axes=axes).astype(np.complex64)),
            rtol=1e-4, atol=1e-5, name=f"RFFT{_SUFFIX[rank].upper()}-{tag}"))
        specs.append(OpSpec(
            f"IRFFT{_SUFFIX[rank].upper()}", lambda re, im, n=n: irfft(tf.complex(re, im), n),
            _pair(_SHAPES[rank]),
            lambda re, im, n=n: np.fft.irfftn(re + 1j * im, s=n, axes=axes).astype(np.float32),
            rtol=1e-4, atol=1e-5, name=f"IRFFT{_SUFFIX[rank].upper()}-{tag}"))
    specs.append(OpSpec(
        f"RFFT{_SUFFIX[rank].upper()}", rfft, [rand(*_SHAPES[rank], dtype=np.float64)],
        lambda x: np.fft.rfftn(x, axes=axes), name=f"RFFT{_SUFFIX[rank].upper()}-float64",
        grad="checked by the float32 specs, in float64"))
    return specs


SPECS = [
    *(spec for kind in ("FFT", "IFFT") for rank in (1, 2, 3) for spec in _complex_specs(kind, rank)),
    *_real_specs(1, [None, [4], [8], [7]]),
    *_real_specs(2, [None, [2, 6], [4, 3]]),
    *_real_specs(3, [None, [3, 2, 5]]),
]


# The ND transforms over axes (0, 2) of a (3, 2, 4) input: lengths None (the input's),
# cropped, padded, and axes given in reverse order.
_ND_SHAPE = (3, 2, 4)
_ND_CASES = [(None, (0, 2)), ((2, 6), (0, 2)), ((5, 3), (-1, 0)), ((4,), (1,))]


def _nd_tag(n, axes):
    return ("default" if n is None else "x".join(map(str, n))) + "-axes" + "".join(
        map(str, axes))


def _nd_complex_specs(kind):
    fn = getattr(tf.signal, f"{kind.lower()}nd")
    ref = getattr(np.fft, "fftn" if kind == "FFT" else "ifftn")
    specs = []
    for n, axes in _ND_CASES:
        specs.append(OpSpec(
            f"{kind}ND", lambda re, im, n=n, axes=axes: _parts(fn(tf.complex(re, im), n, axes)),
            _pair(_ND_SHAPE),
            lambda re, im, n=n, axes=axes: _np_parts(
                ref(re + 1j * im, s=n, axes=axes).astype(np.complex64)),
            rtol=1e-4, atol=1e-5, name=f"{kind}ND-{_nd_tag(n, axes)}"))
    specs.append(OpSpec(
        f"{kind}ND", fn, [rand(*_ND_SHAPE, dtype=np.complex128)], lambda z: ref(z),
        name=f"{kind}ND-complex128", grad="checked by the real/imaginary-parts specs"))
    return specs


def _nd_real_specs():
    specs = []
    for n, axes in _ND_CASES + [((3, 7), (0, 2))]:
        tag = _nd_tag(n, axes)
        specs.append(OpSpec(
            "RFFTND", lambda x, n=n, axes=axes: _parts(tf.signal.rfftnd(x, n, axes)),
            [rand(*_ND_SHAPE)],
            lambda x, n=n, axes=axes: _np_parts(
                np.fft.rfftn(x, s=n, axes=axes).astype(np.complex64)),
            rtol=1e-4, atol=1e-5, name=f"RFFTND-{tag}"))
        specs.append(OpSpec(
            "IRFFTND",
            lambda re, im, n=n, axes=axes: tf.signal.irfftnd(tf.complex(re, im), n, axes),
            _pair(_ND_SHAPE),
            lambda re, im, n=n, axes=axes: np.fft.irfftn(
                re + 1j * im, s=n, axes=axes).astype(np.float32),
            rtol=1e-4, atol=1e-5, name=f"IRFFTND-{tag}"))
    specs.append(OpSpec(
        "RFFTND", tf.signal.rfftnd, [rand(*_ND_SHAPE, dtype=np.float64)], np.fft.rfftn,
        name="RFFTND-float64", grad="checked by the float32 specs, in float64"))
    specs.append(OpSpec(
        "IRFFTND", tf.signal.irfftnd, [rand(*_ND_SHAPE, dtype=np.complex128)], np.fft.irfftn,
        name="IRFFTND-complex128", grad="checked by the float32 specs, in float64"))
    return specs


SPECS += [*_nd_complex_specs("FFT"), *_nd_complex_specs("IFFT"), *_nd_real_specs()]
