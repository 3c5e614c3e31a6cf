"""Eigen's two-sided Jacobi SVD (``JacobiSVD`` with its column-pivoting Householder QR
preconditioner), which TensorFlow's CPU kernel of ``Svd`` runs on matrices of fewer than 16
columns: LAPACK's SVD gives the same singular values, but the signs of its singular vectors
(and the basis it picks for a full U's or V's extra columns) are its own.

The steps are Eigen's, in float64: scale by the largest magnitude; reduce a rectangular
matrix to a square one by QR with column pivoting (of its transpose when it is wide); sweep
over the pairs (p, q) with a 2x2 SVD of each off-diagonal block above the threshold until none
is; make the diagonal positive through U; sort the values, swapping columns as Eigen does.
One matrix at a time in plain Python (cheaper than array calls at these sizes), a stack of
them with array operations on the whole stack.

>>> s, u, v = svd_like_eigen(np.array([[[3.0, 0.0], [0.0, -4.0]]]), False)
>>> s.tolist(), u[0].tolist(), v[0].tolist()  # (TF's -0.0 too)
([[4.0, 3.0]], [[-0.0, 1.0], [-1.0, 0.0]], [[0.0, 1.0], [1.0, 0.0]])
"""
import math

import numpy as np

_TINY = float(np.finfo(np.float64).tiny)
MAX_COLUMNS = 15  # wider matrices go to Eigen's divide-and-conquer SVD in TF


def svd_like_eigen(x, full_matrices):
    """``(s, u, v)`` of the real matrices `x` (shape ``(..., m, n)``, n <= `MAX_COLUMNS`) as
    Eigen's JacobiSVD computes them for x's dtype, in x's dtype."""
    batch, (m, n) = x.shape[:-2], x.shape[-2:]
    eps = float(np.finfo(x.dtype).eps)
    a = x.reshape((-1, m, n)).astype(np.float64)
    b, d = a.shape[0], min(m, n)
    with np.errstate(all="ignore"):
        scale = np.abs(a).reshape(b, -1).max(axis=1, initial=0.0)
        scale[scale == 0] = 1
        a = a / scale[:, None, None]
        if m > n:
            u, w, perm = _pivoted_qr(a)
            v = _permutation(perm)
        elif n > m:
            v, w, perm = _pivoted_qr(np.swapaxes(a, 1, 2))
            w = np.ascontiguousarray(np.swapaxes(w, 1, 2))
            u = _permutation(perm)
        else:
            w, u, v = a, np.tile(np.eye(m), (b, 1, 1)), np.tile(np.eye(n), (b, 1, 1))
        if b < 8:
            diag = np.empty((b, d))
            for k in range(b):
                rows, u_cols, v_cols = w[k].tolist(), u[k].T.tolist(), v[k].T.tolist()
                _sweep(rows, u_cols, v_cols, d, eps)
                u[k], v[k] = np.array(u_cols).T, np.array(v_cols).T
                diag[k] = [rows[i][i] for i in range(d)]
        else:
            diag = _sweep_stack(w, u, v, d, eps)
    s = np.abs(diag) * scale[:, None]
    u[:, :, :d] *= np.where(diag < 0, -1.0, 1.0)[:, None, :]
    for i in range(d - 1):  # Eigen's sort: the largest remaining value swapped into place
        pos = i + np.argmax(s[:, i:], axis=1)
        swap = np.nonzero(pos != i)[0]
        if swap.size:
            j = pos[swap]
            for arr in (s[:, None, :], u, v):
                arr[swap, :, i], arr[swap, :, j] = arr[swap, :, j], arr[swap, :, i].copy()
    if not full_matrices:
        u, v = u[:, :, :d], v[:, :, :d]
    dtype = x.dtype
    return (s.astype(dtype).reshape(batch + (d,)), u.astype(dtype).reshape(batch + u.shape[1:]),
            v.astype(dtype).reshape(batch + v.shape[1:]))


def _permutation(perm):
    b, n = perm.shape
    p = np.zeros((b, n, n))
    p[np.arange(b)[:, None], perm, np.arange(n)[None, :]] = 1
    return p


def _pivoted_qr(a):
    """Eigen's ColPivHouseholderQR of the tall matrices `a` (m >= n): (full Q, the square R,
    the column order)."""
    b, m, n = a.shape
    r = a.copy()
    rows = np.arange(b)
    perm = np.tile(np.arange(n), (b, 1))
    reflectors = []
    for k in range(n):
        j = k + np.argmax(np.sum(r[:, k:, k:] ** 2, axis=1), axis=1)  # the largest column left
        r[rows, :, k], r[rows, :, j] = r[rows, :, j], r[rows, :, k].copy()
        perm[rows, k], perm[rows, j] = perm[rows, j], perm[rows, k].copy()
        c0, tail = r[:, k, k].copy(), r[:, k + 1:, k]
        tail_sq = np.sum(tail ** 2, axis=1)
        done = tail_sq <= _TINY  # already triangular: no reflection
        beta = np.sqrt(c0 * c0 + tail_sq)
        beta = np.where(done, c0, np.where(c0 >= 0, -beta, beta))
        tau = np.where(done, 0.0, (beta - c0) / beta)
        vec = np.concatenate([np.ones((b, 1)), np.where(done[:, None], 0.0, tail / (
            c0 - beta)[:, None])], axis=1)
        r[:, k, k], r[:, k + 1:, k] = beta, 0
        _reflect(r[:, k:, k + 1:], vec, tau)
        reflectors.append((vec, tau))
    q = np.tile(np.eye(m), (b, 1, 1))
    for k in reversed(range(n)):
        _reflect(q[:, k:, :], *reflectors[k])
    return q, np.triu(r[:, :n, :n]), perm


