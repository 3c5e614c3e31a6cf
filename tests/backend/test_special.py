"""The NumPy fallbacks of special functions (used when SciPy is absent): against SciPy where
it is installed, and through identities everywhere."""
import math

import numpy as np
import pytest

from tests.internals import _FALLBACKS, gammainc_grad_a

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


# -- the fallbacks of the ops' special functions ----------------------------------------------

WIDE = np.concatenate([np.linspace(-60, 60, 601), np.geomspace(1e-8, 1e4, 200),
                       -np.geomspace(1e-8, 1e4, 200)])
POSITIVE = WIDE[WIDE > 0]


def _close_to_scipy(got, want, rtol, atol=0.0):
    np.testing.assert_allclose(got, want, rtol=rtol, atol=atol, equal_nan=True)


@pytest.mark.parametrize("name, x, rtol, atol", [
    ("i0e", WIDE, 1e-14, 0), ("i1e", WIDE, 1e-14, 0), ("dawsn", WIDE, 1e-13, 0),
    # J and Y: absolute accuracy near their zeros
    ("j0", WIDE, 1e-13, 1e-14), ("j1", WIDE, 1e-13, 1e-14), ("y0", POSITIVE, 1e-13, 1e-14),
    ("y1", POSITIVE, 1e-13, 1e-14), ("k0e", POSITIVE, 1e-14, 0), ("k1e", POSITIVE, 1e-14, 0),
    ("expi", POSITIVE, 1e-13, 0), ("spence", POSITIVE, 1e-14, 0)])
def test_unary_fallbacks_match_scipy(name, x, rtol, atol):
    scipy_special = pytest.importorskip("scipy.special")
    _close_to_scipy(_FALLBACKS[name](x), getattr(scipy_special, name)(x), rtol, atol)


def test_fresnel_matches_scipy():
    scipy_special = pytest.importorskip("scipy.special")
    for got, want in zip(_FALLBACKS["fresnel"](WIDE), scipy_special.fresnel(WIDE)):
        _close_to_scipy(got, want, 1e-11)  # the phase pi x^2 / 2 rounds for large x


def test_incomplete_gamma_and_beta_match_scipy():
    scipy_special = pytest.importorskip("scipy.special")
    rng = np.random.default_rng(0)
    a = np.concatenate([rng.uniform(0.01, 5, 500), rng.uniform(5, 300, 500)])
    x = np.concatenate([rng.uniform(0, 10, 500), rng.uniform(0, 400, 500)])
    for name in ("gammainc", "gammaincc"):
        _close_to_scipy(_FALLBACKS[name](a, x), getattr(scipy_special, name)(a, x), 1e-11,
                        1e-300)
    b, t = a[::-1], rng.uniform(0, 1, a.size)
    _close_to_scipy(_FALLBACKS["betainc"](a, b, t), scipy_special.betainc(a, b, t), 1e-10,
                    1e-300)


def test_special_fallback_identities():
    # Wronskians tie each pair of Bessel functions together (no SciPy needed)
    x = np.geomspace(0.05, 200, 300)
    j0, j1, y0, y1 = (_FALLBACKS[n](x) for n in ("j0", "j1", "y0", "y1"))
    np.testing.assert_allclose(j1 * y0 - j0 * y1, 2 / (np.pi * x), rtol=1e-12)
    i0e, i1e, k0e, k1e = (_FALLBACKS[n](x) for n in ("i0e", "i1e", "k0e", "k1e"))
    np.testing.assert_allclose(i0e * k1e + i1e * k0e, 1 / x, rtol=1e-13)
    a = np.geomspace(0.1, 100, 300)
    p, q = _FALLBACKS["gammainc"](a, x), _FALLBACKS["gammaincc"](a, x)
    np.testing.assert_allclose(p + q, 1.0, rtol=1e-13)
    t = np.linspace(0.01, 0.99, 300)
    np.testing.assert_allclose(_FALLBACKS["betainc"](a, x, t),
                               1 - _FALLBACKS["betainc"](x, a, 1 - t), rtol=1e-10, atol=1e-300)
    # spence(z) + spence(1/z) = -log(z)^2 / 2, and Li2(1) = pi^2 / 6
    np.testing.assert_allclose(_FALLBACKS["spence"](x) + _FALLBACKS["spence"](1 / x),
                               -np.log(x) ** 2 / 2, rtol=1e-13, atol=1e-14)
    np.testing.assert_allclose(_FALLBACKS["spence"](np.array([0.0, 1.0])), [np.pi ** 2 / 6, 0])


def test_gammainc_grad_a():
    a, x = np.array([0.5, 2.0, 7.5, 30.0]), np.array([0.7, 1.0, 9.0, 25.0])
    h = 1e-5 * a
    numeric = (_FALLBACKS["gammainc"](a + h, x) - _FALLBACKS["gammainc"](a - h, x)) / (2 * h)
    np.testing.assert_allclose(gammainc_grad_a(a, x), numeric, rtol=1e-7)
    # at an integer a the continued fraction's value stops changing before its a-derivative
    np.testing.assert_allclose(gammainc_grad_a(np.array([2.0, 4.0]), np.array([3.0, 10.0])),
                               [-0.19742541957920247, -0.012038728748537201], rtol=1e-13)


def test_fallbacks_at_non_finite_arguments():
    x = np.array([np.nan, np.inf, -np.inf, 0.0, -0.0, -3.0, -1e300, 1e300])
    np.testing.assert_array_equal(
        _FALLBACKS["gammaln"](x), [np.nan, np.inf, np.inf, np.inf, np.inf, np.inf, np.inf,
                                   math.lgamma(1e300)])
    assert np.isnan(_FALLBACKS["psi"](x[[0, 5, 6]])).all()
    assert _FALLBACKS["psi"](x[1:2])[0] == np.inf


def test_fallbacks_near_the_float_range():
    """lgamma beyond the float range is inf (math.lgamma raises OverflowError), and the scaled
    Bessel functions keep their 1/sqrt(2 pi x) size where 2 pi x itself overflows."""
    huge = np.array([1e308, -1e308, 3e305])
    assert np.all(_FALLBACKS["gammaln"](huge[[0, 2]]) == np.inf)
    expected = 1 / (np.sqrt(2 * np.pi) * np.sqrt(np.abs(huge)))
    np.testing.assert_allclose(_FALLBACKS["i0e"](huge), expected, rtol=1e-12)
    np.testing.assert_allclose(_FALLBACKS["i1e"](huge), np.sign(huge) * expected, rtol=1e-12)
