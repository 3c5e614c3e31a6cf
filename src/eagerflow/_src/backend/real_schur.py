"""Eigen's real Schur decomposition (Householder Hessenberg reduction, then Francis
double-shift QR steps with its deflation test and exceptional shifts), which TensorFlow's
CPU kernel of ``Eig`` runs on real matrices: the eigenvalues come out in the order of the
Schur form's diagonal, which LAPACK's (balanced, multishift) ``geev`` does not keep.

Only the order and the eigenvectors' signs and phases are taken from it (see
`eig_like_eigen`); the values themselves are LAPACK's.
"""
import numpy as np


def _householder(x, tiny):  # (Eigen's makeHouseholder)
    """(essential, tau, beta) of the reflector that maps x to beta * e0."""
    c0 = x[0]
    tail = x[1:]
    tail_sq = tail @ tail if tail.size else x.dtype.type(0)
    if tail_sq <= tiny:
        return np.zeros_like(tail), x.dtype.type(0), c0
    beta = np.sqrt(c0 * c0 + tail_sq)
    if c0 >= 0:
        beta = -beta
    return tail / (c0 - beta), (beta - c0) / beta, beta


def _left(m, ess, tau):
    if tau == 0:
        return
    v = np.concatenate([[1], ess]).astype(m.dtype)
    m -= tau * np.outer(v, v @ m)


def _right(m, ess, tau):
    if tau == 0:
        return
    v = np.concatenate([[1], ess]).astype(m.dtype)
    m -= tau * np.outer(m @ v, v)


def real_schur(a):
    """Eigen's real Schur form (T, U) of one real square matrix, in a's precision:
    ``a = U T U^T``, T quasi upper triangular."""
    dt = a.dtype.type
    n = a.shape[0]
    eps, tiny = np.finfo(a.dtype).eps, np.finfo(a.dtype).tiny
    scale = np.abs(a).max()
    if scale < tiny:
        return np.zeros_like(a), np.eye(n, dtype=a.dtype)
    t = (a / scale).astype(a.dtype)
    u = np.eye(n, dtype=a.dtype)
    for i in range(n - 1):
        ess, tau, beta = _householder(t[i + 1:, i].copy(), tiny)
        t[i + 1, i] = beta
        t[i + 2:, i] = 0
        _left(t[i + 1:, i + 1:], ess, tau)
        _right(t[:, i + 1:], ess, tau)
        _right(u[:, i + 1:], ess, tau)
    norm = dt(0)
    for j in range(n):
        norm += np.abs(t[:min(n, j + 2), j]).sum(dtype=a.dtype)
    if norm != 0:
        zero = max(norm * eps * eps, tiny)
        iu, it, total, exshift = n - 1, 0, 0, dt(0)
        while iu >= 0:
            il = iu
            while il > 0:
                s = max((abs(t[il - 1, il - 1]) + abs(t[il, il])) * eps, zero)
                if abs(t[il, il - 1]) <= s:
                    break
                il -= 1
            if il == iu:
                t[iu, iu] += exshift
                if iu > 0:
                    t[iu, iu - 1] = 0
                iu -= 1
                it = 0
            elif il == iu - 1:
                _split_two(t, u, iu, exshift)
                iu -= 2
                it = 0
            else:
                shift = _shift(t, iu, it, exshift)
                exshift = shift[3]
                it += 1
                total += 1
                if total > 40 * n:
                    break
                im, v = _init_step(t, il, iu, shift[:3], eps)
                _francis_step(t, u, il, im, iu, v, tiny)
    return t * scale, u


def _split_two(t, u, iu, exshift):
    n = t.shape[0]
    p = t.dtype.type(0.5) * (t[iu - 1, iu - 1] - t[iu, iu])
    q = p * p + t[iu, iu - 1] * t[iu - 1, iu]
    t[iu, iu] += exshift
    t[iu - 1, iu - 1] += exshift
    if q >= 0:
        z = np.sqrt(abs(q))
        c, s = _givens(p + z if p >= 0 else p - z, t[iu, iu - 1])
        # rows iu-1, iu from the left by rot^T; columns by rot
        rows = t[[iu - 1, iu], iu - 1:].copy()
        t[iu - 1, iu - 1:] = c * rows[0] - s * rows[1]
        t[iu, iu - 1:] = s * rows[0] + c * rows[1]
        for m in (t[:iu + 1], u):
            cols = m[:, [iu - 1, iu]].copy()
            m[:, iu - 1] = c * cols[:, 0] - s * cols[:, 1]
            m[:, iu] = s * cols[:, 0] + c * cols[:, 1]
        t[iu, iu - 1] = 0
    if iu > 1:
        t[iu - 1, iu - 2] = 0


def _givens(p, q):
    """Eigen's Givens rotation (c, s) zeroing q against p."""
    if q == 0:
        return (p.dtype.type(-1) if p < 0 else p.dtype.type(1)), p.dtype.type(0)
    if p == 0:
        return p.dtype.type(0), (p.dtype.type(1) if q < 0 else p.dtype.type(-1))
    if abs(p) > abs(q):
        tt = q / p
        uu = np.sqrt(1 + tt * tt)
        if p < 0:
            uu = -uu
        c = 1 / uu
        s = -tt * c
    else:
        tt = p / q
        uu = np.sqrt(1 + tt * tt)
        if q < 0:
            uu = -uu
        s = -1 / uu
        c = -tt * s
    return c, s


