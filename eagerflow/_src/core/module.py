"""`Module`: a named container of variables and sub-modules (``tf.Module``).

>>> class Dense(Module):
...     def __init__(self):
...         super().__init__()
...         self.w = Variable([[1.0]], name="w")
>>> [v.name for v in Dense().variables]
['dense/w:0']
"""
import functools
import re

from eagerflow._src.core.context import name_scope
from eagerflow._src.core.variables import Variable

_IDENTIFIER = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")


def _snake_case(name):
    name = re.sub(r"(.)([A-Z][a-z0-9]+)", r"\1_\2", name)
    return re.sub(r"([a-z])([A-Z])", r"\1_\2", name).lower()


class Module:
    """Base class of models and layers: collects variables from its attributes recursively.

    Variables and modules are found in attributes and in (nested) lists,
    tuples and dicts held by attributes, each reported once.
    """

    _TF_MODULE_IGNORED_PROPERTIES = frozenset(("_scope_name", "_name"))

    def __init__(self, name=None):
        if name is None:
            name = _snake_case(type(self).__name__)
        elif not _IDENTIFIER.match(name):
            raise ValueError(f"{name!r} is not a valid module name. Module names must be valid "
                             f"Python identifiers (e.g. a valid class name).")
        self._name = name
        with name_scope(name) as scope:
            self._scope_name = scope

    @property
    def name(self):
        return self._name

    @property
    def name_scope(self):
        """The module's name scope (entering it prefixes variable names)."""
        return name_scope(self._scope_name)

    @property
    def variables(self):
        """All variables of this module and its sub-modules, as a tuple."""
        return tuple(self._flatten(lambda v: isinstance(v, Variable)))

    @property
    def trainable_variables(self):
        return tuple(self._flatten(lambda v: isinstance(v, Variable) and v.trainable))

    @property
    def non_trainable_variables(self):
        return tuple(self._flatten(lambda v: isinstance(v, Variable) and not v.trainable))

    @property
    def submodules(self):
        """Every module reachable from this one (breadth first), as a tuple."""
        return tuple(self._flatten(lambda v: isinstance(v, Module)))

    def _flatten(self, predicate):
        """Leaves matching `predicate`: this module's attributes first, then sub-modules'."""
        seen, found = {id(self)}, set()
        queue = [self]
        while queue:
            module = queue.pop(0)
            for key in sorted(vars(module)):
                if key in module._TF_MODULE_IGNORED_PROPERTIES:
                    continue
                for leaf in _leaves(vars(module)[key]):
                    if predicate(leaf) and id(leaf) not in found:
                        found.add(id(leaf))
                        yield leaf
                    if isinstance(leaf, Module) and id(leaf) not in seen:
                        seen.add(id(leaf))
                        queue.append(leaf)

    @classmethod
    def with_name_scope(cls, method):
        """Decorator running `method` inside the module's name scope."""
        @functools.wraps(method)
        def wrapped(self, *args, **kwargs):
            with self.name_scope:
                return method(self, *args, **kwargs)
        return wrapped


def _leaves(value):
    """Values inside (nested) lists, tuples and dicts; dicts in sorted key order."""
    if isinstance(value, dict):
        for k in sorted(value, key=repr):
            yield from _leaves(value[k])
    elif isinstance(value, (list, tuple)):
        for v in value:
            yield from _leaves(v)
    else:
        yield value
