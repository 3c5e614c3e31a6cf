"""Special functions (erf, gammaln, psi, incomplete gamma and beta, Bessel, ...) for kernels.

SciPy's implementations are used when SciPy is installed (the ``scipy``
extra); otherwise the NumPy implementations of `special_fallbacks`.
"""
import numpy as np

from eagerflow._src.backend.special_fallbacks import FALLBACKS as _FALLBACKS
from eagerflow._src.backend.special_fallbacks import gammainc_grad_a

# Functions SciPy lacks: always the implementations here.
_OWN = {"gammainc_grad_a": gammainc_grad_a}


def special(xp, name):
    """The special function `name` (SciPy's name) for array module `xp`."""
    if name in _OWN:
        return _OWN[name]
    if xp is not np:
        import cupyx.scipy.special
        return getattr(cupyx.scipy.special, name)
    try:
        import scipy.special
    except ImportError:
        return _FALLBACKS[name]
    return getattr(scipy.special, name)
