"""Trace keys: what about a call decides whether a traced graph can be reused.

TF's rules: tensors count by dtype and shape, Python values by value (``1``,
``1.0`` and ``True`` are equal, so they share a trace), variables by dtype,
shape, trainability and which arguments are the same variable, other objects
by a weak reference (equal while both live), and containers by their structure.  `call_key` walks the
arguments once, giving the key and what feeds the graph: the tensors, and
each variable once.

>>> key, tensors = call_key((tf.constant([1.0, 2.0]), 3), {})
>>> key
(('T', dtype('float32'), (2,)), ('P', 3))
"""
import collections.abc
import weakref

import numpy as np

from eagerflow._src.core.convert import convert_to_tensor
from eagerflow._src.core import nest
from eagerflow._src.core.module import ListWrapper, TupleWrapper, _SharedListWrapper
from eagerflow._src.core.tensor import EagerTensor, Tensor
from eagerflow._src.core.tensor_shape import TensorShape
from eagerflow._src.core.tensor_spec import TensorSpec
from eagerflow._src.core.variables import Variable


def call_key(args, kwargs):
    """(key, tensors): the trace key of a call, and its tensor arguments in order."""
    tensors = []
    key = tuple(_leaf_key(a, tensors) for a in args)
    if kwargs:
        key += (("kwargs",) + tuple((k, _leaf_key(kwargs[k], tensors)) for k in sorted(kwargs)),)
    return key, tensors


# A layer's tracked containers key as the plain ones they wrap (`f(layer.items)`, then
# `f([...])`, share a trace).
_UNWRAPPED = {ListWrapper: list, TupleWrapper: tuple, _SharedListWrapper: list}


def _leaf_key(value, tensors):
    cls = type(value)
    if cls is EagerTensor:
        tensors.append(value)
        data = value._data
        return ("T", data.dtype, data.shape)
    if cls is int or cls is float or cls is bool or cls is str or value is None:
        return ("P", value)  # by value alone: 1, 1.0 and True share a trace, as in TF
    if hasattr(cls, "__tf_tracing_type__") and not isinstance(value, (Tensor, Variable)):
        return ("X", value.__tf_tracing_type__(None))  # the tracing protocol: its TraceType
    if isinstance(value, Tensor):  # a symbolic tensor: a function called while tracing
        tensors.append(value)
        return ("T", np.dtype(value.dtype.as_numpy_dtype), tuple(value.shape.as_list())
                if value.shape.rank is not None else None)
    if isinstance(value, TensorSpec):  # get_concrete_function(TensorSpec(...))
        tensors.append(value)
        shape = value.shape
        return ("T", np.dtype(value.dtype.as_numpy_dtype),
                tuple(shape.as_list()) if shape.rank is not None else None)
    if isinstance(value, (np.ndarray, np.number, np.bool_)):  # passed as tensors, as in TF
        if value.dtype.kind in "USO":  # (NumPy text: a string tensor of its UTF-8 bytes)
            return _leaf_key(convert_to_tensor(value), tensors)
        tensors.append(value)
        return ("T", value.dtype, value.shape)
    if isinstance(value, Variable):
        variables = [t for t in tensors if isinstance(t, Variable)]
        alias = next((i for i, v in enumerate(variables) if v is value), None)
        if alias is None:
            alias = len(variables)
            tensors.append(value)
        shape = value.shape
        return ("V", value.dtype, tuple(shape.as_list()) if shape.rank is not None else None,
                value.trainable, alias)
    as_argument = getattr(value, "_as_function_argument", None)
    if as_argument is not None:  # a dataset: by its spec (TF's DatasetSpec), fed as a variant
        spec, tensor = as_argument()
        tensors.append(tensor)
        return ("D", spec)
    parts = composite_parts(value)
    if parts is not None:  # a SparseTensor (or its spec): its spec's shape and components
        spec = getattr(value, "_type_spec", value)
        shape = getattr(spec, "shape", None)  # (an ExtensionType's spec may have none)
        shape = tuple(shape.as_list()) if getattr(shape, "rank", None) is not None else None
        static = getattr(spec, "_static_key", None)  # an ExtensionType's non-tensor fields
        tensors.extend(parts)  # (keyed by their specs: any number of values shares a trace)
        return ((spec.value_type, ("shape", shape), static() if static else ())
                + tuple(_leaf_key(s, []) for s in spec._component_specs))
    if isinstance(value, (list, tuple)):
        return (_UNWRAPPED.get(cls, cls),) + tuple(_leaf_key(v, tensors) for v in value)
    if isinstance(value, collections.abc.Mapping):  # (any mapping keys as a dict, as in TF)
        return (dict,) + tuple((k, _leaf_key(value[k], tensors)) for k in sorted(value))
    array = as_array(value)
    if array is not None:
        return _leaf_key(array, tensors)
    try:
        hash(value)
    except TypeError:
        raise TypeError(f"Could not generate a generic TraceType for {value!r}.Please verify "
                        f"that it is immutable/hashable. Otherwise, consider implementing the "
                        f"Tracing Protocol for it.") from None
    try:
        return ("O", cls, _Referent(value))
    except TypeError:  # (no weak reference to it: by value)
        return ("O", cls, value)


