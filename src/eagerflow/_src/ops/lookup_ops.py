"""Lookup tables (``tf.lookup``): maps from keys to values held by a stateful resource.

A table is a scalar tensor of dtype ``resource`` whose value is a `TableValue` (a
Python dict from key to value). The table ops take that tensor: eagerly they
run at once; in a `function` the tensor is captured by reference, as a variable
is, so a table filled after tracing is seen by the next call. Their kernels are
stateful, so graphs keep them in program order and never fold them.

Static tables are filled once by an initializer (`KeyValueTensorInitializer`,
`TextFileInitializer`); `experimental.MutableHashTable` and
`experimental.DenseHashTable` take `insert` and `remove`, and checkpoints save
their contents under TF's keys (``<path>/.ATTRIBUTES/table-keys``, ``-values``).

>>> table = tf.lookup.StaticHashTable(
...     tf.lookup.KeyValueTensorInitializer(["a", "b"], [1, 2]), default_value=-1)
>>> table.lookup(tf.constant(["b", "z"]))
<tf.Tensor: shape=(2,), dtype=int32, numpy=array([ 2, -1], dtype=int32)>
"""
import contextlib
import itertools
import math

import numpy as np

from eagerflow._src.backend.api_export import export
from eagerflow._src.core import context, errors
from eagerflow._src.core import dtypes as _d
from eagerflow._src.core.convert import convert_to_tensor
from eagerflow._src.core.dispatch import dispatch
from eagerflow._src.core.node_forms import NodeForm, table_ops, tf_args, tf_nodes
from eagerflow._src.core.registry import PER_ELEMENT, batching_rules, register
from eagerflow._src.core.registry import kernel_type_name as registry_type_name
from eagerflow._src.core.resource import TrackableResource
from eagerflow._src.core.tensor import EagerTensor, Tensor
from eagerflow._src.core.tensor_shape import TensorShape
from eagerflow._src.core.variables import handle_text
from eagerflow._src.ops import (array_ops, cast_ops, file_system, fingerprint_ops, io_ops,
                                math_ops, string_ops)
from eagerflow._src.ops.sparse_tensor import SparseTensor
from eagerflow._src.ops.wrappers import as_tensor

_NO_GRAD = "lookup table op"


class TableValue:
    """The value of a table's resource tensor: its entries, in insertion order.

    It passes for a scalar ``resource`` array (`shape`, `ndim`, `dtype`) wherever
    tensors look at their value's metadata.
    """

    __slots__ = ("entries", "key_dtype", "value_dtype", "value_shape", "initialized",
                 "token_index", "static", "reserved", "number", "__weakref__")
    shape = ()
    ndim = 0
    dtype = _d.resource
    captured_as_argument = True  # (a SavedModel's function takes its tables as arguments)

    def __init__(self, key_dtype, value_dtype):
        self.entries = {}
        self.key_dtype, self.value_dtype = key_dtype, value_dtype
        self.initialized = False
        self.token_index = None
        self.static = False  # (a static table must be initialized before a lookup)
        self.reserved = ()  # a dense table's empty and deleted keys, which no key may be
        # () for scalar values; a mutable table of vectors (TF's "of tensors") holds each
        # value as a tuple of this length-1 shape's elements
        self.value_shape = ()
        self.number = self.next_number()  # (its resource's name, as TF numbers them)

    next_number = itertools.count().__next__

    def __repr__(self):
        return handle_text(self.number, "tensorflow::lookup::LookupInterface")


def _dims(shape):
    """A shape as TF's kernels write it in messages: ``[2,3]``."""
    return "[" + ",".join(map(str, shape)) + "]"


def _python_keys(keys):
    """The dict keys of array `keys` (bytes stay bytes, numbers become Python numbers)."""
    return keys.reshape(-1).tolist()


def _check_reserved(table, keys):
    for key, name in zip(table.reserved, ("empty_key", "deleted_key")):
        if (keys == key).any():
            raise errors.InvalidArgumentError(
                None, None, f"Using the {name} as a table key is not allowed")


def _dtype_of(array):
    return _d.string if array.dtype == object else _d.from_numpy(array.dtype)


def _check_signature(table, keys, values=None, out=False):
    """TF's kernels' check that `keys` (and `values`, a lookup's default) are of the table's
    dtypes: InvalidArgumentError naming what the op got and what it takes."""
    got = [_dtype_of(keys)] + ([] if values is None else [_dtype_of(values)])
    want = [table.key_dtype] + ([] if values is None else [table.value_dtype])
    if got == want:
        return

    def text(dtypes):
        names = [registry_type_name(d) for d in dtypes]
        return f"resource, {', '.join(names)}->{names[-1] if out else ''}"
    raise errors.InvalidArgumentError(
        None, None, f"Signature mismatch, have: {text(got)} expected: {text(want)}")


def _find(xp, table, keys, default_value):
    _check_signature(table, keys, default_value, out=True)
    if table.static and not table.initialized:
        raise errors.FailedPreconditionError(None, None, "Table not initialized.")
    _check_reserved(table, keys)
    entries = table.entries
    dtype = table.value_dtype.as_numpy_dtype
    if table.value_shape:
        return _find_vectors(table, keys, default_value, dtype)
    if default_value.ndim and default_value.shape != keys.shape:
        raise errors.InvalidArgumentError(
            None, None, f"Expected shape [] or {_dims(keys.shape)} for default value, got "
                        f"{_dims(default_value.shape)}")
    if default_value.ndim:
        flat_default = default_value.reshape(-1).tolist()
        found = [entries.get(k, d) for k, d in zip(_python_keys(keys), flat_default)]
        return np.asarray(found, dtype).reshape(keys.shape)
    flat = keys.reshape(-1)
    # (one `map` in C: dict.get of each key with the default)
    found = map(entries.get, flat if flat.dtype == object else flat.tolist(),
                itertools.repeat(default_value.reshape(())[()]))
    if dtype is object:
        out = np.empty(flat.size, object)
        out[:] = list(found)
    else:
        out = np.fromiter(found, dtype, count=flat.size)
    return out.reshape(keys.shape)


