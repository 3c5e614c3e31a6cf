"""Numerical gradient checking: `compute_gradient` (``tf.test.compute_gradient``).

>>> theoretical, numerical = compute_gradient(lambda x: x * x, [constant([1.0, 2.0])])
>>> theoretical[0]
array([[2., 0.],
       [0., 4.]], dtype=float32)
"""
import numpy as np

from eagerflow._src.autodiff.tape import GradientTape
from eagerflow._src.core.convert import constant, convert_to_tensor


def _default_delta(dtype):
    return {np.dtype(np.float16): 1e-1, np.dtype(np.float32): 1e-3}.get(np.dtype(dtype), 1e-6)


def compute_gradient(f, x, delta=None):
    """Theoretical (tape) and numerical (central differences) Jacobians of `f` at `x`.

    Returns two tuples with one ``(y_size, x_size)`` array per argument in `x`.
    """
    xs = [np.asarray(convert_to_tensor(v)) for v in x]
    y = np.asarray(f(*[constant(v) for v in xs]))
    y_size = y.size

    def theoretical(i, row):
        args = [constant(v) for v in xs]
        dy = np.zeros(y_size, y.dtype)
        dy[row] = 1
        with GradientTape() as tape:
            tape.watch(args)
            out = f(*args)
        g = tape.gradient(out, args[i], output_gradients=constant(dy.reshape(y.shape)))
        return np.zeros(xs[i].size, xs[i].dtype) if g is None else np.asarray(g).ravel()

    def numerical_row(i):
        step = delta if delta is not None else _default_delta(xs[i].dtype)
        cols = []
        for j in range(xs[i].size):
            plus, minus = [v.copy() for v in xs], [v.copy() for v in xs]
            plus[i].reshape(-1)[j] += step
            minus[i].reshape(-1)[j] -= step
            fp = np.asarray(f(*[constant(v) for v in plus]), np.float64)
            fm = np.asarray(f(*[constant(v) for v in minus]), np.float64)
            cols.append(((fp - fm) / (2 * step)).ravel())
        return np.stack(cols, axis=1).astype(xs[i].dtype) if cols else np.zeros(
            (y_size, 0), xs[i].dtype)

    theo = tuple(np.stack([theoretical(i, r) for r in range(y_size)]).reshape(y_size, -1)
                 if y_size else np.zeros((0, xs[i].size), xs[i].dtype) for i in range(len(xs)))
    num = tuple(numerical_row(i) for i in range(len(xs)))
    return theo, num
