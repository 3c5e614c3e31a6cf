"""Public names, declared where each function, class or constant is defined.

``@export("math.add", "add")`` above a ``def`` or ``class`` says under which
paths of the public package the object appears (``tf.math.add``,
``tf.add``); the first is TF's canonical name. The public modules
(``eagerflow/__init__.py``, ``eagerflow/math/__init__.py``, ...) are plain
re-exports written from these declarations by ``tools/gen_api.py``.

The decorator returns the object itself, unwrapped (a public op keeps no
extra Python frame), after setting ``_tf_api_names`` (``_keras_api_names``
for ``keras.*`` paths, as tf_keras does) and adding the declaration to
`EXPORTS`. It lives in the lowest layer so that every layer can declare.

>>> @export("math.my_op", "my_op")
... def my_op(x):
...     return x
>>> my_op._tf_api_names, canonical_name(my_op)
(('math.my_op', 'my_op'), 'math.my_op')
>>> del EXPORTS[-1]
"""
import sys

# Every declaration in import order: (object, module holding it, attribute or None, names).
# The attribute is None for a function or class (found by its name in its module).
EXPORTS = []


class export:  # noqa: N801 (TF's spelling, a decorator)
    """Declares the public paths of a function, class or (`export_constant`) constant.

    `dispatch_name`: the name tf_keras gives a layer calling this function on
    Keras tensors when it differs from the canonical name (TF dispatches some
    TF 2 functions through their TF 1 versions: ``tf.transpose`` makes a
    ``tf.compat.v1.transpose`` layer).
    """

    __slots__ = ("names", "dispatch_name")

    def __init__(self, *names, dispatch_name=None):
        self.names = names
        self.dispatch_name = dispatch_name

    def __call__(self, obj):
        tf_names = tuple(n for n in self.names if not n.startswith("keras."))
        keras_names = tuple(n for n in self.names if n.startswith("keras."))
        if tf_names:
            obj._tf_api_names = tf_names
        if keras_names:
            obj._keras_api_names = keras_names
        if self.dispatch_name is not None:
            obj._tf_dispatch_name = self.dispatch_name
        # The declaring module, not ``obj.__module__`` (errors name their public module there).
        EXPORTS.append((obj, sys._getframe(1).f_globals["__name__"], None, self.names))
        return obj

    def export_constant(self, module_name, attr):
        """Declares the module-level constant `attr` of `module_name` (a DType, a number)."""
        EXPORTS.append((None, module_name, attr, self.names))


def api_names(obj):
    """The public paths `obj` was declared under (its own, not a base class's); () if none."""
    own = getattr(obj, "__dict__", {})
    return own.get("_tf_api_names", ()) + own.get("_keras_api_names", ())


def canonical_name(obj):
    """TF's canonical name of a declared function or class (its first path), or None."""
    names = api_names(obj)
    return names[0] if names else None