def _shift(t, iu, it, exshift):
    x, y, w = t[iu, iu], t[iu - 1, iu - 1], t[iu, iu - 1] * t[iu - 1, iu]
    dt = t.dtype.type
    if it == 10:
        exshift += x
        for i in range(iu + 1):
            t[i, i] -= x
        s = abs(t[iu, iu - 1]) + abs(t[iu - 1, iu - 2])
        x = y = dt(0.75) * s
        w = dt(-0.4375) * s * s
    if it == 30:
        s = (y - x) / dt(2)
        s = s * s + w
        if s > 0:
            s = np.sqrt(s)
            if y < x:
                s = -s
            s = s + (y - x) / dt(2)
            s = x - w / s
            exshift += s
            for i in range(iu + 1):
                t[i, i] -= s
            x = y = w = dt(0.964)
    return x, y, w, exshift


def _init_step(t, il, iu, shift, eps):
    x, y, w = shift
    im = iu - 2
    while im >= il:
        tmm = t[im, im]
        r, s = x - tmm, y - tmm
        v = np.array([(r * s - w) / t[im + 1, im] + t[im, im + 1],
                      t[im + 1, im + 1] - tmm - r - s, t[im + 2, im + 1]], t.dtype)
        if im == il:
            break
        lhs = t[im, im - 1] * (abs(v[1]) + abs(v[2]))
        rhs = v[0] * (abs(t[im - 1, im - 1]) + abs(tmm) + abs(t[im + 1, im + 1]))
        if abs(lhs) < eps * rhs:
            break
        im -= 1
    return im, v


def _francis_step(t, u, il, im, iu, first, tiny):
    n = t.shape[0]
    for k in range(im, iu - 1):
        v = first if k == im else t[k:k + 3, k - 1].copy()
        ess, tau, beta = _householder(v, tiny)
        if beta != 0:
            if k == im and k > il:
                t[k, k - 1] = -t[k, k - 1]
            elif k != im:
                t[k, k - 1] = beta
            _left(t[k:k + 3, k:], ess, tau)
            _right(t[:min(iu, k + 3) + 1, k:k + 3], ess, tau)
            _right(u[:, k:k + 3], ess, tau)
    v = t[iu - 1:iu + 1, iu - 2].copy()
    ess, tau, beta = _householder(v, tiny)
    if beta != 0:
        t[iu - 1, iu - 2] = beta
        _left(t[iu - 1:iu + 1, iu - 1:], ess, tau)
        _right(t[:iu + 1, iu - 1:iu + 1], ess, tau)
        _right(u[:, iu - 1:iu + 1], ess, tau)
    for i in range(im + 2, iu + 1):
        t[i, i - 2] = 0
        if i > im + 2:
            t[i, i - 3] = 0


def eigenvalues(t):
    """The eigenvalues of a real Schur form in its order (a pair: positive imaginary first)."""
    n = t.shape[0]
    out, i = [], 0
    while i < n:
        if i == n - 1 or t[i + 1, i] == 0:
            out.append(complex(t[i, i]))
            i += 1
        else:
            p = 0.5 * (t[i, i] - t[i + 1, i + 1])
            t0, t1 = t[i + 1, i], t[i, i + 1]
            mx = max(abs(p), abs(t0), abs(t1))
            z = mx * np.sqrt(abs((p / mx) ** 2 + (t0 / mx) * (t1 / mx)))
            out += [complex(t[i + 1, i + 1] + p, z), complex(t[i + 1, i + 1] + p, -z)]
            i += 2
    return np.array(out)


def eig_like_eigen(a, compute_v):
    """LAPACK's eigenvalues (and unit eigenvectors) of one real square matrix in the order
    of Eigen's real Schur form, each vector's sign (phase, for a complex pair) Eigen's: the
    Schur basis vector of its eigenvalue's position (the second of a pair's) has a positive
    (positive imaginary) coefficient."""
    t, u = real_schur(a)
    order = eigenvalues(t)
    if compute_v:
        values, vectors = np.linalg.eig(a)
    else:
        values, vectors = np.linalg.eigvals(a), None
    free = list(range(len(values)))
    picks = []
    for target in order:
        k = min(free, key=lambda j: abs(values[j] - target))
        free.remove(k)
        picks.append(k)
    values = values[picks]
    if not compute_v:
        return values, None
    vectors = vectors[:, picks].astype(np.complex128)
    coefficients = u.T.astype(np.complex128) @ vectors
    i, n = 0, len(order)
    while i < n:
        if order[i].imag == 0:
            c = coefficients[i, i]
            if c.real < 0:
                vectors[:, i] = -vectors[:, i].real  # (+0 imaginary parts, as TF's)
            i += 1
        else:
            c = coefficients[i + 1, i]
            if c != 0:
                vectors[:, i] *= 1j * abs(c) / c
            vectors[:, i + 1] = vectors[:, i].conj()
            i += 2
    return values, vectors
