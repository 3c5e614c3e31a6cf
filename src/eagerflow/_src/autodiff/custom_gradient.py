"""`custom_gradient`: a function that supplies its own gradient.

The decorated function runs recorded as usual; its outputs, inputs and the
variables it read pass through one ``IdentityN`` op whose
``_gradient_op_type`` attribute names the user's ``grad_fn``, registered by
that name (`backprop.name_gradient`), as TensorFlow does: tapes see a
single op from the inputs to the outputs, and a graph holds only the name.

>>> @tf.custom_gradient
... def log1pexp(x):
...     e = tf.exp(x)
...     def grad(upstream):
...         return upstream * (1 - 1 / (1 + e))
...     return tf.math.log(1 + e), grad
"""
import functools
import inspect

from eagerflow._src.autodiff.backprop import hold, name_gradient
from eagerflow._src.autodiff.tape import _Recorder, watch_accessed
from eagerflow._src.backend.api_export import export
from eagerflow._src.core import context, errors, nest
from eagerflow._src.core.convert import convert_to_tensor
from eagerflow._src.core.dispatch import dispatch
from eagerflow._src.core.registry import get as get_op
from eagerflow._src.ops import array_ops

_IDENTITY_N = get_op("IdentityN")
_IDENTITY = get_op("Identity")


@export("custom_gradient")
def custom_gradient(f=None):
    """Decorator: ``f(*x)`` returns ``(y, grad_fn)``; ``grad_fn(*dy)`` gives d(y)/d(x).

    Every positional argument is an input (as in TF): Python numbers and other
    values convert to tensors, and `grad_fn` returns one gradient for each
    leaf of them (None for those not differentiated).  Keyword arguments are
    not inputs.  When `f` reads variables, `grad_fn` must accept
    ``variables=`` and return ``(input_grads, variable_grads)``.
    """
    if f is None:
        return custom_gradient
    return _Decorated(f)


class _Decorated:
    """A custom-gradient function; as a method, bound to its instance first (which is
    then no input), as TF's decorator binds it."""

    def __init__(self, f):
        self._f = f
        functools.update_wrapper(self, f)

    def __get__(self, instance, owner=None):
        if instance is None:
            return self
        return _Decorated(self._f.__get__(instance, owner))

    def __call__(self, *args, **kwargs):
        return _call(self._f, args, kwargs)


def _call(f, args, kwargs):
    """Runs `f` (recorded as usual), its outputs passing through the IdentityN naming its
    gradient."""
    graph = context.get().graph
    if kwargs and graph is not None:
        raise ValueError("The custom_gradient decorator currently supports keywords "
                         "arguments only when eager execution is enabled.")
    spy = _VariableSpy(watch_accessed_variables=True)
    # f's ops stay on enclosing tapes (the IdentityN below cuts them off the outputs'
    # gradient), so that what grad_fn computes from f's values is differentiable again
    with context.recording(spy):
        result, grad_fn = f(*args, **kwargs)
    flat_args = nest.flatten(args)
    passed = flat_args + nest.flatten(kwargs)
    variables = [v for v in spy.variables.values() if not any(v is a for a in passed)]
    if variables and not _takes_variables(grad_fn):
        raise TypeError(f"@tf.custom_gradient grad_fn must accept keyword argument "
                        f"'variables', since function uses variables: {variables}")
    watch_accessed(variables)  # outer tapes watch what f read, as usual
    # (a variable argument is read here, where tapes see the read)
    inputs = [convert_to_tensor(a) for a in flat_args]
    flat_out = [convert_to_tensor(o) for o in nest.flatten(result)]
    grad = _gradient(f.__name__, grad_fn, len(inputs), variables, flat_out)
    # The outputs, inputs and variables pass through one IdentityN op naming the gradient
    # (inputs and variables ride along only so tapes connect them to the outputs).
    # As in TF, a tape that watches none of the inputs and variables (say, f's tensors came
    # as keyword arguments) keeps f's own ops: the outputs are plain identities for it.
    natural = () if graph is not None else _unwatching(inputs + variables)
    with context.recorded_by([r for r in context.get().recorders if r not in natural]):
        outs = dispatch(_IDENTITY_N, (*flat_out, *inputs, *variables),
                        {"_gradient_op_type": name_gradient("CustomGradient", grad)})
    for recorder in natural:
        for value, out in zip(flat_out, outs):
            recorder.record(_IDENTITY, (value,), {}, out)
    if graph is not None or outs:  # held as long as a tape or graph may need it
        hold(outs[0] if graph is None else graph, grad)
    return nest.pack_sequence_as(result, list(outs[:len(flat_out)]))


