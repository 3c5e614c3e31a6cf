"""`Module`: a named container of variables and sub-modules (``tf.Module``).

Lists, dicts and tuples assigned to a module's attributes are wrapped, as TF
wraps them: `ListWrapper`, `DictWrapper` and `TupleWrapper` are subclasses of
the built-in types that print as TF prints them and wrap what is put into them
later, so that the variables and modules they come to hold are found too.
A wrapper is a copy: unlike TF's, it does not see later changes made through
the original list or dict.

>>> class Dense(tf.Module):
...     def __init__(self):
...         super().__init__()
...         self.w = tf.Variable([[1.0]], name="w")
...         self.sizes = [2]
>>> [v.name for v in Dense().variables]
['w:0']
>>> Dense().sizes
ListWrapper([2])
"""
import copy
import functools
import re
import sys

from eagerflow._src.backend.api_export import export
from eagerflow._src.core.context import name_scope
from eagerflow._src.core.variables import Variable

_IDENTIFIER = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")

# Called with an object (a module, a wrapper, or any object that calls `tracked`) whose
# tracked children may have changed: where a checkpoint restored before the objects
# existed finds them (TF restores values into variables created after the restore).
TRACKING_HOOKS = []


def tracked(owner):
    """Tells the tracking hooks that `owner` may hold new children."""
    for hook in tuple(TRACKING_HOOKS):
        hook(owner)


def _snake_case(name):
    """A class name in snake case as Keras (and TF 1's layers) name layers: ``VAE2`` is
    ``vae2``, ``Conv2DTranspose`` ``conv2d_transpose``."""
    name = re.sub(r"(.)([A-Z][a-z]+)", r"\1_\2", name)
    return re.sub(r"([a-z])([A-Z])", r"\1_\2", name).lower()


def _module_snake_case(name):
    """A class name in snake case as tf.Module names modules: a capital after a lowercase
    letter or a digit, or before a lowercase letter, starts a word (``Conv2DTranspose`` is
    ``conv2_d_transpose``)."""
    return re.sub(r"((?<=[a-z0-9])[A-Z]|(?!^)[A-Z](?=[a-z]))", r"_\1", name).lower()


@export("Module")
class Module:
    """Base class of models and layers: collects variables from its attributes recursively.

    Variables and modules are found in attributes and in (nested) lists,
    tuples and dicts held by attributes, each reported once.
    """

    _TF_MODULE_IGNORED_PROPERTIES = frozenset(("_scope_name", "_name"))
    # Attributes stored as given: internal bookkeeping, never wrapped nor walked.
    _UNTRACKED_ATTRIBUTES = frozenset()

    def __init__(self, name=None):
        if name is None:
            name = _module_snake_case(type(self).__name__)
        elif not _IDENTIFIER.match(name):
            raise ValueError(f"{name!r} is not a valid module name. Module names must be valid "
                             f"Python identifiers (e.g. a valid class name).")
        self._name = name
        with name_scope(name) as scope:
            self._scope_name = scope

    def __setattr__(self, name, value):
        if self._tracks_attribute(name):
            value = wrap(value)
        object.__setattr__(self, name, value)
        if TRACKING_HOOKS:
            tracked(self)

    def _tracks_attribute(self, name):
        # Class attributes (properties among them) are set as they are, as in TF.
        return name not in self._UNTRACKED_ATTRIBUTES and not hasattr(type(self), name)

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
        """Every module reachable from this one, as a tuple: this module's own first, then
        each one's sub-modules in turn (TF's order)."""
        return tuple(self._flatten(lambda v: isinstance(v, Module)))

    def _flatten(self, predicate=None, recursive=True, with_path=False,
                 attribute_traversal_key=None, expand_composites=False):
        """Leaves matching `predicate` (every leaf if None): this module's attributes (in
        sorted order), then each sub-module's, depth first, as TF walks them. With
        `with_path`, ``(path, leaf)`` pairs, a path being the attribute names and indices
        or keys that lead to the leaf."""
        predicate = predicate or (lambda _: True)
        return _flatten_module(self, predicate, recursive, with_path,
                               attribute_traversal_key, (), {id(self)}, [])

    @classmethod
    def with_name_scope(cls, method):
        """Decorator running `method` inside the module's name scope."""
        @functools.wraps(method)
        def wrapped(self, *args, **kwargs):
            with self.name_scope:
                return method(self, *args, **kwargs)
        return wrapped


