"""Element structures of datasets: tuples, named tuples and dicts of tensors.

tf.data nests differently from ``tf.nest``: a Python list is one value (it
becomes a tensor), not a sequence of components.  Dicts flatten in sorted key
order and keep their own order when rebuilt.  A dataset's elements travel
between its nodes as flat tuples of backend arrays, in `flatten` order of its
`element_spec`; `Packer` makes the user-facing nest of tensors from them.
A `SparseTensor` is one leaf (its spec a `SparseTensorSpec`); it travels in
the flat tuples as a `SparseTensor` of eager tensors, as a dataset element
travels as its `Dataset` (see `sparse_rows` and `stack_sparse` for slicing
and batching it). A `RaggedTensor` travels alike, as an eager `RaggedTensor`
(`ragged_rows`, `stack_ragged`); a row of one (a `RaggedTensorSpec` of ragged
rank 0) is an eager tensor of its own shape.
"""
import collections.abc

import numpy as np

from eagerflow._src.core import errors
from eagerflow._src.core.convert import convert_to_tensor
from eagerflow._src.core.tensor import EagerTensor, Tensor
from eagerflow._src.core.tensor_shape import TensorShape
from eagerflow._src.core.tensor_spec import NoneTensorSpec, TensorSpec, TypeSpec  # noqa: F401
from eagerflow._src.core.variables import Variable
from eagerflow._src.ops import extension_type
from eagerflow._src.ops.extension_type import ExtensionType, ExtensionTypeSpec
from eagerflow._src.data.optional_ops import Optional, OptionalSpec
from eagerflow._src.ops.sparse_tensor import SparseTensor, SparseTensorSpec
from eagerflow._src.ragged.ragged_tensor import RaggedTensor, RaggedTensorSpec

_new = object.__new__


def is_nested(value):
    """Tuples (named ones too), mappings and extension types (values and specs) nest; lists
    and everything else are values."""
    return isinstance(value, (tuple, collections.abc.Mapping, ExtensionType,
                              ExtensionTypeSpec))


def _keys(mapping):
    try:
        return sorted(mapping)
    except TypeError:
        return sorted(mapping, key=repr)


def _children(value):
    if isinstance(value, (ExtensionType, ExtensionTypeSpec)):  # its tensors, ragged and
        return extension_type.batch_parts(value)                # sparse ones whole
    if isinstance(value, collections.abc.Mapping):
        return [value[k] for k in _keys(value)]
    return list(value)


def extension_type_in(spec):
    """The first extension type whose values `spec` (an element spec) holds, or None."""
    if isinstance(spec, ExtensionTypeSpec):
        return spec.value_type
    if not is_nested(spec):
        return None
    return next((t for t in map(extension_type_in, _children(spec)) if t is not None), None)


def flatten(structure):
    """The leaves of `structure`, depth first (dicts in sorted key order)."""
    if not is_nested(structure):
        return [structure]
    out = []
    for child in _children(structure):
        out.extend(flatten(child))
    return out


def _rebuild(template, children):
    if isinstance(template, (ExtensionType, ExtensionTypeSpec)):  # specs rebuild the spec,
        return extension_type.from_batch_parts(template, children)  # values the value
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
    kinds = [getattr(x, "value_type", type(x)) for x in (a, b)
             if isinstance(x, (ExtensionType, ExtensionTypeSpec))]
    if kinds:  # an extension type's value or spec: the same type, component by component
        if len(kinds) != 2 or kinds[0] is not kinds[1]:
            return False
        ca, cb = _children(a), _children(b)
        return len(ca) == len(cb) and all(same_structure(x, y) for x, y in zip(ca, cb))
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
    """A component as a tensor (a Variable is read; lists and arrays converted; None is
    None)."""
    if value is None:
        return None
    if isinstance(value, Variable):
        return value.read_value()
    if isinstance(value, (Tensor, SparseTensor, RaggedTensor, Optional)):
        return value
    return convert_to_tensor(value)