def _find_vectors(table, keys, default_value, dtype):
    """`_find` of a table of vectors: the default a vector, or one per key."""
    shape = keys.shape + table.value_shape
    if default_value.shape not in (table.value_shape, shape):
        raise errors.InvalidArgumentError(
            None, None, f"Expected shape {_dims(table.value_shape)} or {_dims(shape)} for "
                        f"default value, got {_dims(default_value.shape)}")
    out = np.array(np.broadcast_to(default_value, shape), dtype).reshape(keys.size, -1)
    get = table.entries.get
    for i, key in enumerate(_python_keys(keys)):
        value = get(key)
        if value is not None:
            out[i] = value
    return out.reshape(shape)


# -- looking up tokens of a bytes buffer ---------------------------------------------------------
# A static table of string keys also keeps its keys of up to 16 bytes as numbers: two words of
# their bytes (zero-padded, little-endian) and their length, in an open-addressing hash table
# (linear probing, at most a quarter full). Tokens of a buffer are looked up there by comparing
# the three numbers: exact, with NumPy over all tokens at once and no bytes object per token.

_WORD = np.dtype("<u8")
_LOW_BYTES = np.array([(1 << (8 * i)) - 1 for i in range(8)] + [(1 << 64) - 1], np.uint64)
_SHORT = 16


def _words(data, starts, lengths):
    """The first two words of each token (zero-padded); `data` has 16 bytes after them."""
    # The words at every byte, as eight aligned arrays (one per offset modulo 8): gathering
    # from them is faster than from a view of unaligned words.
    count = (data.size - 8) // 8
    words = np.empty((8, count), _WORD)
    for offset in range(8):
        words[offset] = np.frombuffer(data, _WORD, count, offset)
    at = (starts & 7) * count + (starts >> 3)
    words = words.reshape(-1)
    low = words[at] & _LOW_BYTES[np.minimum(lengths, 8)]
    # (a token of 8 bytes or fewer at the very end may point past the last word: masked out)
    high = words[np.minimum(at + 1, words.size - 1)] & _LOW_BYTES[np.clip(lengths - 8, 0, 8)]
    return low, high


def _home(low, high, lengths, shift):
    """Each token's first slot: the top bits of a hash of its numbers."""
    h = low * np.uint64(0x9E3779B97F4A7C15) ^ high * np.uint64(0xC2B2AE3D27D4EB4F) ^ \
        lengths.astype(np.uint64) * np.uint64(0x165667B19E3779F9)
    h ^= h >> np.uint64(31)
    return ((h * np.uint64(0xD6E8FEB86659FD93)) >> np.uint64(shift)).astype(np.intp)


class _TokenIndex:
    """The short string keys of a table's `entries` in a hash table of numbers (see above)."""

    def __init__(self, entries, value_dtype):
        self.entries = entries
        self.size = len(entries)
        keys = [k for k in entries if len(k) <= _SHORT]
        lengths = np.fromiter(map(len, keys), np.int64, count=len(keys))
        data = np.frombuffer(b"".join(keys) + bytes(_SHORT), np.uint8)
        self.low, self.high = _words(data, np.cumsum(lengths) - lengths, lengths)
        self.lengths = lengths
        self.values = np.array([entries[k] for k in keys], value_dtype)
        bits = max(4, (4 * len(keys)).bit_length())
        self.shift, self.mask = 64 - bits, (1 << bits) - 1
        self.slots = np.full(1 << bits, -1, np.intp)
        # Each round, every key not yet placed takes the slot it is at when that slot is free
        # (the first of several such keys), else moves on to the next slot: the slots it
        # passes hold keys, as linear probing needs.
        todo = np.arange(len(keys))
        at = _home(self.low, self.high, lengths, self.shift)
        while todo.size:
            free = np.flatnonzero(self.slots[at] < 0)
            spots, first = np.unique(at[free], return_index=True)
            self.slots[spots] = todo[free[first]]
            left = self.slots[at] != todo
            todo, at = todo[left], (at[left] + 1) & self.mask

    def valid_for(self, table):
        return table.entries is self.entries and len(table.entries) == self.size

    def find(self, data, starts, lengths, default_value):
        low, high = _words(data, starts, lengths)
        at = _home(low, high, lengths, self.shift)
        out = np.full(starts.size, default_value, self.values.dtype)
        todo = None  # (all tokens, then those whose slots held other keys)
        while at.size and self.values.size:
            key = self.slots[at]
            taken = key >= 0
            key = np.maximum(key, 0)  # (compared where taken only)
            same = (taken & (self.low[key] == low) & (self.high[key] == high) &
                    (self.lengths[key] == lengths))
            hits = np.flatnonzero(same)
            out[hits if todo is None else todo[hits]] = self.values[key[hits]]
            more = np.flatnonzero(taken & ~same)
            todo = more if todo is None else todo[more]
            at = (at[more] + 1) & self.mask
            low, high, lengths = low[more], high[more], lengths[more]
        return out


def find_tokens(table, data, starts, lengths, default_value):
    """The values in `table` (a `TableValue` of string keys) of the tokens
    ``data[starts:starts + lengths]`` of uint8 buffer `data` (which has 16 zero bytes after
    them), `default_value` where absent: as `LookupTableFindV2` of the tokens as strings."""
    dtype = table.value_dtype.as_numpy_dtype
    index = table.token_index
    if table.static and not table.initialized:
        raise errors.FailedPreconditionError(None, None, "Table not initialized.")
    if table.initialized and (index is None or not index.valid_for(table)):
        index = table.token_index = _TokenIndex(table.entries, dtype)
    if index is None:
        raw = data.tobytes()
        tokens = [raw[a:a + n] for a, n in zip(starts.tolist(), lengths.tolist())]
        return np.fromiter(map(table.entries.get, tokens, itertools.repeat(default_value)),
                           dtype, count=len(tokens))
    out = index.find(data, starts, lengths, default_value)
    long = np.flatnonzero(lengths > _SHORT)
    if long.size:  # (the few long tokens: one by one)
        get, view = table.entries.get, data.data
        out[long] = [get(bytes(view[a:a + n]), default_value)
                     for a, n in zip(starts[long].tolist(), lengths[long].tolist())]
    return out


