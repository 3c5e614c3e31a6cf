"""The NumPy fallbacks of special functions (used when SciPy is absent)."""
import math

import numpy as np
import pytest

from eagerflow._src.backend.special import _FALLBACKS

X = np.array([-2.5, -0.3, 0.1, 0.5, 1.0, 3.7, 10.0, 100.0])


@pytest.mark.parametrize("name, ref", [("erf", math.erf), ("erfc", math.erfc),
                                       ("gammaln", math.lgamma)])
def test_fallbacks_match_math(name, ref):
    np.testing.assert_allclose(_FALLBACKS[name](X), [ref(v) for v in X], rtol=1e-15)


def test_psi_identities():
    psi = _FALLBACKS["psi"]
    np.testing.assert_allclose(psi(np.array([1.0])), [-0.5772156649015329], rtol=1e-12)
    # recurrence psi(x + 1) = psi(x) + 1/x, and reflection for negative x
    np.testing.assert_allclose(psi(X + 1), psi(X) + 1 / X, rtol=1e-10)
    assert np.isnan(psi(np.array([-2.0])))[0]
    assert np.isinf(_FALLBACKS["gammaln"](np.array([0.0])))[0]