def _flatten_module(module, predicate, recursive, with_path, key, module_path, seen, stack):
    if id(module) in stack:  # a cycle: this module's own leaves only
        recursive = False
    submodules = []
    for name in sorted(vars(module), key=key):
        if name in module._TF_MODULE_IGNORED_PROPERTIES or name in module._UNTRACKED_ATTRIBUTES:
            continue
        prop = vars(module)[name]
        try:
            found = list(_leaves_with_paths(prop, (name,)))
        except Exception as cause:  # (a dict whose keys do not sort, as in TF)
            raise ValueError(f"Error processing property {name!r} of {prop!r}") from cause
        for leaf_path, leaf in found:
            if not with_path:
                if id(leaf) in seen:
                    continue
                seen.add(id(leaf))
            if predicate(leaf):
                yield (module_path + leaf_path, leaf) if with_path else leaf
            if recursive and isinstance(leaf, Module):
                submodules.append((module_path + leaf_path, leaf))
    stack.append(id(module))
    for path, submodule in submodules:
        yield from _flatten_module(submodule, predicate, recursive, with_path, key, path, seen,
                                   stack)
    stack.pop()


def _leaves_with_paths(value, path):
    if isinstance(value, dict):
        for k in sorted(value):  # (TypeError for keys that do not sort, as TF's nest)
            yield from _leaves_with_paths(value[k], path + (k,))
    elif isinstance(value, (list, tuple)):
        for i, v in enumerate(value):
            yield from _leaves_with_paths(v, path + (i,))
    else:
        yield path, value


def leaves(value):
    """Values inside (nested) lists, tuples and dicts; dicts in sorted key order."""
    if isinstance(value, dict):
        for key in _sorted_keys(value):
            yield from leaves(value[key])
    elif isinstance(value, (list, tuple)):
        for v in value:
            yield from leaves(v)
    else:
        yield value


def _sorted_keys(mapping):
    try:
        return sorted(mapping)
    except TypeError:  # keys of mixed types
        return sorted(mapping, key=repr)


# -- wrappers of the containers held by attributes -------------------------------------

class ListWrapper(list):
    """A list held by a module: lists, dicts and tuples put into it are wrapped too."""

    def __init__(self, values=()):
        super().__init__(map(wrap, values))

    def append(self, value):
        super().append(wrap(value))
        if TRACKING_HOOKS:
            tracked(self)

    def extend(self, values):
        super().extend(map(wrap, values))
        if TRACKING_HOOKS:
            tracked(self)

    def insert(self, index, value):
        super().insert(index, wrap(value))
        if TRACKING_HOOKS:
            tracked(self)

    def __setitem__(self, index, value):
        super().__setitem__(index, list(map(wrap, value)) if isinstance(index, slice)
                            else wrap(value))
        if TRACKING_HOOKS:
            tracked(self)

    def __iadd__(self, values):
        self.extend(values)
        return self

    def copy(self):
        return ListWrapper(self)

    __copy__ = copy

    def __deepcopy__(self, memo):
        result = memo[id(self)] = ListWrapper()
        result.extend(copy.deepcopy(v, memo) for v in self)
        return result

    def __repr__(self):
        return f"ListWrapper({list.__repr__(self)})"