def _size(xp, table):
    return np.int64(len(table.entries))


def _insert(xp, table, keys, values):
    _check_signature(table, keys, values)
    _check_reserved(table, keys)
    if keys.shape + table.value_shape != values.shape:
        raise errors.InvalidArgumentError(
            None, None, f"Expected shape {_dims(keys.shape + table.value_shape)} for value, "
                        f"got {_dims(values.shape)}")
    table.entries.update(zip(_python_keys(keys), _python_values(table, values)))
    return ()


def _python_values(table, values):
    """The dict values of array `values`: Python scalars, or tuples for a table of vectors."""
    if not table.value_shape:
        return values.reshape(-1).tolist()
    return map(tuple, values.reshape(-1, table.value_shape[0]).tolist())


def _remove(xp, table, keys):
    _check_signature(table, keys)
    _check_reserved(table, keys)
    pop = table.entries.pop
    for k in _python_keys(keys):
        pop(k, None)
    return ()


def _export(table):
    out = []
    for items, dtype, shape in ((table.entries.keys(), table.key_dtype, ()),
                                (table.entries.values(), table.value_dtype, table.value_shape)):
        array = np.empty((len(items),) + shape,
                         object if dtype == _d.string else dtype.as_numpy_dtype)
        if items:
            array[...] = list(items)
        out.append(array)
    return tuple(out)


DEFAULT_NUM_BUCKETS = 131072  # (a dense table's at first, as TF's)


def export_entries(table, buckets=0, empty_key=None):
    """``(keys, values)`` arrays of `table` (a `TableValue`) as TF's export gives them: in
    order, or with `buckets`, a dense table's bucket arrays (`empty_key` in the free ones)."""
    return _dense_layout(table, buckets, empty_key) if buckets else _export(table)


def _dense_layout(table, buckets, empty_key):
    """The entries as TF's dense table holds them: ``[buckets, 1]`` arrays (doubled while
    more than 0.8 of them would be full), each key at its hash's bucket or the first free
    one of TF's triangular probe sequence, so TF finds them in a checkpoint of ours."""
    while len(table.entries) > 0.8 * buckets:
        buckets *= 2
    mask = buckets - 1
    keys = [empty_key] * buckets
    values = [(0,) * table.value_shape[0] if table.value_shape else 0] * buckets
    for key, value in table.entries.items():
        spot = (fingerprint_ops.hash64(key) if isinstance(key, bytes) else key) & mask
        probe = 0
        while keys[spot] != empty_key:
            probe += 1
            spot = (spot + probe) & mask
        keys[spot], values[spot] = key, value
    out = []
    for items, dtype in ((keys, table.key_dtype), (values, table.value_dtype)):
        if dtype == _d.string:
            array = np.empty(buckets, object)
            array[:] = items
        else:
            array = np.asarray(items, dtype.as_numpy_dtype)
        out.append(array.reshape(buckets, -1))
    return tuple(out)


def _import(xp, table, keys, values):
    _check_signature(table, keys, values)
    import_entries(table, keys, values)
    return ()


def import_entries(table, keys, values):
    """Replaces the entries of `table` (a `TableValue`) by those of arrays `keys` and `values`
    (a dense table's bucket arrays, its free buckets holding the empty key, dropped)."""
    if values.size != keys.size * math.prod(table.value_shape):
        raise errors.InvalidArgumentError(
            None, None, f"Expected shape {_dims(keys.shape + table.value_shape)} for value, "
                        f"got {_dims(values.shape)}")
    keys = keys.reshape(-1)
    values = values.reshape((len(keys),) + table.value_shape)
    for key in table.reserved:
        keep = keys != key
        keys, values = keys[keep], values[keep]
    table.entries = dict(zip(_python_keys(keys), _python_values(table, values)))
    if table.static:  # (a saved static table's initializer imports its entries)
        table.initialized = True


def _value_shape(table):
    """The value shape of the table whose resource tensor is `table`, where known while
    building (a captured table's value is): () for scalars, ``(n,)`` for vectors."""
    value = table.static_value() if hasattr(table, "static_value") else \
        getattr(table, "_data", None)
    return getattr(value, "value_shape", None)  # (None: not known)


def _find_rule(table, keys, default_value):
    value_shape = _value_shape(table)
    if value_shape is None:  # (a table made in the graph: a scalar default says its values)
        rank = TensorShape(default_value.shape).rank
        return (keys.shape if rank == 0 else TensorShape(None)), default_value.dtype
    return keys.shape.concatenate(value_shape), default_value.dtype


def _no_outputs(*_, **__):
    return []


def _export_rule(table, key_dtype, value_dtype, buckets=0, **_):
    shape = TensorShape([None, 1] if buckets else [None])
    value_shape = _value_shape(table)
    values = TensorShape(None) if value_shape is None else \
        TensorShape([None, *value_shape]) if value_shape else shape
    return [(shape, key_dtype), (values, value_dtype)]


_FIND = register("LookupTableFindV2", _find, _find_rule, tied=(), stateful=True,
                 not_differentiable=_NO_GRAD, replayable=True)
_SIZE = register("LookupTableSizeV2", _size, lambda *_: (TensorShape([]), _d.int64), tied=(),
                 stateful=True, not_differentiable=_NO_GRAD, replayable=True)
_INSERT = register("LookupTableInsertV2", _insert, _no_outputs, multi=True, tied=(),
                   stateful=True, not_differentiable=_NO_GRAD)
_REMOVE = register("LookupTableRemoveV2", _remove, _no_outputs, multi=True, tied=(),
                   stateful=True, not_differentiable=_NO_GRAD)
_EXPORT = register("LookupTableExportV2",
                   lambda xp, table, buckets=0, empty_key=None, **_:
                   export_entries(table, buckets, empty_key),
                   _export_rule, multi=True, tied=(), stateful=True,
                   not_differentiable=_NO_GRAD, replayable=True)
