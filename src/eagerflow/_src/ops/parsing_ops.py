"""Parsing ``tf.train.Example`` protos into tensors (`io.parse_example`, op ``ParseExampleV2``).

A feature spec maps each feature name to `FixedLenFeature` (a dense tensor of
a fixed shape, with an optional default), `FixedLenSequenceFeature` (a dense
tensor whose first dim is the number of values, padded across a batch) or
`VarLenFeature` (a `SparseTensor`). The op runs eagerly, inside `function`
and in `data.Dataset.map`; the protobuf runtime loads when it first runs.

>>> ex = tf.train.Example(features=tf.train.Features(feature={
...     "x": tf.train.Feature(float_list=tf.train.FloatList(value=[1.0, 2.0]))}))
>>> tf.io.parse_single_example(ex.SerializeToString(),
...                            {"x": tf.io.FixedLenFeature([2], tf.float32)})["x"]
<tf.Tensor: shape=(2,), dtype=float32, numpy=array([1., 2.], dtype=float32)>
"""
import collections
import json

import numpy as np

from eagerflow._src.backend.api_export import export
from eagerflow._src.backend.wire import field as _proto_field, varint as _varint
from eagerflow._src.core import context
from eagerflow._src.core import dtypes as _d
from eagerflow._src.core import errors
from eagerflow._src.core.convert import convert_input, convert_to_tensor
from eagerflow._src.core.dispatch import dispatch
from eagerflow._src.core.node_forms import NodeForm, tf_nodes
from eagerflow._src.core.node_forms import tf_args
from eagerflow._src.core.node_forms import input_dtypes, tf_defaults
from eagerflow._src.core.registry import PER_ELEMENT, batching_rules, kernel_type_name, register
from eagerflow._src.core.tensor_shape import TensorShape
from eagerflow._src.ops import array_ops, cast_ops, debugging_ops, math_ops, reduction_ops
from eagerflow._src.ops import float_math
from eagerflow._src.ops.sparse_tensor import SparseTensor

_NO_GRAD = "parsing op"
_ALLOWED = (_d.float32, _d.int64, _d.string)
_KIND = {_d.float32: "float_list", _d.int64: "int64_list", _d.string: "bytes_list"}
_KIND_TYPE = {"float_list": "float", "int64_list": "int64", "bytes_list": "string"}
_VALUE_NAME = {_d.float32: "float", _d.int64: "int64", _d.string: "bytes"}


@export("io.FixedLenFeature", "compat.v1.io.FixedLenFeature", "compat.v1.FixedLenFeature")
class FixedLenFeature(collections.namedtuple("FixedLenFeature",
                                             ["shape", "dtype", "default_value"])):
    """A dense feature of fixed `shape`; `default_value` where an example lacks it (None:
    the feature is required)."""

    __slots__ = ()

    def __new__(cls, shape, dtype, default_value=None):
        return super().__new__(cls, shape, dtype, default_value)


@export("io.FixedLenSequenceFeature", "compat.v1.io.FixedLenSequenceFeature",
        "compat.v1.FixedLenSequenceFeature")
class FixedLenSequenceFeature(collections.namedtuple(
        "FixedLenSequenceFeature", ["shape", "dtype", "allow_missing", "default_value"])):
    """A dense feature of any number of elements of `shape`: its tensor's first dim counts
    them; in a batch shorter ones are padded with `default_value` (0 or "")."""

    __slots__ = ()

    def __new__(cls, shape, dtype, allow_missing=False, default_value=None):
        return super().__new__(cls, shape, dtype, allow_missing, default_value)


@export("io.SparseFeature", "compat.v1.io.SparseFeature", "compat.v1.SparseFeature")
class SparseFeature(collections.namedtuple(
        "SparseFeature", ["index_key", "value_key", "dtype", "size", "already_sorted"])):
    """A `SparseTensor` of dense shape `size` from an example's index feature(s) (int64,
    one key per dim) and value feature: value ``i`` sits at the ``i``-th index.
    Indices are sorted unless `already_sorted`."""

    __slots__ = ()

    def __new__(cls, index_key, value_key, dtype, size, already_sorted=False):
        return super().__new__(cls, index_key, value_key, dtype, size, already_sorted)


@export("io.VarLenFeature", "compat.v1.io.VarLenFeature", "compat.v1.VarLenFeature")
class VarLenFeature(collections.namedtuple("VarLenFeature", ["dtype"])):
    """A feature of any number of values, parsed into a `SparseTensor`."""

    __slots__ = ()


# -- ParseExampleV2 -------------------------------------------------------------------------------

def _invalid(message):
    return errors.InvalidArgumentError(None, None, message)


def _text(value):
    return value.decode("utf-8", "backslashreplace")


def _values(feature, kind, dtype):
    values = getattr(feature, kind).value
    if dtype == _d.string:
        out = np.empty(len(values), object)
        out[:] = list(values)
        return out
    return np.array(values, dtype.as_numpy_dtype)


def _default_fill(dtype):
    return b"" if dtype == _d.string else np.zeros((), dtype.as_numpy_dtype)


def _parse_example_v2(xp, serialized, names, sparse_keys, dense_keys, ragged_keys,
                      *dense_defaults, Tdense, num_sparse, sparse_types, ragged_value_types,
                      ragged_split_types, dense_shapes):
    from eagerflow._src.core.protos.example import Example  # noqa: PLC0415 (protobuf)
    _check_parse_example_v2_args(serialized, names, sparse_keys, dense_keys, ragged_keys,
                                 dense_defaults, Tdense, num_sparse, sparse_types,
                                 ragged_value_types, ragged_split_types, dense_shapes)
    if serialized.ndim > 1:
        raise _invalid(f"Expected serialized to be a scalar or vector, got shape: "
                       f"{errors.shape_text(serialized.shape)}")
    single = serialized.ndim == 0
    flat = serialized.reshape(-1)
    names = names.reshape(-1)
    maps = []
    for s in flat:
        try:
            maps.append(Example.FromString(s).features.feature)
        except Exception:  # protobuf's DecodeError: not an Example
            raise _invalid(f"Could not parse example input, value: '{_text(s)}'") from None

    def name(i):
        return _text(names[i]) if i < names.size and names[i] else "<unknown>"

    def where(i, key):
        return f"Key: {key}.  " if single else f"Name: {name(i)}, Key: {key}, Index: {i}.  "

    def lookup(i, key, dtype):
        """The values of feature `key` of example `i`, or None where it has none."""
        fmap = maps[i]
        if key not in fmap:
            return None
        feature = fmap[key]
        kind = feature.WhichOneof("kind")
        if kind is None:
            return None
        if kind != _KIND[dtype]:
            return kind
        return _values(feature, kind, dtype)

    def type_error(i, key, kind, dtype, sparse):
        got, want = _KIND_TYPE[kind], _d.as_dtype(dtype).name
        want = "float" if want == "float32" else want
        if sparse:
            return _invalid(f"{where(i, key)}Data types don't match. Expected type: {want}, "
                            f"Actual type: {got}")
        return _invalid(f"{where(i, key)}Data types don't match. Data type: {got} but "
                        f"expected type: {want}")

    def var_len(key, dtype):
        """Each example's values of feature `key`, all of them in one array, and the number
        of each example's."""
        per = []
        for i in range(len(maps)):
            got = lookup(i, key, dtype)
            if isinstance(got, str):
                raise type_error(i, key, got, dtype, True)
            per.append(np.empty(0, dtype.as_numpy_dtype) if got is None else got)
        sizes = [len(p) for p in per]
        values = np.concatenate(per) if per else np.empty(0, dtype.as_numpy_dtype)
        if dtype == _d.string:
            values = values.astype(object)
        return values, sizes

    sparse_out = ([], [], [])
    for key, dtype in zip(sparse_keys.reshape(-1), sparse_types):
        values, sizes = var_len(_text(key), dtype)
        positions = np.concatenate([np.arange(n, dtype=np.int64) for n in sizes]) \
            if sizes else np.empty(0, np.int64)
        longest = max(sizes, default=0)
        if single:
            indices, shape = positions.reshape(-1, 1), np.array([longest], np.int64)
        else:
            rows = np.repeat(np.arange(len(sizes), dtype=np.int64), sizes)
            indices = np.stack([rows, positions], axis=1)
            shape = np.array([len(sizes), longest], np.int64)
        sparse_out[0].append(indices)
        sparse_out[1].append(values)
        sparse_out[2].append(shape)

    dense_out = []
    for key, dtype, shape, default in zip(dense_keys.reshape(-1), Tdense, dense_shapes,
                                          dense_defaults):
        key = _text(key)
        np_type = object if dtype == _d.string else dtype.as_numpy_dtype
        vname = _VALUE_NAME[dtype]
        shape = tuple(TensorShape(shape).as_list())
        if shape and shape[0] is None:  # a sequence feature: padded to the longest
            inner = tuple(shape[1:])
            stride = int(np.prod(inner, dtype=np.int64))
            per = []
            for i in range(len(maps)):
                got = lookup(i, key, dtype)
                if isinstance(got, str):
                    raise type_error(i, key, got, dtype, False)
                got = np.empty(0, np_type) if got is None else got
                if stride and got.size % stride:
                    if single:
                        raise _invalid(f"Error while parsing feature with key {key}: number "
                                       f"of elements should be divisible by {stride}, found "
                                       f"{got.size} instead")
                    raise _invalid(
                        f"{where(i, key)}Number of {vname} values is not a multiple of stride "
                        f"length. Saw {got.size} values but output shape is: "
                        f"{errors.shape_text((-1,) + inner).replace('-1', '?')}")
                per.append(got.reshape((-1,) + inner) if stride else
                           np.empty((0,) + inner, np_type))
            longest = max((len(p) for p in per), default=0)
            fill = default.reshape(-1)[0] if default.size else _default_fill(dtype)
            out = np.empty((len(per), longest) + inner, np_type)
            out[...] = fill
            for i, p in enumerate(per):
                out[i, :len(p)] = p
            dense_out.append(out.reshape(out.shape[1:]) if single else out)
            continue
        size = int(np.prod(shape, dtype=np.int64))
        kind, fill = _KIND[dtype], default.reshape(-1).tolist()
        values = []  # every example's values in one list: one conversion at the end
        for i, fmap in enumerate(maps):
            feature = fmap[key] if key in fmap else None
            which = None if feature is None else feature.WhichOneof("kind")
            if which is None:
                if not fill:
                    prefix = "" if single else f"Name: {name(i)}, "
                    typename = "float" if dtype == _d.float32 else dtype.name
                    raise _invalid(f"{prefix}Feature: {key} (data type: {typename}) is "
                                   f"required but could not be found.")
                values += fill
                continue
            if which != kind:
                raise type_error(i, key, which, dtype, False)
            got = getattr(feature, kind).value
            if len(got) != size:
                # (TF's bytes parser fails on a value past the end: too many is a parse error)
                overflow = dtype == _d.string and len(got) > size
                if single:
                    detail = ("Parsing bytes_list failed." if overflow else
                              f"Some {kind} slice was not parsed.")
                    raise _invalid(f"{where(i, key)}Can't parse serialized Example: {detail}")
                if overflow:
                    raise _invalid(f"{where(i, key)}Can't parse serialized Example.")
                raise _invalid(f"{where(i, key)}Number of {vname} values != expected.  Values "
                               f"size: {len(got)} but output shape: "
                               f"{errors.shape_text(shape)}")
            values += got
        if np_type is object:
            out = np.empty(len(values), object)
            out[:] = values
        else:
            out = np.array(values, np_type)
        out = out.reshape((len(maps),) + tuple(shape))
        dense_out.append(out.reshape(out.shape[1:]) if single else out)
    ragged_out = ([], [])
    for key, dtype, split_type in zip(ragged_keys.reshape(-1), ragged_value_types,
                                      ragged_split_types):
        values, sizes = var_len(_text(key), dtype)
        # one example's values are a plain vector: it has no row splits
        splits = np.zeros(0 if single else len(sizes) + 1, split_type.as_numpy_dtype)
        np.cumsum(sizes, out=splits[1:])
        ragged_out[0].append(values)
        ragged_out[1].append(splits)
    return tuple(sparse_out[0] + sparse_out[1] + sparse_out[2] + dense_out + ragged_out[0]
                 + ragged_out[1])


