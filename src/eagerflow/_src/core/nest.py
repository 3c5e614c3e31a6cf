"""Nested structures (``tf.nest``): lists, tuples, namedtuples and dicts of leaves.

Dicts are traversed in sorted key order; `None` is a leaf, as in TF.

>>> tf.nest.flatten({"b": [1, 2], "a": 3})
[3, 1, 2]
>>> tf.nest.pack_sequence_as({"b": [0, 0], "a": 0}, [3, 1, 2])
{'b': [1, 2], 'a': 3}
"""
import collections.abc
from eagerflow._src.backend.api_export import export


def _is_namedtuple(value):
    return isinstance(value, tuple) and hasattr(type(value), "_fields")


# A dict's keys(), values() and items() nest too, as lists of their elements (TF's rule).
_NESTS = (list, tuple, collections.abc.Mapping, collections.abc.MappingView)
_nested_types = {}  # type -> whether it nests: spares the Mapping ABC check on every leaf


@export("nest.is_nested")
def is_nested(value):
    """True for the containers that nest (list, tuple, dict, mapping, a mapping's views)."""
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
    """`mapping`'s keys in sorted order: keys that do not sort (``1`` and ``"b"``) raise
    Python's TypeError, as in TF."""
    return sorted(mapping)


def _flat_sequence(structure):
    """True for a plain list/tuple of leaves (the common case, handled without recursion)."""
    cls = type(structure)
    return (cls is list or cls is tuple) and not any(map(is_nested, structure))


def _components(value):
    """The component tensors of a composite value (a `SparseTensor`: indices, values, dense
    shape), as its ``_type_spec`` gives them, or the component specs of a composite's spec
    (TF expands those too); None for any other value."""
    to_components = getattr(getattr(value, "_type_spec", None), "_to_components", None)
    if to_components is not None:
        return list(to_components(value))
    if isinstance(value, type) or not hasattr(value, "_from_components"):
        return None
    specs = getattr(value, "_component_specs", None)
    return None if specs is None else list(specs)


def _flatten_expanded(structure):
    parts = _components(structure)
    if parts is not None:
        return [leaf for part in parts for leaf in _flatten_expanded(part)]
    if not is_nested(structure):
        return [structure]
    return [leaf for child in _children(structure) for leaf in _flatten_expanded(child)]


@export("nest.flatten")
def flatten(structure, expand_composites=False):
    """The leaves of `structure`, depth first; with `expand_composites`, a composite value
    (`SparseTensor`) is the sequence of its component tensors."""
    if expand_composites:
        return _flatten_expanded(structure)
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
    if isinstance(template, collections.abc.MappingView):
        return list(children)
    return type(template)(children)


def _defaultdict_like(template, keys, values):
    out = collections.defaultdict(template.default_factory)
    out.update((k, values[k]) for k in keys)
    return out


@export("nest.pack_sequence_as")
def pack_sequence_as(structure, flat_sequence, expand_composites=False):
    """`flat_sequence` arranged in the shape of `structure`."""
    if not is_nested(flat_sequence):
        raise TypeError(f"Attempted to pack value:\n  {flat_sequence}\ninto a structure, but "
                        f"found incompatible type `{type(flat_sequence)}` instead.")
    if expand_composites:
        return _pack_expanded(structure, list(flat_sequence))
    flat = list(flat_sequence)
    if _flat_sequence(structure) and len(flat) == len(structure):
        return type(structure)(flat)
    if not is_nested(structure) and len(flat) != 1:
        raise ValueError(f"The target structure is of type `{type(structure)}`\n  {structure}\n"
                         f"However the input is a sequence ({type(flat_sequence)}) of length "
                         f"{len(flat)}.\n  {flat_sequence}\nnest cannot guarantee that it is "
                         f"safe to map one to the other.")
    try:
        n = len(flatten(structure))
    except TypeError:  # (TF's text for dict keys that do not sort, chained as in TF)
        raise TypeError("nest only supports dicts with sortable keys.")  # noqa: B904
    if n != len(flat):
        raise ValueError(f"Could not pack sequence. Structure had {n} atoms, but flat_sequence "
                         f"had {len(flat)} items.  Structure: {structure}, flat_sequence: "
                         f"{flat_sequence}.")
    it = iter(flat)

    def build(node):
        if not is_nested(node):
            return next(it)
        return _rebuild(node, [build(c) for c in _children(node)])
    return build(structure)