_IMPORT = register("LookupTableImportV2", _import, _no_outputs, multi=True, tied=(),
                   stateful=True, not_differentiable=_NO_GRAD)
tf_nodes[_FIND] = NodeForm(types={"Tin": 1, "Tout": 2}, outputs=("values",))
tf_nodes[_SIZE] = NodeForm(types={}, outputs=("size",))
tf_nodes[_INSERT] = NodeForm(types={"Tin": 1, "Tout": 2})
tf_nodes[_REMOVE] = NodeForm(types={"Tin": 1})
tf_nodes[_EXPORT] = NodeForm(types={}, renamed={"key_dtype": "Tkeys", "value_dtype": "Tvalues"},
                             outputs=("keys", "values"))
tf_nodes[_IMPORT] = NodeForm(types={"Tin": 1, "Tout": 2})
# (raw ops take the table's resource tensor: a table's `resource_handle`, or what a
# table-making raw op below gives)
tf_args[_FIND] = ("table_handle", "keys", "default_value")
tf_args[_SIZE] = tf_args[_EXPORT] = ("table_handle",)
tf_args[_INSERT] = tf_args[_IMPORT] = ("table_handle", "keys", "values")
tf_args[_REMOVE] = ("table_handle", "keys")
for _op in (_FIND, _SIZE, _INSERT, _REMOVE, _EXPORT, _IMPORT):
    batching_rules[_op] = PER_ELEMENT
    table_ops.add(_op)


class _TableOfNode:
    """The table one table-making operation of a graph makes when it first runs, and gives
    on every later run (as TF's kernel keeps its table)."""

    __slots__ = ("value",)

    def __init__(self):
        self.value = None


_SHARED_TABLES = {}  # (container, shared_name) -> the TableValue of that name


def _text(value):
    return value.decode() if isinstance(value, bytes) else str(value or "")


def _make_table(static, xp, key_dtype, value_dtype, node, container="", shared_name="",
                use_node_name_sharing=False, value_shape=None):
    """A table's resource: a new one (eagerly), the one this node made (in a graph), or the
    one shared under `shared_name` (the same dtypes, else TF's error)."""
    del use_node_name_sharing
    name = _text(shared_name)
    found = _SHARED_TABLES.get((_text(container), name)) if name else node.value
    if found is not None:
        if (found.key_dtype, found.value_dtype) != (key_dtype, value_dtype):
            raise errors.InvalidArgumentError(
                None, None, f"Conflicting key/value dtypes {registry_type_name(key_dtype)}->"
                            f"{registry_type_name(value_dtype)} with "
                            f"{registry_type_name(found.key_dtype)}-"
                            f"{registry_type_name(found.value_dtype)} for table {name}")
        return found
    table = TableValue(key_dtype, value_dtype)
    table.static = static
    if value_shape is not None:  # (a table of vectors)
        table.value_shape = tuple(TensorShape(value_shape).as_list())
    if name:
        _SHARED_TABLES[(_text(container), name)] = table
        table.number = name  # (its resource's name)
    node.value = table
    return table


def _table_rule(*_, **__):
    return TensorShape([]), _d.resource


_TABLE_OPS = {}
for _name, _static in (("HashTableV2", True), ("MutableHashTableV2", False),
                       ("MutableHashTableOfTensorsV2", False)):
    _op = _TABLE_OPS[_name] = register(
        _name, lambda *a, _static=_static, **k: _make_table(_static, *a, **k), _table_rule,
        tied=(), stateful=True, not_differentiable=_NO_GRAD)
    tf_nodes[_op] = NodeForm(types={}, outputs=("table_handle",), local={"node": _TableOfNode},
                             defaults={"container": "", "shared_name": "",
                                       "use_node_name_sharing": False})
    tf_args[_op] = ()
    batching_rules[_op] = PER_ELEMENT


def _outside_functions():
    """Where tables and their contents are made: eagerly, even while a function is traced
    (as TF lifts them); a no-op when already eager or building a TF 1 graph."""
    if context.executing_eagerly() or _v1_graph() is not None:
        return contextlib.nullcontext()
    return context.init_scope()


def _v1_graph():
    """The TF 1 graph being built (whose tables hold their entries per session), or None."""
    graph = context.get().graph
    return graph if hasattr(graph, "session_table") else None


def _v1_op():
    """In a TF 1 graph, the operation just built (what TF's table methods return there)."""
    graph = _v1_graph()
    return None if graph is None else graph.get_operations()[-1]


def _initialize(table, initializer):
    """Fills `table` from `initializer`: at once, or in a TF 1 graph, by an operation that
    `tables_initializer` runs (the table is empty in a session until it does)."""
    graph = _v1_graph()
    if graph is None:
        initializer.initialize(table)
        return
    count = len(graph.get_operations())
    initializer.initialize(table)
    added = graph.get_operations()[count:]
    table._init_op = added[-1]
    graph.add_to_collection("table_initializer", table._init_op)


# -- initializers -------------------------------------------------------------------------------

class TableInitializerBase:
    """What fills a static table: its key and value dtypes and `initialize(table)`."""

    def __init__(self, key_dtype, value_dtype):
        self._key_dtype = _d.as_dtype(key_dtype)
        self._value_dtype = _d.as_dtype(value_dtype)

    key_dtype = property(lambda self: self._key_dtype)
    value_dtype = property(lambda self: self._value_dtype)

    def initialize(self, table):
        raise NotImplementedError