def _check_parse_example_v2_args(serialized, names, sparse_keys, dense_keys, ragged_keys,
                                 dense_defaults, Tdense, num_sparse, sparse_types,
                                 ragged_value_types, ragged_split_types, dense_shapes):
    """TF's errors for a ParseExampleV2 whose keys, types, shapes and defaults disagree (the
    kernel would read one list by another's length)."""
    if num_sparse != len(sparse_types):
        raise _invalid("len(sparse_keys) != len(sparse_types)")
    if len(dense_shapes) != len(Tdense):
        raise _invalid("len(dense_keys) != len(dense_shapes)")
    if len(ragged_split_types) != len(ragged_value_types):
        raise _invalid("len(ragged_keys) != len(ragged_split_types)")
    for what, keys, count, expected in (
            ("sparse_keys", sparse_keys, "num_sparse", num_sparse),
            ("dense_keys", dense_keys, "len(dense_types)", len(Tdense)),
            ("ragged_keys", ragged_keys, "len(ragged_value_types)", len(ragged_value_types))):
        if keys.size != expected:
            raise _invalid(f"Expected len({what}) == {count} but got: {keys.size} vs. "
                           f"{expected}")
    if names.size and names.shape != serialized.shape:
        raise _invalid(f"Expected names have the same shape as serialized: name.shape="
                       f"{errors.shape_text(names.shape)}, serialized.shape="
                       f"{errors.shape_text(serialized.shape)}")
    for i, (shape, default) in enumerate(zip(dense_shapes, dense_defaults)):
        shape = TensorShape(shape)
        if (not default.size and default.ndim == 1) or shape.rank is None:
            continue  # (an empty default: the feature is required)
        if shape.rank and shape[0] is None:  # a sequence feature: the default pads it
            if default.size != 1:
                raise _invalid(
                    f"dense_shape[{i}] is a variable length shape: "
                    f"{errors.shape_text(shape.as_list())}, therefore def_value[{i}] "
                    f"must contain a single element (the padding element).  But its shape "
                    f"is: {errors.shape_text(default.shape)}")
        elif tuple(default.shape) != tuple(shape.as_list()):
            raise _invalid(f"def_value[{i}].shape() == {errors.shape_text(default.shape)} is "
                           f"not compatible with dense_shapes_[{i}] == "
                           f"{errors.shape_text(shape.as_list())}")


def _parse_example_v2_rule(serialized, names, sparse_keys, dense_keys, ragged_keys,
                           *dense_defaults, Tdense, num_sparse, sparse_types,
                           ragged_value_types, ragged_split_types, dense_shapes):
    batch = serialized.shape
    if batch.rank is not None and batch.rank > 1:
        raise ValueError(f"Shape must be at most rank 1 but is rank {batch.rank} for "
                         f"'{{{{node ParseExampleV2}}}} = ParseExampleV2'")
    rank = None if batch.rank is None else batch.rank + 1
    sparse = ([(TensorShape([None, rank]), _d.int64)] * num_sparse
              + [(TensorShape([None]), t) for t in sparse_types]
              + [(TensorShape([rank]), _d.int64)] * num_sparse)
    dense = [(batch.concatenate(TensorShape(list(shape))) if batch.rank is not None
              else TensorShape(None), t) for t, shape in zip(Tdense, dense_shapes)]
    ragged = ([(TensorShape([None]), t) for t in ragged_value_types]
              + [(TensorShape([None]), t) for t in ragged_split_types])
    return sparse + dense + ragged


_PARSE_EXAMPLE_V2 = register("ParseExampleV2", _parse_example_v2, _parse_example_v2_rule,
                             multi=True, tied=(), not_differentiable=_NO_GRAD)
batching_rules[_PARSE_EXAMPLE_V2] = PER_ELEMENT
tf_nodes[_PARSE_EXAMPLE_V2] = NodeForm(types={})
tf_args[_PARSE_EXAMPLE_V2] = ("serialized", "names", "sparse_keys", "dense_keys", "ragged_keys",
                              "*dense_defaults")
tf_defaults[_PARSE_EXAMPLE_V2] = {"Tdense": input_dtypes(5)}


# -- ParseExample, ParseSingleExample (TF 1's ops, as graphs written then hold them) --------------

def _keys(keys):
    """Feature keys (str or bytes, as TF takes either) as a vector for a string tensor."""
    out = np.empty(len(keys), object)
    out[:] = [k.encode() if isinstance(k, str) else bytes(k) for k in keys]
    return out


def _parse_example(xp, serialized, names, *lists, sparse_types, Tdense, dense_shapes):
    # the sparse keys, dense keys and dense defaults are given one list after the other,
    # each key a scalar: as many sparse keys as types, dense keys as shapes
    n_sparse, n_dense = len(sparse_types), len(dense_shapes)
    if len(lists) != n_sparse + 2 * n_dense:
        raise _invalid(f"Expected len(sparse_types) == {n_sparse} sparse keys and "
                       f"len(dense_shapes) == {n_dense} dense keys and defaults, but got "
                       f"{len(lists)} keys and defaults in all")
    if serialized.ndim != 1:
        raise _invalid(f"Expected serialized to be a vector, got shape: "
                       f"{errors.shape_text(serialized.shape)}")
    sparse_keys = _keys([k.item() for k in lists[:n_sparse]])
    dense_keys = _keys([k.item() for k in lists[n_sparse:n_sparse + n_dense]])
    return _parse_example_v2(
        xp, serialized, names, sparse_keys, dense_keys, _keys([]),
        *lists[n_sparse + n_dense:], Tdense=Tdense, num_sparse=n_sparse,
        sparse_types=sparse_types, ragged_value_types=(), ragged_split_types=(),
        dense_shapes=dense_shapes)


