"""The TF 1.x eager API's gradient helpers (re-exported later as ``contrib.eager``).

>>> grad = gradients_function(lambda x: x * x)
>>> grad(3.0)
[<tf.Tensor: shape=(), dtype=float32, numpy=6.0>]
"""
import functools

from eagerflow._src.autodiff.tape import GradientTape
from eagerflow._src.core.convert import convert_to_tensor


def value_and_gradients_function(f, params=None):
    """A function returning ``(f(*args), [df/d arg for the chosen args])``.

    `params` selects arguments by index (default: all).
    """
    @functools.wraps(f)
    def decorated(*args, **kwargs):
        xs = [convert_to_tensor(a) for a in args]
        chosen = range(len(xs)) if params is None else params
        with GradientTape() as tape:
            tape.watch([xs[i] for i in chosen])
            value = f(*xs, **kwargs)
        return value, tape.gradient(value, [xs[i] for i in chosen])
    return decorated


def gradients_function(f, params=None):
    """A function returning the gradients of `f` with respect to its arguments."""
    vg = value_and_gradients_function(f, params)
    return functools.wraps(f)(lambda *args, **kwargs: vg(*args, **kwargs)[1])


def implicit_value_and_gradients(f):
    """A function returning ``(f(*args), [(gradient, variable), ...])`` for the
    trainable variables `f` reads."""
    @functools.wraps(f)
    def decorated(*args, **kwargs):
        with GradientTape() as tape:
            value = f(*args, **kwargs)
        variables = tape.watched_variables()
        if not variables:
            raise ValueError("No trainable variables were accessed while the function was "
                             "being computed.")
        return value, list(zip(tape.gradient(value, list(variables)), variables))
    return decorated


def implicit_gradients(f):
    """A function returning ``[(gradient, variable), ...]`` for the variables `f` reads."""
    vg = implicit_value_and_gradients(f)
    return functools.wraps(f)(lambda *args, **kwargs: vg(*args, **kwargs)[1])