def _unwatching(values):
    """The active tapes that watch none of `values`."""
    return tuple(r for r in context.get().recorders
                 if type(r) is not _VariableSpy and isinstance(r, _Recorder)
                 and not any(id(v) in r.watched for v in values))


class _VariableSpy(_Recorder):
    """Sees the variables a custom gradient's function reads."""
    __slots__ = ()


def _takes_variables(grad_fn):
    params = inspect.signature(grad_fn).parameters
    return "variables" in params or any(p.kind is p.VAR_KEYWORD for p in params.values())


def _gradient(name, grad_fn, n_inputs, variables, outputs):
    """The gradient of the IdentityN over (outputs, inputs, variables): `grad_fn` on the
    outputs' incoming gradients (zeros where none comes)."""
    k = len(outputs)

    def grad(view, *dys):
        dys = [array_ops.zeros_like(y) if dy is None else dy
               for y, dy in zip(view.outputs[:k], dys[:k])]
        for dy, y in zip(dys, outputs):
            if not dy.shape.is_compatible_with(y.shape):
                raise ValueError(f"The upstream gradient of {name} has shape {dy.shape}, but "
                                 f"the output has shape {y.shape}.")
        if variables:
            in_grads, var_grads = grad_fn(*dys, variables=variables)
            var_grads = list(var_grads)
            if len(var_grads) != len(variables):
                raise ValueError("Must return gradient for each variable from "
                                 "@custom_gradient grad_fn.")
        else:
            in_grads, var_grads = grad_fn(*dys), []
        in_grads = nest.flatten(in_grads)
        if len(in_grads) != n_inputs:
            if context.get().graph is not None:  # TF's error where the tape was traced
                expected = len(outputs) + n_inputs + len(variables)
                raise errors.InternalError(
                    None, None, f"Recorded operation '{name}' returned too few gradients. "
                                f"Expected {expected} but received "
                                f"{len(outputs) + len(in_grads) + len(var_grads)}")
            raise ValueError(f"custom_gradient function expected to return {n_inputs} "
                             f"gradients, but returned {len(in_grads)} instead.")
        return [None] * k + in_grads + var_grads
    return grad


@export("grad_pass_through")
def grad_pass_through(f):
    """`f` forwards as usual, but its gradient is the identity (straight-through).

    >>> round_st = tf.grad_pass_through(round)   # d round_st(x) / dx == 1
    """
    @functools.wraps(f)
    def wrapped(*args, **kwargs):
        @custom_gradient
        def through(*args, **kwargs):
            def grad(*dys, variables=None):  # (the variables f reads get none, as in TF)
                return (dys, [None] * len(variables)) if variables else dys
            return f(*args, **kwargs), grad
        return through(*args, **kwargs)
    return wrapped


@export("recompute_grad")
def recompute_grad(f):
    """`f` without keeping its intermediate values: they are recomputed for the gradient.

    Saves memory on long forward passes at the cost of running `f` twice.
    """
    from eagerflow._src.autodiff.tape import GradientTape

    @functools.wraps(f)
    def outer(*args, **kwargs):
        @custom_gradient
        def inner(*xs):
            def grad(*dys, variables=None):
                with GradientTape() as tape:
                    tape.watch(list(xs))
                    again = f(*xs, **kwargs)
                sources = list(xs) + list(variables or [])
                grads = tape.gradient(again, sources, output_gradients=list(dys))
                if variables is None:
                    return grads[:len(xs)]
                return grads[:len(xs)], grads[len(xs):]
            # the forward pass stays off the tapes (its values are recomputed), but the
            # enclosing custom gradient still sees the variables it reads
            spy = [r for r in context.get().recorders if isinstance(r, _VariableSpy)][-1]
            with context.only_recorder(spy):
                return f(*xs, **kwargs), grad
        return inner(*args)
    return outer