def _parse_example_rule(serialized, names, *lists, sparse_types, Tdense, dense_shapes):
    return _parse_example_v2_rule(serialized, names, None, None, None, Tdense=Tdense,
                                  num_sparse=len(sparse_types), sparse_types=sparse_types,
                                  ragged_value_types=(), ragged_split_types=(),
                                  dense_shapes=dense_shapes)


def _parse_example_counts(attrs, inputs):
    """TF's attrs of a ParseExample node: its counts of sparse and dense keys."""
    return {**attrs, "Nsparse": len(attrs["sparse_types"]),
            "Ndense": len(attrs["dense_shapes"])}


_PARSE_EXAMPLE = register("ParseExample", _parse_example, _parse_example_rule, multi=True,
                          tied=(), not_differentiable=_NO_GRAD)
batching_rules[_PARSE_EXAMPLE] = PER_ELEMENT
tf_nodes[_PARSE_EXAMPLE] = NodeForm(types={}, ignored=("Nsparse", "Ndense"),
                                    rewrite=_parse_example_counts)
tf_args[_PARSE_EXAMPLE] = ("serialized", "names", "*sparse_keys", "*dense_keys",
                           "*dense_defaults")
tf_defaults[_PARSE_EXAMPLE] = {"Tdense": lambda inputs, attrs: tuple(
    t.dtype for t in inputs[2 + len(attrs.get("sparse_types", ()))
                            + len(attrs.get("dense_shapes", ())):])}


def _parse_single_example(xp, serialized, *dense_defaults, num_sparse, sparse_keys,
                          dense_keys, sparse_types, Tdense, dense_shapes):
    if num_sparse != len(sparse_keys) or num_sparse != len(sparse_types):
        raise _invalid(f"num_sparse ({num_sparse}) must match the size of sparse_keys "
                       f"({len(sparse_keys)}) and sparse_types ({len(sparse_types)})")
    if len(dense_keys) != len(Tdense):
        raise _invalid("len(dense_keys) != len(dense_types)")
    if len(dense_keys) != len(dense_shapes):
        raise _invalid("len(dense_keys) != len(dense_shapes)")
    if serialized.ndim != 0:
        raise _invalid(f"Expected serialized to be a scalar, got shape: "
                       f"{errors.shape_text(serialized.shape)}")
    return _parse_example_v2(
        xp, serialized, np.empty(0, object), _keys(sparse_keys), _keys(dense_keys), _keys([]),
        *dense_defaults, Tdense=Tdense, num_sparse=num_sparse, sparse_types=sparse_types,
        ragged_value_types=(), ragged_split_types=(), dense_shapes=dense_shapes)


def _parse_single_example_rule(serialized, *dense_defaults, num_sparse, sparse_keys,
                               dense_keys, sparse_types, Tdense, dense_shapes):
    return _parse_example_v2_rule(serialized, None, None, None, None, Tdense=Tdense,
                                  num_sparse=num_sparse, sparse_types=sparse_types,
                                  ragged_value_types=(), ragged_split_types=(),
                                  dense_shapes=dense_shapes)


_PARSE_SINGLE_EXAMPLE = register("ParseSingleExample", _parse_single_example,
                                 _parse_single_example_rule, multi=True, tied=(),
                                 not_differentiable=_NO_GRAD)
batching_rules[_PARSE_SINGLE_EXAMPLE] = PER_ELEMENT
tf_nodes[_PARSE_SINGLE_EXAMPLE] = NodeForm(types={}, byte_attrs=("sparse_keys", "dense_keys"))
tf_args[_PARSE_SINGLE_EXAMPLE] = ("serialized", "*dense_defaults")
tf_defaults[_PARSE_SINGLE_EXAMPLE] = {"Tdense": input_dtypes(1)}

_SIGNATURE = (
    "Op<name=ParseExampleV2; signature=serialized:string, names:string, sparse_keys:string, "
    "dense_keys:string, ragged_keys:string, dense_defaults: -> sparse_indices:num_sparse*int64, "
    "sparse_values:, sparse_shapes:num_sparse*int64, dense_values:, ragged_values:, "
    "ragged_row_splits:; attr=Tdense:list(type),min=0,allowed=[DT_FLOAT, DT_INT64, DT_STRING]; "
    "attr=num_sparse:int,min=0; attr=sparse_types:list(type),min=0,allowed=[DT_FLOAT, DT_INT64, "
    "DT_STRING]; attr=ragged_value_types:list(type),min=0,allowed=[DT_FLOAT, DT_INT64, "
    "DT_STRING]; attr=ragged_split_types:list(type),min=0,allowed=[DT_INT32, DT_INT64]; "
    "attr=dense_shapes:list(shape),min=0>")


def _check_type(attr, dtype):
    if dtype not in _ALLOWED:
        raise errors.InvalidArgumentError(
            None, "ParseExampleV2",
            f"Value for attr '{attr}' of {kernel_type_name(dtype)} is not in the list of "
            f"allowed values: "
            f"float, int64, string\n\t; NodeDef: {{{{node ParseExampleV2}}}}; {_SIGNATURE} "
            f"[Op:ParseExampleV2]")


def _check_shape_given(key, feature):
    # A fixed-length feature's shape says how to lay out its values: TF refuses a
    # spec without one before parsing anything.
    if feature.shape is None:
        raise ValueError(f"Missing shape for feature {key}. Received feature={feature}.")


def _split_features(features):
    """(sparse [(key, dtype)], dense [(key, dtype, shape, default array)]) of a feature
    spec, in sorted key order, with TF's checks of the spec."""
    if not features:
        raise ValueError(f"Argument `features` cannot be None or falsy. Got {features}")
    sparse, dense = [], []
    for key in sorted(features):
        feature = features[key]
        if isinstance(feature, VarLenFeature):
            dtype = _d.as_dtype(feature.dtype)
            _check_type("sparse_types", dtype)
            sparse.append((key, dtype))
        elif isinstance(feature, (FixedLenFeature, FixedLenSequenceFeature)):
            dtype = _d.as_dtype(feature.dtype)
            _check_type("Tdense", dtype)
            _check_shape_given(key, feature)
            shape = TensorShape(feature.shape).as_list()
            if isinstance(feature, FixedLenSequenceFeature):
                if not feature.allow_missing:
                    raise ValueError("Unsupported: FixedLenSequenceFeature requires "
                                     "allow_missing to be True.")
                if None in shape:
                    raise ValueError(f"All dimensions of shape for feature {key} need to be "
                                     f"known but received {shape}.")
                if feature.default_value is None:
                    default = np.asarray(_default_fill(dtype),
                                         object if dtype == _d.string else dtype.as_numpy_dtype)
                else:  # the one value that pads: a scalar, as TF reshapes it
                    default = array_ops.reshape(convert_to_tensor(feature.default_value, dtype),
                                                [])
                dense.append((key, dtype, (None,) + tuple(shape), default))
                continue
            if None in shape:
                raise ValueError(f"First dimension of shape for feature {key} unknown. "
                                 f"Consider using FixedLenSequenceFeature. Received "
                                 f"feature={feature}.")
            if feature.default_value is None:
                default = np.empty(0, object if dtype == _d.string else dtype.as_numpy_dtype)
            else:
                default = array_ops.reshape(convert_to_tensor(feature.default_value, dtype),
                                            shape)
            dense.append((key, dtype, tuple(shape), default))
        else:
            raise ValueError(f"Unsupported {type(feature).__name__} {feature} for key "
                             f"'{key}'")
    return sparse, dense


def _expand_sparse_features(features):
    """`features` with each `SparseFeature` replaced by `VarLenFeature`s of its index and
    value keys, and the SparseFeatures by key (TF's check: one key, one definition)."""
    plain = {k: f for k, f in (features or {}).items() if not isinstance(f, SparseFeature)}
    composite = {k: f for k, f in (features or {}).items() if isinstance(f, SparseFeature)}
    for key, feature in composite.items():
        index_keys = ([feature.index_key] if isinstance(feature.index_key, str)
                      else list(feature.index_key))
        for k, dtype in [(i, _d.int64) for i in index_keys] + [(feature.value_key,
                                                                 feature.dtype)]:
            wanted = VarLenFeature(_d.as_dtype(dtype))
            if plain.get(k, wanted) != wanted:
                raise ValueError(f"Conflicting type {plain[k]} vs {wanted} for feature {k}.")
            plain[k] = wanted
    return plain, composite