@export("lookup.KeyValueTensorInitializer")
class KeyValueTensorInitializer(TableInitializerBase):
    """Fills a table with the pairs of `keys` and `values` (two tensors of one shape)."""

    def __init__(self, keys, values, key_dtype=None, value_dtype=None, name=None):
        with _outside_functions():
            self._keys = convert_to_tensor(keys, None if key_dtype is None
                                           else _d.as_dtype(key_dtype))
            self._values = convert_to_tensor(values, None if value_dtype is None
                                             else _d.as_dtype(value_dtype))
        self._name = name or "key_value_init"
        super().__init__(self._keys.dtype, self._values.dtype)

    def initialize(self, table):
        _check_dtypes(table, self._keys.dtype, self._values.dtype)
        if _v1_graph() is not None:  # (an import, as TF's: each run of it sets the entries)
            with context.name_scope_push(_v1_graph().unique_name(self._name) + "/"):
                dispatch(_IMPORT, (table.resource_handle, self._keys, self._values))
            return
        try:
            dispatch(_IMPORT_MORE, (table.resource_handle, self._keys, self._values))
        except errors.OpError as e:  # (TF 2 fills the table by an import, named so)
            raise errors.renamed(e, "LookupTableImportV2") from None


def _init_more(xp, table, keys, values):
    if keys.shape != values.shape:
        raise errors.InvalidArgumentError(
            None, None, f"Expected shape {_dims(keys.shape)} for value, got "
                        f"{_dims(values.shape)}")
    if table.initialized:  # (again: fine with the same entries, as TF's kernels)
        if table.entries == dict(zip(_python_keys(keys), values.reshape(-1).tolist())):
            return ()
        raise errors.FailedPreconditionError(
            None, None, "Table was already initialized with different data.")
    for k, v in zip(_python_keys(keys), values.reshape(-1).tolist()):
        if table.entries.setdefault(k, v) != v:
            raise errors.FailedPreconditionError(
                None, None, f"HashTable has different value for same key. Key "
                            f"{_entry_text(k)} has {_entry_text(table.entries[k])} and trying "
                            f"to add value {_entry_text(v)}")
    table.initialized = True
    return ()


def _init_from_tensors(xp, table, keys, values):
    _check_signature(table, keys, values)
    if not keys.size or not values.size:
        raise errors.InvalidArgumentError(None, None,
                                          "keys and values cannot be empty tensors.")
    return _init_more(xp, table, keys, values)


_IMPORT_MORE = register("InitializeTableV2", _init_from_tensors, _no_outputs, multi=True, tied=(),
                        stateful=True, not_differentiable=_NO_GRAD)
tf_nodes[_IMPORT_MORE] = NodeForm(types={"Tkey": 1, "Tval": 2})
tf_args[_IMPORT_MORE] = ("table_handle", "keys", "values")
table_ops.add(_IMPORT_MORE)
batching_rules[_IMPORT_MORE] = PER_ELEMENT


@export("lookup.TextFileIndex")
class TextFileIndex:
    """Special columns of `TextFileInitializer`: the whole line, or its number."""

    WHOLE_LINE = -2
    LINE_NUMBER = -1


def _read_lines(filename):
    """The lines of a text file (without their '\n' or '\r\n') and the offset each ends
    at, past its line break."""
    try:
        with file_system.open_file(filename, "rb") as f:  # (``ram://`` too)
            data = f.read()
    except OSError as e:  # (TF's NotFoundError for a missing file)
        raise io_ops.os_error(e, filename) from None
    lines = data.split(b"\n")
    if lines and lines[-1] == b"":
        lines.pop()
    ends = np.minimum(np.cumsum([len(line) + 1 for line in lines]), len(data)).tolist()
    return [line[:-1] if line.endswith(b"\r") else line for line in lines], ends


def _entry_text(value):
    """A key or value in a table's messages, as TF's C++ streams print it."""
    if isinstance(value, bytes):
        return value.decode(errors="replace")
    if isinstance(value, float):
        return f"{value:g}"
    return str(value)


def _column(line, number, index, delimiter, dtype, filename, offset=0):
    if index == TextFileIndex.LINE_NUMBER:
        return number + offset
    text = line if index == TextFileIndex.WHOLE_LINE else None
    if text is None:
        parts = line.split(delimiter) if delimiter else line.split()
        if index >= len(parts):
            raise errors.InvalidArgumentError(
                None, "InitializeTableFromTextFileV2",
                f"Invalid number of columns in {filename} line {number} "
                f"({line.decode(errors='replace')}) : expected at least {index + 1} got "
                f"{len(parts)}")
        text = parts[index]
    if dtype == _d.string:
        return text
    try:
        if b"_" in text:  # (Python's digit separators: not a number to TF)
            raise ValueError
        value = float(text) if dtype.is_floating else int(text)
        if dtype.is_integer and not dtype.min <= value <= dtype.max:
            raise ValueError
        return value
    except ValueError:
        raise errors.InvalidArgumentError(
            None, "InitializeTableFromTextFileV2",
            f"Field {text.decode(errors='replace')} in line {number} is not a valid "
            f"{'float' if dtype == _d.float32 else dtype.name}.") from None


