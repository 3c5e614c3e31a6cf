"""Layers' ``<weight>_initializer``, ``_regularizer`` and ``_constraint`` arguments,
resolved and serialized one way for every layer.

>>> class Scale:
...     activity_regularizer = None
>>> layer = Scale()
>>> resolve(layer, kernel_initializer="ones", kernel_regularizer=None, kernel_constraint=None)
>>> sorted(config(layer, ("kernel",)))
['activity_regularizer', 'kernel_constraint', 'kernel_initializer', 'kernel_regularizer']
"""
from eagerflow._src.keras import constraints, initializers, regularizers

_KINDS = (("initializer", initializers), ("regularizer", regularizers),
          ("constraint", constraints))
_MODULES = dict(_KINDS)


def is_argument(key):
    """Whether `key` names such an argument (``kernel_initializer``, ``bias_constraint``...)."""
    return key.rsplit("_", 1)[-1] in _MODULES


def resolve(layer, **arguments):
    """Sets each ``<weight>_<kind>`` argument on `layer`, resolved by that kind's `get`."""
    for key, value in arguments.items():
        setattr(layer, key, _MODULES[key.rsplit("_", 1)[1]].get(value))


def serialize(key, value):
    """The config entry of argument `key` holding `value`."""
    return _MODULES[key.rsplit("_", 1)[1]].serialize(value)


def config(layer, weights, activity=True):
    """The config entries of `weights`' arguments in Keras's order: initializers, then
    regularizers (and the activity regularizer, with `activity`), then constraints."""
    entries = {}
    for kind, module in _KINDS:
        for weight in weights:
            key = f"{weight}_{kind}"
            entries[key] = serialize(key, getattr(layer, key))
        if kind == "regularizer" and activity:
            entries["activity_regularizer"] = regularizers.serialize(layer.activity_regularizer)
    return entries