def normalize(element):
    """`element` with every leaf a tensor, named tuples and dicts kept, lists as values."""
    return map_structure(to_tensor, element)


def spec_of(element):
    """The spec nest of a nest of tensors (and sparse tensors)."""
    return map_structure(leaf_spec, element)


def leaf_spec(t):
    if t is None:
        return NoneTensorSpec()
    if isinstance(t, SparseTensor):
        return SparseTensorSpec(t.shape, t.dtype)
    if isinstance(t, RaggedTensor):
        return RaggedTensorSpec.from_value(t)
    if isinstance(t, Optional):
        return OptionalSpec(t.element_spec)
    return TensorSpec(t.shape, t.dtype)


# (an optional is one variant: it travels as the variant's value, see `flat_value`)
COMPOSITE_SPECS = (SparseTensorSpec, RaggedTensorSpec, NoneTensorSpec, OptionalSpec)


def is_composite(value):
    """Whether `value` travels as one value made of several arrays (sparse, ragged), of
    none (None), or as its variant (an optional)."""
    return value is None or isinstance(value, (SparseTensor, RaggedTensor, Optional))


def components(value):
    """The tensors a leaf value is made of: its own for a composite, none for None."""
    if value is None:
        return ()
    if isinstance(value, (SparseTensor, RaggedTensor, Optional)):
        return value._type_spec._to_components(value)
    return (value,)


def flat_value(t):
    """What eager leaf `t` travels as in a flat tuple: its array, the sparse or ragged
    tensor itself, None, or an optional's variant value."""
    if t is None or isinstance(t, (SparseTensor, RaggedTensor)):
        return t
    if isinstance(t, Optional):
        return components(t)[0]._data
    return t._data


def eager_optional(spec, value):
    """The eager `Optional` of `spec` (an `OptionalSpec`) whose variant value is `value`."""
    if value.flat is None:
        return Optional.empty(spec.element_spec)
    element = pack(spec.element_spec, [wrap(a) for a in value.flat])
    return Optional(element, spec.element_spec, True)


wrap = EagerTensor._wrap


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
        return EagerTensor._wrap(flat[0])

    @staticmethod
    def _tuple(flat):
        return tuple(map(wrap, flat))

    def _nested(self, flat):
        return pack(self.spec, map(wrap, flat))

    def _values(self, flat):
        specs = flatten(self.spec)
        return pack(self.spec, [wrap(v) if isinstance(s, TensorSpec) else
                                _uniform_rows(v, s.shape[1:s.ragged_rank + 1])
                                if isinstance(s, RaggedTensorSpec) and s.shape.rank is not None
                                else eager_optional(s, v) if isinstance(s, OptionalSpec)
                                else v for s, v in zip(specs, flat)])


def _uniform_rows(value, dims):
    """Ragged `value` whose ragged dimensions that `dims` (its spec's) gives a size have rows
    of that length (as TF's values of a batched spec do)."""
    if not isinstance(value, RaggedTensor) or not dims:
        return value
    inner = _uniform_rows(value.values, dims[1:])
    if dims[0] is None or value._uniform_row_length is not None:
        if inner is value.values:
            return value
        return RaggedTensor(inner, value.row_splits, internal=True,
                            uniform_row_length=value._uniform_row_length)
    length = wrap(np.asarray(dims[0], value.row_splits._data.dtype))
    return RaggedTensor(inner, value.row_splits, internal=True, uniform_row_length=length)


def _batched_leaf(s, batch_size):
    if type(s) is NoneTensorSpec:
        return s
    shape = TensorShape([batch_size]).concatenate(s.shape)
    if isinstance(s, RaggedTensorSpec):  # one more ragged dimension
        return RaggedTensorSpec(shape, s.dtype, s.ragged_rank + 1, s.row_splits_dtype)
    return type(s)(shape, s.dtype)