class _SharedListWrapper(ListWrapper):
    """A `ListWrapper` of a list its caller still holds, sharing it as TF's wrapper does:
    changes through the wrapper show in the caller's list, and the caller's own changes
    show through the wrapper (read again on each use). Once nothing but the wrapper holds
    the caller's list, it becomes a plain `ListWrapper`."""

    def __init__(self, values):
        super().__init__(values)
        self._source, self._seen = values, list(values)

    def _pull(self):
        source, seen = self._source, self._seen
        if len(source) != len(seen) or any(a is not b for a, b in zip(source, seen)):
            list.__setitem__(self, slice(None), list(map(wrap, source)))
            self._seen = list(source)
            self._modified_outside = True  # (a checkpoint refuses it, see `unsaveable`)
            if TRACKING_HOOKS:
                tracked(self)
        # (held by the attribute, this local and getrefcount's argument: by no one else)
        if sys.getrefcount(source) <= 3:
            del self._source, self._seen
            self.__class__ = ListWrapper

    def _push(self):
        self._source[:] = self
        self._seen = list(self._source)


def _reading(name):
    method = getattr(ListWrapper, name)

    def read(self, *args):
        self._pull()
        return method(self, *args)
    read.__name__ = name
    return read


def _writing(name):
    method = getattr(ListWrapper, name)

    def write(self, *args):
        self._pull()
        result = method(self, *args)
        if type(self) is _SharedListWrapper:  # (still shared)
            self._push()
        return result
    write.__name__ = name
    return write


for _name in ("__iter__", "__len__", "__getitem__", "__contains__", "__reversed__", "__eq__",
              "__ne__", "__lt__", "__le__", "__gt__", "__ge__", "__add__", "__mul__",
              "__rmul__", "index", "count", "copy", "__repr__", "__deepcopy__"):
    setattr(_SharedListWrapper, _name, _reading(_name))
for _name in ("append", "extend", "insert", "__setitem__", "__delitem__", "__iadd__",
              "__imul__", "pop", "remove", "clear", "sort", "reverse"):
    setattr(_SharedListWrapper, _name, _writing(_name))
_SharedListWrapper.__hash__ = None
# (TF's class is ListWrapper whether or not its list is shared)
_SharedListWrapper.__name__ = _SharedListWrapper.__qualname__ = "ListWrapper"


class DictWrapper(dict):
    """A dict held by a module; prints as a dict, represents itself as ``DictWrapper``."""

    def __init__(self, *args, **kwargs):
        super().__init__()
        self.update(*args, **kwargs)

    def __setitem__(self, key, value):
        super().__setitem__(key, wrap(value))
        if TRACKING_HOOKS:
            tracked(self)

    def update(self, *args, **kwargs):
        for key, value in dict(*args, **kwargs).items():
            self[key] = value

    def setdefault(self, key, default=None):
        if key not in self:
            self[key] = default
        return self[key]

    def __ior__(self, other):
        self.update(other)
        return self

    def copy(self):
        return DictWrapper(self)

    __copy__ = copy

    def __deepcopy__(self, memo):
        result = memo[id(self)] = DictWrapper()
        result.update((copy.deepcopy(k, memo), copy.deepcopy(v, memo)) for k, v in self.items())
        return result

    def __repr__(self):
        return f"DictWrapper({dict.__repr__(self)})"

    def __str__(self):
        return dict.__repr__(self)


# (TF's class is named `_DictWrapper`; `type(module.d).__name__` shows it)
DictWrapper.__name__ = DictWrapper.__qualname__ = "_DictWrapper"
_DictWrapper = DictWrapper  # (where pickle looks for it by that name)


