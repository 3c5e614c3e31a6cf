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
