"""Numerical gradient checking: `compute_gradient` (``tf.test.compute_gradient``).

>>> theoretical, numerical = tf.test.compute_gradient(lambda x: x * x, [tf.constant([1.0, 2.0])])
>>> theoretical[0]
array([[2., 0.],
       [0., 4.]], dtype=float32)
"""
import numpy as np

from eagerflow._src.autodiff.tape import GradientTape
from eagerflow._src.backend.api_export import export
from eagerflow._src.core.convert import constant, convert_to_tensor


# TF's default step: a power of two, so ``x +- delta`` and the division are exact where
# the dtype allows (the numerical Jacobian of ``x * x`` is then exactly ``2 * x``).
_DEFAULT_DELTA = 1.0 / 1024


@export("test.compute_gradient")
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
        # central differences in the argument's own dtype, as TF computes them
        step = np.asarray(_DEFAULT_DELTA if delta is None else delta, xs[i].dtype)
        cols = []
        for j in range(xs[i].size):
            plus, minus = [v.copy() for v in xs], [v.copy() for v in xs]
            plus[i].reshape(-1)[j] += step
            minus[i].reshape(-1)[j] -= step
            fp = np.asarray(f(*[constant(v) for v in plus]))
            fm = np.asarray(f(*[constant(v) for v in minus]))
            cols.append(((fp - fm) / (2 * step)).ravel())
        return np.stack(cols, axis=1).astype(xs[i].dtype) if cols else np.zeros(
            (y_size, 0), xs[i].dtype)

    theo = tuple(np.stack([theoretical(i, r) for r in range(y_size)]).reshape(y_size, -1)
                 if y_size else np.zeros((0, xs[i].size), xs[i].dtype) for i in range(len(xs)))
    num = tuple(numerical_row(i) for i in range(len(xs)))
    return theo, num
