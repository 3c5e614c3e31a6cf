"""Nested structures (``tf.nest``): lists, tuples, namedtuples and dicts of leaves.

Dicts are traversed in sorted key order; `None` is a leaf, as in TF.

>>> flatten({"b": [1, 2], "a": 3})
[3, 1, 2]
>>> pack_sequence_as({"b": [0, 0], "a": 0}, [3, 1, 2])
{'a': 3, 'b': [1, 2]}
"""
import collections.abc


def _is_namedtuple(value):
    return isinstance(value, tuple) and hasattr(type(value), "_fields")


_NESTS = (list, tuple, collections.abc.Mapping)
_nested_types = {}  # type -> whether it nests: spares the Mapping ABC check on every leaf


def is_nested(value):
    """True for the containers that nest (list, tuple, dict, mapping)."""
    cls = type(value)
    nested = _nested_types.get(cls)
    if nested is None:
        nested = issubclass(cls, _NESTS)
        if len(_nested_types) < 1024:  # bounded, should classes be made on the fly
            _nested_types[cls] = nested
    return nested


def _children(value):
    if isinstance(value, collections.abc.Mapping):
        return [value[k] for k in _sorted_keys(value)]
    return list(value)


def _sorted_keys(mapping):
    try:
        return sorted(mapping)
    except TypeError:  # keys of mixed types: fall back to a stable textual order
        return sorted(mapping, key=repr)


def _flat_sequence(structure):
    """True for a plain list/tuple of leaves (the common case, handled without recursion)."""
    cls = type(structure)
    return (cls is list or cls is tuple) and not any(map(is_nested, structure))


def flatten(structure, expand_composites=False):
    """The leaves of `structure`, depth first."""
    if not is_nested(structure):
        return [structure]
    if _flat_sequence(structure):
        return list(structure)
    out = []
    for child in _children(structure):
        out.extend(flatten(child))
    return out


def _rebuild(template, children):
    if isinstance(template, collections.abc.Mapping):
        values = dict(zip(_sorted_keys(template), children))
        keys = list(template)  # keep the template's own key order
        return type(template)((k, values[k]) for k in keys) if not isinstance(
            template, collections.defaultdict) else _defaultdict_like(template, keys, values)
    if _is_namedtuple(template):
        return type(template)(*children)
    return type(template)(children)


def _defaultdict_like(template, keys, values):
    out = collections.defaultdict(template.default_factory)
    out.update((k, values[k]) for k in keys)
    return out


def pack_sequence_as(structure, flat_sequence, expand_composites=False):
    """`flat_sequence` arranged in the shape of `structure`."""
    flat = list(flat_sequence)
    if _flat_sequence(structure) and len(flat) == len(structure):
        return type(structure)(flat)
    n = len(flatten(structure))
    if n != len(flat):
        raise ValueError(f"The target structure has {n} leaves, but the flat sequence has "
                         f"{len(flat)} items.")
    it = iter(flat)

    def build(node):
        if not is_nested(node):
            return next(it)
        return _rebuild(node, [build(c) for c in _children(node)])
    return build(structure)


def map_structure(func, *structures, **kwargs):
    """Applies `func` leafwise to structures of the same shape."""
    if not structures:
        raise ValueError("Must provide at least one structure")
    for s in structures[1:]:
        assert_same_structure(structures[0], s)
    flats = [flatten(s) for s in structures]
    return pack_sequence_as(structures[0], [func(*leaves) for leaves in zip(*flats)])


def assert_same_structure(nest1, nest2, check_types=True, expand_composites=False):
    """Raises ValueError (or TypeError for differing container types) on a mismatch."""
    if is_nested(nest1) != is_nested(nest2):
        raise ValueError(f"The two structures don't have the same nested structure.\n\n"
                         f"First structure: {nest1!r}\n\nSecond structure: {nest2!r}")
    if not is_nested(nest1):
        return
    if check_types and type(nest1) is not type(nest2) and not (
            isinstance(nest1, collections.abc.Mapping) and isinstance(nest2,
                                                                      collections.abc.Mapping)):
        raise TypeError(f"The two structures don't have the same sequence type. Input structure "
                        f"has type {type(nest1)}, while shallow structure has type "
                        f"{type(nest2)}.")
    c1, c2 = _children(nest1), _children(nest2)
    if len(c1) != len(c2) or (isinstance(nest1, collections.abc.Mapping)
                              and _sorted_keys(nest1) != _sorted_keys(nest2)):
        raise ValueError(f"The two structures don't have the same nested structure.\n\n"
                         f"First structure: {nest1!r}\n\nSecond structure: {nest2!r}")
    for a, b in zip(c1, c2):
        assert_same_structure(a, b, check_types)