@export("lookup.TextFileInitializer")
class TextFileInitializer(TableInitializerBase):
    """Fills a table from a text file: per line, the key and value taken from columns
    (split at `delimiter`) or from the line itself (`TextFileIndex`).

    `value_index_offset` is added to line numbers used as values.
    """

    def __init__(self, filename, key_dtype, key_index, value_dtype, value_index,
                 vocab_size=None, delimiter="\t", name=None, value_index_offset=0):
        key_dtype, value_dtype = _d.as_dtype(key_dtype), _d.as_dtype(value_dtype)
        for what, index, dtype in (("key", key_index, key_dtype),
                                   ("value", value_index, value_dtype)):
            if index < -2:
                raise ValueError(f"Invalid {what} index {index}.")
            if index == TextFileIndex.LINE_NUMBER and dtype != _d.int64:
                raise ValueError(f"{'Signature' if what == 'key' else 'Signature'} mismatch. "
                                 f"Keys must be dtype {_d.int64}, got {dtype}."
                                 if what == "key" else
                                 f"Signature mismatch. Values must be dtype {_d.int64}, got "
                                 f"{dtype}.")
            if index == TextFileIndex.WHOLE_LINE and not (dtype == _d.string or
                                                          dtype.is_integer):
                raise ValueError(f"Signature mismatch. {what.capitalize()}s must be integer "
                                 f"or string, got {dtype}.")
        if vocab_size is not None and vocab_size <= 0:
            raise ValueError(f"`vocab_size` should be > 0, received: {vocab_size}")
        self._asset = None
        if hasattr(filename, "asset_path"):  # a `tf.saved_model.Asset`: saved as that asset
            self._asset, filename = filename, filename.asset_path
        if isinstance(filename, Tensor):
            filename = filename.numpy()
        self._filename = filename.decode() if isinstance(filename, bytes) else str(filename)
        self._key_index, self._value_index = key_index, value_index
        self._vocab_size = vocab_size
        self._delimiter = delimiter.encode() if isinstance(delimiter, str) else delimiter
        self._offset = value_index_offset
        self._name = name
        super().__init__(key_dtype, value_dtype)

    def _pairs(self):
        lines, ends = _read_lines(self._filename)
        if not ends:  # (TF's reader fails on an empty file: no vocabulary is made of it)
            raise errors.OutOfRangeError(None, "InitializeTableFromTextFileV2",
                                         "Read less bytes than requested")
        if self._vocab_size is not None:
            if len(lines) < self._vocab_size:
                raise errors.InvalidArgumentError(
                    None, "InitializeTableFromTextFileV2",
                    f"Invalid vocab_size in {self._filename}: expected {self._vocab_size} "
                    f"but got {len(lines)}")
            lines = lines[:self._vocab_size]
        keys, values = [], []
        for number, line in enumerate(lines):
            if not line:
                raise errors.InvalidArgumentError(
                    None, "InitializeTableFromTextFileV2",
                    f"Invalid content in {self._filename}: empty line found at position "
                    f"{ends[number]}.")
            # (the offset shifts line numbers, as keys or as values)
            keys.append(_column(line, number, self._key_index, self._delimiter,
                                self._key_dtype, self._filename, self._offset))
            values.append(_column(line, number, self._value_index, self._delimiter,
                                  self._value_dtype, self._filename, self._offset))
        return keys, values

    def initialize(self, table):
        _check_dtypes(table, self._key_dtype, self._value_dtype)
        dispatch(_FROM_TEXT_FILE, (table.resource_handle,
                                   convert_to_tensor(self._filename.encode(), _d.string)),
                 {"key_index": self._key_index, "value_index": self._value_index,
                  "vocab_size": -1 if self._vocab_size is None else self._vocab_size,
                  "delimiter": self._delimiter.decode(), "offset": self._offset})


def _from_text_file(xp, table, filename, key_index, value_index, vocab_size=-1,
                    delimiter="\t", offset=0):
    filename = np.asarray(filename).reshape(()).item()
    init = TextFileInitializer(filename, table.key_dtype, key_index, table.value_dtype,
                               value_index, None if vocab_size < 0 else vocab_size, delimiter,
                               value_index_offset=offset)
    keys, values = init._pairs()
    return _init_more(xp, table, _numpy_array(keys, table.key_dtype),
                      _numpy_array(values, table.value_dtype))


def _numpy_array(items, dtype):
    if dtype == _d.string:
        out = np.empty(len(items), object)
        out[:] = items
        return out
    return np.asarray(items, dtype.as_numpy_dtype)


# (TF's op, which a SavedModel's table initializer runs with its vocabulary asset's path)
_FROM_TEXT_FILE = register("InitializeTableFromTextFileV2", _from_text_file, _no_outputs,
                           multi=True, tied=(), stateful=True, not_differentiable=_NO_GRAD)
tf_nodes[_FROM_TEXT_FILE] = NodeForm(types={})
tf_args[_FROM_TEXT_FILE] = None  # (the table is a Python object, as above)
batching_rules[_FROM_TEXT_FILE] = PER_ELEMENT


def _check_dtypes(table, key_dtype, value_dtype):
    if key_dtype != table.key_dtype or value_dtype != table.value_dtype:
        raise TypeError(f"Signature mismatch. Keys must be dtype {table.key_dtype}, got "
                        f"{key_dtype}. Values must be dtype {table.value_dtype}, got "
                        f"{value_dtype}.")


# -- tables ---------------------------------------------------------------------------------------

def _is_ragged(keys):
    # RaggedTensor lives above ops; its values are looked up as a flat tensor.
    return hasattr(keys, "with_flat_values") and hasattr(keys, "flat_values")


def _checked_keys(keys, key_dtype):
    if isinstance(keys, SparseTensor) or _is_ragged(keys):
        return keys
    keys = as_tensor(keys) if isinstance(keys, Tensor) or hasattr(keys, "_handle") else \
        convert_to_tensor(keys, key_dtype)
    if keys.dtype != key_dtype:
        raise TypeError(f"Dtype of argument `keys` must be {key_dtype}, received: "
                        f"{keys.dtype}")
    return keys


def _dense_only(value, dtype):
    """`value` unless it is sparse or ragged, which the mutable tables' ops do not map over:
    TF's error for converting it (eagerly, or in a graph) to a tensor."""
    if not (isinstance(value, SparseTensor) or _is_ragged(value)):
        return value
    kind = type(value).__name__
    if not context.executing_eagerly():
        raise TypeError(f"Expected {dtype.name}, but got {value} of type '{kind}'.")
    if isinstance(value, SparseTensor):
        raise ValueError(f"Attempt to convert a value ({value}) with an unsupported type "
                         f"({type(value)}) to a Tensor.")
    raise ValueError(f"TypeError: object of type '{kind}' has no len()\n")


def _converted_keys(keys, key_dtype):
    """`keys` as a tensor of `key_dtype`, as a mutable table's `lookup` and `insert` take them:
    a tensor of another dtype (or a sparse or ragged value) fails as TF's conversion of
    argument ``keys`` does."""
    keys = _dense_only(keys, key_dtype)
    if isinstance(keys, Tensor) and keys.dtype != key_dtype:
        raise ValueError(f"keys: Tensor conversion requested dtype {key_dtype.name} for Tensor "
                         f"with dtype {keys.dtype.name}: {keys!r}")
    return as_tensor(convert_to_tensor(keys, key_dtype))