def _sparse_feature(parsed, feature, single):
    """The `SparseTensor` of a `SparseFeature` from the parsed index and value features."""
    index_keys = ([feature.index_key] if isinstance(feature.index_key, str)
                  else list(feature.index_key))
    sizes = [feature.size] if isinstance(feature.size, int) else list(feature.size)
    values = parsed[feature.value_key]
    ids = [parsed[k].values for k in index_keys]
    columns = ids if single else [parsed[index_keys[0]].indices[:, 0]] + ids
    indices = array_ops.stack(columns, axis=1)
    batch = [] if single else [values.dense_shape[:1]]
    dense_shape = array_ops.concat(batch + [convert_to_tensor(sizes, _d.int64)], 0)
    result = SparseTensor(indices, values.values, dense_shape)
    if feature.already_sorted:
        return result
    # row-major order: sort by the position's linear index (stable: repeats keep their order)
    linear = columns[0]
    for column, size in zip(columns[1:], sizes[len(sizes) - len(columns) + 1:]):
        linear = math_ops.add(math_ops.multiply(linear, np.int64(size)), column)
    order = reduction_ops.argsort(linear, stable=True)
    return SparseTensor(array_ops.gather(indices, order), array_ops.gather(values.values, order),
                        dense_shape)


def _ragged_features(features):
    """`features` with each feature that parses as `VarLenFeature`s and is then made into
    another value (``tf.io.RaggedFeature``: ``_var_len_features(key)`` gives them by key,
    ``_from_parsed(parsed, key, single)`` the value) replaced by those, and those features
    by key."""
    plain, made = {}, {}
    for key, feature in (features or {}).items():
        var_len = getattr(feature, "_var_len_features", None)
        if var_len is None:
            plain[key] = feature
        else:
            made[key] = feature
            plain.update(var_len(key))
    return plain, made


def _check_keys(features):
    """TF's checks of the keys a feature spec parses: one dtype a key, and no key parsed
    both as dense and sparse, dense and ragged, or ragged and sparse (a `SparseFeature`'s
    index and value keys are sparse, a `RaggedFeature`'s value and partition keys ragged).
    Returns the sparse, dense and ragged keys, each kind in sorted feature order."""
    dense, sparse, ragged = [], {}, {}
    for key in features or {}:
        if not isinstance(key, (str, bytes)):  # (a key names a feature of the protos)
            raise TypeError(f"expected string or bytes-like object, got "
                            f"'{type(key).__name__}'")

    def add(table, key, kinds):
        if key not in table:
            table[key] = kinds
            return
        for was, now, what in zip(table[key], kinds, ("type", "partition type")):
            if was != now:
                raise ValueError(f"Conflicting {what} {was} vs {now} for feature {key}.")

    for key in sorted(features or {}):
        feature = features[key]
        if isinstance(feature, VarLenFeature):
            add(sparse, key, (_d.as_dtype(feature.dtype),))
        elif isinstance(feature, SparseFeature):
            index = feature.index_key
            for k in sorted([index] if isinstance(index, str) else index):
                add(sparse, k, (_d.int64,))
            add(sparse, feature.value_key, (_d.as_dtype(feature.dtype),))
        elif isinstance(feature, (FixedLenFeature, FixedLenSequenceFeature)):
            dense.append(key)
        elif hasattr(feature, "_var_len_features"):  # (RaggedFeature)
            kinds = (feature.dtype, feature.row_splits_dtype)
            add(ragged, feature.value_key or key, kinds)
            for p in feature.partitions:
                if getattr(p, "key", None) is not None:
                    add(ragged, p.key, (_d.int64, feature.row_splits_dtype))
    sparse, ragged = list(sparse), list(ragged)
    if set(dense) & set(sparse):
        raise ValueError(f"Dense and sparse keys must not intersect; dense_keys: {dense}, "
                         f"sparse_keys: {sparse}, intersection: {set(dense) & set(sparse)}")
    if set(dense) & set(ragged):  # (TF's message is the tuple of its two parts)
        raise ValueError("Dense and ragged keys must not intersect; dense_keys: ",
                         f"{dense}, ragged_keys: {ragged}, intersection: "
                         f"{set(dense) & set(ragged)}")
    if set(ragged) & set(sparse):
        raise ValueError(f"Ragged and sparse keys must not intersect; ragged_keys: {ragged}, "
                         f"sparse_keys: {sparse}, intersection: {set(ragged) & set(sparse)}")
    return sparse, dense, ragged


def _parse(serialized, features, names, name):
    if not features:  # (here, where the spec is still as the caller gave it)
        raise ValueError(f"Argument `features` cannot be None or falsy. Got {features}")
    keys = _check_keys(features)
    plain, ragged = _ragged_features(features)
    serialized = convert_to_tensor(serialized, _d.string)
    batch = serialized.shape
    if ragged and batch.rank is None:
        raise ValueError("serialized must have statically-known rank to parse ragged "
                         "features.")
    result = _parse_plain(serialized, plain, names, name)
    if ragged:
        single = batch.rank == 0
        nrows = batch[0] if batch.rank == 1 else None
        # (made apart: a key may be one feature's and another's value or partition key)
        made = {key: ragged[key]._from_parsed(result, key, single, nrows)
                for key in sorted(ragged)}
        result.update(made)
    # TF's result dict: its op's outputs by the keys parsed (sparse, dense, ragged), then the
    # `SparseFeature`s and `RaggedFeature`s not named by one of those
    order = [k for k in dict.fromkeys(sum(keys, [])) if k in features]
    return {key: result[key] for key in order + [k for k in sorted(features) if k not in order]}


def _parse_plain(serialized, features, names, name):
    requested = features
    features, composite = _expand_sparse_features(features)
    sparse, dense = _split_features(features)
    serialized = convert_to_tensor(serialized, _d.string)
    names = convert_to_tensor([] if names is None else names, _d.string)

    def keys(entries):
        return convert_to_tensor(_keys([k for k, *_ in entries]), _d.string)

    inputs = [serialized, names, keys(sparse), keys(dense),
              convert_to_tensor(np.empty(0, object), _d.string)]
    inputs += [convert_to_tensor(d, t) for _, t, _, d in dense]
    attrs = {"Tdense": tuple(t for _, t, _, _ in dense), "num_sparse": len(sparse),
             "sparse_types": tuple(t for _, t in sparse), "ragged_value_types": (),
             "ragged_split_types": (),
             "dense_shapes": tuple(TensorShape(list(s)) for _, _, s, _ in dense)}
    try:
        outs = dispatch(_PARSE_EXAMPLE_V2, inputs, attrs, name)
    except errors.OpError as e:
        raise errors.without_name(e) from None  # TF passes the keys as lists: its slow path
    n = len(sparse)
    result = {}
    for j, (key, _) in enumerate(sparse):
        result[key] = SparseTensor(outs[j], outs[n + j], outs[2 * n + j])
    for j, (key, *_) in enumerate(dense):
        result[key] = outs[3 * n + j]
    if composite:  # (after the others, as TF orders them)
        single = serialized.shape.rank == 0
        made = {k: _sparse_feature(result, f, single) for k, f in composite.items()}
        result = {k: v for k, v in result.items() if k in requested}
        result.update(made)
    return result


@export("io.parse_example")
def parse_example(serialized, features, example_names=None, name=None):
    """Parses a batch (vector) of serialized `Example` protos into a dict of tensors.

    Dense features get a leading batch dim; a `VarLenFeature` gives a `SparseTensor`
    of dense shape ``[batch, longest]``, a `SparseFeature` one of ``[batch, size]``
    from its index and value features. A missing required feature, values of the
    wrong type or number, or bytes that are no `Example` raise InvalidArgumentError.

    >>> ex = tf.train.Example(features=tf.train.Features(feature={
    ...     "id": tf.train.Feature(int64_list=tf.train.Int64List(value=[3]))}))
    >>> tf.io.parse_example([ex.SerializeToString()] * 2,
    ...                     {"id": tf.io.FixedLenFeature([], tf.int64)})["id"].numpy()
    array([3, 3])
    """
    return _parse(serialized, features, example_names, name)


@export("io.parse_single_example")
def parse_single_example(serialized, features, example_names=None, name=None):
    """Parses one serialized `Example` (a scalar string) into a dict of tensors."""
    serialized = convert_to_tensor(serialized, _d.string)
    if serialized.shape.rank is None:
        serialized = _checked_scalar(serialized)
    elif serialized.shape.rank != 0:
        raise ValueError("Input serialized must be a scalar")
    return _parse(serialized, features, example_names, name)


def _checked_scalar(serialized):
    """`serialized`, of a rank unknown while tracing, checked to be a scalar when the graph
    runs, and known to be one from here on (so the outputs have their static shapes)."""
    check = debugging_ops.Assert(math_ops.equal(array_ops.rank(serialized), 0),
                                 ["Input serialized must be a scalar"],
                                 name="SerializedIsScalar")
    graph = context.get().graph
    with graph.control_dependencies([check] if check is not None else []):
        result = cast_ops.identity(serialized, name="SerializedDependencies")
    result.set_shape([])
    return result


# -- ParseSequenceExampleV2 -----------------------------------------------------------------------

def _type_name(dtype):
    return "float" if dtype == _d.float32 else dtype.name