def batched_spec(spec, batch_size):
    """`spec` with a leading dimension of `batch_size` (None for unknown)."""
    return _shape_fields(map_structure(lambda s: _batched_leaf(s, batch_size), spec),
                         lambda shape: TensorShape([batch_size]).concatenate(shape))


def _shape_fields(spec, fn):
    """`spec` with `fn` applied to the `TensorShape` fields of the extension types' specs in
    it (as TF batches them: a batch's shape field gains the batch dimension)."""
    if isinstance(spec, ExtensionTypeSpec):
        fields = {k: fn(v) if isinstance(v, TensorShape) and v.rank is not None else
                  _shape_fields(v, fn) for k, v in spec._fields.items()}
        if all(fields[k] is v for k, v in spec._fields.items()):
            return spec
        rebuilt = _new(type(spec))
        rebuilt._fields = fields
        return rebuilt
    if isinstance(spec, collections.abc.Mapping):
        return type(spec)((k, _shape_fields(v, fn)) for k, v in spec.items())
    if isinstance(spec, tuple):
        children = [_shape_fields(v, fn) for v in spec]
        return type(spec)(*children) if hasattr(type(spec), "_fields") else tuple(children)
    return spec


def _unbatched_leaf(s):
    if type(s) is NoneTensorSpec:
        return s
    if isinstance(s, RaggedTensorSpec):
        return RaggedTensorSpec(s.shape[1:], s.dtype, s.ragged_rank - 1, s.row_splits_dtype)
    return type(s)(s.shape[1:], s.dtype)


def unbatched_spec(spec):
    return _shape_fields(map_structure(_unbatched_leaf, spec), lambda shape: shape[1:])


# -- sparse leaves ---------------------------------------------------------------------------

def sparse_value(indices, values, dense_shape):
    """A `SparseTensor` of eager tensors holding the three arrays."""
    value = _new(SparseTensor)
    value._indices, value._values, value._dense_shape = \
        wrap(indices), wrap(values), wrap(dense_shape)
    return value


def sparse_arrays(value):
    """The (indices, values, dense_shape) arrays of an eager `SparseTensor`."""
    return value._indices._data, value._values._data, value._dense_shape._data


def sparse_rows(value):
    """``i -> row i`` of an eager sparse tensor of rank >= 1 (its first dimension dropped),
    and the number of rows."""
    indices, values, shape = sparse_arrays(value)
    rows = indices[:, 0]
    # row-major indices: each row's entries are one run (`searchsorted` finds it)
    order_ok = rows.size < 2 or bool(np.all(rows[1:] >= rows[:-1]))
    rest, rank = shape[1:], shape.shape[0] - 1

    def row(i):
        if order_ok:
            lo, hi = np.searchsorted(rows, [i, i + 1])
            sel = slice(lo, hi)
        else:
            sel = rows == i
        return sparse_value(np.ascontiguousarray(indices[sel, 1:]).reshape(-1, rank),
                            values[sel].copy(), rest.copy())
    return row, int(shape[0])


def stack_sparse(parts):
    """Eager sparse tensors of one rank batched into one of rank + 1 (TF's batch of sparse
    elements: the dense shape is the largest of theirs in each dimension)."""
    arrays = [sparse_arrays(p) for p in parts]
    ranks = {a[2].shape[0] for a in arrays}
    if len(ranks) > 1:
        raise errors.InvalidArgumentError(
            None, None, f"Cannot batch sparse tensors of ranks {sorted(ranks)}: the elements of "
                        f"a batch must have one rank.")
    rank = ranks.pop()
    indices = np.concatenate(
        [np.concatenate([np.full((len(a[0]), 1), i, np.int64), a[0].reshape(-1, rank)], axis=1)
         for i, a in enumerate(arrays)])
    values = np.concatenate([a[1] for a in arrays])
    shape = np.max(np.stack([a[2] for a in arrays]), axis=0)
    return sparse_value(indices, values, np.concatenate([[len(parts)], shape]).astype(np.int64))