class _Table(TrackableResource):
    """What every table has: its resource tensor (made at once), dtypes, `size`, `lookup`
    and `export`."""

    def __init__(self, key_dtype, value_dtype, name=None):
        super().__init__()
        self._key_dtype = _d.as_dtype(key_dtype)
        self._value_dtype = _d.as_dtype(value_dtype)
        graph = _v1_graph()
        self._value = TableValue(self._key_dtype, self._value_dtype) if graph is None else \
            graph.session_table(self._key_dtype, self._value_dtype)
        self._resource_handle = EagerTensor._wrap(self._value)
        self._name = name

    key_dtype = property(lambda self: self._key_dtype)
    value_dtype = property(lambda self: self._value_dtype)
    name = property(lambda self: self._name)
    resource_handle = property(lambda self: self._resource_handle)

    def size(self, name=None):
        """The number of entries (int64 scalar)."""
        return dispatch(_SIZE, (self._resource_handle,), name=name)

    def _find(self, keys, default_value, name):
        keys = _checked_keys(keys, self._key_dtype)
        if isinstance(keys, SparseTensor):
            return SparseTensor(keys.indices, self._find(keys.values, default_value, name),
                                keys.dense_shape)
        if _is_ragged(keys):
            return keys.with_flat_values(self._find(keys.flat_values, default_value, name))
        return dispatch(_FIND, (self._resource_handle, keys, default_value), name=name)

    def lookup(self, keys, name=None):
        """The values of `keys` (a tensor or `SparseTensor`), `default_value` where absent."""
        return self._find(keys, self._default_value, name)

    def __getitem__(self, keys):
        return self.lookup(keys)

    def export(self, name=None):
        """``(keys, values)``: every entry, as two vectors."""
        return tuple(dispatch(_EXPORT, (self._resource_handle,),
                              {"key_dtype": self._key_dtype, "value_dtype": self._value_dtype},
                              name))


@export("lookup.StaticHashTable")
class StaticHashTable(_Table):
    """A table filled once by `initializer`, read-only after: keys missing from it look up
    `default_value`.

    >>> table = tf.lookup.StaticHashTable(
    ...     tf.lookup.KeyValueTensorInitializer([1, 2], [10.0, 20.0]), -1.0)
    >>> table.lookup(tf.constant([2, 3])).numpy()
    array([20., -1.], dtype=float32)
    """

    def __init__(self, initializer, default_value, name=None, experimental_is_anonymous=False):
        super().__init__(initializer.key_dtype, initializer.value_dtype, name)
        self._initializer = initializer
        self._value.static = True
        with _outside_functions():
            self._default_value = convert_to_tensor(default_value, self._value_dtype)
            _initialize(self, initializer)

    # (in a TF 1 graph, the operation filling the table, as TF's)
    initializer = property(lambda self: getattr(self, "_init_op", self._initializer))
    default_value = property(lambda self: self._default_value)


@export("lookup.StaticVocabularyTable")
class StaticVocabularyTable(_Table):
    """Ids for a vocabulary: keys in `initializer`'s table get its (int64) values; other keys
    one of `num_oov_buckets` ids after them, chosen by hashing the key (its decimal text
    for integer keys) with `strings.to_hash_bucket_fast`.

    >>> table = tf.lookup.StaticVocabularyTable(tf.lookup.KeyValueTensorInitializer(
    ...     ["a", "b"], tf.constant([0, 1], tf.int64)), num_oov_buckets=3)
    >>> table.lookup(tf.constant(["b", "c"])).numpy()
    array([1, 3])
    """

    def __init__(self, initializer, num_oov_buckets, lookup_key_dtype=None, name=None,
                 experimental_is_anonymous=False):
        if num_oov_buckets <= 0:
            raise ValueError("`num_oov_buckets` must be > 0; use StaticHashTable.")
        if initializer is not None and initializer.value_dtype != _d.int64:
            raise TypeError(f"Invalid `value_dtype`, expected {_d.int64} but got "
                            f"{initializer.value_dtype}.")
        key_dtype = initializer.key_dtype if initializer is not None else \
            _d.as_dtype(lookup_key_dtype or _d.string)
        if lookup_key_dtype is not None and _d.as_dtype(lookup_key_dtype) != key_dtype and \
                not (key_dtype == _d.int64 and _d.as_dtype(lookup_key_dtype) == _d.int32):
            raise TypeError(f"Invalid key dtype for table, expected {key_dtype} but got "
                            f"{lookup_key_dtype}.")
        super().__init__(key_dtype, _d.int64, name)
        self._num_oov_buckets = int(num_oov_buckets)
        self._initializer = initializer
        self._lookup_key_dtype = _d.as_dtype(lookup_key_dtype) if lookup_key_dtype else key_dtype
        with _outside_functions():
            self._default_value = convert_to_tensor(-1, _d.int64)
            if initializer is not None:
                _initialize(self, initializer)

    initializer = property(lambda self: getattr(self, "_init_op", self._initializer))

    def size(self, name=None):
        """The vocabulary's size plus `num_oov_buckets`."""
        return math_ops.add(super().size(), np.int64(self._num_oov_buckets), name=name)

    def lookup(self, keys, name=None):
        if isinstance(keys, SparseTensor):
            return SparseTensor(keys.indices, self.lookup(keys.values, name), keys.dense_shape)
        if _is_ragged(keys):
            return keys.with_flat_values(self.lookup(keys.flat_values, name))
        keys = _checked_keys(keys, self._lookup_key_dtype)
        if keys.dtype != self._key_dtype:
            keys = cast_ops.cast(keys, self._key_dtype)
        ids = dispatch(_FIND, (self._resource_handle, keys, self._default_value))
        text = keys if keys.dtype == _d.string else string_ops.as_string(keys)
        buckets = math_ops.add(fingerprint_ops.to_hash_bucket_fast(text, self._num_oov_buckets),
                               super().size())
        return array_ops.where(math_ops.not_equal(ids, np.int64(-1)), ids, buckets, name=name)