def _sparse_output(per, dtype):
    """(indices, values, longest) of a sparse output from each example's list of value
    arrays (one per position: a feature list's steps, or one for a context feature)."""
    np_type = object if dtype == _d.string else dtype.as_numpy_dtype
    indices, values, longest = [], [], [0] * 2
    for b, steps in enumerate(per):
        longest[0] = max(longest[0], len(steps))
        for t, v in enumerate(steps):
            longest[1] = max(longest[1], len(v))
            for k in range(len(v)):
                indices.append((b, t, k))
            values.append(v)
    values = np.concatenate(values).astype(np_type) if values else np.empty(0, np_type)
    return indices, values, longest


def _parse_sequence_example_v2(
        xp, serialized, debug_name, context_sparse_keys, context_dense_keys,
        context_ragged_keys, feature_list_sparse_keys, feature_list_dense_keys,
        feature_list_ragged_keys, feature_list_dense_missing_assumed_empty,
        *context_dense_defaults, Ncontext_sparse, Tcontext_dense, context_sparse_types,
        context_ragged_value_types, context_ragged_split_types, context_dense_shapes,
        Nfeature_list_sparse, Nfeature_list_dense, feature_list_dense_types,
        feature_list_sparse_types, feature_list_ragged_value_types,
        feature_list_ragged_split_types, feature_list_dense_shapes):
    from eagerflow._src.core.protos.example import SequenceExample  # noqa: PLC0415
    _check_parse_sequence_example_v2_args(
        serialized, debug_name, context_sparse_keys, context_dense_keys, context_ragged_keys,
        feature_list_sparse_keys, feature_list_dense_keys, feature_list_ragged_keys,
        feature_list_dense_missing_assumed_empty, context_dense_defaults, Ncontext_sparse,
        Tcontext_dense, context_sparse_types, context_ragged_value_types,
        context_ragged_split_types, context_dense_shapes, Nfeature_list_sparse,
        Nfeature_list_dense, feature_list_dense_types, feature_list_sparse_types,
        feature_list_ragged_value_types, feature_list_ragged_split_types,
        feature_list_dense_shapes)
    if serialized.ndim > 1:
        raise _invalid(f"Expected serialized to be a scalar or vector, got shape: "
                       f"{errors.shape_text(serialized.shape)}")
    single = serialized.ndim == 0
    flat, names = serialized.reshape(-1), debug_name.reshape(-1)

    def name(i):
        return _text(names[i]) if i < names.size and names[i] else "<unknown>"

    contexts, lists = [], []
    for i, s in enumerate(flat):
        try:
            message = SequenceExample.FromString(s)
        except Exception:  # protobuf's DecodeError: not a SequenceExample
            raise _invalid(f"Invalid protocol message input, example id: {name(i)}") from None
        contexts.append(message.context.feature)
        lists.append(message.feature_lists.feature_list)

    def values(feature, dtype, mismatch):
        kind = feature.WhichOneof("kind")
        if kind is None:
            return np.empty(0, object if dtype == _d.string else dtype.as_numpy_dtype)
        if kind != _KIND[dtype]:
            raise _invalid(f"{mismatch}.  Data types don't match. Expected type: "
                           f"{_type_name(dtype)}")
        return _values(feature, kind, dtype)

    def context(i, key, dtype):
        fmap = contexts[i]
        if key not in fmap or fmap[key].WhichOneof("kind") is None:
            return None
        return values(fmap[key], dtype, f"Name: {name(i)}, Context feature: {key}")

    def steps(i, key, dtype):
        fmap = lists[i]
        if key not in fmap:
            return None
        return [values(f, dtype, f"Name: {name(i)}, Feature list: {key}, Index: {t}")
                for t, f in enumerate(fmap[key].feature)]

    def unbatched(array):
        return array.reshape(array.shape[1:]) if single else array

    outs = {"ci": [], "cv": [], "cs": [], "cd": [], "crv": [], "crs": [], "fi": [], "fv": [],
            "fs": [], "fd": [], "fl": [], "frv": [], "fro": [], "fri": []}

    def joined(arrays, dtype):
        np_type = object if dtype == _d.string else dtype.as_numpy_dtype
        return np.concatenate(arrays).astype(np_type) if arrays else np.empty(0, np_type)

    def splits(counts, dtype):  # (a scalar for one example: its count, which TF leaves unused)
        counts = np.array(counts, dtype.as_numpy_dtype)
        return counts[0] if single else np.concatenate([[0], np.cumsum(counts)]).astype(
            dtype.as_numpy_dtype)

    for key, dtype, split_type in zip(context_ragged_keys.reshape(-1),
                                      context_ragged_value_types, context_ragged_split_types):
        per = [context(i, _text(key), dtype) for i in range(len(flat))]
        per = [np.empty(0) if got is None else got for got in per]
        outs["crv"].append(joined(per, dtype))
        outs["crs"].append(splits([len(v) for v in per], split_type))
    for key, dtype, split_type in zip(feature_list_ragged_keys.reshape(-1),
                                      feature_list_ragged_value_types,
                                      feature_list_ragged_split_types):
        per = [steps(i, _text(key), dtype) or [] for i in range(len(flat))]
        each = [v for p in per for v in p]
        outs["frv"].append(joined(each, dtype))
        outs["fro"].append(splits([len(p) for p in per], split_type))
        outs["fri"].append(np.concatenate([[0], np.cumsum([len(v) for v in each], dtype=np.int64)])
                           .astype(split_type.as_numpy_dtype))
    for key, dtype in zip(context_sparse_keys.reshape(-1), context_sparse_types):
        key = _text(key)
        per = []
        for i in range(len(flat)):
            got = context(i, key, dtype)
            per.append([] if got is None else [got])
        indices, vals, longest = _sparse_output(per, dtype)
        index = np.array([(b, k) for b, _, k in indices], np.int64).reshape(-1, 2)
        outs["ci"].append(index[:, 1:] if single else index)
        outs["cv"].append(vals)
        shape = np.array([len(flat), longest[1]], np.int64)
        outs["cs"].append(shape[1:] if single else shape)
    for key, dtype, shape, default in zip(context_dense_keys.reshape(-1), Tcontext_dense,
                                          context_dense_shapes, context_dense_defaults):
        key, shape = _text(key), tuple(TensorShape(shape).as_list())
        size = int(np.prod(shape, dtype=np.int64))
        out = np.empty((len(flat), size), object if dtype == _d.string else dtype.as_numpy_dtype)
        per = [context(i, key, dtype) for i in range(len(flat))]
        # TF sizes a feature by its longest value first, its default counted as one: one
        # that no example (or an empty batch) holds and has no default is "found 0", before
        # any example is named missing; then each example's is checked against it
        longest = max([default.size] + [got.size for got in per if got is not None])
        if longest != size:
            raise _invalid(f"Inconsistent max number of elements for feature {key}: "
                           f"expected {size}, but found {longest}")
        for i, got in enumerate(per):
            if got is None and default.size:
                got = default.reshape(-1)
            elif got is None:
                raise _invalid(f"Feature: {key} (data type: {_type_name(dtype)}) is required "
                               f"but could not be found.")
            if got.size != size:
                raise _invalid(f"Unexpected number of elements in example {name(i)}")
            out[i] = got
        outs["cd"].append(unbatched(out.reshape((len(flat),) + shape)))
    for key, dtype in zip(feature_list_sparse_keys.reshape(-1), feature_list_sparse_types):
        key = _text(key)
        per = [steps(i, key, dtype) or [] for i in range(len(flat))]
        indices, vals, longest = _sparse_output(per, dtype)
        index = np.array(indices, np.int64).reshape(-1, 3)
        outs["fi"].append(index[:, 1:] if single else index)
        outs["fv"].append(vals)
        shape = np.array([len(flat)] + longest, np.int64)
        outs["fs"].append(shape[1:] if single else shape)
    flags = feature_list_dense_missing_assumed_empty.reshape(-1)
    assumed_empty = {_text(k) for k, empty in zip(feature_list_dense_keys.reshape(-1), flags)
                     if empty}
    for key, dtype, shape in zip(feature_list_dense_keys.reshape(-1), feature_list_dense_types,
                                 feature_list_dense_shapes):
        key, shape = _text(key), tuple(TensorShape(shape).as_list())
        size = int(np.prod(shape, dtype=np.int64))
        np_type = object if dtype == _d.string else dtype.as_numpy_dtype
        found = [steps(i, key, dtype) for i in range(len(flat))]
        # TF sizes the output by the most values an example holds, checked first: not a
        # whole number of steps is this error before any step is checked
        most = max((sum(v.size for v in got) for got in found if got), default=0)
        if size and most % size:
            raise _invalid(f"Feature list '{key}' has an unexpected number of values.  Total "
                           f"values size: {most} is not consistent with output shape: "
                           f"{errors.shape_text((-1,) + shape).replace('-1', '?')}")
        per = []
        for i, got in enumerate(found):
            if got is None:
                if key not in assumed_empty:
                    raise _invalid(
                        f"Name: {name(i)}, Feature list '{key}' is required but could not be "
                        f"found.  Did you mean to include it in "
                        f"feature_list_dense_missing_assumed_empty or "
                        f"feature_list_dense_defaults?")
                got = []
            for t, v in enumerate(got):
                if v.size != size:
                    raise _invalid(f"Name: {name(i)}, Key: {key}, Index: {t}.  Number of values "
                                   f"!= expected.  values size: {v.size} but output shape: "
                                   f"{errors.shape_text(shape)}")
            per.append(got)
        longest = max((len(p) for p in per), default=0)
        out = np.empty((len(flat), longest, size), np_type)
        out[...] = _default_fill(dtype)
        for i, p in enumerate(per):
            for t, v in enumerate(p):
                out[i, t] = v
        outs["fd"].append(unbatched(out.reshape((len(flat), longest) + shape)))
        lengths = np.array([len(p) for p in per], np.int64)
        outs["fl"].append(unbatched(lengths))
    return tuple(outs["ci"] + outs["cv"] + outs["cs"] + outs["cd"] + outs["crv"] + outs["crs"]
                 + outs["fi"] + outs["fv"] + outs["fs"] + outs["fd"] + outs["fl"] + outs["frv"]
                 + outs["fro"] + outs["fri"])