def component_arrays(flat):
    """A flat tuple's arrays, each sparse tensor as its three, each ragged one as its flat
    values and row splits (for storage)."""
    out = []
    for a in flat:
        if a is None:  # (a None component has none)
            continue
        if isinstance(a, SparseTensor):
            out.extend(sparse_arrays(a))
        elif isinstance(a, (RaggedTensor, EagerTensor)):  # (a row of a ragged tensor too)
            out.extend(ragged_arrays(a))
        else:
            out.append(a)
    return out


def from_component_arrays(spec, arrays):
    """The flat tuple of `spec`'s elements from `component_arrays` of one."""
    it = iter(arrays)
    return tuple(sparse_value(next(it), next(it), next(it)) if isinstance(s, SparseTensorSpec)
                 else ragged_value(s, [next(it) for _ in s._component_specs])
                 if isinstance(s, RaggedTensorSpec) else None if type(s) is NoneTensorSpec
                 else next(it) for s in flatten(spec))


# -- ragged leaves ---------------------------------------------------------------------------

def ragged_arrays(value):
    """The flat values and row splits arrays of an eager ragged tensor (or row of one)."""
    if isinstance(value, EagerTensor):
        return [value._data]
    return [value.flat_values._data] + [s._data for s in value.nested_row_splits]


def ragged_value(spec, arrays):
    """The value of ragged `spec` (a tensor for ragged rank 0) from its component arrays."""
    return spec._from_components([wrap(a) for a in arrays])


def ragged_rows(value):
    """``i -> row i`` of an eager ragged tensor (a tensor for ragged rank 1), and the number
    of rows."""
    splits = value.row_splits._data
    inner = value.values

    def row(i):
        a, b = int(splits[i]), int(splits[i + 1])
        if isinstance(inner, RaggedTensor):
            return inner[a:b]
        return wrap(inner._data[a:b].copy())
    return row, splits.size - 1


def stack_ragged(parts, splits_dtype=np.int64):
    """Eager ragged tensors (or tensors: rows of one) batched into one ragged tensor with
    one more ragged dimension."""
    if isinstance(parts[0], RaggedTensor):
        splits_dtype = parts[0].row_splits._data.dtype
        dims = {p.shape.rank for p in parts}
    else:
        dims = {p._data.ndim for p in parts}
    if len(dims) > 1:
        raise errors.InvalidArgumentError(
            None, None, f"Cannot batch ragged tensors of ranks {sorted(dims)}: the elements of "
                        f"a batch must have one rank.")
    lengths = [int(p.nrows()) if isinstance(p, RaggedTensor) else p._data.shape[0]
               for p in parts]
    splits = np.zeros(len(parts) + 1, splits_dtype)
    np.cumsum(lengths, out=splits[1:])
    if isinstance(parts[0], RaggedTensor):
        values = _concat_ragged(parts)
    else:
        shapes = {p._data.shape[1:] for p in parts}
        if len(shapes) > 1:
            raise errors.InvalidArgumentError(
                None, None, f"Cannot batch tensors with different inner shapes "
                            f"{sorted(shapes)} into a ragged tensor.")
        values = wrap(np.concatenate([p._data for p in parts]))
    return RaggedTensor(values, wrap(splits), internal=True)


def _concat_ragged(parts):
    """Eager ragged (or dense) tensors, the rows of each after those of the one before."""
    if not isinstance(parts[0], RaggedTensor):
        return wrap(np.concatenate([p._data for p in parts]))
    splits = [parts[0].row_splits._data]
    for p in parts[1:]:
        splits.append(p.row_splits._data[1:] + splits[-1][-1])
    return RaggedTensor(_concat_ragged([p.values for p in parts]), wrap(np.concatenate(splits)),
                        internal=True)
