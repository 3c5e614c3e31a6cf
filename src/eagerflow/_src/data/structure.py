"""Element structures of datasets: tuples, named tuples and dicts of tensors.

tf.data nests differently from ``tf.nest``: a Python list is one value (it
becomes a tensor), not a sequence of components.  Dicts flatten in sorted key
order and keep their own order when rebuilt.  A dataset's elements travel
between its nodes as flat tuples of backend arrays, in `flatten` order of its
`element_spec`; `Packer` makes the user-facing nest of tensors from them.
"""
import collections.abc

from eagerflow._src.core.convert import convert_to_tensor
from eagerflow._src.core.tensor import EagerTensor, Tensor
from eagerflow._src.core.tensor_shape import TensorShape
from eagerflow._src.core.tensor_spec import TensorSpec
from eagerflow._src.core.variables import Variable

_new = object.__new__


def is_nested(value):
    """Tuples (named ones too) and mappings nest; lists and everything else are values."""
    return isinstance(value, (tuple, collections.abc.Mapping))


def _keys(mapping):
    try:
        return sorted(mapping)
    except TypeError:
        return sorted(mapping, key=repr)


def _children(value):
    if isinstance(value, collections.abc.Mapping):
        return [value[k] for k in _keys(value)]
    return list(value)


def flatten(structure):
    """The leaves of `structure`, depth first (dicts in sorted key order)."""
    if not is_nested(structure):
        return [structure]
    out = []
    for child in _children(structure):
        out.extend(flatten(child))
    return out


def _rebuild(template, children):
    if isinstance(template, collections.abc.Mapping):
        by_key = dict(zip(_keys(template), children))
        return type(template)((k, by_key[k]) for k in template)
    if hasattr(type(template), "_fields"):
        return type(template)(*children)
    return type(template)(children)


def pack(structure, flat):
    """The leaves `flat` arranged as `structure`."""
    it = iter(flat)

    def build(node):
        if not is_nested(node):
            return next(it)
        return _rebuild(node, [build(c) for c in _children(node)])
    return build(structure)


def map_structure(fn, structure):
    return pack(structure, [fn(leaf) for leaf in flatten(structure)])


def same_structure(a, b):
    """Whether `a` and `b` nest alike (same container types and keys)."""
    if not is_nested(a) or not is_nested(b):
        return is_nested(a) == is_nested(b)
    if isinstance(a, collections.abc.Mapping) != isinstance(b, collections.abc.Mapping):
        return False
    if isinstance(a, collections.abc.Mapping):
        if set(a) != set(b):
            return False
    elif len(a) != len(b) or _tuple_kind(a) != _tuple_kind(b):
        return False
    return all(same_structure(x, y) for x, y in zip(_children(a), _children(b)))


def _tuple_kind(value):
    """A plain tuple's kind is None; named tuples of one name and fields nest alike."""
    cls = type(value)
    return (cls.__name__, tuple(cls._fields)) if hasattr(cls, "_fields") else None


def to_tensor(value):
    """A component as a tensor (a Variable is read; lists and arrays converted)."""
    if isinstance(value, Variable):
        return value.read_value()
    if isinstance(value, Tensor):
        return value
    return convert_to_tensor(value)


def normalize(element):
    """`element` with every leaf a tensor, named tuples and dicts kept, lists as values."""
    return map_structure(to_tensor, element)


def spec_of(element):
    """The spec nest of a nest of tensors."""
    return map_structure(lambda t: TensorSpec(t.shape, t.dtype), element)


def wrap(array):
    t = _new(EagerTensor)
    t._data = array
    return t


class Packer:
    """Turns flat tuples of arrays into the element nest of eager tensors of `spec`."""

    def __init__(self, spec):
        self.spec = spec
        if not all(isinstance(s, TensorSpec) for s in flatten(spec)):
            self.pack = self._values  # datasets among the components
        elif not is_nested(spec):
            self.pack = self._single
        elif type(spec) is tuple and not any(map(is_nested, spec)):
            self.pack = self._tuple
        else:
            self.pack = self._nested

    @staticmethod
    def _single(flat):
        t = _new(EagerTensor)
        t._data = flat[0]
        return t

    @staticmethod
    def _tuple(flat):
        return tuple(map(wrap, flat))

    def _nested(self, flat):
        return pack(self.spec, map(wrap, flat))

    def _values(self, flat):
        specs = flatten(self.spec)
        return pack(self.spec, [wrap(v) if isinstance(s, TensorSpec) else v
                                for s, v in zip(specs, flat)])


def batched_spec(spec, batch_size):
    """`spec` with a leading dimension of `batch_size` (None for unknown)."""
    return map_structure(
        lambda s: TensorSpec(TensorShape([batch_size]).concatenate(s.shape), s.dtype), spec)


def unbatched_spec(spec):
    return map_structure(lambda s: TensorSpec(s.shape[1:], s.dtype), spec)