def _check_parse_sequence_example_v2_args(
        serialized, debug_name, context_sparse_keys, context_dense_keys, context_ragged_keys,
        feature_list_sparse_keys, feature_list_dense_keys, feature_list_ragged_keys,
        missing_assumed_empty, context_dense_defaults, Ncontext_sparse, Tcontext_dense,
        context_sparse_types, context_ragged_value_types, context_ragged_split_types,
        context_dense_shapes, Nfeature_list_sparse, Nfeature_list_dense,
        feature_list_dense_types, feature_list_sparse_types, feature_list_ragged_value_types,
        feature_list_ragged_split_types, feature_list_dense_shapes):
    """TF's errors for a ParseSequenceExampleV2 whose keys, types, shapes, names and
    defaults disagree (the kernel would read one list by another's length)."""
    for what, count, types in (("context_sparse", Ncontext_sparse, context_sparse_types),
                               ("feature_list_sparse", Nfeature_list_sparse,
                                feature_list_sparse_types)):
        if count != len(types):
            raise _invalid(f"num_{what} ({count}) must match the size of {what}_types "
                           f"({len(types)})")
    for what, count, types, other, others in (
            ("context_dense", len(Tcontext_dense), Tcontext_dense, "shapes",
             context_dense_shapes),
            ("feature_list_dense", Nfeature_list_dense, feature_list_dense_types, "shapes",
             feature_list_dense_shapes),
            ("context_ragged", len(context_ragged_value_types), context_ragged_value_types,
             "split_types", context_ragged_split_types),
            ("feature_list_ragged", len(feature_list_ragged_value_types),
             feature_list_ragged_value_types, "split_types", feature_list_ragged_split_types)):
        if count != len(types) or count != len(others):
            kind = "value_types" if "ragged" in what else "types"
            raise _invalid(f"num_{what} ({count}) must match the size of {what}_{kind} "
                           f"({len(types)}) and {what}_{other} ({len(others)})")
    for keys, what, count, expected in (
            (context_sparse_keys, "context_sparse_keys", "Ncontext_sparse", Ncontext_sparse),
            (context_dense_keys, "context_dense_keys", "len(Tcontext_dense)",
             len(Tcontext_dense)),
            (context_ragged_keys, "context_ragged_keys", "len(context_ragged_value_types)",
             len(context_ragged_value_types)),
            (feature_list_sparse_keys, "feature_list_sparse_keys", "Nfeature_list_sparse",
             Nfeature_list_sparse),
            (feature_list_dense_keys, "feature_list_dense_keys", "Nfeature_list_dense",
             Nfeature_list_dense),
            (feature_list_ragged_keys, "feature_list_ragged_keys",
             "len(feature_list_ragged_value_types)", len(feature_list_ragged_value_types)),
            (missing_assumed_empty, "feature_list_dense_missing_assumed_empty",
             "Nfeature_list_dense", Nfeature_list_dense)):
        if keys.size != expected:
            raise _invalid(f"Expected len({what}) to match {count}")
    if debug_name.size and debug_name.size != serialized.size:
        raise _invalid("example_names must be empty or have the correct number of elements")
    for i, (shape, default) in enumerate(zip(context_dense_shapes, context_dense_defaults)):
        shape = TensorShape(shape)
        if default.size and shape.rank is not None and \
                tuple(default.shape) != tuple(shape.as_list()):
            raise _invalid(f"default_value[{i}].shape() == {errors.shape_text(default.shape)} "
                           f"!= context_dense_shapes[{i}] == "
                           f"{errors.shape_text(shape.as_list())}")


def _parse_sequence_example_v2_rule(serialized, *inputs, Ncontext_sparse, Tcontext_dense,
                                    context_sparse_types, context_dense_shapes,
                                    Nfeature_list_sparse, feature_list_dense_types,
                                    feature_list_sparse_types, feature_list_dense_shapes,
                                    context_ragged_value_types=(), context_ragged_split_types=(),
                                    feature_list_ragged_value_types=(),
                                    feature_list_ragged_split_types=(), **_):
    batch = serialized.shape
    known = batch.rank is not None

    def rank(extra):
        return batch.rank + extra if known else None

    def dense(shape):
        return batch.concatenate(TensorShape(list(shape))) if known else TensorShape(None)

    def row_splits(t):  # (a scalar for one example)
        if not known:
            return TensorShape(None), t
        return TensorShape([] if batch.rank == 0 else [None if batch[0] is None
                                                       else batch[0] + 1]), t

    return ([(TensorShape([None, rank(1)]), _d.int64)] * Ncontext_sparse
            + [(TensorShape([None]), t) for t in context_sparse_types]
            + [(TensorShape([rank(1)]), _d.int64)] * Ncontext_sparse
            + [(dense(s), t) for t, s in zip(Tcontext_dense, context_dense_shapes)]
            + [(TensorShape([None]), t) for t in context_ragged_value_types]
            + [row_splits(t) for t in context_ragged_split_types]
            + [(TensorShape([None, rank(2)]), _d.int64)] * Nfeature_list_sparse
            + [(TensorShape([None]), t) for t in feature_list_sparse_types]
            + [(TensorShape([rank(2)]), _d.int64)] * Nfeature_list_sparse
            + [(dense([None] + TensorShape(s).as_list()), t)
               for t, s in zip(feature_list_dense_types, feature_list_dense_shapes)]
            + [(batch if known else TensorShape(None), _d.int64)] * len(feature_list_dense_types)
            + [(TensorShape([None]), t) for t in feature_list_ragged_value_types]
            + [row_splits(t) for t in feature_list_ragged_split_types]
            + [(TensorShape([None]), t) for t in feature_list_ragged_split_types])


_PARSE_SEQUENCE_EXAMPLE_V2 = register(
    "ParseSequenceExampleV2", _parse_sequence_example_v2, _parse_sequence_example_v2_rule,
    multi=True, tied=(), not_differentiable=_NO_GRAD)
batching_rules[_PARSE_SEQUENCE_EXAMPLE_V2] = PER_ELEMENT
tf_nodes[_PARSE_SEQUENCE_EXAMPLE_V2] = NodeForm(types={})
tf_args[_PARSE_SEQUENCE_EXAMPLE_V2] = ("serialized", "debug_name", "context_sparse_keys",
                                       "context_dense_keys", "context_ragged_keys",
                                       "feature_list_sparse_keys", "feature_list_dense_keys",
                                       "feature_list_ragged_keys",
                                       "feature_list_dense_missing_assumed_empty",
                                       "*context_dense_defaults")
tf_defaults[_PARSE_SEQUENCE_EXAMPLE_V2] = {"Tcontext_dense": input_dtypes(9),
                                           "Ncontext_sparse": 0, "context_sparse_types": (),
                                           "context_ragged_value_types": (),
                                           "context_ragged_split_types": (),
                                           "context_dense_shapes": (), "Nfeature_list_sparse": 0,
                                           "Nfeature_list_dense": 0, "feature_list_dense_types": (),
                                           "feature_list_sparse_types": (),
                                           "feature_list_ragged_value_types": (),
                                           "feature_list_ragged_split_types": (),
                                           "feature_list_dense_shapes": ()}


# -- ParseSingleSequenceExample (TF 1's op, as graphs written then hold it) ---------------------

