"""Special functions (erf, erfc, gammaln, psi) for kernels.

SciPy's implementations are used when SciPy is installed (the ``scipy``
extra); otherwise NumPy fallbacks, accurate to float64 rounding for erf,
erfc and gammaln (through Python's `math`) and to ~1e-14 for psi.
"""
import math

import numpy as np


def _vectorized(fn):
    ufunc = np.frompyfunc(fn, 1, 1)

    def apply(x):
        x = np.asarray(x)
        return ufunc(x.astype(np.float64)).astype(np.float64)
    return apply


def _psi(x):
    """Digamma: reflection for x < 0.5, recurrence up to x >= 10, then the asymptotic series."""
    x = np.asarray(x, np.float64)
    out = np.empty_like(x)
    neg = x < 0.5
    xr = np.where(neg, 1.0 - x, x)
    acc = np.zeros_like(xr)
    while True:
        small = xr < 10.0
        if not small.any():
            break
        acc -= np.where(small, 1.0 / np.where(small, xr, 1.0), 0.0)
        xr = np.where(small, xr + 1.0, xr)
    inv2 = 1.0 / (xr * xr)
    series = (np.log(xr) - 0.5 / xr
              - inv2 * (1 / 12 - inv2 * (1 / 120 - inv2 * (1 / 252 - inv2 * (
                  1 / 240 - inv2 * (1 / 132))))))
    out = acc + series
    with np.errstate(all="ignore"):
        refl = np.pi / np.tan(np.pi * x)
        pole = neg & (x == np.floor(x))
    out = np.where(neg, out - refl, out)
    return np.where(pole, np.nan, out)


_FALLBACKS = {
    "erf": _vectorized(math.erf),
    "erfc": _vectorized(math.erfc),
    "gammaln": _vectorized(lambda v: math.lgamma(v) if not (v <= 0 and v == int(v))
                           else math.inf),
    "psi": _psi,
}


def special(xp, name):
    """The special function `name` for array module `xp`."""
    if xp is not np:
        import cupyx.scipy.special
        return getattr(cupyx.scipy.special, name)
    try:
        import scipy.special
    except ImportError:
        return _FALLBACKS[name]
    return getattr(scipy.special, name)