class _SharedDictWrapper(DictWrapper):
    """A `DictWrapper` of a dict its caller still holds, shared as `_SharedListWrapper`
    shares a list."""

    def __init__(self, values):
        dict.__init__(self, ((k, wrap(v)) for k, v in values.items()))
        self._source, self._seen = values, list(values.items())

    def _pull(self):
        source, seen = self._source, self._seen
        if len(source) != len(seen) or any(k is not j or v is not w for (k, v), (j, w)
                                           in zip(source.items(), seen)):
            dict.clear(self)
            dict.update(self, ((k, wrap(v)) for k, v in source.items()))
            self._seen = list(source.items())
            self._modified_outside = True
            if TRACKING_HOOKS:
                tracked(self)
        if sys.getrefcount(source) <= 3:  # (as a list's: no one else holds it)
            del self._source, self._seen
            self.__class__ = DictWrapper

    def _push(self):
        self._source.clear()
        self._source.update(dict.items(self))
        self._seen = list(self._source.items())


def _shared_method(cls, base, name, writes):
    method = getattr(base, name)

    def shared(self, *args, **kwargs):
        self._pull()
        result = method(self, *args, **kwargs)
        if writes and type(self) is cls:  # (still shared)
            self._push()
        return result
    shared.__name__ = name
    setattr(cls, name, shared)


for _name in ("__getitem__", "get", "keys", "values", "items", "__iter__", "__len__",
              "__contains__", "__eq__", "__ne__", "__repr__", "__str__", "copy",
              "__deepcopy__", "__or__", "__reversed__"):
    _shared_method(_SharedDictWrapper, DictWrapper, _name, False)
for _name in ("__setitem__", "__delitem__", "pop", "popitem", "clear", "update", "setdefault",
              "__ior__"):
    _shared_method(_SharedDictWrapper, DictWrapper, _name, True)
_SharedDictWrapper.__hash__ = None
_SharedDictWrapper.__name__ = _SharedDictWrapper.__qualname__ = "_DictWrapper"


def unsaveable(obj):
    """TF's ValueError for a list or dict wrapper whose wrapped container was changed
    other than through the wrapper (a restore could not rebuild it), else None."""
    if isinstance(obj, (ListWrapper, DictWrapper)):
        len(obj)  # (reads the shared container again)
    if not getattr(obj, "_modified_outside", False):
        return None
    if isinstance(obj, ListWrapper):
        what, how = "a list wrapper constructed to track trackable TensorFlow objects", "list"
        final, hint = list.__repr__(obj), "wrap it in a NoDependency object"
        shown = repr(obj)
    else:
        what = "a dictionary wrapper constructed automatically on attribute assignment"
        how, final, hint = "dictionary", dict.__repr__(obj), "wrap it in a non-trackable object"
        shown = final
    return ValueError(
        f"Unable to save the object {shown} ({what}). The wrapped {how} was modified outside "
        f"the wrapper (its final value was {final}, its value when a checkpoint dependency "
        f"was added was None), which breaks restoration on object creation.\n\nIf you don't "
        f"need this {how} checkpointed, {hint}; it will be subsequently ignored.")


class TupleWrapper(tuple):
    """A tuple held by a module that holds lists, dicts or trackables (wrapped)."""

    def __new__(cls, values=()):
        return super().__new__(cls, map(wrap, values))

    def __repr__(self):
        return f"_TupleWrapper({tuple.__repr__(self)})"

    def __str__(self):
        return tuple.__repr__(self)


WRAPPER_TYPES = (ListWrapper, DictWrapper, TupleWrapper)  # (a shared list's is a ListWrapper)


def wrap(value):
    """`value` with its lists and dicts (and tuples holding them) as wrappers.

    Only plain lists, dicts and tuples are wrapped; subclasses are kept as they are.
    """
    cls = type(value)
    if cls is list:
        return _SharedListWrapper(value)
    if cls is dict:
        return _SharedDictWrapper(value)
    if isinstance(value, tuple) and cls is not TupleWrapper and _holds_trackables(value):
        if hasattr(cls, "_fields"):  # a namedtuple keeps its type
            return cls(*map(wrap, value))
        return TupleWrapper(value)
    return value


def _holds_trackables(values):
    return any(type(v) in (list, dict) or isinstance(v, (Module, Variable, *WRAPPER_TYPES)) or
               isinstance(v, tuple) and _holds_trackables(v) for v in values)