def as_array(value):
    """`value` as a NumPy array where it is another object that has one (a pandas Series,
    say), as TF passes such arguments; None otherwise."""
    if hasattr(type(value), "__array__") and not isinstance(value, type):
        return np.asarray(value)
    return None


def weakened(structure):
    """`structure` (a trace's arguments) with each Python object its trace key refers to
    weakly replaced by that weak reference: what a traced function keeps of a call."""
    def weak(value):
        try:
            key = _leaf_key(value, [])
        except TypeError:
            return value
        return key[2] if type(key) is tuple and key[:1] == ("O",) and type(
            key[2]) is _Referent else value
    return nest.map_structure(weak, structure)


def strengthened(structure):
    """`structure` with `weakened`'s references replaced by their objects (None when gone)."""
    return nest.map_structure(lambda v: v._ref() if type(v) is _Referent else v, structure)


class _Referent:
    """A trace key's weak reference to a Python object argument, as TF keys one: equal to
    another while both objects live and are equal (the same or ``==``), and never once
    its object is gone (an equal object passed later traces again). The trace does not
    keep the object alive."""

    __slots__ = ("_ref", "_hash")

    def __init__(self, value):
        self._ref = weakref.ref(value)
        self._hash = hash(value)

    def __eq__(self, other):
        if type(other) is not _Referent:
            return False
        mine, theirs = self._ref(), other._ref()
        if mine is None or theirs is None:
            return False
        if mine is theirs:
            return True
        try:
            return bool(mine == theirs)
        except Exception:  # (an object whose == gives no truth value)
            return False

    def __hash__(self):
        return self._hash

    def __repr__(self):
        return repr(self._ref())


def composite_parts(value):
    """The components of a composite value (a `SparseTensor`: its indices, values and dense
    shape, from its ``_type_spec``), or of a composite's spec (their `TensorSpec`s); None
    for anything else."""
    spec = getattr(value, "_type_spec", None)
    if hasattr(spec, "_to_components"):
        return list(spec._to_components(value))
    if hasattr(value, "_component_specs") and hasattr(value, "_from_components"):
        return list(value._component_specs)
    return None


def spec_of(key_leaf):
    """The `TensorSpec` of a tensor's key, or `VariableSpec` of a variable's (shape None:
    unknown rank)."""
    shape = TensorShape(None if key_leaf[2] is None else list(key_leaf[2]))
    if key_leaf[0] == "V":
        return VariableSpec(shape, key_leaf[1], key_leaf[3], key_leaf[4])
    return TensorSpec(shape, key_leaf[1])


class VariableSpec:
    """What a trace knows of a variable argument (TF's ``VariableSpec``)."""

    def __init__(self, shape, dtype, trainable=True, alias_id=None):
        self.shape, self.dtype = TensorShape(shape), dtype
        self.trainable, self.alias_id = trainable, alias_id

    def is_compatible_with(self, variable):
        return (isinstance(variable, Variable) and variable.dtype == self.dtype
                and self.shape.is_compatible_with(variable.shape))

    def __eq__(self, other):
        return (type(other) is VariableSpec and self.dtype == other.dtype
                and self.shape == other.shape and self.trainable == other.trainable
                and self.alias_id == other.alias_id)

    __hash__ = None

    def __repr__(self):
        shape = tuple(self.shape.as_list()) if self.shape.rank is not None else None
        return (f"VariableSpec(shape={shape}, dtype={self.dtype!r}, "
                f"trainable={self.trainable}, alias_id={self.alias_id})")


def relaxed(old, new):
    """A key covering both `old` and `new`: tensor dims that differ become None.

    None when the keys differ in anything but tensor shapes (no relaxation helps).
    """
    if old == new:
        return old
    if type(old) is not tuple or type(new) is not tuple or len(old) != len(new):
        return None
    if old[:1] in _SHAPED and new[:1] == old[:1]:
        if old[1] != new[1] or old[3:] != new[3:]:
            return None
        return (old[0], old[1], _relaxed_dims(old[2], new[2]), *old[3:])
    if old[:1] == ("shape",) and new[:1] == old[:1]:  # a composite's shape
        return ("shape", _relaxed_dims(old[1], new[1]))
    parts = [relaxed(a, b) for a, b in zip(old, new)]
    return None if any(p is None for p in parts) else tuple(parts)


_SHAPED = (("T",), ("V",))  # keys of a dtype and a shape (then, for variables, the rest)


def _relaxed_dims(a, b):
    """Dims covering both `a` and `b` (tuples; None: unknown rank): those that differ None."""
    if a is None or b is None or len(a) != len(b):
        return None
    return tuple(x if x == y else None for x, y in zip(a, b))


def _dims_cover(general, dims):
    """Whether `general` dims (None: any) accept `dims`."""
    return general is None or dims is not None and len(general) == len(dims) and all(
        g is None or g == k for g, k in zip(general, dims))