def _pack_expanded(structure, flat):
    """`pack_sequence_as` where each composite of `structure` takes its components' leaves."""
    n = len(_flatten_expanded(structure))
    if n != len(flat):
        raise ValueError(f"Could not pack sequence. Structure had {n} atoms, but flat_sequence "
                         f"had {len(flat)} items.  Structure: {structure}, flat_sequence: "
                         f"{flat}.")
    it = iter(flat)

    def build(node):
        parts = _components(node)
        if parts is not None:
            spec = getattr(node, "_type_spec", node)  # (a value's spec, or a spec itself)
            return spec._from_components([build(p) for p in parts])
        if not is_nested(node):
            return next(it)
        return _rebuild(node, [build(c) for c in _children(node)])
    return build(structure)


@export("nest.map_structure")
def map_structure(func, *structures, check_types=True, expand_composites=False, **kwargs):
    """Applies `func` leafwise to structures of the same shape; the result has the first's.

    >>> tf.nest.map_structure(lambda a, b: a + b, [1, 2], (3, 4), check_types=False)
    [4, 6]
    """
    if kwargs:
        raise ValueError(f"Only valid keyword arguments are `check_types` and "
                         f"`expand_composites`, not: `{'`, `'.join(kwargs)}`")
    if not structures:
        raise ValueError("Must provide at least one structure")
    for s in structures[1:]:
        assert_same_structure(structures[0], s, check_types)
    flats = [flatten(s, expand_composites) for s in structures]
    return pack_sequence_as(structures[0], [func(*leaves) for leaves in zip(*flats)],
                            expand_composites)


@export("nest.assert_same_structure")
def assert_same_structure(nest1, nest2, check_types=True, expand_composites=False):
    """Raises ValueError (TypeError for differing container types) on a mismatch, with TF's
    message: both structures, where they first differ, and their shapes with leaves as dots.
    """
    found = _mismatch(nest1, nest2, check_types, expand_composites)
    if found is None:
        return
    cls, detail = found
    raise cls(f"The two structures don't have the same nested structure.\n\n"
              f"First structure: {_described(nest1)}\n\n"
              f"Second structure: {_described(nest2)}\n\n"
              f"More specifically: {detail}\n"
              f"Entire first structure:\n{_dotted(nest1)}\n"
              f"Entire second structure:\n{_dotted(nest2)}")


def _mismatch(a, b, check_types, expand_composites=False):
    """``(exception class, what differs)`` where `a` and `b` first differ, or None."""
    if expand_composites:
        spec_a, spec_b = _composite_spec(a), _composite_spec(b)
        if spec_a is not None and spec_b is not None:
            common = getattr(spec_a, "most_specific_common_supertype", None)
            if common is not None and common([spec_b]) is None:
                return ValueError, (f"Incompatible CompositeTensor TypeSpecs: "
                                    f"{_described_type(spec_a)} vs. {_described_type(spec_b)}")
            return None
        if (spec_a is None) != (spec_b is None):  # a composite nests, as a sequence does
            seq, other = (a, b) if spec_a is not None else (b, a)
            if check_types and is_nested(other):  # (its type differs from any container's)
                return TypeError, _sequence_types_differ(a, b)
            if not is_nested(other):
                return ValueError, (f'Substructure "{_described(seq)}" is a sequence, while '
                                    f'substructure "{_described(other)}" is not')
    if is_nested(a) != is_nested(b):
        seq, other = (a, b) if is_nested(a) else (b, a)
        return ValueError, (f'Substructure "{_described(seq)}" is a sequence, while '
                            f'substructure "{_described(other)}" is not')
    if not is_nested(a):
        return None
    mappings = isinstance(a, collections.abc.Mapping) and isinstance(b, collections.abc.Mapping)
    lists = isinstance(a, list) and isinstance(b, list)  # list subclasses nest as lists in TF
    if check_types and type(a) is not type(b) and not (mappings or lists):
        return TypeError, _sequence_types_differ(a, b)
    if mappings and _sorted_keys(a) != _sorted_keys(b):
        return ValueError, (f"The two dictionaries don't have the same set of keys. First "
                            f"structure has keys {_described(_sorted_keys(a))}, while second "
                            f"structure has keys {_described(_sorted_keys(b))}")
    for x, y in zip(_children(a), _children(b)):
        found = _mismatch(x, y, check_types, expand_composites)
        if found is not None:
            return found
    if len(a) != len(b):
        return ValueError, (f"The two structures don't have the same number of elements. "
                            f"First structure: {_described(a)}. Second structure: "
                            f"{_described(b)}")
    return None