def _table_checkpoint(cls):
    """Mutable tables save their entries as TF does: ``table-keys`` and ``table-values``."""
    def serialize(self):
        if not self._checkpoint:
            return {}
        keys, values = self.export()
        return {"table": {"-keys": keys, "-values": values}}

    def restore(self, tensors):
        keys = np.asarray(tensors["table"]["-keys"])
        values = np.asarray(tensors["table"]["-values"])
        dispatch(_IMPORT, (self._resource_handle, convert_to_tensor(keys, self._key_dtype),
                           convert_to_tensor(values, self._value_dtype)))

    cls._serialize_to_tensors = serialize
    cls._restore_from_tensors = restore
    return cls


class _MutableTable(_Table):
    def __init__(self, key_dtype, value_dtype, default_value, name, checkpoint):
        super().__init__(key_dtype, value_dtype, name)
        with _outside_functions():
            self._default_value = convert_to_tensor(default_value, self._value_dtype)
        shape = tuple(self._default_value.shape)
        if len(shape) > 1:
            text = f"Default value must be a vector, got shape {_dims(shape)}"
            raise errors.InvalidArgumentError(None, None, errors.eager_message(
                text, "MutableHashTableOfTensorsV2", name=name) if context.executing_eagerly()
                else text)
        self._value.value_shape = shape  # (a table of vectors: TF's table "of tensors")
        self._checkpoint = checkpoint

    default_value = property(lambda self: self._default_value)

    def lookup(self, keys, dynamic_default_values=None, name=None):
        """The values of `keys`; absent keys give `default_value`, or the matching element
        of `dynamic_default_values` (shaped as `keys`)."""
        keys = _converted_keys(keys, self._key_dtype)
        default = self._default_value if dynamic_default_values is None else \
            convert_to_tensor(_dense_only(dynamic_default_values, self._value_dtype),
                              self._value_dtype)
        return self._find(keys, default, name)

    def insert(self, keys, values, name=None):
        """Sets the value of each of `keys` (replacing what it had)."""
        keys = _converted_keys(keys, self._key_dtype)
        try:
            values = convert_to_tensor(values, self._value_dtype)
        except ValueError as e:  # (a tensor of another dtype; a list's TypeError stays)
            raise ValueError(f"values: {e}") from None
        dispatch(_INSERT, (self._resource_handle, keys, values), name=name)
        return _v1_op()

    def remove(self, keys, name=None):
        """Removes `keys` (those absent are ignored)."""
        keys = _checked_keys(_dense_only(keys, self._key_dtype), self._key_dtype)
        dispatch(_REMOVE, (self._resource_handle, keys), name=name)
        return _v1_op()

    def import_(self, keys, values, name=None):
        """Replaces every entry by the pairs of `keys` and `values`."""
        dispatch(_IMPORT, (self._resource_handle,
                                  convert_to_tensor(keys, self._key_dtype),
                                  convert_to_tensor(values, self._value_dtype)), name=name)
        return _v1_op()


@export("lookup.experimental.MutableHashTable")
@_table_checkpoint
class MutableHashTable(_MutableTable):
    """A table that takes `insert` and `remove`; absent keys look up `default_value`.

    >>> table = tf.lookup.experimental.MutableHashTable(tf.string, tf.int64, -1)
    >>> table.insert(["a"], [7])
    >>> table.lookup(tf.constant(["a", "b"])).numpy()
    array([ 7, -1])
    """

    def __init__(self, key_dtype, value_dtype, default_value, name="MutableHashTable",
                 checkpoint=True, experimental_is_anonymous=False):
        super().__init__(key_dtype, value_dtype, default_value, name, checkpoint)


@export("lookup.experimental.DenseHashTable")
@_table_checkpoint
class DenseHashTable(_MutableTable):
    """A mutable table whose keys exclude two reserved ones: `empty_key` and `deleted_key`
    (inserting or removing them fails, as in TF)."""

    def __init__(self, key_dtype, value_dtype, default_value, empty_key, deleted_key,
                 initial_num_buckets=None, name="MutableDenseHashTable", checkpoint=True,
                 experimental_is_anonymous=False):
        super().__init__(key_dtype, value_dtype, default_value, name, checkpoint)
        with _outside_functions():
            empty = convert_to_tensor(empty_key, self._key_dtype)
            deleted = convert_to_tensor(deleted_key, self._key_dtype)
        self._empty_key, self._deleted_key = empty.numpy(), deleted.numpy()
        buckets = int(initial_num_buckets or DEFAULT_NUM_BUCKETS)
        if buckets < 4 or buckets & (buckets - 1):  # (TF's table doubles its buckets)
            raise errors.eager_error(
                errors.InvalidArgumentError, "MutableDenseHashTableV2",
                f"Number of buckets must be at least 4 and a power of 2, got: {buckets}", name)
        if np.array_equal(self._empty_key, self._deleted_key):
            raise errors.eager_error(errors.InvalidArgumentError, "MutableDenseHashTableV2",
                                     "Empty and deleted keys cannot be equal", name)
        self._value.reserved = (self._empty_key, self._deleted_key)
        self._num_buckets = buckets

    def remove(self, keys, name=None):
        if isinstance(keys, Tensor) and keys.dtype != self._key_dtype:
            raise TypeError(f"Signature mismatch. Keys must be dtype {self._key_dtype}, got "
                            f"{keys.dtype}.")
        return super().remove(_converted_keys(keys, self._key_dtype), name)

    erase = remove

    def export(self, name=None):
        """``(keys, values)`` as TF's bucket arrays ``[num_buckets, 1]``: each key at the
        bucket TF's hashing gives it, `empty_key` (and 0) in the free ones."""
        empty = self._empty_key
        empty = empty.item() if isinstance(empty, np.generic) else empty
        return tuple(dispatch(_EXPORT, (self._resource_handle,), {
            "key_dtype": self._key_dtype, "value_dtype": self._value_dtype,
            "buckets": self._num_buckets, "empty_key": empty}, name))