def covers(general, key):
    """True when a trace for `general` (None dims) accepts calls with `key`."""
    if general == key:
        return True
    if type(general) is not tuple or type(key) is not tuple or len(general) != len(key):
        return False
    if general[:1] in _SHAPED and key[:1] == general[:1]:
        if general[1] != key[1] or general[3:] != key[3:]:
            return False
        return _dims_cover(general[2], key[2])
    if general[:1] == ("shape",) and key[:1] == general[:1]:  # a composite's shape
        return _dims_cover(general[1], key[1])
    if general[:1] == ("D",) and key[:1] == general[:1]:  # a dataset's spec: TF's subtypes
        merge = getattr(general[1], "most_specific_common_supertype", None)
        return merge is not None and merge([key[1]]) == general[1]
    return all(covers(g, k) for g, k in zip(general, key))


def describe(key):
    """A short readable form of one argument's key, for retracing explanations."""
    if type(key) is not tuple or not key:
        return repr(key)
    if key[0] in ("T", "V"):
        return repr(spec_of(key))
    if key[0] == "P":
        return f"{type(key[1]).__name__} {key[1]!r}"
    if key[0] in ("D", "X"):
        return repr(key[1])
    if key[0] == "O":
        return f"{key[1].__name__} object"
    name = getattr(key[0], "__name__", key[0])
    if len(key) >= 3 and type(key[1]) is tuple and key[1][:1] == ("shape",):
        # a composite: its non-tensor fields' values, then its components' specs
        fields = _field_texts(key[0], key[2]) if key[2] else []
        return f"{name}({', '.join(fields + [describe(part) for part in key[3:]])})"
    return f"{name} of {len(key) - 1}"


def _field_texts(value_type, static):
    """``name=value`` of each field of an extension type's key's fields that holds more
    than tensors (their specs are shown after the fields)."""
    names = value_type._tf_extension_type_fields_order
    return [f"{n}={_field_text(k)}" for n, k in zip(names, static) if _has_values(k)]


def _has_values(key):
    """Whether a field's key holds a Python value (not only tensors' places, ``()``)."""
    if key == ():
        return False
    if key[0] is tuple:
        return any(_has_values(k) for k in key[1:])
    if key[0] is dict:
        return any(_has_values(k) for _, k in key[1:])
    if isinstance(key[0], type):  # a nested extension type
        return any(_has_values(k) for k in key[1])
    return True


def _field_text(key):
    """One extension type field's key (see `ExtensionTypeSpec._static_key`) as text."""
    if key == ():
        return "tensor"
    head = key[0]
    if head == "P":
        return repr(key[1])
    if head == "shape":
        return repr(TensorShape(None if key[1] is None else list(key[1])))
    if head is tuple:
        return f"({', '.join(_field_text(k) for k in key[1:])}{',' if len(key) == 2 else ''})"
    if head is dict:
        return "{" + ", ".join(f"{k[1]!r}: {_field_text(v)}" for k, v in key[1:]) + "}"
    return f"{head.__name__}({', '.join(_field_texts(head, key[1]))})"  # a nested one


def differences(old, new, names):
    """Where `new` differs from `old`, as ``(argument name, old text, new text)`` triples;
    within a list, tuple or dict of the same length (or keys), the elements that differ.

    >>> differences(call_key(([1, 2],), {})[0], call_key(([1, 3],), {})[0], ["x"])
    [('x[1]', 'int 2', 'int 3')]
    """
    found = [d for i, (a, b) in enumerate(zip(old, new))
             for d in _changes(names[i] if i < len(names) else f"argument {i}", a, b)]
    if len(old) != len(new):
        found.append(("arguments", f"{len(old)} given", f"{len(new)} given"))
    return found


def _container(key):
    """The kind of a list, tuple or dict's key (its type; "kwargs" for keyword arguments),
    else None."""
    if type(key) is not tuple or not key:
        return None
    head = key[0]
    if head == "kwargs":
        return head
    if isinstance(head, type) and issubclass(head, (list, tuple, collections.abc.Mapping)) \
            and not (len(key) > 1 and type(key[1]) is tuple and key[1][:1] == ("shape",)):
        return head
    return None


def _changes(path, a, b):
    if a == b:
        return []
    kind = _container(a)
    if kind is not None and kind is _container(b) and len(a) == len(b):
        if kind == "kwargs" or issubclass(kind, collections.abc.Mapping):
            if [k for k, _ in a[1:]] == [k for k, _ in b[1:]]:
                return [d for (k, x), (_, y) in zip(a[1:], b[1:])
                        for d in _changes(k if kind == "kwargs" else f"{path}[{k!r}]", x, y)]
        else:
            return [d for i, (x, y) in enumerate(zip(a[1:], b[1:]))
                    for d in _changes(f"{path}[{i}]", x, y)]
    old, new = describe(a), describe(b)
    return [(path, old, f"another {new}" if new == old else new)]  # (another object)