def _reflect(block, vec, tau):
    block -= tau[:, None, None] * vec[:, :, None] * np.einsum("bi,bij->bj", vec, block)[:, None]


def _rotations(m00, m01, m10, m11):
    """Eigen's real_2x2_jacobi_svd of [[m00, m01], [m10, m11]]: the left and right rotations
    ``(cl, sl, cr, sr)``, for Python floats."""
    t, d = m00 + m11, m10 - m01
    if abs(d) < _TINY:
        c1, s1 = 1.0, 0.0
    else:
        u = t / d
        s1 = 1 / math.sqrt(1 + u * u)
        c1 = u * s1
    n00, n01, n11 = c1 * m00 + s1 * m10, c1 * m01 + s1 * m11, c1 * m11 - s1 * m01
    deno = 2 * abs(n01)
    if deno < _TINY:
        cr, sr = 1.0, 0.0
    else:
        tau = (n00 - n11) / deno
        root = math.sqrt(tau * tau + 1)
        t = 1 / (tau + root) if tau > 0 else 1 / (tau - root)
        cr = 1 / math.sqrt(t * t + 1)
        sr = -math.copysign(abs(t) * cr, t) * math.copysign(1.0, n01)
    return c1 * cr + s1 * sr, s1 * cr - c1 * sr, cr, sr


def _sweep(w, u, v, d, eps):
    """The sweeps on one matrix: `w` a list of rows, `u` and `v` lists of columns."""
    biggest = max(abs(w[i][i]) for i in range(d))
    busy = True
    while busy:
        busy = False
        for p in range(1, d):
            for q in range(p):
                threshold = max(_TINY, 2 * eps * biggest)
                wp, wq = w[p], w[q]
                if not (abs(wp[q]) > threshold or abs(wq[p]) > threshold):
                    continue
                busy = True
                cl, sl, cr, sr = _rotations(wp[p], wp[q], wq[p], wq[q])
                w[p] = [cl * x + sl * y for x, y in zip(wp, wq)]
                w[q] = [cl * y - sl * x for x, y in zip(wp, wq)]
                up, uq = u[p], u[q]
                u[p] = [cl * x + sl * y for x, y in zip(up, uq)]
                u[q] = [cl * y - sl * x for x, y in zip(up, uq)]
                for row in w:
                    x, y = row[p], row[q]
                    row[p], row[q] = cr * x - sr * y, sr * x + cr * y
                vp, vq = v[p], v[q]
                v[p] = [cr * x - sr * y for x, y in zip(vp, vq)]
                v[q] = [sr * x + cr * y for x, y in zip(vp, vq)]
                biggest = max(biggest, abs(w[p][p]), abs(w[q][q]))


def _sweep_stack(w, u, v, d, eps):
    """`_sweep` on a stack of matrices at once (a matrix with nothing to do at (p, q) gets
    the identity rotation): returns the diagonals."""
    biggest = np.abs(np.diagonal(w, axis1=1, axis2=2)).max(axis=1)
    busy = True
    while busy:
        busy = False
        for p in range(1, d):
            for q in range(p):
                threshold = np.maximum(_TINY, 2 * eps * biggest)
                m00, m01, m10, m11 = w[:, p, p], w[:, p, q], w[:, q, p], w[:, q, q]
                act = (np.abs(m01) > threshold) | (np.abs(m10) > threshold)
                if not act.any():
                    continue
                busy = True
                t, dd = m00 + m11, m10 - m01
                s1 = 1 / np.sqrt(1 + (t / dd) ** 2)
                c1 = t / dd * s1
                flat = np.abs(dd) < _TINY
                c1[flat], s1[flat] = 1, 0
                n00, n01, n11 = c1 * m00 + s1 * m10, c1 * m01 + s1 * m11, c1 * m11 - s1 * m01
                deno = 2 * np.abs(n01)
                tau = (n00 - n11) / deno
                root = np.sqrt(tau * tau + 1)
                t = 1 / np.where(tau > 0, tau + root, tau - root)
                cr = 1 / np.sqrt(t * t + 1)
                sr = -np.sign(t) * np.sign(n01) * np.abs(t) * cr
                still = (deno < _TINY) | ~act
                cr[still], sr[still] = 1, 0
                cl, sl = c1 * cr + s1 * sr, s1 * cr - c1 * sr
                cl[~act], sl[~act] = 1, 0
                _rotate(w[:, p, :], w[:, q, :], cl, sl)
                _rotate(u[:, :, p], u[:, :, q], cl, sl)
                _rotate(w[:, :, p], w[:, :, q], cr, -sr)
                _rotate(v[:, :, p], v[:, :, q], cr, -sr)
                grown = np.maximum(np.abs(w[:, p, p]), np.abs(w[:, q, q]))
                biggest = np.where(act, np.maximum(biggest, grown), biggest)
    return np.diagonal(w, axis1=1, axis2=2).copy()


def _rotate(x, y, c, s):
    """x, y <- c x + s y, c y - s x (in place; c and s per matrix)."""
    c, s = c[:, None], s[:, None]
    x0 = x.copy()
    x *= c
    x += s * y
    y *= c
    y -= s * x0