def _single_sequence_lists(lists, context_sparse_types, context_dense_shapes,
                           feature_list_sparse_types, feature_list_dense_types):
    """The key lists, the context defaults and the debug name of a ParseSingleSequenceExample's
    inputs (given one list after the other: each as long as its attr's list)."""
    counts = (len(context_sparse_types), len(context_dense_shapes),
              len(feature_list_sparse_types), len(feature_list_dense_types))
    if len(lists) != sum(counts) + counts[1] + 1:
        raise _invalid(f"Expected {counts[0]} context sparse keys, {counts[1]} context dense "
                       f"keys and defaults, {counts[2]} feature list sparse keys and "
                       f"{counts[3]} feature list dense keys (as their types and shapes "
                       f"say), then debug_name, but got {len(lists)} inputs")
    out, at = [], 0
    for n in counts:
        out.append(_keys([k.item() for k in lists[at:at + n]]))
        at += n
    return out, lists[at:at + counts[1]], lists[-1]


def _parse_single_sequence_example(xp, serialized, missing_assumed_empty, *lists,
                                   context_sparse_types, Tcontext_dense, context_dense_shapes,
                                   feature_list_sparse_types, feature_list_dense_types,
                                   feature_list_dense_shapes):
    (context_sparse, context_dense, list_sparse, list_dense), defaults, debug_name = \
        _single_sequence_lists(lists, context_sparse_types, context_dense_shapes,
                               feature_list_sparse_types, feature_list_dense_types)
    if serialized.ndim != 0:
        raise _invalid(f"Expected serialized to be a scalar, got shape: "
                       f"{errors.shape_text(serialized.shape)}")
    # (TF 1 names the feature lists that may be missing; ParseSequenceExampleV2 flags them)
    missing = set(missing_assumed_empty.reshape(-1).tolist())
    flags = np.array([k in missing for k in list_dense], bool)
    out = _parse_sequence_example_v2(
        xp, serialized, debug_name, context_sparse, context_dense, _keys([]), list_sparse,
        list_dense, _keys([]), flags, *defaults, Ncontext_sparse=len(context_sparse_types),
        Tcontext_dense=Tcontext_dense, context_sparse_types=context_sparse_types,
        context_ragged_value_types=(), context_ragged_split_types=(),
        context_dense_shapes=context_dense_shapes,
        Nfeature_list_sparse=len(feature_list_sparse_types),
        Nfeature_list_dense=len(feature_list_dense_types),
        feature_list_dense_types=feature_list_dense_types,
        feature_list_sparse_types=feature_list_sparse_types, feature_list_ragged_value_types=(),
        feature_list_ragged_split_types=(), feature_list_dense_shapes=feature_list_dense_shapes)
    # (TF 1's op has no lengths of the dense feature lists: they are the last outputs here)
    return out[:len(out) - len(feature_list_dense_types)]


def _parse_single_sequence_example_rule(serialized, missing_assumed_empty, *lists,
                                        context_sparse_types, Tcontext_dense,
                                        context_dense_shapes, feature_list_sparse_types,
                                        feature_list_dense_types, feature_list_dense_shapes):
    out = _parse_sequence_example_v2_rule(
        serialized, Ncontext_sparse=len(context_sparse_types), Tcontext_dense=Tcontext_dense,
        context_sparse_types=context_sparse_types, context_dense_shapes=context_dense_shapes,
        Nfeature_list_sparse=len(feature_list_sparse_types),
        feature_list_dense_types=feature_list_dense_types,
        feature_list_sparse_types=feature_list_sparse_types,
        feature_list_dense_shapes=feature_list_dense_shapes)
    return out[:len(out) - len(feature_list_dense_types)]


def _single_sequence_counts(attrs, inputs):
    """TF's attrs of a ParseSingleSequenceExample node: its counts of each kind of key."""
    return {**attrs, "Ncontext_sparse": len(attrs["context_sparse_types"]),
            "Ncontext_dense": len(attrs["context_dense_shapes"]),
            "Nfeature_list_sparse": len(attrs["feature_list_sparse_types"]),
            "Nfeature_list_dense": len(attrs["feature_list_dense_types"])}


_PARSE_SINGLE_SEQUENCE_EXAMPLE = register(
    "ParseSingleSequenceExample", _parse_single_sequence_example,
    _parse_single_sequence_example_rule, multi=True, tied=(), not_differentiable=_NO_GRAD)
batching_rules[_PARSE_SINGLE_SEQUENCE_EXAMPLE] = PER_ELEMENT
tf_nodes[_PARSE_SINGLE_SEQUENCE_EXAMPLE] = NodeForm(
    types={}, ignored=("Ncontext_sparse", "Ncontext_dense", "Nfeature_list_sparse",
                       "Nfeature_list_dense"), rewrite=_single_sequence_counts)
tf_args[_PARSE_SINGLE_SEQUENCE_EXAMPLE] = (
    "serialized", "feature_list_dense_missing_assumed_empty", "*context_sparse_keys",
    "*context_dense_keys", "*feature_list_sparse_keys", "*feature_list_dense_keys",
    "*context_dense_defaults", "debug_name")
tf_defaults[_PARSE_SINGLE_SEQUENCE_EXAMPLE] = {
    "Tcontext_dense": lambda inputs, attrs: tuple(t.dtype for t in inputs[
        2 + sum(len(attrs.get(k, ())) for k in (
            "context_sparse_types", "context_dense_shapes", "feature_list_sparse_types",
            "feature_list_dense_types")):-1]),
    "context_sparse_types": (), "context_dense_shapes": (), "feature_list_sparse_types": (),
    "feature_list_dense_types": (), "feature_list_dense_shapes": ()}


def _sequence_specs(context_features, sequence_features):
    if not context_features and not sequence_features:
        raise ValueError("Both context_features and sequence_features are None, but at least "
                         "one should have values.")
    _check_keys(context_features)  # (before a ragged feature's keys displace the others')
    _check_keys(sequence_features)
    context_features, context_made, c_ragged = _sequence_ragged(context_features)
    sequence_features, sequence_made, f_ragged = _sequence_ragged(sequence_features)
    for key, feature in context_features.items():
        if isinstance(feature, FixedLenSequenceFeature):
            raise ValueError(f"Unsupported FixedLenSequenceFeature {feature} for key '{key}'")
    sequence_dense, sequence_sparse = [], []
    for key in sorted(sequence_features):
        feature = sequence_features[key]
        if isinstance(feature, FixedLenFeature):
            raise ValueError(f"Unsupported FixedLenFeature {feature} for key '{key}'")
        if isinstance(feature, VarLenFeature):
            dtype = _d.as_dtype(feature.dtype)
            _check_type("feature_list_sparse_types", dtype)
            sequence_sparse.append((key, dtype))
        elif isinstance(feature, FixedLenSequenceFeature):
            if feature.default_value is not None:
                raise ValueError(f"Value feature_list.dense_defaults[{key}] must be None")
            dtype = _d.as_dtype(feature.dtype)
            _check_type("feature_list_dense_types", dtype)
            _check_shape_given(key, feature)
            sequence_dense.append((key, dtype, TensorShape(feature.shape).as_list(),
                                   bool(feature.allow_missing)))
        else:
            raise ValueError(f"Unsupported {type(feature).__name__} {feature} for key "
                             f"'{key}'")
    context_sparse, context_dense = ([], []) if not context_features else \
        _split_features(context_features)
    return (context_sparse, context_dense, c_ragged, context_made, sequence_sparse,
            sequence_dense, f_ragged, sequence_made)


def _sequence_ragged(features):
    """(the other features, the ragged ones by key, [(key, value dtype, row splits dtype)]
    of the values each needs, parsed as ragged (its values and its partitions' keys))."""
    plain, made = _ragged_features(features)
    ragged = {}
    for key, feature in sorted(made.items()):
        for k, var_len in sorted(feature._var_len_features(key).items()):
            plain.pop(k, None)
            dtype = _d.as_dtype(var_len.dtype)
            _check_type("feature_list_ragged_value_types", dtype)
            split_type = _d.as_dtype(feature.row_splits_dtype)
            if k in ragged and ragged[k][2] != split_type:
                raise ValueError(f"Conflicting partition type {ragged[k][2]} vs "
                                 f"{split_type} for feature {k}.")
            ragged.setdefault(k, (k, dtype, split_type))
    return plain, made, list(ragged.values())