def _sequence_types_differ(a, b):
    return (f"The two namedtuples don't have the same sequence type. First structure "
            f"{_described(a)} has type {type(a).__name__}, while second structure "
            f"{_described(b)} has type {type(b).__name__}")


def _described(value):
    return f"type={type(value).__name__} str={value!s}"


def _described_type(spec):
    return f"type={type(spec).__name__.rsplit('.', 1)[-1]} str={spec!r}"


def _composite_spec(value):
    """The spec of a composite value (or a composite's spec itself), else None."""
    spec = getattr(value, "_type_spec", None)
    if hasattr(spec, "_to_components"):
        return spec
    if hasattr(value, "_component_specs") and hasattr(value, "_from_components"):
        return value
    return None


class _Dot:
    """A leaf drawn as ``.`` when a structure's shape is shown."""

    def __repr__(self):
        return "."


def _dotted(structure):
    return str(pack_sequence_as(structure, [_Dot()] * len(flatten(structure))))


def flatten_up_to(shallow_structure, input_tree):
    """`input_tree` flattened as far as `shallow_structure` nests: one item per leaf of
    `shallow_structure`, a whole sub-structure where it has a leaf.

    >>> flatten_up_to([0, 0], [[1, 2], 3])
    [[1, 2], 3]
    """
    if not is_nested(shallow_structure):
        return [input_tree]
    if not is_nested(input_tree):
        raise TypeError(f"If shallow structure is a sequence, input must also be a sequence. "
                        f"Input has type: {type(input_tree)}.")
    if len(input_tree) != len(shallow_structure):
        raise ValueError(f"The two structures don't have the same sequence length. Input "
                         f"structure has length {len(input_tree)}, while shallow structure "
                         f"has length {len(shallow_structure)}.")
    if isinstance(shallow_structure, collections.abc.Mapping) and \
            _sorted_keys(shallow_structure) != _sorted_keys(input_tree):
        raise ValueError(f"The two structures don't have the same keys. Input structure has "
                         f"keys {list(input_tree)}, while shallow structure has keys "
                         f"{list(shallow_structure)}.")
    return [leaf for shallow, branch in zip(_children(shallow_structure), _children(input_tree))
            for leaf in flatten_up_to(shallow, branch)]


def map_structure_up_to(shallow_structure, func, *inputs):
    """`func` applied to the items of `inputs` at the leaves of `shallow_structure` (each
    input flattened `flatten_up_to` it), packed as `shallow_structure`.

    >>> map_structure_up_to([0, 0], lambda a, b: (a, b), [[1, 2], 3], ["x", "y"])
    [([1, 2], 'x'), (3, 'y')]
    """
    flats = [flatten_up_to(shallow_structure, x) for x in inputs]
    return pack_sequence_as(shallow_structure, [func(*items) for items in zip(*flats)])


def get_traverse_shallow_structure(traverse_fn, structure):
    """The shallow structure of `structure` that `traverse_fn` asks to visit, with booleans at
    its leaves: ``traverse_fn(node)`` says True (visit its children), False (stop there), or
    gives a structure of booleans, one per child.

    >>> get_traverse_shallow_structure(lambda s: [True, False] if isinstance(s, list) else
    ...                                True, [(1, 2), 3])
    [(True, True), False]
    """
    to_traverse = traverse_fn(structure)
    if not is_nested(structure):
        if not isinstance(to_traverse, bool):
            raise TypeError(f"traverse_fn returned structure: {to_traverse} for "
                            f"non-structure: {structure}")
        return to_traverse
    if isinstance(to_traverse, bool):
        if not to_traverse:
            return False
        return _rebuild(structure, [get_traverse_shallow_structure(traverse_fn, branch)
                                    for branch in _children(structure)])
    if not is_nested(to_traverse):
        raise TypeError(f"traverse_fn returned a non-bool scalar: {to_traverse} for input: "
                        f"{structure}")
    flatten_up_to(to_traverse, structure)  # (raises where they do not match)
    level = []
    for visit, branch in zip(_children(to_traverse), _children(structure)):
        if not isinstance(visit, bool):
            raise TypeError(f"traverse_fn didn't return a depth=1 structure of bools.  saw: "
                            f"{to_traverse}  for structure: {structure}")
        level.append(get_traverse_shallow_structure(traverse_fn, branch) if visit else False)
    return _rebuild(structure, level)
