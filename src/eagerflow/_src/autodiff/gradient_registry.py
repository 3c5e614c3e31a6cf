"""Gradients registered by op type name: `tf.RegisterGradient` and `tf.no_gradient`.

A name registered here is what an op's ``_gradient_op_type`` attribute may name (TF's
gradient override, as GraphDefs written by TF 1 programs carry it); registered under the
type of an op that has no gradient, it becomes that op's gradient.

>>> @tf.RegisterGradient("TripledGradForDocs")
... def _tripled(op, grad):
...     return 3.0 * grad
>>> tf.no_gradient("NoGradForDocs")
"""
from eagerflow._src.backend.api_export import export
from eagerflow._src.core import errors, registry

_NO_GRADIENT = "registered with tf.no_gradient"
# name -> gradient function, or None for a name registered by `no_gradient`
_registered = {}


def _register(fn, op_type):
    if op_type in _registered:
        raise KeyError(f"Registering two gradient with name '{op_type}'!")
    op = registry.all_ops().get(op_type)
    if op is not None:
        if op.grad is not None or op.not_differentiable:  # TF's own registration
            raise KeyError(f"Registering two gradient with name '{op_type}'!")
        if fn is None:
            op.not_differentiable = _NO_GRADIENT
            op.grad = _no_gradient
        else:
            op.grad = fn
    _registered[op_type] = fn


def _no_gradient(op, *output_grads):
    return [None] * len(op.inputs)


def registered_gradient(name):
    """The gradient function registered under `name`: by `RegisterGradient`, or an op
    type's own (a `gradient_override_map` may name ``"Identity"``); one giving no gradients
    for a name registered by `no_gradient` or an op without gradient; None if none."""
    if name in _registered:
        return _registered[name] or _no_gradient
    try:
        op = registry.get(name)
    except errors.NotFoundError:
        return None
    return _no_gradient if op.not_differentiable else op.grad


@export("RegisterGradient", "compat.v1.RegisterGradient")
class RegisterGradient:
    """Decorator registering the gradient function of op type `op_type`.

    The function takes the op (its ``inputs``, ``outputs``, ``type`` and ``get_attr``) and
    the gradient of each output, and returns the gradient of each input. Registering a
    name twice, or the name of an op that has a gradient, raises KeyError.
    """

    __slots__ = ("_op_type",)

    def __init__(self, op_type):
        if not isinstance(op_type, str):
            raise TypeError("op_type must be a string")
        self._op_type = op_type

    def __call__(self, f):
        _register(f, self._op_type)
        return f


@export("no_gradient", "compat.v1.no_gradient", "compat.v1.NoGradient",
        "compat.v1.NotDifferentiable")
def no_gradient(op_type):
    """Declares op type `op_type` not differentiable: gradients stop at its ops."""
    if not isinstance(op_type, str):
        raise TypeError("op_type must be a string")
    _register(None, op_type)
