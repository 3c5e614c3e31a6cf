"""Eigen's symmetric eigensolver (``SelfAdjointEigenSolver``: Householder tridiagonalization,
then implicit QR steps with Wilkinson shifts), which TensorFlow's CPU kernel of
``SelfAdjointEigV2`` runs: LAPACK's ``syevd`` gives the same eigenvalues, but the signs of its
eigenvectors are its own.

The steps are Eigen's, in float64 with the deflation test of the input's precision: the lower
triangle scaled by its largest magnitude, reduced to a tridiagonal matrix (the eigenvectors
start from the product of the reflectors); QR steps on the largest unreduced block at the end
until every off-diagonal entry is negligible; eigenvalues sorted ascending, swapping columns
as Eigen does.

>>> e, v = eigh_like_eigen(np.array([[2.0, 1.0], [1.0, 2.0]]))
>>> e.round(4).tolist(), v.round(4).tolist()
([1.0, 3.0], [[-0.7071, 0.7071], [0.7071, 0.7071]])
"""
import math

import numpy as np

from eagerflow._src.backend.real_schur import _householder, _left, _right

MAX_SIZE = 32  # larger matrices keep LAPACK's eigenvectors, for speed
MAX_MATRICES = 64  # and so do larger stacks of matrices
_TINY = float(np.finfo(np.float64).tiny)


def eigh_like_eigen(a):
    """``(eigenvalues, eigenvectors)`` of the real symmetric matrix `a` (its lower triangle
    read) as Eigen computes them for a's dtype, in a's dtype."""
    n = a.shape[0]
    eps = float(np.finfo(a.dtype).eps)
    low = np.tril(a).astype(np.float64)
    scale = float(np.abs(low).max(initial=0.0)) or 1.0
    m = (low + np.tril(low, -1).T) / scale
    q = np.eye(n)
    for i in range(n - 1):
        ess, tau, _ = _householder(m[i + 1:, i].copy(), _TINY)
        _left(m[i + 1:, :], ess, tau)
        _right(m[:, i + 1:], ess, tau)
        _right(q[:, i + 1:], ess, tau)
    diag = np.diagonal(m).tolist()
    sub = [float(m[i + 1, i]) for i in range(n - 1)]
    end, start, steps = n - 1, 0, 0
    while end > 0:
        for i in range(start, end):
            # negligible against its diagonal neighbours (scaled so as not to underflow)
            if abs(sub[i]) < _TINY or (sub[i] / eps) ** 2 <= abs(diag[i]) + abs(diag[i + 1]):
                sub[i] = 0.0
        while end > 0 and sub[end - 1] == 0:
            end -= 1
        if end <= 0:
            break
        steps += 1
        if steps > 30 * n * n:  # (Eigen gives up: NoConvergence)
            break
        start = end - 1
        while start > 0 and sub[start - 1] != 0:
            start -= 1
        _qr_step(diag, sub, start, end, q)
    for i in range(n - 1):  # Eigen's sort: the smallest remaining value swapped into place
        k = i + int(np.argmin(diag[i:]))
        if k > i:
            diag[i], diag[k] = diag[k], diag[i]
            q[:, [i, k]] = q[:, [k, i]]
    return (np.array(diag) * scale).astype(a.dtype), q.astype(a.dtype)


def _qr_step(diag, sub, start, end, q):
    """Eigen's implicit symmetric QR step with Wilkinson shift on rows start..end."""
    td = (diag[end - 1] - diag[end]) * 0.5
    e = sub[end - 1]
    mu = diag[end]
    if td == 0:
        mu -= abs(e)
    elif e != 0:
        h = math.hypot(td, e)
        if e * e == 0:
            mu -= e / ((td + (h if td > 0 else -h)) / e)
        else:
            mu -= e * e / (td + (h if td > 0 else -h))
    x, z = diag[start] - mu, sub[start]
    k = start
    while k < end and z != 0:
        c, s = _givens(x, z)
        sdk = s * diag[k] + c * sub[k]
        dkp1 = s * sub[k] + c * diag[k + 1]
        diag[k] = c * (c * diag[k] - s * sub[k]) - s * (c * sub[k] - s * diag[k + 1])
        diag[k + 1] = s * sdk + c * dkp1
        sub[k] = c * sdk - s * dkp1
        if k > start:
            sub[k - 1] = c * sub[k - 1] - s * z
        x = sub[k]
        if k < end - 1:
            z = -s * sub[k + 1]
            sub[k + 1] = c * sub[k + 1]
        qk = q[:, k].copy()
        q[:, k] = c * qk - s * q[:, k + 1]
        q[:, k + 1] = s * qk + c * q[:, k + 1]
        k += 1


def _givens(p, q):
    """Eigen's Givens rotation ``(c, s)`` zeroing q against p (Python floats)."""
    if q == 0:
        return (-1.0 if p < 0 else 1.0), 0.0
    if p == 0:
        return 0.0, (1.0 if q < 0 else -1.0)
    if abs(p) > abs(q):
        t = q / p
        u = math.sqrt(1 + t * t)
        u = -u if p < 0 else u
        return 1 / u, -t / u
    t = p / q
    u = math.sqrt(1 + t * t)
    u = -u if q < 0 else u
    return t / u, -1 / u
