"""Numerical gradient checking: `compute_gradient` (``tf.test.compute_gradient``).

>>> theoretical, numerical = tf.test.compute_gradient(lambda x: x * x, [tf.constant([1.0, 2.0])])
>>> theoretical[0]
array([[2., 0.],
       [0., 4.]], dtype=float32)
"""
import numpy as np

from eagerflow._src.autodiff.tape import GradientTape
from eagerflow._src.backend.api_export import export
from eagerflow._src.core import dtypes
from eagerflow._src.core.convert import constant, convert_to_tensor


# TF's default step: a power of two, so ``x +- delta`` and the division are exact where
# the dtype allows (the numerical Jacobian of ``x * x`` is then exactly ``2 * x``).
_DEFAULT_DELTA = 1.0 / 1024
_CHECKED = (dtypes.float16, dtypes.bfloat16, dtypes.float32, dtypes.float64,
            dtypes.complex64, dtypes.complex128)


def _real_view(a):
    """`a` flattened, a complex number read as its (real, imaginary) pair, as TF's Jacobians
    index complex values."""
    a = np.ascontiguousarray(a).reshape(-1)
    return a.view(a.real.dtype) if a.dtype.kind == "c" else a


@export("test.compute_gradient")
def compute_gradient(f, x, delta=None):
    """Theoretical (tape) and numerical (central differences) Jacobians of `f` at `x`.

    Returns two tuples with one ``(y_size, x_size)`` array per argument in `x`. A complex
    value counts as two reals (its real part, then its imaginary part) in both sizes.

    >>> z = tf.constant([1 + 2j], tf.complex64)
    >>> theoretical, numerical = tf.test.compute_gradient(lambda z: z * z, [z])
    >>> theoretical[0]
    array([[ 2., -4.],
           [ 4.,  2.]], dtype=float32)
    """
    if not isinstance(x, (list, tuple)):
        raise ValueError("`x` must be a list or tuple of values convertible to a Tensor "
                         f"(arguments to `f`), not a {type(x)}")
    tensors = [convert_to_tensor(v) for v in x]
    xs = [np.asarray(t) for t in tensors]
    y = np.asarray(f(*[constant(v) for v in xs]))
    y_dtype = dtypes.as_dtype(y.dtype)
    for i, t in enumerate(tensors):  # TF asserts, argument by argument
        assert t.dtype in _CHECKED, (f"Cannot compute gradient for unsupported type "
                                     f"{t.dtype.name} of argument {i}")
        assert y_dtype in _CHECKED, (f"Cannot compute gradient for unsupported type "
                                     f"{y_dtype.name} of y")
    y_rows = y.size * (2 if y.dtype.kind == "c" else 1)

    def theoretical(i):
        jacobian = np.zeros((y_rows, _real_view(xs[i]).size), _real_view(xs[i]).dtype)
        dy = np.zeros(y.shape, y.dtype)
        for row in range(y_rows):  # a one-hot upstream gradient (1, or 1j) per row
            _real_view(dy)[row] = 1
            args = [constant(v) for v in xs]
            with GradientTape() as tape:
                tape.watch(args)
                out = f(*args)
            g = tape.gradient(out, args[i], output_gradients=constant(dy))
            if g is not None:
                jacobian[row] = _real_view(np.asarray(convert_to_tensor(g)))
            _real_view(dy)[row] = 0
        return jacobian

    def numerical(i):
        # central differences in the argument's own (real) dtype, as TF computes them
        step = _DEFAULT_DELTA if delta is None else delta
        jacobian = np.zeros((y_rows, _real_view(xs[i]).size), _real_view(xs[i]).dtype)
        scale = np.asarray(2 * step, y.real.dtype)
        for col in range(jacobian.shape[1]):
            plus, minus = [v.copy() for v in xs], [v.copy() for v in xs]
            _real_view(plus[i])[col] += step  # (the copies are contiguous: views write through)
            _real_view(minus[i])[col] -= step
            fp = np.asarray(f(*[constant(v) for v in plus]))
            fm = np.asarray(f(*[constant(v) for v in minus]))
            jacobian[:, col] = _real_view((fp - fm) / scale)
        return jacobian

    return (tuple(theoretical(i) for i in range(len(xs))),
            tuple(numerical(i) for i in range(len(xs))))