def _parse_sequence(serialized, context_features, sequence_features, names, name):
    (c_sparse, c_dense, c_ragged, c_made, f_sparse, f_dense, f_ragged,
     f_made) = _sequence_specs(context_features, sequence_features)
    serialized = convert_to_tensor(serialized, _d.string)

    def strings(values):
        return convert_to_tensor(_keys(list(values)), _d.string)

    inputs = [serialized, convert_to_tensor([] if names is None else names, _d.string),
              strings(k for k, _ in c_sparse), strings(k for k, *_ in c_dense),
              strings(k for k, *_ in c_ragged), strings(k for k, _ in f_sparse),
              strings(k for k, *_ in f_dense), strings(k for k, *_ in f_ragged),
              convert_to_tensor(np.array([empty for *_, empty in f_dense], bool).reshape(-1))]
    inputs += [convert_to_tensor(d, t) for _, t, _, d in c_dense]
    attrs = {"Ncontext_sparse": len(c_sparse), "Tcontext_dense": tuple(t for _, t, *_ in c_dense),
             "context_sparse_types": tuple(t for _, t in c_sparse),
             "context_ragged_value_types": tuple(t for _, t, _ in c_ragged),
             "context_ragged_split_types": tuple(t for *_, t in c_ragged),
             "context_dense_shapes": tuple(TensorShape(list(s)) for _, _, s, _ in c_dense),
             "Nfeature_list_sparse": len(f_sparse), "Nfeature_list_dense": len(f_dense),
             "feature_list_dense_types": tuple(t for _, t, *_ in f_dense),
             "feature_list_sparse_types": tuple(t for _, t in f_sparse),
             "feature_list_ragged_value_types": tuple(t for _, t, _ in f_ragged),
             "feature_list_ragged_split_types": tuple(t for *_, t in f_ragged),
             "feature_list_dense_shapes": tuple(TensorShape(s) for _, _, s, _ in f_dense)}
    try:
        outs = list(dispatch(_PARSE_SEQUENCE_EXAMPLE_V2, inputs, attrs, name))
    except errors.OpError as e:
        raise errors.without_name(e) from None  # TF passes the keys as lists: its slow path
    take = iter(outs)
    n = len(c_sparse)
    ci, cv, cs = ([next(take) for _ in range(n)] for _ in range(3))
    context = {k: SparseTensor(i, v, s) for (k, _), i, v, s in zip(c_sparse, ci, cv, cs)}
    context.update((k, next(take)) for k, *_ in c_dense)
    n = len(c_ragged)
    values, row_splits = ([next(take) for _ in range(n)] for _ in range(2))
    # each ragged value as its values and row splits (one row per example)
    parsed = {k: (v, s) for (k, *_), v, s in zip(c_ragged, values, row_splits)}
    single = serialized.shape.rank == 0
    context.update((k, c_made[k]._from_parsed(parsed, k, single))
                   for k in _ragged_order(c_made, c_ragged))
    n = len(f_sparse)
    fi, fv, fs = ([next(take) for _ in range(n)] for _ in range(3))
    lists = {k: SparseTensor(i, v, s) for (k, _), i, v, s in zip(f_sparse, fi, fv, fs)}
    lists.update((k, next(take)) for k, *_ in f_dense)
    lengths = {k: next(take) for k, *_ in f_dense}
    n = len(f_ragged)
    values, outer, inner = ([next(take) for _ in range(n)] for _ in range(3))
    # a feature list's values with one row per step of every example, and its steps
    parsed = {k: (v, s) for (k, *_), v, s in zip(f_ragged, values, inner)}
    outer = {k: s for (k, *_), s in zip(f_ragged, outer)}
    lists.update((k, f_made[k]._from_parsed_lists(parsed, k, outer[f_made[k].value_key or k],
                                                  single))
                 for k in _ragged_order(f_made, f_ragged))
    return context, lists, lengths


def _ragged_order(made, ragged):
    """The keys of the ragged features `made` in TF's order: those the op parses under their
    own key as it orders them, then the others (partitioned, or read from another key)."""
    first = [k for k, *_ in ragged if k in made]
    return first + sorted(k for k in made if k not in first)


@export("io.parse_sequence_example", "compat.v1.io.parse_sequence_example")
def parse_sequence_example(serialized, context_features=None, sequence_features=None,
                           example_names=None, name=None):
    """Parses a batch of serialized `SequenceExample` protos.

    Returns ``(context, feature_lists, lengths)``: dicts of tensors for the context
    features (as `parse_example` makes them), for the feature lists (a
    `FixedLenSequenceFeature` padded to ``[batch, longest, ...]``, a `VarLenFeature`
    sparse of shape ``[batch, steps, values]``, a `tf.io.RaggedFeature` ragged
    ``[batch, (steps), (values), ...]``), and the number of steps of each dense
    feature list per example.
    """
    return _parse_sequence(serialized, context_features, sequence_features, example_names,
                           name)


@export("io.parse_single_sequence_example", "compat.v1.io.parse_single_sequence_example",
        "compat.v1.parse_single_sequence_example")
def parse_single_sequence_example(serialized, context_features=None, sequence_features=None,
                                  example_name=None, name=None):
    """Parses one serialized `SequenceExample`: ``(context, feature_lists)``.

    >>> seq = tf.train.SequenceExample(feature_lists=tf.train.FeatureLists(feature_list={
    ...     "w": tf.train.FeatureList(feature=[
    ...         tf.train.Feature(int64_list=tf.train.Int64List(value=[v])) for v in (4, 5)])}))
    >>> _, lists = tf.io.parse_single_sequence_example(
    ...     seq.SerializeToString(),
    ...     sequence_features={"w": tf.io.FixedLenSequenceFeature([], tf.int64)})
    >>> lists["w"]
    <tf.Tensor: shape=(2,), dtype=int64, numpy=array([4, 5])>
    """
    serialized = convert_to_tensor(serialized, _d.string)
    if serialized.shape.rank is not None and serialized.shape.rank != 0:
        raise ValueError("Input serialized must be a scalar")
    context, lists, _ = _parse_sequence(serialized, context_features, sequence_features,
                                        None if example_name is None else [example_name], name)
    return context, lists


# -- DecodeJSONExample -------------------------------------------------------------------------

def _decode_json_example(xp, json_examples):
    out = np.empty(np.shape(json_examples), object)
    flat = out.reshape(-1)
    for i, text in enumerate(np.asarray(json_examples, object).reshape(-1)):
        flat[i] = _json_example_bytes(bytes(text))
    return out


def _json_example_bytes(text):
    """The `Example` JSON `text` stands for, serialized as TF's JSON reader writes it: the
    features in the order the JSON lists them, each list's values one field apiece (not
    packed), float32 denormals as zeros."""
    from google.protobuf import json_format  # noqa: PLC0415 (protobuf)
    from eagerflow._src.core.protos.example import Example  # noqa: PLC0415
    try:
        value = json.loads(text, object_pairs_hook=_without_repeated_keys)
    except ValueError as e:
        raise _invalid(f"Error while parsing JSON: Failed to load JSON: {e}.") from None
    features = value.get("features") if isinstance(value, dict) else None
    table = features.get("feature") if isinstance(features, dict) else None
    table = table if isinstance(table, dict) else {}
    if any(v is None for v in table.values()):  # (a null feature: its key alone, in TF)
        features = dict(features, feature={k: v or {} for k, v in table.items()})
        value = dict(value, features=features)
    try:
        example = json_format.ParseDict(value, Example())
    except json_format.ParseError as e:
        raise _invalid(f"Error while parsing JSON: {e}") from None
    if not example.HasField("features"):
        return b""
    entries = b"".join(
        _proto_field(1, _proto_field(1, key.encode()) + (
            b"" if table[key] is None else
            _proto_field(2, _feature_bytes(example.features.feature[key]))))
        for key in table)
    return _proto_field(1, entries)


def _without_repeated_keys(pairs):
    keys = [k for k, _ in pairs]
    for key in keys:
        if keys.count(key) > 1:
            raise ValueError(f"duplicate key {key}")
    return dict(pairs)


def _feature_bytes(feature):
    kind = feature.WhichOneof("kind")
    if kind is None:
        return b""
    values = getattr(feature, kind).value
    if kind == "bytes_list":
        body = b"".join(_proto_field(1, v) for v in values)
    elif kind == "float_list":
        numbers = float_math.denormals_read_as_zero(np.array(values, "<f4"))
        body = b"".join(b"\x0d" + v.tobytes() for v in numbers)
    else:
        body = b"".join(b"\x08" + _varint(v) for v in values)
    return _proto_field({"bytes_list": 1, "float_list": 2, "int64_list": 3}[kind], body)


_DECODE_JSON_EXAMPLE = register("DecodeJSONExample", _decode_json_example,
                                lambda j: (j.shape, _d.string), dtypes=(_d.string,),
                                not_differentiable=_NO_GRAD, elementwise=True)
tf_args[_DECODE_JSON_EXAMPLE] = ("json_examples",)
tf_nodes[_DECODE_JSON_EXAMPLE] = NodeForm(outputs=("binary_examples",))


@export("io.decode_json_example", "compat.v1.io.decode_json_example",
        "compat.v1.decode_json_example")
def decode_json_example(json_examples, name=None):
    """Each JSON text of an `Example` message (protobuf's JSON mapping) as the serialized
    message, to parse with `parse_example`.

    >>> s = tf.io.decode_json_example('{"features": {"feature": {"a": {"int64List": '
    ...                               '{"value": ["3"]}}}}}')
    >>> int(tf.io.parse_single_example(s, {"a": tf.io.FixedLenFeature([], tf.int64)})["a"])
    3
    """
    return dispatch(_DECODE_JSON_EXAMPLE, (convert_input(json_examples, _d.string),), {},
                    name)
